//! Front-door tests: KubeFed and Federation v1 input, translated, placed against an
//! inventory and rendered per cluster. Upstream tests and docs are named where a case comes
//! from them.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::*;
use crate::api::kubefed::is_kubefed_group;
use crate::classify;
use crate::diagnostics::Rejected;
use crate::documents::{Format, parse_files};

struct Translated {
    bindings: Vec<FederatedBinding>,
    claimed: Vec<usize>,
    warnings: Vec<Diagnostic>,
    templates: Vec<Template>,
}

fn translate_text(text: &str) -> Result<Translated, Rejected> {
    translate_beside_karmada(text, |_| false)
}

/// As fleet assembly translates, with `karmada_selects` standing for the Karmada propagation
/// policies of the fleet.
fn translate_beside_karmada(
    text: &str,
    karmada_selects: impl Fn(&crate::object::Template) -> bool,
) -> Result<Translated, Rejected> {
    let files = vec![SourceFile {
        path: "in.yaml".into(),
        text: text.to_string(),
        format: Format::Yaml,
        written_at: Vec::new(),
    }];
    let (documents, parse_errors) = parse_files(&files);
    assert!(parse_errors.is_empty(), "{parse_errors:?}");
    let mut errors = ErrorSink::default();
    // Classification as fleet assembly does it: KubeFed groups are not templates.
    let plain: Vec<RawDocument> = documents
        .iter()
        .filter(|d| {
            let group = d
                .value
                .get("apiVersion")
                .and_then(Value::as_str)
                .map(crate::object::api_group)
                .unwrap_or("");
            !is_kubefed_group(group)
        })
        .cloned()
        .collect();
    let classified = classify::classify(plain, &files, &[], &mut errors);
    let mut warnings = Vec::new();
    let (bindings, claimed) = translate(
        &documents,
        &files,
        &classified.templates,
        &classified.interpreter,
        karmada_selects,
        &mut errors,
        &mut warnings,
    );
    errors.finish()?;
    Ok(Translated {
        bindings,
        claimed,
        warnings,
        templates: classified.templates,
    })
}

fn ok(text: &str) -> Translated {
    match translate_text(text) {
        Ok(translated) => translated,
        Err(rejected) => panic!("{rejected}"),
    }
}

fn error(text: &str) -> String {
    match translate_text(text) {
        Ok(_) => panic!("expected an error"),
        Err(rejected) => rejected.to_string(),
    }
}

fn cluster(name: &str, labels: Value, ready: Option<bool>) -> Cluster {
    let mut object = json!({
        "apiVersion": "cluster.karmada.io/v1alpha1",
        "kind": "Cluster",
        "metadata": {"name": name, "labels": labels},
    });
    if let Some(ready) = ready {
        object["status"] = json!({"conditions": [{
            "type": "Ready", "status": if ready { "True" } else { "False" }
        }]});
    }
    serde_json::from_value(object).unwrap()
}

fn abc() -> Vec<Cluster> {
    vec![
        cluster("a", json!({"region": "eu", "tier": "1"}), None),
        cluster("b", json!({"region": "us", "tier": "2"}), Some(true)),
        cluster("c", json!({"region": "us"}), None),
    ]
}

fn binding<'a>(translated: &'a Translated, source_name: &str) -> &'a FederatedBinding {
    translated
        .bindings
        .iter()
        .find(|b| b.source_name == source_name)
        .unwrap_or_else(|| {
            let names: Vec<_> = translated.bindings.iter().map(|b| &b.source_name).collect();
            panic!("no binding {source_name}: {names:?}")
        })
}

fn placed(binding: &FederatedBinding, clusters: &[Cluster]) -> Vec<(String, Option<i64>)> {
    targets(binding, clusters).unwrap()
}

fn names(targets: &[(String, Option<i64>)]) -> Vec<&str> {
    targets.iter().map(|(n, _)| n.as_str()).collect()
}

/// The object per cluster, as the pipeline will render it.
fn render(binding: &FederatedBinding, clusters: &[Cluster]) -> BTreeMap<String, Value> {
    placed(binding, clusters)
        .into_iter()
        .map(|(cluster, replicas)| {
            let object = object_for_cluster(binding, &cluster, replicas).unwrap();
            (cluster, object)
        })
        .collect()
}

fn has_warning(translated: &Translated, fragment: &str) -> bool {
    translated
        .warnings
        .iter()
        .any(|w| w.message.contains(fragment))
}

const NAMESPACE_SHOP: &str = "apiVersion: types.kubefed.io/v1beta1\nkind: FederatedNamespace\n\
metadata: {name: shop, namespace: shop}\nspec:\n  placement:\n    clusterSelector: {}\n---\n";

fn config_map(placement: &str) -> String {
    format!(
        "{NAMESPACE_SHOP}apiVersion: types.kubefed.io/v1beta1\nkind: FederatedConfigMap\n\
         metadata: {{name: settings, namespace: shop}}\nspec:\n  template:\n    data: {{a: '1'}}\n{placement}"
    )
}

// ---- §2.2 placement (placement.go, placement_test.go, userguide "Using Cluster Selector") --

#[test]
fn placement_clusters_list_decides_and_ignores_the_selector() {
    let t = ok(&config_map(
        "  placement:\n    clusters: [{name: a}, {name: c}, {name: gone}]\n    clusterSelector: {matchLabels: {region: us}}\n",
    ));
    let b = binding(&t, "FederatedConfigMap shop/settings");
    assert_eq!(names(&placed(b, &abc())), vec!["a", "c"]);
    let warnings = target_warnings(b, &abc(), &placed(b, &abc()));
    assert!(
        warnings.iter().any(|w| w
            .message
            .contains("names \"gone\", which is not in the inventory")),
        "{warnings:?}"
    );
}

#[test]
fn placement_empty_clusters_list_selects_nothing() {
    let t = ok(&config_map(
        "  placement:\n    clusters: []\n    clusterSelector: {}\n",
    ));
    let b = binding(&t, "FederatedConfigMap shop/settings");
    assert!(placed(b, &abc()).is_empty());
    let warnings = target_warnings(b, &abc(), &[]);
    assert!(warnings[0].message.contains("propagated to no cluster"));
}

