//! `ResourceInterpreterCustomization` objects of the fleet (`config.karmada.io/v1alpha1`, karmada
//! pkg/apis/config/v1alpha1/resourceinterpretercustomization_types.go): configuration, never
//! rendered. Admission follows Karmada's webhook (karmada
//! pkg/webhook/resourceinterpretercustomization): every script must compile, and two
//! customizations may not both define one operation for one target — except
//! `dependencyInterpretation`, whose answers Karmada merges.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;

use super::dependencies::Dependency;
use super::lua::Script;
use super::operation::Operation;
use crate::api::meta::{LabelSelector, ObjectMeta};
use crate::diagnostics::{Diagnostic, Located, Origin};
use crate::object::{ObjectKey, api_group};

pub(crate) const CUSTOMIZATION_API_VERSION: &str = "config.karmada.io/v1alpha1";

/// A `ResourceInterpreterCustomization` (`config.karmada.io/v1alpha1`): Lua that answers interpreter operations for one kind.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ResourceInterpreterCustomization {
    /// `config.karmada.io/v1alpha1`.
    pub api_version: String,
    /// `ResourceInterpreterCustomization`.
    pub kind: String,
    /// Its name, which orders customizations of one target.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// The target kind and the scripts.
    pub spec: CustomizationSpec,
}

/// `spec`: which kind it customizes and how.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CustomizationSpec {
    /// The kind customized.
    pub target: CustomizationTarget,
    /// The Lua script of each operation.
    pub customizations: CustomizationRules,
}

/// `spec.target`: the kind, by apiVersion and kind.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CustomizationTarget {
    /// The kind's apiVersion (`apps/v1`).
    pub api_version: String,
    /// The kind (`Deployment`).
    pub kind: String,
}

/// `spec.customizations`: one optional rule per interpreter operation.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CustomizationRules {
    #[serde(default)]
    pub(crate) retention: Option<LuaRule>,
    #[serde(default)]
    pub(crate) replica_resource: Option<LuaRule>,
    #[serde(default)]
    pub(crate) component_resource: Option<LuaRule>,
    #[serde(default)]
    pub(crate) replica_revision: Option<LuaRule>,
    #[serde(default)]
    pub(crate) status_reflection: Option<LuaRule>,
    #[serde(default)]
    pub(crate) status_aggregation: Option<LuaRule>,
    #[serde(default)]
    pub(crate) health_interpretation: Option<LuaRule>,
    #[serde(default)]
    pub(crate) dependency_interpretation: Option<LuaRule>,
}

impl CustomizationRules {
    /// The operations a build runs, with their scripts.
    fn rendered(&self) -> [(Operation, Option<&LuaRule>); 3] {
        [
            (Operation::ReplicaResource, self.replica_resource.as_ref()),
            (Operation::ReplicaRevision, self.replica_revision.as_ref()),
            (
                Operation::DependencyInterpretation,
                self.dependency_interpretation.as_ref(),
            ),
        ]
    }

