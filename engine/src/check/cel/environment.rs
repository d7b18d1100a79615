//! The Kubernetes CEL environment, declared: every function and overload, with its argument
//! and result types and the Kubernetes version whose environment first has it — as
//! k8s.io/apiserver v0.36.2 pkg/cel/environment/base.go composes it (`IntroducedVersion`)
//! from cel-go v0.28.1's standard library and extensions and apiserver pkg/cel/library.
//!
//! An API server compiles a new expression (a CRD's rule being created) in the environment of
//! its minimum compatibility version, one minor below its own: a 1.30 server refuses
//! `isIP()`, which came in 1.30. Everything declared here is declared whether or not the
//! evaluator implements it: the checker must accept what the API server accepts.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::parse::Macros;
use super::types::Type;

/// One overload: whether it is called as a method (`target.f()`), its parameters (the
/// target's first), its result, and its type parameters by name.
#[derive(Debug, Clone)]
pub struct Overload {
    pub member: bool,
    pub params: Vec<Type>,
    pub result: Type,
    pub type_params: Vec<&'static str>,
}

/// The environment of one compatibility version.
#[derive(Debug)]
pub struct Environment {
    functions: HashMap<String, Vec<Overload>>,
    /// The identifiers that name types (`int`, `string`, …) and their types.
    types: HashMap<&'static str, Type>,
    /// The macros and optional syntax the parser expands and accepts.
    pub macros: Macros,
    /// The checks of duration, timestamp and regular expression literals, from 1.29.
    pub literal_validators: bool,
}

impl Environment {
    /// The environment new expressions compile in on a Kubernetes 1.`minor` API server: that
    /// of its minimum compatibility version, 1.`minor - 1`.
    pub fn for_new_expressions(minor: u32) -> &'static Environment {
        Environment::at(minor.saturating_sub(1))
    }

    /// The environment of compatibility version 1.`minor` (every version after 1.34 has
    /// 1.34's).
    pub fn at(minor: u32) -> &'static Environment {
        static ENVIRONMENTS: OnceLock<Vec<Environment>> = OnceLock::new();
        let all = ENVIRONMENTS.get_or_init(|| (0..=NEWEST).map(Environment::build).collect());
        &all[minor.min(NEWEST) as usize]
    }

    /// The overloads of a function, by its full name (`optional.of`, `_+_`).
    pub fn function(&self, name: &str) -> Option<&[Overload]> {
        self.functions.get(name).map(Vec::as_slice)
    }

    /// The type an identifier that names a type has (`int` is `type(int)`).
    pub fn type_ident(&self, name: &str) -> Option<&Type> {
        self.types.get(name)
    }

    fn build(minor: u32) -> Environment {
        let mut functions: HashMap<String, Vec<Overload>> = HashMap::new();
        for &(since, until, name, signature) in DECLARATIONS {
            if minor < since || until.is_some_and(|until| minor >= until) {
                continue;
            }
            if !since_cross_type(minor, signature, name) {
                continue;
            }
            for overload in expand(name, signature) {
                functions
                    .entry(name.to_string())
                    .or_default()
                    .push(overload);
            }
        }
        if minor >= 31 {
            for format in FORMATS {
                functions.insert(
                    format!("format.{format}"),
                    vec![overload_of(
                        &format!("format.{format}"),
                        "() -> kubernetes.NamedFormat",
                    )],
                );
            }
        }
        let mut types: HashMap<&'static str, Type> = HashMap::new();
        let type_of = |t: Type| Type::Type(Some(Box::new(t)));
        for (name, t) in [
            ("bool", Type::Bool),
            ("bytes", Type::Bytes),
            ("double", Type::Double),
            ("int", Type::Int),
            ("uint", Type::Uint),
            ("string", Type::String),
            ("null_type", Type::Null),
            ("list", Type::list(Type::param("A"))),
            ("map", Type::map(Type::param("A"), Type::param("B"))),
            ("google.protobuf.Duration", Type::Duration),
            ("google.protobuf.Timestamp", Type::Timestamp),
            ("type", Type::Type(None)),
        ] {
            types.insert(name, type_of(t));
        }
        if minor >= 28 {
            types.insert("optional_type", type_of(Type::optional(Type::param("V"))));
        }
        Environment {
            functions,
            types,
            macros: Macros {
                two_variable: minor >= 32,
                sort_by: minor >= 34,
                optional: minor >= 28,
            },
            literal_validators: minor >= 29,
        }
    }
}

