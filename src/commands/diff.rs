//! `fedrender diff`: what a change does to the rendered fleet, object by object and cluster by
//! cluster, against a committed output tree (`--against`) or another input rendered too
//! (`--base`), with where each changed object comes from; as a unified diff, Markdown, JSON or
//! a summary.

use std::path::PathBuf;

use fedrender_engine::diagnostics::{Diagnostic, Origin, Severity};
use fedrender_engine::diff::ignore::IgnoreRule;
use fedrender_engine::diff::{self, Comparison, FindingLevel, FleetDiff};
use fedrender_engine::object::ObjectKey;
use fedrender_engine::run::{Options, Outcome};

use super::options::{confined, source};
use super::terminal::{
    count_warnings, message_format, rejected, report, say, say_summary, usage_error, write_stdout,
    write_stdout_in_colour,
};
use crate::cli::{Color, DiffArgs, DiffFormat};
use crate::exit_code;
use crate::report::diff as diff_report;
use crate::report::messages;
use crate::report::progress::Progress;
use crate::source::command_defaults::command_defaults;
use crate::source::fleet::{FleetSource, read_fleet, run_fleet};
use crate::source::rendered_tree::RenderedDirectory;

/// The flags become the head's options and the base (a rendered tree, or another input with its
/// own inventory); the change is printed in the format asked for, and the exit code says
/// whether there was one.
pub fn run(args: &DiffArgs) -> i32 {
    let input = &args.input;
    let format = message_format(&input.run);
    let defaults = match input.defaults() {
        Ok(defaults) => defaults,
        Err(refused) => return rejected(refused, &input.run, "nothing was compared"),
    };
    let (head, options) = match input.fleet_source_and_options_for(&args.clusters, &defaults) {
        Ok((head, options)) => (
            head,
            fedrender_engine::run::Options {
                moment: args.moment.moment(),
                ..options
            },
        ),
        Err(message) => return usage_error(&message, format),
    };
    // With --base, the base's Config: its lint levels and ignore rules are the review's.
    let mut base_defaults = None;
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
            let base_config = match command_defaults(base_input) {
                Ok(defaults) => defaults,
                Err(refused) => {
                    return rejected(refused, &input.run, "nothing was compared");
                }
            };
            let clusters = args
                .base_clusters
                .as_ref()
                .or(input.clusters.as_ref())
                .or(base_config.clusters.as_ref())
                .cloned();
            let clusters = clusters.as_ref();
            base_defaults = Some(base_config);
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
                Ok(source) => DiffBase::Input(Box::new(source)),
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
    let progress = Progress::start(
        input.run.quiet,
        input.run.verbose,
        "rendering",
        &options.progress,
        format,
    );
    // The Config hides what its team chose to (the report counts it by rule), and the flags
    // hide more. With --base the Config is the base's: levels and rules are policy, and the
    // pull request's changes to them are findings of their own, not in force (diff::policy).
    let (config_ignores, relaxed, options) = match &base_defaults {
        Some(base_config) => {
            let base_review = base_config
                .review
                .config
                .is_some()
                .then_some(&base_config.review);
            let relaxed =
                diff::policy::relaxations(&defaults.review, base_review, options.lints.strict);
            let options = Options {
                config_lints: Some(base_config.review.levels.clone()),
                ..options
            };
            (&base_config.diff_ignores, relaxed, options)
        }
        None => (&defaults.diff_ignores, Vec::new(), options),
    };
    let ignores: Vec<IgnoreRule> = config_ignores
        .iter()
        .chain(&args.ignore_field)
        .chain(&args.ignore_resource)
        .cloned()
        .collect();
    let outcome = diff(
        &head,
        &options,
        &base,
        args.show_secrets,
        &ignores,
        &relaxed,
    );
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
        DiffFormat::Json => crate::report::diff_json::json(&result, args.title.as_deref()),
        DiffFormat::Stat => messages::for_people(&diff_report::stat(&result), format).into_owned(),
        DiffFormat::Html => crate::report::html::html(&result, args.title.as_deref()),
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
        .filter(|finding| finding.level != FindingLevel::Note)
        .map(|finding| finding.diagnostic(template_origin(&result, &finding.key)))
        .collect();
    let (denied, warned): (Vec<Diagnostic>, Vec<Diagnostic>) = messages
        .into_iter()
        .partition(|message| message.severity == Severity::Error);
    count_warnings(warned.len());
    if !input.run.quiet {
        say(&messages::warnings_text(&warned, format, input.run.verbose));
    }
    if !denied.is_empty() {
        // As a denied lint fails `build`, a denied finding fails `diff` (exit 2); the report
        // is printed first, since a reviewer needs it most then.
        say(&messages::errors_text(&denied, format));
        let findings = if denied.len() == 1 {
            "1 danger finding".to_string()
        } else {
            format!("{} danger findings", denied.len())
        };
        say_summary(
            &format!(
                "fedrender: {findings} denied by a lint level; the report above is complete\n"
            ),
            denied.len(),
            format,
        );
        return exit_code::ERROR;
    }
    if result.is_empty() {
        exit_code::OK
    } else {
        exit_code::DIFFERENCES
    }
}

/// The template's file and line, from the provenance (`file:line`), for an annotation.
fn template_origin(result: &FleetDiff, key: &ObjectKey) -> Option<Origin> {
    let origin = &result.provenance.get(key)?.origin;
    let (file, line) = origin.rsplit_once(':')?;
    Some(Origin::new(file, 0, line.parse().ok()?))
}

/// What `fedrender diff` compares the fleet with.
#[derive(Debug, Clone)]
pub enum DiffBase {
    /// A committed output tree.
    Rendered(PathBuf),
    /// Another input (e.g. the target branch), rendered too, showing the head's clusters.
    Input(Box<FleetSource>),
}

/// `fedrender diff`: the change from the base to the fleet, object by object
/// ([`fedrender_engine::diff`] compares; this says where each side is read from).
/// Changes `ignores` name are hidden (and counted) before anything reads the diff: they raise no
/// finding either.
pub fn diff(
    head: &FleetSource,
    options: &Options,
    base: &DiffBase,
    show_secrets: bool,
    ignores: &[IgnoreRule],
    relaxed: &[diff::Finding],
) -> Outcome<FleetDiff> {
    let comparison = Comparison {
        show_secrets,
        ignores,
        chunk: diff::CHUNK,
        relaxed,
    };
    match base {
        DiffBase::Rendered(dir) => run_fleet(head, options, |run| {
            diff::against_tree(run, &RenderedDirectory::open(dir)?, &comparison)
        }),
        DiffBase::Input(base) => {
            // Both sides show the same clusters at the same moment of their autoscalers; the
            // base is judged by no other flag of the head's.
            let base_options = Options {
                clusters: options.clusters.clone(),
                progress: options.progress.clone(),
                moment: options.moment,
                ..Options::default()
            };
            diff::against_base(
                || read_fleet(head),
                options,
                || read_fleet(base),
                &base_options,
                &comparison,
            )
        }
    }
}
