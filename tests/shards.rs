//! Sharding a fleet across a CI matrix: the union of per-cluster builds (`--cluster`,
//! `--cluster-selector`) is the whole build, byte for byte, over random inventories; and a
//! filtered build touches only its clusters' directories.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

use fedrender::source::fleet::{FleetSource, Inventory, run_fleet};
use fedrender_engine::cluster_filter::ClusterFilter;
use fedrender_engine::run::Options;
use proptest::prelude::*;

use crate::common;
use common::{empty_scratch, fedrender, stderr};

/// A fleet whose output in one cluster depends on the others: replicas divided by region
/// weight, a copy everywhere, and an override per region.
const FLEET: &str = "\
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 17
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: registry.example.com/web:1.0}]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: shop}
data: {mode: fast}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web, namespace: shop}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]
  placement:
    replicaScheduling:
      replicaSchedulingType: Divided
      replicaDivisionPreference: Weighted
      weightPreference:
        staticWeightList:
        - targetCluster: {labelSelector: {matchLabels: {region: eu}}}
          weight: 3
        - targetCluster: {labelSelector: {matchLabels: {region: us}}}
          weight: 2
        - targetCluster: {labelSelector: {matchLabels: {region: ap}}}
          weight: 1
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: settings, namespace: shop}
spec:
  resourceSelectors: [{apiVersion: v1, kind: ConfigMap}]
  placement:
    clusterAffinity:
      labelSelector: {matchExpressions: [{key: region, operator: In, values: [eu, us]}]}
---
apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata: {name: eu-registry, namespace: shop}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]
  overrideRules:
  - targetCluster: {labelSelector: {matchLabels: {region: eu}}}
    overriders:
      imageOverrider: [{component: Registry, operator: replace, value: eu.registry.example.com}]
";

const REGIONS: [&str; 3] = ["eu", "us", "ap"];

fn inventory(regions: &[usize]) -> String {
    let mut text = String::new();
    for (index, &region) in regions.iter().enumerate() {
        write!(
            text,
            "---\napiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: {}-{index}\n  \
             labels: {{region: {}}}\nspec: {{}}\n",
            REGIONS[region], REGIONS[region]
        )
        .unwrap();
    }
    text
}

