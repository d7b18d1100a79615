//! More of sprig v3 (Masterminds/sprig functions.go): the dict, list, JSON, regular-expression,
//! reflection and counting functions ApplicationSets reach for beside the common ones.

use super::coerce::{
    NIL_DEREFERENCE, empty, list_of, map_of, merge_maps, regex, to_int64, type_kind, within_bound,
};
use super::encoding::{base32_decode, go_json_raw, sha512_hex, unsupported_float};
use super::go_json::unmarshal;
use super::signature::{Func, Param, f};
use super::sprig::{strslice, strval};
use super::value::{Elem, Value};
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

/// A failed Go type assertion, `interface conversion: interface {} is float64, not string`.
fn conversion(value: &Value, want: &str) -> String {
    let got = if value.is_nil() {
        "nil"
    } else {
        value.type_name()
    };
    format!("interface conversion: interface {{}} is {got}, not {want}")
}

fn ints(items: Vec<i64>) -> Value {
    Value::List(
        Rc::new(items.into_iter().map(Value::int).collect()),
        Elem::Int,
    )
}

/// `fmt.Sprintf("%T", value)`, as sprig's `typeOf` writes it.
fn go_type_of(value: &Value) -> &'static str {
    if value.is_nil() {
        "<nil>"
    } else {
        value.type_name()
    }
}

/// sprig `chunk`, with Go's float arithmetic for the number of chunks and the last one's
/// length, so that a size of zero or below fails (or answers nothing) where Go's does.
fn chunk(size: i64, list: &Value) -> Result<Value, String> {
    let items = match list {
        Value::Missing | Value::Nil => return Err(NIL_DEREFERENCE.to_string()),
        Value::List(items, _) => items,
        other => return Err(format!("Cannot chunk type {}", type_kind(other))),
    };
    let len = items.len() as f64;
    let go_int = |x: f64| {
        if x.is_finite() && x.abs() < 9.2e18 {
            x as i64
        } else {
            i64::MIN
        }
    };
    const OUT_OF_RANGE: &str = "runtime error: makeslice: len out of range";
    let count = go_int(((len - 1.0) / size as f64).floor() + 1.0);
    if count < 0 {
        return Err(OUT_OF_RANGE.into());
    }
    let mut chunks = Vec::new();
    for i in 0..count {
        let mut chunk_len = size;
        if i == count - 1 {
            chunk_len = go_int((len % size as f64).floor());
            if chunk_len == 0 {
                chunk_len = size;
            }
        }
        if chunk_len < 0 {
            return Err(OUT_OF_RANGE.into());
        }
        let start = (i * size) as usize;
        let end = start + chunk_len as usize;
        let chunk = items
            .get(start..end)
            .ok_or("runtime error: index out of range")?;
        chunks.push(Value::list(chunk.to_vec()));
    }
    Ok(Value::list(chunks))
}

/// sprig `seq`: like GNU seq, 1 to N, or FIRST to LAST, or FIRST by STEP to LAST, written with
/// spaces; a step away from LAST, or another number of arguments, writes nothing.
fn seq(bounds: &[i64]) -> Result<Value, String> {
    let (start, end, step) = match *bounds {
        [end] => (1, end, if end < 1 { -1 } else { 1 }),
        [start, end] => (start, end, if end < start { -1 } else { 1 }),
        [start, step, end] => {
            if end < start && step > 0 {
                return Ok(Value::String(String::new()));
            }
            (start, end, step)
        }
        _ => return Ok(Value::String(String::new())),
    };
    let direction = if end < start { -1 } else { 1 };
    let numbers = until_step(start, end.wrapping_add(direction), step)?;
    Ok(Value::String(
        numbers
            .iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(" "),
    ))
}

/// `strconv.ParseInt(text, 8, 64)`: an optional sign, then octal digits (underscores are
/// only allowed with a base prefix, which base 8 has not).
fn octal(text: &str) -> Option<i64> {
    let (negative, digits) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if digits.is_empty() || !digits.bytes().all(|b| (b'0'..=b'7').contains(&b)) {
        return None;
    }
    let magnitude = i128::from_str_radix(digits, 8).ok()?;
    i64::try_from(if negative { -magnitude } else { magnitude }).ok()
}

