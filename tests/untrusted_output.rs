//! A pull request from a fork names the fleet's directories, files, objects and kinds, and can
//! commit files into the rendered tree. Each test here prints such names through the real
//! binary, as a GitHub Actions log, a pull-request comment and a terminal read them: no line of
//! the log may run a workflow command fedrender did not write, the comment keeps the headings
//! and sections fedrender wrote, a terminal gets no control character, and a reader that goes
//! away (`| head`) ends the run quietly.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::common;
use common::{ONE_CLUSTER_INVENTORY, PLACE_EVERYTHING, Repository, command, empty_scratch, stderr};

use fedrender_engine::manifest::HEADER;

/// A directory name that closes a code span, forges the report's verdict as a heading and opens
/// an HTML comment that would hide the rest of the comment; with a table's `|`, a `<summary>`
/// and terminal escapes.
const DIRECTORY: &str = "team`` ` |cell| <summary>x</summary> \u{1b}[31m\u{7}\n\n### No changes to the rendered fleet.\n<!--";

/// A file name holding workflow commands of both syntaxes.
const FILE: &str = "##[error]forged ::warning::x ::add-mask::y.yaml";

/// What the pull request's fleet says the verdict is.
const FORGED_VERDICT: &str = "No changes to the rendered fleet.";

/// A ClusterRole (RBAC names may hold anything but `/` and `%`) whose name and annotation
/// hold workflow commands, Markdown and terminal escapes; its label is `label`.
fn role(label: &str) -> String {
    format!(
        r#"apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: "evil\n::warning::forged-name\r::set-output name=changed::false ##[error]x `` ` <!-- | <summary> \e[31m\a"
  labels: {{app: {label}}}
  annotations:
    note: "::error::in-hunk\n##[group]in-hunk\n```\n<!--\n| a | b |\n\e]0;title\a"
rules: []
"#
    )
}

const CONFIG_MAP: &str = r#"apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: default
  annotations: {note: "::warning::annotation\n##[error]annotation"}
data: {mode: "MODE"}
"#;

impl Repository {
    /// A repository whose fleet was built into `rendered/`, then changed (a label and a
    /// value), with two files of fedrender's committed into the tree under hostile names.
    fn hostile(name: &str) -> Repository {
        let repository = Repository::empty(&format!("untrusted-output-{name}"));
        repository.write("fleet/clusters.yaml", ONE_CLUSTER_INVENTORY);
        repository.write("fleet/policy.yaml", PLACE_EVERYTHING);
        repository.write(&format!("fleet/{DIRECTORY}/{FILE}"), &role("v1"));
        repository.write(
            &format!("fleet/{DIRECTORY}/settings.yaml"),
            &CONFIG_MAP.replace("MODE", "safe"),
        );
        let built = repository.printing(&["build", "fleet", "--out", "rendered"], &[]);
        assert_eq!(built.status.code(), Some(0), "{}", stderr(&built));
        repository.write(&format!("fleet/{DIRECTORY}/{FILE}"), &role("v2"));
        repository.write(
            &format!("fleet/{DIRECTORY}/settings.yaml"),
            &CONFIG_MAP.replace("MODE", "open"),
        );
        for stale in [
            "##[error]stale ::warning::x.yaml",
            "::error::y\r::add-mask::z\u{1b}[31m.yaml",
        ] {
            repository.write(&format!("rendered/member1/{stale}"), HEADER);
        }
        repository
    }

    /// The binary with `args`, the fleet's inventory and `format` (the message format's flags).
    fn printing_command(&self, args: &[&str], format: &[&str]) -> Command {
        let mut command = self.command(args);
        command
            .args(["--clusters", "fleet/clusters.yaml"])
            .args(format);
        command
    }

    fn printing(&self, args: &[&str], format: &[&str]) -> Output {
        self.printing_command(args, format).output().unwrap()
    }
}

/// Every command that prints something of the fleet's, with the exit code it ends with.
const COMMANDS: &[(&[&str], i32)] = &[
    (&["validate", "fleet"], 0),
    (&["build", "fleet", "--out", "rendered", "--check"], 1),
    (&["plan", "fleet"], 0),
    (&["plan", "fleet", "--format", "json"], 0),
    (
        &[
            "diff",
            "fleet",
            "--against",
            "rendered",
            "--format",
            "unified",
        ],
        1,
    ),
    (
        &["diff", "fleet", "--against", "rendered", "--format", "stat"],
        1,
    ),
    (
        &["diff", "fleet", "--against", "rendered", "--format", "json"],
        1,
    ),
    (
        &[
            "diff",
            "fleet",
            "--against",
            "rendered",
            "--format",
            "markdown",
        ],
        1,
    ),
    (&["build", "fleet", "--stdout"], 0),
    (&["build", "fleet", "--out", "rendered", "--verbose"], 0),
];

