//! What an API server says of the shape of a CRD's schema before it compiles a rule or
//! validates a default: the structural-schema rules (apiextensions-apiserver
//! pkg/apiserver/schema `NewStructural` and `ValidateStructural`: a type on every node, none
//! inside `anyOf`, `allOf`, `oneOf` or `not`, metadata restricted to name and generateName, a
//! value validation only where the structure declares the field, patterns in Go's syntax) and
//! the checks `ValidateCustomResourceDefinitionOpenAPISchema` makes of each node
//! (pkg/apis/apiextensions/validation/validation.go: the keywords a CRD may not use, defaults
//! where they are forbidden, the `x-kubernetes-*` extensions consistent with the type and with
//! each other). Each refusal is worded as the API server words it, at the field it names.

use serde_json::Value;

use super::cel;
use super::refusal::{Place, Refusal};

/// Whether `key` of `node` is given a value the API server's decoding keeps: not null, not
/// false, not empty (Go's zero values, which the structural checks see as unset).
fn set(node: &Value, key: &str) -> bool {
    match node.get(key) {
        None | Some(Value::Null) | Some(Value::Bool(false)) => false,
        Some(Value::String(text)) => !text.is_empty(),
        Some(Value::Array(items)) => !items.is_empty(),
        Some(Value::Object(fields)) => !fields.is_empty(),
        Some(_) => true,
    }
}

fn flag(node: &Value, key: &str) -> bool {
    node.get(key) == Some(&Value::Bool(true))
}

fn text<'v>(node: &'v Value, key: &str) -> &'v str {
    node.get(key).and_then(Value::as_str).unwrap_or("")
}

/// A value as Go's field errors print it: a string quoted, a list of strings as Go writes a
/// `[]string`, anything else as JSON.
fn go_value(value: &Value) -> String {
    match value {
        Value::String(text) => format!("{text:?}"),
        Value::Array(items) if items.iter().all(Value::is_string) => format!(
            "[]string{{{}}}",
            items
                .iter()
                .map(|item| format!("{:?}", item.as_str().unwrap_or_default()))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        other => other.to_string(),
    }
}

/// `Invalid value: <value>: <detail>`.
fn invalid(value: &Value, detail: &str) -> String {
    format!("Invalid value: {}: {detail}", go_value(value))
}

fn required(detail: &str) -> String {
    format!("Required value: {detail}")
}

fn forbidden(detail: &str) -> String {
    format!("Forbidden: {detail}")
}

fn not_supported(value: &str, supported: &[&str]) -> String {
    let quoted: Vec<String> = supported.iter().map(|value| format!("{value:?}")).collect();
    format!(
        "Unsupported value: {value:?}: supported values: {}",
        quoted.join(", ")
    )
}

fn properties(node: &Value) -> impl Iterator<Item = (&String, &Value)> {
    node.get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
}

fn schemas<'v>(node: &'v Value, key: &str) -> impl Iterator<Item = (usize, &'v Value)> {
    node.get(key)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
}

/// The error `NewStructural` gives for a schema it cannot convert (a keyword structural
/// schemas do not have, `items` as a list, `x-kubernetes-preserve-unknown-fields: false`), the
/// first found; the API server says it only when the schema has no other error.
pub fn unconvertible(node: &Value) -> Option<String> {
    let unsupported = [
        ("id", "id"),
        ("$schema", "schema"),
        ("$ref", "$ref"),
        ("patternProperties", "patternProperties"),
        ("dependencies", "dependencies"),
        ("definitions", "definitions"),
    ];
    for (key, name) in unsupported {
        if set(node, key) {
            return Some(format!("OpenAPIV3Schema '{name}' is not supported"));
        }
    }
    if node
        .get("additionalItems")
        .is_some_and(|value| !value.is_null())
    {
        return Some("OpenAPIV3Schema 'additionalItems' is not supported".to_string());
    }
    if node.get("x-kubernetes-preserve-unknown-fields") == Some(&Value::Bool(false)) {
        return Some(
            "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined"
                .to_string(),
        );
    }
    for key in ["not"] {
        if let Some(below) = node.get(key).filter(|below| below.is_object())
            && let Some(error) = unconvertible(below)
        {
            return Some(error);
        }
    }
    for key in ["allOf", "anyOf", "oneOf"] {
        for (_, below) in schemas(node, key) {
            if let Some(error) = unconvertible(below) {
                return Some(error);
            }
        }
    }
    match node.get("items") {
        Some(Value::Array(items)) if !items.is_empty() => {
            return Some("OpenAPIV3Schema 'items' must be a schema, but is an array".to_string());
        }
        Some(items @ Value::Object(_)) => {
            if let Some(error) = unconvertible(items) {
                return Some(error);
            }
        }
        _ => {}
    }
    for (_, property) in properties(node) {
        if let Some(error) = unconvertible(property) {
            return Some(error);
        }
    }
    node.get("additionalProperties")
        .filter(|additional| additional.is_object())
        .and_then(unconvertible)
}

