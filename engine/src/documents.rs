//! Input files and their documents: a file's text as read (line breaks made `\n`, a
//! byte-order mark dropped), split into YAML documents or read as one JSON value, `List` kinds
//! flattened, each document remembering its file, index and line, and decoded into typed
//! structs at the line of the field that is wrong. Text in, documents out: the walk and the
//! tools that read files and hand their text in live in the shell.

use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use rayon::prelude::*;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::api::type_meta;
use crate::bounds::{self, Piece, Verdict};
use crate::diagnostics::{Diagnostic, Origin, Rejected};
use crate::fields::Fields;
use crate::yaml::{self, DocumentText};

/// How a file's text is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// One or more YAML documents, as sigs.k8s.io/yaml reads them.
    Yaml,
    /// One JSON value (a `List` is flattened).
    Json,
}

/// One input file's text, as the shell read it.
#[derive(Debug)]
pub struct SourceFile {
    /// The path as the user will recognise it (input directory joined with the relative path).
    pub path: Arc<str>,
    /// The text, line breaks made `\n` for YAML.
    pub text: String,
    /// Whether it is read as YAML or JSON.
    pub format: Format,
    /// Where each of its objects was written, in their order, where that is another file: a
    /// tool's output whose objects say which file of the fleet they come from (kustomize's
    /// `config.kubernetes.io/origin`). Messages about such an object point there; empty for a
    /// file read as written.
    pub written_at: Vec<Option<Arc<WrittenAt>>>,
}

/// Where an object was written when that is not the file it was read from: the document of a
/// fleet file a tool built it from, with that document's text, for the lines of its fields.
#[derive(Debug, Clone)]
pub struct WrittenAt {
    /// The document, as [`RawDocument::origin`] gives it.
    pub origin: Origin,
    text: Arc<str>,
    first_line: u64,
}

impl SourceFile {
    /// A file as read. YAML text has its line breaks made `\n`: YAML reads a lone CR and a
    /// CRLF each as one line break, and the document splitter and every line number count
    /// `\n`, so a file saved with CR or mixed line endings reads, and reports lines, as its
    /// LF twin does. Nothing else moves: each break stays one break, so every line and column
    /// stays where it was. JSON is kept as it is (CR is white space there, not a break).
    pub fn new(path: Arc<str>, mut text: String, format: Format) -> SourceFile {
        // A byte-order mark says the file is UTF-8, which it must be anyway; kubectl skips it.
        if text.starts_with('\u{feff}') {
            text.drain(..'\u{feff}'.len_utf8());
        }
        let text = match format {
            Format::Yaml => yaml::normalize_line_breaks(text),
            Format::Json => text,
        };
        SourceFile {
            path,
            text,
            format,
            written_at: Vec::new(),
        }
    }
}

/// The most unknown fields of one document named in one run.
pub const UNKNOWN_FIELDS_SHOWN: usize = 20;

/// How the caller reads a file again, by the name it gave it: `None` for one it cannot read as
/// it was read (standard input, a tool's output, a file since gone). Keeping every file's text
/// until the run ends would cost as much memory as the fleet's text; a late message is rare.
#[derive(Clone, Default)]
pub struct Reread(Option<Arc<ReadAgain>>);

/// What reads a file again: its text by its name, if it can.
type ReadAgain = dyn Fn(&str) -> Option<String> + Send + Sync;

impl Reread {
    /// Files are read again with `read`.
    pub fn with(read: impl Fn(&str) -> Option<String> + Send + Sync + 'static) -> Reread {
        Reread(Some(Arc::new(read)))
    }

    pub(crate) fn read(&self, file: &str) -> Option<String> {
        self.0.as_ref().and_then(|read| read(file))
    }
}

impl std::fmt::Debug for Reread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "Reread(with)"
        } else {
            "Reread(none)"
        })
    }
}

/// One object read from a file, as JSON, with enough to parse its text again into a typed
/// struct (policies and clusters), so that an unknown field is reported at its own line.
#[derive(Debug, Clone)]
pub struct RawDocument {
    /// Where the document was written.
    pub origin: Origin,
    /// The document as JSON.
    pub value: Value,
    text: Option<DocumentSpan>,
    /// Where the object was written, when not in the text it was read from.
    written_elsewhere: Option<Arc<WrittenAt>>,
}

#[derive(Debug, Clone)]
struct DocumentSpan {
    file: usize,
    bytes: Range<usize>,
    first_line: u64,
}

