//! Argo CD's list, clusters and generator_spec_processor tests, transcribed (each cites the Go
//! test it follows), and every refusal as a test of its message.

use serde_json::{Value, json};

use super::test_support::{Fixture, REPO, repositories, same_elements, secret};

// argo-cd list_test.go TestGenerateListParams: without goTemplate, `values` become `values.<key>`.
#[test]
fn upstream_generate_list_params() {
    let fixture = Fixture::new(false);
    let got = fixture
        .run(json!({"list": {"elements": [{"cluster": "cluster", "url": "url"}]}}))
        .unwrap();
    assert!(same_elements(
        &got,
        &json!([{"cluster": "cluster", "url": "url"}])
    ));
    let got = fixture
        .run(json!({"list": {"elements": [{"cluster": "cluster", "url": "url", "values": {"foo": "bar"}}]}}))
        .unwrap();
    assert!(same_elements(
        &got,
        &json!([{"cluster": "cluster", "url": "url", "values.foo": "bar"}])
    ));
}

// argo-cd list_test.go TestGenerateListParamsGoTemplate: with goTemplate an element is its
// parameters as written; numbers stay JSON numbers, which templates print as Go's float64.
#[test]
fn upstream_generate_list_params_go_template() {
    let fixture = Fixture::new(true);
    let got = fixture
        .run(json!({"list": {"elements": [{"cluster": "cluster", "url": "url", "values": {"foo": "bar"}}]}}))
        .unwrap();
    assert!(same_elements(
        &got,
        &json!([{"cluster": "cluster", "url": "url", "values": {"foo": "bar"}}])
    ));
    let got = fixture
        .run(json!({"list": {"elements": [{"replicas": 1000000}]}}))
        .unwrap();
    let rendered = crate::argocd::template::replace("{{ .replicas }}", &got[0], true, &[]).unwrap();
    assert_eq!(rendered, "1e+06");
}

// list.go: elementsYaml's elements follow elements, as they are, in either mode.
#[test]
fn elements_yaml_follows_elements() {
    let fixture = Fixture::new(false);
    let got = fixture
        .run(json!({"list": {"elements": [{"a": "1"}], "elementsYaml": "- a: '2'\n- b: 3\n"}}))
        .unwrap();
    assert_eq!(
        Value::Array(got.into_iter().map(Value::Object).collect()),
        json!([{"a": "1"}, {"a": "2"}, {"b": 3}])
    );
    let error = fixture
        .run(json!({"list": {"elementsYaml": "a: 1"}}))
        .unwrap_err();
    assert!(error.contains("spec.generators[0].list.elementsYaml: error unmarshling decoded ElementsYaml: it must be a YAML list of maps, not a map"), "{error}");
    let error = fixture
        .run(json!({"list": {"elementsYaml": "- a: '1'\n---\n- a: '2'\n"}}))
        .unwrap_err();
    assert!(
        error.contains("holds 2 YAML documents; Argo CD reads only the first"),
        "{error}"
    );
}

#[test]
fn a_flat_list_element_that_is_not_a_string_is_refused() {
    let fixture = Fixture::new(false);
    let error = fixture
        .run(json!({"list": {"elements": [{"replicas": 3}]}}))
        .unwrap_err();
    assert!(
        error.starts_with("spec.generators[0].list.elements[0].replicas: is a number, but without goTemplate every field of a list element must be a string"),
        "{error}"
    );
    let error = fixture
        .run(json!({"list": {"elements": [{"values": "x"}]}}))
        .unwrap_err();
    assert!(
        error.contains("a list element's values must be a map of strings"),
        "{error}"
    );
}

// argo-cd generator_spec_processor_test.go TestMatchValues: the entry's selector over flat params.
#[test]
fn upstream_match_values() {
    let fixture = Fixture::new(false);
    let element = json!([{"cluster": "cluster", "url": "url", "values": {"foo": "bar"}}]);
    let run = |selector: Value| {
        fixture
            .run(json!({"list": {"elements": element}, "selector": selector}))
            .unwrap()
    };
    assert_eq!(run(json!({})).len(), 1, "no filter");
    assert_eq!(run(Value::Null).len(), 1, "nil");
    assert!(
        run(json!({"matchLabels": {"values.foo": "foo"}})).is_empty(),
        "values.foo should be foo but is ignore element"
    );
    assert!(
        same_elements(
            &run(json!({"matchLabels": {"values.foo": "bar"}})),
            &json!([{"cluster": "cluster", "url": "url", "values.foo": "bar"}])
        ),
        "values.foo should be bar"
    );
}

