//! Karmada's policy API (`policy.karmada.io/v1alpha1`), mirrored field for field with Karmada's
//! JSON names (karmada pkg/apis/policy/v1alpha1/propagation_types.go, override_types.go,
//! federatedresourcequota_types.go), so that a misspelled field is an error and a Karmada user
//! reads this file without a dictionary.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;

use super::meta::{LabelSelector, NodeSelectorRequirement, ObjectMeta, Toleration};
use crate::quantity::ResourceQuantity;

/// The API version of every Karmada policy kind.
pub const POLICY_API_VERSION: &str = "policy.karmada.io/v1alpha1";

/// A PropagationPolicy or a ClusterPropagationPolicy: the two share their spec.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PropagationPolicy {
    /// `policy.karmada.io/v1alpha1`.
    pub api_version: String,
    /// `PropagationPolicy` or `ClusterPropagationPolicy`.
    pub kind: String,
    /// Name, namespace (none for the cluster-wide kind), labels.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// What the policy selects and where it places it.
    pub spec: PropagationSpec,
}

/// `spec` of a (Cluster)PropagationPolicy (karmada propagation_types.go `PropagationSpec`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PropagationSpec {
    /// `resourceSelectors`: the templates the policy places; any one matching selects.
    pub resource_selectors: Vec<ResourceSelector>,
    /// Deprecated; Karmada ignores it everywhere (only `propagateDeps` is read).
    #[serde(default)]
    pub association: bool,
    /// `propagateDeps`: what a template references (ConfigMaps, Secrets, ServiceAccounts …) follows it to its clusters.
    #[serde(default)]
    pub propagate_deps: bool,
    /// `placement`: which clusters, and how replicas are scheduled among them.
    #[serde(default)]
    pub placement: Placement,
    /// `priority`: the higher wins a template several policies select (0 when unset).
    #[serde(default)]
    pub priority: Option<i32>,
    /// `preemption`: whether the policy takes templates from a lower-priority one.
    #[serde(default)]
    pub preemption: Option<PreemptionBehavior>,
    /// `dependentOverrides`: OverridePolicies that must exist before the policy applies.
    #[serde(default)]
    pub dependent_overrides: Vec<String>,
    /// `schedulerName`: which Karmada scheduler places the templates.
    #[serde(default)]
    pub scheduler_name: Option<String>,
    /// `failover`: what a live control plane does when an application or cluster fails.
    #[serde(default)]
    pub failover: Option<FailoverBehavior>,
    /// `conflictResolution`: whether a member's existing object is overwritten.
    #[serde(default)]
    pub conflict_resolution: Option<ConflictResolution>,
    /// `activationPreference`: `Lazy` applies the policy only when a template next changes.
    #[serde(default)]
    pub activation_preference: Option<ActivationPreference>,
    /// `suspension`: dispatching to (some) clusters held back.
    #[serde(default)]
    pub suspension: Option<Suspension>,
    /// `preserveResourcesOnDeletion`: what was placed stays on the members when the template is deleted.
    #[serde(default)]
    pub preserve_resources_on_deletion: Option<bool>,
    /// `schedulePriority`: the order bindings wait in the scheduler's queue.
    #[serde(default)]
    pub schedule_priority: Option<SchedulePriority>,
}

/// `spec.failover` (karmada propagation_types.go `FailoverBehavior`): read so that Karmada's
/// release can judge its purge modes; failover itself happens only in a live control plane.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct FailoverBehavior {
    /// `application`: failover of an application that is unhealthy on a cluster.
    #[serde(default)]
    pub application: Option<ApplicationFailoverBehavior>,
    /// `cluster`: failover of everything on a cluster that fails.
    #[serde(default)]
    pub cluster: Option<ClusterFailoverBehavior>,
}

/// `spec.failover.application` (karmada `ApplicationFailoverBehavior`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ApplicationFailoverBehavior {
    /// `decisionConditions`: how long an application may be unhealthy before it moves.
    #[serde(default)]
    pub decision_conditions: Option<DecisionConditions>,
    /// Kept as written: which spellings a release accepts is the release's (see
    /// `karmada_release`), not serde's.
    #[serde(default)]
    pub purge_mode: Option<String>,
    /// `gracePeriodSeconds`: how long the old copy stays after the move (`Graciously`).
    #[serde(default)]
    pub grace_period_seconds: Option<i32>,
    /// `statePreservation`: what of the old copy's status the new one is told.
    #[serde(default)]
    pub state_preservation: Option<StatePreservation>,
}

