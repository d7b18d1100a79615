//! Where one template goes: Karmada's binding and scheduling for it (the winning policy, the
//! target clusters with their replicas), the namespace controller's clusters, the dependencies
//! a workload takes along (`propagateDeps`), and suspension.

use std::collections::BTreeMap;

use crate::api::cluster::Cluster;
use crate::api::selector::ImplicitPriority;
use crate::bind::{self, PolicyIndex};
use crate::controllers::namespace_sync;
use crate::diagnostics::{Diagnostic, Rejected};
use crate::fleet::Fleet;
use crate::interpret::Dependency;
use crate::lint::Lint;
use crate::object::{ObjectKey, Template};
use crate::overrides::OverrideIndex;
use crate::policy::Propagation;
use crate::quantity::Quantity;
use crate::schedule::{self, Filtered, Target, Targets, Workload};

/// What happened to one template, before its objects are built.
#[derive(Debug)]
pub(super) struct Placement {
    /// Where its objects go: what its own binding dispatches, and what templates that depend
    /// on it take it to.
    pub(super) targets: Targets,
    /// What the scheduler decided for its own binding, before suspension, when that is not
    /// `targets`: what a dependent's binding records of it (karmada
    /// dependencies_distributor.go `buildAttachedBinding`).
    pub(super) scheduled: Option<Targets>,
    /// Karmada's `IsWorkload` for its own binding: its replicas are revised per cluster.
    pub(super) is_workload: bool,
    /// What one replica requests, as its own binding's `replicaRequirements.resourceRequest`
    /// holds it (empty without a binding of its own, or without requests).
    pub(super) request: BTreeMap<String, Quantity>,
    pub(super) override_policies: Vec<usize>,
    /// Whether the winning policy sends the template's dependencies along.
    pub(super) propagate_deps: bool,
    /// Why the template goes nowhere, warned about unless a dependant takes it along.
    pub(super) nowhere: Option<String>,
    /// Matching propagation policies with their implicit priority, and the winner.
    pub(super) candidates: Vec<(usize, ImplicitPriority)>,
    pub(super) winner: Option<usize>,
    pub(super) placed_by: Vec<String>,
    pub(super) filtered: Vec<(String, Filtered)>,
    /// How the scheduler divided the replicas of a Divided workload (kept only to explain).
    pub(super) division: Option<schedule::divide::Division>,
    /// Whether a live Karmada may divide them otherwise (kept always, for `diff`, which does
    /// not explain).
    pub(super) may_divide_otherwise_live: bool,
    /// What makes Karmada keep its objects on the members when the template is deleted
    /// (`preserveResourcesOnDeletion`): its own policy, or a dependant's.
    pub(super) preserved_by: Option<String>,
    /// Where only some of its copies are preserved, the clusters (inventory positions) whose
    /// copies are: a Namespace's policy preserves the copies on its own clusters, and the
    /// copies Karmada's namespace controller makes on the others carry no preserve setting.
    pub(super) preserved_only_on: Option<Vec<usize>>,
    /// What `plan` says of it beyond placement (a MultiClusterService's story).
    pub(super) notes: Vec<String>,
    /// The MultiClusterService that took the template from its policies.
    pub(super) claimed_by: Option<String>,
}

impl Placement {
    /// What the scheduler decided for the template's own binding, before suspension.
    pub(super) fn scheduled(&self) -> &Targets {
        self.scheduled.as_ref().unwrap_or(&self.targets)
    }

    /// Sends the template's objects to `targets`, remembering what the scheduler decided.
    pub(super) fn redirect(&mut self, targets: Targets) {
        if targets == self.targets {
            return;
        }
        let scheduled = std::mem::replace(&mut self.targets, targets);
        self.scheduled.get_or_insert(scheduled);
    }
}

