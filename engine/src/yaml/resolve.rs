//! What a scalar is to go-yaml v2, the YAML 1.1 reader behind sigs.k8s.io/yaml (kubectl, the
//! Kubernetes API server, Karmada): the rules of its `resolve.go`, written again here. Its word
//! table is case-exact (`yes`, `Yes` and `YES` are true, `yEs` is a string), it drops every `_`
//! from a number-like scalar before reading it (`1_0.5` is 10.5), reads integers as Go's
//! `strconv.ParseInt` does with base 0 (`0x10`, `0o17`, `0b11`, a leading `0` for octal, a
//! sign), and a scalar that is none of these, or a float out of range (`1e309`), is a string.

/// A scalar as go-yaml resolves it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Resolved {
    Null,
    Bool(bool),
    /// Fits Go's `int` (64 bits).
    Int(i64),
    /// Above `i64::MAX`: Go's `uint64`.
    Uint(u64),
    Float(f64),
    /// The text itself (a timestamp is one too: go-yaml hands it to a Go `interface{}` as the
    /// text it was written as).
    Str,
}

/// The long form of the tags go-yaml knows.
const TAG_PREFIX: &str = "tag:yaml.org,2002:";

/// An untagged plain scalar.
pub(super) fn plain(text: &str) -> Resolved {
    let Some(&first) = text.as_bytes().first() else {
        return Resolved::Null;
    };
    match first {
        b'y' | b'Y' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'o' | b'O' | b'~' => {
            word(text).unwrap_or(Resolved::Str)
        }
        b'.' => word(text).unwrap_or_else(|| {
            go_parse_float(text)
                .map(Resolved::Float)
                .unwrap_or(Resolved::Str)
        }),
        b'+' | b'-' | b'0'..=b'9' => word(text).unwrap_or_else(|| number(text)),
        _ => Resolved::Str,
    }
}

/// go-yaml's table of words, exactly as spelled there.
fn word(text: &str) -> Option<Resolved> {
    Some(match text {
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
            Resolved::Bool(true)
        }
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            Resolved::Bool(false)
        }
        "~" | "null" | "Null" | "NULL" => Resolved::Null,
        ".nan" | ".NaN" | ".NAN" => Resolved::Float(f64::NAN),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => Resolved::Float(f64::INFINITY),
        "-.inf" | "-.Inf" | "-.INF" => Resolved::Float(f64::NEG_INFINITY),
        _ => return None,
    })
}

/// A scalar that starts with a digit or a sign: an integer, else a YAML-style float, with its
/// underscores dropped first.
fn number(text: &str) -> Resolved {
    let plain = text.replace('_', "");
    if let Some(integer) = go_parse_int(&plain) {
        return integer;
    }
    if is_yaml_style_float(&plain)
        && let Ok(float) = plain.parse::<f64>()
        && float.is_finite()
    {
        return Resolved::Float(float);
    }
    Resolved::Str
}

/// `strconv.ParseInt(text, 0, 64)`, then `strconv.ParseUint(text, 0, 64)` for what is too large:
/// an optional sign (ParseInt only), then `0x`, `0o` or `0b` and at least one digit, or a `0`
/// and octal digits, or decimal digits.
fn go_parse_int(text: &str) -> Option<Resolved> {
    let (negative, signed, unsigned) = match text.as_bytes().first()? {
        b'-' => (true, true, &text[1..]),
        b'+' => (false, true, &text[1..]),
        _ => (false, false, text),
    };
    let bytes = unsigned.as_bytes();
    let (radix, digits) = match bytes {
        [b'0', b'x' | b'X', _, ..] => (16, &unsigned[2..]),
        [b'0', b'o' | b'O', _, ..] => (8, &unsigned[2..]),
        [b'0', b'b' | b'B', _, ..] => (2, &unsigned[2..]),
        [b'0', ..] => (8, &unsigned[1..]),
        [] => return None,
        _ => (10, unsigned),
    };
    // Go reads `0` itself as an octal number with no digits after the `0`.
    if !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let mut value: u128 = 0;
    for c in digits.chars() {
        value = value
            .checked_mul(u128::from(radix))?
            .checked_add(u128::from(c.to_digit(radix)?))?;
        if value > u128::from(u64::MAX) {
            return None;
        }
    }
    if negative {
        return (value <= 1u128 << 63)
            .then(|| Resolved::Int((value as i128).wrapping_neg() as i64));
    }
    if let Ok(small) = i64::try_from(value) {
        return Some(Resolved::Int(small));
    }
    // ParseUint takes no sign.
    (!signed).then_some(Resolved::Uint(value as u64))
}

