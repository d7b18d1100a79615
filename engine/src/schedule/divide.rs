//! Replica assignment among the selected clusters (karmada pkg/scheduler/core/assignment.go,
//! division_algorithm.go): Duplicated, static weights, dynamic weights and Aggregated, all
//! dividing with Webster's method.

use crate::api::cluster::Cluster;
use crate::api::karmada::{
    DynamicWeightFactor, Placement, ReplicaDivisionPreference, ReplicaSchedulingType,
    StaticClusterWeight,
};

use super::webster::{self, Party};

/// How replicas are spread over the selected clusters (karmada core/common.go
/// `AssignReplicas` strategy table).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Strategy<'a> {
    /// Every selected cluster runs the template's full replica count.
    Duplicated,
    /// Webster by static weights; `None` when the placement gives no weightPreference (every
    /// cluster weight 1).
    StaticWeight(Option<&'a [StaticClusterWeight]>),
    /// Webster by each cluster's available replicas.
    DynamicWeight,
    /// As few clusters as fit, most available first, Webster by availability among them.
    Aggregated,
}

/// The strategy a placement asks for: no `replicaScheduling` means Duplicated; an explicit
/// `replicaScheduling` without a type is Divided (CRD default); Divided without a preference is
/// Weighted (webhook default).
pub fn strategy(placement: &Placement) -> Strategy<'_> {
    let Some(scheduling) = &placement.replica_scheduling else {
        return Strategy::Duplicated;
    };
    match scheduling.replica_scheduling_type {
        Some(ReplicaSchedulingType::Duplicated) => Strategy::Duplicated,
        None | Some(ReplicaSchedulingType::Divided) => {
            match scheduling.replica_division_preference {
                Some(ReplicaDivisionPreference::Aggregated) => Strategy::Aggregated,
                None | Some(ReplicaDivisionPreference::Weighted) => {
                    match &scheduling.weight_preference {
                        Some(preference)
                            if preference.dynamic_weight
                                == Some(DynamicWeightFactor::AvailableReplicas) =>
                        {
                            Strategy::DynamicWeight
                        }
                        Some(preference) => {
                            Strategy::StaticWeight(Some(&preference.static_weight_list))
                        }
                        None => Strategy::StaticWeight(None),
                    }
                }
            }
        }
    }
}

impl Strategy<'_> {
    pub fn is_divided(&self) -> bool {
        !matches!(self, Strategy::Duplicated)
    }

    /// Whether capacity decides the division, so clusters are filled in overflow tiers.
    fn uses_capacity(&self) -> bool {
        matches!(self, Strategy::DynamicWeight | Strategy::Aggregated)
    }
}

/// A selected cluster as division sees it.
#[derive(Debug, Clone, Copy)]
pub struct Seat<'a> {
    pub cluster: &'a Cluster,
    /// Replicas the cluster can still run (the general estimator's answer).
    pub available: i64,
    /// 0 for the primary affinity, k for the k-th overflow affinity.
    pub overflow: usize,
}

