//! Values crossing between objects and Lua, as Karmada converts them (karmada
//! pkg/resourceinterpreter/customized/declarative/luavm/lua.go `decodeValue`, lua_convert.go
//! `ConvertLuaResultInto`, which encodes tables with layeh.com/gopher-json).
//!
//! Into Lua: a map becomes a table with string keys, a list a sequence, every number a Lua
//! number (a double: integers beyond 2^53 lose precision, as in Karmada), `null` nothing at all.
//! Out of Lua: a table with keys 1..n is a list, one with string keys a map, any other table is an
//! error; an integral number is an integer, other numbers floats; NaN and infinities are errors.
//! An empty table cannot say whether it was `{}` or `[]`: Karmada writes it back as it was in
//! the object the script was given (the reference), and drops it where that object had nothing
//! empty at the same field path.

use std::collections::BTreeSet;

use mlua::{Lua, Table, Value as LuaValue};
use serde_json::{Map, Number, Value};

/// Builds the Lua value of a JSON value.
pub(crate) fn to_lua(lua: &Lua, value: &Value) -> mlua::Result<LuaValue> {
    Ok(match value {
        Value::Null => LuaValue::Nil,
        Value::Bool(flag) => LuaValue::Boolean(*flag),
        Value::Number(number) => LuaValue::Number(number.as_f64().unwrap_or(0.0)),
        Value::String(text) => LuaValue::String(lua.create_string(text)?),
        Value::Array(items) => {
            let table = lua.create_table_with_capacity(items.len(), 0)?;
            for (index, item) in items.iter().enumerate() {
                table.raw_set(index + 1, to_lua(lua, item)?)?;
            }
            LuaValue::Table(table)
        }
        Value::Object(map) => {
            let table = lua.create_table_with_capacity(0, map.len())?;
            for (key, item) in map {
                if !item.is_null() {
                    table.raw_set(key.as_str(), to_lua(lua, item)?)?;
                }
            }
            LuaValue::Table(table)
        }
    })
}

/// A Lua value as JSON, the way gopher-json encodes it; an empty table comes out as `[]`,
/// to be settled by [`settle_empty_tables`].
pub(crate) fn from_lua(value: &LuaValue) -> Result<Value, String> {
    let mut room = MAX_RESULT_SIZE;
    from_lua_nested(value, 0, &mut room)
}

/// As deep as any object fedrender reads may nest; a table that contains itself ends here.
const MAX_DEPTH: usize = crate::yaml::MAX_NESTING_DEPTH;

/// How large a result may grow as it is converted: several times the largest object the API
/// server stores (1.5 MiB in etcd). A table may appear in many places of a result, and each
/// place is converted in full, so a few kilobytes of Lua can stand for terabytes of JSON: the
/// script's memory limit does not bound this, the conversion has to.
pub(crate) const MAX_RESULT_SIZE: usize = 16 << 20;
/// What one value costs against [`MAX_RESULT_SIZE`] besides its text: about what it occupies
/// in memory once converted.
const VALUE_COST: usize = 64;

fn from_lua_nested(value: &LuaValue, depth: usize, room: &mut usize) -> Result<Value, String> {
    if depth > MAX_DEPTH {
        return Err("the result nests tables too deeply (does a table contain itself?)".into());
    }
    let text_length = match value {
        LuaValue::String(text) => text.as_bytes().len(),
        _ => 0,
    };
    *room = room.checked_sub(VALUE_COST + text_length).ok_or_else(|| {
        format!(
            "the result is larger than {} MiB once converted, more than any object the API \
                 server stores (does it use one table in many places?)",
            MAX_RESULT_SIZE >> 20
        )
    })?;
    Ok(match value {
        LuaValue::Nil => Value::Null,
        LuaValue::Boolean(flag) => Value::Bool(*flag),
        LuaValue::Integer(integer) => number_to_json(*integer as f64)?,
        LuaValue::Number(number) => number_to_json(*number)?,
        LuaValue::String(text) => Value::String(go_string(&text.as_bytes())),
        LuaValue::Table(table) => table_to_json(table, depth, room)?,
        other => {
            return Err(format!(
                "a {} cannot be part of an object",
                other.type_name()
            ));
        }
    })
}

/// Where Go's JSON encoder writes a double with an exponent instead of its digits
/// (encoding/json `floatEncoder`).
const EXPONENT_FROM: f64 = 1e21;

