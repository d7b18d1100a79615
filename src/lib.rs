//! fedrender renders a multi-cluster Kubernetes fleet offline: resource templates plus
//! Karmada propagation and override policies, against an inventory of member clusters, become
//! one manifest tree per cluster. The pipeline is Karmada's own:
//! load → classify → bind → schedule → override → work → emit.

// Printing for people and tools, above everything else.
pub mod report;

// Reading the fleet and running its tools; writing the trees.
pub mod emit;
pub mod source;

// Where paths lead, writes through directory handles, signals, exit codes.
pub mod beneath;
pub mod confine;
pub mod exit_code;
pub mod interrupt;

use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;
use std::time::Instant;

use fedrender_engine::{
    check, cluster_taints, diagnostics, diff, fleet, interpret, lint, object, output, progress,
    render,
};

use diagnostics::{Diagnostic, Rejected};
use emit::tree::{Mode, TreeChanges, TreeWriter};
use lint::LintLevels;
use object::ObjectKey;
use output::{OutputTree, TreeFile, TreeLayout};
use render::plan::PlanEntry;
use source::fleet::FleetSource;

#[derive(Debug, Clone)]
pub struct BuildOptions {
    pub source: FleetSource,
    pub out: PathBuf,
    pub lints: LintLevels,
    /// Also write the objects that deploy the trees (`--gitops`).
    pub gitops: Option<output::gitops::GitopsSettings>,
}

#[derive(Debug, Clone, Default)]
pub struct BuildReport {
    pub clusters: usize,
    pub objects: usize,
    pub written: usize,
    pub unchanged: usize,
    pub removed: usize,
    pub seconds: f64,
    /// Per directory of the output (a cluster, or the GitOps wiring) that changed: files
    /// written and removed.
    pub changed: std::collections::BTreeMap<String, (usize, usize)>,
}

/// A run's outcome with the warnings it produced, whether it succeeded or not.
#[derive(Debug)]
pub struct Outcome<T> {
    pub result: Result<T, Rejected>,
    pub warnings: Vec<Diagnostic>,
}

/// A fleet rendered in memory.
#[derive(Debug, Clone, Default)]
pub struct RenderedFleet {
    pub tree: OutputTree,
    /// Filled when the render was asked to explain itself.
    pub plan: Vec<PlanEntry>,
}

impl RenderedFleet {
    pub fn object_count(&self) -> usize {
        self.tree.object_count
    }
}

/// Reads and renders a fleet into memory (for `--stdout` and tests): every check
/// `build` makes, nothing written. A warning whose lint is denied is an error.
pub fn render_fleet(
    source: &FleetSource,
    lints: &LintLevels,
    explain: bool,
) -> Outcome<RenderedFleet> {
    with_placed(source, lints, explain, |placed, layout| {
        let tree = OutputTree::collect(&layout, &placed)?;
        Ok(RenderedFleet {
            tree,
            plan: placed.plan,
        })
    })
}

/// How `build --stdout` ended for standard output.
#[derive(Debug, Default)]
pub struct Streamed {
    /// Writing stopped here (a closed pipe, a full disk); rendering went on for its errors.
    pub write_error: Option<std::io::Error>,
}

/// `fedrender build --stdout`: every check `build` makes, each chunk of objects written to
/// `out` as soon as it is rendered ([`output::write_stream`] says in which order), so memory
/// holds one chunk, as a build's does. An error found while rendering ends the stream where it
/// is: on an error, what `out` received is incomplete.
pub fn stream_fleet(
    source: &FleetSource,
    lints: &LintLevels,
    out: &mut impl std::io::Write,
) -> Outcome<Streamed> {
    with_placed(source, lints, false, |placed, layout| {
        let mut streamed = Streamed::default();
        let order = layout.stream_order();
        progress::begin(progress::Stage::Rendering, order.len());
        placed.render_only(order, CHUNK, |rendered| {
            if streamed.write_error.is_none()
                && let Err(error) = output::write_stream(&layout, &rendered, out)
            {
                streamed.write_error = Some(error);
            }
            Ok(())
        })?;
        if streamed.write_error.is_none()
            && let Err(error) = out.flush()
        {
            streamed.write_error = Some(error);
        }
        Ok(streamed)
    })
}

