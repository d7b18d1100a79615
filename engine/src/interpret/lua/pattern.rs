//! Lua 5.1's patterns (`string.find`, `string.match`, `string.gmatch`; the reference manual,
//! §5.4.1), matched here rather than by the C library, so that every step counts against the
//! call's instruction budget. In C a backtracking pattern (`(.-)(.-)(.-)x` on a long subject)
//! runs inside one library call, where the budget's hook never fires, and would hang the build.
//!
//! The matcher backtracks as Lua's does, so every match, capture and error is Lua's; it refuses
//! a pattern nesting more than `MAX_DEPTH` items deep, as Lua 5.2 does ("pattern too complex"),
//! where Lua 5.1 would overflow its C stack.

/// One unit of work: a single character tested against a pattern item.
pub trait Budget {
    /// Takes one step; an error (the budget's message) once spent.
    fn step(&mut self) -> Result<(), String>;
}

/// How many captures a pattern may make (LUA_MAXCAPTURES).
pub(crate) const MAX_CAPTURES: usize = 32;
/// How deeply a match may recurse (Lua 5.2's MAXCCALLS).
pub(crate) const MAX_DEPTH: usize = 200;

const ESCAPE: u8 = b'%';
/// Characters that make a pattern more than a plain string (lstrlib.c SPECIALS).
const SPECIALS: &[u8] = b"^$*+?.([%-";

/// A capture as Lua returns it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Capture {
    /// A captured substring.
    Text(Vec<u8>),
    /// A position capture `()`: the 1-based position.
    Position(usize),
}

#[derive(Debug, Clone, Copy)]
enum CaptureLength {
    Open,
    Position,
    Closed(usize),
}

struct Matcher<'a, B: Budget> {
    subject: &'a [u8],
    pattern: &'a [u8],
    captures: Vec<(usize, CaptureLength)>,
    depth: usize,
    budget: &'a mut B,
}

/// A successful match: where it starts and ends (byte offsets, end exclusive), and its captures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// Where the match starts, a byte offset.
    pub start: usize,
    /// Where it ends, a byte offset past its last byte.
    pub end: usize,
    pub(crate) captures: Vec<Capture>,
}

impl Found {
    /// The values `string.match` and `gmatch` return: the captures, or the whole match.
    pub fn values(&self, subject: &[u8]) -> Vec<Capture> {
        if self.captures.is_empty() {
            vec![Capture::Text(subject[self.start..self.end].to_vec())]
        } else {
            self.captures.clone()
        }
    }
}

/// Whether `pattern` needs the matcher, or is found as plain text.
pub fn is_plain(pattern: &[u8]) -> bool {
    !pattern.iter().any(|byte| SPECIALS.contains(byte))
}

/// Finds `needle` in `haystack` from `start`, each comparison a step.
pub(crate) fn find_plain(
    haystack: &[u8],
    needle: &[u8],
    start: usize,
    budget: &mut impl Budget,
) -> Result<Option<usize>, String> {
    if needle.is_empty() {
        return Ok(Some(start.min(haystack.len())));
    }
    let mut at = start;
    while at + needle.len() <= haystack.len() {
        budget.step()?;
        // A first-byte scan, then the rest: each candidate costs as many steps as bytes it
        // compares, so a subject of repeated near-matches is paid for in full.
        match haystack[at..].iter().position(|&byte| byte == needle[0]) {
            None => return Ok(None),
            Some(offset) => at += offset,
        }
        if at + needle.len() > haystack.len() {
            return Ok(None);
        }
        let mut same = true;
        for (a, b) in haystack[at..at + needle.len()].iter().zip(needle) {
            budget.step()?;
            if a != b {
                same = false;
                break;
            }
        }
        if same {
            return Ok(Some(at));
        }
        at += 1;
    }
    Ok(None)
}