#[test]
fn placement_absent_selector_selects_nothing_and_empty_selector_everything() {
    for (placement, expected) in [
        ("", vec![]),
        ("  placement: {}\n", vec![]),
        ("  placement:\n    clusters: null\n", vec![]),
        (
            "  placement:\n    clusterSelector: {}\n",
            vec!["a", "b", "c"],
        ),
        (
            "  placement:\n    clusterSelector: {matchLabels: {}}\n",
            vec!["a", "b", "c"],
        ),
        (
            "  placement:\n    clusterSelector: {matchLabels: {region: us}}\n",
            vec!["b", "c"],
        ),
        // NotIn and DoesNotExist match clusters without the key.
        (
            "  placement:\n    clusterSelector:\n      matchExpressions: [{key: tier, operator: NotIn, values: ['1']}]\n",
            vec!["b", "c"],
        ),
        (
            "  placement:\n    clusterSelector:\n      matchExpressions: [{key: tier, operator: DoesNotExist}]\n",
            vec!["c"],
        ),
        (
            "  placement:\n    clusterSelector:\n      matchLabels: {region: us}\n      matchExpressions: [{key: tier, operator: Exists}]\n",
            vec!["b"],
        ),
    ] {
        let t = ok(&config_map(placement));
        let b = binding(&t, "FederatedConfigMap shop/settings");
        assert_eq!(names(&placed(b, &abc())), expected, "{placement}");
    }
}

#[test]
fn placement_skips_clusters_that_are_not_ready() {
    let t = ok(&config_map("  placement:\n    clusterSelector: {}\n"));
    let b = binding(&t, "FederatedConfigMap shop/settings");
    let mut clusters = abc();
    clusters[1] = cluster("b", json!({}), Some(false));
    assert_eq!(names(&placed(b, &clusters)), vec!["a", "c"]);
}

#[test]
fn placement_selector_errors_are_reported() {
    let message = error(&config_map(
        "  placement:\n    clusterSelector:\n      matchExpressions: [{key: tier, operator: In}]\n",
    ));
    assert!(message.contains("needs at least one value"), "{message}");
    let message = error(&config_map(
        "  placement:\n    clusterSelector:\n      matchExpressions: [{key: tier, operator: Inn, values: [x]}]\n",
    ));
    assert!(message.contains("Inn"), "{message}");
}

// ---- §2.3 FederatedNamespace --------------------------------------------------------------

#[test]
fn a_namespaced_resource_without_federated_namespace_goes_nowhere() {
    // kubefed#951, status NamespaceNotFederated.
    let t = ok(
        "apiVersion: types.kubefed.io/v1beta1\nkind: FederatedConfigMap\n\
         metadata: {name: settings, namespace: shop}\nspec:\n  placement:\n    clusterSelector: {}\n",
    );
    let b = binding(&t, "FederatedConfigMap shop/settings");
    assert!(placed(b, &abc()).is_empty());
    assert!(has_warning(&t, "namespace shop has no FederatedNamespace"));
    // Not warned twice.
    assert!(target_warnings(b, &abc(), &[]).is_empty());
}

#[test]
fn federated_namespace_placement_is_intersected() {
    let text = "apiVersion: types.kubefed.io/v1beta1\nkind: FederatedNamespace\n\
         metadata: {name: shop, namespace: shop}\nspec:\n  template:\n    metadata:\n      labels: {team: x}\n      annotations: {a: b}\n  placement:\n    clusters: [{name: a}, {name: b}]\n---\n\
         apiVersion: types.kubefed.io/v1beta1\nkind: FederatedConfigMap\n\
         metadata: {name: settings, namespace: shop}\nspec:\n  placement:\n    clusterSelector: {matchLabels: {region: us}}\n";
    let t = ok(text);
    let b = binding(&t, "FederatedConfigMap shop/settings");
    assert_eq!(names(&placed(b, &abc())), vec!["b"]);
    // The Namespace itself: cluster-scoped, no namespace, template annotations dropped.
    let ns = binding(&t, "FederatedNamespace shop/shop");
    assert_eq!(ns.template.key.to_string(), "Namespace shop");
    assert_eq!(
        ns.template.object,
        json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "shop", "labels": {"team": "x"}}})
    );
    assert_eq!(names(&placed(ns, &abc())), vec!["a", "b"]);
    assert!(has_warning(&t, "metadata.annotations are dropped"));
}

#[test]
fn federated_namespace_name_must_match_its_namespace() {
    // accessor.go InvalidName, kubefed#1036/#1037.
    let message = error(
        "apiVersion: types.kubefed.io/v1beta1\nkind: FederatedNamespace\nmetadata: {name: other, namespace: shop}\nspec: {}\n",
    );
    assert!(
        message.contains("must be named like its namespace"),
        "{message}"
    );
}

#[test]
fn system_namespaces_are_not_propagated_but_still_gate_their_resources() {
    let text = "apiVersion: types.kubefed.io/v1beta1\nkind: FederatedNamespace\n\
         metadata: {name: default, namespace: default}\nspec:\n  placement:\n    clusters: [{name: c}]\n---\n\
         apiVersion: types.kubefed.io/v1beta1\nkind: FederatedSecret\n\
         metadata: {name: token}\nspec:\n  template:\n    type: Opaque\n  placement:\n    clusterSelector: {}\n";
    let t = ok(text);
    assert!(
        t.bindings
            .iter()
            .all(|b| b.source_name != "FederatedNamespace default/default")
    );
    let b = binding(&t, "FederatedSecret default/token");
    assert_eq!(names(&placed(b, &abc())), vec!["c"]);
}

#[test]
fn cluster_scoped_federated_types_ignore_federated_namespaces() {
    let t = ok(
        "apiVersion: types.kubefed.io/v1beta1\nkind: FederatedClusterRole\nmetadata: {name: reader}\n\
         spec:\n  template:\n    rules: []\n  placement:\n    clusters: [{name: a}]\n",
    );
    let b = binding(&t, "FederatedClusterRole reader");
    assert_eq!(names(&placed(b, &abc())), vec!["a"]);
    assert_eq!(
        b.template.object,
        json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole", "metadata": {"name": "reader"}, "rules": []})
    );
    assert_eq!(b.template.namespace(), "");
}

#[test]
fn a_namespace_scoped_control_plane_makes_federated_namespace_optional() {
    let text = "apiVersion: core.kubefed.io/v1beta1\nkind: KubeFedConfig\n\
         metadata: {name: kubefed, namespace: fed}\nspec:\n  scope: Namespaced\n---\n\
         apiVersion: types.kubefed.io/v1beta1\nkind: FederatedConfigMap\n\
         metadata: {name: settings, namespace: fed}\nspec:\n  placement:\n    clusters: [{name: b}]\n---\n\
         apiVersion: types.kubefed.io/v1beta1\nkind: FederatedConfigMap\n\
         metadata: {name: elsewhere, namespace: shop}\nspec:\n  placement:\n    clusters: [{name: b}]\n";
    let t = ok(text);
    let b = binding(&t, "FederatedConfigMap fed/settings");
    assert_eq!(names(&placed(b, &abc())), vec!["b"]);
    assert_eq!(t.bindings.len(), 1);
    assert!(has_warning(&t, "watches only namespace fed"));
}

