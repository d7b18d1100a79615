//! Kubernetes quantity parsing: any text either fails or gives a value that reads back from
//! its own decimal form exactly, and whose rounded values do not overflow; and the text
//! Kubernetes writes back for it reads back as the same value.
//!
//! The body is `fuzz/bodies/quantity.rs`, which `cargo test` replays on every seed.

#![no_main]

#[path = "../bodies/quantity.rs"]
mod body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    body::run(data);
});
