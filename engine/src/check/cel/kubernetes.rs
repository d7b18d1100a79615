//! Kubernetes' own CEL libraries (k8s.io/apiserver pkg/cel/library): ip and cidr, url,
//! quantity, semver and the named formats of `format.named`, each as its documentation and
//! tests define it. Behaviour was learned from those documents; no code is copied.

use std::net::IpAddr;
use std::rc::Rc;

use super::value::{
    Entries, Fault, NANOS, Result, Semver, Url, Val, compare_semver, equal, error, parse_timestamp,
};
use crate::quantity::{Quantity, parse_quantity};

/// `isIP`, `ip`, `isCIDR`, `cidr`, `isURL`, `url`, `isQuantity`, `quantity`,
/// `ip.isCanonical`, `isSemver` and `semver` (with `normalize`, their second argument).
pub(super) fn kubernetes_constructor<'a>(
    function: &str,
    text: &str,
    normalize: bool,
) -> Result<Val<'a>> {
    match function {
        "isSemver" => Ok(Val::Bool(parse_semver(text, normalize).is_ok())),
        "semver" => parse_semver(text, normalize)
            .map(|version| Val::Semver(Rc::new(version)))
            .map_err(Fault::Error),
        "isIP" => Ok(Val::Bool(parse_ip(text).is_ok())),
        "ip" => parse_ip(text).map(Val::Ip).map_err(Fault::Error),
        "ip.isCanonical" => {
            let address = parse_ip(text).map_err(Fault::Error)?;
            Ok(Val::Bool(address.to_string() == text))
        }
        "isCIDR" => Ok(Val::Bool(parse_cidr(text).is_ok())),
        "cidr" => parse_cidr(text)
            .map(|(address, prefix)| Val::Cidr(address, prefix))
            .map_err(Fault::Error),
        "isURL" => Ok(Val::Bool(Url::parse(text).is_ok())),
        "url" => Url::parse(text)
            .map(|url| Val::Url(Rc::new(url)))
            .map_err(Fault::Error),
        "isQuantity" => Ok(Val::Bool(parse_quantity(text).is_ok())),
        _ => parse_quantity(text)
            .map(Val::Quantity)
            .map_err(|_| Fault::Error(format!("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$': {text:?}"))),
    }
}

/// An IP address as Kubernetes' `ip()` reads it (Go's netip.ParseAddr): no zone, no
/// IPv4-mapped IPv6 address, no leading zeros.
fn parse_ip(text: &str) -> std::result::Result<IpAddr, String> {
    let address: IpAddr = text
        .parse()
        .map_err(|_| format!("IP Address {text:?} parse error during conversion from string"))?;
    if let IpAddr::V6(v6) = address
        && v6.to_ipv4_mapped().is_some()
        && text.contains('.')
    {
        return Err(format!("IPv4-mapped IPv6 address {text:?} is not allowed"));
    }
    Ok(address)
}

fn parse_cidr(text: &str) -> std::result::Result<(IpAddr, u8), String> {
    let invalid = || format!("network address parse error during conversion from string: {text:?}");
    let (address, prefix) = text.split_once('/').ok_or_else(invalid)?;
    let address = parse_ip(address).map_err(|_| invalid())?;
    if prefix.is_empty()
        || !prefix.bytes().all(|b| b.is_ascii_digit())
        || (prefix.len() > 1 && prefix.starts_with('0'))
    {
        return Err(invalid());
    }
    let prefix: u8 = prefix.parse().map_err(|_| invalid())?;
    let bits = if address.is_ipv4() { 32 } else { 128 };
    if prefix > bits {
        return Err(invalid());
    }
    Ok((address, prefix))
}

fn masked(address: IpAddr, prefix: u8) -> IpAddr {
    match address {
        IpAddr::V4(v4) => {
            let mask = if prefix == 0 {
                0
            } else {
                u32::MAX << (32 - prefix)
            };
            IpAddr::V4((u32::from(v4) & mask).into())
        }
        IpAddr::V6(v6) => {
            let mask = if prefix == 0 {
                0
            } else {
                u128::MAX << (128 - prefix)
            };
            IpAddr::V6((u128::from(v6) & mask).into())
        }
    }
}

