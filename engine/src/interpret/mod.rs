//! Karmada's resource interpreter: what a template means to the scheduler and to the Works
//! built from it — how many replicas it has and what each requests, how a member cluster's
//! replicas are written into it, and which objects it depends on.
//!
//! Each operation is answered, for a template's apiVersion and kind, by the first of (karmada
//! pkg/resourceinterpreter/interpreter.go):
//! 1. a `ResourceInterpreterCustomization` of the fleet ([`customization`]), or a workload
//!    declared in fedrender's Config (never both for one kind);
//! 2. Karmada's built-in interpretation of popular third-party kinds ([`thirdparty`]);
//! 3. the native interpreter of Kubernetes' own kinds ([`native`], [`dependencies`]).
//!
//! Scripts run in [`lua`].

pub mod customization;
pub mod dependencies;
pub mod lua;
pub mod native;
pub mod operation;
pub mod requests;
pub mod thirdparty;

use std::collections::BTreeMap;
use std::fmt;

use serde_json::Value;

use crate::diagnostics::Origin;
use crate::fields::Fields;
use crate::object::Template;
use crate::quantity::{Quantity, quantity_from_json};
use customization::{Customizations, Rule, TargetRules};

pub use dependencies::Dependency;
pub(crate) use native::name_problem;
pub use native::prune;
pub use operation::Operation;

/// A kind the user declared a workload in the fedrender config: where its replica count and
/// pod template live.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CustomWorkload {
    /// JSON pointer to the replica field, e.g. `/spec/replicas`.
    pub replicas: String,
    /// JSON pointer to the pod template (`metadata` + `spec`), e.g. `/spec/template`.
    pub(crate) pod_template: Option<String>,
    /// The Config that declared it.
    pub origin: Origin,
}

/// Who answered an operation for a template, for `fedrender plan`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Supplier {
    /// A `ResourceInterpreterCustomization` of the fleet: its name and where it is.
    Customization {
        /// The customization's name.
        name: String,
        /// Where it is written.
        origin: Origin,
    },
    /// A workload declared in fedrender's Config.
    Config(Origin),
    /// Karmada's built-in interpretation of a third-party kind.
    BuiltIn,
    /// Karmada's native interpreter.
    Native,
}

impl fmt::Display for Supplier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Supplier::Customization { name, origin } => {
                write!(f, "ResourceInterpreterCustomization {name} ({origin})")
            }
            Supplier::Config(origin) => write!(f, "fedrender Config workload ({origin})"),
            Supplier::BuiltIn => f.write_str("Karmada's built-in third-party interpreter"),
            Supplier::Native => f.write_str("Karmada's native interpreter"),
        }
    }
}

/// What the scheduler reads of a workload (karmada `binding.spec.replicas` and
/// `replicaRequirements`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReplicaResource {
    /// `spec.replicas` as the interpreter reads it (0 when unset).
    pub replicas: i64,
    /// Per-replica resource request (empty: none).
    pub request: BTreeMap<String, Quantity>,
    /// Whether `replicaRequirements` is set at all (a request or a node claim).
    pub(crate) has_requirements: bool,
}

/// Per-kind knowledge: the built-in tables plus what the input declares (CRD scopes, custom
/// workloads from the fedrender config, interpreter customizations).
#[derive(Debug, Clone, Default)]
pub struct Interpreter {
    /// (group, kind) → namespaced?, from `CustomResourceDefinition.spec.scope`.
    scopes: BTreeMap<(String, String), bool>,
    /// (apiVersion, kind) → where the replicas and pod template are.
    workloads: BTreeMap<(String, String), CustomWorkload>,
    customizations: Customizations,
}

impl Interpreter {
    pub(crate) fn declare_scope(&mut self, group: &str, kind: &str, namespaced: bool) {
        self.scopes
            .insert((group.to_string(), kind.to_string()), namespaced);
    }

    pub(crate) fn declare_workload(
        &mut self,
        api_version: &str,
        kind: &str,
        workload: CustomWorkload,
    ) {
        self.workloads
            .insert((api_version.to_string(), kind.to_string()), workload);
    }

    pub(crate) fn set_customizations(&mut self, customizations: Customizations) {
        self.customizations = customizations;
    }

    /// The fleet's customizations, by target kind.
    pub fn customizations(&self) -> &Customizations {
        &self.customizations
    }

