//! The exit codes scripts rely on.

/// Success; for `diff` and `build --check`, no differences.
pub const OK: i32 = 0;
/// `diff` and `build --check` found differences.
pub const DIFFERENCES: i32 = 1;
/// Bad input or any other error; nothing was written. `diff` also exits with it, after
/// printing its report, when a danger lint's level denies a finding.
pub const ERROR: i32 = 2;
