//! AppProjects enforced as Argo CD enforces them on an Application (util/argo argo.go
//! `ValidatePermissions`, `GetDestinationServer`; pkg/apis/application/v1alpha1
//! app_project_types.go `IsSourcePermitted`, `IsDestinationPermitted`,
//! `IsGroupKindNamePermitted`), and the destination found among the clusters Argo CD knows: an
//! Application Argo CD would refuse is an error naming it, as Argo CD never deploys it.
//!
//! The project `default` exists even when the fleet does not define it, as Argo CD creates it:
//! any repository, any destination, any kind. A project's `sourceNamespaces` are not checked:
//! whether an Application may live outside Argo CD's own namespace depends on the
//! installation's namespace, which a fleet does not say.

use crate::argocd::api::application::{
    Application, ApplicationDestination, ApplicationSource, DEFAULT_PROJECT,
};
use crate::argocd::api::project::{
    AppProject, AppProjectSpec, ClusterResourceRestrictionItem, GroupKind,
};
use crate::argocd::cluster::ArgoCluster;
use crate::argocd::glob;
use crate::argocd::repositories::normalize_git_url;
use crate::diagnostics::{Diagnostic, Origin};

/// The project Argo CD creates when it starts and none is named `default` (settings
/// `initializeDefaultProject`): every repository, destination and cluster-scoped kind.
pub fn default_project() -> AppProject {
    let mut project = AppProject::default();
    project.metadata.name = DEFAULT_PROJECT.to_string();
    project.spec = AppProjectSpec {
        source_repos: vec!["*".to_string()],
        destinations: vec![ApplicationDestination {
            server: "*".to_string(),
            namespace: "*".to_string(),
            name: "*".to_string(),
        }],
        cluster_resource_whitelist: vec![ClusterResourceRestrictionItem {
            group: "*".to_string(),
            kind: "*".to_string(),
            name: String::new(),
        }],
        ..Default::default()
    };
    project
}

/// Whether Argo CD deploys `app`: its project exists (`default` always does), its sources are
/// complete and permitted, its destination names one cluster of `clusters` and the project
/// permits it. The destination's cluster, or every reason it is refused, each at `origin` and
/// naming the Application. `clusters` are every cluster Argo CD knows, the local `in-cluster`
/// among them unless a Secret names its server ([`ArgoCluster::in_cluster`]).
pub fn check_application<'a>(
    app: &Application,
    projects: &[AppProject],
    clusters: &'a [ArgoCluster],
    origin: Option<&Origin>,
) -> Result<&'a ArgoCluster, Vec<Diagnostic>> {
    let namespace = match app.metadata.namespace.as_str() {
        "" => "argocd",
        namespace => namespace,
    };
    let name = format!("{namespace}/{}", app.metadata.name);
    let error = |message: String| {
        Diagnostic::error(
            origin.cloned(),
            format!("Application {name}: {message}; Argo CD does not deploy it"),
        )
    };
    let project_name = match app.spec.project.as_str() {
        "" => DEFAULT_PROJECT,
        named => named,
    };
    let fallback;
    let project = match projects.iter().find(|p| p.metadata.name == project_name) {
        Some(project) => project,
        None if project_name == DEFAULT_PROJECT => {
            fallback = default_project();
            &fallback
        }
        None => {
            return Err(vec![error(format!(
                "application references project {project_name} which does not exist"
            ))]);
        }
    };
    let mut errors = Vec::new();
    let sources = app.spec.effective_sources();
    let several = !app.spec.sources.is_empty();
    if sources.is_empty() {
        errors.push(error(
            "spec.source.repoURL and either spec.source.path or spec.source.chart are required"
                .to_string(),
        ));
    }
    for source in sources {
        if let Some(problem) = source_problem(source, several) {
            errors.push(error(problem));
            break;
        }
        if !is_source_permitted(project, source) {
            errors.push(error(format!(
                "application repo {} is not permitted in project '{project_name}'",
                source.repo_url
            )));
        }
    }
    let destination = &app.spec.destination;
    match destination_cluster(destination, clusters) {
        Err(message) => errors.push(error(format!(
            "application destination spec is invalid: {message}"
        ))),
        Ok(cluster) => {
            if !is_destination_permitted(project, cluster, &destination.namespace, clusters) {
                let server = if destination.name.is_empty() {
                    &cluster.server
                } else {
                    &cluster.name
                };
                errors.push(error(format!(
                    "application destination server '{server}' and namespace '{}' do not match \
                     any of the allowed destinations in project '{project_name}'",
                    destination.namespace
                )));
            } else if errors.is_empty() {
                return Ok(cluster);
            }
        }
    }
    Err(errors)
}

