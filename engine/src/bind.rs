//! Binding: which propagation policy claims each template (karmada pkg/detector/policy.go,
//! compare.go). A PropagationPolicy in the template's namespace is searched first and, if one
//! matches, wins whatever any ClusterPropagationPolicy says; otherwise the best
//! ClusterPropagationPolicy. Among candidates of one kind: higher explicit priority, then the
//! more specific selector (name > label selector > apiVersion and kind), then the smaller name.

use std::cmp::Ordering;
use std::collections::HashMap;

use crate::api::selector::{ImplicitPriority, index_by_type, selectors_priority};
use crate::object::Template;
use crate::policy::{PolicyScope, Propagation};

/// A template claimed by a propagation policy: Karmada's ResourceBinding before scheduling.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Binding {
    /// Index into the propagation policies.
    pub policy: usize,
    pub(crate) implicit_priority: ImplicitPriority,
}

/// Why Karmada's detector never looks at a template (karmada pkg/detector/detector.go
/// `EventFilter`, pkg/util/apigroup.go, pkg/util/names/names.go).
pub(crate) fn never_propagated(template: &Template) -> Option<String> {
    let namespace = template.namespace();
    if is_reserved_namespace(namespace) {
        return Some(format!(
            "Karmada never propagates objects in its reserved namespace {namespace}"
        ));
    }
    if is_skipped_namespace(namespace) {
        return Some(format!(
            "Karmada skips namespace {namespace} (--skipped-propagating-namespaces default kube-.*)"
        ));
    }
    if namespace == "kube-system"
        && template.kind() == "ConfigMap"
        && template.name() == "extension-apiserver-authentication"
    {
        return Some(
            "Karmada never propagates kube-system/extension-apiserver-authentication".to_string(),
        );
    }
    const SKIPPED_GROUPS: &[&str] = &[
        "cluster.karmada.io",
        "policy.karmada.io",
        "work.karmada.io",
        "config.karmada.io",
        "networking.karmada.io",
        "autoscaling.karmada.io",
        "remedy.karmada.io",
        "apps.karmada.io",
        "events.k8s.io",
    ];
    let group = template.group();
    if group == crate::api::autoscaling::AUTOSCALING_GROUP
        && let Some(reason) = kept_on_the_control_plane(template)
    {
        return Some(reason);
    }
    if SKIPPED_GROUPS.contains(&group) {
        return Some(format!(
            "Karmada never propagates objects of the API group {group}"
        ));
    }
    if group.is_empty() && template.kind() == "Event" {
        return Some("Karmada never propagates Events".to_string());
    }
    if template.api_version == "coordination.k8s.io/v1" {
        return Some(
            "Karmada never propagates coordination.k8s.io/v1 objects (Leases)".to_string(),
        );
    }
    if template
        .labels
        .contains_key("resourcetemplate.karmada.io/claimed-by")
    {
        return Some("it is labelled resourcetemplate.karmada.io/claimed-by (taken over by a MultiClusterService)".to_string());
    }
    None
}

/// A FederatedHPA or CronFederatedHPA: Karmada keeps it on the control plane, where it scales
/// its target's template; the tree holds no autoscaler, which a GitOps deployment of the tree
/// must be told.
fn kept_on_the_control_plane(template: &Template) -> Option<String> {
    use crate::api::autoscaling::{CRON_FEDERATED_HPA, FEDERATED_HPA};
    let spec = template.object.get("spec");
    let target = |field: &str| {
        spec.and_then(|spec| {
            crate::json_pointer::pointer(spec, &format!("/scaleTargetRef/{field}"))
        })
        .and_then(serde_json::Value::as_str)
        .unwrap_or("?")
        .to_string()
    };
    let (what, under_gitops) = match template.kind() {
        FEDERATED_HPA => (
            "rescales",
            "under GitOps from these trees that autoscaling is lost unless the wiring keeps it: `build --gitops --gitops-member-hpas` gives each cluster a HorizontalPodAutoscaler with its share of the bounds",
        ),
        CRON_FEDERATED_HPA => (
            "scales at its cron times",
            "under GitOps from these trees its schedule is lost: no object on a member does what it does",
        ),
        _ => return None,
    };
    Some(format!(
        "Karmada keeps it on the control plane, where its controller {what} {} {}/{} and the scheduler divides the new count; the trees hold the replicas as written (`plan` shows each end and rule, `build --at-replicas` and `--at` render them), and {under_gitops}",
        target("kind"),
        template.namespace(),
        target("name")
    ))
}

