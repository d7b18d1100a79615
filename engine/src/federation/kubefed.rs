//! KubeFed (Kubernetes Cluster Federation v2): federated types and their FederatedTypeConfig,
//! FederatedNamespace, overrides and ReplicaSchedulingPreference, read into bindings
//! (spec kubefed-fedv1.md §2; kubefed pkg/controller/sync, pkg/controller/util,
//! pkg/schedulingtypes at 16fb853).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use super::binding::{
    FederatedBinding, FederatedPlacement, NamespacePlacement, PlacementFields, PlannedReplicas,
    ReplicaScheduling,
};
use super::decode::{decode, identify};
use super::overrides::{ClusterOverride, OverrideOp};
use super::planner::{ClusterPreferences, Preferences};
use super::type_config::{TypeConfig, read_type_configs};
use crate::api::kubefed::{
    CORE_GROUP, CORE_VERSION, ClusterPreferencesDoc, DEFAULT_SYSTEM_NAMESPACE, FEDERATED_GROUP,
    FederatedObjectDoc, GROUPS, KubeFedConfigDoc, OverrideItemDoc, RspDoc, SCHEDULING_GROUP,
    SCHEDULING_VERSION, current_group,
};
use crate::api::meta::LabelSelector;
use crate::diagnostics::{Diagnostic, ErrorSink, Origin};
use crate::documents::{RawDocument, SourceFile};
use crate::interpret::{self, Interpreter};
use crate::lint::Lint;
use crate::names;
use crate::object::{ObjectKey, Template, api_group};

/// One decoded federated object, before bindings are made.
struct Federated {
    origin: Origin,
    kind: String,
    namespace: String,
    name: String,
    config: TypeConfig,
    template: Value,
    placement: PlacementFields,
    overrides: BTreeMap<String, Vec<ClusterOverride>>,
}

impl Federated {
    fn id(&self) -> String {
        identify(&self.kind, &self.namespace, &self.name)
    }
}

/// The control plane's scope: `KubeFedConfig.spec.scope` and its namespace.
struct ControlPlane {
    limited_scope: bool,
    system_namespace: String,
}

