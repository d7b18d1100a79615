use serde_json::{Value, json};

use super::*;
use crate::diagnostics::Origin;
use crate::object::ObjectKey;

fn template(api_version: &str, kind: &str, name: &str, object: Value) -> Template {
    let group = api_version.rsplit_once('/').map_or("", |(group, _)| group);
    let mut object = object;
    object["apiVersion"] = json!(api_version);
    object["kind"] = json!(kind);
    object["metadata"] = json!({"name": name, "namespace": "shop"});
    Template {
        origin: Origin::new(format!("{name}.yaml"), 0, 1),
        api_version: api_version.to_string(),
        key: ObjectKey {
            group: group.to_string(),
            kind: kind.to_string(),
            namespace: "shop".to_string(),
            name: name.to_string(),
        },
        labels: Default::default(),
        object,
    }
}

fn deployment(replicas: i64) -> Template {
    template(
        "apps/v1",
        "Deployment",
        "web",
        json!({"spec": {"replicas": replicas, "template": {"spec": {"containers": [{"name": "web", "image": "nginx"}]}}}}),
    )
}

fn fhpa(spec: Value) -> Template {
    template(
        AUTOSCALING_API_VERSION,
        FEDERATED_HPA,
        "web",
        json!({ "spec": spec }),
    )
}

fn cron(name: &str, spec: Value) -> Template {
    template(
        AUTOSCALING_API_VERSION,
        CRON_FEDERATED_HPA,
        name,
        json!({ "spec": spec }),
    )
}

fn target() -> Value {
    json!({"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"})
}

fn refusals(template: Template) -> Vec<String> {
    let (_, errors) = read(&[template]);
    errors.into_iter().map(|error| error.message).collect()
}

/// karmada pkg/util/lifted/validatingfhpa_test.go `TestValidateFederatedHPA`: minReplicas at
/// least 1, maxReplicas above 0 and not below minReplicas, a target's kind and name.
#[test]
fn the_federated_hpa_webhook_refuses_bad_bounds_and_targets() {
    let refused = refusals(fhpa(
        json!({"scaleTargetRef": target(), "minReplicas": 0, "maxReplicas": 5}),
    ));
    assert!(
        refused[0]
            .contains("spec.minReplicas: Invalid value: 0: must be greater than or equal to 1"),
        "{refused:?}"
    );
    let refused = refusals(fhpa(
        json!({"scaleTargetRef": target(), "minReplicas": 6, "maxReplicas": 5}),
    ));
    assert!(
        refused[0].contains(
            "spec.maxReplicas: Invalid value: 5: must be greater than or equal to `minReplicas`"
        ),
        "{refused:?}"
    );
    let refused = refusals(fhpa(
        json!({"scaleTargetRef": {"apiVersion": "apps/v1"}, "maxReplicas": 5}),
    ));
    assert_eq!(refused.len(), 2, "{refused:?}");
    assert!(refused[0].contains("spec.scaleTargetRef.kind: Required value"));
    let refused = refusals(fhpa(json!({"scaleTargetRef": target()})));
    assert!(
        refused[0].contains("spec.maxReplicas: Invalid value: 0: must be greater than 0"),
        "{refused:?}"
    );
    assert!(refusals(fhpa(json!({"scaleTargetRef": target(), "maxReplicas": 5}))).is_empty());
}