    /// The operations only a live control plane runs, by field name, with their scripts.
    fn live_only(&self) -> [(&'static str, Option<&LuaRule>); 5] {
        [
            ("retention", self.retention.as_ref()),
            ("statusReflection", self.status_reflection.as_ref()),
            ("statusAggregation", self.status_aggregation.as_ref()),
            ("healthInterpretation", self.health_interpretation.as_ref()),
            // Read only with the MultiplePodTemplatesScheduling feature gate, off by default.
            ("componentResource", self.component_resource.as_ref()),
        ]
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct LuaRule {
    pub(crate) lua_script: String,
}

/// One operation's script for one target.
#[derive(Debug, Clone)]
pub(crate) struct Rule {
    /// The customization's name (for a built-in one, the kind's).
    pub customization: String,
    pub origin: Origin,
    /// Who wrote it, for messages.
    pub author: String,
    pub script: Script,
}

impl Rule {
    /// A failure of the script, naming the operation and the script's author.
    pub fn failed(&self, operation: Operation, problem: &str) -> String {
        format!("{operation} of {} failed: {problem}", self.author)
    }
}

/// The scripts of one target kind.
#[derive(Debug, Clone, Default)]
pub struct TargetRules {
    pub(crate) replica_resource: Option<Rule>,
    pub(crate) replica_revision: Option<Rule>,
    pub(crate) dependency_interpretation: Vec<Rule>,
}

/// Operations of a customization that a build reads but does not run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IgnoredOperations {
    /// The customization's name.
    pub customization: String,
    /// Where it is written.
    pub origin: Origin,
    /// `apiVersion kind` of the target.
    pub target: String,
    /// The operations, by field (`statusReflection`, `healthInterpretation` …).
    pub fields: Vec<&'static str>,
}

/// The fleet's customizations, by target (apiVersion, kind).
#[derive(Debug, Clone, Default)]
pub struct Customizations {
    targets: BTreeMap<(String, String), TargetRules>,
    /// Operations of the fleet's customizations that only a live control plane runs.
    pub ignored: Vec<IgnoredOperations>,
}

impl Customizations {
    /// The rules of the customizations of `target` (apiVersion, kind), merged.
    pub fn rules(&self, target: &(String, String)) -> Option<&TargetRules> {
        self.targets.get(target)
    }

    /// Admits the customizations in input order; what Karmada's webhook would refuse is an
    /// error at its line, naming the customization it conflicts with.
    pub(crate) fn admit(
        customizations: &[Located<ResourceInterpreterCustomization>],
    ) -> (Customizations, Vec<Diagnostic>) {
        let mut admitted = Customizations::default();
        let mut errors = Vec::new();
        let mut names: BTreeMap<&str, &Origin> = BTreeMap::new();
        for located in customizations {
            let customization = &located.item;
            let name = customization.metadata.name.as_str();
            let id = format!("ResourceInterpreterCustomization {name}");
            let at = |field: &str| located.fields.origin(&located.origin, field);
            let mut error = |origin: Origin, message: String| {
                errors.push(Diagnostic::error(Some(origin), format!("{id}: {message}")));
            };
            if customization.api_version != CUSTOMIZATION_API_VERSION {
                error(
                    at("apiVersion"),
                    format!(
                        "unsupported apiVersion {}; interpreter customizations are \
                         {CUSTOMIZATION_API_VERSION}",
                        customization.api_version
                    ),
                );
                continue;
            }
            if name.is_empty() {
                error(at("metadata"), "has no metadata.name".to_string());
                continue;
            }
            if let Some(first) = names.insert(name, &located.origin) {
                error(
                    located.origin.clone(),
                    format!("duplicate object: already defined at {first}"),
                );
                continue;
            }
            let target = &customization.spec.target;
            if target.api_version.is_empty() || target.kind.is_empty() {
                error(
                    at("spec.target"),
                    "spec.target needs both apiVersion and kind".to_string(),
                );
                continue;
            }
            let key = (target.api_version.clone(), target.kind.clone());
            let rules = &customization.spec.customizations;
            let mut ignored = Vec::new();
            for (field, rule) in rules.live_only() {
                let Some(rule) = rule else { continue };
                let field_path = format!("spec.customizations.{field}.luaScript");
                let script = script_at(located, &field_path, &rule.lua_script);
                if let Err(problem) = script.compile() {
                    error(at(&field_path), format!("{field}: {problem}"));
                }
                ignored.push(field);
            }
            if !ignored.is_empty() {
                admitted.ignored.push(IgnoredOperations {
                    customization: name.to_string(),
                    origin: located.origin.clone(),
                    target: format!("{} {}", target.api_version, target.kind),
                    fields: ignored,
                });
            }
            for (operation, rule) in rules.rendered() {
                let Some(rule) = rule else { continue };
                let field_path = format!("spec.customizations.{operation}.luaScript");
                let script = script_at(located, &field_path, &rule.lua_script);
                if let Err(problem) = script.check(operation.function()) {
                    error(at(&field_path), format!("{operation}: {problem}"));
                    continue;
                }
                let rule = Rule {
                    customization: name.to_string(),
                    origin: located.origin.clone(),
                    author: format!("{id} ({})", located.origin),
                    script,
                };
                let slot = admitted.targets.entry(key.clone()).or_default();
                let existing = match operation {
                    Operation::ReplicaResource => &mut slot.replica_resource,
                    Operation::ReplicaRevision => &mut slot.replica_revision,
                    Operation::DependencyInterpretation => {
                        slot.dependency_interpretation.push(rule);
                        continue;
                    }
                };
                match existing {
                    Some(first) => error(
                        at(&format!("spec.customizations.{operation}")),
                        format!(
                            "conflicts with ResourceInterpreterCustomization {} ({}), which \
                             already defines {operation} for {} {}; Karmada admits one script \
                             per operation and target",
                            first.customization, first.origin, target.api_version, target.kind
                        ),
                    ),
                    None => *existing = Some(rule),
                }
            }
        }
        (admitted, errors)
    }
}

/// A script field as a [`Script`] whose line numbers are the file's: a block scalar's text
/// starts on the line after its key.
fn script_at(
    located: &Located<ResourceInterpreterCustomization>,
    field: &str,
    source: &str,
) -> Script {
    let key_line = located.fields.origin(&located.origin, field).line;
    let first_line = if source.contains('\n') {
        key_line + 1
    } else {
        key_line
    };
    Script::new(&located.origin.file, first_line, source)
}

/// A `GetDependencies` answer as dependencies, checked as Karmada checks it
/// (karmada pkg/util/interpreter/validation `VerifyDependencies`).
pub(crate) fn dependency_references(references: &Value) -> Result<Vec<Dependency>, String> {
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Reference {
        #[serde(default)]
        api_version: String,
        #[serde(default)]
        kind: String,
        #[serde(default)]
        namespace: String,
        #[serde(default)]
        name: String,
        #[serde(default)]
        label_selector: Option<LabelSelector>,
    }
    let references: Vec<Reference> = serde_json::from_value(references.clone())
        .map_err(|problem| format!("the dependencies are not a list of references: {problem}"))?;
    references
        .into_iter()
        .enumerate()
        .map(|(index, reference)| {
            let field = |name: &str| format!("dependencies[{index}].{name}");
            if reference.api_version.is_empty() {
                return Err(format!(
                    "{}: missing required apiVersion",
                    field("apiVersion")
                ));
            }
            if reference.kind.is_empty() {
                return Err(format!("{}: missing required kind", field("kind")));
            }
            let group = api_group(&reference.api_version).to_string();
            match (reference.name.is_empty(), reference.label_selector) {
                (false, _) => Ok(Dependency::Named(ObjectKey {
                    group,
                    kind: reference.kind,
                    namespace: reference.namespace,
                    name: reference.name,
                })),
                (true, Some(selector)) => Ok(Dependency::Labelled {
                    group,
                    kind: reference.kind,
                    namespace: reference.namespace,
                    selector,
                }),
                (true, None) => Err(format!(
                    "dependencies[{index}]: a dependency needs a name or a labelSelector"
                )),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn located(
        name: &str,
        target_kind: &str,
        rules: Value,
    ) -> Located<ResourceInterpreterCustomization> {
        let item: ResourceInterpreterCustomization = serde_json::from_value(json!({
            "apiVersion": CUSTOMIZATION_API_VERSION,
            "kind": "ResourceInterpreterCustomization",
            "metadata": {"name": name},
            "spec": {"target": {"apiVersion": "example.io/v1", "kind": target_kind},
                     "customizations": rules}
        }))
        .unwrap();
        Located {
            origin: Origin::new(format!("{name}.yaml"), 0, 1),
            fields: crate::diagnostics::FieldLines::default(),
            item,
        }
    }

    fn replicas_rule() -> Value {
        json!({"luaScript": "function GetReplicas(obj) return 1, nil end"})
    }

    // karmada webhook helper.go validateCustomizationRule.
    #[test]
    fn two_customizations_may_not_define_one_operation_for_one_target() {
        let (admitted, errors) = Customizations::admit(&[
            located(
                "first",
                "Widget",
                json!({"replicaResource": replicas_rule()}),
            ),
            located(
                "second",
                "Widget",
                json!({"replicaResource": replicas_rule()}),
            ),
            located(
                "other-kind",
                "Gadget",
                json!({"replicaResource": replicas_rule()}),
            ),
        ]);
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(
            errors[0].message.contains(
                "ResourceInterpreterCustomization second: conflicts with \
                 ResourceInterpreterCustomization first (first.yaml:1)"
            ),
            "{}",
            errors[0].message
        );
        let widget = admitted
            .rules(&("example.io/v1".into(), "Widget".into()))
            .unwrap();
        assert_eq!(
            widget.replica_resource.as_ref().unwrap().customization,
            "first"
        );
    }

    // Karmada skips InterpretDependency in the conflict check and merges the answers.
    #[test]
    fn dependency_interpretations_of_one_target_add_up() {
        let dependencies = json!({"dependencyInterpretation": {"luaScript":
            "function GetDependencies(obj) return {} end"}});
        let (admitted, errors) = Customizations::admit(&[
            located("first", "Widget", dependencies.clone()),
            located("second", "Widget", dependencies),
        ]);
        assert!(errors.is_empty(), "{errors:?}");
        let widget = admitted
            .rules(&("example.io/v1".into(), "Widget".into()))
            .unwrap();
        assert_eq!(widget.dependency_interpretation.len(), 2);
    }

    #[test]
    fn scripts_must_compile_and_define_their_function() {
        let (_, errors) = Customizations::admit(&[
            located(
                "syntax",
                "Widget",
                json!({"replicaRevision": {"luaScript": "function ReviseReplica(obj, n)\n  return = obj\nend"}}),
            ),
            located(
                "misnamed",
                "Gadget",
                json!({"replicaResource": {"luaScript": "function GetReplica(obj) return 1 end"}}),
            ),
            located(
                "live-only",
                "Doohickey",
                json!({"healthInterpretation": {"luaScript": "function InterpretHealth(obj) return true"}}),
            ),
        ]);
        let messages: Vec<&str> = errors.iter().map(|e| e.message.as_str()).collect();
        assert_eq!(messages.len(), 3, "{messages:?}");
        assert!(
            messages[0].contains("syntax: replicaRevision: syntax.yaml:3:"),
            "{}",
            messages[0]
        );
        assert!(
            messages[1].contains("the script defines no function GetReplicas"),
            "{}",
            messages[1]
        );
        assert!(
            messages[2].contains("healthInterpretation:"),
            "{}",
            messages[2]
        );
    }

    #[test]
    fn live_only_operations_are_recorded_as_ignored() {
        let (admitted, errors) = Customizations::admit(&[located(
            "status",
            "Widget",
            json!({"statusAggregation": {"luaScript": "function AggregateStatus(o, s) return o end"},
                   "retention": {"luaScript": "function Retain(d, o) return d end"}}),
        )]);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(
            admitted.ignored,
            vec![IgnoredOperations {
                customization: "status".into(),
                origin: Origin::new("status.yaml", 0, 1),
                target: "example.io/v1 Widget".into(),
                fields: vec!["retention", "statusAggregation"],
            }]
        );
    }

    // karmada pkg/util/interpreter/validation/validation_test.go.
    #[test]
    fn dependency_references_need_api_version_kind_and_a_name_or_selector() {
        let ok = dependency_references(&json!([
            {"apiVersion": "v1", "kind": "Secret", "namespace": "shop", "name": "creds"},
            {"apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice", "namespace": "shop",
             "labelSelector": {"matchLabels": {"app": "web"}}}
        ]))
        .unwrap();
        assert_eq!(ok.len(), 2);
        assert!(
            matches!(&ok[0], Dependency::Named(key) if key.kind == "Secret" && key.group.is_empty())
        );
        assert!(
            matches!(&ok[1], Dependency::Labelled { group, .. } if group == "discovery.k8s.io")
        );
        for (bad, expected) in [
            (
                json!([{"kind": "Secret", "name": "x"}]),
                "missing required apiVersion",
            ),
            (
                json!([{"apiVersion": "v1", "name": "x"}]),
                "missing required kind",
            ),
            (
                json!([{"apiVersion": "v1", "kind": "Secret"}]),
                "needs a name or a labelSelector",
            ),
            (json!({"apiVersion": "v1"}), "not a list"),
        ] {
            let problem = dependency_references(&bad).unwrap_err();
            assert!(problem.contains(expected), "{problem}");
        }
    }
}
