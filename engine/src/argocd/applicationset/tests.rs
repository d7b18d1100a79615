use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::*;
use crate::argocd::api::application::RESOURCES_FINALIZER;
use crate::diagnostics::{FieldLines, Origin};

fn appset(spec: Value) -> Located<ApplicationSet> {
    let object = json!({"apiVersion": "argoproj.io/v1alpha1", "kind": "ApplicationSet",
                        "metadata": {"name": "web", "namespace": "argocd"}, "spec": spec});
    let lines = BTreeMap::from([
        ("spec.template".to_string(), 7),
        ("spec.template.metadata.name".to_string(), 9),
        ("spec.template.spec".to_string(), 10),
        ("spec.templatePatch".to_string(), 20),
        ("spec.generators[0].list.template".to_string(), 4),
    ]);
    Located {
        origin: Origin::new("appsets/web.yaml", 0, 1),
        item: serde_json::from_value(object).unwrap(),
        fields: FieldLines::new(lines),
    }
}

fn result(generator: usize, params: Value, template: Option<Value>) -> GeneratorResult {
    GeneratorResult {
        generator,
        params: params
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_object().unwrap().clone())
            .collect(),
        template,
    }
}

fn generate(spec: Value, results: Vec<GeneratorResult>) -> Vec<GeneratedApplication> {
    generate_applications(&appset(spec), results).unwrap()
}

fn refusals(spec: Value, results: Vec<GeneratorResult>) -> Vec<(u64, String)> {
    generate_applications(&appset(spec), results)
        .unwrap_err()
        .into_iter()
        .map(|d| (d.origin.unwrap().line, d.message))
        .collect()
}

fn list_generator() -> Value {
    json!([{"list": {"elements": []}}])
}

// The brief's pair: one generator result with two parameter sets renders two Applications,
// names and destinations from the parameters, in either template mode.
#[test]
fn two_parameter_sets_render_two_applications_in_both_modes() {
    let flat = json!({
        "generators": list_generator(),
        "template": {
            "metadata": {"name": "{{cluster}}-web"},
            "spec": {"project": "default",
                     "source": {"repoURL": "https://github.com/org/fleet", "path": "apps/{{app}}"},
                     "destination": {"name": "{{cluster}}", "namespace": "web-{{env}}"}}
        }
    });
    let params = json!([{"cluster": "prod", "app": "web", "env": "p"},
                        {"cluster": "staging", "app": "web", "env": "s"}]);
    let go = json!({
        "goTemplate": true,
        "goTemplateOptions": ["missingkey=error"],
        "generators": list_generator(),
        "template": {
            "metadata": {"name": "{{ .cluster }}-web"},
            "spec": {"project": "default",
                     "source": {"repoURL": "https://github.com/org/fleet", "path": "apps/{{ .app }}"},
                     "destination": {"name": "{{ .cluster }}", "namespace": "web-{{ .env | lower }}"}}
        }
    });
    let go_params = json!([{"cluster": "prod", "app": "web", "env": "P"},
                           {"cluster": "staging", "app": "web", "env": "S"}]);
    for (spec, params) in [(flat, params), (go, go_params)] {
        let apps = generate(spec, vec![result(0, params.clone(), None)]);
        let shown: Vec<(String, String, String, String)> = apps
            .iter()
            .map(|a| {
                let t = &a.typed;
                (
                    t.metadata.name.clone(),
                    t.spec.destination.name.clone(),
                    t.spec.destination.namespace.clone(),
                    t.spec.source.as_ref().unwrap().path.clone(),
                )
            })
            .collect();
        assert_eq!(
            shown,
            [
                (
                    "prod-web".into(),
                    "prod".into(),
                    "web-p".into(),
                    "apps/web".into()
                ),
                (
                    "staging-web".into(),
                    "staging".into(),
                    "web-s".into(),
                    "apps/web".into()
                ),
            ]
        );
        assert_eq!(apps[1].params, *params[1].as_object().unwrap());
        assert_eq!(apps[0].generator, 0);
        assert_eq!(
            apps[0].application,
            json!({"apiVersion": "argoproj.io/v1alpha1", "kind": "Application",
                   "metadata": {"name": "prod-web", "namespace": "argocd",
                                "finalizers": [RESOURCES_FINALIZER]},
                   "spec": {"source": {"repoURL": "https://github.com/org/fleet", "path": "apps/web"},
                            "destination": {"namespace": "web-p", "name": "prod"},
                            "project": "default"}})
        );
    }
}

