use super::*;
use serde_json::json;

fn root() -> Place {
    Place::new(
        "spec.validation.openAPIV3Schema",
        "spec.versions[0].schema.openAPIV3Schema",
    )
}

fn structural(schema: Value) -> Vec<String> {
    structural_refusals(&schema, &root())
        .into_iter()
        .map(|refusal| format!("{}: {}", refusal.field, refusal.says))
        .collect()
}

fn of_node(schema: Value, standard: &Standard) -> Vec<String> {
    node_refusals(&schema, &root(), standard)
        .into_iter()
        .map(|refusal| format!("{}: {}", refusal.field, refusal.says))
        .collect()
}

const AT: &str = "spec.validation.openAPIV3Schema";

/// pkg/apiserver/schema/validation_test.go `TestValidateStructural` and
/// validation_test.go "must be structural, but isn't": a type on every node, none in a
/// value validation, which may not say what decides structure either.
#[test]
fn every_node_has_a_type_and_value_validations_none() {
    assert_eq!(
        structural(
            json!({"type": "object", "properties": {"a": {"maxLength": 3},
                "b": {"type": "array", "items": {"maxLength": 1}}, "c": {"type": "array"}}})
        ),
        vec![
            format!(
                "{AT}.properties[a].type: Required value: must not be empty for specified object fields"
            ),
            format!(
                "{AT}.properties[b].items.type: Required value: must not be empty for specified array items"
            ),
            format!("{AT}.properties[c].items: Required value: must be specified"),
        ]
    );
    assert_eq!(
        structural(json!({"properties": {}})),
        vec![format!(
            "{AT}.type: Required value: must not be empty at the root"
        )]
    );
    assert_eq!(
        structural(json!({"type": "array", "items": {"type": "string"}})),
        vec![format!(
            "{AT}.type: Invalid value: \"array\": must be object at the root"
        )]
    );
    let choice = json!({"type": "string", "default": "x", "nullable": true, "title": "t",
            "description": "d", "x-kubernetes-validations": [{"rule": "true"}],
            "x-kubernetes-list-type": "set", "additionalProperties": true,
            "properties": {"metadata": {}}});
    let said = structural(
        json!({"type": "object", "properties": {"a": {"type": "string",
            "anyOf": [choice]}}}),
    );
    let at = format!("{AT}.properties[a].anyOf[0]");
    for expected in [
        format!("{at}.type: Forbidden: must be empty to be structural"),
        format!("{at}.default: Forbidden: must be undefined to be structural"),
        format!("{at}.nullable: Forbidden: must be false to be structural"),
        format!("{at}.title: Forbidden: must be empty to be structural"),
        format!("{at}.description: Forbidden: must be empty to be structural"),
        format!("{at}.x-kubernetes-validations: Forbidden: must be empty to be structural"),
        format!("{at}.x-kubernetes-list-type: Forbidden: must be undefined to be structural"),
        format!("{at}.additionalProperties: Forbidden: must be undefined to be structural"),
        format!("{at}.properties[metadata]: Forbidden: must not be specified in a nested context"),
    ] {
        assert!(said.contains(&expected), "{expected} not in {said:#?}");
    }
    // Sorted by their text, as the API server sorts them.
    let mut sorted = said.clone();
    sorted.sort();
    assert_eq!(said, sorted);
}

/// validation.go `isIntOrStringAnyOfPattern` / `isIntOrStringAllOfPattern`: int-or-string's
/// own anyOf may name types, in that order and alone.
#[test]
fn int_or_string_may_name_its_two_types() {
    let int_or_string = json!([{"type": "integer"}, {"type": "string"}]);
    for schema in [
        json!({"x-kubernetes-int-or-string": true, "anyOf": int_or_string}),
        json!({"x-kubernetes-int-or-string": true, "allOf": [{"anyOf": int_or_string},
                {"pattern": "^[0-9]+%?$"}]}),
    ] {
        assert_eq!(
            structural(json!({"type": "object", "properties": {"a": schema}})),
            Vec::<String>::new()
        );
    }
    let reversed = json!({"x-kubernetes-int-or-string": true,
            "anyOf": [{"type": "string"}, {"type": "integer"}],
            "x-kubernetes-preserve-unknown-fields": true});
    assert_eq!(
        structural(json!({"type": "object", "properties": {"a": reversed}})),
        vec![
            format!("{AT}.properties[a].anyOf[0].type: Forbidden: must be empty to be structural"),
            format!("{AT}.properties[a].anyOf[1].type: Forbidden: must be empty to be structural"),
            format!(
                "{AT}.properties[a].x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true"
            ),
        ]
    );
}

