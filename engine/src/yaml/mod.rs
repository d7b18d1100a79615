//! The one module that reads and writes YAML. Everything else sees `serde_json::Value`.
//!
//! Reading follows Go's YAML 1.1 resolution (what kubectl, Argo CD and Flux use through
//! sigs.k8s.io/yaml): `yes`/`on`/`y` are booleans, `0755` is octal, duplicate keys are rejected.
//! Writing quotes every scalar that a YAML 1.1 or 1.2 reader would take for something other
//! than a string — keys too — and writes multi-line strings as block literals, keeping the
//! template's key order. serde-saphyr does both; serde_yaml 0.9 wrote `on`, `y`, `1_000` and
//! `2024-01-01` bare, which Go reads back as booleans, numbers and dates (serde-yaml#319).
//! `go_marshal` writes YAML as Karmada's own go-yaml v2 does, for the values overriders
//! marshal back into a string field.

mod emit;
mod exact;
mod go_key_order;
pub(crate) mod go_marshal;
mod go_scan;
mod load;
mod messages;
#[cfg(test)]
mod random;
mod read;
#[cfg(test)]
mod repository_fleets;
mod resolve;
mod scalar;
mod stream;
mod weight;

use serde::de::DeserializeOwned;
use serde_json::Value;
use std::collections::BTreeMap;

use crate::diagnostics::{Diagnostic, Origin};
use exact::ExactValue;
pub use load::MAX_NESTING_DEPTH;
pub(crate) use messages::with_field_hint;
use messages::{scan_error_diagnostic, syntax_error_cause, to_diagnostic};
pub(crate) use resolve::{decode_base64, go_json_float};
pub use stream::{DocumentText, normalize_line_breaks, split_documents};
pub(crate) use weight::Weight;

/// Large inputs are fine (a document may hold any number of events and nodes, and a stream
/// any number of documents, since [`split_documents`] parses them one by one), but nesting is
/// capped at [`MAX_NESTING_DEPTH`], and aliases keep serde-saphyr's default limits (50,000
/// aliases, a million replayed or recorded events), which stop a "billion laughs" document
/// within a second.
fn reader_options() -> serde_saphyr::Options {
    serde_saphyr::options! {
        legacy_octal_numbers: true,
        budget: serde_saphyr::budget! {
            max_documents: usize::MAX,
            max_events: usize::MAX,
            max_nodes: usize::MAX,
            max_depth: MAX_NESTING_DEPTH,
            // Past it the parser would stop first, with a message about recursion.
            flow_nesting_limit: MAX_NESTING_DEPTH + 1,
        },
    }
}

/// serde-saphyr's reader, reading what Go's YAML readers read: a quoted scalar whose
/// continuation lines are indented no deeper than its key (a real ConfigMap's continuation
/// lines start at column 0) breaks YAML 1.2's indentation rule, which serde-saphyr enforces and
/// libyaml, go-yaml and kubectl do not. Such a document is read again with those lines
/// indented: a quoted scalar folds its line breaks and drops leading white space, so the value
/// is the same, and so is every line number. The plain scalars of flow collections that the two
/// read otherwise are quoted first ([`go_scan`]).
fn from_yaml<T: DeserializeOwned>(
    text: &str,
    options: serde_saphyr::Options,
) -> Result<T, serde_saphyr::Error> {
    let quoted = go_scan::quote_go_flow_scalars(text);
    let text = quoted.as_deref().unwrap_or(text);
    match serde_saphyr::from_str_with_options(text, options.clone()) {
        Err(error)
            if error
                .to_string()
                .contains("invalid indentation in multiline quoted scalar") =>
        {
            match indent_quoted_continuations(text) {
                Some(indented) => {
                    serde_saphyr::from_str_with_options(&indented, options).map_err(|_| error)
                }
                None => Err(error),
            }
        }
        result => result,
    }
}

/// `text` with every continuation line of a multi-line quoted scalar indented past the line the
/// scalar opens on; `None` when nothing needed it.
fn indent_quoted_continuations(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len() + 64);
    let mut changed = false;
    // Inside a quoted scalar: its quote character and the indentation of its first line.
    let mut open: Option<(char, usize)> = None;
    // Inside a block scalar: the indentation of the line that opened it.
    let mut block: Option<usize> = None;
    for line in text.split_inclusive('\n') {
        let content = line.trim_end_matches(['\n', '\r']);
        let indent = content.len() - content.trim_start_matches(' ').len();
        let blank = content.trim().is_empty();
        if let Some(block_indent) = block {
            if blank || indent > block_indent {
                out.push_str(line);
                continue;
            }
            block = None;
        }
        let mut rest = content;
        if let Some((quote, opening_indent)) = open {
            if !blank && indent <= opening_indent {
                out.extend(std::iter::repeat_n(' ', opening_indent + 1 - indent));
                changed = true;
            }
            match closing_quote(rest, quote) {
                Some(end) => {
                    open = None;
                    rest = &rest[end..];
                }
                None => {
                    out.push_str(line);
                    continue;
                }
            }
        }
        // Scan what is left of the line for scalars that open (and maybe close) on it.
        let offset = content.len() - rest.len();
        let mut at = 0;
        let bytes = rest.as_bytes();
        while at < bytes.len() {
            let byte = bytes[at];
            // `at` walks bytes and may sit inside a multi-byte character, so what comes before
            // it is looked at as bytes: every byte that matters here is ASCII.
            let before = bytes[..at].trim_ascii_end();
            let starts_value = before.is_empty() && offset + at == indent
                || matches!(before.last(), Some(b':' | b'-' | b'?' | b'[' | b'{' | b','))
                || (before.is_empty() && offset == 0);
            match byte {
                b'#' if at == 0 || bytes[at - 1] == b' ' => break,
                b'\'' | b'"' if starts_value => {
                    let quote = char::from(byte);
                    match closing_quote(&rest[at + 1..], quote) {
                        Some(end) => at += 1 + end,
                        None => {
                            open = Some((quote, indent));
                            break;
                        }
                    }
                }
                b'|' | b'>' if starts_value && opens_block_scalar(&rest[at + 1..]) => {
                    block = Some(indent);
                    break;
                }
                _ => at += 1,
            }
        }
        out.push_str(line);
    }
    changed.then_some(out)
}

