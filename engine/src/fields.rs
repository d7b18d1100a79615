//! An object's field by name, found by comparing names rather than hashing them.
//!
//! serde_json keeps an object's fields in document order in an `IndexMap` hashed with SipHash,
//! and that map takes no other hasher. Hashing a name costs several hundred instructions; a
//! Kubernetes object's maps mostly hold a handful of fields, and comparing a name with each of
//! them costs a few instructions a field (most differ in length). The stages that look up the
//! same few fields of every variant (`spec`, `template`, `containers`, `image`, a pointer's
//! tokens) look them up here. A map of more fields is still looked up by its hash, so a hostile
//! object with thousands of fields costs no more than before.

use serde_json::{Map, Value};

/// Up to this many fields, a lookup compares names; past it, it hashes.
const SCANNED: usize = 12;

/// An object's fields, looked up by name.
pub trait Fields {
    /// The field `name`, if this is an object that has it.
    fn field(&self, name: &str) -> Option<&Value>;
    /// [`Fields::field`], to change it.
    fn field_mut(&mut self, name: &str) -> Option<&mut Value>;
}

impl Fields for Map<String, Value> {
    fn field(&self, name: &str) -> Option<&Value> {
        if self.len() > SCANNED {
            return self.get(name);
        }
        self.iter()
            .find_map(|(key, value)| (key == name).then_some(value))
    }

    fn field_mut(&mut self, name: &str) -> Option<&mut Value> {
        if self.len() > SCANNED {
            return self.get_mut(name);
        }
        self.iter_mut()
            .find_map(|(key, value)| (key == name).then_some(value))
    }
}

impl Fields for Value {
    fn field(&self, name: &str) -> Option<&Value> {
        self.as_object()?.field(name)
    }

    fn field_mut(&mut self, name: &str) -> Option<&mut Value> {
        self.as_object_mut()?.field_mut(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The same answer as serde_json's own lookup, for maps scanned and maps hashed, present
    /// and absent names, names that share a prefix or a length, and on what is no object.
    #[test]
    fn a_field_is_what_serde_json_finds() {
        let small = json!({"spec": 1, "spe": 2, "status": 3, "": 4, "späc": 5});
        let large: Map<String, Value> = (0..40)
            .map(|n| (format!("field-{n}"), Value::from(n)))
            .collect();
        let large = Value::Object(large);
        let names = [
            "spec", "spe", "specs", "status", "", "späc", "field-0", "field-39", "field-40",
        ];
        for document in [&small, &large, &json!([1, 2]), &json!("spec"), &Value::Null] {
            for name in names {
                assert_eq!(
                    document.field(name),
                    document.get(name),
                    "{name} in {document}"
                );
                let mut changed = document.clone();
                let mut expected = document.clone();
                if let Some(value) = changed.field_mut(name) {
                    *value = json!("changed");
                }
                if let Some(value) = expected.get_mut(name) {
                    *value = json!("changed");
                }
                assert_eq!(changed, expected, "{name} in {document}");
            }
        }
        assert!(
            large.as_object().unwrap().len() > SCANNED,
            "one map is hashed"
        );
        assert!(
            small.as_object().unwrap().len() <= SCANNED,
            "one map is scanned"
        );
    }
}
