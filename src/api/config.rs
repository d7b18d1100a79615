//! fedrender's own configuration, read from the input directory like any other document:
//!
//! ```yaml
//! apiVersion: fedrender.io/v1alpha1
//! kind: Config
//! spec:
//!   workloads:                        # kinds whose replicas Karmada would divide
//!   - apiVersion: argoproj.io/v1alpha1
//!     kind: Rollout
//!     replicas: /spec/replicas        # JSON pointer to the replica field
//!     podTemplate: /spec/template     # optional: pod template (requests, dependencies)
//!   clusterScoped:                    # kinds without a namespace whose CRD is not in the input
//!   - apiVersion: example.com/v1
//!     kind: Widget
//!   lints:                            # lint levels: allow, warn or deny
//!     unknown-cluster: deny
//!   sources:
//!     kustomize: [kustomize, build]   # builds kustomize directories (needs allowExec)
//!     allowExec: false                # lets declared commands run, like --allow-exec
//! ```

use std::collections::BTreeMap;

use serde::Deserialize;

use super::meta::ObjectMeta;
use crate::lint::Level;

pub const CONFIG_API_VERSION: &str = "fedrender.io/v1alpha1";

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Config {
    pub api_version: String,
    pub kind: String,
    #[serde(default)]
    pub metadata: ObjectMeta,
    pub spec: ConfigSpec,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ConfigSpec {
    #[serde(default)]
    pub workloads: Vec<WorkloadDeclaration>,
    #[serde(default)]
    pub cluster_scoped: Vec<KindReference>,
    /// Levels by lint name; the command line's `--deny`, `--warn` and `--allow` beat them.
    #[serde(default)]
    pub lints: BTreeMap<String, Level>,
    #[serde(default)]
    pub sources: SourcesConfig,
}

/// How sources that a tool renders are run.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SourcesConfig {
    /// The command that builds a kustomize directory, the directory appended; runs only
    /// where commands may (`--allow-exec` or `allowExec`), since the fleet names it.
    #[serde(default)]
    pub kustomize: Option<Vec<String>>,
    /// Lets declared command sources run, like `--allow-exec`.
    #[serde(default)]
    pub allow_exec: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct WorkloadDeclaration {
    pub api_version: String,
    pub kind: String,
    pub replicas: String,
    #[serde(default)]
    pub pod_template: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct KindReference {
    pub api_version: String,
    pub kind: String,
}
