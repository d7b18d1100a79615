//! sprig's `semver` and `semverCompare` (semver.go): a version read as Masterminds/semver
//! reads it ([`super::semver`]), and a constraint checked against one.

use super::semver::{check, new_constraint, new_version};
use super::signature::{Func, Param, f};
use super::value::{Value, VersionKind};
use std::rc::Rc;

pub(super) fn lookup(name: &str) -> Option<Func> {
    Some(match name {
        "semver" => f(&[Param::Str], None, |a, _| {
            let version = new_version(text(a, 0))?;
            Ok(Value::Version(Rc::new(version), VersionKind::Pointer))
        }),
        "semverCompare" => f(&[Param::Str, Param::Str], None, |a, _| {
            let constraints = new_constraint(text(a, 0))?;
            let version = new_version(text(a, 1))?;
            Ok(Value::Bool(check(&constraints, &version)))
        }),
        _ => return None,
    })
}

fn text(args: &[Value], i: usize) -> &str {
    match &args[i] {
        Value::String(s) => s,
        _ => "",
    }
}
