//! Transition rules (CEL rules of a CRD reading `oldSelf`) in `fedrender diff`: a build skips
//! them, having no old object, but a diff has one, the base's rendered object. The fixture
//! (testdata/diff-transition) changes an immutable class on both clusters and shrinks a size
//! that may only grow on member1 alone, and grows another Gate's size, which the rule allows.

use std::process::Output;

use crate::common;
use common::fedrender;

fn diff(flags: &[&str]) -> Output {
    let mut args = vec![
        "diff",
        "testdata/diff-transition/head",
        "--clusters",
        "testdata/diff-transition/clusters.yaml",
        "--base",
        "testdata/diff-transition/base",
    ];
    args.extend_from_slice(flags);
    fedrender(&args)
}

/// Each failing rule once, with its message (the evaluated messageExpression for the size),
/// its field and exactly the clusters it fails on; the Gate that grows raises nothing; the
/// findings are schema-invalid, denied by default, so the diff exits 2 after its report.
#[test]
fn transition_rules_are_judged_against_the_base() {
    let output = diff(&["--format", "json"]);
    assert_eq!(output.status.code(), Some(2));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let findings: Vec<(String, String, Vec<String>)> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|finding| {
            (
                finding["name"].as_str().unwrap().to_string(),
                finding["message"].as_str().unwrap().to_string(),
                serde_json::from_value(finding["clusters"].clone()).unwrap(),
            )
        })
        .collect();
    let judged = "(judged as an update of the base's object)";
    assert_eq!(
        findings,
        [
            (
                "edge".to_string(),
                format!("spec.className: className is immutable {judged}"),
                vec!["member1".to_string(), "member2".to_string()]
            ),
            (
                "edge".to_string(),
                format!("spec.size: size may not shrink below 3 {judged}"),
                vec!["member1".to_string()]
            ),
        ]
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("`fedrender diff` judges them against its base"),
        "{stderr}"
    );
}

/// Allowed as a warning, the diff reports them and exits 1 for the differences.
#[test]
fn a_warned_transition_rule_does_not_fail_the_diff() {
    let output = diff(&["--warn", "schema-invalid"]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("spec.size: size may not shrink below 3"),
        "{stderr}"
    );
}
