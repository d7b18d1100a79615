//! karmada-scheduler's settings in the Config (`spec.karmada.scheduler`) through the binary:
//! `enableEmptyWorkloadPropagation` (karmada-scheduler's `--enable-empty-workload-propagation`,
//! generic_scheduler.go `Schedule` calling `attachZeroReplicasCluster`) in `build`, `plan` and
//! `diff`, on the fleet of testdata/empty-workload-propagation, and a setting fedrender does not
//! model refused at its line.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common;
use common::{fedrender, stderr};

const SCENARIO: &str = "testdata/empty-workload-propagation";

/// The scenario's fleet copied to a scratch directory, with the flag set to `enabled`.
fn fleet(name: &str, enabled: bool) -> PathBuf {
    let dir = common::scratch(name);
    common::copy_tree(&Path::new(SCENARIO).join("input"), &dir);
    let config = dir.join("config.yaml");
    let text = std::fs::read_to_string(&config).unwrap();
    assert!(
        text.contains("enableEmptyWorkloadPropagation: true"),
        "{text}"
    );
    let written = text.replace(
        "enableEmptyWorkloadPropagation: true",
        &format!("enableEmptyWorkloadPropagation: {enabled}"),
    );
    std::fs::write(&config, written).unwrap();
    dir
}

fn clusters() -> String {
    format!("{SCENARIO}/clusters.yaml")
}

fn replicas_in(file: &Path) -> Option<i64> {
    let text = std::fs::read_to_string(file).ok()?;
    let document = fedrender_engine::yaml::split_documents(&text).remove(0);
    let object = fedrender_engine::yaml::parse_document(&document, "x.yaml").unwrap();
    object.pointer("/spec/replicas").and_then(Value::as_i64)
}