/// argo `validateSourcePermissions`.
fn source_problem(source: &ApplicationSource, several: bool) -> Option<String> {
    if several {
        if source.repo_url.is_empty()
            || (source.path.is_empty() && source.chart.is_empty() && source.reference.is_empty())
        {
            return Some(format!(
                "spec.source.repoURL and either source.path, source.chart, or source.ref are \
                 required for source {}",
                serde_json::to_string(source).expect("a source serialises")
            ));
        }
    } else if source.repo_url.is_empty() || (source.path.is_empty() && source.chart.is_empty()) {
        return Some(
            "spec.source.repoURL and either spec.source.path or spec.source.chart are required"
                .to_string(),
        );
    }
    (!source.chart.is_empty() && source.target_revision.is_empty()).then(|| {
        "spec.source.targetRevision is required if the manifest source is a helm chart".to_string()
    })
}

/// argo `GetDestinationServer` and `db.GetCluster`: the one cluster a destination names.
pub fn destination_cluster<'a>(
    destination: &ApplicationDestination,
    clusters: &'a [ArgoCluster],
) -> Result<&'a ArgoCluster, String> {
    if !destination.name.is_empty() && !destination.server.is_empty() {
        return Err(format!(
            "application destination can't have both name and server defined: {} {}",
            destination.name, destination.server
        ));
    }
    if !destination.server.is_empty() {
        let server = destination.server.trim_end_matches('/');
        return clusters
            .iter()
            .find(|cluster| cluster.server.trim_end_matches('/') == server)
            .ok_or_else(|| {
                format!(
                    "error getting cluster by server {:?}: no cluster of the inventory has this \
                     server",
                    destination.server
                )
            });
    }
    if !destination.name.is_empty() {
        let named: Vec<&ArgoCluster> = clusters
            .iter()
            .filter(|cluster| cluster.name == destination.name)
            .collect();
        return match named.as_slice() {
            [] => Err(format!(
                "there are no clusters with this name: {}",
                destination.name
            )),
            [one] => Ok(one),
            several => Err(format!(
                "there are {} clusters with the same name: [{}]",
                several.len(),
                several
                    .iter()
                    .map(|c| c.server.as_str())
                    .collect::<Vec<_>>()
                    .join(" ")
            )),
        };
    }
    Err("Destination server missing from app spec".to_string())
}

/// app_project_types.go `globMatch`: `!` negates when negation is allowed, `*` is everything.
fn glob_match(pattern: &str, value: &str, allow_negation: bool, separators: &[char]) -> bool {
    if allow_negation && let Some(denied) = pattern.strip_prefix('!') {
        return !glob::matches(denied, value, separators);
    }
    pattern == "*" || glob::matches(pattern, value, separators)
}

fn is_deny_pattern(pattern: &str) -> bool {
    pattern.starts_with('!')
}

/// `IsSourcePermitted`: some `sourceRepos` glob (`/` its separator, URLs normalised as Argo CD
/// normalises Git URLs) matches, and no `!` pattern fails to.
pub fn is_source_permitted(project: &AppProject, source: &ApplicationSource) -> bool {
    let wanted = url_form(&source.repo_url);
    let mut any = false;
    for pattern in &project.spec.source_repos {
        let normalized = match pattern.strip_prefix('!') {
            Some(denied) => format!("!{}", url_form(denied)),
            None => url_form(pattern),
        };
        if glob_match(&normalized, &wanted, true, &['/']) {
            any = true;
        } else if is_deny_pattern(&normalized) {
            return false;
        }
    }
    any
}

