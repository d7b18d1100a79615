//! FederatedHPA and CronFederatedHPA (`autoscaling.karmada.io/v1alpha1`), offline. Karmada
//! keeps both on the control plane: the FederatedHPA controller rescales its target's
//! template between `minReplicas` and `maxReplicas` by metrics it sums over the clusters
//! (karmada pkg/controllers/federatedhpa/federatedhpa_controller.go `reconcileAutoscaler`),
//! and the scheduler divides the new count; a CronFederatedHPA's rules set a FederatedHPA's
//! bounds, or a workload's replicas, at their cron times
//! (pkg/controllers/cronfederatedhpa/cronfederatedhpa_job.go `ScaleFHPA`, `ScaleWorkloads`).
//!
//! fedrender reads no metric and no clock, so it renders the ends of that envelope and the
//! moments of the cron rules when asked ([`Moment`]): [`Autoscalers::apply`] writes the
//! replicas into the templates as the controllers would, before anything is placed.

mod admission;
#[cfg(test)]
mod tests;

use std::collections::{BTreeMap, HashMap};

use jiff::Timestamp;
use jiff::tz::TimeZone;
use serde_json::Value;

use super::cron_schedule::{self, Admitted};
use crate::diagnostics::{Diagnostic, Origin};
use crate::interpret::Interpreter;
use crate::lint::Lint;
use crate::object::{ObjectKey, Template};

pub use crate::api::autoscaling::{
    AUTOSCALING_API_VERSION, AUTOSCALING_GROUP, CRON_FEDERATED_HPA, FEDERATED_HPA,
};

/// What an autoscaler scales, in its own namespace: `scaleTargetRef`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScaleTarget {
    /// `apiVersion`, matched exactly (the FederatedHPA controller's `getBindingByLabel`
    /// compares the binding's apiVersion with it).
    pub api_version: String,
    /// `kind`.
    pub kind: String,
    /// `name`.
    pub name: String,
}

impl ScaleTarget {
    fn of(reference: &Value) -> ScaleTarget {
        let text = |field: &str| {
            reference
                .get(field)
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string()
        };
        ScaleTarget {
            api_version: text("apiVersion"),
            kind: text("kind"),
            name: text("name"),
        }
    }
}

/// A FederatedHPA, admitted and defaulted (karmada pkg/util/lifted/federatedhpa.go
/// `SetDefaultsFederatedHPA`: minReplicas 1, 80% average CPU utilization).
#[derive(Debug, Clone)]
pub struct FederatedHpa {
    /// The FederatedHPA.
    pub key: ObjectKey,
    /// Where it is written.
    pub origin: Origin,
    /// What it scales.
    pub target: ScaleTarget,
    /// `spec.minReplicas`, 1 when unset.
    pub min_replicas: i64,
    /// `spec.maxReplicas`.
    pub max_replicas: i64,
    /// `spec.metrics`, defaulted.
    pub metrics: Vec<Value>,
    /// `spec.behavior`, as written.
    pub behavior: Option<Value>,
}

/// One rule of a CronFederatedHPA.
#[derive(Debug, Clone)]
pub struct CronRule {
    /// `name`.
    pub name: String,
    /// `schedule`, as written.
    pub schedule: String,
    /// How the controller takes it.
    pub(crate) admitted: Admitted,
    /// `timeZone` as written; unset is the controller's own zone.
    pub time_zone: Option<String>,
    /// The zone it fires in; `None`: the controller's own, taken as UTC.
    pub(crate) zone: Option<TimeZone>,
    /// `targetReplicas`, for a workload.
    pub target_replicas: Option<i64>,
    /// `targetMinReplicas`, for a FederatedHPA.
    pub target_min_replicas: Option<i64>,
    /// `targetMaxReplicas`, for a FederatedHPA.
    pub target_max_replicas: Option<i64>,
    /// `suspend`.
    pub suspend: bool,
}

impl CronRule {
    /// Why the rule never fires, when it does not.
    pub fn never_fires(&self) -> Option<String> {
        if self.suspend {
            return Some("it is suspended".to_string());
        }
        match &self.admitted {
            Admitted::Fires(_) => None,
            Admitted::NeverFires(problem) => Some(format!(
                "the controller's cron parser (robfig/cron ParseStandard, through gocron) refuses its schedule {:?}: {problem}",
                self.schedule
            )),
        }
    }

