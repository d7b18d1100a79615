//! What a change does to the rendered fleet, object by object: per member cluster, the objects
//! added, removed and changed, identified by kind, namespace and name (not by file, so a moved
//! file is not a change). Pure; the reports are in `report::diff`.

mod against;
mod change;
pub mod danger;
pub mod describe;
pub mod ignore;
mod immutable;
mod objects;
pub mod policy;
pub mod streamed;
mod touched;

pub use against::{CHUNK, Comparison, RenderedTree, against_base, against_tree};
pub(crate) use change::parse_object;
pub use change::{
    ChangeKind, Finding, FindingLevel, FleetDiff, GroupsFrom, Hidden, ObjectChange, Provenance,
    Touched, TouchedGroup,
};
use change::{spec_replicas, whole_number};
pub use objects::{FleetObjects, diff};

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

#[cfg(test)]
use crate::manifest::HEADER;
use crate::object::ObjectKey;

/// Changes that are the same on several clusters, shown once: the same object, the same kind
/// of change and the same lines changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChangeGroup<'d> {
    /// The change on the first of `clusters`.
    pub change: &'d ObjectChange,
    /// The diff's hunks, without the header that names a cluster.
    pub hunks: String,
    /// Sorted.
    pub clusters: Vec<&'d str>,
    /// When the change is the same on these clusters but for `spec.replicas`, each cluster's
    /// replicas before and after (the hunks then show `replicas: …`); empty otherwise.
    pub replicas: Vec<ReplicasOn<'d>>,
}

/// An object whose only change on every cluster it changed on is `spec.replicas`: replicas
/// moved between clusters (a Divided rebalance) or scaled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplicaMove<'d> {
    /// The object whose replicas moved.
    pub key: &'d ObjectKey,
    /// Per cluster, sorted.
    pub clusters: Vec<ReplicasOn<'d>>,
    /// The replicas on every cluster the object is on, before and after, changed or not.
    pub total: (i64, i64),
}

/// A cluster with its replicas before and after (`None` where the field is absent).
pub type ReplicasOn<'d> = (&'d str, Option<i64>, Option<i64>);

