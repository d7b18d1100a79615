//! Go's regular expressions (RE2), as the API server matches `pattern` and CEL's `matches`,
//! and what compiling one costs a CEL evaluation.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use regex_syntax::hir::{Class, Hir, HirKind};

use super::value::{Evaluation, Result, error};

/// The most a compiled pattern may hold: about RE2's own limit on a program.
const SIZE_LIMIT: usize = 1 << 20;

pub fn go_regexp(pattern: &str) -> std::result::Result<regex::Regex, String> {
    build(&rewrite(pattern), SIZE_LIMIT)
}

/// Whether `rest` (what follows a `{`) makes a repetition as Go reads one: `n}`, `n,}` or
/// `n,m}`, in digits.
fn begins_repetition(rest: &str) -> bool {
    let Some((inside, _)) = rest.split_once('}') else {
        return false;
    };
    let digits = |text: &str| !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
    match inside.split_once(',') {
        None => digits(inside),
        Some((min, max)) => digits(min) && (max.is_empty() || digits(max)),
    }
}

/// What Go's parser refuses that the crate's takes: a repetition count above 1,000, a
/// repetition of a repetition (`a**`, `a{2}{3}`; a lazy `?` is no repetition), an unknown
/// POSIX class (`[[:foo:]]`).
fn go_only_error(pattern: &str) -> Option<String> {
    const POSIX: [&str; 14] = [
        "alnum", "alpha", "ascii", "blank", "cntrl", "digit", "graph", "lower", "print", "punct",
        "space", "upper", "word", "xdigit",
    ];
    let bytes = pattern.as_bytes();
    let mut at = 0;
    let mut repeated = false;
    while at < bytes.len() {
        match bytes[at] {
            b'\\' => {
                if pattern[at..].starts_with("\\Q") {
                    at = pattern[at..]
                        .find("\\E")
                        .map_or(bytes.len(), |end| at + end + 2);
                } else {
                    at += 2;
                }
                repeated = false;
            }
            b'[' => {
                at += 1;
                if bytes.get(at) == Some(&b'^') {
                    at += 1;
                }
                if bytes.get(at) == Some(&b']') {
                    at += 1;
                }
                while at < bytes.len() && bytes[at] != b']' {
                    if bytes[at] == b'\\' {
                        at += 2;
                        continue;
                    }
                    if pattern[at..].starts_with("[:")
                        && let Some(end) = pattern[at + 2..].find(":]")
                    {
                        let name = &pattern[at + 2..at + 2 + end];
                        if !POSIX.contains(&name.trim_start_matches('^')) {
                            return Some(format!("invalid character class range: `[:{name}:]`"));
                        }
                        at += end + 4;
                        continue;
                    }
                    at += 1;
                }
                at += 1;
                repeated = false;
            }
            b'(' => {
                at += if bytes.get(at + 1) == Some(&b'?') {
                    2
                } else {
                    1
                };
                repeated = false;
            }
            b'*' | b'+' | b'?' => {
                let start = at;
                at += 1;
                if bytes.get(at) == Some(&b'?') {
                    at += 1;
                }
                if repeated {
                    return Some(format!(
                        "invalid nested repetition operator: `{}`",
                        &pattern[start - 1..at]
                    ));
                }
                repeated = true;
            }
            b'{' if begins_repetition(&pattern[at + 1..]) => {
                let end = at + pattern[at..].find('}').unwrap_or(0);
                let counts = &pattern[at + 1..end];
                if counts
                    .split(',')
                    .filter(|count| !count.is_empty())
                    .any(|count| count.parse::<u32>().map_or(true, |count| count > 1000))
                {
                    return Some(format!("invalid repeat count: `{}`", &pattern[at..=end]));
                }
                let start = at;
                at = end + 1;
                if bytes.get(at) == Some(&b'?') {
                    at += 1;
                }
                if repeated {
                    return Some(format!(
                        "invalid nested repetition operator: `{}`",
                        &pattern[start..at]
                    ));
                }
                repeated = true;
            }
            _ => {
                at += pattern[at..].chars().next().map_or(1, char::len_utf8);
                repeated = false;
            }
        }
    }
    None
}

/// What compiling `pattern` builds, in units of cel-go's cost (about a tenth of a
/// microsecond each): read from the parsed pattern, nothing compiled; none when it does not
/// parse.
pub fn go_regexp_cost(pattern: &str) -> Option<u64> {
    compile_cost(&rewrite(pattern))
}