/// Whether `args` prints, on standard output, what is meant for a file or a tool rather than
/// for the log: the manifests and the pull-request comment. A workflow that shows them in
/// the log wraps them itself (README, On untrusted pull requests).
fn prints_for_files(args: &[&str]) -> bool {
    args.contains(&"--stdout") || args.contains(&"markdown")
}

/// The lines of `log` as the runner splits them (at CR, LF or both), each with whether
/// commands run there: the runner pauses at `::stop-commands::TOKEN` and resumes at
/// `::TOKEN::`; `tokens` gathers every token.
fn runner_lines<'a>(log: &'a str, tokens: &mut Vec<String>) -> Vec<(&'a str, bool)> {
    let mut paused: Option<String> = None;
    let mut lines = Vec::new();
    for line in log.split(['\r', '\n']) {
        let command = line.trim_start();
        match &paused {
            Some(token) => {
                let resume = command == format!("::{token}::") || command == format!("##[{token}]");
                if resume {
                    paused = None;
                }
                lines.push((line, false));
            }
            None => {
                if let Some(token) = command.strip_prefix("::stop-commands::") {
                    tokens.push(token.to_string());
                    paused = Some(token.to_string());
                    lines.push((line, false));
                } else {
                    lines.push((line, true));
                }
            }
        }
    }
    assert!(paused.is_none(), "commands left paused:\n{log}");
    lines
}

/// Checks a GitHub Actions log: where commands run, a line that the runner would read as a
/// command (`::` first after spaces, or `##[` anywhere) is one of fedrender's annotations,
/// whose name and properties the fleet cannot choose; its data may hold anything escaped.
fn assert_no_forged_command(log: &str, context: &str, tokens: &mut Vec<String>) {
    for (line, commands_run) in runner_lines(log, tokens) {
        if !commands_run {
            continue;
        }
        let command = line.trim_start();
        if let Some(after) = command.strip_prefix("::") {
            assert_eq!(command, line, "{context}: an indented command:\n{log}");
            // The runner: the name and properties end at the first `::` after the first.
            let info = after.split_once("::").map_or(after, |(info, _)| info);
            let (name, properties) = info.split_once(' ').unwrap_or((info, ""));
            assert!(
                ["error", "warning"].contains(&name),
                "{context}: a {name:?} command:\n{line}"
            );
            for property in properties
                .split(',')
                .filter(|property| !property.is_empty())
            {
                let (key, value) = property.split_once('=').unwrap();
                assert!(
                    ["file", "line", "col", "title"].contains(&key),
                    "{context}: property {key}:\n{line}"
                );
                if key == "title" {
                    assert!(value.starts_with("fedrender"), "{context}:\n{line}");
                }
            }
        } else {
            assert!(
                !line.contains("##["),
                "{context}: a line the runner reads as a command:\n{line}\nin\n{log}"
            );
        }
    }
}

/// Whether `text` holds a control character a terminal acts on: anything but a line feed or
/// a tab.
fn control_character(text: &str) -> Option<char> {
    text.chars()
        .find(|&c| (c.is_control() && c != '\n' && c != '\t') || c == '\u{202e}')
}

#[test]
fn a_github_actions_log_runs_no_command_from_the_fleet() {
    let repository = Repository::hostile("github");
    // Each run's tokens, one a run.
    let mut tokens = Vec::new();
    for &(args, code) in COMMANDS {
        let mut run = Vec::new();
        let output = repository.printing(args, &["--message-format", "github"]);
        let context = format!("{args:?}");
        assert_eq!(
            output.status.code(),
            Some(code),
            "{context}: {}",
            stderr(&output)
        );
        assert_no_forged_command(&stderr(&output), &context, &mut run);
        if !prints_for_files(args) {
            let stdout = String::from_utf8_lossy(&output.stdout);
            assert_no_forged_command(&stdout, &context, &mut run);
        }
        run.dedup();
        assert!(run.len() <= 1, "{context}: {run:?}");
        tokens.append(&mut run);
    }
    // The stale files' names, the plan, the unified diff, the stat and the build's summary.
    assert!(tokens.len() >= 5, "{tokens:?}");
    for token in &tokens {
        assert_eq!(token.len(), 32, "{token}");
        assert!(token.bytes().all(|b| b.is_ascii_hexdigit()), "{token}");
    }
    // A new token on every run: one the log showed earlier cannot end a later pause.
    let mut distinct = tokens.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), tokens.len(), "{tokens:?}");
}