fn render(dir: &Path, filter: ClusterFilter) -> BTreeMap<String, String> {
    let source = FleetSource::new(
        dir.join("fleet"),
        Inventory::File(dir.join("clusters.yaml")),
    );
    let options = Options {
        clusters: filter,
        ..Options::default()
    };
    let rendered = run_fleet(&source, &options, |run| run.tree())
        .result
        .expect("the fleet renders");
    rendered
        .tree
        .files
        .into_iter()
        .map(|(path, file)| (path, file.text.to_string()))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn the_union_of_shards_is_the_whole_build(
        regions in prop::collection::vec(0..3usize, 1..9),
        shard_of in prop::collection::vec(0..3usize, 9),
        by_selector in any::<bool>(),
    ) {
        let dir = empty_scratch(&format!("shards-{}", regions.len()));
        std::fs::create_dir_all(dir.join("fleet")).unwrap();
        std::fs::write(dir.join("fleet/fleet.yaml"), FLEET).unwrap();
        std::fs::write(dir.join("clusters.yaml"), inventory(&regions)).unwrap();
        let whole = render(&dir, ClusterFilter::default());
        let name = |index: usize| format!("{}-{index}", REGIONS[regions[index]]);
        // Each shard: its filter and the clusters it must write.
        let mut shards: Vec<(ClusterFilter, Vec<String>)> = Vec::new();
        if by_selector {
            // One shard per region present, as a matrix over a label would run.
            let mut present: Vec<usize> = regions.clone();
            present.sort_unstable();
            present.dedup();
            for region in present {
                let filter =
                    ClusterFilter::new(&[], Some(&format!("region={}", REGIONS[region]))).unwrap();
                let names = (0..regions.len())
                    .filter(|&index| regions[index] == region)
                    .map(name)
                    .collect();
                shards.push((filter, names));
            }
        } else {
            // Up to three shards of cluster names.
            for shard in 0..3 {
                let names: Vec<String> = (0..regions.len())
                    .filter(|&index| shard_of[index] == shard)
                    .map(name)
                    .collect();
                if !names.is_empty() {
                    shards.push((ClusterFilter::new(&names, None).unwrap(), names));
                }
            }
        }
        let mut union = BTreeMap::new();
        for (filter, names) in shards {
            let shard_files = render(&dir, filter);
            // Each shard on its own, before any merge could hide a file of another shard's
            // cluster: exactly its clusters' files of the whole build.
            let expected: BTreeMap<String, String> = whole
                .iter()
                .filter(|(path, _)| {
                    let cluster = path.split_once('/').map_or(path.as_str(), |(cluster, _)| cluster);
                    names.iter().any(|name| name == cluster)
                })
                .map(|(path, text)| (path.clone(), text.clone()))
                .collect();
            prop_assert_eq!(&shard_files, &expected, "shard {:?}", names);
            union.extend(shard_files);
        }
        prop_assert_eq!(&union, &whole);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn a_filtered_build_touches_only_its_clusters_directories() {
    let dir = empty_scratch("shard-cli");
    std::fs::create_dir_all(dir.join("fleet")).unwrap();
    std::fs::write(dir.join("fleet/fleet.yaml"), FLEET).unwrap();
    let clusters = dir.join("clusters.yaml");
    std::fs::write(&clusters, inventory(&[0, 0, 1, 2])).unwrap();
    let (fleet, clusters) = (
        dir.join("fleet").display().to_string(),
        clusters.display().to_string(),
    );
    let out = dir.join("out").display().to_string();
    let run = |extra: &[&str]| {
        let mut args = vec!["build", fleet.as_str(), "--clusters", clusters.as_str()];
        args.extend_from_slice(extra);
        fedrender(&args)
    };
    let whole = run(&["--out", &out]);
    assert_eq!(whole.status.code(), Some(0), "{}", stderr(&whole));

    // A hand-made file in another cluster's directory and a directory of a cluster that left
    // the inventory are not this shard's business.
    std::fs::write(dir.join("out/us-2/note.txt"), "mine").unwrap();
    std::fs::create_dir_all(dir.join("out/gone")).unwrap();
    std::fs::write(
        dir.join("out/gone/kustomization.yaml"),
        std::fs::read(dir.join("out/eu-0/kustomization.yaml")).unwrap(),
    )
    .unwrap();
    let eu_before = std::fs::read(dir.join("out/eu-0/shop/deployment.apps_web.yaml")).unwrap();
    std::fs::remove_file(dir.join("out/eu-0/shop/deployment.apps_web.yaml")).unwrap();
    std::fs::remove_file(dir.join("out/ap-3/shop/deployment.apps_web.yaml")).unwrap();

    let check = run(&["--out", &out, "--check", "--cluster", "eu-*"]);
    assert_eq!(check.status.code(), Some(1), "{}", stderr(&check));
    assert!(
        String::from_utf8_lossy(&check.stdout).contains("eu-0/shop/deployment.apps_web.yaml"),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
    assert!(!String::from_utf8_lossy(&check.stdout).contains("ap-3"));

    let shard = run(&["--out", &out, "--cluster-selector", "region=eu"]);
    assert_eq!(shard.status.code(), Some(0), "{}", stderr(&shard));
    assert_eq!(
        std::fs::read(dir.join("out/eu-0/shop/deployment.apps_web.yaml")).unwrap(),
        eu_before
    );
    // Everything else is as it was: not rebuilt, not pruned.
    assert!(!dir.join("out/ap-3/shop/deployment.apps_web.yaml").exists());
    assert!(dir.join("out/gone/kustomization.yaml").exists());
    assert!(dir.join("out/us-2/note.txt").exists());

    // The same shard on standard output, and a whole build prunes what left the inventory.
    let stdout = run(&["--stdout", "--cluster", "eu-1"]);
    assert_eq!(stdout.status.code(), Some(0), "{}", stderr(&stdout));
    let text = String::from_utf8_lossy(&stdout.stdout);
    assert!(
        text.contains("# cluster: eu-1,") && !text.contains("# cluster: eu-0,"),
        "{text}"
    );
    std::fs::remove_file(dir.join("out/us-2/note.txt")).unwrap();
    let whole = run(&["--out", &out]);
    assert_eq!(whole.status.code(), Some(0), "{}", stderr(&whole));
    assert!(!dir.join("out/gone").exists());

    // diff and plan show the selected clusters only.
    let diff = fedrender(&[
        "diff",
        fleet.as_str(),
        "--clusters",
        clusters.as_str(),
        "--against",
        &out,
        "--cluster",
        "us-*",
    ]);
    assert_eq!(diff.status.code(), Some(0), "{}", stderr(&diff));
    let plan = fedrender(&[
        "plan",
        fleet.as_str(),
        "--clusters",
        clusters.as_str(),
        "--cluster",
        "ap-*",
    ]);
    assert_eq!(plan.status.code(), Some(0), "{}", stderr(&plan));
    let plan = String::from_utf8_lossy(&plan.stdout);
    assert!(plan.contains("+ ap-3: "), "{plan}");
    // Also why a template does not reach the selected cluster; nothing of the others.
    assert!(
        plan.contains("- ap-3: filtered out, not in the cluster affinity"),
        "{plan}"
    );
    assert!(!plan.contains("eu-0") && !plan.contains("us-2"), "{plan}");
    // The division over four clusters is only counted, its other clusters left unnamed.
    assert!(
        plan.contains("  division: 17 replicas over 4 clusters, 3 of them not shown by --cluster"),
        "{plan}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