    /// The zone it fires in, as the plan says it.
    pub fn zone_name(&self) -> String {
        match &self.time_zone {
            Some(name) if self.zone.is_some() => {
                if name.is_empty() {
                    "UTC".to_string()
                } else {
                    name.clone()
                }
            }
            _ => "the controller's zone, taken as UTC".to_string(),
        }
    }

    /// The last time at or before `at` the rule fired; `None` when it never fired in the five
    /// years before (robfig's horizon), or never fires.
    pub fn last_fired(&self, at: Timestamp) -> Option<Timestamp> {
        if self.suspend {
            return None;
        }
        let Admitted::Fires(schedule) = &self.admitted else {
            return None;
        };
        schedule.last_at_or_before(at, self.zone.as_ref().unwrap_or(&TimeZone::UTC))
    }
}

/// A CronFederatedHPA, admitted.
#[derive(Debug, Clone)]
pub struct CronFederatedHpa {
    /// The CronFederatedHPA.
    pub key: ObjectKey,
    /// Where it is written.
    pub origin: Origin,
    /// What it scales: a FederatedHPA (`autoscaling.karmada.io/v1alpha1`) or a workload.
    pub target: ScaleTarget,
    /// `spec.rules`, in order.
    pub rules: Vec<CronRule>,
}

impl CronFederatedHpa {
    /// Whether it scales a FederatedHPA's bounds rather than a workload's replicas.
    pub fn scales_federated_hpa(&self) -> bool {
        self.target.api_version == AUTOSCALING_API_VERSION
    }
}

/// Every FederatedHPA and CronFederatedHPA of the fleet, in input order.
#[derive(Debug, Clone, Default)]
pub struct Autoscalers {
    /// The FederatedHPAs.
    pub federated: Vec<FederatedHpa>,
    /// The CronFederatedHPAs.
    pub cron: Vec<CronFederatedHpa>,
}

/// Which end of the envelopes a build renders at (`--at-replicas`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EnvelopeEnd {
    /// Every FederatedHPA's `minReplicas`.
    Min,
    /// Every FederatedHPA's `maxReplicas`.
    Max,
}

/// The moment a build renders the fleet at: an end of the FederatedHPAs' envelopes, a time
/// of the cron rules, both, or neither (the templates' replicas as written).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Moment {
    /// `--at-replicas min|max`.
    pub end: Option<EnvelopeEnd>,
    /// `--at TIME`.
    pub at: Option<Timestamp>,
}

/// `--at`'s time: RFC 3339 with its offset (`2026-12-04T09:00:00+01:00`, `…Z`).
pub fn parse_time(text: &str) -> Result<Timestamp, String> {
    text.parse::<Timestamp>().map_err(|error| {
        format!(
            "{text:?} is not an RFC 3339 time with an offset (2026-12-04T09:00:00+01:00): {error}"
        )
    })
}

impl Moment {
    /// Whether the templates are rendered as written.
    pub fn is_as_written(&self) -> bool {
        self.end.is_none() && self.at.is_none()
    }
}

fn key_of(template: &Template) -> ObjectKey {
    template.key.clone()
}

/// Reads every FederatedHPA and CronFederatedHPA among `templates`; what Karmada's API server
/// would refuse is an error at its field.
pub(crate) fn read(templates: &[Template]) -> (Autoscalers, Vec<Diagnostic>) {
    let mut autoscalers = Autoscalers::default();
    let mut errors = Vec::new();
    for template in templates.iter().filter(|t| t.group() == AUTOSCALING_GROUP) {
        let refuse = |refusals: Vec<(String, String)>, errors: &mut Vec<Diagnostic>| {
            let by = if template.kind() == FEDERATED_HPA {
                "its FederatedHPA CRD and validating webhook"
            } else {
                "its CronFederatedHPA CRD and validating webhook"
            };
            let refused = !refusals.is_empty();
            for (field, refusal) in refusals {
                errors.push(
                    Diagnostic::error(
                        Some(template.origin.clone()),
                        format!(
                            "{}: {field}: {refusal} (Karmada's API server refuses it: {by})",
                            template.key
                        ),
                    )
                    .about_field(field)
                    .about_object(&template.key),
                );
            }
            refused
        };
        let spec = template.object.get("spec").cloned().unwrap_or(Value::Null);
        let mut refusals = admission::object_name(template.name());
        if !spec.is_object() {
            refusals.push(("spec".to_string(), "Required value".to_string()));
            refuse(refusals, &mut errors);
            continue;
        }
        refusals.extend(unknown_fields(&spec, template.kind()));
        match template.kind() {
            FEDERATED_HPA => {
                refusals.extend(admission::federated_hpa_spec(&spec));
                if refuse(refusals, &mut errors) {
                    continue;
                }
                autoscalers.federated.push(federated_hpa(template, &spec));
            }
            CRON_FEDERATED_HPA => {
                refusals.extend(admission::cron_spec(&spec));
                let (rules, rule_refusals) = cron_rules(&spec);
                refusals.extend(rule_refusals);
                if refuse(refusals, &mut errors) {
                    continue;
                }
                autoscalers.cron.push(CronFederatedHpa {
                    key: key_of(template),
                    origin: template.origin.clone(),
                    target: ScaleTarget::of(&spec["scaleTargetRef"]),
                    rules,
                });
            }
            _ => {}
        }
    }
    (autoscalers, errors)
}

