//! Argo CD's matrix and merge generator tests (matrix_test.go, merge_test.go), transcribed.

use serde_json::{Value, json};

use super::test_support::{Fixture, REPO, repositories, same_elements, secret};

fn list(elements: Value) -> Value {
    json!({"list": {"elements": elements}})
}

fn matrix(generators: Value) -> Value {
    json!({"matrix": {"generators": generators}})
}

// argo-cd matrix_test.go TestMatrixGenerate: "happy flow - generate params" (git directories
// over a checkout, the list interpolated with each directory), "... from two lists" and the
// errors.
#[test]
fn upstream_matrix_generate() {
    let mut f = Fixture::new(false);
    f.repositories = repositories(&[("app1/x", ""), ("app2/x", "")]);
    let git =
        json!({"git": {"repoURL": REPO, "revision": "Revision", "directories": [{"path": "*"}]}});
    let the_list = list(
        json!([{"cluster": "Cluster", "url": "Url", "templated": "test-{{path.basenameNormalized}}"}]),
    );
    let got = f.run(matrix(json!([git, the_list]))).unwrap();
    assert!(
        same_elements(
            &got,
            &json!([
                {"path": "app1", "path.basename": "app1", "path.basenameNormalized": "app1", "path[0]": "app1", "cluster": "Cluster", "url": "Url", "templated": "test-app1"},
                {"path": "app2", "path.basename": "app2", "path.basenameNormalized": "app2", "path[0]": "app2", "cluster": "Cluster", "url": "Url", "templated": "test-app2"},
            ])
        ),
        "{got:?}"
    );

    let two_lists = matrix(json!([
        list(json!([{"a": "1"}, {"a": "2"}])),
        list(json!([{"b": "1"}, {"b": "2"}]))
    ]));
    let expected = json!([{"a": "1", "b": "1"}, {"a": "1", "b": "2"}, {"a": "2", "b": "1"}, {"a": "2", "b": "2"}]);
    assert!(same_elements(&f.run(two_lists.clone()).unwrap(), &expected));
    f.go_template = true;
    assert!(
        same_elements(&f.run(two_lists).unwrap(), &expected),
        "TestMatrixGenerateGoTemplate"
    );
    f.go_template = false;

    let error = f.run(matrix(json!([git]))).unwrap_err();
    assert!(error.starts_with("spec.generators[0].matrix.generators: found less than two generators, Matrix support only two"), "{error}");
    let error = f
        .run(matrix(json!([the_list, the_list, the_list])))
        .unwrap_err();
    assert!(
        error.contains("found more than two generators, Matrix support only two"),
        "{error}"
    );
    let both = json!({"git": git["git"], "list": the_list["list"]});
    let error = f.run(matrix(json!([both, git]))).unwrap_err();
    assert!(
        error.starts_with("spec.generators[0].matrix.generators[0]: sets 2 generators (list, git)"),
        "{error}"
    );
    let error = f.run(matrix(json!([the_list, both]))).unwrap_err();
    assert!(
        error.starts_with("spec.generators[0].matrix.generators[1]: sets 2 generators"),
        "{error}"
    );
}

// argo-cd matrix_test.go TestMatrixGenerateGoTemplate "parameter override: first list elements
// take precedence", false values included.
#[test]
fn upstream_matrix_first_generator_wins() {
    let f = Fixture::new(true);
    let got = f
        .run(matrix(json!([
            list(json!([{"booleanFalse": false, "booleanTrue": true, "stringFalse": "false", "stringTrue": "true"}])),
            list(json!([{"booleanFalse": true, "booleanTrue": false, "stringFalse": "true", "stringTrue": "false"}])),
        ])))
        .unwrap();
    assert!(same_elements(
        &got,
        &json!([{"booleanFalse": false, "booleanTrue": true, "stringFalse": "false", "stringTrue": "true"}])
    ));
}

