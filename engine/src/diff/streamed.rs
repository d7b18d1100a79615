//! `diff --base` without two fleets in memory at once: three passes, each over one placed
//! fleet. The head is rendered for a fingerprint of every object on every cluster
//! (`fingerprint_head`); then the base, compared with those fingerprints and keeping the text
//! of what differs (`compare_base`); then the head once more, for the text of its side of what
//! differs (`complete_with_head`). A placed fleet is most of what a run holds (its parsed
//! templates), so a diff's peak is a build's, not two builds'.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::hash::{BuildHasher, RandomState};
use std::sync::Arc;

use rayon::prelude::*;

use super::change::{FleetDiff, object_change, scaled_objects, spec_replicas};
use crate::diagnostics::Rejected;
use crate::object::ObjectKey;
use crate::render::Placed;
use crate::work::{RenderedTemplate, Variant};

/// The head reduced to what the base is compared with: per cluster, each object's position and
/// the fingerprint of its manifest.
#[derive(Debug)]
pub(crate) struct HeadFingerprints {
    clusters: Vec<String>,
    /// Each object's position in the head, by key; and each position's key.
    positions: HashMap<ObjectKey, usize>,
    /// The other positions of a key several templates share, by its first position: an
    /// object several Argo CD Applications deploy, each to its own clusters. Empty otherwise.
    more_positions: HashMap<usize, Vec<usize>>,
    keys: Vec<ObjectKey>,
    objects: Vec<ClusterFingerprints>,
    /// A key chosen afresh for every run: nobody can prepare two manifests that collide.
    hashing: RandomState,
}

/// The first pass: every object of the head on every cluster of `head_clusters` (its emitted
/// clusters, by inventory position), rendered `chunk` templates at a time and fingerprinted
/// once per distinct manifest.
pub(crate) fn fingerprint_head(
    head: &Placed<'_>,
    head_clusters: &[String],
    chunk: usize,
) -> Result<HeadFingerprints, Rejected> {
    let keys: Vec<ObjectKey> = (0..head.object_count())
        .map(|position| head.key(position).clone())
        .collect();
    let mut positions: HashMap<ObjectKey, usize> = HashMap::with_capacity(keys.len());
    let mut more_positions: HashMap<usize, Vec<usize>> = HashMap::new();
    for (position, key) in keys.iter().enumerate() {
        match positions.get(key) {
            Some(&first) => more_positions.entry(first).or_default().push(position),
            None => {
                positions.insert(key.clone(), position);
            }
        }
    }
    let mut fingerprints = HeadFingerprints {
        clusters: head_clusters.to_vec(),
        positions,
        more_positions,
        keys,
        objects: Vec::new(),
        hashing: RandomState::new(),
    };
    fingerprints
        .objects
        .resize_with(head_clusters.len(), ClusterFingerprints::default);
    head.render_chunks(chunk, |rendered| {
        for (position, variant, fingerprint) in fingerprinted(&rendered, &fingerprints.hashing) {
            for &cluster in &variant.clusters {
                fingerprints.objects[cluster].push(position, fingerprint);
            }
        }
        Ok(())
    })?;
    for objects in &mut fingerprints.objects {
        objects.finish();
    }
    Ok(fingerprints)
}

/// The base compared with the head's fingerprints: every object that is not the same on a
/// cluster, with the base's text of it, and where the head has it.
#[derive(Debug)]
pub(crate) struct ComparedWithBase {
    head_clusters: Vec<String>,
    base_clusters: Vec<String>,
    differences: Vec<Difference>,
    /// The replicas over all its clusters (and on how many clusters) of each base template with
    /// an object that differs.
    base_replicas: HashMap<ObjectKey, (i64, usize)>,
}

/// An object of one cluster that is not the same in base and head: its text in the base, and
/// where the head has it (cluster and position).
#[derive(Debug)]
struct Difference {
    cluster: String,
    key: ObjectKey,
    before: Option<Arc<str>>,
    after: Option<(usize, usize)>,
}

