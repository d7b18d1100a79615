//! CEL's values, their equality and order, and an evaluation's state, over the object as
//! its CRD's schema types it (Kubernetes' `UnstructuredToVal`): an integer field is an int, a
//! `number` field a double, a `duration` or `date-time` string a duration or timestamp, an
//! object or list a view of the object's own JSON, read only where a rule reads it.
//!
//! Reading the object copies nothing: a string field is a [`Text`] borrowed from it, a list or
//! object a [`Val::Json`] view. What an evaluation builds is charged before it is built
//! ([`Evaluation::spend`], in the units of cel-go's runtime cost), so a rule can never hold
//! more memory than its charged cost allows.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::rc::Rc;

use serde_json::Value;

use super::escape;
use super::parse::{Macro, Macro2};
use super::shape::Shape;

/// A string value: borrowed from the object being checked (reading a field copies nothing),
/// or a part of a string an evaluation built, shared by reference (a substring, a split's
/// parts and every copy of a value share one allocation).
#[derive(Clone)]
pub enum Text<'a> {
    Borrowed(&'a str),
    Shared(Rc<str>, std::ops::Range<usize>),
}

impl<'a> Text<'a> {
    pub fn owned(text: String) -> Text<'a> {
        let end = text.len();
        Text::Shared(Rc::from(text), 0..end)
    }

    /// A part of this text, sharing its allocation: `range` is in bytes of `self`.
    pub fn slice(&self, range: std::ops::Range<usize>) -> Text<'a> {
        match self {
            Text::Borrowed(text) => Text::Borrowed(&text[range]),
            Text::Shared(all, own) => {
                Text::Shared(all.clone(), own.start + range.start..own.start + range.end)
            }
        }
    }

    /// An address that tells two reads of the same string apart from other strings, for
    /// the evaluation's memo of character counts.
    fn address(&self) -> (usize, usize) {
        (self.as_ptr() as usize, self.len())
    }
}

impl std::ops::Deref for Text<'_> {
    type Target = str;
    fn deref(&self) -> &str {
        match self {
            Text::Borrowed(text) => text,
            Text::Shared(all, range) => &all[range.clone()],
        }
    }
}

impl AsRef<str> for Text<'_> {
    fn as_ref(&self) -> &str {
        self
    }
}

impl std::fmt::Debug for Text<'_> {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&**self, formatter)
    }
}

impl std::fmt::Display for Text<'_> {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(&**self, formatter)
    }
}

impl PartialEq for Text<'_> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

