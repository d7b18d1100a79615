//! Argo CD's `Application` (argoproj.io/v1alpha1, pkg/apis/application/v1alpha1 types.go), with
//! its JSON names; an unknown field is an error. What a field means offline:
//!
//! - read: `metadata` (name, namespace, labels, annotations, finalizers), `spec.project`,
//!   `spec.destination`, `spec.source` / `spec.sources` and, of a source, `repoURL`, `path`,
//!   `targetRevision` (the checkout is the revision), `chart`, `ref`, `name`, `helm`
//!   (`valueFiles`, `values`, `valuesObject`, `parameters`, `releaseName`, `skipCrds`),
//!   `kustomize` (`namePrefix`, `nameSuffix`, `images`, `commonLabels`, `commonAnnotations`,
//!   `namespace`, `replicas`, `patches`, `components`), `directory` (`recurse`, `include`,
//!   `exclude`);
//! - accepted and without effect on what a cluster receives offline: `spec.syncPolicy` (but for
//!   `CreateNamespace=true`, see [`ApplicationSpec::creates_namespace`]),
//!   `spec.ignoreDifferences`, `spec.info`, `spec.revisionHistoryLimit`, `operation`, `status`,
//!   the metadata the API server writes, `helm.passCredentials`;
//! - refused by name ([`ApplicationSpec::unsupported_fields`]), for each would change what a
//!   cluster receives and fedrender does not do it: `spec.sourceHydrator`, a source's `plugin`
//!   and `tagPrefix`, `directory.jsonnet` and `disableExtensionFilter`, `helm.fileParameters`,
//!   `version`, `ignoreMissingValueFiles`, `namespace`, `kubeVersion`, `apiVersions`,
//!   `skipTests`, `skipSchemaValidation`, and `kustomize.version`, `forceCommonLabels`,
//!   `forceCommonAnnotations`, `commonAnnotationsEnvsubst`, `ignoreMissingComponents`,
//!   `labelWithoutSelector`, `labelIncludeTemplates`, `kubeVersion`, `apiVersions`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::merge::merge_fields;

/// `argoproj.io/v1alpha1`, the group and version of Argo CD's objects.
pub const API_VERSION: &str = "argoproj.io/v1alpha1";
/// The kind of an Application.
pub const APPLICATION_KIND: &str = "Application";
/// The finalizer that makes deleting an Application delete what it deployed
/// (`ResourcesFinalizerName`).
pub const RESOURCES_FINALIZER: &str = "resources-finalizer.argocd.argoproj.io";
/// The project every Argo CD installation has (`DefaultAppProjectName`).
pub const DEFAULT_PROJECT: &str = "default";

pub(crate) fn is_false(value: &bool) -> bool {
    !*value
}

/// An `Application`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Application {
    /// `apiVersion`.
    #[serde(default)]
    pub api_version: String,
    /// `kind`.
    #[serde(default)]
    pub kind: String,
    /// `metadata`.
    #[serde(default)]
    pub metadata: ApplicationMeta,
    /// `spec`.
    #[serde(default)]
    pub spec: ApplicationSpec,
    /// `operation`: a sync to start; nothing offline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operation: Option<Value>,
    /// `status`, as the controller wrote it; not read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<Value>,
}

/// An Application's `metadata` (`metav1.ObjectMeta`): what Argo CD reads, and what the API
/// server writes, accepted as written.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ApplicationMeta {
    /// `name`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// `generateName`: refused, as the ApplicationSet controller refuses it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub generate_name: String,
    /// `namespace`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub namespace: String,
    /// `labels`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
    /// `annotations`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub annotations: BTreeMap<String, String>,
    /// `finalizers`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub finalizers: Vec<String>,
    // What the API server writes, kept as written and not read.
    /// `uid`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uid: Option<Value>,
    /// `resourceVersion`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_version: Option<Value>,
    /// `generation`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generation: Option<Value>,
    /// `creationTimestamp`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub creation_timestamp: Option<Value>,
    /// `deletionTimestamp`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deletion_timestamp: Option<Value>,
    /// `deletionGracePeriodSeconds`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deletion_grace_period_seconds: Option<Value>,
    /// `ownerReferences`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner_references: Option<Value>,
    /// `managedFields`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub managed_fields: Option<Value>,
    /// `selfLink`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub self_link: Option<Value>,
}

