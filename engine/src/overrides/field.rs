//! fieldOverrider: patches a YAML or JSON document held in a string field, such as a ConfigMap
//! `data` entry (karmada pkg/util/overridemanager/overridemanager.go `applyFieldOverriders`,
//! `applyRawYAMLPatch`, `applyRawJSONPatch`).
//!
//! Karmada resolves `fieldPath` with go-openapi/jsonpointer, patches the string's content with
//! evanphx/json-patch and writes a new string back. YAML content is re-serialised in go-yaml v2
//! style (keys sorted, comments and anchors gone); JSON content comes back compact with Go's
//! HTML escaping, each value the patch did not reach keeping its text (`super::raw_json`).

use serde_json::{Number, Value};

use crate::api::karmada::{FieldOverrider, PatchOperation};
use crate::overrides::patch;
use crate::yaml::go_marshal;

/// Applies one fieldOverrider entry to `object`.
///
/// When `yaml` is non-empty it wins and `json` is ignored; when both are empty the field becomes
/// `""` (admission rejects both cases, spec §10, but this is what Karmada would do).
pub fn apply_field_overrider(object: &mut Value, overrider: &FieldOverrider) -> Result<(), String> {
    let path = &overrider.field_path;
    let tokens = patch::tokens(path).map_err(|problem| format!("fieldPath {path:?}: {problem}"))?;
    let target = value_at_mut(object, &tokens)
        .map_err(|problem| format!("fieldPath {path:?}: {problem}"))?;
    let Value::String(content) = target else {
        return Err(format!(
            "the value at fieldPath {path:?} is {}, not a string",
            crate::object::json_type_name(target)
        ));
    };
    let patched = if !overrider.yaml.is_empty() {
        patch_yaml(content, &overrider.yaml)
    } else if !overrider.json.is_empty() {
        patch_json(content, &overrider.json)
    } else {
        Ok(String::new())
    }
    .map_err(|problem| format!("the value at fieldPath {path:?}: {problem}"))?;
    *content = patched;
    Ok(())
}

/// go-openapi/jsonpointer `Pointer.Get` on an unstructured object: tokens are already decoded;
/// a list takes a decimal index `0 <= i < len` (no `-`, no negative index), and a missing key,
/// a bad index or a scalar or null on the way is an error.
fn value_at_mut<'a>(object: &'a mut Value, tokens: &[String]) -> Result<&'a mut Value, String> {
    let mut node = object;
    let mut walked = String::new();
    // The place is described only on failure: describing it at every step would cost the
    // path's length times its depth.
    let here = |walked: &str| {
        if walked.is_empty() {
            "the object root".to_string()
        } else {
            walked.to_string()
        }
    };
    for (index, token) in tokens.iter().enumerate() {
        node = match node {
            Value::Object(map) => {
                if !map.contains_key(token) {
                    let hint = patch::nearest_path_hint(
                        &walked,
                        token,
                        map.keys().map(String::as_str),
                        &tokens[index + 1..],
                    );
                    return Err(format!("{} has no key {token:?}{hint}", here(&walked)));
                }
                map.get_mut(token).expect("checked above")
            }
            Value::Array(list) => {
                let length = list.len();
                // strconv.Atoi: an optional sign, then decimal digits.
                let index: i64 = token
                    .parse()
                    .map_err(|_| format!("{token:?} is not a list index at {}", here(&walked)))?;
                usize::try_from(index)
                    .ok()
                    .and_then(|index| list.get_mut(index))
                    .ok_or_else(|| {
                        format!(
                            "index {index} is out of range for the list at {} (length {length})",
                            here(&walked)
                        )
                    })?
            }
            other => {
                return Err(format!(
                    "{} is {}, which has no {token:?}",
                    here(&walked),
                    crate::object::json_type_name(other)
                ));
            }
        };
        walked.push('/');
        walked.push_str(&token.replace('~', "~0").replace('/', "~1"));
    }
    Ok(node)
}

