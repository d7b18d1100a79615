//! What a kustomization names, read before kustomize runs: every path of its bases,
//! components, resources, patches and generators, transitively, so that a build reading
//! outside the fleet or fetching from the network is refused at the kustomization's line
//! (kustomize api/types/kustomization.go for the fields; its loader for what is fetched).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::confine::{Confinement, lexically_normal};
use crate::source::files;
use fedrender_engine::classify::KUSTOMIZATION_FILES;
use fedrender_engine::diagnostics::{Diagnostic, ErrorSink, Rejected};
use fedrender_engine::documents::{self, RawDocument, SourceFile};

/// Every path a kustomization names, with the field that names it (`resources[2]`,
/// `patches[0].path`): bases, components, resources, patches, generator files, and the rest.
/// Inline generators and patches (text with a line break) are not paths.
fn named_paths(kustomization: &Value) -> Vec<(String, &str)> {
    fn strings<'a>(value: &'a Value, field: &str, named: &mut Vec<(String, &'a str)>) {
        for (index, item) in value.as_array().into_iter().flatten().enumerate() {
            if let Some(text) = item.as_str() {
                named.push((format!("{field}[{index}]"), text));
            }
        }
    }
    let mut named: Vec<(String, &str)> = Vec::new();
    for field in [
        "resources",
        "bases",
        "components",
        "crds",
        "generators",
        "transformers",
        "validators",
        "patchesStrategicMerge",
        "configurations",
    ] {
        strings(&kustomization[field], field, &mut named);
    }
    for field in ["patches", "patchesJson6902", "replacements"] {
        for (index, item) in kustomization[field]
            .as_array()
            .into_iter()
            .flatten()
            .enumerate()
        {
            if let Some(path) = item["path"].as_str() {
                named.push((format!("{field}[{index}].path"), path));
            }
        }
    }
    for field in ["configMapGenerator", "secretGenerator"] {
        for (index, generator) in kustomization[field]
            .as_array()
            .into_iter()
            .flatten()
            .enumerate()
        {
            let at = format!("{field}[{index}]");
            let mut files = Vec::new();
            strings(&generator["files"], &format!("{at}.files"), &mut files);
            // `key=path` names the key the file's content gets.
            named.extend(
                files.into_iter().map(|(field, file)| {
                    (field, file.split_once('=').map_or(file, |(_, path)| path))
                }),
            );
            strings(&generator["envs"], &format!("{at}.envs"), &mut named);
            if let Some(env) = generator["env"].as_str() {
                named.push((format!("{at}.env"), env));
            }
        }
    }
    if let Some(path) = kustomization["openapi"]["path"].as_str() {
        named.push(("openapi.path".to_string(), path));
    }
    named.retain(|(_, path)| !path.contains('\n'));
    named
}

/// Whether kustomize or helm would fetch `reference` rather than read a file: a URL, or one of
/// the forms kustomize reads as a Git repository.
pub fn is_remote(reference: &str) -> bool {
    let lower = reference.to_ascii_lowercase();
    lower.contains("://")
        || [
            "git@",
            "git::",
            "gh:",
            "github.com/",
            "gitlab.com/",
            "bitbucket.org/",
        ]
        .iter()
        .any(|prefix| lower.starts_with(prefix))
        || lower.contains("?ref=")
        || lower.contains("?version=")
        || lower.contains(".git//")
}

/// Fields whose entries kustomize fetches as a remote base when no such path exists.
const BASE_FIELDS: [&str; 3] = ["resources[", "bases[", "components["];

/// The local paths a kustomization names, resolved against its directory, lexically, that
/// exist: what loading leaves out of the fleet because the kustomization reads it.
pub fn kustomization_references(dir: &Path, kustomization: &Value) -> Vec<PathBuf> {
    named_paths(kustomization)
        .into_iter()
        .filter(|(_, reference)| !is_remote(reference))
        .map(|(_, reference)| lexically_normal(&dir.join(reference)))
        .filter(|path| path.exists())
        .collect()
}

