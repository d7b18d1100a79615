//! The Lua string library a resource interpreter script reaches: whatever subject and pattern
//! a script passes to `find`, `match` and `gmatch` (plain or not, from any start), the call
//! returns or fails with a message, and within its budget: the time bound below is far above
//! what 50 M budget steps take, and far below what an unbounded backtracking match takes.

#![no_main]

use std::time::{Duration, Instant};

use fedrender_engine::interpret::lua::{Script, get_replicas};
use libfuzzer_sys::fuzz_target;

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

/// Per input: a whole call with its budget spent takes about half a second optimised and up
/// to twenty seconds in a sanitised fuzz build on a loaded machine; an unbounded backtracking
/// match takes hours.
const TIME_BOUND: Duration = Duration::from_secs(60);

fuzz_target!(|data: &[u8]| {
    // The first byte splits the rest into a pattern and a subject; the subject is repeated so
    // that short inputs can still make long subjects.
    let Some((&split, rest)) = data.split_first() else {
        return;
    };
    let split = (split as usize).min(rest.len());
    let (pattern, subject) = rest.split_at(split);
    let (Ok(pattern), Ok(subject)) = (std::str::from_utf8(pattern), std::str::from_utf8(subject))
    else {
        return;
    };
    let init = (split as i64 % 7) - 3;
    let object = serde_json::json!({
        "subject": subject.repeat(64),
        "pattern": pattern,
        "init": init,
    });
    let script = Script::new("fuzz.lua", 1, SCRIPT);
    let started = Instant::now();
    let result = get_replicas(&script, &object);
    let elapsed = started.elapsed();
    assert!(
        elapsed < TIME_BOUND,
        "{pattern:?} on {} bytes took {elapsed:?}: {result:?}",
        subject.len() * 64
    );
});