/// Where a node sits in the structure: the root, an array's items, an object's field.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Level {
    Root,
    Item,
    Field,
}

/// `ValidateStructural` of the root schema at `at`: the structural invariants of every node
/// and the completeness of the root's value validations, sorted by their text as the API
/// server sorts them.
pub fn structural_refusals(root: &Value, at: &Place) -> Vec<Refusal> {
    let mut refusals = Vec::new();
    invariants(root, Level::Root, at, &mut refusals);
    completeness(root, root, at, at, &mut refusals);
    refusals.sort_by(|a, b| {
        format!("{}: {}", a.field, a.says).cmp(&format!("{}: {}", b.field, b.says))
    });
    refusals
}

/// validation.go `validateStructuralInvariants`.
fn invariants(node: &Value, level: Level, at: &Place, out: &mut Vec<Refusal>) {
    let kind = text(node, "type");
    // Items that are neither a schema nor a list of them decode as none.
    if kind == "array"
        && !node
            .get("items")
            .is_some_and(|items| items.is_object() || items.is_array())
    {
        out.push(Refusal::at(
            &at.child("items"),
            required("must be specified"),
        ));
    }
    if let Some(items) = node.get("items").filter(|items| items.is_object()) {
        invariants(items, Level::Item, &at.child("items"), out);
    }
    for (name, property) in properties(node) {
        invariants(property, Level::Field, &at.key("properties", name), out);
    }
    let additional = node
        .get("additionalProperties")
        .filter(|value| !value.is_null());
    if let Some(additional) = additional {
        if level == Level::Root {
            out.push(Refusal::at(
                &at.child("additionalProperties"),
                forbidden("must not be used at the root"),
            ));
        }
        if additional.is_object() {
            invariants(
                additional,
                Level::Field,
                &at.child("additionalProperties"),
                out,
            );
        }
    }
    let int_or_string = flag(node, "x-kubernetes-int-or-string");
    let preserve = flag(node, "x-kubernetes-preserve-unknown-fields");
    let embedded = flag(node, "x-kubernetes-embedded-resource");
    if int_or_string && preserve {
        out.push(Refusal::at(
            &at.child("x-kubernetes-preserve-unknown-fields"),
            invalid(
                &Value::Bool(true),
                "must be false if x-kubernetes-int-or-string is true",
            ),
        ));
    }
    if int_or_string && embedded {
        out.push(Refusal::at(
            &at.child("x-kubernetes-embedded-resource"),
            invalid(
                &Value::Bool(true),
                "must be false if x-kubernetes-int-or-string is true",
            ),
        ));
    }
    value_validation(
        node,
        int_or_string_any_of(node.get("anyOf")),
        crate::json_pointer::pointer(node, "/allOf/0/anyOf")
            .is_some_and(|any_of| int_or_string_any_of(Some(any_of))),
        at,
        out,
    );
    let check_metadata = level == Level::Root || embedded;
    if embedded && kind != "object" {
        out.push(Refusal::at(
            &at.child("type"),
            if kind.is_empty() {
                required("must be object if x-kubernetes-embedded-resource is true")
            } else {
                invalid(
                    &Value::from(kind),
                    "must be object if x-kubernetes-embedded-resource is true",
                )
            },
        ));
    } else if kind.is_empty() && !int_or_string && !preserve {
        let detail = match level {
            Level::Root => "must not be empty at the root",
            Level::Item => "must not be empty for specified array items",
            Level::Field => "must not be empty for specified object fields",
        };
        out.push(Refusal::at(&at.child("type"), required(detail)));
    }
    if embedded && additional.is_some() {
        out.push(Refusal::at(
            &at.child("additionalProperties"),
            forbidden("must not be used if x-kubernetes-embedded-resource is set"),
        ));
    }
    if level == Level::Root && !kind.is_empty() && kind != "object" {
        out.push(Refusal::at(
            &at.child("type"),
            invalid(&Value::from(kind), "must be object at the root"),
        ));
    }
    if check_metadata {
        for field in ["kind", "apiVersion"] {
            if let Some(property) =
                crate::json_pointer::pointer(node, &format!("/properties/{field}"))
            {
                let kind = text(property, "type");
                if kind != "string" {
                    out.push(Refusal::at(
                        &at.key("properties", field).child("type"),
                        invalid(&Value::from(kind), "must be string"),
                    ));
                }
            }
        }
    }
    if let Some(metadata) = crate::json_pointer::pointer(node, "/properties/metadata") {
        let at = at.key("properties", "metadata");
        if check_metadata && text(metadata, "type") != "object" {
            out.push(Refusal::at(
                &at.child("type"),
                invalid(&Value::from(text(metadata, "type")), "must be object"),
            ));
        }
        if level == Level::Root && !metadata_only_names(metadata) {
            out.push(Refusal::at(
                &at,
                forbidden(
                    "must not specify anything other than name and generateName, but metadata \
                     is implicitly specified",
                ),
            ));
        }
    }
    if embedded && !preserve && !set(node, "properties") {
        out.push(Refusal::at(
            &at.child("properties"),
            required(
                "must not be empty if x-kubernetes-embedded-resource is true without \
                 x-kubernetes-preserve-unknown-fields",
            ),
        ));
    }
}

