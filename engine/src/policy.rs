//! Admission of policies, as Karmada's webhooks and CRD schemas would do it: defaulting (a
//! PropagationPolicy's and OverridePolicy's selectors take the policy's namespace) and
//! validation (karmada pkg/util/validation/validation.go, the policy webhooks). A policy that
//! fails never exists, so the whole input is rejected. Fields fedrender does not implement are
//! errors naming the field, never silent no-ops.

use std::fmt;

use crate::api::karmada::{
    ActivationPreference, ClusterAffinity, FieldSelector, OverridePolicy, Overriders, Placement,
    PreemptionBehavior, PropagationPolicy, PropagationSpec, ResourceSelector, SpreadConstraint,
    Suspension,
};
use crate::api::meta::{
    LabelSelector, NodeSelectorRequirement, SelectorOperator, TolerationOperator,
};
use crate::diagnostics::Located;
use crate::diagnostics::{Diagnostic, FieldLines, Origin, Rejected};
use crate::lint::Lint;
use crate::names;

/// Whether a policy lives in a namespace (PropagationPolicy, OverridePolicy) or is
/// cluster-wide (ClusterPropagationPolicy, ClusterOverridePolicy).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PolicyScope {
    /// A PropagationPolicy's or OverridePolicy's namespace.
    Namespace(String),
    /// Cluster-wide.
    Cluster,
}

/// A policy's identity, as users name it in messages: `PropagationPolicy apps/web`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PolicyId {
    /// `PropagationPolicy`, `ClusterOverridePolicy` …
    pub kind: String,
    /// Its namespace, or cluster-wide.
    pub scope: PolicyScope,
    /// Its name.
    pub name: String,
}

impl fmt::Display for PolicyId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.scope {
            PolicyScope::Namespace(namespace) => {
                write!(f, "{} {namespace}/{}", self.kind, self.name)
            }
            PolicyScope::Cluster => write!(f, "{} {}", self.kind, self.name),
        }
    }
}

/// A PropagationPolicy or ClusterPropagationPolicy after admission.
#[derive(Debug, Clone)]
pub struct Propagation {
    /// Which policy it is.
    pub id: PolicyId,
    /// Where it is written.
    pub origin: Origin,
    /// Where each field is written, for messages.
    pub fields: FieldLines,
    /// `spec.priority` (0 when unset): the higher wins a template.
    pub priority: i32,
    pub(crate) resource_selectors: Vec<ResourceSelector>,
    /// `spec.placement`: where the templates go.
    pub placement: Placement,
    /// `spec.suspension`: dispatching held back, for `plan` to say.
    pub suspension: Suspension,
    pub(crate) dependent_overrides: Vec<String>,
    /// Whether what a template references follows it (forced on when a selector names a
    /// ServiceImport, as Karmada's webhook does).
    pub(crate) propagate_deps: bool,
    /// `spec.preserveResourcesOnDeletion`: Karmada keeps what the policy placed on the members
    /// when the template is deleted. Nothing in a render depends on it; the GitOps wiring
    /// exempts those objects from pruning, `plan` says so and `diff` reads it.
    pub(crate) preserves_on_deletion: bool,
    /// `spec.activationPreference: Lazy`: Karmada applies the policy to a template only when
    /// the template next changes; `plan` says so beside each template it places.
    pub(crate) lazy_activation: bool,
    /// The fields only Karmada's release decides about (see `karmada_release`).
    pub(crate) release_fields: ReleaseFields,
}

/// What a policy writes that exists only from some Karmada release on, or only behind a
/// feature gate: kept past admission for `karmada_release` to judge against the chosen release.
#[derive(Debug, Clone, Default)]
pub(crate) struct ReleaseFields {
    pub failover: Option<crate::api::karmada::FailoverBehavior>,
    pub(crate) schedule_priority: bool,
    /// The PriorityClass a `KubePriorityClass` schedule priority names.
    pub(crate) schedule_priority_class: Option<String>,
    pub(crate) preemption_always: bool,
}

impl Propagation {
    pub(crate) fn is_cluster_wide(&self) -> bool {
        self.id.scope == PolicyScope::Cluster
    }
}

/// An OverridePolicy or ClusterOverridePolicy after admission, its deprecated single-rule form
/// turned into one rule.
#[derive(Debug, Clone)]
pub struct Override {
    /// Which policy it is.
    pub id: PolicyId,
    /// Where it is written.
    pub origin: Origin,
    /// Where each field is written, for messages.
    pub fields: FieldLines,
    /// Empty: the policy applies to every object (in its namespace, for an OverridePolicy).
    pub(crate) resource_selectors: Vec<ResourceSelector>,
    /// The rules, in order: applied one after another.
    pub rules: Vec<OverrideRule>,
}

/// One override rule: the clusters it targets and what it changes there.
#[derive(Debug, Clone)]
pub struct OverrideRule {
    /// `None`: every cluster.
    pub(crate) target_cluster: Option<ClusterAffinity>,
    /// What the rule changes.
    pub overriders: Overriders,
    /// Where the rule is written, for messages: `spec.overrideRules[2]`, or `spec` for the
    /// deprecated single-rule form.
    pub field: String,
}

/// Collects the admission errors of one policy, each prefixed with the policy and field.
struct Admission<'a> {
    origin: &'a Origin,
    fields: &'a FieldLines,
    id: &'a PolicyId,
    errors: Vec<Diagnostic>,
    warnings: Vec<Diagnostic>,
}

impl<'a> Admission<'a> {
    fn new(located: &'a Located<impl Sized>, id: &'a PolicyId) -> Self {
        Admission {
            origin: &located.origin,
            fields: &located.fields,
            id,
            errors: Vec::new(),
            warnings: Vec::new(),
        }
    }

    fn error(&mut self, field: &str, message: impl fmt::Display) {
        self.errors.push(Diagnostic::error(
            Some(self.fields.origin(self.origin, field)),
            format!("{}: {field}: {message}", self.id),
        ));
    }

    fn warning(&mut self, lint: Lint, field: &str, message: impl fmt::Display) {
        self.warnings.push(Diagnostic::warning(
            lint,
            Some(self.fields.origin(self.origin, field)),
            format!("{}: {field}: {message}", self.id),
        ));
    }

