//! An Application's source when it is a plain directory, as Argo CD's repo server finds its
//! manifests (reposerver/repository `getPotentiallyValidManifests`, `findManifests`): the
//! `.yaml`, `.yml` and `.json` files of the directory (and beneath it, with `recurse`), minus
//! what `exclude` matches, of what `include` matches, minus files carrying the
//! `+argocd:skip-file-rendering` marker. Jsonnet is refused: fedrender does not evaluate it.
//! Which kind of source a directory is (a kustomization, a chart, a directory) is decided as
//! the repo server's discovery decides it.

use super::api::application::ApplicationSourceDirectory as DirectorySource;
use super::glob;
use super::repositories::Repository;

/// The names kustomize reads a kustomization from, in its order (kustomize api/konfig
/// `RecognizedKustomizationFileNames`).
pub const KUSTOMIZATION_FILES: [&str; 3] =
    ["kustomization.yaml", "kustomization.yml", "Kustomization"];

/// What the repo server makes of a source directory (reposerver/repository discovery, `Discover`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SourceKind {
    /// A `kustomization.yaml`, `kustomization.yml` or `Kustomization` in it.
    Kustomize,
    /// A `Chart.yaml` in it.
    Helm,
    /// Anything else: its manifests as written.
    Directory,
}

/// The kind of the source at `path` of `repository`, as discovery decides it when the
/// Application names none (kustomize first, then Helm).
pub fn source_kind(repository: &Repository, path: &str) -> SourceKind {
    let at = |file: &str| repository.file(&join(path, file)).is_some();
    if KUSTOMIZATION_FILES.iter().any(|name| at(name)) {
        SourceKind::Kustomize
    } else if at("Chart.yaml") {
        SourceKind::Helm
    } else {
        SourceKind::Directory
    }
}

/// The marker a file carries to be left out (`skipFileRenderingMarker`).
pub const SKIP_MARKER: &str = "+argocd:skip-file-rendering";

/// The manifest files of the directory source at `path`, each as its path in the repository
/// and its text, in path order; or an error in words (a Jsonnet file, a file that is not
/// UTF-8).
pub fn manifest_files<'r>(
    repository: &'r Repository,
    path: &str,
    options: &DirectorySource,
) -> Result<Vec<(&'r str, &'r str)>, String> {
    if options.jsonnet.is_some() {
        return Err("directory.jsonnet: fedrender does not evaluate Jsonnet".to_string());
    }
    // util/glob `Match` without separators: `*` crosses `/`; a pattern that does not compile
    // matches nothing.
    let matches = |pattern: &str, text: &str| glob::matches(pattern, text, &[]);
    let root = path.trim_matches('/');
    let files: Box<dyn Iterator<Item = (&str, &[u8])>> = match root {
        "" | "." => Box::new(repository.files()),
        root => Box::new(repository.files_under(root)),
    };
    let mut found = Vec::new();
    for (file, bytes) in files {
        let relative = match root {
            "" | "." => file,
            root => &file[root.len() + 1..],
        };
        if !options.recurse && relative.contains('/') {
            continue;
        }
        let name = relative.rsplit('/').next().unwrap_or(relative);
        let manifest = [".yaml", ".yml", ".json", ".jsonnet"]
            .iter()
            .any(|extension| name.ends_with(extension) && name.len() > extension.len());
        if !manifest
            || (!options.exclude.is_empty() && matches(&options.exclude, relative))
            || (!options.include.is_empty() && !matches(&options.include, relative))
        {
            continue;
        }
        if name.ends_with(".jsonnet") {
            return Err(format!(
                "{file} is Jsonnet, which fedrender does not evaluate: exclude it (directory.exclude)"
            ));
        }
        let text = std::str::from_utf8(bytes).map_err(|_| format!("{file} is not UTF-8 text"))?;
        if text.contains(SKIP_MARKER) {
            continue;
        }
        found.push((file, text));
    }
    Ok(found)
}

/// `file` in `directory` of a repository (`""` or `.` for its root).
pub(crate) fn join(directory: &str, file: &str) -> String {
    match directory.trim_matches('/') {
        "" | "." => file.to_string(),
        directory => format!("{directory}/{file}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repository(files: &[(&str, &str)]) -> Repository {
        Repository::of_texts("https://git.example.com/apps", "apps", files)
    }

    // argo-cd reposerver/repository repository_test.go TestFindResources,
    // TestFindManifests_Exclude / _Include, TestGenerateManifests_SkipFileRendering.
    #[test]
    fn a_directory_source_reads_its_manifests_as_the_repo_server_does() {
        let repo = repository(&[
            ("guestbook/deploy.yaml", "kind: Deployment"),
            ("guestbook/svc.json", "{}"),
            ("guestbook/README.md", "# no"),
            ("guestbook/nested/extra.yml", "kind: ConfigMap"),
            ("guestbook/skip.yaml", "# +argocd:skip-file-rendering"),
            ("other/x.yaml", "kind: Secret"),
        ]);
        let names = |options: DirectorySource| -> Vec<&str> {
            manifest_files(&repo, "guestbook", &options)
                .unwrap()
                .into_iter()
                .map(|(path, _)| path)
                .collect()
        };
        assert_eq!(
            names(DirectorySource::default()),
            ["guestbook/deploy.yaml", "guestbook/svc.json"]
        );
        let recurse = DirectorySource {
            recurse: true,
            ..DirectorySource::default()
        };
        assert_eq!(
            names(recurse.clone()),
            [
                "guestbook/deploy.yaml",
                "guestbook/nested/extra.yml",
                "guestbook/svc.json"
            ]
        );
        assert_eq!(
            names(DirectorySource {
                include: "*.yaml".into(),
                ..recurse.clone()
            }),
            ["guestbook/deploy.yaml"]
        );
        assert_eq!(
            names(DirectorySource {
                exclude: "nested/*".into(),
                ..recurse
            }),
            ["guestbook/deploy.yaml", "guestbook/svc.json"]
        );
    }

    #[test]
    fn jsonnet_is_refused_and_discovery_finds_kustomize_before_helm() {
        let repo = repository(&[
            ("app/main.jsonnet", "{}"),
            ("k/kustomization.yaml", ""),
            ("k/Chart.yaml", ""),
            ("h/Chart.yaml", ""),
        ]);
        assert!(
            manifest_files(&repo, "app", &DirectorySource::default())
                .unwrap_err()
                .contains("app/main.jsonnet is Jsonnet")
        );
        assert_eq!(source_kind(&repo, "k"), SourceKind::Kustomize);
        assert_eq!(source_kind(&repo, "h"), SourceKind::Helm);
        assert_eq!(source_kind(&repo, "app"), SourceKind::Directory);
    }
}
