//! sprig's `urlParse` and `urlJoin` (url.go) over Go's `net/url`: `url.Parse` splitting a URL
//! into scheme, opaque part, user, host, path, query and fragment (its escapes decoded, its
//! errors in Go's words), and `URL.String` writing one back with each part escaped as its
//! place needs. An ApplicationSet reaches for them to take a cluster's host from its server.

use super::coerce::{NIL_DEREFERENCE, type_kind};
use super::signature::{Func, Param, f};
use super::value::Value;
use crate::argocd::template::quote::quote;
use std::collections::BTreeMap;

/// Where a part of a URL is escaped (net/url's `encoding` modes fedrender needs).
#[derive(Clone, Copy, PartialEq)]
enum Part {
    Path,
    Host,
    Zone,
    UserPassword,
    Fragment,
}

/// net/url `shouldEscape`.
fn should_escape(c: u8, part: Part) -> bool {
    if c.is_ascii_alphanumeric() {
        return false;
    }
    if matches!(part, Part::Host | Part::Zone)
        && matches!(
            c,
            b'!' | b'$'
                | b'&'
                | b'\''
                | b'('
                | b')'
                | b'*'
                | b'+'
                | b','
                | b';'
                | b'='
                | b':'
                | b'['
                | b']'
                | b'<'
                | b'>'
                | b'"'
        )
    {
        return false;
    }
    match c {
        b'-' | b'_' | b'.' | b'~' => return false,
        b'$' | b'&' | b'+' | b',' | b'/' | b':' | b';' | b'=' | b'?' | b'@' => {
            return match part {
                Part::UserPassword => matches!(c, b'@' | b'/' | b'?' | b':'),
                Part::Path => c == b'?',
                Part::Fragment => false,
                Part::Host | Part::Zone => true,
            };
        }
        _ => {}
    }
    !(part == Part::Fragment && matches!(c, b'!' | b'(' | b')' | b'*'))
}

/// net/url `escape`: each byte its place does not allow as `%XX`.
fn escape(text: &str, part: Part) -> String {
    let mut out = String::with_capacity(text.len());
    for &byte in text.as_bytes() {
        if should_escape(byte, part) {
            out.push_str(&format!("%{byte:02X}"));
        } else {
            out.push(byte as char);
        }
    }
    out
}

/// net/url `unescape`: `%XX` decoded, with its refusals: a malformed escape, and in a host an
/// escaped ASCII byte (but `%25`) or a byte a host may not hold.
fn unescape(text: &str, part: Part) -> Result<String, String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = |at: usize| bytes.get(at).and_then(|b| (*b as char).to_digit(16));
                let (Some(high), Some(low)) = (hex(i + 1), hex(i + 2)) else {
                    let end = (i + 3).min(bytes.len());
                    return Err(format!(
                        "invalid URL escape {}",
                        quote(&String::from_utf8_lossy(&bytes[i..end]))
                    ));
                };
                let escaped = &text[i..i + 3];
                let value = (high << 4 | low) as u8;
                let refused = match part {
                    Part::Host => high < 8 && escaped != "%25",
                    Part::Zone => {
                        escaped != "%25" && value != b' ' && should_escape(value, Part::Host)
                    }
                    _ => false,
                };
                if refused {
                    return Err(format!("invalid URL escape {}", quote(escaped)));
                }
                out.push(value);
                i += 3;
            }
            byte => {
                if matches!(part, Part::Host | Part::Zone)
                    && byte < 0x80
                    && should_escape(byte, part)
                {
                    return Err(format!(
                        "invalid character {} in host name",
                        quote(&(byte as char).to_string())
                    ));
                }
                out.push(byte);
                i += 1;
            }
        }
    }
    // A decoded byte that is not UTF-8 stays a byte in Go; a template value here is text.
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// The parts of a URL sprig's functions read and write.
#[derive(Default)]
struct Url {
    scheme: String,
    opaque: String,
    user: Option<(String, Option<String>)>,
    host: String,
    path: String,
    raw_query: String,
    fragment: String,
}

