//! Grouped diffs of real renders, snapshotted in Markdown and JSON: one image bump on 50
//! clusters, a new cluster, a removed cluster, a Divided rebalance, and a change too large for
//! GitHub's comment limit. Fleets are generated under `target/` with fixed relative paths, so
//! the provenance lines in the snapshots do not depend on the machine.

use std::fmt::Write;
use std::path::{Path, PathBuf};

use crate::common;

/// A fleet: `web` duplicated everywhere with `image`, `api` divided by weight (`eu_weight`
/// for clusters 1–25, 1 for the rest), and a ConfigMap `big` with `big_value`.
#[derive(Clone, Copy)]
struct Fleet<'a> {
    clusters: usize,
    image: &'a str,
    eu_weight: u32,
    big_value: &'a str,
    api_replicas: u32,
    api_image: &'a str,
}

/// Writes the fleet's `input/` and `clusters.yaml` under `dir`.
fn write_fleet(dir: &Path, fleet: &Fleet<'_>) {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir.join("input")).unwrap();
    let mut inventory = String::new();
    for cluster in 1..=fleet.clusters {
        let region = if cluster <= 25 { "eu" } else { "us" };
        write!(
            inventory,
            "---\napiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: prod-{cluster}\n  labels: {{region: {region}}}\nspec: {{}}\n"
        )
        .unwrap();
    }
    std::fs::write(dir.join("clusters.yaml"), inventory).unwrap();
    let templates = format!(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: web, namespace: shop}}\nspec:\n  replicas: 2\n  \
         selector: {{matchLabels: {{app: web}}}}\n  template:\n    metadata: {{labels: {{app: web}}}}\n    spec:\n      \
         containers: [{{name: web, image: \"{image}\"}}]\n---\n\
         apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: api, namespace: shop}}\nspec:\n  replicas: {api_replicas}\n  \
         selector: {{matchLabels: {{app: api}}}}\n  template:\n    metadata: {{labels: {{app: api}}}}\n    spec:\n      \
         containers: [{{name: api, image: {api_image}}}]\n---\n\
         apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: big, namespace: shop}}\ndata:\n  value: \"{big}\"\n---\n\
         apiVersion: policy.karmada.io/v1alpha1\nkind: ClusterPropagationPolicy\nmetadata: {{name: web}}\nspec:\n  \
         resourceSelectors:\n  - {{apiVersion: apps/v1, kind: Deployment, name: web}}\n  - {{apiVersion: v1, kind: ConfigMap}}\n  \
         placement: {{clusterAffinity: {{labelSelector: {{}}}}}}\n---\n\
         apiVersion: policy.karmada.io/v1alpha1\nkind: ClusterPropagationPolicy\nmetadata: {{name: api}}\nspec:\n  \
         resourceSelectors: [{{apiVersion: apps/v1, kind: Deployment, name: api}}]\n  placement:\n    \
         clusterAffinity: {{clusterNames: [prod-1, prod-2, prod-26]}}\n    replicaScheduling:\n      \
         replicaSchedulingType: Divided\n      replicaDivisionPreference: Weighted\n      weightPreference:\n        \
         staticWeightList:\n        - targetCluster: {{labelSelector: {{matchLabels: {{region: eu}}}}}}\n          weight: {eu}\n        \
         - targetCluster: {{labelSelector: {{matchLabels: {{region: us}}}}}}\n          weight: 1\n",
        image = fleet.image,
        big = fleet.big_value,
        eu = fleet.eu_weight,
        api_replicas = fleet.api_replicas,
        api_image = fleet.api_image,
    );
    std::fs::write(dir.join("input/fleet.yaml"), templates).unwrap();
}

/// `fedrender diff` of the fleet in `head` against `base` (`--base DIR` or `--against DIR`),
/// with `extra` flags: its report, once the binary says there is a change (exit 1).
fn diff_report(head: &Path, base: (&str, &Path), extra: &[&str]) -> String {
    let (head_input, head_clusters) = (head.join("input"), head.join("clusters.yaml"));
    let (base_input, base_clusters) = (base.1.join("input"), base.1.join("clusters.yaml"));
    let mut args = vec![
        "diff",
        head_input.to_str().unwrap(),
        "--clusters",
        head_clusters.to_str().unwrap(),
    ];
    match base.0 {
        "--base" => args.extend([
            "--base",
            base_input.to_str().unwrap(),
            "--base-clusters",
            base_clusters.to_str().unwrap(),
        ]),
        _ => args.extend([base.0, base.1.to_str().unwrap()]),
    }
    args.extend_from_slice(extra);
    let output = common::fedrender(&args);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    String::from_utf8(output.stdout).unwrap()
}

const BASE: Fleet<'static> = Fleet {
    clusters: 50,
    image: "web:1.0",
    eu_weight: 1,
    big_value: "small",
    api_replicas: 60,
    api_image: "api:1",
};