/// go-yaml's `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`.
fn is_yaml_style_float(text: &str) -> bool {
    let digits = |part: &str| !part.is_empty() && part.bytes().all(|byte| byte.is_ascii_digit());
    let text = text.strip_prefix(['+', '-']).unwrap_or(text);
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(at) => (&text[..at], Some(&text[at + 1..])),
        None => (text, None),
    };
    let mantissa_ok = match mantissa.split_once('.') {
        Some(("", fraction)) => digits(fraction),
        Some((whole, fraction)) => digits(whole) && (fraction.is_empty() || digits(fraction)),
        None => digits(mantissa),
    };
    mantissa_ok
        && exponent
            .is_none_or(|exponent| digits(exponent.strip_prefix(['+', '-']).unwrap_or(exponent)))
}

/// `strconv.ParseFloat(text, 64)` for a scalar that starts with `.`: digits with `_` between
/// digits, maybe an exponent; out of range is no float.
fn go_parse_float(text: &str) -> Option<f64> {
    let bytes = text.as_bytes();
    // Go's underscoreOK: each `_` stands between two digits.
    for (at, &byte) in bytes.iter().enumerate() {
        if byte == b'_'
            && !(at > 0
                && bytes[at - 1].is_ascii_digit()
                && bytes.get(at + 1).is_some_and(u8::is_ascii_digit))
        {
            return None;
        }
    }
    let plain = text.replace('_', "");
    if !is_yaml_style_float(&plain) {
        return None;
    }
    plain.parse::<f64>().ok().filter(|float| float.is_finite())
}

/// A scalar with a tag, or quoted, or a block: go-yaml's `resolve` for the tag (`None` for a
/// quoted or block scalar without one, which is a string). A tag go-yaml does not know (a
/// local `!custom`, `!`) leaves the text a string; a known tag the text does not fit is an
/// error in go-yaml's words.
pub(super) fn tagged(tag: Option<&str>, text: &str, is_plain: bool) -> Result<Resolved, String> {
    let Some(tag) = tag else {
        return Ok(if is_plain { plain(text) } else { Resolved::Str });
    };
    let Some(short) = tag.strip_prefix(TAG_PREFIX) else {
        return Ok(Resolved::Str);
    };
    let wanted = match short {
        "str" => return Ok(Resolved::Str),
        "binary" => return Ok(Resolved::Str),
        "bool" | "int" | "float" | "null" | "timestamp" => short,
        _ => return Ok(Resolved::Str),
    };
    if wanted == "timestamp" && is_timestamp(text) {
        return Ok(Resolved::Str);
    }
    let resolved = plain(text);
    let found = match resolved {
        Resolved::Null => "null",
        Resolved::Bool(_) => "bool",
        Resolved::Int(_) | Resolved::Uint(_) => "int",
        Resolved::Float(_) => "float",
        Resolved::Str => "str",
    };
    match (wanted, resolved) {
        (wanted, resolved) if wanted == found => Ok(resolved),
        ("float", Resolved::Int(integer)) => Ok(Resolved::Float(integer as f64)),
        _ => Err(format!("cannot decode !!{found} `{text}` as a !!{wanted}")),
    }
}

