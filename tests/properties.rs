//! Properties of Karmada's division that must hold for every input (proptest): replicas add up
//! to the total when capacity allows, static weights are house-monotone (the reason Karmada
//! moved to Webster, karmada#6735), and the result does not depend on inventory order.

use proptest::prelude::*;
use serde_json::{Value, json};

use fedrender_engine::api::cluster::Cluster;
use fedrender_engine::api::karmada::PropagationPolicy;
use fedrender_engine::diagnostics::Located;
use fedrender_engine::diagnostics::Origin;
use fedrender_engine::interpret::Interpreter;
use fedrender_engine::object::{ObjectKey, Template};
use fedrender_engine::policy::{Propagation, admit_propagation};
use fedrender_engine::schedule::{Schedule, Workload, schedule};

fn cluster(index: usize, pods: i64) -> Cluster {
    serde_json::from_value(json!({
        "apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster",
        "metadata": {"name": format!("member{index:02}"), "labels": {"weight": (index % 4 + 1).to_string()}},
        "status": {"resourceSummary": {"allocatable": {"pods": pods.to_string()}}}}))
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

fn policy(replica_scheduling: Value) -> Propagation {
    let item: PropagationPolicy = serde_json::from_value(json!({
        "apiVersion": "policy.karmada.io/v1alpha1", "kind": "ClusterPropagationPolicy",
        "metadata": {"name": "p"},
        "spec": {"resourceSelectors": [{"apiVersion": "apps/v1", "kind": "Deployment"}],
            "placement": {"replicaScheduling": replica_scheduling}}}))
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
    ]
}

fn run(strategy: &Value, clusters: &[Cluster], replicas: i64, uid: &str) -> Schedule {
    let template = deployment(replicas, uid);
    let workload = Workload::of(&Interpreter::default(), &template).unwrap();
    schedule(&template, &workload, &policy(strategy.clone()), clusters)
}

fn per_cluster(schedule: &Schedule) -> Vec<(String, i64)> {
    schedule
        .targets
        .iter()
        .map(|target| (target.name.clone(), target.replicas.unwrap_or(0)))
        .collect()
}

fn inventory() -> impl Strategy<Value = Vec<Cluster>> {
    prop::collection::vec(0i64..60, 1..12).prop_map(|pods| {
        pods.into_iter()
            .enumerate()
            .map(|(i, p)| cluster(i, p))
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn divided_replicas_sum_to_the_total_when_capacity_allows(
        clusters in inventory(), replicas in 1i64..200, uid in "[a-f0-9]{0,8}",
    ) {
        let capacity: i64 = clusters
            .iter()
            .map(|c| c.status.as_ref().unwrap().resource_summary.as_ref().unwrap().allocatable["pods"].value_ceil() as i64)
            .sum();
        for strategy in strategies() {
            let result = run(&strategy, &clusters, replicas, &uid);
            let total: i64 = per_cluster(&result).iter().map(|(_, r)| r).sum();
            let capacity_bound = strategy.get("weightPreference").and_then(|p| p.get("staticWeightList")).is_none();
            if !capacity_bound || replicas <= capacity {
                prop_assert_eq!(total, replicas, "{:?}", strategy);
            } else {
                prop_assert!(result.targets.is_empty());
            }
        }
    }

    #[test]
    fn raising_static_replicas_by_one_adds_one_replica_to_one_cluster(
        clusters in inventory(), replicas in 0i64..150, uid in "[a-f0-9]{0,8}",
    ) {
        let before: std::collections::BTreeMap<_, _> = per_cluster(&run(&static_weights(), &clusters, replicas, &uid)).into_iter().collect();
        let after: std::collections::BTreeMap<_, _> = per_cluster(&run(&static_weights(), &clusters, replicas + 1, &uid)).into_iter().collect();
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
        clusters in inventory(), replicas in 1i64..120, uid in "[a-f0-9]{0,8}", seed in any::<u64>(),
    ) {
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
                per_cluster(&run(&strategy, &clusters, replicas, &uid)),
                per_cluster(&run(&strategy, &shuffled, replicas, &uid)),
                "{:?}", strategy
            );
        }
    }
}
