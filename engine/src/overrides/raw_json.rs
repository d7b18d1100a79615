//! JSON content patched as evanphx/json-patch v5 patches it (karmada overridemanager.go
//! `applyRawJSONPatch`): the document is held as its text, and only the objects and lists an
//! operation's path walks through are decoded. Everything else is written back as it was
//! written — `1.50` stays `1.50`, `"caf\u00e9"` keeps its escape, a repeated key stays repeated —
//! merely compacted, with `<`, `>`, `&`, U+2028 and U+2029 escaped as Go's encoder escapes them.
//! A decoded object is written in its key order, a repeated key each time with its last value.

use std::collections::HashMap;
use std::fmt;

use serde::de::{Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;
use serde_json::value::RawValue;

use super::patch::{Operation, nearest_path_hint, tokens};
use crate::api::karmada::OverriderOperator;

/// A JSON value as the patch library holds it.
#[derive(Debug, Clone)]
enum Node {
    /// Text as written, not decoded.
    Raw(String),
    Object(Object),
    List(Vec<Node>),
}

#[derive(Debug, Clone, Default)]
struct Object {
    /// In document order; a key written twice is here twice.
    keys: Vec<String>,
    /// The last value of each key.
    values: HashMap<String, Node>,
}

/// Applies the operations to `content` and writes the result, compact. `content` must be valid
/// JSON; the root must be an object, or a list when the text starts with `[`.
pub fn patch(content: &str, operations: &[Operation<'_>]) -> Result<String, String> {
    check_depth(content)?;
    let mut root = if content.starts_with('[') {
        Node::List(decode_list(content)?)
    } else {
        match first_byte(content) {
            Some(b'{') => Node::Object(decode_object(content)?),
            Some(b'[') => {
                return Err(
                    "the JSON document is a list preceded by white space, which \
                            Karmada's patch library reads as an object and rejects"
                        .to_string(),
                );
            }
            _ => {
                // Valid JSON, or the parse error says why not.
                serde_json::from_str::<&RawValue>(content)
                    .map_err(|error| format!("not valid JSON: {error}"))?;
                return Err(format!(
                    "the JSON document is {}, not an object or a list",
                    raw_type_name(content)
                ));
            }
        }
    };
    for operation in operations {
        apply(&mut root, operation).map_err(|problem| {
            format!("{} {}: {problem}", verb(operation.operator), operation.path)
        })?;
    }
    if let Node::Raw(text) = &root
        && !matches!(first_byte(text), Some(b'{' | b'['))
    {
        return Err(format!(
            "the patched JSON document is {}, not an object or a list",
            raw_type_name(text)
        ));
    }
    let mut out = String::with_capacity(content.len());
    write(&root, &mut out);
    Ok(out)
}

fn verb(operator: OverriderOperator) -> &'static str {
    match operator {
        OverriderOperator::Add => "add",
        OverriderOperator::Remove => "remove",
        OverriderOperator::Replace => "replace",
    }
}

/// Deeper content than a document may have is refused, as YAML content is: counted on the
/// text, outside strings, without decoding it.
fn check_depth(content: &str) -> Result<(), String> {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for byte in content.bytes() {
        if in_string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > crate::yaml::MAX_NESTING_DEPTH {
                    return Err(format!(
                        "not a JSON document fedrender reads: it nests more than {} levels of \
                         lists and maps deep",
                        crate::yaml::MAX_NESTING_DEPTH
                    ));
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

fn first_byte(text: &str) -> Option<u8> {
    text.bytes().find(|byte| !byte.is_ascii_whitespace())
}

fn raw_type_name(text: &str) -> &'static str {
    match first_byte(text) {
        Some(b'{') => "an object",
        Some(b'[') => "a list",
        Some(b'"') => "a string",
        Some(b't' | b'f') => "a boolean",
        Some(b'n') => "null",
        _ => "a number",
    }
}

fn decode_object(text: &str) -> Result<Object, String> {
    struct ObjectVisitor;
    impl<'de> Visitor<'de> for ObjectVisitor {
        type Value = Object;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a JSON object")
        }

        fn visit_map<A: MapAccess<'de>>(self, mut entries: A) -> Result<Object, A::Error> {
            let mut object = Object::default();
            while let Some((key, value)) = entries.next_entry::<String, &RawValue>()? {
                object.keys.push(key.clone());
                object
                    .values
                    .insert(key, Node::Raw(value.get().to_string()));
            }
            Ok(object)
        }
    }
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let object = deserializer
        .deserialize_map(ObjectVisitor)
        .and_then(|object| deserializer.end().map(|()| object))
        .map_err(|error| format!("not valid JSON: {error}"))?;
    Ok(object)
}

fn decode_list(text: &str) -> Result<Vec<Node>, String> {
    struct ListVisitor;
    impl<'de> Visitor<'de> for ListVisitor {
        type Value = Vec<Node>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a JSON list")
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<Vec<Node>, A::Error> {
            let mut list = Vec::new();
            while let Some(item) = items.next_element::<&RawValue>()? {
                list.push(Node::Raw(item.get().to_string()));
            }
            Ok(list)
        }
    }
    let mut deserializer = serde_json::Deserializer::from_str(text);
    deserializer
        .deserialize_seq(ListVisitor)
        .and_then(|list| deserializer.end().map(|()| list))
        .map_err(|error| format!("not valid JSON: {error}"))
}

impl Node {
    /// The object or list this node is, decoding it on first use; `None` for a scalar.
    fn container(&mut self) -> Result<Option<&mut Node>, String> {
        if let Node::Raw(text) = self {
            *self = match first_byte(text) {
                Some(b'{') => Node::Object(decode_object(text)?),
                Some(b'[') => Node::List(decode_list(text)?),
                _ => return Ok(None),
            };
        }
        Ok(Some(self))
    }
}

/// One operation, with the same checks and the same meaning of negative list indices as
/// [`super::patch`] on a decoded document.
fn apply(root: &mut Node, operation: &Operation<'_>) -> Result<(), String> {
    let tokens = tokens(operation.path)?;
    let value = || {
        let mut text = String::new();
        write_go_json(operation.value.unwrap_or(&Value::Null), &mut text);
        Node::Raw(text)
    };
    let Some((last, parents)) = tokens.split_last() else {
        // The empty path is the whole document.
        return match operation.operator {
            OverriderOperator::Remove => Err("cannot remove the whole document".to_string()),
            _ => {
                *root = value();
                Ok(())
            }
        };
    };
    let mut node = root;
    let mut walked = String::new();
    for (index, token) in parents.iter().enumerate() {
        let described = describe(&walked);
        let Some(container) = node.container()? else {
            return Err(format!("{described} is not an object or a list"));
        };
        node = match container {
            Node::Object(object) => {
                if !object.values.contains_key(token) {
                    let hint = nearest_path_hint(
                        &walked,
                        token,
                        object.keys.iter().map(String::as_str),
                        &tokens[index + 1..],
                    );
                    return Err(format!("{walked}/{token} does not exist{hint}"));
                }
                object.values.get_mut(token).expect("checked above")
            }
            Node::List(list) => {
                let position = list_position(token, list.len(), false, &walked)?;
                &mut list[position]
            }
            Node::Raw(_) => unreachable!("decoded above"),
        };
        walked.push('/');
        walked.push_str(&token.replace('~', "~0").replace('/', "~1"));
    }
    let described = describe(&walked);
    let Some(container) = node.container()? else {
        return Err(format!("{described} is not an object or a list"));
    };
    match container {
        Node::Object(object) => {
            let exists = object.values.contains_key(last);
            match operation.operator {
                OverriderOperator::Add => {
                    if !exists {
                        object.keys.push(last.clone());
                    }
                    object.values.insert(last.clone(), value());
                }
                _ if !exists => {
                    let hint = nearest_path_hint(
                        &walked,
                        last,
                        object.keys.iter().map(String::as_str),
                        &[],
                    );
                    return Err(format!(
                        "the object at {described} has no key {last:?}{hint}"
                    ));
                }
                OverriderOperator::Replace => {
                    object.values.insert(last.clone(), value());
                }
                OverriderOperator::Remove => {
                    // The first occurrence goes; a repeat of the key is left without a value.
                    if let Some(index) = object.keys.iter().position(|key| key == last) {
                        object.keys.remove(index);
                    }
                    object.values.remove(last);
                }
            }
        }
        Node::List(list) => {
            let adding = operation.operator == OverriderOperator::Add;
            let position = list_position(last, list.len(), adding, &walked)?;
            match operation.operator {
                OverriderOperator::Add => list.insert(position, value()),
                OverriderOperator::Replace => list[position] = value(),
                OverriderOperator::Remove => {
                    list.remove(position);
                }
            }
        }
        Node::Raw(_) => unreachable!("decoded above"),
    }
    Ok(())
}

/// A list index as evanphx reads it: `-` appends for `add`; a negative index counts from the
/// end, for `add` one further (so `-1` appends).
fn list_position(token: &str, length: usize, adding: bool, walked: &str) -> Result<usize, String> {
    let length_signed = length as i64;
    let position = if token == "-" && adding {
        length_signed
    } else {
        let number: i64 = token
            .parse()
            .map_err(|_| format!("{token:?} is not a list index at {}", describe(walked)))?;
        if number < 0 {
            number + length_signed + i64::from(adding)
        } else {
            number
        }
    };
    let limit = if adding {
        length_signed
    } else {
        length_signed - 1
    };
    if position < 0 || position > limit {
        return Err(format!(
            "index {token} is out of range for the list at {} (length {length})",
            describe(walked)
        ));
    }
    Ok(position as usize)
}

fn describe(pointer: &str) -> String {
    if pointer.is_empty() {
        "the document root".to_string()
    } else {
        pointer.to_string()
    }
}

fn write(node: &Node, out: &mut String) {
    match node {
        Node::Raw(text) => compact(text, out),
        Node::List(list) => {
            out.push('[');
            for (index, item) in list.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                write(item, out);
            }
            out.push(']');
        }
        Node::Object(object) => {
            out.push('{');
            for (index, key) in object.keys.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                write_go_json(&Value::String(key.clone()), out);
                out.push(':');
                match object.values.get(key) {
                    Some(value) => write(value, out),
                    None => out.push_str("null"),
                }
            }
            out.push('}');
        }
    }
}

