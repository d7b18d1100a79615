//! A Checker built from a generated CRD checking generated objects: the schema and the object
//! are JSON, split by a NUL byte; checking ends within the run's budget without a panic and
//! gives the same findings each time.
//!
//! The body is `fuzz/bodies/crd_checker.rs`, which `cargo test` replays on every seed.

#![no_main]

#[path = "../bodies/crd_checker.rs"]
mod body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    body::run(data);
});
