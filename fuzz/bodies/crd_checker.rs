//! What `fuzz_targets/crd_checker.rs` does with an input, which `engine/tests/fuzz_seeds.rs`
//! replays on every seed: a Checker built from a generated CRD checking a generated object.
//! The schema (its `openAPIV3Schema`) and the object are JSON, split by a NUL byte. Whatever
//! they hold, building the checker and checking the object (as created, and as an update from
//! itself) ends within the run's budget without a panic, and gives the same findings each time.

use fedrender_engine::check::{Checker, KubernetesVersion};
use serde_json::{Value, json};

/// Checks the CRD and object `data` holds; false when the bytes are not two JSON documents.
pub fn run(data: &[u8]) -> bool {
    let Some(split) = data.iter().position(|&b| b == 0) else {
        return false;
    };
    let (Ok(schema), Ok(mut object)) = (
        serde_json::from_slice::<Value>(&data[..split]),
        serde_json::from_slice::<Value>(&data[split + 1..]),
    ) else {
        return false;
    };
    let crd = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.io"},
        "spec": {"group": "example.io", "scope": "Namespaced",
            "names": {"kind": "Widget", "plural": "widgets"},
            "versions": [{"name": "v1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": schema}}]}});
    if let Some(fields) = object.as_object_mut() {
        fields.insert("apiVersion".into(), json!("example.io/v1"));
        fields.insert("kind".into(), json!("Widget"));
    }
    // A small run budget, so that a costly input ends quickly.
    let checker = Checker::new(Vec::new(), [&crd]).with_run_budget(20_000_000, 20_000_000);
    let again = Checker::new(Vec::new(), [&crd]).with_run_budget(20_000_000, 20_000_000);
    for minor in [29, 30, 36] {
        let version = KubernetesVersion { minor };
        assert_eq!(
            checker.check_at(&object, version),
            again.check_at(&object, version),
            "the same check twice"
        );
        assert_eq!(
            checker.check_change_at(&object, &object, version),
            again.check_change_at(&object, &object, version),
            "the same update twice"
        );
    }
    true
}
