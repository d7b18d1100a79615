//! What each Application of an Argo CD fleet deploys, and where: its project enforced and its
//! destination resolved to a cluster of the inventory ([`crate::argocd::project`]), its source
//! found in a mapped checkout and read as the repo server reads it. A plain directory's
//! manifests come back as files and a kustomization or chart as a directory for the shell's
//! tools, each with the Application that deploys it.

use std::sync::Arc;

use super::api::application::{Application, ApplicationSource};
use super::api::project::AppProject;
use super::build_env::{BuildEnv, BuildEnvOf};
use super::cluster::ArgoCluster;
use super::directory::{self, SourceKind};
use super::helm::{Chart, helm_options};
use super::kustomize_options::{self, EditedKustomization};
use super::project::check_application;
use super::repositories::Repositories;
use super::source_overrides::merge_source_overrides;
use crate::api::source::HelmSource;
use crate::diagnostics::{Diagnostic, FieldLines, Origin, Rejected};
use crate::documents::{Format, SourceFile};

/// Where one Application's objects go.
#[derive(Debug, Clone, PartialEq)]
pub struct ApplicationTarget {
    /// `Application argocd/guestbook`, as messages and plans name it.
    pub application: String,
    /// Where the Application is written (or the ApplicationSet that generated it).
    pub origin: Origin,
    /// The destination cluster's name.
    pub cluster: String,
    /// `destination.namespace`: what its namespaced objects that name none are deployed to.
    pub namespace: Option<String>,
    /// What `plan` says of the Application: what generated it, its source, its destination;
    /// shared by every object it deploys.
    pub notes: Arc<[String]>,
    /// Whether this is the destination namespace Argo CD creates (`CreateNamespace=true`)
    /// rather than an object of the source: several Applications may create one namespace,
    /// and a Namespace a source holds wins.
    pub created_namespace: bool,
}

/// One manifest file an Application deploys.
#[derive(Debug)]
pub struct DeployedFile {
    /// The file, named by its checkout's directory and its path in the repository.
    pub file: SourceFile,
    /// The Application that deploys it.
    pub target: ApplicationTarget,
}

/// A source a tool renders (kustomize or Helm, run by the shell as it runs the fleet's own),
/// with the Application whose objects its output is.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolDeployment {
    /// The Application, and where it deploys.
    pub target: ApplicationTarget,
    /// Kustomize or Helm.
    pub kind: SourceKind,
    /// The directory to render: the checkout's directory joined with the source's path.
    pub dir: String,
    /// How `helm template` renders a chart, as Argo CD's repo server runs it: the release is
    /// the Application's name (or `helm.releaseName`), its namespace the destination's.
    pub helm: HelmSource,
    /// The kustomization with the Application's kustomize options applied, which the shell
    /// builds in a copy of the checkout; `None` builds the directory as it is.
    pub kustomization: Option<EditedKustomization>,
    /// The checkout's directory, which `kustomization`'s path is relative to.
    pub checkout: String,
}

/// What the Applications deploy: the manifest files of their plain directories, and the
/// sources a tool renders.
#[derive(Debug, Default)]
pub struct Deployments {
    /// Every plain directory's manifest files.
    pub files: Vec<DeployedFile>,
    /// Every kustomize and Helm source.
    pub tools: Vec<ToolDeployment>,
}

/// An Application to deploy: where it is written, and the line of each of its fields (none
/// for one an ApplicationSet generated: its messages point at the ApplicationSet).
#[derive(Debug, Clone)]
pub struct Written {
    /// The Application.
    pub application: Application,
    /// Where it is written.
    pub origin: Origin,
    /// Its fields' lines.
    pub fields: FieldLines,
    /// What generated it (`ApplicationSet argocd/web, spec.generators[0], with {…}`), for one an
    /// ApplicationSet generated.
    pub generated_by: Option<String>,
}

/// What one source is: its manifest files, or a directory a tool renders.
enum Source {
    Files(Vec<SourceFile>),
    Tool(Box<ToolInput>),
}

