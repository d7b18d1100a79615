//! One insta snapshot per scenario under `testdata/`: the whole rendered tree (sorted paths and
//! contents) and every warning, or the errors of a rejected input. A scenario is a directory
//! with `input/` and, optionally, `clusters.yaml`; adding one needs no Rust code.

use std::fmt::Write;
use std::path::{Path, PathBuf};

use fedrender::source::fleet::{FleetSource, Inventory};
use fedrender_engine::lint::LintLevels;

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
    let inventory = if clusters.exists() {
        Inventory::File(clusters)
    } else {
        Inventory::InputOnly
    };
    FleetSource::new(dir.join("input"), inventory)
}

fn describe(dir: &Path) -> String {
    let lints = if dir.join("strict").exists() {
        LintLevels::strict()
    } else {
        LintLevels::default()
    };
    let outcome = fedrender::pipeline::render_fleet(&source_for(dir), &lints, false);
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

/// Every lint is in the reference's table (docs/reference.md), with its summary, and some
/// scenario or transcript test shows it being produced.
#[test]
fn every_lint_is_documented_and_produced() {
    let readme = std::fs::read_to_string("docs/reference.md").unwrap();
    let mut produced = std::fs::read_to_string("tests/cli.rs").unwrap();
    for dir in scenarios() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path
                .extension()
                .is_some_and(|extension| extension == "snap")
            {
                produced.push_str(&std::fs::read_to_string(path).unwrap());
            }
        }
    }
    for lint in fedrender_engine::lint::Lint::ALL {
        let row = format!("| `{}` |", lint.name());
        let documented = readme.lines().find(|line| line.starts_with(&row));
        assert!(
            documented.is_some(),
            "docs/reference.md has no row for {lint}"
        );
        let summary = lint.summary().replace("targetCluster", "`targetCluster`");
        assert!(
            documented.is_some_and(|line| line.ends_with(&format!(" {summary} |"))
                || line.contains(&format!(" {summary} ("))),
            "docs/reference.md's row for {lint} does not say: {summary}"
        );
        assert!(
            produced.contains(&format!("[{}]", lint.name())),
            "no scenario snapshot or CLI test shows a {lint} warning"
        );
    }
}
