//! Filter plugins: which clusters may receive a template (karmada pkg/scheduler/framework/plugins).

use crate::api::cluster::Cluster;
use crate::api::karmada::{ClusterAffinity, Placement};
use crate::api::meta::{Taint, TaintEffect, Toleration, TolerationOperator};
use crate::object::Template;

/// One group of cluster affinity being tried: the policy's `clusterAffinity`, or one term of
/// `clusterAffinities` with its overflow affinities.
#[derive(Debug, Clone, Default)]
pub(crate) struct AffinityTerm {
    /// `affinityName` of a `clusterAffinities` term; `None` for `clusterAffinity`.
    pub name: Option<String>,
    /// `None`: every cluster matches.
    pub affinity: Option<ClusterAffinity>,
    pub overflow: Vec<ClusterAffinity>,
}

/// Why a cluster was filtered out, for warnings and the plan report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Filtered {
    /// Outside the affinity (of the named `clusterAffinities` term).
    Affinity(Option<String>),
    /// Outside the affinity term that scheduled, after an earlier term that included it
    /// filtered it out for `reason` and then scheduled nothing.
    EarlierTerm {
        /// The term that filtered it out.
        earlier: String,
        /// Why that term filtered it out.
        reason: Box<Filtered>,
        /// The term that scheduled.
        scheduled: String,
    },
    /// A taint (`key=value:Effect`) the placement does not tolerate.
    Taint(String),
    /// An API the cluster does not serve (by `status.apiEnablements`).
    ApiDisabled(String),
    /// A field `spreadByField` needs that the cluster does not state.
    SpreadField(String),
    /// The cluster is being deleted.
    BeingDeleted,
}

impl Filtered {
    /// Why, in the words of warnings and the plan.
    pub fn describe(&self) -> String {
        match self {
            Filtered::Affinity(None) => "not in the cluster affinity".to_string(),
            Filtered::Affinity(Some(term)) => format!("not in affinity {term}"),
            Filtered::EarlierTerm {
                earlier,
                reason,
                scheduled,
            } => format!(
                "{} under affinity {earlier}, which then scheduled nothing; not in affinity \
                 {scheduled}, which scheduled",
                reason.describe()
            ),
            Filtered::Taint(taint) => format!("taint {taint} not tolerated"),
            Filtered::ApiDisabled(api) => format!("{api} not in status.apiEnablements"),
            Filtered::SpreadField(field) => format!("no {field} for spreadByField {field}"),
            Filtered::BeingDeleted => "being deleted".to_string(),
        }
    }
}

