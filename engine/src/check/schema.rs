//! A validator for the schemas the API server judges objects by: Kubernetes' own OpenAPI
//! definitions (as JSON schemas: types, properties, required fields, enums, formats, references)
//! and a CRD's `openAPIV3Schema` with the structural-schema rules (apiextensions
//! pkg/apiserver/schema: `nullable`, `x-kubernetes-int-or-string`,
//! `x-kubernetes-preserve-unknown-fields`, `x-kubernetes-embedded-resource`, minimum, maximum,
//! lengths, item counts). It is written over that subset rather than a general JSON Schema
//! engine: the subset is small, every finding needs the field's path in Kubernetes' words, an
//! unknown field is a finding of its own kind (not a failure), and a fleet checks thousands of
//! objects per version, each once.

use serde_json::Value;

use super::cel::{self, Declared, Rule, Shape, Verdict};
use super::constraints::{Enumeration, Pattern, format_and_enumeration};
use super::field_path::{FieldPath, Step};
use super::formats::{CrdFormat, check_format, describe};
use super::list_type::ListType;
use super::properties::Properties;
use super::ratchet::{self, Update};
use crate::fields::Fields;

/// What is wrong at a field.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum FindingKind {
    /// The API server rejects the value.
    Invalid,
    /// A field a built-in kind does not have: `kubectl apply`'s strict field validation
    /// rejects it.
    UnknownField,
    /// A field a CRD's schema does not have: the API server drops it silently.
    PrunedField,
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Finding {
    pub kind: FindingKind,
    /// `spec.template.spec.containers[0].ports[0].containerPort`.
    pub path: String,
    pub problem: String,
}

const NULL: u8 = 1;
const BOOLEAN: u8 = 2;
const INTEGER: u8 = 4;
const NUMBER: u8 = 8;
const STRING: u8 = 16;
const OBJECT: u8 = 32;
const ARRAY: u8 = 64;
const ANY: u8 = 127;

/// What an object says of fields it does not list.
#[derive(Debug, Clone, PartialEq)]
enum Extra {
    /// Unknown fields are findings (of `unknown` kind).
    Unknown(FindingKind),
    Allowed,
    Schema(Box<Schema>),
}

/// One schema node, compiled.
#[derive(Debug, Clone, PartialEq)]
pub struct Schema {
    types: u8,
    /// `nullable` (a CRD's): a null is kept, not pruned, and no default replaces it.
    nullable: bool,
    /// `x-kubernetes-preserve-unknown-fields`: decoding keeps the fields it does not list.
    preserve: bool,
    format: Option<String>,
    /// Whether a CRD's `enum` lists null: a null on a nullable field with an enum must be one
    /// of its values, as kube-openapi's enum check runs on null too.
    null_in_enum: bool,
    /// The format a CRD's node checks, as apiextensions keeps it for the node's type; `None`
    /// for Kubernetes' own kinds, whose `format` is checked by [`check_format`].
    crd_format: Option<CrdFormat>,
    enumeration: Enumeration,
    properties: Properties<Schema>,
    required: Vec<String>,
    extra: Extra,
    items: Option<Box<Schema>>,
    one_of: Vec<Schema>,
    /// Kubernetes' int-or-string and quantity definitions: `oneOf` lists the types a value
    /// may have, any one will do (not JSON Schema's "exactly one").
    one_of_types: bool,
    any_of: Vec<Schema>,
    all_of: Vec<Schema>,
    /// `not`: the value must not fit it.
    not: Option<Box<Schema>>,
    /// `pattern`, as Go's regexp (RE2) reads it.
    pattern: Option<Pattern>,
    /// `x-kubernetes-list-type: set` or `map` (with its keys): items that repeat are refused.
    list_type: ListType,
    /// `default`: set where the field is absent, before anything is checked.
    default: Option<Value>,
    /// Whether this node or any below it has a default: only then is a value copied to be
    /// defaulted.
    defaults_within: bool,
    /// `x-kubernetes-validations`: CEL rules on the value.
    rules: Vec<Rule>,
    /// A named definition, resolved when validating.
    reference: Option<String>,
    minimum: Option<(f64, bool)>,
    maximum: Option<(f64, bool)>,
    min_length: Option<u64>,
    /// The upper bounds are signed: kube-openapi compares with a negative one too, which then
    /// refuses every value.
    max_length: Option<i64>,
    min_items: Option<u64>,
    max_items: Option<i64>,
    min_properties: Option<u64>,
    max_properties: Option<i64>,
    /// `multipleOf`, a positive number.
    multiple_of: Option<f64>,
    /// Whether this node or one below it has a format the API server checks only from some
    /// Kubernetes version on: only then does a custom resource's check depend on the version.
    versioned_formats: bool,
    /// `x-kubernetes-embedded-resource`: an object with apiVersion, kind and metadata.
    embedded: bool,
    /// A node of a CRD's schema, not of Kubernetes' own definitions.
    crd: bool,
    /// A Quantity: a string must parse as one.
    quantity: bool,
}

impl Default for Schema {
    fn default() -> Self {
        Schema {
            types: ANY,
            nullable: false,
            preserve: false,
            format: None,
            null_in_enum: false,
            crd_format: None,
            enumeration: Enumeration::default(),
            properties: Properties::default(),
            required: Vec::new(),
            extra: Extra::Allowed,
            items: None,
            one_of: Vec::new(),
            one_of_types: false,
            any_of: Vec::new(),
            all_of: Vec::new(),
            not: None,
            pattern: None,
            list_type: ListType::Atomic,
            default: None,
            defaults_within: false,
            rules: Vec::new(),
            reference: None,
            minimum: None,
            maximum: None,
            min_length: None,
            max_length: None,
            min_items: None,
            max_items: None,
            min_properties: None,
            max_properties: None,
            multiple_of: None,
            versioned_formats: false,
            embedded: false,
            crd: false,
            quantity: false,
        }
    }
}

fn type_bit(name: &str) -> u8 {
    match name {
        "null" => NULL,
        "boolean" => BOOLEAN,
        "integer" => INTEGER,
        "number" => NUMBER | INTEGER,
        "string" => STRING,
        "object" => OBJECT,
        "array" => ARRAY,
        _ => ANY,
    }
}

