//! `fedrender diff` judges each changed custom resource as an update of the base's object, as
//! the API server does (ratcheting from Kubernetes 1.30, `optionalOldSelf`). The fixture
//! (testdata/diff-ratchet) narrows a Team's owner to 8 characters in the head's CRD: `keeps`
//! leaves its too-long owner as it was, `renamed` changes it to another too long, and `shrinks`
//! shrinks a size its rule (`optionalOldSelf: true`) lets only grow; member1 runs 1.29, whose
//! API server does not ratchet, member2 1.33.

use std::process::Output;

use crate::common;
use common::fedrender;

fn diff(flags: &[&str]) -> Output {
    let mut args = vec![
        "diff",
        "testdata/diff-ratchet/head",
        "--clusters",
        "testdata/diff-ratchet/clusters.yaml",
        "--base",
        "testdata/diff-ratchet/base",
    ];
    args.extend_from_slice(flags);
    fedrender(&args)
}

/// With the head's own check (a create) warned, the update's findings: the shrink refused on
/// both clusters, by a rule whose `oldSelf` is `optional.of` the base's value; the unchanged
/// owner a note on member2 alone, whose 1.33 ratchets it (on member1 the update refuses it
/// as the create does, which the head's check already said); the renamed owner nothing beyond
/// the head's check.
#[test]
fn changed_custom_resources_are_judged_as_updates_of_the_base() {
    let output = diff(&["--warn", "schema-invalid", "--format", "json"]);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let findings: Vec<(String, String, String, Vec<String>)> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|finding| {
            (
                finding["level"].as_str().unwrap().to_string(),
                finding["name"].as_str().unwrap().to_string(),
                finding["message"].as_str().unwrap().to_string(),
                serde_json::from_value(finding["clusters"].clone()).unwrap(),
            )
        })
        .collect();
    assert_eq!(
        findings,
        [
            (
                "note".to_string(),
                "keeps".to_string(),
                "spec.owner: \"platform-team\" is longer than 8 characters — ratcheted: judged \
                 as an update of the base's object, whose value is the same, the API server \
                 (from Kubernetes 1.30) does not judge it again, though it would refuse a new \
                 object so written"
                    .to_string(),
                vec!["member2".to_string()]
            ),
            (
                "warning".to_string(),
                "shrinks".to_string(),
                "spec.size: size may not shrink (judged as an update of the base's object)"
                    .to_string(),
                vec!["member1".to_string(), "member2".to_string()]
            ),
        ]
    );
    // The head's own check judged both owners as a create, on both clusters.
    let stderr = String::from_utf8_lossy(&output.stderr);
    for name in ["keeps", "renamed"] {
        assert!(
            stderr.contains(&format!("default/{name}: spec.owner: ")),
            "{stderr}"
        );
    }
}

/// Denied by default, the head's own check of the owners fails the diff before anything is
/// compared: it judges each object as a build would create it, the unchanged owner too.
#[test]
fn the_head_is_still_checked_as_a_build_would_create_it() {
    let output = diff(&[]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("nothing was compared"), "{stderr}");
    assert!(
        stderr.contains("default/keeps: spec.owner: \"platform-team\" is longer than 8"),
        "{stderr}"
    );
}
