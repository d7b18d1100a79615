//! labelsOverrider and annotationsOverrider: the object's own `metadata.labels` or
//! `metadata.annotations`, never the pod template's (karmada labelannotationoverrider.go).
//! `add` creates the map and overwrites keys; `replace` and `remove` touch only keys that exist.

use serde_json::{Map, Value};

use crate::api::karmada::{LabelAnnotationOverrider, OverriderOperator};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MetadataMap {
    Labels,
    Annotations,
}

impl MetadataMap {
    fn key(self) -> &'static str {
        match self {
            MetadataMap::Labels => "labels",
            MetadataMap::Annotations => "annotations",
        }
    }
}

pub(crate) fn apply_metadata_map(
    object: &mut Value,
    target: MetadataMap,
    overrider: &LabelAnnotationOverrider,
) -> Result<(), String> {
    if overrider.value.is_empty() {
        return Ok(());
    }
    let Some(metadata) = object.get_mut("metadata").and_then(Value::as_object_mut) else {
        return Err("the object has no metadata".to_string());
    };
    let field = target.key();
    if overrider.operator == OverriderOperator::Add && !metadata.contains_key(field) {
        metadata.insert(field.to_string(), Value::Object(Map::new()));
    }
    let map = match metadata.get_mut(field) {
        None | Some(Value::Null) => return Ok(()),
        Some(Value::Object(map)) => map,
        Some(_) => return Err(format!("metadata.{field} is not a mapping")),
    };
    for (key, value) in &overrider.value {
        match overrider.operator {
            OverriderOperator::Add => {
                map.insert(key.clone(), Value::from(value.as_str()));
            }
            OverriderOperator::Replace => {
                if let Some(existing) = map.get_mut(key) {
                    *existing = Value::from(value.as_str());
                }
            }
            OverriderOperator::Remove => {
                map.shift_remove(key);
            }
        }
    }
    Ok(())
}

