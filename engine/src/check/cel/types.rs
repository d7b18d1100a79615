//! CEL's types as cel-go's checker has them (common/types, checker/types.go): what the
//! checker infers, how one type is assigned to another with type parameters bound along the
//! way, and how a type is written in its messages (`list(int)`, `map(string, dyn)`,
//! `optional_type(string)`). Also the type of each node of a CRD's schema, as the API server
//! declares it (apiserver pkg/cel/common/schemas.go `SchemaDeclType`), with the sizes its cost
//! estimate bounds values by.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use super::escape;

/// A CEL type.
#[derive(Debug, Clone, PartialEq)]
pub enum Type {
    Dyn,
    /// What an expression that failed to check has; assignable to and from anything, so that
    /// one error is reported once.
    Error,
    Null,
    Bool,
    Int,
    Uint,
    Double,
    String,
    Bytes,
    Duration,
    Timestamp,
    List(Box<Type>),
    Map(Box<Type>, Box<Type>),
    /// An object of the schema, or one of Kubernetes' object types (`kubernetes.Quantity`),
    /// known by its name.
    Object(Arc<ObjectType>),
    /// An opaque type with its parameters: `optional_type(int)`, `net.IP`.
    Opaque(&'static str, Vec<Type>),
    /// The type of a type: `type(int)`, or `type` alone.
    #[expect(
        clippy::enum_variant_names,
        reason = "CEL names it type, as cel-go's TypeKind"
    )]
    Type(Option<Box<Type>>),
    /// A type parameter, by name: an overload's (`A`) or the checker's (`_var0`).
    Param(Arc<str>),
}

/// An object type: its name, and its fields by their CEL names (escaped), with the schema's
/// declaration of each.
#[derive(Debug)]
pub struct ObjectType {
    pub name: String,
    pub fields: BTreeMap<String, Arc<Decl>>,
}

impl PartialEq for ObjectType {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl Type {
    pub fn list(item: Type) -> Type {
        Type::List(Box::new(item))
    }

    pub fn map(key: Type, value: Type) -> Type {
        Type::Map(Box::new(key), Box::new(value))
    }

    pub fn optional(value: Type) -> Type {
        Type::Opaque("optional_type", vec![value])
    }

    /// One of Kubernetes' object types that have no fields (`kubernetes.Quantity`).
    pub fn named(name: &str) -> Type {
        Type::Object(Arc::new(ObjectType {
            name: name.to_string(),
            fields: BTreeMap::new(),
        }))
    }

    pub fn param(name: &str) -> Type {
        Type::Param(Arc::from(name))
    }

    pub fn is_dyn_or_error(&self) -> bool {
        matches!(self, Type::Dyn | Type::Error)
    }

    /// The value type of an optional, and whether it was one.
    pub fn unwrap_optional(&self) -> (&Type, bool) {
        match self {
            Type::Opaque("optional_type", params) => (&params[0], true),
            other => (other, false),
        }
    }

    /// The type's name without its parameters, as cel-go's `TypeName`.
    fn type_name(&self) -> &str {
        match self {
            Type::List(_) => "list",
            Type::Map(..) => "map",
            Type::Object(object) => &object.name,
            Type::Opaque(name, _) => name,
            Type::Type(_) => "type",
            Type::Param(name) => name,
            _ => "",
        }
    }

    fn parameters(&self) -> Vec<&Type> {
        match self {
            Type::List(item) => vec![item],
            Type::Map(key, value) => vec![key, value],
            Type::Opaque(_, params) => params.iter().collect(),
            Type::Type(Some(of)) => vec![of],
            _ => Vec::new(),
        }
    }

    fn kind(&self) -> u8 {
        match self {
            Type::Dyn => 0,
            Type::Error => 1,
            Type::Null => 2,
            Type::Bool => 3,
            Type::Int => 4,
            Type::Uint => 5,
            Type::Double => 6,
            Type::String => 7,
            Type::Bytes => 8,
            Type::Duration => 9,
            Type::Timestamp => 10,
            Type::List(_) => 11,
            Type::Map(..) => 12,
            Type::Object(_) => 13,
            Type::Opaque(..) => 14,
            Type::Type(_) => 15,
            Type::Param(_) => 16,
        }
    }