#[derive(Debug, Clone)]
pub enum Val<'a> {
    Null,
    Bool(bool),
    Int(i64),
    Uint(u64),
    Double(f64),
    Str(Text<'a>),
    Bytes(Rc<[u8]>),
    List(Rc<Vec<Val<'a>>>),
    /// A map built by the expression: keys in order of insertion.
    Map(Rc<Entries<'a>>),
    /// A list or object of the object being checked, with its schema when it has one.
    Json(&'a Value, Option<&'a dyn Shape>),
    /// Nanoseconds.
    Duration(i128),
    /// Nanoseconds since 1970-01-01T00:00:00Z.
    Timestamp(i128),
    Optional(Option<Rc<Val<'a>>>),
    Type(&'static str),
    /// The values of Kubernetes' libraries: ip, cidr, url, quantity, a named format, a
    /// semantic version.
    Ip(std::net::IpAddr),
    Cidr(std::net::IpAddr, u8),
    Url(Rc<Url>),
    Quantity(crate::quantity::Quantity),
    Format(&'static str),
    Semver(Rc<Semver>),
    /// A value of the object its schema does not allow (a type the schema refuses, as a
    /// ratcheted update can keep): the API server's conversion gives an error value, and any
    /// use of it is that error ([`super::shape::refusal`]).
    Invalid(Rc<str>),
}

/// A semantic version (semver.org 2.0.0) as Kubernetes' `semver()` reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Semver {
    pub major: u64,
    pub minor: u64,
    pub patch: u64,
    /// Dot-separated identifiers after `-`.
    pub pre: Vec<String>,
    pub text: String,
}

/// The entries of a map an expression built, in order of insertion, with an index by key so
/// that a lookup is not a scan.
#[derive(Debug, Default)]
pub struct Entries<'a> {
    pub pairs: Vec<(Val<'a>, Val<'a>)>,
    index: HashMap<u64, Vec<usize>>,
}

impl<'a> Entries<'a> {
    pub fn with_capacity(capacity: usize) -> Entries<'a> {
        Entries {
            pairs: Vec::with_capacity(capacity),
            index: HashMap::with_capacity(capacity),
        }
    }

    /// Where `key` is, if the map has it (numbers by value, as CEL's keys are found).
    pub fn position(&self, key: &Val<'_>) -> Option<usize> {
        let positions = self.index.get(&key_hash(key)?)?;
        positions
            .iter()
            .copied()
            .find(|&at| equal(&self.pairs[at].0, key))
    }

    /// Adds an entry; false (and nothing added) when the key is there already.
    pub fn insert(&mut self, key: Val<'a>, value: Val<'a>) -> bool {
        let Some(hash) = key_hash(&key) else {
            return false;
        };
        if self.position(&key).is_some() {
            return false;
        }
        self.index.entry(hash).or_default().push(self.pairs.len());
        self.pairs.push((key, value));
        true
    }

    pub fn len(&self) -> usize {
        self.pairs.len()
    }
}

/// The hash of a map key: numbers by value (`1`, `1u` and `1.0` are one key), strings by
/// their text; none for a value that cannot be a key.
fn key_hash(key: &Val<'_>) -> Option<u64> {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    match key {
        Val::Str(text) => (0u8, &**text).hash(&mut hasher),
        Val::Int(value) => (1u8, i128::from(*value)).hash(&mut hasher),
        Val::Uint(value) => (1u8, i128::from(*value)).hash(&mut hasher),
        Val::Double(value) if value.fract() == 0.0 && value.abs() < 1.8e19 => {
            (1u8, *value as i128).hash(&mut hasher)
        }
        Val::Double(value) => (2u8, value.to_bits()).hash(&mut hasher),
        Val::Bool(value) => (3u8, *value).hash(&mut hasher),
        _ => return None,
    }
    Some(hasher.finish())
}

/// Why an evaluation has no value.
#[derive(Debug, Clone, PartialEq)]
pub enum Fault {
    /// CEL's error value: `no such key`, a division by zero, no matching overload.
    Error(String),
    /// The cost limit ran out.
    Budget,
}

pub type Result<T> = std::result::Result<T, Fault>;

pub fn error<T>(message: impl Into<String>) -> Result<T> {
    Err(Fault::Error(message.into()))
}

impl<'a> Val<'a> {
    /// A string value holding a copy of `text`.
    pub fn string(text: &str) -> Val<'a> {
        Val::Str(Text::owned(text.to_string()))
    }

    /// A string value that takes `text`.
    pub fn owned(text: String) -> Val<'a> {
        Val::Str(Text::owned(text))
    }

    pub fn map(entries: Entries<'a>) -> Val<'a> {
        Val::Map(Rc::new(entries))
    }

    /// The value of `json` as CEL sees it, typed by `schema`.
    pub fn of_json(json: &'a Value, schema: Option<&'a dyn Shape>) -> Val<'a> {
        if let Some(problem) = schema.and_then(|schema| super::shape::refusal(schema, json)) {
            return Val::Invalid(Rc::from(problem));
        }
        match json {
            Value::Null => Val::Null,
            Value::Bool(value) => Val::Bool(*value),
            Value::Number(number) => {
                if schema.is_some_and(|schema| schema.is_number()) {
                    Val::Double(number.as_f64().unwrap_or_default())
                } else if let Some(int) = number.as_i64() {
                    Val::Int(int)
                } else if let Some(uint) = number.as_u64() {
                    Val::Uint(uint)
                } else {
                    let double = number.as_f64().unwrap_or_default();
                    if double.fract() == 0.0 && double.abs() < 9.2e18 {
                        Val::Int(double as i64)
                    } else {
                        Val::Double(double)
                    }
                }
            }
            Value::String(text) => {
                match schema.and_then(|schema| schema.format()) {
                    Some("duration") => {
                        if let Ok(nanos) = parse_duration(text) {
                            return Val::Duration(nanos);
                        }
                    }
                    Some("date-time") => {
                        if let Ok(nanos) = parse_timestamp(text) {
                            return Val::Timestamp(nanos);
                        }
                    }
                    _ => {}
                }
                Val::Str(Text::Borrowed(text))
            }
            Value::Array(_) | Value::Object(_) => Val::Json(json, schema),
        }
    }

    pub fn type_name(&self) -> &'static str {
        match self {
            Val::Null => "null_type",
            Val::Bool(_) => "bool",
            Val::Int(_) => "int",
            Val::Uint(_) => "uint",
            Val::Double(_) => "double",
            Val::Str(_) => "string",
            Val::Bytes(_) => "bytes",
            Val::List(_) | Val::Json(Value::Array(_), _) => "list",
            Val::Map(_) | Val::Json(..) => "map",
            Val::Duration(_) => "google.protobuf.Duration",
            Val::Timestamp(_) => "google.protobuf.Timestamp",
            Val::Optional(_) => "optional_type",
            Val::Type(_) => "type",
            Val::Ip(_) => "net.IP",
            Val::Cidr(..) => "net.CIDR",
            Val::Url(_) => "kubernetes.URL",
            Val::Quantity(_) => "kubernetes.Quantity",
            Val::Format(_) => "kubernetes.NamedFormat",
            Val::Semver(_) => "kubernetes.Semver",
            Val::Invalid(_) => "error",
        }
    }

    pub fn is_list(&self) -> bool {
        matches!(self, Val::List(_) | Val::Json(Value::Array(_), _))
    }

    pub fn is_map(&self) -> bool {
        matches!(self, Val::Map(_) | Val::Json(Value::Object(_), _))
    }

    /// How many items a list has.
    pub fn list_len(&self) -> Option<usize> {
        match self {
            Val::List(items) => Some(items.len()),
            Val::Json(Value::Array(items), _) => Some(items.len()),
            _ => None,
        }
    }

    /// Item `at` of a list, read without copying the list.
    pub fn list_item(&self, at: usize) -> Option<Val<'a>> {
        match self {
            Val::List(items) => items.get(at).cloned(),
            Val::Json(Value::Array(items), schema) => Some(Val::of_json(
                items.get(at)?,
                schema.and_then(|schema| schema.item()),
            )),
            _ => None,
        }
    }

    /// The items of a list, or the keys of a map, one at a time: a comprehension that stops
    /// early reads no further.
    pub fn elements(&self) -> Option<Elements<'a>> {
        Some(match self {
            Val::List(_) | Val::Json(Value::Array(_), _) => Elements::List(self.clone(), 0),
            Val::Map(entries) => Elements::Map(entries.clone(), 0),
            Val::Json(Value::Object(fields), _) => Elements::Fields(fields.keys()),
            _ => return None,
        })
    }

    /// The items of a list, copied out (the caller has paid for as many).
    pub fn items(&self) -> Option<Vec<Val<'a>>> {
        let len = self.list_len()?;
        Some((0..len).filter_map(|at| self.list_item(at)).collect())
    }

    /// The entries of a map (an object is a map of its fields), copied out.
    pub fn entries(&self) -> Option<Vec<(Val<'a>, Val<'a>)>> {
        match self {
            Val::Map(entries) => Some(entries.pairs.clone()),
            Val::Json(Value::Object(fields), schema) => Some(
                fields
                    .iter()
                    .map(|(name, value)| {
                        (
                            Val::Str(Text::Borrowed(name)),
                            Val::of_json(value, schema.and_then(|schema| schema.field(name))),
                        )
                    })
                    .collect(),
            ),
            _ => None,
        }
    }

    /// How many items or entries, or bytes; characters are counted by the evaluation
    /// ([`Evaluation::size`]), which remembers them.
    pub fn container_size(&self) -> Option<usize> {
        Some(match self {
            Val::Bytes(bytes) => bytes.len(),
            Val::List(items) => items.len(),
            Val::Map(entries) => entries.len(),
            Val::Json(Value::Array(items), _) => items.len(),
            Val::Json(Value::Object(fields), _) => fields.len(),
            _ => return None,
        })
    }

    /// The value of field `name` of an object or string-keyed map, if it has one: `get`
    /// without making a key. A null field of an object with properties has none, as an absent
    /// one (apiserver pkg/cel/common/valuesunstructured.go `unstructuredMap.Find`).
    pub fn field(&self, name: &str) -> Option<Val<'a>> {
        match self {
            Val::Json(Value::Object(fields), Some(schema)) if schema.declares_properties() => {
                let property = escape::unescape(name)?;
                let (property, value) = fields.get_key_value(property.as_str())?;
                if value.is_null() {
                    return None;
                }
                Some(Val::of_json(value, schema.field(property)))
            }
            Val::Json(Value::Object(fields), schema) => Some(Val::of_json(
                fields.get(name)?,
                schema.and_then(|schema| schema.field(name)),
            )),
            Val::Map(entries) => {
                let key = Val::Str(Text::owned(name.to_string()));
                entries.position(&key).map(|at| entries.pairs[at].1.clone())
            }
            _ => None,
        }
    }

    /// The value at `key` of a map or object, if it has one (numeric keys by value).
    pub fn get(&self, key: &Val<'a>) -> Option<Val<'a>> {
        match self {
            Val::Map(entries) => entries.position(key).map(|at| entries.pairs[at].1.clone()),
            Val::Json(Value::Object(fields), schema) => {
                let Val::Str(name) = key else { return None };
                let value = fields.get(&**name)?;
                Some(Val::of_json(
                    value,
                    schema.and_then(|schema| schema.field(name)),
                ))
            }
            _ => None,
        }
    }
}