#[test]
fn errors_about_hostile_files_and_kinds_are_escaped_whether_warned_about_or_refused() {
    let repository = Repository::hostile("kinds");
    // A kind with line breaks is a warning today (no CRD, placed nowhere); a loader that
    // refuses it makes it an error: either way it is escaped. A nearest kind is a hint.
    repository.write(
        &format!("fleet/{DIRECTORY}/widget.yaml"),
        "apiVersion: example.io/v1\nkind: \"Wid\\n::warning::kind-forged\\r##[error]k\\e[31m\\a\"\nmetadata: {name: w, namespace: default}\n",
    );
    let mut tokens = Vec::new();
    for format in ["github", "human"] {
        for args in [
            &["validate", "fleet"][..],
            &["plan", "fleet", "--kind", "Wid"],
            &["build", "fleet", "--out", "rendered", "--check"],
        ] {
            let output = repository.printing(args, &["--message-format", format]);
            let context = format!("{format} {args:?}");
            assert!(
                matches!(output.status.code(), Some(0..=2)),
                "{context}: {}",
                stderr(&output)
            );
            for text in [
                stderr(&output),
                String::from_utf8_lossy(&output.stdout).into(),
            ] {
                assert_eq!(control_character(&text), None, "{context}:\n{text}");
                if format == "github" {
                    assert_no_forged_command(&text, &context, &mut tokens);
                } else {
                    for line in text.lines() {
                        assert!(!line.starts_with("::"), "{context}:\n{text}");
                    }
                }
            }
        }
    }
    // A file that does not parse, in the hostile directory: an error at its file and line.
    repository.write(&format!("fleet/{DIRECTORY}/{FILE}"), "a: [\n");
    for format in ["github", "human"] {
        let output = repository.printing(&["validate", "fleet"], &["--message-format", format]);
        assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
        let text = stderr(&output);
        assert_eq!(control_character(&text), None, "{format}:\n{text}");
        if format == "github" {
            assert_no_forged_command(&text, format, &mut tokens);
            assert!(
                text.lines()
                    .any(|line| line.starts_with("::error file=fleet/team``")
                        && line.contains(",line=1,")),
                "{text}"
            );
        } else {
            let forged = text
                .lines()
                .find(|line| line.starts_with("### ") || line.starts_with("<!--"));
            assert_eq!(forged, None, "{text}");
        }
    }
}

#[test]
fn json_for_tools_reads_the_same_and_runs_no_command_in_a_log() {
    let repository = Repository::hostile("json");
    for args in [
        &["validate", "fleet"][..],
        &["plan", "fleet", "--format", "json"],
        &["diff", "fleet", "--against", "rendered", "--format", "json"],
    ] {
        let output = repository.printing(args, &["--message-format", "json"]);
        for text in [
            stderr(&output),
            String::from_utf8_lossy(&output.stdout).into(),
        ] {
            assert!(!text.contains("##["), "{args:?}:\n{text}");
            for line in text.lines() {
                assert!(!line.trim_start().starts_with("::"), "{args:?}:\n{text}");
            }
        }
    }
    // The names are all there, exact, for a JSON reader.
    let output = repository.printing(
        &["diff", "fleet", "--against", "rendered", "--format", "json"],
        &[],
    );
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let names: Vec<&str> = report["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|group| group["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"evil\n::warning::forged-name\r::set-output name=changed::false ##[error]x `` ` <!-- | <summary> \u{1b}[31m\u{7}"),
        "{names:?}"
    );
    let sources: Vec<&str> = report["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|group| group["source"]["template"].as_str().unwrap())
        .collect();
    assert!(
        sources.contains(&format!("fleet/{DIRECTORY}/{FILE}:1").as_str()),
        "{sources:?}"
    );
}