    /// cel-go's `IsExactType`: the same kind, name and parameters.
    pub fn is_exact(&self, other: &Type) -> bool {
        self.kind() == other.kind()
            && self.type_name() == other.type_name()
            && self.parameters().len() == other.parameters().len()
            && (self.parameters().iter())
                .zip(other.parameters())
                .all(|(a, b)| a.is_exact(b))
    }
}

/// As cel-go's `FormatCELType` writes types in its messages.
impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let simple = match self {
            Type::Dyn => "dyn",
            Type::Error => "!error!",
            Type::Null => "null",
            Type::Bool => "bool",
            Type::Int => "int",
            Type::Uint => "uint",
            Type::Double => "double",
            Type::String => "string",
            Type::Bytes => "bytes",
            Type::Duration => "duration",
            Type::Timestamp => "timestamp",
            Type::Object(object) => return f.write_str(&object.name),
            Type::Param(name) => return f.write_str(name),
            Type::Type(None) => "type",
            Type::Opaque(name, params) if params.is_empty() => return f.write_str(name),
            _ => {
                let params: Vec<String> = self.parameters().iter().map(|p| p.to_string()).collect();
                return write!(f, "{}({})", self.type_name(), params.join(", "));
            }
        };
        f.write_str(simple)
    }
}

/// The checker's substitutions of type parameters (cel-go's checker/mapping.go).
#[derive(Debug, Clone, Default)]
pub struct Mapping(HashMap<Arc<str>, Type>);

impl Mapping {
    fn find(&self, param: &Type) -> Option<&Type> {
        match param {
            Type::Param(name) => self.0.get(name),
            _ => None,
        }
    }

    fn add(&mut self, param: &Type, to: Type) {
        if let Type::Param(name) = param {
            self.0.insert(name.clone(), to);
        }
    }

    /// Binds the type parameter `name` to `t`.
    pub fn bind(&mut self, name: &str, t: Type) {
        self.0.insert(Arc::from(name), t);
    }

    /// cel-go's `isAssignable(m, t1, t2)`: whether `t1` is assignable to `t2`, binding type
    /// parameters; the mapping changes only when it is.
    pub fn assign(&mut self, t1: &Type, t2: &Type) -> bool {
        let mut copy = self.clone();
        if copy.assignable(t1, t2) {
            *self = copy;
            true
        } else {
            false
        }
    }

    /// [`Mapping::assign`] for lists of types, pairwise.
    pub fn assign_all(&mut self, l1: &[Type], l2: &[Type]) -> bool {
        let mut copy = self.clone();
        if l1.len() == l2.len() && l1.iter().zip(l2).all(|(t1, t2)| copy.assignable(t1, t2)) {
            *self = copy;
            true
        } else {
            false
        }
    }

    /// cel-go's `internalIsAssignable(m, t1, t2)`.
    fn assignable(&mut self, t1: &Type, t2: &Type) -> bool {
        if let Type::Param(_) = t2 {
            let (valid, has_substitution) = self.valid_substitution(t1, t2);
            if valid {
                return true;
            }
            if has_substitution {
                return false;
            }
        }
        if let Type::Param(_) = t1 {
            return self.valid_substitution(t2, t1).0;
        }
        if t1.is_dyn_or_error() || t2.is_dyn_or_error() {
            return true;
        }
        if *t1 == Type::Null {
            return nullable(t2);
        }
        if *t2 == Type::Null {
            return nullable(t1);
        }
        match t1 {
            Type::List(_) | Type::Map(..) | Type::Opaque(..) => {
                t1.kind() == t2.kind()
                    && t1.type_name() == t2.type_name()
                    && t1.parameters().len() == t2.parameters().len()
                    && t1
                        .parameters()
                        .into_iter()
                        .zip(t2.parameters())
                        .all(|(a, b)| self.assignable(a, b))
            }
            Type::Type(_) => matches!(t2, Type::Type(_)),
            _ => t1.is_exact(t2),
        }
    }

    /// cel-go's `isValidTypeSubstitution`: whether `t2` (a parameter) may stand for `t1`, and
    /// whether it was bound already.
    fn valid_substitution(&mut self, t1: &Type, t2: &Type) -> (bool, bool) {
        if t1.is_exact(t2) {
            return (true, true);
        }
        if let Some(bound) = self.find(t2).cloned() {
            if t1.is_exact(&bound) {
                return (true, true);
            }
            if self.assignable(t1, &bound) {
                let general = most_general(t1, &bound);
                if self.not_referenced_in(t2, &general) {
                    self.add(t2, general);
                }
                return (true, true);
            }
            return (false, true);
        }
        if self.not_referenced_in(t2, t1) {
            self.add(t2, t1.clone());
            return (true, false);
        }
        (false, false)
    }

