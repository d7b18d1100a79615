//! One insta snapshot per scenario under `testdata/`: the whole rendered tree (sorted paths and
//! contents) and every warning, or the errors of a rejected input. A scenario is a directory
//! with `input/` and, optionally, `clusters.yaml`; adding one needs no Rust code.

use std::fmt::Write;
use std::path::{Path, PathBuf};

use fedrender::fleet::{FleetSource, Inventory};

fn scenarios() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir("testdata")
        .expect("testdata exists")
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.join("input").is_dir())
        .collect();
    dirs.sort();
    dirs
}

pub fn source_for(dir: &Path) -> FleetSource {
    let clusters = dir.join("clusters.yaml");
    FleetSource {
        input: dir.join("input"),
        inventory: if clusters.exists() {
            Inventory::File(clusters)
        } else {
            Inventory::InputOnly
        },
        include: Vec::new(),
        exclude: Vec::new(),
    }
}

fn describe(dir: &Path) -> String {
    let strict = dir.join("strict").exists();
    let outcome = fedrender::render_fleet(&source_for(dir), strict, false);
    let mut text = String::new();
    for warning in &outcome.warnings {
        writeln!(text, "{warning}").unwrap();
    }
    match outcome.result {
        Ok(rendered) => {
            let tree = &rendered.tree;
            writeln!(
                text,
                "== {} clusters, {} object files",
                tree.clusters.len(),
                rendered.object_count()
            )
            .unwrap();
            for (path, file) in &tree.files {
                let contents = &file.text;
                writeln!(text, "\n--- {path}\n{contents}").unwrap();
            }
        }
        Err(rejected) => {
            writeln!(text, "== rejected (exit 2)\n{rejected}").unwrap();
        }
    }
    text
}

#[test]
fn every_scenario_renders_as_snapshotted() {
    let dirs = scenarios();
    assert!(!dirs.is_empty());
    let mut failed = Vec::new();
    for dir in dirs {
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_path(std::fs::canonicalize(&dir).unwrap());
        settings.set_prepend_module_to_snapshot(false);
        settings.set_omit_expression(true);
        settings.set_description(format!("fedrender build {}", dir.display()));
        let description = describe(&dir);
        // Check every scenario, then fail once, so one run shows every changed snapshot.
        let checked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            settings.bind(|| insta::assert_snapshot!(name.as_str(), description))
        }));
        if checked.is_err() {
            failed.push(name);
        }
    }
    assert!(failed.is_empty(), "changed snapshots: {failed:?}");
}
