//! Which member clusters a command writes or shows: `--cluster NAME|GLOB` (repeatable) and
//! `--cluster-selector` (a Kubernetes label selector over the inventory's labels). The whole
//! fleet is always scheduled, since a cluster's replicas depend on every other cluster; only
//! the emitted trees are filtered, so a cluster's tree is byte for byte the same whether it was
//! built alone or with the fleet, and CI can shard a fleet across a matrix.

use crate::api::cluster::Cluster;
use crate::api::meta::{LabelSelector, LabelSelectorRequirement, SelectorOperator};

/// The `--cluster` and `--cluster-selector` flags, validated.
#[derive(Debug, Clone, Default)]
pub struct ClusterFilter {
    /// Names and globs; a cluster matching any is kept. Empty: every cluster.
    pub names: Vec<glob::Pattern>,
    /// The selector as written, and parsed; a cluster must match it too.
    pub selector: Option<(String, LabelSelector)>,
}

impl ClusterFilter {
    /// Whether every cluster is kept (no `--cluster`, no `--cluster-selector`).
    pub fn is_everything(&self) -> bool {
        self.names.is_empty() && self.selector.is_none()
    }

    /// A filter from the flags' values; the error names the flag.
    pub fn new(names: &[String], selector: Option<&str>) -> Result<ClusterFilter, String> {
        let names = names
            .iter()
            .map(|name| {
                glob::Pattern::new(name).map_err(|error| format!("--cluster {name:?}: {error}"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let selector = selector
            .map(|text| {
                parse_label_selector(text)
                    .map(|parsed| (text.to_string(), parsed))
                    .map_err(|error| format!("--cluster-selector {text:?}: {error}"))
            })
            .transpose()?;
        Ok(ClusterFilter { names, selector })
    }

    /// For each cluster of the inventory (sorted by name), whether it is kept. A `--cluster`
    /// value or a selector that keeps no cluster is an error, with the nearest name: a typo
    /// must not build nothing and pass.
    pub fn select(&self, clusters: &[Cluster]) -> Result<Vec<bool>, Vec<String>> {
        let mut problems = Vec::new();
        for pattern in &self.names {
            if !clusters
                .iter()
                .any(|cluster| pattern.matches(cluster.name()))
            {
                let hint = match crate::edit_distance::nearest_name(
                    pattern.as_str(),
                    clusters.iter().map(Cluster::name),
                ) {
                    Some(near) => crate::edit_distance::did_you_mean(Some(near)),
                    // A file meant for --clusters: cluster names are not paths.
                    None if looks_like_a_file(pattern.as_str()) => format!(
                        "; {} looks like a file: --clusters FILE names the inventory, --cluster \
                         NAME one of its clusters",
                        pattern.as_str()
                    ),
                    None => known_clusters(clusters),
                };
                problems.push(format!(
                    "--cluster {}: the inventory has no such cluster{hint}",
                    pattern.as_str()
                ));
            }
        }
        let kept: Vec<bool> = clusters
            .iter()
            .map(|cluster| {
                (self.names.is_empty()
                    || self
                        .names
                        .iter()
                        .any(|pattern| pattern.matches(cluster.name())))
                    && self
                        .selector
                        .as_ref()
                        .is_none_or(|(_, selector)| selector.matches(&cluster.metadata.labels))
            })
            .collect();
        if problems.is_empty()
            && let Some((text, _)) = &self.selector
            && !kept.contains(&true)
        {
            problems.push(format!(
                "--cluster-selector {text}: selects no cluster{}",
                if self.names.is_empty() {
                    " of the inventory"
                } else {
                    " that --cluster names"
                }
            ));
        }
        if problems.is_empty() {
            Ok(kept)
        } else {
            Err(problems)
        }
    }
}

/// A label selector in Kubernetes' text form (`kubectl get -l`, k8s.io/apimachinery
/// pkg/labels/selector.go `Parse`): requirements separated by commas, each `key`, `!key`,
/// `key=value`, `key==value`, `key!=value`, `key in (a,b)` or `key notin (a,b)`.
pub(crate) fn parse_label_selector(text: &str) -> Result<LabelSelector, String> {
    let mut selector = LabelSelector::default();
    // Kubernetes reads an empty selector as one that selects everything.
    if text.trim().is_empty() {
        return Ok(selector);
    }
    for requirement in split_requirements(text)? {
        let requirement = requirement.trim();
        if requirement.is_empty() {
            return Err("an empty requirement (two commas, or a comma at an end)".into());
        }
        let (key, operator, values) = parse_requirement(requirement)?;
        check_key(key)?;
        for value in &values {
            check_value(value)?;
        }
        selector.match_expressions.push(LabelSelectorRequirement {
            key: key.to_string(),
            operator,
            values,
        });
    }
    Ok(selector)
}

/// Splits on the commas outside parentheses.
fn split_requirements(text: &str) -> Result<Vec<&str>, String> {
    let mut parts = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    for (index, character) in text.char_indices() {
        match character {
            '(' => depth += 1,
            ')' => {
                depth = depth
                    .checked_sub(1)
                    .ok_or_else(|| "a ')' without its '('".to_string())?;
            }
            ',' if depth == 0 => {
                parts.push(&text[start..index]);
                start = index + 1;
            }
            _ => {}
        }
    }
    if depth != 0 {
        return Err("a '(' without its ')'".into());
    }
    parts.push(&text[start..]);
    Ok(parts)
}

fn parse_requirement(requirement: &str) -> Result<(&str, SelectorOperator, Vec<String>), String> {
    if let Some(key) = requirement.strip_prefix('!') {
        return Ok((key.trim(), SelectorOperator::DoesNotExist, Vec::new()));
    }
    for (operator, kind) in [
        ("!=", SelectorOperator::NotIn),
        ("==", SelectorOperator::In),
        ("=", SelectorOperator::In),
    ] {
        if let Some((key, value)) = requirement.split_once(operator) {
            return Ok((key.trim(), kind, vec![value.trim().to_string()]));
        }
    }
    if requirement.contains(['<', '>']) {
        return Err(format!(
            "{requirement:?}: cluster labels are compared with =, !=, in and notin"
        ));
    }
    let mut words = requirement.splitn(2, char::is_whitespace);
    let key = words.next().unwrap_or_default();
    let Some(rest) = words.next().map(str::trim) else {
        return Ok((key, SelectorOperator::Exists, Vec::new()));
    };
    let (kind, set) = if let Some(set) = rest.strip_prefix("notin") {
        (SelectorOperator::NotIn, set)
    } else if let Some(set) = rest.strip_prefix("in") {
        (SelectorOperator::In, set)
    } else {
        return Err(format!(
            "{requirement:?}: expected =, ==, !=, in (…) or notin (…) after {key:?}"
        ));
    };
    let set = set.trim();
    let inner = set
        .strip_prefix('(')
        .and_then(|set| set.strip_suffix(')'))
        .ok_or_else(|| format!("{requirement:?}: the values of in and notin go in parentheses"))?;
    let values: Vec<String> = inner
        .split(',')
        .map(|value| value.trim().to_string())
        .collect();
    Ok((key, kind, values))
}

fn check_key(key: &str) -> Result<(), String> {
    match crate::names::qualified_name_problem(key) {
        Some(problem) => Err(format!("{key:?} is not a valid label key: {problem}")),
        None => Ok(()),
    }
}

fn check_value(value: &str) -> Result<(), String> {
    match crate::names::label_value_problem(value) {
        Some(problem) => Err(format!("{value:?} is not a valid label value: {problem}")),
        None => Ok(()),
    }
}

/// The clusters kept, as a map from each inventory position to its position among the kept.
pub(crate) fn positions(kept: &[bool]) -> Vec<Option<usize>> {
    let mut next = 0;
    kept.iter()
        .map(|&keep| {
            keep.then(|| {
                next += 1;
                next - 1
            })
        })
        .collect()
}

/// Whether a `--cluster` value that names no cluster is a path: a separator, or a YAML or JSON
/// file's extension.
fn looks_like_a_file(value: &str) -> bool {
    value.contains('/')
        || [".yaml", ".yml", ".json"]
            .iter()
            .any(|extension| value.ends_with(extension))
}

/// `; the inventory has a-1, a-2 and 3 more`: what a name of a series of clusters (`prod-eu-3`
/// when there are `prod-eu-1` and `prod-eu-2`) could have meant, since no single name is near.
fn known_clusters(clusters: &[Cluster]) -> String {
    const SHOWN: usize = 8;
    let names: Vec<&str> = clusters.iter().map(Cluster::name).take(SHOWN).collect();
    match (names.len(), clusters.len().saturating_sub(SHOWN)) {
        (0, _) => "; the inventory has no cluster".to_string(),
        (_, 0) => format!("; the inventory has {}", names.join(", ")),
        (_, more) => format!("; the inventory has {} and {more} more", names.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(key, value)| (key.to_string(), value.to_string()))
            .collect()
    }

    // k8s.io/apimachinery pkg/labels/selector_test.go TestSelectorMatches: the same operators
    // against the same kinds of label sets.
    #[test]
    fn selectors_in_kubectls_syntax_match_as_kubernetes_matches_them() {
        let eu_prod = labels(&[("region", "eu"), ("tier", "prod")]);
        let us = labels(&[("region", "us")]);
        for (text, expect_eu_prod, expect_us) in [
            ("region=eu", true, false),
            ("region==eu", true, false),
            ("region!=eu", false, true),
            ("tier", true, false),
            ("!tier", false, true),
            ("region in (eu, us)", true, true),
            ("region notin (us)", true, false),
            ("tier notin (prod)", false, true),
            ("region=eu,tier=prod", true, false),
            ("region in (eu,us),!tier", false, true),
            ("", true, true),
        ] {
            let selector =
                parse_label_selector(text).unwrap_or_else(|error| panic!("{text}: {error}"));
            assert_eq!(selector.matches(&eu_prod), expect_eu_prod, "{text}");
            assert_eq!(selector.matches(&us), expect_us, "{text}");
        }
    }

    #[test]
    fn malformed_selectors_say_what_is_wrong() {
        for (text, message) in [
            ("region in (eu", "a '(' without its ')'"),
            ("region in eu", "go in parentheses"),
            ("region,,tier", "an empty requirement"),
            ("region>3", "compared with =, !=, in and notin"),
            ("region is eu", "expected =, ==, !="),
            ("-bad=x", "not a valid label key"),
            ("region=eu!", "not a valid label value"),
        ] {
            let error = parse_label_selector(text).unwrap_err();
            assert!(error.contains(message), "{text}: {error}");
        }
    }

    fn inventory() -> Vec<Cluster> {
        [("eu-1", "eu"), ("eu-2", "eu"), ("us-1", "us")]
            .iter()
            .map(|(name, region)| {
                serde_json::from_value(serde_json::json!({
                    "apiVersion": "cluster.karmada.io/v1alpha1",
                    "kind": "Cluster",
                    "metadata": {"name": name, "labels": {"region": region}},
                }))
                .unwrap()
            })
            .collect()
    }

    #[test]
    fn names_globs_and_a_selector_must_all_hold_and_each_must_keep_a_cluster() {
        let clusters = inventory();
        let keep = |names: &[&str], selector: Option<&str>| {
            let names: Vec<String> = names.iter().map(|name| name.to_string()).collect();
            ClusterFilter::new(&names, selector)
                .unwrap()
                .select(&clusters)
        };
        assert_eq!(keep(&["eu-*", "us-1"], None), Ok(vec![true, true, true]));
        assert_eq!(
            keep(&["*-1"], Some("region=eu")),
            Ok(vec![true, false, false])
        );
        assert_eq!(keep(&[], Some("region!=eu")), Ok(vec![false, false, true]));
        assert_eq!(
            keep(&["eu1"], None),
            Err(vec![
                "--cluster eu1: the inventory has no such cluster; did you mean eu-1?".to_string()
            ])
        );
        assert_eq!(
            keep(&["us-2"], None),
            Err(vec![
                "--cluster us-2: the inventory has no such cluster; the inventory has eu-1, eu-2, \
                 us-1"
                    .to_string()
            ])
        );
        assert_eq!(
            keep(&["clusters.yaml"], None),
            Err(vec![
                "--cluster clusters.yaml: the inventory has no such cluster; clusters.yaml looks \
                 like a file: --clusters FILE names the inventory, --cluster NAME one of its \
                 clusters"
                    .to_string()
            ])
        );
        assert_eq!(
            keep(&["us-*"], Some("region=eu")),
            Err(vec![
                "--cluster-selector region=eu: selects no cluster that --cluster names".to_string()
            ])
        );
        assert!(ClusterFilter::new(&["[".to_string()], None).is_err());
    }

    #[test]
    fn positions_number_the_kept_clusters_in_order() {
        assert_eq!(
            positions(&[true, false, true, true]),
            vec![Some(0), None, Some(1), Some(2)]
        );
    }
}