/// Whether the root's `metadata` schema says nothing but its type, a default (refused
/// elsewhere) and the schemas of `name` and `generateName` (validation.go
/// `validateStructuralMetadataInvariants`).
fn metadata_only_names(metadata: &Value) -> bool {
    let Some(fields) = metadata.as_object() else {
        return true;
    };
    fields.iter().all(|(key, value)| match key.as_str() {
        "type" | "default" => true,
        "properties" => value.as_object().is_none_or(|named| {
            named
                .keys()
                .all(|name| name == "name" || name == "generateName")
        }),
        // What the API server's decoding does not keep is no restriction.
        _ => !set(metadata, key) || !is_schema_keyword(key),
    })
}

/// The keywords of apiextensions' JSONSchemaProps: what a CRD's decoding keeps.
fn is_schema_keyword(key: &str) -> bool {
    matches!(
        key,
        "id" | "$schema"
            | "$ref"
            | "description"
            | "type"
            | "format"
            | "title"
            | "default"
            | "maximum"
            | "exclusiveMaximum"
            | "minimum"
            | "exclusiveMinimum"
            | "maxLength"
            | "minLength"
            | "pattern"
            | "maxItems"
            | "minItems"
            | "uniqueItems"
            | "multipleOf"
            | "enum"
            | "maxProperties"
            | "minProperties"
            | "required"
            | "items"
            | "allOf"
            | "oneOf"
            | "anyOf"
            | "not"
            | "properties"
            | "additionalProperties"
            | "patternProperties"
            | "dependencies"
            | "additionalItems"
            | "definitions"
            | "externalDocs"
            | "example"
            | "nullable"
            | "x-kubernetes-preserve-unknown-fields"
            | "x-kubernetes-embedded-resource"
            | "x-kubernetes-int-or-string"
            | "x-kubernetes-list-map-keys"
            | "x-kubernetes-list-type"
            | "x-kubernetes-map-type"
            | "x-kubernetes-validations"
    )
}

/// Whether an `anyOf` is int-or-string's own, `[{type: integer}, {type: string}]` and nothing
/// else, which may name types (validation.go `isIntOrStringAnyOfPattern`).
fn int_or_string_any_of(any_of: Option<&Value>) -> bool {
    let Some([first, second]) = any_of.and_then(Value::as_array).map(Vec::as_slice) else {
        return false;
    };
    let only_type = |choice: &Value, wanted: &str| {
        choice.as_object().is_some_and(|fields| {
            fields.iter().all(|(key, value)| {
                key == "type" || !set(choice, key) || !is_schema_keyword(key) && value.is_null()
            })
        }) && text(choice, "type") == wanted
    };
    only_type(first, "integer") && only_type(second, "string")
}

