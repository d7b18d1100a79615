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
pub(crate) fn is_integer(number: f64) -> bool {
    go_int64(number) as f64 == number
}

/// gopher-lua's `%` (vm.go `luaModulo`): Go's `math.Mod`, moved to the divisor's sign.
pub(crate) fn lua_modulo(left: f64, right: f64) -> f64 {
    let remainder = left % right;
    if (right > 0.0 && remainder < 0.0) || (right < 0.0 && remainder > 0.0) {
        remainder + right
    } else {
        remainder
    }
}

/// Go's `int64(f)` on amd64: a value out of range (or NaN) becomes the smallest int64.
pub(crate) fn go_int64(number: f64) -> i64 {
    const LIMIT: f64 = 9_223_372_036_854_775_808.0;
    if (-LIMIT..LIMIT).contains(&number) {
        number as i64
    } else {
        i64::MIN
    }
}

/// gopher-lua `LNumber.String`.
pub(crate) fn number_to_string(number: f64) -> String {
    if is_integer(number) {
        go_int64(number).to_string()
    } else {
        go_float::shortest(number)
    }
}

/// gopher-lua `parseNumber`, how it reads a string as a number outside `tonumber`: trimmed of
/// spaces, tabs and newlines, then Go's `ParseInt` in base 0 (`0x`, `0o`, `0b`, a leading `0`
/// for octal, `_` between digits), else `ParseFloat`.
pub(crate) fn parse_number(text: &[u8]) -> Option<f64> {
    let text = std::str::from_utf8(text)
        .ok()?
        .trim_matches([' ', '\t', '\n']);
    parse_int(text, None).or_else(|| parse_float(text))
}

