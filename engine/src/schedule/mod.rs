//! Scheduling: a binding and the inventory give the target clusters, each with its replica
//! count (karmada pkg/scheduler/core/generic_scheduler.go `Schedule`, scheduler.go for
//! `clusterAffinities`). Always a fresh schedule with every cluster score 0, so the canonical
//! order of clusters is overflow tier, then available replicas (most first), then name.

pub mod divide;
pub(crate) mod estimate;
pub mod filter;
pub mod spread;
pub mod targets;
pub(crate) mod webster;

use std::collections::BTreeMap;

use serde_json::Value;

use crate::api::cluster::Cluster;
use crate::api::karmada::Placement;
use crate::interpret::Interpreter;
use crate::object::Template;
use crate::policy::Propagation;
use crate::quantity::Quantity;

pub use filter::Filtered;

pub(crate) use filter::AffinityTerm;
pub use targets::TargetCluster;
pub(crate) use targets::{Target, Targets};

/// Karmada's stand-in for "no limit" in capacity estimates (MaxInt32).
const UNLIMITED: i64 = i32::MAX as i64;

/// Where one template goes: its target clusters, or why none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schedule {
    /// The target clusters, in the inventory's order.
    pub targets: Vec<TargetCluster>,
    /// Why the template goes nowhere, when it does.
    pub failure: Option<String>,
    /// The clusters the filters removed (of the affinity term that won, else of the first),
    /// with why: for the plan report.
    pub filtered: Vec<(String, Filtered)>,
    /// How a Divided workload's replicas were divided, for the plan report.
    pub division: Option<divide::Division>,
}

/// What the scheduler needs to know about a template, read once (karmada
/// `binding.spec.replicas` and `replicaRequirements`).
#[derive(Debug, Clone, Default)]
pub struct Workload {
    /// 0 for non-workloads.
    pub replicas: i64,
    /// Karmada's `IsWorkload`: replicas > 0, or per-replica requirements.
    pub(crate) is_workload: bool,
    /// Per-replica resource request (empty: none).
    pub request: BTreeMap<String, Quantity>,
    /// Whether the binding has replica requirements at all: a request, or a node claim alone
    /// (a nodeSelector, tolerations or required node affinity without requests), which still
    /// sends the estimator through its resource models.
    pub(crate) has_requirements: bool,
    /// `spec.completions` of a Job, split with its replicas when Divided.
    pub completions: Option<i64>,
    /// `metadata.uid`, for Webster's tie-break.
    pub uid: String,
}

impl Workload {
    /// Reads a template's replicas and requirements; a malformed resource quantity is an
    /// error (the API server would reject the template).
    pub fn of(interpreter: &Interpreter, template: &Template) -> Result<Workload, String> {
        // Only kinds with a replica interpreter have requirements: a DaemonSet or CronJob is
        // not a workload to the scheduler, whatever its pod template asks for.
        let Some(resource) = interpreter.replica_resource(template)? else {
            return Ok(Workload::default());
        };
        let completions = (template.group() == "batch" && template.kind() == "Job")
            .then(|| {
                template
                    .object
                    .pointer("/spec/completions")
                    .and_then(Value::as_i64)
            })
            .flatten();
        Ok(Workload {
            replicas: resource.replicas,
            is_workload: resource.replicas > 0 || resource.has_requirements,
            request: resource.request,
            has_requirements: resource.has_requirements,
            completions,
            uid: template.uid().to_string(),
        })
    }
}