/// The kustomization in `dir`, if it parses, with its file for field lines; kustomize reports
/// one that does not.
fn kustomization_document(dir: &Path) -> Option<(Vec<SourceFile>, RawDocument)> {
    let path = KUSTOMIZATION_FILES
        .iter()
        .map(|name| dir.join(name))
        .find(|path| path.is_file())?;
    let files = files::read_files(&[path]).ok()?;
    let (mut documents, errors) = documents::parse_files(&files);
    if !errors.is_empty() || documents.len() != 1 {
        return None;
    }
    let document = documents.remove(0);
    Some((files, document))
}

/// Reads the kustomization in `dir`, if it parses; kustomize reports one that does not.
pub fn read_kustomization(dir: &Path) -> Option<Value> {
    kustomization_document(dir).map(|(_, document)| document.value)
}

/// Every path a kustomize build of `dir` reads, as far as its kustomizations say: the
/// directory and, transitively, what it references; `None` when some of it is fetched (which
/// `--allow-network` allows). An error at the kustomization's line for each path that leads
/// outside the fleet, and for each remote reference without `--allow-network`.
pub fn kustomize_reads(
    dir: &Path,
    fleet: &Confinement,
    allow_network: bool,
) -> Result<Option<Vec<PathBuf>>, Rejected> {
    let mut errors = ErrorSink::default();
    let mut seen = BTreeSet::new();
    let mut fetches = false;
    let mut pending = vec![lexically_normal(dir)];
    while let Some(path) = pending.pop() {
        if !seen.insert(path.clone()) || !path.is_dir() {
            continue;
        }
        let Some((files, document)) = kustomization_document(&path) else {
            continue;
        };
        let field_lines = document.field_lines(&files);
        for (field, reference) in named_paths(&document.value) {
            let refuse = |problem: String| {
                Diagnostic::error(
                    Some(field_lines.origin(&document.origin, &field)),
                    format!("{field} {reference:?} {problem}"),
                )
            };
            let local = (!is_remote(reference)).then(|| fleet.resolve(&path, reference));
            let fetched = match &local {
                None => true,
                Some(Ok(resolved)) => {
                    BASE_FIELDS.iter().any(|base| field.starts_with(base))
                        && std::fs::symlink_metadata(resolved).is_err()
                }
                Some(Err(_)) => false,
            };
            if fetched {
                if allow_network {
                    fetches = true;
                } else {
                    errors.push(refuse(
                        if local.is_none() {
                            "is fetched from the network by kustomize, and fedrender renders \
                             offline: vendor it into the fleet (--allow-network allows it)"
                        } else {
                            "names nothing in the fleet, and kustomize would then try to fetch it \
                             as a remote base; fedrender renders offline (--allow-network allows \
                             it)"
                        }
                        .to_string(),
                    ));
                }
                continue;
            }
            match local.expect("not remote") {
                Ok(resolved) => pending.push(resolved),
                Err(problem) => errors.push(refuse(problem)),
            }
        }
    }
    errors.finish()?;
    Ok((!fetches).then(|| seen.into_iter().collect()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kustomization_names_local_paths_in_every_field_that_takes_one() {
        let dir = std::env::temp_dir().join(format!("fedrender-refs-{}", std::process::id()));
        for path in [
            "app/overlay",
            "app/base",
            "app/patch.yaml",
            "app/overlay/cm.env",
        ] {
            let path = dir.join(path);
            if path.extension().is_some() {
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(&path, "").unwrap();
            } else {
                std::fs::create_dir_all(&path).unwrap();
            }
        }
        let kustomization = serde_json::json!({
            "resources": ["../base", "https://github.com/x/y//z", "missing.yaml"],
            "patches": [{"path": "../patch.yaml"}, {"patch": "inline"}],
            "configMapGenerator": [{"name": "c", "envs": ["cm.env"]}],
        });
        let overlay = dir.join("app/overlay");
        let references = kustomization_references(&overlay, &kustomization);
        assert_eq!(
            references,
            vec![
                dir.join("app/base"),
                dir.join("app/patch.yaml"),
                overlay.join("cm.env")
            ]
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
