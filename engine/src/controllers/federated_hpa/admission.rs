//! What Karmada's API server refuses of a FederatedHPA or a CronFederatedHPA: the CRDs it
//! installs (charts/karmada/_crds/bases/autoscaling/) and the two validating webhooks, karmada
//! pkg/util/lifted/validatingfhpa.go `ValidateFederatedHPA` (lifted from Kubernetes'
//! HorizontalPodAutoscaler validation, minReplicas at least 1, External metrics refused) and
//! pkg/webhook/cronfederatedhpa/validating.go `validateCronFederatedHPASpec`. Each refusal is
//! `(field, what the API server says)`, worded as apimachinery's field errors.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::api::autoscaling::{AUTOSCALING_API_VERSION, FEDERATED_HPA};
use crate::names;

pub(super) type Refusal = (String, String);

fn invalid(value: impl Into<Value>, detail: &str) -> String {
    format!("Invalid value: {}: {detail}", value.into())
}

fn required(detail: &str) -> String {
    if detail.is_empty() {
        "Required value".to_string()
    } else {
        format!("Required value: {detail}")
    }
}

fn unsupported(value: &Value, supported: &[&str]) -> String {
    let quoted: Vec<String> = supported.iter().map(|value| format!("{value:?}")).collect();
    format!(
        "Unsupported value: {value}: supported values: {}",
        quoted.join(", ")
    )
}

/// lifted `ValidateCrossVersionObjectReference`: kind and name required, each a path segment.
pub(super) fn cross_version_reference(reference: &Value, at: &str) -> Vec<Refusal> {
    let mut refusals = Vec::new();
    for field in ["kind", "name"] {
        let text = reference.get(field).and_then(Value::as_str).unwrap_or("");
        if text.is_empty() {
            refusals.push((format!("{at}.{field}"), required("")));
        } else if let Some(problem) = names::path_segment_problem(text) {
            refusals.push((format!("{at}.{field}"), invalid(text, &problem)));
        }
    }
    refusals
}

/// `metadata.name` a DNS subdomain (apimachinery `ValidateObjectMeta` with
/// `NameIsDNSSubdomain`), as both webhooks ask.
pub(super) fn object_name(name: &str) -> Vec<Refusal> {
    names::dns_subdomain_problem(name)
        .map(|problem| ("metadata.name".to_string(), invalid(name, &problem)))
        .into_iter()
        .collect()
}

fn int(value: Option<&Value>) -> Option<i64> {
    value.and_then(Value::as_i64)
}

/// lifted `validateFederatedHPASpec`: the bounds, the target, the metrics and the behavior.
pub(super) fn federated_hpa_spec(spec: &Value) -> Vec<Refusal> {
    let mut refusals = Vec::new();
    let min = int(spec.get("minReplicas"));
    let max = int(spec.get("maxReplicas")).unwrap_or(0);
    if let Some(min) = min
        && min < 1
    {
        refusals.push((
            "spec.minReplicas".to_string(),
            invalid(min, "must be greater than or equal to 1"),
        ));
    }
    if max < 1 {
        refusals.push((
            "spec.maxReplicas".to_string(),
            invalid(max, "must be greater than 0"),
        ));
    }
    if let Some(min) = min
        && max < min
    {
        refusals.push((
            "spec.maxReplicas".to_string(),
            invalid(max, "must be greater than or equal to `minReplicas`"),
        ));
    }
    let target = spec.get("scaleTargetRef").cloned().unwrap_or(Value::Null);
    refusals.extend(cross_version_reference(&target, "spec.scaleTargetRef"));
    for (index, metric) in (spec.get("metrics").and_then(Value::as_array))
        .into_iter()
        .flatten()
        .enumerate()
    {
        refusals.extend(metric_spec(metric, &format!("spec.metrics[{index}]")));
    }
    if let Some(behavior) = spec.get("behavior").filter(|b| !b.is_null()) {
        for direction in ["scaleUp", "scaleDown"] {
            if let Some(rules) = behavior.get(direction).filter(|r| !r.is_null()) {
                refusals.extend(scaling_rules(rules, &format!("spec.behavior.{direction}")));
            }
        }
    }
    refusals
}

/// The metric source types the FederatedHPA webhook takes: Kubernetes' less `External`
/// ("Karmada do not support ExternalMetricSourceType currently").
const METRIC_TYPES: &[&str] = &["ContainerResource", "Object", "Pods", "Resource"];