/// The items of a list or the keys of a map, one at a time.
pub enum Elements<'a> {
    List(Val<'a>, usize),
    Map(Rc<Entries<'a>>, usize),
    Fields(serde_json::map::Keys<'a>),
}

impl<'a> Iterator for Elements<'a> {
    type Item = Val<'a>;
    fn next(&mut self) -> Option<Val<'a>> {
        match self {
            Elements::List(list, at) => {
                let item = list.list_item(*at)?;
                *at += 1;
                Some(item)
            }
            Elements::Map(entries, at) => {
                let key = entries.pairs.get(*at)?.0.clone();
                *at += 1;
                Some(key)
            }
            Elements::Fields(keys) => keys.next().map(|key| Val::Str(Text::Borrowed(key))),
        }
    }
}

/// CEL's equality: heterogeneous, numbers by value across int, uint and double, lists and maps
/// by their contents; values of different types are unequal.
pub fn equal(left: &Val<'_>, right: &Val<'_>) -> bool {
    equal_counting(left, right, &mut 0)
}

/// [`equal`], counting in `visited` the values below the top that it compared: the work of
/// comparing nested lists and maps, which cel-go does not charge and this evaluator does.
pub fn equal_counting(left: &Val<'_>, right: &Val<'_>, visited: &mut u64) -> bool {
    use Val::*;
    match (left, right) {
        (Null, Null) => true,
        (Bool(a), Bool(b)) => a == b,
        (Str(a), Str(b)) => a == b,
        (Bytes(a), Bytes(b)) => a == b,
        (Duration(a), Duration(b)) | (Timestamp(a), Timestamp(b)) => a == b,
        (Type(a), Type(b)) | (Format(a), Format(b)) => a == b,
        (Ip(a), Ip(b)) => a == b,
        (Cidr(a, x), Cidr(b, y)) => a == b && x == y,
        (Url(a), Url(b)) => a.text == b.text,
        (Quantity(a), Quantity(b)) => a == b,
        (Semver(a), Semver(b)) => compare_semver(a, b) == Ordering::Equal,
        (Optional(a), Optional(b)) => match (a, b) {
            (Some(a), Some(b)) => equal_counting(a, b, visited),
            (None, None) => true,
            _ => false,
        },
        _ => {
            if let Some(ordering) = compare_numbers(left, right) {
                return ordering == Ordering::Equal;
            }
            if let (Some(a), Some(b)) = (left.list_len(), right.list_len()) {
                if a != b {
                    return false;
                }
                for at in 0..a {
                    *visited += 1;
                    let (Some(x), Some(y)) = (left.list_item(at), right.list_item(at)) else {
                        return false;
                    };
                    if !equal_counting(&x, &y, visited) {
                        return false;
                    }
                }
                return true;
            }
            if left.is_map() && right.is_map() {
                if left.container_size() != right.container_size() {
                    return false;
                }
                let mut keys = left.elements().into_iter().flatten();
                return keys.all(|key| {
                    *visited += 1;
                    match (left.get(&key), right.get(&key)) {
                        (Some(a), Some(b)) => equal_counting(&a, &b, visited),
                        _ => false,
                    }
                });
            }
            false
        }
    }
}

/// The order of two numbers of any of CEL's numeric types, by value.
pub fn compare_numbers(left: &Val<'_>, right: &Val<'_>) -> Option<Ordering> {
    use Val::*;
    match (left, right) {
        (Int(a), Int(b)) => Some(a.cmp(b)),
        (Uint(a), Uint(b)) => Some(a.cmp(b)),
        (Int(a), Uint(b)) => Some(i128::from(*a).cmp(&i128::from(*b))),
        (Uint(a), Int(b)) => Some(i128::from(*a).cmp(&i128::from(*b))),
        (Double(a), Double(b)) => a.partial_cmp(b),
        (Double(a), Int(b)) => a.partial_cmp(&(*b as f64)),
        (Double(a), Uint(b)) => a.partial_cmp(&(*b as f64)),
        (Int(a), Double(b)) => (*a as f64).partial_cmp(b),
        (Uint(a), Double(b)) => (*a as f64).partial_cmp(b),
        _ => None,
    }
}

/// The order of two values CEL can compare with `<`.
pub fn compare(left: &Val<'_>, right: &Val<'_>) -> Result<Ordering> {
    use Val::*;
    if let Some(ordering) = compare_numbers(left, right) {
        return Ok(ordering);
    }
    match (left, right) {
        (Double(_), _) | (_, Double(_)) if left.type_name() == right.type_name() => {
            error("NaN has no order")
        }
        (Bool(a), Bool(b)) => Ok(a.cmp(b)),
        (Str(a), Str(b)) => Ok((**a).cmp(&**b)),
        (Bytes(a), Bytes(b)) => Ok(a.cmp(b)),
        (Duration(a), Duration(b)) | (Timestamp(a), Timestamp(b)) => Ok(a.cmp(b)),
        (Quantity(a), Quantity(b)) => Ok(a.cmp(b)),
        (Semver(a), Semver(b)) => Ok(compare_semver(a, b)),
        _ => no_overload("_<_", &[left, right]),
    }
}

/// The precedence of two semantic versions (semver.org 2.0.0 §11).
pub fn compare_semver(a: &Semver, b: &Semver) -> Ordering {
    (a.major, a.minor, a.patch)
        .cmp(&(b.major, b.minor, b.patch))
        .then_with(|| match (a.pre.is_empty(), b.pre.is_empty()) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Greater,
            (false, true) => Ordering::Less,
            (false, false) => {
                for (x, y) in a.pre.iter().zip(&b.pre) {
                    let ordering = match (x.parse::<u64>(), y.parse::<u64>()) {
                        (Ok(x), Ok(y)) => x.cmp(&y),
                        (Ok(_), Err(_)) => Ordering::Less,
                        (Err(_), Ok(_)) => Ordering::Greater,
                        (Err(_), Err(_)) => x.cmp(y),
                    };
                    if ordering != Ordering::Equal {
                        return ordering;
                    }
                }
                a.pre.len().cmp(&b.pre.len())
            }
        })
}

