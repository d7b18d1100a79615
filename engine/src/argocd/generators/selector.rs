//! Kubernetes label selectors over parameters and cluster labels: a generator's `selector`
//! (applicationset/utils/selector.go, which checks keys only) and a clusters generator's
//! (apimachinery's `LabelSelectorAsSelector`, which checks values too).

use std::collections::BTreeMap;

use serde_json::Value;

use super::context::Site;
use crate::diagnostics::Diagnostic;

/// One requirement of a selector.
#[derive(Debug, Clone, PartialEq)]
enum Requirement {
    /// `In` (and each `matchLabels` entry): the key is there with one of the values.
    In(String, Vec<String>),
    /// `NotIn`: the key is absent or has none of the values.
    NotIn(String, Vec<String>),
    /// `Exists`.
    Exists(String),
    /// `DoesNotExist`.
    DoesNotExist(String),
}

/// A parsed label selector: every requirement must hold. Empty selects everything.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Selector {
    requirements: Vec<Requirement>,
}

impl Selector {
    /// Whether `labels` satisfy every requirement.
    pub fn matches(&self, labels: &BTreeMap<String, String>) -> bool {
        self.requirements
            .iter()
            .all(|requirement| match requirement {
                Requirement::In(key, values) => labels.get(key).is_some_and(|v| values.contains(v)),
                Requirement::NotIn(key, values) => {
                    labels.get(key).is_none_or(|v| !values.contains(v))
                }
                Requirement::Exists(key) => labels.contains_key(key),
                Requirement::DoesNotExist(key) => !labels.contains_key(key),
            })
    }

    /// Whether the selector has any requirement (`matchLabels` or `matchExpressions` set).
    pub fn is_empty(&self) -> bool {
        self.requirements.is_empty()
    }

    /// Adds `key` = `value`, replacing a `matchLabels` entry of that key, as apimachinery's
    /// `AddLabelToSelector` does.
    pub fn with_label(mut self, key: &str, value: &str) -> Self {
        self.requirements
            .retain(|r| !matches!(r, Requirement::In(k, v) if k == key && v.len() == 1));
        self.requirements
            .push(Requirement::In(key.to_string(), vec![value.to_string()]));
        self
    }
}

/// Parses `selector` (`matchLabels`, `matchExpressions`) at `site`. `check_values`: whether
/// values must be label values (apimachinery's selector; Argo CD's own checks keys only).
pub fn parse(
    site: &Site<'_>,
    selector: &Value,
    check_values: bool,
) -> Result<Selector, Diagnostic> {
    let fields = site.object(selector)?;
    site.known_fields(
        fields,
        "a label selector",
        &["matchLabels", "matchExpressions"],
    )?;
    let mut requirements = Vec::new();
    if let Some(labels) = fields.get("matchLabels").filter(|v| !v.is_null()) {
        let labels_site = site.field("matchLabels");
        for (key, value) in labels_site.object(labels)? {
            let value_site = labels_site.field(key);
            let value = value_site.string(value)?;
            check_key(&value_site, key)?;
            if check_values {
                check_value(&value_site, value)?;
            }
            requirements.push(Requirement::In(key.clone(), vec![value.to_string()]));
        }
    }
    if let Some(expressions) = fields.get("matchExpressions").filter(|v| !v.is_null()) {
        let list_site = site.field("matchExpressions");
        for (index, expression) in list_site.array(expressions)?.iter().enumerate() {
            let item = list_site.item(index);
            let expression = item.object(expression)?;
            item.known_fields(
                expression,
                "a match expression",
                &["key", "operator", "values"],
            )?;
            let key = item
                .field("key")
                .string(expression.get("key").unwrap_or(&Value::Null))?
                .to_string();
            check_key(&item.field("key"), &key)?;
            let operator_site = item.field("operator");
            let operator =
                operator_site.string(expression.get("operator").unwrap_or(&Value::Null))?;
            let values_site = item.field("values");
            let values: Vec<String> = match expression.get("values").filter(|v| !v.is_null()) {
                None => Vec::new(),
                Some(values) => values_site
                    .array(values)?
                    .iter()
                    .enumerate()
                    .map(|(i, v)| values_site.item(i).string(v).map(str::to_string))
                    .collect::<Result<_, _>>()?,
            };
            if check_values {
                for (i, value) in values.iter().enumerate() {
                    check_value(&values_site.item(i), value)?;
                }
            }
            let requirement = match operator {
                "In" | "NotIn" if values.is_empty() => {
                    return Err(
                        values_site.error("for 'in', 'notin' operators, values set can't be empty")
                    );
                }
                "Exists" | "DoesNotExist" if !values.is_empty() => {
                    return Err(
                        values_site.error("values set must be empty for exists and does not exist")
                    );
                }
                "In" => Requirement::In(key, values),
                "NotIn" => Requirement::NotIn(key, values),
                "Exists" => Requirement::Exists(key),
                "DoesNotExist" => Requirement::DoesNotExist(key),
                other => {
                    return Err(operator_site.error(format!(
                        "{other:?} is not a valid label selector operator (In, NotIn, Exists, DoesNotExist)"
                    )));
                }
            };
            requirements.push(requirement);
        }
    }
    Ok(Selector { requirements })
}

