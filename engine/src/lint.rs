//! Lints: every warning has a stable name, and a level a team chooses per name — on the command
//! line (`--deny`, `--warn`, `--allow`, `--strict`) or in the fleet's fedrender Config — as rustc
//! and clippy let a codebase choose.

use std::collections::BTreeMap;
use std::fmt;

use serde::Deserialize;

/// What a warning is about. The names are stable: CI configurations and fleet configs refer to
/// them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Lint {
    /// `unknown-cluster`: A policy, quota or preference names a cluster the inventory does not have.
    UnknownCluster,
    /// `targets-no-cluster`: An override rule's targetCluster matches no cluster that receives the object.
    TargetsNoCluster,
    /// `overrides-nothing`: A command or args overrider changes nothing on a template its policy selects.
    OverridesNothing,
    /// `selects-nothing`: A policy or KubeFed object selects no template.
    SelectsNothing,
    /// `unplaced-template`: A template no policy places, or that reaches no cluster.
    UnplacedTemplate,
    /// `unplaced-replicas`: A ReplicaSchedulingPreference places fewer replicas than its total.
    UnplacedReplicas,
    /// `priority-tie`: Policies tie on priority for a template, so the name decides.
    PriorityTie,
    /// `shadowed-policy`: A propagation policy matches templates but another policy wins every one.
    ShadowedPolicy,
    /// `ignored-field`: A field or annotation that Karmada, KubeFed or Federation v1 ignores.
    IgnoredField,
    /// `not-modelled`: A setting of a live control plane that fedrender does not model.
    NotModelled,
    /// `skipped-input`: A file or directory of the input that is not read.
    SkippedInput,
    /// `dependencies-not-followed`: Karmada's built-in interpretation fails on a template, so its dependencies stay.
    DependenciesNotFollowed,
    /// `invalid-selector`: A resource selector's label selector Karmada cannot convert, so it matches nothing.
    InvalidSelector,
    /// `undefined-namespace`: Objects are placed into a namespace that no template of the fleet defines.
    UndefinedNamespace,
    /// `schema-invalid`: A cluster's API server would reject a value: wrong type, missing required field, out of range, not an allowed value.
    SchemaInvalid,
    /// `unknown-field`: A field a built-in kind does not have, which kubectl's strict field validation rejects.
    UnknownField,
    /// `pruned-field`: A field a custom resource's CRD schema does not have, which the API server drops.
    PrunedField,
    /// `removed-api`: An apiVersion a cluster's Kubernetes version no longer serves.
    RemovedApi,
    /// `deprecated-api`: An apiVersion a cluster serves but a later Kubernetes removes or a stabler one replaces.
    DeprecatedApi,
    /// `unchecked-kind`: Custom resources whose CRD the run does not have, so unchecked.
    UncheckedKind,
    /// `unknown-scope`: A custom resource without a namespace whose kind's scope no CRD states, taken as namespaced.
    UnknownScope,
    /// `assumed-kubernetes-version`: A cluster's Kubernetes version is unstated (an API removed in the assumed newest is this warning) or has no schemas in fedrender, so the nearest is used.
    AssumedKubernetesVersion,
    /// `disabled-api`: An alpha API, or a beta API new since 1.24, that a cluster serves only when enabled, and the inventory does not list its apiEnablements.
    DisabledApi,
    /// `immutable-field`: Diff: a change Kubernetes refuses on update (a selector, a StatefulSet's claim templates, a binding's roleRef), so the GitOps sync stops.
    ImmutableField,
    /// `pvc-shrink`: Diff: a PersistentVolumeClaim's storage request made smaller, which Kubernetes refuses.
    PvcShrink,
    /// `replicas-zero`: Diff: a workload going to 0 replicas on a cluster where it had some.
    ReplicasZero,
    /// `replica-shift`: Diff: replicas moving between clusters, each synced on its own.
    ReplicaShift,
    /// `pruned`: Diff: an object leaving a cluster while its template stays, which the wiring's prune deletes.
    Pruned,
    /// `hpa-owns-replicas`: Diff: spec.replicas written for a workload a HorizontalPodAutoscaler scales, so the sync and the autoscaler fight.
    HpaOwnsReplicas,
    /// `preserved-on-deletion`: Diff: a template deleted while its policy preserves what it placed, which a prune deletes unless the live objects carry build --gitops's exemption.
    PreservedOnDeletion,
    /// `policy-relaxed`: Diff: the pull request's Config lowers a lint level or adds a diff ignore rule, which the base's Config (or, with none, the defaults) keeps for this review.
    PolicyRelaxed,
    /// `review-group-empty`: A review group of the Config's spec.review selects no cluster of the inventory, so no change ever names it or its owners.
    ReviewGroupEmpty,
    /// `plaintext-secret`: A Secret with data or stringData in the clear (not SOPS, not sealed) is written to the tree.
    PlaintextSecret,
    /// `sops-no-recipient`: A SOPS file reaches a cluster none of whose keys is among its recipients, so its Flux fails to decrypt it.
    SopsNoRecipient,
    /// `sealed-secret-shared`: A SealedSecret reaches clusters with different sealing certificates, so it unseals on one group at most.
    SealedSecretShared,
    /// `lazy-activation`: A propagation policy with activationPreference: Lazy, which Karmada applies to a template only when the template next changes.
    LazyActivation,
    /// `feature-gate-off`: A field or kind Karmada acts on only behind a feature gate that is off in the chosen release and Config.
    FeatureGateOff,
    /// `deprecated-field`: A policy value the chosen Karmada release deprecates and a later one refuses.
    DeprecatedField,
    /// `mcs-no-service`: A MultiClusterService with no Service of its name and namespace in the fleet.
    McsNoService,
    /// `mcs-no-backends`: A MultiClusterService whose provider clusters run no pods its Service selects, so consumers get no endpoints.
    McsNoBackends,
    /// `quota-exceeded`: With FederatedQuotaEnforcement on, a namespace's workloads request more than a FederatedResourceQuota's overall, so Karmada's binding webhook denies one of them.
    QuotaExceeded,
    /// `over-capacity`: A cluster receives workloads that request more than its status.resourceSummary has free, so pods stay Pending.
    OverCapacity,
    /// `shared-resource`: Two Argo CD Applications deploy the same object to one cluster, so they fight over it.
    SharedResource,
}

