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

/// How karmada-scheduler was started, where that changes a schedule (karmada
/// generic_scheduler.go `ScheduleAlgorithmOption`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ScheduleOptions {
    /// `--enable-empty-workload-propagation`: a workload stays on every cluster the scheduler
    /// selected, with 0 replicas where the division gave it none.
    pub empty_workload_propagation: bool,
}

/// Where one template goes: its target clusters, or why none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schedule {
    /// The target clusters, in the inventory's order.
    pub targets: Vec<TargetCluster>,
    /// The targets that have 0 replicas only because empty-workload propagation kept them,
    /// by name: for the plan report.
    pub kept_empty: Vec<String>,
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
    options: ScheduleOptions,
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
        let scheduled = schedule_term(
            (template, workload),
            placement,
            term,
            (clusters, options),
            &mut filtered,
        );
        match scheduled {
            Ok(Scheduled {
                targets,
                kept_empty,
                division,
            }) => {
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
                    kept_empty,
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
        kept_empty: Vec::new(),
        failure: Some(failures.join("; ")),
        filtered: first_filtered.unwrap_or_default(),
        division: None,
    }
}

/// What one affinity term schedules.
struct Scheduled {
    targets: Vec<TargetCluster>,
    kept_empty: Vec<String>,
    division: Option<divide::Division>,
}

/// One affinity term through filter, estimate, spread selection and division, with how the
/// replicas were divided. An error says why the term does not schedule.
fn schedule_term(
    (template, workload): (&Template, &Workload),
    placement: &Placement,
    term: &AffinityTerm,
    (clusters, options): (&[Cluster], ScheduleOptions),
    filtered: &mut Vec<(String, Filtered)>,
) -> Result<Scheduled, String> {
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
        return Ok(Scheduled {
            targets,
            kept_empty: Vec::new(),
            division: None,
        });
    }
    if workload.replicas == 0 && !options.empty_workload_propagation {
        return Err(
            "it has 0 replicas and per-replica requirements, and Karmada drops clusters that get 0 replicas (karmada#3495; spec.karmada.scheduler.enableEmptyWorkloadPropagation keeps them)"
                .to_string(),
        );
    }
    // 0 replicas (with requirements) divide into nothing under every strategy: only
    // empty-workload propagation, below, keeps the selected clusters.
    let division = if workload.replicas == 0 {
        None
    } else {
        divide::divide_replicas(strategy, &seats, workload.replicas, &workload.uid)?
    };
    let assigned: Vec<i64> = match &division {
        None => vec![workload.replicas; seats.len()],
        Some(division) => division.shares.iter().map(|share| share.replicas).collect(),
    };
    // karmada common.go `assignReplicasToClusters`: `removeZeroReplicasCluster`.
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
    let mut kept_empty = Vec::new();
    if options.empty_workload_propagation {
        let names: Vec<&str> = seats.iter().map(|seat| seat.cluster.name()).collect();
        kept_empty = attach_zero_replicas_clusters(&names, &mut targets);
    }
    // karmada binding common.go `needReviseJobCompletions`: only when there are replicas.
    if let Some(completions) = workload.completions
        && strategy.is_divided()
        && workload.replicas > 0
    {
        split_completions(&mut targets, completions, &workload.uid);
    }
    targets.sort();
    Ok(Scheduled {
        targets,
        kept_empty,
        division,
    })
}

