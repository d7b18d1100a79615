//! The fields Kubernetes refuses to change on update, object by object (the `Validate*Update`
//! functions of k8s.io/kubernetes `pkg/apis/*/validation`), which the `immutable-field` rule
//! of the review reads.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::object::ObjectKey;

/// Equal as Kubernetes compares them after decoding: numbers by value (`3` and `3.0`), an
/// absent field and `null` alike.
fn same(a: Option<&Value>, b: Option<&Value>) -> bool {
    match (a, b) {
        (None | Some(Value::Null), None | Some(Value::Null)) => true,
        (Some(Value::Number(a)), Some(Value::Number(b))) => a.as_f64() == b.as_f64(),
        (Some(Value::Array(a)), Some(Value::Array(b))) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same(Some(a), Some(b)))
        }
        (Some(Value::Object(a)), Some(Value::Object(b))) => a
            .keys()
            .chain(b.keys())
            .all(|field| same(a.get(field), b.get(field))),
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

/// `object` without the listed top-level fields of `spec`.
fn spec_without(object: &Value, mutable: &[&str]) -> Option<Value> {
    let mut spec = object.get("spec")?.clone();
    if let Some(fields) = spec.as_object_mut() {
        for field in mutable {
            fields.remove(*field);
        }
    }
    Some(spec)
}

/// The fields that differ between two versions of `object` at these pointers.
fn differing(before: &Value, after: &Value, pointers: &[&str]) -> Vec<String> {
    pointers
        .iter()
        .filter(|pointer| {
            !same(
                crate::json_pointer::pointer(before, pointer),
                crate::json_pointer::pointer(after, pointer),
            )
        })
        .map(|pointer| pointer.trim_start_matches('/').replace('/', "."))
        .collect()
}

/// The top-level fields of `spec` that differ, once the mutable ones are set aside.
fn spec_fields_differing(before: &Value, after: &Value, mutable: &[&str]) -> Vec<String> {
    let (old, new) = (spec_without(before, mutable), spec_without(after, mutable));
    let empty = serde_json::Map::new();
    let old = old.as_ref().and_then(Value::as_object).unwrap_or(&empty);
    let new = new.as_ref().and_then(Value::as_object).unwrap_or(&empty);
    let fields: BTreeSet<&String> = old.keys().chain(new.keys()).collect();
    fields
        .into_iter()
        .filter(|field| !same(old.get(*field), new.get(*field)))
        .map(|field| format!("spec.{field}"))
        .collect()
}

/// The fields Kubernetes refuses to change on update, by kind.
pub(super) fn immutable_changes(key: &ObjectKey, before: &Value, after: &Value) -> Vec<String> {
    match (key.group.as_str(), key.kind.as_str()) {
        // ValidateDeploymentUpdate, ValidateReplicaSetUpdate, ValidateDaemonSetUpdate.
        ("apps", "Deployment" | "ReplicaSet" | "DaemonSet") => {
            differing(before, after, &["/spec/selector"])
        }
        // ValidateStatefulSetUpdate: the spec with these fields reset must be equal.
        ("apps", "StatefulSet") => spec_fields_differing(
            before,
            after,
            &[
                "replicas",
                "ordinals",
                "template",
                "updateStrategy",
                "persistentVolumeClaimRetentionPolicy",
                "minReadySeconds",
                "revisionHistoryLimit",
            ],
        ),
        ("batch", "Job") => job_changes(before, after),
        // ValidatePersistentVolumeClaimUpdate: only requests (a bound claim's resize) and the
        // volume attributes class may change; a volume name may be set where none was.
        ("", "PersistentVolumeClaim") => {
            let mut fields =
                spec_fields_differing(before, after, &["resources", "volumeAttributesClassName"]);
            if crate::json_pointer::pointer(before, "/spec/volumeName").is_none() {
                fields.retain(|field| field != "spec.volumeName");
            }
            let limits = differing(before, after, &["/spec/resources/limits"]);
            fields.extend(limits);
            fields
        }
        // ValidatePersistentVolumeUpdate: the volume source is immutable; node affinity too once
        // set.
        ("", "PersistentVolume") => {
            let mut fields = spec_fields_differing(
                before,
                after,
                &[
                    "capacity",
                    "accessModes",
                    "claimRef",
                    "persistentVolumeReclaimPolicy",
                    "storageClassName",
                    "mountOptions",
                    "volumeAttributesClassName",
                    "nodeAffinity",
                ],
            );
            if crate::json_pointer::pointer(before, "/spec/nodeAffinity").is_some() {
                fields.extend(differing(before, after, &["/spec/nodeAffinity"]));
            }
            fields
        }
        ("", "Service") => service_ip_changes(before, after),
        // ValidateRoleBindingUpdate, ValidateClusterRoleBindingUpdate.
        ("rbac.authorization.k8s.io", "RoleBinding" | "ClusterRoleBinding") => {
            differing(before, after, &["/roleRef"])
        }
        // ValidateSecretUpdate, ValidateConfigMapUpdate: an immutable one keeps its data and
        // stays immutable.
        ("", "Secret" | "ConfigMap") if before.get("immutable") == Some(&Value::Bool(true)) => {
            differing(
                before,
                after,
                &["/immutable", "/data", "/stringData", "/binaryData"],
            )
        }
        // ValidateStorageClassUpdate.
        ("storage.k8s.io", "StorageClass") => differing(
            before,
            after,
            &[
                "/provisioner",
                "/parameters",
                "/reclaimPolicy",
                "/volumeBindingMode",
            ],
        ),
        _ => Vec::new(),
    }
}

