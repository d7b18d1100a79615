//! The functions of the API server's CEL environment: CEL's standard ones, cel-go's string
//! (version 2), lists (version 3), sets and optional extensions, and Kubernetes' regex, lists
//! and sets libraries (k8s.io/apiserver pkg/cel/library; its ip, cidr, url, quantity, format
//! and semver libraries are in `kubernetes`), each as its documentation and tests define it.
//! Behaviour was learned from those documents and cel-go's answers; no code is copied.
//!
//! Each call is charged as cel-go's cost tracker charges it in the API server: the list
//! extension's trackers first (ext/lists.go), then Kubernetes' `CostEstimator.CallCost`
//! (pkg/cel/library/cost.go), then cel-go's defaults (interpreter/runtimecost.go) — 1 for a
//! call none of them names. What a call builds is charged before it is built, and where it
//! would build more than cel-go charges for (a `replace` that multiplies a string, a `join`
//! or `format` of many copies), that too: ten characters or one list item per unit.

use std::cmp::Ordering;
use std::rc::Rc;

use super::conversions::{civil_from_days, to_string};
use super::format::format_string;
use super::kubernetes::{
    cidr_method, ip_method, kubernetes_constructor, named_format, quantity_method, semver_method,
    url_method, validate_format,
};
use super::parse::Expr;
use super::value::{
    Evaluation, Fault, Fold, NANOS, Result, Text, Val, checked_duration, checked_timestamp,
    compare, days_from_civil, equal, error, no_overload, parse_duration, parse_timestamp,
    traversal,
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
    let refs: Vec<&Val<'a>> = args.iter().collect();
    let overload = || no_overload::<Val<'a>>(function, &refs);
    let unary = || match args.as_slice() {
        [arg] => Ok(arg.clone()),
        _ => no_overload(function, &refs),
    };
    match function {
        "size" => {
            evaluation.spend(1)?;
            size(evaluation, &unary()?)
        }
        "matches" => match args.as_slice() {
            [Val::Str(text), Val::Str(pattern)] => matches(evaluation, text, pattern),
            _ => overload(),
        },
        "int" | "uint" | "double" | "bool" | "dyn" | "type" | "duration" | "timestamp" => {
            evaluation.spend(1)?;
            let value = unary()?;
            match function {
                "int" => to_int(value),
                "uint" => to_uint(value),
                "double" => to_double(value),
                "bool" => to_bool(value),
                "dyn" => Ok(value),
                "type" => Ok(Val::Type(value.type_name())),
                "duration" => match value {
                    Val::Str(text) => parse_duration(&text)
                        .map(Val::Duration)
                        .map_err(Fault::Error),
                    value @ Val::Duration(_) => Ok(value),
                    other => no_overload(function, &[&other]),
                },
                _ => match value {
                    Val::Str(text) => parse_timestamp(&text)
                        .map(Val::Timestamp)
                        .map_err(Fault::Error),
                    Val::Int(seconds) => {
                        checked_timestamp(i128::from(seconds) * NANOS).map(Val::Timestamp)
                    }
                    value @ Val::Timestamp(_) => Ok(value),
                    other => no_overload(function, &[&other]),
                },
            }
        }
        // Conversions between strings and bytes traverse them.
        "string" | "bytes" => {
            let value = unary()?;
            let cost = match &value {
                Val::Str(_) | Val::Bytes(_) => traversal(evaluation.size(&value)),
                _ => 1,
            };
            evaluation.spend(cost)?;
            if function == "string" {
                to_string(value)
            } else {
                match value {
                    Val::Str(text) => Ok(Val::Bytes(Rc::from(text.as_bytes()))),
                    value @ Val::Bytes(_) => Ok(value),
                    other => no_overload("bytes", &[&other]),
                }
            }
        }
        "isIP" | "ip" | "isCIDR" | "cidr" | "isURL" | "url" | "isQuantity" | "quantity"
        | "ip.isCanonical" | "isSemver" | "semver" => {
            let (Some(Val::Str(text)), rest) = (args.first(), &args[args.len().min(1)..]) else {
                return overload();
            };
            let factor = if function == "ip.isCanonical" { 2 } else { 1 };
            let size = evaluation.size(&args[0]);
            evaluation.spend(traversal(factor * size))?;
            let normalize = match rest {
                [] => false,
                [Val::Bool(normalize)] if function.ends_with("emver") => *normalize,
                _ => return overload(),
            };
            kubernetes_constructor(function, text, normalize)
        }
        "optional.of" | "optional.ofNonZeroValue" | "optional.none" => {
            evaluation.spend(1)?;
            match (function, args.as_slice()) {
                ("optional.of", [value]) => Ok(Val::Optional(Some(Rc::new(value.clone())))),
                ("optional.ofNonZeroValue", [value]) => Ok(Val::Optional(
                    (!is_zero(value)).then(|| Rc::new(value.clone())),
                )),
                ("optional.none", []) => Ok(Val::Optional(None)),
                _ => overload(),
            }
        }
        "sets.contains" | "sets.equivalent" | "sets.intersects" => {
            let [first, second] = args.as_slice() else {
                return overload();
            };
            let (Some(a), Some(b)) = (first.list_len(), second.list_len()) else {
                return overload();
            };
            // ext/sets.go: 1 + the product of the sizes, twice that for equivalent.
            let factor = if function == "sets.equivalent" { 2 } else { 1 };
            evaluation.spend(1 + factor * a as u64 * b as u64)?;
            let contains = |haystack: &Val<'a>, needles: &Val<'a>| {
                needles.elements().into_iter().flatten().all(|needle| {
                    haystack
                        .elements()
                        .into_iter()
                        .flatten()
                        .any(|item| equal(&item, &needle))
                })
            };
            Ok(Val::Bool(match function {
                "sets.contains" => contains(first, second),
                "sets.equivalent" => contains(first, second) && contains(second, first),
                _ => first.elements().into_iter().flatten().any(|item| {
                    second
                        .elements()
                        .into_iter()
                        .flatten()
                        .any(|other| equal(&item, &other))
                }),
            }))
        }
        "format.named" => {
            evaluation.spend(1)?;
            match unary()? {
                Val::Str(name) => Ok(Val::Optional(
                    named_format(&name).map(|format| Rc::new(Val::Format(format))),
                )),
                other => no_overload(function, &[&other]),
            }
        }
        "math.greatest" | "math.least" => {
            let values = match args.as_slice() {
                [single] => single.items().unwrap_or_else(|| vec![single.clone()]),
                _ => args.clone(),
            };
            evaluation.spend(values.len() as u64)?;
            extreme(&values, function == "math.greatest")
        }
        "strings.quote" => {
            let value = unary()?;
            let Val::Str(text) = &value else {
                return no_overload(function, &[&value]);
            };
            // cel-go charges a traversal; the quoted text is at most twice as long.
            evaluation.spend(traversal(2 * text.len() as u64 + 2))?;
            Ok(Val::owned(quote(text)))
        }
        _ => match function.strip_prefix("format.") {
            Some(name) if args.is_empty() && named_format(name).is_some() => {
                evaluation.spend(1)?;
                Ok(Val::Format(named_format(name).unwrap_or_default()))
            }
            _ => error(format!("undeclared reference to '{function}'")),
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
        evaluation.spend(1)?;
        return size(evaluation, &target);
    }
    match &target {
        Val::Str(text) => string_method(evaluation, text, function, &args).unwrap_or_else(overload),
        Val::List(_) | Val::Json(serde_json::Value::Array(_), _) => {
            list_method(evaluation, &target, function, &args).unwrap_or_else(overload)
        }
        Val::Optional(value) => {
            evaluation.spend(1)?;
            match (function, args.as_slice(), value) {
                ("hasValue", [], _) => Ok(Val::Bool(value.is_some())),
                ("value", [], Some(value)) => Ok(value.as_ref().clone()),
                ("value", [], None) => error("optional.none() dereference"),
                _ => overload(),
            }
        }
        Val::Duration(nanos) => {
            evaluation.spend(1)?;
            // Each is the whole duration in that unit, as Go's time.Duration methods give it.
            let whole = |unit: i128| Ok(Val::Int((nanos / unit) as i64));
            match (function, args.as_slice()) {
                ("getHours", []) => whole(3600 * NANOS),
                ("getMinutes", []) => whole(60 * NANOS),
                ("getSeconds", []) => whole(NANOS),
                ("getMilliseconds", []) => whole(1_000_000),
                _ => overload(),
            }
        }
        Val::Timestamp(nanos) => {
            evaluation.spend(1)?;
            timestamp_method(*nanos, function, &args).unwrap_or_else(overload)
        }
        Val::Ip(address) => {
            evaluation.spend(1)?;
            ip_method(address, function, &args).unwrap_or_else(overload)
        }
        Val::Cidr(address, prefix) => {
            let cost = match (function, args.as_slice()) {
                ("containsIP", [other]) => 1 + string_cost(evaluation, other),
                ("containsCIDR", [other]) => 3 + string_cost(evaluation, other),
                _ => 1,
            };
            evaluation.spend(cost)?;
            cidr_method(*address, *prefix, function, &args).unwrap_or_else(overload)
        }
        Val::Url(url) => {
            evaluation.spend(1)?;
            url_method(url, function, &args).unwrap_or_else(overload)
        }
        Val::Quantity(quantity) => {
            evaluation.spend(1)?;
            quantity_method(*quantity, function, &args).unwrap_or_else(overload)
        }
        Val::Semver(version) => {
            evaluation.spend(1)?;
            semver_method(version, function, &args).unwrap_or_else(overload)
        }
        Val::Format(format) => match (function, args.as_slice()) {
            ("validate", [Val::Str(text)]) => {
                // The cost of matching the format's longest pattern (format.go MaxRegexSize).
                let text_cost = traversal(1 + evaluation.size(&args[0]));
                let pattern_cost = (max_regex_size(format) as u64).div_ceil(4);
                evaluation.spend(text_cost * pattern_cost)?;
                let problems = validate_format(format, text);
                Ok(Val::Optional((!problems.is_empty()).then(|| {
                    Rc::new(Val::List(Rc::new(
                        problems.into_iter().map(Val::owned).collect(),
                    )))
                })))
            }
            _ => overload(),
        },
        _ => overload(),
    }
}

/// The cost of parsing `value` when it is a string (a traversal), else nothing.
fn string_cost(evaluation: &mut Evaluation<'_>, value: &Val<'_>) -> u64 {
    match value {
        Val::Str(_) => traversal(evaluation.size(value)),
        _ => 0,
    }
}

/// The longest pattern Kubernetes reckons each named format's check matches (format.go).
fn max_regex_size(format: &str) -> usize {
    match format {
        "dns1123Label" | "dns1035Label" | "dns1123LabelPrefix" | "dns1035LabelPrefix" => 30,
        "dns1123Subdomain" | "qualifiedName" | "dns1123SubdomainPrefix" => 60,
        "labelValue" => 40,
        "uri" => 2083,
        "uuid" => 81,
        "byte" => 120,
        _ => 74,
    }
}

fn size<'a>(evaluation: &mut Evaluation<'a>, value: &Val<'a>) -> Result<Val<'a>> {
    match value {
        Val::Str(text) => Ok(Val::Int(evaluation.characters(text).0 as i64)),
        other => match other.container_size() {
            Some(size) => Ok(Val::Int(size as i64)),
            None => no_overload("size", &[value]),
        },
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
        Val::Str(text) => text.is_empty(),
        Val::Optional(value) => value.is_none(),
        other => other.container_size() == Some(0),
    }
}

/// cel-go's cost of matching a pattern against a text: `ceil(0.1 × (1 + characters))` times
/// `ceil(0.25 × the pattern's characters)`.
fn match_cost(evaluation: &mut Evaluation<'_>, text: &Text<'_>, pattern: &Text<'_>) -> u64 {
    let text = traversal(1 + evaluation.characters(text).0 as u64);
    let pattern = (evaluation.characters(pattern).0 as u64).div_ceil(4);
    text.saturating_mul(pattern)
}

fn matches<'a>(
    evaluation: &mut Evaluation<'a>,
    text: &Text<'a>,
    pattern: &Text<'a>,
) -> Result<Val<'a>> {
    let cost = match_cost(evaluation, text, pattern);
    evaluation.spend(cost)?;
    let regex = super::regexp::compiled(evaluation, pattern)?;
    Ok(Val::Bool(regex.is_match(text)))
}