// argo-cd generator_spec_processor_test.go TestMatchValuesGoTemplate: nested params are
// flattened (`values.foo`, `values.0`) for the selector, and kept nested.
#[test]
fn upstream_match_values_go_template() {
    let fixture = Fixture::new(true);
    let run = |element: Value, selector: Value| {
        fixture
            .run(json!({"list": {"elements": [element]}, "selector": selector}))
            .unwrap()
    };
    let element = json!({"cluster": "cluster", "url": "url", "values": {"foo": "bar"}});
    assert!(
        run(
            element.clone(),
            json!({"matchLabels": {"values.foo": "foo"}})
        )
        .is_empty()
    );
    assert!(same_elements(
        &run(
            element.clone(),
            json!({"matchLabels": {"values.foo": "bar"}})
        ),
        &json!([element])
    ));
    let element = json!({"cluster": "cluster", "url": "url", "values": ["bar"]});
    assert!(same_elements(
        &run(element.clone(), json!({"matchLabels": {"values.0": "bar"}})),
        &json!([element])
    ));
}

/// The clusters of cluster_test.go and generator_spec_processor_test.go's mock.
fn upstream_clusters() -> Vec<crate::argocd::cluster::ArgoCluster> {
    vec![
        secret(
            "staging-01",
            "https://staging-01.example.com",
            None,
            &[("environment", "staging"), ("org", "foo")],
            &[("foo.argoproj.io", "staging")],
        ),
        secret(
            "production_01/west",
            "https://production-01.example.com",
            Some("prod-project"),
            &[("environment", "production"), ("org", "bar")],
            &[("foo.argoproj.io", "production")],
        ),
    ]
}

fn flat_cluster(
    name: &str,
    normalized: &str,
    server: &str,
    project: &str,
    env: &str,
    org: &str,
) -> Value {
    json!({"name": name, "nameNormalized": normalized, "server": server, "project": project,
           "metadata.labels.environment": env, "metadata.labels.org": org,
           "metadata.labels.argocd.argoproj.io/secret-type": "cluster",
           "metadata.annotations.foo.argoproj.io": env})
}

fn with_values(mut params: Value, values: Value) -> Value {
    let fields = params.as_object_mut().unwrap();
    for (k, v) in values.as_object().unwrap() {
        fields.insert(k.clone(), v.clone());
    }
    params
}

