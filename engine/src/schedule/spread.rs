//! Cluster selection with spread constraints (spec §7.3–§7.6): which of the feasible
//! clusters a binding goes to once `placement.spreadConstraints` apply.
//!
//! Upstream lives in karmada `pkg/scheduler/core/spreadconstraint/`: `select_clusters.go`
//! (dispatch), `select_clusters_by_cluster.go` (first `maxGroups` clusters plus the
//! replacement walk), `select_clusters_by_region.go` (regions first, then clusters),
//! `select_groups.go` (the DFS that picks the regions), `group_clusters.go` (region scores,
//! `calcGroupScore`) and `util.go` (`sortClusters`, the canonical order of §5).
//!
//! Deciding *whether* spread constraints apply at all (§7.1: none given, or static weights)
//! is the caller's job; this module assumes they do.
//!
//! The indices returned are in the order Karmada hands the clusters to replica assignment,
//! which is not always the canonical order: the replacement walk leaves a swapped-in cluster
//! at the position of the one it replaced, and region selection lists the first cluster of
//! every chosen region before the clusters filled in from the pool. Dynamic and aggregated
//! division (`division_algorithm.go`) sort that list by room with Go's `sort.Sort`, whose
//! insertion sort keeps the input order of equal elements in lists of up to 12, so this order
//! can decide ties. Sort the indices to get the canonical order.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use crate::api::cluster::Cluster;
use crate::api::karmada::SpreadConstraint;

/// `spreadByField: cluster`.
const SPREAD_BY_CLUSTER: &str = "cluster";
/// `spreadByField: region`.
const SPREAD_BY_REGION: &str = "region";

/// Karmada's `weightUnit` (`group_clusters.go`): a region score is a replica or cluster count
/// times 1000 plus an average cluster score in [0, 100], so the count always dominates.
const WEIGHT_UNIT: i64 = 1000;

/// A feasible cluster as the scheduler sees it (karmada `ClusterDetailInfo`), already in
/// canonical order (§5, see [`canonical_order`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Candidate<'a> {
    pub cluster: &'a Cluster,
    /// `AvailableReplicas`: the estimate of §6 (plus replicas already there, 0 when fresh).
    pub available: i64,
    /// The cluster's score; always 0 offline (§5), kept so upstream tables stay expressible.
    pub(crate) score: i64,
    /// `OverflowOrder`: 0 for the primary cluster affinity, k for the k-th overflow affinity.
    pub overflow: usize,
}

impl<'a> Candidate<'a> {
    #[cfg(test)]
    /// A primary-affinity cluster with score 0, as every fresh offline schedule has.
    pub fn new(cluster: &'a Cluster, available: i64) -> Self {
        Candidate {
            cluster,
            available,
            score: 0,
            overflow: 0,
        }
    }

    fn name(&self) -> &'a str {
        self.cluster.name()
    }
}

/// What selection needs to know about the binding's replicas.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Replicas {
    /// Duplicated, or no `replicaScheduling`: capacity is ignored while choosing clusters
    /// (`shouldIgnoreAvailableResource`), but a region's score still counts its clusters with
    /// room for all `spec.replicas` (`calcGroupScoreForDuplicate`), so the count is kept.
    Duplicated(i64),
    /// Divided (dynamic weight, aggregated, or an empty `weightPreference`): the selected
    /// clusters must have room for `spec.replicas` replicas together.
    Divided(i64),
}

impl Replicas {
    /// needReplicas of §7.2: `None` when capacity is ignored.
    fn needed(self) -> Option<i64> {
        match self {
            Replicas::Duplicated(_) => None,
            Replicas::Divided(replicas) => Some(replicas),
        }
    }
}