/// `applyRawYAMLPatch`: sigs.k8s.io/yaml `YAMLToJSON` (first document only, go-yaml v2
/// reading), the patch, then `JSONToYAML` (go-yaml v2 `Marshal`, keys sorted).
fn patch_yaml(content: &str, operations: &[PatchOperation]) -> Result<String, String> {
    let mut document = match crate::yaml::split_documents(content).first() {
        None => Value::Null,
        Some(first) => crate::yaml::parse_document_as_yaml_to_json(first, "fieldOverrider")
            .map_err(|error| {
                let line = error
                    .origin
                    .map(|origin| format!(" (line {})", origin.line))
                    .unwrap_or_default();
                format!("not valid YAML{line}: {}", error.message)
            })?,
    };
    check_patchable(&document, true, "YAML")?;
    apply_operations(&mut document, operations)?;
    check_patched(&document, "YAML")?;
    // The round trip through Go's encoding/json writes every integral float as an integer,
    // which go-yaml then reads back as one.
    integral_floats_to_integers(&mut document);
    Ok(go_marshal::marshal(&document))
}

/// `applyRawJSONPatch`: evanphx/json-patch on the text itself ([`super::raw_json`]). Empty
/// input is returned unchanged.
fn patch_json(content: &str, operations: &[PatchOperation]) -> Result<String, String> {
    if content.is_empty() {
        return Ok(String::new());
    }
    as_one_patch(operations, |operations| {
        super::raw_json::patch(content, operations)
    })
}

/// evanphx `ApplyIndentWithOptions` reads a document whose first byte is `[` as a list and
/// anything else as an object: a scalar, or a list preceded by white space, cannot be patched.
/// A null document is let through so that the patch reports what it could not find.
fn check_patchable(document: &Value, starts_as_list: bool, format: &str) -> Result<(), String> {
    match document {
        Value::Object(_) | Value::Null => Ok(()),
        Value::Array(_) if starts_as_list => Ok(()),
        Value::Array(_) => Err(format!(
            "the {format} document is a list preceded by white space, which Karmada's patch \
             library reads as an object and rejects"
        )),
        other => Err(format!(
            "the {format} document is {}, not an object or a list",
            crate::object::json_type_name(other)
        )),
    }
}

/// evanphx can only write back an object or a list (an empty or null document fails here).
fn check_patched(document: &Value, format: &str) -> Result<(), String> {
    match document {
        Value::Object(_) | Value::Array(_) => Ok(()),
        other => Err(format!(
            "the patched {format} document is {}, not an object or a list",
            crate::object::json_type_name(other)
        )),
    }
}

fn apply_operations(document: &mut Value, operations: &[PatchOperation]) -> Result<(), String> {
    as_one_patch(operations, |operations| patch::apply(document, operations))
}

