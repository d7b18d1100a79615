//! Karmada's MultiClusterService with `types: [CrossCluster]`, as its controller does it (karmada
//! pkg/controllers/multiclusterservice/mcs_controller.go, `handleMultiClusterServiceCreateOrUpdate`):
//! the Service of the same name and namespace is claimed, whatever policy selected it, and bound
//! to the provider and consumer clusters (`buildResourceBinding`: a placement whose cluster
//! affinity names providers ∪ consumers, an empty list meaning every cluster, pkg/util/helper/
//! mcs.go `GetProviderClusters`, `GetConsumerClusters`); the scheduler then filters those as
//! for any binding, and overrides still apply. The MultiClusterService itself goes to the
//! providers as a Work with dispatching suspended (`propagateMultiClusterService`): no member
//! ever receives it. EndpointSlices are collected from providers and dispatched to consumers
//! at run time, which no offline render can show.
//!
//! Karmada runs that controller only with its MultiClusterService feature gate, off by default
//! in every release fedrender knows (karmada_release): without the Config turning it on, the
//! Service follows its own policy and the MultiClusterService does nothing.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use crate::api::karmada::{ClusterAffinity, Placement as PolicyPlacement};
use crate::api::networking::{
    ExposureType, MULTI_CLUSTER_SERVICE, MultiClusterServiceSpec, NETWORKING_GROUP,
};
use crate::diagnostics::{Diagnostic, Rejected};
use crate::fields::Fields;
use crate::fleet::Fleet;
use crate::lint::Lint;
use crate::object::{ObjectKey, Template};
use crate::policy::{PolicyId, PolicyScope, Propagation, ReleaseFields};
use crate::schedule::{self, Targets, Workload};

use super::placement::Placement;

pub(super) fn is_multi_cluster_service(template: &Template) -> bool {
    template.group() == NETWORKING_GROUP && template.kind() == MULTI_CLUSTER_SERVICE
}

/// Gives every MultiClusterService its story and, where Karmada's controller would run, the
/// Service it claims its clusters. Runs once every template is placed.
pub(super) fn apply_multi_cluster_services(
    fleet: &Fleet,
    cluster_index: &BTreeMap<&str, usize>,
    placements: &mut [Placement],
    warnings: &mut Vec<Diagnostic>,
) -> Result<(), Rejected> {
    let gate_on = fleet.feature_gate_turned_on(MULTI_CLUSTER_SERVICE);
    let mut errors = Vec::new();
    for (position, template) in fleet.templates.iter().enumerate() {
        if !is_multi_cluster_service(template) {
            continue;
        }
        // Never sent to a member: no "rendered nowhere" for it.
        placements[position].nowhere = None;
        placements[position].notes.push(
            "kept on Karmada's control plane: no member ever receives a MultiClusterService"
                .to_string(),
        );
        let spec: MultiClusterServiceSpec = match template
            .object
            .field("spec")
            .cloned()
            .map(serde_json::from_value)
        {
            Some(Ok(spec)) => spec,
            Some(Err(problem)) => {
                errors.push(Diagnostic::error(
                    Some(template.origin.clone()),
                    format!("{}: spec: {problem}", template.key),
                ));
                continue;
            }
            None => {
                errors.push(Diagnostic::error(
                    Some(template.origin.clone()),
                    format!("{}: spec is required", template.key),
                ));
                continue;
            }
        };
        for (field, written) in [
            ("serviceProvisionClusters", &spec.service_provision_clusters),
            (
                "serviceConsumptionClusters",
                &spec.service_consumption_clusters,
            ),
        ] {
            if !written.is_empty() {
                warnings.push(
                    Diagnostic::warning(
                        Lint::IgnoredField,
                        Some(template.origin.clone()),
                        format!(
                            "{}: spec.{field} is deprecated and read by no Karmada controller; \
                             write providerClusters and consumerClusters",
                            template.key
                        ),
                    )
                    .about_object(&template.key),
                );
            }
        }
        if spec.types.contains(&ExposureType::LoadBalancer) {
            warnings.push(
                Diagnostic::warning(
                    Lint::NotModelled,
                    Some(template.origin.clone()),
                    format!(
                        "{}: types LoadBalancer exposes the Service through a load balancer \
                         Karmada's controllers provision at run time, which fedrender does not \
                         model",
                        template.key
                    ),
                )
                .about_object(&template.key),
            );
        }
        if !gate_on || !spec.types.contains(&ExposureType::CrossCluster) {
            continue;
        }
        let service_key = ObjectKey {
            group: String::new(),
            kind: "Service".to_string(),
            namespace: template.namespace().to_string(),
            name: template.name().to_string(),
        };
        let every = || -> Vec<String> {
            fleet
                .clusters
                .iter()
                .map(|cluster| cluster.name().to_string())
                .collect()
        };
        let named = |list: &[crate::api::networking::ClusterSelector]| -> Vec<String> {
            if list.is_empty() {
                every()
            } else {
                let names: BTreeSet<String> = list.iter().map(|c| c.name.clone()).collect();
                names.into_iter().collect()
            }
        };
        let providers = named(&spec.provider_clusters);
        let consumers = named(&spec.consumer_clusters);
        for name in providers.iter().chain(&consumers) {
            if !cluster_index.contains_key(name.as_str()) {
                warnings.push(
                    Diagnostic::warning(
                        Lint::UnknownCluster,
                        Some(template.origin.clone()),
                        format!(
                            "{}: cluster {name:?} is not in the inventory; Karmada's scheduler \
                             leaves it out",
                            template.key
                        ),
                    )
                    .about_object(&template.key),
                );
            }
        }
        let describe = |list: &[crate::api::networking::ClusterSelector], names: &[String]| {
            if list.is_empty() {
                format!("every cluster ({})", names.join(", "))
            } else {
                names.join(", ")
            }
        };
        let story = format!(
            "claims {}; providers: {}; consumers: {}; the providers' EndpointSlices \
             are dispatched to the consumers at run time",
            service_key,
            describe(&spec.provider_clusters, &providers),
            describe(&spec.consumer_clusters, &consumers)
        );
        placements[position].notes.push(story);
        let Some(service) = fleet
            .templates
            .iter()
            .position(|candidate| candidate.key == service_key)
        else {
            warnings.push(
                Diagnostic::warning(
                    Lint::McsNoService,
                    Some(template.origin.clone()),
                    format!(
                        "{}: no {service_key} in the fleet: Karmada has nothing to \
                         propagate to the providers and consumers, and the consumers get no \
                         endpoints",
                        template.key
                    ),
                )
                .about_object(&template.key),
            );
            continue;
        };
        let union: BTreeSet<String> = providers.iter().chain(&consumers).cloned().collect();
        let binding = mcs_binding(template, union.into_iter().collect());
        let service_template = &fleet.templates[service];
        let scheduled = schedule::schedule(
            service_template,
            &Workload::default(),
            &binding,
            &fleet.clusters,
            fleet.schedule_options(),
        );
        let claimed = &mut placements[service];
        claimed.targets = Targets::from_scheduled(&scheduled.targets, cluster_index);
        claimed.scheduled = None;
        claimed.winner = None;
        claimed.preserved_by = None;
        claimed.claimed_by = Some(binding.id.to_string());
        claimed.placed_by = vec![format!(
            "{} (MultiClusterService: providers ∪ consumers, whatever its own policy says)",
            binding.id
        )];
        claimed.filtered = scheduled.filtered;
        claimed.nowhere = Some(match scheduled.failure {
            Some(failure) => format!(
                "{service_key} is rendered nowhere: {} claims it but Karmada would not schedule \
                 it: {failure}",
                binding.id
            ),
            None => format!(
                "{service_key} is rendered nowhere: {} claims it",
                binding.id
            ),
        });
        claimed.notes.push(format!(
            "claimed by {}; EndpointSlices from the providers reach the consumers at run time",
            binding.id
        ));
        let providers_placed: Vec<usize> = providers
            .iter()
            .filter_map(|name| cluster_index.get(name.as_str()).copied())
            .collect();
        if let Some(message) = no_backends(fleet, placements, service_template, &providers_placed) {
            warnings.push(
                Diagnostic::warning(
                    Lint::McsNoBackends,
                    Some(template.origin.clone()),
                    format!("{}: {message}", template.key),
                )
                .about_object(&template.key),
            );
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.into())
    }
}

