//! Quotas and capacity end to end, through the binary: `build` reports `quota-exceeded`
//! (karmada pkg/webhook/resourcebinding/validating.go `isAllowed`, behind
//! FederatedQuotaEnforcement) and `over-capacity` (what pkg/estimator/client/general.go reads as
//! free, against what assignment.go's Duplicated and static-weight assignment place without
//! asking) at their lines; `plan` and `diff` (the pull-request comment and the stat summary)
//! show each cluster's requests and each enforced quota.

use std::path::Path;

use crate::common;

const OVER_CAPACITY: &str = "testdata/over-capacity";
const QUOTA: &str = "testdata/error-quota-exceeded";
const QUOTA_WARNED: &str = "testdata/quota-exceeded-warned";

fn input(scenario: &str) -> String {
    format!("{scenario}/input")
}

fn clusters(scenario: &str) -> String {
    format!("{scenario}/clusters.yaml")
}

fn stdout(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The 2-CPU Deployment under `overall: {cpu: "1"}` with the gate on: Karmada's webhook
/// denies its binding, so `build` fails at the `overall` line and writes nothing; `--warn`
/// renders it with the finding as a warning.
#[test]
fn build_refuses_a_fleet_past_an_enforced_quota_at_the_overall_line() {
    let out = common::empty_scratch("quota-exceeded-build");
    let out_dir = out.join("rendered");
    let output = common::fedrender(&[
        "build",
        &input(QUOTA),
        "--clusters",
        &clusters(QUOTA),
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    let stderr = common::stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(
            "testdata/error-quota-exceeded/input/shop.yaml:36: FederatedResourceQuota shop/q: \
             spec.overall[cpu]: the namespace's workloads request 2 cpu"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("\"FederatedResourceQuota(shop/q) exceeded for resource cpu\""),
        "{stderr}"
    );
    assert!(!out_dir.exists(), "nothing is written on an error");

    let output = common::fedrender(&[
        "build",
        &input(QUOTA),
        "--clusters",
        &clusters(QUOTA),
        "--out",
        out_dir.to_str().unwrap(),
        "--warn",
        "quota-exceeded",
    ]);
    let stderr = common::stderr(&output);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("[quota-exceeded]"), "{stderr}");
    assert!(
        out_dir
            .join("member1/shop/deployment.apps_web.yaml")
            .is_file()
    );
}

/// Two workloads that fit alone and not together: the finding names both as candidates.
#[test]
fn plan_names_every_workload_some_order_denies_and_the_quotas_use() {
    let output = common::fedrender(&[
        "plan",
        &input(QUOTA_WARNED),
        "--clusters",
        &clusters(QUOTA_WARNED),
    ]);
    let (stdout, stderr) = (stdout(&output), common::stderr(&output));
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains(
            "whether it denies Deployment.apps shop/web or Deployment.apps shop/worker depends on \
             the order the scheduler places them in"
        ),
        "{stderr}"
    );
    assert!(
        stdout.contains(
            "quotas (FederatedQuotaEnforcement on: Karmada's binding webhook holds each \
             namespace's bindings to spec.overall):\n  FederatedResourceQuota shop/compute: \
             3500m cpu of 3 (exceeded), 1Gi memory of 1Gi\n"
        ),
        "{stdout}"
    );
    // Neither cluster states a summary: said once, not per workload.
    assert_eq!(
        stdout.matches("no status.resourceSummary").count(),
        1,
        "{stdout}"
    );
}

/// The 10 × 2 CPU Duplicated onto a cluster with 1 CPU free: a warning at the
/// inventory, the plan's capacity lines, and the table's rows.
#[test]
fn plan_shows_each_clusters_requests_against_what_it_has_free() {
    let args = [
        "plan",
        &input(OVER_CAPACITY),
        "--clusters",
        &clusters(OVER_CAPACITY),
    ];
    let output = common::fedrender(&args);
    let (text, stderr) = (stdout(&output), common::stderr(&output));
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains(
            "testdata/over-capacity/clusters.yaml:4: cluster tight: its workloads request 20 cpu \
             of 1 free (19 short), 10Gi memory of 8Gi free (2Gi short)"
        ),
        "{stderr}"
    );
    for line in [
        "  roomy: 20 cpu of 64 free, 10Gi memory of 256Gi free, 10 pods of 110 free\n",
        "  tight: 20 cpu of 1 free (19 short), 10Gi memory of 8Gi free (2Gi short), 10 pods of 105 free\n",
        "  unknown: 20 cpu, 10Gi memory, 10 pods\n",
        "  unknown has no status.resourceSummary in the inventory: what it has free is unknown\n",
    ] {
        assert!(text.contains(line), "{line:?} not in\n{text}");
    }
    let mut table_args = args.to_vec();
    table_args.extend(["--format", "table"]);
    let table = stdout(&common::fedrender(&table_args));
    for row in [
        "CPU requested                20     20       20     60",
        "CPU free                     64      1        ?",
        "memory requested           10Gi   10Gi     10Gi   30Gi",
        "memory free               256Gi    8Gi        ?",
    ] {
        assert!(table.contains(row), "{row:?} not in\n{table}");
    }
    let mut json_args = args.to_vec();
    json_args.extend(["--format", "json"]);
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&common::fedrender(&json_args))).unwrap();
    let web = json
        .as_array()
        .unwrap()
        .iter()
        .find(|entry| entry["name"] == "web")
        .unwrap();
    assert_eq!(
        web["request"],
        serde_json::json!({"cpu": "2", "memory": "1Gi"})
    );
    assert_eq!(
        web["clusters"][0]["requested"],
        serde_json::json!({"cpu": "20", "memory": "10Gi"})
    );
}