impl Lint {
    /// Every lint, in the order `--help` and the README list them.
    pub const ALL: [Lint; 43] = [
        Lint::UnknownCluster,
        Lint::TargetsNoCluster,
        Lint::OverridesNothing,
        Lint::SelectsNothing,
        Lint::UnplacedTemplate,
        Lint::UnplacedReplicas,
        Lint::PriorityTie,
        Lint::ShadowedPolicy,
        Lint::IgnoredField,
        Lint::NotModelled,
        Lint::SkippedInput,
        Lint::DependenciesNotFollowed,
        Lint::InvalidSelector,
        Lint::UndefinedNamespace,
        Lint::SchemaInvalid,
        Lint::UnknownField,
        Lint::PrunedField,
        Lint::RemovedApi,
        Lint::DeprecatedApi,
        Lint::UncheckedKind,
        Lint::UnknownScope,
        Lint::AssumedKubernetesVersion,
        Lint::DisabledApi,
        Lint::ImmutableField,
        Lint::PvcShrink,
        Lint::ReplicasZero,
        Lint::ReplicaShift,
        Lint::Pruned,
        Lint::HpaOwnsReplicas,
        Lint::PreservedOnDeletion,
        Lint::PolicyRelaxed,
        Lint::ReviewGroupEmpty,
        Lint::PlaintextSecret,
        Lint::SopsNoRecipient,
        Lint::SealedSecretShared,
        Lint::LazyActivation,
        Lint::FeatureGateOff,
        Lint::DeprecatedField,
        Lint::McsNoService,
        Lint::McsNoBackends,
        Lint::QuotaExceeded,
        Lint::OverCapacity,
        Lint::SharedResource,
    ];