/// The diff from `BASE` to `head`, in Markdown (at most `max_bytes`) and JSON.
fn reports(case: &str, head: Fleet<'_>, max_bytes: usize) -> (String, String) {
    reports_from(case, &BASE, head, max_bytes)
}

/// The diff from `base` to `head`, in Markdown (at most `max_bytes`) and JSON.
fn reports_from(
    case: &str,
    base: &Fleet<'_>,
    head: Fleet<'_>,
    max_bytes: usize,
) -> (String, String) {
    let root = PathBuf::from("target/diff-groups").join(case);
    write_fleet(&root.join("base"), base);
    write_fleet(&root.join("head"), &head);
    let title = format!("Pull request: {case}");
    let max_bytes = max_bytes.to_string();
    let report = |format: &str| {
        diff_report(
            &root.join("head"),
            ("--base", &root.join("base")),
            &[
                "--title",
                &title,
                "--format",
                format,
                "--max-bytes",
                &max_bytes,
            ],
        )
    };
    let (markdown, json) = (report("markdown"), report("json"));
    std::fs::remove_dir_all(&root).unwrap();
    (markdown, json)
}

fn snapshot(name: &str, text: &str) {
    common::snapshot_settings("testdata/diff").bind(|| insta::assert_snapshot!(name, text));
}

#[test]
fn one_image_bump_on_fifty_clusters_reads_as_one_change() {
    let (markdown, json) = reports(
        "image-bump",
        Fleet {
            image: "web:1.1",
            ..BASE
        },
        65536,
    );
    assert!(markdown.len() < 4096, "{} bytes", markdown.len());
    snapshot("groups-image-bump-markdown", &markdown);
    snapshot("groups-image-bump-json", &json);
}

#[test]
fn a_new_cluster_is_called_out_as_one() {
    let (markdown, json) = reports(
        "new-cluster",
        Fleet {
            clusters: 51,
            ..BASE
        },
        65536,
    );
    snapshot("groups-new-cluster-markdown", &markdown);
    snapshot("groups-new-cluster-json", &json);
}

#[test]
fn a_removed_cluster_is_called_out_as_one() {
    let (markdown, json) = reports(
        "removed-cluster",
        Fleet {
            clusters: 49,
            ..BASE
        },
        65536,
    );
    snapshot("groups-removed-cluster-markdown", &markdown);
    snapshot("groups-removed-cluster-json", &json);
}

#[test]
fn a_divided_rebalance_reads_as_replicas_moving() {
    let (markdown, json) = reports(
        "rebalance",
        Fleet {
            eu_weight: 2,
            ..BASE
        },
        65536,
    );
    snapshot("groups-rebalance-markdown", &markdown);
    snapshot("groups-rebalance-json", &json);
}

#[test]
fn a_change_too_large_for_a_comment_keeps_its_line_and_drops_its_diff() {
    let huge = "x".repeat(70_000);
    let (markdown, _) = reports(
        "too-large",
        Fleet {
            image: "web:1.1",
            big_value: &huge,
            ..BASE
        },
        65536,
    );
    assert!(markdown.len() <= 65536, "{} bytes", markdown.len());
    snapshot("groups-too-large-markdown", &markdown);
}