/// Schedules one template under its policy onto the inventory (sorted by name). With
/// `clusterAffinities` each term is tried in order and the first that schedules wins.
pub fn schedule(
    template: &Template,
    workload: &Workload,
    policy: &Propagation,
    clusters: &[Cluster],
) -> Schedule {
    let placement = &policy.placement;
    let terms: Vec<AffinityTerm> = match &placement.cluster_affinities {
        Some(terms) if !terms.is_empty() => terms
            .iter()
            .map(|term| AffinityTerm {
                name: Some(term.affinity_name.clone()),
                affinity: Some(term.affinity()),
                overflow: term
                    .overflow_affinities
                    .iter()
                    .map(|o| o.affinity())
                    .collect(),
            })
            .collect(),
        _ => vec![AffinityTerm {
            name: None,
            affinity: placement.cluster_affinity.clone(),
            overflow: Vec::new(),
        }],
    };
    let mut failures = Vec::new();
    let mut first_filtered = None;
    // What each term that did not schedule filtered out, for the one that does.
    let mut earlier: Vec<(String, Vec<(String, Filtered)>)> = Vec::new();
    for term in &terms {
        let mut filtered = Vec::new();
        match schedule_term(template, workload, placement, term, clusters, &mut filtered) {
            Ok((targets, division)) => {
                // A cluster outside this term that an earlier term wanted but filtered out
                // (a failover drill's tainted primary) is named with why, not merely as outside.
                if let Some(scheduled) = &term.name {
                    for (cluster, reason) in &mut filtered {
                        if !matches!(reason, Filtered::Affinity(_)) {
                            continue;
                        }
                        let first_cause = earlier.iter().find_map(|(name, filtered)| {
                            filtered
                                .iter()
                                .find(|(other, why)| {
                                    other == cluster && !matches!(why, Filtered::Affinity(_))
                                })
                                .map(|(_, why)| (name, why))
                        });
                        if let Some((name, why)) = first_cause {
                            *reason = Filtered::EarlierTerm {
                                earlier: name.clone(),
                                reason: Box::new(why.clone()),
                                scheduled: scheduled.clone(),
                            };
                        }
                    }
                }
                return Schedule {
                    targets,
                    failure: None,
                    filtered,
                    division,
                };
            }
            Err(reason) => failures.push(match &term.name {
                Some(name) => format!("affinity {name}: {reason}"),
                None => reason,
            }),
        }
        if let Some(name) = &term.name {
            earlier.push((name.clone(), filtered.clone()));
        }
        first_filtered.get_or_insert(filtered);
    }
    Schedule {
        targets: Vec::new(),
        failure: Some(failures.join("; ")),
        filtered: first_filtered.unwrap_or_default(),
        division: None,
    }
}

/// One affinity term through filter, estimate, spread selection and division, with how the
/// replicas were divided. An error says why the term does not schedule.
fn schedule_term(
    template: &Template,
    workload: &Workload,
    placement: &Placement,
    term: &AffinityTerm,
    clusters: &[Cluster],
    filtered: &mut Vec<(String, Filtered)>,
) -> Result<(Vec<TargetCluster>, Option<divide::Division>), String> {
    let mut candidates = Vec::new();
    for cluster in clusters {
        match filter::filter_cluster(placement, term, workload.is_workload, template, cluster) {
            Ok(overflow) => candidates.push(spread::Candidate {
                cluster,
                available: 0,
                score: 0,
                overflow,
            }),
            Err(reason) => filtered.push((cluster.name().to_string(), reason)),
        }
    }
    if candidates.is_empty() {
        let why = if filtered.is_empty() {
            "the inventory is empty".to_string()
        } else {
            filtered
                .iter()
                .map(|(cluster, reason)| format!("{cluster}: {}", reason.describe()))
                .collect::<Vec<_>>()
                .join("; ")
        };
        return Err(format!("no cluster fits ({why})"));
    }
    for candidate in &mut candidates {
        candidate.available = if workload.replicas == 0 {
            UNLIMITED
        } else {
            let estimate = estimate::max_available_replicas(
                candidate.cluster,
                workload.has_requirements.then_some(&workload.request),
            );
            if estimate >= UNLIMITED {
                workload.replicas
            } else {
                estimate
            }
        };
    }
    spread::canonical_order(&mut candidates);
    let strategy = divide::strategy(placement);
    // Selection keeps Karmada's order (not always canonical), which feeds division's ties.
    let selected: Vec<usize> = if spread_applies(placement) {
        let replicas = if strategy.is_divided() {
            spread::Replicas::Divided(workload.replicas)
        } else {
            spread::Replicas::Duplicated(workload.replicas)
        };
        spread::select_clusters_for(&candidates, &placement.spread_constraints, replicas)?
    } else {
        (0..candidates.len()).collect()
    };
    let seats: Vec<divide::Seat<'_>> = selected
        .iter()
        .map(|&index| divide::Seat {
            cluster: candidates[index].cluster,
            available: candidates[index].available,
            overflow: candidates[index].overflow,
        })
        .collect();
    if !workload.is_workload {
        let targets = seats
            .iter()
            .map(|seat| TargetCluster {
                name: seat.cluster.name().to_string(),
                replicas: None,
                completions: None,
            })
            .collect();
        return Ok((targets, None));
    }
    if workload.replicas == 0 {
        return Err(
            "it has 0 replicas and per-replica requirements, and Karmada drops clusters that get 0 replicas (karmada#3495)"
                .to_string(),
        );
    }
    let division = divide::divide_replicas(strategy, &seats, workload.replicas, &workload.uid)?;
    let assigned: Vec<i64> = match &division {
        None => vec![workload.replicas; seats.len()],
        Some(division) => division.shares.iter().map(|share| share.replicas).collect(),
    };
    let mut targets: Vec<TargetCluster> = seats
        .iter()
        .zip(assigned)
        .filter(|(_, replicas)| *replicas > 0)
        .map(|(seat, replicas)| TargetCluster {
            name: seat.cluster.name().to_string(),
            replicas: Some(replicas),
            completions: None,
        })
        .collect();
    if let Some(completions) = workload.completions
        && strategy.is_divided()
    {
        split_completions(&mut targets, completions, &workload.uid);
    }
    targets.sort();
    Ok((targets, division))
}

