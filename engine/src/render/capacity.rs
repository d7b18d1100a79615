//! What the placed workloads ask of the clusters and of the namespaces' quotas:
//!
//! - per cluster, the requests × replicas it receives beside what its inventory entry has free
//!   (`status.resourceSummary`: allocatable − allocated − allocating, as Karmada's general
//!   estimator reads it, karmada pkg/estimator/client/general.go), and `over-capacity` where it
//!   receives more: Karmada places a Duplicated or statically weighted workload without asking
//!   the estimator (pkg/scheduler/core/assignment.go), so the pods beyond it stay Pending;
//! - per FederatedResourceQuota, with FederatedQuotaEnforcement on, the namespace's bindings
//!   against its `overall`, and `quota-exceeded` where they pass it
//!   (`controllers::quota_enforcement`).
//!
//! One replica's request is its binding's (`replicaRequirements`, from the template as the
//! interpreter reads it), as the scheduler, the estimator and the quota webhook all count it:
//! an override rule that changes a member's requests or replicas is not counted here.

use std::collections::BTreeMap;

use crate::api::cluster::Cluster;
use crate::controllers::federated_quota::FederatedQuota;
use crate::controllers::quota_enforcement::{self, Verdict, times, usage};
use crate::diagnostics::Diagnostic;
use crate::fleet::Fleet;
use crate::interpret::requests::{EPHEMERAL_STORAGE, MEMORY, PODS, unit_of};
use crate::lint::Lint;
use crate::object::ObjectKey;
use crate::quantity::{Quantity, QuantityFormat, canonical};

use super::placement::Placement;

/// What the placed workloads ask of each cluster and of each enforced quota.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Capacity {
    /// Every cluster of the inventory (of those emitted, once asked), in inventory order.
    pub clusters: Vec<ClusterCapacity>,
    /// Each resource of each FederatedResourceQuota Karmada enforces (FederatedQuotaEnforcement
    /// on), by quota and resource; empty with the gate off.
    pub quotas: Vec<QuotaUsage>,
}

/// What one cluster receives and has free.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClusterCapacity {
    /// The cluster.
    pub cluster: String,
    /// Its position in the inventory.
    pub(crate) position: usize,
    /// The requests × replicas it receives, by resource; `pods` is the replicas.
    pub requested: BTreeMap<String, Quantity>,
    /// allocatable − allocated − allocating of every resource its `status.resourceSummary`
    /// lists; `None` when the inventory has no summary for it.
    pub free: Option<BTreeMap<String, Quantity>>,
}

impl ClusterCapacity {
    /// The requests of `resource` it receives (0 for none).
    pub fn requested_of(&self, resource: &str) -> Quantity {
        self.requested.get(resource).copied().unwrap_or_default()
    }

    /// What it has free of `resource`, `None` without a summary; a resource the summary does
    /// not list has none free, as the estimator reads it.
    pub fn free_of(&self, resource: &str) -> Option<Quantity> {
        self.free
            .as_ref()
            .map(|free| free.get(resource).copied().unwrap_or_default())
    }
}

/// One resource of one enforced FederatedResourceQuota.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuotaUsage {
    /// `FederatedResourceQuota shop/compute`.
    pub quota: String,
    /// The resource, as `spec.overall` names it.
    pub resource: String,
    /// `spec.overall`'s value.
    pub overall: Quantity,
    /// What the namespace's bindings request of it over their clusters, all of them: Karmada
    /// denies bindings until what it admits fits.
    pub requested: Quantity,
}

impl QuotaUsage {
    /// Whether the namespace asks for more than the quota allows.
    pub fn exceeded(&self) -> bool {
        self.requested > self.overall
    }
}

/// A quantity of `resource` as Kubernetes writes a computed one (`Quantity.String()`): CPU and
/// counts in decimal SI (`1500m`, `3`), memory, ephemeral storage and huge pages in binary SI
/// where it divides (`3Gi`), as `util.Resource.ResourceList` builds them.
pub fn shown(resource: &str, quantity: Quantity) -> String {
    let binary = resource == MEMORY
        || resource == EPHEMERAL_STORAGE
        || resource.starts_with("hugepages-")
        || resource.starts_with("requests.hugepages-");
    let format = if binary {
        QuantityFormat::BinarySi
    } else {
        QuantityFormat::DecimalSi
    };
    canonical(quantity, format)
}