/// `ApplicationSpec`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ApplicationSpec {
    /// `source`: the one source, when `sources` is empty.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<ApplicationSource>,
    /// `destination`: the cluster (by `server` or `name`) and namespace.
    #[serde(default)]
    pub destination: ApplicationDestination,
    /// `project`: the AppProject; empty is `default`.
    #[serde(default)]
    pub project: String,
    /// `syncPolicy`: how and when Argo CD syncs; nothing offline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sync_policy: Option<Value>,
    /// `ignoreDifferences`: what the diff with the live object ignores; nothing offline.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ignore_differences: Vec<Value>,
    /// `info`: shown in Argo CD's UI; nothing offline.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub info: Vec<Value>,
    /// `revisionHistoryLimit`: the history Argo CD keeps; nothing offline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revision_history_limit: Option<i64>,
    /// `sources`: several sources, which win over `source`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sources: Vec<ApplicationSource>,
    /// `sourceHydrator`: refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_hydrator: Option<Value>,
}

merge_fields!(ApplicationSpec {
    source,
    destination,
    project,
    sync_policy,
    ignore_differences,
    info,
    revision_history_limit,
    sources,
    source_hydrator,
});

impl ApplicationSpec {
    /// The sources Argo CD renders (`GetSources`): `sources` when set, else `source`.
    pub fn effective_sources(&self) -> Vec<&ApplicationSource> {
        if self.sources.is_empty() {
            self.source.iter().collect()
        } else {
            self.sources.iter().collect()
        }
    }

    /// The fields set here that would change what a cluster receives and that fedrender does
    /// not implement, each as a path under `spec` (`source.helm.fileParameters`).
    pub fn unsupported_fields(&self) -> Vec<String> {
        let mut fields = Vec::new();
        if self.source_hydrator.is_some() {
            fields.push("sourceHydrator".to_string());
        }
        if let Some(source) = &self.source {
            fields.extend(
                source
                    .unsupported_fields()
                    .into_iter()
                    .map(|f| format!("source.{f}")),
            );
        }
        for (index, source) in self.sources.iter().enumerate() {
            fields.extend(
                source
                    .unsupported_fields()
                    .into_iter()
                    .map(|f| format!("sources[{index}].{f}")),
            );
        }
        fields
    }

    /// `syncPolicy.syncOptions`, as written (`CreateNamespace=true`, `ServerSideApply=true`).
    pub fn sync_options(&self) -> Vec<&str> {
        self.sync_policy
            .as_ref()
            .and_then(|policy| policy.get("syncOptions"))
            .and_then(Value::as_array)
            .map(|options| options.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default()
    }

    /// Whether Argo CD creates the destination namespace when it syncs (`syncOptions`
    /// `CreateNamespace=true`, compared exactly as `SyncOptions.HasOption` does), with
    /// `syncPolicy.managedNamespaceMetadata`'s labels and
    /// annotations: the one part of `syncPolicy` that changes what a cluster receives, left to
    /// the stage that writes each cluster's objects.
    pub fn creates_namespace(&self) -> bool {
        self.sync_options().contains(&"CreateNamespace=true")
    }

    /// argo `NormalizeApplicationSpec`, which the controller applies before it creates an
    /// Application: an empty project is `default`, and a source's `helm`, `kustomize` or
    /// `directory` that sets nothing is dropped.
    pub fn normalize(&mut self) {
        if self.project.is_empty() {
            self.project = DEFAULT_PROJECT.to_string();
        }
        if self.sources.is_empty() {
            if let Some(source) = &mut self.source {
                source.normalize();
            }
        } else {
            self.sources
                .iter_mut()
                .for_each(ApplicationSource::normalize);
        }
    }
}

/// `ApplicationDestination`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ApplicationDestination {
    /// `server`: the cluster's API server URL.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub server: String,
    /// `namespace`: where namespaced objects without one go.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub namespace: String,
    /// `name`: the cluster's name, instead of `server`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
}

merge_fields!(ApplicationDestination {
    server,
    namespace,
    name
});

/// `ApplicationSource`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ApplicationSource {
    /// `repoURL`: the Git repository (or Helm repository, refused).
    #[serde(rename = "repoURL", default)]
    pub repo_url: String,
    /// `path`: the directory in the repository.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub path: String,
    /// `targetRevision`: the mapped checkout is the revision; not fetched.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub target_revision: String,
    /// `helm`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub helm: Option<ApplicationSourceHelm>,
    /// `kustomize`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kustomize: Option<ApplicationSourceKustomize>,
    /// `directory`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub directory: Option<ApplicationSourceDirectory>,
    /// `plugin`: a config management plugin; refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plugin: Option<Value>,
    /// `chart`: a chart of a Helm repository.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub chart: String,
    /// `ref`: a name the other sources' `$ref/…` value files use.
    #[serde(rename = "ref", default, skip_serializing_if = "String::is_empty")]
    pub reference: String,
    /// `name`: the source's name in Argo CD's UI.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// `tagPrefix`: refused.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub tag_prefix: String,
}

