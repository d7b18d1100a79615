//! The danger lints of `fedrender diff`, end to end: for each rule a base/head pair under
//! testdata/diff-danger/ (each fleet.yaml says what it changes), diffed by the real binary;
//! each rule fires once with exactly the clusters it happens on, its mutable twin stays silent,
//! an escape hatch lowers it to a note, and the levels, formats and exit codes work as for
//! build lints.

use std::path::PathBuf;
use std::process::Output;

use crate::common;
use common::fedrender;

const CLUSTERS: &str = "testdata/diff-danger/clusters.yaml";

fn case(name: &str, side: &str) -> String {
    format!("testdata/diff-danger/{name}/{side}")
}

/// `fedrender diff` of a case's head against its base input, with more flags.
fn diff(name: &str, flags: &[&str]) -> Output {
    let (head, base) = (case(name, "head"), case(name, "base"));
    let mut args = vec![
        "diff",
        head.as_str(),
        "--clusters",
        CLUSTERS,
        "--base",
        base.as_str(),
    ];
    args.extend_from_slice(flags);
    fedrender(&args)
}

/// The findings of the JSON report: (lint, clusters, level), and the whole list.
fn findings(output: &Output) -> (Vec<(String, Vec<String>, String)>, serde_json::Value) {
    let report: serde_json::Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|error| panic!("{error}: {}", String::from_utf8_lossy(&output.stdout)));
    let list = report["findings"].clone();
    let summary = list
        .as_array()
        .expect("a findings list")
        .iter()
        .map(|finding| {
            (
                finding["lint"].as_str().unwrap().to_string(),
                finding["clusters"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|cluster| cluster.as_str().unwrap().to_string())
                    .collect(),
                finding["level"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    (summary, list)
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|item| item.to_string()).collect()
}

/// Each rule once, on exactly the clusters the fixture changes, with the message a reviewer
/// reads on the terminal (the human line on standard error).
#[test]
fn each_rule_fires_once_on_exactly_its_clusters() {
    let cases: [(&str, &str, &[&str], &str); 8] = [
        (
            "immutable-field",
            "immutable-field",
            &["eu-1", "eu-2", "eu-3"],
            "StatefulSet.apps shop/db spec.serviceName cannot change on update [immutable-field]",
        ),
        (
            "pvc-shrink",
            "pvc-shrink",
            &["eu-2", "us-1"],
            "PersistentVolumeClaim shop/data storage request 10Gi → 5000Mi [pvc-shrink]",
        ),
        (
            "replicas-zero",
            "replicas-zero",
            &["eu-1", "eu-2", "eu-3"],
            "Deployment.apps shop/web replicas 2 → 0 [replicas-zero]",
        ),
        (
            "replica-shift",
            "replica-shift",
            &["eu-1", "us-1"],
            "Deployment.apps shop/web replicas move between clusters: eu-1 2 → 1, us-1 2 → 3, total 4 → 4 [replica-shift]",
        ),
        (
            "pruned",
            "pruned",
            &["eu-2", "eu-3"],
            "ConfigMap shop/settings leaves the cluster while its template stays [pruned]",
        ),
        (
            "hpa-owns-replicas",
            "hpa-owns-replicas",
            &["eu-1", "us-1"],
            "Deployment.apps shop/web spec.replicas is written (3) while HorizontalPodAutoscaler web scales it [hpa-owns-replicas]",
        ),
        (
            "hpa-added",
            "hpa-owns-replicas",
            &["eu-1", "us-1"],
            "Deployment.apps shop/web spec.replicas is written while HorizontalPodAutoscaler web is added to scale it [hpa-owns-replicas]",
        ),
        (
            "preserved-on-deletion",
            "preserved-on-deletion",
            &["eu-1", "us-1"],
            "ConfigMap shop/settings its template is deleted while PropagationPolicy shop/settings sets preserveResourcesOnDeletion: true: Karmada would keep the objects on the members [preserved-on-deletion]",
        ),
    ];
    for (name, lint, clusters, line) in cases {
        let output = diff(name, &["--format", "json"]);
        assert_eq!(output.status.code(), Some(1), "{name}: {output:?}");
        let (summary, list) = findings(&output);
        assert_eq!(
            summary,
            [(lint.to_string(), strings(clusters), "warning".to_string())],
            "{name}"
        );
        for field in ["message", "argoCD", "flux", "fix"] {
            assert!(
                list[0][field].as_str().is_some_and(|text| !text.is_empty()),
                "{name}: {field}"
            );
        }
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(line), "{name}: {stderr}");
    }
}

#[test]
fn the_mutable_twins_raise_nothing() {
    // The first two still change something: the twin is a real change, just an allowed one.
    // `3.0` is no change at all: Kubernetes' reader (YAMLToJSON) writes the float 3 as 3, so
    // Karmada's Work, and fedrender's render, hold the same object on both sides.
    for (name, exit) in [
        ("statefulset-template", 1),
        ("pvc-grow", 1),
        ("replicas-written-as-float", 0),
    ] {
        let output = diff(name, &["--format", "json"]);
        assert_eq!(output.status.code(), Some(exit), "{name}: {output:?}");
        let (summary, _) = findings(&output);
        assert!(summary.is_empty(), "{name}: {summary:?}");
    }
}

#[test]
fn an_escape_hatch_lowers_a_finding_to_a_note() {
    for (name, lint, clusters, annotation) in [
        (
            "immutable-field-replace",
            "immutable-field",
            &["eu-1", "eu-2", "eu-3"][..],
            "argocd.argoproj.io/sync-options: Replace=true",
        ),
        (
            "pruned-kept",
            "pruned",
            &["eu-2", "eu-3"][..],
            "kustomize.toolkit.fluxcd.io/prune: disabled",
        ),
    ] {
        let output = diff(name, &["--format", "json"]);
        let (summary, list) = findings(&output);
        assert_eq!(
            summary,
            [(lint.to_string(), strings(clusters), "note".to_string())],
            "{name}"
        );
        assert_eq!(list[0]["loweredBy"], annotation, "{name}");
        // A note is in the report, not a warning in the log.
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!stderr.contains(&format!("[{lint}]")), "{name}: {stderr}");
        // Even denied: the hatch was written on purpose.
        let denied = diff(name, &["--format", "json", "--deny", lint]);
        assert_eq!(denied.status.code(), Some(1), "{name}: {denied:?}");
    }
}

