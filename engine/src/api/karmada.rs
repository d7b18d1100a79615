//! Karmada's policy API (`policy.karmada.io/v1alpha1`), mirrored field for field with Karmada's
//! JSON names (karmada pkg/apis/policy/v1alpha1/propagation_types.go, override_types.go,
//! federatedresourcequota_types.go), so that a misspelled field is an error and a Karmada user
//! reads this file without a dictionary.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;

use super::meta::{LabelSelector, NodeSelectorRequirement, ObjectMeta, Toleration};
use crate::quantity::ResourceQuantity;

pub const POLICY_API_VERSION: &str = "policy.karmada.io/v1alpha1";

/// A PropagationPolicy or a ClusterPropagationPolicy: the two share their spec.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PropagationPolicy {
    pub api_version: String,
    pub kind: String,
    #[serde(default)]
    pub metadata: ObjectMeta,
    pub spec: PropagationSpec,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PropagationSpec {
    pub resource_selectors: Vec<ResourceSelector>,
    /// Deprecated; Karmada ignores it everywhere (only `propagateDeps` is read).
    #[serde(default)]
    pub association: bool,
    #[serde(default)]
    pub propagate_deps: bool,
    #[serde(default)]
    pub placement: Placement,
    #[serde(default)]
    pub priority: Option<i32>,
    #[serde(default)]
    pub preemption: Option<PreemptionBehavior>,
    #[serde(default)]
    pub dependent_overrides: Vec<String>,
    #[serde(default)]
    pub scheduler_name: Option<String>,
    #[serde(default)]
    pub failover: Option<FailoverBehavior>,
    #[serde(default)]
    pub conflict_resolution: Option<ConflictResolution>,
    #[serde(default)]
    pub activation_preference: Option<ActivationPreference>,
    #[serde(default)]
    pub suspension: Option<Suspension>,
    #[serde(default)]
    pub preserve_resources_on_deletion: Option<bool>,
    #[serde(default)]
    pub schedule_priority: Option<SchedulePriority>,
}