/// `spec.failover.cluster` (karmada `ClusterFailoverBehavior`, since v1.15).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ClusterFailoverBehavior {
    /// `purgeMode`, kept as written, for the release to judge.
    #[serde(default)]
    pub purge_mode: Option<String>,
    /// `statePreservation`, as for an application.
    #[serde(default)]
    pub state_preservation: Option<StatePreservation>,
}

/// `decisionConditions` of an application's failover.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DecisionConditions {
    /// `tolerationSeconds`: how long an application may be unhealthy.
    #[serde(default)]
    pub toleration_seconds: Option<i32>,
}

/// `statePreservation`: the status fields carried to the new copy.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct StatePreservation {
    /// `rules`: one per field carried.
    pub rules: Vec<StatePreservationRule>,
}

/// One status field carried to a failed-over application's new copy, as a label.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct StatePreservationRule {
    /// `aliasLabelName`: the label the value is given as.
    pub alias_label_name: String,
    /// `jsonPath`: where the value is read in the old copy's status.
    #[serde(rename = "jsonPath")]
    pub json_path: String,
}

/// `spec.schedulePriority` (karmada propagation_types.go `SchedulePriority`, since v1.13):
/// the order bindings wait in the scheduler's queue, which an offline render has no queue for.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SchedulePriority {
    /// `priorityClassSource`: where the priority class is looked up (`KubePriorityClass`).
    #[serde(default)]
    pub priority_class_source: Option<String>,
    /// `priorityClassName`: the PriorityClass named.
    #[serde(default)]
    pub priority_class_name: Option<String>,
}

/// `spec.preemption`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum PreemptionBehavior {
    /// Takes templates a lower-priority policy placed.
    Always,
    /// Never takes a template another policy placed (the default).
    Never,
}

/// `spec.conflictResolution`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum ConflictResolution {
    /// Leaves a member's existing object alone (the default).
    Abort,
    /// Takes a member's existing object over.
    Overwrite,
}

/// `spec.activationPreference`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum ActivationPreference {
    /// Applied to a template only when the template next changes.
    Lazy,
}

/// `spec.suspension` (karmada `Suspension`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Suspension {
    /// `dispatching`: no Work is dispatched to any cluster.
    #[serde(default)]
    pub dispatching: Option<bool>,
    /// `dispatchingOnClusters`: no Work is dispatched to these clusters.
    #[serde(default)]
    pub dispatching_on_clusters: Option<SuspendClusters>,
}

/// `spec.suspension.dispatchingOnClusters`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SuspendClusters {
    /// `clusterNames`: the clusters held back.
    #[serde(default)]
    pub cluster_names: Vec<String>,
}

/// Selects resource templates (karmada pkg/util/selector.go).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ResourceSelector {
    /// `apiVersion` of the templates selected.
    pub api_version: String,
    /// `kind` of the templates selected.
    pub kind: String,
    /// `namespace`: empty selects every namespace (the policy's own, for a namespaced policy).
    #[serde(default)]
    pub namespace: String,
    /// `name`: empty selects every name; with a label selector, the name wins.
    #[serde(default)]
    pub name: String,
    /// `labelSelector`: what the templates' labels must match.
    #[serde(default)]
    pub label_selector: Option<LabelSelector>,
}

/// `spec.placement` (karmada `Placement`): which clusters a template goes to, and how its replicas are scheduled.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Placement {
    /// `clusterAffinity`: the clusters that may receive the templates.
    #[serde(default)]
    pub cluster_affinity: Option<ClusterAffinity>,
    /// `clusterAffinities`: affinity terms tried in order until one schedules.
    #[serde(default)]
    pub cluster_affinities: Option<Vec<ClusterAffinityTerm>>,
    /// `clusterTolerations`: the cluster taints the templates tolerate.
    #[serde(default)]
    pub cluster_tolerations: Vec<Toleration>,
    /// `spreadConstraints`: how many clusters, regions, zones or providers to spread over.
    #[serde(default)]
    pub spread_constraints: Vec<SpreadConstraint>,
    /// `replicaScheduling`: Duplicated, or Divided by weights or available replicas.
    #[serde(default)]
    pub replica_scheduling: Option<ReplicaSchedulingStrategy>,
    /// `workloadAffinity`: kept as written; a live scheduler's business.
    #[serde(default)]
    pub workload_affinity: Option<Value>,
}

/// Which clusters a placement, a static weight or an override rule is about.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ClusterAffinity {
    /// `labelSelector`: what the clusters' labels must match.
    #[serde(default)]
    pub label_selector: Option<LabelSelector>,
    /// `fieldSelector`: what the clusters' provider, region and zone must match.
    #[serde(default)]
    pub field_selector: Option<FieldSelector>,
    /// `clusterNames`: the clusters named.
    #[serde(default)]
    pub cluster_names: Vec<String>,
    /// `exclude`: clusters left out whatever else matches.
    #[serde(default)]
    pub exclude: Vec<String>,
}

