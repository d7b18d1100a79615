//! FederatedResourceQuota `spec.overall`, enforced. Behind the FederatedQuotaEnforcement gate
//! (alpha since v1.14, off by default), Karmada's ResourceBinding webhook weighs every
//! scheduled binding of a namespace against the `overall` of each quota there (karmada
//! pkg/webhook/resourcebinding/validating.go, `validateFederatedResourceQuota`), and the
//! enforcement controller keeps `status.overallUsed` as the sum of the namespace's bindings
//! (pkg/controllers/federatedresourcequota/federated_resource_quota_enforcement_controller.go,
//! `calculateUsedWithResourceBinding`).
//!
//! What it weighs, per binding (`helper.CalculateResourceUsage`, pkg/util/helper/binding.go):
//! `spec.replicaRequirements.resourceRequest` × the replicas of `spec.clusters` summed, each
//! resource the interpreter put there (CPU, memory, ephemeral storage, extended resources;
//! `GenerateReplicaRequirements`). A binding not yet scheduled is let through
//! (`len(rb.Spec.Clusters) == 0` on create), and so is one that changes nothing the quota
//! tracks. Only ResourceBindings pass the webhook: a cluster-scoped template's
//! ClusterResourceBinding is never weighed.
//!
//! How it decides: the binding's usage, filtered to the resources the quota's `overall` names
//! (`filterResourceListByKeys`), is added to what the quota already counts, and any resource
//! past its `overall` denies the binding (`isAllowed`: "FederatedResourceQuota(ns/name)
//! exceeded for resource cpu"); quotas are weighed in the order the API lists them and the
//! first denial ends the check, before any status is written. A denied binding adds nothing.
//! So bindings are admitted one at a time while they fit, and which one is denied depends on
//! the order the scheduler places them — which offline is unknown: [`verdicts`] says, for
//! each binding, whether some order denies it.

use std::collections::BTreeMap;

use crate::quantity::Quantity;

/// The gate that turns the webhook's quota check and the enforcement controller on.
pub(crate) const GATE: &str = "FederatedQuotaEnforcement";

/// `helper.CalculateResourceUsage` for a binding without components: each requested resource
/// times the replicas over its clusters; nothing when it has no replicas, and no entry for a
/// resource that comes to 0.
pub(crate) fn usage(
    request: &BTreeMap<String, Quantity>,
    replicas: i64,
) -> BTreeMap<String, Quantity> {
    if replicas <= 0 {
        return BTreeMap::new();
    }
    request
        .iter()
        .filter(|(_, quantity)| !quantity.is_zero())
        .map(|(name, quantity)| (name.clone(), times(*quantity, replicas)))
        .collect()
}

/// `quantity` × `count`, saturating (no real request comes near it).
pub(crate) fn times(quantity: Quantity, count: i64) -> Quantity {
    Quantity::from_nanos(quantity.nanos().saturating_mul(i128::from(count)))
}

/// What the webhook may do to one binding, over every order the bindings can arrive in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Verdict {
    /// Admitted in every order.
    Admitted,
    /// Denied in some orders, admitted in others.
    MayBeDenied,
    /// Denied in every order: it alone requests more than an `overall`.
    Denied,
    /// Too many bindings to try every order: counted among those that may be denied.
    Undecided,
}

/// How many sets of bindings [`verdicts`] weighs for one binding, past its greedy tries, before
/// it gives up on it (a namespace of thousands of small bindings stays fast).
const MAX_CHECKS: usize = 1 << 16;