/// `karmada-system`, `karmada-cluster` and every `karmada-es-*` execution namespace.
pub(crate) fn is_reserved_namespace(namespace: &str) -> bool {
    matches!(namespace, "karmada-system" | "karmada-cluster")
        || namespace.starts_with("karmada-es-")
}

/// The default `--skipped-propagating-namespaces` list, `kube-.*`, anchored.
pub(crate) fn is_skipped_namespace(namespace: &str) -> bool {
    namespace.starts_with("kube-")
}

/// Propagation policies indexed by the (apiVersion, kind) their selectors name, so a template
/// is compared only with the policies that could select it.
pub(crate) struct PolicyIndex<'a> {
    policies: &'a [Propagation],
    by_type: HashMap<(&'a str, &'a str), Vec<usize>>,
}

impl<'a> PolicyIndex<'a> {
    pub fn new(policies: &'a [Propagation]) -> Self {
        let by_type = index_by_type(
            policies
                .iter()
                .map(|policy| policy.resource_selectors.as_slice()),
        );
        PolicyIndex { policies, by_type }
    }

    /// Every policy whose selectors match the template, with its implicit priority, in policy
    /// order.
    pub fn matching(&self, template: &Template) -> Vec<(usize, ImplicitPriority)> {
        let Some(candidates) = self
            .by_type
            .get(&(template.api_version.as_str(), template.kind()))
        else {
            return Vec::new();
        };
        candidates
            .iter()
            .filter_map(|&index| {
                let policy = &self.policies[index];
                if let PolicyScope::Namespace(namespace) = &policy.id.scope
                    && namespace != template.namespace()
                {
                    return None;
                }
                let priority = selectors_priority(&policy.resource_selectors, template.selected());
                (priority != ImplicitPriority::MisMatch).then_some((index, priority))
            })
            .collect()
    }

    /// The winning policy, from the candidates [`PolicyIndex::matching`] found.
    pub fn bind(&self, candidates: &[(usize, ImplicitPriority)]) -> Option<Binding> {
        let best_of = |cluster_wide: bool| {
            candidates
                .iter()
                .filter(|(index, _)| self.policies[*index].is_cluster_wide() == cluster_wide)
                .min_by(|a, b| self.compare(**a, **b))
                .map(|&(policy, implicit_priority)| Binding {
                    policy,
                    implicit_priority,
                })
        };
        best_of(false).or_else(|| best_of(true))
    }

