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
//!     kustomize: [kustomize, build]   # builds kustomize directories (runs only with --allow-exec)
//!   kubernetesVersion: "1.33"         # checks clusters that state no status.kubernetesVersion
//!   karmada:                          # the release policies are judged by, and its gates
//!     version: "1.19"
//!     featureGates: {MultiClusterService: true}
//!     scheduler:                      # karmada-scheduler's flags fedrender models
//!       enableEmptyWorkloadPropagation: true
//!   # Flags a team always passes, read from a Config directly in FLEET_DIR; flags win.
//!   clusters: clusters.yaml           # --clusters, relative to FLEET_DIR
//!   output: ../rendered               # build --out, relative to FLEET_DIR
//!   gitops: {tool: argocd, repoURL: https://git.example.com/fleet.git, revision: main, path: rendered,
//!            memberHPAs: true}                # also --gitops-member-hpas
//!   secrets:                          # each cluster's keys (api/secret_keys.rs)
//!     sops: [{clusterSelector: {matchLabels: {env: prod}}, recipients: [age1…]}]
//!     sealedSecrets: [{clusterSelector: {matchLabels: {env: prod}}, certificate: "AB:CD:…"}]
//!   diff:                             # diff --ignore-field / --ignore-resource, added to the flags
//!     ignoreFields: [apps/Deployment=/spec/replicas]
//!     ignoreResources: [":ConfigMap:*/generated-*"]
//!   review:                           # who a change touches (review_groups.rs)
//!     groups:                         # clusters by label selector, as a cluster affinity's
//!     - name: production
//!       clusterSelector: {matchLabels: {env: prod}}
//!     owners:                         # the teams that approve a change touching a group
//!       production: ["@org/sre"]
//! ```

use std::collections::BTreeMap;

use serde::Deserialize;

use super::meta::{LabelSelector, ObjectMeta};
use crate::lint::Level;

/// The API version of fedrender's own `Config`.
pub const CONFIG_API_VERSION: &str = "fedrender.io/v1alpha1";

/// fedrender's `Config`: what a fleet says about how it is rendered, in place of flags.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Config {
    /// `fedrender.io/v1alpha1`.
    pub api_version: String,
    /// `Config`.
    pub kind: String,
    /// Its name.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// What it sets.
    pub spec: ConfigSpec,
}

/// `spec` of a Config.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ConfigSpec {
    /// `workloads`: kinds that are workloads although Karmada does not know them, with where their replicas are.
    #[serde(default)]
    pub workloads: Vec<WorkloadDeclaration>,
    /// `clusterScoped`: custom kinds that are cluster-scoped (no namespace).
    #[serde(default)]
    pub cluster_scoped: Vec<KindReference>,
    /// Levels by lint name; the command line's `--deny`, `--warn` and `--allow` beat them.
    #[serde(default)]
    pub lints: BTreeMap<String, Level>,
    /// `sources`: how sources that a tool renders are run.
    #[serde(default)]
    pub sources: SourcesConfig,
    /// The Kubernetes version to check objects of clusters that state none against
    /// (`--kubernetes-version` beats it, a cluster's `status.kubernetesVersion` too).
    #[serde(default)]
    pub kubernetes_version: Option<String>,
    /// The inventory, for commands not given `--clusters`; relative to `FLEET_DIR`. Read
    /// only from a Config in a file directly in `FLEET_DIR`, as are `output` and `gitops`.
    #[serde(default)]
    pub clusters: Option<String>,
    /// `build`'s output directory when `--out` is not given; relative to `FLEET_DIR`.
    #[serde(default)]
    pub output: Option<String>,
    /// `build --gitops` settings when the command line gives none.
    #[serde(default)]
    pub gitops: Option<GitopsConfig>,
    /// The keys each cluster opens secrets with, by cluster selector (docs/secrets.md).
    #[serde(default)]
    pub secrets: Option<super::secret_keys::SecretsConfig>,
    /// What `diff` hides, as its flags would.
    #[serde(default)]
    pub diff: Option<DiffConfig>,
    /// The Karmada release and feature gates policies are judged by.
    #[serde(default)]
    pub karmada: Option<KarmadaConfig>,
    /// Who a change touches: groups of clusters and their owners, for `diff`'s first screen.
    #[serde(default)]
    pub review: Option<ReviewConfig>,
    /// Argo CD ApplicationSet fleets: the repositories their Applications and generators read.
    #[serde(default)]
    pub argocd: Option<ArgoCdConfig>,
}

