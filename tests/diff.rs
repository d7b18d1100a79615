//! `fedrender diff` on a realistic change (testdata/diff: a replica change, an image bump on
//! one cluster, a ConfigMap moved between clusters, a rotated secret, a cluster joining the
//! inventory): the Markdown and JSON reports are snapshotted; identical inputs give nothing.

use std::path::{Path, PathBuf};

mod common;
use common::command;

use fedrender::commands::diff::DiffBase;
use fedrender::report::diff as diff_report;
use fedrender::source::fleet::{FleetSource, Inventory};
use fedrender_engine::lint::LintLevels;

fn source(side: &str) -> FleetSource {
    let dir = Path::new("testdata/diff").join(side);
    FleetSource::new(
        dir.join("input"),
        Inventory::File(dir.join("clusters.yaml")),
    )
}

fn realistic() -> fedrender_engine::diff::FleetDiff {
    let outcome = fedrender::commands::diff::diff(
        &source("head"),
        &DiffBase::Input(Box::new(source("base"))),
        &LintLevels::default(),
        false,
        &[],
    );
    // The fixture's Secret is in the clear on purpose (the reports must redact its values): on
    // each side, that is the one warning.
    let warnings: Vec<(Option<fedrender_engine::lint::Lint>, Option<String>)> = outcome
        .warnings
        .iter()
        .map(|warning| (warning.lint, warning.about().object))
        .collect();
    let plaintext = (
        Some(fedrender_engine::lint::Lint::PlaintextSecret),
        Some("Secret shop/web-db".to_string()),
    );
    assert_eq!(
        warnings,
        [plaintext.clone(), plaintext],
        "{:?}",
        outcome.warnings
    );
    outcome.result.unwrap()
}

fn snapshot(name: &str, text: &str) {
    common::snapshot_settings("testdata/diff").bind(|| insta::assert_snapshot!(name, text));
}

#[test]
fn markdown_report_of_a_realistic_change() {
    snapshot(
        "diff-markdown",
        &diff_report::markdown(&realistic(), 65536, None),
    );
}

#[test]
fn json_report_of_a_realistic_change() {
    snapshot("diff-json", &diff_report::json(&realistic(), None));
}

#[test]
fn a_diff_of_identical_inputs_is_empty_and_exits_0() {
    let outcome = fedrender::commands::diff::diff(
        &source("base"),
        &DiffBase::Input(Box::new(source("base"))),
        &LintLevels::default(),
        false,
        &[],
    );
    assert!(outcome.result.unwrap().is_empty());
    let output = command()
        .args([
            "diff",
            "testdata/diff/base/input",
            "--clusters",
            "testdata/diff/base/clusters.yaml",
            "--base",
            "testdata/diff/base/input",
            "--format",
            "markdown",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        "### fedrender diff\n\nNo changes to the rendered fleet.\n"
    );
}

#[test]
fn a_diff_against_the_committed_tree_matches_a_diff_against_the_base_input() {
    let out: PathBuf =
        std::env::temp_dir().join(format!("fedrender-diff-against-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let built = fedrender::commands::build::build(&fedrender::commands::build::BuildOptions {
        source: source("base"),
        out: out.clone(),
        lints: LintLevels::default(),
        gitops: None,
    });
    built.result.unwrap();
    let against = fedrender::commands::diff::diff(
        &source("head"),
        &DiffBase::Rendered(out.clone()),
        &LintLevels::default(),
        false,
        &[],
    );
    assert_eq!(against.result.unwrap(), realistic());
    std::fs::remove_dir_all(&out).unwrap();
}
