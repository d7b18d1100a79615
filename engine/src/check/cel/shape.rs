//! The schema as CEL sees it.

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
    /// Why a value of the object is no CEL value of this schema — a type it does not allow,
    /// which the API server's conversion turns into an error value (apiserver
    /// pkg/cel/common/valuesunstructured.go `UnstructuredToVal`) — or `None`.
    fn refuses(&self, _value: &serde_json::Value) -> Option<String> {
        None
    }
}
