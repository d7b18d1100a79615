//! The pipeline from typed inputs to per-cluster objects: bind → schedule → override → work.
//! Pure: no file is read or written here, so the same inputs always give the same result and
//! templates render in parallel.

use std::collections::{BTreeMap, BTreeSet};

use rayon::prelude::*;
use serde_json::Value;

use crate::api::cluster::Cluster;
use crate::bind::{self, PolicyIndex};
use crate::diagnostics::{Diagnostic, Rejected};
use crate::namespace_sync;
use crate::object::{ObjectKey, Template};
use crate::policy::{Override, Propagation};
use crate::schedule::{self, Filtered, TargetCluster};
use crate::work;

/// Everything the pipeline needs, after loading, classifying and admission.
#[derive(Debug, Default)]
pub struct Fleet {
    pub templates: Vec<Template>,
    pub propagations: Vec<Propagation>,
    pub overrides: Vec<Override>,
    /// The inventory, sorted by name.
    pub clusters: Vec<Cluster>,
}

/// One template's output: each distinct object with the clusters that receive it, so that an
/// object identical in many clusters is built and serialised once.
#[derive(Debug, Clone)]
pub struct RenderedTemplate {
    pub key: ObjectKey,
    pub variants: Vec<Variant>,
}

#[derive(Debug, Clone)]
pub struct Variant {
    pub object: Value,
    /// Indices into the fleet's clusters, ascending.
    pub clusters: Vec<usize>,
}

#[derive(Debug, Default)]
pub struct Rendered {
    pub templates: Vec<RenderedTemplate>,
    pub warnings: Vec<Diagnostic>,
}

/// What happened to one template, before its objects are built.
struct Placement {
    targets: Vec<TargetCluster>,
    matched_policies: Vec<usize>,
    warnings: Vec<Diagnostic>,
}

pub fn render(fleet: &Fleet) -> Result<Rendered, Rejected> {
    check_dependent_overrides(fleet)?;
    let index = PolicyIndex::new(&fleet.propagations);
    let cluster_index: BTreeMap<&str, usize> = fleet
        .clusters
        .iter()
        .enumerate()
        .map(|(position, cluster)| (cluster.name(), position))
        .collect();
    let results: Vec<Result<(Option<RenderedTemplate>, Placement), Rejected>> = fleet
        .templates
        .par_iter()
        .map(|template| {
            let placement = place(fleet, &index, template);
            let rendered = build_variants(template, &placement.targets, &cluster_index)?;
            Ok((rendered, placement))
        })
        .collect();
    let mut rendered = Rendered::default();
    let mut errors = Vec::new();
    let mut policies_used = BTreeSet::new();
    for result in results {
        match result {
            Ok((template, placement)) => {
                rendered.templates.extend(template);
                rendered.warnings.extend(placement.warnings);
                policies_used.extend(placement.matched_policies);
            }
            Err(rejected) => errors.extend(rejected.errors),
        }
    }
    if !errors.is_empty() {
        return Err(errors.into());
    }
    rendered
        .warnings
        .extend(policy_warnings(fleet, &policies_used));
    Ok(rendered)
}

/// Binds and schedules one template; the namespace controller adds every cluster for the
/// namespaces it propagates.
fn place(fleet: &Fleet, index: &PolicyIndex<'_>, template: &Template) -> Placement {
    let mut warnings = Vec::new();
    let warn = |message: String| Diagnostic::warning(Some(template.origin.clone()), message);
    let candidates = index.matching(template);
    let matched_policies = candidates.iter().map(|(policy, _)| *policy).collect();
    if let Some(reason) = bind::never_propagated(template) {
        warnings.push(warn(format!(
            "{} is rendered nowhere: {reason}",
            template.key
        )));
        return Placement {
            targets: Vec::new(),
            matched_policies,
            warnings,
        };
    }
    let mut targets = Vec::new();
    match index.bind(&candidates) {
        Some(binding) => {
            let policy = &fleet.propagations[binding.policy];
            let schedule = schedule::schedule(template, policy, &fleet.clusters);
            targets = suspend(policy, schedule.targets);
            if targets.is_empty() {
                warnings.push(warn(unschedulable_message(
                    template,
                    policy,
                    &schedule.filtered,
                )));
            }
        }
        None if !namespace_sync::is_auto_propagated(template) => {
            warnings.push(warn(format!(
                "{} is rendered nowhere: no PropagationPolicy or ClusterPropagationPolicy selects it",
                template.key
            )));
        }
        None => {}
    }
    if namespace_sync::is_auto_propagated(template) {
        targets = fleet
            .clusters
            .iter()
            .map(|cluster| TargetCluster {
                name: cluster.name().to_string(),
                replicas: None,
            })
            .collect();
    }
    Placement {
        targets,
        matched_policies,
        warnings,
    }
}