// ---- §2.4 the object for a cluster (resource.go ObjectForCluster) ---------------------------

#[test]
fn template_annotations_and_finalizers_are_dropped_name_namespace_kind_set() {
    // kubefed#1215, #1391.
    let t = ok(&format!(
        "{NAMESPACE_SHOP}apiVersion: types.kubefed.io/v1beta1\nkind: FederatedDeployment\n\
         metadata: {{name: web, namespace: shop}}\nspec:\n  template:\n    metadata:\n      name: ignored\n      \
         namespace: other\n      uid: u-1\n      resourceVersion: '9'\n      labels: {{app: web}}\n      annotations: {{note: x}}\n      finalizers: [f]\n    \
         spec:\n      replicas: 2\n    status: {{replicas: 9}}\n  placement:\n    clusters: [{{name: a}}]\n"
    ));
    let b = binding(&t, "FederatedDeployment shop/web");
    assert_eq!(
        serde_json::to_string(&b.template.object).unwrap(),
        r#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"shop","labels":{"app":"web"}},"spec":{"replicas":2}}"#
    );
    assert_eq!(b.template.key.to_string(), "Deployment.apps shop/web");
    assert_eq!(
        b.template.labels.get("app").map(String::as_str),
        Some("web")
    );
    assert!(has_warning(&t, "metadata.annotations are dropped"));
    assert!(has_warning(&t, "metadata.finalizers are dropped"));
    // Without an RSP the template is copied with its replicas.
    assert_eq!(placed(b, &abc()), vec![("a".to_string(), None)]);
}

#[test]
fn an_empty_annotations_map_survives_so_an_override_can_add_a_key() {
    let t = ok(&format!(
        "{NAMESPACE_SHOP}apiVersion: types.kubefed.io/v1beta1\nkind: FederatedConfigMap\n\
         metadata: {{name: settings, namespace: shop}}\nspec:\n  template:\n    metadata:\n      annotations: {{}}\n  \
         placement:\n    clusters: [{{name: a}}]\n  overrides:\n  - clusterName: a\n    clusterOverrides:\n    \
         - {{op: add, path: /metadata/annotations/x, value: '1'}}\n"
    ));
    let b = binding(&t, "FederatedConfigMap shop/settings");
    let rendered = render(b, &abc());
    assert_eq!(rendered["a"]["metadata"]["annotations"], json!({"x": "1"}));
}

#[test]
fn api_version_comes_from_the_template_or_the_type_config() {
    let t = ok(&format!(
        "{NAMESPACE_SHOP}apiVersion: types.kubefed.io/v1beta1\nkind: FederatedIngress\n\
         metadata: {{name: web, namespace: shop}}\nspec:\n  template:\n    apiVersion: networking.k8s.io/v1\n    kind: Ingress\n---\n\
         apiVersion: types.kubefed.io/v1beta1\nkind: FederatedService\nmetadata: {{name: web, namespace: shop}}\nspec: {{}}\n"
    ));
    let ingress = binding(&t, "FederatedIngress shop/web");
    assert_eq!(ingress.template.api_version, "networking.k8s.io/v1");
    assert_eq!(ingress.template.key.group, "networking.k8s.io");
    let service = binding(&t, "FederatedService shop/web");
    assert_eq!(service.template.object["apiVersion"], json!("v1"));
    assert_eq!(service.template.object["kind"], json!("Service"));
}

// ---- §2.5 overrides (overrides.go GetOverrides) ----------------------------------------------

const SEED_000_OVERRIDES: &str = "  overrides:\n  - clusterName: a\n    clusterOverrides:\n    \
    - path: /spec/replicas\n      value: 5\n    - path: /spec/template/spec/containers/0/image\n      \
    value: nginx:1.17.0-alpine\n    - path: /metadata/annotations\n      op: add\n      value:\n        foo: bar\n    \
    - path: /metadata/annotations/foo\n      op: remove\n    - path: /spec/template/spec/containers/0/args/0\n      \
    op: add\n      value: -q\n";

fn seed_deployment(extra: &str) -> String {
    format!(
        "{NAMESPACE_SHOP}apiVersion: types.kubefed.io/v1beta1\nkind: FederatedDeployment\n\
         metadata: {{name: web, namespace: shop}}\nspec:\n  template:\n    spec:\n      replicas: 3\n      template:\n        \
         spec:\n          containers:\n          - name: nginx\n            image: nginx\n            args: [--v]\n  \
         placement:\n    clusters: [{{name: a}}, {{name: b}}]\n{extra}"
    )
}

#[test]
fn seed_000_overrides_change_only_their_cluster() {
    let t = ok(&seed_deployment(SEED_000_OVERRIDES));
    let b = binding(&t, "FederatedDeployment shop/web");
    let rendered = render(b, &abc());
    let a = &rendered["a"];
    assert_eq!(a["spec"]["replicas"], json!(5));
    assert_eq!(
        a["spec"]["template"]["spec"]["containers"][0],
        json!({"name": "nginx", "image": "nginx:1.17.0-alpine", "args": ["-q", "--v"]})
    );
    assert_eq!(a["metadata"]["annotations"], json!({}));
    assert_eq!(rendered["b"], b.template.object);
}

#[test]
fn bad_overrides_are_errors() {
    for (overrides, expected) in [
        (
            "  - clusterName: a\n    clusterOverrides:\n    - {op: move, path: /spec}\n",
            "op \"move\" is not add, remove or replace",
        ),
        (
            "  - clusterName: a\n    clusterOverrides:\n    - {path: /metadata/name, value: x}\n",
            "invalid path /metadata/name",
        ),
        (
            "  - clusterName: a\n    clusterOverrides:\n    - {path: /kind, value: x}\n",
            "invalid path /kind",
        ),
        (
            "  - clusterName: a\n  - clusterName: a\n",
            "cluster \"a\" appears more than once",
        ),
        (
            "  - clusterName: a\n    clusterOverrides:\n    - {path: /spec/replicas, value: 1}\n    - {op: add, path: /spec/replicas, value: 2}\n",
            "path \"/spec/replicas\" appears more than once for cluster \"a\"",
        ),
        (
            "  - clusterName: a\n    clusterOverrides:\n    - {path: spec/replicas, value: 1}\n",
            "must be a JSON pointer",
        ),
        (
            "  - clusterName: a\n    clusterOverride:\n    - {path: /spec/replicas, value: 1}\n",
            "unknown field `clusterOverride`",
        ),
    ] {
        let message = error(&seed_deployment(&format!("  overrides:\n{overrides}")));
        assert!(message.contains(expected), "{expected}: {message}");
        assert!(message.contains("in.yaml:"), "{message}");
    }
}

