//! Work: the final object for one member cluster, Karmada's `ensureWork` + `CreateOrUpdateWork`
//! (karmada pkg/controllers/binding/common.go, pkg/controllers/ctrlutil/work.go): replicas
//! revised, overrides applied, then runtime-only fields pruned. Karmada's bookkeeping labels and
//! annotations are deliberately not added (spec README, deviation 4).

use std::collections::BTreeMap;

use serde_json::Value;

use crate::interpret::{self, Interpreter};
use crate::object::Template;

/// The object one cluster receives is built in three steps: [`revise`], the overrides, then
/// [`prune`] — overrides after revision so that an override of the replica field wins, before
/// pruning so that an override cannot bring back what pruning removes.
///
/// The first step: the template with the cluster's replicas and completions, ready for the
/// overrides.
pub fn revise(
    interpreter: &Interpreter,
    template: &Template,
    replicas: Option<i64>,
    completions: Option<i64>,
) -> Result<Value, String> {
    let mut object = match replicas {
        Some(replicas) => interpreter.revise(template, replicas)?,
        None => template.object.clone(),
    };
    // A Divided Job's completions are split with its replicas (karmada binding/common.go
    // `divideReplicasByJobCompletions`).
    if let Some(completions) = completions
        && let Some(spec) = object.get_mut("spec").and_then(Value::as_object_mut)
    {
        spec.insert("completions".to_string(), Value::from(completions));
    }
    Ok(object)
}

/// A template's revised objects by replicas and completions: the clusters with the same share
/// receive the same revision, worked out once (for a custom resource it is a Lua call).
pub struct Revisions<'a> {
    interpreter: &'a Interpreter,
    template: &'a Template,
    revised: BTreeMap<(Option<i64>, Option<i64>), Value>,
}

impl<'a> Revisions<'a> {
    pub fn new(interpreter: &'a Interpreter, template: &'a Template) -> Self {
        Revisions {
            interpreter,
            template,
            revised: BTreeMap::new(),
        }
    }

    /// [`revise`], remembered.
    pub fn revise(
        &mut self,
        replicas: Option<i64>,
        completions: Option<i64>,
    ) -> Result<Value, String> {
        if let Some(object) = self.revised.get(&(replicas, completions)) {
            return Ok(object.clone());
        }
        let object = revise(self.interpreter, self.template, replicas, completions)?;
        self.revised.insert((replicas, completions), object.clone());
        Ok(object)
    }
}

/// The last step, once the overrides are applied: runtime-only fields go.
pub fn prune(template: &Template, object: &mut Value) {
    interpret::prune(template.group(), template.kind(), object);
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
        let template = deployment();
        let mut work = revise(&Interpreter::default(), &template, Some(3), None).unwrap();
        assert_eq!(work["spec"]["replicas"], json!(3));
        work["spec"]["replicas"] = json!(7);
        work["status"] = json!({"injected": true});
        prune(&template, &mut work);
        assert_eq!(work["spec"]["replicas"], json!(7));
        assert!(work.get("status").is_none());
        assert!(work["metadata"].get("uid").is_none());
    }
}