/// A fleet rendered and checked, its objects counted and dropped.
#[derive(Debug, Clone, Default)]
pub struct FleetSummary {
    pub clusters: usize,
    /// The member clusters, sorted.
    pub cluster_names: Vec<String>,
    pub objects: usize,
    /// Why every template went where it went.
    pub plan: Vec<PlanEntry>,
    /// The sources a tool rendered, with what each ran.
    pub sources: Vec<fleet::SourceRun>,
    /// Operations of the fleet's interpreter customizations that only a live control plane
    /// runs.
    pub ignored_operations: Vec<interpret::customization::IgnoredOperations>,
    /// The taints ClusterTaintPolicies put on or took off clusters.
    pub taint_changes: Vec<cluster_taints::TaintChange>,
    /// The Kubernetes version each cluster's objects were checked against, by cluster name;
    /// empty when nothing was checked.
    pub kubernetes_versions: std::collections::BTreeMap<String, check::ClusterVersion>,
}

/// `fedrender validate` and `plan`: every check `build` makes, with the plan, holding no
/// rendered object longer than it takes to build it.
pub fn explain_fleet(source: &FleetSource, lints: &LintLevels) -> Outcome<FleetSummary> {
    with_placed(source, lints, true, |placed, layout| {
        placed.render_chunks(CHUNK, |_| Ok(()))?;
        Ok(FleetSummary {
            clusters: layout.clusters().len(),
            cluster_names: layout.clusters().to_vec(),
            objects: layout.object_count(),
            sources: placed.fleet().sources.clone(),
            ignored_operations: placed.fleet().interpreter.customizations().ignored.clone(),
            taint_changes: placed.fleet().taint_changes.clone(),
            kubernetes_versions: match placed.checker() {
                Some(checker) => (placed.fleet().clusters.iter().enumerate())
                    .filter(|(_, cluster)| layout.clusters().iter().any(|c| c == cluster.name()))
                    .map(|(position, cluster)| {
                        (cluster.name().to_string(), checker.version_of(position))
                    })
                    .collect(),
                None => Default::default(),
            },
            plan: placed.plan,
        })
    })
}

