//! The library functions fedrender writes itself rather than take from C Lua:
//!
//! - the ones that search with patterns — `string.find`, `string.match`, `string.gmatch` —
//!   written over [`super::pattern`], so that their work counts against the call's instruction
//!   budget like the script's own; arguments and results are Lua 5.1's (lstrlib.c
//!   `str_find_aux`, `gmatch_aux`);
//! - the ones whose results differ in gopher-lua, which Karmada runs, wherever a number becomes
//!   text or text a number ([`super::gopher`], [`super::gofmt`]): `tostring`, `tonumber`,
//!   `string.format`, `upper`, `lower`, `len`, `sub`, `table.concat`, and the `..` operator
//!   (scripts are compiled with each `..` made a call of [`CONCAT`]).

use std::cell::Cell;
use std::rc::Rc;

use mlua::{Lua, MultiValue, Table, Value};

use super::budget::out_of_instructions;
use super::messages::{Messages, describe, identity, lua_type};
use super::pattern::{self, Budget, Capture};
use super::{gofmt, gopher};

/// The instructions left to the current call, shared with the instruction hook.
pub(crate) struct Instructions(pub Rc<Cell<u64>>);

impl Budget for &Instructions {
    fn step(&mut self) -> Result<(), String> {
        let left = self.0.get();
        if left == 0 {
            return Err(out_of_instructions());
        }
        self.0.set(left - 1);
        Ok(())
    }
}

/// Puts `find`, `match` and `gmatch` into the string library table.
pub fn install(
    lua: &Lua,
    string: &Table,
    instructions: &Rc<Cell<u64>>,
    messages: &Messages,
) -> mlua::Result<()> {
    let left = Rc::clone(instructions);
    let find = lua.create_function(move |lua, arguments: MultiValue| {
        let arguments: Vec<Value> = arguments.into_iter().collect();
        let subject = string_argument(&arguments, 1, "find")?;
        let pattern = string_argument(&arguments, 2, "find")?;
        // gopher-lua's strFind answers an empty pattern with 1, 0 wherever the search starts.
        if pattern.is_empty() {
            return Ok(MultiValue::from_vec(vec![
                Value::Integer(1),
                Value::Integer(0),
            ]));
        }
        let plain = arguments
            .get(3)
            .is_some_and(|value| !matches!(value, Value::Nil | Value::Boolean(false)));
        let Some(start) = start_argument(lua, &arguments, 3, "find", subject.len())? else {
            if plain {
                // gopher-lua slices the subject from the start unchecked: Go panics, and the
                // call fails.
                return Err(mlua::Error::runtime(format!(
                    "runtime error: slice bounds out of range [{}:{}]",
                    start_past_end(&arguments, subject.len()),
                    subject.len()
                )));
            }
            return Ok(MultiValue::from_vec(vec![Value::Nil]));
        };
        let budget = &Instructions(Rc::clone(&left));
        if plain || pattern::is_plain(&pattern) {
            let found = pattern::find_plain(&subject, &pattern, start, &mut &*budget)
                .map_err(mlua::Error::runtime)?;
            return Ok(match found {
                Some(at) => MultiValue::from_vec(vec![
                    Value::Integer((at + 1) as i64),
                    Value::Integer((at + pattern.len()) as i64),
                ]),
                None => MultiValue::from_vec(vec![Value::Nil]),
            });
        }
        let (anchored, pattern) = split_anchor(&pattern);
        let found = pattern::find(&subject, pattern, start, anchored, &mut &*budget)
            .map_err(mlua::Error::runtime)?;
        Ok(match found {
            Some(found) => {
                let mut values = vec![
                    Value::Integer((found.start + 1) as i64),
                    Value::Integer(found.end as i64),
                ];
                for capture in &found.captures {
                    values.push(capture_value(lua, capture)?);
                }
                MultiValue::from_vec(values)
            }
            None => MultiValue::from_vec(vec![Value::Nil]),
        })
    })?;
    string.raw_set("find", messages.wrap(find)?)?;
    let left = Rc::clone(instructions);
    let find_match = lua.create_function(move |lua, arguments: MultiValue| {
        let arguments: Vec<Value> = arguments.into_iter().collect();
        let subject = string_argument(&arguments, 1, "match")?;
        let pattern = string_argument(&arguments, 2, "match")?;
        let Some(start) = start_argument(lua, &arguments, 3, "match", subject.len())? else {
            return Ok(MultiValue::new());
        };
        let (anchored, pattern) = split_anchor(&pattern);
        let budget = &Instructions(Rc::clone(&left));
        let found = pattern::find(&subject, pattern, start, anchored, &mut &*budget)
            .map_err(mlua::Error::runtime)?;
        match found {
            Some(found) => values(lua, &found.values(&subject)),
            // gopher-lua's strMatch returns no value at all when nothing matches.
            None => Ok(MultiValue::new()),
        }
    })?;
    string.raw_set("match", messages.wrap(find_match)?)?;
    let left = Rc::clone(instructions);
    let wrapper = messages.wrapper.clone();
    let gmatch = lua.create_function(move |lua, arguments: MultiValue| {
        let arguments: Vec<Value> = arguments.into_iter().collect();
        let subject = string_argument(&arguments, 1, "gmatch")?;
        // gopher-lua's gmatch anchors at `^` (pm.Find, one match at most), where Lua 5.1
        // takes it literally.
        let pattern = string_argument(&arguments, 2, "gmatch")?;
        let (anchored, pattern) = match pattern.strip_prefix(b"^") {
            Some(rest) => (true, rest.to_vec()),
            None => (false, pattern),
        };
        let next = Cell::new(0usize);
        let left = Rc::clone(&left);
        let iterator = lua.create_function(move |lua, ()| {
            let budget = &Instructions(Rc::clone(&left));
            let mut at = next.get();
            if anchored && at > 0 {
                return Ok(MultiValue::from_vec(vec![Value::Nil]));
            }
            while at <= subject.len() {
                let found = pattern::match_at(&subject, &pattern, at, &mut &*budget)
                    .map_err(mlua::Error::runtime)?;
                if let Some(found) = found {
                    // An empty match moves on by one, or it would be found for ever.
                    next.set(if found.end == at {
                        found.end + 1
                    } else {
                        found.end
                    });
                    return values(lua, &found.values(&subject));
                }
                if anchored {
                    next.set(subject.len() + 1);
                    return Ok(MultiValue::from_vec(vec![Value::Nil]));
                }
                at += 1;
            }
            next.set(at);
            Ok(MultiValue::from_vec(vec![Value::Nil]))
        })?;
        wrapper.call::<mlua::Function>(iterator)
    })?;
    string.raw_set("gmatch", messages.wrap(gmatch)?)?;
    Ok(())
}

