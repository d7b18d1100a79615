//! The string and number formats the API server enforces on a value: those of Kubernetes' own
//! kinds ([`check_format`]) and those of a CRD's schema ([`CrdFormat`]), which are kube-openapi's
//! strfmt registry as apiextensions enables it (pkg/apiserver/validation/formats.go).

mod net;

use serde_json::Value;

/// The formats the API server enforces on Kubernetes' own kinds (the decoding of built-in
/// kinds into Go types): integer bounds, base64 for `byte` (Secret data), and the address
/// formats. Others (`date-time` among them) are the types' own business.
pub(super) fn check_format(format: &str, value: &Value, invalid: &mut impl FnMut(String)) {
    if let Some(number) = value.as_f64() {
        let (low, high) = match format {
            "int32" => (i32::MIN as f64, i32::MAX as f64),
            "int64" => (i64::MIN as f64, i64::MAX as f64),
            _ => return,
        };
        if number < low || number > high {
            invalid(format!("{number} does not fit an {format}"));
        }
        return;
    }
    let Some(text) = value.as_str() else {
        return;
    };
    let valid = match format {
        "byte" => is_base64_lines(text),
        "uuid" => is_uuid(text, None),
        "ipv4" => text.parse::<std::net::Ipv4Addr>().is_ok(),
        "ipv6" => text.parse::<std::net::Ipv6Addr>().is_ok(),
        "cidr" => text.split_once('/').is_some_and(|(address, prefix)| {
            let bits = match address.parse::<std::net::IpAddr>() {
                Ok(std::net::IpAddr::V4(_)) => 32,
                Ok(std::net::IpAddr::V6(_)) => 128,
                Err(_) => return false,
            };
            prefix.parse::<u8>().is_ok_and(|prefix| prefix <= bits) && !prefix.starts_with('+')
        }),
        _ => true,
    };
    if !valid {
        let what = match format {
            "byte" => "base64 (standard alphabet, padded)",
            "uuid" => "a UUID",
            "ipv4" => "an IPv4 address",
            "ipv6" => "an IPv6 address",
            _ => "a CIDR (address/prefix)",
        };
        invalid(format!("{} is not {what}", describe(value)));
    }
}

/// Go's `base64.StdEncoding`, which JSON decoding of a byte field uses: the standard alphabet,
/// padded to a multiple of four; line breaks are skipped.
fn is_base64_lines(text: &str) -> bool {
    let bytes: Vec<u8> = text.bytes().filter(|&b| b != b'\r' && b != b'\n').collect();
    if !bytes.len().is_multiple_of(4) {
        return false;
    }
    let padding = bytes.iter().rev().take_while(|&&b| b == b'=').count();
    padding <= 2
        && bytes[..bytes.len() - padding]
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/')
}

/// A format of a CRD's schema that the API server checks, resolved once with the CRD as
/// apiextensions does (`StripUnsupportedFormatsPostProcessorForVersion`): a string format is
/// kept where the node's type is `string` or none (int-or-string) and strfmt knows its name
/// with dashes removed (`date-time` is `datetime`); an integer keeps `int32` and `int64`, a
/// number `float` and `double`; anything else is dropped and checks nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum CrdFormat {
    /// `int32`, `int64`: kube-openapi's `IsValueValidAgainstRange` on every integer.
    Int32,
    Int64,
    /// `float`: a number must fit a float32.
    Float,
    /// A string format of strfmt's registry.
    Text(TextFormat),
}

/// The string formats of strfmt's default registry that apiextensions enables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum TextFormat {
    BsonObjectId,
    Uri,
    Email,
    Hostname,
    Ipv4,
    Ipv6,
    Cidr,
    Mac,
    Uuid,
    Uuid3,
    Uuid4,
    Uuid5,
    Isbn,
    Isbn10,
    Isbn13,
    CreditCard,
    Ssn,
    HexColor,
    RgbColor,
    Byte,
    Password,
    Date,
    Duration,
    DateTime,
    /// From Kubernetes 1.34 (as the minimum compatibility version): `k8s-short-name`, a DNS
    /// label of lowercase letters; `k8s-long-name`, a DNS subdomain of them.
    ShortName,
    LongName,
}

