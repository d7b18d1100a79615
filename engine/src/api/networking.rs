//! Karmada's `MultiClusterService` (`networking.karmada.io/v1alpha1`, karmada
//! pkg/apis/networking/v1alpha1/service_types.go), field for field with Karmada's JSON names.

// Every field is decoded, so that an unknown one is an error; not every one is read.
#![allow(dead_code)]

use serde::Deserialize;
use serde_json::Value;

pub const NETWORKING_GROUP: &str = "networking.karmada.io";
pub const MULTI_CLUSTER_SERVICE: &str = "MultiClusterService";

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct MultiClusterServiceSpec {
    pub types: Vec<ExposureType>,
    /// Used by the LoadBalancer exposure only.
    #[serde(default)]
    pub ports: Vec<Value>,
    /// Used by the LoadBalancer exposure only.
    #[serde(default)]
    pub range: Option<Value>,
    /// Deprecated in Karmada and read by no controller (`GetProviderClusters` and
    /// `GetConsumerClusters` in pkg/util/helper/mcs.go read only the two lists below).
    #[serde(default)]
    pub service_provision_clusters: Vec<String>,
    #[serde(default)]
    pub service_consumption_clusters: Vec<String>,
    #[serde(default)]
    pub provider_clusters: Vec<ClusterSelector>,
    #[serde(default)]
    pub consumer_clusters: Vec<ClusterSelector>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum ExposureType {
    CrossCluster,
    LoadBalancer,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ClusterSelector {
    pub name: String,
}
