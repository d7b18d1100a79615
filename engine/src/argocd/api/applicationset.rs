//! Argo CD's `ApplicationSet` (argoproj.io/v1alpha1, pkg/apis/application/v1alpha1
//! applicationset_types.go), with its JSON names; an unknown field is an error.
//!
//! Read: `spec.generators` (kept as written, for the generators), `goTemplate`,
//! `goTemplateOptions`, `template`, `templatePatch`, `syncPolicy.preserveResourcesOnDeletion`
//! (whether generated Applications get the resources finalizer) and `applyNestedSelectors`
//! (the generators'). Accepted and without effect on what a cluster receives offline:
//! `syncPolicy.applicationsSync` (what the controller may create, update or delete in a live
//! Argo CD), `strategy` (progressive syncs: the order of syncs, not their content),
//! `preservedFields` (labels and annotations kept from a live Application),
//! `ignoreApplicationDifferences` (fields of a live Application left alone), `status`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::application::{ApplicationSetTemplate, is_false};
use crate::api::meta::ObjectMeta;

/// The kind of an ApplicationSet.
pub const APPLICATION_SET_KIND: &str = "ApplicationSet";

/// An `ApplicationSet`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ApplicationSet {
    /// `apiVersion`.
    #[serde(default)]
    pub api_version: String,
    /// `kind`.
    #[serde(default)]
    pub kind: String,
    /// `metadata`: its namespace is every generated Application's.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// `spec`.
    #[serde(default)]
    pub spec: ApplicationSetSpec,
    /// `status`, as the controller wrote it; not read.
    #[serde(default)]
    pub status: Option<Value>,
}

/// `ApplicationSetSpec`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ApplicationSetSpec {
    /// `goTemplate`: Go's text/template rather than fasttemplate.
    #[serde(default)]
    pub go_template: bool,
    /// `generators`, as written: the generators read them.
    #[serde(default)]
    pub generators: Vec<Value>,
    /// `template`: what each parameter set renders.
    #[serde(default)]
    pub template: ApplicationSetTemplate,
    /// `syncPolicy`.
    #[serde(default)]
    pub sync_policy: Option<ApplicationSetSyncPolicy>,
    /// `strategy`: progressive syncs; nothing offline.
    #[serde(default)]
    pub strategy: Option<Value>,
    /// `preservedFields`: kept from live Applications; nothing offline.
    #[serde(default)]
    pub preserved_fields: Option<Value>,
    /// `goTemplateOptions` (`missingkey=error`).
    #[serde(default)]
    pub go_template_options: Vec<String>,
    /// `applyNestedSelectors`: the generators'.
    #[serde(default)]
    pub apply_nested_selectors: bool,
    /// `ignoreApplicationDifferences`: fields of live Applications left alone; nothing offline.
    #[serde(default)]
    pub ignore_application_differences: Option<Value>,
    /// `templatePatch`: a text rendered per parameter set, then applied to the Application as
    /// a strategic merge patch.
    #[serde(default)]
    pub template_patch: Option<String>,
}

/// `ApplicationSetSyncPolicy`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ApplicationSetSyncPolicy {
    /// `preserveResourcesOnDeletion`: generated Applications get no resources finalizer.
    #[serde(default, skip_serializing_if = "is_false")]
    pub preserve_resources_on_deletion: bool,
    /// `applicationsSync` (`create-only`, `create-update`, …): nothing offline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub applications_sync: Option<String>,
}