// argo-cd template_test.go TestGenerateApplications "Generate two applications": each parameter
// set renders one Application, in the ApplicationSet's namespace whatever the template says.
#[test]
fn upstream_generate_two_applications() {
    let spec = json!({"generators": list_generator(),
                      "template": {"metadata": {"name": "{{name}}", "namespace": "namespace",
                                                "labels": {"label_name": "label_value"}},
                                   "spec": {}}});
    let apps = generate(
        spec,
        vec![result(0, json!([{"name": "app1"}, {"name": "app2"}]), None)],
    );
    let names: Vec<&str> = apps
        .iter()
        .map(|a| a.typed.metadata.name.as_str())
        .collect();
    assert_eq!(names, ["app1", "app2"]);
    for app in &apps {
        assert_eq!(app.typed.metadata.namespace, "argocd");
        assert_eq!(app.typed.metadata.labels["label_name"], "label_value");
        // NormalizeApplicationSpec: an empty project is `default`.
        assert_eq!(app.typed.spec.project, "default");
    }
}

// argo-cd template_test.go TestMergeTemplateApplications "Generate app": the generator's
// template wins where it sets a field, spec.template fills the rest, labels are united.
#[test]
fn upstream_merge_template_applications() {
    let spec = json!({"generators": [{"list": {"elements": [],
                                               "template": {"metadata": {"name": "test", "labels": {"foo": "bar"}}, "spec": {}}}}],
                      "template": {"metadata": {"name": "name", "namespace": "namespace",
                                                "labels": {"label_name": "label_value"}},
                                   "spec": {"project": "p",
                                            "source": {"repoURL": "https://r", "path": "base",
                                                       "helm": {"releaseName": "base", "skipCrds": true}},
                                            "destination": {"server": "https://s"}}}});
    let own = json!({"metadata": {"name": "test", "labels": {"foo": "bar"}},
                     "spec": {"source": {"path": "mine", "helm": {"valueFiles": ["a.yaml"]}}}});
    let set = appset(spec);
    let merged = merged_template(&set.item, &result(0, json!([]), Some(own))).unwrap();
    let merged = serde_json::to_value(merged).unwrap();
    assert_eq!(
        merged,
        json!({"metadata": {"name": "test", "namespace": "namespace",
                            "labels": {"foo": "bar", "label_name": "label_value"}},
               "spec": {"source": {"repoURL": "https://r", "path": "mine",
                                   "helm": {"valueFiles": ["a.yaml"], "releaseName": "base", "skipCrds": true}},
                        "destination": {"server": "https://s"}, "project": "p"}})
    );
}

// argo-cd utils_test.go TestRenderTemplateParams, every row, on every field the upstream test
// templates: metadata is left as it is, each field renders as upstream expects.
#[test]
fn upstream_render_template_params_rows() {
    let rows = [
        ("{{one}}", json!({"one": "two"}), "two"),
        ("{{ one }}", json!({"one": "two"}), "two"),
        ("}} {{", json!({"one": "two"}), "}} {{"),
        ("{{ }}", json!({"one": "{{ }}"}), "{{ }}"),
        ("{{ }}", json!({" ": "two", "": "three"}), "{{ }}"),
        ("{{one}}", json!({"{{one}}": "{{one}}"}), "{{one}}"),
        ("{{one}}", json!({"{{one}}": "{{two}}"}), "{{one}}"),
        ("{{ONE}}", json!({"{{one}}": "two"}), "{{ONE}}"),
        ("{{one}}{{one}}", json!({"one": "two"}), "twotwo"),
        (
            "{{one}}{{three}}",
            json!({"one": "two", "three": "four"}),
            "twofour",
        ),
        (
            "{{one}} {{three}}",
            json!({"one": "\"hello\" world", "three": "four"}),
            "\"hello\" world four",
        ),
    ];
    let fields = [
        "path",
        "repoURL",
        "targetRevision",
        "chart",
        "server",
        "namespace",
        "name",
        "project",
    ];
    for (template, params, expected) in rows {
        for field in fields {
            let mut spec = json!({"source": {"repoURL": "x", "path": "x", "targetRevision": "x", "chart": "x"},
                                  "destination": {"server": "x", "namespace": "x", "name": "x"},
                                  "project": "x"});
            let pointer = match field {
                "project" => "/project".to_string(),
                "server" | "namespace" | "name" => format!("/destination/{field}"),
                _ => format!("/source/{field}"),
            };
            *spec.pointer_mut(&pointer).unwrap() = json!(template);
            let set = json!({"generators": list_generator(),
                             "template": {"metadata": {"name": "application-one",
                                                       "labels": {"label-key": "label-value"},
                                                       "annotations": {"annotation-key": "annotation-value"}},
                                          "spec": spec}});
            let apps = generate(set, vec![result(0, json!([params.clone()]), None)]);
            let spec = serde_json::to_value(&apps[0].typed.spec).unwrap();
            assert_eq!(
                spec.pointer(&pointer).unwrap(),
                expected,
                "{template} in {field}"
            );
            assert_eq!(apps[0].typed.metadata.name, "application-one");
            assert_eq!(apps[0].typed.metadata.labels["label-key"], "label-value");
            assert_eq!(
                apps[0].typed.metadata.annotations["annotation-key"],
                "annotation-value"
            );
        }
    }
}

