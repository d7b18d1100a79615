//! What an API server says of creating a CustomResourceDefinition: the checks of
//! apiextensions-apiserver's `ValidateCustomResourceDefinition` of each version's schema — its
//! structure ([`super::crd_structure`]), its defaults ([`super::crd_defaults`]), its CEL rules
//! and their estimated cost — at a given Kubernetes minor version.

use serde_json::Value;

use super::cel::{self, Environment};
use super::crd_decoding;
use super::crd_defaults;
use super::crd_structure::{self, Standard};
use super::refusal::Place;
pub use super::refusal::Refusal;

/// The limit of the estimated cost of all a CRD schema's rules: validation.go
/// `StaticEstimatedCRDCostLimit`.
pub const STATIC_ESTIMATED_CRD_COST_LIMIT: u64 = 100_000_000;

/// What an API server of Kubernetes 1.`minor` says of creating `crd`, of its CEL rules and
/// their `message`, `messageExpression`, `reason` and `fieldPath`, and of their estimated
/// cost (apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go
/// `ValidateCustomResourceDefinitionOpenAPISchema`, pkg/apiserver/schema/cel/compilation.go);
/// new expressions compile at the server's minimum compatibility version, 1.`minor - 1`.
pub fn creation_refusals(crd: &Value, minor: u32) -> Vec<Refusal> {
    if minor < super::schema::RULES_SINCE_MINOR {
        // The feature gate is off (or the field unknown): the API server drops every rule
        // before it validates the CRD (apiextensions-apiserver strategy.go dropDisabledFields).
        let mut without = crd.clone();
        drop_rules(&mut without);
        return creation_refusals_with_rules(&without, minor);
    }
    creation_refusals_with_rules(crd, minor)
}

/// Removes every `x-kubernetes-validations` of `value`, as an API server without the feature
/// does.
fn drop_rules(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.remove("x-kubernetes-validations");
            map.values_mut().for_each(drop_rules);
        }
        Value::Array(items) => items.iter_mut().for_each(drop_rules),
        _ => {}
    }
}

fn creation_refusals_with_rules(crd: &Value, minor: u32) -> Vec<Refusal> {
    let Some(versions) =
        crate::json_pointer::pointer(crd, "/spec/versions").and_then(Value::as_array)
    else {
        return Vec::new();
    };
    let schemas: Vec<(usize, &Value)> = versions
        .iter()
        .enumerate()
        .filter_map(|(at, version)| {
            Some((
                at,
                crate::json_pointer::pointer(version, "/schema/openAPIV3Schema")?,
            ))
        })
        .collect();
    // The internal version of a CRD holds one schema for all versions when they are the same,
    // and the API server names its fields from there.
    let shared =
        schemas.len() == versions.len() && schemas.windows(2).all(|pair| pair[0].1 == pair[1].1);
    // A schema the API server cannot decode fails the request before any check runs.
    let undecodable: Vec<Refusal> = schemas
        .iter()
        .flat_map(|(at, schema)| {
            let document = format!("spec.versions[{at}].schema.openAPIV3Schema");
            crd_decoding::decoding_refusals(schema, &Place::new(document.clone(), document), 100)
        })
        .collect();
    if !undecodable.is_empty() {
        return undecodable;
    }
    let mut refusals = Vec::new();
    for (at, schema) in &schemas {
        let api = if shared {
            "spec.validation.openAPIV3Schema".to_string()
        } else {
            format!("spec.versions[{at}].schema.openAPIV3Schema")
        };
        let document = format!("spec.versions[{at}].schema.openAPIV3Schema");
        let place = Place::new(api.clone(), document.clone());
        let mut creation = Creation {
            environment: Environment::for_new_expressions(minor),
            refusals: Vec::new(),
            costs: Vec::new(),
        };
        if schema.get("nullable") == Some(&Value::Bool(true)) {
            creation.refusals.push(Refusal::at(
                &place.child("nullable"),
                "Forbidden: nullable cannot be true at the root".to_string(),
            ));
        }
        // The structure first, then the defaults: with an error in either the API server
        // compiles no rule (validation.go validateCustomResourceDefinitionValidation).
        let unconvertible = crd_structure::unconvertible(schema);
        let mut compile = false;
        if unconvertible.is_none() {
            let structural = crd_structure::structural_refusals(schema, &place);
            if structural.is_empty() {
                let defaults = crd_defaults::default_refusals(schema, &place);
                compile = defaults.is_empty();
                creation.refusals.extend(defaults);
            } else {
                creation.refusals.extend(structural);
            }
        }
        creation.node(
            schema,
            &Node {
                place: place.clone(),
                root: true,
                resource: true,
                uncorrelatable: None,
                cardinality: Cardinality::One,
                standard: Standard::default(),
                compile,
            },
        );
        if creation.refusals.is_empty()
            && let Some(error) = unconvertible
        {
            // Said only when nothing else is: the other checks name the same keywords.
            creation
                .refusals
                .push(Refusal::at(&place, format!("Invalid value: \"\": {error}")));
        }
        let total: u64 = creation
            .costs
            .iter()
            .fold(0u64, |sum, (_, _, cost)| sum.saturating_add(*cost));
        if total > STATIC_ESTIMATED_CRD_COST_LIMIT {
            // The API server names the four most expensive of those costing at least 1 % of
            // the limit.
            let mut expensive: Vec<_> = (creation.costs.iter())
                .filter(|(_, _, cost)| *cost >= STATIC_ESTIMATED_CRD_COST_LIMIT / 100)
                .cloned()
                .collect();
            expensive.sort_by_key(|(_, _, cost)| std::cmp::Reverse(*cost));
            for (field, document_field, _) in expensive.into_iter().take(4) {
                creation.refusals.push(Refusal {
                    field,
                    document_field,
                    rule: None,
                    says: "Forbidden: contributed to estimated rule cost total exceeding cost \
                           limit for entire OpenAPIv3 schema"
                        .to_string(),
                });
            }
            creation.refusals.push(Refusal {
                field: api.clone(),
                document_field: document.clone(),
                rule: None,
                says: format!(
                    "Forbidden: {}",
                    cel::cost_exceeded(
                        "x-kubernetes-validations estimated rule cost total for entire \
                         OpenAPIv3 schema",
                        total,
                        STATIC_ESTIMATED_CRD_COST_LIMIT
                    )
                ),
            });
        }
        refusals.extend(creation.refusals);
        if shared {
            break;
        }
    }
    refusals
}

