//! A YAML stream as its documents, each with the line it starts on, and the line breaks Go's
//! reader reads.

use super::go_scan;
use crate::text;

/// One `---`-separated document of a YAML stream: its text and where it starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DocumentText<'a> {
    /// The document's text.
    pub text: &'a str,
    /// 1-based line of the first line of `text` in the file.
    pub(crate) first_line: u64,
    /// 1-based line of the first line holding content (not blank, comment, directive or marker).
    pub(crate) content_line: u64,
}

/// Splits a YAML stream into its documents by their `---` / `...` markers.
///
/// YAML forbids a line that starts with `---` or `...` followed by white space inside any
/// scalar (the spec's "c-forbidden" content), so a marker at column 0 always separates
/// documents and the split is exact. Parsing each document on its own gives each one its own
/// line offset, lets documents parse in parallel, and needs no document-count budget.
/// Documents holding nothing but comments are dropped.
pub fn split_documents(stream: &str) -> Vec<DocumentText<'_>> {
    let mut documents = Vec::new();
    let mut start = 0usize;
    let mut first_line = 1u64;
    let mut content_line = None;
    let mut has_marker = false;
    let mut offset = 0usize;
    let mut push = |start: usize, end: usize, first_line: u64, content_line: Option<u64>| {
        if let Some(content_line) = content_line {
            documents.push(DocumentText {
                text: &stream[start..end],
                first_line,
                content_line,
            });
        }
    };
    for (line_number, line) in (1u64..).zip(text::lines_with_breaks(stream)) {
        let bare = line.trim_end_matches(['\n', '\r']);
        let starts_document = is_marker(bare, "---");
        let ends_document = is_marker(bare, "...");
        // A directive such as `%YAML 1.1` belongs to the document its `---` opens, so a
        // marker only closes a chunk that already holds content or a marker of its own.
        if (starts_document && (content_line.is_some() || has_marker)) || ends_document {
            push(start, offset, first_line, content_line);
            content_line = None;
            has_marker = false;
            start = if ends_document {
                offset + line.len()
            } else {
                offset
            };
            first_line = if ends_document {
                line_number + 1
            } else {
                line_number
            };
        }
        has_marker |= starts_document;
        let after_marker = if starts_document { &bare[3..] } else { bare };
        let trimmed = after_marker.trim_start();
        let is_directive = bare.starts_with('%') && !starts_document;
        let is_content = !ends_document && !trimmed.is_empty() && !trimmed.starts_with('#');
        if content_line.is_none() && is_content && !is_directive {
            content_line = Some(line_number);
        }
        offset += line.len();
    }
    push(start, stream.len(), first_line, content_line);
    documents
}

/// The text with every line break written `\n`. YAML reads a CRLF and a lone CR each as one
/// line break and never as content (YAML 1.2 §5.4); Go's reader (libyaml's, YAML 1.1) reads
/// NEL, LS and PS (U+0085, U+2028, U+2029) as line breaks too, so they are written `\n` as
/// well: no line moves, and a plain `a: b` ended by one is `b`. Inside a quoted scalar libyaml
/// keeps an LS or PS as the character, and so does the text (`yaml::go_scan` says how). (In a block
/// scalar libyaml keeps one too; here it is a `\n`.)
pub fn normalize_line_breaks(text: String) -> String {
    if !may_hold_a_break(text.as_bytes())
        || !text.contains(['\r', '\u{85}', '\u{2028}', '\u{2029}'])
    {
        return text;
    }
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    if text.contains(['\u{2028}', '\u{2029}']) {
        return go_scan::line_separators_as_go_reads_them(&text);
    }
    text.replace('\u{85}', "\n")
}

/// Whether `bytes` hold a `\r` or a byte past ASCII, with which each of the other breaks
/// starts in UTF-8 (U+0085 with C2, U+2028 and U+2029 with E2). Every file read comes through
/// here, and nearly none holds either: the bytes are looked at eight at a time, a word's high
/// bits and its bytes equal to `\r` (a zero byte once xored with `\r`s) found without a branch.
fn may_hold_a_break(bytes: &[u8]) -> bool {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGH_BITS: u64 = u64::from_ne_bytes([0x80; 8]);
    const RETURNS: u64 = u64::from_ne_bytes([b'\r'; 8]);
    let mut words = bytes.chunks_exact(8);
    let found = (&mut words).fold(0, |found, word| {
        let word = u64::from_ne_bytes(word.try_into().expect("eight bytes"));
        let returns_zeroed = word ^ RETURNS;
        found
            | (word & HIGH_BITS)
            | (returns_zeroed.wrapping_sub(ONES) & !returns_zeroed & HIGH_BITS)
    });
    found != 0 || (words.remainder().iter()).any(|&byte| byte == b'\r' || !byte.is_ascii())
}

fn is_marker(line: &str, marker: &str) -> bool {
    line.strip_prefix(marker)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', '\t']))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `\r` or a byte past ASCII is found wherever it stands, in texts of every length
    /// around a word's; a text of neither is let through, whatever bytes it holds that the
    /// zero-byte test's borrow could take for a `\r` (`\x0c`, `\x0e`, `\x01`, a NUL).
    #[test]
    fn a_break_is_found_wherever_it_stands() {
        for length in 0..40 {
            let plain: Vec<u8> = (0..length).map(|n| b'a' + (n % 26) as u8).collect();
            assert!(!may_hold_a_break(&plain), "{length}");
            for at in 0..length {
                for byte in [b'\r', 0x85, 0xC2, 0xE2, 0xFF] {
                    let mut text = plain.clone();
                    text[at] = byte;
                    assert!(may_hold_a_break(&text), "{byte:#x} at {at} of {length}");
                }
                for byte in [0x0c, 0x0e, 0x01, 0x00, b'\n', 0x7f] {
                    let mut text = plain.clone();
                    text[at] = byte;
                    assert!(!may_hold_a_break(&text), "{byte:#x} at {at} of {length}");
                }
            }
        }
    }
}
