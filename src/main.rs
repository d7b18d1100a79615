//! Thin: parse the command line, call the library, print diagnostics and results, map to an
//! exit code.

mod cli;

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use clap::{CommandFactory, Parser};

use cli::{Cli, Color, Command, DiffFormat, PlanFormat, RunArgs};
use fedrender::report::messages::{self, MessageFormat};
use fedrender::report::progress::Progress;
use fedrender::report::{diff as diff_report, plan as plan_report};
use fedrender::{DiffBase, Outcome, exit_code};
use fedrender_engine::diagnostics::{Rejected, printable};

/// The render allocates many small values per object on every core; mimalloc's per-thread
/// heaps keep glibc malloc's locking and consolidation (a fifth of a rebuild's profile) away.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let code = match cli.command {
        Command::Build(args) => {
            let run = &args.input.run;
            with_threads(run.jobs, || build(&args))
        }
        Command::Diff(args) => with_threads(args.input.run.jobs, || diff(&args)),
        Command::Plan(args) => with_threads(args.input.run.jobs, || plan(&args)),
        Command::Validate(args) => with_threads(args.input.run.jobs, || validate(&args)),
        Command::Completions(args) => {
            let mut script = Vec::new();
            clap_complete::generate(args.shell, &mut Cli::command(), "fedrender", &mut script);
            write_stdout(&String::from_utf8_lossy(&script), MessageFormat::Human)
        }
    };
    ExitCode::from(code as u8)
}

fn build(args: &cli::BuildArgs) -> i32 {
    let input = &args.input;
    let format = message_format(&input.run);
    let checked = input.defaults().and_then(|defaults| {
        let (source, lints) = input.fleet_source_and_lints_for(&args.clusters, &defaults)?;
        let out = args.output(&defaults)?;
        let gitops = args.gitops_settings(&defaults)?;
        Ok((source, lints, out, gitops))
    });
    let (source, lints, out, gitops) = match checked {
        Ok(checked) => checked,
        Err(message) => return usage_error(&message, format),
    };
    let progress = Progress::start(input.run.quiet, input.run.verbose, "rendering");
    if args.stdout {
        let stdout = std::io::stdout();
        let mut out = CountingWriter::new(std::io::BufWriter::new(stdout.lock()));
        let outcome = fedrender::stream_fleet(&source, &lints, &mut out);
        progress.finish();
        let left = if out.written == 0 {
            "nothing was written"
        } else {
            "standard output holds part of the render: discard it"
        };
        return match report(outcome, &input.run, left) {
            Ok(streamed) => match streamed.write_error {
                Some(error) => stdout_error(&error, format),
                None => exit_code::OK,
            },
            Err(code) => code,
        };
    }
    let out = out.expect("an output directory unless --stdout");
    let options = fedrender::BuildOptions {
        source,
        out: out.clone(),
        lints,
        gitops,
    };
    if args.check {
        let outcome = fedrender::check(&options);
        progress.finish();
        let unchanged = format!("{} was left unchanged", out.display());
        return match report(outcome, &input.run, &unchanged) {
            Ok((changes, _)) if changes.is_empty() => {
                if !input.run.quiet {
                    say(&format!(
                        "{} is up to date ({} files)\n",
                        printable(&out.to_string_lossy()),
                        changes.unchanged
                    ));
                }
                exit_code::OK
            }
            Ok((changes, layout)) => {
                // The names of files found in the output directory are the pull request's.
                let mut listed = String::new();
                for path in &changes.write_paths(&layout) {
                    let state = if out.join(path).exists() {
                        "stale"
                    } else {
                        "missing"
                    };
                    let path = out.join(path);
                    listed.push_str(&format!(
                        "{state}: {}\n",
                        printable(&path.to_string_lossy())
                    ));
                }
                for path in &changes.remove {
                    let path = out.join(path);
                    listed.push_str(&format!("extra: {}\n", printable(&path.to_string_lossy())));
                }
                let written = write_stdout(&messages::for_people(&listed, format), format);
                say(&format!(
                    "{} is out of date: {} to write, {} to remove; run fedrender build\n",
                    printable(&out.to_string_lossy()),
                    changes.write.len(),
                    changes.remove.len()
                ));
                // A reader that went away changes nothing: the tree is out of date.
                if written == exit_code::OK {
                    exit_code::DIFFERENCES
                } else {
                    written
                }
            }
            Err(code) => code,
        };
    }
    let outcome = fedrender::build(&options);
    progress.finish();
    let unchanged = format!("{} was left unchanged", out.display());
    match report(outcome, &input.run, &unchanged) {
        Ok(report) => {
            if !input.run.quiet {
                let summary = format!(
                    "rendered {} for {} into {}: {} written, {} unchanged, {} removed in {:.2}s\n{}",
                    plural(report.objects, "object"),
                    plural(report.clusters, "cluster"),
                    printable(&out.to_string_lossy()),
                    report.written,
                    report.unchanged,
                    report.removed,
                    report.seconds,
                    changed_directories(&report.changed, input.run.verbose)
                );
                say(&messages::for_people(&summary, format));
            }
            exit_code::OK
        }
        Err(code) => code,
    }
}

