//! `fedrender diff` on a realistic change (testdata/diff: a replica change, an image bump on
//! one cluster, a ConfigMap moved between clusters, a rotated secret, a cluster joining the
//! inventory): the Markdown and JSON reports are snapshotted; identical inputs give nothing.

use std::path::{Path, PathBuf};

use crate::common;
use common::command;

use fedrender::source::fleet::{FleetSource, Inventory, read_fleet, run_fleet};
use fedrender::source::rendered_tree::RenderedDirectory;
use fedrender_engine::diff::{self, Comparison, FleetDiff, FleetObjects};
use fedrender_engine::run::{Options, Outcome};

fn source(side: &str) -> FleetSource {
    let dir = Path::new("testdata/diff").join(side);
    FleetSource::new(
        dir.join("input"),
        Inventory::File(dir.join("clusters.yaml")),
    )
}

/// The engine's diff of two inputs, as `fedrender diff --base` asks for it.
fn diff_of_inputs(head: &str, base: &str) -> Outcome<FleetDiff> {
    diff::against_base(
        || read_fleet(&source(head)),
        &Options::default(),
        || read_fleet(&source(base)),
        &Options::default(),
        &comparison(diff::CHUNK),
    )
}

fn realistic() -> fedrender_engine::diff::FleetDiff {
    let outcome = diff_of_inputs("head", "base");
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

/// `fedrender diff` of the realistic change in `format`, as the binary prints it.
fn realistic_report(format: &str) -> String {
    let output = common::fedrender(&[
        "diff",
        "testdata/diff/head/input",
        "--clusters",
        "testdata/diff/head/clusters.yaml",
        "--base",
        "testdata/diff/base/input",
        "--base-clusters",
        "testdata/diff/base/clusters.yaml",
        "--format",
        format,
    ]);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn markdown_report_of_a_realistic_change() {
    snapshot("diff-markdown", &realistic_report("markdown"));
}

#[test]
fn json_report_of_a_realistic_change() {
    snapshot("diff-json", &realistic_report("json"));
}

#[test]
fn a_diff_of_identical_inputs_is_empty_and_exits_0() {
    assert!(diff_of_inputs("base", "base").result.unwrap().is_empty());
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
    let out = committed_base("diff-against");
    let against = run_fleet(&source("head"), &Options::default(), |run| {
        diff::against_tree(
            run,
            &RenderedDirectory::open(&out)?,
            &comparison(diff::CHUNK),
        )
    });
    // A rendered tree does not say what its workloads requested or what scaled them: the
    // base's capacity and envelopes are the things only the base input knows.
    let mut expected = realistic();
    assert!(expected.base_capacity.is_some() && expected.base_envelopes.is_some());
    expected.base_capacity = None;
    expected.base_envelopes = None;
    assert_eq!(against.result.unwrap(), expected);
    std::fs::remove_dir_all(&out).unwrap();
}

/// The reference the streamed diffs must agree with: both sides rendered whole, compared
/// object by object.
fn diff_of_whole_renders() -> FleetDiff {
    let whole = |side: &str| {
        let rendered = run_fleet(&source(side), &Options::default(), |run| run.tree())
            .result
            .unwrap();
        FleetObjects::from_tree(&rendered.tree)
    };
    diff::diff(&whole("base"), &whole("head"), false)
}

/// A streamed diff as it is before provenance, findings and the runs' capacity and envelopes
/// are added to it.
fn streamed(mut diff: FleetDiff) -> FleetDiff {
    diff.provenance.clear();
    diff.findings.clear();
    diff.capacity = None;
    diff.base_capacity = None;
    diff.envelopes = None;
    diff.base_envelopes = None;
    diff
}

fn comparison(chunk: usize) -> Comparison<'static> {
    Comparison {
        show_secrets: false,
        ignores: &[],
        chunk,
        relaxed: &[],
    }
}

#[test]
fn the_streamed_diff_agrees_with_comparing_whole_renders_at_any_chunk_size() {
    let expected = diff_of_whole_renders();
    assert!(expected.clusters.len() > 1, "{expected:?}");
    for chunk in [1, 2, usize::MAX] {
        let compared = diff::against_base(
            || read_fleet(&source("head")),
            &Options::default(),
            || read_fleet(&source("base")),
            &Options::default(),
            &comparison(chunk),
        );
        assert_eq!(
            streamed(compared.result.unwrap()),
            expected,
            "chunk {chunk}"
        );
    }
}

/// The diff's base side built into a fresh directory, as a committed output tree.
fn committed_base(name: &str) -> PathBuf {
    let committed = std::env::temp_dir().join(format!("fedrender-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&committed);
    let built = common::fedrender(&[
        "build",
        "testdata/diff/base/input",
        "--clusters",
        "testdata/diff/base/clusters.yaml",
        "--out",
        committed.to_str().unwrap(),
    ]);
    assert_eq!(built.status.code(), Some(0), "{built:?}");
    committed
}

#[test]
fn the_streamed_diff_against_a_rendered_tree_agrees_with_comparing_whole_renders() {
    let expected = diff_of_whole_renders();
    let committed = committed_base("against");
    for chunk in [1, usize::MAX] {
        let compared = run_fleet(&source("head"), &Options::default(), |run| {
            diff::against_tree(
                run,
                &RenderedDirectory::open(&committed)?,
                &comparison(chunk),
            )
        });
        assert_eq!(
            streamed(compared.result.unwrap()),
            expected,
            "chunk {chunk}"
        );
    }
    std::fs::remove_dir_all(&committed).unwrap();
}

#[test]
fn a_hand_made_copy_in_a_rendered_tree_does_not_hide_the_object_at_its_path() {
    let committed = committed_base("copy");
    let original = walkdir::WalkDir::new(&committed)
        .into_iter()
        .map(|entry| entry.unwrap().into_path())
        .find(|path| path.to_string_lossy().contains("/configmap_"))
        .expect("the base renders a ConfigMap");
    let text = std::fs::read_to_string(&original).unwrap();
    let copy = original.with_file_name("zz-copy.yaml");
    std::fs::write(&copy, format!("{text}extra: \"1\"\n")).unwrap();
    let compared = run_fleet(&source("base"), &Options::default(), |run| {
        diff::against_tree(
            run,
            &RenderedDirectory::open(&committed)?,
            &comparison(diff::CHUNK),
        )
    });
    let changes = compared.result.unwrap();
    assert!(changes.is_empty(), "{changes:?}");
    std::fs::remove_dir_all(&committed).unwrap();
}
