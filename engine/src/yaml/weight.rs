//! What a document weighs before it is built, read from the parser's events alone: the size of
//! its objects as JSON, aliases written out, and how much its aliases copy. A value is never
//! built here, so a document whose aliases would fill memory, or whose object the API server
//! would refuse, can be refused before it takes that memory. Linear in the document's text:
//! each anchored node's weight is kept once, and an alias adds it, however deep the copies nest.

use std::collections::HashMap;

use serde_saphyr::granit_parser::{Event, Parser, ScalarStyle, ScanError};

/// What a document weighs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Weight {
    /// At least this many bytes as compact JSON, for the largest object the document holds:
    /// itself, or each item of a `List` (which is flattened into its items).
    pub(crate) object_json_bytes: u64,
    /// What the aliases copy, in nodes (scalars, lists and maps): each copy of a node counts,
    /// and so does each 64 bytes of a copied string, since that is what the copies take in
    /// memory once built.
    pub(crate) copied_nodes: u64,
    /// Each alias that copies something, in order: what the document's aliases have copied
    /// once it is read, and its line (in the text weighed, from 1).
    pub(crate) copies_by_line: Vec<(u64, u64)>,
}

impl Weight {
    /// The line of the first alias that takes what aliases copy beyond `limit`, when `already`
    /// were copied before this document.
    pub(crate) fn line_beyond(&self, already: u64, limit: u64) -> Option<u64> {
        self.copies_by_line
            .iter()
            .find(|(copied, _)| already.saturating_add(*copied) > limit)
            .map(|(_, line)| *line)
    }
}

/// The weight of one node with everything under it, copies included.
#[derive(Debug, Clone, Copy, Default)]
struct NodeWeight {
    /// At least this many bytes as compact JSON.
    json: u64,
    nodes: u64,
    string_bytes: u64,
}

impl NodeWeight {
    fn add(&mut self, other: NodeWeight) {
        self.json = self.json.saturating_add(other.json);
        self.nodes = self.nodes.saturating_add(other.nodes);
        self.string_bytes = self.string_bytes.saturating_add(other.string_bytes);
    }

    /// What a copy of this node costs: its nodes, and its strings in 64-byte nodes.
    fn copied_nodes(&self) -> u64 {
        self.nodes.saturating_add(self.string_bytes / 64)
    }
}

/// A list or map being read.
struct Open {
    weight: NodeWeight,
    anchor: usize,
    is_map: bool,
    children: u64,
    /// The JSON bytes of its largest child.
    largest_child: u64,
    /// In a map: the next node is a key.
    expecting_key: bool,
    /// In a map: the key just read is `<<`, whose value is merged into the map.
    merging: bool,
    /// At the top of the document: what its `kind` says, and the largest item of its `items`.
    top: Option<TopLevel>,
}

#[derive(Default)]
struct TopLevel {
    /// The key just read.
    key: Option<String>,
    is_list_kind: bool,
    largest_item: Option<u64>,
}

