//! The string functions that search with patterns — `string.find`, `string.match`,
//! `string.gmatch` — written over [`super::pattern`], so that their work counts against the
//! call's instruction budget like the script's own. Arguments and results are Lua 5.1's
//! (lstrlib.c `str_find_aux`, `gmatch_aux`).

use std::cell::Cell;
use std::rc::Rc;

use mlua::{Lua, MultiValue, Table, Value};

use super::pattern::{self, Budget, Capture};

/// The instructions left to the current call, shared with the instruction hook.
pub struct Instructions(pub Rc<Cell<u64>>);

impl Budget for &Instructions {
    fn step(&mut self) -> Result<(), String> {
        let left = self.0.get();
        if left == 0 {
            return Err(super::out_of_instructions());
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
    messages: &super::Messages,
) -> mlua::Result<()> {
    let left = Rc::clone(instructions);
    let find = lua.create_function(move |lua, arguments: MultiValue| {
        let arguments: Vec<Value> = arguments.into_iter().collect();
        let subject = string_argument(lua, &arguments, 1, "find")?;
        let pattern = string_argument(lua, &arguments, 2, "find")?;
        let start = start_argument(lua, &arguments, 3, "find", subject.len())?;
        let plain = arguments
            .get(3)
            .is_some_and(|value| !matches!(value, Value::Nil | Value::Boolean(false)));
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
        let subject = string_argument(lua, &arguments, 1, "match")?;
        let pattern = string_argument(lua, &arguments, 2, "match")?;
        let start = start_argument(lua, &arguments, 3, "match", subject.len())?;
        let (anchored, pattern) = split_anchor(&pattern);
        let budget = &Instructions(Rc::clone(&left));
        let found = pattern::find(&subject, pattern, start, anchored, &mut &*budget)
            .map_err(mlua::Error::runtime)?;
        match found {
            Some(found) => values(lua, &found.values(&subject)),
            None => Ok(MultiValue::from_vec(vec![Value::Nil])),
        }
    })?;
    string.raw_set("match", messages.wrap(find_match)?)?;
    let left = Rc::clone(instructions);
    let wrapper = messages.wrapper.clone();
    let gmatch = lua.create_function(move |lua, arguments: MultiValue| {
        let arguments: Vec<Value> = arguments.into_iter().collect();
        let subject = string_argument(lua, &arguments, 1, "gmatch")?;
        // gmatch takes `^` literally (Lua 5.1 has no anchor there).
        let pattern = string_argument(lua, &arguments, 2, "gmatch")?;
        let next = Cell::new(0usize);
        let left = Rc::clone(&left);
        let iterator = lua.create_function(move |lua, ()| {
            let budget = &Instructions(Rc::clone(&left));
            let mut at = next.get();
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
fn string_argument(
    lua: &Lua,
    arguments: &[Value],
    position: usize,
    function: &str,
) -> mlua::Result<Vec<u8>> {
    let Some(value) = arguments.get(position - 1).cloned() else {
        return Err(bad_argument(position, function, "string", "no value"));
    };
    let type_name = super::lua_type(&value);
    match lua.coerce_string(value)? {
        Some(text) if type_name == "string" || type_name == "number" => {
            Ok(text.as_bytes().to_vec())
        }
        _ => Err(bad_argument(position, function, "string", type_name)),
    }
}

/// The start position argument (`init`), 1-based and counted from the end when negative,
/// as the 0-based offset Lua 5.1 starts from.
fn start_argument(
    lua: &Lua,
    arguments: &[Value],
    position: usize,
    function: &str,
    length: usize,
) -> mlua::Result<usize> {
    let value = arguments.get(position - 1).cloned().unwrap_or(Value::Nil);
    if matches!(value, Value::Nil) {
        return Ok(0);
    }
    let type_name = super::lua_type(&value);
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
    Ok(start.clamp(0, length as i64) as usize)
}

fn bad_argument(position: usize, function: &str, expected: &str, got: &str) -> mlua::Error {
    mlua::Error::runtime(format!(
        "bad argument #{position} to '{function}' ({expected} expected, got {got})"
    ))
}
