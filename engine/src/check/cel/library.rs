//! The functions of the API server's CEL environment: CEL's standard ones, the string,
//! list and set extensions, and Kubernetes' own libraries (k8s.io/apiserver pkg/cel/library:
//! regex, lists, sets, urls, ip, cidr, quantity, format), each as its documentation and
//! tests define it. Behaviour was learned from those documents; no code is copied.

use std::cell::RefCell;
use std::collections::HashMap;
use std::net::IpAddr;
use std::rc::Rc;

use super::value::{
    Evaluation, Fault, Result, Url, Val, checked_duration, checked_timestamp, compare,
    contains_all, days_from_civil, equal, error, no_overload, parse_duration, parse_timestamp,
};
use crate::quantity::{Quantity, parse_quantity};

/// Calls `function` (with `target` for a method) on `args`.
pub fn call<'a>(
    evaluation: &mut Evaluation<'a>,
    target: Option<Val<'a>>,
    function: &str,
    args: Vec<Val<'a>>,
) -> Result<Val<'a>> {
    match target {
        Some(target) => method(evaluation, target, function, args),
        None => global(evaluation, function, args),
    }
}

fn global<'a>(
    evaluation: &mut Evaluation<'a>,
    function: &str,
    args: Vec<Val<'a>>,
) -> Result<Val<'a>> {
    let unary = |args: &[Val<'a>]| -> Result<Val<'a>> {
        match args {
            [arg] => Ok(arg.clone()),
            _ => error(format!("{function} takes one argument")),
        }
    };
    match function {
        "size" => size(&unary(&args)?),
        "matches" => match args.as_slice() {
            [Val::Str(text), Val::Str(pattern)] => matches(evaluation, text, pattern),
            _ => no_overload("matches", &args.iter().collect::<Vec<_>>()),
        },
        "int" => to_int(unary(&args)?),
        "uint" => to_uint(unary(&args)?),
        "double" => to_double(unary(&args)?),
        "string" => to_string(unary(&args)?),
        "bool" => to_bool(unary(&args)?),
        "bytes" => match unary(&args)? {
            Val::Str(text) => Ok(Val::Bytes(Rc::from(text.as_bytes()))),
            value @ Val::Bytes(_) => Ok(value),
            other => no_overload("bytes", &[&other]),
        },
        "dyn" => unary(&args),
        "type" => Ok(Val::Type(unary(&args)?.type_name())),
        "duration" => match unary(&args)? {
            Val::Str(text) => parse_duration(&text)
                .map(Val::Duration)
                .map_err(Fault::Error),
            value @ Val::Duration(_) => Ok(value),
            other => no_overload("duration", &[&other]),
        },
        "timestamp" => match unary(&args)? {
            Val::Str(text) => parse_timestamp(&text)
                .map(Val::Timestamp)
                .map_err(Fault::Error),
            Val::Int(seconds) => checked_timestamp(i128::from(seconds) * NANOS).map(Val::Timestamp),
            value @ Val::Timestamp(_) => Ok(value),
            other => no_overload("timestamp", &[&other]),
        },
        "isIP" | "ip" | "isCIDR" | "cidr" | "isURL" | "url" | "isQuantity" | "quantity"
        | "ip.isCanonical" => {
            let Val::Str(text) = unary(&args)? else {
                return no_overload(function, &args.iter().collect::<Vec<_>>());
            };
            evaluation.spend(text.len() as u64 / 10)?;
            kubernetes_constructor(function, &text)
        }
        "optional.of" => Ok(Val::Optional(Some(Rc::new(unary(&args)?)))),
        "optional.ofNonZeroValue" => {
            let value = unary(&args)?;
            Ok(Val::Optional((!is_zero(&value)).then(|| Rc::new(value))))
        }
        "optional.none" => Ok(Val::Optional(None)),
        "sets.contains" | "sets.equivalent" | "sets.intersects" => {
            let [first, second] = args.as_slice() else {
                return error(format!("{function} takes two lists"));
            };
            let (Some(first), Some(second)) = (first.items(), second.items()) else {
                return no_overload(function, &[&args[0], &args[1]]);
            };
            evaluation.spend((first.len() * second.len()) as u64)?;
            Ok(Val::Bool(match function {
                "sets.contains" => contains_all(&first, &second),
                "sets.equivalent" => contains_all(&first, &second) && contains_all(&second, &first),
                _ => first
                    .iter()
                    .any(|item| second.iter().any(|other| equal(item, other))),
            }))
        }
        "format.named" => match unary(&args)? {
            Val::Str(name) => Ok(Val::Optional(
                named_format(&name).map(|format| Rc::new(Val::Format(format))),
            )),
            other => no_overload(function, &[&other]),
        },
        "math.greatest" | "math.least" => {
            let values = match args.as_slice() {
                [single] => single.items().unwrap_or_else(|| vec![single.clone()]),
                _ => args.clone(),
            };
            evaluation.spend(values.len() as u64)?;
            extreme(&values, function == "math.greatest")
        }
        "strings.quote" => match unary(&args)? {
            Val::Str(text) => Ok(Val::string(&quote(&text))),
            other => no_overload(function, &[&other]),
        },
        _ => match function.strip_prefix("format.") {
            Some(name) if args.is_empty() && named_format(name).is_some() => {
                Ok(Val::Format(named_format(name).unwrap_or_default()))
            }
            _ => error(format!("undeclared function '{function}'")),
        },
    }
}

