//! sprig's string helpers that come from Masterminds/goutils v1.1.1 (`abbrev`, `abbrevboth`,
//! `initials`, `swapcase`, `wrap`, `wrapWith`) and huandu/xstrings v1.5.0 (`snakecase`,
//! `camelcase`, `kebabcase`), with Go's rules: goutils walks bytes where it says so (its
//! lengths, `Initials`, `Wrap`), xstrings and `SwapCase` walk runes and ask Go's `unicode`
//! tables (general categories, one-rune case mappings), which Rust's `char` methods do not
//! answer alike (`is_uppercase` holds `Ⓐ`, `to_uppercase` turns `ß` into two letters).

use super::coerce::within_bound;
use super::signature::{Func, Param, f};
use super::value::Value;
use std::sync::LazyLock;

use Param::{Int, Str};

/// The string helper called `name`.
pub(super) fn lookup(name: &str) -> Option<Func> {
    Some(match name {
        "abbrev" => f(&[Int, Str], None, |a, _| {
            let (width, text) = (n(a, 0), s(a, 1));
            // sprig returns the text as it is for a width goutils would refuse.
            if width < 4 {
                return ok(text.to_string());
            }
            ok(abbreviate_full(text, 0, width).unwrap_or_default())
        }),
        "abbrevboth" => f(&[Int, Int, Str], None, |a, _| {
            let (left, right, text) = (n(a, 0), n(a, 1), s(a, 2));
            if right < 4 || left > 0 && right < 7 {
                return ok(text.to_string());
            }
            // sprig drops goutils' error, leaving its empty string.
            ok(abbreviate_full(text, left, right).unwrap_or_default())
        }),
        "initials" => f(&[Str], None, |a, _| ok(initials(s(a, 0)))),
        "swapcase" => f(&[Str], None, |a, _| ok(swap_case(s(a, 0)))),
        "snakecase" => f(&[Str], None, |a, _| ok(to_lower_words(s(a, 0), '_'))),
        "kebabcase" => f(&[Str], None, |a, _| ok(to_lower_words(s(a, 0), '-'))),
        // sprig's `camelcase` is xstrings' Pascal case (functions.go: xstrings changed what
        // its ToCamelCase does, and sprig kept the old answers).
        "camelcase" => f(&[Str], None, |a, _| ok(to_camel(s(a, 0), true))),
        "wrap" => f(&[Int, Str], None, |a, _| {
            ok(wrap_custom(s(a, 1), n(a, 0), "", false)?)
        }),
        "wrapWith" => f(&[Int, Str, Str], None, |a, _| {
            ok(wrap_custom(s(a, 2), n(a, 0), s(a, 1), true)?)
        }),
        _ => return None,
    })
}

fn ok(text: String) -> Result<Value, String> {
    Ok(Value::String(text))
}

fn s(args: &[Value], i: usize) -> &str {
    match &args[i] {
        Value::String(s) => s,
        _ => "",
    }
}

fn n(args: &[Value], i: usize) -> i64 {
    match &args[i] {
        Value::Int(n, _) => *n,
        _ => 0,
    }
}

/// Bytes Go cut out of a string, as Go's encoders read them afterwards: each byte that does
/// not start a whole rune is one `U+FFFD` (Rust's lossy reading gives one for a cut rune).
pub(crate) fn go_lossy(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    let mut rest = bytes;
    while !rest.is_empty() {
        match std::str::from_utf8(rest) {
            Ok(valid) => {
                out.push_str(valid);
                break;
            }
            Err(error) => {
                let (valid, after) = rest.split_at(error.valid_up_to());
                out.push_str(std::str::from_utf8(valid).unwrap_or_default());
                out.push('\u{fffd}');
                rest = &after[1..];
            }
        }
    }
    out
}

