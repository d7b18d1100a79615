//! The clusters generator (applicationset/generators/cluster.go): one parameter set per Argo
//! CD cluster Secret its selector picks, and the local `in-cluster` last when no selector is
//! set and no Secret names its server.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::context::{GeneratorContext, Site, string_map};
use super::param_ops::append_templated_values;
use super::selector;
use crate::argocd::cluster::{ArgoCluster, IN_CLUSTER_NAME, IN_CLUSTER_SERVER, SECRET_TYPE_LABEL};
use crate::argocd::params::Params;
use crate::argocd::template::go::sanitize_name;
use crate::diagnostics::Diagnostic;

/// The fields of a clusters generator.
pub const FIELDS: &[&str] = &["selector", "values", "flatList", "template"];

/// The parameter sets of the clusters generator `spec` at `site`, Secrets in name order (Argo
/// CD's is a Go map's).
pub fn generate(
    spec: &Map<String, Value>,
    context: &GeneratorContext<'_>,
    site: &Site<'_>,
) -> Result<Vec<Params>, Diagnostic> {
    site.known_fields(spec, "the clusters generator", FIELDS)?;
    let user_selector = match spec.get("selector").filter(|v| !v.is_null()) {
        Some(selector) => selector::parse(&site.field("selector"), selector, true)?,
        None => selector::Selector::default(),
    };
    let ignore_local = !user_selector.is_empty();
    let selector = user_selector.with_label(SECRET_TYPE_LABEL, "cluster");
    let values = string_map(&site.field("values"), spec.get("values"))?;
    let flat_list = site
        .field("flatList")
        .boolean(spec.get("flatList").unwrap_or(&Value::Null))?;

    // getSecretsByClusterName: the selected Secrets by name, a later one of a name winning.
    let mut secrets: BTreeMap<&str, &ArgoCluster> = BTreeMap::new();
    for cluster in context.clusters.iter().filter(|c| c.origin.is_some()) {
        if selector.matches(&cluster.labels) {
            secrets.insert(&cluster.name, cluster);
        }
    }
    let values_error = |what: &str, e: crate::argocd::template::TemplateError| {
        site.field("values")
            .error(format!("error appending templated values for {what}: {e}"))
    };
    let mut result = Vec::new();
    for cluster in secrets.values() {
        let mut params = cluster_params(cluster, context.go_template);
        append_templated_values(
            &values,
            &mut params,
            context.go_template,
            context.go_template_options,
        )
        .map_err(|e| values_error("cluster", e))?;
        result.push(params);
    }
    let has_local_secret = secrets.values().any(|c| c.server == IN_CLUSTER_SERVER);
    if !ignore_local && !has_local_secret {
        let mut params = Params::new();
        params.insert("name".into(), IN_CLUSTER_NAME.into());
        params.insert("nameNormalized".into(), IN_CLUSTER_NAME.into());
        params.insert("server".into(), IN_CLUSTER_SERVER.into());
        params.insert("project".into(), "".into());
        append_templated_values(
            &values,
            &mut params,
            context.go_template,
            context.go_template_options,
        )
        .map_err(|e| values_error("local cluster", e))?;
        result.push(params);
    }
    if flat_list {
        let clusters = result.into_iter().map(Value::Object).collect();
        let mut params = Params::new();
        params.insert("clusters".into(), Value::Array(clusters));
        return Ok(vec![params]);
    }
    Ok(result)
}

/// cluster.go `getClusterParameters`.
fn cluster_params(cluster: &ArgoCluster, go_template: bool) -> Params {
    let mut params = Params::new();
    params.insert("name".into(), cluster.name.clone().into());
    params.insert("nameNormalized".into(), sanitize_name(&cluster.name).into());
    params.insert("server".into(), cluster.server.clone().into());
    params.insert(
        "project".into(),
        cluster.project.clone().unwrap_or_default().into(),
    );
    let strings = |map: &BTreeMap<String, String>| -> Map<String, Value> {
        map.iter()
            .map(|(k, v)| (k.clone(), Value::String(v.clone())))
            .collect()
    };
    if go_template {
        let mut metadata = Map::new();
        if !cluster.annotations.is_empty() {
            metadata.insert(
                "annotations".into(),
                Value::Object(strings(&cluster.annotations)),
            );
        }
        if !cluster.labels.is_empty() {
            metadata.insert("labels".into(), Value::Object(strings(&cluster.labels)));
        }
        params.insert("metadata".into(), Value::Object(metadata));
    } else {
        for (key, value) in &cluster.annotations {
            params.insert(format!("metadata.annotations.{key}"), value.clone().into());
        }
        for (key, value) in &cluster.labels {
            params.insert(format!("metadata.labels.{key}"), value.clone().into());
        }
    }
    params
}