/// A denied finding fails the run as a denied lint fails `build` (exit 2), but the report is
/// printed whole first; an allowed one is gone from the report too.
#[test]
fn levels_deny_and_allow_findings_and_a_denied_one_still_prints_the_report() {
    let denied = diff("pruned", &["--format", "markdown", "--deny", "pruned"]);
    assert_eq!(denied.status.code(), Some(2), "{denied:?}");
    let report = String::from_utf8_lossy(&denied.stdout);
    assert!(report.contains("#### Review"), "{report}");
    assert!(
        report
            .contains("- **error** `pruned` `ConfigMap shop/settings` on eu-2, eu-3 (2 clusters)"),
        "{report}"
    );
    assert!(report.contains("<details>"), "{report}");
    let stderr = String::from_utf8_lossy(&denied.stderr);
    assert!(
        stderr.contains("error: testdata/diff-danger/pruned/head/fleet.yaml:"),
        "{stderr}"
    );
    assert!(
        stderr.contains("fedrender: 1 danger finding denied by a lint level"),
        "{stderr}"
    );
    let allowed = diff("pruned", &["--format", "json", "--allow", "pruned"]);
    assert_eq!(allowed.status.code(), Some(1));
    assert!(findings(&allowed).0.is_empty());
    assert!(!String::from_utf8_lossy(&allowed.stderr).contains("[pruned]"));
}

/// The pull-request comment puts the Review above the hunks, with what Argo CD and Flux do and
/// the fix; `--message-format github` annotates the template's line.
#[test]
fn the_comment_reviews_above_the_hunks_and_github_gets_annotations() {
    let output = diff(
        "immutable-field",
        &["--format", "markdown", "--message-format", "github"],
    );
    let report = String::from_utf8_lossy(&output.stdout);
    let review = report.find("#### Review").expect("a Review section");
    assert!(review < report.find("<details>").unwrap(), "{report}");
    assert!(
        report.contains("- **warning** `immutable-field` `StatefulSet.apps shop/db` on eu-1 … eu-3 (3 clusters): spec.serviceName cannot change on update.  \n  Argo CD: the sync fails with \"field is immutable\""),
        "{report}"
    );
    assert!(report.contains("Fix: recreate the object"), "{report}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("::warning file=testdata/diff-danger/immutable-field/head/fleet.yaml,line=13,title=fedrender immutable-field::StatefulSet.apps shop/db spec.serviceName cannot change on update"),
        "{stderr}"
    );
}

