//! fedrender's two legacy front doors: KubeFed (Kubernetes Cluster Federation v2) federated
//! types with FederatedTypeConfig, FederatedNamespace and ReplicaSchedulingPreference, and
//! Federation v1's annotations on ordinary objects. Both are translated into
//! [`FederatedBinding`]s: the object a member cluster would receive, where it goes
//! ([`targets`]) and what changes per cluster ([`object_for_cluster`]). Behaviour follows
//! shared/spec/kubefed-fedv1.md rule by rule; section numbers below refer to it.

pub mod binding;
mod decode;
pub(crate) mod fedv1;
pub mod kubefed;
pub mod overrides;
pub(crate) mod planner;
pub mod selector;
pub(crate) mod type_config;

use std::collections::BTreeSet;

use serde_json::Value;

use crate::api::cluster::Cluster;
use crate::diagnostics::{Diagnostic, ErrorSink, Origin};
use crate::documents::{RawDocument, SourceFile};
use crate::interpret::Interpreter;
use crate::lint::Lint;
use crate::object::Template;

pub use binding::{
    FederatedBinding, FederatedPlacement, NamespacePlacement, PlacementFields, PlannedReplicas,
    ReplicaScheduling,
};
pub use overrides::ClusterOverride;
pub(crate) use overrides::{OverrideOp, apply_overrides};

/// The path the RSP controller writes per cluster (schedulingtypes/plugin.go `replicasPath`).
pub(crate) const REPLICAS_PATH: &str = "/spec/replicas";

/// Every KubeFed object among `documents` (types.kubefed.io Federated<Kind>, core.kubefed.io
/// FederatedTypeConfig and KubeFedConfig, scheduling.kubefed.io ReplicaSchedulingPreference)
/// and every template in `templates` carrying Federation v1 annotations, translated. Returns
/// the bindings, KubeFed's first, and the indices of `templates` that Federation v1 claimed
/// (they must not also be bound by Karmada policies) or that are the host's copies of KubeFed
/// objects ([`claim_host_copies`]; `karmada_selects` tells whether a Karmada propagation policy
/// selects a template). Bad input goes to `errors`, legal but doubtful input to `warnings`.
pub(crate) fn translate(
    documents: &[RawDocument],
    files: &[SourceFile],
    templates: &[Template],
    interpreter: &Interpreter,
    karmada_selects: impl Fn(&Template) -> bool,
    errors: &mut ErrorSink,
    warnings: &mut Vec<Diagnostic>,
) -> (Vec<FederatedBinding>, Vec<usize>) {
    let mut bindings = kubefed::translate(documents, files, interpreter, errors, warnings);
    let (v1_bindings, mut claimed) = fedv1::translate(templates, errors, warnings);
    claimed.extend(claim_host_copies(&mut bindings, templates, karmada_selects));
    claimed.sort_unstable();
    claimed.dedup();
    bindings.extend(v1_bindings);
    (bindings, claimed)
}

/// The plain objects that a KubeFed Federated<Kind> of the same kind, namespace and name
/// federates: the host cluster's copies. `kubefedctl federate` makes the Federated<Kind> from
/// the object and leaves the object where it was, and KubeFed's user guide creates a Namespace
/// beside its FederatedNamespace; KubeFed's sync controller reads only the federated object
/// (kubefed pkg/controller/sync reconciles federated objects, never the plain
/// one; pkg/kubefedctl/federate builds the federated object from the live one and leaves the
/// live one in place). So the pair is one object, placed by the Federated<Kind>. A plain object
/// that a Karmada propagation policy selects is Karmada's template instead, and the pair two
/// sources of one object (an error later); a Namespace is the host's copy either way, as
/// Karmada's namespace controller would send it without a policy. Each binding records its
/// copy, for `plan`; returns the copies' indices.
fn claim_host_copies(
    bindings: &mut [FederatedBinding],
    templates: &[Template],
    karmada_selects: impl Fn(&Template) -> bool,
) -> Vec<usize> {
    let federated: std::collections::BTreeMap<&crate::object::ObjectKey, usize> = bindings
        .iter()
        .enumerate()
        .map(|(index, binding)| (&binding.template.key, index))
        .collect();
    let copies: Vec<(usize, usize)> = templates
        .iter()
        .enumerate()
        .filter_map(|(index, template)| Some((index, *federated.get(&template.key)?)))
        .filter(|&(index, _)| {
            let template = &templates[index];
            template.key.group.is_empty() && template.key.kind == "Namespace"
                || !karmada_selects(template)
        })
        .collect();
    copies
        .into_iter()
        .map(|(template, binding)| {
            bindings[binding].host_copy = Some(templates[template].origin.clone());
            template
        })
        .collect()
}

