//! Custom resources: the schema of each served version of every CustomResourceDefinition the
//! fleet holds or the command line names (`--crds`), by group and kind.

use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, HashMap};

use serde_json::Value;

use super::builtin::GroupVersionKind;
use super::cel::{self, Environment};
use super::schema::Schema;
use crate::diagnostics::{Diagnostic, Origin};
use crate::lint::Lint;

/// The most bytes an API server reads in one request: k8s.io/apiserver's `MaxRequestBodyBytes`
/// (pkg/server/config.go), twice etcd's default 1.5 MiB request limit, since a JSON body
/// shrinks when it is stored as protobuf. A CRD larger than this as JSON — its YAML aliases
/// expanded, as kubectl sends it — cannot be created on any cluster, and its schemas are not
/// compiled.
pub const MAX_CRD_BYTES: usize = 3 * 1024 * 1024;

/// Who gave a CRD to the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CrdSource {
    /// A CRD among the fleet's files: the pull request's.
    Fleet,
    /// `--crds`: what the job running fedrender trusts.
    CommandLine,
}

/// One CRD: its name, where it was read, who gave it, and per version whether it is served and
/// its schema.
struct Definition {
    name: String,
    origin: Option<Origin>,
    source: CrdSource,
    versions: BTreeMap<String, (bool, Option<Schema>)>,
    /// The Kubernetes minor versions whose API servers refuse to create it.
    refused_by: Vec<u32>,
}

impl Definition {
    fn named(&self) -> String {
        named(&self.name, self.origin.as_ref())
    }
}

/// `widgets.example.io (crds/live.yaml:3)`: a CRD's name, and where it was read when known.
pub fn named(name: &str, origin: Option<&Origin>) -> String {
    match origin {
        Some(origin) => format!("{name} ({origin})"),
        None => name.to_string(),
    }
}

/// The CRDs known to a run.
#[derive(Default)]
pub struct CustomResources {
    by_kind: HashMap<(String, String), Definition>,
}

/// What a custom resource's CRD says of its apiVersion.
pub enum Lookup<'c> {
    /// No CRD defines the kind.
    Unknown,
    /// The CRD does not serve the version; its served versions and the CRD's name.
    NotServed { crd: &'c str, served: Vec<&'c str> },
    /// Served without a schema (only possible in old CRDs): nothing to check.
    Unchecked,
    /// The API servers of these Kubernetes minor versions refuse to create the CRD: no
    /// object of the kind can be created there.
    Refused {
        crd: &'c str,
        origin: Option<&'c Origin>,
        refused_by: &'c [u32],
    },
    Schema {
        /// The CRD's name, and where it was read when known.
        crd: &'c str,
        origin: Option<&'c Origin>,
        schema: &'c Schema,
    },
}

