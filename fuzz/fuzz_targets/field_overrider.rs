//! The fieldOverrider on a ConfigMap: pointer resolution, YAML or JSON content parsing, the
//! JSON patch, and the go-yaml v2 or Go-JSON writers.
//!
//! The body is `fuzz/bodies/field_overrider.rs`, which `cargo test` replays on every seed.

#![no_main]

#[path = "../bodies/field_overrider.rs"]
mod body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    body::run(data);
});
