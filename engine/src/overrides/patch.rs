//! RFC 6902 operations (add, remove, replace) as Karmada applies them: evanphx/json-patch v5 with
//! its default options (karmada overridemanager.go `applyJSONPatch`). The parent of an `add` must
//! exist, `remove` and `replace` need an existing target, and, beyond the RFC, negative list
//! indices count from the end. Application is delegated to the json-patch crate; this module
//! resolves negative indices first and explains a failing path in words.

use serde_json::{Value, json};

use crate::api::karmada::OverriderOperator;
use crate::fields::Fields;
use crate::json_pointer::pointer_mut;

/// One JSON-patch-like operation of a plaintext or field overrider.
#[derive(Debug, Clone, Copy)]
pub struct Operation<'a> {
    /// `add`, `remove` or `replace`.
    pub operator: OverriderOperator,
    /// The JSON pointer it applies at.
    pub path: &'a str,
    /// A missing value is sent as JSON `null`, as Karmada does.
    pub value: Option<&'a Value>,
}

/// Applies the operations in order, each seeing the result of the previous one. On error the
/// document may be partly patched; callers abandon it (the whole render fails).
pub fn apply(document: &mut Value, operations: &[Operation<'_>]) -> Result<(), String> {
    for operation in operations {
        apply_one(document, operation)?;
    }
    Ok(())
}

fn apply_one(document: &mut Value, operation: &Operation<'_>) -> Result<(), String> {
    let verb = match operation.operator {
        OverriderOperator::Add => "add",
        OverriderOperator::Remove => "remove",
        OverriderOperator::Replace => "replace",
    };
    if operation.operator != OverriderOperator::Remove
        && let Some(fast) = apply_where_it_stands(document, operation)
    {
        return fast.map_err(|problem| format!("{verb} {}: {problem}", operation.path));
    }
    apply_resolved(document, operation, verb)
}

/// [`apply_one`] by way of [`resolve`].
fn apply_resolved(
    document: &mut Value,
    operation: &Operation<'_>,
    verb: &str,
) -> Result<(), String> {
    let path = resolve(document, operation)
        .map_err(|problem| format!("{verb} {}: {problem}", operation.path))?;
    if operation.operator == OverriderOperator::Remove {
        remove(document, &path);
        return Ok(());
    }
    let value = operation.value.cloned().unwrap_or(Value::Null);
    // Every token of a pointer follows a `/`, which never stands escaped inside one.
    let parents = path.matches('/').count();
    crate::object::check_nesting_below(parents, &value)
        .map_err(|problem| format!("{verb} {}: {problem}", operation.path))?;
    // The two operations overriders mostly make, applied in place: `resolve` has checked the
    // target (or, for `add`, its parent) and made every index a position, so what json-patch
    // would do is known; building its operation from JSON cost more than the change itself.
    let value = match apply_checked(document, operation.operator, &path, value) {
        Ok(()) => return Ok(()),
        Err(value) => value,
    };
    let encoded = json!({"op": verb, "path": path, "value": value});
    let patch_operation: json_patch::PatchOperation = serde_json::from_value(encoded)
        .map_err(|error| format!("{verb} {}: {error}", operation.path))?;
    json_patch::patch(document, &[patch_operation])
        .map_err(|error| format!("{verb} {}: {error}", operation.path))
}

/// `replace` of what the pointer names, or `add` of a key to the object its parent names, when
/// the pointer reads as written: every list index a position in range as written (no sign, no
/// leading zero, no `-`), every key of a replace there. [`resolve`] would give back the same
/// pointer, so what it checks holds and the change is made without it; `None` for anything
/// else. Overriders mostly replace an image or a field that exists.
fn apply_where_it_stands(
    document: &mut Value,
    operation: &Operation<'_>,
) -> Option<Result<(), String>> {
    let value = || {
        let value = operation.value.cloned().unwrap_or(Value::Null);
        let parents = operation.path.matches('/').count();
        crate::object::check_nesting_below(parents, &value).map(|()| value)
    };
    match operation.operator {
        OverriderOperator::Replace => {
            let target = pointer_mut(document, operation.path)?;
            Some(value().map(|value| *target = value))
        }
        OverriderOperator::Add => {
            let (parent, last) = operation.path.rsplit_once('/')?;
            let Value::Object(map) = pointer_mut(document, parent)? else {
                return None;
            };
            let key = if last.contains('~') {
                last.replace("~1", "/").replace("~0", "~")
            } else {
                last.to_string()
            };
            Some(value().map(|value| {
                map.insert(key, value);
            }))
        }
        OverriderOperator::Remove => None,
    }
}

/// `replace` or `add` at a pointer [`resolve`] has checked, as json-patch applies them: a
/// replaced value is swapped, an added key is inserted (in place if it exists, else last), an
/// added list element is inserted at its position. Gives the value back for anything else.
fn apply_checked(
    document: &mut Value,
    operator: OverriderOperator,
    resolved: &str,
    value: Value,
) -> Result<(), Value> {
    match operator {
        OverriderOperator::Replace => match pointer_mut(document, resolved) {
            Some(target) => {
                *target = value;
                Ok(())
            }
            None => Err(value),
        },
        OverriderOperator::Add => {
            let Some((parent, last)) = resolved.rsplit_once('/') else {
                return Err(value);
            };
            match pointer_mut(document, parent) {
                Some(Value::Object(map)) => {
                    let key = if last.contains('~') {
                        last.replace("~1", "/").replace("~0", "~")
                    } else {
                        last.to_string()
                    };
                    map.insert(key, value);
                    Ok(())
                }
                Some(Value::Array(list)) => match last.parse::<usize>() {
                    Ok(index) if index <= list.len() => {
                        list.insert(index, value);
                        Ok(())
                    }
                    _ => Err(value),
                },
                _ => Err(value),
            }
        }
        OverriderOperator::Remove => Err(value),
    }
}

/// Removes a target [`resolve`] has checked. Done here rather than by the json-patch crate,
/// whose removal from an order-preserving map moves the last key into the hole; Karmada keeps
/// the order of the remaining keys.
fn remove(document: &mut Value, resolved: &str) {
    let Ok(tokens) = tokens(resolved) else {
        return;
    };
    let Some((last, parents)) = tokens.split_last() else {
        *document = Value::Null;
        return;
    };
    let parent = pointer_mut(document, &encode(parents));
    match parent {
        Some(Value::Object(map)) => {
            map.shift_remove(last);
        }
        Some(Value::Array(list)) => {
            if let Ok(index) = last.parse::<usize>()
                && index < list.len()
            {
                list.remove(index);
            }
        }
        _ => {}
    }
}

/// RFC 6901 tokens of a pointer: `~1` is `/`, `~0` is `~`. A pointer must start with `/`;
/// the empty pointer is the whole document.
pub fn tokens(pointer: &str) -> Result<Vec<String>, String> {
    if pointer.is_empty() {
        return Ok(Vec::new());
    }
    let Some(rest) = pointer.strip_prefix('/') else {
        return Err("a JSON pointer must start with '/'".to_string());
    };
    Ok(rest
        .split('/')
        .map(|token| {
            if token.contains('~') {
                token.replace("~1", "/").replace("~0", "~")
            } else {
                token.to_string()
            }
        })
        .collect())
}

fn encode(tokens: &[String]) -> String {
    let mut pointer = String::new();
    for token in tokens {
        pointer.push('/');
        if token.contains(['~', '/']) {
            pointer.push_str(&token.replace('~', "~0").replace('/', "~1"));
        } else {
            pointer.push_str(token);
        }
    }
    pointer
}

/// Checks that the operation applies and rewrites negative indices as positions, with
/// evanphx's meaning: for `add`, `-1` appends and `-2` inserts before the last element; for
/// the other operations and on the way down, `-1` is the last element.
fn resolve(document: &Value, operation: &Operation<'_>) -> Result<String, String> {
    let mut tokens = tokens(operation.path)?;
    let last = tokens.len().saturating_sub(1);
    let mut node = document;
    let mut walked = String::new();
    for (index, slot) in tokens.iter_mut().enumerate() {
        let is_target = index == last;
        let token = slot.clone();
        match node {
            Value::Object(map) => match map.field(&token) {
                Some(child) if !is_target => node = child,
                Some(_) => {}
                None if is_target && operation.operator == OverriderOperator::Add => {}
                None if is_target => {
                    return Err(format!(
                        "the object at {} has no key {token:?}{}",
                        describe(&walked),
                        nearest_path_hint(&walked, &token, map.keys().map(String::as_str), &[])
                    ));
                }
                None => {
                    let rest = &self::tokens(operation.path)?[index + 1..];
                    return Err(format!(
                        "{walked}/{token} does not exist{}",
                        nearest_path_hint(&walked, &token, map.keys().map(String::as_str), rest)
                    ));
                }
            },
            Value::Array(list) => {
                let length = list.len() as i64;
                let adding_here = is_target && operation.operator == OverriderOperator::Add;
                let position = if token == "-" && adding_here {
                    length
                } else {
                    let number: i64 = token.parse().map_err(|_| {
                        format!("{:?} is not a list index at {}", token, describe(&walked))
                    })?;
                    if number < 0 {
                        number + length + i64::from(adding_here)
                    } else {
                        number
                    }
                };
                let limit = if adding_here { length } else { length - 1 };
                if position < 0 || position > limit {
                    return Err(format!(
                        "index {token} is out of range for the list at {} (length {length})",
                        describe(&walked)
                    ));
                }
                *slot = position.to_string();
                if !is_target {
                    node = &list[position as usize];
                }
            }
            _ => {
                return Err(format!("{} is not an object or a list", describe(&walked)));
            }
        }
        walked.push('/');
        if slot.contains(['~', '/']) {
            walked.push_str(&slot.replace('~', "~0").replace('/', "~1"));
        } else {
            walked.push_str(slot);
        }
    }
    Ok(encode(&tokens))
}

/// `; did you mean /spec/template/spec/containers/0?` for a key `missing` from the object at
/// `walked` (a written pointer), whose keys are `keys`: the path with the nearest key there in
/// its place and the `rest` of the tokens after it; nothing when no key is near enough to be
/// the one meant.
pub(super) fn nearest_path_hint<'a>(
    walked: &str,
    missing: &str,
    keys: impl IntoIterator<Item = &'a str>,
    rest: &[String],
) -> String {
    let Some(near) = crate::edit_distance::nearest(missing, keys) else {
        return String::new();
    };
    let mut path = walked.to_string();
    path.push_str(&encode(&[near.to_string()]));
    path.push_str(&encode(rest));
    crate::edit_distance::did_you_mean(Some(&path))
}

