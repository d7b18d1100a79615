//! Every warning a render can give, known from placement alone: policies that select nothing
//! or name unknown clusters, overlapping policies, override rules that change nothing,
//! templates nothing places.

use crate::edit_distance::Hint;
use crate::fields::Fields;
use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use crate::api::cluster::Cluster;
use crate::bind::PolicyIndex;
use crate::diagnostics::{Diagnostic, Rejected};
use crate::fleet::Fleet;
use crate::lint::Lint;
use crate::object::Template;
use crate::overrides::{self, OverrideIndex, RuleRef};
use crate::policy::Propagation;
use crate::work;

use super::placement::Placement;
use super::selects_nothing::{TemplateNames, why_nothing_is_selected};

/// An OverridePolicy may select only what a ClusterOverridePolicy made of a template, so one
/// that selects no template as written may still be used. The objects are built to find out
/// only while such a policy is left, only for templates that go through a ClusterOverridePolicy
/// rule that may change what selectors see, and once per replica count and rule list.
pub(super) fn extend_with_overrides_after_cluster_overrides(
    fleet: &Fleet,
    override_index: &OverrideIndex<'_>,
    placements: &[Placement],
    overrides_used: &mut BTreeSet<usize>,
) {
    let unused_namespaced = |used: &BTreeSet<usize>| {
        (0..fleet.overrides.len())
            .any(|policy| !used.contains(&policy) && !override_index.is_cluster_wide(policy))
    };
    for (template, placement) in fleet.templates.iter().zip(placements) {
        if !unused_namespaced(overrides_used) {
            return;
        }
        let may_change_selection = placement.override_policies.iter().any(|&policy| {
            override_index.is_cluster_wide(policy)
                && (0..fleet.overrides[policy].rules.len()).any(|rule| {
                    override_index.may_change_what_selectors_see(RuleRef { policy, rule })
                })
        });
        if !may_change_selection {
            continue;
        }
        overrides_used.extend(work::namespaced_policies_after_cluster_overrides(
            fleet,
            override_index,
            template,
            &placement.targets,
        ));
    }
}

/// A PropagationPolicy waits forever for missing `dependentOverrides` in Karmada; offline that
/// is an error (karmada-overrides spec §3.2).
pub(super) fn check_dependent_overrides(fleet: &Fleet) -> Result<(), Rejected> {
    let mut errors = Vec::new();
    for policy in &fleet.propagations {
        for name in &policy.dependent_overrides {
            let exists = fleet.overrides.iter().any(|o| {
                &o.id.name == name
                    && o.id.scope == policy.id.scope
                    && o.id.kind.starts_with("Cluster") == policy.is_cluster_wide()
            });
            if !exists {
                errors.push(Diagnostic::error(
                    Some(policy.origin.clone()),
                    format!(
                        "{}: spec.dependentOverrides names {name:?}, which does not exist; Karmada binds nothing this policy selects until it does (what another workload takes along as a dependency still goes with it)",
                        policy.id
                    ),
                ));
            }
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.into())
    }
}

