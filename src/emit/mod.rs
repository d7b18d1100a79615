//! Writing the output tree: each cluster's directory brought up to date through directory
//! handles ([`tree`]). What each file holds is the engine's ([`fedrender_engine::output`]).

pub mod tree;