    /// The lint's stable name (`unknown-cluster`), as flags and Configs write it.
    pub fn name(self) -> &'static str {
        match self {
            Lint::UnknownCluster => "unknown-cluster",
            Lint::TargetsNoCluster => "targets-no-cluster",
            Lint::OverridesNothing => "overrides-nothing",
            Lint::SelectsNothing => "selects-nothing",
            Lint::UnplacedTemplate => "unplaced-template",
            Lint::UnplacedReplicas => "unplaced-replicas",
            Lint::PriorityTie => "priority-tie",
            Lint::ShadowedPolicy => "shadowed-policy",
            Lint::IgnoredField => "ignored-field",
            Lint::NotModelled => "not-modelled",
            Lint::SkippedInput => "skipped-input",
            Lint::DependenciesNotFollowed => "dependencies-not-followed",
            Lint::InvalidSelector => "invalid-selector",
            Lint::UndefinedNamespace => "undefined-namespace",
            Lint::SchemaInvalid => "schema-invalid",
            Lint::UnknownField => "unknown-field",
            Lint::PrunedField => "pruned-field",
            Lint::RemovedApi => "removed-api",
            Lint::DeprecatedApi => "deprecated-api",
            Lint::UncheckedKind => "unchecked-kind",
            Lint::UnknownScope => "unknown-scope",
            Lint::AssumedKubernetesVersion => "assumed-kubernetes-version",
            Lint::DisabledApi => "disabled-api",
            Lint::ImmutableField => "immutable-field",
            Lint::PvcShrink => "pvc-shrink",
            Lint::ReplicasZero => "replicas-zero",
            Lint::ReplicaShift => "replica-shift",
            Lint::Pruned => "pruned",
            Lint::HpaOwnsReplicas => "hpa-owns-replicas",
            Lint::PreservedOnDeletion => "preserved-on-deletion",
            Lint::PolicyRelaxed => "policy-relaxed",
            Lint::ReviewGroupEmpty => "review-group-empty",
            Lint::PlaintextSecret => "plaintext-secret",
            Lint::SopsNoRecipient => "sops-no-recipient",
            Lint::SealedSecretShared => "sealed-secret-shared",
            Lint::LazyActivation => "lazy-activation",
            Lint::FeatureGateOff => "feature-gate-off",
            Lint::DeprecatedField => "deprecated-field",
            Lint::McsNoService => "mcs-no-service",
            Lint::McsNoBackends => "mcs-no-backends",
            Lint::QuotaExceeded => "quota-exceeded",
            Lint::OverCapacity => "over-capacity",
            Lint::SharedResource => "shared-resource",
        }
    }

    /// One line for `--help`-style listings and the README's table.
    pub fn summary(self) -> &'static str {
        match self {
            Lint::UnknownCluster => {
                "a policy, quota or preference names a cluster the inventory does not have"
            }
            Lint::TargetsNoCluster => {
                "an override rule's targetCluster matches no cluster that receives the object"
            }
            Lint::OverridesNothing => {
                "a command or args overrider changes nothing on a template its policy selects"
            }
            Lint::SelectsNothing => "a policy or KubeFed object selects no template",
            Lint::UnplacedTemplate => "a template no policy places, or that reaches no cluster",
            Lint::UnplacedReplicas => {
                "a ReplicaSchedulingPreference places fewer replicas than its total"
            }
            Lint::PriorityTie => "policies tie on priority for a template, so the name decides",
            Lint::ShadowedPolicy => {
                "a propagation policy matches templates but another policy wins every one"
            }
            Lint::IgnoredField => {
                "a field or annotation that Karmada, KubeFed or Federation v1 ignores"
            }
            Lint::NotModelled => "a setting of a live control plane that fedrender does not model",
            Lint::SkippedInput => "a file or directory of the input that is not read",
            Lint::DependenciesNotFollowed => {
                "Karmada's built-in interpretation fails on a template, so its dependencies stay"
            }
            Lint::InvalidSelector => {
                "a resource selector's label selector Karmada cannot convert, so it matches nothing"
            }
            Lint::UndefinedNamespace => {
                "objects are placed into a namespace that no template of the fleet defines"
            }
            Lint::SchemaInvalid => {
                "a cluster's API server would reject a value: wrong type, missing required field, out of range, not an allowed value"
            }
            Lint::UnknownField => {
                "a field a built-in kind does not have, which kubectl's strict field validation rejects"
            }
            Lint::PrunedField => {
                "a field a custom resource's CRD schema does not have, which the API server drops"
            }
            Lint::RemovedApi => "an apiVersion a cluster's Kubernetes version no longer serves",
            Lint::DeprecatedApi => {
                "an apiVersion a cluster serves but a later Kubernetes removes or a stabler one replaces"
            }
            Lint::UncheckedKind => "custom resources whose CRD the run does not have, so unchecked",
            Lint::UnknownScope => {
                "a custom resource without a namespace whose kind's scope no CRD states, taken as namespaced in default"
            }
            Lint::AssumedKubernetesVersion => {
                "a cluster's Kubernetes version is unstated (an API removed in the assumed newest \
                 is this warning) or has no schemas in fedrender, so the nearest is used"
            }
            Lint::DisabledApi => {
                "an alpha API, or a beta API new since 1.24, that a cluster serves only when enabled, and the inventory does not list its apiEnablements"
            }
            Lint::ImmutableField => {
                "diff: a change Kubernetes refuses on update (a selector, a StatefulSet's claim templates, a binding's roleRef), so the GitOps sync stops"
            }
            Lint::PvcShrink => {
                "diff: a PersistentVolumeClaim's storage request made smaller, which Kubernetes refuses"
            }
            Lint::ReplicasZero => {
                "diff: a workload going to 0 replicas on a cluster where it had some"
            }
            Lint::ReplicaShift => "diff: replicas moving between clusters, each synced on its own",
            Lint::Pruned => {
                "diff: an object leaving a cluster while its template stays, which the wiring's prune deletes"
            }
            Lint::HpaOwnsReplicas => {
                "diff: spec.replicas written for a workload a HorizontalPodAutoscaler scales, so the sync and the autoscaler fight"
            }
            Lint::PreservedOnDeletion => {
                "diff: a template deleted while its policy preserves what it placed, which a prune deletes unless the live objects carry build --gitops's exemption"
            }
            Lint::ReviewGroupEmpty => {
                "a review group of the Config's spec.review selects no cluster of the inventory, so no change ever names it or its owners"
            }
            Lint::PolicyRelaxed => {
                "diff: the pull request's Config lowers a lint level or adds a diff ignore rule, which the base's Config (or, with none, the defaults) keeps for this review"
            }
            Lint::PlaintextSecret => {
                "a Secret with data or stringData in the clear (not SOPS, not sealed) is written to the tree"
            }
            Lint::SopsNoRecipient => {
                "a SOPS file reaches a cluster none of whose keys is among its recipients, so its Flux fails to decrypt it"
            }
            Lint::SealedSecretShared => {
                "a SealedSecret reaches clusters with different sealing certificates, so it unseals on one group at most"
            }
            Lint::LazyActivation => {
                "a propagation policy with activationPreference: Lazy, which Karmada applies to a template only when the template next changes"
            }
            Lint::FeatureGateOff => {
                "a field or kind Karmada acts on only behind a feature gate that is off in the chosen release and Config"
            }
            Lint::DeprecatedField => {
                "a policy value the chosen Karmada release deprecates and a later one refuses"
            }
            Lint::McsNoService => {
                "a MultiClusterService with no Service of its name and namespace in the fleet"
            }
            Lint::McsNoBackends => {
                "a MultiClusterService whose provider clusters run no pods its Service selects, so consumers get no endpoints"
            }
            Lint::QuotaExceeded => {
                "with FederatedQuotaEnforcement on, a namespace's workloads request more than a FederatedResourceQuota's overall, so Karmada's binding webhook denies one of them"
            }
            Lint::OverCapacity => {
                "a cluster receives workloads that request more than its status.resourceSummary has free, so pods stay Pending"
            }
            Lint::SharedResource => {
                "two Argo CD Applications deploy the same object to one cluster, so each sync undoes the other's"
            }
        }
    }

    /// The level a lint has when nothing names it and `--strict` is off. What the API server
    /// rejects is an error; field validation's unknown fields too, as `kubectl apply` (strict
    /// by default since 1.27) fails on them. A SOPS file no key of its cluster opens is one
    /// too: Flux's kustomize-controller fails the whole Kustomization on it, so every object of
    /// that sync stops, not only the Secret. So is a quota Karmada's binding webhook enforces:
    /// it refuses the binding (403, reason QuotaExceeded) and that workload runs nowhere, while
    /// the tree would run it everywhere it is placed. So is an object two Argo CD Applications
    /// deploy to one cluster: Argo CD only warns (SharedResourceWarning) and the two then
    /// overwrite each other on every sync.
    pub(crate) fn default_level(self) -> Level {
        match self {
            Lint::SchemaInvalid
            | Lint::UnknownField
            | Lint::RemovedApi
            | Lint::SopsNoRecipient
            | Lint::QuotaExceeded
            | Lint::SharedResource => Level::Deny,
            _ => Level::Warn,
        }
    }

    pub(crate) fn from_name(name: &str) -> Option<Lint> {
        Lint::ALL.into_iter().find(|lint| lint.name() == name)
    }

    /// The lint a name means, or why it means none.
    pub fn parse(name: &str) -> Result<Lint, String> {
        Lint::from_name(name).ok_or_else(|| {
            let hint = crate::edit_distance::hint(
                crate::edit_distance::nearest(name, Lint::ALL.iter().map(|lint| lint.name())),
                crate::edit_distance::Hint::Before,
            );
            let names: Vec<&str> = Lint::ALL.iter().map(|lint| lint.name()).collect();
            format!(
                "unknown lint {name:?}; {hint}the lints are {}",
                names.join(", ")
            )
        })
    }
}