/// Propagation policies that select nothing, and cluster names that are not in the inventory.
pub(super) fn propagation_warnings(
    fleet: &Fleet,
    used: &BTreeSet<usize>,
    placements: &[Placement],
) -> Vec<Diagnostic> {
    let known: BTreeSet<&str> = fleet.clusters.iter().map(Cluster::name).collect();
    let names = TemplateNames::of(fleet);
    let mut warnings = Vec::new();
    for (index, policy) in fleet.propagations.iter().enumerate() {
        if !used.contains(&index) {
            let (why, field) =
                why_nothing_is_selected(fleet, placements, &policy.id, &policy.resource_selectors);
            warnings.push(Diagnostic::warning(
                Lint::SelectsNothing,
                Some(policy.fields.origin(&policy.origin, &field)),
                format!("{} selects no template{why}", policy.id),
            ));
        } else {
            warnings.extend(
                names
                    .selecting_nothing(fleet, placements, &policy.id, &policy.resource_selectors)
                    .into_iter()
                    .map(|(field, why)| {
                        Diagnostic::warning(
                            Lint::SelectsNothing,
                            Some(policy.fields.origin(&policy.origin, &field)),
                            format!("{}: {field} selects no template: {why}", policy.id),
                        )
                    }),
            );
        }
        let selected = clusters_the_affinity_selects(fleet, policy);
        for (field, name) in named_clusters(policy) {
            if known.contains(name.as_str()) {
                continue;
            }
            let near = crate::edit_distance::nearest_name(&name, known.iter().copied());
            let hint = crate::edit_distance::hint(near, Hint::InParenthesesQuoted);
            // What the typo does to the cluster it was likely meant to name.
            let is_selected = |near: &str| selected.iter().any(|c| c.name() == near);
            let consequence = match near {
                Some(near) if field.starts_with("spec.suspension") => {
                    format!("; dispatching to {near} is not suspended")
                }
                Some(near) if field.contains("staticWeightList") => {
                    format!("; {near} gets no weight from this entry")
                }
                Some(near) if field.contains(".exclude[") && is_selected(near) => {
                    format!("; {near} is not excluded")
                }
                Some(near) if field.contains(".clusterNames[") && !is_selected(near) => {
                    format!("; {near} gets nothing this policy places")
                }
                _ => String::new(),
            };
            warnings.push(
                Diagnostic::warning(
                    Lint::UnknownCluster,
                    Some(policy.fields.origin(&policy.origin, &field)),
                    format!(
                        "{}: {field}: cluster {name:?} is not in the inventory{hint}{consequence}",
                        policy.id
                    ),
                )
                .on_cluster(name.as_str()),
            );
        }
        warnings.extend(weights_for_unselected_clusters(fleet, policy));
    }
    warnings
}

/// ` (did you mean "prod-eu-2"?)` for a cluster name with a near one in the inventory.
pub(super) fn nearest_cluster_hint(name: &str, known: &BTreeSet<&str>) -> String {
    crate::edit_distance::hint(
        crate::edit_distance::nearest_name(name, known.iter().copied()),
        Hint::InParenthesesQuoted,
    )
}

/// The clusters of the inventory a policy's cluster affinity (or any of its affinity terms)
/// selects, before taints, capacity and spreading narrow them.
pub(super) fn clusters_the_affinity_selects<'f>(
    fleet: &'f Fleet,
    policy: &Propagation,
) -> Vec<&'f Cluster> {
    let placement = &policy.placement;
    fleet
        .clusters
        .iter()
        .filter(
            |cluster| match (&placement.cluster_affinity, &placement.cluster_affinities) {
                (Some(affinity), _) => affinity.matches(cluster),
                (None, Some(terms)) => terms.iter().any(|term| term.affinity().matches(cluster)),
                (None, None) => true,
            },
        )
        .collect()
}

/// Static weight entries that match no cluster the placement's affinity selects: Karmada
/// weighs only the candidate clusters, so such an entry gives replicas to no one.
pub(super) fn weights_for_unselected_clusters(
    fleet: &Fleet,
    policy: &Propagation,
) -> Vec<Diagnostic> {
    let placement = &policy.placement;
    let Some(weights) = placement
        .replica_scheduling
        .as_ref()
        .and_then(|scheduling| scheduling.weight_preference.as_ref())
    else {
        return Vec::new();
    };
    let selected = clusters_the_affinity_selects(fleet, policy);
    let unmatched: Vec<usize> = weights
        .static_weight_list
        .iter()
        .enumerate()
        .filter(|(_, entry)| {
            // Names missing from the inventory are warned about already.
            entry
                .target_cluster
                .named_clusters()
                .all(|name| fleet.clusters.iter().any(|cluster| cluster.name() == name))
                && !selected
                    .iter()
                    .any(|cluster| entry.target_cluster.matches(cluster))
        })
        .map(|(index, _)| index)
        .collect();
    // With no entry matching a candidate, Karmada weighs every candidate 1 (spec §8.4).
    let consequence = if unmatched.len() == weights.static_weight_list.len() {
        "and as no entry does, Karmada weighs every selected cluster 1"
    } else {
        "so its weight gives replicas to no cluster"
    };
    unmatched
        .into_iter()
        .map(|index| {
            let field =
                format!("spec.placement.replicaScheduling.weightPreference.staticWeightList[{index}]");
            Diagnostic::warning(
                Lint::TargetsNoCluster,
                Some(policy.fields.origin(&policy.origin, &field)),
                format!(
                    "{}: spec.placement.replicaScheduling.weightPreference.staticWeightList[{index}] \
                     matches no cluster the placement's cluster affinity selects, {consequence}",
                    policy.id
                ),
            )
        })
        .collect()
}