/// Matches `pattern` against `subject` starting at each position from `start` on (only at
/// `start` when `anchored`), as `string.find` and `string.match` do.
pub fn find(
    subject: &[u8],
    pattern: &[u8],
    start: usize,
    anchored: bool,
    budget: &mut impl Budget,
) -> Result<Option<Found>, String> {
    let mut at = start;
    loop {
        if let Some(found) = match_at(subject, pattern, at, budget)? {
            return Ok(Some(found));
        }
        at += 1;
        if anchored || at > subject.len() {
            return Ok(None);
        }
    }
}

/// Matches `pattern` (without a leading `^` meaning an anchor) at exactly `at`.
pub(crate) fn match_at(
    subject: &[u8],
    pattern: &[u8],
    at: usize,
    budget: &mut impl Budget,
) -> Result<Option<Found>, String> {
    let mut matcher = Matcher {
        subject,
        pattern,
        captures: Vec::new(),
        depth: 0,
        budget,
    };
    let Some(end) = matcher.do_match(at, 0)? else {
        return Ok(None);
    };
    let captures = matcher
        .captures
        .iter()
        .map(|&(start, length)| match length {
            CaptureLength::Position => Ok(Capture::Position(start + 1)),
            CaptureLength::Closed(length) => {
                Ok(Capture::Text(subject[start..start + length].to_vec()))
            }
            CaptureLength::Open => Err("unfinished capture".to_string()),
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(Some(Found {
        start: at,
        end,
        captures,
    }))
}

impl<B: Budget> Matcher<'_, B> {
    /// lstrlib.c `match`: the end of the match of `pattern[p..]` at `s`, if any.
    fn do_match(&mut self, s: usize, p: usize) -> Result<Option<usize>, String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err("pattern too complex".to_string());
        }
        let result = self.match_here(s, p);
        self.depth -= 1;
        result
    }

    fn match_here(&mut self, mut s: usize, mut p: usize) -> Result<Option<usize>, String> {
        loop {
            self.budget.step()?;
            let Some(&item) = self.pattern.get(p) else {
                return Ok(Some(s));
            };
            match item {
                b'(' => {
                    return if self.pattern.get(p + 1) == Some(&b')') {
                        self.start_capture(s, p + 2, CaptureLength::Position)
                    } else {
                        self.start_capture(s, p + 1, CaptureLength::Open)
                    };
                }
                b')' => return self.end_capture(s, p + 1),
                ESCAPE if self.pattern.get(p + 1) == Some(&b'b') => {
                    match self.balance(s, p + 2)? {
                        Some(end) => {
                            s = end;
                            p += 4;
                            continue;
                        }
                        None => return Ok(None),
                    }
                }
                // No frontier (`%f[set]`): gopher-lua's matcher (pm/pm.go) reads `%f` as
                // the letter f, as any escaped character that names no class.
                ESCAPE if self.pattern.get(p + 1).is_some_and(u8::is_ascii_digit) => {
                    match self.match_capture(s, self.pattern[p + 1])? {
                        Some(end) => {
                            s = end;
                            p += 2;
                            continue;
                        }
                        None => return Ok(None),
                    }
                }
                b'$' if p + 1 == self.pattern.len() => {
                    return Ok((s == self.subject.len()).then_some(s));
                }
                _ => {}
            }
            let end = self.class_end(p)?;
            let matches = s < self.subject.len() && self.single_match(self.subject[s], p, end);
            match self.pattern.get(end) {
                Some(b'?') => {
                    if matches && let Some(found) = self.do_match(s + 1, end + 1)? {
                        return Ok(Some(found));
                    }
                    p = end + 1;
                }
                Some(b'*') => return self.max_expand(s, p, end),
                Some(b'+') => {
                    return if matches {
                        self.max_expand(s + 1, p, end)
                    } else {
                        Ok(None)
                    };
                }
                Some(b'-') => return self.min_expand(s, p, end),
                _ => {
                    if !matches {
                        return Ok(None);
                    }
                    s += 1;
                    p = end;
                }
            }
        }
    }

    /// The end of the single-character item at `p` (a class, a set, an escape, a character).
    fn class_end(&self, mut p: usize) -> Result<usize, String> {
        let item = self.pattern[p];
        p += 1;
        if item == ESCAPE {
            // gopher-lua's matcher reads a `%` that ends the pattern as a class of the end of
            // input, which no character matches (pm/pm.go parseClass): no error.
            return Ok((p + 1).min(self.pattern.len()));
        }
        if item == b'[' {
            if self.pattern.get(p) == Some(&b'^') {
                p += 1;
            }
            // The first character of a set is taken literally, even `]`.
            loop {
                let Some(&byte) = self.pattern.get(p) else {
                    return Err("malformed pattern (missing ']')".to_string());
                };
                p += 1;
                if byte == ESCAPE {
                    if p >= self.pattern.len() {
                        return Err("malformed pattern (missing ']')".to_string());
                    }
                    p += 1;
                }
                if self.pattern.get(p) == Some(&b']') {
                    return Ok(p + 1);
                }
            }
        }
        Ok(p)
    }

    fn single_match(&self, byte: u8, p: usize, end: usize) -> bool {
        match self.pattern[p] {
            b'.' => true,
            ESCAPE => self
                .pattern
                .get(p + 1)
                .is_some_and(|&class| match_class(byte, class)),
            b'[' => self.match_class_set(byte, p, end - 1),
            literal => literal == byte,
        }
    }

    /// lstrlib.c `matchbracketclass`: `pattern[p]` is `[`, `pattern[end]` is `]`.
    fn match_class_set(&self, byte: u8, mut p: usize, end: usize) -> bool {
        let mut found = true;
        if self.pattern.get(p + 1) == Some(&b'^') {
            found = false;
            p += 1;
        }
        p += 1;
        while p < end {
            let item = self.pattern[p];
            if item == ESCAPE {
                p += 1;
                if match_class(byte, self.pattern[p]) {
                    return found;
                }
            } else if self.pattern.get(p + 1) == Some(&b'-') && p + 2 < end {
                if item <= byte && byte <= self.pattern[p + 2] {
                    return found;
                }
                p += 2;
            } else if item == byte {
                return found;
            }
            p += 1;
        }
        !found
    }

    fn max_expand(&mut self, s: usize, p: usize, end: usize) -> Result<Option<usize>, String> {
        let mut count = 0;
        while s + count < self.subject.len() && self.single_match(self.subject[s + count], p, end) {
            self.budget.step()?;
            count += 1;
        }
        loop {
            if let Some(found) = self.do_match(s + count, end + 1)? {
                return Ok(Some(found));
            }
            if count == 0 {
                return Ok(None);
            }
            count -= 1;
        }
    }

    fn min_expand(&mut self, mut s: usize, p: usize, end: usize) -> Result<Option<usize>, String> {
        loop {
            if let Some(found) = self.do_match(s, end + 1)? {
                return Ok(Some(found));
            }
            if s < self.subject.len() && self.single_match(self.subject[s], p, end) {
                s += 1;
            } else {
                return Ok(None);
            }
        }
    }

    fn start_capture(
        &mut self,
        s: usize,
        p: usize,
        length: CaptureLength,
    ) -> Result<Option<usize>, String> {
        if self.captures.len() >= MAX_CAPTURES {
            return Err("too many captures".to_string());
        }
        self.captures.push((s, length));
        let found = self.do_match(s, p)?;
        if found.is_none() {
            self.captures.pop();
        }
        Ok(found)
    }

    fn end_capture(&mut self, s: usize, p: usize) -> Result<Option<usize>, String> {
        let open = self
            .captures
            .iter()
            .rposition(|(_, length)| matches!(length, CaptureLength::Open))
            .ok_or_else(|| "invalid pattern capture".to_string())?;
        let start = self.captures[open].0;
        self.captures[open].1 = CaptureLength::Closed(s - start);
        let found = self.do_match(s, p)?;
        if found.is_none() {
            self.captures[open].1 = CaptureLength::Open;
        }
        Ok(found)
    }

    /// `%bxy` at `p` (pointing at `x`).
    fn balance(&mut self, s: usize, p: usize) -> Result<Option<usize>, String> {
        let (Some(&open), Some(&close)) = (self.pattern.get(p), self.pattern.get(p + 1)) else {
            return Err("unbalanced pattern".to_string());
        };
        if self.subject.get(s) != Some(&open) {
            return Ok(None);
        }
        let mut depth = 1;
        let mut at = s + 1;
        while at < self.subject.len() {
            self.budget.step()?;
            let byte = self.subject[at];
            if byte == close {
                depth -= 1;
                if depth == 0 {
                    return Ok(Some(at + 1));
                }
            } else if byte == open {
                depth += 1;
            }
            at += 1;
        }
        Ok(None)
    }

    /// `%1`..`%9`: the text of a closed capture again.
    fn match_capture(&mut self, s: usize, digit: u8) -> Result<Option<usize>, String> {
        let capture = (digit > b'0')
            .then(|| self.captures.get((digit - b'1') as usize))
            .flatten();
        let (start, length) = match capture {
            Some(&(start, CaptureLength::Closed(length))) => (start, length),
            // Lua compares a position capture's length, -2 as a size_t: never a match.
            Some(&(_, CaptureLength::Position)) => return Ok(None),
            _ => return Err("invalid capture index".to_string()),
        };
        if s + length > self.subject.len() {
            return Ok(None);
        }
        for offset in 0..length {
            self.budget.step()?;
            if self.subject[start + offset] != self.subject[s + offset] {
                return Ok(None);
            }
        }
        Ok(Some(s + length))
    }
}

