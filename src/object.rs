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
    pub group: String,
    pub kind: String,
    /// Empty for cluster-scoped objects.
    pub namespace: String,
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

#[derive(Debug, Clone)]
pub struct Template {
    pub origin: Origin,
    pub api_version: String,
    pub key: ObjectKey,
    pub labels: BTreeMap<String, String>,
    /// The object as written, except that a namespaced object always states its namespace.
    pub object: Value,
}

impl Template {
    pub fn kind(&self) -> &str {
        &self.key.kind
    }

    pub fn name(&self) -> &str {
        &self.key.name
    }

    pub fn namespace(&self) -> &str {
        &self.key.namespace
    }

    pub fn is_namespaced(&self) -> bool {
        !self.key.namespace.is_empty()
    }

    pub fn group(&self) -> &str {
        &self.key.group
    }

    /// `metadata.uid`, when the file carries one (it feeds Karmada's Webster tie-break).
    pub fn uid(&self) -> &str {
        self.object
            .pointer("/metadata/uid")
            .and_then(Value::as_str)
            .unwrap_or("")
    }
}

#[cfg(test)]
impl Template {
    /// A template for unit tests: origin `t.yaml:1`, no labels, the given object.
    pub fn for_test(
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

    pub fn with_labels(mut self, labels: &[(&str, &str)]) -> Template {
        self.labels = labels
            .iter()
            .map(|(key, value)| (key.to_string(), value.to_string()))
            .collect();
        self
    }
}

/// The API group of an `apiVersion`: `apps` for `apps/v1`, empty for the core `v1`.
pub fn api_group(api_version: &str) -> &str {
    api_version.rsplit_once('/').map_or("", |(group, _)| group)
}

/// How a JSON value's type is named in messages: "a string", "a list", …
pub fn json_type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}
