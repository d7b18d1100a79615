//! Structural ignores: changes a team has decided a reviewer need not read, named by object and
//! field (never by line text), hidden from every form of the report and counted there by rule.
//!
//! `--ignore-field [GROUP/KIND[/NAMESPACE/NAME]=]JSON_POINTER` leaves the field at that pointer
//! (a segment `*` matches any one key or index) out of the comparison of a changed object, on
//! both sides, as Argo CD's `ignoreDifferences` does: an object whose only differences are
//! there is hidden, and one with others is shown without the field. `--ignore-resource
//! GROUP:KIND:NAMESPACE/NAME` hides every change to the objects it names.
//! GROUP, KIND, NAMESPACE and NAME are globs (`*`, `?`, `[…]`); the core group is written empty
//! or `core`.

use std::fmt;

use glob::Pattern;
use serde_json::Value;

use super::change::{ChangeKind, FleetDiff, Hidden, ObjectChange, parse_object};
use crate::object::ObjectKey;
use crate::yaml;

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

    /// The rule as written, without where.
    pub fn written(&self) -> &str {
        &self.written
    }

    /// The Config field a rule of its sort is written in (`ignoreFields`, `ignoreResources`).
    pub fn config_field(&self) -> &'static str {
        if self.field.is_some() {
            "ignoreFields"
        } else {
            "ignoreResources"
        }
    }

    /// Where the rule is written: the Config's file and line, or the flag.
    pub fn where_written(&self) -> String {
        match &self.config_origin {
            Some(at) => at.clone(),
            None => "the command line".to_string(),
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

/// Removes the values at `segments` (`*` any key or index) from `value`, each pushed on
/// `removed` with where it was (`path`, its concrete pointer so far).
fn remove(value: &mut Value, segments: &[String], path: &str, removed: &mut Vec<(String, Value)>) {
    let Some((first, rest)) = segments.split_first() else {
        return;
    };
    let last = rest.is_empty();
    match value {
        Value::Object(fields) => {
            let keys: Vec<String> = if first == "*" {
                fields.keys().cloned().collect()
            } else {
                vec![first.clone()]
            };
            for key in keys {
                let at = format!("{path}/{key}");
                if last {
                    if let Some(gone) = fields.remove(&key) {
                        removed.push((at, gone));
                    }
                } else if let Some(child) = fields.get_mut(&key) {
                    remove(child, rest, &at, removed);
                }
            }
        }
        Value::Array(items) => {
            let indexes: Vec<usize> = if first == "*" {
                (0..items.len()).collect()
            } else {
                first
                    .parse::<usize>()
                    .ok()
                    .filter(|index| *index < items.len())
                    .into_iter()
                    .collect()
            };
            for index in indexes {
                let at = format!("{path}/{index}");
                if last {
                    // Set aside, not shifted: the indexes after it keep their meaning.
                    removed.push((at, std::mem::replace(&mut items[index], Value::Null)));
                } else {
                    remove(&mut items[index], rest, &at, removed);
                }
            }
        }
        _ => {}
    }
}

/// What the rules do to one change.
enum Verdict<'r> {
    /// Shown as it is.
    Kept,
    /// Hidden whole, counted under this rule.
    Hidden(&'r IgnoreRule),
    /// Shown with the rules' fields left out on both sides: the texts so written, and the
    /// rules that left out a difference.
    Narrowed(String, String, Vec<&'r IgnoreRule>),
}

/// What `rules` do to `change`: a resource rule naming the object hides it; field rules leave
/// their fields out of both sides of a changed object, which is hidden when nothing else
/// differs.
fn judge<'r>(change: &ObjectChange, rules: &'r [IgnoreRule]) -> Verdict<'r> {
    let applying: Vec<&IgnoreRule> = rules
        .iter()
        .filter(|rule| rule.applies_to(&change.key))
        .collect();
    if let Some(rule) = applying.iter().find(|rule| rule.field.is_none()) {
        return Verdict::Hidden(rule);
    }
    if change.kind != ChangeKind::Changed || applying.is_empty() {
        return Verdict::Kept;
    }
    let (Some(mut before), Some(mut after)) =
        (parse_object(&change.before), parse_object(&change.after))
    else {
        return Verdict::Kept;
    };
    let mut left_out = Vec::new();
    let mut any_removed = false;
    for rule in applying {
        let segments = rule.field.as_deref().unwrap_or_default();
        let (mut old, mut new) = (Vec::new(), Vec::new());
        remove(&mut before, segments, "", &mut old);
        remove(&mut after, segments, "", &mut new);
        any_removed |= !old.is_empty() || !new.is_empty();
        old.sort_by(|a, b| a.0.cmp(&b.0));
        new.sort_by(|a, b| a.0.cmp(&b.0));
        if old != new {
            left_out.push(rule);
        }
    }
    if before == after {
        // Nothing else differs: some rule left a difference out, or the texts differed only in
        // how they were written, which the diff never shows.
        return match left_out.first() {
            Some(rule) => Verdict::Hidden(rule),
            None => Verdict::Kept,
        };
    }
    if !any_removed {
        return Verdict::Kept;
    }
    Verdict::Narrowed(yaml::to_yaml(&before), yaml::to_yaml(&after), left_out)
}

/// Hides the changes `rules` name, leaves their fields out of the rest, and counts both per
/// rule, in the order the rules were given (only rules that hid something). A cluster left
/// without changes is left out.
pub fn hide(diff: &mut FleetDiff, rules: &[IgnoreRule]) {
    if rules.is_empty() {
        return;
    }
    let position = |rule: &IgnoreRule| {
        rules
            .iter()
            .position(|candidate| std::ptr::eq(candidate, rule))
            .expect("a rule of the list")
    };
    let (mut changes, mut fields) = (vec![0usize; rules.len()], vec![0usize; rules.len()]);
    for cluster_changes in diff.clusters.values_mut() {
        cluster_changes.retain_mut(|change| match judge(change, rules) {
            Verdict::Kept => true,
            Verdict::Hidden(rule) => {
                changes[position(rule)] += 1;
                false
            }
            Verdict::Narrowed(before, after, left_out) => {
                for rule in left_out {
                    fields[position(rule)] += 1;
                }
                change.before = before;
                change.after = after;
                true
            }
        });
    }
    diff.clusters.retain(|_, changes| !changes.is_empty());
    diff.hidden = rules
        .iter()
        .zip(changes.into_iter().zip(fields))
        .filter(|(_, (changes, fields))| changes + fields > 0)
        .map(|(rule, (changes, fields))| Hidden {
            rule: rule.to_string(),
            changes,
            fields,
        })
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
        // Argo CD's ignoreDifferences: the field is left out of api's comparison too, on both
        // sides, and the report counts it.
        let api = &changes.clusters["eu-2"][0];
        assert!(
            !api.before.contains("replicas") && !api.after.contains("replicas"),
            "{api:?}"
        );
        assert!(api.hunks().contains("image: api:2"), "{}", api.hunks());
        assert_eq!(
            changes.hidden,
            [Hidden {
                rule: "--ignore-field apps/Deployment=/spec/replicas".to_string(),
                changes: 1,
                fields: 1,
            }]
        );
    }

    /// A field both sides hold alike is left out of the texts, but hid no difference, so the
    /// rule counts nothing for that change.
    #[test]
    fn a_field_alike_on_both_sides_is_left_out_but_not_counted() {
        let before = fleet(&[("eu-1", &deployment("web", 2, "web:1"))]);
        let after = fleet(&[("eu-1", &deployment("web", 2, "web:2"))]);
        let mut changes = diff(&before, &after, false);
        hide(
            &mut changes,
            &[IgnoreRule::field("/spec/replicas").unwrap()],
        );
        let web = &changes.clusters["eu-1"][0];
        assert!(!web.after.contains("replicas"), "{}", web.after);
        assert!(changes.hidden.is_empty(), "{:?}", changes.hidden);
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
                assert_eq!(
                    changes.hidden,
                    [Hidden {
                        rule: format!("--ignore-resource {rule}"),
                        changes: 1,
                        fields: 0
                    }]
                );
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
