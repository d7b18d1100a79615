//! Go's text/template, written to the `text/template` package documentation, with the function
//! map Argo CD's ApplicationSet controller gives it: the builtins, sprig v3's generic functions
//! minus `env`, `expandenv` and `getHostByName`, and Argo CD's own.

mod argo;
mod coerce;
mod encoding;
mod exec;
mod funcs;
mod go_json;
mod go_time;
mod lexer;
mod number;
mod options;
mod parse;
mod printf;
mod semver;
mod signature;
mod sprig;
mod sprig_float;
mod sprig_more;
mod sprig_must;
mod sprig_paths;
mod sprig_semver;
mod sprig_text;
mod sprig_time;
mod sprig_url;
mod unquote;
mod value;

pub(crate) use argo::sanitize_name;
pub use options::{GoError, GoOptions};
pub(crate) use value::Value;

use std::rc::Rc;

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
    let templates = parsed(text).map_err(GoError::Parse)?;
    let mut exec = exec::Exec::new(TEMPLATE_NAME, text, &templates, options);
    exec.execute(data()).map_err(GoError::Execute)?;
    Ok(exec.out)
}

/// The most texts a thread keeps parsed: an ApplicationSet's template holds a few dozen, each
/// rendered once per Application.
const MOST_PARSED: usize = 4096;

thread_local! {
    static PARSED: std::cell::RefCell<
        std::collections::HashMap<String, Result<Rc<parse::Templates>, String>>,
    > = Default::default();
}

/// `text` parsed, once per thread: every Application an ApplicationSet generates renders the
/// same texts with other parameters, and parsing depends on the text alone (the function map
/// is fixed).
fn parsed(text: &str) -> Result<Rc<parse::Templates>, String> {
    PARSED.with(|cache| {
        if let Some(found) = cache.borrow().get(text) {
            return found.clone();
        }
        let result =
            parse::parse(TEMPLATE_NAME, text, &|name| funcs::lookup(name).is_some()).map(Rc::new);
        let mut cache = cache.borrow_mut();
        if cache.len() >= MOST_PARSED {
            cache.clear();
        }
        cache.insert(text.to_string(), result.clone());
        result
    })
}

#[cfg(test)]
mod tests;