/// Whether `pattern` is a regular expression in Go's syntax, or why not — read, not compiled,
/// so that judging a CRD's patterns costs their length (compiling waits for a value).
pub fn go_regexp_syntax(pattern: &str) -> std::result::Result<(), String> {
    if let Some(error) = go_only_error(pattern) {
        return Err(error);
    }
    regex_syntax::ParserBuilder::new()
        .build()
        .parse(&rewrite(pattern))
        .map(|_| ())
        .map_err(|error| last_line(&error.to_string()))
}

/// The last line of a regex error, which says what is wrong (the lines above it quote the
/// pattern).
fn last_line(error: &str) -> String {
    error
        .lines()
        .last()
        .unwrap_or_default()
        .trim_start_matches("error: ")
        .to_string()
}

/// `pattern` in the regex crate's syntax with Go's meaning.
fn rewrite(pattern: &str) -> String {
    let mut rewritten = String::with_capacity(pattern.len());
    let mut chars = pattern.chars();
    let mut in_class = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let Some(next) = chars.next() else {
                    rewritten.push('\\');
                    break;
                };
                if next == 'Q' {
                    // Go's `\Q…\E` quotes its text literally; the crate has no such escape.
                    let rest = chars.as_str();
                    let (literal, after) = rest.split_once("\\E").unwrap_or((rest, ""));
                    rewritten.push_str(&regex::escape(literal));
                    chars = after.chars();
                    continue;
                }
                let ascii = match (next, in_class) {
                    ('d', false) => Some("[0-9]"),
                    ('D', false) => Some("[^0-9]"),
                    ('w', false) => Some("[0-9A-Za-z_]"),
                    ('W', false) => Some("[^0-9A-Za-z_]"),
                    ('s', false) => Some("[\\t\\n\\x0C\\r ]"),
                    ('S', false) => Some("[^\\t\\n\\x0C\\r ]"),
                    ('b', false) => Some("(?-u:\\b)"),
                    ('B', false) => Some("(?-u:\\B)"),
                    // Inside a class, a negated one nests (the crate takes `[a[^0-9]]`).
                    ('d', true) => Some("0-9"),
                    ('D', true) => Some("[^0-9]"),
                    ('w', true) => Some("0-9A-Za-z_"),
                    ('W', true) => Some("[^0-9A-Za-z_]"),
                    ('s', true) => Some("\\t\\n\\x0C\\r "),
                    ('S', true) => Some("[^\\t\\n\\x0C\\r ]"),
                    _ => None,
                };
                match ascii {
                    Some(text) => rewritten.push_str(text),
                    // Go negates a named class with `^` inside the braces (`\p{^Greek}`), the
                    // crate with the capital letter only.
                    None if matches!(next, 'p' | 'P') && chars.as_str().starts_with("{^") => {
                        rewritten.push('\\');
                        rewritten.push(if next == 'p' { 'P' } else { 'p' });
                        rewritten.push('{');
                        chars.next();
                        chars.next();
                    }
                    None => {
                        rewritten.push('\\');
                        rewritten.push(next);
                        // `\p{Greek}`, `\x{10FFFF}`: the braces are the escape's, no repetition.
                        if matches!(next, 'p' | 'P' | 'x') && chars.as_str().starts_with('{') {
                            let rest = chars.as_str();
                            let end = rest.find('}').map_or(rest.len(), |end| end + 1);
                            rewritten.push_str(&rest[..end]);
                            chars = rest[end..].chars();
                        }
                    }
                }
            }
            '[' if !in_class => {
                in_class = true;
                rewritten.push('[');
                // A `]` or `^]` first in a class is a literal.
                let rest = chars.as_str();
                let literal = if rest.starts_with("^]") {
                    2
                } else if rest.starts_with(']') || rest.starts_with('^') {
                    1
                } else {
                    0
                };
                for _ in 0..literal {
                    if let Some(c) = chars.next() {
                        rewritten.push(c);
                    }
                }
            }
            ']' if in_class => {
                in_class = false;
                rewritten.push(']');
            }
            // The crate reads `&&`, `~~` and `--` in a class as set operations, Go as the
            // characters themselves.
            '&' | '~' if in_class => {
                rewritten.push('\\');
                rewritten.push(c);
            }
            '-' if in_class && chars.as_str().starts_with('-') => {
                rewritten.push_str("\\-");
            }
            // Go reads a `{` that begins no repetition (`a{,3}`, `{x}`) as itself.
            '{' if !in_class && !begins_repetition(chars.as_str()) => rewritten.push_str("\\{"),
            _ => rewritten.push(c),
        }
    }
    rewritten
}