/// A check that ran out of its budget before it was done: the value is unchecked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OverBudget;

/// What one check may still do, and the definitions it resolves references with.
struct Walk<'d> {
    definitions: &'d dyn Definitions,
    left: u64,
    /// The budget ran out: every check from here on returns at once.
    over: bool,
    /// What is left of the object's budget for CEL rules, in CEL's steps.
    cel_left: u64,
    /// Whether `cel_left` began below the API server's budget for one object because the
    /// run's budget had less left: running out is then the run's limit, not the object's.
    cel_limited_by_run: bool,
    /// The minor version of the API server's minimum compatibility version, which decides
    /// the formats a CRD's schema checks.
    compatibility_minor: u32,
    /// Steps spent compiling patterns, charged to the run (not to the object, whose check
    /// must cost the same whichever object compiles a pattern first).
    compiled: u64,
    /// On an update, what the old object says of each value: `oldSelf`, and whether the
    /// value is unchanged (ratcheting). `None` on a create.
    update: Option<&'d Update<'d>>,
}

impl Walk<'_> {
    /// Takes `steps` from the budget; false once it has run out, and ever after.
    fn spend(&mut self, steps: u64) -> bool {
        if self.over {
            return false;
        }
        match self.left.checked_sub(steps) {
            Some(left) => {
                self.left = left;
                true
            }
            None => {
                self.left = 0;
                self.over = true;
                false
            }
        }
    }
}

/// What a check found: the first findings of each kind, written out, and how many more of
/// each kind there were, counted but not written.
#[derive(Debug, Default, Clone)]
pub struct Found {
    pub findings: Vec<Finding>,
    /// Per kind ([`FindingKind::index`]), the findings written out and those only counted.
    written: [usize; 3],
    more: [usize; 3],
}

impl Found {
    /// How many findings of `kind` were counted past the first `written_per_kind`.
    pub fn more(&self, kind: &FindingKind) -> usize {
        self.more[kind.index()]
    }

    /// A finding found before validation (decoding's pruned fields), counted as the check's
    /// own: written out while fewer than `written_per_kind` of its kind are.
    pub(super) fn note(&mut self, finding: Finding, written_per_kind: usize) {
        let index = finding.kind.index();
        if self.written[index] < written_per_kind {
            self.written[index] += 1;
            self.findings.push(finding);
        } else {
            self.more[index] += 1;
        }
    }

    /// Counts `count` more findings of `kind`, none written out.
    pub(super) fn count_more(&mut self, kind: &FindingKind, count: usize) {
        self.more[kind.index()] += count;
    }
}

/// Kubernetes 1.25 turns CustomResourceValidationExpressions on by default (beta; alpha and off
/// in 1.23 and 1.24, unknown before): an API server before it neither checks nor runs
/// `x-kubernetes-validations`.
pub const RULES_SINCE_MINOR: u32 = 25;

/// What one check of an object may spend, and against which API server.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Schema steps ([`Schema::validate`]).
    pub steps: u64,
    /// CEL cost, at most the API server's budget for one object (`cel::OBJECT_BUDGET`).
    pub cel: u64,
    /// The API server's minimum compatibility version (its minor): the formats a CRD's
    /// schema checks depend on it.
    pub compatibility_minor: u32,
}

/// What one check spent.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Spent {
    pub steps: u64,
    pub cel: u64,
    /// Steps of pattern compilation, the run's to pay.
    pub compiled: u64,
}

impl FindingKind {
    pub const ALL: [FindingKind; 3] = [
        FindingKind::Invalid,
        FindingKind::UnknownField,
        FindingKind::PrunedField,
    ];

    fn index(&self) -> usize {
        match self {
            FindingKind::Invalid => 0,
            FindingKind::UnknownField => 1,
            FindingKind::PrunedField => 2,
        }
    }
}

/// Where a check's findings go, and whether the value's own are said at all: on an update
/// the API server ratchets what is wrong with a value the update leaves as it was
/// ([`super::ratchet`]).
struct Out<'f> {
    to: To<'f>,
    /// The value is unchanged by the update: what the OpenAPI schema and the rules that do not
    /// read `oldSelf` find wrong with it is dropped ([`Out::push`]); what the API server does
    /// not ratchet is still said ([`Out::keep`]).
    ratcheted: bool,
}

/// Into what was found, the first few of each kind written out — or, for an anyOf or oneOf
/// choice, where all that matters is whether the value fits, nowhere: the first one fails the
/// choice and ends its check, its message never written.
enum To<'f> {
    Collect {
        found: &'f mut Found,
        written_per_kind: usize,
    },
    Probe {
        failed: bool,
    },
}

impl Out<'_> {
    /// What is wrong, unless ratcheting drops it.
    fn push(
        &mut self,
        kind: FindingKind,
        path: impl FnOnce() -> String,
        problem: impl FnOnce() -> String,
    ) {
        if !self.ratcheted {
            self.keep(kind, path, problem);
        }
    }

    /// What is wrong, ratcheted or not.
    fn keep(
        &mut self,
        kind: FindingKind,
        path: impl FnOnce() -> String,
        problem: impl FnOnce() -> String,
    ) {
        match &mut self.to {
            To::Collect {
                found,
                written_per_kind,
            } => {
                let index = kind.index();
                if found.written[index] < *written_per_kind {
                    found.written[index] += 1;
                    found.findings.push(Finding {
                        kind,
                        path: path(),
                        problem: problem(),
                    });
                } else {
                    found.more[index] += 1;
                }
            }
            To::Probe { failed } => *failed = true,
        }
    }

    fn invalid(&mut self, path: &FieldPath<'_>, problem: impl FnOnce() -> String) {
        self.push(FindingKind::Invalid, || path.shown(), problem);
    }

    /// A choice found not to fit: nothing more to learn.
    fn settled(&self) -> bool {
        matches!(self.to, To::Probe { failed: true })
    }
}

/// The definitions a schema refers to by name.
pub trait Definitions {
    fn definition(&self, name: &str) -> Option<&Schema>;