/// How many times a node's rules may run for one object: once, at most a known number of
/// times, or unknown (each rule's own estimate then, from the smallest serialized value).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cardinality {
    One,
    AtMost(u64),
    Unbounded,
}

impl Cardinality {
    fn times(self, bound: Option<u64>) -> Cardinality {
        match (self, bound) {
            (Cardinality::Unbounded, _) | (_, None) => Cardinality::Unbounded,
            (Cardinality::One, Some(n)) => Cardinality::AtMost(n),
            (Cardinality::AtMost(m), Some(n)) => Cardinality::AtMost(m.saturating_mul(n)),
        }
    }
}

struct Creation {
    environment: &'static Environment,
    refusals: Vec<Refusal>,
    /// Each expression's estimated cost, with its field, for the CRD's total.
    costs: Vec<(String, String, u64)>,
}

/// Where a schema node sits, and what that allows.
#[derive(Clone)]
struct Node {
    place: Place,
    /// The schema's root.
    root: bool,
    /// A resource's root: the schema's, or an embedded resource's (`self` has apiVersion,
    /// kind and metadata).
    resource: bool,
    /// The API path of the nearest ancestor under which old and new values cannot be paired
    /// (an atomic map, a list that is not a map list), where `oldSelf` is refused.
    uncorrelatable: Option<String>,
    cardinality: Cardinality,
    standard: Standard,
    /// Whether rules here are compiled: not when the structure or a default is refused, nor
    /// inside a value validation (`anyOf`, `allOf`, `oneOf`, `not`).
    compile: bool,
}

