//! `fedrender completions SHELL`: the shell's completion script, from the command line's own
//! definition.

use clap::CommandFactory;

use super::terminal::write_stdout;
use crate::cli::{Cli, CompletionsArgs};
use crate::report::messages::MessageFormat;

/// Prints the completion script for `args.shell`.
pub fn run(args: &CompletionsArgs) -> i32 {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "fedrender", &mut script);
    write_stdout(&String::from_utf8_lossy(&script), MessageFormat::Human)
}