impl CrdFormat {
    /// The format a CRD node of `type` (none for int-or-string) declaring `format` checks.
    pub(super) fn resolve(node_type: Option<&str>, format: &str) -> Option<CrdFormat> {
        match node_type {
            None | Some("string") => TextFormat::named(format).map(CrdFormat::Text),
            Some("integer") => match format {
                "int32" => Some(CrdFormat::Int32),
                "int64" => Some(CrdFormat::Int64),
                _ => None,
            },
            Some("number") => (format == "float").then_some(CrdFormat::Float),
            _ => None,
        }
    }

    /// The minor version of the minimum compatibility version from which the API server
    /// checks this format (apiextensions formats.go `supportedVersionedFormats`).
    pub(super) fn since_minor(self) -> u32 {
        match self {
            CrdFormat::Text(TextFormat::ShortName | TextFormat::LongName) => 34,
            _ => 0,
        }
    }

    /// What is wrong with `value` under this format: strings for a string format, numbers
    /// for a numeric one; other values are the type check's.
    pub(super) fn problem(self, value: &Value) -> Option<String> {
        match (self, value) {
            (CrdFormat::Text(format), Value::String(text)) => (!format.validates(text))
                .then(|| format!("{} is not {}", describe(value), format.described())),
            (CrdFormat::Int32 | CrdFormat::Int64, Value::Number(number)) => {
                let fits = match (number.as_i64(), self) {
                    (Some(integer), CrdFormat::Int32) => i32::try_from(integer).is_ok(),
                    (Some(_), _) => true,
                    // A float (or a u64 past i64) is written as Go's %g writes it, which no
                    // integer parse takes unless it is whole and short.
                    (None, _) => number.as_f64().is_some_and(|float| {
                        float.fract() == 0.0
                            && float.abs() < 1e21
                            && format!("{float}").parse::<i64>().is_ok_and(|integer| {
                                self == CrdFormat::Int64 || i32::try_from(integer).is_ok()
                            })
                    }),
                };
                (!fits).then(|| {
                    let name = if self == CrdFormat::Int32 {
                        "int32"
                    } else {
                        "int64"
                    };
                    format!("{number} does not fit an {name}")
                })
            }
            (CrdFormat::Float, Value::Number(number)) => number
                .as_f64()
                .filter(|float| float.abs() > f64::from(f32::MAX))
                .map(|_| format!("{number} does not fit a float")),
            _ => None,
        }
    }
}

impl TextFormat {
    /// strfmt's name for a format, dashes removed as its registry normalises them.
    fn named(format: &str) -> Option<TextFormat> {
        let name = format.replace('-', "");
        Some(match name.as_str() {
            "bsonobjectid" => TextFormat::BsonObjectId,
            "uri" => TextFormat::Uri,
            "email" => TextFormat::Email,
            "hostname" => TextFormat::Hostname,
            "ipv4" => TextFormat::Ipv4,
            "ipv6" => TextFormat::Ipv6,
            "cidr" => TextFormat::Cidr,
            "mac" => TextFormat::Mac,
            "uuid" => TextFormat::Uuid,
            "uuid3" => TextFormat::Uuid3,
            "uuid4" => TextFormat::Uuid4,
            "uuid5" => TextFormat::Uuid5,
            "isbn" => TextFormat::Isbn,
            "isbn10" => TextFormat::Isbn10,
            "isbn13" => TextFormat::Isbn13,
            "creditcard" => TextFormat::CreditCard,
            "ssn" => TextFormat::Ssn,
            "hexcolor" => TextFormat::HexColor,
            "rgbcolor" => TextFormat::RgbColor,
            "byte" => TextFormat::Byte,
            "password" => TextFormat::Password,
            "date" => TextFormat::Date,
            "duration" => TextFormat::Duration,
            "datetime" => TextFormat::DateTime,
            "k8sshortname" => TextFormat::ShortName,
            "k8slongname" => TextFormat::LongName,
            _ => return None,
        })
    }

