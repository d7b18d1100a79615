//! The comparison whole, as `fedrender diff` asks for it: the head run against a committed
//! output tree ([`against_tree`]) or against another input run too ([`against_base`]); the
//! changes the request hides taken out, each change's provenance in the head, and the danger
//! lints judged by the head's levels. The shell only says where the tree is
//! ([`RenderedTree`], as ripgrep's searcher writes to any `Sink` and kustomize reads any
//! `filesys.FileSystem`) and how to read each side.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::sync::Arc;

use rayon::prelude::*;

use super::change::{FleetDiff, Provenance};
use super::ignore::{self, IgnoreRule};
use super::objects::{FleetObjects, diff, replica_totals_over_tree};
use super::{danger, streamed, touched};
use crate::api::cluster::Cluster;
use crate::check;
use crate::diagnostics::Rejected;
use crate::object::ObjectKey;
use crate::output::{TreeFile, gitops};
use crate::progress::Stage;
use crate::render::{
    Placed,
    capacity::Capacity,
    plan::{Envelope, PlanEntry},
};
use crate::review_groups::ReviewGroups;
use crate::run::{self, Inputs, Options, Outcome, Run};

/// Templates rendered at a time by a diff: a quarter of a build's chunk, since a diff holds
/// what differs besides the chunk; at 2 to 64 cores still many templates per core.
pub const CHUNK: usize = run::CHUNK / 4;

/// What a diff is asked to show.
#[derive(Debug, Clone, Copy)]
pub struct Comparison<'a> {
    /// Show Secrets' values rather than markers.
    pub show_secrets: bool,
    /// Changes hidden (and counted) before anything reads the diff: they raise no finding
    /// either.
    pub ignores: &'a [IgnoreRule],
    /// Templates rendered at a time ([`CHUNK`] unless a test says otherwise).
    pub chunk: usize,
    /// What the head's Config relaxes against the base's ([`super::policy::relaxations`]):
    /// findings put first in the review, the head's lint levels applied.
    pub relaxed: &'a [danger::Finding],
}

/// A rendered output tree the head is compared with, `<cluster>/<path>` below its root; the
/// shell implements it over a directory that no link may lead out of.
pub trait RenderedTree: Sync {
    /// The bytes of the file at `path` (relative to the tree's root), `None` when there is
    /// none there.
    fn file(&self, path: &str) -> Result<Option<Vec<u8>>, Rejected>;

    /// The text of every YAML file below the clusters' directories (hidden entries skipped)
    /// that `skip` does not pass over, by path; files of the same text share it (the clusters
    /// of one variant hold the same file, and a change to a template is read on every one).
    fn files(&self, skip: &dyn Fn(&str) -> bool) -> Result<BTreeMap<String, Arc<str>>, Rejected>;

    /// The names of the directories at the tree's root.
    fn directories(&self) -> Result<Vec<String>, Rejected>;
}

/// `diff --against DIR` without holding either side whole: each rendered object of the head
/// is compared with the file at its path in `tree` and kept only when the bytes differ; then
/// only the files of `tree` that no object matched are read as objects (changed, removed or
/// moved ones), and the two remainders are compared object by object. A rendered tree does not
/// say what its policies were: no finding that needs them is raised.
pub fn against_tree(
    head: &Run<'_>,
    tree: &impl RenderedTree,
    comparison: &Comparison<'_>,
) -> Result<FleetDiff, Rejected> {
    let mut result = compare_with_tree(head, tree, comparison.chunk, comparison.show_secrets)?;
    ignore::hide(&mut result, comparison.ignores);
    // Nothing is explained whole (the plan of every template on every cluster is the largest
    // thing a run would hold): only the objects the diff shows, at the end.
    result.provenance = provenance(head.placed(), &result);
    result.findings = review(head, comparison.relaxed, &result, None);
    result.capacity = Some(head.placed().capacity());
    result.envelopes = Some(head.placed().envelopes());
    // A rendered tree has no Config: the groups are the fleet's own.
    let fleet = head.fleet();
    result.touched = touched::touched(&result, fleet.review.as_ref(), None, &fleet.clusters, &[]);
    Ok(result)
}

