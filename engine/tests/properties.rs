//! Properties of Karmada's division that must hold for every input (proptest): replicas add up
//! to the total when capacity allows, static weights are house-monotone (the reason Karmada
//! moved to Webster, karmada#6735), and the result does not depend on inventory order; over
//! inventories with regions and taints and placements with tolerations, cluster affinity and
//! spread constraints, Divided and Duplicated alike, no cluster the filters remove gets
//! replicas and no spread constraint is exceeded.

use proptest::prelude::*;
use serde_json::{Value, json};

use fedrender_engine::api::cluster::Cluster;
use fedrender_engine::api::karmada::PropagationPolicy;
use fedrender_engine::diagnostics::Located;
use fedrender_engine::diagnostics::Origin;
use fedrender_engine::interpret::Interpreter;
use fedrender_engine::object::{ObjectKey, Template};
use fedrender_engine::policy::{Propagation, admit_propagation};
use fedrender_engine::schedule::{Schedule, ScheduleOptions, Workload, schedule};

const REGIONS: [&str; 3] = ["eu", "us", "ap"];

/// What a generated cluster is: its free pods, region, taint and tier.
#[derive(Debug, Clone, Copy)]
struct Shape {
    pods: i64,
    region: usize,
    /// 0: none; 1: `dedicated=gpu:NoSchedule`; 2: `maintenance:NoExecute`;
    /// 3: `soft:PreferNoSchedule`, which never filters.
    taint: usize,
    tier_a: bool,
}

fn cluster(index: usize, shape: Shape) -> Cluster {
    let taints = match shape.taint {
        1 => json!([{"key": "dedicated", "value": "gpu", "effect": "NoSchedule"}]),
        2 => json!([{"key": "maintenance", "effect": "NoExecute"}]),
        3 => json!([{"key": "soft", "effect": "PreferNoSchedule"}]),
        _ => json!([]),
    };
    serde_json::from_value(json!({
        "apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster",
        "metadata": {"name": format!("member{index:02}"), "labels": {
            "weight": (index % 4 + 1).to_string(),
            "tier": if shape.tier_a { "a" } else { "b" }}},
        "spec": {"region": REGIONS[shape.region], "taints": taints},
        "status": {"resourceSummary": {"allocatable": {"pods": shape.pods.to_string()}}}}))
    .unwrap()
}

fn deployment(replicas: i64, uid: &str) -> Template {
    Template {
        origin: Origin::new("t.yaml", 0, 1),
        api_version: "apps/v1".to_string(),
        key: ObjectKey {
            group: "apps".to_string(),
            kind: "Deployment".to_string(),
            namespace: "default".to_string(),
            name: "web".to_string(),
        },
        labels: Default::default(),
        object: json!({"metadata": {"uid": uid}, "spec": {"replicas": replicas}}),
    }
}

fn policy(replica_scheduling: Value, rules: &Rules) -> Propagation {
    let mut placement = rules.placement();
    placement["replicaScheduling"] = replica_scheduling;
    let item: PropagationPolicy = serde_json::from_value(json!({
        "apiVersion": "policy.karmada.io/v1alpha1", "kind": "ClusterPropagationPolicy",
        "metadata": {"name": "p"},
        "spec": {"resourceSelectors": [{"apiVersion": "apps/v1", "kind": "Deployment"}],
            "placement": placement}}))
    .unwrap();
    admit_propagation(
        &Located {
            origin: Origin::new("p.yaml", 0, 1),
            item,
            fields: fedrender_engine::diagnostics::FieldLines::default(),
        },
        &mut Vec::new(),
    )
    .unwrap()
}

/// The placement's filters and spread constraints, besides the replica scheduling.
#[derive(Debug, Clone, Copy, Default)]
struct Rules {
    /// 0: none; 1: `dedicated=gpu:NoSchedule`; 2: every taint (`operator: Exists`).
    tolerations: usize,
    /// 0: every cluster; 1: tier `a` only; 2: all but member00 and member03.
    affinity: usize,
    /// 0: none; 1: at most `max_groups` clusters; 2: at most `max_groups` regions (and any
    /// number of clusters, as validation wants a cluster constraint beside a field's).
    spread: usize,
    max_groups: i64,
}