/// The 0-based start gopher-lua slices from when `init` is past the subject's end.
fn start_past_end(arguments: &[Value], length: usize) -> i64 {
    let init = arguments.get(2).map_or(1.0, number_of);
    let init = gopher::go_int64(init);
    if init < 0 {
        length as i64 + init
    } else {
        init - 1
    }
}

fn split_anchor(pattern: &[u8]) -> (bool, &[u8]) {
    match pattern.strip_prefix(b"^") {
        Some(rest) => (true, rest),
        None => (false, pattern),
    }
}

fn values(lua: &Lua, captures: &[Capture]) -> mlua::Result<MultiValue> {
    captures
        .iter()
        .map(|capture| capture_value(lua, capture))
        .collect()
}

fn capture_value(lua: &Lua, capture: &Capture) -> mlua::Result<Value> {
    Ok(match capture {
        Capture::Text(text) => Value::String(lua.create_string(text)?),
        Capture::Position(at) => Value::Integer(*at as i64),
    })
}

/// Argument `position` (1-based) as a string, as `luaL_checklstring` takes it: a string, or a
/// number in its string form.
fn string_argument(arguments: &[Value], position: usize, function: &str) -> mlua::Result<Vec<u8>> {
    let Some(value) = arguments.get(position - 1).cloned() else {
        return Err(bad_argument(position, function, "string", "no value"));
    };
    let type_name = lua_type(&value);
    match &value {
        Value::String(text) => Ok(text.as_bytes().to_vec()),
        Value::Integer(_) | Value::Number(_) => {
            Ok(gopher::number_to_string(number_of(&value)).into_bytes())
        }
        _ => Err(bad_argument(position, function, "string", type_name)),
    }
}

fn number_of(value: &Value) -> f64 {
    match value {
        Value::Integer(integer) => *integer as f64,
        Value::Number(number) => *number,
        _ => f64::NAN,
    }
}