/// goutils `AbbreviateFull`: lengths and cuts in bytes, Go's `int` arithmetic wrapping as Go's
/// does for the extreme offsets a template may give; `None` for its two errors.
fn abbreviate_full(text: &str, offset: i64, width: i64) -> Option<String> {
    let bytes = text.as_bytes();
    let len = bytes.len() as i64;
    if text.is_empty() {
        return Some(String::new());
    }
    if width < 4 {
        return None;
    }
    if len <= width {
        return Some(text.to_string());
    }
    let mut offset = offset.min(len);
    if len.wrapping_sub(offset) < width - 3 {
        offset = len - (width - 3);
    }
    let cut = |from: i64, to: i64| go_lossy(&bytes[from as usize..to as usize]);
    if offset <= 4 {
        return Some(cut(0, width - 3) + "...");
    }
    if width < 7 {
        return None;
    }
    if offset.wrapping_add(width - 3) < len {
        // goutils abbreviates the rest to `width - 3`, which is longer than that rest's
        // first `width - 6` bytes and an ellipsis.
        return Some(format!("...{}...", cut(offset, offset + width - 6)));
    }
    Some(format!("...{}", cut(len - (width - 3), len)))
}

/// Go's `unicode.IsSpace` of one byte read as a rune, as goutils' byte loops ask it.
fn is_space_byte(byte: u8) -> bool {
    matches!(
        byte,
        b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | b' ' | 0x85 | 0xa0
    )
}

/// goutils `Initials` with no delimiters: it reads the text a byte at a time, each byte a
/// rune, so a word starting with `é` gives `Ã` (its first byte, U+00C3), and the second byte
/// of `à` (0xA0, a no-break space as a rune) starts a word.
fn initials(text: &str) -> String {
    let mut out = String::new();
    let mut gap = true;
    for &byte in text.as_bytes() {
        if is_space_byte(byte) {
            gap = true;
        } else if gap {
            out.push(char::from(byte));
            gap = false;
        }
    }
    out
}

/// goutils `SwapCase`: upper and title case lowered, a lower-case letter titled after a space
/// (or at the start) and raised elsewhere.
fn swap_case(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut after_space = true;
    for c in text.chars() {
        if is_upper(c) || is_title(c) {
            out.push(to_lower(c));
            after_space = false;
        } else if is_lower(c) {
            out.push(if after_space {
                to_title(c)
            } else {
                to_upper(c)
            });
            after_space = false;
        } else {
            after_space = c.is_whitespace();
            out.push(c);
        }
    }
    out
}

/// goutils `WrapCustom`: lines broken at the last space (a byte) within `width` bytes,
/// spaces starting a line dropped; a word longer than a line is cut (`cut_long`) or left
/// whole to the next space.
fn wrap_custom(text: &str, width: i64, newline: &str, cut_long: bool) -> Result<String, String> {
    if text.is_empty() {
        return Ok(String::new());
    }
    let newline = if newline.is_empty() { "\n" } else { newline };
    let width = width.max(1);
    let bytes = text.as_bytes();
    let len = bytes.len() as i64;
    let mut offset: i64 = 0;
    let mut out: Vec<u8> = Vec::new();
    let line = |out: &mut Vec<u8>, piece: &[u8]| {
        out.extend_from_slice(piece);
        out.extend_from_slice(newline.as_bytes());
        within_bound(out.len() as u128)
    };
    while len - offset > width {
        let at = offset as usize;
        if bytes[at] == b' ' {
            offset += 1;
            continue;
        }
        let end = (width + offset + 1) as usize;
        match bytes[at..end].iter().rposition(|&b| b == b' ') {
            Some(space) => {
                line(&mut out, &bytes[at..at + space])?;
                offset += space as i64 + 1;
            }
            None if cut_long => {
                let end = (width + offset) as usize;
                line(&mut out, &bytes[at..end])?;
                offset += width;
            }
            None => {
                let end = (width + offset) as usize;
                match bytes[end..].iter().position(|&b| b == b' ') {
                    None => {
                        out.extend_from_slice(&bytes[at..]);
                        offset = len;
                    }
                    Some(space) => {
                        line(&mut out, &bytes[at..end + space])?;
                        offset = (end + space) as i64 + 1;
                    }
                }
            }
        }
    }
    out.extend_from_slice(&bytes[offset as usize..]);
    Ok(go_lossy(&out))
}