/// The object's labels and annotations as Karmada writes them into the Work: after the
/// overrides, `ctrlutil.CreateOrUpdateWork` (and `mergeLabel`/`mergeAnnotations` before it)
/// adds its bookkeeping through `util.MergeLabel`/`util.MergeAnnotation`, which read both maps
/// back with `Unstructured.GetLabels`/`GetAnnotations` — apimachinery's
/// `NestedNullCoercingStringMap` — and write them back as `map[string]string`. So a null value,
/// such as a plaintext `add` without a value, becomes `""`, and a null map has nothing left
/// but Karmada's own keys, which fedrender leaves out: the map goes. Other string maps (a pod
/// template's labels, `nodeSelector`, ConfigMap `data`) are never re-read and keep a null.
///
/// A value that is neither a string nor null makes the accessor fail; Karmada ignores the error
/// and replaces the whole map with its bookkeeping, silently dropping every label or
/// annotation of the object. fedrender reports that instead.
pub(crate) fn as_string_maps(object: &mut Value) -> Result<(), String> {
    let Some(metadata) = object.get_mut("metadata").and_then(Value::as_object_mut) else {
        return Ok(());
    };
    for target in [MetadataMap::Labels, MetadataMap::Annotations] {
        let field = target.key();
        let map = match metadata.get_mut(field) {
            None => continue,
            Some(Value::Null) => {
                metadata.shift_remove(field);
                continue;
            }
            Some(Value::Object(map)) => map,
            Some(other) => {
                return Err(format!(
                    "metadata.{field} is {} after the overrides, not a mapping of strings; \
                     Karmada would drop every one of the object's {field}",
                    crate::object::json_type_name(other)
                ));
            }
        };
        for (key, value) in map.iter_mut() {
            match value {
                Value::String(_) => {}
                Value::Null => *value = Value::from(""),
                other => {
                    return Err(format!(
                        "metadata.{field}.{key} is {} after the overrides, not a string; \
                         Karmada would drop every one of the object's {field} (quote the value)",
                        crate::object::json_type_name(other)
                    ));
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn overrider(operator: &str, value: Value) -> LabelAnnotationOverrider {
        serde_json::from_value(json!({"operator": operator, "value": value})).unwrap()
    }

    // karmada labelannotationoverrider_test.go: add upserts and creates the map.
    #[test]
    fn add_creates_the_map_and_overwrites() {
        let mut object = json!({"metadata": {"name": "a"}});
        apply_metadata_map(
            &mut object,
            MetadataMap::Labels,
            &overrider("add", json!({"cloud": "aws", "example.com/tier": "web"})),
        )
        .unwrap();
        apply_metadata_map(
            &mut object,
            MetadataMap::Labels,
            &overrider("add", json!({"cloud": "gcp"})),
        )
        .unwrap();
        assert_eq!(
            object["metadata"]["labels"],
            json!({"cloud": "gcp", "example.com/tier": "web"})
        );
    }

    #[test]
    fn replace_and_remove_skip_absent_keys() {
        let mut object = json!({"metadata": {"annotations": {"a": "1", "b": "2"}}});
        apply_metadata_map(
            &mut object,
            MetadataMap::Annotations,
            &overrider("replace", json!({"a": "x", "c": "3"})),
        )
        .unwrap();
        assert_eq!(
            object["metadata"]["annotations"],
            json!({"a": "x", "b": "2"})
        );
        apply_metadata_map(
            &mut object,
            MetadataMap::Annotations,
            &overrider("remove", json!({"b": "ignored", "d": ""})),
        )
        .unwrap();
        assert_eq!(object["metadata"]["annotations"], json!({"a": "x"}));
        let mut bare = json!({"metadata": {"name": "a"}});
        apply_metadata_map(
            &mut bare,
            MetadataMap::Labels,
            &overrider("replace", json!({"a": "1"})),
        )
        .unwrap();
        assert_eq!(bare, json!({"metadata": {"name": "a"}}));
    }

    #[test]
    fn pod_template_labels_are_not_touched() {
        let mut object = json!({"metadata": {"labels": {"a": "1"}}, "spec": {"template": {"metadata": {"labels": {"a": "1"}}}}});
        apply_metadata_map(
            &mut object,
            MetadataMap::Labels,
            &overrider("replace", json!({"a": "2"})),
        )
        .unwrap();
        assert_eq!(
            object["spec"]["template"]["metadata"]["labels"]["a"],
            json!("1")
        );
        assert_eq!(object["metadata"]["labels"]["a"], json!("2"));
    }

    // apimachinery unstructured.go GetLabels/GetAnnotations → helpers.go
    // NestedNullCoercingStringMap, called by karmada pkg/util/label.go MergeLabel and
    // annotation.go MergeAnnotation from ctrlutil/work.go CreateOrUpdateWork.
    #[test]
    fn null_label_and_annotation_values_become_empty_strings() {
        let mut object = json!({"metadata": {
            "labels": {"team": null, "app": "web"},
            "annotations": {"note": null}},
            "spec": {"template": {"metadata": {"labels": {"team": null}}}}});
        as_string_maps(&mut object).unwrap();
        assert_eq!(
            object["metadata"]["labels"],
            json!({"team": "", "app": "web"})
        );
        assert_eq!(object["metadata"]["annotations"], json!({"note": ""}));
        // Only the object's own maps are re-read.
        assert_eq!(
            object["spec"]["template"]["metadata"]["labels"]["team"],
            Value::Null
        );
    }

    #[test]
    fn a_null_map_leaves_only_karmadas_keys_so_it_goes() {
        let mut object = json!({"metadata": {"name": "a", "labels": null, "annotations": {}}});
        as_string_maps(&mut object).unwrap();
        assert_eq!(
            object,
            json!({"metadata": {"name": "a", "annotations": {}}})
        );
    }

    #[test]
    fn a_value_karmada_cannot_read_as_a_string_is_an_error() {
        let mut object = json!({"metadata": {"labels": {"replicas": 3}}});
        let error = as_string_maps(&mut object).unwrap_err();
        assert!(
            error.contains("metadata.labels.replicas is a number"),
            "{error}"
        );
        let mut object = json!({"metadata": {"annotations": ["a"]}});
        assert!(as_string_maps(&mut object).is_err());
    }
}