/// The spec's fields each kind's CRD knows; the API server's strict decoding (kubectl's
/// default) refuses any other.
fn unknown_fields(spec: &Value, kind: &str) -> Vec<(String, String)> {
    let (known, rule_known): (&[&str], &[&str]) = match kind {
        FEDERATED_HPA => (
            &[
                "scaleTargetRef",
                "minReplicas",
                "maxReplicas",
                "metrics",
                "behavior",
            ],
            &[],
        ),
        CRON_FEDERATED_HPA => (
            &["scaleTargetRef", "rules"],
            &[
                "name",
                "schedule",
                "targetReplicas",
                "targetMinReplicas",
                "targetMaxReplicas",
                "suspend",
                "timeZone",
                "successfulHistoryLimit",
                "failedHistoryLimit",
            ],
        ),
        _ => return Vec::new(),
    };
    let mut refusals = Vec::new();
    let unknown = |object: &Value, known: &[&str], at: &str, refusals: &mut Vec<_>| {
        for field in object.as_object().into_iter().flat_map(|o| o.keys()) {
            if !known.contains(&field.as_str()) {
                refusals.push((
                    format!("{at}.{field}"),
                    format!(
                        "unknown field {field:?}{}",
                        crate::edit_distance::did_you_mean(crate::edit_distance::nearest(
                            field,
                            known.iter().copied()
                        ))
                    ),
                ));
            }
        }
    };
    unknown(spec, known, "spec", &mut refusals);
    for (index, rule) in (spec.get("rules").and_then(Value::as_array))
        .into_iter()
        .flatten()
        .enumerate()
    {
        unknown(
            rule,
            rule_known,
            &format!("spec.rules[{index}]"),
            &mut refusals,
        );
    }
    for (field, wanted) in [
        ("minReplicas", "integer"),
        ("maxReplicas", "integer"),
        ("metrics", "array"),
        ("rules", "array"),
    ] {
        let Some(value) = spec.get(field).filter(|v| !v.is_null()) else {
            continue;
        };
        let fits = match wanted {
            "integer" => value.as_i64().is_some_and(|n| i32::try_from(n).is_ok()),
            _ => value.is_array(),
        };
        if !fits && known.contains(&field) {
            refusals.push((
                format!("spec.{field}"),
                format!("Invalid value: {value}: must be of type {wanted}"),
            ));
        }
    }
    refusals
}

fn federated_hpa(template: &Template, spec: &Value) -> FederatedHpa {
    let metrics = match spec.get("metrics").and_then(Value::as_array) {
        Some(metrics) if !metrics.is_empty() => metrics.clone(),
        _ => vec![serde_json::json!({
            "type": "Resource",
            "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 80}},
        })],
    };
    FederatedHpa {
        key: key_of(template),
        origin: template.origin.clone(),
        target: ScaleTarget::of(&spec["scaleTargetRef"]),
        min_replicas: spec.get("minReplicas").and_then(Value::as_i64).unwrap_or(1),
        max_replicas: spec.get("maxReplicas").and_then(Value::as_i64).unwrap_or(0),
        metrics,
        behavior: spec.get("behavior").filter(|b| !b.is_null()).cloned(),
    }
}