/// The newest compatibility version whose environment differs from the one before.
const NEWEST: u32 = 34;

/// Comparisons of an int with a double or uint (and the others across) come with
/// `CrossTypeNumericComparisons`, in 1.28.
fn since_cross_type(minor: u32, signature: &str, name: &str) -> bool {
    if minor >= 28 || !matches!(name, "_<_" | "_<=_" | "_>_" | "_>=_") {
        return true;
    }
    let params = signature.split(')').next().unwrap_or_default();
    let mut kinds = params.trim_start_matches('(').split(", ").map(str::trim);
    let (first, second) = (kinds.next(), kinds.next());
    first == second
}

/// The named formats of the format library (apiserver pkg/cel/library/format.go).
const FORMATS: [&str; 13] = [
    "dns1123Label",
    "dns1123Subdomain",
    "dns1035Label",
    "qualifiedName",
    "dns1123LabelPrefix",
    "dns1123SubdomainPrefix",
    "dns1035LabelPrefix",
    "labelValue",
    "uri",
    "uuid",
    "byte",
    "date",
    "datetime",
];

/// The types the comparison functions of libraries are declared for one by one.
const COMPARABLE: [&str; 8] = [
    "int",
    "uint",
    "double",
    "bool",
    "duration",
    "timestamp",
    "string",
    "bytes",
];

const SUMMABLE: [&str; 4] = ["int", "uint", "double", "duration"];

/// The overloads one declaration line gives: `T` in a line stands for each comparable type
/// (`T~`) or summable one (`T+`) in turn, written after the signature.
fn expand(name: &str, signature: &str) -> Vec<Overload> {
    let (signature, each) = match signature.split_once(" for ") {
        Some((signature, "comparable")) => (signature, Some(&COMPARABLE[..])),
        Some((signature, "summable")) => (signature, Some(&SUMMABLE[..])),
        Some((_, other)) => panic!("unknown set {other}"),
        None => (signature, None),
    };
    match each {
        None => vec![overload_of(name, signature)],
        Some(types) => types
            .iter()
            .map(|t| overload_of(name, &signature.replace('T', t)))
            .collect(),
    }
}

/// An overload from its signature: `(string, int) -> bool`, or `string.(int) -> bool` for a
/// method; single capital letters are type parameters.
fn overload_of(name: &str, signature: &str) -> Overload {
    let (call, result) = signature
        .split_once(" -> ")
        .unwrap_or_else(|| panic!("{name}: {signature}"));
    // A target like `kubernetes.Quantity` holds a dot: a method is split at its `.(`.
    let (target, args) = match call.split_once(".(") {
        Some((target, args)) => (Some(target), args.strip_suffix(')').unwrap_or(args)),
        None => (None, &call[1..call.len() - 1]),
    };
    let mut params = Vec::new();
    let mut type_params = Vec::new();
    if let Some(target) = target {
        params.push(type_of(target, &mut type_params));
    }
    for arg in split_top(args) {
        params.push(type_of(arg, &mut type_params));
    }
    let result = type_of(result, &mut type_params);
    Overload {
        member: target.is_some(),
        params,
        result,
        type_params,
    }
}

/// `a, list(b), map(c, d)` split at its top-level commas.
fn split_top(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut depth = 0;
    let mut start = 0;
    for (at, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(text[start..at].trim());
                start = at + 1;
            }
            _ => {}
        }
    }
    if !text[start..].trim().is_empty() {
        parts.push(text[start..].trim());
    }
    parts
}

