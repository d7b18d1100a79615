//! The merge generator (applicationset/generators/merge.go): the first child's parameter sets,
//! each with what a later child's set of the same `mergeKeys` values holds merged over it.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use super::children::{self, Child};
use super::context::{GeneratorContext, Site};
use super::param_ops::merge_override;
use crate::argocd::params::Params;
use crate::diagnostics::Diagnostic;

/// The fields of a merge generator.
pub const FIELDS: &[&str] = &["generators", "mergeKeys", "template"];

/// The parameter sets of the merge `spec` at `site`, in the order of their merge keys' JSON
/// (Argo CD's is a Go map's).
pub fn generate(
    spec: &Map<String, Value>,
    context: &GeneratorContext<'_>,
    site: &Site<'_>,
    child: &Child<'_>,
) -> Result<Vec<Params>, Diagnostic> {
    site.known_fields(spec, "the merge generator", FIELDS)?;
    let generators = children::list(spec, site)?;
    let list_site = site.field("generators");
    if generators.len() < 2 {
        return Err(list_site.error(format!(
            "found less than two generators, Merge requires two or more (it has {})",
            generators.len()
        )));
    }
    let keys_site = site.field("mergeKeys");
    let merge_keys: BTreeSet<String> = match spec.get("mergeKeys").filter(|v| !v.is_null()) {
        Some(keys) => keys_site
            .array(keys)?
            .iter()
            .enumerate()
            .map(|(i, key)| keys_site.item(i).string(key).map(str::to_string))
            .collect::<Result<_, _>>()?,
        None => BTreeSet::new(),
    };
    let mut param_sets = Vec::new();
    for (index, generator) in generators.iter().enumerate() {
        let sets = child(generator, &list_site.item(index), None)?;
        param_sets.push(sets);
    }
    if merge_keys.is_empty() {
        return Err(keys_site.error("no merge keys were specified, Merge requires at least one"));
    }
    let mut base = by_merge_key(&merge_keys, &param_sets[0], &list_site.item(0))?;
    for (index, sets) in param_sets.iter().enumerate().skip(1) {
        let overrides = by_merge_key(&merge_keys, sets, &list_site.item(index))?;
        for (key, set) in base.iter_mut() {
            if let Some(over) = overrides.get(key) {
                if context.go_template {
                    merge_override(set, over);
                } else {
                    for (k, v) in over.iter() {
                        set.insert(k.clone(), v.clone());
                    }
                }
            }
        }
    }
    Ok(base.into_values().collect())
}

/// merge.go `getParamSetsByMergeKey`: each set by the JSON of its merge keys' values (a key it
/// lacks is null); two sets of one key are an error.
fn by_merge_key(
    merge_keys: &BTreeSet<String>,
    sets: &[Params],
    site: &Site<'_>,
) -> Result<BTreeMap<String, Params>, Diagnostic> {
    let mut by_key = BTreeMap::new();
    for set in sets {
        let key: BTreeMap<&str, &Value> = merge_keys
            .iter()
            .map(|k| (k.as_str(), set.get(k).unwrap_or(&Value::Null)))
            .collect();
        let key = go_json(&key);
        if by_key.contains_key(&key) {
            return Err(site.error(format!(
                "the parameters from a generator were not unique by the given mergeKeys, Merge requires all param sets to be unique. Duplicate key was {key}"
            )));
        }
        by_key.insert(key, set.clone());
    }
    Ok(by_key)
}

/// `json.Marshal`'s text, which escapes `<`, `>` and `&` for HTML.
fn go_json(key: &BTreeMap<&str, &Value>) -> String {
    serde_json::to_string(key)
        .unwrap_or_default()
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
}
