//! Argo CD's globs (util/glob `Match`, gobwas/glob compiled without separators): `*` matches
//! any run of characters, `/` included, `?` any one character, `[a-z]` and `[!a-z]` a class,
//! `{a,b}` either alternative (alternatives may nest and hold wildcards), `\` escapes the next
//! character. A pattern matches the whole text.
//!
//! Matching runs in time linear in the text for each alternative (no backtracking), and a
//! pattern may spell out at most [`MAX_ALTERNATIVES`] alternatives, so that a repository's
//! pattern cannot make a run slow.

/// The most alternatives a pattern's braces may spell out (`{a,b}{c,d}` spells four).
pub const MAX_ALTERNATIVES: usize = 256;

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Literal(char),
    AnyOne,
    AnyRun,
    Class {
        negated: bool,
        ranges: Vec<(char, char)>,
    },
}

/// A compiled glob.
#[derive(Debug, Clone, PartialEq)]
pub struct Glob {
    alternatives: Vec<Vec<Token>>,
}

impl Glob {
    /// Compiles `pattern`; an unclosed class or brace, or too many alternatives, is an error
    /// in words.
    pub fn new(pattern: &str) -> Result<Glob, String> {
        let chars: Vec<char> = pattern.chars().collect();
        let mut at = 0;
        let alternatives = sequence(&chars, &mut at, false)?;
        if at != chars.len() {
            return Err(format!("unexpected {:?} in glob {pattern:?}", chars[at]));
        }
        Ok(Glob { alternatives })
    }

    /// Whether the glob matches all of `text`.
    pub fn matches(&self, text: &str) -> bool {
        let text: Vec<char> = text.chars().collect();
        self.alternatives
            .iter()
            .any(|tokens| matches_tokens(tokens, &text))
    }
}

/// util/glob `Match`: a pattern that does not compile matches nothing, as Argo CD logs it and
/// answers false.
pub fn matches(pattern: &str, text: &str) -> bool {
    Glob::new(pattern).is_ok_and(|glob| glob.matches(text))
}

/// The alternatives of a run of pattern up to its end, or (inside braces) to the `,` or `}`
/// that ends it.
fn sequence(chars: &[char], at: &mut usize, in_braces: bool) -> Result<Vec<Vec<Token>>, String> {
    let mut alternatives: Vec<Vec<Token>> = vec![Vec::new()];
    while *at < chars.len() {
        let c = chars[*at];
        if in_braces && (c == ',' || c == '}') {
            break;
        }
        *at += 1;
        let single = match c {
            '*' => {
                while chars.get(*at) == Some(&'*') {
                    *at += 1;
                }
                Token::AnyRun
            }
            '?' => Token::AnyOne,
            '\\' => {
                let escaped = *chars.get(*at).ok_or("a glob ends in a lone \\")?;
                *at += 1;
                Token::Literal(escaped)
            }
            '[' => class(chars, at)?,
            '{' => {
                let mut choices = Vec::new();
                loop {
                    choices.extend(sequence(chars, at, true)?);
                    match chars.get(*at) {
                        Some(',') => *at += 1,
                        Some('}') => {
                            *at += 1;
                            break;
                        }
                        _ => return Err("a glob's { is never closed".to_string()),
                    }
                }
                let mut product = Vec::new();
                for prefix in &alternatives {
                    for choice in &choices {
                        let mut joined = prefix.clone();
                        joined.extend(choice.iter().cloned());
                        product.push(joined);
                    }
                }
                if product.len() > MAX_ALTERNATIVES {
                    return Err(format!(
                        "a glob's braces spell out more than {MAX_ALTERNATIVES} alternatives"
                    ));
                }
                alternatives = product;
                continue;
            }
            other => Token::Literal(other),
        };
        for alternative in &mut alternatives {
            alternative.push(single.clone());
        }
    }
    Ok(alternatives)
}

fn class(chars: &[char], at: &mut usize) -> Result<Token, String> {
    let negated = chars.get(*at) == Some(&'!');
    if negated {
        *at += 1;
    }
    let mut ranges = Vec::new();
    loop {
        let c = *chars.get(*at).ok_or("a glob's [ is never closed")?;
        *at += 1;
        if c == ']' {
            break;
        }
        if chars.get(*at) == Some(&'-') && chars.get(*at + 1).is_some_and(|&end| end != ']') {
            let end = chars[*at + 1];
            *at += 2;
            ranges.push((c, end));
        } else {
            ranges.push((c, c));
        }
    }
    Ok(Token::Class { negated, ranges })
}

/// One alternative against the text: the set of pattern positions reachable after each
/// character, so every text is read once.
fn matches_tokens(tokens: &[Token], text: &[char]) -> bool {
    let mut states = vec![false; tokens.len() + 1];
    states[0] = true;
    close_over_runs(tokens, &mut states);
    for &c in text {
        let mut next = vec![false; tokens.len() + 1];
        for (position, token) in tokens.iter().enumerate() {
            if !states[position] {
                continue;
            }
            match token {
                Token::AnyRun => next[position] = true,
                Token::AnyOne => next[position + 1] = true,
                Token::Literal(literal) => next[position + 1] |= *literal == c,
                Token::Class { negated, ranges } => {
                    let within = ranges.iter().any(|&(low, high)| (low..=high).contains(&c));
                    next[position + 1] |= within != *negated;
                }
            }
        }
        close_over_runs(tokens, &mut next);
        if !next.contains(&true) {
            return false;
        }
        states = next;
    }
    states[tokens.len()]
}

/// A `*` may match nothing: reaching it reaches what follows it.
fn close_over_runs(tokens: &[Token], states: &mut [bool]) {
    for position in 0..tokens.len() {
        if states[position] && tokens[position] == Token::AnyRun {
            states[position + 1] = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // argo-cd util/glob glob_test.go Test_Match: `*` crosses `/`, classes and alternatives.
    #[test]
    fn globs_match_as_argo_cd_matches_them() {
        assert!(matches("*", "apps/web/deploy.yaml"));
        assert!(matches("*.yaml", "apps/web/deploy.yaml"));
        assert!(!matches("*.yaml", "apps/web/deploy.json"));
        assert!(matches("{*.yaml,*.json}", "x/y.json"));
        assert!(matches("deploy-?.yaml", "deploy-1.yaml"));
        assert!(!matches("deploy-?.yaml", "deploy-12.yaml"));
        assert!(matches("[a-c]*", "b.yaml"));
        assert!(!matches("[!a-c]*", "b.yaml"));
        assert!(matches(
            "https://kubernetes.default.svc",
            "https://kubernetes.default.svc"
        ));
        assert!(matches("a\\*b", "a*b"));
        assert!(!matches("a\\*b", "axb"));
        assert!(matches("", ""));
        assert!(!matches("", "x"));
    }

    #[test]
    fn a_pattern_that_does_not_compile_matches_nothing_and_braces_are_bounded() {
        assert!(!matches("[abc", "a"));
        assert!(Glob::new("{a,b").unwrap_err().contains("never closed"));
        let many = "{a,b}".repeat(9);
        assert!(Glob::new(&many).unwrap_err().contains("more than 256"));
        // Many stars against a long text that misses: read once, not backtracked.
        let stars = "*a".repeat(200) + "b";
        assert!(!matches(&stars, &"a".repeat(10_000)));
    }
}