/// Whether KubeFed or Federation v1 would consider the cluster: only a `Ready` condition with
/// status `False` excludes it; no status means ready (§5).
pub(crate) fn is_ready(cluster: &Cluster) -> bool {
    !cluster.status.as_ref().is_some_and(|status| {
        status
            .conditions
            .iter()
            .any(|c| c.condition_type == "Ready" && c.status == "False")
    })
}

/// The clusters a binding reaches in the inventory, sorted by name, with their replica
/// counts: `Some(n)` for planned workloads (RSP, Federation v1 Deployments and ReplicaSets),
/// including clusters planned 0, which still receive the object with `replicas: 0`
/// (§2.6, §3.4); `None` when the template is copied as it is.
pub fn targets(
    binding: &FederatedBinding,
    clusters: &[Cluster],
) -> Result<Vec<(String, Option<i64>)>, String> {
    // Sorted only where the placement selects among them: an Argo CD binding's one cluster
    // was resolved with its Application, and sorting every cluster for each of its (many)
    // objects cost more than the rest of placing them.
    let ready = || {
        let mut ready: Vec<&Cluster> = clusters.iter().filter(|c| is_ready(c)).collect();
        ready.sort_by(|a, b| a.name().cmp(b.name()));
        ready
    };
    match &binding.placement {
        FederatedPlacement::KubeFed {
            placement,
            namespace,
            scheduling,
        } => Ok(kubefed_targets(
            placement,
            namespace,
            scheduling.as_deref(),
            &ready(),
        )),
        FederatedPlacement::ArgoCd { cluster, .. } => {
            match clusters.iter().any(|known| known.name() == cluster) {
                true => Ok(vec![(cluster.clone(), None)]),
                false => Err(format!(
                    "its destination cluster {cluster:?} is not in the inventory"
                )),
            }
        }
        FederatedPlacement::FederationV1 { selector, replicas } => {
            let selected: Vec<&str> = ready()
                .iter()
                .filter(|c| {
                    selector
                        .as_ref()
                        .is_none_or(|s| selector::selector_matches(s, &c.metadata.labels))
                })
                .map(|c| c.name())
                .collect();
            Ok(match replicas {
                None => selected.iter().map(|n| (n.to_string(), None)).collect(),
                Some(planned) => {
                    planner::plan(&selected, &planned.preferences, planned.total, &planned.key)
                        .into_iter()
                        .map(|(name, n)| (name, Some(n)))
                        .collect()
                }
            })
        }
    }
}

fn kubefed_targets(
    placement: &PlacementFields,
    namespace: &NamespacePlacement,
    scheduling: Option<&ReplicaScheduling>,
    ready: &[&Cluster],
) -> Vec<(String, Option<i64>)> {
    let copied = || -> Vec<(String, Option<i64>)> {
        namespaced_placement(placement, namespace, ready, false)
            .into_iter()
            .map(|name| (name, None))
            .collect()
    };
    let Some(scheduling) = scheduling else {
        return copied();
    };
    // replicascheduler.go Reconcile: no ready cluster, nothing to do.
    if ready.is_empty() {
        return copied();
    }
    let available: Vec<String> = if scheduling.intersect_with_cluster_selector {
        // Plugin.GetResourceClusters: selectors only; reading a missing FederatedNamespace
        // fails, and an empty result leaves the object's placement as it is.
        let preferred = match namespace {
            NamespacePlacement::NotFederated | NamespacePlacement::Unrestricted => None,
            _ => Some(namespaced_placement(placement, namespace, ready, true)),
        };
        match preferred {
            Some(preferred) if !preferred.is_empty() => preferred.into_iter().collect(),
            _ => return copied(),
        }
    } else {
        ready.iter().map(|c| c.name().to_string()).collect()
    };
    let names: Vec<&str> = available.iter().map(String::as_str).collect();
    let plan = planner::plan(
        &names,
        &scheduling.plan.preferences,
        scheduling.plan.total,
        &scheduling.plan.key,
    );
    // The RSP writes every planned cluster into spec.placement.clusters; the sync controller
    // then applies the FederatedNamespace as usual.
    let rewritten = PlacementFields {
        clusters: Some(plan.keys().cloned().collect()),
        cluster_selector: None,
    };
    let allowed = namespaced_placement(&rewritten, namespace, ready, false);
    plan.into_iter()
        .filter(|(name, _)| allowed.contains(name))
        .map(|(name, n)| (name, Some(n)))
        .collect()
}

