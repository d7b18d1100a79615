//! text/template's number literals (node.go `newNumber`, strconv `ParseInt` with base 0 and
//! `ParseFloat`): what a literal is as an integer and as a float.

use super::lexer::{Kind, Token};
use super::unquote::unquote;

/// node.go `NumberNode`: what the literal can be.
#[derive(Debug, Clone)]
pub(super) struct Number {
    pub text: String,
    pub int: Option<i64>,
    pub float: Option<f64>,
    pub is_char: bool,
}

/// node.go `newNumber`: a literal as an integer and as a float where it is one.
pub(super) fn number(token: &Token) -> Result<Number, String> {
    let text = token.text.clone();
    if token.kind == Kind::CharConstant {
        // strconv.UnquoteChar of what follows the opening quote: an error is Go's "invalid
        // syntax", anything but the closing quote after one character is malformed.
        let body = &text[1..];
        if body.starts_with('\'') || body.is_empty() {
            return Err("invalid syntax".to_string());
        }
        let rune = unquote(&text).map_err(|_| format!("malformed character constant: {text}"))?;
        let code = rune.chars().next().map_or(0, |c| c as i64);
        return Ok(Number {
            text,
            int: Some(code),
            float: Some(code as f64),
            is_char: true,
        });
    }
    if text.ends_with('i') {
        return Err(format!(
            "illegal number syntax: {}",
            super::super::quote::quote(&text)
        ));
    }
    if let Some(int) = parse_int(&text) {
        return Ok(Number {
            text,
            int: Some(int),
            float: Some(int as f64),
            is_char: false,
        });
    }
    match parse_float(&text) {
        Some(float) => {
            if !text.contains(['.', 'e', 'E', 'p', 'P']) {
                return Err(format!(
                    "integer overflow: {}",
                    super::super::quote::quote(&text)
                ));
            }
            let int = (float.fract() == 0.0 && float.abs() < 9.2e18).then_some(float as i64);
            Ok(Number {
                text,
                int,
                float: Some(float),
                is_char: false,
            })
        }
        None => Err(format!(
            "illegal number syntax: {}",
            super::super::quote::quote(&text)
        )),
    }
}

/// `strconv.ParseInt(text, 0, 64)`: sign, `0x` `0o` `0b` or a leading `0` for octal, and `_`
/// between digits.
pub(super) fn parse_int(text: &str) -> Option<i64> {
    let (negative, body) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let lower = body.to_ascii_lowercase();
    let (radix, digits, prefixed) = if let Some(d) = lower.strip_prefix("0x") {
        (16, d.to_string(), true)
    } else if let Some(d) = lower.strip_prefix("0o") {
        (8, d.to_string(), true)
    } else if let Some(d) = lower.strip_prefix("0b") {
        (2, d.to_string(), true)
    } else if lower.len() > 1 && lower.starts_with('0') {
        (8, lower[1..].to_string(), true)
    } else {
        (10, lower.clone(), false)
    };
    if digits.is_empty() || digits.starts_with('_') && !prefixed || digits.ends_with('_') {
        return None;
    }
    if digits.contains("__") {
        return None;
    }
    let clean = digits.replace('_', "");
    if clean.is_empty() || !clean.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let magnitude = u64::from_str_radix(&clean, radix).ok()?;
    if negative {
        if magnitude <= i64::MAX as u64 + 1 {
            Some((magnitude as i128).wrapping_neg() as i64)
        } else {
            None
        }
    } else {
        i64::try_from(magnitude).ok()
    }
}

/// `strconv.ParseFloat(text, 64)`: decimal, or hexadecimal with a `p` exponent; `_` only
/// between digits (Go's `underscoreOK`).
fn parse_float(text: &str) -> Option<f64> {
    let bytes = text.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'_' {
            let before = i.checked_sub(1).map(|p| bytes[p]);
            let after = bytes.get(i + 1).copied();
            let digit = |c: Option<u8>| c.is_some_and(|c| c.is_ascii_hexdigit());
            if !digit(before) || !digit(after) {
                return None;
            }
        }
    }
    let clean = text.replace('_', "");
    let (negative, body) = match clean.strip_prefix('-') {
        Some(rest) => (true, rest.to_string()),
        None => (false, clean.strip_prefix('+').unwrap_or(&clean).to_string()),
    };
    let lower = body.to_ascii_lowercase();
    let magnitude = if let Some(hex) = lower.strip_prefix("0x") {
        let (mantissa, exponent) = hex.split_once('p')?;
        let exponent: i32 = exponent.parse().ok()?;
        let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        if whole.is_empty() && fraction.is_empty() {
            return None;
        }
        let digits = format!("{whole}{fraction}");
        let value = u64::from_str_radix(&digits, 16).ok()? as f64;
        value * 2f64.powi(exponent - 4 * fraction.len() as i32)
    } else {
        lower.parse::<f64>().ok()?
    };
    let value = if negative { -magnitude } else { magnitude };
    value.is_finite().then_some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    // Go text/template/parse parse_test.go numberTests.
    #[test]
    fn numbers_are_ints_and_floats_as_go_reads_them() {
        assert_eq!(parse_int("0x1F"), Some(31));
        assert_eq!(parse_int("010"), Some(8));
        assert_eq!(parse_int("1_000"), Some(1000));
        assert_eq!(parse_int("08"), None);
        let token = |text: &str| Token {
            kind: Kind::Number,
            pos: 0,
            text: text.into(),
            line: 1,
        };
        assert_eq!(number(&token("1.0")).unwrap().int, Some(1));
        assert_eq!(
            number(&token("08")).unwrap_err(),
            r#"integer overflow: "08""#
        );
    }
}