fn string_method<'a>(
    evaluation: &mut Evaluation<'a>,
    text: &Text<'a>,
    function: &str,
    args: &[Val<'a>],
) -> Option<Result<Val<'a>>> {
    let target = Val::Str(text.clone());
    let size = evaluation.size(&target);
    Some((|| match (function, args) {
        ("contains", [part @ Val::Str(needle)]) => {
            let cost = traversal(size).saturating_mul(traversal(evaluation.size(part)));
            evaluation.spend(cost)?;
            Ok(Val::Bool(text.contains(&**needle)))
        }
        ("startsWith", [Val::Str(part)]) => {
            evaluation.spend(traversal(size))?;
            Ok(Val::Bool(text.starts_with(&**part)))
        }
        ("endsWith", [Val::Str(part)]) => {
            evaluation.spend(traversal(size))?;
            Ok(Val::Bool(text.ends_with(&**part)))
        }
        ("matches", [Val::Str(pattern)]) => matches(evaluation, text, pattern),
        ("lowerAscii" | "upperAscii", []) => {
            evaluation.spend(traversal(size))?;
            Ok(Val::owned(if function == "lowerAscii" {
                text.to_ascii_lowercase()
            } else {
                text.to_ascii_uppercase()
            }))
        }
        ("trim", []) => {
            evaluation.spend(traversal(size))?;
            // Go's strings.TrimSpace: Unicode white space.
            let start = text.len() - text.trim_start().len();
            let end = text.trim_end().len().max(start);
            Ok(Val::Str(text.slice(start..end)))
        }
        ("split", [Val::Str(separator)]) => split(evaluation, text, separator, -1),
        ("split", [Val::Str(separator), Val::Int(limit)]) => {
            split(evaluation, text, separator, *limit)
        }
        ("charAt", [Val::Int(at)]) => {
            evaluation.spend(1)?;
            let (chars, _) = evaluation.characters(text);
            match usize::try_from(*at) {
                Ok(at) if at <= chars => {
                    let start = byte_offset(evaluation, text, at)?;
                    let end = text[start..]
                        .chars()
                        .next()
                        .map_or(start, |c| start + c.len_utf8());
                    Ok(Val::Str(text.slice(start..end)))
                }
                _ => error(format!("index out of range: {at}")),
            }
        }
        ("substring", [Val::Int(start)]) => {
            evaluation.spend(traversal(size))?;
            let end = size as i64;
            substring(evaluation, text, *start, end)
        }
        ("substring", [Val::Int(start), Val::Int(end)]) => {
            evaluation.spend(traversal(size))?;
            substring(evaluation, text, *start, *end)
        }
        // Kubernetes charges indexOf and lastIndexOf a traversal of the string's bytes
        // (cost.go traversalCost, rounded down).
        ("indexOf", [Val::Str(part)]) => {
            evaluation.spend(text.len() as u64 / 10)?;
            index_of(evaluation, text, part, 0)
        }
        ("indexOf", [Val::Str(part), Val::Int(from)]) => {
            evaluation.spend(text.len() as u64 / 10)?;
            index_of(evaluation, text, part, *from)
        }
        ("lastIndexOf", [Val::Str(part)]) => {
            evaluation.spend(text.len() as u64 / 10)?;
            match text.rfind(&**part) {
                Some(at) => Ok(Val::Int(char_index(evaluation, text, at)? as i64)),
                None => Ok(Val::Int(-1)),
            }
        }
        ("lastIndexOf", [Val::Str(part), Val::Int(from)]) => {
            evaluation.spend(text.len() as u64 / 10)?;
            last_index_of(evaluation, text, part, *from)
        }
        ("replace", [Val::Str(old), Val::Str(new)]) => replace(evaluation, text, old, new, -1),
        ("replace", [Val::Str(old), Val::Str(new), Val::Int(limit)]) => {
            replace(evaluation, text, old, new, *limit)
        }
        ("find", [Val::Str(pattern)]) => {
            let cost = match_cost(evaluation, text, pattern);
            evaluation.spend(cost)?;
            let regex = super::regexp::compiled(evaluation, pattern)?;
            Ok(match regex.find(text) {
                Some(found) => Val::Str(text.slice(found.range())),
                None => Val::Str(Text::Borrowed("")),
            })
        }
        ("findAll", [Val::Str(pattern)]) => find_all(evaluation, text, pattern, -1),
        ("findAll", [Val::Str(pattern), Val::Int(limit)]) => {
            find_all(evaluation, text, pattern, *limit)
        }
        ("format", [list]) if list.is_list() => {
            evaluation.spend(traversal(size))?;
            format_string(evaluation, text, list, traversal(size))
        }
        _ => Err(Fault::Error(String::new())),
    })())
    .filter(|outcome| !matches!(outcome, Err(Fault::Error(message)) if message.is_empty()))
}