/// karmada generic_scheduler.go `attachZeroReplicasCluster` (util.go), run by `Schedule` with
/// `--enable-empty-workload-propagation`: every selected cluster the assignment left out is a
/// target with 0 replicas. Returns those clusters' names, in selection order.
fn attach_zero_replicas_clusters(
    selected: &[&str],
    targets: &mut Vec<TargetCluster>,
) -> Vec<String> {
    let mut kept = Vec::new();
    for &name in selected {
        if targets.iter().all(|target| target.name != name) {
            targets.push(TargetCluster {
                name: name.to_string(),
                replicas: Some(0),
                completions: None,
            });
            kept.push(name.to_string());
        }
    }
    kept
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
        schedule(
            &template,
            &workload,
            &policy(placement),
            inventory,
            ScheduleOptions::default(),
        )
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
        let result = schedule(
            &job,
            &workload,
            &policy(placement),
            &inventory,
            ScheduleOptions::default(),
        );
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

    fn run_with(
        options: ScheduleOptions,
        placement: Value,
        template: &Template,
        inventory: &[Cluster],
    ) -> Schedule {
        let workload = Workload::of(&Interpreter::default(), template).unwrap();
        schedule(template, &workload, &policy(placement), inventory, options)
    }

    const EMPTY_WORKLOADS: ScheduleOptions = ScheduleOptions {
        empty_workload_propagation: true,
    };

    fn deployment(replicas: i64, cpu: Option<&str>) -> Template {
        let resources = match cpu {
            Some(cpu) => json!({"requests": {"cpu": cpu}}),
            None => json!({}),
        };
        template(
            "apps/v1",
            "Deployment",
            json!({"metadata": {"uid": "00000000-0000-4000-8000-000000000001"},
                "spec": {"replicas": replicas, "template": {"spec": {
                "containers": [{"name": "app", "resources": resources}]}}}}),
        )
    }

    // karmada util_test.go Test_attachZeroReplicasCluster: member1 and member2 assigned,
    // member3 selected too, so it is appended with 0 replicas and the others keep theirs.
    #[test]
    fn attach_zero_replicas_clusters_appends_the_selected_clusters_left_out() {
        let target = |name: &str, replicas| TargetCluster {
            name: name.to_string(),
            replicas: Some(replicas),
            completions: None,
        };
        let mut targets = vec![target("member1", 1), target("member2", 2)];
        let kept = attach_zero_replicas_clusters(&["member1", "member2", "member3"], &mut targets);
        assert_eq!(
            targets,
            vec![
                target("member1", 1),
                target("member2", 2),
                target("member3", 0)
            ]
        );
        assert_eq!(kept, vec!["member3".to_string()]);
    }

    // karmada generic_scheduler.go Schedule: with EnableEmptyWorkloadPropagation the clusters
    // the division gave nothing (and removeZeroReplicasCluster dropped) come back at 0.
    #[test]
    fn empty_workload_propagation_keeps_every_selected_cluster_of_a_division() {
        let inventory = clusters(&[("member1", 10), ("member2", 10), ("member3", 10)]);
        let divided = json!({"replicaScheduling": {"replicaSchedulingType": "Divided",
            "replicaDivisionPreference": "Weighted"}});
        let web = deployment(1, None);
        let off = run_with(
            ScheduleOptions::default(),
            divided.clone(),
            &web,
            &inventory,
        );
        assert_eq!(replicas(&off).len(), 1);
        assert!(off.kept_empty.is_empty());
        let on = run_with(EMPTY_WORKLOADS, divided, &web, &inventory);
        let winner = replicas(&off)[0].0.clone();
        let mut expected: Vec<(String, Option<i64>)> = ["member1", "member2", "member3"]
            .iter()
            .map(|name| (name.to_string(), Some(i64::from(*name == winner))))
            .collect();
        expected.sort();
        assert_eq!(replicas(&on), expected);
        assert_eq!(on.kept_empty.len(), 2);
        assert!(!on.kept_empty.contains(&winner));
    }

    // karmada common.go AssignReplicas: 0 replicas with requirements go through the strategy,
    // which assigns nothing; generic_scheduler.go then attaches every selected cluster at 0
    // instead of scheduling nowhere (karmada#3495 without the flag).
    #[test]
    fn empty_workload_propagation_sends_zero_replicas_with_requirements_everywhere() {
        let inventory = clusters(&[("member1", 10), ("member2", 10)]);
        let idle = deployment(0, Some("100m"));
        for placement in [
            json!({"replicaScheduling": {"replicaSchedulingType": "Duplicated"}}),
            json!({"replicaScheduling": {"replicaSchedulingType": "Divided",
                "replicaDivisionPreference": "Aggregated"}}),
        ] {
            let off = run_with(
                ScheduleOptions::default(),
                placement.clone(),
                &idle,
                &inventory,
            );
            assert!(off.targets.is_empty(), "{placement}");
            assert!(
                (off.failure.as_deref())
                    .is_some_and(|why| why.contains("enableEmptyWorkloadPropagation")),
                "{off:?}"
            );
            let on = run_with(EMPTY_WORKLOADS, placement.clone(), &idle, &inventory);
            assert_eq!(on.failure, None, "{placement}");
            assert_eq!(
                replicas(&on),
                vec![
                    ("member1".to_string(), Some(0)),
                    ("member2".to_string(), Some(0))
                ],
                "{placement}"
            );
        }
    }

    // karmada generic_scheduler.go Schedule: only the selected clusters are attached, so a
    // cluster the filters (cluster affinity) or the spread constraints left out stays out.
    #[test]
    fn empty_workload_propagation_keeps_only_selected_clusters() {
        let inventory = clusters(&[("member1", 10), ("member2", 10), ("member3", 10)]);
        let web = deployment(1, None);
        let affinity = json!({"clusterAffinity": {"clusterNames": ["member1", "member2"]},
            "replicaScheduling": {"replicaSchedulingType": "Divided",
                "replicaDivisionPreference": "Aggregated"}});
        let names = |schedule: &Schedule| -> Vec<String> {
            schedule.targets.iter().map(|t| t.name.clone()).collect()
        };
        let on = run_with(EMPTY_WORKLOADS, affinity, &web, &inventory);
        assert_eq!(names(&on), vec!["member1", "member2"]);
        let spread = json!({"spreadConstraints": [{"spreadByField": "cluster", "maxGroups": 2, "minGroups": 1}],
            "replicaScheduling": {"replicaSchedulingType": "Divided",
                "replicaDivisionPreference": "Weighted",
                "weightPreference": {"dynamicWeight": "AvailableReplicas"}}});
        let on = run_with(EMPTY_WORKLOADS, spread, &web, &inventory);
        assert_eq!(on.targets.len(), 2, "{on:?}");
        assert_eq!(
            on.targets.iter().map(|t| t.replicas).collect::<Vec<_>>(),
            vec![Some(1), Some(0)]
        );
    }

    // karmada binding common.go divideReplicasByJobCompletions: completions are divided by the
    // clusters' replicas, so a cluster kept at 0 replicas gets 0 completions; with 0 replicas
    // (needReviseJobCompletions) the template's completions stay.
    #[test]
    fn empty_workload_propagation_gives_kept_jobs_no_completions() {
        let inventory = clusters(&[("member1", 10), ("member2", 10), ("member3", 10)]);
        let divided = json!({"replicaScheduling": {"replicaSchedulingType": "Divided",
            "replicaDivisionPreference": "Weighted"}});
        let job = template(
            "batch/v1",
            "Job",
            json!({"spec": {"parallelism": 1, "completions": 4}}),
        );
        let on = run_with(EMPTY_WORKLOADS, divided.clone(), &job, &inventory);
        let split: Vec<_> = on
            .targets
            .iter()
            .map(|t| (t.name.as_str(), t.replicas, t.completions))
            .collect();
        assert_eq!(
            split,
            vec![
                ("member1", Some(1), Some(4)),
                ("member2", Some(0), Some(0)),
                ("member3", Some(0), Some(0))
            ]
        );
        let paused = template(
            "batch/v1",
            "Job",
            json!({"spec": {"parallelism": 0, "completions": 4, "template": {"spec": {
                "containers": [{"name": "job", "resources": {"requests": {"cpu": "1"}}}]}}}}),
        );
        let on = run_with(EMPTY_WORKLOADS, divided, &paused, &inventory);
        assert_eq!(on.targets.len(), 3);
        assert!(
            on.targets
                .iter()
                .all(|t| t.replicas == Some(0) && t.completions.is_none())
        );
    }

    // karmada common.go AssignReplicas: a non-workload already goes to every selected cluster,
    // so the flag changes nothing for it.
    #[test]
    fn empty_workload_propagation_leaves_non_workloads_alone() {
        let inventory = clusters(&[("member1", 10), ("member2", 10)]);
        let config = template("v1", "ConfigMap", json!({"data": {"a": "b"}}));
        let placement = json!({"replicaScheduling": {"replicaSchedulingType": "Divided"}});
        let off = run_with(
            ScheduleOptions::default(),
            placement.clone(),
            &config,
            &inventory,
        );
        let on = run_with(EMPTY_WORKLOADS, placement, &config, &inventory);
        assert_eq!(off, on);
        assert_eq!(replicas(&on).len(), 2);
    }
}