// utils/map.go CombineStringMaps: without goTemplate two children may not disagree on a key.
#[test]
fn a_flat_matrix_refuses_a_key_both_children_set_differently() {
    let f = Fixture::new(false);
    let error = f
        .run(matrix(json!([
            list(json!([{"a": "1"}])),
            list(json!([{"a": "2"}]))
        ])))
        .unwrap_err();
    assert!(
        error.contains("found duplicate key a with different value, a: 1 ,b: 2"),
        "{error}"
    );
}

// DESIGN.md: two lists of 400 elements each would make 160,000 Applications; nested, a few
// kilobytes of YAML make millions. The matrix stops past its bound, naming it.
#[test]
fn a_matrix_past_the_bound_on_parameter_sets_is_refused() {
    let f = Fixture::new(false);
    let elements =
        |key: &str| Value::Array((0..400).map(|i| json!({ key: i.to_string() })).collect());
    let error = f
        .run(matrix(json!([list(elements("a")), list(elements("b"))])))
        .unwrap_err();
    assert!(
        error.contains("the matrix makes more than 100000 parameter sets, past fedrender's bound"),
        "{error}"
    );
    // 300 x 300 is within it.
    let within =
        |key: &str| Value::Array((0..300).map(|i| json!({ key: i.to_string() })).collect());
    let made = f
        .run(matrix(json!([list(within("a")), list(within("b"))])))
        .unwrap();
    assert_eq!(made.len(), 90_000);
}

