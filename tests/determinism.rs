//! The same inputs give the same bytes whatever the order of files and documents on disk and
//! the number of threads: render shuffled copies of every valid scenario and compare.

use std::collections::BTreeMap;
use std::path::Path;

use crate::common;
use common::{command, files_in, valid_scenarios};

/// Every document of every input file: (file extension, document text).
fn documents(input: &Path) -> Vec<(String, String)> {
    let mut documents = Vec::new();
    for entry in walkdir::WalkDir::new(input).sort_by_file_name() {
        let entry = entry.unwrap();
        if !entry.file_type().is_file() {
            continue;
        }
        let text = std::fs::read_to_string(entry.path()).unwrap();
        match entry.path().extension().and_then(|e| e.to_str()) {
            Some("json") => documents.push(("json".to_string(), text)),
            Some("yaml" | "yml") => {
                for document in fedrender_engine::yaml::split_documents(&text) {
                    documents.push(("yaml".to_string(), document.text.to_string()));
                }
            }
            _ => {}
        }
    }
    documents
}

/// A deterministic shuffle (xorshift), so a failure reproduces.
fn shuffle<T>(items: &mut [T], mut seed: u64) {
    for i in (1..items.len()).rev() {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        items.swap(i, (seed % (i as u64 + 1)) as usize);
    }
}

/// Writes the documents into `dir`: YAML documents spread over a few files in nested
/// directories, in the given order; JSON documents one file each.
fn write_copy(dir: &Path, documents: &[(String, String)], files: usize) {
    std::fs::create_dir_all(dir).unwrap();
    let mut yaml: BTreeMap<usize, String> = BTreeMap::new();
    for (index, (extension, text)) in documents.iter().enumerate() {
        if extension == "json" {
            std::fs::write(dir.join(format!("z{index:03}.json")), text).unwrap();
        } else {
            let file = yaml.entry(index % files).or_default();
            file.push_str("---\n");
            file.push_str(text);
            if !text.ends_with('\n') {
                file.push('\n');
            }
        }
    }
    for (index, text) in yaml {
        let sub = dir.join(format!("d{}", index % 2));
        std::fs::create_dir_all(&sub).unwrap();
        std::fs::write(sub.join(format!("f{index}.yaml")), text).unwrap();
    }
}

/// `fedrender build INPUT --clusters CLUSTERS --jobs JOBS --quiet` and `more`, which must
/// succeed; its standard output.
fn build(input: &Path, clusters: &Path, jobs: &str, more: &[&str]) -> Vec<u8> {
    let output = command()
        .args(["build", input.to_str().unwrap(), "--clusters"])
        .args([clusters.to_str().unwrap(), "--jobs", jobs, "--quiet"])
        .args(more)
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    output.stdout
}

fn render(input: &Path, clusters: &Path, out: &Path, jobs: &str) -> BTreeMap<String, Vec<u8>> {
    build(input, clusters, jobs, &["--out", out.to_str().unwrap()]);
    files_in(out)
}

/// `build --stdout`, which prints as it renders: its order must not depend on the input's.
fn stream(input: &Path, clusters: &Path, jobs: &str) -> Vec<u8> {
    build(input, clusters, jobs, &["--stdout"])
}

#[test]
fn shuffled_inputs_and_thread_counts_give_identical_bytes() {
    let root = std::env::temp_dir().join(format!("fedrender-determinism-{}", std::process::id()));
    let scenarios = valid_scenarios()
        .into_iter()
        .filter(|(input, _)| !common::is_argocd_fleet(input));
    for (index, (input, clusters)) in scenarios.enumerate() {
        let base = root.join(index.to_string());
        let expected = render(&input, &clusters, &base.join("out-original"), "1");
        let expected_stream = stream(&input, &clusters, "1");
        let mut docs = documents(&input);
        docs.reverse();
        let reversed = base.join("reversed");
        write_copy(&reversed, &docs, 1);
        assert_eq!(
            render(&reversed, &clusters, &base.join("out-reversed"), "4"),
            expected,
            "{input:?} reversed"
        );
        for seed in [7u64, 1234, 987_654_321] {
            shuffle(&mut docs, seed);
            let shuffled = base.join(format!("shuffled-{seed}"));
            write_copy(&shuffled, &docs, 3);
            assert_eq!(
                render(
                    &shuffled,
                    &clusters,
                    &base.join(format!("out-{seed}")),
                    &(1 + seed % 3).to_string()
                ),
                expected,
                "{input:?} shuffled with seed {seed}"
            );
            assert!(
                stream(&shuffled, &clusters, &(1 + seed % 3).to_string()) == expected_stream,
                "{input:?} shuffled with seed {seed}: the stream differs"
            );
        }
    }
    std::fs::remove_dir_all(&root).unwrap();
}
