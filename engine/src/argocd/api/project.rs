//! Argo CD's `AppProject` (argoproj.io/v1alpha1, pkg/apis/application/v1alpha1
//! app_project_types.go and types.go), with its JSON names; an unknown field is an error.
//!
//! Read: `sourceRepos`, `destinations`, `permitOnlyProjectScopedClusters`, the cluster and
//! namespace resource white- and blacklists, `sourceNamespaces`. Accepted and without effect on
//! what a cluster receives offline: `description`, `roles` (who may do what in Argo CD),
//! `syncWindows` (when syncs run), `orphanedResources` (warnings about live objects),
//! `signatureKeys` and `sourceIntegrity` (commit signature checks on a live repository),
//! `destinationServiceAccounts` (whom Argo CD impersonates), `status`.

use serde::Deserialize;
use serde_json::Value;

use super::application::ApplicationDestination;
use crate::api::meta::ObjectMeta;

/// The kind of an AppProject.
pub const APP_PROJECT_KIND: &str = "AppProject";

/// An `AppProject`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct AppProject {
    /// `apiVersion`.
    #[serde(default)]
    pub api_version: String,
    /// `kind`.
    #[serde(default)]
    pub kind: String,
    /// `metadata`: its name is what an Application's `spec.project` names.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// `spec`.
    #[serde(default)]
    pub spec: AppProjectSpec,
    /// `status`; not read.
    #[serde(default)]
    pub status: Option<Value>,
}

/// `AppProjectSpec`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct AppProjectSpec {
    /// `sourceRepos`: globs of the repositories Applications may read, `!` denying.
    #[serde(default)]
    pub source_repos: Vec<String>,
    /// `destinations`: the clusters (`server` or `name` glob) and namespaces (glob)
    /// Applications may deploy to, `!` denying.
    #[serde(default)]
    pub destinations: Vec<ApplicationDestination>,
    /// `description`.
    #[serde(default)]
    pub description: Option<String>,
    /// `roles`: nothing offline.
    #[serde(default)]
    pub roles: Option<Value>,
    /// `clusterResourceWhitelist`: the cluster-scoped kinds Applications may deploy (none when
    /// empty).
    #[serde(default)]
    pub cluster_resource_whitelist: Vec<ClusterResourceRestrictionItem>,
    /// `namespaceResourceBlacklist`.
    #[serde(default)]
    pub namespace_resource_blacklist: Vec<GroupKind>,
    /// `orphanedResources`: nothing offline.
    #[serde(default)]
    pub orphaned_resources: Option<Value>,
    /// `syncWindows`: nothing offline.
    #[serde(default)]
    pub sync_windows: Option<Value>,
    /// `namespaceResourceWhitelist`: every namespaced kind when absent, none when empty.
    #[serde(default)]
    pub namespace_resource_whitelist: Option<Vec<GroupKind>>,
    /// `signatureKeys`: nothing offline.
    #[serde(default)]
    pub signature_keys: Option<Value>,
    /// `clusterResourceBlacklist`.
    #[serde(default)]
    pub cluster_resource_blacklist: Vec<ClusterResourceRestrictionItem>,
    /// `sourceNamespaces`: the namespaces, besides Argo CD's own, Applications of this
    /// project may live in.
    #[serde(default)]
    pub source_namespaces: Vec<String>,
    /// `permitOnlyProjectScopedClusters`: only the clusters whose Secret names this project.
    #[serde(default)]
    pub permit_only_project_scoped_clusters: bool,
    /// `destinationServiceAccounts`: nothing offline.
    #[serde(default)]
    pub destination_service_accounts: Option<Value>,
    /// `sourceIntegrity`: nothing offline.
    #[serde(default)]
    pub source_integrity: Option<Value>,
}

/// `metav1.GroupKind`, globbed as `filepath.Match` globs.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct GroupKind {
    /// `group`.
    #[serde(default)]
    pub group: String,
    /// `kind`.
    #[serde(default)]
    pub kind: String,
}

/// `ClusterResourceRestrictionItem`: a group, a kind and, optionally, a name.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ClusterResourceRestrictionItem {
    /// `group`.
    #[serde(default)]
    pub group: String,
    /// `kind`.
    #[serde(default)]
    pub kind: String,
    /// `name`: a glob of the object's name; empty is any.
    #[serde(default)]
    pub name: String,
}
