//! The replica planner of KubeFed's ReplicaSchedulingPreference and of Federation v1's
//! preference annotations (kubefed pkg/controller/util/planner/planner.go, federation
//! pkg/federation-controller/util/planner/planner.go: the same algorithm). Offline there are no
//! current replica counts and no capacity estimates, so the pass that keeps running replicas
//! never fires and nothing overflows (spec kubefed-fedv1.md §1.5, §1.7).

use std::collections::BTreeMap;

/// One cluster's preferences (`ClusterPreferences`): 0, unbounded and 0 by default.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct ClusterPreferences {
    pub(crate) min_replicas: i64,
    pub(crate) max_replicas: Option<i64>,
    pub weight: i64,
}

/// The preferences of one workload: per cluster name, `"*"` for every cluster without an
/// entry of its own. `rebalance` only matters online (spec §1.5) and is kept for reports.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Preferences {
    pub rebalance: bool,
    pub clusters: BTreeMap<String, ClusterPreferences>,
}

impl Preferences {
    /// `{"*": {weight: 1}}`: KubeFed's default for an RSP without clusters, Federation v1's
    /// default for a workload without (valid) preferences.
    pub fn even() -> Self {
        Preferences {
            rebalance: false,
            clusters: BTreeMap::from([(
                "*".to_string(),
                ClusterPreferences {
                    weight: 1,
                    ..ClusterPreferences::default()
                },
            )]),
        }
    }
}

/// Go's `hash/fnv` `New32`: FNV-1 (multiply, then xor), 32 bits.
pub(crate) fn fnv1_32(parts: &[&[u8]]) -> u32 {
    let mut hash: u32 = 2_166_136_261;
    for part in parts {
        for byte in *part {
            hash = hash.wrapping_mul(16_777_619);
            hash ^= u32::from(*byte);
        }
    }
    hash
}

struct Candidate<'a> {
    name: &'a str,
    hash: u32,
    preferences: ClusterPreferences,
}

