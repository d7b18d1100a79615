//! Karmada's built-in interpretation of popular third-party kinds (karmada
//! pkg/resourceinterpreter/default/thirdparty): fedrender's own Lua scripts, written from the
//! rules Karmada's compute and run by the same engine as the fleet's customizations, so that an
//! object crosses into Lua and back exactly as it does in Karmada.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use super::Operation;
use super::customization::{Rule, TargetRules};
use super::lua::Script;
use crate::diagnostics::Origin;

/// One built-in script: its target and the operations it answers.
struct BuiltIn {
    api_version: &'static str,
    kind: &'static str,
    operations: &'static [Operation],
    source: &'static str,
}

const BUILT_IN: &[BuiltIn] = &[];

static RULES: LazyLock<BTreeMap<(String, String), TargetRules>> = LazyLock::new(|| {
    let mut rules = BTreeMap::new();
    for built_in in BUILT_IN {
        let file = format!(
            "fedrender built-in {}/{}.lua",
            built_in.api_version, built_in.kind
        );
        let rule = Rule {
            customization: format!("{} {}", built_in.api_version, built_in.kind),
            origin: Origin::new(file.clone(), 0, 1),
            author: format!(
                "Karmada's built-in interpretation of {} {}",
                built_in.api_version, built_in.kind
            ),
            script: Script::new(&file, 1, built_in.source),
        };
        let slot: &mut TargetRules = rules
            .entry((built_in.api_version.to_string(), built_in.kind.to_string()))
            .or_default();
        for operation in built_in.operations {
            match operation {
                Operation::ReplicaResource => slot.replica_resource = Some(rule.clone()),
                Operation::ReplicaRevision => slot.replica_revision = Some(rule.clone()),
                Operation::DependencyInterpretation => {
                    slot.dependency_interpretation.push(rule.clone())
                }
            }
        }
    }
    rules
});

/// The built-in scripts for a target (apiVersion, kind).
pub fn rules(target: &(String, String)) -> Option<&'static TargetRules> {
    RULES.get(target)
}
