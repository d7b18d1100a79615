//! The YAML reader's fast path: the value the general reader (`load`, Go's reading) gives a
//! document written in the plain block style manifests are written in — mappings and sequences
//! by indentation, one-line flow mappings and sequences of plain scalars, names, paths,
//! quantities, integers, `true`, `false` and `null`, quoted strings with nothing to unescape, whole-line comments. Anything
//! else (a tab, an anchor, a tag, a block scalar, a trailing comment, a scalar continued on the
//! next line, a repeated key, a float, a word YAML 1.1 reads as a boolean) gives `None`, and
//! the general reader reads the document, with its errors and their lines. The tests hold the two
//! readers to the same values.

use serde_json::{Map, Number, Value};

use super::scalar::{Position, is_plain_word};
use crate::text;

/// Deeper than any manifest nests; past it the general reader reads the document and applies the
/// nesting limit.
const MAX_DEPTH: usize = 64;

/// The value of `document`, or `None` when it is not written in the style this reader reads.
pub(super) fn simple_document(document: &str) -> Option<Value> {
    // Printable ASCII and line feeds, the common case, holds none of those characters: a test
    // of each byte, with no branch, before any character is decoded.
    let printable_ascii = document.bytes().fold(true, |printable, byte| {
        printable & (matches!(byte, b' '..=b'~') | (byte == b'\n'))
    });
    if !printable_ascii && document.chars().any(left_to_general_reader) {
        return None;
    }
    let raw: Vec<&str> = text::split_at_byte(document, b'\n').collect();
    let mut lines = Vec::new();
    let mut blocks = Vec::new();
    let mut seen_content = false;
    let mut at = 0;
    while let Some(&text) = raw.get(at) {
        at += 1;
        let content = text.trim_start_matches(' ');
        if content.is_empty() || content.starts_with('#') {
            continue;
        }
        if !seen_content && text.trim_end_matches(' ') == "---" {
            continue;
        }
        if text.starts_with("---") || text.starts_with("...") || text.starts_with('%') {
            return None;
        }
        seen_content = true;
        let content = content.trim_end_matches(' ');
        if content.contains('#') {
            return None;
        }
        let indent = text.len() - text.trim_start_matches(' ').len();
        let block = match literal_header(content) {
            Some(chomp) => {
                let (value, next) = literal_block(&raw, at, key_column(indent, content), chomp)?;
                at = next;
                blocks.push(Some(Value::String(value)));
                Some(blocks.len() - 1)
            }
            None => None,
        };
        lines.push(Line {
            indent,
            content,
            block,
        });
    }
    let mut reader = Reader {
        lines,
        blocks,
        at: 0,
    };
    let first = reader.lines.first()?.indent;
    let value = reader.block(first, 0)?;
    (reader.at == reader.lines.len()).then_some(value)
}

/// How a literal block scalar ends: `|` keeps its last line break, `|-` drops it. `|+`, an
/// indentation indicator and the folded style are left to the general reader.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Chomp {
    Clip,
    Strip,
}

/// The chomping of a `key: |` or `key: |-` line, whose value is the literal block below it.
fn literal_header(content: &str) -> Option<Chomp> {
    if content.ends_with(": |") {
        Some(Chomp::Clip)
    } else if content.ends_with(": |-") {
        Some(Chomp::Strip)
    } else {
        None
    }
}

/// The column of the key on a line at `indent` (past any `- ` dashes before it): the block
/// scalar below it must be indented deeper.
fn key_column(indent: usize, content: &str) -> usize {
    let mut rest = content;
    while let Some(after) = rest
        .strip_prefix('-')
        .filter(|after| after.starts_with(' '))
    {
        rest = after.trim_start_matches(' ');
    }
    indent + content.len() - rest.len()
}

