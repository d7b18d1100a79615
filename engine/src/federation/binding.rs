//! The binding form both legacy front doors are translated into: the object, where it was
//! written, where it goes and what changes per cluster.

use std::collections::BTreeMap;

use super::overrides::ClusterOverride;
use super::planner::Preferences;
use super::selector::SelectorRequirement;
use crate::api::meta::LabelSelector;
use crate::diagnostics::Origin;
use crate::object::Template;

/// A KubeFed or Federation v1 object translated to fedrender's binding form.
#[derive(Debug, Clone)]
pub struct FederatedBinding {
    /// The target object as it would be created in a member cluster before per-cluster
    /// changes (§2.4 steps 1–4, §3.1 copying rules), without `kubefed.io/managed`; its
    /// namespace is set for namespaced targets.
    pub template: Template,
    /// Where the Federated<Kind> or the annotated object was written.
    pub source: Origin,
    /// `FederatedDeployment shop/web`, `Deployment shop/web (Federation v1 annotations)`.
    pub(crate) source_name: String,
    pub placement: FederatedPlacement,
    /// KubeFed `spec.overrides` by cluster name, each list in order. Empty for Federation v1.
    pub overrides: BTreeMap<String, Vec<ClusterOverride>>,
    /// Where the plain object of the same kind, namespace and name was written, when the input
    /// holds one beside a Federated<Kind>: the host cluster's copy, which KubeFed does not read.
    pub host_copy: Option<Origin>,
}

/// Where a binding goes, before the inventory is known.
#[derive(Debug, Clone)]
pub enum FederatedPlacement {
    /// A KubeFed federated object: its own `spec.placement`, the FederatedNamespace gate for
    /// namespaced targets, and the ReplicaSchedulingPreference that replans it, if any.
    KubeFed {
        placement: PlacementFields,
        namespace: NamespacePlacement,
        scheduling: Option<Box<ReplicaScheduling>>,
    },
    /// An object carrying Federation v1 annotations: every ready cluster the selector admits
    /// (`None`: no selector annotation, every ready cluster), and for Deployments and
    /// ReplicaSets the replica split.
    FederationV1 {
        selector: Option<Vec<SelectorRequirement>>,
        replicas: Option<PlannedReplicas>,
    },
    /// An object an Argo CD Application deploys: its destination cluster, as Argo CD resolved
    /// it, whatever the cluster's state; and what `plan` says of the Application (what
    /// generated it and with which parameters, its source, its destination).
    ArgoCd {
        cluster: String,
        notes: std::sync::Arc<[String]>,
    },
}

/// KubeFed's `spec.placement` (placement.go `GenericPlacementFields`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PlacementFields {
    /// `None` when the field is absent (or null): the selector decides. `Some(empty)` selects
    /// nothing.
    pub clusters: Option<Vec<String>>,
    /// `None`: no clusters. `Some({})`: every cluster.
    pub cluster_selector: Option<LabelSelector>,
}

/// The FederatedNamespace rule for one federated object (§2.3, placement.go
/// `ComputeNamespacedPlacement`).
#[derive(Debug, Clone, PartialEq)]
pub enum NamespacePlacement {
    /// The target is cluster-scoped (or is the Namespace itself): no gate.
    NotNamespaced,
    /// The FederatedNamespace of the object's namespace: placement is intersected with it.
    Federated {
        placement: PlacementFields,
        source: Origin,
    },
    /// No FederatedNamespace, cluster-scoped control plane: propagated nowhere.
    NotFederated,
    /// No FederatedNamespace, namespace-scoped control plane (`KubeFedConfig` scope
    /// `Namespaced`): the object's own placement verbatim.
    Unrestricted,
}

/// A ReplicaSchedulingPreference bound to its FederatedDeployment or FederatedReplicaSet.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplicaScheduling {
    pub plan: PlannedReplicas,
    pub(crate) intersect_with_cluster_selector: bool,
    pub source: Origin,
    /// `ReplicaSchedulingPreference shop/web`.
    pub name: String,
}

/// Input of the planner for one workload.
#[derive(Debug, Clone, PartialEq)]
pub struct PlannedReplicas {
    pub(crate) preferences: Preferences,
    pub total: i64,
    /// `namespace/name` of the workload, mixed into the tie-break hash (§1.1).
    pub key: String,
}
