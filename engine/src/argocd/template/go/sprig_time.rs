//! sprig v3's date functions (Masterminds/sprig date.go, functions.go), on Go's `time`
//! package as [`super::go_time`] has it. `now` and `ago` read the clock and are refused
//! (funcs.rs `is_nondeterministic_sprig`); so is any call that would fall back to the clock.

use super::coerce::{MOST_BUILT, past_bound};
use super::go_time::{GoTime, Zone, duration_string, parse_duration, parse_in_local};
use super::signature::{Func, Param, f};
use super::value::{IntType, Value};
use std::rc::Rc;

use Param::{Any, Str, Time};

fn s(args: &[Value], i: usize) -> &str {
    match &args[i] {
        Value::String(s) => s,
        _ => "",
    }
}

fn time_at(args: &[Value], i: usize) -> GoTime {
    match &args[i] {
        Value::Time(t) => (**t).clone(),
        _ => GoTime::zero(),
    }
}

fn time(t: GoTime) -> Value {
    Value::Time(Rc::new(t))
}

/// Why a call is refused where sprig would read the clock: fedrender renders the same bytes
/// every time, and what Argo CD renders then is not known before it renders.
fn reads_clock(function: &str, value: &Value, instead: &str) -> String {
    let given = if value.is_nil() {
        "nil".to_string()
    } else {
        value.type_name().to_string()
    };
    format!(
        "{function} of a {given} would read the clock: sprig uses time.Now() for {instead}, and \
         what Argo CD renders then changes from one render to the next (fedrender renders the same \
         bytes every time; a parameter's number is a float64, so convert it with int64 first)"
    )
}

/// sprig `dateInZone`: a time.Time, or Unix seconds as int or int64 (the only integer types a
/// template makes), shown in `zone` (UTC when Go cannot load it) with the layout.
fn date_in_zone(function: &str, layout: &str, date: &Value, zone: &str) -> Result<Value, String> {
    let t = match date {
        Value::Time(t) => (**t).clone(),
        Value::Int(seconds, IntType::Int | IntType::Int64) => GoTime::unix(*seconds),
        other => {
            return Err(reads_clock(
                function,
                other,
                "anything but a time.Time or an integer",
            ));
        }
    };
    let zone = Zone::load(zone).unwrap_or(Zone::Utc);
    t.in_zone(zone)
        .format_within(layout, MOST_BUILT)
        .map(Value::String)
        .map_err(|reached| past_bound(reached as u128))
}

/// sprig `duration`: whole seconds, from a string (`strconv.ParseInt`, 0 when it fails, the
/// end of the range when it is past it) or an int64; anything else is 0.
fn duration_seconds(value: &Value) -> i64 {
    match value {
        Value::String(text) => parse_int_base10(text),
        Value::Int(n, IntType::Int64) => *n,
        _ => 0,
    }
}

/// `strconv.ParseInt(text, 10, 64)`'s value, errors aside.
fn parse_int_base10(text: &str) -> i64 {
    let (negative, digits) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return 0;
    }
    let mut magnitude: u128 = 0;
    for c in digits.bytes() {
        // Past 2^63 only the sign matters: ParseInt answers the end of the range.
        magnitude = (magnitude * 10 + u128::from(c - b'0')).min(1 << 64);
    }
    if negative {
        if magnitude >= 1 << 63 {
            i64::MIN
        } else {
            -(magnitude as i64)
        }
    } else {
        magnitude.min(i64::MAX as u128) as i64
    }
}

