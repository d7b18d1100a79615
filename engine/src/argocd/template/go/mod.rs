//! Go's text/template, written to the `text/template` package documentation, with the function
//! map Argo CD's ApplicationSet controller gives it: the builtins, sprig v3's generic functions
//! minus `env`, `expandenv` and `getHostByName`, and Argo CD's own.

mod argo;
mod coerce;
mod encoding;
mod exec;
mod funcs;
mod go_time;
mod lexer;
mod number;
mod options;
mod parse;
mod printf;
mod signature;
mod sprig;
mod sprig_more;
mod sprig_paths;
mod sprig_time;
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
    execute(text, || Value::from_json(data), options)
}

/// [`render`] over a parameter set, converted as the JSON object holding it would be (without
/// copying it into one first).
pub fn render_params(
    text: &str,
    params: &serde_json::Map<String, serde_json::Value>,
    options: GoOptions,
) -> Result<String, GoError> {
    let data = || {
        Value::map(
            params
                .iter()
                .map(|(key, value)| (key.clone(), Value::from_json(value)))
                .collect(),
        )
    };
    execute(text, data, options)
}

/// Parses `text`, then executes it over the value `data` makes (made only once it parsed).
fn execute(
    text: &str,
    data: impl FnOnce() -> Value,
    options: GoOptions,
) -> Result<String, GoError> {
    let templates = parse::parse(TEMPLATE_NAME, text, &|name| funcs::lookup(name).is_some())
        .map_err(GoError::Parse)?;
    let mut exec = exec::Exec::new(TEMPLATE_NAME, text, &templates, options);
    exec.execute(data()).map_err(GoError::Execute)?;
    Ok(exec.out)
}

#[cfg(test)]
mod tests;