/// The weight of `text`, one YAML document. A syntax error is the parser's, for the caller to
/// decide what to do with a document that cannot be weighed.
pub(crate) fn weigh(text: &str, nesting_limit: usize) -> Result<Weight, ScanError> {
    let mut options = serde_saphyr::granit_parser::Options::default();
    // As serde-saphyr's parser for fedrender's reading options, so that it stops where
    // serde-saphyr stops.
    options.flow_nesting_limit = nesting_limit + 1;
    options.block_nesting_limit = options.block_nesting_limit.max(nesting_limit + 1);
    options.set_emit_comments(false);
    let mut parser = Parser::new_from_str_with_options(text, options);
    let mut anchors: HashMap<usize, NodeWeight> = HashMap::new();
    let mut open: Vec<Open> = Vec::new();
    let mut root: Option<(NodeWeight, Option<TopLevel>)> = None;
    let mut copied = 0u64;
    let mut copies_by_line = Vec::new();
    while let Some(event) = parser.next_event() {
        let (event, span) = event?;
        // A list just closed: its largest item.
        let mut closed_list_largest = None;
        let (node, anchor, scalar) = match event {
            Event::Scalar(value, style, anchor, _) => {
                let json = if style == ScalarStyle::Plain && may_not_be_a_string(&value) {
                    1
                } else {
                    value.len() as u64 + 2
                };
                let weight = NodeWeight {
                    json,
                    nodes: 1,
                    string_bytes: value.len() as u64,
                };
                let scalar = (style == ScalarStyle::Plain).then(|| value.into_owned());
                (weight, anchor, scalar)
            }
            Event::SequenceStart(_, anchor, _) | Event::MappingStart(_, anchor, _) => {
                let is_map = matches!(event, Event::MappingStart(..));
                open.push(Open {
                    weight: NodeWeight {
                        json: 2,
                        nodes: 1,
                        string_bytes: 0,
                    },
                    anchor,
                    is_map,
                    children: 0,
                    largest_child: 0,
                    expecting_key: true,
                    merging: false,
                    top: (open.is_empty() && is_map).then(TopLevel::default),
                });
                continue;
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let Some(mut closed) = open.pop() else {
                    continue;
                };
                // One separator fewer than children.
                if closed.children > 0 {
                    closed.weight.json = closed.weight.json.saturating_sub(1);
                }
                if open.is_empty() {
                    root = Some((closed.weight, closed.top));
                    continue;
                }
                if !closed.is_map {
                    closed_list_largest = Some(closed.largest_child);
                }
                (closed.weight, closed.anchor, None)
            }
            Event::Alias(id) => {
                // An alias to a node still open is recursive, which serde-saphyr refuses.
                let weight = anchors.get(&id).copied().unwrap_or_default();
                if weight.copied_nodes() > 0 {
                    copied = copied.saturating_add(weight.copied_nodes());
                    copies_by_line.push((copied, span.start.line() as u64));
                }
                (weight, 0, None)
            }
            _ => continue,
        };
        if anchor != 0 {
            anchors.insert(anchor, node);
        }
        let Some(parent) = open.last_mut() else {
            root = Some((node, None));
            continue;
        };
        parent.children += 1;
        parent.largest_child = parent.largest_child.max(node.json);
        let mut counted = node;
        // A separator: a comma, or a key's colon.
        counted.json = counted.json.saturating_add(1);
        if parent.is_map {
            if parent.expecting_key {
                parent.merging = scalar.as_deref() == Some("<<");
                if parent.merging {
                    counted.json = 0;
                }
                if let Some(top) = &mut parent.top {
                    top.key = scalar.clone();
                }
            } else {
                if parent.merging {
                    // Merged entries may be overridden by the map's own: the JSON counts none
                    // of them, the copies count all.
                    counted.json = 0;
                }
                if let Some(top) = &mut parent.top {
                    match top.key.as_deref() {
                        Some("kind") => {
                            top.is_list_kind =
                                scalar.as_deref().is_some_and(|kind| kind.ends_with("List"));
                        }
                        Some("items") => top.largest_item = closed_list_largest,
                        _ => {}
                    }
                }
            }
            parent.expecting_key = !parent.expecting_key;
        }
        parent.weight.add(counted);
    }
    let object_json_bytes = match root {
        Some((
            _,
            Some(TopLevel {
                is_list_kind: true,
                largest_item: Some(largest),
                ..
            }),
        )) => largest,
        Some((weight, _)) => weight.json,
        None => 0,
    };
    Ok(Weight {
        object_json_bytes,
        copied_nodes: copied,
        copies_by_line,
    })
}