/// With the flag, the clusters Karmada's division leaves out receive the Deployment at 0
/// replicas and its ConfigMap (propagateDeps); without it, they receive neither, and the
/// 0-replica Deployment with requests goes nowhere, the warning naming the setting.
#[test]
fn build_keeps_the_clusters_a_division_leaves_out_at_zero_replicas() {
    for enabled in [true, false] {
        let input = fleet(&format!("empty-workloads-build-{enabled}"), enabled);
        let out = common::scratch(&format!("empty-workloads-out-{enabled}"));
        let output = fedrender(&[
            "build",
            input.to_str().unwrap(),
            "--clusters",
            &clusters(),
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let web =
            |cluster: &str| replicas_in(&out.join(cluster).join("shop/deployment.apps_web.yaml"));
        let config_map = |cluster: &str| {
            out.join(cluster)
                .join("shop/configmap_web-config.yaml")
                .exists()
        };
        let idle =
            |cluster: &str| replicas_in(&out.join(cluster).join("shop/deployment.apps_idle.yaml"));
        assert_eq!(web("member1"), Some(1));
        assert!(config_map("member1"));
        for cluster in ["member2", "member3"] {
            assert_eq!(web(cluster), enabled.then_some(0), "{cluster}");
            assert_eq!(config_map(cluster), enabled, "{cluster}");
        }
        for cluster in ["member1", "member2", "member3"] {
            assert_eq!(idle(cluster), enabled.then_some(0), "{cluster}");
        }
        let warned = stderr(&output).contains(
            "Deployment.apps shop/idle is rendered nowhere: PropagationPolicy shop/idle selects it but \
             Karmada would not schedule it: it has 0 replicas and per-replica requirements, and Karmada \
             drops clusters that get 0 replicas (karmada#3495; \
             spec.karmada.scheduler.enableEmptyWorkloadPropagation keeps them)",
        );
        assert_eq!(warned, !enabled, "{}", stderr(&output));
    }
}

/// `plan` lists each cluster kept at 0 replicas, as the binding's `spec.clusters` would, and
/// says why.
#[test]
fn plan_lists_the_clusters_kept_at_zero_replicas() {
    let input = fleet("empty-workloads-plan", true);
    let output = fedrender(&[
        "plan",
        input.to_str().unwrap(),
        "--clusters",
        &clusters(),
        "--format",
        "json",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let plan: Value = serde_json::from_slice(&output.stdout).unwrap();
    let entry = |name: &str| {
        plan.as_array()
            .unwrap()
            .iter()
            .find(|entry| entry["name"] == name && entry["kind"] != "ConfigMap")
            .unwrap_or_else(|| panic!("{name} in the plan"))
            .clone()
    };
    let clusters_of = |name: &str| -> Vec<(String, Option<i64>)> {
        entry(name)["clusters"]
            .as_array()
            .unwrap()
            .iter()
            .map(|cluster| {
                (
                    cluster["cluster"].as_str().unwrap().to_string(),
                    cluster["replicas"].as_i64(),
                )
            })
            .collect()
    };
    let expected = |pairs: &[(&str, i64)]| -> Vec<(String, Option<i64>)> {
        pairs
            .iter()
            .map(|(cluster, replicas)| (cluster.to_string(), Some(*replicas)))
            .collect()
    };
    assert_eq!(
        clusters_of("web"),
        expected(&[("member1", 1), ("member2", 0), ("member3", 0)])
    );
    // The affinity filters member3 out: it is not kept.
    assert_eq!(
        clusters_of("worker"),
        expected(&[("member1", 3), ("member2", 0)])
    );
    let notes = entry("web")["notes"].to_string();
    assert!(
        notes.contains(
            "on member2, member3 with 0 replicas: karmada-scheduler's empty-workload propagation"
        ),
        "{notes}"
    );
    let text = fedrender(&["plan", input.to_str().unwrap(), "--clusters", &clusters()]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("  + member2: 0 replicas\n"), "{text}");
    assert!(
        text.contains("  + member2: 0 replicas, 0 completions\n"),
        "{text}"
    );
}

/// Turning the flag on is a change `diff` shows: the copies at 0 replicas added (`+0` in the
/// pull-request comment's placement, `+` for the ConfigMap, which has no replicas).
#[test]
fn diff_shows_the_copies_turning_the_flag_on_adds() {
    let base = fleet("empty-workloads-diff-base", false);
    let head = fleet("empty-workloads-diff-head", true);
    let output = fedrender(&[
        "diff",
        head.to_str().unwrap(),
        "--clusters",
        &clusters(),
        "--base",
        base.to_str().unwrap(),
        "--format",
        "markdown",
    ]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let report = String::from_utf8_lossy(&output.stdout);
    for row in [
        "| ConfigMap shop/web-config |  | + | + |",
        "| Deployment.apps shop/web |  | +0 | +0 |",
        "| Deployment.apps shop/idle | +0 | +0 | +0 |",
        "| Deployment.apps shop/worker |  | +0 |  |",
    ] {
        assert!(report.contains(row), "{row}\n{report}");
    }
    let stat = fedrender(&[
        "diff",
        head.to_str().unwrap(),
        "--clusters",
        &clusters(),
        "--base",
        base.to_str().unwrap(),
        "--format",
        "stat",
    ]);
    let stat = String::from_utf8_lossy(&stat.stdout);
    assert!(
        stat.contains("3 clusters changed: 13 added, 0 changed, 0 removed"),
        "{stat}"
    );
}

/// A scheduler setting fedrender does not model is an error naming it at its line, and the
/// output directory is left as it was.
#[test]
fn an_unmodelled_scheduler_setting_is_an_error_at_its_line() {
    let input = fleet("empty-workloads-unmodelled", true);
    let config = input.join("config.yaml");
    let text = std::fs::read_to_string(&config).unwrap();
    std::fs::write(
        &config,
        text.replace(
            "      enableEmptyWorkloadPropagation: true\n",
            "      enableEmptyWorkloadPropagation: true\n      enableSchedulerEstimator: true\n      plugin: [\"*\"]\n",
        ),
    )
    .unwrap();
    let line = |setting: &str| {
        1 + std::fs::read_to_string(&config)
            .unwrap()
            .lines()
            .position(|line| line.trim_start().starts_with(setting))
            .unwrap()
    };
    let out = common::empty_scratch("empty-workloads-unmodelled-out");
    std::fs::write(out.join("keep.txt"), "kept").unwrap();
    let output = fedrender(&[
        "build",
        input.to_str().unwrap(),
        "--clusters",
        &clusters(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    let errors = stderr(&output);
    let at = |setting: &str| format!("{}:{}: ", config.display(), line(setting));
    assert!(
        errors.contains(&format!(
            "{}Config: spec.karmada.scheduler.enableSchedulerEstimator: karmada-scheduler's \
             --enable-scheduler-estimator is not modelled by fedrender",
            at("enableSchedulerEstimator")
        )),
        "{errors}"
    );
    assert!(
        errors.contains(&format!(
            "{}Config: spec.karmada.scheduler.plugin: unknown setting `plugin`; fedrender models \
             enableEmptyWorkloadPropagation",
            at("plugin:")
        )),
        "{errors}"
    );
    assert_eq!(
        common::files_in(&out).into_keys().collect::<Vec<_>>(),
        ["keep.txt"]
    );
}