/// Sorts candidates into the canonical order of §5 (karmada `util.go` `sortClusters` with the
/// availability comparator of `generateClustersInfo`): overflow order ascending, score
/// descending, available replicas descending, name ascending.
pub(crate) fn canonical_order(candidates: &mut [Candidate<'_>]) {
    candidates.sort_by(compare_canonical);
}

fn compare_canonical(a: &Candidate<'_>, b: &Candidate<'_>) -> Ordering {
    a.overflow
        .cmp(&b.overflow)
        .then_with(|| b.score.cmp(&a.score))
        .then_with(|| b.available.cmp(&a.available))
        .then_with(|| a.name().cmp(b.name()))
}

#[cfg(test)]
/// Selects clusters under spread constraints. `need_replicas` is `None` for Duplicated
/// (capacity ignored) and `Some(spec.replicas)` otherwise.
///
/// `None` scores regions as if the binding had 0 replicas, so every cluster counts as having
/// room. That is exact for non-workloads; a Duplicated workload with replicas must call
/// [`select_clusters_for`] with its replica count instead, because Karmada's region score
/// (`calcGroupScoreForDuplicate`) counts the clusters with room for all of them.
pub(crate) fn select_clusters(
    candidates: &[Candidate<'_>],
    constraints: &[SpreadConstraint],
    need_replicas: Option<i64>,
) -> Result<Vec<usize>, String> {
    let replicas = match need_replicas {
        None => Replicas::Duplicated(0),
        Some(replicas) => Replicas::Divided(replicas),
    };
    select_clusters_for(candidates, constraints, replicas)
}

/// Selects clusters under spread constraints (karmada `select_clusters.go`
/// `selectBestClustersBySpreadConstraints`), returning indices into `candidates` in the order
/// Karmada passes them on to replica assignment (see the module documentation).
///
/// A region constraint selects by region (§7.5), else a cluster constraint selects by
/// cluster (§7.4); any other set (spreadByLabel, or zone/provider alone) is Karmada's error
/// "just support cluster and region spread constraint". No constraint at all selects every
/// candidate, as `SelectBestClusters` does.
pub(crate) fn select_clusters_for(
    candidates: &[Candidate<'_>],
    constraints: &[SpreadConstraint],
    replicas: Replicas,
) -> Result<Vec<usize>, String> {
    if constraints.is_empty() {
        return Ok((0..candidates.len()).collect());
    }
    let region = limits_for(constraints, SPREAD_BY_REGION);
    let cluster = limits_for(constraints, SPREAD_BY_CLUSTER);
    match (region, cluster) {
        // Validation demands a cluster constraint next to a region one; without it Karmada
        // reads a zero constraint out of its map (minGroups 0, maxGroups 0).
        (Some(region), cluster) => {
            select_by_region(candidates, region, cluster.unwrap_or_default(), replicas)
        }
        (None, Some(cluster)) => select_by_cluster(candidates, cluster, replicas.needed()),
        (None, None) => Err(
            "spreadConstraints can only select clusters by cluster or by region; \
             Karmada fails with \"just support cluster and region spread constraint\""
                .to_string(),
        ),
    }
}

/// The `minGroups`/`maxGroups` of one spread constraint after the webhook's defaults.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Limits {
    min: i64,
    max: i64,
}

/// The limits of the constraint spreading by `field`, after the mutating webhook's defaults
/// (karmada `pkg/util/helper/policy.go` `SetDefaultSpreadConstraints`: neither field nor label
/// means `cluster`; `minGroups` 0 means 1; `maxGroups` keeps 0). Karmada keys its constraints
/// by `spreadByField` in a map, so the last one of a field wins (validation forbids two).
fn limits_for(constraints: &[SpreadConstraint], field: &str) -> Option<Limits> {
    constraints
        .iter()
        .rev()
        .find(|constraint| spread_field(constraint) == field)
        .map(|constraint| Limits {
            min: if constraint.min_groups == 0 {
                1
            } else {
                constraint.min_groups
            },
            max: constraint.max_groups,
        })
}

/// The field a constraint spreads by; a `spreadByLabel` constraint has the empty field.
fn spread_field(constraint: &SpreadConstraint) -> &str {
    let field = constraint.spread_by_field.as_deref().unwrap_or("");
    let label = constraint.spread_by_label.as_deref().unwrap_or("");
    if field.is_empty() && label.is_empty() {
        SPREAD_BY_CLUSTER
    } else {
        field
    }
}

/// "1 cluster" / "2 clusters".
fn count(n: impl Into<i64>, noun: &str) -> String {
    let n = n.into();
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

fn to_i64(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// §7.4, karmada `select_clusters_by_cluster.go` `selectBestClustersByCluster`: the first
/// `maxGroups` clusters in canonical order, then — when capacity matters — the replacement
/// walk of `selectClustersByAvailableResource`.
fn select_by_cluster(
    candidates: &[Candidate<'_>],
    cluster: Limits,
    need: Option<i64>,
) -> Result<Vec<usize>, String> {
    let feasible = to_i64(candidates.len());
    if feasible < cluster.min {
        return Err(format!(
            "spreadConstraints need at least {}, {} feasible",
            count(cluster.min, "cluster"),
            if feasible == 1 {
                "1 is".to_string()
            } else {
                format!("{feasible} are")
            }
        ));
    }
    // Karmada takes min(#clusters, maxGroups) with no default for maxGroups, so an unset
    // maxGroups selects nothing and the binding fails (open fix: karmada PR #4617).
    let take = usize::try_from(cluster.max.clamp(0, feasible)).unwrap_or(0);
    if take == 0 {
        return Err("maxGroups of the cluster spread constraint is not set, \
                    so Karmada selects no cluster (karmada#4617)"
            .to_string());
    }
    let Some(need) = need else {
        return Ok((0..take).collect());
    };

    // The walk swaps in place, like Karmada's slices: the replaced cluster goes back to the
    // rest at the position the incoming one left, where a later step may pick it up again.
    let mut chosen: Vec<usize> = (0..take).collect();
    let mut rest: Vec<usize> = (take..candidates.len()).collect();
    let available = |indices: &[usize]| {
        indices
            .iter()
            .fold(0_i64, |sum, &i| sum.saturating_add(candidates[i].available))
    };
    let mut position = take;
    while available(&chosen) < need && position > 0 {
        position -= 1;
        let threshold = candidates[chosen[position]].available;
        if let Some(j) = richest_above(candidates, &rest, threshold) {
            std::mem::swap(&mut chosen[position], &mut rest[j]);
        }
    }
    let total = available(&chosen);
    if total < need {
        return Err(format!(
            "the {} selected (maxGroups {}) {} {} available, {} needed",
            count(to_i64(take), "cluster"),
            cluster.max,
            if take == 1 { "has" } else { "have" },
            count(total, "replica"),
            if need == 1 {
                "1 is".to_string()
            } else {
                format!("{need} are")
            }
        ));
    }
    Ok(chosen)
}

/// Karmada `GetClusterWithMaxAvailableResource`: the position in `rest` of the cluster with
/// the most available replicas, strictly more than `threshold`; the first such on ties.
fn richest_above(candidates: &[Candidate<'_>], rest: &[usize], threshold: i64) -> Option<usize> {
    let mut best = None;
    let mut most = threshold;
    for (j, &i) in rest.iter().enumerate() {
        if candidates[i].available > most {
            most = candidates[i].available;
            best = Some(j);
        }
    }
    best
}

/// One region (karmada `RegionInfo`): its name, its clusters as indices into the candidates
/// in canonical order, and its score.
#[derive(Debug, Clone)]
struct Region<'c> {
    name: &'c str,
    members: Vec<usize>,
    score: i64,
}

/// Karmada `generateRegionInfo`: the candidates grouped by non-empty `spec.region`, each
/// region keeping its clusters in the candidates' (canonical) order. Scores are left 0.
fn group_by_region<'c>(candidates: &[Candidate<'c>]) -> Vec<Region<'c>> {
    let mut regions: BTreeMap<&'c str, Vec<usize>> = BTreeMap::new();
    for (i, candidate) in candidates.iter().enumerate() {
        let region = candidate.cluster.spec.region.as_str();
        if !region.is_empty() {
            regions.entry(region).or_default().push(i);
        }
    }
    regions
        .into_iter()
        .map(|(name, members)| Region {
            name,
            members,
            score: 0,
        })
        .collect()
}

/// Karmada `calcGroupScore` (`group_clusters.go`) for one region, its clusters in canonical
/// order. `region_min` is the region constraint's minGroups, `cluster_min` the cluster
/// constraint's (0 when there is none).
fn region_score(
    members: &[Candidate<'_>],
    replicas: Replicas,
    region_min: i64,
    cluster_min: i64,
) -> i64 {
    match replicas {
        // calcGroupScoreForDuplicate: how many clusters could run every replica, then their
        // average score.
        Replicas::Duplicated(replicas) => {
            let valid: Vec<&Candidate<'_>> = members
                .iter()
                .filter(|member| member.available >= replicas)
                .collect();
            let count = to_i64(valid.len());
            if count == 0 {
                return 0;
            }
            let scores: i64 = valid.iter().map(|member| member.score).sum();
            count.saturating_mul(WEIGHT_UNIT) + scores / count
        }
        // Divided: how close the region's best clusters come to its share of the replicas,
        // ⌈replicas / region minGroups⌉, taking at least max(cluster, region) minGroups
        // clusters. The webhook makes minGroups ≥ 1; the guard only keeps a bad input from
        // dividing by zero.
        Replicas::Divided(replicas) => {
            let share = region_min.max(1);
            let target = replicas / share + i64::from(replicas % share > 0);
            let at_least = cluster_min.max(region_min);
            let (mut sum, mut scores, mut taken) = (0_i64, 0_i64, 0_i64);
            for member in members {
                sum = sum.saturating_add(member.available);
                scores += member.score;
                taken += 1;
                if taken >= at_least && sum >= target {
                    break;
                }
            }
            if taken == 0 {
                return 0;
            }
            if sum < target {
                sum.saturating_mul(WEIGHT_UNIT) + scores / to_i64(members.len())
            } else {
                target.saturating_mul(WEIGHT_UNIT) + scores / taken
            }
        }
    }
}

/// §7.5, karmada `select_clusters_by_region.go` `selectBestClustersByRegion`.
fn select_by_region(
    candidates: &[Candidate<'_>],
    region: Limits,
    cluster: Limits,
    replicas: Replicas,
) -> Result<Vec<usize>, String> {
    let mut regions = group_by_region(candidates);
    for entry in &mut regions {
        let members: Vec<Candidate<'_>> = entry.members.iter().map(|&i| candidates[i]).collect();
        entry.score = region_score(&members, replicas, region.min, cluster.min);
    }
    select_in_regions(candidates, &regions, region, cluster)
}

/// The part of `selectBestClustersByRegion` after the regions are scored (upstream tests
/// inject region scores here): choose regions with [`select_groups`], take the first cluster
/// of each, then fill up to the cluster constraint's `maxGroups` from the other clusters of
/// the chosen regions in canonical order. needReplicas is not checked on this path.
fn select_in_regions(
    candidates: &[Candidate<'_>],
    regions: &[Region<'_>],
    region: Limits,
    cluster: Limits,
) -> Result<Vec<usize>, String> {
    let found = to_i64(regions.len());
    if found < region.min {
        return Err(format!(
            "spreadConstraints need at least {}, the feasible clusters are in {}",
            count(region.min, "region"),
            count(found, "region"),
        ));
    }
    let groups: Vec<Group<'_>> = regions
        .iter()
        .map(|entry| Group {
            name: entry.name,
            value: to_i64(entry.members.len()),
            weight: entry.score,
        })
        .collect();
    let chosen = select_groups(groups, region.min, region.max, cluster.min);
    if chosen.is_empty() {
        return Err(if region.max == 0 {
            "maxGroups of the region spread constraint is not set, so Karmada selects no region"
                .to_string()
        } else {
            let how_many = if region.min == region.max {
                count(region.min, "region")
            } else {
                format!("{} to {}", region.min, count(region.max, "region"))
            };
            format!(
                "spreadConstraints need at least {} from {}, and no such set of the {} has them",
                count(cluster.min, "cluster"),
                how_many,
                count(found, "feasible region"),
            )
        });
    }

    let mut selected = Vec::new();
    let mut pool = Vec::new();
    for name in chosen {
        if let Some(entry) = regions.iter().find(|entry| entry.name == name)
            && let Some((&first, others)) = entry.members.split_first()
        {
            selected.push(first);
            pool.extend_from_slice(others);
        }
    }
    // An unset cluster maxGroups leaves one cluster per chosen region.
    let wanted = cluster.max.clamp(0, to_i64(selected.len() + pool.len()));
    let extra = usize::try_from(wanted)
        .unwrap_or(0)
        .saturating_sub(selected.len());
    if extra > 0 {
        pool.sort_by(|&a, &b| compare_canonical(&candidates[a], &candidates[b]));
        selected.extend(pool.into_iter().take(extra));
    }
    Ok(selected)
}

/// A region as `selectGroups` sees it (karmada `GroupInfo`): `value` is its cluster count,
/// `weight` its score.
#[derive(Debug, Clone, Copy)]
struct Group<'c> {
    name: &'c str,
    value: i64,
    weight: i64,
}

/// A recorded DFS path (karmada `dfsPath`): numbered in discovery order from 1, its groups
/// sorted by weight descending then name, with the sums of weights and values.
#[derive(Debug, Clone)]
struct Path<'c> {
    id: usize,
    groups: Vec<Group<'c>>,
    weight: i64,
    value: i64,
}

impl Path<'_> {
    /// Karmada `matchSubPath`: `shorter` is strictly shorter and its groups, in order, start
    /// this path.
    fn starts_with(&self, shorter: &Path<'_>) -> bool {
        shorter.groups.len() < self.groups.len()
            && shorter
                .groups
                .iter()
                .zip(&self.groups)
                .all(|(a, b)| a.name == b.name)
    }
}

/// Karmada `selectGroups` (`select_groups.go`): the best combination of `min..=max` groups
/// whose values add up to at least `target`, as names in the chosen path's order (weight
/// descending, then name). Empty when no combination qualifies.
fn select_groups<'c>(mut groups: Vec<Group<'c>>, min: i64, max: i64, target: i64) -> Vec<&'c str> {
    if groups.is_empty() {
        return Vec::new();
    }
    // findFeasiblePaths visits groups by value ascending, weight descending, name.
    groups.sort_by(|a, b| {
        a.value
            .cmp(&b.value)
            .then_with(|| b.weight.cmp(&a.weight))
            .then_with(|| a.name.cmp(b.name))
    });
    let mut search = Search {
        groups: &groups,
        min,
        max,
        target,
        current: Vec::new(),
        paths: Vec::new(),
    };
    search.visit(0, 0);
    match prioritize(search.paths) {
        Some(path) => path.groups.iter().map(|group| group.name).collect(),
        None => Vec::new(),
    }
}

/// The DFS state of `findFeasiblePaths`.
struct Search<'g, 'c> {
    groups: &'g [Group<'c>],
    min: i64,
    max: i64,
    target: i64,
    current: Vec<Group<'c>>,
    paths: Vec<Path<'c>>,
}