impl CustomResources {
    /// Adds an `apiextensions.k8s.io/v1` CustomResourceDefinition read at `origin`. Of two
    /// definitions of a kind, the command line's wins over the fleet's — with a warning when
    /// their schemas differ, returned — and otherwise the first wins: a fleet's own CRD and the
    /// same CRD from `--crds` are one CRD. A CRD larger than [`MAX_CRD_BYTES`] as JSON is an
    /// error at its origin; so is a fleet's CRD that the API server of one of `minors` (the
    /// Kubernetes minor versions of the run's clusters) refuses to create, an error for each
    /// reason, at the field it is about ([`creation_refusals`]). A CRD given on the command
    /// line is one the clusters hold already, and is not judged as a new one.
    pub fn add(
        &mut self,
        crd: &Value,
        origin: Option<&Origin>,
        source: CrdSource,
        minors: &[u32],
    ) -> Result<Vec<Diagnostic>, Vec<Diagnostic>> {
        let spec = &crd["spec"];
        let (Some(group), Some(kind)) = (
            spec["group"].as_str(),
            spec.pointer("/names/kind").and_then(Value::as_str),
        ) else {
            return Ok(Vec::new());
        };
        let name = crd
            .pointer("/metadata/name")
            .and_then(Value::as_str)
            .unwrap_or(kind)
            .to_string();
        if json_larger_than(crd, MAX_CRD_BYTES) {
            return Err(vec![Diagnostic::error(
                origin.cloned(),
                format!(
                    "CustomResourceDefinition {name} is larger than 3 MiB as JSON (its YAML \
                     aliases expanded, as kubectl sends it): no API server takes a request that \
                     large (k8s.io/apiserver's MaxRequestBodyBytes), so no cluster can hold it"
                ),
            )]);
        }
        let versions = spec["versions"]
            .as_array()
            .map(|versions| {
                versions
                    .iter()
                    .filter_map(|version| {
                        let name = version["name"].as_str()?;
                        let served = version["served"].as_bool().unwrap_or(false);
                        let schema = version
                            .pointer("/schema/openAPIV3Schema")
                            .map(Schema::from_crd);
                        Some((name.to_string(), (served, schema)))
                    })
                    .collect()
            })
            .unwrap_or_default();
        let refusals = match source {
            CrdSource::Fleet => refused(crd, &name, origin, minors),
            CrdSource::CommandLine => Vec::new(),
        };
        let refused_by: Vec<u32> = {
            let mut all: Vec<u32> = refusals
                .iter()
                .flat_map(|(_, by)| by.iter().copied())
                .collect();
            all.sort_unstable();
            all.dedup();
            all
        };
        let added = Definition {
            name,
            origin: origin.cloned(),
            source,
            versions,
            refused_by,
        };
        if !refusals.is_empty() {
            self.by_kind
                .entry((group.to_string(), kind.to_string()))
                .or_insert(added);
            return Err(refusals
                .into_iter()
                .map(|(diagnostic, _)| diagnostic)
                .collect());
        }
        let transitions = transition_rules_skipped(&added);
        match self.by_kind.entry((group.to_string(), kind.to_string())) {
            Entry::Vacant(entry) => {
                entry.insert(added);
                Ok(transitions.into_iter().collect())
            }
            Entry::Occupied(mut entry) => match (entry.get().source, source) {
                (CrdSource::Fleet, CrdSource::CommandLine) => {
                    let warning = overridden(entry.get(), &added, group, kind);
                    entry.insert(added);
                    Ok(warning.into_iter().chain(transitions).collect())
                }
                (CrdSource::CommandLine, CrdSource::Fleet) => {
                    Ok(overridden(&added, entry.get(), group, kind)
                        .into_iter()
                        .collect())
                }
                _ => Ok(Vec::new()),
            },
        }
    }

    pub fn is_empty(&self) -> bool {
        self.by_kind.is_empty()
    }

    pub fn lookup(&self, gvk: &GroupVersionKind) -> Lookup<'_> {
        let Some(definition) = self.by_kind.get(&(gvk.group.clone(), gvk.kind.clone())) else {
            return Lookup::Unknown;
        };
        if !definition.refused_by.is_empty() {
            return Lookup::Refused {
                crd: &definition.name,
                origin: definition.origin.as_ref(),
                refused_by: &definition.refused_by,
            };
        }
        match definition.versions.get(&gvk.version) {
            Some((true, Some(schema))) => Lookup::Schema {
                crd: &definition.name,
                origin: definition.origin.as_ref(),
                schema,
            },
            Some((true, None)) => Lookup::Unchecked,
            _ => Lookup::NotServed {
                crd: &definition.name,
                served: definition
                    .versions
                    .iter()
                    .filter(|(_, (served, _))| *served)
                    .map(|(name, _)| name.as_str())
                    .collect(),
            },
        }
    }
}

