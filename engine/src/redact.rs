//! The one rule of what no message shows: a value of a Secret. A core `Secret`'s `data` and
//! `stringData` values, and the copy of them that `kubectl apply` keeps in its
//! `kubectl.kubernetes.io/last-applied-configuration` annotation, are written to the clusters'
//! trees, but never into a message, a plan, a diff, a GitHub annotation or a pull-request
//! comment, which reach people and logs the repository's readers are not. `<redacted>` stands
//! for each.
//!
//! Three ways in, one rule:
//! - a message built from an object ([`scrub`] with [`values`]): what the schema checker and an
//!   override say of a Secret, cleaned of every form they quote a value in;
//! - an object shown whole ([`redact_object`]): the diff's view of a Secret;
//! - source text shown as it was written ([`masked_lines`]): the lines a YAML error quotes,
//!   where the document may not even read, so that what is a Secret's value is told by the
//!   lines alone.

use serde_json::Value;

use crate::fields::Fields;

/// What a message shows in place of a Secret's value.
pub const REDACTED: &str = "<redacted>";

/// The annotation `kubectl apply` keeps the object it applied in, values and all.
pub const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";

/// The fields of a Secret that hold its values.
pub const VALUE_FIELDS: [&str; 2] = ["data", "stringData"];

/// Whether `object` is a core (`v1`) Secret, whose values no message may show.
pub fn is_secret(object: &Value) -> bool {
    object.field("kind").and_then(Value::as_str) == Some("Secret")
        && object.field("apiVersion").and_then(Value::as_str) == Some("v1")
}

/// Every value of a Secret that no message may show: those under `data` and `stringData`
/// (each entry, and anything within an entry that is not a string), and the same in the
/// last-applied annotation's embedded copy. Nothing for any other object.
pub fn values(object: &Value) -> Vec<Value> {
    let mut found = Vec::new();
    if !is_secret(object) {
        return found;
    }
    collect_values(object, &mut found);
    if let Some(copy) = last_applied(object) {
        collect_values(&copy, &mut found);
        // The annotation's text itself, as a message about metadata would quote it.
        if let Some(text) = crate::json_pointer::pointer(object, "/metadata/annotations")
            .and_then(|annotations| annotations.get(LAST_APPLIED))
        {
            found.push(text.clone());
        }
    }
    found
}

fn collect_values(object: &Value, found: &mut Vec<Value>) {
    for field in VALUE_FIELDS {
        let Some(held) = object.get(field) else {
            continue;
        };
        let mut stack = vec![held];
        while let Some(value) = stack.pop() {
            found.push(value.clone());
            match value {
                Value::Object(entries) => stack.extend(entries.values()),
                Value::Array(items) => stack.extend(items),
                _ => {}
            }
        }
    }
}

/// The object the last-applied annotation of `object` holds, when it holds one that reads.
fn last_applied(object: &Value) -> Option<Value> {
    let text = crate::json_pointer::pointer(object, "/metadata/annotations")?
        .get(LAST_APPLIED)?
        .as_str()?;
    serde_json::from_str(text).ok()
}

/// `text` with every form in which a message quotes one of `values` replaced by
/// [`REDACTED`]: the value's JSON (a string quoted), as `shown` writes it (the schema checker's
/// cut form, ending in `…`), Rust's quoting of a string, and a string's bare text when it is
/// long enough (four characters) not to be mistaken for a word of the message.
pub fn scrub(text: &str, values: &[Value], shown: impl Fn(&Value) -> String) -> String {
    if values.is_empty() {
        return text.to_string();
    }
    let mut forms: Vec<String> = Vec::new();
    for value in values {
        forms.push(shown(value));
        forms.push(value.to_string());
        if let Some(string) = value.as_str() {
            forms.push(format!("{string:?}"));
            if string.chars().count() >= 4 {
                forms.push(string.to_string());
            }
        }
    }
    // The longest first, so that a value inside another's quoted form is not left half shown.
    forms.retain(|form| !form.is_empty() && form != "\"\"");
    forms.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
    forms.dedup();
    let mut text = text.to_string();
    for form in &forms {
        if text.contains(form.as_str()) {
            text = text.replace(form.as_str(), REDACTED);
        }
    }
    text
}

