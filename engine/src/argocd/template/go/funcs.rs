//! The function map: text/template's builtins (funcs.go `builtins`), then sprig's and Argo CD's
//! (sprig.rs, argo.rs). A name not here is not defined, and a template using it does not parse.

use super::printf::sprintf;
use super::signature::{Func, Param, f};
use super::value::{Value, sprint, sprintln};

use Param::{Any, Value as V};

/// The function called `name`: sprig's and Argo CD's first, as text/template looks in the
/// template's own map before its builtins.
pub(crate) fn lookup(name: &str) -> Option<Func> {
    let name = same_as(name);
    super::sprig_more::lookup(name)
        .or_else(|| super::sprig::lookup(name))
        .or_else(|| super::sprig_must::lookup(name))
        .or_else(|| super::sprig_float::lookup(name))
        .or_else(|| super::sprig_url::lookup(name))
        .or_else(|| super::sprig_paths::lookup(name))
        .or_else(|| super::sprig_text::lookup(name))
        .or_else(|| super::sprig_semver::lookup(name))
        .or_else(|| super::sprig_time::lookup(name))
        .or_else(|| super::argo::lookup(name))
        .or_else(|| builtin(name))
}

/// The functions sprig has under a second name (functions.go): its `must` list functions,
/// which return the error their namesake panics with (text/template reports the two alike,
/// `error calling NAME: ...`), and three plain synonyms.
fn same_as(name: &str) -> &str {
    match name {
        "mustPush" | "mustAppend" => "push",
        "mustPrepend" => "prepend",
        "mustFirst" => "first",
        "mustLast" => "last",
        "mustRest" => "rest",
        "mustInitial" => "initial",
        "mustReverse" => "reverse",
        "mustCompact" => "compact",
        "mustUniq" => "uniq",
        "mustWithout" => "without",
        "mustHas" => "has",
        "mustSlice" => "slice",
        "mustChunk" => "chunk",
        "mustDeepCopy" => "deepCopy",
        "mustMerge" => "merge",
        "mustMergeOverwrite" => "mergeOverwrite",
        "tuple" => "list",
        "biggest" => "max",
        "trimall" => "trimAll",
        other => other,
    }
}

