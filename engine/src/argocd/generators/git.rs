//! The git generator (applicationset/generators/git.go) on a mapped local checkout: one
//! parameter set per directory its `directories` patterns pick (reposerver
//! `GetGitDirectories`: every directory but hidden ones), or per object of each file its
//! `files` patterns pick (`GetGitFiles`: `git ls-files` pathspecs, or doublestar globs with the
//! new globbing). fedrender never fetches: a repoURL the Config does not map is an error.

use serde_json::{Map, Value};

use super::context::{GeneratorContext, Site, string_map};
use super::glob;
use super::param_ops::{append_templated_values, flatten};
use super::yaml_data;
use crate::argocd::params::Params;
use crate::argocd::repositories::Repository;
use crate::argocd::template::go::sanitize_name;
use crate::diagnostics::Diagnostic;

/// The fields of a git generator.
pub const FIELDS: &[&str] = &[
    "repoURL",
    "revision",
    "directories",
    "files",
    "pathParamPrefix",
    "values",
    "requeueAfterSeconds",
    "template",
];

/// The parameter sets of the git generator `spec` at `site`.
pub fn generate(
    spec: &Map<String, Value>,
    context: &GeneratorContext<'_>,
    site: &Site<'_>,
) -> Result<Vec<Params>, Diagnostic> {
    site.known_fields(spec, "the git generator", FIELDS)?;
    let url_site = site.field("repoURL");
    let url = url_site.string(spec.get("repoURL").unwrap_or(&Value::Null))?;
    let repository = context.repositories.find(url).ok_or_else(|| {
        url_site.error(format!(
            "the git generator reads {url}, which the Config does not map to a local checkout (spec.argocd.repositories); fedrender never fetches a repository"
        ))
    })?;
    let prefix = match spec.get("pathParamPrefix").filter(|v| !v.is_null()) {
        Some(prefix) => site.field("pathParamPrefix").string(prefix)?,
        None => "",
    };
    let values = string_map(&site.field("values"), spec.get("values"))?;
    let items = |name: &str| -> Result<Vec<(String, bool, Site<'_>)>, Diagnostic> {
        let list_site = site.field(name);
        let Some(list) = spec.get(name).filter(|v| !v.is_null()) else {
            return Ok(Vec::new());
        };
        let mut items = Vec::new();
        for (index, item) in list_site.array(list)?.iter().enumerate() {
            let item_site = list_site.item(index);
            let fields = item_site.object(item)?;
            item_site.known_fields(fields, &format!("a git {name} item"), &["path", "exclude"])?;
            let path = item_site
                .field("path")
                .string(fields.get("path").unwrap_or(&Value::Null))?
                .to_string();
            let exclude = item_site
                .field("exclude")
                .boolean(fields.get("exclude").unwrap_or(&Value::Null))?;
            items.push((path, exclude, item_site));
        }
        Ok(items)
    };
    let directories = items("directories")?;
    let files = items("files")?;
    let paths = match (directories.is_empty(), files.is_empty()) {
        (false, false) => {
            return Err(site.error(
                "sets both directories and files; Argo CD reads only directories then, so keep one (two git generators can do both)",
            ));
        }
        (true, true) => {
            return Err(site.error(
                "needs directories or files (Argo CD refuses it: ApplicationSet is empty)",
            ));
        }
        (false, true) => {
            let picked = pick_directories(repository, &directories)?;
            return picked
                .iter()
                .map(|dir| {
                    let mut params = directory_params(dir, prefix, context.go_template);
                    add_values(&values, &mut params, context, site)?;
                    Ok(params)
                })
                .collect();
        }
        (true, false) => pick_files(repository, &files, context.new_globbing)?,
    };
    let mut result = Vec::new();
    for path in paths {
        let bytes = repository.file(&path).unwrap_or_default();
        let unable = |why: String| {
            site.field("files").error(format!(
                "unable to process file '{path}' from repository '{url}': {why}"
            ))
        };
        let text = std::str::from_utf8(bytes)
            .map_err(|_| unable("unable to parse file: it is not UTF-8 text".into()))?;
        let objects = match yaml_data::parse(text).map_err(|e| unable(format!("unable to parse file: {e}")))? {
            Value::Null => vec![Map::new()],
            Value::Object(object) => vec![object],
            Value::Array(items) => items
                .into_iter()
                .map(|item| match item {
                    Value::Object(object) => Ok(object),
                    Value::Null => Ok(Map::new()),
                    other => Err(unable(format!(
                        "unable to parse file: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal {} into Go value of type map[string]interface {{}} (a file holds a map or a list of maps)",
                        go_kind(&other)
                    ))),
                })
                .collect::<Result<_, _>>()?,
            other => {
                return Err(unable(format!(
                    "unable to parse file: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal {} into Go value of type []map[string]interface {{}} (a file holds a map or a list of maps)",
                    go_kind(&other)
                )));
            }
        };
        for object in objects {
            let mut params = file_params(&path, object, prefix, context.go_template);
            add_values(&values, &mut params, context, site)?;
            result.push(params);
        }
    }
    Ok(result)
}