impl fmt::Display for Lint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a lint's warnings become.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Not reported.
    Allow,
    /// Reported; the run goes on.
    Warn,
    /// An error: the run fails with exit 2 and writes nothing.
    Deny,
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Level::Allow => "allow",
            Level::Warn => "warn",
            Level::Deny => "deny",
        })
    }
}

/// The level of every lint for one run. A level named for one lint beats `--strict`, and the
/// command line beats the fleet's Config, so a CI job can tighten or relax what a fleet says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LintLevels {
    /// `--strict`: every lint not named otherwise is denied.
    pub strict: bool,
    /// Levels named for single lints (`--deny unknown-cluster`, the Config's `spec.lints`).
    pub named: BTreeMap<Lint, Level>,
}

impl LintLevels {
    /// Every warning an error.
    pub fn strict() -> LintLevels {
        LintLevels {
            strict: true,
            named: BTreeMap::new(),
        }
    }

    /// These levels, with the fleet Config's for lints they do not name.
    pub fn over(&self, config: &BTreeMap<Lint, Level>) -> LintLevels {
        let mut named = config.clone();
        named.extend(self.named.iter().map(|(lint, level)| (*lint, *level)));
        LintLevels {
            strict: self.strict,
            named,
        }
    }

    /// These levels with `lints` allowed.
    pub(crate) fn allowing(mut self, lints: &[Lint]) -> LintLevels {
        self.named
            .extend(lints.iter().map(|&lint| (lint, Level::Allow)));
        self
    }