    /// Whether strfmt's validator for the format takes `text`.
    pub(super) fn validates(self, text: &str) -> bool {
        match self {
            TextFormat::BsonObjectId => {
                text.len() == 24 && text.bytes().all(|b| b.is_ascii_hexdigit())
            }
            TextFormat::Uri => net::is_request_uri(text),
            TextFormat::Email => net::is_email(text),
            TextFormat::Hostname => net::is_hostname(text),
            TextFormat::Ipv4 => net::is_ipv4(text),
            TextFormat::Ipv6 => net::is_ipv6(text),
            TextFormat::Cidr => net::is_cidr(text),
            TextFormat::Mac => net::is_mac(text),
            TextFormat::Uuid => is_uuid(text, None),
            TextFormat::Uuid3 => is_uuid(text, Some(b'3')),
            TextFormat::Uuid4 => is_uuid(text, Some(b'4')),
            TextFormat::Uuid5 => is_uuid(text, Some(b'5')),
            TextFormat::Isbn => is_isbn10(text) || is_isbn13(text),
            TextFormat::Isbn10 => is_isbn10(text),
            TextFormat::Isbn13 => is_isbn13(text),
            TextFormat::CreditCard => is_credit_card(text),
            TextFormat::Ssn => is_ssn(text),
            TextFormat::HexColor => is_hex_color(text),
            TextFormat::RgbColor => is_rgb_color(text),
            TextFormat::Byte => is_base64(text),
            TextFormat::Password => true,
            TextFormat::Date => is_date(text),
            TextFormat::Duration => is_duration(text),
            TextFormat::DateTime => is_date_time(text),
            TextFormat::ShortName => text.len() <= 63 && is_short_name(text),
            TextFormat::LongName => text.len() <= 253 && text.split('.').all(is_short_name),
        }
    }

    fn described(self) -> &'static str {
        match self {
            TextFormat::BsonObjectId => "a BSON object ID (24 hex digits)",
            TextFormat::Uri => "a URI (as Go's url.ParseRequestURI reads one)",
            TextFormat::Email => "an email address",
            TextFormat::Hostname => "a host name",
            TextFormat::Ipv4 => "an IPv4 address",
            TextFormat::Ipv6 => "an IPv6 address",
            TextFormat::Cidr => "a CIDR (address/prefix)",
            TextFormat::Mac => "a MAC address",
            TextFormat::Uuid => "a UUID",
            TextFormat::Uuid3 => "a version 3 UUID",
            TextFormat::Uuid4 => "a version 4 UUID",
            TextFormat::Uuid5 => "a version 5 UUID",
            TextFormat::Isbn => "an ISBN",
            TextFormat::Isbn10 => "an ISBN-10",
            TextFormat::Isbn13 => "an ISBN-13",
            TextFormat::CreditCard => "a credit card number",
            TextFormat::Ssn => "a US social security number",
            TextFormat::HexColor => "a hex color (#fff or #ffffff)",
            TextFormat::RgbColor => "an rgb(r, g, b) color",
            TextFormat::Byte => "base64 (standard alphabet, padded, no line breaks)",
            TextFormat::Password => "a password",
            TextFormat::Date => "a date (YYYY-MM-DD, a day the month has)",
            TextFormat::Duration => "a duration (a number with a unit: 30s, 1h30m, 2 days)",
            TextFormat::DateTime => "a date-time (RFC 3339: 2006-01-02T15:04:05Z)",
            TextFormat::ShortName => {
                "a k8s-short-name (lowercase letters, digits and inner dashes, at most 63)"
            }
            TextFormat::LongName => {
                "a k8s-long-name (dot-separated lowercase names, at most 253 characters)"
            }
        }
    }
}

/// strfmt's UUID patterns: 8-4-4-4-12 hex digits of either case, each dash optional; a
/// version UUID has its digit first in the third group and, for 4 and 5, 8, 9, a or b first
/// in the fourth.
fn is_uuid(text: &str, version: Option<u8>) -> bool {
    let mut rest = text.as_bytes();
    for (group, length) in [8, 4, 4, 4, 12].into_iter().enumerate() {
        if group > 0
            && let Some(after) = rest.strip_prefix(b"-")
        {
            rest = after;
        }
        if rest.len() < length || !rest[..length].iter().all(u8::is_ascii_hexdigit) {
            return false;
        }
        match (version, group) {
            (Some(digit), 2) if rest[0] != digit => return false,
            (Some(b'4' | b'5'), 3) if !b"89abAB".contains(&rest[0]) => return false,
            _ => {}
        }
        rest = &rest[length..];
    }
    rest.is_empty()
}

/// govalidator's `Base64` pattern, anchored as Go anchors: groups of four of the standard
/// alphabet, the last padded with `=` or `==`, at least one group, and nothing else — no
/// line break.
fn is_base64(text: &str) -> bool {
    let bytes = text.as_bytes();
    if bytes.is_empty() || !bytes.len().is_multiple_of(4) {
        return false;
    }
    let padding = bytes.iter().rev().take_while(|&&b| b == b'=').count();
    padding <= 2
        && bytes[..bytes.len() - padding]
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/')
}