/// lifted `validateMetricSpec` and the sources' own checks.
fn metric_spec(metric: &Value, at: &str) -> Vec<Refusal> {
    let mut refusals = Vec::new();
    let kind = metric.get("type").and_then(Value::as_str).unwrap_or("");
    if kind.is_empty() {
        refusals.push((
            format!("{at}.type"),
            required("must specify a metric source type"),
        ));
    }
    if !METRIC_TYPES.contains(&kind) {
        refusals.push((
            format!("{at}.type"),
            unsupported(&Value::from(kind), METRIC_TYPES),
        ));
    }
    let sources = [
        ("object", "Object"),
        ("pods", "Pods"),
        ("resource", "Resource"),
        ("containerResource", "ContainerResource"),
    ];
    let present: Vec<&str> = sources
        .iter()
        .filter(|(field, _)| metric.get(field).is_some_and(|v| !v.is_null()))
        .map(|(field, _)| *field)
        .collect();
    // Kubernetes checks the first source written alone.
    if let Some(&first) = present.first() {
        let source = &metric[first];
        let at = format!("{at}.{first}");
        refusals.extend(match first {
            "object" => object_source(source, &at),
            "pods" => pods_source(source, &at),
            "resource" => resource_source(source, &at, false),
            _ => resource_source(source, &at, true),
        });
    }
    let expected = sources
        .iter()
        .find(|(_, name)| *name == kind)
        .map(|(f, _)| *f);
    if let Some(expected) = expected
        && !present.contains(&expected)
    {
        refusals.push((
            format!("{at}.{expected}"),
            required("must populate information for the given metric source"),
        ));
    }
    if present.len() != 1 {
        for field in present.iter().filter(|field| Some(**field) != expected) {
            refusals.push((
                format!("{at}.{field}"),
                "Forbidden: must populate the given metric source only".to_string(),
            ));
        }
    }
    refusals
}

fn metric_name(identifier: Option<&Value>, at: &str) -> Vec<Refusal> {
    let name = identifier
        .and_then(|id| id.get("name"))
        .and_then(Value::as_str)
        .unwrap_or("");
    if name.is_empty() {
        return vec![(format!("{at}.name"), required("must specify a metric name"))];
    }
    names::path_segment_problem(name)
        .map(|problem| (format!("{at}.name"), invalid(name, &problem)))
        .into_iter()
        .collect()
}

/// lifted `validateMetricTarget`: the type one of three, each number positive.
fn metric_target(target: Option<&Value>, at: &str) -> Vec<Refusal> {
    let mut refusals = Vec::new();
    let target = target.cloned().unwrap_or(Value::Null);
    let kind = target.get("type").and_then(Value::as_str).unwrap_or("");
    if kind.is_empty() {
        refusals.push((
            format!("{at}.type"),
            required("must specify a metric target type"),
        ));
    }
    if !matches!(kind, "Utilization" | "Value" | "AverageValue") {
        refusals.push((
            format!("{at}.type"),
            invalid(kind, "must be either Utilization, Value, or AverageValue"),
        ));
    }
    for field in ["value", "averageValue"] {
        if let Some(quantity) = target.get(field).filter(|v| !v.is_null())
            && !quantity_is_positive(quantity)
        {
            refusals.push((
                format!("{at}.{field}"),
                invalid(quantity.clone(), "must be positive"),
            ));
        }
    }
    if let Some(utilization) = int(target.get("averageUtilization"))
        && utilization < 1
    {
        refusals.push((
            format!("{at}.averageUtilization"),
            invalid(utilization, "must be greater than 0"),
        ));
    }
    refusals
}

/// A quantity's sign, as `Quantity.Sign() == 1` reads it; one that does not parse is the
/// schema's to refuse, not this check's.
fn quantity_is_positive(quantity: &Value) -> bool {
    crate::quantity::quantity_from_json(quantity).map_or(true, |q| q.nanos() > 0)
}

fn has(value: &Value, field: &str) -> bool {
    value.get(field).is_some_and(|v| !v.is_null())
}

