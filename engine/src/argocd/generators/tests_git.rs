//! Argo CD's git generator tests (git_test.go), transcribed over a mapped checkout instead of a
//! mocked repo server: where upstream's mock lists a directory without its parent, the parent
//! is listed here too, as a real checkout lists it.

use serde_json::{Value, json};

use super::test_support::{Fixture, REPO, repositories, same_elements};

fn fixture(go_template: bool, files: &[(&str, &str)]) -> Fixture {
    let mut fixture = Fixture::new(go_template);
    fixture.repositories = repositories(files);
    fixture
}

fn git(fields: Value) -> Value {
    let mut git = json!({"repoURL": REPO, "revision": "HEAD"});
    git.as_object_mut()
        .unwrap()
        .extend(fields.as_object().unwrap().clone());
    json!({"git": git})
}

fn flat_dir(path: &str, segments: &[&str], base: &str, normalized: &str) -> Value {
    let mut params =
        json!({"path": path, "path.basename": base, "path.basenameNormalized": normalized});
    for (i, s) in segments.iter().enumerate() {
        params[format!("path[{i}]")] = json!(s);
    }
    params
}

// argo-cd git_test.go TestGitGenerateParamsFromDirectories: "happy flow - created apps", "It
// prefixes path parameters with PathParamPrefix", "It filters application according to the
// paths", "... with Exclude", "Expecting same exclude behavior with different order" and
// "Value variable interpolation".
#[test]
fn upstream_git_directories() {
    let f = fixture(
        false,
        &[
            ("app1/a", ""),
            ("app2/a", ""),
            ("app_3/a", ""),
            ("p1/app4/a", ""),
        ],
    );
    let got = f.run(git(json!({"directories": [{"path": "*"}]}))).unwrap();
    assert!(
        same_elements(
            &got,
            &json!([
                flat_dir("app1", &["app1"], "app1", "app1"),
                flat_dir("app2", &["app2"], "app2", "app2"),
                flat_dir("app_3", &["app_3"], "app_3", "app-3"),
                flat_dir("p1", &["p1"], "p1", "p1"),
            ])
        ),
        "{got:?}"
    );
    let got = f
        .run(git(
            json!({"directories": [{"path": "*"}], "pathParamPrefix": "myRepo"}),
        ))
        .unwrap();
    assert_eq!(
        Value::Object(got[2].clone()),
        json!({"myRepo.path": "app_3", "myRepo.path.basename": "app_3", "myRepo.path.basenameNormalized": "app-3", "myRepo.path[0]": "app_3"})
    );

    let f = fixture(
        false,
        &[
            ("app1/a", ""),
            ("p1/app2/a", ""),
            ("p1/p2/app3/a", ""),
            ("p1/p2/p3/app4/a", ""),
        ],
    );
    let got = f
        .run(git(
            json!({"directories": [{"path": "p1/*"}, {"path": "p1/*/*"}]}),
        ))
        .unwrap();
    let paths: Vec<&str> = got.iter().map(|p| p["path"].as_str().unwrap()).collect();
    // p1/p2 is a directory of its own in a checkout.
    assert_eq!(paths, ["p1/app2", "p1/p2", "p1/p2/app3", "p1/p2/p3"]);
    assert_eq!(
        Value::Object(got[2].clone()),
        flat_dir("p1/p2/app3", &["p1", "p2", "app3"], "app3", "app3")
    );

    let f = fixture(
        false,
        &[
            ("app1/a", ""),
            ("app2/a", ""),
            ("p1/app2/a", ""),
            ("p1/app3/a", ""),
            ("p2/app3/a", ""),
        ],
    );
    for directories in [
        json!([{"path": "p1/*", "exclude": true}, {"path": "*"}, {"path": "*/*"}]),
        json!([{"path": "*"}, {"path": "*/*"}, {"path": "p1/*", "exclude": true}]),
    ] {
        let got = f.run(git(json!({"directories": directories}))).unwrap();
        let paths: Vec<&str> = got.iter().map(|p| p["path"].as_str().unwrap()).collect();
        assert_eq!(paths, ["app1", "app2", "p1", "p2", "p2/app3"]);
    }

    let f = fixture(false, &[("app1/a", ""), ("p1/app2/a", "")]);
    let got = f
        .run(git(json!({"directories": [{"path": "*/*"}],
                        "values": {"foo": "bar", "aaa": "{{ path[0] }}", "no-op": "{{ this-does-not-exist }}"}})))
        .unwrap();
    let mut expected = flat_dir("p1/app2", &["p1", "app2"], "app2", "app2");
    expected["values.foo"] = json!("bar");
    expected["values.aaa"] = json!("p1");
    expected["values.no-op"] = json!("{{ this-does-not-exist }}");
    assert!(same_elements(&got, &json!([expected])));
}

