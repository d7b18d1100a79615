//! CEL's values, their equality and order, and an evaluation's state, over the object as
//! its CRD's schema types it (Kubernetes' `UnstructuredToVal`): an integer field is an int, a
//! `number` field a double, a `duration` or `date-time` string a duration or timestamp, an
//! object or list a view of the object's own JSON, read only where a rule reads it.
//!
//! Every step costs: one per expression node evaluated, and for work on strings and lists
//! one more per ten characters or per item touched — the units of the API server's runtime
//! cost, closely enough that a rule within its limit is within this one. Past the limit the
//! evaluation stops with [`Fault::Budget`], the same on every machine.

use std::cmp::Ordering;
use std::rc::Rc;

use serde_json::Value;

use super::escape;
use super::shape::Shape;

#[derive(Debug, Clone)]
pub enum Val<'a> {
    Null,
    Bool(bool),
    Int(i64),
    Uint(u64),
    Double(f64),
    Str(Rc<str>),
    Bytes(Rc<[u8]>),
    List(Rc<Vec<Val<'a>>>),
    /// A map built by the expression: keys in order of insertion.
    Map(Rc<Vec<(Val<'a>, Val<'a>)>>),
    /// A list or object of the object being checked, with its schema when it has one.
    Json(&'a Value, Option<&'a dyn Shape>),
    /// Nanoseconds.
    Duration(i128),
    /// Nanoseconds since 1970-01-01T00:00:00Z.
    Timestamp(i128),
    Optional(Option<Rc<Val<'a>>>),
    Type(&'static str),
    /// The values of Kubernetes' libraries: ip, cidr, url, quantity, a named format.
    Ip(std::net::IpAddr),
    Cidr(std::net::IpAddr, u8),
    Url(Rc<Url>),
    Quantity(crate::quantity::Quantity),
    Format(&'static str),
}

/// Why an evaluation has no value.
#[derive(Debug, Clone, PartialEq)]
pub enum Fault {
    /// CEL's error value: `no such key`, a division by zero, no matching overload.
    Error(String),
    /// The step budget ran out.
    Budget,
}

pub type Result<T> = std::result::Result<T, Fault>;

pub fn error<T>(message: impl Into<String>) -> Result<T> {
    Err(Fault::Error(message.into()))
}

impl<'a> Val<'a> {
    pub fn string(text: &str) -> Val<'a> {
        Val::Str(Rc::from(text))
    }

    /// The value of `json` as CEL sees it, typed by `schema`.
    pub fn of_json(json: &'a Value, schema: Option<&'a dyn Shape>) -> Val<'a> {
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
                Val::string(text)
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
        }
    }

    /// The items of a list.
    pub fn items(&self) -> Option<Vec<Val<'a>>> {
        match self {
            Val::List(items) => Some(items.as_ref().clone()),
            Val::Json(Value::Array(items), schema) => {
                let schema = schema.and_then(|schema| schema.item());
                Some(
                    items
                        .iter()
                        .map(|item| Val::of_json(item, schema))
                        .collect(),
                )
            }
            _ => None,
        }
    }

    /// The entries of a map (an object is a map of its fields).
    pub fn entries(&self) -> Option<Vec<(Val<'a>, Val<'a>)>> {
        match self {
            Val::Map(entries) => Some(entries.as_ref().clone()),
            Val::Json(Value::Object(fields), schema) => Some(
                fields
                    .iter()
                    .map(|(name, value)| {
                        (
                            Val::string(name),
                            Val::of_json(value, schema.and_then(|schema| schema.field(name))),
                        )
                    })
                    .collect(),
            ),
            _ => None,
        }
    }

    /// How many items, entries or characters: CEL's `size`.
    pub fn size(&self) -> Option<i64> {
        Some(match self {
            Val::Str(text) => text.chars().count() as i64,
            Val::Bytes(bytes) => bytes.len() as i64,
            Val::List(items) => items.len() as i64,
            Val::Map(entries) => entries.len() as i64,
            Val::Json(Value::Array(items), _) => items.len() as i64,
            Val::Json(Value::Object(fields), _) => fields.len() as i64,
            _ => return None,
        })
    }

    /// The value of field `name` of an object or string-keyed map, if it has one: `get`
    /// without making a key.
    pub fn field(&self, name: &str) -> Option<Val<'a>> {
        match self {
            Val::Json(Value::Object(fields), Some(schema)) if schema.declares_properties() => {
                let property = escape::unescape(name)?;
                Some(Val::of_json(
                    fields.get(property.as_str())?,
                    schema.field(&property),
                ))
            }
            Val::Json(Value::Object(fields), schema) => Some(Val::of_json(
                fields.get(name)?,
                schema.and_then(|schema| schema.field(name)),
            )),
            Val::Map(entries) => entries
                .iter()
                .find(|(key, _)| matches!(key, Val::Str(key) if key.as_ref() == name))
                .map(|(_, value)| value.clone()),
            _ => None,
        }
    }

    /// The value at `key` of a map or object, if it has one.
    pub fn get(&self, key: &Val<'a>) -> Option<Val<'a>> {
        match self {
            Val::Map(entries) => entries
                .iter()
                .find(|(candidate, _)| equal(candidate, key))
                .map(|(_, value)| value.clone()),
            Val::Json(Value::Object(fields), schema) => {
                let Val::Str(name) = key else { return None };
                let value = fields.get(name.as_ref())?;
                Some(Val::of_json(
                    value,
                    schema.and_then(|schema| schema.field(name)),
                ))
            }
            _ => None,
        }
    }

    /// The cost of touching every item or character of the value, in steps.
    pub fn weight(&self) -> u64 {
        match self {
            Val::Str(text) => text.len() as u64 / 10,
            Val::Bytes(bytes) => bytes.len() as u64 / 10,
            _ => self.size().unwrap_or(0) as u64,
        }
    }
}

