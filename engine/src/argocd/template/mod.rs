//! ApplicationSet templates as Argo CD's `applicationset/utils` renders them (`Render.Replace`,
//! `RenderTemplateParams`): every string of the template, and every key of its maps, goes
//! through the default fasttemplate replacement over the flat parameters, or, with
//! `goTemplate: true`, through Go's text/template over the nested parameters ([`go`]).
//!
//! The function map is text/template's builtins, Argo CD's `normalize`, `slugify`, `toYaml`,
//! `fromYaml`, `fromYamlArray`, and these of sprig v3: upper lower title trim trimAll
//! trimPrefix trimSuffix replace contains hasPrefix hasSuffix quote squote cat indent nindent
//! substr trunc repeat nospace split splitList join sortAlpha, default empty coalesce ternary,
//! list first last rest initial append push prepend uniq has without compact slice concat
//! reverse, dict get set unset hasKey keys values pluck merge mergeOverwrite dig pick omit
//! deepCopy, toString toJson toPrettyJson toRawJson fromJson atoi int int64 float64, regexMatch
//! regexReplaceAll regexReplaceAllLiteral regexFind regexFindAll regexSplit regexQuoteMeta,
//! b64enc b64dec sha256sum, add add1 sub mul div mod max min until untilStep, typeOf kindOf
//! deepEqual, base dir clean ext isAbs (and their os… forms), toDate mustToDate date
//! dateInZone htmlDate htmlDateInZone dateModify mustDateModify duration durationRound
//! unixEpoch (and their snake_case names).
//!
//! Not yet there (a template using one does not parse, and the message says it is sprig's and
//! fedrender's gap, not Argo CD's "not defined"): sprig's
//! the clock's (now ago, refused by that reason), the must* variants, float math
//! (addf … floor ceil round), seq, the other string helpers (abbrev wrap camelcase snakecase
//! kebabcase swapcase shuffle initials plural randAlpha …), chunk and the other list helpers,
//! semver, uuid, crypto and encodings beyond b64 and sha256 (sha1sum adler32sum b32enc
//! genPrivateKey …), typeIs kindIs; and of point 4, `templatePatch` and the strategic merge of
//! `spec.template` per generator.

mod error;
mod fasttemplate;
pub mod go;
mod quote;
#[cfg(test)]
mod reference;

use serde_json::{Map, Value};

pub use error::TemplateError;
pub use fasttemplate::replace as replace_flat;

