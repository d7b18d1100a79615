//! Karmada's native interpreter, for Kubernetes' own kinds (karmada
//! pkg/resourceinterpreter/default/native): which kinds are cluster-scoped, how many replicas a
//! workload asks for and where they are revised, which fields never reach a member cluster,
//! and which names Kubernetes accepts.

use serde_json::Value;

use crate::fields::Fields;
use crate::names::{dns_label_problem, dns_subdomain_problem, path_segment_problem};
use crate::object::Template;

/// Cluster-scoped kinds of Kubernetes itself and of common add-ons, by (group, kind). Kinds
/// declared by a `CustomResourceDefinition` in the input use the CRD's own `spec.scope`.
const CLUSTER_SCOPED: &[(&str, &str)] = &[
    ("", "Namespace"),
    ("", "Node"),
    ("", "PersistentVolume"),
    ("", "ComponentStatus"),
    (
        "admissionregistration.k8s.io",
        "MutatingWebhookConfiguration",
    ),
    (
        "admissionregistration.k8s.io",
        "ValidatingWebhookConfiguration",
    ),
    ("admissionregistration.k8s.io", "ValidatingAdmissionPolicy"),
    (
        "admissionregistration.k8s.io",
        "ValidatingAdmissionPolicyBinding",
    ),
    ("admissionregistration.k8s.io", "MutatingAdmissionPolicy"),
    (
        "admissionregistration.k8s.io",
        "MutatingAdmissionPolicyBinding",
    ),
    ("apiextensions.k8s.io", "CustomResourceDefinition"),
    ("apiregistration.k8s.io", "APIService"),
    ("certificates.k8s.io", "CertificateSigningRequest"),
    ("certificates.k8s.io", "ClusterTrustBundle"),
    ("flowcontrol.apiserver.k8s.io", "FlowSchema"),
    ("flowcontrol.apiserver.k8s.io", "PriorityLevelConfiguration"),
    ("networking.k8s.io", "IngressClass"),
    ("networking.k8s.io", "IPAddress"),
    ("networking.k8s.io", "ServiceCIDR"),
    ("node.k8s.io", "RuntimeClass"),
    ("policy", "PodSecurityPolicy"),
    ("rbac.authorization.k8s.io", "ClusterRole"),
    ("rbac.authorization.k8s.io", "ClusterRoleBinding"),
    ("resource.k8s.io", "DeviceClass"),
    ("resource.k8s.io", "ResourceSlice"),
    ("scheduling.k8s.io", "PriorityClass"),
    ("storage.k8s.io", "CSIDriver"),
    ("storage.k8s.io", "CSINode"),
    ("storage.k8s.io", "StorageClass"),
    ("storage.k8s.io", "VolumeAttachment"),
    ("storage.k8s.io", "VolumeAttributesClass"),
    ("cert-manager.io", "ClusterIssuer"),
    ("policy.karmada.io", "ClusterPropagationPolicy"),
    ("policy.karmada.io", "ClusterOverridePolicy"),
    ("cluster.karmada.io", "Cluster"),
];

/// Groups outside Kubernetes whose every kind's scope fedrender knows: those the table above
/// lists all cluster-scoped kinds of, and the multi-cluster Service APIs Karmada's controllers
/// read (all namespaced).
const GROUPS_OF_KNOWN_SCOPE: [&str; 2] = ["multicluster.x-k8s.io", "networking.karmada.io"];

/// Whether the scope of every kind of `group` is known without its CRD: Kubernetes' own core
/// group, a group of the table, or one of [`GROUPS_OF_KNOWN_SCOPE`]. (Kubernetes' other groups
/// are the embedded schemas'.)
pub(crate) fn knows_scope(group: &str) -> bool {
    group.is_empty()
        || GROUPS_OF_KNOWN_SCOPE.contains(&group)
        || CLUSTER_SCOPED
            .iter()
            .any(|(scoped_group, _)| *scoped_group == group)
}

/// The replica count Karmada reads from a template (karmada resourceinterpreter default
/// native replica.go), after the API server's defaults: a Deployment, ReplicaSet or
/// StatefulSet without `spec.replicas` has 1; a Job runs min(parallelism, completions) pods
/// at once, each defaulting to 1; a Pod is 1. Other kinds are not workloads: `None`.
pub fn replicas(template: &Template) -> Option<i64> {
    let spec_int = |field: &str| {
        template
            .object
            .pointer(&format!("/spec/{field}"))
            .and_then(Value::as_i64)
    };
    match (template.group(), template.kind()) {
        ("apps", "Deployment" | "ReplicaSet" | "StatefulSet") => {
            Some(spec_int("replicas").unwrap_or(1))
        }
        ("batch", "Job") => {
            let parallelism = spec_int("parallelism").unwrap_or(1);
            Some(match spec_int("completions") {
                Some(completions) => parallelism.min(completions),
                None => parallelism,
            })
        }
        ("", "Pod") => Some(1),
        _ => None,
    }
}