/// Whether what follows `|` or `>` is a block scalar's header: indicators, then nothing or a
/// comment.
fn opens_block_scalar(after: &str) -> bool {
    let rest = after
        .trim_start_matches(|c: char| c == '+' || c == '-' || c.is_ascii_digit())
        .trim_start();
    rest.is_empty() || rest.starts_with('#')
}

/// Where the quote that closes a scalar lies in `text` (just past it): `''` is a quote inside
/// a single-quoted scalar, a backslash escapes inside a double-quoted one.
fn closing_quote(text: &str, quote: char) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        match (quote, bytes[at]) {
            ('"', b'\\') => at += 2,
            ('\'', b'\'') if bytes.get(at + 1) == Some(&b'\'') => at += 2,
            (_, byte) if char::from(byte) == quote => return Some(at + 1),
            _ => at += 1,
        }
    }
    None
}

/// Parses one document (as returned by [`split_documents`]) into a JSON value as Kubernetes'
/// Go code reads it (see `load`): a template's keys and scalars are what Karmada stores.
pub fn parse_document(document: &DocumentText<'_>, file: &str) -> Result<Value, Diagnostic> {
    if let Some(value) = read::simple_document(document.text) {
        return Ok(value);
    }
    load_document(document, file, TEMPLATE_READING, None)
}

/// How a fleet's documents are read: a key set twice is an error, aliases copy.
const TEMPLATE_READING: load::LoadOptions = load::LoadOptions {
    repeated_keys: load::RepeatedKeys::Refuse,
    aliases: true,
    max_depth: MAX_NESTING_DEPTH,
};

/// [`load::load`] on a document, read again with its quoted scalars' continuation lines
/// indented when the parser refuses them ([`from_yaml`] says why), its errors as diagnostics.
fn load_document(
    document: &DocumentText<'_>,
    file: &str,
    options: load::LoadOptions,
    lines: Option<&mut BTreeMap<String, u64>>,
) -> Result<Value, Diagnostic> {
    load_text(document.text, options, lines).map_err(|error| load_error(error, document, file))
}

fn load_text(
    text: &str,
    options: load::LoadOptions,
    mut lines: Option<&mut BTreeMap<String, u64>>,
) -> Result<Value, load::LoadError> {
    let unescaped = escapes_as_go_reads_them(text)?;
    let text = unescaped.as_deref().unwrap_or(text);
    let quoted = go_scan::quote_go_flow_scalars(text);
    let text = quoted.as_deref().unwrap_or(text);
    match load::load(text, options, lines.as_deref_mut()) {
        Err(load::LoadError::Syntax(error))
            if matches!(
                error.kind(),
                serde_saphyr::granit_parser::ErrorKind::InvalidQuotedScalarIndent
            ) =>
        {
            match indent_quoted_continuations(text) {
                Some(indented) => match load::load(&indented, options, lines) {
                    Err(load::LoadError::Syntax(_)) => Err(load::LoadError::Syntax(error)),
                    other => other,
                },
                None => Err(load::LoadError::Syntax(error)),
            }
        }
        other => other,
    }
}

/// `text` with its double-quoted scalars' escapes as Go's reader reads them
/// ([`go_scan::escapes_as_go_reads_them`]): YAML 1.2's `\/`, which Go refuses, an error.
fn escapes_as_go_reads_them(text: &str) -> Result<Option<String>, load::LoadError> {
    go_scan::escapes_as_go_reads_them(text).map_err(|at| {
        let before = &text[..at];
        let line_start = before.rfind('\n').map_or(0, |newline| newline + 1);
        load::LoadError::At {
            line: before.matches('\n').count() as u64 + 1,
            column: before[line_start..].chars().count() as u64 + 1,
            message: "found unknown escape character `\\/` in a double-quoted scalar: Go's YAML \
                      reader (YAML 1.1, which kubectl and the API server read with) has no such \
                      escape; write `/`"
                .to_string(),
        }
    })
}

/// A document [`load::load`] refused, as a diagnostic at its line in the file. A syntax error
/// is said in serde-saphyr's words, which the messages below build on.
fn load_error(error: load::LoadError, document: &DocumentText<'_>, file: &str) -> Diagnostic {
    let offset = document.first_line - 1;
    let at = |line: u64| Some(Origin::new(file, 0, line + offset));
    match error {
        load::LoadError::Syntax(scan) => {
            match from_yaml::<ExactValue>(document.text, reader_options_without_copies()) {
                Err(error) if !is_a_copy(&error) => to_diagnostic(&error, document, file),
                _ => scan_error_diagnostic(&scan, offset, file),
            }
        }
        load::LoadError::At {
            line,
            column,
            message,
        } => match syntax_error_cause(document.text, offset, line + offset, &message) {
            Some((line, cause)) => Diagnostic::error(Some(Origin::new(file, 0, line)), cause),
            None => Diagnostic::error(at(line), message).at_column(column),
        },
        load::LoadError::Repeated {
            key,
            line,
            column,
            first,
        } => Diagnostic::error(
            at(line),
            format!(
                "duplicate mapping key: {key} (first at line {}); kubectl refuses a key set \
                 twice, and Kubernetes' YAML 1.1 reader spells some keys alike (`on`, `yes` and \
                 `y` are all `true`, `1.0` is `1`)",
                first + offset
            ),
        )
        .at_column(column),
        load::LoadError::Alias { line } => Diagnostic::error(
            at(line),
            "an alias fedrender did not expect here (it weighs every document that may hold \
             one before reading it): this is a bug in fedrender; please report it",
        ),
    }
}

/// Whether a document may hold an alias (or a merge key, which is one): an `&` and a `*` each
/// where a node's properties or an alias can begin, at the start of the text or after white
/// space, `[`, `{`, `,` or `:`. Only such a document can grow beyond its text; `a && b`,
/// `/data/*.txt`, `?a=1&b=2` and `["*"]` need no weighing. [`parse_document_without_aliases`]
/// reads the others, so that an alias this missed is an error, never a copy.
pub(crate) fn may_hold_aliases(text: &str) -> bool {
    let bytes = text.as_bytes();
    let begins_node = |at: usize| {
        at == 0
            || matches!(
                bytes[at - 1],
                b' ' | b'\t' | b'\n' | b'\r' | b'[' | b'{' | b',' | b':'
            )
    };
    let found = |indicator: u8| {
        bytes
            .iter()
            .enumerate()
            .any(|(at, &byte)| byte == indicator && begins_node(at))
    };
    found(b'&') && found(b'*')
}

