//! Loading and classifying the input: files → located documents → typed inputs.

pub mod argocd;
pub mod command_defaults;
pub mod files;
pub mod fleet;
pub mod helm;
pub mod kustomization;
pub mod kustomize_origin;
pub mod load;
pub mod rendered_tree;
pub mod run;
pub mod tools;