#[test]
fn an_override_that_fails_names_its_path_and_the_identity_cannot_change() {
    let t = ok(&seed_deployment(
        "  overrides:\n  - clusterName: b\n    clusterOverrides:\n    - {op: remove, path: /spec/paused}\n",
    ));
    let b = binding(&t, "FederatedDeployment shop/web");
    let problem = object_for_cluster(b, "b", None).unwrap_err();
    assert!(problem.contains("remove /spec/paused"), "{problem}");
    let t = ok(&seed_deployment(
        "  overrides:\n  - clusterName: b\n    clusterOverrides:\n    - {path: /metadata, value: {name: other}}\n",
    ));
    let b = binding(&t, "FederatedDeployment shop/web");
    let problem = object_for_cluster(b, "b", None).unwrap_err();
    assert!(problem.contains("metadata.name"), "{problem}");
}

#[test]
fn overrides_for_clusters_not_placed_are_warned_about() {
    let t = ok(&seed_deployment(
        "  overrides:\n  - clusterName: c\n    clusterOverrides: []\n  - clusterName: z\n",
    ));
    let b = binding(&t, "FederatedDeployment shop/web");
    let targets = placed(b, &abc());
    let warnings = target_warnings(b, &abc(), &targets);
    let messages: Vec<&str> = warnings.iter().map(|w| w.message.as_str()).collect();
    assert!(
        messages
            .iter()
            .any(|m| m.contains("overrides for cluster c are ignored")),
        "{messages:?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m.contains("cluster \"z\", which is not in the inventory")),
        "{messages:?}"
    );
}

// ---- §2.6 ReplicaSchedulingPreference (replicascheduler.go, plugin.go, plugin_test.go) -----

fn seed_000_rsp(clusters: &str) -> String {
    format!(
        "apiVersion: scheduling.kubefed.io/v1alpha1\nkind: ReplicaSchedulingPreference\n\
         metadata: {{name: web, namespace: shop}}\nspec:\n  targetKind: FederatedDeployment\n  totalReplicas: 9\n{clusters}---\n"
    )
}

const SEED_000_CLUSTERS: &str = "  clusters:\n    a:\n      minReplicas: 4\n      maxReplicas: 6\n      \
    weight: 1\n    b:\n      minReplicas: 4\n      maxReplicas: 8\n      weight: 2\n";

#[test]
fn rsp_overwrites_placement_and_keeps_zero_replica_clusters() {
    // The FederatedDeployment lists a and b; the RSP plans over every ready cluster and
    // writes all of them, c with 0 (plugin_test.go "Add new replica override" with 0).
    let t = ok(&format!(
        "{}{}",
        seed_000_rsp(SEED_000_CLUSTERS),
        seed_deployment("")
    ));
    let b = binding(&t, "FederatedDeployment shop/web");
    assert_eq!(
        placed(b, &abc()),
        vec![
            ("a".to_string(), Some(4)),
            ("b".to_string(), Some(5)),
            ("c".to_string(), Some(0)),
        ]
    );
    let rendered = render(b, &abc());
    assert_eq!(rendered["c"]["spec"]["replicas"], json!(0));
    assert_eq!(rendered["b"]["spec"]["replicas"], json!(5));
    // Planned sum 9 = total: no shortfall warning.
    assert!(target_warnings(b, &abc(), &placed(b, &abc())).is_empty());
}

#[test]
fn rsp_without_clusters_is_even_and_overwrites_a_user_replicas_override_in_place() {
    let t = ok(&format!(
        "{}{}",
        seed_000_rsp(""),
        seed_deployment(SEED_000_OVERRIDES)
    ));
    let b = binding(&t, "FederatedDeployment shop/web");
    assert_eq!(
        placed(b, &abc()),
        vec![
            ("a".to_string(), Some(3)),
            ("b".to_string(), Some(3)),
            ("c".to_string(), Some(3)),
        ]
    );
    let list = overrides_for_cluster(b, "a", Some(3));
    assert_eq!(list.len(), 5);
    assert_eq!(list[0].path, REPLICAS_PATH);
    assert_eq!(list[0].value, Some(json!(3)));
    let list = overrides_for_cluster(b, "c", Some(3));
    assert_eq!(
        list,
        vec![ClusterOverride {
            op: OverrideOp::Replace,
            path: REPLICAS_PATH.to_string(),
            value: Some(json!(3)),
        }]
    );
    let rendered = render(b, &abc());
    assert_eq!(rendered["a"]["spec"]["replicas"], json!(3));
    assert_eq!(
        rendered["a"]["spec"]["template"]["spec"]["containers"][0]["image"],
        json!("nginx:1.17.0-alpine")
    );
}

#[test]
fn rsp_replicas_are_added_when_the_template_has_none() {
    // json-patch v4.11: replace of a missing key adds it.
    let t = ok(&format!(
        "{}{NAMESPACE_SHOP}apiVersion: types.kubefed.io/v1beta1\nkind: FederatedDeployment\n\
         metadata: {{name: web, namespace: shop}}\nspec:\n  template:\n    spec:\n      paused: false\n",
        seed_000_rsp("")
    ));
    let b = binding(&t, "FederatedDeployment shop/web");
    let rendered = render(b, &abc());
    assert_eq!(
        rendered["a"]["spec"],
        json!({"paused": false, "replicas": 3})
    );
}