/// Binds and schedules one template; the namespace controller adds every cluster for the
/// namespaces it propagates. Why clusters were filtered out is kept only to `explain`.
pub(super) fn place_template(
    fleet: &Fleet,
    (index, override_index): (&PolicyIndex<'_>, &OverrideIndex<'_>),
    cluster_index: &BTreeMap<&str, usize>,
    template: &Template,
    explain: bool,
) -> Result<Placement, Rejected> {
    let candidates = index.matching(template);
    let mut placement = Placement {
        targets: Targets::default(),
        scheduled: None,
        is_workload: false,
        request: BTreeMap::new(),
        override_policies: override_index.policies_for(template),
        propagate_deps: false,
        nowhere: None,
        candidates,
        winner: None,
        placed_by: Vec::new(),
        filtered: Vec::new(),
        division: None,
        may_divide_otherwise_live: false,
        preserved_by: None,
        preserved_only_on: None,
        notes: Vec::new(),
        claimed_by: None,
    };
    if let Some(reason) = bind::never_propagated(template) {
        placement.nowhere = Some(format!("{} is rendered nowhere: {reason}", template.key));
        return Ok(placement);
    }
    let bad_input = |message: String| {
        Rejected::from(Diagnostic::error(
            Some(template.origin.clone()),
            format!("{}: {message}", template.key),
        ))
    };
    match index.bind(&placement.candidates) {
        Some(binding) => {
            let policy = &fleet.propagations[binding.policy];
            let workload = Workload::of(&fleet.interpreter, template).map_err(bad_input)?;
            let schedule = schedule::schedule(
                template,
                &workload,
                policy,
                &fleet.clusters,
                fleet.schedule_options(),
            );
            placement.propagate_deps = policy.propagate_deps;
            placement.nowhere = Some(match (&schedule.failure, policy.suspension.dispatching) {
                (_, Some(true)) => format!(
                    "{} is rendered nowhere: {} suspends dispatching",
                    template.key, policy.id
                ),
                (Some(failure), _) => format!(
                    "{} is rendered nowhere: {} selects it but Karmada would not schedule it: {failure}",
                    template.key, policy.id
                ),
                (None, _) => format!(
                    "{} is rendered nowhere: {} suspends dispatching to every cluster it schedules",
                    template.key, policy.id
                ),
            });
            if !schedule.kept_empty.is_empty() {
                placement.notes.push(format!(
                    "on {} with 0 replicas: karmada-scheduler's empty-workload propagation \
                     (spec.karmada.scheduler.enableEmptyWorkloadPropagation) keeps every \
                     cluster it selected, where the division gives none",
                    schedule.kept_empty.join(", ")
                ));
            }
            placement.is_workload = workload.is_workload;
            placement.request = workload.request.clone();
            placement.targets = Targets::from_scheduled(&schedule.targets, cluster_index);
            if let Some(dispatched) = suspend(policy, &placement.targets, &fleet.clusters) {
                placement.redirect(dispatched);
            }
            placement.winner = Some(binding.policy);
            placement.preserved_by = policy.preserves_on_deletion.then(|| policy.id.to_string());
            placement.may_divide_otherwise_live = schedule
                .division
                .as_ref()
                .is_some_and(schedule::divide::Division::may_divide_otherwise_live);
            if explain {
                placement.filtered = schedule.filtered;
                placement.division = schedule.division;
            }
            if !placement.targets.is_empty() {
                placement.placed_by.push(policy.id.to_string());
            }
        }
        None => {
            placement.nowhere = Some(format!(
                "{} is rendered nowhere: no PropagationPolicy or ClusterPropagationPolicy selects it",
                template.key
            ));
        }
    }
    if namespace_sync::is_auto_propagated(template) {
        // karmada namespace_sync_controller.go `buildWorks`: its Works are made with no
        // preserve setting (CreateOrUpdateWork with no options), while the policy's binding
        // writes the Work of the same name on its own clusters with the policy's
        // preserveResourcesOnDeletion (binding common.go `ensureWork`): only those copies are
        // kept when the Namespace is deleted.
        if placement.preserved_by.is_some() {
            let mut own: Vec<usize> = placement.targets.clusters().collect();
            own.sort_unstable();
            placement.preserved_only_on = Some(own);
        }
        placement.placed_by.push(
            "Karmada's namespace controller (every Namespace goes to every cluster)".to_string(),
        );
        placement.redirect(
            (0..fleet.clusters.len())
                .map(|cluster| Target {
                    cluster,
                    replicas: None,
                    completions: None,
                })
                .collect(),
        );
    }
    Ok(placement)
}