/// Runs every filter on one cluster (karmada generic_scheduler.go `findClustersThatFit`).
/// Returns the cluster's overflow order: 0 when the primary affinity matches, k when it
/// first matches the k-th overflow affinity (workloads only).
pub(crate) fn filter_cluster(
    placement: &Placement,
    term: &AffinityTerm,
    is_workload: bool,
    template: &Template,
    cluster: &Cluster,
) -> Result<usize, Filtered> {
    if cluster.metadata.deletion_timestamp.is_some() {
        return Err(Filtered::BeingDeleted);
    }
    let overflow_order = match &term.affinity {
        None => 0,
        Some(affinity) if affinity.matches(cluster) => 0,
        Some(_) if is_workload => term
            .overflow
            .iter()
            .position(|overflow| overflow.matches(cluster))
            .map(|index| index + 1)
            .ok_or_else(|| Filtered::Affinity(term.name.clone()))?,
        Some(_) => return Err(Filtered::Affinity(term.name.clone())),
    };
    if let Some(taint) = untolerated_taint(&cluster.spec.taints, &placement.cluster_tolerations) {
        return Err(Filtered::Taint(format!(
            "{}={}:{:?}",
            taint.key, taint.value, taint.effect
        )));
    }
    if !api_enabled(cluster, &template.api_version, template.kind()) {
        return Err(Filtered::ApiDisabled(format!(
            "{} {}",
            template.api_version,
            template.kind()
        )));
    }
    for constraint in &placement.spread_constraints {
        let missing = match constraint.spread_by_field.as_deref() {
            Some("provider") => cluster.spec.provider.is_empty(),
            Some("region") => cluster.spec.region.is_empty(),
            Some("zone") => cluster.zones().is_empty(),
            _ => false,
        };
        if missing {
            let field = constraint.spread_by_field.clone().unwrap_or_default();
            return Err(Filtered::SpreadField(field));
        }
    }
    Ok(overflow_order)
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
pub(crate) fn tolerates(toleration: &Toleration, taint: &Taint) -> bool {
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

    fn cluster(value: serde_json::Value) -> Cluster {
        let mut full = json!({"apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster"});
        full.as_object_mut()
            .unwrap()
            .extend(value.as_object().unwrap().clone());
        serde_json::from_value(full).unwrap()
    }

    fn deployment() -> Template {
        Template::for_test("apps/v1", "Deployment", "default", "web", json!({}))
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

    // karmada plugins/apienablement/api_enablement_test.go, with the offline convention that a
    // missing list enables everything (spec README, deviation 3).
    #[test]
    fn api_enablement_filters_only_when_listed() {
        let listed = cluster(
            json!({"metadata": {"name": "m1"}, "status": {"apiEnablements": [
            {"groupVersion": "apps/v1", "resources": [{"name": "deployments", "kind": "Deployment"}]}]}}),
        );
        assert!(api_enabled(&listed, "apps/v1", "Deployment"));
        assert!(!api_enabled(&listed, "batch/v1", "Job"));
        let empty = cluster(json!({"metadata": {"name": "m2"}, "status": {"apiEnablements": []}}));
        assert!(!api_enabled(&empty, "apps/v1", "Deployment"));
        let unlisted = cluster(json!({"metadata": {"name": "m3"}}));
        assert!(api_enabled(&unlisted, "batch/v1", "Job"));
    }

    // karmada plugins/spreadconstraint/spread_constraint_test.go TestSpreadConstraint_Filter.
    #[test]
    fn spread_by_field_needs_the_field() {
        let placement: Placement = serde_json::from_value(json!({"spreadConstraints": [
            {"spreadByField": "region", "maxGroups": 1}, {"spreadByField": "cluster", "maxGroups": 2}]})).unwrap();
        let with_region = cluster(json!({"metadata": {"name": "a"}, "spec": {"region": "eu"}}));
        let without = cluster(json!({"metadata": {"name": "b"}}));
        let term = AffinityTerm::default();
        assert_eq!(
            filter_cluster(&placement, &term, true, &deployment(), &with_region),
            Ok(0)
        );
        assert_eq!(
            filter_cluster(&placement, &term, true, &deployment(), &without),
            Err(Filtered::SpreadField("region".to_string()))
        );
    }

    // karmada plugins/clusteraffinity: overflow affinities count for workloads only.
    #[test]
    fn overflow_affinities_give_an_order_to_workloads_only() {
        let placement = Placement::default();
        let names = |names: &[&str]| ClusterAffinity {
            cluster_names: names.iter().map(|n| n.to_string()).collect(),
            ..Default::default()
        };
        let term = AffinityTerm {
            name: Some("primary".to_string()),
            affinity: Some(names(&["a"])),
            overflow: vec![names(&["b"]), names(&["c"])],
        };
        let c = cluster(json!({"metadata": {"name": "c"}}));
        assert_eq!(
            filter_cluster(&placement, &term, true, &deployment(), &c),
            Ok(2)
        );
        assert_eq!(
            filter_cluster(&placement, &term, false, &deployment(), &c),
            Err(Filtered::Affinity(Some("primary".to_string())))
        );
        let a = cluster(json!({"metadata": {"name": "a"}}));
        assert_eq!(
            filter_cluster(&placement, &term, true, &deployment(), &a),
            Ok(0)
        );
    }
}
