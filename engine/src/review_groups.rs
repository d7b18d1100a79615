//! The groups of clusters a team routes approvals by (`spec.review` of the Config): an
//! environment, a region, a ring, each a label selector over the inventory's labels read as a
//! cluster affinity's `labelSelector` is, with the GitHub users and teams that approve a change
//! touching it. `diff` names the groups a change touches and their owners
//! (`diff::touched`); a group that selects no cluster is `review-group-empty`.

use std::collections::{BTreeMap, BTreeSet};

use crate::api::cluster::Cluster;
use crate::api::config::ReviewConfig;
use crate::api::karmada::ClusterAffinity;
use crate::diagnostics::{Diagnostic, ErrorSink, Located, Origin};
use crate::lint::Lint;

/// `spec.review`, admitted: every selector converts, every owner is a mention, every `owners`
/// key names a group.
#[derive(Debug, Clone, PartialEq)]
pub struct ReviewGroups {
    /// Where `spec.review` is written (`fleet/fedrender.yaml:12`).
    pub origin: Origin,
    /// In the order the Config writes them.
    pub groups: Vec<ReviewGroup>,
}

/// One group, with its owners.
#[derive(Debug, Clone, PartialEq)]
pub struct ReviewGroup {
    /// Its name.
    pub name: String,
    /// Its `clusterSelector` as the cluster affinity it is read as (a label selector alone).
    affinity: ClusterAffinity,
    /// `owners` of it, as written (`@org/sre`), deduplicated and sorted.
    pub owners: Vec<String>,
    /// Where the group is written.
    origin: Origin,
}

impl ReviewGroup {
    /// Whether `cluster` is in the group: its labels match the selector, as Karmada matches a
    /// cluster affinity's `labelSelector` (`ClusterAffinity::matches`).
    pub fn holds(&self, cluster: &Cluster) -> bool {
        self.affinity.matches(cluster)
    }
}

impl ReviewGroups {
    /// Whether two Configs say the same of a review, wherever each is written.
    pub fn same_as(&self, other: &ReviewGroups) -> bool {
        let content = |groups: &ReviewGroups| -> Vec<(String, ClusterAffinity, Vec<String>)> {
            (groups.groups.iter())
                .map(|group| {
                    let ReviewGroup {
                        name,
                        affinity,
                        owners,
                        origin: _,
                    } = group;
                    (name.clone(), affinity.clone(), owners.clone())
                })
                .collect()
        };
        content(self) == content(other)
    }
}

/// `spec.review` checked: a group name that is not a word or is written twice, a selector
/// `metav1.LabelSelectorAsSelector` refuses (an unknown operator, `In` without values), an owner
/// that is not a GitHub mention, and an `owners` key that names no group are errors at their
/// lines. `None` when one is found.
pub fn admit(config: &Located<ReviewConfig>, errors: &mut ErrorSink) -> Option<ReviewGroups> {
    let at = |field: &str| config.fields.origin(&config.origin, field);
    let mut wrong = false;
    let mut refuse = |field: String, problem: String| {
        wrong = true;
        errors.push(Diagnostic::error(
            Some(at(&field)),
            format!("Config: {field}: {problem}"),
        ));
    };
    let mut first_at: BTreeMap<&str, usize> = BTreeMap::new();
    for (index, group) in config.item.groups.iter().enumerate() {
        let field = format!("spec.review.groups[{index}]");
        if let Some(problem) = name_problem(&group.name) {
            refuse(
                format!("{field}.name"),
                format!("group name {:?} {problem}", group.name),
            );
        }
        if let Some(first) = first_at.insert(&group.name, index) {
            first_at.insert(&group.name, first);
            refuse(
                format!("{field}.name"),
                format!(
                    "group {} is also spec.review.groups[{first}]: name each group once",
                    group.name
                ),
            );
        }
        for (path, problem) in group.cluster_selector.conversion_problems() {
            refuse(format!("{field}.clusterSelector.{path}"), problem);
        }
    }
    let names: Vec<&str> = config.item.groups.iter().map(|g| g.name.as_str()).collect();
    for (group, owners) in &config.item.owners {
        let field = format!("spec.review.owners.{group}");
        if !names.contains(&group.as_str()) {
            let near = crate::edit_distance::nearest(group, names.iter().copied());
            refuse(
                field.clone(),
                format!(
                    "{group:?} names no group of spec.review.groups{}",
                    crate::edit_distance::hint(near, crate::edit_distance::Hint::InParentheses)
                ),
            );
        }
        for (index, owner) in owners.iter().enumerate() {
            if !is_mention(owner) {
                refuse(
                    format!("{field}[{index}]"),
                    format!(
                        "owner {owner:?} is not a GitHub user or team as a mention writes it: \
                         @user or @org/team"
                    ),
                );
            }
        }
    }
    if wrong {
        return None;
    }
    let groups = (config.item.groups.iter().enumerate())
        .map(|(index, group)| {
            let owners: BTreeSet<String> = (config.item.owners.get(&group.name).into_iter())
                .flatten()
                .cloned()
                .collect();
            ReviewGroup {
                name: group.name.clone(),
                affinity: ClusterAffinity {
                    label_selector: Some(group.cluster_selector.clone()),
                    ..ClusterAffinity::default()
                },
                owners: owners.into_iter().collect(),
                origin: at(&format!("spec.review.groups[{index}]")),
            }
        })
        .collect();
    Some(ReviewGroups {
        origin: at("spec.review"),
        groups,
    })
}

