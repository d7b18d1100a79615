//! Overrides: per-cluster changes from OverridePolicies and ClusterOverridePolicies, applied in
//! Karmada's order (karmada pkg/util/overridemanager/overridemanager.go). All
//! ClusterOverridePolicies come first, then the OverridePolicies of the template's namespace;
//! within each pass the least specific policy first (so the most specific has the last word),
//! then by name; within a policy its rules in order; within a rule the overriders in a fixed
//! order whatever the YAML says: image, command, args, labels, annotations, field, plaintext.

pub mod command_args;
pub mod field;
pub mod go_yaml;
pub mod image;
pub mod labels_annotations;
pub mod patch;
pub mod plaintext;

use std::collections::HashMap;

use serde_json::Value;

use crate::api::cluster::Cluster;
use crate::api::karmada::Overriders;
use crate::api::selector::{ImplicitPriority, index_by_type, selectors_priority};
use crate::object::Template;
use crate::policy::{Override, PolicyScope};
use command_args::ContainerList;
use labels_annotations::MetadataMap;

/// One override rule: the policy (an index into the fleet's override policies) and the rule's
/// position in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RuleRef {
    pub policy: usize,
    pub rule: usize,
}

/// The fleet's override policies, indexed once: by the (apiVersion, kind) their selectors name
/// (a policy without selectors selects every template), and every rule with the clusters its
/// target matches. A template is compared only with the policies that could select it, and no
/// rule is matched against a cluster more than once.
#[derive(Debug)]
pub struct OverrideIndex<'a> {
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

    /// The override policies that select a template, in the order Karmada applies them.
    pub fn policies_for(&self, template: &Template) -> Vec<usize> {
        let typed = self
            .by_type
            .get(&(template.api_version.as_str(), template.kind()))
            .map_or(&[][..], Vec::as_slice);
        let mut candidates: Vec<usize> = typed
            .iter()
            .chain(&self.selecting_everything)
            .copied()
            .collect();
        // Policy order, as if every policy had been compared.
        candidates.sort_unstable();
        let matching = |cluster_wide: bool| {
            let mut matched: Vec<(ImplicitPriority, &str, usize)> = candidates
                .iter()
                .map(|&index| (index, &self.overrides[index]))
                .filter(|(_, policy)| match &policy.id.scope {
                    PolicyScope::Cluster => cluster_wide,
                    PolicyScope::Namespace(namespace) => {
                        !cluster_wide
                            && template.is_namespaced()
                            && namespace == template.namespace()
                    }
                })
                .filter_map(|(index, policy)| {
                    let priority = if policy.resource_selectors.is_empty() {
                        ImplicitPriority::MatchAll
                    } else {
                        selectors_priority(&policy.resource_selectors, template)
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
            matched.into_iter().map(|(_, _, index)| index)
        };
        matching(true).chain(matching(false)).collect()
    }

    /// The rules of those policies that apply to one cluster (a position in the inventory), in
    /// application order.
    pub fn rules_for_cluster(&self, policies: &[usize], cluster: usize) -> Vec<RuleRef> {
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
pub struct OverriderError {
    pub overrider: String,
    pub message: String,
}

/// Applies one rule's overriders to an object in Karmada's fixed order; each entry sees the
/// result of the ones before it.
pub fn apply_overriders(
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
    use crate::diagnostics::Origin;

    use crate::policy::admit_override;
    use crate::source::classify::Located;
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
}