/// The text of a literal block scalar whose lines start at `raw[from]`, under a key at
/// `key_column`, and the index of the first line after it: each line without the block's
/// indentation (set by its first non-empty line), empty lines kept inside, trailing ones
/// dropped, and the last line break kept or not by `chomp` (YAML 1.2 §8.1.1.2, as libyaml and
/// so Go's reader apply it). A block that is empty, whose first lines are deeper blanks, or
/// which has a blank line longer than its indentation (content or not, by who reads it) or a
/// line between the key's column and its own is left to the general reader.
fn literal_block(
    raw: &[&str],
    from: usize,
    key_column: usize,
    chomp: Chomp,
) -> Option<(String, usize)> {
    let indent_of = |text: &str| text.len() - text.trim_start_matches(' ').len();
    let is_blank = |text: &str| text.bytes().all(|byte| byte == b' ');
    let first = raw[from..].iter().find(|text| !is_blank(text))?;
    let indent = indent_of(first);
    if indent <= key_column {
        return None;
    }
    let mut end = from;
    let mut last_content = None;
    while let Some(text) = raw.get(end) {
        if is_blank(text) {
            if text.len() > indent {
                return None;
            }
        } else if indent_of(text) < indent {
            if indent_of(text) > key_column {
                return None;
            }
            break;
        } else {
            last_content = Some(end);
        }
        end += 1;
    }
    let last = last_content?;
    // The last line's break is in the document only when another line follows it.
    if chomp == Chomp::Clip && last + 1 == raw.len() {
        return None;
    }
    let mut value = String::new();
    for (index, text) in raw[from..=last].iter().enumerate() {
        if index > 0 {
            value.push('\n');
        }
        if !is_blank(text) {
            value.push_str(&text[indent..]);
        }
    }
    if chomp == Chomp::Clip {
        value.push('\n');
    }
    Some((value, end))
}

/// Characters this reader leaves to the general reader: control characters (tabs among them),
/// the characters YAML 1.1 reads as line breaks, a byte-order mark, and every character YAML
/// does not allow in a stream at all, which the parser refuses wherever it stands (and so does
/// Go's reader, libyaml's `yaml_parser_update_buffer`): U+FFFE and U+FFFF, outside YAML's printable
/// set (YAML 1.2 §5.1 `c-printable`) although not control characters.
fn left_to_general_reader(c: char) -> bool {
    c != '\n' && c.is_control()
        || matches!(c, '\u{2028}' | '\u{2029}' | '\u{feff}')
        || !is_yaml_printable(c)
}

/// YAML 1.2 §5.1 `c-printable`: tab, the line breaks, printable ASCII, NEL, and the rest of
/// Unicode but the C1 controls, surrogates, U+FFFE and U+FFFF.
pub(super) fn is_yaml_printable(c: char) -> bool {
    matches!(
        u32::from(c),
        0x09 | 0x0A
            | 0x0D
            | 0x20..=0x7E
            | 0x85
            | 0xA0..=0xD7FF
            | 0xE000..=0xFFFD
            | 0x1_0000..=0x10_FFFF
    )
}

#[derive(Clone, Copy)]
struct Line<'a> {
    indent: usize,
    /// Without its indentation and trailing spaces.
    content: &'a str,
    /// The literal block scalar that is this line's value, read when the lines were split.
    block: Option<usize>,
}

struct Reader<'a> {
    lines: Vec<Line<'a>>,
    blocks: Vec<Option<Value>>,
    at: usize,
}

impl<'a> Reader<'a> {
    fn peek(&self) -> Option<Line<'a>> {
        self.lines.get(self.at).copied()
    }

    /// The mapping or sequence whose first line is the next one, at `indent`.
    fn block(&mut self, indent: usize, depth: usize) -> Option<Value> {
        if depth > MAX_DEPTH {
            return None;
        }
        let line = self.peek()?;
        if line.indent != indent {
            return None;
        }
        if is_item(line.content) {
            self.sequence(indent, depth)
        } else {
            self.mapping(indent, depth)
        }
    }

    fn mapping(&mut self, indent: usize, depth: usize) -> Option<Value> {
        let mut entries = Vec::new();
        while let Some(line) = self.peek() {
            if line.indent < indent || line.indent == indent && is_item(line.content) {
                break;
            }
            if line.indent > indent {
                return None;
            }
            let (key, rest) = split_entry(line.content)?;
            self.at += 1;
            let value = if let Some(block) = line.block {
                // The header matched the line's end; the value must be that whole rest.
                if !matches!(rest, "|" | "|-") {
                    return None;
                }
                self.blocks[block].take()?
            } else if rest.is_empty() {
                match self.peek() {
                    Some(next) if next.indent > indent => self.block(next.indent, depth + 1)?,
                    // A sequence under a key may start at the key's column.
                    Some(next) if next.indent == indent && is_item(next.content) => {
                        self.sequence(indent, depth + 1)?
                    }
                    _ => Value::Null,
                }
            } else {
                let value = inline_value(rest)?;
                // A deeper line after a scalar continues it.
                if self.peek().is_some_and(|next| next.indent > indent) {
                    return None;
                }
                value
            };
            entries.push((key, value));
        }
        exact_map(entries)
    }

    fn sequence(&mut self, indent: usize, depth: usize) -> Option<Value> {
        let mut items = Vec::new();
        while let Some(line) = self.peek() {
            if line.indent != indent || !is_item(line.content) {
                if line.indent > indent {
                    return None;
                }
                break;
            }
            let rest = line.content[1..].trim_start_matches(' ');
            if rest.is_empty() {
                return None;
            }
            let column = indent + (line.content.len() - rest.len());
            if is_item(rest) || split_entry(rest).is_some() {
                // The item's own mapping or sequence starts on the dash's line.
                self.lines[self.at] = Line {
                    indent: column,
                    content: rest,
                    block: line.block,
                };
                items.push(self.block(column, depth + 1)?);
            } else {
                self.at += 1;
                items.push(inline_value(rest)?);
                if self.peek().is_some_and(|next| next.indent > indent) {
                    return None;
                }
            }
        }
        items.shrink_to_fit();
        Some(Value::Array(items))
    }
}