#[test]
fn rsp_intersect_with_cluster_selector_uses_selectors_only() {
    let rsp = "apiVersion: scheduling.kubefed.io/v1alpha1\nkind: ReplicaSchedulingPreference\n\
         metadata: {name: web, namespace: shop}\nspec:\n  targetKind: FederatedDeployment\n  totalReplicas: 10\n  \
         intersectWithClusterSelector: true\n---\n";
    let deployment = |placement: &str| {
        format!(
            "{rsp}{NAMESPACE_SHOP}apiVersion: types.kubefed.io/v1beta1\nkind: FederatedDeployment\n\
             metadata: {{name: web, namespace: shop}}\nspec:\n  template:\n    spec: {{replicas: 1}}\n  placement:\n{placement}"
        )
    };
    // The clusters list is ignored: the selector picks b and c, the plan goes over them only.
    let t = ok(&deployment(
        "    clusters: [{name: a}]\n    clusterSelector: {matchLabels: {region: us}}\n",
    ));
    let b = binding(&t, "FederatedDeployment shop/web");
    let targets = placed(b, &abc());
    assert_eq!(names(&targets), vec!["b", "c"]);
    assert_eq!(targets.iter().filter_map(|(_, n)| *n).sum::<i64>(), 10);
    // No selector: the intersection is empty, the RSP does nothing, the own placement and
    // replicas stand.
    let t = ok(&deployment("    clusters: [{name: a}]\n"));
    let b = binding(&t, "FederatedDeployment shop/web");
    assert_eq!(placed(b, &abc()), vec![("a".to_string(), None)]);
    let warnings = target_warnings(b, &abc(), &placed(b, &abc()));
    assert!(
        warnings[0].message.contains("has no effect"),
        "{warnings:?}"
    );
}

#[test]
fn rsp_plan_still_passes_the_federated_namespace() {
    let text = format!(
        "{}apiVersion: types.kubefed.io/v1beta1\nkind: FederatedNamespace\n\
         metadata: {{name: shop, namespace: shop}}\nspec:\n  placement:\n    clusters: [{{name: a}}, {{name: c}}]\n---\n\
         apiVersion: types.kubefed.io/v1beta1\nkind: FederatedDeployment\nmetadata: {{name: web, namespace: shop}}\n\
         spec:\n  template:\n    spec: {{replicas: 1}}\n",
        seed_000_rsp("")
    );
    let t = ok(&text);
    let b = binding(&t, "FederatedDeployment shop/web");
    let targets = placed(b, &abc());
    assert_eq!(
        targets,
        vec![("a".to_string(), Some(3)), ("c".to_string(), Some(3))]
    );
    let warnings = target_warnings(b, &abc(), &targets);
    assert!(
        warnings[0].message.contains("only 6 of 9 replicas"),
        "{warnings:?}"
    );
}

// Seed 003: FederatedDeployment fed-ns/fed-deploy with RSP "*" {weight 1, max 15} and
// cluster-1 {weight: (null), min 3, max 10}, total 20.
#[test]
fn seed_003_rsp_with_star() {
    let text = "apiVersion: types.kubefed.io/v1beta1\nkind: FederatedNamespace\n\
         metadata: {name: fed-ns, namespace: fed-ns}\nspec:\n  placement:\n    clusterSelector: {}\n---\n\
         apiVersion: types.kubefed.io/v1beta1\nkind: FederatedDeployment\nmetadata:\n  name: fed-deploy\n  namespace: fed-ns\n\
         spec:\n  template:\n    spec: {replicas: 1}\n  overrides:\n  - clusterName: cluster-1\n    clusterOverrides:\n    \
         - path: /spec/replicas\n      value: 10\n    - path: /spec/template/spec/containers/0/image\n      value: nginx:1.17.0-alpine\n  \
         placement:\n    clusters:\n    - name: cluster-1\n    - name: cluster-2\n---\n\
         apiVersion: scheduling.kubefed.io/v1alpha1\nkind: ReplicaSchedulingPreference\nmetadata:\n  name: fed-deploy\n  namespace: fed-ns\n\
         spec:\n  targetKind: FederatedDeployment\n  totalReplicas: 20\n  clusters:\n   \"*\":\n     weight: 1\n     maxReplicas: 15\n   \
         cluster-1:\n     weight:\n     minReplicas: 3\n     maxReplicas: 10\n";
    let t = ok(text);
    let b = binding(&t, "FederatedDeployment fed-ns/fed-deploy");
    let clusters = vec![
        cluster("cluster-1", json!({}), None),
        cluster("cluster-2", json!({}), None),
        cluster("cluster-3", json!({}), None),
    ];
    assert_eq!(
        placed(b, &clusters),
        vec![
            ("cluster-1".to_string(), Some(3)),
            ("cluster-2".to_string(), Some(8)),
            ("cluster-3".to_string(), Some(9)),
        ]
    );
    // The user's replicas override for cluster-1 (10) is overwritten by the plan (3).
    let list = overrides_for_cluster(b, "cluster-1", Some(3));
    assert_eq!(list[0].value, Some(json!(3)));
}

#[test]
fn rsp_errors_and_inert_rsps() {
    let message = error(
        "apiVersion: scheduling.kubefed.io/v1alpha1\nkind: ReplicaSchedulingPreference\n\
         metadata: {name: web, namespace: shop}\nspec:\n  targetKind: FederatedStatefulSet\n  totalReplicas: 3\n",
    );
    assert!(
        message.contains("must be FederatedDeployment or FederatedReplicaSet"),
        "{message}"
    );
    let message = error(
        "apiVersion: scheduling.kubefed.io/v1alpha1\nkind: ReplicaSchedulingPreference\n\
         metadata: {name: web, namespace: shop}\nspec:\n  targetKind: FederatedDeployment\n  totalReplicas: 3\n  \
         clusters:\n    a: {weigth: 1}\n",
    );
    assert!(message.contains("unknown field `weigth`"), "{message}");
    assert!(message.contains("in.yaml:8"), "{message}");
    let message = error(
        "apiVersion: scheduling.kubefed.io/v1alpha1\nkind: ReplicaSchedulingPreference\n\
         metadata: {name: web, namespace: shop}\nspec:\n  targetKind: FederatedDeployment\n  totalReplicas: 3\n  \
         clusters:\n    a: {weight: -1}\n",
    );
    assert!(message.contains("must not be negative"), "{message}");
    // No target, or a target of the other kind: nothing happens.
    let t = ok(&format!(
        "{}{}",
        seed_000_rsp("").replace("FederatedDeployment", "FederatedReplicaSet"),
        seed_deployment("")
    ));
    assert!(has_warning(
        &t,
        "there is a FederatedDeployment of that name, but targetKind says FederatedReplicaSet"
    ));
    let b = binding(&t, "FederatedDeployment shop/web");
    assert_eq!(names(&placed(b, &abc())), vec!["a", "b"]);
}

// ---- §2.1 types -------------------------------------------------------------------------------