/// sprig `durationRound`: the largest unit (years of 365 days, months of 30) that the
/// duration is strictly more than one of, whole units of it.
fn duration_round(value: &Value) -> Result<String, String> {
    let nanos = match value {
        Value::String(text) => parse_duration(text).unwrap_or(0),
        Value::Int(n, IntType::Int64) => *n,
        Value::Time(_) => {
            return Err(
                "durationRound of a time.Time is the time since it, which would read the clock: \
                 what Argo CD renders then changes from one render to the next (fedrender renders \
                 the same bytes every time)"
                    .to_string(),
            );
        }
        _ => 0,
    };
    let u = nanos.unsigned_abs();
    const HOUR: u64 = 3_600_000_000_000;
    let units: [(u64, &str); 6] = [
        (HOUR * 24 * 365, "y"),
        (HOUR * 24 * 30, "mo"),
        (HOUR * 24, "d"),
        (HOUR, "h"),
        (60_000_000_000, "m"),
        (1_000_000_000, "s"),
    ];
    Ok(units
        .iter()
        .find(|(unit, _)| u > *unit)
        .map_or("0s".to_string(), |(unit, name)| {
            format!("{}{name}", u / unit)
        }))
}

/// The exported methods of `time.Time` (Go's time package), which text/template calls for a
/// field of that name.
const TIME_METHODS: &[&str] = &[
    "Add",
    "AddDate",
    "After",
    "AppendBinary",
    "AppendFormat",
    "AppendText",
    "Before",
    "Clock",
    "Compare",
    "Date",
    "Day",
    "Equal",
    "Format",
    "GoString",
    "GobEncode",
    "Hour",
    "ISOWeek",
    "In",
    "IsDST",
    "IsZero",
    "Local",
    "Location",
    "MarshalBinary",
    "MarshalJSON",
    "MarshalText",
    "Minute",
    "Month",
    "Nanosecond",
    "Round",
    "Second",
    "String",
    "Sub",
    "Truncate",
    "UTC",
    "Unix",
    "UnixMicro",
    "UnixMilli",
    "UnixNano",
    "Weekday",
    "Year",
    "YearDay",
    "Zone",
    "ZoneBounds",
];

/// `.NAME` of a time.Time given `given` arguments: its method's result, an error, or `None`
/// when the type has no such method (nor field: its fields are unexported).
pub(super) fn method(t: &GoTime, name: &str, given: usize) -> Option<Result<Value, String>> {
    if ["wall", "ext", "loc"].contains(&name) {
        return Some(Err(format!(
            "{name} is an unexported field of struct type time.Time"
        )));
    }
    if !TIME_METHODS.contains(&name) {
        return None;
    }
    let (year, yday, day, clock) = t.wall();
    let (sec, nsec) = (t.unix_sec(), i64::from(t.nanosecond()));
    let value = match name {
        "Year" => Value::int(year),
        "YearDay" => Value::int(yday),
        "Day" => Value::int(day),
        "Hour" => Value::int((clock / 3600) as i64),
        "Minute" => Value::int((clock % 3600 / 60) as i64),
        "Second" => Value::int((clock % 60) as i64),
        "Nanosecond" => Value::int(nsec),
        "Unix" => Value::int64(sec),
        "UnixMilli" => Value::int64(sec.wrapping_mul(1_000).wrapping_add(nsec / 1_000_000)),
        "UnixMicro" => Value::int64(sec.wrapping_mul(1_000_000).wrapping_add(nsec / 1_000)),
        "UnixNano" => Value::int64(sec.wrapping_mul(1_000_000_000).wrapping_add(nsec)),
        "IsZero" => Value::Bool(t.is_zero()),
        "UTC" => time(t.in_zone(Zone::Utc)),
        "Local" => time(t.in_zone(Zone::Local)),
        "String" => Value::String(t.string()),
        other => {
            return Some(Err(format!(
                "fedrender does not implement time.Time's method {other} (of its methods, only \
                 Year, YearDay, Day, Hour, Minute, Second, Nanosecond, Unix, UnixMilli, UnixMicro, \
                 UnixNano, IsZero, UTC, Local and String); sprig's date functions do the rest"
            )));
        }
    };
    if given > 0 {
        return Some(Err(format!(
            "wrong number of args for {name}: want 0 got {given}"
        )));
    }
    Some(Ok(value))
}

