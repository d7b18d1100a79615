//! Where go-yaml v2's scanner reads a text otherwise than YAML 1.2, which serde-saphyr reads:
//! plain scalars inside flow collections, and line separators inside quoted scalars.
//!
//! libyaml's scanner (go-yaml v2's `scannerc.go`, what kubectl reads with) starts a plain scalar
//! at a `-` that is followed by anything but a blank, and inside a flow collection ends it only
//! at `,` `?` `[` `]` `{` `}` or at a `:` followed by a blank. So in `[tee, -a, -]` the last
//! entry is the string `-`, and in `{prefix: app:, sep: x}` the value is `app:`. YAML 1.2, which
//! serde-saphyr reads, ends a plain scalar at a `:` followed by a flow indicator and never starts
//! one at a `-` followed by one: it refuses the first, and reads `[app:]` as `[{app: null}]`
//! without a word. Each such scalar is single-quoted before the document is read: both are
//! strings to go-yaml (no YAML 1.1 type is spelled `-` or ends in `:`), and quoting moves no
//! line.
//!
//! libyaml reads U+2028 and U+2029 (LS, PS) as line breaks, but a quoted scalar keeps one as the
//! character where it would fold a `\n` (`read_line` copies it, and only a `\n` folds into a
//! space), dropping the white space around it as around any break; YAML 1.2 reads them as
//! ordinary characters. [`line_separators_as_go_reads_them`] makes the text say what libyaml
//! reads.

/// `text` with each plain scalar in a flow collection that go-yaml reads otherwise than YAML
/// 1.2 single-quoted; `None` when there is none (nearly every document: its bytes are looked at
/// once), or when one continues onto another line, which is left to the reader as it is.
pub(super) fn quote_go_flow_scalars(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let suspect = bytes
        .windows(2)
        .any(|pair| matches!(pair, [b'-' | b':', b',' | b']' | b'}']));
    if !suspect {
        return None;
    }
    let mut scanner = Scanner::new(bytes);
    scanner.scan()?;
    if scanner.quotes.is_empty() {
        return None;
    }
    let mut out = String::with_capacity(text.len() + 2 * scanner.quotes.len() + 8);
    let mut copied = 0;
    for (start, end) in scanner.quotes {
        out.push_str(&text[copied..start]);
        out.push('\'');
        out.push_str(&text[start..end].replace('\'', "''"));
        out.push('\'');
        copied = end;
    }
    out.push_str(&text[copied..]);
    Some(out)
}

/// `text` (its CRs already `\n`) with each LS and PS outside quoted scalars a `\n`, as libyaml
/// breaks the line there, and each inside one kept with the blanks around it dropped: in a
/// double-quoted scalar as the escape `\L` or `\P` followed by an escaped line break, which keeps
/// the value and Go's line numbers; in a single-quoted one as the character itself.
pub(super) fn line_separators_as_go_reads_them(text: &str) -> String {
    let mut scanner = Scanner::new(text.as_bytes());
    let quoted = match scanner.scan() {
        Some(()) => scanner.quoted,
        None => Vec::new(),
    };
    let mut out = String::with_capacity(text.len() + 16);
    let mut ranges = quoted.into_iter().peekable();
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        while ranges.next_if(|&(_, end)| end <= at).is_some() {}
        let inside = ranges.peek().filter(|&&(start, _)| start < at);
        match c {
            '\u{85}' => out.push('\n'),
            '\u{2028}' | '\u{2029}' => match inside {
                None => out.push('\n'),
                Some(&(start, _)) => {
                    let double = text.as_bytes()[start] == b'"';
                    let kept = out.trim_end_matches([' ', '\t']);
                    let escaped = double
                        && (kept.len() - kept.trim_end_matches('\\').len()) % 2 == 1
                        && kept.len() == out.len();
                    if escaped {
                        // `\` then the break: an escaped line break, as Go reads it.
                        out.push('\n');
                        continue;
                    }
                    out.truncate(kept.len());
                    while chars
                        .next_if(|&(_, next)| next == ' ' || next == '\t')
                        .is_some()
                    {}
                    if double {
                        out.push_str(if c == '\u{2028}' {
                            "\\L\\\n"
                        } else {
                            "\\P\\\n"
                        });
                    } else {
                        out.push(c);
                    }
                }
            },
            _ => out.push(c),
        }
    }
    out
}