/// `fieldSelector` of a cluster affinity.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct FieldSelector {
    /// `matchExpressions` on `provider`, `region` and `zone`.
    #[serde(default)]
    pub match_expressions: Vec<NodeSelectorRequirement>,
}

/// One ordered group of `clusterAffinities`. Karmada inlines `ClusterAffinity` here; serde
/// cannot combine `flatten` with `deny_unknown_fields`, so the fields are listed again.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ClusterAffinityTerm {
    /// `affinityName`: the term's name, for the binding's status.
    pub affinity_name: String,
    /// As [`ClusterAffinity::label_selector`].
    #[serde(default)]
    pub label_selector: Option<LabelSelector>,
    /// As [`ClusterAffinity::field_selector`].
    #[serde(default)]
    pub field_selector: Option<FieldSelector>,
    /// As [`ClusterAffinity::cluster_names`].
    #[serde(default)]
    pub cluster_names: Vec<String>,
    /// As [`ClusterAffinity::exclude`].
    #[serde(default)]
    pub exclude: Vec<String>,
    /// `overflowAffinities` (since v1.16): clusters that take the replicas the term's clusters cannot.
    #[serde(default)]
    pub overflow_affinities: Vec<OverflowClusterAffinity>,
}

/// One overflow tier of an affinity term.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct OverflowClusterAffinity {
    /// `affinityName`: the tier's name.
    pub affinity_name: String,
    /// As [`ClusterAffinity::label_selector`].
    #[serde(default)]
    pub label_selector: Option<LabelSelector>,
    /// As [`ClusterAffinity::field_selector`].
    #[serde(default)]
    pub field_selector: Option<FieldSelector>,
    /// As [`ClusterAffinity::cluster_names`].
    #[serde(default)]
    pub cluster_names: Vec<String>,
    /// As [`ClusterAffinity::exclude`].
    #[serde(default)]
    pub exclude: Vec<String>,
}

impl OverflowClusterAffinity {
    /// The tier as a cluster affinity.
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
    /// The term as a cluster affinity.
    pub fn affinity(&self) -> ClusterAffinity {
        ClusterAffinity {
            label_selector: self.label_selector.clone(),
            field_selector: self.field_selector.clone(),
            cluster_names: self.cluster_names.clone(),
            exclude: self.exclude.clone(),
        }
    }
}

/// One of `spec.placement.spreadConstraints`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SpreadConstraint {
    /// `spreadByField`: `cluster`, `region`, `zone` or `provider`.
    #[serde(default)]
    pub spread_by_field: Option<String>,
    /// `spreadByLabel`: a cluster label to spread over.
    #[serde(default)]
    pub spread_by_label: Option<String>,
    /// `maxGroups`: the most groups chosen.
    #[serde(default)]
    pub max_groups: i64,
    /// `minGroups`: the fewest groups that will do.
    #[serde(default)]
    pub min_groups: i64,
}

/// `spec.placement.replicaScheduling`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ReplicaSchedulingStrategy {
    /// `replicaSchedulingType`: every cluster gets all the replicas, or they are divided.
    #[serde(default)]
    pub replica_scheduling_type: Option<ReplicaSchedulingType>,
    /// `replicaDivisionPreference`: how Divided replicas are divided.
    #[serde(default)]
    pub replica_division_preference: Option<ReplicaDivisionPreference>,
    /// `weightPreference`: the weights of a Weighted division.
    #[serde(default)]
    pub weight_preference: Option<ClusterPreferences>,
}

/// `replicaSchedulingType`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum ReplicaSchedulingType {
    /// Every cluster gets the template's replicas.
    Duplicated,
    /// The replicas are divided among the clusters.
    Divided,
}

/// `replicaDivisionPreference`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum ReplicaDivisionPreference {
    /// Over the fewest clusters that can run them.
    Aggregated,
    /// By static weights or available replicas.
    Weighted,
}

/// `weightPreference` of a Weighted division.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ClusterPreferences {
    /// `staticWeightList`: a weight per set of clusters.
    #[serde(default)]
    pub static_weight_list: Vec<StaticClusterWeight>,
    /// `dynamicWeight`: weights from what each cluster can run.
    #[serde(default)]
    pub dynamic_weight: Option<DynamicWeightFactor>,
}

/// One weight of a static weight list.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct StaticClusterWeight {
    /// `targetCluster`: the clusters this weight is for.
    pub target_cluster: ClusterAffinity,
    /// `weight`: at least 1.
    pub weight: i64,
}

