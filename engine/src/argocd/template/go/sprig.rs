//! The sprig v3 functions (Masterminds/sprig `GenericFuncMap`) ApplicationSets use most, each
//! to sprig's own rule: strings, defaults, lists, dicts, conversions, regular expressions,
//! encodings and integer math. A sprig function not here is not defined (see the module doc).

use super::coerce::{
    NIL_DEREFERENCE, empty, list_of, map_of, merge_maps, regex, to_int64, type_kind, within_bound,
};
use super::encoding::{
    adler32, base32_encode, base64_decode, base64_encode, go_json, sha1_hex, sha256_hex,
    unsupported_float,
};
use super::printf::sprintf;
use super::signature::{Func, Param, f};
use super::value::{Elem, Value, sprint_value};
use std::collections::BTreeMap;
use std::rc::Rc;

use Param::{Any, Int, Map, Str};

fn s(args: &[Value], i: usize) -> &str {
    match &args[i] {
        Value::String(s) => s,
        _ => "",
    }
}

fn n(args: &[Value], i: usize) -> i64 {
    match &args[i] {
        Value::Int(n, _) => *n,
        _ => 0,
    }
}

fn ok(text: String) -> Result<Value, String> {
    Ok(Value::String(text))
}

/// sprig `strval`: a string as it is, anything else as `%v` writes it.
pub(crate) fn strval(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => sprint_value(other),
    }
}

/// sprig `strslice`: a list's non-nil items as strings; nil none; anything else one string.
pub(crate) fn strslice(value: &Value) -> Vec<String> {
    match value {
        Value::List(items, _) => items.iter().filter(|v| !v.is_nil()).map(strval).collect(),
        Value::Missing | Value::Nil => Vec::new(),
        other => vec![strval(other)],
    }
}

/// What sprig's JSON writers answer: the text, or nothing when `json.Marshal` fails.
fn marshal_or_empty(value: &Value, write: impl Fn(&serde_json::Value) -> String) -> String {
    if unsupported_float(value).is_some() {
        return String::new();
    }
    write(&value.to_json())
}

pub(crate) fn to_float64(value: &Value) -> f64 {
    match value {
        Value::Int(i, _) => *i as f64,
        Value::Float(f) => *f,
        Value::Bool(b) => f64::from(u8::from(*b)),
        Value::String(s) => s.parse().unwrap_or(0.0),
        _ => 0.0,
    }
}

/// Go's `strings.Title`: the first letter of each word upper-cased.
fn title(text: &str) -> String {
    let mut out = String::new();
    let mut previous = ' ';
    for c in text.chars() {
        let separator = if previous.is_ascii() {
            !(previous.is_ascii_alphanumeric() || previous == '_')
        } else {
            !(previous.is_alphanumeric()) && previous.is_whitespace()
        };
        if separator {
            out.extend(c.to_uppercase());
        } else {
            out.push(c);
        }
        previous = c;
    }
    out
}

/// `strings.Replace(s, old, new, -1)`: an empty `old` matches before every rune and at the end.
fn replace_all(s: &str, old: &str, new: &str) -> Result<String, String> {
    let replaced = if old.is_empty() {
        s.chars().count() + 1
    } else {
        s.matches(old).count()
    };
    within_bound((replaced as u128) * (new.len() as u128) + s.len() as u128)?;
    if old.is_empty() {
        let mut out = String::from(new);
        for c in s.chars() {
            out.push(c);
            out.push_str(new);
        }
        return Ok(out);
    }
    Ok(s.replace(old, new))
}

/// sprig `indent`: `spaces` spaces before every line of `text`.
fn indent(spaces: i64, text: &str) -> Result<String, String> {
    let spaces = spaces.max(0);
    let lines = text.matches('\n').count() as u128 + 1;
    within_bound(spaces as u128 * lines + text.len() as u128)?;
    let pad = " ".repeat(spaces as usize);
    Ok(format!("{pad}{}", text.replace('\n', &format!("\n{pad}"))))
}