pub(super) fn translate(
    documents: &[RawDocument],
    files: &[SourceFile],
    interpreter: &Interpreter,
    errors: &mut ErrorSink,
    warnings: &mut Vec<Diagnostic>,
) -> Vec<FederatedBinding> {
    let mut type_configs = Vec::new();
    let mut control_planes = Vec::new();
    let mut federated = Vec::new();
    let mut preferences = Vec::new();
    for document in documents {
        let text = |field: &str| document.value.get(field).and_then(Value::as_str);
        let Some(api_version) = text("apiVersion") else {
            continue;
        };
        let group = current_group(api_group(api_version));
        if !GROUPS.contains(&group) {
            continue;
        }
        // A missing kind is reported by classification.
        let Some(kind) = text("kind").filter(|kind| !kind.is_empty()) else {
            continue;
        };
        let origin = Some(document.origin.clone());
        let version = api_version.rsplit_once('/').map_or("", |(_, v)| v);
        let wrong_version = |expected: &str| {
            Diagnostic::error(
                origin.clone(),
                format!(
                    "unsupported apiVersion {api_version} for {kind}; KubeFed serves {group}/{expected}"
                ),
            )
        };
        match (group, kind) {
            (CORE_GROUP, "FederatedTypeConfig" | "KubeFedConfig") if version != CORE_VERSION => {
                errors.push(wrong_version(CORE_VERSION));
            }
            (CORE_GROUP, "FederatedTypeConfig") => type_configs.push(document),
            (CORE_GROUP, "KubeFedConfig") => control_planes.push(document),
            (CORE_GROUP, "KubeFedCluster") => warnings.push(Diagnostic::warning(Lint::NotModelled,
                origin,
                "KubeFedCluster is ignored: fedrender's inventory is Karmada Cluster objects \
                 (name and labels are what KubeFed placement reads)",
            )),
            (CORE_GROUP, other) => errors.push(Diagnostic::error(
                origin,
                format!(
                    "core.kubefed.io has no kind {other}; fedrender reads FederatedTypeConfig and KubeFedConfig"
                ),
            )),
            (SCHEDULING_GROUP, "ReplicaSchedulingPreference") if version != SCHEDULING_VERSION => {
                errors.push(wrong_version(SCHEDULING_VERSION));
            }
            (SCHEDULING_GROUP, "ReplicaSchedulingPreference") => preferences.push(document),
            (SCHEDULING_GROUP, other) => errors.push(Diagnostic::error(
                origin,
                format!(
                    "scheduling.kubefed.io has no kind {other}; KubeFed's only scheduling type is ReplicaSchedulingPreference"
                ),
            )),
            (FEDERATED_GROUP, _) => federated.push(document),
            _ => warnings.push(Diagnostic::warning(Lint::NotModelled,
                origin,
                format!(
                    "{kind} is ignored: fedrender does not implement KubeFed's multi-cluster DNS ({group})"
                ),
            )),
        }
    }

    let control_plane = read_control_plane(&control_planes, &type_configs, files, errors);
    let configs = read_type_configs(&type_configs, files, interpreter, errors, warnings);

    // Decode every federated object; FederatedNamespaces first provide namespace placement.
    let mut objects: Vec<Federated> = Vec::new();
    let mut seen: BTreeMap<(String, String, String), Origin> = BTreeMap::new();
    for document in federated {
        let Some(doc) = errors.take(decode::<FederatedObjectDoc>(document, files)) else {
            continue;
        };
        let Some(object) = errors.take(read_federated(document, doc, &configs, warnings)) else {
            continue;
        };
        let key = (
            object.kind.clone(),
            object.namespace.clone(),
            object.name.clone(),
        );
        if let Some(first) = seen.get(&key) {
            errors.push(Diagnostic::error(
                Some(object.origin.clone()),
                format!(
                    "duplicate object {}: already defined at {first}",
                    object.id()
                ),
            ));
            continue;
        }
        seen.insert(key, object.origin.clone());
        objects.push(object);
    }
    let namespaces: BTreeMap<&str, (&PlacementFields, &Origin)> = objects
        .iter()
        .filter(|o| o.config.target_is_namespace())
        .map(|o| (o.namespace.as_str(), (&o.placement, &o.origin)))
        .collect();

    let schedules = read_schedules(&preferences, files, &seen, errors, warnings);

    let mut bindings = Vec::new();
    for object in &objects {
        let id = object.id();
        let warn = |warnings: &mut Vec<Diagnostic>, message: String| {
            warnings.push(Diagnostic::warning(
                Lint::UnplacedTemplate,
                Some(object.origin.clone()),
                message,
            ));
        };
        if !object.config.propagation_enabled {
            warn(
                warnings,
                format!(
                    "{id} is not propagated: {} has propagation Disabled",
                    object.config.describe()
                ),
            );
            continue;
        }
        if control_plane.limited_scope {
            if !object.config.federated_namespaced() {
                warn(
                    warnings,
                    format!(
                        "{id} is not propagated: a namespace-scoped KubeFed control plane \
                         (KubeFedConfig scope Namespaced) runs no sync controller for cluster-scoped types"
                    ),
                );
                continue;
            }
            if object.namespace != control_plane.system_namespace {
                warn(
                    warnings,
                    format!(
                        "{id} is not propagated: a namespace-scoped KubeFed control plane watches only \
                         namespace {}",
                        control_plane.system_namespace
                    ),
                );
                continue;
            }
        }
        let namespace = if object.config.target_is_namespace() {
            if is_system_namespace(&object.name, &control_plane.system_namespace) {
                // accessor.go isSystemNamespace: never propagated as a Namespace, but its
                // placement still gates the namespace's resources.
                continue;
            }
            NamespacePlacement::NotNamespaced
        } else if !object.config.target_namespaced {
            NamespacePlacement::NotNamespaced
        } else {
            match namespaces.get(object.namespace.as_str()) {
                Some((placement, origin)) => NamespacePlacement::Federated {
                    placement: (*placement).clone(),
                    source: (*origin).clone(),
                },
                None if control_plane.limited_scope => NamespacePlacement::Unrestricted,
                None => {
                    warn(
                        warnings,
                        format!(
                            "{id} is propagated nowhere: namespace {} has no FederatedNamespace \
                             (KubeFed reports NamespaceNotFederated)",
                            object.namespace
                        ),
                    );
                    NamespacePlacement::NotFederated
                }
            }
        };
        let scheduling = schedules
            .get(&(
                object.kind.clone(),
                object.namespace.clone(),
                object.name.clone(),
            ))
            .cloned()
            .map(Box::new);
        let template = match target_template(object, warnings) {
            Ok(template) => template,
            Err(error) => {
                errors.push(error);
                continue;
            }
        };
        bindings.push(FederatedBinding {
            template,
            source: object.origin.clone(),
            source_name: id,
            placement: FederatedPlacement::KubeFed {
                placement: object.placement.clone(),
                namespace,
                scheduling,
            },
            overrides: object.overrides.clone(),
            host_copy: None,
        });
    }
    bindings
}