/// The escapes of double-quoted scalars as go-yaml v2 reads them, which are YAML 1.1's and one
/// more: `\'` is a quote to it (YAML has no such escape; serde-saphyr refuses it), so the
/// backslash is dropped; `\/`, which YAML 1.2 added, it refuses ("found unknown escape
/// character"): `Err` with the byte offset of its backslash. `Ok(None)` when nothing changes.
pub(super) fn escapes_as_go_reads_them(text: &str) -> Result<Option<String>, usize> {
    if !text.contains("\\/") && !text.contains("\\'") {
        return Ok(None);
    }
    let bytes = text.as_bytes();
    let mut scanner = Scanner::new(bytes);
    scanner.scan();
    let mut quotes = Vec::new();
    for &(start, end) in scanner
        .quoted
        .iter()
        .filter(|&&(start, _)| bytes[start] == b'"')
    {
        let mut at = start + 1;
        while at + 1 < end {
            match (bytes[at], bytes[at + 1]) {
                (b'\\', b'/') => return Err(at),
                (b'\\', b'\'') => {
                    quotes.push(at);
                    at += 2;
                }
                (b'\\', _) => at += 2,
                _ => at += 1,
            }
        }
    }
    if quotes.is_empty() {
        return Ok(None);
    }
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    for backslash in quotes {
        out.push_str(&text[copied..backslash]);
        copied = backslash + 1;
    }
    out.push_str(&text[copied..]);
    Ok(Some(out))
}

struct Scanner<'a> {
    bytes: &'a [u8],
    at: usize,
    /// How many flow collections are open.
    depth: usize,
    /// Whether what comes next inside a flow collection begins a node.
    entry_start: bool,
    /// Whether the line ended inside a plain scalar of a flow collection.
    plain_continues: bool,
    /// The byte ranges of the plain scalars to quote, in order.
    quotes: Vec<(usize, usize)>,
    /// The byte ranges of the quoted scalars, quotes included, in order.
    quoted: Vec<(usize, usize)>,
}

fn is_blank_or_end(byte: Option<&u8>) -> bool {
    matches!(byte, None | Some(b' ' | b'\t' | b'\n'))
}

fn is_flow_indicator(byte: u8) -> bool {
    matches!(byte, b',' | b'[' | b']' | b'{' | b'}')
}

