//! Tests that run a program fedrender does not ship (kubectl, jq, bash, git, tar, valgrind,
//! kubernetes-validate, chromium): where one is missing the test is skipped, and the skip shows.
//!
//! libtest hides what a passing test prints through `print!` and `eprint!`, so a test that
//! returned early looked like any other `ok`. A skip is written straight to the process's
//! standard error instead, which the harness does not capture, so that plain `cargo test`
//! shows one `SKIPPED` line per skip among the results. Under CI (`CI` set, as `.ci/run` and
//! GitHub's runners set it) a missing tool that CI installs is a failure, not a skip.

use std::io::Write as _;
use std::process::{Command, Stdio};

/// The programs tests run, how each is probed, and whether CI installs it (`.ci/run` or the
/// machine image): a missing one then fails the test under CI.
const TOOLS: &[(&str, &[&str], bool)] = &[
    ("bash", &["bash", "--version"], true),
    ("git", &["git", "--version"], true),
    ("jq", &["jq", "--version"], true),
    ("tar", &["tar", "--version"], true),
    ("kubectl", &["kubectl", "version", "--client"], true),
    ("valgrind", &["valgrind", "--version"], true),
    ("gpg", &["gpg", "--version"], true),
    ("sops", &["sops", "--version"], true),
    ("age", &["age", "--version"], true),
    ("age-keygen", &["age-keygen", "--version"], true),
    ("chromium", &["chromium", "--version"], true),
    (
        "kubernetes-validate",
        &["python3", "-c", "import kubernetes_validate"],
        true,
    ),
];

/// Whether `tool` (a name in [`TOOLS`]) runs here. Says nothing.
pub fn tool_present(tool: &str) -> bool {
    let (_, probe, _) = entry(tool);
    Command::new(probe[0])
        .args(&probe[1..])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success())
}

/// Whether every one of `tools` runs here, for a test that needs them all: when one is
/// missing, the test is reported skipped (and the caller returns), or fails under CI.
pub fn require(tools: &[&str]) -> bool {
    let missing: Vec<&str> = tools
        .iter()
        .copied()
        .filter(|tool| !tool_present(tool))
        .collect();
    if missing.is_empty() {
        return true;
    }
    skipped(&missing, None);
    false
}

/// Whether `tool` runs here, for one part of a test that goes on without it: when it is
/// missing, the part is reported skipped, or the test fails under CI.
pub fn require_for(tool: &str, part: &str) -> bool {
    if tool_present(tool) {
        return true;
    }
    skipped(&[tool], Some(part));
    false
}

/// Reports that the running test skips (all of it, or `part`) for want of `missing`, or fails
/// it when CI should have provided them.
pub fn skipped(missing: &[&str], part: Option<&str>) {
    let names = missing.join(", ");
    let test = current_test();
    let what = part.map_or(String::new(), |part| format!(" ({part})"));
    if under_ci()
        && let Some(tool) = missing.iter().find(|tool| entry(tool).2)
    {
        panic!(
            "{test}{what}: {tool} is missing, and CI (CI is set) must have it: \
             .ci/run installs it"
        );
    }
    show(&format!(
        "SKIPPED {test}{what}: {names} not found; install {} to run it \
         (CI=true makes this a failure)",
        if missing.len() == 1 { "it" } else { "them" }
    ));
}

/// Reports that the running test skips for a reason that is no missing tool (this machine has
/// no release archive, say), which CI does not change.
pub fn skip_because(reason: &str) {
    show(&format!("SKIPPED {}: {reason}", current_test()));
}

/// Writes `line` straight to standard error, where the harness does not capture it, in one
/// write, so that other tests' lines do not tear it apart.
fn show(line: &str) {
    let _ = std::io::stderr()
        .lock()
        .write_all(format!("{line}\n").as_bytes());
}

/// Whether this run is CI's: `CI` set to anything but empty, `0` or `false`.
pub fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|value| !matches!(value.as_str(), "" | "0" | "false"))
}

/// `file::test`, the name libtest gives the test's thread in a binary whose files are modules.
fn current_test() -> String {
    std::thread::current()
        .name()
        .unwrap_or("a test")
        .to_string()
}

fn entry(tool: &str) -> (&'static str, &'static [&'static str], bool) {
    *TOOLS
        .iter()
        .find(|(name, _, _)| *name == tool)
        .unwrap_or_else(|| panic!("{tool} is not in tests/common/tools.rs's TOOLS"))
}
