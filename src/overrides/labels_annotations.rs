//! labelsOverrider and annotationsOverrider: the object's own `metadata.labels` or
//! `metadata.annotations`, never the pod template's (karmada labelannotationoverrider.go).
//! `add` creates the map and overwrites keys; `replace` and `remove` touch only keys that exist.

use serde_json::{Map, Value};

use crate::api::karmada::{LabelAnnotationOverrider, OverriderOperator};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MetadataMap {
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

pub fn apply_metadata_map(
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
}
