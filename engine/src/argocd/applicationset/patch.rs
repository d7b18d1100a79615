//! `templatePatch` as the controller applies it (applicationset/controllers/template patch.go
//! `applyTemplatePatch`): the rendered text is read as YAML (or JSON when it begins with `{`),
//! must be an Application, and is applied to the Application with Kubernetes' strategic merge
//! patch for the Application type. That type declares no merge keys, so a list of the patch
//! replaces the list, a map merges key by key, a null removes the field, and `$patch: replace`
//! or `$patch: delete` in a map replace or remove that map; the other directives
//! (`$retainKeys`, `$setElementOrder/…`, `$deleteFromPrimitiveList/…`) only mean something for
//! lists with merge keys, and are refused by name.

use serde_json::{Map, Value};

/// The patch text as the JSON Argo CD hands the strategic merge (`utils.ConvertYAMLToJSON`).
pub(super) fn patch_to_json(text: &str) -> Result<Value, String> {
    if text.trim_start().starts_with('{') {
        return serde_json::from_str(text).map_err(|e| format!("it is not JSON: {e}"));
    }
    let documents = crate::yaml::split_documents(text);
    let Some(document) = documents.first() else {
        return Ok(Value::Null);
    };
    crate::yaml::parse_document_as_yaml_to_json(document, "templatePatch")
        .map_err(|d| format!("it is not YAML: {}", d.message))
}

/// `strategicpatch.StrategicMergePatch(original, patch, Application{})`.
pub(super) fn strategic_merge(original: &Value, patch: &Value) -> Result<Value, String> {
    let Value::Object(patch) = patch else {
        return Err(format!(
            "it is {}, not an Application (a YAML mapping)",
            kind_of(patch)
        ));
    };
    let original = original.as_object().cloned().unwrap_or_default();
    Ok(merge_map(original, patch, "")?.map_or(Value::Null, Value::Object))
}

/// One map of the patch over the original's; `None` when the patch deletes it.
fn merge_map(
    mut original: Map<String, Value>,
    patch: &Map<String, Value>,
    at: &str,
) -> Result<Option<Map<String, Value>>, String> {
    let field = |key: &str| {
        if at.is_empty() {
            key.to_string()
        } else {
            format!("{at}.{key}")
        }
    };
    match patch.get("$patch") {
        None => {}
        Some(Value::String(directive)) if directive == "delete" => return Ok(None),
        Some(Value::String(directive)) if directive == "replace" => {
            let mut replaced = Map::new();
            for (key, value) in patch {
                if key != "$patch" && !value.is_null() {
                    replaced.insert(key.clone(), strip(value, &field(key))?);
                }
            }
            return Ok(Some(replaced));
        }
        Some(other) => {
            return Err(format!(
                "{}: `$patch: {other}` is not a directive a map takes (replace, delete)",
                field("$patch")
            ));
        }
    }
    for (key, value) in patch {
        if key == "$patch" {
            continue;
        }
        if key.starts_with('$') {
            return Err(format!(
                "{}: fedrender does not apply the strategic merge directive {key:?}, which only \
                 lists with merge keys take (an Application has none)",
                field(key)
            ));
        }
        match value {
            Value::Null => {
                original.remove(key);
            }
            Value::Object(inner) => {
                let base = match original.remove(key) {
                    Some(Value::Object(base)) => base,
                    _ => Map::new(),
                };
                if let Some(merged) = merge_map(base, inner, &field(key))? {
                    original.insert(key.clone(), Value::Object(merged));
                }
            }
            other => {
                original.insert(key.clone(), strip(other, &field(key))?);
            }
        }
    }
    Ok(Some(original))
}

/// A value the patch sets where the original has none to merge with: its maps lose their nulls
/// and directives as they would merging into nothing.
fn strip(value: &Value, at: &str) -> Result<Value, String> {
    Ok(match value {
        Value::Object(map) => merge_map(Map::new(), map, at)?.map_or(Value::Null, Value::Object),
        Value::Array(items) => Value::Array(
            items
                .iter()
                .enumerate()
                .map(|(i, item)| strip(item, &format!("{at}[{i}]")))
                .collect::<Result<_, _>>()?,
        ),
        other => other.clone(),
    })
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "empty",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "a map",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn maps_merge_lists_replace_nulls_remove() {
        let original = json!({"metadata": {"labels": {"a": "1", "b": "2"}},
                              "spec": {"info": [{"name": "x"}], "source": {"path": "p"}}});
        let patch = json!({"metadata": {"labels": {"b": null, "c": "3"}},
                           "spec": {"info": [{"name": "y"}], "source": {"helm": {"values": "a: 1", "x": null}}}});
        assert_eq!(
            strategic_merge(&original, &patch).unwrap(),
            json!({"metadata": {"labels": {"a": "1", "c": "3"}},
                   "spec": {"info": [{"name": "y"}], "source": {"path": "p", "helm": {"values": "a: 1"}}}})
        );
    }

    #[test]
    fn replace_and_delete_directives() {
        let original = json!({"metadata": {"labels": {"a": "1"}, "annotations": {"x": "y"}}});
        let patch = json!({"metadata": {"labels": {"$patch": "replace", "b": "2"},
                                        "annotations": {"$patch": "delete"}}});
        assert_eq!(
            strategic_merge(&original, &patch).unwrap(),
            json!({"metadata": {"labels": {"b": "2"}}})
        );
        let refused = strategic_merge(&original, &json!({"spec": {"$retainKeys": ["a"]}}));
        assert!(
            refused
                .unwrap_err()
                .starts_with("spec.$retainKeys: fedrender does not apply")
        );
        let refused = strategic_merge(&original, &json!({"spec": {"$patch": "merge"}}));
        assert!(
            refused
                .unwrap_err()
                .contains("`$patch: \"merge\"` is not a directive")
        );
    }

    // argo-cd template/patch_test.go TestError: a patch that is not a map is refused.
    #[test]
    fn a_patch_that_is_not_a_map_is_refused() {
        let patch = patch_to_json("hello world").unwrap();
        assert_eq!(
            strategic_merge(&json!({}), &patch).unwrap_err(),
            "it is a string, not an Application (a YAML mapping)"
        );
        assert_eq!(
            patch_to_json(r#"{"spec": {"project": "x"}}"#).unwrap(),
            json!({"spec": {"project": "x"}})
        );
        assert!(patch_to_json("{ not json").is_err());
    }
}