/// ValidateServiceUpdate: a cluster IP, once set, stays (`None` included). Type changes to and
/// from ExternalName are allowed since Kubernetes 1.20, which clears or allocates the IP, so
/// they are not reported. A tree without a cluster IP leaves the member to allocate one
/// (Karmada takes an allocated IP out of the Work: native prune `removeServiceClusterIP`), so
/// writing `None` or an address then changes the member's allocated IP, which the API server
/// refuses; and a tree going from `None` to no IP asks for one, which it never allocates on
/// update (the registry's `patchAllocatedValues` keeps the old `None`): the Service silently
/// stays headless.
fn service_ip_changes(before: &Value, after: &Value) -> Vec<String> {
    let external_name = |object: &Value| {
        crate::json_pointer::pointer(object, "/spec/type").and_then(Value::as_str)
            == Some("ExternalName")
    };
    if external_name(before) || external_name(after) {
        return Vec::new();
    }
    let set = |object: &Value, pointer: &str| {
        crate::json_pointer::pointer(object, pointer)
            .and_then(Value::as_str)
            .filter(|ip| !ip.is_empty())
            .map(str::to_string)
    };
    let mut fields = Vec::new();
    for (pointer, field) in [
        ("/spec/clusterIP", "spec.clusterIP"),
        ("/spec/clusterIPs/0", "spec.clusterIPs"),
    ] {
        match (set(before, pointer), set(after, pointer)) {
            (Some(old), Some(new)) if old != new => fields.push(field.to_string()),
            (None, Some(new)) => fields.push(format!(
                "{field} (the tree had none, so the member allocated one; now {new})"
            )),
            (Some(old), None) if old == "None" => fields.push(format!(
                "{field} (None; the tree now asks for an allocated address, which the API server \
                 never allocates on update: the Service stays headless)"
            )),
            _ => {}
        }
    }
    fields
}

/// ValidateJobSpecUpdate: the selector, completion mode and the pod template are immutable,
/// except that a suspended Job's template may change its scheduling directives (node
/// selector, affinity, tolerations, scheduling gates, labels, annotations), and an Indexed
/// Job's completions may change together with parallelism to the same value.
fn job_changes(before: &Value, after: &Value) -> Vec<String> {
    let mut fields = differing(before, after, &["/spec/selector", "/spec/completionMode"]);
    let suspended =
        crate::json_pointer::pointer(before, "/spec/suspend") == Some(&Value::Bool(true));
    let template = |object: &Value| {
        let mut template = crate::json_pointer::pointer(object, "/spec/template")
            .cloned()
            .unwrap_or(Value::Null);
        if suspended {
            for pointer in ["/metadata", "/spec"] {
                if let Some(fields) = template.pointer_mut(pointer).and_then(Value::as_object_mut) {
                    for field in [
                        "labels",
                        "annotations",
                        "nodeSelector",
                        "affinity",
                        "tolerations",
                        "schedulingGates",
                    ] {
                        fields.remove(field);
                    }
                }
            }
        }
        template
    };
    if !same(Some(&template(before)), Some(&template(after))) {
        fields.push("spec.template".to_string());
    }
    let indexed = crate::json_pointer::pointer(after, "/spec/completionMode")
        .and_then(Value::as_str)
        == Some("Indexed");
    let elastic = indexed
        && same(
            crate::json_pointer::pointer(after, "/spec/completions"),
            crate::json_pointer::pointer(after, "/spec/parallelism"),
        );
    if !elastic
        && !same(
            crate::json_pointer::pointer(before, "/spec/completions"),
            crate::json_pointer::pointer(after, "/spec/completions"),
        )
    {
        fields.push("spec.completions".to_string());
    }
    fields
}