    fn finish<T>(self, value: T, warnings: &mut Vec<Diagnostic>) -> Result<T, Rejected> {
        warnings.extend(self.warnings);
        if self.errors.is_empty() {
            Ok(value)
        } else {
            Err(self.errors.into())
        }
    }
}

fn policy_id(
    kind: &str,
    namespaced: bool,
    metadata_namespace: Option<&str>,
    name: &str,
) -> PolicyId {
    let scope = if namespaced {
        // A namespaced policy without a namespace is created in the client's namespace:
        // `default`, as kubectl would (karmada-overrides spec §3.1).
        PolicyScope::Namespace(
            metadata_namespace
                .filter(|namespace| !namespace.is_empty())
                .unwrap_or("default")
                .to_string(),
        )
    } else {
        PolicyScope::Cluster
    };
    PolicyId {
        kind: kind.to_string(),
        scope,
        name: name.to_string(),
    }
}

/// A (Cluster)PropagationPolicy document as JSON, decoded and admitted, for unit tests.
#[cfg(test)]
pub(crate) fn admitted_for_test(document: serde_json::Value) -> Propagation {
    let item: crate::api::karmada::PropagationPolicy = serde_json::from_value(document).unwrap();
    let located = Located {
        origin: Origin::new("p.yaml", 0, 1),
        item,
        fields: crate::diagnostics::FieldLines::default(),
    };
    admit_propagation(&located, &mut Vec::new()).unwrap()
}

/// Admits a PropagationPolicy as Karmada's webhook would, with the warnings of what it accepts but does not act on.
pub fn admit_propagation(
    located: &Located<PropagationPolicy>,
    warnings: &mut Vec<Diagnostic>,
) -> Result<Propagation, Rejected> {
    let policy = &located.item;
    let id = policy_id(
        &policy.kind,
        policy.kind == "PropagationPolicy",
        policy.metadata.namespace.as_deref(),
        &policy.metadata.name,
    );
    let mut admission = Admission::new(located, &id);
    check_policy_name(&mut admission, &policy.metadata.name);
    let spec = &policy.spec;
    if spec.resource_selectors.is_empty() {
        admission.error("spec.resourceSelectors", "needs at least one selector");
    }
    let resource_selectors = admit_selectors(&mut admission, &id, &spec.resource_selectors);
    if spec.preemption == Some(PreemptionBehavior::Always)
        && spec.resource_selectors.iter().any(|s| s.name.is_empty())
    {
        admission.error(
            "spec.preemption",
            "Always requires every resource selector to name its resource",
        );
    }
    admit_placement(&mut admission, &spec.placement);
    if spec
        .failover
        .as_ref()
        .is_some_and(|failover| failover.application.is_some())
        && !spec.propagate_deps
    {
        admission.error(
            "spec.failover.application",
            "requires spec.propagateDeps: true",
        );
    }
    let suspension = spec.suspension.clone().unwrap_or_default();
    if suspension.dispatching == Some(true)
        && suspension
            .dispatching_on_clusters
            .as_ref()
            .is_some_and(|on| !on.cluster_names.is_empty())
    {
        admission.error(
            "spec.suspension",
            "dispatching: true cannot be combined with dispatchingOnClusters.clusterNames",
        );
    }
    if let Some(priority) = &spec.schedule_priority {
        for (field, refusal) in crate::admission::schedule_priority_refusals(priority) {
            admission.error(
                field,
                format!("{refusal} (Karmada's API server refuses it: the policy CRD it installs)"),
            );
        }
    }
    if let Some(scheduler) = spec.scheduler_name.as_deref()
        && scheduler != "default-scheduler"
    {
        admission.warning(
            Lint::NotModelled,
            "spec.schedulerName",
            format!("{scheduler:?} is not Karmada's default scheduler; fedrender schedules as the default scheduler does"),
        );
    }
    let propagation = Propagation {
        id: id.clone(),
        origin: located.origin.clone(),
        fields: located.fields.clone(),
        priority: spec.priority.unwrap_or(0),
        resource_selectors,
        placement: spec.placement.clone(),
        suspension,
        dependent_overrides: spec.dependent_overrides.clone(),
        propagate_deps: spec.propagate_deps
            || spec
                .resource_selectors
                .iter()
                .any(|s| s.kind == "ServiceImport"),
        preserves_on_deletion: spec.preserve_resources_on_deletion.unwrap_or(false),
        lazy_activation: spec.activation_preference == Some(ActivationPreference::Lazy),
        release_fields: ReleaseFields {
            failover: spec.failover.clone(),
            schedule_priority: spec.schedule_priority.is_some(),
            schedule_priority_class: spec
                .schedule_priority
                .as_ref()
                .filter(|p| p.priority_class_source.as_deref() == Some("KubePriorityClass"))
                .and_then(|p| p.priority_class_name.clone()),
            preemption_always: spec.preemption == Some(PreemptionBehavior::Always),
        },
    };
    admit_lifecycle(&mut admission, spec);
    admission.finish(propagation, warnings)
}

/// The fields about a template's life on the members that no render can show: said at their
/// line, never silently dropped. `preserveResourcesOnDeletion` needs no word here: the GitOps
/// wiring honours it and `plan` says so.
fn admit_lifecycle(admission: &mut Admission<'_>, spec: &PropagationSpec) {
    if spec.activation_preference == Some(ActivationPreference::Lazy) {
        // karmada pkg/detector/detector.go ApplyPolicy: a Lazy policy's change is not applied to the templates it
        // already placed; each is propagated by it when it is next created or updated.
        admission.warning(
            Lint::LazyActivation,
            "spec.activationPreference",
            "Lazy: Karmada applies this policy, and every later change to it, to a template only \
             when that template is next created or updated; fedrender renders every template by \
             the policy as written, so a review sees the change at once where Karmada's members \
             would keep the previous placement until each template is edited",
        );
    }
    if let Some(resolution) = spec.conflict_resolution {
        // karmada pkg/util/objectwatcher/objectwatcher.go: consulted only when the member
        // already holds an object of that name that Karmada does not manage.
        admission.warning(
            Lint::NotModelled,
            "spec.conflictResolution",
            format!(
                "{resolution:?} decides what happens when a member already holds an object of \
                 the same name that Karmada did not create, which no offline render can know; \
                 fedrender renders the object as if the member held none"
            ),
        );
    }
    if spec.schedule_priority.is_some() {
        // karmada pkg/scheduler/event_handler.go: the binding's priority orders the
        // scheduler's queue; where each template goes does not depend on it.
        admission.warning(
            Lint::NotModelled,
            "spec.schedulePriority",
            "orders Karmada's scheduling queue (which template is scheduled first), not where a \
             template goes; an offline render has no queue, so it changes nothing here",
        );
    }
}

