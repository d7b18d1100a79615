//! How a matrix or merge generator asks for its children's parameters, without naming the
//! dispatcher that answers (which names them): a child entry, where it is written, and the
//! parameters to interpolate into it.

use serde_json::Value;

use super::context::Site;
use crate::argocd::params::Params;
use crate::diagnostics::Diagnostic;

/// The parameter sets of one child entry at a site, interpolated with the given parameters
/// (none for a merge's children and a matrix's first), its `selector` applied.
pub type Child<'f> =
    dyn Fn(&Value, &Site<'_>, Option<&Params>) -> Result<Vec<Params>, Diagnostic> + 'f;

/// The `generators` list of a matrix or merge at `site`.
pub fn list<'v>(
    spec: &'v serde_json::Map<String, Value>,
    site: &Site<'_>,
) -> Result<&'v [Value], Diagnostic> {
    match spec.get("generators").filter(|v| !v.is_null()) {
        Some(generators) => Ok(site.field("generators").array(generators)?.as_slice()),
        None => Ok(&[]),
    }
}