/// validation.go `validateValueValidation`: the logical junctors' choices and the pattern.
fn value_validation(
    node: &Value,
    skip_any_of: bool,
    skip_first_all_of_any_of: bool,
    at: &Place,
    out: &mut Vec<Refusal>,
) {
    if !skip_any_of {
        for (index, choice) in schemas(node, "anyOf") {
            nested(choice, false, &at.index("anyOf", index), out);
        }
    }
    for (index, choice) in schemas(node, "allOf") {
        nested(
            choice,
            skip_first_all_of_any_of && index == 0,
            &at.index("allOf", index),
            out,
        );
    }
    for (index, choice) in schemas(node, "oneOf") {
        nested(choice, false, &at.index("oneOf", index), out);
    }
    if let Some(not) = node.get("not").filter(|not| not.is_object()) {
        nested(not, false, &at.child("not"), out);
    }
    if let Some(pattern) = node.get("pattern").and_then(Value::as_str)
        && !pattern.is_empty()
        && let Err(problem) = cel::go_regexp_syntax(pattern)
    {
        out.push(Refusal::at(
            &at.child("pattern"),
            invalid(
                &Value::from(pattern),
                &format!("must be a valid regular expression, but isn't: {problem}"),
            ),
        ));
    }
}

/// validation.go `validateNestedValueValidation`: what a choice of a junctor (and anything
/// below one) may not say, for it decides no structure.
fn nested(node: &Value, skip_any_of: bool, at: &Place, out: &mut Vec<Refusal>) {
    value_validation(node, skip_any_of, false, at, out);
    if let Some(items) = node.get("items").filter(|items| items.is_object()) {
        nested(items, false, &at.child("items"), out);
    }
    for (name, property) in properties(node) {
        nested(property, false, &at.key("properties", name), out);
    }
    let additional = matches!(
        node.get("additionalProperties"),
        Some(Value::Bool(true) | Value::Object(_))
    );
    let checks: [(&str, bool, &str); 13] = [
        ("type", set(node, "type"), "must be empty to be structural"),
        (
            "additionalProperties",
            additional,
            "must be undefined to be structural",
        ),
        (
            "default",
            node.get("default").is_some_and(|value| !value.is_null()),
            "must be undefined to be structural",
        ),
        (
            "title",
            set(node, "title"),
            "must be empty to be structural",
        ),
        (
            "description",
            set(node, "description"),
            "must be empty to be structural",
        ),
        (
            "nullable",
            flag(node, "nullable"),
            "must be false to be structural",
        ),
        (
            "x-kubernetes-preserve-unknown-fields",
            flag(node, "x-kubernetes-preserve-unknown-fields"),
            "must be false to be structural",
        ),
        (
            "x-kubernetes-embedded-resource",
            flag(node, "x-kubernetes-embedded-resource"),
            "must be false to be structural",
        ),
        (
            "x-kubernetes-int-or-string",
            flag(node, "x-kubernetes-int-or-string"),
            "must be false to be structural",
        ),
        (
            "x-kubernetes-list-map-keys",
            set(node, "x-kubernetes-list-map-keys"),
            "must be empty to be structural",
        ),
        (
            "x-kubernetes-list-type",
            node.get("x-kubernetes-list-type")
                .is_some_and(Value::is_string),
            "must be undefined to be structural",
        ),
        (
            "x-kubernetes-map-type",
            node.get("x-kubernetes-map-type")
                .is_some_and(Value::is_string),
            "must be undefined to be structural",
        ),
        (
            "x-kubernetes-validations",
            set(node, "x-kubernetes-validations"),
            "must be empty to be structural",
        ),
    ];
    for (key, wrong, detail) in checks {
        if wrong {
            out.push(Refusal::at(&at.child(key), forbidden(detail)));
        }
    }
    if crate::json_pointer::pointer(node, "/properties/metadata").is_some() {
        out.push(Refusal::at(
            &at.key("properties", "metadata"),
            forbidden("must not be specified in a nested context"),
        ));
    }
}

/// validation.go `validateStructuralCompleteness`: every field a value validation of the root
/// names (`anyOf: [{properties: {a: …}}]`) is declared by the structure too.
fn completeness(
    validation: &Value,
    structure: &Value,
    structure_at: &Place,
    validation_at: &Place,
    out: &mut Vec<Refusal>,
) {
    let mut choices: Vec<(&Value, Place)> = Vec::new();
    if let Some(not) = validation.get("not").filter(|not| not.is_object()) {
        choices.push((not, validation_at.child("not")));
    }
    for key in ["allOf", "anyOf", "oneOf"] {
        for (index, choice) in schemas(validation, key) {
            choices.push((choice, validation_at.index(key, index)));
        }
    }
    for (choice, at) in choices {
        nested_completeness(choice, Some(structure), structure_at, &at, out);
    }
}