/// Go's `time.Parse("2006-01-02", …)`: four digits, two, two, with dashes; the month
/// 1–12 and the day one the month has (29 February only in a leap year).
fn is_date(text: &str) -> bool {
    let bytes = text.as_bytes();
    if bytes.len() != 10 || bytes[4] != b'-' || bytes[7] != b'-' {
        return false;
    }
    let number = |range: std::ops::Range<usize>| -> Option<u32> {
        let part = &bytes[range];
        part.iter()
            .all(u8::is_ascii_digit)
            .then(|| part.iter().fold(0, |n, &b| n * 10 + u32::from(b - b'0')))
    };
    let (Some(year), Some(month), Some(day)) = (number(0..4), number(5..7), number(8..10)) else {
        return false;
    };
    let leap = year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400));
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

/// strfmt's `IsDateTime`: lowercased and cut at each `t`, the first part a date and the
/// second `hh:mm:ss`, an optional fraction (any one character then digits), and `z` or a
/// `±hh:mm` offset; hours at most 23, minutes and seconds at most 59.
fn is_date_time(text: &str) -> bool {
    if text.len() < 4 {
        return false;
    }
    let lower = text.to_lowercase();
    let mut parts = lower.split('t');
    let (Some(date), Some(time)) = (parts.next(), parts.next()) else {
        return false;
    };
    if !is_date(date) {
        return false;
    }
    let chars: Vec<char> = time.chars().collect();
    let digits = |from: usize, count: usize| {
        chars.len() >= from + count && chars[from..from + count].iter().all(char::is_ascii_digit)
    };
    let clock = digits(0, 2)
        && chars.get(2) == Some(&':')
        && digits(3, 2)
        && chars.get(5) == Some(&':')
        && digits(6, 2);
    if !clock {
        return false;
    }
    let mut rest = &chars[8..];
    // `(.[0-9]+)?`: any character but a line break, then digits — tried first, as Go's
    // leftmost-first matching does, and given up if the zone cannot follow.
    let zone_ok = |zone: &[char]| {
        zone == ['z']
            || zone.len() == 6
                && (zone[0] == '+' || zone[0] == '-')
                && zone[1].is_ascii_digit()
                && zone[2].is_ascii_digit()
                && zone[3] == ':'
                && zone[4].is_ascii_digit()
                && zone[5].is_ascii_digit()
    };
    if !zone_ok(rest) {
        if rest.is_empty() || rest[0] == '\n' {
            return false;
        }
        let fraction = rest[1..].iter().take_while(|c| c.is_ascii_digit()).count();
        if fraction == 0 {
            return false;
        }
        // The digits may also end where the zone begins; a zone starts with z, + or -.
        rest = &rest[1 + fraction..];
        if !zone_ok(rest) {
            return false;
        }
    }
    let field = |from: usize| chars[from..from + 2].iter().collect::<String>();
    field(0).as_str() <= "23" && field(3).as_str() <= "59" && field(6).as_str() <= "59"
}

/// strfmt's `ParseDuration`: Go's `time.ParseDuration`, or else any run of digits followed
/// (after spaces) by a word it reads as a unit — `ns`/`nano…`, `us`/`µs`/`micro…`,
/// `ms`/`milli…`, `s`/`sec…`, `m`/`min…`, `h`/`hr`/`hour…`, `d`/`day…`, `w`/`wk`/`week…` —
/// anywhere in the text; a number past Go's int is an error.
fn is_duration(text: &str) -> bool {
    if is_go_duration(text) {
        return true;
    }
    let chars: Vec<char> = text.chars().collect();
    let mut index = 0;
    let mut recognised = false;
    while index < chars.len() {
        if !chars[index].is_ascii_digit() {
            index += 1;
            continue;
        }
        let start = index;
        while index < chars.len() && chars[index].is_ascii_digit() {
            index += 1;
        }
        let digits: String = chars[start..index].iter().collect();
        let mut after = index;
        while after < chars.len() && matches!(chars[after], ' ' | '\t' | '\n' | '\r' | '\x0C') {
            after += 1;
        }
        let unit_start = after;
        while after < chars.len() && (chars[after].is_ascii_alphabetic() || chars[after] == 'µ') {
            after += 1;
        }
        if after == unit_start {
            // No unit: not a match here; the search goes on after the digits.
            continue;
        }
        if digits.parse::<i64>().is_err() {
            return false;
        }
        let unit: String = chars[unit_start..after]
            .iter()
            .collect::<String>()
            .to_lowercase();
        recognised |= is_unit(&unit);
        index = after;
    }
    recognised
}