    /// The Config workload declared for a kind, if any.
    pub(crate) fn declared_workload(
        &self,
        api_version: &str,
        kind: &str,
    ) -> Option<&CustomWorkload> {
        self.workloads
            .get(&(api_version.to_string(), kind.to_string()))
    }

    /// Whether a CRD or the Config declared the kind's scope.
    pub(crate) fn states_scope(&self, group: &str, kind: &str) -> bool {
        self.scopes
            .contains_key(&(group.to_string(), kind.to_string()))
    }

    pub(crate) fn is_namespaced(&self, group: &str, kind: &str) -> bool {
        match self.scopes.get(&(group.to_string(), kind.to_string())) {
            Some(namespaced) => *namespaced,
            None => native::is_namespaced(group, kind),
        }
    }

    /// Who answers `operation` for the template, in Karmada's order: a customization of the
    /// fleet (or a Config workload), a built-in script, the native rules; none when no
    /// interpreter has it (the template is then no workload, is not revised, has no
    /// dependencies).
    fn answer(&self, template: &Template, operation: Operation) -> Option<Answer<'_>> {
        let key = (template.api_version.clone(), template.kind().to_string());
        if let Some(rules) = scripts(self.customizations.rules(&key), operation) {
            return Some(Answer::Scripts(rules, false));
        }
        if operation != Operation::DependencyInterpretation
            && let Some(workload) = self.workloads.get(&key)
        {
            return Some(Answer::Config(workload));
        }
        if let Some(rules) = scripts(thirdparty::rules(&key), operation) {
            return Some(Answer::Scripts(rules, true));
        }
        let native = match operation {
            Operation::ReplicaResource => native::replicas(template).is_some(),
            Operation::ReplicaRevision => native::replica_field(template).is_some(),
            Operation::DependencyInterpretation => dependencies::dependencies(template).is_some(),
        };
        native.then_some(Answer::Native)
    }

    /// Who answers `operation` for the template, for `fedrender plan`.
    pub fn supplier(&self, template: &Template, operation: Operation) -> Option<Supplier> {
        Some(match self.answer(template, operation)? {
            Answer::Scripts(_, true) => Supplier::BuiltIn,
            Answer::Scripts(rules, false) => Supplier::Customization {
                name: rules[0].customization.clone(),
                origin: rules[0].origin.clone(),
            },
            Answer::Config(workload) => Supplier::Config(workload.origin.clone()),
            Answer::Native => Supplier::Native,
        })
    }

    /// The replicas and per-replica requirements of a template, or `None` when it is not a
    /// workload to Karmada. A script's failure is an error naming the script.
    pub(crate) fn replica_resource(
        &self,
        template: &Template,
    ) -> Result<Option<ReplicaResource>, String> {
        let resource = match self.answer(template, Operation::ReplicaResource) {
            None => return Ok(None),
            Some(Answer::Config(workload)) => {
                let replicas = template
                    .object
                    .pointer(&workload.replicas)
                    .and_then(Value::as_i64)
                    .unwrap_or(1);
                let pod_spec = workload
                    .pod_template
                    .as_ref()
                    .and_then(|pointer| crate::json_pointer::pointer(&template.object, pointer))
                    .and_then(|pod| pod.field("spec"));
                native_resource(replicas, pod_spec)?
            }
            Some(Answer::Native) => {
                let replicas = native::replicas(template).unwrap_or_default();
                native_resource(replicas, native::pod_spec(template))?
            }
            Some(Answer::Scripts(rules, _)) => {
                let rule = &rules[0];
                let failed = |problem: String| rule.failed(Operation::ReplicaResource, &problem);
                let (replicas, requirements) =
                    lua::get_replicas(&rule.script, &template.object).map_err(failed)?;
                let request = match &requirements {
                    Some(requirements) => requested_resources(requirements).map_err(failed)?,
                    None => BTreeMap::new(),
                };
                ReplicaResource {
                    replicas,
                    request,
                    has_requirements: requirements.is_some(),
                }
            }
        };
        Ok(Some(resource))
    }

    /// The object one cluster receives before overrides: the template with the cluster's
    /// replicas written in by the kind's `ReviseReplica` (unchanged when it has none).
    pub(crate) fn revise(&self, template: &Template, replicas: i64) -> Result<Value, String> {
        let in_place = |pointer: &str| {
            let mut object = template.object.clone();
            native::write_replicas(&mut object, pointer, replicas);
            object
        };
        match self.answer(template, Operation::ReplicaRevision) {
            None => Ok(template.object.clone()),
            Some(Answer::Config(workload)) => Ok(in_place(&workload.replicas)),
            Some(Answer::Native) => Ok(match native::replica_field(template) {
                Some(pointer) => in_place(pointer),
                None => template.object.clone(),
            }),
            Some(Answer::Scripts(rules, _)) => {
                lua::revise_replica(&rules[0].script, &template.object, replicas)
                    .map_err(|problem| rules[0].failed(Operation::ReplicaRevision, &problem))
            }
        }
    }

    /// The objects a template depends on (propagateDeps). Several customizations of one kind
    /// may each interpret dependencies: Karmada takes the union.
    ///
    /// A customization that fails is an error. Karmada's built-in scripts fail on some
    /// templates (a Flux OCIRepository without `serviceAccountName`, say); Karmada then still
    /// propagates the template, without dependencies, so that is what a build does, saying
    /// why in [`FoundDependencies::failure`]. A built-in script's nil means none: Karmada's
    /// scripts return nil for a pod template that names nothing.
    pub fn dependencies(&self, template: &Template) -> Result<FoundDependencies, String> {
        let key = (template.api_version.clone(), template.kind().to_string());
        let script_rules = scripts(
            self.customizations.rules(&key),
            Operation::DependencyInterpretation,
        )
        .map(|rules| (rules, false))
        .or_else(|| {
            scripts(thirdparty::rules(&key), Operation::DependencyInterpretation)
                .map(|rules| (rules, true))
        });
        let Some((rules, built_in)) = script_rules else {
            return Ok(FoundDependencies {
                dependencies: dependencies::dependencies(template).unwrap_or_default(),
                failure: None,
            });
        };
        let mut found: Vec<Dependency> = Vec::new();
        for rule in rules {
            let answer =
                lua::get_dependencies(&rule.script, &template.object).and_then(
                    |answer| match answer {
                        Some(references) => customization::dependency_references(&references),
                        None if built_in => Ok(Vec::new()),
                        None => Err("GetDependencies returned nil, not a list".to_string()),
                    },
                );
            match answer {
                Ok(dependencies) => {
                    for dependency in dependencies {
                        if !found.contains(&dependency) {
                            found.push(dependency);
                        }
                    }
                }
                Err(problem) if built_in => {
                    return Ok(FoundDependencies {
                        dependencies: Vec::new(),
                        failure: Some(rule.failed(Operation::DependencyInterpretation, &problem)),
                    });
                }
                Err(problem) => {
                    return Err(rule.failed(Operation::DependencyInterpretation, &problem));
                }
            }
        }
        Ok(FoundDependencies {
            dependencies: found,
            failure: None,
        })
    }
}

