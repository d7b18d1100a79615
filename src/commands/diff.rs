//! `fedrender diff`: what a change does to the rendered fleet, object by object and cluster by
//! cluster, against a committed output tree (`--against`) or another input rendered too
//! (`--base`), with where each changed object comes from; as a unified diff, Markdown, JSON or
//! a summary.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;

use fedrender_engine::check;
use fedrender_engine::diagnostics::{Diagnostic, Rejected};
use fedrender_engine::diff::ignore::{self, IgnoreRule};
use fedrender_engine::diff::{self, danger};
use fedrender_engine::lint::LintLevels;
use fedrender_engine::object::ObjectKey;
use fedrender_engine::output::{self, TreeFile, TreeLayout};
use fedrender_engine::render::{self, plan::PlanEntry};

use super::options::{confined, source};
use super::terminal::{
    message_format, report, say, usage_error, write_stdout, write_stdout_in_colour,
};
use crate::beneath;
use crate::cli::{Color, DiffArgs, DiffFormat};
use crate::exit_code;
use crate::pipeline::{Outcome, with_placed};
use crate::report::diff as diff_report;
use crate::report::messages;
use crate::report::progress::Progress;
use crate::source::command_defaults::command_defaults;
use crate::source::fleet::FleetSource;

/// The flags become the head's options and the base (a rendered tree, or another input with its
/// own inventory); the change is printed in the format asked for, and the exit code says
/// whether there was one.
pub fn run(args: &DiffArgs) -> i32 {
    let input = &args.input;
    let format = message_format(&input.run);
    let defaults = match input.defaults() {
        Ok(defaults) => defaults,
        Err(message) => return usage_error(&message, format),
    };
    let (head, lints) = match input.fleet_source_and_lints_for(&args.clusters, &defaults) {
        Ok(checked) => checked,
        Err(message) => return usage_error(&message, format),
    };
    let base = match (&args.against, &args.base) {
        (Some(dir), _) => {
            if let Err(message) = confined("--against", dir) {
                return usage_error(&message, format);
            }
            DiffBase::Rendered(dir.clone())
        }
        (None, Some(base_input)) => {
            let reads_stdin = |path: &std::path::Path| path.as_os_str() == "-";
            if reads_stdin(base_input)
                && (reads_stdin(&input.input)
                    || input.clusters.as_deref().is_some_and(reads_stdin)
                    || args.base_clusters.as_deref().is_some_and(reads_stdin))
            {
                return usage_error(
                    "standard input can be read once: only one of FLEET_DIR, --base and the inventories may be -",
                    format,
                );
            }
            // Without flags, the base's inventory is what its own Config names.
            let base_defaults = match command_defaults(base_input) {
                Ok(defaults) => defaults,
                Err(rejected) => {
                    say(&messages::errors_text(&rejected.errors, format));
                    return exit_code::ERROR;
                }
            };
            let clusters = args
                .base_clusters
                .as_ref()
                .or(input.clusters.as_ref())
                .or(base_defaults.clusters.as_ref());
            if clusters.is_some_and(|path| path.as_os_str() == "-") && args.base_clusters.is_none()
            {
                return usage_error(
                    "--clusters - reads standard input once; give the base its own --base-clusters FILE",
                    format,
                );
            }
            // The base shares the head's tool cache: a source unchanged between them runs once.
            match source(
                base_input,
                clusters,
                &input.include,
                &input.exclude,
                head.tools.clone(),
            ) {
                // Both sides show the same clusters.
                Ok(source) => DiffBase::Input(Box::new(FleetSource {
                    cluster_filter: head.cluster_filter.clone(),
                    ..source
                })),
                Err(message) => return usage_error(&message, format),
            }
        }
        (None, None) => {
            return usage_error(
                "diff needs --against RENDERED_DIR or --base BASE_INPUT",
                format,
            );
        }
    };
    let progress = Progress::start(input.run.quiet, input.run.verbose, "rendering");
    // The head's Config hides what its team chose to (the report counts it by rule), and the
    // flags hide more.
    let ignores: Vec<IgnoreRule> = defaults
        .diff_ignores
        .iter()
        .chain(&args.ignore_field)
        .chain(&args.ignore_resource)
        .cloned()
        .collect();
    let outcome = diff(&head, &base, &lints, args.show_secrets, &ignores);
    progress.finish();
    let result = match report(outcome, &input.run, "nothing was compared") {
        Ok(result) => result,
        Err(code) => return code,
    };
    let color = match args.color {
        Color::Always => anstream::ColorChoice::Always,
        Color::Never => anstream::ColorChoice::Never,
        // A terminal that wants colour: `NO_COLOR`, `CLICOLOR_FORCE`, `CLICOLOR`, `TERM=dumb`.
        Color::Auto => anstream::ColorChoice::Auto,
    };
    // The forms for people are wrapped for a GitHub Actions log; Markdown and JSON are for
    // files and tools, and are printed as they are.
    let text = match args.format {
        DiffFormat::Unified => {
            messages::for_people(&diff_report::unified(&result), format).into_owned()
        }
        DiffFormat::Markdown => {
            diff_report::markdown(&result, args.max_bytes, args.title.as_deref())
        }
        DiffFormat::Json => diff_report::json(&result, args.title.as_deref()),
        DiffFormat::Stat => messages::for_people(&diff_report::stat(&result), format).into_owned(),
    };
    let written = match args.format {
        DiffFormat::Unified => write_stdout_in_colour(&text, format, color),
        _ => write_stdout(&text, format),
    };
    if written != exit_code::OK {
        return written;
    }
    // The findings as messages, after the report: a log shows them, the Action annotates them.
    let messages: Vec<Diagnostic> = result
        .findings
        .iter()
        .filter(|finding| finding.level != danger::FindingLevel::Note)
        .map(|finding| finding.diagnostic(template_origin(&result, &finding.key)))
        .collect();
    let (denied, warned): (Vec<Diagnostic>, Vec<Diagnostic>) = messages
        .into_iter()
        .partition(|message| message.severity == fedrender_engine::diagnostics::Severity::Error);
    if !input.run.quiet {
        say(&messages::warnings_text(&warned, format, input.run.verbose));
    }
    if !denied.is_empty() {
        // As a denied lint fails `build`, a denied finding fails `diff` (exit 2); the report
        // is printed first, since a reviewer needs it most then.
        say(&messages::errors_text(&denied, format));
        say(&format!(
            "fedrender: {} denied by a lint level; the report above is complete\n",
            if denied.len() == 1 {
                "1 danger finding".to_string()
            } else {
                format!("{} danger findings", denied.len())
            }
        ));
        return exit_code::ERROR;
    }
    if result.is_empty() {
        exit_code::OK
    } else {
        exit_code::DIFFERENCES
    }
}

