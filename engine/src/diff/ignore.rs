//! Structural ignores: changes a team has decided a reviewer need not read, named by object and
//! field (never by line text), hidden from every form of the report and counted there by rule.
//!
//! `--ignore-field [GROUP/KIND[/NAMESPACE/NAME]=]JSON_POINTER` hides a changed object whose
//! only differences are at that pointer (a segment `*` matches any one key or index);
//! `--ignore-resource GROUP:KIND:NAMESPACE/NAME` hides every change to the objects it names.
//! GROUP, KIND, NAMESPACE and NAME are globs (`*`, `?`, `[…]`); the core group is written empty
//! or `core`.

use std::fmt;

use glob::Pattern;
use serde_json::Value;

use super::change::{ChangeKind, FleetDiff, ObjectChange, parse_object};
use crate::object::ObjectKey;

/// Which objects a rule is about.
#[derive(Debug, Clone, PartialEq)]
struct Objects {
    group: Pattern,
    kind: Pattern,
    /// `None`: any namespace and name.
    namespaced: Option<(Pattern, Pattern)>,
}

impl Objects {
    fn parse(group: &str, kind: &str, at: Option<(&str, &str)>) -> Result<Objects, String> {
        let pattern = |text: &str, what: &str| {
            Pattern::new(text).map_err(|error| format!("{what} {text:?} is not a glob: {error}"))
        };
        let group = if group == "core" { "" } else { group };
        Ok(Objects {
            group: pattern(group, "group")?,
            kind: pattern(kind, "kind")?,
            namespaced: match at {
                Some((namespace, name)) => {
                    Some((pattern(namespace, "namespace")?, pattern(name, "name")?))
                }
                None => None,
            },
        })
    }

    fn matches(&self, key: &ObjectKey) -> bool {
        self.group.matches(&key.group)
            && self.kind.matches(&key.kind)
            && self.namespaced.as_ref().is_none_or(|(namespace, name)| {
                namespace.matches(&key.namespace) && name.matches(&key.name)
            })
    }
}

/// One `--ignore-field` or `--ignore-resource`, as written.
#[derive(Debug, Clone, PartialEq)]
pub struct IgnoreRule {
    written: String,
    objects: Option<Objects>,
    /// The field's pointer, split into unescaped segments; `None` for a whole resource.
    field: Option<Vec<String>>,
    /// The Config's file and line (`fleet/fedrender.yaml:7`) for a rule a Config gives; `None`
    /// for a flag. The report names where each hiding rule is written.
    config_origin: Option<String>,
}

impl fmt::Display for IgnoreRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.field, &self.config_origin) {
            (Some(_), None) => write!(f, "--ignore-field {}", self.written),
            (None, None) => write!(f, "--ignore-resource {}", self.written),
            (Some(_), Some(at)) => write!(f, "spec.diff.ignoreFields {} ({at})", self.written),
            (None, Some(at)) => write!(f, "spec.diff.ignoreResources {} ({at})", self.written),
        }
    }
}

impl IgnoreRule {
    /// The rule as a Config's `spec.diff` gives it, written at `origin` (file and line).
    pub fn in_config(self, origin: impl fmt::Display) -> IgnoreRule {
        IgnoreRule {
            config_origin: Some(origin.to_string()),
            ..self
        }
    }

    /// `[GROUP/KIND[/NAMESPACE/NAME]=]JSON_POINTER`.
    pub fn field(text: &str) -> Result<IgnoreRule, String> {
        let (objects, pointer) = match text.find("=/") {
            Some(at) => (Some(&text[..at]), &text[at + 1..]),
            None => (None, text),
        };
        if !pointer.starts_with('/') {
            return Err(format!(
                "{text:?}: expected [GROUP/KIND[/NAMESPACE/NAME]=]JSON_POINTER, the pointer starting with / (/spec/replicas)"
            ));
        }
        let objects = match objects.map(|objects| objects.split('/').collect::<Vec<_>>()) {
            None => None,
            Some(parts) => Some(match parts[..] {
                [group, kind] => Objects::parse(group, kind, None)?,
                [group, kind, namespace, name] => {
                    Objects::parse(group, kind, Some((namespace, name)))?
                }
                _ => {
                    return Err(format!(
                        "{text:?}: the objects are GROUP/KIND or GROUP/KIND/NAMESPACE/NAME (apps/Deployment=/spec/replicas)"
                    ));
                }
            }),
        };
        let segments = pointer[1..]
            .split('/')
            .map(|segment| segment.replace("~1", "/").replace("~0", "~"))
            .collect();
        Ok(IgnoreRule {
            written: text.to_string(),
            objects,
            field: Some(segments),
            config_origin: None,
        })
    }