/// sprig `untilStep`: from `start` towards `stop` by `step`, empty when the step points away.
fn until_step(start: i64, stop: i64, step: i64) -> Result<Vec<i64>, String> {
    if step != 0 && (stop < start) == (step < 0) {
        let span = (i128::from(stop) - i128::from(start)).unsigned_abs();
        within_bound(span / i128::from(step).unsigned_abs())?;
    }
    Ok(until_step_unbounded(start, stop, step))
}

fn until_step_unbounded(start: i64, stop: i64, step: i64) -> Vec<i64> {
    let mut out = Vec::new();
    if stop < start {
        if step >= 0 {
            return out;
        }
        let mut i = start;
        while i > stop {
            out.push(i);
            i += step;
        }
        return out;
    }
    if step <= 0 {
        return out;
    }
    let mut i = start;
    while i < stop {
        out.push(i);
        i += step;
    }
    out
}

/// Go's `Regexp.Split(s, n)`.
fn regex_split(re: &regex::Regex, text: &str, n: i64) -> Vec<String> {
    if n == 0 {
        return Vec::new();
    }
    if !re.as_str().is_empty() && text.is_empty() {
        return vec![String::new()];
    }
    let matches: Vec<(usize, usize)> = re.find_iter(text).map(|m| (m.start(), m.end())).collect();
    let mut out = Vec::new();
    let (mut beg, mut end) = (0, 0);
    for (start, stop) in matches {
        if n > 0 && out.len() as i64 == n - 1 {
            break;
        }
        end = start;
        if stop != 0 {
            out.push(text[beg..end].to_string());
        }
        beg = stop;
    }
    if end != text.len() {
        out.push(text[beg..].to_string());
    }
    out
}

