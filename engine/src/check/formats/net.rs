//! The network formats of kube-openapi's strfmt registry (pkg/validation/strfmt/default.go), each
//! with the grammar of the Go function it calls: IP addresses as Go's `net.ParseIP` and the
//! "sloppy" fork of it in k8s.io/utils/net (which takes leading zeros), CIDRs, MAC addresses
//! (`net.ParseMAC`), request URIs (`net/url.ParseRequestURI`), email addresses
//! (`net/mail.ParseAddress`) and host names.

use std::sync::OnceLock;

/// strfmt's `ipv4`: k8s.io/utils/net `ParseIPSloppy` takes it and it holds a dot — so an
/// IPv4-mapped IPv6 address (`::ffff:1.2.3.4`) is one too.
pub(super) fn is_ipv4(text: &str) -> bool {
    parse_ip_sloppy(text) && text.contains('.')
}

/// strfmt's `ipv6` (govalidator `IsIPv6`): Go's `net.ParseIP` takes it and it holds a colon.
pub(super) fn is_ipv6(text: &str) -> bool {
    parse_ip_strict(text) && text.contains(':')
}

/// strfmt's `cidr`: k8s.io/utils/net `ParseCIDRSloppy` (its fork of Go 1.16's
/// `net.ParseCIDR`): an address the sloppy parser takes, a slash and a decimal prefix length
/// no longer than the address.
pub(super) fn is_cidr(text: &str) -> bool {
    let Some((address, prefix)) = text.split_once('/') else {
        return false;
    };
    let bits = if sloppy_ipv4(address) {
        32
    } else if ipv6(address, Dialect::Sloppy) {
        128
    } else {
        return false;
    };
    match decimal(prefix) {
        Some((value, used)) => used == prefix.len() && value <= bits,
        None => false,
    }
}

/// Which of Go's two IP parsers.
#[derive(Clone, Copy, PartialEq)]
enum Dialect {
    /// Go 1.16's `net.ParseIP`, kept by k8s.io/utils/net: leading zeros are fine, a field is
    /// only bounded by its value.
    Sloppy,
    /// Today's `net.ParseIP` (netip.ParseAddr without a zone): no leading zero in an IPv4
    /// field, at most four hex digits in an IPv6 one.
    Strict,
}

fn parse_ip_sloppy(text: &str) -> bool {
    // The first dot or colon decides which family is parsed.
    match text.bytes().find(|&b| b == b'.' || b == b':') {
        Some(b'.') => sloppy_ipv4(text),
        Some(_) => ipv6(text, Dialect::Sloppy),
        None => false,
    }
}

fn parse_ip_strict(text: &str) -> bool {
    match text.bytes().find(|&b| b == b'.' || b == b':' || b == b'%') {
        Some(b'.') => strict_ipv4(text),
        Some(b':') => ipv6(text, Dialect::Strict),
        _ => false,
    }
}

/// Go 1.16's `dtoi`: the leading decimal digits' value and how many there were; none, or a
/// value past 0xFFFFFF, is no number.
fn decimal(text: &str) -> Option<(u32, usize)> {
    let mut value: u32 = 0;
    let mut used = 0;
    for b in text.bytes() {
        if !b.is_ascii_digit() {
            break;
        }
        value = value * 10 + u32::from(b - b'0');
        used += 1;
        if value >= 0xFF_FFFF {
            return None;
        }
    }
    (used > 0).then_some((value, used))
}

/// Go 1.16's `xtoi`: the leading hexadecimal digits' value and how many.
fn hexadecimal(text: &str) -> Option<(u32, usize)> {
    let mut value: u32 = 0;
    let mut used = 0;
    for b in text.bytes() {
        let Some(digit) = (b as char).to_digit(16) else {
            break;
        };
        value = value * 16 + digit;
        used += 1;
        if value >= 0xFF_FFFF {
            return None;
        }
    }
    (used > 0).then_some((value, used))
}

fn sloppy_ipv4(text: &str) -> bool {
    let mut rest = text;
    for field in 0..4 {
        if field > 0 {
            match rest.strip_prefix('.') {
                Some(after) => rest = after,
                None => return false,
            }
        }
        match decimal(rest) {
            Some((value, used)) if value <= 0xFF => rest = &rest[used..],
            _ => return false,
        }
    }
    rest.is_empty()
}

