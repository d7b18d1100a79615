//! The Webster (Sainte-Laguë) dispenser Karmada divides replicas with since v1.16
//! (karmada pkg/util/helper/webstermethod.go `AllocateWebsterSeats`, pkg/util/helper/binding.go
//! `Dispenser.AllocateByWeight` and `tieBreakerByUID`; spec §8.7).
//!
//! Seats (replicas) are handed out one at a time; the next seat goes to the party (cluster) with
//! the highest priority `votes / (2·seats + 1)`. Equal priorities go to the party with fewer
//! seats, then by name: the smaller name, unless the template UID is non-empty and its
//! FNV-1a-32 hash is odd, in which case the larger name. Karmada compares priorities as float64;
//! this module compares them exactly (`v_a·(2s_b+1)` against `v_b·(2s_a+1)`), which agrees with
//! Karmada for every realistic input (they could only differ once votes × seats nears 2^53).
//!
//! A party's successive priorities strictly decrease, so handing out N seats one at a time picks
//! exactly the N best (party, seat-number) pairs under that total order. [`divide`] uses this to
//! give every party at once all seats whose priority is above a safe threshold (at least
//! N − parties seats), and hands out only the rest through a binary heap: O(parties · log parties)
//! whatever the replica count, with the result of the one-at-a-time procedure.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// A cluster taking part in a division, with its weight (Karmada's "votes": a static weight or
/// the cluster's available replicas).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Party<'a> {
    pub name: &'a str,
    pub weight: i64,
}

/// Divides `seats` among `parties` by the Webster method on a fresh schedule (nobody holds a seat
/// yet) and returns each party's seats, in the order the parties were given.
///
/// `uid` is the resource template's UID; it only decides which name wins a tie (empty UID:
/// the smaller name). Parties with weight 0 (or below) get nothing; if no party has a
/// positive weight, or `seats <= 0`, everybody gets 0 — as Karmada's dispenser, which returns
/// early when the weights sum to 0.
pub fn divide(seats: i64, parties: &[Party<'_>], uid: &str) -> Vec<i64> {
    let mut result = vec![0; parties.len()];
    let voters: Vec<usize> = (0..parties.len())
        .filter(|&index| parties[index].weight > 0)
        .collect();
    if seats <= 0 || voters.is_empty() {
        return result;
    }
    let given = jump_start(seats, parties, &voters, &mut result);
    hand_out(seats - given, parties, &voters, &mut result, uid);
    result
}

/// Gives every voter the seats whose priority is strictly above `V / (2N − p)` (V the total
/// weight, N the seats, p the voters) and returns how many that is. Those pairs rank above every
/// other one whatever the tie rules, so they are the first ones the one-at-a-time procedure hands
/// out; and there are between N − p and N of them, so at most p seats remain for the heap.
fn jump_start(seats: i64, parties: &[Party<'_>], voters: &[usize], result: &mut [i64]) -> i64 {
    let voter_count = voters.len() as u128;
    let seats_wide = seats as u128;
    if seats_wide <= voter_count {
        return 0;
    }
    let total: u128 = voters
        .iter()
        .map(|&index| parties[index].weight as u128)
        .sum();
    let denominator = 2 * seats_wide - voter_count;
    let mut given = 0;
    for &index in voters {
        // Seat numbers j (0-based) with (2j+1)·V < w·D: the odd m = 2j+1 with m ≤ ⌊(w·D − 1)/V⌋.
        let largest_odd_bound = (parties[index].weight as u128 * denominator - 1) / total;
        let count = largest_odd_bound.div_ceil(2);
        // count ≤ seats, so it fits.
        let count = i64::try_from(count).unwrap_or(seats);
        result[index] = count;
        given += count;
    }
    given
}

/// One party in the heap: the greatest contender gets the next seat.
#[derive(Debug)]
struct Contender<'a> {
    votes: u128,
    seats: i64,
    name: &'a str,
    index: usize,
    /// `tieBreakerByUID`: larger names first when the UID hash is odd.
    names_descending: bool,
}

impl Ord for Contender<'_> {
    fn cmp(&self, other: &Self) -> Ordering {
        // votes / (2·seats + 1), cross-multiplied; both factors are below 2^64, so the products
        // fit in u128.
        (self.votes * (2 * other.seats as u128 + 1))
            .cmp(&(other.votes * (2 * self.seats as u128 + 1)))
            // Fewer current seats wins (WebsterPriorityQueue.Less).
            .then_with(|| other.seats.cmp(&self.seats))
            .then_with(|| {
                if self.names_descending {
                    self.name.cmp(other.name)
                } else {
                    other.name.cmp(self.name)
                }
            })
            // Cluster names are unique; should a caller repeat one, the earlier entry wins.
            .then_with(|| other.index.cmp(&self.index))
    }
}

