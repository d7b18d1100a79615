//! go-yaml v2 `Marshal` (go.yaml.in/yaml/v2, the copy sigs.k8s.io/yaml `JSONToYAML` uses) for
//! JSON values, byte for byte.
//!
//! Karmada's fieldOverrider turns a patched document back into YAML with `JSONToYAML`: the JSON
//! is read with go-yaml into `interface{}` (objects become maps, integral numbers `int`, other
//! numbers `float64`) and written with `Marshal`. This module reproduces that writer: the
//! encoder's choice of scalar style (encode.go), the plain-scalar resolution that decides when
//! a string must be quoted (resolve.go), the emitter's analysis of each scalar, its quoting,
//! escaping and folding at 80 columns, its literal blocks and its indentation
//! (emitterc.go, the libyaml emitter), and the key order (sorter.go).
//!
//! The emitter keeps the same state as libyaml's — column, indentation stack, and the
//! `whitespace` / `indention` flags — because the exact bytes (where a line breaks, whether a
//! space precedes an indicator) follow from them.

use super::go_key_order::{key_less, sort_by_less};
use serde_json::{Map, Number, Value};

/// libyaml `best_indent`: go-yaml v2 never changes it.
const BEST_INDENT: usize = 2;
/// libyaml `best_width`: go-yaml v2 leaves it at 0, which the emitter turns into 80 (long
/// lines are folded unless `yaml.FutureLineWrap()` was called, which Karmada never does).
const BEST_WIDTH: usize = 80;
/// libyaml `yaml_emitter_check_simple_key`: a longer key is written as `? key`.
const MAX_SIMPLE_KEY_BYTES: usize = 128;

/// go-yaml v2 `Marshal` of the value as `JSONToYAML` sees it: one implicit document (no `---`),
/// block style, 2-space indentation, sequences level with their mapping key, keys sorted, `{}`
/// and `[]` for empty collections, and a final line break.
pub(crate) fn marshal(value: &Value) -> String {
    let mut emitter = Emitter {
        out: String::new(),
        column: 0,
        whitespace: true,
        indention: true,
        indent: None,
        indents: Vec::new(),
    };
    emitter.node(value, Context::default());
    // DOCUMENT-END: implicit, so only the line break.
    emitter.write_indent();
    emitter.out
}

// ---------------------------------------------------------------------------------------------
// Encoder (encode.go): which scalar style each value asks for.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Style {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Literal,
}

/// encode.go `stringv`: a string with a line feed asks for a literal block; one that would read
/// back as something else (bool, int, float, null, timestamp, base-60 number) is double-quoted;
/// anything else asks for plain style, which the emitter may still turn into a quoted style.
fn string_style(text: &str) -> Style {
    if text.contains('\n') {
        Style::Literal
    } else if resolves_to_non_string(text) || is_base60_float(text) {
        Style::DoubleQuoted
    } else {
        Style::Plain
    }
}

/// encode.go `intv` / `uintv` / `floatv`.
fn number_text(number: &Number) -> String {
    match number.as_f64() {
        Some(float) if number.is_f64() => go_format_float(float),
        _ => number.to_string(),
    }
}

/// Go `strconv.FormatFloat(f, 'g', -1, 64)` with go-yaml's names for the specials: the
/// shortest digits that read back as `f`, in exponent form (`1e+06`, `1.5e-07`) when the
/// decimal exponent is below -4 or at least 6, else in positional form.
fn go_format_float(float: f64) -> String {
    yaml_special(float).unwrap_or_else(|| crate::go_float::shortest(float))
}

/// go-yaml's names for the floats that are not numbers.
fn yaml_special(float: f64) -> Option<String> {
    if float.is_nan() {
        Some(".nan".to_string())
    } else if float.is_infinite() {
        Some(if float > 0.0 { ".inf" } else { "-.inf" }.to_string())
    } else {
        None
    }
}

// ---------------------------------------------------------------------------------------------
// Resolution of plain scalars (resolve.go, go-yaml v2 = YAML 1.1 flavoured).

/// The plain scalars resolve.go looks up in its table (booleans, nulls, special floats and the
/// merge key). `<<` can never match: its first character has no resolve hint.
const RESOLVE_TABLE: &[&str] = &[
    "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON", "n", "N", "no", "No",
    "NO", "false", "False", "FALSE", "off", "Off", "OFF", "", "~", "null", "Null", "NULL", ".nan",
    ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF",
    "<<",
];

/// resolve.go `resolve("", s)` returns a tag other than `!!str`: the first byte gives a hint,
/// then the table, timestamps, integers (Go `ParseInt`/`ParseUint` base 0 after dropping every
/// `_`: `0x`, `0o`, `0b`, a leading `0` for octal), floats (a YAML-style float that Go's
/// `ParseFloat` reads without overflow) and the `0b`/`-0b` fallbacks.
fn resolves_to_non_string(text: &str) -> bool {
    let Some(&first) = text.as_bytes().first() else {
        return true; // "" is null
    };
    match first {
        b'y' | b'Y' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'o' | b'O' | b'~' => {
            RESOLVE_TABLE.contains(&text)
        }
        b'.' => RESOLVE_TABLE.contains(&text) || go_parse_decimal_float(text).is_some(),
        b'+' | b'-' | b'0'..=b'9' => {
            if RESOLVE_TABLE.contains(&text) || is_timestamp(text) {
                return true;
            }
            let plain = text.replace('_', "");
            if go_parse_int(&plain, 0).is_some() || go_parse_uint(&plain, 0).is_some() {
                return true;
            }
            if is_yaml_style_float(plain.as_bytes())
                && plain.parse::<f64>().is_ok_and(f64::is_finite)
            {
                return true;
            }
            if let Some(binary) = plain.strip_prefix("0b") {
                go_parse_int(binary, 2).is_some() || go_parse_uint(binary, 2).is_some()
            } else if let Some(binary) = plain.strip_prefix("-0b") {
                go_parse_int(&format!("-{binary}"), 2).is_some()
            } else {
                false
            }
        }
        _ => false,
    }
}