/// The byte offset of character `at` of `text` (`at` no more than its length). Counting
/// characters of a text that is not ASCII reads it, charged as a traversal.
fn byte_offset(evaluation: &mut Evaluation<'_>, text: &Text<'_>, at: usize) -> Result<usize> {
    let (chars, ascii) = evaluation.characters(text);
    if ascii {
        return Ok(at);
    }
    if at >= chars {
        return Ok(text.len());
    }
    evaluation.spend(traversal(text.len() as u64))?;
    Ok(text.char_indices().nth(at).map_or(text.len(), |(at, _)| at))
}

/// The character index of byte offset `at` of `text`.
fn char_index(evaluation: &mut Evaluation<'_>, text: &Text<'_>, at: usize) -> Result<usize> {
    let (_, ascii) = evaluation.characters(text);
    if ascii {
        return Ok(at);
    }
    evaluation.spend(traversal(at as u64))?;
    Ok(text[..at].chars().count())
}

/// `split(separator, limit)`: Kubernetes charges two traversals of the text; the parts share
/// it, and past what that pays for, each four parts are a unit more.
fn split<'a>(
    evaluation: &mut Evaluation<'a>,
    text: &Text<'a>,
    separator: &str,
    limit: i64,
) -> Result<Val<'a>> {
    let paid = traversal(2 * evaluation.characters(text).0 as u64);
    evaluation.spend(paid)?;
    let mut credit = paid.saturating_mul(4);
    if limit == 0 || text.is_empty() && separator.is_empty() {
        return Ok(Val::List(Rc::new(Vec::new())));
    }
    let limit = if limit < 0 {
        usize::MAX
    } else {
        limit as usize
    };
    let mut parts: Vec<Val<'a>> = Vec::new();
    let mut rest = 0;
    while parts.len() + 1 < limit {
        let found = if separator.is_empty() {
            text[rest..]
                .chars()
                .next()
                .filter(|_| rest < text.len())
                .map(|c| (rest + c.len_utf8(), rest + c.len_utf8()))
        } else {
            text[rest..]
                .find(separator)
                .map(|at| (rest + at, rest + at + separator.len()))
        };
        let Some((end, next)) = found else { break };
        if separator.is_empty() && next >= text.len() {
            break;
        }
        charge_item(evaluation, &mut credit)?;
        parts.push(Val::Str(text.slice(rest..end)));
        rest = next;
    }
    if !(text.is_empty() && separator.is_empty()) {
        charge_item(evaluation, &mut credit)?;
        parts.push(Val::Str(text.slice(rest..text.len())));
    }
    Ok(Val::List(Rc::new(parts)))
}