impl Creation {
    /// Validates the schema node `schema` at `at` and what is below it. Gives how many schema
    /// errors (not CEL's) were found here and below: with any, the API server compiles no
    /// rule here.
    fn node(&mut self, schema: &Value, at: &Node) -> usize {
        let api = at.place.api.as_str();
        let document = at.place.document.as_str();
        let own = crd_structure::node_refusals(schema, &at.place, &at.standard);
        let mut schema_errors = own.len();
        self.refusals.extend(own);
        let number = |key: &str| {
            schema
                .get(key)
                .and_then(Value::as_i64)
                .map(|n| n.max(0) as u64)
        };
        let embedded =
            |node: &Value| node.get("x-kubernetes-embedded-resource") == Some(&Value::Bool(true));
        if let Some(additional) = schema.get("additionalProperties").filter(|a| a.is_object()) {
            schema_errors += self.node(
                additional,
                &Node {
                    place: at.place.child("additionalProperties"),
                    root: false,
                    resource: embedded(additional),
                    cardinality: at.cardinality.times(number("maxProperties")),
                    standard: at.standard.for_additional_properties(),
                    ..at.clone()
                },
            );
        }
        if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
            let atomic =
                schema.get("x-kubernetes-map-type").and_then(Value::as_str) == Some("atomic");
            for (name, property) in properties {
                let uncorrelatable = match (&at.uncorrelatable, atomic) {
                    (None, true) => Some(api.to_string()),
                    (kept, _) => kept.clone(),
                };
                schema_errors += self.node(
                    property,
                    &Node {
                        place: at.place.key("properties", name),
                        root: false,
                        resource: embedded(property),
                        uncorrelatable,
                        standard: at.standard.for_property(schema, at.root, name),
                        ..at.clone()
                    },
                );
            }
        }
        // A value validation's nodes are checked as schemas, their rules never compiled.
        let mut choices: Vec<(&Value, Place)> = Vec::new();
        if let Some(not) = schema.get("not").filter(|not| not.is_object()) {
            choices.push((not, at.place.child("not")));
        }
        for key in ["allOf", "oneOf", "anyOf"] {
            for (index, choice) in schema
                .get(key)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .enumerate()
            {
                choices.push((choice, at.place.index(key, index)));
            }
        }
        for (choice, place) in choices {
            schema_errors += self.node(
                choice,
                &Node {
                    place,
                    root: false,
                    resource: false,
                    compile: false,
                    ..at.clone()
                },
            );
        }
        if let Some(items) = schema.get("items").filter(|items| items.is_object()) {
            let map_list =
                schema.get("x-kubernetes-list-type").and_then(Value::as_str) == Some("map");
            let uncorrelatable = match (&at.uncorrelatable, map_list) {
                (None, false) => Some(api.to_string()),
                (kept, _) => kept.clone(),
            };
            schema_errors += self.node(
                items,
                &Node {
                    place: at.place.child("items"),
                    root: false,
                    resource: embedded(items),
                    uncorrelatable,
                    cardinality: at.cardinality.times(number("maxItems")),
                    ..at.clone()
                },
            );
        }
        let Some(rules) = schema
            .get("x-kubernetes-validations")
            .and_then(Value::as_array)
        else {
            return schema_errors;
        };
        for (index, rule) in rules.iter().enumerate() {
            let api = format!("{api}.x-kubernetes-validations[{index}]");
            let document = format!("{document}.x-kubernetes-validations[{index}]");
            let found = rule_field_refusals(rule, schema);
            schema_errors += found.len();
            for (field, says) in found {
                self.refusals.push(Refusal {
                    field: format!("{api}.{field}"),
                    document_field: format!("{document}.{field}"),
                    rule: rule.get("rule").and_then(Value::as_str).map(String::from),
                    says,
                });
            }
        }
        if schema_errors > 0 || !at.compile {
            return schema_errors;
        }
        let Some(decl) = cel::Decl::of_schema(schema, "selfType0", at.resource) else {
            return schema_errors;
        };
        let cardinality = match at.cardinality {
            Cardinality::One => Some(1),
            Cardinality::AtMost(n) => Some(n),
            Cardinality::Unbounded => None,
        };
        for (index, rule) in rules.iter().enumerate() {
            let api = format!("{api}.x-kubernetes-validations[{index}]");
            let document = format!("{document}.x-kubernetes-validations[{index}]");
            let source = rule.get("rule").and_then(Value::as_str).map(String::from);
            let compiled = cel::compile_rule(rule, &decl, self.environment, cardinality);
            for (field, cost) in compiled.costs {
                self.costs.push((
                    format!("{api}.{field}"),
                    format!("{document}.{field}"),
                    cost,
                ));
            }
            for (field, says) in compiled.refusals {
                self.refusals.push(Refusal {
                    field: format!("{api}.{field}"),
                    document_field: format!("{document}.{field}"),
                    rule: source.clone(),
                    says,
                });
            }
            if compiled.uses_old_self
                && let Some(uncorrelatable) = &at.uncorrelatable
            {
                self.refusals.push(Refusal {
                    field: format!("{api}.rule"),
                    document_field: format!("{document}.rule"),
                    rule: source.clone(),
                    says: format!(
                        "Invalid value: oldSelf cannot be used on the uncorrelatable portion of \
                         the schema within {uncorrelatable}"
                    ),
                });
            }
        }
        schema_errors
    }
}

