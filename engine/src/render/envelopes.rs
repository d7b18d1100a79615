//! The replica envelopes of `fedrender plan`: for each workload a FederatedHPA or a
//! CronFederatedHPA scales, the scheduler's division at each end of the FederatedHPA's bounds
//! and at each cron rule, found by placing the template again with those replicas written in,
//! as Karmada's scheduler places the template the controller rescaled.

use std::collections::BTreeMap;

use crate::bind::PolicyIndex;
use crate::controllers::federated_hpa::{CronFederatedHpa, FederatedHpa, TemplateIndex};
use crate::fields::Fields;
use crate::fleet::Fleet;
use crate::object::Template;
use crate::overrides::OverrideIndex;

use super::placement::place_template;
use super::plan::Envelope;

/// What the envelopes are computed with.
pub(super) struct Placing<'a, 'f> {
    pub fleet: &'f Fleet,
    pub index: &'a PolicyIndex<'f>,
    pub overrides: &'a OverrideIndex<'f>,
    pub cluster_index: &'a BTreeMap<&'f str, usize>,
}

impl Placing<'_, '_> {
    /// Each cluster's replicas when `template` has `replicas`, in inventory order; empty when
    /// it goes nowhere.
    fn division(&self, template: &Template, replicas: i64) -> Vec<(String, i64)> {
        let Ok(object) = self.fleet.interpreter.revise(template, replicas) else {
            return Vec::new();
        };
        let scaled = Template {
            object,
            ..template.clone()
        };
        let Ok(placement) = place_template(
            self.fleet,
            (self.index, self.overrides),
            self.cluster_index,
            &scaled,
            false,
        ) else {
            return Vec::new();
        };
        let mut clusters: Vec<(usize, i64)> = placement
            .targets
            .iter()
            .map(|target| (target.cluster, target.replicas.unwrap_or(0)))
            .collect();
        clusters.sort_unstable();
        clusters
            .into_iter()
            .map(|(position, replicas)| {
                (self.fleet.clusters[position].name().to_string(), replicas)
            })
            .collect()
    }

    fn envelope(&self, template: &Template, by: String, moment: String, replicas: i64) -> Envelope {
        Envelope {
            by,
            moment,
            replicas,
            clusters: self.division(template, replicas),
            never: None,
        }
    }
}

/// Every autoscaler's envelopes, each with the position of the template it scales in the
/// fleet's templates, FederatedHPAs first, in the fleet's order.
pub(super) fn envelopes(placing: &Placing<'_, '_>) -> Vec<(usize, Envelope)> {
    let fleet = placing.fleet;
    let autoscalers = &fleet.autoscalers;
    let targets = TemplateIndex::new(&fleet.templates);
    let mut found: Vec<(usize, Envelope)> = Vec::new();
    for hpa in &autoscalers.federated {
        let Some(index) = targets.target_of(&hpa.target, &hpa.key.namespace) else {
            continue;
        };
        found.extend(
            federated_hpa_envelopes(placing, hpa, &fleet.templates[index])
                .into_iter()
                .map(|e| (index, e)),
        );
    }
    for cron in &autoscalers.cron {
        let (template, bounds_of) = if cron.scales_federated_hpa() {
            let Some(hpa) = autoscalers.federated.iter().find(|hpa| {
                hpa.key.namespace == cron.key.namespace && hpa.key.name == cron.target.name
            }) else {
                continue;
            };
            (
                targets.target_of(&hpa.target, &hpa.key.namespace),
                Some(hpa),
            )
        } else {
            (targets.target_of(&cron.target, &cron.key.namespace), None)
        };
        let Some(index) = template else { continue };
        found.extend(
            cron_envelopes(placing, cron, bounds_of, &fleet.templates[index])
                .into_iter()
                .map(|e| (index, e)),
        );
    }
    found
}

