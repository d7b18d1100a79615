//! Karmada's releases as data: which policy fields and purge modes each release's CRDs accept,
//! and which feature gates it has with their defaults. A fleet's policies are judged against
//! one release (`--karmada-version`, else the Config's `spec.karmada.version`, else the newest
//! fedrender knows) and the gates the Config turns on or off (`spec.karmada.featureGates`, as
//! Karmada's `--feature-gates`): a field or value the release's CRD refuses is an error, one it
//! deprecates a `deprecated-field` warning, and a field whose feature is behind a gate that is
//! off a `feature-gate-off` warning, since Karmada then ignores it.
//!
//! Every entry names where it was read: a tag (and commit) of karmada-io/karmada and the file.

use std::collections::BTreeMap;
use std::fmt;

use crate::api::config::KarmadaConfig;
use crate::diagnostics::{Diagnostic, Located, Origin, Rejected};
use crate::fleet::Fleet;
use crate::lint::Lint;
use crate::policy::Propagation;

/// One Karmada minor release: the tag its data was read from; its feature gates are
/// [`Release::gates`].
#[derive(Debug)]
pub struct Release {
    pub minor: u32,
    /// Where the release's data was read from, for whoever checks the table against Karmada.
    #[allow(dead_code)]
    pub tag: &'static str,
    #[allow(dead_code)]
    pub commit: &'static str,
}

/// Every feature gate of the releases fedrender knows, in the order Karmada added them, with its
/// default from each release where it changed, oldest first: a gate is in every release from
/// its first entry on (karmada pkg/features/features.go, `DefaultFeatureGates`, tag to tag).
/// v1.13 adds PriorityBasedScheduling, v1.14 FederatedQuotaEnforcement, v1.15 the logging
/// gates, MultiplePodTemplatesScheduling and ControllerPriorityQueue (off), v1.17
/// WorkloadAffinity and turns ControllerPriorityQueue on, v1.18 adds
/// SchedulingOvercommitProtection, and v1.19 turns PriorityBasedScheduling on (beta: commit
/// 94814650c, "Move priority based scheduling feature to beta", after v1.19.0-rc.0).
const GATES: &[(&str, &[(u32, bool)])] = &[
    ("Failover", &[(12, false)]),
    ("GracefulEviction", &[(12, true)]),
    ("PropagateDeps", &[(12, true)]),
    ("CustomizedClusterResourceModeling", &[(12, true)]),
    ("PropagationPolicyPreemption", &[(12, false)]),
    ("MultiClusterService", &[(12, false)]),
    ("ResourceQuotaEstimate", &[(12, false)]),
    ("StatefulFailoverInjection", &[(12, false)]),
    ("PriorityBasedScheduling", &[(13, false), (19, true)]),
    ("FederatedQuotaEnforcement", &[(14, false)]),
    ("LoggingAlphaOptions", &[(15, false)]),
    ("LoggingBetaOptions", &[(15, true)]),
    ("ContextualLogging", &[(15, true)]),
    ("MultiplePodTemplatesScheduling", &[(15, false)]),
    ("ControllerPriorityQueue", &[(15, false), (17, true)]),
    ("WorkloadAffinity", &[(17, false)]),
    ("SchedulingOvercommitProtection", &[(18, false)]),
];

/// The releases fedrender knows, oldest first; the last is the default.
pub(crate) const RELEASES: &[Release] = &[
    Release {
        minor: 12,
        tag: "v1.12.0",
        commit: "1bc955a23c65",
    },
    Release {
        minor: 13,
        tag: "v1.13.0",
        commit: "ecc12b4ce8da",
    },
    Release {
        minor: 14,
        tag: "v1.14.0",
        commit: "42dfade3feef",
    },
    Release {
        minor: 15,
        tag: "v1.15.0",
        commit: "d4402a750f6c",
    },
    Release {
        minor: 16,
        tag: "v1.16.0",
        commit: "b1ff49568525",
    },
    Release {
        minor: 17,
        tag: "v1.17.0",
        commit: "3abdf2555c76",
    },
    Release {
        minor: 18,
        tag: "v1.18.0",
        commit: "18d5e4a39371",
    },
    // The newest Karmada in the mirror, and the one the oracle runs: v1.19.0-rc.0 and 18
    // commits (`git describe`), which include the purge modes' removal and the gate change.
    Release {
        minor: 19,
        tag: "v1.19.0-rc.0-18-gf8fdd02df",
        commit: "f8fdd02df376",
    },
];