merge_fields!(ApplicationSource {
    repo_url,
    path,
    target_revision,
    helm,
    kustomize,
    directory,
    plugin,
    chart,
    reference,
    name,
    tag_prefix,
});

impl ApplicationSource {
    /// The fields set that fedrender refuses, as paths under the source.
    pub fn unsupported_fields(&self) -> Vec<String> {
        let mut fields = Vec::new();
        if self.plugin.is_some() {
            fields.push("plugin".to_string());
        }
        if !self.tag_prefix.is_empty() {
            fields.push("tagPrefix".to_string());
        }
        let mut under = |prefix: &str, set: Vec<&'static str>| {
            fields.extend(set.into_iter().map(|f| format!("{prefix}.{f}")));
        };
        if let Some(kustomize) = &self.kustomize {
            under("kustomize", kustomize.unsupported_fields());
        }
        if let Some(directory) = &self.directory {
            under("directory", directory.unsupported_fields());
        }
        fields
    }

    /// argo `NormalizeSource`.
    fn normalize(&mut self) {
        if self
            .kustomize
            .as_ref()
            .is_some_and(|k| *k == Default::default())
        {
            self.kustomize = None;
        }
        if self.helm.as_ref().is_some_and(|h| *h == Default::default()) {
            self.helm = None;
        }
        if let Some(directory) = &self.directory
            && directory.is_zero()
        {
            self.directory =
                (!directory.include.is_empty() || !directory.exclude.is_empty()).then(|| {
                    ApplicationSourceDirectory {
                        include: directory.include.clone(),
                        exclude: directory.exclude.clone(),
                        ..Default::default()
                    }
                });
        }
    }
}

/// `ApplicationSourceHelm`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ApplicationSourceHelm {
    /// `valueFiles`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub value_files: Vec<String>,
    /// `parameters`: `--set`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parameters: Vec<HelmParameter>,
    /// `releaseName`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub release_name: String,
    /// `values`: a YAML text.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub values: String,
    /// `fileParameters`: `--set-file`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub file_parameters: Vec<HelmFileParameter>,
    /// `version`: the Helm major version; only 3 renders.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub version: String,
    /// `passCredentials`: credentials for a chart's host; nothing offline.
    #[serde(default, skip_serializing_if = "is_false")]
    pub pass_credentials: bool,
    /// `ignoreMissingValueFiles`: a value file not in the checkout is left out.
    #[serde(default, skip_serializing_if = "is_false")]
    pub ignore_missing_value_files: bool,
    /// `skipCrds`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub skip_crds: bool,
    /// `valuesObject`: values as an object, over `values`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub values_object: Option<Value>,
    /// `namespace`: the release's, over the destination's.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub namespace: String,
    /// `kubeVersion`: `--kube-version`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub kube_version: String,
    /// `apiVersions`: `--api-versions`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub api_versions: Vec<String>,
    /// `skipTests`: `--skip-tests`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub skip_tests: bool,
    /// `skipSchemaValidation`: `--skip-schema-validation`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub skip_schema_validation: bool,
}

merge_fields!(ApplicationSourceHelm {
    value_files,
    parameters,
    release_name,
    values,
    file_parameters,
    version,
    pass_credentials,
    ignore_missing_value_files,
    skip_crds,
    values_object,
    namespace,
    kube_version,
    api_versions,
    skip_tests,
    skip_schema_validation,
});

/// `HelmFileParameter`: `--set-file NAME=PATH`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct HelmFileParameter {
    /// `name`: the value's path in the chart's values.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// `path`: the file, resolved as a value file is.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub path: String,
}

/// `HelmParameter`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct HelmParameter {
    /// `name`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// `value`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub value: String,
    /// `forceString`: `--set-string` rather than `--set`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub force_string: bool,
}

/// `ApplicationSourceKustomize`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ApplicationSourceKustomize {
    /// `namePrefix`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name_prefix: String,
    /// `nameSuffix`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name_suffix: String,
    /// `images`: `kustomize edit set image` arguments.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub images: Vec<String>,
    /// `commonLabels`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub common_labels: BTreeMap<String, String>,
    /// `version`: refused.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub version: String,
    /// `commonAnnotations`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub common_annotations: BTreeMap<String, String>,
    /// `forceCommonLabels`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub force_common_labels: bool,
    /// `forceCommonAnnotations`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub force_common_annotations: bool,
    /// `namespace`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub namespace: String,
    /// `commonAnnotationsEnvsubst`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub common_annotations_envsubst: bool,
    /// `replicas`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replicas: Vec<KustomizeReplica>,
    /// `patches`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub patches: Vec<KustomizePatch>,
    /// `components`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub components: Vec<String>,
    /// `ignoreMissingComponents`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub ignore_missing_components: bool,
    /// `labelWithoutSelector`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub label_without_selector: bool,
    /// `kubeVersion`: refused.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub kube_version: String,
    /// `apiVersions`: refused.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub api_versions: Vec<String>,
    /// `labelIncludeTemplates`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub label_include_templates: bool,
}