/// Go's `regexp.QuoteMeta`: `\.+*?()|[]{}^$` escaped, nothing else.
fn quote_meta(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if "\\.+*?()|[]{}^$".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Go's `strings.SplitN`: none when `n` is 0, every part when `n` is negative, else at most
/// `n`, the last holding the rest; an empty separator splits between characters.
fn split_n(text: &str, separator: &str, n: i64) -> Vec<String> {
    if n == 0 {
        return Vec::new();
    }
    let limit = usize::try_from(n).unwrap_or(usize::MAX);
    if separator.is_empty() {
        let mut parts: Vec<String> = Vec::new();
        let mut rest = text;
        while let Some(first) = rest.chars().next() {
            if parts.len() + 1 == limit {
                break;
            }
            parts.push(first.to_string());
            rest = &rest[first.len_utf8()..];
        }
        if !rest.is_empty() {
            parts.push(rest.to_string());
        }
        return parts;
    }
    text.splitn(limit, separator).map(String::from).collect()
}

/// goutils `Uncapitalize` with no delimiters (sprig `untitle`): the first letter of each word
/// between whitespace lowered, by Go's one-rune mapping.
fn untitle(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut word_starts = true;
    for c in text.chars() {
        if c.is_whitespace() {
            word_starts = true;
            out.push(c);
        } else if word_starts {
            // Rust's lowering may give more than one character (`İ`); Go's gives the first.
            out.push(c.to_lowercase().next().unwrap_or(c));
            word_starts = false;
        } else {
            out.push(c);
        }
    }
    out
}

pub(crate) fn lookup(name: &str) -> Option<Func> {
    Some(match name {
        "dig" => f(&[], Some(Any), |a, _| {
            if a.len() < 3 {
                return Err("dig needs at least three arguments".to_string());
            }
            let Value::Map(mut map, _) = a[a.len() - 1].clone() else {
                return Err(conversion(&a[a.len() - 1], "map[string]interface {}"));
            };
            let default = a[a.len() - 2].clone();
            let mut keys = Vec::new();
            for key in &a[..a.len() - 2] {
                match key {
                    Value::String(k) => keys.push(k.clone()),
                    other => return Err(conversion(other, "string")),
                }
            }
            for (i, key) in keys.iter().enumerate() {
                let step = map.borrow().get(key).cloned();
                let Some(step) = step else { return Ok(default) };
                if i + 1 == keys.len() {
                    return Ok(step);
                }
                match step {
                    Value::Map(next, Elem::Any) => map = next,
                    other => return Err(conversion(&other, "map[string]interface {}")),
                }
            }
            Ok(default)
        }),
        "pick" => f(&[Map], Some(Str), |a, _| {
            let map = map_of(&a[0]);
            let map = map.borrow();
            let picked: BTreeMap<String, Value> = a[1..]
                .iter()
                .filter_map(|k| {
                    let k = if let Value::String(k) = k {
                        k
                    } else {
                        return None;
                    };
                    map.get(k).map(|v| (k.clone(), v.clone()))
                })
                .collect();
            Ok(Value::map(picked))
        }),
        "omit" => f(&[Map], Some(Str), |a, _| {
            let map = map_of(&a[0]);
            let kept: BTreeMap<String, Value> = map
                .borrow()
                .iter()
                .filter(|(k, _)| {
                    !a[1..]
                        .iter()
                        .any(|o| matches!(o, Value::String(o) if o == *k))
                })
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            Ok(Value::map(kept))
        }),
        // copystructure asks nil for its type, which reflect refuses.
        "deepCopy" => f(&[Any], None, |a, _| {
            if a[0].is_nil() {
                return Err("reflect: call of reflect.Value.Type on zero Value".into());
            }
            Ok(a[0].deep_copy())
        }),
        "mergeOverwrite" => f(&[Map], Some(Map), |a, _| {
            let dst = map_of(&a[0]);
            for src in &a[1..] {
                merge_maps(&dst, &map_of(src), true);
            }
            Ok(Value::Map(dst, Elem::Any))
        }),
        "concat" => f(&[], Some(Any), |a, _| {
            let mut out = Vec::new();
            for list in a {
                match list {
                    Value::List(items, _) => out.extend(items.iter().cloned()),
                    Value::Missing | Value::Nil => return Err(NIL_DEREFERENCE.to_string()),
                    other => {
                        return Err(format!("Cannot concat type {} as list", type_kind(other)));
                    }
                }
            }
            Ok(Value::list(out))
        }),
        "reverse" => f(&[Any], None, |a, _| {
            let mut items = list_of(&a[0], "find reverse")?.to_vec();
            items.reverse();
            Ok(Value::list(items))
        }),
        "add1" => f(&[Any], None, |a, _| {
            Ok(Value::int64(to_int64(&a[0]).wrapping_add(1)))
        }),
        "until" => f(&[Int], None, |a, _| {
            let count = n(a, 0);
            Ok(ints(until_step(0, count, if count < 0 { -1 } else { 1 })?))
        }),
        "untilStep" => f(&[Int, Int, Int], None, |a, _| {
            Ok(ints(until_step(n(a, 0), n(a, 1), n(a, 2))?))
        }),
        // What `json.Unmarshal` read, its error swallowed.
        "fromJson" => f(&[Str], None, |a, _| Ok(unmarshal(s(a, 0)).0)),
        // Unlike toJson, toRawJson panics with json.Marshal's error.
        "toRawJson" => f(&[Any], None, |a, _| match unsupported_float(&a[0]) {
            Some(error) => Err(error),
            None => Ok(Value::String(go_json_raw(&a[0].to_json()))),
        }),
        "regexFindAll" => f(&[Str, Str, Int], None, |a, _| {
            let re = regex(s(a, 0))?;
            let limit = n(a, 2);
            let found: Vec<String> = re
                .find_iter(s(a, 1))
                .take(if limit < 0 {
                    usize::MAX
                } else {
                    limit as usize
                })
                .map(|m| m.as_str().to_string())
                .collect();
            Ok(if found.is_empty() {
                Value::strings(Vec::new())
            } else {
                Value::strings(found)
            })
        }),
        "regexSplit" => f(&[Str, Str, Int], None, |a, _| {
            Ok(Value::strings(regex_split(
                &regex(s(a, 0))?,
                s(a, 1),
                n(a, 2),
            )))
        }),
        "regexReplaceAllLiteral" => f(&[Str, Str, Str], None, |a, _| {
            super::sprig::replace_matches(&regex(s(a, 0))?, s(a, 1), |_, out| out.push_str(s(a, 2)))
                .map(Value::String)
        }),
        "regexQuoteMeta" => f(&[Str], None, |a, _| Ok(Value::String(quote_meta(s(a, 0))))),
        "typeOf" => f(&[Any], None, |a, _| {
            Ok(Value::String(
                if a[0].is_nil() {
                    "<nil>"
                } else {
                    a[0].type_name()
                }
                .to_string(),
            ))
        }),
        "typeIs" => f(&[Str, Any], None, |a, _| {
            Ok(Value::Bool(s(a, 0) == go_type_of(&a[1])))
        }),
        // A pointer to the type is like it (sprig `typeIsLike`).
        "typeIsLike" => f(&[Str, Any], None, |a, _| {
            let of = go_type_of(&a[1]);
            Ok(Value::Bool(
                s(a, 0) == of || of.strip_prefix('*') == Some(s(a, 0)),
            ))
        }),
        "kindIs" => f(&[Str, Any], None, |a, _| {
            Ok(Value::Bool(s(a, 0) == type_kind(&a[1])))
        }),
        "toStrings" => f(&[Any], None, |a, _| Ok(Value::strings(strslice(&a[0])))),
        "chunk" => f(&[Int, Any], None, |a, _| chunk(n(a, 0), &a[1])),
        "b32dec" => f(&[Str], None, |a, _| {
            Ok(Value::String(match base32_decode(s(a, 0)) {
                Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
                Err(message) => message,
            }))
        }),
        "sha512sum" => f(&[Str], None, |a, _| {
            Ok(Value::String(sha512_hex(s(a, 0).as_bytes())))
        }),
        "seq" => f(&[], Some(Int), |a, _| {
            let bounds: Vec<i64> = (0..a.len()).map(|i| n(a, i)).collect();
            seq(&bounds)
        }),
        // Octal digits as a number; anything else 0 (sprig `toDecimal`).
        "toDecimal" => f(&[Any], None, |a, _| {
            Ok(Value::int64(octal(&strval(&a[0])).unwrap_or(0)))
        }),
        "kindOf" => f(&[Any], None, |a, _| {
            Ok(Value::String(type_kind(&a[0]).to_string()))
        }),
        "deepEqual" => f(&[Any, Any], None, |a, _| {
            Ok(Value::Bool(a[0].deep_equal(&a[1])))
        }),
        "nospace" => f(&[Str], None, |a, _| {
            Ok(Value::String(
                s(a, 0).chars().filter(|c| !c.is_whitespace()).collect(),
            ))
        }),
        "hello" => f(&[], None, |_, _| Ok(Value::String("Hello!".to_string()))),
        "all" => f(&[], Some(Any), |a, _| {
            Ok(Value::Bool(a.iter().all(|value| !empty(value))))
        }),
        "any" => f(&[], Some(Any), |a, _| {
            Ok(Value::Bool(a.iter().any(|value| !empty(value))))
        }),
        "plural" => f(&[Str, Str, Int], None, |a, _| {
            let word = if n(a, 2) == 1 { s(a, 0) } else { s(a, 1) };
            Ok(Value::String(word.to_string()))
        }),
        "splitn" => f(&[Str, Int, Str], None, |a, _| {
            let map: BTreeMap<String, Value> = split_n(s(a, 2), s(a, 0), n(a, 1))
                .into_iter()
                .enumerate()
                .map(|(i, part)| (format!("_{i}"), Value::String(part)))
                .collect();
            Ok(Value::Map(Rc::new(map.into()), Elem::String))
        }),
        "untitle" => f(&[Str], None, |a, _| Ok(Value::String(untitle(s(a, 0))))),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    // Go regexp's Split and QuoteMeta examples (regexp/example_test.go ExampleRegexp_Split,
    // ExampleQuoteMeta); sprig's docs for until and untilStep.
    #[test]
    fn split_quote_and_count_as_go_and_sprig() {
        let re = regex::Regex::new("a*").unwrap();
        assert_eq!(
            regex_split(&re, "abaabaccadaaae", 5),
            ["", "b", "b", "c", "cadaaae"]
        );
        let re = regex::Regex::new("z+").unwrap();
        assert_eq!(regex_split(&re, "pizza", 2), ["pi", "a"]);
        assert_eq!(quote_meta("Escaping $5"), "Escaping \\$5");
        assert_eq!(until_step(0, 10, 3).unwrap(), [0, 3, 6, 9]);
        assert_eq!(until_step(5, 0, -2).unwrap(), [5, 3, 1]);
        assert!(until_step(0, 5, -1).unwrap().is_empty());
    }
}