/// A number as it comes out of Karmada's round trip: gopher-json writes every Lua number as a
/// float64 (encoding/json: Go's shortest digits, `'f'` layout below 1e21), and the object is
/// read back by apimachinery's JSON reader, which keeps a number written without a fraction or
/// exponent as an int64 when it fits one, else a float64. So an integer above 2^53 arrives as
/// the shortest decimal that reads back as its double, padded with zeros: 2^60 is
/// 1152921504606847000, not 1152921504606846976.
fn number_to_json(number: f64) -> Result<Value, String> {
    if !number.is_finite() {
        return Err(format!("the number {number} cannot be part of an object"));
    }
    if number.fract() == 0.0 && number.abs() < EXPONENT_FROM {
        let written = crate::go_float::format(number, 'f', None);
        if let Ok(integer) = written.parse::<i64>() {
            return Ok(Value::from(integer));
        }
    }
    Number::from_f64(number)
        .map(Value::Number)
        .ok_or_else(|| format!("the number {number} cannot be part of an object"))
}

/// A Lua string as Go's JSON encoder writes it: every byte that does not begin a valid UTF-8
/// sequence becomes one U+FFFD (`"\xe2\x82"` is two), where Rust's lossy conversion writes
/// one for each maximal invalid run.
pub(crate) fn go_string(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    let mut rest = bytes;
    loop {
        match std::str::from_utf8(rest) {
            Ok(valid) => {
                out.push_str(valid);
                return out;
            }
            Err(error) => {
                let (valid, after) = rest.split_at(error.valid_up_to());
                out.push_str(std::str::from_utf8(valid).expect("checked above"));
                let invalid = error.error_len().unwrap_or(after.len());
                out.extend(std::iter::repeat_n('\u{fffd}', invalid));
                rest = &after[invalid..];
            }
        }
    }
}

fn table_to_json(table: &Table, depth: usize, room: &mut usize) -> Result<Value, String> {
    let mut strings = Map::new();
    let mut numbered: Vec<(f64, Value)> = Vec::new();
    for pair in table.pairs::<LuaValue, LuaValue>() {
        let (key, item) = pair.map_err(|error| error.to_string())?;
        let item = from_lua_nested(&item, depth + 1, room)?;
        match key {
            LuaValue::String(key) => {
                *room = room.saturating_sub(key.as_bytes().len());
                strings.insert(key.to_string_lossy(), item);
            }
            LuaValue::Integer(index) => numbered.push((index as f64, item)),
            LuaValue::Number(index) => numbered.push((index, item)),
            other => {
                return Err(format!(
                    "a table with a {} key cannot be part of an object",
                    other.type_name()
                ));
            }
        }
    }
    match (strings.is_empty(), numbered.is_empty()) {
        (true, true) => Ok(Value::Array(Vec::new())),
        (false, true) => {
            // Go's encoder writes map keys sorted.
            strings.sort_keys();
            Ok(Value::Object(strings))
        }
        (true, false) => {
            numbered.sort_by(|a, b| a.0.total_cmp(&b.0));
            let is_sequence = numbered
                .iter()
                .enumerate()
                .all(|(position, (index, _))| *index == (position + 1) as f64);
            if !is_sequence {
                return Err(
                    "a table with number keys that are not 1, 2, 3 … (a sparse array) cannot be \
                     part of an object"
                        .into(),
                );
            }
            Ok(Value::Array(
                numbered.into_iter().map(|(_, item)| item).collect(),
            ))
        }
        (false, false) => Err(
            "a table with both string and number keys cannot be part of an object (it is \
             neither a map nor a list)"
                .into(),
        ),
    }
}

/// What the result is read into: Karmada decodes into a struct (an object, the replica
/// requirements) or a slice (the dependencies), which decides what an empty result is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    Map,
    List,
}

/// Karmada's `convertEmptySliceToEmptyStructPartly`: every empty list in `result` is compared,
/// by its field path without list positions, with the empty fields of the references: an
/// empty map there makes it `{}` again, an empty list there keeps it, and anything else drops
/// the field.
pub(crate) fn settle_empty_tables(result: &mut Value, shape: Shape, references: &[&Value]) {
    if matches!(result, Value::Array(items) if items.is_empty()) {
        if shape == Shape::Map {
            *result = Value::Object(Map::new());
        }
        return;
    }
    let mut empty_lists = BTreeSet::new();
    let mut empty_maps = BTreeSet::new();
    for reference in references {
        find_empty_fields(
            reference,
            &mut Vec::new(),
            &mut empty_lists,
            &mut empty_maps,
        );
    }
    settle(result, &mut Vec::new(), &empty_lists, &empty_maps);
}

fn find_empty_fields(
    value: &Value,
    path: &mut Vec<String>,
    empty_lists: &mut BTreeSet<Vec<String>>,
    empty_maps: &mut BTreeSet<Vec<String>>,
) {
    let mut visit = |child: &Value, path: &mut Vec<String>| match child {
        Value::Array(items) if items.is_empty() => {
            empty_lists.insert(path.clone());
        }
        Value::Object(map) if map.is_empty() => {
            empty_maps.insert(path.clone());
        }
        Value::Array(_) | Value::Object(_) => {
            find_empty_fields(child, path, empty_lists, empty_maps)
        }
        _ => {}
    };
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                path.push(key.clone());
                visit(child, path);
                path.pop();
            }
        }
        // A list's items share the list's path: `rules.ruleName`, not `rules.0.ruleName`.
        Value::Array(items) => items.iter().for_each(|child| visit(child, path)),
        _ => {}
    }
}

