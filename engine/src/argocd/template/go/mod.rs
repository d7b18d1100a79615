//! Go's text/template, written to the `text/template` package documentation, with the function
//! map Argo CD's ApplicationSet controller gives it: the builtins, sprig v3's generic functions
//! minus `env`, `expandenv` and `getHostByName`, and Argo CD's own.

mod argo;
mod coerce;
mod encoding;
mod exec;
mod funcs;
mod lexer;
mod number;
mod options;
mod parse;
mod printf;
mod signature;
mod sprig;
mod sprig_more;
mod unquote;
mod value;

pub(crate) use argo::sanitize_name;
pub use options::{GoError, GoOptions};
pub(crate) use value::Value;

/// The name Argo CD's controller parses every template under (its base template's clone).
pub const TEMPLATE_NAME: &str = "base";

/// Parses and executes `text` over `data`, as `template.New("base").Funcs(…).Parse(text)` and
/// `Execute` do.
pub fn render(text: &str, data: &serde_json::Value, options: GoOptions) -> Result<String, GoError> {
    let templates = parse::parse(TEMPLATE_NAME, text, &|name| funcs::lookup(name).is_some())
        .map_err(GoError::Parse)?;
    let mut exec = exec::Exec::new(TEMPLATE_NAME, text, &templates, options);
    exec.execute(Value::from_json(data))
        .map_err(GoError::Execute)?;
    Ok(exec.out)
}

#[cfg(test)]
mod tests;