#[test]
fn a_federated_kind_without_type_config_is_an_error_and_an_ftc_enables_it() {
    let statefulset = "apiVersion: types.kubefed.io/v1beta1\nkind: FederatedStatefulSet\n\
         metadata: {name: db, namespace: shop}\nspec:\n  template:\n    spec: {replicas: 2}\n  placement:\n    clusters: [{name: a}]\n";
    let message = error(statefulset);
    assert!(
        message.contains("no FederatedTypeConfig in the input federates FederatedStatefulSet"),
        "{message}"
    );
    let ftc = "apiVersion: core.kubefed.io/v1beta1\nkind: FederatedTypeConfig\n\
         metadata: {name: statefulsets.apps, namespace: kube-federation-system}\nspec:\n  \
         federatedType: {group: types.kubefed.io, kind: FederatedStatefulSet, pluralName: federatedstatefulsets, scope: Namespaced, version: v1beta1}\n  \
         propagation: Enabled\n  targetType: {kind: StatefulSet, pluralName: statefulsets, scope: Namespaced, version: v1}\n---\n";
    let t = ok(&format!("{ftc}{NAMESPACE_SHOP}{statefulset}"));
    let b = binding(&t, "FederatedStatefulSet shop/db");
    // The group comes from the FTC's name (SetFederatedTypeConfigDefaults).
    assert_eq!(b.template.object["apiVersion"], json!("apps/v1"));
    assert_eq!(b.template.object["kind"], json!("StatefulSet"));
    assert_eq!(names(&placed(b, &abc())), vec!["a"]);
}

#[test]
fn a_disabled_type_config_stops_propagation() {
    let ftc = "apiVersion: core.kubefed.io/v1beta1\nkind: FederatedTypeConfig\n\
         metadata: {name: configmaps, namespace: kube-federation-system}\nspec:\n  \
         federatedType: {group: types.kubefed.io, kind: FederatedConfigMap, pluralName: federatedconfigmaps, scope: Namespaced, version: v1beta1}\n  \
         propagation: Disabled\n  targetType: {kind: ConfigMap, pluralName: configmaps, scope: Namespaced, version: v1}\n---\n";
    let t = ok(&format!(
        "{ftc}{}",
        config_map("  placement:\n    clusterSelector: {}\n")
    ));
    assert!(
        t.bindings
            .iter()
            .all(|b| b.source_name != "FederatedConfigMap shop/settings")
    );
    assert!(has_warning(&t, "has propagation Disabled"));
}

#[test]
fn typed_parts_reject_unknown_fields_but_the_template_is_free_form() {
    let message = error(&config_map("  placment:\n    clusterSelector: {}\n"));
    assert!(message.contains("unknown field `placment`"), "{message}");
    assert!(
        message.contains("FederatedConfigMap shop/settings"),
        "{message}"
    );
    let t = ok(&format!(
        "{NAMESPACE_SHOP}apiVersion: types.kubefed.io/v1beta1\nkind: FederatedConfigMap\n\
         metadata: {{name: settings, namespace: shop}}\nspec:\n  template:\n    anything: {{goes: here}}\n"
    ));
    let b = binding(&t, "FederatedConfigMap shop/settings");
    assert_eq!(b.template.object["anything"], json!({"goes": "here"}));
    let message = error(
        "apiVersion: types.kubefed.io/v1beta1\nkind: FederatedConfigMap\nmetadata: {name: settings}\n",
    );
    assert!(message.contains("spec is required"), "{message}");
    let message = error(
        "apiVersion: types.kubefed.io/v1alpha1\nkind: FederatedConfigMap\nmetadata: {name: s}\nspec: {}\n",
    );
    assert!(message.contains("is not served"), "{message}");
}

#[test]
fn kubefed_groups_are_recognised() {
    for group in [
        "types.kubefed.io",
        "core.kubefed.io",
        "scheduling.kubefed.io",
        "multiclusterdns.kubefed.io",
    ] {
        assert!(is_kubefed_group(group));
    }
    assert!(!is_kubefed_group("policy.karmada.io"));
    assert!(!is_kubefed_group("apps"));
}

// ---- §3 Federation v1 -------------------------------------------------------------------------

const SEED_003_RS: &str = "apiVersion: extensions/v1beta1\nkind: ReplicaSet\nmetadata:\n  name: nginx-us\n  \
    annotations:\n    federation.kubernetes.io/replica-set-preferences: |\n        {\n            \"rebalance\": true,\n            \
    \"clusters\": {\n                \"us-east1-b\": {\"minReplicas\": 2, \"maxReplicas\": 4, \"weight\": 1},\n                \
    \"us-central1-b\": {\"minReplicas\": 2, \"maxReplicas\": 4, \"weight\": 1}\n            }\n        }\nspec:\n  replicas: 6\n";

fn v1_clusters() -> Vec<Cluster> {
    vec![
        cluster(
            "us-central1-b",
            json!({"zone": "central", "size": "10"}),
            None,
        ),
        cluster("us-east1-b", json!({"zone": "east", "size": "3"}), None),
        cluster("us-west1-b", json!({"zone": "west"}), None),
    ]
}

#[test]
fn seed_003_replica_set_preferences_split_replicas_and_keep_zero_clusters() {
    let t = ok(SEED_003_RS);
    assert_eq!(t.claimed, vec![0]);
    let b = binding(
        &t,
        "ReplicaSet.extensions default/nginx-us (Federation v1 annotations)",
    );
    let targets = placed(b, &v1_clusters());
    // us-west1-b has no preferences: planned 0, still created with replicas 0 (§3.4).
    assert_eq!(
        targets,
        vec![
            ("us-central1-b".to_string(), Some(3)),
            ("us-east1-b".to_string(), Some(3)),
            ("us-west1-b".to_string(), Some(0)),
        ]
    );
    let rendered = render(b, &v1_clusters());
    assert_eq!(rendered["us-west1-b"]["spec"]["replicas"], json!(0));
    // Every annotation is copied, the federation ones included (§3.1).
    assert!(
        rendered["us-east1-b"]["metadata"]["annotations"]
            .get(REPLICA_SET_PREFERENCES_KEY)
            .is_some()
    );
    assert_eq!(
        rendered["us-east1-b"]["apiVersion"],
        json!("extensions/v1beta1")
    );
}

const REPLICA_SET_PREFERENCES_KEY: &str = fedv1::REPLICA_SET_PREFERENCES;

fn v1_deployment(annotations: &str, replicas: &str) -> String {
    format!(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: shop\n  annotations:\n{annotations}\
         spec:\n{replicas}  template: {{}}\n"
    )
}