/// netip's IPv4: four decimal fields of at most 255, none with a leading zero.
fn strict_ipv4(text: &str) -> bool {
    let fields: Vec<&str> = text.split('.').collect();
    fields.len() == 4
        && fields.iter().all(|field| {
            !field.is_empty()
                && field.len() <= 3
                && field.bytes().all(|b| b.is_ascii_digit())
                && !(field.len() > 1 && field.starts_with('0'))
                && field.parse::<u32>().is_ok_and(|value| value <= 255)
        })
}

/// An IPv6 address as Go's parsers read it: hex fields between colons, one `::` for a run
/// of zero fields, and an IPv4 address in the last four bytes.
fn ipv6(text: &str, dialect: Dialect) -> bool {
    let ipv4 = |text: &str| match dialect {
        Dialect::Sloppy => sloppy_ipv4(text),
        Dialect::Strict => strict_ipv4(text),
    };
    let mut rest = text;
    let mut ellipsis = false;
    if let Some(after) = rest.strip_prefix("::") {
        ellipsis = true;
        rest = after;
        if rest.is_empty() {
            return true;
        }
    }
    let mut bytes = 0;
    while bytes < 16 {
        let Some((value, used)) = hexadecimal(rest) else {
            return false;
        };
        if rest[used..].starts_with('.') {
            if !ellipsis && bytes != 12 || bytes + 4 > 16 || !ipv4(rest) {
                return false;
            }
            rest = "";
            bytes += 4;
            break;
        }
        if value > 0xFFFF || dialect == Dialect::Strict && used > 4 {
            return false;
        }
        bytes += 2;
        rest = &rest[used..];
        if rest.is_empty() {
            break;
        }
        if !rest.starts_with(':') || rest.len() == 1 {
            return false;
        }
        rest = &rest[1..];
        if rest.starts_with(':') {
            if ellipsis {
                return false;
            }
            ellipsis = true;
            rest = &rest[1..];
            if rest.is_empty() {
                break;
            }
        }
    }
    rest.is_empty() && (if bytes < 16 { ellipsis } else { !ellipsis })
}

/// Go's `net.ParseMAC`: 6, 8 or 20 octets as `xx:xx:…` or `xx-xx-…`, or as `xxxx.xxxx.…`.
pub(super) fn is_mac(text: &str) -> bool {
    let bytes = text.as_bytes();
    if bytes.len() < 14 {
        return false;
    }
    let octets_allowed = |octets: usize| matches!(octets, 6 | 8 | 20);
    let hex = |b: u8| b.is_ascii_hexdigit();
    if bytes[2] == b':' || bytes[2] == b'-' {
        if !(bytes.len() + 1).is_multiple_of(3) || !octets_allowed((bytes.len() + 1) / 3) {
            return false;
        }
        let separator = bytes[2];
        bytes.chunks(3).all(|group| {
            hex(group[0]) && hex(group[1]) && (group.len() == 2 || group[2] == separator)
        })
    } else if bytes[4] == b'.' {
        if !(bytes.len() + 1).is_multiple_of(5) || !octets_allowed(2 * (bytes.len() + 1) / 5) {
            return false;
        }
        bytes.chunks(5).all(|group| {
            group[..4].iter().all(|&b| hex(b)) && (group.len() == 4 || group[4] == b'.')
        })
    } else {
        false
    }
}

/// strfmt's `hostname`: its pattern (labels of letters, digits, symbols, inner dashes; a
/// last label of at least two letters), at most 255 bytes, no label over 63.
pub(super) fn is_hostname(text: &str) -> bool {
    static HOSTNAME: OnceLock<regex::Regex> = OnceLock::new();
    let pattern = HOSTNAME.get_or_init(|| {
        let label = r"[a-zA-Z0-9\p{S}\p{L}]";
        let inner = r"[a-zA-Z0-9\-\p{S}\p{L}]";
        regex::Regex::new(&format!(
            r"^({label}((-?{label}{{0,62}})?)|({label}(({inner}{{0,61}}{label})?)(\.)){{1,}}([a-zA-Z\p{{L}}]){{2,63}})$"
        ))
        .expect("strfmt's hostname pattern compiles")
    });
    text.len() <= 255 && text.split('.').all(|label| label.len() <= 63) && pattern.is_match(text)
}