/// The capacity of every cluster and quota, with the `over-capacity` and `quota-exceeded`
/// warnings.
pub(super) fn assess(fleet: &Fleet, placements: &[Placement]) -> (Capacity, Vec<Diagnostic>) {
    let mut warnings = Vec::new();
    let clusters = per_cluster(fleet, placements);
    warnings.extend(over_capacity(fleet, placements, &clusters));
    let quotas = if fleet.feature_gate_turned_on(quota_enforcement::GATE) {
        enforced_quotas(fleet, placements, &mut warnings)
    } else {
        Vec::new()
    };
    (Capacity { clusters, quotas }, warnings)
}

/// Each cluster's requests, from every template's dispatched targets.
fn per_cluster(fleet: &Fleet, placements: &[Placement]) -> Vec<ClusterCapacity> {
    let mut received: BTreeMap<usize, ClusterCapacity> = fleet
        .clusters
        .iter()
        .enumerate()
        .map(|(position, cluster)| {
            let nothing = ClusterCapacity {
                cluster: cluster.name().to_string(),
                position,
                requested: BTreeMap::new(),
                free: free_of(cluster),
            };
            (position, nothing)
        })
        .collect();
    let pods = PODS.to_string();
    for (_, placement, cluster, replicas) in running_replicas(fleet, placements) {
        let Some(entry) = received.get_mut(&cluster) else {
            continue;
        };
        // Summed in place: a fleet places millions of (workload, cluster) pairs, and
        // nothing of each pair is kept.
        let asked = (placement.request.iter())
            .filter(|(_, quantity)| !quantity.is_zero())
            .map(|(resource, each)| (resource, times(*each, replicas)))
            .chain([(&pods, Quantity::from_units(replicas))]);
        for (resource, quantity) in asked {
            match entry.requested.get_mut(resource) {
                Some(slot) => *slot = slot.saturating_add(quantity),
                None => {
                    entry.requested.insert(resource.clone(), quantity);
                }
            }
        }
    }
    received.into_values().collect()
}

/// How many workloads an `over-capacity` warning names, those that take the most first.
const NAMED_WORKLOADS: usize = 10;

/// Every workload with each cluster it runs replicas on (its inventory position) and how many:
/// what both the clusters' requests and an `over-capacity` warning's workloads are made of.
fn running_replicas<'p>(
    fleet: &'p Fleet,
    placements: &'p [Placement],
) -> impl Iterator<Item = (&'p crate::object::Template, &'p Placement, usize, i64)> {
    (fleet.templates.iter().zip(placements))
        .filter(|(_, placement)| placement.is_workload)
        .flat_map(|(template, placement)| {
            (placement.targets.iter())
                .map(|target| (target.cluster, target.replicas.unwrap_or(0)))
                .filter(|&(_, replicas)| replicas > 0)
                .map(move |(cluster, replicas)| (template, placement, cluster, replicas))
        })
}

/// A workload a cluster short of some resource receives: the workload, its replicas there and
/// what one replica requests.
struct Received<'p> {
    key: &'p ObjectKey,
    replicas: i64,
    request: &'p BTreeMap<String, Quantity>,
}

/// The workloads each cluster of `short` (positions in the inventory) receives, in template
/// order: only for the clusters a warning names, found again from the placements.
fn received_by<'p>(
    fleet: &'p Fleet,
    placements: &'p [Placement],
    short: &[usize],
) -> BTreeMap<usize, Vec<Received<'p>>> {
    let mut by_cluster: BTreeMap<usize, Vec<Received<'p>>> = short
        .iter()
        .map(|&position| (position, Vec::new()))
        .collect();
    for (template, placement, cluster, replicas) in running_replicas(fleet, placements) {
        if let Some(received) = by_cluster.get_mut(&cluster) {
            received.push(Received {
                key: &template.key,
                replicas,
                request: &placement.request,
            });
        }
    }
    by_cluster
}