/// `spec.argocd`: what Argo CD would fetch, mapped to what the checkout already holds.
/// Read only from a Config directly in `FLEET_DIR`, as `clusters` and `output` are.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ArgoCdConfig {
    /// `repositories`: each Git repository URL an Application or a git generator names, and the
    /// directory (relative to `FLEET_DIR`, inside the repository) that stands for it. A URL
    /// matches as Argo CD compares Git URLs (case, a trailing `.git`, the SSH forms).
    #[serde(default)]
    pub repositories: Vec<RepositoryMapping>,
    /// `newGitFileGlobbing`: git generators' paths globbed as the ApplicationSet controller's
    /// `--enable-new-git-file-globbing` globs them (`**` across directories, `*` within one);
    /// by default `*` also matches `/`, as Argo CD's default does.
    #[serde(default)]
    pub new_git_file_globbing: bool,
}

/// One of `spec.argocd.repositories`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RepositoryMapping {
    /// `url`: the repository as Applications name it (`https://github.com/org/apps.git`).
    pub url: String,
    /// `path`: the directory that holds its checkout, relative to `FLEET_DIR`.
    pub path: String,
}

/// `spec.review`: the groups of clusters a team routes approvals by (an environment, a region,
/// a ring), each a label selector over the inventory's labels, and the owners of each group.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ReviewConfig {
    /// `groups`, in the order reports list them.
    #[serde(default)]
    pub groups: Vec<ReviewGroup>,
    /// `owners`: by group name, the GitHub users and teams (`@org/sre`) that approve a change
    /// touching it.
    #[serde(default)]
    pub owners: BTreeMap<String, Vec<String>>,
}

/// One of `spec.review.groups`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ReviewGroup {
    /// `name`: the group, as reports and `owners` name it.
    pub name: String,
    /// `clusterSelector`: the clusters in it, read as a cluster affinity's `labelSelector`.
    pub cluster_selector: LabelSelector,
}

/// `spec.karmada`: the release (`--karmada-version` beats it; default: the newest fedrender
/// knows) and the feature gates turned on or off, as Karmada's `--feature-gates` takes them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct KarmadaConfig {
    /// `version`: the Karmada release (`v1.14`).
    #[serde(default)]
    pub version: Option<String>,
    /// `featureGates`: gates turned on (`true`) or off.
    #[serde(default)]
    pub feature_gates: BTreeMap<String, bool>,
    /// `scheduler`: karmada-scheduler's flags that change where templates go. Only the ones
    /// fedrender models are fields, so any other is refused at its line as an unknown field.
    #[serde(default)]
    pub scheduler: SchedulerConfig,
}

/// `spec.karmada.scheduler`: karmada-scheduler's command-line flags, by their Helm chart names.
/// Any other setting is kept, to be refused at its line ([`SchedulerConfig::refusals`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SchedulerConfig {
    /// `enableEmptyWorkloadPropagation`: `--enable-empty-workload-propagation` (karmada
    /// cmd/scheduler/app/options/options.go, since v1.3; the chart's
    /// `scheduler.enableEmptyWorkloadPropagation` since v1.19). Every cluster the scheduler
    /// selects keeps the workload, at 0 replicas where the division gives it none.
    #[serde(default)]
    pub enable_empty_workload_propagation: bool,
    /// Every other setting written, by name: each an error.
    #[serde(flatten)]
    pub unmodelled: BTreeMap<String, serde_json::Value>,
}