/// For each binding (its usage), what the webhook may do to it, the quotas being `limits`
/// (each quota's `overall`, all of one namespace).
///
/// A set of bindings can all be admitted, in some order, exactly when their sum fits every
/// limit (usage is never negative, so every prefix of a fitting set fits too), and denied
/// bindings change nothing. So a binding is denied in some order exactly when some fitting
/// set of the others no longer fits with it added; in every order when it does not fit even
/// alone.
pub(crate) fn verdicts(
    bindings: &[BTreeMap<String, Quantity>],
    limits: &[&BTreeMap<String, Quantity>],
) -> Vec<Verdict> {
    let fits = |sum: &BTreeMap<&str, Quantity>| {
        limits.iter().all(|limit| {
            limit
                .iter()
                .all(|(name, most)| sum.get(name.as_str()).is_none_or(|used| used <= most))
        })
    };
    (0..bindings.len())
        .map(|own| {
            let alone = sum_of(bindings, &[own]);
            if !fits(&alone) {
                return Verdict::Denied;
            }
            let others: Vec<usize> = (0..bindings.len()).filter(|&other| other != own).collect();
            let all = sum_of(bindings, &others);
            if fits(&all) {
                // Every fitting set of the others is within `all`.
                let mut with_own = others.clone();
                with_own.push(own);
                return if fits(&sum_of(bindings, &with_own)) {
                    Verdict::Admitted
                } else {
                    Verdict::MayBeDenied
                };
            }
            // A fitting set the binding tips over is most often found greedily: the others,
            // largest first, smallest first or as listed, each taken while it fits.
            let size = |position: &usize| -> i128 {
                bindings[*position].values().map(Quantity::nanos).sum()
            };
            let mut largest_first = others.clone();
            largest_first.sort_by_key(|position| std::cmp::Reverse(size(position)));
            let mut smallest_first = others.clone();
            smallest_first.sort_by_key(size);
            for order in [&largest_first, &smallest_first, &others] {
                let mut sum = BTreeMap::new();
                for &other in order {
                    let grown = plus(&sum, &bindings[other]);
                    if fits(&grown) {
                        sum = grown;
                    }
                }
                if !fits(&plus(&sum, &bindings[own])) {
                    return Verdict::MayBeDenied;
                }
            }
            // Else depth first over every fitting set of the others, each grown by later
            // bindings only (fitting sets are closed under taking bindings away), within a
            // budget of checks.
            // Bindings of equal usage are interchangeable: sorted, a set takes the first ones
            // of each run, so each distinct set is weighed once.
            let mut others = others;
            others.sort_by(|a, b| bindings[*a].cmp(&bindings[*b]));
            let mut checks = 0usize;
            let mut stack: Vec<(BTreeMap<&str, Quantity>, usize)> = vec![(BTreeMap::new(), 0)];
            while let Some((sum, next)) = stack.pop() {
                if !fits(&plus(&sum, &bindings[own])) {
                    return Verdict::MayBeDenied;
                }
                for (offset, &other) in others[next..].iter().enumerate() {
                    let at = next + offset;
                    if at > next && bindings[others[at - 1]] == bindings[other] {
                        continue;
                    }
                    checks += 1;
                    if checks > MAX_CHECKS {
                        return Verdict::Undecided;
                    }
                    let grown = plus(&sum, &bindings[other]);
                    if fits(&grown) {
                        stack.push((grown, next + offset + 1));
                    }
                }
            }
            Verdict::Admitted
        })
        .collect()
}

/// `sum` with `usage` added.
fn plus<'b>(
    sum: &BTreeMap<&'b str, Quantity>,
    usage: &'b BTreeMap<String, Quantity>,
) -> BTreeMap<&'b str, Quantity> {
    let mut grown = sum.clone();
    for (name, quantity) in usage {
        let slot = grown.entry(name.as_str()).or_insert(Quantity::ZERO);
        *slot = slot.saturating_add(*quantity);
    }
    grown
}