/// lifted `validateMetricSpec`: External metrics are refused ("Karmada do not support
/// ExternalMetricSourceType currently"), a source must match its type, a target its rules.
#[test]
fn the_federated_hpa_webhook_refuses_what_karmada_cannot_measure() {
    let external = json!({"type": "External", "external": {"metric": {"name": "queue"}, "target": {"type": "Value", "value": "10"}}});
    let refused = refusals(fhpa(
        json!({"scaleTargetRef": target(), "maxReplicas": 5, "metrics": [external]}),
    ));
    assert!(
        refused[0].contains("spec.metrics[0].type: Unsupported value: \"External\": supported values: \"ContainerResource\", \"Object\", \"Pods\", \"Resource\""),
        "{refused:?}"
    );
    let mismatched = json!({"type": "Pods", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 50}}});
    let refused = refusals(fhpa(
        json!({"scaleTargetRef": target(), "maxReplicas": 5, "metrics": [mismatched]}),
    ));
    assert!(
        refused
            .iter()
            .any(|r| r.contains("spec.metrics[0].pods: Required value")),
        "{refused:?}"
    );
    // One source written: the wrong one is not also forbidden (Kubernetes forbids extras
    // only when more than one is written).
    assert_eq!(refused.len(), 1, "{refused:?}");
    let zero = json!({"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 0}}});
    let refused = refusals(fhpa(
        json!({"scaleTargetRef": target(), "maxReplicas": 5, "metrics": [zero]}),
    ));
    assert!(
        refused[0].contains("averageUtilization: Invalid value: 0: must be greater than 0"),
        "{refused:?}"
    );
    let behavior = json!({"scaleDown": {"stabilizationWindowSeconds": 4000, "policies": [{"type": "Pods", "value": 0, "periodSeconds": 60}]}});
    let refused = refusals(fhpa(
        json!({"scaleTargetRef": target(), "maxReplicas": 5, "behavior": behavior}),
    ));
    assert_eq!(refused.len(), 2, "{refused:?}");
}

/// lifted federatedhpa.go `SetDefaultsFederatedHPA`: minReplicas 1, 80% CPU.
#[test]
fn a_federated_hpa_is_defaulted_as_karmadas_mutating_webhook_defaults_it() {
    let (autoscalers, errors) =
        read(&[fhpa(json!({"scaleTargetRef": target(), "maxReplicas": 5}))]);
    assert!(errors.is_empty());
    let hpa = &autoscalers.federated[0];
    assert_eq!((hpa.min_replicas, hpa.max_replicas), (1, 5));
    assert_eq!(
        hpa.metrics[0]["resource"]["target"]["averageUtilization"],
        80
    );
}

/// karmada pkg/webhook/cronfederatedhpa/validating_test.go: a kind of the autoscaling group
/// other than FederatedHPA, duplicate rule names, a bad schedule or zone, the replicas each
/// kind of target needs.
#[test]
fn the_cron_federated_hpa_webhook_refuses_what_it_refuses() {
    let refused = refusals(cron(
        "c",
        json!({"scaleTargetRef": {"apiVersion": AUTOSCALING_API_VERSION, "kind": "CronFederatedHPA", "name": "x"}, "rules": []}),
    ));
    assert!(
        refused[0]
            .contains("invalid scaleTargetRef kind: CronFederatedHPA, only support FederatedHPA"),
        "{refused:?}"
    );
    let rules = json!([
        {"name": "a", "schedule": "0 9 * * *", "targetReplicas": 3},
        {"name": "a", "schedule": "0 99 * * *", "targetReplicas": 3, "timeZone": "Mars/Olympus"},
        {"name": "b", "schedule": "0 9 * * *"},
        {"name": "c", "schedule": "0 9 * * *", "targetReplicas": -1},
    ]);
    let refused = refusals(cron(
        "c",
        json!({"scaleTargetRef": target(), "rules": rules}),
    ));
    let joined = refused.join("\n");
    for wanted in [
        "spec.rules[1].name: Duplicate value: \"a\"",
        "spec.rules[1].schedule: Invalid value: \"0 99 * * *\": invalid cron format",
        "spec.rules[1].timeZone: Invalid value: \"Mars/Olympus\": unknown time zone Mars/Olympus",
        "spec.rules[2].targetReplicas: Invalid value: \"\": targetReplicas cannot be nil if you want to scale Deployment",
        "spec.rules[3].targetReplicas: Invalid value: \"\": targetReplicas should be larger than or equal to 0",
    ] {
        assert!(joined.contains(wanted), "{wanted}\n{joined}");
    }
    let fhpa_target =
        json!({"apiVersion": AUTOSCALING_API_VERSION, "kind": FEDERATED_HPA, "name": "web"});
    let refused = refusals(cron(
        "c",
        json!({"scaleTargetRef": fhpa_target, "rules": [
            {"name": "a", "schedule": "0 9 * * *"},
            {"name": "b", "schedule": "0 9 * * *", "targetMinReplicas": 5, "targetMaxReplicas": 4},
        ]}),
    ));
    assert!(
        refused[0]
            .contains("targetMinReplicas and targetMaxReplicas cannot be nil at the same time"),
        "{refused:?}"
    );
    assert!(
        refused[1]
            .contains("targetMaxReplicas should be larger than or equal to targetMinReplicas"),
        "{refused:?}"
    );
    let refused = refusals(cron(
        "c",
        json!({"scaleTargetRef": target(), "rules": [{"name": "a", "schedule": "0 9 * * *", "targetReplicas": 1, "sechedule": "x"}]}),
    ));
    assert!(
        refused[0].contains(
            "spec.rules[0].sechedule: unknown field \"sechedule\"; did you mean schedule?"
        ),
        "{refused:?}"
    );
}

fn at(text: &str) -> Option<jiff::Timestamp> {
    Some(text.parse().unwrap())
}

fn replicas(templates: &[Template], moment: Moment) -> (BTreeMap<usize, i64>, Vec<String>) {
    let (autoscalers, errors) = read(templates);
    assert!(errors.is_empty(), "{errors:?}");
    let applied = autoscalers.apply(&moment, templates, &Interpreter::default());
    (
        applied.replicas,
        applied.warnings.into_iter().map(|w| w.message).collect(),
    )
}

/// federatedhpa_controller.go `reconcileAutoscaler`: the ends are the bounds; at a moment
/// the current count is held within them ("Current number of replicas above
/// Spec.MaxReplicas"); a target at 0 is left alone ("scaling is disabled").
#[test]
fn a_federated_hpa_scales_its_target_to_the_end_asked_for() {
    let fleet = [
        deployment(12),
        fhpa(json!({"scaleTargetRef": target(), "minReplicas": 2, "maxReplicas": 10})),
    ];
    let end = |end| Moment {
        end: Some(end),
        at: None,
    };
    assert_eq!(replicas(&fleet, end(EnvelopeEnd::Min)).0[&0], 2);
    assert_eq!(replicas(&fleet, end(EnvelopeEnd::Max)).0[&0], 10);
    let moment = Moment {
        end: None,
        at: at("2026-12-02T09:00:00Z"),
    };
    assert_eq!(replicas(&fleet, moment).0[&0], 10);
    assert!(replicas(&fleet, Moment::default()).0.is_empty());
    let disabled = [deployment(0), fleet[1].clone()];
    let (scaled, warnings) = replicas(&disabled, end(EnvelopeEnd::Max));
    assert!(scaled.is_empty());
    assert!(warnings[0].contains("scaling is disabled"), "{warnings:?}");
    let elsewhere = [fleet[1].clone()];
    let (scaled, _) = replicas(&elsewhere, end(EnvelopeEnd::Max));
    assert!(scaled.is_empty());
    let (autoscalers, _) = read(&elsewhere);
    let warnings = autoscalers.check(&elsewhere, &Interpreter::default());
    assert!(
        warnings[0]
            .message
            .contains("names no template of the fleet"),
        "{warnings:?}"
    );
    // 12 written, 10 the most: the controller sets 10 at once, which the tree does not show.
    let (autoscalers, _) = read(&fleet);
    let warnings = autoscalers.check(&fleet, &Interpreter::default());
    assert!(
        warnings[0].message.contains(
            "is written with 12 replicas, outside 2..10: Karmada's FederatedHPA controller sets it to 10 at once"
        ),
        "{warnings:?}"
    );
}

/// A schedule the webhook admits and robfig refuses is stored and never fires
/// (cronfederatedhpa_handler.go `CreateCronJobForExecutor` fails): a warning at the rule; and a
/// CronFederatedHPA naming a FederatedHPA the fleet lacks scales nothing.
#[test]
fn check_warns_of_rules_that_never_fire_and_targets_that_are_missing() {
    let fhpa_target =
        json!({"apiVersion": AUTOSCALING_API_VERSION, "kind": FEDERATED_HPA, "name": "absent"});
    let fleet = [
        deployment(3),
        cron(
            "c",
            json!({"scaleTargetRef": fhpa_target, "rules": [
                {"name": "six", "schedule": "0 0 9 * * *", "targetMaxReplicas": 4},
            ]}),
        ),
    ];
    let (autoscalers, errors) = read(&fleet);
    assert!(errors.is_empty(), "{errors:?}");
    let warnings: Vec<String> = autoscalers
        .check(&fleet, &Interpreter::default())
        .into_iter()
        .map(|warning| warning.message)
        .collect();
    assert!(
        warnings[0].contains("names FederatedHPA shop/absent, which the fleet does not hold"),
        "{warnings:?}"
    );
    assert!(
        warnings[1].contains("spec.rules[0].schedule \"0 0 9 * * *\": Karmada's webhook admits it"),
        "{warnings:?}"
    );
    assert!(
        warnings[1].contains("expected exactly 5 fields"),
        "{warnings:?}"
    );
}

/// cronfederatedhpa_job.go `ScaleFHPA` and `ScaleWorkloads`: the rule that fired last sets
/// the bounds, or the replicas; a suspended rule never fires
/// (`helper.IsCronFederatedHPARuleSuspend`).
#[test]
fn cron_rules_set_bounds_and_replicas_by_the_last_firing() {
    let fhpa_target =
        json!({"apiVersion": AUTOSCALING_API_VERSION, "kind": FEDERATED_HPA, "name": "web"});
    let fleet = [
        deployment(3),
        fhpa(json!({"scaleTargetRef": target(), "minReplicas": 2, "maxReplicas": 10})),
        cron(
            "sale",
            json!({"scaleTargetRef": fhpa_target, "rules": [
                {"name": "up", "schedule": "0 9 * * *", "timeZone": "Europe/Berlin", "targetMinReplicas": 8, "targetMaxReplicas": 20},
                {"name": "down", "schedule": "0 18 * * *", "timeZone": "Europe/Berlin", "targetMinReplicas": 2, "targetMaxReplicas": 10},
                {"name": "never", "schedule": "30 9 * * *", "suspend": true, "targetMinReplicas": 15},
            ]}),
        ),
    ];
    let (autoscalers, _) = read(&fleet);
    // 09:00 Berlin is 08:00 UTC in December.
    assert_eq!(
        autoscalers.bounds_at(at("2026-12-02T08:30:00Z")),
        [Bounds { min: 8, max: 20 }]
    );
    assert_eq!(
        autoscalers.bounds_at(at("2026-12-02T07:30:00Z")),
        [Bounds { min: 2, max: 10 }]
    );
    let moment = |text| Moment {
        end: None,
        at: at(text),
    };
    // Held within the morning's bounds: 3 is below 8.
    assert_eq!(replicas(&fleet, moment("2026-12-02T10:00:00Z")).0[&0], 8);
    let at_max = Moment {
        end: Some(EnvelopeEnd::Max),
        at: at("2026-12-02T10:00:00Z"),
    };
    assert_eq!(replicas(&fleet, at_max).0[&0], 20);
    let workload = [
        deployment(3),
        cron(
            "night",
            json!({"scaleTargetRef": target(), "rules": [
                {"name": "night", "schedule": "0 22 * * *", "targetReplicas": 0},
                {"name": "day", "schedule": "0 6 * * *", "targetReplicas": 4},
            ]}),
        ),
    ];
    assert_eq!(replicas(&workload, moment("2026-12-02T23:00:00Z")).0[&0], 0);
    assert_eq!(replicas(&workload, moment("2026-12-02T07:00:00Z")).0[&0], 4);
}
