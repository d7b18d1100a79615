//! One entry of `spec.generators` to its parameter sets (generator_spec_processor.go
//! `Transform`): the one generator kind the entry sets, its parameters, the entry's
//! `selector` over them (flattened, as Argo CD matches it) and its own `template`.

use serde_json::Value;

use super::context::{GeneratorContext, MOST_PARAMETER_SETS_IN_A_RUN, Site};
use super::interpolate::interpolate;
use super::param_ops::flatten;
use super::{clusters, git, list, matrix, merge, selector};
use crate::argocd::params::{GeneratorResult, Params};
use crate::diagnostics::{Diagnostic, FieldLines, Origin};

/// The generator kinds fedrender computes, and those it refuses with the reason.
const COMPUTED: &[&str] = &["list", "clusters", "git", "matrix", "merge"];
const REFUSED: &[(&str, &str)] = &[
    (
        "scmProvider",
        "lists repositories through an SCM provider's API (GitHub, GitLab, Gitea, Bitbucket, Azure DevOps, AWS CodeCommit)",
    ),
    (
        "pullRequest",
        "lists open pull requests through an SCM provider's API",
    ),
    ("plugin", "asks a plugin's HTTP service for its parameters"),
    (
        "clusterDecisionResource",
        "reads a resource's status.decisions from the Kubernetes API",
    ),
];

/// How deep an entry is: Argo CD lets a top-level matrix or merge hold a matrix or merge (as
/// JSON), and that one only the other generators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Level {
    Top,
    Nested,
    Terminal,
}

/// What `Transform` gives for each entry of `spec.generators`, in order: its parameter sets
/// and its `template`. `document` and `lines` are the ApplicationSet's, so that each error
/// points at its field (`spec.generators[0].git.repoURL`).
pub fn generate(
    generators: &[Value],
    context: &GeneratorContext<'_>,
    document: &Origin,
    lines: &FieldLines,
) -> Result<Vec<GeneratorResult>, Diagnostic> {
    let mut results = Vec::new();
    for (index, entry) in generators.iter().enumerate() {
        let site = Site::new(document, lines, format!("spec.generators[{index}]"));
        let (params, template) = transform(entry, context, &site, Level::Top, None)?;
        let made = context.made.get() + params.len();
        if made > MOST_PARAMETER_SETS_IN_A_RUN {
            return Err(site.error(format!(
                "the ApplicationSets make more than {MOST_PARAMETER_SETS_IN_A_RUN} parameter sets \
                 (Applications) in all with this generator, past fedrender's bound on one run \
                 (a pull request may not exhaust the job)"
            )));
        }
        context.made.set(made);
        results.push(GeneratorResult {
            generator: index,
            params,
            template,
        });
    }
    Ok(results)
}

fn transform(
    entry: &Value,
    context: &GeneratorContext<'_>,
    site: &Site<'_>,
    level: Level,
    gen_params: Option<&Params>,
) -> Result<(Vec<Params>, Option<Value>), Diagnostic> {
    let entry = site.object(entry)?;
    let kinds: Vec<&str> = COMPUTED
        .iter()
        .copied()
        .chain(REFUSED.iter().map(|(kind, _)| *kind))
        .filter(|kind| level != Level::Terminal || !matches!(*kind, "matrix" | "merge"))
        .collect();
    let mut known = kinds.clone();
    known.push("selector");
    let what = match level {
        Level::Top => "a generator".to_string(),
        Level::Nested => "a matrix or merge generator's child".to_string(),
        Level::Terminal => {
            if entry.contains_key("matrix") || entry.contains_key("merge") {
                return Err(site.error(
                    "a matrix or merge nested in a matrix or merge may hold only list, clusters, git and the other plain generators: Argo CD nests them two deep at most",
                ));
            }
            "a generator nested two deep".to_string()
        }
    };
    site.known_fields(entry, &what, &known)?;
    let set: Vec<&str> = kinds
        .iter()
        .copied()
        .filter(|kind| entry.get(*kind).is_some_and(|v| !v.is_null()))
        .collect();
    let kind = match set.as_slice() {
        [one] => *one,
        [] => {
            return Err(site.error(format!("sets no generator (one of {})", kinds.join(", "))));
        }
        several => {
            return Err(site.error(format!(
                "sets {} generators ({}); each entry of generators holds one (Argo CD would run each and merge their results unpredictably into one template), so give each its own entry",
                several.len(),
                several.join(", ")
            )));
        }
    };
    if let Some((_, why)) = REFUSED.iter().find(|(name, _)| *name == kind) {
        return Err(site.field(kind).error(format!(
            "the {kind} generator {why}, which needs the network or a cluster; fedrender renders offline and never does"
        )));
    }
    let selector = match entry.get("selector").filter(|v| !v.is_null()) {
        Some(selector) => Some(selector::parse(&site.field("selector"), selector, false)?),
        None => None,
    };
    // RenderGeneratorParams: a matrix's second child takes the first's parameters.
    let interpolated;
    let entry = match gen_params.filter(|p| !p.is_empty()) {
        Some(params) => {
            let mut without_selector = entry.clone();
            without_selector.remove("selector");
            interpolated = interpolate(
                &without_selector,
                params,
                context.go_template,
                context.go_template_options,
            )
            .map_err(|e| site.error(e))?;
            &interpolated
        }
        None => entry,
    };
    let spec_site = site.field(kind);
    let spec = spec_site.object(&entry[kind])?;
    let template = spec.get("template").filter(|t| !t.is_null()).cloned();
    if level != Level::Top
        && let Some(template) = &template
        && !is_empty(template)
    {
        return Err(spec_site.field("template").error(
            "Argo CD ignores the template of a matrix or merge generator's child; put it on the matrix or merge itself",
        ));
    }
    let inner_level = match level {
        Level::Top => Level::Nested,
        _ => Level::Terminal,
    };
    let child = |entry: &Value, site: &Site<'_>, params: Option<&Params>| {
        transform(entry, context, site, inner_level, params).map(|(params, _)| params)
    };
    let params = match kind {
        "list" => list::generate(spec, context, &spec_site)?,
        "clusters" => clusters::generate(spec, context, &spec_site)?,
        "git" => git::generate(spec, context, &spec_site)?,
        "matrix" => matrix::generate(spec, context, &spec_site, &child)?,
        _ => merge::generate(spec, context, &spec_site, &child)?,
    };
    let params = match selector {
        Some(selector) => params
            .into_iter()
            .filter(|p| selector.matches(&flatten(p)))
            .collect(),
        None => params,
    };
    Ok((params, template))
}

/// A template of nothing but empty values, as `kubectl get -o yaml` writes the CRD's defaults.
fn is_empty(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::String(s) => s.is_empty(),
        Value::Array(items) => items.iter().all(is_empty),
        Value::Object(fields) => fields.values().all(is_empty),
        _ => false,
    }
}