// argo-cd utils_test.go TestRenderHelmValuesObjectJson / TestRenderHelmValuesObjectYaml: the
// strings inside valuesObject are templated too.
#[test]
fn upstream_render_helm_values_object() {
    let spec = json!({"goTemplate": true, "generators": list_generator(),
                      "template": {"metadata": {"name": "application-one"},
                                   "spec": {"source": {"repoURL": "", "helm": {"valuesObject": {"some": {"string": "{{.test}}"}}}}}}});
    let apps = generate(
        spec,
        vec![result(0, json!([{"test": "Hello world"}]), None)],
    );
    let helm = apps[0]
        .typed
        .spec
        .source
        .as_ref()
        .unwrap()
        .helm
        .as_ref()
        .unwrap();
    assert_eq!(
        helm.values_object,
        Some(json!({"some": {"string": "Hello world"}}))
    );
}

// argo-cd utils_test.go TestRenderTemplateParamsFinalizers, every row.
#[test]
fn upstream_render_template_params_finalizers() {
    let background = "resources-finalizer.argocd.argoproj.io/background";
    // Existing finalizers, the ApplicationSet's syncPolicy, the finalizers rendered.
    type Row<'a> = (Option<Vec<&'a str>>, Value, Vec<&'a str>);
    let rows: [Row; 8] = [
        (
            Some(vec!["existing-finalizer"]),
            Value::Null,
            vec!["existing-finalizer"],
        ),
        (Some(vec![background]), Value::Null, vec![background]),
        (None, Value::Null, vec![RESOURCES_FINALIZER]),
        (
            Some(vec![RESOURCES_FINALIZER]),
            Value::Null,
            vec![RESOURCES_FINALIZER],
        ),
        (Some(vec![]), Value::Null, vec![RESOURCES_FINALIZER]),
        (None, json!({}), vec![RESOURCES_FINALIZER]),
        (None, json!({"preserveResourcesOnDeletion": true}), vec![]),
        (
            Some(vec![background]),
            json!({"preserveResourcesOnDeletion": true}),
            vec![background],
        ),
    ];
    for (existing, sync_policy, expected) in rows {
        let mut metadata = json!({"name": "app"});
        if let Some(existing) = &existing {
            metadata["finalizers"] = json!(existing);
        }
        let mut spec = json!({"goTemplate": true, "generators": list_generator(),
                              "template": {"metadata": metadata, "spec": {}}});
        if !sync_policy.is_null() {
            spec["syncPolicy"] = sync_policy.clone();
        }
        let apps = generate(spec, vec![result(0, json!([{"one": "two"}]), None)]);
        assert_eq!(
            apps[0].typed.metadata.finalizers, expected,
            "{existing:?} {sync_policy}"
        );
    }
}

// RenderTemplateParams with no parameters returns the template untouched, `{{ }}` and all, and
// adds no finalizer.
#[test]
fn no_parameters_leave_the_template_as_it_is() {
    let spec = json!({"generators": list_generator(),
                      "template": {"metadata": {"name": "fixed", "annotations": {"x": "{{y}}"}}, "spec": {}}});
    let apps = generate(spec, vec![result(0, json!([{}]), None)]);
    assert_eq!(apps[0].typed.metadata.annotations["x"], "{{y}}");
    assert!(apps[0].typed.metadata.finalizers.is_empty());
}