/// Go `strconv.ParseUint(s, base, 64)` succeeds (base 0 reads the prefix; no sign allowed).
/// The callers never pass an underscore.
fn go_parse_uint(text: &str, base: u32) -> Option<u64> {
    let bytes = text.as_bytes();
    if bytes.is_empty() {
        return None;
    }
    let (base, digits) = if base == 0 {
        if bytes[0] == b'0' {
            let prefix = bytes.get(1).map(|c| c | 0x20);
            match prefix {
                Some(b'b') if bytes.len() >= 3 => (2, &bytes[2..]),
                Some(b'o') if bytes.len() >= 3 => (8, &bytes[2..]),
                Some(b'x') if bytes.len() >= 3 => (16, &bytes[2..]),
                _ => (8, &bytes[1..]),
            }
        } else {
            (10, bytes)
        }
    } else {
        (base, bytes)
    };
    let mut value: u64 = 0;
    for &c in digits {
        let digit = char::from(c).to_digit(36)?;
        if digit >= base {
            return None;
        }
        value = value
            .checked_mul(u64::from(base))?
            .checked_add(u64::from(digit))?;
    }
    Some(value)
}

/// Go `strconv.ParseInt(s, base, 64)` succeeds: one optional sign, then `ParseUint`, in range.
fn go_parse_int(text: &str, base: u32) -> Option<i64> {
    let (negative, magnitude) = match text.as_bytes().first() {
        Some(b'+') => (false, &text[1..]),
        Some(b'-') => (true, &text[1..]),
        _ => (false, text),
    };
    let magnitude = go_parse_uint(magnitude, base)?;
    if negative {
        0i64.checked_sub_unsigned(magnitude)
    } else {
        i64::try_from(magnitude).ok()
    }
}

/// resolve.go `yamlStyleFloat`: `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`.
fn is_yaml_style_float(bytes: &[u8]) -> bool {
    let digits_from = |mut i: usize| {
        while bytes.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        i
    };
    let mut i = usize::from(matches!(bytes.first(), Some(b'+' | b'-')));
    if bytes.get(i) == Some(&b'.') {
        let end = digits_from(i + 1);
        if end == i + 1 {
            return false;
        }
        i = end;
    } else {
        let end = digits_from(i);
        if end == i {
            return false;
        }
        i = end;
        if bytes.get(i) == Some(&b'.') {
            i = digits_from(i + 1);
        }
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(bytes.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let end = digits_from(i);
        if end == i {
            return false;
        }
        i = end;
    }
    i == bytes.len()
}

/// Go `strconv.ParseFloat(s, 64)` on a decimal number (resolve.go only calls it on scalars
/// starting with `.`): digits with at most one point, an optional exponent, underscores only
/// between digits, the whole string consumed, and no overflow to infinity.
fn go_parse_decimal_float(text: &str) -> Option<f64> {
    let bytes = text.as_bytes();
    let mut i = usize::from(matches!(bytes.first(), Some(b'+' | b'-')));
    let (mut underscores, mut saw_point, mut saw_digits) = (false, false, false);
    while let Some(&c) = bytes.get(i) {
        match c {
            b'_' => underscores = true,
            b'.' if !saw_point => saw_point = true,
            b'0'..=b'9' => saw_digits = true,
            _ => break,
        }
        i += 1;
    }
    if !saw_digits {
        return None;
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(bytes.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if !bytes.get(i).is_some_and(u8::is_ascii_digit) {
            return None;
        }
        while let Some(&c) = bytes.get(i) {
            match c {
                b'_' => underscores = true,
                b'0'..=b'9' => {}
                _ => break,
            }
            i += 1;
        }
    }
    if i != bytes.len() || (underscores && !go_underscores_ok(text)) {
        return None;
    }
    text.replace('_', "")
        .parse::<f64>()
        .ok()
        .filter(|value| value.is_finite())
}

/// Go strconv `underscoreOK`: every `_` sits between digits (or after a base prefix).
fn go_underscores_ok(text: &str) -> bool {
    let mut bytes = text.as_bytes();
    if let Some(b'+' | b'-') = bytes.first() {
        bytes = &bytes[1..];
    }
    let mut hex = false;
    // The last class seen: '^' start, '0' digit or prefix, '_' underscore, '!' other.
    let mut saw = b'^';
    if bytes.len() >= 2 && bytes[0] == b'0' && matches!(bytes[1] | 0x20, b'b' | b'o' | b'x') {
        hex = bytes[1] | 0x20 == b'x';
        saw = b'0';
        bytes = &bytes[2..];
    }
    for &c in bytes {
        if c.is_ascii_digit() || (hex && (c | 0x20).is_ascii_hexdigit()) {
            saw = b'0';
        } else if c == b'_' {
            if saw != b'0' {
                return false;
            }
            saw = b'_';
        } else if saw == b'_' {
            return false;
        } else {
            saw = b'!';
        }
    }
    saw != b'_'
}

/// encode.go `isBase60Float`: `^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$` (`1:20`,
/// `12:30:45`), quoted for the sake of YAML 1.1 readers.
fn is_base60_float(text: &str) -> bool {
    let bytes = text.as_bytes();
    let digit_or_underscore = |c: &u8| c.is_ascii_digit() || *c == b'_';
    let mut i = usize::from(matches!(bytes.first(), Some(b'+' | b'-')));
    if !bytes.get(i).is_some_and(u8::is_ascii_digit) {
        return false;
    }
    i += 1;
    while bytes.get(i).is_some_and(digit_or_underscore) {
        i += 1;
    }
    let mut groups = 0;
    while bytes.get(i) == Some(&b':') {
        let start = i + 1;
        i = start;
        while bytes.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        match &bytes[start..i] {
            [_] => {}
            [tens, _] if *tens <= b'5' => {}
            _ => return false,
        }
        groups += 1;
    }
    if groups == 0 {
        return false;
    }
    if bytes.get(i) == Some(&b'.') {
        i += 1;
        while bytes.get(i).is_some_and(digit_or_underscore) {
            i += 1;
        }
    }
    i == bytes.len()
}

/// resolve.go `parseTimestamp`: four digits and a `-`, then Go `time.Parse` with one of
/// `2006-1-2T15:4:5.999999999Z07:00`, the same with `t`, `2006-1-2 15:4:5.999999999` or
/// `2006-1-2`.
fn is_timestamp(text: &str) -> bool {
    let bytes = text.as_bytes();
    let leading_digits = bytes.iter().take_while(|c| c.is_ascii_digit()).count();
    if leading_digits != 4 || bytes.get(4) != Some(&b'-') {
        return false;
    }
    [
        TimeLayout::Separator(b'T'),
        TimeLayout::Separator(b't'),
        TimeLayout::Space,
        TimeLayout::DateOnly,
    ]
    .into_iter()
    .any(|layout| parses_as_time(bytes, layout).is_some())
}

#[derive(Clone, Copy)]
enum TimeLayout {
    /// `2006-1-2<c>15:4:5.999999999Z07:00`
    Separator(u8),
    /// `2006-1-2 15:4:5.999999999`
    Space,
    /// `2006-1-2`
    DateOnly,
}

/// Go `time.Parse` for the layouts above on `bytes`, which starts with `YYYY-`.
fn parses_as_time(bytes: &[u8], layout: TimeLayout) -> Option<()> {
    let year: u32 = std::str::from_utf8(&bytes[..4]).ok()?.parse().ok()?;
    let (month, rest) = go_time_number(&bytes[5..])?;
    if !(1..=12).contains(&month) {
        return None;
    }
    let rest = rest.strip_prefix(b"-")?;
    let (day, mut rest) = go_time_number(rest)?;
    match layout {
        TimeLayout::DateOnly => {}
        TimeLayout::Space => {
            // A space in a Go layout matches any run of spaces.
            if rest.first().is_some_and(|&c| c != b' ') {
                return None;
            }
            while let [b' ', tail @ ..] = rest {
                rest = tail;
            }
            rest = go_time_clock(rest)?;
        }
        TimeLayout::Separator(separator) => {
            rest = go_time_clock(rest.strip_prefix(&[separator])?)?;
            rest = go_time_zone(rest)?;
        }
    }
    let leap = year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400));
    let days_in_month = match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    (rest.is_empty() && (1..=days_in_month).contains(&day)).then_some(())
}

