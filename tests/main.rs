//! The `fedrender` package's tests: one test binary, one module a file, as just's `tests/` (a
//! binary a file would link the whole package 26 times). They run the real binary, read the
//! trees it writes and hold the repository to its layout; the engine's own tests, which need
//! neither, are the engine's (`engine/tests/`).
//!
//! A new test file is a `mod` line below, in its group; it names what the tests share as
//! `crate::common` (`use crate::common;` at its top). `tests/layout.rs` fails on a file under
//! `tests/` that is not one.

// What the tests share: running the binary, scratch directories, fixtures, the tools they need.
mod common;

// The command line end to end: exit codes, messages, the output directory, the documentation's
// examples, the scenarios' snapshots and the Karmada oracle's recorded runs.
mod argocd;
mod autoscaling;
mod cli;
mod config_command;
mod docs;
mod oracle_cases;
mod quota_capacity;
mod scenarios;

// Reading: input trees, the sources tools render, schemas, interpreter customizations, the
// Config's scheduler settings, secrets.
mod input_tree;
mod interpreter;
mod scheduler_settings;
mod schemas;
mod scopes;
mod secret_messages;
mod secrets;
mod sources;

// Writing: the output tree, the stream, the GitOps wiring, shards, the same bytes every run.
mod determinism;
mod gitops;
mod output_tree;
mod shards;
mod stream;

// `fedrender diff`.
mod diff;
mod diff_danger;
mod diff_groups;
mod diff_ignore;
mod diff_ratchet;
mod diff_transition;
mod review_groups;

// What a pull request from a fork can try.
mod cel_bounds;
mod untrusted;
mod untrusted_inputs;
mod untrusted_output;
mod untrusted_schemas;

// The GitHub Action's scripts.
mod action;

// The repository itself: its layout and the packages it publishes.
mod layout;
mod package;
