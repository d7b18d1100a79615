//! Scheduling: a binding and the inventory give the target clusters, each with its replica
//! count (karmada pkg/scheduler/core/generic_scheduler.go). Every cluster score is 0 offline,
//! so the canonical order of clusters is their name.

pub mod divide;
pub mod filter;
pub mod spread;

use crate::api::cluster::Cluster;
use crate::interpret::Interpreter;
use crate::object::Template;
use crate::policy::Propagation;

pub use filter::Filtered;

/// One cluster a template goes to. `replicas` is `None` for non-workloads, which are copied
/// unchanged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TargetCluster {
    pub name: String,
    pub replicas: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schedule {
    pub targets: Vec<TargetCluster>,
    /// Every cluster that was filtered out, and why.
    pub filtered: Vec<(String, Filtered)>,
}

/// Schedules one template under its policy onto the inventory (sorted by name).
pub fn schedule(
    interpreter: &Interpreter,
    template: &Template,
    policy: &Propagation,
    clusters: &[Cluster],
) -> Schedule {
    let placement = &policy.placement;
    let mut feasible = Vec::new();
    let mut filtered = Vec::new();
    for cluster in clusters {
        match filter::filter_cluster(placement, template, cluster) {
            Ok(()) => feasible.push(cluster),
            Err(reason) => filtered.push((cluster.name().to_string(), reason)),
        }
    }
    let replicas = interpreter.replicas(template);
    let is_workload = match replicas {
        None => false,
        Some(0) => interpreter.has_node_claim(template),
        Some(_) => true,
    };
    let targets = match replicas {
        // A workload with no replicas gets 0 everywhere and 0-replica clusters are dropped:
        // it is rendered nowhere (karmada scheduler core/common.go, issue #3495).
        Some(0) if is_workload => Vec::new(),
        // Not a workload: it goes everywhere it is placed, unchanged.
        None | Some(0) => feasible
            .iter()
            .map(|cluster| TargetCluster {
                name: cluster.name().to_string(),
                replicas: replicas.map(|_| 0),
            })
            .collect(),
        Some(total) => {
            let assigned =
                divide::assign_replicas(divide::strategy(placement), feasible.len(), total);
            feasible
                .iter()
                .zip(assigned)
                .filter(|(_, replicas)| *replicas > 0)
                .map(|(cluster, replicas)| TargetCluster {
                    name: cluster.name().to_string(),
                    replicas: Some(replicas),
                })
                .collect()
        }
    };
    Schedule { targets, filtered }
}
