//! Federation v1 (kubernetes-retired/federation at 804bb9f): ordinary objects whose
//! annotations steer the federation control plane — the cluster selector
//! (pkg/federation-controller/util/clusterselector) and the replica preferences of Deployments
//! and ReplicaSets (pkg/federatedtypes/scheduling.go). Spec kubefed-fedv1.md §3.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::binding::{FederatedBinding, FederatedPlacement, PlannedReplicas};
use super::planner::{ClusterPreferences, Preferences};
use super::selector::parse_cluster_selector;
use crate::diagnostics::{Diagnostic, ErrorSink};
use crate::lint::Lint;
use crate::object::Template;

pub(crate) const CLUSTER_SELECTOR: &str = "federation.alpha.kubernetes.io/cluster-selector";
pub(crate) const REPLICA_SET_PREFERENCES: &str = "federation.kubernetes.io/replica-set-preferences";
pub(crate) const DEPLOYMENT_PREFERENCES: &str = "federation.kubernetes.io/deployment-preferences";
pub(crate) const JOB_PREFERENCES: &str = "federation.kubernetes.io/job-preferences";

/// The replica preferences annotation, decoded as encoding/json decodes into the internal
/// `ReplicaAllocationPreferences`, which has no json tags: keys are matched
/// case-insensitively, unknown keys ignored, `null` leaves a field alone. Type mismatches are
/// errors (the caller falls back to the default). A top-level `null` is an empty preference
/// set: every cluster gets 0.
pub(crate) fn parse_preferences(text: &str) -> Result<Preferences, String> {
    let value: Value =
        serde_json::from_str(text).map_err(|error| format!("invalid JSON: {error}"))?;
    let mut preferences = Preferences::default();
    let fields = match value {
        Value::Null => return Ok(preferences),
        Value::Object(fields) => fields,
        other => {
            return Err(format!(
                "must be a JSON object, not {}",
                crate::object::json_type_name(&other)
            ));
        }
    };
    for (field, value) in fields {
        match field.to_ascii_lowercase().as_str() {
            "rebalance" => match value {
                Value::Null => {}
                Value::Bool(flag) => preferences.rebalance = flag,
                other => {
                    return Err(format!(
                        "rebalance must be a boolean, not {}",
                        crate::object::json_type_name(&other)
                    ));
                }
            },
            "clusters" => match value {
                Value::Null => preferences.clusters.clear(),
                Value::Object(clusters) => {
                    for (cluster, value) in clusters {
                        let parsed = cluster_preferences(&value)
                            .map_err(|problem| format!("clusters.{cluster}: {problem}"))?;
                        preferences.clusters.insert(cluster, parsed);
                    }
                }
                other => {
                    return Err(format!(
                        "clusters must be an object, not {}",
                        crate::object::json_type_name(&other)
                    ));
                }
            },
            _ => {}
        }
    }
    Ok(preferences)
}

fn cluster_preferences(value: &Value) -> Result<ClusterPreferences, String> {
    let mut preferences = ClusterPreferences::default();
    let fields = match value {
        Value::Null => return Ok(preferences),
        Value::Object(fields) => fields,
        other => {
            return Err(format!(
                "must be an object, not {}",
                crate::object::json_type_name(other)
            ));
        }
    };
    for (field, value) in fields {
        let name = field.to_ascii_lowercase();
        if !matches!(name.as_str(), "minreplicas" | "maxreplicas" | "weight") {
            continue;
        }
        let number = match value {
            Value::Null => None,
            Value::Number(number) => Some(
                number
                    .as_i64()
                    .ok_or_else(|| format!("{field} must be an integer, not {number}"))?,
            ),
            other => {
                return Err(format!(
                    "{field} must be an integer, not {}",
                    crate::object::json_type_name(other)
                ));
            }
        };
        match (name.as_str(), number) {
            ("maxreplicas", number) => preferences.max_replicas = number,
            (_, None) => {}
            ("minreplicas", Some(number)) => preferences.min_replicas = number,
            (_, Some(number)) => preferences.weight = number,
        }
    }
    Ok(preferences)
}

/// How Federation v1 treats a kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Adapter {
    /// Deployment or ReplicaSet: replicas planned, metadata and spec copied.
    Replicas(&'static str),
    /// Namespace, DaemonSet: metadata and spec.
    Spec,
    /// ConfigMap: metadata and data.
    ConfigMap,
    /// Secret: metadata, data and type.
    Secret,
    /// Job or HorizontalPodAutoscaler: own controllers and algorithms, not implemented.
    Unsupported,
    /// Any other kind: fedrender copies everything but status (Federation v1 had adapters for
    /// the kinds above only; Services and Ingresses had their own controllers).
    Whole,
}

