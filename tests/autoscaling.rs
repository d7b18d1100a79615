//! FederatedHPA and CronFederatedHPA end to end: `plan` shows each end and rule of the
//! envelope with the scheduler's division, `build --at-replicas` and `--at` render them, and
//! what Karmada's webhooks refuse fails at its line with nothing written (karmada
//! pkg/controllers/federatedhpa, pkg/controllers/cronfederatedhpa, pkg/webhook/*federatedhpa).

use std::path::Path;

use crate::common;
use common::{empty_scratch, fedrender, stderr};

const FLEET: &str = "testdata/federated-hpa/input";
const CLUSTERS: &str = "testdata/federated-hpa/clusters.yaml";

fn replicas(out: &Path, cluster: &str, name: &str) -> String {
    let text = std::fs::read_to_string(
        out.join(cluster)
            .join(format!("shop/deployment.apps_{name}.yaml")),
    )
    .unwrap();
    text.lines()
        .find_map(|line| line.trim().strip_prefix("replicas: "))
        .unwrap()
        .to_string()
}

fn build(out: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "build",
        FLEET,
        "--clusters",
        CLUSTERS,
        "--out",
        out.to_str().unwrap(),
        "-q",
    ];
    args.extend_from_slice(extra);
    fedrender(&args)
}

/// federatedhpa_controller.go `reconcileAutoscaler` writes the bound into the template's scale;
/// the scheduler divides it 1:3.
#[test]
fn build_at_replicas_renders_each_end_of_the_federated_hpa() {
    let out = empty_scratch("autoscaling-ends").join("out");
    for (end, web) in [("min", ["1", "1"]), ("max", ["3", "7"])] {
        let built = build(&out, &["--at-replicas", end]);
        assert_eq!(built.status.code(), Some(0), "{}", stderr(&built));
        assert_eq!(
            [
                replicas(&out, "member1", "web"),
                replicas(&out, "member2", "web")
            ],
            web,
            "--at-replicas {end}"
        );
        // api has no FederatedHPA: as written, 2 replicas.
        assert_eq!(replicas(&out, "member2", "api"), "1");
    }
    let as_written = build(&out, &[]);
    assert_eq!(as_written.status.code(), Some(0), "{}", stderr(&as_written));
    assert_eq!(replicas(&out, "member2", "web"), "3");
}