fn object_source(source: &Value, at: &str) -> Vec<Refusal> {
    let described = source
        .get("describedObject")
        .cloned()
        .unwrap_or(Value::Null);
    let mut refusals = cross_version_reference(&described, &format!("{at}.describedObject"));
    refusals.extend(metric_name(source.get("metric"), &format!("{at}.metric")));
    let target = source.get("target");
    refusals.extend(metric_target(target, &format!("{at}.target")));
    let target = target.cloned().unwrap_or(Value::Null);
    if !has(&target, "value") && !has(&target, "averageValue") {
        refusals.push((
            format!("{at}.target.averageValue"),
            required("must set either a target value or averageValue"),
        ));
    }
    refusals
}

fn pods_source(source: &Value, at: &str) -> Vec<Refusal> {
    let mut refusals = metric_name(source.get("metric"), &format!("{at}.metric"));
    let target = source.get("target");
    refusals.extend(metric_target(target, &format!("{at}.target")));
    if !target.is_some_and(|target| has(target, "averageValue")) {
        refusals.push((
            format!("{at}.target.averageValue"),
            required("must specify a positive target averageValue"),
        ));
    }
    refusals
}

fn resource_source(source: &Value, at: &str, container: bool) -> Vec<Refusal> {
    let mut refusals = Vec::new();
    let name = source.get("name").and_then(Value::as_str).unwrap_or("");
    if name.is_empty() {
        refusals.push((
            format!("{at}.name"),
            required("must specify a resource name"),
        ));
    }
    if container {
        let container = source
            .get("container")
            .and_then(Value::as_str)
            .unwrap_or("");
        if container.is_empty() {
            refusals.push((
                format!("{at}.container"),
                required("must specify a container"),
            ));
        } else if let Some(problem) = names::dns_label_problem(container) {
            refusals.push((format!("{at}.container"), invalid(container, &problem)));
        }
    }
    let target = source.get("target");
    refusals.extend(metric_target(target, &format!("{at}.target")));
    let target = target.cloned().unwrap_or(Value::Null);
    match (
        has(&target, "averageUtilization"),
        has(&target, "averageValue"),
    ) {
        (false, false) => refusals.push((
            format!("{at}.target.averageUtilization"),
            required("must set either a target raw value or a target utilization"),
        )),
        (true, true) => refusals.push((
            format!("{at}.target.averageValue"),
            "Forbidden: may not set both a target raw value and a target utilization".to_string(),
        )),
        _ => {}
    }
    refusals
}

/// lifted `validateScalingRules` and `validateScalingPolicy`.
fn scaling_rules(rules: &Value, at: &str) -> Vec<Refusal> {
    let mut refusals = Vec::new();
    if let Some(window) = int(rules.get("stabilizationWindowSeconds")) {
        if window < 0 {
            refusals.push((
                format!("{at}.stabilizationWindowSeconds"),
                invalid(window, "must be greater than or equal to zero"),
            ));
        }
        if window > 3600 {
            refusals.push((
                format!("{at}.stabilizationWindowSeconds"),
                invalid(window, "must be less than or equal to 3600"),
            ));
        }
    }
    if let Some(policy) = rules.get("selectPolicy").filter(|p| !p.is_null())
        && !matches!(policy.as_str(), Some("Max" | "Min" | "Disabled"))
    {
        refusals.push((
            format!("{at}.selectPolicy"),
            unsupported(policy, &["Disabled", "Max", "Min"]),
        ));
    }
    let policies = rules
        .get("policies")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    if policies.is_empty() {
        refusals.push((
            format!("{at}.policies"),
            required("must specify at least one Policy"),
        ));
    }
    for (index, policy) in policies.iter().enumerate() {
        let at = format!("{at}.policies[{index}]");
        let kind = policy.get("type").cloned().unwrap_or(Value::from(""));
        if !matches!(kind.as_str(), Some("Pods" | "Percent")) {
            refusals.push((
                format!("{at}.type"),
                unsupported(&kind, &["Percent", "Pods"]),
            ));
        }
        let value = int(policy.get("value")).unwrap_or(0);
        if value <= 0 {
            refusals.push((
                format!("{at}.value"),
                invalid(value, "must be greater than zero"),
            ));
        }
        let period = int(policy.get("periodSeconds")).unwrap_or(0);
        if period <= 0 {
            refusals.push((
                format!("{at}.periodSeconds"),
                invalid(period, "must be greater than zero"),
            ));
        }
        if period > 1800 {
            refusals.push((
                format!("{at}.periodSeconds"),
                invalid(period, "must be less than or equal to 1800"),
            ));
        }
    }
    refusals
}