/// `RenderTemplateParams`' `deeplyReplace` over a template as JSON (untouched when there are
/// no parameters): each string value and each map key is replaced; a
/// null in a map is dropped, as the controller skips nil map entries; numbers and booleans stay.
/// Keys are replaced after their values; two keys that become one keep the later value.
pub fn render_flat(template: &Value, params: &Map<String, Value>) -> Result<Value, TemplateError> {
    if params.is_empty() {
        return Ok(template.clone());
    }
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
    // A text with no action is its own output (text/template's lexer finds only text in it):
    // most of an Application's strings and keys (`spec`, `repoURL`, `HEAD`) are neither
    // parsed nor given the parameters, converted afresh for each string.
    if !template.contains("{{") {
        return Ok(template.to_string());
    }
    go::render_params(template, params, options).map_err(|error| {
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
    // RenderTemplateParams: with no parameters the template is returned as it is, `{{ }}` and all.
    if params.is_empty() {
        return Ok(template.clone());
    }
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

    // argo-cd utils_test.go TestRenderTemplateParamsGoTemplate, every row (upstream's messages
    // name the template "", from before the controller parsed into a clone of "base"; the rows
    // with a Go func parameter cannot be written in JSON and are left out).
    #[test]
    fn upstream_go_template_rows() {
        // Name, template, parameters, goTemplateOptions, output or message.
        type Row = (
            &'static str,
            &'static str,
            Value,
            &'static [&'static str],
            Result<&'static str, &'static str>,
        );
        let rows: &[Row] = &[
            (
                "simple substitution",
                "{{ .one }}",
                json!({"one": "two"}),
                &[],
                Ok("two"),
            ),
            (
                "template contains itself, containing itself",
                "{{ .one }}",
                json!({"one": "{{one}}"}),
                &[],
                Ok("{{one}}"),
            ),
            (
                "template contains itself, containing something else",
                "{{ .one }}",
                json!({"one": "{{two}}"}),
                &[],
                Ok("{{two}}"),
            ),
            (
                "multiple on a line",
                "{{.one}}{{.one}}",
                json!({"one": "two"}),
                &[],
                Ok("twotwo"),
            ),
            (
                "multiple different on a line",
                "{{.one}}{{.three}}",
                json!({"one": "two", "three": "four"}),
                &[],
                Ok("twofour"),
            ),
            (
                "multiple different on a line with quote",
                "{{.one}} {{.three}}",
                json!({"one": "\"hello\" world", "three": "four"}),
                &[],
                Ok("\"hello\" world four"),
            ),
            (
                "depth",
                "{{ .image.version }}",
                json!({"replicas": 3, "image": {"name": "busybox", "version": "latest"}}),
                &[],
                Ok("latest"),
            ),
            (
                "multiple depth",
                "{{ .image.name }}:{{ .image.version }}",
                json!({"image": {"name": "busybox", "version": "latest"}}),
                &[],
                Ok("busybox:latest"),
            ),
            (
                "if ok",
                "{{ if .hpa.enabled }}{{ .hpa.maxReplicas }}{{ else }}{{ .replicas }}{{ end }}",
                json!({"replicas": 3, "hpa": {"enabled": true, "minReplicas": 1, "maxReplicas": 5}}),
                &[],
                Ok("5"),
            ),
            (
                "if not ok",
                "{{ if .hpa.enabled }}{{ .hpa.maxReplicas }}{{ else }}{{ .replicas }}{{ end }}",
                json!({"replicas": 3, "hpa": {"enabled": false, "minReplicas": 1, "maxReplicas": 5}}),
                &[],
                Ok("3"),
            ),
            (
                "loop",
                "{{ range .volumes }}[{{ .name }}]{{ end }}",
                json!({"volumes": [{"name": "volume-one", "emptyDir": {}}, {"name": "volume-two", "emptyDir": {}}]}),
                &[],
                Ok("[volume-one][volume-two]"),
            ),
            (
                "Index",
                r#"{{ index .admin "admin-ca" }}, {{ index .admin "admin-jks" }}"#,
                json!({"admin": {"admin-ca": "value admin ca", "admin-jks": "value admin jks"}}),
                &[],
                Ok("value admin ca, value admin jks"),
            ),
            (
                "Index",
                r#"{{ index .admin "admin-ca" }}, \\ "Hello world", {{ index .admin "admin-jks" }}"#,
                json!({"admin": {"admin-ca": r#"value "admin" ca with \"#, "admin-jks": "value admin jks"}}),
                &[],
                Ok(r#"value "admin" ca with \, \\ "Hello world", value admin jks"#),
            ),
            ("quote", "{{.quote}}", json!({"quote": "\""}), &[], Ok("\"")),
            (
                "Test Parse Error",
                "{{functiondoesnotexist}}",
                json!({"data": "a data string"}),
                &[],
                Err(
                    r#"failed to parse template {{functiondoesnotexist}}: template: base:1: function "functiondoesnotexist" not defined"#,
                ),
            ),
            (
                "Test template error",
                "{{.data.test}}",
                json!({"data": "a data string"}),
                &[],
                Err(
                    r#"failed to execute go template {{.data.test}}: template: base:1:7: executing "base" at <.data.test>: can't evaluate field test in type interface {}"#,
                ),
            ),
            (
                "lookup missing value with missingkey=default",
                "--> {{.doesnotexist}} <--",
                json!({"unused": "this is not used"}),
                &[],
                Ok("--> <no value> <--"),
            ),
            (
                "lookup missing value with missingkey=error",
                "--> {{.doesnotexist}} <--",
                json!({"unused": "this is not used"}),
                &["missingkey=error"],
                Err(
                    r#"failed to execute go template --> {{.doesnotexist}} <--: template: base:1:6: executing "base" at <.doesnotexist>: map has no entry for key "doesnotexist""#,
                ),
            ),
            (
                "toYaml",
                "{{ toYaml . | indent 2 }}",
                json!({"foo": {"bar": {"bool": true, "number": 2, "str": "Hello world"}}}),
                &[],
                Ok("  foo:\n    bar:\n      bool: true\n      number: 2\n      str: Hello world"),
            ),
            (
                "fromYaml",
                r#"{{ get (fromYaml .value) "hello" }}"#,
                json!({"value": "hello: world"}),
                &[],
                Ok("world"),
            ),
            (
                "fromYaml error",
                r#"{{ get (fromYaml .value) "hello" }}"#,
                json!({"value": "non\n compliant\n yaml"}),
                &[],
                Err(
                    r#"failed to execute go template {{ get (fromYaml .value) "hello" }}: template: base:1:8: executing "base" at <fromYaml .value>: error calling fromYaml: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal string into Go value of type map[string]interface {}"#,
                ),
            ),
            (
                "fromYamlArray",
                "{{ fromYamlArray .value | last }}",
                json!({"value": "- hello world\n- bonjour tout le monde"}),
                &[],
                Ok("bonjour tout le monde"),
            ),
            (
                "fromYamlArray error",
                "{{ fromYamlArray .value | last }}",
                json!({"value": "non\n compliant\n yaml"}),
                &[],
                Err(
                    r#"failed to execute go template {{ fromYamlArray .value | last }}: template: base:1:3: executing "base" at <fromYamlArray .value>: error calling fromYamlArray: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal string into Go value of type []interface {}"#,
                ),
            ),
        ];
        for (name, template, params, options, expected) in rows {
            let options: Vec<String> = options.iter().map(|o| o.to_string()).collect();
            let got = replace(template, params.as_object().unwrap(), true, &options);
            let got = got.map_err(|e| e.to_string());
            let expected = expected.map(str::to_string).map_err(str::to_string);
            assert_eq!(got, expected, "{name}");
        }
        // "Test No Data": no parameters, no templating at all.
        let untouched = render(&json!({"a": "{{.data}}"}), &Map::new(), true, &[]).unwrap();
        assert_eq!(untouched, json!({"a": "{{.data}}"}));
    }

    // argo-cd utils_test.go TestRenderTemplateKeys ("gotemplate") and
    // Test_Render_Replace_no_panic_on_missing_closing_brace.
    #[test]
    fn upstream_keys_and_unclosed_brace() {
        let params = json!({"key": "some-key", "value": "some-value"});
        let template = json!({"metadata": {"annotations": {"annotation-{{ .key }}": "annotation-{{ .value }}"}}});
        let rendered = render(&template, params.as_object().unwrap(), true, &[]).unwrap();
        assert_eq!(
            rendered,
            json!({"metadata": {"annotations": {"annotation-some-key": "annotation-some-value"}}})
        );
        let error = replace(
            "{{properly.closed}} {{improperly.closed}",
            &Map::new(),
            false,
            &[],
        );
        assert!(error.is_err());
    }
}
