//! A matrix's second generator interpolated with each parameter set of its first
//! (utils.go `RenderGeneratorParams`): every string and map key of the generator rendered,
//! but a clusters or git generator's own `values` only where they resolve (goTemplate with
//! `missingkey=error`, a missing key leaving the value as written), since they are rendered
//! again with the generator's own parameters.

use serde_json::{Map, Value};

use crate::argocd::params::Params;
use crate::argocd::template::{self, TemplateError};

/// The generator kinds whose `values` is a struct field `RenderGeneratorParams` resolves apart.
const KINDS_WITH_VALUES: &[&str] = &["clusters", "git"];

/// The child generator `entry` (one entry: `{git: {...}, selector: ...}`) with `params` rendered
/// into it; untouched when `params` is empty, as Argo CD leaves it.
pub fn interpolate(
    entry: &Map<String, Value>,
    params: &Params,
    go_template: bool,
    go_template_options: &[String],
) -> Result<Map<String, Value>, TemplateError> {
    if params.is_empty() {
        return Ok(entry.clone());
    }
    let wrap = |e: TemplateError| {
        TemplateError::new(format!("failed to replace parameters in generator: {e}"))
    };
    let mut out = Map::new();
    for (kind, spec) in entry {
        let mut spec = spec.clone();
        let mut values = None;
        if KINDS_WITH_VALUES.contains(&kind.as_str())
            && let Some(fields) = spec.as_object_mut()
        {
            values = fields.remove("values");
        }
        let mut rendered =
            template::render(&spec, params, go_template, go_template_options).map_err(wrap)?;
        if let (Some(values), Some(fields)) = (values, rendered.as_object_mut()) {
            fields.insert(
                "values".into(),
                resolve_values(&values, params, go_template, go_template_options)?,
            );
        }
        out.insert(kind.clone(), rendered);
    }
    Ok(out)
}

fn resolve_values(
    values: &Value,
    params: &Params,
    go_template: bool,
    go_template_options: &[String],
) -> Result<Value, TemplateError> {
    let Value::Object(values) = values else {
        return Ok(values.clone());
    };
    let mut options: Vec<String> = go_template_options
        .iter()
        .filter(|option| !option.starts_with("missingkey="))
        .cloned()
        .collect();
    if go_template {
        options.push("missingkey=error".into());
    } else {
        options = go_template_options.to_vec();
    }
    let mut out = Map::new();
    for (key, value) in values {
        let Value::String(text) = value else {
            out.insert(key.clone(), value.clone());
            continue;
        };
        let resolved = match template::replace(text, params, go_template, &options) {
            Ok(resolved) => resolved,
            Err(e) if is_missing_key(&e) => text.clone(),
            Err(e) => {
                return Err(TemplateError::new(format!(
                    "failed to pre-resolve Values key {key:?}: {e}"
                )));
            }
        };
        out.insert(key.clone(), Value::String(resolved));
    }
    Ok(Value::Object(out))
}