/// PropagationPolicy fields newer than v1.12, with the release that added each (karmada
/// pkg/apis/policy/v1alpha1/propagation_types.go, compared tag to tag).
const FIELDS_SINCE: &[(&str, u32)] = &[
    ("spec.schedulePriority", 13),
    ("spec.failover.cluster", 15),
    ("spec.placement.workloadAffinity", 17),
    ("spec.placement.clusterAffinities[].overflowAffinities", 18),
];

/// `failover.application.purgeMode` spellings: `Immediately` and `Graciously` until v1.14;
/// from v1.15 `Directly` and `Gracefully`, the old ones deprecated (karmada commit c3e5b1dc7,
/// "deprecated Immediately and Graciously PurgeMode"); from v1.19 the old ones are gone from
/// the CRD's enum (commit 2aeae1eea, "Remove deprecated PurgeMode values").
const RENAMED_PURGE_MODES: &[(&str, &str)] =
    &[("Immediately", "Directly"), ("Graciously", "Gracefully")];
const PURGE_MODES_RENAMED_IN: u32 = 15;
const OLD_PURGE_MODES_REMOVED_IN: u32 = 19;

/// A Karmada version as users write it: `1.19`, `v1.19`, `1.19.0`, `v1.19.0-rc.0`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct KarmadaVersion {
    pub minor: u32,
}

impl KarmadaVersion {
    pub fn parse(text: &str) -> Result<KarmadaVersion, String> {
        let trimmed = text.trim().trim_start_matches('v');
        let mut parts = trimmed.split(['.', '-']);
        let major = parts.next().and_then(|part| part.parse::<u32>().ok());
        let minor = parts.next().and_then(|part| part.parse::<u32>().ok());
        match (major, minor) {
            (Some(1), Some(minor)) => Ok(KarmadaVersion { minor }),
            _ => Err(format!(
                "{text:?} is not a Karmada version (1.MINOR, as in {})",
                newest().version()
            )),
        }
    }
}

impl fmt::Display for KarmadaVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "1.{}", self.minor)
    }
}

impl Release {
    pub fn version(&self) -> KarmadaVersion {
        KarmadaVersion { minor: self.minor }
    }

    /// The release's feature gates with their defaults, in the order Karmada added them
    /// ([`GATES`]).
    pub fn gates(&self) -> Vec<(&'static str, bool)> {
        GATES
            .iter()
            .filter_map(|(gate, defaults)| {
                let (_, default) = defaults
                    .iter()
                    .take_while(|(since, _)| *since <= self.minor)
                    .last()?;
                Some((*gate, *default))
            })
            .collect()
    }

    fn find(version: KarmadaVersion) -> Option<&'static Release> {
        RELEASES
            .iter()
            .find(|release| release.minor == version.minor)
    }
}

pub fn newest() -> &'static Release {
    RELEASES.last().expect("at least one release")
}

/// The release and gates a fleet is judged by.
#[derive(Debug)]
pub struct Chosen {
    pub release: &'static Release,
    /// Every gate of the release, on or off, the Config's choices applied.
    pub gates: BTreeMap<&'static str, bool>,
    /// The gates the Config names, for messages.
    pub(crate) turned_by_config: BTreeMap<&'static str, bool>,
}

impl Chosen {
    fn gate_off(&self, gate: &str) -> bool {
        self.gates.get(gate) == Some(&false)
    }
}

