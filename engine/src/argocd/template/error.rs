//! How a template fails.

use std::fmt;

/// A template that does not render, in the words Argo CD's controller uses for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateError {
    message: String,
}

impl TemplateError {
    pub(crate) fn new(message: String) -> TemplateError {
        TemplateError { message }
    }
}

impl fmt::Display for TemplateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for TemplateError {}