/// A fleet diff as reviewers read it: whole clusters that come and go, replica moves, then
/// every other change once with the clusters it happens on, largest blast radius first.
#[derive(Debug, Clone, Default)]
pub struct GroupedDiff<'d> {
    /// Each new and removed cluster with how many objects it has (had).
    pub new_clusters: Vec<(&'d str, usize)>,
    /// Each cluster the head no longer has, with how many objects it had.
    pub removed_clusters: Vec<(&'d str, usize)>,
    /// Objects whose only change is their replicas.
    pub replica_moves: Vec<ReplicaMove<'d>>,
    /// Every other change, once with its clusters, largest blast radius first.
    pub groups: Vec<ChangeGroup<'d>>,
}

impl FleetDiff {
    /// Whether nothing changed on any cluster.
    pub fn is_empty(&self) -> bool {
        self.clusters.values().all(Vec::is_empty)
    }

    /// The changes grouped (see [`GroupedDiff`]).
    pub fn grouped(&self) -> GroupedDiff<'_> {
        let mut grouped = GroupedDiff::default();
        let whole_cluster = |cluster: &String| {
            self.clusters_added.contains(cluster) || self.clusters_removed.contains(cluster)
        };
        let mut changed_on: BTreeMap<&ObjectKey, Vec<(&str, &ObjectChange)>> = BTreeMap::new();
        for (cluster, changes) in &self.clusters {
            if self.clusters_added.contains(cluster) {
                grouped.new_clusters.push((cluster, changes.len()));
            } else if self.clusters_removed.contains(cluster) {
                grouped.removed_clusters.push((cluster, changes.len()));
            } else {
                for change in changes {
                    if change.kind == ChangeKind::Changed {
                        changed_on
                            .entry(&change.key)
                            .or_default()
                            .push((cluster, change));
                    }
                }
            }
        }
        // Objects whose every change is to their replicas.
        let mut moved: BTreeSet<&ObjectKey> = BTreeSet::new();
        for (key, changes) in &changed_on {
            let replicas: Option<Vec<ReplicasOn<'_>>> = changes
                .iter()
                .map(|(cluster, change)| {
                    replicas_only(&change.before, &change.after)
                        .map(|(before, after)| (*cluster, before, after))
                })
                .collect();
            if let Some(clusters) = replicas {
                moved.insert(key);
                let summed = |pick: fn(&ReplicasOn<'_>) -> Option<i64>| {
                    clusters.iter().filter_map(pick).sum::<i64>()
                };
                let total = self
                    .replica_totals
                    .get(*key)
                    .copied()
                    .unwrap_or_else(|| (summed(|on| on.1), summed(|on| on.2)));
                grouped.replica_moves.push(ReplicaMove {
                    key,
                    clusters,
                    total,
                });
            }
        }
        // A change is the same on several clusters when its lines are, `spec.replicas` aside:
        // a Divided workload's clusters differ there and nowhere else.
        type GroupKey<'k> = (ChangeKind, &'k ObjectKey, String);
        type Members<'k> = Vec<(&'k str, &'k ObjectChange)>;
        let mut groups: BTreeMap<GroupKey<'_>, Members<'_>> = BTreeMap::new();
        for (cluster, changes) in &self.clusters {
            if whole_cluster(cluster) {
                continue;
            }
            for change in changes {
                if change.kind == ChangeKind::Changed && moved.contains(&change.key) {
                    continue;
                }
                groups
                    .entry((change.kind, &change.key, change.hunks_without_replicas()))
                    .or_default()
                    .push((cluster, change));
            }
        }
        grouped.groups = groups
            .into_iter()
            .map(|((_, _, without_replicas), members)| {
                let replicas: Vec<ReplicasOn<'_>> = members
                    .iter()
                    .map(|(cluster, change)| {
                        (
                            *cluster,
                            spec_replicas(&change.before),
                            spec_replicas(&change.after),
                        )
                    })
                    .collect();
                let uniform = replicas
                    .windows(2)
                    .all(|pair| pair[0].1 == pair[1].1 && pair[0].2 == pair[1].2);
                ChangeGroup {
                    change: members[0].1,
                    hunks: if uniform {
                        members[0].1.hunks()
                    } else {
                        without_replicas
                    },
                    clusters: members.iter().map(|(cluster, _)| *cluster).collect(),
                    replicas: if uniform { Vec::new() } else { replicas },
                }
            })
            .collect();
        // Largest blast radius first; a stable sort keeps object order among equals.
        grouped
            .groups
            .sort_by_key(|group| std::cmp::Reverse(group.clusters.len()));
        grouped
    }

    /// (added, changed, removed) of one cluster.
    pub fn counts(changes: &[ObjectChange]) -> (usize, usize, usize) {
        let count = |kind| changes.iter().filter(|change| change.kind == kind).count();
        (
            count(ChangeKind::Added),
            count(ChangeKind::Changed),
            count(ChangeKind::Removed),
        )
    }
}

/// The replicas before and after, when two manifests differ in `spec.replicas` alone.
fn replicas_only(before: &str, after: &str) -> Option<(Option<i64>, Option<i64>)> {
    let (mut before, mut after) = (parse_object(before)?, parse_object(after)?);
    let take = |object: &mut Value| {
        object
            .get_mut("spec")
            .and_then(Value::as_object_mut)
            .and_then(|spec| spec.remove("replicas"))
    };
    let (old, new) = (take(&mut before), take(&mut after));
    let (old, new) = (
        old.as_ref().and_then(whole_number),
        new.as_ref().and_then(whole_number),
    );
    (before == after && old != new).then_some((old, new))
}

