//! `json.Unmarshal` into an `interface{}`, as sprig's `fromJson` and `mustFromJson` call it:
//! Go's syntax, its depth limit of 10,000 (past serde's 128, so documents serde refuses still
//! read), its messages in the words its v1 API gives them (the Go the reference is built with
//! reads JSON through encoding/json/v2 and words its errors as `v2_scanner.go` rewrites them),
//! numbers as `float64`, the last of two equal keys kept, and lone surrogates as U+FFFD.
//!
//! The reader keeps its own stack of open objects and arrays rather than recursing, so a deep
//! document costs heap, not the thread's stack.

use super::super::quote::{is_print, quote, quote_rune};
use super::value::Value;
use std::collections::BTreeMap;

/// encoding/json's bound on nesting (jsontext `maxNestingDepth`).
const MOST_DEPTH: usize = 10_000;

/// The value `text` decodes to, and the error `Unmarshal` returns with it: on a syntax error
/// the value is nil; on a number past `float64` it is the document with that number zero.
pub(crate) fn unmarshal(text: &str) -> (Value, Option<String>) {
    let mut reader = Reader {
        text: text.as_bytes(),
        at: 0,
        range_error: None,
    };
    match reader.document() {
        Ok(value) => (value, reader.range_error),
        Err(message) => (Value::Nil, Some(message)),
    }
}

enum Open {
    Array(Vec<Value>),
    Object(BTreeMap<String, Value>, String),
}

struct Reader<'a> {
    text: &'a [u8],
    at: usize,
    range_error: Option<String>,
}

const UNEXPECTED_END: &str = "unexpected end of JSON input";

