//! Masterminds/semver v3.4.0, the version Argo CD builds with, under sprig's `semver` and
//! `semverCompare` ([`super::sprig_semver`]): `NewVersion`'s loose reading (it coerces by
//! default: `v1.2`, `1`, `01.2`), `NewConstraint` and `Check`, and the methods of the
//! `*semver.Version` a template may call. The library reads with regular expressions; the same expressions are used here
//! (Go's `\s` and `\d` spelled out, being ASCII in Go and Unicode in Rust), so that what they
//! accept, and which alternative wins, is the library's.

use regex::Regex;
use std::cmp::Ordering;
use std::sync::LazyLock;

/// A parsed version, `semver.Version`'s fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Version {
    pub major: u64,
    pub minor: u64,
    pub patch: u64,
    pub pre: String,
    pub metadata: String,
    pub original: String,
}

const INVALID: &str = "invalid semantic version";
const INVALID_PRERELEASE: &str = "invalid prerelease string";
const INVALID_METADATA: &str = "invalid metadata string";
const STARTS_ZERO: &str = "version segment starts with 0";

/// Go's `\s`.
const SPACE: &str = r"[\t\n\f\r ]";

const LOOSE: &str = r"v?([0-9]+)(\.[0-9]+)?(\.[0-9]+)?(-([0-9A-Za-z\-]+(\.[0-9A-Za-z\-]+)*))?(\+([0-9A-Za-z\-]+(\.[0-9A-Za-z\-]+)*))?";

/// A constraint's version: digits or wildcards, and a `|` the library's classes let in.
const CONSTRAINT_VERSION: &str = r"v?([0-9|x|X|\*]+)(\.[0-9|x|X|\*]+)?(\.[0-9|x|X|\*]+)?(-([0-9A-Za-z\-]+(\.[0-9A-Za-z\-]+)*))?(\+([0-9A-Za-z\-]+(\.[0-9A-Za-z\-]+)*))?";

/// The operators in the library's order, which decides the alternative that matches (the
/// empty one second).
const OPS: &str = r"=||!=|>|<|>=|=>|<=|=<|~|~>|\^";

fn compile(pattern: String) -> Regex {
    Regex::new(&pattern).expect("the library's expressions compile")
}

static LOOSE_RE: LazyLock<Regex> = LazyLock::new(|| compile(format!("^{LOOSE}$")));
static CONSTRAINT_RE: LazyLock<Regex> = LazyLock::new(|| {
    compile(format!(
        "^{SPACE}*({OPS}){SPACE}*({CONSTRAINT_VERSION}){SPACE}*$"
    ))
});
static RANGE_RE: LazyLock<Regex> = LazyLock::new(|| {
    compile(format!(
        "{SPACE}*({CONSTRAINT_VERSION}){SPACE}+-{SPACE}+({CONSTRAINT_VERSION}){SPACE}*"
    ))
});
static FIND_RE: LazyLock<Regex> =
    LazyLock::new(|| compile(format!("({OPS}){SPACE}*({CONSTRAINT_VERSION})")));
static VALID_RE: LazyLock<Regex> = LazyLock::new(|| {
    compile(format!(
        "^({SPACE}*({OPS}){SPACE}*({CONSTRAINT_VERSION}){SPACE}*)((?:{SPACE}+|,{SPACE}*)({OPS}){SPACE}*({CONSTRAINT_VERSION}){SPACE}*)*$"
    ))
});

/// Go's `strconv.ParseUint(s, 10, 64)` of ASCII digits, with its message on overflow.
fn parse_segment(digits: &str) -> Result<u64, String> {
    digits.parse::<u64>().map_err(|_| {
        format!(
            "error parsing version segment: strconv.ParseUint: parsing {}: value out of range",
            super::super::quote::quote(digits)
        )
    })
}

fn only(text: &str, allowed: impl Fn(u8) -> bool) -> bool {
    text.bytes().all(allowed)
}

fn is_identifier_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-'
}