/// `suspension.dispatching` keeps Works from being applied: fedrender renders nothing there.
fn suspend(policy: &Propagation, targets: Vec<TargetCluster>) -> Vec<TargetCluster> {
    if policy.suspension.dispatching == Some(true) {
        return Vec::new();
    }
    match &policy.suspension.dispatching_on_clusters {
        Some(suspended) => targets
            .into_iter()
            .filter(|target| !suspended.cluster_names.contains(&target.name))
            .collect(),
        None => targets,
    }
}

fn unschedulable_message(
    template: &Template,
    policy: &Propagation,
    filtered: &[(String, Filtered)],
) -> String {
    if policy.suspension.dispatching == Some(true) {
        return format!(
            "{} is rendered nowhere: {} suspends dispatching",
            template.key, policy.id
        );
    }
    let reasons: Vec<String> = filtered
        .iter()
        .map(|(cluster, reason)| match reason {
            Filtered::Affinity => format!("{cluster}: not in clusterAffinity"),
            Filtered::Taint(taint) => format!("{cluster}: taint {taint} not tolerated"),
            Filtered::ApiDisabled => format!(
                "{cluster}: {} not in status.apiEnablements",
                template.api_version
            ),
            Filtered::BeingDeleted => format!("{cluster}: being deleted"),
        })
        .collect();
    let why = if reasons.is_empty() {
        "no cluster left to place it".to_string()
    } else {
        reasons.join("; ")
    };
    format!(
        "{} is rendered nowhere: {} selects it but no cluster fits ({why})",
        template.key, policy.id
    )
}

/// Builds the object for every target cluster; clusters with the same replica count share one
/// object.
fn build_variants(
    template: &Template,
    targets: &[TargetCluster],
    cluster_index: &BTreeMap<&str, usize>,
) -> Result<Option<RenderedTemplate>, Rejected> {
    if targets.is_empty() {
        return Ok(None);
    }
    let mut by_replicas: BTreeMap<Option<i64>, Vec<usize>> = BTreeMap::new();
    for target in targets {
        by_replicas
            .entry(target.replicas)
            .or_default()
            .push(cluster_index[target.name.as_str()]);
    }
    let mut variants = Vec::new();
    for (replicas, mut clusters) in by_replicas {
        clusters.sort_unstable();
        let object = work::build_work(template, replicas, |_| Ok::<(), Rejected>(()))?;
        variants.push(Variant { object, clusters });
    }
    variants.sort_by_key(|variant| variant.clusters[0]);
    Ok(Some(RenderedTemplate {
        key: template.key.clone(),
        variants,
    }))
}

/// A PropagationPolicy waits forever for missing `dependentOverrides` in Karmada; offline that
/// is an error (karmada-overrides spec §3.2).
fn check_dependent_overrides(fleet: &Fleet) -> Result<(), Rejected> {
    let mut errors = Vec::new();
    for policy in &fleet.propagations {
        for name in &policy.dependent_overrides {
            let exists = fleet.overrides.iter().any(|o| {
                &o.id.name == name
                    && o.id.scope == policy.id.scope
                    && o.id.kind.starts_with("Cluster") == policy.is_cluster_wide()
            });
            if !exists {
                errors.push(Diagnostic::error(
                    Some(policy.origin.clone()),
                    format!(
                        "{}: spec.dependentOverrides names {name:?}, which does not exist; Karmada would never propagate what this policy selects",
                        policy.id
                    ),
                ));
            }
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.into())
    }
}

/// Policies that select nothing, and cluster names that are not in the inventory.
fn policy_warnings(fleet: &Fleet, used: &BTreeSet<usize>) -> Vec<Diagnostic> {
    let known: BTreeSet<&str> = fleet.clusters.iter().map(Cluster::name).collect();
    let mut warnings = Vec::new();
    for (index, policy) in fleet.propagations.iter().enumerate() {
        if !used.contains(&index) {
            warnings.push(Diagnostic::warning(
                Some(policy.origin.clone()),
                format!("{} selects no template", policy.id),
            ));
        }
        if let Some(affinity) = &policy.placement.cluster_affinity {
            for name in affinity.named_clusters() {
                if !known.contains(name) {
                    warnings.push(Diagnostic::warning(
                        Some(policy.origin.clone()),
                        format!("{}: cluster {name:?} is not in the inventory", policy.id),
                    ));
                }
            }
        }
    }
    warnings
}