/// `spec.failover` (karmada propagation_types.go `FailoverBehavior`): read so that Karmada's
/// release can judge its purge modes; failover itself happens only in a live control plane.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct FailoverBehavior {
    #[serde(default)]
    pub application: Option<ApplicationFailoverBehavior>,
    #[serde(default)]
    pub cluster: Option<ClusterFailoverBehavior>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ApplicationFailoverBehavior {
    #[serde(default)]
    pub decision_conditions: Option<DecisionConditions>,
    /// Kept as written: which spellings a release accepts is the release's (see
    /// `karmada_release`), not serde's.
    #[serde(default)]
    pub purge_mode: Option<String>,
    #[serde(default)]
    pub grace_period_seconds: Option<i32>,
    #[serde(default)]
    pub state_preservation: Option<StatePreservation>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ClusterFailoverBehavior {
    #[serde(default)]
    pub purge_mode: Option<String>,
    #[serde(default)]
    pub state_preservation: Option<StatePreservation>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DecisionConditions {
    #[serde(default)]
    pub toleration_seconds: Option<i32>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct StatePreservation {
    pub rules: Vec<StatePreservationRule>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct StatePreservationRule {
    pub alias_label_name: String,
    #[serde(rename = "jsonPath")]
    pub json_path: String,
}

/// `spec.schedulePriority` (karmada propagation_types.go `SchedulePriority`, since v1.13):
/// the order bindings wait in the scheduler's queue, which an offline render has no queue for.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SchedulePriority {
    #[serde(default)]
    pub priority_class_source: Option<String>,
    #[serde(default)]
    pub priority_class_name: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum PreemptionBehavior {
    Always,
    Never,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum ConflictResolution {
    Abort,
    Overwrite,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum ActivationPreference {
    Lazy,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Suspension {
    #[serde(default)]
    pub dispatching: Option<bool>,
    #[serde(default)]
    pub dispatching_on_clusters: Option<SuspendClusters>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SuspendClusters {
    #[serde(default)]
    pub cluster_names: Vec<String>,
}

/// Selects resource templates (karmada pkg/util/selector.go).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ResourceSelector {
    pub api_version: String,
    pub kind: String,
    #[serde(default)]
    pub namespace: String,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub label_selector: Option<LabelSelector>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Placement {
    #[serde(default)]
    pub cluster_affinity: Option<ClusterAffinity>,
    #[serde(default)]
    pub cluster_affinities: Option<Vec<ClusterAffinityTerm>>,
    #[serde(default)]
    pub cluster_tolerations: Vec<Toleration>,
    #[serde(default)]
    pub spread_constraints: Vec<SpreadConstraint>,
    #[serde(default)]
    pub replica_scheduling: Option<ReplicaSchedulingStrategy>,
    #[serde(default)]
    pub workload_affinity: Option<Value>,
}

/// Which clusters a placement, a static weight or an override rule is about.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ClusterAffinity {
    #[serde(default)]
    pub label_selector: Option<LabelSelector>,
    #[serde(default)]
    pub field_selector: Option<FieldSelector>,
    #[serde(default)]
    pub cluster_names: Vec<String>,
    #[serde(default)]
    pub exclude: Vec<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct FieldSelector {
    #[serde(default)]
    pub match_expressions: Vec<NodeSelectorRequirement>,
}

/// One ordered group of `clusterAffinities`. Karmada inlines `ClusterAffinity` here; serde
/// cannot combine `flatten` with `deny_unknown_fields`, so the fields are listed again.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ClusterAffinityTerm {
    pub affinity_name: String,
    #[serde(default)]
    pub label_selector: Option<LabelSelector>,
    #[serde(default)]
    pub field_selector: Option<FieldSelector>,
    #[serde(default)]
    pub cluster_names: Vec<String>,
    #[serde(default)]
    pub exclude: Vec<String>,
    #[serde(default)]
    pub overflow_affinities: Vec<OverflowClusterAffinity>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct OverflowClusterAffinity {
    pub affinity_name: String,
    #[serde(default)]
    pub label_selector: Option<LabelSelector>,
    #[serde(default)]
    pub field_selector: Option<FieldSelector>,
    #[serde(default)]
    pub cluster_names: Vec<String>,
    #[serde(default)]
    pub exclude: Vec<String>,
}

impl OverflowClusterAffinity {
    pub fn affinity(&self) -> ClusterAffinity {
        ClusterAffinity {
            label_selector: self.label_selector.clone(),
            field_selector: self.field_selector.clone(),
            cluster_names: self.cluster_names.clone(),
            exclude: self.exclude.clone(),
        }
    }
}

impl ClusterAffinityTerm {
    pub fn affinity(&self) -> ClusterAffinity {
        ClusterAffinity {
            label_selector: self.label_selector.clone(),
            field_selector: self.field_selector.clone(),
            cluster_names: self.cluster_names.clone(),
            exclude: self.exclude.clone(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SpreadConstraint {
    #[serde(default)]
    pub spread_by_field: Option<String>,
    #[serde(default)]
    pub spread_by_label: Option<String>,
    #[serde(default)]
    pub max_groups: i64,
    #[serde(default)]
    pub min_groups: i64,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ReplicaSchedulingStrategy {
    #[serde(default)]
    pub replica_scheduling_type: Option<ReplicaSchedulingType>,
    #[serde(default)]
    pub replica_division_preference: Option<ReplicaDivisionPreference>,
    #[serde(default)]
    pub weight_preference: Option<ClusterPreferences>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum ReplicaSchedulingType {
    Duplicated,
    Divided,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum ReplicaDivisionPreference {
    Aggregated,
    Weighted,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ClusterPreferences {
    #[serde(default)]
    pub static_weight_list: Vec<StaticClusterWeight>,
    #[serde(default)]
    pub dynamic_weight: Option<DynamicWeightFactor>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct StaticClusterWeight {
    pub target_cluster: ClusterAffinity,
    pub weight: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum DynamicWeightFactor {
    AvailableReplicas,
}

/// An OverridePolicy or a ClusterOverridePolicy: the two share their spec.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct OverridePolicy {
    pub api_version: String,
    pub kind: String,
    #[serde(default)]
    pub metadata: ObjectMeta,
    pub spec: OverrideSpec,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct OverrideSpec {
    #[serde(default)]
    pub resource_selectors: Vec<ResourceSelector>,
    #[serde(default)]
    pub override_rules: Vec<RuleWithCluster>,
    /// Deprecated single-rule form, still accepted by Karmada.
    #[serde(default)]
    pub target_cluster: Option<ClusterAffinity>,
    /// Deprecated single-rule form, still accepted by Karmada.
    #[serde(default)]
    pub overriders: Overriders,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RuleWithCluster {
    #[serde(default)]
    pub target_cluster: Option<ClusterAffinity>,
    pub overriders: Overriders,
}

/// The overriders of one rule. Karmada applies them in a fixed order whatever the YAML order:
/// image, command, args, labels, annotations, field, plaintext.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Overriders {
    #[serde(default)]
    pub plaintext: Vec<PlaintextOverrider>,
    #[serde(default)]
    pub image_overrider: Vec<ImageOverrider>,
    #[serde(default)]
    pub command_overrider: Vec<CommandArgsOverrider>,
    #[serde(default)]
    pub args_overrider: Vec<CommandArgsOverrider>,
    #[serde(default)]
    pub labels_overrider: Vec<LabelAnnotationOverrider>,
    #[serde(default)]
    pub annotations_overrider: Vec<LabelAnnotationOverrider>,
    #[serde(default)]
    pub field_overrider: Vec<FieldOverrider>,
}

impl Overriders {
    /// Karmada's emptiness check, which leaves out `fieldOverrider` (karmada PR #7875).
    pub fn is_empty_ignoring_field_overrider(&self) -> bool {
        self.plaintext.is_empty()
            && self.image_overrider.is_empty()
            && self.command_overrider.is_empty()
            && self.args_overrider.is_empty()
            && self.labels_overrider.is_empty()
            && self.annotations_overrider.is_empty()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OverriderOperator {
    Add,
    Remove,
    Replace,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CommandArgsOperator {
    Add,
    Remove,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PlaintextOverrider {
    pub path: String,
    pub operator: OverriderOperator,
    #[serde(default)]
    pub value: Option<Value>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ImageOverrider {
    #[serde(default)]
    pub predicate: Option<ImagePredicate>,
    pub component: ImageComponent,
    pub operator: OverriderOperator,
    #[serde(default)]
    pub value: String,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ImagePredicate {
    pub path: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum ImageComponent {
    Registry,
    Repository,
    Tag,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CommandArgsOverrider {
    pub container_name: String,
    pub operator: CommandArgsOperator,
    #[serde(default)]
    pub value: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct LabelAnnotationOverrider {
    pub operator: OverriderOperator,
    pub value: BTreeMap<String, String>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct FieldOverrider {
    pub field_path: String,
    #[serde(default)]
    pub json: Vec<PatchOperation>,
    #[serde(default)]
    pub yaml: Vec<PatchOperation>,
}

/// `JSONPatchOperation` and `YAMLPatchOperation`, identical in Karmada.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PatchOperation {
    pub sub_path: String,
    pub operator: OverriderOperator,
    #[serde(default)]
    pub value: Option<Value>,
}

/// A FederatedResourceQuota (karmada pkg/apis/policy/v1alpha1/federatedresourcequota_types.go).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct FederatedResourceQuota {
    pub api_version: String,
    pub kind: String,
    #[serde(default)]
    pub metadata: ObjectMeta,
    pub spec: FederatedResourceQuotaSpec,
    /// Usage observed by Karmada's status controller, as `kubectl get -o yaml` prints it. The
    /// CRD has a status subresource, so the API server drops this when the object is created:
    /// it is accepted and not read.
    #[serde(default)]
    pub status: Option<serde::de::IgnoredAny>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct FederatedResourceQuotaSpec {
    pub overall: BTreeMap<String, ResourceQuantity>,
    #[serde(default)]
    pub static_assignments: Option<Vec<StaticClusterAssignment>>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct StaticClusterAssignment {
    pub cluster_name: String,
    pub hard: BTreeMap<String, ResourceQuantity>,
}

/// `ClusterTaintPolicy` (policy.karmada.io/v1alpha1, karmada
/// pkg/apis/policy/v1alpha1/clustertaint_types.go): taints Karmada's controller adds to and
/// removes from the clusters whose status conditions match.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ClusterTaintPolicy {
    pub api_version: String,
    pub kind: String,
    #[serde(default)]
    pub metadata: ObjectMeta,
    pub spec: ClusterTaintPolicySpec,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ClusterTaintPolicySpec {
    #[serde(default)]
    pub target_clusters: Option<ClusterAffinity>,
    #[serde(default)]
    pub add_on_conditions: Vec<MatchCondition>,
    #[serde(default)]
    pub remove_on_conditions: Vec<MatchCondition>,
    pub taints: Vec<PolicyTaint>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct MatchCondition {
    pub condition_type: String,
    pub operator: MatchConditionOperator,
    pub status_values: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum MatchConditionOperator {
    In,
    NotIn,
}

/// A taint a ClusterTaintPolicy puts on clusters.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PolicyTaint {
    pub key: String,
    pub effect: super::meta::TaintEffect,
    #[serde(default)]
    pub value: String,
}