/// gopher-lua `tonumber(text, base)`.
pub(crate) fn to_number(text: &[u8], base: Option<u32>) -> Option<f64> {
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
        // Base 0: Go's prefixes decide (`0x`, `0o`, `0b`, a leading `0`).
        Some(0) => parse_int(text, None),
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
    if let Some(hexadecimal) = unsigned.strip_prefix("0x") {
        let value = parse_hex_float(hexadecimal)?;
        return Some(if lower.starts_with('-') {
            -value
        } else {
            value
        });
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

/// The digits of a hexadecimal float after `0x`, as Go's `ParseFloat` reads them: hexadecimal
/// digits with at most one point, then a mandatory binary exponent `p±d` (`1.8p1` is 3), `_`
/// between digits; out of range is an error. Digits past the sixteenth that is not a leading
/// zero are not read (a double holds 13 and a half).
fn parse_hex_float(text: &str) -> Option<f64> {
    let (mantissa, exponent) = text.split_once('p')?;
    let exponent: i32 = match exponent.strip_prefix('+') {
        Some(digits) if !digits.starts_with(['+', '-']) => digits.replace('_', "").parse().ok()?,
        _ => exponent.replace('_', "").parse().ok()?,
    };
    let mantissa = mantissa.replace('_', "");
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((&mantissa, ""));
    if whole.is_empty() && fraction.is_empty() || fraction.contains('.') {
        return None;
    }
    let mut significand: u64 = 0;
    let mut scale: i32 = 0;
    let mut read = 0;
    for (index, digit) in whole.chars().chain(fraction.chars()).enumerate() {
        let value = u64::from(digit.to_digit(16)?);
        let in_fraction = index >= whole.len();
        if read < 16 {
            if significand > 0 || value > 0 {
                read += 1;
            }
            significand = significand * 16 + value;
            if in_fraction {
                scale -= 4;
            }
        } else if !in_fraction {
            scale += 4;
        }
    }
    let value = significand as f64 * 2f64.powi(exponent.saturating_add(scale));
    value.is_finite().then_some(value)
}

/// Go's `math.Pow` (math/pow.go): the special cases, then `x` to the integer part of `y` by
/// repeated squaring of its mantissa, times `exp(fraction × ln x)` for the rest. An integer
/// exponent is Go's to the bit; a fractional one uses this platform's `exp` and `ln` where Go
/// uses its own, which may differ in the last digit.
pub(crate) fn go_pow(x: f64, y: f64) -> f64 {
    let odd_integer = |value: f64| {
        value.abs() < (1u64 << 53) as f64 && value.fract() == 0.0 && (value as i64) % 2 != 0
    };
    if y == 0.0 || x == 1.0 {
        return 1.0;
    }
    if y == 1.0 {
        return x;
    }
    if x.is_nan() || y.is_nan() {
        return f64::NAN;
    }
    if x == 0.0 {
        return if y < 0.0 {
            if x.is_sign_negative() && odd_integer(y) {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            }
        } else if x.is_sign_negative() && odd_integer(y) {
            x
        } else {
            0.0
        };
    }
    if y.is_infinite() {
        return if x == -1.0 {
            1.0
        } else if (x.abs() < 1.0) == (y > 0.0) {
            0.0
        } else {
            f64::INFINITY
        };
    }
    if x.is_infinite() {
        if x < 0.0 {
            return go_pow(1.0 / x, -y);
        }
        return if y < 0.0 { 0.0 } else { f64::INFINITY };
    }
    if y == 0.5 {
        return x.sqrt();
    }
    if y == -0.5 {
        return 1.0 / x.sqrt();
    }
    let mut whole = y.abs().trunc();
    let mut fraction = y.abs() - whole;
    if fraction != 0.0 && x < 0.0 {
        return f64::NAN;
    }
    if whole >= 9_223_372_036_854_775_808.0 {
        return if x == -1.0 {
            1.0
        } else if (x.abs() < 1.0) == (y > 0.0) {
            0.0
        } else {
            f64::INFINITY
        };
    }
    let mut mantissa = 1.0;
    let mut exponent: i64 = 0;
    if fraction != 0.0 {
        if fraction > 0.5 {
            fraction -= 1.0;
            whole += 1.0;
        }
        mantissa = (fraction * x.ln()).exp();
    }
    let (mut base, mut base_exponent) = frexp(x);
    let mut bits = whole as i64;
    while bits != 0 {
        if !(-(1 << 12)..=(1 << 12)).contains(&base_exponent) {
            // Catastrophic overflow: ldexp settles it.
            exponent += base_exponent;
            break;
        }
        if bits & 1 == 1 {
            mantissa *= base;
            exponent += base_exponent;
        }
        base *= base;
        base_exponent <<= 1;
        if base < 0.5 {
            base += base;
            base_exponent -= 1;
        }
        bits >>= 1;
    }
    if y < 0.0 {
        mantissa = 1.0 / mantissa;
        exponent = -exponent;
    }
    ldexp(mantissa, exponent)
}

/// Go's `math.Frexp`: a mantissa in [½, 1) and a power of two.
fn frexp(value: f64) -> (f64, i64) {
    if value == 0.0 || !value.is_finite() {
        return (value, 0);
    }
    let (value, shift) = if value.abs() < f64::MIN_POSITIVE {
        (value * (1u64 << 52) as f64, -52)
    } else {
        (value, 0)
    };
    let bits = value.to_bits();
    let exponent = ((bits >> 52) & 0x7ff) as i64 - 1022 + shift;
    let mantissa = f64::from_bits((bits & !(0x7ff << 52)) | (1022 << 52));
    (mantissa, exponent)
}

/// Go's `math.Ldexp`: `fraction × 2^exponent`, rounded once (subnormal results included).
fn ldexp(fraction: f64, exponent: i64) -> f64 {
    if fraction == 0.0 || !fraction.is_finite() {
        return fraction;
    }
    // Go's `normalize`: a subnormal fraction scaled into the normal range.
    let (fraction, normal) = if fraction.abs() < f64::MIN_POSITIVE {
        (fraction * (1u64 << 52) as f64, -52)
    } else {
        (fraction, 0)
    };
    let mut exponent = exponent + normal;
    let bits = fraction.to_bits();
    exponent += ((bits >> 52) & 0x7ff) as i64 - 1023;
    if exponent < -1075 {
        return 0.0_f64.copysign(fraction);
    }
    if exponent > 1023 {
        return f64::INFINITY.copysign(fraction);
    }
    let mut multiplier = 1.0;
    if exponent < -1022 {
        exponent += 53;
        multiplier = 1.0 / (1u64 << 53) as f64;
    }
    let bits = (bits & !(0x7ff << 52)) | (((exponent + 1023) as u64) << 52);
    f64::from_bits(bits) * multiplier
}

/// Go's `strings.ToUpper`: every character through `unicode.ToUpper`, a simple mapping (one
/// character to one: `ß` stays `ß`), and every byte that is not UTF-8 as U+FFFD.
pub(crate) fn to_upper(text: &[u8]) -> Vec<u8> {
    map_case(text, |character| {
        let mut upper = character.to_uppercase();
        match (upper.next(), upper.next()) {
            (Some(single), None) => single,
            // Greek letters with a iota subscript, whose full mapping Rust gives (two
            // characters) but whose simple one (UnicodeData) Go's tables hold.
            _ => match u32::from(character) {
                code @ (0x1F80..=0x1F87 | 0x1F90..=0x1F97 | 0x1FA0..=0x1FA7) => {
                    char::from_u32(code + 8).unwrap_or(character)
                }
                code @ (0x1FB3 | 0x1FC3 | 0x1FF3) => char::from_u32(code + 9).unwrap_or(character),
                _ => character,
            },
        }
    })
}

/// Go's `strings.ToLower`, as [`to_upper`].
pub(crate) fn to_lower(text: &[u8]) -> Vec<u8> {
    map_case(text, |character| {
        let mut lower = character.to_lowercase();
        match (lower.next(), lower.next()) {
            (Some(single), None) => single,
            // `İ`: the full mapping is `i` and a combining dot; Go's simple one is `i`.
            _ if character == '\u{130}' => 'i',
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

    /// The cases of a reference file: a provenance line, then one case a line.
    fn reference(text: &str) -> Vec<serde_json::Value> {
        let mut lines = text.lines();
        let header: serde_json::Value = serde_json::from_str(lines.next().unwrap()).unwrap();
        assert!(header["provenance"]["karmada"].is_string(), "{header}");
        lines
            .map(|line| serde_json::from_str(line).unwrap())
            .collect()
    }

    /// A recorded number, spelled as `str::parse` reads it (`"0.5"`, `"-0.0"`, `"NaN"`, `"+Inf"`).
    fn number(value: &serde_json::Value) -> f64 {
        value.as_str().unwrap().parse().unwrap()
    }

    /// The bytes of a recorded text: `text`, or `hex` for bytes that are not UTF-8.
    fn bytes(case: &serde_json::Value) -> Vec<u8> {
        match case["hex"].as_str() {
            Some(hex) => (0..hex.len())
                .step_by(2)
                .map(|at| u8::from_str_radix(&hex[at..at + 2], 16).unwrap())
                .collect(),
            None => case["text"].as_str().unwrap().as_bytes().to_vec(),
        }
    }

    fn gopher_lua(case: &serde_json::Value) -> &str {
        case["gopher_lua"].as_str().unwrap()
    }

    /// Each expected string is what gopher-lua returned for `tostring(number)`:
    /// testdata/references/gopher-lua/number-to-string.jsonl, with its provenance;
    /// testdata/references/README.md says how to regenerate it.
    #[test]
    fn numbers_print_as_in_gopher_lua() {
        let cases = reference(include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../testdata/references/gopher-lua/number-to-string.jsonl"
        )));
        assert!(cases.len() > 10);
        for case in &cases {
            assert_eq!(
                number_to_string(number(&case["number"])),
                gopher_lua(case),
                "{}",
                case["lua"]
            );
        }
    }

    /// gopher-lua's answers, printed by `tostring` (`nil` when the text is no number):
    /// testdata/references/gopher-lua/tonumber.jsonl.
    #[test]
    fn tonumber_reads_as_gopher_lua_does() {
        let cases = reference(include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../testdata/references/gopher-lua/tonumber.jsonl"
        )));
        assert!(cases.len() > 10);
        for case in &cases {
            let base = case["base"]
                .as_u64()
                .map(|base| u32::try_from(base).unwrap());
            let expected = match gopher_lua(case) {
                "nil" => None,
                text => Some(text.parse::<f64>().unwrap()),
            };
            assert_eq!(to_number(&bytes(case), base), expected, "{}", case["lua"]);
        }
    }

    /// gopher-lua's `string.upper` and `string.lower` are Go's `strings.ToUpper` and `ToLower`:
    /// testdata/references/gopher-lua/case-mapping.jsonl.
    #[test]
    fn case_mapping_is_gos() {
        let cases = reference(include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../testdata/references/gopher-lua/case-mapping.jsonl"
        )));
        assert!(cases.len() > 3);
        for case in &cases {
            let mapped = match case["function"].as_str().unwrap() {
                "upper" => to_upper(&bytes(case)),
                _ => to_lower(&bytes(case)),
            };
            assert_eq!(mapped, gopher_lua(case).as_bytes(), "{}", case["lua"]);
        }
    }
}
