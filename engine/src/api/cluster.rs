//! Karmada's `Cluster` (`cluster.karmada.io/v1alpha1`), the inventory of member clusters, with
//! every field `kubectl get clusters -o yaml` prints (karmada pkg/apis/cluster/v1alpha1/types.go).

use std::collections::BTreeMap;

use serde::Deserialize;

use super::meta::{Condition, ObjectMeta, Taint};
use crate::quantity::Quantity;

pub const CLUSTER_API_VERSION: &str = "cluster.karmada.io/v1alpha1";

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Cluster {
    pub api_version: String,
    pub kind: String,
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default)]
    pub spec: ClusterSpec,
    #[serde(default)]
    pub status: Option<ClusterStatus>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ClusterSpec {
    #[serde(default)]
    pub id: Option<String>,
    #[serde(default)]
    pub sync_mode: Option<SyncMode>,
    #[serde(default)]
    pub api_endpoint: Option<String>,
    #[serde(default)]
    pub secret_ref: Option<LocalSecretReference>,
    #[serde(default)]
    pub impersonator_secret_ref: Option<LocalSecretReference>,
    #[serde(default, rename = "insecureSkipTLSVerification")]
    pub insecure_skip_tls_verification: bool,
    #[serde(default, rename = "proxyURL")]
    pub proxy_url: Option<String>,
    #[serde(default)]
    pub proxy_header: BTreeMap<String, String>,
    #[serde(default)]
    pub provider: String,
    #[serde(default)]
    pub region: String,
    /// Deprecated; the API server moves it into `zones` (karmada pkg/apis/cluster/mutation).
    #[serde(default)]
    pub zone: String,
    #[serde(default)]
    pub zones: Vec<String>,
    #[serde(default)]
    pub taints: Vec<Taint>,
    #[serde(default)]
    pub resource_models: Vec<ResourceModel>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum SyncMode {
    Push,
    Pull,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct LocalSecretReference {
    #[serde(default)]
    pub namespace: String,
    #[serde(default)]
    pub name: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ResourceModel {
    pub grade: u64,
    pub ranges: Vec<ResourceModelRange>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ResourceModelRange {
    pub name: String,
    pub min: Quantity,
    pub max: Quantity,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ClusterStatus {
    #[serde(default)]
    pub kubernetes_version: Option<String>,
    /// `None` when the inventory does not list APIs: fedrender then treats every API as
    /// enabled (spec README, deviation 3).
    #[serde(default)]
    pub api_enablements: Option<Vec<ApiEnablement>>,
    #[serde(default)]
    pub conditions: Vec<Condition>,
    #[serde(default)]
    pub node_summary: Option<NodeSummary>,
    #[serde(default)]
    pub resource_summary: Option<ResourceSummary>,
    #[serde(default)]
    pub remedy_actions: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ApiEnablement {
    pub group_version: String,
    #[serde(default)]
    pub resources: Vec<ApiResource>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ApiResource {
    pub name: String,
    pub kind: String,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct NodeSummary {
    #[serde(default)]
    pub total_num: i32,
    #[serde(default)]
    pub ready_num: i32,
}

/// Quantities are parsed when the inventory is read, so a malformed one is reported at its line.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ResourceSummary {
    #[serde(default)]
    pub allocatable: BTreeMap<String, Quantity>,
    #[serde(default)]
    pub allocating: BTreeMap<String, Quantity>,
    #[serde(default)]
    pub allocated: BTreeMap<String, Quantity>,
    #[serde(default)]
    pub allocatable_modelings: Vec<AllocatableModeling>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct AllocatableModeling {
    pub grade: u64,
    pub count: i64,
}

impl Cluster {
    pub fn name(&self) -> &str {
        &self.metadata.name
    }

    /// The zones Karmada matches against: `spec.zones`, or the deprecated singular `zone`
    /// moved into it as Karmada's admission does when `zones` is empty.
    pub fn zones(&self) -> Vec<&str> {
        if self.spec.zones.is_empty() && !self.spec.zone.is_empty() {
            vec![self.spec.zone.as_str()]
        } else {
            self.spec.zones.iter().map(String::as_str).collect()
        }
    }
}