    /// The definition a reference names, to check `value` against.
    fn resolve(&self, name: &str, _value: &Value) -> Option<&Schema> {
        self.definition(name)
    }
}

impl Schema {
    /// A definition of Kubernetes' OpenAPI document, as the kubernetes-json-schema conversion
    /// writes it: nullable types as `["string", "null"]`, int-or-string and quantities as
    /// `oneOf`, an object without `additionalProperties` closed to unknown fields.
    pub fn from_kubernetes(value: &Value) -> Schema {
        let mut schema = Schema::default();
        let Some(object) = value.as_object() else {
            return schema;
        };
        if let Some(reference) = object.get("$ref").and_then(Value::as_str) {
            schema.reference = Some(reference.to_string());
            return schema;
        }
        schema.types = match object.get("type") {
            Some(Value::String(name)) => type_bit(name),
            Some(Value::Array(names)) => names
                .iter()
                .filter_map(Value::as_str)
                .fold(0, |types, name| types | type_bit(name)),
            _ => ANY,
        };
        (schema.format, schema.enumeration) = format_and_enumeration(object);
        if let Some(properties) = object.get("properties").and_then(Value::as_object) {
            schema.properties = properties
                .iter()
                .map(|(field, value)| (field.clone(), Schema::from_kubernetes(value)))
                .collect();
            schema.extra = Extra::Unknown(FindingKind::UnknownField);
        }
        if object.get("x-kubernetes-preserve-unknown-fields") == Some(&Value::Bool(true)) {
            schema.extra = Extra::Allowed;
        }
        match object.get("additionalProperties") {
            Some(Value::Bool(false)) => schema.extra = Extra::Unknown(FindingKind::UnknownField),
            Some(Value::Bool(true)) => schema.extra = Extra::Allowed,
            Some(value @ Value::Object(_)) => {
                schema.extra = Extra::Schema(Box::new(Schema::from_kubernetes(value)))
            }
            _ => {}
        }
        schema.required = strings(object.get("required"));
        schema.items = object
            .get("items")
            .map(|items| Box::new(Schema::from_kubernetes(items)));
        schema.one_of = object
            .get("oneOf")
            .and_then(Value::as_array)
            .map(|schemas| schemas.iter().map(Schema::from_kubernetes).collect())
            .unwrap_or_default();
        // A Quantity is the one definition that is a string or a number; a string must then
        // parse as a quantity (resource.ParseQuantity).
        let option_types: Vec<u8> = schema
            .one_of
            .iter()
            .map(|option| option.types & !NULL)
            .collect();
        schema.quantity = option_types == [STRING, NUMBER | INTEGER];
        schema.one_of_types = schema.types == ANY && !schema.one_of.is_empty();
        schema
    }

    /// A CRD version's `openAPIV3Schema`, under the structural-schema rules: an object's
    /// unknown fields are pruned (findings of the pruned kind) unless
    /// `x-kubernetes-preserve-unknown-fields`.
    pub fn from_crd(value: &Value) -> Schema {
        Schema::from_crd_at(value, true)
    }

    /// A node below a CRD's root, as its own schema: what its `default` is judged against.
    pub(super) fn from_crd_node(value: &Value) -> Schema {
        Schema::from_crd_at(value, false)
    }

