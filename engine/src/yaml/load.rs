//! Builds a document's value from the parser's events the way sigs.k8s.io/yaml's `YAMLToJSON`
//! does over go-yaml v2 — what kubectl sends the Kubernetes API server, and so what Karmada
//! stores and renders: scalars resolved by go-yaml's rules ([`super::resolve`]), keys written as
//! Go writes them (`y` and `on` are `"true"`, `0x10` is `"16"`, `1.0` is `"1"`), a float as
//! Go's JSON writes it (`1e3` is the integer 1000), tags as go-yaml reads them (a local tag
//! leaves a string), and `<<` merges in go-yaml's order: each merged key overwrites what the
//! mapping holds so far, a later explicit key overwrites it in turn.

use std::collections::{BTreeMap, HashMap};

use serde_json::{Map, Value};
use serde_saphyr::granit_parser::{Event, Parser, ScalarStyle, ScanError, Span, StructureStyle};

use super::resolve::{self, Resolved};

/// How deeply lists and maps may nest in a document, YAML or JSON. The API server reads JSON
/// and YAML up to 10,000 levels, far beyond any real object (a CRD's schema nests a few dozen),
/// and fedrender's stages walk values recursively, so the bound is what every stage can take
/// on a worker's stack: reading is the costliest, about 4 KiB of stack a level optimised and
/// 24 KiB in a debug build, 6 MiB at this depth; workers get 16 MiB (the binary's pool, and
/// `RUST_MIN_STACK` in `.cargo/config.toml` for tests).
pub const MAX_NESTING_DEPTH: usize = 256;

/// What to do with two keys that are one key once converted (`on` and `yes`, or `1` and
/// `"1"`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum RepeatedKeys {
    /// An error: kubectl reads a file strictly and refuses a key set twice; and where go-yaml
    /// holds both (`1` and `"1"`), which one `YAMLToJSON` keeps is Go's map order, at random.
    Refuse,
    /// The last wins, as in `YAMLToJSON` (Karmada reads a fieldOverrider's YAML with it).
    LastWins,
}

#[derive(Clone, Copy)]
pub(super) struct LoadOptions {
    pub(crate) repeated_keys: RepeatedKeys,
    /// Whether an alias may copy anything (a document that was not weighed may not).
    pub aliases: bool,
    /// How deeply lists and maps may nest.
    pub max_depth: usize,
}

/// Why a document did not load.
pub(super) enum LoadError {
    /// The parser's: the caller reports it in serde-saphyr's words, which say more.
    Syntax(ScanError),
    /// A value go-yaml or `YAMLToJSON` refuses, or a repeated key.
    At {
        line: u64,
        column: u64,
        message: String,
    },
    /// A key set twice, with the line it was first set on.
    Repeated {
        key: String,
        line: u64,
        column: u64,
        first: u64,
    },
    /// An alias where none may copy.
    Alias { line: u64 },
}

/// What aliases may copy in all, in nodes: as serde-saphyr's default limit on replayed events,
/// which stops a "billion laughs" document within a second.
const MAX_COPIED_NODES: u64 = 1_000_000;

fn parser_options(max_depth: usize) -> serde_saphyr::granit_parser::Options {
    let mut options = serde_saphyr::granit_parser::Options::default();
    options.flow_nesting_limit = max_depth + 1;
    options.block_nesting_limit = options.block_nesting_limit.max(max_depth + 1);
    options.set_emit_comments(false);
    options
}

/// A finished node.
struct Node {
    value: Value,
    /// The key this node is where it stands as one, in Go's spelling; for a float that JSON
    /// cannot hold (`.inf`), which is a key but not a value, the error as a value.
    key: Result<String, String>,
    /// Why this node cannot be a value (`.inf`, `.nan`).
    not_a_value: Option<String>,
    /// Counting itself and everything under it.
    nodes: u64,
    /// A plain `<<` or one tagged `!!merge`: a merge where it stands as a key.
    merge: bool,
    /// An alias: merged, it must be a map (an inline list of maps merges each).
    alias: bool,
    line: u64,
    column: u64,
}