pub(super) fn ip_method<'a>(
    address: &IpAddr,
    function: &str,
    args: &[Val<'a>],
) -> Option<Result<Val<'a>>> {
    if !args.is_empty() {
        return None;
    }
    let value = match function {
        "family" => return Some(Ok(Val::Int(if address.is_ipv4() { 4 } else { 6 }))),
        "isUnspecified" => address.is_unspecified(),
        "isLoopback" => address.is_loopback(),
        "isLinkLocalMulticast" => match address {
            IpAddr::V4(v4) => v4.octets()[..3] == [224, 0, 0],
            IpAddr::V6(v6) => v6.segments()[0] & 0xff0f == 0xff02,
        },
        "isLinkLocalUnicast" => match address {
            IpAddr::V4(v4) => v4.is_link_local(),
            IpAddr::V6(v6) => v6.segments()[0] & 0xffc0 == 0xfe80,
        },
        "isGlobalUnicast" => {
            // Go's definition: not unspecified, loopback, multicast, link-local or broadcast.
            match address {
                IpAddr::V4(v4) => {
                    !(v4.is_unspecified()
                        || v4.is_loopback()
                        || v4.is_multicast()
                        || v4.is_link_local()
                        || v4.is_broadcast())
                }
                IpAddr::V6(v6) => {
                    !(v6.is_unspecified()
                        || v6.is_loopback()
                        || v6.is_multicast()
                        || v6.segments()[0] & 0xffc0 == 0xfe80)
                }
            }
        }
        _ => return None,
    };
    Some(Ok(Val::Bool(value)))
}

pub(super) fn cidr_method<'a>(
    address: IpAddr,
    prefix: u8,
    function: &str,
    args: &[Val<'a>],
) -> Option<Result<Val<'a>>> {
    let network = masked(address, prefix);
    let contains = |other: IpAddr, other_prefix: u8| {
        other.is_ipv4() == address.is_ipv4()
            && other_prefix >= prefix
            && masked(other, prefix) == network
    };
    Some(match (function, args) {
        ("containsIP", [Val::Ip(other)]) => {
            let bits = if other.is_ipv4() { 32 } else { 128 };
            Ok(Val::Bool(contains(*other, bits)))
        }
        ("containsIP", [Val::Str(text)]) => parse_ip(text).map_err(Fault::Error).map(|other| {
            let bits = if other.is_ipv4() { 32 } else { 128 };
            Val::Bool(contains(other, bits))
        }),
        ("containsCIDR", [Val::Cidr(other, other_prefix)]) => {
            Ok(Val::Bool(contains(*other, *other_prefix)))
        }
        ("containsCIDR", [Val::Str(text)]) => parse_cidr(text)
            .map_err(Fault::Error)
            .map(|(other, other_prefix)| Val::Bool(contains(other, other_prefix))),
        ("ip", []) => Ok(Val::Ip(address)),
        ("masked", []) => Ok(Val::Cidr(network, prefix)),
        ("prefixLength", []) => Ok(Val::Int(i64::from(prefix))),
        _ => return None,
    })
}

impl Url {
    fn parse(text: &str) -> std::result::Result<Url, String> {
        let invalid = || format!("URL parse error during conversion from string: {text:?}");
        if text.is_empty() || text.chars().any(|c| c.is_ascii_control() || c == ' ') {
            return Err(invalid());
        }
        let (scheme, rest) = if text.starts_with('/') {
            (String::new(), text)
        } else {
            let (scheme, rest) = text.split_once(':').ok_or_else(invalid)?;
            let valid = scheme
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic())
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
            if !valid {
                return Err(invalid());
            }
            (scheme.to_ascii_lowercase(), rest)
        };
        let (rest, query) = match rest.split_once('?') {
            Some((rest, query)) => (rest, query.to_string()),
            None => (rest, String::new()),
        };
        let (host, path) = match rest.strip_prefix("//") {
            Some(authority) if !scheme.is_empty() || text.starts_with("//") => {
                let end = authority.find('/').unwrap_or(authority.len());
                let host = &authority[..end];
                let host = host.rsplit_once('@').map_or(host, |(_, host)| host);
                if host.starts_with('[') && !host.contains(']') {
                    return Err(invalid());
                }
                if let Some((_, port)) = host.rsplit_once(':')
                    && !host.ends_with(']')
                    && !port.bytes().all(|b| b.is_ascii_digit())
                {
                    return Err(invalid());
                }
                (host.to_string(), authority[end..].to_string())
            }
            _ if scheme.is_empty() || rest.starts_with('/') => (String::new(), rest.to_string()),
            // An opaque URL (`mailto:a@b`): no host, no path.
            _ => (String::new(), String::new()),
        };
        if path.contains('%') && !escapes_valid(&path) {
            return Err(invalid());
        }
        Ok(Url {
            text: text.to_string(),
            scheme,
            host,
            path,
            query,
        })
    }

    fn hostname(&self) -> &str {
        if let Some(inner) = self.host.strip_prefix('[') {
            return inner.split(']').next().unwrap_or_default();
        }
        self.host.split(':').next().unwrap_or_default()
    }

    fn port(&self) -> &str {
        let after_address = match self.host.rfind(']') {
            Some(end) => &self.host[end + 1..],
            None => &self.host,
        };
        after_address.rsplit_once(':').map_or("", |(_, port)| port)
    }
}

