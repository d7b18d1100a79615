//! Who a change touches, for the first screen of its review: the clusters it changes, the
//! review groups (`spec.review`) those clusters are in, with counts, the owners of those groups
//! alone, and each group's CPU and memory requests before and after.
//!
//! A pull request must not route its own approvals: with `diff --base`, the groups and owners
//! are the base's Config's (already reviewed and merged), as the lint levels and ignore rules
//! are (`super::policy`). Only where the base names no group are the change's own used, and
//! marked as such ([`GroupsFrom::Change`]). A cluster is in a group when its labels match in
//! the base's inventory or in the head's: relabelling a production cluster in the pull request
//! still names production.

use std::collections::BTreeSet;

use super::change::{FleetDiff, GroupsFrom, Touched, TouchedGroup};
use crate::api::cluster::Cluster;
use crate::object::ObjectKey;
use crate::quantity::Quantity;
use crate::render::capacity::Capacity;
use crate::review_groups::ReviewGroups;

/// The resources a group's requests are summed for.
const RESOURCES: [&str; 2] = ["cpu", "memory"];

/// Who `diff` touches. `head` and `base` are each side's `spec.review` (`base` `None` against a
/// rendered tree), `head_clusters` and `base_clusters` each side's inventory.
pub(super) fn touched(
    diff: &FleetDiff,
    head: Option<&ReviewGroups>,
    base: Option<&ReviewGroups>,
    head_clusters: &[Cluster],
    base_clusters: &[Cluster],
) -> Touched {
    let clusters: Vec<String> = (diff.clusters.iter())
        .filter(|(_, changes)| !changes.is_empty())
        .map(|(cluster, _)| cluster.clone())
        .collect();
    let (groups, groups_from) = match (base, head) {
        (Some(base), _) => (
            base,
            GroupsFrom::Base {
                at: base.origin.to_string(),
            },
        ),
        (None, Some(head)) => (
            head,
            GroupsFrom::Change {
                at: head.origin.to_string(),
            },
        ),
        (None, None) => {
            return Touched {
                clusters,
                ..Touched::default()
            };
        }
    };
    let review_changed = base.is_some() && !head.is_some_and(|head| head.same_as(groups));
    let mut touched_groups = Vec::new();
    let mut owners: BTreeSet<&str> = BTreeSet::new();
    for group in &groups.groups {
        let members: BTreeSet<&str> = (head_clusters.iter().chain(base_clusters))
            .filter(|cluster| group.holds(cluster))
            .map(Cluster::name)
            .collect();
        let clusters_touched: Vec<String> = (clusters.iter())
            .filter(|cluster| members.contains(cluster.as_str()))
            .cloned()
            .collect();
        if clusters_touched.is_empty() {
            continue;
        }
        let objects: BTreeSet<&ObjectKey> = (clusters_touched.iter())
            .flat_map(|cluster| &diff.clusters[cluster])
            .map(|change| &change.key)
            .collect();
        let requests = match &diff.capacity {
            None => Vec::new(),
            Some(head) => RESOURCES
                .into_iter()
                .map(|resource| {
                    let before = (diff.base_capacity.as_ref())
                        .map(|base| requested(base, &members, resource));
                    (resource, before, requested(head, &members, resource))
                })
                .collect(),
        };
        owners.extend(group.owners.iter().map(String::as_str));
        touched_groups.push(TouchedGroup {
            name: group.name.clone(),
            clusters: members.len(),
            clusters_touched,
            objects_changed: objects.len(),
            owners: group.owners.clone(),
            requests,
        });
    }
    Touched {
        clusters,
        groups_from: Some(groups_from),
        groups: touched_groups,
        owners: owners.into_iter().map(str::to_string).collect(),
        review_changed,
    }
}