// argo-cd git_test.go TestGitGenerateParamsFromDirectoriesGoTemplate, "happy flow" and the
// prefix row: `path` is a map with its segments.
#[test]
fn upstream_git_directories_go_template() {
    let f = fixture(true, &[("p1/app_4/a", "")]);
    let got = f
        .run(git(json!({"directories": [{"path": "p1/*"}]})))
        .unwrap();
    assert_eq!(
        Value::Object(got[0].clone()),
        json!({"path": {"path": "p1/app_4", "basename": "app_4", "basenameNormalized": "app-4", "segments": ["p1", "app_4"]}})
    );
    let got = f
        .run(git(
            json!({"directories": [{"path": "p1/*"}], "pathParamPrefix": "myRepo"}),
        ))
        .unwrap();
    assert_eq!(got[0]["myRepo"]["path"]["segments"], json!(["p1", "app_4"]));
}

// reposerver GetGitDirectories: hidden directories and what is under them are not listed;
// the walk lists a directory before what is under it, in name order.
#[test]
fn hidden_directories_are_skipped_and_the_walk_order_kept() {
    let f = fixture(
        false,
        &[
            (".github/workflows/ci.yaml", ""),
            ("a/b/x", ""),
            ("a-c/x", ""),
            ("a/.hidden/x", ""),
        ],
    );
    let got = f
        .run(git(
            json!({"directories": [{"path": "*"}, {"path": "*/*"}]}),
        ))
        .unwrap();
    let paths: Vec<&str> = got.iter().map(|p| p["path"].as_str().unwrap()).collect();
    assert_eq!(paths, ["a", "a/b", "a-c"]);
    let error = f
        .run(git(json!({"directories": [{"path": "a/["}]})))
        .unwrap_err();
    assert!(error.starts_with("spec.generators[0].git.directories[0].path: syntax error in pattern \"a/[\": Argo CD logs it and matches no directory"), "{error}");
}

const PRODUCTION: &str = r#"{
   "cluster": {"owner": "john.doe@example.com", "name": "production", "address": "https://kubernetes.default.svc"},
   "key1": "val1",
   "key2": {"key2_1": "val2_1", "key2_2": {"key2_2_1": "val2_2_1"}},
   "key3": 123
}"#;
const STAGING: &str = r#"{"cluster": {"owner": "foo.bar@example.com", "name": "staging", "address": "https://kubernetes.default.svc"}}"#;

fn flat_file(dir: &str, segments: &[&str], file: &str, content: Value) -> Value {
    let mut params = content;
    let base = segments.last().unwrap();
    params["path"] = json!(dir);
    params["path.basename"] = json!(base);
    params["path.basenameNormalized"] = json!(base);
    params["path.filename"] = json!(file);
    params["path.filenameNormalized"] = json!(file);
    for (i, s) in segments.iter().enumerate() {
        params[format!("path[{i}]")] = json!(s);
    }
    params
}

