//! What keeps the messages a script sees or causes the same from run to run: Lua's type
//! names, errors without mlua's wrapping, tables and functions numbered rather than shown by
//! address.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use mlua::{Function, Lua};

use super::budget::MEMORY_BUDGET;

/// A value's type as Lua names it (mlua calls an integral number an "integer").
pub(crate) fn lua_type(value: &mlua::Value) -> &'static str {
    match value {
        mlua::Value::Integer(_) => "number",
        other => other.type_name(),
    }
}

/// What keeps every message a script can see or cause the same from run to run: errors of the
/// library's Rust functions arrive in Lua as plain strings (as a C function's would, without
/// mlua's wrapping and traceback), an error value that is not a message is described in words
/// (never `table: 0x55…`), and `tostring` numbers tables and functions in the order a call
/// first shows them.
pub(super) struct Messages {
    /// `wrap(f)`: `f` with its errors turned into strings.
    pub(super) wrapper: Function,
    /// `protect(f, ...)`: calls `f`, and raises any error as a message.
    pub(super) protect: Function,
    /// The number `tostring` gave each table or function in the current call, by address.
    pub(super) identities: Rc<RefCell<HashMap<usize, usize>>>,
}

impl Messages {
    pub(super) fn new(lua: &Lua) -> mlua::Result<Messages> {
        let message_of = lua.create_function(|_, value: mlua::Value| {
            Ok(match &value {
                mlua::Value::String(text) => text.to_string_lossy(),
                mlua::Value::Integer(_) | mlua::Value::Number(_) => {
                    value.to_string().unwrap_or_default()
                }
                mlua::Value::Error(error) => describe(error),
                other => format!(
                    "the script raised {} as its error, not a message",
                    match other {
                        mlua::Value::Nil => "nil".to_string(),
                        other => format!("a {}", lua_type(other)),
                    }
                ),
            })
        })?;
        let (wrapper, protect): (Function, Function) = lua
            .load(
                "local pcall, error, message_of = ...\n\
                 local function pass(ok, ...)\n\
                   if ok then return ... end\n\
                   error(message_of((...)), 0)\n\
                 end\n\
                 return function(f) return function(...) return pass(pcall(f, ...)) end end,\n\
                        function(f, ...) return pass(pcall(f, ...)) end",
            )
            .set_name("=fedrender sandbox")
            .call((
                lua.globals().raw_get::<Function>("pcall")?,
                lua.globals().raw_get::<Function>("error")?,
                message_of,
            ))?;
        Ok(Messages {
            wrapper,
            protect,
            identities: Rc::default(),
        })
    }

    pub(super) fn wrap(&self, function: Function) -> mlua::Result<Function> {
        self.wrapper.call(function)
    }
}

/// How `tostring` shows a table or function: numbered in the order the call shows them
/// (`table: 0x00000001`) rather than by address, which changes from run to run.
pub(super) fn identity(identities: &RefCell<HashMap<usize, usize>>, value: &mlua::Value) -> String {
    let mut identities = identities.borrow_mut();
    let next = identities.len() + 1;
    let identity = *identities
        .entry(value.to_pointer() as usize)
        .or_insert(next);
    format!("{}: 0x{identity:08x}", lua_type(value))
}

/// The message of a Lua error, without mlua's wrapping and Lua's stack traceback.
pub(super) fn describe(error: &mlua::Error) -> String {
    match error {
        mlua::Error::CallbackError { cause, .. } => describe(cause),
        mlua::Error::RuntimeError(message) | mlua::Error::SyntaxError { message, .. } => {
            let message = message
                .split("\nstack traceback:")
                .next()
                .unwrap_or(message);
            // Caught and raised again as a message on its way out of the script, Lua's memory
            // error keeps only its words.
            if message == "not enough memory" {
                return describe(&mlua::Error::MemoryError(String::new()));
            }
            message.to_string()
        }
        mlua::Error::MemoryError(_) => format!(
            "the script needed more than {} MiB of memory (does it allocate without bound?)",
            MEMORY_BUDGET >> 20
        ),
        other => other.to_string(),
    }
}