fn is_unit(unit: &str) -> bool {
    const UNITS: [&[&str]; 8] = [
        &["ns", "nano"],
        &["us", "µs", "micro"],
        &["ms", "milli"],
        &["s", "sec"],
        &["m", "min"],
        &["h", "hr", "hour"],
        &["d", "day"],
        &["w", "wk", "week"],
    ];
    UNITS.iter().any(|variants| {
        variants.iter().enumerate().any(|(index, variant)| {
            index == variants.len() - 1 && unit.starts_with(variant) || *variant == unit
        })
    })
}

/// Go's `time.ParseDuration`: an optional sign, then numbers (with an optional fraction),
/// each with a unit of ns, us, µs, μs, ms, s, m or h; or a bare 0; within ±2⁶³ ns.
fn is_go_duration(text: &str) -> bool {
    let rest = text.strip_prefix(['-', '+']).unwrap_or(text);
    if rest == "0" {
        return true;
    }
    if rest.is_empty() {
        return false;
    }
    let mut total: f64 = 0.0;
    let mut rest = rest;
    while !rest.is_empty() {
        let whole = rest.bytes().take_while(u8::is_ascii_digit).count();
        let (whole_text, after) = rest.split_at(whole);
        let mut after = after;
        let mut fraction_text = "";
        if let Some(dot) = after.strip_prefix('.') {
            let digits = dot.bytes().take_while(u8::is_ascii_digit).count();
            fraction_text = &dot[..digits];
            after = &dot[digits..];
        }
        if whole == 0 && fraction_text.is_empty() {
            return false;
        }
        let unit_length = after
            .char_indices()
            .find(|&(_, c)| c == '.' || c.is_ascii_digit())
            .map_or(after.len(), |(index, _)| index);
        let (unit, next) = after.split_at(unit_length);
        let nanoseconds = match unit {
            "ns" => 1.0,
            "us" | "µs" | "μs" => 1e3,
            "ms" => 1e6,
            "s" => 1e9,
            "m" => 60e9,
            "h" => 3600e9,
            _ => return false,
        };
        let value: f64 = format!(
            "{}.{}",
            if whole_text.is_empty() {
                "0"
            } else {
                whole_text
            },
            if fraction_text.is_empty() {
                "0"
            } else {
                fraction_text
            }
        )
        .parse()
        .unwrap_or(f64::INFINITY);
        total += value * nanoseconds;
        if total > 9.223_372_036_854_775e18 {
            return false;
        }
        rest = next;
    }
    true
}

/// govalidator's ISBN-10: spaces and dashes removed, nine digits then a digit or `X`, whose
/// weighted sum is a multiple of 11.
fn is_isbn10(text: &str) -> bool {
    let digits: Vec<u8> = isbn_sanitized(text);
    if digits.len() != 10
        || !digits[..9].iter().all(u8::is_ascii_digit)
        || !(digits[9].is_ascii_digit() || digits[9] == b'X')
    {
        return false;
    }
    let mut sum: u32 = (0..9)
        .map(|i| (i as u32 + 1) * u32::from(digits[i] - b'0'))
        .sum();
    sum += if digits[9] == b'X' {
        100
    } else {
        10 * u32::from(digits[9] - b'0')
    };
    sum.is_multiple_of(11)
}

/// govalidator's ISBN-13: spaces and dashes removed, thirteen digits, the last the check digit.
fn is_isbn13(text: &str) -> bool {
    let digits: Vec<u8> = isbn_sanitized(text);
    if digits.len() != 13 || !digits.iter().all(u8::is_ascii_digit) {
        return false;
    }
    let sum: u32 = (0..12)
        .map(|i| [1, 3][i % 2] * u32::from(digits[i] - b'0'))
        .sum();
    u32::from(digits[12] - b'0') == (10 - sum % 10) % 10
}

