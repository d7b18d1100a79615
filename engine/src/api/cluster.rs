//! Karmada's `Cluster` (`cluster.karmada.io/v1alpha1`), the inventory of member clusters, with
//! every field `kubectl get clusters -o yaml` prints (karmada pkg/apis/cluster/v1alpha1/types.go).

use std::collections::BTreeMap;

use serde::Deserialize;

use super::meta::{Condition, ObjectMeta, Taint};
use crate::quantity::Quantity;

/// The API version of Karmada's `Cluster`.
pub const CLUSTER_API_VERSION: &str = "cluster.karmada.io/v1alpha1";

/// A member cluster as `kubectl get clusters -o yaml` prints it from a Karmada control plane (karmada pkg/apis/cluster/v1alpha1/types.go).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Cluster {
    /// `cluster.karmada.io/v1alpha1`.
    pub api_version: String,
    /// `Cluster`.
    pub kind: String,
    /// Its name and labels, which placements select by.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// Provider, region, zones, taints and how the control plane reaches it.
    #[serde(default)]
    pub spec: ClusterSpec,
    /// What the control plane last observed: version, capacity, APIs served.
    #[serde(default)]
    pub status: Option<ClusterStatus>,
}

/// `spec` of a Cluster.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ClusterSpec {
    /// `id`: the cluster's unique identifier.
    #[serde(default)]
    pub id: Option<String>,
    /// `syncMode`: whether Karmada pushes to the cluster or an agent pulls.
    #[serde(default)]
    pub sync_mode: Option<SyncMode>,
    /// `apiEndpoint`: where its API server is.
    #[serde(default)]
    pub api_endpoint: Option<String>,
    /// `secretRef`: the Secret with its credentials.
    #[serde(default)]
    pub secret_ref: Option<LocalSecretReference>,
    /// `impersonatorSecretRef`: the Secret with the impersonator's token.
    #[serde(default)]
    pub impersonator_secret_ref: Option<LocalSecretReference>,
    /// `insecureSkipTLSVerification`.
    #[serde(default, rename = "insecureSkipTLSVerification")]
    pub insecure_skip_tls_verification: bool,
    /// `proxyURL`: the proxy the control plane reaches it through.
    #[serde(default, rename = "proxyURL")]
    pub proxy_url: Option<String>,
    /// `proxyHeader`: headers sent to that proxy.
    #[serde(default)]
    pub proxy_header: BTreeMap<String, String>,
    /// `provider`: the cloud provider, which field selectors and spread constraints read.
    #[serde(default)]
    pub provider: String,
    /// `region`, which field selectors and spread constraints read.
    #[serde(default)]
    pub region: String,
    /// Deprecated; the API server moves it into `zones` (karmada pkg/apis/cluster/mutation).
    #[serde(default)]
    pub zone: String,
    /// `zones`, which field selectors and spread constraints read.
    #[serde(default)]
    pub zones: Vec<String>,
    /// `taints`: what a placement must tolerate to reach the cluster.
    #[serde(default)]
    pub taints: Vec<Taint>,
    /// `resourceModels`: the node grades the estimator counts by.
    #[serde(default)]
    pub resource_models: Vec<ResourceModel>,
}

/// `spec.syncMode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum SyncMode {
    /// The control plane applies Works to the cluster.
    Push,
    /// An agent in the cluster pulls its Works.
    Pull,
}

/// A reference to a Secret of the control plane.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct LocalSecretReference {
    /// The Secret's namespace.
    #[serde(default)]
    pub namespace: String,
    /// The Secret's name.
    #[serde(default)]
    pub name: String,
}

/// One grade of `spec.resourceModels`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ResourceModel {
    /// `grade`: the grade's number.
    pub grade: u64,
    /// `ranges`: the resources a node of this grade has.
    pub ranges: Vec<ResourceModelRange>,
}

/// One resource range of a grade.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ResourceModelRange {
    /// `name`: the resource (`cpu`, `memory`).
    pub name: String,
    /// `min`: the least a node of the grade has.
    pub min: Quantity,
    /// `max`: the most, exclusive.
    pub max: Quantity,
}

/// `status` of a Cluster.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ClusterStatus {
    /// `kubernetesVersion`: the version its objects are checked against.
    #[serde(default)]
    pub kubernetes_version: Option<String>,
    /// `None` when the inventory does not list APIs: fedrender then treats every API as
    /// enabled (spec README, deviation 3).
    #[serde(default)]
    pub api_enablements: Option<Vec<ApiEnablement>>,
    /// `conditions`: `Ready` and the like, which ClusterTaintPolicies read.
    #[serde(default)]
    pub conditions: Vec<Condition>,
    /// `nodeSummary`: how many nodes it has, and how many are ready.
    #[serde(default)]
    pub node_summary: Option<NodeSummary>,
    /// `resourceSummary`: its capacity, which the replica estimator reads.
    #[serde(default)]
    pub resource_summary: Option<ResourceSummary>,
    /// `remedyActions`: what a Remedy asks of the cluster.
    #[serde(default)]
    pub remedy_actions: Vec<String>,
}

/// One group version of `status.apiEnablements`: the kinds the cluster serves.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ApiEnablement {
    /// `groupVersion` (`apps/v1`).
    pub group_version: String,
    /// `resources`: the kinds served in it.
    #[serde(default)]
    pub resources: Vec<ApiResource>,
}

/// One resource of an API enablement.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ApiResource {
    /// `name`: the plural name (`deployments`).
    pub name: String,
    /// `kind` (`Deployment`).
    pub kind: String,
}

/// `status.nodeSummary`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct NodeSummary {
    /// `totalNum`: nodes in all.
    #[serde(default)]
    pub total_num: i32,
    /// `readyNum`: nodes ready.
    #[serde(default)]
    pub ready_num: i32,
}

/// Quantities are parsed when the inventory is read, so a malformed one is reported at its line.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ResourceSummary {
    /// `allocatable`: what the nodes offer in all.
    #[serde(default)]
    pub allocatable: BTreeMap<String, Quantity>,
    /// `allocating`: what pods being scheduled ask.
    #[serde(default)]
    pub allocating: BTreeMap<String, Quantity>,
    /// `allocated`: what running pods take.
    #[serde(default)]
    pub allocated: BTreeMap<String, Quantity>,
    /// `allocatableModelings`: how many nodes of each grade there are.
    #[serde(default)]
    pub allocatable_modelings: Vec<AllocatableModeling>,
}

/// How many nodes of one grade a cluster has.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct AllocatableModeling {
    /// `grade`: the grade's number.
    pub grade: u64,
    /// `count`: how many nodes.
    pub count: i64,
}

impl Cluster {
    /// The cluster's name.
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
