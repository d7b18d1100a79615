//! The globs AppProjects are written in: gobwas/glob as Argo CD's util/glob compiles it (for
//! `sourceRepos` and `destinations`), and Go's `path/filepath.Match` (for the resource white-
//! and blacklists).
//!
//! gobwas: `*` is any run of characters but the separators, `**` any run at all, `?` one
//! character but a separator, `[abc]`, `[a-z]` and `[!a-z]` one character of (or not of) a class,
//! `{a,b}` either pattern, `\` makes the next character plain. A pattern that does not compile
//! matches nothing (util/glob `Match` logs and returns false). `filepath.Match` has no `**`
//! or `{}`, negates a class with `^` (not `!`), refuses an empty class, and `/` is its
//! separator.

/// Whether `text` matches the gobwas `pattern`, with `separators` the characters `*` and `?`
/// do not cross.
pub fn matches(pattern: &str, text: &str, separators: &[char]) -> bool {
    let syntax = Syntax {
        separators,
        braces: true,
        super_star: true,
        caret_negates: false,
    };
    match parse(&mut pattern.chars().peekable(), &syntax, false) {
        Ok((tokens, None)) => {
            let text: Vec<char> = text.chars().collect();
            match_tokens(&tokens, &text, &syntax)
        }
        _ => false,
    }
}

/// Go's `filepath.Match(pattern, name)` on a Unix system, a malformed pattern matching nothing
/// (Argo CD treats its error as no match).
pub fn path_match(pattern: &str, name: &str) -> bool {
    let syntax = Syntax {
        separators: &['/'],
        braces: false,
        super_star: false,
        caret_negates: true,
    };
    match parse(&mut pattern.chars().peekable(), &syntax, false) {
        Ok((tokens, None)) => {
            let name: Vec<char> = name.chars().collect();
            match_tokens(&tokens, &name, &syntax)
        }
        _ => false,
    }
}

struct Syntax<'a> {
    separators: &'a [char],
    braces: bool,
    super_star: bool,
    caret_negates: bool,
}

#[derive(Debug, Clone)]
enum Token {
    Literal(char),
    Star,
    SuperStar,
    Single,
    Class {
        negated: bool,
        ranges: Vec<(char, char)>,
    },
    Alternatives(Vec<Vec<Token>>),
}

type Chars<'a> = std::iter::Peekable<std::str::Chars<'a>>;

/// The tokens up to the end, or (inside braces) up to a `,` or `}`, which is returned.
fn parse(
    chars: &mut Chars<'_>,
    syntax: &Syntax<'_>,
    in_braces: bool,
) -> Result<(Vec<Token>, Option<char>), ()> {
    let mut tokens = Vec::new();
    while let Some(c) = chars.next() {
        match c {
            '\\' => tokens.push(Token::Literal(chars.next().ok_or(())?)),
            '*' => {
                if syntax.super_star && chars.peek() == Some(&'*') {
                    while chars.peek() == Some(&'*') {
                        chars.next();
                    }
                    tokens.push(Token::SuperStar);
                } else {
                    tokens.push(Token::Star);
                }
            }
            '?' => tokens.push(Token::Single),
            '[' => tokens.push(parse_class(chars, syntax)?),
            '{' if syntax.braces => {
                let mut alternatives = Vec::new();
                loop {
                    let (alternative, end) = parse(chars, syntax, true)?;
                    alternatives.push(alternative);
                    match end {
                        Some(',') => continue,
                        Some('}') => break,
                        _ => return Err(()),
                    }
                }
                tokens.push(Token::Alternatives(alternatives));
            }
            ',' | '}' if in_braces => return Ok((tokens, Some(c))),
            other => tokens.push(Token::Literal(other)),
        }
    }
    if in_braces {
        return Err(());
    }
    Ok((tokens, None))
}