/// What validation.go says of an entry's own fields before compiling it: an empty rule, a
/// message that is empty or breaks lines (or none for a rule that does), an empty
/// messageExpression, an unknown reason, a fieldPath that is empty, breaks lines or names no
/// field of the schema. Each with the entry's field it is about.
fn rule_field_refusals(rule: &Value, schema: &Value) -> Vec<(&'static str, String)> {
    let text = |name: &str| rule.get(name).and_then(Value::as_str).unwrap_or("");
    let (source, message) = (text("rule"), text("message"));
    let line_break = |text: &str| text.contains(['\n', '\r']);
    let mut refusals = Vec::new();
    if source.trim().is_empty() {
        refusals.push(("rule", "Required value: rule is not specified".to_string()));
    } else if !message.is_empty() && message.trim().is_empty() {
        refusals.push((
            "message",
            format!("Invalid value: {message:?}: must be non-empty if specified"),
        ));
    } else if line_break(message.trim()) {
        refusals.push((
            "message",
            format!("Invalid value: {message:?}: must not contain line breaks"),
        ));
    } else if line_break(source.trim()) && message.trim().is_empty() {
        refusals.push((
            "message",
            "Required value: message must be specified if rule contains line breaks".to_string(),
        ));
    }
    let message_expression = text("messageExpression");
    if !message_expression.is_empty() && message_expression.trim().is_empty() {
        refusals.push((
            "messageExpression",
            "Required value: messageExpression must be non-empty if specified".to_string(),
        ));
    }
    if let Some(reason) = rule.get("reason").and_then(Value::as_str)
        && !matches!(
            reason,
            "FieldValueRequired"
                | "FieldValueForbidden"
                | "FieldValueInvalid"
                | "FieldValueDuplicate"
        )
    {
        refusals.push((
            "reason",
            format!(
                "Unsupported value: {reason:?}: supported values: \"FieldValueDuplicate\", \
             \"FieldValueForbidden\", \"FieldValueInvalid\", \"FieldValueRequired\""
            ),
        ));
    }
    let field_path = text("fieldPath");
    if !field_path.is_empty() && field_path.trim().is_empty() {
        refusals.push((
            "fieldPath",
            format!("Invalid value: {field_path:?}: must be non-empty if specified"),
        ));
    }
    if line_break(field_path) {
        refusals.push((
            "fieldPath",
            format!("Invalid value: {field_path:?}: must not contain line breaks"),
        ));
    }
    if !field_path.is_empty() && !valid_field_path(field_path, schema) {
        refusals.push((
            "fieldPath",
            format!("Invalid value: {field_path:?}: must be a valid path"),
        ));
    }
    refusals
}