    /// The occurs check: whether `param` does not appear in `within`.
    fn not_referenced_in(&self, param: &Type, within: &Type) -> bool {
        if param.is_exact(within) {
            return false;
        }
        match within {
            Type::Param(_) => match self.find(within) {
                Some(bound) => self.not_referenced_in(param, bound),
                None => true,
            },
            _ => within
                .parameters()
                .into_iter()
                .all(|inner| self.not_referenced_in(param, inner)),
        }
    }

    /// `t` with its bound parameters replaced, and unbound ones by dyn when `to_dyn`.
    pub fn substitute(&self, t: &Type, to_dyn: bool) -> Type {
        if let Some(bound) = self.find(t) {
            return self.substitute(bound, to_dyn);
        }
        match t {
            Type::Param(_) if to_dyn => Type::Dyn,
            Type::List(item) => Type::list(self.substitute(item, to_dyn)),
            Type::Map(key, value) => {
                Type::map(self.substitute(key, to_dyn), self.substitute(value, to_dyn))
            }
            Type::Opaque(name, params) => Type::Opaque(
                name,
                params.iter().map(|p| self.substitute(p, to_dyn)).collect(),
            ),
            Type::Type(Some(of)) => Type::Type(Some(Box::new(self.substitute(of, to_dyn)))),
            other => other.clone(),
        }
    }
}

/// cel-go's `internalIsAssignableNull`: the types null is assignable to.
fn nullable(t: &Type) -> bool {
    matches!(
        t,
        Type::Opaque(..) | Type::Object(_) | Type::Duration | Type::Timestamp | Type::Null
    )
}

/// cel-go's `mostGeneral` of two types known to unify.
pub fn most_general(t1: &Type, t2: &Type) -> Type {
    if less_specific(t1, t2) {
        t1.clone()
    } else {
        t2.clone()
    }
}

/// cel-go's `isEqualOrLessSpecific`.
fn less_specific(t1: &Type, t2: &Type) -> bool {
    if matches!(t1, Type::Dyn | Type::Param(_)) {
        return true;
    }
    if matches!(t2, Type::Dyn | Type::Param(_)) {
        return false;
    }
    if t1.kind() != t2.kind() {
        return false;
    }
    match t1 {
        Type::Opaque(..) | Type::List(_) | Type::Map(..) => {
            t1.type_name() == t2.type_name()
                && t1.parameters().len() == t2.parameters().len()
                && t1
                    .parameters()
                    .into_iter()
                    .zip(t2.parameters())
                    .all(|(a, b)| less_specific(a, b))
        }
        Type::Type(_) => true,
        _ => t1.is_exact(t2),
    }
}

/// The largest request an API server takes, which bounds every size its estimate does not
/// know otherwise (apiserver `DefaultMaxRequestSizeBytes`, 3 MiB).
pub const MAX_REQUEST_BYTES: u64 = 3 * 1024 * 1024;

/// The declaration of one node of a schema (apiserver pkg/cel `DeclType`): its CEL type, the
/// most elements (characters, items, properties) a value there can have, and the fewest bytes
/// it takes serialized.
#[derive(Debug)]
pub struct Decl {
    pub ty: Type,
    pub max_elements: u64,
    pub min_serialized_size: u64,
    /// The declaration of a list's items or a map's values.
    pub element: Option<Arc<Decl>>,
}

impl Decl {
    fn simple(ty: Type, min_serialized_size: u64, max_elements: u64) -> Decl {
        Decl {
            ty,
            max_elements,
            min_serialized_size,
            element: None,
        }
    }

    /// A field of an object, by its CEL name.
    pub fn field(&self, name: &str) -> Option<&Arc<Decl>> {
        match &self.ty {
            Type::Object(object) => object.fields.get(name),
            _ => None,
        }
    }