/// The second pass: the base rendered `chunk` templates at a time, each object on each of its
/// clusters compared with the head's fingerprint of it.
pub(crate) fn compare_base(
    mut head: HeadFingerprints,
    base: &Placed<'_>,
    base_clusters: &[String],
    chunk: usize,
) -> Result<ComparedWithBase, Rejected> {
    let head_cluster_index: HashMap<&str, usize> = (head.clusters.iter().enumerate())
        .map(|(index, name)| (name.as_str(), index))
        .collect();
    let mut differences: Vec<Difference> = Vec::new();
    let mut base_replicas = HashMap::new();
    base.render_chunks(chunk, |rendered| {
        let mut differing: HashSet<usize> = HashSet::new();
        // Where the head has each template: looked up once a template, not once a variant.
        let in_head: HashMap<usize, Option<usize>> = (rendered.iter())
            .map(|(position, template)| (*position, head.positions.get(&template.key).copied()))
            .collect();
        for (position, variant, fingerprint) in fingerprinted(&rendered, &head.hashing) {
            let key = base.key(position);
            let head_position = in_head[&position];
            for &cluster in &variant.clusters {
                let name = &base_clusters[cluster];
                let after = head_cluster_index
                    .get(name.as_str())
                    .and_then(|&head_cluster| {
                        let first = head_position?;
                        let more = head.more_positions.get(&first).map(Vec::as_slice);
                        // The head's template of this key that is on this cluster.
                        std::iter::once(first)
                            .chain(more.unwrap_or_default().iter().copied())
                            .find_map(|position| {
                                let fingerprint = head.objects[head_cluster].take(position)?;
                                Some((head_cluster, position, fingerprint))
                            })
                    });
                if after.is_some_and(|(_, _, after)| after == fingerprint) {
                    continue;
                }
                differing.insert(position);
                differences.push(Difference {
                    cluster: name.clone(),
                    key: key.clone(),
                    before: Some(variant.manifest.clone()),
                    after: after.map(|(cluster, position, _)| (cluster, position)),
                });
            }
        }
        for (position, template) in &rendered {
            if differing.contains(position) {
                add_replicas(
                    &mut base_replicas,
                    &template.key,
                    replicas_over_clusters(template),
                );
            }
        }
        Ok(())
    })?;
    // What the base did not match is new.
    let keys = std::mem::take(&mut head.keys);
    for (cluster, remaining) in head.objects.into_iter().enumerate() {
        for position in remaining.unmatched() {
            differences.push(Difference {
                cluster: head.clusters[cluster].clone(),
                key: keys[position].clone(),
                before: None,
                after: Some((cluster, position)),
            });
        }
    }
    Ok(ComparedWithBase {
        head_clusters: head.clusters,
        base_clusters: base_clusters.to_vec(),
        differences,
        base_replicas,
    })
}

/// The third pass: the head's templates with an object that differs rendered again for its
/// text, and the change on each cluster. Secret values are replaced by markers unless
/// `show_secrets`.
pub(crate) fn complete_with_head(
    compared: ComparedWithBase,
    head: &Placed<'_>,
    chunk: usize,
    show_secrets: bool,
) -> Result<FleetDiff, Rejected> {
    let wanted: HashSet<(usize, usize)> = (compared.differences.iter())
        .filter_map(|difference| difference.after)
        .collect();
    let positions: BTreeSet<usize> = wanted.iter().map(|&(_, position)| position).collect();
    let mut after_texts: HashMap<(usize, usize), Arc<str>> = HashMap::new();
    let mut head_replicas: HashMap<ObjectKey, (i64, usize)> = HashMap::new();
    head.render_only(positions, chunk, |rendered| {
        for (position, template) in rendered {
            add_replicas(
                &mut head_replicas,
                &template.key,
                replicas_over_clusters(&template),
            );
            for variant in &template.variants {
                for &cluster in &variant.clusters {
                    if wanted.contains(&(cluster, position)) {
                        after_texts.insert((cluster, position), variant.manifest.clone());
                    }
                }
            }
        }
        Ok(())
    })?;

    let mut result = FleetDiff::default();
    for difference in compared.differences {
        let after = difference.after.and_then(|at| after_texts.get(&at));
        if let Some(change) = object_change(
            &difference.key,
            difference.before.as_deref(),
            after.map(|text| &**text),
            show_secrets,
        ) {
            result
                .clusters
                .entry(difference.cluster)
                .or_default()
                .push(change);
        }
    }
    for changes in result.clusters.values_mut() {
        changes.sort_by(|a, b| a.key.cmp(&b.key));
    }
    let base_clusters: HashSet<&String> = compared.base_clusters.iter().collect();
    result.clusters_added = (compared.head_clusters.iter())
        .filter(|cluster| !base_clusters.contains(cluster))
        .cloned()
        .collect();
    result.clusters_removed = (compared.base_clusters.iter())
        .filter(|cluster| !compared.head_clusters.contains(cluster))
        .cloned()
        .collect();
    // Totals for the objects whose replicas changed somewhere, over every cluster they are on.
    let mut totals = BTreeMap::new();
    let mut on_clusters = BTreeMap::new();
    for key in scaled_objects(&result) {
        let (before, before_clusters) =
            compared.base_replicas.get(key).copied().unwrap_or_default();
        let (after, after_clusters) = head_replicas.get(key).copied().unwrap_or_default();
        totals.insert(key.clone(), (before, after));
        on_clusters.insert(key.clone(), (before_clusters, after_clusters));
    }
    result.replica_totals = totals;
    result.replica_clusters = on_clusters;
    Ok(result)
}