/// Whether a plain scalar may be read as a number, a boolean or null (whose JSON may be as
/// short as one byte) rather than a string: YAML 1.1 reads those only from these spellings.
fn may_not_be_a_string(text: &str) -> bool {
    const WORDS: [&str; 9] = ["y", "yes", "n", "no", "true", "false", "on", "off", "null"];
    text.is_empty()
        || text.starts_with(|c: char| c.is_ascii_digit() || matches!(c, '+' | '-' | '.' | '~'))
        || WORDS.iter().any(|word| text.eq_ignore_ascii_case(word))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn weight(text: &str) -> Weight {
        weigh(text, crate::yaml::MAX_NESTING_DEPTH).unwrap()
    }

    /// The compact JSON size of the largest object `text` holds, as the reader builds it.
    fn built(text: &str) -> u64 {
        let documents = crate::yaml::split_documents(text);
        let value = crate::yaml::parse_document(&documents[0], "w.yaml").unwrap();
        let size = |value: &Value| serde_json::to_vec(value).unwrap().len() as u64;
        let is_list = value["kind"]
            .as_str()
            .is_some_and(|kind| kind.ends_with("List"));
        match &value["items"] {
            Value::Array(items) if is_list => items.iter().map(size).max().unwrap_or(0),
            _ => size(&value),
        }
    }

    #[test]
    fn strings_weigh_what_they_take_as_json() {
        for text in [
            "a: b\nc: [d, 'e f', \"g\"]\nh: {i: j}\n",
            "- x\n- [p, q]\n- {}\n- []\n",
        ] {
            assert_eq!(weight(text).object_json_bytes, built(text), "{text}");
            assert_eq!(weight(text).copied_nodes, 0);
        }
        // What JSON escapes (here two line breaks) is not counted: a lower bound.
        let block = "kind: ConfigMap\ndata:\n  script: |\n    echo a\n    echo b\n";
        assert_eq!(weight(block).object_json_bytes + 2, built(block));
    }

    /// A lower bound: numbers, booleans and nulls weigh one byte whatever they become.
    #[test]
    fn numbers_booleans_and_nulls_weigh_at_least_a_byte() {
        let text = "a: 0755\nb: yes\nc: ~\nd: 1e15\ne:\nf: [1, -2, .5, off]\n";
        let weighed = weight(text).object_json_bytes;
        assert!(weighed <= built(text), "{weighed} > {}", built(text));
        assert_eq!(
            weighed,
            "{'a':1,'b':1,'c':1,'d':1,'e':1,'f':[1,1,1,1]}".len() as u64
        );
    }

    #[test]
    fn aliases_weigh_what_they_copy_however_deep() {
        let text = "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n";
        let weighed = weight(text);
        assert_eq!(weighed.object_json_bytes, built(text));
        // b copies a ten times (11 nodes each); c copies b ten times (111 nodes each, and its
        // 100 bytes of strings count one node more).
        assert_eq!(weighed.copied_nodes, 10 * 11 + 10 * (111 + 1));
        let long = format!("a: &a \"{}\"\nb: [*a, *a]\n", "x".repeat(640));
        assert_eq!(weight(&long).copied_nodes, 2 * (1 + 10));
        // Where the copies cross a limit: the line of the alias that crosses it.
        assert_eq!(weighed.line_beyond(0, 100), Some(2));
        assert_eq!(weighed.line_beyond(0, 200), Some(3));
        assert_eq!(weighed.line_beyond(1000, 200), Some(2));
        assert_eq!(weighed.line_beyond(0, 10_000), None);
    }

    #[test]
    fn merged_entries_count_as_copies_but_not_as_json() {
        let text = "base: &base {image: web, replicas: 2}\nweb:\n  <<: *base\n  replicas: 3\n";
        let weighed = weight(text);
        assert!(weighed.object_json_bytes <= built(text));
        assert_eq!(weighed.copied_nodes, 5);
    }

    #[test]
    fn a_list_weighs_as_its_largest_item() {
        let text = "apiVersion: v1\nitems:\n- {kind: ConfigMap, data: {a: bbbbbbbbbb}}\n- {kind: ConfigMap}\nkind: List\n";
        assert_eq!(weight(text).object_json_bytes, built(text));
        assert_eq!(
            weight(text).object_json_bytes,
            r#"{"kind":"ConfigMap","data":{"a":"bbbbbbbbbb"}}"#.len() as u64
        );
        let not_a_list = text.replace("kind: List", "kind: Thing");
        assert_eq!(weight(&not_a_list).object_json_bytes, built(&not_a_list));
    }

    #[test]
    fn a_recursive_alias_copies_nothing_and_a_syntax_error_is_the_parsers() {
        assert_eq!(weight("a: &a [1, *a]\n").copied_nodes, 0);
        let error = weigh("a: [1\nb: 2\n", crate::yaml::MAX_NESTING_DEPTH).unwrap_err();
        assert!(error.marker().line() >= 1);
    }

    /// Every document of the repository's fleets weighs no more than what it is built into.
    #[test]
    fn the_repository_fleets_weigh_no_more_than_they_take() {
        let mut weighed = 0;
        for (path, text) in super::super::repository_fleets::yaml_files() {
            for document in crate::yaml::split_documents(&text) {
                let Ok(value) = crate::yaml::parse_document(&document, "w.yaml") else {
                    continue;
                };
                if value.is_null() {
                    continue;
                }
                // As the loader weighs it: a quoted scalar continued at column 0 included.
                let weight = crate::yaml::weigh_document(&document, "w.yaml")
                    .unwrap()
                    .object_json_bytes;
                assert!(
                    weight <= built(document.text),
                    "{}: {weight} > {}\n{}",
                    path.display(),
                    built(document.text),
                    document.text
                );
                weighed += 1;
            }
        }
        assert!(weighed > 500, "{weighed}");
    }
}