/// Whether `path` (`.spec.replicas`, `.labels['app.kubernetes.io/name']`) names a field of
/// `schema`: apiextensions-apiserver pkg/apiserver/schema/cel `ValidFieldPath`, each step a
/// property of an object that declares properties or a key of one with additionalProperties.
fn valid_field_path(path: &str, schema: &Value) -> bool {
    let mut tokens = Vec::new();
    let mut rest = path;
    while !rest.is_empty() {
        if rest.starts_with('\'') {
            let bytes = rest.as_bytes();
            let end = (1..bytes.len()).find(|&i| bytes[i] == b'\'' && bytes[i - 1] != b'\\');
            let Some(end) = end else { return false };
            tokens.push(&rest[..=end]);
            rest = &rest[end + 1..];
            continue;
        }
        let end = rest.find(['.', '[', ']']).unwrap_or(rest.len());
        let end = if end == 0 { 1 } else { end };
        tokens.push(&rest[..end]);
        rest = &rest[end..];
    }
    let mut schema = schema.clone();
    let mut tokens = tokens.into_iter();
    let step = |schema: &Value, name: &str| -> Option<Value> {
        if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
            properties.get(name).cloned()
        } else {
            schema
                .get("additionalProperties")
                .filter(|a| a.is_object())
                .cloned()
        }
    };
    while let Some(token) = tokens.next() {
        let name = match token {
            "[" => {
                let Some(quoted) = tokens.next() else {
                    return false;
                };
                if quoted.len() < 2 || !quoted.starts_with('\'') || !quoted.ends_with('\'') {
                    return false;
                }
                if tokens.next() != Some("]") {
                    return false;
                }
                quoted[1..quoted.len() - 1]
                    .replace("\\'", "'")
                    .replace("\\\\", "\\")
            }
            "." => match tokens.next() {
                Some(name) => name.to_string(),
                None => return false,
            },
            _ => return false,
        };
        match step(&schema, &name) {
            Some(next) => schema = next,
            None => return false,
        }
    }
    true
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use serde_json::json;

    /// Prints what [`creation_refusals`] says of each CRD of the JSON file `CRD_CASES`
    /// (`[{"id": …, "crd": "<JSON>"}]`) at `CRD_MINOR`, for comparing with cel-judge.
    #[test]
    #[ignore = "a tool for comparing with cel-judge"]
    #[expect(
        clippy::disallowed_methods,
        reason = "a development tool run by hand, never in the product or CI"
    )]
    fn print_creation_refusals() {
        let cases: Vec<Value> = serde_json::from_str(
            &std::fs::read_to_string(std::env::var("CRD_CASES").unwrap()).unwrap(),
        )
        .unwrap();
        let minor: u32 = std::env::var("CRD_MINOR").unwrap().parse().unwrap();
        // The binary's workers have 16 MiB stacks (src/commands/mod.rs WORKER_STACK).
        let printed = std::thread::Builder::new()
            .stack_size(16 << 20)
            .spawn(move || print_each(cases, minor))
            .unwrap();
        printed.join().unwrap();
    }

    #[expect(
        clippy::disallowed_macros,
        reason = "a development tool run by hand, never in the product or CI"
    )]
    fn print_each(cases: Vec<Value>, minor: u32) {
        for case in cases {
            let crd: Value = serde_json::from_str(case["crd"].as_str().unwrap()).unwrap();
            let refusals: Vec<Value> = creation_refusals(&crd, minor)
                .into_iter()
                .map(|r| json!({"field": r.field, "says": r.says}))
                .collect();
            println!("{}", json!({"id": case["id"], "refusals": refusals}));
        }
    }

    /// A CRD of kind Widget whose spec has `properties` and the one rule `rule` (the CRD tests
    /// of `crd.rs` build theirs here too).
    pub(in crate::check) fn widget_with_rule(properties: Value, rule: Value) -> Value {
        widget_crd_with_spec(json!({"type": "object", "properties": properties,
            "x-kubernetes-validations": [rule]}))
    }

    pub(in crate::check) fn widget_crd_with_spec(spec: Value) -> Value {
        json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.io"},
        "spec": {"group": "example.io", "names": {"kind": "Widget"}, "versions": [
            {"name": "v1", "served": true, "schema": {"openAPIV3Schema": {"type": "object",
                "properties": {"spec": spec}}}},
        ]}})
    }

    /// An API server before 1.25 drops the rules of a CRD it creates (strategy.go
    /// dropDisabledFields; the gate CustomResourceValidationExpressions is off before 1.25), so a
    /// rule that does not compile refuses nothing there.
    #[test]
    fn rules_are_not_compiled_before_kubernetes_1_25() {
        let crd = widget_with_rule(json!({}), json!({"rule": "self.nothing.here > 1"}));
        assert!(creation_refusals(&crd, 24).is_empty());
        assert!(!creation_refusals(&crd, 25).is_empty());
    }

    fn says(crd: &Value, minor: u32) -> Vec<String> {
        creation_refusals(crd, minor)
            .into_iter()
            .map(|refusal| format!("{}: {}", refusal.field, refusal.says))
            .collect()
    }

    const RULE: &str =
        "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0]";

    /// Each answer is cel-judge's (apiextensions-apiserver v0.36.2, cel-go v0.28.1) for the
    /// same CRD at the same version, field and detail; the judge's value of the field is left
    /// out where it prints the whole rule.
    #[test]
    fn crds_are_refused_as_the_api_server_refuses_them() {
        let fields = json!({"replicas": {"type": "integer"}, "name": {"type": "string", "maxLength": 63},
            "ip": {"type": "string", "maxLength": 45},
            "labels": {"type": "object", "maxProperties": 10,
                "additionalProperties": {"type": "string", "maxLength": 30}}});
        let cases: &[(u32, Value, &str)] = &[
            (
                31,
                json!({"rule": "!has(self.replica) || self.replicas > 0"}),
                "rule: Invalid value: compilation failed: ERROR: <input>:1:5: undefined field 'replica'\n | !has(self.replica) || self.replicas > 0\n | ....^",
            ),
            (
                31,
                json!({"rule": "self.replicas != '0'"}),
                "rule: Invalid value: compilation failed: ERROR: <input>:1:15: found no matching overload for '_!=_' applied to '(int, string)'\n | self.replicas != '0'\n | ..............^",
            ),
            (
                31,
                json!({"rule": "math.greatest(1,2) == 2"}),
                "rule: Invalid value: compilation failed: ERROR: <input>:1:1: undeclared reference to 'math' (in container '')\n | math.greatest(1,2) == 2\n | ^\nERROR: <input>:1:14: undeclared reference to 'greatest' (in container '')\n | math.greatest(1,2) == 2\n | .............^",
            ),
            (
                31,
                json!({"rule": "quantity(self.name).sign() == 1"}),
                "rule: Invalid value: compilation failed: ERROR: <input>:1:25: found no matching overload for 'sign' applied to 'kubernetes.Quantity.()'\n | quantity(self.name).sign() == 1\n | ........................^",
            ),
            (
                31,
                json!({"rule": "int('9223372036854775808') > 0"}),
                "rule: Invalid value: program instantiation failed: type conversion error from 'string' to 'int'",
            ),
            (
                30,
                json!({"rule": "isIP(self.ip)"}),
                "rule: Invalid value: compilation failed: ERROR: <input>:1:5: undeclared reference to 'isIP' (in container '')\n | isIP(self.ip)\n | ....^",
            ),
            (
                31,
                json!({"rule": "self.replicas"}),
                "rule: Invalid value: cel expression must evaluate to a bool",
            ),
            (
                31,
                json!({"rule": "self.name.matches('[a-')"}),
                "rule: Invalid value: compilation failed: ERROR: <input>:1:19: invalid matches argument\n | self.name.matches('[a-')\n | ..................^",
            ),
            (
                31,
                json!({"rule": "[1, 'a'].size() > 0"}),
                "rule: Invalid value: compilation failed: ERROR: <input>:1:5: expected type 'int' but found 'string'\n | [1, 'a'].size() > 0\n | ....^",
            ),
            (
                31,
                json!({"rule": "1 == 1.0"}),
                "rule: Invalid value: compilation failed: ERROR: <input>:1:3: found no matching overload for '_==_' applied to '(int, double)'\n | 1 == 1.0\n | ..^",
            ),
            (
                28,
                json!({"rule": "[?optional.none(), self.name].size() > 0"}),
                "rule: Invalid value: compilation failed: ERROR: <input>:1:2: unsupported syntax '?'\n | [?optional.none(), self.name].size() > 0\n | .^",
            ),
            (
                28,
                json!({"rule": "duration('1x') > duration('1s')"}),
                "rule: Invalid value: program instantiation failed: type conversion error from 'string' to 'google.protobuf.Duration'",
            ),
            (
                31,
                json!({"rule": "self.replicas > 0", "messageExpression": "1"}),
                "messageExpression: Invalid value: messageExpression must evaluate to a string",
            ),
            (
                31,
                json!({"rule": "true", "fieldPath": ".nothing"}),
                "fieldPath: Invalid value: \".nothing\": must be a valid path",
            ),
            (
                31,
                json!({"rule": "true", "reason": "Bogus"}),
                "reason: Unsupported value: \"Bogus\": supported values: \"FieldValueDuplicate\", \"FieldValueForbidden\", \"FieldValueInvalid\", \"FieldValueRequired\"",
            ),
            (
                31,
                json!({"rule": "true", "message": "a\nb"}),
                "message: Invalid value: \"a\\nb\": must not contain line breaks",
            ),
        ];
        for (minor, rule, expected) in cases {
            let crd = widget_with_rule(fields.clone(), rule.clone());
            assert_eq!(
                says(&crd, *minor),
                vec![format!("{RULE}.{expected}")],
                "{rule} at 1.{minor}"
            );
        }
        // Accepted where the judge accepts them.
        for (minor, rule) in [
            (31, "isIP(self.ip)"),
            (33, "self.labels.all(k, v, k.size() < 10 && v != '')"),
            (35, "self.labels.exists(k, k.startsWith('x'))"),
            (31, "'%s-%d'.format([self.name, self.replicas]) != ''"),
            (28, "self.name.split('-').size() < 5"),
            (31, "self.?name.orValue('') != '' && has(self.labels.app)"),
            (35, "type(self.replicas) == int"),
            (32, "format.dns1123Label().validate(self.name).hasValue()"),
            (
                35,
                "optional.of(self.name).optMap(n, n.size()).orValue(0) > 0",
            ),
        ] {
            let crd = widget_with_rule(fields.clone(), json!({"rule": rule}));
            assert_eq!(
                says(&crd, minor),
                Vec::<String>::new(),
                "{rule} at 1.{minor}"
            );
        }
        // Two-variable comprehensions come in 1.32: at 1.31 `all` is a call of an undeclared
        // function, and its variables undeclared references.
        let crd = widget_with_rule(fields, json!({"rule": "self.labels.all(k, v, k == v)"}));
        let refused = says(&crd, 31);
        assert_eq!(refused.len(), 1);
        assert!(
            refused[0]
                .contains("ERROR: <input>:1:16: undeclared reference to 'all' (in container '')")
        );
        assert_eq!(refused[0].matches("undeclared reference").count(), 5);
    }

    /// oldSelf on an item of a list that is not a map list is refused (cel-judge), with the
    /// list named; under a map list it is not.
    #[test]
    fn old_self_is_refused_where_values_cannot_be_paired() {
        let item = json!({"type": "object", "properties": {"a": {"type": "string", "maxLength": 5}},
            "x-kubernetes-validations": [{"rule": "self.a == oldSelf.a"}]});
        let atomic = widget_crd_with_spec(json!({"type": "object", "properties": {
            "items": {"type": "array", "maxItems": 5, "items": item.clone()}}}));
        assert_eq!(
            says(&atomic, 31),
            vec![
                "spec.validation.openAPIV3Schema.properties[spec].properties[items].items.\
                  x-kubernetes-validations[0].rule: Invalid value: oldSelf cannot be used on the \
                  uncorrelatable portion of the schema within \
                  spec.validation.openAPIV3Schema.properties[spec].properties[items]"
                    .to_string()
            ]
        );
        let mut keyed = item;
        keyed["required"] = json!(["a"]);
        let map_list = widget_crd_with_spec(json!({"type": "object", "properties": {
            "items": {"type": "array", "maxItems": 5, "x-kubernetes-list-type": "map",
                "x-kubernetes-list-map-keys": ["a"], "items": keyed}}}));
        assert_eq!(says(&map_list, 31), Vec::<String>::new());
    }

    /// The estimated cost, as cel-judge gives it: a sort of 3,000 strings is 1.9 times the
    /// per-rule limit; the same over 100 is within it; a rule over a list with no maxItems
    /// whose node may occur unboundedly often is more than 100 times it, and takes the CRD's
    /// total over its limit too.
    #[test]
    fn estimated_costs_are_the_api_servers() {
        let list = |max_items: u64| {
            json!({"l": {"type": "array", "maxItems": max_items,
            "items": {"type": "string", "maxLength": 10}}})
        };
        let sort = json!({"rule": "self.l.sortBy(x, x).size() > 0"});
        assert_eq!(
            says(&widget_with_rule(list(3000), sort.clone()), 35),
            vec![format!(
                "{RULE}.rule: Forbidden: estimated rule cost exceeds budget by factor of 1.9x (try \
                 simplifying the rule, or adding maxItems, maxProperties, and maxLength where \
                 arrays, maps, and strings are declared)"
            )]
        );
        assert_eq!(
            says(&widget_with_rule(list(100), sort), 35),
            Vec::<String>::new()
        );
        let unbounded = widget_crd_with_spec(json!({"type": "object", "properties": {
            "big": {"type": "array", "items": {"type": "string"}}},
            "x-kubernetes-validations": [{"rule": "self.big.all(x, self.big.all(y, x == y))"}]}));
        let refused = says(&unbounded, 35);
        assert_eq!(refused.len(), 3, "{refused:?}");
        assert!(refused[0].ends_with("rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)"));
        assert!(refused[1].ends_with("rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema"));
        assert!(refused[2].starts_with("spec.validation.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x"));
    }

    /// validation_test.go "skip CEL expression validation when OpenAPIv3 schema is an invalid
    /// structural schema" and "invalid default with x-kubernetes-validations": with the
    /// structure refused, or a default, no rule is compiled (a rule that would not compile says
    /// nothing); a rule inside a value validation is refused as unstructural, not compiled.
    #[test]
    fn the_structure_and_the_defaults_come_before_the_rules() {
        let broken_rule = json!({"rule": "self.nothing > 0"});
        let unstructural = widget_crd_with_spec(json!({"type": "object",
            "properties": {"a": {"maxLength": 3}}, "x-kubernetes-validations": [broken_rule]}));
        assert_eq!(
            says(&unstructural, 35),
            vec![
                "spec.validation.openAPIV3Schema.properties[spec].properties[a].type: Required \
                  value: must not be empty for specified object fields"
                    .to_string()
            ]
        );
        let bad_default = widget_crd_with_spec(json!({"type": "object",
            "properties": {"a": {"type": "integer", "maximum": 3, "default": 5}},
            "x-kubernetes-validations": [broken_rule]}));
        assert_eq!(
            says(&bad_default, 35),
            vec![
                "spec.validation.openAPIV3Schema.properties[spec].properties[a].default: Invalid \
                  value: 5: 5 is above the maximum 3"
                    .to_string()
            ]
        );
        let valid = widget_crd_with_spec(json!({"type": "object",
            "properties": {"a": {"type": "integer", "maximum": 3, "default": 2}},
            "x-kubernetes-validations": [broken_rule]}));
        let refused = says(&valid, 35);
        assert_eq!(refused.len(), 1);
        assert!(
            refused[0].contains("undefined field 'nothing'"),
            "{refused:?}"
        );
        let in_choice = widget_crd_with_spec(json!({"type": "object",
            "properties": {"a": {"type": "string", "allOf": [{"x-kubernetes-validations":
                [{"rule": "self.nothing > 0"}]}]}}}));
        assert_eq!(
            says(&in_choice, 35),
            vec![
                "spec.validation.openAPIV3Schema.properties[spec].properties[a].allOf[0].\
                  x-kubernetes-validations: Forbidden: must be empty to be structural"
                    .to_string()
            ]
        );
        let undecodable = widget_crd_with_spec(json!({"type": "object",
            "properties": {"a": {"type": "string", "maxLength": "5", "anyOf": [{"type": "string"}]}}}));
        let refused = says(&undecodable, 35);
        assert_eq!(refused.len(), 1, "{refused:?}");
        assert!(
            refused[0].contains("cannot unmarshal string into a field of type int64"),
            "{refused:?}"
        );
    }

    /// Expressions as deep as cel-go's parser lets through are compiled, estimated and refused
    /// within a worker's 16 MiB stack, unoptimised; deeper ones are refused as cel-judge
    /// refuses them (`expression recursion limit exceeded: 250`), and a 60 KB one is no
    /// stack overflow.
    #[test]
    fn deep_rules_fit_a_workers_stack() {
        let outcome = std::thread::Builder::new()
            .stack_size(16 << 20)
            .spawn(|| {
                let says_of = |rule: String| {
                    let crd = widget_with_rule(json!({}), json!({"rule": rule}));
                    says(&crd, 35)
                };
                let nested =
                    |levels: usize| format!("{}true{}", "(".repeat(levels), ")".repeat(levels));
                let sixty = format!("{}true{}", "(!".repeat(20_000), ")".repeat(20_000));
                (says_of(nested(240)), says_of(nested(251)), says_of(sixty))
            })
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(outcome.0, Vec::<String>::new());
        assert_eq!(
            outcome.1,
            vec![format!(
                "{RULE}.rule: Invalid value: compilation failed: ERROR: <input>:-1:0: \
                 expression recursion limit exceeded: 250"
            )]
        );
        assert_eq!(outcome.2.len(), 1);
    }
}