fn nested_completeness(
    validation: &Value,
    structure: Option<&Value>,
    structure_at: &Place,
    validation_at: &Place,
    out: &mut Vec<Refusal>,
) {
    let Some(structure) = structure else {
        out.push(Refusal::at(
            structure_at,
            required(&format!("because it is defined in {}", validation_at.api)),
        ));
        return;
    };
    completeness(validation, structure, structure_at, validation_at, out);
    if let Some(items) = validation.get("items").filter(|items| items.is_object()) {
        nested_completeness(
            items,
            structure.get("items").filter(|items| items.is_object()),
            &structure_at.child("items"),
            &validation_at.child("items"),
            out,
        );
    }
    for (name, property) in properties(validation) {
        let declared = structure
            .get("properties")
            .and_then(|declared| declared.get(name));
        match declared {
            Some(declared) => nested_completeness(
                property,
                Some(declared),
                &structure_at.key("properties", name),
                &validation_at.key("properties", name),
                out,
            ),
            None => out.push(Refusal::at(
                &structure_at.key("properties", name),
                required(&format!(
                    "because it is defined in {}",
                    validation_at.key("properties", name).api
                )),
            )),
        }
    }
}

/// What may be said where a node sits (validation.go `specStandardValidatorV3`): whether a
/// default is allowed, and whether the node is inside a resource's metadata (or its apiVersion
/// or kind).
#[derive(Clone, Debug, Default)]
pub struct Standard {
    /// Why a default may not be set here, when it may not.
    defaults_forbidden: Option<String>,
    inside_meta: bool,
}

impl Standard {
    /// The standard of a property `name` of `parent`, which is the resource's root (`root`) or
    /// an embedded resource or neither.
    pub fn for_property(&self, parent: &Value, root: bool, name: &str) -> Standard {
        let mut below = self.clone();
        if (root || flag(parent, "x-kubernetes-embedded-resource"))
            && matches!(name, "metadata" | "kind" | "apiVersion")
        {
            below.inside_meta = true;
            if root {
                below.defaults_forbidden = Some(format!("in top-level {name}"));
            }
        }
        below
    }

    /// The standard of a node's `additionalProperties`: inside metadata (its labels, say)
    /// pruning a default would be ambiguous, so it may not have one.
    pub fn for_additional_properties(&self) -> Standard {
        let mut below = self.clone();
        if self.inside_meta {
            below.defaults_forbidden =
                Some("inside additionalProperties applying to object metadata".to_string());
        }
        below
    }
}

const TYPES: [&str; 6] = ["array", "boolean", "integer", "number", "object", "string"];