/// net/url `getScheme`: letters, then letters, digits, `+`, `-`, `.`, up to a colon.
fn split_scheme(raw: &str) -> Result<(&str, &str), String> {
    for (i, c) in raw.bytes().enumerate() {
        match c {
            b'a'..=b'z' | b'A'..=b'Z' => {}
            b'0'..=b'9' | b'+' | b'-' | b'.' if i > 0 => {}
            b':' if i == 0 => return Err("missing protocol scheme".into()),
            b':' => return Ok((&raw[..i], &raw[i + 1..])),
            _ => return Ok(("", raw)),
        }
    }
    Ok(("", raw))
}

/// `url.Parse`, its error as `url.Error` writes it (`parse "URL": …`).
fn parse(raw: &str) -> Result<Url, String> {
    let (before_fragment, fragment) = raw.split_once('#').unwrap_or((raw, ""));
    let mut url = parse_reference(before_fragment)
        .map_err(|e| format!("parse {}: {e}", quote(before_fragment)))?;
    url.fragment =
        unescape(fragment, Part::Fragment).map_err(|e| format!("parse {}: {e}", quote(raw)))?;
    Ok(url)
}

/// net/url `parse` with `viaRequest` false: everything before the fragment.
fn parse_reference(raw: &str) -> Result<Url, String> {
    if raw.bytes().any(|b| b < b' ' || b == 0x7f) {
        return Err("net/url: invalid control character in URL".into());
    }
    let mut url = Url::default();
    if raw == "*" {
        url.path = "*".into();
        return Ok(url);
    }
    let (scheme, rest) = split_scheme(raw)?;
    url.scheme = scheme.to_ascii_lowercase();
    let mut rest = rest;
    if rest.ends_with('?') && rest.matches('?').count() == 1 {
        rest = &rest[..rest.len() - 1];
    } else if let Some((before, query)) = rest.split_once('?') {
        rest = before;
        url.raw_query = query.into();
    }
    if !rest.starts_with('/') {
        if !url.scheme.is_empty() {
            url.opaque = rest.into();
            return Ok(url);
        }
        let first_segment = rest.split('/').next().unwrap_or_default();
        if first_segment.contains(':') {
            return Err("first path segment in URL cannot contain colon".into());
        }
    }
    if (!url.scheme.is_empty() || !rest.starts_with("///")) && rest.starts_with("//") {
        let authority = &rest[2..];
        let (authority, path) = match authority.find('/') {
            Some(i) => (&authority[..i], &authority[i..]),
            None => (authority, ""),
        };
        parse_authority(&mut url, authority)?;
        rest = path;
    }
    url.path = unescape(rest, Part::Path)?;
    Ok(url)
}

/// net/url `parseAuthority`: the user before the last `@`, the host after it.
fn parse_authority(url: &mut Url, authority: &str) -> Result<(), String> {
    let (userinfo, host) = match authority.rfind('@') {
        Some(i) => (Some(&authority[..i]), &authority[i + 1..]),
        None => (None, authority),
    };
    url.host = parse_host(host)?;
    let Some(userinfo) = userinfo else {
        return Ok(());
    };
    let valid = userinfo
        .bytes()
        .all(|c| c.is_ascii_alphanumeric() || b"-._:~!$&'()*+,;=%@".contains(&c));
    if !valid {
        return Err("net/url: invalid userinfo".into());
    }
    url.user = Some(match userinfo.split_once(':') {
        None => (unescape(userinfo, Part::UserPassword)?, None),
        Some((name, password)) => (
            unescape(name, Part::UserPassword)?,
            Some(unescape(password, Part::UserPassword)?),
        ),
    });
    Ok(())
}

/// net/url `validOptionalPort`: nothing, or a colon and digits.
fn valid_optional_port(port: &str) -> bool {
    port.is_empty()
        || port
            .strip_prefix(':')
            .is_some_and(|digits| digits.bytes().all(|b| b.is_ascii_digit()))
}

