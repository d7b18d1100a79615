//! The plaintext overrider: all entries of one rule form one RFC 6902 patch, applied in list
//! order to the whole object (karmada overridemanager.go `applyJSONPatch`).

use serde_json::Value;

use super::patch::{self, Operation};
use crate::api::karmada::PlaintextOverrider;

pub(crate) fn apply_plaintext(
    object: &mut Value,
    overriders: &[PlaintextOverrider],
) -> Result<(), String> {
    let operations: Vec<Operation<'_>> = overriders
        .iter()
        .map(|overrider| Operation {
            operator: overrider.operator,
            path: &overrider.path,
            value: overrider.value.as_ref(),
        })
        .collect();
    patch::apply(object, &operations)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn overrider(value: Value) -> PlaintextOverrider {
        serde_json::from_value(value).unwrap()
    }

    // The seeds' grey release (shared/seeds/002): nginx:test on cluster1 by plaintext.
    #[test]
    fn replaces_a_container_image() {
        let mut deployment = json!({"spec": {"template": {"spec": {"containers": [{"name": "nginx", "image": "nginx"}]}}}});
        apply_plaintext(&mut deployment, &[overrider(json!({
            "path": "/spec/template/spec/containers/0/image", "operator": "replace", "value": "nginx:test"}))])
        .unwrap();
        assert_eq!(
            deployment["spec"]["template"]["spec"]["containers"][0]["image"],
            json!("nginx:test")
        );
    }

    // The seeds' 000 example: add an annotations map, then a key inside it, in one rule.
    #[test]
    fn later_entries_see_earlier_ones() {
        let mut object = json!({"metadata": {"name": "a"}});
        apply_plaintext(&mut object, &[
            overrider(json!({"path": "/metadata/annotations", "operator": "add", "value": {}})),
            overrider(json!({"path": "/metadata/annotations/example.com~1team", "operator": "add", "value": "web"})),
        ])
        .unwrap();
        assert_eq!(
            object,
            json!({"metadata": {"name": "a", "annotations": {"example.com/team": "web"}}})
        );
    }

    // karmada issue #6103: a ConfigMap path applied to a Deployment fails.
    #[test]
    fn a_path_the_object_lacks_fails() {
        let mut deployment = json!({"spec": {"replicas": 1}});
        let error = apply_plaintext(
            &mut deployment,
            &[overrider(json!({
            "path": "/data/key", "operator": "replace", "value": "x"}))],
        )
        .unwrap_err();
        assert!(error.contains("/data"), "{error}");
    }
}