/// A map of exactly its entries; `None` when a key repeats (the general reader reports it).
fn exact_map(entries: Vec<(&str, Value)>) -> Option<Value> {
    let count = entries.len();
    let mut map = Map::with_capacity(count);
    map.extend(
        entries
            .into_iter()
            .map(|(key, value)| (key.to_string(), value)),
    );
    (map.len() == count).then_some(Value::Object(map))
}

/// `- item` or a lone `-`.
fn is_item(content: &str) -> bool {
    content == "-" || content.starts_with("- ")
}

/// `key: rest` or `key:`, for a key that is a plain name.
fn split_entry(content: &str) -> Option<(&str, &str)> {
    let colon = text::find_byte(content, b':')?;
    let (key, rest) = (&content[..colon], &content[colon + 1..]);
    if !(rest.is_empty() || rest.starts_with(' ')) || !is_plain_word(key, Position::Key) {
        return None;
    }
    Some((key, rest.trim_start_matches(' ')))
}

/// A value on the rest of a line: a scalar, or a flow mapping or sequence.
fn inline_value(text: &str) -> Option<Value> {
    if text.starts_with(['{', '[']) {
        return flow_collection(text, 0);
    }
    scalar(text)
}

/// How deep flow collections on one line are read here (`{port: {number: 80}}` is two); deeper
/// ones are the general reader's, which bounds them itself.
const MAX_FLOW_DEPTH: usize = 8;

/// A flow mapping or sequence on one line, of plain keys and of scalars or flow collections.
/// One that nests another holds no quote: a quoted `,` or bracket would take a scanner.
fn flow_collection(text: &str, depth: usize) -> Option<Value> {
    let (open, inner) = (text.as_bytes()[0], &text[1..]);
    let inner = inner.strip_suffix(if open == b'{' { '}' } else { ']' })?;
    let nests = inner.contains(['{', '}', '[', ']']);
    if depth >= MAX_FLOW_DEPTH || nests && text.contains(['"', '\'']) {
        return None;
    }
    let value = |text: &str| {
        if text.starts_with(['{', '[']) {
            flow_collection(text, depth + 1)
        } else {
            flow_scalar(text)
        }
    };
    let entries = flow_entries(inner)?;
    if open == b'{' {
        let mut pairs = Vec::with_capacity(entries.len());
        for entry in entries {
            let (key, rest) = entry.split_once(": ")?;
            if !is_plain_word(key, Position::Key) {
                return None;
            }
            pairs.push((key, value(rest.trim_start_matches(' '))?));
        }
        exact_map(pairs)
    } else {
        entries
            .into_iter()
            .map(value)
            .collect::<Option<Vec<_>>>()
            .map(Value::Array)
    }
}

/// The comma-separated entries of a flow collection's inside, split where no bracket is open,
/// none empty; `None` if its brackets do not pair.
fn flow_entries(inner: &str) -> Option<Vec<&str>> {
    let inner = inner.trim_matches(' ');
    if inner.is_empty() {
        return Some(Vec::new());
    }
    let mut entries = Vec::new();
    let (mut open, mut from) = (0usize, 0);
    for (at, byte) in inner.bytes().enumerate() {
        match byte {
            b'{' | b'[' => open += 1,
            b'}' | b']' => open = open.checked_sub(1)?,
            b',' if open == 0 => {
                entries.push(inner[from..at].trim_matches(' '));
                from = at + 1;
            }
            _ => {}
        }
    }
    entries.push(inner[from..].trim_matches(' '));
    (open == 0 && !entries.iter().any(|entry| entry.is_empty())).then_some(entries)
}

