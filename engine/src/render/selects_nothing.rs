//! Why a policy selects nothing: a kind that differs from a template's only in case, plural or
//! a typo, templates outside a namespaced policy's namespace, or a name no template has (with
//! the nearest, and what places it).

use std::collections::{BTreeSet, HashSet};

use crate::fleet::Fleet;
use crate::object::Template;

use super::placement::Placement;

/// The likely mistake behind a policy that selects nothing, as `: <reason>` with the field it is
/// about, or nothing: a
/// selector kind that is no template's kind but differs from one only in case or plural (or by
/// a typo), templates of the kind that all sit outside a namespaced policy's namespace, or a
/// name no template of the kind has (with the nearest one and what places it).
pub(super) fn why_nothing_is_selected(
    fleet: &Fleet,
    placements: &[Placement],
    id: &crate::policy::PolicyId,
    selectors: &[crate::api::karmada::ResourceSelector],
) -> (String, String) {
    let kinds: BTreeSet<&str> = fleet.templates.iter().map(Template::kind).collect();
    for (index, selector) in selectors.iter().enumerate() {
        let field = format!("spec.resourceSelectors[{index}]");
        if !kinds.contains(selector.kind.as_str()) {
            let written = selector.kind.to_ascii_lowercase();
            let near = kinds
                .iter()
                .copied()
                .find(|kind| {
                    let kind = kind.to_ascii_lowercase();
                    written == kind
                        || written == format!("{kind}s")
                        || written == format!("{kind}es")
                })
                .or_else(|| crate::edit_distance::nearest(&selector.kind, kinds.iter().copied()));
            if let Some(near) = near {
                let why = format!(
                    ": {field}.kind {:?} is no template's kind (kinds are singular and \
                     case-sensitive); did you mean {near}?",
                    selector.kind
                );
                return (why, format!("{field}.kind"));
            }
            continue;
        }
        // kustomize's namePrefix and nameSuffix rename what a kustomization builds: a selector
        // naming the object as written in the base selects nothing.
        if !selector.name.is_empty() {
            let renamed: Vec<&str> = fleet
                .templates
                .iter()
                .filter(|template| {
                    template.kind() == selector.kind
                        && template.api_version == selector.api_version
                        && (selector.namespace.is_empty()
                            || template.namespace() == selector.namespace)
                        && template.origin.file.ends_with(" (kustomize)")
                        && template.name() != selector.name
                        && template.name().contains(selector.name.as_str())
                })
                .map(Template::name)
                .collect();
            if let [only] = renamed.as_slice() {
                let why = format!(
                    ": {field}.name {:?} names no template; kustomize's namePrefix or nameSuffix \
                     renamed it: did you mean {only}?",
                    selector.name
                );
                return (why, format!("{field}.name"));
            }
        }
        if let crate::policy::PolicyScope::Namespace(namespace) = &id.scope {
            let of_kind = || {
                fleet
                    .templates
                    .iter()
                    .filter(|template| template.kind() == selector.kind)
            };
            let elsewhere: BTreeSet<&str> = of_kind()
                .map(|template| template.key.namespace.as_str())
                .filter(|other| other != namespace)
                .collect();
            if !elsewhere.is_empty() && !of_kind().any(|t| &t.key.namespace == namespace) {
                let listed: Vec<String> = elsewhere.iter().map(|n| format!("{n:?}")).collect();
                let article = if id.kind.starts_with(['A', 'E', 'I', 'O', 'U']) {
                    "an"
                } else {
                    "a"
                };
                let why = format!(
                    ": {field}: the {} templates are in namespace {}, and {article} {} selects \
                     only templates in its own namespace {namespace:?}",
                    selector.kind,
                    listed.join(", "),
                    id.kind
                );
                return (why, field);
            }
        }
        if !selector.name.is_empty() {
            let namespace = selector_namespace(id, selector);
            if let Some(why) = why_no_template_has_the_name(fleet, placements, selector, namespace)
            {
                return (format!(": {field}.name: {why}"), format!("{field}.name"));
            }
        }
    }
    (String::new(), String::new())
}

/// The namespace a selector looks in: its own, else a namespaced policy's; `None` for any.
fn selector_namespace<'a>(
    id: &'a crate::policy::PolicyId,
    selector: &'a crate::api::karmada::ResourceSelector,
) -> Option<&'a str> {
    match (&id.scope, selector.namespace.as_str()) {
        (_, written) if !written.is_empty() => Some(written),
        (crate::policy::PolicyScope::Namespace(own), _) => Some(own.as_str()),
        (crate::policy::PolicyScope::Cluster, _) => None,
    }
}

