//! The YAML writer's fast path: the same bytes serde-saphyr writes for a JSON value, for the
//! values whose every scalar is decided by a few plain rules (names, paths, image references,
//! numbers, booleans, and the words YAML 1.1 would read as something else). Rendered objects
//! are mostly such values, and serde-saphyr spends most of its time deciding how to quote
//! each scalar; here a value with any other scalar (a float, a line break, a space at an end,
//! punctuation YAML gives meaning to) is left to serde-saphyr whole, so this writer never has
//! to know how serde-saphyr quotes those. The tests hold the two writers to the same bytes.

use std::fmt::Write as _;

use serde_json::{Map, Value};

use super::scalar::{Position, is_plain_word, is_quoted_word};

/// The document serde-saphyr writes for `value`, or `None` when a scalar in it is not one this
/// writer decides.
pub(super) fn simple_document(value: &Value) -> Option<String> {
    let mut out = String::with_capacity(1024);
    match value {
        Value::Object(map) if map.is_empty() => out.push_str("{}\n"),
        Value::Object(map) => write_entries(&mut out, map, 0, false)?,
        Value::Array(items) if items.is_empty() => out.push_str("[]\n"),
        Value::Array(items) => write_items(&mut out, items, 0, false)?,
        _ => return None,
    }
    Some(out)
}

/// A map's entries, each key at `indent`; with `inline_first`, the first one continues the
/// line a sequence dash began.
fn write_entries(
    out: &mut String,
    map: &Map<String, Value>,
    indent: usize,
    inline_first: bool,
) -> Option<()> {
    for (position, (key, value)) in map.iter().enumerate() {
        if position > 0 || !inline_first {
            push_indent(out, indent);
        }
        write_scalar_text(out, key, Position::Key)?;
        out.push(':');
        match value {
            Value::Object(map) if !map.is_empty() => {
                out.push('\n');
                write_entries(out, map, indent + 2, false)?;
            }
            // A sequence under a key starts at the key's column.
            Value::Array(items) if !items.is_empty() => {
                out.push('\n');
                write_items(out, items, indent, false)?;
            }
            Value::String(text) if text.contains('\n') => {
                out.push(' ');
                write_literal(out, text, indent + 2)?;
            }
            leaf => {
                out.push(' ');
                write_leaf(out, leaf)?;
                out.push('\n');
            }
        }
    }
    Some(())
}

/// A value with line breaks as serde-saphyr writes it under a key: a literal block scalar,
/// its lines at `column` (empty lines bare), `|-` without a final line break, `|` with one,
/// `|+` and empty lines with more. Text that needs an indentation indicator (a first line
/// starting with a space), that starts with a tab (`to_yaml` double-quotes it, for Go's
/// reader), holds characters a block cannot (or that serde-saphyr escapes
/// instead: carriage return, NEL, the separators, BOM), or is only line breaks, is left to
/// serde-saphyr.
fn write_literal(out: &mut String, text: &str, column: usize) -> Option<()> {
    let content = text.trim_end_matches('\n');
    if content.is_empty() || content.starts_with([' ', '\n', '\t']) || !text.chars().all(block_safe)
    {
        return None;
    }
    let trailing = text.len() - content.len();
    out.push_str(match trailing {
        0 => "|-",
        1 => "|",
        _ => "|+",
    });
    out.push('\n');
    for line in content.split('\n') {
        if !line.is_empty() {
            push_indent(out, column);
            out.push_str(line);
        }
        out.push('\n');
    }
    out.extend(std::iter::repeat_n('\n', trailing.saturating_sub(1)));
    Some(())
}

/// A character a literal block holds as it is: a tab or a printable one (serde-saphyr's
/// `is_block_scalar_content_safe`, over YAML's printable set).
fn block_safe(c: char) -> bool {
    matches!(c, '\n' | '\t')
        || matches!(
            u32::from(c),
            0x20..=0x7E | 0xA0..=0xD7FF | 0xE000..=0xFFFD | 0x1_0000..=0x10_FFFF
        ) && c != '\u{feff}'
}