/// A source a tool renders, as [`ToolDeployment`] names it.
struct ToolInput {
    kind: SourceKind,
    dir: String,
    helm: HelmSource,
    kustomization: Option<EditedKustomization>,
    checkout: String,
}

/// A rendered source, and what `plan` says of how: its kind, the options applied and the
/// override files merged.
struct Rendered {
    source: Source,
    how: String,
}

/// A problem with one of an Application's fields: the field (`spec.source.repoURL`) and what.
type Problem = (&'static str, String);

/// Every Application's manifest files and tool sources, in the order of the Applications and
/// then of the files. An Application Argo CD would not deploy (an unknown project, a
/// destination or source its project does not permit, a cluster not in the inventory), and one
/// whose source cannot be rendered offline, is an error at its field's line naming it; two
/// generated or written Applications with one name are an error naming both. Every such
/// Application is reported.
pub fn deploy(
    applications: &[Written],
    projects: &[AppProject],
    clusters: &[ArgoCluster],
    repositories: &Repositories,
) -> Result<Deployments, Rejected> {
    let mut deployed = Deployments::default();
    let mut errors = Vec::new();
    let mut seen: std::collections::BTreeMap<(String, String), &Origin> = Default::default();
    for written in applications {
        let application = &written.application;
        let name = display_name(application);
        let key = (
            namespace(application).to_string(),
            application.metadata.name.clone(),
        );
        if let Some(first) = seen.get(&key) {
            errors.push(Diagnostic::error(
                Some(written.origin.clone()),
                format!("{name} is also defined at {first}; an Application has one definition"),
            ));
            continue;
        }
        seen.insert(key, &written.origin);
        let unsupported = application.spec.unsupported_fields();
        if let Some(field) = unsupported.first() {
            errors.push(Diagnostic::error(
                Some(
                    written
                        .fields
                        .origin(&written.origin, &format!("spec.{field}")),
                ),
                format!("{name}: spec.{field}: fedrender does not implement this field"),
            ));
            continue;
        }
        let cluster =
            match check_application(application, projects, clusters, Some(&written.origin)) {
                Ok(cluster) => cluster,
                Err(refusals) => {
                    errors.extend(refusals);
                    continue;
                }
            };
        let namespace = Some(application.spec.destination.namespace.clone())
            .filter(|namespace| !namespace.is_empty());
        let mut notes: Vec<String> = written.generated_by.iter().cloned().collect();
        notes.push(format!(
            "destination: cluster {} ({}), namespace {}",
            cluster.name,
            cluster.server,
            namespace
                .as_deref()
                .unwrap_or("(none: objects keep theirs, else default)")
        ));
        let mut target = ApplicationTarget {
            application: name.clone(),
            origin: written.origin.clone(),
            cluster: cluster.name.clone(),
            namespace,
            notes: Arc::from([]),
            created_namespace: false,
        };
        let sources = match sources_of(application, &target, repositories) {
            Ok(sources) => sources,
            Err((field, problem)) => {
                errors.push(Diagnostic::error(
                    Some(written.fields.origin(&written.origin, field)),
                    format!("{name}: {problem}"),
                ));
                continue;
            }
        };
        notes.extend(
            sources
                .iter()
                .map(|(source, rendered)| source_note(source, &rendered.how)),
        );
        target.notes = notes.into();
        if let Some(file) = created_namespace(application, &target) {
            deployed.files.push(DeployedFile {
                file,
                target: ApplicationTarget {
                    created_namespace: true,
                    ..target.clone()
                },
            });
        }
        for (_, rendered) in sources {
            match rendered.source {
                Source::Files(files) => {
                    deployed
                        .files
                        .extend(files.into_iter().map(|file| DeployedFile {
                            file,
                            target: target.clone(),
                        }));
                }
                Source::Tool(tool) => {
                    let ToolInput {
                        kind,
                        dir,
                        helm,
                        kustomization,
                        checkout,
                    } = *tool;
                    deployed.tools.push(ToolDeployment {
                        target: target.clone(),
                        kind,
                        dir,
                        helm,
                        kustomization,
                        checkout,
                    });
                }
            }
        }
    }
    match errors.is_empty() {
        true => Ok(deployed),
        false => Err(errors.into()),
    }
}

/// The destination namespace as Argo CD creates it when the Application syncs with
/// `CreateNamespace=true` (gitops-engine's sync `createNamespace`), with
/// `syncPolicy.managedNamespaceMetadata`'s labels and annotations.
fn created_namespace(application: &Application, target: &ApplicationTarget) -> Option<SourceFile> {
    let namespace = target.namespace.as_deref()?;
    if !application.spec.creates_namespace() {
        return None;
    }
    let managed = application
        .spec
        .sync_policy
        .as_ref()
        .and_then(|policy| policy.get("managedNamespaceMetadata"));
    let mut metadata = serde_json::json!({ "name": namespace });
    for field in ["labels", "annotations"] {
        if let Some(values) = managed
            .and_then(|managed| managed.get(field))
            .filter(|v| v.is_object())
        {
            metadata[field] = values.clone();
        }
    }
    let object = serde_json::json!({"apiVersion": "v1", "kind": "Namespace", "metadata": metadata});
    Some(SourceFile::new(
        format!("{} (CreateNamespace=true)", target.application).into(),
        object.to_string(),
        Format::Json,
    ))
}

/// `source: REPO, path P (KIND)`, as `plan` says it.
fn source_note(source: &ApplicationSource, kind: &str) -> String {
    let path = match source.path.as_str() {
        "" => ".",
        path => path,
    };
    format!("source: {}, path {path} ({kind})", source.repo_url)
}

/// `Application NAMESPACE/NAME`, as messages name it.
fn display_name(application: &Application) -> String {
    format!(
        "Application {}/{}",
        namespace(application),
        application.metadata.name
    )
}

/// The namespace an Application is written in; Argo CD's own, `argocd`, when none is.
fn namespace(application: &Application) -> &str {
    match application.metadata.namespace.as_str() {
        "" => "argocd",
        namespace => namespace,
    }
}

/// Every source the Application renders (`spec.sources` when set, else `spec.source`; argo
/// `GetSources`), each rendered: their objects are deployed together. A source that only names
/// a `ref` renders nothing of its own (its files are for another source's value files).
fn sources_of<'a>(
    application: &'a Application,
    target: &ApplicationTarget,
    repositories: &Repositories,
) -> Result<Vec<(&'a ApplicationSource, Rendered)>, Problem> {
    let sources = application.spec.effective_sources();
    if sources.is_empty() {
        return Err(("spec", "it has no spec.source".to_string()));
    }
    // Argo CD resolves `$ref` value files only among an Application's `sources`.
    let references: Vec<(String, &ApplicationSource)> = application
        .spec
        .sources
        .iter()
        .filter(|source| !source.reference.is_empty())
        .map(|source| (format!("${}", source.reference), source))
        .collect();
    let mut rendered = Vec::new();
    for source in sources {
        if !source.reference.is_empty() && source.path.is_empty() && source.chart.is_empty() {
            continue;
        }
        rendered.push((
            source,
            source_files(application, source, target, repositories, &references)?,
        ));
    }
    Ok(rendered)
}