/// Every function of sprig v3.3.0's `GenericFuncMap` (Masterminds/sprig functions.go), Argo CD's
/// template functions but for the three it removes (`env`, `expandenv`, `getHostByName`).
const SPRIG_FUNCTIONS: &[&str] = &[
    "hello",
    "ago",
    "date",
    "date_in_zone",
    "date_modify",
    "dateInZone",
    "dateModify",
    "duration",
    "durationRound",
    "htmlDate",
    "htmlDateInZone",
    "must_date_modify",
    "mustDateModify",
    "mustToDate",
    "now",
    "toDate",
    "unixEpoch",
    "abbrev",
    "abbrevboth",
    "trunc",
    "trim",
    "upper",
    "lower",
    "title",
    "untitle",
    "substr",
    "repeat",
    "trimall",
    "trimAll",
    "trimSuffix",
    "trimPrefix",
    "nospace",
    "initials",
    "randAlphaNum",
    "randAlpha",
    "randAscii",
    "randNumeric",
    "swapcase",
    "shuffle",
    "snakecase",
    "camelcase",
    "kebabcase",
    "wrap",
    "wrapWith",
    "contains",
    "hasPrefix",
    "hasSuffix",
    "quote",
    "squote",
    "cat",
    "indent",
    "nindent",
    "replace",
    "plural",
    "sha1sum",
    "sha256sum",
    "sha512sum",
    "adler32sum",
    "toString",
    "atoi",
    "int64",
    "int",
    "float64",
    "seq",
    "toDecimal",
    "split",
    "splitList",
    "splitn",
    "toStrings",
    "until",
    "untilStep",
    "add1",
    "add",
    "sub",
    "div",
    "mod",
    "mul",
    "randInt",
    "add1f",
    "addf",
    "subf",
    "divf",
    "mulf",
    "biggest",
    "max",
    "min",
    "maxf",
    "minf",
    "ceil",
    "floor",
    "round",
    "join",
    "sortAlpha",
    "default",
    "empty",
    "coalesce",
    "all",
    "any",
    "compact",
    "mustCompact",
    "fromJson",
    "toJson",
    "toPrettyJson",
    "toRawJson",
    "mustFromJson",
    "mustToJson",
    "mustToPrettyJson",
    "mustToRawJson",
    "ternary",
    "deepCopy",
    "mustDeepCopy",
    "typeOf",
    "typeIs",
    "typeIsLike",
    "kindOf",
    "kindIs",
    "deepEqual",
    "base",
    "dir",
    "clean",
    "ext",
    "isAbs",
    "osBase",
    "osClean",
    "osDir",
    "osExt",
    "osIsAbs",
    "b64enc",
    "b64dec",
    "b32enc",
    "b32dec",
    "tuple",
    "list",
    "dict",
    "get",
    "set",
    "unset",
    "hasKey",
    "pluck",
    "keys",
    "pick",
    "omit",
    "merge",
    "mergeOverwrite",
    "mustMerge",
    "mustMergeOverwrite",
    "values",
    "append",
    "push",
    "mustAppend",
    "mustPush",
    "prepend",
    "mustPrepend",
    "first",
    "mustFirst",
    "rest",
    "mustRest",
    "last",
    "mustLast",
    "initial",
    "mustInitial",
    "reverse",
    "mustReverse",
    "uniq",
    "mustUniq",
    "without",
    "mustWithout",
    "has",
    "mustHas",
    "slice",
    "mustSlice",
    "concat",
    "dig",
    "chunk",
    "mustChunk",
    "bcrypt",
    "htpasswd",
    "genPrivateKey",
    "derivePassword",
    "buildCustomCert",
    "genCA",
    "genCAWithKey",
    "genSelfSignedCert",
    "genSelfSignedCertWithKey",
    "genSignedCert",
    "genSignedCertWithKey",
    "encryptAES",
    "decryptAES",
    "randBytes",
    "uuidv4",
    "semver",
    "semverCompare",
    "fail",
    "regexMatch",
    "mustRegexMatch",
    "regexFindAll",
    "mustRegexFindAll",
    "regexFind",
    "mustRegexFind",
    "regexReplaceAll",
    "mustRegexReplaceAll",
    "regexReplaceAllLiteral",
    "mustRegexReplaceAllLiteral",
    "regexSplit",
    "mustRegexSplit",
    "regexQuoteMeta",
    "urlParse",
    "urlJoin",
];

/// Whether `name` is a function Argo CD's templates have (sprig's) that fedrender does not
/// implement.
pub(crate) fn is_unimplemented_sprig(name: &str) -> bool {
    SPRIG_FUNCTIONS.contains(&name) && lookup(name).is_none()
}

/// Whether `name` is a sprig function whose answer changes from one render to the next (the
/// clock, randomness, fresh keys and salts): what Argo CD renders with it is not known before
/// it renders, so fedrender, which renders the same bytes every time, refuses it by its reason.
pub(crate) fn is_nondeterministic_sprig(name: &str) -> bool {
    matches!(
        name,
        "now"
            | "ago"
            | "randAlphaNum"
            | "randAlpha"
            | "randAscii"
            | "randNumeric"
            | "randInt"
            | "randBytes"
            | "shuffle"
            | "uuidv4"
            | "bcrypt"
            | "htpasswd"
            | "encryptAES"
            | "genPrivateKey"
            | "genCA"
            | "genCAWithKey"
            | "genSelfSignedCert"
            | "genSelfSignedCertWithKey"
            | "genSignedCert"
            | "genSignedCertWithKey"
    )
}

