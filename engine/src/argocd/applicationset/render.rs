//! One Application from a template and a parameter set: the controller's
//! `RenderTemplateParams` (applicationset/utils utils.go), then `renderTemplatePatch` and
//! `applyTemplatePatch` (applicationset/controllers/template), then what `createOrUpdateInCluster`
//! writes: the ApplicationSet's namespace, `NormalizeApplicationSpec`.

use serde_json::{Map, Value};

use super::patch::{patch_to_json, strategic_merge};
use crate::argocd::api::application::{
    API_VERSION, APPLICATION_KIND, Application, ApplicationMeta, ApplicationSetTemplate,
    RESOURCES_FINALIZER,
};
use crate::argocd::api::applicationset::ApplicationSetSpec;
use crate::argocd::template;

/// Why an Application did not render, and the field of the ApplicationSet to point at.
#[derive(Debug)]
pub(super) struct RenderError {
    /// `spec.template` or `spec.templatePatch`.
    pub field: &'static str,
    /// What went wrong, in the controller's words where it has them.
    pub message: String,
}

/// The Application `template` (an `ApplicationSetTemplate` as JSON) renders to with `params`,
/// in `namespace` (the ApplicationSet's).
pub(super) fn render_application(
    template: &Value,
    spec: &ApplicationSetSpec,
    params: &Map<String, Value>,
    namespace: &str,
) -> Result<Application, RenderError> {
    let error = |field, message| RenderError { field, message };
    // GetTempApplication: the template as an Application, walked as the controller walks it.
    let rendered = template::render(
        template,
        params,
        spec.go_template,
        &spec.go_template_options,
    )
    .map_err(|e| error("spec.template", e.to_string()))?;
    let mut rendered: ApplicationSetTemplate = serde_json::from_value(rendered)
        .map_err(|e| error("spec.template", format!("the rendered template: {e}")))?;
    // RenderTemplateParams returns the template as it is when there are no parameters, before
    // it adds the resources finalizer.
    let preserve = spec
        .sync_policy
        .as_ref()
        .is_some_and(|policy| policy.preserve_resources_on_deletion);
    if !params.is_empty() && !preserve && rendered.metadata.finalizers.is_empty() {
        rendered.metadata.finalizers = vec![RESOURCES_FINALIZER.to_string()];
    }
    let mut application = Application {
        api_version: API_VERSION.to_string(),
        kind: APPLICATION_KIND.to_string(),
        metadata: ApplicationMeta {
            name: rendered.metadata.name,
            namespace: rendered.metadata.namespace,
            labels: rendered.metadata.labels,
            annotations: rendered.metadata.annotations,
            finalizers: rendered.metadata.finalizers,
            ..Default::default()
        },
        spec: rendered.spec,
        ..Default::default()
    };
    if let Some(patch) = &spec.template_patch {
        application = apply_template_patch(application, patch, spec, params)
            .map_err(|message| error("spec.templatePatch", message))?;
    }
    // What the controller writes of the Application it generated (createOrUpdateInCluster
    // copies the spec, labels, annotations and finalizers into an object of the ApplicationSet's
    // namespace); its spec normalised first.
    application.spec.normalize();
    Ok(Application {
        api_version: API_VERSION.to_string(),
        kind: APPLICATION_KIND.to_string(),
        metadata: ApplicationMeta {
            name: application.metadata.name,
            namespace: namespace.to_string(),
            labels: application.metadata.labels,
            annotations: application.metadata.annotations,
            finalizers: application.metadata.finalizers,
            ..Default::default()
        },
        spec: application.spec,
        operation: application.operation,
        status: None,
    })
}

/// renderTemplatePatch and applyTemplatePatch: the patch text rendered with the same
/// parameters and mode, read, checked to be an Application, merged; `spec.project` kept as
/// the template set it, "to prevent malicious template patches".
fn apply_template_patch(
    application: Application,
    patch: &str,
    spec: &ApplicationSetSpec,
    params: &Map<String, Value>,
) -> Result<Application, String> {
    let rendered = template::replace(patch, params, spec.go_template, &spec.go_template_options)
        .map_err(|e| format!("error replacing values in templatePatch: {e}"))?;
    let json = patch_to_json(&rendered).map_err(|e| format!("invalid templatePatch: {e}"))?;
    // Go decodes the patch into an Application first, so a field of the wrong type is refused;
    // a field no Application has Go drops in silence, fedrender refuses by name.
    // A null (which removes a field) decodes into anything in Go, so nulls are not checked.
    if json.is_object() {
        serde_json::from_value::<Application>(without_nulls(&json))
            .map_err(|e| format!("invalid templatePatch: {e}"))?;
    }
    let original = serde_json::to_value(&application).expect("an Application serialises");
    let patched =
        strategic_merge(&original, &json).map_err(|e| format!("invalid templatePatch: {e}"))?;
    let mut patched: Application =
        serde_json::from_value(patched).map_err(|e| format!("the patched Application: {e}"))?;
    patched.spec.project = application.spec.project;
    Ok(patched)
}

/// `value` with every null in its maps left out.
fn without_nulls(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k.clone(), without_nulls(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_nulls).collect()),
        other => other.clone(),
    }
}
