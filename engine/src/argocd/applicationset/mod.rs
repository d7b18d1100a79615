//! The ApplicationSet controller's `generateApplications` (applicationset/controllers/template
//! template.go `GenerateApplications`, applicationset_controller.go
//! `validateGeneratedApplications`), offline: for each generator's result, its own `template`
//! merged under `spec.template` ([`crate::argocd::api::merge`]); for each parameter set, that
//! template rendered ([`crate::argocd::template`]), `templatePatch` applied (`patch`), the
//! Application put in the ApplicationSet's namespace. Then the names: an empty one, one
//! Kubernetes refuses, and one two parameter sets share (Argo CD then creates neither) are
//! errors, as is a field fedrender does not implement. Argo CD stops at its first render error
//! and creates nothing; fedrender reports every one.

mod patch;
mod render;

use std::collections::BTreeMap;

use serde_json::Value;

use crate::argocd::api::application::{Application, ApplicationSetTemplate};
use crate::argocd::api::applicationset::ApplicationSet;
use crate::argocd::api::merge::Merge;
use crate::argocd::params::{GeneratorResult, Params};
use crate::diagnostics::{Diagnostic, Located};

/// One Application an ApplicationSet generates, with what made it: what `plan` shows.
#[derive(Debug, Clone, PartialEq)]
pub struct GeneratedApplication {
    /// The Application as the controller would create it, as JSON.
    pub application: Value,
    /// The same, typed.
    pub typed: Application,
    /// The entry of `spec.generators` whose result made it.
    pub generator: usize,
    /// The parameter set it was rendered with.
    pub params: Params,
}

/// Every Application `appset` generates from its generators' `results`, in their order; or
/// every error found, each at the ApplicationSet's field it is about.
pub fn generate_applications(
    appset: &Located<ApplicationSet>,
    results: Vec<GeneratorResult>,
) -> Result<Vec<GeneratedApplication>, Vec<Diagnostic>> {
    let set = &appset.item;
    let name = &set.metadata.name;
    let namespace = set.metadata.namespace.as_deref().unwrap_or_default();
    let at = |field: &str| Some(appset.fields.origin(&appset.origin, field));
    let mut errors = Vec::new();
    let mut generated = Vec::new();
    for result in results {
        let template = match merged_template(set, &result) {
            Ok(template) => template,
            Err((field, message)) => {
                errors.push(Diagnostic::error(
                    at(&field),
                    format!("ApplicationSet {name}: {field}: {message}"),
                ));
                continue;
            }
        };
        let template = serde_json::to_value(template).expect("a template serialises");
        for params in result.params {
            match render::render_application(&template, &set.spec, &params, namespace) {
                Ok(typed) => generated.push(GeneratedApplication {
                    application: serde_json::to_value(&typed).expect("an Application serialises"),
                    typed,
                    generator: result.generator,
                    params,
                }),
                Err(error) => errors.push(Diagnostic::error(
                    at(error.field),
                    format!(
                        "ApplicationSet {name}: generator {} with parameters {}: {}",
                        result.generator,
                        shown_params(&params),
                        error.message
                    ),
                )),
            }
        }
    }
    errors.extend(name_errors(appset, &generated));
    if errors.is_empty() {
        Ok(generated)
    } else {
        Err(errors)
    }
}

/// mergeGeneratorTemplate: the generator's own `template` (decoded as a template is, an unknown
/// field an error at its path) with `spec.template` merged into it. The error names the field.
fn merged_template(
    set: &ApplicationSet,
    result: &GeneratorResult,
) -> Result<ApplicationSetTemplate, (String, String)> {
    let Some(own) = result.template.as_ref().filter(|t| !t.is_null()) else {
        return Ok(set.spec.template.clone());
    };
    let field = generator_template_field(set, result.generator);
    let mut merged: ApplicationSetTemplate =
        serde_path_to_error::deserialize(own).map_err(|error| {
            let mut path = error.path().to_string();
            let message = error.inner().to_string();
            // An unknown field's path ends at the field, which the message names already.
            if let Some(unknown) = message
                .strip_prefix("unknown field `")
                .and_then(|rest| rest.split_once('`'))
                .map(|(name, _)| name)
            {
                path = match path.strip_suffix(unknown) {
                    Some(parent) => parent.trim_end_matches('.').to_string(),
                    None => path,
                };
            }
            let field = if path == "." || path.is_empty() {
                field.clone()
            } else {
                format!("{field}.{path}")
            };
            (field, message)
        })?;
    merged.merge_from(&set.spec.template);
    Ok(merged)
}

