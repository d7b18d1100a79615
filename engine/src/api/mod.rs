//! The serde types of what users write, with the upstream JSON names, and the matching
//! predicates shared by every stage.

pub mod autoscaling;
pub mod cluster;
pub mod config;
pub mod karmada;
pub(crate) mod kubefed;
pub mod meta;
pub(crate) mod networking;
pub(crate) mod secret_keys;
pub(crate) mod selector;
pub mod source;
pub(crate) mod type_meta;
