//! Go's `strconv.Unquote` for the literals an action holds: `"…"` with Go's escapes, `` `…` ``
//! raw (carriage returns dropped), and `'…'` character constants.

/// The value of a quoted literal, or Go's `invalid syntax`.
pub(super) fn unquote(literal: &str) -> Result<String, String> {
    let invalid = || "invalid syntax".to_string();
    let mut chars = literal.chars();
    let quote = chars.next().ok_or_else(invalid)?;
    if literal.len() < 2 || !literal.ends_with(quote) {
        return Err(invalid());
    }
    let body = &literal[1..literal.len() - 1];
    match quote {
        '`' => {
            if body.contains('`') {
                return Err(invalid());
            }
            Ok(body.replace('\r', ""))
        }
        '"' | '\'' => {
            let mut out = String::new();
            let mut rest = body;
            while !rest.is_empty() {
                let (rune, after) = unquote_char(rest, quote).ok_or_else(invalid)?;
                out.push(rune);
                rest = after;
            }
            if quote == '\'' && out.chars().count() != 1 {
                return Err(invalid());
            }
            Ok(out)
        }
        _ => Err(invalid()),
    }
}

/// strconv `UnquoteChar`: the first character of `text`, escapes decoded, and what follows.
fn unquote_char(text: &str, quote: char) -> Option<(char, &str)> {
    let first = text.chars().next()?;
    if first == quote && (quote == '\'' || quote == '"') {
        return None;
    }
    if first != '\\' {
        if first == '\n' {
            return None;
        }
        return Some((first, &text[first.len_utf8()..]));
    }
    let rest = &text[1..];
    let escape = rest.chars().next()?;
    let after = &rest[1..];
    let simple = match escape {
        'a' => Some('\u{07}'),
        'b' => Some('\u{08}'),
        'f' => Some('\u{0c}'),
        'n' => Some('\n'),
        'r' => Some('\r'),
        't' => Some('\t'),
        'v' => Some('\u{0b}'),
        '\\' => Some('\\'),
        '\'' | '"' if escape == quote => Some(escape),
        _ => None,
    };
    if let Some(rune) = simple {
        return Some((rune, after));
    }
    let hex = |digits: usize| -> Option<(char, &str)> {
        let code = u32::from_str_radix(after.get(..digits)?, 16).ok()?;
        Some((char::from_u32(code)?, &after[digits..]))
    };
    match escape {
        'x' => hex(2),
        'u' => hex(4),
        'U' => hex(8),
        '0'..='7' => {
            let digits = rest.get(..3)?;
            let code = u32::from_str_radix(digits, 8).ok()?;
            if code > 255 {
                return None;
            }
            Some((char::from_u32(code)?, &rest[3..]))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Go strconv quote_test.go unquotetests and misquoted.
    #[test]
    fn unquotes_go_literals() {
        assert_eq!(unquote(r#""a\tb\u263a\x41""#).unwrap(), "a\tb\u{263a}A");
        assert_eq!(unquote("`a\\n\rb`").unwrap(), "a\\nb");
        assert_eq!(unquote("'x'").unwrap(), "x");
        assert_eq!(unquote(r"'\n'").unwrap(), "\n");
        assert!(unquote(r#""\'""#).is_err());
        assert!(unquote("'ab'").is_err());
        assert!(unquote(r#""\q""#).is_err());
    }
}