/// The manifest files of one source, or the directory a tool renders, or why it cannot be
/// rendered offline. The repository's `.argocd-source*.yaml` overrides are merged first, as
/// the repo server merges them before it decides what the source is.
fn source_files(
    application: &Application,
    written: &ApplicationSource,
    target: &ApplicationTarget,
    repositories: &Repositories,
    references: &[(String, &ApplicationSource)],
) -> Result<Rendered, Problem> {
    if !written.chart.is_empty() {
        return Err((
            "spec.source.chart",
            format!(
                "spec.source.chart: {} is a Helm repository, which fedrender never fetches from",
                written.repo_url
            ),
        ));
    }
    if written.repo_url.starts_with("oci://") {
        return Err((
            "spec.source.repoURL",
            format!(
                "spec.source.repoURL {} is an OCI registry, which fedrender never fetches from",
                written.repo_url
            ),
        ));
    }
    let repository = repositories.find(&written.repo_url).ok_or_else(|| {
        (
            "spec.source.repoURL",
            format!(
                "spec.source.repoURL {} is not mapped to a checkout: add it to the Config's \
                 spec.argocd.repositories (fedrender never fetches)",
                written.repo_url
            ),
        )
    })?;
    let shown_path = written.path.as_str();
    let path = app_path(shown_path)?;
    let path = path.as_str();
    if !path.is_empty() && repository.file(path).is_some() {
        return Err((
            "spec.source.path",
            format!("spec.source.path {shown_path:?}: app path is not a directory"),
        ));
    }
    if !path.is_empty() && !repository.has_directory(path) {
        return Err((
            "spec.source.path",
            format!(
                "spec.source.path {shown_path:?}: app path does not exist in {}",
                repository.url
            ),
        ));
    }
    let (source, overrides) =
        merge_source_overrides(written, repository, path, &instance_name(application))
            .map_err(|problem| ("spec.source", problem))?;
    if let Some(field) = source.unsupported_fields().first() {
        return Err((
            "spec.source",
            format!(
                "spec.source.{field} (set by {}): fedrender does not implement this field",
                overrides.join(", ")
            ),
        ));
    }
    let overridden = match overrides.is_empty() {
        true => String::new(),
        false => format!(", overridden by {}", overrides.join(" and ")),
    };
    let env = BuildEnv::new(BuildEnvOf {
        app_name: &instance_name(application),
        namespace: target.namespace.as_deref().unwrap_or_default(),
        project: &application.spec.project,
        repo_url: &source.repo_url,
        path: &source.path,
        target_revision: &source.target_revision,
    });
    let checkout = repository.path.trim_end_matches('/').to_string();
    // A source's type is the one option it sets (`ExplicitType`), else what its directory
    // holds; two are Argo CD's error.
    let explicit: Vec<(&str, SourceKind)> = [
        (
            "Kustomize",
            source.kustomize.is_some(),
            SourceKind::Kustomize,
        ),
        ("Helm", source.helm.is_some(), SourceKind::Helm),
        (
            "Directory",
            source.directory.is_some(),
            SourceKind::Directory,
        ),
    ]
    .into_iter()
    .filter(|(_, set, _)| *set)
    .map(|(name, _, kind)| (name, kind))
    .collect();
    let kind = match explicit.as_slice() {
        [] => directory::source_kind(repository, path),
        [(_, kind)] => *kind,
        several => {
            let names: Vec<&str> = several.iter().map(|(name, _)| *name).collect();
            return Err((
                "spec.source",
                format!(
                    "spec.source: multiple application sources defined: {}{overridden}",
                    names.join(",")
                ),
            ));
        }
    };
    if kind == SourceKind::Directory {
        let options = source.directory.clone().unwrap_or_default();
        let files = directory::manifest_files(repository, path, &options)
            .map_err(|problem| ("spec.source.directory", problem))?;
        let files = files
            .into_iter()
            .map(|(file, text)| {
                let format = match file.ends_with(".json") {
                    true => Format::Json,
                    false => Format::Yaml,
                };
                SourceFile::new(
                    format!("{checkout}/{file}").into(),
                    text.to_string(),
                    format,
                )
            })
            .collect();
        return Ok(Rendered {
            source: Source::Files(files),
            how: format!("directory{overridden}"),
        });
    }
    let dir = match path {
        "" => checkout.clone(),
        path => format!("{checkout}/{path}"),
    };
    let mut tool = ToolInput {
        kind,
        dir,
        helm: HelmSource::default(),
        kustomization: None,
        checkout,
    };
    let how = match kind {
        SourceKind::Kustomize => {
            let options = source.kustomize.clone().unwrap_or_default();
            tool.kustomization = kustomize_options::edit(repository, path, &options, &env)
                .map_err(|(field, problem)| {
                    let field = match field {
                        "" => "spec.source.kustomize",
                        field => kustomize_field(field),
                    };
                    (field, format!("{field}: {problem}"))
                })?;
            match &tool.kustomization {
                Some(edited) => {
                    format!("kustomize, with {}{overridden}", edited.applied.join(", "))
                }
                None => format!("kustomize{overridden}"),
            }
        }
        _ => {
            let chart = Chart {
                repository,
                dir: path,
                repositories,
                references: references.to_vec(),
                env: &env,
            };
            tool.helm = helm_options(
                &application.metadata.name,
                target.namespace.as_deref(),
                source.helm.as_ref(),
                &chart,
            )?;
            format!(
                "Helm chart, release {}{overridden}",
                tool.helm.release_name.as_deref().unwrap_or_default()
            )
        }
    };
    Ok(Rendered {
        source: Source::Tool(Box::new(tool)),
        how,
    })
}

