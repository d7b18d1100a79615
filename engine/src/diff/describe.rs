//! One change read once: an object whose change differs from cluster to cluster (a regional
//! registry mirror, region labels, a Divided workload's replicas) described by what changed —
//! each field's old → new at the template level, with what varies by cluster said once — rather
//! than one hunk per variant. The per-cluster detail stays in the unified diff and the JSON.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::change::{ChangeKind, FleetDiff, ObjectChange, parse_object};
use crate::object::ObjectKey;

/// An object's change over every cluster it changes on, by field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Described<'d> {
    /// The object.
    pub key: &'d ObjectKey,
    /// Sorted, each.
    pub changed_on: Vec<&'d str>,
    /// The clusters the object newly reaches.
    pub added_on: Vec<&'d str>,
    /// The clusters the object leaves.
    pub removed_on: Vec<&'d str>,
    /// What changed where the object was and still is, field by field.
    pub fields: Vec<FieldChange<'d>>,
    /// Replicas over every cluster the object is on, when they changed anywhere.
    pub replicas: Option<ReplicaTotals<'d>>,
    /// The clusters the object newly reaches, next to one it was already on.
    pub added_like: Option<AddedLike<'d>>,
    /// One cluster's change, to read the diff of (the first changed one, else the first).
    pub sample: &'d ObjectChange,
    /// The cluster of `sample`.
    pub sample_cluster: &'d str,
}

/// One field's change (`spec.template.spec.containers[name=worker].image`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldChange<'d> {
    /// A container image whose repository or tag changed the same way on every cluster, while
    /// its registry may differ by cluster (a regional mirror).
    Image {
        /// The container's name.
        container: String,
        /// Repository and tag without the registry, before and after.
        before: String,
        /// Repository and tag after.
        after: String,
        /// Where the object changed or newly is, with this image.
        clusters: usize,
        /// Each registry with its clusters, when there is more than one.
        registries: Vec<(String, Vec<&'d str>)>,
    },
    /// Any other field: each distinct old → new with its clusters (`None`: absent).
    Values {
        /// The field's path (`spec.template.spec.containers[name=worker].env[name=MODE].value`).
        path: String,
        /// Each distinct change, old and new, with the clusters it happens on.
        changes: Vec<(Option<String>, Option<String>, Vec<&'d str>)>,
    },
}

/// `replicas 6 → 17 over 6 → 12 clusters`, with each cluster's count after.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplicaTotals<'d> {
    /// The replicas over every cluster, before and after.
    pub total: (i64, i64),
    /// How many clusters have them, before and after.
    pub clusters: (usize, usize),
    /// Each count after with its clusters, among those the diff shows.
    pub after: Vec<(i64, Vec<&'d str>)>,
}

/// `added on …, as on prod-us-east-01 except …`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AddedLike<'d> {
    /// The cluster whose object the new ones are compared with.
    pub like: &'d str,
    /// Fields whose value differs from `like`'s, each with its values by cluster; the image's
    /// registry and the replicas are named only, said above.
    pub except: Vec<(String, ValuesOn<'d>)>,
}

/// Each value with the clusters that have it (an empty value: named only).
pub(crate) type ValuesOn<'d> = Vec<(String, Vec<&'d str>)>;

/// The objects whose change reads differently from cluster to cluster, described; `keys` says
/// which (the report's groups tell it).
pub fn describe<'d>(diff: &'d FleetDiff, keys: &BTreeSet<&ObjectKey>) -> Vec<Described<'d>> {
    let mut on: BTreeMap<&ObjectKey, Vec<(&'d str, &'d ObjectChange)>> = BTreeMap::new();
    for (cluster, changes) in &diff.clusters {
        if diff.clusters_added.contains(cluster) || diff.clusters_removed.contains(cluster) {
            continue;
        }
        for change in changes {
            if keys.contains(&change.key) {
                on.entry(&change.key).or_default().push((cluster, change));
            }
        }
    }
    on.into_values()
        .filter_map(|changes| describe_object(diff, &changes))
        .collect()
}

