//! Thin: parse the command line, call the library, print diagnostics, map to an exit code.

mod cli;

use std::process::ExitCode;

use clap::Parser;

use cli::{Cli, Command};
use fedrender::diagnostics::Diagnostic;
use fedrender::exit_code;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let code = match cli.command {
        Command::Build(args) => run_build(args),
    };
    ExitCode::from(code as u8)
}

fn run_build(args: cli::BuildArgs) -> i32 {
    let input = &args.input;
    let skip = vec![args.out.clone()];
    let source = match input.fleet_source(skip) {
        Ok(source) => source,
        Err(message) => return usage_error(&message),
    };
    let options = fedrender::BuildOptions {
        source,
        out: args.out.clone(),
        strict: input.strict,
    };
    let outcome = with_threads(input.jobs, || fedrender::build(&options));
    print_warnings(&outcome.warnings, input.quiet);
    match outcome.result {
        Ok(report) => {
            if !input.quiet {
                eprintln!(
                    "rendered {} for {} into {}: {} written, {} unchanged, {} removed in {:.2}s",
                    plural(report.objects, "object"),
                    plural(report.clusters, "cluster"),
                    args.out.display(),
                    report.written,
                    report.unchanged,
                    report.removed,
                    report.seconds
                );
            }
            exit_code::OK
        }
        Err(rejected) => {
            eprintln!("{rejected}");
            eprintln!(
                "fedrender: {} error(s); {} was left unchanged",
                rejected.errors.len(),
                args.out.display()
            );
            exit_code::ERROR
        }
    }
}

fn with_threads<T: Send>(jobs: Option<usize>, run: impl FnOnce() -> T + Send) -> T {
    match jobs {
        Some(threads) => match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(pool) => pool.install(run),
            Err(_) => run(),
        },
        None => run(),
    }
}

fn print_warnings(warnings: &[Diagnostic], quiet: bool) {
    if quiet {
        return;
    }
    for warning in warnings {
        eprintln!("{warning}");
    }
}

fn usage_error(message: &str) -> i32 {
    eprintln!("error: {message}");
    exit_code::ERROR
}

fn plural(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}
