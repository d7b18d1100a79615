//! Argo CD's ApplicationSet generators, offline (applicationset/generators/): each entry of
//! `spec.generators` to the parameter sets Argo CD's controller would compute for it.
//!
//! - [`transform`]: one entry to its parameter sets, its `selector` and its `template`;
//!   [`generate`] for all of them.
//! - [`list`], [`clusters`], [`git`], [`matrix`], [`merge`]: the generators fedrender computes;
//!   scmProvider, pullRequest, plugin and clusterDecisionResource need the network or a cluster
//!   and are refused by name.
//! - [`interpolate`]: a matrix's second child interpolated with its first's parameters.
//! - [`selector`]: Kubernetes label selectors; [`glob`]: Go's `path.Match`, git pathspecs and
//!   doublestar; [`param_ops`]: Go's `%v`, flattening, mergo's merge, templated `values`;
//!   [`yaml_data`]: files and `elementsYaml` as sigs.k8s.io/yaml reads them.
//! - [`context`]: what the generators read besides their fields, and where fields are written.

pub mod children;
pub mod clusters;
pub mod context;
pub mod git;
pub mod glob;
pub mod interpolate;
pub mod list;
pub mod matrix;
pub mod merge;
pub mod param_ops;
pub mod selector;
pub mod transform;
pub mod yaml_data;

#[cfg(test)]
mod test_support;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_git;
#[cfg(test)]
mod tests_matrix;

pub use context::GeneratorContext;
pub use transform::generate;