/// The head's objects compared with the files of `tree`, before anything is hidden.
fn compare_with_tree(
    run: &Run<'_>,
    tree: &impl RenderedTree,
    chunk: usize,
    show_secrets: bool,
) -> Result<FleetDiff, Rejected> {
    let head = run.placed();
    let layout = run.layout();
    let mut matched = Unchanged::new(layout.clusters().len(), head.object_count());
    let mut after = FleetObjects::default();
    head.render_chunks(chunk, |rendered| {
        let files: Vec<(TreeFile, &ObjectKey, &Arc<str>)> = rendered
            .iter()
            .flat_map(|(object, template)| {
                template.variants.iter().flat_map(move |variant| {
                    variant.clusters.iter().map(move |&cluster| {
                        let file = TreeFile::object(cluster, *object);
                        (file, &template.key, &variant.manifest)
                    })
                })
            })
            .collect();
        let unchanged: Vec<Result<bool, Rejected>> = files
            .par_iter()
            .map(|(file, _, text)| {
                let on_disk = tree.file(&layout.path(*file))?;
                Ok(on_disk.is_some_and(|bytes| bytes == text.as_bytes()))
            })
            .collect();
        for ((file, key, text), unchanged) in files.into_iter().zip(unchanged) {
            if unchanged? {
                matched.insert(file);
            } else {
                let cluster = &layout.clusters()[file.cluster()];
                after
                    .clusters
                    .entry(cluster.clone())
                    .or_default()
                    .insert(key.clone(), text.clone());
            }
        }
        Ok(())
    })?;
    // Clusters left out by --cluster are not compared: their files are neither read nor
    // reported as removed.
    let unmatched = tree.files(&|path| {
        let cluster = path.split_once('/').map_or(path, |(cluster, _)| cluster);
        // The GitOps wiring deploys the trees; it is not a cluster's.
        cluster == gitops::DIRECTORY
            || !layout.owns_top_level(cluster)
            || layout
                .file_at(path)
                .is_some_and(|file| matched.contains(&file))
    })?;
    let mut before = FleetObjects::from_files(unmatched)?;
    // An object found unchanged at its own path is deployed as rendered; another file in the
    // tree with the same object (a copy by hand, which no kustomization lists) does not make
    // it changed or removed.
    let positions = head.positions_by_key();
    for (cluster, objects) in &mut before.clusters {
        let Ok(cluster) = layout.clusters().binary_search(cluster) else {
            continue;
        };
        objects.retain(|key, _| {
            !positions
                .get(key)
                .is_some_and(|&position| matched.contains(&TreeFile::object(cluster, position)))
        });
    }
    let mut result = diff(&before, &after, show_secrets);
    // `before` and `after` hold only what differs: an object that scaled is counted again over
    // every cluster it is on, and which clusters come and go is known from the tree's
    // directories and the layout.
    replica_totals_over_tree(
        &mut result,
        head,
        &before,
        |cluster, position| matched.contains(&TreeFile::object(cluster, position)),
        chunk,
    )?;
    let on_disk: BTreeSet<String> = tree
        .directories()?
        .into_iter()
        .filter(|name| {
            !name.starts_with('.') && name != gitops::DIRECTORY && layout.owns_top_level(name)
        })
        .collect();
    result.clusters_added = layout
        .clusters()
        .iter()
        .filter(|cluster| !on_disk.contains(*cluster))
        .cloned()
        .collect();
    result.clusters_removed = on_disk
        .into_iter()
        .filter(|cluster| layout.clusters().binary_search(cluster).is_err())
        .filter(|cluster| result.clusters.contains_key(cluster))
        .collect();
    Ok(result)
}

/// The object files of a tree found as the head renders them: a bit for each object on each
/// cluster (a million files held as a set of their names took tens of MiB).
struct Unchanged {
    objects: usize,
    bits: Vec<u64>,
}

impl Unchanged {
    fn new(clusters: usize, objects: usize) -> Unchanged {
        Unchanged {
            objects,
            bits: vec![0; (clusters * objects).div_ceil(64)],
        }
    }

    fn bit(&self, file: TreeFile) -> Option<usize> {
        let object = file.object_position()?;
        Some(file.cluster() * self.objects + object)
    }

    fn insert(&mut self, file: TreeFile) {
        if let Some(bit) = self.bit(file) {
            self.bits[bit / 64] |= 1 << (bit % 64);
        }
    }

