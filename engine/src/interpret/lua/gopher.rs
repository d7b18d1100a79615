//! Where gopher-lua, the Lua Karmada runs (vendor/github.com/yuin/gopher-lua at Karmada
//! f8fdd02), turns numbers into text and text into numbers differently from C Lua 5.1, which
//! fedrender embeds: the results reach the output whenever a script writes a number into an
//! object, so fedrender writes them as gopher-lua does.
//!
//! - A number as text (`LNumber.String`): an integral value as an integer, any other through
//!   Go's shortest float formatting: `0.6666666666666666`, `2000000000000000`, `1e+21`.
//! - `tonumber` (baselib.go `baseToNumber`): a string with a `.` is read by Go's `ParseFloat`,
//!   any other by `ParseInt` in the base (`0x` for 16 without one), so `"1e2"`, `"inf"` and
//!   `"0x1p4"` are nil.
//! - `string.upper`/`lower`: Go's Unicode case mapping, character by character.

use crate::go_float;

/// gopher-lua `isInteger`: the value survives Go's conversion to int64 (on amd64, where an
/// out-of-range or NaN value converts to the smallest int64).
pub fn is_integer(number: f64) -> bool {
    go_int64(number) as f64 == number
}

/// Go's `int64(f)` on amd64: a value out of range (or NaN) becomes the smallest int64.
pub fn go_int64(number: f64) -> i64 {
    const LIMIT: f64 = 9_223_372_036_854_775_808.0;
    if (-LIMIT..LIMIT).contains(&number) {
        number as i64
    } else {
        i64::MIN
    }
}

/// gopher-lua `LNumber.String`.
pub fn number_to_string(number: f64) -> String {
    if is_integer(number) {
        go_int64(number).to_string()
    } else {
        go_float::shortest(number)
    }
}

/// gopher-lua `parseNumber`, how it reads a string as a number outside `tonumber`: trimmed of
/// spaces, tabs and newlines, then Go's `ParseInt` in base 0 (`0x`, `0o`, `0b`, a leading `0`
/// for octal, `_` between digits), else `ParseFloat`.
pub fn parse_number(text: &[u8]) -> Option<f64> {
    let text = std::str::from_utf8(text)
        .ok()?
        .trim_matches([' ', '\t', '\n']);
    parse_int(text, None).or_else(|| parse_float(text))
}

/// gopher-lua `tonumber(text, base)`.
pub fn to_number(text: &[u8], base: Option<u32>) -> Option<f64> {
    let text = std::str::from_utf8(text)
        .ok()?
        .trim_matches([' ', '\n', '\t']);
    if text.contains('.') {
        return parse_float(text);
    }
    match base {
        None => match text.get(..2) {
            Some(prefix) if prefix.eq_ignore_ascii_case("0x") => parse_int(&text[2..], Some(16)),
            _ => parse_int(text, Some(10)),
        },
        Some(base) => parse_int(text, Some(base)),
    }
}

/// Go's `strconv.ParseInt(text, base, 64)`, as a float; `None` for base 0 (the prefix decides,
/// and `_` may separate digits).
fn parse_int(text: &str, base: Option<u32>) -> Option<f64> {
    let (negative, digits) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    let (base, digits) = match base {
        Some(base) => (base, digits.to_string()),
        None => {
            let lower = digits.to_ascii_lowercase();
            let (base, rest) = if let Some(rest) = lower.strip_prefix("0x") {
                (16, rest)
            } else if let Some(rest) = lower.strip_prefix("0o") {
                (8, rest)
            } else if let Some(rest) = lower.strip_prefix("0b") {
                (2, rest)
            } else if lower.len() > 1 && lower.starts_with('0') {
                (8, &lower[1..])
            } else {
                (10, lower.as_str())
            };
            // Underscores only between digits (or after the prefix).
            let underscored = rest.contains('_');
            if underscored
                && (rest.starts_with('_') && base == 10
                    || rest.ends_with('_')
                    || rest.contains("__"))
            {
                return None;
            }
            (base, rest.replace('_', ""))
        }
    };
    if !(2..=36).contains(&base) || digits.is_empty() {
        return None;
    }
    let magnitude = u64::from_str_radix(&digits, base).ok()?;
    let limit = if negative {
        1u64 << 63
    } else {
        (1u64 << 63) - 1
    };
    if magnitude > limit {
        return None;
    }
    let value = magnitude as f64;
    Some(if negative { -value } else { value })
}