/// Chooses the release (`command_line`, else the Config's, else the newest) and applies the
/// Config's gates; a version fedrender does not know or a gate the release does not have is an
/// error at the line that names it.
pub fn choose(
    command_line: Option<&str>,
    config: Option<&Located<KarmadaConfig>>,
) -> Result<Chosen, Rejected> {
    let mut errors = Vec::new();
    let known = || {
        let versions: Vec<String> = RELEASES
            .iter()
            .map(|release| release.version().to_string())
            .collect();
        versions.join(", ")
    };
    let mut pick =
        |text: &str, origin: Option<Origin>, what: &str| match KarmadaVersion::parse(text) {
            Ok(version) => match Release::find(version) {
                Some(release) => Some(release),
                None => {
                    errors.push(Diagnostic::error(
                        origin,
                        format!("{what}: fedrender knows Karmada {}, not {version}", known()),
                    ));
                    None
                }
            },
            Err(problem) => {
                errors.push(Diagnostic::error(origin, format!("{what}: {problem}")));
                None
            }
        };
    let release = match (command_line, config.and_then(|c| c.item.version.as_deref())) {
        (Some(text), _) => pick(text, None, "--karmada-version"),
        (None, Some(text)) => {
            let config = config.expect("a version from a Config");
            let at = config.fields.origin(&config.origin, "spec.karmada.version");
            pick(text, Some(at), "Config: spec.karmada.version")
        }
        (None, None) => Some(newest()),
    };
    let Some(release) = release else {
        return Err(errors.into());
    };
    let mut gates: BTreeMap<&'static str, bool> = release.gates().iter().copied().collect();
    let mut turned_by_config = BTreeMap::new();
    if let Some(config) = config {
        for (name, &on) in &config.item.feature_gates {
            let at = config
                .fields
                .origin(&config.origin, &format!("spec.karmada.featureGates.{name}"));
            match release.gates().iter().find(|(gate, _)| gate == name) {
                Some(&(gate, _)) => {
                    gates.insert(gate, on);
                    turned_by_config.insert(gate, on);
                }
                None => {
                    let hint = crate::edit_distance::hint(
                        crate::edit_distance::nearest(
                            name,
                            release.gates().iter().map(|(gate, _)| *gate),
                        ),
                        crate::edit_distance::Hint::Before,
                    );
                    errors.push(Diagnostic::error(
                        Some(at),
                        format!(
                            "Config: spec.karmada.featureGates: Karmada {} has no feature gate \
                             {name:?}; {hint}its gates are {}",
                            release.version(),
                            release
                                .gates()
                                .iter()
                                .map(|(gate, _)| *gate)
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    ));
                }
            }
        }
    }
    if errors.is_empty() {
        Ok(Chosen {
            release,
            gates,
            turned_by_config,
        })
    } else {
        Err(errors.into())
    }
}

/// Judges every propagation policy of the fleet, and the templates whose kind is behind a
/// gate, against the chosen release: the warnings, or every error at once.
pub(crate) fn judge(fleet: &Fleet, chosen: &Chosen) -> Result<Vec<Diagnostic>, Rejected> {
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    let priority_classes: std::collections::BTreeSet<&str> = fleet
        .templates
        .iter()
        .filter(|t| t.group() == "scheduling.k8s.io" && t.kind() == "PriorityClass")
        .map(|t| t.name())
        .collect();
    for policy in &fleet.propagations {
        judge_policy(
            policy,
            chosen,
            &priority_classes,
            &mut errors,
            &mut warnings,
        );
    }
    for template in &fleet.templates {
        if let Some(gate) = gated_kind(template.group(), template.kind())
            && chosen.gate_off(gate)
        {
            warnings.push(
                Diagnostic::warning(
                    Lint::FeatureGateOff,
                    Some(template.origin.clone()),
                    format!(
                        "{}: {}",
                        template.key,
                        gate_off_message(chosen, gate, "Karmada does not act on this kind")
                    ),
                )
                .about_object(&template.key),
            );
        }
    }
    if chosen.gates.get("MultiplePodTemplatesScheduling") == Some(&true) {
        warnings.extend(components_not_modelled(fleet));
    }
    if errors.is_empty() {
        Ok(warnings)
    } else {
        Err(errors.into())
    }
}

/// Kinds whose built-in third-party interpretation has a `componentResource` rule (karmada
/// f8fdd02 pkg/resourceinterpreter/default/thirdparty/resourcecustomizations), by apiVersion
/// and kind.
const BUILT_IN_COMPONENTS: &[(&str, &str)] = &[
    ("batch.volcano.sh/v1alpha1", "Job"),
    ("flink.apache.org/v1beta1", "FlinkDeployment"),
    ("kubeflow.org/v1", "PyTorchJob"),
    ("kubeflow.org/v1", "TFJob"),
    ("kubeflow.org/v2beta1", "MPIJob"),
    ("ray.io/v1", "RayCluster"),
    ("ray.io/v1", "RayJob"),
    ("sparkoperator.k8s.io/v1beta2", "SparkApplication"),
];

/// With `MultiplePodTemplatesScheduling` on, Karmada schedules a kind whose interpretation
/// states its components (`componentResource`) as a whole, from each component's replicas and
/// requests (pkg/scheduler/core/common.go `SelectClusters`, `AssignReplicas`). fedrender does
/// not model it: upstream's design is still moving (the results reach the binding since
/// karmada#7833, their application to the Work and rescheduling on scale are open work in the
/// phase V umbrella, karmada#7895). One warning per such kind the fleet holds, at the
/// customization that states its components, or at its first template for a built-in one.
fn components_not_modelled(fleet: &Fleet) -> Vec<Diagnostic> {
    let stated: BTreeMap<String, &Origin> = fleet
        .interpreter
        .customizations()
        .ignored
        .iter()
        .filter(|ignored| ignored.fields.contains(&"componentResource"))
        .map(|ignored| (ignored.target.clone(), &ignored.origin))
        .collect();
    let mut warned = std::collections::BTreeSet::new();
    let mut warnings = Vec::new();
    for template in &fleet.templates {
        let target = format!("{} {}", template.api_version, template.kind());
        let built_in = BUILT_IN_COMPONENTS.iter().any(|(api_version, kind)| {
            *api_version == template.api_version && *kind == template.kind()
        });
        let origin = match stated.get(&target) {
            Some(origin) => (*origin).clone(),
            None if built_in => template.origin.clone(),
            None => continue,
        };
        if !warned.insert(target.clone()) {
            continue;
        }
        let by = if stated.contains_key(&target) {
            "this customization's componentResource"
        } else {
            "Karmada's built-in interpretation"
        };
        warnings.push(Diagnostic::warning(
            Lint::NotModelled,
            Some(origin),
            format!(
                "{target}: with MultiplePodTemplatesScheduling on, Karmada schedules it as a \
                 whole from the components {by} states; per-component scheduling is not \
                 modelled (Karmada's design of it is still changing), and fedrender places it \
                 as with the gate off"
            ),
        ));
    }
    warnings
}

/// Kinds Karmada acts on only behind a gate.
fn gated_kind(group: &str, kind: &str) -> Option<&'static str> {
    (group == "networking.karmada.io" && kind == "MultiClusterService")
        .then_some("MultiClusterService")
}