fn builtin(name: &str) -> Option<Func> {
    Some(match name {
        "and" | "or" => f(&[V], Some(V), |_, _| Ok(Value::Missing)),
        "not" => f(&[V], None, |a, _| Ok(Value::Bool(!a[0].truth()))),
        "len" => f(&[V], None, length),
        "index" => f(&[V], Some(V), index),
        "slice" => f(&[V], Some(V), slice),
        "print" => f(&[], Some(Any), |a, _| Ok(Value::String(sprint(a)))),
        "println" => f(&[], Some(Any), |a, _| Ok(Value::String(sprintln(a)))),
        "printf" => f(&[Param::Str], Some(Any), |a, _| {
            let Value::String(format) = &a[0] else {
                unreachable_type()
            };
            Ok(Value::String(sprintf(format, &a[1..])))
        }),
        "html" => f(&[], Some(Any), |a, _| {
            Ok(Value::String(html(&eval_args(a))))
        }),
        "js" => f(&[], Some(Any), |a, _| Ok(Value::String(js(&eval_args(a))))),
        "urlquery" => f(&[], Some(Any), |a, _| {
            Ok(Value::String(urlquery(&eval_args(a))))
        }),
        "call" => f(&[V], Some(V), |a, callee| match &a[0] {
            Value::Missing | Value::Nil => Err("call of nil".to_string()),
            other => Err(format!(
                "non-function {} of type {}",
                callee.unwrap_or("?"),
                other.type_name()
            )),
        }),
        "eq" => f(&[V], Some(V), |a, _| eq(a).map(Value::Bool)),
        "ne" => f(&[V, V], None, |a, _| eq(a).map(|b| Value::Bool(!b))),
        "lt" => f(&[V, V], None, |a, _| lt(&a[0], &a[1]).map(Value::Bool)),
        "le" => f(&[V, V], None, |a, _| {
            Ok(Value::Bool(lt(&a[0], &a[1])? || eq(a)?))
        }),
        "gt" => f(&[V, V], None, |a, _| {
            Ok(Value::Bool(!(lt(&a[0], &a[1])? || eq(a)?)))
        }),
        "ge" => f(&[V, V], None, |a, _| Ok(Value::Bool(!lt(&a[0], &a[1])?))),
        _ => return None,
    })
}

/// Parameters typed `string` are checked before the call; this is never reached.
fn unreachable_type() -> ! {
    panic!("a string parameter holds a string")
}

/// funcs.go `evalArgs`: one string as it is, anything else as `fmt.Sprint` writes it.
/// A nil argument is printed as exec.go's `printableValue` prints no value.
fn eval_args(args: &[Value]) -> String {
    match args {
        [Value::String(s)] => s.clone(),
        _ => {
            let printable: Vec<Value> = args
                .iter()
                .map(|arg| match arg {
                    Value::Missing | Value::Nil => Value::String("<no value>".to_string()),
                    other => other.clone(),
                })
                .collect();
            sprint(&printable)
        }
    }
}

fn length(args: &[Value], _: Option<&str>) -> Result<Value, String> {
    match &args[0] {
        Value::Missing => Err("reflect: call of reflect.Value.Type on zero Value".to_string()),
        Value::Nil => Err("len of nil pointer".to_string()),
        Value::String(s) => Ok(Value::int(s.len() as i64)),
        Value::List(items, _) => Ok(Value::int(items.len() as i64)),
        Value::Map(map, _) => Ok(Value::int(map.borrow().len() as i64)),
        // len looks through a pointer to what it points at.
        Value::Version(..) => Err("len of type semver.Version".to_string()),
        other => Err(format!("len of type {}", other.type_name())),
    }
}

fn index_arg(index: &Value, cap: usize) -> Result<usize, String> {
    let x = match index {
        Value::Int(i, _) => *i,
        Value::Missing | Value::Nil => return Err("cannot index slice/array with nil".to_string()),
        other => {
            return Err(format!(
                "cannot index slice/array with type {}",
                other.type_name()
            ));
        }
    };
    if x < 0 || x as usize > cap {
        return Err(format!("index out of range: {x}"));
    }
    Ok(x as usize)
}