/// The format a file's name says (`.yaml`, `.yml`, `.json`); `None` for any other.
pub fn format_of(path: &Path) -> Option<Format> {
    match path.extension()?.to_str()? {
        "yaml" | "yml" => Some(Format::Yaml),
        "json" => Some(Format::Json),
        _ => None,
    }
}

/// Whether the file opens with fedrender's header line. YAML line breaks are `\n` by now, so
/// a rendered file checked out with CRLF line endings is recognised too.
pub fn is_rendered_output(file: &SourceFile) -> bool {
    file.text.starts_with(crate::manifest::HEADER)
}

/// A source that is not a file on disk (standard input), read as YAML.
pub fn source_from_text(name: &str, text: String) -> SourceFile {
    SourceFile::new(name.into(), text, Format::Yaml)
}

/// Points each message about a field of an object read from `source` at the field's own line:
/// `diagnostics` are about objects of this file, each found again by its document and line
/// (objects from a List keep their document's line).
pub(crate) fn locate_fields_in(source: &SourceFile, diagnostics: Vec<&mut Diagnostic>) {
    let (documents, _) = parse_file(0, source);
    // Each document's lines are found once, however many messages are about it: a refused
    // CRD of megabytes has twenty.
    let mut found: Vec<(usize, crate::diagnostics::FieldLines)> = Vec::new();
    for diagnostic in diagnostics {
        let (Some(origin), Some(field)) = (&diagnostic.origin, diagnostic.about().field) else {
            continue;
        };
        let Some(at) = documents.iter().position(|document| {
            document.origin.document == origin.document && document.origin.line == origin.line
        }) else {
            continue;
        };
        let document = &documents[at];
        if !found.iter().any(|(known, _)| *known == at) {
            found.push((at, document.field_lines(std::slice::from_ref(source))));
        }
        let Some((_, lines)) = found.iter().find(|(known, _)| *known == at) else {
            continue;
        };
        let field = origin.field_in_document(&field).into_owned();
        diagnostic.origin = Some(lines.origin(&document.origin, &field));
    }
}

/// Parses every file into documents, in file order. Documents that parse are returned with the
/// errors of those that do not, so that later stages can report their own errors too.
pub fn parse_files(files: &[SourceFile]) -> (Vec<RawDocument>, Vec<Diagnostic>) {
    parse_files_at(files, 0)
}

/// [`parse_files`] for files that will sit at `first_index` and after in the list every stage
/// receives (a document remembers its file by its index there).
///
/// The files are split into documents and the documents that may grow beyond their text are
/// weighed, in parallel; then every document is admitted or refused in file order, so that
/// what aliases copy is bounded per file and per call (all the fleet's files, or all that its
/// tools print) and the same input passes or fails alike whatever the thread count
/// ([`bounds::admit`]); then the documents admitted are parsed, in parallel.
pub(crate) fn parse_files_at(
    files: &[SourceFile],
    first_index: usize,
) -> (Vec<RawDocument>, Vec<Diagnostic>) {
    let mut documents = Vec::new();
    let mut errors = Vec::new();
    for (mut file_documents, mut file_errors) in parse_each_file_at(files, first_index) {
        documents.append(&mut file_documents);
        errors.append(&mut file_errors);
    }
    (documents, errors)
}

/// [`parse_files_at`], each file's documents and errors apart (weighed together, as one run).
pub(crate) fn parse_each_file_at(
    files: &[SourceFile],
    first_index: usize,
) -> Vec<(Vec<RawDocument>, Vec<Diagnostic>)> {
    let weighed: Vec<(&str, Vec<Piece<'_>>)> = files
        .par_iter()
        .map(|file| (&*file.path, weigh_file(file)))
        .collect();
    let verdicts = bounds::admit(&weighed);
    let per_file: Vec<(Vec<RawDocument>, Vec<Diagnostic>)> = files
        .par_iter()
        .zip(weighed)
        .zip(verdicts)
        .enumerate()
        .map(|(index, ((file, (_, pieces)), verdicts))| {
            parse_pieces(first_index + index, file, pieces, verdicts)
        })
        .collect();
    per_file
}

/// One file on its own: [`parse_files_at`] for a file read again.
fn parse_file(index: usize, file: &SourceFile) -> (Vec<RawDocument>, Vec<Diagnostic>) {
    let weighed = vec![(&*file.path, weigh_file(file))];
    let verdicts = bounds::admit(&weighed).remove(0);
    let (_, pieces) = weighed.into_iter().next().expect("one file");
    parse_pieces(index, file, pieces, verdicts)
}

/// The file's documents (a JSON file is one), each weighed when it may grow beyond its text.
fn weigh_file(file: &SourceFile) -> Vec<Piece<'_>> {
    match file.format {
        Format::Json => {
            let document = DocumentText {
                text: &file.text,
                first_line: 1,
                content_line: 1,
            };
            let weight = bounds::needs_weighing(&file.text, false)
                .then(|| bounds::weigh_json(&file.text, &file.path));
            vec![Piece { document, weight }]
        }
        Format::Yaml => yaml::split_documents(&file.text)
            .into_iter()
            .map(|document| {
                let weight = bounds::needs_weighing(document.text, true)
                    .then(|| yaml::weigh_document(&document, &file.path));
                Piece { document, weight }
            })
            .collect(),
    }
}