/// Every rule with its schedule and zone read as the webhook reads them, and what it refuses
/// of them.
fn cron_rules(spec: &Value) -> (Vec<CronRule>, Vec<(String, String)>) {
    let mut rules = Vec::new();
    let mut refusals = Vec::new();
    for (index, rule) in (spec.get("rules").and_then(Value::as_array))
        .into_iter()
        .flatten()
        .enumerate()
    {
        let at = format!("spec.rules[{index}]");
        let text = |field: &str| rule.get(field).and_then(Value::as_str).map(str::to_string);
        let schedule = text("schedule").unwrap_or_default();
        let admitted = match cron_schedule::admit(&schedule) {
            Ok(admitted) => admitted,
            Err(_) => {
                refusals.push((
                    format!("{at}.schedule"),
                    format!(
                        "Invalid value: {}: invalid cron format",
                        Value::from(schedule.clone())
                    ),
                ));
                Admitted::NeverFires(String::new())
            }
        };
        let time_zone = text("timeZone");
        let zone = match time_zone.as_deref().map(cron_schedule::load_location) {
            None => None,
            Some(Ok(zone)) => zone,
            Some(Err(problem)) => {
                refusals.push((
                    format!("{at}.timeZone"),
                    format!(
                        "Invalid value: {}: {problem}",
                        Value::from(time_zone.clone().unwrap_or_default())
                    ),
                ));
                None
            }
        };
        let int = |field: &str| rule.get(field).and_then(Value::as_i64);
        rules.push(CronRule {
            name: text("name").unwrap_or_default(),
            schedule,
            admitted,
            time_zone,
            zone,
            target_replicas: int("targetReplicas"),
            target_min_replicas: int("targetMinReplicas"),
            target_max_replicas: int("targetMaxReplicas"),
            suspend: rule
                .get("suspend")
                .and_then(Value::as_bool)
                .unwrap_or(false),
        });
    }
    (rules, refusals)
}

/// A FederatedHPA's bounds at a moment: its spec's, as the cron rules that fired left them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// `minReplicas`.
    pub min: i64,
    /// `maxReplicas`.
    pub max: i64,
}

/// What the controllers do to the templates at a moment: each target's replicas, by template
/// position, and the warnings of what they cannot do.
#[derive(Debug, Default)]
pub struct Applied {
    /// The replicas each scaled template gets, by its position in the templates.
    pub replicas: BTreeMap<usize, i64>,
    /// What the controllers could not do, or would not.
    pub warnings: Vec<Diagnostic>,
}

/// The templates by what a scale target names of them (namespace, apiVersion, kind, name),
/// so that finding every autoscaler's target is one pass over the templates, not one each.
pub struct TemplateIndex<'t>(HashMap<(&'t str, &'t str, &'t str, &'t str), usize>);

impl<'t> TemplateIndex<'t> {
    /// Indexes `templates`; of two with one identity, the first.
    pub fn new(templates: &'t [Template]) -> TemplateIndex<'t> {
        let mut index = HashMap::with_capacity(templates.len());
        for (position, template) in templates.iter().enumerate() {
            index
                .entry((
                    template.namespace(),
                    template.api_version.as_str(),
                    template.kind(),
                    template.name(),
                ))
                .or_insert(position);
        }
        TemplateIndex(index)
    }

    /// The template a FederatedHPA or CronFederatedHPA in `namespace` scales, by position.
    pub fn target_of(&self, target: &ScaleTarget, namespace: &str) -> Option<usize> {
        self.0
            .get(&(
                namespace,
                target.api_version.as_str(),
                target.kind.as_str(),
                target.name.as_str(),
            ))
            .copied()
    }
}

impl Autoscalers {
    /// Whether the fleet has any.
    pub fn is_empty(&self) -> bool {
        self.federated.is_empty() && self.cron.is_empty()
    }

    /// The FederatedHPA a CronFederatedHPA names, by position.
    fn federated_hpa_of(&self, cron: &CronFederatedHpa) -> Option<usize> {
        self.federated.iter().position(|hpa| {
            hpa.key.namespace == cron.key.namespace && hpa.key.name == cron.target.name
        })
    }

    /// Every FederatedHPA's bounds at `at`: the spec's, then each rule of the CronFederatedHPAs
    /// that name it applied at its last firing, in time order (rules firing at the same
    /// instant in their order in the spec, which gocron leaves to chance). Each rule sets
    /// fixed values, so its last firing is the one that counts. An update the FederatedHPA
    /// webhook would refuse (minReplicas above maxReplicas) fails and changes nothing.
    pub fn bounds_at(&self, at: Option<Timestamp>) -> Vec<Bounds> {
        let mut bounds: Vec<Bounds> = self
            .federated
            .iter()
            .map(|hpa| Bounds {
                min: hpa.min_replicas,
                max: hpa.max_replicas,
            })
            .collect();
        let Some(at) = at else {
            return bounds;
        };
        for (hpa, rule) in self.fired(at, true) {
            let Some(hpa) = hpa else { continue };
            let mut next = bounds[hpa];
            if let Some(min) = rule.target_min_replicas {
                next.min = min;
            }
            if let Some(max) = rule.target_max_replicas {
                next.max = max;
            }
            if next.min <= next.max {
                bounds[hpa] = next;
            }
        }
        bounds
    }