/// A fleet from (cluster, manifest) pairs, each manifest its own file: for the tests of the
/// diff's rules.
#[cfg(test)]
pub(super) fn fleet_of(objects: &[(&str, &str)]) -> FleetObjects {
    let files: BTreeMap<String, std::sync::Arc<str>> = objects
        .iter()
        .enumerate()
        .map(|(at, (cluster, body))| {
            let text = format!("{HEADER}{body}");
            (format!("{cluster}/o{at}.yaml"), text.into())
        })
        .collect();
    FleetObjects::from_files(files).unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fleet(objects: &[(&str, &str, &str)]) -> FleetObjects {
        let files: BTreeMap<String, std::sync::Arc<str>> = objects
            .iter()
            .map(|(cluster, name, body)| {
                let text = format!("{HEADER}{body}");
                (format!("{cluster}/default/{name}.yaml"), text.into())
            })
            .collect();
        FleetObjects::from_files(files).unwrap()
    }

    const CM_A: &str = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: default\ndata:\n  k: one\n";
    const CM_A2: &str = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: default\ndata:\n  k: two\n";
    const CM_B: &str =
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n  namespace: default\n";

    #[test]
    fn the_same_file_on_many_clusters_is_read_once_and_a_bad_one_named_on_each() {
        let fleet = fleet(&[
            ("east", "a", CM_A),
            ("west", "a", CM_A),
            ("west", "b", CM_B),
        ]);
        let key = |cluster: &str, name: &str| {
            let objects = &fleet.clusters[cluster];
            let (key, body) = objects.iter().find(|(key, _)| key.name == name).unwrap();
            (key.clone(), body.clone())
        };
        let (east_key, east) = key("east", "a");
        let (west_key, west) = key("west", "a");
        assert_eq!(east_key, west_key);
        assert!(
            std::sync::Arc::ptr_eq(&east, &west),
            "one text for both clusters"
        );
        assert!(!std::sync::Arc::ptr_eq(&east, &key("west", "b").1));

        let bad: std::sync::Arc<str> = "kind: ConfigMap\n".into();
        let files: BTreeMap<String, std::sync::Arc<str>> = ["east", "west"]
            .iter()
            .map(|cluster| (format!("{cluster}/default/bad.yaml"), bad.clone()))
            .collect();
        let rejected = FleetObjects::from_files(files).unwrap_err();
        let messages: Vec<String> = rejected.errors.iter().map(|e| e.to_string()).collect();
        assert_eq!(messages.len(), 2, "{messages:?}");
        assert!(
            messages[0].contains("east/default/bad.yaml"),
            "{messages:?}"
        );
        assert!(
            messages[1].contains("west/default/bad.yaml"),
            "{messages:?}"
        );
    }

    #[test]
    fn identical_fleets_have_no_difference() {
        let a = fleet(&[("c1", "a", CM_A)]);
        assert!(diff(&a, &a, false).is_empty());
    }

    #[test]
    fn objects_are_matched_by_identity_not_by_file() {
        let before = fleet(&[("c1", "old-file-name", CM_A)]);
        let after = fleet(&[("c1", "new-file-name", CM_A)]);
        assert!(diff(&before, &after, false).is_empty());
    }

    #[test]
    fn formatting_alone_is_not_a_change() {
        let before = fleet(&[("c1", "a", CM_A)]);
        let reordered = "kind: ConfigMap\napiVersion: v1\nmetadata: {namespace: default, name: a}\ndata: {k: 'one'}\n";
        let after = fleet(&[("c1", "a", reordered)]);
        assert!(diff(&before, &after, false).is_empty());
    }

    #[test]
    fn added_changed_and_removed_objects_per_cluster() {
        let before = fleet(&[("c1", "a", CM_A), ("c2", "b", CM_B)]);
        let after = fleet(&[("c1", "a", CM_A2), ("c1", "b", CM_B)]);
        let result = diff(&before, &after, false);
        let summary: Vec<(String, Vec<(String, ChangeKind)>)> = result
            .clusters
            .iter()
            .map(|(cluster, changes)| {
                (
                    cluster.clone(),
                    changes
                        .iter()
                        .map(|c| (c.key.name.clone(), c.kind))
                        .collect(),
                )
            })
            .collect();
        assert_eq!(
            summary,
            vec![
                (
                    "c1".to_string(),
                    vec![
                        ("a".to_string(), ChangeKind::Changed),
                        ("b".to_string(), ChangeKind::Added)
                    ]
                ),
                (
                    "c2".to_string(),
                    vec![("b".to_string(), ChangeKind::Removed)]
                ),
            ]
        );
        let unified = result.clusters["c1"][0].unified("c1");
        assert!(unified.contains("-  k: one\n+  k: two\n"), "{unified}");
    }

    #[test]
    fn secret_values_are_redacted_unless_asked() {
        let secret = |value: &str| {
            format!(
                "apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n  namespace: default\ndata:\n  password: {value}\n  user: YWRtaW4=\n"
            )
        };
        let before = fleet(&[("c1", "s", &secret("b2xk"))]);
        let after = fleet(&[("c1", "s", &secret("bmV3"))]);
        let redacted = diff(&before, &after, false);
        let change = &redacted.clusters["c1"][0];
        assert!(
            !change.before.contains("b2xk") && !change.after.contains("bmV3"),
            "{change:?}"
        );
        assert!(
            change.after.contains("password: <redacted, changed>"),
            "{}",
            change.after
        );
        assert!(
            change.after.contains("user: <redacted>"),
            "{}",
            change.after
        );
        let shown = diff(&before, &after, true);
        assert!(shown.clusters["c1"][0].after.contains("bmV3"));
    }
}