/// Command and args overriders that change nothing on a template their policy selects: a
/// container name a workload does not have (karmada commandargsoverride.go passes over it
/// without a word), or, for an overrider that changes no template at all, kinds whose
/// containers Karmada does not override. One warning per overrider and reason, counting the
/// templates.
pub(super) fn overriders_that_change_nothing(
    fleet: &Fleet,
    placements: &[Placement],
) -> Vec<Diagnostic> {
    // Per (policy, overrider field, whether the kind is one Karmada overrides): how many
    // templates it misses, the first, and why.
    let mut missed: BTreeMap<(usize, String, bool), (usize, usize, String)> = BTreeMap::new();
    let mut changed_one: BTreeSet<(usize, String)> = BTreeSet::new();
    for (position, (template, placement)) in fleet.templates.iter().zip(placements).enumerate() {
        if placement.targets.is_empty() {
            continue;
        }
        for &policy_index in &placement.override_policies {
            // Each overrider either changed this template or missed it, and why.
            let mut record =
                |field: String, missed_because: Option<(bool, String)>| match missed_because {
                    None => {
                        changed_one.insert((policy_index, field));
                    }
                    Some((workload, why)) => {
                        missed
                            .entry((policy_index, field, workload))
                            .or_insert((0, position, why))
                            .0 += 1;
                    }
                };
            for rule in &fleet.overrides[policy_index].rules {
                for (list, overriders) in [
                    ("commandOverrider", &rule.overriders.command_overrider),
                    ("argsOverrider", &rule.overriders.args_overrider),
                ] {
                    for (index, overrider) in overriders.iter().enumerate() {
                        record(
                            format!("{}.overriders.{list}[{index}]", rule.field),
                            why_no_container_changes(template, &overrider.container_name),
                        );
                    }
                }
                for (index, overrider) in rule.overriders.image_overrider.iter().enumerate() {
                    // With a predicate, a path that is not there is an error when it runs.
                    if overrider.predicate.is_none() {
                        record(
                            format!("{}.overriders.imageOverrider[{index}]", rule.field),
                            overrides::image::why_no_image_changes(
                                &template.object,
                                template.kind(),
                            ),
                        );
                    }
                }
            }
        }
    }
    missed
        .into_iter()
        .filter(|((policy_index, field, workload), _)| {
            // Other kinds matter only when the overrider reaches no workload it could change.
            *workload || !changed_one.contains(&(*policy_index, field.clone()))
        })
        .map(|((policy_index, field, _), (count, position, why))| {
            let policy = &fleet.overrides[policy_index];
            let key = &fleet.templates[position].key;
            let which = if count == 1 {
                key.to_string()
            } else {
                format!("{count} templates it selects, such as {key}")
            };
            let warning = Diagnostic::warning(
                Lint::OverridesNothing,
                Some(policy.fields.origin(&policy.origin, &field)),
                format!("{}: {field} changes nothing on {which}: {why}", policy.id),
            );
            if count == 1 {
                warning.about_object(key)
            } else {
                warning
            }
        })
        .collect()
}

/// Why a command or args overrider for `container` leaves the template as it is, if it does,
/// and whether the template is of a kind Karmada overrides containers in.
pub(super) fn why_no_container_changes(
    template: &Template,
    container: &str,
) -> Option<(bool, String)> {
    let Some(pointer) = overrides::command_args::containers_pointer(template.kind()) else {
        return Some((
            false,
            format!(
                "Karmada overrides commands and args in Pods, Deployments, ReplicaSets, \
                 DaemonSets, StatefulSets and Jobs only, not in a {}",
                template.kind()
            ),
        ));
    };
    let names: Vec<&str> = template
        .object
        .pointer(pointer)
        .and_then(Value::as_array)
        .map(|containers| {
            containers
                .iter()
                .filter_map(|c| c.field("name").and_then(Value::as_str))
                .collect()
        })
        .unwrap_or_default();
    (!names.contains(&container)).then(|| {
        (
            true,
            format!(
                "it has no container {container:?} (its containers: {})",
                names.join(", ")
            ),
        )
    })
}