/// `review-group-empty` for each group no cluster of `clusters` is in: no change would ever
/// name it, nor ping its owners (a label misspelt, a cluster relabelled).
pub fn empty_groups(groups: &ReviewGroups, clusters: &[Cluster]) -> Vec<Diagnostic> {
    (groups.groups.iter())
        .filter(|group| !clusters.iter().any(|cluster| group.holds(cluster)))
        .map(|group| {
            Diagnostic::warning(
                Lint::ReviewGroupEmpty,
                Some(group.origin.clone()),
                format!(
                    "review group {} selects no cluster of the inventory: no change will name \
                     it{}",
                    group.name,
                    if group.owners.is_empty() {
                        String::new()
                    } else {
                        format!(" or ask {} to approve", group.owners.join(", "))
                    }
                ),
            )
        })
        .collect()
}

/// What is wrong with a group's name: it is a word reports, labels and `owners` keys can carry
/// (as a label value: 1 to 63 letters, digits, `-`, `_` and `.`, a letter or digit at each end).
fn name_problem(name: &str) -> Option<&'static str> {
    let edge = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
    let valid = (1..=63).contains(&name.len())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        && edge(name.chars().next())
        && edge(name.chars().next_back());
    (!valid).then_some(
        "must be 1 to 63 letters, digits, '-', '_' and '.', starting and ending with a letter or \
         digit",
    )
}

