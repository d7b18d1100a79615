//! sprig's path functions (`base`, `dir`, `clean`, `ext`, `isAbs`: Go's `path` package) and
//! their `os…` forms (`path/filepath`, which on Linux, where Argo CD runs, is the same), and
//! the names of the sprig functions fedrender does not implement, so that a template using one
//! is refused as fedrender's gap rather than as Argo CD's error.

use super::signature::{Func, Param, f};
use super::value::Value;

/// The path function called `name`.
pub(crate) fn lookup(name: &str) -> Option<Func> {
    Some(match name {
        "base" | "osBase" => f(&[Param::Str], None, |a, _| Ok(Value::String(base(text(a))))),
        "dir" | "osDir" => f(&[Param::Str], None, |a, _| Ok(Value::String(dir(text(a))))),
        "clean" | "osClean" => f(&[Param::Str], None, |a, _| {
            Ok(Value::String(clean(text(a))))
        }),
        "ext" | "osExt" => f(&[Param::Str], None, |a, _| {
            Ok(Value::String(ext(text(a)).to_string()))
        }),
        "isAbs" | "osIsAbs" => f(&[Param::Str], None, |a, _| {
            Ok(Value::Bool(text(a).starts_with('/')))
        }),
        _ => return None,
    })
}

fn text(args: &[Value]) -> &str {
    match &args[0] {
        Value::String(text) => text,
        _ => "",
    }
}

/// Go's `path.Clean`: one slash between elements, `.` elements dropped, `..` taking the element
/// before it (or kept at the start of a relative path, dropped at the root); `.` for nothing.
pub(crate) fn clean(path: &str) -> String {
    if path.is_empty() {
        return ".".to_string();
    }
    let rooted = path.starts_with('/');
    let mut elements: Vec<&str> = Vec::new();
    for element in path.split('/') {
        match element {
            "" | "." => {}
            ".." => match elements.last() {
                Some(&last) if last != ".." => {
                    elements.pop();
                }
                _ if rooted => {}
                _ => elements.push(".."),
            },
            element => elements.push(element),
        }
    }
    let joined = elements.join("/");
    match (rooted, joined.is_empty()) {
        (true, _) => format!("/{joined}"),
        (false, true) => ".".to_string(),
        (false, false) => joined,
    }
}

/// Go's `path.Base`: the last element, trailing slashes dropped; `.` for nothing, `/` for
/// only slashes.
fn base(path: &str) -> String {
    if path.is_empty() {
        return ".".to_string();
    }
    let trimmed = path.trim_end_matches('/');
    if trimmed.is_empty() {
        return "/".to_string();
    }
    trimmed.rsplit('/').next().unwrap_or(trimmed).to_string()
}

/// Go's `path.Dir`: everything before the last slash, cleaned.
fn dir(path: &str) -> String {
    let end = path.rfind('/').map_or(0, |slash| slash + 1);
    clean(&path[..end])
}

/// Go's `path.Ext`: from the last dot of the last element, if it has one.
fn ext(path: &str) -> &str {
    for (at, byte) in path.bytes().enumerate().rev() {
        match byte {
            b'/' => return "",
            b'.' => return &path[at..],
            _ => {}
        }
    }
    ""
}