/// The global a script's `..` calls once compiled: gopher-lua's concatenation, numbers written
/// as gopher-lua writes them.
pub(crate) const CONCAT: &str = "__fedrender_concat";

/// The global the rewritten scripts call for `%` (concat.rs).
pub(crate) const MODULO: &str = "__fedrender_modulo";

/// The global the rewritten scripts call for `^` (concat.rs).
pub(crate) const POWER: &str = "__fedrender_power";

/// The global holding `-0.0` that the rewritten scripts read where gopher-lua's constant is a
/// negative zero (concat.rs).
pub(crate) const NEGATIVE_ZERO: &str = "__fedrender_negative_zero";

/// The functions of this module outside the string library: `tostring`, `tonumber`, and
/// [`CONCAT`], [`MODULO`] and [`POWER`], for a call's globals, and [`NEGATIVE_ZERO`].
pub(crate) fn globals(lua: &Lua, messages: &Messages) -> mlua::Result<Vec<(String, Value)>> {
    let identities = Rc::clone(&messages.identities);
    let tostring = lua.create_function(move |lua, arguments: MultiValue| {
        // gopher-lua's CheckAny: no value at all (what a failed `string.match` returns) is
        // an error, not "nil".
        let Some(value) = arguments.into_iter().next() else {
            return Err(mlua::Error::runtime(
                "bad argument #1 to 'tostring' (value expected)",
            ));
        };
        let text = match &value {
            Value::Nil => "nil".to_string(),
            Value::Boolean(flag) => flag.to_string(),
            Value::Integer(_) | Value::Number(_) => gopher::number_to_string(number_of(&value)),
            Value::String(text) => return Ok(Value::String(text.clone())),
            Value::Error(error) => describe(error),
            other => identity(&identities, other),
        };
        Ok(Value::String(lua.create_string(text)?))
    })?;
    // gopher-lua's baseToNumber: a base outside 2..36 is no error, Go's ParseInt refuses it
    // (nil), and base 0 reads Go's prefixes; a number is returned whatever the base.
    let tonumber = lua.create_function(|_, arguments: MultiValue| {
        let arguments: Vec<Value> = arguments.into_iter().collect();
        let base = match arguments.get(1) {
            None | Some(Value::Nil) => None,
            Some(value @ (Value::Integer(_) | Value::Number(_))) => {
                Some(gopher::go_int64(number_of(value)))
            }
            Some(other) => {
                return Err(bad_argument(2, "tonumber", "number", lua_type(other)));
            }
        };
        Ok(match arguments.first() {
            None => return Err(bad_argument(1, "tonumber", "value", "no value")),
            Some(value @ (Value::Integer(_) | Value::Number(_))) => value.clone(),
            Some(Value::String(text)) => {
                let read = match base {
                    Some(base) if !(0..=36).contains(&base) || base == 1 => None,
                    base => gopher::to_number(&text.as_bytes(), base.map(|b| b as u32)),
                };
                read.map_or(Value::Nil, Value::Number)
            }
            Some(_) => Value::Nil,
        })
    })?;
    // gopher-lua's message for operands that are neither strings nor numbers; a number is
    // written as gopher-lua writes it. Raised from Lua at level 2, so the message carries the
    // line of the `..`.
    let number_text = lua.create_function(|_, number: f64| Ok(gopher::number_to_string(number)))?;
    let concat: mlua::Function = lua
        .load(
            "local type, error, number_text = ...\n\
             return function(a, b)\n\
               local ta, tb = type(a), type(b)\n\
               if (ta ~= 'string' and ta ~= 'number') or (tb ~= 'string' and tb ~= 'number') then\n\
                 error('cannot perform concat operation between ' .. ta .. ' and ' .. tb, 2)\n\
               end\n\
               if ta == 'number' then a = number_text(a) end\n\
               if tb == 'number' then b = number_text(b) end\n\
               return a .. b\n\
             end",
        )
        .set_name("=fedrender sandbox")
        .call((
            lua.globals().raw_get::<mlua::Function>("type")?,
            lua.globals().raw_get::<mlua::Function>("error")?,
            number_text,
        ))?;
    // gopher-lua's `%` (vm.go luaModulo): Go's math.Mod (C's fmod: exact, the dividend's
    // sign), then moved to the divisor's sign. A string operand is read as gopher-lua reads
    // one (`parseNumber`).
    let modulo: mlua::Function = lua
        .load(
            "local type, error, number, fmod = ...\n\
             return function(a, b)\n\
               local x, y = number(a), number(b)\n\
               local ta, tb = type(a), type(b)\n\
               if x == nil or y == nil or (ta ~= 'string' and ta ~= 'number')\n\
                   or (tb ~= 'string' and tb ~= 'number') then\n\
                 error('cannot perform mod operation between ' .. ta .. ' and ' .. tb, 2)\n\
               end\n\
               local v = fmod(x, y)\n\
               if (y > 0 and v < 0) or (y < 0 and v > 0) then v = v + y end\n\
               return v\n\
             end",
        )
        .set_name("=fedrender sandbox")
        .call((
            lua.globals().raw_get::<mlua::Function>("type")?,
            lua.globals().raw_get::<mlua::Function>("error")?,
            gopher_operand(lua)?,
            lua.globals()
                .raw_get::<Table>("math")?
                .raw_get::<mlua::Function>("fmod")?,
        ))?;
    // gopher-lua's `^`: Go's math.Pow, operands read as `%` reads them.
    let go_pow = lua.create_function(|_, (x, y): (f64, f64)| Ok(gopher::go_pow(x, y)))?;
    let power: mlua::Function = lua
        .load(
            "local type, error, number, pow = ...\n\
             return function(a, b)\n\
               local x, y = number(a), number(b)\n\
               if x == nil or y == nil then\n\
                 error('cannot perform pow operation between ' .. type(a) .. ' and ' .. type(b), 2)\n\
               end\n\
               return pow(x, y)\n\
             end",
        )
        .set_name("=fedrender sandbox")
        .call((
            lua.globals().raw_get::<mlua::Function>("type")?,
            lua.globals().raw_get::<mlua::Function>("error")?,
            gopher_operand(lua)?,
            go_pow,
        ))?;
    Ok(vec![
        (MODULO.to_string(), Value::Function(modulo)),
        (POWER.to_string(), Value::Function(power)),
        (
            "tostring".to_string(),
            Value::Function(messages.wrap(tostring)?),
        ),
        (
            "tonumber".to_string(),
            Value::Function(messages.wrap(tonumber)?),
        ),
        (CONCAT.to_string(), Value::Function(concat)),
        (NEGATIVE_ZERO.to_string(), Value::Number(-0.0)),
    ])
}