/// The label that tells Karmada to keep a member's own `spec.replicas` (karmada
/// pkg/util/constants.go `RetainReplicasLabel`, which Karmada's HPA scale-target marker sets on
/// the workloads an HPA scales).
pub const RETAIN_REPLICAS_LABEL: &str = "resourcetemplate.karmada.io/retain-replicas";

/// Whether Karmada keeps the member's `spec.replicas` when it updates this object (karmada
/// pkg/resourceinterpreter/default/native/retain.go `retainWorkloadReplicas`): the native
/// retention of `apps/v1` Deployments alone, when the label is exactly `true` (constants.go
/// `RetainReplicasValue`; `false` and any other value retain nothing). Karmada creates the
/// object with the replicas it renders; from then on the member's count stands.
pub fn retains_replicas(template: &Template) -> bool {
    template.api_version == "apps/v1"
        && template.kind() == "Deployment"
        && template
            .labels
            .get(RETAIN_REPLICAS_LABEL)
            .map(String::as_str)
            == Some("true")
}

/// Where Karmada's `ReviseReplica` hook writes a cluster's replicas: `spec.replicas` for
/// Deployment, ReplicaSet and StatefulSet, `spec.parallelism` for a Job. Pods and other kinds
/// have no hook.
pub(crate) fn replica_field(template: &Template) -> Option<&'static str> {
    match (template.group(), template.kind()) {
        ("apps", "Deployment" | "ReplicaSet" | "StatefulSet") => Some("/spec/replicas"),
        ("batch", "Job") => Some("/spec/parallelism"),
        _ => None,
    }
}

/// Writes `replicas` at `pointer`; a missing field goes where the API server's defaulting
/// puts it, leading its parent.
pub(crate) fn write_replicas(object: &mut Value, pointer: &str, replicas: i64) {
    let Some((parent, field)) = pointer.rsplit_once('/') else {
        return;
    };
    let Some(parent) =
        crate::json_pointer::pointer_mut(object, parent).and_then(Value::as_object_mut)
    else {
        return;
    };
    if let Some(existing) = parent.get_mut(field) {
        *existing = Value::from(replicas);
    } else {
        let rest = std::mem::take(parent);
        parent.insert(field.to_string(), Value::from(replicas));
        parent.extend(rest);
    }
}

/// The pod spec of a native workload, where Karmada reads per-replica requirements.
pub(crate) fn pod_spec(template: &Template) -> Option<&Value> {
    let object = &template.object;
    match (template.group(), template.kind()) {
        ("", "Pod") => object.field("spec"),
        ("apps", "Deployment" | "ReplicaSet" | "StatefulSet" | "DaemonSet") | ("batch", "Job") => {
            crate::json_pointer::pointer(object, "/spec/template/spec")
        }
        _ => None,
    }
}

/// Whether a pod spec has a node claim (node selector, tolerations, required node affinity);
/// with a resource request it makes Karmada's `replicaRequirements` non-nil (karmada
/// `GenerateReplicaRequirements`).
pub(crate) fn has_node_claim(spec: &Value) -> bool {
    let non_empty = |field: &str| match spec.get(field) {
        Some(Value::Object(map)) => !map.is_empty(),
        Some(Value::Array(list)) => !list.is_empty(),
        _ => false,
    };
    non_empty("nodeSelector")
        || non_empty("tolerations")
        || crate::json_pointer::pointer(
            spec,
            "/affinity/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution",
        )
        .is_some()
}

/// Whether a kind is namespaced, by the built-in table of cluster-scoped kinds.
pub(crate) fn is_namespaced(group: &str, kind: &str) -> bool {
    !CLUSTER_SCOPED.contains(&(group, kind))
}