/// [`parse_document`] for a document [`may_hold_aliases`] says holds no alias: should it hold
/// one after all, it is an error rather than a copy nothing has weighed.
pub(crate) fn parse_document_without_aliases(
    document: &DocumentText<'_>,
    file: &str,
) -> Result<Value, Diagnostic> {
    if let Some(value) = read::simple_document(document.text) {
        return Ok(value);
    }
    load_document(document, file, WITHOUT_ALIASES, None)
}

/// [`TEMPLATE_READING`] with no alias allowed to copy anything.
const WITHOUT_ALIASES: load::LoadOptions = load::LoadOptions {
    repeated_keys: load::RepeatedKeys::Refuse,
    aliases: false,
    max_depth: MAX_NESTING_DEPTH,
};

/// The reader's options with no alias allowed to copy anything.
fn reader_options_without_copies() -> serde_saphyr::Options {
    let mut options = reader_options();
    options.alias_limits.max_total_replayed_events = 0;
    options
}

/// Whether serde-saphyr stopped at an alias because [`reader_options_without_copies`] allows
/// none.
fn is_a_copy(error: &serde_saphyr::Error) -> bool {
    error.to_string().contains("alias replay limit exceeded")
}

/// What a document weighs before it is built ([`Weight`]), read as serde-saphyr reads it (a
/// quoted scalar continued at column 0 included). A document that cannot be weighed has a
/// syntax error: the parser's message, at its line.
pub(crate) fn weigh_document(
    document: &DocumentText<'_>,
    file: &str,
) -> Result<Weight, Diagnostic> {
    // Read as the reader will read it (see `load_text`); a refused escape is reported there.
    let unescaped = go_scan::escapes_as_go_reads_them(document.text)
        .ok()
        .flatten();
    let text = unescaped.as_deref().unwrap_or(document.text);
    let quoted = go_scan::quote_go_flow_scalars(text);
    let text = quoted.as_deref().unwrap_or(text);
    let weighed = match weight::weigh(text, MAX_NESTING_DEPTH) {
        Err(error)
            if matches!(
                error.kind(),
                serde_saphyr::granit_parser::ErrorKind::InvalidQuotedScalarIndent
            ) =>
        {
            match indent_quoted_continuations(text) {
                Some(indented) => weight::weigh(&indented, MAX_NESTING_DEPTH).map_err(|_| error),
                None => Err(error),
            }
        }
        weighed => weighed,
    };
    let offset = document.first_line - 1;
    weighed
        .map(|mut weight| {
            for (_, line) in &mut weight.copies_by_line {
                *line += offset;
            }
            weight
        })
        .map_err(|error| scan_error_diagnostic(&error, offset, file))
}

/// [`parse_document`] for a document [`weigh_document`] could not weigh, which is to say one
/// with a syntax error: serde-saphyr reports it in its own words, and no alias copies anything
/// on the way. Should serde-saphyr stop at an alias first, the document is refused with the
/// weighing's message, `cannot_weigh`.
pub(crate) fn parse_unweighed_document(
    document: &DocumentText<'_>,
    file: &str,
    cannot_weigh: Diagnostic,
) -> Result<Value, Diagnostic> {
    match load_text(document.text, WITHOUT_ALIASES, None) {
        Ok(value) => Ok(value),
        Err(load::LoadError::Alias { .. }) => Err(cannot_weigh),
        Err(error) => Err(load_error(error, document, file)),
    }
}

/// Parses one document straight into a typed struct, so that an unknown field is reported at
/// its own line.
pub(crate) fn parse_typed<T: DeserializeOwned>(
    document: &DocumentText<'_>,
    file: &str,
) -> Result<T, Diagnostic> {
    let unescaped = escapes_as_go_reads_them(document.text)
        .map_err(|error| load_error(error, document, file))?;
    from_yaml(
        unescaped.as_deref().unwrap_or(document.text),
        reader_options(),
    )
    .map_err(|error| to_diagnostic(&error, document, file))
}

/// Parses one document of a Kubernetes API object (a Karmada policy or Cluster) into its typed
/// struct, as strictly as the API server reads it. The API server reads YAML 1.1
/// (sigs.k8s.io/yaml over go-yaml v2): an unquoted `y`, `on`, `no`, `0755` or `1e3` is a
/// boolean or a number to it, so a field typed string that receives one fails validation and
/// the object is never created (a null is dropped instead). fedrender's typed reader would take
/// the text as the string; here such a value is an error that says which value to quote.
pub(crate) fn parse_api_object<T: DeserializeOwned>(
    document: &DocumentText<'_>,
    file: &str,
) -> Result<T, Diagnostic> {
    let unescaped = escapes_as_go_reads_them(document.text)
        .map_err(|error| load_error(error, document, file))?;
    let mut options = reader_options();
    options.no_schema = true;
    match from_yaml(unescaped.as_deref().unwrap_or(document.text), options) {
        Ok(typed) => Ok(typed),
        // A free-form field (an overrider's `value`) is JSON to the API server, which reads the
        // document with YAMLToJSON: an unquoted `n:` or `on:` key there is the key "false" or
        // "true". If the document reads that way into the typed struct, it is what Karmada
        // stores; a key or value that breaks a typed field still fails, at its line.
        Err(error)
            if matches!(
                error.without_snippet(),
                serde_saphyr::Error::QuotingRequired { .. }
            ) =>
        {
            parse_document_as_yaml_to_json(document, file)
                .ok()
                .and_then(|value| serde_json::from_value(value).ok())
                .ok_or_else(|| to_diagnostic(&error, document, file))
        }
        Err(error) => Err(to_diagnostic(&error, document, file)),
    }
}

/// Parses one document as sigs.k8s.io/yaml `YAMLToJSON` reads it (go-yaml v2, not strict): a
/// repeated key keeps its last value, and a key that is not a string is written as Go writes
/// it (`on` and `y` become `"true"`, `0x10` becomes `"16"`, `1.0` becomes `"1"`, a float with
/// float32 precision); a null key is an error, as it is there.
pub fn parse_document_as_yaml_to_json(
    document: &DocumentText<'_>,
    file: &str,
) -> Result<Value, Diagnostic> {
    let options = load::LoadOptions {
        repeated_keys: load::RepeatedKeys::LastWins,
        aliases: true,
        max_depth: MAX_NESTING_DEPTH,
    };
    load_document(document, file, options, None)
}