    /// The rules that fired by `at`, each with the FederatedHPA it names (`federated`) or the
    /// CronFederatedHPA's position (workloads), in the order they last fired.
    fn fired(&self, at: Timestamp, federated: bool) -> Vec<(Option<usize>, &CronRule)> {
        let mut fired: Vec<(Timestamp, usize, usize, Option<usize>, &CronRule)> = Vec::new();
        for (position, cron) in self.cron.iter().enumerate() {
            if cron.scales_federated_hpa() != federated {
                continue;
            }
            let named = if federated {
                self.federated_hpa_of(cron)
            } else {
                Some(position)
            };
            for (order, rule) in cron.rules.iter().enumerate() {
                if let Some(time) = rule.last_fired(at) {
                    fired.push((time, position, order, named, rule));
                }
            }
        }
        fired.sort_by_key(|(time, position, order, ..)| (*time, *position, *order));
        fired
            .into_iter()
            .map(|(_, _, _, named, rule)| (named, rule))
            .collect()
    }

    /// The replicas the controllers give the templates at `moment`, and why some get none.
    ///
    /// At `--at`, the workload rules that fired set their targets' replicas, then each
    /// FederatedHPA holds its target within its bounds at that time, as it does before it
    /// reads any metric ("Current number of replicas below Spec.MinReplicas"); with
    /// `--at-replicas`, each FederatedHPA's target gets that end of its bounds. A target whose
    /// replicas are 0 is left alone: the controller calls that "scaling is disabled".
    pub fn apply(
        &self,
        moment: &Moment,
        templates: &[Template],
        interpreter: &Interpreter,
    ) -> Applied {
        let mut applied = Applied::default();
        if moment.is_as_written() {
            return applied;
        }
        let targets = TemplateIndex::new(templates);
        let replicas_of = |index: usize, applied: &Applied| {
            applied.replicas.get(&index).copied().or_else(|| {
                interpreter
                    .replica_resource(&templates[index])
                    .ok()
                    .flatten()
                    .map(|resource| resource.replicas)
            })
        };
        if let Some(at) = moment.at {
            for (cron, rule) in self.fired(at, false) {
                let cron = &self.cron[cron.expect("a workload rule names its CronFederatedHPA")];
                let (Some(index), Some(replicas)) = (
                    Self::scalable(
                        &targets,
                        &cron.target,
                        &cron.key.namespace,
                        templates,
                        interpreter,
                    ),
                    rule.target_replicas,
                ) else {
                    continue;
                };
                applied.replicas.insert(index, replicas);
            }
        }
        let bounds = self.bounds_at(moment.at);
        for (hpa, bounds) in self.federated.iter().zip(bounds) {
            let Some(index) = Self::scalable(
                &targets,
                &hpa.target,
                &hpa.key.namespace,
                templates,
                interpreter,
            ) else {
                continue;
            };
            let current = replicas_of(index, &applied).unwrap_or(1);
            if current == 0 {
                applied.warnings.push(
                    Diagnostic::warning(
                        Lint::NotModelled,
                        Some(hpa.origin.clone()),
                        format!(
                            "{}: {} has 0 replicas, so Karmada's FederatedHPA controller leaves it alone (\"scaling is disabled since the replica count of the target is zero\"): it is rendered with 0",
                            hpa.key, templates[index].key
                        ),
                    )
                    .about_object(&hpa.key),
                );
                continue;
            }
            let replicas = match moment.end {
                Some(EnvelopeEnd::Min) => bounds.min,
                Some(EnvelopeEnd::Max) => bounds.max,
                None => current.clamp(bounds.min, bounds.max),
            };
            applied.replicas.insert(index, replicas);
        }
        applied
    }

    /// The template `target` names, when it is one Karmada's controllers can scale: in the
    /// fleet, with replicas (a scale subresource). [`Autoscalers::check`] warns of the others.
    fn scalable(
        targets: &TemplateIndex<'_>,
        target: &ScaleTarget,
        namespace: &str,
        templates: &[Template],
        interpreter: &Interpreter,
    ) -> Option<usize> {
        let index = targets.target_of(target, namespace)?;
        matches!(interpreter.replica_resource(&templates[index]), Ok(Some(_))).then_some(index)
    }

