//! The loader on one file of any text: splitting into documents, YAML or JSON parsing, List
//! flattening, writing each document back as YAML, and the index of field lines that messages
//! use. Nothing may panic, overflow the stack or take more than linear time, whatever the text,
//! and every field line lies within the file.
//!
//! The body is `fuzz/bodies/yaml_loader.rs`, which `cargo test` replays on every seed.

#![no_main]

#[path = "../bodies/yaml_loader.rs"]
mod body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    body::run(data);
});
