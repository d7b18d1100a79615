//! What the files of a pull request can ask of fedrender's reader, and of the tools it runs: a
//! pull request from a fork controls every file under FLEET_DIR. Each test is one attack on the
//! bounds of reading (aliases that copy without end, objects larger than the API server takes,
//! kinds that would write a line of their own into a log, characters YAML does not allow, a
//! tool that prints without end), run through the real binary: it must fail with exit 2 and a
//! message at the file and line that asked, leaving `--out` byte for byte as it was.

use std::os::unix::fs::PermissionsExt;

use crate::common;
use common::CONFIG_MAP;
use common::Repository as Fleet;
use common::stderr;

/// A fleet that renders one ConfigMap, already built into `rendered/`.
fn fleet(name: &str) -> Fleet {
    Fleet::built(&format!("untrusted-inputs-{name}"))
}

impl Fleet {
    /// A build into `rendered/` and a validation, with `flags`: each fails with exit 2, says
    /// every one of `expected`, and leaves the tree as it was. Returns the build's standard
    /// error.
    fn refused(&self, flags: &[&str], expected: &[&str]) -> String {
        let before = self.tree();
        let mut build_error = None;
        for command in [
            &[
                "build",
                "fleet",
                "--clusters",
                "fleet/clusters.yaml",
                "--out",
                "rendered",
            ][..],
            &["validate", "fleet", "--clusters", "fleet/clusters.yaml"],
        ] {
            let args: Vec<&str> = command.iter().chain(flags).copied().collect();
            let output = self.fedrender(&args);
            let error = stderr(&output);
            assert_eq!(output.status.code(), Some(2), "{args:?}: {error}");
            for expected in expected {
                assert!(
                    error.contains(expected),
                    "{args:?}: expected {expected:?} in\n{error}"
                );
            }
            assert_eq!(self.tree(), before, "{args:?} changed the tree");
            build_error.get_or_insert(error);
        }
        build_error.unwrap()
    }
}

/// A Widget named `name` whose aliases copy 34,850 nodes: a 64 KiB string, copied 34 times
/// (each copy one node and a node for each 64 bytes), 2.2 MiB as JSON. Six lines.
fn copying_widget(name: &str) -> String {
    format!(
        "apiVersion: example.io/v1\nkind: Widget\nmetadata: {{name: {name}, namespace: default}}\n\
         spec:\n  anchor: &a \"{}\"\n  copies: [{}]\n",
        "x".repeat(64 << 10),
        vec!["*a"; 34].join(", ")
    )
}

// 1. Aliases copy only so much in one file: the third of ten documents, each within
// serde-saphyr's own bounds for a document, goes beyond the file's share, and so does every
// later one.
#[test]
fn ten_alias_documents_in_one_file_stop_at_the_files_share() {
    let fleet = fleet("aliases-one-file");
    let documents: Vec<String> = (0..10)
        .map(|index| copying_widget(&format!("w{index}")))
        .collect();
    fleet.write("fleet/widgets.yaml", &documents.join("---\n"));
    // Each document is six lines and a marker, its aliases on its last line: the third
    // document's at line 20.
    let expected: Vec<String> = (2..10)
        .map(|index| {
            format!(
                "fleet/widgets.yaml:{}: the aliases of this document copy 34850 nodes, which \
                 brings what aliases copy in this file to",
                6 + 7 * index
            )
        })
        .collect();
    let expected: Vec<&str> = expected.iter().map(String::as_str).collect();
    let error = fleet.refused(&[], &expected);
    assert!(error.contains("beyond the 100000 allowed"), "{error}");
    assert!(
        !error.contains("fleet/widgets.yaml:13: the aliases"),
        "{error}"
    );
}

// 2. ... and in all the files of a run: each file within its share, the twelfth goes beyond the
// run's.
#[test]
fn alias_documents_spread_over_files_stop_at_the_runs_share() {
    let fleet = fleet("aliases-many-files");
    for index in 0..13 {
        fleet.write(
            &format!("fleet/widgets/w{index:02}.yaml"),
            &copying_widget(&format!("w{index}")),
        );
    }
    let error = fleet.refused(
        &[],
        &[
            "fleet/widgets/w11.yaml:6: the aliases of this document copy 34850 nodes, which \
             brings what aliases copy in this run (all the files read together) to 418200, \
             beyond the 400000 allowed",
            "fleet/widgets/w12.yaml:6: the aliases of this document copy 34850 nodes",
        ],
    );
    assert!(!error.contains("w10.yaml:6: the aliases"), "{error}");
}

// 3. An object larger than the API server accepts is refused before it is built.
#[test]
fn a_four_mib_config_map_is_refused_at_its_line() {
    let fleet = fleet("large-object");
    fleet.write(
        "fleet/large.yaml",
        &format!(
            "{CONFIG_MAP}---\napiVersion: v1\nkind: ConfigMap\nmetadata: {{name: large, namespace: default}}\n\
             data:\n  blob: {}\n",
            "a".repeat(4 << 20)
        ),
    );
    fleet.refused(
        &[],
        &["fleet/large.yaml:6: this object is at least 4.0 MiB (4194411 bytes) as JSON, more than \
           the 3 MiB the Kubernetes API server accepts in one request"],
    );
}