fn method<'a>(
    evaluation: &mut Evaluation<'a>,
    target: Val<'a>,
    function: &str,
    args: Vec<Val<'a>>,
) -> Result<Val<'a>> {
    let refs: Vec<&Val<'a>> = std::iter::once(&target).chain(&args).collect();
    let overload = || no_overload::<Val<'a>>(function, &refs);
    if function == "size" && args.is_empty() {
        return size(&target);
    }
    match &target {
        Val::Str(text) => {
            evaluation.spend(text.len() as u64 / 10)?;
            string_method(evaluation, text, function, &args).unwrap_or_else(overload)
        }
        Val::List(_) | Val::Json(serde_json::Value::Array(_), _) => {
            let items = target.items().unwrap_or_default();
            evaluation.spend(items.len() as u64)?;
            list_method(items, function, &args).unwrap_or_else(overload)
        }
        Val::Optional(value) => match (function, args.as_slice(), value) {
            ("hasValue", [], _) => Ok(Val::Bool(value.is_some())),
            ("value", [], Some(value)) => Ok(value.as_ref().clone()),
            ("value", [], None) => error("optional.none() dereference"),
            ("orValue", [alternative], None) => Ok(alternative.clone()),
            ("or", [alternative @ Val::Optional(_)], None) => Ok(alternative.clone()),
            _ => overload(),
        },
        Val::Duration(nanos) => {
            let whole = |unit: i128| Ok(Val::Int((nanos / unit) as i64));
            match (function, args.as_slice()) {
                ("getHours", []) => whole(3600 * NANOS),
                ("getMinutes", []) => whole(60 * NANOS),
                ("getSeconds", []) => whole(NANOS),
                ("getMilliseconds", []) => Ok(Val::Int(((nanos % NANOS) / 1_000_000) as i64)),
                _ => overload(),
            }
        }
        Val::Timestamp(nanos) => timestamp_method(*nanos, function, &args).unwrap_or_else(overload),
        Val::Ip(address) => ip_method(address, function, &args).unwrap_or_else(overload),
        Val::Cidr(address, prefix) => {
            cidr_method(*address, *prefix, function, &args).unwrap_or_else(overload)
        }
        Val::Url(url) => url_method(url, function, &args).unwrap_or_else(overload),
        Val::Quantity(quantity) => {
            quantity_method(*quantity, function, &args).unwrap_or_else(overload)
        }
        Val::Format(format) => match (function, args.as_slice()) {
            ("validate", [Val::Str(text)]) => {
                let problems = validate_format(format, text);
                Ok(Val::Optional((!problems.is_empty()).then(|| {
                    Rc::new(Val::List(Rc::new(
                        problems
                            .iter()
                            .map(|problem| Val::string(problem))
                            .collect(),
                    )))
                })))
            }
            _ => overload(),
        },
        _ => overload(),
    }
}

const NANOS: i128 = 1_000_000_000;

fn size<'a>(value: &Val<'a>) -> Result<Val<'a>> {
    match value.size() {
        Some(size) => Ok(Val::Int(size)),
        None => no_overload("size", &[value]),
    }
}

fn is_zero(value: &Val<'_>) -> bool {
    match value {
        Val::Null => true,
        Val::Bool(value) => !value,
        Val::Int(value) => *value == 0,
        Val::Uint(value) => *value == 0,
        Val::Double(value) => *value == 0.0,
        Val::Duration(value) | Val::Timestamp(value) => *value == 0,
        other => other.size() == Some(0),
    }
}

thread_local! {
    /// Compiled patterns of `matches` and `find`: a rule over every item of a list compiles
    /// its pattern once, not per item.
    static REGEXES: RefCell<HashMap<String, std::result::Result<regex::Regex, String>>> =
        RefCell::new(HashMap::new());
}

/// How many compiled patterns a thread keeps: few, since a pattern may come from the object
/// (`self.a.matches(self.b)`) and each may hold up to a megabyte compiled.
const KEPT_REGEXES: usize = 32;

/// Runs `work` with `pattern` compiled. The compiled pattern is borrowed from the thread's
/// cache, not cloned: a clone of a `Regex` starts with no search cache of its own, and
/// making one costs more than most matches.
fn with_regex<T>(
    evaluation: &mut Evaluation<'_>,
    pattern: &str,
    work: impl FnOnce(&regex::Regex) -> T,
) -> Result<T> {
    // Compiling costs the same whether or not this thread has the pattern already: the
    // cost stays the same on every machine.
    evaluation.spend(pattern.len() as u64)?;
    REGEXES.with(|regexes| {
        let mut regexes = regexes.borrow_mut();
        if !regexes.contains_key(pattern) {
            if regexes.len() >= KEPT_REGEXES {
                regexes.clear();
            }
            regexes.insert(pattern.to_string(), super::regexp::go_regexp(pattern));
        }
        match &regexes[pattern] {
            Ok(regex) => Ok(work(regex)),
            Err(problem) => error(format!("invalid regex {pattern:?}: {problem}")),
        }
    })
}

fn matches<'a>(evaluation: &mut Evaluation<'a>, text: &str, pattern: &str) -> Result<Val<'a>> {
    evaluation.spend(text.len() as u64 / 10)?;
    with_regex(evaluation, pattern, |regex| Val::Bool(regex.is_match(text)))
}