fn describe(pointer: &str) -> String {
    if pointer.is_empty() {
        "the document root".to_string()
    } else {
        pointer.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(
        document: Value,
        operator: OverriderOperator,
        path: &str,
        value: Option<Value>,
    ) -> Result<Value, String> {
        let mut document = document;
        apply(
            &mut document,
            &[Operation {
                operator,
                path,
                value: value.as_ref(),
            }],
        )?;
        Ok(document)
    }

    use OverriderOperator::{Add, Remove, Replace};

    /// Made where it stands or by way of `resolve`, every operation gives the same document or
    /// the same error: replaces and adds of keys, list positions written every way (signed,
    /// zero-led, negative, `-`, out of range), escaped keys, missing parents, the root, and a
    /// value nested too deep.
    #[test]
    fn a_change_made_where_it_stands_is_the_change_resolve_makes() {
        let document = json!({"a": {"b/c": [1, {"d~e": 2}], "": 3, "n": null},
            "f": [[4], 5], "s": "text"});
        let mut deep = json!(0);
        for _ in 0..crate::yaml::MAX_NESTING_DEPTH {
            deep = json!([deep]);
        }
        let paths = [
            "",
            "/a",
            "/a/b~1c",
            "/a/b~1c/0",
            "/a/b~1c/1/d~0e",
            "/a/b~1c/01",
            "/a/b~1c/+1",
            "/a/b~1c/-1",
            "/a/b~1c/-",
            "/a/b~1c/2",
            "/a/",
            "/a/n",
            "/a/n/x",
            "/a/new",
            "/a/new/x",
            "/f/0/0",
            "/f/1",
            "/s/x",
            "/x~y",
            "/a/~2",
            "a",
        ];
        for path in paths {
            for operator in [Add, Replace] {
                for value in [json!("v"), json!({"k": [1]}), deep.clone()] {
                    let operation = Operation {
                        operator,
                        path,
                        value: Some(&value),
                    };
                    let verb = if operator == Add { "add" } else { "replace" };
                    let mut fast = document.clone();
                    let mut resolved = document.clone();
                    let made = apply_one(&mut fast, &operation);
                    let by_resolve = apply_resolved(&mut resolved, &operation, verb);
                    assert_eq!(made, by_resolve, "{verb} {path}");
                    assert_eq!(fast, resolved, "{verb} {path}");
                }
            }
        }
    }

    /// The pointer walk finds what serde_json's finds, and refuses what it refuses.
    #[test]
    fn pointers_resolve_as_serde_json_resolves_them() {
        let document = json!({"a": {"b/c": [1, {"d~e": 2}], "": 3}, "f": [[4]]});
        for pointer in [
            "",
            "/",
            "/a",
            "/a/b~1c",
            "/a/b~1c/0",
            "/a/b~1c/1/d~0e",
            "/a/",
            "/a/b~1c/01",
            "/a/b~1c/+1",
            "/a/b~1c/2",
            "/a/b~1c/-1",
            "/f/0/0",
            "/f/0/0/x",
            "a",
            "/x",
            "/a/b~c",
        ] {
            let mut ours = document.clone();
            let mut theirs = document.clone();
            assert_eq!(
                pointer_mut(&mut ours, pointer).cloned(),
                theirs.pointer_mut(pointer).cloned(),
                "{pointer}"
            );
        }
    }

    /// Each operation may nest its value only as deep as a document may go, so a chain of
    /// operations cannot deepen an object without end (and overflow a recursive walk).
    #[test]
    fn operations_cannot_nest_deeper_than_a_document() {
        let limit = crate::yaml::MAX_NESTING_DEPTH;
        let mut document = json!({});
        let mut path = String::new();
        let mut refusal = None;
        for levels in 2..=2 * limit {
            path.push_str("/a");
            match run(document.clone(), Add, &path, Some(json!({"b": 1}))) {
                Ok(patched) => document = patched,
                Err(error) => {
                    refusal = Some((levels, error));
                    break;
                }
            }
        }
        let (levels, error) = refusal.expect("some operation is refused");
        assert_eq!(levels, limit + 1);
        assert!(
            error.contains(&format!("nest {} levels", limit + 1)),
            "{error}"
        );
        path.truncate(path.len() - 2);
        let replaced = run(document.clone(), Replace, &path, Some(json!({"c": []})));
        assert!(replaced.unwrap_err().contains("levels of lists and maps"));
        assert!(run(document, Replace, &path, Some(json!("leaf"))).is_ok());
    }

    // karmada issue #3923: add does not create a missing parent.
    #[test]
    fn add_needs_an_existing_parent() {
        let error = run(
            json!({"spec": {"template": {"metadata": {}}}}),
            Add,
            "/spec/template/metadata/annotations/x",
            Some(json!("1")),
        )
        .unwrap_err();
        assert!(
            error.contains("/spec/template/metadata/annotations does not exist"),
            "{error}"
        );
        assert_eq!(
            run(json!({"a": {}}), Add, "/a/b", Some(json!(1))).unwrap(),
            json!({"a": {"b": 1}})
        );
        assert_eq!(
            run(json!({"a": {"b": 1}}), Add, "/a/b", Some(json!(2))).unwrap(),
            json!({"a": {"b": 2}})
        );
    }

    // karmada-overrides spec §9.5, PR #3927 rejected: removing a missing path is an error.
    #[test]
    fn remove_and_replace_need_an_existing_target() {
        assert!(
            run(json!({"a": 1}), Remove, "/b", None)
                .unwrap_err()
                .contains("no key \"b\"")
        );
        assert!(run(json!({"a": 1}), Replace, "/b", Some(json!(2))).is_err());
        assert_eq!(
            run(json!({"a": 1, "b": 2}), Remove, "/b", None).unwrap(),
            json!({"a": 1})
        );
    }

    // evanphx/json-patch v5 negative indices.
    #[test]
    fn list_indices_follow_evanphx_including_negative_ones() {
        let list = json!({"l": [1, 2, 3]});
        assert_eq!(
            run(list.clone(), Add, "/l/0", Some(json!(0))).unwrap(),
            json!({"l": [0, 1, 2, 3]})
        );
        assert_eq!(
            run(list.clone(), Add, "/l/3", Some(json!(4))).unwrap(),
            json!({"l": [1, 2, 3, 4]})
        );
        assert_eq!(
            run(list.clone(), Add, "/l/-", Some(json!(4))).unwrap(),
            json!({"l": [1, 2, 3, 4]})
        );
        assert_eq!(
            run(list.clone(), Add, "/l/-1", Some(json!(4))).unwrap(),
            json!({"l": [1, 2, 3, 4]})
        );
        assert_eq!(
            run(list.clone(), Add, "/l/-2", Some(json!(9))).unwrap(),
            json!({"l": [1, 2, 9, 3]})
        );
        assert_eq!(
            run(list.clone(), Replace, "/l/-1", Some(json!(9))).unwrap(),
            json!({"l": [1, 2, 9]})
        );
        assert_eq!(
            run(list.clone(), Remove, "/l/-1", None).unwrap(),
            json!({"l": [1, 2]})
        );
        assert!(run(list.clone(), Add, "/l/5", Some(json!(0))).is_err());
        assert!(run(list.clone(), Replace, "/l/3", Some(json!(0))).is_err());
        assert!(run(list, Add, "/l/-5", Some(json!(0))).is_err());
    }

    // karmada issue #4014: a key with '/' is written with ~1.
    #[test]
    fn escaped_keys_address_annotations_with_slashes() {
        let document = json!({"metadata": {"annotations": {"example.com/x": "1"}}});
        assert_eq!(
            run(
                document,
                Replace,
                "/metadata/annotations/example.com~1x",
                Some(json!("2"))
            )
            .unwrap(),
            json!({"metadata": {"annotations": {"example.com/x": "2"}}})
        );
    }

    #[test]
    fn remove_keeps_the_order_of_the_other_keys() {
        let document = json!({"a": 1, "b": 2, "c": 3});
        let result = run(document, Remove, "/a", None).unwrap();
        assert_eq!(serde_json::to_string(&result).unwrap(), r#"{"b":2,"c":3}"#);
    }

    #[test]
    fn the_empty_path_replaces_the_document_and_a_missing_value_is_null() {
        assert_eq!(
            run(json!({"a": 1}), Replace, "", Some(json!({"b": 2}))).unwrap(),
            json!({"b": 2})
        );
        assert_eq!(
            run(json!({"a": 1}), Add, "/b", None).unwrap(),
            json!({"a": 1, "b": null})
        );
    }

    #[test]
    fn operations_apply_in_order_each_seeing_the_last() {
        let mut document = json!({"a": {}});
        let one = json!(1);
        apply(
            &mut document,
            &[
                Operation {
                    operator: Add,
                    path: "/a/b",
                    value: Some(&one),
                },
                Operation {
                    operator: Replace,
                    path: "/a/b",
                    value: Some(&json!(2)),
                },
            ],
        )
        .unwrap();
        assert_eq!(document, json!({"a": {"b": 2}}));
    }

    /// A misspelt key on the way names the path with the nearest key at that level and the
    /// rest of the pointer after it; so does a misspelt key to remove or replace. An unrelated
    /// key gets no guess.
    #[test]
    fn a_missing_key_names_the_nearest_existing_path() {
        let deployment = || json!({"spec": {"template": {"spec": {"containers": [{"name": "web", "image": "a"}]}}}});
        let error = run(
            deployment(),
            OverriderOperator::Replace,
            "/spec/template/spec/container/0/image",
            Some(json!("b")),
        )
        .unwrap_err();
        assert_eq!(
            error,
            "replace /spec/template/spec/container/0/image: /spec/template/spec/container does \
             not exist; did you mean /spec/template/spec/containers/0/image?"
        );
        let error = run(
            json!({"metadata": {"labels": {"example.com/tier": "gold"}}}),
            OverriderOperator::Remove,
            "/metadata/labels/example.com~1teir",
            None,
        )
        .unwrap_err();
        assert_eq!(
            error,
            "remove /metadata/labels/example.com~1teir: the object at /metadata/labels has no \
             key \"example.com/teir\"; did you mean /metadata/labels/example.com~1tier?"
        );
        let error = run(deployment(), OverriderOperator::Replace, "/status/x", None).unwrap_err();
        assert_eq!(error, "replace /status/x: /status does not exist");
    }
}
