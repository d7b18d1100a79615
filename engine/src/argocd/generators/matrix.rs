//! The matrix generator (applicationset/generators/matrix.go): every parameter set of its
//! first child combined with every set its second child makes, the second interpolated with
//! the first's set.

use serde_json::{Map, Value};

use super::children::{self, Child};
use super::context::{GeneratorContext, Site};
use super::param_ops::{go_sprint, merge_override};
use crate::argocd::params::Params;
use crate::diagnostics::Diagnostic;

/// The most parameter sets one matrix makes: its children's counts multiply, and two lists of
/// a few thousand elements each (a file of some kilobytes) would make millions.
pub const MOST_PARAMETER_SETS: usize = 100_000;

/// The fields of a matrix generator.
pub const FIELDS: &[&str] = &["generators", "template"];

/// The parameter sets of the matrix `spec` at `site`. With goTemplate a pair merges as mergo
/// merges (the first's set over the second's); without it both are strings (`%v`), and a key
/// both hold with different values is an error, as `CombineStringMaps` makes it.
pub fn generate(
    spec: &Map<String, Value>,
    context: &GeneratorContext<'_>,
    site: &Site<'_>,
    child: &Child<'_>,
) -> Result<Vec<Params>, Diagnostic> {
    site.known_fields(spec, "the matrix generator", FIELDS)?;
    let generators = children::list(spec, site)?;
    let list_site = site.field("generators");
    if generators.len() < 2 {
        return Err(list_site.error(format!(
            "found less than two generators, Matrix support only two (it has {})",
            generators.len()
        )));
    }
    if generators.len() > 2 {
        return Err(list_site.error(format!(
            "found more than two generators, Matrix support only two (it has {}; nest a matrix to combine more)",
            generators.len()
        )));
    }
    let (first_site, second_site) = (list_site.item(0), list_site.item(1));
    let first = child(&generators[0], &first_site, None)?;
    let mut result = Vec::new();
    for a in &first {
        let second = child(&generators[1], &second_site, Some(a))?;
        if result.len().saturating_add(second.len()) > MOST_PARAMETER_SETS {
            return Err(site.error(format!(
                "the matrix makes more than {MOST_PARAMETER_SETS} parameter sets, past \
                 fedrender's bound (a pull request may not exhaust the job; Argo CD would make \
                 an Application of each)"
            )));
        }
        for b in second {
            if context.go_template {
                let mut merged = Map::new();
                merge_override(&mut merged, &b);
                merge_override(&mut merged, a);
                result.push(merged);
            } else {
                result.push(combine_string_maps(a, &b, site)?);
            }
        }
    }
    Ok(result)
}

/// utils/map.go `CombineStringMaps`.
fn combine_string_maps(a: &Params, b: &Params, site: &Site<'_>) -> Result<Params, Diagnostic> {
    let mut combined: Params = a
        .iter()
        .map(|(k, v)| (k.clone(), Value::String(go_sprint(v))))
        .collect();
    for (key, value) in b {
        let value = go_sprint(value);
        if let Some(Value::String(current)) = combined.get(key)
            && *current != value
        {
            return Err(site.error(format!(
                "failed to combine string maps with merging params for the matrix generator: found duplicate key {key} with different value, a: {current} ,b: {value}"
            )));
        }
        combined.insert(key.clone(), Value::String(value));
    }
    Ok(combined)
}
