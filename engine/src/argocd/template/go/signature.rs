//! A template function's signature as text/template sees it: its parameters' Go types, which
//! decide how each operand is converted, and the Rust function that computes it.

use super::value::Value;

/// A parameter's Go type, which decides how an operand is converted (exec.go `evalArg`).
#[derive(Debug, Clone, Copy)]
pub(crate) enum Param {
    /// `interface{}`.
    Any,
    /// `reflect.Value`: the builtins that see a missing value as it is.
    Value,
    Str,
    Int,
    /// `float64`.
    Float,
    Bool,
    /// `map[string]interface{}`.
    Map,
    /// `*semver.Version`, what a version's comparing methods take.
    Version,
    /// `time.Time`, a struct: only a value of that type is given to it.
    Time,
}

impl Param {
    pub fn go_type(self) -> &'static str {
        match self {
            Param::Any => "interface {}",
            Param::Value => "reflect.Value",
            Param::Str => "string",
            Param::Int => "int",
            Param::Float => "float64",
            Param::Bool => "bool",
            Param::Map => "map[string]interface {}",
            Param::Version => "*semver.Version",
            Param::Time => "time.Time",
        }
    }
}

pub(crate) type Call = fn(&[Value], Option<&str>) -> Result<Value, String>;

#[derive(Clone, Copy)]
pub(crate) struct Func {
    pub params: &'static [Param],
    pub variadic: Option<Param>,
    pub call: Call,
}

pub(crate) const fn f(params: &'static [Param], variadic: Option<Param>, call: Call) -> Func {
    Func {
        params,
        variadic,
        call,
    }
}