fn guestbook(patch: &str) -> Value {
    json!({"goTemplate": true, "generators": list_generator(), "templatePatch": patch,
           "template": {"metadata": {"name": "{{ .cluster }}-guestbook"},
                        "spec": {"project": "default",
                                 "source": {"repoURL": "https://github.com/argoproj/argocd-example-apps.git",
                                            "targetRevision": "HEAD", "path": "guestbook"},
                                 "destination": {"server": "https://kubernetes.default.svc", "namespace": "guestbook"}}}})
}

// argo-cd template/patch_test.go Test_ApplyTemplatePatch, "patch with JSON" and "patch with
// YAML": annotations added, helm value files and an automated sync policy set; and "project
// field isn't overwritten".
#[test]
fn upstream_apply_template_patch() {
    let json_patch = r#"{
        "metadata": {"annotations": {"annotation-some-key": "annotation-some-value"}},
        "spec": {"source": {"helm": {"valueFiles": ["values.test.yaml", "values.big.yaml"]}},
                 "syncPolicy": {"automated": {"prune": true}}}
    }"#;
    let yaml_patch = "\nmetadata:\n  annotations:\n    annotation-some-key: annotation-some-value\nspec:\n  source:\n    helm:\n      valueFiles:\n        - values.test.yaml\n        - values.big.yaml\n  syncPolicy:\n    automated:\n      prune: true";
    for patch in [json_patch, yaml_patch] {
        let apps = generate(
            guestbook(patch),
            vec![result(0, json!([{"cluster": "my-cluster"}]), None)],
        );
        assert_eq!(
            apps[0].application,
            json!({"apiVersion": "argoproj.io/v1alpha1", "kind": "Application",
                   "metadata": {"name": "my-cluster-guestbook", "namespace": "argocd",
                                "annotations": {"annotation-some-key": "annotation-some-value"},
                                "finalizers": [RESOURCES_FINALIZER]},
                   "spec": {"source": {"repoURL": "https://github.com/argoproj/argocd-example-apps.git",
                                       "path": "guestbook", "targetRevision": "HEAD",
                                       "helm": {"valueFiles": ["values.test.yaml", "values.big.yaml"]}},
                            "destination": {"server": "https://kubernetes.default.svc", "namespace": "guestbook"},
                            "project": "default",
                            "syncPolicy": {"automated": {"prune": true}}}})
        );
    }
    let apps = generate(
        guestbook("spec:\n  project: my-project\n  destination:\n    namespace: '{{ .cluster }}'"),
        vec![result(0, json!([{"cluster": "my-cluster"}]), None)],
    );
    assert_eq!(apps[0].typed.spec.project, "default");
    assert_eq!(apps[0].typed.spec.destination.namespace, "my-cluster");
    // A null removes what the template set.
    let mut spec = guestbook(
        "metadata:\n  labels:\n    team: null\nspec:\n  source:\n    targetRevision: null",
    );
    spec["template"]["metadata"]["labels"] = json!({"team": "a", "tier": "web"});
    let apps = generate(spec, vec![result(0, json!([{"cluster": "c"}]), None)]);
    assert_eq!(
        apps[0].typed.metadata.labels,
        BTreeMap::from([("tier".to_string(), "web".to_string())])
    );
    assert_eq!(
        apps[0].typed.spec.source.as_ref().unwrap().target_revision,
        ""
    );
}

#[test]
fn template_patch_refusals_name_the_field() {
    let one = || vec![result(0, json!([{"cluster": "c"}]), None)];
    let refused = refusals(guestbook("spec:\n  sorce: {}"), one());
    assert_eq!(refused.len(), 1);
    assert_eq!(refused[0].0, 20);
    assert!(
        refused[0].1.starts_with(
            "ApplicationSet web: generator 0 with parameters {\"cluster\":\"c\"}: invalid templatePatch: unknown field `sorce`"
        ),
        "{}",
        refused[0].1
    );
    // argo-cd patch_test.go TestError.
    let refused = refusals(guestbook("hello world"), one());
    assert!(
        refused[0].1.ends_with(
            "invalid templatePatch: it is a string, not an Application (a YAML mapping)"
        )
    );
    let refused = refusals(guestbook("spec:\n  destination: 3"), one());
    assert!(
        refused[0]
            .1
            .contains("invalid templatePatch: invalid type: integer `3`"),
        "{}",
        refused[0].1
    );
    let refused = refusals(guestbook("{{ nope }}"), one());
    assert!(
        refused[0].1.ends_with(
            "error replacing values in templatePatch: failed to parse template {{ nope }}: template: base:1: function \"nope\" not defined"
        ),
        "{}",
        refused[0].1
    );
}