#[test]
fn deployment_preferences_keys_are_case_insensitive() {
    let t = ok(&v1_deployment(
        "    federation.kubernetes.io/deployment-preferences: '{\"Clusters\": {\"us-east1-b\": {\"WEIGHT\": 1, \"maxreplicas\": 2}, \"*\": {\"Weight\": 1}}}'\n",
        "  replicas: 10\n",
    ));
    let b = binding(&t, "Deployment.apps shop/web (Federation v1 annotations)");
    let targets = placed(b, &v1_clusters());
    let east = targets.iter().find(|(n, _)| n == "us-east1-b").unwrap();
    assert_eq!(east.1, Some(2));
    assert_eq!(targets.iter().filter_map(|(_, n)| *n).sum::<i64>(), 10);
}

#[test]
fn invalid_preferences_json_falls_back_to_even_with_a_warning() {
    // preferences_test.go "failed preferences"; scheduling.go GetSchedule uses the default.
    let t = ok(&v1_deployment(
        "    federation.kubernetes.io/deployment-preferences: '{'\n",
        "  replicas: 9\n",
    ));
    assert!(has_warning(&t, "falls back to the default"));
    let b = binding(&t, "Deployment.apps shop/web (Federation v1 annotations)");
    let replicas: Vec<Option<i64>> = placed(b, &v1_clusters())
        .into_iter()
        .map(|(_, n)| n)
        .collect();
    assert_eq!(replicas, vec![Some(3), Some(3), Some(3)]);
    // A type mismatch is an error of encoding/json too.
    let t = ok(&v1_deployment(
        "    federation.kubernetes.io/deployment-preferences: '{\"clusters\": {\"a\": {\"weight\": \"1\"}}}'\n",
        "",
    ));
    assert!(has_warning(&t, "weight must be an integer"));
}

#[test]
fn empty_or_null_preferences_plan_every_cluster_zero() {
    for preferences in [
        "'{}'",
        "'{\"clusters\": {}}'",
        "'null'",
        "'{\"rebalance\": true}'",
    ] {
        let t = ok(&v1_deployment(
            &format!("    federation.kubernetes.io/deployment-preferences: {preferences}\n"),
            "  replicas: 4\n",
        ));
        let b = binding(&t, "Deployment.apps shop/web (Federation v1 annotations)");
        let replicas: Vec<Option<i64>> = placed(b, &v1_clusters())
            .into_iter()
            .map(|(_, n)| n)
            .collect();
        assert_eq!(replicas, vec![Some(0), Some(0), Some(0)], "{preferences}");
    }
}

#[test]
fn a_deployment_with_the_replica_set_key_is_split_with_the_default_preferences() {
    // §3.3: the Deployment adapter reads deployment-preferences only, so the ReplicaSet key is
    // ignored (with a warning) and the default `"*": {weight: 1}` splits it.
    let t = ok(&v1_deployment(
        "    federation.kubernetes.io/replica-set-preferences: '{}'\n",
        "",
    ));
    assert_eq!(t.claimed, vec![0]);
    assert!(has_warning(&t, "on ReplicaSets only"));
    // With a selector too; no replicas → 1.
    let t = ok(&v1_deployment(
        "    federation.kubernetes.io/replica-set-preferences: '{}'\n    federation.alpha.kubernetes.io/cluster-selector: '[]'\n",
        "",
    ));
    assert_eq!(t.claimed, vec![0]);
    let b = binding(&t, "Deployment.apps shop/web (Federation v1 annotations)");
    let targets = placed(b, &v1_clusters());
    assert_eq!(targets.iter().filter_map(|(_, n)| *n).sum::<i64>(), 1);
    assert_eq!(targets.len(), 3);
}