/// Charges one more item of a list being built, out of `credit` (items already paid for)
/// while it lasts, then a unit per four items.
fn charge_item(evaluation: &mut Evaluation<'_>, credit: &mut u64) -> Result<()> {
    if *credit > 0 {
        *credit -= 1;
        return Ok(());
    }
    *credit = 3;
    evaluation.spend(1)
}

fn substring<'a>(
    evaluation: &mut Evaluation<'a>,
    text: &Text<'a>,
    start: i64,
    end: i64,
) -> Result<Val<'a>> {
    let (chars, _) = evaluation.characters(text);
    let within = |at: i64| at >= 0 && at as usize <= chars;
    if !within(start) {
        return error(format!("index out of range: {start}"));
    }
    if !within(end) {
        return error(format!("index out of range: {end}"));
    }
    if start > end {
        return error(format!(
            "invalid substring range. start: {start}, end: {end}"
        ));
    }
    let from = byte_offset(evaluation, text, start as usize)?;
    let to = byte_offset(evaluation, text, end as usize)?;
    Ok(Val::Str(text.slice(from..to)))
}

/// cel-go's `indexOf(part, from)`: the first index at or after `from` where `part` starts,
/// -1 if none (`from` past the end included); a negative `from` is an error.
fn index_of<'a>(
    evaluation: &mut Evaluation<'a>,
    text: &Text<'a>,
    part: &str,
    from: i64,
) -> Result<Val<'a>> {
    if from < 0 {
        return error(format!("index out of range: {from}"));
    }
    let (chars, _) = evaluation.characters(text);
    if part.is_empty() {
        return Ok(Val::Int(from));
    }
    if from as usize >= chars {
        return Ok(Val::Int(-1));
    }
    let start = byte_offset(evaluation, text, from as usize)?;
    match text[start..].find(part) {
        Some(at) => Ok(Val::Int(char_index(evaluation, text, start + at)? as i64)),
        None => Ok(Val::Int(-1)),
    }
}