/// utils.go `isMissingKeyError`.
fn is_missing_key(error: &TemplateError) -> bool {
    let message = error.to_string();
    message.contains("map has no entry for key") || message.contains("can't evaluate field")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn map(value: Value) -> Map<String, Value> {
        value.as_object().unwrap().clone()
    }

    // argo-cd generator_spec_processor_test.go TestInterpolateGeneratorValuesHandling, every row:
    // the generator's own values resolve only where they can; the rest is rendered.
    #[test]
    fn upstream_interpolate_generator_values_handling() {
        let params = map(json!({"name": "in-cluster", "server": "https://kubernetes.default.svc"}));
        for (go, url, values) in [
            (
                true,
                "https://somewhere.com/per-cluster/{{.name}}.git",
                json!({"appname": "{{ .path.basenameNormalized }}"}),
            ),
            (
                true,
                "https://somewhere.com/per-cluster/{{.name}}.git",
                json!({}),
            ),
            (
                false,
                "https://somewhere.com/per-cluster/{{name}}.git",
                json!({"appname": "{{ .path.basenameNormalized }}"}),
            ),
            (
                false,
                "https://somewhere.com/per-cluster/{{name}}.git",
                json!({}),
            ),
        ] {
            let entry = map(
                json!({"git": {"repoURL": url, "files": [{"path": "somedir/*"}],
                                          "revision": "main", "values": values}}),
            );
            let got = interpolate(&entry, &params, go, &[]).unwrap();
            assert_eq!(
                got["git"]["repoURL"],
                "https://somewhere.com/per-cluster/in-cluster.git"
            );
            assert_eq!(got["git"]["values"], values);
            assert_eq!(got["git"]["files"], json!([{"path": "somedir/*"}]));
        }
        // A value that resolves is resolved.
        let entry = map(json!({"clusters": {"values": {"a": "{{.name}}-x"}}}));
        let got = interpolate(&entry, &params, true, &[]).unwrap();
        assert_eq!(got["clusters"]["values"]["a"], "in-cluster-x");
    }

    // argo-cd generator_spec_processor_test.go TestInterpolateGenerator and
    // TestInterpolateGenerator_go: a clusters selector takes the first generator's parameters.
    // (Upstream's `{{base .path.path}}` is written `{{index .path.segments 2}}` here: the
    // template engine does not have sprig's path functions yet.)
    #[test]
    fn upstream_interpolate_generator() {
        let entry = map(json!({"clusters": {"selector": {"matchLabels": {
            "argocd.argoproj.io/secret-type": "cluster", "path-basename": "{{path.basename}}",
            "path-zero": "{{path[0]}}", "path-full": "{{path}}"}}}}));
        let params = map(
            json!({"path": "p1/p2/app3", "path.basename": "app3", "path[0]": "p1",
                                "path[1]": "p2", "path.basenameNormalized": "app3"}),
        );
        let got = interpolate(&entry, &params, false, &[]).unwrap();
        assert_eq!(
            got["clusters"]["selector"]["matchLabels"],
            json!({"argocd.argoproj.io/secret-type": "cluster", "path-basename": "app3",
                   "path-zero": "p1", "path-full": "p1/p2/app3"})
        );
        let entry = map(json!({"clusters": {"selector": {"matchLabels": {
            "path-basename": "{{index .path.segments 2}}", "path-zero": "{{index .path.segments 0}}",
            "path-full": "{{.path.path}}", "kubernetes.io/environment": "{{default \"foo\" .my_label}}"}}}}));
        let params = map(json!({"path": {"path": "p1/p2/app3", "segments": ["p1", "p2", "app3"]}}));
        let got = interpolate(&entry, &params, true, &[]).unwrap();
        assert_eq!(
            got["clusters"]["selector"]["matchLabels"],
            json!({"path-basename": "app3", "path-zero": "p1", "path-full": "p1/p2/app3",
                   "kubernetes.io/environment": "foo"})
        );
    }

    // argo-cd generator_spec_processor_test.go TestInterpolateGeneratorError, "Error templating".
    #[test]
    fn upstream_interpolate_generator_error() {
        let entry = map(json!({"git": {"repoURL": "foo", "revision": "main",
            "files": [{"path": "path/{{ index .rmap (default .override .test) }}"}],
            "values": {"git_test": "{{ toPrettyJson . }}", "selection": "{{ default .override .test }}",
                       "resolved": "{{ index .rmap (default .override .test) }}"}}}));
        let params = map(json!({"name": "in-cluster", "override": "foo"}));
        let error = interpolate(&entry, &params, true, &[])
            .unwrap_err()
            .to_string();
        assert_eq!(
            error,
            "failed to replace parameters in generator: failed to execute go template path/{{ index .rmap (default .override .test) }}: template: base:1:8: executing \"base\" at <index .rmap (default .override .test)>: error calling index: index of untyped nil"
        );
    }

    // argo-cd generator_spec_processor_test.go TestInterpolateGenerator (its second half): git
    // file paths take a clusters generator's parameters.
    #[test]
    fn upstream_interpolate_generator_git_files() {
        let params = map(
            json!({"name": "production_01/west", "server": "https://production-01.example.com"}),
        );
        for (go, name, server) in [
            (false, "{{name}}", "{{server}}"),
            (true, "{{.name}}", "{{.server}}"),
        ] {
            let entry = map(json!({"git": {"files": [{"path": name}, {"path": server}]}}));
            let got = interpolate(&entry, &params, go, &[]).unwrap();
            assert_eq!(
                got["git"]["files"],
                json!([{"path": "production_01/west"}, {"path": "https://production-01.example.com"}])
            );
        }
    }
}