fn type_of(text: &str, type_params: &mut Vec<&'static str>) -> Type {
    let text = text.trim();
    if let Some((outer, inner)) = text.strip_suffix(')').and_then(|t| t.split_once('(')) {
        let mut params: Vec<Type> = split_top(inner)
            .into_iter()
            .map(|p| type_of(p, type_params))
            .collect();
        return match outer {
            "list" => Type::list(params.remove(0)),
            "map" => {
                let key = params.remove(0);
                Type::map(key, params.remove(0))
            }
            "optional" => Type::optional(params.remove(0)),
            "type" => Type::Type(Some(Box::new(params.remove(0)))),
            other => panic!("unknown type {other}"),
        };
    }
    match text {
        "dyn" => Type::Dyn,
        "null" => Type::Null,
        "bool" => Type::Bool,
        "int" => Type::Int,
        "uint" => Type::Uint,
        "double" => Type::Double,
        "string" => Type::String,
        "bytes" => Type::Bytes,
        "duration" => Type::Duration,
        "timestamp" => Type::Timestamp,
        "net.IP" => Type::Opaque("net.IP", Vec::new()),
        "net.CIDR" => Type::Opaque("net.CIDR", Vec::new()),
        param if param.len() == 1 && param.chars().all(|c| c.is_ascii_uppercase()) => {
            let name: &'static str = ["A", "B", "K", "V", "T", "U"]
                .into_iter()
                .find(|known| *known == param)
                .unwrap_or_else(|| panic!("unknown type parameter {param}"));
            if !type_params.contains(&name) {
                type_params.push(name);
            }
            Type::param(name)
        }
        named if named.starts_with("kubernetes.") => Type::named(named),
        other => panic!("unknown type {other}"),
    }
}

