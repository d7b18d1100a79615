//! Reads YAML texts as fedrender reads a fleet's documents and answers in the format of the
//! Go reference `go-yaml` (sigs.k8s.io/yaml `YAMLToJSON`), so that the two can be compared on
//! the same inputs: a JSON array of texts on stdin, one JSON line per text on stdout,
//! `{"ok":true,"json":…}` or `{"ok":false,"err":"…"}`. Like `YAMLToJSON`, only a text's first
//! document is read. testdata/references/differential.py drives it; docs/yaml.md says how.
//! With `--write`, it reads a JSON array of values instead and prints, one JSON line each, the
//! YAML document fedrender writes for the value, for Go to read back.
#![allow(
    clippy::disallowed_macros,
    clippy::disallowed_methods,
    clippy::disallowed_types,
    reason = "a developer's tool beside the engine: it reads stdin and prints"
)]

use std::io::{Read, Write};

use fedrender_engine::yaml;
use serde_json::{Value, json};

fn main() {
    let mut input = String::new();
    std::io::stdin()
        .read_to_string(&mut input)
        .expect("stdin is readable");
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if std::env::args().nth(1).as_deref() == Some("--write") {
        let values: Vec<Value> = serde_json::from_str(&input).expect("a JSON array");
        for value in values {
            writeln!(out, "{}", Value::String(yaml::to_yaml(&value))).expect("stdout is writable");
        }
        return;
    }
    let texts: Vec<String> = serde_json::from_str(&input).expect("a JSON array of strings");
    for text in texts {
        let text = yaml::normalize_line_breaks(text);
        let answer = match yaml::split_documents(&text).first() {
            None => json!({"ok": true, "json": Value::Null}),
            Some(document) => match yaml::parse_document(document, "input.yaml") {
                Ok(value) => json!({"ok": true, "json": value}),
                Err(error) => json!({"ok": false, "err": error.message}),
            },
        };
        writeln!(out, "{answer}").expect("stdout is writable");
    }
}