/// cel-go's runtime error for a call no overload takes: `no such overload`, bare — the
/// function and the types of its arguments (named here for the reader of a call site) are
/// not in the text the API server shows.
pub fn no_overload<T>(_function: &str, _args: &[&Val<'_>]) -> Result<T> {
    error("no such overload")
}

/// An evaluation: the variables in scope, the cost left, and what it remembers of strings
/// and patterns it has met.
pub struct Evaluation<'a> {
    pub variables: Vec<(&'a str, Val<'a>)>,
    pub left: u64,
    /// Character counts (and whether all ASCII) of the long strings met, by address.
    characters: HashMap<(usize, usize), (usize, bool)>,
    /// The strings built by the evaluation that `characters` counted, kept alive so that no
    /// other string takes their address while it remembers them.
    counted: Vec<Rc<str>>,
    /// The patterns compiled (and charged) in this evaluation.
    pub(super) patterns: Vec<(String, Rc<regex::Regex>)>,
}

/// Strings shorter than this are counted each time rather than remembered.
const REMEMBERED: usize = 64;

impl<'a> Evaluation<'a> {
    pub fn new(variables: Vec<(&'a str, Val<'a>)>, left: u64) -> Evaluation<'a> {
        Evaluation {
            variables,
            left,
            characters: HashMap::new(),
            counted: Vec::new(),
            patterns: Vec::new(),
        }
    }

    /// Charges `cost`, before the work it pays for: past the limit, [`Fault::Budget`].
    pub fn spend(&mut self, cost: u64) -> Result<()> {
        match self.left.checked_sub(cost) {
            Some(left) => {
                self.left = left;
                Ok(())
            }
            None => {
                self.left = 0;
                Err(Fault::Budget)
            }
        }
    }

    /// The characters of `text` and whether they are all ASCII, counted once per string
    /// however often a rule asks: `size(self.s)` in a loop reads the string once.
    pub fn characters(&mut self, text: &Text<'_>) -> (usize, bool) {
        if text.len() < REMEMBERED {
            return (text.chars().count(), text.is_ascii());
        }
        if let Some(counted) = self.characters.get(&text.address()) {
            return *counted;
        }
        let counted = (text.chars().count(), text.is_ascii());
        if let Text::Shared(all, _) = text {
            self.counted.push(all.clone());
        }
        self.characters.insert(text.address(), counted);
        counted
    }

    /// CEL's `size` of a value (characters of a string), as cel-go's cost tracker measures
    /// arguments (`actualSize`: 1 for a value without a size).
    pub fn size(&mut self, value: &Val<'_>) -> u64 {
        match value {
            Val::Str(text) => self.characters(text).0 as u64,
            Val::Optional(Some(inner)) => self.size(inner),
            other => other.container_size().map_or(1, |size| size as u64),
        }
    }
}