fn gate_off_message(chosen: &Chosen, gate: &str, consequence: &str) -> String {
    let why = match chosen.turned_by_config.get(gate) {
        Some(false) => "the Config turns it off".to_string(),
        _ => "off by default, and spec.karmada.featureGates of the Config does not turn it on"
            .to_string(),
    };
    format!(
        "Karmada {}'s {gate} feature gate is {why}, so {consequence}",
        chosen.release.version()
    )
}

fn judge_policy(
    policy: &Propagation,
    chosen: &Chosen,
    priority_classes: &std::collections::BTreeSet<&str>,
    errors: &mut Vec<Diagnostic>,
    warnings: &mut Vec<Diagnostic>,
) {
    let release = chosen.release;
    let at = |field: &str| policy.fields.origin(&policy.origin, field);
    let fields = &policy.release_fields;
    let failover = fields.failover.as_ref();
    let written: [(&str, bool); 4] = [
        ("spec.schedulePriority", fields.schedule_priority),
        (
            "spec.failover.cluster",
            failover.is_some_and(|f| f.cluster.is_some()),
        ),
        (
            "spec.placement.workloadAffinity",
            policy.placement.workload_affinity.is_some(),
        ),
        (
            "spec.placement.clusterAffinities[].overflowAffinities",
            policy
                .placement
                .cluster_affinities
                .as_ref()
                .is_some_and(|terms| {
                    terms
                        .iter()
                        .any(|term| !term.overflow_affinities.is_empty())
                }),
        ),
    ];
    for (field, is_written) in written {
        let since = FIELDS_SINCE
            .iter()
            .find(|(name, _)| *name == field)
            .map(|(_, since)| *since)
            .expect("every judged field has a release");
        if is_written && release.minor < since {
            errors.push(Diagnostic::error(
                Some(at(field.split("[]").next().unwrap_or(field))),
                format!(
                    "{}: {field}: Karmada {} has no such field; it came in Karmada 1.{since} \
                     (karmada pkg/apis/policy/v1alpha1/propagation_types.go)",
                    policy.id,
                    release.version()
                ),
            ));
        }
    }
    if let Some(mode) = failover
        .and_then(|f| f.application.as_ref())
        .and_then(|application| application.purge_mode.as_deref())
    {
        judge_purge_mode(
            policy,
            release,
            "spec.failover.application.purgeMode",
            mode,
            true,
            errors,
            warnings,
        );
    }
    if let Some(mode) = failover
        .and_then(|f| f.cluster.as_ref())
        .and_then(|cluster| cluster.purge_mode.as_deref())
        && release.minor >= PURGE_MODES_RENAMED_IN
    {
        judge_purge_mode(
            policy,
            release,
            "spec.failover.cluster.purgeMode",
            mode,
            false,
            errors,
            warnings,
        );
    }
    let mut gated: Vec<(&str, &str, &str)> = Vec::new();
    if failover.is_some_and(|f| f.cluster.is_some()) {
        gated.push((
            "spec.failover.cluster",
            "Failover",
            "Karmada does not move workloads off a failed cluster and this field has no effect",
        ));
    }
    for (field, state) in [
        (
            "spec.failover.application.statePreservation",
            failover
                .and_then(|f| f.application.as_ref())
                .is_some_and(|a| a.state_preservation.is_some()),
        ),
        (
            "spec.failover.cluster.statePreservation",
            failover
                .and_then(|f| f.cluster.as_ref())
                .is_some_and(|c| c.state_preservation.is_some()),
        ),
    ] {
        if state {
            gated.push((
                field,
                "StatefulFailoverInjection",
                "no state is carried to the new cluster on failover",
            ));
        }
    }
    if let Some(class) = &fields.schedule_priority_class
        && chosen.gates.get("PriorityBasedScheduling") == Some(&true)
        && !priority_classes.contains(class.as_str())
    {
        // karmada pkg/detector/detector.go BuildResourceBinding: with the gate on, a
        // KubePriorityClass is read from the control plane, and a missing one fails the binding.
        warnings.push(Diagnostic::warning(
            Lint::UnplacedTemplate,
            Some(at("spec.schedulePriority.priorityClassName")),
            format!(
                "{}: spec.schedulePriority: Karmada {} (PriorityBasedScheduling on) reads \
                 PriorityClass {class:?} from its control plane, and the fleet holds none: unless \
                 the control plane has one, Karmada fails to build the binding and propagates \
                 nothing this policy selects, while fedrender renders it as placed",
                policy.id,
                release.version()
            ),
        ));
    }
    if fields.schedule_priority {
        gated.push((
            "spec.schedulePriority",
            "PriorityBasedScheduling",
            "Karmada ignores this field",
        ));
    }
    if policy.placement.workload_affinity.is_some() {
        gated.push((
            "spec.placement.workloadAffinity",
            "WorkloadAffinity",
            "Karmada ignores this field",
        ));
    }
    if fields.preemption_always {
        gated.push((
            "spec.preemption",
            "PropagationPolicyPreemption",
            "this policy does not take templates from a lower-priority policy that already \
             claimed them",
        ));
    }
    for (field, gate, consequence) in gated {
        if gate == "WorkloadAffinity" && chosen.gates.get(gate) == Some(&true) {
            // Turned on, Karmada schedules by the placement of other workloads, which
            // fedrender does not read.
            warnings.push(Diagnostic::warning(
                Lint::NotModelled,
                Some(at(field)),
                format!(
                    "{}: {field}: scheduling next to or away from other workloads is not \
                     modelled; fedrender schedules as if the field were not there",
                    policy.id
                ),
            ));
        }
        if release.gates().iter().any(|(name, _)| *name == gate) && chosen.gate_off(gate) {
            warnings.push(Diagnostic::warning(
                Lint::FeatureGateOff,
                Some(at(field)),
                format!(
                    "{}: {field}: {}",
                    policy.id,
                    gate_off_message(chosen, gate, consequence)
                ),
            ));
        }
    }
}