#[test]
fn render_errors_point_at_the_template_and_name_the_parameters() {
    let spec = json!({"goTemplate": true, "goTemplateOptions": ["missingkey=error"],
                      "generators": list_generator(),
                      "template": {"metadata": {"name": "{{ .nam }}"}, "spec": {}}});
    let refused = refusals(
        spec,
        vec![result(0, json!([{"name": "a"}, {"name": "b"}]), None)],
    );
    assert_eq!(refused.len(), 2, "every parameter set's error is reported");
    assert_eq!(refused[0].0, 7);
    assert_eq!(
        refused[0].1,
        "ApplicationSet web: generator 0 with parameters {\"name\":\"a\"}: failed to execute go template {{ .nam }}: template: base:1:3: executing \"base\" at <.nam>: map has no entry for key \"nam\""
    );
}

#[test]
fn duplicate_empty_and_invalid_names_are_refused() {
    let spec = |name: &str| {
        json!({"generators": [{"list": {"elements": []}}, {"list": {"elements": []}}],
               "template": {"metadata": {"name": name}, "spec": {}}})
    };
    let refused = refusals(
        spec("{{app}}"),
        vec![
            result(0, json!([{"app": "web", "row": "1"}, {"app": "db"}]), None),
            result(1, json!([{"app": "web", "row": "2"}]), None),
        ],
    );
    assert_eq!(
        refused,
        [(
            9,
            "ApplicationSet web contains applications with duplicate name: web (made by generator 0 with parameters {\"app\":\"web\",\"row\":\"1\"} and by generator 1 with parameters {\"app\":\"web\",\"row\":\"2\"}); Argo CD creates none of them".to_string()
        )]
    );
    let refused = refusals(spec("{{app}}"), vec![result(0, json!([{"app": ""}]), None)]);
    assert_eq!(
        refused[0].1,
        "ApplicationSet web contains an application with no name (generator 0 with parameters {\"app\":\"\"}); a name must be set in the template's metadata.name or via a templatePatch (generateName is not supported)"
    );
    let refused = refusals(
        spec("{{app}}"),
        vec![result(0, json!([{"app": "Web_1"}]), None)],
    );
    assert_eq!(
        refused[0].1,
        "ApplicationSet web: the Application name \"Web_1\" (generator 0 with parameters {\"app\":\"Web_1\"}) must be a DNS subdomain: lowercase letters, digits, '-' and '.', starting and ending with a letter or digit; the API server refuses it"
    );
}

#[test]
fn fields_fedrender_does_not_implement_are_refused_by_name() {
    let spec = json!({"generators": list_generator(),
                      "template": {"metadata": {"name": "{{app}}"},
                                   "spec": {"sources": [{"repoURL": "https://r", "path": "a",
                                                         "directory": {"jsonnet": {"libs": ["x"]}}},
                                                        {"repoURL": "https://r", "plugin": {"name": "p"}}]}}});
    let refused = refusals(spec, vec![result(0, json!([{"app": "web"}]), None)]);
    let messages: Vec<&str> = refused.iter().map(|(_, m)| m.as_str()).collect();
    assert_eq!(
        messages,
        [
            "ApplicationSet web: Application web (generator 0 with parameters {\"app\":\"web\"}) sets spec.sources[0].directory.jsonnet, which fedrender does not implement",
            "ApplicationSet web: Application web (generator 0 with parameters {\"app\":\"web\"}) sets spec.sources[1].plugin, which fedrender does not implement",
        ]
    );
    assert_eq!(refused[0].0, 10);
}