/// `%a`, `%d`, … (and their complements in upper case) in the C locale; any other character
/// after `%` stands for itself.
fn match_class(byte: u8, class: u8) -> bool {
    let matches = match class.to_ascii_lowercase() {
        b'a' => byte.is_ascii_alphabetic(),
        b'c' => byte.is_ascii_control(),
        b'd' => byte.is_ascii_digit(),
        b'l' => byte.is_ascii_lowercase(),
        b'p' => byte.is_ascii_punctuation(),
        b's' => matches!(byte, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c),
        b'u' => byte.is_ascii_uppercase(),
        b'w' => byte.is_ascii_alphanumeric(),
        b'x' => byte.is_ascii_hexdigit(),
        b'z' => byte == 0,
        _ => return class == byte,
    };
    if class.is_ascii_uppercase() {
        !matches
    } else {
        matches
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Steps(u64);

    impl Budget for Steps {
        fn step(&mut self) -> Result<(), String> {
            self.0 = self.0.checked_sub(1).ok_or("out of steps")?;
            Ok(())
        }
    }

    fn texts(subject: &str, pattern: &str) -> Option<Vec<String>> {
        let (anchored, pattern) = match pattern.strip_prefix('^') {
            Some(rest) => (true, rest),
            None => (false, pattern),
        };
        let found = find(
            subject.as_bytes(),
            pattern.as_bytes(),
            0,
            anchored,
            &mut Steps(1 << 30),
        )
        .unwrap()?;
        Some(
            found
                .values(subject.as_bytes())
                .into_iter()
                .map(|capture| match capture {
                    Capture::Text(text) => String::from_utf8(text).unwrap(),
                    Capture::Position(at) => format!("@{at}"),
                })
                .collect(),
        )
    }

    // The cases of Lua 5.1's test suite (pm.lua) that the library's functions rely on.
    #[test]
    fn patterns_match_as_lua_5_1_does() {
        let cases: &[(&str, &str, Option<&[&str]>)] = &[
            ("hello world", "o w", Some(&["o w"])),
            ("hello world", "^hello", Some(&["hello"])),
            ("aaab", "a*", Some(&["aaa"])),
            ("aaa", "^.-$", Some(&["aaa"])),
            ("aaab", "a-b", Some(&["aaab"])),
            ("aaa", "a?a?a?a?", Some(&["aaa"])),
            (
                "  key = value",
                "(%w+)%s*=%s*(%w+)",
                Some(&["key", "value"]),
            ),
            ("abc", "()b()", Some(&["@2", "@3"])),
            ("f(a(b)c)d", "%b()", Some(&["(a(b)c)"])),
            // gopher-lua has no frontier: `%f` is the letter (pattern-cases.jsonl records it).
            ("THE (quick) fox", "%f[%a]%a+", Some(&["fox"])),
            ("hello hello", "(h%a+) %1", Some(&["hello"])),
            ("x = 10", "[%d]+", Some(&["10"])),
            ("a]b", "[]]", Some(&["]"])),
            ("a-b", "[a%-]+", Some(&["a-"])),
            ("0x1F", "^0x(%x+)$", Some(&["1F"])),
            ("abc", "[^a]", Some(&["b"])),
            ("abc", "d", None),
            ("", "", Some(&[""])),
            ("nginx:1.27", "^(.-):(.*)$", Some(&["nginx", "1.27"])),
            ("cpu: 250m", "(%d+)(%a*)$", Some(&["250", "m"])),
        ];
        for &(subject, pattern, expected) in cases {
            let expected = expected.map(|values| values.iter().map(|v| v.to_string()).collect());
            assert_eq!(
                texts(subject, pattern),
                expected,
                "{subject:?} ~ {pattern:?}"
            );
        }
    }

    #[test]
    fn malformed_patterns_get_luas_messages() {
        for (pattern, message) in [
            ("[a", "malformed pattern (missing ']')"),
            ("(a", "unfinished capture"),
            ("a)", "invalid pattern capture"),
            ("%1", "invalid capture index"),
        ] {
            let error = find(b"a", pattern.as_bytes(), 0, false, &mut Steps(1000)).unwrap_err();
            assert_eq!(error, message, "{pattern}");
        }
        let deep = "(".repeat(100) + "a" + &")".repeat(100);
        assert_eq!(
            find(b"a", deep.as_bytes(), 0, false, &mut Steps(1 << 20)).unwrap_err(),
            "too many captures"
        );
        let complex = "a*".repeat(MAX_DEPTH + 1);
        assert_eq!(
            find(b"", complex.as_bytes(), 0, false, &mut Steps(1 << 20)).unwrap_err(),
            "pattern too complex"
        );
    }

    /// The pattern: in C it runs for hours inside one call.
    #[test]
    fn a_backtracking_pattern_runs_out_of_steps() {
        let subject = "a".repeat(100_000);
        let error = find(
            subject.as_bytes(),
            b"(.-)(.-)(.-)(.-)x",
            0,
            false,
            &mut Steps(10_000_000),
        )
        .unwrap_err();
        assert_eq!(error, "out of steps");
        let near_misses = "a".repeat(1 << 20);
        let needle = "a".repeat(1 << 19) + "b";
        let error = find_plain(
            near_misses.as_bytes(),
            needle.as_bytes(),
            0,
            &mut Steps(10_000_000),
        )
        .unwrap_err();
        assert_eq!(error, "out of steps");
    }

    #[test]
    fn plain_find_finds_the_first_occurrence() {
        let mut steps = Steps(1000);
        assert_eq!(find_plain(b"a.b.c", b".c", 0, &mut steps), Ok(Some(3)));
        assert_eq!(find_plain(b"abc", b"", 2, &mut steps), Ok(Some(2)));
        assert_eq!(find_plain(b"abc", b"d", 0, &mut steps), Ok(None));
        assert!(is_plain(b"a,b") && !is_plain(b"a.b"));
    }
}