merge_fields!(ApplicationSourceKustomize {
    name_prefix,
    name_suffix,
    images,
    common_labels,
    version,
    common_annotations,
    force_common_labels,
    force_common_annotations,
    namespace,
    common_annotations_envsubst,
    replicas,
    patches,
    components,
    ignore_missing_components,
    label_without_selector,
    kube_version,
    api_versions,
    label_include_templates,
});

impl ApplicationSourceKustomize {
    // `version` picks a kustomize binary from argocd-cm; `kubeVersion` and `apiVersions` reach
    // only a kustomization's Helm charts, which Argo CD renders only with build options from
    // argocd-cm (`--enable-helm`) that fedrender does not read.
    fn unsupported_fields(&self) -> Vec<&'static str> {
        let set = [
            ("version", !self.version.is_empty()),
            ("kubeVersion", !self.kube_version.is_empty()),
            ("apiVersions", !self.api_versions.is_empty()),
        ];
        set.into_iter()
            .filter(|(_, on)| *on)
            .map(|(f, _)| f)
            .collect()
    }
}

/// `KustomizeReplica`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct KustomizeReplica {
    /// `name`: the workload's.
    #[serde(default)]
    pub name: String,
    /// `count`: an integer or a string holding one.
    #[serde(default)]
    pub count: Value,
}

/// `KustomizePatch`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct KustomizePatch {
    /// `path`: a patch file.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub path: String,
    /// `patch`: an inline patch.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub patch: String,
    /// `target`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<KustomizeSelector>,
    /// `options`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub options: BTreeMap<String, bool>,
}

/// `KustomizeSelector`, a patch's target.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct KustomizeSelector {
    /// `group`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub group: String,
    /// `version`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub version: String,
    /// `kind`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// `name`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// `namespace`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub namespace: String,
    /// `annotationSelector`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub annotation_selector: String,
    /// `labelSelector`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub label_selector: String,
}

/// `ApplicationSourceDirectory`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ApplicationSourceDirectory {
    /// `recurse`: subdirectories too.
    #[serde(default, skip_serializing_if = "is_false")]
    pub recurse: bool,
    /// `jsonnet`: refused when it sets anything.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jsonnet: Option<Value>,
    /// `exclude`: a glob of files left out.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub exclude: String,
    /// `include`: a glob of the files read.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub include: String,
    /// `disableExtensionFilter`: refused.
    #[serde(default, skip_serializing_if = "is_false")]
    pub disable_extension_filter: bool,
}

merge_fields!(ApplicationSourceDirectory {
    recurse,
    jsonnet,
    exclude,
    include,
    disable_extension_filter,
});

impl ApplicationSourceDirectory {
    fn jsonnet_is_set(&self) -> bool {
        match &self.jsonnet {
            None | Some(Value::Null) => false,
            Some(Value::Object(fields)) => fields.values().any(|v| match v {
                Value::Null => false,
                Value::Array(items) => !items.is_empty(),
                _ => true,
            }),
            Some(_) => true,
        }
    }

    /// `ApplicationSourceDirectory.IsZero`.
    fn is_zero(&self) -> bool {
        !self.recurse && !self.jsonnet_is_set()
    }

    fn unsupported_fields(&self) -> Vec<&'static str> {
        let mut fields = Vec::new();
        if self.jsonnet_is_set() {
            fields.push("jsonnet");
        }
        if self.disable_extension_filter {
            fields.push("disableExtensionFilter");
        }
        fields
    }
}

/// `ApplicationSetTemplate`: an Application without its `apiVersion` and `kind`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ApplicationSetTemplate {
    /// `metadata`.
    #[serde(default)]
    pub metadata: ApplicationSetTemplateMeta,
    /// `spec`.
    #[serde(default)]
    pub spec: ApplicationSpec,
}

merge_fields!(ApplicationSetTemplate { metadata, spec });

/// `ApplicationSetTemplateMeta`: the metadata a template may set.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ApplicationSetTemplateMeta {
    /// `name`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// `namespace`: replaced by the ApplicationSet's own namespace.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub namespace: String,
    /// `labels`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
    /// `annotations`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub annotations: BTreeMap<String, String>,
    /// `finalizers`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub finalizers: Vec<String>,
}

merge_fields!(ApplicationSetTemplateMeta {
    name,
    namespace,
    labels,
    annotations,
    finalizers,
});