/// Replicas per selected cluster, in the order given (the canonical order). An error says why
/// the replicas do not fit.
pub fn assign_replicas(
    strategy: Strategy<'_>,
    seats: &[Seat<'_>],
    replicas: i64,
    uid: &str,
) -> Result<Vec<i64>, String> {
    match strategy {
        Strategy::Duplicated => Ok(vec![replicas; seats.len()]),
        Strategy::StaticWeight(list) => Ok(static_weight(list, seats, replicas, uid)),
        Strategy::DynamicWeight | Strategy::Aggregated => {
            by_capacity_tiers(strategy, seats, replicas, uid)
        }
    }
}

/// karmada `getStaticWeightInfoList`: a cluster's weight is the largest weight of the rules
/// whose target matches it (weights are not summed); clusters no rule matches get nothing; if
/// no rule matches any cluster, or there is no weightPreference, every cluster weighs 1.
fn static_weight(
    list: Option<&[StaticClusterWeight]>,
    seats: &[Seat<'_>],
    replicas: i64,
    uid: &str,
) -> Vec<i64> {
    let mut weights: Vec<i64> = seats
        .iter()
        .map(|seat| {
            list.unwrap_or(&[])
                .iter()
                .filter(|rule| rule.target_cluster.matches(seat.cluster))
                .map(|rule| rule.weight)
                .max()
                .unwrap_or(0)
        })
        .collect();
    if weights.iter().all(|weight| *weight == 0) {
        weights = vec![1; seats.len()];
    }
    divide(seats, &weights, replicas, uid)
}

/// Dynamic weights and Aggregated, tier by tier when overflow affinities give clusters an
/// order: each tier takes what it has room for, divided inside the tier (karmada core/common.go
/// `assignWorkloadReplicas`). Without overflow there is one tier.
fn by_capacity_tiers(
    strategy: Strategy<'_>,
    seats: &[Seat<'_>],
    replicas: i64,
    uid: &str,
) -> Result<Vec<i64>, String> {
    debug_assert!(strategy.uses_capacity());
    let mut assigned = vec![0; seats.len()];
    let mut remaining = replicas;
    let mut tiers: Vec<usize> = seats.iter().map(|seat| seat.overflow).collect();
    tiers.sort_unstable();
    tiers.dedup();
    for tier in tiers {
        if remaining == 0 {
            break;
        }
        let members: Vec<usize> = (0..seats.len())
            .filter(|&index| seats[index].overflow == tier)
            .collect();
        let room: i64 = members.iter().map(|&index| seats[index].available).sum();
        let amount = remaining.min(room);
        if amount == 0 {
            continue;
        }
        let tier_seats: Vec<Seat<'_>> = members.iter().map(|&index| seats[index]).collect();
        let divided = match strategy {
            Strategy::Aggregated => aggregated(&tier_seats, amount, uid),
            _ => dynamic_weight(&tier_seats, amount, uid),
        };
        for (member, replicas) in members.iter().zip(divided) {
            assigned[*member] = replicas;
        }
        remaining -= amount;
    }
    if remaining > 0 {
        let available: i64 = seats.iter().map(|seat| seat.available).sum();
        return Err(format!(
            "needs {replicas} replicas, the selected clusters have {available} available"
        ));
    }
    Ok(assigned)
}

/// karmada `dynamicScaleUp` fresh: Webster by available replicas.
fn dynamic_weight(seats: &[Seat<'_>], replicas: i64, uid: &str) -> Vec<i64> {
    let weights: Vec<i64> = seats.iter().map(|seat| seat.available).collect();
    divide(seats, &weights, replicas, uid)
}

/// karmada Aggregated: clusters by availability, most first (stable, so ties keep the canonical
/// order); the shortest prefix that fits; Webster by availability over that prefix.
fn aggregated(seats: &[Seat<'_>], replicas: i64, uid: &str) -> Vec<i64> {
    let mut order: Vec<usize> = (0..seats.len()).collect();
    order.sort_by(|&a, &b| seats[b].available.cmp(&seats[a].available));
    let mut taken = Vec::new();
    let mut sum = 0;
    for index in order {
        if sum >= replicas {
            break;
        }
        sum += seats[index].available;
        taken.push(index);
    }
    let prefix: Vec<Seat<'_>> = taken.iter().map(|&index| seats[index]).collect();
    let weights: Vec<i64> = prefix.iter().map(|seat| seat.available).collect();
    let divided = divide(&prefix, &weights, replicas, uid);
    let mut assigned = vec![0; seats.len()];
    for (index, replicas) in taken.into_iter().zip(divided) {
        assigned[index] = replicas;
    }
    assigned
}

fn divide(seats: &[Seat<'_>], weights: &[i64], replicas: i64, uid: &str) -> Vec<i64> {
    let parties: Vec<Party<'_>> = seats
        .iter()
        .zip(weights)
        .map(|(seat, &weight)| Party {
            name: seat.cluster.name(),
            weight,
        })
        .collect();
    webster::divide(replicas, &parties, uid)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn clusters(names: &[&str]) -> Vec<Cluster> {
        names
            .iter()
            .map(|name| {
                serde_json::from_value(
                    json!({"apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster",
                    "metadata": {"name": name, "labels": {"name": name}}}),
                )
                .unwrap()
            })
            .collect()
    }

    fn seats<'a>(clusters: &'a [Cluster], available: &[i64]) -> Vec<Seat<'a>> {
        clusters
            .iter()
            .zip(available)
            .map(|(cluster, &available)| Seat {
                cluster,
                available,
                overflow: 0,
            })
            .collect()
    }

    fn placement(value: serde_json::Value) -> Placement {
        serde_json::from_value(value).unwrap()
    }

    fn weights(pairs: &[(&str, i64)]) -> Vec<StaticClusterWeight> {
        pairs
            .iter()
            .map(|(name, weight)| {
                serde_json::from_value(
                    json!({"targetCluster": {"clusterNames": [name]}, "weight": weight}),
                )
                .unwrap()
            })
            .collect()
    }

    // karmada propagation_helper.go ReplicaSchedulingType and the webhook defaults (spec §2.1).
    #[test]
    fn strategies_follow_karmadas_defaults() {
        assert_eq!(strategy(&placement(json!({}))), Strategy::Duplicated);
        assert_eq!(
            strategy(&placement(json!({"replicaScheduling": {}}))),
            Strategy::StaticWeight(None)
        );
        assert_eq!(
            strategy(&placement(
                json!({"replicaScheduling": {"replicaSchedulingType": "Divided", "replicaDivisionPreference": "Aggregated"}})
            )),
            Strategy::Aggregated
        );
        assert_eq!(
            strategy(&placement(
                json!({"replicaScheduling": {"replicaSchedulingType": "Divided",
                "weightPreference": {"dynamicWeight": "AvailableReplicas", "staticWeightList": [{"targetCluster": {}, "weight": 1}]}}})
            )),
            Strategy::DynamicWeight
        );
    }

    // spec §14: static 3:2:1 with 12, 13 and 14 replicas.
    #[test]
    fn static_weights_divide_with_webster() {
        let clusters = clusters(&["member1", "member2", "member3"]);
        let list = weights(&[("member1", 3), ("member2", 2), ("member3", 1)]);
        let seats = seats(&clusters, &[0, 0, 0]);
        for (replicas, expected) in [
            (12, vec![6, 4, 2]),
            (13, vec![7, 4, 2]),
            (14, vec![7, 5, 2]),
        ] {
            assert_eq!(
                assign_replicas(Strategy::StaticWeight(Some(&list)), &seats, replicas, "").unwrap(),
                expected
            );
        }
    }

    // karmada assignment_test.go: a cluster no rule matches gets nothing; the largest matching
    // weight counts; no match at all means equal weights.
    #[test]
    fn static_weight_rules_take_the_maximum_and_skip_unmatched_clusters() {
        let clusters = clusters(&["member1", "member2", "member3"]);
        let seats = seats(&clusters, &[0, 0, 0]);
        let mut list = weights(&[("member1", 1), ("member2", 1)]);
        list.extend(weights(&[("member1", 3)]));
        assert_eq!(
            assign_replicas(Strategy::StaticWeight(Some(&list)), &seats, 4, "").unwrap(),
            vec![3, 1, 0]
        );
        let unmatched = weights(&[("other", 5)]);
        assert_eq!(
            assign_replicas(Strategy::StaticWeight(Some(&unmatched)), &seats, 3, "").unwrap(),
            vec![1, 1, 1]
        );
    }

    // spec §8.5 / §14: dynamic 12 over 8:8:10 ⇒ 4/4/4; over 6:8:10 ⇒ 3/4/5; over 3:3:3 ⇒ error.
    #[test]
    fn dynamic_weights_divide_by_availability() {
        let clusters = clusters(&["member1", "member2", "member3"]);
        assert_eq!(
            assign_replicas(
                Strategy::DynamicWeight,
                &seats(&clusters, &[8, 8, 10]),
                12,
                ""
            )
            .unwrap(),
            vec![4, 4, 4]
        );
        assert_eq!(
            assign_replicas(
                Strategy::DynamicWeight,
                &seats(&clusters, &[6, 8, 10]),
                12,
                ""
            )
            .unwrap(),
            vec![3, 4, 5]
        );
        let error = assign_replicas(
            Strategy::DynamicWeight,
            &seats(&clusters, &[3, 3, 3]),
            12,
            "",
        )
        .unwrap_err();
        assert_eq!(
            error,
            "needs 12 replicas, the selected clusters have 9 available"
        );
    }

    // spec §8.6: 12 over 6:8:10 ⇒ (10, 8) ⇒ 7 + 5; 12 over 12:8:10 ⇒ 12 on one;
    // 24 over 20:6:6 ⇒ (20, 6 by name) ⇒ 18 + 6.
    #[test]
    fn aggregated_takes_the_fewest_clusters_that_fit() {
        let clusters = clusters(&["member1", "member2", "member3"]);
        assert_eq!(
            assign_replicas(Strategy::Aggregated, &seats(&clusters, &[6, 8, 10]), 12, "").unwrap(),
            vec![0, 5, 7]
        );
        assert_eq!(
            assign_replicas(
                Strategy::Aggregated,
                &seats(&clusters, &[12, 8, 10]),
                12,
                ""
            )
            .unwrap(),
            vec![12, 0, 0]
        );
        assert_eq!(
            assign_replicas(Strategy::Aggregated, &seats(&clusters, &[20, 6, 6]), 24, "").unwrap(),
            vec![18, 6, 0]
        );
    }

    // karmada common_test.go TestAssignReplicas 'Overflow: …': the primary tier first.
    #[test]
    fn overflow_tiers_fill_in_order() {
        let clusters = clusters(&["member1", "member2", "member3"]);
        let mut tiered = seats(&clusters, &[4, 10, 10]);
        tiered[1].overflow = 1;
        tiered[2].overflow = 2;
        assert_eq!(
            assign_replicas(Strategy::DynamicWeight, &tiered, 9, "").unwrap(),
            vec![4, 5, 0]
        );
        assert_eq!(
            assign_replicas(Strategy::Aggregated, &tiered, 3, "").unwrap(),
            vec![3, 0, 0]
        );
        assert!(assign_replicas(Strategy::Aggregated, &tiered, 25, "").is_err());
    }

    #[test]
    fn duplicated_gives_everyone_everything() {
        let clusters = clusters(&["a", "b"]);
        assert_eq!(
            assign_replicas(Strategy::Duplicated, &seats(&clusters, &[0, 0]), 3, "").unwrap(),
            vec![3, 3]
        );
    }
}