/// Removes what the API server generates and what must not travel to a member cluster
/// (karmada pkg/resourceinterpreter/default/native/prune/prune.go). Runs after overrides, so
/// an override cannot put these fields back.
pub fn prune(group: &str, kind: &str, object: &mut Value) {
    let Some(root) = object.as_object_mut() else {
        return;
    };
    root.shift_remove("status");
    if let Some(metadata) = root.field_mut("metadata").and_then(Value::as_object_mut) {
        for field in [
            "creationTimestamp",
            "deletionTimestamp",
            "deletionGracePeriodSeconds",
            "generation",
            "managedFields",
            "resourceVersion",
            "selfLink",
            "uid",
            "ownerReferences",
            "finalizers",
        ] {
            metadata.shift_remove(field);
        }
    }
    match (group, kind) {
        ("apps", "Deployment") => remove_annotations(
            object,
            &[
                "deployment.kubernetes.io/revision",
                "deployment.kubernetes.io/revision-history",
            ],
        ),
        ("batch", "Job") => prune_job(object),
        ("", "Service") => prune_service(object),
        ("", "ServiceAccount") => prune_service_account(object),
        ("", "Secret") => prune_secret(object),
        ("", "PersistentVolumeClaim") => {
            let selected = crate::json_pointer::pointer(
                object,
                "/metadata/annotations/volume.kubernetes.io~1selected-node",
            )
            .and_then(Value::as_str)
            .is_some_and(|node| !node.is_empty());
            if selected {
                remove_annotations(object, &["volume.kubernetes.io/selected-node"]);
            }
        }
        _ => {}
    }
}

fn remove_annotations(object: &mut Value, keys: &[&str]) {
    if let Some(annotations) = crate::json_pointer::pointer_mut(object, "/metadata/annotations")
        .and_then(Value::as_object_mut)
    {
        for key in keys {
            annotations.shift_remove(*key);
        }
    }
}

fn remove_keys(object: &mut Value, pointer: &str, keys: &[&str]) {
    if let Some(map) =
        crate::json_pointer::pointer_mut(object, pointer).and_then(Value::as_object_mut)
    {
        for key in keys {
            map.shift_remove(*key);
        }
    }
}

fn prune_job(object: &mut Value) {
    remove_keys(object, "/spec", &["ttlSecondsAfterFinished"]);
    let manual_selector = crate::json_pointer::pointer(object, "/spec/manualSelector")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    if manual_selector {
        return;
    }
    remove_keys(
        object,
        "/spec/selector/matchLabels",
        &["controller-uid", "batch.kubernetes.io/controller-uid"],
    );
    remove_keys(
        object,
        "/spec/template/metadata/labels",
        &[
            "controller-uid",
            "job-name",
            "batch.kubernetes.io/controller-uid",
            "batch.kubernetes.io/job-name",
        ],
    );
}

fn prune_service(object: &mut Value) {
    let allocated = crate::json_pointer::pointer(object, "/spec/clusterIP")
        .is_some_and(|ip| ip.as_str() != Some("None"));
    if allocated {
        remove_keys(object, "/spec", &["clusterIP", "clusterIPs"]);
    }
}

/// Token secrets named `<sa>-token-*` are dropped. Karmada's loop skips the element after each
/// removal, so of two adjacent token secrets the second stays; fedrender does the same.
fn prune_service_account(object: &mut Value) {
    let prefix = format!(
        "{}-token-",
        crate::json_pointer::pointer(object, "/metadata/name")
            .and_then(Value::as_str)
            .unwrap_or("")
    );
    let Some(secrets) = object.field_mut("secrets").and_then(Value::as_array_mut) else {
        return;
    };
    let mut index = 0;
    while index < secrets.len() {
        let is_token = secrets[index]
            .field("name")
            .and_then(Value::as_str)
            .is_some_and(|name| name.starts_with(&prefix));
        if is_token {
            secrets.remove(index);
        }
        index += 1;
    }
}

fn prune_secret(object: &mut Value) {
    let is_token =
        object.field("type").and_then(Value::as_str) == Some("kubernetes.io/service-account-token");
    if is_token {
        remove_annotations(object, &["kubernetes.io/service-account.uid"]);
        if let Some(root) = object.as_object_mut() {
            root.insert("data".to_string(), Value::Null);
        }
    }
}

