//! sprig's `must` functions whose namesakes swallow the error (functions.go): the regular
//! expressions `regexMatch` answers false for, the JSON `fromJson` and `toJson` answer nothing
//! for — here the error is the answer — and `fail`, which is only an error.

use super::coerce::compile_regex;
use super::encoding::unsupported_float;
use super::go_json::unmarshal;
use super::signature::{Func, Param, f};
use super::value::Value;

use Param::{Any, Int, Str};

fn s(args: &[Value], i: usize) -> &str {
    match &args[i] {
        Value::String(s) => s,
        _ => "",
    }
}

/// The function `name` is the `must` form of, called once `args[0]` compiled: compiled, the
/// namesake answers as its `must` form does.
fn once_compiled(name: &str, args: &[Value]) -> Result<Value, String> {
    compile_regex(s(args, 0))?;
    let namesake = super::sprig::lookup(name)
        .or_else(|| super::sprig_more::lookup(name))
        .expect("sprig defines the namesake");
    (namesake.call)(args, None)
}

/// The JSON function `name` is the `must` form of, or `json.Marshal`'s error.
fn marshalled(name: &str, args: &[Value]) -> Result<Value, String> {
    if let Some(error) = unsupported_float(&args[0]) {
        return Err(error);
    }
    let namesake = super::sprig::lookup(name)
        .or_else(|| super::sprig_more::lookup(name))
        .expect("sprig defines the namesake");
    (namesake.call)(args, None)
}

pub(crate) fn lookup(name: &str) -> Option<Func> {
    Some(match name {
        "mustRegexMatch" => f(&[Str, Str], None, |a, _| {
            Ok(Value::Bool(compile_regex(s(a, 0))?.is_match(s(a, 1))))
        }),
        "mustRegexFind" => f(&[Str, Str], None, |a, _| once_compiled("regexFind", a)),
        "mustRegexFindAll" => f(&[Str, Str, Int], None, |a, _| {
            once_compiled("regexFindAll", a)
        }),
        "mustRegexReplaceAll" => f(&[Str, Str, Str], None, |a, _| {
            once_compiled("regexReplaceAll", a)
        }),
        "mustRegexReplaceAllLiteral" => f(&[Str, Str, Str], None, |a, _| {
            once_compiled("regexReplaceAllLiteral", a)
        }),
        "mustRegexSplit" => f(&[Str, Str, Int], None, |a, _| {
            once_compiled("regexSplit", a)
        }),
        "mustFromJson" => f(&[Str], None, |a, _| match unmarshal(s(a, 0)) {
            (_, Some(error)) => Err(error),
            (value, None) => Ok(value),
        }),
        "mustToJson" => f(&[Any], None, |a, _| marshalled("toJson", a)),
        "mustToPrettyJson" => f(&[Any], None, |a, _| marshalled("toPrettyJson", a)),
        "mustToRawJson" => f(&[Any], None, |a, _| marshalled("toRawJson", a)),
        "fail" => f(&[Str], None, |a, _| Err(s(a, 0).to_string())),
        _ => return None,
    })
}
