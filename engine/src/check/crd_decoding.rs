//! Whether the API server can read a CRD's schema at all: each keyword of apiextensions'
//! `JSONSchemaProps` has one JSON type (`maxLength` an integer, `required` a list of strings,
//! `type` one string), and a request whose schema gives another fails to decode before any
//! check runs (Go's encoding/json, into apiextensions-apiserver pkg/apis/apiextensions/v1
//! types.go). fedrender's own reading of a schema skips what it cannot use, so this says where
//! the API server stops.

use serde_json::Value;

use super::refusal::{Place, Refusal};

/// The Go type a keyword decodes into.
#[derive(Clone, Copy)]
enum Kind {
    Text,
    Number,
    Integer,
    Flag,
    Texts,
    Schema,
    Schemas,
    SchemaMap,
    SchemaOrFlag,
    SchemaOrSchemas,
    Dependencies,
    Anything,
    List,
    Documentation,
    Rules,
}

impl Kind {
    fn of(keyword: &str) -> Option<Kind> {
        Some(match keyword {
            "id"
            | "$schema"
            | "$ref"
            | "description"
            | "type"
            | "format"
            | "title"
            | "pattern"
            | "x-kubernetes-list-type"
            | "x-kubernetes-map-type" => Kind::Text,
            "maximum" | "minimum" | "multipleOf" => Kind::Number,
            "maxLength" | "minLength" | "maxItems" | "minItems" | "maxProperties"
            | "minProperties" => Kind::Integer,
            "exclusiveMaximum"
            | "exclusiveMinimum"
            | "uniqueItems"
            | "nullable"
            | "x-kubernetes-preserve-unknown-fields"
            | "x-kubernetes-embedded-resource"
            | "x-kubernetes-int-or-string" => Kind::Flag,
            "required" | "x-kubernetes-list-map-keys" => Kind::Texts,
            "not" => Kind::Schema,
            "allOf" | "oneOf" | "anyOf" => Kind::Schemas,
            "properties" | "patternProperties" | "definitions" => Kind::SchemaMap,
            "additionalProperties" | "additionalItems" => Kind::SchemaOrFlag,
            "items" => Kind::SchemaOrSchemas,
            "dependencies" => Kind::Dependencies,
            "default" | "example" => Kind::Anything,
            "enum" => Kind::List,
            "externalDocs" => Kind::Documentation,
            "x-kubernetes-validations" => Kind::Rules,
            _ => return None,
        })
    }

    /// What Go calls the type it wanted.
    fn go_type(self) -> &'static str {
        match self {
            Kind::Text => "string",
            Kind::Number => "float64",
            Kind::Integer => "int64",
            Kind::Flag => "bool",
            Kind::Texts => "[]string",
            Kind::Schema | Kind::SchemaOrFlag | Kind::SchemaOrSchemas | Kind::Documentation => {
                "v1.JSONSchemaProps"
            }
            Kind::Schemas => "[]v1.JSONSchemaProps",
            Kind::SchemaMap | Kind::Dependencies => "map[string]v1.JSONSchemaProps",
            Kind::Anything => "v1.JSON",
            Kind::List => "[]v1.JSON",
            Kind::Rules => "v1.ValidationRules",
        }
    }
}

/// What JSON calls a value, as Go's decoding errors name it.
fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Whether a number reaches the API server as an integer: YAML's `1.0` is written `1` when
/// kubectl turns the YAML into JSON, so a whole float is one.
fn integral(value: &Value) -> bool {
    value.as_i64().is_some()
        || value
            .as_f64()
            .is_some_and(|float| float.fract() == 0.0 && float.abs() < 9.2e18)
}

/// The errors of decoding the schema `node` at `at`, at most `room` of them, depth first.
pub fn decoding_refusals(node: &Value, at: &Place, room: usize) -> Vec<Refusal> {
    let mut out = Vec::new();
    schema(node, at, room, &mut out);
    out
}

fn refuse(value: &Value, kind: Kind, at: &Place, out: &mut Vec<Refusal>) {
    let shown = value.to_string();
    let shown = if shown.len() > 60 {
        format!("{}…", shown.chars().take(60).collect::<String>())
    } else {
        shown
    };
    out.push(Refusal::at(
        at,
        format!(
            "Invalid value: {shown}: json: cannot unmarshal {} into a field of type {}: the API \
             server cannot read the CRD",
            json_kind(value),
            kind.go_type()
        ),
    ));
}