/// Replaces each value of a Secret's `data` and `stringData`, and of the last-applied
/// annotation's copy of them, by `mark(field, key, value)`.
pub fn redact_object(object: &mut Value, mark: &mut dyn FnMut(&str, &str, &Value) -> Value) {
    if !is_secret(object) {
        return;
    }
    redact_fields(object, mark);
    let Some(mut copy) = last_applied(object) else {
        // An annotation that is not an object's JSON is shown as no value at all.
        if let Some(text) = object
            .pointer_mut("/metadata/annotations")
            .and_then(|annotations| annotations.get_mut(LAST_APPLIED))
        {
            *text = Value::from(REDACTED);
        }
        return;
    };
    redact_fields(&mut copy, &mut |field, key, value| {
        mark(&format!("{LAST_APPLIED}:{field}"), key, value)
    });
    if let Some(text) = object
        .pointer_mut("/metadata/annotations")
        .and_then(|annotations| annotations.get_mut(LAST_APPLIED))
    {
        *text = Value::from(copy.to_string());
    }
}

fn redact_fields(object: &mut Value, mark: &mut dyn FnMut(&str, &str, &Value) -> Value) {
    for field in VALUE_FIELDS {
        match object.get_mut(field) {
            Some(Value::Object(entries)) => {
                for (key, value) in entries.iter_mut() {
                    *value = mark(field, key, value);
                }
            }
            Some(value) if !value.is_null() => *value = Value::from(REDACTED),
            _ => {}
        }
    }
}

/// Which lines of one document's source text (0-based, within `text`) hold a Secret's values,
/// told from the lines alone since the document may not read: when the document names the kind
/// `Secret`, every line of a `data`, `stringData` or last-applied annotation block, and the
/// value written on the key's own line. Each masked line is returned with what may be shown of
/// it: its indentation and key, the value replaced by [`REDACTED`].
pub fn masked_lines(text: &str) -> Vec<(usize, String)> {
    if !names_kind_secret(text) {
        return Vec::new();
    }
    let mut masked = Vec::new();
    // The indentation of the key whose block is being masked.
    let mut within: Option<usize> = None;
    for (index, line) in text.lines().enumerate() {
        let content = line.trim_start_matches([' ', '-']);
        let indent = line.len() - content.len();
        if let Some(key_indent) = within {
            if content.is_empty() || content.starts_with('#') || indent > key_indent {
                if !content.is_empty() && !content.starts_with('#') {
                    masked.push((index, mask_value(line)));
                }
                continue;
            }
            within = None;
        }
        let key = content
            .split(':')
            .next()
            .unwrap_or("")
            .trim()
            .trim_matches(['"', '\'']);
        if content.contains(':') && (VALUE_FIELDS.contains(&key) || key == LAST_APPLIED) {
            within = Some(indent);
            let value = content.split_once(':').map(|(_, value)| value.trim());
            if value.is_some_and(|value| !value.is_empty() && !value.starts_with('#')) {
                masked.push((index, mask_value(line)));
            }
        } else if let Some(at) = flow_value_field(line) {
            // `{kind: Secret, data: {password: x}}`: everything from the field on.
            masked.push((index, format!("{}{REDACTED}", &line[..at])));
        }
    }
    masked
}

/// Whether a document's text says `kind: Secret`, in block or flow style, quoted or not.
fn names_kind_secret(text: &str) -> bool {
    let mut rest = text;
    while let Some(at) = rest.find("kind") {
        let after = rest[at + 4..].trim_start_matches(['"', '\'']).trim_start();
        if let Some(value) = after.strip_prefix(':') {
            let value = value.trim_start().trim_start_matches(['"', '\'']);
            if value.strip_prefix("Secret").is_some_and(|tail| {
                !tail.starts_with(|c: char| c.is_alphanumeric() || c == '_' || c == '.')
            }) {
                return true;
            }
        }
        rest = &rest[at + 4..];
    }
    false
}

/// Where, in a flow mapping written on one line, a value field's key begins.
fn flow_value_field(line: &str) -> Option<usize> {
    for field in VALUE_FIELDS.iter().copied().chain([LAST_APPLIED]) {
        for (at, _) in line.match_indices(field) {
            let before = line[..at].trim_end_matches(['"', '\'']).trim_end();
            let after = line[at + field.len()..]
                .trim_start_matches(['"', '\''])
                .trim_start();
            if (before.ends_with('{') || before.ends_with(',')) && after.starts_with(':') {
                return Some(at);
            }
        }
    }
    None
}