/// The name rule the API server applies to a kind (k8s.io/apimachinery validation): most kinds
/// take a DNS subdomain; namespaces a DNS label; services an RFC 1035 label; RBAC objects any
/// path segment (so `system:controller:x` is valid).
pub(crate) fn name_problem(group: &str, kind: &str, name: &str) -> Option<String> {
    match (group, kind) {
        ("", "Namespace") => dns_label_problem(name),
        ("", "Service") => dns_label_problem(name).or_else(|| {
            (!name.starts_with(|c: char| c.is_ascii_lowercase()))
                .then(|| "a Service name must start with a lowercase letter".to_string())
        }),
        ("rbac.authorization.k8s.io", _) => path_segment_problem(name),
        _ => dns_subdomain_problem(name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn template(api_version: &str, kind: &str, object: serde_json::Value) -> Template {
        Template::for_test(api_version, kind, "default", "t", object)
    }

    // karmada pkg/resourceinterpreter/default/native/retain.go retainWorkloadReplicas and
    // retain_test.go: only apps/v1 Deployments (the retention map's one workload), only the
    // value `true`.
    #[test]
    fn only_a_deployment_labelled_true_keeps_its_members_replicas() {
        let labelled = |api_version: &str, kind: &str, value: &str| {
            retains_replicas(
                &template(api_version, kind, json!({}))
                    .with_labels(&[(RETAIN_REPLICAS_LABEL, value)]),
            )
        };
        assert!(labelled("apps/v1", "Deployment", "true"));
        assert!(!labelled("apps/v1", "Deployment", "True"));
        assert!(!labelled("apps/v1", "Deployment", "false"));
        assert!(!labelled("apps/v1", "StatefulSet", "true"));
        assert!(!labelled("apps/v1", "ReplicaSet", "true"));
        assert!(!retains_replicas(&template(
            "apps/v1",
            "Deployment",
            json!({})
        )));
    }

    // karmada pkg/resourceinterpreter/default/native/replica.go (deploymentReplica, jobReplica)
    // with the API server's defaults applied first (spec README, deviation 8).
    #[test]
    fn workload_replicas_per_kind_with_api_server_defaults() {
        let replicas = |api_version: &str, kind: &str, object| {
            super::replicas(&template(api_version, kind, object))
        };
        assert_eq!(
            replicas("apps/v1", "Deployment", json!({"spec": {"replicas": 3}})),
            Some(3)
        );
        assert_eq!(
            replicas("apps/v1", "Deployment", json!({"spec": {}})),
            Some(1)
        );
        assert_eq!(
            replicas("apps/v1", "StatefulSet", json!({"spec": {"replicas": 0}})),
            Some(0)
        );
        assert_eq!(
            replicas(
                "batch/v1",
                "Job",
                json!({"spec": {"parallelism": 5, "completions": 2}})
            ),
            Some(2)
        );
        assert_eq!(
            replicas("batch/v1", "Job", json!({"spec": {"parallelism": 3}})),
            Some(3)
        );
        assert_eq!(
            replicas("batch/v1", "Job", json!({"spec": {"completions": 4}})),
            Some(1)
        );
        assert_eq!(replicas("v1", "Pod", json!({"spec": {}})), Some(1));
        assert_eq!(replicas("apps/v1", "DaemonSet", json!({"spec": {}})), None);
        assert_eq!(replicas("v1", "ConfigMap", json!({})), None);
    }

    #[test]
    fn a_missing_replica_field_is_written_first_in_the_spec() {
        let deployment = template(
            "apps/v1",
            "Deployment",
            json!({"spec": {"selector": {}, "template": {}}}),
        );
        let mut object = deployment.object.clone();
        write_replicas(&mut object, replica_field(&deployment).unwrap(), 1);
        assert_eq!(
            serde_json::to_string(&object).unwrap(),
            r#"{"spec":{"replicas":1,"selector":{},"template":{}}}"#
        );
    }

    // karmada pkg/resourceinterpreter/default/native/prune/prune_test.go
    #[test]
    fn prune_removes_server_fields_and_status() {
        let mut object = json!({"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "a", "uid": "u", "resourceVersion": "1", "generation": 2,
                "creationTimestamp": "t", "managedFields": [], "finalizers": ["f"],
                "annotations": {"deployment.kubernetes.io/revision": "3", "keep": "me"}},
            "spec": {"replicas": 1}, "status": {"replicas": 1}});
        prune("apps", "Deployment", &mut object);
        assert_eq!(
            object,
            json!({"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "a", "annotations": {"keep": "me"}}, "spec": {"replicas": 1}})
        );
    }

    #[test]
    fn prune_keeps_the_order_of_the_remaining_keys() {
        let mut object = json!({"metadata": {"name": "a", "uid": "u", "namespace": "n", "labels": {}}, "spec": {}});
        prune("", "ConfigMap", &mut object);
        assert_eq!(
            serde_json::to_string(&object).unwrap(),
            r#"{"metadata":{"name":"a","namespace":"n","labels":{}},"spec":{}}"#
        );
    }

    // karmada prune.go removeIrrelevantField for PersistentVolumeClaim: only a non-empty
    // selected-node annotation is removed.
    #[test]
    fn prune_pvc_selected_node_only_when_set() {
        let mut selected = json!({"metadata": {"annotations": {"volume.kubernetes.io/selected-node": "n1", "keep": "x"}}});
        prune("", "PersistentVolumeClaim", &mut selected);
        assert_eq!(
            selected,
            json!({"metadata": {"annotations": {"keep": "x"}}})
        );
        let mut empty =
            json!({"metadata": {"annotations": {"volume.kubernetes.io/selected-node": ""}}});
        prune("", "PersistentVolumeClaim", &mut empty);
        assert_eq!(
            empty,
            json!({"metadata": {"annotations": {"volume.kubernetes.io/selected-node": ""}}})
        );
    }

    #[test]
    fn prune_service_keeps_headless_cluster_ip() {
        let mut allocated =
            json!({"spec": {"clusterIP": "10.0.0.1", "clusterIPs": ["10.0.0.1"], "ports": []}});
        prune("", "Service", &mut allocated);
        assert_eq!(allocated, json!({"spec": {"ports": []}}));
        let mut headless = json!({"spec": {"clusterIP": "None", "clusterIPs": ["None"]}});
        prune("", "Service", &mut headless);
        assert_eq!(
            headless,
            json!({"spec": {"clusterIP": "None", "clusterIPs": ["None"]}})
        );
        let mut ips_only = json!({"spec": {"clusterIPs": ["10.0.0.1"]}});
        prune("", "Service", &mut ips_only);
        assert_eq!(ips_only, json!({"spec": {"clusterIPs": ["10.0.0.1"]}}));
    }

    #[test]
    fn prune_job_drops_generated_selector_labels_unless_manual() {
        let mut job = json!({"spec": {"ttlSecondsAfterFinished": 10,
            "selector": {"matchLabels": {"controller-uid": "x"}},
            "template": {"metadata": {"labels": {"job-name": "j", "app": "a"}}}}});
        prune("batch", "Job", &mut job);
        assert_eq!(
            job,
            json!({"spec": {"selector": {"matchLabels": {}},
            "template": {"metadata": {"labels": {"app": "a"}}}}})
        );
        let mut manual = json!({"spec": {"manualSelector": true, "selector": {"matchLabels": {"controller-uid": "x"}}}});
        prune("batch", "Job", &mut manual);
        assert_eq!(
            manual,
            json!({"spec": {"manualSelector": true, "selector": {"matchLabels": {"controller-uid": "x"}}}})
        );
    }

    #[test]
    fn prune_service_account_token_secrets_skips_the_one_after_a_removal() {
        let mut sa = json!({"metadata": {"name": "sa"}, "secrets": [
            {"name": "sa-token-1"}, {"name": "sa-token-2"}, {"name": "other"}, {"name": "sa-token-3"}]});
        prune("", "ServiceAccount", &mut sa);
        assert_eq!(
            sa["secrets"],
            json!([{"name": "sa-token-2"}, {"name": "other"}])
        );
    }

    #[test]
    fn prune_service_account_token_secret_data() {
        let mut secret = json!({"type": "kubernetes.io/service-account-token",
            "metadata": {"annotations": {"kubernetes.io/service-account.uid": "u"}}, "data": {"token": "x"}});
        prune("", "Secret", &mut secret);
        assert_eq!(
            secret,
            json!({"type": "kubernetes.io/service-account-token",
            "metadata": {"annotations": {}}, "data": null})
        );
    }

    #[test]
    fn names_are_checked_with_the_rule_of_their_kind() {
        assert_eq!(name_problem("apps", "Deployment", "web.v2"), None);
        assert!(name_problem("apps", "Deployment", "Web").is_some());
        assert!(name_problem("apps", "Deployment", "../etc").is_some());
        assert!(name_problem("", "Namespace", "a.b").is_some());
        assert!(name_problem("", "Service", "1abc").is_some());
        assert_eq!(
            name_problem("rbac.authorization.k8s.io", "ClusterRole", "system:node"),
            None
        );
        assert!(name_problem("rbac.authorization.k8s.io", "ClusterRole", "a/b").is_some());
    }
}