/// A sequence's items, each dash at `indent`; with `inline_first`, the first dash continues
/// the line an outer dash began.
fn write_items(out: &mut String, items: &[Value], indent: usize, inline_first: bool) -> Option<()> {
    for (position, item) in items.iter().enumerate() {
        if position > 0 || !inline_first {
            push_indent(out, indent);
        }
        out.push_str("- ");
        match item {
            Value::Object(map) if !map.is_empty() => write_entries(out, map, indent + 2, true)?,
            Value::Array(items) if !items.is_empty() => write_items(out, items, indent + 2, true)?,
            leaf => {
                write_leaf(out, leaf)?;
                out.push('\n');
            }
        }
    }
    Some(())
}

/// A scalar or an empty collection, as it follows `key: ` or `- `.
fn write_leaf(out: &mut String, value: &Value) -> Option<()> {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Number(number) if number.is_i64() || number.is_u64() => {
            let _ = write!(out, "{number}");
        }
        // Floats have spellings of their own.
        Value::Number(_) => return None,
        Value::String(text) => write_scalar_text(out, text, Position::Value)?,
        Value::Object(_) => out.push_str("{}"),
        Value::Array(_) => out.push_str("[]"),
    }
    Some(())
}

/// A string as serde-saphyr writes it in block style: plain when no YAML reader could take it
/// for anything but that string, double-quoted when a YAML 1.1 or 1.2 reader would take it for
/// a boolean, null or number; a value also when it cannot be plain (see [`is_never_plain`]),
/// escaped; `.`, `#` and `-` alone single-quoted, as serde-saphyr does; `None` for every other
/// string.
fn write_scalar_text(out: &mut String, text: &str, position: Position) -> Option<()> {
    let value = position == Position::Value;
    if is_plain_word(text, position) {
        out.push_str(text);
    } else if is_quoted_word(text, position) {
        out.push('"');
        out.push_str(text);
        out.push('"');
    } else if value && matches!(text, "." | "#" | "-") {
        out.push('\'');
        out.push_str(text);
        out.push('\'');
    } else if value && is_plain_led_by_a_digit(text) {
        out.push_str(text);
    } else if value && is_never_plain(text) {
        out.push('"');
        for c in text.chars() {
            if matches!(c, '"' | '\\') {
                out.push('\\');
            }
            out.push(c);
        }
        out.push('"');
    } else {
        return None;
    }
    Some(())
}

/// A value led by a digit that serde-saphyr writes plain: no YAML 1.1 number or timestamp to its
/// resolver (`9f14c1`, a build id; `03:30`, no base-60 number with its leading zero). Only what
/// is surely no number is taken: a letter or punctuation no number holds (anything but digits,
/// `.`, `:`, a sign and an exponent's `e`), without `_` (which Go's reader drops before it
/// resolves, as serde-saphyr does), without a radix prefix and not the `yyyy-` a timestamp starts
/// with; or else digits and `:` that are no base-60 integer. Platform repositories' labels are
/// full of these, and one of them used to send the whole document to serde-saphyr.
fn is_plain_led_by_a_digit(text: &str) -> bool {
    let bytes = text.as_bytes();
    let (Some(first), Some(last)) = (bytes.first(), bytes.last()) else {
        return false;
    };
    if !first.is_ascii_digit() || matches!(last, b':' | b' ') || text.contains(": ") {
        return false;
    }
    let in_value = |byte: &u8| {
        byte.is_ascii_alphanumeric()
            || matches!(
                byte,
                b'.' | b'/' | b'-' | b':' | b' ' | b'%' | b'=' | b',' | b'@' | b'+'
            )
    };
    if !bytes.iter().all(in_value) {
        return false;
    }
    let radix =
        bytes.len() >= 2 && bytes[0] == b'0' && matches!(bytes[1] | 0x20, b'x' | b'o' | b'b');
    let timestamp_led =
        bytes.len() >= 5 && bytes[..4].iter().all(u8::is_ascii_digit) && bytes[4] == b'-';
    if radix || timestamp_led {
        return false;
    }
    let number_byte = |byte: &u8| {
        byte.is_ascii_digit() || matches!(byte, b'.' | b':' | b'+' | b'-' | b'e' | b'E')
    };
    if !bytes.iter().all(number_byte) {
        return true;
    }
    bytes.contains(&b':')
        && bytes
            .iter()
            .all(|byte| byte.is_ascii_digit() || *byte == b':')
        && !is_base60_integer(text)
}