/// `Regexp.ReplaceAllString` as the regex crate's `replace_all` makes it, each match's
/// replacement written by `replace`, stopping once the text passes what a call may build.
pub(crate) fn replace_matches(
    re: &regex::Regex,
    text: &str,
    replace: impl Fn(&regex::Captures<'_>, &mut String),
) -> Result<String, String> {
    let mut out = String::new();
    let mut last = 0;
    for captures in re.captures_iter(text) {
        let whole = captures.get(0).expect("a match has its whole");
        out.push_str(&text[last..whole.start()]);
        replace(&captures, &mut out);
        last = whole.end();
        within_bound(out.len() as u128)?;
    }
    out.push_str(&text[last..]);
    Ok(out)
}

/// `strings.Split(s, sep)`: an empty separator splits into runes.
fn split(s: &str, sep: &str) -> Vec<String> {
    if sep.is_empty() {
        return s.chars().map(String::from).collect();
    }
    s.split(sep).map(String::from).collect()
}

fn byte_slice(s: &str, start: usize, end: usize) -> Result<String, String> {
    if start > end || end > s.len() {
        return Err(format!(
            "runtime error: slice bounds out of range [{start}:{end}]"
        ));
    }
    Ok(String::from_utf8_lossy(&s.as_bytes()[start..end]).into_owned())
}

fn int_math(args: &[Value], op: fn(i64, i64) -> Result<i64, String>) -> Result<Value, String> {
    let mut acc = to_int64(&args[0]);
    for arg in &args[1..] {
        acc = op(acc, to_int64(arg))?;
    }
    Ok(Value::int64(acc))
}

/// Go's `strings.ToUpper`: rune by rune (`unicode.ToUpper`), so `ß` stays `ß`.
fn go_upper(text: &str) -> String {
    text.chars()
        .map(|c| {
            let mut upper = c.to_uppercase();
            match (upper.next(), upper.next()) {
                (Some(one), None) => one,
                _ => c,
            }
        })
        .collect()
}

/// Go's `strings.ToLower`: rune by rune (`unicode.ToLower`).
fn go_lower(text: &str) -> String {
    text.chars()
        .map(|c| c.to_lowercase().next().unwrap_or(c))
        .collect()
}

/// mergo `Merge` without override: a key the destination lacks or holds empty takes the
/// source's value; two maps under one key merge deeply.
fn merge_into(dst: &super::value::MapRef, src: &super::value::MapRef) {
    merge_maps(dst, src, false);
}

pub(crate) fn lookup(name: &str) -> Option<Func> {
    Some(match name {
        // Strings.
        "upper" => f(&[Str], None, |a, _| ok(go_upper(s(a, 0)))),
        "lower" => f(&[Str], None, |a, _| ok(go_lower(s(a, 0)))),
        "title" => f(&[Str], None, |a, _| ok(title(s(a, 0)))),
        "trim" => f(&[Str], None, |a, _| ok(s(a, 0).trim().to_string())),
        "trimAll" => f(&[Str, Str], None, |a, _| {
            ok(s(a, 1).trim_matches(|c| s(a, 0).contains(c)).to_string())
        }),
        "trimPrefix" => f(&[Str, Str], None, |a, _| {
            ok(s(a, 1).strip_prefix(s(a, 0)).unwrap_or(s(a, 1)).to_string())
        }),
        "trimSuffix" => f(&[Str, Str], None, |a, _| {
            ok(s(a, 1).strip_suffix(s(a, 0)).unwrap_or(s(a, 1)).to_string())
        }),
        "replace" => f(&[Str, Str, Str], None, |a, _| {
            ok(replace_all(s(a, 2), s(a, 0), s(a, 1))?)
        }),
        "contains" => f(&[Str, Str], None, |a, _| {
            Ok(Value::Bool(s(a, 1).contains(s(a, 0))))
        }),
        "hasPrefix" => f(&[Str, Str], None, |a, _| {
            Ok(Value::Bool(s(a, 1).starts_with(s(a, 0))))
        }),
        "hasSuffix" => f(&[Str, Str], None, |a, _| {
            Ok(Value::Bool(s(a, 1).ends_with(s(a, 0))))
        }),
        "quote" => f(&[], Some(Any), |a, _| {
            let parts: Vec<String> = a
                .iter()
                .filter(|v| !v.is_nil())
                .map(|v| sprintf("%q", &[Value::String(strval(v))]))
                .collect();
            ok(parts.join(" "))
        }),
        "squote" => f(&[], Some(Any), |a, _| {
            let parts: Vec<String> = a
                .iter()
                .filter(|v| !v.is_nil())
                .map(|v| format!("'{}'", strval(v)))
                .collect();
            ok(parts.join(" "))
        }),
        "cat" => f(&[], Some(Any), |a, _| {
            let parts: Vec<String> = a.iter().filter(|v| !v.is_nil()).map(sprint_value).collect();
            ok(parts.join(" "))
        }),
        "indent" => f(&[Int, Str], None, |a, _| ok(indent(n(a, 0), s(a, 1))?)),
        "nindent" => f(&[Int, Str], None, |a, _| {
            ok(format!("\n{}", indent(n(a, 0), s(a, 1))?))
        }),
        "substr" => f(&[Int, Int, Str], None, |a, _| {
            let (start, end, text) = (n(a, 0), n(a, 1), s(a, 2));
            if start < 0 {
                return ok(byte_slice(text, 0, end.max(0) as usize)?);
            }
            if end < 0 || end as usize > text.len() {
                return ok(byte_slice(text, start as usize, text.len())?);
            }
            ok(byte_slice(text, start as usize, end as usize)?)
        }),
        "trunc" => f(&[Int, Str], None, |a, _| {
            let (c, text) = (n(a, 0), s(a, 1));
            let len = text.len() as i64;
            if c < 0 && len + c > 0 {
                return ok(byte_slice(text, (len + c) as usize, text.len())?);
            }
            if c >= 0 && len > c {
                return ok(byte_slice(text, 0, c as usize)?);
            }
            ok(text.to_string())
        }),
        "repeat" => f(&[Int, Str], None, |a, _| {
            if n(a, 0) < 0 {
                return Err("strings: negative Repeat count".to_string());
            }
            within_bound(n(a, 0) as u128 * s(a, 1).len() as u128)?;
            ok(s(a, 1).repeat(n(a, 0) as usize))
        }),
        "split" => f(&[Str, Str], None, |a, _| {
            let parts = split(s(a, 1), s(a, 0));
            let map: BTreeMap<String, Value> = parts
                .into_iter()
                .enumerate()
                .map(|(i, p)| (format!("_{i}"), Value::String(p)))
                .collect();
            Ok(Value::Map(Rc::new(map.into()), Elem::String))
        }),
        "splitList" => f(&[Str, Str], None, |a, _| {
            Ok(Value::strings(split(s(a, 1), s(a, 0))))
        }),
        "join" => f(&[Str, Any], None, |a, _| ok(strslice(&a[1]).join(s(a, 0)))),
        "sortAlpha" => f(&[Any], None, |a, _| {
            let mut items = match &a[0] {
                Value::List(..) => strslice(&a[0]),
                other => vec![strval(other)],
            };
            items.sort();
            Ok(Value::strings(items))
        }),
        "slice" => f(&[Any], Some(Any), |a, _| {
            let items = match &a[0] {
                Value::List(items, _) => items,
                Value::Missing | Value::Nil => return Err(NIL_DEREFERENCE.to_string()),
                other => {
                    return Err(format!(
                        "list should be type of slice or array but {}",
                        type_kind(other)
                    ));
                }
            };
            if items.is_empty() {
                return Ok(Value::Nil);
            }
            let start = a.get(1).map_or(0, to_int64);
            let end = a.get(2).map_or(items.len() as i64, to_int64);
            if start < 0 || end < start || end as usize > items.len() {
                return Err("reflect.Value.Slice: slice index out of bounds".to_string());
            }
            let elem = if let Value::List(_, elem) = &a[0] {
                *elem
            } else {
                Elem::Any
            };
            Ok(Value::List(
                Rc::new(items[start as usize..end as usize].to_vec()),
                elem,
            ))
        }),
        // Defaults.
        "default" => f(&[Any], Some(Any), |a, _| {
            Ok(match a.get(1) {
                Some(given) if !empty(given) => given.clone(),
                _ => a[0].clone(),
            })
        }),
        "empty" => f(&[Any], None, |a, _| Ok(Value::Bool(empty(&a[0])))),
        "coalesce" => f(&[], Some(Any), |a, _| {
            Ok(a.iter().find(|v| !empty(v)).cloned().unwrap_or(Value::Nil))
        }),
        "ternary" => f(&[Any, Any, Param::Bool], None, |a, _| {
            Ok(if a[2].truth() {
                a[0].clone()
            } else {
                a[1].clone()
            })
        }),
        // Lists.
        "list" => f(&[], Some(Any), |a, _| Ok(Value::list(a.to_vec()))),
        "first" => f(&[Any], None, |a, _| {
            Ok(list_of(&a[0], "find first")?
                .first()
                .cloned()
                .unwrap_or(Value::Nil))
        }),
        "last" => f(&[Any], None, |a, _| {
            Ok(list_of(&a[0], "find last")?
                .last()
                .cloned()
                .unwrap_or(Value::Nil))
        }),
        "rest" => f(&[Any], None, |a, _| {
            let items = list_of(&a[0], "find rest")?;
            Ok(Value::list(items.iter().skip(1).cloned().collect()))
        }),
        "initial" => f(&[Any], None, |a, _| {
            let items = list_of(&a[0], "find initial")?;
            Ok(Value::list(items[..items.len().saturating_sub(1)].to_vec()))
        }),
        "append" | "push" => f(&[Any, Any], None, |a, _| {
            let mut items = list_of(&a[0], "push")?.to_vec();
            items.push(a[1].clone());
            Ok(Value::list(items))
        }),
        "prepend" => f(&[Any, Any], None, |a, _| {
            let mut items = list_of(&a[0], "prepend")?.to_vec();
            items.insert(0, a[1].clone());
            Ok(Value::list(items))
        }),
        "uniq" => f(&[Any], None, |a, _| {
            let mut out: Vec<Value> = Vec::new();
            for item in list_of(&a[0], "find uniq")?.iter() {
                if !out.iter().any(|o| o.deep_equal(item)) {
                    out.push(item.clone());
                }
            }
            Ok(Value::list(out))
        }),
        "has" => f(&[Any, Any], None, |a, _| match &a[1] {
            Value::Missing | Value::Nil => Ok(Value::Bool(false)),
            Value::List(items, _) => Ok(Value::Bool(items.iter().any(|i| i.deep_equal(&a[0])))),
            other => Err(format!("Cannot find has on type {}", type_kind(other))),
        }),
        "without" => f(&[Any], Some(Any), |a, _| {
            let items = list_of(&a[0], "find without")?;
            Ok(Value::list(
                items
                    .iter()
                    .filter(|i| !a[1..].iter().any(|o| o.deep_equal(i)))
                    .cloned()
                    .collect(),
            ))
        }),
        "compact" => f(&[Any], None, |a, _| {
            let items = list_of(&a[0], "compact")?;
            Ok(Value::list(
                items.iter().filter(|i| !empty(i)).cloned().collect(),
            ))
        }),
        // Dicts.
        "dict" => f(&[], Some(Any), |a, _| {
            let mut map = BTreeMap::new();
            for pair in a.chunks(2) {
                let value = pair.get(1).cloned().unwrap_or(Value::String(String::new()));
                map.insert(strval(&pair[0]), value);
            }
            Ok(Value::map(map))
        }),
        "get" => f(&[Map, Str], None, |a, _| {
            Ok(map_of(&a[0])
                .borrow()
                .get(s(a, 1))
                .cloned()
                .unwrap_or(Value::String(String::new())))
        }),
        "set" => f(&[Map, Str, Any], None, |a, _| {
            let map = map_of(&a[0]);
            map.borrow_mut().insert(s(a, 1).to_string(), a[2].clone());
            Ok(Value::Map(map, Elem::Any))
        }),
        "unset" => f(&[Map, Str], None, |a, _| {
            let map = map_of(&a[0]);
            map.borrow_mut().remove(s(a, 1));
            Ok(Value::Map(map, Elem::Any))
        }),
        "hasKey" => f(&[Map, Str], None, |a, _| {
            Ok(Value::Bool(map_of(&a[0]).borrow().contains_key(s(a, 1))))
        }),
        "keys" => f(&[], Some(Map), |a, _| {
            let keys: Vec<String> = a
                .iter()
                .flat_map(|m| map_of(m).borrow().keys().cloned().collect::<Vec<_>>())
                .collect();
            Ok(Value::strings(keys))
        }),
        "values" => f(&[Map], None, |a, _| {
            Ok(Value::list(
                map_of(&a[0]).borrow().values().cloned().collect(),
            ))
        }),
        "pluck" => f(&[Str], Some(Map), |a, _| {
            let found: Vec<Value> = a[1..]
                .iter()
                .filter_map(|m| map_of(m).borrow().get(s(a, 0)).cloned())
                .collect();
            Ok(Value::list(found))
        }),
        "merge" => f(&[Map], Some(Map), |a, _| {
            let dst = map_of(&a[0]);
            for src in &a[1..] {
                merge_into(&dst, &map_of(src));
            }
            Ok(Value::Map(dst, Elem::Any))
        }),
        // Conversions.
        "toString" => f(&[Any], None, |a, _| ok(strval(&a[0]))),
        // json.Marshal's error (a NaN or infinity) is swallowed: the answer is empty.
        "toJson" => f(&[Any], None, |a, _| {
            ok(marshal_or_empty(&a[0], |json| go_json(json, false)))
        }),
        "toPrettyJson" => f(&[Any], None, |a, _| {
            ok(marshal_or_empty(&a[0], |json| go_json(json, true)))
        }),
        "atoi" => f(&[Str], None, |a, _| {
            Ok(Value::int(s(a, 0).parse::<i64>().unwrap_or(0)))
        }),
        "int" => f(&[Any], None, |a, _| Ok(Value::int(to_int64(&a[0])))),
        "int64" => f(&[Any], None, |a, _| Ok(Value::int64(to_int64(&a[0])))),
        "float64" => f(&[Any], None, |a, _| Ok(Value::Float(to_float64(&a[0])))),
        // Regular expressions.
        "regexMatch" => f(&[Str, Str], None, |a, _| {
            Ok(Value::Bool(
                regex(s(a, 0)).is_ok_and(|r| r.is_match(s(a, 1))),
            ))
        }),
        "regexFind" => f(&[Str, Str], None, |a, _| {
            ok(regex(s(a, 0))?
                .find(s(a, 1))
                .map_or(String::new(), |m| m.as_str().to_string()))
        }),
        "regexReplaceAll" => f(&[Str, Str, Str], None, |a, _| {
            replace_matches(&regex(s(a, 0))?, s(a, 1), |captures, out| {
                captures.expand(s(a, 2), out)
            })
            .map(Value::String)
        }),
        // Encodings.
        "b64enc" => f(&[Str], None, |a, _| ok(base64_encode(s(a, 0).as_bytes()))),
        "b64dec" => f(&[Str], None, |a, _| {
            ok(match base64_decode(s(a, 0)) {
                Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
                Err(message) => message,
            })
        }),
        "sha256sum" => f(&[Str], None, |a, _| ok(sha256_hex(s(a, 0).as_bytes()))),
        "sha1sum" => f(&[Str], None, |a, _| ok(sha1_hex(s(a, 0).as_bytes()))),
        "adler32sum" => f(&[Str], None, |a, _| {
            ok(adler32(s(a, 0).as_bytes()).to_string())
        }),
        "b32enc" => f(&[Str], None, |a, _| ok(base32_encode(s(a, 0).as_bytes()))),
        // Integer math.
        "add" => f(&[], Some(Any), |a, _| {
            if a.is_empty() {
                Ok(Value::int64(0))
            } else {
                int_math(a, |x, y| Ok(x.wrapping_add(y)))
            }
        }),
        "sub" => f(&[Any, Any], None, |a, _| {
            int_math(a, |x, y| Ok(x.wrapping_sub(y)))
        }),
        "mul" => f(&[Any], Some(Any), |a, _| {
            int_math(a, |x, y| Ok(x.wrapping_mul(y)))
        }),
        "div" => f(&[Any, Any], None, |a, _| {
            int_math(a, |x, y| {
                if y == 0 {
                    Err("runtime error: integer divide by zero".into())
                } else {
                    Ok(x.wrapping_div(y))
                }
            })
        }),
        "mod" => f(&[Any, Any], None, |a, _| {
            int_math(a, |x, y| {
                if y == 0 {
                    Err("runtime error: integer divide by zero".into())
                } else {
                    Ok(x.wrapping_rem(y))
                }
            })
        }),
        "max" => f(&[Any], Some(Any), |a, _| int_math(a, |x, y| Ok(x.max(y)))),
        "min" => f(&[Any], Some(Any), |a, _| int_math(a, |x, y| Ok(x.min(y)))),
        _ => return None,
    })
}
