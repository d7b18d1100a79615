//! fedrender's engine: a multi-cluster Kubernetes fleet rendered offline, documents in,
//! rendered documents and diagnostics out. Resource templates plus Karmada propagation and
//! override policies (or KubeFed and Federation v1 objects), against an inventory of member
//! clusters, become one manifest tree per cluster, through Karmada's own stages.
//!
//! Start with [`assemble`] and [`Run`]: hand in what was read as [`Inputs`], say what the
//! command line says in [`Options`], and render the [`Run`] in chunks, as a stream, into memory
//! or as a summary; [`diff`] compares a run with a rendered tree or with another input. Every
//! stage below is public too, for use à la carte where a caller needs one step alone (a
//! benchmark of the scheduler, a fuzz target of the image parser).
//!
//! ```text
//! Inputs ─► assemble: documents ─► classify ─► fleet ─► Run::new: bind ─► schedule ─► layout
//!                                                                                        │
//!        Run::render / stream / tree / summary: override ─► work ─► check ─► output ◄────┘
//! ```
//!
//! No file system, process, signal or command line here (clippy.toml keeps it so): the
//! `fedrender` package reads the fleet, runs its tools, hands the text in, and writes and
//! prints what comes out.
//!
//! ```
//! use fedrender_engine::documents::{Format, SourceFile};
//! use fedrender_engine::{Inputs, Options};
//!
//! let fleet = "\
//! apiVersion: v1
//! kind: ConfigMap
//! metadata: {name: settings, namespace: default}
//! data: {colour: blue}
//! ---
//! apiVersion: policy.karmada.io/v1alpha1
//! kind: PropagationPolicy
//! metadata: {name: everywhere, namespace: default}
//! spec:
//!   resourceSelectors: [{apiVersion: v1, kind: ConfigMap}]
//!   placement: {clusterAffinity: {clusterNames: [member1]}}
//! ---
//! apiVersion: cluster.karmada.io/v1alpha1
//! kind: Cluster
//! metadata: {name: member1}
//! spec: {}
//! ";
//! let file = SourceFile::new("fleet/all.yaml".into(), fleet.to_string(), Format::Yaml);
//! let inputs = Inputs::new("fleet", vec![file]);
//! let outcome = fedrender_engine::run(inputs, &Options::default(), |run| run.tree());
//! let rendered = outcome.result.expect("the fleet renders");
//! let (path, _, text) = rendered.tree.objects().next().expect("one object");
//! assert_eq!(path, "member1/default/configmap_settings.yaml");
//! assert!(text.contains("colour: blue"));
//! ```

#![warn(missing_docs)]

// The front door: what the shell read in, a run of the pipeline out.
pub mod run;
pub use controllers::cluster_taints::TaintChange;
pub use run::{CHUNK, FleetSummary, Inputs, Options, Outcome, RenderedFleet, Run, assemble, run};

// À la carte: every stage, for a caller that needs one step alone.

// What a change does to the rendered fleet.
pub mod diff;

// The output tree as text: each object's file, each cluster's kustomization, the stream, the
// GitOps wiring.
pub mod output;

// The pipeline: text into documents (documents), sorted into templates, policies and clusters
// (classify), the fleet assembled and admitted (fleet), every template placed (render) and
// each cluster's object built (work).
pub mod classify;
pub mod documents;
pub mod fleet;
pub mod render;
pub mod work;

// The stages `render` runs, each Karmada's (or KubeFed's) in its own place.
pub(crate) mod bind;
// Its documentation comes with issue 47's rework of the schema and CEL checks.
#[allow(missing_docs)]
pub mod check;
pub mod cluster_filter;
// Karmada's controllers: namespaces, derived Services, cluster taints, federated quotas.
pub(crate) mod controllers;
pub(crate) mod federation;
mod helm_hooks;
pub(crate) mod karmada_release;
pub mod overrides;
pub mod policy;
pub mod schedule;
// Secrets: how each object is protected, and the keys each cluster opens them with.
pub(crate) mod secrets;

// What Karmada's API server refuses of its own objects beyond the policy webhooks: the CRDs it
// installs, the MultiClusterService webhook.
pub(crate) mod admission;
// Knowledge of kinds: replicas, requests, dependencies, Lua customizations.
pub mod interpret;
// The groups of clusters a team routes approvals by, and their owners.
pub mod review_groups;

// Argo CD ApplicationSets, their beginning: the templates as the controller renders them.
pub mod argocd;

// What users write, as serde types, and the predicates every stage shares.
pub mod api;

// Below every stage: what a run's documents may weigh, objects, YAML, the text of a written
// file, messages and lint levels, names, quantities, how far a run has got.
pub mod bounds;
pub mod diagnostics;
pub mod edit_distance;
pub mod fields;
pub(crate) mod go_float;
pub mod json_pointer;
pub mod lint;
pub mod manifest;
pub mod names;
pub mod object;
pub mod progress;
pub mod quantity;
// What no message shows: a Secret's values.
pub mod redact;
// Finding one ASCII byte in short text.
pub mod text;
pub mod yaml;