/// cel-go's cost of traversing `size` units once: `ceil(size × 0.1)`.
pub fn traversal(size: u64) -> u64 {
    size.div_ceil(10)
}

/// What a list of `items` values costs to build where cel-go charges nothing for it (a
/// value is some forty bytes; four of them a unit).
pub fn items_cost(items: u64) -> u64 {
    items.div_ceil(4)
}

/// A value as an error message shows it.
pub fn shown(value: &Val<'_>) -> String {
    match value {
        Val::Str(text) => format!("{:?}", &**text),
        Val::Int(value) => value.to_string(),
        Val::Uint(value) => format!("{value}u"),
        Val::Double(value) => value.to_string(),
        Val::Bool(value) => value.to_string(),
        other => other.type_name().to_string(),
    }
}

/// CEL's durations span ±10,000 years.
const MAX_DURATION_NANOS: i128 = 315_576_000_000 * 1_000_000_000;

pub fn checked_duration(nanos: i128) -> Result<i128> {
    if nanos.abs() > MAX_DURATION_NANOS {
        return error("duration out of range");
    }
    Ok(nanos)
}

/// CEL's timestamps lie in years 1 to 9999.
pub fn checked_timestamp(nanos: i128) -> Result<i128> {
    const FIRST: i128 = -62_135_596_800 * 1_000_000_000;
    const LAST: i128 = 253_402_300_799 * 1_000_000_000 + 999_999_999;
    if !(FIRST..=LAST).contains(&nanos) {
        return error("timestamp out of range");
    }
    Ok(nanos)
}

