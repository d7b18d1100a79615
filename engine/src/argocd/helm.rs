//! An Application's `helm` options as `helm template`'s flags, as Argo CD's repo server passes
//! them (reposerver `helmTemplate`, util/helm `template`): the release is the Application's
//! name and the namespace the destination's unless the options say otherwise; value files are
//! resolved from the chart's directory within its repository, or from another source's with
//! `$ref/…`; parameters become `--set`, `--set-string` and `--set-file`.

use super::api::application::{ApplicationSource, ApplicationSourceHelm};
use super::build_env::BuildEnv;
use super::kustomize_options::resolve_in_repository;
use super::repositories::{Repositories, Repository};
use crate::api::source::{ArgoCdHelmOptions, HelmSet, HelmSetKind, HelmSource};

/// A refusal: the field (`spec.source.helm.valueFiles`) and why.
pub type HelmProblem = (&'static str, String);

/// Where a chart is and what its value files may name.
pub struct Chart<'a> {
    /// The chart's repository.
    pub repository: &'a Repository,
    /// The chart's directory in it (a clean path, `""` for the root).
    pub dir: &'a str,
    /// Every mapped repository, for `$ref` value files.
    pub repositories: &'a Repositories,
    /// The Application's sources that name a `ref`, as `$ref` and the source.
    pub references: Vec<(String, &'a ApplicationSource)>,
    /// The build's environment.
    pub env: &'a BuildEnv,
}

/// The flags `helm template` gets for `options` (none set: only the release and namespace).
pub fn helm_options(
    release: &str,
    destination_namespace: Option<&str>,
    options: Option<&ApplicationSourceHelm>,
    chart: &Chart,
) -> Result<HelmSource, HelmProblem> {
    let mut helm = HelmSource {
        release_name: Some(release.to_string()),
        namespace: destination_namespace.map(str::to_string),
        ..HelmSource::default()
    };
    let Some(options) = options else {
        return Ok(helm);
    };
    if !matches!(options.version.as_str(), "" | "v3" | "3") {
        return Err((
            "spec.source.helm.version",
            format!(
                "spec.source.helm.version {:?}: fedrender renders charts with Helm 3 only",
                options.version
            ),
        ));
    }
    if !options.release_name.is_empty() {
        helm.release_name = Some(options.release_name.clone());
    }
    if !options.namespace.is_empty() {
        helm.namespace = Some(options.namespace.clone());
    }
    let field = "spec.source.helm.valueFiles";
    for raw in &options.value_files {
        let Some(file) = value_file(raw, chart, options.ignore_missing_value_files)
            .map_err(|problem| (field, format!("{field}: {problem}")))?
        else {
            continue;
        };
        if !helm.value_files.contains(&file) {
            helm.value_files.push(file);
        }
    }
    let mut values = None;
    if let Some(document) = crate::yaml::split_documents(&options.values).first() {
        let read = crate::yaml::parse_document_as_yaml_to_json(document, "").map_err(|error| {
            (
                "spec.source.helm.values",
                format!("spec.source.helm.values: {}", error.message),
            )
        })?;
        values = Some(read).filter(|read| !read.is_null());
    }
    if let Some(object) = &options.values_object {
        values = Some(object.clone());
    }
    helm.values_object = values;
    helm.argo_cd = ArgoCdHelmOptions {
        set: parameters(options, chart)?,
        skip_schema_validation: options.skip_schema_validation,
    };
    helm.skip_crds = options.skip_crds;
    helm.skip_tests = options.skip_tests.then_some(true);
    if !options.kube_version.is_empty() {
        helm.kube_version = Some(options.kube_version.clone());
    }
    helm.api_versions = options.api_versions.clone();
    Ok(helm)
}

/// `parameters` (expanded, then escaped) and `fileParameters` (resolved as value files are),
/// each name once as Argo CD keeps them in maps, sorted by name within each flag.
fn parameters(options: &ApplicationSourceHelm, chart: &Chart) -> Result<Vec<HelmSet>, HelmProblem> {
    let mut set: Vec<HelmSet> = Vec::new();
    let mut add = |kind: HelmSetKind, name: &str, value: String| {
        set.retain(|existing| !(existing.kind == kind && existing.name == name));
        set.push(HelmSet {
            kind,
            name: name.to_string(),
            value: escape_set_value(&value),
        });
    };
    for parameter in &options.parameters {
        let field = "spec.source.helm.parameters";
        let value = chart
            .env
            .envsubst(&parameter.value)
            .map_err(|problem| (field, format!("{field}: {problem}")))?;
        let kind = match parameter.force_string {
            true => HelmSetKind::String,
            false => HelmSetKind::Value,
        };
        add(kind, &parameter.name, value);
    }
    for parameter in &options.file_parameters {
        let field = "spec.source.helm.fileParameters";
        let path = value_file(&parameter.path, chart, false)
            .map_err(|problem| (field, format!("{field}: {problem}")))?
            .expect("a file that must exist is found or refused");
        add(HelmSetKind::File, &parameter.name, path);
    }
    set.sort_by(|a, b| (a.kind, &a.name).cmp(&(b.kind, &b.name)));
    Ok(set)
}

/// util/helm `cleanSetParameters`: a comma not already escaped is escaped, so helm reads one
/// value, unless the value is a `{…}` list.
fn escape_set_value(value: &str) -> String {
    if value.starts_with('{') && value.ends_with('}') {
        return value.to_string();
    }
    let mut escaped = String::with_capacity(value.len());
    let mut previous = None;
    for character in value.chars() {
        if character == ',' && previous != Some('\\') {
            escaped.push_str("\\,");
        } else {
            escaped.push(character);
        }
        previous = Some(character);
    }
    escaped
}

/// One value file as the repo server resolves it (reposerver `getResolvedValueFiles`,
/// util/io/path `ResolveValueFilePathOrUrl`), as a path from the chart's directory: `$ref/…`
/// names a file of the source whose `ref` it is; a relative path is the chart's directory's, an
/// absolute one the repository root's; none may lead out of its repository. A URL, a glob, or a
/// file not in the checkout is refused by name, but a missing one is left out when `ignore_missing`.
fn value_file(raw: &str, chart: &Chart, ignore_missing: bool) -> Result<Option<String>, String> {
    let referenced = raw.starts_with('$').then(|| {
        let name = raw.split('/').next().unwrap_or(raw);
        chart
            .references
            .iter()
            .find(|(reference, _)| reference == name)
            .map(|(_, source)| (name, *source))
    });
    let (repository, dir, path) = match referenced.flatten() {
        Some((name, source)) => {
            let repository = chart.repositories.find(&source.repo_url).ok_or_else(|| {
                format!(
                    "{raw:?} names {name}, the source of {}, which is not mapped to a checkout",
                    source.repo_url
                )
            })?;
            let rest = &raw[name.len()..];
            (repository, "", chart.env.envsubst(rest)?)
        }
        None => (chart.repository, chart.dir, chart.env.envsubst(raw)?),
    };
    if let Some(scheme) = url_scheme(&path) {
        return Err(format!(
            "{raw:?} is a {scheme} URL, and fedrender never fetches (the file belongs in a \
             mapped checkout)"
        ));
    }
    if path.contains(['*', '?', '[']) {
        return Err(format!(
            "{raw:?} is a glob; fedrender reads value files named one by one"
        ));
    }
    let resolved = resolve_in_repository(dir, &path)
        .ok_or_else(|| format!("{raw:?} resolves outside the repository {}", repository.url))?;
    if repository.file(&resolved).is_none() {
        if ignore_missing {
            return Ok(None);
        }
        return Err(format!(
            "{raw:?} is not a file of {} (looked for {resolved}; ignoreMissingValueFiles \
             leaves a missing one out)",
            repository.url
        ));
    }
    let chart_dir = join(&chart.repository.path, chart.dir);
    Ok(Some(relative_path(
        &chart_dir,
        &join(&repository.path, &resolved),
    )))
}

fn join(checkout: &str, path: &str) -> String {
    let checkout = checkout.trim_end_matches('/');
    match path {
        "" => checkout.to_string(),
        path => format!("{checkout}/{path}"),
    }
}

/// The scheme of a URL as Go's `url.Parse` finds one (`https`, `s3`), if `text` is one.
fn url_scheme(text: &str) -> Option<&str> {
    let colon = text.find(':')?;
    let scheme = &text[..colon];
    let mut bytes = scheme.bytes();
    let first = bytes.next()?;
    (first.is_ascii_alphabetic()
        && bytes.all(|byte| byte.is_ascii_alphanumeric() || b"+-.".contains(&byte)))
    .then_some(scheme)
}

/// `to` from the directory `from`, both written alike (both from the same place), lexically:
/// `../values/prod.yaml`.
fn relative_path(from: &str, to: &str) -> String {
    let pieces = |path: &str| -> Vec<String> {
        let mut pieces: Vec<String> = Vec::new();
        for piece in path.split('/') {
            match piece {
                "" | "." => {}
                ".." if pieces.last().is_some_and(|last| last != "..") => {
                    pieces.pop();
                }
                piece => pieces.push(piece.to_string()),
            }
        }
        pieces
    };
    let (from, to) = (pieces(from), pieces(to));
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut relative: Vec<&str> = vec![".."; from.len() - common];
    relative.extend(to[common..].iter().map(String::as_str));
    relative.join("/")
}

#[cfg(test)]
mod tests;