    fn from_crd_at(value: &Value, root: bool) -> Schema {
        let mut schema = Schema {
            crd: true,
            ..Schema::default()
        };
        let Some(object) = value.as_object() else {
            return schema;
        };
        let flag = |name: &str| object.get(name) == Some(&Value::Bool(true));
        let int_or_string = flag("x-kubernetes-int-or-string");
        schema.types = match object.get("type").and_then(Value::as_str) {
            Some(name) => type_bit(name),
            None if int_or_string => INTEGER | STRING,
            None => ANY,
        };
        if int_or_string {
            schema.types = INTEGER | STRING;
        }
        if flag("nullable") {
            schema.types |= NULL;
            schema.nullable = true;
        }
        (schema.format, schema.enumeration) = format_and_enumeration(object);
        schema.null_in_enum = object
            .get("enum")
            .and_then(Value::as_array)
            .is_some_and(|values| values.contains(&Value::Null));
        let node_type = object.get("type").and_then(Value::as_str);
        schema.crd_format = schema
            .format
            .as_deref()
            .and_then(|format| CrdFormat::resolve(node_type, format));
        let preserve = flag("x-kubernetes-preserve-unknown-fields");
        schema.preserve = preserve;
        schema.embedded = flag("x-kubernetes-embedded-resource");
        if let Some(properties) = object.get("properties").and_then(Value::as_object) {
            schema.properties = properties
                .iter()
                .map(|(field, value)| (field.clone(), Schema::from_crd_at(value, false)))
                .collect();
        }
        if root {
            // apiVersion, kind and metadata are the API server's own, whatever the schema says:
            // `metadata: {type: object}`, which every kubebuilder CRD has, prunes no name. A CRD
            // may only narrow metadata's name and generateName (apiextensions
            // validateStructuralMetadataInvariants), which the API server's schema validation
            // then applies; the rest of metadata is ObjectMeta's ([`super::object_meta`]).
            let narrowed = schema
                .properties
                .remove("metadata")
                .map(|metadata| metadata.properties)
                .unwrap_or_default();
            let metadata = Schema {
                properties: narrowed
                    .into_iter()
                    .filter(|(field, _)| field == "name" || field == "generateName")
                    .collect(),
                ..Schema::default()
            };
            schema.properties.insert("metadata".to_string(), metadata);
            for field in ["apiVersion", "kind"] {
                schema
                    .properties
                    .insert(field.to_string(), Schema::default());
            }
        }
        schema.extra = if preserve {
            Extra::Allowed
        } else {
            match object.get("additionalProperties") {
                Some(Value::Bool(true)) => Extra::Allowed,
                Some(value @ Value::Object(_)) => {
                    Extra::Schema(Box::new(Schema::from_crd_at(value, false)))
                }
                // Pruning drops every field of an object it finds at a node that describes
                // none, of whatever type (pruning/algorithm.go `prune`): an object where an
                // integer belongs keeps no field.
                _ if schema.types & OBJECT == 0
                    || object.contains_key("properties")
                    || object.contains_key("type") =>
                {
                    Extra::Unknown(FindingKind::PrunedField)
                }
                _ => Extra::Allowed,
            }
        };
        if schema.embedded && !preserve {
            // An embedded resource's are too.
            for field in ["apiVersion", "kind", "metadata"] {
                schema
                    .properties
                    .insert(field.to_string(), Schema::default());
            }
        }
        schema.required = strings(object.get("required"));
        schema.items = object
            .get("items")
            .map(|items| Box::new(Schema::from_crd_at(items, false)));
        let list = |name: &str| -> Vec<Schema> {
            object
                .get(name)
                .and_then(Value::as_array)
                .map(|schemas| {
                    schemas
                        .iter()
                        // Value validations only: they decide no pruning of their own.
                        .map(|value| Schema {
                            extra: Extra::Allowed,
                            ..Schema::from_crd_at(value, false)
                        })
                        .collect()
                })
                .unwrap_or_default()
        };
        schema.one_of = list("oneOf");
        schema.any_of = list("anyOf");
        schema.all_of = list("allOf");
        schema.not = object.get("not").map(|value| {
            Box::new(Schema {
                extra: Extra::Allowed,
                ..Schema::from_crd_at(value, false)
            })
        });
        schema.pattern = object
            .get("pattern")
            .and_then(Value::as_str)
            .map(Pattern::new);
        schema.multiple_of = object.get("multipleOf").and_then(Value::as_f64);
        schema.list_type = match object.get("x-kubernetes-list-type").and_then(Value::as_str) {
            Some("set") => ListType::Set,
            Some("map") => ListType::Map(strings(object.get("x-kubernetes-list-map-keys"))),
            _ => ListType::Atomic,
        };
        // A null default is none: the API server's structural schema holds no value for it.
        schema.default = object
            .get("default")
            .filter(|value| !value.is_null())
            .cloned();
        schema.rules = object
            .get("x-kubernetes-validations")
            .and_then(Value::as_array)
            .map(|rules| rules.iter().map(Rule::from_crd).collect())
            .unwrap_or_default();
        schema.defaults_within = schema.default.is_some()
            || schema
                .properties
                .values()
                .any(|schema| schema.defaults_within)
            || schema
                .items
                .as_ref()
                .is_some_and(|items| items.defaults_within)
            || matches!(&schema.extra, Extra::Schema(extra) if extra.defaults_within);
        let number = |name: &str| object.get(name).and_then(Value::as_f64);
        let count = |name: &str| object.get(name).and_then(Value::as_u64);
        let upper = |name: &str| {
            let bound = object.get(name)?;
            bound.as_i64().or_else(|| bound.as_u64().map(|_| i64::MAX))
        };
        schema.minimum = number("minimum").map(|bound| (bound, flag("exclusiveMinimum")));
        schema.maximum = number("maximum").map(|bound| (bound, flag("exclusiveMaximum")));
        schema.min_length = count("minLength");
        schema.max_length = upper("maxLength");
        schema.min_items = count("minItems");
        schema.max_items = upper("maxItems");
        schema.min_properties = count("minProperties");
        schema.max_properties = upper("maxProperties");
        schema.versioned_formats = schema
            .crd_format
            .is_some_and(|format| format.since_minor() > 0)
            || schema
                .properties
                .values()
                .chain(schema.items.as_deref())
                .chain(schema.one_of.iter())
                .chain(schema.any_of.iter())
                .chain(schema.all_of.iter())
                .chain(schema.not.as_deref())
                .chain(match &schema.extra {
                    Extra::Schema(extra) => Some(extra.as_ref()),
                    _ => None,
                })
                .any(|child| child.versioned_formats);
        schema
    }

    /// Validates `value` in at most `budget` steps: what is wrong, the first
    /// `written_per_kind` findings of each kind written out and the rest counted. A step is one
    /// schema node visited for one value, one field of an object or one required field looked
    /// up, one allowed value of an enum compared with a value, or 64 bytes of a string read for
    /// its length, format or enum: a measure of the work that is the same on every machine.
    /// Returns what was found with the steps taken, or [`OverBudget`] when the budget ran out
    /// first.
    pub fn validate(
        &self,
        value: &Value,
        definitions: &dyn Definitions,
        budget: u64,
        written_per_kind: usize,
    ) -> Result<(Found, u64), OverBudget> {
        let limits = Limits {
            steps: budget,
            cel: cel::OBJECT_BUDGET,
            compatibility_minor: u32::MAX,
        };
        self.validate_with(
            value,
            definitions,
            limits,
            written_per_kind,
            Found::default(),
        )
        .map(|(found, spent)| (found, spent.steps))
    }

    /// Validates `value` — a custom resource already decoded (`check::decode`) — within
    /// `limits`, adding to what `found` holds (decoding's findings). Returns what was found
    /// and what the check spent, or [`OverBudget`] when its steps ran out first.
    pub fn validate_with(
        &self,
        value: &Value,
        definitions: &dyn Definitions,
        limits: Limits,
        written_per_kind: usize,
        found: Found,
    ) -> Result<(Found, Spent), OverBudget> {
        self.validate_update_with(value, None, definitions, limits, written_per_kind, found)
    }

    /// [`Schema::validate_with`] of `value` as a create (`update` `None`) or as the update
    /// `update` describes, whose new object `value` is: transition rules run with `oldSelf`,
    /// and on an API server that ratchets, what is wrong with a value the update leaves as it
    /// was is not said ([`super::ratchet`]).
    pub(super) fn validate_update_with(
        &self,
        value: &Value,
        update: Option<&Update<'_>>,
        definitions: &dyn Definitions,
        limits: Limits,
        written_per_kind: usize,
        mut found: Found,
    ) -> Result<(Found, Spent), OverBudget> {
        let cel_limited_by_run = limits.cel < cel::OBJECT_BUDGET;
        let mut walk = Walk {
            definitions,
            left: limits.steps,
            over: false,
            cel_left: limits.cel.min(cel::OBJECT_BUDGET),
            cel_limited_by_run,
            compatibility_minor: limits.compatibility_minor,
            compiled: 0,
            update,
        };
        let seeded = found.findings.len();
        self.check(
            value,
            &mut FieldPath::default(),
            &mut walk,
            &mut Out {
                to: To::Collect {
                    found: &mut found,
                    written_per_kind,
                },
                ratcheted: false,
            },
        );
        // What decoding found comes after validation's own.
        found.findings.rotate_left(seeded);
        if walk.over {
            Err(OverBudget)
        } else {
            let spent = Spent {
                steps: limits.steps - walk.left,
                cel: limits.cel.min(cel::OBJECT_BUDGET) - walk.cel_left,
                compiled: walk.compiled,
            };
            Ok((found, spent))
        }
    }

