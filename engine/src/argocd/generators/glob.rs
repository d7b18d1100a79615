//! The three ways Argo CD matches paths: Go's `path.Match` (git directories), git's pathspec
//! (git files, the default: `git ls-files -- PATTERN`, where `*` also matches `/`), and
//! bmatcuk/doublestar (git files with the controller's `--enable-new-git-file-globbing`).

/// How one wildcard syntax treats `/` and classes.
#[derive(Debug, Clone, Copy)]
struct Syntax {
    /// `*` and `?` match `/` too (git's wildmatch without `WM_PATHNAME`).
    slash_is_plain: bool,
    /// `[!…]` negates as `[^…]` does (git, doublestar; Go's path.Match knows only `^`).
    bang_negates: bool,
}

const GO_PATH: Syntax = Syntax {
    slash_is_plain: false,
    bang_negates: false,
};
const GIT: Syntax = Syntax {
    slash_is_plain: true,
    bang_negates: true,
};
const DOUBLESTAR: Syntax = Syntax {
    slash_is_plain: false,
    bang_negates: true,
};

/// Go `path.Match(pattern, name)`: `*` is any run of characters but `/`, `?` one character
/// but `/`, `[…]` a class (`^` negates, `a-z` ranges), `\` escapes. A malformed pattern is an
/// error, whatever the name.
pub fn path_match(pattern: &str, name: &str) -> Result<bool, String> {
    validate(pattern, GO_PATH)?;
    let p: Vec<char> = pattern.chars().collect();
    let n: Vec<char> = name.chars().collect();
    Ok(wild(&p, &n, GO_PATH))
}

/// Whether `git ls-files -- pattern` lists `path` (repository-relative): the pattern names the
/// file itself, or a directory above it, or matches it as a wildcard where `*` and `?` match
/// `/` as well. `.` and an empty pattern name the whole repository.
pub fn pathspec_match(pattern: &str, path: &str) -> bool {
    let mut pattern = pattern;
    while let Some(rest) = pattern.strip_prefix("./") {
        pattern = rest;
    }
    if pattern == "." || pattern.is_empty() {
        return true;
    }
    if let Some(rest) = path.strip_prefix(pattern)
        && (rest.is_empty() || rest.starts_with('/') || pattern.ends_with('/'))
    {
        return true;
    }
    let p: Vec<char> = pattern.chars().collect();
    let n: Vec<char> = path.chars().collect();
    validate(pattern, GIT).is_ok() && wild(&p, &n, GIT)
}

/// Whether doublestar's `FilepathGlob` of `pattern` (relative to the repository root) yields
/// `path`: `{a,b}` alternatives, a `**` segment for any number of directories, and within a
/// segment `*`, `?` and classes. A malformed pattern is an error.
pub fn doublestar_match(pattern: &str, path: &str) -> Result<bool, String> {
    for alternative in expand_braces(pattern)? {
        validate(&alternative, DOUBLESTAR)?;
        let pattern: Vec<&str> = alternative.split('/').filter(|s| !s.is_empty()).collect();
        let path: Vec<&str> = path.split('/').collect();
        if segments(&pattern, &path) {
            return Ok(true);
        }
    }
    Ok(false)
}

fn segments(pattern: &[&str], path: &[&str]) -> bool {
    match pattern.split_first() {
        None => path.is_empty(),
        Some((&"**", rest)) => (0..=path.len()).any(|skip| segments(rest, &path[skip..])),
        Some((first, rest)) => match path.split_first() {
            Some((name, path_rest)) => {
                let p: Vec<char> = first.chars().collect();
                let n: Vec<char> = name.chars().collect();
                wild(&p, &n, DOUBLESTAR) && segments(rest, path_rest)
            }
            None => false,
        },
    }
}

/// `{a,b}` alternatives written out (nested braces too); `\` escapes a brace.
fn expand_braces(pattern: &str) -> Result<Vec<String>, String> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut depth = 0usize;
    let mut open = None;
    let mut commas = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 1,
            '{' => {
                if depth == 0 {
                    open = Some(i);
                    commas.clear();
                }
                depth += 1;
            }
            ',' if depth == 1 => commas.push(i),
            '}' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    let start = open.unwrap_or(0);
                    let head: String = chars[..start].iter().collect();
                    let tail: String = chars[i + 1..].iter().collect();
                    let mut bounds = vec![start];
                    bounds.extend(&commas);
                    bounds.push(i);
                    let mut out = Vec::new();
                    for pair in bounds.windows(2) {
                        let middle: String = chars[pair[0] + 1..pair[1]].iter().collect();
                        out.extend(expand_braces(&format!("{head}{middle}{tail}"))?);
                    }
                    return Ok(out);
                }
            }
            _ => {}
        }
        i += 1;
    }
    if depth > 0 {
        return Err(format!(
            "syntax error in pattern {pattern:?}: an unclosed {{"
        ));
    }
    Ok(vec![pattern.to_string()])
}

/// A malformed pattern: a class never closed or empty, a bad range, a trailing `\`.
fn validate(pattern: &str, syntax: Syntax) -> Result<(), String> {
    let chars: Vec<char> = pattern.chars().collect();
    let bad = || Err(format!("syntax error in pattern {pattern:?}"));
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\\' => {
                if i + 1 >= chars.len() {
                    return bad();
                }
                i += 2;
            }
            '[' => match class(&chars, i + 1, syntax) {
                Some((_, end)) => i = end,
                None => return bad(),
            },
            _ => i += 1,
        }
    }
    Ok(())
}

