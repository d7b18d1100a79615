//! The values a template works on: the parameters as Go's `encoding/json` decodes them
//! (`map[string]interface{}`, `[]interface{}`, `float64`, `string`, `bool`, nil) and what the
//! functions return (`int`, `int64`, `[]string`, `map[string]string`). Maps are shared and
//! mutable, as Go's are: sprig's `set` changes the map every holder of it sees.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use super::go_time::GoTime;

/// The element type of a list or map: `interface{}` or `string`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Elem {
    Any,
    String,
    /// `[]int`, what sprig's `until` returns.
    Int,
}

/// Go's integer types the functions return.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum IntType {
    Int,
    Int64,
    /// What `*semver.Version`'s `Major`, `Minor` and `Patch` return.
    Uint64,
}

/// Whether a version is the `*semver.Version` sprig's `semver` returns or the
/// `semver.Version` its `Inc…` and `Set…` methods return, which has fewer methods (those of
/// the pointer need an address a method's result does not have).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum VersionKind {
    Pointer,
    Value,
}

pub(crate) type MapRef = Rc<RefCell<BTreeMap<String, Value>>>;

#[derive(Debug, Clone)]
pub(crate) enum Value {
    /// reflect's invalid value: a missing map entry, `<no value>` when printed.
    Missing,
    /// A nil interface: JSON null.
    Nil,
    Bool(bool),
    Int(i64, IntType),
    Float(f64),
    String(String),
    List(Rc<Vec<Value>>, Elem),
    Map(MapRef, Elem),
    /// A Masterminds/semver version; a pointer's identity is its `Rc`'s.
    Version(Rc<super::semver::Version>, VersionKind),
    /// A `time.Time`, what sprig's date functions return.
    Time(Rc<GoTime>),
}

impl Value {
    pub fn int(value: i64) -> Value {
        Value::Int(value, IntType::Int)
    }

    pub fn int64(value: i64) -> Value {
        Value::Int(value, IntType::Int64)
    }

    pub fn list(items: Vec<Value>) -> Value {
        Value::List(Rc::new(items), Elem::Any)
    }

    pub fn strings(items: Vec<String>) -> Value {
        Value::List(
            Rc::new(items.into_iter().map(Value::String).collect()),
            Elem::String,
        )
    }

    pub fn map(entries: BTreeMap<String, Value>) -> Value {
        Value::Map(Rc::new(RefCell::new(entries)), Elem::Any)
    }

    pub fn from_json(json: &serde_json::Value) -> Value {
        match json {
            serde_json::Value::Null => Value::Nil,
            serde_json::Value::Bool(b) => Value::Bool(*b),
            serde_json::Value::Number(n) => Value::Float(n.as_f64().unwrap_or(0.0)),
            serde_json::Value::String(s) => Value::String(s.clone()),
            serde_json::Value::Array(items) => {
                Value::list(items.iter().map(Value::from_json).collect())
            }
            serde_json::Value::Object(fields) => Value::map(
                fields
                    .iter()
                    .map(|(k, v)| (k.clone(), Value::from_json(v)))
                    .collect(),
            ),
        }
    }

