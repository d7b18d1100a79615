//! What `fuzz_targets/field_overrider.rs` does with an input, which
//! `engine/tests/fuzz_seeds.rs` replays on every seed: the fieldOverrider on a ConfigMap
//! (pointer resolution, YAML or JSON content parsing, the JSON patch, and the go-yaml v2 or
//! Go-JSON writers).
//!
//! The input is the overrider as JSON (`{"fieldPath": …, "yaml": […]}` or `"json"`), then a
//! NUL byte, then the content of the ConfigMap's `data.config` it is applied to.

use fedrender_engine::api::karmada::FieldOverrider;
use fedrender_engine::overrides::field::apply_field_overrider;
use serde_json::json;

/// Whether `data` reached the overrider.
pub fn run(data: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(data) else {
        return false;
    };
    let (overrider, content) = text.split_once('\0').unwrap_or((text, ""));
    let Ok(overrider) = serde_json::from_str::<FieldOverrider>(overrider) else {
        return false;
    };
    let mut object = json!({
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "fuzz", "namespace": "default"},
        "data": {"config": content},
    });
    if apply_field_overrider(&mut object, &overrider).is_ok() {
        let _ = fedrender_engine::yaml::to_yaml(&object);
    }
    true
}