/// The template's file and line, from the provenance (`file:line`), for an annotation.
fn template_origin(
    result: &diff::FleetDiff,
    key: &ObjectKey,
) -> Option<fedrender_engine::diagnostics::Origin> {
    let origin = &result.provenance.get(key)?.origin;
    let (file, line) = origin.rsplit_once(':')?;
    Some(fedrender_engine::diagnostics::Origin::new(
        file,
        0,
        line.parse().ok()?,
    ))
}

/// Templates rendered at a time by `diff`: a quarter of `build`'s chunk, since a diff holds what
/// differs besides the chunk; at 2 to 64 cores still many templates per core.
const CHUNK: usize = crate::pipeline::CHUNK / 4;

/// What `fedrender diff` compares the fleet with.
#[derive(Debug, Clone)]
pub enum DiffBase {
    /// A committed output tree.
    Rendered(PathBuf),
    /// Another input (e.g. the target branch), rendered too.
    Input(Box<FleetSource>),
}

/// `fedrender diff`: the change from the base to the fleet, object by object.
/// Changes `ignores` name are hidden (and counted) before anything reads the diff: they raise no
/// finding either.
pub fn diff(
    head: &FleetSource,
    base: &DiffBase,
    lints: &LintLevels,
    show_secrets: bool,
    ignores: &[IgnoreRule],
) -> Outcome<diff::FleetDiff> {
    match base {
        // Nothing is explained whole (the plan of every template on every cluster is the
        // largest thing a run would hold): only the objects the diff shows, at the end.
        DiffBase::Rendered(dir) => with_placed(head, lints, false, |head, layout| {
            let mut result = diff_against_tree(&head, &layout, dir, CHUNK, show_secrets)?;
            ignore::hide(&mut result, ignores);
            result.provenance = provenance(&head, &result);
            // A rendered tree does not say what its policies were.
            result.findings = review(&head, &result, None, lints);
            Ok(result)
        }),
        DiffBase::Input(base_source) => diff_against_input(
            head,
            base_source,
            lints,
            CHUNK,
            show_secrets,
            |head, mut result, preserving| {
                ignore::hide(&mut result, ignores);
                result.provenance = provenance(head, &result);
                result.findings = review(head, &result, Some(preserving), lints);
                Ok(result)
            },
        ),
    }
}