/// Every function of sprig v3's `GenericFuncMap` (Masterminds/sprig functions.go), Argo CD's
/// template functions but for the three it removes (`env`, `expandenv`, `getHostByName`).
const SPRIG_FUNCTIONS: &[&str] = &[
    "hello",
    "ago",
    "date",
    "date_in_zone",
    "date_modify",
    "dateInZone",
    "dateModify",
    "duration",
    "durationRound",
    "htmlDate",
    "htmlDateInZone",
    "must_date_modify",
    "mustDateModify",
    "mustToDate",
    "now",
    "toDate",
    "unixEpoch",
    "abbrev",
    "abbrevboth",
    "trunc",
    "trim",
    "upper",
    "lower",
    "title",
    "untitle",
    "substr",
    "repeat",
    "trimall",
    "trimAll",
    "trimSuffix",
    "trimPrefix",
    "nospace",
    "initials",
    "randAlphaNum",
    "randAlpha",
    "randAscii",
    "randNumeric",
    "randSeededNumeric",
    "swapcase",
    "shuffle",
    "snakecase",
    "camelcase",
    "kebabcase",
    "wrap",
    "wrapWith",
    "contains",
    "hasPrefix",
    "hasSuffix",
    "quote",
    "squote",
    "cat",
    "indent",
    "nindent",
    "replace",
    "plural",
    "sha1sum",
    "sha256sum",
    "adler32sum",
    "toString",
    "atoi",
    "int64",
    "int",
    "float64",
    "seq",
    "toDecimal",
    "split",
    "splitList",
    "splitn",
    "toStrings",
    "until",
    "untilStep",
    "add1",
    "add",
    "sub",
    "div",
    "mod",
    "mul",
    "randInt",
    "add1f",
    "addf",
    "subf",
    "divf",
    "mulf",
    "biggest",
    "max",
    "min",
    "maxf",
    "minf",
    "ceil",
    "floor",
    "round",
    "join",
    "sortAlpha",
    "default",
    "empty",
    "coalesce",
    "all",
    "any",
    "compact",
    "mustCompact",
    "fromJson",
    "toJson",
    "toPrettyJson",
    "toRawJson",
    "mustFromJson",
    "mustToJson",
    "mustToPrettyJson",
    "mustToRawJson",
    "ternary",
    "deepCopy",
    "mustDeepCopy",
    "typeOf",
    "typeIs",
    "typeIsLike",
    "kindOf",
    "kindIs",
    "deepEqual",
    "base",
    "dir",
    "clean",
    "ext",
    "isAbs",
    "osBase",
    "osClean",
    "osDir",
    "osExt",
    "osIsAbs",
    "b64enc",
    "b64dec",
    "b32enc",
    "b32dec",
    "tuple",
    "list",
    "dict",
    "get",
    "set",
    "unset",
    "hasKey",
    "pluck",
    "keys",
    "pick",
    "omit",
    "merge",
    "mergeOverwrite",
    "mustMerge",
    "mustMergeOverwrite",
    "values",
    "append",
    "push",
    "mustAppend",
    "mustPush",
    "prepend",
    "mustPrepend",
    "first",
    "mustFirst",
    "rest",
    "mustRest",
    "last",
    "mustLast",
    "initial",
    "mustInitial",
    "reverse",
    "mustReverse",
    "uniq",
    "mustUniq",
    "without",
    "mustWithout",
    "has",
    "mustHas",
    "slice",
    "mustSlice",
    "concat",
    "dig",
    "chunk",
    "mustChunk",
    "bcrypt",
    "htpasswd",
    "genPrivateKey",
    "derivePassword",
    "buildCustomCert",
    "genCA",
    "genCAWithKey",
    "genSelfSignedCert",
    "genSelfSignedCertWithKey",
    "genSignedCert",
    "genSignedCertWithKey",
    "encryptAES",
    "decryptAES",
    "randBytes",
    "uuidv4",
    "semver",
    "semverCompare",
    "fail",
    "regexMatch",
    "mustRegexMatch",
    "regexFindAll",
    "mustRegexFindAll",
    "regexFind",
    "mustRegexFind",
    "regexReplaceAll",
    "mustRegexReplaceAll",
    "regexReplaceAllLiteral",
    "mustRegexReplaceAllLiteral",
    "regexSplit",
    "mustRegexSplit",
    "regexQuoteMeta",
    "urlParse",
    "urlJoin",
];

/// Whether `name` is a function Argo CD's templates have (sprig's) that fedrender does not
/// implement.
pub(crate) fn is_unimplemented_sprig(name: &str) -> bool {
    SPRIG_FUNCTIONS.contains(&name) && super::funcs::lookup(name).is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    // Go's path package (path/path_test.go cleantests, basetests, dirtests, exttests).
    #[test]
    fn paths_are_read_as_gos_path_package_reads_them() {
        for (path, cleaned) in [
            ("", "."),
            ("abc", "abc"),
            ("abc/def/", "abc/def"),
            ("a//b", "a/b"),
            ("/../abc", "/abc"),
            ("../../abc", "../../abc"),
            ("abc/../..", ".."),
            ("abc/./../def", "def"),
            ("/", "/"),
            ("a/b/../../..", ".."),
        ] {
            assert_eq!(clean(path), cleaned, "clean {path:?}");
        }
        for (path, name) in [
            ("", "."),
            (".", "."),
            ("/.", "."),
            ("/", "/"),
            ("////", "/"),
            ("x/", "x"),
            ("a/b", "b"),
            ("/a/b", "b"),
        ] {
            assert_eq!(base(path), name, "base {path:?}");
        }
        for (path, parent) in [
            ("", "."),
            (".", "."),
            ("/.", "/"),
            ("/", "/"),
            ("////", "/"),
            ("/foo", "/"),
            ("x/", "x"),
            ("abc", "."),
            ("abc/def", "abc"),
            ("a/b/.x", "a/b"),
            ("a/b/c.", "a/b"),
            ("a/b/c.x", "a/b"),
        ] {
            assert_eq!(dir(path), parent, "dir {path:?}");
        }
        for (path, extension) in [
            ("path.go", ".go"),
            ("path.pb.go", ".go"),
            ("a.dir/b", ""),
            ("a.dir/b.go", ".go"),
            ("a.dir/", ""),
        ] {
            assert_eq!(ext(path), extension, "ext {path:?}");
        }
    }

    #[test]
    fn sprigs_functions_fedrender_lacks_are_known_apart_from_undefined_ones() {
        assert!(is_unimplemented_sprig("semver"));
        assert!(is_unimplemented_sprig("now"));
        assert!(!is_unimplemented_sprig("base"), "implemented here");
        assert!(!is_unimplemented_sprig("env"), "Argo CD removes it");
        assert!(!is_unimplemented_sprig("nope"));
    }
}