pub(super) fn lookup(name: &str) -> Option<Func> {
    Some(match name {
        "toDate" => f(&[Str, Str], None, |a, _| {
            Ok(time(
                parse_in_local(s(a, 0), s(a, 1)).unwrap_or_else(|_| GoTime::zero()),
            ))
        }),
        "mustToDate" => f(&[Str, Str], None, |a, _| {
            parse_in_local(s(a, 0), s(a, 1)).map(time)
        }),
        "date" => f(&[Str, Any], None, |a, _| {
            date_in_zone("date", s(a, 0), &a[1], "Local")
        }),
        "dateInZone" | "date_in_zone" => f(&[Str, Any, Str], None, |a, _| {
            date_in_zone("dateInZone", s(a, 0), &a[1], s(a, 2))
        }),
        "htmlDate" => f(&[Any], None, |a, _| {
            date_in_zone("htmlDate", "2006-01-02", &a[0], "Local")
        }),
        "htmlDateInZone" => f(&[Any, Str], None, |a, _| {
            date_in_zone("htmlDateInZone", "2006-01-02", &a[0], s(a, 1))
        }),
        "unixEpoch" => f(&[Time], None, |a, _| {
            Ok(Value::String(time_at(a, 0).unix_sec().to_string()))
        }),
        "duration" => f(&[Any], None, |a, _| {
            let seconds = duration_seconds(&a[0]);
            // time.Duration(n) * time.Second wraps, as Go's int64 multiplication does.
            Ok(Value::String(duration_string(
                seconds.wrapping_mul(1_000_000_000),
            )))
        }),
        "durationRound" => f(&[Any], None, |a, _| {
            duration_round(&a[0]).map(Value::String)
        }),
        "dateModify" | "date_modify" => f(&[Str, Time], None, |a, _| {
            let t = time_at(a, 1);
            Ok(time(match parse_duration(s(a, 0)) {
                Ok(d) => t.add(d),
                Err(_) => t,
            }))
        }),
        "mustDateModify" | "must_date_modify" => f(&[Str, Time], None, |a, _| {
            let d = parse_duration(s(a, 0))?;
            Ok(time(time_at(a, 1).add(d)))
        }),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::super::{GoError, GoOptions, render};
    use serde_json::json;

    fn run(text: &str, data: serde_json::Value) -> String {
        match render(text, &data, GoOptions::default()) {
            Ok(out) => out,
            Err(GoError::Parse(e) | GoError::Execute(e)) => format!("ERR {e}"),
        }
    }

    /// sprig's date_test.go passes a `time.Time` parameter; parameters here are JSON, so the
    /// time is `toDate`'s.
    const SPRIG_TIME: &str = r#"(toDate "02 Jan 06 15:04:05 MST" "13 Jun 19 20:39:39 GMT")"#;

    // sprig date_test.go TestHtmlDate, TestToDate, TestUnixEpoch.
    #[test]
    fn html_date_to_date_and_unix_epoch_as_sprig_s_tests() {
        assert_eq!(run("{{ htmlDate 0}}", json!({})), "1970-01-01");
        assert_eq!(
            run(
                r#"{{toDate "2006-01-02" "2017-12-31" | date "02/01/2006"}}"#,
                json!({})
            ),
            "31/12/2017"
        );
        assert_eq!(
            run(&format!("{{{{unixEpoch {SPRIG_TIME}}}}}"), json!({})),
            "1560458379"
        );
    }

    // sprig date_test.go TestDateInZone: a time.Time, Unix seconds as int64 and int, and an
    // unknown zone (UTC). Its case of a string (time.Now()) is refused here.
    #[test]
    fn date_in_zone_as_sprig_s_test() {
        let layout = r#""02 Jan 06 15:04 -0700""#;
        for time in [SPRIG_TIME, "(int64 1560458379)", "1560458379"] {
            for zone in ["UTC", "foobar"] {
                let text = format!("{{{{ date_in_zone {layout} {time} {zone:?} }}}}");
                assert_eq!(run(&text, json!({})), "13 Jun 19 20:39 +0000", "{text}");
            }
        }
        let refused = run(
            &format!("{{{{ date_in_zone {layout} .Time \"UTC\" }}}}"),
            json!({"Time": ""}),
        );
        assert!(
            refused.contains(
                "error calling date_in_zone: dateInZone of a string would read the clock"
            ),
            "{refused}"
        );
    }

    // sprig date_test.go TestDuration and TestDurationRound.
    #[test]
    fn duration_and_duration_round_as_sprig_s_tests() {
        for (secs, want) in [("61", "1m1s"), ("3600", "1h0m0s"), ("93784", "26h3m4s")] {
            assert_eq!(run("{{ duration .Secs }}", json!({"Secs": secs})), want);
        }
        for (time, want) in [("2h5s", "2h"), ("24h5s", "1d"), ("2400h5s", "3mo")] {
            assert_eq!(
                run("{{ durationRound .Time }}", json!({"Time": time})),
                want
            );
        }
    }

    // sprig date.go: `date` reads time.Now() for a value neither a time nor an integer, such as
    // a parameter's number (a float64), and durationRound reads it for time.Since; fedrender
    // renders the same bytes every time, so both are refused by that reason.
    #[test]
    fn what_would_read_the_clock_is_refused() {
        for text in [
            r#"{{ date "2006" .n }}"#,
            r#"{{ htmlDate .n }}"#,
            r#"{{ dateInZone "2006" nil "UTC" }}"#,
            r#"{{ htmlDateInZone .nope "UTC" }}"#,
            r#"{{ durationRound (toDate "2006" "2024") }}"#,
        ] {
            let got = run(text, json!({"n": 1700000000}));
            assert!(
                got.starts_with("ERR ") && got.contains("would read the clock"),
                "{text}: {got}"
            );
        }
        assert!(run(r#"{{ date "2006" .n }}"#, json!({"n": 1})).contains("date of a float64"));
        assert_eq!(
            run(r#"{{ date "2006" (int64 .n) }}"#, json!({"n": 1700000000})),
            "2023"
        );
        // now and ago stay refused when the template is parsed.
        assert!(run("{{ now }}", json!({})).contains("ERR"));
        assert!(run(r#"{{ ago (toDate "2006" "2024") }}"#, json!({})).contains("ERR"));
    }

    // Go's ParseInt as sprig's duration reads a string: the end of the range past it.
    #[test]
    fn duration_reads_strings_as_parse_int() {
        assert_eq!(super::parse_int_base10("9223372036854775808"), i64::MAX);
        assert_eq!(super::parse_int_base10("-9223372036854775808"), i64::MIN);
        assert_eq!(super::parse_int_base10("-99999999999999999999"), i64::MIN);
        assert_eq!(super::parse_int_base10("1_000"), 0);
        assert_eq!(super::parse_int_base10("+7"), 7);
        assert_eq!(super::parse_int_base10("-"), 0);
    }

    // A zone abbreviation is as long as the text it was parsed from (GMT+0…023); `date` shows
    // a time in a zone it loads, so only String prints it. A layout's month `1` prints `11`:
    // what `date` builds from a layout within the bound may pass it, and is refused.
    #[test]
    fn what_date_builds_is_bounded() {
        let name = format!("GMT+{}23", "0".repeat(100_000));
        let zone = format!("{{{{ (toDate \"MST\" \"{name}\").String | len }}}}");
        assert_eq!(run(&zone, json!({})), (name.len() + 26).to_string());
        let text = r#"{{ date (repeat 3000000 "1") (int64 1700000000) | len }}"#;
        let got = run(text, json!({}));
        assert!(got.contains("past fedrender's bound"), "{got}");
        let text = r#"{{ date (repeat 1000000 "1") (int64 1700000000) | len }}"#;
        assert_eq!(run(text, json!({})), "2000000");
    }
}