/// `markdown` without its fenced code blocks and code spans (CommonMark's rules: a fence
/// closes at a line of at least as many backticks; a span at the next run of exactly as many),
/// as one string of what is read as Markdown and HTML.
fn outside_code(markdown: &str) -> String {
    let mut kept = String::new();
    let mut fence: Option<usize> = None;
    for line in markdown.lines() {
        let run = line.len() - line.trim_start_matches('`').len();
        match fence {
            Some(open) => {
                if run >= open && line[run..].trim().is_empty() {
                    fence = None;
                }
                continue;
            }
            None if run >= 3 => {
                fence = Some(run);
                continue;
            }
            None => {}
        }
        let mut rest = line;
        while let Some(start) = rest.find('`') {
            kept.push_str(&rest[..start]);
            let after = &rest[start..];
            let open = after.len() - after.trim_start_matches('`').len();
            let body = &after[open..];
            // The closing run: exactly `open` backticks.
            let mut close = None;
            let mut at = 0;
            while let Some(found) = body[at..].find('`') {
                let begin = at + found;
                let length = body[begin..].len() - body[begin..].trim_start_matches('`').len();
                if length == open {
                    close = Some(begin + length);
                    break;
                }
                at = begin + length;
            }
            match close {
                Some(end) => {
                    kept.push_str("CODE");
                    rest = &body[end..];
                }
                None => {
                    kept.push_str(&after[..open]);
                    rest = body;
                }
            }
        }
        kept.push_str(rest);
        kept.push('\n');
    }
    assert!(fence.is_none(), "a fence left open:\n{markdown}");
    kept
}