/// Go's `net/url.ParseRequestURI` (Go 1.27, `urlstrictcolons` on): an absolute URI or an
/// absolute path, no control characters, valid escapes, and an authority whose host and port
/// Go accepts.
pub(super) fn is_request_uri(text: &str) -> bool {
    if text.bytes().any(|b| b < b' ' || b == 0x7f) || text.is_empty() {
        return false;
    }
    if text == "*" {
        return true;
    }
    let (scheme, rest) = match scheme(text) {
        Ok(split) => split,
        Err(()) => return false,
    };
    let scheme = scheme.to_ascii_lowercase();
    let rest = if rest.ends_with('?') && rest.matches('?').count() == 1 {
        &rest[..rest.len() - 1]
    } else {
        rest.split_once('?').map_or(rest, |(before, _)| before)
    };
    if !rest.starts_with('/') {
        // An opaque URI (`mailto:x`) has a scheme; a request needs one or a path.
        return !scheme.is_empty();
    }
    let mut path = rest;
    if !scheme.is_empty() && rest.starts_with("//") {
        let authority_and_path = &rest[2..];
        let (authority, after) = match authority_and_path.find('/') {
            Some(slash) => authority_and_path.split_at(slash),
            None => (authority_and_path, ""),
        };
        if !authority_ok(&scheme, authority) {
            return false;
        }
        path = after;
    }
    unescape(path, Mode::Path)
}

/// Go's `getScheme`: letters, then letters, digits, `+-.` up to a colon.
fn scheme(text: &str) -> Result<(&str, &str), ()> {
    for (index, b) in text.bytes().enumerate() {
        match b {
            b'a'..=b'z' | b'A'..=b'Z' => {}
            b'0'..=b'9' | b'+' | b'-' | b'.' if index > 0 => {}
            b':' if index == 0 => return Err(()),
            b':' => return Ok((&text[..index], &text[index + 1..])),
            _ => return Ok(("", text)),
        }
    }
    Ok(("", text))
}

fn authority_ok(scheme: &str, authority: &str) -> bool {
    let (userinfo, host) = match authority.rfind('@') {
        Some(at) => (Some(&authority[..at]), &authority[at + 1..]),
        None => (None, authority),
    };
    if !host_ok(scheme, host) {
        return false;
    }
    match userinfo {
        None => true,
        Some(userinfo) => {
            userinfo
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-._:~!$&'()*+,;=%@".contains(c))
                && userinfo
                    .split(':')
                    .take(2)
                    .all(|part| unescape(part, Mode::UserPassword))
        }
    }
}

/// Go's `parseHost`: a bracketed IPv6 literal (with an optional zone and port), or a name
/// with an optional port after its colon.
fn host_ok(scheme: &str, host: &str) -> bool {
    match host.rfind('[') {
        Some(open) if open > 0 => false,
        Some(_) => {
            let Some(close) = host.rfind(']') else {
                return false;
            };
            let port = &host[close + 1..];
            if !valid_optional_port(port) || !unescape(port, Mode::Host) {
                return false;
            }
            let inside = &host[1..close];
            let unescaped = match inside.find("%25") {
                Some(zone) => {
                    if !unescape(&inside[..zone], Mode::Host)
                        || !unescape(&inside[zone..], Mode::Zone)
                    {
                        return false;
                    }
                    // The zone is for netip; its text does not matter here beyond being one.
                    let address = percent_decoded(&inside[..zone]);
                    let zone_text = percent_decoded(&inside[zone..]);
                    return !zone_text.trim_start_matches('%').is_empty()
                        && parse_ip_strict(&address)
                        && address.contains(':');
                }
                None => {
                    if !unescape(inside, Mode::Host) {
                        return false;
                    }
                    percent_decoded(inside)
                }
            };
            // Only an IPv6 address goes in brackets (an IPv4-mapped one included).
            parse_ip_strict(&unescaped) && unescaped.contains(':')
        }
        None => {
            if let Some(first) = host.find(':') {
                let last = host.rfind(':').expect("a colon is there");
                let colon = if first != last && scheme != "http" && scheme != "https" {
                    last
                } else {
                    first
                };
                if !valid_optional_port(&host[colon..]) {
                    return false;
                }
            }
            unescape(host, Mode::Host)
        }
    }
}