fn is_system_namespace(namespace: &str, system_namespace: &str) -> bool {
    matches!(namespace, "kube-system" | "kube-public" | "default") || namespace == system_namespace
}

fn read_control_plane(
    configs: &[&RawDocument],
    type_configs: &[&RawDocument],
    files: &[SourceFile],
    errors: &mut ErrorSink,
) -> ControlPlane {
    let namespace_of = |document: &RawDocument| {
        document
            .value
            .pointer("/metadata/namespace")
            .and_then(Value::as_str)
            .filter(|n| !n.is_empty())
            .map(str::to_string)
    };
    let mut plane = ControlPlane {
        limited_scope: false,
        system_namespace: type_configs
            .iter()
            .find_map(|d| namespace_of(d))
            .unwrap_or_else(|| DEFAULT_SYSTEM_NAMESPACE.to_string()),
    };
    for (position, document) in configs.iter().enumerate() {
        let origin = Some(document.origin.clone());
        if position > 0 {
            errors.push(Diagnostic::error(
                origin,
                format!(
                    "a second KubeFedConfig; the first is at {}",
                    configs[0].origin
                ),
            ));
            continue;
        }
        let Some(config) = errors.take(decode::<KubeFedConfigDoc>(document, files)) else {
            continue;
        };
        match config.spec.scope.as_str() {
            "Cluster" => {}
            "Namespaced" => plane.limited_scope = true,
            other => errors.push(Diagnostic::error(
                origin,
                format!(
                    "KubeFedConfig {}: spec.scope {other:?} must be Cluster or Namespaced",
                    config.metadata.name
                ),
            )),
        }
        plane.system_namespace = config
            .metadata
            .namespace
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| DEFAULT_SYSTEM_NAMESPACE.to_string());
    }
    plane
}