    /// Whether `value` fits this schema: its findings are noted, not written, and the first
    /// ends the check.
    /// `ratcheted`: the value is unchanged by an update, and what is wrong with it does not
    /// count.
    fn fits<'v>(
        &self,
        value: &'v Value,
        path: &mut FieldPath<'v>,
        walk: &mut Walk<'_>,
        ratcheted: bool,
    ) -> bool {
        let mut probe = Out {
            to: To::Probe { failed: false },
            ratcheted,
        };
        self.check(value, path, walk, &mut probe);
        !probe.settled()
    }

    /// Checks `value` at `path`, giving what is wrong to `out`. `path` is as it was on return.
    /// On an update, a value the update leaves as it was (and everything within it) is
    /// ratcheted from here down.
    fn check<'v>(
        &self,
        value: &'v Value,
        path: &mut FieldPath<'v>,
        walk: &mut Walk<'_>,
        out: &mut Out<'_>,
    ) {
        let outer = out.ratcheted;
        if let Some(update) = walk.update {
            out.ratcheted |= update.ratchets(value);
        }
        self.check_node(value, path, walk, out);
        out.ratcheted = outer;
    }

    fn check_node<'v>(
        &self,
        value: &'v Value,
        path: &mut FieldPath<'v>,
        walk: &mut Walk<'_>,
        out: &mut Out<'_>,
    ) {
        if out.settled() || !walk.spend(1) {
            return;
        }
        if let Some(name) = &self.reference {
            if let Some(resolved) = walk.definitions.resolve(name, value) {
                resolved.check(value, path, walk, out);
            }
            return;
        }
        let actual = json_type(value);
        if self.one_of_types {
            // Kubernetes' int-or-string and quantity: one of the types will do.
            let fits = self
                .one_of
                .iter()
                .any(|option| option.fits(value, path, walk, out.ratcheted));
            if !fits {
                out.invalid(path, || {
                    format!("{} is not {}", describe(value), wanted_types(&self.one_of))
                });
                self.check_rules_of_kept(value, path, walk, out);
                return;
            }
        } else if self.types & actual == 0 && !self.list_passes_as_formatted_string(actual) {
            out.invalid(path, || {
                format!(
                    "{} is {}, the schema wants {}",
                    describe(value),
                    article(actual),
                    types_word(self.types)
                )
            });
            self.check_rules_of_kept(value, path, walk, out);
            return;
        }
        if value.is_null() {
            if self.crd && !self.enumeration.is_empty() && !self.null_in_enum {
                out.invalid(path, || {
                    format!("null is not one of {}", self.enumeration.listed())
                });
            }
            return;
        }
        if let Some(text) = value.as_str()
            && (self.quantity
                || self.format.is_some()
                || self.min_length.is_some()
                || self.max_length.is_some()
                || !self.enumeration.is_empty())
            && !walk.spend(text.len() as u64 / 64)
        {
            return;
        }
        if self.quantity
            && let Some(text) = value.as_str()
            && let Err(problem) = crate::quantity::parse_quantity(text)
        {
            out.invalid(path, || problem);
        }
        if !self.enumeration.is_empty() {
            let (allowed, steps) = self.enumeration.allows(value);
            if !walk.spend(steps) {
                return;
            }
            if !allowed {
                out.invalid(path, || {
                    format!(
                        "{} is not one of {}",
                        describe(value),
                        self.enumeration.listed()
                    )
                });
            }
        }
        match (&self.crd_format, &self.format) {
            (Some(format), _) => {
                if format.since_minor() <= walk.compatibility_minor
                    && let Some(problem) = format.problem(value)
                {
                    out.invalid(path, || problem);
                }
            }
            (None, Some(format)) if !self.crd => {
                check_format(format, value, &mut |problem| out.invalid(path, || problem));
            }
            _ => {}
        }
        if let (Some(factor), Value::Number(number)) = (self.multiple_of, value)
            && !self.is_multiple(number, factor)
        {
            out.invalid(path, || {
                if self.types & (NUMBER | INTEGER) == INTEGER && factor.fract() != 0.0 {
                    format!(
                        "the schema's multipleOf {factor} is not an integer, which an integer \
                         field needs: the API server refuses every value"
                    )
                } else {
                    format!("{number} is not a multiple of {factor}")
                }
            });
        }
        if let Some(number) = value.as_f64() {
            if let Some((bound, exclusive)) = self.minimum
                && (number < bound || exclusive && number == bound)
            {
                out.invalid(path, || format!("{number} is below the minimum {bound}"));
            }
            if let Some((bound, exclusive)) = self.maximum
                && (number > bound || exclusive && number == bound)
            {
                out.invalid(path, || format!("{number} is above the maximum {bound}"));
            }
        }
        if let Some(text) = value.as_str()
            && (self.min_length.is_some() || self.max_length.is_some())
        {
            let length = text.chars().count() as u64;
            if let Some(minimum) = self.min_length.filter(|&minimum| length < minimum) {
                out.invalid(path, || {
                    format!("{} is shorter than {minimum} characters", describe(value))
                });
            }
            if let Some(maximum) = self
                .max_length
                .filter(|&maximum| i64::try_from(length).unwrap_or(i64::MAX) > maximum)
            {
                out.invalid(path, || {
                    format!("{} is longer than {maximum} characters", describe(value))
                });
            }
        }
        if let (Some(pattern), Some(text)) = (&self.pattern, value.as_str()) {
            let (regex, compiled) = pattern.compiled();
            walk.compiled += compiled;
            match regex {
                Ok(regex) if !regex.is_match(text) => out.invalid(path, || {
                    format!(
                        "{} does not match the pattern {}",
                        describe(value),
                        pattern.source
                    )
                }),
                Ok(_) => {}
                Err(problem) => out.invalid(path, || {
                    format!(
                        "the CRD's pattern {} does not compile as Go's regexp reads it: {problem}",
                        pattern.source
                    )
                }),
            }
        }
        for schema in &self.all_of {
            schema.check(value, path, walk, out);
        }
        if !self.any_of.is_empty() {
            // The first choice that fits settles it.
            if !self
                .any_of
                .iter()
                .any(|option| option.fits(value, path, walk, out.ratcheted))
            {
                out.invalid(path, || {
                    format!(
                        "{} matches 0 of the schema's anyOf choices",
                        describe(value)
                    )
                });
            }
        }
        if let Some(not) = &self.not
            && not.fits(value, path, walk, out.ratcheted)
        {
            out.invalid(path, || {
                format!("{} must not match the schema's not", describe(value))
            });
        }
        if !self.one_of.is_empty() && !self.one_of_types {
            // A second choice that fits settles it.
            let mut passing = 0;
            for option in &self.one_of {
                if option.fits(value, path, walk, out.ratcheted) {
                    passing += 1;
                    if passing == 2 {
                        break;
                    }
                }
            }
            if passing != 1 {
                out.invalid(path, || {
                    format!(
                        "{} matches {} of the schema's oneOf choices",
                        describe(value),
                        if passing == 0 { "0" } else { "more than one" }
                    )
                });
            }
        }
        match value {
            Value::Array(items) => {
                let count = items.len() as u64;
                if let Some(minimum) = self.min_items.filter(|&minimum| count < minimum) {
                    out.invalid(path, || format!("has {count} items, fewer than {minimum}"));
                }
                if let Some(maximum) = self
                    .max_items
                    .filter(|&maximum| i64::try_from(count).unwrap_or(i64::MAX) > maximum)
                {
                    out.invalid(path, || format!("has {count} items, more than {maximum}"));
                }
                // Not the OpenAPI schema's: never ratcheted, and on an update checked only
                // when the old object's lists have no duplicates (strategy.go ValidateUpdate).
                if self.list_type != ListType::Atomic
                    && walk.update.is_none_or(Update::checks_lists)
                {
                    if !walk.spend(count) {
                        return;
                    }
                    for (index, problem) in self.list_type.duplicates(items) {
                        path.steps.push(Step::Index(index));
                        out.keep(FindingKind::Invalid, || path.shown(), || problem);
                        path.steps.pop();
                    }
                }
                if let Some(schema) = &self.items {
                    for (index, item) in items.iter().enumerate() {
                        path.steps.push(Step::Index(index));
                        schema.check(item, path, walk, out);
                        path.steps.pop();
                        if out.settled() || walk.over {
                            return;
                        }
                    }
                }
            }
            Value::Object(fields) => {
                if !walk.spend((self.required.len() + fields.len()) as u64) {
                    return;
                }
                let count = fields.len() as u64;
                if let Some(minimum) = self.min_properties.filter(|&minimum| count < minimum) {
                    out.invalid(path, || {
                        format!("has {count} properties, fewer than {minimum}")
                    });
                }
                if let Some(maximum) = self
                    .max_properties
                    .filter(|&maximum| i64::try_from(count).unwrap_or(i64::MAX) > maximum)
                {
                    out.invalid(path, || {
                        format!("has {count} properties, more than {maximum}")
                    });
                }
                for field in &self.required {
                    if fields.field(field).is_none() {
                        out.push(
                            FindingKind::Invalid,
                            || path.shown_at(field),
                            || "is required".to_string(),
                        );
                    }
                }
                if self.embedded {
                    for field in ["apiVersion", "kind"] {
                        // objectmeta.Validate's, after the schema's: never ratcheted.
                        if !fields.field(field).is_some_and(Value::is_string) {
                            out.keep(
                                FindingKind::Invalid,
                                || path.shown_at(field),
                                || "is required in an embedded resource".to_string(),
                            );
                        }
                    }
                }
                for (field, item) in fields {
                    path.steps.push(Step::Field(field));
                    match (self.properties.get(field), &self.extra) {
                        (Some(schema), _) => schema.check(item, path, walk, out),
                        (None, Extra::Schema(schema)) => schema.check(item, path, walk, out),
                        (None, Extra::Unknown(kind)) => out.push(
                            kind.clone(),
                            || path.shown(),
                            || match kind {
                                FindingKind::PrunedField => {
                                    "is not in the CRD's schema: the API server drops it"
                                        .to_string()
                                }
                                _ => format!(
                                    "is not a field of this kind{}",
                                    crate::edit_distance::hint(
                                        crate::edit_distance::nearest(
                                            field,
                                            self.properties.keys().map(|key| &**key),
                                        ),
                                        crate::edit_distance::Hint::AfterAsCode,
                                    )
                                ),
                            },
                        ),
                        (None, Extra::Allowed) => {}
                    }
                    path.steps.pop();
                    if out.settled() || walk.over {
                        return;
                    }
                }
            }
            _ => {}
        }
        if !self.rules.is_empty() && !out.settled() && !walk.over {
            self.check_rules(value, path, walk, out);
        }
    }

    /// A value of a type the schema refuses is not judged further — unless ratcheting keeps
    /// it: the API server then runs the node's rules all the same, and a rule that reads the
    /// value fails to evaluate (validation.go runs the rules of every node that has a value).
    fn check_rules_of_kept<'v>(
        &self,
        value: &'v Value,
        path: &mut FieldPath<'v>,
        walk: &mut Walk<'_>,
        out: &mut Out<'_>,
    ) {
        if out.ratcheted && !self.rules.is_empty() && !value.is_null() && !walk.over {
            self.check_rules(value, path, walk, out);
        }
    }

    /// Runs the CEL rules of this node on `value`, within what is left of the object's CEL
    /// budget.
    fn check_rules<'v>(
        &self,
        value: &'v Value,
        path: &mut FieldPath<'v>,
        walk: &mut Walk<'_>,
        out: &mut Out<'_>,
    ) {
        // Before Kubernetes 1.25 the API server runs no rule (its compatibility version is one
        // older).
        if walk.compatibility_minor < RULES_SINCE_MINOR - 1 {
            return;
        }
        for rule in &self.rules {
            // On an update a rule's failure is ratcheted on an unchanged value unless the rule
            // reads oldSelf; its evaluation errors never are (validation.go
            // validateExpressions).
            let in_update = match walk.update {
                None if !rule.runs_without_old() => continue,
                None => None,
                Some(update) => {
                    let old = update.old_self(value);
                    if old.is_none() && !update.runs_without_old(rule) {
                        continue;
                    }
                    Some(old)
                }
            };
            if value.is_array() && self.types & ARRAY == 0 {
                // A list kube-openapi let through as a formatted string is no string to CEL:
                // the API server's conversion refuses it (apiserver pkg/cel/common
                // UnstructuredToVal), an evaluation error, never ratcheted.
                out.keep(
                    FindingKind::Invalid,
                    || path.shown(),
                    || {
                        format!(
                            "invalid data, expected string, got []interface {{}} evaluating rule: {}",
                            rule.source()
                        )
                    },
                );
                continue;
            }
            let (verdict, ratchets) = match in_update {
                None => (rule.judge(value, self, &mut walk.cel_left), true),
                Some(old) => {
                    let (verdict, own) = rule.judge_in_update(value, old, self, &mut walk.cel_left);
                    (verdict, own && !rule.is_transition())
                }
            };
            match verdict {
                Verdict::Holds => {}
                Verdict::Fails { field, problem } if !ratchets => out.keep(
                    FindingKind::Invalid,
                    || match field {
                        Some(field) => path.shown_with(&field),
                        None => path.shown(),
                    },
                    || problem,
                ),
                Verdict::Fails { field, problem } => out.push(
                    FindingKind::Invalid,
                    || match field {
                        Some(field) => path.shown_with(&field),
                        None => path.shown(),
                    },
                    || problem,
                ),
                Verdict::OutOfBudget if walk.cel_limited_by_run => {
                    out.keep(
                        FindingKind::Invalid,
                        || path.shown(),
                        || {
                            "not every CEL rule was run: the run's budget for CEL rules is spent \
                         (fedrender's limit for one run, so that a fleet cannot keep it busy \
                         for minutes); the object is not known to be valid"
                                .to_string()
                        },
                    );
                    return;
                }
                Verdict::OutOfBudget => {
                    out.keep(
                        FindingKind::Invalid,
                        || path.shown(),
                        || cel::OUT_OF_BUDGET.to_string(),
                    );
                    return;
                }
            }
        }
    }

    /// kube-openapi's type validator (validate/type.go) lets a list through where a node of a
    /// non-numeric type has a format it keeps: `{type: string, format: date}` takes `[]`, and
    /// checks nothing of it (the format and string checks apply to strings only).
    fn list_passes_as_formatted_string(&self, actual: u8) -> bool {
        actual == ARRAY
            && self.types & (NUMBER | INTEGER) == 0
            && matches!(self.crd_format, Some(CrdFormat::Text(_)))
    }

    /// Whether a number is a multiple of `factor` as kube-openapi judges it
    /// (validate/values.go `MultipleOfNativeType`): an integer value against a factor its
    /// type and format can hold as an integer is divided as integers — the factor truncated,
    /// so on a `number` node 5 is not a multiple of 2.5 and no integer one of 0.5 — anything
    /// else as floats, within a relative 1e-9 of a whole quotient.
    fn is_multiple(&self, number: &serde_json::Number, factor: f64) -> bool {
        let integer_node = self.types & (NUMBER | INTEGER) == INTEGER;
        let factor_fits = if integer_node {
            let int32 = self.crd_format == Some(CrdFormat::Int32);
            factor.fract() == 0.0
                && if int32 {
                    factor >= f64::from(i32::MIN) && factor <= f64::from(i32::MAX)
                } else {
                    (-9.223_372_036_854_775e18..9.223_372_036_854_775e18).contains(&factor)
                }
        } else {
            true
        };
        if integer_node && !factor_fits {
            // IsValueValidAgainstRange refuses the factor itself, whatever the value.
            return false;
        }
        // A whole number reaches the API server as an integer (YAML to JSON writes 1.0 as 1).
        let integer = number.as_i64().or_else(|| {
            number
                .as_f64()
                .filter(|float| float.fract() == 0.0 && float.abs() < 9.2e18)
                .map(|float| float as i64)
        });
        match integer {
            Some(integer) => {
                let factor = factor as i64;
                factor > 0 && integer % factor == 0
            }
            _ => {
                let value = number.as_f64().unwrap_or(f64::NAN);
                if factor <= 0.0 {
                    return false;
                }
                let quotient = if factor < 1.0 {
                    1.0 / factor * value
                } else {
                    value / factor
                };
                is_json_integer(quotient)
            }
        }
    }

    /// The schema of a list's items.
    pub(super) fn items(&self) -> Option<&Schema> {
        self.items.as_deref()
    }

    /// Whether this node or one below it has a CEL rule that reads `oldSelf`: rules a build
    /// cannot judge, having no object before the change.
    pub fn transition_rules(&self) -> usize {
        let own = self
            .rules
            .iter()
            .filter(|rule| rule.is_transition())
            .count();
        own + self
            .properties
            .values()
            .chain(self.items.as_deref())
            .chain(match &self.extra {
                Extra::Schema(schema) => Some(schema.as_ref()),
                _ => None,
            })
            .map(Schema::transition_rules)
            .sum::<usize>()
    }

    /// Whether the check of a custom resource of this schema depends on the Kubernetes
    /// version (a format the API server checks only from some version on).
    pub(super) fn has_versioned_formats(&self) -> bool {
        self.versioned_formats
    }

    pub(super) fn preserves_unknown_fields(&self) -> bool {
        self.preserve
    }

    pub(super) fn is_embedded_resource(&self) -> bool {
        self.embedded
    }

    /// Whether a field this node does not list is kept (no pruning, no finding).
    pub(super) fn allows_unknown_fields(&self) -> bool {
        matches!(self.extra, Extra::Allowed)
    }

    pub(super) fn properties(&self) -> &Properties<Schema> {
        &self.properties
    }

    pub(super) fn default_value(&self) -> Option<&Value> {
        self.default.as_ref()
    }

    pub(super) fn is_nullable(&self) -> bool {
        self.nullable
    }

    pub(super) fn has_defaults_within(&self) -> bool {
        self.defaults_within
    }

    /// The schema of field `name` of an object of this schema.
    pub(super) fn field(&self, name: &str) -> Option<&Schema> {
        match (self.properties.get(name), &self.extra) {
            (Some(schema), _) => Some(schema),
            (None, Extra::Schema(schema)) => Some(schema),
            _ => None,
        }
    }

    /// Sets the schema's defaults in `value` where it lacks the field, as the API server's
    /// structural defaulting does before validating: an absent field (or a null one the schema
    /// does not allow null in) with a default gets it, at every depth, in defaults too.
    pub(super) fn apply_defaults(&self, value: &mut Value) {
        if !self.defaults_within {
            return;
        }
        match value {
            Value::Object(fields) => {
                for (name, property) in &self.properties {
                    let Some(default) = &property.default else {
                        continue;
                    };
                    match fields.get(name) {
                        None => {
                            fields.insert(name.clone(), default.clone());
                        }
                        Some(Value::Null) if !property.nullable => {
                            fields.insert(name.clone(), default.clone());
                        }
                        Some(_) => {}
                    }
                }
                for (name, field) in fields.iter_mut() {
                    if let Some(schema) = self.field(name) {
                        if field.is_null()
                            && !schema.nullable
                            && let Some(default) = &schema.default
                        {
                            *field = default.clone();
                        }
                        schema.apply_defaults(field);
                    }
                }
            }
            Value::Array(items) => {
                if let Some(schema) = &self.items {
                    for item in items {
                        if item.is_null()
                            && !schema.nullable
                            && let Some(default) = &schema.default
                        {
                            *item = default.clone();
                        }
                        schema.apply_defaults(item);
                    }
                }
            }
            _ => {}
        }
    }
}