/// Whether `owner` is a GitHub mention: `@login` (letters, digits and single hyphens, at most
/// 39, no hyphen at either end) or `@org/team` (a team's slug: letters, digits, `-`, `_`).
/// Nothing else may reach a comment unescaped.
pub fn is_mention(owner: &str) -> bool {
    let Some(name) = owner.strip_prefix('@') else {
        return false;
    };
    let (login, team) = match name.split_once('/') {
        Some((login, team)) => (login, Some(team)),
        None => (name, None),
    };
    let login_ok = (1..=39).contains(&login.len())
        && login.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        && !login.starts_with('-')
        && !login.ends_with('-')
        && !login.contains("--");
    let team_ok = team.is_none_or(|team| {
        (1..=100).contains(&team.len())
            && team
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            && team.starts_with(|c: char| c.is_ascii_alphanumeric())
    });
    login_ok && team_ok
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::config::ReviewGroup as Written;
    use crate::diagnostics::FieldLines;

    fn cluster(name: &str, labels: &[(&str, &str)]) -> Cluster {
        serde_json::from_value(serde_json::json!({
            "apiVersion": "cluster.karmada.io/v1alpha1",
            "kind": "Cluster",
            "metadata": {"name": name, "labels": labels.iter().copied().collect::<BTreeMap<_, _>>()},
            "spec": {},
        }))
        .unwrap()
    }

    fn config(groups: serde_json::Value, owners: serde_json::Value) -> Located<ReviewConfig> {
        let groups: Vec<Written> = serde_json::from_value(groups).unwrap();
        let owners = serde_json::from_value(owners).unwrap();
        Located {
            origin: Origin::new("fleet/fedrender.yaml", 0, 1),
            item: ReviewConfig { groups, owners },
            fields: FieldLines::default(),
        }
    }

    fn admitted(
        groups: serde_json::Value,
        owners: serde_json::Value,
    ) -> Result<ReviewGroups, Vec<String>> {
        let mut errors = ErrorSink::default();
        let admitted = admit(&config(groups, owners), &mut errors);
        match errors.finish() {
            Ok(()) => Ok(admitted.expect("admitted without errors")),
            Err(rejected) => Err(rejected
                .errors
                .iter()
                .map(|diagnostic| diagnostic.message.clone())
                .collect()),
        }
    }

    // A selector is read as a cluster affinity's labelSelector: matchLabels and every
    // expression must hold, NotIn and DoesNotExist hold for a cluster without the key.
    #[test]
    fn a_group_holds_the_clusters_its_selector_matches() {
        let groups = admitted(
            serde_json::json!([
                {"name": "production", "clusterSelector": {"matchLabels": {"env": "prod"}}},
                {"name": "eu-not-canary", "clusterSelector": {"matchExpressions": [
                    {"key": "region", "operator": "In", "values": ["eu"]},
                    {"key": "ring", "operator": "NotIn", "values": ["canary"]},
                ]}},
                {"name": "everything", "clusterSelector": {}},
            ]),
            serde_json::json!({"production": ["@org/sre", "@alice", "@org/sre"]}),
        )
        .unwrap();
        let prod_eu = cluster("prod-eu", &[("env", "prod"), ("region", "eu")]);
        let canary = cluster("canary-eu", &[("region", "eu"), ("ring", "canary")]);
        let bare = cluster("bare", &[]);
        let holds = |group: usize| -> Vec<&str> {
            [&prod_eu, &canary, &bare]
                .into_iter()
                .filter(|c| groups.groups[group].holds(c))
                .map(|c| c.name())
                .collect()
        };
        assert_eq!(holds(0), ["prod-eu"]);
        assert_eq!(holds(1), ["prod-eu"]);
        assert_eq!(holds(2), ["prod-eu", "canary-eu", "bare"]);
        assert_eq!(groups.groups[0].owners, ["@alice", "@org/sre"]);
        assert!(groups.groups[1].owners.is_empty());
        let empty = empty_groups(&groups, std::slice::from_ref(&bare));
        let named: Vec<&str> = empty.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            named,
            [
                "review group production selects no cluster of the inventory: no change will name it or ask @alice, @org/sre to approve",
                "review group eu-not-canary selects no cluster of the inventory: no change will name it",
            ]
        );
        assert!(empty.iter().all(|d| d.lint == Some(Lint::ReviewGroupEmpty)));
    }

    #[test]
    fn what_a_review_config_may_not_say() {
        let errors = admitted(
            serde_json::json!([
                {"name": "production", "clusterSelector": {"matchExpressions": [
                    {"key": "env", "operator": "Equals", "values": ["prod"]},
                ]}},
                {"name": "production", "clusterSelector": {}},
                {"name": "has space", "clusterSelector": {}},
            ]),
            serde_json::json!({"prodution": ["@org/sre"], "production": ["org/sre", "@x](http://e)"]}),
        )
        .unwrap_err();
        assert_eq!(errors.len(), 6, "{errors:#?}");
        assert!(errors[0].contains("Equals"), "{}", errors[0]);
        assert_eq!(
            errors[1],
            "Config: spec.review.groups[1].name: group production is also spec.review.groups[0]: name each group once"
        );
        assert!(
            errors[2].starts_with("Config: spec.review.groups[2].name: group name \"has space\"")
        );
        // Owners by group name, in order: `production` before `prodution`.
        assert!(
            errors[3].contains("\"org/sre\" is not a GitHub user or team"),
            "{}",
            errors[3]
        );
        assert!(
            errors[4].contains("spec.review.owners.production[1]"),
            "{}",
            errors[4]
        );
        assert_eq!(
            errors[5],
            "Config: spec.review.owners.prodution: \"prodution\" names no group of spec.review.groups (did you mean production?)"
        );
    }

    #[test]
    fn mentions() {
        for good in ["@alice", "@org/sre", "@my-org/team_a", "@a1"] {
            assert!(is_mention(good), "{good}");
        }
        for bad in [
            "alice",
            "@",
            "@-x",
            "@x-",
            "@a--b",
            "@org/",
            "@org/team/x",
            "@org/<b>",
            "@a b",
            "@org/-x",
        ] {
            assert!(!is_mention(bad), "{bad}");
        }
    }

    #[test]
    fn the_same_review_wherever_written() {
        let one = admitted(
            serde_json::json!([{"name": "p", "clusterSelector": {"matchLabels": {"env": "prod"}}}]),
            serde_json::json!({"p": ["@org/sre"]}),
        )
        .unwrap();
        let mut moved = one.clone();
        moved.origin = Origin::new("elsewhere.yaml", 0, 7);
        assert!(one.same_as(&moved));
        let mut other = one.clone();
        other.groups[0].owners.clear();
        assert!(!one.same_as(&other));
    }
}