/// The templates' kinds, namespaces and names, to tell at once whether a name selector of a
/// policy that selects other templates finds its own: a fleet may have a policy per template.
pub(super) struct TemplateNames<'f> {
    /// apiVersion, kind, namespace, name.
    in_namespace: HashSet<(&'f str, &'f str, &'f str, &'f str)>,
    /// apiVersion, kind, name.
    anywhere: HashSet<(&'f str, &'f str, &'f str)>,
}

impl<'f> TemplateNames<'f> {
    pub(super) fn of(fleet: &'f Fleet) -> TemplateNames<'f> {
        let mut names = TemplateNames {
            in_namespace: HashSet::with_capacity(fleet.templates.len()),
            anywhere: HashSet::with_capacity(fleet.templates.len()),
        };
        for template in &fleet.templates {
            let version = template.api_version.as_str();
            names.in_namespace.insert((
                version,
                template.kind(),
                template.namespace(),
                template.name(),
            ));
            names
                .anywhere
                .insert((version, template.kind(), template.name()));
        }
        names
    }

    /// The name selectors of a policy that selects some template, which themselves select
    /// none, as (field, why): the typo among several selectors that the policy's other
    /// selectors would hide.
    pub(super) fn selecting_nothing(
        &self,
        fleet: &Fleet,
        placements: &[Placement],
        id: &crate::policy::PolicyId,
        selectors: &[crate::api::karmada::ResourceSelector],
    ) -> Vec<(String, String)> {
        let mut found = Vec::new();
        for (index, selector) in selectors.iter().enumerate() {
            if selector.name.is_empty() {
                continue;
            }
            let namespace = selector_namespace(id, selector);
            let (version, kind) = (selector.api_version.as_str(), selector.kind.as_str());
            let name = selector.name.as_str();
            let exists = match namespace {
                Some(namespace) => self
                    .in_namespace
                    .contains(&(version, kind, namespace, name)),
                None => self.anywhere.contains(&(version, kind, name)),
            };
            if exists {
                continue;
            }
            if let Some(why) = why_no_template_has_the_name(fleet, placements, selector, namespace)
            {
                found.push((format!("spec.resourceSelectors[{index}].name"), why));
            }
        }
        found
    }
}

/// Why a selector naming `selector.name` selects no template of its kind in `namespace` (any
/// namespace for `None`), when templates of its kind are there: the same name under another
/// apiVersion, or the nearest name, with the policy that places that template or the word that
/// none does, since the costly case is a typo that leaves the meant object where it was.
fn why_no_template_has_the_name(
    fleet: &Fleet,
    placements: &[Placement],
    selector: &crate::api::karmada::ResourceSelector,
    namespace: Option<&str>,
) -> Option<String> {
    let in_scope = |template: &&Template| {
        template.kind() == selector.kind && namespace.is_none_or(|ns| template.namespace() == ns)
    };
    let same_kind: Vec<(usize, &Template)> = fleet
        .templates
        .iter()
        .enumerate()
        .filter(|(_, template)| in_scope(template))
        .collect();
    let shown = |namespace: &str, name: &str| {
        if namespace.is_empty() {
            name.to_string()
        } else {
            format!("{namespace}/{name}")
        }
    };
    let written = shown(namespace.unwrap_or_default(), &selector.name);
    if let Some((_, other)) = same_kind
        .iter()
        .find(|(_, template)| template.name() == selector.name)
    {
        if other.api_version == selector.api_version {
            // The name matches; something else (a label selector is not it: a name wins) does
            // not, and is not guessed at.
            return None;
        }
        return Some(format!(
            "{} {} is {}, not {}",
            selector.kind,
            shown(other.namespace(), other.name()),
            other.api_version,
            selector.api_version
        ));
    }
    let same_version: Vec<(usize, &Template)> = same_kind
        .into_iter()
        .filter(|(_, template)| template.api_version == selector.api_version)
        .collect();
    if same_version.is_empty() {
        return None;
    }
    let near = crate::edit_distance::nearest(
        &selector.name,
        same_version.iter().map(|(_, template)| template.name()),
    );
    let Some(near) = near else {
        let mut names: Vec<String> = same_version
            .iter()
            .map(|(_, template)| shown(template.namespace(), template.name()))
            .collect();
        names.sort();
        let more = names.len().saturating_sub(3);
        names.truncate(3);
        let more = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        let are = if names.len() == 1 { "is" } else { "are" };
        return Some(format!(
            "no {} {written}, nor one near it (there {are} {}{more})",
            selector.kind,
            names.join(", ")
        ));
    };
    // A cluster-wide selector may find the nearest name in several namespaces: the first.
    let (index, template) = same_version
        .iter()
        .find(|(_, template)| template.name() == near)
        .copied()?;
    let placed = match placements.get(index) {
        Some(placement) if !placement.targets.is_empty() && !placement.placed_by.is_empty() => {
            format!("placed by {}", placement.placed_by.join(", "))
        }
        Some(placement) if placement.targets.is_empty() => match placement.winner {
            Some(winner) => format!(
                "selected by {} but rendered nowhere",
                fleet.propagations[winner].id
            ),
            None => "placed by no policy".to_string(),
        },
        _ => "placed only as another template's dependency".to_string(),
    };
    Some(format!(
        "no {} {written}; nearest: {}, {placed}",
        selector.kind,
        shown(template.namespace(), template.name())
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::karmada::ResourceSelector;
    use crate::schedule::{Target, Targets};

    fn deployment(namespace: &str, name: &str) -> Template {
        Template::for_test(
            "apps/v1",
            "Deployment",
            namespace,
            name,
            serde_json::json!({"apiVersion": "apps/v1", "kind": "Deployment",
                "metadata": {"name": name, "namespace": namespace}}),
        )
    }

    fn placement(placed_by: &[&str]) -> Placement {
        let targets: Targets = if placed_by.is_empty() {
            Targets::default()
        } else {
            [Target {
                cluster: 0,
                replicas: Some(1),
                completions: None,
            }]
            .into_iter()
            .collect()
        };
        Placement {
            targets,
            scheduled: None,
            is_workload: true,
            request: Default::default(),
            override_policies: Vec::new(),
            propagate_deps: false,
            nowhere: None,
            candidates: Vec::new(),
            winner: None,
            placed_by: placed_by.iter().map(ToString::to_string).collect(),
            filtered: Vec::new(),
            division: None,
            may_divide_otherwise_live: false,
            preserved_by: None,
            preserved_only_on: None,
            notes: Vec::new(),
            claimed_by: None,
        }
    }

    fn selector(api_version: &str, name: &str) -> ResourceSelector {
        ResourceSelector {
            api_version: api_version.to_string(),
            kind: "Deployment".to_string(),
            namespace: String::new(),
            name: name.to_string(),
            label_selector: None,
        }
    }

    fn shop() -> (Fleet, Vec<Placement>) {
        let fleet = Fleet {
            templates: vec![
                deployment("shop", "frontend"),
                deployment("shop", "backend"),
                deployment("other", "fronted"),
            ],
            ..Fleet::default()
        };
        let placements = vec![
            placement(&["PropagationPolicy shop/web"]),
            placement(&[]),
            placement(&[]),
        ];
        (fleet, placements)
    }

    #[test]
    fn a_misspelt_name_names_the_nearest_in_the_namespace_and_what_places_it() {
        let (fleet, placements) = shop();
        let why = |name: &str| {
            why_no_template_has_the_name(
                &fleet,
                &placements,
                &selector("apps/v1", name),
                Some("shop"),
            )
        };
        // `other/fronted` has the very name, but in another namespace.
        assert_eq!(
            why("fronted").as_deref(),
            Some(
                "no Deployment shop/fronted; nearest: shop/frontend, placed by PropagationPolicy shop/web"
            )
        );
        assert_eq!(
            why("backnd").as_deref(),
            Some("no Deployment shop/backnd; nearest: shop/backend, placed by no policy")
        );
        assert_eq!(
            why("payments").as_deref(),
            Some(
                "no Deployment shop/payments, nor one near it (there are shop/backend, shop/frontend)"
            )
        );
        // The name exists: what else keeps it from matching is not this function's to say.
        assert_eq!(why("backend"), None);
    }

    #[test]
    fn the_right_name_under_another_api_version_says_so() {
        let (fleet, placements) = shop();
        let why = why_no_template_has_the_name(
            &fleet,
            &placements,
            &selector("apps/v1beta2", "backend"),
            Some("shop"),
        );
        assert_eq!(
            why.as_deref(),
            Some("Deployment shop/backend is apps/v1, not apps/v1beta2")
        );
    }

    #[test]
    fn a_cluster_wide_selector_without_namespace_looks_in_every_namespace() {
        let (fleet, placements) = shop();
        let why =
            why_no_template_has_the_name(&fleet, &placements, &selector("apps/v1", "frontd"), None);
        assert_eq!(
            why.as_deref(),
            Some("no Deployment frontd; nearest: other/fronted, placed by no policy")
        );
    }
}
