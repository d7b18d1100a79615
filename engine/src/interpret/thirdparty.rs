//! Karmada's built-in interpretation of popular third-party kinds (karmada
//! pkg/resourceinterpreter/default/thirdparty): fedrender's own Lua scripts, written from the
//! rules Karmada's compute and run by the same engine as the fleet's customizations, so that an
//! object crosses into Lua and back exactly as it does in Karmada.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use super::customization::{Rule, TargetRules};
use super::lua::Script;
use super::operation::Operation;
use crate::diagnostics::Origin;

/// One built-in script: its target and the operations it answers.
struct BuiltIn {
    api_version: &'static str,
    kind: &'static str,
    operations: &'static [Operation],
    source: &'static str,
}

/// Every third-party kind Karmada interprets for one of the operations a build runs (the
/// others, and Volcano Job, MPIJob, RayCluster, SparkApplication and Kyverno's policies, have
/// only status, health, retention or component scripts there).
const BUILT_IN: &[BuiltIn] = &[
    BuiltIn {
        api_version: "apps.kruise.io/v1alpha1",
        kind: "AdvancedCronJob",
        operations: &[Operation::DependencyInterpretation],
        source: include_str!("thirdparty/apps.kruise.io/v1alpha1/AdvancedCronJob.lua"),
    },
    BuiltIn {
        api_version: "apps.kruise.io/v1alpha1",
        kind: "BroadcastJob",
        operations: &[
            Operation::ReplicaResource,
            Operation::ReplicaRevision,
            Operation::DependencyInterpretation,
        ],
        source: include_str!("thirdparty/apps.kruise.io/v1alpha1/BroadcastJob.lua"),
    },
    BuiltIn {
        api_version: "apps.kruise.io/v1alpha1",
        kind: "CloneSet",
        operations: &[
            Operation::ReplicaResource,
            Operation::ReplicaRevision,
            Operation::DependencyInterpretation,
        ],
        source: include_str!("thirdparty/apps.kruise.io/v1alpha1/CloneSet.lua"),
    },
    BuiltIn {
        api_version: "apps.kruise.io/v1alpha1",
        kind: "DaemonSet",
        operations: &[Operation::DependencyInterpretation],
        source: include_str!("thirdparty/apps.kruise.io/v1alpha1/DaemonSet.lua"),
    },
    BuiltIn {
        api_version: "apps.kruise.io/v1alpha1",
        kind: "SidecarSet",
        operations: &[
            Operation::ReplicaResource,
            Operation::DependencyInterpretation,
        ],
        source: include_str!("thirdparty/apps.kruise.io/v1alpha1/SidecarSet.lua"),
    },
    BuiltIn {
        api_version: "apps.kruise.io/v1alpha1",
        kind: "UnitedDeployment",
        operations: &[
            Operation::ReplicaResource,
            Operation::ReplicaRevision,
            Operation::DependencyInterpretation,
        ],
        source: include_str!("thirdparty/apps.kruise.io/v1alpha1/UnitedDeployment.lua"),
    },
    BuiltIn {
        api_version: "apps.kruise.io/v1beta1",
        kind: "StatefulSet",
        operations: &[
            Operation::ReplicaResource,
            Operation::ReplicaRevision,
            Operation::DependencyInterpretation,
        ],
        source: include_str!("thirdparty/apps.kruise.io/v1beta1/StatefulSet.lua"),
    },
    BuiltIn {
        api_version: "argoproj.io/v1alpha1",
        kind: "Workflow",
        operations: &[
            Operation::ReplicaResource,
            Operation::ReplicaRevision,
            Operation::DependencyInterpretation,
        ],
        source: include_str!("thirdparty/argoproj.io/v1alpha1/Workflow.lua"),
    },
    BuiltIn {
        api_version: "flink.apache.org/v1beta1",
        kind: "FlinkDeployment",
        operations: &[Operation::ReplicaResource],
        source: include_str!("thirdparty/flink.apache.org/v1beta1/FlinkDeployment.lua"),
    },
    BuiltIn {
        api_version: "helm.toolkit.fluxcd.io/v2beta1",
        kind: "HelmRelease",
        operations: &[Operation::DependencyInterpretation],
        source: include_str!("thirdparty/helm.toolkit.fluxcd.io/v2beta1/HelmRelease.lua"),
    },
    BuiltIn {
        api_version: "kubeflow.org/v1",
        kind: "Notebook",
        operations: &[Operation::ReplicaResource],
        source: include_str!("thirdparty/kubeflow.org/v1/Notebook.lua"),
    },
    BuiltIn {
        api_version: "kubeflow.org/v1",
        kind: "PyTorchJob",
        operations: &[Operation::DependencyInterpretation],
        source: include_str!("thirdparty/kubeflow.org/v1/PyTorchJob.lua"),
    },
    BuiltIn {
        api_version: "kubeflow.org/v1",
        kind: "TFJob",
        operations: &[Operation::DependencyInterpretation],
        source: include_str!("thirdparty/kubeflow.org/v1/TFJob.lua"),
    },
    BuiltIn {
        api_version: "kustomize.toolkit.fluxcd.io/v1",
        kind: "Kustomization",
        operations: &[Operation::DependencyInterpretation],
        source: include_str!("thirdparty/kustomize.toolkit.fluxcd.io/v1/Kustomization.lua"),
    },
    BuiltIn {
        api_version: "ray.io/v1",
        kind: "RayJob",
        operations: &[Operation::DependencyInterpretation],
        source: include_str!("thirdparty/ray.io/v1/RayJob.lua"),
    },
    BuiltIn {
        api_version: "ray.io/v1",
        kind: "RayService",
        operations: &[
            Operation::ReplicaResource,
            Operation::ReplicaRevision,
            Operation::DependencyInterpretation,
        ],
        source: include_str!("thirdparty/ray.io/v1/RayService.lua"),
    },
    BuiltIn {
        api_version: "source.toolkit.fluxcd.io/v1",
        kind: "GitRepository",
        operations: &[Operation::DependencyInterpretation],
        source: include_str!("thirdparty/source.toolkit.fluxcd.io/v1/GitRepository.lua"),
    },
    BuiltIn {
        api_version: "source.toolkit.fluxcd.io/v1beta2",
        kind: "Bucket",
        operations: &[Operation::DependencyInterpretation],
        source: include_str!("thirdparty/source.toolkit.fluxcd.io/v1beta2/Bucket.lua"),
    },
    BuiltIn {
        api_version: "source.toolkit.fluxcd.io/v1beta2",
        kind: "HelmChart",
        operations: &[Operation::DependencyInterpretation],
        source: include_str!("thirdparty/source.toolkit.fluxcd.io/v1beta2/HelmChart.lua"),
    },
    BuiltIn {
        api_version: "source.toolkit.fluxcd.io/v1beta2",
        kind: "HelmRepository",
        operations: &[Operation::DependencyInterpretation],
        source: include_str!("thirdparty/source.toolkit.fluxcd.io/v1beta2/HelmRepository.lua"),
    },
    BuiltIn {
        api_version: "source.toolkit.fluxcd.io/v1beta2",
        kind: "OCIRepository",
        operations: &[Operation::DependencyInterpretation],
        source: include_str!("thirdparty/source.toolkit.fluxcd.io/v1beta2/OCIRepository.lua"),
    },
];