    /// Whether the object file was found unchanged; never for a kustomization.
    fn contains(&self, file: &TreeFile) -> bool {
        self.bit(*file)
            .is_some_and(|bit| self.bits[bit / 64] & (1 << (bit % 64)) != 0)
    }
}

/// `diff --base`, holding one fleet at a time (each is most of what a run holds): the head
/// read (`read_head`) and run for fingerprints, then the base (`read_base`) run and compared
/// with them, then the head read and run again for its text of what differs. Only the head is
/// checked against schemas: the base is what is deployed. The head's warnings are those of its
/// first pass (the second renders only what differs); the base's are marked `(base)`.
pub fn against_base(
    read_head: impl Fn() -> Result<Inputs, Rejected>,
    head_options: &Options,
    read_base: impl FnOnce() -> Result<Inputs, Rejected>,
    base_options: &Options,
    comparison: &Comparison<'_>,
) -> Outcome<FleetDiff> {
    compare_with_base(
        read_head,
        head_options,
        read_base,
        base_options,
        comparison,
        |head,
         mut result,
         (preserving, base_capacity, base_envelopes, (base_review, base_clusters))| {
            ignore::hide(&mut result, comparison.ignores);
            result.provenance = provenance(head.placed(), &result);
            result.findings = review(head, comparison.relaxed, &result, Some(preserving));
            result.capacity = Some(head.placed().capacity());
            result.base_capacity = Some(base_capacity);
            result.envelopes = Some(head.placed().envelopes());
            result.base_envelopes = Some(base_envelopes);
            let fleet = head.fleet();
            result.touched = touched::touched(
                &result,
                fleet.review.as_ref(),
                base_review.as_ref(),
                &fleet.clusters,
                &base_clusters,
            );
            Ok(result)
        },
    )
}

/// What the base's run says beside its objects: what it preserves on deletion, and what its
/// workloads ask of the clusters and quotas, the replica envelopes of its autoscaled ones, and
/// its Config's review groups with the inventory they are read over.
type BaseKnowledge = (
    BTreeMap<ObjectKey, danger::Preserving>,
    Capacity,
    BTreeMap<ObjectKey, Vec<Envelope>>,
    (Option<ReviewGroups>, Vec<Cluster>),
);