/// `dynamicWeight`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum DynamicWeightFactor {
    /// Each cluster weighs what it can run of the template's replicas.
    AvailableReplicas,
}

/// An OverridePolicy or a ClusterOverridePolicy: the two share their spec.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct OverridePolicy {
    /// `policy.karmada.io/v1alpha1`.
    pub api_version: String,
    /// `OverridePolicy` or `ClusterOverridePolicy`.
    pub kind: String,
    /// Name, namespace (none for the cluster-wide kind), labels.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// What the policy selects and how it changes it per cluster.
    pub spec: OverrideSpec,
}

/// `spec` of a (Cluster)OverridePolicy (karmada override_types.go `OverrideSpec`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct OverrideSpec {
    /// `resourceSelectors`: the templates changed; empty changes every one in scope.
    #[serde(default)]
    pub resource_selectors: Vec<ResourceSelector>,
    /// `overrideRules`: each rule's target clusters and overriders, applied in order.
    #[serde(default)]
    pub override_rules: Vec<RuleWithCluster>,
    /// Deprecated single-rule form, still accepted by Karmada.
    #[serde(default)]
    pub target_cluster: Option<ClusterAffinity>,
    /// Deprecated single-rule form, still accepted by Karmada.
    #[serde(default)]
    pub overriders: Overriders,
}

/// One of `spec.overrideRules`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RuleWithCluster {
    /// `targetCluster`: the clusters the rule applies on; every cluster when unset.
    #[serde(default)]
    pub target_cluster: Option<ClusterAffinity>,
    /// `overriders`: what the rule changes.
    pub overriders: Overriders,
}

/// The overriders of one rule. Karmada applies them in a fixed order whatever the YAML order:
/// image, command, args, labels, annotations, field, plaintext.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Overriders {
    /// `plaintext`: JSON-patch-like operations on the object.
    #[serde(default)]
    pub plaintext: Vec<PlaintextOverrider>,
    /// `imageOverrider`: a component of container images.
    #[serde(default)]
    pub image_overrider: Vec<ImageOverrider>,
    /// `commandOverrider`: a container's command.
    #[serde(default)]
    pub command_overrider: Vec<CommandArgsOverrider>,
    /// `argsOverrider`: a container's args.
    #[serde(default)]
    pub args_overrider: Vec<CommandArgsOverrider>,
    /// `labelsOverrider`: the object's labels.
    #[serde(default)]
    pub labels_overrider: Vec<LabelAnnotationOverrider>,
    /// `annotationsOverrider`: the object's annotations.
    #[serde(default)]
    pub annotations_overrider: Vec<LabelAnnotationOverrider>,
    /// `fieldOverrider`: JSON or YAML embedded in a string field.
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

/// What an overrider does at its path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OverriderOperator {
    /// `add`.
    Add,
    /// `remove`.
    Remove,
    /// `replace`.
    Replace,
}

/// What a command or args overrider does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CommandArgsOperator {
    /// `add`: appends the values.
    Add,
    /// `remove`: takes every equal value out.
    Remove,
}

/// One `plaintext` operation.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PlaintextOverrider {
    /// `path`: a JSON pointer into the object.
    pub path: String,
    /// `operator`: add, remove or replace.
    pub operator: OverriderOperator,
    /// `value`: what is added or put in place.
    #[serde(default)]
    pub value: Option<Value>,
}

/// One `imageOverrider`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ImageOverrider {
    /// `predicate`: the one image field changed; every container's image when unset.
    #[serde(default)]
    pub predicate: Option<ImagePredicate>,
    /// `component`: registry, repository or tag.
    pub component: ImageComponent,
    /// `operator`: add, remove or replace.
    pub operator: OverriderOperator,
    /// `value`: the component's new value.
    #[serde(default)]
    pub value: String,
}

/// `predicate` of an image overrider.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ImagePredicate {
    /// `path`: a JSON pointer to the image field.
    pub path: String,
}

/// The component of an image reference an image overrider changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum ImageComponent {
    /// `Registry`: `registry.example.com`.
    Registry,
    /// `Repository`: `team/app`.
    Repository,
    /// `Tag`: `v1.2` (or a digest).
    Tag,
}

/// One `commandOverrider` or `argsOverrider`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CommandArgsOverrider {
    /// `containerName`: the container changed.
    pub container_name: String,
    /// `operator`: add or remove.
    pub operator: CommandArgsOperator,
    /// `value`: the values added or removed.
    #[serde(default)]
    pub value: Vec<String>,
}