    /// The declaration of the schema `schema` (a CRD's openAPIV3Schema node), named `name`
    /// when it is an object; `root` when it is the root of a resource (the CRD's, or an
    /// embedded one), which always has apiVersion, kind and metadata.name and generateName.
    /// None where the API server declares nothing (no type, or a list without items): such
    /// a field is not visible to CEL.
    pub fn of_schema(schema: &Value, name: &str, root: bool) -> Option<Decl> {
        let flag = |key: &str| schema.get(key) == Some(&Value::Bool(true));
        let number = |key: &str| {
            schema
                .get(key)
                .and_then(Value::as_i64)
                .map(|n| n.max(0) as u64)
        };
        let format = schema.get("format").and_then(Value::as_str).unwrap_or("");
        let request = MAX_REQUEST_BYTES - 2;
        if flag("x-kubernetes-int-or-string") {
            let max = number("maxLength").map_or(request, |length| length * 4);
            return Some(Decl::simple(Type::Dyn, 1, max));
        }
        let with_meta;
        let schema = if root {
            with_meta = with_type_and_object_meta(schema);
            &with_meta
        } else {
            schema
        };
        match schema.get("type").and_then(Value::as_str)? {
            "array" => {
                let items = schema.get("items")?;
                let embedded =
                    items.get("x-kubernetes-embedded-resource") == Some(&Value::Bool(true));
                let item = Decl::of_schema(items, &format!("{name}.@idx"), embedded)?;
                let max = number("maxItems").unwrap_or(request / (item.min_serialized_size + 1));
                Some(Decl {
                    ty: Type::list(item.ty.clone()),
                    max_elements: max,
                    min_serialized_size: 2,
                    element: Some(Arc::new(item)),
                })
            }
            "object" => {
                if let Some(additional) =
                    schema.get("additionalProperties").filter(|a| a.is_object())
                {
                    let embedded = additional.get("x-kubernetes-embedded-resource")
                        == Some(&Value::Bool(true));
                    let value = Decl::of_schema(additional, &format!("{name}.@elem"), embedded)?;
                    let max = number("maxProperties")
                        .unwrap_or(request / (value.min_serialized_size + 6));
                    return Some(Decl {
                        ty: Type::map(Type::String, value.ty.clone()),
                        max_elements: max,
                        min_serialized_size: 2,
                        element: Some(Arc::new(value)),
                    });
                }
                let required: Vec<&str> = schema
                    .get("required")
                    .and_then(Value::as_array)
                    .map(|names| names.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                let mut fields = BTreeMap::new();
                let mut min_size = 2;
                if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
                    for (property, field_schema) in properties {
                        let embedded = field_schema.get("x-kubernetes-embedded-resource")
                            == Some(&Value::Bool(true));
                        let Some(field) =
                            Decl::of_schema(field_schema, &format!("{name}.{property}"), embedded)
                        else {
                            continue;
                        };
                        if required.contains(&property.as_str())
                            && field_schema.get("default").is_none()
                        {
                            min_size += property.len() as u64 + field.min_serialized_size + 4;
                        }
                        if let Some(escaped) = escape::escape(property) {
                            fields.insert(escaped, Arc::new(field));
                        }
                    }
                }
                Some(Decl {
                    ty: Type::Object(Arc::new(ObjectType {
                        name: name.to_string(),
                        fields,
                    })),
                    max_elements: 0,
                    min_serialized_size: min_size,
                    element: None,
                })
            }
            "string" => Some(match format {
                "byte" => Decl::simple(Type::Bytes, 2, number("maxLength").unwrap_or(request)),
                "duration" => Decl::simple(Type::Duration, 3, 32),
                "date" => Decl::simple(Type::Timestamp, 12, 12),
                "date-time" => Decl::simple(Type::Timestamp, 21, 32),
                _ => {
                    let longest_enum = schema.get("enum").and_then(Value::as_array).map(|values| {
                        values
                            .iter()
                            .filter_map(Value::as_str)
                            .map(|value| value.len() as u64)
                            .max()
                            .unwrap_or(0)
                    });
                    let max = match number("maxLength") {
                        Some(length) => length * 4,
                        None => longest_enum.unwrap_or(request),
                    };
                    Decl::simple(Type::String, 2, max)
                }
            }),
            "boolean" => Some(Decl::simple(Type::Bool, 4, 0)),
            "number" => Some(Decl::simple(Type::Double, 1, 0)),
            "integer" => Some(Decl::simple(Type::Int, 1, 0)),
            _ => None,
        }
    }
}

