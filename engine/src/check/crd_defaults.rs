//! A CRD's defaults judged as the API server judges them when the CRD is created
//! (apiextensions-apiserver pkg/apiserver/schema/defaulting/validation.go `ValidateDefaults`):
//! each `default` of the structure (not of a value validation, nor below
//! `additionalProperties`, where none may be) must be pruned already — no field its schema
//! drops — and valid against its own node's schema, CEL rules included. A default the API
//! server would refuse makes the CRD one no cluster can create.

use serde_json::Value;

use super::cel;
use super::refusal::{Place, Refusal};
use super::schema::{Definitions, FindingKind, Found, Limits, Schema};

/// The schema steps all of a CRD's defaults may take to be judged: far more than any real
/// CRD's need (a default is checked once, as one small object), and a bound on one built to
/// make fedrender work.
const STEPS: u64 = 2_000_000;

/// The findings written out per default; the rest are counted.
const WRITTEN: usize = 5;

/// A default longer than this as JSON is shown cut short in a message.
const SHOWN: usize = 80;

struct NoDefinitions;

impl Definitions for NoDefinitions {
    fn definition(&self, _: &str) -> Option<&Schema> {
        None
    }
}

/// What validating the defaults of the root schema at `at` gives, in the API server's order
/// (each node's default, then its items', then its properties'), the schema steps and the
/// CEL cost shared by all of them as the API server shares its runtime budget
/// (`RuntimeCELCostBudget`).
pub fn default_refusals(root: &Value, at: &Place) -> Vec<Refusal> {
    let mut walk = Walk {
        steps: STEPS,
        cel: cel::OBJECT_BUDGET,
        refusals: Vec::new(),
        exhausted: false,
    };
    // The root is judged as a resource: its apiVersion, kind and metadata are the API
    // server's own (ValidateDefaults makes the root an embedded resource).
    walk.node(root, at, true);
    walk.refusals
}

struct Walk {
    steps: u64,
    cel: u64,
    refusals: Vec<Refusal>,
    /// The budget ran out: nothing more is judged.
    exhausted: bool,
}

impl Walk {
    /// Judges the default of `node` (a resource's root when `resource`), then those below.
    fn node(&mut self, node: &Value, at: &Place, resource: bool) {
        if self.exhausted {
            return;
        }
        if let Some(default) = node.get("default").filter(|default| !default.is_null()) {
            self.default(node, default, &at.child("default"));
        }
        if let Some(items) = node.get("items").filter(|items| items.is_object()) {
            self.node(items, &at.child("items"), false);
        }
        let embedded =
            resource || node.get("x-kubernetes-embedded-resource") == Some(&Value::Bool(true));
        if let Some(properties) = node.get("properties").and_then(Value::as_object) {
            for (name, property) in properties {
                // A resource's apiVersion, kind and metadata are ObjectMeta's and TypeMeta's,
                // whose defaults are forbidden at the root (crd_structure::Standard) and
                // judged as metadata by the API server elsewhere: not here.
                if embedded && matches!(name.as_str(), "apiVersion" | "kind" | "metadata") {
                    continue;
                }
                let embedded_below =
                    property.get("x-kubernetes-embedded-resource") == Some(&Value::Bool(true));
                self.node(property, &at.key("properties", name), embedded_below);
            }
        }
    }

    /// Judges `default` against `node`: pruned (no field the schema drops), then valid.
    fn default(&mut self, node: &Value, default: &Value, at: &Place) {
        let schema = Schema::from_crd_node(node);
        let limits = Limits {
            steps: self.steps,
            cel: self.cel,
            // A default is validated with every format kube-openapi knows (the schema's own,
            // not the served one, whose formats depend on the version).
            compatibility_minor: u32::MAX,
        };
        let Ok((found, spent)) =
            schema.validate_with(default, &NoDefinitions, limits, WRITTEN, Found::default())
        else {
            self.exhausted = true;
            self.refusals.push(Refusal::at(
                at,
                format!(
                    "Invalid value: {}: fedrender could not judge this default within its \
                     budget of {STEPS} schema steps for a CRD's defaults, so it does not call \
                     the CRD valid",
                    shown(default)
                ),
            ));
            return;
        };
        self.steps -= spent.steps;
        self.cel -= spent.cel;
        if found
            .findings
            .iter()
            .any(|finding| finding.kind == FindingKind::PrunedField)
            || found.more(&FindingKind::PrunedField) > 0
        {
            self.refusals.push(Refusal::at(
                at,
                format!(
                    "Invalid value: {}: must not have unknown fields",
                    shown(default)
                ),
            ));
        }
        for finding in &found.findings {
            if finding.kind != FindingKind::Invalid {
                continue;
            }
            let field = match finding.path.as_str() {
                "" => at.api.clone(),
                path if path.starts_with('[') => format!("{}{path}", at.api),
                path => format!("{}.{path}", at.api),
            };
            self.refusals.push(Refusal {
                field,
                document_field: at.document.clone(),
                rule: None,
                says: format!("Invalid value: {}: {}", shown(default), finding.problem),
            });
        }
        let more = found.more(&FindingKind::Invalid);
        if more > 0 {
            self.refusals.push(Refusal::at(
                at,
                format!(
                    "Invalid value: {}: and {more} more {}",
                    shown(default),
                    if more == 1 { "error" } else { "errors" }
                ),
            ));
        }
    }
}

/// A default as JSON, cut short past [`SHOWN`] bytes.
fn shown(value: &Value) -> String {
    let text = value.to_string();
    if text.len() <= SHOWN {
        return text;
    }
    let mut end = SHOWN;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}