/// The three passes of [`against_base`], the diff handed to `then` with the head's run and
/// what the base preserves on deletion.
fn compare_with_base<T>(
    read_head: impl Fn() -> Result<Inputs, Rejected>,
    head_options: &Options,
    read_base: impl FnOnce() -> Result<Inputs, Rejected>,
    base_options: &Options,
    comparison: &Comparison<'_>,
    then: impl FnOnce(&Run<'_>, FleetDiff, BaseKnowledge) -> Result<T, Rejected>,
) -> Outcome<T> {
    let chunk = comparison.chunk;
    let first = read_and_run(&read_head, head_options, |head| {
        streamed::fingerprint_head(head.placed(), head.layout().clusters(), chunk)
    });
    let mut warnings = first.warnings;
    let head = match first.result {
        Ok(head) => head,
        Err(rejected) => {
            return Outcome {
                result: Err(rejected),
                warnings,
            };
        }
    };
    // What placed the base's templates (not their whole story) says whether their objects
    // were to be preserved. The base is what is deployed: what its API servers and Karmada's
    // quota webhook would refuse is not the change's to answer for.
    let mut base_allowed = check::LINTS.to_vec();
    base_allowed.push(crate::lint::Lint::QuotaExceeded);
    let base_options = Options {
        lints: base_options.lints.clone().allowing(&base_allowed),
        ..base_options.clone()
    };
    let base = read_and_run(read_base, &base_options, |base| {
        let compared =
            streamed::compare_base(head, base.placed(), base.layout().clusters(), chunk)?;
        let known = (
            preserving(base.placed()),
            base.placed().capacity(),
            base.placed().envelopes(),
            (base.fleet().review.clone(), base.fleet().clusters.clone()),
        );
        Ok((compared, known))
    });
    warnings.extend(base.warnings.into_iter().map(|mut warning| {
        warning.message = format!("(base) {}", warning.message);
        warning
    }));
    let result = base.result.and_then(|(compared, preserving)| {
        read_and_run(&read_head, head_options, |head| {
            let result = streamed::complete_with_head(
                compared,
                head.placed(),
                chunk,
                comparison.show_secrets,
            )?;
            then(head, result, preserving)
        })
        .result
    });
    Outcome { result, warnings }
}

/// One side read and run through the door.
fn read_and_run<T>(
    read: impl FnOnce() -> Result<Inputs, Rejected>,
    options: &Options,
    then: impl FnOnce(&mut Run<'_>) -> Result<T, Rejected>,
) -> Outcome<T> {
    options.progress.begin(Stage::Reading, 0);
    match read() {
        Ok(inputs) => run::run(inputs, options, then),
        Err(rejected) => Outcome::rejected(rejected),
    }
}

/// The danger lints of a diff, with the head's lint levels (the command line over the fleet's
/// Config) applied.
/// The base's templates whose objects Karmada keeps on the members when they are deleted, each
/// with the policy that says so and, where only some copies are kept, their clusters.
fn preserving(placed: &crate::render::Placed<'_>) -> BTreeMap<ObjectKey, danger::Preserving> {
    let mut only_on = placed.preserved_only_on();
    placed
        .preserved_on_deletion()
        .into_iter()
        .map(|(key, policy)| {
            let only_on = only_on
                .remove(&key)
                .map(|clusters| clusters.into_iter().collect());
            (key, danger::Preserving { policy, only_on })
        })
        .collect()
}

fn review(
    head: &Run<'_>,
    relaxed: &[danger::Finding],
    result: &FleetDiff,
    preserving: Option<BTreeMap<ObjectKey, danger::Preserving>>,
) -> Vec<danger::Finding> {
    let placed = head.placed();
    let fleet = head.fleet();
    let head_templates: HashMap<ObjectKey, Vec<String>> = placed
        .positions_by_key()
        .into_iter()
        .map(|(key, position)| (key.clone(), placed.placed_by(position)))
        .collect();
    let context = danger::ReviewContext {
        head_templates,
        hpa_targets: gitops::hpa_targets(&fleet.templates),
        replicas_written: (fleet.templates.iter())
            .filter(|template| {
                crate::json_pointer::pointer(&template.object, "/spec/replicas").is_some()
            })
            .map(|template| template.key.clone())
            .collect(),
        preserving,
    };
    let mut findings = danger::review(result, &context);
    if let Some(checker) = placed.checker() {
        let versions: HashMap<&str, check::KubernetesVersion> = fleet
            .clusters
            .iter()
            .enumerate()
            .map(|(position, cluster)| (cluster.name(), checker.version_of(position).version))
            .collect();
        findings.extend(danger::update_findings(checker, &versions, result));
    }
    let mut relaxed = relaxed.to_vec();
    relaxed.extend(findings);
    danger::apply_levels(&mut relaxed, head.levels());
    relaxed
}

/// Where each object the diff shows comes from, from the head's plan of those objects alone:
/// the template's file and line, what placed it, and the override policies applied on any
/// cluster.
fn provenance(head: &Placed<'_>, diff: &FleetDiff) -> BTreeMap<ObjectKey, Provenance> {
    let shown: HashSet<&ObjectKey> = diff
        .clusters
        .values()
        .flatten()
        .map(|change| &change.key)
        .collect();
    let positions = head.positions_by_key();
    let plan: Vec<PlanEntry> =
        head.explain_only(shown.iter().filter_map(|key| positions.get(key).copied()));
    plan.iter()
        .map(|entry| {
            let mut overridden_by: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
            for cluster in &entry.clusters {
                for rule in &cluster.overrides {
                    let policy = rule
                        .split_once(": ")
                        .map_or(rule.as_str(), |(policy, _)| policy);
                    overridden_by
                        .entry(policy.to_string())
                        .or_default()
                        .insert(cluster.name.clone());
                }
            }
            let provenance = Provenance {
                origin: entry.origin.to_string(),
                placed_by: entry.placed_by.clone(),
                overridden_by: overridden_by.into_iter().collect(),
                may_divide_otherwise_live: entry.may_divide_otherwise_live,
            };
            (entry.key.clone(), provenance)
        })
        .collect()
}