/// Plans `total` replicas over the `available` clusters (spec §1.2–§1.7). The result has an
/// entry for every available cluster, 0 for those without preferences and for those starved.
/// The plan can sum to less than the total (all weights 0, every candidate capped); it never
/// sums to more, as long as minimums, maximums and weights are not negative.
pub fn plan(
    available: &[&str],
    preferences: &Preferences,
    total: i64,
    key: &str,
) -> BTreeMap<String, i64> {
    let mut plan: BTreeMap<String, i64> = BTreeMap::new();
    let mut candidates: Vec<Candidate<'_>> = Vec::with_capacity(available.len());
    for name in available {
        let found = preferences
            .clusters
            .get(*name)
            .or_else(|| preferences.clusters.get("*"));
        match found {
            Some(found) => candidates.push(Candidate {
                name,
                hash: fnv1_32(&[name.as_bytes(), key.as_bytes()]),
                preferences: *found,
            }),
            None => {
                plan.insert(name.to_string(), 0);
            }
        }
    }
    // Weight descending, then hash ascending (planner.go byWeight). Go's sort is unstable;
    // equal weight and hash never happen in practice, the name only makes it deterministic.
    candidates.sort_by(|a, b| {
        b.preferences
            .weight
            .cmp(&a.preferences.weight)
            .then(a.hash.cmp(&b.hash))
            .then_with(|| a.name.cmp(b.name))
    });

    // Pass 1: minimums in priority order; later clusters starve when Σmin > total.
    let mut remaining = total;
    for candidate in &candidates {
        let minimum = candidate.preferences.min_replicas.min(remaining);
        remaining -= minimum;
        plan.insert(candidate.name.to_string(), minimum);
    }

    // Pass 2 (keep running replicas when rebalance is false) needs live replica counts.

    // Pass 3: weighted rounds with sequential ceil against the live remainder.
    let mut open = candidates;
    let mut modified = true;
    while modified && remaining > 0 {
        modified = false;
        let weight_sum: i128 = open.iter().map(|c| i128::from(c.preferences.weight)).sum();
        if weight_sum <= 0 {
            break;
        }
        let budget = i128::from(remaining);
        let mut still_open = Vec::with_capacity(open.len());
        for candidate in open {
            let start = plan[candidate.name];
            let weight = i128::from(candidate.preferences.weight);
            let share = (budget * weight + weight_sum - 1) / weight_sum;
            let extra = i64::try_from(share).unwrap_or(i64::MAX).min(remaining);
            let mut planned = start + extra;
            let mut full = false;
            if let Some(maximum) = candidate.preferences.max_replicas
                && planned > maximum
            {
                planned = maximum;
                full = true;
            }
            remaining -= planned - start;
            plan.insert(candidate.name.to_string(), planned);
            if planned > start {
                modified = true;
            }
            if !full {
                still_open.push(candidate);
            }
        }
        open = still_open;
    }
    plan
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prefs(entries: &[(&str, i64, Option<i64>, i64)]) -> Preferences {
        Preferences {
            rebalance: false,
            clusters: entries
                .iter()
                .map(|(name, min_replicas, max_replicas, weight)| {
                    (
                        name.to_string(),
                        ClusterPreferences {
                            min_replicas: *min_replicas,
                            max_replicas: *max_replicas,
                            weight: *weight,
                        },
                    )
                })
                .collect(),
        }
    }

    fn expect(entries: &[(&str, i64)]) -> BTreeMap<String, i64> {
        entries.iter().map(|(n, r)| (n.to_string(), *r)).collect()
    }

    /// planner_test.go `doCheck`: key "", no current replicas, no capacity. Names are
    /// lower-cased (A→a); FNV-1 keeps their order (a=84696446 > b > c > d), so the "hash
    /// dependent" expectations are upstream's.
    fn check(preferences: &Preferences, total: i64, clusters: &[&str], expected: &[(&str, i64)]) {
        assert_eq!(plan(clusters, preferences, total, ""), expect(expected));
    }

    #[test]
    fn fnv1_is_go_hash_fnv_new32_not_fnv1a() {
        assert_eq!(fnv1_32(&[b"A"]), 84_696_414);
        assert_eq!(fnv1_32(&[b"D"]), 84_696_411);
        assert_eq!(fnv1_32(&[b"a"]), 0x050c_5d7e);
        assert_eq!(fnv1_32(&[b"a", b"demo/web"]), fnv1_32(&[b"ademo/web"]));
        assert_eq!(fnv1_32(&[]), 2_166_136_261);
    }

    // planner_test.go TestEqual, entries 1–6.
    #[test]
    fn test_equal_1_fifty_over_three_is_hash_dependent() {
        check(
            &Preferences::even(),
            50,
            &["a", "b", "c"],
            &[("a", 16), ("b", 17), ("c", 17)],
        );
    }

    #[test]
    fn test_equal_2_fifty_over_two() {
        check(
            &Preferences::even(),
            50,
            &["a", "b"],
            &[("a", 25), ("b", 25)],
        );
    }

    #[test]
    fn test_equal_3_one_over_two_is_hash_dependent() {
        check(&Preferences::even(), 1, &["a", "b"], &[("a", 0), ("b", 1)]);
    }

    #[test]
    fn test_equal_4_one_over_four_is_hash_dependent() {
        check(
            &Preferences::even(),
            1,
            &["a", "b", "c", "d"],
            &[("a", 0), ("b", 0), ("c", 0), ("d", 1)],
        );
    }

    #[test]
    fn test_equal_5_one_over_one() {
        check(&Preferences::even(), 1, &["a"], &[("a", 1)]);
    }

    #[test]
    fn test_equal_6_no_clusters() {
        check(&Preferences::even(), 1, &[], &[]);
    }

    // planner_test.go TestMin, entries 1–4.
    #[test]
    fn test_min_1_weight_zero_keeps_only_the_minimums() {
        let p = prefs(&[("*", 2, None, 0)]);
        check(&p, 50, &["a", "b", "c"], &[("a", 2), ("b", 2), ("c", 2)]);
    }

    #[test]
    fn test_min_2_minimums_beyond_the_total_starve_the_last_cluster() {
        let p = prefs(&[("*", 20, None, 0)]);
        check(&p, 50, &["a", "b", "c"], &[("a", 10), ("b", 20), ("c", 20)]);
    }

    #[test]
    fn test_min_3_heavier_cluster_takes_its_minimum_first() {
        let p = prefs(&[("*", 20, None, 0), ("a", 100, None, 1)]);
        check(&p, 50, &["a", "b", "c"], &[("a", 50), ("b", 0), ("c", 0)]);
    }

    #[test]
    fn test_min_4_every_candidate_capped_leaves_replicas_unplaced() {
        let p = prefs(&[("*", 10, Some(12), 1)]);
        check(&p, 50, &["a", "b", "c"], &[("a", 12), ("b", 12), ("c", 12)]);
    }

    // planner_test.go TestMax, entries 1–2.
    #[test]
    fn test_max_1_maximum_caps() {
        let p = prefs(&[("*", 0, Some(2), 1)]);
        check(&p, 50, &["a", "b", "c"], &[("a", 2), ("b", 2), ("c", 2)]);
    }

    #[test]
    fn test_max_2_weight_zero_gets_nothing() {
        let p = prefs(&[("*", 0, Some(2), 0)]);
        check(&p, 50, &["a", "b", "c"], &[("a", 0), ("b", 0), ("c", 0)]);
    }

    // planner_test.go TestWeight, entries 1–7.
    #[test]
    fn test_weight_1_one_to_two_and_no_preference_is_zero() {
        let p = prefs(&[("a", 0, None, 1), ("b", 0, None, 2)]);
        check(&p, 60, &["a", "b", "c"], &[("a", 20), ("b", 40), ("c", 0)]);
    }

    #[test]
    fn test_weight_2_overwhelming_weight_takes_all() {
        let p = prefs(&[("a", 0, None, 10000), ("b", 0, None, 1)]);
        check(&p, 50, &["a", "b", "c"], &[("a", 50), ("b", 0), ("c", 0)]);
    }

    #[test]
    fn test_weight_3_preferences_for_unavailable_clusters_are_ignored() {
        let p = prefs(&[("a", 0, None, 10000), ("b", 0, None, 1)]);
        check(&p, 50, &["b", "c"], &[("b", 50), ("c", 0)]);
    }

    #[test]
    fn test_weight_4_capped_cluster_returns_the_rest() {
        let p = prefs(&[
            ("a", 0, Some(10), 10000),
            ("b", 0, None, 1),
            ("c", 0, None, 1),
        ]);
        check(&p, 50, &["a", "b", "c"], &[("a", 10), ("b", 20), ("c", 20)]);
    }

    #[test]
    fn test_weight_5_two_capped_clusters() {
        let p = prefs(&[
            ("a", 0, Some(10), 10000),
            ("b", 0, None, 1),
            ("c", 0, Some(10), 1),
        ]);
        check(&p, 50, &["a", "b", "c"], &[("a", 10), ("b", 30), ("c", 10)]);
    }

    #[test]
    fn test_weight_6_four_clusters_with_maximums() {
        let p = prefs(&[
            ("a", 0, Some(10), 10000),
            ("b", 0, None, 1),
            ("c", 0, Some(21), 1),
            ("d", 0, Some(10), 1),
        ]);
        check(
            &p,
            71,
            &["a", "b", "c", "d"],
            &[("a", 10), ("b", 30), ("c", 21), ("d", 10)],
        );
    }

    #[test]
    fn test_weight_7_five_clusters_with_maximums() {
        let p = prefs(&[
            ("a", 0, Some(10), 10000),
            ("b", 0, None, 1),
            ("c", 0, Some(21), 1),
            ("d", 0, Some(10), 1),
            ("e", 0, None, 1),
        ]);
        check(
            &p,
            91,
            &["a", "b", "c", "d", "e"],
            &[("a", 10), ("b", 25), ("c", 21), ("d", 10), ("e", 25)],
        );
    }

    // TestEqualWithExisting (13 entries) and TestWithExistingAndCapacity (8 entries) need live
    // replica counts or capacity estimates; offline they cannot happen (spec §1.8).

    // Spec §1.6: sequential ceil, not largest remainder. Which cluster is short depends on the
    // key's hash order.
    #[test]
    fn rounding_is_sequential_ceil_against_the_live_remainder() {
        let key = "test-ns/test-deployment";
        let even = Preferences::even();
        let sorted = |plan: BTreeMap<String, i64>| {
            let mut values: Vec<i64> = plan.into_values().collect();
            values.sort_unstable_by(|a, b| b.cmp(a));
            values
        };
        assert_eq!(
            sorted(plan(&["a", "b", "c"], &even, 10, key)),
            vec![4, 4, 2]
        );
        assert_eq!(
            sorted(plan(&["a", "b", "c"], &even, 50, key)),
            vec![17, 17, 16]
        );
        assert_eq!(
            sorted(plan(&["a", "b", "c", "d"], &even, 5, key)),
            vec![2, 2, 1, 0]
        );
        assert_eq!(sorted(plan(&["a", "b", "c"], &even, 7, key)), vec![3, 3, 1]);
        assert_eq!(
            plan(&["a", "b", "c", "d"], &even, 5, key),
            expect(&[("a", 2), ("b", 1), ("c", 2), ("d", 0)])
        );
    }

    #[test]
    fn the_key_changes_the_order_of_equal_weights() {
        let order = |key: &str| {
            let mut names = vec!["a", "b", "c", "d", "e"];
            names.sort_by_key(|name| fnv1_32(&[name.as_bytes(), key.as_bytes()]));
            names
        };
        assert_eq!(order("demo/web"), vec!["a", "e", "c", "b", "d"]);
        assert_eq!(order("demo/shop"), vec!["b", "e", "c", "d", "a"]);
    }

    #[test]
    fn exact_maximum_stays_open_and_minimum_above_maximum_is_clamped_in_the_loop() {
        // a lands exactly on its max 5 in round one and stays open; nothing is lost.
        let p = prefs(&[("a", 0, Some(5), 1), ("b", 0, None, 1)]);
        assert_eq!(plan(&["a", "b"], &p, 10, ""), expect(&[("a", 5), ("b", 5)]));
        // min 6 > max 3: pass 1 gives 6, the loop clamps to 3 and b gets the rest.
        let p = prefs(&[("a", 6, Some(3), 1), ("b", 0, None, 1)]);
        assert_eq!(plan(&["a", "b"], &p, 10, ""), expect(&[("a", 3), ("b", 7)]));
        // When the minimums use up everything the loop does not run: a keeps 6.
        let p = prefs(&[("a", 6, Some(3), 1), ("b", 4, None, 1)]);
        assert_eq!(plan(&["a", "b"], &p, 10, ""), expect(&[("a", 6), ("b", 4)]));
    }

    // userguide.md "ReplicaSchedulingPreference", the four examples, clusters a, b, c and the
    // docs' RSP test-ns/test-deployment.
    #[test]
    fn userguide_examples() {
        let key = "test-ns/test-deployment";
        let clusters = ["a", "b", "c"];
        assert_eq!(
            plan(&clusters, &Preferences::even(), 9, key),
            expect(&[("a", 3), ("b", 3), ("c", 3)])
        );
        let weighted = prefs(&[("a", 0, None, 1), ("b", 0, None, 2)]);
        assert_eq!(
            plan(&clusters, &weighted, 9, key),
            expect(&[("a", 3), ("b", 6), ("c", 0)])
        );
        let limited = prefs(&[("a", 4, Some(6), 1), ("b", 4, Some(8), 2)]);
        assert_eq!(
            plan(&clusters, &limited, 9, key),
            expect(&[("a", 4), ("b", 5), ("c", 0)])
        );
        // "A=16 B=17 C=17" in the docs; which one gets 16 is hash-dependent: here b.
        let capped = prefs(&[("*", 0, None, 1), ("c", 0, Some(20), 1)]);
        assert_eq!(
            plan(&clusters, &capped, 50, key),
            expect(&[("a", 17), ("b", 16), ("c", 17)])
        );
    }

    // Seed 003: "*" {weight 1, max 15}, cluster-1 {weight (null → 0), min 3, max 10}, total 20.
    #[test]
    fn seed_003_star_with_an_explicit_weightless_cluster() {
        let p = prefs(&[("*", 0, Some(15), 1), ("cluster-1", 3, Some(10), 0)]);
        assert_eq!(
            plan(&["cluster-1", "cluster-2"], &p, 20, "fed-ns/fed-deploy"),
            expect(&[("cluster-1", 3), ("cluster-2", 15)])
        );
        assert_eq!(
            plan(
                &["cluster-1", "cluster-2", "cluster-3"],
                &p,
                20,
                "fed-ns/fed-deploy"
            ),
            expect(&[("cluster-1", 3), ("cluster-2", 8), ("cluster-3", 9)])
        );
    }

    #[test]
    fn empty_preferences_plan_every_cluster_zero() {
        assert_eq!(
            plan(&["a", "b"], &Preferences::default(), 5, "x/y"),
            expect(&[("a", 0), ("b", 0)])
        );
    }

    /// Tiny xorshift64*, so the property test needs no crate and is reproducible.
    struct XorShift(u64);

    impl XorShift {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn below(&mut self, bound: u64) -> i64 {
            (self.next() % bound) as i64
        }
    }

    #[test]
    fn property_never_more_than_total_respects_maximums_and_affordable_minimums() {
        let names = ["a", "b", "c", "d", "e", "f"];
        let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
        for round in 0..20_000 {
            let available: Vec<&str> = names
                .iter()
                .copied()
                .filter(|_| rng.below(4) != 0)
                .collect();
            let mut preferences = Preferences::default();
            for name in names.iter().chain(std::iter::once(&"*")) {
                if rng.below(3) == 0 {
                    continue;
                }
                let min_replicas = if rng.below(2) == 0 { 0 } else { rng.below(8) };
                let max_replicas = (rng.below(2) == 0).then(|| rng.below(12));
                let weight = rng.below(5);
                preferences.clusters.insert(
                    name.to_string(),
                    ClusterPreferences {
                        min_replicas,
                        max_replicas,
                        weight,
                    },
                );
            }
            let total = rng.below(40);
            let key = format!("ns/w{}", round % 7);
            let result = plan(&available, &preferences, total, &key);
            let context =
                format!("round {round}: {available:?} {preferences:?} total {total} → {result:?}");
            assert_eq!(
                result.keys().map(String::as_str).collect::<Vec<_>>(),
                {
                    let mut sorted = available.clone();
                    sorted.sort_unstable();
                    sorted
                },
                "{context}"
            );
            assert!(result.values().sum::<i64>() <= total, "{context}");
            let lookup = |name: &str| {
                preferences
                    .clusters
                    .get(name)
                    .or_else(|| preferences.clusters.get("*"))
                    .copied()
            };
            let mut minimums_sum = 0;
            for (name, replicas) in &result {
                assert!(*replicas >= 0, "{context}");
                match lookup(name) {
                    None => assert_eq!(*replicas, 0, "{context}"),
                    Some(p) => {
                        minimums_sum += p.min_replicas;
                        if let Some(maximum) = p.max_replicas {
                            // A maximum below the minimum only wins when the loop runs.
                            assert!(*replicas <= maximum.max(p.min_replicas), "{context}");
                            if p.min_replicas <= maximum {
                                assert!(*replicas <= maximum, "{context}");
                            }
                        }
                        if p.weight == 0 {
                            assert!(*replicas <= p.min_replicas, "{context}");
                        }
                    }
                }
            }
            // When every minimum fits (and none exceeds its maximum), every minimum is met.
            let consistent = result.keys().all(|name| {
                lookup(name).is_none_or(|p| p.max_replicas.is_none_or(|m| m >= p.min_replicas))
            });
            if minimums_sum <= total && consistent {
                for (name, replicas) in &result {
                    if let Some(p) = lookup(name) {
                        assert!(*replicas >= p.min_replicas, "{context}");
                    }
                }
            }
            // Nothing is left over while some candidate has weight and room.
            let placed: i64 = result.values().sum();
            let room = result.iter().any(|(name, replicas)| {
                lookup(name)
                    .is_some_and(|p| p.weight > 0 && p.max_replicas.is_none_or(|m| *replicas < m))
            });
            if room && consistent {
                assert_eq!(placed, total, "{context}");
            }
        }
    }
}