/// The line of every field of a document: `spec.placement.clusterAffinity.clusterNames[1]` to
/// the file line of that key or list item, so that a message about a field points at it rather
/// than at the document. Empty when the document does not parse.
pub fn field_lines(document: &DocumentText<'_>) -> BTreeMap<String, u64> {
    let mut lines = BTreeMap::new();
    let options = load::LoadOptions {
        repeated_keys: load::RepeatedKeys::LastWins,
        aliases: true,
        max_depth: MAX_NESTING_DEPTH,
    };
    if load_text(document.text, options, Some(&mut lines)).is_err() {
        return BTreeMap::new();
    }
    let offset = document.first_line - 1;
    for line in lines.values_mut() {
        *line += offset;
    }
    lines
}

/// Writes one value as a YAML document (no `---` marker), ending in a newline.
pub fn to_yaml(value: &Value) -> String {
    if let Some(text) = emit::simple_document(value) {
        return text;
    }
    let options = serde_saphyr::ser_options! {
        // Long single-line strings stay on one line: folding them would change nothing for a
        // reader but makes diffs of rendered trees noisy.
        folded_wrap_chars: usize::MAX,
    };
    let written = if holds_tab_led_block(value) {
        serde_saphyr::to_string_with_options(&QuotingTabLedBlocks(value), options)
    } else {
        serde_saphyr::to_string_with_options(value, options)
    };
    let mut text = written.expect("a JSON value always serialises to YAML");
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

/// Whether a string would be written as a literal block that Go's tools cannot take back: its
/// first non-empty line starts with a tab. Go's reader (go-yaml, so kubectl and Argo CD) finds
/// a block's indentation from the spaces before that line and refuses a tab among them ("found a
/// tab character where an indentation space is expected"). An indentation indicator satisfies
/// the reader, but `kubectl kustomize` writes such a block back without it and then fails on
/// its own output, so these strings are written double-quoted, which every reader takes.
fn tab_leads_its_block(text: &str) -> bool {
    text.contains('\n')
        && text
            .split('\n')
            .find(|line| !line.is_empty())
            .is_some_and(|line| line.starts_with('\t'))
}

fn holds_tab_led_block(value: &Value) -> bool {
    match value {
        Value::String(text) => tab_leads_its_block(text),
        Value::Array(items) => items.iter().any(holds_tab_led_block),
        Value::Object(map) => map.values().any(holds_tab_led_block),
        _ => false,
    }
}

/// A value as serde-saphyr writes it, but for the strings [`tab_leads_its_block`] picks,
/// which it double-quotes.
struct QuotingTabLedBlocks<'a>(&'a Value);

