//! The source declaration: how a directory of the fleet is rendered into templates, written
//! beside what it renders in a file named [`DECLARATION_FILE`]. The Helm words are Argo CD's
//! (`Application.spec.source.helm`):
//!
//! ```yaml
//! apiVersion: fedrender.io/v1alpha1
//! kind: Source
//! spec:
//!   helm:                                   # the Helm chart in this directory
//!     releaseName: web                      # default: the directory's name
//!     namespace: shop                       # .Release.Namespace
//!     valueFiles: [values-prod.yaml]        # relative to this directory, in order
//!     valuesObject: {replicaCount: 3}       # after the value files, so it wins
//!     kubeVersion: "1.31.0"                 # .Capabilities.KubeVersion
//!     apiVersions: [monitoring.coreos.com/v1]
//!     skipCrds: false                       # true leaves out the chart's crds/ directory
//!     skipTests: false                      # keep test hooks (left out by default)
//! ---
//! apiVersion: fedrender.io/v1alpha1
//! kind: Source
//! spec:
//!   command: [jsonnet, --yaml-stream, main.jsonnet]   # argv, run here; needs --allow-exec
//! ```

use serde::Deserialize;
use serde_json::Value;

use super::meta::ObjectMeta;

/// The declaration's file name; a directory holding one is a source.
pub const DECLARATION_FILE: &str = "fedrender-source.yaml";

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SourceDeclaration {
    pub api_version: String,
    pub kind: String,
    #[serde(default)]
    pub metadata: ObjectMeta,
    pub spec: SourceSpec,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SourceSpec {
    #[serde(default)]
    pub helm: Option<HelmSource>,
    #[serde(default)]
    pub command: Option<Vec<String>>,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct HelmSource {
    #[serde(default)]
    pub release_name: Option<String>,
    #[serde(default)]
    pub namespace: Option<String>,
    #[serde(default)]
    pub value_files: Vec<String>,
    #[serde(default)]
    pub values_object: Option<Value>,
    #[serde(default)]
    pub kube_version: Option<String>,
    #[serde(default)]
    pub api_versions: Vec<String>,
    #[serde(default)]
    pub skip_crds: bool,
    /// `true` passes `--skip-tests` to helm; `false` keeps the chart's test hooks, which
    /// fedrender otherwise leaves out (`helm install` never creates them).
    #[serde(default)]
    pub skip_tests: Option<bool>,
}

/// Fields that would fetch a chart from a repository or registry, which fedrender never does.
pub const REMOTE_CHART_FIELDS: [&str; 4] = ["repoURL", "chart", "targetRevision", "version"];
