//! An update of a custom resource as the API server judges it (apiextensions-apiserver
//! registry/customresource/strategy.go `ValidateUpdate`): what the old object — the stored one,
//! the base's in `diff` — says of each value of the new one.
//!
//! Two things come from it. **`oldSelf`**: a CEL rule that reads it runs where the value has
//! an old one — fields by name (of granular and atomic objects alike: `MapIsCorrelatable`),
//! items of a map list by their keys; no other list item has one (pkg/apiserver/schema/cel/
//! validation.go `validateMap`, `validateArray`). With `optionalOldSelf: true` it runs
//! everywhere, `oldSelf` being `optional.none()` where there is none.
//!
//! **Ratcheting** (CRDValidationRatcheting, on by default from Kubernetes 1.30): a value that
//! has an old one as above and equals it as `CorrelatedObject.CachedDeepEqual` compares
//! (apiserver pkg/cel/common/equality.go: a map list in any order, other lists whole, never an
//! object with a field its schema does not describe) is not judged again, nor is anything
//! within it: neither by the OpenAPI schema (pkg/apiserver/validation/ratcheting.go) nor by the
//! rules that do not read `oldSelf`, whose failures there are only warnings. Everything else
//! is judged: a changed value (a field the update adds, removes or edits changes every object
//! holding it, so their `required`, `maxProperties` and rules are judged; an unchanged item of
//! a changed set or atomic list too), the rules that read `oldSelf`, evaluation errors and the
//! budget, an embedded resource's apiVersion and kind, and ObjectMeta. Duplicates in sets and
//! map lists are judged on the whole new object, when the old one has none.
//!
//! The walk of the schema ([`super::schema`]) asks of each value it visits; the answers are
//! worked out once, bottom up, before it starts.

use std::collections::HashMap;

use serde_json::Value;

use super::cel::Rule;
use super::list_type::ListType;

/// The first Kubernetes minor whose API server ratchets (CRDValidationRatcheting beta, on by
/// default: apiextensions-apiserver pkg/features/kube_features.go).
pub const RATCHETING_SINCE_MINOR: u32 = 30;

/// What an update's two objects are correlated by: a schema's fields, items and list type.
pub(super) trait Tree {
    /// The schema of field `name` (a property, else `additionalProperties`).
    fn field(&self, name: &str) -> Option<&Self>;
    fn items(&self) -> Option<&Self>;
    fn list_type(&self) -> &ListType;
}

/// An update: for each value of the new object that has an old one, what it is and whether
/// the value is unchanged.
#[derive(Debug)]
pub(super) struct Update<'o> {
    /// By the address of the value in the new object: the schema's walk visits those very
    /// values (the object is neither copied nor moved in between), and an address names one
    /// value where a path would have to be built and hashed at every step.
    values: HashMap<usize, Old<'o>>,
    /// Whether the API server ratchets (from Kubernetes 1.30).
    ratcheting: bool,
    /// Whether the old object's sets and map lists have no duplicates: only then are the new
    /// one's checked.
    checks_lists: bool,
}

/// What the old object says of one value of the new one.
#[derive(Debug, Clone, Copy)]
struct Old<'o> {
    /// The old value, `oldSelf`.
    old_self: &'o Value,
    /// Whether the value equals its old one (`CachedDeepEqual`).
    unchanged: bool,
}