fn string_method<'a>(
    evaluation: &mut Evaluation<'a>,
    text: &Rc<str>,
    function: &str,
    args: &[Val<'a>],
) -> Option<Result<Val<'a>>> {
    let chars = || text.chars().collect::<Vec<char>>();
    Some(match (function, args) {
        ("contains", [Val::Str(part)]) => Ok(Val::Bool(text.contains(part.as_ref()))),
        ("startsWith", [Val::Str(part)]) => Ok(Val::Bool(text.starts_with(part.as_ref()))),
        ("endsWith", [Val::Str(part)]) => Ok(Val::Bool(text.ends_with(part.as_ref()))),
        ("matches", [Val::Str(pattern)]) => matches(evaluation, text, pattern),
        ("lowerAscii", []) => Ok(Val::string(&text.to_ascii_lowercase())),
        ("upperAscii", []) => Ok(Val::string(&text.to_ascii_uppercase())),
        ("trim", []) => Ok(Val::string(text.trim())),
        ("reverse", []) => Ok(Val::string(&text.chars().rev().collect::<String>())),
        ("split", [Val::Str(separator)]) => Ok(split(text, separator, -1)),
        ("split", [Val::Str(separator), Val::Int(limit)]) => Ok(split(text, separator, *limit)),
        ("charAt", [Val::Int(at)]) => {
            let chars = chars();
            match usize::try_from(*at) {
                Ok(at) if at < chars.len() => Ok(Val::string(&chars[at].to_string())),
                Ok(at) if at == chars.len() => Ok(Val::string("")),
                _ => error(format!("index out of range: {at}")),
            }
        }
        ("substring", [Val::Int(start)]) => substring(&chars(), *start, None),
        ("substring", [Val::Int(start), Val::Int(end)]) => substring(&chars(), *start, Some(*end)),
        ("indexOf", [Val::Str(part)]) => index_of(&chars(), part, 0, false),
        ("indexOf", [Val::Str(part), Val::Int(from)]) => index_of(&chars(), part, *from, false),
        ("lastIndexOf", [Val::Str(part)]) => {
            let chars = chars();
            let from = chars.len() as i64;
            index_of(&chars, part, from, true)
        }
        ("lastIndexOf", [Val::Str(part), Val::Int(from)]) => index_of(&chars(), part, *from, true),
        ("replace", [Val::Str(old), Val::Str(new)]) => {
            Ok(Val::string(&text.replace(old.as_ref(), new)))
        }
        ("replace", [Val::Str(old), Val::Str(new), Val::Int(limit)]) => {
            Ok(Val::string(&if *limit < 0 {
                text.replace(old.as_ref(), new)
            } else {
                text.replacen(old.as_ref(), new, *limit as usize)
            }))
        }
        ("find", [Val::Str(pattern)]) => with_regex(evaluation, pattern, |regex| {
            Val::string(regex.find(text).map_or("", |found| found.as_str()))
        }),
        ("findAll", [Val::Str(pattern)]) => find_all(evaluation, text, pattern, -1),
        ("findAll", [Val::Str(pattern), Val::Int(limit)]) => {
            find_all(evaluation, text, pattern, *limit)
        }
        ("format", [list]) => format_string(text, list),
        _ => return None,
    })
}

fn split<'a>(text: &str, separator: &str, limit: i64) -> Val<'a> {
    let parts: Vec<Val<'a>> = match limit {
        0 => Vec::new(),
        limit if limit < 0 => {
            if separator.is_empty() {
                text.chars().map(|c| Val::string(&c.to_string())).collect()
            } else {
                text.split(separator).map(Val::string).collect()
            }
        }
        limit => {
            if separator.is_empty() {
                let chars: Vec<char> = text.chars().collect();
                let limit = (limit as usize).min(chars.len().max(1));
                let mut parts: Vec<Val<'a>> = chars
                    .iter()
                    .take(limit.saturating_sub(1))
                    .map(|c| Val::string(&c.to_string()))
                    .collect();
                let rest: String = chars.iter().skip(limit.saturating_sub(1)).collect();
                parts.push(Val::string(&rest));
                parts
            } else {
                text.splitn(limit as usize, separator)
                    .map(Val::string)
                    .collect()
            }
        }
    };
    Val::List(Rc::new(parts))
}

fn substring<'a>(chars: &[char], start: i64, end: Option<i64>) -> Result<Val<'a>> {
    let end = end.unwrap_or(chars.len() as i64);
    if start < 0 || start as usize > chars.len() {
        return error(format!("index out of range: {start}"));
    }
    if end < 0 || end as usize > chars.len() {
        return error(format!("index out of range: {end}"));
    }
    if start > end {
        return error(format!(
            "invalid substring range. start: {start}, end: {end}"
        ));
    }
    Ok(Val::string(
        &chars[start as usize..end as usize]
            .iter()
            .collect::<String>(),
    ))
}

fn index_of<'a>(chars: &[char], part: &str, from: i64, last: bool) -> Result<Val<'a>> {
    let part: Vec<char> = part.chars().collect();
    if from < 0 || from as usize > chars.len() {
        return error(format!("index out of range: {from}"));
    }
    let from = from as usize;
    let fits = |at: usize| at + part.len() <= chars.len() && chars[at..at + part.len()] == part[..];
    let found = if last {
        (0..=from.min(chars.len())).rev().find(|&at| fits(at))
    } else {
        (from..=chars.len()).find(|&at| fits(at))
    };
    Ok(Val::Int(found.map_or(-1, |at| at as i64)))
}

fn find_all<'a>(
    evaluation: &mut Evaluation<'a>,
    text: &str,
    pattern: &str,
    limit: i64,
) -> Result<Val<'a>> {
    let found = with_regex(evaluation, pattern, |regex| {
        let found = regex
            .find_iter(text)
            .map(|found| Val::string(found.as_str()));
        if limit < 0 {
            found.collect::<Vec<_>>()
        } else {
            found.take(limit as usize).collect()
        }
    })?;
    Ok(Val::List(Rc::new(found)))
}

/// The string extension's `format`: `%s`, `%d`, `%f` (with a precision), `%%`.
fn format_string<'a>(text: &str, list: &Val<'a>) -> Result<Val<'a>> {
    let Some(values) = list.items() else {
        return no_overload("format", &[list]);
    };
    let mut out = String::new();
    let mut values = values.iter();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let mut precision = String::new();
        if chars.peek() == Some(&'.') {
            chars.next();
            while let Some(digit) = chars.peek().filter(|c| c.is_ascii_digit()) {
                precision.push(*digit);
                chars.next();
            }
        }
        let verb = chars
            .next()
            .ok_or_else(|| Fault::Error("format ends in %".into()))?;
        if verb == '%' {
            out.push('%');
            continue;
        }
        let value = values
            .next()
            .ok_or_else(|| Fault::Error("format has more verbs than values".into()))?;
        match (verb, value) {
            ('s', value) => match to_string(value.clone()) {
                Ok(Val::Str(text)) => out.push_str(&text),
                _ => out.push_str(&display(value)),
            },
            ('d', Val::Int(number)) => out.push_str(&number.to_string()),
            ('d', Val::Uint(number)) => out.push_str(&number.to_string()),
            ('f', Val::Double(number)) => {
                let precision = precision.parse().unwrap_or(6);
                out.push_str(&format!("{number:.precision$}"));
            }
            _ => {
                return error(format!(
                    "format %{verb} does not take a {}",
                    value.type_name()
                ));
            }
        }
    }
    Ok(Val::string(&out))
}

