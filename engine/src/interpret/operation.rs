//! The interpreter's operations: what a customization, a built-in script or the native
//! interpreter answers for a kind (karmada pkg/apis/config/v1alpha1
//! resourceinterpretercustomization_types.go).

use std::fmt;

/// The operations that decide what a member cluster receives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Operation {
    /// `replicaResource`: how many replicas a workload asks for, and what each requests.
    ReplicaResource,
    /// `replicaRevision`: the object with the replicas a cluster is given.
    ReplicaRevision,
    /// `dependencyInterpretation`: what else the object needs on a cluster.
    DependencyInterpretation,
}

impl Operation {
    /// Every operation, in the order `plan` lists them.
    pub const ALL: [Operation; 3] = [
        Operation::ReplicaResource,
        Operation::ReplicaRevision,
        Operation::DependencyInterpretation,
    ];

    /// The operation's field in a customization.
    pub fn field(self) -> &'static str {
        match self {
            Operation::ReplicaResource => "replicaResource",
            Operation::ReplicaRevision => "replicaRevision",
            Operation::DependencyInterpretation => "dependencyInterpretation",
        }
    }

    /// The function a script for the operation defines.
    pub fn function(self) -> &'static str {
        match self {
            Operation::ReplicaResource => "GetReplicas",
            Operation::ReplicaRevision => "ReviseReplica",
            Operation::DependencyInterpretation => "GetDependencies",
        }
    }
}

impl fmt::Display for Operation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.field())
    }
}
