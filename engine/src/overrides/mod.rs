//! Overrides: per-cluster changes from OverridePolicies and ClusterOverridePolicies, applied in
//! Karmada's order (karmada pkg/util/overridemanager/overridemanager.go). All
//! ClusterOverridePolicies come first, then the OverridePolicies of the template's namespace;
//! within each pass the least specific policy first (so the most specific has the last word),
//! then by name; within a policy its rules in order; within a rule the overriders in a fixed
//! order whatever the YAML says: image, command, args, labels, annotations, field, plaintext.

pub(crate) mod command_args;
pub mod field;
pub mod image;
pub(crate) mod labels_annotations;
pub mod patch;
pub mod plaintext;
pub(crate) mod pull_policy;
pub(crate) mod raw_json;

use std::collections::HashMap;

use serde_json::Value;

use crate::api::cluster::Cluster;
use crate::api::karmada::Overriders;
use crate::api::selector::{ImplicitPriority, Selected, index_by_type, selectors_priority};
use crate::object::Template;
use crate::policy::{Override, PolicyScope};
use command_args::ContainerList;
use labels_annotations::MetadataMap;

/// One override rule: the policy (an index into the fleet's override policies) and the rule's
/// position in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct RuleRef {
    pub policy: usize,
    pub rule: usize,
}

/// The fleet's override policies, indexed once: by the (apiVersion, kind) their selectors name
/// (a policy without selectors selects every template), and every rule with the clusters its
/// target matches. A template is compared only with the policies that could select it, and no
/// rule is matched against a cluster more than once.
#[derive(Debug)]
pub(crate) struct OverrideIndex<'a> {
    overrides: &'a [Override],
    by_type: HashMap<(&'a str, &'a str), Vec<usize>>,
    selecting_everything: Vec<usize>,
    /// Per policy, per rule, per inventory cluster: whether the rule applies there.
    rule_targets: Vec<Vec<Vec<bool>>>,
}

impl<'a> OverrideIndex<'a> {
    pub fn new(overrides: &'a [Override], clusters: &[Cluster]) -> Self {
        let by_type = index_by_type(
            overrides
                .iter()
                .map(|policy| policy.resource_selectors.as_slice()),
        );
        let selecting_everything = (0..overrides.len())
            .filter(|&index| overrides[index].resource_selectors.is_empty())
            .collect();
        let rule_targets = overrides
            .iter()
            .map(|policy| {
                policy
                    .rules
                    .iter()
                    .map(|rule| {
                        clusters
                            .iter()
                            .map(|cluster| {
                                rule.target_cluster
                                    .as_ref()
                                    .is_none_or(|target| target.matches(cluster))
                            })
                            .collect()
                    })
                    .collect()
            })
            .collect();
        OverrideIndex {
            overrides,
            by_type,
            selecting_everything,
            rule_targets,
        }
    }

    /// The override policies that select a template, in the order Karmada applies them, as
    /// long as the ClusterOverridePolicies do not change what the OverridePolicies' selectors
    /// see (see [`namespaced_policies_for`](Self::namespaced_policies_for)).
    pub(crate) fn policies_for(&self, template: &Template) -> Vec<usize> {
        let mut policies = self.cluster_policies_for(template.selected());
        policies.extend(self.namespaced_policies_for(template.selected()));
        policies
    }

    /// The ClusterOverridePolicies that select an object, in the order Karmada applies them
    /// (overridemanager.go `applyClusterOverrides`, every COP matched against the object
    /// before any is applied).
    pub(crate) fn cluster_policies_for(&self, object: Selected<'_>) -> Vec<usize> {
        self.matching(object, true)
    }

    /// The OverridePolicies that select an object, in the order Karmada applies them. Karmada
    /// matches them against the object as the ClusterOverridePolicies left it
    /// (overridemanager.go `ApplyOverridePolicies`: `applyNamespacedOverrides` runs on the same
    /// object after `applyClusterOverrides`, lists the OverridePolicies of the object's
    /// namespace as it is then, and only if it still has one).
    pub(crate) fn namespaced_policies_for(&self, object: Selected<'_>) -> Vec<usize> {
        if object.namespace.is_empty() {
            return Vec::new();
        }
        self.matching(object, false)
    }

