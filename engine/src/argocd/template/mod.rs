//! ApplicationSet templates as Argo CD's `applicationset/utils` renders them (`Render.Replace`,
//! `RenderTemplateParams`): every string of the template, and every key of its maps, goes
//! through the default fasttemplate replacement over the flat parameters.

mod fasttemplate;
mod quote;

use serde_json::{Map, Value};
use std::fmt;

pub use fasttemplate::replace as replace_flat;

/// A template that does not render, in the words Argo CD's controller uses for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateError {
    message: String,
}

impl TemplateError {
    pub(crate) fn new(message: String) -> TemplateError {
        TemplateError { message }
    }
}

impl fmt::Display for TemplateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for TemplateError {}

/// `deeplyReplace` over a template as JSON: each string value and each map key is replaced; a
/// null in a map is dropped, as the controller skips nil map entries; numbers and booleans stay.
/// Keys are replaced after their values; two keys that become one keep the later value.
pub fn render_flat(template: &Value, params: &Map<String, Value>) -> Result<Value, TemplateError> {
    render_with(template, &mut |text| replace_flat(text, params))
}

fn render_with(
    template: &Value,
    replace: &mut dyn FnMut(&str) -> Result<String, TemplateError>,
) -> Result<Value, TemplateError> {
    Ok(match template {
        Value::String(text) => Value::String(replace(text)?),
        Value::Array(items) => Value::Array(
            items
                .iter()
                .map(|item| render_with(item, replace))
                .collect::<Result<_, _>>()?,
        ),
        Value::Object(fields) => {
            let mut out = Map::new();
            for (key, value) in fields {
                if value.is_null() {
                    continue;
                }
                let value = render_with(value, replace)?;
                out.insert(replace(key)?, value);
            }
            Value::Object(out)
        }
        other => other.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    // argo-cd utils_test.go TestRenderTemplateKeys ("fasttemplate"): a key is templated as a
    // value is, so that an annotation's name can come from a parameter.
    #[test]
    fn keys_and_values_of_every_map_are_replaced() {
        let params = json!({"annotation": "annotation-key", "v": "x"});
        let template = json!({"metadata": {"annotations": {"{{annotation}}": "{{v}}", "n": 3, "gone": null}},
                              "list": ["{{ v }}", true]});
        let rendered = render_flat(&template, params.as_object().unwrap()).unwrap();
        assert_eq!(
            rendered,
            json!({"metadata": {"annotations": {"annotation-key": "x", "n": 3}}, "list": ["x", true]})
        );
    }
}
