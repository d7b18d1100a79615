//! Go's regular expressions (RE2), as the API server matches `pattern` and CEL's `matches`.

/// Compiles `pattern` as Go's regexp package (RE2) reads it, which is what the API server
/// matches `pattern` and CEL's `matches` with. Rust's regex crate has RE2's syntax and
/// guarantees (no backreferences or lookaround, linear time); it differs in that its `\d`,
/// `\w`, `\s` and `\b` are Unicode-aware where Go's are ASCII, and it has no `\Q…\E`:
/// those are rewritten to Go's meaning here. Both refuse `\Z`.
pub fn go_regexp(pattern: &str) -> Result<regex::Regex, String> {
    let mut rewritten = String::with_capacity(pattern.len());
    let mut chars = pattern.chars();
    let mut in_class = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let Some(next) = chars.next() else {
                    rewritten.push('\\');
                    break;
                };
                if next == 'Q' {
                    // Go's `\Q…\E` quotes its text literally; the crate has no such escape.
                    let rest = chars.as_str();
                    let (literal, after) = rest.split_once("\\E").unwrap_or((rest, ""));
                    rewritten.push_str(&regex::escape(literal));
                    chars = after.chars();
                    continue;
                }
                let ascii = match (next, in_class) {
                    ('d', false) => Some("[0-9]"),
                    ('D', false) => Some("[^0-9]"),
                    ('w', false) => Some("[0-9A-Za-z_]"),
                    ('W', false) => Some("[^0-9A-Za-z_]"),
                    ('s', false) => Some("[\\t\\n\\x0C\\r ]"),
                    ('S', false) => Some("[^\\t\\n\\x0C\\r ]"),
                    ('b', false) => Some("(?-u:\\b)"),
                    ('B', false) => Some("(?-u:\\B)"),
                    ('d', true) => Some("0-9"),
                    ('w', true) => Some("0-9A-Za-z_"),
                    ('s', true) => Some("\\t\\n\\x0C\\r "),
                    _ => None,
                };
                match ascii {
                    Some(text) => rewritten.push_str(text),
                    None => {
                        rewritten.push('\\');
                        rewritten.push(next);
                    }
                }
            }
            '[' if !in_class => {
                in_class = true;
                rewritten.push('[');
                // A `]` or `^]` first in a class is a literal.
                let rest = chars.as_str();
                let literal = if rest.starts_with("^]") {
                    2
                } else if rest.starts_with(']') || rest.starts_with('^') {
                    1
                } else {
                    0
                };
                for _ in 0..literal {
                    if let Some(c) = chars.next() {
                        rewritten.push(c);
                    }
                }
            }
            ']' if in_class => {
                in_class = false;
                rewritten.push(']');
            }
            _ => rewritten.push(c),
        }
    }
    regex::RegexBuilder::new(&rewritten)
        // RE2's own limit on a compiled program is about as large.
        .size_limit(1 << 20)
        .build()
        .map_err(|error| match error {
            regex::Error::CompiledTooBig(_) => "it is too large".to_string(),
            error => error
                .to_string()
                .lines()
                .last()
                .unwrap_or_default()
                .trim_start_matches("error: ")
                .to_string(),
        })
}