/// gopher-lua's `string.format`, `upper`, `lower`, `len` and `sub`, and `table.concat`.
pub(crate) fn install_gopher(
    lua: &Lua,
    string: &Table,
    table: &Table,
    messages: &Messages,
) -> mlua::Result<()> {
    let identities = Rc::clone(&messages.identities);
    let format = lua.create_function(move |lua, arguments: MultiValue| {
        let arguments: Vec<Value> = arguments.into_iter().collect();
        let pattern = string_argument(&arguments, 1, "format")?;
        let texts: Vec<(Value, Option<Vec<u8>>)> = arguments[1..]
            .iter()
            .map(|value| {
                let text = match value {
                    Value::String(text) => Some(text.as_bytes().to_vec()),
                    Value::Nil | Value::Boolean(_) | Value::Integer(_) | Value::Number(_) => None,
                    other => Some(identity(&identities, other).into_bytes()),
                };
                (value.clone(), text)
            })
            .collect();
        let args: Vec<gofmt::Arg<'_>> = texts
            .iter()
            .map(|(value, text)| match value {
                Value::Nil => gofmt::Arg::Nil,
                Value::Boolean(flag) => gofmt::Arg::Bool(*flag),
                Value::Integer(_) | Value::Number(_) => gofmt::Arg::Number(number_of(value)),
                Value::String(_) => gofmt::Arg::String(text.as_deref().unwrap_or_default()),
                other => gofmt::Arg::Other(
                    lua_type(other),
                    String::from_utf8_lossy(text.as_deref().unwrap_or_default()).into_owned(),
                ),
            })
            .collect();
        lua.create_string(gofmt::format(&pattern, &args))
    })?;
    string.raw_set("format", messages.wrap(format)?)?;
    let upper = lua.create_function(|lua, arguments: MultiValue| {
        let arguments: Vec<Value> = arguments.into_iter().collect();
        lua.create_string(gopher::to_upper(&string_argument(&arguments, 1, "upper")?))
    })?;
    string.raw_set("upper", messages.wrap(upper)?)?;
    let lower = lua.create_function(|lua, arguments: MultiValue| {
        let arguments: Vec<Value> = arguments.into_iter().collect();
        lua.create_string(gopher::to_lower(&string_argument(&arguments, 1, "lower")?))
    })?;
    string.raw_set("lower", messages.wrap(lower)?)?;
    let len = lua.create_function(|_, arguments: MultiValue| {
        let arguments: Vec<Value> = arguments.into_iter().collect();
        Ok(string_argument(&arguments, 1, "len")?.len() as i64)
    })?;
    string.raw_set("len", messages.wrap(len)?)?;
    let sub = lua.create_function(|lua, arguments: MultiValue| {
        let arguments: Vec<Value> = arguments.into_iter().collect();
        let text = string_argument(&arguments, 1, "sub")?;
        let length = text.len() as i64;
        let position = |index: usize, default: i64| -> mlua::Result<i64> {
            match arguments.get(index) {
                None | Some(Value::Nil) if default != 0 => Ok(default),
                Some(value @ (Value::Integer(_) | Value::Number(_))) => Ok(number_of(value) as i64),
                Some(other) => Err(bad_argument(index + 1, "sub", "number", lua_type(other))),
                None => Err(bad_argument(index + 1, "sub", "number", "no value")),
            }
        };
        // lstrlib.c `str_sub`: negative positions count from the end, then both are clamped.
        let relative = |position: i64| {
            if position < 0 {
                length + position + 1
            } else {
                position
            }
        };
        let start = relative(position(1, 0)?).max(1);
        let end = relative(position(2, -1)?).min(length);
        if start > end {
            return lua.create_string("");
        }
        lua.create_string(&text[(start - 1) as usize..end as usize])
    })?;
    string.raw_set("sub", messages.wrap(sub)?)?;
    // gopher-lua's tableConcat: the bounds are clamped to the list, and one element is
    // returned as it is (a number stays a number); two or more are joined as `..` joins them.
    let concat = lua.create_function(|lua, arguments: MultiValue| {
        let arguments: Vec<Value> = arguments.into_iter().collect();
        let Some(Value::Table(list)) = arguments.first() else {
            let got = arguments.first().map_or("no value", lua_type);
            return Err(bad_argument(1, "concat", "table", got));
        };
        // OptString: a string or nothing; a number is refused here.
        let separator = match arguments.get(1) {
            None | Some(Value::Nil) => Vec::new(),
            Some(Value::String(text)) => text.as_bytes().to_vec(),
            Some(other) => return Err(bad_argument(2, "concat", "string", lua_type(other))),
        };
        let bound = |index: usize, default: i64| -> mlua::Result<i64> {
            match arguments.get(index) {
                None | Some(Value::Nil) => Ok(default),
                Some(value @ (Value::Integer(_) | Value::Number(_))) => Ok(number_of(value) as i64),
                Some(other) => Err(bad_argument(index + 1, "concat", "number", lua_type(other))),
            }
        };
        let length = list.raw_len() as i64;
        let first = bound(2, 1)?;
        let last = bound(3, length)?;
        if arguments.len() == 3 && (first > length || first < 1) {
            return Ok(Value::String(lua.create_string("")?));
        }
        let first = first.min(length).max(1);
        let last = last.min(length);
        let mut items = Vec::new();
        for index in first..=last {
            let value = list.raw_get::<Value>(index)?;
            if !matches!(
                value,
                Value::String(_) | Value::Integer(_) | Value::Number(_)
            ) {
                return Err(mlua::Error::runtime(format!(
                    "invalid value ({}) at index {index} in table for concat",
                    lua_type(&value)
                )));
            }
            items.push(value);
        }
        if let [only] = items.as_slice() {
            return Ok(only.clone());
        }
        let mut joined = Vec::new();
        for (position, value) in items.iter().enumerate() {
            if position > 0 {
                joined.extend_from_slice(&separator);
            }
            match value {
                Value::String(text) => joined.extend_from_slice(&text.as_bytes()),
                number => {
                    joined.extend_from_slice(gopher::number_to_string(number_of(number)).as_bytes())
                }
            }
        }
        Ok(Value::String(lua.create_string(joined)?))
    })?;
    // gopher-lua's strChar: each code is a number (a string is refused), truncated to an
    // integer and wrapped to a byte (256 is 0, -1 is 255).
    let char = lua.create_function(|lua, arguments: MultiValue| {
        let mut bytes = Vec::with_capacity(arguments.len());
        for (index, value) in arguments.iter().enumerate() {
            match value {
                Value::Integer(_) | Value::Number(_) => {
                    bytes.push(gopher::go_int64(number_of(value)) as u8);
                }
                other => return Err(bad_argument(index + 1, "char", "number", lua_type(other))),
            }
        }
        lua.create_string(bytes)
    })?;
    string.raw_set("char", messages.wrap(char)?)?;
    table.raw_set("concat", messages.wrap(concat)?)?;
    // gopher-lua's tableInsert reads the position and the value and ignores what follows
    // them, where Lua 5.1 refuses a fourth argument.
    let insert: mlua::Function = table.raw_get("insert")?;
    let insert = lua.create_function(move |_, arguments: MultiValue| {
        let arguments: Vec<Value> = arguments.into_iter().take(3).collect();
        insert.call::<MultiValue>(MultiValue::from_vec(arguments))
    })?;
    table.raw_set("insert", messages.wrap(insert)?)?;
    Ok(())
}

