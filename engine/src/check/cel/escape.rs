//! How a schema's property names become CEL identifiers, and back: the API server exposes an
//! object's property `x-y` to rules as `self.x__dash__y`, and `namespace` (a word CEL reserves)
//! as `self.__namespace__`. A property that cannot be escaped is not reachable by field
//! selection at all. The rules are apiserver's `pkg/cel/escaping.go` (`Escape`, `Unescape`).
//!
//! Only an object's declared properties are escaped; the keys of a map (`additionalProperties`)
//! are used as they are.

/// The literals CEL's grammar reserves beside the parser's reserved names
/// ([`super::parse::RESERVED`]); a property named exactly one of either is `__word__`.
const LITERALS: [&str; 3] = ["true", "false", "null"];

fn is_reserved(word: &str) -> bool {
    LITERALS.contains(&word) || super::parse::RESERVED.contains(&word)
}

/// The CEL identifier that names property `name`, or `None` where the API server leaves the
/// property unreachable: an empty name, one that starts with a digit, or one holding a
/// character other than ASCII letters, digits, `_`, `.`, `-` and `/`.
pub fn escape(name: &str) -> Option<String> {
    if name.is_empty() || name.as_bytes()[0].is_ascii_digit() {
        return None;
    }
    if is_reserved(name) {
        return Some(format!("__{name}__"));
    }
    let mut escaped = String::with_capacity(name.len());
    let bytes = name.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        match bytes[at] {
            // A pair of underscores is escaped before either is looked at alone, so `a___a`
            // is `a__underscores___a` (the leftmost match of escaping.go's expression).
            b'_' if bytes.get(at + 1) == Some(&b'_') => {
                escaped.push_str("__underscores__");
                at += 2;
                continue;
            }
            b'.' => escaped.push_str("__dot__"),
            b'-' => escaped.push_str("__dash__"),
            b'/' => escaped.push_str("__slash__"),
            byte if byte.is_ascii_alphanumeric() || byte == b'_' => escaped.push(char::from(byte)),
            _ => return None,
        }
        at += 1;
    }
    Some(escaped)
}

/// The property an escaped identifier names, or `None` for an escape sequence the API server
/// does not know (`__illegal__`) or a reserved word escaped inside a longer identifier
/// (`__int__extra`). Each `__x__` with no underscore inside is one sequence, replaced from the
/// left, as escaping.go's `_{2}[^_]+_{2}`.
pub fn unescape(identifier: &str) -> Option<String> {
    let bytes = identifier.as_bytes();
    let mut property = String::with_capacity(identifier.len());
    let mut copied = 0;
    let mut at = 0;
    while at + 1 < bytes.len() {
        if bytes[at] != b'_' || bytes[at + 1] != b'_' {
            at += 1;
            continue;
        }
        let inside = at + 2;
        let end = inside + bytes[inside..].iter().take_while(|&&b| b != b'_').count();
        if end == inside || !identifier[end..].starts_with("__") {
            at += 1;
            continue;
        }
        let word = &identifier[inside..end];
        let replacement = match word {
            "underscores" => "__",
            "dot" => ".",
            "dash" => "-",
            "slash" => "/",
            word if is_reserved(word) && at == 0 && end + 2 == bytes.len() => word,
            _ => return None,
        };
        property.push_str(&identifier[copied..at]);
        property.push_str(replacement);
        at = end + 2;
        copied = at;
    }
    property.push_str(&identifier[copied..]);
    Some(property)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// apiserver pkg/cel/escaping_test.go `TestEscaping`: each name, its identifier, and back.
    #[test]
    fn names_escape_and_unescape_as_the_api_server_does() {
        let cases = [
            ("a.a", "a__dot__a"),
            ("a-a", "a__dash__a"),
            ("a__a", "a__underscores__a"),
            ("a.-/__a", "a__dot____dash____slash____underscores__a"),
            ("a._a", "a__dot___a"),
            ("a__.__a", "a__underscores____dot____underscores__a"),
            ("a___a", "a__underscores___a"),
            ("a____a", "a__underscores____underscores__a"),
            ("a__dot__a", "a__underscores__dot__underscores__a"),
            (
                "a__underscores__a",
                "a__underscores__underscores__underscores__a",
            ),
            ("namespace", "__namespace__"),
            ("while", "__while__"),
            ("true", "__true__"),
            ("has", "has"),
            ("exists_one", "exists_one"),
            ("getMilliseconds", "getMilliseconds"),
            ("_if", "_if"),
            ("_anything", "_anything"),
        ];
        for (name, identifier) in cases {
            assert_eq!(escape(name).as_deref(), Some(identifier), "{name}");
            assert_eq!(unescape(identifier).as_deref(), Some(name), "{identifier}");
        }
        for word in LITERALS.into_iter().chain(super::super::parse::RESERVED) {
            assert_eq!(escape(word), Some(format!("__{word}__")));
        }
    }

    /// `TestEscaping`'s unescapable names, and names holding other characters.
    #[test]
    fn names_outside_the_alphabet_are_unreachable() {
        for name in ["@", "1up", "👑", "", "a b", "a:b", "-👑", "a-é"] {
            assert_eq!(escape(name), None, "{name:?}");
        }
    }

    /// escaping_test.go `TestUnescapeMalformed`.
    #[test]
    fn unknown_escape_sequences_do_not_unescape() {
        for identifier in ["__int__extra", "__illegal__", "a__namespace__"] {
            assert_eq!(unescape(identifier), None, "{identifier}");
        }
        // No sequence at all: the identifier is the property.
        for identifier in ["plain", "_a_", "a___", "___", "a__b"] {
            assert_eq!(unescape(identifier).as_deref(), Some(identifier));
        }
    }

    /// escaping_test.go `TestEscapingFuzz`: every escapable name of the alphabet comes back.
    #[test]
    fn every_escaped_name_unescapes_to_itself() {
        let alphabet = b"a_.-/Z9";
        let mut name = Vec::new();
        for seed in 0u32..20_000 {
            name.clear();
            let mut n = seed;
            while n > 0 {
                name.push(alphabet[(n % alphabet.len() as u32) as usize]);
                n /= alphabet.len() as u32;
            }
            let name = std::str::from_utf8(&name).unwrap();
            if let Some(identifier) = escape(name) {
                assert!(
                    identifier
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'_'),
                    "{identifier}"
                );
                assert_eq!(unescape(&identifier).as_deref(), Some(name), "{name}");
            }
        }
    }
}