/// cel-go's `lastIndexOf(part, from)`: the last index at or before `from` where `part`
/// starts, -1 if none (`from` past the end included); a negative `from` is an error.
fn last_index_of<'a>(
    evaluation: &mut Evaluation<'a>,
    text: &Text<'a>,
    part: &str,
    from: i64,
) -> Result<Val<'a>> {
    if from < 0 {
        return error(format!("index out of range: {from}"));
    }
    let (chars, _) = evaluation.characters(text);
    if part.is_empty() {
        return Ok(Val::Int(from));
    }
    if from as usize >= chars {
        return Ok(Val::Int(-1));
    }
    // A match may start at `from` and run past it.
    let start = byte_offset(evaluation, text, from as usize)?;
    let end = (start + part.len()).min(text.len());
    let end = (end..=text.len())
        .find(|&end| text.is_char_boundary(end))
        .unwrap_or(text.len());
    match text[..end].rfind(part) {
        Some(at) => Ok(Val::Int(char_index(evaluation, text, at)? as i64)),
        None => Ok(Val::Int(-1)),
    }
}

/// `replace(old, new, limit)`: Kubernetes charges two traversals of the text; the result is
/// charged too, before it is built, by its length counted first.
fn replace<'a>(
    evaluation: &mut Evaluation<'a>,
    text: &Text<'a>,
    old: &str,
    new: &str,
    limit: i64,
) -> Result<Val<'a>> {
    let size = evaluation.characters(text).0 as u64;
    evaluation.spend(traversal(2 * size))?;
    let limit = if limit < 0 {
        usize::MAX
    } else {
        limit as usize
    };
    let count = if old.is_empty() {
        (size as usize + 1).min(limit)
    } else {
        text.matches(old).take(limit).count()
    };
    if count == 0 {
        return Ok(Val::Str(text.clone()));
    }
    let length = (text.len() as u64 + count as u64 * new.len() as u64)
        .saturating_sub(count as u64 * old.len() as u64);
    // What the result holds beyond the traversals charged.
    evaluation.spend(traversal(length).saturating_sub(traversal(2 * size)))?;
    let replaced = if old.is_empty() {
        let mut out = String::with_capacity(length as usize);
        let mut inserted = 0;
        for c in text.chars() {
            if inserted < count {
                out.push_str(new);
                inserted += 1;
            }
            out.push(c);
        }
        if inserted < count {
            out.push_str(new);
        }
        out
    } else {
        text.replacen(old, new, count)
    };
    Ok(Val::owned(replaced))
}

fn find_all<'a>(
    evaluation: &mut Evaluation<'a>,
    text: &Text<'a>,
    pattern: &Text<'a>,
    limit: i64,
) -> Result<Val<'a>> {
    let cost = match_cost(evaluation, text, pattern);
    evaluation.spend(cost)?;
    let regex = super::regexp::compiled(evaluation, pattern)?;
    let limit = if limit < 0 {
        usize::MAX
    } else {
        limit as usize
    };
    let mut found = Vec::new();
    let mut credit = cost.saturating_mul(4);
    for matched in regex.find_iter(text).take(limit) {
        // Each match shares the text.
        charge_item(evaluation, &mut credit)?;
        found.push(Val::Str(text.slice(matched.range())));
    }
    Ok(Val::List(Rc::new(found)))
}