/// allocatable − allocated − allocating per resource the summary lists, never below 0.
fn free_of(cluster: &Cluster) -> Option<BTreeMap<String, Quantity>> {
    let summary = cluster.status.as_ref()?.resource_summary.as_ref()?;
    Some(
        summary
            .allocatable
            .iter()
            .map(|(resource, &allocatable)| {
                let mut free = allocatable;
                for taken in [&summary.allocated, &summary.allocating] {
                    if let Some(&used) = taken.get(resource) {
                        free = free.saturating_sub(used);
                    }
                }
                (resource.clone(), free.max(Quantity::default()))
            })
            .collect(),
    )
}

/// `over-capacity` for each cluster that receives more of some resource than it has free.
fn over_capacity(
    fleet: &Fleet,
    placements: &[Placement],
    clusters: &[ClusterCapacity],
) -> Vec<Diagnostic> {
    let short: Vec<usize> = (clusters.iter())
        .filter(|cluster| cluster.free.is_some() && !short_resources(cluster).is_empty())
        .map(|cluster| cluster.position)
        .collect();
    if short.is_empty() {
        return Vec::new();
    }
    let received = received_by(fleet, placements, &short);
    (clusters.iter())
        .filter_map(|cluster| {
            let workloads = received.get(&cluster.position)?;
            Some(over_capacity_warning(
                fleet,
                cluster,
                &short_resources(cluster),
                workloads,
            ))
        })
        .collect()
}

/// Each resource `cluster` receives more of than it has free: the resource, what it receives
/// and what it has free.
fn short_resources(cluster: &ClusterCapacity) -> Vec<(&str, Quantity, Quantity)> {
    cluster
        .requested
        .iter()
        .filter_map(|(resource, &requested)| {
            let free = cluster.free_of(resource).unwrap_or_default();
            (requested > free).then_some((resource.as_str(), requested, free))
        })
        .collect()
}

/// The warning of a cluster short of the resources `short`, naming the `workloads` it receives.
fn over_capacity_warning(
    fleet: &Fleet,
    cluster: &ClusterCapacity,
    short: &[(&str, Quantity, Quantity)],
    workloads: &[Received<'_>],
) -> Diagnostic {
    let resources: Vec<String> = short
        .iter()
        .map(|(resource, requested, free)| {
            format!(
                "{} {resource} of {} free ({} short)",
                shown(resource, *requested),
                shown(resource, *free),
                shown(resource, requested.saturating_sub(*free))
            )
        })
        .collect();
    // The workloads that take the most of the first resource that runs short, each with what
    // it takes of every one that does: a cluster of a big fleet receives thousands, and a
    // warning naming them all is read by nobody (and held by every run).
    let (first, _, _) = short[0];
    let takes = |workload: &Received<'_>| {
        let each = if first == PODS {
            Quantity::from_units(1)
        } else {
            workload.request.get(first).copied().unwrap_or_default()
        };
        times(each, workload.replicas)
    };
    let mut largest: Vec<&Received<'_>> = workloads.iter().collect();
    // Stable: equal takers stay in template order.
    largest.sort_by_key(|workload| std::cmp::Reverse(takes(workload)));
    largest.truncate(NAMED_WORKLOADS);
    let mut named: Vec<String> = largest
        .into_iter()
        .map(|workload| {
            let each: Vec<String> = short
                .iter()
                .filter(|(resource, _, _)| *resource != PODS)
                .filter_map(|(resource, _, _)| {
                    let request = workload.request.get(*resource)?;
                    Some(format!("{} {resource}", shown(resource, *request)))
                })
                .collect();
            if each.is_empty() {
                format!("{} ({})", workload.key, replicas_word(workload.replicas))
            } else {
                format!(
                    "{} ({} × {})",
                    workload.key,
                    replicas_word(workload.replicas),
                    each.join(" and ")
                )
            }
        })
        .collect();
    if workloads.len() > NAMED_WORKLOADS {
        named.push(format!(
            "and {} more workloads",
            workloads.len() - NAMED_WORKLOADS
        ));
    }
    let message = format!(
        "cluster {}: its workloads request {}, by its inventory's status.resourceSummary \
         (allocatable − allocated − allocating), so the pods beyond it stay Pending: {}; \
         Karmada places Duplicated and statically weighted replicas without asking what fits, \
         and estimates each dynamically divided workload alone",
        cluster.cluster,
        resources.join(", "),
        named.join(", ")
    );
    let origin = fleet.summary_origins.get(cluster.position).cloned();
    Diagnostic::warning(Lint::OverCapacity, origin, message).on_cluster(cluster.cluster.as_str())
}