/// A list or map as `format`'s `%s` writes it.
fn display(value: &Val<'_>) -> String {
    if let Some(items) = value.items() {
        let items: Vec<String> = items.iter().map(display).collect();
        return format!("[{}]", items.join(", "));
    }
    if let Some(entries) = value.entries() {
        let entries: Vec<String> = entries
            .iter()
            .map(|(key, value)| format!("{}: {}", display(key), display(value)))
            .collect();
        return format!("{{{}}}", entries.join(", "));
    }
    match to_string(value.clone()) {
        Ok(Val::Str(text)) => text.to_string(),
        _ => value.type_name().to_string(),
    }
}

fn list_method<'a>(
    items: Vec<Val<'a>>,
    function: &str,
    args: &[Val<'a>],
) -> Option<Result<Val<'a>>> {
    Some(match (function, args) {
        ("join", []) => join(&items, ""),
        ("join", [Val::Str(separator)]) => join(&items, separator),
        ("isSorted", []) => {
            let mut sorted = true;
            for pair in items.windows(2) {
                match compare(&pair[0], &pair[1]) {
                    Ok(std::cmp::Ordering::Greater) => sorted = false,
                    Ok(_) => {}
                    Err(fault) => return Some(Err(fault)),
                }
            }
            Ok(Val::Bool(sorted))
        }
        ("sum", []) => {
            let mut total = match items.first() {
                Some(Val::Double(_)) => Val::Double(0.0),
                Some(Val::Uint(_)) => Val::Uint(0),
                Some(Val::Duration(_)) => Val::Duration(0),
                _ => Val::Int(0),
            };
            for item in &items {
                total = match (&total, item) {
                    (Val::Int(a), Val::Int(b)) => match a.checked_add(*b) {
                        Some(sum) => Val::Int(sum),
                        None => return Some(error("integer overflow")),
                    },
                    (Val::Uint(a), Val::Uint(b)) => match a.checked_add(*b) {
                        Some(sum) => Val::Uint(sum),
                        None => return Some(error("integer overflow")),
                    },
                    (Val::Double(a), Val::Double(b)) => Val::Double(a + b),
                    (Val::Duration(a), Val::Duration(b)) => match checked_duration(a + b) {
                        Ok(sum) => Val::Duration(sum),
                        Err(fault) => return Some(Err(fault)),
                    },
                    _ => return Some(no_overload("sum", &[&total, item])),
                };
            }
            Ok(total)
        }
        ("min", []) => extreme(&items, false),
        ("max", []) => extreme(&items, true),
        ("indexOf", [value]) => Ok(Val::Int(
            items
                .iter()
                .position(|item| equal(item, value))
                .map_or(-1, |at| at as i64),
        )),
        ("lastIndexOf", [value]) => Ok(Val::Int(
            items
                .iter()
                .rposition(|item| equal(item, value))
                .map_or(-1, |at| at as i64),
        )),
        ("slice", [Val::Int(start), Val::Int(end)]) => {
            if *start < 0 || *end < *start || *end as usize > items.len() {
                error(format!(
                    "cannot slice({start}, {end}) a list of {}",
                    items.len()
                ))
            } else {
                Ok(Val::List(Rc::new(
                    items[*start as usize..*end as usize].to_vec(),
                )))
            }
        }
        ("flatten", []) => {
            let mut flat = Vec::new();
            for item in items {
                match item.items() {
                    Some(inner) => flat.extend(inner),
                    None => flat.push(item),
                }
            }
            Ok(Val::List(Rc::new(flat)))
        }
        ("distinct", []) => {
            let mut distinct: Vec<Val<'a>> = Vec::new();
            for item in items {
                if !distinct.iter().any(|seen| equal(seen, &item)) {
                    distinct.push(item);
                }
            }
            Ok(Val::List(Rc::new(distinct)))
        }
        ("reverse", []) => Ok(Val::List(Rc::new(items.into_iter().rev().collect()))),
        ("sort", []) => {
            let mut sorted = items;
            let mut failed = None;
            sorted.sort_by(|a, b| {
                compare(a, b).unwrap_or_else(|fault| {
                    failed = Some(fault);
                    std::cmp::Ordering::Equal
                })
            });
            match failed {
                Some(fault) => Err(fault),
                None => Ok(Val::List(Rc::new(sorted))),
            }
        }
        _ => return None,
    })
}

fn join<'a>(items: &[Val<'a>], separator: &str) -> Result<Val<'a>> {
    let mut parts = Vec::with_capacity(items.len());
    for item in items {
        match item {
            Val::Str(text) => parts.push(text.to_string()),
            other => return no_overload("join", &[other]),
        }
    }
    Ok(Val::string(&parts.join(separator)))
}

fn extreme<'a>(items: &[Val<'a>], greatest: bool) -> Result<Val<'a>> {
    let Some(mut best) = items.first().cloned() else {
        return error("min and max of an empty list");
    };
    for item in &items[1..] {
        let ordering = compare(item, &best)?;
        if ordering
            == if greatest {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Less
            }
        {
            best = item.clone();
        }
    }
    Ok(best)
}