fn validate_prerelease(pre: &str) -> Result<(), String> {
    for part in pre.split('.') {
        if part.is_empty() {
            return Err(INVALID_PRERELEASE.to_string());
        } else if only(part, |b| b.is_ascii_digit()) {
            if part.len() > 1 && part.starts_with('0') {
                return Err(STARTS_ZERO.to_string());
            }
        } else if !only(part, is_identifier_byte) {
            return Err(INVALID_PRERELEASE.to_string());
        }
    }
    Ok(())
}

fn validate_metadata(metadata: &str) -> Result<(), String> {
    for part in metadata.split('.') {
        if part.is_empty() || !only(part, is_identifier_byte) {
            return Err(INVALID_METADATA.to_string());
        }
    }
    Ok(())
}

/// semver `NewVersion` as it coerces (`CoerceNewVersion`, true by default): missing minor and
/// patch are 0, leading zeros are read away, the text kept as the original.
pub(crate) fn new_version(text: &str) -> Result<Version, String> {
    let m = LOOSE_RE.captures(text).ok_or(INVALID)?;
    let group = |i: usize| m.get(i).map_or("", |g| g.as_str());
    let segment = |i: usize| -> Result<u64, String> {
        match group(i) {
            "" => Ok(0),
            digits => parse_segment(digits.trim_start_matches('.')),
        }
    };
    let version = Version {
        major: segment(1)?,
        minor: segment(2)?,
        patch: segment(3)?,
        pre: group(5).to_string(),
        metadata: group(8).to_string(),
        original: text.to_string(),
    };
    if !version.pre.is_empty() {
        validate_prerelease(&version.pre)?;
    }
    if !version.metadata.is_empty() {
        validate_metadata(&version.metadata)?;
    }
    Ok(version)
}

impl Version {
    /// `Version.String`.
    pub fn string(&self) -> String {
        let mut out = format!("{}.{}.{}", self.major, self.minor, self.patch);
        if !self.pre.is_empty() {
            out.push('-');
            out.push_str(&self.pre);
        }
        if !self.metadata.is_empty() {
            out.push('+');
            out.push_str(&self.metadata);
        }
        out
    }

    /// `Version.Compare`: segments, then a prerelease below none; metadata not at all.
    pub fn compare(&self, other: &Version) -> Ordering {
        (self.major, self.minor, self.patch)
            .cmp(&(other.major, other.minor, other.patch))
            .then_with(|| match (self.pre.is_empty(), other.pre.is_empty()) {
                (true, true) => Ordering::Equal,
                (true, false) => Ordering::Greater,
                (false, true) => Ordering::Less,
                (false, false) => compare_prerelease(&self.pre, &other.pre),
            })
    }

    fn v_prefix(&self) -> &str {
        if self.original.starts_with('v') {
            "v"
        } else {
            ""
        }
    }

    /// The `Inc…` and `Set…` methods: the new original keeps a leading `v`.
    fn renamed(mut self, prefix: &str) -> Version {
        self.original = format!("{prefix}{}", self.string());
        self
    }

    pub fn inc_patch(&self) -> Version {
        let mut next = self.clone();
        if self.pre.is_empty() {
            next.patch = self.patch.wrapping_add(1);
        }
        next.pre.clear();
        next.metadata.clear();
        next.renamed(self.v_prefix())
    }

    pub fn inc_minor(&self) -> Version {
        let mut next = self.clone();
        next.pre.clear();
        next.metadata.clear();
        next.patch = 0;
        next.minor = self.minor.wrapping_add(1);
        next.renamed(self.v_prefix())
    }

    pub fn inc_major(&self) -> Version {
        let mut next = self.clone();
        next.pre.clear();
        next.metadata.clear();
        next.patch = 0;
        next.minor = 0;
        next.major = self.major.wrapping_add(1);
        next.renamed(self.v_prefix())
    }

    pub fn set_prerelease(&self, pre: &str) -> Result<Version, String> {
        if !pre.is_empty() {
            validate_prerelease(pre)?;
        }
        let mut next = self.clone();
        next.pre = pre.to_string();
        Ok(next.renamed(self.v_prefix()))
    }

    pub fn set_metadata(&self, metadata: &str) -> Result<Version, String> {
        if !metadata.is_empty() {
            validate_metadata(metadata)?;
        }
        let mut next = self.clone();
        next.metadata = metadata.to_string();
        Ok(next.renamed(self.v_prefix()))
    }
}