fn replicas_word(replicas: i64) -> String {
    if replicas == 1 {
        "1 replica".to_string()
    } else {
        format!("{replicas} replicas")
    }
}

/// One ResourceBinding as the quota webhook weighs it.
struct Weighed<'p> {
    key: &'p ObjectKey,
    replicas: i64,
    request: &'p BTreeMap<String, Quantity>,
    usage: BTreeMap<String, Quantity>,
}

/// Every enforced quota's usage, and `quota-exceeded` for each resource a namespace's bindings
/// ask more of than a quota's `overall`.
fn enforced_quotas(
    fleet: &Fleet,
    placements: &[Placement],
    warnings: &mut Vec<Diagnostic>,
) -> Vec<QuotaUsage> {
    let mut by_namespace: BTreeMap<&str, Vec<&FederatedQuota>> = BTreeMap::new();
    for quota in &fleet.federated_quotas {
        by_namespace
            .entry(quota.key.namespace.as_str())
            .or_default()
            .push(quota);
    }
    let mut usages = Vec::new();
    for (namespace, mut quotas) in by_namespace {
        // The API lists a namespace's quotas by name; the first that denies ends the check.
        quotas.sort_by(|a, b| a.key.name.cmp(&b.key.name));
        let limits: Vec<BTreeMap<String, Quantity>> = quotas
            .iter()
            .map(|quota| {
                quota
                    .overall
                    .iter()
                    .map(|(resource, quantity)| (resource.clone(), quantity.value))
                    .collect()
            })
            .collect();
        let bindings = weighed_bindings(fleet, placements, namespace, &limits);
        let limit_refs: Vec<&BTreeMap<String, Quantity>> = limits.iter().collect();
        let usages_only: Vec<BTreeMap<String, Quantity>> = bindings
            .iter()
            .map(|binding| binding.usage.clone())
            .collect();
        let verdicts = quota_enforcement::verdicts(&usages_only, &limit_refs);
        for (quota, limit) in quotas.iter().zip(&limits) {
            for resource in limit.keys() {
                if let Some(warning) = never_weighed(quota, resource) {
                    warnings.push(warning);
                }
            }
            for (resource, &overall) in limit {
                let requested = bindings
                    .iter()
                    .filter_map(|binding| binding.usage.get(resource))
                    .fold(Quantity::default(), |sum, quantity| {
                        sum.saturating_add(*quantity)
                    });
                let used = QuotaUsage {
                    quota: quota.id.clone(),
                    resource: resource.clone(),
                    overall,
                    requested,
                };
                if used.exceeded() {
                    warnings.push(quota_exceeded(quota, &used, &bindings, &verdicts));
                }
                usages.push(used);
            }
        }
    }
    usages
}

/// An `overall` entry no binding's usage can name: the webhook filters a binding's usage by
/// the quota's keys, and the usage holds only what `util.Resource` tracks of a replica's
/// request (CPU, memory, ephemeral storage, extended and huge-page resources), so
/// `requests.cpu`, `limits.memory`, `pods` or `services` never deny anything.
fn never_weighed(quota: &FederatedQuota, resource: &str) -> Option<Diagnostic> {
    if unit_of(resource).is_some() && resource != PODS {
        return None;
    }
    let field = format!("spec.overall[{resource}]");
    Some(Diagnostic::warning(
        Lint::IgnoredField,
        Some(quota.fields.origin(&quota.origin, &field)),
        format!(
            "{}: {field}: Karmada's binding webhook weighs what a binding's replicas request \
             (cpu, memory, ephemeral-storage, extended resources), never {resource:?}, so this \
             entry denies nothing",
            quota.id
        ),
    ))
}

