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
    pub(crate) fn is_divided(&self) -> bool {
        !matches!(self, Strategy::Duplicated)
    }

    /// Whether capacity decides the division, so clusters are filled in overflow tiers.
    fn uses_capacity(&self) -> bool {
        matches!(self, Strategy::DynamicWeight | Strategy::Aggregated)
    }
}

/// A selected cluster as division sees it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Seat<'a> {
    pub cluster: &'a Cluster,
    /// Replicas the cluster can still run (the general estimator's answer).
    pub available: i64,
    /// 0 for the primary affinity, k for the k-th overflow affinity.
    pub overflow: usize,
}

/// What division decided and from what, kept for `plan` to explain: the numbers the scheduler
/// divided by, not a second computation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Division {
    /// What the weights are.
    pub basis: DivisionBasis,
    /// The replicas divided.
    pub replicas: i64,
    /// Every selected cluster, in the order given (the canonical order).
    pub shares: Vec<Share>,
    /// Webster's name rule for this template: larger names win ties (the UID's hash is odd).
    pub larger_names_first: bool,
    /// Whether the template states its UID. Without one, the name rule is the empty UID's,
    /// where a live Karmada hashes the UID its API server assigned.
    pub uid_stated: bool,
}

/// What the clusters' weights are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DivisionBasis {
    /// `staticWeightList`; `listed` is false when there is none or no rule matches a selected
    /// cluster, so every cluster weighs 1.
    StaticWeight {
        /// Whether a rule of the list matches a selected cluster.
        listed: bool,
    },
    /// Each cluster's available replicas, as the estimator answered.
    AvailableReplicas,
    /// Available replicas over the fewest clusters that fit, most available first.
    Aggregated,
}

/// One selected cluster in a division.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Share {
    /// The cluster.
    pub cluster: String,
    /// Its static weight, or its available replicas.
    pub weight: i64,
    /// 0 for the primary affinity, k for the k-th overflow affinity.
    pub overflow: usize,
    /// Whether it took part in a division: Aggregated leaves out clusters it does not need, and
    /// overflow tiers that are not reached divide nothing.
    pub divided: bool,
    /// What it was given.
    pub replicas: i64,
    /// Replicas beyond its proportional share rounded down, among the clusters divided with it:
    /// what Webster's rounding gave it.
    pub remainder: i64,
    /// Whether its last replica, or the next one it did not get, was decided between equal
    /// priorities, so by fewer replicas and then by name.
    pub tied: bool,
    /// Whether such a tie was with a cluster of as many replicas, so the names decided it.
    pub tied_by_name: bool,
}

impl Division {
    /// Whether a live Karmada may divide the replicas otherwise: a tie came down to the names,
    /// and the template states no UID, so their order there hangs on the UID Karmada's API
    /// server assigns (an odd hash reverses it), which nothing offline can know.
    pub fn may_divide_otherwise_live(&self) -> bool {
        !self.uid_stated && self.shares.iter().any(|share| share.tied_by_name)
    }