fn adapter(group: &str, kind: &str) -> Adapter {
    match (group, kind) {
        ("apps" | "extensions", "Deployment") => Adapter::Replicas(DEPLOYMENT_PREFERENCES),
        ("apps" | "extensions", "ReplicaSet") => Adapter::Replicas(REPLICA_SET_PREFERENCES),
        ("", "Namespace") | ("apps" | "extensions", "DaemonSet") => Adapter::Spec,
        ("", "ConfigMap") => Adapter::ConfigMap,
        ("", "Secret") => Adapter::Secret,
        ("batch", "Job") | ("autoscaling", "HorizontalPodAutoscaler") => Adapter::Unsupported,
        _ => Adapter::Whole,
    }
}

pub(super) fn translate(
    templates: &[Template],
    errors: &mut ErrorSink,
    warnings: &mut Vec<Diagnostic>,
) -> (Vec<FederatedBinding>, Vec<usize>) {
    let mut bindings = Vec::new();
    let mut claimed = Vec::new();
    for (index, template) in templates.iter().enumerate() {
        let annotations = template
            .object
            .pointer("/metadata/annotations")
            .and_then(Value::as_object);
        let Some(annotations) = annotations else {
            continue;
        };
        let adapter = adapter(template.group(), template.kind());
        let origin = Some(template.origin.clone());
        let id = template.key.to_string();
        let preferences_key = match adapter {
            Adapter::Replicas(key) => Some(key),
            _ => None,
        };
        // The other workload's key is a likely mistake (§3.3): it is not read.
        for (key, reads) in [
            (REPLICA_SET_PREFERENCES, "ReplicaSets"),
            (DEPLOYMENT_PREFERENCES, "Deployments"),
        ] {
            if annotations.contains_key(key) && preferences_key != Some(key) {
                warnings.push(Diagnostic::warning(Lint::IgnoredField,
                    origin.clone(),
                    format!(
                        "{id}: Federation v1 reads the annotation {key} on {reads} only; it is ignored here{}",
                        match preferences_key {
                            Some(own) => format!(" (this kind's key is {own})"),
                            None => String::new(),
                        }
                    ),
                ));
            }
        }
        let selector_text = annotations.get(CLUSTER_SELECTOR);
        let preferences_text = preferences_key.and_then(|key| annotations.get(key));
        if adapter == Adapter::Unsupported {
            if selector_text.is_some() || annotations.contains_key(JOB_PREFERENCES) {
                warnings.push(Diagnostic::warning(
                    Lint::NotModelled,
                    origin,
                    format!(
                        "{id}: fedrender does not implement Federation v1's {} controller; its \
                         federation annotations are ignored and Karmada policies apply",
                        template.kind()
                    ),
                ));
            }
            continue;
        }
        // Any Federation v1 control annotation makes the object Federation v1's: a Deployment
        // that carries only the ReplicaSet key is still split, with the default preferences
        // (§3.3). Objects without one are Karmada templates.
        let has_federation_annotation = selector_text.is_some()
            || [REPLICA_SET_PREFERENCES, DEPLOYMENT_PREFERENCES]
                .iter()
                .any(|key| annotations.contains_key(*key));
        if !has_federation_annotation {
            continue;
        }
        claimed.push(index);
        let selector = match selector_text {
            None => None,
            Some(Value::String(text)) => match parse_cluster_selector(text) {
                Ok(requirements) => Some(requirements),
                Err(problem) => {
                    // The reference aborts the object's sync: it reaches no cluster (§3.2).
                    errors.push(Diagnostic::error(
                        origin,
                        format!(
                            "{id}: annotation {CLUSTER_SELECTOR}: {problem} (Federation v1 would \
                             propagate the object nowhere)"
                        ),
                    ));
                    continue;
                }
            },
            Some(_) => {
                errors.push(Diagnostic::error(
                    origin,
                    format!("{id}: annotation {CLUSTER_SELECTOR} must be a string holding JSON"),
                ));
                continue;
            }
        };
        let replicas = match preferences_key {
            None => None,
            Some(key) => {
                let preferences = match preferences_text {
                    None => Preferences::even(),
                    Some(Value::String(text)) => match parse_preferences(text) {
                        Ok(preferences) => preferences,
                        Err(problem) => {
                            warnings.push(Diagnostic::warning(
                                Lint::IgnoredField,
                                origin.clone(),
                                format!(
                                    "{id}: annotation {key}: {problem}; Federation v1 falls back \
                                     to the default {{\"*\": {{\"weight\": 1}}}}"
                                ),
                            ));
                            Preferences::even()
                        }
                    },
                    Some(_) => {
                        errors.push(Diagnostic::error(
                            origin,
                            format!("{id}: annotation {key} must be a string holding JSON"),
                        ));
                        continue;
                    }
                };
                if let Some((cluster, field)) = negative_preference(&preferences) {
                    errors.push(Diagnostic::error(
                        origin,
                        format!(
                            "{id}: annotation {key}: clusters.{cluster}.{field} must not be negative"
                        ),
                    ));
                    continue;
                }
                let total = match crate::json_pointer::pointer(&template.object, "/spec/replicas") {
                    None | Some(Value::Null) => 1,
                    Some(value) => match value.as_i64() {
                        Some(n) if (0..=i64::from(i32::MAX)).contains(&n) => n,
                        _ => {
                            errors.push(Diagnostic::error(
                                origin,
                                format!(
                                    "{id}: spec.replicas {value} must be a non-negative integer"
                                ),
                            ));
                            continue;
                        }
                    },
                };
                Some(PlannedReplicas {
                    preferences,
                    total,
                    key: format!("{}/{}", template.namespace(), template.name()),
                })
            }
        };
        let object = copy_object(template, adapter, warnings);
        bindings.push(FederatedBinding {
            template: Template {
                object,
                ..template.clone()
            },
            source: template.origin.clone(),
            source_name: format!("{id} (Federation v1 annotations)"),
            placement: FederatedPlacement::FederationV1 { selector, replicas },
            overrides: BTreeMap::new(),
            host_copy: None,
        });
    }
    (bindings, claimed)
}

