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
    let sections = Sections::of(args.command.as_deref());
    let man = clap_mangen::Man::new(page.clone());
    let mut roff = Vec::new();
    let rendered = man
        .render_title(&mut roff)
        .and_then(|()| man.render_name_section(&mut roff))
        .and_then(|()| man.render_synopsis_section(&mut roff))
        .and_then(|()| man.render_description_section(&mut roff))
        .and_then(|()| man.render_options_section(&mut roff))
        .and_then(|()| match page.has_subcommands() {
            true => man.render_subcommands_section(&mut roff),
            false => Ok(()),
        })
        .and_then(|()| sections.render(&page, &mut roff))
        .and_then(|()| man.render_version_section(&mut roff));
    rendered.expect("writing into memory does not fail");
    write_stdout(&String::from_utf8_lossy(&roff), MessageFormat::Human)
}

/// What a manual page has beyond clap's sections: the lints (the commands' `--help` epilogue),
/// EXIT STATUS and EXAMPLES.
struct Sections {
    exit_status: &'static [(&'static str, &'static str)],
    examples: &'static [(&'static str, &'static str)],
}

const RENDER_ERROR: (&str, &str) = (
    "2",
    "Bad input or any other error, each printed with its file and line; nothing was written.",
);

impl Sections {
    fn of(command: Option<&str>) -> Self {
        let (exit_status, examples): (&[_], &[_]) = match command {
            None => (
                &[
                    ("0", "Success."),
                    ("1", "build --check and diff found differences."),
                    RENDER_ERROR,
                ],
                &[
                    (
                        "Render a fleet:",
                        "fedrender build fleet --clusters clusters.yaml --out rendered",
                    ),
                    (
                        "Review a change:",
                        "fedrender diff fleet --clusters clusters.yaml --base base/fleet",
                    ),
                ],
            ),
            Some("build") => (
                &[
                    ("0", "Rendered; with --check, the output is up to date."),
                    (
                        "1",
                        "With --check: the output is stale, missing or has extra files.",
                    ),
                    RENDER_ERROR,
                ],
                &[
                    (
                        "Render one tree per cluster:",
                        "fedrender build fleet --clusters clusters.yaml --out rendered",
                    ),
                    (
                        "Fail CI when the committed tree is stale:",
                        "fedrender build fleet --clusters clusters.yaml --out rendered --check",
                    ),
                    (
                        "One YAML stream:",
                        "fedrender build fleet --clusters clusters.yaml --stdout",
                    ),
                ],
            ),
            Some("diff") => (
                &[
                    ("0", "No differences."),
                    ("1", "Differences."),
                    (
                        "2",
                        "Bad input or another error, or a danger lint denied a finding (after the report).",
                    ),
                ],
                &[
                    (
                        "Against the base branch's fleet:",
                        "fedrender diff fleet --clusters clusters.yaml --base base/fleet",
                    ),
                    (
                        "The pull request comment:",
                        "fedrender diff fleet --clusters clusters.yaml --base base/fleet --format markdown",
                    ),
                    (
                        "Against the committed tree:",
                        "fedrender diff fleet --clusters clusters.yaml --against rendered",
                    ),
                ],
            ),
            Some("plan") => (
                &[("0", "Planned."), RENDER_ERROR],
                &[
                    (
                        "Why each template went where it went:",
                        "fedrender plan fleet --clusters clusters.yaml",
                    ),
                    (
                        "The objects × clusters matrix:",
                        "fedrender plan fleet --clusters clusters.yaml --format table",
                    ),
                ],
            ),
            Some("validate") => (
                &[("0", "Valid."), RENDER_ERROR],
                &[(
                    "Every check build makes, strictly:",
                    "fedrender validate fleet --clusters clusters.yaml --strict",
                )],
            ),
            Some("config") => (
                &[("0", "Printed."), RENDER_ERROR],
                &[(
                    "The settings a CI script needs, as JSON:",
                    "fedrender config fleet | jq .",
                )],
            ),
            Some("completions") => (
                &[("0", "Printed.")],
                &[(
                    "Bash:",
                    "fedrender completions bash > ~/.local/share/bash-completion/completions/fedrender",
                )],
            ),
            Some(_) => (
                &[("0", "Printed.")],
                &[("The page of build:", "fedrender man build | man -l -")],
            ),
        };
        Self {
            exit_status,
            examples,
        }
    }

    fn render(&self, page: &clap::Command, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        use clap_mangen::roff::{Roff, bold, roman};
        let mut roff = Roff::default();
        if let Some(lints) = page.get_after_long_help() {
            let mut lines = lints
                .to_string()
                .lines()
                .map(str::to_string)
                .collect::<Vec<_>>();
            let heading = lines.remove(0);
            roff.control("SH", ["LINTS"]).text([roman(heading)]);
            for line in lines {
                let (name, summary) = line.trim().split_once(' ').unwrap_or((line.trim(), ""));
                roff.control("TP", [])
                    .text([bold(name)])
                    .text([roman(summary.trim())]);
            }
        }
        roff.control("SH", ["EXIT STATUS"]);
        for (code, meaning) in self.exit_status {
            roff.control("TP", [])
                .text([bold(*code)])
                .text([roman(*meaning)]);
        }
        roff.control("SH", ["EXAMPLES"]);
        for (what, command) in self.examples {
            roff.control("TP", [])
                .text([roman(*what)])
                .text([bold(*command)]);
        }
        roff.to_writer(out)
    }
}