fn check_policy_name(admission: &mut Admission<'_>, name: &str) {
    if name.is_empty() {
        admission.error("metadata.name", "is required");
    } else if let Some(problem) = names::dns_subdomain_problem(name) {
        admission.error("metadata.name", problem);
    }
}

/// PropagationPolicy and OverridePolicy selectors default to the policy's namespace and may
/// name no other (karmada webhook mutating.go / validating.go).
fn admit_selectors(
    admission: &mut Admission<'_>,
    id: &PolicyId,
    selectors: &[ResourceSelector],
) -> Vec<ResourceSelector> {
    selectors
        .iter()
        .enumerate()
        .map(|(index, selector)| {
            let field = format!("spec.resourceSelectors[{index}]");
            let mut selector = selector.clone();
            if selector.api_version.is_empty() || selector.kind.is_empty() {
                admission.error(&field, "apiVersion and kind are required");
            }
            if let PolicyScope::Namespace(namespace) = &id.scope {
                if selector.namespace.is_empty() {
                    selector.namespace = namespace.clone();
                } else if &selector.namespace != namespace {
                    admission.error(
                        &format!("{field}.namespace"),
                        format!(
                            "{:?} differs from the policy's namespace {namespace:?}; a {} selects only in its own namespace",
                            selector.namespace, id.kind
                        ),
                    );
                }
            }
            let named = !selector.name.is_empty();
            if let Some(labels) = &mut selector.label_selector {
                admit_resource_label_selector(
                    admission,
                    &format!("{field}.labelSelector"),
                    labels,
                    named,
                );
            }
            selector
        })
        .collect()
}

/// Kubernetes rejects these selectors when converting them (`LabelSelectorAsSelector`), which
/// Karmada's webhook does not check. In a cluster affinity fedrender refuses them (louder than
/// Karmada, which would schedule the policy's templates nowhere).
fn check_label_selector(admission: &mut Admission<'_>, field: &str, selector: &LabelSelector) {
    for (at, problem) in selector.conversion_problems() {
        admission.error(&format!("{field}.{at}"), problem);
    }
}

/// A resource selector's label selector that Kubernetes cannot convert: Karmada's detector
/// then takes the selector as matching nothing (karmada pkg/util/selector.go
/// `ResourceSelectorPriority`), so the rest of the fleet still renders; a warning says so.
fn admit_resource_label_selector(
    admission: &mut Admission<'_>,
    field: &str,
    selector: &mut LabelSelector,
    named: bool,
) {
    let problems = selector.conversion_problems();
    for (at, problem) in &problems {
        admission.warning(
            Lint::InvalidSelector,
            &format!("{field}.{at}"),
            if named {
                format!("{problem}; the selector names an object, so Karmada never reads its labelSelector")
            } else {
                format!("{problem}; Karmada cannot convert the selector, so it never matches")
            },
        );
    }
    selector.unconvertible = !problems.is_empty();
}

fn admit_placement(admission: &mut Admission<'_>, placement: &Placement) {
    if placement.cluster_affinity.is_some() && placement.cluster_affinities.is_some() {
        admission.error(
            "spec.placement",
            "clusterAffinity and clusterAffinities cannot be used together",
        );
    }
    if let Some(affinity) = &placement.cluster_affinity {
        check_cluster_affinity(admission, "spec.placement.clusterAffinity", affinity);
    }
    admit_affinity_terms(admission, placement);
    for (index, toleration) in placement.cluster_tolerations.iter().enumerate() {
        if matches!(
            toleration.operator,
            Some(TolerationOperator::Lt | TolerationOperator::Gt)
        ) {
            admission.error(
                &format!("spec.placement.clusterTolerations[{index}].operator"),
                "Lt and Gt are not allowed for cluster tolerations",
            );
        }
    }
    admit_spread_constraints(admission, &placement.spread_constraints);
    if let Some(preference) = placement
        .replica_scheduling
        .as_ref()
        .and_then(|scheduling| scheduling.weight_preference.as_ref())
    {
        for (index, rule) in preference.static_weight_list.iter().enumerate() {
            let field = format!(
                "spec.placement.replicaScheduling.weightPreference.staticWeightList[{index}]"
            );
            if rule.weight < 1 {
                admission.error(
                    &format!("{field}.weight"),
                    format!("{} is below the minimum of 1", rule.weight),
                );
            }
            check_static_weight_target(
                admission,
                &format!("{field}.targetCluster"),
                &rule.target_cluster,
            );
        }
    }
    // workloadAffinity is judged with the Karmada release and its gates (karmada_release).
}

