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

/// A `fedrender-source.yaml`: a directory whose objects a tool renders (a Helm chart, a declared command).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SourceDeclaration {
    /// `fedrender.io/v1alpha1`.
    pub api_version: String,
    /// `Source`.
    pub kind: String,
    /// Its name.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// What renders the directory.
    pub spec: SourceSpec,
}

/// `spec` of a source declaration: one of `helm` and `command`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SourceSpec {
    /// `helm`: the directory is a chart, rendered with `helm template`.
    #[serde(default)]
    pub helm: Option<HelmSource>,
    /// `command`: a command that prints the directory's objects (only with `--allow-exec`).
    #[serde(default)]
    pub command: Option<Vec<String>>,
}

/// `spec.helm`: how `helm template` renders the chart, in Argo CD's words.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct HelmSource {
    /// `releaseName`: the release's name (default: the directory's).
    #[serde(default)]
    pub release_name: Option<String>,
    /// `namespace`: the release's namespace.
    #[serde(default)]
    pub namespace: Option<String>,
    /// `valueFiles`: value files in the chart's directory, in order.
    #[serde(default)]
    pub value_files: Vec<String>,
    /// `valuesObject`: inline values, which win over the files.
    #[serde(default)]
    pub values_object: Option<Value>,
    /// `kubeVersion`: the Kubernetes version the chart is rendered for.
    #[serde(default)]
    pub kube_version: Option<String>,
    /// `apiVersions`: the API versions the chart may assume.
    #[serde(default)]
    pub api_versions: Vec<String>,
    /// `skipCrds`: leave the chart's CRDs out.
    #[serde(default)]
    pub skip_crds: bool,
    /// `true` passes `--skip-tests` to helm; `false` keeps the chart's test hooks, which
    /// fedrender otherwise leaves out (`helm install` never creates them).
    #[serde(default)]
    pub skip_tests: Option<bool>,
}

/// Fields that would fetch a chart from a repository or registry, which fedrender never does.
pub const REMOTE_CHART_FIELDS: [&str; 4] = ["repoURL", "chart", "targetRevision", "version"];
