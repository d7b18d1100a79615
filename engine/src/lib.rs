//! fedrender's engine: a multi-cluster Kubernetes fleet rendered offline, documents in,
//! rendered documents and diagnostics out. Resource templates plus Karmada propagation and
//! override policies (or KubeFed and Federation v1 objects), against an inventory of member
//! clusters, become one manifest tree per cluster, through Karmada's own stages:
//!
//! ```text
//! documents ─► classify ─► fleet ─► render: bind ─► schedule ─► override ─► work ─► check
//!                                                                                     │
//!                                                        output (the trees as text) ◄─┘
//! ```
//!
//! No file system, process, signal or command line here (clippy.toml keeps it so): the
//! `fedrender` package reads the fleet, runs its tools, hands the text in, and writes and
//! prints what comes out.

// The front door: what the shell read in, a run of the pipeline out.
pub mod run;

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
pub mod bind;
pub mod check;
pub mod cluster_filter;
pub mod cluster_keys;
pub mod cluster_taints;
pub mod derived_services;
pub mod federated_quota;
pub mod federation;
mod helm_hooks;
pub mod karmada_release;
pub mod namespace_sync;
pub mod overrides;
pub mod policy;
pub mod schedule;
pub mod secrets;

// Knowledge of kinds: replicas, requests, dependencies, Lua customizations.
pub mod interpret;

// What users write, as serde types, and the predicates every stage shares.
pub mod api;

// Below every stage: what a run's documents may weigh, objects, YAML, the text of a written
// file, messages and lint levels, names, quantities, how far a run has got.
pub mod bounds;
pub mod diagnostics;
pub mod edit_distance;
pub mod go_float;
pub mod lint;
pub mod manifest;
pub mod names;
pub mod object;
pub mod progress;
pub mod quantity;
pub mod yaml;