fn read_federated(
    document: &RawDocument,
    doc: FederatedObjectDoc,
    configs: &BTreeMap<String, TypeConfig>,
    warnings: &mut Vec<Diagnostic>,
) -> Result<Federated, Diagnostic> {
    let origin = document.origin.clone();
    let kind = doc.kind.clone();
    let name = doc.metadata.name.clone();
    let fail = |message: String| Diagnostic::error(Some(origin.clone()), message);
    let Some(config) = configs.get(&kind) else {
        let known: Vec<&str> = configs.keys().map(String::as_str).collect();
        let hint = crate::edit_distance::hint(
            crate::edit_distance::nearest(&kind, known.iter().copied()),
            crate::edit_distance::Hint::InParentheses,
        );
        return Err(fail(format!(
            "{kind} {name}: no FederatedTypeConfig in the input federates {kind}, and it is not one \
             of KubeFed's default types{hint}; add the FederatedTypeConfig `kubefedctl enable` \
             creates for its target type"
        )));
    };
    let version = doc.api_version.rsplit_once('/').map_or("", |(_, v)| v);
    if version != config.federated_version {
        return Err(fail(format!(
            "{kind} {name}: apiVersion {} is not served; {} serves {FEDERATED_GROUP}/{}",
            doc.api_version,
            config.describe(),
            config.federated_version
        )));
    }
    if name.is_empty() {
        return Err(fail(format!(
            "{kind} has no metadata.name (generateName needs an API server; fedrender needs a fixed name)"
        )));
    }
    let written_namespace = doc.metadata.namespace.clone().unwrap_or_default();
    let namespace = if config.federated_namespaced() {
        let namespace = if written_namespace.is_empty() {
            "default".to_string()
        } else {
            written_namespace
        };
        if let Some(problem) = names::dns_label_problem(&namespace) {
            return Err(fail(format!(
                "namespace {namespace:?} of {kind} {name} {problem}"
            )));
        }
        namespace
    } else {
        if !written_namespace.is_empty() {
            warnings.push(Diagnostic::warning(
                Lint::IgnoredField,
                Some(origin.clone()),
                format!("{kind} {name} is cluster-scoped; its metadata.namespace is ignored"),
            ));
        }
        String::new()
    };
    let id = identify(&kind, &namespace, &name);
    let fail =
        |message: String| Diagnostic::error(Some(origin.clone()), format!("{id}: {message}"));
    if let Some(problem) = interpret::name_problem(&config.target_group, &config.target_kind, &name)
    {
        return Err(fail(format!(
            "name {name:?} is not a valid {} name: {problem}",
            config.target_kind
        )));
    }
    if config.target_is_namespace() && name != namespace {
        // accessor.go: InvalidName, "The name of a federated namespace must match the name of
        // its containing namespace" (kubefed#1036).
        return Err(fail(format!(
            "a FederatedNamespace must be named like its namespace ({namespace:?}); KubeFed ignores it otherwise"
        )));
    }
    let Some(spec) = doc.spec else {
        return Err(fail(
            "spec is required (KubeFed's CRD requires it, even empty: `spec: {}`)".to_string(),
        ));
    };
    let template = match spec.template {
        None | Some(Value::Null) => Value::Object(Map::new()),
        Some(Value::Object(map)) => Value::Object(map),
        Some(_) => return Err(fail("spec.template must be a mapping".to_string())),
    };
    let placement = spec.placement.unwrap_or_default();
    if let Some(selector) = &placement.cluster_selector
        && let Err(problem) = check_label_selector(selector)
    {
        return Err(fail(format!("spec.placement.clusterSelector: {problem}")));
    }
    let placement = PlacementFields {
        clusters: placement
            .clusters
            .map(|list| list.into_iter().map(|c| c.name).collect()),
        cluster_selector: placement.cluster_selector,
    };
    let overrides = read_overrides(spec.overrides.unwrap_or_default()).map_err(fail)?;
    Ok(Federated {
        origin,
        kind,
        namespace,
        name,
        config: config.clone(),
        template,
        placement,
        overrides,
    })
}