// argo-cd cluster_test.go TestGenerateParams: its rows but the simulated client error.
#[test]
fn upstream_cluster_generate_params() {
    let mut fixture = Fixture::new(false);
    fixture.clusters = upstream_clusters();
    let staging = flat_cluster(
        "staging-01",
        "staging-01",
        "https://staging-01.example.com",
        "",
        "staging",
        "foo",
    );
    let production = flat_cluster(
        "production_01/west",
        "production-01-west",
        "https://production-01.example.com",
        "prod-project",
        "production",
        "bar",
    );
    let local = json!({"name": "in-cluster", "nameNormalized": "in-cluster", "server": "https://kubernetes.default.svc", "project": ""});
    let values = json!({"lol1": "lol", "lol2": "{{values.lol1}}{{values.lol1}}", "foo": "bar",
                        "bar": "{{ metadata.annotations.foo.argoproj.io }}", "bat": "{{ metadata.labels.environment }}",
                        "aaa": "{{ server }}", "no-op": "{{ this-does-not-exist }}"});
    let rendered = |bar: &str, bat: &str, aaa: &str| {
        json!({"values.lol1": "lol", "values.lol2": "{{values.lol1}}{{values.lol1}}", "values.foo": "bar",
               "values.bar": bar, "values.bat": bat, "values.aaa": aaa, "values.no-op": "{{ this-does-not-exist }}"})
    };
    let expected = json!([
        with_values(
            local.clone(),
            rendered(
                "{{ metadata.annotations.foo.argoproj.io }}",
                "{{ metadata.labels.environment }}",
                "https://kubernetes.default.svc"
            )
        ),
        with_values(
            production.clone(),
            rendered(
                "production",
                "production",
                "https://production-01.example.com"
            )
        ),
        with_values(
            staging.clone(),
            rendered("staging", "staging", "https://staging-01.example.com")
        ),
    ]);
    let got = fixture
        .run(json!({"clusters": {"selector": {}, "values": values}}))
        .unwrap();
    assert!(same_elements(&got, &expected), "no label selector: {got:?}");
    // The local cluster comes last.
    assert_eq!(got.last().unwrap()["name"], "in-cluster");

    let got = fixture
        .run(json!({"clusters": {"selector": {"matchLabels": {"argocd.argoproj.io/secret-type": "cluster"}}}}))
        .unwrap();
    assert!(
        same_elements(&got, &json!([production, staging])),
        "secret type label selector"
    );

    let foo = json!({"values.foo": "bar"});
    let got = fixture
        .run(json!({"clusters": {"selector": {"matchLabels": {"environment": "production"}}, "values": {"foo": "bar"}}}))
        .unwrap();
    assert!(
        same_elements(&got, &json!([with_values(production.clone(), foo.clone())])),
        "production-only"
    );

    let either = json!({"matchExpressions": [{"key": "environment", "operator": "In", "values": ["production", "staging"]}]});
    let got = fixture
        .run(json!({"clusters": {"selector": either, "values": {"foo": "bar"}}}))
        .unwrap();
    assert!(
        same_elements(
            &got,
            &json!([
                with_values(production.clone(), foo.clone()),
                with_values(staging.clone(), foo.clone())
            ])
        ),
        "production or staging"
    );

    let got = fixture
        .run(json!({"clusters": {"selector": {"matchExpressions": either["matchExpressions"], "matchLabels": {"org": "foo"}},
                                 "values": {"name": "baz"}}}))
        .unwrap();
    assert!(
        same_elements(
            &got,
            &json!([with_values(staging.clone(), json!({"values.name": "baz"}))])
        ),
        "production or staging with match labels"
    );

    let got = fixture
        .run(json!({"clusters": {"selector": either, "values": {"foo": "bar"}, "flatList": true}}))
        .unwrap();
    assert_eq!(got.len(), 1, "production or staging with flat mode");
    let clusters: Vec<_> = got[0]["clusters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_object().unwrap().clone())
        .collect();
    assert!(same_elements(
        &clusters,
        &json!([
            with_values(production, foo.clone()),
            with_values(staging, foo)
        ])
    ));
}

// argo-cd cluster_test.go TestGenerateParamsGoTemplate ("no label selector", in part): nested
// metadata, and the local cluster without any.
#[test]
fn upstream_cluster_generate_params_go_template() {
    let mut fixture = Fixture::new(true);
    fixture.clusters = upstream_clusters();
    let got = fixture
        .run(json!({"clusters": {"values": {"aaa": "{{ .server }}", "no-op": "{{ .thisDoesNotExist }}"}}}))
        .unwrap();
    assert_eq!(got.len(), 3);
    let production = got
        .iter()
        .find(|p| p["name"] == "production_01/west")
        .unwrap();
    assert_eq!(
        Value::Object(production.clone()),
        json!({"name": "production_01/west", "nameNormalized": "production-01-west",
               "server": "https://production-01.example.com", "project": "prod-project",
               "metadata": {"labels": {"argocd.argoproj.io/secret-type": "cluster", "environment": "production", "org": "bar"},
                            "annotations": {"foo.argoproj.io": "production"}},
               "values": {"aaa": "https://production-01.example.com", "no-op": "<no value>"}})
    );
    assert_eq!(
        Value::Object(got[2].clone()),
        json!({"name": "in-cluster", "nameNormalized": "in-cluster", "server": "https://kubernetes.default.svc",
               "project": "", "values": {"aaa": "https://kubernetes.default.svc", "no-op": "<no value>"}})
    );
}

// cluster.go: a Secret naming the local server stands for the local cluster.
#[test]
fn a_secret_for_the_local_server_replaces_in_cluster() {
    let mut fixture = Fixture::new(false);
    fixture.clusters = vec![secret(
        "local",
        "https://kubernetes.default.svc",
        None,
        &[],
        &[],
    )];
    let got = fixture.run(json!({"clusters": {}})).unwrap();
    assert_eq!(got.len(), 1);
    assert_eq!(got[0]["name"], "local");
}

/// The mock clusters of generator_spec_processor_test.go `getMockClusterGenerator`.
fn spec_processor_clusters() -> Vec<crate::argocd::cluster::ArgoCluster> {
    let mut clusters = upstream_clusters();
    clusters[1].project = None;
    clusters.push(secret(
        "some-really-long-server-url",
        "https://some-really-long-url-that-will-exceed-63-characters.com",
        None,
        &[("environment", "production"), ("org", "bar")],
        &[("foo.argoproj.io", "production")],
    ));
    clusters
}

// argo-cd generator_spec_processor_test.go TestTransForm: the entry's selector may match any
// value, a URL of more than 63 characters too.
#[test]
fn upstream_transform() {
    let mut fixture = Fixture::new(false);
    fixture.clusters = spec_processor_clusters();
    for (server, name) in [
        ("https://production-01.example.com", "production_01/west"),
        (
            "https://some-really-long-url-that-will-exceed-63-characters.com",
            "some-really-long-server-url",
        ),
    ] {
        let got = fixture.run(json!({"clusters": {"selector": {}}, "selector": {"matchLabels": {"server": server}}})).unwrap();
        assert_eq!(got.len(), 1);
        assert_eq!(got[0]["name"], name);
        assert_eq!(got[0]["metadata.labels.org"], "bar");
    }
}

// argo-cd generator_spec_processor_test.go TestTransFormGoTemplate: "label MatchLabels",
// "label NotIn matchExpression" (the local cluster passes: it has no labels) and "slash key in
// label".
#[test]
fn upstream_transform_go_template() {
    let mut fixture = Fixture::new(true);
    fixture.clusters = spec_processor_clusters();
    let names = |selector: Value| -> Vec<String> {
        let mut names: Vec<String> = fixture
            .run(json!({"clusters": {}, "selector": selector}))
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap().to_string())
            .collect();
        names.sort();
        names
    };
    assert_eq!(
        names(json!({"matchLabels": {"metadata.labels.environment": "staging"}})),
        ["staging-01"]
    );
    assert_eq!(
        names(
            json!({"matchExpressions": [{"key": "metadata.labels.environment", "operator": "NotIn", "values": ["staging"]}]})
        ),
        [
            "in-cluster",
            "production_01/west",
            "some-really-long-server-url"
        ]
    );
    assert_eq!(
        names(
            json!({"matchLabels": {"metadata.labels.argocd.argoproj.io/secret-type": "cluster"}})
        ),
        [
            "production_01/west",
            "some-really-long-server-url",
            "staging-01"
        ]
    );
}

