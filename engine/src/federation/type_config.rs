//! KubeFed's FederatedTypeConfigs: which kinds are federated and how, read from the input and
//! defaulted as KubeFed defaults them, with KubeFed's own for the kinds no input configures.

use std::collections::BTreeMap;

use super::decode::decode;
use crate::api::kubefed::{CORE_VERSION, FEDERATED_GROUP, TypeConfigDoc, current_group};
use crate::diagnostics::{Diagnostic, ErrorSink, Origin};
use crate::documents::{RawDocument, SourceFile};
use crate::interpret::Interpreter;
use crate::lint::Lint;
use crate::names;

/// What a FederatedTypeConfig says about one federated type, after defaulting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TypeConfig {
    /// `<target plural>[.<target group>]`.
    pub name: String,
    pub(crate) federated_kind: String,
    pub(crate) federated_version: String,
    pub(crate) target_group: String,
    pub(crate) target_version: String,
    pub(crate) target_kind: String,
    pub(crate) target_namespaced: bool,
    pub(crate) propagation_enabled: bool,
    /// Where the FTC was written; `None` for KubeFed's default types.
    pub origin: Option<Origin>,
}

impl TypeConfig {
    /// `"<group>/<version>"`, `v1` for the core group (the reference writes `/v1`).
    pub(crate) fn target_api_version(&self) -> String {
        if self.target_group.is_empty() {
            self.target_version.clone()
        } else {
            format!("{}/{}", self.target_group, self.target_version)
        }
    }

    pub(super) fn target_is_namespace(&self) -> bool {
        self.target_group.is_empty() && self.target_kind == "Namespace"
    }

    /// The federated type's scope: the target's, except that FederatedNamespace is
    /// namespaced while Namespace is not (kubefedctl enable `FederatedNamespacedToScope`).
    pub(super) fn federated_namespaced(&self) -> bool {
        self.target_namespaced || self.target_is_namespace()
    }

    pub(super) fn describe(&self) -> String {
        match &self.origin {
            Some(origin) => format!("FederatedTypeConfig {} ({origin})", self.name),
            None => format!("KubeFed's default FederatedTypeConfig {}", self.name),
        }
    }
}

/// The FederatedTypeConfigs the KubeFed Helm chart installs
/// (charts/kubefed/templates/federatedtypeconfig.yaml), all with propagation Enabled.
pub(crate) fn default_type_configs() -> Vec<TypeConfig> {
    let entry = |name: &str, group: &str, version: &str, kind: &str, namespaced: bool| TypeConfig {
        name: name.to_string(),
        federated_kind: format!("Federated{kind}"),
        federated_version: CORE_VERSION.to_string(),
        target_group: group.to_string(),
        target_version: version.to_string(),
        target_kind: kind.to_string(),
        target_namespaced: namespaced,
        propagation_enabled: true,
        origin: None,
    };
    vec![
        entry(
            "clusterroles.rbac.authorization.k8s.io",
            "rbac.authorization.k8s.io",
            "v1",
            "ClusterRole",
            false,
        ),
        entry("configmaps", "", "v1", "ConfigMap", true),
        entry("deployments.apps", "apps", "v1", "Deployment", true),
        entry(
            "ingresses.extensions",
            "extensions",
            "v1beta1",
            "Ingress",
            true,
        ),
        entry("jobs.batch", "batch", "v1", "Job", true),
        entry("namespaces", "", "v1", "Namespace", false),
        entry("replicasets.apps", "apps", "v1", "ReplicaSet", true),
        entry("secrets", "", "v1", "Secret", true),
        entry("serviceaccounts", "", "v1", "ServiceAccount", true),
        entry("services", "", "v1", "Service", true),
    ]
}

