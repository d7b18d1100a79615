//! The objects of a rendered fleet, by cluster, and the change between two of them object by
//! object: from a fresh render, or from the files of a rendered tree read back.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

use serde_json::Value;

use super::change::{FleetDiff, ObjectChange, object_change, scaled_objects, spec_replicas};
use crate::diagnostics::{Diagnostic, Rejected};
use crate::manifest::HEADER;
use crate::object::{ObjectKey, api_group};
use crate::output::OutputTree;
use crate::render::Placed;
use crate::yaml;

/// The objects of a rendered fleet: cluster → object → its manifest text.
#[derive(Debug, Default, Clone)]
pub struct FleetObjects {
    /// Each cluster's objects with their manifests, by cluster name.
    pub clusters: BTreeMap<String, BTreeMap<ObjectKey, Arc<str>>>,
}

impl FleetObjects {
    /// From a fresh render.
    pub fn from_tree(tree: &OutputTree) -> FleetObjects {
        let mut fleet = FleetObjects::default();
        for cluster in &tree.clusters {
            fleet.clusters.entry(cluster.clone()).or_default();
        }
        for (path, key, text) in tree.objects() {
            let cluster = path.split('/').next().unwrap_or_default();
            fleet
                .clusters
                .entry(cluster.to_string())
                .or_default()
                .insert(ObjectKey::clone(key), text.clone());
        }
        fleet
    }

    /// From the files of a rendered tree on disk (`cluster/relative path` → text), e.g. a
    /// committed output directory. Each object is identified by its content.
    pub(crate) fn from_files(files: BTreeMap<String, Arc<str>>) -> Result<FleetObjects, Rejected> {
        let mut fleet = FleetObjects::default();
        let mut errors = Vec::new();
        // The clusters of one variant hold the same file: its objects are read once and shared,
        // so that a change to a template on every cluster holds its text a few times, not once a
        // cluster. A file with an error is read again wherever it is, for the path in the message.
        let mut read: HashMap<Arc<str>, Vec<(ObjectKey, Arc<str>)>> = HashMap::new();
        // Each file is dropped once read: a big change's files and their objects are not held
        // at once.
        for (path, text) in files {
            let Some((cluster, relative)) = path.split_once('/') else {
                continue;
            };
            let objects = fleet.clusters.entry(cluster.to_string()).or_default();
            if relative == crate::output::layout::KUSTOMIZATION_FILE {
                continue;
            }
            if let Some(known) = read.get(&text) {
                for (key, body) in known {
                    objects.insert(key.clone(), body.clone());
                }
                continue;
            }
            let mut read_here = Vec::new();
            let mut clean = true;
            for document in yaml::split_documents(&text) {
                let value = match yaml::parse_document(&document, &path) {
                    Ok(value) => value,
                    Err(error) => {
                        errors.push(error);
                        clean = false;
                        continue;
                    }
                };
                let Some(key) = key_of(&value) else {
                    errors.push(Diagnostic::error(
                        Some(crate::diagnostics::Origin::new(
                            path.as_str(),
                            0,
                            document.content_line,
                        )),
                        "not a Kubernetes object (apiVersion, kind and metadata.name are needed)",
                    ));
                    clean = false;
                    continue;
                };
                let body: Arc<str> = format!("{HEADER}{}", yaml::to_yaml(&value)).into();
                read_here.push((key, body));
            }
            for (key, body) in &read_here {
                objects.insert(key.clone(), body.clone());
            }
            if clean {
                read.insert(text, read_here);
            }
        }
        if errors.is_empty() {
            Ok(fleet)
        } else {
            Err(errors.into())
        }
    }
}

fn key_of(value: &Value) -> Option<ObjectKey> {
    let text = |pointer: &str| crate::json_pointer::pointer(value, pointer).and_then(Value::as_str);
    Some(ObjectKey {
        group: api_group(text("/apiVersion")?).to_string(),
        kind: text("/kind")?.to_string(),
        namespace: text("/metadata/namespace").unwrap_or("").to_string(),
        name: text("/metadata/name")?.to_string(),
    })
}