/// Go's `strconv.ParseFloat(text, 64)`: decimal or hexadecimal floats, `inf`/`infinity`/`nan`
/// in any case, `_` between digits; out of range is an error.
fn parse_float(text: &str) -> Option<f64> {
    let lower = text.to_ascii_lowercase();
    let unsigned = lower.trim_start_matches(['+', '-']);
    if lower.len() - unsigned.len() > 1 {
        return None;
    }
    match unsigned {
        "inf" | "infinity" => {
            return Some(if lower.starts_with('-') {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            });
        }
        "nan" => return Some(f64::NAN),
        _ => {}
    }
    if unsigned.starts_with("0x") {
        // Hexadecimal floats are rare in objects; Rust has no parser for them.
        return None;
    }
    if unsigned.is_empty()
        || !unsigned
            .bytes()
            .all(|byte| byte.is_ascii_digit() || matches!(byte, b'.' | b'e' | b'+' | b'-' | b'_'))
    {
        return None;
    }
    let value: f64 = lower.replace('_', "").parse().ok()?;
    value.is_finite().then_some(value)
}

/// Go's `strings.ToUpper`: every character through `unicode.ToUpper`, a simple mapping (one
/// character to one: `ß` stays `ß`), and every byte that is not UTF-8 as U+FFFD.
pub fn to_upper(text: &[u8]) -> Vec<u8> {
    map_case(text, |character| {
        let mut upper = character.to_uppercase();
        match (upper.next(), upper.next()) {
            (Some(single), None) => single,
            _ => character,
        }
    })
}

/// Go's `strings.ToLower`, as [`to_upper`].
pub fn to_lower(text: &[u8]) -> Vec<u8> {
    map_case(text, |character| {
        let mut lower = character.to_lowercase();
        match (lower.next(), lower.next()) {
            (Some(single), None) => single,
            _ => character,
        }
    })
}

fn map_case(text: &[u8], map: impl Fn(char) -> char) -> Vec<u8> {
    if text.is_ascii() {
        return text
            .iter()
            .map(|&byte| map(char::from(byte)) as u8)
            .collect();
    }
    let mut out = Vec::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        let (valid, invalid) = match std::str::from_utf8(rest) {
            Ok(valid) => (valid, 0),
            Err(error) => (
                std::str::from_utf8(&rest[..error.valid_up_to()]).expect("checked"),
                1,
            ),
        };
        for character in valid.chars() {
            let mut buffer = [0u8; 4];
            out.extend_from_slice(map(character).encode_utf8(&mut buffer).as_bytes());
        }
        rest = &rest[valid.len()..];
        if invalid > 0 {
            out.extend_from_slice("\u{fffd}".as_bytes());
            rest = &rest[invalid..];
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each expected string is what gopher-lua returned for `tostring(expression)`, run with
    /// Go 1.26 on amd64.
    #[test]
    fn numbers_print_as_in_gopher_lua() {
        for (number, expected) in [
            (2.0 / 3.0, "0.6666666666666666"),
            (2.0 * 1e15, "2000000000000000"),
            (2.0 * 123456789012345.0, "246913578024690"),
            (std::f64::consts::PI, "3.141592653589793"),
            (0.1 + 0.2, "0.30000000000000004"),
            (f64::MAX, "1.7976931348623157e+308"),
            (-0.0, "0"),
            (f64::NAN, "NaN"),
            (f64::INFINITY, "+Inf"),
            (f64::NEG_INFINITY, "-Inf"),
            (2f64.powi(63), "9.223372036854776e+18"),
            (-(2f64.powi(63)), "-9223372036854775808"),
            (1e15, "1000000000000000"),
            (1234567.5, "1.2345675e+06"),
            (1e-5, "1e-05"),
            (1e21, "1e+21"),
            ((-0.5f64).ceil(), "0"),
        ] {
            assert_eq!(number_to_string(number), expected, "{number}");
        }
    }

    #[test]
    fn tonumber_reads_as_gopher_lua_does() {
        let cases: &[(&str, Option<u32>, Option<f64>)] = &[
            ("0x10", None, Some(16.0)),
            ("10", Some(16), Some(16.0)),
            (" 12 ", None, Some(12.0)),
            ("1.5e3", None, Some(1500.0)),
            ("inf", None, None),
            ("0x1p4", None, None),
            ("nan", None, None),
            ("1e2", None, None),
            ("", None, None),
            ("-7", None, Some(-7.0)),
            ("+7", None, Some(7.0)),
            ("7", Some(2), None),
            ("z", Some(36), Some(35.0)),
        ];
        for &(text, base, expected) in cases {
            assert_eq!(
                to_number(text.as_bytes(), base),
                expected,
                "{text:?} {base:?}"
            );
        }
    }

    #[test]
    fn case_mapping_is_gos() {
        assert_eq!(to_upper("Zürich".as_bytes()), "ZÜRICH".as_bytes());
        assert_eq!(to_lower("ÀÉÎ".as_bytes()), "àéî".as_bytes());
        assert_eq!(to_upper("straße".as_bytes()), "STRAßE".as_bytes());
        assert_eq!(to_upper(b"a\xffb"), "A\u{fffd}B".as_bytes());
    }
}
