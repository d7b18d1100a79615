//! The string extension's `format` (cel-go ext/formatting.go, the version Kubernetes' strings
//! library version 2 runs): `%s %d %f %e %b %x %X %o %%`, a precision for `%f`, with cel-go's
//! texts — `%f` and `%e` as golang.org/x/text's printer writes them for its default locale
//! (`1,234.500000`, `1.234500×10⁰³`), lists and maps as CEL literals.
//!
//! What it writes is charged as it is written, ten characters a unit, before each piece is
//! appended: a format of many copies of a long string stops at the limit, unbuilt.

use super::conversions::{format_double, format_duration, format_timestamp, to_string};
use super::value::{Evaluation, Fault, Result, Text, Val, error};

/// Writes into a string, charging each piece before it is appended.
struct Out<'e, 'a> {
    evaluation: &'e mut Evaluation<'a>,
    text: String,
    /// Bytes written and not yet charged (less than ten).
    owed: u64,
    /// Bytes that may still be written on what cel-go charged for the call.
    credit: u64,
}

/// What a format may write beyond ten bytes per unit cel-go charges for it.
const FREE_BYTES: u64 = 100;

impl Out<'_, '_> {
    fn push(&mut self, piece: &str) -> Result<()> {
        let free = self.credit.min(piece.len() as u64);
        self.credit -= free;
        let total = self.owed + piece.len() as u64 - free;
        self.evaluation.spend(total / 10)?;
        self.owed = total % 10;
        self.text.push_str(piece);
        Ok(())
    }
}

fn formatting_error<T>(message: String) -> Result<T> {
    error(format!("error during formatting: {message}"))
}