fn to_int<'a>(value: Val<'a>) -> Result<Val<'a>> {
    Ok(Val::Int(match value {
        Val::Int(value) => value,
        Val::Uint(value) => i64::try_from(value).map_err(|_| range_error())?,
        Val::Double(value) => {
            if !(-9.223_372_036_854_775e18..9.223_372_036_854_775e18).contains(&value) {
                return Err(range_error());
            }
            value as i64
        }
        Val::Str(text) => text
            .parse()
            .map_err(|_| Fault::Error(format!("cannot convert {text:?} to an int")))?,
        Val::Timestamp(nanos) => nanos.div_euclid(NANOS) as i64,
        Val::Duration(nanos) => (nanos / NANOS) as i64,
        other => return no_overload("int", &[&other]),
    }))
}

fn range_error() -> Fault {
    Fault::Error("integer overflow".to_string())
}

fn to_uint<'a>(value: Val<'a>) -> Result<Val<'a>> {
    Ok(Val::Uint(match value {
        Val::Uint(value) => value,
        Val::Int(value) => u64::try_from(value).map_err(|_| range_error())?,
        Val::Double(value) => {
            if !(0.0..1.844_674_407_370_955e19).contains(&value) {
                return Err(range_error());
            }
            value as u64
        }
        Val::Str(text) => text
            .parse()
            .map_err(|_| Fault::Error(format!("cannot convert {text:?} to a uint")))?,
        other => return no_overload("uint", &[&other]),
    }))
}

fn to_double<'a>(value: Val<'a>) -> Result<Val<'a>> {
    Ok(Val::Double(match value {
        Val::Double(value) => value,
        Val::Int(value) => value as f64,
        Val::Uint(value) => value as f64,
        Val::Str(text) => text
            .parse()
            .map_err(|_| Fault::Error(format!("cannot convert {text:?} to a double")))?,
        other => return no_overload("double", &[&other]),
    }))
}

fn to_bool<'a>(value: Val<'a>) -> Result<Val<'a>> {
    match value {
        Val::Bool(value) => Ok(Val::Bool(value)),
        Val::Str(text) => match text.as_ref() {
            "1" | "t" | "T" | "true" | "TRUE" | "True" => Ok(Val::Bool(true)),
            "0" | "f" | "F" | "false" | "FALSE" | "False" => Ok(Val::Bool(false)),
            _ => error(format!("cannot convert {text:?} to a bool")),
        },
        other => no_overload("bool", &[&other]),
    }
}

fn to_string<'a>(value: Val<'a>) -> Result<Val<'a>> {
    Ok(Val::string(&match value {
        Val::Str(text) => return Ok(Val::Str(text)),
        Val::Int(value) => value.to_string(),
        Val::Uint(value) => value.to_string(),
        Val::Double(value) => format_double(value),
        Val::Bool(value) => value.to_string(),
        Val::Bytes(bytes) => String::from_utf8(bytes.to_vec())
            .map_err(|_| Fault::Error("bytes are not UTF-8".to_string()))?,
        Val::Duration(nanos) => format_duration(nanos),
        Val::Timestamp(nanos) => format_timestamp(nanos),
        Val::Ip(address) => address.to_string(),
        Val::Cidr(address, prefix) => format!("{address}/{prefix}"),
        Val::Url(url) => url.text.clone(),
        other => return no_overload("string", &[&other]),
    }))
}

/// A double as CEL's `string()` writes it (Go's `strconv.FormatFloat(f, 'g', -1, 64)`
/// for the magnitudes rules meet).
fn format_double(value: f64) -> String {
    if value.is_nan() {
        return "NaN".to_string();
    }
    if value.is_infinite() {
        return if value > 0.0 { "+Inf" } else { "-Inf" }.to_string();
    }
    let exponent = if value == 0.0 {
        0
    } else {
        value.abs().log10().floor() as i32
    };
    if (-4..21).contains(&exponent) {
        format!("{value}")
    } else {
        let text = format!("{value:e}");
        // Go writes the exponent signed and at least two digits: 1e+21, 1e-05.
        match text.split_once('e') {
            Some((mantissa, exponent)) => {
                let (sign, digits) = match exponent.strip_prefix('-') {
                    Some(digits) => ('-', digits),
                    None => ('+', exponent),
                };
                format!("{mantissa}e{sign}{digits:0>2}")
            }
            None => text,
        }
    }
}

/// A duration as CEL writes it: seconds with up to nine decimals, `1.5s`, `3600s`.
fn format_duration(nanos: i128) -> String {
    let sign = if nanos < 0 { "-" } else { "" };
    let nanos = nanos.unsigned_abs();
    let seconds = nanos / NANOS as u128;
    let fraction = nanos % NANOS as u128;
    if fraction == 0 {
        format!("{sign}{seconds}s")
    } else {
        let fraction = format!("{fraction:09}");
        format!("{sign}{seconds}.{}s", fraction.trim_end_matches('0'))
    }
}

/// The date of a day counted from 1970-01-01.
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let days = days + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

fn format_timestamp(nanos: i128) -> String {
    let seconds = nanos.div_euclid(NANOS) as i64;
    let fraction = nanos.rem_euclid(NANOS);
    let (year, month, day) = civil_from_days(seconds.div_euclid(86_400));
    let of_day = seconds.rem_euclid(86_400);
    let mut text = format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}",
        of_day / 3600,
        of_day / 60 % 60,
        of_day % 60
    );
    if fraction != 0 {
        text.push('.');
        text.push_str(format!("{fraction:09}").trim_end_matches('0'));
    }
    text.push('Z');
    text
}