    /// One line for `plan`: the replicas, what divided them with each cluster's number, where
    /// they went, and who got the remainder of rounding and by which rule.
    pub fn explain(&self) -> String {
        let replicas = plural(self.replicas, "replica");
        let tiered = self.shares.iter().any(|share| share.overflow > 0);
        let numbers = |separator: &str| -> String {
            self.shares
                .iter()
                .map(|share| {
                    let tier = if tiered {
                        format!(" (overflow {})", share.overflow)
                    } else {
                        String::new()
                    };
                    format!("{}{separator}{}{tier}", share.cluster, share.weight)
                })
                .collect::<Vec<_>>()
                .join(if separator == ":" { " " } else { ", " })
        };
        let mut line = match self.basis {
            DivisionBasis::StaticWeight { listed: true } => {
                format!("{replicas} by static weight {}", numbers(":"))
            }
            DivisionBasis::StaticWeight { listed: false } => format!(
                "{replicas} by equal weight (no static weight is given for these clusters) {}",
                numbers(":")
            ),
            DivisionBasis::AvailableReplicas => format!(
                "{replicas} by available replicas (estimator: {})",
                numbers(" ")
            ),
            DivisionBasis::Aggregated => format!(
                "{replicas} aggregated on the fewest clusters that fit, most available first \
                 (estimator: {})",
                numbers(" ")
            ),
        };
        let got: Vec<String> = self
            .shares
            .iter()
            .filter(|share| share.replicas > 0)
            .map(|share| format!("{} {}", share.cluster, share.replicas))
            .collect();
        line.push_str(" → ");
        line.push_str(&got.join(", "));
        let unused: Vec<&str> = self
            .shares
            .iter()
            .filter(|share| !share.divided)
            .map(|share| share.cluster.as_str())
            .collect();
        if !unused.is_empty() {
            line.push_str(&format!("; not needed: {}", unused.join(", ")));
        }
        let remainder: i64 = self.shares.iter().map(|share| share.remainder.max(0)).sum();
        if remainder > 0 {
            let takers: Vec<&Share> = self
                .shares
                .iter()
                .filter(|share| share.remainder > 0)
                .collect();
            let to = match takers.as_slice() {
                [only] => only.cluster.clone(),
                _ => takers
                    .iter()
                    .map(|share| format!("{} {}", share.cluster, share.remainder))
                    .collect::<Vec<_>>()
                    .join(", "),
            };
            let weight = match self.basis {
                DivisionBasis::StaticWeight { .. } => "weight",
                _ => "available",
            };
            let mut rule =
                format!("Webster: each next replica to the largest {weight} ÷ (2 × replicas + 1)");
            let tied: Vec<&str> = self
                .shares
                .iter()
                .filter(|share| share.tied)
                .map(|share| share.cluster.as_str())
                .collect();
            if !tied.is_empty() {
                let name = if self.larger_names_first {
                    "the larger name (the template's UID hashes odd)"
                } else {
                    "the smaller name"
                };
                rule.push_str(&format!(
                    "; {} tied, so fewer replicas first, then {name}",
                    tied.join(", ")
                ));
                if self.may_divide_otherwise_live() {
                    rule.push_str(
                        ", as for a template without a UID: a live Karmada orders the names by \
                         the UID its API server assigns, so there the remainder may go the other \
                         way",
                    );
                }
            }
            line.push_str(&format!("; remainder {remainder} to {to} ({rule})"));
        }
        let short: Vec<String> = self
            .shares
            .iter()
            .filter(|share| share.remainder < 0)
            .map(|share| format!("{} {}", share.cluster, -share.remainder))
            .collect();
        if !short.is_empty() {
            line.push_str(&format!(
                "; below the proportional share, rounded down: {}",
                short.join(", ")
            ));
        }
        line
    }
}