/// overrides.go `GetOverrides` plus the CRD's pattern for `op`.
fn read_overrides(
    items: Vec<OverrideItemDoc>,
) -> Result<BTreeMap<String, Vec<ClusterOverride>>, String> {
    const INVALID_PATHS: &[&str] = &[
        "/metadata/namespace",
        "/metadata/name",
        "/metadata/generateName",
        "/kind",
    ];
    let mut overrides: BTreeMap<String, Vec<ClusterOverride>> = BTreeMap::new();
    for item in items {
        let cluster = item.cluster_name;
        if overrides.contains_key(&cluster) {
            return Err(format!(
                "cluster {cluster:?} appears more than once in spec.overrides"
            ));
        }
        let mut paths = BTreeSet::new();
        let mut list = Vec::new();
        for (position, entry) in item
            .cluster_overrides
            .unwrap_or_default()
            .into_iter()
            .enumerate()
        {
            let at = format!("override {} for cluster {cluster:?}", position + 1);
            let op = match entry.op.as_deref() {
                None | Some("") | Some("replace") => OverrideOp::Replace,
                Some("add") => OverrideOp::Add,
                Some("remove") => OverrideOp::Remove,
                Some(other) => {
                    return Err(format!(
                        "{at}: op {other:?} is not add, remove or replace (KubeFed's CRD allows only \
                         these; an empty op is replace)"
                    ));
                }
            };
            let path = entry.path;
            if INVALID_PATHS.contains(&path.as_str()) {
                return Err(format!(
                    "{at} has an invalid path {path}: name, namespace, generateName and kind come \
                     from the federated object and its type"
                ));
            }
            if !path.starts_with('/') {
                // KubeFed v0.1.0-rc2 and earlier wrote override paths dotted (`spec.replicas`);
                // v0.1.0-rc3 made them JSON pointers, and only those are read.
                let dotted = path.contains('.') && !path.contains('/');
                return Err(format!(
                    "{at}: path {path:?} must be a JSON pointer starting with '/'{}",
                    if dotted {
                        format!(
                            " (a dotted path is KubeFed v0.1.0-rc2's form; since v0.1.0-rc3 it is \
                             written /{})",
                            path.replace('.', "/")
                        )
                    } else {
                        String::new()
                    }
                ));
            }
            if !paths.insert(path.clone()) {
                return Err(format!(
                    "path {path:?} appears more than once for cluster {cluster:?}"
                ));
            }
            list.push(ClusterOverride {
                op,
                path,
                value: entry.value,
            });
        }
        overrides.insert(cluster, list);
    }
    Ok(overrides)
}

/// `metav1.LabelSelectorAsSelector`'s checks (valid keys, values and operators, In/NotIn with
/// values, Exists/DoesNotExist without), which KubeFed's scheduler runs on the selector and
/// fails on: the first problem, with the field it is at.
pub(crate) fn check_label_selector(selector: &LabelSelector) -> Result<(), String> {
    match selector.conversion_problems().into_iter().next() {
        Some((at, problem)) => Err(format!("{at}: {problem}")),
        None => Ok(()),
    }
}

