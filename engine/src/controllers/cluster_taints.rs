//! Karmada's ClusterTaintPolicy controller, offline (karmada
//! pkg/controllers/taint/clustertaintpolicy_controller.go): each policy adds its taints to the
//! clusters of the inventory whose `status.conditions` match its `addOnConditions`, and removes
//! them where they match its `removeOnConditions`, so a failover drill written as conditions
//! renders as Karmada would schedule it. Policies apply in the controller's order, oldest
//! first (`metadata.creationTimestamp`; by name where it is unset or equal, which keeps the
//! result deterministic where Karmada's would depend on timing).

use crate::api::cluster::Cluster;
use crate::api::karmada::{ClusterTaintPolicy, MatchCondition, MatchConditionOperator};
use crate::api::meta::{Condition, Taint, TaintEffect};
use crate::diagnostics::{Diagnostic, Located, Rejected};
use crate::lint::Lint;

/// A policy admitted as Karmada's webhook admits it.
#[derive(Debug, Clone)]
pub struct TaintPolicy {
    pub name: String,
    pub policy: ClusterTaintPolicy,
}

/// What a policy did to a cluster, for `plan`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaintChange {
    /// The member cluster.
    pub cluster: String,
    /// The ClusterTaintPolicy's name.
    pub policy: String,
    /// `key=value:Effect`.
    pub taint: String,
    /// Whether the taint was put on (`true`) or taken off.
    pub added: bool,
}

/// Karmada's webhook (pkg/webhook/clustertaintpolicy/validating.go) and CRD: at least one
/// taint, no key and effect twice. A NoExecute taint is refused by the webhook unless it runs
/// with `--allow-no-execute-taint-policy`, which a fleet cannot see: it is admitted with a
/// warning, and the evictions it causes on a live control plane are not modelled (a rendered
/// tree is what the clusters should run).
pub(crate) fn admit(
    located: &Located<ClusterTaintPolicy>,
    warnings: &mut Vec<Diagnostic>,
) -> Result<TaintPolicy, Rejected> {
    let policy = &located.item;
    let name = &policy.metadata.name;
    let at = |field: &str| located.fields.origin(&located.origin, field);
    let mut errors = Vec::new();
    if policy.spec.taints.is_empty() {
        errors.push(Diagnostic::error(
            Some(at("spec.taints")),
            format!("ClusterTaintPolicy {name}: spec.taints needs at least one taint"),
        ));
    }
    for (index, taint) in policy.spec.taints.iter().enumerate() {
        let field = format!("spec.taints[{index}]");
        if policy.spec.taints[..index]
            .iter()
            .any(|earlier| earlier.key == taint.key && earlier.effect == taint.effect)
        {
            errors.push(Diagnostic::error(
                Some(at(&field)),
                format!(
                    "ClusterTaintPolicy {name}: {field}: a taint with key {:?} and effect {:?} \
                     is there already",
                    taint.key, taint.effect
                ),
            ));
        }
        if taint.effect == TaintEffect::NoExecute {
            warnings.push(Diagnostic::warning(
                Lint::NotModelled,
                Some(at(&field)),
                format!(
                    "ClusterTaintPolicy {name}: {field}: Karmada's webhook admits a NoExecute \
                     taint only when it runs with --allow-no-execute-taint-policy; fedrender \
                     schedules around it, but does not model the evictions it causes"
                ),
            ));
        }
    }
    for (field, conditions) in [
        ("spec.addOnConditions", &policy.spec.add_on_conditions),
        ("spec.removeOnConditions", &policy.spec.remove_on_conditions),
    ] {
        for (index, condition) in conditions.iter().enumerate() {
            if condition.condition_type.is_empty() || condition.status_values.is_empty() {
                errors.push(Diagnostic::error(
                    Some(at(&format!("{field}[{index}]"))),
                    format!(
                        "ClusterTaintPolicy {name}: {field}[{index}] needs a conditionType and \
                         statusValues"
                    ),
                ));
            }
        }
    }
    if !errors.is_empty() {
        return Err(errors.into());
    }
    Ok(TaintPolicy {
        name: name.clone(),
        policy: policy.clone(),
    })
}

/// Runs every policy over every cluster, as the controller reconciles each cluster: the taints
/// of the inventory, then each policy in order. Returns what changed.
pub fn apply(policies: &[TaintPolicy], clusters: &mut [Cluster]) -> Vec<TaintChange> {
    let mut ordered: Vec<&TaintPolicy> = policies.iter().collect();
    ordered.sort_by(|a, b| {
        let created = |policy: &TaintPolicy| {
            policy
                .policy
                .metadata
                .creation_timestamp
                .as_ref()
                .and_then(|time| time.as_str())
                .map(String::from)
        };
        // RFC 3339 times in UTC sort as text; an unset time sorts first, as Go's zero time.
        created(a)
            .cmp(&created(b))
            .then_with(|| a.name.cmp(&b.name))
    });
    let mut changes = Vec::new();
    for cluster in clusters.iter_mut() {
        for policy in &ordered {
            let spec = &policy.policy.spec;
            if let Some(target) = &spec.target_clusters
                && !target.matches(cluster)
            {
                continue;
            }
            let conditions: &[Condition] = cluster
                .status
                .as_ref()
                .map_or(&[], |status| status.conditions.as_slice());
            if conditions_match(conditions, &spec.add_on_conditions) {
                for taint in &spec.taints {
                    let present = cluster.spec.taints.iter().any(|existing| {
                        existing.key == taint.key && existing.effect == taint.effect
                    });
                    if !present {
                        cluster.spec.taints.push(Taint {
                            key: taint.key.clone(),
                            value: taint.value.clone(),
                            effect: taint.effect,
                            time_added: None,
                        });
                        changes.push(change(cluster, policy, taint, true));
                    }
                }
            }
            if conditions_match(conditions, &spec.remove_on_conditions) {
                for taint in &spec.taints {
                    if let Some(position) = cluster.spec.taints.iter().position(|existing| {
                        existing.key == taint.key && existing.effect == taint.effect
                    }) {
                        cluster.spec.taints.remove(position);
                        changes.push(change(cluster, policy, taint, false));
                    }
                }
            }
        }
    }
    changes
}