/// The settings fedrender models under `spec.karmada.scheduler`.
const SCHEDULER_SETTINGS: &[&str] = &["enableEmptyWorkloadPropagation"];

/// karmada-scheduler's flags (cmd/scheduler/app/options/options.go at f8fdd02, written as the
/// chart names them) that change where templates go and that fedrender does not model, each
/// with why.
const UNMODELLED_SCHEDULER_FLAGS: &[(&str, &str, &str)] = &[
    (
        "enableSchedulerEstimator",
        "--enable-scheduler-estimator",
        "the accurate estimator asks each member's karmada-scheduler-estimator about its \
         nodes, which an offline render cannot; fedrender estimates from the inventory's \
         resourceSummary as the general estimator does",
    ),
    (
        "disableSchedulerEstimatorInPullMode",
        "--disable-scheduler-estimator-in-pull-mode",
        "it acts only with the accurate estimator, which fedrender does not run",
    ),
    (
        "plugins",
        "--plugins",
        "fedrender runs every in-tree filter and score plugin, as the default `*` does",
    ),
    (
        "schedulerName",
        "--scheduler-name",
        "fedrender schedules every binding, as the one default-scheduler does",
    ),
    (
        "featureGates",
        "--feature-gates",
        "spec.karmada.featureGates sets the gates for the whole control plane",
    ),
];

impl SchedulerConfig {
    /// Each setting written that fedrender does not model, with the message that refuses it.
    pub fn refusals(&self) -> Vec<(&str, String)> {
        self.unmodelled
            .keys()
            .map(|name| {
                let message = match UNMODELLED_SCHEDULER_FLAGS
                    .iter()
                    .find(|(setting, _, _)| setting == name)
                {
                    Some((_, flag, why)) => format!(
                        "karmada-scheduler's {flag} is not modelled by fedrender: {why}; \
                         fedrender models {}",
                        SCHEDULER_SETTINGS.join(", ")
                    ),
                    None => {
                        let near =
                            crate::edit_distance::nearest(name, SCHEDULER_SETTINGS.iter().copied());
                        format!(
                            "unknown setting `{name}`{}; fedrender models {}",
                            crate::edit_distance::hint(
                                near,
                                crate::edit_distance::Hint::InParentheses
                            ),
                            SCHEDULER_SETTINGS.join(", ")
                        )
                    }
                };
                (name.as_str(), message)
            })
            .collect()
    }
}

impl ConfigSpec {
    /// The fields that stand in for command-line flags, by name, that this Config sets.
    pub fn flag_fields(&self) -> Vec<&'static str> {
        [
            ("clusters", self.clusters.is_some()),
            ("output", self.output.is_some()),
            ("gitops", self.gitops.is_some()),
            ("diff", self.diff.is_some()),
            ("review", self.review.is_some()),
            ("argocd", self.argocd.is_some()),
        ]
        .into_iter()
        .filter_map(|(field, set)| set.then_some(field))
        .collect()
    }
}

/// `diff --ignore-field` and `--ignore-resource` in a Config, written as the flags are: the
/// Config's rules and the command line's all apply.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DiffConfig {
    /// `[GROUP/KIND[/NAMESPACE/NAME]=]JSON_POINTER`, each.
    #[serde(default)]
    pub ignore_fields: Vec<String>,
    /// `GROUP:KIND:NAMESPACE/NAME`, each.
    #[serde(default)]
    pub ignore_resources: Vec<String>,
}

