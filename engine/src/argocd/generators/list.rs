//! The list generator (applicationset/generators/list.go): one parameter set per element of
//! `elements`, then one per element of `elementsYaml`.

use serde_json::{Map, Value};

use super::context::{GeneratorContext, Site, kind};
use super::yaml_data;
use crate::argocd::params::Params;
use crate::diagnostics::Diagnostic;

/// The fields of a list generator.
pub const FIELDS: &[&str] = &["elements", "elementsYaml", "template"];

/// The parameter sets of the list generator `spec` at `site`. Without `goTemplate` every
/// field of an element must be a string, and its `values` a map of strings (which become
/// `values.<key>`), as list.go demands; with it an element is its parameters as written.
/// `elementsYaml`'s elements are taken as they are in either mode, as list.go takes them.
pub fn generate(
    spec: &Map<String, Value>,
    context: &GeneratorContext<'_>,
    site: &Site<'_>,
) -> Result<Vec<Params>, Diagnostic> {
    site.known_fields(spec, "the list generator", FIELDS)?;
    let mut result = Vec::new();
    if let Some(elements) = spec.get("elements").filter(|v| !v.is_null()) {
        let elements_site = site.field("elements");
        for (index, element) in elements_site.array(elements)?.iter().enumerate() {
            let element_site = elements_site.item(index);
            let element = element_site.object(element)?;
            if context.go_template {
                result.push(element.clone());
            } else {
                result.push(flat_element(element, &element_site)?);
            }
        }
    }
    if let Some(text) = spec.get("elementsYaml").filter(|v| !v.is_null()) {
        let yaml_site = site.field("elementsYaml");
        let text = yaml_site.string(text)?;
        if !text.is_empty() {
            let not_a_list = |what: &str| {
                yaml_site.error(format!(
                    "error unmarshling decoded ElementsYaml: it must be a YAML list of maps, not {what}"
                ))
            };
            let parsed = yaml_data::parse(text).map_err(|e| {
                yaml_site.error(format!("error unmarshling decoded ElementsYaml: {e}"))
            })?;
            match parsed {
                Value::Null => {}
                Value::Array(items) => {
                    for item in items {
                        match item {
                            Value::Object(fields) => result.push(fields),
                            // sigs.k8s.io/yaml decodes a null item into a nil map.
                            Value::Null => result.push(Map::new()),
                            other => {
                                return Err(not_a_list(&format!(
                                    "a list holding {}",
                                    kind(&other)
                                )));
                            }
                        }
                    }
                }
                other => return Err(not_a_list(kind(&other))),
            }
        }
    }
    Ok(result)
}

fn flat_element(element: &Map<String, Value>, site: &Site<'_>) -> Result<Params, Diagnostic> {
    let not_string = |site: &Site<'_>, value: &Value| {
        site.error(format!(
            "is {}, but without goTemplate every field of a list element must be a string (list.go: error parsing value as string); quote it, or set goTemplate: true",
            kind(value)
        ))
    };
    let mut params = Params::new();
    for (key, value) in element {
        let field = site.field(key);
        if key == "values" {
            let Value::Object(values) = value else {
                return Err(field.error(format!(
                    "is {}, but a list element's values must be a map of strings (list.go: error parsing values map)",
                    kind(value)
                )));
            };
            for (k, v) in values {
                let Value::String(text) = v else {
                    return Err(not_string(&field.field(k), v));
                };
                params.insert(format!("values.{k}"), Value::String(text.clone()));
            }
        } else {
            let Value::String(text) = value else {
                return Err(not_string(&field, value));
            };
            params.insert(key.clone(), Value::String(text.clone()));
        }
    }
    Ok(params)
}