/// `clusterAffinities`: names are label-key-like, 1 to 32 characters and unique across the
/// terms and their overflow affinities; overflow needs a capacity-aware Divided placement and a
/// non-empty primary affinity (karmada validation.go `ValidateClusterAffinities`,
/// pkg/util/policy.go `IsOverflowSchedulingAllowed`).
fn admit_affinity_terms(admission: &mut Admission<'_>, placement: &Placement) {
    let Some(terms) = &placement.cluster_affinities else {
        return;
    };
    let overflow_allowed = placement
        .replica_scheduling
        .as_ref()
        .is_some_and(|scheduling| {
            use crate::api::karmada::{ReplicaDivisionPreference, ReplicaSchedulingType};
            let divided =
                scheduling.replica_scheduling_type != Some(ReplicaSchedulingType::Duplicated);
            let aggregated = scheduling.replica_division_preference
                == Some(ReplicaDivisionPreference::Aggregated);
            let dynamic = scheduling
                .weight_preference
                .as_ref()
                .is_some_and(|preference| preference.dynamic_weight.is_some());
            divided && (aggregated || dynamic)
        });
    let mut names = std::collections::BTreeSet::new();
    let mut check_name = |admission: &mut Admission<'_>, field: &str, name: &str| {
        if name.is_empty() || name.len() > 32 {
            admission.error(field, format!("{name:?} must be 1 to 32 characters"));
        } else if let Some(problem) = names::qualified_name_problem(name) {
            admission.error(
                field,
                format!("{name:?} is not a valid label key: {problem}"),
            );
        }
        if !names.insert(name.to_string()) {
            admission.error(field, format!("{name:?} is used twice"));
        }
    };
    for (index, term) in terms.iter().enumerate() {
        let field = format!("spec.placement.clusterAffinities[{index}]");
        check_name(
            admission,
            &format!("{field}.affinityName"),
            &term.affinity_name,
        );
        check_cluster_affinity(admission, &field, &term.affinity());
        if term.overflow_affinities.is_empty() {
            continue;
        }
        if !overflow_allowed {
            admission.error(
                &format!("{field}.overflowAffinities"),
                "needs Divided scheduling with Aggregated or dynamicWeight division",
            );
        }
        if term.affinity() == crate::api::karmada::ClusterAffinity::default() {
            admission.error(
                &format!("{field}.overflowAffinities"),
                "needs a primary affinity (labelSelector, fieldSelector, clusterNames or exclude) on the term",
            );
        }
        for (position, overflow) in term.overflow_affinities.iter().enumerate() {
            let at = format!("{field}.overflowAffinities[{position}]");
            check_name(
                admission,
                &format!("{at}.affinityName"),
                &overflow.affinity_name,
            );
            check_cluster_affinity(admission, &at, &overflow.affinity());
        }
    }
}

/// karmada validation.go `ValidateSpreadConstraint`.
fn admit_spread_constraints(admission: &mut Admission<'_>, constraints: &[SpreadConstraint]) {
    let mut fields = std::collections::BTreeSet::new();
    let mut has_cluster = false;
    let mut has_field = false;
    for (index, constraint) in constraints.iter().enumerate() {
        let at = format!("spec.placement.spreadConstraints[{index}]");
        if constraint.spread_by_field.is_some() && constraint.spread_by_label.is_some() {
            admission.error(
                &at,
                "spreadByField and spreadByLabel cannot be used together",
            );
        }
        let field = match (&constraint.spread_by_field, &constraint.spread_by_label) {
            (Some(field), _) => Some(field.as_str()),
            (None, None) => Some("cluster"),
            (None, Some(_)) => None,
        };
        if let Some(field) = field {
            if !matches!(field, "cluster" | "region" | "zone" | "provider") {
                admission.error(
                    &format!("{at}.spreadByField"),
                    format!("{field:?} is not one of cluster, region, zone, provider"),
                );
            }
            if !fields.insert(field.to_string()) {
                admission.error(
                    &format!("{at}.spreadByField"),
                    format!("{field} is used twice"),
                );
            }
            has_cluster |= field == "cluster";
            has_field |= constraint.spread_by_field.is_some();
        }
        let min_groups = if constraint.min_groups == 0 {
            1
        } else {
            constraint.min_groups
        };
        if constraint.min_groups < 0 {
            admission.error(&format!("{at}.minGroups"), "must not be negative");
        }
        if constraint.max_groups < 0 {
            admission.error(&format!("{at}.maxGroups"), "must not be negative");
        }
        if constraint.max_groups > 0 && constraint.max_groups < min_groups {
            admission.error(
                &format!("{at}.maxGroups"),
                format!(
                    "{} is smaller than minGroups {min_groups}",
                    constraint.max_groups
                ),
            );
        }
    }
    if has_field && !has_cluster {
        admission.error(
            "spec.placement.spreadConstraints",
            "a spreadByField constraint needs a spreadByField: cluster constraint too",
        );
    }
}

/// Field selectors may only use provider, region and zone with In and NotIn (karmada
/// validation.go `ValidatePolicyFieldSelector`), and must be a selector Kubernetes can build
/// ([`field_selector_conversion_problems`]).
pub(crate) fn check_cluster_affinity_fields(
    field: &str,
    affinity: &ClusterAffinity,
) -> Vec<(String, String)> {
    let mut problems = Vec::new();
    if let Some(FieldSelector { match_expressions }) = &affinity.field_selector {
        for (index, requirement) in match_expressions.iter().enumerate() {
            let at = format!("{field}.fieldSelector.matchExpressions[{index}]");
            let key = requirement.key.as_str();
            let key_allowed = matches!(key, "provider" | "region" | "zone");
            if !key_allowed {
                problems.push((
                    format!("{at}.key"),
                    format!("{key:?} is not one of provider, region, zone"),
                ));
            }
            let operator_allowed = matches!(
                requirement.operator,
                SelectorOperator::In | SelectorOperator::NotIn
            );
            if !operator_allowed {
                problems.push((
                    format!("{at}.operator"),
                    format!("{} is not allowed; use In or NotIn", requirement.operator),
                ));
            }
            if key_allowed && operator_allowed {
                problems.extend(field_selector_conversion_problems(&at, requirement));
            }
        }
    }
    problems
}