/// The namespace's ResourceBindings that ask something of its quotas: templates of the
/// namespace bound by a policy of their own and scheduled somewhere, their usage filtered to
/// the resources some quota names.
fn weighed_bindings<'p>(
    fleet: &'p Fleet,
    placements: &'p [Placement],
    namespace: &str,
    limits: &[BTreeMap<String, Quantity>],
) -> Vec<Weighed<'p>> {
    fleet
        .templates
        .iter()
        .zip(placements)
        .filter(|(template, placement)| {
            template.namespace() == namespace && placement.winner.is_some()
        })
        .filter_map(|(template, placement)| {
            // What the scheduler wrote into the binding's spec.clusters, suspended or not.
            let replicas: i64 = placement
                .scheduled()
                .iter()
                .filter_map(|target| target.replicas)
                .sum();
            let usage: BTreeMap<String, Quantity> = usage(&placement.request, replicas)
                .into_iter()
                .filter(|(resource, _)| limits.iter().any(|limit| limit.contains_key(resource)))
                .collect();
            (!usage.is_empty()).then_some(Weighed {
                key: &template.key,
                replicas,
                request: &placement.request,
                usage,
            })
        })
        .collect()
}

/// `quota-exceeded` for one resource of one quota, naming every binding that asks for it and
/// what the webhook may do to each; which one it denies is the order's, never guessed.
fn quota_exceeded(
    quota: &FederatedQuota,
    used: &QuotaUsage,
    bindings: &[Weighed<'_>],
    verdicts: &[Verdict],
) -> Diagnostic {
    let resource = used.resource.as_str();
    let asking: Vec<(&Weighed<'_>, Verdict)> = bindings
        .iter()
        .zip(verdicts.iter().copied())
        .filter(|(binding, _)| binding.usage.contains_key(resource))
        .collect();
    let listed: Vec<String> = asking
        .iter()
        .map(|(binding, _)| {
            let each = binding.request.get(resource).copied().unwrap_or_default();
            format!(
                "{} {} × {} = {}",
                binding.key,
                replicas_word(binding.replicas),
                shown(resource, each),
                shown(resource, times(each, binding.replicas))
            )
        })
        .collect();
    let named = |wanted: &[Verdict]| -> Vec<String> {
        asking
            .iter()
            .filter(|(_, verdict)| wanted.contains(verdict))
            .map(|(binding, _)| binding.key.to_string())
            .collect()
    };
    let (denied, may, admitted) = (
        named(&[Verdict::Denied]),
        named(&[Verdict::MayBeDenied, Verdict::Undecided]),
        named(&[Verdict::Admitted]),
    );
    let mut verdict = Vec::new();
    if !denied.is_empty() {
        verdict.push(format!(
            "it denies {} whatever the order, as {} alone {} more than the overall",
            or_list(&denied, "and"),
            if denied.len() == 1 { "it" } else { "each" },
            if denied.len() == 1 {
                "requests"
            } else {
                "request"
            }
        ));
    }
    if !may.is_empty() {
        verdict.push(format!(
            "whether it denies {} depends on the order the scheduler places them in, which \
             fedrender cannot know",
            or_list(&may, "or")
        ));
    }
    if !admitted.is_empty() {
        verdict.push(format!("{} fits in every order", or_list(&admitted, "and")));
    }
    if !named(&[Verdict::Undecided]).is_empty() {
        verdict.push(
            "(too many bindings to try every order: some of those named may in fact always fit)"
                .to_string(),
        );
    }
    let (namespace, name) = (&quota.key.namespace, &quota.key.name);
    let field = format!("spec.overall[{resource}]");
    let message = format!(
        "{}: {field}: the namespace's workloads request {} {resource} over their clusters, more \
         than the overall {}: {}; with FederatedQuotaEnforcement on, Karmada's binding webhook \
         admits bindings while the sum fits and denies the one that passes it \
         (\"FederatedResourceQuota({namespace}/{name}) exceeded for resource {resource}\"), \
         which then runs nowhere; {}",
        quota.id,
        shown(resource, used.requested),
        shown(resource, used.overall),
        listed.join(", "),
        verdict.join("; ")
    );
    Diagnostic::warning(
        Lint::QuotaExceeded,
        Some(quota.fields.origin(&quota.origin, &field)),
        message,
    )
}

/// `a`, `a or b`, `a, b or c`.
fn or_list(names: &[String], word: &str) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} {word} {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests;