/// net/url `parseHost`: a bracketed IPv6 literal (with its `%25` zone) or a name, either with
/// an optional port.
fn parse_host(host: &str) -> Result<String, String> {
    let bad_port = |port: &str| format!("invalid port {} after host", quote(port));
    if host.starts_with('[') {
        let Some(close) = host.rfind(']') else {
            return Err("missing ']' in host".into());
        };
        let port = &host[close + 1..];
        if !valid_optional_port(port) {
            return Err(bad_port(port));
        }
        if let Some(zone) = host[..close].find("%25") {
            return Ok(format!(
                "{}{}{}",
                unescape(&host[..zone], Part::Host)?,
                unescape(&host[zone..close], Part::Zone)?,
                unescape(&host[close..], Part::Host)?
            ));
        }
    } else if let Some(colon) = host.rfind(':') {
        let port = &host[colon..];
        if !valid_optional_port(port) {
            return Err(bad_port(port));
        }
    }
    unescape(host, Part::Host)
}

/// `URL.Hostname`: the host without its port or IPv6 brackets.
fn hostname(host: &str) -> &str {
    let name = match host.rfind(':') {
        Some(colon) if valid_optional_port(&host[colon..]) => &host[..colon],
        _ => host,
    };
    match name.strip_prefix('[') {
        Some(inner) => inner.strip_suffix(']').unwrap_or(inner),
        None => name,
    }
}

fn user_string(user: &(String, Option<String>)) -> String {
    let mut out = escape(&user.0, Part::UserPassword);
    if let Some(password) = &user.1 {
        out.push(':');
        out.push_str(&escape(password, Part::UserPassword));
    }
    out
}

/// `URL.String`.
fn write(url: &Url) -> String {
    let mut out = String::new();
    if !url.scheme.is_empty() {
        out.push_str(&url.scheme);
        out.push(':');
    }
    if !url.opaque.is_empty() {
        out.push_str(&url.opaque);
    } else {
        if !url.scheme.is_empty() || !url.host.is_empty() || url.user.is_some() {
            if !url.host.is_empty() || !url.path.is_empty() || url.user.is_some() {
                out.push_str("//");
            }
            if let Some(user) = &url.user {
                out.push_str(&user_string(user));
                out.push('@');
            }
            out.push_str(&escape(&url.host, Part::Host));
        }
        let path = if url.path == "*" {
            "*".to_string()
        } else {
            escape(&url.path, Part::Path)
        };
        if !path.is_empty() && !path.starts_with('/') && !url.host.is_empty() {
            out.push('/');
        }
        if out.is_empty() && path.split('/').next().unwrap_or_default().contains(':') {
            // A first segment with a colon would read back as a scheme.
            out.push_str("./");
        }
        out.push_str(&path);
    }
    if !url.raw_query.is_empty() {
        out.push('?');
        out.push_str(&url.raw_query);
    }
    if !url.fragment.is_empty() {
        out.push('#');
        out.push_str(&escape(&url.fragment, Part::Fragment));
    }
    out
}

