//! Transition rules — CEL rules of a CRD that read `oldSelf` — judged on a change: the API
//! server runs them on an update with `oldSelf` the stored object's value at the rule's node
//! (apiextensions pkg/apiserver/schema/cel/validation.go). A build has no old object and skips
//! them ([`super::crd`] says so once per CRD); `diff` has one, the base's rendered object.

use std::collections::HashMap;

use serde_json::Value;

use super::cel::{self, Verdict};
use super::field_path::{FieldPath, Step};
use super::schema::Schema;

/// The failures of `schema`'s transition rules on the update from `old` to `new`, as the API
/// server judges an update: both objects defaulted; each rule at a node where both have a value
/// (fields by name, items of a map list by their keys; items of other lists do not correlate)
/// and the value changed (an unchanged value is not judged again: validation ratcheting, on
/// by default since 1.30). At most `limit` failures, each its field path and message.
pub fn failures(schema: &Schema, old: &Value, new: &Value, limit: usize) -> Vec<(String, String)> {
    let defaulted = |value: &Value| {
        let mut copy = value.clone();
        schema.apply_defaults(&mut copy);
        copy
    };
    let (old, new) = (defaulted(old), defaulted(new));
    let mut judged = Judged {
        failures: Vec::new(),
        limit,
        left: cel::OBJECT_BUDGET,
    };
    judged.node(schema, (&old, &new), &mut FieldPath::default());
    judged.failures
}

struct Judged {
    failures: Vec<(String, String)>,
    limit: usize,
    /// What is left of the object's CEL budget.
    left: u64,
}

impl Judged {
    fn node<'v>(
        &mut self,
        schema: &Schema,
        (old, new): (&'v Value, &'v Value),
        path: &mut FieldPath<'v>,
    ) {
        if old == new || self.failures.len() >= self.limit || schema.transition_rules() == 0 {
            return;
        }
        for rule in schema.rules().iter().filter(|rule| rule.is_transition()) {
            match rule.judge_change(new, old, schema, &mut self.left) {
                Verdict::Holds => {}
                Verdict::Fails { field, problem } => {
                    let at = match field {
                        Some(field) => path.shown_with(&field),
                        None => path.shown(),
                    };
                    self.failures.push((at, problem));
                }
                Verdict::OutOfBudget => {
                    self.failures.push((
                        path.shown(),
                        "not every transition rule was run: the object's rules cost more than \
                         the API server's budget for one object, and it refuses the update"
                            .to_string(),
                    ));
                    self.limit = 0;
                    return;
                }
            }
        }
        match (old, new) {
            (Value::Object(old_fields), Value::Object(new_fields)) => {
                for (name, value) in new_fields {
                    if let (Some(before), Some(field)) = (old_fields.get(name), schema.field(name))
                    {
                        path.steps.push(Step::Field(name));
                        self.node(field, (before, value), path);
                        path.steps.pop();
                    }
                }
            }
            (Value::Array(old_items), Value::Array(new_items)) => {
                let Some(items) = schema.items() else {
                    return;
                };
                let list_type = schema.list_type();
                let old_by_key: HashMap<String, &Value> = old_items
                    .iter()
                    .filter_map(|item| Some((list_type.map_key(item)?, item)))
                    .collect();
                for (index, item) in new_items.iter().enumerate() {
                    let Some(&before) =
                        list_type.map_key(item).and_then(|key| old_by_key.get(&key))
                    else {
                        continue;
                    };
                    path.steps.push(Step::Index(index));
                    self.node(items, (before, item), path);
                    path.steps.pop();
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn widget_schema() -> Schema {
        Schema::from_crd(&json!({"type": "object", "properties": {
            "spec": {"type": "object", "properties": {
                "class": {"type": "string", "x-kubernetes-validations": [
                    {"rule": "self == oldSelf", "message": "class is immutable"}]},
                "size": {"type": "integer", "default": 1, "x-kubernetes-validations": [
                    {"rule": "self >= oldSelf", "messageExpression":
                        "'size may not shrink from ' + string(oldSelf)",
                     "reason": "FieldValueForbidden"}]},
                "listeners": {"type": "array", "x-kubernetes-list-type": "map",
                    "x-kubernetes-list-map-keys": ["name"],
                    "items": {"type": "object", "properties": {
                        "name": {"type": "string"},
                        "port": {"type": "integer", "x-kubernetes-validations": [
                            {"rule": "self == oldSelf", "message": "port is immutable",
                             "fieldPath": ""}]}}}},
                "tags": {"type": "array", "items": {"type": "string",
                    "x-kubernetes-validations": [{"rule": "self == oldSelf"}]}},
            }},
        }}))
    }

    fn widget(spec: Value) -> Value {
        json!({"apiVersion": "example.io/v1", "kind": "Widget", "metadata": {"name": "w"},
            "spec": spec})
    }

    /// The rules of the Gateway API's style (immutable fields, a value that may only grow)
    /// judged on a change, each at its field with its message or evaluated messageExpression.
    #[test]
    fn transition_rules_judge_the_change() {
        let schema = widget_schema();
        let old = widget(json!({"class": "a", "size": 3}));
        let new = widget(json!({"class": "b", "size": 2}));
        assert_eq!(
            failures(&schema, &old, &new, 20),
            [
                ("spec.class".to_string(), "class is immutable".to_string()),
                (
                    "spec.size".to_string(),
                    "Forbidden: size may not shrink from 3".to_string()
                ),
            ]
        );
        // Growing is allowed; an unchanged object is not judged.
        let grown = widget(json!({"class": "a", "size": 4}));
        assert_eq!(failures(&schema, &old, &grown, 20), []);
        assert_eq!(failures(&schema, &old, &old, 20), []);
    }

    /// Defaults apply to both sides first: an absent size is 1, so setting 0 shrinks it.
    #[test]
    fn both_objects_are_defaulted_first() {
        let schema = widget_schema();
        let old = widget(json!({"class": "a"}));
        let new = widget(json!({"class": "a", "size": 0}));
        assert_eq!(
            failures(&schema, &old, &new, 20),
            [(
                "spec.size".to_string(),
                "Forbidden: size may not shrink from 1".to_string()
            )]
        );
    }

    /// Items of a map list correlate by key, whatever their position; items of other lists
    /// do not correlate, so their transition rules do not run; a field new in the update has
    /// no old value and is not judged.
    #[test]
    fn list_items_correlate_by_their_map_keys_only() {
        let schema = widget_schema();
        let old = widget(json!({"listeners": [{"name": "http", "port": 80},
            {"name": "https", "port": 443}], "tags": ["a"]}));
        let new = widget(json!({"listeners": [{"name": "https", "port": 8443},
            {"name": "http", "port": 80}, {"name": "new", "port": 1}], "tags": ["b"],
            "class": "added"}));
        assert_eq!(
            failures(&schema, &old, &new, 20),
            [(
                "spec.listeners[0].port".to_string(),
                "port is immutable".to_string()
            )]
        );
    }
}