/// The schema of a resource's root as CEL sees it (apiserver `WithTypeAndObjectMeta`):
/// apiVersion and kind strings, and metadata with only name and generateName, whatever the
/// schema says of them.
fn with_type_and_object_meta(schema: &Value) -> Value {
    let mut schema = schema.clone();
    let string = serde_json::json!({"type": "string"});
    if let Some(object) = schema.as_object_mut() {
        let properties = object
            .entry("properties")
            .or_insert_with(|| Value::Object(Default::default()));
        if let Some(properties) = properties.as_object_mut() {
            properties.insert("kind".to_string(), string.clone());
            properties.insert("apiVersion".to_string(), string.clone());
            properties.insert(
                "metadata".to_string(),
                serde_json::json!({"type": "object", "properties": {
                    "name": string, "generateName": string}}),
            );
        }
    }
    schema
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// cel-go's unification: `A` binds to the first argument, and a second of another type
    /// does not assign; dyn and error assign to anything; null only to nullable types.
    #[test]
    fn assignment_binds_type_parameters() {
        let mut mapping = Mapping::default();
        let a = Type::param("A");
        assert!(mapping.assign_all(&[Type::Int, Type::Int], &[a.clone(), a.clone()]));
        let mut mapping = Mapping::default();
        assert!(!mapping.assign_all(&[Type::Int, Type::String], &[a.clone(), a.clone()]));
        // A bound to int, then to dyn: the more general of the two.
        assert!(mapping.assign_all(&[Type::Int, Type::Dyn], &[a.clone(), a.clone()]));
        assert_eq!(mapping.substitute(&a, true), Type::Dyn);
        let mut mapping = Mapping::default();
        assert!(!mapping.assign_all(&[Type::String, Type::Null], &[a.clone(), a.clone()]));
        assert!(mapping.assign(&Type::Null, &Type::Timestamp));
        let list = Type::list(a.clone());
        let mut mapping = Mapping::default();
        assert!(mapping.assign(&Type::list(Type::String), &list));
        assert_eq!(mapping.substitute(&list, false).to_string(), "list(string)");
    }

    /// Types are written as cel-go writes them.
    #[test]
    fn types_are_written_as_cel_go_writes_them() {
        let t = Type::map(Type::String, Type::list(Type::optional(Type::Dyn)));
        assert_eq!(t.to_string(), "map(string, list(optional_type(dyn)))");
        assert_eq!(
            Type::named("kubernetes.Quantity").to_string(),
            "kubernetes.Quantity"
        );
        assert_eq!(
            Type::Type(Some(Box::new(Type::Int))).to_string(),
            "type(int)"
        );
    }

    /// The schema's declarations (apiserver `SchemaDeclType`): int-or-string is dyn, format
    /// byte is bytes, date a timestamp, a field with no type is not declared, a resource's
    /// root has metadata.name and generateName only.
    #[test]
    fn schemas_declare_as_the_api_server_declares_them() {
        let schema = json!({"type": "object", "properties": {
            "port": {"x-kubernetes-int-or-string": true},
            "data": {"type": "string", "format": "byte"},
            "day": {"type": "string", "format": "date"},
            "free": {"x-kubernetes-preserve-unknown-fields": true},
            "tags": {"type": "array", "maxItems": 3, "items": {"type": "string", "maxLength": 5}},
            "labels": {"type": "object", "additionalProperties": {"type": "string"}},
            "metadata": {"type": "object"}}});
        let decl = Decl::of_schema(&schema, "self", true).unwrap();
        let field = |name: &str| decl.field(name).map(|field| field.ty.to_string());
        assert_eq!(field("port").as_deref(), Some("dyn"));
        assert_eq!(field("data").as_deref(), Some("bytes"));
        assert_eq!(field("day").as_deref(), Some("timestamp"));
        assert_eq!(field("free"), None);
        assert_eq!(field("tags").as_deref(), Some("list(string)"));
        assert_eq!(field("labels").as_deref(), Some("map(string, string)"));
        assert_eq!(field("kind").as_deref(), Some("string"));
        let tags = decl.field("tags").unwrap();
        assert_eq!(tags.max_elements, 3);
        assert_eq!(tags.element.as_ref().unwrap().max_elements, 20);
        let metadata = decl.field("metadata").unwrap();
        assert!(metadata.field("name").is_some() && metadata.field("labels").is_none());
    }
}
