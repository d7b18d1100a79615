//! The serde types of what users write, with the upstream JSON names, and the matching
//! predicates shared by every stage.

pub mod cluster;
pub mod config;
pub mod karmada;
pub mod kubefed;
pub mod meta;
pub mod networking;
pub mod secret_keys;
pub mod selector;
pub mod source;
pub mod type_meta;