/// go-yaml's `parseTimestamp`: four digits and a `-`, then one of the layouts
/// `2006-1-2T15:4:5.999999999Z07:00` (`T` or `t`), `2006-1-2 15:4:5.999999999` or `2006-1-2`,
/// as Go's `time.Parse` reads them (a day that exists in its month, hours below 24…).
pub(super) fn is_timestamp(text: &str) -> bool {
    let bytes = text.as_bytes();
    if bytes.len() < 5 || !bytes[..4].iter().all(u8::is_ascii_digit) || bytes[4] != b'-' {
        return false;
    }
    let (date, time) = match text.find(['T', 't', ' ']) {
        Some(at) => (&text[..at], Some((bytes[at], &text[at + 1..]))),
        None => (text, None),
    };
    let mut parts = date.split('-');
    let (Some(year), Some(month), Some(day), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    let number = |part: &str, max_digits: usize| {
        (!part.is_empty() && part.len() <= max_digits && part.bytes().all(|b| b.is_ascii_digit()))
            .then(|| part.parse::<u32>().ok())
            .flatten()
    };
    let (Some(year), Some(month), Some(day)) = (number(year, 4), number(month, 2), number(day, 2))
    else {
        return false;
    };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    if day == 0 || day > days {
        return false;
    }
    let Some((separator, time)) = time else {
        return true;
    };
    // The zone: `Z` or `±hh:mm`, only after `T`/`t`; none after a space.
    let (clock, zone_ok) = if separator == b' ' {
        (time, true)
    } else if let Some(clock) = time.strip_suffix('Z') {
        (clock, true)
    } else if time.len() > 6 && matches!(time.as_bytes()[time.len() - 6], b'+' | b'-') {
        let zone = &time[time.len() - 5..];
        let ok = zone.len() == 5
            && zone.as_bytes()[2] == b':'
            && number(&zone[..2], 2).is_some_and(|hours| hours < 24)
            && number(&zone[3..], 2).is_some_and(|minutes| minutes < 60);
        (&time[..time.len() - 6], ok)
    } else {
        return false;
    };
    if !zone_ok {
        return false;
    }
    let (clock, fraction) = match clock.split_once('.') {
        Some((clock, fraction)) => (clock, Some(fraction)),
        None => (clock, None),
    };
    if fraction.is_some_and(|fraction| {
        fraction.is_empty() || fraction.len() > 9 || !fraction.bytes().all(|b| b.is_ascii_digit())
    }) {
        return false;
    }
    let mut fields = clock.split(':');
    let (Some(hour), Some(minute), Some(second), None) =
        (fields.next(), fields.next(), fields.next(), fields.next())
    else {
        return false;
    };
    number(hour, 2).is_some_and(|hour| hour < 24)
        && number(minute, 2).is_some_and(|minute| minute < 60)
        && number(second, 2).is_some_and(|second| second < 60)
}

/// Go's `base64.StdEncoding.DecodeString` for a `!!binary` scalar (line breaks ignored):
/// `None` for invalid data.
pub(crate) fn decode_base64(text: &str) -> Option<Vec<u8>> {
    let symbols: Vec<u8> = text
        .bytes()
        .filter(|b| !matches!(b, b'\n' | b'\r'))
        .collect();
    if !symbols.len().is_multiple_of(4) {
        return None;
    }
    let value = |byte: u8| -> Option<u32> {
        Some(match byte {
            b'A'..=b'Z' => u32::from(byte - b'A'),
            b'a'..=b'z' => u32::from(byte - b'a') + 26,
            b'0'..=b'9' => u32::from(byte - b'0') + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        })
    };
    let mut out = Vec::with_capacity(symbols.len() / 4 * 3);
    let chunks = symbols.chunks(4).count();
    for (index, chunk) in symbols.chunks(4).enumerate() {
        let padding = chunk.iter().rev().take_while(|&&b| b == b'=').count();
        if padding > 2 || (padding > 0 && index + 1 != chunks) {
            return None;
        }
        let mut bits = 0u32;
        for &byte in &chunk[..4 - padding] {
            bits = bits << 6 | value(byte)?;
        }
        bits <<= 6 * padding as u32;
        let bytes = bits.to_be_bytes();
        out.extend_from_slice(&bytes[1..4 - padding]);
    }
    Some(out)
}

/// How `encoding/json` writes a float64 (`strconv` 'f' or, below 1e-6 or from 1e21, 'e' with
/// a short exponent): what the API server receives from kubectl for a YAML float, and so what
/// Karmada reads — `1.0` and `1e3` arrive as the integers 1 and 1000.
pub(crate) fn go_json_float(float: f64) -> String {
    let magnitude = float.abs();
    if magnitude != 0.0 && !(1e-6..1e21).contains(&magnitude) {
        // Rust writes `1e21` and `1.5e-7`; Go writes `1e+21` and `1.5e-07` cleaned to `1.5e-7`.
        let written = format!("{float:e}");
        match written.split_once('e') {
            Some((mantissa, exponent)) if !exponent.starts_with('-') => {
                format!("{mantissa}e+{exponent}")
            }
            _ => written,
        }
    } else {
        // Shortest digits that read back, without an exponent.
        let written = format!("{float}");
        written
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_read_as_go_parse_int_reads_them() {
        assert_eq!(plain("0x_1F"), Resolved::Int(31));
        assert_eq!(plain("-_1"), Resolved::Int(-1));
        assert_eq!(plain("0o17"), Resolved::Int(15));
        assert_eq!(plain("-0b101"), Resolved::Int(-5));
        assert_eq!(plain("00"), Resolved::Int(0));
        assert_eq!(plain("0x"), Resolved::Str);
        assert_eq!(plain("18446744073709551615"), Resolved::Uint(u64::MAX));
        assert_eq!(plain("-9223372036854775808"), Resolved::Int(i64::MIN));
        assert_eq!(plain("0_8"), Resolved::Float(8.0));
        assert_eq!(plain("1e309"), Resolved::Str);
        assert_eq!(plain(".5_0"), Resolved::Float(0.5));
        assert_eq!(plain("._5"), Resolved::Str);
        assert_eq!(plain("oN"), Resolved::Str);
    }

    #[test]
    fn floats_are_written_as_go_json_writes_them() {
        assert_eq!(go_json_float(1.0), "1");
        assert_eq!(go_json_float(1e21), "1e+21");
        assert_eq!(go_json_float(1e-7), "1e-7");
        assert_eq!(
            go_json_float(18446744073709551616.0),
            "18446744073709552000"
        );
        assert_eq!(go_json_float(0.5), "0.5");
    }
}