impl Reader<'_> {
    fn skip_space(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.text.get(self.at) {
            self.at += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    /// `invalid character 'c' WHERE`, the character being the rune at the reader.
    fn invalid(&self, at: usize, where_: &str) -> String {
        let rest = &self.text[at..];
        let rune = std::str::from_utf8(&rest[..rest.len().min(4)])
            .ok()
            .or_else(|| {
                (1..4)
                    .rev()
                    .find_map(|n| std::str::from_utf8(rest.get(..n)?).ok())
            })
            .and_then(|s| s.chars().next())
            .unwrap_or('\u{fffd}');
        format!("invalid character {} {where_}", quote_rune(rune))
    }

    fn document(&mut self) -> Result<Value, String> {
        let mut stack: Vec<Open> = Vec::new();
        loop {
            // A value is expected here.
            self.skip_space();
            let Some(c) = self.peek() else {
                return Err(UNEXPECTED_END.into());
            };
            let mut value = match c {
                b'{' | b'[' => {
                    if stack.len() >= MOST_DEPTH {
                        return Err("exceeded max depth".into());
                    }
                    self.at += 1;
                    self.skip_space();
                    if c == b'[' {
                        if self.peek() == Some(b']') {
                            self.at += 1;
                            Value::list(Vec::new())
                        } else {
                            stack.push(Open::Array(Vec::new()));
                            continue;
                        }
                    } else if self.peek() == Some(b'}') {
                        self.at += 1;
                        Value::map(BTreeMap::new())
                    } else {
                        let key = self.key()?;
                        stack.push(Open::Object(BTreeMap::new(), key));
                        continue;
                    }
                }
                b'"' => Value::String(self.string()?),
                b'-' | b'0'..=b'9' => self.number(&stack)?,
                b't' => self.literal("true", Value::Bool(true))?,
                b'f' => self.literal("false", Value::Bool(false))?,
                b'n' => self.literal("null", Value::Nil)?,
                _ => return Err(self.invalid(self.at, "looking for beginning of value")),
            };
            // A value is done: it closes its container, or the reader expects a next one.
            loop {
                self.skip_space();
                match stack.last_mut() {
                    None => {
                        if self.at < self.text.len() {
                            return Err(self.invalid(self.at, "after top-level value"));
                        }
                        return Ok(value);
                    }
                    Some(Open::Array(items)) => match self.peek() {
                        Some(b',') => {
                            self.at += 1;
                            items.push(value);
                            break;
                        }
                        Some(b']') => {
                            self.at += 1;
                            items.push(value);
                            let Some(Open::Array(items)) = stack.pop() else {
                                unreachable!("the top is this array")
                            };
                            value = Value::list(items);
                        }
                        Some(_) => return Err(self.invalid(self.at, "after array element")),
                        None => return Err(UNEXPECTED_END.into()),
                    },
                    Some(Open::Object(fields, key)) => match self.peek() {
                        Some(b',') => {
                            self.at += 1;
                            fields.insert(std::mem::take(key), value);
                            *key = self.key()?;
                            break;
                        }
                        Some(b'}') => {
                            self.at += 1;
                            fields.insert(std::mem::take(key), value);
                            let Some(Open::Object(fields, _)) = stack.pop() else {
                                unreachable!("the top is this object")
                            };
                            value = Value::map(fields);
                        }
                        Some(_) => {
                            return Err(self.invalid(self.at, "after object key:value pair"));
                        }
                        None => return Err(UNEXPECTED_END.into()),
                    },
                }
            }
        }
    }

    /// An object's key and its colon.
    fn key(&mut self) -> Result<String, String> {
        self.skip_space();
        match self.peek() {
            Some(b'"') => {}
            Some(_) => {
                return Err(self.invalid(self.at, "looking for beginning of object key string"));
            }
            None => return Err(UNEXPECTED_END.into()),
        }
        let key = self.string()?;
        self.skip_space();
        match self.peek() {
            Some(b':') => {
                self.at += 1;
                Ok(key)
            }
            Some(_) => Err(self.invalid(self.at, "after object key")),
            None => Err(UNEXPECTED_END.into()),
        }
    }

    fn literal(&mut self, word: &str, value: Value) -> Result<Value, String> {
        for (i, expected) in word.bytes().enumerate() {
            match self.text.get(self.at + i) {
                Some(&b) if b == expected => {}
                Some(_) => {
                    return Err(self.invalid(
                        self.at + i,
                        &format!(
                            "in literal {word} (expecting {})",
                            quote_rune(expected as char)
                        ),
                    ));
                }
                None => return Err(UNEXPECTED_END.into()),
            }
        }
        self.at += word.len();
        Ok(value)
    }

    fn number(&mut self, open: &[Open]) -> Result<Value, String> {
        let start = self.at;
        let digits = |reader: &mut Self| -> Result<(), String> {
            match reader.peek() {
                Some(b'0'..=b'9') => {}
                Some(_) => return Err(reader.invalid(reader.at, "in numeric literal")),
                None => return Err(UNEXPECTED_END.into()),
            }
            while let Some(b'0'..=b'9') = reader.peek() {
                reader.at += 1;
            }
            Ok(())
        };
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        if self.peek() == Some(b'0') {
            self.at += 1;
        } else {
            digits(self)?;
        }
        if self.peek() == Some(b'.') {
            self.at += 1;
            digits(self)?;
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.at += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.at += 1;
            }
            digits(self)?;
        }
        let text = std::str::from_utf8(&self.text[start..self.at]).expect("ASCII digits");
        let number: f64 = text.parse().expect("a JSON number is a Rust float literal");
        if number.is_infinite() {
            // strconv.ParseFloat's range error: the number is left zero and the first such
            // error returned once the whole document is read.
            self.range_error.get_or_insert_with(|| {
                format!(
                    "json: cannot unmarshal number {text} into {} of type float64",
                    go_value_path(open)
                )
            });
            return Ok(Value::Float(0.0));
        }
        Ok(Value::Float(number))
    }

    /// A string from its opening quote, its escapes decoded.
    fn string(&mut self) -> Result<String, String> {
        self.at += 1;
        let mut out = String::new();
        loop {
            let run_start = self.at;
            while let Some(&b) = self.text.get(self.at) {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.at += 1;
            }
            out.push_str(
                std::str::from_utf8(&self.text[run_start..self.at])
                    .expect("the input is a string, split at ASCII bytes"),
            );
            match self.peek() {
                None => return Err(UNEXPECTED_END.into()),
                Some(b'"') => {
                    self.at += 1;
                    return Ok(out);
                }
                Some(b'\\') => self.escape(&mut out)?,
                Some(_) => return Err(self.invalid(self.at, "in string")),
            }
        }
    }

    fn escape(&mut self, out: &mut String) -> Result<(), String> {
        let start = self.at;
        let Some(&kind) = self.text.get(self.at + 1) else {
            return Err(UNEXPECTED_END.into());
        };
        let simple = match kind {
            b'"' => Some('"'),
            b'\\' => Some('\\'),
            b'/' => Some('/'),
            b'b' => Some('\u{8}'),
            b'f' => Some('\u{c}'),
            b'n' => Some('\n'),
            b'r' => Some('\r'),
            b't' => Some('\t'),
            b'u' => None,
            _ => return Err(self.bad_escape(start, start + 2)),
        };
        if let Some(rune) = simple {
            out.push(rune);
            self.at += 2;
            return Ok(());
        }
        let first = self.hex4(start)?;
        self.at = start + 6;
        if !(0xd800..0xe000).contains(&first) {
            out.push(char::from_u32(first).expect("not a surrogate"));
            return Ok(());
        }
        // A high surrogate joins the low one escaped right after it; anything else leaves it
        // a lone surrogate, which Go decodes as U+FFFD.
        if first < 0xdc00 && self.text.get(self.at..self.at + 2) == Some(b"\\u") {
            let second = self.hex4(self.at)?;
            if (0xdc00..0xe000).contains(&second) {
                let rune = 0x10000 + ((first - 0xd800) << 10) + (second - 0xdc00);
                out.push(char::from_u32(rune).expect("a surrogate pair"));
                self.at += 6;
                return Ok(());
            }
        }
        out.push('\u{fffd}');
        Ok(())
    }

    /// The four hex digits of the `\u` escape at `start`.
    fn hex4(&self, start: usize) -> Result<u32, String> {
        let mut code = 0;
        for i in 2..6 {
            let Some(&b) = self.text.get(start + i) else {
                return Err(UNEXPECTED_END.into());
            };
            let digit = (b as char)
                .to_digit(16)
                .ok_or_else(|| self.bad_escape(start, start + 6))?;
            code = code * 16 + digit;
        }
        Ok(code)
    }

    /// `invalid escape sequence `\x` in string`, quoted as jsonwire's `InvalidTextError` is:
    /// the escape's bytes, which may end inside a rune.
    fn bad_escape(&self, start: usize, end: usize) -> String {
        let what = &self.text[start..end.min(self.text.len())];
        let shown = match std::str::from_utf8(what) {
            Ok(what)
                if !what
                    .chars()
                    .any(|c| c == '`' || c == '\u{fffd}' || c.is_whitespace() || !is_print(c)) =>
            {
                format!("`{what}`")
            }
            _ => quote_bytes(what),
        };
        format!("invalid escape sequence {shown} in string")
    }
}