/// Types from FederatedTypeConfigs in the input, then KubeFed's defaults for federated kinds
/// no FTC in the input configures.
pub(super) fn read_type_configs(
    documents: &[&RawDocument],
    files: &[SourceFile],
    interpreter: &Interpreter,
    errors: &mut ErrorSink,
    warnings: &mut Vec<Diagnostic>,
) -> BTreeMap<String, TypeConfig> {
    let mut configs: BTreeMap<String, TypeConfig> = BTreeMap::new();
    let mut names: BTreeMap<String, Origin> = BTreeMap::new();
    for document in documents {
        let Some(doc) = errors.take(decode::<TypeConfigDoc>(document, files)) else {
            continue;
        };
        let Some(config) = errors.take(type_config(document.origin.clone(), doc)) else {
            continue;
        };
        let origin = document.origin.clone();
        if let Some(first) = names.get(&config.name) {
            errors.push(Diagnostic::error(
                Some(origin),
                format!(
                    "duplicate FederatedTypeConfig {}: already defined at {first}",
                    config.name
                ),
            ));
            continue;
        }
        if let Some(other) = configs.get(&config.federated_kind) {
            errors.push(Diagnostic::error(
                Some(origin),
                format!(
                    "FederatedTypeConfig {} configures {} again; {} already does",
                    config.name,
                    config.federated_kind,
                    other.describe()
                ),
            ));
            continue;
        }
        if config.target_namespaced
            && !interpreter.is_namespaced(&config.target_group, &config.target_kind)
        {
            warnings.push(Diagnostic::warning(Lint::IgnoredField,
                Some(origin.clone()),
                format!(
                    "FederatedTypeConfig {}: targetType.scope is Namespaced, but {} is cluster-scoped",
                    config.name, config.target_kind
                ),
            ));
        }
        names.insert(config.name.clone(), origin);
        configs.insert(config.federated_kind.clone(), config);
    }
    for config in default_type_configs() {
        if names.contains_key(&config.name) {
            continue;
        }
        configs
            .entry(config.federated_kind.clone())
            .or_insert(config);
    }
    configs
}

/// Defaulting (`SetFederatedTypeConfigDefaults`) and validation
/// (pkg/apis/core/v1beta1/validation `ValidateFederatedTypeConfig`).
fn type_config(origin: Origin, doc: TypeConfigDoc) -> Result<TypeConfig, Diagnostic> {
    let name = doc.metadata.name.clone();
    let fail = |message: String| {
        Diagnostic::error(
            Some(origin.clone()),
            format!("FederatedTypeConfig {name}: {message}"),
        )
    };
    let mut target = doc.spec.target_type;
    let federated = doc.spec.federated_type;
    let (plural, group) = match name.split_once('.') {
        Some((plural, group)) => (plural, Some(group)),
        None => (name.as_str(), None),
    };
    if target.plural_name.is_empty() {
        target.plural_name = plural.to_string();
    }
    if target.group.is_empty()
        && let Some(group) = group
    {
        target.group = group.to_string();
    }
    for (field, resource) in [("targetType", &target), ("federatedType", &federated)] {
        if resource.kind.is_empty() {
            return Err(fail(format!("spec.{field}.kind is required")));
        }
        if resource.version.is_empty() {
            return Err(fail(format!("spec.{field}.version is required")));
        }
        if !matches!(resource.scope.as_str(), "Namespaced" | "Cluster") {
            return Err(fail(format!(
                "spec.{field}.scope {:?} must be Namespaced or Cluster",
                resource.scope
            )));
        }
        if !resource.group.is_empty()
            && let Some(problem) = names::dns_subdomain_problem(&resource.group)
        {
            return Err(fail(format!(
                "spec.{field}.group {:?} {problem}",
                resource.group
            )));
        }
    }
    let expected = if target.group.is_empty() {
        target.plural_name.clone()
    } else {
        format!("{}.{}", target.plural_name, target.group)
    };
    if expected != name {
        return Err(fail(format!(
            "the name must be TARGET_PLURAL_NAME(.TARGET_GROUP_NAME), here {expected:?}"
        )));
    }
    if current_group(&federated.group) != FEDERATED_GROUP {
        return Err(fail(format!(
            "spec.federatedType.group {:?}: fedrender reads federated types of the default group {FEDERATED_GROUP} only",
            federated.group
        )));
    }
    let propagation_enabled = match doc.spec.propagation.as_str() {
        "Enabled" => true,
        "Disabled" => false,
        other => {
            return Err(fail(format!(
                "spec.propagation {other:?} must be Enabled or Disabled"
            )));
        }
    };
    Ok(TypeConfig {
        name,
        federated_kind: federated.kind,
        federated_version: federated.version,
        target_group: target.group,
        target_version: target.version,
        target_kind: target.kind,
        target_namespaced: target.scope == "Namespaced",
        propagation_enabled,
        origin: Some(origin),
    })
}
