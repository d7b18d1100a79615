//! The whole pipeline on a fleet held in memory, through the door every command takes
//! (`assemble`, `Run::new`, every object rendered): loading, classifying, admission, the
//! Karmada release's checks, KubeFed translation, placement, overrides, rendering, the schema
//! and CEL checks, and the output layout.
//!
//! The body is `fuzz/bodies/render_fleet.rs`, which `cargo test` replays on every seed.

#![no_main]

#[path = "../bodies/render_fleet.rs"]
mod body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    body::run(data);
});
