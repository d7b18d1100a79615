//! End-to-end: `build --stdout` prints as it renders. Its documents are the tree's files, byte
//! for byte, object by object in file-path order and each object's clusters in name order, so
//! the stream never waits for the whole fleet; an error found while rendering ends it and says
//! that what was printed is partial.

use std::path::{Path, PathBuf};

use crate::common;
use common::{empty_scratch, fedrender, stderr};

use fedrender_engine::manifest::HEADER;

/// `(cluster, file, body)` of each document of a `--stdout` stream, in order.
fn documents(stream: &str) -> Vec<(String, String, String)> {
    stream
        .split("---\n# cluster: ")
        .skip(1)
        .map(|document| {
            let (comment, body) = document.split_once('\n').expect("a comment line");
            let (cluster, file) = comment.split_once(", file: ").expect("cluster and file");
            (cluster.to_string(), file.to_string(), body.to_string())
        })
        .collect()
}

fn scenarios() -> Vec<(String, String)> {
    let mut scenarios: Vec<(PathBuf, PathBuf)> = common::valid_scenarios();
    for name in ["platform", "regions", "grey-release"] {
        let dir = Path::new("examples").join(name);
        if dir.join("clusters.yaml").exists() {
            scenarios.push((dir.clone(), dir.join("clusters.yaml")));
        }
    }
    scenarios
        .into_iter()
        .map(|(input, clusters)| (input.display().to_string(), clusters.display().to_string()))
        .collect()
}

#[test]
fn the_stream_is_the_tree_in_path_then_cluster_order() {
    let root = empty_scratch("stream-tree");
    let mut compared = 0;
    for (index, (input, clusters)) in scenarios().into_iter().enumerate() {
        let out = root.join(index.to_string());
        let built = fedrender(&[
            "build",
            &input,
            "--clusters",
            &clusters,
            "--out",
            out.to_str().unwrap(),
            "--quiet",
        ]);
        if built.status.code() != Some(0) {
            // Scenarios that need flags of their own (sources, Lua) are covered elsewhere.
            continue;
        }
        let streamed = fedrender(&["build", &input, "--clusters", &clusters, "--stdout", "-q"]);
        assert_eq!(
            streamed.status.code(),
            Some(0),
            "{input}: {}",
            stderr(&streamed)
        );
        let stream = String::from_utf8(streamed.stdout).unwrap();
        let documents = documents(&stream);
        let order: Vec<(&str, &str)> = documents
            .iter()
            .map(|(cluster, file, _)| (file.as_str(), cluster.as_str()))
            .collect();
        let mut sorted = order.clone();
        sorted.sort();
        assert_eq!(
            order, sorted,
            "{input}: documents by file path, then cluster"
        );
        let mut in_tree: Vec<String> = walkdir::WalkDir::new(&out)
            .into_iter()
            .map(|entry| entry.unwrap())
            .filter(|entry| {
                entry.file_type().is_file() && entry.file_name() != "kustomization.yaml"
            })
            .map(|entry| {
                let path = entry.path().strip_prefix(&out).unwrap();
                path.display().to_string()
            })
            .filter(|path| path.contains('/') && !path.starts_with("fedrender-gitops"))
            .collect();
        in_tree.sort();
        let mut in_stream: Vec<String> = documents
            .iter()
            .map(|(cluster, file, _)| format!("{cluster}/{file}"))
            .collect();
        in_stream.sort();
        assert_eq!(
            in_stream, in_tree,
            "{input}: the stream has every file of the tree"
        );
        for (cluster, file, body) in &documents {
            let text = std::fs::read_to_string(out.join(cluster).join(file)).unwrap();
            assert_eq!(
                text.strip_prefix(HEADER),
                Some(body.as_str()),
                "{input}: {cluster}/{file}"
            );
        }
        compared += 1;
    }
    assert!(compared >= 10, "only {compared} fleets compared");
    std::fs::remove_dir_all(&root).unwrap();
}

/// More ConfigMaps than render in one chunk, the last of them broken by an override rule: the
/// first chunk is printed before the error is found.
#[test]
fn an_error_found_while_streaming_says_what_was_printed_is_partial() {
    let dir = empty_scratch("stream-error");
    let mut fleet = String::new();
    for index in 0..1100 {
        fleet.push_str(&format!(
            "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-{index:04}\n  \
             namespace: apps\ndata:\n  k: v\n"
        ));
    }
    fleet.push_str(
        "---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: apps\n\
         ---\napiVersion: policy.karmada.io/v1alpha1\nkind: ClusterPropagationPolicy\n\
         metadata:\n  name: all\nspec:\n  resourceSelectors:\n  - apiVersion: v1\n    \
         kind: ConfigMap\n  placement:\n    clusterAffinity:\n      clusterNames: [member1]\n\
         ---\napiVersion: policy.karmada.io/v1alpha1\nkind: OverridePolicy\nmetadata:\n  \
         name: breaks-the-last\n  namespace: apps\nspec:\n  resourceSelectors:\n  - \
         apiVersion: v1\n    kind: ConfigMap\n    name: cm-1099\n  overrideRules:\n  - \
         overriders:\n      plaintext:\n      - path: /data/missing/deeper\n        \
         operator: replace\n        value: x\n",
    );
    std::fs::create_dir_all(dir.join("fleet")).unwrap();
    std::fs::write(dir.join("fleet/all.yaml"), fleet).unwrap();
    std::fs::write(
        dir.join("clusters.yaml"),
        "apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: member1\n",
    )
    .unwrap();
    let fleet = dir.join("fleet");
    let clusters = dir.join("clusters.yaml");
    let args = [
        "build",
        fleet.to_str().unwrap(),
        "--clusters",
        clusters.to_str().unwrap(),
        "--stdout",
    ];
    let output = fedrender(&args);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    let printed = documents(&String::from_utf8_lossy(&output.stdout));
    assert!(
        !printed.is_empty() && printed.len() < 1101,
        "{} documents printed before the error",
        printed.len()
    );
    assert!(
        stderr(&output).contains("/data/missing does not exist")
            && stderr(&output).contains("standard output holds part of the render: discard it"),
        "{}",
        stderr(&output)
    );
    // Refused before anything renders: nothing printed, and the message says so.
    let output = fedrender(&[&args[..], &["--cluster", "no-such-cluster"]].concat());
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(output.stdout.is_empty());
    assert!(
        stderr(&output).contains("nothing was written"),
        "{}",
        stderr(&output)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