/// The binding Karmada's controller builds for the Service, as a policy: a cluster affinity
/// naming providers ∪ consumers and nothing else (no tolerations, no spread, Duplicated).
fn mcs_binding(mcs: &Template, clusters: Vec<String>) -> Propagation {
    Propagation {
        id: PolicyId {
            kind: MULTI_CLUSTER_SERVICE.to_string(),
            scope: PolicyScope::Namespace(mcs.namespace().to_string()),
            name: mcs.name().to_string(),
        },
        origin: mcs.origin.clone(),
        fields: Default::default(),
        priority: 0,
        resource_selectors: Vec::new(),
        placement: PolicyPlacement {
            cluster_affinity: Some(ClusterAffinity {
                cluster_names: clusters,
                ..ClusterAffinity::default()
            }),
            ..PolicyPlacement::default()
        },
        suspension: Default::default(),
        dependent_overrides: Vec::new(),
        propagate_deps: false,
        preserves_on_deletion: false,
        lazy_activation: false,
        release_fields: ReleaseFields::default(),
    }
}

/// The pod labels a workload's pods carry: its pod template's, or a Pod's own.
fn pod_labels(template: &Template) -> Option<&serde_json::Map<String, Value>> {
    let pointer = match template.kind() {
        "Pod" => "/metadata/labels",
        "CronJob" => "/spec/jobTemplate/spec/template/metadata/labels",
        _ => "/spec/template/metadata/labels",
    };
    crate::json_pointer::pointer(&template.object, pointer)?.as_object()
}

/// Why consumers would get no endpoints: no workload placed on a provider has pods the
/// Service selects. `None` when one has, or when the Service selects no pods itself (no
/// selector: endpoints written by hand or an ExternalName).
fn no_backends(
    fleet: &Fleet,
    placements: &[Placement],
    service: &Template,
    providers: &[usize],
) -> Option<String> {
    let selector = crate::json_pointer::pointer(&service.object, "/spec/selector")?.as_object()?;
    if selector.is_empty() {
        return None;
    }
    let selects = |labels: &serde_json::Map<String, Value>| {
        selector
            .iter()
            .all(|(key, value)| labels.get(key) == Some(value))
    };
    let served = fleet
        .templates
        .iter()
        .zip(placements)
        .any(|(candidate, placement)| {
            candidate.namespace() == service.namespace()
                && placement
                    .targets
                    .clusters()
                    .any(|cluster| providers.contains(&cluster))
                && pod_labels(candidate).is_some_and(selects)
        });
    if served {
        return None;
    }
    let wanted: Vec<String> = selector
        .iter()
        .map(|(key, value)| format!("{key}={}", value.as_str().unwrap_or_default()))
        .collect();
    let names: Vec<&str> = providers
        .iter()
        .map(|&cluster| fleet.clusters[cluster].name())
        .collect();
    Some(format!(
        "no workload placed on a provider cluster ({}) has pods that {} selects ({}): \
         the consumers would get no endpoints",
        names.join(", "),
        service.key,
        wanted.join(", ")
    ))
}