    /// Orders candidates best first: explicit priority, implicit priority, then name.
    pub fn compare(&self, a: (usize, ImplicitPriority), b: (usize, ImplicitPriority)) -> Ordering {
        let (policy_a, policy_b) = (&self.policies[a.0], &self.policies[b.0]);
        policy_b
            .priority
            .cmp(&policy_a.priority)
            .then(b.1.cmp(&a.1))
            .then_with(|| policy_a.id.name.as_bytes().cmp(policy_b.id.name.as_bytes()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::admitted_for_test;
    use serde_json::json;

    fn policy(kind: &str, name: &str, priority: i32, selector: serde_json::Value) -> Propagation {
        admitted_for_test(json!({
            "apiVersion": "policy.karmada.io/v1alpha1", "kind": kind,
            "metadata": {"name": name, "namespace": "default"},
            "spec": {"priority": priority, "resourceSelectors": [selector]}}))
    }

    fn nginx(namespace: &str) -> Template {
        Template::for_test("apps/v1", "Deployment", namespace, "nginx", json!({}))
            .with_labels(&[("app", "nginx")])
    }

    fn winner(policies: &[Propagation], template: &Template) -> Option<String> {
        let index = PolicyIndex::new(policies);
        index
            .bind(&index.matching(template))
            .map(|binding| policies[binding.policy].id.name.clone())
    }

    const BY_KIND: fn() -> serde_json::Value =
        || json!({"apiVersion": "apps/v1", "kind": "Deployment"});
    const BY_NAME: fn() -> serde_json::Value =
        || json!({"apiVersion": "apps/v1", "kind": "Deployment", "name": "nginx"});
    const BY_LABEL: fn() -> serde_json::Value = || json!({"apiVersion": "apps/v1", "kind": "Deployment", "labelSelector": {"matchLabels": {"app": "nginx"}}});

    // karmada pkg/detector/compare.go getHighestPriorityPropagationPolicy; spec §3.3.
    #[test]
    fn explicit_priority_wins_before_specificity() {
        let policies = vec![
            policy("PropagationPolicy", "a-name", -1, BY_NAME()),
            policy("PropagationPolicy", "b-kind", 0, BY_KIND()),
        ];
        assert_eq!(
            winner(&policies, &nginx("default")).as_deref(),
            Some("b-kind")
        );
        let policies = vec![
            policy("PropagationPolicy", "a-name", 1, BY_NAME()),
            policy("PropagationPolicy", "b-label", 2, BY_LABEL()),
        ];
        assert_eq!(
            winner(&policies, &nginx("default")).as_deref(),
            Some("b-label")
        );
    }

    #[test]
    fn equal_priority_goes_to_the_more_specific_selector_then_the_smaller_name() {
        let policies = vec![
            policy("PropagationPolicy", "a-kind", 0, BY_KIND()),
            policy("PropagationPolicy", "z-name", 0, BY_NAME()),
            policy("PropagationPolicy", "m-label", 0, BY_LABEL()),
        ];
        assert_eq!(
            winner(&policies, &nginx("default")).as_deref(),
            Some("z-name")
        );
        let policies = vec![
            policy("PropagationPolicy", "b", 0, BY_KIND()),
            policy("PropagationPolicy", "abc", 0, BY_KIND()),
            policy("PropagationPolicy", "ab", 0, BY_KIND()),
        ];
        assert_eq!(winner(&policies, &nginx("default")).as_deref(), Some("ab"));
    }

    // spec §3.2: a PropagationPolicy beats any ClusterPropagationPolicy.
    #[test]
    fn a_propagation_policy_beats_any_cluster_propagation_policy() {
        let policies = vec![
            policy("ClusterPropagationPolicy", "a-cpp", 1000, BY_NAME()),
            policy("PropagationPolicy", "z-pp", -5, BY_KIND()),
        ];
        assert_eq!(
            winner(&policies, &nginx("default")).as_deref(),
            Some("z-pp")
        );
    }

    #[test]
    fn a_propagation_policy_selects_only_in_its_own_namespace() {
        let policies = vec![
            policy("PropagationPolicy", "pp", 0, BY_KIND()),
            policy("ClusterPropagationPolicy", "cpp", 0, BY_KIND()),
        ];
        assert_eq!(winner(&policies, &nginx("other")).as_deref(), Some("cpp"));
        assert_eq!(winner(&policies[..1], &nginx("other")), None);
    }

    // karmada pkg/detector/detector.go EventFilter, pkg/util/names IsReservedNamespace.
    #[test]
    fn karmada_never_propagates_reserved_and_kube_namespaces() {
        assert!(never_propagated(&nginx("karmada-system")).is_some());
        assert!(never_propagated(&nginx("karmada-es-member1")).is_some());
        assert!(never_propagated(&nginx("kube-system")).is_some());
        assert!(never_propagated(&nginx("kube-public")).is_some());
        assert!(never_propagated(&nginx("my-kube-x")).is_none());
        assert!(never_propagated(&nginx("default")).is_none());
    }

    // karmada pkg/util/apigroup.go default skipped groups; detector.go claimed-by label.
    #[test]
    fn karmada_never_propagates_its_own_groups_events_leases_or_claimed_objects() {
        let object = |api_version: &str, kind: &str| {
            Template::for_test(api_version, kind, "default", "x", json!({}))
        };
        assert!(never_propagated(&object("work.karmada.io/v1alpha1", "Work")).is_some());
        assert!(never_propagated(&object("events.k8s.io/v1", "Event")).is_some());
        assert!(never_propagated(&object("v1", "Event")).is_some());
        assert!(never_propagated(&object("coordination.k8s.io/v1", "Lease")).is_some());
        assert!(never_propagated(&object("apps/v1", "Deployment")).is_none());
        let claimed = object("apps/v1", "Deployment")
            .with_labels(&[("resourcetemplate.karmada.io/claimed-by", "mcs")]);
        assert!(never_propagated(&claimed).is_some());
    }
}