    /// `GROUP:KIND:NAMESPACE/NAME` (`GROUP:KIND:NAME` for a cluster-scoped object).
    pub fn resource(text: &str) -> Result<IgnoreRule, String> {
        let parts: Vec<&str> = text.splitn(3, ':').collect();
        let [group, kind, at] = parts[..] else {
            return Err(format!(
                "{text:?}: expected GROUP:KIND:NAMESPACE/NAME (apps:Deployment:shop/web, :ConfigMap:*/generated-*)"
            ));
        };
        let (namespace, name) = at.split_once('/').unwrap_or(("", at));
        Ok(IgnoreRule {
            written: text.to_string(),
            objects: Some(Objects::parse(group, kind, Some((namespace, name)))?),
            field: None,
            config_origin: None,
        })
    }

    fn applies_to(&self, key: &ObjectKey) -> bool {
        self.objects
            .as_ref()
            .is_none_or(|objects| objects.matches(key))
    }
}

/// Removes the value at `segments` (`*` any key or index) from `value`; whether one was there.
fn remove(value: &mut Value, segments: &[String]) -> bool {
    let Some((first, rest)) = segments.split_first() else {
        return false;
    };
    let last = rest.is_empty();
    match value {
        Value::Object(fields) => {
            if first == "*" {
                let keys: Vec<String> = fields.keys().cloned().collect();
                let mut removed = false;
                for key in keys {
                    if last {
                        removed |= fields.remove(&key).is_some();
                    } else if let Some(child) = fields.get_mut(&key) {
                        removed |= remove(child, rest);
                    }
                }
                removed
            } else if last {
                fields.remove(first).is_some()
            } else {
                fields
                    .get_mut(first)
                    .is_some_and(|child| remove(child, rest))
            }
        }
        Value::Array(items) => {
            if first == "*" {
                if last {
                    let removed = !items.is_empty();
                    items.clear();
                    removed
                } else {
                    items
                        .iter_mut()
                        .fold(false, |removed, item| remove(item, rest) | removed)
                }
            } else {
                let Ok(index) = first.parse::<usize>() else {
                    return false;
                };
                if index >= items.len() {
                    false
                } else if last {
                    // Set aside, not shifted: the indexes after it keep their meaning.
                    items[index] = Value::Null;
                    true
                } else {
                    remove(&mut items[index], rest)
                }
            }
        }
        _ => false,
    }
}

/// The rule that hides `change`, if one does: a resource rule naming the object, or field rules
/// whose fields are all that differ (counted under the first of them that removed a value).
fn hiding<'r>(change: &ObjectChange, rules: &'r [IgnoreRule]) -> Option<&'r IgnoreRule> {
    let applying: Vec<&IgnoreRule> = rules
        .iter()
        .filter(|rule| rule.applies_to(&change.key))
        .collect();
    if let Some(rule) = applying.iter().find(|rule| rule.field.is_none()) {
        return Some(rule);
    }
    if change.kind != ChangeKind::Changed || applying.is_empty() {
        return None;
    }
    let (mut before, mut after) = (parse_object(&change.before)?, parse_object(&change.after)?);
    let mut first = None;
    for rule in applying {
        let segments = rule.field.as_deref().unwrap_or_default();
        let removed = remove(&mut before, segments) | remove(&mut after, segments);
        if removed && first.is_none() {
            first = Some(rule);
        }
    }
    (before == after).then_some(first).flatten()
}

