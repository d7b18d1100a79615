//! An update of a custom resource as the API server judges it (apiextensions-apiserver
//! registry/customresource/strategy.go `ValidateUpdate`): what the old object — the stored one,
//! the base's in `diff` — says of each value of the new one.
//!
//! Two things come from it. **`oldSelf`**: a CEL rule that reads it runs where the value has
//! an old one — fields by name (not within an `x-kubernetes-map-type: atomic` object), items of
//! a map list by their keys; no other list item has one (pkg/apiserver/schema/cel/validation.go
//! `validateMap`, `validateArray`). With `optionalOldSelf: true` it runs everywhere, `oldSelf`
//! being `optional.none()` where there is none. **Ratcheting** (CRDValidationRatcheting, on by
//! default from Kubernetes 1.30): a value the update leaves as it was — correlated with its
//! old value as above, except that an atomic object's fields correlate too, and equal to it as
//! `CorrelatedObject.CachedDeepEqual` compares (apiserver pkg/cel/common/equality.go) — is not
//! judged again by the OpenAPI schema (pkg/apiserver/validation/ratcheting.go), nor by the rules
//! that do not read `oldSelf`, whose failures there are only warnings; and so is everything
//! within it. What is never ratcheted: a changed value (a field the update adds, removes or
//! edits changes the object holding it, so that object's `required`, `maxProperties` and the
//! like are judged), the rules that read `oldSelf`, a rule's evaluation errors and the budget,
//! an embedded resource's apiVersion and kind, ObjectMeta, and the duplicates of sets and map
//! lists — those are judged on the whole new object, and only when the old one has none.
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

/// What ratcheting correlates an update's two objects by: a schema's fields, items and list
/// and map types.
pub(super) trait Tree {
    /// The schema of field `name` (a property, else `additionalProperties`).
    fn field(&self, name: &str) -> Option<&Self>;
    fn items(&self) -> Option<&Self>;
    fn list_type(&self) -> &ListType;
    /// `x-kubernetes-map-type: atomic`.
    fn atomic_map(&self) -> bool;
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
    /// The old value `oldSelf` is, where CEL correlates one.
    old_self: Option<&'o Value>,
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
        update.correlate(schema, new, old, true);
        update
    }

    /// The old value `oldSelf` is bound to at `value`, a value of the new object.
    pub(super) fn old_self(&self, value: &Value) -> Option<&'o Value> {
        self.values.get(&address(value))?.old_self
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

    /// Correlates `new` with `old` and everything within them, `cel` while CEL still does:
    /// whether they are equal.
    fn correlate<S: Tree>(&mut self, schema: &S, new: &Value, old: &'o Value, cel: bool) -> bool {
        let unchanged = match (new, old) {
            (Value::Object(fields), Value::Object(old_fields)) => {
                let cel = cel && !schema.atomic_map();
                // Equal: as many fields, each correlated (a field without a schema never is)
                // and equal.
                let mut equal = fields.len() == old_fields.len();
                for (name, value) in fields {
                    match (schema.field(name), old_fields.get(name)) {
                        (Some(field), Some(before)) => {
                            equal &= self.correlate(field, value, before, cel);
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
                                equal &= self.correlate(item_schema, item, before, cel);
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
                old_self: cel.then_some(old),
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
