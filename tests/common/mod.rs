//! What the end-to-end tests share: running the real binary, reading the trees it writes, and
//! scratch directories.
// Not every test uses every helper.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub mod fifo;
mod fixtures;
pub mod tools;

pub use fixtures::{CONFIG_MAP, ONE_CLUSTER_INVENTORY, PLACE_EVERYTHING, Repository};

/// The benchmarks' fleet generator: a realistic fleet of any size.
#[path = "../../benches/support/fleet_generator.rs"]
pub mod fleet_generator;

/// The attacks on the schema and CEL checks, shared with the benchmark that measures them.
#[path = "../../benches/support/cel_attacks.rs"]
pub mod cel_attacks;

/// The real binary, not yet run: its arguments, directory, environment and pipes are the
/// caller's.
/// Colour is the terminal's business: whatever the caller's environment forces, the binary
/// decides for a pipe here, as it would in CI.
pub fn command() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_fedrender"));
    command.env_remove("CLICOLOR_FORCE").env_remove("NO_COLOR");
    command
}

/// Runs the real binary with `args`, waiting for it.
pub fn fedrender(args: &[&str]) -> Output {
    command().args(args).output().expect("the binary runs")
}

/// Runs the real binary with `args` in `dir`, waiting for it.
pub fn fedrender_in(dir: &Path, args: &[&str]) -> Output {
    command()
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the binary runs")
}

/// Every file under `dir`, by its path relative to `dir`, with its bytes.
pub fn files_in(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    files_under(dir)
        .into_iter()
        .map(|(path, bytes)| {
            let relative = path.strip_prefix(dir).unwrap().display().to_string();
            (relative, bytes)
        })
        .collect()
}

/// Every file under `dir`, by its path, with its bytes.
pub fn files_under(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .map(Result::unwrap)
        .filter(|entry| entry.file_type().is_file())
        .map(|entry| {
            let bytes = std::fs::read(entry.path()).unwrap();
            (entry.into_path(), bytes)
        })
        .collect()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A scratch path unique to this test run, with nothing there yet.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fedrender-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// A fresh, empty scratch directory.
pub fn empty_scratch(name: &str) -> PathBuf {
    let dir = scratch(name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// insta settings for snapshots kept in `dir` under their own names, without the module
/// prefix or the asserted expression.
pub fn snapshot_settings(dir: &str) -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(std::fs::canonicalize(dir).unwrap());
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings
}

/// Copies a directory tree.
pub fn copy_tree(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.unwrap();
        let target = to.join(entry.path().strip_prefix(from).unwrap());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// Whether `input` is an Argo CD fleet (its Config maps checkouts): its layout is part of its
/// meaning (the checkouts are directories Applications name), so it is not reshuffled into
/// other files; tests/argocd.rs checks its determinism itself.
pub fn is_argocd_fleet(input: &Path) -> bool {
    std::fs::read_to_string(input.join("fedrender.yaml"))
        .is_ok_and(|config| config.contains("\n  argocd:"))
}

/// The example fleet and every scenario that renders without flags of its own: (input,
/// inventory), sorted.
pub fn valid_scenarios() -> Vec<(PathBuf, PathBuf)> {
    let mut scenarios = vec![(
        PathBuf::from("examples/fleet"),
        PathBuf::from("examples/clusters.yaml"),
    )];
    for entry in std::fs::read_dir("testdata").unwrap() {
        let dir = entry.unwrap().path();
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        if dir.join("input").is_dir()
            && dir.join("clusters.yaml").exists()
            && !name.starts_with("error-")
            && !dir.join("strict").exists()
        {
            scenarios.push((dir.join("input"), dir.join("clusters.yaml")));
        }
    }
    scenarios.sort();
    scenarios
}