/// How CEL types the values of a schema.
/// What ratcheting correlates an update's two objects by.
impl ratchet::Tree for Schema {
    fn field(&self, name: &str) -> Option<&Schema> {
        Schema::field(self, name)
    }

    fn items(&self) -> Option<&Schema> {
        self.items.as_deref()
    }

    fn list_type(&self) -> &ListType {
        &self.list_type
    }
}

impl Shape for Schema {
    fn field(&self, name: &str) -> Option<&dyn Shape> {
        Schema::field(self, name).map(|schema| schema as &dyn Shape)
    }

    fn declares_properties(&self) -> bool {
        !self.properties.is_empty()
    }

    fn item(&self) -> Option<&dyn Shape> {
        self.items.as_deref().map(|schema| schema as &dyn Shape)
    }

    fn is_number(&self) -> bool {
        self.types & NUMBER != 0
    }

    fn format(&self) -> Option<&str> {
        self.format.as_deref()
    }

    /// A CRD node's type, for CEL's conversion of its values.
    fn declared(&self) -> Option<(Declared, bool)> {
        let declared = match self.types & !NULL {
            _ if !self.crd => return None,
            OBJECT => Declared::Object,
            ARRAY => Declared::Array,
            STRING => Declared::String,
            INTEGER => Declared::Integer,
            BOOLEAN => Declared::Boolean,
            types if types == NUMBER | INTEGER => Declared::Number,
            types if types == INTEGER | STRING => Declared::IntOrString,
            _ => return None,
        };
        Some((declared, self.nullable))
    }
}