/// A URL as Kubernetes' `url()` reads it (Go's url.ParseRequestURI): an absolute URL or an
/// absolute path.
#[derive(Debug, Clone, PartialEq)]
pub struct Url {
    pub text: String,
    pub scheme: String,
    pub host: String,
    pub path: String,
    pub query: String,
}

/// Go's `time.ParseDuration`: a sequence of decimal numbers with units (ns, us, µs, ms, s,
/// m, h), signed as a whole: `1h30m`, `1.5s`, `-300ms`; `0` alone.
pub fn parse_duration(text: &str) -> std::result::Result<i128, String> {
    let invalid = || format!("invalid duration {text:?}");
    let (negative, mut rest) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    if rest == "0" {
        return Ok(0);
    }
    if rest.is_empty() {
        return Err(invalid());
    }
    let mut total: i128 = 0;
    while !rest.is_empty() {
        let whole_end = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        let whole = &rest[..whole_end];
        rest = &rest[whole_end..];
        let mut fraction = "";
        if let Some(after) = rest.strip_prefix('.') {
            let end = after
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(after.len());
            fraction = &after[..end];
            rest = &after[end..];
        }
        if whole.is_empty() && fraction.is_empty() {
            return Err(invalid());
        }
        let unit_end = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let unit: i128 = match &rest[..unit_end] {
            "ns" => 1,
            "us" | "µs" | "μs" => 1_000,
            "ms" => 1_000_000,
            "s" => NANOS,
            "m" => 60 * NANOS,
            "h" => 3600 * NANOS,
            _ => return Err(invalid()),
        };
        rest = &rest[unit_end..];
        let whole: i128 = if whole.is_empty() {
            0
        } else {
            whole.parse().map_err(|_| invalid())?
        };
        let mut value = whole.checked_mul(unit).ok_or_else(invalid)?;
        let mut scale = unit;
        for digit in fraction.bytes().take(30) {
            scale /= 10;
            value += i128::from(digit - b'0') * scale;
        }
        total = total.checked_add(value).ok_or_else(invalid)?;
        if total > i128::from(i64::MAX) {
            return Err(invalid());
        }
    }
    Ok(if negative { -total } else { total })
}