/// The errors of creating `crd` (named `name`, read at `origin`) on the API servers of
/// `minors`: one per reason, naming every version that gives it, at the field it is about
/// (its line found when the run reports it); each with the versions.
fn refused(
    crd: &Value,
    name: &str,
    origin: Option<&Origin>,
    minors: &[u32],
) -> Vec<(Diagnostic, Vec<u32>)> {
    let mut minors = minors.to_vec();
    minors.sort_unstable();
    minors.dedup();
    let mut grouped: Vec<(Refusal, Vec<u32>)> = Vec::new();
    for &minor in &minors {
        for refusal in creation_refusals(crd, minor) {
            match grouped.iter_mut().find(|(known, _)| *known == refusal) {
                Some((_, by)) => by.push(minor),
                None => grouped.push((refusal, vec![minor])),
            }
        }
    }
    grouped
        .into_iter()
        .map(|(refusal, by)| {
            let versions: Vec<String> = by.iter().map(|minor| format!("1.{minor}")).collect();
            let versions = match versions.as_slice() {
                [one] => one.clone(),
                [init @ .., last] => format!("{} and {last}", init.join(", ")),
                [] => String::new(),
            };
            let mut lines = refusal.says.lines();
            let first = lines.next().unwrap_or_default();
            let mut detail: Vec<String> = lines.map(String::from).collect();
            if let Some(rule) = &refusal.rule {
                detail.push(format!("the rule: {rule}"));
            }
            let mut diagnostic = Diagnostic::error(
                origin.cloned(),
                format!(
                    "{} of Kubernetes {versions} {} to create the CustomResourceDefinition \
                     {name}: {}: {first}",
                    if by.len() == 1 {
                        "the API server"
                    } else {
                        "the API servers"
                    },
                    if by.len() == 1 { "refuses" } else { "refuse" },
                    refusal.field
                ),
            )
            .about_field(refusal.document_field);
            if !detail.is_empty() {
                diagnostic = diagnostic.with_detail(detail.join("\n"));
            }
            (diagnostic, by)
        })
        .collect()
}

/// The warning, once per CRD, that its transition rules (CEL rules reading `oldSelf`) are
/// not judged: they judge a change, and a build has no object before it.
fn transition_rules_skipped(definition: &Definition) -> Option<Diagnostic> {
    let count: usize = definition
        .versions
        .values()
        .filter(|(served, _)| *served)
        .filter_map(|(_, schema)| schema.as_ref())
        .map(Schema::transition_rules)
        .sum();
    (count > 0).then(|| {
        Diagnostic::warning(
            Lint::UncheckedKind,
            definition.origin.clone(),
            format!(
                "the CRD {} has {count} transition {} (x-kubernetes-validations reading \
                 oldSelf): a build has no object before the change, so {} not judged here; \
                 `fedrender diff` judges {} against its base, the API server on every update",
                definition.name,
                if count == 1 { "rule" } else { "rules" },
                if count == 1 { "it is" } else { "they are" },
                if count == 1 { "it" } else { "them" },
            ),
        )
    })
}

/// The warning that the fleet's CRD of a kind is set aside for the command line's, at the
/// fleet's CRD; none when both say the same.
fn overridden(
    fleet: &Definition,
    command_line: &Definition,
    group: &str,
    kind: &str,
) -> Option<Diagnostic> {
    if fleet.versions == command_line.versions {
        return None;
    }
    Some(Diagnostic::warning(
        Lint::SkippedInput,
        fleet.origin.clone(),
        format!(
            "the CRD {} defines {group} {kind} unlike the one --crds gives, {}: {kind} objects \
             are checked against --crds' schemas, not this CRD's",
            fleet.name,
            command_line.named()
        ),
    ))
}

/// Whether `value` written as compact JSON takes more than `limit` bytes; finds out writing
/// at most `limit` of them.
fn json_larger_than(value: &Value, limit: usize) -> bool {
    struct Counter {
        left: usize,
    }
    impl std::io::Write for Counter {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.left = self
                .left
                .checked_sub(bytes.len())
                .ok_or_else(|| std::io::Error::other("over the limit"))?;
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    serde_json::to_writer(Counter { left: limit }, value).is_err()
}

/// The limit of the estimated cost of all a CRD schema's rules: validation.go
/// `StaticEstimatedCRDCostLimit`.
pub const STATIC_ESTIMATED_CRD_COST_LIMIT: u64 = 100_000_000;

/// One reason an API server gives for refusing to create a CRD: the field of the CRD as it
/// names it (`spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0]
/// .rule`), the same field as a path of the document (to find its line), the rule it is
/// about, and what it says (`Invalid value: compilation failed: …`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub field: String,
    pub document_field: String,
    pub rule: Option<String>,
    pub says: String,
}