fn parse_pieces(
    index: usize,
    file: &SourceFile,
    pieces: Vec<Piece<'_>>,
    verdicts: Vec<Verdict>,
) -> (Vec<RawDocument>, Vec<Diagnostic>) {
    let mut documents = Vec::new();
    let mut errors = Vec::new();
    for (position, (piece, verdict)) in pieces.into_iter().zip(verdicts).enumerate() {
        let document = piece.document;
        let measure = match verdict {
            Verdict::Parse { measure } | Verdict::ParseUnweighed { measure, .. } => measure,
            Verdict::Refuse(_) => false,
        };
        let parsed = match (file.format, verdict) {
            (_, Verdict::Refuse(error)) => Err(error),
            (Format::Json, _) => strict_json(&file.text)
                .map(|StrictJson(value)| value)
                .map_err(|error| json_error(&error, &file.path)),
            (Format::Yaml, Verdict::ParseUnweighed { cannot_weigh, .. }) => {
                yaml::parse_unweighed_document(&document, &file.path, cannot_weigh)
            }
            (Format::Yaml, Verdict::Parse { .. }) if piece.weight.is_some() => {
                yaml::parse_document(&document, &file.path)
            }
            (Format::Yaml, Verdict::Parse { .. }) => {
                yaml::parse_document_without_aliases(&document, &file.path)
            }
        };
        let value = match parsed {
            Ok(Value::Null) => continue,
            Ok(value) => value,
            Err(error) => {
                errors.push(error);
                continue;
            }
        };
        let start = document.text.as_ptr() as usize - file.text.as_ptr() as usize;
        let mut objects = Vec::new();
        let mut refused = Vec::new();
        flatten_lists(
            value,
            Origin::new(file.path.clone(), position, document.content_line),
            Some(DocumentSpan {
                file: index,
                bytes: start..start + document.text.len(),
                first_line: document.first_line,
            }),
            "",
            &mut objects,
            &mut refused,
        );
        if !refused.is_empty() {
            // Each at the line of its field; a JSON file's objects are reported at its first.
            let lines = match file.format {
                Format::Yaml => yaml::field_lines(&document),
                Format::Json => Default::default(),
            };
            errors.extend(refused.into_iter().map(|(field, problem)| {
                let line = lines.get(&field).copied().unwrap_or(document.content_line);
                Diagnostic::error(
                    Some(Origin::new(file.path.clone(), position, line)),
                    problem,
                )
            }));
        }
        if measure {
            objects.retain(|object| {
                let size = bounds::json_size(&object.value);
                let fits = size <= bounds::MAX_OBJECT_BYTES;
                if !fits {
                    errors.push(Diagnostic::error(
                        Some(object.origin.clone()),
                        bounds::too_large(size, false),
                    ));
                }
                fits
            });
        }
        documents.append(&mut objects);
    }
    // Document indices count objects, List items included, in file order.
    for (position, document) in documents.iter_mut().enumerate() {
        document.origin.document = position;
        // An object written elsewhere is reported there: its fields are found in that file's
        // text (read again for the message), not in this one's.
        if let Some(Some(written)) = file.written_at.get(position) {
            document.origin = written.origin.clone();
            document.text = None;
            document.written_elsewhere = Some(written.clone());
        }
    }
    (documents, errors)
}

/// Parses a JSON file; nesting is capped by [`StrictJson`] itself, so serde_json's own
/// recursion limit (128), which is below fedrender's, is lifted.
fn strict_json(text: &str) -> Result<StrictJson, serde_json::Error> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    deserializer.disable_recursion_limit();
    let value = serde::Deserialize::deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok(value)
}

/// A JSON value whose objects have unique keys: serde_json keeps the last of duplicate keys,
/// YAML input rejects them, and JSON input must not differ. Nesting is capped as in YAML
/// ([`yaml::MAX_NESTING_DEPTH`]).
struct StrictJson(Value);