/// Whether every `%` of `text` starts an escape of two hexadecimal digits.
fn escapes_valid(text: &str) -> bool {
    text.split('%')
        .skip(1)
        .all(|after| after.len() >= 2 && after.as_bytes()[..2].iter().all(u8::is_ascii_hexdigit))
}

pub(super) fn url_method<'a>(
    url: &Url,
    function: &str,
    args: &[Val<'a>],
) -> Option<Result<Val<'a>>> {
    if !args.is_empty() {
        return None;
    }
    Some(Ok(match function {
        "getScheme" => Val::string(&url.scheme),
        "getHost" => Val::string(&url.host),
        "getHostname" => Val::string(url.hostname()),
        "getPort" => Val::string(url.port()),
        "getEscapedPath" => Val::string(&url.path),
        "getQuery" => {
            let mut entries: Vec<(Val<'a>, Vec<Val<'a>>)> = Vec::new();
            for pair in url.query.split(['&']).filter(|pair| !pair.is_empty()) {
                let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
                let key = Val::string(&unescape(key));
                let value = Val::string(&unescape(value));
                match entries
                    .iter_mut()
                    .find(|(existing, _)| equal(existing, &key))
                {
                    Some((_, values)) => values.push(value),
                    None => entries.push((key, vec![value])),
                }
            }
            let mut map = Entries::with_capacity(entries.len());
            for (key, values) in entries {
                map.insert(key, Val::List(Rc::new(values)));
            }
            Val::map(map)
        }
        _ => return None,
    }))
}

/// A query's key or value decoded: `+` is a space, `%XX` a byte.
fn unescape(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        let escaped = (bytes[at] == b'%')
            .then(|| text.get(at + 1..at + 3))
            .flatten()
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match (escaped, bytes[at]) {
            (Some(byte), _) => {
                out.push(byte);
                at += 3;
            }
            (None, b'+') => {
                out.push(b' ');
                at += 1;
            }
            (None, byte) => {
                out.push(byte);
                at += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

pub(super) fn quantity_method<'a>(
    quantity: Quantity,
    function: &str,
    args: &[Val<'a>],
) -> Option<Result<Val<'a>>> {
    let nanos = quantity.nanos();
    let other = |arg: &Val<'a>| -> Option<Quantity> {
        match arg {
            Val::Quantity(other) => Some(*other),
            Val::Int(units) => Some(Quantity::from_units(*units)),
            _ => None,
        }
    };
    Some(Ok(match (function, args) {
        ("sign", []) => Val::Int(nanos.signum() as i64),
        ("isInteger", []) => Val::Bool(nanos % NANOS == 0 && i64::try_from(nanos / NANOS).is_ok()),
        ("asInteger", []) => {
            if nanos % NANOS != 0 {
                return Some(error("cannot convert value to integer"));
            }
            match i64::try_from(nanos / NANOS) {
                Ok(units) => Val::Int(units),
                Err(_) => return Some(error("cannot convert value to integer")),
            }
        }
        ("asApproximateFloat", []) => Val::Double(nanos as f64 / NANOS as f64),
        ("add", [arg]) => Val::Quantity(quantity.saturating_add(other(arg)?)),
        ("sub", [arg]) => Val::Quantity(quantity.saturating_sub(other(arg)?)),
        ("compareTo", [Val::Quantity(other)]) => Val::Int(match quantity.cmp(other) {
            std::cmp::Ordering::Less => -1,
            std::cmp::Ordering::Equal => 0,
            std::cmp::Ordering::Greater => 1,
        }),
        ("isGreaterThan", [Val::Quantity(other)]) => Val::Bool(quantity > *other),
        ("isLessThan", [Val::Quantity(other)]) => Val::Bool(quantity < *other),
        _ => return None,
    }))
}

/// The formats `format.named` knows, by name.
pub(super) fn named_format(name: &str) -> Option<&'static str> {
    [
        "dns1123Label",
        "dns1123Subdomain",
        "dns1035Label",
        "qualifiedName",
        "dns1123LabelPrefix",
        "dns1123SubdomainPrefix",
        "dns1035LabelPrefix",
        "labelValue",
        "uri",
        "uuid",
        "byte",
        "date",
        "datetime",
    ]
    .into_iter()
    .find(|known| *known == name)
}