/// The requests × replicas of `resource` the `members` receive.
fn requested(capacity: &Capacity, members: &BTreeSet<&str>, resource: &str) -> Quantity {
    (capacity.clusters.iter())
        .filter(|cluster| members.contains(cluster.cluster.as_str()))
        .fold(Quantity::default(), |sum, cluster| {
            sum.saturating_add(cluster.requested_of(resource))
        })
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::api::config::ReviewConfig;
    use crate::diagnostics::{ErrorSink, FieldLines, Located, Origin};
    use crate::diff::change::{ChangeKind, ObjectChange};

    fn cluster(name: &str, env: &str) -> Cluster {
        serde_json::from_value(serde_json::json!({
            "apiVersion": "cluster.karmada.io/v1alpha1",
            "kind": "Cluster",
            "metadata": {"name": name, "labels": {"env": env}},
            "spec": {},
        }))
        .unwrap()
    }

    fn review(at: &str, groups: &[(&str, &str)], owners: serde_json::Value) -> ReviewGroups {
        let groups: Vec<serde_json::Value> = groups
            .iter()
            .map(|(name, env)| {
                serde_json::json!({"name": name, "clusterSelector": {"matchLabels": {"env": env}}})
            })
            .collect();
        let item: ReviewConfig =
            serde_json::from_value(serde_json::json!({"groups": groups, "owners": owners}))
                .unwrap();
        let mut errors = ErrorSink::default();
        let located = Located {
            origin: Origin::new(at, 0, 1),
            item,
            fields: FieldLines::default(),
        };
        crate::review_groups::admit(&located, &mut errors).unwrap()
    }

    fn change(name: &str) -> ObjectChange {
        ObjectChange {
            key: ObjectKey {
                group: "apps".into(),
                kind: "Deployment".into(),
                namespace: "shop".into(),
                name: name.into(),
            },
            kind: ChangeKind::Changed,
            before: String::new(),
            after: String::new(),
        }
    }

    fn diff_on(changes: &[(&str, &[&str])]) -> FleetDiff {
        let clusters: BTreeMap<String, Vec<ObjectChange>> = changes
            .iter()
            .map(|(cluster, names)| {
                (
                    cluster.to_string(),
                    names.iter().map(|n| change(n)).collect(),
                )
            })
            .collect();
        FleetDiff {
            clusters,
            ..FleetDiff::default()
        }
    }

    fn inventory() -> Vec<Cluster> {
        vec![
            cluster("prod-1", "prod"),
            cluster("prod-2", "prod"),
            cluster("prod-3", "prod"),
            cluster("stg-1", "staging"),
            cluster("stg-2", "staging"),
        ]
    }

    #[test]
    fn only_the_touched_groups_and_their_owners() {
        let groups = review(
            "fleet/fedrender.yaml",
            &[("production", "prod"), ("staging", "staging")],
            serde_json::json!({"production": ["@org/sre"], "staging": ["@org/qa", "@org/sre"]}),
        );
        let mut diff = diff_on(&[
            ("stg-1", &["web", "api"]),
            ("stg-2", &["web"]),
            ("prod-1", &[]),
        ]);
        let touched = touched(&diff, Some(&groups), None, &inventory(), &[]);
        assert_eq!(touched.clusters, ["stg-1", "stg-2"]);
        assert_eq!(touched.groups.len(), 1);
        let staging = &touched.groups[0];
        assert_eq!(
            (
                staging.name.as_str(),
                staging.clusters,
                staging.objects_changed
            ),
            ("staging", 2, 2)
        );
        assert_eq!(touched.owners, ["@org/qa", "@org/sre"]);
        assert!(
            matches!(&touched.groups_from, Some(GroupsFrom::Change { at }) if at == "fleet/fedrender.yaml:1")
        );
        // Without groups anywhere, the clusters alone.
        diff.clusters.remove("stg-2");
        let bare = super::touched(&diff, None, None, &inventory(), &[]);
        assert_eq!(
            (bare.clusters.len(), bare.groups_from, bare.groups.len()),
            (1, None, 0)
        );
    }

    /// CPU and memory requested × replicas over a group's clusters, base → head; a cluster
    /// outside the group does not count, and a tree has no base side.
    #[test]
    fn a_group_s_requests_are_summed_over_its_clusters() {
        use crate::quantity::parse_quantity;
        use crate::render::capacity::ClusterCapacity;
        let capacity = |cpu: &[(&str, &str)]| Capacity {
            clusters: (cpu.iter().enumerate())
                .map(|(position, (cluster, cpu))| ClusterCapacity {
                    cluster: cluster.to_string(),
                    position,
                    requested: [("cpu".to_string(), parse_quantity(cpu).unwrap())].into(),
                    free: None,
                })
                .collect(),
            quotas: Vec::new(),
        };
        let groups = review(
            "fleet/fedrender.yaml",
            &[("production", "prod")],
            serde_json::json!({}),
        );
        let mut diff = diff_on(&[("prod-1", &["web"])]);
        diff.capacity = Some(capacity(&[
            ("prod-1", "1"),
            ("prod-2", "500m"),
            ("stg-1", "8"),
        ]));
        diff.base_capacity = Some(capacity(&[
            ("prod-1", "500m"),
            ("prod-2", "500m"),
            ("stg-1", "2"),
        ]));
        let shown = |touched: &Touched| -> Vec<(&str, Option<String>, String)> {
            (touched.groups[0].requests.iter())
                .map(|(resource, base, head)| {
                    let show = |q: Quantity| crate::render::capacity::shown(resource, q);
                    (*resource, base.map(show), show(*head))
                })
                .collect()
        };
        let found = touched(&diff, Some(&groups), None, &inventory(), &[]);
        assert_eq!(
            shown(&found),
            [
                ("cpu", Some("1".to_string()), "1500m".to_string()),
                ("memory", Some("0".to_string()), "0".to_string())
            ]
        );
        diff.base_capacity = None;
        let against_tree = touched(&diff, Some(&groups), None, &inventory(), &[]);
        assert_eq!(shown(&against_tree)[0], ("cpu", None, "1500m".to_string()));
    }

    // The pull request deletes the production group and relabels prod-1: the base's groups and
    // labels still name production and its owners.
    #[test]
    fn the_base_routes_the_review() {
        let base = review(
            "base/fedrender.yaml",
            &[("production", "prod")],
            serde_json::json!({"production": ["@org/sre"]}),
        );
        let head = review(
            "fleet/fedrender.yaml",
            &[("staging", "staging")],
            serde_json::json!({}),
        );
        let mut relabelled = inventory();
        relabelled[0] = cluster("prod-1", "staging");
        let diff = diff_on(&[("prod-1", &["web"])]);
        let touched = touched(&diff, Some(&head), Some(&base), &relabelled, &inventory());
        assert_eq!(touched.groups.len(), 1);
        assert_eq!(touched.groups[0].name, "production");
        assert_eq!(touched.groups[0].clusters, 3);
        assert_eq!(touched.owners, ["@org/sre"]);
        assert!(touched.review_changed);
        assert!(matches!(touched.groups_from, Some(GroupsFrom::Base { .. })));
        let same = super::touched(&diff, Some(&base), Some(&base), &inventory(), &inventory());
        assert!(!same.review_changed);
    }
}
