//! Work: the final object for one member cluster, Karmada's `ensureWork` + `CreateOrUpdateWork`
//! (karmada pkg/controllers/binding/common.go, pkg/controllers/ctrlutil/work.go): replicas
//! revised, overrides applied, then runtime-only fields pruned. Karmada's bookkeeping labels and
//! annotations are deliberately not added (spec README, deviation 4).

use serde_json::Value;

use crate::interpret::{self, Interpreter};
use crate::object::Template;

/// Builds the object one cluster receives. `override_object` runs between replica revision
/// and pruning: after revision so that an override of the replica field wins, before pruning so
/// that an override cannot bring back what pruning removes.
pub fn build_work<E>(
    interpreter: &Interpreter,
    template: &Template,
    replicas: Option<i64>,
    completions: Option<i64>,
    override_object: impl FnOnce(&mut Value) -> Result<(), E>,
) -> Result<Value, E> {
    let mut object = template.object.clone();
    if let Some(replicas) = replicas {
        interpreter.revise_replicas(template, &mut object, replicas);
    }
    // A Divided Job's completions are split with its replicas (karmada binding/common.go
    // `divideReplicasByJobCompletions`).
    if let Some(completions) = completions
        && let Some(spec) = object.get_mut("spec").and_then(Value::as_object_mut)
    {
        spec.insert("completions".to_string(), Value::from(completions));
    }
    override_object(&mut object)?;
    interpret::prune(template.group(), template.kind(), &mut object);
    Ok(object)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn deployment() -> Template {
        Template::for_test(
            "apps/v1",
            "Deployment",
            "default",
            "web",
            json!({"apiVersion": "apps/v1", "kind": "Deployment",
                "metadata": {"name": "web", "namespace": "default", "uid": "u"},
                "spec": {"template": {}}, "status": {"readyReplicas": 1}}),
        )
    }

    // karmada issue #1347: an override of /spec/replicas must win over replica revision.
    #[test]
    fn overrides_run_after_revision_and_before_pruning() {
        let work = build_work(
            &Interpreter::default(),
            &deployment(),
            Some(3),
            None,
            |object| {
                assert_eq!(object["spec"]["replicas"], json!(3));
                object["spec"]["replicas"] = json!(7);
                object["status"] = json!({"injected": true});
                Ok::<(), ()>(())
            },
        )
        .unwrap();
        assert_eq!(work["spec"]["replicas"], json!(7));
        assert!(work.get("status").is_none());
        assert!(work["metadata"].get("uid").is_none());
    }
}
