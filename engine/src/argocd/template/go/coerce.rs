//! How sprig's functions read their operands, shared by all of them: emptiness, the list or
//! map an operand is, spf13/cast's integers, Go's regular expressions and mergo's merge.

use super::value::Value;
use std::rc::Rc;

/// sprig `empty`: the zero value of its type.
pub(crate) fn empty(value: &Value) -> bool {
    !value.truth()
}

/// What Go says when sprig asks `reflect.TypeOf(nil).Kind()`.
pub(crate) const NIL_DEREFERENCE: &str =
    "runtime error: invalid memory address or nil pointer dereference";

/// The most one function call may build (bytes of a string, items of a list), and, in
/// [`super::exec`], the most work one template's execution may do: Argo CD has no bound, and a
/// pull request's `{{ until 3000000000 }}` would take the job's memory.
pub(crate) const MOST_BUILT: usize = 1 << 22;

/// A call that would build more than [`MOST_BUILT`].
pub(crate) fn past_bound(size: u128) -> String {
    format!(
        "it would build {size} items or bytes, past fedrender's bound of {MOST_BUILT} on what one \
         template builds (a pull request may not exhaust the job)"
    )
}

/// `Err` when `size` is past [`MOST_BUILT`].
pub(crate) fn within_bound(size: u128) -> Result<(), String> {
    if size > MOST_BUILT as u128 {
        return Err(past_bound(size));
    }
    Ok(())
}

/// The list a sprig list function works on; `what` is its message's verb, `find first` for
/// "Cannot find first on type string".
pub(crate) fn list_of<'a>(value: &'a Value, what: &str) -> Result<&'a Rc<Vec<Value>>, String> {
    match value {
        Value::Missing | Value::Nil => Err(NIL_DEREFERENCE.to_string()),
        Value::List(items, _) => Ok(items),
        other => Err(format!("Cannot {what} on type {}", type_kind(other))),
    }
}

/// reflect's kind name, as sprig's list messages print `reflect.TypeOf(list).Kind()`.
pub(crate) fn type_kind(value: &Value) -> &'static str {
    match value {
        Value::Missing | Value::Nil => "invalid",
        Value::Bool(_) => "bool",
        Value::Int(_, super::value::IntType::Int) => "int",
        Value::Int(_, super::value::IntType::Int64) => "int64",
        Value::Int(..) => "uint64",
        Value::Version(_, super::value::VersionKind::Pointer) => "ptr",
        Value::Version(..) => "struct",
        Value::Float(_) => "float64",
        Value::String(_) => "string",
        Value::List(..) => "slice",
        Value::Map(..) => "map",
        Value::Time(_) => "struct",
    }
}

pub(crate) fn map_of(value: &Value) -> super::value::MapRef {
    match value {
        Value::Map(map, _) => map.clone(),
        _ => Rc::new(Default::default()),
    }
}

/// spf13/cast `ToInt64`: floats truncated, strings read with Go's base prefixes, the rest 0.
pub(crate) fn to_int64(value: &Value) -> i64 {
    match value {
        Value::Int(i, _) => *i,
        Value::Float(f) => go_float_to_int(*f),
        Value::Bool(b) => i64::from(*b),
        Value::String(s) => {
            let trimmed = trim_zero_decimal(s);
            super::number::parse_int(&trimmed).unwrap_or(0)
        }
        _ => 0,
    }
}

/// Go's `int64(f)` on amd64: out of range (or NaN) is the integer indefinite, `math.MinInt64`.
fn go_float_to_int(f: f64) -> i64 {
    if !(-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&f) {
        i64::MIN
    } else {
        f as i64
    }
}

/// cast `trimZeroDecimal`: `1.0` and `1.00` read as `1`.
fn trim_zero_decimal(s: &str) -> String {
    match s.split_once('.') {
        Some((whole, fraction))
            if !whole.is_empty() && !fraction.is_empty() && fraction.chars().all(|c| c == '0') =>
        {
            whole.to_string()
        }
        _ => s.to_string(),
    }
}

/// `regexp.MustCompile`'s panic: `regexp: Compile(PATTERN): error parsing regexp: …`.
pub(crate) fn regex(pattern: &str) -> Result<regex::Regex, String> {
    compile_regex(pattern).map_err(|error| {
        let quoted =
            if pattern.contains('`') || pattern.chars().any(|c| c.is_control() && c != '\t') {
                super::super::quote::quote(pattern)
            } else {
                format!("`{pattern}`")
            };
        format!("regexp: Compile({quoted}): {error}")
    })
}

/// `regexp.Compile`'s error, what sprig's `must` regular-expression functions return:
/// `error parsing regexp: …`, in Go's words for the mistakes Rust's parser names alike; other
/// mistakes keep Rust's words.
pub(crate) fn compile_regex(pattern: &str) -> Result<regex::Regex, String> {
    regex::Regex::new(pattern).map_err(|error| {
        let rust = error.to_string();
        let go = if rust.contains("unclosed group") {
            format!("missing closing ): `{pattern}`")
        } else if rust.contains("unopened group") {
            format!("unexpected ): `{pattern}`")
        } else if rust.contains("unclosed character class") {
            format!(
                "missing closing ]: `{}`",
                &pattern[pattern.rfind('[').unwrap_or(0)..]
            )
        } else if rust.contains("repetition operator missing expression") {
            format!(
                "missing argument to repetition operator: `{}`",
                repetition_at_fault(pattern)
            )
        } else {
            rust.lines()
                .last()
                .unwrap_or("invalid syntax")
                .trim_start_matches("error: ")
                .to_string()
        };
        format!("error parsing regexp: {go}")
    })
}

/// The repetition operator a pattern's parse fails at, with its non-greedy `?`, as Go's
/// message quotes it.
fn repetition_at_fault(pattern: &str) -> &str {
    let Err(error) = regex_syntax::ast::parse::Parser::new().parse(pattern) else {
        return "";
    };
    let span = error.span();
    let mut end = span
        .end
        .offset
        .max(span.start.offset + 1)
        .min(pattern.len());
    if pattern[end..].starts_with('?') {
        end += 1;
    }
    pattern.get(span.start.offset..end).unwrap_or("")
}

pub(crate) fn merge_maps(dst: &super::value::MapRef, src: &super::value::MapRef, overwrite: bool) {
    let src = src.borrow().clone();
    for (key, value) in src {
        // A nil source value is skipped by Merge and written by MergeWithOverwrite.
        if value.is_nil() {
            if overwrite {
                dst.borrow_mut().insert(key, value);
            }
            continue;
        }
        let existing = dst.borrow().get(&key).cloned();
        if let (Some(Value::Map(d, _)), Value::Map(s, _)) = (&existing, &value) {
            if !Rc::ptr_eq(d, s) {
                merge_maps(d, s, overwrite);
            }
            continue;
        }
        if !overwrite && existing.as_ref().is_some_and(|v| !empty(v)) {
            continue;
        }
        dst.borrow_mut().insert(key, value);
    }
}