pub(super) fn format_string<'a>(
    evaluation: &mut Evaluation<'a>,
    format: &Text<'a>,
    list: &Val<'a>,
    paid: u64,
) -> Result<Val<'a>> {
    let mut out = Out {
        evaluation,
        text: String::new(),
        owed: 0,
        credit: paid * 10 + FREE_BYTES,
    };
    let bytes = format.as_bytes();
    let count = list.list_len().unwrap_or(0);
    let mut at = 0;
    let mut literal_start = 0;
    let mut argument = 0;
    while at < bytes.len() {
        if bytes[at] != b'%' {
            at += 1;
            continue;
        }
        out.push(&format[literal_start..at])?;
        if bytes.get(at + 1) == Some(&b'%') {
            out.push("%")?;
            at += 2;
            literal_start = at;
            continue;
        }
        if at + 1 >= bytes.len() {
            return error("unexpected end of string");
        }
        if argument >= count {
            return error(format!("index {argument} out of range"));
        }
        let value = list.list_item(argument).unwrap_or(Val::Null);
        at += 1;
        let mut precision = None;
        if bytes[at] == b'.' {
            let digits = format[at + 1..]
                .bytes()
                .take_while(u8::is_ascii_digit)
                .count();
            if at + 1 + digits >= bytes.len() {
                return error(
                    "could not parse formatting clause: error while parsing precision: could not find end of precision specifier",
                );
            }
            precision = Some(format[at + 1..at + 1 + digits].parse::<usize>().map_err(|_| {
                Fault::Error(
                    "could not parse formatting clause: error while parsing precision: error while converting precision to integer".into(),
                )
            })?);
            at += 1 + digits;
        }
        let verb = format[at..].chars().next().unwrap_or('%');
        at += verb.len_utf8();
        literal_start = at;
        argument += 1;
        match verb {
            's' => write_string(&mut out, &value)?,
            'd' => match value {
                Val::Int(number) => out.push(&number.to_string())?,
                Val::Uint(number) => out.push(&number.to_string())?,
                other => {
                    return formatting_error(format!(
                        "decimal clause can only be used on integers, was given {}",
                        other.type_name()
                    ));
                }
            },
            'f' | 'e' => {
                let number = match &value {
                    Val::Double(number) => *number,
                    Val::Str(text) if matches!(&**text, "NaN" | "Infinity" | "-Infinity") => {
                        match &**text {
                            "NaN" => f64::NAN,
                            "Infinity" => f64::INFINITY,
                            _ => f64::NEG_INFINITY,
                        }
                    }
                    other => {
                        return formatting_error(if verb == 'f' {
                            format!(
                                "fixed-point clause can only be used on doubles, was given {}",
                                other.type_name()
                            )
                        } else {
                            format!(
                                "scientific clause can only be used on doubles, was given {}",
                                other.type_name()
                            )
                        });
                    }
                };
                if verb == 'f' {
                    let precision = precision.unwrap_or(6);
                    // The precision is charged before Rust writes that many digits.
                    out.evaluation.spend(precision as u64 / 10)?;
                    out.push(&fixed(number, precision))?;
                } else {
                    out.push(&scientific(number))?;
                }
            }
            'b' => match value {
                Val::Int(number) if number < 0 => {
                    out.push(&format!("-{:b}", number.unsigned_abs()))?
                }
                Val::Int(number) => out.push(&format!("{number:b}"))?,
                Val::Uint(number) => out.push(&format!("{number:b}"))?,
                Val::Bool(value) => out.push(if value { "1" } else { "0" })?,
                other => {
                    return formatting_error(format!(
                        "only integers and bools can be formatted as binary, was given {}",
                        other.type_name()
                    ));
                }
            },
            'x' | 'X' => {
                let upper = verb == 'X';
                let hex = |bytes: &[u8], out: &mut Out<'_, 'a>| -> Result<()> {
                    for chunk in bytes.chunks(512) {
                        let piece: String = chunk
                            .iter()
                            .map(|b| {
                                if upper {
                                    format!("{b:02X}")
                                } else {
                                    format!("{b:02x}")
                                }
                            })
                            .collect();
                        out.push(&piece)?;
                    }
                    Ok(())
                };
                match &value {
                    Val::Str(text) => hex(text.as_bytes(), &mut out)?,
                    Val::Bytes(bytes) => hex(bytes, &mut out)?,
                    Val::Int(number) => {
                        let sign = if *number < 0 { "-" } else { "" };
                        let magnitude = number.unsigned_abs();
                        out.push(&if upper {
                            format!("{sign}{magnitude:X}")
                        } else {
                            format!("{sign}{magnitude:x}")
                        })?
                    }
                    Val::Uint(number) => out.push(&if upper {
                        format!("{number:X}")
                    } else {
                        format!("{number:x}")
                    })?,
                    other => {
                        return formatting_error(format!(
                            "only integers, byte buffers, and strings can be formatted as hex, was given {}",
                            other.type_name()
                        ));
                    }
                }
            }
            'o' => match value {
                Val::Int(number) if number < 0 => {
                    out.push(&format!("-{:o}", number.unsigned_abs()))?
                }
                Val::Int(number) => out.push(&format!("{number:o}"))?,
                Val::Uint(number) => out.push(&format!("{number:o}"))?,
                other => {
                    return formatting_error(format!(
                        "octal clause can only be used on integers, was given {}",
                        other.type_name()
                    ));
                }
            },
            other => {
                return error(format!(
                    "could not parse formatting clause: unrecognized formatting clause \"{other}\""
                ));
            }
        }
    }
    out.push(&format[literal_start..])?;
    let text = out.text;
    out.evaluation.spend(out.owed.div_ceil(10))?;
    Ok(Val::owned(text))
}

/// `%s`: a value as `string()` writes it; lists and maps as CEL literals.
fn write_string<'a>(out: &mut Out<'_, 'a>, value: &Val<'a>) -> Result<()> {
    match value {
        Val::Null => out.push("null"),
        Val::Str(text) => out.push(text),
        Val::Bytes(bytes) => out.push(&String::from_utf8_lossy(bytes)),
        Val::Double(number) => out.push(&format_double(*number)),
        _ if value.is_list() || value.is_map() => write_literal(out, value),
        other => match to_string(other.clone()) {
            Ok(Val::Str(text)) => out.push(&text),
            _ => formatting_error(format!(
                "string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given {}",
                other.type_name()
            )),
        },
    }
}