impl serde::Serialize for QuotingTabLedBlocks<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        match self.0 {
            Value::String(text) if tab_leads_its_block(text) => {
                serde_saphyr::DoubleQuoted(text.as_str()).serialize(serializer)
            }
            Value::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(&QuotingTabLedBlocks(item))?;
                }
                seq.end()
            }
            Value::Object(entries) => {
                let mut map = serializer.serialize_map(Some(entries.len()))?;
                for (key, value) in entries {
                    map.serialize_entry(key, &QuotingTabLedBlocks(value))?;
                }
                map.end()
            }
            other => other.serialize(serializer),
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::messages::{first_occurrence, unclosed_quote};
    use super::*;

    /// Go's reader refuses a literal block whose first line starts with a tab ("literal block
    /// led by a tab" in go-yaml/reading.jsonl), and `kubectl kustomize` (v5.5.0) fails on its
    /// own output for one written with an indentation indicator; Go reads the double-quoted
    /// texts fedrender writes back to the written values.
    #[test]
    fn a_multi_line_string_led_by_a_tab_is_double_quoted() {
        let (block, refused) = go_reading("literal block led by a tab");
        assert!(
            refused["go_error"]
                .as_str()
                .unwrap()
                .contains("found a tab")
        );
        let value: Value = serde_json::json!({"data": {"Makefile": "\tall: build\n\techo hi\n"}});
        assert_eq!(
            from_yaml::<Value>(&block, reader_options()).unwrap(),
            value,
            "serde-saphyr's block, which Go refuses"
        );
        for id in [
            "tab-led string double-quoted",
            "tab-led strings double-quoted in a sequence",
        ] {
            let (text, go) = go_reading(id);
            assert_eq!(to_yaml(&go), text, "{id}");
        }
        // A block that does not start with a tab is written as before.
        assert_eq!(
            to_yaml(&serde_json::json!({"a": "x\n\ty\n"})),
            "a: |\n  x\n  \ty\n"
        );
    }

    /// The lines go-yaml names for a tab in indentation (go-yaml/reading.jsonl).
    #[test]
    fn a_tab_in_indentation_is_reported_on_its_own_line() {
        for id in [
            "tab opening an indented line",
            "tab opening a line after spaces",
            "tab as the only indentation",
        ] {
            let (text, go) = go_reading(id);
            let go_line: u64 = go["go_error"]
                .as_str()
                .and_then(|error| error.strip_prefix("yaml: line "))
                .and_then(|rest| rest.split(':').next())
                .and_then(|line| line.parse().ok())
                .unwrap();
            let document = &split_documents(&text)[0];
            let error = parse_document(document, "a.yaml").unwrap_err();
            assert_eq!(error.origin.unwrap().line, go_line, "{id}");
        }
    }

    #[test]
    fn a_repeated_key_names_the_line_it_first_appeared_on() {
        let text = "data:\n  a: first\n  nested:\n    a: inner\n  # a: comment\n  a: second\n";
        assert_eq!(first_occurrence(text, 6, 3, "a"), Some(2));
        assert_eq!(first_occurrence(text, 4, 5, "a"), None);
        assert_eq!(
            first_occurrence("x:\n  'a': 1\n  a: 2\n", 3, 3, "a"),
            Some(2)
        );
    }

    /// The recorded case `id` of testdata/references/go-yaml/reading.jsonl: a YAML text and
    /// what sigs.k8s.io/yaml (go-yaml v2, as kubectl reads) made of it, `go` or `go_error`.
    /// testdata/references/README.md says where it came from and how to regenerate it.
    pub(crate) fn go_reading(id: &str) -> (String, Value) {
        let cases = reference(include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../testdata/references/go-yaml/reading.jsonl"
        )));
        let case = cases
            .into_iter()
            .find(|case| case["id"] == id)
            .unwrap_or_else(|| panic!("no case {id:?} in go-yaml/reading.jsonl"));
        let text = case["yaml"].as_str().unwrap().to_string();
        let read = case
            .get("go")
            .cloned()
            .unwrap_or_else(|| json!({"go_error": case["go_error"]}));
        (text, read)
    }

    /// The cases of a reference file: a provenance line, then one case a line.
    fn reference(text: &str) -> Vec<Value> {
        let mut lines = text.lines();
        let header: Value = serde_json::from_str(lines.next().unwrap()).unwrap();
        assert!(header["provenance"]["karmada"].is_string(), "{header}");
        lines
            .map(|line| serde_json::from_str(line).unwrap())
            .collect()
    }

    /// libyaml (kubectl, kustomize, go-yaml) reads a quoted scalar whose continuation lines
    /// start at column 0; YAML 1.2 and serde-saphyr do not. Go's reading of the text is
    /// recorded; `kubectl kustomize` gave the same `first line second line at column 0 third`.
    #[test]
    fn quoted_scalars_continued_at_column_zero_read_as_libyaml_reads_them() {
        let (text, go) = go_reading("quoted scalars continued at column 0");
        let text = text.as_str();
        let value: Value = from_yaml(text, reader_options()).unwrap();
        assert_eq!(value, go);
        let indented = indent_quoted_continuations(text).unwrap();
        assert_eq!(indented.lines().count(), text.lines().count());
        assert!(indented.contains("\n   second line"), "{indented}");
        assert!(indented.contains("\n    'not\n"), "{indented}");
        assert_eq!(indent_quoted_continuations("a: 'one'\nb: \"two\"\n"), None);
    }

    /// The scan for quoted scalars walks bytes; a line holding a multi-byte character before
    /// or after its quotes once cut a `str` inside that character and panicked (issue 48: 8 of
    /// 2,300 random documents). Go's reading of the text is recorded.
    #[test]
    fn quoted_scalars_continued_at_column_zero_beside_non_ascii_text() {
        let (text, go) = go_reading("quoted scalar continued at column 0 beside non-ASCII text");
        assert!(!text.is_ascii());
        let value: Value = from_yaml(&text, reader_options()).unwrap();
        assert_eq!(value, go);
        let documents = split_documents(&text);
        assert_eq!(parse_document(&documents[0], "t.yaml").unwrap(), go);
        // Every byte offset of every line, whatever character it falls in.
        for cut in 0..=text.len() {
            if text.is_char_boundary(cut) {
                indent_quoted_continuations(&text[..cut]);
            }
        }
    }
    use serde_json::json;

    fn read(text: &str) -> Value {
        let documents = split_documents(text);
        assert_eq!(documents.len(), 1, "{text:?}");
        parse_document(&documents[0], "t.yaml").unwrap()
    }

    /// The error of the document that fails to parse, as `line: message`.
    fn syntax_error(text: &str) -> String {
        let failed = split_documents(text)
            .iter()
            .find_map(|document| parse_document(document, "t.yaml").err())
            .expect("a syntax error");
        format!("{}: {}", failed.origin.unwrap().line, failed.message)
    }

    #[test]
    fn every_field_is_found_on_its_line() {
        let text = "a: 1\n---\nkind: PropagationPolicy\nspec:\n  placement:\n    clusterAffinity:\n      clusterNames:\n      - member1\n      - membr2\n  flow: {x: [1, 2]}\n";
        let documents = split_documents(text);
        let lines = field_lines(&documents[1]);
        assert_eq!(lines["kind"], 3);
        assert_eq!(lines["spec.placement"], 5);
        assert_eq!(lines["spec.placement.clusterAffinity.clusterNames"], 7);
        assert_eq!(lines["spec.placement.clusterAffinity.clusterNames[1]"], 9);
        assert_eq!(lines["spec.flow.x[1]"], 10);
        assert!(field_lines(&split_documents("a: [1\n")[0]).is_empty());
    }

    /// The index fits a 2 MiB thread stack (a test's) at the deepest nesting fedrender reads,
    /// even unoptimised (it keeps its own stack), and gives up on deeper documents.
    #[test]
    fn field_lines_fit_a_small_stack_at_their_deepest() {
        let nested = |levels: usize| {
            format!(
                "kind: ConfigMap\nspec: {}1{}\n",
                "[".repeat(levels - 1),
                "]".repeat(levels - 1)
            )
        };
        let within = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || {
                let deepest = nested(MAX_NESTING_DEPTH);
                let too_deep = nested(MAX_NESTING_DEPTH + 1);
                (
                    field_lines(&split_documents(&deepest)[0]).len(),
                    field_lines(&split_documents(&too_deep)[0]).len(),
                )
            })
            .unwrap()
            .join()
            .unwrap();
        assert!(within.0 > MAX_NESTING_DEPTH - 2, "{within:?}");
        assert_eq!(within.1, 0);
    }

    #[test]
    fn a_quote_left_open_is_reported_where_it_was_opened() {
        let text = "a: 1\n---\nkind: ConfigMap\nmetadata:\n  name: \"web\ndata:\n  k: v\n";
        let error = syntax_error(text);
        assert!(
            error.starts_with("5: the double quote opened on this line is not closed"),
            "{error}"
        );
        let single = syntax_error("kind: ConfigMap\nitems:\n- 'it''s\nnext: 1\n");
        assert!(
            single.starts_with("3: the single quote opened on this line is not closed"),
            "{single}"
        );
        assert_eq!(unclosed_quote("  msg: don't stop"), None);
        assert_eq!(unclosed_quote("  msg: \"a \\\" b\""), None);
        assert_eq!(unclosed_quote("  msg: 'it''s'"), None);
    }

    #[test]
    fn a_template_read_as_yaml_is_named_as_one() {
        let error = syntax_error("metadata:\n  name: {{ .Values.name }}\n");
        assert!(error.starts_with("2: "), "{error}");
        assert!(
            error.contains("is a Helm or Go template expression"),
            "{error}"
        );
    }

    #[test]
    fn documents_that_may_hold_aliases_are_told_from_those_that_cannot() {
        for text in [
            "a: &x 1\nb: *x\n",
            "[&a 1, *a]\n",
            "{\"k\":&a 1, \"j\":*a}\n",
            "- &a x\n- *a\n",
            "base: &base {a: 1}\nweb:\n  <<: *base\n",
            "a: !!str &x 1\nb:\t*x\n",
        ] {
            assert!(may_hold_aliases(text), "{text:?}");
        }
        for text in [
            "cmd: a && b\nglob: /data/*.txt\n",
            "url: https://x?a=1&b=2\nverbs: [\"*\"]\nresources: ['*']\n",
            "a: &x 1\n",
            "b: 2 * 3\n",
        ] {
            assert!(!may_hold_aliases(text), "{text:?}");
        }
        // Were one missed, it would be an error, not a copy.
        let documents = split_documents("a: &x [1, 2]\nb: *x\n");
        let error = parse_document_without_aliases(&documents[0], "m.yaml").unwrap_err();
        assert!(
            error.message.contains("a bug in fedrender"),
            "{}",
            error.message
        );
        assert_eq!(
            parse_document_without_aliases(&split_documents("a: [1, 2]\n")[0], "m.yaml").unwrap(),
            json!({"a": [1, 2]})
        );
    }

    /// serde-saphyr places a character YAML does not allow in a block scalar where the scalar
    /// starts.
    #[test]
    fn a_character_yaml_does_not_allow_is_reported_on_its_own_line() {
        let error = syntax_error("data:\n  script: |\n    echo start\n    echo \u{fffe}\n");
        assert!(
            error.starts_with("4: unexpected character: `\\u{fffe}': YAML allows no such"),
            "{error}"
        );
        let quoted = syntax_error("a: 1\nb: \"x\u{7f}\"\n");
        assert!(quoted.starts_with("2: unexpected character"), "{quoted}");
    }

    #[test]
    fn a_tab_is_reported_on_its_own_line() {
        let error = syntax_error("metadata:\n\tname: x\ndata: {}\n");
        assert!(error.starts_with("2: tabs"), "{error}");
    }

    /// Strings that YAML 1.1 (Go's yaml.v2, used by kubectl, Argo CD and Flux) or YAML 1.2
    /// would read as booleans, numbers, nulls, dates or syntax if written bare.
    const AMBIGUOUS_STRINGS: &[&str] = &[
        "on",
        "off",
        "On",
        "OFF",
        "yes",
        "no",
        "Yes",
        "NO",
        "y",
        "n",
        "Y",
        "N",
        "true",
        "True",
        "FALSE",
        "null",
        "Null",
        "NULL",
        "~",
        "",
        "0755",
        "0o17",
        "0x1F",
        "0b101",
        "1_000",
        "1e3",
        "+1",
        "-0",
        ".5",
        "1.",
        "-.inf",
        ".NaN",
        ".inf",
        "12:30",
        "1:20:30",
        "2024-01-01",
        "2024-01-01T10:00:00Z",
        "2001-12-14 21:59:43.10 -5",
        "-",
        "- a",
        "a: b",
        "#x",
        "x #y",
        "@a",
        "`a",
        "'a",
        "\"a",
        "*a",
        "&a",
        "!a",
        "%a",
        "{a}",
        "[a]",
        "a,b",
        "?a",
        "? a",
        " lead",
        "trail ",
        "tab\tx",
        "=",
        "<<",
        "0",
        "010",
        "1:2",
        "---",
        "...",
        "multi\nline",
        "multi\nline\n",
        "  indented\nfirst line\n",
        "trailing blank lines\n\n\n",
        "ünïcödé",
        "emoji 🚀",
        "back\\slash",
        "nul\u{0}byte",
    ];

    /// Every string is written so that Go's reader (sigs.k8s.io/yaml, as kubectl and the API
    /// server read) reads it back as the same string, as a key, a value and a list item, and so
    /// does fedrender's. Go's readings of the documents written are recorded in
    /// testdata/references/go-yaml/written-strings.jsonl. When the writer changes, regenerate
    /// them (testdata/references/README.md): that runs this test with
    /// FEDRENDER_WRITE_YAML_DOCUMENTS naming a file, to which it writes the new documents.
    #[test]
    #[allow(
        clippy::disallowed_methods,
        reason = "a test's regeneration hook: the rendering itself reads no environment and \
                  writes no file"
    )]
    fn strings_are_written_so_go_reads_them_back() {
        let written: Vec<(&str, Value, String)> = AMBIGUOUS_STRINGS
            .iter()
            .map(|s| {
                let value = json!({ *s: *s, "list": [*s] });
                let text = to_yaml(&value);
                (*s, value, text)
            })
            .collect();
        if let Some(path) = std::env::var_os("FEDRENDER_WRITE_YAML_DOCUMENTS") {
            let documents: Vec<Value> = written
                .iter()
                .map(|(s, _, text)| json!({"string": s, "yaml": text}))
                .collect();
            std::fs::write(path, serde_json::to_string(&documents).unwrap()).unwrap();
            return;
        }
        let recorded = reference(include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../testdata/references/go-yaml/written-strings.jsonl"
        )));
        let regenerate = "regenerate Go's readings: testdata/references/README.md";
        assert_eq!(recorded.len(), written.len(), "{regenerate}");
        for ((s, value, text), case) in written.iter().zip(&recorded) {
            assert_eq!(case["string"], *s, "{regenerate}");
            assert_eq!(
                case["yaml"], *text,
                "the writer writes {s:?} otherwise now; {regenerate}"
            );
            assert_eq!(case["go"], *value, "Go reads {s:?} written as:\n{text}");
            assert_eq!(read(text), *value, "{s:?} was written as:\n{text}");
        }
    }

    #[test]
    fn yaml_1_1_spellings_are_quoted_so_go_reads_them_back_as_strings() {
        // Go's YAML 1.1 reader would turn these bare spellings into other types; each must be
        // written quoted (the exact quote style is serde-saphyr's choice).
        for s in [
            "on",
            "off",
            "yes",
            "no",
            "y",
            "n",
            "0755",
            "1_000",
            "2024-01-01",
            "12:30",
        ] {
            let text = to_yaml(&json!({ "k": s }));
            assert!(
                text == format!("k: \"{s}\"\n") || text == format!("k: '{s}'\n"),
                "{s:?} written as {text:?}"
            );
        }
    }

    #[test]
    fn multi_line_strings_are_block_literals_and_key_order_is_kept() {
        let value = json!({ "zeta": 1, "alpha": { "script": "echo a\necho b\n" }, "mid": [true] });
        assert_eq!(
            to_yaml(&value),
            "zeta: 1\nalpha:\n  script: |\n    echo a\n    echo b\nmid:\n- true\n"
        );
    }

    /// `a: yes`, `c: 0755`, `e: 1_000`, ...: what Go read (go-yaml/reading.jsonl).
    #[test]
    fn reading_resolves_scalars_as_go_yaml_1_1_does() {
        let (text, go) = go_reading("YAML 1.1 scalars");
        assert_eq!(read(&text), go);
        assert_eq!(go["c"], 493, "the recorded reading is the YAML 1.1 one");
    }

    /// Each case below is a minimal document the differential run against Go's reader
    /// (testdata/references/differential.py) found read otherwise, or a rule of go-yaml v2's
    /// resolve.go; the expected value or error is what sigs.k8s.io/yaml answered
    /// (go-yaml/reading.jsonl). A template reads to Go's value, or fails where Go fails.
    #[test]
    fn templates_read_as_kubernetes_go_reader_reads_them() {
        for id in [
            "keys as YAMLToJSON spells them",
            "booleans are case-exact",
            "nulls",
            "underscores in numbers",
            "integer forms",
            "float forms",
            "infinity is refused as a value",
            "NaN is refused as a value",
            "infinity and NaN as keys",
            "special floats in other cases are strings",
            "a uint64 key",
            "local and core tags",
            "a timestamp tag",
            "a timestamp tag on no date",
            "a core tag the value does not fit",
            "a binary tag",
            "a merge after an explicit key overwrites it",
            "an explicit key after a merge overwrites it",
            "a merge of a list of maps, the first winning",
            "a merge of an alias to a list",
            "a quoted merge key is a key",
            "a merge key tagged !",
            "NEL, LS and PS end lines",
            "a flow key glued to its colon",
            "a tab leading a block scalar",
            "a tab leading a block scalar with an indentation indicator",
            "YAML 1.1 scalars",
            "key 3.14159265358979",
            "a float key",
        ] {
            let (text, go) = go_reading(id);
            let text = normalize_line_breaks(text);
            let read = parse_document(&split_documents(&text)[0], "t.yaml");
            match go.get("go_error") {
                Some(_) => assert!(
                    read.is_err(),
                    "{id}: Go refuses it, fedrender read {read:?}"
                ),
                None => assert_eq!(read.ok(), Some(go), "{id}"),
            }
        }
        // The same through the YAMLToJSON reading overriders use, where the last key wins.
        let (text, go) = go_reading("keys alike once converted");
        let document = &split_documents(&text)[0];
        assert_eq!(
            parse_document_as_yaml_to_json(document, "t.yaml").unwrap(),
            go
        );
    }

    /// Two keys Go reads as one (`on` and `yes` are both `true`; `1` and `'1'` are both `"1"`
    /// once written as JSON, where which one wins is Go's map order) are refused like a key
    /// written twice: kubectl reads a file strictly and refuses a key set twice, and Go's
    /// non-strict answer (go-yaml/reading.jsonl) is not one to build on.
    #[test]
    fn keys_alike_once_converted_are_a_repeated_key() {
        for (id, line) in [
            ("keys alike once converted", 2),
            ("integer and string keys alike", 2),
        ] {
            let (text, go) = go_reading(id);
            assert!(go.is_object(), "{id}: Go reads one of the values");
            let error = parse_document(&split_documents(&text)[0], "t.yaml").unwrap_err();
            assert!(
                error.message.contains("duplicate mapping key"),
                "{}",
                error.message
            );
            assert!(
                error.message.contains("(first at line 1)"),
                "{}",
                error.message
            );
            assert_eq!(error.origin.unwrap().line, line, "{id}");
        }
    }

    #[test]
    fn duplicate_keys_are_rejected_with_their_line() {
        let documents = split_documents("a: 1\nb:\n  c: 1\n  c: 2\n");
        let error = parse_document(&documents[0], "dup.yaml").unwrap_err();
        assert_eq!(error.origin.unwrap().line, 4);
        assert!(error.message.contains("duplicate"), "{}", error.message);
    }

    #[test]
    fn documents_split_on_markers_with_their_own_lines() {
        let stream = "# header\n---\na: 1\n---\n# only a comment\n---\n\nb: 2\n...\n--- {c: 3}\n";
        let documents = split_documents(stream);
        let lines: Vec<_> = documents.iter().map(|d| d.content_line).collect();
        assert_eq!(lines, vec![3, 8, 10]);
        let values: Vec<_> = documents
            .iter()
            .map(|d| parse_document(d, "s.yaml").unwrap())
            .collect();
        assert_eq!(
            values,
            vec![json!({"a": 1}), json!({"b": 2}), json!({"c": 3})]
        );
    }

    #[test]
    fn a_marker_inside_a_block_scalar_is_indented_and_does_not_split() {
        let documents = split_documents("s: |\n  ---\n  x\nt: 1\n");
        assert_eq!(documents.len(), 1);
        assert_eq!(
            parse_document(&documents[0], "b.yaml").unwrap(),
            json!({"s": "---\nx\n", "t": 1})
        );
    }

    #[test]
    fn errors_in_later_documents_report_the_line_in_the_file() {
        let documents = split_documents("a: 1\n---\nb: [1\nc: 2\n");
        let error = parse_document(&documents[1], "e.yaml").unwrap_err();
        assert_eq!(error.origin.unwrap().line, 4);
    }

    #[test]
    fn crlf_and_lone_cr_are_each_one_line_break() {
        assert_eq!(
            normalize_line_breaks("a\r\nb\rc\nd\r\r\ne\n\r".to_string()),
            "a\nb\nc\nd\n\ne\n\n"
        );
    }

    /// NEL, LS and PS are line breaks wherever they stand (here past the first 64-byte block the
    /// fast path looks at), and the other characters that share their first byte (`¢`, `€`)
    /// are left as they are.
    #[test]
    fn nel_ls_and_ps_are_line_breaks_past_the_first_block_and_their_neighbours_are_not() {
        let padding = "x".repeat(70);
        assert_eq!(
            normalize_line_breaks(format!("{padding}a\u{85}b\u{2028}c\u{2029}d")),
            format!("{padding}a\nb\nc\nd")
        );
        let prices = format!("{padding}a: ¢5 or €5\n");
        assert_eq!(normalize_line_breaks(prices.clone()), prices);
    }

    #[test]
    fn unknown_field_messages_suggest_the_nearest_name() {
        let message = with_field_hint(
            "unknown field `clusterNams`, expected one of clusterNames, exclude".to_string(),
        );
        assert!(
            message.ends_with("did you mean `clusterNames`?"),
            "{message}"
        );
    }

    /// Decodes an OverridePolicy whose first rule's body is `rule`, as a policy file is read.
    fn override_policy(rule: &str) -> Result<crate::api::karmada::OverridePolicy, Diagnostic> {
        let text = format!(
            "apiVersion: policy.karmada.io/v1alpha1\nkind: OverridePolicy\nmetadata:\n  name: p\n\
             spec:\n  overrideRules:\n  - {rule}\n"
        );
        let documents = split_documents(&text);
        parse_api_object(&documents[0], "p.yaml")
    }

    fn rejected(rule: &str) -> String {
        let error = override_policy(rule).unwrap_err();
        assert_eq!(error.origin.as_ref().unwrap().line, 7, "{}", error.message);
        error.message
    }

    // Karmada's CRD types these fields string (pkg/apis/policy/v1alpha1/override_types.go);
    // the API server reads YAML 1.1 through sigs.k8s.io/yaml (go-yaml v2), so an unquoted
    // `y` there is a boolean and the policy fails validation.
    #[test]
    fn label_and_annotation_override_values_must_be_quoted_when_yaml_1_1_reads_another_type() {
        let message =
            rejected("overriders: {labelsOverrider: [{operator: add, value: {team: y}}]}");
        assert!(
            message.starts_with("`team: y`: unquoted, `y` is the boolean true"),
            "{message}"
        );
        assert!(message.ends_with("quote it: team: \"y\""), "{message}");
        let message = rejected(
            "overriders: {annotationsOverrider: [{operator: add, value: {replicas: 0755}}]}",
        );
        assert!(message.contains("`0755` is the number 493"), "{message}");
        let message =
            rejected("overriders: {annotationsOverrider: [{operator: add, value: {note: ~}}]}");
        assert!(message.contains("is null"), "{message}");
        let quoted = override_policy(
            "overriders: {labelsOverrider: [{operator: add, value: {team: \"y\", on-call: 'no'}}]}",
        )
        .unwrap();
        assert_eq!(
            quoted.spec.override_rules[0].overriders.labels_overrider[0].value["team"],
            "y"
        );
    }

    /// An OverridePolicy recorded in go-yaml/reading.jsonl, as fedrender reads it, and the
    /// overriders of its first rule as Go read them.
    fn policy_read_by_go(id: &str) -> (crate::api::karmada::OverridePolicy, Value) {
        let (text, go) = go_reading(id);
        let documents = split_documents(&text);
        let policy = parse_api_object(&documents[0], "p.yaml").unwrap();
        (policy, go["spec"]["overrideRules"][0]["overriders"].clone())
    }

    /// The API server reads a policy with sigs.k8s.io/yaml `YAMLToJSON`, which writes a key
    /// YAML 1.1 reads as a boolean as the string `"true"` or `"false"`: a map of strings (a
    /// labelsOverrider's value) or a free-form value (a plaintext one) then holds that key.
    /// What Go read is recorded (go-yaml/reading.jsonl).
    #[test]
    fn a_map_key_yaml_1_1_reads_as_a_boolean_is_the_string_karmada_stores() {
        let (labels, go) = policy_read_by_go("labelsOverrider value {on: x}");
        let value = &labels.spec.override_rules[0].overriders.labels_overrider[0].value;
        assert_eq!(
            serde_json::to_value(value).unwrap(),
            go["labelsOverrider"][0]["value"]
        );
        assert_eq!(go["labelsOverrider"][0]["value"], json!({"true": "x"}));
        let (free, go) = policy_read_by_go("plaintext value {n: 1.5, a: b}");
        let value = &free.spec.override_rules[0].overriders.plaintext[0].value;
        assert_eq!(value.as_ref(), Some(&go["plaintext"][0]["value"]));
        assert_eq!(go["plaintext"][0]["value"], json!({"false": 1.5, "a": "b"}));
    }

    #[test]
    fn image_and_command_override_values_must_be_quoted() {
        let message = rejected(
            "overriders: {imageOverrider: [{component: Tag, operator: replace, value: 1.25}]}",
        );
        assert!(message.contains("`1.25` is the number 1.25"), "{message}");
        let message = rejected(
            "overriders: {argsOverrider: [{containerName: web, operator: add, value: [--x, off]}]}",
        );
        assert!(message.starts_with("the list item `off`"), "{message}");
        let message = rejected(
            "overriders: {commandOverrider: [{containerName: 1, operator: add, value: [a]}]}",
        );
        assert!(message.contains("`containerName: 1`"), "{message}");
    }

    #[test]
    fn cluster_names_and_selector_values_must_be_quoted() {
        let message = rejected("targetCluster: {clusterNames: [member1, yes]}\n    overriders: {}");
        assert!(message.starts_with("the list item `yes`"), "{message}");
        let message = rejected(
            "targetCluster: {labelSelector: {matchLabels: {tier: 1}}}\n    overriders: {}",
        );
        assert!(message.starts_with("`tier: 1`"), "{message}");
        let message = rejected(
            "targetCluster: {fieldSelector: {matchExpressions: [{key: region, operator: In, values: [n]}]}}\n    overriders: {}",
        );
        assert!(message.contains("`n` is the boolean false"), "{message}");
    }

    // plaintext and fieldOverrider values are apiextensionsv1.JSON: any type is theirs to have,
    // the one Go read (go-yaml/reading.jsonl).
    #[test]
    fn json_typed_values_keep_their_yaml_1_1_types() {
        let (policy, go) = policy_read_by_go("JSON-typed values yes and 0755");
        let overriders = &policy.spec.override_rules[0].overriders;
        assert_eq!(
            overriders.plaintext[0].value.as_ref(),
            Some(&go["plaintext"][0]["value"])
        );
        assert_eq!(
            overriders.field_overrider[0].json[0].value.as_ref(),
            Some(&go["fieldOverrider"][0]["json"][0]["value"])
        );
        assert_eq!(overriders.plaintext[0].value, Some(Value::Bool(true)));
        assert_eq!(
            overriders.field_overrider[0].json[0].value,
            Some(Value::from(493))
        );
    }
}
