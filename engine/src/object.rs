//! A resource template: an ordinary Kubernetes object from the input directory, with the
//! identity every stage needs read out once.

use std::collections::BTreeMap;
use std::fmt;

use serde_json::Value;

use crate::diagnostics::Origin;

/// What makes an object unique in a cluster: API group, kind, namespace and name. The version
/// is left out on purpose: `apps/v1` and `apps/v1beta1` Deployments named alike are one object.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ObjectKey {
    /// The API group (`apps`; empty for the core group).
    pub group: String,
    /// The kind (`Deployment`).
    pub kind: String,
    /// Empty for cluster-scoped objects.
    pub namespace: String,
    /// The object's name.
    pub name: String,
}

impl fmt::Display for ObjectKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = if self.group.is_empty() {
            self.kind.clone()
        } else {
            format!("{}.{}", self.kind, self.group)
        };
        if self.namespace.is_empty() {
            write!(f, "{kind} {}", self.name)
        } else {
            write!(f, "{kind} {}/{}", self.namespace, self.name)
        }
    }
}

/// A resource template as written: an object Karmada's policies select and place.
#[derive(Debug, Clone)]
pub struct Template {
    /// Where it is written.
    pub origin: Origin,
    /// Its apiVersion as written (`apps/v1`).
    pub api_version: String,
    /// What identifies it in a cluster.
    pub key: ObjectKey,
    /// Its `metadata.labels`, which policies select by.
    pub labels: BTreeMap<String, String>,
    /// The object as written, except that a namespaced object always states its namespace.
    pub object: Value,
}

impl Template {
    /// The kind (`Deployment`).
    pub fn kind(&self) -> &str {
        &self.key.kind
    }

    /// The object's name.
    pub fn name(&self) -> &str {
        &self.key.name
    }

    /// The namespace; empty for a cluster-scoped object.
    pub fn namespace(&self) -> &str {
        &self.key.namespace
    }

    pub(crate) fn is_namespaced(&self) -> bool {
        !self.key.namespace.is_empty()
    }

    /// The API group; empty for the core group.
    pub fn group(&self) -> &str {
        &self.key.group
    }

    /// `metadata.uid`, when the file carries one (it feeds Karmada's Webster tie-break).
    pub fn uid(&self) -> &str {
        crate::json_pointer::pointer(&self.object, "/metadata/uid")
            .and_then(Value::as_str)
            .unwrap_or("")
    }
}

#[cfg(test)]
impl Template {
    /// A template for unit tests: origin `t.yaml:1`, no labels, the given object.
    pub(crate) fn for_test(
        api_version: &str,
        kind: &str,
        namespace: &str,
        name: &str,
        object: Value,
    ) -> Template {
        Template {
            origin: Origin::new("t.yaml", 0, 1),
            api_version: api_version.to_string(),
            key: ObjectKey {
                group: api_group(api_version).to_string(),
                kind: kind.to_string(),
                namespace: namespace.to_string(),
                name: name.to_string(),
            },
            labels: BTreeMap::new(),
            object,
        }
    }

    pub(crate) fn with_labels(mut self, labels: &[(&str, &str)]) -> Template {
        self.labels = labels
            .iter()
            .map(|(key, value)| (key.to_string(), value.to_string()))
            .collect();
        self
    }
}

/// The API group of an `apiVersion`: `apps` for `apps/v1`, empty for the core `v1`.
pub(crate) fn api_group(api_version: &str) -> &str {
    api_version.rsplit_once('/').map_or("", |(group, _)| group)
}

/// How a JSON value's type is named in messages: "a string", "a list", …
pub(crate) fn json_type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// How many lists and maps nest in `value`: 0 for a scalar, 1 for `[1]` or `{}`. Counted
/// without recursion, so that it is safe on a value of any depth.
pub(crate) fn nesting_depth(value: &Value) -> usize {
    let mut deepest = 0;
    let mut pending = vec![(value, 0usize)];
    while let Some((node, depth)) = pending.pop() {
        let inside = depth + 1;
        match node {
            Value::Array(list) => pending.extend(list.iter().map(|child| (child, inside))),
            Value::Object(map) => pending.extend(map.values().map(|child| (child, inside))),
            _ => continue,
        }
        deepest = deepest.max(inside);
    }
    deepest
}

/// Refuses to put `value` below `parents` levels of lists and maps when the result would nest
/// deeper than a document may ([`crate::yaml::MAX_NESTING_DEPTH`]): every stage that walks an
/// object recursively relies on that bound, and an override could otherwise deepen an object
/// without end, one operation at a time.
pub(crate) fn check_nesting_below(parents: usize, value: &Value) -> Result<(), String> {
    let depth = parents + nesting_depth(value);
    if depth > crate::yaml::MAX_NESTING_DEPTH {
        Err(format!(
            "the value would nest {depth} levels of lists and maps deep, more than the {} a \
             document may have",
            crate::yaml::MAX_NESTING_DEPTH
        ))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn nesting_depth_counts_lists_and_maps() {
        assert_eq!(nesting_depth(&json!("text")), 0);
        assert_eq!(nesting_depth(&json!([])), 1);
        assert_eq!(nesting_depth(&json!({"a": [1, {"b": {}}], "c": 2})), 4);
        assert_eq!(nesting_depth(&json!([[1], [[2]], []])), 3);
    }

    #[test]
    fn nesting_depth_needs_no_stack_for_deep_values() {
        let mut value = json!(1);
        for _ in 0..100_000 {
            value = Value::Array(vec![value]);
        }
        assert_eq!(nesting_depth(&value), 100_000);
        // Dropping such a value recurses in serde_json; take it apart from the top instead.
        while let Value::Array(mut list) = value {
            value = list.pop().unwrap_or(Value::Null);
        }
    }

    #[test]
    fn values_may_nest_as_deep_as_a_document_and_no_deeper() {
        let limit = crate::yaml::MAX_NESTING_DEPTH;
        assert!(check_nesting_below(limit - 1, &json!({"a": 1})).is_ok());
        assert!(check_nesting_below(limit, &json!("scalar")).is_ok());
        let error = check_nesting_below(limit - 1, &json!({"a": []})).unwrap_err();
        assert!(
            error.contains(&format!("nest {} levels", limit + 1)),
            "{error}"
        );
    }
}