/// A scalar inside a flow collection: a `:` there is left to the general reader.
fn flow_scalar(text: &str) -> Option<Value> {
    if text.contains(':') && !text.starts_with(['"', '\'']) {
        return None;
    }
    scalar(text)
}

/// A scalar settled by the shared rules, or quoted with nothing to unescape.
fn scalar(text: &str) -> Option<Value> {
    match text {
        "null" | "~" => return Some(Value::Null),
        "true" => return Some(Value::Bool(true)),
        "false" => return Some(Value::Bool(false)),
        _ => {}
    }
    if let Some(inner) = text.strip_prefix('"') {
        let inner = inner.strip_suffix('"')?;
        return (!inner.contains(['"', '\\'])).then(|| Value::String(inner.to_string()));
    }
    if let Some(inner) = text.strip_prefix('\'') {
        let inner = inner.strip_suffix('\'')?;
        return (!inner.contains('\'')).then(|| Value::String(inner.to_string()));
    }
    if let Some(number) = integer(text) {
        return Some(Value::Number(number));
    }
    (is_plain_word(text, Position::Value) || is_string_led_by_a_digit(text))
        .then(|| Value::String(text.to_string()))
}

/// A plain word led by a digit that Go's reader (go-yaml v2 through sigs.k8s.io/yaml) reads as
/// the string it is, as platform repositories and rendered charts write them unquoted: a dotted
/// version or an IP (`3.10.6`, `10.0.0.1`), a time (`02:30`: v2 has no base-60 numbers), a
/// digit-first ID or digest (`1a2b3c`, `0f57a0…`), a range (`12-34`), a timestamp
/// (`2026-11-02T00:21:00Z`: v2 resolves it, then hands an untyped value the text it read), a
/// cron schedule (`30 2 * * 1-5`). v2 resolves a digit-led word to a number only if, its
/// underscores dropped, `strconv` parses it as an integer (`0755`, `0x1f`, `0o17`) or it is a
/// float by v2's own pattern (`1e5`, `1.`, `08`), or it is `0b` and binary digits: whatever
/// [`may_read_as_a_number`] cannot rule out is left to the general reader. A word holding `: `
/// is no plain scalar here, and one ending in `:` a key. testdata/references/go-yaml/reading.jsonl
/// records Go's reading of each kind.
fn is_string_led_by_a_digit(text: &str) -> bool {
    let bytes = text.as_bytes();
    let allowed = |byte: &u8| byte.is_ascii_alphanumeric() || b".-_:/+* ".contains(byte);
    bytes.first().is_some_and(u8::is_ascii_digit)
        && bytes.iter().all(allowed)
        && bytes.last() != Some(&b':')
        && !bytes.windows(2).any(|pair| pair == b": ")
        && !may_read_as_a_number(bytes)
}

/// Whether go-yaml v2's `resolve` might make a number of a digit-led plain word: with its
/// underscores dropped (as v2 drops them), a radix prefix (`0x`, `0o`, `0b` in either case:
/// integers, and Go's hex floats, which v2's float pattern does not take but which are left to
/// the general reader all the same) with something after it, or digits with at most one `.` and an exponent (v2's
/// `yamlStyleFloat`, which also covers every decimal integer and `strconv`'s octal `0755`).
fn may_read_as_a_number(bytes: &[u8]) -> bool {
    let mut plain = bytes
        .iter()
        .copied()
        .filter(|&byte| byte != b'_')
        .peekable();
    if plain.next_if_eq(&b'0').is_some()
        && plain
            .next_if(|byte| matches!(byte, b'x' | b'X' | b'o' | b'O' | b'b' | b'B'))
            .is_some()
    {
        // A prefix alone (`0x`) parses as nothing.
        return plain.peek().is_some();
    }
    // What is left of `[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?` once a leading `0` may be gone.
    while plain.next_if(u8::is_ascii_digit).is_some() {}
    if plain.next_if_eq(&b'.').is_some() {
        while plain.next_if(u8::is_ascii_digit).is_some() {}
    }
    if plain.next_if(|byte| matches!(byte, b'e' | b'E')).is_some() {
        plain.next_if(|byte| matches!(byte, b'-' | b'+'));
        if plain.next_if(u8::is_ascii_digit).is_none() {
            return false;
        }
        while plain.next_if(u8::is_ascii_digit).is_some() {}
    }
    plain.next().is_none()
}