/// An image bump on a Divided workload: its clusters differ in `spec.replicas` alone, so the
/// change is one group, with each cluster's count, not one section per cluster.
#[test]
fn an_image_bump_on_a_divided_workload_is_one_change_with_its_replicas() {
    let base = Fleet {
        api_replicas: 61,
        ..BASE
    };
    let (markdown, json) = reports_from(
        "divided-image-bump",
        &base,
        Fleet {
            api_replicas: 61,
            api_image: "api:2",
            ..BASE
        },
        65536,
    );
    assert!(
        markdown.contains("<b>changed</b> <code>Deployment.apps shop/api</code> on prod-1, prod-2, prod-26 (3 clusters)")
            && markdown.contains(
                "Replicas per cluster: prod-1 21, prod-2 20, prod-26 20 (61 on these 3 clusters)."
            ),
        "{markdown}"
    );
    snapshot("groups-divided-image-bump-markdown", &markdown);
    snapshot("groups-divided-image-bump-json", &json);
}

/// A scale that changes some clusters only: the total counts every cluster the object is on.
#[test]
fn a_scale_counts_every_cluster_the_object_is_on() {
    let (markdown, _) = reports(
        "scale-one-more",
        Fleet {
            api_replicas: 61,
            ..BASE
        },
        65536,
    );
    assert!(
        markdown.contains(
            "- **Replicas moved** `Deployment.apps shop/api`: prod-1 20 → 21 (60 → 61 in all)"
        ),
        "{markdown}"
    );
}

/// The same scale against the committed tree of the base (`--against`), where only the files
/// that differ are read back: the total still counts the clusters whose file did not change.
#[test]
fn a_scale_against_a_rendered_tree_counts_every_cluster_the_object_is_on() {
    let root = PathBuf::from("target/diff-groups/scale-against-tree");
    write_fleet(&root.join("base"), &BASE);
    let committed = root.join("rendered");
    let built = common::fedrender(&[
        "build",
        root.join("base/input").to_str().unwrap(),
        "--clusters",
        root.join("base/clusters.yaml").to_str().unwrap(),
        "--out",
        committed.to_str().unwrap(),
    ]);
    assert_eq!(built.status.code(), Some(0), "{built:?}");
    write_fleet(
        &root.join("head"),
        &Fleet {
            api_replicas: 61,
            ..BASE
        },
    );
    let markdown = diff_report(
        &root.join("head"),
        ("--against", &committed),
        &["--format", "markdown"],
    );
    std::fs::remove_dir_all(&root).unwrap();
    assert!(
        markdown.contains(
            "- **Replicas moved** `Deployment.apps shop/api`: prod-1 20 → 21 (60 → 61 in all)"
        ),
        "{markdown}"
    );
}

/// One change read once (issue 35, item 2): an image bump and 6 → 17 replicas on a Divided
/// Deployment spread from 6 to 12 clusters, whose clusters also differ by a regional registry
/// mirror and region labels (OverridePolicies; testdata/diff-one-change). The comment says the
/// image change once with its registries, the replica totals, and the clusters it newly reaches
/// as one it was on but for what differs: under 6 KB (8.4 KB grouped by identical hunks), the
/// new image at most three times. The real binary, as the Action runs it.
#[test]
fn an_image_bump_and_a_spread_read_once_by_what_changed() {
    let output = common::fedrender(&[
        "diff",
        "testdata/diff-one-change/head",
        "--clusters",
        "testdata/diff-one-change/clusters.yaml",
        "--base",
        "testdata/diff-one-change/base",
        "--format",
        "markdown",
    ]);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let markdown = String::from_utf8(output.stdout).unwrap();
    assert!(
        markdown.len() < 6 * 1024,
        "{} bytes:\n{markdown}",
        markdown.len()
    );
    assert!(
        markdown.matches("9.9.9").count() <= 3,
        "the new image {} times:\n{markdown}",
        markdown.matches("9.9.9").count()
    );
    assert!(markdown.contains("6 → 17"), "{markdown}");
    assert!(
        markdown.contains("image <code>content-tracker-worker</code> 2.29.4 → 9.9.9 on 12 clusters (registry by cluster: "),
        "{markdown}"
    );
    assert!(
        markdown.contains("replicas 6 → 17 over 6 → 12 clusters"),
        "{markdown}"
    );
    common::snapshot_settings("testdata/diff-one-change")
        .bind(|| insta::assert_snapshot!("one-change-markdown", markdown));
}