/// Overlapping propagation policies: a template whose best two policies tie but for their
/// names, and a policy that matches templates but loses every one of them.
pub(super) fn overlap_warnings(
    fleet: &Fleet,
    index: &PolicyIndex<'_>,
    placements: &[Placement],
) -> Vec<Diagnostic> {
    let mut warnings = Vec::new();
    // Per losing policy: how many templates it matched, and one it lost with the winner.
    let mut lost: BTreeMap<usize, (usize, usize, usize)> = BTreeMap::new();
    let mut won = BTreeSet::new();
    // Per pair of tied policies (winner, runner-up): how many templates, and the first.
    let mut ties: BTreeMap<(usize, usize), (usize, usize)> = BTreeMap::new();
    for (position, placement) in placements.iter().enumerate() {
        let Some(winner) = placement.winner else {
            continue;
        };
        won.insert(winner);
        let Some(&winner_entry) = placement.candidates.iter().find(|(p, _)| *p == winner) else {
            continue;
        };
        for &candidate in &placement.candidates {
            if candidate.0 == winner {
                continue;
            }
            lost.entry(candidate.0).or_insert((0, position, winner)).0 += 1;
            let (best, other) = (
                &fleet.propagations[winner],
                &fleet.propagations[candidate.0],
            );
            let tied = best.is_cluster_wide() == other.is_cluster_wide()
                && best.priority == other.priority
                && winner_entry.1 == candidate.1;
            let runner_up = placement
                .candidates
                .iter()
                .filter(|(p, _)| *p != winner)
                .filter(|(p, _)| fleet.propagations[*p].is_cluster_wide() == best.is_cluster_wide())
                .min_by(|a, b| index.compare(**a, **b));
            if tied && runner_up == Some(&candidate) {
                ties.entry((winner, candidate.0)).or_insert((0, position)).0 += 1;
            }
        }
    }
    // One warning per pair, at the first template, not one per template: a pair of policies
    // that overlap usually do so on a whole namespace.
    let mut tie_warnings: Vec<(usize, Diagnostic)> = ties
        .into_iter()
        .map(|((winner, runner_up), (count, position))| {
            let (best, other) = (&fleet.propagations[winner], &fleet.propagations[runner_up]);
            let template = &fleet.templates[position];
            let templates = if count == 1 {
                template.key.to_string()
            } else {
                format!("{count} templates, such as {}", template.key)
            };
            let message = format!(
                "{} and {} tie on priority for {templates}; {} wins by name",
                best.id, other.id, best.id
            );
            let origin = Some(template.origin.clone());
            (
                position,
                Diagnostic::warning(Lint::PriorityTie, origin, message),
            )
        })
        .collect();
    tie_warnings.sort_by_key(|(position, _)| *position);
    warnings.extend(tie_warnings.into_iter().map(|(_, warning)| warning));
    for (policy, (count, position, winner)) in lost {
        if won.contains(&policy) {
            continue;
        }
        let (loser, best) = (&fleet.propagations[policy], &fleet.propagations[winner]);
        let template = &fleet.templates[position];
        let implicit = |p: usize| {
            placements[position]
                .candidates
                .iter()
                .find(|(candidate, _)| *candidate == p)
                .map(|(_, implicit)| *implicit)
        };
        let why = if loser.is_cluster_wide() && !best.is_cluster_wide() {
            "a PropagationPolicy in the namespace wins over every ClusterPropagationPolicy"
                .to_string()
        } else if loser.priority != best.priority {
            format!("its priority {} is above {}", best.priority, loser.priority)
        } else if implicit(policy) != implicit(winner) {
            format!(
                "it selects by {}, this policy by {}",
                implicit(winner).map_or("?", |i| i.describe()),
                implicit(policy).map_or("?", |i| i.describe())
            )
        } else {
            "it sorts first by name".to_string()
        };
        let lost_to = if count == 1 {
            format!("matches {} but {} places it", template.key, best.id)
        } else {
            format!(
                "matches {count} templates but places none: another policy wins each, such as \
                 {} for {}",
                best.id, template.key
            )
        };
        warnings.push(Diagnostic::warning(
            Lint::ShadowedPolicy,
            Some(loser.origin.clone()),
            format!("{} {lost_to} ({why})", loser.id),
        ));
    }
    warnings
}

