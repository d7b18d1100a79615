//! KubeFed's per-cluster overrides as evanphx/json-patch v4.11.0 applies them (kubefed
//! pkg/controller/util/overrides.go `ApplyJSONPatch`; json-patch v4.11.0 patch.go). Not RFC
//! 6902 to the letter, and not Karmada's v5 either (spec kubefed-fedv1.md §2.5):
//!
//! - `replace` of a missing key of an existing object adds it (`partialDoc.get` never fails);
//! - `add` of an existing key replaces its value;
//! - `remove` of a missing key or index fails;
//! - every parent on the way must exist and be an object or a list (a JSON `null` counts as
//!   missing), whatever the operation;
//! - list indices: `add` accepts `-`, `0..=len` and negative `-(len+1)..=-1` (counted from the
//!   end, `-1` appends); `remove` accepts `0..len` and `-len..=-1`; `replace` accepts `0..len`
//!   only (a negative index makes v4.11 panic; here it is an error);
//! - a missing `value` is JSON `null`.

use serde_json::Value;

use crate::overrides::patch;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OverrideOp {
    Add,
    Remove,
    Replace,
}

impl OverrideOp {
    pub(crate) fn verb(self) -> &'static str {
        match self {
            OverrideOp::Add => "add",
            OverrideOp::Remove => "remove",
            OverrideOp::Replace => "replace",
        }
    }
}

/// One entry of `clusterOverrides`; an absent `op` is `replace` (overrides.go ApplyJSONPatch).
#[derive(Debug, Clone, PartialEq)]
pub struct ClusterOverride {
    pub(crate) op: OverrideOp,
    pub path: String,
    /// Ignored by `remove`; `None` is JSON null.
    pub value: Option<Value>,
}

/// Applies the overrides in order, each seeing the previous one's result. On error the
/// object may be partly patched; callers abandon it.
pub(crate) fn apply_overrides(
    object: &mut Value,
    overrides: &[ClusterOverride],
) -> Result<(), String> {
    for (position, item) in overrides.iter().enumerate() {
        apply_one(object, item).map_err(|problem| {
            format!(
                "override {} ({} {}): {problem}",
                position + 1,
                item.op.verb(),
                item.path
            )
        })?;
    }
    Ok(())
}