fn valid_optional_port(port: &str) -> bool {
    port.is_empty()
        || port
            .strip_prefix(':')
            .is_some_and(|digits| digits.bytes().all(|b| b.is_ascii_digit()))
}

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Path,
    UserPassword,
    Host,
    Zone,
}

/// The ASCII bytes a host or zone may hold unescaped (Go's encoding table for `encodeHost`).
fn host_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!\"$&'()*+,-.:;<=>[]_~".contains(&b)
}

/// Whether Go's `unescape` takes `text` in `mode`: each `%` begins two hex digits; a host
/// escapes only non-ASCII bytes (and `%25`), and holds no byte its table refuses.
fn unescape(text: &str, mode: Mode) -> bool {
    let bytes = text.as_bytes();
    let mut index = 0;
    while index < bytes.len() {
        match bytes[index] {
            b'%' => {
                if index + 2 >= bytes.len()
                    || !bytes[index + 1].is_ascii_hexdigit()
                    || !bytes[index + 2].is_ascii_hexdigit()
                {
                    return false;
                }
                let high = (bytes[index + 1] as char).to_digit(16).unwrap_or(0) as u8;
                let low = (bytes[index + 2] as char).to_digit(16).unwrap_or(0) as u8;
                let escape = &text[index..index + 3];
                if mode == Mode::Host && high < 8 && escape != "%25" {
                    return false;
                }
                if mode == Mode::Zone {
                    let value = high << 4 | low;
                    if escape != "%25" && value != b' ' && !host_byte(value) {
                        return false;
                    }
                }
                index += 3;
            }
            b if (mode == Mode::Host || mode == Mode::Zone) && b < 0x80 && !host_byte(b) => {
                return false;
            }
            _ => index += 1,
        }
    }
    true
}

fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        if bytes[index] == b'%' && index + 2 < bytes.len() {
            let hex = &text[index + 1..index + 3];
            if let Ok(value) = u8::from_str_radix(hex, 16) {
                out.push(value);
                index += 3;
                continue;
            }
        }
        out.push(bytes[index]);
        index += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// strfmt's `email`: Go's `net/mail.ParseAddress` takes it — an addr-spec
/// (`local@domain`, a quoted local part or a domain literal allowed), optionally after a
/// display name in angle brackets, or a group of exactly one such address (`team: a@b.c;`),
/// with comments around. The decoding of RFC 2047 words (`=?utf-8?q?…?=`) is not followed.
pub(super) fn is_email(text: &str) -> bool {
    let mut parser = Mail { rest: text };
    parser.skip_space();
    if parser.rest.is_empty() {
        return false;
    }
    let saved = parser.rest;
    if parser.addr_spec() {
        parser.skip_space();
    } else {
        parser.rest = saved;
        if !parser.rest.starts_with('<') && !parser.phrase() {
            return false;
        }
        parser.skip_space();
        if parser.consume(':') {
            // A group (`team: a@b.c;`) holding exactly one address.
            if !parser.skip_comments_and_space() || !parser.single_address() {
                return false;
            }
            if !parser.skip_comments_and_space() || !parser.consume(';') {
                return false;
            }
        } else if !parser.consume('<') || !parser.addr_spec() || !parser.consume('>') {
            return false;
        }
    }
    parser.skip_comments_and_space() && parser.rest.is_empty()
}

struct Mail<'t> {
    rest: &'t str,
}

