//! Filter plugins: which clusters may receive a template (karmada pkg/scheduler/framework/plugins).

use crate::api::cluster::Cluster;
use crate::api::karmada::Placement;
use crate::api::meta::{Taint, TaintEffect, Toleration, TolerationOperator};
use crate::object::Template;

/// Why a cluster was filtered out, for warnings and the plan report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Filtered {
    Affinity,
    Taint(String),
    ApiDisabled,
    BeingDeleted,
}

/// Runs every filter on one cluster (karmada generic_scheduler.go `findClustersThatFit`).
pub fn filter_cluster(
    placement: &Placement,
    template: &Template,
    cluster: &Cluster,
) -> Result<(), Filtered> {
    if cluster.metadata.deletion_timestamp.is_some() {
        return Err(Filtered::BeingDeleted);
    }
    if let Some(affinity) = &placement.cluster_affinity
        && !affinity.matches(cluster)
    {
        return Err(Filtered::Affinity);
    }
    if let Some(taint) = untolerated_taint(&cluster.spec.taints, &placement.cluster_tolerations) {
        return Err(Filtered::Taint(format!(
            "{}={}:{:?}",
            taint.key, taint.value, taint.effect
        )));
    }
    if !api_enabled(cluster, &template.api_version, template.kind()) {
        return Err(Filtered::ApiDisabled);
    }
    Ok(())
}

/// karmada plugins/tainttoleration: only NoSchedule and NoExecute taints count;
/// PreferNoSchedule is ignored.
fn untolerated_taint<'a>(taints: &'a [Taint], tolerations: &[Toleration]) -> Option<&'a Taint> {
    taints
        .iter()
        .filter(|taint| {
            matches!(
                taint.effect,
                TaintEffect::NoSchedule | TaintEffect::NoExecute
            )
        })
        .find(|taint| {
            !tolerations
                .iter()
                .any(|toleration| tolerates(toleration, taint))
        })
}

/// Kubernetes `Toleration.ToleratesTaint`: an empty effect matches every effect, an empty key
/// with `Exists` matches every key, `Equal` (the default) compares values.
pub fn tolerates(toleration: &Toleration, taint: &Taint) -> bool {
    if toleration
        .effect
        .is_some_and(|effect| effect != taint.effect)
    {
        return false;
    }
    if !toleration.key.is_empty() && toleration.key != taint.key {
        return false;
    }
    match toleration.operator {
        Some(TolerationOperator::Exists) => true,
        None | Some(TolerationOperator::Equal) => {
            !toleration.key.is_empty() && toleration.value == taint.value
        }
        Some(TolerationOperator::Lt | TolerationOperator::Gt) => false,
    }
}

/// karmada plugins/apienablement. An inventory without `status.apiEnablements` enables every
/// API (spec README, deviation 3); a present list filters exactly as Karmada does.
fn api_enabled(cluster: &Cluster, api_version: &str, kind: &str) -> bool {
    let Some(enablements) = cluster
        .status
        .as_ref()
        .and_then(|status| status.api_enablements.as_ref())
    else {
        return true;
    };
    enablements.iter().any(|enablement| {
        enablement.group_version == api_version
            && enablement
                .resources
                .iter()
                .any(|resource| resource.kind == kind)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn taint(key: &str, value: &str, effect: &str) -> Taint {
        serde_json::from_value(json!({"key": key, "value": value, "effect": effect})).unwrap()
    }

    fn toleration(value: serde_json::Value) -> Toleration {
        serde_json::from_value(value).unwrap()
    }

    // karmada plugins/tainttoleration/taint_toleration_test.go; k8s ToleratesTaint.
    #[test]
    fn toleration_matching_follows_kubernetes() {
        let t = taint("dedicated", "gpu", "NoSchedule");
        assert!(tolerates(
            &toleration(json!({"key": "dedicated", "operator": "Equal", "value": "gpu"})),
            &t
        ));
        assert!(tolerates(
            &toleration(json!({"key": "dedicated", "value": "gpu"})),
            &t
        ));
        assert!(!tolerates(
            &toleration(json!({"key": "dedicated", "value": "cpu"})),
            &t
        ));
        assert!(tolerates(
            &toleration(json!({"key": "dedicated", "operator": "Exists"})),
            &t
        ));
        assert!(tolerates(&toleration(json!({"operator": "Exists"})), &t));
        assert!(!tolerates(
            &toleration(json!({"key": "dedicated", "operator": "Exists", "effect": "NoExecute"})),
            &t
        ));
    }

    #[test]
    fn prefer_no_schedule_taints_do_not_filter() {
        let taints = vec![taint("a", "", "PreferNoSchedule")];
        assert!(untolerated_taint(&taints, &[]).is_none());
        let taints = vec![taint("a", "", "NoExecute")];
        assert!(untolerated_taint(&taints, &[]).is_some());
    }
}