/// propagateDeps, as Karmada's dependencies distributor and binding controller do it
/// (karmada pkg/dependenciesdistributor/dependencies_distributor.go, pkg/controllers/binding
/// common.go `ensureWork`, `mergeTargetClusters`):
///
/// - only a ResourceBinding's dependencies are followed: a cluster-scoped parent's
///   ClusterResourceBinding attaches nothing;
/// - a dependent's binding records each parent's scheduled clusters with their replicas
///   (`RequiredBy`), whatever the parent's suspension, which `buildAttachedBinding` does not copy;
/// - its Works go to its own scheduled clusters, then to every parent's clusters not among them,
///   in parent order;
/// - when it has a binding of its own (a policy bound it), that binding's suspension holds for
///   every one of those clusters, and a workload's replicas are revised on a parent's cluster to
///   the parent's count there (0 where the parent is not a workload); a Divided Job's
///   `completions` are then divided over all of them (`ensureWork` divides over the merged
///   clusters); without one, nothing is suspended or revised.
///
/// Parents are taken in template order, so where two parents share a cluster the first's
/// replicas win (Karmada takes the order its controller saw them in).
pub(super) fn follow_dependencies(
    fleet: &Fleet,
    placements: &mut [Placement],
    warnings: &mut Vec<Diagnostic>,
) -> Result<(), Rejected> {
    let by_key: BTreeMap<&ObjectKey, usize> = fleet
        .templates
        .iter()
        .enumerate()
        .map(|(position, template)| (&template.key, position))
        .collect();
    let mut required_by: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    let mut errors = Vec::new();
    for (position, template) in fleet.templates.iter().enumerate() {
        let placement = &placements[position];
        if !placement.propagate_deps
            || placement.scheduled().is_empty()
            || template.namespace().is_empty()
        {
            continue;
        }
        let dependencies = match fleet.interpreter.dependencies(template) {
            Ok(found) => {
                if let Some(failure) = found.failure {
                    warnings.push(Diagnostic::warning(
                        Lint::DependenciesNotFollowed,
                        Some(template.origin.clone()),
                        format!(
                            "{}: {failure}; Karmada propagates it without its dependencies",
                            template.key
                        ),
                    ));
                }
                found.dependencies
            }
            Err(problem) => {
                errors.push(Diagnostic::error(
                    Some(template.origin.clone()),
                    format!("{}: {problem}", template.key),
                ));
                continue;
            }
        };
        let mut dependents: Vec<usize> = Vec::new();
        for dependency in &dependencies {
            match dependency {
                Dependency::Named(key) => dependents.extend(by_key.get(key).copied()),
                Dependency::Labelled {
                    group,
                    kind,
                    namespace,
                    selector,
                } => dependents.extend(fleet.templates.iter().enumerate().filter_map(
                    |(other, candidate)| {
                        (candidate.kind() == kind
                            && candidate.group() == group
                            && candidate.namespace() == namespace
                            && selector.matches(&candidate.labels))
                        .then_some(other)
                    },
                )),
            }
        }
        dependents.sort_unstable();
        dependents.dedup();
        for dependent in dependents {
            required_by.entry(dependent).or_default().push(position);
        }
    }
    for (dependent, parents) in required_by {
        let notes: Vec<String> = parents
            .iter()
            .map(|&parent| format!("propagateDeps of {}", fleet.templates[parent].key))
            .collect();
        let snapshots: Vec<Target> = parents
            .iter()
            .flat_map(|&parent| placements[parent].scheduled().iter())
            .collect();
        // A binding the dependencies distributor made (no policy of its own) preserves when
        // any parent's does (karmada dependenciesdistributor/policy_utils.go
        // `detectAndResolvePreserveOnDeletion`: any true wins).
        let preserving_parent = parents.iter().find_map(|&parent| {
            let policy = &fleet.propagations[placements[parent].winner?];
            policy.preserves_on_deletion.then(|| {
                format!(
                    "{}, through propagateDeps of {}",
                    policy.id, fleet.templates[parent].key
                )
            })
        });
        let placement = &mut placements[dependent];
        placement.placed_by.extend(notes);
        let own_policy = placement.winner.map(|policy| &fleet.propagations[policy]);
        if own_policy.is_none() {
            placement.preserved_by = preserving_parent;
        }
        let mut targets: Vec<Target> = if own_policy.is_some() {
            placement.scheduled().iter().collect()
        } else {
            Vec::new()
        };
        for target in snapshots {
            if targets
                .iter()
                .any(|present| present.cluster == target.cluster)
            {
                continue;
            }
            let replicas = (own_policy.is_some() && placement.is_workload)
                .then(|| target.replicas.unwrap_or(0));
            targets.push(Target {
                cluster: target.cluster,
                replicas,
                completions: None,
            });
        }
        let divided_job = targets.iter().any(|target| target.completions.is_some());
        let completions = fleet.templates[dependent]
            .object
            .pointer("/spec/completions")
            .and_then(serde_json::Value::as_i64);
        if let Some(completions) = completions.filter(|_| divided_job) {
            let clusters: Vec<(&str, i64)> = (targets.iter())
                .map(|target| {
                    let name = fleet.clusters[target.cluster].name();
                    (name, target.replicas.unwrap_or(0))
                })
                .collect();
            let uid = fleet.templates[dependent].uid();
            let split = schedule::job_completions(completions, &clusters, uid);
            for (target, completions) in targets.iter_mut().zip(split) {
                target.completions = Some(completions);
            }
        }
        targets.sort_by_key(|target| target.cluster);
        let mut targets: Targets = targets.into_iter().collect();
        if let Some(policy) = own_policy
            && let Some(dispatched) = suspend(policy, &targets, &fleet.clusters)
        {
            targets = dispatched;
        }
        placement.redirect(targets);
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.into())
    }
}

/// `suspension.dispatching` keeps Works from being applied: fedrender renders nothing there.
/// The targets still dispatched to, or `None` when the policy suspends nothing.
pub(super) fn suspend(
    policy: &Propagation,
    targets: &Targets,
    clusters: &[Cluster],
) -> Option<Targets> {
    if policy.suspension.dispatching == Some(true) {
        return Some(Targets::default());
    }
    let suspended = policy.suspension.dispatching_on_clusters.as_ref()?;
    Some(targets.filtered(|target| {
        let name = clusters[target.cluster].name();
        !suspended
            .cluster_names
            .iter()
            .any(|suspended| suspended == name)
    }))
}