fn schema(node: &Value, at: &Place, room: usize, out: &mut Vec<Refusal>) {
    if out.len() >= room {
        return;
    }
    let Some(fields) = node.as_object() else {
        if !node.is_null() {
            refuse(node, Kind::Schema, at, out);
        }
        return;
    };
    for (keyword, value) in fields {
        if out.len() >= room {
            return;
        }
        let Some(kind) = Kind::of(keyword) else {
            continue;
        };
        if value.is_null() {
            continue;
        }
        let here = at.child(keyword);
        let fits = match kind {
            Kind::Text => value.is_string(),
            Kind::Number => value.is_number(),
            Kind::Integer => integral(value),
            Kind::Flag => value.is_boolean(),
            Kind::Texts => value
                .as_array()
                .is_some_and(|items| items.iter().all(|item| item.is_string() || item.is_null())),
            Kind::Anything => true,
            Kind::List => value.is_array(),
            Kind::Documentation => value.as_object().is_some_and(|docs| {
                ["description", "url"]
                    .iter()
                    .all(|key| docs.get(*key).is_none_or(|v| v.is_string() || v.is_null()))
            }),
            Kind::Schema => {
                schema(value, &here, room, out);
                true
            }
            Kind::SchemaOrFlag => {
                if !value.is_boolean() {
                    schema(value, &here, room, out);
                }
                true
            }
            Kind::SchemaOrSchemas => match value {
                Value::Array(items) => {
                    for (index, item) in items.iter().enumerate() {
                        schema(item, &at.index(keyword, index), room, out);
                    }
                    true
                }
                Value::Object(_) => {
                    schema(value, &here, room, out);
                    true
                }
                // JSONSchemaPropsOrArray reads anything else as no items at all.
                _ => true,
            },
            Kind::Schemas => match value.as_array() {
                Some(items) => {
                    for (index, item) in items.iter().enumerate() {
                        schema(item, &at.index(keyword, index), room, out);
                    }
                    true
                }
                None => false,
            },
            Kind::SchemaMap => match value.as_object() {
                Some(map) => {
                    for (name, item) in map {
                        schema(item, &at.key(keyword, name), room, out);
                    }
                    true
                }
                None => false,
            },
            Kind::Dependencies => match value.as_object() {
                Some(map) => {
                    for (name, item) in map {
                        if !item
                            .as_array()
                            .is_some_and(|names| names.iter().all(Value::is_string))
                        {
                            schema(item, &at.key(keyword, name), room, out);
                        }
                    }
                    true
                }
                None => false,
            },
            Kind::Rules => match value.as_array() {
                Some(rules) => {
                    for (index, rule) in rules.iter().enumerate() {
                        self::rule(rule, &at.index(keyword, index), out);
                    }
                    true
                }
                None => false,
            },
        };
        if !fits {
            refuse(value, kind, &here, out);
        }
    }
}

/// An entry of `x-kubernetes-validations`: its texts strings, `optionalOldSelf` a flag.
fn rule(rule: &Value, at: &Place, out: &mut Vec<Refusal>) {
    let Some(fields) = rule.as_object() else {
        if !rule.is_null() {
            refuse(rule, Kind::Rules, at, out);
        }
        return;
    };
    for (key, value) in fields {
        let kind = match key.as_str() {
            "rule" | "message" | "messageExpression" | "reason" | "fieldPath" => Kind::Text,
            "optionalOldSelf" => Kind::Flag,
            _ => continue,
        };
        let fits = match kind {
            Kind::Flag => value.is_boolean() || value.is_null(),
            _ => value.is_string() || value.is_null(),
        };
        if !fits {
            refuse(value, kind, &at.child(key), out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn says(node: Value) -> Vec<String> {
        let at = Place::new(
            "spec.validation.openAPIV3Schema",
            "spec.versions[0].schema.openAPIV3Schema",
        );
        decoding_refusals(&node, &at, 20)
            .into_iter()
            .map(|refusal| format!("{}: {}", refusal.field, refusal.says))
            .collect()
    }

    /// apiextensions v1 types.go `JSONSchemaProps`: each keyword's Go type, as cel-judge's
    /// decoding of the probes s48-pdecode-* refuses or takes them.
    #[test]
    fn keywords_of_the_wrong_json_type_do_not_decode() {
        assert_eq!(
            says(
                json!({"type": "object", "properties": {"a": {"type": "string", "maxLength": 1.5}}})
            ),
            vec![
                "spec.validation.openAPIV3Schema.properties[a].maxLength: Invalid value: 1.5: json: cannot unmarshal number into a field of type int64: the API server cannot read the CRD"
            ]
        );
        for wrong in [
            json!({"type": ["string", "null"]}),
            json!({"type": "string", "maxLength": "5"}),
            json!({"type": "integer", "minimum": "1"}),
            json!({"type": "object", "required": "a"}),
            json!({"type": "string", "nullable": "yes"}),
            json!({"type": "string", "enum": "a"}),
            json!({"type": "object", "properties": []}),
            json!({"type": "string", "x-kubernetes-validations": [{"rule": 1}]}),
        ] {
            assert_eq!(says(wrong.clone()).len(), 1, "{wrong}");
        }
        for right in [
            json!({"type": "string", "maxLength": 5.0}),
            json!({"type": "string", "maxLength": -1}),
            json!({"type": "integer", "minimum": 1.5, "default": "anything"}),
            json!({"type": "object", "additionalProperties": false}),
            json!({"type": "string", "nullable": null}),
            json!({"type": "array", "items": "x"}),
        ] {
            assert_eq!(says(right.clone()), Vec::<String>::new(), "{right}");
        }
    }
}
