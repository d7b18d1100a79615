//! A custom resource as the API server's request decoder leaves it before validating it
//! (apiextensions-apiserver registry/customresource, in order): unknown fields pruned
//! (pkg/apiserver/schema/pruning), then the nulls the schema does not allow and has no default
//! for pruned (pkg/apiserver/schema/defaulting/prunenulls.go), then defaults set
//! (defaulting/algorithm.go). A `null` on a field that is not `nullable` is therefore dropped,
//! not refused; one with a default gets the default.

use serde_json::{Map, Value};

use super::field_path::{FieldPath, Step};
use super::schema::Schema;

/// What decoding did to an object: the object as decoded when anything changed, and the
/// fields pruned as unknown — the first `written` of them by path, the rest counted.
#[derive(Debug, Default)]
pub(super) struct Decoded {
    /// `None` when the object decodes to itself (the common case: nothing is copied).
    pub(super) value: Option<Value>,
    pub(super) pruned: Vec<String>,
    pub(super) pruned_more: usize,
}

/// Decodes `object`, a custom resource whose CRD's schema is `schema`, keeping the paths of at
/// most `written` pruned fields.
pub(super) fn decode(schema: &Schema, object: &Value, written: usize) -> Decoded {
    let mut decoder = Decoder {
        written,
        pruned: Vec::new(),
        pruned_more: 0,
    };
    let value = decoder.node(schema, object, true, false, &mut FieldPath::default());
    decoder.pruned.sort();
    Decoded {
        value,
        pruned: decoder.pruned,
        pruned_more: decoder.pruned_more,
    }
}

/// Decodes `value` in place: what `diff` does to both sides of an update before judging it.
pub(super) fn decode_in_place(schema: &Schema, value: &mut Value) {
    if let Some(decoded) = decode(schema, value, 0).value {
        *value = decoded;
    }
}

struct Decoder {
    written: usize,
    pruned: Vec<String>,
    pruned_more: usize,
}

/// The fields of a resource the API server owns: pruning leaves them (and what they hold) to
/// ObjectMeta's own decoding, at the root and in embedded resources.
const META_FIELDS: [&str; 3] = ["apiVersion", "kind", "metadata"];

impl Decoder {
    fn prune(&mut self, path: &FieldPath<'_>, field: &str) {
        if self.pruned.len() < self.written {
            self.pruned.push(path.written(Some(Step::Field(field))));
        } else {
            self.pruned_more += 1;
        }
    }