/// 4 replicas of `api` over weights 1:1:1 leave one more for two of the three clusters, whom
/// the names pick (webstermethod.go's Less; an empty UID puts smaller names first). A live
/// Karmada's template has a UID, and an odd one picks the larger names: `plan` and `diff` say
/// the division may differ there.
#[test]
fn a_division_a_tie_decides_says_a_live_karmada_may_divide_otherwise() {
    let base = Fleet {
        eu_weight: 5,
        api_replicas: 4,
        ..BASE
    };
    let head = Fleet {
        eu_weight: 1,
        api_replicas: 4,
        ..BASE
    };
    let (markdown, _) = reports_from("tie", &base, head, 65536);
    let moved = markdown
        .lines()
        .find(|line| line.starts_with("- **Replicas moved** `Deployment.apps shop/api`"))
        .unwrap_or_else(|| panic!("no replica move of api:\n{markdown}"));
    assert!(
        moved.ends_with(
            "; a tie decided the division, which a live Karmada may break the other way"
        ),
        "{moved}"
    );
    // The base's division (2, 2, 0 over 5:5:1) is also tied by name; the plan of the head says
    // it of the head's.
    let root = PathBuf::from("target/diff-groups/tie-plan");
    write_fleet(&root, &head);
    let plan = common::fedrender(&[
        "plan",
        root.join("input").to_str().unwrap(),
        "--clusters",
        root.join("clusters.yaml").to_str().unwrap(),
        "--format",
        "json",
    ]);
    std::fs::remove_dir_all(&root).unwrap();
    assert_eq!(plan.status.code(), Some(0), "{plan:?}");
    let plan: serde_json::Value = serde_json::from_slice(&plan.stdout).unwrap();
    let api = plan
        .as_array()
        .unwrap()
        .iter()
        .find(|entry| entry["name"] == "api")
        .expect("api is planned");
    assert_eq!(api["division"]["mayDivideOtherwiseLive"], true, "{api}");
    assert!(
        api["division"]["explanation"]
            .as_str()
            .unwrap()
            .ends_with("so there the remainder may go the other way)"),
        "{api}"
    );
}

/// A Divided workload scaled while a cluster joins: the total counts the new cluster's
/// replicas, so the line names them too and its numbers add up (before, `12 → 21 in all` over
/// `c1 6 → 7, c2 6 → 7` left 7 unaccounted for).
#[test]
fn a_scale_onto_a_new_cluster_names_the_replicas_the_new_cluster_gets() {
    let root = PathBuf::from("target/diff-groups/scale-onto-a-new-cluster");
    let write = |side: &str, clusters: &[&str], replicas: u32| {
        let dir = root.join(side);
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("input")).unwrap();
        let inventory: String = clusters
            .iter()
            .map(|name| {
                format!(
                    "---\napiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: \
                     {{name: {name}}}\nspec: {{}}\n"
                )
            })
            .collect();
        std::fs::write(dir.join("clusters.yaml"), inventory).unwrap();
        std::fs::write(
            dir.join("input/fleet.yaml"),
            format!(
                "apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: api, namespace: shop}}\n\
                 spec:\n  replicas: {replicas}\n  selector: {{matchLabels: {{app: api}}}}\n  \
                 template:\n    metadata: {{labels: {{app: api}}}}\n    spec:\n      \
                 containers: [{{name: api, image: api:1}}]\n---\n\
                 apiVersion: policy.karmada.io/v1alpha1\nkind: ClusterPropagationPolicy\n\
                 metadata: {{name: api}}\nspec:\n  resourceSelectors: [{{apiVersion: apps/v1, \
                 kind: Deployment, name: api}}]\n  placement:\n    clusterAffinity: \
                 {{labelSelector: {{}}}}\n    replicaScheduling:\n      replicaSchedulingType: \
                 Divided\n      replicaDivisionPreference: Weighted\n      weightPreference:\n        \
                 staticWeightList:\n        - targetCluster: {{labelSelector: {{}}}}\n          \
                 weight: 1\n"
            ),
        )
        .unwrap();
        dir
    };
    let base = write("base", &["c1", "c2"], 12);
    let head = write("head", &["c1", "c2", "c3"], 21);
    let markdown = diff_report(&head, ("--base", &base), &["--format", "markdown"]);
    assert!(
        markdown.contains(
            "- **Replicas moved** `Deployment.apps shop/api`: c1 6 → 7, c2 6 → 7, c3 (new) → 7 \
             (12 → 21 in all)"
        ),
        "{markdown}"
    );
    std::fs::remove_dir_all(&root).unwrap();
}