/// One `labelsOverrider` or `annotationsOverrider`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct LabelAnnotationOverrider {
    /// `operator`: add, remove or replace.
    pub operator: OverriderOperator,
    /// `value`: the keys and values.
    pub value: BTreeMap<String, String>,
}

/// One `fieldOverrider`: operations on JSON or YAML held in a string field.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct FieldOverrider {
    /// `fieldPath`: a JSON pointer to the string field.
    pub field_path: String,
    /// `json`: operations on the field read as JSON.
    #[serde(default)]
    pub json: Vec<PatchOperation>,
    /// `yaml`: operations on the field read as YAML.
    #[serde(default)]
    pub yaml: Vec<PatchOperation>,
}

/// `JSONPatchOperation` and `YAMLPatchOperation`, identical in Karmada.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PatchOperation {
    /// `subPath`: a JSON pointer inside the embedded document.
    pub sub_path: String,
    /// `operator`: add, remove or replace.
    pub operator: OverriderOperator,
    /// `value`: what is added or put in place.
    #[serde(default)]
    pub value: Option<Value>,
}

/// A FederatedResourceQuota (karmada pkg/apis/policy/v1alpha1/federatedresourcequota_types.go).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct FederatedResourceQuota {
    /// `policy.karmada.io/v1alpha1`.
    pub api_version: String,
    /// `FederatedResourceQuota`.
    pub kind: String,
    /// Name and namespace: the ResourceQuotas it creates bear them.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// The overall quota and each cluster's share.
    pub spec: FederatedResourceQuotaSpec,
    /// Usage observed by Karmada's status controller, as `kubectl get -o yaml` prints it. The
    /// CRD has a status subresource, so the API server drops this when the object is created:
    /// it is accepted and not read.
    #[serde(default)]
    pub status: Option<serde::de::IgnoredAny>,
}

/// `spec` of a FederatedResourceQuota.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct FederatedResourceQuotaSpec {
    /// `overall`: the namespace's quota over every cluster.
    pub overall: BTreeMap<String, ResourceQuantity>,
    /// `staticAssignments`: each cluster's share, as its own ResourceQuota.
    #[serde(default)]
    pub static_assignments: Option<Vec<StaticClusterAssignment>>,
}

/// One cluster's share of a FederatedResourceQuota.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct StaticClusterAssignment {
    /// `clusterName`: the cluster.
    pub cluster_name: String,
    /// `hard`: its ResourceQuota's limits.
    pub hard: BTreeMap<String, ResourceQuantity>,
}

/// `ClusterTaintPolicy` (policy.karmada.io/v1alpha1, karmada
/// pkg/apis/policy/v1alpha1/clustertaint_types.go): taints Karmada's controller adds to and
/// removes from the clusters whose status conditions match.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ClusterTaintPolicy {
    /// `policy.karmada.io/v1alpha1`.
    pub api_version: String,
    /// `ClusterTaintPolicy`.
    pub kind: String,
    /// Its name.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// Which clusters it taints, on which conditions.
    pub spec: ClusterTaintPolicySpec,
}

/// `spec` of a ClusterTaintPolicy (karmada clustertaintpolicy_types.go).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ClusterTaintPolicySpec {
    /// `targetClusters`: the clusters it judges; every cluster when unset.
    #[serde(default)]
    pub target_clusters: Option<ClusterAffinity>,
    /// `addOnConditions`: the conditions on which the taints go on.
    #[serde(default)]
    pub add_on_conditions: Vec<MatchCondition>,
    /// `removeOnConditions`: the conditions on which they come off.
    #[serde(default)]
    pub remove_on_conditions: Vec<MatchCondition>,
    /// `taints`: the taints put on or taken off.
    pub taints: Vec<PolicyTaint>,
}

/// One condition of a ClusterTaintPolicy: a status condition of the cluster.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct MatchCondition {
    /// `conditionType`: the condition (`Ready`).
    pub condition_type: String,
    /// `operator`: `In` or `NotIn`.
    pub operator: MatchConditionOperator,
    /// `statusValues`: the condition's statuses compared with.
    pub status_values: Vec<String>,
}

/// How a condition's status is compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum MatchConditionOperator {
    /// The status is one of the values.
    In,
    /// The status is none of the values.
    NotIn,
}

/// A taint a ClusterTaintPolicy puts on clusters.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PolicyTaint {
    /// `key`: the taint's key.
    pub key: String,
    /// `effect`: `NoSchedule` or `NoExecute`.
    pub effect: super::meta::TaintEffect,
    /// `value`: the taint's value.
    #[serde(default)]
    pub value: String,
}
