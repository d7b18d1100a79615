//! Structural ignores in `fedrender diff` (issue 35, item 3): `--ignore-field` and
//! `--ignore-resource` hide changes by object and field, the report counts what each rule hid,
//! and a diff left with hidden changes only exits 0. Fixtures: testdata/diff-danger/.

mod common;
use common::fedrender;

fn diff(name: &str, flags: &[&str]) -> std::process::Output {
    let head = format!("testdata/diff-danger/{name}/head");
    let base = format!("testdata/diff-danger/{name}/base");
    let mut args = vec![
        "diff",
        head.as_str(),
        "--clusters",
        "testdata/diff-danger/clusters.yaml",
        "--base",
        base.as_str(),
    ];
    args.extend_from_slice(flags);
    fedrender(&args)
}

#[test]
fn hidden_changes_only_exit_0_and_are_counted_by_rule() {
    // The eu clusters go to 0 replicas: a change of spec.replicas alone, on three clusters.
    let output = diff(
        "replicas-zero",
        &[
            "--format",
            "stat",
            "--ignore-field",
            "apps/Deployment=/spec/replicas",
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        "0 clusters changed: 0 added, 0 changed, 0 removed\n3 changes hidden: 3 by --ignore-field apps/Deployment=/spec/replicas\n"
    );
    // Hidden changes raise no finding.
    assert!(!String::from_utf8_lossy(&output.stderr).contains("[replicas-zero]"));
    let markdown = diff(
        "replicas-zero",
        &[
            "--format",
            "markdown",
            "--ignore-field",
            "apps/Deployment/shop/w*=/spec/replicas",
        ],
    );
    assert_eq!(
        String::from_utf8_lossy(&markdown.stdout),
        "### fedrender diff\n\nNo changes to the rendered fleet.\n\n3 changes hidden: 3 by `--ignore-field apps/Deployment/shop/w*=/spec/replicas`\n"
    );
}

#[test]
fn a_field_rule_for_other_objects_or_fields_hides_nothing() {
    for rule in [
        "apps/StatefulSet=/spec/replicas",
        "apps/Deployment=/spec/paused",
    ] {
        let output = diff(
            "replicas-zero",
            &["--format", "json", "--ignore-field", rule],
        );
        assert_eq!(output.status.code(), Some(1), "{rule}");
        let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(report["hidden"], serde_json::json!([]), "{rule}");
        assert_eq!(report["summary"]["changed"], 3, "{rule}");
    }
}

#[test]
fn a_resource_rule_hides_every_change_to_its_objects() {
    let output = diff(
        "pruned",
        &[
            "--format",
            "json",
            "--ignore-resource",
            "core:ConfigMap:shop/set*",
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        report["hidden"],
        serde_json::json!([{"rule": "--ignore-resource core:ConfigMap:shop/set*", "changes": 2}])
    );
    assert_eq!(report["findings"], serde_json::json!([]));
}

#[test]
fn a_malformed_rule_is_a_usage_error() {
    let output = diff("pruned", &["--ignore-field", "spec.replicas"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("JSON_POINTER"), "{stderr}");
}
