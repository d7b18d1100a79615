//! KubeFed's API as users write it (types.kubefed.io, core.kubefed.io, scheduling.kubefed.io
//! at kubefed 16fb853): the groups, and every field the CRDs define of the objects fedrender
//! reads; an unknown field is an error. What they mean is [`crate::federation`]'s.

// Every field is decoded, so that an unknown one is an error; not every one is read.
#![allow(dead_code)]

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;

use super::meta::{LabelSelector, ObjectMeta};

/// KubeFed's API groups.
pub const GROUPS: &[&str] = &[
    FEDERATED_GROUP,
    CORE_GROUP,
    SCHEDULING_GROUP,
    "multiclusterdns.kubefed.io",
];
/// The group of federated types (kubefedctl options.go DefaultFederatedGroup).
pub const FEDERATED_GROUP: &str = "types.kubefed.io";
pub const CORE_GROUP: &str = "core.kubefed.io";
pub const SCHEDULING_GROUP: &str = "scheduling.kubefed.io";
pub const CORE_VERSION: &str = "v1beta1";
pub const SCHEDULING_VERSION: &str = "v1alpha1";
/// The Helm chart's namespace for the control plane.
pub const DEFAULT_SYSTEM_NAMESPACE: &str = "kube-federation-system";

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct FederatedObjectDoc {
    pub api_version: String,
    pub kind: String,
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default)]
    pub spec: Option<FederatedSpecDoc>,
    #[serde(default)]
    pub status: Option<Value>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct FederatedSpecDoc {
    /// Free-form: `x-kubernetes-preserve-unknown-fields`.
    #[serde(default)]
    pub template: Option<Value>,
    #[serde(default)]
    pub placement: Option<PlacementDoc>,
    #[serde(default)]
    pub overrides: Option<Vec<OverrideItemDoc>>,
    /// Only matters when updating live member objects (dispatch/retain.go).
    #[serde(default)]
    pub retain_replicas: Option<bool>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PlacementDoc {
    #[serde(default)]
    pub clusters: Option<Vec<ClusterReferenceDoc>>,
    #[serde(default)]
    pub cluster_selector: Option<LabelSelector>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ClusterReferenceDoc {
    pub name: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct OverrideItemDoc {
    pub cluster_name: String,
    #[serde(default)]
    pub cluster_overrides: Option<Vec<ClusterOverrideDoc>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ClusterOverrideDoc {
    #[serde(default)]
    pub op: Option<String>,
    pub path: String,
    #[serde(default)]
    pub value: Option<Value>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TypeConfigDoc {
    pub api_version: String,
    pub kind: String,
    #[serde(default)]
    pub metadata: ObjectMeta,
    pub spec: TypeConfigSpecDoc,
    #[serde(default)]
    pub status: Option<Value>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TypeConfigSpecDoc {
    pub target_type: ApiResourceDoc,
    #[serde(default)]
    pub propagation: String,
    pub federated_type: ApiResourceDoc,
    #[serde(default)]
    pub status_type: Option<ApiResourceDoc>,
    #[serde(default)]
    pub status_collection: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ApiResourceDoc {
    #[serde(default)]
    pub group: String,
    #[serde(default)]
    pub version: String,
    #[serde(default)]
    pub kind: String,
    #[serde(default)]
    pub plural_name: String,
    #[serde(default)]
    pub scope: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct KubeFedConfigDoc {
    pub api_version: String,
    pub kind: String,
    #[serde(default)]
    pub metadata: ObjectMeta,
    pub spec: KubeFedConfigSpecDoc,
    #[serde(default)]
    pub status: Option<Value>,
}

/// Only `scope` matters offline; the rest configures controllers.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[allow(dead_code)]
pub struct KubeFedConfigSpecDoc {
    pub scope: String,
    #[serde(default)]
    pub controller_duration: Option<Value>,
    #[serde(default)]
    pub leader_elect: Option<Value>,
    #[serde(default)]
    pub feature_gates: Option<Value>,
    #[serde(default)]
    pub cluster_health_check: Option<Value>,
    #[serde(default)]
    pub sync_controller: Option<Value>,
    #[serde(default)]
    pub status_controller: Option<Value>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RspDoc {
    pub api_version: String,
    pub kind: String,
    #[serde(default)]
    pub metadata: ObjectMeta,
    pub spec: RspSpecDoc,
    #[serde(default)]
    pub status: Option<Value>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RspSpecDoc {
    pub target_kind: String,
    pub total_replicas: i64,
    #[serde(default)]
    pub rebalance: Option<bool>,
    #[serde(default)]
    pub intersect_with_cluster_selector: Option<bool>,
    #[serde(default)]
    pub clusters: Option<BTreeMap<String, Option<ClusterPreferencesDoc>>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ClusterPreferencesDoc {
    #[serde(default)]
    pub min_replicas: Option<i64>,
    #[serde(default)]
    pub max_replicas: Option<i64>,
    #[serde(default)]
    pub weight: Option<i64>,
}

// ---- translation ------------------------------------------------------------------------

/// Whether an API group is one of KubeFed's, so that classification does not treat its
/// objects as templates: `types.kubefed.io`, `core.kubefed.io`, `scheduling.kubefed.io`,
/// `multiclusterdns.kubefed.io`.
pub fn is_kubefed_group(group: &str) -> bool {
    GROUPS.contains(&current_group(group))
}

/// KubeFed's groups under their names before v0.1.0 (rc3 and rc4 used `*.kubefed.k8s.io`),
/// with the same kinds and fields, as today's.
pub fn current_group(group: &str) -> &str {
    match group {
        "types.kubefed.k8s.io" => FEDERATED_GROUP,
        "core.kubefed.k8s.io" => CORE_GROUP,
        "scheduling.kubefed.k8s.io" => SCHEDULING_GROUP,
        "multiclusterdns.kubefed.k8s.io" => "multiclusterdns.kubefed.io",
        other => other,
    }
}
