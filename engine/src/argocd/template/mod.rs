//! ApplicationSet templates as Argo CD's `applicationset/utils` renders them (`Render.Replace`,
//! `RenderTemplateParams`): every string of the template, and every key of its maps, goes
//! through the default fasttemplate replacement over the flat parameters, or, with
//! `goTemplate: true`, through Go's text/template over the nested parameters ([`go`]).
//!
//! The function map is text/template's builtins, Argo CD's `normalize`, `slugify`, `toYaml`,
//! `fromYaml`, `fromYamlArray`, and these of sprig v3: upper lower title trim trimAll
//! trimPrefix trimSuffix replace contains hasPrefix hasSuffix quote squote cat indent nindent
//! substr trunc repeat split splitList join sortAlpha, default empty coalesce ternary, list
//! first last rest initial append push prepend uniq has without compact, dict get set unset
//! hasKey keys values pluck merge, toString toJson toPrettyJson atoi int int64 float64,
//! regexMatch regexReplaceAll regexFind, b64enc b64dec sha256sum, add sub mul div mod max min.
//!
//! Not yet there (a template using one does not parse, `function "x" not defined`): sprig's
//! dates (now date dateInZone dateModify ago duration …), the must* and *f (float math)
//! variants, add1 floor ceil round until untilStep seq, the other string helpers (abbrev wrap
//! camelcase snakecase kebabcase swapcase shuffle nospace initials plural randAlpha …),
//! the other regex functions (regexFindAll regexSplit regexQuoteMeta regexReplaceAllLiteral),
//! the other lists and dicts (concat reverse sortAlpha's kin chunk slice's kin dig pick omit
//! deepCopy mergeOverwrite), semver, uuid, crypto and encoding beyond b64 and sha256 (sha1sum
//! adler32sum b32enc genPrivateKey …), fromJson toRawJson typeOf kindOf deepEqual, and
//! `templatePatch`, `spec.template` merging per generator (point 4's remaining parts).

mod fasttemplate;
pub mod go;
mod quote;
#[cfg(test)]
mod reference;

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

/// `Render.Replace(template, params, goTemplate, goTemplateOptions)` for one string, with the
/// controller's own wrapping of Go's messages.
pub fn replace(
    template: &str,
    params: &Map<String, Value>,
    go_template: bool,
    go_template_options: &[String],
) -> Result<String, TemplateError> {
    if !go_template {
        return replace_flat(template, params);
    }
    let options = go::GoOptions::parse(go_template_options).map_err(TemplateError::new)?;
    go::render(template, &Value::Object(params.clone()), options).map_err(|error| {
        TemplateError::new(match error {
            go::GoError::Parse(e) => format!("failed to parse template {template}: {e}"),
            go::GoError::Execute(e) => format!("failed to execute go template {template}: {e}"),
        })
    })
}

/// `deeplyReplace` over a template in either mode: [`render_flat`]'s walk, each string and key
/// through [`replace`].
pub fn render(
    template: &Value,
    params: &Map<String, Value>,
    go_template: bool,
    go_template_options: &[String],
) -> Result<Value, TemplateError> {
    render_with(template, &mut |text| {
        replace(text, params, go_template, go_template_options)
    })
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
