//! JSON pointers (RFC 6901) into objects, as serde_json's `Value::pointer` reads them but
//! without building a new string for every token: only a token that holds `~` is unescaped.

use serde_json::Value;

use crate::fields::Fields;
use crate::text;

/// What the JSON pointer `pointer` (RFC 6901) names within `value`: what serde_json's
/// `Value::pointer` finds, without writing every token out anew — only one with a `~` in
/// it is unescaped (`~1` to `/`, then `~0` to `~`). Every template's identity and replica
/// field is looked up so, several times per variant.
pub fn pointer<'v>(value: &'v Value, pointer: &str) -> Option<&'v Value> {
    if pointer.is_empty() {
        return Some(value);
    }
    text::split_at_byte(pointer.strip_prefix('/')?, b'/').try_fold(value, |within, token| {
        match within {
            Value::Object(fields) => fields.field(&unescaped(token)),
            Value::Array(items) => index(&unescaped(token)).and_then(|at| items.get(at)),
            _ => None,
        }
    })
}

/// [`pointer()`], to change what it names.
pub fn pointer_mut<'v>(value: &'v mut Value, pointer: &str) -> Option<&'v mut Value> {
    if pointer.is_empty() {
        return Some(value);
    }
    text::split_at_byte(pointer.strip_prefix('/')?, b'/').try_fold(value, |within, token| {
        match within {
            Value::Object(fields) => fields.field_mut(&unescaped(token)),
            Value::Array(items) => index(&unescaped(token)).and_then(|at| items.get_mut(at)),
            _ => None,
        }
    })
}

fn unescaped(token: &str) -> std::borrow::Cow<'_, str> {
    if token.contains('~') {
        token.replace("~1", "/").replace("~0", "~").into()
    } else {
        token.into()
    }
}

/// A list position as a pointer writes it: decimal digits, no sign, no leading zero.
fn index(token: &str) -> Option<usize> {
    if token.starts_with('+') || (token.starts_with('0') && token.len() != 1) {
        return None;
    }
    token.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The same answer as serde_json's `Value::pointer` (and `pointer_mut`) on every pointer
    /// of a document with escaped keys, positions and what no pointer reaches.
    #[test]
    fn pointers_find_what_serde_json_finds() {
        let mut document = json!({"metadata": {"labels": {"a/b": "slash", "a~b": "tilde",
            "~1": "escaped", "": "empty"}}, "items": [{"x": 1}, {"x": 2}], "0": "key",
            "n": null});
        let pointers = [
            "",
            "/",
            "metadata",
            "/metadata",
            "/metadata/labels/a~1b",
            "/metadata/labels/a~0b",
            "/metadata/labels/~01",
            "/metadata/labels/~1",
            "/metadata/labels/",
            "/items/0/x",
            "/items/1/x",
            "/items/01/x",
            "/items/+1/x",
            "/items/-",
            "/items/2",
            "/items/x",
            "/0",
            "/n",
            "/n/x",
            "/missing/x",
            "//",
            "/items/0/x/y",
        ];
        for text in pointers {
            assert_eq!(pointer(&document, text), document.pointer(text), "{text:?}");
            let theirs = document.clone().pointer_mut(text).cloned();
            assert_eq!(
                pointer_mut(&mut document, text).cloned(),
                theirs,
                "{text:?}"
            );
        }
    }
}