static RULES: LazyLock<BTreeMap<(String, String), TargetRules>> = LazyLock::new(|| {
    let mut rules = BTreeMap::new();
    for built_in in BUILT_IN {
        let file = format!(
            "built-in {}/{}.lua",
            built_in.api_version.split('/').next().unwrap_or_default(),
            built_in.kind
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_built_in_script_compiles_and_defines_its_operations_functions() {
        assert_eq!(BUILT_IN.len(), 21);
        for built_in in BUILT_IN {
            let script = Script::new(built_in.kind, 1, built_in.source);
            for operation in built_in.operations {
                script
                    .check(operation.function())
                    .unwrap_or_else(|problem| {
                        panic!("{} {}: {problem}", built_in.api_version, built_in.kind)
                    });
            }
        }
    }

    // karmada thirdparty/resourcecustomizations/apps.kruise.io/v1alpha1/CloneSet/testdata:
    // replicas and requirements from the pod template, revision of spec.replicas.
    #[test]
    fn a_clone_set_is_read_and_revised_like_a_deployment() {
        use serde_json::json;
        let rules = rules(&(
            "apps.kruise.io/v1alpha1".to_string(),
            "CloneSet".to_string(),
        ))
        .unwrap();
        let clone_set = json!({"apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet",
            "metadata": {"name": "web", "namespace": "shop"},
            "spec": {"replicas": 6, "template": {"spec": {
                "serviceAccountName": "web",
                "containers": [{"name": "web", "resources": {"requests": {"cpu": "500m"}}}]}}}});
        let replicas = rules.replica_resource.as_ref().unwrap();
        assert_eq!(
            crate::interpret::lua::get_replicas(&replicas.script, &clone_set).unwrap(),
            (6, Some(json!({"resourceRequest": {"cpu": "500m"}})))
        );
        let revision = rules.replica_revision.as_ref().unwrap();
        let revised =
            crate::interpret::lua::revise_replica(&revision.script, &clone_set, 2).unwrap();
        assert_eq!(revised["spec"]["replicas"], json!(2));
        let dependencies = &rules.dependency_interpretation[0];
        assert_eq!(
            crate::interpret::lua::get_dependencies(&dependencies.script, &clone_set).unwrap(),
            Some(
                json!([{"apiVersion": "v1", "kind": "ServiceAccount", "namespace": "shop",
                         "name": "web"}])
            )
        );
    }
}