    /// The decoded `value` of a node of `schema`, or `None` when it decodes to itself.
    /// `resource` for the object's root and embedded resources; `preserving` where a list
    /// under `x-kubernetes-preserve-unknown-fields` passes it on to its items (pruning's
    /// `skipPrune`).
    fn node<'v>(
        &mut self,
        schema: &Schema,
        value: &'v Value,
        resource: bool,
        preserving: bool,
        path: &mut FieldPath<'v>,
    ) -> Option<Value> {
        let preserve = schema.preserves_unknown_fields() || preserving;
        match value {
            Value::Object(fields) => {
                let resource = resource || schema.is_embedded_resource();
                let mut changed: Option<Map<String, Value>> = None;
                for (index, (name, field)) in fields.iter().enumerate() {
                    let own = |changed: &mut Option<Map<String, Value>>| {
                        changed.get_or_insert_with(|| {
                            fields
                                .iter()
                                .take(index)
                                .map(|(k, v)| (k.clone(), v.clone()))
                                .collect()
                        });
                    };
                    if resource && META_FIELDS.contains(&name.as_str()) {
                        // Not pruned; nulls and defaults still apply as to any field.
                        let child = schema.field(name);
                        if field.is_null()
                            && child.is_some_and(|child| {
                                !child.is_nullable() && child.default_value().is_none()
                            })
                        {
                            own(&mut changed);
                            continue;
                        }
                        let decoded = child.and_then(|child| {
                            path.steps.push(Step::Field(name));
                            let decoded = self.defaults_only(child, field);
                            path.steps.pop();
                            decoded
                        });
                        match (decoded, &mut changed) {
                            (Some(decoded), _) => {
                                own(&mut changed);
                                changed
                                    .as_mut()
                                    .expect("owned")
                                    .insert(name.clone(), decoded);
                            }
                            (None, Some(map)) => {
                                map.insert(name.clone(), field.clone());
                            }
                            (None, None) => {}
                        }
                        continue;
                    }
                    let child = schema.field(name);
                    let Some(child) = child else {
                        if preserve || schema.allows_unknown_fields() {
                            if let Some(map) = &mut changed {
                                map.insert(name.clone(), field.clone());
                            }
                        } else {
                            self.prune(path, name);
                            own(&mut changed);
                        }
                        continue;
                    };
                    if field.is_null() && !child.is_nullable() {
                        // Dropped, or (with a default) defaulted.
                        own(&mut changed);
                        if let Some(default) = child.default_value() {
                            let value = self.defaults_only(child, default);
                            let value = value.unwrap_or_else(|| default.clone());
                            changed.as_mut().expect("owned").insert(name.clone(), value);
                        }
                        continue;
                    }
                    path.steps.push(Step::Field(name));
                    let decoded = self.node(child, field, false, false, path);
                    path.steps.pop();
                    match decoded {
                        Some(decoded) => {
                            own(&mut changed);
                            changed
                                .as_mut()
                                .expect("owned")
                                .insert(name.clone(), decoded);
                        }
                        None => {
                            if let Some(map) = &mut changed {
                                map.insert(name.clone(), field.clone());
                            }
                        }
                    }
                }
                // Defaults, after pruning: an absent field, or a null one the schema does not
                // allow, gets its default — and the defaults within it.
                for (name, property) in schema.properties() {
                    let Some(default) = property.default_value() else {
                        continue;
                    };
                    let current = changed
                        .as_ref()
                        .map_or_else(|| fields.get(name), |map| map.get(name));
                    let wanted = match current {
                        None => true,
                        Some(Value::Null) => !property.is_nullable(),
                        Some(_) => false,
                    };
                    if wanted {
                        let mut value = default.clone();
                        if let Some(defaulted) = self.defaults_only(property, &value) {
                            value = defaulted;
                        }
                        changed
                            .get_or_insert_with(|| fields.clone())
                            .insert(name.clone(), value);
                    }
                }
                changed.map(Value::Object)
            }
            Value::Array(items) => {
                let schema_items = schema.items()?;
                let mut changed: Option<Vec<Value>> = None;
                for (index, item) in items.iter().enumerate() {
                    path.steps.push(Step::Index(index));
                    // Nulls in a list are kept; one the items do not allow gets their default.
                    let decoded = match (item, schema_items.default_value()) {
                        (Value::Null, Some(default)) if !schema_items.is_nullable() => {
                            let value = default.clone();
                            Some(self.defaults_only(schema_items, &value).unwrap_or(value))
                        }
                        _ => self.node(schema_items, item, false, preserve, path),
                    };
                    path.steps.pop();
                    match decoded {
                        Some(decoded) => {
                            changed
                                .get_or_insert_with(|| items[..index].to_vec())
                                .push(decoded);
                        }
                        None => {
                            if let Some(list) = &mut changed {
                                list.push(item.clone());
                            }
                        }
                    }
                }
                changed.map(Value::Array)
            }
            _ => None,
        }
    }

    /// Only the defaults of `schema` set in `value` (a default just set, or a resource's own
    /// fields): the defaulting pass alone, as the API server runs it over everything.
    fn defaults_only(&mut self, schema: &Schema, value: &Value) -> Option<Value> {
        if !schema.has_defaults_within() {
            return None;
        }
        let mut copy = value.clone();
        schema.apply_defaults(&mut copy);
        (copy != *value).then_some(copy)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn decoded(schema: Value, object: Value) -> (Value, Vec<String>) {
        let schema = Schema::from_crd(&schema);
        let result = decode(&schema, &object, 20);
        (result.value.unwrap_or(object), result.pruned)
    }

    /// apiextensions pkg/apiserver/schema/pruning/algorithm_test.go: unknown fields go, at every
    /// depth, in items and under additionalProperties; `x-kubernetes-preserve-unknown-fields`
    /// keeps a node's own but still prunes within its declared fields; apiVersion, kind and
    /// metadata stay at the root and in embedded resources.
    #[test]
    fn unknown_fields_are_pruned_as_the_api_server_prunes_them() {
        let schema = json!({"type": "object", "properties": {
        "spec": {"type": "object", "properties": {
            "items": {"type": "array", "items": {"type": "object",
                "properties": {"name": {"type": "string"}}}},
            "labels": {"type": "object", "additionalProperties": {"type": "object",
                "properties": {"v": {"type": "string"}}}},
            "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": true,
                "properties": {"known": {"type": "object", "properties": {}}}},
            "template": {"type": "object", "x-kubernetes-embedded-resource": true,
                "properties": {"spec": {"type": "object"}}},
        }}}});
        let object = json!({"apiVersion": "example.io/v1", "kind": "Widget",
            "metadata": {"name": "w", "whatever": 1}, "status": {"x": 1},
            "spec": {"items": [{"name": "a", "extra": true}],
                "labels": {"one": {"v": "x", "w": "y"}},
                "free": {"anything": {"deep": 1}, "known": {"gone": 1}},
                "template": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
                    "spec": {"dropped": 1}, "other": 2}}});
        let (value, pruned) = decoded(schema, object);
        assert_eq!(
            value,
            json!({"apiVersion": "example.io/v1", "kind": "Widget",
                "metadata": {"name": "w", "whatever": 1},
                "spec": {"items": [{"name": "a"}], "labels": {"one": {"v": "x"}},
                    "free": {"anything": {"deep": 1}, "known": {}},
                    "template": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
                        "spec": {}}}})
        );
        assert_eq!(
            pruned,
            [
                "spec.free.known.gone",
                "spec.items[0].extra",
                "spec.labels.one.w",
                "spec.template.other",
                "spec.template.spec.dropped",
                "status"
            ]
        );
    }

    /// apiextensions defaulting/prunenulls_test.go: a null the schema does not allow is dropped
    /// (as Karpenter's client sends `null` for unset pointers); a nullable one stays; one with
    /// a default gets it; a null item of a list stays (validation refuses it).
    #[test]
    fn nulls_the_schema_does_not_allow_are_pruned_then_defaults_set() {
        let schema = json!({"type": "object", "properties": {"spec": {"type": "object",
        "properties": {
            "plain": {"type": "string"},
            "nullable": {"type": "string", "nullable": true},
            "defaulted": {"type": "integer", "default": 3},
            "absent": {"type": "object", "default": {},
                "properties": {"inner": {"type": "string", "default": "x"}}},
            "list": {"type": "array", "items": {"type": "string"}},
            "map": {"type": "object", "additionalProperties": {"type": "string"}},
        }}}});
        let object = json!({"spec": {"plain": null, "nullable": null, "defaulted": null,
            "list": ["a", null], "map": {"k": null}}});
        let (value, pruned) = decoded(schema, object);
        assert_eq!(
            value,
            json!({"spec": {"nullable": null, "defaulted": 3, "absent": {"inner": "x"},
                "list": ["a", null], "map": {}}})
        );
        assert!(pruned.is_empty(), "{pruned:?}");
    }

    /// Pruning drops the fields of an object wherever the schema describes none, whatever
    /// the node's type (pruning/algorithm.go `prune` of a map): an object where an integer
    /// belongs is left empty, and on an update an unchanged one is then equal to its old self.
    #[test]
    fn an_object_where_a_scalar_belongs_keeps_no_field() {
        let schema = json!({"type": "object", "properties": {"spec": {"type": "object",
            "additionalProperties": {"type": "integer"}}}});
        let (value, pruned) = decoded(schema, json!({"spec": {"a": 1, "b": {"c": 1}}}));
        assert_eq!(value, json!({"spec": {"a": 1, "b": {}}}));
        assert_eq!(pruned, ["spec.b.c"]);
    }

    /// An object with nothing to prune, drop or default is not copied.
    #[test]
    fn an_object_that_decodes_to_itself_is_not_copied() {
        let schema = Schema::from_crd(&json!({"type": "object", "properties": {
            "spec": {"type": "object", "properties": {"size": {"type": "integer"}}}}}));
        let object = json!({"apiVersion": "example.io/v1", "kind": "Widget",
            "metadata": {"name": "w"}, "spec": {"size": 3}});
        let result = decode(&schema, &object, 20);
        assert!(result.value.is_none());
    }
}
