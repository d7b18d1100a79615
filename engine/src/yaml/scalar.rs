//! Which scalars are surely strings, and which surely are not, to every YAML reader: the rules
//! the fast paths of the YAML reader and writer share. A scalar neither rule settles is left to
//! serde-saphyr.

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Position {
    Key,
    Value,
}

/// Holds only letters, digits and `. _ / -` (a value also inner spaces, not before `:`, and
/// `: % = , @ +`, a `:` not last), and starts with a letter; a value may also start with `/`
/// (a path), `-` or `--` then a letter (a command-line flag), or a digit when a `%` follows
/// (`25%`) or it is digits, maybe a fraction, then letters (`1024Mi`, `250m`, `30s`). So it is
/// no number, date, indicator or comment to any reader; nor is it one of the words read as a
/// boolean or null.
pub(super) fn is_plain_word(text: &str, position: Position) -> bool {
    let bytes = text.as_bytes();
    let (Some(&first), Some(&last)) = (bytes.first(), bytes.last()) else {
        return false;
    };
    let value = position == Position::Value;
    let well_begun = match first {
        b'a'..=b'z' | b'A'..=b'Z' => !is_reserved_word(text),
        b'/' => value,
        b'-' => {
            let flag = text.trim_start_matches('-');
            value
                && text.len() - flag.len() <= 2
                && flag.as_bytes().first().is_some_and(u8::is_ascii_alphabetic)
                && !is_reserved_word(flag)
        }
        // No number, date or time has a `%` in it, or ends in a letter (`1e`, `0x` and `0o`
        // want digits after them; `0xff` is excluded).
        b'0'..=b'9' => value && (text.contains('%') || is_quantity(text)),
        _ => false,
    };
    if !well_begun || matches!(last, b':' | b' ') {
        return false;
    }
    // One lookup and one `and` a byte, no branch: every key and value written comes through
    // here. What is left says whether every byte may stand in the word, and whether none is a
    // `:` — only then is the `: ` a value may not hold looked for.
    let table = if value { &VALUE_BYTES } else { &KEY_BYTES };
    let marks = bytes.iter().fold(FITS | NO_COLON, |marks, &byte| {
        marks & table[usize::from(byte)]
    });
    marks & FITS != 0 && (marks & NO_COLON != 0 || !bytes.windows(2).any(|pair| pair == b": "))
}

/// Per byte, [`FITS`] where it may stand in a plain key or value, and [`NO_COLON`] unless it
/// is a `:`. Tables, since every key and value written is looked at byte by byte.
const KEY_BYTES: [u8; 256] = word_bytes(false);
const VALUE_BYTES: [u8; 256] = word_bytes(true);
const FITS: u8 = 1;
const NO_COLON: u8 = 2;

const fn word_bytes(value: bool) -> [u8; 256] {
    let mut table = [0; 256];
    let mut byte = 0;
    while byte < 256 {
        let fits = match byte as u8 {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'.' | b'_' | b'/' | b'-' => true,
            b':' | b' ' | b'%' | b'=' | b',' | b'@' | b'+' => value,
            _ => false,
        };
        table[byte] = if fits { FITS } else { 0 } | if byte as u8 == b':' { 0 } else { NO_COLON };
        byte += 1;
    }
    table
}

/// Digits, maybe a fraction, then letters — `1024Mi`, `0.5Gi`, `250m`, `30s` — and no radix
/// prefix (`0x`, `0o`, `0b`).
fn is_quantity(text: &str) -> bool {
    let number_end = text
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(number_end);
    let digits = |part: &str| !part.is_empty() && part.bytes().all(|byte| byte.is_ascii_digit());
    let number_is_decimal = match number.split_once('.') {
        Some((whole, fraction)) => digits(whole) && digits(fraction),
        None => digits(number),
    };
    number_is_decimal
        && !unit.is_empty()
        && unit.bytes().all(|byte| byte.is_ascii_alphabetic())
        && !(number == "0" && matches!(unit.as_bytes()[0], b'x' | b'X' | b'o' | b'O' | b'b' | b'B'))
}

/// Words some YAML reader resolves to a boolean, null or special float (YAML 1.1's `y`, `on`,
/// `no` among them), in any case.
pub(super) fn is_reserved_word(text: &str) -> bool {
    text.len() <= 5
        && [
            "y", "n", "yes", "no", "on", "off", "true", "false", "null", "nan", "inf",
        ]
        .iter()
        .any(|word| text.eq_ignore_ascii_case(word))
}