impl<'o> Update<'o> {
    /// The update from `old` to `new`, both decoded as the API server decodes them, of
    /// `schema`; `ratcheting` for an API server that ratchets.
    pub(super) fn new<S: Tree>(
        schema: &S,
        old: &'o Value,
        new: &Value,
        ratcheting: bool,
    ) -> Update<'o> {
        let mut update = Update {
            values: HashMap::new(),
            ratcheting,
            checks_lists: !lists_repeat(schema, old),
        };
        update.correlate(schema, new, old);
        update
    }

    /// The old value `oldSelf` is bound to at `value`, a value of the new object.
    pub(super) fn old_self(&self, value: &Value) -> Option<&'o Value> {
        Some(self.values.get(&address(value))?.old_self)
    }

    /// Whether what is wrong with `value` (of the new object), and everything within it, is
    /// ratcheted: it is unchanged, on an API server that ratchets.
    pub(super) fn ratchets(&self, value: &Value) -> bool {
        self.ratcheting
            && self
                .values
                .get(&address(value))
                .is_some_and(|old| old.unchanged)
    }

    /// Whether the new object's sets and map lists are checked for duplicates: when the old
    /// one's have none (strategy.go `ValidateUpdate`, whatever the version).
    pub(super) fn checks_lists(&self) -> bool {
        self.checks_lists
    }

    /// Whether `rule` runs on a value that has no old one: a rule that does not read
    /// `oldSelf`, or one with `optionalOldSelf` on an API server that ratchets (the same
    /// feature gate lets it run there).
    pub(super) fn runs_without_old(&self, rule: &Rule) -> bool {
        !rule.is_transition() || (self.ratcheting && rule.runs_without_old())
    }

    /// Correlates `new` with `old` and everything within them: whether they are equal.
    fn correlate<S: Tree>(&mut self, schema: &S, new: &Value, old: &'o Value) -> bool {
        let unchanged = match (new, old) {
            (Value::Object(fields), Value::Object(old_fields)) => {
                // Equal: as many fields, each correlated (a field without a schema never is)
                // and equal.
                let mut equal = fields.len() == old_fields.len();
                for (name, value) in fields {
                    match (schema.field(name), old_fields.get(name)) {
                        (Some(field), Some(before)) => {
                            equal &= self.correlate(field, value, before);
                        }
                        _ => equal = false,
                    }
                }
                equal
            }
            (Value::Array(items), Value::Array(old_items)) => match schema.list_type() {
                ListType::Map(keys) => {
                    // Equal: as many items, each correlated by its keys and equal, in any
                    // order.
                    let mut equal = items.len() == old_items.len();
                    let by_key = map_list(keys, old_items);
                    for item in items {
                        let before = map_key(keys, item).and_then(|key| by_key.get(&key));
                        match (schema.items(), before) {
                            (Some(item_schema), Some(&before)) => {
                                equal &= self.correlate(item_schema, item, before);
                            }
                            _ => equal = false,
                        }
                    }
                    equal
                }
                // Items of sets and atomic lists do not correlate: the list is equal or not.
                _ => new == old,
            },
            _ => new == old,
        };
        self.values.insert(
            address(new),
            Old {
                old_self: old,
                unchanged,
            },
        );
        unchanged
    }
}

fn address(value: &Value) -> usize {
    std::ptr::from_ref(value) as usize
}

/// A map list's items by their keys, the first of each key (apiserver pkg/cel/common/maplist.go
/// `MakeMapList`).
fn map_list<'o>(keys: &[String], items: &'o [Value]) -> HashMap<String, &'o Value> {
    let mut by_key = HashMap::new();
    if keys.is_empty() {
        return by_key;
    }
    for item in items {
        if let Some(key) = map_key(keys, item) {
            by_key.entry(key).or_insert(item);
        }
    }
    by_key
}

/// The identity of a map list's item: the values of all its keys, each a scalar; `None` for
/// an item that is not an object or lacks a key (maplist.go `CompositeKeyFor`).
fn map_key(keys: &[String], item: &Value) -> Option<String> {
    let fields = item.as_object()?;
    let mut key = String::new();
    for name in keys {
        let value = fields.get(name)?;
        if !matches!(value, Value::Bool(_) | Value::Number(_) | Value::String(_)) {
            return None;
        }
        key.push('\0');
        key.push_str(&value.to_string());
    }
    Some(key)
}

