//! What the end-to-end tests share: running the real binary and scratch directories.
// Each test file compiles this module on its own and uses part of it.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

/// Runs the real binary with `args`, waiting for it.
pub fn fedrender(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fedrender"))
        .args(args)
        .output()
        .expect("the binary runs")
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
