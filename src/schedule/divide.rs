//! Replica assignment among the selected clusters (karmada pkg/scheduler/core/assignment.go).

use crate::api::karmada::{Placement, ReplicaSchedulingType};

/// How replicas are spread over the selected clusters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    /// Every selected cluster runs the template's full replica count.
    Duplicated,
}

/// The strategy a placement asks for (karmada `Placement.ReplicaSchedulingType`): no
/// `replicaScheduling` means Duplicated. Admission rejects the strategies fedrender does not
/// implement, so only Duplicated reaches here.
pub fn strategy(placement: &Placement) -> Strategy {
    match placement
        .replica_scheduling
        .as_ref()
        .and_then(|strategy| strategy.replica_scheduling_type)
    {
        None | Some(ReplicaSchedulingType::Duplicated) | Some(ReplicaSchedulingType::Divided) => {
            Strategy::Duplicated
        }
    }
}

/// Replicas per selected cluster, in the clusters' order.
pub fn assign_replicas(strategy: Strategy, clusters: usize, replicas: i64) -> Vec<i64> {
    match strategy {
        Strategy::Duplicated => vec![replicas; clusters],
    }
}