fn index(args: &[Value], _: Option<&str>) -> Result<Value, String> {
    let mut item = args[0].clone();
    if item.is_nil() {
        return Err("index of untyped nil".to_string());
    }
    for index in &args[1..] {
        item = match &item {
            Value::Nil | Value::Missing => return Err("index of nil pointer".to_string()),
            Value::List(items, _) => {
                let x = index_arg(index, items.len())?;
                items
                    .get(x)
                    .cloned()
                    .ok_or_else(|| "reflect: slice index out of range".to_string())?
            }
            Value::String(s) => {
                let x = index_arg(index, s.len())?;
                Value::int(i64::from(
                    *s.as_bytes()
                        .get(x)
                        .ok_or_else(|| "reflect: string index out of range".to_string())?,
                ))
            }
            Value::Map(map, elem) => {
                let key = match index {
                    Value::String(key) => key,
                    Value::Missing | Value::Nil => {
                        return Err("value is nil; should be of type string".to_string());
                    }
                    other => {
                        return Err(format!(
                            "value has type {}; should be string",
                            other.type_name()
                        ));
                    }
                };
                match map.borrow().get(key) {
                    Some(value) => value.clone(),
                    None if *elem == super::value::Elem::String => Value::String(String::new()),
                    None => Value::Nil,
                }
            }
            other => return Err(format!("can't index item of type {}", other.type_name())),
        };
    }
    Ok(item)
}

fn slice(args: &[Value], _: Option<&str>) -> Result<Value, String> {
    let item = &args[0];
    if item.is_nil() {
        return Err("slice of untyped nil".to_string());
    }
    if args.len() > 4 {
        return Err(format!("too many slice indexes: {}", args.len() - 1));
    }
    let len = match item {
        Value::String(s) => {
            if args.len() == 4 {
                return Err("cannot 3-index slice a string".to_string());
            }
            s.len()
        }
        Value::List(items, _) => items.len(),
        other => return Err(format!("can't slice item of type {}", other.type_name())),
    };
    let mut bounds = [0, len, len];
    for (i, index) in args[1..].iter().enumerate() {
        bounds[i] = index_arg(index, len)?;
    }
    if bounds[0] > bounds[1] {
        return Err(format!(
            "invalid slice index: {} > {}",
            bounds[0], bounds[1]
        ));
    }
    if args.len() == 4 && bounds[1] > bounds[2] {
        return Err(format!(
            "invalid slice index: {} > {}",
            bounds[1], bounds[2]
        ));
    }
    Ok(match item {
        Value::String(s) => {
            Value::String(String::from_utf8_lossy(&s.as_bytes()[bounds[0]..bounds[1]]).into_owned())
        }
        Value::List(items, elem) => Value::List(
            std::rc::Rc::new(items[bounds[0]..bounds[1]].to_vec()),
            *elem,
        ),
        _ => Value::Missing,
    })
}

#[derive(PartialEq, Clone, Copy)]
enum Basic {
    Bool,
    Int,
    Float,
    String,
}

fn basic(value: &Value) -> Option<Basic> {
    match value {
        Value::Bool(_) => Some(Basic::Bool),
        Value::Int(..) => Some(Basic::Int),
        Value::Float(_) => Some(Basic::Float),
        Value::String(_) => Some(Basic::String),
        _ => None,
    }
}

fn unwrap_nil(value: &Value) -> &Value {
    match value {
        Value::Nil => &Value::Missing,
        other => other,
    }
}

