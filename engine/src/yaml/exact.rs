//! A JSON value read the way serde_json reads one, with every map and list built at its
//! final size: the value serde-saphyr reads a fleet's documents into.

use std::fmt;

use serde::Deserialize;
use serde::de::{self as de, Visitor};
use serde_json::Value;

/// A JSON value read as serde_json reads one, but with every map and list built at its final
/// size: a map that grows one key at a time is rehashed as it doubles and keeps room for up to
/// twice its keys (a quarter of a template's memory); collecting the entries first and
/// building the map once costs one hash a key.
pub(super) struct ExactValue(pub(super) Value);

impl<'de> Deserialize<'de> for ExactValue {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ExactVisitor)
    }
}

struct ExactVisitor;

impl<'de> Visitor<'de> for ExactVisitor {
    type Value = ExactValue;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_bool<E: de::Error>(self, flag: bool) -> Result<Self::Value, E> {
        Ok(ExactValue(Value::Bool(flag)))
    }

    fn visit_i64<E: de::Error>(self, number: i64) -> Result<Self::Value, E> {
        Ok(ExactValue(Value::from(number)))
    }

    fn visit_u64<E: de::Error>(self, number: u64) -> Result<Self::Value, E> {
        Ok(ExactValue(Value::from(number)))
    }

    fn visit_i128<E: de::Error>(self, number: i128) -> Result<Self::Value, E> {
        serde_json::Number::deserialize(de::value::I128Deserializer::new(number))
            .map(|number| ExactValue(Value::Number(number)))
    }

    fn visit_u128<E: de::Error>(self, number: u128) -> Result<Self::Value, E> {
        serde_json::Number::deserialize(de::value::U128Deserializer::new(number))
            .map(|number| ExactValue(Value::Number(number)))
    }

    fn visit_f64<E: de::Error>(self, number: f64) -> Result<Self::Value, E> {
        Ok(ExactValue(
            serde_json::Number::from_f64(number).map_or(Value::Null, Value::Number),
        ))
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Self::Value, E> {
        Ok(ExactValue(Value::String(text.to_string())))
    }

    fn visit_string<E: de::Error>(self, text: String) -> Result<Self::Value, E> {
        Ok(ExactValue(Value::String(text)))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(ExactValue(Value::Null))
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(ExactValue(Value::Null))
    }

    fn visit_some<D: serde::Deserializer<'de>>(self, inner: D) -> Result<Self::Value, D::Error> {
        ExactValue::deserialize(inner)
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, mut items: A) -> Result<Self::Value, A::Error> {
        let mut list = Vec::new();
        while let Some(ExactValue(item)) = items.next_element()? {
            list.push(item);
        }
        list.shrink_to_fit();
        Ok(ExactValue(Value::Array(list)))
    }

    fn visit_map<A: de::MapAccess<'de>>(self, mut entries: A) -> Result<Self::Value, A::Error> {
        let mut read: Vec<(String, Value)> = Vec::new();
        while let Some((ExactKey(key), ExactValue(value))) = entries.next_entry()? {
            read.push((key, value));
        }
        let mut map = serde_json::Map::with_capacity(read.len());
        // The reader has refused repeated keys; were one to come, the last would win, as in
        // serde_json.
        map.extend(read);
        Ok(ExactValue(Value::Object(map)))
    }
}

/// A map key, read as serde_json reads one: as a string.
struct ExactKey(String);

impl<'de> Deserialize<'de> for ExactKey {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl Visitor<'_> for KeyVisitor {
            type Value = ExactKey;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string key")
            }

            fn visit_str<E: de::Error>(self, text: &str) -> Result<Self::Value, E> {
                Ok(ExactKey(text.to_string()))
            }

            fn visit_string<E: de::Error>(self, text: String) -> Result<Self::Value, E> {
                Ok(ExactKey(text))
            }
        }
        deserializer.deserialize_str(KeyVisitor)
    }
}
