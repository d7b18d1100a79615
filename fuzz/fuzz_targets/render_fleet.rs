//! The whole pipeline on a fleet held in memory: loading, classifying, admission, KubeFed
//! translation, placement, overrides, rendering and the output layout.
//!
//! The input is split into files at lines holding only `=====`; each part is an input file
//! (`.json` when it starts with `{`, else `.yaml`). An inventory of two member clusters is
//! appended, so that policies have somewhere to place templates.

#![no_main]

use fedrender_engine::documents::{Format, SourceFile};
use libfuzzer_sys::fuzz_target;

const SEPARATOR: &str = "\n=====\n";

const INVENTORY: &str = "apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata:
  name: member1
  labels: {environment: production}
spec:
  syncMode: Push
  provider: aws
  region: eu-west-1
  zones: [eu-west-1a]
---
apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata:
  name: member2
  labels: {environment: staging}
spec:
  syncMode: Pull
  provider: gcp
  region: europe-west4
  resourceSummary:
    allocatable: {cpu: \"8\", memory: 32Gi, pods: \"110\"}
    allocated: {cpu: 500m, memory: 1Gi, pods: \"3\"}
";

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut files: Vec<SourceFile> = text
        .split(SEPARATOR)
        .enumerate()
        .map(|(index, part)| {
            let (extension, format) = if part.trim_start().starts_with('{') {
                ("json", Format::Json)
            } else {
                ("yaml", Format::Yaml)
            };
            SourceFile {
                path: format!("input/{index:03}.{extension}").into(),
                text: part.to_string(),
                format,
            }
        })
        .collect();
    let input_file_count = files.len();
    files.push(SourceFile {
        path: "clusters.yaml".into(),
        text: INVENTORY.to_string(),
        format: Format::Yaml,
    });
    let Ok((fleet, _warnings)) = fedrender_engine::fleet::assemble(&files, input_file_count) else {
        return;
    };
    let Ok(placed) = fedrender_engine::render::place(&fleet, true) else {
        return;
    };
    let names: Vec<&str> = fleet
        .clusters
        .iter()
        .map(|cluster| cluster.name())
        .collect();
    let Ok(layout) = fedrender_engine::output::TreeLayout::new(&names, placed.destinations()) else {
        return;
    };
    let _ = fedrender_engine::output::OutputTree::collect(&layout, &placed);
});