/// One purge mode against the release's enum: `application` takes `Never` and, before v1.19,
/// the old spellings; `cluster` (v1.15 on) only ever took `Directly` and `Gracefully`.
fn judge_purge_mode(
    policy: &Propagation,
    release: &Release,
    field: &str,
    mode: &str,
    application: bool,
    errors: &mut Vec<Diagnostic>,
    warnings: &mut Vec<Diagnostic>,
) {
    let minor = release.minor;
    let renamed_to = RENAMED_PURGE_MODES
        .iter()
        .find(|(old, _)| *old == mode)
        .map(|(_, new)| *new);
    let renamed_from = RENAMED_PURGE_MODES
        .iter()
        .find(|(_, new)| *new == mode)
        .map(|(old, _)| *old);
    let mut accepted: Vec<&str> = Vec::new();
    if minor >= PURGE_MODES_RENAMED_IN {
        accepted.extend(["Directly", "Gracefully"]);
    }
    if application {
        if minor < OLD_PURGE_MODES_REMOVED_IN {
            accepted.extend(["Immediately", "Graciously"]);
        }
        accepted.push("Never");
    }
    let origin = Some(policy.fields.origin(&policy.origin, field));
    let version = release.version();
    if accepted.contains(&mode) {
        if let Some(new) = renamed_to
            && minor >= PURGE_MODES_RENAMED_IN
        {
            warnings.push(Diagnostic::warning(
                Lint::DeprecatedField,
                origin,
                format!(
                    "{}: {field}: {mode} is deprecated since Karmada 1.{PURGE_MODES_RENAMED_IN} \
                     and removed in 1.{OLD_PURGE_MODES_REMOVED_IN}, whose CRD refuses it: write \
                     {new}",
                    policy.id
                ),
            ));
        }
        return;
    }
    let message = match (renamed_to, renamed_from) {
        (Some(new), _) if !application => format!(
            "cluster failover has taken only Directly and Gracefully since it came in Karmada \
             1.{PURGE_MODES_RENAMED_IN}; Karmada {version}'s CRD refuses {mode}: write {new}"
        ),
        (Some(new), _) => format!(
            "{mode} was removed in Karmada 1.{OLD_PURGE_MODES_REMOVED_IN} (renamed {new} in \
             1.{PURGE_MODES_RENAMED_IN}); Karmada {version}'s CRD refuses it: write {new}"
        ),
        (_, Some(old)) if application => format!(
            "{mode} came in Karmada 1.{PURGE_MODES_RENAMED_IN}; Karmada {version}'s CRD \
             refuses it: write {old}"
        ),
        _ => format!(
            "Karmada {version}'s CRD refuses {mode:?}; it accepts {}",
            accepted.join(", ")
        ),
    };
    errors.push(Diagnostic::error(
        origin,
        format!("{}: {field}: {message}", policy.id),
    ));
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn config(version: Option<&str>, gates: &[(&str, bool)]) -> Located<KarmadaConfig> {
        Located {
            origin: Origin::new("fedrender.yaml", 0, 1),
            item: KarmadaConfig {
                version: version.map(str::to_string),
                feature_gates: gates
                    .iter()
                    .map(|(name, on)| (name.to_string(), *on))
                    .collect(),
                scheduler: Default::default(),
            },
            fields: Default::default(),
        }
    }

    fn fleet_with(spec: serde_json::Value) -> Fleet {
        let policy = crate::policy::admitted_for_test(json!({
            "apiVersion": "policy.karmada.io/v1alpha1",
            "kind": "PropagationPolicy",
            "metadata": {"name": "web", "namespace": "shop"},
            "spec": spec,
        }));
        Fleet {
            propagations: vec![policy],
            ..Fleet::default()
        }
    }

    fn messages(result: Result<Vec<Diagnostic>, Rejected>) -> Vec<String> {
        match result {
            Ok(warnings) => warnings.iter().map(ToString::to_string).collect(),
            Err(rejected) => rejected.errors.iter().map(ToString::to_string).collect(),
        }
    }

    #[test]
    fn versions_are_read_as_release_tags_and_flags_write_them() {
        for text in ["1.18", "v1.18", "1.18.2", "v1.18.0-rc.0"] {
            assert_eq!(
                KarmadaVersion::parse(text),
                Ok(KarmadaVersion { minor: 18 })
            );
        }
        assert!(KarmadaVersion::parse("2.0").is_err());
        assert!(KarmadaVersion::parse("latest").is_err());
    }

    /// The table itself: ascending, one entry a minor, the newest the default, and every gate
    /// a policy field depends on present from the release its field came in (features.go).
    #[test]
    fn the_release_table_is_ordered_and_complete() {
        let minors: Vec<u32> = RELEASES.iter().map(|release| release.minor).collect();
        assert_eq!(minors, (12..=19).collect::<Vec<_>>());
        assert_eq!(newest().tag, "v1.19.0-rc.0-18-gf8fdd02df");
        for release in RELEASES {
            let has = |gate: &str| release.gates().iter().any(|(name, _)| *name == gate);
            assert!(
                has("Failover") && has("MultiClusterService"),
                "{}",
                release.tag
            );
            assert_eq!(has("PriorityBasedScheduling"), release.minor >= 13);
            assert_eq!(has("WorkloadAffinity"), release.minor >= 17);
        }
    }

    /// The one gate table gives each release the gates its features.go lists, in order: eight
    /// in v1.12, one more in v1.13 and v1.14, five more in v1.15 (v1.16 the same), then one
    /// more in v1.17 and v1.18; ControllerPriorityQueue on from v1.17, PriorityBasedScheduling
    /// from v1.19.
    #[test]
    fn each_release_gets_its_gates_from_the_one_table() {
        let counts: Vec<usize> = RELEASES
            .iter()
            .map(|release| release.gates().len())
            .collect();
        assert_eq!(counts, [8, 9, 10, 15, 15, 16, 17, 17]);
        let default = |minor: u32, gate: &str| {
            let release = RELEASES
                .iter()
                .find(|release| release.minor == minor)
                .unwrap();
            release
                .gates()
                .iter()
                .find(|(name, _)| *name == gate)
                .map(|(_, on)| *on)
        };
        assert_eq!(default(12, "Failover"), Some(false));
        assert_eq!(default(12, "GracefulEviction"), Some(true));
        assert_eq!(default(16, "ControllerPriorityQueue"), Some(false));
        assert_eq!(default(17, "ControllerPriorityQueue"), Some(true));
        assert_eq!(default(18, "PriorityBasedScheduling"), Some(false));
        assert_eq!(default(19, "PriorityBasedScheduling"), Some(true));
        assert_eq!(default(17, "SchedulingOvercommitProtection"), None);
        let newest: Vec<&str> = newest().gates().iter().map(|(gate, _)| *gate).collect();
        assert_eq!(newest.first(), Some(&"Failover"));
        assert_eq!(newest.last(), Some(&"SchedulingOvercommitProtection"));
    }

    #[test]
    fn the_command_line_beats_the_config_and_gates_must_exist_in_the_release() {
        let chosen = choose(Some("1.17"), Some(&config(Some("1.15"), &[]))).unwrap();
        assert_eq!(chosen.release.minor, 17);
        let chosen = choose(None, Some(&config(Some("1.15"), &[]))).unwrap();
        assert_eq!(chosen.release.minor, 15);
        assert_eq!(choose(None, None).unwrap().release.minor, 19);
        let unknown = choose(Some("1.9"), None).unwrap_err().to_string();
        assert!(
            unknown.contains("fedrender knows Karmada 1.12, 1.13"),
            "{unknown}"
        );
        let typo = choose(None, Some(&config(None, &[("MultiClusterServices", true)])))
            .unwrap_err()
            .to_string();
        assert!(typo.contains("did you mean MultiClusterService?"), "{typo}");
        // WorkloadAffinity came in 1.17 (features.go at v1.17.0).
        let too_old = choose(
            None,
            Some(&config(Some("1.16"), &[("WorkloadAffinity", true)])),
        );
        assert!(too_old.is_err());
    }

    #[test]
    fn a_field_newer_than_the_release_is_an_error() {
        // workloadAffinity is in propagation_types.go from v1.17.0 on.
        let fleet = fleet_with(json!({
            "resourceSelectors": [{"apiVersion": "apps/v1", "kind": "Deployment"}],
            "placement": {"workloadAffinity": {"affinity": {"groupByLabelKey": "app"}}},
        }));
        let old = choose(Some("1.16"), None).unwrap();
        let errors = messages(judge(&fleet, &old));
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(
            errors[0].contains("spec.placement.workloadAffinity: Karmada 1.16 has no such field; it came in Karmada 1.17"),
            "{errors:?}"
        );
        // 1.17 has it behind its gate, off by default.
        let warnings = messages(judge(&fleet, &choose(Some("1.17"), None).unwrap()));
        assert!(warnings[0].contains("[feature-gate-off]"), "{warnings:?}");
    }

    #[test]
    fn a_gate_the_config_turns_on_silences_its_warning() {
        let fleet = fleet_with(json!({
            "resourceSelectors": [{"apiVersion": "apps/v1", "kind": "Deployment"}],
            "schedulePriority": {"priorityClassSource": "KubePriorityClass", "priorityClassName": "high"},
        }));
        let off = choose(Some("1.18"), None).unwrap();
        let warnings = messages(judge(&fleet, &off));
        assert!(
            warnings
                .iter()
                .any(|w| w.contains("PriorityBasedScheduling feature gate is off by default")),
            "{warnings:?}"
        );
        let on = choose(
            Some("1.18"),
            Some(&config(None, &[("PriorityBasedScheduling", true)])),
        )
        .unwrap();
        // On, the PriorityClass it names is read from the control plane: the fleet has none.
        let on_warnings = messages(judge(&fleet, &on));
        assert_eq!(on_warnings.len(), 1, "{on_warnings:?}");
        assert!(
            on_warnings[0].contains("reads PriorityClass \"high\" from its control plane"),
            "{on_warnings:?}"
        );
        // 1.19 has the gate on by default (features.go at f8fdd02).
        let newest_warnings = messages(judge(&fleet, &choose(None, None).unwrap()));
        assert_eq!(newest_warnings.len(), 1, "{newest_warnings:?}");
        assert!(newest_warnings[0].contains("Karmada 1.19 (PriorityBasedScheduling on)"));
        let turned_off = choose(
            None,
            Some(&config(None, &[("PriorityBasedScheduling", false)])),
        )
        .unwrap();
        let warnings = messages(judge(&fleet, &turned_off));
        assert!(
            warnings[0].contains("the Config turns it off"),
            "{warnings:?}"
        );
    }

    /// ClusterFailoverBehavior's enum has been Directly;Gracefully since it came (v1.15.0).
    #[test]
    fn a_cluster_purge_mode_never_took_the_old_spellings() {
        let fleet = fleet_with(json!({
            "resourceSelectors": [{"apiVersion": "apps/v1", "kind": "Deployment"}],
            "failover": {"cluster": {"purgeMode": "Graciously"}},
        }));
        let errors = messages(judge(&fleet, &choose(Some("1.18"), None).unwrap()));
        assert!(
            errors[0].contains("spec.failover.cluster.purgeMode: cluster failover has taken only Directly and Gracefully since it came in Karmada 1.15; Karmada 1.18's CRD refuses Graciously: write Gracefully"),
            "{errors:?}"
        );
    }
}