/// An RFC 3339 timestamp (`2024-01-31T12:00:00Z`, `…+02:00`, fractions of a second): the
/// nanoseconds since the epoch.
pub fn parse_timestamp(text: &str) -> std::result::Result<i128, String> {
    let invalid = || format!("invalid timestamp {text:?}");
    let bytes = text.as_bytes();
    if bytes.len() < 20
        || bytes[4] != b'-'
        || bytes[7] != b'-'
        || !matches!(bytes[10], b'T' | b't')
        || bytes[13] != b':'
        || bytes[16] != b':'
    {
        return Err(invalid());
    }
    let number = |range: std::ops::Range<usize>| -> std::result::Result<i64, String> {
        let part = text.get(range).ok_or_else(invalid)?;
        if !part.bytes().all(|b| b.is_ascii_digit()) {
            return Err(invalid());
        }
        part.parse().map_err(|_| invalid())
    };
    let (year, month, day) = (number(0..4)?, number(5..7)?, number(8..10)?);
    let (hour, minute, second) = (number(11..13)?, number(14..16)?, number(17..19)?);
    if !(1..=12).contains(&month)
        || day < 1
        || day > days_in_month(year, month)
        || hour > 23
        || minute > 59
        || second > 59
    {
        return Err(invalid());
    }
    let mut rest = &text[19..];
    let mut nanos: i128 = 0;
    if let Some(after) = rest.strip_prefix('.') {
        let end = after
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(after.len());
        if end == 0 || end > 9 {
            return Err(invalid());
        }
        nanos = format!("{:0<9}", &after[..end])
            .parse()
            .map_err(|_| invalid())?;
        rest = &after[end..];
    }
    let offset: i64 = match rest {
        "Z" | "z" => 0,
        _ if rest.len() == 6 && matches!(&rest[..1], "+" | "-") && &rest[3..4] == ":" => {
            let hours: i64 = rest[1..3].parse().map_err(|_| invalid())?;
            let minutes: i64 = rest[4..6].parse().map_err(|_| invalid())?;
            let offset = hours * 3600 + minutes * 60;
            if &rest[..1] == "-" { -offset } else { offset }
        }
        _ => return Err(invalid()),
    };
    let seconds =
        days_from_civil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offset;
    checked_timestamp(i128::from(seconds) * NANOS + nanos).map_err(|_| invalid())
}