/// What xstrings' word splitter calls each run of runes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Word {
    Invalid,
    Number,
    Upper,
    Alphabet,
    Connector,
    Punct,
    Other,
}

/// Go reads `U+FFFD` in a string as `utf8.RuneError`, which xstrings skips as invalid.
const RUNE_ERROR: char = '\u{fffd}';

fn first_rune(text: &str) -> (char, usize) {
    let c = text.chars().next().unwrap_or(RUNE_ERROR);
    (c, c.len_utf8())
}

/// xstrings `nextValidRune`: the first rune that is not `RuneError`, and the bytes up to and
/// with it; `prev` when only errors are left.
fn next_valid(text: &str, prev: char) -> (char, usize) {
    let mut size = 0;
    let mut rest = text;
    while !rest.is_empty() {
        let (c, len) = first_rune(rest);
        size += len;
        if c != RUNE_ERROR {
            return (c, size);
        }
        rest = &rest[len..];
    }
    (prev, size)
}

fn is_connector(c: char) -> bool {
    c == '-' || c == '_' || c.is_whitespace()
}

/// xstrings `isAlphabet`: a letter, but not of the CJK ideograph blocks.
fn is_alphabet(c: char) -> bool {
    is_letter(c)
        && !matches!(c, '\u{4e00}'..='\u{9fcc}' | '\u{3400}'..='\u{4d85}' | '\u{20000}'..='\u{2b81d}')
}

/// A run of runes while `keep` holds for the next valid one: the bytes it takes.
fn run_while(text: &str, mut r: char, keep: impl Fn(char) -> bool) -> usize {
    let mut taken = 0;
    let mut rest = text;
    while !rest.is_empty() {
        let (next, size) = next_valid(rest, r);
        r = next;
        if !keep(r) {
            break;
        }
        taken += size;
        rest = &rest[size..];
    }
    taken
}

/// xstrings `nextWord`: the kind of the first word, the word, and what follows it. An upper
/// case run followed by a letter leaves its last capital to the next word (`HTTPServer` is
/// `HTTP`, `Server`).
fn next_word(text: &str) -> (Word, &str, &str) {
    if text.is_empty() {
        return (Word::Invalid, "", "");
    }
    let (r, size) = next_valid(text, RUNE_ERROR);
    let mut offset = size;
    if r == RUNE_ERROR {
        return (Word::Invalid, &text[..offset], &text[offset..]);
    }
    let kind = if is_connector(r) {
        offset += run_while(&text[offset..], r, is_connector);
        Word::Connector
    } else if is_punct(r) {
        offset += run_while(&text[offset..], r, is_punct);
        Word::Punct
    } else if is_upper(r) {
        if offset < text.len() {
            let (r2, size2) = next_valid(&text[offset..], r);
            if is_upper(r2) {
                let mut last_size = size2;
                offset += size2;
                let mut last = r2;
                let mut rest = &text[offset..];
                while !rest.is_empty() {
                    let (next, size) = next_valid(rest, last);
                    last = next;
                    if !is_upper(next) {
                        break;
                    }
                    last_size = size;
                    offset += size;
                    rest = &rest[size..];
                }
                if offset < text.len() && is_alphabet(last) {
                    offset -= last_size;
                }
            } else if is_alphabet(r2) {
                offset += size2;
                offset += run_while(&text[offset..], r2, |c| is_alphabet(c) && !is_upper(c));
            }
        }
        Word::Upper
    } else if is_alphabet(r) {
        offset += run_while(&text[offset..], r, |c| is_alphabet(c) && !is_upper(c));
        Word::Alphabet
    } else if is_number(r) {
        offset += run_while(&text[offset..], r, is_number);
        Word::Number
    } else {
        offset += run_while(&text[offset..], r, |c| {
            !(is_connector(c) || is_alphabet(c) || is_number(c) || is_punct(c))
        });
        Word::Other
    };
    (kind, &text[..offset], &text[offset..])
}