/// A decimal integer with no leading zero (`0755` is octal to YAML 1.1) and no `+`.
fn integer(text: &str) -> Option<Number> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty()
        || text == "-0"
        || digits.len() > 18
        || !digits.bytes().all(|byte| byte.is_ascii_digit())
        || digits.len() > 1 && digits.starts_with('0')
    {
        return None;
    }
    text.parse::<i64>().ok().map(Number::from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::random::Random;

    /// Every printable ASCII byte and the line feed are characters this reader keeps; every
    /// other ASCII byte is one it leaves: the byte test before decoding decides as the
    /// character test would.
    #[test]
    fn printable_ascii_is_what_this_reader_keeps_of_ascii() {
        for byte in 0u8..0x80 {
            let kept = matches!(byte, b' '..=b'~') || byte == b'\n';
            assert_eq!(
                !left_to_general_reader(char::from(byte)),
                kept,
                "{byte:#04x}"
            );
        }
    }

    /// The value the general reader gives `text`, as it reads a fleet's document (Go's
    /// reading, see `yaml::load`).
    fn by_general_reader(text: &str) -> Option<Value> {
        super::super::load_text(text, super::super::TEMPLATE_READING, None).ok()
    }

    /// Whenever this reader takes a document, the general reader reads it too, to the same value;
    /// returns whether it took it.
    fn agrees(text: &str) -> bool {
        match simple_document(text) {
            Some(value) => {
                assert_eq!(Some(&value), by_general_reader(text).as_ref(), "{text}");
                true
            }
            None => false,
        }
    }

    #[test]
    fn a_manifest_in_block_style_reads_as_serde_saphyr_reads_it() {
        let text = "---\n# a comment\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  \
            name: web\n  labels: {app: web, tier: 'front end'}\nspec:\n  replicas: 3\n  \
            paused: false\n  strategy:\n    rollingUpdate: {maxSurge: 25%, maxUnavailable: 0}\n  \
            template:\n    spec:\n      containers:\n      - name: c0\n        image: \
            registry.example.com/web:v1.2.3\n        args: [--port, \"8080\"]\n        env:\n        \
            - name: MODE\n          value: \"on\"\n        - {name: EMPTY}\n        resources:\n          \
            requests: {cpu: 250m, memory: 1024Mi}\n          limits: {}\n        ports:\n          \
            - containerPort: 8080\n            protocol: TCP\n      tolerations: []\n      \
            nodeSelector:\n      extra: ~\n";
        assert!(agrees(text));
        assert_eq!(simple_document(text).unwrap()["spec"]["replicas"], 3);
    }

    /// Literal block scalars as ConfigMaps carry files: the general reader (Go's reading)
    /// gives each the same text — lines without the block's indentation, a `#` line kept,
    /// blank lines inside kept and at the end dropped, the last line break by the chomping.
    #[test]
    fn literal_block_scalars_read_as_the_general_reader_reads_them() {
        for text in [
            "data:\n  app.yaml: |\n    server:\n      port: 8080\n    # a comment\n\n    name: x\n  b: c\n",
            "data:\n  script: |-\n    #!/bin/sh\n    echo \"a: b\" # c\n\n\nkind: ConfigMap\n",
            "a: |\n  x\n  \n   y\nb: 1\n",
            "items:\n- name: a\n  text: |\n    one\n    two\n- text: |-\n    three\n",
            "a: |\n  ends here\n",
            "a: |-\n  ends here",
        ] {
            assert!(agrees(text), "{text:?}");
        }
        let value = simple_document("a: |\n  x\n\n  y\n\n\nb: |-\n  z\n").unwrap();
        assert_eq!(value["a"], "x\n\ny\n");
        assert_eq!(value["b"], "z");
    }

    /// Plain words led by a digit that Go reads as strings (go-yaml/reading.jsonl, "plain
    /// words led by a digit" and "words of rendered charts led by a digit"): this reader takes
    /// them, to Go's value; what could be a number in the same document (`1e5`, `0x1f`,
    /// `1_000`) it leaves to the general reader, and a timestamp it reads to Go's string.
    #[test]
    fn words_led_by_a_digit_read_as_go_reads_them() {
        let (text, go) = crate::yaml::tests::go_reading("plain words led by a digit");
        assert_eq!(simple_document(&text), Some(go.clone()), "{text}");
        assert!(agrees(&text));
        let (text, go) = crate::yaml::tests::go_reading("words of rendered charts led by a digit");
        assert_eq!(simple_document(&text), Some(go.clone()), "{text}");
        assert!(agrees(&text));
        // v2 drops underscores before it parses a number (`0_x1f` is 31): whatever may then be
        // one is left to the general reader, which reads it to Go's value.
        let (text, go) =
            crate::yaml::tests::go_reading("digit-led words with underscores or a radix");
        assert_eq!(by_general_reader(&text), Some(go.clone()));
        for each in text.lines() {
            let key = each.split(':').next().unwrap();
            if let Some(value) = simple_document(each) {
                assert_eq!(value[key], go[key], "{each}");
            }
            assert_eq!(by_general_reader(each).unwrap()[key], go[key], "{each}");
        }
        let (text, go) = crate::yaml::tests::go_reading("numbers and times led by a digit");
        assert_eq!(simple_document(&text), None, "{text}");
        assert_eq!(by_general_reader(&text), Some(go.clone()));
        // One at a time, each is left to the general reader, or read to Go's number.
        for each in text.lines() {
            let key = each.split(':').next().unwrap();
            if let Some(value) = simple_document(each) {
                assert_eq!(value[key], go[key], "{each}");
                assert!(
                    value[key].is_number() || key == "n8" || key == "n9",
                    "{each}"
                );
            }
        }
    }

    /// Flow collections nested on one line, as policies and Ingresses write them: read to the
    /// general reader's (Go's) values.
    #[test]
    fn nested_flow_collections_read_as_the_general_reader_reads_them() {
        for text in [
            "a: {b: {c: d}}\n",
            "a: [b, [c]]\n",
            "service: {name: web, port: {number: 80}}\n",
            "- {key: region, operator: In, values: [eu-west, us-east]}\n",
            "- targetCluster: {labelSelector: {matchExpressions: [{key: r, operator: NotIn, values: [a, b]}]}}\n  weight: 1\n",
            "a: {b: [], c: {}, d: [ ], e: [1, -2, true, null, ~]}\n",
            "a: [[[[[[[[x]]]]]]]]\n",
            "a: {b: [{c: 1}, {c: 2}], d: x y}\n",
        ] {
            assert!(agrees(text), "{text:?}");
        }
        assert_eq!(
            simple_document("s: {name: web, port: {number: 80}}\n").unwrap()["s"]["port"]["number"],
            80
        );
    }

    /// What this reader leaves to the general reader, valid YAML or not.
    #[test]
    fn anything_else_is_left_to_serde_saphyr() {
        for text in [
            "a: 1\na: 2\n",
            "a: yes\n",
            "a: 0755\n",
            "a: 1.5\n",
            "a: b # note\n",
            "a: |+\n  text\n",
            "a: >\n  text\n",
            "a: |2\n  text\n",
            "a: | # note\n  text\n",
            "a: |\n    x\n  y\n",
            "a: |\n      \n    x\n",
            "a: |\n  x\n     \n",
            "a: |\nb: c\n",
            "a: |\n  x",
            "a: b: |\n  x\n",
            "a: &x 1\nb: *x\n",
            "a: !!str 1\n",
            "a: first\n  second\n",
            "a:\tb\n",
            "'a': b\n",
            "a: [b,]\n",
            "a: {b: {c: 'd, e'}}\n",
            "a: [b, [c, \"]\"]]\n",
            "a: [[[[[[[[[x]]]]]]]]]\n",
            "a: [b, [c]\n",
            "a: [b], [c]]\n",
            "a: {b: [c: d]}\n",
            "a: \"b\\n\"\n",
            "a: 'it''s'\n",
            "- a\nb: c\n",
            "a: b\n- c\n",
            "--- a\n",
            "%YAML 1.2\n---\na: b\n",
            "a:\n    b: c\n  d: e\n",
            "on: b\n",
            "a: -0\n",
            "a: +1\n",
            "a: \"b\u{1}\"\n",
            "a: 'b\u{2028}c'\n",
        ] {
            assert!(simple_document(text).is_none(), "{text:?}");
        }
    }

    /// Each character in the places this reader takes text from (quoted values, a flow item, a
    /// comment) and in a block scalar, which it leaves to the general reader: every document it
    /// takes, the general reader reads to the same value, and a fleet's document is accepted
    /// exactly when the general reader accepts it. The characters run over the ranges where
    /// YAML's printable set has an edge (C0 and C1 controls, NEL, surrogates, the non-characters U+FDD0..U+FDEF,
    /// U+FFFE and U+FFFF, and the last planes).
    #[test]
    fn characters_yaml_refuses_are_refused_whichever_reader_reads_them() {
        let ranges = [
            0..0x3000,
            0xD700..0xD800,
            0xE000..0xE100,
            0xFDC0..0xFDF0,
            0xFEF0..0x1_0100,
            0x1_FFF0..0x2_0000,
            0x10_FF00..0x11_0000,
        ];
        let mut refused = Vec::new();
        for c in ranges.into_iter().flatten().filter_map(char::from_u32) {
            for text in [
                format!("a: \"x{c}y\"\n"),
                format!("a: 'x{c}y'\n"),
                format!("a: [\"x{c}\", b]\n"),
                format!("# x{c}y\na: b\n"),
                format!("a: |\n  x{c}y\n"),
            ] {
                let expected = by_general_reader(&text);
                if let Some(value) = simple_document(&text) {
                    assert_eq!(Some(&value), expected.as_ref(), "{text:?}");
                }
                let documents = super::super::split_documents(&text);
                let accepted = documents
                    .iter()
                    .all(|document| super::super::parse_document(document, "c.yaml").is_ok());
                assert_eq!(accepted, expected.is_some(), "{text:?}");
                if !accepted && c == '\u{fffe}' {
                    refused.push(text);
                }
            }
        }
        assert_eq!(
            refused.len(),
            5,
            "U+FFFE is refused everywhere: {refused:?}"
        );
    }

    /// Every YAML document in the repository's examples and test fleets: each one this reader
    /// takes, the general reader reads to the same value.
    #[test]
    fn the_repository_fleets_read_as_serde_saphyr_reads_them() {
        let (mut documents, mut taken) = (0, 0);
        for (_, text) in super::super::repository_fleets::yaml_files() {
            for document in super::super::split_documents(&text) {
                documents += 1;
                taken += usize::from(agrees(document.text));
            }
        }
        assert!(taken * 2 > documents, "{taken} of {documents} taken");
    }

    impl Random {
        fn word(&mut self) -> String {
            const PIECES: &[&str] = &[
                "a", "Z", "0", "7", "-", "--", ".", "/", ":", " ", "_", "%", "on", "No", "y",
                "null", "true", "~", "inf", "web", "v1.2", "e3", "Mi", "0x", "=", "+", ",", "@",
                "'", "\"", "\\", "#", "{", "}", "[", "]", "&", "*", "!", "|", ">", "?", "é",
            ];
            const NAMES: &[&str] = &["a", "Z", "0", "7", "-", ".", "/", "_", "web", "v1.2", "Mi"];
            let pieces = if self.below(2) == 0 { NAMES } else { PIECES };
            let mut word: String = (0..self.below(4)).map(|_| self.pick(pieces)).collect();
            if self.below(2) == 0 {
                word.insert_str(0, "name");
            }
            word
        }

        /// A scalar as a manifest might spell it: bare, quoted, or a number.
        fn scalar(&mut self) -> String {
            let word = self.word();
            match self.below(6) {
                0 => format!("\"{word}\""),
                1 => format!("'{word}'"),
                2 => (self.below(20_000) as i64 - 10_000).to_string(),
                _ => word,
            }
        }

        /// ` |` or ` |-` and a literal block's lines at `indent`: words, blank lines (some
        /// with spaces), deeper lines, comment-like lines.
        fn literal(&mut self, indent: usize) -> String {
            let mut out = String::from(if self.below(2) == 0 { " |\n" } else { " |-\n" });
            for _ in 0..1 + self.below(4) {
                match self.below(6) {
                    0 => out.push('\n'),
                    1 => {
                        let spaces = self.below(indent + 2);
                        out.push_str(&format!("{}\n", " ".repeat(spaces)));
                    }
                    2 => out.push_str(&format!("{}# {}\n", " ".repeat(indent), self.word())),
                    3 => out.push_str(&format!("{}  {}\n", " ".repeat(indent), self.word())),
                    _ => out.push_str(&format!("{}{}\n", " ".repeat(indent), self.word())),
                }
            }
            out
        }

        /// A flow mapping or sequence of scalars.
        fn flow(&mut self) -> String {
            self.flow_at(0)
        }

        /// A flow collection `depth` deep, its entries scalars or (now and then, up to ten
        /// deep, past what the reader takes) flow collections.
        fn flow_at(&mut self, depth: usize) -> String {
            let count = self.below(4);
            let entry = |this: &mut Self| {
                if depth < 10 && this.below(4) == 0 {
                    this.flow_at(depth + 1)
                } else {
                    this.scalar()
                }
            };
            if self.below(2) == 0 {
                let items: Vec<String> = (0..count).map(|_| entry(self)).collect();
                format!("[{}]", items.join(", "))
            } else {
                let entries: Vec<String> = (0..count)
                    .map(|_| {
                        let key = self.word();
                        format!("{key}: {}", entry(self))
                    })
                    .collect();
                format!("{{{}}}", entries.join(", "))
            }
        }

        /// A block node's lines at `indent`, following a key or a dash.
        fn block(&mut self, out: &mut String, indent: usize, depth: usize) {
            let pad = " ".repeat(indent);
            let count = 1 + self.below(3);
            let sequence = self.below(3) == 0;
            for _ in 0..count {
                if self.below(8) == 0 {
                    out.push_str(&format!("{pad}# note: {}\n", self.word()));
                }
                if sequence {
                    out.push_str(&format!("{pad}- "));
                } else {
                    out.push_str(&format!("{pad}{}:", self.word()));
                }
                match self.below(if depth == 0 { 3 } else { 5 }) {
                    0 if !sequence && self.below(2) == 0 => {
                        let deeper = indent + 1 + self.below(3);
                        let literal = self.literal(deeper);
                        out.push_str(&literal);
                    }
                    0 | 1 => {
                        if !sequence {
                            out.push(' ');
                        }
                        let value = self.scalar();
                        out.push_str(&value);
                        out.push('\n');
                    }
                    2 => {
                        if !sequence {
                            out.push(' ');
                        }
                        let value = self.flow();
                        out.push_str(&value);
                        out.push('\n');
                    }
                    _ if sequence => {
                        // The item's mapping starts on the dash's line.
                        let mut inner = String::new();
                        self.block(&mut inner, indent + 2, depth - 1);
                        out.push_str(inner.trim_start_matches(' '));
                    }
                    _ => {
                        out.push('\n');
                        // Sequences under a key sometimes start at the key's column.
                        let deeper = indent + 2 * self.below(2);
                        self.block(out, deeper, depth - 1);
                    }
                }
            }
        }
    }

    /// Random documents in the block style, and the same documents with one character
    /// changed: a document this reader takes always reads as the general reader reads it.
    #[test]
    fn random_documents_and_their_mutants_read_as_serde_saphyr_reads_them() {
        let mut random = Random(0x9e37_79b9_7f4a_7c15);
        let (mut taken, mut literals_taken) = (0, 0);
        const CHANGES: &[&str] = &[
            "#", ":", " ", "-", "\t", "\"", "'", "\n", "  ", ",", "{", "[",
        ];
        for _ in 0..10_000 {
            let mut text = String::new();
            if random.below(3) == 0 {
                text.push_str("---\n");
            }
            random.block(&mut text, 0, 3);
            let took = agrees(&text);
            taken += usize::from(took);
            literals_taken += usize::from(took && text.contains(" |"));
            for _ in 0..4 {
                let mut mutant = text.clone();
                let mut at = random.below(mutant.len() + 1);
                while !mutant.is_char_boundary(at) {
                    at -= 1;
                }
                if random.below(3) == 0 {
                    let end = mutant[at..]
                        .chars()
                        .next()
                        .map_or(at, |c| at + c.len_utf8());
                    mutant.replace_range(at..end, "");
                } else {
                    mutant.insert_str(at, random.pick(CHANGES));
                }
                agrees(&mutant);
            }
        }
        assert!(taken > 1_000, "only {taken} of 10000 taken");
        assert!(
            literals_taken > 100,
            "only {literals_taken} with a literal block taken"
        );
    }
}
