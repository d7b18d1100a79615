//! The two predicates every stage shares: does a resource selector match a template, and does a
//! cluster affinity match a cluster (karmada pkg/util/selector.go). Propagation and override
//! policies both select templates; the scheduler, static weights and override rules all match
//! clusters.

use std::collections::{BTreeMap, HashMap};

use super::cluster::Cluster;
use super::karmada::{ClusterAffinity, ResourceSelector};
use super::meta::{LabelSelector, NodeSelectorRequirement, SelectorOperator};
use serde_json::Value;

use crate::object::Template;

/// How specifically a selector matched, Karmada's `ImplicitPriority`: a name beats a label
/// selector, which beats a selector by apiVersion and kind alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ImplicitPriority {
    MisMatch = 0,
    MatchAll = 1,
    MatchLabelSelector = 2,
    MatchName = 3,
}

impl ImplicitPriority {
    pub fn describe(self) -> &'static str {
        match self {
            ImplicitPriority::MisMatch => "no match",
            ImplicitPriority::MatchAll => "apiVersion and kind",
            ImplicitPriority::MatchLabelSelector => "label selector",
            ImplicitPriority::MatchName => "name",
        }
    }
}

impl LabelSelector {
    /// Kubernetes label-selector semantics: every `matchLabels` pair and every expression must
    /// hold; `NotIn` and `DoesNotExist` hold for objects without the key; `{}` matches all.
    pub fn matches(&self, labels: &BTreeMap<String, String>) -> bool {
        !self.unconvertible
            && self
                .match_labels
                .iter()
                .all(|(key, value)| labels.get(key) == Some(value))
            && self.match_expressions.iter().all(|requirement| {
                requirement_holds(
                    &requirement.operator,
                    &requirement.values,
                    labels.get(&requirement.key).map(String::as_str),
                )
            })
    }
}

fn requirement_holds(operator: &SelectorOperator, values: &[String], actual: Option<&str>) -> bool {
    match operator {
        SelectorOperator::In => actual.is_some_and(|actual| values.iter().any(|v| v == actual)),
        SelectorOperator::NotIn => actual.is_none_or(|actual| values.iter().all(|v| v != actual)),
        SelectorOperator::Exists => actual.is_some(),
        SelectorOperator::DoesNotExist => actual.is_none(),
        // Go cannot build a selector with it, and a selector it cannot build matches nothing.
        SelectorOperator::Unknown(_) => false,
    }
}

/// What a resource selector looks at in an object: apiVersion, kind, namespace, name and labels
/// (karmada pkg/util/selector.go `ResourceSelectorPriority` reads nothing else).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Selected<'a> {
    pub api_version: &'a str,
    pub kind: &'a str,
    pub namespace: &'a str,
    pub name: &'a str,
    pub labels: &'a BTreeMap<String, String>,
}

impl Template {
    /// The template as resource selectors see it.
    pub fn selected(&self) -> Selected<'_> {
        Selected {
            api_version: &self.api_version,
            kind: self.kind(),
            namespace: self.namespace(),
            name: self.name(),
            labels: &self.labels,
        }
    }
}

/// The fields a resource selector reads, taken from an object being overridden, as Karmada's
/// `Unstructured` getters read them: a missing or non-string field is `""`, and labels are
/// `GetLabels` (a null value is `""`; a map holding anything else but strings reads as no
/// labels at all).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectIdentity {
    api_version: String,
    kind: String,
    namespace: String,
    name: String,
    labels: BTreeMap<String, String>,
}

impl ObjectIdentity {
    pub fn of(object: &Value) -> ObjectIdentity {
        let text = |pointer: &str| {
            crate::json_pointer::pointer(object, pointer)
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string()
        };
        let labels = match crate::json_pointer::pointer(object, "/metadata/labels") {
            Some(Value::Object(map)) => map
                .iter()
                .map(|(key, value)| match value {
                    Value::String(text) => Some((key.clone(), text.clone())),
                    Value::Null => Some((key.clone(), String::new())),
                    _ => None,
                })
                .collect::<Option<BTreeMap<_, _>>>()
                .unwrap_or_default(),
            _ => BTreeMap::new(),
        };
        ObjectIdentity {
            api_version: text("/apiVersion"),
            kind: text("/kind"),
            namespace: text("/metadata/namespace"),
            name: text("/metadata/name"),
            labels,
        }
    }

    pub fn selected(&self) -> Selected<'_> {
        Selected {
            api_version: &self.api_version,
            kind: &self.kind,
            namespace: &self.namespace,
            name: &self.name,
            labels: &self.labels,
        }
    }
}