/// Every cluster a propagation policy names, with the field that names it.
pub(super) fn named_clusters(policy: &Propagation) -> Vec<(String, String)> {
    let placement = &policy.placement;
    let mut named = Vec::new();
    let mut add = |field: String, affinity: &crate::api::karmada::ClusterAffinity| {
        for (list, names) in [
            ("clusterNames", &affinity.cluster_names),
            ("exclude", &affinity.exclude),
        ] {
            for (index, name) in names.iter().enumerate() {
                named.push((format!("{field}.{list}[{index}]"), name.clone()));
            }
        }
    };
    if let Some(affinity) = &placement.cluster_affinity {
        add("spec.placement.clusterAffinity".to_string(), affinity);
    }
    for (index, term) in placement.cluster_affinities.iter().flatten().enumerate() {
        let field = format!("spec.placement.clusterAffinities[{index}]");
        add(field.clone(), &term.affinity());
        for (position, overflow) in term.overflow_affinities.iter().enumerate() {
            add(
                format!("{field}.overflowAffinities[{position}]"),
                &overflow.affinity(),
            );
        }
    }
    let weights = placement
        .replica_scheduling
        .as_ref()
        .and_then(|scheduling| scheduling.weight_preference.as_ref());
    for (index, rule) in weights
        .iter()
        .flat_map(|w| w.static_weight_list.iter())
        .enumerate()
    {
        add(
            format!(
                "spec.placement.replicaScheduling.weightPreference.staticWeightList[{index}].targetCluster"
            ),
            &rule.target_cluster,
        );
    }
    for (index, name) in policy
        .suspension
        .dispatching_on_clusters
        .iter()
        .flat_map(|on| on.cluster_names.iter())
        .enumerate()
    {
        named.push((
            format!("spec.suspension.dispatchingOnClusters.clusterNames[{index}]"),
            name.clone(),
        ));
    }
    named
}

/// Override policies that select no template, and override rules whose target matches no
/// cluster of the inventory, names clusters it does not have, or matches only clusters that
/// receive none of the templates the policy overrides.
pub(super) fn override_warnings(
    fleet: &Fleet,
    used: &BTreeSet<usize>,
    placements: &[Placement],
) -> Vec<Diagnostic> {
    let known: BTreeSet<&str> = fleet.clusters.iter().map(Cluster::name).collect();
    let mut receiving: Vec<BTreeSet<&str>> = vec![BTreeSet::new(); fleet.overrides.len()];
    for placement in placements {
        for &policy in &placement.override_policies {
            receiving[policy].extend(
                placement
                    .targets
                    .clusters()
                    .map(|cluster| fleet.clusters[cluster].name()),
            );
        }
    }
    let names = TemplateNames::of(fleet);
    let mut warnings = Vec::new();
    for (index, policy) in fleet.overrides.iter().enumerate() {
        let warn = |lint: Lint, field: &str, message: String| {
            let origin = policy.fields.origin(&policy.origin, field);
            Diagnostic::warning(lint, Some(origin), message)
        };
        if !used.contains(&index) {
            let (why, field) =
                why_nothing_is_selected(fleet, placements, &policy.id, &policy.resource_selectors);
            warnings.push(warn(
                Lint::SelectsNothing,
                &field,
                format!("{} selects no template{why}", policy.id),
            ));
        } else {
            for (field, why) in
                names.selecting_nothing(fleet, placements, &policy.id, &policy.resource_selectors)
            {
                warnings.push(warn(
                    Lint::SelectsNothing,
                    &field,
                    format!("{}: {field} selects no template: {why}", policy.id),
                ));
            }
        }
        for rule in &policy.rules {
            let Some(target) = &rule.target_cluster else {
                continue;
            };
            let field = if rule.field == "spec" {
                "spec.targetCluster".to_string()
            } else {
                format!("{}.targetCluster", rule.field)
            };
            let mut misspelt_name = false;
            for (list, names) in [
                ("clusterNames", &target.cluster_names),
                ("exclude", &target.exclude),
            ] {
                for (position, name) in names.iter().enumerate() {
                    if known.contains(name.as_str()) {
                        continue;
                    }
                    misspelt_name |= list == "clusterNames";
                    let field = format!("{field}.{list}[{position}]");
                    let near = crate::edit_distance::nearest_name(name, known.iter().copied());
                    let targets = |near: &str| {
                        fleet
                            .clusters
                            .iter()
                            .any(|cluster| cluster.name() == near && target.matches(cluster))
                    };
                    let consequence = match near {
                        Some(near) if list == "exclude" && targets(near) => {
                            format!("; {near} is not excluded from this rule")
                        }
                        Some(near) if list == "clusterNames" && !targets(near) => {
                            format!("; this rule's overriders do not apply to {near}")
                        }
                        _ => String::new(),
                    };
                    warnings.push(
                        warn(
                            Lint::UnknownCluster,
                            &field,
                            format!(
                                "{}: {field}: cluster {name:?} is not in the inventory{}{consequence}",
                                policy.id,
                                nearest_cluster_hint(name, &known)
                            ),
                        )
                        .on_cluster(name.as_str()),
                    );
                }
            }
            let targeted: Vec<&str> = fleet
                .clusters
                .iter()
                .filter(|cluster| target.matches(cluster))
                .map(Cluster::name)
                .collect();
            // A misspelt name already says why its rule matches nothing.
            if targeted.is_empty() && !misspelt_name {
                warnings.push(warn(
                    Lint::TargetsNoCluster,
                    &field,
                    format!("{}: {field} matches no cluster of the inventory", policy.id),
                ));
            } else if !targeted.is_empty()
                && !receiving[index].is_empty()
                && !targeted.iter().any(|name| receiving[index].contains(name))
            {
                warnings.push(warn(
                    Lint::TargetsNoCluster,
                    &field,
                    format!(
                        "{}: {field} matches {}, which {} none of the templates this policy \
                         selects (they go to {}), so this rule changes nothing",
                        policy.id,
                        some_names(targeted.iter().copied()),
                        if targeted.len() == 1 {
                            "receives"
                        } else {
                            "receive"
                        },
                        some_names(receiving[index].iter().copied())
                    ),
                ));
            }
        }
    }
    warnings
}