fn is_leap(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days from 1970-01-01 to a date of the proleptic Gregorian calendar.
pub fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let month_index = (month + 9) % 12;
    let day_of_year = (153 * month_index + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// Nanoseconds in a second.
pub(super) const NANOS: i128 = 1_000_000_000;

/// A comprehension: cel-go's macros and the two-variable ones of its ext library.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fold {
    All,
    Exists,
    ExistsOne,
    Map,
    Filter,
    TransformList,
    TransformMap,
    TransformMapEntry,
}

impl Fold {
    pub(super) fn of(kind: Macro) -> Fold {
        match kind {
            Macro::All => Fold::All,
            Macro::Exists => Fold::Exists,
            Macro::ExistsOne => Fold::ExistsOne,
            Macro::Map => Fold::Map,
            Macro::Filter => Fold::Filter,
        }
    }

    pub(super) fn of_two_variable(kind: Macro2) -> Fold {
        match kind {
            Macro2::All => Fold::All,
            Macro2::Exists => Fold::Exists,
            Macro2::ExistsOne => Fold::ExistsOne,
            Macro2::TransformList => Fold::TransformList,
            Macro2::TransformMap => Fold::TransformMap,
            Macro2::TransformMapEntry => Fold::TransformMapEntry,
        }
    }

    /// The two-variable macro named `function` with `args` arguments (ext/comprehensions.go).
    pub(super) fn two_variable(function: &str, args: usize) -> Option<Fold> {
        Some(match (function, args) {
            ("all", 3) => Fold::All,
            ("exists", 3) => Fold::Exists,
            ("existsOne" | "exists_one", 3) => Fold::ExistsOne,
            ("transformList", 3 | 4) => Fold::TransformList,
            ("transformMap", 3 | 4) => Fold::TransformMap,
            ("transformMapEntry", 3 | 4) => Fold::TransformMapEntry,
            _ => return None,
        })
    }

    pub(super) fn name(self) -> &'static str {
        match self {
            Fold::All => "all",
            Fold::Exists => "exists",
            Fold::ExistsOne => "exists_one",
            Fold::Map => "map",
            Fold::Filter => "filter",
            Fold::TransformList => "transformList",
            Fold::TransformMap => "transformMap",
            Fold::TransformMapEntry => "transformMapEntry",
        }
    }
}