/// `diff --base`, holding one fleet at a time (each is most of what a run holds): the head
/// placed and reduced to fingerprints, then the base placed and compared with them, then the
/// head placed again for its text of what differs, and handed to `then` with the diff and what
/// the base preserves on deletion. The head's warnings are those of its first pass (the
/// second renders only what differs).
fn diff_against_input<T>(
    head_source: &FleetSource,
    base_source: &FleetSource,
    lints: &LintLevels,
    chunk: usize,
    show_secrets: bool,
    then: impl FnOnce(
        &render::Placed<'_>,
        diff::FleetDiff,
        BTreeMap<ObjectKey, String>,
    ) -> Result<T, Rejected>,
) -> Outcome<T> {
    let first = with_placed(head_source, lints, false, |head, layout| {
        diff::streamed::fingerprint_head(&head, layout.clusters(), chunk)
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
    // Only the head is checked against schemas: the base is what is deployed. What placed the
    // base's templates (not their whole story) says whether their objects were to be preserved.
    let base = with_placed(
        base_source,
        &LintLevels::default().allowing(&check::LINTS),
        false,
        |base, layout| {
            let compared = diff::streamed::compare_base(head, &base, layout.clusters(), chunk)?;
            Ok((compared, preserving(&base)))
        },
    );
    warnings.extend(base.warnings.into_iter().map(|mut warning| {
        warning.message = format!("(base) {}", warning.message);
        warning
    }));
    let result = base.result.and_then(|(compared, preserving)| {
        with_placed(head_source, lints, false, |head, _| {
            let result = diff::streamed::complete_with_head(compared, &head, chunk, show_secrets)?;
            then(&head, result, preserving)
        })
        .result
    });
    Outcome { result, warnings }
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
                let on_disk = crate::source::load::read_rendered_file(&tree, &layout.path(*file))?;
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
    let unmatched = crate::source::load::read_rendered_tree(dir, |path| {
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
    // `before` and `after` hold only what differs: an object that scaled is counted again over
    // every cluster it is on, and which clusters come and go is known from the tree's
    // directories and the layout.
    diff::replica_totals_over_tree(
        &mut result,
        head,
        &before,
        |cluster, position| matched.contains(&TreeFile::object(cluster, position)),
        chunk,
    )?;
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

/// The danger lints of a diff, with the head's lint levels (the command line over the fleet's
/// Config) applied.
fn review(
    head: &render::Placed<'_>,
    result: &diff::FleetDiff,
    preserving: Option<BTreeMap<ObjectKey, String>>,
    lints: &LintLevels,
) -> Vec<danger::Finding> {
    let fleet = head.fleet();
    let head_templates: HashMap<ObjectKey, Vec<String>> = head
        .positions_by_key()
        .into_iter()
        .map(|(key, position)| (key.clone(), head.placed_by(position)))
        .collect();
    let context = danger::ReviewContext {
        head_templates,
        hpa_targets: output::gitops::hpa_targets(&fleet.templates),
        preserving,
    };
    let mut findings = danger::review(result, &context);
    findings.extend(transition_findings(head, result));
    danger::apply_levels(&mut findings, &lints.over(&fleet.lint_levels));
    findings
}

/// The CRDs' transition rules (those reading `oldSelf`), which a build cannot judge, judged on
/// each changed custom resource with the base's object as the old one: one finding per rule's
/// failure at a field, with the clusters it fails on.
fn transition_findings(
    head: &render::Placed<'_>,
    result: &diff::FleetDiff,
) -> Vec<danger::Finding> {
    let Some(checker) = head.checker() else {
        return Vec::new();
    };
    let mut failing: BTreeMap<(ObjectKey, String), Vec<String>> = BTreeMap::new();
    for (cluster, changes) in &result.clusters {
        for change in changes {
            if change.kind != diff::ChangeKind::Changed {
                continue;
            }
            let (Some(old), Some(new)) = (
                diff::parse_object(&change.before),
                diff::parse_object(&change.after),
            ) else {
                continue;
            };
            for finding in checker.check_transition(&old, &new) {
                let message = format!(
                    "{}: {} (a transition rule of its CRD, judged on the change from the base)",
                    finding.path, finding.problem
                );
                failing
                    .entry((change.key.clone(), message))
                    .or_default()
                    .push(cluster.clone());
            }
        }
    }
    failing
        .into_iter()
        .map(|((key, message), clusters)| danger::Finding {
            lint: fedrender_engine::lint::Lint::SchemaInvalid,
            key,
            clusters,
            message,
            argo_cd: "the sync fails: the API server refuses the update".to_string(),
            flux: "the Kustomization fails to apply and stops there".to_string(),
            fix: "keep what the rule protects as it is, or recreate the object if the change is meant".to_string(),
            escaped_by: None,
            level: diff::FindingLevel::Warning,
        })
        .collect()
}

/// The base's templates Karmada keeps on the members when they are deleted
/// (`preserveResourcesOnDeletion`, their own policy's or a dependant's), with what makes it so.
fn preserving(base: &render::Placed<'_>) -> BTreeMap<ObjectKey, String> {
    base.preserved_on_deletion()
}

/// Where each object the diff shows comes from, from the head's plan of those objects alone:
/// the template's file and line, what placed it, and the override policies applied on any
/// cluster.
fn provenance(
    head: &render::Placed<'_>,
    diff: &diff::FleetDiff,
) -> std::collections::BTreeMap<ObjectKey, diff::Provenance> {
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
    use crate::commands::build::{BuildOptions, build};
    use crate::pipeline::render_fleet;

    fn diff_side(side: &str) -> FleetSource {
        let dir = Path::new("testdata/diff").join(side);
        FleetSource::new(
            dir.join("input"),
            crate::source::fleet::Inventory::File(dir.join("clusters.yaml")),
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
            let streamed = diff_against_input(
                &diff_side("head"),
                &diff_side("base"),
                &LintLevels::default(),
                chunk,
                false,
                |_, result, _| Ok(result),
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