/// `diff --base`: the pull-request comment's Capacity section with base → head, the Quotas
/// section, and the stat summary's lines.
#[test]
fn diff_shows_the_requests_base_to_head_and_the_quotas() {
    let scratch = common::empty_scratch("quota-capacity-diff");
    let (base, head) = (scratch.join("base"), scratch.join("head"));
    common::copy_tree(Path::new(&input(OVER_CAPACITY)), &base);
    common::copy_tree(Path::new(&input(OVER_CAPACITY)), &head);
    let deployment = std::fs::read_to_string(base.join("shop.yaml")).unwrap();
    std::fs::write(
        base.join("shop.yaml"),
        deployment.replace("replicas: 10", "replicas: 2"),
    )
    .unwrap();
    let quota = "apiVersion: policy.karmada.io/v1alpha1
kind: FederatedResourceQuota
metadata: {name: compute, namespace: shop}
spec:
  overall: {cpu: \"40\"}
";
    let config = "apiVersion: fedrender.io/v1alpha1
kind: Config
spec:
  karmada:
    featureGates: {FederatedQuotaEnforcement: true}
  lints: {quota-exceeded: warn}
";
    for side in [&base, &head] {
        std::fs::write(side.join("quota.yaml"), quota).unwrap();
        std::fs::write(side.join("fedrender.yaml"), config).unwrap();
    }
    let diff = |format: &str| {
        common::fedrender(&[
            "diff",
            head.to_str().unwrap(),
            "--base",
            base.to_str().unwrap(),
            "--clusters",
            &clusters(OVER_CAPACITY),
            "--format",
            format,
        ])
    };
    let output = diff("markdown");
    let (comment, stderr) = (stdout(&output), common::stderr(&output));
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    for part in [
        "#### Capacity\n\n| cluster | CPU requested | memory requested | CPU free | memory free | |\n",
        "| roomy | 4 → 20 | 2Gi → 10Gi | 64 | 256Gi |  |\n",
        "| tight | 4 → 20 | 2Gi → 10Gi | 1 | 8Gi | **over capacity** |\n",
        "| unknown | 4 → 20 | 2Gi → 10Gi | ? | ? |  |\n",
        "unknown has no status.resourceSummary in the inventory: what it has free is unknown.\n",
        "#### Quotas\n\n- **exceeded** `FederatedResourceQuota shop/compute` cpu: 12 → 60 of 40\n",
    ] {
        assert!(comment.contains(part), "{part:?} not in\n{comment}");
    }
    // The head's finding names the quota; the base's is marked.
    assert!(stderr.contains("more than the overall 40"), "{stderr}");
    assert!(stderr.contains("(base) cluster tight"), "{stderr}");
    let stat = stdout(&diff("stat"));
    for line in [
        "~ capacity tight: 4 → 20 cpu, 2Gi → 10Gi memory requested; over capacity: 20 cpu of 1 free (19 short), 10Gi memory of 8Gi free (2Gi short)\n",
        "! quota FederatedResourceQuota shop/compute: 60 cpu of 40 (exceeded)\n",
    ] {
        assert!(stat.contains(line), "{line:?} not in\n{stat}");
    }
    // The unified diff says the same in comments above the hunks.
    let unified = stdout(&diff("unified"));
    for line in [
        "# capacity tight: 4 → 20 cpu, 2Gi → 10Gi memory requested; over capacity: ",
        "# quota FederatedResourceQuota shop/compute: 60 cpu of 40 (exceeded)\n",
    ] {
        assert!(unified.contains(line), "{line:?} not in\n{unified}");
    }
    let json: serde_json::Value = serde_json::from_str(&stdout(&diff("json"))).unwrap();
    assert_eq!(json["capacity"]["quotas"][0]["requested"], "60");
    assert_eq!(json["baseCapacity"]["quotas"][0]["requested"], "12");
}