#[test]
fn cluster_selector_operators() {
    // clusterselector.go ConvertOperator and apimachinery labels Requirement.Matches over
    // us-central1-b {zone: central, size: "10"}, us-east1-b {zone: east, size: "3"},
    // us-west1-b {zone: west}.
    for (selector, expected) in [
        ("[]", vec!["us-central1-b", "us-east1-b", "us-west1-b"]),
        ("null", vec!["us-central1-b", "us-east1-b", "us-west1-b"]),
        (
            r#"[{"key": "zone", "operator": "=", "values": ["east"]}]"#,
            vec!["us-east1-b"],
        ),
        (
            r#"[{"key": "zone", "operator": "==", "values": ["east"]}]"#,
            vec!["us-east1-b"],
        ),
        (
            r#"[{"key": "zone", "operator": "!=", "values": ["east"]}]"#,
            vec!["us-central1-b", "us-west1-b"],
        ),
        (
            r#"[{"key": "zone", "operator": "in", "values": ["east", "west"]}]"#,
            vec!["us-east1-b", "us-west1-b"],
        ),
        (
            r#"[{"key": "zone", "operator": "In", "values": ["west"]}]"#,
            vec!["us-west1-b"],
        ),
        (
            r#"[{"key": "zone", "operator": "notin", "values": ["east", "west"]}]"#,
            vec!["us-central1-b"],
        ),
        (
            r#"[{"key": "size", "operator": "NotIn", "values": ["3"]}]"#,
            vec!["us-central1-b", "us-west1-b"],
        ),
        (
            r#"[{"key": "size", "operator": "exists"}]"#,
            vec!["us-central1-b", "us-east1-b"],
        ),
        (
            r#"[{"key": "size", "operator": "Exists", "values": null}]"#,
            vec!["us-central1-b", "us-east1-b"],
        ),
        (r#"[{"key": "size", "operator": "!"}]"#, vec!["us-west1-b"]),
        (
            r#"[{"key": "size", "operator": "DoesNotExist"}]"#,
            vec!["us-west1-b"],
        ),
        (
            r#"[{"key": "size", "operator": "gt", "values": ["5"]}]"#,
            vec!["us-central1-b"],
        ),
        (
            r#"[{"key": "size", "operator": ">", "values": ["2"]}]"#,
            vec!["us-central1-b", "us-east1-b"],
        ),
        (
            r#"[{"key": "size", "operator": "Lt", "values": ["5"]}]"#,
            vec!["us-east1-b"],
        ),
        (
            r#"[{"key": "size", "operator": "<", "values": ["100"]}]"#,
            vec!["us-central1-b", "us-east1-b"],
        ),
        // ANDed, keys case-insensitive, unknown keys ignored.
        (
            r#"[{"KEY": "zone", "Operator": "notin", "Values": ["west"], "note": 1}, {"key": "size", "operator": "lt", "values": ["5"]}]"#,
            vec!["us-east1-b"],
        ),
    ] {
        let t = ok(&format!(
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  annotations:\n    \
             federation.alpha.kubernetes.io/cluster-selector: '{selector}'\ndata: {{a: b}}\n"
        ));
        let b = binding(&t, "ConfigMap default/c (Federation v1 annotations)");
        assert_eq!(names(&placed(b, &v1_clusters())), expected, "{selector}");
        assert_eq!(placed(b, &v1_clusters())[0].1, None);
    }
}

#[test]
fn unparseable_cluster_selectors_are_errors() {
    for (selector, expected) in [
        ("[", "invalid JSON"),
        (r#"{"key": "zone"}"#, "must be a JSON list"),
        (
            r#"[{"key": "zone", "operator": "doesnotexist"}]"#,
            "operator \"doesnotexist\" is not recognized",
        ),
        (
            r#"[{"key": "zone", "operator": "Equals", "values": ["a"]}]"#,
            "operator \"Equals\" is not recognized",
        ),
        (
            r#"[{"key": "zone", "operator": "in", "values": []}]"#,
            "needs at least one value",
        ),
        (
            r#"[{"key": "zone", "operator": "=", "values": ["a", "b"]}]"#,
            "needs exactly one value",
        ),
        (
            r#"[{"key": "zone", "operator": "exists", "values": ["a"]}]"#,
            "takes no values",
        ),
        (
            r#"[{"key": "size", "operator": "gt", "values": ["x"]}]"#,
            "needs an integer value",
        ),
        (
            r#"[{"key": "bad key", "operator": "exists"}]"#,
            "key \"bad key\"",
        ),
        (
            r#"[{"key": "zone", "operator": "in", "values": ["-bad"]}]"#,
            "value \"-bad\"",
        ),
        (r#"[{"operator": "exists"}]"#, "key \"\""),
        (
            r#"[{"key": 1, "operator": "exists"}]"#,
            "key must be a string",
        ),
    ] {
        let message = error(&format!(
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  annotations:\n    \
             federation.alpha.kubernetes.io/cluster-selector: '{selector}'\n"
        ));
        assert!(message.contains(expected), "{selector}: {message}");
        assert!(message.contains("in.yaml:1"), "{message}");
    }
}

#[test]
fn federation_v1_copies_only_what_its_adapters_copy() {
    let t = ok(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: shop\n  uid: u-1\n  resourceVersion: '7'\n  \
         labels: {app: x}\n  annotations:\n    federation.alpha.kubernetes.io/cluster-selector: '[]'\n\
         data: {a: b}\nbinaryData: {z: AA==}\n---\n\
         apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  annotations:\n    \
         deployment.kubernetes.io/revision: '4'\n    federation.kubernetes.io/deployment-preferences: '{\"clusters\": {\"*\": {\"weight\": 1}}}'\n\
         spec:\n  replicas: 2\n  template: {}\nstatus: {replicas: 2}\n",
    );
    assert_eq!(t.claimed, vec![0, 1]);
    let config = binding(&t, "ConfigMap shop/c (Federation v1 annotations)");
    assert_eq!(
        config.template.object,
        json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c", "namespace": "shop",
            "labels": {"app": "x"}, "annotations": {"federation.alpha.kubernetes.io/cluster-selector": "[]"}},
            "data": {"a": "b"}})
    );
    assert!(has_warning(&t, "binaryData dropped"));
    let deployment = binding(
        &t,
        "Deployment.apps default/web (Federation v1 annotations)",
    );
    let rendered = render(deployment, &v1_clusters());
    let object = &rendered["us-west1-b"];
    assert!(
        object["metadata"]["annotations"]
            .get("deployment.kubernetes.io/revision")
            .is_none()
    );
    assert!(object.get("status").is_none());
    assert_eq!(
        rendered
            .values()
            .map(|o| o["spec"]["replicas"].as_i64().unwrap())
            .sum::<i64>(),
        2
    );
    assert_eq!(t.templates.len(), 2);
}

#[test]
fn federation_v1_jobs_are_not_claimed() {
    let t = ok(
        "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: j\n  annotations:\n    \
         federation.kubernetes.io/job-preferences: '{}'\nspec:\n  template: {}\n",
    );
    assert!(t.claimed.is_empty());
    assert!(t.bindings.is_empty());
    assert!(has_warning(
        &t,
        "does not implement Federation v1's Job controller"
    ));
}

#[test]
fn federation_v1_selector_that_matches_nothing_is_warned_about() {
    let t = ok(
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n  annotations:\n    \
         federation.alpha.kubernetes.io/cluster-selector: '[{\"key\": \"zone\", \"operator\": \"in\", \"values\": [\"mars\"]}]'\n\
         type: Opaque\nstringData: {a: b}\nimmutable: true\n",
    );
    let b = binding(&t, "Secret default/s (Federation v1 annotations)");
    assert!(placed(b, &v1_clusters()).is_empty());
    let warnings = target_warnings(b, &v1_clusters(), &[]);
    assert!(
        warnings[0].message.contains("no ready cluster matches"),
        "{warnings:?}"
    );
    assert_eq!(b.template.object["stringData"], json!({"a": "b"}));
    assert!(has_warning(&t, "immutable dropped"));
}

/// `kubefedctl federate` (kubefed pkg/kubefedctl/federate) makes a Federated<Kind> from a live
/// object and leaves the object on the host; KubeFed's sync controller reads only the federated
/// object. The plain object of the same kind, namespace and name is the host's copy, claimed and
/// recorded for `plan`, unless a Karmada policy selects it: then it is Karmada's template, and
/// the pair two sources of one object (refused by fleet assembly, scenario error-mixed-claim).
#[test]
fn a_plain_object_beside_its_federated_object_is_the_hosts_copy() {
    let text = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\n\
                spec: {replicas: 1}\n---\n\
                apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web, namespace: shop}\n---\n\
                apiVersion: types.kubefed.io/v1beta1\nkind: FederatedDeployment\n\
                metadata: {name: web, namespace: shop}\n\
                spec: {template: {spec: {replicas: 2}}, placement: {clusterSelector: {}}}\n";
    let t = ok(text);
    // The ConfigMap of the same name is another kind: a template of its own.
    assert_eq!(t.claimed, vec![0]);
    let federated = binding(&t, "FederatedDeployment shop/web");
    assert_eq!(
        federated.host_copy.as_ref().map(|origin| origin.line),
        Some(1)
    );
    let t = translate_beside_karmada(text, |template| template.kind() == "Deployment").unwrap();
    assert!(t.claimed.is_empty());
    assert!(
        binding(&t, "FederatedDeployment shop/web")
            .host_copy
            .is_none()
    );
}
