//! What a command prints on standard output and standard error, and the exit code it ends with:
//! a run's warnings and errors in the format asked for, a closed pipe that is no error.

use std::io::Write;

use fedrender_engine::diagnostics::{Rejected, printable};
use fedrender_engine::run::Outcome;

use crate::cli::RunArgs;
use crate::exit_code;
use crate::report::messages::{self, MessageFormat};

pub fn message_format(run: &RunArgs) -> MessageFormat {
    run.message_format
}

/// Prints the warnings, and the errors of a failed run with what was left untouched.
pub fn report<T>(outcome: Outcome<T>, run: &RunArgs, untouched: &str) -> Result<T, i32> {
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
