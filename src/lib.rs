pub mod api;
pub mod diagnostics;
pub mod interpret;
pub mod names;
pub mod object;
pub mod source;
pub mod yaml;