/// YAML 1.1's base-60 integer, for digits and `:` alone: a first part without a leading zero,
/// then parts of one or two digits below 60.
fn is_base60_integer(text: &str) -> bool {
    let mut parts = text.split(':');
    let first = parts.next().unwrap_or_default();
    !first.is_empty()
        && !first.starts_with('0')
        && parts.all(|part| match part.as_bytes() {
            [digit] => digit.is_ascii_digit(),
            [tens, units] => matches!(tens, b'0'..=b'5') && units.is_ascii_digit(),
            _ => false,
        })
}

/// A printable ASCII value of two characters or more that YAML cannot hold plain: it starts
/// with an indicator, has a space at an end, or holds `: ` or ` #` or ends in `:`. serde-saphyr
/// double-quotes these, escaping only `"` and `\` among these characters (JSON held in a
/// ConfigMap is the common case).
fn is_never_plain(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() >= 2
        && bytes.iter().all(|byte| (0x20..=0x7E).contains(byte))
        && (matches!(
            bytes[0],
            b',' | b':'
                | b'['
                | b']'
                | b'{'
                | b'}'
                | b'#'
                | b'&'
                | b'*'
                | b'!'
                | b'|'
                | b'>'
                | b'\''
                | b'"'
                | b'%'
                | b'@'
                | b'`'
                | b' '
        ) || text.ends_with([' ', ':'])
            || text.contains(": ")
            || text.contains(" #"))
}