/// Go's `json.Compact` with HTML escaping, as encoding/json applies it to a `RawMessage`: white
/// space outside strings dropped, `<` `>` `&` U+2028 U+2029 inside strings escaped, everything
/// else — other escapes included — kept as written.
fn compact(text: &str, out: &mut String) {
    let mut in_string = false;
    let mut escaped = false;
    for c in text.chars() {
        if in_string {
            match c {
                _ if escaped => {
                    escaped = false;
                    out.push(c);
                }
                '\\' => {
                    escaped = true;
                    out.push(c);
                }
                '"' => {
                    in_string = false;
                    out.push(c);
                }
                '<' => out.push_str("\\u003c"),
                '>' => out.push_str("\\u003e"),
                '&' => out.push_str("\\u0026"),
                '\u{2028}' => out.push_str("\\u2028"),
                '\u{2029}' => out.push_str("\\u2029"),
                other => out.push(other),
            }
        } else if c == '"' {
            in_string = true;
            out.push(c);
        } else if !matches!(c, ' ' | '\t' | '\n' | '\r') {
            out.push(c);
        }
    }
}

/// Compact JSON as evanphx/json-patch writes it (its copy of encoding/json with HTML escaping
/// on): object keys in document order, `<` `>` `&` U+2028 U+2029 escaped as `\u003c` and so on,
/// control characters other than `\n` `\r` `\t` as `\u00XX`.
pub(crate) fn write_go_json(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(flag) => out.push_str(if *flag { "true" } else { "false" }),
        Value::Number(number) => out.push_str(&number.to_string()),
        Value::String(text) => write_go_json_string(text, out),
        Value::Array(list) => {
            out.push('[');
            for (index, item) in list.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                write_go_json(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (index, (key, item)) in map.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                write_go_json_string(key, out);
                out.push(':');
                write_go_json(item, out);
            }
            out.push('}');
        }
    }
}

