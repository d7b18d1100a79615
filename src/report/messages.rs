//! Errors and warnings as the user asked for them: text grouped by lint for a terminal, one JSON
//! object per line for tools, or GitHub Actions workflow commands that annotate a pull request's
//! lines.

use std::collections::BTreeMap;
use std::fmt::Write;

use serde_json::json;

use crate::report::github;
use fedrender_engine::diagnostics::{Diagnostic, Severity, printable_lines};
use fedrender_engine::lint::Lint;

/// How errors and warnings are printed on standard error (`--message-format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum MessageFormat {
    /// Grouped by lint, with a count per lint at the end.
    Human,
    /// One JSON object per line and diagnostic.
    Json,
    /// GitHub Actions workflow commands, shown on the pull request's lines.
    Github,
}

/// How many warnings of one lint the human format shows; the rest are counted.
pub const SHOWN_PER_LINT: usize = 5;

/// How many errors, and how many warnings, one run prints at most; the rest are counted. A
/// fleet can hold a million findings (a pull request can write them on purpose), and a CI log or
/// a terminal takes no more than a reader can use.
pub const SHOWN_PER_RUN: usize = 1_000;

/// The text for a run's warnings, each line ending in a newline; empty without warnings.
/// Humans get the first [`SHOWN_PER_LINT`] of each lint (all with `verbose`) and a count per
/// lint at the end; the other formats list the first [`SHOWN_PER_RUN`] and count the rest.
pub fn warnings_text(warnings: &[Diagnostic], format: MessageFormat, verbose: bool) -> String {
    let mut text = String::new();
    if format != MessageFormat::Human {
        for warning in warnings.iter().take(SHOWN_PER_RUN) {
            writeln!(text, "{}", one_message(warning, format)).unwrap();
        }
        left_out(&mut text, warnings.len(), Severity::Warning, format);
        return text;
    }
    let mut counts: BTreeMap<Lint, usize> = BTreeMap::new();
    for warning in warnings {
        let seen = match warning.lint {
            Some(lint) => {
                let count = counts.entry(lint).or_default();
                *count += 1;
                *count
            }
            None => 1,
        };
        if verbose || seen <= SHOWN_PER_LINT {
            writeln!(text, "{warning}").unwrap();
        }
    }
    if counts.is_empty() {
        return text;
    }
    let mut by_count: Vec<(Lint, usize)> = counts.into_iter().collect();
    by_count.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    if !verbose {
        for &(lint, count) in &by_count {
            if count > SHOWN_PER_LINT {
                writeln!(
                    text,
                    "warning: … and {} more {lint} warnings (--verbose shows every one)",
                    count - SHOWN_PER_LINT
                )
                .unwrap();
            }
        }
    }
    let total: usize = by_count.iter().map(|(_, count)| count).sum();
    let per_lint: Vec<String> = by_count
        .iter()
        .map(|(lint, count)| format!("{count} {lint}"))
        .collect();
    writeln!(
        text,
        "fedrender: {total} {} ({}); --deny LINT makes a lint an error, --allow LINT silences it",
        if total == 1 { "warning" } else { "warnings" },
        per_lint.join(", ")
    )
    .unwrap();
    text
}

/// The text for a failed run's errors, each line ending in a newline: the first
/// [`SHOWN_PER_RUN`], and a count of the rest.
pub fn errors_text(errors: &[Diagnostic], format: MessageFormat) -> String {
    let mut text = String::new();
    for error in errors.iter().take(SHOWN_PER_RUN) {
        match format {
            MessageFormat::Human => writeln!(text, "{error}").unwrap(),
            _ => writeln!(text, "{}", one_message(error, format)).unwrap(),
        }
    }
    left_out(&mut text, errors.len(), Severity::Error, format);
    text
}

/// Says how many of `total` messages past [`SHOWN_PER_RUN`] were not printed, in `format`.
fn left_out(text: &mut String, total: usize, severity: Severity, format: MessageFormat) {
    let Some(more) = total.checked_sub(SHOWN_PER_RUN).filter(|&more| more > 0) else {
        return;
    };
    let noun = match (severity, more) {
        (Severity::Error, 1) => "error",
        (Severity::Error, _) => "errors",
        (Severity::Warning, 1) => "warning",
        (Severity::Warning, _) => "warnings",
    };
    let note = format!("… and {more} more {noun}, not shown (a run prints {SHOWN_PER_RUN})");
    let summary = Diagnostic {
        severity,
        ..Diagnostic::error(None, note)
    };
    let line = match format {
        MessageFormat::Human => format!("{}: {}", noun.trim_end_matches('s'), summary.message),
        _ => one_message(&summary, format),
    };
    writeln!(text, "{line}").unwrap();
}