/// `build --gitops`, `--gitops-repo`, `--gitops-revision` and `--gitops-path` in a Config.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct GitopsConfig {
    /// `tool`: `Argocd` or `Flux`.
    pub tool: GitopsTool,
    /// `repoURL`: the repository Argo CD or Flux clone.
    #[serde(rename = "repoURL")]
    pub repo_url: String,
    /// `revision`: the branch or revision (default `main`).
    #[serde(default)]
    pub revision: Option<String>,
    /// The output directory's path in the repository.
    pub path: String,
    /// `memberHPAs`: keep each FederatedHPA on the members as HorizontalPodAutoscalers
    /// (`--gitops-member-hpas`).
    #[serde(default, rename = "memberHPAs")]
    pub member_hpas: bool,
}

/// Which GitOps tool deploys the trees: `spec.gitops.tool`, and `--gitops` in the shell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GitopsTool {
    /// Argo CD: an ApplicationSet with one Application per cluster.
    #[serde(rename = "argocd")]
    ArgoCd,
    /// Flux: a GitRepository and one Kustomization per cluster.
    Flux,
}

/// How sources that a tool renders are run.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SourcesConfig {
    /// The command that builds a kustomize directory, the directory appended; runs only
    /// with `--allow-exec`, since the fleet names it.
    #[serde(default)]
    pub kustomize: Option<Vec<String>>,
    /// Refused when true: only `--allow-exec` lets commands run, since a pull request
    /// can change a Config. Read so that the refusal names the field.
    #[serde(default)]
    pub allow_exec: bool,
}

/// One of `spec.workloads`: a kind with replicas that Karmada does not know.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct WorkloadDeclaration {
    /// The kind's apiVersion.
    pub api_version: String,
    /// The kind.
    pub kind: String,
    /// Where its replicas are, a dotted path (`spec.replicas`).
    pub replicas: String,
    /// Where its pod template is, when it has one (`spec.template`).
    #[serde(default)]
    pub pod_template: Option<String>,
}

/// A kind, by apiVersion and kind.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct KindReference {
    /// The kind's apiVersion.
    pub api_version: String,
    /// The kind.
    pub kind: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scheduler(settings: serde_json::Value) -> SchedulerConfig {
        serde_json::from_value(settings).unwrap()
    }

    // karmada cmd/scheduler/app/options/options.go AddFlags: --enable-empty-workload-propagation
    // is the one flag fedrender models; the others that change placement are named, with why,
    // and a misspelling of the modelled one gets its nearest name.
    #[test]
    fn only_empty_workload_propagation_is_modelled() {
        let modelled = scheduler(serde_json::json!({"enableEmptyWorkloadPropagation": true}));
        assert!(modelled.enable_empty_workload_propagation);
        assert!(modelled.refusals().is_empty());
        let refused = scheduler(serde_json::json!({
            "enableEmptyWorkloadPropagaton": true,
            "enableSchedulerEstimator": true,
            "schedulerName": "other",
        }));
        assert!(!refused.enable_empty_workload_propagation);
        let refusals = refused.refusals();
        let names: Vec<&str> = refusals.iter().map(|(name, _)| *name).collect();
        assert_eq!(
            names,
            [
                "enableEmptyWorkloadPropagaton",
                "enableSchedulerEstimator",
                "schedulerName"
            ]
        );
        assert_eq!(
            refusals[0].1,
            "unknown setting `enableEmptyWorkloadPropagaton` (did you mean \
             enableEmptyWorkloadPropagation?); fedrender models enableEmptyWorkloadPropagation"
        );
        assert!(
            refusals[1]
                .1
                .starts_with("karmada-scheduler's --enable-scheduler-estimator is not modelled"),
            "{}",
            refusals[1].1
        );
        assert!(refusals[2].1.contains("--scheduler-name"));
    }

    // A value of the wrong type is refused by the decoder, not taken as a setting to refuse.
    #[test]
    fn the_modelled_setting_must_be_a_boolean() {
        let wrong: Result<SchedulerConfig, _> =
            serde_json::from_value(serde_json::json!({"enableEmptyWorkloadPropagation": 1}));
        assert!(wrong.is_err());
    }
}