/// What is wrong with `text` in a named format, as apimachinery's validation messages say
/// it; nothing when it is valid.
pub(super) fn validate_format(format: &str, text: &str) -> Vec<String> {
    let label = |text: &str, first_letter: bool| {
        let bytes = text.as_bytes();
        !bytes.is_empty()
            && bytes
                .iter()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'-')
            && if first_letter {
                bytes[0].is_ascii_lowercase()
            } else {
                bytes[0].is_ascii_alphanumeric()
            }
            && bytes[bytes.len() - 1] != b'-'
    };
    let too_long = |limit: usize| {
        (text.len() > limit).then(|| format!("must be no more than {limit} characters"))
    };
    let mut problems: Vec<String> = Vec::new();
    match format {
        "dns1123Label" | "dns1123LabelPrefix" => {
            problems.extend(too_long(63));
            let text = if format.ends_with("Prefix") {
                text.trim_end_matches('-')
            } else {
                text
            };
            if !label(text, false) {
                problems.push("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character".to_string());
            }
        }
        "dns1035Label" | "dns1035LabelPrefix" => {
            problems.extend(too_long(63));
            let text = if format.ends_with("Prefix") {
                text.trim_end_matches('-')
            } else {
                text
            };
            if !label(text, true) {
                problems.push("a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character".to_string());
            }
        }
        "dns1123Subdomain" | "dns1123SubdomainPrefix" => {
            problems.extend(too_long(253));
            let text = if format.ends_with("Prefix") {
                text.trim_end_matches('-')
            } else {
                text
            };
            if !text.split('.').all(|part| label(part, false)) {
                problems.push("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character".to_string());
            }
        }
        "qualifiedName" => {
            let (prefix, name) = match text.split_once('/') {
                Some((prefix, name)) => (Some(prefix), name),
                None => (None, text),
            };
            if let Some(prefix) = prefix
                && (prefix.is_empty()
                    || prefix.len() > 253
                    || !prefix.split('.').all(|part| label(part, false)))
            {
                problems.push("prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character".to_string());
            }
            if name.is_empty() || name.len() > 63 || !is_name_part(name) {
                problems.push("name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character".to_string());
            }
        }
        "labelValue" => {
            problems.extend(too_long(63));
            if !text.is_empty() && !is_name_part(text) {
                problems.push("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character".to_string());
            }
        }
        "uri" => {
            if Url::parse(text).is_err() {
                problems.push("must be a valid URI".to_string());
            }
        }
        "uuid" => {
            let groups: Vec<&str> = text.split('-').collect();
            let valid = groups.len() == 5
                && groups.iter().zip([8, 4, 4, 4, 12]).all(|(group, length)| {
                    group.len() == length && group.bytes().all(|b| b.is_ascii_hexdigit())
                });
            if !valid {
                problems.push("does not match the UUID format".to_string());
            }
        }
        "byte" => {
            let bytes = text.as_bytes();
            let padding = bytes.iter().rev().take_while(|&&b| b == b'=').count();
            let valid = bytes.len().is_multiple_of(4)
                && padding <= 2
                && bytes[..bytes.len() - padding]
                    .iter()
                    .all(|b| b.is_ascii_alphanumeric() || *b == b'+' || *b == b'/');
            if !valid {
                problems.push("invalid base64".to_string());
            }
        }
        "date" => {
            if parse_timestamp(&format!("{text}T00:00:00Z")).is_err() || text.len() != 10 {
                problems.push("invalid date".to_string());
            }
        }
        _ => {
            if parse_timestamp(text).is_err() {
                problems.push("invalid datetime".to_string());
            }
        }
    }
    problems
}

/// A qualified name's name part and a label value: alphanumerics, `-`, `_`, `.`, starting
/// and ending alphanumeric.
fn is_name_part(text: &str) -> bool {
    let bytes = text.as_bytes();
    !bytes.is_empty()
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        && bytes[0].is_ascii_alphanumeric()
        && bytes[bytes.len() - 1].is_ascii_alphanumeric()
}