fn build(rewritten: &str, size_limit: usize) -> std::result::Result<regex::Regex, String> {
    regex::RegexBuilder::new(rewritten)
        .size_limit(size_limit)
        .build()
        .map_err(|error| match error {
            regex::Error::CompiledTooBig(_) => "it is too large".to_string(),
            error => last_line(&error.to_string()),
        })
}

/// How much compiling `rewritten` builds, in units of cel-go's cost: the states of its
/// automaton, a class counted by the byte sequences its ranges become in UTF-8 (so `\pL` is
/// hundreds, `[a-z]` one), a bounded repetition by its copies. Counted from the parsed
/// pattern before anything is compiled; none when the pattern does not parse.
fn compile_cost(rewritten: &str) -> Option<u64> {
    let hir = regex_syntax::ParserBuilder::new()
        .build()
        .parse(rewritten)
        .ok()?;
    Some(
        weight(&hir)
            .saturating_mul(COST_PER_STATE)
            .saturating_add(COST_PER_PATTERN),
    )
}

/// Cost units per state: compiling a state takes up to a microsecond (`.{1000}`, 280,000
/// units, compiles in 27 ms on the release build; `\pL+`, 55,980, in 0.7 ms), and a unit of
/// cost about a tenth of that.
const COST_PER_STATE: u64 = 10;

/// What any compilation costs whatever the pattern: some 25 µs even for `[a-c]`.
const COST_PER_PATTERN: u64 = 250;

fn weight(hir: &Hir) -> u64 {
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => 1,
        HirKind::Literal(literal) => literal.0.len() as u64,
        HirKind::Class(Class::Bytes(class)) => class.ranges().len() as u64,
        HirKind::Class(Class::Unicode(class)) => class
            .ranges()
            .iter()
            .map(|range| {
                regex_syntax::utf8::Utf8Sequences::new(range.start(), range.end())
                    .map(|sequence| sequence.len() as u64)
                    .sum::<u64>()
            })
            .sum(),
        HirKind::Repetition(repetition) => {
            let copies = match repetition.max {
                Some(max) => u64::from(max),
                None => u64::from(repetition.min) + 1,
            };
            weight(&repetition.sub).saturating_mul(copies.max(1))
        }
        HirKind::Capture(capture) => weight(&capture.sub).saturating_add(1),
        HirKind::Concat(parts) | HirKind::Alternation(parts) => parts
            .iter()
            .map(weight)
            .fold(parts.len() as u64, u64::saturating_add),
    }
}

thread_local! {
    /// Patterns compiled on this thread, so that a rule run on many objects compiles its
    /// pattern once. Whether a pattern is here changes no cost: each evaluation is charged
    /// for the patterns it uses as if it compiled them.
    static COMPILED: RefCell<HashMap<String, std::result::Result<Rc<regex::Regex>, String>>> =
        RefCell::new(HashMap::new());
}

/// How many compiled patterns a thread keeps: few, since a pattern may come from the object
/// (`self.a.matches(self.b)`) and each may hold up to a megabyte compiled.
const KEPT: usize = 32;

/// How many patterns one evaluation keeps compiled; one that uses more pays again for those
/// it has let go.
const KEPT_PER_EVALUATION: usize = 16;

/// `pattern` compiled for `evaluation`, charged on its first use in the evaluation by what
/// compiling it builds ([`compile_cost`]), before it is compiled; a pattern that would build
/// more than the evaluation has left is not compiled at all.
pub(super) fn compiled(evaluation: &mut Evaluation<'_>, pattern: &str) -> Result<Rc<regex::Regex>> {
    if let Some((_, regex)) = evaluation.patterns.iter().find(|(kept, _)| kept == pattern) {
        return Ok(regex.clone());
    }
    let rewritten = rewrite(pattern);
    let cost = compile_cost(&rewritten).unwrap_or(1);
    evaluation.spend(cost)?;
    let regex = COMPILED.with(|compiled| {
        let mut compiled = compiled.borrow_mut();
        if let Some(regex) = compiled.get(pattern) {
            return regex.clone();
        }
        if compiled.len() >= KEPT {
            compiled.clear();
        }
        let regex = build(&rewritten, SIZE_LIMIT).map(Rc::new);
        compiled.insert(pattern.to_string(), regex.clone());
        regex
    });
    match regex {
        Ok(regex) => {
            if evaluation.patterns.len() >= KEPT_PER_EVALUATION {
                evaluation.patterns.remove(0);
            }
            evaluation
                .patterns
                .push((pattern.to_string(), regex.clone()));
            Ok(regex)
        }
        Err(problem) => error(format!("error parsing regexp: {problem}: `{pattern}`")),
    }
}
