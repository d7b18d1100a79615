//! Two of a schema's constraints: an `enum`'s values, set up once with their CRD, and a
//! `pattern`'s compiled expression, compiled when first needed; and a schema's `format` and `enum` as read from it.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use serde_json::Value;

use super::cel;
use super::formats::describe;

/// An `enum`'s values. A long one keeps its strings in order too, so that a string is looked
/// up rather than compared with each value.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct Enumeration {
    pub(super) values: Vec<Value>,
    strings: Option<BTreeSet<String>>,
}

/// Enums longer than this look strings up; shorter ones compare.
const SHORT_ENUM: usize = 16;

/// How many of an enum's values a message lists before it counts the rest.
const LISTED_VALUES: usize = 10;

impl Enumeration {
    pub(super) fn new(values: Vec<Value>) -> Enumeration {
        let strings = (values.len() > SHORT_ENUM).then(|| {
            values
                .iter()
                .filter_map(Value::as_str)
                .map(String::from)
                .collect()
        });
        Enumeration { values, strings }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Whether `value` is one of the values, and the steps that took to learn.
    pub(super) fn allows(&self, value: &Value) -> (bool, u64) {
        match (&self.strings, value) {
            (Some(strings), Value::String(text)) => (strings.contains(text), 1),
            _ => (self.values.contains(value), self.values.len().max(1) as u64),
        }
    }

    /// `"a", "b", "c"`; past [`LISTED_VALUES`], the first of them and how many more.
    pub(super) fn listed(&self) -> String {
        let shown: Vec<String> = self
            .values
            .iter()
            .take(LISTED_VALUES)
            .map(describe)
            .collect();
        match self.values.len() - shown.len() {
            0 => shown.join(", "),
            more => format!("{} and {more} more", shown.join(", ")),
        }
    }
}

/// A `pattern`, compiled the first time a value reaches it — so a CRD's patterns cost nothing
/// until a custom resource of it is checked — as Go's regexp (RE2) reads it, and bounded by
/// the compiled program's size ([`cel::go_regexp`]'s limit).
#[derive(Debug, Clone)]
pub(super) struct Pattern {
    pub(super) source: String,
    regex: OnceLock<Result<regex::Regex, String>>,
}

/// The steps charged for compiling a pattern (to the run's budget): about what compiling
/// one of a few hundred bytes into the size limit costs, in schema steps.
pub(super) const COMPILE_STEPS: u64 = 20_000;

impl PartialEq for Pattern {
    fn eq(&self, other: &Pattern) -> bool {
        self.source == other.source
    }
}

impl Pattern {
    pub(super) fn new(source: &str) -> Pattern {
        Pattern {
            source: source.to_string(),
            regex: OnceLock::new(),
        }
    }

    /// The compiled expression (or why it does not compile), and the steps compiling it took
    /// now: [`COMPILE_STEPS`] plus one per byte of the pattern the first time, none after.
    pub(super) fn compiled(&self) -> (&Result<regex::Regex, String>, u64) {
        let mut steps = 0;
        let regex = self.regex.get_or_init(|| {
            steps = COMPILE_STEPS + self.source.len() as u64;
            cel::go_regexp(&self.source)
        });
        (regex, steps)
    }
}

/// A schema's `format` and `enum`. A null among the enum's values (the Kubernetes conversion
/// lists it where the field is nullable) is left out: null is judged by the types.
pub(super) fn format_and_enumeration(
    object: &serde_json::Map<String, Value>,
) -> (Option<String>, Enumeration) {
    let format = object
        .get("format")
        .and_then(Value::as_str)
        .map(String::from);
    let enumeration = object
        .get("enum")
        .and_then(Value::as_array)
        .map(|values| {
            values
                .iter()
                .filter(|value| !value.is_null())
                .cloned()
                .collect()
        })
        .unwrap_or_default();
    (format, Enumeration::new(enumeration))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::schema::Schema;
    use serde_json::json;

    /// A CRD's patterns are not compiled when the CRD is read, only when a value reaches one
    /// (issue 47: a 93 KB CRD of patterns and no custom resource took 25 s and 960 MB); the first
    /// compilation is charged to the run, later matches are not.
    #[test]
    fn patterns_compile_when_a_value_first_reaches_them() {
        let pattern = Pattern::new(r"^[a-z]{30}$");
        assert!(pattern.regex.get().is_none());
        let (compiled, steps) = pattern.compiled();
        assert!(compiled.is_ok(), "{compiled:?}");
        assert_eq!(steps, COMPILE_STEPS + 11);
        assert_eq!(pattern.compiled().1, 0);
        let properties: serde_json::Map<String, Value> = (0..2000)
            .map(|n| {
                (
                    format!("f{n}"),
                    json!({"type": "string", "pattern": format!(r"^\pL{{{n}}}$")}),
                )
            })
            .collect();
        let started = std::time::Instant::now();
        let schema = Schema::from_crd(&json!({"type": "object", "properties": properties}));
        assert!(started.elapsed() < std::time::Duration::from_secs(2));
        drop(schema);
    }

    /// The compiled program is bounded (cel::go_regexp's size limit): a pattern past it does
    /// not compile, and says so, rather than taking the memory.
    #[test]
    fn a_pattern_past_the_compiled_size_limit_does_not_compile() {
        let pattern = Pattern::new(r"(\pL{100}){100}");
        assert!(pattern.compiled().0.is_err());
    }
}