/// Whether a set or map list of `value` repeats an item (the list-type check of
/// pkg/apiserver/schema/listtype, on the old object).
fn lists_repeat<S: Tree>(schema: &S, value: &Value) -> bool {
    match value {
        Value::Object(fields) => fields.iter().any(|(name, field)| {
            schema
                .field(name)
                .is_some_and(|schema| lists_repeat(schema, field))
        }),
        Value::Array(items) => {
            !schema.list_type().duplicates(items).is_empty()
                || schema
                    .items()
                    .is_some_and(|schema| items.iter().any(|item| lists_repeat(schema, item)))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use crate::check::{Checker, KubernetesVersion};
    use crate::lint::Level;

    fn crd(spec: Value) -> Value {
        json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "widgets.example.io"},
            "spec": {"group": "example.io", "scope": "Namespaced",
                "names": {"kind": "Widget", "plural": "widgets", "singular": "widget"},
                "versions": [{"name": "v1", "served": true, "storage": true,
                    "schema": {"openAPIV3Schema": {"type": "object",
                        "properties": {"spec": spec}}}}]}})
    }

    fn widget(spec: Value) -> Value {
        json!({"apiVersion": "example.io/v1", "kind": "Widget",
            "metadata": {"name": "w", "namespace": "default"}, "spec": spec})
    }

    /// What an API server of Kubernetes 1.`minor` refuses of the update of a Widget whose
    /// `spec` is described by `schema` from `old` to `new` (their specs): each `path: problem`.
    fn refused_at(minor: u32, schema: &Value, (old, new): (Value, Value)) -> Vec<String> {
        let crd = crd(schema.clone());
        let checker = Checker::new(Vec::new(), [&crd]);
        checker
            .check_change_at(&widget(old), &widget(new), KubernetesVersion { minor })
            .into_iter()
            .filter(|finding| finding.lint.default_level() == Level::Deny)
            .map(|finding| format!("{}: {}", finding.path, finding.problem))
            .collect()
    }

    fn refused(schema: &Value, change: (Value, Value)) -> Vec<String> {
        refused_at(36, schema, change)
    }

    fn numbers() -> Value {
        json!({"type": "object", "properties": {
            "small": {"type": "integer", "maximum": 10},
            "medium": {"type": "integer", "maximum": 100},
            "nested": {"type": "object", "properties": {
                "small": {"type": "integer", "maximum": 10}}}}})
    }

    /// An invalid value left as it was passes; changed, even to another invalid value, it is
    /// judged (ratcheting_test.go TestScalarRatcheting, TestObjectScalarFieldsRatcheting,
    /// TestObjectObjectFieldsRatcheting: the object around it may change).
    #[test]
    fn an_unchanged_invalid_value_is_ratcheted() {
        let schema = numbers();
        assert_eq!(
            refused(&schema, (json!({"small": 50}), json!({"small": 50}))),
            Vec::<String>::new()
        );
        assert_eq!(
            refused(
                &schema,
                (
                    json!({"small": 50, "medium": 1, "nested": {"small": 50}}),
                    json!({"small": 50, "nested": {"small": 50, "extra": 1}})
                )
            ),
            Vec::<String>::new()
        );
        assert_eq!(
            refused(&schema, (json!({"small": 50}), json!({"small": 51}))),
            ["spec.small: 51 is above the maximum 10"]
        );
        // A value new in the update has no old one: judged.
        assert_eq!(
            refused(&schema, (json!({}), json!({"nested": {"small": 50}}))),
            ["spec.nested.small: 50 is above the maximum 10"]
        );
    }

    /// Before 1.30 the feature gate is off: the new object is judged whole
    /// (validation.go ValidateCustomResourceUpdate).
    #[test]
    fn before_1_30_nothing_is_ratcheted() {
        let schema = numbers();
        assert_eq!(
            refused_at(29, &schema, (json!({"small": 50}), json!({"small": 50}))),
            ["spec.small: 50 is above the maximum 10"]
        );
    }

    /// `required` belongs to the object holding the field: ratcheted while that object is
    /// unchanged, judged once anything in it changes (kube-openapi's object validator runs
    /// within the ratcheting validator of that object).
    #[test]
    fn a_missing_required_field_is_judged_once_its_object_changes() {
        let schema = json!({"type": "object", "properties": {
            "inner": {"type": "object", "required": ["a"], "properties": {
                "a": {"type": "string"}, "b": {"type": "string"}}},
            "o": {"type": "string"}}});
        assert_eq!(
            refused(
                &schema,
                (
                    json!({"inner": {"b": "x"}, "o": "1"}),
                    json!({"inner": {"b": "x"}, "o": "2"})
                )
            ),
            Vec::<String>::new()
        );
        assert_eq!(
            refused(
                &schema,
                (json!({"inner": {"b": "x"}}), json!({"inner": {"b": "y"}}))
            ),
            ["spec.inner.a: is required"]
        );
    }

    /// Items of a map list correlate by their keys, in any order: a reordered list is
    /// unchanged, and an item kept as it was is ratcheted in a list that grows. Items of sets
    /// and atomic lists do not correlate: an unchanged list is ratcheted whole, a changed one
    /// judged whole (equality.go correlateOldValueForChildAtNewIndex, CachedDeepEqual).
    #[test]
    fn list_items_correlate_by_their_map_keys_only() {
        let map = json!({"type": "object", "properties": {"ports": {"type": "array",
            "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
            "items": {"type": "object", "required": ["name"], "properties": {
                "name": {"type": "string"}, "port": {"type": "integer", "maximum": 10}}}}}});
        let (a, b) = (
            json!({"name": "a", "port": 1}),
            json!({"name": "b", "port": 99}),
        );
        assert_eq!(
            refused(&map, (json!({"ports": [a, b]}), json!({"ports": [b, a]}))),
            Vec::<String>::new()
        );
        let c = json!({"name": "c", "port": 1});
        assert_eq!(
            refused(&map, (json!({"ports": [b]}), json!({"ports": [b, c]}))),
            Vec::<String>::new()
        );
        let set = json!({"type": "object", "properties": {
            "tags": {"type": "array", "x-kubernetes-list-type": "set",
                "items": {"type": "string", "maxLength": 2}},
            "other": {"type": "string"}}});
        assert_eq!(
            refused(
                &set,
                (
                    json!({"tags": ["long"], "other": "x"}),
                    json!({"tags": ["long"], "other": "y"})
                )
            ),
            Vec::<String>::new()
        );
        assert_eq!(
            refused(
                &set,
                (json!({"tags": ["long"]}), json!({"tags": ["long", "b"]}))
            ),
            ["spec.tags[0]: \"long\" is longer than 2 characters"]
        );
    }

    /// An object with a field its schema does not describe (kept by
    /// x-kubernetes-preserve-unknown-fields) never correlates that field, so it is never
    /// unchanged (equality.go `Key` needs the field's schema).
    #[test]
    fn an_object_with_undescribed_fields_is_never_unchanged() {
        let schema = json!({"type": "object", "properties": {
            "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": true,
                "maxProperties": 1},
            "o": {"type": "string"}}});
        let free = json!({"x": 1, "y": 2});
        assert_eq!(
            refused(
                &schema,
                (
                    json!({"free": free, "o": "1"}),
                    json!({"free": free, "o": "2"})
                )
            ),
            ["spec.free: has 2 properties, more than 1"]
        );
    }

    /// A rule that does not read oldSelf is ratcheted on an unchanged value; one that reads
    /// it runs on every value with an old one, unchanged too, and is never ratcheted
    /// (validation_test.go TestRatcheting; validation.go `addErr`, `UsesOldSelf`).
    #[test]
    fn rules_are_ratcheted_unless_they_read_old_self() {
        let schema = json!({"type": "object", "properties": {
            "s": {"type": "string", "x-kubernetes-validations": [{"rule": "self.size() < 3"}]},
            "n": {"type": "integer", "x-kubernetes-validations": [{"rule": "self > oldSelf"}]},
            "o": {"type": "string"}}});
        assert_eq!(
            refused(
                &schema,
                (
                    json!({"s": "long", "o": "1"}),
                    json!({"s": "long", "o": "2"})
                )
            ),
            Vec::<String>::new()
        );
        assert_eq!(
            refused(&schema, (json!({"s": "long"}), json!({"s": "longer"}))),
            ["spec.s: failed rule: self.size() < 3"]
        );
        assert_eq!(
            refused(
                &schema,
                (json!({"n": 1, "o": "1"}), json!({"n": 1, "o": "2"}))
            ),
            ["spec.n: failed rule: self > oldSelf"]
        );
        // Without an old value the transition rule does not run.
        assert_eq!(
            refused(&schema, (json!({}), json!({"n": 1}))),
            Vec::<String>::new()
        );
    }

    /// `optionalOldSelf: true`: `oldSelf` is `optional.of(old)`, or `optional.none()` where
    /// the value has no old one — from 1.30, behind the same gate (validation_test.go
    /// TestOptionalOldSelf; validation.go `validationActivationWithOldSelf`).
    #[test]
    fn optional_old_self_is_an_optional() {
        let schema = json!({"type": "object", "properties": {"s": {"type": "string",
            "x-kubernetes-validations": [{"rule": "oldSelf.hasValue()",
                "optionalOldSelf": true, "message": "must have been set"}]}}});
        assert_eq!(
            refused(&schema, (json!({"s": "b"}), json!({"s": "a"}))),
            Vec::<String>::new()
        );
        assert_eq!(
            refused(&schema, (json!({}), json!({"s": "a"}))),
            ["spec.s: must have been set"]
        );
        assert_eq!(
            refused_at(29, &schema, (json!({}), json!({"s": "a"}))),
            Vec::<String>::new()
        );
    }

    /// A rule's evaluation error is never ratcheted; nor is a rule reading a value of a type
    /// its schema refuses, kept by ratcheting: the API server's conversion makes it an error
    /// value (validation.go appends evaluation errors directly; valuesunstructured.go
    /// `UnstructuredToVal`).
    #[test]
    fn evaluation_errors_are_never_ratcheted() {
        let schema = json!({"type": "object", "properties": {
            "m": {"type": "object", "additionalProperties": {"type": "string"},
                "x-kubernetes-validations": [{"rule": "self.missing == 'x'"}]},
            "o": {"type": "string"}}});
        assert_eq!(
            refused(
                &schema,
                (json!({"m": {}, "o": "1"}), json!({"m": {}, "o": "2"}))
            ),
            ["spec.m: no such key: missing evaluating rule: self.missing == 'x'"]
        );
        let typed = json!({"type": "object", "properties": {
            "m": {"type": "object", "x-kubernetes-validations": [{"rule": "self.size() <= 3"}]},
            "o": {"type": "string"}}});
        assert_eq!(
            refused(
                &typed,
                (json!({"m": 1, "o": "1"}), json!({"m": 1, "o": "2"}))
            ),
            [
                "spec.m: invalid data, expected a map for the provided schema with type=object \
              evaluating rule: self.size() <= 3"
            ]
        );
    }

    /// Duplicates of sets and map lists are judged on the whole new object, and only when the
    /// old one has none (strategy.go ValidateUpdate, listtype.ValidateListSetsAndMaps).
    #[test]
    fn duplicates_are_judged_when_the_old_object_has_none() {
        let schema = json!({"type": "object", "properties": {
            "tags": {"type": "array", "x-kubernetes-list-type": "set",
                "items": {"type": "string"}},
            "more": {"type": "array", "x-kubernetes-list-type": "set",
                "items": {"type": "string"}}}});
        assert_eq!(
            refused(
                &schema,
                (
                    json!({"tags": ["a", "a"]}),
                    json!({"tags": ["a", "a"], "more": ["b", "b"]})
                )
            ),
            Vec::<String>::new()
        );
        assert_eq!(
            refused(
                &schema,
                (json!({"tags": ["a"]}), json!({"tags": ["a", "a"]}))
            )
            .len(),
            1
        );
    }

    /// Transition rules judge the change, each at its field with its message or evaluated
    /// messageExpression; both objects are defaulted first (the stored object was); items of
    /// a map list correlate by key whatever their position.
    #[test]
    fn transition_rules_judge_the_change() {
        let schema = json!({"type": "object", "properties": {
            "class": {"type": "string", "x-kubernetes-validations": [
                {"rule": "self == oldSelf", "message": "class is immutable"}]},
            "size": {"type": "integer", "default": 1, "x-kubernetes-validations": [
                {"rule": "self >= oldSelf",
                 "messageExpression": "'size may not shrink from ' + string(oldSelf)",
                 "reason": "FieldValueForbidden"}]},
            "listeners": {"type": "array", "x-kubernetes-list-type": "map",
                "x-kubernetes-list-map-keys": ["name"],
                "items": {"type": "object", "properties": {
                    "name": {"type": "string"},
                    "port": {"type": "integer", "x-kubernetes-validations": [
                        {"rule": "self == oldSelf", "message": "port is immutable"}]}}}}}});
        assert_eq!(
            refused(
                &schema,
                (
                    json!({"class": "a", "size": 3}),
                    json!({"class": "b", "size": 2})
                )
            ),
            [
                "spec.class: class is immutable",
                "spec.size: Forbidden: size may not shrink from 3"
            ]
        );
        assert_eq!(
            refused(
                &schema,
                (json!({"class": "a"}), json!({"size": 0, "class": "a"}))
            ),
            ["spec.size: Forbidden: size may not shrink from 1"]
        );
        let old = json!({"listeners": [{"name": "http", "port": 80},
            {"name": "https", "port": 443}]});
        let new = json!({"listeners": [{"name": "https", "port": 8443},
            {"name": "http", "port": 80}, {"name": "new", "port": 1}]});
        assert_eq!(
            refused(&schema, (old, new)),
            ["spec.listeners[0].port: port is immutable"]
        );
    }
}