/// What `ValidateCustomResourceDefinitionOpenAPISchema` says of the node at `at` itself, apart
/// from its rules: the keywords a CRD may not use, a default where none may be, the
/// `x-kubernetes-*` extensions against the type and each other, and a map or set list's items
/// and keys.
pub fn node_refusals(node: &Value, at: &Place, standard: &Standard) -> Vec<Refusal> {
    let mut out = Vec::new();
    let kind = text(node, "type");
    // specStandardValidatorV3.validate
    if !kind.is_empty() && !TYPES.contains(&kind) {
        out.push(Refusal::at(&at.child("type"), not_supported(kind, &TYPES)));
    }
    if node.get("default").is_some_and(|value| !value.is_null())
        && let Some(reason) = &standard.defaults_forbidden
    {
        out.push(Refusal::at(
            &at.child("default"),
            forbidden(&format!("must not be set {reason}")),
        ));
    }
    if set(node, "id") {
        out.push(Refusal::at(
            &at.child("id"),
            forbidden("id is not supported"),
        ));
    }
    if node
        .get("additionalItems")
        .is_some_and(|value| !value.is_null())
    {
        out.push(Refusal::at(
            &at.child("additionalItems"),
            forbidden("additionalItems is not supported"),
        ));
    }
    for key in ["patternProperties", "definitions"] {
        if set(node, key) {
            out.push(Refusal::at(
                &at.child(key),
                forbidden(&format!("{key} is not supported")),
            ));
        }
    }
    if node
        .get("dependencies")
        .is_some_and(|value| !value.is_null())
    {
        out.push(Refusal::at(
            &at.child("dependencies"),
            forbidden("dependencies is not supported"),
        ));
    }
    if node.get("$ref").is_some_and(|value| !value.is_null()) {
        out.push(Refusal::at(
            &at.child("$ref"),
            forbidden("$ref is not supported"),
        ));
    }
    if kind == "null" {
        out.push(Refusal::at(
            &at.child("type"),
            forbidden("type cannot be set to null, use nullable as an alternative"),
        ));
    }
    if node
        .get("items")
        .and_then(Value::as_array)
        .is_some_and(|items| !items.is_empty())
    {
        out.push(Refusal::at(
            &at.child("items"),
            forbidden("items must be a schema object and not an array"),
        ));
    }
    if standard.inside_meta && flag(node, "x-kubernetes-embedded-resource") {
        out.push(Refusal::at(
            &at.child("x-kubernetes-embedded-resource"),
            forbidden("must not be used inside of resource meta"),
        ));
    }
    // ValidateCustomResourceDefinitionOpenAPISchema
    if flag(node, "uniqueItems") {
        out.push(Refusal::at(
            &at.child("uniqueItems"),
            forbidden(
                "uniqueItems cannot be set to true since the runtime complexity becomes quadratic",
            ),
        ));
    }
    match node.get("additionalProperties") {
        Some(Value::Bool(false) | Value::Object(_)) if set(node, "properties") => {
            out.push(Refusal::at(
                &at.child("additionalProperties"),
                forbidden("additionalProperties and properties are mutual exclusive"),
            ));
        }
        _ => {}
    }
    if node.get("x-kubernetes-preserve-unknown-fields") == Some(&Value::Bool(false)) {
        out.push(Refusal::at(
            &at.child("x-kubernetes-preserve-unknown-fields"),
            invalid(&Value::Bool(false), "must be true or undefined"),
        ));
    }
    let of_type = |wanted: &str, extension: &str| {
        let detail = format!("must be {wanted} if {extension} is specified");
        if kind.is_empty() {
            required(&detail)
        } else {
            invalid(&Value::from(kind), &detail)
        }
    };
    let map_type = node.get("x-kubernetes-map-type").and_then(Value::as_str);
    if let Some(map_type) = map_type {
        if kind != "object" {
            out.push(Refusal::at(
                &at.child("type"),
                of_type("object", "x-kubernetes-map-type"),
            ));
        }
        if map_type != "atomic" && map_type != "granular" {
            out.push(Refusal::at(
                &at.child("x-kubernetes-map-type"),
                not_supported(map_type, &["atomic", "granular"]),
            ));
        }
    }
    let list_type = node.get("x-kubernetes-list-type").and_then(Value::as_str);
    let items = node.get("items").filter(|items| items.is_object());
    if let Some(list_type) = list_type {
        if kind != "array" {
            out.push(Refusal::at(
                &at.child("type"),
                of_type("array", "x-kubernetes-list-type"),
            ));
        } else if list_type == "set"
            && let Some(items) = items
        {
            let detail = "must be atomic as item of a list with x-kubernetes-list-type=set";
            match text(items, "type") {
                "array" => {
                    if let Some(inner) = items.get("x-kubernetes-list-type").and_then(Value::as_str)
                        && inner != "atomic"
                    {
                        out.push(Refusal::at(
                            &at.child("items").child("x-kubernetes-list-type"),
                            invalid(&Value::from(inner), detail),
                        ));
                    }
                }
                "object"
                    if items.get("x-kubernetes-map-type").and_then(Value::as_str)
                        != Some("atomic") =>
                {
                    // The API server prints the items' list type here, which an object has
                    // none of.
                    let shown = items
                        .get("x-kubernetes-list-type")
                        .cloned()
                        .unwrap_or(Value::Null);
                    out.push(Refusal::at(
                        &at.child("items").child("x-kubernetes-map-type"),
                        invalid(&shown, detail),
                    ));
                }
                _ => {}
            }
        }
        if !matches!(list_type, "atomic" | "set" | "map") {
            out.push(Refusal::at(
                &at.child("x-kubernetes-list-type"),
                not_supported(list_type, &["atomic", "set", "map"]),
            ));
        }
    }
    let keys: Vec<&str> = node
        .get("x-kubernetes-list-map-keys")
        .and_then(Value::as_array)
        .map(|keys| keys.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    if !keys.is_empty() {
        match list_type {
            None => out.push(Refusal::at(
                &at.child("x-kubernetes-list-type"),
                required("must be map if x-kubernetes-list-map-keys is non-empty"),
            )),
            Some("map") => {}
            Some(other) => out.push(Refusal::at(
                &at.child("x-kubernetes-list-type"),
                invalid(
                    &Value::from(other),
                    "must be map if x-kubernetes-list-map-keys is non-empty",
                ),
            )),
        }
    }
    if list_type == Some("map") {
        map_list(node, at, &keys, &mut out);
    }
    if let (Some(list_type @ ("set" | "map")), Some(items)) = (list_type, items) {
        // validateMapListKeysMapSet
        if flag(items, "nullable") {
            out.push(Refusal::at(
                &at.child("items").child("nullable"),
                forbidden(&format!(
                    "cannot be nullable when x-kubernetes-list-type is {list_type}"
                )),
            ));
        }
        if list_type == "map" {
            let required_keys: Vec<&str> = items
                .get("required")
                .and_then(Value::as_array)
                .map(|names| names.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            for key in &keys {
                let Some(property) = crate::json_pointer::pointer(
                    items,
                    &format!("/properties/{}", pointer_escape(key)),
                ) else {
                    continue;
                };
                let at = at.child("items").key("properties", key);
                if !required_keys.contains(key)
                    && property.get("default").is_none_or(Value::is_null)
                {
                    out.push(Refusal::at(
                        &at.child("default"),
                        required(
                            "this property is in x-kubernetes-list-map-keys, so it must have a \
                             default or be a required property",
                        ),
                    ));
                }
                if flag(property, "nullable") {
                    out.push(Refusal::at(
                        &at.child("nullable"),
                        forbidden(
                            "this property is in x-kubernetes-list-map-keys, so it cannot be \
                             nullable",
                        ),
                    ));
                }
            }
        }
    }
    out
}

/// A map list's items and keys: items of one schema, an object's, whose keys are its
/// properties, each scalar and named once.
fn map_list(node: &Value, at: &Place, keys: &[&str], out: &mut Vec<Refusal>) {
    if keys.is_empty() {
        out.push(Refusal::at(
            &at.child("x-kubernetes-list-map-keys"),
            required("must not be empty if x-kubernetes-list-type is map"),
        ));
    }
    let Some(items) = node.get("items").filter(|items| !items.is_null()) else {
        out.push(Refusal::at(
            &at.child("items"),
            required("must have a schema if x-kubernetes-list-type is map"),
        ));
        return;
    };
    if items.is_array() {
        out.push(Refusal::at(
            &at.child("items"),
            invalid(
                items,
                "must only have a single schema if x-kubernetes-list-type is map",
            ),
        ));
        return;
    }
    let item_type = text(items, "type");
    if item_type != "object" {
        out.push(Refusal::at(
            &at.child("items").child("type"),
            invalid(
                &Value::from(item_type),
                "must be object if parent array's x-kubernetes-list-type is map",
            ),
        ));
        return;
    }
    let all_keys = node
        .get("x-kubernetes-list-map-keys")
        .cloned()
        .unwrap_or(Value::Null);
    let mut seen: Vec<&str> = Vec::new();
    for key in keys {
        match crate::json_pointer::pointer(items, &format!("/properties/{}", pointer_escape(key))) {
            Some(property) => {
                if matches!(text(property, "type"), "array" | "object") {
                    out.push(Refusal::at(
                        &at.child("items").key("properties", key).child("type"),
                        invalid(
                            &Value::from(item_type),
                            "must be a scalar type if parent array's x-kubernetes-list-type is map",
                        ),
                    ));
                }
            }
            None => out.push(Refusal::at(
                &at.child("x-kubernetes-list-map-keys"),
                invalid(&all_keys, "entries must all be names of item properties"),
            )),
        }
        if seen.contains(key) {
            out.push(Refusal::at(
                &at.child("x-kubernetes-list-map-keys"),
                invalid(&all_keys, "must not contain duplicate entries"),
            ));
        }
        seen.push(key);
    }
}

/// A JSON pointer's token for `name` (`~` and `/` escaped).
fn pointer_escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests;