/// The type bit of a JSON value; a whole number is an integer, as the API server reads it.
fn json_type(value: &Value) -> u8 {
    match value {
        Value::Null => NULL,
        Value::Bool(_) => BOOLEAN,
        Value::Number(number) if number.is_i64() || number.is_u64() => INTEGER,
        Value::Number(number) if number.as_f64().is_some_and(|float| float.fract() == 0.0) => {
            INTEGER
        }
        Value::Number(_) => NUMBER,
        Value::String(_) => STRING,
        Value::Array(_) => ARRAY,
        Value::Object(_) => OBJECT,
    }
}

/// go-openapi swag's `IsFloat64AJSONInteger`: finite, within ±(2⁵³−1), and whole or within a
/// relative 1e-9 of its rounding.
fn is_json_integer(value: f64) -> bool {
    const MAX: f64 = 9_007_199_254_740_991.0;
    if !value.is_finite() || !(-MAX..=MAX).contains(&value) {
        return false;
    }
    let rounded = value.round();
    if value == rounded {
        return true;
    }
    if rounded == 0.0 {
        return false;
    }
    (value - rounded).abs() < 1e-9 * rounded.abs()
}

fn strings(value: Option<&Value>) -> Vec<String> {
    value
        .and_then(Value::as_array)
        .map(|items| {
            items
                .iter()
                .filter_map(Value::as_str)
                .map(String::from)
                .collect()
        })
        .unwrap_or_default()
}

fn article(bit: u8) -> &'static str {
    match bit {
        NULL => "null",
        BOOLEAN => "a boolean",
        INTEGER => "an integer",
        NUMBER => "a number",
        STRING => "a string",
        ARRAY => "a list",
        _ => "an object",
    }
}

fn types_word(types: u8) -> String {
    let names: Vec<&str> = [
        (STRING, "a string"),
        (INTEGER, "an integer"),
        (NUMBER, "a number"),
        (BOOLEAN, "a boolean"),
        (ARRAY, "a list"),
        (OBJECT, "an object"),
    ]
    .iter()
    .filter(|(bit, _)| types & bit != 0 && !(*bit == INTEGER && types & NUMBER != 0))
    .map(|(_, name)| *name)
    .collect();
    names.join(" or ")
}

fn wanted_types(options: &[Schema]) -> String {
    let types = options.iter().fold(0, |types, option| types | option.types) & !NULL;
    types_word(types)
}

#[cfg(test)]
mod tests;
