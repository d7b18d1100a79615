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
    /// `name`.
    #[serde(default)]
    pub name: String,
    /// `generateName`: refused by fedrender, which needs a name to place.
    #[serde(default)]
    pub generate_name: Option<String>,
    /// `namespace`.
    #[serde(default)]
    pub namespace: Option<String>,
    /// `selfLink`, as the API server wrote it.
    #[serde(default)]
    pub self_link: Option<String>,
    /// `uid`, as the API server wrote it.
    #[serde(default)]
    pub uid: Option<String>,
    /// `resourceVersion`, as the API server wrote it.
    #[serde(default)]
    pub resource_version: Option<String>,
    /// `generation`, as the API server wrote it.
    #[serde(default)]
    pub generation: Option<i64>,
    /// `creationTimestamp`, as the API server wrote it.
    #[serde(default)]
    pub creation_timestamp: Option<Value>,
    /// `deletionTimestamp`: set when the object is being deleted.
    #[serde(default)]
    pub deletion_timestamp: Option<Value>,
    /// `deletionGracePeriodSeconds`, as the API server wrote it.
    #[serde(default)]
    pub deletion_grace_period_seconds: Option<i64>,
    /// `labels`.
    #[serde(default)]
    pub labels: BTreeMap<String, String>,
    /// `annotations`.
    #[serde(default)]
    pub annotations: BTreeMap<String, String>,
    /// `ownerReferences`, as written.
    #[serde(default)]
    pub owner_references: Option<Value>,
    /// `finalizers`, as written.
    #[serde(default)]
    pub finalizers: Option<Vec<String>>,
    /// `managedFields`, as the API server wrote it.
    #[serde(default)]
    pub managed_fields: Option<Value>,
}

/// `metav1.LabelSelector`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct LabelSelector {
    /// `matchLabels`: labels that must be present with these values.
    #[serde(default)]
    pub match_labels: BTreeMap<String, String>,
    /// `matchExpressions`: requirements that must all hold.
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
    /// `key`: the label.
    pub key: String,
    /// `operator`: `In`, `NotIn`, `Exists` or `DoesNotExist`.
    pub operator: SelectorOperator,
    /// `values`: for `In` and `NotIn`.
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
    /// The label's value is one of the values.
    In,
    /// The label is absent, or its value is none of the values.
    NotIn,
    /// The label is present.
    Exists,
    /// The label is absent.
    DoesNotExist,
    /// Any other operator, as written: matches nothing.
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
    /// `key`: the field (`provider`, `region`, `zone`).
    pub key: String,
    /// `operator`: `In`, `NotIn`, `Exists` or `DoesNotExist`.
    pub operator: SelectorOperator,
    /// `values`: for `In` and `NotIn`.
    #[serde(default)]
    pub values: Vec<String>,
}

/// `corev1.Taint`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Taint {
    /// `key`: the taint's key.
    pub key: String,
    /// `value`: the taint's value.
    #[serde(default)]
    pub value: String,
    /// `effect`: what the taint keeps away.
    pub effect: TaintEffect,
    /// `timeAdded`, as written.
    #[serde(default)]
    pub time_added: Option<Value>,
}

/// What a taint keeps away.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum TaintEffect {
    /// New placements that do not tolerate it.
    NoSchedule,
    /// New placements, when another cluster will do.
    PreferNoSchedule,
    /// Placements that do not tolerate it, even those already there.
    NoExecute,
}

/// `corev1.Toleration`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Toleration {
    /// `key`: the taint key tolerated; every key when empty with `Exists`.
    #[serde(default)]
    pub key: String,
    /// `operator`: `Exists` or `Equal` (the default).
    #[serde(default)]
    pub operator: Option<TolerationOperator>,
    /// `value`: the taint value tolerated, with `Equal`.
    #[serde(default)]
    pub value: String,
    /// `effect`: the effect tolerated; every effect when unset.
    #[serde(default)]
    pub effect: Option<TaintEffect>,
    /// `tolerationSeconds`: how long a `NoExecute` taint is tolerated.
    #[serde(default)]
    pub toleration_seconds: Option<i64>,
}

/// How a toleration matches a taint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum TolerationOperator {
    /// Any value of the key.
    Exists,
    /// The value given.
    Equal,
    /// Defined by Kubernetes, rejected by Karmada's validation (clusterTolerations).
    Lt,
    /// Defined by Kubernetes, rejected by Karmada's validation (clusterTolerations).
    Gt,
}

/// `metav1.Condition`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Condition {
    /// `type` (`Ready`).
    #[serde(rename = "type")]
    pub condition_type: String,
    /// `status`: `True`, `False` or `Unknown`.
    pub status: String,
    /// `observedGeneration`, as written.
    #[serde(default)]
    pub observed_generation: Option<i64>,
    /// `lastTransitionTime`, as written.
    #[serde(default)]
    pub last_transition_time: Option<Value>,
    /// `reason`, as written.
    #[serde(default)]
    pub reason: Option<String>,
    /// `message`, as written.
    #[serde(default)]
    pub message: Option<String>,
}