/// The cost of comparing each item of a list once, as Kubernetes charges `isSorted`, `sum`,
/// `min`, `max`, `indexOf` and `lastIndexOf` (cost.go traversalCost): a string or bytes its
/// length over ten, rounded down; a list or map its contents; anything else 1.
fn traversal_cost(value: &Val<'_>) -> u64 {
    match value {
        Val::Str(text) => text.len() as u64 / 10,
        Val::Bytes(bytes) => bytes.len() as u64 / 10,
        _ if value.is_list() => value
            .elements()
            .into_iter()
            .flatten()
            .map(|item| traversal_cost(&item))
            .sum(),
        _ if value.is_map() => value
            .entries()
            .unwrap_or_default()
            .iter()
            .map(|(key, value)| traversal_cost(key) + traversal_cost(value))
            .sum(),
        _ => 1,
    }
}

/// The cost cel-go's list extension charges a call that builds a list of `size` items:
/// `size × factor`, plus 1 for the call and 10 for the list.
fn allocating(size: u64, factor: f64) -> u64 {
    ((size as f64 * factor) as u64).saturating_add(11)
}

/// What cel-go's list extension charges for comparing each item with every other (`sort`,
/// `sortBy`, `distinct`): twice the square of the size, a tenth more for strings and bytes.
fn self_compare(list: &Val<'_>) -> u64 {
    let size = list.list_len().unwrap_or(0) as u64;
    let factor = match list.list_item(0) {
        Some(Val::Str(_) | Val::Bytes(_)) => 2.1,
        _ => 2.0,
    };
    allocating(size.saturating_mul(size), factor)
}

fn list_method<'a>(
    evaluation: &mut Evaluation<'a>,
    list: &Val<'a>,
    function: &str,
    args: &[Val<'a>],
) -> Option<Result<Val<'a>>> {
    let len = list.list_len().unwrap_or(0);
    Some((|| match (function, args) {
        ("join", []) => join(evaluation, list, ""),
        ("join", [Val::Str(separator)]) => join(evaluation, list, separator),
        ("isSorted" | "sum" | "min" | "max" | "indexOf" | "lastIndexOf", _) => {
            let cost = traversal_cost(list);
            evaluation.spend(cost)?;
            let items = list.items().unwrap_or_default();
            match (function, args) {
                ("isSorted", []) => {
                    for pair in items.windows(2) {
                        if compare(&pair[0], &pair[1])? == Ordering::Greater {
                            return Ok(Val::Bool(false));
                        }
                    }
                    Ok(Val::Bool(true))
                }
                ("sum", []) => sum(&items),
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
                _ => Err(Fault::Error(String::new())),
            }
        }
        ("slice", [Val::Int(start), Val::Int(end)]) => {
            if *start < 0 || *end < 0 {
                return error(format!(
                    "cannot slice({start}, {end}), negative indexes not supported"
                ));
            }
            if start > end {
                return error(format!(
                    "cannot slice({start}, {end}), start index must be less than or equal to end index"
                ));
            }
            if *end as usize > len {
                return error(format!("cannot slice({start}, {end}), list is length {len}"));
            }
            evaluation.spend(allocating((end - start) as u64, 1.0))?;
            Ok(Val::List(Rc::new(
                (*start as usize..*end as usize)
                    .filter_map(|at| list.list_item(at))
                    .collect(),
            )))
        }
        ("flatten", []) => flatten(evaluation, list, 1),
        ("flatten", [Val::Int(depth)]) => flatten(evaluation, list, *depth),
        ("distinct", []) => {
            evaluation.spend(self_compare(list))?;
            let mut distinct: Vec<Val<'a>> = Vec::new();
            for item in list.elements().into_iter().flatten() {
                if !distinct.iter().any(|seen| equal(seen, &item)) {
                    distinct.push(item);
                }
            }
            Ok(Val::List(Rc::new(distinct)))
        }
        ("reverse", []) => {
            evaluation.spend(allocating(len as u64, 1.0))?;
            let mut items = list.items().unwrap_or_default();
            items.reverse();
            Ok(Val::List(Rc::new(items)))
        }
        ("sort", []) => {
            evaluation.spend(self_compare(list))?;
            let items = list.items().unwrap_or_default();
            sorted(items.clone(), &items).map(|items| Val::List(Rc::new(items)))
        }
        ("first" | "last", []) => {
            evaluation.spend(1)?;
            let at = if function == "first" { 0 } else { len.wrapping_sub(1) };
            Ok(Val::Optional(list.list_item(at).map(Rc::new)))
        }
        _ => Err(Fault::Error(String::new())),
    })())
    .filter(|outcome| !matches!(outcome, Err(Fault::Error(message)) if message.is_empty()))
}

