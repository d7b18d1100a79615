//! Argo CD ApplicationSets, fedrender's second front door (issue 54): what Argo CD's
//! ApplicationSet controller and repo server would make of a fleet of ApplicationSets, offline.
//!
//! - [`template`]: templates rendered as the controller's `applicationset/utils` renders them,
//!   the default fasttemplate `{{ }}` replacement and `goTemplate: true` with Go's text/template
//!   ([`template::go`]), the sprig functions Argo CD enables and its own. Judged against Argo
//!   CD's own code: `testdata/references/argocd-templates/`.
//! - [`fleet`]: the fleet read as Argo CD reads it: its Applications, written or generated,
//!   each [`deploy`]ed to its destination from its source ([`directory`], or a tool's).
//! - [`generators`]: each entry of `spec.generators` to its parameter sets, as Argo CD's
//!   `applicationset/generators` computes them (list, clusters, git, matrix, merge).
//! - [`cluster`]: Argo CD's clusters, its cluster Secrets and the local `in-cluster`.
//! - [`params`]: what a generator hands the controller.
//! - [`repositories`]: the Git repositories the Config maps to local checkouts, found by URL as
//!   Argo CD compares them.
//! - [`api`]: the serde types of `Application`, `ApplicationSet` and `AppProject`.
//! - [`applicationset`]: the controller's `generateApplications`, an Application per parameter
//!   set: generator templates merged, rendered, `templatePatch` applied, names checked.
//! - [`project`]: AppProjects enforced as Argo CD enforces them, and each Application's
//!   destination found among the clusters ([`glob`]: the globs they are written in).
//! - How the repo server renders a source: [`source_overrides`] (`.argocd-source*.yaml`),
//!   [`kustomize_options`] (the Application's kustomize options as `kustomize edit` makes
//!   them), [`helm`] (`helm template`'s flags, value files resolved), [`build_env`] (the
//!   `$ARGOCD_APP_*` variables they may name).

pub mod api;
pub mod applicationset;
pub mod build_env;
pub mod cluster;
pub mod deploy;
pub mod directory;
pub mod fleet;
pub mod generators;
pub mod glob;
pub mod helm;
pub mod kustomize_options;
pub mod params;
pub mod project;
pub mod repositories;
pub mod source_overrides;
pub mod template;
