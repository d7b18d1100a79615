//! Karmada's resource interpreter from the command line: a Config workload and the
//! customization the README gives for it render the same trees; `plan` says who interpreted
//! each template and which operations it ignored; a broken customization fails the build with
//! exit 2 and leaves the output directory as it was.

use std::path::Path;

use crate::common;
use common::{empty_scratch, fedrender, files_in, stderr};

const CLUSTERS: &str = "testdata/interpreter-custom-crd/clusters.yaml";

const ROLLOUT: &str = "\
apiVersion: argoproj.io/v1alpha1
kind: Rollout
metadata:
  name: checkout
  namespace: shop
spec:
  replicas: 5
  selector:
    matchLabels: {app: checkout}
  template:
    metadata:
      labels: {app: checkout}
    spec:
      containers:
      - name: checkout
        image: registry.example/checkout:3.1
        resources:
          requests: {cpu: 500m, memory: 256Mi}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: checkout
  namespace: shop
spec:
  resourceSelectors:
  - apiVersion: argoproj.io/v1alpha1
    kind: Rollout
  placement:
    clusterAffinity:
      clusterNames: [member1, member2]
    replicaScheduling:
      replicaSchedulingType: Divided
      replicaDivisionPreference: Weighted
      weightPreference:
        staticWeightList:
        - targetCluster: {clusterNames: [member1]}
          weight: 2
        - targetCluster: {clusterNames: [member2]}
          weight: 3
";

const CONFIG_WORKLOAD: &str = "\
apiVersion: fedrender.io/v1alpha1
kind: Config
spec:
  workloads:
  - apiVersion: argoproj.io/v1alpha1
    kind: Rollout
    replicas: /spec/replicas
    podTemplate: /spec/template
";

/// The customization the README's migration section gives for the Config entry above.
const CUSTOMIZATION: &str = r#"
apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata:
  name: rollouts
spec:
  target:
    apiVersion: argoproj.io/v1alpha1
    kind: Rollout
  customizations:
    replicaResource:
      luaScript: |
        local kube = require("kube")
        function GetReplicas(obj)
          local replicas = obj.spec.replicas or 1
          return replicas, kube.accuratePodRequirements(obj.spec.template)
        end
    replicaRevision:
      luaScript: |
        function ReviseReplica(obj, desired)
          obj.spec.replicas = desired
          return obj
        end
    healthInterpretation:
      luaScript: |
        function InterpretHealth(obj)
          return true
        end
"#;

fn fleet(name: &str, files: &[(&str, &str)]) -> std::path::PathBuf {
    let dir = empty_scratch(name);
    for (file, text) in files {
        std::fs::write(dir.join(file), text).unwrap();
    }
    dir
}

fn build_into(input: &Path, out: &Path) -> std::process::Output {
    fedrender(&[
        "build",
        input.to_str().unwrap(),
        "--clusters",
        CLUSTERS,
        "--out",
        out.to_str().unwrap(),
        "-q",
    ])
}

fn tree(dir: &Path) -> Vec<(String, String)> {
    files_in(dir)
        .into_iter()
        .map(|(path, bytes)| (path, String::from_utf8(bytes).unwrap()))
        .collect()
}

#[test]
fn a_config_workload_and_its_customization_render_the_same_trees() {
    let with_config = fleet(
        "interpreter-config",
        &[("rollout.yaml", ROLLOUT), ("config.yaml", CONFIG_WORKLOAD)],
    );
    let with_customization = fleet(
        "interpreter-customization",
        &[
            ("rollout.yaml", ROLLOUT),
            ("interpreter.yaml", CUSTOMIZATION),
        ],
    );
    let mut trees = Vec::new();
    for input in [&with_config, &with_customization] {
        let out = input.with_extension("out");
        let _ = std::fs::remove_dir_all(&out);
        let built = build_into(input, &out);
        assert!(built.status.success(), "{}", stderr(&built));
        trees.push(tree(&out));
    }
    assert_eq!(trees[0], trees[1]);
    let member2 = &trees[1]
        .iter()
        .find(|(path, _)| path.ends_with("member2/shop/rollout.argoproj.io_checkout.yaml"))
        .expect("member2 receives the Rollout")
        .1;
    assert!(
        member2.contains("replicas: 3"),
        "5 at 2:3 gives member2 3:\n{member2}"
    );

    let both = fleet(
        "interpreter-both",
        &[
            ("rollout.yaml", ROLLOUT),
            ("config.yaml", CONFIG_WORKLOAD),
            ("interpreter.yaml", CUSTOMIZATION),
        ],
    );
    let refused = fedrender(&[
        "build",
        both.to_str().unwrap(),
        "--clusters",
        CLUSTERS,
        "--stdout",
    ]);
    assert_eq!(refused.status.code(), Some(2));
    let message = stderr(&refused);
    assert!(
        message.contains("interpreter.yaml") && message.contains("config.yaml:1"),
        "the error names both files:\n{message}"
    );
}

#[test]
fn plan_names_the_interpreter_of_every_operation_and_the_ignored_ones() {
    let input = fleet(
        "interpreter-plan",
        &[
            ("rollout.yaml", ROLLOUT),
            ("interpreter.yaml", CUSTOMIZATION),
        ],
    );
    let plan = fedrender(&["plan", input.to_str().unwrap(), "--clusters", CLUSTERS]);
    assert!(plan.status.success(), "{}", stderr(&plan));
    let text = String::from_utf8(plan.stdout).unwrap();
    let interpreter = format!("{}/interpreter.yaml:2", input.display());
    assert!(
        text.contains(&format!(
            "  replicas and revision from ResourceInterpreterCustomization rollouts ({interpreter})"
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "  ignored healthInterpretation of ResourceInterpreterCustomization rollouts \
             ({interpreter}) (only a live control plane runs it)"
        )),
        "{text}"
    );
    assert!(text.contains("  + member1: 2 replicas"), "{text}");
    let json = fedrender(&[
        "plan",
        input.to_str().unwrap(),
        "--clusters",
        CLUSTERS,
        "--format",
        "json",
    ]);
    let entries: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let rollout = entries
        .as_array()
        .unwrap()
        .iter()
        .find(|entry| entry["kind"] == "Rollout")
        .unwrap();
    assert_eq!(
        rollout["interpretedBy"][0]["operation"],
        serde_json::json!("replicaResource")
    );
    assert_eq!(
        rollout["ignoredOperations"].as_array().unwrap().len(),
        1,
        "{rollout}"
    );
}

#[test]
fn a_failing_script_exits_2_and_leaves_the_output_as_it_was() {
    let input = fleet(
        "interpreter-broken",
        &[
            ("rollout.yaml", ROLLOUT),
            (
                "interpreter.yaml",
                &CUSTOMIZATION.replace("obj.spec.replicas or 1", "obj.spec.scale.replicas"),
            ),
        ],
    );
    let out = input.with_extension("out");
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(out.join("member1")).unwrap();
    std::fs::write(out.join("member1/kept.yaml"), "kind: Kept\n").unwrap();
    let before = tree(&out);
    let built = build_into(&input, &out);
    assert_eq!(built.status.code(), Some(2));
    let message = stderr(&built);
    assert!(
        message.contains("Rollout.argoproj.io shop/checkout: replicaResource of ResourceInterpreterCustomization rollouts")
            && message.contains("attempt to index field 'scale' (a nil value)"),
        "{message}"
    );
    assert_eq!(tree(&out), before);
}