impl<'de> serde::Deserialize<'de> for StrictJson {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::DeserializeSeed;
        StrictJsonVisitor {
            levels_left: yaml::MAX_NESTING_DEPTH,
        }
        .deserialize(deserializer)
        .map(StrictJson)
    }
}

/// Reads one value that may open `levels_left` more lists or maps.
#[derive(Clone, Copy)]
struct StrictJsonVisitor {
    levels_left: usize,
}

impl StrictJsonVisitor {
    /// The visitor for the values inside a list or map being opened here.
    fn inside<E: serde::de::Error>(self) -> Result<Self, E> {
        match self.levels_left.checked_sub(1) {
            Some(levels_left) => Ok(StrictJsonVisitor { levels_left }),
            None => Err(E::custom(format!(
                "lists and maps nest deeper than {} levels",
                yaml::MAX_NESTING_DEPTH
            ))),
        }
    }
}

impl<'de> serde::de::DeserializeSeed<'de> for StrictJsonVisitor {
    type Value = Value;

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for StrictJsonVisitor {
    type Value = Value;

    fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("a JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Value, E> {
        Ok(Value::Bool(value))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Value, E> {
        Ok(Value::from(value))
    }

    fn visit_u64<E>(self, value: u64) -> Result<Value, E> {
        Ok(Value::from(value))
    }

    fn visit_f64<E>(self, value: f64) -> Result<Value, E> {
        Ok(Value::from(value))
    }

    fn visit_str<E>(self, value: &str) -> Result<Value, E> {
        Ok(Value::from(value))
    }

    fn visit_string<E>(self, value: String) -> Result<Value, E> {
        Ok(Value::String(value))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut sequence: A) -> Result<Value, A::Error> {
        let inside = self.inside()?;
        let mut items = Vec::new();
        while let Some(item) = sequence.next_element_seed(inside)? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let inside = self.inside()?;
        let mut object = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                return Err(serde::de::Error::custom(format!("duplicate key {key:?}")));
            }
            let value = map.next_value_seed(inside)?;
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

/// `kind: List` (and any `…List` with `items`, as kubectl reads them) becomes its items. An
/// object whose `kind` or `apiVersion` no API server could serve is left out, and the field
/// that says so goes to `refused`, by its path in the document (`items[2].kind`), with why.
fn flatten_lists(
    value: Value,
    origin: Origin,
    text: Option<DocumentSpan>,
    path: &str,
    out: &mut Vec<RawDocument>,
    refused: &mut Vec<(String, String)>,
) {
    if let Some((field, problem)) = type_problem(&value) {
        refused.push((format!("{path}{field}"), problem));
        return;
    }
    let is_list = value
        .field("kind")
        .and_then(Value::as_str)
        .is_some_and(|kind| kind.ends_with("List"))
        && value.field("items").is_some_and(Value::is_array);
    if !is_list {
        out.push(RawDocument {
            origin,
            value,
            text,
            written_elsewhere: None,
        });
        return;
    }
    let Value::Object(mut list) = value else {
        unreachable!("a List with items is an object")
    };
    if let Some(Value::Array(items)) = list.remove("items") {
        for (index, item) in items.into_iter().enumerate() {
            let item_path = format!("{path}items[{index}].");
            flatten_lists(item, origin.clone(), None, &item_path, out, refused);
        }
    }
}

/// The field of an object whose `kind` or `apiVersion` is not one the API server could serve
/// ([`type_meta`]), with why; a field that is missing, empty or not a string is classifying's
/// to report.
fn type_problem(value: &Value) -> Option<(&'static str, String)> {
    let field = |name: &str| {
        value
            .get(name)
            .and_then(Value::as_str)
            .filter(|text| !text.is_empty())
    };
    if let Some(kind) = field("kind")
        && let Some(problem) = type_meta::kind_problem(kind)
    {
        return Some((
            "kind",
            format!(
                "kind {} is not a kind the Kubernetes API server can serve: {problem}",
                type_meta::shown(kind)
            ),
        ));
    }
    if let Some(api_version) = field("apiVersion")
        && let Some(problem) = type_meta::api_version_problem(api_version)
    {
        return Some((
            "apiVersion",
            format!(
                "apiVersion {} is not one the Kubernetes API server can serve: {problem}",
                type_meta::shown(api_version)
            ),
        ));
    }
    None
}

impl RawDocument {
    /// Parses the document again into a typed struct. From the text when there is one, so
    /// errors point at the offending line; List items fall back to the parsed value.
    pub fn decode<T: DeserializeOwned>(&self, files: &[SourceFile]) -> Result<T, Diagnostic> {
        self.decode_with(files, yaml::parse_typed)
    }

    /// [`decode`](Self::decode) for a Kubernetes API object (a Karmada policy or Cluster), read as
    /// strictly as the API server reads YAML: a string field given an unquoted scalar that
    /// YAML 1.1 reads as a boolean, a number or null is an error (`yaml::parse_api_object`).
    /// JSON input and List items already keep their types, so a string field given a boolean
    /// or a number fails there too.
    /// The line of each field, for messages about one; empty for JSON, whose objects are
    /// reported at their first line.
    pub fn field_lines(&self, files: &[SourceFile]) -> crate::diagnostics::FieldLines {
        if let Some(written) = &self.written_elsewhere {
            let document = DocumentText {
                text: &written.text,
                first_line: written.first_line,
                content_line: written.origin.line,
            };
            return crate::diagnostics::FieldLines::new(yaml::field_lines(&document));
        }
        let Some(span) = &self.text else {
            return crate::diagnostics::FieldLines::default();
        };
        let file = &files[span.file];
        if file.format != Format::Yaml {
            return crate::diagnostics::FieldLines::default();
        }
        let document = DocumentText {
            text: &file.text[span.bytes.clone()],
            first_line: span.first_line,
            content_line: self.origin.line,
        };
        crate::diagnostics::FieldLines::new(yaml::field_lines(&document))
    }

    /// Decoding's `error` and, when it is an unknown field, every other unknown field of the
    /// document beside it, each at its line and after `prefix`: one run names every misspelt
    /// field, as the API server's strict decoding does (at most [`UNKNOWN_FIELDS_SHOWN`]).
    pub fn with_every_unknown_field<T: DeserializeOwned>(
        &self,
        files: &[SourceFile],
        error: Diagnostic,
        prefix: &str,
    ) -> Rejected {
        let unknown_field = error
            .message
            .strip_prefix(prefix)
            .unwrap_or(&error.message)
            .starts_with("unknown field `");
        let mut errors = vec![error];
        if unknown_field {
            for (origin, message) in self.more_unknown_fields::<T>(files, UNKNOWN_FIELDS_SHOWN) {
                errors.push(Diagnostic::error(
                    Some(origin),
                    format!("{prefix}{}", yaml::with_field_hint(message)),
                ));
            }
            // Decoding finds them in the order of the type's fields; a reader fixes them top down.
            errors.sort_by_key(|error| error.origin.as_ref().map(|origin| origin.line));
        }
        Rejected::from(errors)
    }

    /// Where this document is, with its text, for an object of another file that was built
    /// from it (see [`SourceFile::written_at`]); `None` for a document of a JSON file or a
    /// List's item, whose fields have no lines of their own.
    pub fn written_at(&self, files: &[SourceFile]) -> Option<WrittenAt> {
        let span = self.text.as_ref()?;
        let file = &files[span.file];
        (file.format == Format::Yaml).then(|| WrittenAt {
            origin: self.origin.clone(),
            text: Arc::from(&file.text[span.bytes.clone()]),
            first_line: span.first_line,
        })
    }

    /// The unknown fields of the document past the first, which decoding reports alone: each
    /// at its line, with its message (`unknown field `x`, expected one of …`), so that one run
    /// names every misspelt field of a document as the API server's strict decoding does. At
    /// most `limit`; empty when the first error is not an unknown field.
    pub(crate) fn more_unknown_fields<T: DeserializeOwned>(
        &self,
        files: &[SourceFile],
        limit: usize,
    ) -> Vec<(Origin, String)> {
        let lines = self.field_lines(files);
        let mut value = self.value.clone();
        let mut found = Vec::new();
        // The first is the one decoding reported; each found is taken out and decoding tried
        // again, so the next one shows.
        while found.len() <= limit {
            let error = match serde_path_to_error::deserialize::<_, T>(&value) {
                Ok(_) => break,
                Err(error) => error,
            };
            // serde_json quotes the expected names; the YAML reader's first message does not.
            let message = match error.inner().to_string().split_once(", expected ") {
                Some((head, expected)) => format!("{head}, expected {}", expected.replace('`', "")),
                None => error.inner().to_string(),
            };
            let Some(name) = message
                .strip_prefix("unknown field `")
                .and_then(|rest| rest.split_once('`'))
                .map(|(name, _)| name.to_string())
            else {
                break;
            };
            let mut field = String::new();
            let mut node = &mut value;
            // The path ends at the unknown field itself.
            let mut segments: Vec<&serde_path_to_error::Segment> = error.path().iter().collect();
            if matches!(segments.last(), Some(serde_path_to_error::Segment::Map { key }) if *key == name)
            {
                segments.pop();
            }
            for segment in segments {
                let next = match segment {
                    serde_path_to_error::Segment::Map { key } => {
                        if !field.is_empty() {
                            field.push('.');
                        }
                        field.push_str(key);
                        node.get_mut(key.as_str())
                    }
                    serde_path_to_error::Segment::Seq { index } => {
                        field.push_str(&format!("[{index}]"));
                        node.get_mut(*index)
                    }
                    _ => None,
                };
                match next {
                    Some(next) => node = next,
                    None => return skip_first(found),
                }
            }
            let Some(object) = node.as_object_mut() else {
                break;
            };
            if object.remove(&name).is_none() {
                break;
            }
            if !field.is_empty() {
                field.push('.');
            }
            field.push_str(&name);
            found.push((lines.origin(&self.origin, &field), message));
        }
        skip_first(found)
    }

    pub(crate) fn decode_api_object<T: DeserializeOwned>(
        &self,
        files: &[SourceFile],
    ) -> Result<T, Diagnostic> {
        self.decode_with(files, yaml::parse_api_object)
    }

    fn decode_with<T: DeserializeOwned>(
        &self,
        files: &[SourceFile],
        parse_yaml: fn(&DocumentText<'_>, &str) -> Result<T, Diagnostic>,
    ) -> Result<T, Diagnostic> {
        let Some(span) = &self.text else {
            return serde_json::from_value(self.value.clone()).map_err(|error| {
                Diagnostic::error(
                    Some(self.origin.clone()),
                    yaml::with_field_hint(error.to_string()),
                )
            });
        };
        let file = &files[span.file];
        let text = &file.text[span.bytes.clone()];
        match file.format {
            Format::Json => {
                serde_json::from_str(text).map_err(|error| json_error(&error, &file.path))
            }
            Format::Yaml => {
                let content_line = self.origin.line;
                let document = DocumentText {
                    text,
                    first_line: span.first_line,
                    content_line,
                };
                parse_yaml(&document, &file.path).map_err(|mut error| {
                    if let Some(origin) = &mut error.origin {
                        origin.document = self.origin.document;
                    }
                    error
                })
            }
        }
    }
}

/// What [`RawDocument::more_unknown_fields`] found, without the first, already reported.
fn skip_first(mut found: Vec<(Origin, String)>) -> Vec<(Origin, String)> {
    if !found.is_empty() {
        found.remove(0);
    }
    found
}

fn json_error(error: &serde_json::Error, file: &Arc<str>) -> Diagnostic {
    let message = error.to_string();
    let message = match message.rfind(" at line ") {
        Some(at) => message[..at].to_string(),
        None => message,
    };
    Diagnostic::error(
        Some(Origin::new(file.clone(), 0, error.line() as u64)),
        yaml::with_field_hint(message),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostics::Rejected;
    use serde_json::json;

    fn load(name: &str, text: &str) -> Result<Vec<RawDocument>, Rejected> {
        let format = format_of(Path::new(name)).unwrap();
        let (documents, errors) =
            parse_files(&[SourceFile::new(name.into(), text.to_string(), format)]);
        if errors.is_empty() {
            Ok(documents)
        } else {
            Err(errors.into())
        }
    }

    #[test]
    fn lists_are_flattened_and_documents_numbered() {
        let documents = load(
            "a.yaml",
            "apiVersion: v1\nkind: List\nitems:\n- {kind: A}\n- {kind: B}\n---\nkind: C\n",
        )
        .unwrap();
        let kinds: Vec<_> = documents.iter().map(|d| d.value["kind"].clone()).collect();
        assert_eq!(kinds, vec![json!("A"), json!("B"), json!("C")]);
        let positions: Vec<_> = documents
            .iter()
            .map(|d| (d.origin.document, d.origin.line))
            .collect();
        assert_eq!(positions, vec![(0, 1), (1, 1), (2, 7)]);
    }

    #[test]
    fn json_files_are_one_document_with_json_errors_located() {
        let documents = load("a.json", "{\"kind\": \"A\"}").unwrap();
        assert_eq!(documents[0].value, json!({"kind": "A"}));
        let error = load("b.json", "{\n\"kind\": \n}").unwrap_err();
        assert_eq!(error.errors[0].origin.as_ref().unwrap().line, 3);
    }

    #[test]
    fn json_rejects_duplicate_keys_as_yaml_does() {
        let error = load("d.json", "{\"data\": {\"k\": \"one\", \"k\": \"two\"}}").unwrap_err();
        assert!(
            error.errors[0].message.contains("duplicate key \"k\""),
            "{error}"
        );
        let error = load("d.yaml", "data:\n  k: one\n  k: two\n").unwrap_err();
        assert!(
            error.errors[0]
                .message
                .starts_with("duplicate mapping key: k"),
            "{error}"
        );
        assert!(
            !error.errors[0].message.contains("DuplicateKeyPolicy"),
            "{error}"
        );
    }

    /// Both formats accept the same nesting, up to serde-saphyr's depth budget; JSON needs its
    /// own count because serde_json's recursion limit is 128.
    #[test]
    fn yaml_and_json_nest_equally_deep() {
        let depth = yaml::MAX_NESTING_DEPTH;
        let nested = |levels: usize| format!("{}1{}", "[".repeat(levels), "]".repeat(levels));
        for name in ["n.yaml", "n.json"] {
            let documents = load(name, &format!("{{\"kind\": {}}}", nested(depth - 1)))
                .unwrap_or_else(|error| panic!("{name}: {error}"));
            assert_eq!(crate::object::nesting_depth(&documents[0].value), depth);
            let error = load(name, &format!("{{\"kind\": {}}}", nested(depth))).unwrap_err();
            assert!(
                error.errors[0]
                    .message
                    .contains(&format!("deeper than {depth} levels")),
                "{name}: {error}"
            );
        }
    }

    #[test]
    fn cr_and_mixed_line_endings_read_and_count_lines_as_lf_does() {
        let lf = "# licence\n---\nkind: A\n---\n\nkind: B\ndata:\n  s: |\n    x\n    y\n";
        let expected = load("lf.yaml", lf).unwrap();
        for (name, text) in [
            ("cr.yaml", lf.replace('\n', "\r")),
            ("crlf.yaml", lf.replace('\n', "\r\n")),
            (
                "mixed.yaml",
                lf.replacen('\n', "\r", 3).replacen('\n', "\r\n", 2),
            ),
        ] {
            let documents = load(name, &text).unwrap();
            let read = |documents: &[RawDocument]| {
                documents
                    .iter()
                    .map(|d| (d.value.clone(), d.origin.line))
                    .collect::<Vec<_>>()
            };
            assert_eq!(read(&documents), read(&expected), "{name}");
        }
        let error = load("bad.yaml", "kind: A\r---\r\nkind: B\rdata: [1\r\nx: 2\r").unwrap_err();
        assert_eq!(error.errors[0].origin.as_ref().unwrap().line, 5, "{error}");
    }

    #[test]
    fn json_keeps_its_carriage_returns() {
        let file = SourceFile::new("a.json".into(), "{\"a\":\r1}".to_string(), Format::Json);
        assert_eq!(file.text, "{\"a\":\r1}");
    }

    #[test]
    fn rendered_output_is_recognised_by_its_first_line_whatever_the_line_ending() {
        let header = crate::manifest::HEADER.trim_end();
        let yaml = |text: String| SourceFile::new("r.yaml".into(), text, Format::Yaml);
        assert!(is_rendered_output(&yaml(format!("{header}\nkind: A\n"))));
        assert!(is_rendered_output(&yaml(format!(
            "{header}\r\nkind: A\r\n"
        ))));
        assert!(!is_rendered_output(&yaml(format!("kind: A\n{header}\n"))));
        assert!(!is_rendered_output(&yaml(format!("{header} (edited)\n"))));
    }

    #[test]
    fn every_malformed_document_is_reported() {
        let error = load("bad.yaml", "a: [1\n---\nb: 2\n---\nc: {\n").unwrap_err();
        assert_eq!(error.errors.len(), 2, "{error}");
    }

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Strict {
        kind: String,
        spec: Option<Value>,
    }

    #[test]
    fn typed_decoding_points_at_the_unknown_field_line() {
        let files = [SourceFile {
            path: "p.yaml".into(),
            text: "kind: A\n---\nkind: B\nspec: {}\nspek: 1\n".to_string(),
            format: Format::Yaml,
            written_at: Vec::new(),
        }];
        let (documents, _) = parse_files(&files);
        let error = documents[1].decode::<Strict>(&files).unwrap_err();
        assert_eq!(error.origin.unwrap().line, 5);
        assert!(
            error.message.contains("did you mean `spec`?"),
            "{}",
            error.message
        );
    }

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Nested {
        kind: String,
        items: Vec<Strict>,
    }

    /// Every unknown field past the first, each at its own line, down through lists; the
    /// first is decoding's own error and is not repeated.
    #[test]
    fn the_unknown_fields_past_the_first_are_found_at_their_lines() {
        let files = [SourceFile {
            path: "p.yaml".into(),
            text: "kind: A\nitems:\n- kind: B\n  spek: 1\n- kind: C\n  spec: {}\n  kin: 2\nitemz: []\n"
                .to_string(),
            format: Format::Yaml,
            written_at: Vec::new(),
        }];
        let (documents, _) = parse_files(&files);
        assert!(documents[0].decode::<Nested>(&files).is_err());
        let more = documents[0].more_unknown_fields::<Nested>(&files, 20);
        let found: Vec<(u64, &str)> = more
            .iter()
            .map(|(origin, message)| (origin.line, &message[..message.find(',').unwrap()]))
            .collect();
        assert_eq!(
            found,
            [(7, "unknown field `kin`"), (8, "unknown field `itemz`")]
        );
        assert!(
            more[0].1.ends_with("expected kind or spec"),
            "{}",
            more[0].1
        );
    }

    /// A document whose aliases copy 34,544 nodes: a list of a thousand scalars (1,016 nodes
    /// with its strings), copied 34 times.
    fn copying_document(name: &str) -> String {
        format!(
            "kind: ConfigMap\nmetadata: {{name: {name}}}\nanchor: &a [{}]\ncopies: [{}]\n",
            vec!["x"; 1000].join(", "),
            vec!["*a"; 34].join(", ")
        )
    }

    /// Which documents the copy budgets refuse does not depend on which thread parses which
    /// file: the third document of a file goes beyond the file's share, the twelfth of the run
    /// beyond the run's, whatever the thread count; each is refused at its aliases' line.
    #[test]
    fn alias_budgets_refuse_the_same_documents_whatever_the_thread_count() {
        let files: Vec<SourceFile> = (0..8)
            .map(|file| {
                let documents: Vec<String> = (0..2 + usize::from(file == 0))
                    .map(|document| copying_document(&format!("f{file}-{document}")))
                    .collect();
                SourceFile::new(
                    format!("f{file}.yaml").into(),
                    documents.join("---\n"),
                    Format::Yaml,
                )
            })
            .collect();
        let refused_with = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let (documents, errors) = pool.install(|| parse_files(&files));
            let refused: Vec<String> = errors
                .iter()
                .map(|error| error.origin.as_ref().unwrap().to_string())
                .collect();
            (documents.len(), refused, errors)
        };
        let (admitted, refused, errors) = refused_with(1);
        assert_eq!(refused[0], "f0.yaml:14", "{refused:?}");
        assert!(
            errors[0].message.contains("in this file"),
            "{}",
            errors[0].message
        );
        assert_eq!(refused[1], "f5.yaml:9", "{refused:?}");
        assert!(
            errors[1].message.contains("in this run"),
            "{}",
            errors[1].message
        );
        assert_eq!(admitted + refused.len(), 17);
        assert_eq!(admitted, 11);
        let parallel = refused_with(4);
        assert_eq!((parallel.0, parallel.1), (admitted, refused));
    }

    /// A kind or apiVersion no API server could serve is refused at its own line, a List's
    /// items one by one; the other objects load.
    #[test]
    fn kinds_and_api_versions_the_api_server_cannot_serve_are_refused_at_their_line() {
        let text = "apiVersion: v1\nkind: ConfigMap\n---\napiVersion: v1\nmetadata: {name: x}\nkind: \"Config\\nMap\"\n---\n\
                    apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Good}\n- apiVersion: \"apps/v1`\"\n  kind: Deployment\n";
        let error = load("k.yaml", text).unwrap_err();
        let found: Vec<(u64, &str)> = error
            .errors
            .iter()
            .map(|error| (error.origin.as_ref().unwrap().line, &error.message[..20]))
            .collect();
        assert_eq!(
            found,
            [
                (6, "kind \"Config\\nMap\" i"),
                (12, "apiVersion \"apps/v1`")
            ]
        );
        let (documents, _) = parse_files(&[SourceFile::new(
            "k.yaml".into(),
            text.to_string(),
            Format::Yaml,
        )]);
        let kinds: Vec<&str> = documents
            .iter()
            .filter_map(|document| document.value["kind"].as_str())
            .collect();
        assert_eq!(kinds, ["ConfigMap", "Good"]);
        let json = load("k.json", r#"{"apiVersion": "v1", "kind": "a::b"}"#).unwrap_err();
        assert_eq!(json.errors[0].origin.as_ref().unwrap().line, 1);
    }
}