fn settle(
    value: &mut Value,
    path: &mut Vec<String>,
    empty_lists: &BTreeSet<Vec<String>>,
    empty_maps: &BTreeSet<Vec<String>>,
) {
    // What becomes of an empty list at `path`: kept, made a map, or dropped.
    let fate = |path: &Vec<String>| {
        if empty_maps.contains(path) {
            Some(Value::Object(Map::new()))
        } else if empty_lists.contains(path) {
            Some(Value::Array(Vec::new()))
        } else {
            None
        }
    };
    match value {
        Value::Object(map) => {
            let keys: Vec<String> = map.keys().cloned().collect();
            for key in keys {
                path.push(key.clone());
                let child = map.get_mut(&key).expect("key just listed");
                if matches!(child, Value::Array(items) if items.is_empty()) {
                    match fate(path) {
                        Some(settled) => *child = settled,
                        None => {
                            map.shift_remove(&key);
                        }
                    }
                } else {
                    settle(child, path, empty_lists, empty_maps);
                }
                path.pop();
            }
        }
        Value::Array(items) => {
            let mut position = 0;
            while position < items.len() {
                if matches!(&items[position], Value::Array(inner) if inner.is_empty()) {
                    match fate(path) {
                        Some(settled) => items[position] = settled,
                        None => {
                            items.remove(position);
                            continue;
                        }
                    }
                } else {
                    settle(&mut items[position], path, empty_lists, empty_maps);
                }
                position += 1;
            }
        }
        _ => {}
    }
}