impl Rules {
    fn placement(&self) -> Value {
        let mut placement = json!({});
        match self.tolerations {
            1 => {
                placement["clusterTolerations"] = json!([{"key": "dedicated", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"}])
            }
            2 => placement["clusterTolerations"] = json!([{"operator": "Exists"}]),
            _ => {}
        }
        match self.affinity {
            1 => {
                placement["clusterAffinity"] =
                    json!({"labelSelector": {"matchLabels": {"tier": "a"}}})
            }
            2 => placement["clusterAffinity"] = json!({"exclude": ["member00", "member03"]}),
            _ => {}
        }
        match self.spread {
            1 => {
                placement["spreadConstraints"] = json!([{"spreadByField": "cluster", "maxGroups": self.max_groups, "minGroups": 1}])
            }
            2 => {
                placement["spreadConstraints"] = json!([
                {"spreadByField": "region", "maxGroups": self.max_groups, "minGroups": 1},
                {"spreadByField": "cluster", "maxGroups": 100, "minGroups": 1}])
            }
            _ => {}
        }
        placement
    }

    /// Whether the filters keep the cluster: its taints tolerated, the affinity met.
    fn keeps(&self, index: usize, shape: &Shape) -> bool {
        let tolerated = match shape.taint {
            1 => self.tolerations >= 1,
            2 => self.tolerations == 2,
            _ => true,
        };
        let affine = match self.affinity {
            1 => shape.tier_a,
            2 => index != 0 && index != 3,
            _ => true,
        };
        tolerated && affine
    }
}

fn rules() -> impl Strategy<Value = Rules> {
    (0..3usize, 0..3usize, 0..3usize, 1i64..4).prop_map(
        |(tolerations, affinity, spread, max_groups)| Rules {
            tolerations,
            affinity,
            spread,
            max_groups,
        },
    )
}

/// Static weights 1 to 4 by the cluster's `weight` label.
fn static_weights() -> Value {
    let rules: Vec<Value> = (1..=4)
        .map(|weight| json!({"targetCluster": {"labelSelector": {"matchLabels": {"weight": weight.to_string()}}}, "weight": weight}))
        .collect();
    json!({"replicaSchedulingType": "Divided", "weightPreference": {"staticWeightList": rules}})
}

fn strategies() -> Vec<Value> {
    vec![
        static_weights(),
        json!({"replicaSchedulingType": "Divided", "weightPreference": {"dynamicWeight": "AvailableReplicas"}}),
        json!({"replicaSchedulingType": "Divided", "replicaDivisionPreference": "Aggregated"}),
        json!({"replicaSchedulingType": "Duplicated"}),
    ]
}

fn run(
    strategy: &Value,
    rules: &Rules,
    clusters: &[Cluster],
    replicas: i64,
    uid: &str,
) -> Schedule {
    run_with(
        ScheduleOptions::default(),
        strategy,
        rules,
        clusters,
        (replicas, uid),
    )
}

fn run_with(
    options: ScheduleOptions,
    strategy: &Value,
    rules: &Rules,
    clusters: &[Cluster],
    (replicas, uid): (i64, &str),
) -> Schedule {
    let template = deployment(replicas, uid);
    let workload = Workload::of(&Interpreter::default(), &template).unwrap();
    schedule(
        &template,
        &workload,
        &policy(strategy.clone(), rules),
        clusters,
        options,
    )
}

fn per_cluster(schedule: &Schedule) -> Vec<(String, i64)> {
    schedule
        .targets
        .iter()
        .map(|target| (target.name.clone(), target.replicas.unwrap_or(0)))
        .collect()
}

/// Shapes of 1 to 11 clusters; the inventory is [`clusters`] of them.
fn inventory() -> impl Strategy<Value = Vec<Shape>> {
    prop::collection::vec(
        (0i64..60, 0..3usize, 0..4usize, any::<bool>()).prop_map(
            |(pods, region, taint, tier_a)| Shape {
                pods,
                region,
                taint,
                tier_a,
            },
        ),
        1..12,
    )
}

fn clusters(shapes: &[Shape]) -> Vec<Cluster> {
    shapes
        .iter()
        .enumerate()
        .map(|(index, shape)| cluster(index, *shape))
        .collect()
}

fn index_of(name: &str) -> usize {
    name.strip_prefix("member").unwrap().parse().unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn divided_replicas_sum_to_the_total_when_capacity_allows(
        shapes in inventory(), replicas in 1i64..200, uid in "[a-f0-9]{0,8}",
    ) {
        let clusters = clusters(&shapes);
        let capacity: i64 = shapes.iter().map(|shape| shape.pods).sum();
        for strategy in strategies().into_iter().filter(|s| s["replicaSchedulingType"] == "Divided") {
            // Every taint tolerated: every cluster is a candidate.
            let tolerant = Rules { tolerations: 2, ..Rules::default() };
            let result = run(&strategy, &tolerant, &clusters, replicas, &uid);
            let total: i64 = per_cluster(&result).iter().map(|(_, r)| r).sum();
            let capacity_bound = strategy.get("weightPreference").and_then(|p| p.get("staticWeightList")).is_none();
            if !capacity_bound || replicas <= capacity {
                prop_assert_eq!(total, replicas, "{:?}", strategy);
            } else {
                prop_assert!(result.targets.is_empty());
            }
        }
    }

    /// Taints, tolerations, cluster affinity and spread constraints, with every strategy:
    /// replicas go only to clusters the filters keep, Divided splits exactly the total (or
    /// schedules nothing, and says why), Duplicated gives each cluster all of them, and no
    /// spread constraint has more groups than it allows.
    #[test]
    fn filters_and_spread_constraints_hold_for_every_strategy(
        shapes in inventory(), rules in rules(), replicas in 1i64..200, uid in "[a-f0-9]{0,8}",
    ) {
        let clusters = clusters(&shapes);
        let kept: Vec<usize> = (0..shapes.len()).filter(|&i| rules.keeps(i, &shapes[i])).collect();
        let room: i64 = kept.iter().map(|&i| shapes[i].pods).sum();
        for strategy in strategies() {
            let result = run(&strategy, &rules, &clusters, replicas, &uid);
            let placed = per_cluster(&result);
            for (name, _) in &placed {
                let index = index_of(name);
                prop_assert!(rules.keeps(index, &shapes[index]), "{} is filtered out: {:?}", name, strategy);
            }
            let is_static = strategy.pointer("/weightPreference/staticWeightList").is_some();
            if strategy["replicaSchedulingType"] == "Duplicated" {
                for (name, count) in &placed {
                    prop_assert_eq!(*count, replicas, "{}", name);
                }
            } else {
                let total: i64 = placed.iter().map(|(_, r)| r).sum();
                if placed.is_empty() {
                    prop_assert!(result.failure.is_some() || kept.is_empty(), "{:?}", strategy);
                } else {
                    prop_assert_eq!(total, replicas, "{:?}", strategy);
                }
                // Without spread constraints, the clusters kept are the only limit.
                if rules.spread == 0 && !kept.is_empty() && (is_static || replicas <= room) {
                    prop_assert_eq!(total, replicas, "{:?}: {} kept", strategy, kept.len());
                }
            }
            // Static weights ignore spread constraints, as Karmada does.
            if !is_static {
                match rules.spread {
                    1 => prop_assert!(placed.len() as i64 <= rules.max_groups, "{:?}: {:?}", strategy, placed),
                    2 => {
                        let regions: std::collections::BTreeSet<usize> =
                            placed.iter().map(|(name, _)| shapes[index_of(name)].region).collect();
                        prop_assert!(regions.len() as i64 <= rules.max_groups, "{:?}: {:?}", strategy, placed);
                    }
                    _ => {}
                }
            }
        }
    }

    /// karmada generic_scheduler.go `Schedule` with `--enable-empty-workload-propagation`
    /// (`attachZeroReplicasCluster`): for every strategy the schedule is the one without the
    /// flag, each cluster's replicas unchanged, plus clusters at 0 replicas; it fails exactly
    /// when that one does; and every cluster it adds is one the filters keep.
    #[test]
    fn empty_workload_propagation_only_adds_clusters_at_zero_replicas(
        shapes in inventory(), rules in rules(), replicas in 1i64..200, uid in "[a-f0-9]{0,8}",
    ) {
        let clusters = clusters(&shapes);
        let on = ScheduleOptions { empty_workload_propagation: true };
        for strategy in strategies() {
            let off = run(&strategy, &rules, &clusters, replicas, &uid);
            let with = run_with(on, &strategy, &rules, &clusters, (replicas, &uid));
            prop_assert_eq!(off.failure.is_some(), with.failure.is_some(), "{:?}", strategy);
            let before: std::collections::BTreeMap<_, _> = per_cluster(&off).into_iter().collect();
            let after = per_cluster(&with);
            for (name, count) in &after {
                match before.get(name) {
                    Some(old) => prop_assert_eq!(old, count, "{} {:?}", name, strategy),
                    None => {
                        prop_assert_eq!(*count, 0, "{} {:?}", name, strategy);
                        prop_assert!(with.kept_empty.contains(name));
                        let index = index_of(name);
                        prop_assert!(rules.keeps(index, &shapes[index]), "{} is filtered out", name);
                    }
                }
            }
            prop_assert_eq!(after.len(), before.len() + with.kept_empty.len());
        }
    }

    #[test]
    fn raising_static_replicas_by_one_adds_one_replica_to_one_cluster(
        shapes in inventory(), rules in rules(), replicas in 0i64..150, uid in "[a-f0-9]{0,8}",
    ) {
        let clusters = clusters(&shapes);
        // Taints and affinity narrow the clusters; nothing left, nothing grows.
        prop_assume!((0..shapes.len()).any(|i| rules.keeps(i, &shapes[i])));
        let before: std::collections::BTreeMap<_, _> = per_cluster(&run(&static_weights(), &rules, &clusters, replicas, &uid)).into_iter().collect();
        let after: std::collections::BTreeMap<_, _> = per_cluster(&run(&static_weights(), &rules, &clusters, replicas + 1, &uid)).into_iter().collect();
        let names: std::collections::BTreeSet<_> = before.keys().chain(after.keys()).collect();
        let mut grew = 0;
        for name in names {
            let (old, new) = (before.get(name).copied().unwrap_or(0), after.get(name).copied().unwrap_or(0));
            prop_assert!(new >= old, "{} lost replicas: {} -> {}", name, old, new);
            if new > old {
                prop_assert_eq!(new, old + 1);
                grew += 1;
            }
        }
        prop_assert_eq!(grew, 1);
    }

    #[test]
    fn the_result_does_not_depend_on_inventory_order(
        shapes in inventory(), rules in rules(), replicas in 1i64..120, uid in "[a-f0-9]{0,8}", seed in any::<u64>(),
    ) {
        let clusters = clusters(&shapes);
        let mut shuffled = clusters.clone();
        let mut state = seed | 1;
        for i in (1..shuffled.len()).rev() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            shuffled.swap(i, (state % (i as u64 + 1)) as usize);
        }
        for strategy in strategies() {
            prop_assert_eq!(
                per_cluster(&run(&strategy, &rules, &clusters, replicas, &uid)),
                per_cluster(&run(&strategy, &rules, &shuffled, replicas, &uid)),
                "{:?}", strategy
            );
        }
    }
}