/// Hides the changes `rules` name and counts them per rule, in the order the rules were given
/// (only rules that hid something). A cluster left without changes is left out.
pub fn hide(diff: &mut FleetDiff, rules: &[IgnoreRule]) {
    if rules.is_empty() {
        return;
    }
    let mut counts = vec![0usize; rules.len()];
    for changes in diff.clusters.values_mut() {
        changes.retain(|change| match hiding(change, rules) {
            Some(rule) => {
                let at = rules
                    .iter()
                    .position(|candidate| std::ptr::eq(candidate, rule))
                    .expect("a rule of the list");
                counts[at] += 1;
                false
            }
            None => true,
        });
    }
    diff.clusters.retain(|_, changes| !changes.is_empty());
    diff.hidden = rules
        .iter()
        .zip(counts)
        .filter(|(_, count)| *count > 0)
        .map(|(rule, count)| (rule.to_string(), count))
        .collect();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::diff;

    use crate::diff::fleet_of as fleet;

    fn deployment(name: &str, replicas: u32, image: &str) -> String {
        format!(
            "apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: {name}, namespace: shop}}\nspec:\n  replicas: {replicas}\n  template:\n    spec: {{containers: [{{name: c, image: {image}}}]}}\n"
        )
    }

    #[test]
    fn a_field_rule_hides_a_change_to_that_field_alone_and_counts_it() {
        let before = fleet(&[
            ("eu-1", &deployment("web", 2, "web:1")),
            ("eu-2", &deployment("api", 2, "api:1")),
        ]);
        let after = fleet(&[
            ("eu-1", &deployment("web", 3, "web:1")),
            ("eu-2", &deployment("api", 3, "api:2")),
        ]);
        let mut changes = diff(&before, &after, false);
        let rules = [IgnoreRule::field("apps/Deployment=/spec/replicas").unwrap()];
        hide(&mut changes, &rules);
        // web's change was its replicas alone; api's image change stays.
        let left: Vec<(&str, &str)> = changes
            .clusters
            .iter()
            .flat_map(|(cluster, changes)| {
                changes
                    .iter()
                    .map(move |change| (cluster.as_str(), change.key.name.as_str()))
            })
            .collect();
        assert_eq!(left, [("eu-2", "api")]);
        assert_eq!(
            changes.hidden,
            [(
                "--ignore-field apps/Deployment=/spec/replicas".to_string(),
                1
            )]
        );
    }

    #[test]
    fn globs_in_objects_and_pointers() {
        let before = fleet(&[("eu-1", &deployment("web-1", 2, "web:1"))]);
        let after = fleet(&[("eu-1", &deployment("web-1", 2, "web:2"))]);
        for (rule, hidden) in [
            (
                "apps/Deployment/shop/web-*=/spec/template/spec/containers/*/image",
                true,
            ),
            (
                "apps/Deployment/other/web-*=/spec/template/spec/containers/*/image",
                false,
            ),
            ("/spec/template/spec/containers/0/image", true),
            ("apps/StatefulSet=/spec/template", false),
        ] {
            let mut changes = diff(&before, &after, false);
            hide(&mut changes, &[IgnoreRule::field(rule).unwrap()]);
            assert_eq!(changes.is_empty(), hidden, "{rule}");
        }
        for (rule, hidden) in [
            ("apps:Deployment:shop/web-?", true),
            ("apps:Deployment:*/*", true),
            (":Deployment:shop/web-1", false),
        ] {
            let mut changes = diff(&before, &after, false);
            hide(&mut changes, &[IgnoreRule::resource(rule).unwrap()]);
            assert_eq!(changes.is_empty(), hidden, "{rule}");
            if hidden {
                assert_eq!(changes.hidden, [(format!("--ignore-resource {rule}"), 1)]);
            }
        }
    }

    #[test]
    fn a_field_rule_never_hides_an_added_or_removed_object() {
        let before = fleet(&[("eu-1", &deployment("web", 2, "web:1"))]);
        let after = fleet(&[("eu-1", &deployment("api", 2, "web:1"))]);
        let mut changes = diff(&before, &after, false);
        hide(&mut changes, &[IgnoreRule::field("/spec").unwrap()]);
        assert_eq!(changes.clusters["eu-1"].len(), 2);
        assert!(changes.hidden.is_empty());
    }

    #[test]
    fn malformed_rules_say_what_is_expected() {
        assert!(
            IgnoreRule::field("spec.replicas")
                .unwrap_err()
                .contains("JSON_POINTER")
        );
        assert!(
            IgnoreRule::field("apps=/spec")
                .unwrap_err()
                .contains("GROUP/KIND")
        );
        assert!(
            IgnoreRule::resource("apps/Deployment")
                .unwrap_err()
                .contains("GROUP:KIND")
        );
    }
}
