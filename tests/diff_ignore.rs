//! Structural ignores in `fedrender diff` (issue 35, item 3): `--ignore-field` and
//! `--ignore-resource` hide changes by object and field, the report counts what each rule hid,
//! and a diff left with hidden changes only exits 0. Fixtures: testdata/diff-danger/.

use crate::common;
use common::{copy_tree, empty_scratch, fedrender};

/// `fedrender diff` of a fixture of testdata/diff-danger, head against base, with `flags`.
fn diff(name: &str, flags: &[&str]) -> std::process::Output {
    let head = format!("testdata/diff-danger/{name}/head");
    diff_head(std::path::Path::new(&head), name, flags)
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
        serde_json::json!([{"rule": "--ignore-resource core:ConfigMap:shop/set*", "changes": 2, "fieldsLeftOut": 0}])
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

/// The head of `name` with a Config directly in it holding `config` (the YAML of its `spec`),
/// in a scratch directory.
fn head_with_config(name: &str, config: &str) -> std::path::PathBuf {
    // Unique per call: the tests run in parallel in one process.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = empty_scratch(&format!("diff-ignore-config-{name}-{call}")).join("head");
    copy_tree(
        std::path::Path::new(&format!("testdata/diff-danger/{name}/head")),
        &dir,
    );
    std::fs::write(
        dir.join("fedrender.yaml"),
        format!("apiVersion: fedrender.io/v1alpha1\nkind: Config\nspec:\n{config}"),
    )
    .unwrap();
    dir
}

/// A fixture of testdata/diff-danger copied, head and base, each with the same Config `config`
/// (its spec's lines): a Config already merged, which the review runs by.
fn sides_with_config(name: &str, config: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let head = head_with_config(name, config);
    let base = head.parent().unwrap().join("base");
    copy_tree(
        std::path::Path::new(&format!("testdata/diff-danger/{name}/base")),
        &base,
    );
    std::fs::copy(head.join("fedrender.yaml"), base.join("fedrender.yaml")).unwrap();
    (head, base)
}

/// `fedrender diff` of `head` against `base`, with the fixtures' inventory.
fn diff_between(
    head: &std::path::Path,
    base: &std::path::Path,
    flags: &[&str],
) -> std::process::Output {
    let mut args = vec![
        "diff",
        head.to_str().unwrap(),
        "--clusters",
        "testdata/diff-danger/clusters.yaml",
        "--base",
        base.to_str().unwrap(),
    ];
    args.extend_from_slice(flags);
    fedrender(&args)
}

/// `fedrender diff` of `head` against the base of a fixture of testdata/diff-danger.
fn diff_head(head: &std::path::Path, name: &str, flags: &[&str]) -> std::process::Output {
    let base = format!("testdata/diff-danger/{name}/base");
    let mut args = vec![
        "diff",
        head.to_str().unwrap(),
        "--clusters",
        "testdata/diff-danger/clusters.yaml",
        "--base",
        base.as_str(),
    ];
    args.extend_from_slice(flags);
    fedrender(&args)
}

/// The rules in the base's Config (the merged one a review runs by) hide as the flags do,
/// named with their file and line; flags add to them.
#[test]
fn a_config_s_rules_hide_as_the_flags_do_and_are_named_where_written() {
    let (head, base) = sides_with_config(
        "pruned",
        "  diff:\n    ignoreResources:\n    - core:ConfigMap:shop/set*\n",
    );
    let output = diff_between(&head, &base, &["--format", "json"]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let written = format!("{}:6", base.join("fedrender.yaml").display());
    assert_eq!(
        report["hidden"],
        serde_json::json!([{
            "rule": format!("spec.diff.ignoreResources core:ConfigMap:shop/set* ({written})"),
            "changes": 2,
            "fieldsLeftOut": 0
        }])
    );
    assert_eq!(report["findings"], serde_json::json!([]));

    std::fs::remove_dir_all(head.parent().unwrap()).unwrap();

    // A Config's rule that names other objects hides nothing and is not listed; a flag still
    // adds its own.
    let (head, base) = sides_with_config(
        "replicas-zero",
        "  diff:\n    ignoreFields: [apps/Deployment/other/*=/spec/replicas]\n",
    );
    let shown = diff_between(&head, &base, &["--format", "stat"]);
    assert_eq!(shown.status.code(), Some(1), "{shown:?}");
    let flagged = diff_between(
        &head,
        &base,
        &["--format", "stat", "--ignore-field", "/spec/replicas"],
    );
    assert_eq!(flagged.status.code(), Some(0), "{flagged:?}");
    assert!(
        String::from_utf8_lossy(&flagged.stdout)
            .ends_with("3 changes hidden: 3 by --ignore-field /spec/replicas\n"),
        "{flagged:?}"
    );
    std::fs::remove_dir_all(head.parent().unwrap()).unwrap();
}

/// A rule that does not parse is an error at its line; a field the Config does not know is
/// refused, as everywhere in the Config.
#[test]
fn a_config_s_malformed_rule_or_unknown_field_is_an_error_at_its_line() {
    let head = head_with_config(
        "pruned",
        "  diff:\n    ignoreFields:\n    - /metadata/labels\n    - spec.replicas\n",
    );
    let output = diff_head(&head, "pruned", &[]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("fedrender.yaml:7: Config: spec.diff.ignoreFields: \"spec.replicas\""),
        "{stderr}"
    );

    std::fs::remove_dir_all(head.parent().unwrap()).unwrap();
    let head = head_with_config("pruned", "  diff:\n    ignoreField: [/spec/replicas]\n");
    let output = diff_head(&head, "pruned", &[]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("fedrender.yaml:5: unknown field `ignoreField`"),
        "{stderr}"
    );
    std::fs::remove_dir_all(head.parent().unwrap()).unwrap();
}

/// Argo CD's `ignoreDifferences`: an ignored field is left out of the comparison on both
/// sides, always. A change with other differences too is shown without the field, raises no
/// finding about it, and the report counts the field rule on each such change.
#[test]
fn an_ignored_field_is_left_out_of_a_change_that_shows_for_other_reasons() {
    let root = empty_scratch("diff-ignore-narrowed");
    let head = root.join("head");
    copy_tree(
        std::path::Path::new("testdata/diff-danger/replicas-zero/head"),
        &head,
    );
    let fleet = head.join("fleet.yaml");
    let text = std::fs::read_to_string(&fleet).unwrap();
    std::fs::write(&fleet, text.replace("image: \"web:1\"", "image: \"web:2\"")).unwrap();
    let output = diff_head(
        &head,
        "replicas-zero",
        &[
            "--format",
            "json",
            "--ignore-field",
            "apps/Deployment=/spec/replicas",
        ],
    );
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        report["hidden"],
        serde_json::json!([{
            "rule": "--ignore-field apps/Deployment=/spec/replicas",
            "changes": 0,
            "fieldsLeftOut": 3
        }])
    );
    // The replicas going to 0 on the eu clusters are out of the comparison: no finding.
    assert_eq!(report["findings"], serde_json::json!([]), "{report}");
    let unified = diff_head(
        &head,
        "replicas-zero",
        &["--ignore-field", "apps/Deployment=/spec/replicas"],
    );
    let shown = String::from_utf8_lossy(&unified.stdout);
    assert!(shown.contains("\n+        image: web:2\n"), "{shown}");
    assert!(!shown.contains("replicas:"), "{shown}");
    // us-1 keeps 2 replicas: there the field hid no difference.
    assert!(
        shown.starts_with(
            "# ignored fields left out of 3 changes shown: 3 by --ignore-field apps/Deployment=/spec/replicas\n"
        ),
        "{shown}"
    );
    std::fs::remove_dir_all(&root).unwrap();
}

/// A pull request cannot lower its own gate (issue 50): under the documented CI workflow
/// (`--strict`), its own Config allowing a lint and hiding every resource changes neither the
/// levels nor what is hidden: the base's Config (here none: the defaults) is the review's, and
/// each relaxation is a `policy-relaxed` finding of its own, first, denied under --strict.
#[test]
fn a_pull_request_s_config_does_not_lower_its_own_gate() {
    let head = head_with_config(
        "immutable-field",
        "  lints: {immutable-field: allow}\n  diff:\n    ignoreResources: [\"*:*:*/*\"]\n",
    );
    let output = diff_head(&head, "immutable-field", &["--format", "json", "--strict"]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let findings: Vec<(&str, &str)> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|finding| {
            (
                finding["lint"].as_str().unwrap(),
                finding["level"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        findings,
        [
            ("policy-relaxed", "error"),
            ("policy-relaxed", "error"),
            ("immutable-field", "error"),
        ],
        "{report}"
    );
    assert_eq!(report["hidden"], serde_json::json!([]), "{report}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.matches("[policy-relaxed]").count(), 2, "{stderr}");
    assert!(
        stderr.contains("sets spec.lints.immutable-field: allow where the defaults (the base has no Config) have it at deny; this review keeps deny"),
        "{stderr}"
    );
    assert!(
        stderr.contains("adds spec.diff.ignoreResources *:*:*/*, which the defaults (the base has no Config) have not"),
        "{stderr}"
    );
    // The command line wins over any Config: the workflow may allow what it chooses.
    let allowed = diff_head(
        &head,
        "immutable-field",
        &[
            "--format",
            "json",
            "--strict",
            "--allow",
            "immutable-field",
            "--allow",
            "policy-relaxed",
        ],
    );
    assert_eq!(allowed.status.code(), Some(1), "{allowed:?}");
    // Once merged (the same Config in the base), the rules are the review's and relax nothing.
    std::fs::remove_dir_all(head.parent().unwrap()).unwrap();
    let (head, base) = sides_with_config(
        "immutable-field",
        "  lints: {immutable-field: allow}\n  diff:\n    ignoreResources: [\"*:*:*/*\"]\n",
    );
    let merged = diff_between(&head, &base, &["--format", "json", "--strict"]);
    assert_eq!(merged.status.code(), Some(0), "{merged:?}");
    std::fs::remove_dir_all(head.parent().unwrap()).unwrap();
}