/// ReplicaSchedulingPreferences by the federated object they bind to: (targetKind,
/// namespace, name).
fn read_schedules(
    documents: &[&RawDocument],
    files: &[SourceFile],
    federated: &BTreeMap<(String, String, String), Origin>,
    errors: &mut ErrorSink,
    warnings: &mut Vec<Diagnostic>,
) -> BTreeMap<(String, String, String), ReplicaScheduling> {
    let mut schedules = BTreeMap::new();
    let mut seen: BTreeMap<(String, String), Origin> = BTreeMap::new();
    for document in documents {
        let origin = document.origin.clone();
        let Some(doc) = errors.take(decode::<RspDoc>(document, files)) else {
            continue;
        };
        let namespace = doc
            .metadata
            .namespace
            .clone()
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| "default".to_string());
        let name = doc.metadata.name.clone();
        let id = identify("ReplicaSchedulingPreference", &namespace, &name);
        let fail =
            |message: String| Diagnostic::error(Some(origin.clone()), format!("{id}: {message}"));
        if name.is_empty() {
            errors.push(fail("metadata.name is required".to_string()));
            continue;
        }
        if let Some(first) = seen.get(&(namespace.clone(), name.clone())) {
            errors.push(Diagnostic::error(
                Some(origin.clone()),
                format!("duplicate object {id}: already defined at {first}"),
            ));
            continue;
        }
        seen.insert((namespace.clone(), name.clone()), origin.clone());
        let spec = doc.spec;
        let target_kind = spec.target_kind.as_str();
        if !matches!(target_kind, "FederatedDeployment" | "FederatedReplicaSet") {
            errors.push(fail(format!(
                "targetKind {target_kind:?} must be FederatedDeployment or FederatedReplicaSet \
                 (the only kinds KubeFed's replica scheduler handles)"
            )));
            continue;
        }
        if !(0..=i64::from(i32::MAX)).contains(&spec.total_replicas) {
            errors.push(fail(format!(
                "spec.totalReplicas {} must be between 0 and {}",
                spec.total_replicas,
                i32::MAX
            )));
            continue;
        }
        let preferences = match read_cluster_preferences(spec.clusters) {
            Ok(preferences) => preferences,
            Err(problem) => {
                errors.push(fail(problem));
                continue;
            }
        };
        let key = (target_kind.to_string(), namespace.clone(), name.clone());
        if !federated.contains_key(&key) {
            let other = if target_kind == "FederatedDeployment" {
                "FederatedReplicaSet"
            } else {
                "FederatedDeployment"
            };
            let mismatch =
                if federated.contains_key(&(other.to_string(), namespace.clone(), name.clone())) {
                    format!(" (there is a {other} of that name, but targetKind says {target_kind})")
                } else {
                    String::new()
                };
            warnings.push(Diagnostic::warning(Lint::SelectsNothing,
                Some(origin.clone()),
                format!(
                    "{id} does nothing: there is no {target_kind} {namespace}/{name} in the input{mismatch}"
                ),
            ));
            continue;
        }
        schedules.insert(
            key,
            ReplicaScheduling {
                plan: PlannedReplicas {
                    preferences: Preferences {
                        rebalance: spec.rebalance.unwrap_or(false),
                        clusters: preferences,
                    },
                    total: spec.total_replicas,
                    key: format!("{namespace}/{name}"),
                },
                intersect_with_cluster_selector: spec
                    .intersect_with_cluster_selector
                    .unwrap_or(false),
                source: origin,
                name: id,
            },
        );
    }
    schedules
}

/// `spec.clusters`, with KubeFed's default `{"*": {weight: 1}}` when empty or absent
/// (replicascheduler.go GetSchedulingResult). Negative numbers are rejected: the reference
/// accepts them and plans negative replicas.
fn read_cluster_preferences(
    clusters: Option<BTreeMap<String, Option<ClusterPreferencesDoc>>>,
) -> Result<BTreeMap<String, ClusterPreferences>, String> {
    let clusters = clusters.unwrap_or_default();
    if clusters.is_empty() {
        return Ok(Preferences::even().clusters);
    }
    let mut result = BTreeMap::new();
    for (cluster, preferences) in clusters {
        let preferences = preferences.unwrap_or_default();
        let converted = ClusterPreferences {
            min_replicas: preferences.min_replicas.unwrap_or(0),
            max_replicas: preferences.max_replicas,
            weight: preferences.weight.unwrap_or(0),
        };
        let negative = [
            ("minReplicas", Some(converted.min_replicas)),
            ("maxReplicas", converted.max_replicas),
            ("weight", Some(converted.weight)),
        ]
        .into_iter()
        .find(|(_, value)| value.is_some_and(|v| v < 0));
        if let Some((field, value)) = negative {
            return Err(format!(
                "spec.clusters.{cluster}.{field} {} must not be negative",
                value.unwrap_or_default()
            ));
        }
        result.insert(cluster, converted);
    }
    Ok(result)
}