impl<'a> Scanner<'a> {
    fn new(bytes: &'a [u8]) -> Scanner<'a> {
        Scanner {
            bytes,
            at: 0,
            depth: 0,
            entry_start: false,
            plain_continues: false,
            quotes: Vec::new(),
            quoted: Vec::new(),
        }
    }

    /// Walks the text, block context and flow context alike; `None` when it meets what it
    /// does not follow (a plain scalar of a flow collection that continues onto the next line
    /// and would need quoting).
    fn scan(&mut self) -> Option<()> {
        // The indentation of the line a block scalar opened on, while inside it.
        let mut block_scalar: Option<usize> = None;
        while self.at < self.bytes.len() {
            let line_start = self.at;
            let line_end = (self.bytes[line_start..].iter())
                .position(|&byte| byte == b'\n')
                .map_or(self.bytes.len(), |offset| line_start + offset + 1);
            let content = &self.bytes[line_start..line_end];
            let indent = content.iter().take_while(|&&byte| byte == b' ').count();
            let blank = content.iter().all(u8::is_ascii_whitespace);
            if let Some(opening_indent) = block_scalar {
                if blank || indent > opening_indent {
                    self.at = line_end;
                    continue;
                }
                block_scalar = None;
            }
            if self.scan_line(line_start, line_end, indent)? {
                block_scalar = Some(indent);
            }
            // A quoted scalar may have carried the scan past this line.
            self.at = self.at.max(line_end);
        }
        Some(())
    }

    /// One line from `self.at`; `Some(true)` when a block scalar opens on it.
    fn scan_line(&mut self, line_start: usize, line_end: usize, indent: usize) -> Option<bool> {
        let bytes = self.bytes;
        let mut value_start = true;
        if self.plain_continues {
            self.plain_continues = false;
            let first = line_start + indent;
            if first < line_end && !matches!(bytes[first], b',' | b']' | b'}' | b'#' | b'\n') {
                self.at = first;
                self.plain_scalar(true)?;
            }
        }
        while self.at < line_end {
            let byte = bytes[self.at];
            match byte {
                b' ' | b'\t' | b'\n' | b'\r' => {
                    self.at += 1;
                    continue;
                }
                b'#' if self.at == line_start || matches!(bytes[self.at - 1], b' ' | b'\t') => {
                    return Some(false);
                }
                b'"' | b'\'' => {
                    self.quoted_scalar(byte);
                    value_start = false;
                    self.entry_start = false;
                    continue;
                }
                _ => {}
            }
            if self.depth == 0 {
                match byte {
                    b'[' | b'{' if value_start => {
                        self.depth = 1;
                        self.entry_start = true;
                        self.at += 1;
                    }
                    b'|' | b'>' if value_start => return Some(true),
                    b'-' | b'?' | b':' if is_blank_or_end(bytes.get(self.at + 1)) => {
                        value_start = true;
                        self.at += 1;
                    }
                    _ => {
                        // A plain scalar or key of the block context: to its end on this line.
                        value_start = false;
                        while self.at < line_end
                            && !(bytes[self.at] == b':' && is_blank_or_end(bytes.get(self.at + 1)))
                            && !(bytes[self.at] == b'#' && matches!(bytes[self.at - 1], b' '))
                        {
                            self.at += 1;
                        }
                    }
                }
                continue;
            }
            match byte {
                b'[' | b'{' => {
                    self.depth += 1;
                    self.entry_start = true;
                    self.at += 1;
                }
                b']' | b'}' => {
                    self.depth -= 1;
                    self.entry_start = false;
                    self.at += 1;
                }
                b',' | b'?' | b':' => {
                    self.entry_start = true;
                    self.at += 1;
                }
                b'&' | b'!' | b'*' => {
                    // An anchor, tag or alias: a token to the next blank or indicator.
                    while self.at < line_end
                        && !is_blank_or_end(bytes.get(self.at))
                        && !is_flow_indicator(bytes[self.at])
                    {
                        self.at += 1;
                    }
                }
                _ => self.plain_scalar(false)?,
            }
        }
        Some(false)
    }

    /// A quoted scalar from its opening quote, to just past its closing one (in a later line
    /// if it continues).
    fn quoted_scalar(&mut self, quote: u8) {
        let bytes = self.bytes;
        let start = self.at;
        self.at += 1;
        while self.at < bytes.len() {
            match bytes[self.at] {
                b'\\' if quote == b'"' => self.at += 2,
                b'\'' if quote == b'\'' && bytes.get(self.at + 1) == Some(&b'\'') => self.at += 2,
                byte if byte == quote => {
                    self.at += 1;
                    break;
                }
                _ => self.at += 1,
            }
        }
        self.at = self.at.min(bytes.len());
        self.quoted.push((start, self.at));
    }

    /// A plain scalar of a flow collection from its first byte (or, `continued`, from the
    /// first byte of a line it goes on onto), ended as libyaml ends it; records it for quoting
    /// when YAML 1.2 would read it otherwise.
    fn plain_scalar(&mut self, continued: bool) -> Option<()> {
        let bytes = self.bytes;
        let start = self.at;
        let mut end = start;
        while end < bytes.len() {
            let byte = bytes[end];
            let ends = match byte {
                b',' | b'?' | b'[' | b']' | b'{' | b'}' | b'\n' => true,
                b':' => is_blank_or_end(bytes.get(end + 1)),
                b'#' => matches!(bytes[end - 1], b' ' | b'\t'),
                _ => false,
            };
            if ends {
                break;
            }
            end += 1;
        }
        let scalar = &bytes[start..end];
        let trimmed_end = start + scalar.trim_ascii_end().len();
        let next = bytes.get(end).copied();
        let needs_quotes = matches!(next, Some(b',' | b']' | b'}'))
            && (scalar == b"-" && self.entry_start || scalar.ends_with(b":"));
        if needs_quotes {
            if continued {
                return None;
            }
            self.quotes.push((start, trimmed_end));
        }
        if next == Some(b'\n') {
            self.plain_continues = true;
        }
        self.entry_start = false;
        self.at = end;
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::tests::go_reading;

    fn quoted(text: &str) -> Option<String> {
        quote_go_flow_scalars(text)
    }

    /// go-yaml v2 `scannerc.go`, `yaml_parser_fetch_next_token` (a `-` followed by a non-blank
    /// starts a plain scalar) and `yaml_parser_scan_plain_scalar` (in a flow collection a `:`
    /// ends one only before a blank).
    #[test]
    fn plain_scalars_go_yaml_reads_in_flow_collections_are_quoted() {
        assert_eq!(
            quoted("command: [tee, -a, -]\n").as_deref(),
            Some("command: [tee, -a, '-']\n")
        );
        assert_eq!(
            quoted("x: {prefix: app:, sep: \"-\"}\n").as_deref(),
            Some("x: {prefix: 'app:', sep: \"-\"}\n")
        );
        assert_eq!(quoted("a: [it's:]\n").as_deref(), Some("a: ['it''s:']\n"));
        assert_eq!(quoted("a: {a:}\n").as_deref(), Some("a: {'a:'}\n"));
    }

    #[test]
    fn what_both_read_alike_is_left_as_it_is() {
        for text in [
            "a: b\n",
            "a: [b, c]\n",
            "a: \"[x, -]\"\n",
            "a: '{x: y:}'\n",
            "a: |\n  [tee, -]\n  {app:}\nb: c\n",
            "a: [b] # [c, -]\n",
            "a: x-, y:]\n",
            "a: [- , b]\n",
            "a: [b\n  c:, d]\n",
        ] {
            assert_eq!(quoted(text), None, "{text:?}");
        }
    }

    fn read(text: String) -> Result<serde_json::Value, String> {
        let text = crate::yaml::normalize_line_breaks(text);
        let document = &crate::yaml::split_documents(&text)[0];
        crate::yaml::parse_document(document, "f.yaml").map_err(|error| error.message)
    }

    /// Each case as Go read it (testdata/references/go-yaml/reading.jsonl), read here alike.
    #[test]
    fn flow_scalars_and_line_separators_read_as_go_reads_them() {
        for id in [
            "a lone dash in a flow sequence",
            "a flow value ending in a colon",
            "flow scalars ending in a colon, as keys and in sequences",
            "a line separator and a paragraph separator inside quoted scalars",
        ] {
            let (text, go) = go_reading(id);
            assert_eq!(read(text), Ok(go), "{id}");
        }
    }

    /// go-yaml v2 `yaml_parser_scan_flow_scalar`: its escapes are YAML 1.1's, without `\/`.
    #[test]
    fn an_escaped_slash_is_refused_as_go_refuses_it() {
        let (text, _) = go_reading("an escaped slash in a double-quoted scalar");
        let refused = read(text).unwrap_err();
        assert!(
            refused.contains("unknown escape character `\\/`"),
            "{refused}"
        );
        assert_eq!(
            read("a: '\\/'\nb: \"\\\\/\"\n".to_string()).unwrap()["b"],
            "\\/"
        );
    }

    /// go-yaml v2 `yaml_parser_scan_flow_scalar`: `\'` is a quote in a double-quoted scalar.
    #[test]
    fn an_escaped_single_quote_is_a_quote_as_to_go() {
        let (text, go) = go_reading("an escaped single quote in a double-quoted scalar");
        assert_eq!(read(text), Ok(go));
    }

    /// Outside quoted scalars an LS is a line break to libyaml; inside a double-quoted one it is
    /// kept through an escape, so the lines after it are numbered as Go numbers them.
    #[test]
    fn line_separators_keep_their_lines() {
        assert_eq!(
            line_separators_as_go_reads_them("a: \"x \u{2028} y\"\nb: c\u{2028}d: 'e\u{2029}f'\n"),
            "a: \"x\\L\\\ny\"\nb: c\nd: 'e\u{2029}f'\n"
        );
    }
}