/// xstrings `toLower`: capitals and connectors of an upper-case or connector word lowered
/// and made `connector`; any other word as it is.
fn lower_word(out: &mut String, kind: Word, word: &str, connector: char) {
    if kind != Word::Upper && kind != Word::Connector {
        out.push_str(word);
        return;
    }
    for c in word.chars() {
        if is_connector(c) {
            out.push(connector);
        } else if is_upper(c) {
            out.push(to_lower(c));
        } else {
            out.push(c);
        }
    }
}

/// xstrings `camelCaseToLowerCase` (`ToSnakeCase`, `ToKebabCase`): words lowered and joined
/// by `connector`; a number joins the word before it unless lower-case letters follow it
/// (`Bld4Floor` is `bld4_floor`, `HTTP2xx` is `http_2xx`).
fn to_lower_words(text: &str, connector: char) -> String {
    if text.is_empty() {
        return String::new();
    }
    let mut out = String::with_capacity(text.len() + text.len() / 2);
    let (mut kind, mut word, mut rest) = next_word(text);
    while !rest.is_empty() {
        if kind != Word::Connector {
            lower_word(&mut out, kind, word, connector);
        }
        let (prev, last) = (kind, word);
        (kind, word, rest) = next_word(rest);
        match prev {
            Word::Number => {
                while kind == Word::Alphabet || kind == Word::Number {
                    lower_word(&mut out, kind, word, connector);
                    (kind, word, rest) = next_word(rest);
                }
                if !matches!(kind, Word::Invalid | Word::Punct | Word::Connector) {
                    out.push(connector);
                }
            }
            Word::Connector => lower_word(&mut out, prev, last, connector),
            Word::Punct => {}
            _ => {
                if kind != Word::Number {
                    if kind != Word::Connector && kind != Word::Punct {
                        out.push(connector);
                    }
                    continue;
                }
                if rest.is_empty() {
                    continue;
                }
                let number = word;
                (kind, word, rest) = next_word(rest);
                if kind != Word::Alphabet {
                    lower_word(&mut out, Word::Number, number, connector);
                    if kind != Word::Connector && kind != Word::Punct {
                        out.push(connector);
                    }
                    continue;
                }
                out.push(connector);
                lower_word(&mut out, Word::Number, number, connector);
                while kind == Word::Alphabet || kind == Word::Number {
                    lower_word(&mut out, kind, word, connector);
                    (kind, word, rest) = next_word(rest);
                }
                if !matches!(kind, Word::Invalid | Word::Connector | Word::Punct) {
                    out.push(connector);
                }
            }
        }
    }
    lower_word(&mut out, kind, word, connector);
    out
}

