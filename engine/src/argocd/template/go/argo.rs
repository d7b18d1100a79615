//! Argo CD's own template functions (applicationset/utils/utils.go `init`): `normalize`,
//! `slugify`, `toYaml`, `fromYaml`, `fromYamlArray`.

use super::signature::{Func, Param, f};
use super::value::Value;

pub(crate) fn lookup(name: &str) -> Option<Func> {
    Some(match name {
        "normalize" => f(&[Param::Str], None, |a, _| {
            Ok(Value::String(sanitize_name(string(&a[0]))))
        }),
        "slugify" => f(&[], Some(Param::Any), slugify),
        "toYaml" => f(&[Param::Any], None, |a, _| {
            // JSONToYAML reads the JSON back: `-0` is then the integer 0.
            let yaml = crate::yaml::go_marshal::marshal(&without_negative_zero(a[0].to_json()));
            Ok(Value::String(
                yaml.strip_suffix('\n').unwrap_or(&yaml).to_string(),
            ))
        }),
        "fromYaml" => f(&[Param::Str], None, |a, _| {
            match from_yaml(string(&a[0]))? {
                serde_json::Value::Object(map) => {
                    Ok(Value::from_json(&serde_json::Value::Object(map)))
                }
                serde_json::Value::Null => Ok(Value::map(Default::default())),
                other => Err(cannot_unmarshal(&other, "map[string]interface {}")),
            }
        }),
        "fromYamlArray" => f(&[Param::Str], None, |a, _| {
            match from_yaml(string(&a[0]))? {
                serde_json::Value::Array(items) => {
                    Ok(Value::from_json(&serde_json::Value::Array(items)))
                }
                serde_json::Value::Null => Ok(Value::list(Vec::new())),
                other => Err(cannot_unmarshal(&other, "[]interface {}")),
            }
        }),
        _ => return None,
    })
}

fn without_negative_zero(json: serde_json::Value) -> serde_json::Value {
    match json {
        serde_json::Value::Number(n)
            if n.as_f64() == Some(0.0) && n.as_i64().is_none() && n.as_u64().is_none() =>
        {
            serde_json::Value::from(0)
        }
        serde_json::Value::Array(items) => {
            serde_json::Value::Array(items.into_iter().map(without_negative_zero).collect())
        }
        serde_json::Value::Object(fields) => serde_json::Value::Object(
            fields
                .into_iter()
                .map(|(k, v)| (k, without_negative_zero(v)))
                .collect(),
        ),
        other => other,
    }
}

/// sigs.k8s.io/yaml's message when the document is not of the kind asked for.
fn cannot_unmarshal(value: &serde_json::Value, into: &str) -> String {
    let kind = match value {
        serde_json::Value::Bool(_) => "bool",
        serde_json::Value::Number(_) => "number",
        serde_json::Value::String(_) => "string",
        serde_json::Value::Array(_) => "array",
        _ => "object",
    };
    format!(
        "error unmarshaling JSON: while decoding JSON: json: cannot unmarshal {kind} into Go value of type {into}"
    )
}

/// How a failed type assertion names the value's type: `nil` for a nil interface.
fn conversion_name(value: &Value) -> &'static str {
    if value.is_nil() {
        "nil"
    } else {
        value.type_name()
    }
}

fn string(value: &Value) -> &str {
    match value {
        Value::String(s) => s,
        _ => "",
    }
}

/// sigs.k8s.io/yaml `Unmarshal`: the first document, as JSON (numbers then become float64).
fn from_yaml(text: &str) -> Result<serde_json::Value, String> {
    let documents = crate::yaml::split_documents(text);
    let Some(document) = documents.first() else {
        return Ok(serde_json::Value::Null);
    };
    crate::yaml::parse_document_as_yaml_to_json(document, "")
        .map_err(|d| format!("error converting YAML to JSON: {}", d.message))
}

/// utils.go `SanitizeName`: lower case, every rune but `-a-z0-9.` a dash, at most 253 bytes,
/// dashes and dots trimmed from both ends.
pub(crate) fn sanitize_name(name: &str) -> String {
    let lower = name.to_lowercase();
    let mut out: String = lower
        .chars()
        .map(|c| {
            if c == '-' || c == '.' || c.is_ascii_lowercase() || c.is_ascii_digit() {
                c
            } else {
                '-'
            }
        })
        .collect();
    out.truncate(253);
    out.trim_matches(['-', '.']).to_string()
}

/// utils.go `SlugifyName(args...)`: the last argument the name, an optional first the maximum
/// length (50) and second whether to cut at a word (true); then gosimple/slug `Make` of the
/// sanitized name (dots become dashes, dashes collapse, the cut at the last dash that fits).
fn slugify(args: &[Value], _: Option<&str>) -> Result<Value, String> {
    let mut max = 50usize;
    let mut smart = true;
    let mut name = String::new();
    for (i, arg) in args.iter().enumerate() {
        if i + 1 == args.len() {
            match arg {
                Value::String(s) => name = s.clone(),
                other => {
                    return Err(format!(
                        "interface conversion: interface {{}} is {}, not string",
                        conversion_name(other)
                    ));
                }
            }
        } else if i == 0 {
            match arg {
                Value::Int(n, super::value::IntType::Int) => max = (*n).max(0) as usize,
                other => {
                    return Err(format!(
                        "interface conversion: interface {{}} is {}, not int",
                        conversion_name(other)
                    ));
                }
            }
        } else if i == 1 {
            match arg {
                Value::Bool(b) => smart = *b,
                other => {
                    return Err(format!(
                        "interface conversion: interface {{}} is {}, not bool",
                        conversion_name(other)
                    ));
                }
            }
        }
    }
    let mut slug = sanitize_name(&name);
    if !smart && slug.len() >= max {
        slug.truncate(max);
    }
    let mut collapsed = String::new();
    for c in slug.chars() {
        let c = if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
            c
        } else {
            '-'
        };
        if c == '-' && collapsed.ends_with('-') {
            continue;
        }
        collapsed.push(c);
    }
    let mut slug = collapsed.trim_matches(['-', '_']).to_string();
    if max > 0 && smart && slug.len() > max {
        let cut = slug.as_bytes()[..=max]
            .iter()
            .rposition(|&b| b == b'-')
            .unwrap_or(max);
        slug.truncate(cut);
    }
    Ok(Value::String(slug))
}

#[cfg(test)]
mod tests {
    use super::*;

    // argo-cd utils_test.go TestSanitizeName and TestSlugify.
    #[test]
    fn normalize_and_slugify_as_argo_cd() {
        assert_eq!(sanitize_name("Guestbook_App"), "guestbook-app");
        assert_eq!(sanitize_name("-.app.-"), "app");
        let slug = |args: Vec<Value>| slugify(&args, None).unwrap();
        let s = |t: &str| Value::String(t.into());
        assert!(
            matches!(slug(vec![s("Hello.World_Foo")]), Value::String(t) if t == "hello-world-foo")
        );
        assert!(
            matches!(slug(vec![Value::int(10), s("hello-world-foo-bar")]), Value::String(t) if t == "hello")
        );
        assert!(
            matches!(slug(vec![Value::int(10), Value::Bool(false), s("hello-world-foo-bar")]), Value::String(t) if t == "hello-worl")
        );
    }
}