enum Collection {
    List(Vec<Value>),
    Map {
        entries: Map<String, Value>,
        /// Each explicit key and its line, to refuse it the second time.
        explicit: HashMap<String, u64>,
        /// The key read, waiting for its value.
        key: Option<PendingKey>,
    },
}

enum PendingKey {
    Key(String),
    Merge { line: u64, column: u64 },
}

struct Open {
    collection: Collection,
    /// A `{…}` or `[…]` collection rather than a block one.
    flow: bool,
    anchor: usize,
    nodes: u64,
    line: u64,
    column: u64,
    /// The field path, when lines are recorded.
    path: String,
}

/// The value of one document, or `Value::Null` for an empty one; with `lines`, the line of
/// each field as [`super::field_lines`] gives it.
pub(super) fn load(
    text: &str,
    options: LoadOptions,
    mut lines: Option<&mut BTreeMap<String, u64>>,
) -> Result<Value, LoadError> {
    let source = text;
    // The document's lines, split once, when a block scalar needs them.
    let mut source_lines: Option<Vec<&str>> = None;
    let mut parser = Parser::new_from_str_with_options(text, parser_options(options.max_depth));
    let mut anchors: HashMap<usize, Node> = HashMap::new();
    let mut open: Vec<Open> = Vec::new();
    let mut root = None;
    let mut copied = 0u64;
    while let Some(event) = parser.next_event() {
        let (event, span) = event.map_err(LoadError::Syntax)?;
        let (line, column) = position(&span);
        let (node, anchor): (Node, usize) = match event {
            Event::Scalar(text, style, anchor, tag) => {
                if matches!(style, ScalarStyle::Literal | ScalarStyle::Folded)
                    && let Some(tab_line) = tab_leading_block(
                        source_lines.get_or_insert_with(|| source.split('\n').collect()),
                        &span,
                    )
                {
                    return Err(LoadError::At {
                        line: tab_line,
                        column: 1,
                        message: "found a tab where an indentation space is expected: Go's YAML \
                                  reader (kubectl, Argo CD) finds a block scalar's indentation \
                                  from its first line and refuses a tab there; indent with \
                                  spaces, or give the indentation in the header (`|2`)"
                            .to_string(),
                    });
                }
                let tag = tag.map(|tag| format!("{}{}", tag.handle(), tag.suffix()));
                let is_plain = style == ScalarStyle::Plain;
                // In a flow mapping, libyaml ends a plain scalar at a `:` only before white
                // space: `{n:}` and `{n:, a: b}` hold the key `n:` to Go.
                let text = match open.last() {
                    Some(Open {
                        flow: true,
                        collection: Collection::Map { key: None, .. },
                        ..
                    }) if is_plain && colon_glued_to_flow_indicator(source, &span) => {
                        std::borrow::Cow::Owned(format!("{text}:"))
                    }
                    _ => text,
                };
                // libyaml calls a plain scalar tagged `!` implicit too, so `! <<` merges.
                let merge = text == "<<"
                    && (is_plain && matches!(tag.as_deref(), None | Some("!"))
                        || tag.as_deref() == Some("tag:yaml.org,2002:merge"));
                let resolved =
                    resolve::tagged(tag.as_deref(), &text, is_plain).map_err(|message| {
                        LoadError::At {
                            line,
                            column,
                            message: format!("{message} (as Kubernetes' YAML reader reads it)"),
                        }
                    })?;
                let value = match resolved {
                    Resolved::Str if tag.as_deref() == Some("tag:yaml.org,2002:binary") => {
                        let bytes = resolve::decode_base64(&text).ok_or(LoadError::At {
                            line,
                            column,
                            message: "!!binary value contains invalid base64 data".to_string(),
                        })?;
                        Value::String(String::from_utf8_lossy(&bytes).into_owned())
                    }
                    Resolved::Str => Value::String(text.into_owned()),
                    other => scalar_value(other),
                };
                let node = Node {
                    key: key_text(resolved, &value),
                    not_a_value: not_a_value(resolved),
                    value,
                    nodes: 1,
                    merge,
                    alias: false,
                    line,
                    column,
                };
                (node, anchor)
            }
            Event::Alias(id) => {
                let Some(anchored) = anchors.get(&id) else {
                    return Err(LoadError::At {
                        line,
                        column,
                        message: "an alias to the node it stands in: its value would contain \
                                  itself"
                            .to_string(),
                    });
                };
                if !options.aliases {
                    return Err(LoadError::Alias { line });
                }
                copied = copied.saturating_add(anchored.nodes);
                if copied > MAX_COPIED_NODES {
                    return Err(LoadError::At {
                        line,
                        column,
                        message: format!(
                            "aliases expand the document beyond what fedrender reads (a \
                             \"billion laughs\" document?): they copy more than \
                             {MAX_COPIED_NODES} nodes"
                        ),
                    });
                }
                let node = Node {
                    value: anchored.value.clone(),
                    key: anchored.key.clone(),
                    not_a_value: anchored.not_a_value.clone(),
                    nodes: anchored.nodes,
                    merge: false,
                    alias: true,
                    line,
                    column,
                };
                (node, 0)
            }
            Event::SequenceStart(style, anchor, _) | Event::MappingStart(style, anchor, _) => {
                if open.len() >= options.max_depth {
                    return Err(LoadError::At {
                        line,
                        column,
                        message: format!(
                            "lists and maps nest deeper than {} levels",
                            options.max_depth
                        ),
                    });
                }
                let collection = if matches!(event, Event::MappingStart(..)) {
                    Collection::Map {
                        entries: Map::new(),
                        explicit: HashMap::new(),
                        key: None,
                    }
                } else {
                    Collection::List(Vec::new())
                };
                let path = match (&lines, open.last()) {
                    (Some(_), Some(parent)) => child_path(parent),
                    _ => String::new(),
                };
                open.push(Open {
                    collection,
                    flow: style == StructureStyle::Flow,
                    anchor,
                    nodes: 1,
                    line,
                    column,
                    path,
                });
                continue;
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let closed = open.pop().expect("the parser closes what it opened");
                let value = match closed.collection {
                    Collection::List(mut items) => {
                        items.shrink_to_fit();
                        Value::Array(items)
                    }
                    Collection::Map { entries, .. } => Value::Object(entries),
                };
                let node = Node {
                    value,
                    key: Err("a list or a map".to_string()),
                    not_a_value: None,
                    nodes: closed.nodes,
                    merge: false,
                    alias: false,
                    line: closed.line,
                    column: closed.column,
                };
                (node, closed.anchor)
            }
            _ => continue,
        };
        if anchor != 0 {
            let anchored = Node {
                value: node.value.clone(),
                key: node.key.clone(),
                not_a_value: node.not_a_value.clone(),
                ..node
            };
            anchors.insert(anchor, anchored);
        }
        let in_key_position = matches!(
            open.last().map(|parent| &parent.collection),
            Some(Collection::Map { key: None, .. })
        );
        if let Some(message) = node.not_a_value.as_ref().filter(|_| !in_key_position) {
            return Err(LoadError::At {
                line: node.line,
                column: node.column,
                message: message.clone(),
            });
        }
        let Some(parent) = open.last_mut() else {
            root = Some(node.value);
            continue;
        };
        parent.nodes = parent.nodes.saturating_add(node.nodes);
        let parent_path = &parent.path;
        match &mut parent.collection {
            Collection::List(items) => {
                if let Some(lines) = lines.as_deref_mut() {
                    lines.insert(format!("{parent_path}[{}]", items.len()), node.line);
                }
                items.push(node.value);
            }
            Collection::Map {
                entries,
                explicit,
                key,
            } => match key.take() {
                None if node.merge => {
                    *key = Some(PendingKey::Merge {
                        line: node.line,
                        column: node.column,
                    });
                }
                None => {
                    let name = node.key.map_err(|what| LoadError::At {
                        line: node.line,
                        column: node.column,
                        message: if what == "null" {
                            "a null map key: Kubernetes' YAML reader (sigs.k8s.io/yaml) \
                             cannot write it as JSON and refuses the document"
                                .to_string()
                        } else {
                            format!(
                                "{what} cannot be a map key: Kubernetes' YAML reader \
                                 (sigs.k8s.io/yaml) refuses it; quote the key"
                            )
                        },
                    })?;
                    if let Some(lines) = lines.as_deref_mut() {
                        let path = if parent_path.is_empty() {
                            name.clone()
                        } else {
                            format!("{parent_path}.{name}")
                        };
                        lines.insert(path, node.line);
                    }
                    if options.repeated_keys == RepeatedKeys::Refuse
                        && let Some(first) = explicit.insert(name.clone(), node.line)
                    {
                        return Err(LoadError::Repeated {
                            key: name,
                            line: node.line,
                            column: node.column,
                            first,
                        });
                    }
                    *key = Some(PendingKey::Key(name));
                }
                Some(PendingKey::Key(name)) => {
                    entries.insert(name, node.value);
                }
                Some(PendingKey::Merge { line, column }) => {
                    if node.alias && !node.value.is_object() {
                        return Err(merge_refused(line, column));
                    }
                    merge(entries, node.value, line, column)?;
                }
            },
        }
    }
    Ok(root.unwrap_or(Value::Null))
}