/// A reserved word, or a decimal integer or fraction: quoted, and nothing in it to escape. A
/// value is also quoted when YAML 1.1 (Go's reader among them) reads it as a number or null:
/// see [`is_yaml11_number`].
pub(super) fn is_quoted_word(text: &str, position: Position) -> bool {
    if is_reserved_word(text) {
        return true;
    }
    let unsigned = text.strip_prefix('-').unwrap_or(text);
    let digits = |part: &str| !part.is_empty() && part.bytes().all(|byte| byte.is_ascii_digit());
    let decimal = match unsigned.split_once('.') {
        Some((whole, fraction)) => digits(whole) && digits(fraction),
        None => digits(unsigned),
    };
    decimal || position == Position::Value && (text == "~" || is_yaml11_number(text))
}

/// What YAML 1.1 reads as a number and YAML 1.2 may not, as ConfigMaps and environment
/// variables hold them quoted: a sign (`+1`), leading zeros (`0755`, `08`), underscores, which
/// Go's reader drops before it resolves (`1_000`), a radix (`0x1F`, `0o17`, `0b101`), an
/// exponent (`1e3`, `2.5E-3`), dots (`.5`, `1.`, `1.2.3`: YAML 1.1's float allows more dots in
/// the fraction), base 60 (`12:30`). Each holds a digit; timestamps and spellings with no digit
/// are left to serde-saphyr.
fn is_yaml11_number(text: &str) -> bool {
    let unsigned = text.strip_prefix(['+', '-']).unwrap_or(text);
    if !unsigned.starts_with(|c: char| c.is_ascii_digit() || c == '.')
        || !unsigned.bytes().any(|byte| byte.is_ascii_digit())
    {
        return false;
    }
    let all = |part: &str, radix: u32| !part.is_empty() && part.chars().all(|c| c.is_digit(radix));
    if unsigned.contains(':') {
        let mut parts = unsigned.split(':');
        let first = parts.next().unwrap_or_default();
        return all(first, 10)
            && !first.starts_with('0')
            && parts.all(|part| match part.as_bytes() {
                [digit] => digit.is_ascii_digit(),
                [tens, units] => matches!(tens, b'0'..=b'5') && units.is_ascii_digit(),
                _ => false,
            });
    }
    let unsigned = unsigned.replace('_', "");
    for prefix in ["0x", "0X", "0o", "0O", "0b", "0B"] {
        if let Some(digits) = unsigned.strip_prefix(prefix) {
            let radix = match prefix.as_bytes()[1].to_ascii_lowercase() {
                b'x' => 16,
                b'o' => 8,
                _ => 2,
            };
            return all(digits, radix);
        }
    }
    let mantissa = match unsigned.split_once(['e', 'E']) {
        Some((mantissa, exponent)) => {
            if !all(exponent.strip_prefix(['+', '-']).unwrap_or(exponent), 10) {
                return false;
            }
            mantissa
        }
        None => &unsigned,
    };
    match mantissa.split_once('.') {
        Some((whole, fraction)) => {
            (whole.is_empty() || all(whole, 10))
                && fraction
                    .bytes()
                    .all(|byte| byte.is_ascii_digit() || byte == b'.')
        }
        None => all(mantissa, 10),
    }
}

#[cfg(test)]
mod tests {
    use super::super::random::Random;
    use super::*;

    /// The bytes of a plain word, as the rule says them: each one of the word's own (a value
    /// takes a few more), and no `: ` in it.
    fn fits_bytewise(text: &str, position: Position) -> bool {
        let allowed = |byte: u8| {
            byte.is_ascii_alphanumeric()
                || b"._/-".contains(&byte)
                || position == Position::Value && b": %=,@+".contains(&byte)
        };
        text.bytes().all(allowed) && !text.contains(": ")
    }

    /// Words of letters, digits, the punctuation a value may hold and some it may not: what
    /// the one-pass table decides is what the rule says, once the word begins and ends well.
    #[test]
    fn the_table_decides_as_the_rule_reads() {
        let pieces = [
            "a", "Z", "9", ".", "_", "/", "-", ":", " ", "%", "=", ",", "@", "+", ": ", "#", "'",
            "\"", "é", "\t", "::", "x:", "[", "~",
        ];
        let mut random = Random(0x0005_eed0_fa11);
        for _ in 0..20_000 {
            let mut text = String::from(random.pick(&["a", "b", "Web", "x"]));
            for _ in 0..random.below(8) {
                text.push_str(random.pick(&pieces));
            }
            text.push_str(random.pick(&["z", "1", ".", "-", ":", " "]));
            for position in [Position::Key, Position::Value] {
                let begins_and_ends_well = !is_reserved_word(&text) && !text.ends_with([':', ' ']);
                assert_eq!(
                    is_plain_word(&text, position),
                    begins_and_ends_well && fits_bytewise(&text, position),
                    "{text:?} as a {}",
                    if position == Position::Key {
                        "key"
                    } else {
                        "value"
                    }
                );
            }
        }
    }
}