fn parse_class(chars: &mut Chars<'_>, syntax: &Syntax<'_>) -> Result<Token, ()> {
    // gobwas negates a class with `!`, filepath.Match with `^`.
    let negation = if syntax.caret_negates { '^' } else { '!' };
    let negated = chars.peek() == Some(&negation);
    if negated {
        chars.next();
    }
    let mut ranges = Vec::new();
    loop {
        let mut low = chars.next().ok_or(())?;
        if low == ']' && (!ranges.is_empty() || !syntax.caret_negates) {
            // gobwas closes `[]` at once, an empty class; filepath.Match refuses it.
            break;
        }
        if syntax.caret_negates && ranges.is_empty() && (low == ']' || low == '-') {
            return Err(());
        }
        if low == '\\' {
            low = chars.next().ok_or(())?;
        }
        let mut high = low;
        if chars.peek() == Some(&'-') {
            chars.next();
            high = chars.next().ok_or(())?;
            if high == '\\' {
                high = chars.next().ok_or(())?;
            }
            if high == ']' || high < low {
                return Err(());
            }
        }
        ranges.push((low, high));
    }
    Ok(Token::Class { negated, ranges })
}

fn match_tokens(tokens: &[Token], text: &[char], syntax: &Syntax<'_>) -> bool {
    let Some((token, rest)) = tokens.split_first() else {
        return text.is_empty();
    };
    let separator = |c: &char| syntax.separators.contains(c);
    match token {
        Token::Literal(c) => text.first() == Some(c) && match_tokens(rest, &text[1..], syntax),
        Token::Single => text
            .first()
            .is_some_and(|c| !separator(c) && match_tokens(rest, &text[1..], syntax)),
        Token::Class { negated, ranges } => text.first().is_some_and(|c| {
            let within = ranges.iter().any(|(low, high)| low <= c && c <= high);
            within != *negated && match_tokens(rest, &text[1..], syntax)
        }),
        Token::Star | Token::SuperStar => {
            let crosses = matches!(token, Token::SuperStar);
            for taken in 0..=text.len() {
                if match_tokens(rest, &text[taken..], syntax) {
                    return true;
                }
                if taken < text.len() && !crosses && separator(&text[taken]) {
                    return false;
                }
            }
            false
        }
        Token::Alternatives(alternatives) => alternatives.iter().any(|alternative| {
            let mut joined = alternative.clone();
            joined.extend_from_slice(rest);
            match_tokens(&joined, text, syntax)
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gobwas_stars_braces_and_classes() {
        assert!(matches(
            "https://github.com/argoproj/*",
            "https://github.com/argoproj/x",
            &['/']
        ));
        assert!(!matches(
            "https://gitlab.com/group/*",
            "https://gitlab.com/group/repo/owner",
            &['/']
        ));
        assert!(matches(
            "https://gitlab.com/group/**",
            "https://gitlab.com/group/a/b/c",
            &['/']
        ));
        assert!(matches("*", "a/b", &[]));
        assert!(matches("{kube-system,argocd}", "argocd", &[]));
        assert!(!matches("{kube-system,argocd}", "default", &[]));
        assert!(matches("team-[a-c]?", "team-b1", &[]));
        assert!(matches("team-[!a-c]", "team-d", &[]));
        assert!(!matches("team-[!a-c]", "team-a", &[]));
        assert!(matches(r"a\*", "a*", &[]));
        assert!(!matches(r"a\*", "ab", &[]));
        // A pattern that does not compile matches nothing.
        assert!(!matches("{a,b", "a", &[]));
        assert!(!matches("[a", "a", &[]));
        assert!(matches("", "", &[]));
    }

    #[test]
    fn filepath_match_as_go_matches() {
        assert!(path_match("*", "Deployment"));
        assert!(path_match("apps", "apps"));
        assert!(!path_match("apps", "batch"));
        assert!(path_match("[^a]*", "batch"));
        assert!(!path_match("[!a]*", "batch"));
        assert!(path_match("[!a]*", "!x"));
        assert!(!path_match("[]a]", "]"));
        assert!(path_match("Role*", "RoleBinding"));
        assert!(!path_match("*", "a/b"));
        assert!(!path_match("[", "["));
        assert!(path_match("", ""));
    }
}