/// The object a member cluster receives before overrides (resource.go `ObjectForCluster`,
/// §2.4 steps 1–4): the template without annotations, finalizers and status, named like the
/// federated object, with the target kind and the template's apiVersion or the FTC's. Metadata
/// an API server generates (uid, resourceVersion, …) is left out as well.
fn target_template(
    object: &Federated,
    warnings: &mut Vec<Diagnostic>,
) -> Result<Template, Diagnostic> {
    let config = &object.config;
    let id = object.id();
    let fail = |message: String| {
        Diagnostic::error(Some(object.origin.clone()), format!("{id}: {message}"))
    };
    let Value::Object(template) = &object.template else {
        return Err(fail("spec.template must be a mapping".to_string()));
    };
    let mut metadata = match template.get("metadata") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(map)) => map.clone(),
        Some(_) => return Err(fail("spec.template.metadata must be a mapping".to_string())),
    };
    let warn = |warnings: &mut Vec<Diagnostic>, message: String| {
        warnings.push(Diagnostic::warning(
            Lint::IgnoredField,
            Some(object.origin.clone()),
            message,
        ));
    };
    for (field, warning) in [
        ("annotations", "AnnotationsNotSupported"),
        ("finalizers", "FinalizersNotSupported"),
    ] {
        let drop = match metadata.get(field) {
            Some(Value::Object(map)) => !map.is_empty(),
            Some(Value::Array(list)) => !list.is_empty(),
            Some(Value::Null) => true,
            _ => false,
        };
        if drop {
            let noisy = !metadata.get(field).is_some_and(Value::is_null);
            metadata.shift_remove(field);
            if noisy {
                warn(
                    warnings,
                    format!(
                        "{id}: spec.template.metadata.{field} are dropped, as KubeFed does ({warning}); \
                         use an override to set them per cluster"
                    ),
                );
            }
        }
    }
    metadata.shift_remove("name");
    metadata.shift_remove("namespace");
    // What an API server generates: ignored on create (resourceVersion even rejected), so
    // not rendered.
    for generated in [
        "uid",
        "resourceVersion",
        "selfLink",
        "creationTimestamp",
        "generation",
        "managedFields",
        "deletionTimestamp",
        "deletionGracePeriodSeconds",
    ] {
        metadata.shift_remove(generated);
    }
    let labels = match metadata.get("labels") {
        None | Some(Value::Null) => BTreeMap::new(),
        Some(Value::Object(map)) => map
            .iter()
            .map(|(key, value)| match value {
                Value::String(text) => Ok((key.clone(), text.clone())),
                other => Err(fail(format!(
                    "spec.template.metadata.labels {key}: value {other} must be a string (quote it)"
                ))),
            })
            .collect::<Result<_, _>>()?,
        Some(_) => {
            return Err(fail(
                "spec.template.metadata.labels must be a mapping of strings".to_string(),
            ));
        }
    };
    let api_version = match template.get("apiVersion") {
        Some(Value::String(version)) if !version.is_empty() => version.clone(),
        _ => config.target_api_version(),
    };
    if let Some(Value::String(kind)) = template.get("kind")
        && !kind.is_empty()
        && *kind != config.target_kind
    {
        warn(
            warnings,
            format!(
                "{id}: spec.template.kind {kind} is replaced by {} from {}",
                config.target_kind,
                config.describe()
            ),
        );
    }
    let target_namespace = if config.target_namespaced {
        object.namespace.clone()
    } else {
        String::new()
    };
    let mut head = Map::new();
    head.insert("name".to_string(), Value::from(object.name.clone()));
    if !target_namespace.is_empty() {
        head.insert(
            "namespace".to_string(),
            Value::from(target_namespace.clone()),
        );
    }
    head.extend(metadata);
    let mut result = Map::new();
    result.insert("apiVersion".to_string(), Value::from(api_version.clone()));
    result.insert("kind".to_string(), Value::from(config.target_kind.clone()));
    result.insert("metadata".to_string(), Value::Object(head));
    for (key, value) in template {
        if !matches!(key.as_str(), "apiVersion" | "kind" | "metadata" | "status") {
            result.insert(key.clone(), value.clone());
        }
    }
    Ok(Template {
        // The object's fields are those of the Federated<Kind>'s `spec.template`.
        origin: object.origin.with_fields_under("spec.template"),
        key: ObjectKey {
            group: api_group(&api_version).to_string(),
            kind: config.target_kind.clone(),
            namespace: target_namespace,
            name: object.name.clone(),
        },
        api_version,
        labels,
        object: Value::Object(result),
    })
}