/// Every declaration: since which compatibility version (minor), until which (excluded), the
/// function, its signature. Sources: cel-go common/stdlib/standard.go (the standard
/// library), cel/library.go (optional types, `OptionalTypes()` at its newest version),
/// ext/strings.go, ext/sets.go, ext/lists.go, ext/comprehensions.go; apiserver
/// pkg/cel/library/{urls,regex,lists,authz,quantity,ip,cidr,format,semverlib}.go.
const DECLARATIONS: &[(u32, Option<u32>, &str, &str)] = &[
    // The standard library: operators.
    (0, None, "_?_:_", "(bool, A, A) -> A"),
    (0, None, "_&&_", "(bool, bool) -> bool"),
    (0, None, "_||_", "(bool, bool) -> bool"),
    (0, None, "!_", "(bool) -> bool"),
    (0, None, "_==_", "(A, A) -> bool"),
    (0, None, "_!=_", "(A, A) -> bool"),
    (0, None, "_+_", "(bytes, bytes) -> bytes"),
    (0, None, "_+_", "(double, double) -> double"),
    (0, None, "_+_", "(duration, duration) -> duration"),
    (0, None, "_+_", "(duration, timestamp) -> timestamp"),
    (0, None, "_+_", "(timestamp, duration) -> timestamp"),
    (0, None, "_+_", "(int, int) -> int"),
    (0, None, "_+_", "(list(A), list(A)) -> list(A)"),
    (0, None, "_+_", "(string, string) -> string"),
    (0, None, "_+_", "(uint, uint) -> uint"),
    (0, None, "_/_", "(double, double) -> double"),
    (0, None, "_/_", "(int, int) -> int"),
    (0, None, "_/_", "(uint, uint) -> uint"),
    (0, None, "_%_", "(int, int) -> int"),
    (0, None, "_%_", "(uint, uint) -> uint"),
    (0, None, "_*_", "(double, double) -> double"),
    (0, None, "_*_", "(int, int) -> int"),
    (0, None, "_*_", "(uint, uint) -> uint"),
    (0, None, "-_", "(double) -> double"),
    (0, None, "-_", "(int) -> int"),
    (0, None, "_-_", "(double, double) -> double"),
    (0, None, "_-_", "(duration, duration) -> duration"),
    (0, None, "_-_", "(int, int) -> int"),
    (0, None, "_-_", "(timestamp, duration) -> timestamp"),
    (0, None, "_-_", "(timestamp, timestamp) -> duration"),
    (0, None, "_-_", "(uint, uint) -> uint"),
    (0, None, "_<_", "(bool, bool) -> bool"),
    (0, None, "_<_", "(int, int) -> bool"),
    (0, None, "_<_", "(int, double) -> bool"),
    (0, None, "_<_", "(int, uint) -> bool"),
    (0, None, "_<_", "(uint, uint) -> bool"),
    (0, None, "_<_", "(uint, double) -> bool"),
    (0, None, "_<_", "(uint, int) -> bool"),
    (0, None, "_<_", "(double, double) -> bool"),
    (0, None, "_<_", "(double, int) -> bool"),
    (0, None, "_<_", "(double, uint) -> bool"),
    (0, None, "_<_", "(string, string) -> bool"),
    (0, None, "_<_", "(bytes, bytes) -> bool"),
    (0, None, "_<_", "(timestamp, timestamp) -> bool"),
    (0, None, "_<_", "(duration, duration) -> bool"),
    (0, None, "_<=_", "(bool, bool) -> bool"),
    (0, None, "_<=_", "(int, int) -> bool"),
    (0, None, "_<=_", "(int, double) -> bool"),
    (0, None, "_<=_", "(int, uint) -> bool"),
    (0, None, "_<=_", "(uint, uint) -> bool"),
    (0, None, "_<=_", "(uint, double) -> bool"),
    (0, None, "_<=_", "(uint, int) -> bool"),
    (0, None, "_<=_", "(double, double) -> bool"),
    (0, None, "_<=_", "(double, int) -> bool"),
    (0, None, "_<=_", "(double, uint) -> bool"),
    (0, None, "_<=_", "(string, string) -> bool"),
    (0, None, "_<=_", "(bytes, bytes) -> bool"),
    (0, None, "_<=_", "(timestamp, timestamp) -> bool"),
    (0, None, "_<=_", "(duration, duration) -> bool"),
    (0, None, "_>_", "(bool, bool) -> bool"),
    (0, None, "_>_", "(int, int) -> bool"),
    (0, None, "_>_", "(int, double) -> bool"),
    (0, None, "_>_", "(int, uint) -> bool"),
    (0, None, "_>_", "(uint, uint) -> bool"),
    (0, None, "_>_", "(uint, double) -> bool"),
    (0, None, "_>_", "(uint, int) -> bool"),
    (0, None, "_>_", "(double, double) -> bool"),
    (0, None, "_>_", "(double, int) -> bool"),
    (0, None, "_>_", "(double, uint) -> bool"),
    (0, None, "_>_", "(string, string) -> bool"),
    (0, None, "_>_", "(bytes, bytes) -> bool"),
    (0, None, "_>_", "(timestamp, timestamp) -> bool"),
    (0, None, "_>_", "(duration, duration) -> bool"),
    (0, None, "_>=_", "(bool, bool) -> bool"),
    (0, None, "_>=_", "(int, int) -> bool"),
    (0, None, "_>=_", "(int, double) -> bool"),
    (0, None, "_>=_", "(int, uint) -> bool"),
    (0, None, "_>=_", "(uint, uint) -> bool"),
    (0, None, "_>=_", "(uint, double) -> bool"),
    (0, None, "_>=_", "(uint, int) -> bool"),
    (0, None, "_>=_", "(double, double) -> bool"),
    (0, None, "_>=_", "(double, int) -> bool"),
    (0, None, "_>=_", "(double, uint) -> bool"),
    (0, None, "_>=_", "(string, string) -> bool"),
    (0, None, "_>=_", "(bytes, bytes) -> bool"),
    (0, None, "_>=_", "(timestamp, timestamp) -> bool"),
    (0, None, "_>=_", "(duration, duration) -> bool"),
    (0, None, "_[_]", "(list(A), int) -> A"),
    (0, None, "_[_]", "(map(A, B), A) -> B"),
    (0, None, "@in", "(A, list(A)) -> bool"),
    (0, None, "@in", "(A, map(A, B)) -> bool"),
    // The standard library: functions.
    (0, None, "size", "(bytes) -> int"),
    (0, None, "size", "bytes.() -> int"),
    (0, None, "size", "(list(A)) -> int"),
    (0, None, "size", "list(A).() -> int"),
    (0, None, "size", "(map(A, B)) -> int"),
    (0, None, "size", "map(A, B).() -> int"),
    (0, None, "size", "(string) -> int"),
    (0, None, "size", "string.() -> int"),
    (0, None, "type", "(A) -> type(A)"),
    (0, None, "bool", "(bool) -> bool"),
    (0, None, "bool", "(string) -> bool"),
    (0, None, "bytes", "(bytes) -> bytes"),
    (0, None, "bytes", "(string) -> bytes"),
    (0, None, "double", "(double) -> double"),
    (0, None, "double", "(int) -> double"),
    (0, None, "double", "(string) -> double"),
    (0, None, "double", "(uint) -> double"),
    (0, None, "duration", "(duration) -> duration"),
    (0, None, "duration", "(string) -> duration"),
    (0, None, "dyn", "(A) -> dyn"),
    (0, None, "int", "(int) -> int"),
    (0, None, "int", "(double) -> int"),
    (0, None, "int", "(duration) -> int"),
    (0, None, "int", "(string) -> int"),
    (0, None, "int", "(timestamp) -> int"),
    (0, None, "int", "(uint) -> int"),
    (0, None, "string", "(string) -> string"),
    (0, None, "string", "(bool) -> string"),
    (0, None, "string", "(bytes) -> string"),
    (0, None, "string", "(double) -> string"),
    (0, None, "string", "(duration) -> string"),
    (0, None, "string", "(int) -> string"),
    (0, None, "string", "(timestamp) -> string"),
    (0, None, "string", "(uint) -> string"),
    (0, None, "timestamp", "(timestamp) -> timestamp"),
    (0, None, "timestamp", "(int) -> timestamp"),
    (0, None, "timestamp", "(string) -> timestamp"),
    (0, None, "uint", "(uint) -> uint"),
    (0, None, "uint", "(double) -> uint"),
    (0, None, "uint", "(int) -> uint"),
    (0, None, "uint", "(string) -> uint"),
    (0, None, "contains", "string.(string) -> bool"),
    (0, None, "endsWith", "string.(string) -> bool"),
    (0, None, "startsWith", "string.(string) -> bool"),
    (0, None, "matches", "(string, string) -> bool"),
    (0, None, "matches", "string.(string) -> bool"),
    (0, None, "getFullYear", "timestamp.() -> int"),
    (0, None, "getFullYear", "timestamp.(string) -> int"),
    (0, None, "getMonth", "timestamp.() -> int"),
    (0, None, "getMonth", "timestamp.(string) -> int"),
    (0, None, "getDayOfYear", "timestamp.() -> int"),
    (0, None, "getDayOfYear", "timestamp.(string) -> int"),
    (0, None, "getDayOfMonth", "timestamp.() -> int"),
    (0, None, "getDayOfMonth", "timestamp.(string) -> int"),
    (0, None, "getDate", "timestamp.() -> int"),
    (0, None, "getDate", "timestamp.(string) -> int"),
    (0, None, "getDayOfWeek", "timestamp.() -> int"),
    (0, None, "getDayOfWeek", "timestamp.(string) -> int"),
    (0, None, "getHours", "timestamp.() -> int"),
    (0, None, "getHours", "timestamp.(string) -> int"),
    (0, None, "getHours", "duration.() -> int"),
    (0, None, "getMinutes", "timestamp.() -> int"),
    (0, None, "getMinutes", "timestamp.(string) -> int"),
    (0, None, "getMinutes", "duration.() -> int"),
    (0, None, "getSeconds", "timestamp.() -> int"),
    (0, None, "getSeconds", "timestamp.(string) -> int"),
    (0, None, "getSeconds", "duration.() -> int"),
    (0, None, "getMilliseconds", "timestamp.() -> int"),
    (0, None, "getMilliseconds", "timestamp.(string) -> int"),
    (0, None, "getMilliseconds", "duration.() -> int"),
    // Kubernetes' URLs, Regex and Lists libraries (always).
    (0, None, "url", "(string) -> kubernetes.URL"),
    (0, None, "getScheme", "kubernetes.URL.() -> string"),
    (0, None, "getHost", "kubernetes.URL.() -> string"),
    (0, None, "getHostname", "kubernetes.URL.() -> string"),
    (0, None, "getPort", "kubernetes.URL.() -> string"),
    (0, None, "getEscapedPath", "kubernetes.URL.() -> string"),
    (
        0,
        None,
        "getQuery",
        "kubernetes.URL.() -> map(string, list(string))",
    ),
    (0, None, "isURL", "(string) -> bool"),
    (0, None, "find", "string.(string) -> string"),
    (0, None, "findAll", "string.(string) -> list(string)"),
    (0, None, "findAll", "string.(string, int) -> list(string)"),
    (0, None, "isSorted", "list(T).() -> bool for comparable"),
    (0, None, "sum", "list(T).() -> T for summable"),
    (0, None, "max", "list(T).() -> T for comparable"),
    (0, None, "min", "list(T).() -> T for comparable"),
    (0, None, "indexOf", "list(A).(A) -> int"),
    (0, None, "lastIndexOf", "list(A).(A) -> int"),
    // cel-go's strings extension: version 0 before 1.29, version 2 since.
    (0, None, "charAt", "string.(int) -> string"),
    (0, None, "indexOf", "string.(string) -> int"),
    (0, None, "indexOf", "string.(string, int) -> int"),
    (0, None, "lastIndexOf", "string.(string) -> int"),
    (0, None, "lastIndexOf", "string.(string, int) -> int"),
    (0, None, "lowerAscii", "string.() -> string"),
    (0, None, "replace", "string.(string, string) -> string"),
    (0, None, "replace", "string.(string, string, int) -> string"),
    (0, None, "split", "string.(string) -> list(string)"),
    (0, None, "split", "string.(string, int) -> list(string)"),
    (0, None, "substring", "string.(int) -> string"),
    (0, None, "substring", "string.(int, int) -> string"),
    (0, None, "trim", "string.() -> string"),
    (0, None, "upperAscii", "string.() -> string"),
    (29, None, "format", "string.(list(dyn)) -> string"),
    (29, None, "strings.quote", "(string) -> string"),
    (0, None, "join", "list(string).() -> string"),
    (0, None, "join", "list(string).(string) -> string"),
    // Kubernetes' authorizer library, 1.27; its selectors, 1.31.
    (
        27,
        None,
        "path",
        "kubernetes.authorization.Authorizer.(string) -> kubernetes.authorization.PathCheck",
    ),
    (
        27,
        None,
        "group",
        "kubernetes.authorization.Authorizer.(string) -> kubernetes.authorization.GroupCheck",
    ),
    (
        27,
        None,
        "serviceAccount",
        "kubernetes.authorization.Authorizer.(string, string) -> kubernetes.authorization.Authorizer",
    ),
    (
        27,
        None,
        "resource",
        "kubernetes.authorization.GroupCheck.(string) -> kubernetes.authorization.ResourceCheck",
    ),
    (
        27,
        None,
        "subresource",
        "kubernetes.authorization.ResourceCheck.(string) -> kubernetes.authorization.ResourceCheck",
    ),
    (
        27,
        None,
        "namespace",
        "kubernetes.authorization.ResourceCheck.(string) -> kubernetes.authorization.ResourceCheck",
    ),
    (
        27,
        None,
        "name",
        "kubernetes.authorization.ResourceCheck.(string) -> kubernetes.authorization.ResourceCheck",
    ),
    (
        27,
        None,
        "check",
        "kubernetes.authorization.PathCheck.(string) -> kubernetes.authorization.Decision",
    ),
    (
        27,
        None,
        "check",
        "kubernetes.authorization.ResourceCheck.(string) -> kubernetes.authorization.Decision",
    ),
    (
        27,
        None,
        "errored",
        "kubernetes.authorization.Decision.() -> bool",
    ),
    (
        27,
        None,
        "error",
        "kubernetes.authorization.Decision.() -> string",
    ),
    (
        27,
        None,
        "allowed",
        "kubernetes.authorization.Decision.() -> bool",
    ),
    (
        27,
        None,
        "reason",
        "kubernetes.authorization.Decision.() -> string",
    ),
    (
        31,
        None,
        "fieldSelector",
        "kubernetes.authorization.ResourceCheck.(string) -> kubernetes.authorization.ResourceCheck",
    ),
    (
        31,
        None,
        "labelSelector",
        "kubernetes.authorization.ResourceCheck.(string) -> kubernetes.authorization.ResourceCheck",
    ),
    // Kubernetes' quantity library and cel-go's optional types, 1.28.
    (28, None, "quantity", "(string) -> kubernetes.Quantity"),
    (28, None, "isQuantity", "(string) -> bool"),
    (28, None, "sign", "(kubernetes.Quantity) -> int"),
    (
        28,
        None,
        "isGreaterThan",
        "kubernetes.Quantity.(kubernetes.Quantity) -> bool",
    ),
    (
        28,
        None,
        "isLessThan",
        "kubernetes.Quantity.(kubernetes.Quantity) -> bool",
    ),
    (
        28,
        None,
        "compareTo",
        "kubernetes.Quantity.(kubernetes.Quantity) -> int",
    ),
    (
        28,
        None,
        "asApproximateFloat",
        "kubernetes.Quantity.() -> double",
    ),
    (28, None, "asInteger", "kubernetes.Quantity.() -> int"),
    (28, None, "isInteger", "kubernetes.Quantity.() -> bool"),
    (
        28,
        None,
        "add",
        "kubernetes.Quantity.(kubernetes.Quantity) -> kubernetes.Quantity",
    ),
    (
        28,
        None,
        "add",
        "kubernetes.Quantity.(int) -> kubernetes.Quantity",
    ),
    (
        28,
        None,
        "sub",
        "kubernetes.Quantity.(kubernetes.Quantity) -> kubernetes.Quantity",
    ),
    (
        28,
        None,
        "sub",
        "kubernetes.Quantity.(int) -> kubernetes.Quantity",
    ),
    (28, None, "optional.of", "(V) -> optional(V)"),
    (28, None, "optional.ofNonZeroValue", "(V) -> optional(V)"),
    (28, None, "optional.none", "() -> optional(V)"),
    (28, None, "value", "optional(V).() -> V"),
    (28, None, "hasValue", "optional(V).() -> bool"),
    (28, None, "or", "optional(V).(optional(V)) -> optional(V)"),
    (28, None, "orValue", "optional(V).(V) -> V"),
    (28, None, "_?._", "(dyn, string) -> optional(V)"),
    (28, None, "_[?_]", "(list(V), int) -> optional(V)"),
    (28, None, "_[?_]", "(optional(list(V)), int) -> optional(V)"),
    (28, None, "_[?_]", "(map(K, V), K) -> optional(V)"),
    (28, None, "_[?_]", "(optional(map(K, V)), K) -> optional(V)"),
    (28, None, "_[_]", "(optional(list(V)), int) -> optional(V)"),
    (28, None, "_[_]", "(optional(map(K, V)), K) -> optional(V)"),
    (28, None, "last", "list(V).() -> optional(V)"),
    (28, None, "first", "list(V).() -> optional(V)"),
    (
        28,
        None,
        "optional.unwrap",
        "(list(optional(V))) -> list(V)",
    ),
    (28, None, "unwrapOpt", "list(optional(V)).() -> list(V)"),
    // cel-go's sets extension, 1.29.
    (29, None, "sets.contains", "(list(T), list(T)) -> bool"),
    (29, None, "sets.equivalent", "(list(T), list(T)) -> bool"),
    (29, None, "sets.intersects", "(list(T), list(T)) -> bool"),
    // Kubernetes' IP and CIDR libraries, 1.30.
    (30, None, "ip", "(string) -> net.IP"),
    (30, None, "family", "net.IP.() -> int"),
    (30, None, "ip.isCanonical", "(string) -> bool"),
    (30, None, "isUnspecified", "net.IP.() -> bool"),
    (30, None, "isLoopback", "net.IP.() -> bool"),
    (30, None, "isLinkLocalMulticast", "net.IP.() -> bool"),
    (30, None, "isLinkLocalUnicast", "net.IP.() -> bool"),
    (30, None, "isGlobalUnicast", "net.IP.() -> bool"),
    (30, None, "isIP", "(string) -> bool"),
    (30, None, "string", "(net.IP) -> string"),
    (30, None, "cidr", "(string) -> net.CIDR"),
    (30, None, "containsIP", "net.CIDR.(string) -> bool"),
    (30, None, "containsIP", "net.CIDR.(net.IP) -> bool"),
    (30, None, "containsCIDR", "net.CIDR.(string) -> bool"),
    (30, None, "containsCIDR", "net.CIDR.(net.CIDR) -> bool"),
    (30, None, "ip", "net.CIDR.() -> net.IP"),
    (30, None, "prefixLength", "net.CIDR.() -> int"),
    (30, None, "masked", "net.CIDR.() -> net.CIDR"),
    (30, None, "isCIDR", "(string) -> bool"),
    (30, None, "string", "(net.CIDR) -> string"),
    // Kubernetes' format library, 1.31 (its format.<name>() constants are added in build).
    (
        31,
        None,
        "validate",
        "kubernetes.NamedFormat.(string) -> optional(list(string))",
    ),
    (
        31,
        None,
        "format.named",
        "(string) -> optional(kubernetes.NamedFormat)",
    ),
    // cel-go's two-variable comprehensions, 1.32: the macros, and the map insertion their
    // transformMapEntry expands to.
    (32, None, "cel.@mapInsert", "(map(K, V), K, V) -> map(K, V)"),
    (
        32,
        None,
        "cel.@mapInsert",
        "(map(K, V), map(K, V)) -> map(K, V)",
    ),
    // Kubernetes' semver library, 1.33.
    (33, None, "semver", "(string) -> kubernetes.Semver"),
    (33, None, "semver", "(string, bool) -> kubernetes.Semver"),
    (33, None, "isSemver", "(string) -> bool"),
    (33, None, "isSemver", "(string, bool) -> bool"),
    (
        33,
        None,
        "isGreaterThan",
        "kubernetes.Semver.(kubernetes.Semver) -> bool",
    ),
    (
        33,
        None,
        "isLessThan",
        "kubernetes.Semver.(kubernetes.Semver) -> bool",
    ),
    (
        33,
        None,
        "compareTo",
        "kubernetes.Semver.(kubernetes.Semver) -> int",
    ),
    (33, None, "major", "kubernetes.Semver.() -> int"),
    (33, None, "minor", "kubernetes.Semver.() -> int"),
    (33, None, "patch", "kubernetes.Semver.() -> int"),
    // cel-go's lists extension (version 3), 1.34.
    (34, None, "slice", "list(T).(int, int) -> list(T)"),
    (34, None, "flatten", "list(list(T)).() -> list(T)"),
    (34, None, "flatten", "list(dyn).(int) -> list(dyn)"),
    (34, None, "sort", "list(T).() -> list(T) for comparable"),
    (34, None, "lists.range", "(int) -> list(int)"),
    (34, None, "reverse", "list(T).() -> list(T)"),
    (34, None, "distinct", "list(T).() -> list(T)"),
];

