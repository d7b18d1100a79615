//! sprig's path functions (`base`, `dir`, `clean`, `ext`, `isAbs`: Go's `path` package) and
//! their `os…` forms (`path/filepath`, which on Linux, where Argo CD runs, is the same).

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
}