fn diff(args: &cli::DiffArgs) -> i32 {
    let input = &args.input;
    let format = message_format(&input.run);
    let (head, lints) = match input
        .defaults()
        .and_then(|defaults| input.fleet_source_and_lints_for(&args.clusters, &defaults))
    {
        Ok(checked) => checked,
        Err(message) => return usage_error(&message, format),
    };
    let base = match (&args.against, &args.base) {
        (Some(dir), _) => {
            if let Err(message) = cli::confined("--against", dir) {
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
            let base_defaults =
                match fedrender::source::command_defaults::command_defaults(base_input) {
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
            match cli::source(
                base_input,
                clusters,
                &input.include,
                &input.exclude,
                head.tools.clone(),
            ) {
                // Both sides show the same clusters.
                Ok(source) => DiffBase::Input(Box::new(fedrender::source::fleet::FleetSource {
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
    let outcome = fedrender::diff(&head, &base, &lints, args.show_secrets);
    progress.finish();
    let result = match report(outcome, &input.run, "nothing was compared") {
        Ok(result) => result,
        Err(code) => return code,
    };
    let color = match args.color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
    };
    // The forms for people are wrapped for a GitHub Actions log; Markdown and JSON are for
    // files and tools, and are printed as they are.
    let text = match args.format {
        DiffFormat::Unified => {
            messages::for_people(&diff_report::unified(&result, color), format).into_owned()
        }
        DiffFormat::Markdown => {
            diff_report::markdown(&result, args.max_bytes, args.title.as_deref())
        }
        DiffFormat::Json => diff_report::json(&result, args.title.as_deref()),
        DiffFormat::Stat => messages::for_people(&diff_report::stat(&result), format).into_owned(),
    };
    let written = write_stdout(&text, format);
    if written != exit_code::OK {
        return written;
    }
    if result.is_empty() {
        exit_code::OK
    } else {
        exit_code::DIFFERENCES
    }
}

fn plan(args: &cli::PlanArgs) -> i32 {
    let input = &args.input;
    let format = message_format(&input.run);
    let (source, lints) = match input
        .defaults()
        .and_then(|defaults| input.fleet_source_and_lints_for(&args.clusters, &defaults))
    {
        Ok(checked) => checked,
        Err(message) => return usage_error(&message, format),
    };
    let outcome = fedrender::explain_fleet(&source, &lints);
    let rendered = match report(outcome, &input.run, "nothing was planned") {
        Ok(rendered) => rendered,
        Err(code) => return code,
    };
    let filter = plan_report::PlanFilter {
        clusters: (!source.cluster_filter.is_everything()).then(|| rendered.cluster_names.clone()),
        kind: args.kind.clone(),
        name: args.name.clone(),
    };
    let problems = filter.unknown_values(&rendered.plan);
    if !problems.is_empty() {
        for problem in &problems {
            say(&messages::error_text(problem, format));
        }
        return exit_code::ERROR;
    }
    let text = match args.format {
        PlanFormat::Text => {
            messages::for_people(&plan_report::text(&rendered, &filter), format).into_owned()
        }
        PlanFormat::Json => plan_report::json(&rendered, &filter),
    };
    write_stdout(&text, format)
}

fn validate(args: &cli::ValidateArgs) -> i32 {
    let input = &args.input;
    let (source, lints) = match input.fleet_source_and_lints() {
        Ok(checked) => checked,
        Err(message) => return usage_error(&message, message_format(&input.run)),
    };
    let outcome = fedrender::explain_fleet(&source, &lints);
    let warnings = outcome.warnings.len();
    match report(outcome, &input.run, "nothing was written") {
        Ok(summary) => {
            if !input.run.quiet {
                say(&format!(
                    "valid: {} for {}, {}\n",
                    plural(summary.objects, "object"),
                    plural(summary.clusters, "cluster"),
                    plural(warnings, "warning")
                ));
            }
            exit_code::OK
        }
        Err(code) => code,
    }
}

/// How many directories of a build's summary are listed before the rest are counted.
const CHANGED_SHOWN: usize = 10;

/// The closing summary's lines: what changed in each directory, the first few (all with
/// `--verbose`), so a CI log says which clusters a commit touched.
fn changed_directories(changed: &BTreeMap<String, (usize, usize)>, verbose: bool) -> String {
    let mut text = String::new();
    for (directory, (written, removed)) in
        changed
            .iter()
            .take(if verbose { usize::MAX } else { CHANGED_SHOWN })
    {
        text.push_str(&format!(
            "  {}: {written} written, {removed} removed\n",
            printable(directory)
        ));
    }
    if !verbose && changed.len() > CHANGED_SHOWN {
        text.push_str(&format!(
            "  … and {} more directories changed (--verbose lists every one)\n",
            changed.len() - CHANGED_SHOWN
        ));
    }
    text
}

fn message_format(run: &RunArgs) -> MessageFormat {
    match run.message_format {
        cli::MessageFormat::Human => MessageFormat::Human,
        cli::MessageFormat::Json => MessageFormat::Json,
        cli::MessageFormat::Github => MessageFormat::Github,
    }
}

/// Prints the warnings, and the errors of a failed run with what was left untouched.
fn report<T>(outcome: Outcome<T>, run: &RunArgs, untouched: &str) -> Result<T, i32> {
    let format = message_format(run);
    if !run.quiet {
        say(&messages::warnings_text(
            &outcome.warnings,
            format,
            run.verbose,
        ));
    }
    outcome.result.map_err(|rejected: Rejected| {
        say(&messages::errors_text(&rejected.errors, format));
        let left = if rejected.output_partly_updated {
            "the output directory is partly updated: run the build again"
        } else {
            untouched
        };
        say(&format!(
            "fedrender: {}; {}\n",
            plural(rejected.errors.len(), "error"),
            printable(left)
        ));
        if let Some(signal) = rejected.interrupted_by {
            // Dying by the signal tells the shell or CI runner the build was stopped, not failed.
            fedrender::interrupt::end_by(signal);
        }
        exit_code::ERROR
    })
}

/// A writer that counts what it passed on, to tell whether a failed stream printed anything.
struct CountingWriter<W> {
    inner: W,
    written: u64,
}

impl<W: Write> CountingWriter<W> {
    fn new(inner: W) -> Self {
        CountingWriter { inner, written: 0 }
    }
}

impl<W: Write> Write for CountingWriter<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let written = self.inner.write(buf)?;
        self.written += written as u64;
        Ok(written)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// Writes to standard output; a reader that goes away (`| head`) is not an error.
fn write_stdout(text: &str, format: MessageFormat) -> i32 {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => exit_code::OK,
        Err(error) => stdout_error(&error, format),
    }
}

/// A reader that goes away (`| head`) is not an error.
fn stdout_error(error: &std::io::Error, format: MessageFormat) -> i32 {
    if error.kind() == std::io::ErrorKind::BrokenPipe {
        exit_code::OK
    } else {
        say(&messages::error_text(
            &format!("cannot write to standard output: {error}"),
            format,
        ));
        exit_code::ERROR
    }
}

/// Writes to standard error. Nothing is left to tell when standard error itself is gone
/// (`2>&1 | head`): the run goes on, and a build still finishes or rolls back, rather than
/// stopping wherever it was when a message could not be printed.
fn say(text: &str) {
    if !text.is_empty() {
        let _ = std::io::stderr().lock().write_all(text.as_bytes());
    }
}

/// Stack of each worker thread. Parsing a document nested to the loader's limit (256 levels)
/// takes about 6 MiB of stack in a debug build, 1 MiB optimised; the default 2 MiB is too
/// little.
const WORKER_STACK: usize = 16 << 20;

fn with_threads(jobs: Option<usize>, run: impl FnOnce() -> i32 + Send) -> i32 {
    // Zero threads is rayon's default: one per core.
    let threads = jobs.unwrap_or(0);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(WORKER_STACK)
        .build();
    match pool {
        Ok(pool) => pool.install(run),
        Err(error) => usage_error(&format!("--jobs {threads}: {error}"), MessageFormat::Human),
    }
}

fn usage_error(message: &str, format: MessageFormat) -> i32 {
    say(&messages::error_text(message, format));
    exit_code::ERROR
}

fn plural(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_closing_summary_lists_the_first_directories_and_counts_the_rest() {
        let changed: BTreeMap<String, (usize, usize)> = (0..12)
            .map(|index| (format!("c{index:02}"), (index, 1)))
            .collect();
        let text = changed_directories(&changed, false);
        assert_eq!(text.lines().count(), 11, "{text}");
        assert!(text.starts_with("  c00: 0 written, 1 removed\n"), "{text}");
        assert!(
            text.ends_with("  … and 2 more directories changed (--verbose lists every one)\n"),
            "{text}"
        );
        assert_eq!(changed_directories(&changed, true).lines().count(), 12);
    }
}
