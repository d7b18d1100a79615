//! The parameter overrides a repository keeps beside a source (reposerver
//! `mergeSourceParameters`): `.argocd-source.yaml`, then `.argocd-source-<app>.yaml`, each a
//! JSON merge patch over the Application's source, as Argo CD Image Updater writes them. Only
//! the tools' options may change: the repository, path, chart and revision stay the
//! Application's.

use super::api::application::ApplicationSource;
use super::repositories::Repository;

/// The file every Application of a source reads.
const SHARED_FILE: &str = ".argocd-source.yaml";

/// `source` with the overrides in `dir` (a clean path of `repository`, `""` for its root)
/// merged, and the files that were; `app` is the Application's instance name (argo
/// `InstanceName`: `NAMESPACE_NAME` outside Argo CD's own namespace). A file that is not a
/// source's fields is refused, naming it.
pub fn merge_source_overrides(
    source: &ApplicationSource,
    repository: &Repository,
    dir: &str,
    app: &str,
) -> Result<(ApplicationSource, Vec<String>), String> {
    let at = |name: &str| super::directory::join(dir, name);
    let mut merged = source.clone();
    let mut applied = Vec::new();
    for file in [at(SHARED_FILE), at(&format!(".argocd-source-{app}.yaml"))] {
        let Some(bytes) = repository.file(&file) else {
            continue;
        };
        let text = String::from_utf8_lossy(bytes);
        let shown = format!("{file} in {}", repository.url);
        let documents = crate::yaml::split_documents(&text);
        let patch = match documents.first() {
            Some(document) => crate::yaml::parse_document_as_yaml_to_json(document, &file)
                .map_err(|error| format!("{shown} does not parse: {}", error.message))?,
            None => serde_json::Value::Null,
        };
        if patch.is_null() {
            continue;
        }
        if !patch.is_object() {
            return Err(format!("{shown} is not a mapping of the source's fields"));
        }
        let mut document =
            serde_json::to_value(&merged).expect("an Application's source always serialises");
        json_patch::merge(&mut document, &patch);
        merged = serde_json::from_value(document)
            .map_err(|error| format!("{shown}: {error} (the fields of an Application's source)"))?;
        applied.push(file);
    }
    merged.chart = source.chart.clone();
    merged.path = source.path.clone();
    merged.repo_url = source.repo_url.clone();
    merged.target_revision = source.target_revision.clone();
    Ok((merged, applied))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repository(files: &[(&str, &str)]) -> Repository {
        Repository::of_texts("https://github.com/example/apps.git", "repo", files)
    }

    fn source() -> ApplicationSource {
        serde_json::from_value(serde_json::json!({
            "repoURL": "https://github.com/example/apps.git",
            "path": "apps/web",
            "targetRevision": "main",
            "kustomize": {"images": ["web:1.0"], "namePrefix": "prod-"},
        }))
        .unwrap()
    }

    // argo-cd reposerver/repository/repository_test.go TestGenerateManifestsWithAppParameterFile
    // ("Single global override", "Application specific override") over `mergeSourceParameters`:
    // the shared file is merged first, the Application's own second (it wins), each as a JSON
    // merge patch (a list is replaced whole, a null removes); repoURL, path, chart and
    // targetRevision stay.
    #[test]
    fn overrides_merge_the_shared_file_then_the_applications_own() {
        let repository = repository(&[
            (
                "apps/web/.argocd-source.yaml",
                "kustomize:\n  images: [web:2.0]\n  namePrefix: null\npath: elsewhere\n",
            ),
            (
                "apps/web/.argocd-source-web-prod.yaml",
                "kustomize:\n  images: [web:3.0, sidecar:1]\n",
            ),
            (
                "apps/web/.argocd-source-other.yaml",
                "kustomize:\n  images: [x:1]\n",
            ),
        ]);
        let (merged, applied) =
            merge_source_overrides(&source(), &repository, "apps/web", "web-prod").unwrap();
        assert_eq!(
            applied,
            [
                "apps/web/.argocd-source.yaml",
                "apps/web/.argocd-source-web-prod.yaml"
            ]
        );
        let kustomize = merged.kustomize.unwrap();
        assert_eq!(kustomize.images, ["web:3.0", "sidecar:1"]);
        assert_eq!(kustomize.name_prefix, "");
        assert_eq!(merged.path, "apps/web");
        assert_eq!(merged.target_revision, "main");
    }

    #[test]
    fn without_overrides_the_source_is_unchanged_and_a_bad_file_is_refused_by_name() {
        let repository = repository(&[("apps/web/.argocd-source.yaml", "")]);
        let (merged, applied) =
            merge_source_overrides(&source(), &repository, "apps/web", "web").unwrap();
        assert_eq!(merged, source());
        assert!(applied.is_empty());
        let repository = repository_with("kustomise:\n  images: [web:2.0]\n");
        let error = merge_source_overrides(&source(), &repository, "apps/web", "web").unwrap_err();
        assert!(error.contains("apps/web/.argocd-source.yaml"), "{error}");
        assert!(error.contains("kustomise"), "{error}");
        let repository = repository_with("- web:2.0\n");
        let error = merge_source_overrides(&source(), &repository, "apps/web", "web").unwrap_err();
        assert!(error.contains("is not a mapping"), "{error}");
    }

    fn repository_with(text: &str) -> Repository {
        repository(&[("apps/web/.argocd-source.yaml", text)])
    }
}