/// Where entry `index` of `spec.generators` writes its template:
/// `spec.generators[0].list.template`.
fn generator_template_field(set: &ApplicationSet, index: usize) -> String {
    let kind = set
        .spec
        .generators
        .get(index)
        .and_then(Value::as_object)
        .and_then(|entry| {
            entry
                .iter()
                .find(|(key, value)| *key != "selector" && value.get("template").is_some())
                .or_else(|| entry.iter().find(|(key, _)| *key != "selector"))
                .map(|(key, _)| key.clone())
        });
    match kind {
        Some(kind) => format!("spec.generators[{index}].{kind}.template"),
        None => format!("spec.generators[{index}].template"),
    }
}

/// validateGeneratedApplications' names, and the fields fedrender refuses.
fn name_errors(
    appset: &Located<ApplicationSet>,
    generated: &[GeneratedApplication],
) -> Vec<Diagnostic> {
    let set_name = &appset.item.metadata.name;
    let origin = || {
        Some(
            appset
                .fields
                .origin(&appset.origin, "spec.template.metadata.name"),
        )
    };
    let mut errors = Vec::new();
    let mut by_name: BTreeMap<&str, Vec<&GeneratedApplication>> = BTreeMap::new();
    for app in generated {
        let name = app.typed.metadata.name.as_str();
        let made_by = || {
            format!(
                "generator {} with parameters {}",
                app.generator,
                shown_params(&app.params)
            )
        };
        if name.is_empty() {
            errors.push(Diagnostic::error(
                origin(),
                format!(
                    "ApplicationSet {set_name} contains an application with no name ({}); a name \
                     must be set in the template's metadata.name or via a templatePatch \
                     (generateName is not supported)",
                    made_by()
                ),
            ));
            continue;
        }
        if let Some(problem) = crate::names::dns_subdomain_problem(name) {
            errors.push(Diagnostic::error(
                origin(),
                format!(
                    "ApplicationSet {set_name}: the Application name {name:?} ({}) {problem}; the \
                     API server refuses it",
                    made_by()
                ),
            ));
            continue;
        }
        // The API server validates an Application's metadata as any object's.
        let meta = &app.typed.metadata;
        let label_problems = meta.labels.iter().filter_map(|(key, value)| {
            crate::names::qualified_name_problem(key)
                .map(|problem| format!("label key {key:?} {problem}"))
                .or_else(|| {
                    crate::names::label_value_problem(value)
                        .map(|problem| format!("label {key}'s value {value:?} {problem}"))
                })
        });
        let annotation_problems = meta.annotations.keys().filter_map(|key| {
            crate::names::qualified_name_problem(key)
                .map(|problem| format!("annotation key {key:?} {problem}"))
        });
        for problem in label_problems.chain(annotation_problems) {
            errors.push(Diagnostic::error(
                origin(),
                format!(
                    "ApplicationSet {set_name}: Application {name} ({}): its {problem}; the API \
                     server refuses it",
                    made_by()
                ),
            ));
        }
        for field in app.typed.spec.unsupported_fields() {
            errors.push(Diagnostic::error(
                Some(appset.fields.origin(&appset.origin, "spec.template.spec")),
                format!(
                    "ApplicationSet {set_name}: Application {name} ({}) sets spec.{field}, which \
                     fedrender does not implement",
                    made_by()
                ),
            ));
        }
        by_name.entry(name).or_default().push(app);
    }
    for (name, apps) in by_name {
        if apps.len() < 2 {
            continue;
        }
        let makers: Vec<String> = apps
            .iter()
            .map(|app| {
                format!(
                    "generator {} with parameters {}",
                    app.generator,
                    shown_params(&app.params)
                )
            })
            .collect();
        errors.push(Diagnostic::error(
            origin(),
            format!(
                "ApplicationSet {set_name} contains applications with duplicate name: {name} \
                 (made by {}); Argo CD creates none of them",
                makers.join(" and by ")
            ),
        ));
    }
    errors
}

/// A parameter set on one line, cut to a length a message can carry.
fn shown_params(params: &Params) -> String {
    const SHOWN: usize = 200;
    let text = serde_json::to_string(params).expect("parameters serialise");
    match text.char_indices().nth(SHOWN) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text,
    }
}

#[cfg(test)]
mod tests;