fn apply_one(object: &mut Value, item: &ClusterOverride) -> Result<(), String> {
    let tokens = patch::tokens(&item.path)?;
    let Some((last, parents)) = tokens.split_last() else {
        return Err("the empty path names no field (v4.11: \"doc is missing path\")".to_string());
    };
    let value = item.value.clone().unwrap_or(Value::Null);
    if item.op != OverrideOp::Remove {
        crate::object::check_nesting_below(tokens.len(), &value)?;
    }
    let mut node = object;
    let mut walked = String::new();
    // The place is described only on failure: describing it at every step would cost the
    // path's length times its depth.
    for token in parents {
        node = match node {
            Value::Object(map) => match map.get_mut(token) {
                Some(child) if !child.is_null() => child,
                _ => {
                    return Err(format!(
                        "{} has no key {token:?}; the parent must exist",
                        describe(&walked)
                    ));
                }
            },
            Value::Array(list) => {
                let length = list.len();
                let index = go_atoi(token).ok_or_else(|| {
                    format!("{token:?} is not a list index at {}", describe(&walked))
                })?;
                if index < 0 || index as usize >= length {
                    return Err(format!(
                        "index {index} is out of range for the list at {} (length {length})",
                        describe(&walked)
                    ));
                }
                let child = &mut list[index as usize];
                if child.is_null() {
                    return Err(format!(
                        "{}/{index} is null; the parent must exist",
                        describe(&walked)
                    ));
                }
                child
            }
            _ => return Err(format!("{} is not an object or a list", describe(&walked))),
        };
        walked.push('/');
        walked.push_str(&escape(token));
    }
    let here = describe(&walked);
    match node {
        Value::Object(map) => match item.op {
            OverrideOp::Add | OverrideOp::Replace => {
                // Insert keeps the position of an existing key.
                map.insert(last.clone(), value);
            }
            OverrideOp::Remove => {
                if map.shift_remove(last).is_none() {
                    return Err(format!("{here} has no key {last:?} to remove"));
                }
            }
        },
        Value::Array(list) => {
            let length = list.len() as i64;
            match item.op {
                OverrideOp::Add => {
                    let index = if last == "-" {
                        length
                    } else {
                        let index = go_atoi(last)
                            .ok_or_else(|| format!("{last:?} is not a list index at {here}"))?;
                        if index > length || index < -(length + 1) {
                            return Err(format!(
                                "index {index} is out of range for adding to the list at {here} (length {length})"
                            ));
                        }
                        if index < 0 { index + length + 1 } else { index }
                    };
                    list.insert(index as usize, value);
                }
                OverrideOp::Replace => {
                    let index = go_atoi(last)
                        .ok_or_else(|| format!("{last:?} is not a list index at {here}"))?;
                    if index < 0 || index >= length {
                        return Err(format!(
                            "index {index} is out of range for replacing in the list at {here} (length {length})"
                        ));
                    }
                    list[index as usize] = value;
                }
                OverrideOp::Remove => {
                    let index = go_atoi(last)
                        .ok_or_else(|| format!("{last:?} is not a list index at {here}"))?;
                    if index >= length || index < -length {
                        return Err(format!(
                            "index {index} is out of range for removing from the list at {here} (length {length})"
                        ));
                    }
                    let index = if index < 0 { index + length } else { index };
                    list.remove(index as usize);
                }
            }
        }
        _ => return Err(format!("{here} is not an object or a list")),
    }
    Ok(())
}

/// Go's `strconv.Atoi`: optional sign, decimal digits, nothing else.
fn go_atoi(token: &str) -> Option<i64> {
    let digits = token.strip_prefix(['+', '-']).unwrap_or(token);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    token.parse().ok()
}

fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

