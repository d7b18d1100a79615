//! What the generators do to parameter sets: Go's `%v` of a value, jeremywohl/flatten's dot
//! style, dario.cat/mergo's override merge, and `appendTemplatedValues`.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::argocd::params::Params;
use crate::argocd::template::{self, TemplateError};

/// `fmt.Sprintf("%v", v)` of a value as Go's JSON decoding holds it: numbers are float64
/// (`1e+06`), null is `<nil>`, a list `[a b]`, a map `map[k:v]` with its keys sorted.
pub fn go_sprint(value: &Value) -> String {
    match value {
        Value::Null => "<nil>".to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => crate::go_float::format(n.as_f64().unwrap_or(0.0), 'g', None),
        Value::String(s) => s.clone(),
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(go_sprint).collect();
            format!("[{}]", items.join(" "))
        }
        Value::Object(fields) => {
            let mut keys: Vec<&String> = fields.keys().collect();
            keys.sort();
            let fields: Vec<String> = keys
                .into_iter()
                .map(|k| format!("{k}:{}", go_sprint(&fields[k])))
                .collect();
            format!("map[{}]", fields.join(" "))
        }
    }
}

/// jeremywohl/flatten `Flatten(in, "", DotStyle)` and `%v` of each leaf: nested maps and lists
/// joined with dots (`values.foo`, `values.0`); an empty map or list leaves no key.
pub fn flatten(params: &Map<String, Value>) -> BTreeMap<String, String> {
    let mut flat = BTreeMap::new();
    for (key, value) in params {
        flatten_into(key.clone(), value, &mut flat);
    }
    flat
}

fn flatten_into(key: String, value: &Value, flat: &mut BTreeMap<String, String>) {
    match value {
        Value::Object(fields) => {
            for (k, v) in fields {
                flatten_into(format!("{key}.{k}"), v, flat);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                flatten_into(format!("{key}.{i}"), v, flat);
            }
        }
        leaf => {
            flat.insert(key, go_sprint(leaf));
        }
    }
}

/// `mergo.Merge(&dst, src, mergo.WithOverride)` over two parameter maps: a map merges into a
/// non-empty map key by key; anything else of `src` (a list, a scalar, an empty string, null)
/// replaces what `dst` holds.
pub fn merge_override(dst: &mut Map<String, Value>, src: &Map<String, Value>) {
    for (key, value) in src {
        match (dst.get_mut(key), value) {
            (Some(Value::Object(inner)), Value::Object(over)) if !inner.is_empty() => {
                merge_override(inner, over);
            }
            _ => {
                dst.insert(key.clone(), value.clone());
            }
        }
    }
}

/// value_interpolation.go `appendTemplatedValues`: each of a generator's `values` rendered
/// with the parameter set (which does not yet hold the values), then added as `values.<key>`
/// (flat) or as the map `values` (goTemplate, replacing any `values` the set had).
pub fn append_templated_values(
    values: &[(String, String)],
    params: &mut Params,
    go_template: bool,
    go_template_options: &[String],
) -> Result<(), TemplateError> {
    if values.is_empty() {
        return Ok(());
    }
    let mut rendered = Map::new();
    for (key, value) in values {
        let result = template::replace(value, params, go_template, go_template_options)
            .map_err(|e| {
                TemplateError::new(format!(
                    "failed to replace templated string: failed to replace templated string with rendered values: {e}"
                ))
            })?;
        rendered.insert(key.clone(), Value::String(result));
    }
    if go_template {
        params.insert("values".to_string(), Value::Object(rendered));
    } else {
        for (key, value) in rendered {
            params.insert(format!("values.{key}"), value);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn params(value: Value) -> Params {
        value.as_object().unwrap().clone()
    }

    type Row = (
        &'static str,
        &'static [(&'static str, &'static str)],
        Value,
        Value,
    );

    fn check(rows: &[Row], go_template: bool) {
        for (name, values, input, expected) in rows {
            let values: Vec<(String, String)> = values
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            let mut got = params(input.clone());
            append_templated_values(&values, &mut got, go_template, &[]).unwrap();
            assert_eq!(Value::Object(got), *expected, "{name}");
        }
    }

    // argo-cd value_interpolation_test.go TestValueInterpolation, every row.
    #[test]
    fn upstream_value_interpolation() {
        check(
            &[
                (
                    "Simple interpolation",
                    &[("hello", "{{ world }}")],
                    json!({"world": "world!"}),
                    json!({"world": "world!", "values.hello": "world!"}),
                ),
                (
                    "Non-existent",
                    &[("non-existent", "{{ non-existent }}")],
                    json!({}),
                    json!({"values.non-existent": "{{ non-existent }}"}),
                ),
                (
                    "Billion laughs",
                    &[
                        ("lol1", "lol"),
                        ("lol2", "{{values.lol1}}{{values.lol1}}"),
                        ("lol3", "{{values.lol2}}{{values.lol2}}{{values.lol2}}"),
                    ],
                    json!({}),
                    json!({"values.lol1": "lol", "values.lol2": "{{values.lol1}}{{values.lol1}}",
                           "values.lol3": "{{values.lol2}}{{values.lol2}}{{values.lol2}}"}),
                ),
            ],
            false,
        );
    }

    // argo-cd value_interpolation_test.go TestValueInterpolationWithGoTemplating, every row.
    #[test]
    fn upstream_value_interpolation_go_template() {
        check(
            &[
                (
                    "Simple interpolation",
                    &[("hello", "{{ .world }}")],
                    json!({"world": "world!"}),
                    json!({"world": "world!", "values": {"hello": "world!"}}),
                ),
                (
                    "Non-existent to default",
                    &[("non_existent", "{{ default \"bar\" .non_existent }}")],
                    json!({}),
                    json!({"values": {"non_existent": "bar"}}),
                ),
                (
                    "Billion laughs",
                    &[
                        ("lol1", "lol"),
                        ("lol2", "{{.values.lol1}}{{.values.lol1}}"),
                        ("lol3", "{{.values.lol2}}{{.values.lol2}}{{.values.lol2}}"),
                    ],
                    json!({}),
                    json!({"values": {"lol1": "lol", "lol2": "<no value><no value>",
                                      "lol3": "<no value><no value><no value>"}}),
                ),
            ],
            true,
        );
    }

    #[test]
    fn flatten_and_sprint_as_go_does() {
        let p =
            params(json!({"a": {"b": [1000000, 2.5, true, null], "e": {}}, "s": "x", "n": 100000}));
        let flat = flatten(&p);
        assert_eq!(flat["a.b.0"], "1e+06");
        assert_eq!(flat["a.b.1"], "2.5");
        assert_eq!(flat["a.b.2"], "true");
        assert_eq!(flat["a.b.3"], "<nil>");
        assert_eq!(flat["n"], "100000");
        assert!(!flat.keys().any(|k| k.starts_with("a.e")));
        assert_eq!(
            go_sprint(&json!({"b": 1, "a": [1, "x"]})),
            "map[a:[1 x] b:1]"
        );
    }

    #[test]
    fn override_merge_as_mergo_does() {
        let mut dst = params(json!({"a": {"x": 1, "y": 2}, "l": [1, 2], "s": "keep", "e": {}}));
        let src = params(json!({"a": {"y": 3}, "l": [], "s": "", "e": {"z": 1}, "n": null}));
        merge_override(&mut dst, &src);
        assert_eq!(
            Value::Object(dst),
            json!({"a": {"x": 1, "y": 3}, "l": [], "s": "", "e": {"z": 1}, "n": null})
        );
    }
}