/// A value inside a list or map that `%s` writes: strings and bytes quoted, doubles with six
/// decimals, timestamps and durations as their constructors; map entries ordered by their
/// written keys.
fn write_literal<'a>(out: &mut Out<'_, 'a>, value: &Val<'a>) -> Result<()> {
    match value {
        Val::Str(text) => out.push(&format!("{:?}", &**text)),
        Val::Bytes(bytes) => out.push(&format!("b{:?}", String::from_utf8_lossy(bytes))),
        Val::Double(number) if number.is_finite() => out.push(&format!("{number:.6}")),
        Val::Double(number) => out.push(&format!("\"{}\"", format_double(*number))),
        Val::Timestamp(nanos) => out.push(&format!("timestamp(\"{}\")", format_timestamp(*nanos))),
        Val::Duration(nanos) => out.push(&format!("duration(\"{}\")", format_duration(*nanos))),
        _ if value.is_list() => {
            out.push("[")?;
            for (at, item) in value.elements().into_iter().flatten().enumerate() {
                if at > 0 {
                    out.push(", ")?;
                }
                write_literal(out, &item)?;
            }
            out.push("]")
        }
        _ if value.is_map() => {
            let mut entries = Vec::new();
            for (key, item) in value.entries().unwrap_or_default() {
                let key = match &key {
                    Val::Str(text) => format!("{:?}", &**text),
                    Val::Int(number) => number.to_string(),
                    Val::Uint(number) => number.to_string(),
                    Val::Bool(value) => value.to_string(),
                    other => {
                        return formatting_error(format!(
                            "no formatting function for map key of type {}",
                            other.type_name()
                        ));
                    }
                };
                out.evaluation
                    .spend(super::value::traversal(key.len() as u64))?;
                entries.push((key, item));
            }
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            out.push("{")?;
            for (at, (key, item)) in entries.iter().enumerate() {
                if at > 0 {
                    out.push(", ")?;
                }
                out.push(key)?;
                out.push(":")?;
                write_literal(out, item)?;
            }
            out.push("}")
        }
        other => write_string(out, other),
    }
}

/// `%f` as golang.org/x/text's printer writes it: thousands grouped with commas, no sign on
/// a negative zero, `NaN`, `∞`.
fn fixed(number: f64, precision: usize) -> String {
    if number.is_nan() {
        return "NaN".to_string();
    }
    if number.is_infinite() {
        return if number > 0.0 { "∞" } else { "-∞" }.to_string();
    }
    let text = format!("{:.precision$}", number.abs());
    let (whole, fraction) = match text.split_once('.') {
        Some((whole, fraction)) => (whole, Some(fraction)),
        None => (text.as_str(), None),
    };
    let mut grouped = String::new();
    for (at, digit) in whole.chars().enumerate() {
        if at > 0 && (whole.len() - at) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    let negative = number < 0.0 && text.bytes().any(|b| b.is_ascii_digit() && b != b'0');
    let mut out = String::new();
    if negative {
        out.push('-');
    }
    out.push_str(&grouped);
    if let Some(fraction) = fraction {
        out.push('.');
        out.push_str(fraction);
    }
    out
}

/// `%e` as cel-go asks golang.org/x/text's printer for it (`%6e`: six decimals whatever the
/// precision, a width of six): `1.234500×10⁰³`, `   NaN`.
fn scientific(number: f64) -> String {
    if number.is_nan() {
        return "   NaN".to_string();
    }
    if number.is_infinite() {
        return if number > 0.0 { "     ∞" } else { "    -∞" }.to_string();
    }
    let text = format!("{:.6e}", number);
    let (mantissa, exponent) = text.split_once('e').unwrap_or((&text, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let superscript = |digit: char| match digit {
        '0' => '⁰',
        '1' => '¹',
        '2' => '²',
        '3' => '³',
        '4' => '⁴',
        '5' => '⁵',
        '6' => '⁶',
        '7' => '⁷',
        '8' => '⁸',
        _ => '⁹',
    };
    let digits = format!("{:02}", exponent.unsigned_abs());
    let mut out = format!("{mantissa}×10");
    if exponent < 0 {
        out.push('⁻');
    }
    out.extend(digits.chars().map(superscript));
    out
}