impl<'c> Search<'_, 'c> {
    /// Records the current path once its value reaches the target within the length limits
    /// (and then stops extending it), stops at `max` groups, and otherwise tries each later
    /// group in turn.
    fn visit(&mut self, sum: i64, begin: usize) {
        let length = to_i64(self.current.len());
        if sum >= self.target && length >= self.min && length <= self.max {
            self.record();
            return;
        }
        if length >= self.max {
            return;
        }
        for i in begin..self.groups.len() {
            let group = self.groups[i];
            self.current.push(group);
            self.visit(sum.saturating_add(group.value), i + 1);
            // Karmada stops backtracking when every group is needed for minGroups. Only the
            // path of all groups can then qualify, so this saves time and changes nothing.
            if to_i64(self.groups.len()) == self.min {
                return;
            }
            self.current.pop();
        }
    }

    fn record(&mut self) {
        let mut groups = self.current.clone();
        groups.sort_by(|a, b| b.weight.cmp(&a.weight).then_with(|| a.name.cmp(b.name)));
        self.paths.push(Path {
            id: self.paths.len() + 1,
            weight: groups.iter().map(|group| group.weight).sum(),
            value: groups.iter().map(|group| group.value).sum(),
            groups,
        });
    }
}

/// Karmada `prioritizePaths`: the path of highest weight, then highest value, then earliest
/// discovery; then, scanning the rest in that order, any strictly shorter path that starts the
/// current choice replaces it (fewer regions doing the same job win).
fn prioritize(mut paths: Vec<Path<'_>>) -> Option<Path<'_>> {
    paths.sort_by(|a, b| {
        b.weight
            .cmp(&a.weight)
            .then_with(|| b.value.cmp(&a.value))
            .then_with(|| a.id.cmp(&b.id))
    });
    let mut paths = paths.into_iter();
    let mut best = paths.next()?;
    for path in paths {
        if best.starts_with(&path) {
            best = path;
        }
    }
    Some(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::cluster::ClusterSpec;
    use crate::api::meta::ObjectMeta;

    /// name, region, score, available replicas.
    type Spec<'s> = (&'s str, &'s str, i64, i64);

    fn fleet(specs: &[Spec<'_>]) -> Vec<Cluster> {
        specs
            .iter()
            .map(|&(name, region, _, _)| Cluster {
                api_version: "cluster.karmada.io/v1alpha1".to_string(),
                kind: "Cluster".to_string(),
                metadata: ObjectMeta {
                    name: name.to_string(),
                    ..ObjectMeta::default()
                },
                spec: ClusterSpec {
                    region: region.to_string(),
                    ..ClusterSpec::default()
                },
                status: None,
            })
            .collect()
    }

    /// Candidates in the given order (pair with `fleet` of the same specs).
    fn unsorted<'a>(clusters: &'a [Cluster], specs: &[Spec<'_>]) -> Vec<Candidate<'a>> {
        clusters
            .iter()
            .zip(specs)
            .map(|(cluster, &(_, _, score, available))| Candidate {
                score,
                ..Candidate::new(cluster, available)
            })
            .collect()
    }

    /// Candidates in canonical order, as the caller hands them over.
    fn sorted<'a>(clusters: &'a [Cluster], specs: &[Spec<'_>]) -> Vec<Candidate<'a>> {
        let mut candidates = unsorted(clusters, specs);
        canonical_order(&mut candidates);
        candidates
    }

    fn names<'a>(candidates: &[Candidate<'a>], picked: &[usize]) -> Vec<&'a str> {
        picked.iter().map(|&i| candidates[i].name()).collect()
    }

    fn constraint(field: &str, min: i64, max: i64) -> SpreadConstraint {
        SpreadConstraint {
            spread_by_field: Some(field.to_string()),
            spread_by_label: None,
            max_groups: max,
            min_groups: min,
        }
    }

    fn limits(min: i64, max: i64) -> Limits {
        Limits { min, max }
    }

    // ---- select_clusters_test.go TestSelectBestClusters (injected scores kept) ----

    /// `generateClusterInfo`: already sorted by score, which is canonical with these scores.
    const UPSTREAM_CLUSTERS: [Spec<'static>; 4] = [
        ("member4", "R2", 60, 50),
        ("member2", "R1", 40, 60),
        ("member3", "R1", 30, 80),
        ("member1", "R1", 20, 40),
    ];

    #[test]
    fn upstream_select_by_cluster_score() {
        // "select clusters by cluster score": no replicaScheduling is Duplicated.
        let clusters = fleet(&UPSTREAM_CLUSTERS);
        let candidates = sorted(&clusters, &UPSTREAM_CLUSTERS);
        let picked = select_clusters(&candidates, &[constraint("cluster", 1, 2)], None).unwrap();
        assert_eq!(names(&candidates, &picked), ["member4", "member2"]);
    }

    #[test]
    fn upstream_duplicated_ignores_available_resources() {
        // "... ignore available resources when scheduling strategy is duplicated" (120 needed).
        let clusters = fleet(&UPSTREAM_CLUSTERS);
        let candidates = sorted(&clusters, &UPSTREAM_CLUSTERS);
        let picked = select_clusters_for(
            &candidates,
            &[constraint("cluster", 1, 2)],
            Replicas::Duplicated(120),
        )
        .unwrap();
        assert_eq!(names(&candidates, &picked), ["member4", "member2"]);
    }

    #[test]
    fn upstream_no_constraints_select_all() {
        // "... ignore available resources when scheduling strategy is static weight": the
        // caller ignores the constraints (§7.1); with none, every cluster is selected.
        let clusters = fleet(&UPSTREAM_CLUSTERS);
        let candidates = sorted(&clusters, &UPSTREAM_CLUSTERS);
        let picked = select_clusters(&candidates, &[], Some(120)).unwrap();
        assert_eq!(
            names(&candidates, &picked),
            ["member4", "member2", "member3", "member1"]
        );
    }

    #[test]
    fn upstream_divided_satisfies_available_resources() {
        // "... and satisfy available resources": member4+member2 = 110 < 120, so member2 is
        // replaced by member3 (80).
        let clusters = fleet(&UPSTREAM_CLUSTERS);
        let candidates = sorted(&clusters, &UPSTREAM_CLUSTERS);
        let picked =
            select_clusters(&candidates, &[constraint("cluster", 1, 2)], Some(120)).unwrap();
        assert_eq!(names(&candidates, &picked), ["member4", "member3"]);
    }

    #[test]
    fn upstream_divided_insufficient_resources() {
        // "... and insufficient resources": at most 80+60 of 200.
        let clusters = fleet(&UPSTREAM_CLUSTERS);
        let candidates = sorted(&clusters, &UPSTREAM_CLUSTERS);
        let error =
            select_clusters(&candidates, &[constraint("cluster", 1, 2)], Some(200)).unwrap_err();
        assert_eq!(
            error,
            "the 2 clusters selected (maxGroups 2) have 140 replicas available, 200 are needed"
        );
    }

    #[test]
    fn upstream_more_min_groups_than_clusters() {
        // "... exceeded the number of available clusters."
        let clusters = fleet(&UPSTREAM_CLUSTERS);
        let candidates = sorted(&clusters, &UPSTREAM_CLUSTERS);
        let error =
            select_clusters(&candidates, &[constraint("cluster", 7, 7)], Some(30)).unwrap_err();
        assert_eq!(
            error,
            "spreadConstraints need at least 7 clusters, 4 are feasible"
        );
    }

    #[test]
    fn upstream_cluster_table_with_offline_scores() {
        // The same table re-derived with every score 0: canonical order is by availability,
        // member3 (80), member2 (60), member4 (50), member1 (40).
        let specs: Vec<Spec<'_>> = UPSTREAM_CLUSTERS
            .iter()
            .map(|&(name, region, _, available)| (name, region, 0, available))
            .collect();
        let clusters = fleet(&specs);
        let candidates = sorted(&clusters, &specs);
        let by_cluster = [constraint("cluster", 1, 2)];
        let picked = select_clusters(&candidates, &by_cluster, None).unwrap();
        assert_eq!(names(&candidates, &picked), ["member3", "member2"]);
        let picked = select_clusters(&candidates, &by_cluster, Some(120)).unwrap();
        assert_eq!(names(&candidates, &picked), ["member3", "member2"]);
        let error = select_clusters(&candidates, &by_cluster, Some(200)).unwrap_err();
        assert!(
            error.contains("have 140 replicas available, 200 are needed"),
            "{error}"
        );
    }

    // ---- select_clusters_by_cluster.go: the replacement walk ----

    #[test]
    fn replacement_walk_picks_a_bigger_overflow_cluster() {
        // Offline only the overflow order can put a small cluster before a big one.
        let specs = [("a", "", 0, 5), ("b", "", 0, 3), ("c", "", 0, 20)];
        let clusters = fleet(&specs);
        let mut candidates = unsorted(&clusters, &specs);
        candidates[2].overflow = 1;
        canonical_order(&mut candidates);
        assert_eq!(names(&candidates, &[0, 1, 2]), ["a", "b", "c"]);
        let picked =
            select_clusters(&candidates, &[constraint("cluster", 1, 2)], Some(12)).unwrap();
        assert_eq!(names(&candidates, &picked), ["a", "c"]);
        // Without a shortfall nothing is replaced.
        let picked = select_clusters(&candidates, &[constraint("cluster", 1, 2)], Some(8)).unwrap();
        assert_eq!(names(&candidates, &picked), ["a", "b"]);
    }

    #[test]
    fn replacement_walk_reuses_the_swapped_out_cluster_and_keeps_positions() {
        // Upstream's doc example of selectClustersByAvailableResource: needClusterCount 2,
        // needReplicas 80 ⇒ member1 and member3.
        let specs = [
            ("member1", "", 60, 40),
            ("member2", "", 50, 30),
            ("member3", "", 40, 60),
        ];
        let clusters = fleet(&specs);
        let candidates = sorted(&clusters, &specs);
        let picked =
            select_clusters(&candidates, &[constraint("cluster", 1, 2)], Some(80)).unwrap();
        assert_eq!(names(&candidates, &picked), ["member1", "member3"]);

        // a(1) b(2) | c(5) d(4), 9 needed: b ⇄ c gives 6, then a ⇄ d gives 9. The result keeps
        // the walk's positions, [d, c], not the canonical order.
        let specs = [
            ("a", "", 40, 1),
            ("b", "", 30, 2),
            ("c", "", 20, 5),
            ("d", "", 10, 4),
        ];
        let clusters = fleet(&specs);
        let candidates = sorted(&clusters, &specs);
        let picked = select_clusters(&candidates, &[constraint("cluster", 1, 2)], Some(9)).unwrap();
        assert_eq!(names(&candidates, &picked), ["d", "c"]);
    }

    #[test]
    fn unset_max_groups_selects_nothing() {
        let specs = [("m1", "", 0, 10), ("m2", "", 0, 10)];
        let clusters = fleet(&specs);
        let candidates = sorted(&clusters, &specs);
        for need in [None, Some(0), Some(5)] {
            let error =
                select_clusters(&candidates, &[constraint("cluster", 1, 0)], need).unwrap_err();
            assert_eq!(
                error,
                "maxGroups of the cluster spread constraint is not set, \
                 so Karmada selects no cluster (karmada#4617)"
            );
        }
    }

    #[test]
    fn min_groups_above_feasible_clusters() {
        let specs = [("m1", "", 0, 10)];
        let clusters = fleet(&specs);
        let candidates = sorted(&clusters, &specs);
        let error = select_clusters(&candidates, &[constraint("cluster", 3, 5)], None).unwrap_err();
        assert_eq!(
            error,
            "spreadConstraints need at least 3 clusters, 1 is feasible"
        );
    }

    #[test]
    fn capacity_shortfall() {
        let specs = [("m1", "", 0, 4), ("m2", "", 0, 3), ("m3", "", 0, 2)];
        let clusters = fleet(&specs);
        let candidates = sorted(&clusters, &specs);
        let error =
            select_clusters(&candidates, &[constraint("cluster", 1, 2)], Some(12)).unwrap_err();
        assert_eq!(
            error,
            "the 2 clusters selected (maxGroups 2) have 7 replicas available, 12 are needed"
        );
        // maxGroups above the cluster count takes them all.
        let picked = select_clusters(&candidates, &[constraint("cluster", 1, 9)], Some(9)).unwrap();
        assert_eq!(names(&candidates, &picked), ["m1", "m2", "m3"]);
    }

    // ---- select_clusters.go: dispatch and the webhook defaults ----

    #[test]
    fn defaults_make_a_bare_constraint_a_cluster_constraint() {
        let specs = [("m1", "", 0, 0), ("m2", "", 0, 0), ("m3", "", 0, 0)];
        let clusters = fleet(&specs);
        let candidates = sorted(&clusters, &specs);
        let bare = SpreadConstraint {
            spread_by_field: None,
            spread_by_label: None,
            max_groups: 2,
            min_groups: 0,
        };
        let picked = select_clusters(&candidates, &[bare], None).unwrap();
        assert_eq!(names(&candidates, &picked), ["m1", "m2"]);
        // minGroups 0 is 1: an empty feasible set is too small.
        let bare = SpreadConstraint {
            spread_by_field: Some(String::new()),
            spread_by_label: None,
            max_groups: 2,
            min_groups: 0,
        };
        let error = select_clusters(&[], &[bare], None).unwrap_err();
        assert_eq!(
            error,
            "spreadConstraints need at least 1 cluster, 0 are feasible"
        );
    }

    #[test]
    fn label_zone_and_provider_constraints_cannot_select() {
        let specs = [("m1", "R1", 0, 0)];
        let clusters = fleet(&specs);
        let candidates = sorted(&clusters, &specs);
        let by_label = SpreadConstraint {
            spread_by_field: None,
            spread_by_label: Some("team".to_string()),
            max_groups: 1,
            min_groups: 1,
        };
        for constraints in [
            vec![by_label],
            vec![constraint("zone", 1, 1)],
            vec![constraint("provider", 1, 1), constraint("zone", 1, 1)],
        ] {
            let error = select_clusters(&candidates, &constraints, None).unwrap_err();
            assert!(
                error.contains("just support cluster and region spread constraint"),
                "{error}"
            );
        }
        // Next to a cluster constraint, zone only filters (§4.4) and selection is by cluster.
        let picked = select_clusters(
            &candidates,
            &[constraint("zone", 1, 1), constraint("cluster", 1, 1)],
            None,
        )
        .unwrap();
        assert_eq!(names(&candidates, &picked), ["m1"]);
    }

    // ---- select_clusters_by_region_test.go Test_selectBestClustersByRegion ----

    /// Groups the candidates by region and injects the table's region scores.
    fn scored_regions<'c>(candidates: &[Candidate<'c>], scores: &[(&str, i64)]) -> Vec<Region<'c>> {
        let mut regions = group_by_region(candidates);
        for region in &mut regions {
            region.score = scores
                .iter()
                .find(|(name, _)| *name == region.name)
                .map_or(0, |&(_, score)| score);
        }
        regions
    }

    const TWO_REGIONS: [Spec<'static>; 5] = [
        ("member1", "R1", 100, 40),
        ("member2", "R1", 80, 40),
        ("member3", "R2", 80, 40),
        ("member4", "R2", 80, 40),
        ("member5", "R2", 60, 40),
    ];

    fn by_region_upstream(
        specs: &[Spec<'_>],
        scores: &[(&str, i64)],
        region: Limits,
        cluster: Limits,
    ) -> Result<Vec<String>, String> {
        let clusters = fleet(specs);
        let candidates = sorted(&clusters, specs);
        let regions = scored_regions(&candidates, scores);
        select_in_regions(&candidates, &regions, region, cluster).map(|picked| {
            names(&candidates, &picked)
                .into_iter()
                .map(str::to_string)
                .collect()
        })
    }

    #[test]
    fn upstream_region_with_the_higher_score() {
        let picked = by_region_upstream(
            &TWO_REGIONS,
            &[("R1", 100), ("R2", 80)],
            limits(1, 1),
            limits(2, 2),
        )
        .unwrap();
        assert_eq!(picked, ["member1", "member2"]);
    }

    #[test]
    fn upstream_region_with_enough_clusters() {
        let picked = by_region_upstream(
            &TWO_REGIONS,
            &[("R1", 100), ("R2", 80)],
            limits(1, 1),
            limits(3, 3),
        )
        .unwrap();
        assert_eq!(picked, ["member3", "member4", "member5"]);
    }

    #[test]
    fn upstream_regions_with_enough_clusters_and_higher_score() {
        let specs = [
            ("member1", "R1", 90, 40),
            ("member2", "R2", 70, 40),
            ("member3", "R2", 60, 40),
            ("member4", "R2", 30, 40),
            ("member5", "R3", 80, 40),
            ("member6", "R3", 50, 60),
            ("member7", "R4", 50, 50),
            ("member8", "R4", 40, 50),
            ("member9", "R4", 10, 50),
            ("member10", "R4", 0, 50),
        ];
        let picked = by_region_upstream(
            &specs,
            &[("R1", 90), ("R2", 70), ("R3", 80), ("R4", 50)],
            limits(2, 2),
            limits(4, 5),
        )
        .unwrap();
        assert_eq!(picked, ["member1", "member2", "member3", "member4"]);
    }

    #[test]
    fn upstream_more_than_min_groups_regions() {
        let specs = [
            ("member1", "R1", 70, 40),
            ("member2", "R2", 40, 40),
            ("member3", "R2", 40, 40),
            ("member4", "R2", 40, 40),
            ("member5", "R3", 60, 40),
            ("member6", "R3", 50, 60),
            ("member7", "R4", 70, 100),
            ("member8", "R5", 50, 50),
        ];
        let picked = by_region_upstream(
            &specs,
            &[("R1", 70), ("R2", 40), ("R3", 60), ("R4", 70), ("R5", 50)],
            limits(1, 3),
            limits(6, 8),
        )
        .unwrap();
        assert_eq!(
            picked,
            [
                "member1", "member5", "member2", "member6", "member3", "member4"
            ]
        );
    }

    #[test]
    fn upstream_not_enough_regions() {
        let error = by_region_upstream(
            &TWO_REGIONS,
            &[("R1", 100), ("R2", 80)],
            limits(3, 3),
            limits(3, 3),
        )
        .unwrap_err();
        assert_eq!(
            error,
            "spreadConstraints need at least 3 regions, the feasible clusters are in 2 regions"
        );
    }

    #[test]
    fn upstream_not_enough_clusters() {
        let error = by_region_upstream(
            &TWO_REGIONS,
            &[("R1", 100), ("R2", 80)],
            limits(1, 1),
            limits(4, 4),
        )
        .unwrap_err();
        assert_eq!(
            error,
            "spreadConstraints need at least 4 clusters from 1 region, \
             and no such set of the 2 feasible regions has them"
        );
    }

    #[test]
    fn upstream_no_more_regions_to_replace() {
        let specs = [("member1", "R1", 100, 40), ("member2", "R1", 80, 20)];
        let error =
            by_region_upstream(&specs, &[("R1", 100)], limits(1, 1), limits(3, 4)).unwrap_err();
        assert!(
            error.starts_with("spreadConstraints need at least 3 clusters"),
            "{error}"
        );
    }

    // ---- the spec's worked check and region scoring end to end ----

    /// Spec §14 "Region spread": Duplicated, no capacity data (every estimate 0),
    /// R1={m1,m2}, R2={m3,m4,m5}, region 1..1, cluster 2..2 ⇒ m3, m4.
    #[test]
    fn spec_region_spread_example() {
        let specs = [
            ("m1", "R1", 0, 0),
            ("m2", "R1", 0, 0),
            ("m3", "R2", 0, 0),
            ("m4", "R2", 0, 0),
            ("m5", "R2", 0, 0),
        ];
        let clusters = fleet(&specs);
        let candidates = sorted(&clusters, &specs);
        let constraints = [constraint("region", 1, 1), constraint("cluster", 2, 2)];
        // Both regions score 0 (no cluster has room for the 3 replicas): R2 has more clusters.
        let picked =
            select_clusters_for(&candidates, &constraints, Replicas::Duplicated(3)).unwrap();
        assert_eq!(names(&candidates, &picked), ["m3", "m4"]);
        // Scored as 0 replicas (every cluster fits) R2 still wins, 3000 to 2000.
        let picked = select_clusters(&candidates, &constraints, None).unwrap();
        assert_eq!(names(&candidates, &picked), ["m3", "m4"]);
    }

    #[test]
    fn divided_region_score_prefers_capacity_over_cluster_count() {
        // R1 has one cluster with room for all 8 replicas; R2 two clusters with 6 together.
        let specs = [("a", "R1", 0, 10), ("b", "R2", 0, 3), ("c", "R2", 0, 3)];
        let clusters = fleet(&specs);
        let candidates = sorted(&clusters, &specs);
        let constraints = [constraint("region", 1, 1), constraint("cluster", 1, 2)];
        let picked = select_clusters(&candidates, &constraints, Some(8)).unwrap();
        assert_eq!(names(&candidates, &picked), ["a"]);
        // Duplicated counts clusters that fit 8: R1 1, R2 0.
        let picked =
            select_clusters_for(&candidates, &constraints, Replicas::Duplicated(8)).unwrap();
        assert_eq!(names(&candidates, &picked), ["a"]);
        // Duplicated with 2 replicas: every cluster fits, R2 (2 clusters) wins.
        let picked =
            select_clusters_for(&candidates, &constraints, Replicas::Duplicated(2)).unwrap();
        assert_eq!(names(&candidates, &picked), ["b", "c"]);
    }

    #[test]
    fn region_fill_lists_region_heads_first_then_the_pool() {
        // Two regions chosen; heads x1 (R1) and y1 (R2) first, then the pool in canonical
        // order (y2 has more room than x2), needReplicas never checked.
        let specs = [
            ("x1", "R1", 0, 9),
            ("x2", "R1", 0, 1),
            ("y1", "R2", 0, 8),
            ("y2", "R2", 0, 7),
            ("z", "", 0, 100),
        ];
        let clusters = fleet(&specs);
        let candidates = sorted(&clusters, &specs);
        let constraints = [constraint("region", 2, 2), constraint("cluster", 1, 3)];
        let picked = select_clusters(&candidates, &constraints, Some(1000)).unwrap();
        let picked = names(&candidates, &picked);
        // Both regions score 1000·⌈1000/2⌉ short: R1 10·1000, R2 15·1000; the path is sorted
        // by score, so R2's head comes first.
        assert_eq!(picked, ["y1", "x1", "y2"]);
    }

    #[test]
    fn region_without_cluster_max_groups_takes_one_cluster_per_region() {
        let specs = [("x1", "R1", 0, 0), ("x2", "R1", 0, 0), ("y1", "R2", 0, 0)];
        let clusters = fleet(&specs);
        let candidates = sorted(&clusters, &specs);
        let constraints = [constraint("region", 2, 2), constraint("cluster", 1, 0)];
        let picked = select_clusters(&candidates, &constraints, None).unwrap();
        assert_eq!(names(&candidates, &picked), ["x1", "y1"]);
        // No cluster constraint at all (validation forbids it) behaves the same.
        let picked = select_clusters(&candidates, &[constraint("region", 2, 2)], None).unwrap();
        assert_eq!(names(&candidates, &picked), ["x1", "y1"]);
    }

    #[test]
    fn region_without_max_groups_selects_no_region() {
        let specs = [("x1", "R1", 0, 0), ("y1", "R2", 0, 0)];
        let clusters = fleet(&specs);
        let candidates = sorted(&clusters, &specs);
        let constraints = [constraint("region", 1, 0), constraint("cluster", 1, 2)];
        let error = select_clusters(&candidates, &constraints, None).unwrap_err();
        assert_eq!(
            error,
            "maxGroups of the region spread constraint is not set, so Karmada selects no region"
        );
    }

    #[test]
    fn clusters_without_region_are_left_out_of_region_selection() {
        let specs = [("x1", "R1", 0, 0), ("none", "", 0, 0)];
        let clusters = fleet(&specs);
        let candidates = sorted(&clusters, &specs);
        let constraints = [constraint("region", 1, 1), constraint("cluster", 1, 5)];
        let picked = select_clusters(&candidates, &constraints, None).unwrap();
        assert_eq!(names(&candidates, &picked), ["x1"]);
        let error = select_clusters(
            &candidates,
            &[constraint("region", 2, 2), constraint("cluster", 1, 5)],
            None,
        )
        .unwrap_err();
        assert_eq!(
            error,
            "spreadConstraints need at least 2 regions, the feasible clusters are in 1 region"
        );
    }

    // ---- select_groups_test.go TestSelectGroups ----

    fn groups<'c>(table: &[(&'c str, i64, i64)]) -> Vec<Group<'c>> {
        table
            .iter()
            .map(|&(name, value, weight)| Group {
                name,
                value,
                weight,
            })
            .collect()
    }

    #[test]
    fn upstream_select_groups_without_result() {
        // "empty groups"
        assert!(select_groups(Vec::new(), 2, 3, 1).is_empty());
        // "no enough groups"
        assert!(select_groups(groups(&[("R1", 1, 80)]), 2, 3, 1).is_empty());
        // "no enough value"
        assert!(select_groups(groups(&[("R1", 1, 80), ("R2", 2, 30)]), 2, 3, 4).is_empty());
    }

    #[test]
    fn upstream_select_one_group() {
        assert_eq!(select_groups(groups(&[("R1", 1, 80)]), 1, 3, 1), ["R1"]);
    }

    #[test]
    fn upstream_prioritize_one_path() {
        let table = [
            ("R1", 1, 80),
            ("R3", 1, 80),
            ("R2", 1, 60),
            ("R5", 2, 60),
            ("R4", 5, 50),
            ("R6", 3, 50),
        ];
        assert_eq!(select_groups(groups(&table), 1, 3, 10), ["R5", "R4", "R6"]);
    }

    #[test]
    fn upstream_select_groups_with_less_total_number() {
        // [R1, R2, R4] has the highest weight and value, but its prefix [R1, R2] also
        // qualifies, so the shorter one wins.
        let table = [
            ("R1", 1, 80),
            ("R2", 4, 40),
            ("R3", 1, 30),
            ("R4", 3, 30),
            ("R5", 3, 20),
            ("R6", 5, 10),
        ];
        assert_eq!(select_groups(groups(&table), 2, 6, 5), ["R1", "R2"]);
    }

    #[test]
    fn upstream_select_groups_with_the_highest_score() {
        let table = [
            ("R1", 1, 60),
            ("R2", 1, 50),
            ("R3", 1, 40),
            ("R4", 3, 30),
            ("R5", 3, 20),
            ("R6", 3, 10),
        ];
        assert_eq!(select_groups(groups(&table), 1, 3, 6), ["R1", "R4", "R5"]);
    }

    #[test]
    fn upstream_select_groups_that_are_chosen_earlier() {
        // [R1, R4] and [R2, R3] tie on weight 90 and value 5; [R1, R4] is found first.
        let table = [("R1", 1, 60), ("R2", 2, 50), ("R3", 3, 40), ("R4", 4, 30)];
        assert_eq!(select_groups(groups(&table), 1, 2, 5), ["R1", "R4"]);
    }

    #[test]
    fn upstream_select_groups_with_greater_value() {
        // [R4, R2] and [R3, R1] tie on weight 90; [R3, R1] has 6 clusters to 5.
        let table = [("R4", 1, 60), ("R3", 3, 50), ("R1", 3, 40), ("R2", 4, 30)];
        assert_eq!(select_groups(groups(&table), 1, 2, 5), ["R3", "R1"]);
    }

    #[test]
    fn select_groups_needing_every_group() {
        // #groups == minGroups: the DFS does not backtrack; only all groups can qualify.
        let table = [("R1", 1, 0), ("R2", 2, 0), ("R3", 1, 0)];
        assert_eq!(select_groups(groups(&table), 3, 3, 4), ["R1", "R2", "R3"]);
        assert!(select_groups(groups(&table), 3, 3, 5).is_empty());
        assert!(select_groups(groups(&table), 3, 2, 1).is_empty());
    }

    #[test]
    fn dfs_numbers_paths_in_discovery_order() {
        // target 7 over values [2, 3, 6, 7], min 2, max 2: the doc comment of
        // findFeasiblePaths lists [2,6] [2,7] [3,6] [3,7] [6,7].
        let table = [("a", 2, 0), ("b", 3, 0), ("c", 6, 0), ("d", 7, 0)];
        let mut search = Search {
            groups: &groups(&table),
            min: 2,
            max: 2,
            target: 7,
            current: Vec::new(),
            paths: Vec::new(),
        };
        search.visit(0, 0);
        let found: Vec<(usize, Vec<&str>)> = search
            .paths
            .iter()
            .map(|path| {
                (
                    path.id,
                    path.groups.iter().map(|group| group.name).collect(),
                )
            })
            .collect();
        assert_eq!(
            found,
            [
                (1, vec!["a", "c"]),
                (2, vec!["a", "d"]),
                (3, vec!["b", "c"]),
                (4, vec!["b", "d"]),
                (5, vec!["c", "d"]),
            ]
        );
        // All weights 0: the most clusters wins, [c, d].
        let best = prioritize(search.paths).unwrap();
        assert_eq!(best.id, 5);
    }

    // ---- group_clusters_test.go ----

    /// `generateClusterScore` with every cluster's availability 100.
    const SCORED: [Spec<'static>; 4] = [
        ("member1", "R1", 20, 100),
        ("member2", "R1", 40, 100),
        ("member3", "R1", 30, 100),
        ("member4", "R2", 60, 100),
    ];

    #[test]
    fn upstream_group_clusters_with_score() {
        // Test_GroupClustersWithScore: clusters sorted by score, two regions.
        let clusters = fleet(&SCORED);
        let candidates = sorted(&clusters, &SCORED);
        assert_eq!(
            names(&candidates, &[0, 1, 2, 3]),
            ["member4", "member2", "member3", "member1"]
        );
        let regions = group_by_region(&candidates);
        assert_eq!(regions.len(), 2);
        assert_eq!(
            names(&candidates, &regions[0].members),
            ["member2", "member3", "member1"]
        );
        // Offline, scores 0: the tie is broken by name.
        let specs: Vec<Spec<'_>> = SCORED.iter().map(|&(n, r, _, a)| (n, r, 0, a)).collect();
        let clusters = fleet(&specs);
        let candidates = sorted(&clusters, &specs);
        assert_eq!(
            names(&candidates, &[0, 1, 2, 3]),
            ["member1", "member2", "member3", "member4"]
        );
    }

    /// `generateClusterScores`: member1..n with the given scores and availabilities, in order.
    fn score_of(scores: [i64; 5], available: [i64; 5], replicas: Replicas, region_min: i64) -> i64 {
        let specs: Vec<(String, i64, i64)> = (0..5)
            .map(|i| (format!("member{}", i + 1), scores[i], available[i]))
            .collect();
        let specs: Vec<Spec<'_>> = specs
            .iter()
            .map(|(name, score, available)| (name.as_str(), "R", *score, *available))
            .collect();
        let clusters = fleet(&specs);
        let candidates = unsorted(&clusters, &specs);
        region_score(&candidates, replicas, region_min, 0)
    }

    #[test]
    fn upstream_calc_group_score() {
        // Test_CalcGroupScore: (clusters1, clusters2, replicas, minGroups, group1 wins).
        let cases = [
            // 1: more clusters fit all 20 replicas.
            (
                ([100, 100, 0, 0, 0], [30; 5]),
                ([100; 5], [30, 30, 30, 10, 10]),
                Replicas::Duplicated(20),
                0,
                true,
            ),
            // 2: as many fit, clusters2 scores higher.
            (
                ([100, 100, 0, 0, 0], [30, 30, 30, 10, 10]),
                ([100; 5], [30, 30, 30, 10, 10]),
                Replicas::Duplicated(20),
                0,
                false,
            ),
            // 3 (aggregated): clusters1 reaches ⌈100/2⌉, clusters2 does not.
            (
                ([100, 100, 0, 0, 0], [30, 30, 30, 10, 10]),
                ([100; 5], [10, 10, 10, 5, 5]),
                Replicas::Divided(100),
                2,
                true,
            ),
            // 4 (dynamic weight): clusters1 has more room.
            (
                ([100, 100, 0, 0, 0], [10, 10, 10, 10, 5]),
                ([100; 5], [10, 10, 10, 5, 5]),
                Replicas::Divided(100),
                2,
                true,
            ),
            // 5 (static weight, scored as Divided): same room, clusters2 scores higher.
            (
                ([100, 100, 0, 0, 0], [10, 10, 10, 5, 5]),
                ([100; 5], [10, 10, 10, 5, 5]),
                Replicas::Divided(100),
                2,
                false,
            ),
            // 6 (aggregated): both reach 50, clusters2 scores higher.
            (
                ([0; 5], [100; 5]),
                ([100; 5], [50; 5]),
                Replicas::Divided(100),
                2,
                false,
            ),
        ];
        for (id, ((s1, a1), (s2, a2), replicas, min, group1_wins)) in cases.into_iter().enumerate()
        {
            let score1 = score_of(s1, a1, replicas, min);
            let score2 = score_of(s2, a2, replicas, min);
            assert_eq!(
                score1 >= score2,
                group1_wins,
                "case {}: {score1} vs {score2}",
                id + 1
            );
        }
        // The exact values of the doc comments' arithmetic for case 3.
        assert_eq!(
            score_of(
                [100, 100, 0, 0, 0],
                [30, 30, 30, 10, 10],
                Replicas::Divided(100),
                2
            ),
            50_100
        );
        assert_eq!(
            score_of([100; 5], [10, 10, 10, 5, 5], Replicas::Divided(100), 2),
            40_100
        );
    }

    #[test]
    fn upstream_calc_group_score_for_duplicate() {
        // Test_CalcGroupScoreForDuplicate: no clusters, and no cluster with room, score 0.
        assert_eq!(region_score(&[], Replicas::Duplicated(10), 1, 1), 0);
        let specs = [("member1", "R", 50, 5), ("member2", "R", 50, 5)];
        let clusters = fleet(&specs);
        let candidates = unsorted(&clusters, &specs);
        assert_eq!(region_score(&candidates, Replicas::Duplicated(10), 1, 1), 0);
        // calcGroupScoreForDuplicate doc example: 2 of 5 fit 50 ⇒ 2·1000 + 100.
        let specs = [
            ("m1", "R", 100, 60),
            ("m2", "R", 100, 70),
            ("m3", "R", 100, 40),
            ("m4", "R", 100, 30),
            ("m5", "R", 100, 10),
        ];
        let clusters = fleet(&specs);
        let candidates = unsorted(&clusters, &specs);
        assert_eq!(
            region_score(&candidates, Replicas::Duplicated(50), 1, 1),
            2_100
        );
    }

    #[test]
    fn divided_score_takes_at_least_the_larger_min_groups() {
        // ⌈9/2⌉ = 5; cluster minGroups 3 makes the walk take 3 clusters even though the first
        // already has 5.
        let specs = [("a", "R", 90, 5), ("b", "R", 60, 1), ("c", "R", 0, 1)];
        let clusters = fleet(&specs);
        let candidates = unsorted(&clusters, &specs);
        assert_eq!(
            region_score(&candidates, Replicas::Divided(9), 2, 3),
            5_000 + 150 / 3
        );
        // With cluster minGroups 1 the region's own minGroups 2 still takes two clusters.
        assert_eq!(
            region_score(&candidates, Replicas::Divided(9), 2, 1),
            5_000 + 150 / 2
        );
        // Short of the target: the sum of all, averaged over all.
        assert_eq!(
            region_score(&candidates, Replicas::Divided(20), 1, 1),
            7_000 + 150 / 3
        );
    }

    // ---- util_test.go Test_sortClusters ----

    #[test]
    fn upstream_sort_clusters() {
        let cases: [([Spec<'static>; 2], [&str; 2]); 3] = [
            // "different scores"
            ([("b", "", 2, 0), ("a", "", 1, 0)], ["b", "a"]),
            // "same score, default to sort by name" (a also has more room)
            ([("b", "", 1, 5), ("a", "", 1, 10)], ["a", "b"]),
            // "same score, sort by availableReplicas"
            ([("a", "", 1, 5), ("b", "", 1, 10)], ["b", "a"]),
        ];
        for (specs, want) in cases {
            let clusters = fleet(&specs);
            let candidates = sorted(&clusters, &specs);
            assert_eq!(names(&candidates, &[0, 1]), want);
        }
        // Overflow order comes first.
        let specs = [("a", "", 100, 100), ("b", "", 0, 0)];
        let clusters = fleet(&specs);
        let mut candidates = unsorted(&clusters, &specs);
        candidates[0].overflow = 2;
        canonical_order(&mut candidates);
        assert_eq!(names(&candidates, &[0, 1]), ["b", "a"]);
    }
}
