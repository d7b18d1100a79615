//! The functions of the API server's CEL environment: CEL's standard ones, the string, list
//! and set extensions, and Kubernetes' regex, lists and sets libraries (k8s.io/apiserver
//! pkg/cel/library; its ip, cidr, url, quantity and format libraries are in `kubernetes`),
//! each as its documentation and tests define it. Behaviour was learned from those documents;
//! no code is copied.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use super::kubernetes::{
    cidr_method, ip_method, kubernetes_constructor, named_format, quantity_method, url_method,
    validate_format,
};
use super::value::{
    Evaluation, Fault, NANOS, Result, Val, checked_duration, checked_timestamp, compare,
    contains_all, days_from_civil, equal, error, no_overload, parse_duration, parse_timestamp,
};

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