/// xstrings `toCamelCase`: connectors dropped and the rune after each raised; the rest of a
/// word that starts with a capital lowered while its capitals run, and leading connectors
/// kept. `big` raises the first letter (Pascal case), else it is lowered.
fn to_camel(text: &str, big: bool) -> String {
    if text.is_empty() {
        return String::new();
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut first_upper = false;
    let mut r0 = RUNE_ERROR;
    let mut read_any = false;
    for c in chars.by_ref() {
        read_any = true;
        if !is_connector(c) {
            first_upper = is_upper(c);
            r0 = if big { to_upper(c) } else { to_lower(c) };
            break;
        }
        r0 = c;
        out.push(c);
    }
    if chars.peek().is_none() {
        // The connectors alone, or a one-letter word after them, which is written as changed;
        // a text of connectors only writes its last one twice, as xstrings does.
        if read_any {
            out.push(r0);
        }
        return out;
    }
    for c in chars {
        let r1 = r0;
        r0 = c;
        if is_connector(r0) && is_connector(r1) {
            out.push(r1);
            continue;
        }
        if is_connector(r1) {
            first_upper = is_upper(r0);
            r0 = to_upper(r0);
        } else {
            if first_upper {
                if is_upper(r0) {
                    r0 = to_lower(r0);
                } else {
                    first_upper = false;
                }
            }
            out.push(r1);
        }
    }
    if first_upper && !big {
        r0 = to_lower(r0);
    }
    out.push(r0);
    out
}

/// A Unicode class as sorted ranges, from the regular-expression tables (the crate's Unicode
/// data, Go's categories by name).
fn class(pattern: &str) -> Vec<(char, char)> {
    let hir = regex_syntax::Parser::new()
        .parse(pattern)
        .expect("a Unicode class parses");
    match hir.kind() {
        regex_syntax::hir::HirKind::Class(regex_syntax::hir::Class::Unicode(class)) => class
            .ranges()
            .iter()
            .map(|range| (range.start(), range.end()))
            .collect(),
        _ => Vec::new(),
    }
}

fn in_class(ranges: &[(char, char)], c: char) -> bool {
    ranges
        .binary_search_by(|&(start, end)| {
            if end < c {
                std::cmp::Ordering::Less
            } else if start > c {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

static UPPER: LazyLock<Vec<(char, char)>> = LazyLock::new(|| class(r"\p{Lu}"));
static LOWER: LazyLock<Vec<(char, char)>> = LazyLock::new(|| class(r"\p{Ll}"));
static TITLE: LazyLock<Vec<(char, char)>> = LazyLock::new(|| class(r"\p{Lt}"));
static LETTER: LazyLock<Vec<(char, char)>> = LazyLock::new(|| class(r"\p{L}"));
static PUNCT: LazyLock<Vec<(char, char)>> = LazyLock::new(|| class(r"\p{P}"));
static NUMBER: LazyLock<Vec<(char, char)>> = LazyLock::new(|| class(r"\p{N}"));

/// Go's `unicode.IsUpper`: category Lu.
fn is_upper(c: char) -> bool {
    in_class(&UPPER, c)
}

/// Go's `unicode.IsLower`: category Ll.
fn is_lower(c: char) -> bool {
    in_class(&LOWER, c)
}

/// Go's `unicode.IsTitle`: category Lt.
fn is_title(c: char) -> bool {
    in_class(&TITLE, c)
}

/// Go's `unicode.IsLetter`: category L.
fn is_letter(c: char) -> bool {
    in_class(&LETTER, c)
}

/// Go's `unicode.IsPunct`: category P.
fn is_punct(c: char) -> bool {
    in_class(&PUNCT, c)
}

/// Go's `unicode.IsNumber`: category N.
fn is_number(c: char) -> bool {
    in_class(&NUMBER, c)
}

/// Go's `unicode.ToUpper`, the one-rune mapping: where Unicode's full mapping gives more
/// than one rune, the simple one is the titlecase letter for Greek with iota subscript, and
/// none (the rune kept) for the rest (`ß`, `ŉ`, `ﬀ`).
pub(crate) fn to_upper(c: char) -> char {
    let mut upper = c.to_uppercase();
    match (upper.next(), upper.next()) {
        (Some(one), None) => one,
        _ => match c {
            '\u{1f80}'..='\u{1f87}' | '\u{1f90}'..='\u{1f97}' | '\u{1fa0}'..='\u{1fa7}' => {
                char::from_u32(c as u32 + 8).unwrap_or(c)
            }
            '\u{1fb3}' => '\u{1fbc}',
            '\u{1fc3}' => '\u{1fcc}',
            '\u{1ff3}' => '\u{1ffc}',
            _ => c,
        },
    }
}

/// Go's `unicode.ToLower`: Unicode's full lowering is one rune but for `İ`, whose simple
/// lowering is its first.
pub(crate) fn to_lower(c: char) -> char {
    c.to_lowercase().next().unwrap_or(c)
}

/// Go's `unicode.ToTitle`: the upper case but for the Latin digraphs (`ǆ` is titled `ǅ`)
/// and Georgian, whose letters are their own title case.
fn to_title(c: char) -> char {
    match c {
        '\u{1c4}'..='\u{1c6}' => '\u{1c5}',
        '\u{1c7}'..='\u{1c9}' => '\u{1c8}',
        '\u{1ca}'..='\u{1cc}' => '\u{1cb}',
        '\u{1f1}'..='\u{1f3}' => '\u{1f2}',
        '\u{10d0}'..='\u{10fa}' | '\u{10fd}'..='\u{10ff}' => c,
        _ => to_upper(c),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // goutils v1.1.1 stringutils_test.go TestAbbreviate, TestAbbreviateFull and the examples
    // ExampleAbbreviate, ExampleAbbreviateFull; sprig v3.3.0 strings_test.go TestGoutils.
    #[test]
    fn abbreviates_as_goutils() {
        let full = |t: &str, o, w| abbreviate_full(t, o, w);
        assert_eq!(full("abcdefg", 0, 6).as_deref(), Some("abc..."));
        assert_eq!(full("abcdefg", 0, 7).as_deref(), Some("abcdefg"));
        assert_eq!(full("abcdefg", 0, 8).as_deref(), Some("abcdefg"));
        assert_eq!(full("abcdefg", 0, 4).as_deref(), Some("a..."));
        assert_eq!(full("abcdefg", 0, 3), None);
        let text = "abcdefghijklmno";
        for (offset, want) in [
            (-1, "abcdefg..."),
            (0, "abcdefg..."),
            (1, "abcdefg..."),
            (4, "abcdefg..."),
            (5, "...fghi..."),
            (6, "...ghij..."),
            (8, "...ijklmno"),
            (10, "...ijklmno"),
            (12, "...ijklmno"),
        ] {
            assert_eq!(full(text, offset, 10).as_deref(), Some(want), "{offset}");
        }
        assert_eq!(full("abcdefghij", 0, 3), None);
        assert_eq!(full("abcdefghij", 5, 6), None);
        assert_eq!(full("hello world", 0, 5).as_deref(), Some("he..."));
        assert_eq!(full("1234 5678 9123", 5, 10).as_deref(), Some("...5678..."));
        // A cut through a rune leaves a replacement for each byte of it cut off.
        assert_eq!(
            full("名前名前", 0, 5).as_deref(),
            Some("\u{fffd}\u{fffd}...")
        );
    }

    // goutils v1.1.1 wordutils_test.go TestInitials, TestSwapCase; sprig's TestGoutils.
    #[test]
    fn initials_and_swapped_case_as_goutils() {
        assert_eq!(initials("John Doe.Ray"), "JD");
        assert_eq!(initials("First Try"), "FT");
        assert_eq!(initials("élan vital"), "Ãv");
        assert_eq!(initials("  a\u{a0}b"), "ab");
        assert_eq!(swap_case("This Is A.Test"), "tHIS iS a.tEST");
        assert_eq!(swap_case("ǆemal ǅ ß"), "ǅEMAL ǆ ß");
    }

    // goutils v1.1.1 wordutils_test.go TestWrapNormalWord…, TestWrapCustomLongWord…; sprig's
    // TestGoutils.
    #[test]
    fn wraps_as_goutils() {
        let wrap = |t: &str, w| wrap_custom(t, w, "", false).unwrap();
        let with = |t: &str, w, nl: &str| wrap_custom(t, w, nl, true).unwrap();
        assert_eq!(wrap("Bob Manuel Bob Manuel", 10), "Bob Manuel\nBob Manuel");
        assert_eq!(
            wrap(
                "Here is one line of text that is going to be wrapped after 20 columns.",
                20
            ),
            "Here is one line of\ntext that is going\nto be wrapped after\n20 columns."
        );
        assert_eq!(
            wrap(
                "Click here to jump to the commons website - http://commons.apache.org",
                20
            ),
            "Click here to jump\nto the commons\nwebsite -\nhttp://commons.apache.org"
        );
        assert_eq!(
            wrap(
                "Click here, http://commons.apache.org, to jump to the commons website",
                20
            ),
            "Click here,\nhttp://commons.apache.org,\nto jump to the\ncommons website"
        );
        let digits = "123456789_123456789_123456789_123456789_1234567890";
        assert_eq!(wrap(digits, 11), digits);
        assert_eq!(
            with(digits, 11, "\n"),
            "123456789_1\n23456789_12\n3456789_123\n456789_1234\n567890"
        );
        assert_eq!(
            wrap_custom("BobManuelBob Bob", 10, "<br\\>", false).unwrap(),
            "BobManuelBob<br\\>Bob"
        );
        assert_eq!(
            with("BobManuelBob Bob", 10, "<br\\>"),
            "BobManuelB<br\\>ob Bob"
        );
        assert_eq!(wrap("Hello World", 5), "Hello\nWorld");
        assert_eq!(with("Hello World", 5, "\t"), "Hello\tWorld");
        assert!(wrap_custom(&"x".repeat(1 << 12), 1, &"y".repeat(1 << 11), true).is_err());
    }

    // xstrings v1.5.0's documented samples (convert.go's comments on ToSnakeCase,
    // ToKebabCase, ToPascalCase: its vendored copy has no tests), and edge cases checked
    // against Argo CD's answers.
    #[test]
    fn cases_as_xstrings() {
        for (text, snake) in [
            ("FirstName", "first_name"),
            ("HTTPServer", "http_server"),
            ("NoHTTPS", "no_https"),
            ("GO_PATH", "go_path"),
            ("GO PATH", "go_path"),
            ("GO-PATH", "go_path"),
            ("http2xx", "http_2xx"),
            ("HTTP20xOK", "http_20x_ok"),
            ("Duration2m3s", "duration_2m3s"),
            ("Bld4Floor3rd", "bld4_floor_3rd"),
            ("", ""),
            ("ALL", "all"),
            ("_camelCase", "_camel_case"),
            ("a(b)c", "a(b)c"),
        ] {
            assert_eq!(to_lower_words(text, '_'), snake, "{text}");
        }
        assert_eq!(to_lower_words("HTTPServer", '-'), "http-server");
        assert_eq!(to_lower_words("Bld4Floor3rd", '-'), "bld4-floor-3rd");
        for (text, pascal) in [
            ("some_words", "SomeWords"),
            ("http_server", "HttpServer"),
            ("no_https", "NoHttps"),
            ("_complex__case_", "_Complex_Case_"),
            ("some words", "SomeWords"),
            ("GOLANG_IS_GREAT", "GolangIsGreat"),
            ("a", "A"),
            ("__", "___"),
        ] {
            assert_eq!(to_camel(text, true), pascal, "{text}");
        }
    }

    // Go's unicode package: categories and one-rune mappings, not Rust's derived properties.
    #[test]
    fn unicode_as_go() {
        assert!(!is_upper('Ⓐ') && is_upper('A') && is_title('ǅ') && !is_lower('ª'));
        assert!(is_punct('¿') && is_number('½') && is_letter('名') && !is_alphabet('名'));
        assert_eq!(
            (to_upper('ß'), to_upper('ᾀ'), to_lower('İ')),
            ('ß', 'ᾈ', 'i')
        );
        assert_eq!(go_lossy(b"a\xe5\x90b"), "a\u{fffd}\u{fffd}b");
    }
}