/// validation.IsQualifiedName: an optional DNS subdomain prefix and `/`, then a name of at most
/// 63 characters, alphanumeric at both ends, `-_.` inside.
fn check_key(site: &Site<'_>, key: &str) -> Result<(), Diagnostic> {
    let (prefix, name) = match key.split_once('/') {
        Some((prefix, name)) => (Some(prefix), name),
        None => (None, key),
    };
    let bad_name = name.is_empty() || name.len() > 63 || !is_label_text(name);
    let bad_prefix = prefix.is_some_and(|p| !is_dns_subdomain(p));
    if bad_name || bad_prefix {
        return Err(site.error(format!(
            "{key:?} is not a label key: a name of at most 63 characters (alphanumeric at both ends, '-', '_' or '.' inside), optionally after a DNS subdomain prefix and '/'"
        )));
    }
    Ok(())
}

/// validation.IsValidLabelValue: empty, or at most 63 characters of label text.
fn check_value(site: &Site<'_>, value: &str) -> Result<(), Diagnostic> {
    if !value.is_empty() && (value.len() > 63 || !is_label_text(value)) {
        return Err(site.error(format!(
            "{value:?} is not a label value: at most 63 characters, alphanumeric at both ends, '-', '_' or '.' inside"
        )));
    }
    Ok(())
}

fn is_label_text(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.first().is_some_and(u8::is_ascii_alphanumeric)
        && bytes.last().is_some_and(u8::is_ascii_alphanumeric)
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

fn is_dns_subdomain(text: &str) -> bool {
    text.len() <= 253
        && text.split('.').all(|label| {
            let bytes = label.as_bytes();
            !bytes.is_empty()
                && bytes.len() <= 63
                && bytes
                    .first()
                    .is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
                && bytes
                    .last()
                    .is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
                && bytes
                    .iter()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'-')
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostics::{FieldLines, Origin};
    use serde_json::json;

    fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn selects_as_kubernetes_does() {
        let origin = Origin::new("set.yaml", 0, 1);
        let lines = FieldLines::default();
        let site = Site::new(&origin, &lines, "spec.generators[0].selector");
        let selector = parse(
            &site,
            &json!({"matchLabels": {"env": "prod"},
                    "matchExpressions": [{"key": "tier", "operator": "NotIn", "values": ["db"]},
                                         {"key": "a.b/c", "operator": "Exists"}]}),
            true,
        )
        .unwrap();
        assert!(selector.matches(&labels(&[("env", "prod"), ("a.b/c", "")])));
        assert!(!selector.matches(&labels(&[("env", "prod"), ("tier", "db"), ("a.b/c", "")])));
        assert!(!selector.matches(&labels(&[("env", "dev"), ("a.b/c", "")])));
        let error = |selector: Value| parse(&site, &selector, true).unwrap_err().message;
        assert!(
            error(json!({"matchLabel": {}}))
                .contains("has no field `matchLabel`; did you mean `matchLabels`?")
        );
        assert!(
            error(json!({"matchExpressions": [{"key": "a", "operator": "Gt", "values": ["1"]}]}))
                .contains("\"Gt\" is not a valid label selector operator")
        );
        assert!(
            error(json!({"matchExpressions": [{"key": "a", "operator": "In"}]}))
                .contains("values set can't be empty")
        );
        assert!(
            error(json!({"matchLabels": {"-bad": "x"}})).contains("\"-bad\" is not a label key")
        );
        assert!(error(json!({"matchLabels": {"ok": "not ok"}})).contains("is not a label value"));
        assert!(parse(&site, &json!({"matchLabels": {"ok": "not ok"}}), false).is_ok());
    }
}