#[cfg(test)]
mod tests {
    use super::*;

    /// The gates of base.go: IP and CIDR in 1.30, format in 1.31, two-variable comprehensions
    /// in 1.32, semver in 1.33, cel-go's lists in 1.34; a server compiles new expressions one
    /// minor below its own.
    #[test]
    fn libraries_come_in_the_versions_base_go_gives() {
        let has = |minor: u32, name: &str| Environment::at(minor).function(name).is_some();
        assert!(!has(29, "isIP") && has(30, "isIP"));
        assert!(!has(30, "format.named") && has(31, "format.dns1123Label"));
        assert!(!has(32, "semver") && has(33, "semver"));
        assert!(!has(33, "distinct") && has(34, "distinct"));
        assert!(!has(28, "sets.contains") && has(29, "sets.contains"));
        assert!(
            !Environment::at(31).macros.two_variable && Environment::at(32).macros.two_variable
        );
        assert!(
            Environment::for_new_expressions(31)
                .function("isIP")
                .is_some()
        );
        assert!(
            Environment::for_new_expressions(30)
                .function("isIP")
                .is_none()
        );
        assert!(!has(34, "math.greatest"));
        // Strings version 0, before 1.29, has join but no format.
        assert!(has(28, "join") && !has(28, "format") && has(29, "format"));
    }

    /// Declaration lines expand to their overloads, with type parameters.
    #[test]
    fn declarations_expand_to_overloads() {
        let sort = Environment::at(34).function("sort").unwrap();
        assert_eq!(sort.len(), 8);
        let quantity_add = Environment::at(34).function("add").unwrap();
        assert!(quantity_add.iter().all(|o| o.member));
        assert_eq!(quantity_add[0].params[0].to_string(), "kubernetes.Quantity");
        let index = Environment::at(34).function("_[_]").unwrap();
        assert_eq!(index[1].params[0].to_string(), "map(A, B)");
        assert_eq!(index[1].type_params, vec!["A", "B"]);
        let cross = Environment::at(27).function("_<_").unwrap();
        assert!(cross.iter().all(|o| o.params[0] == o.params[1]));
    }
}