fn timestamp_method<'a>(nanos: i128, function: &str, args: &[Val<'a>]) -> Option<Result<Val<'a>>> {
    match args {
        [] => {}
        [Val::Str(zone)] if matches!(zone.as_ref(), "UTC" | "Z" | "+00:00") => {}
        [Val::Str(zone)] => {
            return Some(error(format!(
                "time zone {zone:?}: only UTC is known offline"
            )));
        }
        _ => return None,
    }
    let seconds = nanos.div_euclid(NANOS) as i64;
    let days = seconds.div_euclid(86_400);
    let of_day = seconds.rem_euclid(86_400);
    let (year, month, day) = civil_from_days(days);
    let value = match function {
        "getFullYear" => year,
        "getMonth" => month - 1,
        "getDate" => day,
        "getDayOfMonth" => day - 1,
        "getDayOfWeek" => (days + 4).rem_euclid(7),
        "getDayOfYear" => days - days_from_civil(year, 1, 1),
        "getHours" => of_day / 3600,
        "getMinutes" => of_day / 60 % 60,
        "getSeconds" => of_day % 60,
        "getMilliseconds" => (nanos.rem_euclid(NANOS) / 1_000_000) as i64,
        _ => return None,
    };
    Some(Ok(Val::Int(value)))
}

fn quote(text: &str) -> String {
    let mut quoted = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => quoted.push_str("\\\""),
            '\\' => quoted.push_str("\\\\"),
            '\n' => quoted.push_str("\\n"),
            '\r' => quoted.push_str("\\r"),
            '\t' => quoted.push_str("\\t"),
            c => quoted.push(c),
        }
    }
    quoted.push('"');
    quoted
}

/// `isIP`, `ip`, `isCIDR`, `cidr`, `isURL`, `url`, `isQuantity`, `quantity`,
/// `ip.isCanonical`.
fn kubernetes_constructor<'a>(function: &str, text: &str) -> Result<Val<'a>> {
    match function {
        "isIP" => Ok(Val::Bool(parse_ip(text).is_ok())),
        "ip" => parse_ip(text).map(Val::Ip).map_err(Fault::Error),
        "ip.isCanonical" => {
            let address = parse_ip(text).map_err(Fault::Error)?;
            Ok(Val::Bool(address.to_string() == text))
        }
        "isCIDR" => Ok(Val::Bool(parse_cidr(text).is_ok())),
        "cidr" => parse_cidr(text)
            .map(|(address, prefix)| Val::Cidr(address, prefix))
            .map_err(Fault::Error),
        "isURL" => Ok(Val::Bool(Url::parse(text).is_ok())),
        "url" => Url::parse(text)
            .map(|url| Val::Url(Rc::new(url)))
            .map_err(Fault::Error),
        "isQuantity" => Ok(Val::Bool(parse_quantity(text).is_ok())),
        _ => parse_quantity(text)
            .map(Val::Quantity)
            .map_err(|_| Fault::Error(format!("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$': {text:?}"))),
    }
}

/// An IP address as Kubernetes' `ip()` reads it (Go's netip.ParseAddr): no zone, no
/// IPv4-mapped IPv6 address, no leading zeros.
fn parse_ip(text: &str) -> std::result::Result<IpAddr, String> {
    let address: IpAddr = text
        .parse()
        .map_err(|_| format!("IP Address {text:?} parse error during conversion from string"))?;
    if let IpAddr::V6(v6) = address
        && v6.to_ipv4_mapped().is_some()
        && text.contains('.')
    {
        return Err(format!("IPv4-mapped IPv6 address {text:?} is not allowed"));
    }
    Ok(address)
}

fn parse_cidr(text: &str) -> std::result::Result<(IpAddr, u8), String> {
    let invalid = || format!("network address parse error during conversion from string: {text:?}");
    let (address, prefix) = text.split_once('/').ok_or_else(invalid)?;
    let address = parse_ip(address).map_err(|_| invalid())?;
    if prefix.is_empty()
        || !prefix.bytes().all(|b| b.is_ascii_digit())
        || (prefix.len() > 1 && prefix.starts_with('0'))
    {
        return Err(invalid());
    }
    let prefix: u8 = prefix.parse().map_err(|_| invalid())?;
    let bits = if address.is_ipv4() { 32 } else { 128 };
    if prefix > bits {
        return Err(invalid());
    }
    Ok((address, prefix))
}

fn masked(address: IpAddr, prefix: u8) -> IpAddr {
    match address {
        IpAddr::V4(v4) => {
            let mask = if prefix == 0 {
                0
            } else {
                u32::MAX << (32 - prefix)
            };
            IpAddr::V4((u32::from(v4) & mask).into())
        }
        IpAddr::V6(v6) => {
            let mask = if prefix == 0 {
                0
            } else {
                u128::MAX << (128 - prefix)
            };
            IpAddr::V6((u128::from(v6) & mask).into())
        }
    }
}

fn ip_method<'a>(address: &IpAddr, function: &str, args: &[Val<'a>]) -> Option<Result<Val<'a>>> {
    if !args.is_empty() {
        return None;
    }
    let value = match function {
        "family" => return Some(Ok(Val::Int(if address.is_ipv4() { 4 } else { 6 }))),
        "isUnspecified" => address.is_unspecified(),
        "isLoopback" => address.is_loopback(),
        "isLinkLocalMulticast" => match address {
            IpAddr::V4(v4) => v4.octets()[..3] == [224, 0, 0],
            IpAddr::V6(v6) => v6.segments()[0] & 0xff0f == 0xff02,
        },
        "isLinkLocalUnicast" => match address {
            IpAddr::V4(v4) => v4.is_link_local(),
            IpAddr::V6(v6) => v6.segments()[0] & 0xffc0 == 0xfe80,
        },
        "isGlobalUnicast" => {
            // Go's definition: not unspecified, loopback, multicast, link-local or broadcast.
            match address {
                IpAddr::V4(v4) => {
                    !(v4.is_unspecified()
                        || v4.is_loopback()
                        || v4.is_multicast()
                        || v4.is_link_local()
                        || v4.is_broadcast())
                }
                IpAddr::V6(v6) => {
                    !(v6.is_unspecified()
                        || v6.is_loopback()
                        || v6.is_multicast()
                        || v6.segments()[0] & 0xffc0 == 0xfe80)
                }
            }
        }
        _ => return None,
    };
    Some(Ok(Val::Bool(value)))
}