/// The start position argument (`init`), 1-based and counted from the end when negative,
/// as the 0-based offset Lua 5.1 starts from.
fn start_argument(
    lua: &Lua,
    arguments: &[Value],
    position: usize,
    function: &str,
    length: usize,
) -> mlua::Result<Option<usize>> {
    let value = arguments.get(position - 1).cloned().unwrap_or(Value::Nil);
    if matches!(value, Value::Nil) {
        return Ok(Some(0));
    }
    let type_name = lua_type(&value);
    let Some(number) = lua.coerce_number(value)? else {
        return Err(bad_argument(position, function, "number", type_name));
    };
    // lua_Integer truncates, and a negative start counts from the end.
    let start = number as i64;
    let start = if start >= 0 {
        start
    } else {
        length as i64 + start + 1
    } - 1;
    // gopher-lua looks from the start on, and finds nothing from past the end (C Lua 5.1
    // looks from the end).
    Ok((start <= length as i64).then(|| start.max(0) as usize))
}

fn bad_argument(position: usize, function: &str, expected: &str, got: &str) -> mlua::Error {
    mlua::Error::runtime(format!(
        "bad argument #{position} to '{function}' ({expected} expected, got {got})"
    ))
}

/// A Lua function giving an arithmetic operand's number as gopher-lua's virtual machine reads
/// it: a number as it is, a string through `parseNumber` (Go's `ParseInt` in base 0, else
/// `ParseFloat`), anything else nil.
fn gopher_operand(lua: &Lua) -> mlua::Result<mlua::Function> {
    lua.create_function(|_, value: Value| {
        Ok(match &value {
            Value::Integer(_) | Value::Number(_) => Some(number_of(&value)),
            Value::String(text) => gopher::parse_number(&text.as_bytes()),
            _ => None,
        })
    })
}

