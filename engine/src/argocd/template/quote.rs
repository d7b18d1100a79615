//! Go's `strconv.Quote` (and so `%q` of a string): a double-quoted Go string literal, with
//! printable runes kept as they are and the rest escaped (strconv/quote.go `appendQuotedWith`).

/// `strconv.Quote(text)`.
pub fn quote(text: &str) -> String {
    quote_with(text, '"', false)
}

/// `strconv.QuoteToASCII(text)`, `%+q`: every rune past ASCII escaped too.
pub fn quote_ascii(text: &str) -> String {
    quote_with(text, '"', true)
}

/// `strconv.QuoteRune`, `%q` of an integer.
pub fn quote_rune(rune: char) -> String {
    let mut out = String::from("'");
    push_escaped(&mut out, rune, '\'', false);
    out.push('\'');
    out
}

fn quote_with(text: &str, quote: char, ascii: bool) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push(quote);
    for rune in text.chars() {
        push_escaped(&mut out, rune, quote, ascii);
    }
    out.push(quote);
    out
}

fn push_escaped(out: &mut String, rune: char, quote: char, ascii: bool) {
    if rune == quote || rune == '\\' {
        out.push('\\');
        out.push(rune);
        return;
    }
    let printable = if ascii {
        (' '..='~').contains(&rune)
    } else {
        is_print(rune)
    };
    if printable {
        out.push(rune);
        return;
    }
    match rune {
        '\u{07}' => out.push_str("\\a"),
        '\u{08}' => out.push_str("\\b"),
        '\u{0c}' => out.push_str("\\f"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        '\u{0b}' => out.push_str("\\v"),
        _ if (rune as u32) < 0x20 || rune == '\u{7f}' => {
            out.push_str(&format!("\\x{:02x}", rune as u32));
        }
        _ if (rune as u32) < 0x10000 => out.push_str(&format!("\\u{:04x}", rune as u32)),
        _ => out.push_str(&format!("\\U{:08x}", rune as u32)),
    }
}

/// `strconv.IsPrint`, approximated by what Rust knows of Unicode: letters, marks, numbers,
/// punctuation, symbols and the ASCII space are printable; controls, formats, other spaces,
/// private use and unassigned runes are not.
pub(crate) fn is_print(rune: char) -> bool {
    if rune == ' ' {
        return true;
    }
    if rune.is_control() || rune.is_whitespace() {
        return false;
    }
    let code = rune as u32;
    // Formats (Cf) Go escapes: soft hyphen, zero-width and directional marks, BOM.
    let format = matches!(code, 0xad | 0x600..=0x605 | 0x61c | 0x6dd | 0x70f | 0x180e
        | 0x200b..=0x200f | 0x202a..=0x202e | 0x2060..=0x2064 | 0x2066..=0x206f | 0xfeff
        | 0xfff9..=0xfffb);
    let private = matches!(code, 0xe000..=0xf8ff | 0xf0000..=0xffffd | 0x100000..=0x10fffd);
    !(format || private || code == 0xfffe || code == 0xffff)
}

#[cfg(test)]
mod tests {
    use super::*;

    // Go strconv quote_test.go quotetests.
    #[test]
    fn quotes_as_go_does() {
        assert_eq!(quote("\x07\x08\x0c\r\n\t\x0b"), r#""\a\b\f\r\n\t\v""#);
        assert_eq!(quote("\\"), r#""\\""#);
        assert_eq!(quote("abc\u{ff}def"), "\"abc\u{ff}def\"");
        assert_eq!(quote("\u{263a}"), "\"\u{263a}\"");
        assert_eq!(quote("\x04"), r#""\x04""#);
        assert_eq!(quote("\u{feff}"), r#""\ufeff""#);
        assert_eq!(quote_ascii("\u{263a}"), r#""\u263a""#);
        assert_eq!(quote_rune('a'), "'a'");
        assert_eq!(quote_rune('\''), r"'\''");
    }
}
