//! The serde types of Argo CD's objects as users write them: [`application`] (`Application`
//! and the template an ApplicationSet renders), [`applicationset`], [`project`]
//! (`AppProject`), and [`merge`], mergo's rule for merging a generator's template into
//! `spec.template`.

pub mod application;
pub mod applicationset;
pub mod merge;
pub mod project;