impl ResourceSelector {
    /// karmada `ResourceMatches` + `ResourceSelectorPriority`: apiVersion and kind must be equal
    /// (exact strings), the namespace too when the selector names one; a name makes the
    /// label selector irrelevant.
    pub fn implicit_priority(&self, object: Selected<'_>) -> ImplicitPriority {
        if self.api_version != object.api_version || self.kind != object.kind {
            return ImplicitPriority::MisMatch;
        }
        if !self.namespace.is_empty() && self.namespace != object.namespace {
            return ImplicitPriority::MisMatch;
        }
        if !self.name.is_empty() {
            return if self.name == object.name {
                ImplicitPriority::MatchName
            } else {
                ImplicitPriority::MisMatch
            };
        }
        match &self.label_selector {
            None => ImplicitPriority::MatchAll,
            Some(selector) if selector.matches(object.labels) => {
                ImplicitPriority::MatchLabelSelector
            }
            Some(_) => ImplicitPriority::MisMatch,
        }
    }
}

/// Policies (by position) under each (apiVersion, kind) their resource selectors name, each
/// once and in order: a policy can only select templates of those types, so a template need
/// be compared with no other.
pub fn index_by_type<'a>(
    policies: impl IntoIterator<Item = &'a [ResourceSelector]>,
) -> HashMap<(&'a str, &'a str), Vec<usize>> {
    let mut by_type: HashMap<(&str, &str), Vec<usize>> = HashMap::new();
    for (index, selectors) in policies.into_iter().enumerate() {
        for selector in selectors {
            let entry = by_type
                .entry((selector.api_version.as_str(), selector.kind.as_str()))
                .or_default();
            if entry.last() != Some(&index) {
                entry.push(index);
            }
        }
    }
    by_type
}

/// karmada `ResourceMatchSelectorsPriority`: the best priority over a list of selectors.
pub fn selectors_priority(
    selectors: &[ResourceSelector],
    object: Selected<'_>,
) -> ImplicitPriority {
    selectors
        .iter()
        .map(|selector| selector.implicit_priority(object))
        .max()
        .unwrap_or(ImplicitPriority::MisMatch)
}

impl ClusterAffinity {
    /// karmada `ClusterMatches`: exclusion first, then label selector, field selector and
    /// cluster names, all of which must hold.
    pub fn matches(&self, cluster: &Cluster) -> bool {
        if self.exclude.iter().any(|name| name == cluster.name()) {
            return false;
        }
        if let Some(selector) = &self.label_selector
            && !selector.matches(&cluster.metadata.labels)
        {
            return false;
        }
        if let Some(fields) = &self.field_selector
            && !fields
                .match_expressions
                .iter()
                .all(|requirement| field_requirement_holds(requirement, cluster))
        {
            return false;
        }
        self.cluster_names.is_empty() || self.cluster_names.iter().any(|n| n == cluster.name())
    }

    /// Every cluster name this affinity mentions, for "not in the inventory" warnings.
    pub fn named_clusters(&self) -> impl Iterator<Item = &str> {
        self.cluster_names
            .iter()
            .chain(&self.exclude)
            .map(String::as_str)
    }
}