/// Every autoscaled workload's envelopes by the workload, as the plan adds them to each
/// workload's entry: what a diff compares without explaining the whole fleet.
pub(super) fn envelopes_by_workload(
    placing: &Placing<'_, '_>,
) -> BTreeMap<crate::object::ObjectKey, Vec<Envelope>> {
    let mut by_workload: BTreeMap<crate::object::ObjectKey, Vec<Envelope>> = BTreeMap::new();
    for (index, envelope) in envelopes(placing) {
        let key = placing.fleet.templates[index].key.clone();
        by_workload.entry(key).or_default().push(envelope);
    }
    by_workload
}

fn federated_hpa_envelopes(
    placing: &Placing<'_, '_>,
    hpa: &FederatedHpa,
    template: &Template,
) -> Vec<Envelope> {
    let by = format!("FederatedHPA {}/{}", hpa.key.namespace, hpa.key.name);
    vec![
        placing.envelope(
            template,
            by.clone(),
            "minReplicas".to_string(),
            hpa.min_replicas,
        ),
        placing.envelope(template, by, "maxReplicas".to_string(), hpa.max_replicas),
    ]
}

fn cron_envelopes(
    placing: &Placing<'_, '_>,
    cron: &CronFederatedHpa,
    hpa: Option<&FederatedHpa>,
    template: &Template,
) -> Vec<Envelope> {
    let by = format!("CronFederatedHPA {}/{}", cron.key.namespace, cron.key.name);
    let mut envelopes = Vec::new();
    for rule in &cron.rules {
        let at = format!(
            "rule {} ({}, {})",
            rule.name,
            rule.schedule,
            rule.zone_name()
        );
        let mut moments = Vec::new();
        match hpa {
            Some(hpa) => {
                if let Some(min) = rule.target_min_replicas {
                    moments.push((format!("{at}: minReplicas"), min));
                }
                if let Some(max) = rule.target_max_replicas {
                    moments.push((format!("{at}: maxReplicas"), max));
                }
                // What the rule leaves, the FederatedHPA's own.
                if rule.target_min_replicas.is_none() {
                    moments.insert(
                        0,
                        (format!("{at}: minReplicas (unchanged)"), hpa.min_replicas),
                    );
                }
                if rule.target_max_replicas.is_none() {
                    moments.push((format!("{at}: maxReplicas (unchanged)"), hpa.max_replicas));
                }
            }
            None => {
                if let Some(replicas) = rule.target_replicas {
                    moments.push((at.clone(), replicas));
                }
            }
        }
        for (moment, replicas) in moments {
            let mut envelope = placing.envelope(template, by.clone(), moment, replicas);
            envelope.never = rule.never_fires();
            envelopes.push(envelope);
        }
    }
    envelopes
}

/// A HorizontalPodAutoscaler one member gets in place of a FederatedHPA (`build --gitops
/// --gitops-member-hpas`), as Federation v1's federated HPA controller split one: the
/// member's share of `minReplicas` and of `maxReplicas`, by the scheduler's division of each.
#[derive(Debug, Clone, PartialEq)]
pub struct MemberHpa {
    /// The cluster.
    pub cluster: String,
    /// The workload it scales.
    pub target: crate::object::ObjectKey,
    /// The object, `autoscaling/v2`.
    pub object: serde_json::Value,
}

/// Why a FederatedHPA's member HPAs would not do what it does; `None` when they would.
fn unfaithful(fleet: &Fleet, hpa: &FederatedHpa, policy: Option<usize>) -> Option<String> {
    if let Some((index, _)) = (hpa.metrics.iter().enumerate()).find(|(_, metric)| {
        metric.field("type").and_then(serde_json::Value::as_str) == Some("Object")
    }) {
        return Some(format!(
            "spec.metrics[{index}] is an Object metric, which karmada-metrics-adapter sums over every member cluster (pkg/metricsadapter/provider/custommetrics.go GetMetricByName) and a member's HorizontalPodAutoscaler reads for its own cluster alone"
        ));
    }
    let divided = policy.is_some_and(|policy| {
        crate::schedule::divide::strategy(&fleet.propagations[policy].placement).is_divided()
    });
    if !divided {
        return Some(
            "its target is Duplicated: every member runs the template's count, which the FederatedHPA moves for all of them at once (federatedhpa_controller.go computeReplicasForMetrics calibrates by the members' sum); members' HorizontalPodAutoscalers would each move their own"
                .to_string(),
        );
    }
    None
}

