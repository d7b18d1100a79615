//! The engine's tests that need no binary, file tree or shell: one test binary, one module a
//! file (as the `fedrender` package's `tests/main.rs`). They read the repository's seeds and
//! test data from `../`, which the engine's package leaves out.
//!
//! A new file is a `mod` line here; `tests/layout.rs` fails on a file under `engine/tests/`
//! that is not one.
#![allow(
    clippy::disallowed_macros,
    clippy::disallowed_methods,
    clippy::disallowed_types,
    reason = "the engine's tests read the repository's seeds and test data, which the engine \
              itself never may"
)]

// The fuzz targets' bodies replayed on their seeds.
mod fuzz_seeds;
// Bounded cost on hostile input, counted by callgrind.
mod hostile_input;
// Properties of Karmada's division, with proptest.
mod properties;

// The programs tests run, shared with the `fedrender` package's tests.
#[path = "../../tests/common/tools.rs"]
#[allow(dead_code)]
mod tools;