fn push_indent(out: &mut String, indent: usize) {
    // One copy of a slice of spaces rather than a character at a time.
    const SPACES: &str = "                                                                ";
    let mut left = indent;
    while left > 0 {
        let now = left.min(SPACES.len());
        out.push_str(&SPACES[..now]);
        left -= now;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    use crate::yaml::random::Random;

    /// Indentation deeper than the slice of spaces it is copied from is copied in pieces.
    #[test]
    fn indentation_of_any_depth_is_that_many_spaces() {
        for indent in [0, 1, 63, 64, 65, 130] {
            let mut out = String::from("x");
            push_indent(&mut out, indent);
            assert_eq!(out, format!("x{}", " ".repeat(indent)), "{indent}");
        }
    }

    fn by_serde_saphyr(value: &Value) -> String {
        let mut text = serde_saphyr::to_string_with_options(
            value,
            serde_saphyr::ser_options! { folded_wrap_chars: usize::MAX },
        )
        .unwrap();
        if !text.ends_with('\n') {
            text.push('\n');
        }
        text
    }

    /// Whenever this writer takes a value, its bytes are serde-saphyr's; returns whether it
    /// took it.
    fn agrees(value: &Value) -> bool {
        match simple_document(value) {
            Some(text) => {
                assert_eq!(text, by_serde_saphyr(value), "{value}");
                true
            }
            None => false,
        }
    }

    #[test]
    fn a_rendered_deployment_is_written_byte_for_byte_as_serde_saphyr_writes_it() {
        let deployment = json!({
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web", "namespace": "shop", "labels": {"app.kubernetes.io/name": "web"},
                "annotations": {"example.com/owner": "team a", "n": "y"}, "creationTimestamp": null},
            "spec": {"replicas": 3, "paused": false, "selector": {"matchLabels": {"app": "web"}},
                "strategy": {"rollingUpdate": {"maxSurge": "25%", "maxUnavailable": 0}},
                "template": {"metadata": {"labels": {"app": "web"}}, "spec": {
                    "containers": [{"name": "c0", "image": "registry.example.com/shop/web:v1.2.3",
                        "args": ["--port", "8080"], "env": [{"name": "MODE", "value": "on"},
                        {"name": "RATIO", "value": "0.5"}, {"name": "COUNT", "value": "-12"}],
                        "ports": [{"containerPort": 8080}], "resources": {}, "volumeMounts": []}],
                    "tolerations": [[], {}, [["nested"]], null, true]}}}
        });
        assert!(agrees(&deployment));
        // A float, or a scalar this writer does not settle: serde-saphyr writes the document.
        let mut other = deployment.clone();
        other["spec"]["replicas"] = json!(1.5);
        assert!(!agrees(&other));
        let mut other = deployment.clone();
        other["metadata"]["annotations"]["note"] = json!("tab\tthen text");
        assert!(!agrees(&other));
        assert!(agrees(&json!({})));
        assert!(agrees(&json!([[1], [[2]], {"a": [{"b": []}]}])));
    }

    /// Every word that reads as something other than a string, in several cases, as key and
    /// as value; and the near misses that stay plain.
    #[test]
    fn words_yaml_would_misread_are_quoted_as_serde_saphyr_quotes_them() {
        let mut words = Vec::new();
        for word in [
            "y", "n", "yes", "no", "on", "off", "true", "false", "null", "nan", "inf",
        ] {
            words.push(word.to_string());
            words.push(word.to_uppercase());
            let mut title = word.to_string();
            title[..1].make_ascii_uppercase();
            words.push(title);
            words.push(format!("{word}x"));
        }
        words.extend(
            [
                "0", "7", "-1", "0755", "10.25", "1.0", "-3.5", "x1", "a:b", "a/b.c", "a b",
            ]
            .map(String::from),
        );
        for word in &words {
            assert!(agrees(&json!({ "key": word })), "{word}");
            assert!(agrees(&json!({"list": [word]})), "{word}");
            // A key with a colon or a space is left to serde-saphyr.
            assert_eq!(
                agrees(&json!({ word.as_str(): 1 })),
                !word.contains([':', ' ']),
                "{word}"
            );
        }
        // Values only: flags and percentages are plain; a flag spelled like a special word
        // is left to serde-saphyr.
        for (word, taken) in [
            ("25%", true),
            ("1e3%", true),
            ("--port", true),
            ("-v", true),
            ("--on", false),
            ("-nan", false),
            ("-inf", false),
            ("---", false),
            ("%x", true),
            ("{\"rps\": 100}", true),
            ("see #4", true),
            ("trailing: ", true),
            ("-", true),
            (".", true),
            ("a\tb", false),
            ("/ready", true),
            ("/", true),
            ("1024Mi", true),
            ("0.5Gi", true),
            ("250m", true),
            ("30s", true),
            ("1e", true),
            ("1E", true),
            ("0xff", true),
            ("0x1F", true),
            ("0o17", true),
            ("0b101", true),
            ("1e3", true),
            ("2.5E-3", true),
            ("+1", true),
            ("1_000", true),
            (".5", true),
            ("1.", true),
            ("1.2.3", true),
            ("12:30", true),
            ("1:2:3", true),
            ("12:60", true),
            ("~", true),
            ("2024-01-01", false),
            ("0o7x", false),
            ("0b", false),
            ("1.e", false),
            ("server.port=8080", true),
            ("a,b", true),
            ("a+b@c", true),
            ("9f14c1", true),
            ("4e1a2b", true),
            ("03:30", true),
            ("1::2", true),
            ("1h30m", true),
            ("3.10.6", true),
            ("10.0.0.1", true),
            ("10.0.0.1/24", true),
            ("1e3x", true),
            ("2024-01-01T10:00:00Z", false),
            ("0x1g", false),
            ("1_000a", false),
            ("12:30:1a", true),
        ] {
            assert_eq!(agrees(&json!({ "key": word })), taken, "{word}");
            assert!(!agrees(&json!({ word: 1 })), "{word}");
        }
    }

    /// ConfigMaps' files and scripts: written as serde-saphyr writes them (a literal block,
    /// its chomping by the final line breaks), under a key at any depth and in a sequence's map.
    #[test]
    fn values_with_line_breaks_are_written_as_serde_saphyr_writes_them() {
        for text in [
            "server:\n  port: 8080\n",
            "#!/bin/sh\necho \"a: b\" # c\n",
            "no final break",
            "two\nfinal breaks\n\n",
            "inner\n\nblank lines\n",
            "trailing spaces \nand\ttabs\t\n",
            "- looks like\n- a list\n",
            "é and ü\n",
        ] {
            for value in [
                json!({ "data": { "file": text } }),
                json!({ "items": [{ "name": "a", "file": text }] }),
                json!({ "file": text, "after": 1 }),
            ] {
                assert!(agrees(&value), "{value}");
            }
        }
        for text in [
            "  indented first line\n",
            "\tall: build\n",
            "\nleading break",
            "\n\n",
            "cr\r\n",
            "nel\u{85}\n",
        ] {
            assert!(!agrees(&json!({ "file": text })), "{text:?}");
        }
        assert!(!agrees(&json!({ "list": ["a\nb\n"] })));
    }

    impl Random {
        fn text(&mut self, pieces: &[&str]) -> String {
            let length = self.below(4);
            let mut text: String = (0..length)
                .map(|_| pieces[self.below(pieces.len())])
                .collect();
            if self.below(3) == 0 {
                text.insert_str(0, "name");
            }
            text
        }
        fn value(&mut self, pieces: &[&str], floats: bool, depth: usize) -> Value {
            match self.below(if depth == 0 { 6 } else { 8 }) {
                0 => Value::Null,
                1 => Value::Bool(self.below(2) == 0),
                2 => json!(self.below(100_000) as i64 - 50_000),
                3 if floats => json!(self.below(1000) as f64 / 8.0),
                3..=5 => Value::String(self.text(pieces)),
                6 => Value::Array(
                    (0..self.below(4))
                        .map(|_| self.value(pieces, floats, depth - 1))
                        .collect(),
                ),
                _ => Value::Object(
                    (0..self.below(4))
                        .map(|_| (self.text(pieces), self.value(pieces, floats, depth - 1)))
                        .collect(),
                ),
            }
        }
    }

    /// Random documents, over an alphabet rich in YAML's indicators and over one of names and
    /// the words YAML misreads: a taken one is always written as serde-saphyr writes it, and
    /// most of the second kind are taken.
    #[test]
    fn random_documents_are_written_as_serde_saphyr_writes_them_or_left_to_it() {
        const INDICATORS: &[&str] = &[
            "a",
            "Z",
            "0",
            "1",
            "9",
            ".",
            "-",
            "_",
            "/",
            ":",
            " ",
            "#",
            ",",
            "'",
            "\"",
            "\\",
            "[",
            "]",
            "{",
            "}",
            "&",
            "*",
            "!",
            "|",
            ">",
            "%",
            "@",
            "`",
            "?",
            "~",
            "=",
            "<<",
            "\n",
            "\t",
            "é",
            "on",
            "no",
            "y",
            "null",
            "true",
            "inf",
            ".inf",
            "nan",
            "e3",
            "0x",
            "0o",
            "2024-01-01",
            "12:30",
            "---",
            "...",
            "_1",
        ];
        const NAMES: &[&str] = &[
            "a", "Z", "0", "7", "-", "--", ".", "/", ":", " ", "_", "%", "on", "No", "y", "NULL",
            "true", "inf", "web", "v1.2", "e3", "Mi", "x", "0x", "=", "+", ",", "@",
        ];
        // What YAML 1.1 reads as numbers, and the lines of multi-line values.
        const NUMBERS: &[&str] = &[
            "0", "1", "7", "9", "e", "E", "x", "o", "b", "f", ".", "_", ":", "+", "-", "~", "60",
            "a",
        ];
        // Digit-led values: build ids, times, versions, addresses, timestamps.
        const DIGIT_LED: &[&str] = &[
            "0", "1", "9", "03", "30", "60", "2024", "9f", "c1", "e", "E", "x", "o", "b", "T", "Z",
            "h", ".", "_", ":", "+", "-", "/", "%", " ", ",", "=", "@",
        ];
        const LINES: &[&str] = &[
            "line", "a: b", "- x", "# c", " ", "  ", "\n", "\n", "\n\n", "\t", "é", "\"", "'",
            "\u{85}", "\r", "|", "...",
        ];
        let mut random = Random(0x2545_f491_4f6c_dd1d);
        for (pieces, floats, least_taken) in [
            (INDICATORS, true, 300),
            (NAMES, false, 2_000),
            (NUMBERS, false, 2_000),
            (DIGIT_LED, false, 2_000),
            (LINES, false, 200),
        ] {
            let mut taken = 0;
            for _ in 0..20_000 {
                let document = Value::Object(
                    (0..1 + random.below(4))
                        .map(|_| (random.text(pieces), random.value(pieces, floats, 3)))
                        .collect(),
                );
                taken += usize::from(agrees(&document));
            }
            assert!(taken >= least_taken, "only {taken} of 20000 taken");
        }
    }
}