/// `zone` is matched against the list `spec.zones` (any overlap); `provider` and `region`
/// are matched like labels over the cluster's non-empty fields (karmada `matchZones`,
/// `extractClusterFields`).
fn field_requirement_holds(requirement: &NodeSelectorRequirement, cluster: &Cluster) -> bool {
    let values = &requirement.values;
    if requirement.key == "zone" {
        let zones = cluster.zones();
        let listed = zones.iter().any(|zone| values.iter().any(|v| v == zone));
        return match requirement.operator {
            SelectorOperator::In => listed,
            SelectorOperator::NotIn => !listed,
            SelectorOperator::Exists => !zones.is_empty(),
            SelectorOperator::DoesNotExist => zones.is_empty(),
            SelectorOperator::Unknown(_) => false,
        };
    }
    let field = match requirement.key.as_str() {
        "provider" => cluster.spec.provider.as_str(),
        "region" => cluster.spec.region.as_str(),
        _ => "",
    };
    let actual = (!field.is_empty()).then_some(field);
    requirement_holds(&requirement.operator, values, actual)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn template(
        api_version: &str,
        kind: &str,
        namespace: &str,
        name: &str,
        labels: &[(&str, &str)],
    ) -> Template {
        Template::for_test(api_version, kind, namespace, name, json!({})).with_labels(labels)
    }

    fn selector(yaml: serde_json::Value) -> ResourceSelector {
        serde_json::from_value(yaml).unwrap()
    }

    fn cluster(yaml: serde_json::Value) -> Cluster {
        let mut value = json!({"apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster"});
        value
            .as_object_mut()
            .unwrap()
            .extend(yaml.as_object().unwrap().clone());
        serde_json::from_value(value).unwrap()
    }

    fn affinity(yaml: serde_json::Value) -> ClusterAffinity {
        serde_json::from_value(yaml).unwrap()
    }

    // karmada pkg/util/selector_test.go TestResourceSelectorPriority / TestResourceMatches.
    #[test]
    fn resource_selector_priorities_follow_karmada() {
        let nginx = template(
            "apps/v1",
            "Deployment",
            "default",
            "nginx",
            &[("app", "nginx")],
        );
        let by_kind = selector(json!({"apiVersion": "apps/v1", "kind": "Deployment"}));
        assert_eq!(
            by_kind.implicit_priority(nginx.selected()),
            ImplicitPriority::MatchAll
        );
        let by_label = selector(json!({"apiVersion": "apps/v1", "kind": "Deployment",
            "labelSelector": {"matchLabels": {"app": "nginx"}}}));
        assert_eq!(
            by_label.implicit_priority(nginx.selected()),
            ImplicitPriority::MatchLabelSelector
        );
        let empty_selector =
            selector(json!({"apiVersion": "apps/v1", "kind": "Deployment", "labelSelector": {}}));
        assert_eq!(
            empty_selector.implicit_priority(nginx.selected()),
            ImplicitPriority::MatchLabelSelector
        );
        let by_name =
            selector(json!({"apiVersion": "apps/v1", "kind": "Deployment", "name": "nginx"}));
        assert_eq!(
            by_name.implicit_priority(nginx.selected()),
            ImplicitPriority::MatchName
        );
    }

    #[test]
    fn a_name_makes_the_label_selector_irrelevant() {
        let nginx = template(
            "apps/v1",
            "Deployment",
            "default",
            "nginx",
            &[("app", "nginx")],
        );
        let name_and_wrong_labels = selector(json!({"apiVersion": "apps/v1", "kind": "Deployment",
            "name": "nginx", "labelSelector": {"matchLabels": {"app": "other"}}}));
        assert_eq!(
            name_and_wrong_labels.implicit_priority(nginx.selected()),
            ImplicitPriority::MatchName
        );
        let wrong_name_right_labels =
            selector(json!({"apiVersion": "apps/v1", "kind": "Deployment",
            "name": "other", "labelSelector": {"matchLabels": {"app": "nginx"}}}));
        assert_eq!(
            wrong_name_right_labels.implicit_priority(nginx.selected()),
            ImplicitPriority::MisMatch
        );
    }

    #[test]
    fn api_version_kind_and_namespace_are_compared_exactly() {
        let nginx = template("apps/v1", "Deployment", "prod", "nginx", &[]);
        for (api_version, kind, namespace) in [
            ("apps/v1beta1", "Deployment", ""),
            ("apps/v1", "deployment", ""),
            ("apps/v1", "Deployment", "dev"),
        ] {
            let s =
                selector(json!({"apiVersion": api_version, "kind": kind, "namespace": namespace}));
            assert_eq!(
                s.implicit_priority(nginx.selected()),
                ImplicitPriority::MisMatch,
                "{s:?}"
            );
        }
        let core = template("v1", "ConfigMap", "prod", "c", &[]);
        let core_v1 = selector(json!({"apiVersion": "core/v1", "kind": "ConfigMap"}));
        assert_eq!(
            core_v1.implicit_priority(core.selected()),
            ImplicitPriority::MisMatch
        );
    }

    #[test]
    fn selector_lists_take_the_best_priority() {
        let nginx = template("apps/v1", "Deployment", "default", "nginx", &[]);
        let selectors = vec![
            selector(json!({"apiVersion": "apps/v1", "kind": "Deployment"})),
            selector(json!({"apiVersion": "apps/v1", "kind": "Deployment", "name": "nginx"})),
            selector(json!({"apiVersion": "v1", "kind": "Service"})),
        ];
        assert_eq!(
            selectors_priority(&selectors, nginx.selected()),
            ImplicitPriority::MatchName
        );
        assert_eq!(
            selectors_priority(&[], nginx.selected()),
            ImplicitPriority::MisMatch
        );
    }

    #[test]
    fn label_selector_expressions_follow_kubernetes() {
        let labels: BTreeMap<String, String> = [("env", "prod"), ("tier", "web")]
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let check = |expression: serde_json::Value| {
            let selector: LabelSelector =
                serde_json::from_value(json!({"matchExpressions": [expression]})).unwrap();
            selector.matches(&labels)
        };
        assert!(check(
            json!({"key": "env", "operator": "In", "values": ["prod", "dev"]})
        ));
        assert!(!check(
            json!({"key": "env", "operator": "In", "values": ["dev"]})
        ));
        assert!(!check(
            json!({"key": "env", "operator": "NotIn", "values": ["prod"]})
        ));
        assert!(check(
            json!({"key": "missing", "operator": "NotIn", "values": ["x"]})
        ));
        assert!(check(json!({"key": "tier", "operator": "Exists"})));
        assert!(check(json!({"key": "missing", "operator": "DoesNotExist"})));
        assert!(!check(json!({"key": "tier", "operator": "DoesNotExist"})));
    }

    // karmada pkg/util/selector_test.go TestClusterMatches.
    #[test]
    fn exclude_beats_cluster_names_and_labels() {
        let member1 = cluster(json!({"metadata": {"name": "member1", "labels": {"env": "prod"}}}));
        let a = affinity(json!({"clusterNames": ["member1"], "exclude": ["member1"]}));
        assert!(!a.matches(&member1));
        let a = affinity(
            json!({"labelSelector": {"matchLabels": {"env": "prod"}}, "clusterNames": ["member1"]}),
        );
        assert!(a.matches(&member1));
        let a = affinity(
            json!({"labelSelector": {"matchLabels": {"env": "dev"}}, "clusterNames": ["member1"]}),
        );
        assert!(!a.matches(&member1));
        assert!(affinity(json!({})).matches(&member1));
    }

    // karmada pkg/util/selector_test.go Test_matchZones and Test_extractClusterFields.
    #[test]
    fn field_selectors_match_provider_region_and_zones() {
        let aws = cluster(json!({"metadata": {"name": "m1"},
            "spec": {"provider": "aws", "region": "eu-west-1", "zones": ["eu-west-1a", "eu-west-1b"]}}));
        let bare = cluster(json!({"metadata": {"name": "m2"}}));
        let field = |key: &str, operator: &str, values: &[&str]| {
            affinity(json!({"fieldSelector": {"matchExpressions": [
                {"key": key, "operator": operator, "values": values}]}}))
        };
        assert!(field("provider", "In", &["aws", "gcp"]).matches(&aws));
        assert!(!field("provider", "In", &["aws"]).matches(&bare));
        assert!(field("provider", "NotIn", &["aws"]).matches(&bare));
        assert!(field("region", "NotIn", &["us-east-1"]).matches(&aws));
        assert!(field("zone", "In", &["eu-west-1b", "x"]).matches(&aws));
        assert!(!field("zone", "In", &["x"]).matches(&aws));
        assert!(!field("zone", "In", &["x"]).matches(&bare));
        assert!(field("zone", "NotIn", &["x"]).matches(&bare));
        assert!(!field("zone", "NotIn", &["eu-west-1a"]).matches(&aws));
    }

    #[test]
    fn the_deprecated_singular_zone_counts_as_zones() {
        let old = cluster(json!({"metadata": {"name": "m"}, "spec": {"zone": "z1"}}));
        let a = affinity(json!({"fieldSelector": {"matchExpressions": [
            {"key": "zone", "operator": "In", "values": ["z1"]}]}}));
        assert!(a.matches(&old));
    }

    // apimachinery unstructured.go GetAPIVersion/GetKind/GetNamespace/GetName (a non-string is
    // "") and GetLabels (NestedNullCoercingStringMap: null is "", anything else fails and
    // reads as no labels), as karmada selector.go ResourceSelectorPriority calls them.
    #[test]
    fn an_overridden_object_is_read_as_karmadas_unstructured_getters_read_it() {
        let identity = ObjectIdentity::of(&json!({"apiVersion": "apps/v1", "kind": 3,
            "metadata": {"name": "web", "namespace": "prod", "labels": {"app": "web", "canary": null}}}));
        let selected = identity.selected();
        assert_eq!(
            (
                selected.api_version,
                selected.kind,
                selected.namespace,
                selected.name
            ),
            ("apps/v1", "", "prod", "web")
        );
        assert_eq!(selected.labels.get("canary").map(String::as_str), Some(""));
        let odd = ObjectIdentity::of(&json!({"metadata": {"labels": {"app": "web", "n": 1}}}));
        assert!(odd.selected().labels.is_empty());
    }
}