/// karmada `divideReplicasByJobCompletions`: a Divided Job's completions are divided with
/// Webster, weighted by each cluster's replicas.
fn split_completions(targets: &mut [TargetCluster], completions: i64, uid: &str) {
    let clusters: Vec<(&str, i64)> = (targets.iter())
        .map(|target| (target.name.as_str(), target.replicas.unwrap_or(0)))
        .collect();
    let split = job_completions(completions, &clusters, uid);
    for (target, completions) in targets.iter_mut().zip(split) {
        target.completions = Some(completions);
    }
}

/// A Job's `completions` divided over its clusters (name, replicas) as Karmada's binding
/// controller divides them (`divideReplicasByJobCompletions`: Webster, weighted by replicas),
/// in the order given.
pub(crate) fn job_completions(completions: i64, clusters: &[(&str, i64)], uid: &str) -> Vec<i64> {
    let parties: Vec<webster::Party<'_>> = (clusters.iter())
        .map(|&(name, weight)| webster::Party { name, weight })
        .collect();
    webster::divide(completions, &parties, uid)
}

/// karmada `shouldIgnoreSpreadConstraint`: no constraints, or Weighted division with no
/// weightPreference or with static weights only (so static weights ignore spread constraints,
/// karmada#3184).
fn spread_applies(placement: &Placement) -> bool {
    if placement.spread_constraints.is_empty() {
        return false;
    }
    let Some(scheduling) = &placement.replica_scheduling else {
        return true;
    };
    use crate::api::karmada::{ReplicaDivisionPreference, ReplicaSchedulingType};
    let divided = scheduling.replica_scheduling_type != Some(ReplicaSchedulingType::Duplicated);
    let weighted =
        scheduling.replica_division_preference != Some(ReplicaDivisionPreference::Aggregated);
    if divided && weighted {
        match &scheduling.weight_preference {
            None => return false,
            Some(preference)
                if !preference.static_weight_list.is_empty()
                    && preference.dynamic_weight.is_none() =>
            {
                return false;
            }
            Some(_) => {}
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::admitted_for_test;
    use serde_json::json;

    fn template(api_version: &str, kind: &str, object: Value) -> Template {
        Template::for_test(api_version, kind, "default", "app", object)
    }

    fn policy(placement: Value) -> Propagation {
        admitted_for_test(json!({
            "apiVersion": "policy.karmada.io/v1alpha1", "kind": "ClusterPropagationPolicy",
            "metadata": {"name": "p"},
            "spec": {"resourceSelectors": [{"apiVersion": "apps/v1", "kind": "Deployment"}], "placement": placement}}))
    }

    /// Clusters with `pods` free pods each (and nothing else in the summary).
    fn clusters(pods: &[(&str, i64)]) -> Vec<Cluster> {
        pods.iter()
            .map(|(name, pods)| {
                serde_json::from_value(json!({"apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster",
                    "metadata": {"name": name, "labels": {"tier": if name.starts_with("big") { "big" } else { "small" }}},
                    "status": {"resourceSummary": {"allocatable": {"pods": pods.to_string()}}}}))
                .unwrap()
            })
            .collect()
    }

    fn run(placement: Value, object: Value, inventory: &[Cluster]) -> Schedule {
        let template = template("apps/v1", "Deployment", object);
        let workload = Workload::of(&Interpreter::default(), &template).unwrap();
        schedule(&template, &workload, &policy(placement), inventory)
    }

    fn replicas(schedule: &Schedule) -> Vec<(String, Option<i64>)> {
        schedule
            .targets
            .iter()
            .map(|t| (t.name.clone(), t.replicas))
            .collect()
    }

    // karmada scheduler.go scheduleResourceBindingWithClusterAffinities: the first term that
    // schedules wins; running out of capacity counts as failing.
    #[test]
    fn cluster_affinities_fall_through_to_the_next_term() {
        let inventory = clusters(&[("small-a", 2), ("small-b", 2), ("big-a", 50)]);
        let placement = json!({
            "clusterAffinities": [
                {"affinityName": "small", "labelSelector": {"matchLabels": {"tier": "small"}}},
                {"affinityName": "big", "labelSelector": {"matchLabels": {"tier": "big"}}}],
            "replicaScheduling": {"replicaSchedulingType": "Divided", "replicaDivisionPreference": "Aggregated"}});
        let fits = run(
            placement.clone(),
            json!({"spec": {"replicas": 3}}),
            &inventory,
        );
        assert_eq!(
            replicas(&fits),
            vec![
                ("small-a".to_string(), Some(2)),
                ("small-b".to_string(), Some(1))
            ]
        );
        let falls_through = run(
            placement.clone(),
            json!({"spec": {"replicas": 10}}),
            &inventory,
        );
        assert_eq!(
            replicas(&falls_through),
            vec![("big-a".to_string(), Some(10))]
        );
        let nowhere = run(placement, json!({"spec": {"replicas": 100}}), &inventory);
        assert!(nowhere.targets.is_empty());
        assert_eq!(
            nowhere.failure.as_deref(),
            Some(
                "affinity small: needs 100 replicas, the selected clusters have 4 available; affinity big: needs 100 replicas, the selected clusters have 50 available"
            )
        );
    }

    // spec §10.2: parallelism 3, completions 10, split 2:1 ⇒ completions 7/3.
    #[test]
    fn divided_jobs_split_their_completions() {
        let inventory = clusters(&[("member1", 10), ("member2", 10)]);
        let job = template(
            "batch/v1",
            "Job",
            json!({"spec": {"parallelism": 3, "completions": 10}}),
        );
        let workload = Workload::of(&Interpreter::default(), &job).unwrap();
        let placement = json!({"replicaScheduling": {"replicaSchedulingType": "Divided",
            "weightPreference": {"staticWeightList": [
                {"targetCluster": {"clusterNames": ["member1"]}, "weight": 2},
                {"targetCluster": {"clusterNames": ["member2"]}, "weight": 1}]}}});
        let result = schedule(&job, &workload, &policy(placement), &inventory);
        let split: Vec<_> = result
            .targets
            .iter()
            .map(|t| (t.replicas, t.completions))
            .collect();
        assert_eq!(split, vec![(Some(2), Some(7)), (Some(1), Some(3))]);
    }

    // spec §3.2: only kinds with a replica interpreter are workloads.
    #[test]
    fn a_daemonset_with_requests_is_not_a_workload() {
        let daemonset = template(
            "apps/v1",
            "DaemonSet",
            json!({"spec": {"template": {"spec": {
            "containers": [{"resources": {"requests": {"cpu": "1"}}}]}}}}),
        );
        let workload = Workload::of(&Interpreter::default(), &daemonset).unwrap();
        assert!(!workload.is_workload);
        assert_eq!(workload.replicas, 0);
    }

    // spec §8.2 / karmada#3495: 0 replicas with requests goes nowhere; without, everywhere.
    #[test]
    fn zero_replicas_go_nowhere_only_with_requirements() {
        let inventory = clusters(&[("member1", 10)]);
        let with_requests = run(
            json!({}),
            json!({"spec": {"replicas": 0, "template": {"spec": {
            "containers": [{"resources": {"requests": {"cpu": "100m"}}}]}}}}),
            &inventory,
        );
        assert!(with_requests.targets.is_empty());
        let without = run(json!({}), json!({"spec": {"replicas": 0}}), &inventory);
        assert_eq!(replicas(&without), vec![("member1".to_string(), None)]);
    }

    // spec §7.1: static weights ignore spread constraints (karmada#3184).
    #[test]
    fn static_weights_ignore_spread_constraints() {
        let inventory = clusters(&[("member1", 10), ("member2", 10), ("member3", 10)]);
        let placement = json!({"spreadConstraints": [{"spreadByField": "cluster", "maxGroups": 1, "minGroups": 1}],
            "replicaScheduling": {"replicaSchedulingType": "Divided",
                "weightPreference": {"staticWeightList": [{"targetCluster": {}, "weight": 1}]}}});
        assert_eq!(
            run(placement, json!({"spec": {"replicas": 3}}), &inventory)
                .targets
                .len(),
            3
        );
        let duplicated = json!({"spreadConstraints": [{"spreadByField": "cluster", "maxGroups": 1, "minGroups": 1}]});
        assert_eq!(
            run(duplicated, json!({"spec": {"replicas": 3}}), &inventory)
                .targets
                .len(),
            1
        );
    }
}