/// `diff --against DIR` without holding either side whole: each rendered object is compared
/// with the file at its path in `dir` and kept only when the bytes differ; then only the files
/// of `dir` that no object matched are read as objects (changed, removed or moved ones), and
/// the two remainders are compared object by object.
fn diff_against_tree(
    head: &render::Placed<'_>,
    layout: &TreeLayout,
    dir: &Path,
    chunk: usize,
    show_secrets: bool,
) -> Result<diff::FleetDiff, Rejected> {
    let tree = beneath::Directory::open(dir)
        .map_err(|error| Diagnostic::error(None, format!("{}: {error}", dir.display())))?
        .ok_or_else(|| Diagnostic::error(None, format!("{} is not a directory", dir.display())))?;
    let mut matched: HashSet<TreeFile> = HashSet::new();
    let mut after = diff::FleetObjects::default();
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
                let on_disk = source::load::read_rendered_file(&tree, &layout.path(*file))?;
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
    let unmatched = source::load::read_rendered_tree(dir, |path| {
        let cluster = path.split_once('/').map_or(path, |(cluster, _)| cluster);
        // The GitOps wiring deploys the trees; it is not a cluster's.
        cluster == output::gitops::DIRECTORY
            || !layout.owns_top_level(cluster)
            || layout
                .file_at(path)
                .is_some_and(|file| matched.contains(&file))
    })?;
    let mut before = diff::FleetObjects::from_files(&unmatched)?;
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
    let mut result = diff::diff(&before, &after, show_secrets);
    // `before` and `after` hold only what differs; which clusters come and go is known from
    // the tree's directories and the layout.
    let on_disk: BTreeSet<String> = std::fs::read_dir(dir)
        .map_err(|error| Diagnostic::error(None, format!("{}: {error}", dir.display())))?
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_ok_and(|kind| kind.is_dir()))
        .filter_map(|entry| entry.file_name().into_string().ok())
        .filter(|name| {
            !name.starts_with('.')
                && name != output::gitops::DIRECTORY
                && layout.owns_top_level(name)
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

/// How many templates render before their files are written. Memory holds one chunk's
/// objects; a chunk's files are written in path order, and a larger chunk gives longer runs
/// of files in one directory.
const CHUNK: usize = 1024;

/// Reads the fleet and places every template, then hands the placement and the output
/// layout to `then`. Every warning is known by then, so when a lint level denies one (it is an
/// error) nothing is rendered or written.
fn with_placed<T>(
    source: &FleetSource,
    lints: &LintLevels,
    explain: bool,
    then: impl FnOnce(render::Placed<'_>, TreeLayout) -> Result<T, Rejected>,
) -> Outcome<T> {
    let mut warnings = Vec::new();
    let result = (|| {
        progress::begin(progress::Stage::Reading, 0);
        let (fleet, read_warnings) = source::fleet::read_fleet(source)?;
        warnings.extend(read_warnings);
        progress::begin(progress::Stage::Placing, 0);
        let mut placed = render::place(&fleet, explain)?;
        warnings.append(&mut placed.warnings);
        let mut names: Vec<&str> = fleet.clusters.iter().map(|c| c.name()).collect();
        let filter = &source.cluster_filter;
        let kept = if filter.is_everything() {
            None
        } else {
            let kept = filter.select(&fleet.clusters).map_err(|problems| {
                Rejected::from(
                    problems
                        .into_iter()
                        .map(|problem| Diagnostic::error(None, problem))
                        .collect::<Vec<_>>(),
                )
            })?;
            placed.emit_only(&kept);
            names = names
                .into_iter()
                .zip(&kept)
                .filter_map(|(name, &keep)| keep.then_some(name))
                .collect();
            Some(kept)
        };
        let mut layout = TreeLayout::new(&names, placed.destinations())?;
        if kept.is_some() {
            layout = layout.partial();
        }
        let levels = lints.over(&fleet.lint_levels);
        let (kept, denied) = levels.apply(std::mem::take(&mut warnings));
        warnings = kept;
        if !denied.is_empty() {
            return Err(Rejected::from(denied));
        }
        placed.check_schemas(levels);
        let late = placed.late_warnings();
        let mut result = then(placed, layout);
        let mut late = std::mem::take(&mut *late.lock().unwrap_or_else(|p| p.into_inner()));
        source::files::locate_fields(&mut late);
        if let Err(rejected) = &mut result {
            source::files::locate_fields(&mut rejected.errors);
        }
        // Objects render in parallel: their warnings are put in a stable order.
        late.sort_by(|a, b| (&a.origin, &a.message).cmp(&(&b.origin, &b.message)));
        warnings.extend(late);
        result
    })();
    Outcome { result, warnings }
}

/// `fedrender build`: renders the fleet and brings the output trees up to date, streaming
/// each object to disk as it is rendered. On any error the output directory is left as it was.
pub fn build(options: &BuildOptions) -> Outcome<BuildReport> {
    let started = Instant::now();
    let Outcome { result, warnings } = write_trees(options, Mode::Write, CHUNK);
    let result = result.map(|(changes, layout)| {
        let mut changed: std::collections::BTreeMap<String, (usize, usize)> = Default::default();
        let top = |path: &str| path.split('/').next().unwrap_or(path).to_string();
        for &file in &changes.write {
            changed.entry(top(&layout.path(file))).or_default().0 += 1;
        }
        for path in &changes.remove {
            changed.entry(top(path)).or_default().1 += 1;
        }
        BuildReport {
            clusters: layout.clusters().len(),
            objects: layout.object_count(),
            written: changes.write.len(),
            unchanged: changes.unchanged,
            removed: changes.remove.len(),
            seconds: started.elapsed().as_secs_f64(),
            changed,
        }
    });
    Outcome { result, warnings }
}

/// `fedrender build --check`: what a build would change in `out`, changing nothing; the
/// layout names the files.
pub fn check(options: &BuildOptions) -> Outcome<(TreeChanges, TreeLayout)> {
    write_trees(options, Mode::Check, CHUNK)
}

fn write_trees(
    options: &BuildOptions,
    mode: Mode,
    chunk: usize,
) -> Outcome<(TreeChanges, TreeLayout)> {
    let input = &options.source.input;
    if let Err(rejected) = source::load::check_output_outside_input(input, &options.out) {
        return Outcome {
            result: Err(rejected),
            warnings: Vec::new(),
        };
    }
    with_placed(&options.source, &options.lints, false, |placed, layout| {
        let layout = match &options.gitops {
            Some(settings) => {
                layout.with_wiring(output::gitops::files(settings, &placed.fleet().clusters))
            }
            None => layout,
        };
        let write = || {
            let writer = TreeWriter::open(&options.out, &layout, mode)?;
            match placed.render_chunks(chunk, |chunk| writer.put(&chunk)) {
                Ok(()) => writer.commit(),
                Err(error) => {
                    writer.roll_back();
                    Err(error)
                }
            }
        };
        let changes = match mode {
            Mode::Write => interrupt::deferred(write)?,
            Mode::Check => write()?,
        };
        Ok((changes, layout))
    })
}

/// What `fedrender diff` compares the fleet with.
#[derive(Debug, Clone)]
pub enum DiffBase {
    /// A committed output tree.
    Rendered(PathBuf),
    /// Another input (e.g. the target branch), rendered too.
    Input(Box<FleetSource>),
}

/// `fedrender diff`: the change from the base to the fleet, object by object.
pub fn diff(
    head: &FleetSource,
    base: &DiffBase,
    lints: &LintLevels,
    show_secrets: bool,
) -> Outcome<diff::FleetDiff> {
    match base {
        DiffBase::Rendered(dir) => with_placed(head, lints, true, |head, layout| {
            let mut result = diff_against_tree(&head, &layout, dir, CHUNK, show_secrets)?;
            result.provenance = provenance(&head.plan, &result);
            Ok(result)
        }),
        DiffBase::Input(base_source) => {
            let mut base_warnings = Vec::new();
            let mut outcome = with_placed(head, lints, true, |head, head_layout| {
                // Only the head is checked against schemas: the base is what is deployed.
                let base = with_placed(
                    base_source,
                    &LintLevels::default().allowing(&check::LINTS),
                    false,
                    |base, base_layout| {
                        diff::diff_streamed(
                            &base,
                            base_layout.clusters(),
                            &head,
                            head_layout.clusters(),
                            CHUNK,
                            show_secrets,
                        )
                    },
                );
                base_warnings = base.warnings;
                let mut result = base.result?;
                result.provenance = provenance(&head.plan, &result);
                Ok(result)
            });
            outcome
                .warnings
                .extend(base_warnings.into_iter().map(|mut warning| {
                    warning.message = format!("(base) {}", warning.message);
                    warning
                }));
            outcome
        }
    }
}

/// Where each object the diff shows comes from, from the head's plan: the template's file and
/// line, what placed it, and the override policies applied on any cluster.
fn provenance(
    plan: &[PlanEntry],
    diff: &diff::FleetDiff,
) -> std::collections::BTreeMap<ObjectKey, diff::Provenance> {
    let shown: HashSet<&ObjectKey> = diff
        .clusters
        .values()
        .flatten()
        .map(|change| &change.key)
        .collect();
    plan.iter()
        .filter(|entry| shown.contains(&entry.key))
        .map(|entry| {
            let mut overridden_by: std::collections::BTreeMap<String, BTreeSet<String>> =
                std::collections::BTreeMap::new();
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
            let provenance = diff::Provenance {
                origin: entry.origin.to_string(),
                placed_by: entry.placed_by.clone(),
                overridden_by: overridden_by.into_iter().collect(),
            };
            (entry.key.clone(), provenance)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// Every file under `dir` with its bytes.
    fn files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
        let mut files: Vec<(PathBuf, Vec<u8>)> = walkdir::WalkDir::new(dir)
            .into_iter()
            .map(|entry| entry.unwrap())
            .filter(|entry| entry.file_type().is_file())
            .map(|entry| {
                let bytes = std::fs::read(entry.path()).unwrap();
                (entry.path().strip_prefix(dir).unwrap().to_path_buf(), bytes)
            })
            .collect();
        files.sort();
        files
    }

    #[test]
    fn the_chunk_size_does_not_change_a_byte_of_the_output() {
        let root = std::env::temp_dir().join(format!("fedrender-chunks-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let options = |out: &str| BuildOptions {
            source: FleetSource::new(
                PathBuf::from("examples/fleet"),
                source::fleet::Inventory::File(PathBuf::from("examples/clusters.yaml")),
            ),
            out: root.join(out),
            lints: LintLevels::default(),
            gitops: None,
        };
        let (one_chunk, _) = write_trees(&options("one-chunk"), Mode::Write, usize::MAX)
            .result
            .unwrap();
        let (per_template, _) = write_trees(&options("per-template"), Mode::Write, 1)
            .result
            .unwrap();
        assert!(one_chunk.write.len() > 10, "{one_chunk:?}");
        assert_eq!(one_chunk.write.len(), per_template.write.len());
        assert_eq!(
            files(&root.join("one-chunk")),
            files(&root.join("per-template"))
        );
        // A rebuild in chunks finds every file in place.
        let (again, _) = write_trees(&options("one-chunk"), Mode::Check, 2)
            .result
            .unwrap();
        assert!(again.is_empty(), "{again:?}");
        std::fs::remove_dir_all(&root).unwrap();
    }

    fn diff_side(side: &str) -> FleetSource {
        let dir = Path::new("testdata/diff").join(side);
        FleetSource::new(
            dir.join("input"),
            source::fleet::Inventory::File(dir.join("clusters.yaml")),
        )
    }

    /// The reference the streamed diffs must agree with: both sides rendered whole, compared
    /// object by object.
    fn diff_of_whole_renders() -> diff::FleetDiff {
        let whole = |side: &str| {
            let rendered = render_fleet(&diff_side(side), &LintLevels::default(), false)
                .result
                .unwrap();
            diff::FleetObjects::from_tree(&rendered.tree)
        };
        diff::diff(&whole("base"), &whole("head"), false)
    }

    #[test]
    fn the_streamed_diff_agrees_with_comparing_whole_renders_at_any_chunk_size() {
        let expected = diff_of_whole_renders();
        assert!(expected.clusters.len() > 1, "{expected:?}");
        for chunk in [1, 2, usize::MAX] {
            let streamed = with_placed(
                &diff_side("head"),
                &LintLevels::default(),
                false,
                |head, head_layout| {
                    with_placed(
                        &diff_side("base"),
                        &LintLevels::default(),
                        false,
                        |base, base_layout| {
                            diff::diff_streamed(
                                &base,
                                base_layout.clusters(),
                                &head,
                                head_layout.clusters(),
                                chunk,
                                false,
                            )
                        },
                    )
                    .result
                },
            );
            assert_eq!(streamed.result.unwrap(), expected, "chunk {chunk}");
        }
    }

    /// The diff's base side built into a fresh directory, as a committed output tree.
    fn committed_base(name: &str) -> PathBuf {
        let committed =
            std::env::temp_dir().join(format!("fedrender-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&committed);
        let options = BuildOptions {
            source: diff_side("base"),
            out: committed.clone(),
            lints: LintLevels::default(),
            gitops: None,
        };
        build(&options).result.unwrap();
        committed
    }

    #[test]
    fn the_streamed_diff_against_a_rendered_tree_agrees_with_comparing_whole_renders() {
        let expected = diff_of_whole_renders();
        let committed = committed_base("against");
        for chunk in [1, usize::MAX] {
            let streamed = with_placed(
                &diff_side("head"),
                &LintLevels::default(),
                false,
                |head, layout| diff_against_tree(&head, &layout, &committed, chunk, false),
            );
            assert_eq!(streamed.result.unwrap(), expected, "chunk {chunk}");
        }
        std::fs::remove_dir_all(&committed).unwrap();
    }

    #[test]
    fn a_hand_made_copy_in_a_rendered_tree_does_not_hide_the_object_at_its_path() {
        let committed = committed_base("copy");
        let original = walkdir::WalkDir::new(&committed)
            .into_iter()
            .map(|entry| entry.unwrap().into_path())
            .find(|path| path.to_string_lossy().contains("/configmap_"))
            .expect("the base renders a ConfigMap");
        let text = std::fs::read_to_string(&original).unwrap();
        let copy = original.with_file_name("zz-copy.yaml");
        std::fs::write(&copy, format!("{text}extra: \"1\"\n")).unwrap();
        let compared = with_placed(
            &diff_side("base"),
            &LintLevels::default(),
            false,
            |base, layout| diff_against_tree(&base, &layout, &committed, CHUNK, false),
        );
        let changes = compared.result.unwrap();
        assert!(changes.is_empty(), "{changes:?}");
        std::fs::remove_dir_all(&committed).unwrap();
    }
}
