//! What each Application of an Argo CD fleet deploys, and where: its destination resolved to a
//! cluster of the inventory, its source found in a mapped checkout and read as the repo server
//! reads it. The manifests come back as files, each with the Application that deploys it, for
//! the fleet to read as it reads every file.

use std::sync::Arc;

use super::application::{Application, ApplicationSource, destination_cluster};
use super::cluster::ArgoCluster;
use super::directory::{self, SourceKind};
use super::repositories::Repositories;
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
    /// The Application's name: Helm's release name, as Argo CD names the release by default.
    pub release_name: String,
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

/// What one source is: its manifest files, or a directory a tool renders.
enum Source {
    Files(Vec<SourceFile>),
    Tool { kind: SourceKind, dir: String },
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
}

/// A problem with one of an Application's fields: the field (`spec.source.repoURL`) and what.
type Problem = (&'static str, String);

/// Every Application's manifest files, in the order of the Applications and then of the
/// files; an Application that cannot be deployed is an error at its field's line, naming it,
/// and every such Application is reported.
pub fn deploy(
    applications: &[Written],
    clusters: &[ArgoCluster],
    repositories: &Repositories,
) -> Result<Deployments, Rejected> {
    let mut deployed = Deployments::default();
    let mut errors = Vec::new();
    for written in applications {
        let name = written.application.display_name();
        match deploy_one(
            &written.application,
            &written.origin,
            clusters,
            repositories,
        ) {
            Ok((target, Source::Files(files))) => {
                deployed
                    .files
                    .extend(files.into_iter().map(|file| DeployedFile {
                        file,
                        target: target.clone(),
                    }));
            }
            Ok((target, Source::Tool { kind, dir })) => deployed.tools.push(ToolDeployment {
                target,
                kind,
                dir,
                release_name: written.application.metadata.name.clone(),
            }),
            Err((field, problem)) => errors.push(Diagnostic::error(
                Some(written.fields.origin(&written.origin, field)),
                format!("{name}: {problem}"),
            )),
        }
    }
    match errors.is_empty() {
        true => Ok(deployed),
        false => Err(errors.into()),
    }
}

fn deploy_one(
    application: &Application,
    origin: &Origin,
    clusters: &[ArgoCluster],
    repositories: &Repositories,
) -> Result<(ApplicationTarget, Source), Problem> {
    let cluster = destination_cluster(&application.spec.destination, clusters)
        .map_err(|problem| ("spec.destination", problem))?;
    let target = ApplicationTarget {
        application: application.display_name(),
        origin: origin.clone(),
        cluster: cluster.name.clone(),
        namespace: application
            .spec
            .destination
            .namespace
            .clone()
            .filter(|namespace| !namespace.is_empty()),
    };
    let source = match (&application.spec.source, &application.spec.sources) {
        (Some(_), Some(_)) => {
            return Err((
                "spec.source",
                "spec.source and spec.sources are both set; Argo CD reads only spec.sources \
                 then: remove spec.source"
                    .to_string(),
            ));
        }
        (None, None) => return Err(("spec", "it has no spec.source".to_string())),
        (None, Some(_)) => {
            return Err((
                "spec.sources",
                "spec.sources: fedrender renders an Application's single spec.source, not \
                 several sources yet"
                    .to_string(),
            ));
        }
        (Some(source), None) => source,
    };
    Ok((target, source_files(source, repositories)?))
}

/// The manifest files of one source, or why it cannot be rendered offline.
fn source_files(
    source: &ApplicationSource,
    repositories: &Repositories,
) -> Result<Source, Problem> {
    if source.chart.is_some() {
        return Err((
            "spec.source.chart",
            format!(
                "spec.source.chart: {} is a Helm repository, which fedrender never fetches from",
                source.repo_url
            ),
        ));
    }
    if source.repo_url.starts_with("oci://") {
        return Err((
            "spec.source.repoURL",
            format!(
                "spec.source.repoURL {} is an OCI registry, which fedrender never fetches from",
                source.repo_url
            ),
        ));
    }
    for (field, name, set) in [
        ("spec.source.helm", "helm", source.helm.is_some()),
        (
            "spec.source.kustomize",
            "kustomize",
            source.kustomize.is_some(),
        ),
        ("spec.source.plugin", "plugin", source.plugin.is_some()),
    ] {
        if set {
            return Err((
                field,
                format!(
                    "{field}: fedrender renders an Application's directory, kustomize and Helm \
                     sources as they are so far, not {name} options"
                ),
            ));
        }
    }
    let repository = repositories.find(&source.repo_url).ok_or_else(|| {
        (
            "spec.source.repoURL",
            format!(
                "spec.source.repoURL {} is not mapped to a checkout: add it to the Config's \
                 spec.argocd.repositories (fedrender never fetches)",
                source.repo_url
            ),
        )
    })?;
    let path = source.path.as_deref().unwrap_or("");
    if path.split('/').any(|piece| piece == "..") || path.starts_with('/') {
        return Err((
            "spec.source.path",
            format!("spec.source.path {path:?} leads outside the repository"),
        ));
    }
    let directory = source.directory.clone().unwrap_or_default();
    let checkout: Arc<str> = Arc::from(repository.path.trim_end_matches('/'));
    // An explicit `directory` makes the source a directory, whatever it holds (the
    // Application's source type wins over discovery).
    if let kind @ (SourceKind::Kustomize | SourceKind::Helm) =
        directory::source_kind(repository, path)
        && source.directory.is_none()
    {
        let dir = match path.trim_matches('/') {
            "" | "." => checkout.to_string(),
            path => format!("{checkout}/{path}"),
        };
        return Ok(Source::Tool { kind, dir });
    }
    let files = directory::manifest_files(repository, path, &directory)
        .map_err(|problem| ("spec.source.directory", problem))?;
    Ok(Source::Files(
        files
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
            .collect(),
    ))
}