fn isbn_sanitized(text: &str) -> Vec<u8> {
    text.bytes()
        .filter(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0C' | b'-'))
        .collect()
}

/// govalidator's credit card: every non-digit removed, a known issuer's length and prefix,
/// and the Luhn checksum.
fn is_credit_card(text: &str) -> bool {
    let digits: String = text.chars().filter(char::is_ascii_digit).collect();
    let d = digits.as_bytes();
    let starts = |prefix: &str| digits.starts_with(prefix);
    let issuer = match d.len() {
        13 => starts("4"),
        14 => {
            starts("30") && d.get(2).is_some_and(|&b| (b'0'..=b'5').contains(&b))
                || starts("36")
                || starts("38")
        }
        15 => starts("34") || starts("37") || starts("2131") || starts("1800"),
        16 => {
            starts("4")
                || starts("5") && (b'1'..=b'5').contains(&d[1])
                || starts("6011")
                || starts("65")
                || starts("35")
        }
        _ => false,
    };
    if !issuer {
        return false;
    }
    let sum: u32 = d
        .iter()
        .rev()
        .enumerate()
        .map(|(position, &b)| {
            let digit = u32::from(b - b'0');
            match position % 2 {
                1 if digit * 2 >= 10 => digit * 2 % 10 + 1,
                1 => digit * 2,
                _ => digit,
            }
        })
        .sum();
    sum.is_multiple_of(10)
}

/// govalidator's SSN: eleven characters, `ddd-dd-dddd` with each dash a dash or a space.
fn is_ssn(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 11
        && b.iter().enumerate().all(|(index, &c)| match index {
            3 | 6 => c == b'-' || c == b' ',
            _ => c.is_ascii_digit(),
        })
}

/// govalidator's hex color: an optional `#`, then three or six hex digits.
fn is_hex_color(text: &str) -> bool {
    let digits = text.strip_prefix('#').unwrap_or(text);
    (digits.len() == 3 || digits.len() == 6) && digits.bytes().all(|b| b.is_ascii_hexdigit())
}

/// govalidator's rgb color: `rgb(` three numbers 0–255 without leading zeros, comma-separated,
/// spaces allowed around each, `)`.
fn is_rgb_color(text: &str) -> bool {
    let Some(inside) = text
        .strip_prefix("rgb(")
        .and_then(|rest| rest.strip_suffix(')'))
    else {
        return false;
    };
    let space = |c: char| matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0C');
    let parts: Vec<&str> = inside.split(',').collect();
    parts.len() == 3
        && parts.iter().all(|part| {
            let number = part.trim_matches(space);
            !number.is_empty()
                && number.bytes().all(|b| b.is_ascii_digit())
                && !(number.len() > 1 && number.starts_with('0'))
                && number.parse::<u32>().is_ok_and(|value| value <= 255)
        })
}

/// kube-openapi's short name: lowercase letters, digits and dashes, not starting or ending
/// with a dash.
fn is_short_name(text: &str) -> bool {
    let b = text.as_bytes();
    !b.is_empty()
        && b.iter()
            .all(|&c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-')
        && b[0] != b'-'
        && b[b.len() - 1] != b'-'
}

/// A value as a message shows it: its JSON, cut to 60 characters. Only as much of it is
/// written as is shown, since a value may be large and a check may describe it often.
pub(super) fn describe(value: &Value) -> String {
    const SHOWN: usize = 60;
    struct Prefix {
        bytes: Vec<u8>,
        limit: usize,
    }
    impl std::io::Write for Prefix {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            let room = self.limit - self.bytes.len();
            if room == 0 {
                return Err(std::io::Error::other("shown in full"));
            }
            let taken = bytes.len().min(room);
            self.bytes.extend_from_slice(&bytes[..taken]);
            Ok(taken)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    // A character takes at most four bytes: this many hold more than are shown.
    let mut prefix = Prefix {
        bytes: Vec::new(),
        limit: (SHOWN + 1) * 4,
    };
    let _ = serde_json::to_writer(&mut prefix, value);
    let text = match std::str::from_utf8(&prefix.bytes) {
        Ok(text) => text,
        Err(cut) => std::str::from_utf8(&prefix.bytes[..cut.valid_up_to()]).unwrap_or_default(),
    };
    if text.chars().count() > SHOWN {
        format!("{}…", text.chars().take(57).collect::<String>())
    } else {
        text.to_string()
    }
}