#[test]
fn an_entry_sets_exactly_one_known_generator() {
    let fixture = Fixture::new(false);
    let error = fixture.run(json!({})).unwrap_err();
    assert!(
        error.starts_with(
            "spec.generators[0]: sets no generator (one of list, clusters, git, matrix, merge,"
        ),
        "{error}"
    );
    let error = fixture
        .run(json!({"list": {"elements": []}, "clusters": {}}))
        .unwrap_err();
    assert!(
        error.contains("sets 2 generators (list, clusters)"),
        "{error}"
    );
    let error = fixture.run(json!({"lists": {"elements": []}})).unwrap_err();
    assert!(
        error.contains(
            "spec.generators[0].lists: a generator has no field `lists`; did you mean `list`?"
        ),
        "{error}"
    );
    let error = fixture.run(json!({"list": {"element": []}})).unwrap_err();
    assert!(error.contains("spec.generators[0].list.element: the list generator has no field `element`; did you mean `elements`?"), "{error}");
    let error = fixture
        .run(json!({"clusters": {"flatlist": true}}))
        .unwrap_err();
    assert!(
        error.contains("the clusters generator has no field `flatlist`; did you mean `flatList`?"),
        "{error}"
    );
}

#[test]
fn generators_that_need_the_network_are_refused_by_name() {
    let fixture = Fixture::new(false);
    for (kind, why) in [
        (
            "scmProvider",
            "lists repositories through an SCM provider's API",
        ),
        ("pullRequest", "lists open pull requests"),
        ("plugin", "asks a plugin's HTTP service"),
        (
            "clusterDecisionResource",
            "reads a resource's status.decisions from the Kubernetes API",
        ),
    ] {
        let error = fixture.run(json!({kind: {}})).unwrap_err();
        assert!(
            error.starts_with(&format!(
                "spec.generators[0].{kind}: the {kind} generator {why}"
            )),
            "{error}"
        );
        assert!(
            error.contains("fedrender renders offline and never does"),
            "{error}"
        );
    }
}