    /// What the controllers would fail at, whatever the moment: a scale target the fleet does
    /// not hold or that has no replicas (the controller's "FailedGetScaleTargetRef"), a
    /// CronFederatedHPA naming no FederatedHPA of the fleet, and a rule whose schedule the
    /// controller's cron parser refuses, which never fires.
    pub fn check(&self, templates: &[Template], interpreter: &Interpreter) -> Vec<Diagnostic> {
        let mut warnings = Vec::new();
        let targets = TemplateIndex::new(templates);
        let mut target = |key: &ObjectKey, origin: &Origin, target: &ScaleTarget| {
            let found = targets.target_of(target, &key.namespace);
            let problem = match found {
                None => format!(
                    "scaleTargetRef {} {} {} names no template of the fleet in namespace {}: Karmada's controller fails to get it and scales nothing",
                    target.api_version, target.kind, target.name, key.namespace
                ),
                Some(index)
                    if !matches!(interpreter.replica_resource(&templates[index]), Ok(Some(_))) =>
                {
                    format!(
                        "{} has no replicas Karmada knows of (no scale subresource): nothing is scaled",
                        templates[index].key
                    )
                }
                Some(_) => return,
            };
            warnings.push(
                Diagnostic::warning(
                    Lint::SelectsNothing,
                    Some(origin.clone()),
                    format!("{key}: {problem}"),
                )
                .about_field("spec.scaleTargetRef")
                .about_object(key),
            );
        };
        for hpa in &self.federated {
            target(&hpa.key, &hpa.origin, &hpa.target);
        }
        for cron in &self.cron {
            if !cron.scales_federated_hpa() {
                target(&cron.key, &cron.origin, &cron.target);
            }
        }
        // federatedhpa_controller.go `reconcileAutoscaler` moves a count outside the bounds to
        // the nearer bound before it reads any metric: the tree's count lasts until then.
        for hpa in &self.federated {
            let Some(index) = Self::scalable(
                &targets,
                &hpa.target,
                &hpa.key.namespace,
                templates,
                interpreter,
            ) else {
                continue;
            };
            let Some(current) = interpreter
                .replica_resource(&templates[index])
                .ok()
                .flatten()
                .map(|resource| resource.replicas)
            else {
                continue;
            };
            if current == 0 || (hpa.min_replicas..=hpa.max_replicas).contains(&current) {
                continue;
            }
            let bound = current.clamp(hpa.min_replicas, hpa.max_replicas);
            warnings.push(
                Diagnostic::warning(
                    Lint::NotModelled,
                    Some(hpa.origin.clone()),
                    format!(
                        "{}: {} is written with {current} replicas, outside {}..{}: Karmada's FederatedHPA controller sets it to {bound} at once; the trees hold {current} (`build --at` with any time renders {bound})",
                        hpa.key, templates[index].key, hpa.min_replicas, hpa.max_replicas
                    ),
                )
                .about_object(&hpa.key),
            );
        }
        for cron in &self.cron {
            if cron.scales_federated_hpa() && self.federated_hpa_of(cron).is_none() {
                warnings.push(
                    Diagnostic::warning(
                        Lint::SelectsNothing,
                        Some(cron.origin.clone()),
                        format!(
                            "{}: scaleTargetRef names FederatedHPA {}/{}, which the fleet does not hold: every rule's scaling fails",
                            cron.key, cron.key.namespace, cron.target.name
                        ),
                    )
                    .about_field("spec.scaleTargetRef")
                    .about_object(&cron.key),
                );
            }
            for (index, rule) in cron.rules.iter().enumerate() {
                if let Admitted::NeverFires(problem) = &rule.admitted {
                    warnings.push(
                        Diagnostic::warning(
                            Lint::IgnoredField,
                            Some(cron.origin.clone()),
                            format!(
                                "{}: spec.rules[{index}].schedule {:?}: Karmada's webhook admits it but its controller's cron parser (robfig/cron ParseStandard, through gocron) refuses it ({problem}): rule {} never fires",
                                cron.key, rule.schedule, rule.name
                            ),
                        )
                        .about_field(format!("spec.rules[{index}].schedule"))
                        .about_object(&cron.key),
                    );
                }
            }
        }
        warnings
    }
}