fn one_message(diagnostic: &Diagnostic, format: MessageFormat) -> String {
    let level = match diagnostic.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    let about = diagnostic.about();
    match format {
        MessageFormat::Human => diagnostic.to_string(),
        MessageFormat::Json => crate::report::github::inert_json(
            json!({
                "level": level,
                "name": diagnostic.lint.map(Lint::name),
                "message": diagnostic.message,
                "file": diagnostic.origin.as_ref().map(|origin| origin.file.to_string()),
                "line": diagnostic.origin.as_ref().map(|origin| origin.line),
                "column": about.column,
                "object": about.object,
                "cluster": about.cluster,
                // Every message about clusters lists them, also one about a single cluster.
                "clusters": if about.clusters.is_empty() {
                    about.cluster.iter().cloned().collect()
                } else {
                    about.clusters.clone()
                },
                "field": about.field,
                "detail": diagnostic.detail,
            })
            .to_string(),
        ),
        MessageFormat::Github => {
            let line;
            let column;
            let mut properties = Vec::new();
            if let Some(origin) = &diagnostic.origin {
                properties.push(("file", &*origin.file));
                line = origin.line.to_string();
                properties.push(("line", &line));
                if let Some(at) = about.column {
                    column = at.to_string();
                    properties.push(("col", &column));
                }
            }
            let title = match diagnostic.lint {
                Some(lint) => format!("fedrender {lint}"),
                None => "fedrender".to_string(),
            };
            properties.push(("title", &title));
            github::command(
                level,
                &properties,
                &diagnostic.message,
                diagnostic.detail.as_deref(),
            )
        }
    }
}

/// A message that is not about the fleet's contents alone (a flag, standard output), as an
/// error in `format`. Its lines are kept as lines: the text may be several errors, one a
/// line.
pub fn error_text(message: &str, format: MessageFormat) -> String {
    match format {
        MessageFormat::Human => format!("error: {}\n", printable_lines(message)),
        _ => errors_text(&[Diagnostic::error(None, message)], format),
    }
}

/// `text` with the level that opens each human message (`error:`, `warning:`) styled: bold red
/// and bold yellow, as cargo and rustc style theirs. Lines of the other formats open with `{`
/// or `::` and are left as they are.
pub fn painted_levels(text: &str) -> std::borrow::Cow<'_, str> {
    use anstyle::{AnsiColor, Style};
    let levels: [(&str, Style); 2] = [
        ("error:", AnsiColor::Red.on_default().bold()),
        ("warning:", AnsiColor::Yellow.on_default().bold()),
    ];
    let opens_with_a_level = |line: &str| levels.iter().any(|(level, _)| line.starts_with(level));
    if !text.split_inclusive('\n').any(opens_with_a_level) {
        return text.into();
    }
    let mut painted = String::with_capacity(text.len() + 64);
    for line in text.split_inclusive('\n') {
        match levels.iter().find(|(level, _)| line.starts_with(level)) {
            Some((level, style)) => {
                let word = level.trim_end_matches(':');
                write!(painted, "{style}{word}{style:#}{}", &line[word.len()..]).unwrap();
            }
            None => painted.push_str(line),
        }
    }
    painted.into()
}