/// The path of the node about to be read under `parent`.
fn child_path(parent: &Open) -> String {
    match &parent.collection {
        Collection::List(items) => format!("{}[{}]", parent.path, items.len()),
        Collection::Map {
            key: Some(PendingKey::Key(key)),
            ..
        } => {
            if parent.path.is_empty() {
                key.clone()
            } else {
                format!("{}.{key}", parent.path)
            }
        }
        // A collection as a key, or merged: its fields are not the document's.
        Collection::Map { .. } => format!("{}.<<", parent.path),
    }
}

/// The line (from 1) of a tab go-yaml refuses in the block scalar whose content `span` covers:
/// with no indentation indicator in its header, a tab after the leading spaces of a line before
/// the indentation is known — the first line with content, or a blank line above it (libyaml's
/// `yaml_parser_scan_block_scalar_breaks`).
fn tab_leading_block(lines: &[&str], span: &Span) -> Option<u64> {
    let content_line = span.start.line();
    let first = lines.get(content_line.checked_sub(1)?)?;
    let mut tab_line = first
        .chars()
        .nth(span.start.col())
        .filter(|&c| c == '\t')
        .map(|_| content_line as u64);
    for (index, line) in lines[..content_line - 1].iter().enumerate().rev() {
        let after_spaces = line.trim_start_matches(' ');
        if after_spaces.is_empty() {
            continue;
        }
        if after_spaces.starts_with('\t') && after_spaces.trim().is_empty() {
            tab_line = Some(index as u64 + 1);
            continue;
        }
        // The header: `|` or `>`, its indicators, maybe a comment.
        let header = after_spaces.split(" #").next().unwrap_or("").trim_end();
        let indicators = header.rsplit(['|', '>']).next().unwrap_or("");
        let is_header = header.len() > indicators.len()
            && indicators.len() <= 2
            && indicators
                .bytes()
                .all(|b| b == b'+' || b == b'-' || b.is_ascii_digit());
        if !is_header || indicators.bytes().any(|b| b.is_ascii_digit()) {
            return None;
        }
        return tab_line;
    }
    None
}