/// CEL's equality: heterogeneous, numbers by value across int, uint and double, lists and maps
/// by their contents; values of different types are unequal.
pub fn equal(left: &Val<'_>, right: &Val<'_>) -> bool {
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
        (Optional(a), Optional(b)) => match (a, b) {
            (Some(a), Some(b)) => equal(a, b),
            (None, None) => true,
            _ => false,
        },
        _ => {
            if let Some(ordering) = compare_numbers(left, right) {
                return ordering == Ordering::Equal;
            }
            if let (Some(a), Some(b)) = (left.items(), right.items()) {
                return a.len() == b.len() && a.iter().zip(&b).all(|(a, b)| equal(a, b));
            }
            if let (Some(a), Some(b)) = (left.entries(), right.entries()) {
                return a.len() == b.len()
                    && a.iter().all(|(key, value)| {
                        right.get(key).is_some_and(|other| equal(value, &other))
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
        (Str(a), Str(b)) => Ok(a.cmp(b)),
        (Bytes(a), Bytes(b)) => Ok(a.cmp(b)),
        (Duration(a), Duration(b)) | (Timestamp(a), Timestamp(b)) => Ok(a.cmp(b)),
        (Quantity(a), Quantity(b)) => Ok(a.cmp(b)),
        _ => no_overload("_<_", &[left, right]),
    }
}

pub fn no_overload<T>(function: &str, args: &[&Val<'_>]) -> Result<T> {
    let types: Vec<&str> = args.iter().map(|arg| arg.type_name()).collect();
    error(format!(
        "no such overload: {function}({})",
        types.join(", ")
    ))
}

/// An evaluation: the variables in scope and the steps left.
pub struct Evaluation<'a> {
    pub variables: Vec<(&'a str, Val<'a>)>,
    pub left: u64,
}

impl<'a> Evaluation<'a> {
    pub fn spend(&mut self, steps: u64) -> Result<()> {
        match self.left.checked_sub(steps) {
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
}

/// A value as an error message shows it.
pub fn shown(value: &Val<'_>) -> String {
    match value {
        Val::Str(text) => format!("{text:?}"),
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

/// The items of `value` deduplicated by CEL equality, for the sets library.
pub fn contains_all(haystack: &[Val<'_>], needles: &[Val<'_>]) -> bool {
    needles
        .iter()
        .all(|needle| haystack.iter().any(|item| equal(item, needle)))
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