fn write_go_json_string(text: &str, out: &mut String) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push('"');
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '<' | '>' | '&' | '\u{0}'..='\u{1f}' => {
                let code = u32::from(c);
                out.push_str("\\u00");
                out.push(char::from(HEX[(code >> 4) as usize]));
                out.push(char::from(HEX[(code & 0xf) as usize]));
            }
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            other => out.push(other),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn patched(content: &str, operations: &[(OverriderOperator, &str, Option<Value>)]) -> String {
        let operations: Vec<Operation<'_>> = operations
            .iter()
            .map(|(operator, path, value)| Operation {
                operator: *operator,
                path,
                value: value.as_ref(),
            })
            .collect();
        patch(content, &operations).unwrap_or_else(|error| format!("error: {error}"))
    }

    use OverriderOperator::{Add, Remove, Replace};

    // evanphx/json-patch v5 patch.go (lazyNode keeps `raw` until a path walks into it) as
    // Karmada vendors it; every expected text below is what Karmada's own code produced for the
    // same ConfigMap (the oracle), fedrender having re-encoded it before.
    #[test]
    fn values_no_path_walks_into_keep_their_text() {
        assert_eq!(
            patched(
                r#"{"n": 1.50, "e": 1E+2, "z": -0, "h": 1.0e400, "k": "v"}"#,
                &[(Replace, "/k", Some(json!("w")))]
            ),
            r#"{"n":1.50,"e":1E+2,"z":-0,"h":1.0e400,"k":"w"}"#
        );
        assert_eq!(
            patched(
                r#"{"s": "caf\u00e9 a\/b", "h": "<b>&", "k": "v"}"#,
                &[(Replace, "/k", Some(json!("w")))]
            ),
            r#"{"s":"caf\u00e9 a\/b","h":"\u003cb\u003e\u0026","k":"w"}"#
        );
        // A walked object is decoded: its keys are written by Go, its untouched values not.
        assert_eq!(
            patched(
                r#"{"o": {"caf\u00e9": 1.50, "x": [1, 2.0, {"d": 1e3}]}, "k": 1}"#,
                &[
                    (Add, "/o/x/2/e", Some(json!("<&>"))),
                    // As the API server stored it: keys sorted, integral floats integers.
                    (Add, "/o/new", Some(json!({"a": [1], "z": 1}))),
                ]
            ),
            r#"{"o":{"café":1.50,"x":[1,2.0,{"d":1e3,"e":"\u003c\u0026\u003e"}],"new":{"a":[1],"z":1}},"k":1}"#
        );
    }

    #[test]
    fn repeated_keys_stay_repeated() {
        assert_eq!(
            patched(
                r#"{"s": 1, "s": 2, "k": "v"}"#,
                &[(Replace, "/k", Some(json!("w")))]
            ),
            r#"{"s":2,"s":2,"k":"w"}"#
        );
        assert_eq!(
            patched(
                r#"{"a": {"s": 1, "s": 2}, "b": {"t": 1, "t": 2}}"#,
                &[(Replace, "/b/t", Some(json!("w")))]
            ),
            r#"{"a":{"s":1,"s":2},"b":{"t":"w","t":"w"}}"#
        );
        assert_eq!(
            patched(r#"{"s": 1, "s": 2, "k": "v"}"#, &[(Remove, "/s", None)]),
            r#"{"s":null,"k":"v"}"#
        );
    }

    #[test]
    fn lists_and_white_space_at_the_root() {
        assert_eq!(
            patched(
                r#"[ {"a" : 1.0} , 2.50 , "x" ]"#,
                &[(Add, "/0/b", Some(json!(true))), (Remove, "/1", None)]
            ),
            r#"[{"a":1.0,"b":true},"x"]"#
        );
        assert_eq!(
            patched("  {\"a\": 1}", &[(Add, "/b", Some(json!(2)))]),
            r#"{"a":1,"b":2}"#
        );
        assert!(
            patched(" [1]", &[(Add, "/-", Some(json!(2)))]).contains("preceded by white space")
        );
        assert!(patched("2", &[(Add, "/a", Some(json!(2)))]).contains("is a number"));
        assert!(patched("{\"a\": 1", &[(Add, "/b", Some(json!(2)))]).contains("not valid JSON"));
    }

    #[test]
    fn paths_are_checked_as_on_a_decoded_document() {
        let content = r#"{"a": {"b": [1, 2]}, "s": "text"}"#;
        assert!(patched(content, &[(Add, "/x/y", Some(json!(1)))]).contains("/x does not exist"));
        assert!(
            patched(content, &[(Replace, "/a/c", Some(json!(1)))])
                .contains("the object at /a has no key \"c\"")
        );
        assert!(
            patched(content, &[(Add, "/s/t", Some(json!(1)))])
                .contains("/s is not an object or a list")
        );
        assert!(patched(content, &[(Remove, "/a/b/2", None)]).contains("out of range"));
        assert_eq!(
            patched(content, &[(Add, "/a/b/-1", Some(json!(3)))]),
            r#"{"a":{"b":[1,2,3]},"s":"text"}"#
        );
        assert_eq!(
            patched(content, &[(Replace, "/a/b/-1", Some(json!(0)))]),
            r#"{"a":{"b":[1,0]},"s":"text"}"#
        );
    }

    /// The raw patch names the nearest path as the decoded one does.
    #[test]
    fn a_missing_key_names_the_nearest_existing_path() {
        let content = r#"{"spec":{"containers":[{"image":"a"}]}}"#;
        assert_eq!(
            patched(
                content,
                &[(Replace, "/spec/container/0/image", Some(json!("b")))]
            ),
            "error: replace /spec/container/0/image: /spec/container does not exist; did you mean \
             /spec/containers/0/image?"
        );
        assert_eq!(
            patched(content, &[(Remove, "/spec/containres", None)]),
            "error: remove /spec/containres: the object at /spec has no key \"containres\"; did you \
             mean /spec/containers?"
        );
    }
}
