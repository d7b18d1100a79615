//! One file per command, each its own story from the flags to the exit code: [`build`],
//! [`diff`], [`plan`], [`validate`], [`config`], [`completions`]. What they share: the flags validated into
//! options ([`options`]), and what they print and the code they exit with ([`terminal`]).

pub mod build;
pub mod completions;
pub mod config;
pub mod diff;
pub mod options;
pub mod plan;
pub mod terminal;
pub mod validate;

use crate::cli::Command;
use crate::report::messages::MessageFormat;

/// Runs a command on a pool of worker threads (`--jobs`), and returns its exit code.
pub fn run(command: Command) -> i32 {
    match command {
        Command::Build(args) => with_threads(args.input.run.jobs, || build::run(&args)),
        Command::Diff(args) => with_threads(args.input.run.jobs, || diff::run(&args)),
        Command::Plan(args) => with_threads(args.input.run.jobs, || plan::run(&args)),
        Command::Validate(args) => with_threads(args.input.run.jobs, || validate::run(&args)),
        Command::Config(args) => config::run(&args),
        Command::Completions(args) => completions::run(&args),
        Command::Man(args) => completions::man_page(&args),
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
        Err(error) => {
            terminal::usage_error(&format!("--jobs {threads}: {error}"), MessageFormat::Human)
        }
    }
}