/// funcs.go `eq`: true when the first argument equals any other; basic kinds compare by value
/// (integers of any size together), different kinds are an error.
fn eq(args: &[Value]) -> Result<bool, String> {
    let first = unwrap_nil(&args[0]);
    if args.len() < 2 {
        return Err("missing argument for comparison".to_string());
    }
    let k1 = basic(first);
    for arg in &args[1..] {
        let arg = unwrap_nil(arg);
        let k2 = basic(arg);
        let truth = if k1 != k2 {
            if !matches!(first, Value::Missing) && !matches!(arg, Value::Missing) {
                return Err(format!(
                    "incompatible types for comparison: {} and {}",
                    first.type_name(),
                    arg.type_name()
                ));
            }
            false
        } else {
            match (first, arg) {
                (Value::Bool(a), Value::Bool(b)) => a == b,
                (Value::Int(a, _), Value::Int(b, _)) => a == b,
                (Value::Float(a), Value::Float(b)) => a == b,
                (Value::String(a), Value::String(b)) => a == b,
                // Go's == on two structs: the instant and the location's pointer.
                (Value::Time(a), Value::Time(b)) => a.same(b),
                (Value::Missing, Value::Missing) => true,
                (Value::Missing, _) | (_, Value::Missing) => false,
                // Pointers are equal when they are one; two structs when their fields are.
                (Value::Version(a, ka), Value::Version(b, kb)) if ka == kb => match ka {
                    super::value::VersionKind::Pointer => std::rc::Rc::ptr_eq(a, b),
                    super::value::VersionKind::Value => a == b,
                },
                (first, other) => {
                    // funcs.go: values of two types are compared by neither; of one type that
                    // Go cannot compare (slices, maps), the second is named.
                    if first.type_name() != other.type_name() {
                        return Err(format!(
                            "non-comparable types {}: {}, {}: {}",
                            sprintf("%s", std::slice::from_ref(first)),
                            first.type_name(),
                            other.type_name(),
                            sprintf("%v", std::slice::from_ref(other))
                        ));
                    }
                    return Err(format!(
                        "non-comparable type {}: {}",
                        sprintf("%s", std::slice::from_ref(other)),
                        other.type_name()
                    ));
                }
            }
        };
        if truth {
            return Ok(true);
        }
    }
    Ok(false)
}

/// funcs.go `lt`: basic kinds only, both of one kind.
fn lt(a: &Value, b: &Value) -> Result<bool, String> {
    let (a, b) = (unwrap_nil(a), unwrap_nil(b));
    let (Some(k1), Some(k2)) = (basic(a), basic(b)) else {
        return Err("invalid type for comparison".to_string());
    };
    if k1 != k2 {
        return Err(format!(
            "incompatible types for comparison: {} and {}",
            a.type_name(),
            b.type_name()
        ));
    }
    Ok(match (a, b) {
        (Value::Int(x, _), Value::Int(y, _)) => x < y,
        (Value::Float(x), Value::Float(y)) => x < y,
        (Value::String(x), Value::String(y)) => x < y,
        _ => return Err("invalid type for comparison".to_string()),
    })
}

/// `template.HTMLEscapeString`.
fn html(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        match c {
            '"' => out.push_str("&#34;"),
            '\'' => out.push_str("&#39;"),
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\0' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// `template.JSEscapeString`.
fn js(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            '"' => out.push_str("\\\""),
            '<' => out.push_str("\\u003C"),
            '>' => out.push_str("\\u003E"),
            '&' => out.push_str("\\u0026"),
            '=' => out.push_str("\\u003D"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04X}", c as u32)),
            c if c.is_ascii() || super::super::quote::is_print(c) => out.push(c),
            c => out.push_str(&format!("\\u{:04X}", c as u32)),
        }
    }
    out
}

/// `url.QueryEscape`.
pub(crate) fn urlquery(s: &str) -> String {
    let mut out = String::new();
    for byte in s.bytes() {
        match byte {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(byte as char)
            }
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod unimplemented_tests {
    use super::*;

    #[test]
    fn sprigs_functions_fedrender_lacks_are_known_apart_from_undefined_ones() {
        assert!(is_unimplemented_sprig("derivePassword"));
        assert!(is_unimplemented_sprig("now"));
        assert!(!is_unimplemented_sprig("base"), "implemented here");
        assert!(!is_unimplemented_sprig("env"), "Argo CD removes it");
        assert!(!is_unimplemented_sprig("nope"));
        // Every function refused as changing between renders is sprig's and not implemented.
        for name in SPRIG_FUNCTIONS {
            if is_nondeterministic_sprig(name) {
                assert!(is_unimplemented_sprig(name), "{name}");
            }
        }
        assert!(is_nondeterministic_sprig("uuidv4") && !is_nondeterministic_sprig("semver"));
    }
}