/// cronfederatedhpa_job.go `ScaleFHPA` and `ScaleWorkloads` at the last firing of each rule,
/// in the rule's zone: 07:30 UTC is 08:30 in Berlin, before the morning rule.
#[test]
fn build_at_renders_the_cron_rules_in_their_time_zones() {
    let out = empty_scratch("autoscaling-at").join("out");
    for (at, web, api) in [
        ("2026-12-02T10:00:00+01:00", ["2", "6"], ["1", "3"]),
        ("2026-12-02T07:30:00Z", ["1", "3"], ["1", "3"]),
        ("2026-12-02T23:30:00Z", ["1", "3"], ["0", "0"]),
    ] {
        let built = build(&out, &["--at", at]);
        assert_eq!(built.status.code(), Some(0), "{}", stderr(&built));
        assert_eq!(
            [
                replicas(&out, "member1", "web"),
                replicas(&out, "member2", "web")
            ],
            web,
            "web --at {at}"
        );
        assert_eq!(
            [
                replicas(&out, "member1", "api"),
                replicas(&out, "member2", "api")
            ],
            api,
            "api --at {at}"
        );
    }
    let bad = build(&out, &["--at", "tomorrow at nine"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("is not an RFC 3339 time"),
        "{}",
        stderr(&bad)
    );
}

#[test]
fn plan_shows_every_end_and_rule_with_its_division() {
    let plan = fedrender(&["plan", FLEET, "--clusters", CLUSTERS, "-q"]);
    assert_eq!(plan.status.code(), Some(0), "{}", stderr(&plan));
    let text = String::from_utf8(plan.stdout).unwrap();
    for line in [
        "  ~ FederatedHPA shop/web at minReplicas, 2 replicas: member1 1, member2 1\n",
        "  ~ FederatedHPA shop/web at maxReplicas, 10 replicas: member1 3, member2 7\n",
        "  ~ CronFederatedHPA shop/web-office-hours at rule morning (0 9 * * 1-5, Europe/Berlin): maxReplicas, 20 replicas: member1 5, member2 15\n",
        "  ~ CronFederatedHPA shop/api-night at rule night (0 22 * * *, UTC), 0 replicas: member1 0, member2 0\n",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
    let json = fedrender(&[
        "plan",
        FLEET,
        "--clusters",
        CLUSTERS,
        "-q",
        "--format",
        "json",
        "--name",
        "web",
    ]);
    let entries: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let web = entries
        .as_array()
        .unwrap()
        .iter()
        .find(|entry| entry["kind"] == "Deployment")
        .unwrap();
    assert_eq!(web["autoscaling"][1]["moment"], "maxReplicas");
    assert_eq!(web["autoscaling"][1]["clusters"][1]["replicas"], 7);
}

/// karmada pkg/webhook/cronfederatedhpa/validating.go and lifted/validatingfhpa.go refuse
/// them: exit 2, each at its line, nothing written.
#[test]
fn an_autoscaler_karmada_refuses_fails_the_build_at_its_line() {
    let out = empty_scratch("autoscaling-refused").join("out");
    let built = fedrender(&[
        "build",
        "testdata/error-federated-hpa-refusals/input",
        "--clusters",
        CLUSTERS,
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(built.status.code(), Some(2));
    let message = stderr(&built);
    assert!(
        message.contains("fleet.yaml:35: CronFederatedHPA.autoscaling.karmada.io shop/web-nights: spec.rules[0].schedule: Invalid value: \"0 25 * * *\": invalid cron format"),
        "{message}"
    );
    assert!(!out.exists());
}

/// `plan` and `diff` take the moment too: the table at maxReplicas; a diff against the tree
/// rendered as written shows what the FederatedHPA's maximum moves, and a diff of a revision
/// with itself renders both sides at the same moment, so nothing differs.
#[test]
fn plan_and_diff_render_at_the_moment_asked_for() {
    let table = fedrender(&[
        "plan",
        FLEET,
        "--clusters",
        CLUSTERS,
        "-q",
        "--format",
        "table",
        "--at-replicas",
        "max",
    ]);
    assert_eq!(table.status.code(), Some(0), "{}", stderr(&table));
    let text = String::from_utf8(table.stdout).unwrap();
    let web = text
        .lines()
        .find(|line| line.starts_with("Deployment.apps shop/web"))
        .unwrap();
    assert_eq!(
        web.split_whitespace().collect::<Vec<_>>()[2..],
        ["3", "7", "10"],
        "{text}"
    );
    let out = empty_scratch("autoscaling-diff").join("out");
    let built = build(&out, &[]);
    assert_eq!(built.status.code(), Some(0), "{}", stderr(&built));
    let against = fedrender(&[
        "diff",
        FLEET,
        "--clusters",
        CLUSTERS,
        "-q",
        "--format",
        "stat",
        "--against",
        out.to_str().unwrap(),
        "--at-replicas",
        "max",
    ]);
    assert_eq!(against.status.code(), Some(1), "{}", stderr(&against));
    let text = String::from_utf8(against.stdout).unwrap();
    assert!(
        text.contains(
            "~ Deployment.apps shop/web replicas: member1 1 → 3, member2 3 → 7 (4 → 10 in all)"
        ),
        "{text}"
    );
    let itself = fedrender(&[
        "diff",
        FLEET,
        "--clusters",
        CLUSTERS,
        "-q",
        "--format",
        "stat",
        "--base",
        FLEET,
        "--at",
        "2026-12-02T10:00:00+01:00",
    ]);
    assert_eq!(
        itself.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&itself.stdout)
    );
}

/// The fleet copied to `dir` with `edit` applied to its one file.
fn edited_fleet(dir: &Path, edit: impl Fn(String) -> String) -> String {
    std::fs::create_dir_all(dir).unwrap();
    let text = std::fs::read_to_string(Path::new(FLEET).join("fleet.yaml")).unwrap();
    std::fs::write(dir.join("fleet.yaml"), edit(text)).unwrap();
    dir.to_str().unwrap().to_string()
}

fn markdown_diff(head: &str, against: &[&str]) -> (Option<i32>, String) {
    let mut args = vec![
        "diff",
        head,
        "--clusters",
        CLUSTERS,
        "-q",
        "--format",
        "markdown",
    ];
    args.extend_from_slice(against);
    let diff = fedrender(&args);
    (diff.status.code(), String::from_utf8(diff.stdout).unwrap())
}

/// `plan --format markdown` gains the envelopes beside the placement, one column per
/// cluster: federatedhpa_controller.go writes the bound into the template's scale and the
/// scheduler divides it 1:3 (static weights); `--cluster` keeps its columns.
#[test]
fn plan_markdown_shows_the_envelopes_per_cluster() {
    let plan = fedrender(&[
        "plan",
        FLEET,
        "--clusters",
        CLUSTERS,
        "-q",
        "--format",
        "markdown",
    ]);
    assert_eq!(plan.status.code(), Some(0), "{}", stderr(&plan));
    let text = String::from_utf8(plan.stdout).unwrap();
    for row in [
        "| workload | autoscaler | at | replicas | member1 | member2 |\n",
        "| Deployment.apps shop/web | FederatedHPA shop/web | maxReplicas | 10 | 3 | 7 |\n",
        "| Deployment.apps shop/web | CronFederatedHPA shop/web-office-hours | `rule morning (0 9 * * 1-5, Europe/Berlin): maxReplicas` | 20 | 5 | 15 |\n",
        "| Deployment.apps shop/api | CronFederatedHPA shop/api-night | `rule night (0 22 * * *, UTC)` | 0 | 0 | 0 |\n",
    ] {
        assert!(text.contains(row), "{row}\n{text}");
    }
    let one = fedrender(&[
        "plan",
        FLEET,
        "--clusters",
        CLUSTERS,
        "-q",
        "--format",
        "markdown",
        "--cluster",
        "member2",
        "--name",
        "web",
    ]);
    let text = String::from_utf8(one.stdout).unwrap();
    assert!(
        text.contains(
            "| Deployment.apps shop/web | FederatedHPA shop/web | maxReplicas | 10 | 7 |\n"
        ),
        "{text}"
    );
    assert!(!text.contains("shop/api-night"), "{text}");
}

/// A FederatedHPA's bounds change no rendered file (Karmada rescales the template on its
/// control plane, federatedhpa_controller.go): the comment still shows the envelope moved,
/// base → head, and the rows of the moments it does not move unchanged.
#[test]
fn the_comment_shows_an_envelope_the_change_moves_though_no_file_changes() {
    let head = edited_fleet(&empty_scratch("envelopes-bounds"), |text| {
        text.replace("  maxReplicas: 10\n", "  maxReplicas: 16\n")
    });
    let (code, text) = markdown_diff(&head, &["--base", FLEET]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("No changes to the rendered fleet."), "{text}");
    for row in [
        "#### Replica envelopes\n",
        "| Deployment.apps shop/web | FederatedHPA shop/web at maxReplicas | 10 → 16 | member1 3 → 4, member2 7 → 12 |\n",
        "| Deployment.apps shop/web | FederatedHPA shop/web at minReplicas | 2 | member1 1, member2 1 |\n",
        "base → head",
    ] {
        assert!(text.contains(row), "{row}\n{text}");
    }
    // api's envelope is its CronFederatedHPA's alone, which did not move; web's six moments
    // are shown open.
    assert!(!text.contains("shop/api"), "{text}");
    assert!(!text.contains("<details>"), "{text}");
}

/// A placement change moves every envelope of the workloads it places (the scheduler's static
/// weights, divide.rs after Karmada's `assignByStaticWeightStrategy`): 1:3 becomes 1:1.
#[test]
fn the_comment_shows_the_envelopes_a_placement_change_moves() {
    let head = edited_fleet(&empty_scratch("envelopes-placement"), |text| {
        text.replace("          weight: 3\n", "          weight: 1\n")
    });
    let (code, text) = markdown_diff(&head, &["--base", FLEET]);
    assert_eq!(code, Some(1), "{text}");
    for row in [
        "| Deployment.apps shop/web | FederatedHPA shop/web at maxReplicas | 10 | member1 3 → 5, member2 7 → 5 |\n",
        "| Deployment.apps shop/api | `CronFederatedHPA shop/api-night at rule day (0 6 * * *, UTC)` | 4 | member1 1 → 2, member2 3 → 2 |\n",
    ] {
        assert!(text.contains(row), "{row}\n{text}");
    }
    // Eight moments, past the six shown open: the table is collapsed.
    assert!(
        text.contains("<details><summary>8 moments of autoscaled workloads</summary>"),
        "{text}"
    );
}

/// Against a committed tree only the head's envelopes are known, and only for workloads the
/// change touches; a change to no autoscaled workload has no envelope section.
#[test]
fn against_a_tree_the_comment_shows_the_head_envelopes_of_touched_workloads() {
    let scratch = empty_scratch("envelopes-tree");
    let out = scratch.join("out");
    let built = build(&out, &[]);
    assert_eq!(built.status.code(), Some(0), "{}", stderr(&built));
    let against = ["--against", out.to_str().unwrap()];
    let head = edited_fleet(&scratch.join("web"), |text| {
        text.replacen("  replicas: 4\n", "  replicas: 6\n", 1)
    });
    let (code, text) = markdown_diff(&head, &against);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("| Deployment.apps shop/web | FederatedHPA shop/web at maxReplicas | 10 | member1 3, member2 7 |\n"),
        "{text}"
    );
    assert!(text.contains("in the head (a committed tree"), "{text}");
    assert!(!text.contains("shop/api-night"), "{text}");
    let head = edited_fleet(&scratch.join("namespace"), |text| {
        text.replacen(
            "  name: shop\n",
            "  name: shop\n  labels: {team: shop}\n",
            1,
        )
    });
    let (code, text) = markdown_diff(&head, &against);
    assert_eq!(code, Some(1), "{text}");
    assert!(!text.contains("Replica envelopes"), "{text}");
}

/// `diff --format json` carries the envelopes too, the head's and the base's, for tools: the
/// same bounds change reads as maxReplicas 10 in the base and 16 in the head, divided 3 + 7
/// and 4 + 12.
#[test]
fn the_json_diff_carries_both_sides_envelopes() {
    let head = edited_fleet(&empty_scratch("envelopes-json"), |text| {
        text.replace("  maxReplicas: 10\n", "  maxReplicas: 16\n")
    });
    let diff = fedrender(&[
        "diff",
        &head,
        "--clusters",
        CLUSTERS,
        "-q",
        "--format",
        "json",
        "--base",
        FLEET,
    ]);
    assert_eq!(diff.status.code(), Some(0));
    let report: serde_json::Value = serde_json::from_slice(&diff.stdout).unwrap();
    let at_max = |side: &str| {
        let web = report[side]
            .as_array()
            .unwrap()
            .iter()
            .find(|workload| workload["name"] == "web")
            .cloned()
            .unwrap_or_else(|| panic!("no web in {side}: {report}"));
        let moment = web["moments"]
            .as_array()
            .unwrap()
            .iter()
            .find(|moment| {
                moment["by"] == "FederatedHPA shop/web" && moment["moment"] == "maxReplicas"
            })
            .cloned()
            .unwrap();
        let clusters: Vec<i64> = moment["clusters"]
            .as_array()
            .unwrap()
            .iter()
            .map(|cluster| cluster["replicas"].as_i64().unwrap())
            .collect();
        (moment["replicas"].as_i64().unwrap(), clusters)
    };
    assert_eq!(at_max("baseEnvelopes"), (10, vec![3, 7]));
    assert_eq!(at_max("envelopes"), (16, vec![4, 12]));
}

/// The terminal's forms say the same: `diff` (unified) and `diff --stat` each give a line per
/// moment the bounds change moves, base → head, though no rendered file changes.
#[test]
fn the_unified_diff_and_the_stat_show_an_envelope_the_change_moves() {
    let head = edited_fleet(&empty_scratch("envelopes-terminal"), |text| {
        text.replace("  maxReplicas: 10\n", "  maxReplicas: 16\n")
    });
    let moved = "envelope of Deployment.apps shop/web, FederatedHPA shop/web at maxReplicas: \
                 10 → 16 replicas (member1 3 → 4, member2 7 → 12)\n";
    for (form, mark) in [("unified", "# "), ("stat", "~ ")] {
        let args = [
            "diff",
            &head,
            "--clusters",
            CLUSTERS,
            "-q",
            "--color",
            "never",
            "--base",
            FLEET,
            "--format",
            form,
        ];
        let diff = fedrender(&args);
        assert_eq!(diff.status.code(), Some(0), "{}", stderr(&diff));
        let text = String::from_utf8(diff.stdout).unwrap();
        assert!(text.contains(&format!("{mark}{moved}")), "{form}\n{text}");
        // Every moment of a workload whose envelope moved is shown, as in the comment.
        assert!(
            text.contains(&format!(
                "{mark}envelope of Deployment.apps shop/web, FederatedHPA shop/web at minReplicas: \
                 2 replicas (member1 1, member2 1)\n"
            )),
            "{form}\n{text}"
        );
        assert!(!text.contains("shop/api"), "{form}\n{text}");
    }
}

/// `plan --format table` gains the envelopes under the placement, in the same columns: the
/// FederatedHPA's maxReplicas divided 3 + 7 (static weights 1:3), the night rule scaling api
/// to nothing.
#[test]
fn plan_table_shows_the_envelopes_per_cluster() {
    let plan = fedrender(&[
        "plan",
        FLEET,
        "--clusters",
        CLUSTERS,
        "-q",
        "--format",
        "table",
    ]);
    assert_eq!(plan.status.code(), Some(0), "{}", stderr(&plan));
    let text = String::from_utf8(plan.stdout).unwrap();
    let row = |label: &str| {
        text.lines()
            .find(|line| line.starts_with(label))
            .map(|line| line[label.len()..].split_whitespace().collect::<Vec<_>>())
            .unwrap_or_else(|| panic!("no row {label}\n{text}"))
    };
    assert!(text.contains("\nreplica envelopes: "), "{text}");
    assert_eq!(
        row("workload, autoscaler at"),
        ["member1", "member2", "total"]
    );
    assert_eq!(
        row("Deployment.apps shop/web, FederatedHPA shop/web at maxReplicas"),
        ["3", "7", "10"]
    );
    assert_eq!(
        row(
            "Deployment.apps shop/api, CronFederatedHPA shop/api-night at rule night (0 22 * * *, UTC)"
        ),
        ["0", "0", "0"]
    );
}
