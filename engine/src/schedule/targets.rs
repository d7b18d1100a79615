//! A binding's target clusters as a whole fleet keeps them between placement and rendering.
//! Ten thousand templates on two hundred clusters are two million targets: kept as
//! [`TargetCluster`]s (a name and two counts each) they took 200 MiB. Here a target is its
//! cluster's position in the inventory, and the counts are kept once when every cluster has
//! the same — every non-workload, every Duplicated workload — so a target costs 4 bytes.

use std::collections::BTreeMap;

/// One cluster a template goes to. `replicas` is `None` for non-workloads, which are copied
/// unchanged; `completions` is set for a Divided Job whose completions are split too.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct TargetCluster {
    /// The cluster.
    pub name: String,
    /// Its replicas; `None` for a non-workload.
    pub replicas: Option<i64>,
    /// Its completions, for a Divided Job.
    pub completions: Option<i64>,
}

/// One target cluster: its position in the inventory and what the scheduler gave it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Target {
    pub cluster: usize,
    pub replicas: Option<i64>,
    pub completions: Option<i64>,
}

/// Target clusters in the order they were given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Targets {
    clusters: Vec<u32>,
    /// Replicas and completions: none when every target has neither, one when every target
    /// has the same, else one per cluster.
    counts: Vec<(Option<i64>, Option<i64>)>,
}

impl Targets {
    /// The scheduler's targets, each cluster found by name in `cluster_index`.
    pub(crate) fn from_scheduled(
        scheduled: &[TargetCluster],
        cluster_index: &BTreeMap<&str, usize>,
    ) -> Targets {
        scheduled
            .iter()
            .map(|target| Target {
                cluster: cluster_index[target.name.as_str()],
                replicas: target.replicas,
                completions: target.completions,
            })
            .collect()
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.clusters.len()
    }

    pub fn is_empty(&self) -> bool {
        self.clusters.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = Target> + '_ {
        self.clusters.iter().enumerate().map(|(index, &cluster)| {
            let (replicas, completions) = match self.counts.len() {
                0 => (None, None),
                1 => self.counts[0],
                _ => self.counts[index],
            };
            Target {
                cluster: cluster as usize,
                replicas,
                completions,
            }
        })
    }

    /// The clusters' positions, in order.
    pub fn clusters(&self) -> impl Iterator<Item = usize> + '_ {
        self.clusters.iter().map(|&cluster| cluster as usize)
    }

    /// The targets for which `keep` holds.
    pub fn filtered(&self, mut keep: impl FnMut(Target) -> bool) -> Targets {
        self.iter().filter(|&target| keep(target)).collect()
    }
}

impl FromIterator<Target> for Targets {
    fn from_iter<I: IntoIterator<Item = Target>>(targets: I) -> Targets {
        let mut clusters = Vec::new();
        let mut counts: Vec<(Option<i64>, Option<i64>)> = Vec::new();
        let mut uniform = true;
        for (index, target) in targets.into_iter().enumerate() {
            clusters.push(u32::try_from(target.cluster).expect("fewer than 2^32 clusters"));
            let count = (target.replicas, target.completions);
            if uniform && index > 0 && counts[0] != count {
                // From here on one count per cluster: the first ones were all the same.
                uniform = false;
                counts = vec![counts[0]; index];
            }
            if index == 0 || !uniform {
                counts.push(count);
            }
        }
        if uniform && counts.first() == Some(&(None, None)) {
            counts.clear();
        }
        clusters.shrink_to_fit();
        counts.shrink_to_fit();
        Targets { clusters, counts }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target(cluster: usize, replicas: Option<i64>) -> Target {
        Target {
            cluster,
            replicas,
            completions: None,
        }
    }

    #[test]
    fn targets_come_back_as_they_went_in_whatever_their_counts() {
        let cases = [
            vec![],
            vec![target(0, None), target(3, None)],
            vec![target(2, Some(5)), target(0, Some(5)), target(1, Some(5))],
            vec![target(2, Some(5)), target(0, Some(5)), target(1, Some(2))],
            vec![target(0, Some(1)), target(1, None)],
            vec![target(4, None), target(1, Some(1))],
            vec![Target {
                cluster: 7,
                replicas: Some(3),
                completions: Some(9),
            }],
        ];
        for case in cases {
            let targets: Targets = case.iter().copied().collect();
            assert_eq!(targets.iter().collect::<Vec<_>>(), case);
            assert_eq!(targets.len(), case.len());
        }
    }

    #[test]
    fn counts_all_alike_are_kept_once() {
        let duplicated: Targets = (0..200).map(|cluster| target(cluster, Some(3))).collect();
        assert_eq!(duplicated.counts.len(), 1);
        let plain: Targets = (0..200).map(|cluster| target(cluster, None)).collect();
        assert!(plain.counts.is_empty());
        let divided: Targets = (0..3)
            .map(|cluster| target(cluster, Some(cluster as i64)))
            .collect();
        assert_eq!(divided.counts.len(), 3);
    }
}