/// Adds a template's replicas and clusters to its key's: several templates of one key (an
/// object several Argo CD Applications deploy) count together.
fn add_replicas(
    replicas: &mut HashMap<ObjectKey, (i64, usize)>,
    key: &ObjectKey,
    (more, on): (i64, usize),
) {
    let entry = replicas.entry(key.clone()).or_default();
    entry.0 += more;
    entry.1 += on;
}

/// A template's `spec.replicas` summed over the clusters it is rendered for, and the number of
/// those clusters whose object has them.
fn replicas_over_clusters(template: &RenderedTemplate) -> (i64, usize) {
    template
        .variants
        .iter()
        .filter_map(|variant| {
            let replicas = spec_replicas(&variant.manifest)?;
            let clusters = variant.clusters.len();
            Some((replicas * clusters as i64, clusters))
        })
        .fold((0, 0), |(replicas, clusters), (more, on)| {
            (replicas + more, clusters + on)
        })
}

/// One head cluster's objects as the diff holds them while the base renders: each object's
/// position and the fingerprint of its manifest, in position order, and whether the base has
/// matched it. 13 bytes an object, where a hash map's entry takes 17 to 34: at a million
/// objects the largest thing the second pass holds besides the base's fleet.
#[derive(Debug, Default)]
struct ClusterFingerprints {
    positions: Vec<u32>,
    fingerprints: Vec<u64>,
    matched: Vec<bool>,
}

impl ClusterFingerprints {
    fn push(&mut self, position: usize, fingerprint: u64) {
        let position = u32::try_from(position).expect("fewer than 2^32 objects in a fleet");
        self.positions.push(position);
        self.fingerprints.push(fingerprint);
    }

    /// Once every object is in: sorted by position (rendering goes in position order, so they
    /// already are), and no spare room kept.
    fn finish(&mut self) {
        if !self.positions.is_sorted() {
            let mut pairs: Vec<(u32, u64)> = self
                .positions
                .iter()
                .copied()
                .zip(self.fingerprints.iter().copied())
                .collect();
            pairs.sort_unstable();
            (self.positions, self.fingerprints) = pairs.into_iter().unzip();
        }
        self.positions.shrink_to_fit();
        self.fingerprints.shrink_to_fit();
        self.matched = vec![false; self.positions.len()];
    }

    /// The fingerprint of the object at `position`, which the base now matches; `None` when
    /// this cluster has none there (or it was matched already).
    fn take(&mut self, position: usize) -> Option<u64> {
        let at = self
            .positions
            .binary_search(&u32::try_from(position).ok()?)
            .ok()?;
        if std::mem::replace(&mut self.matched[at], true) {
            return None;
        }
        Some(self.fingerprints[at])
    }

    /// The positions the base did not match: objects new on this cluster.
    fn unmatched(self) -> impl Iterator<Item = usize> {
        self.positions
            .into_iter()
            .zip(self.matched)
            .filter(|(_, matched)| !matched)
            .map(|(position, _)| position as usize)
    }
}

/// Every variant of the rendered templates with its template's position and a fingerprint
/// of its manifest, fingerprinted in parallel.
fn fingerprinted<'r>(
    rendered: &'r [(usize, RenderedTemplate)],
    hashing: &RandomState,
) -> Vec<(usize, &'r Variant, u64)> {
    rendered
        .par_iter()
        .flat_map_iter(|(position, template)| {
            template
                .variants
                .iter()
                .map(move |variant| (*position, variant, hashing.hash_one(&variant.manifest)))
        })
        .collect()
}
