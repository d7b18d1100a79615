//! Loading and classifying the input: files → located documents → typed inputs.

pub mod bounds;
pub mod classify;
pub mod documents;
pub mod kustomization;
pub mod load;
pub mod run;
pub mod tools;
