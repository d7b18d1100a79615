//! Where kustomize says each object of a build was written, so that a message about one points
//! at the file and line its author edits rather than at a line of kustomize's output.
//!
//! A kustomization that asks for `buildMetadata: [originAnnotations]` gives each object an
//! annotation `config.kubernetes.io/origin` naming the file it came from (`path:`, relative to
//! the directory built; kustomize api/resource/origin.go). The path is the build's to write,
//! and so the pull request's: it is followed only to a YAML file inside the fleet. Within the
//! file, the object is the document of its kind whose name is the one kustomize began from
//! (before `namePrefix`, `nameSuffix` or a hash): the only one of its kind, or the one whose
//! name is the longest found in the object's name. An object whose origin is another
//! repository, a generator, or a file where no such document is found keeps its line in the
//! output.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::Value;

use crate::confine::Confinement;
use fedrender_engine::documents::{self, Format, RawDocument, SourceFile, WrittenAt};

/// The annotation kustomize writes with `buildMetadata: [originAnnotations]`.
const ORIGIN_ANNOTATION: &str = "config.kubernetes.io/origin";

/// Where each object of `output` (a build of the kustomize directory `built`) was written, in
/// the order the engine reads them; empty when no object says.
pub fn written_at(
    output: &SourceFile,
    built: &Path,
    fleet: &Confinement,
) -> Vec<Option<Arc<WrittenAt>>> {
    if !output.text.contains(ORIGIN_ANNOTATION) {
        return Vec::new();
    }
    let (objects, _) = documents::parse_files(std::slice::from_ref(output));
    let mut sources: HashMap<PathBuf, (SourceFile, Vec<RawDocument>)> = HashMap::new();
    let origins: Vec<Option<Arc<WrittenAt>>> = objects
        .iter()
        .map(|object| {
            let path = origin_path(&object.value)?;
            let file = fleet.resolve(built, &path).ok()?;
            if !sources.contains_key(&file) {
                sources.insert(file.clone(), documents_of(&file));
            }
            let (source, documents) = &sources[&file];
            let written = matching_document(&object.value, documents)?;
            written
                .written_at(std::slice::from_ref(source))
                .map(Arc::new)
        })
        .collect();
    if origins.iter().all(Option::is_none) {
        return Vec::new();
    }
    origins
}

/// The `path:` an object's origin annotation names, when it names a file of this repository
/// (no `repo:`, which names another).
fn origin_path(object: &Value) -> Option<String> {
    let annotation = object
        .pointer("/metadata/annotations")?
        .get(ORIGIN_ANNOTATION)?
        .as_str()?;
    let (parsed, _) = documents::parse_files(&[documents::source_from_text(
        ORIGIN_ANNOTATION,
        annotation.to_string(),
    )]);
    let origin = &parsed.first()?.value;
    if origin.get("repo").is_some() {
        return None;
    }
    origin.get("path")?.as_str().map(str::to_string)
}

/// The YAML file `path`, as the user names it, and its documents; none for a file that is
/// not a regular YAML file or does not read.
fn documents_of(path: &Path) -> (SourceFile, Vec<RawDocument>) {
    let name = Arc::from(path.display().to_string());
    let text = (documents::format_of(path) == Some(Format::Yaml)
        && std::fs::metadata(path).is_ok_and(|metadata| metadata.is_file()))
    .then(|| std::fs::read_to_string(path).ok())
    .flatten()
    .unwrap_or_default();
    let file = SourceFile::new(name, text, Format::Yaml);
    let (documents, _) = documents::parse_files(std::slice::from_ref(&file));
    (file, documents)
}

/// The document of `written` that `object` was built from: of its apiVersion and kind, the
/// only one, or the one whose name is the longest found in the object's name.
fn matching_document<'a>(object: &Value, written: &'a [RawDocument]) -> Option<&'a RawDocument> {
    fn text<'v>(value: &'v Value, pointer: &str) -> Option<&'v str> {
        value.pointer(pointer).and_then(Value::as_str)
    }
    let same_kind: Vec<&RawDocument> = written
        .iter()
        .filter(|document| {
            ["/apiVersion", "/kind"]
                .iter()
                .all(|field| text(&document.value, field) == text(object, field))
        })
        .collect();
    if let [only] = same_kind[..] {
        return Some(only);
    }
    let name = object.pointer("/metadata/name")?.as_str()?;
    let mut named: Vec<(&RawDocument, usize)> = same_kind
        .into_iter()
        .filter_map(|document| {
            let written_name = text(&document.value, "/metadata/name")?;
            name.contains(written_name)
                .then_some((document, written_name.len()))
        })
        .collect();
    named.sort_by_key(|(_, length)| std::cmp::Reverse(*length));
    match named[..] {
        [(document, _)] => Some(document),
        [(document, longest), (_, next), ..] if longest > next => Some(document),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn written(documents: &[Value]) -> Vec<RawDocument> {
        let text = documents
            .iter()
            .map(|document| serde_json::to_string(document).unwrap())
            .collect::<Vec<_>>()
            .join("\n---\n");
        documents::parse_files(&[documents::source_from_text("base/all.yaml", text)]).0
    }

    fn object(kind: &str, name: &str) -> Value {
        json!({"apiVersion": "v1", "kind": kind, "metadata": {"name": name}})
    }

    /// kustomize's namePrefix and nameSuffix add to the name it began from; the document
    /// whose name is the longest found in the built name is the one it began from.
    #[test]
    fn the_document_is_found_by_kind_and_the_name_kustomize_began_from() {
        let base = written(&[
            object("ConfigMap", "web"),
            object("ConfigMap", "web-extra"),
            object("Service", "web"),
        ]);
        let found = |kind: &str, name: &str| {
            matching_document(&object(kind, name), &base).map(|document| document.origin.document)
        };
        assert_eq!(found("Service", "eu-anything"), Some(2), "the only Service");
        assert_eq!(found("ConfigMap", "eu-web-extra-v2"), Some(1));
        assert_eq!(found("ConfigMap", "eu-web-v2"), Some(0));
        assert_eq!(found("ConfigMap", "other"), None);
        assert_eq!(found("Secret", "web"), None);
    }

    /// kustomize api/resource/origin.go: a resource of a remote base names its `repo`, a
    /// generated one `configuredIn` instead of `path`; neither is a file of this fleet.
    #[test]
    fn only_a_path_of_this_repository_is_followed() {
        let with = |origin: &str| json!({"metadata": {"annotations": {ORIGIN_ANNOTATION: origin}}});
        assert_eq!(
            origin_path(&with("path: ../base/deploy.yaml\n")).as_deref(),
            Some("../base/deploy.yaml")
        );
        assert_eq!(
            origin_path(&with(
                "path: deploy.yaml\nrepo: https://github.com/x/y\nref: v1\n"
            )),
            None
        );
        assert_eq!(
            origin_path(&with(
                "configuredIn: kustomization.yaml\nconfiguredBy:\n  kind: ConfigMapGenerator\n"
            )),
            None
        );
        assert_eq!(origin_path(&json!({"metadata": {}})), None);
    }
}