/// Whether the plain scalar `span` covers is followed by a `:` and then `,`, `}` or `]`.
fn colon_glued_to_flow_indicator(source: &str, span: &Span) -> bool {
    span.byte_range()
        .and_then(|range| source.get(range.end..))
        .is_some_and(|after| {
            after.starts_with(":,") || after.starts_with(":}") || after.starts_with(":]")
        })
}

fn position(span: &Span) -> (u64, u64) {
    (span.start.line() as u64, span.start.col() as u64 + 1)
}

/// A resolved scalar that is not a string, as the JSON the API server receives holds it: a
/// float as Go's JSON writes it, so `1.0` and `1e3` are the integers 1 and 1000 there.
fn scalar_value(resolved: Resolved) -> Value {
    match resolved {
        Resolved::Null => Value::Null,
        Resolved::Bool(flag) => Value::Bool(flag),
        Resolved::Int(integer) => Value::from(integer),
        Resolved::Uint(integer) => Value::from(integer),
        Resolved::Float(float) if !float.is_finite() => Value::Null,
        Resolved::Float(float) => {
            let written = resolve::go_json_float(float);
            let integer = if written.contains(['.', 'e']) {
                None
            } else if let Ok(integer) = written.parse::<i64>() {
                Some(Value::from(integer))
            } else {
                written.parse::<u64>().ok().map(Value::from)
            };
            integer.unwrap_or_else(|| {
                serde_json::Number::from_f64(float).map_or(Value::Null, Value::Number)
            })
        }
        Resolved::Str => unreachable!("strings are kept as written"),
    }
}