/// validation_test.go "x-kubernetes-embedded-resource with pruning and empty properties"
/// and the metadata invariants (`validateStructuralMetadataInvariants`): root metadata
/// may narrow name and generateName only; an embedded resource is an object with fields.
#[test]
fn metadata_and_embedded_resources_keep_their_shape() {
    assert_eq!(
        structural(json!({"type": "object", "properties": {
                "metadata": {"type": "object", "properties": {"name": {"type": "string", "maxLength": 5}}},
                "kind": {"type": "string"}}})),
        Vec::<String>::new()
    );
    assert_eq!(
        structural(json!({"type": "object", "properties": {
                "metadata": {"type": "object", "properties": {"labels": {"type": "object"}}},
                "kind": {"type": "integer"}}})),
        vec![
            format!("{AT}.properties[kind].type: Invalid value: \"integer\": must be string"),
            format!(
                "{AT}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified"
            ),
        ]
    );
    assert_eq!(
        structural(json!({"type": "object", "properties": {
                "a": {"type": "object", "x-kubernetes-embedded-resource": true},
                "b": {"type": "string", "x-kubernetes-embedded-resource": true,
                    "x-kubernetes-preserve-unknown-fields": true}}})),
        vec![
            format!(
                "{AT}.properties[a].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields"
            ),
            format!(
                "{AT}.properties[b].type: Invalid value: \"string\": must be object if x-kubernetes-embedded-resource is true"
            ),
        ]
    );
}

/// complete.go `validateStructuralCompleteness`: a field a value validation of the root
/// names must be declared by the structure.
#[test]
fn value_validations_name_declared_fields_only() {
    assert_eq!(
        structural(
            json!({"type": "object", "properties": {"spec": {"type": "object"}},
                "anyOf": [{"properties": {"status": {"maxProperties": 1}}},
                    {"properties": {"spec": {"items": {"maxLength": 1}}}}]})
        ),
        vec![
            format!(
                "{AT}.properties[spec].items: Required value: because it is defined in {AT}.anyOf[1].properties[spec].items"
            ),
            format!(
                "{AT}.properties[status]: Required value: because it is defined in {AT}.anyOf[0].properties[status]"
            ),
        ]
    );
}

/// A pattern must be a regular expression in Go's syntax (validation.go
/// `validateValueValidation`), inside value validations too.
#[test]
fn patterns_are_read_as_go_reads_them() {
    let said = structural(json!({"type": "object", "properties": {
            "a": {"type": "string", "pattern": "[a-"},
            "b": {"type": "string", "pattern": "^[a-z]+$", "allOf": [{"pattern": "(x"}]}}}));
    assert_eq!(said.len(), 2, "{said:#?}");
    assert!(said[0].starts_with(&format!("{AT}.properties[a].pattern: Invalid value: \"[a-\": must be a valid regular expression, but isn't: ")), "{said:#?}");
    assert!(
        said[1].starts_with(&format!(
            "{AT}.properties[b].allOf[0].pattern: Invalid value: \"(x\""
        )),
        "{said:#?}"
    );
}

/// Patterns read as Go's regexp/syntax reads them, each as cel-judge judged it (the
/// recorded probes s48-ppattern-*): Go refuses a count above 1,000, a repetition of a
/// repetition and an unknown POSIX class, which the regex crate takes; it takes `a{,3}`
/// (a literal brace), `\p{^Greek}` and `[\p{L}&&a]` (no intersection), which the crate
/// reads otherwise.
#[test]
fn patterns_are_refused_where_go_refuses_them() {
    let refused = [
        "[a-",
        "\\pX",
        "a{1001}",
        "x**",
        "x++",
        "a{2}{3}",
        "[[:foo:]]",
        "\\Z",
        "\\C",
        "\\8",
        "(a)\\1",
        "(?=a)",
        "[a-\\d]",
        "\\x{110000}",
        "\\e",
        "a|*",
    ];
    let taken = [
        "(?<name>x)",
        "(?P<n>x)",
        "\\p{Greek}",
        "a{1000}",
        "(?i)abc",
        "\\z",
        "\\A",
        "[[:word:]]",
        "a{,3}",
        "\\Q*\\E",
        "[\\d-z]",
        "(?U)a+",
        "(?s).",
        "()",
        "(|a)",
        "[]a]",
        "[^]a]",
        "\\b",
        "(?m)^a$",
        "\\pN",
        "\\p{^Greek}",
        "\\P{L}",
        "[\\p{L}&&a]",
        "x*?",
        "x??",
        "\\v",
    ];
    for pattern in refused {
        assert!(
            cel::go_regexp_syntax(pattern).is_err(),
            "{pattern} is refused"
        );
    }
    for pattern in taken {
        assert_eq!(cel::go_regexp_syntax(pattern), Ok(()), "{pattern} is taken");
    }
    assert_eq!(
        cel::go_regexp_syntax("x**"),
        Err("invalid nested repetition operator: `**`".to_string())
    );
    assert_eq!(
        cel::go_regexp_syntax("a{1001}"),
        Err("invalid repeat count: `{1001}`".to_string())
    );
}