/// With a rendered tree as the base, the base's policies are not known: a deleted template is
/// a note saying so rather than a finding.
#[test]
fn against_a_rendered_tree_a_deleted_template_is_a_note_on_what_cannot_be_known() {
    let out = scratch("preserved-against");
    let built = fedrender(&[
        "build",
        &case("preserved-on-deletion", "base"),
        "--clusters",
        CLUSTERS,
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(built.status.code(), Some(0), "{built:?}");
    let output = fedrender(&[
        "diff",
        &case("preserved-on-deletion", "head"),
        "--clusters",
        CLUSTERS,
        "--against",
        out.to_str().unwrap(),
        "--format",
        "json",
    ]);
    let (summary, list) = findings(&output);
    assert_eq!(
        summary,
        [(
            "preserved-on-deletion".to_string(),
            strings(&["eu-1", "us-1"]),
            "note".to_string()
        )]
    );
    assert!(
        list[0]["message"]
            .as_str()
            .unwrap()
            .contains("cannot be known from a rendered tree"),
        "{list}"
    );
    std::fs::remove_dir_all(&out).unwrap();
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The fix the hpa-owns-replicas finding names is what `build --gitops argocd` writes.
#[test]
fn the_argo_cd_wiring_leaves_an_autoscaled_workloads_replicas_to_its_hpa() {
    let output = diff("hpa-owns-replicas", &["--format", "json"]);
    let (_, list) = findings(&output);
    let fix = list[0]["fix"].as_str().unwrap();
    assert!(
        fix.contains("ignoreDifferences entry (group apps, kind Deployment, namespace shop, name web, jsonPointers /spec/replicas)"),
        "{fix}"
    );
    let out = scratch("hpa-gitops");
    let built = fedrender(&[
        "build",
        &case("hpa-owns-replicas", "head"),
        "--clusters",
        CLUSTERS,
        "--out",
        out.to_str().unwrap(),
        "--gitops",
        "argocd",
        "--gitops-repo",
        "https://git.example.com/fleet.git",
        "--gitops-path",
        "rendered",
    ]);
    assert_eq!(built.status.code(), Some(0), "{built:?}");
    let set = std::fs::read_to_string(out.join("_gitops/applicationset.yaml")).unwrap();
    assert!(
        set.contains("ignoreDifferences:\n      - group: apps\n        kind: Deployment\n        name: web\n        jsonPointers:\n        - /spec/replicas\n        namespace: shop\n"),
        "{set}"
    );
    assert!(set.contains("- RespectIgnoreDifferences=true\n"), "{set}");
    std::fs::remove_dir_all(&out).unwrap();
}

use crate::common::fleet_generator;

/// The benchmark's fleet at 2,000 templates × 50 clusters and its next revision (new image tags
/// on every 97th template, Divided ones among them): a routine change, nothing dangerous.
#[test]
fn an_image_bump_on_the_benchmark_fleet_raises_no_finding() {
    let root = scratch("danger-bench-fleet");
    let base = fleet_generator::generate(
        &root.join("base"),
        2000,
        50,
        0,
        fleet_generator::Workload::Deployment,
    );
    let head = fleet_generator::generate(
        &root.join("head"),
        2000,
        50,
        1,
        fleet_generator::Workload::Deployment,
    );
    let inventory = root.join("head/clusters.yaml");
    let output = fedrender(&[
        "diff",
        head.to_str().unwrap(),
        "--clusters",
        inventory.to_str().unwrap(),
        "--base",
        base.to_str().unwrap(),
        "--format",
        "json",
        "--quiet",
    ]);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert!(
        report["summary"]["changed"].as_u64().unwrap() > 100,
        "{}",
        report["summary"]
    );
    assert_eq!(report["findings"], serde_json::json!([]));
    std::fs::remove_dir_all(&root).unwrap();
}

/// A deleted Namespace whose policy preserves it on member1 alone: Karmada keeps member1's
/// copy and deletes the one its namespace controller made on member2 (karmada
/// namespace_sync_controller.go makes Works without the policy's preserve setting), so the
/// finding names member1 and says what happens on member2.
#[test]
fn a_deleted_namespace_is_preserved_only_on_its_policy_clusters() {
    let head = common::empty_scratch("namespace-deleted");
    std::fs::write(
        head.join("fleet.yaml"),
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: left, namespace: default}\n",
    )
    .unwrap();
    let output = fedrender(&[
        "diff",
        head.to_str().unwrap(),
        "--clusters",
        "testdata/namespace-preserved-on-its-clusters/clusters.yaml",
        "--base",
        "testdata/namespace-preserved-on-its-clusters/input",
        "--format",
        "json",
    ]);
    let (summary, list) = findings(&output);
    assert_eq!(
        summary,
        [(
            "preserved-on-deletion".to_string(),
            strings(&["member1"]),
            "warning".to_string()
        )],
        "{output:?}"
    );
    let message = list[0]["message"].as_str().unwrap();
    assert!(
        message.contains("ClusterPropagationPolicy keep-shop")
            && message.ends_with("namespace controller made on member2"),
        "{message}"
    );
}