// 4. A kind or apiVersion no API server could serve never reaches a message: on a line of its
// own, `::warning ...` is a GitHub workflow command, and a backtick ends a code span in a review
// comment.
#[test]
fn kinds_that_would_write_their_own_log_lines_are_refused_at_their_line() {
    let fleet = fleet("kinds");
    fleet.write(
        "fleet/kinds.yaml",
        "apiVersion: v1\nkind: \"::warning file=fleet/settings.yaml,line=1::approved\"\nmetadata: {name: a}\n---\n\
         apiVersion: v1\nkind: \"Config\\n::warning::approved\"\nmetadata: {name: b}\n---\n\
         apiVersion: v1\nkind: Config`Map`\nmetadata: {name: c}\n---\n\
         apiVersion: \"v1\\n::error::x\"\nkind: ConfigMap\nmetadata: {name: d}\n",
    );
    fleet.refused(
        &[],
        &[
            "fleet/kinds.yaml:2: kind \"::warning file=fleet/settings.yaml,line=1::approved\" is not a \
             kind the Kubernetes API server can serve: a kind is a letter followed by letters, \
             digits and '-'",
            "fleet/kinds.yaml:6: kind \"Config\\n::warning::approved\" is not a kind",
            "fleet/kinds.yaml:10: kind \"Config`Map`\" is not a kind",
            "fleet/kinds.yaml:13: apiVersion \"v1\\n::error::x\" is not one the Kubernetes API \
             server can serve: its version \"v1\\n::error::x\" is not a lowercase letter",
        ],
    );
    let output = fleet.fedrender(&[
        "validate",
        "fleet",
        "--clusters",
        "fleet/clusters.yaml",
        "--message-format",
        "github",
    ]);
    assert_eq!(output.status.code(), Some(2));
    let error = stderr(&output);
    for line in error.lines().filter(|line| line.starts_with("::")) {
        assert!(
            line.starts_with("::error file=fleet/kinds.yaml,line="),
            "{line}"
        );
    }
}

// 5. A character YAML does not allow, in a block scalar: refused at its line as Go's reader
// refuses it. Go's refusals (it names no line) are recorded in
// testdata/references/go-yaml/reading.jsonl, with the texts.
#[test]
fn a_non_character_in_a_block_scalar_is_refused_at_its_line() {
    let recorded = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/testdata/references/go-yaml/reading.jsonl"
    ));
    let go_reading = |id: &str| -> serde_json::Value {
        recorded
            .lines()
            .skip(1)
            .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap())
            .find(|case| case["id"] == id)
            .unwrap_or_else(|| panic!("no case {id:?} in go-yaml/reading.jsonl"))
    };
    let fleet = fleet("non-character");
    // In a block scalar, which the full reader takes; then in a quoted string, which the fast
    // reader takes: the same.
    for (id, line) in [
        ("U+FFFE in a block scalar", 7),
        ("U+FFFF in a quoted string", 5),
    ] {
        let case = go_reading(id);
        assert!(case["go_error"].is_string(), "Go reads {id}: {case}");
        fleet.write("fleet/script.yaml", case["yaml"].as_str().unwrap());
        fleet.refused(&[], &[&format!("fleet/script.yaml:{line}:")]);
    }
}

/// A declared command in `fleet/generated/`, `gen.sh`, whose body is `script`.
fn declare_command(fleet: &Fleet, script: &str) {
    let program = fleet.path("fleet/generated/gen.sh");
    fleet.write("fleet/generated/gen.sh", &format!("#!/bin/sh\n{script}\n"));
    std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
    fleet.write(
        "fleet/generated/fedrender-source.yaml",
        "apiVersion: fedrender.io/v1alpha1\nkind: Source\nspec:\n  command: [./gen.sh]\n",
    );
}

// 6. What a tool prints past the limit is refused, and what it prints within the limit but past
// the buffer kept in memory is read back whole.
#[test]
fn a_commands_output_is_capped_and_read_back_whole_below_the_cap() {
    let fleet = fleet("tool-output");
    // Three MiB of comment lines, then a ConfigMap; the limit is one.
    declare_command(
        &fleet,
        "i=0; while [ $i -lt 49152 ]; do echo '# aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'; i=$((i+1)); done",
    );
    fleet.refused(
        &["--allow-exec", "--max-tool-output", "1Mi"],
        &["running the command of fleet/generated/: ./gen.sh printed more than 1 MiB; it was stopped \
           (--max-tool-output sets the limit)"],
    );
    // Within the limit: 300 KiB of a ConfigMap's data, well past the 64 KiB kept in memory.
    declare_command(
        &fleet,
        "printf 'apiVersion: v1\\nkind: ConfigMap\\nmetadata: {name: generated, namespace: default}\\ndata:\\n'\n\
         i=0; while [ $i -lt 4800 ]; do printf '  key%05d: vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv\\n' $i; i=$((i+1)); done",
    );
    let output = fleet.fedrender(&[
        "build",
        "fleet",
        "--clusters",
        "fleet/clusters.yaml",
        "--stdout",
        "--allow-exec",
        "--max-tool-output",
        "1Mi",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let rendered = String::from_utf8(output.stdout).unwrap();
    assert!(
        rendered.contains("  key00000: vvvv"),
        "the first line is lost"
    );
    assert!(
        rendered.contains("  key04799: vvvv"),
        "the last line is lost"
    );
}