fn change(
    cluster: &Cluster,
    policy: &TaintPolicy,
    taint: &crate::api::karmada::PolicyTaint,
    added: bool,
) -> TaintChange {
    TaintChange {
        cluster: cluster.name().to_string(),
        policy: policy.name.clone(),
        taint: format!("{}={}:{:?}", taint.key, taint.value, taint.effect),
        added,
    }
}

/// The controller's `conditionMatches`: every match condition holds for a status condition of
/// its type (the last one of that type decides); no match conditions never match.
fn conditions_match(conditions: &[Condition], wanted: &[MatchCondition]) -> bool {
    if wanted.is_empty() {
        return false;
    }
    wanted.iter().all(|wanted| {
        let mut matched = false;
        for condition in conditions
            .iter()
            .filter(|condition| condition.condition_type == wanted.condition_type)
        {
            let listed = wanted.status_values.contains(&condition.status);
            matched = match wanted.operator {
                MatchConditionOperator::In => matched || listed,
                MatchConditionOperator::NotIn => !listed,
            };
        }
        matched
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn cluster(name: &str, ready: &str) -> Cluster {
        serde_json::from_value(json!({
            "apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster",
            "metadata": {"name": name}, "spec": {},
            "status": {"conditions": [{"type": "Ready", "status": ready}]},
        }))
        .unwrap()
    }

    fn policy(name: &str, spec: serde_json::Value) -> TaintPolicy {
        TaintPolicy {
            name: name.to_string(),
            policy: serde_json::from_value(json!({
                "apiVersion": "policy.karmada.io/v1alpha1", "kind": "ClusterTaintPolicy",
                "metadata": {"name": name}, "spec": spec,
            }))
            .unwrap(),
        }
    }

    /// clustertaintpolicy_controller_test.go: a not-ready cluster gets the policy's taint; a
    /// ready one loses it.
    #[test]
    fn taints_follow_the_conditions() {
        let not_ready = policy(
            "not-ready",
            json!({
                "addOnConditions": [{"conditionType": "Ready", "operator": "NotIn", "statusValues": ["True"]}],
                "removeOnConditions": [{"conditionType": "Ready", "operator": "In", "statusValues": ["True"]}],
                "taints": [{"key": "cluster.karmada.io/not-ready", "effect": "NoSchedule"}],
            }),
        );
        let mut clusters = vec![cluster("member1", "False"), cluster("member2", "True")];
        clusters[1].spec.taints.push(Taint {
            key: "cluster.karmada.io/not-ready".into(),
            value: String::new(),
            effect: TaintEffect::NoSchedule,
            time_added: None,
        });
        let changes = apply(&[not_ready], &mut clusters);
        assert_eq!(clusters[0].spec.taints.len(), 1);
        assert!(clusters[1].spec.taints.is_empty());
        assert_eq!(
            changes,
            vec![
                TaintChange {
                    cluster: "member1".into(),
                    policy: "not-ready".into(),
                    taint: "cluster.karmada.io/not-ready=:NoSchedule".into(),
                    added: true
                },
                TaintChange {
                    cluster: "member2".into(),
                    policy: "not-ready".into(),
                    taint: "cluster.karmada.io/not-ready=:NoSchedule".into(),
                    added: false
                },
            ]
        );
    }

    #[test]
    fn conditions_are_anded_and_absent_types_never_match() {
        let conditions = vec![Condition {
            condition_type: "Ready".into(),
            status: "False".into(),
            observed_generation: None,
            last_transition_time: None,
            reason: None,
            message: None,
        }];
        let wanted = |kind: &str, operator, values: &[&str]| MatchCondition {
            condition_type: kind.into(),
            operator,
            status_values: values.iter().map(|v| v.to_string()).collect(),
        };
        use MatchConditionOperator::{In, NotIn};
        assert!(conditions_match(
            &conditions,
            &[wanted("Ready", In, &["False", "Unknown"])]
        ));
        assert!(!conditions_match(
            &conditions,
            &[wanted("Ready", NotIn, &["False"])]
        ));
        assert!(!conditions_match(
            &conditions,
            &[wanted("NetworkReady", NotIn, &["True"])]
        ));
        assert!(!conditions_match(&conditions, &[]));
    }
}