    /// `getOverridersFromOverridePolicies`: the policies of one pass (cluster-wide or the
    /// object's namespace) that select the object, least specific first, then by name.
    fn matching(&self, object: Selected<'_>, cluster_wide: bool) -> Vec<usize> {
        let typed = self
            .by_type
            .get(&(object.api_version, object.kind))
            .map_or(&[][..], Vec::as_slice);
        let mut candidates: Vec<usize> = typed
            .iter()
            .chain(&self.selecting_everything)
            .copied()
            .collect();
        // Policy order, as if every policy had been compared.
        candidates.sort_unstable();
        let mut matched: Vec<(ImplicitPriority, &str, usize)> = candidates
            .iter()
            .map(|&index| (index, &self.overrides[index]))
            .filter(|(_, policy)| match &policy.id.scope {
                PolicyScope::Cluster => cluster_wide,
                PolicyScope::Namespace(namespace) => !cluster_wide && namespace == object.namespace,
            })
            .filter_map(|(index, policy)| {
                let priority = if policy.resource_selectors.is_empty() {
                    ImplicitPriority::MatchAll
                } else {
                    selectors_priority(&policy.resource_selectors, object)
                };
                (priority != ImplicitPriority::MisMatch).then_some((
                    priority,
                    policy.id.name.as_str(),
                    index,
                ))
            })
            .collect();
        matched.sort_by(|a, b| {
            a.0.cmp(&b.0)
                .then_with(|| a.1.as_bytes().cmp(b.1.as_bytes()))
        });
        matched.into_iter().map(|(_, _, index)| index).collect()
    }

    /// Whether a policy is a ClusterOverridePolicy.
    pub(crate) fn is_cluster_wide(&self, policy: usize) -> bool {
        self.overrides[policy].id.scope == PolicyScope::Cluster
    }

    /// Whether applying a rule could change what a resource selector sees in the object
    /// (apiVersion, kind, namespace, name, labels): when no ClusterOverridePolicy rule could,
    /// the OverridePolicies are those that select the template itself.
    pub(crate) fn may_change_what_selectors_see(&self, rule: RuleRef) -> bool {
        let overriders = &self.overrides[rule.policy].rules[rule.rule].overriders;
        // A path reaches the selected fields unless it plainly starts elsewhere: a path without
        // a leading `/` loses its first segment to the patch library, so it counts as unclear.
        let unclear = |path: &str| match path.strip_prefix('/') {
            None => true,
            Some(rest) => {
                let first = rest.split('/').next().unwrap_or("");
                matches!(first, "apiVersion" | "kind" | "metadata")
            }
        };
        !overriders.labels_overrider.is_empty()
            || overriders
                .plaintext
                .iter()
                .any(|entry| unclear(&entry.path))
            || overriders
                .field_overrider
                .iter()
                .any(|entry| unclear(&entry.field_path))
            || overriders.image_overrider.iter().any(|entry| {
                entry.predicate.as_ref().is_some_and(|predicate| {
                    // The image predicate walker trims the slashes at both ends.
                    unclear(&format!("/{}", predicate.path.trim_matches('/')))
                })
            })
    }

    /// The rules of those policies that apply to one cluster (a position in the inventory), in
    /// application order.
    pub(crate) fn rules_for_cluster(&self, policies: &[usize], cluster: usize) -> Vec<RuleRef> {
        policies
            .iter()
            .flat_map(|&policy| {
                self.rule_targets[policy]
                    .iter()
                    .enumerate()
                    .filter(move |(_, clusters)| clusters[cluster])
                    .map(move |(rule, _)| RuleRef { policy, rule })
            })
            .collect()
    }
}

/// A failed overrider: which one (a field path inside the rule) and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OverriderError {
    pub overrider: String,
    pub message: String,
}

