//! Kubernetes metadata types shared by every policy and by the inventory, with Kubernetes' JSON
//! names (k8s.io/apimachinery pkg/apis/meta/v1/types.go).

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;

/// `metav1.ObjectMeta`. Every field Kubernetes prints is accepted, so that policies and clusters
/// copied from `kubectl get -o yaml` load as they are; fedrender reads only a few of them.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ObjectMeta {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub generate_name: Option<String>,
    #[serde(default)]
    pub namespace: Option<String>,
    #[serde(default)]
    pub self_link: Option<String>,
    #[serde(default)]
    pub uid: Option<String>,
    #[serde(default)]
    pub resource_version: Option<String>,
    #[serde(default)]
    pub generation: Option<i64>,
    #[serde(default)]
    pub creation_timestamp: Option<Value>,
    #[serde(default)]
    pub deletion_timestamp: Option<Value>,
    #[serde(default)]
    pub deletion_grace_period_seconds: Option<i64>,
    #[serde(default)]
    pub labels: BTreeMap<String, String>,
    #[serde(default)]
    pub annotations: BTreeMap<String, String>,
    #[serde(default)]
    pub owner_references: Option<Value>,
    #[serde(default)]
    pub finalizers: Option<Vec<String>>,
    #[serde(default)]
    pub managed_fields: Option<Value>,
}

/// `metav1.LabelSelector`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct LabelSelector {
    #[serde(default)]
    pub match_labels: BTreeMap<String, String>,
    #[serde(default)]
    pub match_expressions: Vec<LabelSelectorRequirement>,
    /// Set on admission when `metav1.LabelSelectorAsSelector` would refuse the selector
    /// ([`LabelSelector::conversion_problems`]): where Karmada converts it, it then matches
    /// nothing.
    #[serde(skip)]
    pub unconvertible: bool,
}

impl LabelSelector {
    /// What `metav1.LabelSelectorAsSelector` refuses, each with the field (relative to the
    /// selector) and why: keys that are not qualified names, values that are not label values
    /// (in `matchLabels` and in `matchExpressions` alike: `labels.NewRequirement` checks both),
    /// an operator other than In, NotIn, Exists and DoesNotExist, `In`/`NotIn` without values,
    /// `Exists`/`DoesNotExist` with some.
    pub fn conversion_problems(&self) -> Vec<(String, String)> {
        let mut problems = Vec::new();
        for (key, value) in &self.match_labels {
            if let Some(problem) = crate::names::qualified_name_problem(key) {
                problems.push(("matchLabels".to_string(), format!("key {key:?} {problem}")));
            }
            if let Some(problem) = crate::names::label_value_problem(value) {
                problems.push((
                    format!("matchLabels.{key}"),
                    format!("value {value:?} {problem}"),
                ));
            }
        }
        for (index, requirement) in self.match_expressions.iter().enumerate() {
            let field = format!("matchExpressions[{index}]");
            if let Some(problem) = crate::names::qualified_name_problem(&requirement.key) {
                problems.push((
                    field.clone(),
                    format!("key {:?} {problem}", requirement.key),
                ));
            }
            let operator = &requirement.operator;
            match operator {
                SelectorOperator::In | SelectorOperator::NotIn if requirement.values.is_empty() => {
                    problems.push((
                        field.clone(),
                        format!("operator {operator} needs at least one value"),
                    ));
                }
                SelectorOperator::Exists | SelectorOperator::DoesNotExist
                    if !requirement.values.is_empty() =>
                {
                    problems.push((
                        field.clone(),
                        format!("operator {operator} takes no values"),
                    ));
                }
                SelectorOperator::Unknown(_) => {
                    problems.push((
                        format!("{field}.operator"),
                        format!(
                            "{:?} is not a label selector operator (In, NotIn, Exists, DoesNotExist)",
                            operator.to_string()
                        ),
                    ));
                }
                _ => {}
            }
            for (at, value) in requirement.values.iter().enumerate() {
                if let Some(problem) = crate::names::label_value_problem(value) {
                    problems.push((
                        format!("{field}.values[{at}]"),
                        format!("value {value:?} {problem}"),
                    ));
                }
            }
        }
        problems
    }
}

/// `metav1.LabelSelectorRequirement`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct LabelSelectorRequirement {
    pub key: String,
    pub operator: SelectorOperator,
    #[serde(default)]
    pub values: Vec<String>,
}

/// The set-based operators of label selectors. Any other spelling is kept as written: neither
/// Karmada's webhooks nor its CRDs refuse it, and `metav1.LabelSelectorAsSelector` then fails,
/// so where a policy is admitted anyway the selector matches nothing. Node selectors also define
/// `Gt`/`Lt`, which Karmada's validation forbids wherever it takes a node selector requirement.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(from = "String")]
pub enum SelectorOperator {
    In,
    NotIn,
    Exists,
    DoesNotExist,
    Unknown(String),
}

impl From<String> for SelectorOperator {
    fn from(spelling: String) -> Self {
        // Case-exact, as Go compares `metav1.LabelSelectorOperator` constants.
        match spelling.as_str() {
            "In" => SelectorOperator::In,
            "NotIn" => SelectorOperator::NotIn,
            "Exists" => SelectorOperator::Exists,
            "DoesNotExist" => SelectorOperator::DoesNotExist,
            _ => SelectorOperator::Unknown(spelling),
        }
    }
}

impl std::fmt::Display for SelectorOperator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SelectorOperator::In => "In",
            SelectorOperator::NotIn => "NotIn",
            SelectorOperator::Exists => "Exists",
            SelectorOperator::DoesNotExist => "DoesNotExist",
            SelectorOperator::Unknown(spelling) => spelling,
        })
    }
}

/// `corev1.NodeSelectorRequirement`, as used by Karmada's `fieldSelector`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct NodeSelectorRequirement {
    pub key: String,
    pub operator: SelectorOperator,
    #[serde(default)]
    pub values: Vec<String>,
}

/// `corev1.Taint`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Taint {
    pub key: String,
    #[serde(default)]
    pub value: String,
    pub effect: TaintEffect,
    #[serde(default)]
    pub time_added: Option<Value>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum TaintEffect {
    NoSchedule,
    PreferNoSchedule,
    NoExecute,
}

/// `corev1.Toleration`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Toleration {
    #[serde(default)]
    pub key: String,
    #[serde(default)]
    pub operator: Option<TolerationOperator>,
    #[serde(default)]
    pub value: String,
    #[serde(default)]
    pub effect: Option<TaintEffect>,
    #[serde(default)]
    pub toleration_seconds: Option<i64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum TolerationOperator {
    Exists,
    Equal,
    /// Defined by Kubernetes, rejected by Karmada's validation (clusterTolerations).
    Lt,
    Gt,
}

/// `metav1.Condition`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Condition {
    #[serde(rename = "type")]
    pub condition_type: String,
    pub status: String,
    #[serde(default)]
    pub observed_generation: Option<i64>,
    #[serde(default)]
    pub last_transition_time: Option<Value>,
    #[serde(default)]
    pub reason: Option<String>,
    #[serde(default)]
    pub message: Option<String>,
}