    /// As `encoding/json` would write it, for `toJson` and `toYaml`: a float with an integral
    /// value under 1e21 is written as an integer.
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            Value::Missing | Value::Nil => serde_json::Value::Null,
            Value::Bool(b) => serde_json::Value::Bool(*b),
            Value::Int(i, _) => serde_json::Value::from(*i),
            Value::Float(f) => {
                // encoding/json writes an integral float without a fraction; -0 stays -0.
                let negative_zero = *f == 0.0 && f.is_sign_negative();
                if f.fract() == 0.0 && f.abs() < 9.2e18 && !negative_zero {
                    serde_json::Value::from(*f as i64)
                } else {
                    serde_json::Number::from_f64(*f).map_or(serde_json::Value::Null, Into::into)
                }
            }
            Value::String(s) => serde_json::Value::String(s.clone()),
            // Its `MarshalJSON`: the version's `String()`.
            Value::Version(version, _) => serde_json::Value::String(version.string()),
            Value::List(items, _) => {
                serde_json::Value::Array(items.iter().map(Value::to_json).collect())
            }
            Value::Map(map, _) => serde_json::Value::Object(
                map.borrow()
                    .iter()
                    .map(|(k, v)| (k.clone(), v.to_json()))
                    .collect(),
            ),
            // `Time.MarshalJSON`. Go fails on a year past 9999 (or before 0); such a time
            // takes 28 chained `dateModify` of the longest duration and is written anyway.
            Value::Time(t) => serde_json::Value::String(t.rfc3339_nano()),
        }
    }

    /// Go's name of the value's type, as messages show it.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Missing => "<invalid reflect.Value>",
            Value::Nil => "<nil>",
            Value::Bool(_) => "bool",
            Value::Int(_, IntType::Int) => "int",
            Value::Int(_, IntType::Int64) => "int64",
            Value::Int(_, IntType::Uint64) => "uint64",
            Value::Version(_, VersionKind::Pointer) => "*semver.Version",
            Value::Version(_, VersionKind::Value) => "semver.Version",
            Value::Float(_) => "float64",
            Value::String(_) => "string",
            Value::List(_, Elem::Any) => "[]interface {}",
            Value::List(_, Elem::String) => "[]string",
            Value::List(_, Elem::Int) => "[]int",
            Value::Map(_, Elem::Any) => "map[string]interface {}",
            Value::Map(_, Elem::String) => "map[string]string",
            Value::Map(_, Elem::Int) => "map[string]int",
            Value::Time(_) => "time.Time",
        }
    }

    pub fn is_nil(&self) -> bool {
        matches!(self, Value::Missing | Value::Nil)
    }

    /// exec.go `isTrue`: the zero value of its type is false.
    pub fn truth(&self) -> bool {
        match self {
            Value::Missing | Value::Nil => false,
            Value::Bool(b) => *b,
            Value::Int(i, _) => *i != 0,
            Value::Float(f) => *f != 0.0,
            Value::String(s) => !s.is_empty(),
            Value::List(items, _) => !items.is_empty(),
            Value::Map(map, _) => !map.borrow().is_empty(),
            // A non-nil pointer, or a struct, which is never false.
            Value::Version(..) => true,
            // A struct is always true.
            Value::Time(_) => true,
        }
    }

    /// A copy sharing no map with the original (copystructure `Copy`).
    pub fn deep_copy(&self) -> Value {
        match self {
            Value::List(items, elem) => {
                Value::List(Rc::new(items.iter().map(Value::deep_copy).collect()), *elem)
            }
            Value::Map(map, elem) => Value::Map(
                Rc::new(RefCell::new(
                    map.borrow()
                        .iter()
                        .map(|(k, v)| (k.clone(), v.deep_copy()))
                        .collect(),
                )),
                *elem,
            ),
            other => other.clone(),
        }
    }

    /// `reflect.DeepEqual`, for sprig's list functions.
    pub fn deep_equal(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Missing | Value::Nil, Value::Missing | Value::Nil) => true,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Int(a, ta), Value::Int(b, tb)) => a == b && ta == tb,
            (Value::Float(a), Value::Float(b)) => a == b,
            (Value::String(a), Value::String(b)) => a == b,
            (Value::Version(a, ka), Value::Version(b, kb)) => ka == kb && a == b,
            (Value::List(a, ea), Value::List(b, eb)) => {
                ea == eb
                    && a.len() == b.len()
                    && a.iter().zip(b.iter()).all(|(x, y)| x.deep_equal(y))
            }
            (Value::Map(a, ea), Value::Map(b, eb)) => {
                let (a, b) = (a.borrow(), b.borrow());
                ea == eb
                    && a.len() == b.len()
                    && a.iter()
                        .all(|(k, v)| b.get(k).is_some_and(|w| v.deep_equal(w)))
            }
            (Value::Time(a), Value::Time(b)) => a.deep_equal(b),
            _ => false,
        }
    }
}

/// `fmt.Sprint(value)` (`%v`): floats as strconv 'g' shortest, lists `[a b]`, maps
/// `map[k:v]` with sorted keys, nil `<nil>`.
pub(crate) fn sprint_value(value: &Value) -> String {
    let mut out = String::new();
    write_v(&mut out, value);
    out
}

fn write_v(out: &mut String, value: &Value) {
    match value {
        Value::Missing => out.push_str("<invalid reflect.Value>"),
        Value::Nil => out.push_str("<nil>"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Int(i, _) => out.push_str(&i.to_string()),
        Value::Float(f) => out.push_str(&crate::go_float::format(*f, 'g', None)),
        Value::String(s) => out.push_str(s),
        // fmt calls its `String()`, which both kinds have.
        Value::Version(version, _) => out.push_str(&version.string()),
        Value::List(items, _) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                write_v(out, item);
            }
            out.push(']');
        }
        Value::Map(map, _) => {
            out.push_str("map[");
            for (i, (k, v)) in map.borrow().iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                out.push_str(k);
                out.push(':');
                write_v(out, v);
            }
            out.push(']');
        }
        // fmt prints a Stringer by its String method.
        Value::Time(t) => out.push_str(&t.string()),
    }
}

/// `fmt.Sprint(args...)`: a space between two operands when neither is a string.
pub(crate) fn sprint(args: &[Value]) -> String {
    let mut out = String::new();
    for (i, arg) in args.iter().enumerate() {
        let is_string = matches!(arg, Value::String(_));
        if i > 0 && !is_string && !matches!(args[i - 1], Value::String(_)) {
            out.push(' ');
        }
        write_v(&mut out, arg);
    }
    out
}

/// `fmt.Sprintln(args...)`: always a space between operands, and a newline.
pub(crate) fn sprintln(args: &[Value]) -> String {
    let parts: Vec<String> = args.iter().map(sprint_value).collect();
    parts.join(" ") + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    // Go fmt's doc "The default format for %v": floats %g, slices [elem1 elem2], maps
    // map[key1:value1] sorted by key; the "1000000 renders 1e+06".
    #[test]
    fn prints_as_fmt_sprint() {
        let v = Value::from_json(
            &json!({"n": 1000000, "f": 1.5, "i": 3, "l": [1, "a", null], "m": {"b": true}}),
        );
        assert_eq!(
            sprint_value(&v),
            "map[f:1.5 i:3 l:[1 a <nil>] m:map[b:true] n:1e+06]"
        );
        assert_eq!(sprint_value(&Value::Float(123456.0)), "123456");
        assert_eq!(sprint_value(&Value::Float(0.0001)), "0.0001");
        assert_eq!(sprint_value(&Value::Float(0.00001)), "1e-05");
        assert_eq!(
            sprint(&[
                Value::int(1),
                Value::int(2),
                Value::String("a".into()),
                Value::int(3)
            ]),
            "1 2a3"
        );
    }
}