/// Arithmetic on strings as gopher-lua coerces them, as far as the C virtual machine lets a
/// library reach: Lua 5.1 calls the string metatable's `__add`… only when C cannot read a
/// string operand as a number, so strings only Go reads (`"0b101"`, `"0o17"`, `"1_000"`) get
/// their value here, where they would be an error. Strings C reads and Go does not (`"0x.8"`,
/// `"1e400"`, `"0x8000000000000000"`) stay numbers to the C machine (docs/interpretation.md).
pub(crate) fn install_string_arithmetic(lua: &Lua) -> mlua::Result<()> {
    lua.load(
        "local getmetatable, type, error, number, fmod, floor = ...\n\
         local meta = getmetatable('')\n\
         local function arith(name, op, symbol)\n\
           meta[name] = function(a, b)\n\
             local x, y = number(a), number(b)\n\
             if x == nil or y == nil then\n\
               error('cannot perform ' .. symbol .. ' operation between ' .. type(a) .. ' and ' .. type(b), 2)\n\
             end\n\
             return op(x, y)\n\
           end\n\
         end\n\
         arith('__add', function(x, y) return x + y end, 'add')\n\
         arith('__sub', function(x, y) return x - y end, 'sub')\n\
         arith('__mul', function(x, y) return x * y end, 'mul')\n\
         arith('__div', function(x, y) return x / y end, 'div')\n\
         arith('__pow', function(x, y) return x ^ y end, 'pow')\n\
         arith('__mod', function(x, y)\n\
           local v = fmod(x, y)\n\
           if (y > 0 and v < 0) or (y < 0 and v > 0) then v = v + y end\n\
           return v\n\
         end, 'mod')\n\
         meta.__unm = function(a)\n\
           local x = number(a)\n\
           if x == nil then error('__unm undefined', 2) end\n\
           return -x\n\
         end",
    )
    .set_name("=fedrender sandbox")
    .call::<()>((
        lua.globals().raw_get::<mlua::Function>("getmetatable")?,
        lua.globals().raw_get::<mlua::Function>("type")?,
        lua.globals().raw_get::<mlua::Function>("error")?,
        gopher_operand(lua)?,
        lua.globals()
            .raw_get::<Table>("math")?
            .raw_get::<mlua::Function>("fmod")?,
    ))
}

