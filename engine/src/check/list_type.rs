//! `x-kubernetes-list-type`: how a CRD's list is merged and what makes its items the same
//! (apiextensions pkg/apiserver/schema/listtype: duplicates of a set or map are refused).

use serde_json::Value;

use super::formats::describe;

#[derive(Debug, Clone, PartialEq)]
pub enum ListType {
    /// The list is one value (the default): items may repeat.
    Atomic,
    /// Each item is unique.
    Set,
    /// Each item is an object unique by the values of these fields.
    Map(Vec<String>),
}

impl ListType {
    /// The identity of an item of a map list: the values of its keys, as JSON text; `None`
    /// for other lists, whose items have no identity beyond their value.
    pub fn map_key(&self, item: &Value) -> Option<String> {
        let ListType::Map(keys) = self else {
            return None;
        };
        let key: serde_json::Map<String, Value> = keys
            .iter()
            .filter_map(|key| Some((key.clone(), item.get(key)?.clone())))
            .collect();
        Some(Value::Object(key).to_string())
    }

    /// The items of a set or map that repeat an earlier one, each with the API server's
    /// "Duplicate value" for it: its position and the message.
    pub fn duplicates(&self, items: &[Value]) -> Vec<(usize, String)> {
        let mut seen: std::collections::HashMap<String, usize> = Default::default();
        let mut found = Vec::new();
        for (index, item) in items.iter().enumerate() {
            let key = match self {
                ListType::Atomic => return found,
                ListType::Set => item.to_string(),
                ListType::Map(_) => self.map_key(item).expect("a map list"),
            };
            if let Some(&first) = seen.get(&key) {
                found.push((
                    index,
                    match self {
                        ListType::Map(keys) => format!(
                            "Duplicate value: {key}: the list is a map keyed by {}, and item \
                             {first} has the same key",
                            keys.join(", ")
                        ),
                        _ => format!(
                            "Duplicate value: {}: the list is a set, and item {first} is the same",
                            describe(item)
                        ),
                    },
                ));
            } else {
                seen.insert(key, index);
            }
        }
        found
    }
}