fn add_values(
    values: &[(String, String)],
    params: &mut Params,
    context: &GeneratorContext<'_>,
    site: &Site<'_>,
) -> Result<(), Diagnostic> {
    append_templated_values(
        values,
        params,
        context.go_template,
        context.go_template_options,
    )
    .map_err(|e| {
        site.field("values")
            .error(format!("failed to append templated values: {e}"))
    })
}

/// reposerver `GetGitDirectories` then git.go `filterApps`: every directory of the checkout but
/// hidden ones and what is under them, in `filepath.WalkDir`'s order, that an included pattern
/// matches (Go `path.Match`) and no excluded one does. Argo CD logs a malformed pattern and
/// matches nothing with it; fedrender refuses it.
fn pick_directories(
    repository: &Repository,
    items: &[(String, bool, Site<'_>)],
) -> Result<Vec<String>, Diagnostic> {
    for (pattern, _, item_site) in items {
        glob::path_match(pattern, "").map_err(|e| {
            item_site.field("path").error(format!(
                "{e}: Argo CD logs it and matches no directory with it"
            ))
        })?;
    }
    let mut all: Vec<&str> = repository
        .directories()
        .into_iter()
        .filter(|dir| !dir.split('/').any(|segment| segment.starts_with('.')))
        .collect();
    // WalkDir visits a directory's entries in name order, each before what is under it.
    all.sort_by(|a, b| a.split('/').cmp(b.split('/')));
    let mut picked = Vec::new();
    for dir in all {
        let matched = |exclude: bool| {
            items.iter().any(|(pattern, excluded, _)| {
                *excluded == exclude && glob::path_match(pattern, dir).unwrap_or(false)
            })
        };
        if matched(false) && !matched(true) {
            picked.push(dir.to_string());
        }
    }
    Ok(picked)
}

/// git.go `generateParamsForGitFiles`: the union of the files each included pattern lists,
/// less those an excluded one lists, in path order.
fn pick_files(
    repository: &Repository,
    items: &[(String, bool, Site<'_>)],
    new_globbing: bool,
) -> Result<Vec<String>, Diagnostic> {
    let mut picked = std::collections::BTreeSet::new();
    for (exclude, keep) in [(false, true), (true, false)] {
        for (pattern, _, item_site) in items.iter().filter(|(_, e, _)| *e == exclude) {
            let path_site = item_site.field("path");
            let matches = |path: &str| -> Result<bool, Diagnostic> {
                if new_globbing {
                    glob::doublestar_match(pattern, path).map_err(|e| path_site.error(e))
                } else {
                    Ok(glob::pathspec_match(pattern, path))
                }
            };
            if new_globbing && !exclude {
                // doublestar's glob yields directories too, which the repo server then fails
                // to read as files.
                for dir in repository.directories() {
                    if matches(dir)? {
                        return Err(path_site.error(format!(
                            "{pattern:?} matches the directory {dir}, which Argo CD's repo server then fails to read as a file (with the new git file globbing a pattern must match files only)"
                        )));
                    }
                }
            }
            for (path, _) in repository.files() {
                if matches(path)? {
                    if keep {
                        picked.insert(path.to_string());
                    } else {
                        picked.remove(path);
                    }
                }
            }
        }
    }
    Ok(picked.into_iter().collect())
}

/// How encoding/json names a JSON value's kind in its messages.
fn go_kind(value: &Value) -> &'static str {
    match value {
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        _ => "object",
    }
}

/// Go `path.Dir`, for a clean repository-relative file path.
fn dir(path: &str) -> &str {
    match path.rfind('/') {
        Some(slash) => &path[..slash],
        None => ".",
    }
}

/// Go `path.Base`, for a clean path.
fn base(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// git.go `generateParamsFromApps` for one directory.
fn directory_params(dir: &str, prefix: &str, go_template: bool) -> Params {
    let mut params = Params::new();
    if go_template {
        let mut path = Map::new();
        path.insert("path".into(), dir.into());
        path.insert("basename".into(), base(dir).into());
        path.insert("basenameNormalized".into(), sanitize_name(base(dir)).into());
        path.insert("segments".into(), segments(dir));
        insert_nested_path(&mut params, prefix, path);
    } else {
        let name = flat_name(prefix);
        params.insert(name.clone(), dir.into());
        params.insert(format!("{name}.basename"), base(dir).into());
        params.insert(
            format!("{name}.basenameNormalized"),
            sanitize_name(base(dir)).into(),
        );
        insert_indexed_segments(&mut params, &name, dir);
    }
    params
}

/// git.go `generateParamsFromGitFile` for one object of a file: the object (flattened without
/// goTemplate) and the path parameters over it.
fn file_params(file: &str, object: Map<String, Value>, prefix: &str, go_template: bool) -> Params {
    let directory = dir(file);
    let mut params = Params::new();
    if go_template {
        params.extend(object);
        let mut path = Map::new();
        path.insert("path".into(), directory.into());
        path.insert("basename".into(), base(directory).into());
        path.insert("filename".into(), base(file).into());
        path.insert(
            "basenameNormalized".into(),
            sanitize_name(base(directory)).into(),
        );
        path.insert(
            "filenameNormalized".into(),
            sanitize_name(base(file)).into(),
        );
        path.insert("segments".into(), segments(directory));
        insert_nested_path(&mut params, prefix, path);
    } else {
        for (key, value) in flatten(&object) {
            params.insert(key, Value::String(value));
        }
        let name = flat_name(prefix);
        params.insert(name.clone(), directory.into());
        params.insert(format!("{name}.basename"), base(directory).into());
        params.insert(format!("{name}.filename"), base(file).into());
        params.insert(
            format!("{name}.basenameNormalized"),
            sanitize_name(base(directory)).into(),
        );
        params.insert(
            format!("{name}.filenameNormalized"),
            sanitize_name(base(file)).into(),
        );
        insert_indexed_segments(&mut params, &name, directory);
    }
    params
}

fn segments(path: &str) -> Value {
    Value::Array(path.split('/').map(Value::from).collect())
}

fn insert_nested_path(params: &mut Params, prefix: &str, path: Map<String, Value>) {
    if prefix.is_empty() {
        params.insert("path".into(), Value::Object(path));
    } else {
        let mut holder = Map::new();
        holder.insert("path".into(), Value::Object(path));
        params.insert(prefix.into(), Value::Object(holder));
    }
}

fn flat_name(prefix: &str) -> String {
    if prefix.is_empty() {
        "path".into()
    } else {
        format!("{prefix}.path")
    }
}

/// `path[N]` for each non-empty segment, N counting the empty ones too.
fn insert_indexed_segments(params: &mut Params, name: &str, path: &str) {
    for (index, segment) in path.split('/').enumerate() {
        if !segment.is_empty() {
            params.insert(format!("{name}[{index}]"), segment.into());
        }
    }
}
