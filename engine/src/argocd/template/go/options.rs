//! What a template may be told (`goTemplateOptions`) and how it fails.

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