/// The member HPAs of every FederatedHPA whose target the fleet places, for each cluster its
/// target's copy goes to; an error for each that cannot be kept faithfully, naming why; and
/// a warning where the members' bounds do not add up to the FederatedHPA's (a member's
/// minReplicas is at least 1, and only the clusters the tree sends the workload to get one).
pub(super) fn member_hpas(
    placing: &Placing<'_, '_>,
    placements: &[super::placement::Placement],
) -> Result<(Vec<MemberHpa>, Vec<crate::diagnostics::Diagnostic>), crate::diagnostics::Rejected> {
    use crate::diagnostics::Diagnostic;
    use serde_json::json;
    let fleet = placing.fleet;
    let targets = TemplateIndex::new(&fleet.templates);
    let mut hpas = Vec::new();
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    for hpa in &fleet.autoscalers.federated {
        let Some(index) = targets.target_of(&hpa.target, &hpa.key.namespace) else {
            continue;
        };
        let (template, placement) = (&fleet.templates[index], &placements[index]);
        if placement.targets.is_empty() {
            continue;
        }
        if let Some(why) = unfaithful(fleet, hpa, placement.winner) {
            errors.push(
                Diagnostic::error(
                    Some(hpa.origin.clone()),
                    format!(
                        "{}: --gitops-member-hpas cannot keep it on the members: {why}; leave the option out (the autoscaling then stays Karmada's, which these trees do not carry)",
                        hpa.key
                    ),
                )
                .about_object(&hpa.key),
            );
            continue;
        }
        let at = |replicas| -> BTreeMap<String, i64> {
            placing.division(template, replicas).into_iter().collect()
        };
        let (at_min, at_max) = (at(hpa.min_replicas), at(hpa.max_replicas));
        let (mut floor, mut ceiling) = (0, 0);
        for target in placement.targets.iter() {
            let cluster = fleet.clusters[target.cluster].name().to_string();
            let min = at_min.get(&cluster).copied().unwrap_or(0).max(1);
            let max = at_max.get(&cluster).copied().unwrap_or(0).max(min);
            floor += min;
            ceiling += max;
            let mut spec = json!({
                "scaleTargetRef": {
                    "apiVersion": hpa.target.api_version,
                    "kind": hpa.target.kind,
                    "name": hpa.target.name,
                },
                "minReplicas": min,
                "maxReplicas": max,
                "metrics": hpa.metrics,
            });
            if let Some(behavior) = &hpa.behavior {
                spec["behavior"] = behavior.clone();
            }
            hpas.push(MemberHpa {
                cluster,
                target: template.key.clone(),
                object: json!({
                    "apiVersion": "autoscaling/v2",
                    "kind": "HorizontalPodAutoscaler",
                    "metadata": {
                        "name": hpa.key.name,
                        "namespace": hpa.key.namespace,
                        "annotations": {
                            "fedrender.io/federated-hpa": format!("{}/{}", hpa.key.namespace, hpa.key.name),
                        },
                    },
                    "spec": spec,
                }),
            });
        }
        if (floor, ceiling) != (hpa.min_replicas, hpa.max_replicas) {
            warnings.push(
                Diagnostic::warning(
                    crate::lint::Lint::NotModelled,
                    Some(hpa.origin.clone()),
                    format!(
                        "{}: its members' HorizontalPodAutoscalers add up to {floor}..{ceiling} replicas, not {}..{}: a member's minReplicas is at least 1, and only the clusters this tree sends {} to get one",
                        hpa.key, hpa.min_replicas, hpa.max_replicas, template.key
                    ),
                )
                .about_object(&hpa.key),
            );
        }
    }
    if !errors.is_empty() {
        return Err(errors.into());
    }
    Ok((hpas, warnings))
}
