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
    /// What only an Argo CD Application's `helm` sets; a declaration cannot.
    #[serde(skip)]
    pub argo_cd: ArgoCdHelmOptions,
}

/// The `helm template` flags an Argo CD Application's `helm` adds to a declaration's.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ArgoCdHelmOptions {
    /// `parameters` and `fileParameters`, in the order they are passed.
    pub set: Vec<HelmSet>,
    /// `skipSchemaValidation`: `--skip-schema-validation`.
    pub skip_schema_validation: bool,
}

/// One `--set`, `--set-string` or `--set-file` value.
#[derive(Debug, Clone, PartialEq)]
pub struct HelmSet {
    /// How the value is read.
    pub kind: HelmSetKind,
    /// The value's path in the chart's values (`image.tag`).
    pub name: String,
    /// The value, escaped as Argo CD escapes it; for a file, its path from the chart's directory.
    pub value: String,
}

/// How helm reads a [`HelmSet`]'s value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum HelmSetKind {
    /// `--set`: typed as YAML types it (`true`, `3`).
    Value,
    /// `--set-string`: always a string (`forceString`).
    String,
    /// `--set-file`: the contents of a file.
    File,
}

impl HelmSetKind {
    /// The flag that passes it.
    pub fn flag(self) -> &'static str {
        match self {
            HelmSetKind::Value => "--set",
            HelmSetKind::String => "--set-string",
            HelmSetKind::File => "--set-file",
        }
    }
}

/// Fields that would fetch a chart from a repository or registry, which fedrender never does.
pub const REMOTE_CHART_FIELDS: [&str; 4] = ["repoURL", "chart", "targetRevision", "version"];