/// convert.go `NewStructural`: the keywords it cannot convert, the first found.
#[test]
fn unconvertible_keywords_are_named() {
    assert_eq!(
        unconvertible(&json!({"type": "object", "properties": {"a": {"$schema": "x"}}})),
        Some("OpenAPIV3Schema 'schema' is not supported".to_string())
    );
    assert_eq!(
        unconvertible(&json!({"type": "array", "items": [{"type": "string"}]})),
        Some("OpenAPIV3Schema 'items' must be a schema, but is an array".to_string())
    );
    assert_eq!(unconvertible(&json!({"type": "object"})), None);
}

/// validation.go `specStandardValidatorV3.validate` and the keyword checks of
/// `ValidateCustomResourceDefinitionOpenAPISchema`, each in its words; validation_test.go
/// "top-level metadata default", "invalid list-type set with non-atomic map items",
/// "invalid map with non-required key and no default", "invalid map with nullable key",
/// "invalid set with nullable items".
#[test]
fn each_nodes_keywords_are_judged() {
    let free = Standard::default();
    let cases: &[(Value, &str)] = &[
        (
            json!({"type": "date"}),
            "type: Unsupported value: \"date\": supported values: \"array\", \"boolean\", \"integer\", \"number\", \"object\", \"string\"",
        ),
        (
            json!({"type": "object", "$ref": "#/x"}),
            "$ref: Forbidden: $ref is not supported",
        ),
        (
            json!({"type": "string", "id": "x"}),
            "id: Forbidden: id is not supported",
        ),
        (
            json!({"type": "array", "items": {"type": "string"}, "uniqueItems": true}),
            "uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic",
        ),
        (
            json!({"type": "object", "properties": {"a": {}}, "additionalProperties": false}),
            "additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive",
        ),
        (
            json!({"type": "object", "x-kubernetes-preserve-unknown-fields": false}),
            "x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined",
        ),
        (
            json!({"type": "string", "x-kubernetes-map-type": "atomic"}),
            "type: Invalid value: \"string\": must be object if x-kubernetes-map-type is specified",
        ),
        (
            json!({"type": "object", "x-kubernetes-map-type": "bogus"}),
            "x-kubernetes-map-type: Unsupported value: \"bogus\": supported values: \"atomic\", \"granular\"",
        ),
        (
            json!({"x-kubernetes-list-type": "set"}),
            "type: Required value: must be array if x-kubernetes-list-type is specified",
        ),
        (
            json!({"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "bogus"}),
            "x-kubernetes-list-type: Unsupported value: \"bogus\": supported values: \"atomic\", \"set\", \"map\"",
        ),
        (
            json!({"type": "array", "items": {"type": "object", "properties": {"b": {"type": "string"}}}, "x-kubernetes-list-type": "set"}),
            "items.x-kubernetes-map-type: Invalid value: null: must be atomic as item of a list with x-kubernetes-list-type=set",
        ),
        (
            json!({"type": "array", "items": {"type": "string", "nullable": true}, "x-kubernetes-list-type": "set"}),
            "items.nullable: Forbidden: cannot be nullable when x-kubernetes-list-type is set",
        ),
        (
            json!({"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}}}, "x-kubernetes-list-map-keys": ["name"]}),
            "x-kubernetes-list-type: Required value: must be map if x-kubernetes-list-map-keys is non-empty",
        ),
        (
            json!({"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}}}, "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"]}),
            "items.properties[name].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property",
        ),
        (
            json!({"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}, "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["nope"]}),
            "x-kubernetes-list-map-keys: Invalid value: []string{\"nope\"}: entries must all be names of item properties",
        ),
        (
            json!({"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"]}),
            "items.type: Invalid value: \"string\": must be object if parent array's x-kubernetes-list-type is map",
        ),
    ];
    for (schema, expected) in cases {
        assert_eq!(
            of_node(schema.clone(), &free),
            vec![format!("{AT}.{expected}")],
            "{schema}"
        );
    }
    // `null` is no type, and says so twice.
    assert_eq!(
        of_node(json!({"type": "null"}), &free),
        vec![
            format!(
                "{AT}.type: Unsupported value: \"null\": supported values: \"array\", \"boolean\", \"integer\", \"number\", \"object\", \"string\""
            ),
            format!(
                "{AT}.type: Forbidden: type cannot be set to null, use nullable as an alternative"
            ),
        ]
    );
    // Defaults are forbidden in the root's metadata, apiVersion and kind, and inside
    // additionalProperties under metadata.
    let root_node = json!({"type": "object"});
    let metadata = free.for_property(&root_node, true, "metadata");
    assert_eq!(
        of_node(
            json!({"type": "object", "default": {"name": "foo"}}),
            &metadata
        ),
        vec![format!(
            "{AT}.default: Forbidden: must not be set in top-level metadata"
        )]
    );
    assert_eq!(
        of_node(
            json!({"type": "string", "default": "x"}),
            &metadata.for_additional_properties()
        ),
        vec![format!(
            "{AT}.default: Forbidden: must not be set inside additionalProperties applying to object metadata"
        )]
    );
    assert_eq!(
        of_node(
            json!({"type": "string", "default": "x"}),
            &free.for_property(&root_node, true, "spec")
        ),
        Vec::<String>::new()
    );
}