#[test]
fn a_git_generator_on_an_unmapped_repository_is_refused() {
    let mut fixture = Fixture::new(false);
    fixture.repositories = repositories(&[("apps/a/x.yaml", "")]);
    let error = fixture
        .run(json!({"git": {"repoURL": "https://github.com/other/repo.git", "directories": [{"path": "*"}]}}))
        .unwrap_err();
    assert!(error.starts_with("spec.generators[0].git.repoURL: the git generator reads https://github.com/other/repo.git, which the Config does not map"), "{error}");
    // A URL matches as Argo CD normalises it.
    let got = fixture
        .run(json!({"git": {"repoURL": format!("{}.git", REPO.to_uppercase()), "directories": [{"path": "apps/*"}]}}))
        .unwrap();
    assert_eq!(got[0]["path"], "apps/a");
}

#[test]
fn errors_point_at_their_field_line() {
    use crate::diagnostics::{FieldLines, Origin};
    let lines: std::collections::BTreeMap<String, u64> =
        [("spec.generators[1].list.elements[0].n".to_string(), 17)].into();
    let clusters = Vec::new();
    let repositories = crate::argocd::repositories::Repositories::default();
    let context = super::GeneratorContext {
        clusters: &clusters,
        repositories: &repositories,
        go_template: false,
        go_template_options: &[],
        new_globbing: false,
        made: &std::cell::Cell::new(0),
    };
    let entries = [
        json!({"list": {"elements": []}}),
        json!({"list": {"elements": [{"n": 1}]}}),
    ];
    let error = super::generate(
        &entries,
        &context,
        &Origin::new("set.yaml", 0, 1),
        &FieldLines::new(lines),
    )
    .unwrap_err();
    assert_eq!(error.origin.unwrap().line, 17);
}

// fedrender's own bound (docs/security.md): a matrix is bounded, so a pull request would write
// many; the run's parameter sets are counted across entries and ApplicationSets.
#[test]
fn a_run_makes_a_bounded_number_of_parameter_sets() {
    use crate::diagnostics::{FieldLines, Origin};
    let clusters = Vec::new();
    let repositories = crate::argocd::repositories::Repositories::default();
    let made = std::cell::Cell::new(0);
    let context = super::GeneratorContext {
        clusters: &clusters,
        repositories: &repositories,
        go_template: true,
        go_template_options: &[],
        new_globbing: false,
        made: &made,
    };
    let list = |key: &str, count: usize| {
        let elements: Vec<_> = (0..count).map(|i| json!({ key: i })).collect();
        json!({"list": {"elements": elements}})
    };
    let matrix = json!({"matrix": {"generators": [list("a", 300), list("b", 200)]}});
    let origin = Origin::new("set.yaml", 0, 1);
    let lines = FieldLines::default();
    let one = super::generate(std::slice::from_ref(&matrix), &context, &origin, &lines).unwrap();
    assert_eq!(one[0].params.len(), 60_000);
    assert_eq!(made.get(), 60_000);
    // The next ApplicationSet's matrix would take the run past 100,000.
    let error = super::generate(&[list("c", 1), matrix], &context, &origin, &lines).unwrap_err();
    assert_eq!(
        error.message,
        "spec.generators[1]: the ApplicationSets make more than 100000 parameter sets \
         (Applications) in all with this generator, past fedrender's bound on one run (a pull \
         request may not exhaust the job)"
    );
}