/// Text for people printed where `format` says: in a GitHub Actions log ([`MessageFormat::Github`])
/// between stop-commands markers, since it holds names from the fleet ([`github::inert`]);
/// elsewhere as it is.
pub fn for_people(text: &str, format: MessageFormat) -> std::borrow::Cow<'_, str> {
    match format {
        MessageFormat::Github => github::inert(text).into(),
        _ => text.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fedrender_engine::diagnostics::Origin;

    fn unknown_cluster(index: usize) -> Diagnostic {
        Diagnostic::warning(
            Lint::UnknownCluster,
            Some(Origin::new("fleet/pp.yaml", 0, 10 + index as u64)),
            format!("cluster \"c{index}\" is not in the inventory"),
        )
    }

    #[test]
    fn a_run_prints_at_most_its_share_of_errors_and_counts_the_rest() {
        let errors: Vec<Diagnostic> = (0..SHOWN_PER_RUN + 5)
            .map(|index| Diagnostic::error(None, format!("error number {index}")))
            .collect();
        for format in [
            MessageFormat::Human,
            MessageFormat::Json,
            MessageFormat::Github,
        ] {
            let text = errors_text(&errors, format);
            let lines: Vec<&str> = text.lines().collect();
            assert_eq!(lines.len(), SHOWN_PER_RUN + 1, "{format:?}");
            assert!(
                lines[SHOWN_PER_RUN - 1].contains("error number 999"),
                "{format:?}"
            );
            let last = lines[SHOWN_PER_RUN];
            assert!(
                last.contains("and 5 more errors, not shown"),
                "{format:?}: {last}"
            );
            match format {
                MessageFormat::Human => assert!(last.starts_with("error: …"), "{last}"),
                MessageFormat::Json => {
                    let value: serde_json::Value = serde_json::from_str(last).unwrap();
                    assert_eq!(value["level"], "error");
                }
                MessageFormat::Github => assert!(last.starts_with("::error"), "{last}"),
            }
        }
        let exactly: Vec<Diagnostic> = errors[..SHOWN_PER_RUN].to_vec();
        assert_eq!(
            errors_text(&exactly, MessageFormat::Json).lines().count(),
            SHOWN_PER_RUN
        );
    }

    #[test]
    fn tools_get_at_most_a_runs_share_of_warnings() {
        let warnings: Vec<Diagnostic> = (0..SHOWN_PER_RUN + 1).map(unknown_cluster).collect();
        let text = warnings_text(&warnings, MessageFormat::Github, false);
        let last = text.lines().last().unwrap();
        assert_eq!(text.lines().count(), SHOWN_PER_RUN + 1);
        assert!(last.starts_with("::warning"), "{last}");
        assert!(last.contains("and 1 more warning, not shown"), "{last}");
    }

    #[test]
    fn humans_see_the_first_few_of_each_lint_and_a_count_per_lint() {
        let mut warnings: Vec<Diagnostic> = (0..7).map(unknown_cluster).collect();
        warnings.push(Diagnostic::warning(
            Lint::SelectsNothing,
            None,
            "PropagationPolicy default/web selects no template",
        ));
        let text = warnings_text(&warnings, MessageFormat::Human, false);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 8, "{text}");
        assert_eq!(
            lines[0],
            "warning: fleet/pp.yaml:10: cluster \"c0\" is not in the inventory [unknown-cluster]"
        );
        assert!(lines[4].contains("\"c4\""));
        assert_eq!(
            lines[5],
            "warning: PropagationPolicy default/web selects no template [selects-nothing]"
        );
        assert_eq!(
            lines[6],
            "warning: … and 2 more unknown-cluster warnings (--verbose shows every one)"
        );
        assert_eq!(
            lines[7],
            "fedrender: 8 warnings (7 unknown-cluster, 1 selects-nothing); --deny LINT makes a lint an error, --allow LINT silences it"
        );
        let verbose = warnings_text(&warnings, MessageFormat::Human, true);
        assert_eq!(verbose.lines().count(), 9, "{verbose}");
        assert!(warnings_text(&[], MessageFormat::Human, false).is_empty());
    }

    #[test]
    fn human_levels_are_painted_and_other_formats_left_alone() {
        let text = "warning: a.yaml:3: x\n  detail: warning: not a level\nerror: b.yaml:1: y\n";
        let painted = painted_levels(text);
        assert_eq!(
            painted,
            "\x1b[1m\x1b[33mwarning\x1b[0m: a.yaml:3: x\n  detail: warning: not a level\n\
             \x1b[1m\x1b[31merror\x1b[0m: b.yaml:1: y\n"
        );
        // What a pipe or NO_COLOR gets once anstream has dropped the styles.
        assert_eq!(anstream::adapter::strip_str(&painted).to_string(), text);
        let github = "::warning file=a.yaml,line=3::x\n{\"level\":\"error\"}\n";
        assert!(matches!(
            painted_levels(github),
            std::borrow::Cow::Borrowed(_)
        ));
    }

    #[test]
    fn json_gives_one_object_per_diagnostic() {
        let warning = unknown_cluster(0)
            .about_object("Deployment shop/web")
            .on_cluster("c0");
        let text = warnings_text(&[warning], MessageFormat::Json, false);
        let value: serde_json::Value = serde_json::from_str(text.trim_end()).unwrap();
        assert_eq!(
            value,
            json!({
                "level": "warning",
                "name": "unknown-cluster",
                "message": "cluster \"c0\" is not in the inventory",
                "file": "fleet/pp.yaml",
                "line": 10,
                "column": null,
                "object": "Deployment shop/web",
                "cluster": "c0",
                "clusters": ["c0"],
                "field": null,
                "detail": null,
            })
        );
        let error = Diagnostic::error(None, "no member clusters");
        let text = errors_text(&[error], MessageFormat::Json);
        assert_eq!(
            text,
            "{\"level\":\"error\",\"name\":null,\"message\":\"no member clusters\",\"file\":null,\"line\":null,\"column\":null,\"object\":null,\"cluster\":null,\"clusters\":[],\"field\":null,\"detail\":null}\n"
        );
    }

    // GitHub's workflow command syntax (actions/toolkit packages/core src/command.ts).
    #[test]
    fn github_gets_escaped_workflow_commands() {
        let warning = Diagnostic::warning(
            Lint::UnknownCluster,
            Some(Origin::new("a,b:c.yaml", 0, 3)),
            "100% wrong",
        )
        .at_column(7)
        .with_detail("first\nsecond");
        assert_eq!(
            warnings_text(&[warning], MessageFormat::Github, false),
            "::warning file=a%2Cb%3Ac.yaml,line=3,col=7,title=fedrender unknown-cluster::100%25 wrong%0Afirst%0Asecond\n"
        );
        assert_eq!(
            errors_text(&[Diagnostic::error(None, "bad")], MessageFormat::Github),
            "::error title=fedrender::bad\n"
        );
    }
}