/// A line of a value block as it may be shown: the indentation and key kept, the value gone;
/// a line with no key (the continuation of a long value) is all value.
fn mask_value(line: &str) -> String {
    let content = line.trim_start_matches([' ', '-']);
    let indent = &line[..line.len() - content.len()];
    match key_end(content) {
        Some(end) => format!("{indent}{} {REDACTED}", &content[..=end]),
        None => format!("{indent}{REDACTED}"),
    }
}

/// The position of the colon that ends a block mapping's key, if the line starts with one.
fn key_end(content: &str) -> Option<usize> {
    if let Some(quote) = content.chars().next().filter(|c| *c == '"' || *c == '\'') {
        let close = content[1..].find(quote)? + 1;
        return content[close + 1..].starts_with(':').then_some(close + 1);
    }
    let at = content.find(": ").or_else(|| {
        content
            .strip_suffix(':')
            .map(|key| key.len())
            .filter(|_| !content.contains(' '))
    })?;
    let key = &content[..at];
    (!key.is_empty() && !key.contains([' ', '{', '[', '"', '\''])).then_some(at)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_secrets_values_and_the_annotations_copy_are_found_and_scrubbed() {
        let secret = json!({
            "apiVersion": "v1", "kind": "Secret",
            "metadata": {"name": "db", "annotations": {
                LAST_APPLIED: "{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"stringData\":{\"token\":\"swordfish\"}}"
            }},
            "data": {"password": "hunter2-not-base64!"},
            "stringData": {"pin": 12345},
        });
        let found = values(&secret);
        let message = "\"hunter2-not-base64!\" is not base64; 12345 is an integer; \
                       the copy says swordfish";
        let scrubbed = scrub(message, &found, Value::to_string);
        assert_eq!(
            scrubbed,
            "<redacted> is not base64; <redacted> is an integer; the copy says <redacted>"
        );
        // Not a Secret: nothing to hide.
        let config_map = json!({"apiVersion": "v1", "kind": "ConfigMap", "data": {"a": "hunter2"}});
        assert!(values(&config_map).is_empty());
    }

    #[test]
    fn redacting_an_object_reaches_into_the_annotation() {
        let mut secret = json!({
            "apiVersion": "v1", "kind": "Secret",
            "metadata": {"name": "db", "annotations": {
                LAST_APPLIED: "{\"data\":{\"password\":\"aHVudGVyMg==\"}}"
            }},
            "data": {"password": "aHVudGVyMg=="},
        });
        redact_object(&mut secret, &mut |_, _, _| Value::from(REDACTED));
        let text = secret.to_string();
        assert!(!text.contains("aHVudGVyMg=="), "{text}");
        assert!(
            text.contains("{\\\"data\\\":{\\\"password\\\":\\\"<redacted>\\\"}}"),
            "{text}"
        );
    }

    #[test]
    fn the_lines_of_a_secrets_values_are_masked_from_the_text_alone() {
        let text = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\n  annotations:\n    \
                    kubectl.kubernetes.io/last-applied-configuration: |\n      {\"data\": 1}\n\
                    data:\n  password: aHVudGVy\n  \"odd key\": 'x'\n  long: >-\n    \
                    continued\nstringData: {token: hunter2}\ntype: Opaque\n";
        let masked = masked_lines(text);
        let lines: Vec<&str> = text.lines().collect();
        let shown: Vec<(&str, &str)> = masked
            .iter()
            .map(|(index, line)| (lines[*index], line.as_str()))
            .collect();
        assert_eq!(
            shown,
            [
                (
                    "    kubectl.kubernetes.io/last-applied-configuration: |",
                    "    kubectl.kubernetes.io/last-applied-configuration: <redacted>"
                ),
                ("      {\"data\": 1}", "      <redacted>"),
                ("  password: aHVudGVy", "  password: <redacted>"),
                ("  \"odd key\": 'x'", "  \"odd key\": <redacted>"),
                ("  long: >-", "  long: <redacted>"),
                ("    continued", "    <redacted>"),
                ("stringData: {token: hunter2}", "stringData: <redacted>"),
            ]
        );
        assert!(masked_lines(&text.replace("kind: Secret", "kind: ConfigMap")).is_empty());
        let flow = "{apiVersion: v1, kind: Secret, metadata: {name: a}, data: {p: aHVudGVy}}";
        assert_eq!(
            masked_lines(flow),
            [(
                0,
                "{apiVersion: v1, kind: Secret, metadata: {name: a}, <redacted>".to_string()
            )]
        );
    }
}