// argo-cd matrix_test.go TestInterpolatedMatrixGenerate: a git files generator's path picks
// the clusters by label.
#[test]
fn upstream_interpolated_matrix_generate() {
    let mut f = Fixture::new(false);
    let dir = "examples/git-generator-files-discovery/cluster-config";
    let dev = format!("{dir}/dev/config.json");
    let prod = format!("{dir}/prod/config.json");
    f.repositories = repositories(&[(&dev, "{}"), (&prod, "{}")]);
    f.clusters = vec![
        secret(
            "dev-01",
            "https://dev-01.example.com",
            None,
            &[("environment", "dev")],
            &[],
        ),
        secret(
            "prod-01",
            "https://prod-01.example.com",
            None,
            &[("environment", "prod")],
            &[],
        ),
    ];
    let got = f
        .run(matrix(json!([
            {"git": {"repoURL": REPO, "files": [{"path": dev}, {"path": prod}]}},
            {"clusters": {"selector": {"matchLabels": {"environment": "{{path.basename}}"}}}},
        ])))
        .unwrap();
    let names: Vec<(&str, &str)> = got
        .iter()
        .map(|p| {
            (
                p["path.basename"].as_str().unwrap(),
                p["name"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(names, [("dev", "dev-01"), ("prod", "prod-01")]);
    assert_eq!(got[0]["metadata.labels.environment"], "dev");
}

// argo-cd matrix_test.go TestInterpolatedMatrixGenerateGoTemplate_ClusterValuesFromFirstGenerator:
// with missingkey=error, the clusters generator's values resolve from the git parameters
// before the clusters generator renders them again.
#[test]
fn upstream_cluster_values_from_first_generator() {
    let mut f = Fixture::new(true);
    f.options = vec!["missingkey=error".into()];
    f.repositories = repositories(&[("guestbook/x.yaml", "")]);
    f.clusters = vec![secret(
        "guestbook-cluster",
        "https://guestbook.example.com",
        None,
        &[("environment", "guestbook")],
        &[],
    )];
    let got = f
        .run(matrix(json!([
            {"git": {"repoURL": REPO, "revision": "HEAD", "directories": [{"path": "guestbook"}]}},
            {"clusters": {"selector": {"matchLabels": {"environment": "{{.path.basename}}"}},
                          "values": {"env": "{{.path.basename}}"}}},
        ])))
        .unwrap();
    assert_eq!(got.len(), 1);
    assert_eq!(got[0]["values"], json!({"env": "guestbook"}));
    assert_eq!(got[0]["path"]["basename"], "guestbook");
    assert_eq!(got[0]["name"], "guestbook-cluster");
    assert_eq!(got[0]["server"], "https://guestbook.example.com");
}

// argo-cd matrix_test.go TestMatrixGenerateListElementsYaml: elementsYaml rendered with the
// first generator's parameters.
#[test]
fn upstream_matrix_list_elements_yaml() {
    let mut f = Fixture::new(true);
    f.repositories = repositories(&[(
        "path/dir/file_name.yaml",
        "foo:\n  bar:\n    - chart: a\n      version: '1'\n    - chart: b\n      version: '2'\n",
    )]);
    let got = f
        .run(matrix(json!([
            {"git": {"repoURL": REPO, "files": [{"path": "path/dir/file_name.yaml"}]}},
            {"list": {"elements": [], "elementsYaml": "{{ .foo.bar | toJson }}"}},
        ])))
        .unwrap();
    let bar = json!([{"chart": "a", "version": "1"}, {"chart": "b", "version": "2"}]);
    let path = json!({"basename": "dir", "basenameNormalized": "dir", "filename": "file_name.yaml",
                      "filenameNormalized": "file-name.yaml", "path": "path/dir", "segments": ["path", "dir"]});
    assert!(
        same_elements(
            &got,
            &json!([
                {"chart": "a", "version": "1", "foo": {"bar": bar}, "path": path},
                {"chart": "b", "version": "2", "foo": {"bar": bar}, "path": path},
            ])
        ),
        "{got:?}"
    );
}

#[test]
fn matrices_nest_two_deep_and_children_have_no_template() {
    let f = Fixture::new(false);
    let inner = matrix(json!([
        list(json!([{"a": "1"}])),
        list(json!([{"b": "1"}]))
    ]));
    let got = f
        .run(matrix(json!([inner, list(json!([{"c": "1"}]))])))
        .unwrap();
    assert!(same_elements(
        &got,
        &json!([{"a": "1", "b": "1", "c": "1"}])
    ));
    let too_deep = matrix(json!([
        matrix(json!([inner.clone(), list(json!([]))])),
        list(json!([]))
    ]));
    let error = f.run(too_deep).unwrap_err();
    assert!(error.starts_with("spec.generators[0].matrix.generators[0].matrix.generators[0]: a matrix or merge nested in a matrix or merge may hold only"), "{error}");
    let error = f
        .run(matrix(json!([{"list": {"elements": [], "template": {"metadata": {"name": "x"}}}}, list(json!([]))])))
        .unwrap_err();
    assert!(error.contains("matrix.generators[0].list.template: Argo CD ignores the template of a matrix or merge generator's child"), "{error}");
    // The CRD's empty defaults are no template.
    let empty = json!({"list": {"elements": [{"a": "1"}], "template": {"metadata": {}, "spec": {"project": "", "destination": {}}}}});
    assert_eq!(
        f.run(matrix(json!([empty, list(json!([{"b": "1"}]))])))
            .unwrap()
            .len(),
        1
    );
}

fn merge(generators: Value, keys: Value) -> Value {
    json!({"merge": {"generators": generators, "mergeKeys": keys}})
}

// argo-cd merge_test.go TestMergeGenerate, every row.
#[test]
fn upstream_merge_generate() {
    let f = Fixture::new(false);
    let one = |element: Value| list(json!([element]));
    let error = f.run(merge(json!([]), json!(["b"]))).unwrap_err();
    assert!(
        error.contains("found less than two generators, Merge requires two or more"),
        "no generators: {error}"
    );
    let error = f
        .run(merge(
            json!([one(json!({"a": "1_1", "b": "same", "c": "1_3"}))]),
            json!(["b"]),
        ))
        .unwrap_err();
    assert!(
        error.contains("found less than two generators, Merge requires two or more"),
        "one generator"
    );
    let rows: [(&str, Value, Value, Value); 5] = [
        (
            "happy flow - generate paramSets",
            json!([
                one(json!({"a": "1_1", "b": "same", "c": "1_3"})),
                one(json!({"a": "2_1", "b": "same"})),
                one(json!({"a": "3_1", "b": "different", "c": "3_3"}))
            ]),
            json!(["b"]),
            json!([{"a": "2_1", "b": "same", "c": "1_3"}]),
        ),
        (
            "merge keys absent - do not merge",
            json!([one(json!({"a": "a"})), one(json!({"a": "a"}))]),
            json!(["b"]),
            json!([{"a": "a"}]),
        ),
        (
            "merge key present in first set, absent in second - do not merge",
            json!([one(json!({"a": "a"})), one(json!({"b": "b"}))]),
            json!(["b"]),
            json!([{"a": "a"}]),
        ),
        (
            "merge nested matrix with some lists",
            json!([
                matrix(json!([
                    list(json!([{"a": "1"}, {"a": "2"}])),
                    list(json!([{"b": "1"}, {"b": "2"}]))
                ])),
                one(json!({"a": "1", "b": "1", "c": "added"}))
            ]),
            json!(["a", "b"]),
            json!([{"a": "1", "b": "1", "c": "added"}, {"a": "1", "b": "2"}, {"a": "2", "b": "1"}, {"a": "2", "b": "2"}]),
        ),
        (
            "merge nested merge with some lists",
            json!([
                merge(
                    json!([
                        list(json!([{"a": "1", "b": "1"}, {"a": "2", "b": "2"}])),
                        list(json!([{"a": "1", "b": "3", "c": "added"}, {"a": "3", "b": "2"}]))
                    ]),
                    json!(["a"])
                ),
                one(json!({"a": "1", "b": "3", "d": "added"}))
            ]),
            json!(["a", "b"]),
            json!([{"a": "1", "b": "3", "c": "added", "d": "added"}, {"a": "2", "b": "2"}]),
        ),
    ];
    for (name, generators, keys, expected) in rows {
        let got = f.run(merge(generators, keys)).unwrap();
        assert!(same_elements(&got, &expected), "{name}: {got:?}");
    }
}

// argo-cd merge_test.go TestParamSetsAreUniqueByMergeKeys: "no merge keys", "simple key,
// non-unique paramSets", "compound key, non-unique paramSets" and a unique compound key.
#[test]
fn upstream_param_sets_are_unique_by_merge_keys() {
    let f = Fixture::new(false);
    let sets = |elements: Value| {
        merge(
            json!([list(elements), list(json!([]))]),
            json!(["key1", "key2"]),
        )
    };
    let error = f
        .run(merge(
            json!([list(json!([{"a": "1"}])), list(json!([]))]),
            json!([]),
        ))
        .unwrap_err();
    assert!(error.starts_with("spec.generators[0].merge.mergeKeys: no merge keys were specified, Merge requires at least one"), "{error}");
    let error = f
        .run(merge(
            json!([list(json!([{"key1": "a"}, {"key1": "a"}])), list(json!([]))]),
            json!(["key1", "key1"]),
        ))
        .unwrap_err();
    assert!(
        error.ends_with(
            "Merge requires all param sets to be unique. Duplicate key was {\"key1\":\"a\"}"
        ),
        "{error}"
    );
    let error = f
        .run(sets(
            json!([{"key1": "a", "key2": "b"}, {"key1": "a", "key2": "b"}]),
        ))
        .unwrap_err();
    assert!(
        error.ends_with("Duplicate key was {\"key1\":\"a\",\"key2\":\"b\"}"),
        "{error}"
    );
    assert_eq!(
        f.run(sets(
            json!([{"key1": "a", "key2": "a"}, {"key1": "a", "key2": "b"}])
        ))
        .unwrap()
        .len(),
        2
    );
}

// merge.go with goTemplate: a later set merges into the first's as mergo merges maps.
#[test]
fn a_go_template_merge_merges_nested_maps() {
    let f = Fixture::new(true);
    let got = f
        .run(merge(
            json!([
                list(json!([{"name": "a", "values": {"x": "1", "y": "1"}}])),
                list(json!([{"name": "a", "values": {"y": "2"}}]))
            ]),
            json!(["name"]),
        ))
        .unwrap();
    assert_eq!(
        Value::Object(got[0].clone()),
        json!({"name": "a", "values": {"x": "1", "y": "2"}})
    );
}
