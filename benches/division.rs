//! Replica division alone, in process: N Divided templates (static weights, dynamic weights
//! and Aggregated in turn) scheduled over M clusters with capacity, as the scheduling issue
//! asks ("how long division takes for 10,000 Divided templates over 200 clusters").
//!
//! cargo bench --bench division                 # 10000x200
//! cargo bench --bench division -- 2000x50

use std::time::Instant;

use serde_json::json;

use fedrender_engine::api::cluster::Cluster;
use fedrender_engine::api::karmada::PropagationPolicy;
use fedrender_engine::diagnostics::Located;
use fedrender_engine::diagnostics::Origin;
use fedrender_engine::interpret::Interpreter;
use fedrender_engine::object::{ObjectKey, Template};
use fedrender_engine::policy::{Propagation, admit_propagation};
use fedrender_engine::schedule::{ScheduleOptions, Workload, schedule};

fn main() {
    let size = std::env::args()
        .skip(1)
        .find(|arg| arg.contains('x'))
        .unwrap_or_else(|| "10000x200".to_string());
    let (templates, clusters) = size.split_once('x').expect("sizes look like 10000x200");
    let (templates, clusters): (usize, usize) =
        (templates.parse().unwrap(), clusters.parse().unwrap());
    let inventory: Vec<Cluster> = (0..clusters)
        .map(|index| {
            serde_json::from_value(json!({
                "apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster",
                "metadata": {"name": format!("member-{index:03}"), "labels": {"region": format!("r{}", index % 5)}},
                "status": {"resourceSummary": {
                    "allocatable": {"cpu": "64", "memory": "256Gi", "pods": "1100"},
                    "allocated": {"cpu": format!("{}", index % 40), "memory": "64Gi", "pods": format!("{}", (index * 7) % 600)}}}}))
            .unwrap()
        })
        .collect();
    let strategies = [
        json!({"replicaSchedulingType": "Divided", "weightPreference": {"staticWeightList": [
            {"targetCluster": {"labelSelector": {"matchLabels": {"region": "r0"}}}, "weight": 3},
            {"targetCluster": {"labelSelector": {"matchLabels": {"region": "r1"}}}, "weight": 2},
            {"targetCluster": {"labelSelector": {"matchExpressions": [{"key": "region", "operator": "NotIn", "values": ["r0", "r1"]}]}}, "weight": 1}]}}),
        json!({"replicaSchedulingType": "Divided", "weightPreference": {"dynamicWeight": "AvailableReplicas"}}),
        json!({"replicaSchedulingType": "Divided", "replicaDivisionPreference": "Aggregated"}),
    ];
    let policies: Vec<Propagation> = strategies
        .iter()
        .map(|strategy| {
            let item: PropagationPolicy = serde_json::from_value(json!({
                "apiVersion": "policy.karmada.io/v1alpha1", "kind": "ClusterPropagationPolicy",
                "metadata": {"name": "p"},
                "spec": {"resourceSelectors": [{"apiVersion": "apps/v1", "kind": "Deployment"}],
                    "placement": {"replicaScheduling": strategy}}}))
            .unwrap();
            admit_propagation(
                &Located {
                    origin: Origin::new("p", 0, 1),
                    item,
                    fields: fedrender_engine::diagnostics::FieldLines::default(),
                },
                &mut Vec::new(),
            )
            .unwrap()
        })
        .collect();
    let interpreter = Interpreter::default();
    let workloads: Vec<(Template, Workload)> = (0..templates)
        .map(|index| {
            let template = Template {
                origin: Origin::new("t", 0, 1),
                api_version: "apps/v1".to_string(),
                key: ObjectKey {
                    group: "apps".to_string(),
                    kind: "Deployment".to_string(),
                    namespace: "default".to_string(),
                    name: format!("app-{index:05}"),
                },
                labels: Default::default(),
                object: json!({"spec": {"replicas": 1 + index % 50, "template": {"spec": {"containers": [
                    {"resources": {"requests": {"cpu": "250m", "memory": "512Mi"}}}]}}}}),
            };
            let workload = Workload::of(&interpreter, &template).unwrap();
            (template, workload)
        })
        .collect();
    let started = Instant::now();
    let mut placed = 0usize;
    for (index, (template, workload)) in workloads.iter().enumerate() {
        let result = schedule(
            template,
            workload,
            &policies[index % policies.len()],
            &inventory,
            ScheduleOptions::default(),
        );
        placed += result.targets.len();
    }
    let elapsed = started.elapsed();
    println!(
        "division: {templates} Divided templates over {clusters} clusters (static, dynamic, Aggregated in turn): {:.2} s on one core, {placed} targets",
        elapsed.as_secs_f64()
    );
}