/// sprig `urlParse`: the parts as a dict of strings.
fn url_parse(raw: &str) -> Result<Value, String> {
    let url = parse(raw).map_err(|e| format!("unable to parse url: {e}"))?;
    let text = |s: &str| Value::String(s.to_string());
    let entries: BTreeMap<String, Value> = [
        ("scheme", text(&url.scheme)),
        ("host", text(&url.host)),
        ("hostname", text(hostname(&url.host))),
        ("path", text(&url.path)),
        ("query", text(&url.raw_query)),
        ("opaque", text(&url.opaque)),
        ("fragment", text(&url.fragment)),
        (
            "userinfo",
            Value::String(url.user.as_ref().map(user_string).unwrap_or_default()),
        ),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    Ok(Value::map(entries))
}

/// sprig `urlJoin`: a dict's string parts written as a URL; a part of another type is an
/// error naming it, and the userinfo is read as `url.Parse` reads one.
fn url_join(dict: &Value) -> Result<Value, String> {
    let Value::Map(map, _) = dict else {
        return Ok(Value::String(String::new()));
    };
    let map = map.borrow();
    let part = |key: &str| -> Result<String, String> {
        match map.get(key) {
            None => Ok(String::new()),
            Some(Value::String(s)) => Ok(s.clone()),
            Some(value) if value.is_nil() => Err(NIL_DEREFERENCE.to_string()),
            Some(value) => Err(format!(
                "unable to parse {key} key, must be of type string, but {} found",
                type_kind(value)
            )),
        }
    };
    let mut url = Url {
        scheme: part("scheme")?,
        host: part("host")?,
        path: part("path")?,
        raw_query: part("query")?,
        opaque: part("opaque")?,
        fragment: part("fragment")?,
        user: None,
    };
    let userinfo = part("userinfo")?;
    if !userinfo.is_empty() {
        let parsed = parse(&format!("proto://{userinfo}@host"))
            .map_err(|e| format!("unable to parse userinfo in dict: {e}"))?;
        url.user = parsed.user;
    }
    Ok(Value::String(write(&url)))
}

pub(crate) fn lookup(name: &str) -> Option<Func> {
    Some(match name {
        "urlParse" => f(&[Param::Str], None, |a, _| match &a[0] {
            Value::String(raw) => url_parse(raw),
            _ => url_parse(""),
        }),
        "urlJoin" => f(&[Param::Map], None, |a, _| url_join(&a[0])),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::argocd::template::go::value::sprint_value;

    fn parsed(raw: &str) -> String {
        match url_parse(raw) {
            Ok(value) => sprint_value(&value),
            Err(error) => format!("ERR {error}"),
        }
    }

    // What the reference answered (answers.jsonl), after Go's url_test.go `urltests` rows.
    #[test]
    fn parses_as_net_url_does() {
        assert_eq!(
            parsed("https://user:pa%20ss@Example.com:8443/a%2Fb/c d?x=1&y=2#frag%20x"),
            "map[fragment:frag x host:Example.com:8443 hostname:Example.com opaque: path:/a/b/c d query:x=1&y=2 scheme:https userinfo:user:pa%20ss]"
        );
        assert_eq!(
            parsed("https://[::1]:6443/a?b=c&d"),
            "map[fragment: host:[::1]:6443 hostname:::1 opaque: path:/a query:b=c&d scheme:https userinfo:]"
        );
        assert_eq!(
            parsed("mailto:joe@x.com"),
            "map[fragment: host: hostname: opaque:joe@x.com path: query: scheme:mailto userinfo:]"
        );
        assert_eq!(
            parsed("http://u@h@g/"),
            "map[fragment: host:g hostname:g opaque: path:/ query: scheme:http userinfo:u%40h]"
        );
        assert_eq!(
            parsed("///p"),
            "map[fragment: host: hostname: opaque: path:///p query: scheme: userinfo:]"
        );
        let refused = [
            (":x", "parse \":x\": missing protocol scheme"),
            (
                "1a:b",
                "parse \"1a:b\": first path segment in URL cannot contain colon",
            ),
            (
                "http://x:y",
                "parse \"http://x:y\": invalid port \":y\" after host",
            ),
            ("http://[::1", "parse \"http://[::1\": missing ']' in host"),
            (
                "http://a b",
                "parse \"http://a b\": invalid character \" \" in host name",
            ),
            ("%zz", "parse \"%zz\": invalid URL escape \"%zz\""),
            (
                "http://a\u{1}",
                "parse \"http://a\\x01\": net/url: invalid control character in URL",
            ),
        ];
        for (raw, message) in refused {
            assert_eq!(parsed(raw), format!("ERR unable to parse url: {message}"));
        }
    }

    #[test]
    fn joins_as_url_string_does() {
        let join = |entries: &[(&str, &str)]| {
            let dict = Value::map(
                entries
                    .iter()
                    .map(|(k, v)| (k.to_string(), Value::String(v.to_string())))
                    .collect(),
            );
            match url_join(&dict) {
                Ok(value) => sprint_value(&value),
                Err(error) => format!("ERR {error}"),
            }
        };
        assert_eq!(join(&[("path", "a:b")]), "./a:b");
        assert_eq!(
            join(&[("scheme", "mailto"), ("opaque", "x@y")]),
            "mailto:x@y"
        );
        assert_eq!(join(&[("host", "h"), ("path", "p")]), "//h/p");
        assert_eq!(join(&[("userinfo", "a@b")]), "//a%40b@");
        assert_eq!(join(&[("host", "é[]")]), "//%C3%A9[]");
        assert_eq!(join(&[]), "");
        assert_eq!(
            join(&[("userinfo", "u:p w")]),
            "ERR unable to parse userinfo in dict: parse \"proto://u:p w@host\": net/url: invalid userinfo"
        );
    }
}