/// gopher-lua's math library (mathlib.go) reads its arguments with `CheckNumber`: a string
/// through `parseNumber` (Go's reading, where C Lua's `strtod` reads `"0x.8"` and `"1e400"`),
/// only as many as the function takes (`math.floor(s:find("(%a+)"))` ignores the rest, where
/// the check of every argument refused them); `math.modf` is Go's `math.Modf` (`-Inf` splits
/// into `-Inf` and NaN), `math.mod` the `%` of its virtual machine (vm.go `luaModulo`, where C
/// Lua's is `fmod`), `math.deg` and `math.rad` Go's `x * 180 / Pi` and `x * Pi / 180`.
pub(crate) fn install_gopher_math(
    lua: &Lua,
    math: &Table,
    messages: &Messages,
) -> mlua::Result<()> {
    let names: Vec<String> = math
        .pairs::<String, Value>()
        .filter_map(|pair| match pair {
            // `random` and `randomseed` are blocked already: their message stays.
            Ok((name, Value::Function(_))) if !name.starts_with("random") => Some(name),
            _ => None,
        })
        .collect();
    for name in names {
        let original: mlua::Function = math.raw_get(name.as_str())?;
        let label = name.clone();
        let wrapped = lua.create_function(move |_, arguments: MultiValue| {
            let taken = gopher_math_arity(&label).unwrap_or(arguments.len());
            if taken == 0 {
                return Err(mlua::Error::runtime("wrong number of arguments"));
            }
            let mut numbers = Vec::with_capacity(taken);
            for index in 0..taken {
                let value = arguments.get(index).unwrap_or(&Value::Nil);
                let number = match value {
                    Value::Integer(_) | Value::Number(_) => number_of(value),
                    Value::String(text) => gopher::parse_number(&text.as_bytes())
                        .ok_or_else(|| bad_argument(index + 1, &label, "number", "string"))?,
                    other => {
                        return Err(bad_argument(
                            index + 1,
                            &label,
                            "number",
                            super::messages::lua_type(other),
                        ));
                    }
                };
                numbers.push(number);
            }
            let one = |number: f64| Ok(MultiValue::from_vec(vec![Value::Number(number)]));
            match (label.as_str(), numbers.as_slice()) {
                ("modf", &[number]) => {
                    let (whole, fraction) = go_modf(number);
                    Ok(MultiValue::from_vec(vec![
                        Value::Number(whole),
                        Value::Number(fraction),
                    ]))
                }
                ("mod", &[left, right]) => one(gopher::lua_modulo(left, right)),
                ("deg", &[number]) => one(number * 180.0 / std::f64::consts::PI),
                ("rad", &[number]) => one(number * std::f64::consts::PI / 180.0),
                _ => original.call::<MultiValue>(MultiValue::from_iter(
                    numbers.into_iter().map(Value::Number),
                )),
            }
        })?;
        math.raw_set(name.as_str(), messages.wrap(wrapped)?)?;
    }
    Ok(())
}

/// How many arguments each of gopher-lua's math functions reads (mathlib.go), `None` for
/// `max` and `min`, which read them all.
fn gopher_math_arity(name: &str) -> Option<usize> {
    match name {
        "max" | "min" => None,
        "atan2" | "fmod" | "ldexp" | "mod" | "pow" => Some(2),
        _ => Some(1),
    }
}

/// Go's `math.Modf`: the integer part and the fraction, both with the number's sign; an
/// infinity is itself and NaN.
fn go_modf(number: f64) -> (f64, f64) {
    if number.is_infinite() {
        return (number, f64::NAN);
    }
    let whole = number.trunc();
    (whole, number - whole)
}