/// Compares two rendered fleets. Secret `data`/`stringData` values are replaced by markers
/// unless `show_secrets`.
pub fn diff(before: &FleetObjects, after: &FleetObjects, show_secrets: bool) -> FleetDiff {
    let mut result = FleetDiff::default();
    let clusters: BTreeSet<&String> = before
        .clusters
        .keys()
        .chain(after.clusters.keys())
        .collect();
    let empty = BTreeMap::new();
    for cluster in clusters {
        let old = before.clusters.get(cluster).unwrap_or(&empty);
        let new = after.clusters.get(cluster).unwrap_or(&empty);
        let keys: BTreeSet<&ObjectKey> = old.keys().chain(new.keys()).collect();
        let changes: Vec<ObjectChange> = keys
            .into_iter()
            .filter_map(|key| {
                object_change(
                    key,
                    old.get(key).map(|text| &**text),
                    new.get(key).map(|text| &**text),
                    show_secrets,
                )
            })
            .collect();
        if !changes.is_empty() {
            result.clusters.insert(cluster.clone(), changes);
        }
    }
    result.clusters_added = after
        .clusters
        .keys()
        .filter(|cluster| !before.clusters.contains_key(*cluster))
        .cloned()
        .collect();
    result.clusters_removed = before
        .clusters
        .keys()
        .filter(|cluster| !after.clusters.contains_key(*cluster))
        .cloned()
        .collect();
    // Totals for the objects whose replicas changed somewhere, over every cluster they are on.
    let scaled = scaled_objects(&result);
    let replicas = |fleet: &FleetObjects, key: &ObjectKey| -> Vec<i64> {
        fleet
            .clusters
            .values()
            .filter_map(|objects| objects.get(key))
            .filter_map(|text| spec_replicas(text))
            .collect()
    };
    let (mut totals, mut on_clusters) = (BTreeMap::new(), BTreeMap::new());
    for key in scaled {
        let (old, new) = (replicas(before, key), replicas(after, key));
        totals.insert(key.clone(), (old.iter().sum(), new.iter().sum()));
        on_clusters.insert(key.clone(), (old.len(), new.len()));
    }
    result.replica_totals = totals;
    result.replica_clusters = on_clusters;
    result
}

/// `diff --against DIR` compares only the objects whose files differ, so the replica totals of
/// an object that scaled are completed over every cluster it is on: the head's templates of those
/// objects rendered again (`chunk` at a time), and on each cluster where the tree's file was the
/// same as the head's (`unchanged(cluster, position)`), the head's replicas stand for the tree's.
pub(crate) fn replica_totals_over_tree(
    result: &mut FleetDiff,
    head: &Placed<'_>,
    before: &FleetObjects,
    unchanged: impl Fn(usize, usize) -> bool,
    chunk: usize,
) -> Result<(), Rejected> {
    let positions = head.positions_by_key();
    let scaled: BTreeMap<usize, ObjectKey> = (result.replica_totals.keys())
        .filter_map(|key| Some((*positions.get(key)?, key.clone())))
        .collect();
    head.render_only(scaled.keys().copied(), chunk, |rendered| {
        for (position, template) in rendered {
            let key = &scaled[&position];
            // (replicas, clusters) before and after.
            let (mut old, mut new) = ((0, 0), (0, 0));
            for variant in &template.variants {
                let Some(replicas) = spec_replicas(&variant.manifest) else {
                    continue;
                };
                for &cluster in &variant.clusters {
                    new = (new.0 + replicas, new.1 + 1);
                    if unchanged(cluster, position) {
                        old = (old.0 + replicas, old.1 + 1);
                    }
                }
            }
            for objects in before.clusters.values() {
                if let Some(replicas) = objects.get(key).and_then(|text| spec_replicas(text)) {
                    old = (old.0 + replicas, old.1 + 1);
                }
            }
            result.replica_totals.insert(key.clone(), (old.0, new.0));
            result.replica_clusters.insert(key.clone(), (old.1, new.1));
        }
        Ok(())
    })
}
