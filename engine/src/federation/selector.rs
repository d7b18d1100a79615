//! Federation v1's cluster-selector annotation (`federation.alpha.kubernetes.io/cluster-selector`,
//! kubernetes-retired/federation pkg/federation-controller/util/clusterselector): a list of
//! label requirements, read and matched as Federation v1 reads and matches them.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::names;

/// `labels.Requirement` as Federation v1's selector annotation builds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SelectorRequirement {
    pub key: String,
    pub operator: SelectorOperator,
    pub values: Vec<String>,
}

/// `selection.Operator`, as clusterselector.go `ConvertOperator` maps the annotation's strings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SelectorOperator {
    DoesNotExist,
    Equals,
    DoubleEquals,
    In,
    NotEquals,
    NotIn,
    Exists,
    GreaterThan,
    LessThan,
}

impl SelectorOperator {
    /// clusterselector.go `ConvertOperator`: exactly these spellings, case-sensitive.
    pub fn parse(text: &str) -> Option<Self> {
        Some(match text {
            "!" | "DoesNotExist" => SelectorOperator::DoesNotExist,
            "=" => SelectorOperator::Equals,
            "==" => SelectorOperator::DoubleEquals,
            "in" | "In" => SelectorOperator::In,
            "!=" => SelectorOperator::NotEquals,
            "notin" | "NotIn" => SelectorOperator::NotIn,
            "exists" | "Exists" => SelectorOperator::Exists,
            "gt" | "Gt" | ">" => SelectorOperator::GreaterThan,
            "lt" | "Lt" | "<" => SelectorOperator::LessThan,
            _ => return None,
        })
    }
}

impl SelectorRequirement {
    /// apimachinery labels `Requirement.Matches`.
    pub fn matches(&self, labels: &BTreeMap<String, String>) -> bool {
        let actual = labels.get(&self.key);
        let listed = |value: &String| self.values.iter().any(|v| v == value);
        match self.operator {
            SelectorOperator::In | SelectorOperator::Equals | SelectorOperator::DoubleEquals => {
                actual.is_some_and(listed)
            }
            SelectorOperator::NotIn | SelectorOperator::NotEquals => {
                actual.is_none_or(|value| !listed(value))
            }
            SelectorOperator::Exists => actual.is_some(),
            SelectorOperator::DoesNotExist => actual.is_none(),
            SelectorOperator::GreaterThan | SelectorOperator::LessThan => {
                let Some(Ok(actual)) = actual.map(|value| value.parse::<i64>()) else {
                    return false;
                };
                let Some(Ok(bound)) = self.values.first().map(|value| value.parse::<i64>()) else {
                    return false;
                };
                if self.operator == SelectorOperator::GreaterThan {
                    actual > bound
                } else {
                    actual < bound
                }
            }
        }
    }
}

/// Requirements are ANDed; `[]` matches every cluster.
pub(crate) fn selector_matches(
    requirements: &[SelectorRequirement],
    labels: &BTreeMap<String, String>,
) -> bool {
    requirements.iter().all(|r| r.matches(labels))
}

/// The value of the cluster-selector annotation: a JSON list of `{key, operator, values}`,
/// decoded as Go's encoding/json does (field names matched case-insensitively, unknown fields
/// ignored, `null` is an empty list), then checked as apimachinery's `NewRequirement` does.
pub(crate) fn parse_cluster_selector(text: &str) -> Result<Vec<SelectorRequirement>, String> {
    let value: Value =
        serde_json::from_str(text).map_err(|error| format!("invalid JSON: {error}"))?;
    let items = match value {
        Value::Null => Vec::new(),
        Value::Array(items) => items,
        other => {
            return Err(format!(
                "must be a JSON list of {{\"key\", \"operator\", \"values\"}}, not {}",
                crate::object::json_type_name(&other)
            ));
        }
    };
    let mut requirements = Vec::with_capacity(items.len());
    for (position, item) in items.into_iter().enumerate() {
        let at = format!("requirement {}", position + 1);
        let mut key = String::new();
        let mut operator = String::new();
        let mut values: Vec<String> = Vec::new();
        match item {
            Value::Null => {}
            Value::Object(fields) => {
                for (field, value) in fields {
                    match field.to_ascii_lowercase().as_str() {
                        "key" => {
                            key = go_string(&value, &key).map_err(|e| format!("{at}: key {e}"))?
                        }
                        "operator" => {
                            operator = go_string(&value, &operator)
                                .map_err(|e| format!("{at}: operator {e}"))?;
                        }
                        "values" => {
                            values = match value {
                                Value::Null => Vec::new(),
                                Value::Array(list) => list
                                    .iter()
                                    .map(|v| match v {
                                        Value::String(s) => Ok(s.clone()),
                                        other => Err(format!(
                                            "{at}: values must be strings, not {}",
                                            crate::object::json_type_name(other)
                                        )),
                                    })
                                    .collect::<Result<_, _>>()?,
                                other => {
                                    return Err(format!(
                                        "{at}: values must be a list of strings, not {}",
                                        crate::object::json_type_name(&other)
                                    ));
                                }
                            };
                        }
                        _ => {}
                    }
                }
            }
            other => {
                return Err(format!(
                    "{at} must be an object, not {}",
                    crate::object::json_type_name(&other)
                ));
            }
        }
        requirements.push(requirement(key, &operator, values).map_err(|e| format!("{at}: {e}"))?);
    }
    Ok(requirements)
}

/// apimachinery (kubernetes-1.10) labels `NewRequirement`.
fn requirement(
    key: String,
    operator: &str,
    values: Vec<String>,
) -> Result<SelectorRequirement, String> {
    if let Some(problem) = names::qualified_name_problem(&key) {
        return Err(format!("key {key:?} {problem}"));
    }
    let Some(parsed) = SelectorOperator::parse(operator) else {
        return Err(format!(
            "operator {operator:?} is not recognized (Federation v1 accepts in/In, notin/NotIn, \
             exists/Exists, !/DoesNotExist, =, ==, !=, gt/Gt/>, lt/Lt/<)"
        ));
    };
    match parsed {
        SelectorOperator::In | SelectorOperator::NotIn if values.is_empty() => {
            return Err(format!("operator {operator:?} needs at least one value"));
        }
        SelectorOperator::Equals | SelectorOperator::DoubleEquals | SelectorOperator::NotEquals
            if values.len() != 1 =>
        {
            return Err(format!("operator {operator:?} needs exactly one value"));
        }
        SelectorOperator::Exists | SelectorOperator::DoesNotExist if !values.is_empty() => {
            return Err(format!("operator {operator:?} takes no values"));
        }
        SelectorOperator::GreaterThan | SelectorOperator::LessThan => {
            if values.len() != 1 {
                return Err(format!("operator {operator:?} needs exactly one value"));
            }
            if values[0].parse::<i64>().is_err() {
                return Err(format!(
                    "operator {operator:?} needs an integer value, not {:?}",
                    values[0]
                ));
            }
        }
        _ => {}
    }
    for value in &values {
        if let Some(problem) = names::label_value_problem(value) {
            return Err(format!("value {value:?} {problem}"));
        }
    }
    Ok(SelectorRequirement {
        key,
        operator: parsed,
        values,
    })
}

/// A Go string field: a JSON string, or `null` leaving the previous value.
fn go_string(value: &Value, previous: &str) -> Result<String, String> {
    match value {
        Value::Null => Ok(previous.to_string()),
        Value::String(text) => Ok(text.clone()),
        other => Err(format!(
            "must be a string, not {}",
            crate::object::json_type_name(other)
        )),
    }
}