/// Applies one rule's overriders to an object in Karmada's fixed order; each entry sees the
/// result of the ones before it.
pub(crate) fn apply_overriders(
    object: &mut Value,
    kind: &str,
    overriders: &Overriders,
) -> Result<(), OverriderError> {
    let fail = |overrider: String| move |message: String| OverriderError { overrider, message };
    for (index, entry) in overriders.image_overrider.iter().enumerate() {
        image::apply_image_overrider(object, kind, entry)
            .map_err(fail(format!("imageOverrider[{index}]")))?;
    }
    for (index, entry) in overriders.command_overrider.iter().enumerate() {
        command_args::apply_command_args(object, kind, ContainerList::Command, entry)
            .map_err(fail(format!("commandOverrider[{index}]")))?;
    }
    for (index, entry) in overriders.args_overrider.iter().enumerate() {
        command_args::apply_command_args(object, kind, ContainerList::Args, entry)
            .map_err(fail(format!("argsOverrider[{index}]")))?;
    }
    for (index, entry) in overriders.labels_overrider.iter().enumerate() {
        labels_annotations::apply_metadata_map(object, MetadataMap::Labels, entry)
            .map_err(fail(format!("labelsOverrider[{index}]")))?;
    }
    for (index, entry) in overriders.annotations_overrider.iter().enumerate() {
        labels_annotations::apply_metadata_map(object, MetadataMap::Annotations, entry)
            .map_err(fail(format!("annotationsOverrider[{index}]")))?;
    }
    for (index, entry) in overriders.field_overrider.iter().enumerate() {
        field::apply_field_overrider(object, entry)
            .map_err(fail(format!("fieldOverrider[{index}]")))?;
    }
    if !overriders.plaintext.is_empty() {
        plaintext::apply_plaintext(object, &overriders.plaintext)
            .map_err(fail("plaintext".to_string()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::karmada::OverridePolicy;
    use crate::api::selector::ObjectIdentity;
    use crate::diagnostics::Origin;

    use crate::diagnostics::Located;
    use crate::policy::admit_override;
    use serde_json::json;

    fn policy(kind: &str, name: &str, namespace: &str, selectors: Value, rules: Value) -> Override {
        let item: OverridePolicy = serde_json::from_value(json!({
            "apiVersion": "policy.karmada.io/v1alpha1", "kind": kind,
            "metadata": {"name": name, "namespace": namespace},
            "spec": {"resourceSelectors": selectors, "overrideRules": rules}}))
        .unwrap();
        admit_override(
            &Located {
                origin: Origin::new("o.yaml", 0, 1),
                item,
                fields: crate::diagnostics::FieldLines::default(),
            },
            &mut Vec::new(),
        )
        .unwrap()
    }

    fn any_rule() -> Value {
        json!([{"overriders": {"labelsOverrider": [{"operator": "add", "value": {"a": "b"}}]}}])
    }

    fn nginx() -> Template {
        Template::for_test("apps/v1", "Deployment", "web", "nginx", json!({}))
            .with_labels(&[("app", "nginx")])
    }

    fn names(order: &[usize], policies: &[Override]) -> Vec<String> {
        order.iter().map(|&i| policies[i].id.to_string()).collect()
    }

    // karmada overridemanager.go getOverridersFromOverridePolicies + sort by implicit
    // priority then name; spec §7.2 and §12 item 1.
    #[test]
    fn cluster_policies_first_then_least_specific_first_then_by_name() {
        let by_name = json!([{"apiVersion": "apps/v1", "kind": "Deployment", "name": "nginx"}]);
        let by_label = json!([{"apiVersion": "apps/v1", "kind": "Deployment", "labelSelector": {"matchLabels": {"app": "nginx"}}}]);
        let by_kind = json!([{"apiVersion": "apps/v1", "kind": "Deployment"}]);
        let policies = vec![
            policy(
                "OverridePolicy",
                "a-op-name",
                "web",
                by_name.clone(),
                any_rule(),
            ),
            policy("OverridePolicy", "z-op-all", "web", json!([]), any_rule()),
            policy(
                "OverridePolicy",
                "b-op-kind",
                "web",
                by_kind.clone(),
                any_rule(),
            ),
            policy(
                "ClusterOverridePolicy",
                "a-cop-name",
                "",
                by_name,
                any_rule(),
            ),
            policy(
                "ClusterOverridePolicy",
                "b-cop-label",
                "",
                by_label,
                any_rule(),
            ),
            policy(
                "OverridePolicy",
                "other-namespace",
                "prod",
                by_kind,
                any_rule(),
            ),
        ];
        assert_eq!(
            names(
                &OverrideIndex::new(&policies, &[]).policies_for(&nginx()),
                &policies
            ),
            vec![
                "ClusterOverridePolicy b-cop-label",
                "ClusterOverridePolicy a-cop-name",
                "OverridePolicy web/b-op-kind",
                "OverridePolicy web/z-op-all",
                "OverridePolicy web/a-op-name",
            ]
        );
    }

    #[test]
    fn override_policies_never_apply_to_cluster_scoped_objects() {
        let mut namespace = nginx();
        namespace.key.namespace = String::new();
        let policies = vec![policy(
            "OverridePolicy",
            "op",
            "default",
            json!([]),
            any_rule(),
        )];
        assert!(
            OverrideIndex::new(&policies, &[])
                .policies_for(&namespace)
                .is_empty()
        );
    }

    // spec §7.3: every rule whose target matches applies, in list order.
    #[test]
    fn rules_apply_in_order_when_their_target_matches() {
        let rules = json!([
            {"targetCluster": {"clusterNames": ["m1"]}, "overriders": {}},
            {"overriders": {}},
            {"targetCluster": {"exclude": ["m1"]}, "overriders": {}},
        ]);
        let policies = vec![policy("ClusterOverridePolicy", "cop", "", json!([]), rules)];
        let cluster = |name: &str| -> Cluster {
            serde_json::from_value(json!({"apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster", "metadata": {"name": name}})).unwrap()
        };
        let clusters = [cluster("m1"), cluster("m2")];
        let index = OverrideIndex::new(&policies, &clusters);
        let rule_numbers = |name: &str| -> Vec<usize> {
            let position = clusters.iter().position(|c| c.name() == name).unwrap();
            index
                .rules_for_cluster(&[0], position)
                .iter()
                .map(|r| r.rule)
                .collect()
        };
        assert_eq!(rule_numbers("m1"), vec![0, 1]);
        assert_eq!(rule_numbers("m2"), vec![1, 2]);
    }

    // spec §8: labels then plaintext whatever the YAML order; plaintext sees the label.
    #[test]
    fn overriders_run_in_karmadas_fixed_order() {
        let overriders: Overriders = serde_json::from_value(json!({
            "plaintext": [{"path": "/metadata/labels/tier", "operator": "replace", "value": "plain"}],
            "labelsOverrider": [{"operator": "add", "value": {"tier": "label"}}],
        }))
        .unwrap();
        let mut object = json!({"metadata": {"name": "a"}});
        apply_overriders(&mut object, "ConfigMap", &overriders).unwrap();
        assert_eq!(object["metadata"]["labels"]["tier"], json!("plain"));
    }

    // karmada overridemanager.go ApplyOverridePolicies: applyNamespacedOverrides runs
    // getOverridersFromOverridePolicies on the object applyClusterOverrides changed, so an
    // OverridePolicy selects what the ClusterOverridePolicies left, not the template.
    #[test]
    fn override_policies_select_the_object_the_cluster_override_policies_left() {
        let by_label = json!([{"apiVersion": "apps/v1", "kind": "Deployment",
            "labelSelector": {"matchLabels": {"app": "nginx"}}}]);
        let policies = vec![
            policy("OverridePolicy", "op", "web", by_label, any_rule()),
            policy("ClusterOverridePolicy", "cop", "", json!([]), any_rule()),
        ];
        let index = OverrideIndex::new(&policies, &[]);
        let template = nginx();
        assert_eq!(index.namespaced_policies_for(template.selected()), vec![0]);
        assert_eq!(index.cluster_policies_for(template.selected()), vec![1]);
        let mut object = json!({"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "nginx", "namespace": "web", "labels": {"app": "nginx"}}});
        let relabelled = |object: &Value| ObjectIdentity::of(object);
        assert_eq!(
            index.namespaced_policies_for(relabelled(&object).selected()),
            vec![0]
        );
        object["metadata"]["labels"]["app"] = json!("web");
        assert!(
            index
                .namespaced_policies_for(relabelled(&object).selected())
                .is_empty()
        );
        // Without a namespace left, no OverridePolicy is even listed.
        object["metadata"]["labels"]["app"] = json!("nginx");
        object["metadata"]
            .as_object_mut()
            .unwrap()
            .remove("namespace");
        assert!(
            index
                .namespaced_policies_for(relabelled(&object).selected())
                .is_empty()
        );
    }

    #[test]
    fn only_rules_that_can_reach_selected_fields_may_change_selection() {
        let rules = json!([
            {"overriders": {"labelsOverrider": [{"operator": "remove", "value": {"app": ""}}]}},
            {"overriders": {"annotationsOverrider": [{"operator": "add", "value": {"a": "b"}}]}},
            {"overriders": {"plaintext": [{"path": "/spec/replicas", "operator": "replace", "value": 1}]}},
            {"overriders": {"plaintext": [{"path": "/metadata/name", "operator": "replace", "value": "x"}]}},
            {"overriders": {"plaintext": [{"path": "", "operator": "replace", "value": {}}]}},
            {"overriders": {"fieldOverrider": [{"fieldPath": "/metadata/labels/app", "json": [{"subPath": "/a", "operator": "remove"}]}]}},
            {"overriders": {"imageOverrider": [{"component": "Tag", "operator": "replace", "value": "v1"}]}},
            {"overriders": {"imageOverrider": [{"component": "Tag", "operator": "replace", "value": "v1",
                "predicate": {"path": "/metadata/labels/app/"}}]}},
        ]);
        let policies = vec![policy("ClusterOverridePolicy", "cop", "", json!([]), rules)];
        let index = OverrideIndex::new(&policies, &[]);
        let may: Vec<bool> = (0..8)
            .map(|rule| index.may_change_what_selectors_see(RuleRef { policy: 0, rule }))
            .collect();
        assert_eq!(may, vec![true, false, false, true, true, true, false, true]);
    }
}
