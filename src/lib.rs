//! fedrender renders a multi-cluster Kubernetes fleet offline: resource templates plus
//! Karmada propagation and override policies, against an inventory of member clusters, become
//! one manifest tree per cluster. The pipeline is Karmada's own, and is the engine's
//! ([`fedrender_engine`]); this is the shell around it: the command line, reading the fleet and
//! running its tools, writing the trees, printing.

// The command line, and one file per command.
pub mod cli;
pub mod commands;

// Printing for people and tools, above everything else.
pub mod report;

// Reading the fleet and running its tools; writing the trees.
pub mod emit;
pub mod source;

// Where paths lead, writes through directory handles, signals, exit codes.
pub mod beneath;
pub mod confine;
pub mod exit_code;
pub mod interrupt;