impl PartialOrd for Contender<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Contender<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Contender<'_> {}

/// Hands out `seats` more seats one at a time, starting from the seats already in `result`
/// (`AllocateWebsterSeats` with initial assignments).
fn hand_out(seats: i64, parties: &[Party<'_>], voters: &[usize], result: &mut [i64], uid: &str) {
    if seats <= 0 {
        return;
    }
    let names_descending = prefers_larger_names(uid);
    let mut heap: BinaryHeap<Contender<'_>> = voters
        .iter()
        .map(|&index| Contender {
            votes: parties[index].weight as u128,
            seats: result[index],
            name: parties[index].name,
            index,
            names_descending,
        })
        .collect();
    for _ in 0..seats {
        match heap.peek_mut() {
            // The heap re-sorts when the borrow ends.
            Some(mut winner) => winner.seats += 1,
            None => break,
        }
    }
    for contender in heap.into_vec() {
        result[contender.index] = contender.seats;
    }
}

/// `tieBreakerByUID`: an odd FNV-1a-32 hash of the UID's bytes puts larger names first; an empty
/// UID keeps smaller names first.
pub(super) fn prefers_larger_names(uid: &str) -> bool {
    !uid.is_empty() && fnv1a_32(uid.as_bytes()) & 1 == 1
}

/// FNV-1a, 32 bits (Go's `hash/fnv.New32a`).
fn fnv1a_32(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5, |hash, &byte| {
        (hash ^ u32::from(byte)).wrapping_mul(0x0100_0193)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The UIDs of karmada pkg/util/helper/binding_test.go.
    const ODD_UID: &str = "d43fdeeb-d750-4e2b-bee3-64eb94534f4c";
    const EVEN_UID: &str = "4858ca61-3ff8-4095-8267-f3d059d8074c";

    fn parties<'a>(weights: &[(&'a str, i64)]) -> Vec<Party<'a>> {
        weights
            .iter()
            .map(|&(name, weight)| Party { name, weight })
            .collect()
    }

    fn split(seats: i64, weights: &[(&str, i64)], uid: &str) -> Vec<i64> {
        divide(seats, &parties(weights), uid)
    }

    /// Continues from initial seats, as `AllocateWebsterSeats` with `initialAssignments` (and the
    /// dispenser's early return when the weights sum to 0) — only to replay upstream rows that
    /// start from a previous result.
    fn split_from(seats: i64, weights: &[(&str, i64)], initial: &[i64], uid: &str) -> Vec<i64> {
        let parties = parties(weights);
        let mut result = initial.to_vec();
        let voters: Vec<usize> = (0..parties.len())
            .filter(|&index| parties[index].weight > 0)
            .collect();
        hand_out(seats, &parties, &voters, &mut result, uid);
        result
    }

    /// The procedure as §8.7 states it, one seat at a time by a linear scan, written separately
    /// from the heap so that the two can be compared.
    fn reference(seats: i64, parties: &[Party<'_>], uid: &str) -> Vec<i64> {
        let descending = prefers_larger_names(uid);
        let mut result = vec![0i64; parties.len()];
        if !parties.iter().any(|party| party.weight > 0) {
            return result;
        }
        for _ in 0..seats.max(0) {
            let mut best: Option<usize> = None;
            for (index, party) in parties.iter().enumerate() {
                if party.weight <= 0 {
                    continue;
                }
                let Some(current) = best else {
                    best = Some(index);
                    continue;
                };
                let (a, b) = (party, &parties[current]);
                let (sa, sb) = (result[index] as i128, result[current] as i128);
                let left = a.weight as i128 * (2 * sb + 1);
                let right = b.weight as i128 * (2 * sa + 1);
                let wins = left > right
                    || (left == right
                        && (sa < sb
                            || (sa == sb
                                && if descending {
                                    a.name > b.name
                                } else {
                                    a.name < b.name
                                })));
                if wins {
                    best = Some(index);
                }
            }
            if let Some(index) = best {
                result[index] += 1;
            }
        }
        result
    }

    #[test]
    fn fnv_parity_of_the_upstream_uids() {
        assert_eq!(fnv1a_32(b""), 0x811c_9dc5);
        assert_eq!(fnv1a_32(b"a"), 0xe40c_292c);
        assert_eq!(fnv1a_32(b"foobar"), 0xbf9c_f968);
        assert!(prefers_larger_names(ODD_UID));
        assert!(!prefers_larger_names(EVEN_UID));
        assert!(!prefers_larger_names(""));
    }

    /// webstermethod_test.go `ExampleAllocateWebsterSeats`.
    #[test]
    fn upstream_example() {
        let weights = [("Alpha", 1200), ("Beta", 900), ("Gamma", 400)];
        assert_eq!(split(4, &weights, ""), [2, 1, 1]);
    }

    /// webstermethod_test.go `TestAllocateWebsterSeats`, "classic example, round 1..8"
    /// (Wikipedia's Sainte-Laguë table), as at karmada f8fdd02. Seat 6 is a tie at 20000
    /// between PartyA (100000/5) and PartyD (20000/1); PartyD holds fewer seats and wins it.
    #[test]
    fn upstream_classic_rounds() {
        let weights = [
            ("PartyA", 100_000),
            ("PartyB", 80_000),
            ("PartyC", 30_000),
            ("PartyD", 20_000),
        ];
        let rounds: [[i64; 4]; 8] = [
            [1, 0, 0, 0],
            [1, 1, 0, 0],
            [2, 1, 0, 0],
            [2, 1, 1, 0],
            [2, 2, 1, 0],
            [2, 2, 1, 1],
            [3, 2, 1, 1],
            [3, 3, 1, 1],
        ];
        for (round, expected) in rounds.iter().enumerate() {
            assert_eq!(
                split(round as i64 + 1, &weights, ""),
                expected,
                "round {}",
                round + 1
            );
        }
    }

    /// `TestAllocateWebsterSeats`: the empty / zero rows and the tie-breaker rows. The row
    /// "tie-breaker is nil, expect break tie by seats" gives a seat to a party with 0 votes; that
    /// only happens in `AllocateWebsterSeats` itself — Karmada's dispenser returns before it when
    /// the weights sum to 0, and so does `divide` (checked below).
    #[test]
    fn upstream_edge_and_tie_rows() {
        // "empty party votes, expect nil result", "both party votes and newSeats are 0".
        assert_eq!(split(1, &[], ""), Vec::<i64>::new());
        assert_eq!(split(0, &[], ""), Vec::<i64>::new());
        // "party votes not empty, newSeats is 0, expect all seats 0".
        assert_eq!(split(0, &[("PartyA", 100), ("PartyB", 200)], ""), [0, 0]);
        // "tie-breaker is nil, expect break tie by votes".
        assert_eq!(split(1, &[("PartyA", 1), ("PartyB", 2)], ""), [0, 1]);
        // "tie-breaker is nil, expect break tie by name".
        assert_eq!(split(1, &[("PartyA", 1), ("PartyB", 1)], ""), [1, 0]);
        // "custom tie-breaker returns true/false": name order, which the UID parity picks here.
        assert_eq!(split(1, &[("PartyA", 1), ("PartyB", 1)], EVEN_UID), [1, 0]);
        assert_eq!(split(1, &[("PartyA", 1), ("PartyB", 1)], ODD_UID), [0, 1]);
        // All weights 0 (the dispenser's `sum == 0` early return).
        assert_eq!(split(3, &[("PartyA", 0), ("PartyB", 0)], ""), [0, 0]);
        assert_eq!(
            split_from(1, &[("PartyA", 0), ("PartyB", 0)], &[2, 1], ""),
            [2, 1]
        );
    }

    /// `TestAllocateWebsterSeats`, the "non-initial allocation" rows (initial seats).
    #[test]
    fn upstream_rows_with_initial_seats() {
        // "new party joins, only new party gets new seats".
        let weights = [("NewParty1", 1), ("NewParty2", 1), ("OldParty", 0)];
        assert_eq!(split_from(2, &weights, &[0, 0, 0], ""), [1, 1, 0]);
        // "both new and old parties compete for new seats".
        let weights = [("NewParty", 1), ("OldParty", 1)];
        assert_eq!(split_from(2, &weights, &[0, 1], ""), [2, 1]);
        // "initialAssignments party not in partyVotes, expect no new seats for that party".
        let weights = [("PartyA", 100), ("PartyB", 0)];
        assert_eq!(split_from(2, &weights, &[0, 3], ""), [2, 3]);
    }

    /// binding_test.go `Test_dispenser_AllocateByWeight`, every row. The "Scale up" rows start
    /// from A1/B2/C3, which is itself the fresh Webster result for 6 seats over 1:2:3, so they
    /// also equal a fresh division of 6 + n seats.
    #[test]
    fn upstream_dispenser_rows() {
        let abc = [("A", 1), ("B", 2), ("C", 3)];
        assert_eq!(split(6, &abc, ""), [1, 2, 3]);
        for (new, expected) in [(6, [2, 4, 6]), (3, [2, 3, 4]), (2, [1, 3, 4])] {
            assert_eq!(
                split_from(new, &abc, &[1, 2, 3], ""),
                expected,
                "scale up {new}"
            );
            assert_eq!(split(6 + new, &abc, ""), expected, "fresh {}", 6 + new);
        }
        // "HA scenario with weight 2:1: assign 1/2/3 replicas".
        let ab = [("A", 2), ("B", 1)];
        assert_eq!(split(1, &ab, ""), [1, 0]);
        assert_eq!(split(2, &ab, ""), [1, 1]);
        assert_eq!(split(3, &ab, ""), [2, 1]);
        // "brand new assign 5/6 replicas" over 170:110:60.
        let abc = [("A", 170), ("B", 110), ("C", 60)];
        assert_eq!(split(5, &abc, ""), [2, 2, 1]);
        assert_eq!(split(6, &abc, ""), [3, 2, 1]);
        // "brand new assign 5 replicas with odd/even uuid".
        let ab = [("A", 1), ("B", 1)];
        assert_eq!(split(5, &ab, ODD_UID), [2, 3]);
        assert_eq!(split(5, &ab, EVEN_UID), [3, 2]);
    }

    /// binding_test.go `TestDispenseReplicasByTargetClusters` (weights are the listed replicas;
    /// the 1:1:1/10 row accepts any cluster for the extra replica, Webster with an empty UID
    /// gives it to member1).
    #[test]
    fn upstream_spread_by_target_clusters_rows() {
        assert_eq!(split(10, &[], ""), Vec::<i64>::new());
        assert_eq!(split(10, &[("member1", 5)], ""), [10]);
        let even = [("member1", 5), ("member2", 5), ("member3", 5)];
        assert_eq!(split(12, &even, ""), [4, 4, 4]);
        assert_eq!(split(10, &even, ""), [4, 3, 3]);
        let weights = [("member1", 1), ("member2", 2), ("member3", 3)];
        assert_eq!(split(13, &weights, ""), [2, 4, 7]);
    }

    /// Spec §8.7's contrasts with Hamilton and with pre-v1.16 Karmada, re-derived by hand:
    /// - 3 over 1:1:3: C takes seat 1 (3 > 1); then A, B and C all stand at priority 1 and A, B
    ///   hold fewer seats, so A then B.
    /// - 2 over 1:1:4: C (4), then C again (4/3 > 1).
    #[test]
    fn spec_section_8_7() {
        assert_eq!(split(3, &[("a", 1), ("b", 1), ("c", 3)], ""), [1, 1, 1]);
        assert_eq!(split(2, &[("a", 1), ("b", 1), ("c", 4)], ""), [0, 0, 2]);
        let wikipedia = [("a", 100_000), ("b", 80_000), ("c", 30_000), ("d", 20_000)];
        assert_eq!(split(8, &wikipedia, ""), [3, 3, 1, 1]);
        assert_eq!(
            split(5, &[("a", 170), ("b", 110), ("c", 60)], ""),
            [2, 2, 1]
        );
        assert_eq!(split(2, &[("a", 2), ("b", 1)], ""), [1, 1]);
        assert_eq!(split(1, &[("a", 2), ("b", 1)], ""), [1, 0]);
    }

    /// Spec §14 and the §8.5/§8.6/§10 examples, re-derived:
    /// - 3:2:1 with 14: after 13 (7/4/2) member1 offers 3/15, member2 2/9, member3 1/5; 2/9 wins.
    /// - 2:1:1:1 with 7: after 6 (3/1/1/1) member1 offers 2/7, the others 1/3 each with one seat
    ///   apiece, so member2 by name; 8 and 9 then go to member3 and member4.
    #[test]
    fn spec_worked_checks() {
        let static_321 = [("member1", 3), ("member2", 2), ("member3", 1)];
        assert_eq!(split(12, &static_321, ""), [6, 4, 2]);
        assert_eq!(split(13, &static_321, ""), [7, 4, 2]);
        assert_eq!(split(14, &static_321, ""), [7, 5, 2]);
        let static_2111 = [
            ("member1", 2),
            ("member2", 1),
            ("member3", 1),
            ("member4", 1),
        ];
        assert_eq!(split(6, &static_2111, ""), [3, 1, 1, 1]);
        assert_eq!(split(7, &static_2111, ""), [3, 2, 1, 1]);
        assert_eq!(split(8, &static_2111, ""), [3, 2, 2, 1]);
        assert_eq!(split(9, &static_2111, ""), [3, 2, 2, 2]);
        // Dynamic weights (available replicas).
        let dynamic = |weights: [i64; 3]| {
            let named = [("m1", weights[0]), ("m2", weights[1]), ("m3", weights[2])];
            split(12, &named, "")
        };
        assert_eq!(dynamic([8, 8, 10]), [4, 4, 4]);
        assert_eq!(dynamic([6, 8, 10]), [3, 4, 5]);
        assert_eq!(dynamic([6, 12, 18]), [2, 4, 6]);
        // UID parity, 5 over 1:1.
        let pair = [("member1", 1), ("member2", 1)];
        assert_eq!(split(5, &pair, ODD_UID), [2, 3]);
        assert_eq!(split(5, &pair, EVEN_UID), [3, 2]);
        assert_eq!(split(5, &pair, ""), [3, 2]);
        // Aggregated prefixes: 12 over (10, 8); 24 over (20, 6).
        assert_eq!(split(12, &[("big", 10), ("small", 8)], ""), [7, 5]);
        assert_eq!(split(24, &[("m1", 20), ("m2", 6)], ""), [18, 6]);
        // Job completions: 10 over the assigned parallelism 2:1.
        assert_eq!(split(10, &[("member1", 2), ("member2", 1)], ""), [7, 3]);
    }

    #[test]
    fn zero_weights_and_negative_seats_get_nothing() {
        let weights = [("a", 0), ("b", 3), ("c", 0), ("d", 1)];
        assert_eq!(split(9, &weights, ""), [0, 7, 0, 2]);
        assert_eq!(split(-4, &weights, ""), [0, 0, 0, 0]);
        assert_eq!(split(5, &[("a", -2), ("b", 1)], ""), [0, 5]);
    }

    /// Small deterministic pseudo-random generator for the hand-written property loops.
    struct Lcg(u64);

    impl Lcg {
        fn next(&mut self, bound: u64) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (self.0 >> 33) % bound
        }
    }

    const NAMES: [&str; 7] = ["m0", "m1", "m2", "m3", "m4", "m5", "m6"];

    fn random_parties(rng: &mut Lcg, max_weight: u64) -> Vec<Party<'static>> {
        let count = rng.next(NAMES.len() as u64 + 1) as usize;
        let mut names: Vec<&'static str> = NAMES.to_vec();
        // Shuffle so the input order is arbitrary.
        for index in (1..names.len()).rev() {
            names.swap(index, rng.next(index as u64 + 1) as usize);
        }
        names
            .into_iter()
            .take(count)
            .map(|name| Party {
                name,
                weight: rng.next(max_weight + 1) as i64,
            })
            .collect()
    }

    /// Every small input: the heap (with its jump start) equals the one-at-a-time procedure.
    #[test]
    fn matches_the_one_seat_at_a_time_procedure() {
        let mut rng = Lcg(7);
        for case in 0..3_000 {
            let max_weight = [3, 10, 1_000][case % 3];
            let parties = random_parties(&mut rng, max_weight);
            let uid = [EVEN_UID, ODD_UID, ""][case % 3];
            let seats = rng.next(if case % 10 == 0 { 2_000 } else { 60 }) as i64;
            assert_eq!(
                divide(seats, &parties, uid),
                reference(seats, &parties, uid),
                "{seats} seats over {parties:?}, uid {uid:?}"
            );
        }
    }

    /// The sum is always `seats` when some weight is positive, and 0 otherwise.
    #[test]
    fn hands_out_every_seat() {
        let mut rng = Lcg(11);
        for _ in 0..3_000 {
            let parties = random_parties(&mut rng, 20);
            let seats = rng.next(200) as i64;
            let total: i64 = divide(seats, &parties, "").iter().sum();
            if parties.iter().any(|party| party.weight > 0) {
                assert_eq!(total, seats, "{parties:?}");
            } else {
                assert_eq!(total, 0, "{parties:?}");
            }
        }
    }

    /// House monotonicity (karmada#6735, the reason for the Webster rewrite): one more seat adds
    /// exactly one seat to exactly one party and takes none away.
    #[test]
    fn one_more_seat_changes_one_party_by_one() {
        let mut rng = Lcg(13);
        for case in 0..400 {
            let parties = random_parties(&mut rng, 50);
            if !parties.iter().any(|party| party.weight > 0) {
                continue;
            }
            let uid = if case % 2 == 0 { ODD_UID } else { "" };
            let mut previous = divide(0, &parties, uid);
            for seats in 1..=80 {
                let current = divide(seats, &parties, uid);
                let grown: Vec<i64> = current.iter().zip(&previous).map(|(c, p)| c - p).collect();
                assert!(
                    grown.iter().all(|&delta| delta == 0 || delta == 1),
                    "{parties:?}"
                );
                assert_eq!(grown.iter().sum::<i64>(), 1, "{seats} over {parties:?}");
                previous = current;
            }
        }
        // The issue's own numbers: 170:110:60 never loses a replica while scaling up.
        let issue = [("A", 170), ("B", 110), ("C", 60)];
        let mut previous = [0i64; 3];
        for seats in 1..=50 {
            let current = split(seats, &issue, "");
            assert!(current.iter().zip(&previous).all(|(c, p)| c >= p));
            previous.copy_from_slice(&current);
        }
    }

    /// The result follows the parties, not the order they are listed in.
    #[test]
    fn independent_of_the_input_order() {
        let mut rng = Lcg(17);
        for case in 0..1_500 {
            let parties = random_parties(&mut rng, 12);
            let uid = [EVEN_UID, ODD_UID, ""][case % 3];
            let seats = rng.next(40) as i64;
            let mut reversed = parties.clone();
            reversed.reverse();
            let by_name = |list: &[Party<'_>]| {
                let mut named: Vec<(String, i64)> = list
                    .iter()
                    .zip(divide(seats, list, uid))
                    .map(|(party, seats)| (party.name.to_string(), seats))
                    .collect();
                named.sort();
                named
            };
            assert_eq!(by_name(&parties), by_name(&reversed), "{parties:?}");
        }
    }

    /// Huge replica counts finish at once and satisfy Webster's divisor condition: the weakest
    /// claim on a held seat, votes/(2s−1), is at least the strongest claim on a new one,
    /// votes/(2s+1).
    #[test]
    fn large_divisions_are_fast_and_proportional() {
        let names: Vec<String> = (0..200).map(|index| format!("member{index:03}")).collect();
        let mut rng = Lcg(19);
        for seats in [1_000, 123_457, 2_147_483_647, 9_000_000_000_000_000_000] {
            let parties: Vec<Party<'_>> = names
                .iter()
                .map(|name| Party {
                    name,
                    weight: 1 + rng.next(1_000_000_000) as i64,
                })
                .collect();
            let result = divide(seats, &parties, ODD_UID);
            assert_eq!(result.iter().sum::<i64>(), seats);
            let held = parties
                .iter()
                .zip(&result)
                .filter(|(_, seats)| **seats > 0)
                .map(|(party, seats)| (party.weight as u128, 2 * *seats as u128 - 1));
            let next = parties
                .iter()
                .zip(&result)
                .map(|(party, seats)| (party.weight as u128, 2 * *seats as u128 + 1));
            for (held_votes, held_divisor) in held {
                for (next_votes, next_divisor) in next.clone() {
                    assert!(held_votes * next_divisor >= next_votes * held_divisor);
                }
            }
        }
        // Extreme weights do not overflow.
        let extreme = [("a", i64::MAX), ("b", i64::MAX), ("c", 1)];
        assert_eq!(split(i64::MAX, &extreme, "").iter().sum::<i64>(), i64::MAX);
    }
}