/// `items` ordered by `keys` (the same length), stably, as cel-go's sort and sortBy: keys of
/// one type that CEL orders.
fn sorted<'a>(items: Vec<Val<'a>>, keys: &[Val<'a>]) -> Result<Vec<Val<'a>>> {
    if let Some(first) = keys.first() {
        for key in keys {
            if key.type_name() != first.type_name() {
                return error("list elements must have the same type");
            }
            compare(key, key)?;
        }
    }
    let mut order: Vec<usize> = (0..items.len()).collect();
    let mut failed = None;
    order.sort_by(|&a, &b| {
        compare(&keys[a], &keys[b]).unwrap_or_else(|fault| {
            failed.get_or_insert(fault);
            Ordering::Equal
        })
    });
    if let Some(fault) = failed {
        return Err(fault);
    }
    let mut items: Vec<Option<Val<'a>>> = items.into_iter().map(Some).collect();
    Ok(order
        .into_iter()
        .filter_map(|at| items[at].take())
        .collect())
}

/// `list.sortBy(variable, key)`: the list ordered by each item's key (ext/lists.go), which
/// cel-go expands to the keys mapped (a `map` comprehension) and a sort by them.
pub(super) fn sort_by<'a>(
    evaluation: &mut Evaluation<'a>,
    list: Val<'a>,
    variable: &'a str,
    key: &'a Expr,
) -> Result<Val<'a>> {
    let Some(items) = list.items() else {
        return no_overload("sortBy", &[&list]);
    };
    // cel-go binds the list to a variable, read twice.
    evaluation.spend(2)?;
    let keys = evaluation.fold(Fold::Map, list.clone(), (variable, None), None, key)?;
    evaluation.spend(self_compare(&keys))?;
    let keys = keys.items().unwrap_or_default();
    sorted(items, &keys).map(|items| Val::List(Rc::new(items)))
}

/// `lists.range(n)`: 0 to n - 1, charged as the list it builds.
pub(super) fn range<'a>(evaluation: &mut Evaluation<'a>, count: Val<'a>) -> Result<Val<'a>> {
    let Val::Int(count) = count else {
        return no_overload("lists.range", &[&count]);
    };
    let count = count.max(0);
    evaluation.spend(allocating(count as u64, 1.0))?;
    Ok(Val::List(Rc::new((0..count).map(Val::Int).collect())))
}

/// `flatten(depth)`: nested lists `depth` levels down spliced in, charged (ext/lists.go) as
/// the list's size times the depth — a negative depth overflows cel-go's cost to its limit.
fn flatten<'a>(evaluation: &mut Evaluation<'a>, list: &Val<'a>, depth: i64) -> Result<Val<'a>> {
    let len = list.list_len().unwrap_or(0) as u64;
    if depth < 0 {
        evaluation.spend(u64::MAX)?;
    }
    let paid = allocating(len, depth as f64);
    evaluation.spend(paid)?;
    let mut flat = Vec::new();
    let mut credit = paid.saturating_mul(4);
    flatten_into(evaluation, list, depth, &mut flat, &mut credit)?;
    Ok(Val::List(Rc::new(flat)))
}

fn flatten_into<'a>(
    evaluation: &mut Evaluation<'a>,
    list: &Val<'a>,
    depth: i64,
    out: &mut Vec<Val<'a>>,
    credit: &mut u64,
) -> Result<()> {
    for item in list.elements().into_iter().flatten() {
        if depth > 0 && item.is_list() {
            flatten_into(evaluation, &item, depth - 1, out, credit)?;
        } else {
            // Items past those charged for are charged as they are copied.
            charge_item(evaluation, credit)?;
            out.push(item);
        }
    }
    Ok(())
}

/// `join(separator)`: Kubernetes charges two traversals of the result; its length is
/// counted before it is built.
fn join<'a>(evaluation: &mut Evaluation<'a>, list: &Val<'a>, separator: &str) -> Result<Val<'a>> {
    let mut length: u64 = 0;
    let mut count: u64 = 0;
    for item in list.elements().into_iter().flatten() {
        match &item {
            Val::Str(text) => length += evaluation.characters(text).0 as u64,
            other => return no_overload("join", &[other]),
        }
        count += 1;
    }
    let separators = count.saturating_sub(1) * separator.chars().count() as u64;
    evaluation.spend(traversal(2 * (length + separators)))?;
    let mut joined = String::new();
    for (at, item) in list.elements().into_iter().flatten().enumerate() {
        if at > 0 {
            joined.push_str(separator);
        }
        if let Val::Str(text) = item {
            joined.push_str(&text);
        }
    }
    Ok(Val::owned(joined))
}

fn sum<'a>(items: &[Val<'a>]) -> Result<Val<'a>> {
    let mut total = match items.first() {
        Some(Val::Double(_)) => Val::Double(0.0),
        Some(Val::Uint(_)) => Val::Uint(0),
        Some(Val::Duration(_)) => Val::Duration(0),
        _ => Val::Int(0),
    };
    for item in items {
        total = match (&total, item) {
            (Val::Int(a), Val::Int(b)) => Val::Int(
                a.checked_add(*b)
                    .ok_or_else(|| Fault::Error("integer overflow".into()))?,
            ),
            (Val::Uint(a), Val::Uint(b)) => Val::Uint(
                a.checked_add(*b)
                    .ok_or_else(|| Fault::Error("unsigned integer overflow".into()))?,
            ),
            (Val::Double(a), Val::Double(b)) => Val::Double(a + b),
            (Val::Duration(a), Val::Duration(b)) => Val::Duration(checked_duration(a + b)?),
            _ => return no_overload("sum", &[&total, item]),
        };
    }
    Ok(total)
}

