//! What a command prints on standard output and standard error, and the exit code it ends with:
//! a run's warnings and errors in the format asked for, a closed pipe that is no error.

use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};

use fedrender_engine::diagnostics::{Rejected, printable};
use fedrender_engine::run::Outcome;

use crate::cli::RunArgs;
use crate::exit_code;
use crate::report::messages::{self, MessageFormat};

pub fn message_format(run: &RunArgs) -> MessageFormat {
    run.message_format
}

/// How many warnings this run reported, for its closing summary. One process is one run, and
/// the summary is printed by whichever command ends it, long after `report`.
static WARNINGS_REPORTED: AtomicUsize = AtomicUsize::new(0);

/// Counts warnings a command printed itself (not through [`report`]) for the summary.
pub fn count_warnings(count: usize) {
    WARNINGS_REPORTED.fetch_add(count, Ordering::Relaxed);
}

/// Prints the warnings, and the errors of a failed run with what was left untouched.
pub fn report<T>(outcome: Outcome<T>, run: &RunArgs, untouched: &str) -> Result<T, i32> {
    let format = message_format(run);
    count_warnings(outcome.warnings.len());
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
        say_summary(
            &format!(
                "fedrender: {}; {}\n",
                plural(rejected.errors.len(), "error"),
                printable(left)
            ),
            rejected.errors.len(),
            format,
        );
        if let Some(signal) = rejected.interrupted_by {
            // Dying by the signal tells the shell or CI runner the build was stopped, not failed.
            crate::interrupt::end_by(signal);
        }
        exit_code::ERROR
    })
}

/// The errors of a run that ended before the fleet was read (the fleet's Config refused),
/// reported as a run's, ending with what was `untouched`: the exit code.
pub fn rejected(rejected: Rejected, run: &RunArgs, untouched: &str) -> i32 {
    let outcome: Outcome<()> = Outcome {
        result: Err(rejected),
        warnings: Vec::new(),
    };
    report(outcome, run, untouched).unwrap_err()
}

/// Writes to standard output; a reader that goes away (`| head`) is not an error.
pub fn write_stdout(text: &str, format: MessageFormat) -> i32 {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => exit_code::OK,
        Err(error) => stdout_error(&error, format),
    }
}

/// Writes text coloured with ANSI styles to standard output, keeping the colours only where
/// `choice` wants them (anstream strips them for a pipe, a file or `NO_COLOR`).
pub fn write_stdout_in_colour(
    text: &str,
    format: MessageFormat,
    choice: anstream::ColorChoice,
) -> i32 {
    let mut out = anstream::AutoStream::new(std::io::stdout().lock(), choice);
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => exit_code::OK,
        Err(error) => stdout_error(&error, format),
    }
}

/// A reader that goes away (`| head`) is not an error.
pub fn stdout_error(error: &std::io::Error, format: MessageFormat) -> i32 {
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

/// Writes to standard error, each message's level coloured as cargo colours it where standard
/// error is a terminal that wants colour (anstream reads `NO_COLOR`, `CLICOLOR_FORCE`,
/// `CLICOLOR` and `TERM`). Nothing is left to tell when standard error itself is gone
/// (`2>&1 | head`): the run goes on, and a build still finishes or rolls back, rather than
/// stopping wherever it was when a message could not be printed.
pub fn say(text: &str) {
    if !text.is_empty() {
        let painted = messages::painted_levels(text);
        let _ = anstream::stderr().lock().write_all(painted.as_bytes());
    }
}

/// Prints the line (or lines) that end a run. In the JSON format, standard error is a stream of
/// JSON objects and nothing else: the summary is its last object, `"level": "summary"`, with
/// the run's counts, the first line as `message` and any others as `lines`. Otherwise `text` as
/// it is: a caller whose text holds the fleet's names makes it inert first.
pub fn say_summary(text: &str, errors: usize, format: MessageFormat) {
    match format {
        MessageFormat::Json => {
            let mut lines = text.lines().map(|line| line.trim());
            let message = lines.next().unwrap_or_default();
            let summary = serde_json::json!({
                "level": "summary",
                "errors": errors,
                "warnings": WARNINGS_REPORTED.load(Ordering::Relaxed),
                "message": message,
                "lines": lines.collect::<Vec<_>>(),
            });
            say(&format!(
                "{}\n",
                crate::report::github::inert_json(summary.to_string())
            ));
        }
        _ => say(text),
    }
}

pub fn usage_error(message: &str, format: MessageFormat) -> i32 {
    say(&messages::error_text(message, format));
    exit_code::ERROR
}

pub fn plural(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}
