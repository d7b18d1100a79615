//! Thin: parse the command line, run the command, exit with its code.

use std::process::ExitCode;

use clap::Parser;

use fedrender::cli::Cli;
use fedrender::commands;

/// The render allocates many small values per object on every core; mimalloc's per-thread
/// heaps keep glibc malloc's locking and consolidation (a fifth of a rebuild's profile) away.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let code = commands::run(cli.command);
    ExitCode::from(code as u8)
}