/// A few names for a message: `a, b and c`, or `a, b, c and 4 more`.
pub(super) fn some_names<'a>(names: impl ExactSizeIterator<Item = &'a str>) -> String {
    const SHOWN: usize = 3;
    let total = names.len();
    let shown: Vec<&str> = names.take(SHOWN).collect();
    match shown.as_slice() {
        [] => "no cluster".to_string(),
        [only] => (*only).to_string(),
        [init @ .., last] if total <= SHOWN => format!("{} and {last}", init.join(", ")),
        _ => format!("{} and {} more", shown.join(", "), total - SHOWN),
    }
}

/// The namespaces that exist on every Karmada control plane, which no fleet defines.
const CONTROL_PLANE_NAMESPACES: [&str; 6] = [
    "default",
    "kube-system",
    "kube-public",
    "kube-node-lease",
    "karmada-system",
    "karmada-cluster",
];

/// Placed objects in a namespace that no Namespace template defines: Karmada's API server
/// refuses an object in a namespace it does not have, so the namespace must be created on the
/// control plane by hand (a real fleet's README says `kubectl create ns`), or the fleet misses
/// it. One warning per namespace, at its first object, with how many objects need it.
pub(super) fn undefined_namespace_warnings(
    fleet: &Fleet,
    placements: &[Placement],
) -> Vec<Diagnostic> {
    let defined: BTreeSet<&str> = fleet
        .templates
        .iter()
        .filter(|template| template.group().is_empty() && template.kind() == "Namespace")
        .map(|template| template.name())
        .collect();
    let mut needing: BTreeMap<&str, (usize, &Template)> = BTreeMap::new();
    for (template, placement) in fleet.templates.iter().zip(placements) {
        let namespace = template.namespace();
        if placement.targets.is_empty()
            || namespace.is_empty()
            || defined.contains(namespace)
            || CONTROL_PLANE_NAMESPACES.contains(&namespace)
            || namespace.starts_with("karmada-es-")
        {
            continue;
        }
        needing.entry(namespace).or_insert((0, template)).0 += 1;
    }
    needing
        .into_iter()
        .map(|(namespace, (count, first))| {
            Diagnostic::warning(
                Lint::UndefinedNamespace,
                Some(first.origin.clone()),
                format!(
                    "namespace {namespace} is defined by no template, and {count} placed object{} \
                     go{} into it; Karmada's API server refuses them unless the namespace exists \
                     on the control plane: add a Namespace template (Karmada's namespace \
                     controller then creates it in every cluster), or create it by hand",
                    if count == 1 { "" } else { "s" },
                    if count == 1 { "es" } else { "" },
                ),
            )
        })
        .collect()
}