impl Mail<'_> {
    fn skip_space(&mut self) {
        self.rest = self.rest.trim_start_matches([' ', '\t']);
    }

    fn consume(&mut self, c: char) -> bool {
        match self.rest.strip_prefix(c) {
            Some(after) => {
                self.rest = after;
                true
            }
            None => false,
        }
    }

    /// Go's `skipCFWS`: spaces and parenthesised comments (nested, with escapes); false for
    /// a comment left open.
    fn skip_comments_and_space(&mut self) -> bool {
        self.skip_space();
        while self.rest.starts_with('(') {
            let mut depth = 0;
            let mut escaped = false;
            let mut end = None;
            for (index, c) in self.rest.char_indices() {
                match c {
                    _ if escaped => escaped = false,
                    '\\' => escaped = true,
                    '(' => depth += 1,
                    ')' => {
                        depth -= 1;
                        if depth == 0 {
                            end = Some(index + 1);
                            break;
                        }
                    }
                    _ => {}
                }
            }
            let Some(end) = end else {
                return false;
            };
            self.rest = &self.rest[end..];
            self.skip_space();
        }
        true
    }

    /// Go's `parseAddress(false)`: an addr-spec, or a display name and an angle address.
    fn single_address(&mut self) -> bool {
        self.skip_space();
        if self.rest.is_empty() {
            return false;
        }
        let saved = self.rest;
        if self.addr_spec() {
            self.skip_space();
            return true;
        }
        self.rest = saved;
        if !self.rest.starts_with('<') && !self.phrase() {
            return false;
        }
        self.skip_space();
        self.consume('<') && self.addr_spec() && self.consume('>')
    }

    fn addr_spec(&mut self) -> bool {
        self.skip_space();
        let local = if self.rest.starts_with('"') {
            matches!(self.quoted_string(), Some(text) if !text.is_empty())
        } else {
            self.atom(true, false)
        };
        if !local || !self.consume('@') {
            return false;
        }
        self.skip_space();
        if self.rest.starts_with('[') {
            self.domain_literal()
        } else {
            self.atom(true, false)
        }
    }

    /// Go's `consumeAtom`: atext (and dots), not starting, ending or doubling a dot unless
    /// `permissive`.
    fn atom(&mut self, dot: bool, permissive: bool) -> bool {
        let end = self
            .rest
            .char_indices()
            .find(|&(_, c)| !is_atext(c, dot))
            .map_or(self.rest.len(), |(index, _)| index);
        if end == 0 {
            return false;
        }
        let atom = &self.rest[..end];
        if !permissive && (atom.starts_with('.') || atom.ends_with('.') || atom.contains("..")) {
            return false;
        }
        self.rest = &self.rest[end..];
        true
    }

    fn quoted_string(&mut self) -> Option<String> {
        let mut text = String::new();
        let mut escaped = false;
        for (index, c) in self.rest.char_indices().skip(1) {
            if escaped {
                if !is_vchar(c) && c != ' ' && c != '\t' {
                    return None;
                }
                text.push(c);
                escaped = false;
            } else if c == '"' {
                self.rest = &self.rest[index + 1..];
                return Some(text);
            } else if c == '\\' {
                escaped = true;
            } else if is_vchar(c) || c == ' ' || c == '\t' {
                text.push(c);
            } else {
                return None;
            }
        }
        None
    }

    fn domain_literal(&mut self) -> bool {
        let Some(close) = self.rest.find(']') else {
            return false;
        };
        let inside = &self.rest[1..close];
        if !inside.chars().all(|c| is_vchar(c) && c != '[' && c != '\\') {
            return false;
        }
        let valid = match inside.strip_prefix("IPv6:") {
            Some(address) => parse_ip_strict(address),
            None => parse_ip_strict(inside) && strict_ipv4_like(inside),
        };
        self.rest = &self.rest[close + 1..];
        valid
    }

    /// Go's `consumePhrase`: words (permissive atoms or quoted strings) separated by
    /// comments and spaces; at least one.
    fn phrase(&mut self) -> bool {
        let mut words = 0;
        loop {
            if words > 0 && !self.skip_comments_and_space() {
                return false;
            }
            self.skip_space();
            if self.rest.is_empty() {
                break;
            }
            let saved = self.rest;
            let word = if self.rest.starts_with('"') {
                self.quoted_string().is_some()
            } else {
                self.atom(true, true)
            };
            if !word {
                self.rest = saved;
                break;
            }
            words += 1;
        }
        words > 0
    }
}

/// `net.ParseIP(x).To4() != nil`: a dotted IPv4 address, or an IPv4-mapped IPv6 one.
fn strict_ipv4_like(text: &str) -> bool {
    strict_ipv4(text)
        || text.contains(':') && {
            let lower = text.to_ascii_lowercase();
            lower
                .strip_prefix("::ffff:")
                .is_some_and(|rest| strict_ipv4(rest) || rest.split(':').count() == 2)
        }
}

fn is_vchar(c: char) -> bool {
    ('!'..='~').contains(&c) || !c.is_ascii()
}

fn is_atext(c: char, dot: bool) -> bool {
    match c {
        '.' => dot,
        '(' | ')' | '<' | '>' | '[' | ']' | ':' | ';' | '@' | '\\' | ',' | '"' => false,
        _ => is_vchar(c),
    }
}
