pub mod api;
pub mod diagnostics;
pub mod object;
pub mod yaml;