/// The class starting after `[` at `start`: its ranges (negated or not) and the index after
/// its `]`; `None` when malformed.
#[allow(clippy::type_complexity)]
fn class(
    chars: &[char],
    start: usize,
    syntax: Syntax,
) -> Option<((bool, Vec<(char, char)>), usize)> {
    let mut i = start;
    let negated = match chars.get(i) {
        Some('^') => true,
        Some('!') if syntax.bang_negates => true,
        _ => false,
    };
    if negated {
        i += 1;
    }
    let mut ranges = Vec::new();
    let one = |i: &mut usize| -> Option<char> {
        let c = *chars.get(*i)?;
        if c == '\\' {
            *i += 1;
            let escaped = *chars.get(*i)?;
            *i += 1;
            return Some(escaped);
        }
        *i += 1;
        Some(c)
    };
    loop {
        match chars.get(i) {
            None => return None,
            // A `]` first in the class is a member for git; Go and doublestar call `[]` empty.
            Some(']') if !ranges.is_empty() || !syntax.slash_is_plain => {
                if ranges.is_empty() {
                    return None;
                }
                return Some(((negated, ranges), i + 1));
            }
            _ => {
                let low = one(&mut i)?;
                let high =
                    if chars.get(i) == Some(&'-') && chars.get(i + 1).is_some_and(|c| *c != ']') {
                        i += 1;
                        one(&mut i)?
                    } else {
                        low
                    };
                if high < low && !syntax.slash_is_plain {
                    return None;
                }
                ranges.push((low, high));
            }
        }
    }
}

/// Whether `p` matches all of `n`.
fn wild(p: &[char], n: &[char], syntax: Syntax) -> bool {
    let Some((&first, rest)) = p.split_first() else {
        return n.is_empty();
    };
    match first {
        '*' => {
            let rest = {
                let mut r = rest;
                while r.first() == Some(&'*') {
                    r = &r[1..];
                }
                r
            };
            for skip in 0..=n.len() {
                if wild(rest, &n[skip..], syntax) {
                    return true;
                }
                if !syntax.slash_is_plain && n.get(skip) == Some(&'/') {
                    return false;
                }
            }
            false
        }
        '?' => n
            .split_first()
            .is_some_and(|(c, n)| (syntax.slash_is_plain || *c != '/') && wild(rest, n, syntax)),
        '[' => {
            let Some(((negated, ranges), end)) = class(p, 1, syntax) else {
                return false;
            };
            n.split_first().is_some_and(|(c, n)| {
                let inside = ranges.iter().any(|(lo, hi)| lo <= c && c <= hi);
                inside != negated
                    && (syntax.slash_is_plain || *c != '/')
                    && wild(&p[end..], n, syntax)
            })
        }
        '\\' => match rest.split_first() {
            Some((escaped, rest)) => n
                .split_first()
                .is_some_and(|(c, n)| c == escaped && wild(rest, n, syntax)),
            None => false,
        },
        literal => n
            .split_first()
            .is_some_and(|(c, n)| *c == literal && wild(rest, n, syntax)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_path_match_stops_stars_at_slashes() {
        assert!(
            path_match(
                "applicationset/examples/git-generator-directory/cluster-addons/*",
                "applicationset/examples/git-generator-directory/cluster-addons/argo-workflows"
            )
            .unwrap()
        );
        assert!(!path_match("apps/*", "apps/a/b").unwrap());
        assert!(path_match("apps/[ab]?", "apps/bx").unwrap());
        assert!(path_match("apps/[^a]*", "apps/b").unwrap());
        assert!(!path_match("apps/[^a]*", "apps/a").unwrap());
        assert!(path_match("a[", "x").is_err());
        assert!(path_match("a\\", "a").is_err());
        assert!(path_match("[]a]", "]").is_err());
    }

    #[test]
    fn git_pathspecs_let_stars_cross_slashes_and_name_directories() {
        assert!(pathspec_match(
            "cluster-config/**/config.json",
            "cluster-config/engineering/dev/config.json"
        ));
        assert!(pathspec_match(
            "cluster-config/*/config.json",
            "cluster-config/a/b/config.json"
        ));
        assert!(pathspec_match("*.json", "a/b/c.json"));
        assert!(pathspec_match("apps", "apps/x/config.json"));
        assert!(!pathspec_match("apps", "apps2/config.json"));
        assert!(pathspec_match(".", "anything/at/all"));
        assert!(pathspec_match("./apps/x.yaml", "apps/x.yaml"));
        assert!(!pathspec_match(
            "cluster-config/*/config.json",
            "cluster-config/a/other.json"
        ));
    }

    #[test]
    fn doublestar_globs_segments() {
        let m = |p: &str, n: &str| doublestar_match(p, n).unwrap();
        assert!(m(
            "cluster-config/**/config.json",
            "cluster-config/config.json"
        ));
        assert!(m(
            "cluster-config/**/config.json",
            "cluster-config/a/b/config.json"
        ));
        assert!(!m(
            "cluster-config/*/config.json",
            "cluster-config/a/b/config.json"
        ));
        assert!(m(
            "cluster-config/*/config.json",
            "cluster-config/a/config.json"
        ));
        assert!(m("apps/{web,db}/*.yaml", "apps/db/x.yaml"));
        assert!(!m("apps/{web,db}/*.yaml", "apps/cache/x.yaml"));
        assert!(doublestar_match("apps/{web", "apps/web").is_err());
    }
}
