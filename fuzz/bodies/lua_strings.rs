//! What `fuzz_targets/lua_strings.rs` does with an input, which `engine/tests/fuzz_seeds.rs`
//! replays on every seed: the Lua string library a resource interpreter script reaches.
//! Whatever subject and pattern a script passes to `find`, `match` and `gmatch` (plain or not,
//! from any start), the call returns or fails with a message, and within its budget.
//!
//! The first byte splits the rest into a pattern and a subject; the subject is repeated so
//! that short inputs can still make long subjects.

use std::time::{Duration, Instant};

use fedrender_engine::interpret::lua::{Script, get_replicas};

const SCRIPT: &str = "\
function GetReplicas(obj)
  local s, p, init = obj.subject, obj.pattern, obj.init
  pcall(string.find, s, p, init)
  pcall(string.find, s, p, init, true)
  pcall(string.match, s, p, init)
  pcall(function()
    for a, b in string.gmatch(s, p) do end
  end)
  return 1, nil
end";

/// Whether `data` reached the script. Whether a call finishes is decided by its instruction
/// budget; `bound`, when given, backs that up with time (the fuzz target's, under libFuzzer),
/// and a call that takes longer fails.
pub fn run(data: &[u8], bound: Option<Duration>) -> bool {
    let Some((&split, rest)) = data.split_first() else {
        return false;
    };
    let split = (split as usize).min(rest.len());
    let (pattern, subject) = rest.split_at(split);
    let (Ok(pattern), Ok(subject)) = (std::str::from_utf8(pattern), std::str::from_utf8(subject))
    else {
        return false;
    };
    let init = (split as i64 % 7) - 3;
    let object = serde_json::json!({
        "subject": subject.repeat(64),
        "pattern": pattern,
        "init": init,
    });
    let script = Script::new("fuzz.lua", 1, SCRIPT);
    let started = Instant::now();
    // Returns, or fails with a message: either way the call is over.
    let result = get_replicas(&script, &object);
    let elapsed = started.elapsed();
    if let Some(bound) = bound {
        assert!(
            elapsed < bound,
            "{pattern:?} on {} bytes took {elapsed:?}: {result:?}",
            subject.len() * 64
        );
    }
    true
}