fn cidr_method<'a>(
    address: IpAddr,
    prefix: u8,
    function: &str,
    args: &[Val<'a>],
) -> Option<Result<Val<'a>>> {
    let network = masked(address, prefix);
    let contains = |other: IpAddr, other_prefix: u8| {
        other.is_ipv4() == address.is_ipv4()
            && other_prefix >= prefix
            && masked(other, prefix) == network
    };
    Some(match (function, args) {
        ("containsIP", [Val::Ip(other)]) => {
            let bits = if other.is_ipv4() { 32 } else { 128 };
            Ok(Val::Bool(contains(*other, bits)))
        }
        ("containsIP", [Val::Str(text)]) => parse_ip(text).map_err(Fault::Error).map(|other| {
            let bits = if other.is_ipv4() { 32 } else { 128 };
            Val::Bool(contains(other, bits))
        }),
        ("containsCIDR", [Val::Cidr(other, other_prefix)]) => {
            Ok(Val::Bool(contains(*other, *other_prefix)))
        }
        ("containsCIDR", [Val::Str(text)]) => parse_cidr(text)
            .map_err(Fault::Error)
            .map(|(other, other_prefix)| Val::Bool(contains(other, other_prefix))),
        ("ip", []) => Ok(Val::Ip(address)),
        ("masked", []) => Ok(Val::Cidr(network, prefix)),
        ("prefixLength", []) => Ok(Val::Int(i64::from(prefix))),
        _ => return None,
    })
}

impl Url {
    fn parse(text: &str) -> std::result::Result<Url, String> {
        let invalid = || format!("URL parse error during conversion from string: {text:?}");
        if text.is_empty() || text.chars().any(|c| c.is_ascii_control() || c == ' ') {
            return Err(invalid());
        }
        let (scheme, rest) = if text.starts_with('/') {
            (String::new(), text)
        } else {
            let (scheme, rest) = text.split_once(':').ok_or_else(invalid)?;
            let valid = scheme
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic())
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
            if !valid {
                return Err(invalid());
            }
            (scheme.to_ascii_lowercase(), rest)
        };
        let (rest, query) = match rest.split_once('?') {
            Some((rest, query)) => (rest, query.to_string()),
            None => (rest, String::new()),
        };
        let (host, path) = match rest.strip_prefix("//") {
            Some(authority) if !scheme.is_empty() || text.starts_with("//") => {
                let end = authority.find('/').unwrap_or(authority.len());
                let host = &authority[..end];
                let host = host.rsplit_once('@').map_or(host, |(_, host)| host);
                if host.starts_with('[') && !host.contains(']') {
                    return Err(invalid());
                }
                if let Some((_, port)) = host.rsplit_once(':')
                    && !host.ends_with(']')
                    && !port.bytes().all(|b| b.is_ascii_digit())
                {
                    return Err(invalid());
                }
                (host.to_string(), authority[end..].to_string())
            }
            _ if scheme.is_empty() || rest.starts_with('/') => (String::new(), rest.to_string()),
            // An opaque URL (`mailto:a@b`): no host, no path.
            _ => (String::new(), String::new()),
        };
        if path.contains('%') && !escapes_valid(&path) {
            return Err(invalid());
        }
        Ok(Url {
            text: text.to_string(),
            scheme,
            host,
            path,
            query,
        })
    }

    fn hostname(&self) -> &str {
        if let Some(inner) = self.host.strip_prefix('[') {
            return inner.split(']').next().unwrap_or_default();
        }
        self.host.split(':').next().unwrap_or_default()
    }

    fn port(&self) -> &str {
        let after_address = match self.host.rfind(']') {
            Some(end) => &self.host[end + 1..],
            None => &self.host,
        };
        after_address.rsplit_once(':').map_or("", |(_, port)| port)
    }
}

/// Whether every `%` of `text` starts an escape of two hexadecimal digits.
fn escapes_valid(text: &str) -> bool {
    text.split('%')
        .skip(1)
        .all(|after| after.len() >= 2 && after.as_bytes()[..2].iter().all(u8::is_ascii_hexdigit))
}

fn url_method<'a>(url: &Url, function: &str, args: &[Val<'a>]) -> Option<Result<Val<'a>>> {
    if !args.is_empty() {
        return None;
    }
    Some(Ok(match function {
        "getScheme" => Val::string(&url.scheme),
        "getHost" => Val::string(&url.host),
        "getHostname" => Val::string(url.hostname()),
        "getPort" => Val::string(url.port()),
        "getEscapedPath" => Val::string(&url.path),
        "getQuery" => {
            let mut entries: Vec<(Val<'a>, Vec<Val<'a>>)> = Vec::new();
            for pair in url.query.split(['&']).filter(|pair| !pair.is_empty()) {
                let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
                let key = Val::string(&unescape(key));
                let value = Val::string(&unescape(value));
                match entries
                    .iter_mut()
                    .find(|(existing, _)| equal(existing, &key))
                {
                    Some((_, values)) => values.push(value),
                    None => entries.push((key, vec![value])),
                }
            }
            Val::Map(Rc::new(
                entries
                    .into_iter()
                    .map(|(key, values)| (key, Val::List(Rc::new(values))))
                    .collect(),
            ))
        }
        _ => return None,
    }))
}

