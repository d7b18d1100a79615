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
    /// `missingkey=zero`: a missing key of a `map[string]interface{}` is its zero value, a nil
    /// interface (printed `<no value>`, but a field of it is an error, not another no value).
    pub missing_key_zero: bool,
}

impl GoOptions {
    /// `template.Option(options...)` (text/template option.go `setOption`); what it does not
    /// know is an error, as Go panics with these words.
    pub fn parse(options: &[String]) -> Result<GoOptions, String> {
        let mut parsed = GoOptions::default();
        for option in options {
            if option.is_empty() {
                return Err("empty option string".to_string());
            }
            let (error, zero) = match option.split_once('=') {
                Some(("missingkey", "invalid" | "default")) => (false, false),
                Some(("missingkey", "zero")) => (false, true),
                Some(("missingkey", "error")) => (true, false),
                _ => return Err(format!("unrecognized option: {option}")),
            };
            parsed.missing_key_error = error;
            parsed.missing_key_zero = zero;
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
    let mut exec = exec::Exec::new(TEMPLATE_NAME, text, &templates, options);
    exec.execute(Value::from_json(data))
        .map_err(GoError::Execute)?;
    Ok(exec.out)
}

#[cfg(test)]
mod tests;