/// Why a scalar cannot be a value: `encoding/json` refuses infinities and NaN.
fn not_a_value(resolved: Resolved) -> Option<String> {
    match resolved {
        Resolved::Float(float) if !float.is_finite() => Some(format!(
            "{} is not a number JSON can hold, so kubectl cannot send it (\"json: unsupported \
             value\"); quote it if it is meant as a string",
            if float.is_nan() { "NaN" } else { "infinity" }
        )),
        _ => None,
    }
}

/// A key as `YAMLToJSON` writes it: a string as it is, a boolean or integer in Go's spelling,
/// a float with float32 precision (`strconv.FormatFloat(key, 'g', -1, 32)`, infinities and NaN
/// as `.inf`, `-.inf`, `.nan`); a null or a `uint64` cannot be a key there (`Err`: what it is).
fn key_text(resolved: Resolved, value: &Value) -> Result<String, String> {
    match resolved {
        Resolved::Str => Ok(value.as_str().unwrap_or_default().to_string()),
        Resolved::Bool(flag) => Ok(flag.to_string()),
        Resolved::Int(integer) => Ok(integer.to_string()),
        Resolved::Uint(integer) => Err(format!(
            "the number {integer}, above the largest 64-bit signed integer,"
        )),
        Resolved::Float(float) => Ok(match crate::go_float::shortest32(float).as_str() {
            "+Inf" => ".inf".to_string(),
            "-Inf" => "-.inf".to_string(),
            "NaN" => ".nan".to_string(),
            written => written.to_string(),
        }),
        Resolved::Null => Err("null".to_string()),
    }
}

/// A `<<` merge: a map, or a list of maps, the earlier ones first, each key overwriting what
/// `entries` holds (go-yaml's `decoder.merge`).
fn merge(
    entries: &mut Map<String, Value>,
    merged: Value,
    line: u64,
    column: u64,
) -> Result<(), LoadError> {
    let refuse = || merge_refused(line, column);
    match merged {
        Value::Object(map) => {
            for (key, value) in map {
                entries.insert(key, value);
            }
        }
        Value::Array(items) => {
            if !items.iter().all(Value::is_object) {
                return Err(refuse());
            }
            for item in items.into_iter().rev() {
                if let Value::Object(map) = item {
                    for (key, value) in map {
                        entries.insert(key, value);
                    }
                }
            }
        }
        _ => return Err(refuse()),
    }
    Ok(())
}

fn merge_refused(line: u64, column: u64) -> LoadError {
    LoadError::At {
        line,
        column,
        message: "map merge requires map or sequence of maps as the value (a `<<` merges a map, \
                  an alias to one, or a list of them)"
            .to_string(),
    }
}
