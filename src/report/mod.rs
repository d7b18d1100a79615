//! Printing for people and tools, above the library: a diff as a unified diff, Markdown, JSON
//! or a summary; a plan as text or JSON; errors and warnings as text, JSON lines or GitHub
//! workflow commands; the progress line. Nothing below imports from here.

pub mod diff;
pub mod github;
pub mod markdown;
pub mod messages;
pub mod plan;
pub mod progress;