/// `spec.source.kustomize.FIELD`, for a field the kustomize options name.
fn kustomize_field(field: &str) -> &'static str {
    match field {
        "images" => "spec.source.kustomize.images",
        "replicas" => "spec.source.kustomize.replicas",
        "commonLabels" => "spec.source.kustomize.commonLabels",
        "commonAnnotations" => "spec.source.kustomize.commonAnnotations",
        "namespace" => "spec.source.kustomize.namespace",
        "patches" => "spec.source.kustomize.patches",
        "components" => "spec.source.kustomize.components",
        _ => "spec.source.kustomize",
    }
}

/// argo `InstanceName`: the Application's name, `NAMESPACE_NAME` outside Argo CD's own
/// namespace; what `.argocd-source-<app>.yaml` and `$ARGOCD_APP_NAME` name.
fn instance_name(application: &Application) -> String {
    match namespace(application) {
        "argocd" => application.metadata.name.clone(),
        namespace => format!("{namespace}_{}", application.metadata.name),
    }
}

/// The source's directory in the checkout as the repo server finds it (util/app/path `Path`:
/// `filepath.Join(root, path)`, which cleans `.`, `..` and doubled slashes, then refuses an
/// absolute path or one outside the root); `""` for the root itself.
fn app_path(path: &str) -> Result<String, Problem> {
    if path.starts_with('/') {
        return Err((
            "spec.source.path",
            format!("spec.source.path {path:?}: app path is absolute"),
        ));
    }
    let mut pieces: Vec<&str> = Vec::new();
    for piece in path.split('/') {
        match piece {
            "" | "." => {}
            ".." => {
                if pieces.pop().is_none() {
                    return Err((
                        "spec.source.path",
                        format!("spec.source.path {path:?} leads outside the repository"),
                    ));
                }
            }
            piece => pieces.push(piece),
        }
    }
    Ok(pieces.join("/"))
}

#[cfg(test)]
mod tests {
    use super::app_path;

    // argo-cd util/app/path/path.go `Path` (path_test.go TestPathRoot, TestPathAbsolute,
    // TestPathDotDot): the path is joined to the checkout and cleaned, so `./a//b/` is `a/b`
    // and `a/../b` is `b`; an absolute path or one that climbs out of the root is refused.
    #[test]
    fn a_source_path_is_cleaned_as_filepath_join_cleans_it() {
        assert_eq!(app_path("./guestbook//ui/").unwrap(), "guestbook/ui");
        assert_eq!(app_path("apps/../guestbook").unwrap(), "guestbook");
        assert_eq!(app_path(".").unwrap(), "");
        assert_eq!(app_path("").unwrap(), "");
        assert!(
            app_path("/guestbook")
                .unwrap_err()
                .1
                .contains("app path is absolute")
        );
        assert!(
            app_path("apps/../../x")
                .unwrap_err()
                .1
                .contains("leads outside the repository")
        );
    }
}
