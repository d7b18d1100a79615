//! The schema as CEL sees it.

use serde_json::Value;

/// What CEL needs of a schema to type the values under it: an integer field is CEL's int, a
/// `number` one a double, a `duration` or `date-time` string a duration or timestamp.
pub trait Shape: std::fmt::Debug {
    /// The schema of an object's field `name`.
    fn field(&self, name: &str) -> Option<&dyn Shape>;
    /// Whether the node declares properties: CEL then sees an object whose fields are
    /// selected by their escaped names ([`super::escape`]), not a map selected by its keys.
    fn declares_properties(&self) -> bool;
    /// The schema of a list's items.
    fn item(&self) -> Option<&dyn Shape>;
    /// Whether a number here may have a fraction (a double).
    fn is_number(&self) -> bool;
    fn format(&self) -> Option<&str>;
    /// The type a CRD's node declares, and whether it is nullable: what CEL converts its
    /// values to. `None` where no type is declared (nothing is refused).
    fn declared(&self) -> Option<(Declared, bool)> {
        None
    }
}

/// The type of a CRD's node, as CEL's conversion of a value reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Declared {
    Object,
    Array,
    String,
    Integer,
    /// `number`: an integer value is a double too.
    Number,
    Boolean,
    /// `x-kubernetes-int-or-string`.
    IntOrString,
}

/// Why `value` is no CEL value of a node of `shape` — a type the node does not allow, which
/// the API server's conversion turns into an error value (apiserver
/// pkg/cel/common/valuesunstructured.go `UnstructuredToVal`), in its words — or `None`. A
/// ratcheted update can keep such a value; anywhere else the schema refuses it first.
pub fn refusal(shape: &dyn Shape, value: &Value) -> Option<String> {
    let (declared, nullable) = shape.declared()?;
    // Go's names of the decoded JSON's types.
    let go_type = match value {
        Value::Null if nullable => return None,
        Value::Null => return Some("invalid data, got null for schema with nullable=false".into()),
        Value::Bool(_) => "bool",
        Value::Number(number) if number.is_f64() && number.as_f64()?.fract() != 0.0 => "float64",
        Value::Number(_) => "int64",
        Value::String(_) => "string",
        Value::Array(_) => "[]interface {}",
        Value::Object(_) => "map[string]interface {}",
    };
    let fits = match declared {
        Declared::Object => value.is_object(),
        Declared::Array => value.is_array(),
        Declared::String => value.is_string(),
        Declared::Integer => go_type == "int64",
        Declared::Number => value.is_number(),
        Declared::Boolean => value.is_boolean(),
        Declared::IntOrString => go_type == "int64" || value.is_string(),
    };
    if fits {
        return None;
    }
    Some(match declared {
        Declared::Object => {
            "invalid data, expected a map for the provided schema with type=object".into()
        }
        Declared::Array => {
            "invalid data, expected an array for the provided schema with type=array".into()
        }
        Declared::IntOrString => {
            "invalid data, expected XIntOrString value to be either a string or integer".into()
        }
        Declared::String => format!("invalid data, expected string, got {go_type}"),
        Declared::Integer => format!("invalid data, expected int, got {go_type}"),
        Declared::Number => format!("invalid data, expected float, got {go_type}"),
        Declared::Boolean => format!("invalid data, expected bool, got {go_type}"),
    })
}
