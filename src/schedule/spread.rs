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
//! every chosen region before the clusters filled in from the pool. Replica division sorts
//! with Go's `sort.Sort`, which is stable for short lists, so this order can break ties.

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
pub struct Candidate<'a> {
    pub cluster: &'a Cluster,
    /// `AvailableReplicas`: the estimate of §6 (plus replicas already there, 0 when fresh).
    pub available: i64,
    /// The cluster's score; always 0 offline (§5), kept so upstream tables stay expressible.
    pub score: i64,
    /// `OverflowOrder`: 0 for the primary cluster affinity, k for the k-th overflow affinity.
    pub overflow: usize,
}

impl<'a> Candidate<'a> {
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
pub fn canonical_order(candidates: &mut [Candidate<'_>]) {
    candidates.sort_by(compare_canonical);
}

fn compare_canonical(a: &Candidate<'_>, b: &Candidate<'_>) -> Ordering {
    a.overflow
        .cmp(&b.overflow)
        .then_with(|| b.score.cmp(&a.score))
        .then_with(|| b.available.cmp(&a.available))
        .then_with(|| a.name().cmp(b.name()))
}

/// Selects clusters under spread constraints. `need_replicas` is `None` for Duplicated
/// (capacity ignored) and `Some(spec.replicas)` otherwise.
///
/// `None` scores regions as if the binding had 0 replicas, so every cluster counts as having
/// room: right for non-workloads and for clusters without capacity data, but a Duplicated
/// workload whose clusters have unequal room should call [`select_clusters_for`] with its
/// replica count, because Karmada's region score (`calcGroupScoreForDuplicate`) uses it.
pub fn select_clusters(
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
pub fn select_clusters_for(
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
            "the {} selected (maxGroups {}) have {} available, {} needed",
            count(to_i64(take), "cluster"),
            cluster.max,
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