/// The usage of the bindings at `positions`, summed per resource.
fn sum_of<'b>(
    bindings: &'b [BTreeMap<String, Quantity>],
    positions: &[usize],
) -> BTreeMap<&'b str, Quantity> {
    let mut sum: BTreeMap<&str, Quantity> = BTreeMap::new();
    for &position in positions {
        for (name, quantity) in &bindings[position] {
            let slot = sum.entry(name.as_str()).or_insert(Quantity::ZERO);
            *slot = slot.saturating_add(*quantity);
        }
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cpu(milli: i64) -> BTreeMap<String, Quantity> {
        BTreeMap::from([("cpu".to_string(), Quantity::from_milli(milli))])
    }

    /// binding.go `CalculateResourceUsage` (TestCalculateResourceUsage's rows without
    /// components): the request times the replicas summed over the clusters, nothing for no
    /// replicas, no entry for a zero request.
    #[test]
    fn usage_is_the_request_times_the_replicas() {
        let request = BTreeMap::from([
            ("cpu".to_string(), Quantity::from_milli(500)),
            ("memory".to_string(), Quantity::from_units(1 << 20)),
            ("nvidia.com/gpu".to_string(), Quantity::ZERO),
        ]);
        let used = usage(&request, 3);
        assert_eq!(used.get("cpu"), Some(&Quantity::from_milli(1500)));
        assert_eq!(used.get("memory"), Some(&Quantity::from_units(3 << 20)));
        assert!(!used.contains_key("nvidia.com/gpu"));
        assert!(usage(&request, 0).is_empty());
    }

    /// validating.go `isAllowed`, bindings one at a time: under `cpu: 1`, bindings of 600m and
    /// 600m — whichever comes second is denied, so both may be.
    #[test]
    fn two_that_do_not_fit_together_may_each_be_denied() {
        let limit = cpu(1000);
        let found = verdicts(&[cpu(600), cpu(600)], &[&limit]);
        assert_eq!(found, vec![Verdict::MayBeDenied, Verdict::MayBeDenied]);
    }

    /// `isAllowed` compares the potential sum with the limit: one binding of 2 under `cpu: 1`
    /// is denied whatever comes first, and the small one beside it then always fits.
    #[test]
    fn one_past_the_limit_alone_is_always_denied_and_spares_the_rest() {
        let limit = cpu(1000);
        let found = verdicts(&[cpu(2000), cpu(500)], &[&limit]);
        assert_eq!(found, vec![Verdict::Denied, Verdict::Admitted]);
    }

    /// Under 10, bindings of 6, 6 and 1: the 6s never both fit, and 6 + 1 always does, so the
    /// 1 is admitted in every order although the namespace asks for 13.
    #[test]
    fn a_small_binding_beside_two_that_exclude_each_other_always_fits() {
        let limit = cpu(10_000);
        let found = verdicts(&[cpu(6000), cpu(6000), cpu(1000)], &[&limit]);
        assert_eq!(
            found,
            vec![
                Verdict::MayBeDenied,
                Verdict::MayBeDenied,
                Verdict::Admitted
            ]
        );
    }

    /// Under 10, bindings of 6, 3 and 3: 3 + 3 fits and the 6 then tips it; 6 + 3 fits and the
    /// other 3 tips it: each may be denied.
    #[test]
    fn each_may_be_denied_when_any_two_fit_but_not_all_three() {
        let limit = cpu(10_000);
        let found = verdicts(&[cpu(6000), cpu(3000), cpu(3000)], &[&limit]);
        assert_eq!(found, vec![Verdict::MayBeDenied; 3]);
    }

    /// Hundreds of bindings: under 10, three hundred of 6 never fit two together, and the one
    /// of 1 then always fits — worked out exactly, not given up on, and fast.
    #[test]
    fn many_equal_bindings_are_weighed_once_each_kind() {
        let limit = cpu(10_000);
        let mut bindings = vec![cpu(6000); 300];
        bindings.push(cpu(1000));
        let started = std::time::Instant::now();
        let found = verdicts(&bindings, &[&limit]);
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
        assert_eq!(found[..300], vec![Verdict::MayBeDenied; 300][..]);
        assert_eq!(found[300], Verdict::Admitted);
    }

    /// `processSingleFRQ` filters the usage by the quota's `overall`: a resource no quota names
    /// never denies, and every quota of the namespace must admit the binding.
    #[test]
    fn only_the_resources_a_quota_names_count_and_every_quota_must_fit() {
        let memory =
            |units: i64| BTreeMap::from([("memory".to_string(), Quantity::from_units(units))]);
        let cpu_limit = cpu(1000);
        assert_eq!(
            verdicts(&[memory(10), memory(10)], &[&cpu_limit]),
            vec![Verdict::Admitted; 2]
        );
        let memory_limit = memory(15);
        assert_eq!(
            verdicts(&[memory(10), memory(10)], &[&cpu_limit, &memory_limit]),
            vec![Verdict::MayBeDenied; 2]
        );
    }
}
