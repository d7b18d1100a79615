//! `fedrender build`: the fleet rendered into one directory per member cluster, brought up to
//! date file by file as each object is rendered (or, `--check`, compared with it; `--stdout`,
//! written as one YAML stream), then a summary of what changed.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use fedrender_engine::diagnostics::printable;
use fedrender_engine::output::TreeLayout;
use fedrender_engine::output::gitops::GitopsSettings;
use fedrender_engine::run::{CHUNK, Options, Outcome};

use super::terminal::{
    message_format, plural, rejected, report, say_summary, stdout_error, usage_error, write_stdout,
};
use crate::cli::BuildArgs;
use crate::emit::tree::{Mode, TreeChanges, TreeWriter};
use crate::exit_code;
use crate::interrupt;
use crate::report::messages;
use crate::report::progress::Progress;
use crate::source::fleet::{FleetSource, run_fleet};

/// The flags and the fleet's Config become the options; then the fleet is streamed (`--stdout`),
/// compared with the output directory (`--check`) or built into it, and the outcome printed.
pub fn run(args: &BuildArgs) -> i32 {
    let input = &args.input;
    let format = message_format(&input.run);
    let defaults = match input.defaults() {
        Ok(defaults) => defaults,
        Err(refused) => {
            let untouched = match (&args.out, args.stdout) {
                (Some(out), false) => format!("{} was left unchanged", out.display()),
                _ => "nothing was written".to_string(),
            };
            return rejected(refused, &input.run, &untouched);
        }
    };
    let checked = (|| {
        let (source, mut options) =
            input.fleet_source_and_options_for(&args.clusters, &defaults)?;
        options.moment = args.moment.moment();
        let out = args.output(&defaults)?;
        let gitops = args.gitops_settings(&defaults)?;
        Ok::<_, String>((source, options, out, gitops))
    })();
    let (source, options, out, gitops) = match checked {
        Ok(checked) => checked,
        Err(message) => return usage_error(&message, format),
    };
    let progress = Progress::start(
        input.run.quiet,
        input.run.verbose,
        "rendering",
        &options.progress,
        format,
    );
    if args.stdout {
        let stdout = std::io::stdout();
        let mut out = CountingWriter::new(std::io::BufWriter::new(stdout.lock()));
        let outcome = stream_fleet(&source, &options, &mut out);
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
    let options = BuildOptions {
        source,
        out: out.clone(),
        options,
        gitops,
    };
    if args.check {
        let outcome = check(&options);
        progress.finish();
        let unchanged = format!("{} was left unchanged", out.display());
        return match report(outcome, &input.run, &unchanged) {
            Ok((changes, _)) if changes.is_empty() => {
                if !input.run.quiet {
                    let up_to_date = format!(
                        "{} is up to date ({} files)\n",
                        printable(&out.to_string_lossy()),
                        changes.unchanged
                    );
                    say_summary(&up_to_date, 0, format);
                }
                exit_code::OK
            }
            Ok((changes, write_paths)) => {
                // The names of files found in the output directory are the pull request's.
                let mut listed = String::new();
                for path in &write_paths {
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
                let out_of_date = format!(
                    "{} is out of date: {} to write, {} to remove; run fedrender build\n",
                    printable(&out.to_string_lossy()),
                    changes.write.len(),
                    changes.remove.len()
                );
                say_summary(&out_of_date, 0, format);
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
    let outcome = build(&options);
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
                say_summary(&messages::for_people(&summary, format), 0, format);
            }
            exit_code::OK
        }
        Err(code) => code,
    }
}

#[derive(Debug, Clone)]
pub struct BuildOptions {
    pub source: FleetSource,
    pub out: PathBuf,
    /// The engine's options: lint levels, clusters emitted, versions.
    pub options: Options,
    /// Also write the objects that deploy the trees (`--gitops`).
    pub gitops: Option<GitopsSettings>,
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

/// `fedrender build`: renders the fleet and brings the output trees up to date, streaming
/// each object to disk as it is rendered. On any error the output directory is left as it was.
pub fn build(options: &BuildOptions) -> Outcome<BuildReport> {
    let started = Instant::now();
    write_trees(options, Mode::Write, CHUNK, |changes, layout| {
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
    })
}

/// `fedrender build --check`: what a build would change in `out`, changing nothing, with the
/// paths of the files to write.
pub fn check(options: &BuildOptions) -> Outcome<(TreeChanges, Vec<String>)> {
    write_trees(options, Mode::Check, CHUNK, |changes, layout| {
        let paths = changes.write_paths(layout);
        (changes, paths)
    })
}

/// Renders the fleet into `options.out` (or compares it, `Mode::Check`), `chunk` templates at a
/// time, and hands the changes with the layout to `then`.
fn write_trees<T>(
    options: &BuildOptions,
    mode: Mode,
    chunk: usize,
    then: impl FnOnce(TreeChanges, &TreeLayout) -> T,
) -> Outcome<T> {
    let input = &options.source.input;
    if let Err(rejected) = crate::source::load::check_output_outside_input(input, &options.out) {
        return Outcome::rejected(rejected);
    }
    run_fleet(&options.source, &options.options, |run| {
        if let Some(settings) = &options.gitops {
            run.with_gitops(settings)?;
        }
        let layout = run.layout();
        let write = || {
            let writer = TreeWriter::open(&options.out, layout, mode)?
                .recording_in(options.options.progress.clone());
            match run.render(chunk, |chunk| writer.put(&chunk)) {
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
        Ok(then(changes, layout))
    })
}

/// How `build --stdout` ended for standard output.
#[derive(Debug, Default)]
pub struct Streamed {
    /// Writing stopped here (a closed pipe, a full disk); rendering went on for its errors.
    pub write_error: Option<std::io::Error>,
}

/// `fedrender build --stdout`: every check `build` makes, each chunk of objects written to
/// `out` as soon as it is rendered ([`fedrender_engine::run::Run::stream`]), so memory holds one
/// chunk, as a build's does. An error found while rendering ends the stream where it is: on an
/// error, what `out` received is incomplete.
pub fn stream_fleet(
    source: &FleetSource,
    options: &Options,
    out: &mut impl std::io::Write,
) -> Outcome<Streamed> {
    run_fleet(source, options, |run| {
        Ok(Streamed {
            write_error: run.stream(CHUNK, out)?,
        })
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
                crate::source::fleet::Inventory::File(PathBuf::from("examples/clusters.yaml")),
            ),
            out: root.join(out),
            options: Options::default(),
            gitops: None,
        };
        let changes = |changes, _: &TreeLayout| changes;
        let one_chunk = write_trees(&options("one-chunk"), Mode::Write, usize::MAX, changes)
            .result
            .unwrap();
        let per_template = write_trees(&options("per-template"), Mode::Write, 1, changes)
            .result
            .unwrap();
        assert!(one_chunk.write.len() > 10, "{one_chunk:?}");
        assert_eq!(one_chunk.write.len(), per_template.write.len());
        assert_eq!(
            files(&root.join("one-chunk")),
            files(&root.join("per-template"))
        );
        // A rebuild in chunks finds every file in place.
        let again = write_trees(&options("one-chunk"), Mode::Check, 2, changes)
            .result
            .unwrap();
        assert!(again.is_empty(), "{again:?}");
        std::fs::remove_dir_all(&root).unwrap();
    }

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
