//! Finding one ASCII byte in short text, and splitting text at it.
//!
//! The standard library finds a character with `memchr`, whose set-up costs more than the
//! search itself on what a build looks through most: lines of twenty or forty bytes, keys, the
//! tokens of a JSON pointer. A byte-by-byte loop is cheaper there. Only an ASCII byte is looked
//! for, so every position found is a character boundary.

/// Where `byte` first stands in `text`.
pub fn find_byte(text: &str, byte: u8) -> Option<usize> {
    debug_assert!(byte.is_ascii(), "an ASCII byte is looked for");
    text.bytes().position(|each| each == byte)
}

/// `text.split(byte)`: the pieces between each `byte`, and after the last.
pub fn split_at_byte(text: &str, byte: u8) -> impl Iterator<Item = &str> {
    debug_assert!(byte.is_ascii(), "an ASCII byte is split at");
    let mut rest = Some(text);
    std::iter::from_fn(move || {
        let current = rest?;
        match find_byte(current, byte) {
            Some(at) => {
                rest = Some(&current[at + 1..]);
                Some(&current[..at])
            }
            None => {
                rest = None;
                Some(current)
            }
        }
    })
}

/// `text.split_inclusive('\n')`: each line with its line feed, the last without one when the
/// text does not end in one; nothing for an empty text.
pub fn lines_with_breaks(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let end = find_byte(rest, b'\n').map_or(rest.len(), |at| at + 1);
        let (line, after) = rest.split_at(end);
        rest = after;
        Some(line)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each helper answers as the standard library's own search does, on empty text, text
    /// without the byte, the byte first, last, doubled, alone, and beside non-ASCII characters.
    #[test]
    fn the_helpers_answer_as_the_standard_library() {
        let texts = [
            "",
            "/",
            "//",
            "a",
            "/a",
            "a/",
            "a//b",
            "/spec/template/spec/containers/0/image",
            "é/ü/",
            "ключ: значение",
            "\n",
            "a\nb",
            "a\nb\n",
            "\n\na\n\n",
            "ü\n€\n",
        ];
        for text in texts {
            for byte in [b'/', b':', b'\n'] {
                assert_eq!(
                    find_byte(text, byte),
                    text.find(char::from(byte)),
                    "{text:?}"
                );
                assert!(
                    split_at_byte(text, byte).eq(text.split(char::from(byte))),
                    "{text:?} split at {byte}"
                );
            }
            assert!(
                lines_with_breaks(text).eq(text.split_inclusive('\n')),
                "{text:?}"
            );
        }
    }
}