#[test]
fn a_generator_template_with_an_unknown_field_is_refused_at_its_path() {
    let spec = json!({"generators": [{"list": {"elements": [], "template": {}}}],
                      "template": {"metadata": {"name": "x"}, "spec": {}}});
    let own = json!({"metadata": {"name": "y"}, "spec": {"destinaton": {}}});
    let refused = refusals(spec, vec![result(0, json!([{"a": "b"}]), Some(own))]);
    assert_eq!(refused.len(), 1);
    assert_eq!(refused[0].0, 4);
    assert!(
        refused[0].1.starts_with(
            "ApplicationSet web: spec.generators[0].list.template.spec: unknown field `destinaton`, expected one of"
        ),
        "{}",
        refused[0].1
    );
    let spec = json!({"generators": [{"list": {"elements": [], "template": {}}}],
                      "template": {"metadata": {"name": "x"}, "spec": {}}});
    let own = json!({"spec": {"sources": [{"repoURL": "r", "pth": "a"}]}});
    let refused = refusals(spec, vec![result(0, json!([{"a": "b"}]), Some(own))]);
    assert!(
        refused[0].1.starts_with(
            "ApplicationSet web: spec.generators[0].list.template.spec.sources[0]: unknown field `pth`"
        ),
        "{}",
        refused[0].1
    );
}

#[test]
fn the_application_set_refuses_unknown_fields_and_accepts_those_without_effect() {
    let accepted = json!({"apiVersion": "argoproj.io/v1alpha1", "kind": "ApplicationSet",
        "metadata": {"name": "web"},
        "spec": {"generators": [], "template": {"metadata": {}, "spec": {"syncPolicy": {"automated": {}},
                                                                        "info": [{"name": "a", "value": "b"}],
                                                                        "revisionHistoryLimit": 3}},
                 "strategy": {"type": "RollingSync"}, "preservedFields": {"labels": ["a"]},
                 "ignoreApplicationDifferences": [{"jsonPointers": ["/spec"]}],
                 "syncPolicy": {"applicationsSync": "create-only"}, "applyNestedSelectors": true}});
    assert!(serde_json::from_value::<ApplicationSet>(accepted).is_ok());
    let unknown = json!({"spec": {"generators": [], "template": {}, "goTemplates": true}});
    let error = serde_json::from_value::<ApplicationSet>(unknown)
        .unwrap_err()
        .to_string();
    assert!(error.starts_with("unknown field `goTemplates`"), "{error}");
    let unknown = json!({"spec": {"template": {"metadata": {"generateName": "x-"}}}});
    let error = serde_json::from_value::<ApplicationSet>(unknown)
        .unwrap_err()
        .to_string();
    assert!(error.starts_with("unknown field `generateName`"), "{error}");
}

#[test]
fn labels_and_annotations_the_api_server_refuses_are_refused() {
    let spec = json!({"generators": list_generator(),
                      "template": {"metadata": {"name": "web", "labels": {"env": "{{env}}"},
                                                "annotations": {"{{key}}": "x"}},
                                   "spec": {}}});
    let refused = refusals(
        spec,
        vec![result(0, json!([{"env": "prod eu", "key": "a b"}]), None)],
    );
    let messages: Vec<&str> = refused.iter().map(|(_, m)| m.as_str()).collect();
    assert_eq!(messages.len(), 2);
    assert!(
        messages[0].contains("its label env's value \"prod eu\" must consist of"),
        "{}",
        messages[0]
    );
    assert!(
        messages[1].contains("its annotation key \"a b\" must consist of"),
        "{}",
        messages[1]
    );
}

#[test]
fn create_namespace_is_read_exactly_as_argo_cd_reads_it() {
    let spec = |options: Value| {
        json!({"generators": list_generator(),
               "template": {"metadata": {"name": "web"}, "spec": {"syncPolicy": {"syncOptions": options}}}})
    };
    let apps = generate(
        spec(json!(["CreateNamespace=true"])),
        vec![result(0, json!([{"a": "b"}]), None)],
    );
    assert!(apps[0].typed.spec.creates_namespace());
    let apps = generate(
        spec(json!([" CreateNamespace=true", "PruneLast=true"])),
        vec![result(0, json!([{"a": "b"}]), None)],
    );
    assert!(!apps[0].typed.spec.creates_namespace());
    assert_eq!(
        apps[0].typed.spec.sync_options(),
        [" CreateNamespace=true", "PruneLast=true"]
    );
}
