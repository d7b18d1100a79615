//! Image reference parsing (distribution's grammar, Karmada's registry split) and the
//! tag-or-digest operations: a reference that parses must parse again, to the same parts, from
//! the text it is written back as.
//!
//! The body is `fuzz/bodies/image_reference.rs`, which `cargo test` replays on every seed.

#![no_main]

#[path = "../bodies/image_reference.rs"]
mod body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    body::run(data);
});
