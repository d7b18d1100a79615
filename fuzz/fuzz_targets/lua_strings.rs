//! The Lua string library a resource interpreter script reaches: whatever subject and pattern
//! a script passes to `find`, `match` and `gmatch` (plain or not, from any start), the call
//! returns or fails with a message, and within its budget: the time bound below is far above
//! what 50 M budget steps take, and far below what an unbounded backtracking match takes.
//!
//! The body is `fuzz/bodies/lua_strings.rs`, which `cargo test` replays on every seed (without
//! the time bound: there the budget alone decides).

#![no_main]

use std::time::Duration;

#[path = "../bodies/lua_strings.rs"]
mod body;

/// Per input: a whole call with its budget spent takes about half a second optimised and up
/// to twenty seconds in a sanitised fuzz build on a loaded machine; an unbounded backtracking
/// match takes hours.
const TIME_BOUND: Duration = Duration::from_secs(60);

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    body::run(data, Some(TIME_BOUND));
});