/// A template's dependencies, and why there are none when Karmada's built-in interpretation
/// failed on it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FoundDependencies {
    /// What the template depends on, in the interpreter's order.
    pub dependencies: Vec<Dependency>,
    /// Why the built-in interpretation found none, when it failed.
    pub failure: Option<String>,
}

/// What answers an operation for a template.
enum Answer<'a> {
    /// Scripts (one, but several customizations may each interpret dependencies), and whether
    /// they are built in.
    Scripts(&'a [Rule], bool),
    Config(&'a CustomWorkload),
    Native,
}

/// The scripts for an operation among a target's rules, if any.
fn scripts(rules: Option<&TargetRules>, operation: Operation) -> Option<&[Rule]> {
    let rules = rules?;
    let scripts = match operation {
        Operation::ReplicaResource => rules.replica_resource.as_slice(),
        Operation::ReplicaRevision => rules.replica_revision.as_slice(),
        Operation::DependencyInterpretation => rules.dependency_interpretation.as_slice(),
    };
    (!scripts.is_empty()).then_some(scripts)
}

/// A native (or Config-declared) workload's replicas and requirements; a malformed resource
/// quantity is an error (the API server would reject the template).
fn native_resource(replicas: i64, pod_spec: Option<&Value>) -> Result<ReplicaResource, String> {
    let request = match pod_spec {
        Some(pod) => requests::resource_request(pod)?,
        None => BTreeMap::new(),
    };
    let has_requirements = !request.is_empty() || pod_spec.is_some_and(native::has_node_claim);
    Ok(ReplicaResource {
        replicas,
        request,
        has_requirements,
    })
}

/// `replicaRequirements.resourceRequest` of a script's answer, read as Karmada reads it into a
/// `ResourceList`.
fn requested_resources(requirements: &Value) -> Result<BTreeMap<String, Quantity>, String> {
    let Some(list) = requirements.field("resourceRequest") else {
        return Ok(BTreeMap::new());
    };
    let Some(list) = list.as_object() else {
        return Err(format!(
            "replicaRequirements.resourceRequest must be a map of quantities, not {list}"
        ));
    };
    list.iter()
        .filter(|(_, amount)| !amount.is_null())
        .map(|(name, amount)| {
            quantity_from_json(amount)
                .map(|quantity| (name.clone(), quantity))
                .map_err(|problem| format!("replicaRequirements.resourceRequest.{name}: {problem}"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostics::FieldLines;
    use crate::diagnostics::Located;
    use customization::ResourceInterpreterCustomization;
    use serde_json::json;

    fn template(api_version: &str, kind: &str, object: Value) -> Template {
        Template::for_test(api_version, kind, "shop", "web", object)
    }

    fn with_customization(target_api_version: &str, kind: &str, rules: Value) -> Interpreter {
        let item: ResourceInterpreterCustomization = serde_json::from_value(json!({
            "apiVersion": "config.karmada.io/v1alpha1",
            "kind": "ResourceInterpreterCustomization",
            "metadata": {"name": "custom"},
            "spec": {"target": {"apiVersion": target_api_version, "kind": kind},
                     "customizations": rules}
        }))
        .unwrap();
        let (customizations, errors) = Customizations::admit(&[Located {
            origin: Origin::new("custom.yaml", 0, 1),
            fields: FieldLines::default(),
            item,
        }]);
        assert!(errors.is_empty(), "{errors:?}");
        let mut interpreter = Interpreter::default();
        interpreter.set_customizations(customizations);
        interpreter
    }

    #[test]
    fn declared_workloads_read_and_revise_their_own_replica_field() {
        let mut interpreter = Interpreter::default();
        interpreter.declare_workload(
            "argoproj.io/v1alpha1",
            "Rollout",
            CustomWorkload {
                replicas: "/spec/replicas".to_string(),
                pod_template: Some("/spec/template".to_string()),
                origin: Origin::new("config.yaml", 0, 1),
            },
        );
        let rollout = template(
            "argoproj.io/v1alpha1",
            "Rollout",
            json!({"spec": {"replicas": 4,
            "template": {"spec": {"nodeSelector": {"disk": "ssd"}}}}}),
        );
        let resource = interpreter.replica_resource(&rollout).unwrap().unwrap();
        assert_eq!(resource.replicas, 4);
        assert!(
            resource.has_requirements,
            "the node selector is a node claim"
        );
        assert_eq!(
            interpreter.revise(&rollout, 2).unwrap()["spec"]["replicas"],
            json!(2)
        );
        assert_eq!(
            interpreter.supplier(&rollout, Operation::ReplicaResource),
            Some(Supplier::Config(Origin::new("config.yaml", 0, 1)))
        );
        assert_eq!(
            Interpreter::default().replica_resource(&rollout).unwrap(),
            None
        );
    }

    #[test]
    fn scopes_come_from_the_table_and_from_crds() {
        let mut interpreter = Interpreter::default();
        assert!(!interpreter.is_namespaced("", "Namespace"));
        assert!(interpreter.is_namespaced("apps", "Deployment"));
        assert!(interpreter.is_namespaced("example.com", "Widget"));
        interpreter.declare_scope("example.com", "Widget", false);
        assert!(!interpreter.is_namespaced("example.com", "Widget"));
    }

    // karmada pkg/resourceinterpreter/interpreter.go: a customization answers before the
    // native interpreter, and replaces it for the operations it defines only.
    #[test]
    fn a_customization_replaces_the_native_interpreter_for_its_operations_only() {
        let deployment = template(
            "apps/v1",
            "Deployment",
            json!({"metadata": {"name": "web", "namespace": "shop"},
                   "spec": {"replicas": 6, "template": {"spec": {
                       "serviceAccountName": "runner",
                       "containers": [{"name": "a", "envFrom": [{"configMapRef": {"name": "env"}}]}]}}}}),
        );
        let interpreter = with_customization(
            "apps/v1",
            "Deployment",
            json!({"dependencyInterpretation": {"luaScript":
                "function GetDependencies(obj)\n\
                   return {{apiVersion = 'v1', kind = 'Secret', namespace = obj.metadata.namespace, name = 'extra'}}\n\
                 end"}}),
        );
        let names: Vec<String> = interpreter
            .dependencies(&deployment)
            .unwrap()
            .dependencies
            .into_iter()
            .map(|dependency| match dependency {
                Dependency::Named(key) => format!("{}/{}", key.kind, key.name),
                other => format!("{other:?}"),
            })
            .collect();
        assert_eq!(
            names,
            vec!["Secret/extra"],
            "not merged with the native rules"
        );
        assert_eq!(
            interpreter
                .replica_resource(&deployment)
                .unwrap()
                .unwrap()
                .replicas,
            6,
            "replicas still come from the native interpreter"
        );
        assert_eq!(
            interpreter.supplier(&deployment, Operation::ReplicaRevision),
            Some(Supplier::Native)
        );
        assert!(matches!(
            interpreter.supplier(&deployment, Operation::DependencyInterpretation),
            Some(Supplier::Customization { name, .. }) if name == "custom"
        ));
    }

    #[test]
    fn a_scripts_failure_names_the_operation_and_the_customization() {
        let widget = template("example.io/v1", "Widget", json!({"spec": {}}));
        let interpreter = with_customization(
            "example.io/v1",
            "Widget",
            json!({"replicaResource": {"luaScript":
                "function GetReplicas(obj)\n  return obj.spec.size.count, nil\nend"}}),
        );
        let problem = interpreter.replica_resource(&widget).unwrap_err();
        assert_eq!(
            problem,
            "replicaResource of ResourceInterpreterCustomization custom (custom.yaml:1) failed: \
             custom.yaml:3: attempt to index field 'size' (a nil value)"
        );
    }

    // karmada lua.go GetReplicas: the requirements are read into a ReplicaRequirements, whose
    // resourceRequest holds quantities.
    #[test]
    fn a_malformed_resource_request_from_a_script_is_an_error_naming_the_resource() {
        let widget = template("example.io/v1", "Widget", json!({"spec": {}}));
        let interpreter = with_customization(
            "example.io/v1",
            "Widget",
            json!({"replicaResource": {"luaScript":
                "function GetReplicas(obj)\n  return 2, {resourceRequest = {cpu = 'lots'}}\nend"}}),
        );
        let problem = interpreter.replica_resource(&widget).unwrap_err();
        assert!(
            problem.starts_with("replicaResource of ResourceInterpreterCustomization custom")
                && problem.contains("replicaRequirements.resourceRequest.cpu: quantity \"lots\""),
            "{problem}"
        );
    }

    #[test]
    fn a_customized_workload_is_revised_and_scheduled_by_its_scripts() {
        let widget = template(
            "example.io/v1",
            "Widget",
            json!({"kind": "Widget", "spec": {"size": 5, "pod": {"spec": {"containers": [
                {"name": "a", "resources": {"requests": {"memory": "1Gi"}}}]}}}}),
        );
        let interpreter = with_customization(
            "example.io/v1",
            "Widget",
            json!({
                "replicaResource": {"luaScript": "local kube = require('kube')\n\
                    function GetReplicas(obj)\n\
                      return obj.spec.size, kube.accuratePodRequirements(obj.spec.pod)\n\
                    end"},
                "replicaRevision": {"luaScript": "function ReviseReplica(obj, n)\n\
                    obj.spec.size = n\n return obj\nend"}
            }),
        );
        let resource = interpreter.replica_resource(&widget).unwrap().unwrap();
        assert_eq!(resource.replicas, 5);
        assert_eq!(
            resource.request,
            BTreeMap::from([("memory".to_string(), "1Gi".parse().unwrap())])
        );
        assert_eq!(
            interpreter.revise(&widget, 2).unwrap()["spec"]["size"],
            json!(2)
        );
        assert_eq!(
            Interpreter::default().replica_resource(&widget).unwrap(),
            None,
            "without the customization a Widget is no workload"
        );
    }
}