/// Where a number sits, as the legacy `UnmarshalTypeError` names it: `Go value` at the top,
/// else the path of keys and indexes (keys escaped as a JSON pointer's), a `Go struct field`
/// when the last step is a key.
fn go_value_path(open: &[Open]) -> String {
    if open.is_empty() {
        return "Go value".into();
    }
    let mut path = String::new();
    for step in open {
        path.push('.');
        match step {
            Open::Array(items) => path.push_str(&items.len().to_string()),
            Open::Object(_, key) => path.push_str(&key.replace('~', "~0").replace('/', "~1")),
        }
    }
    match open.last() {
        Some(Open::Object(..)) => format!("Go struct field {path}"),
        _ => path,
    }
}

/// `strconv.Quote` of bytes that need not be UTF-8: a byte outside a rune is `\xNN`.
fn quote_bytes(bytes: &[u8]) -> String {
    let mut out = String::from("\"");
    for chunk in bytes.utf8_chunks() {
        let valid = quote(chunk.valid());
        out.push_str(&valid[1..valid.len() - 1]);
        for byte in chunk.invalid() {
            out.push_str(&format!("\\x{byte:02x}"));
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::argocd::template::go::value::sprint_value;

    fn read(text: &str) -> String {
        match unmarshal(text) {
            (value, None) => sprint_value(&value),
            (_, Some(error)) => format!("ERR {error}"),
        }
    }

    // What the reference (Argo CD's template code, Go 1.27's encoding/json) answered, recorded
    // in testdata/references/argocd-templates/answers.jsonl.
    #[test]
    fn reads_and_refuses_as_go_does() {
        assert_eq!(read(r#"{"a":[1,{"b":null}]}"#), "map[a:[1 map[b:<nil>]]]");
        assert_eq!(read(r#"{"a":1,"a":2}"#), "map[a:2]");
        assert_eq!(read(r#""\ud800x""#), "\u{fffd}x");
        assert_eq!(read(r#"["\ud83d\ude00"]"#), "[😀]");
        assert_eq!(read(" [ ] "), "[]");
        assert_eq!(read(""), "ERR unexpected end of JSON input");
        assert_eq!(read("tru"), "ERR unexpected end of JSON input");
        assert_eq!(
            read("trux"),
            "ERR invalid character 'x' in literal true (expecting 'e')"
        );
        assert_eq!(
            read("é"),
            "ERR invalid character 'é' looking for beginning of value"
        );
        assert_eq!(
            read("\u{1}"),
            "ERR invalid character '\\x01' looking for beginning of value"
        );
        assert_eq!(
            read("[1,]"),
            "ERR invalid character ']' looking for beginning of value"
        );
        assert_eq!(
            read(r#"{"a" 1}"#),
            "ERR invalid character '1' after object key"
        );
        assert_eq!(
            read(r#"{"a":1 x"#),
            "ERR invalid character 'x' after object key:value pair"
        );
        assert_eq!(
            read("[1 2]"),
            "ERR invalid character '2' after array element"
        );
        assert_eq!(
            read("1 2"),
            "ERR invalid character '2' after top-level value"
        );
        assert_eq!(
            read("0123"),
            "ERR invalid character '1' after top-level value"
        );
        assert_eq!(read("1.x"), "ERR invalid character 'x' in numeric literal");
        assert_eq!(
            read("{1:2}"),
            "ERR invalid character '1' looking for beginning of object key string"
        );
        assert_eq!(read("\"a\tb\""), "ERR invalid character '\\t' in string");
        assert_eq!(
            read(r#""\x""#),
            "ERR invalid escape sequence `\\x` in string"
        );
        assert_eq!(
            read(r#""\u12g4""#),
            "ERR invalid escape sequence `\\u12g4` in string"
        );
        assert_eq!(
            unmarshal("1e400").1.as_deref(),
            Some("json: cannot unmarshal number 1e400 into Go value of type float64")
        );
        assert_eq!(sprint_value(&unmarshal("[1e400, 2]").0), "[0 2]");
        let range = |text| unmarshal(text).1.unwrap();
        assert_eq!(
            range(r#"{"a":{"b c":1e400}}"#),
            "json: cannot unmarshal number 1e400 into Go struct field .a.b c of type float64"
        );
        assert_eq!(
            range("[1e400, 2]"),
            "json: cannot unmarshal number 1e400 into .0 of type float64"
        );
        assert_eq!(
            range("[[2,1e400],1e999]"),
            "json: cannot unmarshal number 1e400 into .0.1 of type float64"
        );
        assert_eq!(
            range(r#"[{"a/b~":1e400}]"#),
            "json: cannot unmarshal number 1e400 into Go struct field .0.a~1b~0 of type float64"
        );
        assert_eq!(read("[1}"), "ERR invalid character '}' after array element");
        assert_eq!(
            read("\"\\\u{e9}\""),
            r#"ERR invalid escape sequence "\\\xc3" in string"#
        );
        assert_eq!(read(r#""\ud800\ud800""#), "\u{fffd}\u{fffd}");
    }

    #[test]
    fn nests_to_go_s_depth_on_the_heap() {
        let deep = |n: usize| format!("{}1{}", "[".repeat(n), "]".repeat(n));
        assert!(unmarshal(&deep(MOST_DEPTH)).1.is_none());
        assert_eq!(
            unmarshal(&deep(MOST_DEPTH + 1)).1.as_deref(),
            Some("exceeded max depth")
        );
    }
}
