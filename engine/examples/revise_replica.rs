//! Runs `ReviseReplica` scripts as fedrender does, with the input and output of the gopher-lua
//! reference (the shared oracle sources' references/gopher-lua.go), so that the two can be
//! compared script by script: a JSON array of scripts on standard input, one line per script
//! on standard output, `{"ok":true,"spec":...}` or `{"ok":false,"err":...}`. Each script gets a
//! Widget whose spec is `{size: 1}` and the desired count 1.
//!
//! A developer's tool, not part of the engine: `testdata/references/lua_differential.py` builds
//! and runs it (docs/interpretation.md says how).
// A program of its own, outside the engine's library: it may read standard input and write
// standard output, which engine/clippy.toml forbids the stages.
#![allow(clippy::disallowed_methods)]

use std::io::{Read, Write};

use fedrender_engine::interpret::lua::{Script, revise_replica};
use serde_json::{Value, json};

fn main() {
    let mut input = String::new();
    std::io::stdin()
        .read_to_string(&mut input)
        .expect("standard input is readable");
    let scripts: Vec<String> =
        serde_json::from_str(&input).expect("standard input holds a JSON array of scripts");
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for (index, source) in scripts.iter().enumerate() {
        // The reference names each object's kind after its position, so that Karmada's pool
        // compiles every script afresh; the same object here.
        let object = json!({
            "apiVersion": "example.com/v1",
            "kind": format!("W{index}"),
            "metadata": {"name": "w", "namespace": "default"},
            "spec": {"size": 1},
        });
        let script = Script::new("script", 1, source);
        let answer = match revise_replica(&script, &object, 1) {
            Ok(revised) => {
                json!({"ok": true, "spec": revised.get("spec").cloned().unwrap_or(Value::Null)})
            }
            Err(error) => json!({"ok": false, "err": error}),
        };
        serde_json::to_writer(&mut out, &answer).expect("standard output is writable");
        out.write_all(b"\n").expect("standard output is writable");
    }
}