fn describe_object<'d>(
    diff: &'d FleetDiff,
    changes: &[(&'d str, &'d ObjectChange)],
) -> Option<Described<'d>> {
    let (_, first) = *changes.first()?;
    let key = &first.key;
    let of = |kind: ChangeKind| -> Vec<&'d str> {
        changes
            .iter()
            .filter(|(_, change)| change.kind == kind)
            .map(|(cluster, _)| *cluster)
            .collect()
    };
    let (changed_on, added_on, removed_on) = (
        of(ChangeKind::Changed),
        of(ChangeKind::Added),
        of(ChangeKind::Removed),
    );
    // Each cluster's fields, before and after.
    let leaves: Vec<(&'d str, ChangeKind, Leaves, Leaves)> = changes
        .iter()
        .map(|(cluster, change)| {
            (
                *cluster,
                change.kind,
                leaves_of(&change.before),
                leaves_of(&change.after),
            )
        })
        .collect();
    let changed: Vec<&(&'d str, ChangeKind, Leaves, Leaves)> = leaves
        .iter()
        .filter(|(_, kind, _, _)| *kind == ChangeKind::Changed)
        .collect();
    let paths: BTreeSet<&String> = changed
        .iter()
        .flat_map(|(_, _, before, after)| {
            before
                .iter()
                .chain(after)
                .filter(|(path, value)| {
                    before.get(*path) != Some(value) || after.get(*path) != Some(value)
                })
                .map(|(path, _)| path)
        })
        .collect();
    let mut fields = Vec::new();
    let mut by_registry: BTreeSet<&String> = BTreeSet::new();
    for path in paths {
        if path == REPLICAS {
            continue;
        }
        if let Some(image) = image_change(path, &changed, &leaves) {
            by_registry.insert(path);
            fields.push(image);
            continue;
        }
        let mut values: BTreeMap<(Option<String>, Option<String>), Vec<&'d str>> = BTreeMap::new();
        for (cluster, _, before, after) in &changed {
            let pair = (before.get(path).cloned(), after.get(path).cloned());
            if pair.0 != pair.1 {
                values.entry(pair).or_default().push(cluster);
            }
        }
        fields.push(FieldChange::Values {
            path: path.clone(),
            changes: values
                .into_iter()
                .map(|((before, after), clusters)| (before, after, clusters))
                .collect(),
        });
    }
    let replicas = diff.replica_totals.get(key).map(|&total| {
        let mut after: BTreeMap<i64, Vec<&'d str>> = BTreeMap::new();
        for (cluster, kind, _, leaves) in &leaves {
            if *kind != ChangeKind::Removed
                && let Some(count) = leaves.get(REPLICAS).and_then(|n| n.parse().ok())
            {
                after.entry(count).or_default().push(cluster);
            }
        }
        ReplicaTotals {
            total,
            clusters: diff.replica_clusters.get(key).copied().unwrap_or_default(),
            after: after.into_iter().rev().collect(),
        }
    });
    // The cluster whose diff shows the most of what changed (the first among equals).
    let differing = |(_, kind, before, after): &(&str, ChangeKind, Leaves, Leaves)| {
        if *kind != ChangeKind::Changed {
            return 0;
        }
        let changed = |(path, value): (&String, &String)| {
            before.get(path) != after.get(path) || after.get(path) != Some(value)
        };
        before
            .iter()
            .chain(after)
            .filter(|&field| changed(field))
            .count()
    };
    let sample_at = (0..leaves.len())
        .rev()
        .max_by_key(|&at| differing(&leaves[at]))
        .unwrap_or(0);
    let (sample_cluster, sample) = changes[sample_at];
    let added_like = (!added_on.is_empty() && !changed_on.is_empty()).then(|| {
        let like = &leaves[sample_at].3;
        let mut except: BTreeMap<String, BTreeMap<String, Vec<&'d str>>> = BTreeMap::new();
        for (cluster, kind, _, after) in &leaves {
            if *kind != ChangeKind::Added {
                continue;
            }
            let paths: BTreeSet<&String> = after.keys().chain(like.keys()).collect();
            for path in paths {
                if after.get(path) == like.get(path) {
                    continue;
                }
                let (name, value) = if path == REPLICAS {
                    ("replicas".to_string(), String::new())
                } else if by_registry.contains(path) {
                    ("registry".to_string(), String::new())
                } else {
                    let value = after.get(path).cloned();
                    (
                        path.clone(),
                        value.unwrap_or_else(|| "(absent)".to_string()),
                    )
                };
                except
                    .entry(name)
                    .or_default()
                    .entry(value)
                    .or_default()
                    .push(cluster);
            }
        }
        AddedLike {
            like: sample_cluster,
            except: except
                .into_iter()
                .map(|(path, values)| (path, values.into_iter().collect()))
                .collect(),
        }
    });
    Some(Described {
        key,
        changed_on,
        added_on,
        removed_on,
        fields,
        replicas,
        added_like,
        sample,
        sample_cluster,
    })
}

const REPLICAS: &str = "spec.replicas";

/// A manifest's fields as `path → value` (scalars as written in YAML, strings unquoted).
type Leaves = BTreeMap<String, String>;

fn leaves_of(text: &str) -> Leaves {
    let mut leaves = Leaves::new();
    if let Some(value) = parse_object(text) {
        flatten(&value, String::new(), &mut leaves);
    }
    leaves
}

/// A map key in a path: `.name`, or `[example.com/region]` where dots or slashes would mislead.
fn key_segment(path: &str, key: &str) -> String {
    if key.contains(['.', '/', '[', ']']) || key.is_empty() {
        format!("{path}[{key}]")
    } else if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

fn flatten(value: &Value, path: String, leaves: &mut Leaves) {
    match value {
        Value::Object(fields) if !fields.is_empty() => {
            for (key, child) in fields {
                flatten(child, key_segment(&path, key), leaves);
            }
        }
        // A list of named items (containers, ports, env) by name: the same item on every
        // cluster whatever its place.
        Value::Array(items) if !items.is_empty() && items.iter().all(|item| item.is_object()) => {
            for (index, item) in items.iter().enumerate() {
                let segment = match item.get("name").and_then(Value::as_str) {
                    Some(name) => format!("{path}[name={name}]"),
                    None => format!("{path}[{index}]"),
                };
                flatten(item, segment, leaves);
            }
        }
        Value::String(text) => {
            leaves.insert(path, text.clone());
        }
        other => {
            leaves.insert(path, other.to_string());
        }
    }
}

/// An image split as a registry host and the rest: `mirror.example.com` and
/// `content/worker:2.29.4`. A first segment is a registry when it has a dot or a port, or is
/// `localhost`, as Docker reads references.
fn split_image(image: &str) -> (&str, &str) {
    match image.split_once('/') {
        Some((first, rest))
            if first.contains('.') || first.contains(':') || first == "localhost" =>
        {
            (first, rest)
        }
        _ => ("", image),
    }
}

/// The image of a container, when every cluster changed it the same way but for its registry,
/// and the clusters the object newly reaches have the new image too.
fn image_change<'d>(
    path: &str,
    changed: &[&(&'d str, ChangeKind, Leaves, Leaves)],
    all: &[(&'d str, ChangeKind, Leaves, Leaves)],
) -> Option<FieldChange<'d>> {
    let container = path
        .strip_suffix("].image")
        .and_then(|rest| rest.rsplit_once("[name="))
        .map(|(_, name)| name.to_string())?;
    let mut rest: Option<(String, String)> = None;
    let mut registries: BTreeMap<String, Vec<&'d str>> = BTreeMap::new();
    for (cluster, _, before, after) in changed {
        let (old_registry, old) = split_image(before.get(path)?);
        let (new_registry, new) = split_image(after.get(path)?);
        if old_registry != new_registry {
            return None;
        }
        match &rest {
            None => rest = Some((old.to_string(), new.to_string())),
            Some((a, b)) if a == old && b == new => {}
            Some(_) => return None,
        }
        registries
            .entry(new_registry.to_string())
            .or_default()
            .push(cluster);
    }
    let (before, after) = rest?;
    for (cluster, kind, _, leaves) in all {
        if *kind == ChangeKind::Added {
            let (registry, image) = split_image(leaves.get(path)?);
            if image != after {
                return None;
            }
            registries
                .entry(registry.to_string())
                .or_default()
                .push(cluster);
        }
    }
    let clusters = registries.values().map(Vec::len).sum();
    let registries = if registries.len() > 1 {
        registries
            .into_iter()
            .map(|(registry, mut clusters)| {
                clusters.sort_unstable();
                (registry, clusters)
            })
            .collect()
    } else {
        Vec::new()
    };
    Some(FieldChange::Image {
        container,
        before,
        after,
        clusters,
        registries,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(kind: ChangeKind, before: &str, after: &str) -> ObjectChange {
        ObjectChange {
            key: ObjectKey {
                group: "apps".into(),
                kind: "Deployment".into(),
                namespace: "content".into(),
                name: "worker".into(),
            },
            kind,
            before: before.into(),
            after: after.into(),
        }
    }

    fn manifest(registry: &str, tag: &str, replicas: i64, region: &str) -> String {
        format!(
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: worker\n  labels:\n    example.com/region: {region}\nspec:\n  replicas: {replicas}\n  template:\n    spec:\n      containers:\n      - name: worker\n        image: {registry}/content/worker:{tag}\n"
        )
    }

    #[test]
    fn an_image_bump_through_regional_mirrors_reads_once_with_its_registries() {
        let mut diff = FleetDiff::default();
        let key = change(ChangeKind::Added, "", "").key;
        for (cluster, registry, region) in
            [("eu-1", "eu.mirror", "eu"), ("us-1", "us.mirror", "us")]
        {
            diff.clusters.insert(
                cluster.into(),
                vec![change(
                    ChangeKind::Changed,
                    &manifest(registry, "1.0", 1, region),
                    &manifest(registry, "2.0", 2, region),
                )],
            );
        }
        diff.clusters.insert(
            "us-2".into(),
            vec![change(
                ChangeKind::Added,
                "",
                &manifest("us.mirror", "2.0", 1, "us"),
            )],
        );
        diff.replica_totals.insert(key.clone(), (2, 5));
        diff.replica_clusters.insert(key.clone(), (2, 3));
        let described = describe(&diff, &BTreeSet::from([&key]));
        let [one] = &described[..] else {
            panic!("{described:?}")
        };
        assert_eq!(
            one.fields,
            vec![FieldChange::Image {
                container: "worker".into(),
                before: "content/worker:1.0".into(),
                after: "content/worker:2.0".into(),
                clusters: 3,
                registries: vec![
                    ("eu.mirror".into(), vec!["eu-1"]),
                    ("us.mirror".into(), vec!["us-1", "us-2"]),
                ],
            }]
        );
        assert_eq!(
            one.replicas,
            Some(ReplicaTotals {
                total: (2, 5),
                clusters: (2, 3),
                after: vec![(2, vec!["eu-1", "us-1"]), (1, vec!["us-2"])],
            })
        );
        // us-2 is as eu-1 but for its registry, its replicas and its region label.
        assert_eq!(
            one.added_like,
            Some(AddedLike {
                like: "eu-1",
                except: vec![
                    (
                        "metadata.labels[example.com/region]".into(),
                        vec![("us".into(), vec!["us-2"])]
                    ),
                    ("registry".into(), vec![(String::new(), vec!["us-2"])]),
                    ("replicas".into(), vec![(String::new(), vec!["us-2"])]),
                ],
            })
        );
    }

    #[test]
    fn a_field_that_changes_differently_by_cluster_lists_each_change() {
        let mut diff = FleetDiff::default();
        for (cluster, tag) in [("a", "2.0"), ("b", "3.0")] {
            diff.clusters.insert(
                cluster.into(),
                vec![change(
                    ChangeKind::Changed,
                    &manifest("r.io", "1.0", 1, "x"),
                    &manifest("r.io", tag, 1, "x"),
                )],
            );
        }
        let key = change(ChangeKind::Added, "", "").key;
        let described = describe(&diff, &BTreeSet::from([&key]));
        let path = "spec.template.spec.containers[name=worker].image";
        assert_eq!(
            described[0].fields,
            vec![FieldChange::Values {
                path: path.into(),
                changes: vec![
                    (
                        Some("r.io/content/worker:1.0".into()),
                        Some("r.io/content/worker:2.0".into()),
                        vec!["a"]
                    ),
                    (
                        Some("r.io/content/worker:1.0".into()),
                        Some("r.io/content/worker:3.0".into()),
                        vec!["b"]
                    ),
                ],
            }]
        );
        assert_eq!(described[0].replicas, None);
    }
}