fn describe(pointer: &str) -> String {
    if pointer.is_empty() {
        "the object root".to_string()
    } else {
        pointer.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn op(op: OverrideOp, path: &str, value: Option<Value>) -> ClusterOverride {
        ClusterOverride {
            op,
            path: path.to_string(),
            value,
        }
    }

    fn run(mut document: Value, overrides: &[ClusterOverride]) -> Result<Value, String> {
        apply_overrides(&mut document, overrides)?;
        Ok(document)
    }

    /// As for Karmada's overriders: a value may not land deeper than a document may nest.
    #[test]
    fn overrides_cannot_nest_deeper_than_a_document() {
        let limit = crate::yaml::MAX_NESTING_DEPTH;
        let parents = "/a".repeat(limit - 2);
        let mut document = json!(1);
        for _ in 0..limit - 1 {
            document = json!({ "a": document });
        }
        let fits = run(
            document.clone(),
            &[op(
                OverrideOp::Add,
                &format!("{parents}/b"),
                Some(json!([])),
            )],
        );
        assert!(fits.is_ok(), "{fits:?}");
        let error = run(
            document.clone(),
            &[op(
                OverrideOp::Replace,
                &format!("{parents}/b"),
                Some(json!([[]])),
            )],
        )
        .unwrap_err();
        assert!(
            error.contains(&format!("nest {} levels", limit + 1)),
            "{error}"
        );
        let removed = run(
            document,
            &[op(OverrideOp::Remove, &format!("{parents}/a"), None)],
        );
        assert!(removed.is_ok(), "{removed:?}");
    }

    use OverrideOp::{Add, Remove, Replace};

    // json-patch v4.11 partialDoc.get never reports a missing key: RSP's replicas override
    // (op replace) works on a template without spec.replicas (kubefed plugin.go).
    #[test]
    fn replace_of_a_missing_key_adds_it_where_rfc_6902_would_fail() {
        let result = run(
            json!({"spec": {"template": {}}}),
            &[op(Replace, "/spec/replicas", Some(json!(3)))],
        )
        .unwrap();
        assert_eq!(result, json!({"spec": {"template": {}, "replicas": 3}}));
    }

    #[test]
    fn replace_and_add_of_an_existing_key_keep_its_position() {
        let result = run(
            json!({"spec": {"replicas": 1, "paused": false}}),
            &[
                op(Replace, "/spec/replicas", Some(json!(5))),
                op(Add, "/spec/paused", Some(json!(true))),
            ],
        )
        .unwrap();
        assert_eq!(
            serde_json::to_string(&result).unwrap(),
            r#"{"spec":{"replicas":5,"paused":true}}"#
        );
    }

    // kubefed#1301 / the userguide's overrides example: add /metadata/annotations replaces the
    // whole map; adding one key needs the map to exist.
    #[test]
    fn add_on_annotations_replaces_the_map_and_a_missing_parent_fails() {
        let result = run(
            json!({"metadata": {"name": "x", "annotations": {"old": "1"}}}),
            &[op(
                Add,
                "/metadata/annotations",
                Some(json!({"foo": "bar"})),
            )],
        )
        .unwrap();
        assert_eq!(result["metadata"]["annotations"], json!({"foo": "bar"}));
        let error = run(
            json!({"metadata": {"name": "x"}}),
            &[op(Add, "/metadata/annotations/foo", Some(json!("bar")))],
        )
        .unwrap_err();
        assert!(
            error.contains("/metadata has no key \"annotations\""),
            "{error}"
        );
        assert!(
            error.starts_with("override 1 (add /metadata/annotations/foo)"),
            "{error}"
        );
        // Replace needs the parent too.
        assert!(run(json!({}), &[op(Replace, "/spec/replicas", Some(json!(1)))]).is_err());
    }

    // The seed 000 overrides, in order: replicas, image, annotations, remove the annotation
    // again, insert -q at args/0.
    #[test]
    fn seed_000_overrides_apply_in_order() {
        let deployment = json!({
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web", "namespace": "shop"},
            "spec": {"replicas": 3, "template": {"spec": {"containers": [
                {"name": "nginx", "image": "nginx", "args": ["--v"]}
            ]}}}
        });
        let result = run(
            deployment,
            &[
                op(Replace, "/spec/replicas", Some(json!(5))),
                op(
                    Replace,
                    "/spec/template/spec/containers/0/image",
                    Some(json!("nginx:1.17.0-alpine")),
                ),
                op(Add, "/metadata/annotations", Some(json!({"foo": "bar"}))),
                op(Remove, "/metadata/annotations/foo", None),
                op(
                    Add,
                    "/spec/template/spec/containers/0/args/0",
                    Some(json!("-q")),
                ),
            ],
        )
        .unwrap();
        assert_eq!(result["spec"]["replicas"], json!(5));
        assert_eq!(
            result["spec"]["template"]["spec"]["containers"][0],
            json!({"name": "nginx", "image": "nginx:1.17.0-alpine", "args": ["-q", "--v"]})
        );
        assert_eq!(result["metadata"]["annotations"], json!({}));
    }

    // kubefed#1224: add on a list path replaces the list; /0 inserts, /- appends.
    #[test]
    fn list_indices_follow_v4_11() {
        let list = || json!({"l": [1, 2, 3]});
        assert_eq!(
            run(list(), &[op(Add, "/l", Some(json!([9])))]).unwrap(),
            json!({"l": [9]})
        );
        assert_eq!(
            run(list(), &[op(Add, "/l/0", Some(json!(0)))]).unwrap(),
            json!({"l": [0, 1, 2, 3]})
        );
        assert_eq!(
            run(list(), &[op(Add, "/l/3", Some(json!(4)))]).unwrap(),
            json!({"l": [1, 2, 3, 4]})
        );
        assert_eq!(
            run(list(), &[op(Add, "/l/-", Some(json!(4)))]).unwrap(),
            json!({"l": [1, 2, 3, 4]})
        );
        assert_eq!(
            run(list(), &[op(Add, "/l/-1", Some(json!(4)))]).unwrap(),
            json!({"l": [1, 2, 3, 4]})
        );
        assert_eq!(
            run(list(), &[op(Add, "/l/-4", Some(json!(0)))]).unwrap(),
            json!({"l": [0, 1, 2, 3]})
        );
        assert!(run(list(), &[op(Add, "/l/4", Some(json!(0)))]).is_err());
        assert!(run(list(), &[op(Add, "/l/-5", Some(json!(0)))]).is_err());
        assert_eq!(
            run(list(), &[op(Replace, "/l/2", Some(json!(9)))]).unwrap(),
            json!({"l": [1, 2, 9]})
        );
        assert!(run(list(), &[op(Replace, "/l/3", Some(json!(9)))]).is_err());
        assert!(run(list(), &[op(Replace, "/l/-1", Some(json!(9)))]).is_err());
        assert!(run(list(), &[op(Replace, "/l/-", Some(json!(9)))]).is_err());
        assert_eq!(
            run(list(), &[op(Remove, "/l/-1", None)]).unwrap(),
            json!({"l": [1, 2]})
        );
        assert_eq!(
            run(list(), &[op(Remove, "/l/0", None)]).unwrap(),
            json!({"l": [2, 3]})
        );
        assert!(run(list(), &[op(Remove, "/l/3", None)]).is_err());
        assert!(run(list(), &[op(Remove, "/l/-4", None)]).is_err());
        assert!(run(list(), &[op(Add, "/l/x", Some(json!(0)))]).is_err());
    }

    #[test]
    fn remove_of_a_missing_key_fails_and_of_a_null_value_succeeds() {
        let error = run(json!({"a": 1}), &[op(Remove, "/b", None)]).unwrap_err();
        assert!(error.contains("has no key \"b\" to remove"), "{error}");
        assert_eq!(
            run(json!({"a": 1, "b": null}), &[op(Remove, "/b", None)]).unwrap(),
            json!({"a": 1})
        );
    }

    #[test]
    fn a_null_or_scalar_parent_is_missing() {
        assert!(run(json!({"a": null}), &[op(Add, "/a/b", Some(json!(1)))]).is_err());
        assert!(run(json!({"a": 3}), &[op(Add, "/a/b", Some(json!(1)))]).is_err());
        assert!(run(json!({"a": [null]}), &[op(Add, "/a/0/b", Some(json!(1)))]).is_err());
    }

    #[test]
    fn escaped_keys_and_missing_values() {
        assert_eq!(
            run(
                json!({"metadata": {"annotations": {}}}),
                &[op(
                    Add,
                    "/metadata/annotations/example.com~1x",
                    Some(json!("1"))
                )]
            )
            .unwrap(),
            json!({"metadata": {"annotations": {"example.com/x": "1"}}})
        );
        assert_eq!(
            run(json!({"a": 1}), &[op(Replace, "/a", None)]).unwrap(),
            json!({"a": null})
        );
        assert!(run(json!({"a": 1}), &[op(Replace, "", Some(json!(1)))]).is_err());
        assert!(run(json!({"a": 1}), &[op(Replace, "a", Some(json!(1)))]).is_err());
    }

    #[test]
    fn go_atoi_accepts_signs_and_leading_zeros_only() {
        assert_eq!(go_atoi("01"), Some(1));
        assert_eq!(go_atoi("+2"), Some(2));
        assert_eq!(go_atoi("-1"), Some(-1));
        assert_eq!(go_atoi("-"), None);
        assert_eq!(go_atoi(" 1"), None);
        assert_eq!(go_atoi(""), None);
    }
}