/// Hands the sub-operations to `apply` as one RFC 6902 patch, `subPath` relative to the
/// document root. Values reach Karmada as the API server stored them: JSON written by Go from
/// a map, where an integral float is an integer and object keys are sorted.
fn as_one_patch<T>(
    operations: &[PatchOperation],
    apply: impl FnOnce(&[patch::Operation<'_>]) -> T,
) -> T {
    let values: Vec<Option<Value>> = operations
        .iter()
        .map(|operation| operation.value.clone().map(as_stored_by_the_api_server))
        .collect();
    let operations: Vec<patch::Operation<'_>> = operations
        .iter()
        .zip(&values)
        .map(|(operation, value)| patch::Operation {
            operator: operation.operator,
            path: &operation.sub_path,
            value: value.as_ref(),
        })
        .collect();
    apply(&operations)
}

/// A policy's `value` as Karmada reads it back from the API server. The API server keeps a
/// custom resource as a Go map and writes it out with encoding/json, which sorts every
/// object's keys byte-wise; the `apiextensionsv1.JSON` value Karmada then hands to
/// evanphx/json-patch is those bytes (karmada pkg/apis/policy/v1alpha1/override_types.go
/// `JSONPatchOperation.Value`, overridemanager.go `parseJSONPatchesByField`). So an object
/// added to JSON content arrives with its keys sorted, however the policy wrote them.
fn as_stored_by_the_api_server(mut value: Value) -> Value {
    integral_floats_to_integers(&mut value);
    sort_keys(&mut value);
    value
}

fn sort_keys(value: &mut Value) {
    match value {
        Value::Array(list) => list.iter_mut().for_each(sort_keys),
        Value::Object(map) => {
            map.sort_keys();
            map.values_mut().for_each(sort_keys);
        }
        _ => {}
    }
}

/// Go's encoding/json writes a float64 without fraction in plain digits, so `1.0` travels as `1`
/// and is read back as an integer.
fn integral_floats_to_integers(value: &mut Value) {
    match value {
        Value::Number(number) => {
            // Integral floats inside the 64-bit ranges convert exactly; go-yaml reads larger
            // ones back as floats, which stay floats here too.
            const TWO_POW_63: f64 = 9_223_372_036_854_775_808.0;
            if number.is_f64()
                && let Some(float) = number.as_f64()
                && float.fract() == 0.0
            {
                if (-TWO_POW_63..TWO_POW_63).contains(&float) {
                    *number = Number::from(float as i64);
                } else if (0.0..2.0 * TWO_POW_63).contains(&float) {
                    *number = Number::from(float as u64);
                }
            }
        }
        Value::Array(list) => list.iter_mut().for_each(integral_floats_to_integers),
        Value::Object(map) => map.values_mut().for_each(integral_floats_to_integers),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::karmada::OverriderOperator::{self, Add, Remove, Replace};
    use serde_json::json;

    fn op(operator: OverriderOperator, sub_path: &str, value: Option<Value>) -> PatchOperation {
        PatchOperation {
            sub_path: sub_path.to_string(),
            operator,
            value,
        }
    }

    fn yaml(field_path: &str, operations: Vec<PatchOperation>) -> FieldOverrider {
        FieldOverrider {
            field_path: field_path.to_string(),
            json: Vec::new(),
            yaml: operations,
        }
    }

    fn json_field(field_path: &str, operations: Vec<PatchOperation>) -> FieldOverrider {
        FieldOverrider {
            field_path: field_path.to_string(),
            json: operations,
            yaml: Vec::new(),
        }
    }

    fn config_map(key: &str, content: &str) -> Value {
        json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "test1", "namespace": "default"},
               "data": {key: content}})
    }

    /// Patches `content` held in a ConfigMap and returns the new content.
    fn patched(overrider: &FieldOverrider, content: &str) -> Result<String, String> {
        let key = overrider
            .field_path
            .trim_start_matches("/data/")
            .replace("~1", "/");
        let mut object = config_map(&key, content);
        apply_field_overrider(&mut object, overrider)?;
        Ok(object["data"][key.as_str()]
            .as_str()
            .unwrap_or_default()
            .to_string())
    }

    // karmada overridemanager_test.go Test_overrideManagerImpl_ApplyFieldOverriderPolicies_YAML:
    // the whole document is re-serialised, the blank first line and trailing space go.
    #[test]
    fn yaml_replace_re_serialises_the_document() {
        let overrider = yaml(
            "/data/test.yaml",
            vec![op(Replace, "/key/key1", Some(json!("updated_value")))],
        );
        assert_eq!(
            patched(&overrider, "\nkey: \n  key1: value\n").unwrap(),
            "key:\n  key1: updated_value\n"
        );
    }

    // karmada overridemanager_test.go Test_overrideManagerImpl_ApplyJSONOverridePolicies_JSON.
    #[test]
    fn json_replace_keeps_the_document_compact() {
        let overrider = json_field(
            "/data/test.json",
            vec![op(Replace, "/key/key1", Some(json!("updated_value")))],
        );
        assert_eq!(
            patched(&overrider, r#"{"key":{"key1":"value"}}"#).unwrap(),
            r#"{"key":{"key1":"updated_value"}}"#
        );
    }

    // karmada test/e2e/suites/base/overridepolicy_test.go "[FieldOverrider] apply field
    // overrider testing to update JSON values in ConfigMap": three operations as one patch on a
    // pretty-printed document; the output is compact and keeps the document's key order, while
    // the added container comes with its keys sorted, as the API server stored the policy (the
    // e2e test only checks substrings).
    #[test]
    fn json_operations_on_an_indented_deployment() {
        let content = r#"{
            "apiVersion": "apps/v1",
            "kind": "Deployment",
            "metadata": {"name": "nginx-deploy", "namespace": "ns"},
            "spec": {
                "replicas": 3,
                "selector": {"matchLabels": {"app": "nginx"}},
                "template": {
                    "metadata": {"labels": {"app": "nginx"}},
                    "spec": {"containers": [{"name": "nginx", "image": "nginx:1.19.0"}]}
                }
            }
        }"#;
        let overrider = json_field(
            "/data/deploy.json",
            vec![
                op(Replace, "/spec/replicas", Some(json!(5))),
                op(
                    Add,
                    "/spec/template/spec/containers/-",
                    Some(json!({"name": "nginx-helper", "image": "nginx:1.19.1"})),
                ),
                op(Remove, "/spec/template/spec/containers/0/image", None),
            ],
        );
        assert_eq!(
            patched(&overrider, content).unwrap(),
            concat!(
                r#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"nginx-deploy","namespace":"ns"},"#,
                r#""spec":{"replicas":5,"selector":{"matchLabels":{"app":"nginx"}},"template":{"metadata":{"labels":"#,
                r#"{"app":"nginx"}},"spec":{"containers":[{"name":"nginx"},{"image":"nginx:1.19.1","name":"nginx-helper"}]}}}}"#
            )
        );
    }

    // karmada test/e2e/suites/base/overridepolicy_test.go "[FieldOverrider] apply field
    // overrider testing to update YAML values in ConfigMap": `~1` in a subPath, `-` appends,
    // and the keys come back sorted.
    #[test]
    fn yaml_operations_on_an_nginx_config() {
        let content = "
server:
  listen: 80
  server_name: localhost
  location /:
    root: /usr/share/nginx/html
    index: 
      - index.html
      - index.htm
  error_page:
    - code: 500
    - code: 502
    - code: 503
    - code: 504
  location /50x.html:
    root: /usr/share/nginx/html
";
        let overrider = yaml(
            "/data/nginx.yaml",
            vec![
                op(
                    Replace,
                    "/server/location ~1/root",
                    Some(json!("/var/www/html")),
                ),
                op(Add, "/server/error_page/-", Some(json!({"code": 400}))),
                op(Remove, "/server/location ~1/index", None),
            ],
        );
        assert_eq!(
            patched(&overrider, content).unwrap(),
            "server:
  error_page:
  - code: 500
  - code: 502
  - code: 503
  - code: 504
  - code: 400
  listen: 80
  location /:
    root: /var/www/html
  location /50x.html:
    root: /usr/share/nginx/html
  server_name: localhost
"
        );
    }

    // karmada-overrides spec §9.4: evanphx keeps the key order; `add` of a new key appends it,
    // `add` or `replace` of an existing one keeps its place.
    #[test]
    fn json_key_order_is_the_documents() {
        let content = r#"{"zeta": 1, "alpha": {"b": 2, "a": 1}}"#;
        let add = json_field("/data/x", vec![op(Add, "/alpha/0", Some(json!(true)))]);
        assert_eq!(
            patched(&add, content).unwrap(),
            r#"{"zeta":1,"alpha":{"b":2,"a":1,"0":true}}"#
        );
        let overwrite = json_field("/data/x", vec![op(Add, "/zeta", Some(json!([1, 2])))]);
        assert_eq!(
            patched(&overwrite, content).unwrap(),
            r#"{"zeta":[1,2],"alpha":{"b":2,"a":1}}"#
        );
        let list = json_field("/data/x", vec![op(Add, "/1", Some(json!("x")))]);
        assert_eq!(patched(&list, r#"["a", "b"]"#).unwrap(), r#"["a","x","b"]"#);
    }

    // karmada overridemanager.go `parseJSONPatchesByField`: the value is the policy as the API
    // server stored it, a Go map written by encoding/json, so an added object's keys (nested
    // ones too) arrive sorted; the document's own keys keep their order.
    #[test]
    fn json_added_objects_arrive_with_sorted_keys() {
        let value = json!({"zeta": 1, "Alpha": {"y": [{"b": 1, "a": 2}], "x": 0}, "alpha": 3});
        let add = json_field("/data/x", vec![op(Add, "/new", Some(value))]);
        assert_eq!(
            patched(&add, r#"{"z":1,"a":2}"#).unwrap(),
            r#"{"z":1,"a":2,"new":{"Alpha":{"x":0,"y":[{"a":2,"b":1}]},"alpha":3,"zeta":1}}"#
        );
    }

    // evanphx partialDoc.remove deletes the key from its ordered key list. patch.rs hands the
    // removal to the json-patch crate, whose `Map::remove` is a swap_remove under serde_json's
    // preserve_order, so the last key jumps into the hole.
    #[test]
    fn json_remove_keeps_the_order_of_the_other_keys() {
        let remove = json_field("/data/x", vec![op(Remove, "/a", None)]);
        assert_eq!(
            patched(&remove, r#"{"a":1,"b":2,"c":3}"#).unwrap(),
            r#"{"b":2,"c":3}"#
        );
    }

    // evanphx internal/json encodeState.string with EscapeHTML on.
    #[test]
    fn json_strings_are_escaped_the_go_way() {
        let overrider = json_field(
            "/data/x",
            vec![op(
                Add,
                "/s",
                Some(json!(
                    "<a href=\"x\">&</a>\u{2028}\u{2029}\u{8}\u{c}\u{1}\t\n\\é"
                )),
            )],
        );
        assert_eq!(
            patched(&overrider, "{}").unwrap(),
            r#"{"s":"\u003ca href=\"x\"\u003e\u0026\u003c/a\u003e\u2028\u2029\u0008\u000c\u0001\t\n\\é"}"#
        );
    }

    // evanphx ApplyIndentWithOptions returns empty input unchanged; YAML turns it into `null`,
    // which cannot be patched.
    #[test]
    fn an_empty_string_stays_empty_for_json_only() {
        let json_overrider = json_field("/data/x", vec![op(Add, "/a", Some(json!(1)))]);
        assert_eq!(patched(&json_overrider, "").unwrap(), "");
        let yaml_overrider = yaml("/data/x", vec![op(Add, "/a", Some(json!(1)))]);
        assert!(patched(&yaml_overrider, "").is_err());
        assert!(patched(&yaml_overrider, "# only a comment\n").is_err());
    }

    // karmada-overrides spec §9.6: content that is not YAML or JSON, or not a map or list.
    #[test]
    fn invalid_or_scalar_content_is_an_error() {
        let json_overrider = json_field("/data/x", vec![op(Add, "/a", Some(json!(1)))]);
        let error = patched(&json_overrider, "{not json").unwrap_err();
        assert!(
            error.starts_with("the value at fieldPath \"/data/x\": not valid JSON"),
            "{error}"
        );
        assert!(
            patched(&json_overrider, "\"text\"")
                .unwrap_err()
                .contains("is a string, not an object or a list")
        );
        assert!(patched(&json_overrider, "null").is_err());
        let list = json_field("/data/x", vec![op(Add, "/-", Some(json!(2)))]);
        assert_eq!(patched(&list, "[1]").unwrap(), "[1,2]");
        assert!(
            patched(&list, " [1]")
                .unwrap_err()
                .contains("preceded by white space")
        );
        let yaml_overrider = yaml("/data/x", vec![op(Add, "/a", Some(json!(1)))]);
        assert!(
            patched(&yaml_overrider, "a: [1\n")
                .unwrap_err()
                .contains("not valid YAML (line")
        );
        assert!(
            patched(&yaml_overrider, "just text\n")
                .unwrap_err()
                .contains("is a string")
        );
        let yaml_list = yaml("/data/x", vec![op(Add, "/0", Some(json!("z")))]);
        assert_eq!(
            patched(&yaml_list, "- a\n- b\n").unwrap(),
            "- z\n- a\n- b\n"
        );
    }

    /// JSON content may nest as deep as a document, as YAML content may; serde_json alone would
    /// read twice as deep.
    #[test]
    fn content_nesting_is_capped_alike_for_json_and_yaml() {
        let limit = crate::yaml::MAX_NESTING_DEPTH;
        let nested = |levels: usize| format!("{}1{}", "[".repeat(levels), "]".repeat(levels));
        let json_overrider = json_field("/data/x", vec![op(Add, "/-", Some(json!(2)))]);
        assert!(patched(&json_overrider, &nested(limit)).is_ok());
        let error = patched(&json_overrider, &nested(limit + 1)).unwrap_err();
        assert!(
            error.contains("not a JSON document fedrender reads"),
            "{error}"
        );
        let yaml_overrider = yaml("/data/x", vec![op(Add, "/-", Some(json!(2)))]);
        assert!(patched(&yaml_overrider, &nested(limit)).is_ok());
        let error = patched(&yaml_overrider, &nested(limit + 1)).unwrap_err();
        assert!(error.contains("not valid YAML"), "{error}");
    }

    // karmada-overrides spec §9.5 through §9.4: the sub-operations follow the plaintext rules.
    #[test]
    fn sub_operations_follow_json_patch_rules() {
        let missing = json_field("/data/x", vec![op(Remove, "/b", None)]);
        assert!(patched(&missing, r#"{"a":1}"#).is_err());
        let no_parent = yaml("/data/x", vec![op(Add, "/a/b/c", Some(json!(1)))]);
        assert!(patched(&no_parent, "a: {}\n").is_err());
        // One patch: the second operation sees the first.
        let chained = json_field(
            "/data/x",
            vec![
                op(Add, "/b", Some(json!({}))),
                op(Add, "/b/c", Some(json!(1))),
            ],
        );
        assert_eq!(
            patched(&chained, r#"{"a":1}"#).unwrap(),
            r#"{"a":1,"b":{"c":1}}"#
        );
    }

    // go-yaml v2 Marshal: keys sorted at every depth (lists of maps included), block style,
    // list items level with their key, ambiguous strings quoted, comments and extra documents
    // dropped, anchors expanded.
    #[test]
    fn yaml_comes_back_in_go_yaml_v2_style() {
        let content = "# settings\nz: 1\nb:\n  v: on_purpose\n  x: [{d: 1, c: 2}]\na: &anchor \"on\"\nc: *anchor\n---\nsecond: document\n";
        // go-yaml v2 reads a bare `y` as a boolean, so both the key and the value are quoted.
        let overrider = yaml("/data/x", vec![op(Add, "/b/y", Some(json!("true")))]);
        assert_eq!(
            patched(&overrider, content).unwrap(),
            "a: \"on\"\nb:\n  v: on_purpose\n  x:\n  - c: 2\n    d: 1\n  \"y\": \"true\"\nc: \"on\"\nz: 1\n"
        );
    }

    // go-yaml v2 emitter (yaml::go_marshal): strings that may not be plain but need no
    // escape are single-quoted, addresses and versions stay plain, multi-line strings become
    // literal blocks, long lines fold at column 80.
    #[test]
    fn yaml_scalars_come_back_in_go_yaml_v2_style() {
        let content =
            "banner: \"Welcome: shop\"\nhost: \"0.0.0.0\"\nver: '1.2.3'\nmotd: \"a\\nb\\n\"\n";
        let long = ["word"; 20].join(" ");
        let overrider = yaml("/data/x", vec![op(Add, "/long", Some(json!(long)))]);
        assert_eq!(
            patched(&overrider, content).unwrap(),
            format!(
                "banner: 'Welcome: shop'\nhost: 0.0.0.0\nlong: {}\n  {}\nmotd: |\n  a\n  b\nver: 1.2.3\n",
                // The space after the 16th word is at column 85, the first past 80.
                ["word"; 16].join(" "),
                ["word"; 4].join(" ")
            )
        );
    }

    // sigs.k8s.io/yaml YAMLToJSON (convertToJSONableObject): go-yaml v2 reads a plain key as
    // a boolean or a number where it would read a value so, and the key is then written as Go
    // writes that value (floats with float32 precision); `on` and `yes` are one key, and a
    // repeated key keeps its last value (go-yaml v2 is not strict). Found by the Karmada oracle;
    // each key comes back as the one Go made of it, recorded in go-yaml/reading.jsonl.
    #[test]
    fn yaml_keys_are_read_and_written_back_as_yaml_to_json_does() {
        use crate::yaml::tests::go_reading;
        let overrider = yaml("/data/x", vec![op(Replace, "/k", Some(json!("w")))]);
        for key in [
            "n",
            "N",
            "off",
            "y",
            "Yes",
            "0x10",
            "010",
            "1.0",
            "1e3",
            "3.14159265358979",
            "\"on\"",
            "2024-01-02",
        ] {
            let (text, go) = go_reading(&format!("key {key}"));
            assert_eq!(text, format!("{key}: 1\nk: v\n"));
            let go_key = go.as_object().unwrap().keys().find(|k| *k != "k").unwrap();
            let mut expected = [format!("\"{go_key}\": 1"), "k: w".to_string()];
            expected.sort_by_key(|line| line.trim_start_matches('"').to_string());
            assert_eq!(
                patched(&overrider, &text).unwrap(),
                format!("{}\n", expected.join("\n")),
                "{key}"
            );
        }
        let (repeated, go) = go_reading("a repeated key");
        assert_eq!(go, json!({"k": "x"}));
        assert_eq!(patched(&overrider, &repeated).unwrap(), "k: w\n");
        // Both read as the boolean true: one key, the last value.
        let (on_and_yes, go) = go_reading("keys on and yes");
        assert_eq!(go, json!({"true": 2, "k": "v"}));
        assert_eq!(
            patched(&overrider, &on_and_yes).unwrap(),
            "k: w\n\"true\": 2\n"
        );
        let (null_key, go) = go_reading("a null key");
        assert!(go["go_error"].is_string(), "{go}");
        let error = patched(&overrider, &null_key).unwrap_err();
        assert!(error.contains("null map key"), "{error}");
    }

    // sigs.k8s.io/yaml YAMLToJSON → json.Marshal → JSONToYAML: an integral float comes back
    // as an integer, in the document and in the patch values.
    #[test]
    fn yaml_integral_floats_become_integers() {
        let overrider = yaml("/data/x", vec![op(Add, "/c", Some(json!(2.0)))]);
        assert_eq!(
            patched(&overrider, "a: 1.0\nb: 1.5\n").unwrap(),
            "a: 1\nb: 1.5\nc: 2\n"
        );
        let json_overrider = json_field("/data/x", vec![op(Add, "/c", Some(json!(2.0)))]);
        assert_eq!(
            patched(&json_overrider, r#"{"a":1.5}"#).unwrap(),
            r#"{"a":1.5,"c":2}"#
        );
    }

    // karmada-overrides spec §9.4 step 1: go-openapi/jsonpointer resolves fieldPath; the value
    // must be a string.
    #[test]
    fn field_path_must_reach_a_string() {
        let overrider = |path: &str| json_field(path, vec![op(Add, "/a", Some(json!(1)))]);
        let deployment = json!({"metadata": {"annotations": {"example.com/config": "{}", "n": null}},
                                "spec": {"replicas": 3, "args": ["{}", 1]}});
        let run = |path: &str| {
            let mut object = deployment.clone();
            apply_field_overrider(&mut object, &overrider(path)).map(|()| object)
        };
        assert_eq!(
            run("/spec/replicas").unwrap_err(),
            "the value at fieldPath \"/spec/replicas\" is a number, not a string"
        );
        assert!(run("").unwrap_err().contains("is an object, not a string"));
        assert!(
            run("/metadata/annotations/n")
                .unwrap_err()
                .contains("is null, not a string")
        );
        assert!(
            run("/spec/args/1")
                .unwrap_err()
                .contains("is a number, not a string")
        );
        assert!(
            run("/spec/missing")
                .unwrap_err()
                .contains("/spec has no key \"missing\"")
        );
        assert!(
            run("/spec/args/2")
                .unwrap_err()
                .contains("index 2 is out of range")
        );
        assert!(
            run("/spec/args/-1")
                .unwrap_err()
                .contains("index -1 is out of range")
        );
        assert!(
            run("/spec/args/-")
                .unwrap_err()
                .contains("is not a list index")
        );
        assert!(
            run("/spec/replicas/x")
                .unwrap_err()
                .contains("/spec/replicas is a number")
        );
        assert!(
            run("/metadata/annotations/n/x")
                .unwrap_err()
                .contains("is null")
        );
        assert!(
            run("spec/replicas")
                .unwrap_err()
                .contains("must start with '/'")
        );
        let object = run("/metadata/annotations/example.com~1config").unwrap();
        assert_eq!(
            object["metadata"]["annotations"]["example.com/config"],
            r#"{"a":1}"#
        );
        let object = run("/spec/args/0").unwrap();
        assert_eq!(object["spec"]["args"], json!([r#"{"a":1}"#, 1]));
    }

    // overridemanager.go applyFieldOverriders: YAML is checked first, so it wins over JSON;
    // with neither the field becomes "" (both are refused at admission, spec §10).
    #[test]
    fn yaml_wins_over_json_and_neither_empties_the_field() {
        let both = FieldOverrider {
            field_path: "/data/x".to_string(),
            json: vec![op(Add, "/json", Some(json!(1)))],
            yaml: vec![op(Add, "/yaml", Some(json!(1)))],
        };
        assert_eq!(patched(&both, r#"{"a": 1}"#).unwrap(), "a: 1\nyaml: 1\n");
        let neither = json_field("/data/x", Vec::new());
        assert_eq!(patched(&neither, "a: 1\n").unwrap(), "");
    }

    /// A fieldPath with a misspelt key names the nearest one with the rest of the path.
    #[test]
    fn a_missing_field_path_names_the_nearest_existing_path() {
        let mut object = config_map("db.yaml", "a: 1\n");
        let error = apply_field_overrider(
            &mut object,
            &yaml("/dta/db.yaml", vec![op(Replace, "/a", Some(json!(2)))]),
        )
        .unwrap_err();
        assert_eq!(
            error,
            "fieldPath \"/dta/db.yaml\": the object root has no key \"dta\"; did you mean \
             /data/db.yaml?"
        );
    }
}