/// What Karmada's `ClusterMatches` cannot build from one field selector requirement, so that
/// it matches no cluster. `zone` is compared with the cluster's zones directly and fails only on
/// an operator it does not know (karmada pkg/util/selector.go `matchZones`); other keys go
/// through a label selector (karmada pkg/util/lifted/nodeaffinity.go
/// `NodeSelectorRequirementsAsSelector`, then `labels.NewRequirement`), which needs a valid key,
/// label values, values for In/NotIn and none for Exists/DoesNotExist.
fn field_selector_conversion_problems(
    at: &str,
    requirement: &NodeSelectorRequirement,
) -> Vec<(String, String)> {
    const CONSEQUENCE: &str =
        "Kubernetes cannot build the selector, so Karmada would match no cluster";
    let mut problems = Vec::new();
    let operator = &requirement.operator;
    if let SelectorOperator::Unknown(spelling) = operator {
        problems.push((
            format!("{at}.operator"),
            format!(
                "{spelling:?} is not a selector operator fedrender knows (In, NotIn, Exists, DoesNotExist)"
            ),
        ));
        return problems;
    }
    if requirement.key == "zone" {
        return problems;
    }
    if let Some(problem) = names::qualified_name_problem(&requirement.key) {
        problems.push((
            format!("{at}.key"),
            format!("{:?} {problem}; {CONSEQUENCE}", requirement.key),
        ));
    }
    match operator {
        SelectorOperator::In | SelectorOperator::NotIn if requirement.values.is_empty() => {
            problems.push((
                format!("{at}.values"),
                format!("{operator} needs at least one value; {CONSEQUENCE}"),
            ));
        }
        SelectorOperator::Exists | SelectorOperator::DoesNotExist
            if !requirement.values.is_empty() =>
        {
            problems.push((
                format!("{at}.values"),
                format!("{operator} takes no values; {CONSEQUENCE}"),
            ));
        }
        _ => {}
    }
    for (index, value) in requirement.values.iter().enumerate() {
        if let Some(problem) = names::label_value_problem(value) {
            problems.push((
                format!("{at}.values[{index}]"),
                format!("{value:?} {problem}; {CONSEQUENCE}"),
            ));
        }
    }
    problems
}

/// A static weight's target: Karmada's webhook checks nothing in it, and a selector Kubernetes
/// cannot build selects no cluster (karmada pkg/util/selector.go `ClusterMatches`), so its
/// replicas silently go to the other targets. fedrender refuses it, as a split nobody meant.
fn check_static_weight_target(
    admission: &mut Admission<'_>,
    field: &str,
    target: &ClusterAffinity,
) {
    if let Some(selector) = &target.label_selector {
        check_label_selector(admission, &format!("{field}.labelSelector"), selector);
    }
    if let Some(FieldSelector { match_expressions }) = &target.field_selector {
        for (index, requirement) in match_expressions.iter().enumerate() {
            let at = format!("{field}.fieldSelector.matchExpressions[{index}]");
            for (at, problem) in field_selector_conversion_problems(&at, requirement) {
                admission.error(&at, problem);
            }
        }
    }
}

fn check_cluster_affinity(admission: &mut Admission<'_>, field: &str, affinity: &ClusterAffinity) {
    for (at, problem) in check_cluster_affinity_fields(field, affinity) {
        admission.error(&at, problem);
    }
    if let Some(selector) = &affinity.label_selector {
        check_label_selector(admission, &format!("{field}.labelSelector"), selector);
    }
}

pub(crate) fn admit_override(
    located: &Located<OverridePolicy>,
    warnings: &mut Vec<Diagnostic>,
) -> Result<Override, Rejected> {
    let policy = &located.item;
    let id = policy_id(
        &policy.kind,
        policy.kind == "OverridePolicy",
        policy.metadata.namespace.as_deref(),
        &policy.metadata.name,
    );
    let mut admission = Admission::new(located, &id);
    check_policy_name(&mut admission, &policy.metadata.name);
    let spec = &policy.spec;
    let resource_selectors = admit_selectors(&mut admission, &id, &spec.resource_selectors);
    let deprecated_overriders_set = !spec.overriders.is_empty_ignoring_field_overrider();
    let rules = if !spec.override_rules.is_empty() {
        if spec.target_cluster.is_some() {
            admission.error(
                "spec.targetCluster",
                "cannot be combined with spec.overrideRules",
            );
        }
        if deprecated_overriders_set {
            admission.error(
                "spec.overriders",
                "cannot be combined with spec.overrideRules",
            );
        }
        if !spec.overriders.field_overrider.is_empty() {
            admission.warning(
                Lint::IgnoredField,
                "spec.overriders.fieldOverrider",
                "is ignored by Karmada next to spec.overrideRules (karmada#7875); move it into a rule",
            );
        }
        spec.override_rules
            .iter()
            .enumerate()
            .map(|(index, rule)| {
                let field = format!("spec.overrideRules[{index}]");
                check_rule_overriders(&mut admission, &field, &rule.overriders);
                OverrideRule {
                    target_cluster: rule.target_cluster.clone(),
                    overriders: rule.overriders.clone(),
                    field,
                }
            })
            .collect()
    } else {
        // The deprecated form skips the per-rule checks in Karmada's validation.
        vec![OverrideRule {
            target_cluster: spec.target_cluster.clone(),
            overriders: spec.overriders.clone(),
            field: "spec".to_string(),
        }]
    };
    for (index, rule) in rules.iter().enumerate() {
        if let Some(target) = &rule.target_cluster {
            let field = if spec.override_rules.is_empty() {
                "spec.targetCluster".to_string()
            } else {
                format!("spec.overrideRules[{index}].targetCluster")
            };
            check_cluster_affinity(&mut admission, &field, target);
        }
        for (entry, plaintext) in rule.overriders.plaintext.iter().enumerate() {
            if !plaintext.path.is_empty() && !plaintext.path.starts_with('/') {
                admission.error(
                    &format!(
                        "{}.plaintext[{entry}].path",
                        rule_field(spec.override_rules.is_empty(), index)
                    ),
                    format!(
                        "{:?} is not a JSON pointer; it must start with '/'",
                        plaintext.path
                    ),
                );
            }
        }
    }
    let admitted = Override {
        id: id.clone(),
        origin: located.origin.clone(),
        fields: located.fields.clone(),
        resource_selectors,
        rules,
    };
    admission.finish(admitted, warnings)
}

fn rule_field(deprecated: bool, index: usize) -> String {
    if deprecated {
        "spec.overriders".to_string()
    } else {
        format!("spec.overrideRules[{index}].overriders")
    }
}

