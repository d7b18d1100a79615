//! What every generator reads besides its own fields: the clusters, the mapped repositories,
//! the ApplicationSet's template mode, and where in the ApplicationSet each field is written.

use serde_json::{Map, Value};

use crate::argocd::cluster::ArgoCluster;
use crate::argocd::repositories::Repositories;
use crate::diagnostics::{Diagnostic, FieldLines, Origin};
use crate::edit_distance::{Hint, hint, nearest};

/// What Argo CD's generators read from outside their own fields.
#[derive(Debug, Clone, Copy)]
pub struct GeneratorContext<'a> {
    /// The Argo CD clusters (their Secrets); the local `in-cluster` is added by the clusters
    /// generator as Argo CD adds it, so it need not be here (a Secret-less `in-cluster`, one
    /// with no origin, is ignored if it is).
    pub clusters: &'a [ArgoCluster],
    /// The repositories the Config maps to local checkouts.
    pub repositories: &'a Repositories,
    /// The ApplicationSet's `spec.goTemplate`.
    pub go_template: bool,
    /// The ApplicationSet's `spec.goTemplateOptions`, as the template engine takes them.
    pub go_template_options: &'a [String],
    /// The controller's `--enable-new-git-file-globbing`: git files patterns as doublestar
    /// globs instead of git pathspecs.
    pub new_globbing: bool,
    /// The parameter sets every ApplicationSet read so far has made, against
    /// [`MOST_PARAMETER_SETS_IN_A_RUN`].
    pub made: &'a std::cell::Cell<usize>,
}

/// The most parameter sets (so Applications) all the ApplicationSets of one run may make: each
/// matrix is bounded, but a pull request could write a thousand of them. Four times the 27,000
/// Applications of the 200-cluster benchmark fleet, which takes 1 GiB.
pub const MOST_PARAMETER_SETS_IN_A_RUN: usize = 100_000;

/// Where a field is written: the ApplicationSet document, its field lines and the field's path
/// (`spec.generators[0].list.elements`).
#[derive(Debug, Clone)]
pub struct Site<'a> {
    document: &'a Origin,
    lines: &'a FieldLines,
    /// The field's dotted path in the document.
    pub path: String,
}

impl<'a> Site<'a> {
    /// The field at `path` of the document at `document`.
    pub fn new(document: &'a Origin, lines: &'a FieldLines, path: impl Into<String>) -> Self {
        Site {
            document,
            lines,
            path: path.into(),
        }
    }

    /// The field `name` below this one.
    pub fn field(&self, name: &str) -> Site<'a> {
        Site::new(self.document, self.lines, format!("{}.{name}", self.path))
    }

    /// Item `index` of this list field.
    pub fn item(&self, index: usize) -> Site<'a> {
        Site::new(self.document, self.lines, format!("{}[{index}]", self.path))
    }

    /// An error at this field's line, naming the field.
    pub fn error(&self, message: impl std::fmt::Display) -> Diagnostic {
        Diagnostic::error(
            Some(self.lines.origin(self.document, &self.path)),
            format!("{}: {message}", self.path),
        )
    }

    /// This field as a map; anything else is an error.
    pub fn object<'v>(&self, value: &'v Value) -> Result<&'v Map<String, Value>, Diagnostic> {
        value
            .as_object()
            .ok_or_else(|| self.error(format!("must be a map, not {}", kind(value))))
    }

    /// This field as a list; anything else is an error.
    pub fn array<'v>(&self, value: &'v Value) -> Result<&'v Vec<Value>, Diagnostic> {
        value
            .as_array()
            .ok_or_else(|| self.error(format!("must be a list, not {}", kind(value))))
    }

    /// This field as a string; anything else is an error.
    pub fn string<'v>(&self, value: &'v Value) -> Result<&'v str, Diagnostic> {
        value
            .as_str()
            .ok_or_else(|| self.error(format!("must be a string, not {}", kind(value))))
    }

    /// This field as a boolean (`null` is false, as Go's zero value); anything else is an error.
    pub fn boolean(&self, value: &Value) -> Result<bool, Diagnostic> {
        match value {
            Value::Null => Ok(false),
            Value::Bool(b) => Ok(*b),
            other => Err(self.error(format!("must be true or false, not {}", kind(other)))),
        }
    }

    /// Refuses a field of `fields` that is not one of `known`, naming it and the nearest known
    /// name: Argo CD's decoder would drop it, and what it meant would silently not happen.
    pub fn known_fields(
        &self,
        fields: &Map<String, Value>,
        what: &str,
        known: &[&str],
    ) -> Result<(), Diagnostic> {
        match fields.keys().find(|key| !known.contains(&key.as_str())) {
            None => Ok(()),
            Some(unknown) => Err(self.field(unknown).error(format!(
                "{what} has no field `{unknown}`{} (it has {})",
                hint(nearest(unknown, known.iter().copied()), Hint::AfterAsCode),
                known.join(", ")
            ))),
        }
    }
}

/// A value's kind in words, for messages.
pub fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "a map",
    }
}

/// A `map[string]string` field (`values`): each value must be a string.
pub fn string_map(
    site: &Site<'_>,
    value: Option<&Value>,
) -> Result<Vec<(String, String)>, Diagnostic> {
    let Some(value) = value.filter(|v| !v.is_null()) else {
        return Ok(Vec::new());
    };
    site.object(value)?
        .iter()
        .map(|(key, value)| Ok((key.clone(), site.field(key).string(value)?.to_string())))
        .collect()
}
