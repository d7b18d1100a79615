//! Printing for people and tools, above the library: a diff as a unified diff, Markdown, JSON,
//! an HTML page or a summary; a plan as text or JSON; errors and warnings as text, JSON lines or
//! GitHub workflow commands; the progress line. Nothing below imports from here.
//!
//! Names from the fleet are the pull request's: each form escapes them where they are printed,
//! a terminal's with [`fedrender_engine::diagnostics::printable`], a GitHub Actions log's with
//! [`github`], a pull-request comment's with [`markdown`].

pub mod capacity;
pub mod diff;
pub mod diff_json;
pub mod envelopes;
pub mod github;
pub mod html;
pub mod markdown;
pub mod messages;
pub mod plan;
pub mod progress;