/// What an API server of Kubernetes 1.`minor` says of creating `crd`, of its CEL rules and
/// their `message`, `messageExpression`, `reason` and `fieldPath`, and of their estimated
/// cost (apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go
/// `ValidateCustomResourceDefinitionOpenAPISchema`, pkg/apiserver/schema/cel/compilation.go);
/// new expressions compile at the server's minimum compatibility version, 1.`minor - 1`.
pub fn creation_refusals(crd: &Value, minor: u32) -> Vec<Refusal> {
    let Some(versions) = crd.pointer("/spec/versions").and_then(Value::as_array) else {
        return Vec::new();
    };
    let schemas: Vec<(usize, &Value)> = versions
        .iter()
        .enumerate()
        .filter_map(|(at, version)| Some((at, version.pointer("/schema/openAPIV3Schema")?)))
        .collect();
    // The internal version of a CRD holds one schema for all versions when they are the same,
    // and the API server names its fields from there.
    let shared =
        schemas.len() == versions.len() && schemas.windows(2).all(|pair| pair[0].1 == pair[1].1);
    let mut refusals = Vec::new();
    for (at, schema) in &schemas {
        let api = if shared {
            "spec.validation.openAPIV3Schema".to_string()
        } else {
            format!("spec.versions[{at}].schema.openAPIV3Schema")
        };
        let mut creation = Creation {
            environment: Environment::for_new_expressions(minor),
            refusals: Vec::new(),
            costs: Vec::new(),
        };
        let document = format!("spec.versions[{at}].schema.openAPIV3Schema");
        creation.node(schema, &api, &document, true, None, Cardinality::One);
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

impl Creation {
    /// Validates the schema node `schema` (API field path `api`, document path `document`)
    /// and what is below it; `uncorrelatable` is the API path of the nearest ancestor under
    /// which old and new values cannot be paired (an atomic map, a list that is not a map
    /// list), where `oldSelf` is refused. Gives how many schema errors (not CEL's) were found
    /// here and below: with any, the API server compiles no rule here.
    fn node(
        &mut self,
        schema: &Value,
        api: &str,
        document: &str,
        root: bool,
        uncorrelatable: Option<&str>,
        cardinality: Cardinality,
    ) -> usize {
        let mut schema_errors = 0;
        let number = |key: &str| {
            schema
                .get(key)
                .and_then(Value::as_i64)
                .map(|n| n.max(0) as u64)
        };
        if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
            let atomic =
                schema.get("x-kubernetes-map-type").and_then(Value::as_str) == Some("atomic");
            for (name, property) in properties {
                let below = if atomic { Some(api) } else { uncorrelatable };
                let embedded =
                    property.get("x-kubernetes-embedded-resource") == Some(&Value::Bool(true));
                schema_errors += self.node(
                    property,
                    &format!("{api}.properties[{name}]"),
                    &format!("{document}.properties.{name}"),
                    embedded,
                    below,
                    cardinality,
                );
            }
        }
        if let Some(additional) = schema.get("additionalProperties").filter(|a| a.is_object()) {
            let embedded =
                additional.get("x-kubernetes-embedded-resource") == Some(&Value::Bool(true));
            schema_errors += self.node(
                additional,
                &format!("{api}.additionalProperties"),
                &format!("{document}.additionalProperties"),
                embedded,
                uncorrelatable,
                cardinality.times(number("maxProperties")),
            );
        }
        if let Some(items) = schema.get("items").filter(|items| items.is_object()) {
            let map_list =
                schema.get("x-kubernetes-list-type").and_then(Value::as_str) == Some("map");
            let below = if map_list { uncorrelatable } else { Some(api) };
            let embedded = items.get("x-kubernetes-embedded-resource") == Some(&Value::Bool(true));
            schema_errors += self.node(
                items,
                &format!("{api}.items"),
                &format!("{document}.items"),
                embedded,
                below,
                cardinality.times(number("maxItems")),
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
        if schema_errors > 0 {
            return schema_errors;
        }
        let Some(decl) = cel::Decl::of_schema(schema, "selfType0", root) else {
            return schema_errors;
        };
        let cardinality = match cardinality {
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
                && let Some(uncorrelatable) = uncorrelatable
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
mod tests {
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

    fn widget_crd(size: Value) -> Value {
        json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.io"},
        "spec": {"group": "example.io", "names": {"kind": "Widget"}, "versions": [
            {"name": "v1", "served": true, "schema": {"openAPIV3Schema": {"type": "object",
                "properties": {"spec": {"type": "object", "properties": {"size": size}}}}}},
        ]}})
    }

    fn size_schema(resources: &CustomResources) -> Value {
        let gvk = GroupVersionKind::of("example.io/v1", "Widget");
        let Lookup::Schema { schema, origin, .. } = resources.lookup(&gvk) else {
            panic!("no schema");
        };
        let object = json!({"spec": {"size": 3}});
        let (found, _) = schema
            .validate(&object, &super::super::NoDefinitions, u64::MAX, 20)
            .unwrap();
        json!({"from": origin.map(|origin| origin.to_string()),
            "accepts 3": found.findings.is_empty()})
    }

    /// The command line's CRD of a kind wins over the fleet's in either order, with a warning
    /// at the fleet's naming both when they differ; the same CRD twice is one.
    #[test]
    fn the_command_line_crd_wins_over_the_fleets() {
        let fleet_origin = Origin::new("fleet/crd.yaml", 0, 1);
        let live_origin = Origin::new("crds/live.yaml", 2, 40);
        let fleet = widget_crd(json!({"type": "string"}));
        let live = widget_crd(json!({"type": "integer"}));
        let expected = "the CRD widgets.example.io defines example.io Widget unlike the one \
            --crds gives, widgets.example.io (crds/live.yaml:40): Widget objects are checked \
            against --crds' schemas, not this CRD's";
        for fleet_first in [true, false] {
            let mut resources = CustomResources::default();
            let mut add =
                |crd, origin, source| resources.add(crd, Some(origin), source, &[34]).unwrap();
            let warnings: Vec<Diagnostic> = if fleet_first {
                [
                    add(&fleet, &fleet_origin, CrdSource::Fleet),
                    add(&live, &live_origin, CrdSource::CommandLine),
                ]
            } else {
                [
                    add(&live, &live_origin, CrdSource::CommandLine),
                    add(&fleet, &fleet_origin, CrdSource::Fleet),
                ]
            }
            .into_iter()
            .flatten()
            .collect();
            assert_eq!(warnings.len(), 1);
            assert_eq!(warnings[0].message, expected);
            assert_eq!(warnings[0].origin.as_ref(), Some(&fleet_origin));
            assert_eq!(warnings[0].lint, Some(Lint::SkippedInput));
            assert_eq!(
                size_schema(&resources),
                json!({"from": "crds/live.yaml:40", "accepts 3": true})
            );
        }
        let mut resources = CustomResources::default();
        let same = resources.add(&live, Some(&fleet_origin), CrdSource::Fleet, &[34]);
        let again = resources.add(&live, Some(&live_origin), CrdSource::CommandLine, &[34]);
        assert_eq!((same, again), (Ok(Vec::new()), Ok(Vec::new())));
    }

    /// A CRD whose rules read oldSelf says once, at the CRD, that they are not judged; one
    /// without says nothing.
    #[test]
    fn transition_rules_are_said_once_per_crd() {
        let origin = Origin::new("fleet/crd.yaml", 0, 1);
        let immutable = json!({"type": "integer", "x-kubernetes-validations": [
            {"rule": "self == oldSelf", "message": "size is immutable"},
            {"rule": "self >= 0"},
        ]});
        let warnings = CustomResources::default()
            .add(
                &widget_crd(immutable),
                Some(&origin),
                CrdSource::Fleet,
                &[34],
            )
            .unwrap();
        assert_eq!(warnings.len(), 1);
        assert_eq!(warnings[0].lint, Some(Lint::UncheckedKind));
        assert_eq!(warnings[0].origin.as_ref(), Some(&origin));
        assert_eq!(
            warnings[0].message,
            "the CRD widgets.example.io has 1 transition rule (x-kubernetes-validations \
             reading oldSelf): a build has no object before the change, so it is not judged \
             here; `fedrender diff` judges it against its base, the API server on every update"
        );
        let plain = json!({"type": "integer", "x-kubernetes-validations": [{"rule": "self >= 0"}]});
        assert_eq!(
            CustomResources::default().add(
                &widget_crd(plain),
                Some(&origin),
                CrdSource::Fleet,
                &[34]
            ),
            Ok(Vec::new())
        );
    }

    /// A CRD of kind Widget whose spec has `properties` and the one rule `rule`.
    fn widget_with_rule(properties: Value, rule: Value) -> Value {
        widget_crd_with_spec(json!({"type": "object", "properties": properties,
            "x-kubernetes-validations": [rule]}))
    }

    fn widget_crd_with_spec(spec: Value) -> Value {
        json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.io"},
        "spec": {"group": "example.io", "names": {"kind": "Widget"}, "versions": [
            {"name": "v1", "served": true, "schema": {"openAPIV3Schema": {"type": "object",
                "properties": {"spec": spec}}}},
        ]}})
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

    /// A fleet's refused CRD is an error per reason naming every version that gives it, at
    /// the rule's field; its custom resources are unchecked-kind findings naming it. A CRD
    /// from --crds is one the clusters hold already and is not judged as new.
    #[test]
    fn a_refused_crd_is_an_error_and_its_objects_are_unchecked() {
        let crd = widget_with_rule(
            json!({"ip": {"type": "string", "maxLength": 45}}),
            json!({"rule": "isIP(self.ip)"}),
        );
        let origin = Origin::new("fleet/crd.yaml", 0, 1);
        let mut resources = CustomResources::default();
        let errors = resources
            .add(&crd, Some(&origin), CrdSource::Fleet, &[30, 31, 29])
            .unwrap_err();
        assert_eq!(errors.len(), 1);
        assert!(
            errors[0].message.starts_with(
                "the API servers of Kubernetes 1.29 and 1.30 refuse to create the \
             CustomResourceDefinition widgets.example.io: spec.validation.openAPIV3Schema.\
             properties[spec].x-kubernetes-validations[0].rule: Invalid value: compilation \
             failed: ERROR: <input>:1:5: undeclared reference to 'isIP' (in container '')"
            ),
            "{}",
            errors[0].message
        );
        assert_eq!(
            errors[0].about().field.as_deref(),
            Some(
                "spec.versions[0].schema.openAPIV3Schema.properties.spec.x-kubernetes-validations[0].rule"
            )
        );
        assert_eq!(
            errors[0].detail.as_deref(),
            Some(" | isIP(self.ip)\n | ....^\nthe rule: isIP(self.ip)")
        );
        let gvk = GroupVersionKind::of("example.io/v1", "Widget");
        assert!(matches!(
            resources.lookup(&gvk),
            Lookup::Refused {
                refused_by: [29, 30],
                ..
            }
        ));
        let mut trusted = CustomResources::default();
        assert!(
            trusted
                .add(&crd, Some(&origin), CrdSource::CommandLine, &[30])
                .is_ok()
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

    /// A CRD larger than an API server takes in one request is an error at its line.
    #[test]
    fn a_crd_larger_than_an_api_server_takes_is_refused() {
        let origin = Origin::new("fleet/crd.yaml", 0, 7);
        let enumeration: Vec<String> = (0..400_000).map(|n| format!("value{n}")).collect();
        let crd = widget_crd(json!({"type": "string", "enum": enumeration}));
        let error = CustomResources::default()
            .add(&crd, Some(&origin), CrdSource::Fleet, &[34])
            .unwrap_err()
            .remove(0);
        assert_eq!(error.origin, Some(origin.clone()));
        assert!(error.is_error());
        assert!(
            error
                .message
                .starts_with("CustomResourceDefinition widgets.example.io is larger than 3 MiB"),
            "{}",
            error.message
        );
        assert!(json_larger_than(&json!("x".repeat(10)), 11));
        assert!(!json_larger_than(&json!("x".repeat(10)), 12));
    }
}