#[test]
fn the_pull_request_comment_keeps_the_sections_fedrender_writes() {
    let repository = Repository::hostile("markdown");
    let output = repository.printing(
        &[
            "diff",
            "fleet",
            "--against",
            "rendered",
            "--format",
            "markdown",
            "--title",
            "fedrender: what this pull request changes",
        ],
        &[],
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let markdown = String::from_utf8(output.stdout).unwrap();
    assert_eq!(control_character(&markdown), None, "{markdown}");
    let read = outside_code(&markdown);
    let headings: Vec<&str> = read.lines().filter(|line| line.starts_with('#')).collect();
    assert_eq!(
        headings,
        ["### fedrender: what this pull request changes"],
        "{markdown}"
    );
    // The forged verdict and comment are in code, never read as Markdown or HTML.
    assert!(markdown.contains(FORGED_VERDICT), "{markdown}");
    assert!(!read.contains(FORGED_VERDICT), "{read}");
    assert!(!read.contains("<!--"), "{read}");
    // Two changes, each one closed section; no tag but fedrender's.
    for tag in ["<details>", "</details>", "<summary>", "</summary>"] {
        assert_eq!(read.matches(tag).count(), 2, "{tag} in\n{read}");
    }
    for line in read.lines().filter(|line| line.contains('<')) {
        let mut rest = line;
        while let Some(start) = rest.find('<') {
            let tag = &rest[start..=start + rest[start..].find('>').unwrap()];
            assert!(
                [
                    "<details>",
                    "</details>",
                    "<summary>",
                    "</summary>",
                    "<b>",
                    "</b>",
                    "<code>",
                    "</code>"
                ]
                .contains(&tag),
                "{tag} in {line}"
            );
            rest = &rest[start + tag.len()..];
        }
    }
    // Two tables, the kinds (4 rows) and the changed objects × clusters (4 rows: the hostile
    // ClusterRole's name among them); every row has as many cells as its table's header, so no
    // `|` of a name splits one.
    let unescaped = |row: &str| {
        row.char_indices()
            .filter(|&(at, c)| c == '|' && !row[..at].ends_with('\\'))
            .count()
    };
    let mut tables: Vec<Vec<&str>> = Vec::new();
    let mut in_table = false;
    for line in read.lines() {
        match (line.starts_with('|'), in_table) {
            (true, true) => tables.last_mut().unwrap().push(line),
            (true, false) => tables.push(vec![line]),
            _ => {}
        }
        in_table = line.starts_with('|');
    }
    assert_eq!(
        tables.iter().map(Vec::len).collect::<Vec<_>>(),
        [4, 4],
        "{read}"
    );
    for table in tables {
        let cells = unescaped(table[0]);
        for row in &table {
            assert_eq!(unescaped(row), cells, "{row}");
        }
    }
    // Each change says where it came from, in a span one backtick longer than the name's.
    assert_eq!(
        markdown
            .matches("From ```fleet/team`` ` |cell| <summary>")
            .count(),
        2,
        "{markdown}"
    );
}

#[test]
fn a_terminal_gets_no_control_character_from_the_fleet() {
    let repository = Repository::hostile("human");
    for &(args, code) in COMMANDS {
        // Standard output is a pipe: the diff is not coloured.
        let output = repository.printing(args, &[]);
        let context = format!("{args:?}");
        assert_eq!(
            output.status.code(),
            Some(code),
            "{context}: {}",
            stderr(&output)
        );
        for text in [
            stderr(&output),
            String::from_utf8_lossy(&output.stdout).into(),
        ] {
            assert_eq!(control_character(&text), None, "{context}:\n{text}");
            if args.contains(&"markdown") {
                continue;
            }
            // No name starts a line of its own (a manifest's lines in a diff are indented).
            for line in text.lines() {
                for forged in ["::", "##[", "### ", "<!--"] {
                    assert!(!line.starts_with(forged), "{context}:\n{text}");
                }
            }
        }
    }
}

/// A fleet that prints more than a pipe holds (3 clusters × 2,000 ConfigMaps), with a
/// warning (a template placed nowhere).
fn large_fleet(name: &str) -> PathBuf {
    let root = empty_scratch(&format!("untrusted-output-{name}"));
    std::fs::create_dir_all(root.join(".git")).unwrap();
    let fleet = root.join("fleet");
    std::fs::create_dir_all(&fleet).unwrap();
    let inventory: String = (1..=3)
        .map(|n| ONE_CLUSTER_INVENTORY.replace("member1", &format!("member{n}")) + "---\n")
        .collect();
    std::fs::write(fleet.join("clusters.yaml"), inventory).unwrap();
    std::fs::write(
        fleet.join("policy.yaml"),
        "apiVersion: policy.karmada.io/v1alpha1\nkind: ClusterPropagationPolicy\nmetadata: {name: all}\nspec:\n  resourceSelectors:\n  - {apiVersion: v1, kind: ConfigMap}\n  placement: {}\n",
    )
    .unwrap();
    let config_maps: String = (0..2000)
        .map(|n| {
            format!("---\napiVersion: v1\nkind: ConfigMap\nmetadata: {{name: c{n}, namespace: default}}\ndata: {{n: \"{n}\"}}\n")
        })
        .collect();
    std::fs::write(fleet.join("config-maps.yaml"), config_maps).unwrap();
    std::fs::write(
        fleet.join("unplaced.yaml"),
        "apiVersion: v1\nkind: Secret\nmetadata: {name: s, namespace: default}\n",
    )
    .unwrap();
    root
}

/// Runs `args` in `root` with standard output and standard error in one pipe, as `2>&1 |
/// head -1` does: reads one line, closes the pipe, and waits.
fn closed_after_one_line(root: &Path, args: &[&str]) -> std::process::ExitStatus {
    let (reader, writer) = std::io::pipe().unwrap();
    let mut child = command()
        .args(args)
        .current_dir(root)
        .stdin(Stdio::null())
        .stdout(writer.try_clone().unwrap())
        .stderr(writer)
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(reader).read_line(&mut first).unwrap();
    assert!(!first.is_empty(), "{args:?} printed nothing");
    // The reader is dropped: the pipe has no reader left.
    child.wait().unwrap()
}

#[test]
fn a_reader_that_goes_away_ends_the_run_quietly() {
    let root = large_fleet("closed-pipe");
    let empty = root.join("empty");
    std::fs::create_dir_all(empty.join("member1")).unwrap();
    for (args, code) in [
        (
            &[
                "build",
                "fleet",
                "--clusters",
                "fleet/clusters.yaml",
                "--stdout",
            ][..],
            0,
        ),
        (
            &[
                "build",
                "fleet",
                "--clusters",
                "fleet/clusters.yaml",
                "--out",
                "missing",
                "--check",
            ],
            1,
        ),
        (&["plan", "fleet", "--clusters", "fleet/clusters.yaml"], 0),
        (
            &[
                "diff",
                "fleet",
                "--clusters",
                "fleet/clusters.yaml",
                "--against",
                "empty",
            ],
            1,
        ),
    ] {
        for format in ["human", "github"] {
            let args: Vec<&str> = args
                .iter()
                .copied()
                .chain(["--message-format", format])
                .collect();
            let status = closed_after_one_line(&root, &args);
            // Not killed (SIGPIPE, or SIGABRT of a panic in a release build), not a panic (101).
            assert_eq!(status.code(), Some(code), "{args:?}: {status:?}");
        }
    }
    assert!(!root.join("missing").exists());
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_build_whose_standard_error_is_closed_still_writes_its_whole_tree() {
    let root = large_fleet("closed-stderr");
    let mut child = command()
        .args([
            "build",
            "fleet",
            "--clusters",
            "fleet/clusters.yaml",
            "--out",
            "rendered",
            "--verbose",
        ])
        .current_dir(&root)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stderr.take());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0), "{status:?}");
    // The tree is complete: a check finds nothing to do.
    let check = command()
        .args([
            "build",
            "fleet",
            "--clusters",
            "fleet/clusters.yaml",
            "--out",
            "rendered",
            "--check",
        ])
        .current_dir(&root)
        .output()
        .unwrap();
    assert_eq!(check.status.code(), Some(0), "{}", stderr(&check));
    std::fs::remove_dir_all(&root).unwrap();
}