// argo-cd git_test.go TestGitGenerateParamsFromFiles: "happy flow" (a number flattened as
// `%v` prints it), "Value variable interpolation", "test invalid JSON file returns error",
// "test JSON array", "Test YAML flow", "test YAML array" and "test empty YAML array".
#[test]
fn upstream_git_files() {
    let f = fixture(
        false,
        &[
            ("cluster-config/production/config.json", PRODUCTION),
            ("cluster-config/staging/config.json", STAGING),
        ],
    );
    let production = flat_file(
        "cluster-config/production",
        &["cluster-config", "production"],
        "config.json",
        json!({
        "cluster.owner": "john.doe@example.com", "cluster.name": "production", "cluster.address": "https://kubernetes.default.svc",
        "key1": "val1", "key2.key2_1": "val2_1", "key2.key2_2.key2_2_1": "val2_2_1", "key3": "123"}),
    );
    let staging = flat_file(
        "cluster-config/staging",
        &["cluster-config", "staging"],
        "config.json",
        json!({
        "cluster.owner": "foo.bar@example.com", "cluster.name": "staging", "cluster.address": "https://kubernetes.default.svc"}),
    );
    let got = f
        .run(git(json!({"files": [{"path": "**/config.json"}]})))
        .unwrap();
    assert!(
        same_elements(&got, &json!([production.clone(), staging.clone()])),
        "{got:?}"
    );

    let got = f
        .run(git(json!({"files": [{"path": "**/config.json"}], "values": {"aaa": "{{ cluster.owner }}", "no-op": "{{ this-does-not-exist }}"}})))
        .unwrap();
    assert_eq!(got[0]["values.aaa"], "john.doe@example.com");
    assert_eq!(got[1]["values.aaa"], "foo.bar@example.com");
    assert_eq!(got[1]["values.no-op"], "{{ this-does-not-exist }}");

    let f = fixture(
        false,
        &[("cluster-config/production/config.json", "invalid json file")],
    );
    let error = f
        .run(git(json!({"files": [{"path": "**/config.json"}]})))
        .unwrap_err();
    assert!(error.contains(&format!(
        "unable to process file 'cluster-config/production/config.json' from repository '{REPO}': unable to parse file: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal string into Go value of type []map[string]interface {{}}"
    )), "{error}");

    let array = r#"[{"cluster": {"name": "production", "inner": {"one": "two"}}}, {"cluster": {"name": "staging"}}]"#;
    let yaml_array = "- cluster:\n    name: production\n    inner:\n      one: two\n- cluster:\n    name: staging";
    for (file, text) in [("config.json", array), ("config.yaml", yaml_array)] {
        let path = format!("cluster-config/production/{file}");
        let f = fixture(false, &[(&path, text)]);
        let got = f
            .run(git(json!({"files": [{"path": format!("**/{file}")}]})))
            .unwrap();
        let dir = ["cluster-config", "production"];
        assert!(
            same_elements(
                &got,
                &json!([
                    flat_file(
                        "cluster-config/production",
                        &dir,
                        file,
                        json!({"cluster.name": "production", "cluster.inner.one": "two"})
                    ),
                    flat_file(
                        "cluster-config/production",
                        &dir,
                        file,
                        json!({"cluster.name": "staging"})
                    ),
                ])
            ),
            "{file}: {got:?}"
        );
    }

    let f = fixture(
        false,
        &[(
            "cluster-config/production/config.yaml",
            "cluster:\n  name: production\nkey2:\n  key2_1: val2_1\n",
        )],
    );
    let got = f
        .run(git(json!({"files": [{"path": "**/config.yaml"}]})))
        .unwrap();
    assert_eq!(got[0]["key2.key2_1"], "val2_1");

    let f = fixture(false, &[("cluster-config/production/config.yaml", "[]")]);
    assert!(
        f.run(git(json!({"files": [{"path": "**/config.yaml"}]})))
            .unwrap()
            .is_empty()
    );
}

// argo-cd git_test.go Test_generateParamsFromGitFile, every row.
#[test]
fn upstream_generate_params_from_git_file() {
    let content = "\nfoo:\n  bar: baz\n";
    let file = "path/dir/file_name.yaml";
    let path_params = |prefix: &str| {
        let p = |k: &str| format!("{prefix}{k}");
        json!({p("path"): "path/dir", p("path.basename"): "dir", p("path.filename"): "file_name.yaml",
               p("path.basenameNormalized"): "dir", p("path.filenameNormalized"): "file-name.yaml",
               p("path[0]"): "path", p("path[1]"): "dir"})
    };
    let run = |go: bool, text: &str, extra: Value| {
        fixture(go, &[(file, text)]).run(git(json!({"files": [{"path": file}]})
            .as_object()
            .unwrap()
            .clone()
            .into_iter()
            .chain(extra.as_object().unwrap().clone())
            .collect::<serde_json::Map<_, _>>()
            .into()))
    };
    // "empty file returns path parameters"
    assert!(same_elements(
        &run(false, "", json!({})).unwrap(),
        &json!([path_params("")])
    ));
    // "invalid json/yaml file returns error"
    assert!(run(false, "this is not json or yaml", json!({})).is_err());
    // "file parameters are added to params"
    let mut expected = path_params("");
    expected["foo.bar"] = json!("baz");
    assert!(same_elements(
        &run(false, content, json!({})).unwrap(),
        &json!([expected])
    ));
    // "path parameter are prefixed"
    let mut expected = path_params("myRepo.");
    expected["foo.bar"] = json!("baz");
    assert!(same_elements(
        &run(false, content, json!({"pathParamPrefix": "myRepo"})).unwrap(),
        &json!([expected])
    ));
    // "file parameters are added to params with go template"
    let nested = json!({"path": "path/dir", "basename": "dir", "filename": "file_name.yaml", "basenameNormalized": "dir",
                        "filenameNormalized": "file-name.yaml", "segments": ["path", "dir"]});
    let got = run(
        true,
        content,
        json!({"values": {"somekey": "{{.path.basename}}"}}),
    )
    .unwrap();
    assert!(same_elements(
        &got,
        &json!([{"values": {"somekey": "dir"}, "foo": {"bar": "baz"}, "path": nested}])
    ));
    // "path parameter are prefixed with go template"
    let got = run(true, content, json!({"pathParamPrefix": "myRepo"})).unwrap();
    assert!(same_elements(
        &got,
        &json!([{"foo": {"bar": "baz"}, "myRepo": {"path": nested}}])
    ));
    // "path parameter are prefixed with go template and values"
    let got = run(
        true,
        content,
        json!({"pathParamPrefix": "myRepo", "values": {"test": "{{.myRepo.path.basename}}"}}),
    )
    .unwrap();
    assert!(same_elements(
        &got,
        &json!([{"foo": {"bar": "baz"}, "myRepo": {"path": nested}, "values": {"test": "dir"}}])
    ));
}

