//! Values written as text, as CEL's `string()` writes them: shared by the library's conversions
//! and the format verbs.

use super::value::{Fault, NANOS, Result, Val, no_overload};

pub(super) fn to_string<'a>(value: Val<'a>) -> Result<Val<'a>> {
    Ok(Val::owned(match value {
        Val::Str(text) => return Ok(Val::Str(text)),
        Val::Int(value) => value.to_string(),
        Val::Uint(value) => value.to_string(),
        Val::Double(value) => format_double(value),
        Val::Bool(value) => value.to_string(),
        Val::Bytes(bytes) => String::from_utf8(bytes.to_vec())
            .map_err(|_| Fault::Error("invalid UTF-8 in bytes, cannot convert to string".into()))?,
        Val::Duration(nanos) => format_duration(nanos),
        Val::Timestamp(nanos) => format_timestamp(nanos),
        Val::Ip(address) => address.to_string(),
        Val::Cidr(address, prefix) => format!("{address}/{prefix}"),
        Val::Url(url) => url.text.clone(),
        Val::Type(name) => name.to_string(),
        other => return no_overload("string", &[&other]),
    }))
}

/// A double as CEL's `string()` writes it (Go's `strconv.FormatFloat(f, 'g', -1, 64)`
/// for the magnitudes rules meet).
pub(super) fn format_double(value: f64) -> String {
    if value.is_nan() {
        return "NaN".to_string();
    }
    if value.is_infinite() {
        return if value > 0.0 { "+Inf" } else { "-Inf" }.to_string();
    }
    let exponent = if value == 0.0 {
        0
    } else {
        value.abs().log10().floor() as i32
    };
    if (-4..21).contains(&exponent) {
        format!("{value}")
    } else {
        let text = format!("{value:e}");
        // Go writes the exponent signed and at least two digits: 1e+21, 1e-05.
        match text.split_once('e') {
            Some((mantissa, exponent)) => {
                let (sign, digits) = match exponent.strip_prefix('-') {
                    Some(digits) => ('-', digits),
                    None => ('+', exponent),
                };
                format!("{mantissa}e{sign}{digits:0>2}")
            }
            None => text,
        }
    }
}

/// A duration as CEL writes it: seconds with up to nine decimals, `1.5s`, `3600s`.
pub(super) fn format_duration(nanos: i128) -> String {
    let sign = if nanos < 0 { "-" } else { "" };
    let nanos = nanos.unsigned_abs();
    let seconds = nanos / NANOS as u128;
    let fraction = nanos % NANOS as u128;
    if fraction == 0 {
        format!("{sign}{seconds}s")
    } else {
        let fraction = format!("{fraction:09}");
        format!("{sign}{seconds}.{}s", fraction.trim_end_matches('0'))
    }
}

/// The date of a day counted from 1970-01-01.
pub(super) fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let days = days + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

pub(super) fn format_timestamp(nanos: i128) -> String {
    let seconds = nanos.div_euclid(NANOS) as i64;
    let fraction = nanos.rem_euclid(NANOS);
    let (year, month, day) = civil_from_days(seconds.div_euclid(86_400));
    let of_day = seconds.rem_euclid(86_400);
    let mut text = format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}",
        of_day / 3600,
        of_day / 60 % 60,
        of_day % 60
    );
    if fraction != 0 {
        text.push('.');
        text.push_str(format!("{fraction:09}").trim_end_matches('0'));
    }
    text.push('Z');
    text
}