fn plural(count: i64, noun: &str) -> String {
    if count == 1 {
        format!("{count} {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

#[cfg(test)]
/// Replicas per selected cluster, in the order given (the canonical order). An error says why
/// the replicas do not fit.
pub(crate) fn assign_replicas(
    strategy: Strategy<'_>,
    seats: &[Seat<'_>],
    replicas: i64,
    uid: &str,
) -> Result<Vec<i64>, String> {
    Ok(match divide_replicas(strategy, seats, replicas, uid)? {
        None => vec![replicas; seats.len()],
        Some(division) => division.shares.iter().map(|share| share.replicas).collect(),
    })
}

/// [`assign_replicas`] with what decided it; `None` for Duplicated, which divides nothing.
pub(crate) fn divide_replicas(
    strategy: Strategy<'_>,
    seats: &[Seat<'_>],
    replicas: i64,
    uid: &str,
) -> Result<Option<Division>, String> {
    match strategy {
        Strategy::Duplicated => Ok(None),
        Strategy::StaticWeight(list) => Ok(Some(static_weight(list, seats, replicas, uid))),
        Strategy::DynamicWeight | Strategy::Aggregated => {
            by_capacity_tiers(strategy, seats, replicas, uid).map(Some)
        }
    }
}

fn shares(seats: &[Seat<'_>], weights: &[i64]) -> Vec<Share> {
    seats
        .iter()
        .zip(weights)
        .map(|(seat, &weight)| Share {
            cluster: seat.cluster.name().to_string(),
            weight,
            overflow: seat.overflow,
            divided: false,
            replicas: 0,
            remainder: 0,
            tied: false,
            tied_by_name: false,
        })
        .collect()
}

/// karmada `getStaticWeightInfoList`: a cluster's weight is the largest weight of the rules
/// whose target matches it (weights are not summed); clusters no rule matches get nothing; if
/// no rule matches any cluster, or there is no weightPreference, every cluster weighs 1.
fn static_weight(
    list: Option<&[StaticClusterWeight]>,
    seats: &[Seat<'_>],
    replicas: i64,
    uid: &str,
) -> Division {
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
    let listed = weights.iter().any(|weight| *weight != 0);
    if !listed {
        weights = vec![1; seats.len()];
    }
    let mut division = Division {
        basis: DivisionBasis::StaticWeight { listed },
        replicas,
        shares: shares(seats, &weights),
        larger_names_first: webster::prefers_larger_names(uid),
        uid_stated: !uid.is_empty(),
    };
    let everyone: Vec<usize> = (0..seats.len()).collect();
    divide(&mut division.shares, &everyone, replicas, uid);
    division
}

/// Dynamic weights and Aggregated, tier by tier when overflow affinities give clusters an
/// order: each tier takes what it has room for, divided inside the tier (karmada core/common.go
/// `assignWorkloadReplicas`). Without overflow there is one tier.
fn by_capacity_tiers(
    strategy: Strategy<'_>,
    seats: &[Seat<'_>],
    replicas: i64,
    uid: &str,
) -> Result<Division, String> {
    debug_assert!(strategy.uses_capacity());
    let available: Vec<i64> = seats.iter().map(|seat| seat.available).collect();
    let mut division = Division {
        basis: match strategy {
            Strategy::Aggregated => DivisionBasis::Aggregated,
            _ => DivisionBasis::AvailableReplicas,
        },
        replicas,
        shares: shares(seats, &available),
        larger_names_first: webster::prefers_larger_names(uid),
        uid_stated: !uid.is_empty(),
    };
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
        let dividing = match strategy {
            Strategy::Aggregated => aggregated(&division.shares, &members, amount),
            _ => members,
        };
        divide(&mut division.shares, &dividing, amount, uid);
        remaining -= amount;
    }
    if remaining > 0 {
        let available: i64 = available.iter().sum();
        return Err(format!(
            "needs {replicas} replicas, the selected clusters have {available} available{}",
            unsummarised_clusters(seats)
        ));
    }
    Ok(division)
}

/// Why a cluster may count 0 available replicas: the inventory gives it no
/// `status.resourceSummary`, so Karmada's general estimator has nothing to count
/// (`general.go` returns 0 without allocatable resources). Empty when every cluster counting
/// 0 has one.
fn unsummarised_clusters(seats: &[Seat<'_>]) -> String {
    let names: Vec<&str> = (seats.iter())
        .filter(|seat| {
            seat.available == 0
                && (seat.cluster.status.as_ref())
                    .is_none_or(|status| status.resource_summary.is_none())
        })
        .map(|seat| seat.cluster.name())
        .collect();
    match names.as_slice() {
        [] => String::new(),
        [one] => format!(
            " ({one} has no status.resourceSummary in the inventory, so the estimator counts 0 \
             there: add its allocatable and allocated resources, as `kubectl get cluster -o \
             yaml` shows them)"
        ),
        _ => format!(
            " ({} have no status.resourceSummary in the inventory, so the estimator counts 0 \
             there: add their allocatable and allocated resources, as `kubectl get cluster -o \
             yaml` shows them)",
            names.join(", ")
        ),
    }
}

/// karmada Aggregated: of `members`, by availability, most first (stable, so ties keep the
/// canonical order), the shortest prefix that fits `replicas`; Webster then divides by
/// availability over that prefix.
fn aggregated(shares: &[Share], members: &[usize], replicas: i64) -> Vec<usize> {
    let mut order = members.to_vec();
    order.sort_by(|&a, &b| shares[b].weight.cmp(&shares[a].weight));
    let mut taken = Vec::new();
    let mut sum = 0;
    for index in order {
        if sum >= replicas {
            break;
        }
        sum += shares[index].weight;
        taken.push(index);
    }
    taken
}

/// Webster over the shares at `members` (in that order, which feeds nothing but the result's
/// order), recording each one's replicas, what rounding gave it and whether a tie decided.
fn divide(shares: &mut [Share], members: &[usize], replicas: i64, uid: &str) {
    let weights: Vec<i64> = members.iter().map(|&index| shares[index].weight).collect();
    let divided = {
        let parties: Vec<Party<'_>> = members
            .iter()
            .map(|&index| Party {
                name: &shares[index].cluster,
                weight: shares[index].weight,
            })
            .collect();
        webster::divide(replicas, &parties, uid)
    };
    let total: i128 = weights
        .iter()
        .map(|&weight| i128::from(weight.max(0)))
        .sum();
    for (&index, &got) in members.iter().zip(&divided) {
        let share = &mut shares[index];
        share.divided = true;
        share.replicas = got;
        let proportional = if total == 0 {
            0
        } else {
            i128::from(replicas) * i128::from(share.weight.max(0)) / total
        };
        share.remainder = got - i64::try_from(proportional).unwrap_or(got);
    }
    // The last replica a cluster got had priority w/(2s−1); the next one another did not get,
    // w'/(2s'+1). Webster gives the first never less than the second; equal, a tie rule chose.
    for (a, &index) in members.iter().enumerate() {
        for (b, &other) in members.iter().enumerate() {
            let (got, missed) = (divided[a], divided[b]);
            if a == b || got == 0 || weights[b] <= 0 {
                continue;
            }
            let last = i128::from(weights[a]) * i128::from(2 * missed + 1);
            let next = i128::from(weights[b]) * i128::from(2 * got - 1);
            if last == next {
                shares[index].tied = true;
                shares[other].tied = true;
                // Equal seats when the tie was met: a had got − 1, b its `missed`.
                if got - 1 == missed {
                    shares[index].tied_by_name = true;
                    shares[other].tied_by_name = true;
                }
            }
        }
    }
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
        // A cluster that counts 0 because the inventory gives it no resourceSummary is named
        // (karmada estimator/client general.go: no allocatable, no replicas).
        let error = assign_replicas(
            Strategy::DynamicWeight,
            &seats(&clusters, &[3, 0, 0]),
            12,
            "",
        )
        .unwrap_err();
        assert!(
            error.starts_with(
                "needs 12 replicas, the selected clusters have 3 available (member2, member3 \
                 have no status.resourceSummary in the inventory"
            ),
            "{error}"
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

    fn explain(strategy: Strategy<'_>, seats: &[Seat<'_>], replicas: i64) -> String {
        divide_replicas(strategy, seats, replicas, "")
            .unwrap()
            .expect("a Divided strategy")
            .explain()
    }

    /// 6 over 2:1 divides exactly; 13 over 3:2:1 is 7/4/2 (spec §14, worked checks), one more
    /// than the proportional 6.5/4.33/2.17 rounded down, and that one is member1's.
    #[test]
    fn a_static_division_names_the_weights_and_who_got_the_remainder() {
        let clusters = clusters(&["eu-1", "us-1"]);
        let list = weights(&[("eu-1", 2), ("us-1", 1)]);
        assert_eq!(
            explain(
                Strategy::StaticWeight(Some(&list)),
                &seats(&clusters, &[0, 0]),
                6
            ),
            "6 replicas by static weight eu-1:2 us-1:1 → eu-1 4, us-1 2"
        );
        let clusters = super::tests::clusters(&["member1", "member2", "member3"]);
        let list = weights(&[("member1", 3), ("member2", 2), ("member3", 1)]);
        assert_eq!(
            explain(
                Strategy::StaticWeight(Some(&list)),
                &seats(&clusters, &[0, 0, 0]),
                13
            ),
            "13 replicas by static weight member1:3 member2:2 member3:1 → member1 7, member2 4, \
             member3 2; remainder 1 to member1 (Webster: each next replica to the largest weight \
             ÷ (2 × replicas + 1))"
        );
        assert_eq!(
            explain(
                Strategy::StaticWeight(None),
                &seats(&clusters, &[0, 0, 0]),
                3
            ),
            "3 replicas by equal weight (no static weight is given for these clusters) member1:1 \
             member2:1 member3:1 → member1 1, member2 1, member3 1"
        );
    }

    /// 7 replicas by static weight 2:1:1:1 over member1..4, for a template of `uid`.
    fn seven_over_2_1_1_1(uid: &str) -> Division {
        let clusters = clusters(&["member1", "member2", "member3", "member4"]);
        let list = weights(&[
            ("member1", 2),
            ("member2", 1),
            ("member3", 1),
            ("member4", 1),
        ]);
        divide_replicas(
            Strategy::StaticWeight(Some(&list)),
            &seats(&clusters, &[0; 4]),
            7,
            uid,
        )
        .unwrap()
        .expect("a Divided strategy")
    }

    /// 7 over 2:1:1:1 is 3/2/1/1 and its seventh replica is a tie among member2..4 at 1/3 with
    /// one replica each, which the smaller name wins with an empty UID (spec §14).
    #[test]
    fn a_remainder_decided_by_a_tie_names_the_tied_clusters_and_the_rule() {
        assert_eq!(
            seven_over_2_1_1_1("").explain(),
            "7 replicas by static weight member1:2 member2:1 member3:1 member4:1 → member1 3, \
             member2 2, member3 1, member4 1; remainder 2 to member1 1, member2 1 (Webster: each \
             next replica to the largest weight ÷ (2 × replicas + 1); member2, member3, member4 \
             tied, so fewer replicas first, then the smaller name, as for a template without a \
             UID: a live Karmada orders the names by the UID its API server assigns, so there the \
             remainder may go the other way)"
        );
    }

    /// The same tie with the template's UID stated (binding_test.go's even UID): the names'
    /// order is the one Karmada takes from it, so the division is certain.
    #[test]
    fn a_tie_the_template_uid_decides_is_certain() {
        let division = seven_over_2_1_1_1("4858ca61-3ff8-4095-8267-f3d059d8074c");
        assert!(!division.may_divide_otherwise_live());
        assert!(division.explain().ends_with("then the smaller name)"));
    }

    /// 2 over 3:1: the second replica is a tie between member1's next (3/3) and member2's
    /// first (1/1), which fewer replicas decides (webstermethod.go's Less), whatever the UID.
    #[test]
    fn a_tie_fewer_replicas_decide_is_certain_without_a_uid() {
        let clusters = clusters(&["member1", "member2"]);
        let list = weights(&[("member1", 3), ("member2", 1)]);
        let division = divide_replicas(
            Strategy::StaticWeight(Some(&list)),
            &seats(&clusters, &[0; 2]),
            2,
            "",
        )
        .unwrap()
        .expect("a Divided strategy");
        let replicas: Vec<i64> = division.shares.iter().map(|share| share.replicas).collect();
        assert_eq!(replicas, [1, 1]);
        assert!(division.shares.iter().all(|share| share.tied));
        assert!(!division.may_divide_otherwise_live());
        assert!(!division.explain().contains("may go the other way"));
    }

    /// 7 over available 10 and 5: 4.67 and 2.33 rounded down leave one, which eu-1 takes
    /// (Webster: 10/9 > 5/5 for the seventh).
    #[test]
    fn a_dynamic_division_names_the_estimators_numbers() {
        let clusters = clusters(&["eu-1", "us-1"]);
        assert_eq!(
            explain(Strategy::DynamicWeight, &seats(&clusters, &[10, 5]), 7),
            "7 replicas by available replicas (estimator: eu-1 10, us-1 5) → eu-1 5, us-1 2; \
             remainder 1 to eu-1 (Webster: each next replica to the largest available ÷ \
             (2 × replicas + 1))"
        );
    }

    /// 12 over 6:8:10 takes the prefix 10, 8 and divides 7 + 5 (spec §8.6); a is not needed.
    #[test]
    fn an_aggregated_division_names_the_clusters_it_did_not_need() {
        let clusters = clusters(&["a", "b", "c"]);
        assert_eq!(
            explain(Strategy::Aggregated, &seats(&clusters, &[6, 8, 10]), 12),
            "12 replicas aggregated on the fewest clusters that fit, most available first \
             (estimator: a 6, b 8, c 10) → b 5, c 7; not needed: a; remainder 1 to c (Webster: \
             each next replica to the largest available ÷ (2 × replicas + 1))"
        );
    }

    /// An overflow tier is named with each cluster, and is not needed while the primary fits.
    #[test]
    fn overflow_tiers_are_named_in_the_explanation() {
        let clusters = clusters(&["a", "b"]);
        let mut tiered = seats(&clusters, &[4, 4]);
        tiered[1].overflow = 1;
        assert_eq!(
            explain(Strategy::DynamicWeight, &tiered, 3),
            "3 replicas by available replicas (estimator: a 4 (overflow 0), b 4 (overflow 1)) → \
             a 3; not needed: b"
        );
    }
}