/// A semantic version as Kubernetes' `semver()` reads it (github.com/blang/semver/v4 Parse,
/// with its error texts); `normalize` first drops a leading `v`, leading zeros of each part,
/// and fills in a missing minor or patch (semverlib.go).
fn parse_semver(text: &str, normalize: bool) -> std::result::Result<Semver, String> {
    if normalize {
        let text = text.strip_prefix('v').unwrap_or(text);
        let mut parts: Vec<String> = text.splitn(3, '.').map(String::from).collect();
        for part in &mut parts {
            if part.len() > 1 {
                let trimmed = part.trim_start_matches('0');
                *part = if trimmed.starts_with(|c: char| c.is_ascii_digit()) {
                    trimmed.to_string()
                } else {
                    format!("0{trimmed}")
                };
            }
        }
        if parts.len() < 3 {
            if parts.last().is_some_and(|last| last.contains(['+', '-'])) {
                return Err("short version cannot contain PreRelease/Build meta data".into());
            }
            parts.resize(3, "0".to_string());
        }
        return parse_semver(&parts.join("."), false);
    }
    if text.is_empty() {
        return Err("Version string empty".into());
    }
    let parts: Vec<&str> = text.splitn(3, '.').collect();
    let [major, minor, rest] = parts.as_slice() else {
        return Err("No Major.Minor.Patch elements found".into());
    };
    let number = |part: &str, name: &str| -> std::result::Result<u64, String> {
        if !part.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!(
                "Invalid character(s) found in {name} number {part:?}"
            ));
        }
        if part.len() > 1 && part.starts_with('0') {
            let capital = format!("{}{}", name[..1].to_uppercase(), &name[1..]);
            return Err(format!(
                "{capital} number must not contain leading zeroes {part:?}"
            ));
        }
        part.parse()
            .map_err(|_| format!("strconv.ParseUint: parsing {part:?}: invalid syntax"))
    };
    let (major, minor) = (number(major, "major")?, number(minor, "minor")?);
    let (rest, build) = match rest.split_once('+') {
        Some((rest, build)) => (rest, Some(build)),
        None => (*rest, None),
    };
    let (patch, pre) = match rest.split_once('-') {
        Some((patch, pre)) => (patch, Some(pre)),
        None => (rest, None),
    };
    let patch = number(patch, "patch")?;
    let alphanumeric = |part: &str| part.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
    let mut identifiers = Vec::new();
    for identifier in pre
        .map(|pre| pre.split('.').collect::<Vec<_>>())
        .unwrap_or_default()
    {
        if identifier.is_empty() {
            return Err("Prerelease is empty".into());
        }
        if identifier.bytes().all(|b| b.is_ascii_digit()) {
            if identifier.len() > 1 && identifier.starts_with('0') {
                return Err(format!(
                    "Numeric PreRelease version must not contain leading zeroes {identifier:?}"
                ));
            }
        } else if !alphanumeric(identifier) {
            return Err(format!(
                "Invalid character(s) found in prerelease {identifier:?}"
            ));
        }
        identifiers.push(identifier.to_string());
    }
    for part in build
        .map(|build| build.split('.').collect::<Vec<_>>())
        .unwrap_or_default()
    {
        if part.is_empty() {
            return Err("Build meta data is empty".into());
        }
        if !alphanumeric(part) {
            return Err(format!(
                "Invalid character(s) found in build meta data {part:?}"
            ));
        }
    }
    Ok(Semver {
        major,
        minor,
        patch,
        pre: identifiers,
        text: text.to_string(),
    })
}

pub(super) fn semver_method<'a>(
    version: &Semver,
    function: &str,
    args: &[Val<'a>],
) -> Option<Result<Val<'a>>> {
    let clamp = |value: u64| Val::Int(value as i64);
    Some(Ok(match (function, args) {
        ("major", []) => clamp(version.major),
        ("minor", []) => clamp(version.minor),
        ("patch", []) => clamp(version.patch),
        ("isGreaterThan", [Val::Semver(other)]) => {
            Val::Bool(compare_semver(version, other) == std::cmp::Ordering::Greater)
        }
        ("isLessThan", [Val::Semver(other)]) => {
            Val::Bool(compare_semver(version, other) == std::cmp::Ordering::Less)
        }
        ("compareTo", [Val::Semver(other)]) => Val::Int(compare_semver(version, other) as i64),
        _ => return None,
    }))
}
