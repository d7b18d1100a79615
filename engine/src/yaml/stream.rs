//! A YAML stream as its documents, each with the line it starts on, and the line breaks Go's
//! reader reads.

use super::go_scan;

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
    for (line_number, line) in (1u64..).zip(stream.split_inclusive('\n')) {
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
    // Each of these breaks starts with one of three bytes in UTF-8 (U+0085 with C2, U+2028 and
    // U+2029 with E2): a text without them, nearly every manifest, is looked at 64 bytes at a
    // time, each block without a branch per byte (which the compiler makes vector compares).
    let may_break = |block: &[u8]| {
        (block.iter()).fold(false, |found, &byte| {
            found | (byte == b'\r') | (byte == 0xC2) | (byte == 0xE2)
        })
    };
    if !text.as_bytes().chunks(64).any(may_break)
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

fn is_marker(line: &str, marker: &str) -> bool {
    line.strip_prefix(marker)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', '\t']))
}