/// The CronFederatedHPA CRD's bounds and the webhook's `validateCronFederatedHPASpec`. A
/// schedule's and a time zone's refusals come from [`super::cron_rules`], which reads them.
pub(super) fn cron_spec(spec: &Value) -> Vec<Refusal> {
    let mut refusals = Vec::new();
    let target = spec.get("scaleTargetRef").cloned().unwrap_or(Value::Null);
    let text = |field: &str| target.get(field).and_then(Value::as_str).unwrap_or("");
    let scales_federated_hpa = text("apiVersion") == AUTOSCALING_API_VERSION;
    if scales_federated_hpa && text("kind") != FEDERATED_HPA {
        // The webhook stops at this one.
        return vec![(
            "spec.scaleTargetRef.kind".to_string(),
            invalid(
                text("kind"),
                &format!(
                    "invalid scaleTargetRef kind: {}, only support {FEDERATED_HPA}",
                    text("kind")
                ),
            ),
        )];
    }
    refusals.extend(cross_version_reference(&target, "spec.scaleTargetRef"));
    let rules = spec
        .get("rules")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let mut names = BTreeSet::new();
    for (index, rule) in rules.iter().enumerate() {
        let at = format!("spec.rules[{index}]");
        let name = rule.get("name").and_then(Value::as_str).unwrap_or("");
        let length = name.chars().count();
        if !(1..=32).contains(&length) {
            refusals.push((
                format!("{at}.name"),
                invalid(
                    name,
                    "must be 1 to 32 characters (the CronFederatedHPA CRD's minLength and maxLength)",
                ),
            ));
        }
        if !names.insert(name.to_string()) {
            refusals.push((format!("{at}.name"), format!("Duplicate value: {:?}", name)));
        }
        for (field, low) in [("successfulHistoryLimit", 1), ("failedHistoryLimit", 0)] {
            if let Some(limit) = int(rule.get(field))
                && !(low..=32).contains(&limit)
            {
                refusals.push((
                    format!("{at}.{field}"),
                    invalid(
                        limit,
                        &format!("must be between {low} and 32 (the CronFederatedHPA CRD)"),
                    ),
                ));
            }
        }
        refusals.extend(cron_replicas(rule, scales_federated_hpa, text("kind"), &at));
    }
    refusals
}

/// The webhook's `validateCronFederatedHPAScalingReplicas`.
fn cron_replicas(rule: &Value, scales_federated_hpa: bool, kind: &str, at: &str) -> Vec<Refusal> {
    let mut refusals = Vec::new();
    let min = int(rule.get("targetMinReplicas"));
    let max = int(rule.get("targetMaxReplicas"));
    if scales_federated_hpa {
        if min.is_none() && max.is_none() {
            refusals.push((
                format!("{at}.targetMaxReplicas"),
                invalid(
                    "",
                    "targetMinReplicas and targetMaxReplicas cannot be nil at the same time if you want to scale FederatedHPA",
                ),
            ));
        }
        if min.unwrap_or(1) <= 0 {
            refusals.push((
                format!("{at}.targetMinReplicas"),
                invalid("", "targetMinReplicas should be larger than 0"),
            ));
        }
        if max.unwrap_or(i64::from(i32::MAX)) <= 0 {
            refusals.push((
                format!("{at}.targetMaxReplicas"),
                invalid("", "targetMaxReplicas should be larger than 0"),
            ));
        }
        if min.unwrap_or(1) > max.unwrap_or(i64::from(i32::MAX)) {
            refusals.push((
                format!("{at}.targetMinReplicas"),
                invalid(
                    "",
                    "targetMaxReplicas should be larger than or equal to targetMinReplicas",
                ),
            ));
        }
        return refusals;
    }
    match int(rule.get("targetReplicas")) {
        None => refusals.push((
            format!("{at}.targetReplicas"),
            invalid(
                "",
                &format!("targetReplicas cannot be nil if you want to scale {kind}"),
            ),
        )),
        Some(replicas) if replicas < 0 => refusals.push((
            format!("{at}.targetReplicas"),
            invalid("", "targetReplicas should be larger than or equal to 0"),
        )),
        Some(_) => {}
    }
    refusals
}