/// Go time `getnum(s, false)`: one or two digits.
fn go_time_number(bytes: &[u8]) -> Option<(u32, &[u8])> {
    match bytes {
        [tens @ b'0'..=b'9', units @ b'0'..=b'9', rest @ ..] => {
            Some((u32::from(tens - b'0') * 10 + u32::from(units - b'0'), rest))
        }
        [units @ b'0'..=b'9', rest @ ..] => Some((u32::from(units - b'0'), rest)),
        _ => None,
    }
}

/// `15:4:5.999999999`: hour below 24, minute and second below 60, then an optional fraction
/// (`.` or `,` and any number of digits).
fn go_time_clock(bytes: &[u8]) -> Option<&[u8]> {
    let (hour, rest) = go_time_number(bytes)?;
    let (minute, rest) = go_time_number(rest.strip_prefix(b":")?)?;
    let (second, mut rest) = go_time_number(rest.strip_prefix(b":")?)?;
    if hour >= 24 || minute >= 60 || second >= 60 {
        return None;
    }
    if let [b'.' | b',', b'0'..=b'9', ..] = rest {
        rest = &rest[1..];
        while let [b'0'..=b'9', tail @ ..] = rest {
            rest = tail;
        }
    }
    Some(rest)
}

/// `Z07:00`: `Z`, or a sign, two hour digits (at most 24), `:` and two minute digits (at most
/// 60).
fn go_time_zone(bytes: &[u8]) -> Option<&[u8]> {
    if let Some(rest) = bytes.strip_prefix(b"Z") {
        return Some(rest);
    }
    match bytes {
        [b'+' | b'-', h1, h2, b':', m1, m2, rest @ ..]
            if [h1, h2, m1, m2].iter().all(|c| c.is_ascii_digit()) =>
        {
            let hours = (h1 - b'0') * 10 + (h2 - b'0');
            let minutes = (m1 - b'0') * 10 + (m2 - b'0');
            (hours <= 24 && minutes <= 60).then_some(rest)
        }
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------------
// Scalar analysis (emitterc.go `yaml_emitter_analyze_scalar`), block context only: go-yaml
// writes JSON values in block style, and the only flow collections are the empty `{}`/`[]`.

struct Analysis {
    multiline: bool,
    block_plain_allowed: bool,
    single_quoted_allowed: bool,
    block_allowed: bool,
}

fn analyze(text: &str) -> Analysis {
    if text.is_empty() {
        return Analysis {
            multiline: false,
            block_plain_allowed: true,
            single_quoted_allowed: true,
            block_allowed: false,
        };
    }
    let chars: Vec<char> = text.chars().collect();
    let last = chars.len() - 1;
    let mut block_indicators = text.starts_with("---") || text.starts_with("...");
    let mut line_breaks = false;
    let mut special_characters = false;
    let (mut leading_space, mut leading_break) = (false, false);
    let (mut trailing_space, mut trailing_break) = (false, false);
    let (mut break_space, mut space_break) = (false, false);
    let (mut previous_space, mut previous_break) = (false, false);
    let mut preceded_by_whitespace = true;
    for (i, &c) in chars.iter().enumerate() {
        let followed_by_whitespace = chars.get(i + 1).is_none_or(|&next| is_blank(next));
        if i == 0 {
            match c {
                '#' | ',' | '[' | ']' | '{' | '}' | '&' | '*' | '!' | '|' | '>' | '\'' | '"'
                | '%' | '@' | '`' => block_indicators = true,
                '?' | ':' | '-' if followed_by_whitespace => block_indicators = true,
                _ => {}
            }
        } else {
            match c {
                ':' if followed_by_whitespace => block_indicators = true,
                '#' if preceded_by_whitespace => block_indicators = true,
                _ => {}
            }
        }
        if !is_printable(c) {
            special_characters = true;
        }
        if c == ' ' {
            leading_space |= i == 0;
            trailing_space |= i == last;
            break_space |= previous_break;
            previous_space = true;
            previous_break = false;
        } else if is_break(c) {
            line_breaks = true;
            leading_break |= i == 0;
            trailing_break |= i == last;
            space_break |= previous_space;
            previous_space = false;
            previous_break = true;
        } else {
            previous_space = false;
            previous_break = false;
        }
        preceded_by_whitespace = is_blank(c) || is_break(c) || c == '\0';
    }
    let edge_whitespace = leading_space || leading_break || trailing_space || trailing_break;
    Analysis {
        multiline: line_breaks,
        block_plain_allowed: !(edge_whitespace
            || break_space
            || space_break
            || special_characters
            || line_breaks
            || block_indicators),
        single_quoted_allowed: !(break_space || space_break || special_characters),
        block_allowed: !(trailing_space || space_break || special_characters),
    }
}

/// libyaml `is_printable` with unicode output on: LF, printable ASCII, U+00A0–U+D7FF and
/// U+E000–U+FFFD but U+FEFF. Tabs, other controls and everything beyond the BMP (emoji) are not.
fn is_printable(c: char) -> bool {
    matches!(c, '\n' | ' '..='~' | '\u{a0}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}')
        && c != '\u{feff}'
}

/// libyaml `is_break`: CR, LF, NEL, LS, PS.
fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// emitterc.go `yaml_emitter_select_scalar_style` for an untagged scalar in block context.
fn select_style(requested: Style, analysis: &Analysis, empty: bool, simple_key: bool) -> Style {
    let mut style = requested;
    if simple_key && analysis.multiline {
        style = Style::DoubleQuoted;
    }
    if style == Style::Plain && (!analysis.block_plain_allowed || (empty && simple_key)) {
        style = Style::SingleQuoted;
    }
    if style == Style::SingleQuoted && !analysis.single_quoted_allowed {
        style = Style::DoubleQuoted;
    }
    if style == Style::Literal && (!analysis.block_allowed || simple_key) {
        style = Style::DoubleQuoted;
    }
    style
}

// ---------------------------------------------------------------------------------------------
// Emitter (emitterc.go).

/// Where a node sits: as a mapping key or value (`mapping`), and as a key written without `?`.
#[derive(Debug, Clone, Copy, Default)]
struct Context {
    mapping: bool,
    simple_key: bool,
}

struct Emitter {
    out: String,
    /// Characters (not bytes) since the last line break.
    column: usize,
    /// The last thing written was white space (so an indicator needs no space before it).
    whitespace: bool,
    /// Only indentation (and `-`/`?`/`:` indicators) written on this line so far.
    indention: bool,
    /// `None` before the root node (libyaml's -1).
    indent: Option<usize>,
    indents: Vec<Option<usize>>,
}

impl Emitter {
    fn node(&mut self, value: &Value, context: Context) {
        match value {
            Value::Null => self.scalar("null", Style::Plain, context),
            Value::Bool(flag) => {
                self.scalar(if *flag { "true" } else { "false" }, Style::Plain, context)
            }
            Value::Number(number) => self.scalar(&number_text(number), Style::Plain, context),
            Value::String(text) => self.scalar(text, string_style(text), context),
            Value::Array(list) if list.is_empty() => self.empty_flow_collection("[", "]"),
            Value::Object(map) if map.is_empty() => self.empty_flow_collection("{", "}"),
            Value::Array(list) => self.block_sequence(list, context),
            Value::Object(map) => self.block_mapping(map),
        }
    }

    /// libyaml writes an empty sequence or mapping in flow style whatever was asked.
    fn empty_flow_collection(&mut self, open: &str, close: &str) {
        self.write_indicator(open, true, true, false);
        self.write_indicator(close, false, false, false);
    }

    /// A block sequence that is a mapping value starts on the key's indentation (`key:\n- a`).
    fn block_sequence(&mut self, list: &[Value], context: Context) {
        self.increase_indent(false, context.mapping && !self.indention);
        for item in list {
            self.write_indent();
            self.write_indicator("-", true, false, true);
            self.node(item, Context::default());
        }
        self.restore_indent();
    }

    fn block_mapping(&mut self, map: &Map<String, Value>) {
        self.increase_indent(false, false);
        let mut entries: Vec<(&String, &Value)> = map.iter().collect();
        sort_by_less(&mut entries, &|a, b| key_less(a.0, b.0));
        for (key, value) in entries {
            self.write_indent();
            let analysis = analyze(key);
            if !analysis.multiline && key.len() <= MAX_SIMPLE_KEY_BYTES {
                let context = Context {
                    mapping: true,
                    simple_key: true,
                };
                self.scalar_with(key, string_style(key), &analysis, context);
                self.write_indicator(":", false, false, false);
            } else {
                // A complex key: `? key` on its own, `: value` on the next line.
                self.write_indicator("?", true, false, true);
                let context = Context {
                    mapping: true,
                    simple_key: false,
                };
                self.scalar_with(key, string_style(key), &analysis, context);
                self.write_indent();
                self.write_indicator(":", true, false, true);
            }
            let context = Context {
                mapping: true,
                simple_key: false,
            };
            self.node(value, context);
        }
        self.restore_indent();
    }

    fn scalar(&mut self, text: &str, requested: Style, context: Context) {
        let analysis = analyze(text);
        self.scalar_with(text, requested, &analysis, context);
    }

    fn scalar_with(&mut self, text: &str, requested: Style, analysis: &Analysis, context: Context) {
        let style = select_style(requested, analysis, text.is_empty(), context.simple_key);
        self.increase_indent(true, false);
        let allow_breaks = !context.simple_key;
        match style {
            Style::Plain => self.write_plain(text, allow_breaks),
            Style::SingleQuoted => self.write_single_quoted(text, allow_breaks),
            Style::DoubleQuoted => self.write_double_quoted(text, allow_breaks),
            Style::Literal => self.write_literal(text),
        }
        self.restore_indent();
    }

    fn increase_indent(&mut self, flow: bool, indentless: bool) {
        self.indents.push(self.indent);
        self.indent = match self.indent {
            None if flow => Some(BEST_INDENT),
            None => Some(0),
            Some(indent) if indentless => Some(indent),
            Some(indent) => Some(indent + BEST_INDENT),
        };
    }

    fn restore_indent(&mut self) {
        self.indent = self.indents.pop().expect("balanced indentation");
    }

    fn put(&mut self, c: char) {
        self.out.push(c);
        self.column += 1;
    }

    fn put_break(&mut self) {
        self.out.push('\n');
        self.column = 0;
    }

    /// A line break from the value: LF is written as such, CR/NEL/LS/PS are copied.
    fn write_break(&mut self, c: char) {
        if c == '\n' {
            self.put_break();
        } else {
            self.out.push(c);
            self.column = 0;
        }
    }

    /// Goes to the current indentation, breaking the line unless only indentation is on it.
    fn write_indent(&mut self) {
        let indent = self.indent.unwrap_or(0);
        if !self.indention || self.column > indent || (self.column == indent && !self.whitespace) {
            self.put_break();
        }
        while self.column < indent {
            self.put(' ');
        }
        self.whitespace = true;
        self.indention = true;
    }

    fn write_indicator(
        &mut self,
        indicator: &str,
        need_whitespace: bool,
        is_whitespace: bool,
        is_indention: bool,
    ) {
        if need_whitespace && !self.whitespace {
            self.put(' ');
        }
        indicator.chars().for_each(|c| self.put(c));
        self.whitespace = is_whitespace;
        self.indention = self.indention && is_indention;
    }

    /// Plain style, folded at the first single space past column 80.
    fn write_plain(&mut self, text: &str, allow_breaks: bool) {
        if !self.whitespace {
            self.put(' ');
        }
        let chars: Vec<char> = text.chars().collect();
        let (mut spaces, mut breaks) = (false, false);
        for (i, &c) in chars.iter().enumerate() {
            if c == ' ' {
                if allow_breaks
                    && !spaces
                    && self.column > BEST_WIDTH
                    && chars.get(i + 1) != Some(&' ')
                {
                    self.write_indent();
                } else {
                    self.put(c);
                }
                spaces = true;
            } else if is_break(c) {
                // Unreachable: a scalar with a line break is never plain.
                if !breaks && c == '\n' {
                    self.put_break();
                }
                self.write_break(c);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                self.put(c);
                self.indention = false;
                spaces = false;
                breaks = false;
            }
        }
        self.whitespace = false;
        self.indention = false;
    }

    /// Single-quoted style: `'` doubled, folded like plain but never at the first or last
    /// character.
    fn write_single_quoted(&mut self, text: &str, allow_breaks: bool) {
        self.write_indicator("'", true, false, false);
        let chars: Vec<char> = text.chars().collect();
        let last = chars.len().saturating_sub(1);
        let (mut spaces, mut breaks) = (false, false);
        for (i, &c) in chars.iter().enumerate() {
            if c == ' ' {
                if allow_breaks
                    && !spaces
                    && self.column > BEST_WIDTH
                    && i > 0
                    && i < last
                    && chars.get(i + 1) != Some(&' ')
                {
                    self.write_indent();
                } else {
                    self.put(c);
                }
                spaces = true;
            } else if is_break(c) {
                // Only LS, PS (printable breaks) get here: LF makes a literal block, CR and
                // NEL force double quotes.
                if !breaks && c == '\n' {
                    self.put_break();
                }
                self.write_break(c);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                if c == '\'' {
                    self.put('\'');
                }
                self.put(c);
                self.indention = false;
                spaces = false;
                breaks = false;
            }
        }
        self.write_indicator("'", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    /// Double-quoted style: escapes for non-printable characters, line breaks, `"` and `\`
    /// (every character when the value starts with a BOM, libyaml's `is_bom` looking at the
    /// value's start); folded past column 80 with `\` protecting a following space.
    fn write_double_quoted(&mut self, text: &str, allow_breaks: bool) {
        self.write_indicator("\"", true, false, false);
        let escape_everything = text.starts_with('\u{feff}');
        let chars: Vec<char> = text.chars().collect();
        let last = chars.len().saturating_sub(1);
        let mut spaces = false;
        for (i, &c) in chars.iter().enumerate() {
            if escape_everything || !is_printable(c) || is_break(c) || c == '"' || c == '\\' {
                self.put('\\');
                let short = match c {
                    '\0' => Some('0'),
                    '\u{7}' => Some('a'),
                    '\u{8}' => Some('b'),
                    '\t' => Some('t'),
                    '\n' => Some('n'),
                    '\u{b}' => Some('v'),
                    '\u{c}' => Some('f'),
                    '\r' => Some('r'),
                    '\u{1b}' => Some('e'),
                    '"' => Some('"'),
                    '\\' => Some('\\'),
                    '\u{85}' => Some('N'),
                    '\u{a0}' => Some('_'),
                    '\u{2028}' => Some('L'),
                    '\u{2029}' => Some('P'),
                    _ => None,
                };
                match short {
                    Some(letter) => self.put(letter),
                    None => {
                        let code = u32::from(c);
                        let escaped = if code <= 0xff {
                            format!("x{code:02X}")
                        } else if code <= 0xffff {
                            format!("u{code:04X}")
                        } else {
                            format!("U{code:08X}")
                        };
                        escaped.chars().for_each(|e| self.put(e));
                    }
                }
                spaces = false;
            } else if c == ' ' {
                if allow_breaks && !spaces && self.column > BEST_WIDTH && i > 0 && i < last {
                    self.write_indent();
                    if chars.get(i + 1) == Some(&' ') {
                        self.put('\\');
                    }
                } else {
                    self.put(c);
                }
                spaces = true;
            } else {
                self.put(c);
                spaces = false;
            }
        }
        self.write_indicator("\"", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    /// Literal block: `|`, an indentation indicator when the value starts with a space or a
    /// line break, `-` to strip the missing final line break, `+` to keep several (or a lone
    /// one); then the lines at the node's indentation, blank lines left empty.
    fn write_literal(&mut self, text: &str) {
        self.write_indicator("|", true, false, false);
        let chars: Vec<char> = text.chars().collect();
        if let Some(&first) = chars.first()
            && (first == ' ' || is_break(first))
        {
            // The digit is `best_indent`.
            self.write_indicator("2", false, false, false);
        }
        let chomp = match chars.as_slice() {
            [] => Some("-"),
            [.., last] if !is_break(*last) => Some("-"),
            [_] => Some("+"),
            [.., before, _] if is_break(*before) => Some("+"),
            _ => None,
        };
        if let Some(chomp) = chomp {
            self.write_indicator(chomp, false, false, false);
        }
        self.put_break();
        self.indention = true;
        self.whitespace = true;
        let mut breaks = true;
        for &c in &chars {
            if is_break(c) {
                self.write_break(c);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                self.put(c);
                self.indention = false;
                breaks = false;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// `Marshal(map[string]interface{}{"a": value})`.
    fn under_a(value: Value) -> String {
        marshal(&json!({ "a": value }))
    }

    // go-yaml v2 encode_test.go `marshalTests`, the entries whose values JSONToYAML can
    // produce (maps, slices, strings, ints, floats, bools, nil). A net.IP and a time.Duration
    // reach the emitter as the strings `1.2.3.4` and `3s`; json.Number as an int or a float.
    #[test]
    fn upstream_marshal_tests() {
        let cases: &[(Value, &str)] = &[
            (json!(null), "null\n"),
            (json!({}), "{}\n"),
            (json!({"v": "hi"}), "v: hi\n"),
            (json!({"v": "true"}), "v: \"true\"\n"),
            (json!({"v": "false"}), "v: \"false\"\n"),
            (json!({"v": true}), "v: true\n"),
            (json!({"v": false}), "v: false\n"),
            (json!({"v": 10}), "v: 10\n"),
            (json!({"v": -10}), "v: -10\n"),
            (json!({"v": 42u64}), "v: 42\n"),
            (json!({"v": 4_294_967_296i64}), "v: 4294967296\n"),
            (json!({"v": "10"}), "v: \"10\"\n"),
            (json!({"v": 0.1}), "v: 0.1\n"),
            (json!({"v": -0.1}), "v: -0.1\n"),
            (json!({"v": null}), "v: null\n"),
            (json!({"v": ""}), "v: \"\"\n"),
            (json!({"v": ["A", "B"]}), "v:\n- A\n- B\n"),
            (json!({"v": ["A", "B\nC"]}), "v:\n- A\n- |-\n  B\n  C\n"),
            (
                json!({"v": ["A", 1, {"B": [2, 3]}]}),
                "v:\n- A\n- 1\n- B:\n  - 2\n  - 3\n",
            ),
            (json!({"a": {"b": "c"}}), "a:\n  b: c\n"),
            (json!({"a": "-"}), "a: '-'\n"),
            (json!({"a": 1}), "a: 1\n"),
            (json!({"a": [1, 2]}), "a:\n- 1\n- 2\n"),
            (json!({"a": "3s"}), "a: 3s\n"),
            // Issue #24.
            (json!({"a": "<foo>"}), "a: <foo>\n"),
            // Issue #34: base 60 floats quoted for YAML 1.1 readers.
            (json!({"a": "1:1"}), "a: \"1:1\"\n"),
            (json!({"a": "\u{0}"}), "a: \"\\0\"\n"),
            (json!({"a": "你好"}), "a: 你好\n"),
            (json!({"a": "1.2.3.4"}), "a: 1.2.3.4\n"),
            (
                json!({"a": "2015-02-24T18:19:39Z"}),
                "a: \"2015-02-24T18:19:39Z\"\n",
            ),
            (json!({"a": "b: c"}), "a: 'b: c'\n"),
            (json!({"a": "Hello #comment"}), "a: 'Hello #comment'\n"),
            (json!({"a": "你好 #comment"}), "a: '你好 #comment'\n"),
            (json!({"a": 5}), "a: 5\n"),
            (json!({"a": 100.5}), "a: 100.5\n"),
            (json!({"a": "bogus"}), "a: bogus\n"),
        ];
        for (value, expected) in cases {
            assert_eq!(marshal(value), *expected, "{value}");
        }
    }

    // encode_test.go TestLineWrapping (before FutureLineWrap): the trailing space forces
    // single quotes, the fold comes at the first space past column 80.
    #[test]
    fn upstream_line_wrapping() {
        let text = "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ 1234567890 abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ 1234567890 ";
        assert_eq!(
            under_a(json!(text)),
            "a: 'abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ 1234567890 abcdefghijklmnopqrstuvwxyz\n  ABCDEFGHIJKLMNOPQRSTUVWXYZ 1234567890 '\n"
        );
    }

    // encode_test.go TestSortedOutput, its string keys: the order of the output lines.
    #[test]
    fn upstream_sorted_output() {
        let order = [
            "", ".1", ".2", ".a", "1", "2", "a!10", "a/0001", "a/002", "a/3", "a/10", "a/11",
            "a/0012", "a/100", "a~10", "ab/1", "b/1", "b/01", "b/2", "b/02", "b/3", "b/03", "b1",
            "b01", "b3", "c2.10", "c10.2", "d1", "d7", "d7abc", "d12", "d12a",
        ];
        let mut map = Map::new();
        for key in order.iter().rev() {
            map.insert((*key).to_string(), json!(1));
        }
        let out = marshal(&Value::Object(map));
        let keys: Vec<&str> = out
            .lines()
            .map(|line| line.rsplit_once(": ").unwrap().0)
            .collect();
        let expected: Vec<String> = order
            .iter()
            .map(|key| {
                if key.is_empty() || key.parse::<f64>().is_ok() {
                    format!("\"{key}\"")
                } else {
                    (*key).to_string()
                }
            })
            .collect();
        assert_eq!(keys, expected);
    }

    // resolve.go: plain scalars that would read back as another type are double-quoted
    // (encode.go stringv); everything else that can be plain stays plain.
    #[test]
    fn strings_that_resolve_to_another_type_are_double_quoted() {
        let quoted = [
            // Booleans and nulls from the resolve table, YAML 1.1 style.
            "y",
            "Y",
            "yes",
            "Yes",
            "YES",
            "n",
            "N",
            "no",
            "No",
            "NO",
            "true",
            "True",
            "TRUE",
            "false",
            "False",
            "FALSE",
            "on",
            "On",
            "ON",
            "off",
            "Off",
            "OFF",
            "~",
            "null",
            "Null",
            "NULL",
            "",
            // Special floats.
            ".inf",
            ".Inf",
            ".INF",
            "-.inf",
            "+.inf",
            ".nan",
            ".NaN",
            ".NAN",
            // Integers: Go ParseInt/ParseUint base 0 after dropping underscores.
            "0",
            "-0",
            "+1",
            "-1",
            "10",
            "017",
            "0x1F",
            "0X1f",
            "0o17",
            "0b101",
            "-0b101",
            "1_000",
            "1_",
            "18446744073709551615",
            "-9223372036854775808",
            // Floats: yamlStyleFloat that ParseFloat reads; `08` is no octal but a float.
            "08",
            "1.5",
            "1.",
            ".5",
            "-.5",
            "+1.5e3",
            "1e3",
            "1E-3",
            "99999999999999999999",
            "._5",
            ".5_5",
            // resolve.go's 0b fallback after base-0 parsing failed.
            "0b-1",
            "0b+1",
            // Timestamps (four digits, `-`, then one of go-yaml's time.Parse layouts).
            "2024-01-15",
            "2024-1-5",
            "2024-02-29",
            "2001-12-14T21:59:43.10-05:00",
            "2001-12-14t21:59:43Z",
            "2001-12-14 21:59:43.10",
            "2001-12-14  1:2:3",
            "2001-12-14T21:59:43,5+24:00",
            // Base 60 (isBase60Float).
            "1:20",
            "12:30:45",
            "-1:20.5",
            "1_0:5",
        ];
        for text in quoted {
            let expected = if text == "._5" {
                // `._5` is no number (`_` must follow a digit): not quoted, and `.` is no
                // indicator.
                "a: ._5\n".to_string()
            } else {
                format!("a: \"{text}\"\n")
            };
            assert_eq!(under_a(json!(text)), expected, "{text:?}");
        }
        let plain = [
            "0.0.0.0",
            "1.2.3",
            "v1.2",
            "yEs",
            "nO",
            "tRUE",
            "Nope",
            "nulls",
            "<<",
            "1e400",
            "0x",
            "0xG",
            "1:60",
            "10:70",
            "1:2:",
            "2024-13-01",
            "2024-02-30",
            "2023-02-29",
            "2001-12-14T21:59:43",
            "2001-12-14T25:00:00Z",
            "2001-12-14T21:59:43+25:00",
            "12345-01-01",
            "2024-01-15x",
            "-",
            "+",
            "+-1",
            "0b",
            "1e",
            "e3",
            "inf",
            "NaN",
            "-.infinity",
            "hello world",
            "3s",
            "it's",
            "a:b",
            "a#b",
            "x,y",
            "x]",
            "-x",
            ":x",
            "?x",
            "a-",
            "a b",
            "&",
            "0.1.",
            "1..2",
        ];
        for text in plain {
            let expected = match text {
                // Block indicators as the first character.
                "-" | "&" | "1:2:" => format!("a: '{text}'\n"),
                _ => format!("a: {text}\n"),
            };
            assert_eq!(under_a(json!(text)), expected, "{text:?}");
        }
    }

    // emitterc.go yaml_emitter_analyze_scalar + select_scalar_style: a string that may be plain
    // as far as the encoder knows but cannot be written plain is single-quoted, unless it has
    // characters only double quotes can escape.
    #[test]
    fn strings_that_cannot_be_plain_are_single_quoted() {
        let cases: &[(&str, &str)] = &[
            ("Welcome: shop", "'Welcome: shop'"),
            ("x #y", "'x #y'"),
            (" x", "' x'"),
            ("x ", "'x '"),
            ("x: ", "'x: '"),
            ("*x", "'*x'"),
            ("&x", "'&x'"),
            ("!x", "'!x'"),
            ("|x", "'|x'"),
            (">x", "'>x'"),
            ("%x", "'%x'"),
            ("@x", "'@x'"),
            ("`x", "'`x'"),
            ("#x", "'#x'"),
            ("[x", "'[x'"),
            ("]", "']'"),
            ("{x}", "'{x}'"),
            (",x", "',x'"),
            ("- x", "'- x'"),
            ("? x", "'? x'"),
            (": x", "': x'"),
            ("---", "'---'"),
            ("--- x", "'--- x'"),
            ("...x", "'...x'"),
            ("'x", "'''x'"),
            ("it's: here", "'it''s: here'"),
            ("\"x", "'\"x'"),
            ("x:", "'x:'"),
            ("\u{a0}x", "\u{a0}x"),
            // LS is a printable line break: no plain, single quotes written with the break as
            // is and the next line indented.
            ("a\u{2028}b", "'a\u{2028}  b'"),
        ];
        for (text, expected) in cases {
            assert_eq!(under_a(json!(text)), format!("a: {expected}\n"), "{text:?}");
        }
    }

    // write_double_quoted: escapes, and everything escaped after a leading BOM.
    #[test]
    fn double_quoted_escapes() {
        let cases: &[(&str, &str)] = &[
            ("a\tb", r#""a\tb""#),
            ("x\r", r#""x\r""#),
            ("a\r\nb", r#""a\r\nb""#),
            ("\u{7}\u{8}\u{b}\u{c}\u{1b}\u{1}", r#""\a\b\v\f\e\x01""#),
            ("\u{7f}", r#""\x7F""#),
            ("\u{85}", r#""\N""#),
            ("\u{9f}x", r#""\x9Fx""#),
            ("😀", r#""\U0001F600""#),
            ("\u{fffe}", r#""\uFFFE""#),
            ("\u{feff}a b", r#""\uFEFF\x61\x20\x62""#),
            (
                "tab\tand \"quotes\" and \\",
                r#""tab\tand \"quotes\" and \\""#,
            ),
            // A line feed next to a space, or a tab, rules out the literal block.
            ("a \nb", r#""a \nb""#),
            ("a\tb\nc", r#""a\tb\nc""#),
            ("a\n\u{85}", r#""a\n\N""#),
        ];
        for (text, expected) in cases {
            assert_eq!(under_a(json!(text)), format!("a: {expected}\n"), "{text:?}");
        }
    }

    // write_literal_scalar and its block scalar hints.
    #[test]
    fn multi_line_strings_are_literal_blocks() {
        let cases: &[(&str, &str)] = &[
            ("line1\nline2\n", "a: |\n  line1\n  line2\n"),
            ("line1\nline2", "a: |-\n  line1\n  line2\n"),
            ("line1\n\n", "a: |+\n  line1\n\n"),
            ("\n", "a: |2+\n\n"),
            ("a\n\nb\n", "a: |\n  a\n\n  b\n"),
            ("  indented\nx\n", "a: |2\n    indented\n  x\n"),
            ("\nafter a blank line", "a: |2-\n\n  after a blank line\n"),
            ("a\n b", "a: |-\n  a\n   b\n"),
            (
                "# not a comment\n- not a list\n",
                "a: |\n  # not a comment\n  - not a list\n",
            ),
            ("trailing \nspace", "a: \"trailing \\nspace\"\n"),
            ("x\ny ", "a: \"x\\ny \"\n"),
        ];
        for (text, expected) in cases {
            assert_eq!(under_a(json!(text)), *expected, "{text:?}");
        }
        // Literal blocks inside sequences and nested maps, followed by more keys.
        assert_eq!(
            marshal(&json!({"a": {"b": "x\ny\n", "c": 1}, "d": ["p\nq", "r"]})),
            "a:\n  b: |\n    x\n    y\n  c: 1\nd:\n- |-\n  p\n  q\n- r\n"
        );
        // A root string.
        assert_eq!(marshal(&json!("x\ny")), "|-\n  x\n  y\n");
        // Lines are never folded in a literal block.
        let long = format!("{}\n", "word ".repeat(30).trim_end());
        assert_eq!(under_a(json!(long)), format!("a: |\n  {long}"));
    }

    // write_plain / write_single_quoted / write_double_quoted: a line is broken at a single
    // space met once the column is past 80; the continuation is indented one level deeper
    // than the node's parent.
    #[test]
    fn long_scalars_fold_past_column_80() {
        // `a: ` + 77 letters ends at column 80, which is not past 80: the space stays.
        let text = format!("{} yy zz", "x".repeat(77));
        assert_eq!(
            under_a(json!(text)),
            format!("a: {} yy\n  zz\n", "x".repeat(77))
        );
        // A run of spaces is not folded at all; one long word is never split.
        let text = format!("{}  yy", "x".repeat(80));
        assert_eq!(under_a(json!(text)), format!("a: {text}\n"));
        let word = "w".repeat(200);
        assert_eq!(under_a(json!(word)), format!("a: {word}\n"));
        // Deeper nodes fold to their own indentation.
        let text = format!("{} b c", "x".repeat(76));
        assert_eq!(
            marshal(&json!({"a": {"b": [text]}})),
            format!("a:\n  b:\n  - {} b\n    c\n", "x".repeat(76))
        );
        // Many folds: the space after the 16th word is at column 82 on the first line
        // (`a: ` + 16 words) and at 81 on the next ones (2 spaces + 16 words).
        let text = ["word"; 40].join(" ");
        let line = ["word"; 16].join(" ");
        assert_eq!(
            under_a(json!(text)),
            format!("a: {line}\n  {line}\n  {}\n", ["word"; 8].join(" "))
        );
        // Double quotes: a fold before a second space escapes it with `\`.
        let text = format!("x\t{} z z", "y".repeat(80));
        assert_eq!(
            under_a(json!(text)),
            format!("a: \"x\\t{}\n  z z\"\n", "y".repeat(80))
        );
        let text = format!("x\t{}  z", "y".repeat(80));
        assert_eq!(
            under_a(json!(text)),
            format!("a: \"x\\t{}\n  \\ z\"\n", "y".repeat(80))
        );
        // Keys are never folded (simple keys); values after them are.
        let key = format!("{} k", "K".repeat(100));
        assert_eq!(
            marshal(&json!({ key.clone(): "v w" })),
            format!("{key}: v\n  w\n")
        );
    }

    // yaml_emitter_check_simple_key: a key longer than 128 bytes or with a line break is
    // written as a complex key `? key` / `: value`; its scalar may then fold and be a literal.
    #[test]
    fn complex_keys() {
        let key = "k".repeat(129);
        assert_eq!(
            marshal(&json!({ key.clone(): 1 })),
            format!("? {key}\n: 1\n")
        );
        let key = "k".repeat(128);
        assert_eq!(marshal(&json!({ key.clone(): 1 })), format!("{key}: 1\n"));
        assert_eq!(
            marshal(&json!({"a\nb": {"c": 1, "d": [2]}})),
            "? |-\n  a\n  b\n: c: 1\n  d:\n  - 2\n"
        );
        assert_eq!(
            marshal(&json!({"a\nb": [1, 2]})),
            "? |-\n  a\n  b\n: - 1\n  - 2\n"
        );
        // Keys get the same quoting as values; an empty key is double-quoted (it is null).
        assert_eq!(
            marshal(&json!({"y": 1, "": 2, "a: b": 3, "1": 4, " k": 5})),
            "\"\": 2\n' k': 5\n\"1\": 4\n'a: b': 3\n\"y\": 1\n"
        );
        // In a key (simple key context) a tab still means double quotes.
        assert_eq!(marshal(&json!({"a\tb": 1})), "\"a\\tb\": 1\n");
    }

    // Block collections: sequences level with their mapping key, nested sequences on one
    // line, maps in sequences after `- `, empty collections in flow style.
    #[test]
    fn nested_collections() {
        assert_eq!(
            marshal(&json!({"a": [{"b": 1, "c": [1, 2]}, []], "d": {}, "e": [[1, 2], [3], {}]})),
            "a:\n- b: 1\n  c:\n  - 1\n  - 2\n- []\nd: {}\ne:\n- - 1\n  - 2\n- - 3\n- {}\n"
        );
        assert_eq!(marshal(&json!([])), "[]\n");
        assert_eq!(
            marshal(&json!([{"a": 1, "b": {"c": null}}])),
            "- a: 1\n  b:\n    c: null\n"
        );
        assert_eq!(marshal(&json!([[[1]]])), "- - - 1\n");
        assert_eq!(
            marshal(&json!({"a": {"b": {"c": {}}}})),
            "a:\n  b:\n    c: {}\n"
        );
    }

    // Non-ASCII text is written as UTF-8 where libyaml deems it printable.
    #[test]
    fn unicode() {
        assert_eq!(
            marshal(&json!({"名前": "値", "café": "naïve ünïcödé", "ключ": "значение"})),
            "café: naïve ünïcödé\nключ: значение\n名前: 値\n"
        );
        // Letters sort after non-letters whatever the script; CJK ideographs are letters.
        assert_eq!(
            marshal(&json!({"é": 1, "z": 2, "1": 3})),
            "\"1\": 3\nz: 2\né: 1\n"
        );
        // Columns count characters, not bytes: 77 two-byte letters end at column 80.
        let text = format!("{} yy zz", "é".repeat(77));
        assert_eq!(
            under_a(json!(text)),
            format!("a: {} yy\n  zz\n", "é".repeat(77))
        );
    }

    // encode.go floatv: strconv.FormatFloat(f, 'g', -1, 64); ints as they are.
    #[test]
    fn numbers() {
        let cases: &[(Value, &str)] = &[
            (json!(1_000_000), "1000000"),
            (json!(1e6), "1e+06"),
            (json!(123_456.5), "123456.5"),
            (json!(1_234_567.5), "1.2345675e+06"),
            (json!(100_000.0), "100000"),
            (json!(0.0001), "0.0001"),
            (json!(0.00001), "1e-05"),
            (json!(-2.5e-7), "-2.5e-07"),
            (json!(1e20), "1e+20"),
            (json!(1.5e300), "1.5e+300"),
            (json!(0.1 + 0.2), "0.30000000000000004"),
            (json!(0.0), "0"),
            (json!(-0.0), "-0"),
            (json!(i64::MIN), "-9223372036854775808"),
            (json!(u64::MAX), "18446744073709551615"),
        ];
        for (value, expected) in cases {
            assert_eq!(
                under_a(value.clone()),
                format!("a: {expected}\n"),
                "{value}"
            );
        }
    }

    // karmada-overrides spec §9.4: `"\nkey: \n  key1: value\n"` + replace `/key/key1`.
    #[test]
    fn spec_example() {
        assert_eq!(
            marshal(&json!({"key": {"key1": "updated_value"}})),
            "key:\n  key1: updated_value\n"
        );
        // Versions and addresses stay plain (karmada-overrides spec §9.4 example values).
        assert_eq!(
            marshal(&json!({"host": "0.0.0.0", "ver": "1.2.3", "port": "8080"})),
            "host: 0.0.0.0\nport: \"8080\"\nver: 1.2.3\n"
        );
    }
}