/// placement.go `ComputePlacement` against the ready clusters.
fn selected_clusters(
    placement: &PlacementFields,
    ready: &[&Cluster],
    selector_only: bool,
) -> BTreeSet<String> {
    match (&placement.clusters, selector_only) {
        (Some(names), false) => ready
            .iter()
            .filter(|c| names.iter().any(|n| n == c.name()))
            .map(|c| c.name().to_string())
            .collect(),
        _ => match &placement.cluster_selector {
            None => BTreeSet::new(),
            Some(selector) => ready
                .iter()
                .filter(|c| selector.matches(&c.metadata.labels))
                .map(|c| c.name().to_string())
                .collect(),
        },
    }
}

/// placement.go `ComputeNamespacedPlacement`.
fn namespaced_placement(
    placement: &PlacementFields,
    namespace: &NamespacePlacement,
    ready: &[&Cluster],
    selector_only: bool,
) -> BTreeSet<String> {
    let own = selected_clusters(placement, ready, selector_only);
    match namespace {
        NamespacePlacement::NotNamespaced | NamespacePlacement::Unrestricted => own,
        NamespacePlacement::NotFederated => BTreeSet::new(),
        NamespacePlacement::Federated { placement, .. } => {
            let gate = selected_clusters(placement, ready, selector_only);
            own.intersection(&gate).cloned().collect()
        }
    }
}

/// The overrides for one cluster as the sync controller applies them: the object's own list,
/// with the RSP's `/spec/replicas` written in place of an existing entry for that path (its op
/// kept) or appended with op replace (plugin.go `updateOverridesMap`).
pub(crate) fn overrides_for_cluster(
    binding: &FederatedBinding,
    cluster: &str,
    replicas: Option<i64>,
) -> Vec<ClusterOverride> {
    let mut list = binding.overrides.get(cluster).cloned().unwrap_or_default();
    if let Some(replicas) = replicas
        && matches!(binding.placement, FederatedPlacement::KubeFed { .. })
    {
        match list.iter_mut().find(|o| o.path == REPLICAS_PATH) {
            Some(existing) => existing.value = Some(Value::from(replicas)),
            None => list.push(ClusterOverride {
                op: OverrideOp::Replace,
                path: REPLICAS_PATH.to_string(),
                value: Some(Value::from(replicas)),
            }),
        }
    }
    list
}

/// The object one cluster receives: the binding's template with that cluster's overrides
/// (KubeFed, json-patch v4.11 semantics) or its planned replicas (Federation v1, written to
/// `spec.replicas`). Overrides may not change the object's identity: an override that rewrites
/// `kind`, `metadata.name` or `metadata.namespace` (e.g. by replacing all of `/metadata`) is an
/// error, as the reference would create a different object than the one it tracks.
pub(crate) fn object_for_cluster(
    binding: &FederatedBinding,
    cluster: &str,
    replicas: Option<i64>,
) -> Result<Value, String> {
    let mut object = binding.template.object.clone();
    match &binding.placement {
        FederatedPlacement::KubeFed { .. } => {
            let list = overrides_for_cluster(binding, cluster, replicas);
            apply_overrides(&mut object, &list)?;
            let identity = |object: &Value| {
                (
                    object.get("kind").cloned(),
                    crate::json_pointer::pointer(object, "/metadata/name").cloned(),
                    crate::json_pointer::pointer(object, "/metadata/namespace").cloned(),
                )
            };
            if identity(&object) != identity(&binding.template.object) {
                return Err(
                    "the overrides change kind, metadata.name or metadata.namespace, which KubeFed \
                     takes from the federated object and its type"
                        .to_string(),
                );
            }
        }
        FederatedPlacement::FederationV1 { .. } => {
            if let Some(replicas) = replicas {
                fedv1::set_replicas(&mut object, replicas);
            }
        }
        FederatedPlacement::ArgoCd { .. } => {}
    }
    Ok(object)
}