fn negative_preference(preferences: &Preferences) -> Option<(&str, &'static str)> {
    preferences.clusters.iter().find_map(|(cluster, p)| {
        if p.min_replicas < 0 {
            Some((cluster.as_str(), "minReplicas"))
        } else if p.max_replicas.is_some_and(|m| m < 0) {
            Some((cluster.as_str(), "maxReplicas"))
        } else if p.weight < 0 {
            Some((cluster.as_str(), "weight"))
        } else {
            None
        }
    })
}

/// The adapters' `Copy` (§3.1): name, namespace, labels and every annotation
/// (`DeepCopyRelevantObjectMeta`; Deployments drop `deployment.kubernetes.io/revision`), then
/// the fields the kind's adapter copies. Other fields are dropped with a warning.
fn copy_object(template: &Template, adapter: Adapter, warnings: &mut Vec<Diagnostic>) -> Value {
    let source = template.object.as_object().cloned().unwrap_or_default();
    let mut metadata = Map::new();
    metadata.insert("name".to_string(), Value::from(template.name()));
    if template.is_namespaced() {
        metadata.insert("namespace".to_string(), Value::from(template.namespace()));
    }
    if let Some(written) = source.get("metadata").and_then(Value::as_object) {
        for field in ["labels", "annotations"] {
            if let Some(value) = written.get(field) {
                metadata.insert(field.to_string(), value.clone());
            }
        }
    }
    if matches!(adapter, Adapter::Replicas(DEPLOYMENT_PREFERENCES))
        && let Some(annotations) = metadata
            .get_mut("annotations")
            .and_then(Value::as_object_mut)
    {
        annotations.shift_remove("deployment.kubernetes.io/revision");
    }
    let kept: &[&str] = match adapter {
        Adapter::Replicas(_) | Adapter::Spec => &["spec"],
        Adapter::ConfigMap => &["data"],
        // stringData is what the federation API server would have merged into data.
        Adapter::Secret => &["data", "stringData", "type"],
        Adapter::Unsupported | Adapter::Whole => &[],
    };
    let mut object = Map::new();
    object.insert(
        "apiVersion".to_string(),
        Value::from(template.api_version.clone()),
    );
    object.insert("kind".to_string(), Value::from(template.kind()));
    object.insert("metadata".to_string(), Value::Object(metadata));
    let mut dropped = Vec::new();
    for (key, value) in &source {
        if matches!(key.as_str(), "apiVersion" | "kind" | "metadata" | "status") {
            continue;
        }
        if adapter == Adapter::Whole || kept.contains(&key.as_str()) {
            object.insert(key.clone(), value.clone());
        } else {
            dropped.push(key.as_str());
        }
    }
    if !dropped.is_empty() {
        warnings.push(Diagnostic::warning(
            Lint::IgnoredField,
            Some(template.origin.clone()),
            format!(
                "{}: Federation v1 copies only {} of a {}; {} dropped",
                template.key,
                kept.join(", "),
                template.kind(),
                dropped.join(", ")
            ),
        ));
    }
    Value::Object(object)
}

/// `spec.replicas = plan` (scheduling.go `ScheduleObject`), where an API server's defaulting
/// puts it: first in spec.
pub(crate) fn set_replicas(object: &mut Value, replicas: i64) {
    let Some(root) = object.as_object_mut() else {
        return;
    };
    let spec = root
        .entry("spec")
        .or_insert_with(|| Value::Object(Map::new()));
    if !spec.is_object() {
        *spec = Value::Object(Map::new());
    }
    let Some(spec) = spec.as_object_mut() else {
        return;
    };
    if let Some(existing) = spec.get_mut("replicas") {
        *existing = Value::from(replicas);
    } else {
        let rest = std::mem::take(spec);
        spec.insert("replicas".to_string(), Value::from(replicas));
        spec.extend(rest);
    }
}
