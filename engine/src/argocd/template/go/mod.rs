//! Go's text/template, written to the `text/template` package documentation, with the function
//! map Argo CD's ApplicationSet controller gives it: the builtins, sprig v3's generic functions
//! minus `env`, `expandenv` and `getHostByName`, and Argo CD's own.

mod argo;
mod exec;
mod funcs;
mod lexer;
mod number;
mod parse;
mod printf;
mod sprig;
mod sprig_more;
mod unquote;
mod value;

pub(crate) use value::Value;

/// The name Argo CD's controller parses every template under (its base template's clone).
pub const TEMPLATE_NAME: &str = "base";

/// `goTemplateOptions`: `missingkey=default` / `invalid` / `zero` / `error`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GoOptions {
    /// `missingkey=error`: a missing map key stops the template.
    pub missing_key_error: bool,
}

impl GoOptions {
    /// `template.Option(options...)`; an option it does not know is an error, as Go panics.
    pub fn parse(options: &[String]) -> Result<GoOptions, String> {
        let mut parsed = GoOptions::default();
        for option in options {
            match option.split_once('=') {
                Some(("missingkey", "invalid" | "default" | "zero")) => {
                    parsed.missing_key_error = false
                }
                Some(("missingkey", "error")) => parsed.missing_key_error = true,
                Some(("missingkey", _)) => return Err(format!("unrecognized option: {option}")),
                _ => return Err(format!("unrecognized option: {option}")),
            }
        }
        Ok(parsed)
    }
}

/// The stage a template failed at, with Go's message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GoError {
    /// `Parse` failed.
    Parse(String),
    /// `Execute` failed.
    Execute(String),
}

/// Parses and executes `text` over `data`, as `template.New("base").Funcs(…).Parse(text)` and
/// `Execute` do.
pub fn render(text: &str, data: &serde_json::Value, options: GoOptions) -> Result<String, GoError> {
    let templates = parse::parse(TEMPLATE_NAME, text, &|name| funcs::lookup(name).is_some())
        .map_err(GoError::Parse)?;
    let mut exec = exec::Exec::new(TEMPLATE_NAME, text, &templates, options.missing_key_error);
    exec.execute(Value::from_json(data))
        .map_err(GoError::Execute)?;
    Ok(exec.out)
}

#[cfg(test)]
mod tests;
