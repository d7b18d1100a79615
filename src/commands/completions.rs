//! `fedrender completions SHELL` and `fedrender man [COMMAND]`: the shell's completion script
//! and the manual pages, from the command line's own definition.

use clap::CommandFactory;

use super::terminal::write_stdout;
use crate::cli::{Cli, CompletionsArgs, ManArgs};
use crate::report::messages::MessageFormat;

/// Prints the completion script for `args.shell`.
pub fn run(args: &CompletionsArgs) -> i32 {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "fedrender", &mut script);
    write_stdout(&String::from_utf8_lossy(&script), MessageFormat::Human)
}

/// Prints fedrender(1), or fedrender-COMMAND(1) for `args.command`.
pub fn man_page(args: &ManArgs) -> i32 {
    let mut command = Cli::command();
    // Built, so that each command is named `fedrender-build` as its page is.
    command.build();
    let page = match &args.command {
        None => command,
        Some(name) => command
            .find_subcommand(name)
            .expect("clap allows only the commands there are")
            .clone()
            .version(env!("CARGO_PKG_VERSION")),
    };
    let mut roff = Vec::new();
    clap_mangen::Man::new(page)
        .render(&mut roff)
        .expect("writing into memory does not fail");
    write_stdout(&String::from_utf8_lossy(&roff), MessageFormat::Human)
}