fn extreme<'a>(items: &[Val<'a>], greatest: bool) -> Result<Val<'a>> {
    let Some(mut best) = items.first().cloned() else {
        return error(format!(
            "{}(list) argument must not be empty",
            if greatest { "max" } else { "min" }
        ));
    };
    for item in &items[1..] {
        let ordering = compare(item, &best)?;
        if ordering
            == if greatest {
                Ordering::Greater
            } else {
                Ordering::Less
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
            .map_err(|_| Fault::Error(format!("cannot convert {:?} to an int", &*text)))?,
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
            .map_err(|_| Fault::Error(format!("cannot convert {:?} to a uint", &*text)))?,
        other => return no_overload("uint", &[&other]),
    }))
}

fn to_double<'a>(value: Val<'a>) -> Result<Val<'a>> {
    Ok(Val::Double(match value {
        Val::Double(value) => value,
        Val::Int(value) => value as f64,
        Val::Uint(value) => value as f64,
        Val::Str(text) => go_float(&text)
            .ok_or_else(|| Fault::Error(format!("cannot convert {:?} to a double", &*text)))?,
        other => return no_overload("double", &[&other]),
    }))
}

/// Go's strconv.ParseFloat for what Rust's parser reads differently: `Inf`, `+Inf`, `NaN`
/// in any case, as well as numbers.
fn go_float(text: &str) -> Option<f64> {
    match text.to_ascii_lowercase().as_str() {
        "inf" | "+inf" | "infinity" | "+infinity" => Some(f64::INFINITY),
        "-inf" | "-infinity" => Some(f64::NEG_INFINITY),
        "nan" => Some(f64::NAN),
        _ => text.parse().ok(),
    }
}

fn to_bool<'a>(value: Val<'a>) -> Result<Val<'a>> {
    match value {
        Val::Bool(value) => Ok(Val::Bool(value)),
        Val::Str(text) => match &*text {
            "1" | "t" | "T" | "true" | "TRUE" | "True" => Ok(Val::Bool(true)),
            "0" | "f" | "F" | "false" | "FALSE" | "False" => Ok(Val::Bool(false)),
            _ => error(format!("cannot convert {:?} to a bool", &*text)),
        },
        other => no_overload("bool", &[&other]),
    }
}

/// The offset east of UTC, in seconds, that a timestamp getter's time zone names, as cel-go
/// reads it (common/types/timestamp.go): with a `:`, hours and minutes as Go's Atoi reads
/// them (`+02:00`, `-5:30`, `02:00`); without, a zone name, of which only UTC is known
/// offline (a named zone of the tz database is refused rather than guessed).
fn zone_offset(zone: &str) -> Result<i64> {
    let Some((hours, minutes)) = zone.split_once(':') else {
        return match zone {
            "" | "UTC" => Ok(0),
            _ => error(format!("unknown time zone {zone}")),
        };
    };
    let atoi = |text: &str| -> Result<i64> {
        let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return error(format!("strconv.Atoi: parsing {text:?}: invalid syntax"));
        }
        text.parse::<i64>().map_err(|_| {
            Fault::Error(format!(
                "strconv.Atoi: parsing {text:?}: value out of range"
            ))
        })
    };
    let (hours, minutes) = (atoi(hours)?, atoi(minutes)?);
    let offset = if zone.starts_with('-') {
        hours.saturating_mul(60).saturating_sub(minutes)
    } else {
        hours.saturating_mul(60).saturating_add(minutes)
    };
    Ok(offset.saturating_mul(60))
}

fn timestamp_method<'a>(nanos: i128, function: &str, args: &[Val<'a>]) -> Option<Result<Val<'a>>> {
    let offset = match args {
        [] => 0,
        [Val::Str(zone)] => match zone_offset(zone) {
            Ok(offset) => offset,
            Err(fault) => return Some(Err(fault)),
        },
        _ => return None,
    };
    let nanos = nanos + i128::from(offset) * NANOS;
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

/// Go's strconv.Quote, as `strings.quote` writes a string.
fn quote(text: &str) -> String {
    let mut quoted = String::with_capacity(text.len() + 2);
    quoted.push('"');
    for c in text.chars() {
        match c {
            '"' => quoted.push_str("\\\""),
            '\\' => quoted.push_str("\\\\"),
            '\n' => quoted.push_str("\\n"),
            '\r' => quoted.push_str("\\r"),
            '\t' => quoted.push_str("\\t"),
            '\u{07}' => quoted.push_str("\\a"),
            '\u{08}' => quoted.push_str("\\b"),
            '\u{0C}' => quoted.push_str("\\f"),
            '\u{0B}' => quoted.push_str("\\v"),
            c if c.is_control() => quoted.push_str(&format!("\\x{:02x}", c as u32)),
            c => quoted.push(c),
        }
    }
    quoted.push('"');
    quoted
}