// argo-cd git_test.go TestGitGeneratorParamsFromFilesWithExcludeOptionWithNewGlobbing and
// ...WithOldGlobbing, "test to verify the solution for Git File Generator Problem" over a real
// checkout: git's pathspec lets `*` cross `/`, so the exclude takes every file, while the new
// globbing keeps a `*` within one directory.
#[test]
fn upstream_git_file_globbing_problem() {
    let files = [
        (
            "cluster-charts/cluster1/mychart/values.yaml",
            "env: staging",
        ),
        (
            "cluster-charts/cluster1/myotherchart/values.yaml",
            "env: prod",
        ),
        ("cluster-charts/cluster2/values.yaml", "env: dev"),
        (
            "cluster-charts/cluster1/mychart/charts/mysubchart/values.yaml",
            "env: testing",
        ),
    ];
    let entry = git(json!({"files": [{"path": "cluster-charts/*/*/values.yaml"},
                                     {"path": "cluster-charts/*/values.yaml", "exclude": true}]}));
    let mut f = fixture(false, &files);
    f.new_globbing = true;
    let got = f.run(entry.clone()).unwrap();
    let envs: Vec<&str> = got.iter().map(|p| p["env"].as_str().unwrap()).collect();
    assert_eq!(envs, ["staging", "prod"]);
    assert_eq!(got[0]["path"], "cluster-charts/cluster1/mychart");
    f.new_globbing = false;
    assert!(f.run(entry).unwrap().is_empty());
    // Without the exclude, the old globbing takes the sub-chart's file too.
    let got = f
        .run(git(
            json!({"files": [{"path": "cluster-charts/*/*/values.yaml"}]}),
        ))
        .unwrap();
    assert_eq!(got.len(), 3);
}

#[test]
fn git_refusals() {
    let mut f = fixture(
        false,
        &[
            ("apps/a/config.yaml", "a: 1\n---\nb: 2\n"),
            ("apps/b/x.yaml", ""),
        ],
    );
    let error = f.run(git(json!({}))).unwrap_err();
    assert!(
        error.contains("spec.generators[0].git: needs directories or files"),
        "{error}"
    );
    let error = f
        .run(git(
            json!({"directories": [{"path": "*"}], "files": [{"path": "*"}]}),
        ))
        .unwrap_err();
    assert!(
        error.contains("sets both directories and files; Argo CD reads only directories"),
        "{error}"
    );
    let error = f
        .run(git(json!({"files": [{"path": "apps/a/config.yaml"}]})))
        .unwrap_err();
    assert!(
        error.contains("holds 2 YAML documents; Argo CD reads only the first"),
        "{error}"
    );
    let error = f
        .run(git(json!({"directories": [{"path": "*", "exlude": true}]})))
        .unwrap_err();
    assert!(
        error.contains("a git directories item has no field `exlude`; did you mean `exclude`?"),
        "{error}"
    );
    f.new_globbing = true;
    let error = f
        .run(git(json!({"files": [{"path": "apps/*"}]})))
        .unwrap_err();
    assert!(
        error.contains(
            "matches the directory apps/a, which Argo CD's repo server then fails to read"
        ),
        "{error}"
    );
    let error = f
        .run(git(json!({"files": [{"path": "apps/{a"}]})))
        .unwrap_err();
    assert!(error.contains("syntax error in pattern"), "{error}");
}

// git.go flattens a file's numbers with `%v` of Go's float64: `1e+06`, `0.5`, `100000`.
#[test]
fn flat_file_numbers_print_as_go_prints_float64() {
    let f = fixture(
        false,
        &[(
            "c/config.yaml",
            "big: 1000000\nhalf: 0.5\nsmall: 100000\nlist: [1, true, null]\n",
        )],
    );
    let got = f
        .run(git(json!({"files": [{"path": "c/config.yaml"}]})))
        .unwrap();
    assert_eq!(got[0]["big"], "1e+06");
    assert_eq!(got[0]["half"], "0.5");
    assert_eq!(got[0]["small"], "100000");
    assert_eq!(got[0]["list.0"], "1");
    assert_eq!(got[0]["list.1"], "true");
    assert_eq!(got[0]["list.2"], "<nil>");
    // With goTemplate the number stays a number, which a template prints as Go does.
    let f = fixture(true, &[("c/config.yaml", "big: 1000000\n")]);
    let got = f
        .run(git(json!({"files": [{"path": "c/config.yaml"}]})))
        .unwrap();
    assert_eq!(
        crate::argocd::template::replace("{{ .big }}", &got[0], true, &[]).unwrap(),
        "1e+06"
    );
}