/// Warnings that need the inventory: clusters named in placement, overrides or preferences
/// that are not in it, overrides for clusters the object does not reach, an RSP that places
/// fewer replicas than its total, and a binding that reaches no cluster.
pub(crate) fn target_warnings(
    binding: &FederatedBinding,
    clusters: &[Cluster],
    targets: &[(String, Option<i64>)],
) -> Vec<Diagnostic> {
    // An Argo CD binding's one cluster was resolved with its Application (or the binding
    // refused): nothing to warn of, and no set of the inventory's names to build per object.
    if let FederatedPlacement::ArgoCd { .. } = &binding.placement {
        return Vec::new();
    }
    let known: BTreeSet<&str> = clusters.iter().map(Cluster::name).collect();
    let placed: BTreeSet<&str> = targets.iter().map(|(n, _)| n.as_str()).collect();
    let mut warnings = Vec::new();
    let warn = |warnings: &mut Vec<Diagnostic>, lint: Lint, origin: &Origin, message: String| {
        warnings.push(Diagnostic::warning(lint, Some(origin.clone()), message));
    };
    let name = &binding.source_name;
    match &binding.placement {
        FederatedPlacement::KubeFed {
            placement,
            namespace,
            scheduling,
        } => {
            // An RSP rewrites spec.placement.clusters; the written list only matters without.
            if let (Some(names), None) = (&placement.clusters, scheduling) {
                for cluster in names.iter().filter(|n| !known.contains(n.as_str())) {
                    warn(
                        &mut warnings,
                        Lint::UnknownCluster,
                        &binding.source,
                        format!(
                            "{name}: spec.placement.clusters names {cluster:?}, which is not in the inventory; KubeFed drops it"
                        ),
                    );
                }
            }
            for cluster in binding.overrides.keys() {
                if !known.contains(cluster.as_str()) {
                    warn(
                        &mut warnings,
                        Lint::UnknownCluster,
                        &binding.source,
                        format!(
                            "{name}: spec.overrides names cluster {cluster:?}, which is not in the inventory"
                        ),
                    );
                } else if !placed.contains(cluster.as_str()) {
                    warn(
                        &mut warnings,
                        Lint::TargetsNoCluster,
                        &binding.source,
                        format!(
                            "{name}: the overrides for cluster {cluster} are ignored: the object is not placed there"
                        ),
                    );
                }
            }
            if let Some(scheduling) = scheduling {
                preference_warnings(
                    &mut warnings,
                    &scheduling.source,
                    &scheduling.name,
                    &scheduling.plan,
                    &known,
                    targets,
                );
            }
            if targets.is_empty() && *namespace != NamespacePlacement::NotFederated {
                let reason = if clusters.iter().all(|c| !is_ready(c)) {
                    "no cluster in the inventory is ready"
                } else if matches!(namespace, NamespacePlacement::Federated { .. }) {
                    "its placement and its FederatedNamespace's placement select no common ready cluster"
                } else {
                    "its placement selects no ready cluster (an absent clusterSelector selects none; `clusterSelector: {}` selects all)"
                };
                warn(
                    &mut warnings,
                    Lint::UnplacedTemplate,
                    &binding.source,
                    format!("{name} is propagated to no cluster: {reason}"),
                );
            }
        }
        FederatedPlacement::FederationV1 { replicas, selector } => {
            if let Some(planned) = replicas {
                preference_warnings(
                    &mut warnings,
                    &binding.source,
                    name,
                    planned,
                    &known,
                    targets,
                );
            }
            if targets.is_empty() {
                let reason = if selector.is_some() {
                    "no ready cluster matches its federation.alpha.kubernetes.io/cluster-selector"
                } else {
                    "no cluster in the inventory is ready"
                };
                warn(
                    &mut warnings,
                    Lint::UnplacedTemplate,
                    &binding.source,
                    format!("{name} is propagated to no cluster: {reason}"),
                );
            }
        }
        // Its one cluster was resolved with the Application, or the binding refused.
        FederatedPlacement::ArgoCd { .. } => {}
    }
    warnings
}

fn preference_warnings(
    warnings: &mut Vec<Diagnostic>,
    origin: &Origin,
    name: &str,
    planned: &PlannedReplicas,
    known: &BTreeSet<&str>,
    targets: &[(String, Option<i64>)],
) {
    for cluster in planned.preferences.clusters.keys() {
        if cluster != "*" && !known.contains(cluster.as_str()) {
            warnings.push(Diagnostic::warning(Lint::UnknownCluster,
                Some(origin.clone()),
                format!("{name}: preferences for cluster {cluster:?}, which is not in the inventory, are ignored"),
            ).on_cluster(cluster.as_str()));
        }
    }
    let placed: i64 = targets.iter().filter_map(|(_, n)| *n).sum();
    let planned_targets = targets.iter().any(|(_, n)| n.is_some());
    if planned_targets && placed < planned.total {
        warnings.push(Diagnostic::warning(
            Lint::UnplacedReplicas,
            Some(origin.clone()),
            format!(
                "{name}: only {placed} of {} replicas reach a cluster (weights of 0, maximums, \
                 clusters without preferences or a FederatedNamespace leave the rest unplaced)",
                planned.total
            ),
        ));
    } else if !planned_targets && !targets.is_empty() {
        warnings.push(Diagnostic::warning(
            Lint::IgnoredField,
            Some(origin.clone()),
            format!(
                "{name} has no effect: with intersectWithClusterSelector the clusterSelectors of \
                 the object and its FederatedNamespace select no ready cluster, so the object's \
                 own placement and replicas apply"
            ),
        ));
    }
}

#[cfg(test)]
mod tests;