/// semver `comparePrerelease`: dot-separated parts in turn, a missing part below any.
fn compare_prerelease(a: &str, b: &str) -> Ordering {
    let (a, b): (Vec<&str>, Vec<&str>) = (a.split('.').collect(), b.split('.').collect());
    for i in 0..a.len().max(b.len()) {
        let order = compare_part(
            a.get(i).copied().unwrap_or(""),
            b.get(i).copied().unwrap_or(""),
        );
        if order != Ordering::Equal {
            return order;
        }
    }
    Ordering::Equal
}

/// semver `comparePrePart`: numbers by value below words, words by bytes. A part of digits
/// too large for a uint64 counts as a word, as `ParseUint` fails on it.
fn compare_part(a: &str, b: &str) -> Ordering {
    if a == b {
        return Ordering::Equal;
    }
    if a.is_empty() {
        return Ordering::Less;
    }
    if b.is_empty() {
        return Ordering::Greater;
    }
    let number = |s: &str| {
        if only(s, |c| c.is_ascii_digit()) {
            s.parse::<u64>().ok()
        } else {
            None
        }
    };
    match (number(a), number(b)) {
        (None, None) => a.cmp(b),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        // Unequal texts of equal value (`01`, `1`) are not equal: the library answers "less"
        // for them, whichever comes first.
        (Some(x), Some(y)) if x > y => Ordering::Greater,
        _ => Ordering::Less,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    TildeOrEqual,
    NotEqual,
    Greater,
    Less,
    GreaterEqual,
    LessEqual,
    Tilde,
    Caret,
}

#[derive(Debug)]
struct Constraint {
    op: Op,
    version: Version,
    dirty: bool,
    minor_dirty: bool,
    patch_dirty: bool,
}

/// `Constraints`: alternatives (`||`) of constraints that must all hold, and whether an
/// alternative names a prerelease (only then does it let prereleases through).
#[derive(Debug)]
pub(crate) struct Constraints {
    alternatives: Vec<(Vec<Constraint>, bool)>,
}

fn is_x(part: &str) -> bool {
    matches!(part, "x" | "X" | "*")
}

/// semver `rewriteRange`: each `A - B` becomes `>= A, <= B `, replacing the first occurrence
/// of the matched text in the text as rewritten so far, as `strings.Replace(o, m, t, 1)` does.
fn rewrite_range(text: &str) -> String {
    let mut out = text.to_string();
    for m in RANGE_RE.captures_iter(text) {
        let whole = m.get(0).map_or("", |g| g.as_str());
        let from = m.get(1).map_or("", |g| g.as_str());
        let to = m.get(11).map_or("", |g| g.as_str());
        out = out.replacen(whole, &format!(">= {from}, <= {to} "), 1);
    }
    out
}

/// semver `NewConstraint`.
pub(crate) fn new_constraint(text: &str) -> Result<Constraints, String> {
    let text = rewrite_range(text);
    let mut alternatives = Vec::new();
    for alternative in text.split("||") {
        if !VALID_RE.is_match(alternative) {
            return Err(format!("improper constraint: {alternative}"));
        }
        let found: Vec<&str> = FIND_RE.find_iter(alternative).map(|m| m.as_str()).collect();
        let found = if found.is_empty() {
            vec![alternative]
        } else {
            found
        };
        let mut constraints = Vec::with_capacity(found.len());
        let mut has_pre = false;
        for one in found {
            let constraint = parse_constraint(one)?;
            has_pre |= !constraint.version.pre.is_empty();
            constraints.push(constraint);
        }
        alternatives.push((constraints, has_pre));
    }
    Ok(Constraints { alternatives })
}

/// semver `parseConstraint`: a wildcard or missing minor or patch makes the constraint dirty
/// from there, its version zeroed from there (keeping a prerelease, dropping metadata).
fn parse_constraint(text: &str) -> Result<Constraint, String> {
    if text.is_empty() {
        return Ok(Constraint {
            op: Op::TildeOrEqual,
            version: new_version("0.0.0")?,
            dirty: true,
            minor_dirty: false,
            patch_dirty: false,
        });
    }
    let m = CONSTRAINT_RE
        .captures(text)
        .ok_or_else(|| format!("improper constraint: {text}"))?;
    let group = |i: usize| m.get(i).map_or("", |g| g.as_str());
    let op = match group(1) {
        "" | "=" => Op::TildeOrEqual,
        "!=" => Op::NotEqual,
        ">" => Op::Greater,
        "<" => Op::Less,
        ">=" | "=>" => Op::GreaterEqual,
        "<=" | "=<" => Op::LessEqual,
        "~" | "~>" => Op::Tilde,
        _ => Op::Caret,
    };
    let (major, minor, patch, pre) = (group(3), group(4), group(5), group(6));
    let (mut dirty, mut minor_dirty, mut patch_dirty) = (false, false, false);
    let version = if is_x(major) {
        dirty = true;
        format!("0.0.0{pre}")
    } else if minor.is_empty() || is_x(&minor[1..]) {
        (dirty, minor_dirty) = (true, true);
        format!("{major}.0.0{pre}")
    } else if patch.is_empty() || is_x(&patch[1..]) {
        (dirty, patch_dirty) = (true, true);
        format!("{major}{minor}.0{pre}")
    } else {
        group(2).to_string()
    };
    let version = new_version(&version).map_err(|_| "constraint parser error".to_string())?;
    Ok(Constraint {
        op,
        version,
        dirty,
        minor_dirty,
        patch_dirty,
    })
}

/// `Constraints.Check`: some alternative whose every constraint holds.
pub(crate) fn check(constraints: &Constraints, version: &Version) -> bool {
    constraints.alternatives.iter().any(|(all, has_pre)| {
        all.iter()
            .all(|constraint| holds(constraint, version, *has_pre))
    })
}

/// One constraint's check, as semver's `constraint…` functions answer it.
fn holds(c: &Constraint, v: &Version, include_pre: bool) -> bool {
    if !v.pre.is_empty() && !include_pre {
        return false;
    }
    let con = &c.version;
    match c.op {
        Op::NotEqual => {
            if c.dirty {
                if con.major != v.major {
                    return true;
                }
                if con.minor != v.minor && !c.minor_dirty {
                    return true;
                } else if c.minor_dirty {
                    return false;
                } else if con.patch != v.patch && !c.patch_dirty {
                    return true;
                } else if c.patch_dirty {
                    if !v.pre.is_empty() || !con.pre.is_empty() {
                        return compare_prerelease(&v.pre, &con.pre) != Ordering::Equal;
                    }
                    return false;
                }
            }
            v.compare(con) != Ordering::Equal
        }
        Op::Greater => {
            if !c.dirty {
                return v.compare(con) == Ordering::Greater;
            }
            if v.major != con.major {
                return v.major > con.major;
            }
            if c.minor_dirty {
                return false;
            }
            if c.patch_dirty {
                return v.minor > con.minor;
            }
            v.compare(con) == Ordering::Greater
        }
        Op::Less => v.compare(con) == Ordering::Less,
        Op::GreaterEqual => v.compare(con) != Ordering::Less,
        Op::LessEqual => {
            if !c.dirty {
                return v.compare(con) != Ordering::Greater;
            }
            !(v.major > con.major || v.major == con.major && v.minor > con.minor && !c.minor_dirty)
        }
        Op::Tilde => tilde(c, v),
        Op::TildeOrEqual => {
            if c.dirty {
                return tilde(c, v);
            }
            v.compare(con) == Ordering::Equal
        }
        Op::Caret => {
            if v.compare(con) == Ordering::Less {
                return false;
            }
            if con.major > 0 || c.minor_dirty {
                return v.major == con.major;
            }
            if v.major > 0 {
                return false;
            }
            if con.minor > 0 || c.patch_dirty {
                return v.minor == con.minor;
            }
            if v.minor > 0 {
                return false;
            }
            con.patch == v.patch
        }
    }
}

fn tilde(c: &Constraint, v: &Version) -> bool {
    let con = &c.version;
    if v.compare(con) == Ordering::Less {
        return false;
    }
    if (con.major, con.minor, con.patch) == (0, 0, 0) && !c.minor_dirty && !c.patch_dirty {
        return true;
    }
    if v.major != con.major {
        return false;
    }
    v.minor == con.minor || c.minor_dirty
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compare(constraint: &str, version: &str) -> Result<bool, String> {
        Ok(check(&new_constraint(constraint)?, &new_version(version)?))
    }

    // sprig v3.3.0 semver_test.go TestSemverCompare and TestSemver (the parts that are the
    // library's).
    #[test]
    fn compares_as_sprig() {
        assert_eq!(compare("1.2.3", "1.2.3"), Ok(true));
        assert_eq!(compare("^1.2.0", "1.2.3"), Ok(true));
        assert_eq!(compare("^1.2.0", "2.2.3"), Ok(false));
        let v = new_version("1.2.3-beta.1+c0ff33").unwrap();
        assert_eq!((v.major, v.pre.as_str()), (1, "beta.1"));
        let (a, b) = (new_version("1.2.3").unwrap(), new_version("1.3.3").unwrap());
        assert_eq!(b.compare(&a), Ordering::Greater);
        assert_eq!(a.compare(&a), Ordering::Equal);
    }

    // The rules of semver v3.4.0 version.go (`NewVersion` coercing, `validatePrerelease`,
    // `validateMetadata`, `comparePrerelease`), each checked against Argo CD's answers.
    #[test]
    fn reads_versions_as_the_library() {
        assert_eq!(new_version("v1.2").unwrap().string(), "1.2.0");
        assert_eq!(new_version("01.2").unwrap().string(), "1.2.0");
        assert_eq!(new_version("1.2.3-01"), Err(STARTS_ZERO.to_string()));
        assert_eq!(new_version("1.2.3+a..b"), Err(INVALID.to_string()));
        assert_eq!(new_version(""), Err(INVALID.to_string()));
        assert_eq!(new_version("1.2.3.4"), Err(INVALID.to_string()));
        assert!(
            new_version("99999999999999999999")
                .unwrap_err()
                .contains("value out of range")
        );
        let order = [
            "1.0.0-alpha",
            "1.0.0-alpha.1",
            "1.0.0-alpha.beta",
            "1.0.0-beta",
            "1.0.0-beta.2",
            "1.0.0-beta.11",
            "1.0.0-rc.1",
            "1.0.0",
        ];
        for pair in order.windows(2) {
            let (a, b) = (new_version(pair[0]).unwrap(), new_version(pair[1]).unwrap());
            assert_eq!(a.compare(&b), Ordering::Less, "{pair:?}");
        }
        assert_eq!(
            new_version("v1.2.3").unwrap().inc_major().original,
            "v2.0.0"
        );
        assert_eq!(
            new_version("1.2.3-a").unwrap().inc_patch().string(),
            "1.2.3"
        );
    }

    // The rules of semver v3.4.0 constraints.go: operators, wildcards, ranges, `||`, and
    // prereleases let through only by an alternative that names one.
    #[test]
    fn checks_constraints_as_the_library() {
        for (constraint, version, want) in [
            (">=1.2", "1.3.0", true),
            ("<1.2", "1.2.0", false),
            ("!=1.2.3", "1.2.4", true),
            ("~1.2.3", "1.2.9", true),
            ("~1.2.3", "1.3.0", false),
            ("^0.2.3", "0.2.9", true),
            ("^0.2.3", "0.3.0", false),
            ("^0.0.3", "0.0.4", false),
            ("1.2.x", "1.2.7", true),
            ("1.x", "1.9.0", true),
            ("*", "4.0.0", true),
            ("1.2 - 1.4.5", "1.4.5", true),
            ("1.2 - 1.4.5", "1.4.6", false),
            (">1.0, <2.0", "1.5.0", true),
            (">1.0 <2.0 || >=3", "3.1.0", true),
            (">1.0", "1.5.0-beta", false),
            (">1.0.0-alpha", "1.5.0-beta", true),
            ("x", "1.0.0", true),
        ] {
            assert_eq!(
                compare(constraint, version),
                Ok(want),
                "{constraint} {version}"
            );
        }
        assert_eq!(
            compare("1|2", "1"),
            Err("constraint parser error".to_string())
        );
        assert_eq!(
            compare(">=a", "1"),
            Err("improper constraint: >=a".to_string())
        );
    }
}