    /// The level `lint` has in this run.
    pub fn level(&self, lint: Lint) -> Level {
        match self.named.get(&lint) {
            Some(level) => *level,
            None if self.strict => Level::Deny,
            None => lint.default_level(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_parse_back() {
        let mut names: Vec<&str> = Lint::ALL.iter().map(|lint| lint.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Lint::ALL.len());
        for lint in Lint::ALL {
            assert_eq!(Lint::parse(lint.name()), Ok(lint));
        }
        let error = Lint::parse("unknown-clusters").unwrap_err();
        assert!(error.contains("did you mean unknown-cluster?"), "{error}");
    }

    #[test]
    fn a_named_level_beats_strict_and_the_command_line_beats_the_config() {
        let config = BTreeMap::from([
            (Lint::SelectsNothing, Level::Allow),
            (Lint::UnknownCluster, Level::Deny),
        ]);
        let command_line = LintLevels {
            strict: true,
            named: BTreeMap::from([(Lint::UnknownCluster, Level::Warn)]),
        };
        let levels = command_line.over(&config);
        assert_eq!(levels.level(Lint::SelectsNothing), Level::Allow);
        assert_eq!(levels.level(Lint::UnknownCluster), Level::Warn);
        assert_eq!(levels.level(Lint::PriorityTie), Level::Deny);
        assert_eq!(LintLevels::default().level(Lint::PriorityTie), Level::Warn);
    }
}