/// Karmada writes a revised object back with its keys sorted (Go's encoder sorts map keys);
/// member clusters do not care, but a reviewer reading a diff does, so the result takes the
/// template's key order, new keys after the template's, sorted.
pub(crate) fn follow_key_order(result: &mut Value, template: &Value) {
    match (result, template) {
        (Value::Object(map), Value::Object(original)) => {
            let mut ordered = Map::with_capacity(map.len());
            for (key, original_child) in original {
                if let Some(mut child) = map.shift_remove(key) {
                    follow_key_order(&mut child, original_child);
                    ordered.insert(key.clone(), child);
                }
            }
            ordered.extend(std::mem::take(map));
            *map = ordered;
        }
        (Value::Array(items), Value::Array(originals)) => {
            for (item, original) in items.iter_mut().zip(originals) {
                follow_key_order(item, original);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn round_trip(value: &Value) -> Value {
        let lua = Lua::new();
        from_lua(&to_lua(&lua, value).unwrap()).unwrap()
    }

    // karmada lua_convert_test.go: numbers come back as integers when integral.
    #[test]
    fn numbers_come_back_as_integers_when_integral_and_floats_otherwise() {
        let value = json!({"a": 3, "b": 2.5, "c": -7, "d": 1.0e18, "e": 1.0e20});
        let back = round_trip(&value);
        assert_eq!(back["a"], json!(3));
        assert!(back["a"].is_i64());
        assert_eq!(back["b"], json!(2.5));
        assert_eq!(back["c"], json!(-7));
        assert!(back["d"].is_i64(), "1e18 fits an int64: {}", back["d"]);
        assert!(
            back["e"].is_f64(),
            "1e20 does not fit an int64: {}",
            back["e"]
        );
    }

    #[test]
    fn integers_beyond_two_to_the_53_lose_precision_as_in_karmada() {
        let back = round_trip(&json!({"big": 9007199254740993_i64}));
        assert_eq!(back["big"], json!(9007199254740992_i64));
    }

    #[test]
    fn null_fields_vanish_and_keys_come_back_sorted() {
        let back = round_trip(&json!({"z": 1, "a": null, "m": "x"}));
        assert_eq!(serde_json::to_string(&back).unwrap(), r#"{"m":"x","z":1}"#);
    }

    #[test]
    fn infinities_and_nan_are_errors() {
        let lua = Lua::new();
        let value: LuaValue = lua.load("return {x = 1/0}").eval().unwrap();
        assert!(from_lua(&value).unwrap_err().contains("inf"));
        let value: LuaValue = lua.load("return {x = 0/0}").eval().unwrap();
        assert!(from_lua(&value).is_err());
    }

    // gopher-json's errSparseArray and errInvalidKeys.
    #[test]
    fn sparse_and_mixed_tables_are_errors() {
        let lua = Lua::new();
        let sparse: LuaValue = lua.load("return {[1] = 'a', [3] = 'c'}").eval().unwrap();
        assert!(from_lua(&sparse).unwrap_err().contains("sparse"));
        let mixed: LuaValue = lua.load("return {1, 2, x = 3}").eval().unwrap();
        assert!(from_lua(&mixed).unwrap_err().contains("both"));
        let function: LuaValue = lua.load("return {f = print}").eval().unwrap();
        assert!(from_lua(&function).unwrap_err().contains("function"));
    }

    /// A table used twice at each of 40 levels stands for 2^40 values: converting it must stop
    /// early, with a message, rather than take the machine's memory. The work is counted in the
    /// room each value takes: every value visited costs [`VALUE_COST`] and a string its bytes
    /// too, so at most `MAX_RESULT_SIZE / VALUE_COST` values are visited before the refusal.
    #[test]
    fn a_result_that_reuses_its_tables_is_refused_once_too_large() {
        let lua = Lua::new();
        let reused = |levels: usize| -> LuaValue {
            lua.load(format!(
                "local t = {{'leaf'}} for i = 1, {levels} do t = {{t, t}} end return t"
            ))
            .eval()
            .unwrap()
        };
        // 10 levels: 1,023 tables of two, 1,024 of one 'leaf', 1,024 leaves, each visited once.
        let mut room = MAX_RESULT_SIZE;
        assert!(from_lua_nested(&reused(10), 0, &mut room).is_ok());
        let values = 1023 + 1024 + 1024;
        assert_eq!(
            MAX_RESULT_SIZE - room,
            values * VALUE_COST + 1024 * "leaf".len()
        );
        // 40 levels: refused once the room is spent, not after 2^40 values.
        let mut room = MAX_RESULT_SIZE;
        let error = from_lua_nested(&reused(40), 0, &mut room).unwrap_err();
        assert!(error.contains("larger than 16 MiB"), "{error}");
        assert!(room < VALUE_COST + "leaf".len(), "{room} bytes left");
        assert!(from_lua(&reused(40)).is_err() && from_lua(&reused(10)).is_ok());
    }

    #[test]
    fn a_sequence_built_out_of_order_is_still_a_list() {
        let lua = Lua::new();
        let value: LuaValue = lua
            .load("local t = {} t[3] = 'c' t[1] = 'a' t[2] = 'b' return t")
            .eval()
            .unwrap();
        assert_eq!(from_lua(&value).unwrap(), json!(["a", "b", "c"]));
    }

    // karmada lua_convert_test.go Test_convertEmptySliceToEmptyStructPartly.
    #[test]
    fn empty_tables_take_the_shape_they_had_in_the_reference_or_are_dropped() {
        let reference = json!({"spec": {"aa": {}, "bb": [], "cc": ["x"], "dd": {"ee": {}}},
                               "rules": [{"ruleName": []}]});
        let mut result = json!({"spec": {"aa": [], "bb": [], "cc": ["x"], "dd": {"ee": [], "ff": []}},
                                "rules": [{"ruleName": []}, {"ruleName": []}]});
        settle_empty_tables(&mut result, Shape::Map, &[&reference]);
        assert_eq!(
            result,
            json!({"spec": {"aa": {}, "bb": [], "cc": ["x"], "dd": {"ee": {}}},
                   "rules": [{"ruleName": []}, {"ruleName": []}]})
        );
    }

    #[test]
    fn an_empty_result_is_an_empty_map_or_list_by_what_it_is_read_into() {
        let mut map = json!([]);
        settle_empty_tables(&mut map, Shape::Map, &[]);
        assert_eq!(map, json!({}));
        let mut list = json!([]);
        settle_empty_tables(&mut list, Shape::List, &[]);
        assert_eq!(list, json!([]));
    }

    #[test]
    fn without_a_reference_every_empty_table_is_dropped() {
        let mut result = json!({"resourceRequest": {"cpu": "1"}, "nodeClaim": [], "x": [[]]});
        settle_empty_tables(&mut result, Shape::Map, &[]);
        assert_eq!(result, json!({"resourceRequest": {"cpu": "1"}, "x": []}));
    }

    #[test]
    fn the_result_follows_the_templates_key_order() {
        let template =
            json!({"kind": "K", "spec": {"replicas": 1, "template": {}}, "apiVersion": "v"});
        let mut result = json!({"apiVersion": "v", "kind": "K", "spec": {"added": true, "replicas": 3, "template": {}}});
        follow_key_order(&mut result, &template);
        assert_eq!(
            serde_json::to_string(&result).unwrap(),
            r#"{"kind":"K","spec":{"replicas":3,"template":{},"added":true},"apiVersion":"v"}"#
        );
    }
}
