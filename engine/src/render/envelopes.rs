//! The replica envelopes of `fedrender plan`: for each workload a FederatedHPA or a
//! CronFederatedHPA scales, the scheduler's division at each end of the FederatedHPA's bounds
//! and at each cron rule, found by placing the template again with those replicas written in,
//! as Karmada's scheduler places the template the controller rescaled.

use std::collections::BTreeMap;

use crate::bind::PolicyIndex;
use crate::controllers::federated_hpa::{Autoscalers, CronFederatedHpa, FederatedHpa};
use crate::fleet::Fleet;
use crate::object::Template;
use crate::overrides::OverrideIndex;

use super::placement::place_template;
use super::plan::{Envelope, PlanEntry};

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

/// Adds each autoscaler's envelopes to the plan entry of the template it scales.
pub(super) fn add_envelopes(placing: &Placing<'_, '_>, plan: &mut [PlanEntry]) {
    let fleet = placing.fleet;
    let autoscalers = &fleet.autoscalers;
    let mut found: Vec<(usize, Envelope)> = Vec::new();
    for hpa in &autoscalers.federated {
        let Some(index) = Autoscalers::target_of(&hpa.target, &hpa.key.namespace, &fleet.templates)
        else {
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
                Autoscalers::target_of(&hpa.target, &hpa.key.namespace, &fleet.templates),
                Some(hpa),
            )
        } else {
            (
                Autoscalers::target_of(&cron.target, &cron.key.namespace, &fleet.templates),
                None,
            )
        };
        let Some(index) = template else { continue };
        found.extend(
            cron_envelopes(placing, cron, bounds_of, &fleet.templates[index])
                .into_iter()
                .map(|e| (index, e)),
        );
    }
    for (index, envelope) in found {
        let key = &fleet.templates[index].key;
        if let Some(entry) = plan.iter_mut().find(|entry| &entry.key == key) {
            entry.autoscaling.push(envelope);
        }
    }
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
