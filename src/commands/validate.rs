//! `fedrender validate`: every check `build` makes, nothing written; a line counting what was
//! checked.

use super::terminal::{message_format, plural, rejected, report, say_summary, usage_error};
use crate::cli::ValidateArgs;
use crate::exit_code;
use crate::source::fleet::run_fleet;

/// The flags become the options; every check runs, and one line says what was checked.
pub fn run(args: &ValidateArgs) -> i32 {
    let input = &args.input;
    let defaults = match input.defaults() {
        Ok(defaults) => defaults,
        Err(refused) => return rejected(refused, &input.run, "nothing was written"),
    };
    let (source, options) = match input.fleet_source_and_options(&defaults) {
        Ok(checked) => checked,
        Err(message) => return usage_error(&message, message_format(&input.run)),
    };
    let outcome = run_fleet(&source, &options, |run| run.summary());
    let warnings = outcome.warnings.len();
    match report(outcome, &input.run, "nothing was written") {
        Ok(summary) => {
            if !input.run.quiet {
                let valid = format!(
                    "valid: {} for {}, {}\n",
                    plural(summary.objects, "object"),
                    plural(summary.clusters, "cluster"),
                    plural(warnings, "warning")
                );
                say_summary(&valid, 0, message_format(&input.run));
            }
            exit_code::OK
        }
        Err(code) => code,
    }
}