/// A query's key or value decoded: `+` is a space, `%XX` a byte.
fn unescape(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        let escaped = (bytes[at] == b'%')
            .then(|| text.get(at + 1..at + 3))
            .flatten()
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match (escaped, bytes[at]) {
            (Some(byte), _) => {
                out.push(byte);
                at += 3;
            }
            (None, b'+') => {
                out.push(b' ');
                at += 1;
            }
            (None, byte) => {
                out.push(byte);
                at += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn quantity_method<'a>(
    quantity: Quantity,
    function: &str,
    args: &[Val<'a>],
) -> Option<Result<Val<'a>>> {
    let nanos = quantity.nanos();
    let other = |arg: &Val<'a>| -> Option<Quantity> {
        match arg {
            Val::Quantity(other) => Some(*other),
            Val::Int(units) => Some(Quantity::from_units(*units)),
            _ => None,
        }
    };
    Some(Ok(match (function, args) {
        ("sign", []) => Val::Int(nanos.signum() as i64),
        ("isInteger", []) => Val::Bool(nanos % NANOS == 0 && i64::try_from(nanos / NANOS).is_ok()),
        ("asInteger", []) => {
            if nanos % NANOS != 0 {
                return Some(error("cannot convert value to integer"));
            }
            match i64::try_from(nanos / NANOS) {
                Ok(units) => Val::Int(units),
                Err(_) => return Some(error("cannot convert value to integer")),
            }
        }
        ("asApproximateFloat", []) => Val::Double(nanos as f64 / NANOS as f64),
        ("add", [arg]) => Val::Quantity(quantity.saturating_add(other(arg)?)),
        ("sub", [arg]) => Val::Quantity(quantity.saturating_sub(other(arg)?)),
        ("compareTo", [Val::Quantity(other)]) => Val::Int(match quantity.cmp(other) {
            std::cmp::Ordering::Less => -1,
            std::cmp::Ordering::Equal => 0,
            std::cmp::Ordering::Greater => 1,
        }),
        ("isGreaterThan", [Val::Quantity(other)]) => Val::Bool(quantity > *other),
        ("isLessThan", [Val::Quantity(other)]) => Val::Bool(quantity < *other),
        _ => return None,
    }))
}

/// The formats `format.named` knows, by name.
fn named_format(name: &str) -> Option<&'static str> {
    [
        "dns1123Label",
        "dns1123Subdomain",
        "dns1035Label",
        "qualifiedName",
        "dns1123LabelPrefix",
        "dns1123SubdomainPrefix",
        "dns1035LabelPrefix",
        "labelValue",
        "uri",
        "uuid",
        "byte",
        "date",
        "datetime",
    ]
    .into_iter()
    .find(|known| *known == name)
}

/// What is wrong with `text` in a named format, as apimachinery's validation messages say
/// it; nothing when it is valid.
fn validate_format(format: &str, text: &str) -> Vec<String> {
    let label = |text: &str, first_letter: bool| {
        let bytes = text.as_bytes();
        !bytes.is_empty()
            && bytes
                .iter()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'-')
            && if first_letter {
                bytes[0].is_ascii_lowercase()
            } else {
                bytes[0].is_ascii_alphanumeric()
            }
            && bytes[bytes.len() - 1] != b'-'
    };
    let too_long = |limit: usize| {
        (text.len() > limit).then(|| format!("must be no more than {limit} characters"))
    };
    let mut problems: Vec<String> = Vec::new();
    match format {
        "dns1123Label" | "dns1123LabelPrefix" => {
            problems.extend(too_long(63));
            let text = if format.ends_with("Prefix") {
                text.trim_end_matches('-')
            } else {
                text
            };
            if !label(text, false) {
                problems.push("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character".to_string());
            }
        }
        "dns1035Label" | "dns1035LabelPrefix" => {
            problems.extend(too_long(63));
            let text = if format.ends_with("Prefix") {
                text.trim_end_matches('-')
            } else {
                text
            };
            if !label(text, true) {
                problems.push("a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character".to_string());
            }
        }
        "dns1123Subdomain" | "dns1123SubdomainPrefix" => {
            problems.extend(too_long(253));
            let text = if format.ends_with("Prefix") {
                text.trim_end_matches('-')
            } else {
                text
            };
            if !text.split('.').all(|part| label(part, false)) {
                problems.push("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character".to_string());
            }
        }
        "qualifiedName" => {
            let (prefix, name) = match text.split_once('/') {
                Some((prefix, name)) => (Some(prefix), name),
                None => (None, text),
            };
            if let Some(prefix) = prefix
                && (prefix.is_empty()
                    || prefix.len() > 253
                    || !prefix.split('.').all(|part| label(part, false)))
            {
                problems.push("prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character".to_string());
            }
            if name.is_empty() || name.len() > 63 || !is_name_part(name) {
                problems.push("name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character".to_string());
            }
        }
        "labelValue" => {
            problems.extend(too_long(63));
            if !text.is_empty() && !is_name_part(text) {
                problems.push("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character".to_string());
            }
        }
        "uri" => {
            if Url::parse(text).is_err() {
                problems.push("must be a valid URI".to_string());
            }
        }
        "uuid" => {
            let groups: Vec<&str> = text.split('-').collect();
            let valid = groups.len() == 5
                && groups.iter().zip([8, 4, 4, 4, 12]).all(|(group, length)| {
                    group.len() == length && group.bytes().all(|b| b.is_ascii_hexdigit())
                });
            if !valid {
                problems.push("does not match the UUID format".to_string());
            }
        }
        "byte" => {
            let bytes = text.as_bytes();
            let padding = bytes.iter().rev().take_while(|&&b| b == b'=').count();
            let valid = bytes.len().is_multiple_of(4)
                && padding <= 2
                && bytes[..bytes.len() - padding]
                    .iter()
                    .all(|b| b.is_ascii_alphanumeric() || *b == b'+' || *b == b'/');
            if !valid {
                problems.push("invalid base64".to_string());
            }
        }
        "date" => {
            if parse_timestamp(&format!("{text}T00:00:00Z")).is_err() || text.len() != 10 {
                problems.push("invalid date".to_string());
            }
        }
        _ => {
            if parse_timestamp(text).is_err() {
                problems.push("invalid datetime".to_string());
            }
        }
    }
    problems
}

/// A qualified name's name part and a label value: alphanumerics, `-`, `_`, `.`, starting
/// and ending alphanumeric.
fn is_name_part(text: &str) -> bool {
    let bytes = text.as_bytes();
    !bytes.is_empty()
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        && bytes[0].is_ascii_alphanumeric()
        && bytes[bytes.len() - 1].is_ascii_alphanumeric()
}