/// util/git `NormalizeGitURL` with what Go's `net/url` round trip does to a path that holds a
/// character a URL path may not (`{`, `}`, `^`, `|`, a space …): the whole path is escaped
/// again, `*`, `!`, `(` and `[` included. So a `sourceRepos` pattern written with braces
/// (`https://github.com/org/{a,b}`) is compared escaped and matches no repository, as in Argo CD.
fn url_form(url: &str) -> String {
    let normalized = normalize_git_url(url);
    let path_start = match normalized.find("://") {
        Some(scheme) => normalized[scheme + 3..]
            .find('/')
            .map(|slash| scheme + 3 + slash),
        None => normalized.find('/'),
    };
    let Some(path_start) = path_start else {
        return normalized;
    };
    let path_end = normalized[path_start..]
        .find(['?', '#'])
        .map_or(normalized.len(), |end| path_start + end);
    let path = &normalized[path_start..path_end];
    // url.URL.EscapedPath keeps the path as written when each of its bytes may stand in one
    // (validEncoded), which holds for every ordinary repository URL.
    let written_is_valid = path
        .bytes()
        .all(|byte| byte.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@[]/%".contains(&byte));
    if written_is_valid || path.contains('%') {
        return normalized;
    }
    let mut escaped = String::with_capacity(path.len() * 3);
    for byte in path.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~$&+,/:;=@".contains(&byte) {
            escaped.push(byte as char);
        } else {
            escaped.push_str(&format!("%{byte:02X}"));
        }
    }
    format!(
        "{}{escaped}{}",
        &normalized[..path_start],
        &normalized[path_end..]
    )
}

/// `IsDestinationPermitted` for the destination `cluster` and `namespace`; with
/// `permitOnlyProjectScopedClusters`, the cluster must also be one whose Secret names the
/// project.
pub fn is_destination_permitted(
    project: &AppProject,
    cluster: &ArgoCluster,
    namespace: &str,
    clusters: &[ArgoCluster],
) -> bool {
    let destination = ApplicationDestination {
        server: cluster.server.clone(),
        name: cluster.name.clone(),
        namespace: namespace.to_string(),
    };
    let matched = is_destination_matched(&project.spec, &destination);
    if matched && project.spec.permit_only_project_scoped_clusters {
        return clusters.iter().any(|scoped| {
            scoped.project.as_deref() == Some(project.metadata.name.as_str())
                && (scoped.name == destination.name || scoped.server == destination.server)
        });
    }
    matched
}

/// `isDestinationMatched`, its deny rules as Go's precedence reads them: a destination is
/// refused by a `!` name, or by a `!` server whose namespace matches, or by a `!` namespace
/// whose server matches.
fn is_destination_matched(spec: &AppProjectSpec, destination: &ApplicationDestination) -> bool {
    let mut any = false;
    for item in &spec.destinations {
        let name_matched =
            !destination.name.is_empty() && glob_match(&item.name, &destination.name, true, &[]);
        let server_matched = !destination.server.is_empty()
            && glob_match(&item.server, &destination.server, true, &[]);
        let namespace_matched = glob_match(&item.namespace, &destination.namespace, true, &[]);
        if (server_matched || name_matched) && namespace_matched {
            any = true;
        } else if (!name_matched && is_deny_pattern(&item.name))
            || (!server_matched && is_deny_pattern(&item.server) && namespace_matched)
            || (!namespace_matched && is_deny_pattern(&item.namespace) && server_matched)
        {
            return false;
        }
    }
    any
}

/// `IsGroupKindNamePermitted`: a namespaced kind is permitted unless
/// `namespaceResourceWhitelist` is set and lacks it or `namespaceResourceBlacklist` has it; a
/// cluster-scoped one only when `clusterResourceWhitelist` has it (by group, kind and name
/// globs) and `clusterResourceBlacklist` does not.
pub fn is_group_kind_permitted(
    project: &AppProject,
    group: &str,
    kind: &str,
    name: &str,
    namespaced: bool,
) -> bool {
    let spec = &project.spec;
    let listed = |list: &[GroupKind]| {
        list.iter()
            .any(|item| glob::path_match(&item.kind, kind) && glob::path_match(&item.group, group))
    };
    let named = |list: &[ClusterResourceRestrictionItem]| {
        list.iter().any(|item| {
            glob::path_match(&item.kind, kind)
                && glob::path_match(&item.group, group)
                && (item.name.is_empty() || glob::path_match(&item.name, name))
        })
    };
    if namespaced {
        let white = spec
            .namespace_resource_whitelist
            .as_deref()
            .is_none_or(&listed);
        return white && !listed(&spec.namespace_resource_blacklist);
    }
    named(&spec.cluster_resource_whitelist) && !named(&spec.cluster_resource_blacklist)
}

#[cfg(test)]
mod tests;