/// The checks Karmada runs on each entry of `overrideRules` (not on the deprecated form).
fn check_rule_overriders(admission: &mut Admission<'_>, field: &str, overriders: &Overriders) {
    for (index, labels) in overriders.labels_overrider.iter().enumerate() {
        for (key, value) in &labels.value {
            let at = format!("{field}.overriders.labelsOverrider[{index}].value");
            if let Some(problem) = names::qualified_name_problem(key) {
                admission.error(&at, format!("label key {key:?} {problem}"));
            }
            if let Some(problem) = names::label_value_problem(value) {
                admission.error(&at, format!("label value {value:?} {problem}"));
            }
        }
    }
    for (index, annotations) in overriders.annotations_overrider.iter().enumerate() {
        let at = format!("{field}.overriders.annotationsOverrider[{index}].value");
        for key in annotations.value.keys() {
            if let Some(problem) = names::qualified_name_problem(key) {
                admission.error(&at, format!("annotation key {key:?} {problem}"));
            }
        }
        let size: usize = annotations
            .value
            .iter()
            .map(|(k, v)| k.len() + v.len())
            .sum();
        if size > 256 * 1024 {
            admission.error(&at, "annotations may total at most 256 KiB");
        }
    }
    for (index, image) in overriders.image_overrider.iter().enumerate() {
        if let Some(predicate) = &image.predicate
            && !predicate.path.is_empty()
            && !predicate.path.starts_with('/')
        {
            admission.error(
                &format!("{field}.overriders.imageOverrider[{index}].predicate.path"),
                format!("{:?} must be empty or start with '/'", predicate.path),
            );
        }
    }
    for (index, field_overrider) in overriders.field_overrider.iter().enumerate() {
        let at = format!("{field}.overriders.fieldOverrider[{index}]");
        match (
            field_overrider.json.is_empty(),
            field_overrider.yaml.is_empty(),
        ) {
            (false, false) => admission.error(&at, "set either json or yaml, not both"),
            (true, true) => admission.error(&at, "needs json or yaml operations"),
            _ => {}
        }
        if !field_overrider.field_path.is_empty() && !field_overrider.field_path.starts_with('/') {
            admission.error(
                &format!("{at}.fieldPath"),
                format!(
                    "{:?} must be empty or start with '/'",
                    field_overrider.field_path
                ),
            );
        }
        let operations = field_overrider
            .json
            .iter()
            .map(|op| ("json", op))
            .chain(field_overrider.yaml.iter().map(|op| ("yaml", op)));
        for (position, (format, operation)) in operations.enumerate() {
            let op_field = format!("{at}.{format}[{position}]");
            if !operation.sub_path.is_empty() && !operation.sub_path.starts_with('/') {
                admission.error(
                    &format!("{op_field}.subPath"),
                    format!("{:?} must be empty or start with '/'", operation.sub_path),
                );
            }
            use crate::api::karmada::OverriderOperator;
            match (operation.operator, operation.value.is_some()) {
                (OverriderOperator::Remove, true) => {
                    admission.error(&op_field, "remove takes no value")
                }
                (OverriderOperator::Add | OverriderOperator::Replace, false) => {
                    admission.error(&op_field, "add and replace need a value")
                }
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn propagation(value: serde_json::Value) -> Result<Propagation, Rejected> {
        let item: PropagationPolicy = serde_json::from_value(value).unwrap();
        admit_propagation(
            &Located {
                origin: Origin::new("p.yaml", 0, 1),
                item,
                fields: crate::diagnostics::FieldLines::default(),
            },
            &mut Vec::new(),
        )
    }

    fn override_policy(value: serde_json::Value) -> Result<Override, Rejected> {
        let item: OverridePolicy = serde_json::from_value(value).unwrap();
        admit_override(
            &Located {
                origin: Origin::new("o.yaml", 0, 1),
                item,
                fields: crate::diagnostics::FieldLines::default(),
            },
            &mut Vec::new(),
        )
    }

    fn messages(rejected: Rejected) -> String {
        rejected.to_string()
    }

    // karmada pkg/webhook/propagationpolicy/mutating.go: selectors take the policy namespace.
    #[test]
    fn propagation_policy_selectors_default_to_its_namespace() {
        let admitted = propagation(
            json!({"apiVersion": "policy.karmada.io/v1alpha1", "kind": "PropagationPolicy",
            "metadata": {"name": "p", "namespace": "apps"},
            "spec": {"resourceSelectors": [{"apiVersion": "v1", "kind": "ConfigMap"}]}}),
        )
        .unwrap();
        assert_eq!(admitted.resource_selectors[0].namespace, "apps");
        let unnamespaced = propagation(
            json!({"apiVersion": "policy.karmada.io/v1alpha1", "kind": "PropagationPolicy",
            "metadata": {"name": "p"},
            "spec": {"resourceSelectors": [{"apiVersion": "v1", "kind": "ConfigMap"}]}}),
        )
        .unwrap();
        assert_eq!(unnamespaced.resource_selectors[0].namespace, "default");
        let cluster_wide = propagation(
            json!({"apiVersion": "policy.karmada.io/v1alpha1", "kind": "ClusterPropagationPolicy",
            "metadata": {"name": "p"},
            "spec": {"resourceSelectors": [{"apiVersion": "v1", "kind": "ConfigMap"}]}}),
        )
        .unwrap();
        assert_eq!(cluster_wide.resource_selectors[0].namespace, "");
    }

    // karmada pkg/util/validation/validation_test.go TestValidatePropagationSpec cases.
    #[test]
    fn propagation_validation_rejects_what_karmada_rejects() {
        let rejected = propagation(json!({"apiVersion": "policy.karmada.io/v1alpha1", "kind": "PropagationPolicy",
            "metadata": {"name": "p", "namespace": "apps"},
            "spec": {"resourceSelectors": [{"apiVersion": "v1", "kind": "ConfigMap", "namespace": "other"}],
                "preemption": "Always",
                "placement": {"clusterAffinity": {"fieldSelector": {"matchExpressions": [
                    {"key": "color", "operator": "Exists"}]}},
                    "clusterTolerations": [{"key": "a", "operator": "Gt", "value": "1"}]}}}))
        .unwrap_err();
        let text = messages(rejected);
        assert!(
            text.contains("spec.resourceSelectors[0].namespace: \"other\" differs"),
            "{text}"
        );
        assert!(text.contains("spec.preemption: Always requires"), "{text}");
        assert!(
            text.contains("matchExpressions[0].key: \"color\" is not one of"),
            "{text}"
        );
        assert!(
            text.contains("matchExpressions[0].operator: Exists is not allowed"),
            "{text}"
        );
        assert!(text.contains("clusterTolerations[0].operator"), "{text}");
    }

    // karmada pkg/util/validation/validation_test.go TestValidateSpreadConstraint and
    // TestValidateClusterAffinities.
    #[test]
    fn spread_constraints_and_affinity_terms_are_validated() {
        let text = messages(
            propagation(json!({"apiVersion": "policy.karmada.io/v1alpha1", "kind": "ClusterPropagationPolicy",
                "metadata": {"name": "p"},
                "spec": {"resourceSelectors": [{"apiVersion": "v1", "kind": "ConfigMap"}],
                    "placement": {
                        "spreadConstraints": [
                            {"spreadByField": "region", "spreadByLabel": "x", "minGroups": 3, "maxGroups": 2},
                            {"spreadByField": "zone", "minGroups": -1}],
                        "clusterAffinities": [
                            {"affinityName": "a", "clusterNames": ["m1"], "overflowAffinities": [{"affinityName": "a"}]},
                            {"affinityName": "this-name-is-far-too-long-for-karmada"}],
                        "replicaScheduling": {"replicaSchedulingType": "Divided",
                            "weightPreference": {"staticWeightList": [{"targetCluster": {}, "weight": 0}]}}}}}))
            .unwrap_err(),
        );
        for expected in [
            "spreadConstraints[0]: spreadByField and spreadByLabel cannot be used together",
            "spreadConstraints[0].maxGroups: 2 is smaller than minGroups 3",
            "spreadConstraints[1].minGroups: must not be negative",
            "a spreadByField constraint needs a spreadByField: cluster constraint too",
            "clusterAffinities[0].overflowAffinities: needs Divided scheduling with Aggregated or dynamicWeight",
            "clusterAffinities[0].overflowAffinities[0].affinityName: \"a\" is used twice",
            "clusterAffinities[1].affinityName: \"this-name-is-far-too-long-for-karmada\" must be 1 to 32 characters",
            "staticWeightList[0].weight: 0 is below the minimum of 1",
        ] {
            assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
        }
    }

    /// karmada pkg/util/selector.go `ResourceSelectorPriority`: a label selector that
    /// `LabelSelectorAsSelector` refuses is a mismatch, and Karmada's webhook accepts it, so the
    /// policy is admitted with a warning and selects nothing by labels. In a cluster affinity
    /// fedrender refuses it.
    #[test]
    fn a_resource_selector_that_cannot_be_converted_warns_and_matches_nothing() {
        let policy = |selector: serde_json::Value| {
            json!({"apiVersion": "policy.karmada.io/v1alpha1", "kind": "ClusterPropagationPolicy",
                "metadata": {"name": "p"},
                "spec": {"resourceSelectors": [selector], "placement": {}}})
        };
        let mut warnings = Vec::new();
        let admitted = admit_propagation(
            &Located {
                origin: Origin::new("p.yaml", 0, 1),
                item: serde_json::from_value(policy(
                    json!({"apiVersion": "v1", "kind": "ConfigMap",
                    "labelSelector": {"matchLabels": {"app": "<app name>"},
                        "matchExpressions": [{"key": "a", "operator": "In"}]}}),
                ))
                .unwrap(),
                fields: crate::diagnostics::FieldLines::default(),
            },
            &mut warnings,
        )
        .unwrap();
        let text = messages(warnings.into());
        assert!(
            text.contains(
                "spec.resourceSelectors[0].labelSelector.matchLabels.app: value \"<app name>\""
            ),
            "{text}"
        );
        assert!(text.contains("operator In needs at least one value; Karmada cannot convert the selector, so it never matches"), "{text}");
        let selector = admitted.resource_selectors[0]
            .label_selector
            .as_ref()
            .unwrap();
        assert!(!selector.matches(&std::collections::BTreeMap::from([(
            "a".to_string(),
            "x".to_string()
        )])));
        let refused = propagation(json!({"apiVersion": "policy.karmada.io/v1alpha1",
            "kind": "ClusterPropagationPolicy", "metadata": {"name": "p"},
            "spec": {"resourceSelectors": [{"apiVersion": "v1", "kind": "ConfigMap"}],
                "placement": {"clusterAffinity": {"labelSelector": {"matchExpressions": [
                    {"key": "a", "operator": "In"}]}}}}}))
        .unwrap_err();
        assert!(messages(refused).contains("operator In needs at least one value"));
    }

    /// `matchExpressions` go through `labels.NewRequirement` inside `LabelSelectorAsSelector`,
    /// which checks every value and knows four operators; Karmada's webhooks check neither (karmada
    /// pkg/util/validation/validation.go `validateResourceSelectors` reads only the namespace).
    /// Confirmed with the oracle (Karmada f8fdd02): a PropagationPolicy and an OverridePolicy
    /// selecting by `{key: app, operator: Equals}` or by `In [web, "bad value"]` are admitted,
    /// the policy selects nothing and neither override is applied.
    #[test]
    fn match_expressions_karmada_cannot_convert_warn_and_match_nothing() {
        let labels = std::collections::BTreeMap::from([("app".to_string(), "web".to_string())]);
        let selectors = json!([
            {"apiVersion": "v1", "kind": "ConfigMap", "labelSelector": {"matchExpressions": [
                {"key": "app", "operator": "In", "values": ["web", "bad value"]}]}},
            {"apiVersion": "v1", "kind": "ConfigMap", "labelSelector": {"matchExpressions": [
                {"key": "app", "operator": "Equals", "values": ["web"]}]}}]);
        fn located<T: serde::de::DeserializeOwned>(policy: serde_json::Value) -> Located<T> {
            Located {
                origin: Origin::new("p.yaml", 0, 1),
                item: serde_json::from_value(policy).unwrap(),
                fields: crate::diagnostics::FieldLines::default(),
            }
        }
        let mut warnings = Vec::new();
        let propagation = admit_propagation(
            &located(json!({"apiVersion": "policy.karmada.io/v1alpha1",
                "kind": "ClusterPropagationPolicy", "metadata": {"name": "p"},
                "spec": {"resourceSelectors": selectors, "placement": {}}})),
            &mut warnings,
        )
        .unwrap();
        let overrides = admit_override(
            &located(json!({"apiVersion": "policy.karmada.io/v1alpha1",
                "kind": "ClusterOverridePolicy", "metadata": {"name": "o"},
                "spec": {"resourceSelectors": selectors, "overrideRules": [{"overriders":
                    {"labelsOverrider": [{"operator": "add", "value": {"o": "x"}}]}}]}})),
            &mut warnings,
        )
        .unwrap();
        for selectors in [
            &propagation.resource_selectors,
            &overrides.resource_selectors,
        ] {
            for selector in selectors.iter() {
                assert!(!selector.label_selector.as_ref().unwrap().matches(&labels));
            }
        }
        let text = messages(warnings.into());
        for expected in [
            "spec.resourceSelectors[0].labelSelector.matchExpressions[0].values[1]: value \"bad value\" must consist of",
            "spec.resourceSelectors[1].labelSelector.matchExpressions[0].operator: \"Equals\" is not a label selector operator (In, NotIn, Exists, DoesNotExist); Karmada cannot convert the selector, so it never matches",
        ] {
            assert_eq!(
                text.matches(expected).count(),
                2,
                "{expected:?} in:\n{text}"
            );
        }
    }

    /// karmada pkg/util/selector.go `ClusterMatches` returns false for a target whose label or
    /// field selector Kubernetes cannot build, and no webhook looks at static weights: Karmada
    /// would split 8:0 where the author wrote 6:2. fedrender refuses the target at its field.
    #[test]
    fn a_static_weight_target_kubernetes_cannot_build_is_refused() {
        let text = messages(
            propagation(json!({"apiVersion": "policy.karmada.io/v1alpha1", "kind": "ClusterPropagationPolicy",
                "metadata": {"name": "p"},
                "spec": {"resourceSelectors": [{"apiVersion": "apps/v1", "kind": "Deployment"}],
                    "placement": {"replicaScheduling": {"replicaSchedulingType": "Divided",
                        "weightPreference": {"staticWeightList": [
                            {"targetCluster": {"labelSelector": {"matchExpressions": [
                                {"key": "tier", "operator": "In", "values": ["front end"]}]}}, "weight": 3},
                            {"targetCluster": {"labelSelector": {"matchExpressions": [
                                {"key": "tier", "operator": "Equals", "values": ["x"]}]}}, "weight": 1},
                            {"targetCluster": {"fieldSelector": {"matchExpressions": [
                                {"key": "region", "operator": "In", "values": ["eu west"]},
                                {"key": "provider", "operator": "In"},
                                {"key": "zone", "operator": "Equals", "values": ["a"]}]}}, "weight": 1},
                            {"targetCluster": {"fieldSelector": {"matchExpressions": [
                                {"key": "region", "operator": "Exists"}]}}, "weight": 1}]}}}}}))
            .unwrap_err(),
        );
        let at = "spec.placement.replicaScheduling.weightPreference.staticWeightList";
        for expected in [
            format!(
                "{at}[0].targetCluster.labelSelector.matchExpressions[0].values[0]: value \"front end\" must consist of"
            ),
            format!(
                "{at}[1].targetCluster.labelSelector.matchExpressions[0].operator: \"Equals\" is not a label selector operator"
            ),
            format!(
                "{at}[2].targetCluster.fieldSelector.matchExpressions[0].values[0]: \"eu west\" must consist of"
            ),
            format!(
                "{at}[2].targetCluster.fieldSelector.matchExpressions[1].values: In needs at least one value"
            ),
            format!(
                "{at}[2].targetCluster.fieldSelector.matchExpressions[2].operator: \"Equals\" is not a selector operator"
            ),
        ] {
            assert!(text.contains(&expected), "missing {expected:?} in:\n{text}");
        }
        // Exists builds (the webhook's In/NotIn rule is for placement, not for static weights).
        assert!(!text.contains(&format!("{at}[3]")), "{text}");
    }

    #[test]
    fn the_deprecated_override_form_becomes_one_rule() {
        let admitted = override_policy(json!({"apiVersion": "policy.karmada.io/v1alpha1", "kind": "OverridePolicy",
            "metadata": {"name": "o"},
            "spec": {"resourceSelectors": [{"apiVersion": "apps/v1", "kind": "Deployment", "name": "nginx"}],
                "targetCluster": {"clusterNames": ["cluster1"]},
                "overriders": {"plaintext": [{"path": "/spec/template/spec/containers/0/image",
                    "operator": "replace", "value": "nginx:test"}]}}}))
        .unwrap();
        assert_eq!(admitted.rules.len(), 1);
        assert_eq!(
            admitted.rules[0]
                .target_cluster
                .as_ref()
                .unwrap()
                .cluster_names,
            vec!["cluster1"]
        );
        assert_eq!(admitted.resource_selectors[0].namespace, "default");
    }

    // karmada pkg/util/validation/validation_test.go TestValidateOverrideSpec cases.
    #[test]
    fn override_validation_rejects_what_karmada_rejects() {
        let text = messages(
            override_policy(json!({"apiVersion": "policy.karmada.io/v1alpha1", "kind": "ClusterOverridePolicy",
                "metadata": {"name": "o"},
                "spec": {"targetCluster": {"clusterNames": ["a"]},
                    "overrideRules": [{"overriders": {
                        "labelsOverrider": [{"operator": "add", "value": {"a~b": "x"}}],
                        "imageOverrider": [{"component": "Tag", "operator": "replace", "value": "v", "predicate": {"path": "spec/x"}}],
                        "fieldOverrider": [{"fieldPath": "/data/x", "json": [{"subPath": "/a", "operator": "remove", "value": 1}],
                            "yaml": [{"subPath": "/b", "operator": "add"}]}],
                        "plaintext": [{"path": "spec/replicas", "operator": "replace", "value": 1}]}}]}}))
            .unwrap_err(),
        );
        for expected in [
            "spec.targetCluster: cannot be combined",
            "label key \"a~b\"",
            "predicate.path: \"spec/x\" must be empty or start with '/'",
            "fieldOverrider[0]: set either json or yaml, not both",
            "json[0]: remove takes no value",
            "yaml[1]: add and replace need a value",
            "plaintext[0].path: \"spec/replicas\" is not a JSON pointer",
        ] {
            assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
        }
    }
}
