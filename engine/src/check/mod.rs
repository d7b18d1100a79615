//! Will each cluster accept it: every rendered object checked, offline, as its cluster's API
//! server would check it — against the OpenAPI schema of that cluster's Kubernetes version
//! ([`mod@builtin`]), or its CRD's schema ([`crd`]), with the validator in [`schema`]. An object
//! is checked once per distinct Kubernetes version among the clusters that receive it.

pub mod builtin;
mod cel;
mod constraints;
pub mod crd;
mod crd_creation;
mod crd_decoding;
mod crd_defaults;
mod crd_structure;
mod decode;
mod field_path;
mod formats;
#[cfg(test)]
mod judge_replay;
mod list_type;
mod object_meta;
mod properties;
mod ratchet;
mod refusal;
#[cfg(test)]
mod reused_checks;
pub mod schema;
mod served_by_default;

use std::collections::BTreeMap;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::Value;

use crate::diagnostics::{Diagnostic, Origin};
use crate::fields::Fields;
use crate::lint::Lint;
use crate::redact;
use builtin::{Builtin, Recording, Seen, VersionSchemas, api_stability, builtin};
pub use builtin::{GroupVersionKind, KubernetesVersion};
pub use crd::CrdSource;
use crd::{CustomResources, Lookup};
pub use ratchet::RATCHETING_SINCE_MINOR;
use schema::{Definitions, FindingKind, Found, Limits, OverBudget, Spent};

/// The lints of schema checking: when every one is allowed, nothing is checked.
pub const LINTS: [Lint; 8] = [
    Lint::SchemaInvalid,
    Lint::UnknownField,
    Lint::PrunedField,
    Lint::RemovedApi,
    Lint::DeprecatedApi,
    Lint::UncheckedKind,
    Lint::AssumedKubernetesVersion,
    Lint::DisabledApi,
];

/// Something a cluster's API server would say of an object.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Finding {
    pub lint: Lint,
    /// The field, as Kubernetes writes field paths (`spec.containers[0].ports[0].containerPort`);
    /// empty for the object as a whole (its apiVersion).
    pub path: String,
    pub problem: String,
}

/// Where a cluster's Kubernetes version came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VersionSource {
    /// `--kubernetes-version`.
    CommandLine,
    /// The inventory's `status.kubernetesVersion`.
    Inventory,
    /// The fleet Config's `spec.kubernetesVersion`.
    Config,
    /// Nothing said: the newest version fedrender knows.
    Newest,
}

/// The version a cluster's objects are checked against, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClusterVersion {
    pub version: KubernetesVersion,
    pub source: VersionSource,
}

impl fmt::Display for ClusterVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let source = match self.source {
            VersionSource::CommandLine => "--kubernetes-version",
            VersionSource::Inventory => "the inventory",
            VersionSource::Config => "the Config",
            VersionSource::Newest => "assumed: the newest known",
        };
        write!(f, "Kubernetes {} ({source})", self.version)
    }
}

/// `--kubernetes-version [CLUSTER=]VERSION`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VersionChoice {
    pub cluster: Option<String>,
    pub version: KubernetesVersion,
}

impl VersionChoice {
    pub fn parse(text: &str) -> Result<VersionChoice, String> {
        let (cluster, version) = match text.split_once('=') {
            Some((cluster, version)) => (Some(cluster.to_string()), version),
            None => (None, text),
        };
        Ok(VersionChoice {
            cluster,
            version: KubernetesVersion::parse(version)?,
        })
    }
}

/// Each cluster's version: a per-cluster `--kubernetes-version`, else one for every cluster,
/// else the inventory's, else the Config's, else the newest known. A version outside the
/// embedded schemas is checked against the nearest one, with a warning. `clusters` is the
/// inventory, by name, with what it states.
pub fn choose_versions(
    clusters: &[(&str, Option<&str>)],
    command_line: &[VersionChoice],
    config: Option<(KubernetesVersion, &Origin)>,
) -> Result<(Vec<ClusterVersion>, Vec<Diagnostic>), Vec<Diagnostic>> {
    let builtin = builtin();
    let mut errors = Vec::new();
    for choice in command_line {
        if let Some(name) = &choice.cluster
            && !clusters.iter().any(|(cluster, _)| cluster == name)
        {
            let names = clusters.iter().map(|(cluster, _)| *cluster);
            errors.push(Diagnostic::error(
                None,
                format!(
                    "--kubernetes-version {name}={}: the inventory has no cluster {name:?}{}",
                    choice.version,
                    crate::edit_distance::did_you_mean(crate::edit_distance::nearest_name(
                        name, names
                    ))
                ),
            ));
        }
    }
    let every = command_line
        .iter()
        .rev()
        .find(|choice| choice.cluster.is_none());
    let mut versions = Vec::with_capacity(clusters.len());
    let mut outside: BTreeMap<(KubernetesVersion, KubernetesVersion), Vec<&str>> = BTreeMap::new();
    for &(name, stated) in clusters {
        let named = command_line
            .iter()
            .rev()
            .find(|choice| choice.cluster.as_deref() == Some(name));
        let chosen = match (named.or(every), stated) {
            (Some(choice), _) => ClusterVersion {
                version: choice.version,
                source: VersionSource::CommandLine,
            },
            (None, Some(stated)) => match KubernetesVersion::parse(stated) {
                Ok(version) => ClusterVersion {
                    version,
                    source: VersionSource::Inventory,
                },
                Err(problem) => {
                    errors.push(Diagnostic::error(
                        None,
                        format!("cluster {name}: status.kubernetesVersion: {problem}"),
                    ));
                    continue;
                }
            },
            (None, None) => match config {
                Some((version, _)) => ClusterVersion {
                    version,
                    source: VersionSource::Config,
                },
                // Said in each finding's message and in the plan, not warned of: a valid
                // fleet stays silent.
                None => ClusterVersion {
                    version: builtin.newest(),
                    source: VersionSource::Newest,
                },
            },
        };
        let nearest = chosen.version.clamp(builtin.oldest(), builtin.newest());
        if nearest != chosen.version {
            outside
                .entry((chosen.version, nearest))
                .or_default()
                .push(name);
        }
        versions.push(ClusterVersion {
            version: nearest,
            ..chosen
        });
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut warnings = Vec::new();
    for ((version, nearest), names) in outside {
        let bound = if nearest == builtin.oldest() {
            "the oldest"
        } else {
            "the newest"
        };
        warnings.push(Diagnostic::warning(
            Lint::AssumedKubernetesVersion,
            config
                .filter(|(configured, _)| *configured == version)
                .map(|(_, origin)| origin.clone()),
            format!(
                "{} Kubernetes {version}: checked against {nearest}, {bound} version whose \
                 schemas fedrender has",
                clusters_phrase(&names, "runs", "run")
            ),
        ));
    }
    Ok((versions, warnings))
}

/// `cluster a states` / `clusters a, b state`.
fn clusters_phrase(names: &[&str], one: &str, many: &str) -> String {
    match names {
        [name] => format!("cluster {name} {one}"),
        _ => format!("clusters {} {many}", names.join(", ")),
    }
}

/// A cluster's `status.apiEnablements`, as Karmada lists them: each group version with the
/// kinds of its resources.
pub type ApiEnablements = Vec<(String, Vec<String>)>;

/// Checks objects for the clusters that receive them.
pub struct Checker {
    /// Per cluster of the inventory, by position.
    versions: Vec<ClusterVersion>,
    /// Per cluster of the inventory, by position, its `status.apiEnablements` (group version
    /// and kinds) where the inventory lists them.
    enablements: Vec<Option<ApiEnablements>>,
    custom: CustomResources,
    builtin: &'static Builtin,
    /// What is left of the run's budget for schema and CEL checks.
    run: RunBudget,
    /// The built-in definitions whose values a check notes ([`builtin::Recording`]).
    movable: std::sync::OnceLock<Vec<u64>>,
}

impl fmt::Debug for Checker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Checker")
            .field("versions", &self.versions)
            .finish_non_exhaustive()
    }
}

impl Checker {
    /// A checker for an inventory whose clusters run `versions`, knowing the CRDs given, the
    /// first definition of a kind winning; one too large for an API server is left out
    /// ([`Checker::with_crds`] refuses it).
    pub fn new<'a>(
        versions: Vec<ClusterVersion>,
        crds: impl IntoIterator<Item = &'a Value>,
    ) -> Checker {
        let mut custom = CustomResources::default();
        let minors: Vec<u32> = versions.iter().map(|v| v.version.minor).collect();
        for crd in crds {
            let _ = custom.add(crd, None, CrdSource::CommandLine, &minors);
        }
        Checker {
            versions,
            enablements: Vec::new(),
            custom,
            builtin: builtin(),
            run: RunBudget::new(RUN_STEPS, RUN_CEL),
            movable: Default::default(),
        }
    }

    /// A checker for an inventory whose clusters run `versions`, knowing the fleet's CRDs and
    /// those the command line gives, each with where it was read. The command line's
    /// definition of a kind wins over the fleet's, with a warning when they differ (returned);
    /// a CRD larger than an API server takes ([`crd::MAX_CRD_BYTES`]) is an error at its line.
    pub fn with_crds<'a>(
        versions: Vec<ClusterVersion>,
        fleet: impl IntoIterator<Item = (&'a Value, &'a Origin)>,
        command_line: impl IntoIterator<Item = (&'a Value, &'a Origin)>,
    ) -> Result<(Checker, Vec<Diagnostic>), Vec<Diagnostic>> {
        let mut custom = CustomResources::default();
        let mut warnings = Vec::new();
        let mut errors = Vec::new();
        let fleet = fleet.into_iter().map(|crd| (crd, CrdSource::Fleet));
        let command_line = command_line
            .into_iter()
            .map(|crd| (crd, CrdSource::CommandLine));
        let minors: Vec<u32> = versions.iter().map(|v| v.version.minor).collect();
        for ((crd, origin), source) in fleet.chain(command_line) {
            match custom.add(crd, Some(origin), source, &minors) {
                Ok(warning) => warnings.extend(warning),
                Err(refusals) => errors.extend(refusals),
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let checker = Checker {
            versions,
            enablements: Vec::new(),
            custom,
            builtin: builtin(),
            run: RunBudget::new(RUN_STEPS, RUN_CEL),
            movable: Default::default(),
        };
        Ok((checker, warnings))
    }

    /// The APIs each cluster of the inventory (by position) serves, where its
    /// `status.apiEnablements` lists them: they decide whether an API that is off by default is
    /// served there.
    pub fn with_api_enablements(mut self, enablements: Vec<Option<ApiEnablements>>) -> Checker {
        self.enablements = enablements;
        self
    }

    /// The same checker with a run budget of `steps` schema steps and `cel` CEL cost in all,
    /// instead of [`RUN_STEPS`] and [`RUN_CEL`].
    pub fn with_run_budget(mut self, steps: u64, cel: u64) -> Checker {
        self.run = RunBudget::new(steps, cel);
        self
    }

    /// The version a cluster (a position in the inventory) is checked against.
    pub fn version_of(&self, cluster: usize) -> ClusterVersion {
        self.versions[cluster]
    }

    /// What the API servers of `clusters` (positions in the inventory) say of `object`: each
    /// finding with the clusters, ascending, it holds on. The object is checked once per
    /// distinct version among them — once in all for a custom resource, whose CRD is the same
    /// on every version (unless its schema has a format only some versions check).
    pub fn check(&self, object: &Value, clusters: &[usize]) -> Vec<(Finding, Vec<usize>)> {
        let custom = object
            .field("apiVersion")
            .and_then(Value::as_str)
            .is_some_and(|api_version| {
                !self.is_builtin(&GroupVersionKind::of(api_version, "").group)
                    && !self.has_versioned_formats(object)
            });
        let mut by_version: BTreeMap<KubernetesVersion, Vec<usize>> = BTreeMap::new();
        for &cluster in clusters {
            let version = match clusters.first() {
                Some(&first) if custom => self.versions[first].version,
                _ => self.versions[cluster].version,
            };
            by_version.entry(version).or_default().push(cluster);
        }
        let mut found: BTreeMap<Finding, Vec<usize>> = BTreeMap::new();
        let mut memo = Memo::default();
        for (version, clusters) in by_version {
            for finding in self.check_at_with(object, version, &mut memo) {
                found.entry(finding).or_default().extend(&clusters);
            }
            if !custom {
                for (finding, cluster) in self.not_enabled(object, version, &clusters) {
                    found.entry(finding).or_default().push(cluster);
                }
            }
        }
        found
            .into_iter()
            .map(|(finding, mut clusters)| {
                clusters.sort_unstable();
                (finding, clusters)
            })
            .collect()
    }

    /// Of a built-in object whose API `version` serves only when enabled, what each of
    /// `clusters` says: where the inventory lists the cluster's `apiEnablements` they decide
    /// (not listed, it is not served); elsewhere a [`Lint::DisabledApi`] warning names what
    /// enables it.
    fn not_enabled(
        &self,
        object: &Value,
        version: KubernetesVersion,
        clusters: &[usize],
    ) -> Vec<(Finding, usize)> {
        let (Some(api_version), Some(kind)) = (
            object.field("apiVersion").and_then(Value::as_str),
            object.field("kind").and_then(Value::as_str),
        ) else {
            return Vec::new();
        };
        if api_stability(api_version.rsplit('/').next().unwrap_or_default()) == 0 {
            // GA: served by default; the common case, decided before anything is looked up.
            return Vec::new();
        }
        let gvk = GroupVersionKind::of(api_version, kind);
        let schemas = self.builtin.at(version).expect("within the embedded");
        if self.builtin.kind(schemas, &gvk).is_none() {
            // Not served at all: removed-api says so.
            return Vec::new();
        }
        let Some(problem) = served_by_default::off_by_default(&gvk, version) else {
            return Vec::new();
        };
        clusters
            .iter()
            .filter_map(|&cluster| {
                let finding = match self.enablements.get(cluster).and_then(Option::as_ref) {
                    Some(listed) if served_by_default::enabled(listed, &gvk) => return None,
                    Some(_) => Finding {
                        lint: Lint::SchemaInvalid,
                        path: "apiVersion".to_string(),
                        problem: format!(
                            "{gvk} is not in the cluster's status.apiEnablements, so its API \
                             server does not serve it ({problem})"
                        ),
                    },
                    None => Finding {
                        lint: Lint::DisabledApi,
                        path: "apiVersion".to_string(),
                        problem: format!(
                            "{problem}; the inventory lists no status.apiEnablements for the \
                             cluster to say whether it does"
                        ),
                    },
                };
                Some((finding, cluster))
            })
            .collect()
    }

    /// What an API server of `version` says of `object`: at most [`FINDINGS_PER_LINT`]
    /// findings of each lint, and then one that counts the rest.
    pub fn check_at(&self, object: &Value, version: KubernetesVersion) -> Vec<Finding> {
        self.check_at_with(object, version, &mut Memo::default())
    }

    /// [`Checker::check_at`], with what the object's checks at other minors found.
    fn check_at_with(
        &self,
        object: &Value,
        version: KubernetesVersion,
        memo: &mut Memo,
    ) -> Vec<Finding> {
        let (Some(api_version), Some(kind)) = (
            object.field("apiVersion").and_then(Value::as_str),
            object.field("kind").and_then(Value::as_str),
        ) else {
            return Vec::new();
        };
        let gvk = GroupVersionKind::of(api_version, kind);
        let findings = if self.is_builtin(&gvk.group) {
            self.check_builtin(object, &gvk, version, memo)
        } else {
            self.check_custom(object, None, &gvk, version)
        };
        without_secret_values(findings, &[object])
    }

    /// Whether `object` is a custom resource whose CRD's schema has a format the API server
    /// checks only from some version on.
    fn has_versioned_formats(&self, object: &Value) -> bool {
        let (Some(api_version), Some(kind)) = (
            object.field("apiVersion").and_then(Value::as_str),
            object.field("kind").and_then(Value::as_str),
        ) else {
            return false;
        };
        matches!(self.custom.lookup(&GroupVersionKind::of(api_version, kind)),
            Lookup::Schema { schema, .. } if schema.has_versioned_formats())
    }

    /// Kubernetes' own groups, with those it no longer serves at all.
    fn is_builtin(&self, group: &str) -> bool {
        self.builtin.is_builtin_group(group) || REMOVED_GROUPS.contains(&group)
    }

    fn check_builtin(
        &self,
        object: &Value,
        gvk: &GroupVersionKind,
        version: KubernetesVersion,
        memo: &mut Memo,
    ) -> Vec<Finding> {
        let builtin = self.builtin;
        let schemas = builtin
            .at(version)
            .expect("cluster versions are within the embedded ones");
        let (Some((schema, definitions)), Some(root)) =
            (builtin.kind(schemas, gvk), builtin.kind_index(schemas, gvk))
        else {
            return vec![self.not_served(gvk, version)];
        };
        let mut findings = self.validate_builtin(
            memo,
            (schemas, root),
            schema,
            (object, Recording::new(definitions, self.movable())),
            || format!("Kubernetes {version}'s schema of {gvk}"),
        );
        if let Some(problem) = builtin.deprecation(schemas, gvk) {
            findings.push(Finding {
                lint: Lint::DeprecatedApi,
                path: String::new(),
                problem: problem.to_string(),
            });
        }
        findings
    }

    /// The finding for a built-in kind `version` does not serve: removed, not yet served, or
    /// no such kind.
    fn not_served(&self, gvk: &GroupVersionKind, version: KubernetesVersion) -> Finding {
        let builtin = self.builtin;
        let schemas = builtin.at(version).expect("checked by the caller");
        let serving = builtin.serving(gvk);
        let replacement = || {
            let same_group = builtin.alternatives(schemas, gvk).into_iter().next();
            let moved = || {
                // extensions/v1beta1 Ingress lives on in networking.k8s.io.
                let mut elsewhere: Vec<GroupVersionKind> = builtin
                    .groups_serving_kind(schemas, &gvk.kind)
                    .into_iter()
                    .filter(|other| api_stability(&other.version) == 0)
                    .collect();
                elsewhere.sort();
                elsewhere.into_iter().next()
            };
            match same_group.or_else(moved) {
                Some(other) => format!("; use {}", other.api_version()),
                None => String::new(),
            }
        };
        let (lint, problem) = match (serving.first(), serving.last()) {
            (Some(first), _) if *first > version => (
                Lint::RemovedApi,
                format!(
                    "Kubernetes {version} does not serve {gvk} yet (served from {first}){}",
                    replacement()
                ),
            ),
            (_, Some(last)) => (
                Lint::RemovedApi,
                format!(
                    "{gvk} was removed in Kubernetes 1.{}{}",
                    last.minor + 1,
                    replacement()
                ),
            ),
            _ if self.kind_known_anywhere(&gvk.kind) => (
                Lint::RemovedApi,
                format!(
                    "{gvk} was removed before Kubernetes {}{}",
                    builtin.oldest(),
                    replacement()
                ),
            ),
            _ => {
                let kinds = builtin.kinds_of_group(&gvk.group);
                (
                    Lint::SchemaInvalid,
                    format!(
                        "Kubernetes has no kind {} in {}{}",
                        gvk.kind,
                        gvk.api_version(),
                        crate::edit_distance::did_you_mean(crate::edit_distance::nearest(
                            &gvk.kind, kinds
                        ))
                    ),
                )
            }
        };
        Finding {
            lint,
            path: "apiVersion".to_string(),
            problem,
        }
    }

    fn kind_known_anywhere(&self, kind: &str) -> bool {
        let newest = self
            .builtin
            .at(self.builtin.newest())
            .expect("newest exists");
        !self.builtin.groups_serving_kind(newest, kind).is_empty() || REMOVED_KINDS.contains(&kind)
    }

    /// A custom resource created, or (with `old`, the stored object) updated.
    fn check_custom(
        &self,
        object: &Value,
        old: Option<&Value>,
        gvk: &GroupVersionKind,
        version: KubernetesVersion,
    ) -> Vec<Finding> {
        match self.custom.lookup(gvk) {
            Lookup::Unknown => Vec::new(),
            Lookup::Unchecked => metadata_findings(object),
            Lookup::Refused {
                crd,
                origin,
                refused_by,
            } => {
                let versions: Vec<String> = refused_by
                    .iter()
                    .map(|minor| format!("1.{minor}"))
                    .collect();
                vec![Finding {
                    lint: Lint::UncheckedKind,
                    path: String::new(),
                    problem: format!(
                        "not checked: the API server of Kubernetes {} refuses to create its \
                         CRD {}, so no cluster there serves the kind",
                        versions.join(", "),
                        crd::named(crd, origin)
                    ),
                }]
            }
            Lookup::NotServed { crd, served } => vec![Finding {
                lint: Lint::SchemaInvalid,
                path: "apiVersion".to_string(),
                problem: format!(
                    "the CRD {crd} does not serve {}{}",
                    gvk.api_version(),
                    if served.is_empty() {
                        " (it serves no version)".to_string()
                    } else {
                        format!(" (it serves {})", served.join(", "))
                    }
                ),
            }],
            Lookup::Schema {
                crd,
                origin,
                schema,
            } => {
                // Decoded as the API server decodes a request (pruned, nulls dropped,
                // defaulted), then validated.
                let decoded = decode::decode(schema, object, FINDINGS_PER_LINT);
                let mut found = Found::default();
                for path in decoded.pruned {
                    found.note(
                        schema::Finding {
                            kind: FindingKind::PrunedField,
                            path,
                            problem: "is not in the CRD's schema: the API server drops it"
                                .to_string(),
                        },
                        FINDINGS_PER_LINT,
                    );
                }
                found.count_more(&FindingKind::PrunedField, decoded.pruned_more);
                let object = decoded.value.as_ref().unwrap_or(object);
                // The stored object was decoded as this one is.
                let old = old.map(|old| {
                    let mut old = old.clone();
                    decode::decode_in_place(schema, &mut old);
                    old
                });
                let ratcheting = version.minor >= RATCHETING_SINCE_MINOR;
                let update = old
                    .as_ref()
                    .map(|old| ratchet::Update::new(schema, old, object, ratcheting));
                let mut findings = metadata_findings(object);
                findings.extend(
                    self.validate(
                        schema,
                        (object, update.as_ref()),
                        &NoDefinitions,
                        || format!("the CRD {}", crd::named(crd, origin)),
                        (found, compatibility_minor(version)),
                    )
                    .0,
                );
                findings
            }
        }
    }

    /// What an API server of `version` says of the update of `old` (the stored object: the
    /// base's in `diff`) to `new`. A custom resource is judged whole as an update
    /// (the `ratchet` module): decoded on both sides, its rules that read `oldSelf` run, and from
    /// Kubernetes 1.30 what is wrong with a value the update leaves as it was is ratcheted.
    /// Anything else — a built-in kind, a change of apiVersion (the API server would convert
    /// the old object first, which fedrender cannot) — is judged as [`Checker::check_at`]
    /// judges it.
    pub fn check_change_at(
        &self,
        old: &Value,
        new: &Value,
        version: KubernetesVersion,
    ) -> Vec<Finding> {
        let (Some(api_version), Some(kind)) = (
            new.field("apiVersion").and_then(Value::as_str),
            new.field("kind").and_then(Value::as_str),
        ) else {
            return Vec::new();
        };
        let gvk = GroupVersionKind::of(api_version, kind);
        if self.is_builtin(&gvk.group)
            || old.field("apiVersion").and_then(Value::as_str) != Some(api_version)
            || old.field("kind").and_then(Value::as_str) != Some(kind)
        {
            return without_secret_values(self.check_at(new, version), &[old]);
        }
        without_secret_values(
            self.check_custom(new, Some(old), &gvk, version),
            &[old, new],
        )
    }

    /// The kinds of `objects` that are checked against nothing: custom resources whose CRD is
    /// neither in the fleet nor given with `--crds`. One warning per kind, with a count and the
    /// first object's origin.
    pub fn unchecked_kinds<'a>(
        &self,
        objects: impl IntoIterator<Item = (&'a Value, &'a Origin)>,
    ) -> Vec<Diagnostic> {
        let mut unchecked: BTreeMap<GroupVersionKind, (usize, &Origin)> = BTreeMap::new();
        for (object, origin) in objects {
            let (Some(api_version), Some(kind)) = (
                object.field("apiVersion").and_then(Value::as_str),
                object.field("kind").and_then(Value::as_str),
            ) else {
                continue;
            };
            let gvk = GroupVersionKind::of(api_version, kind);
            if self.is_builtin(&gvk.group) || !matches!(self.custom.lookup(&gvk), Lookup::Unknown) {
                continue;
            }
            unchecked.entry(gvk).or_insert((0, origin)).0 += 1;
        }
        unchecked
            .into_iter()
            .map(|(gvk, (count, origin))| {
                Diagnostic::warning(
                    Lint::UncheckedKind,
                    Some(origin.clone()),
                    format!(
                        "{gvk}: {} not checked: the fleet and --crds have no CRD for the kind",
                        if count == 1 {
                            "1 object".to_string()
                        } else {
                            format!("{count} objects")
                        }
                    ),
                )
            })
            .collect()
    }
}

/// What the API server says of a custom resource's metadata ([`object_meta`]).
fn metadata_findings(object: &Value) -> Vec<Finding> {
    object_meta::check(object)
        .into_iter()
        .map(|(lint, path, problem)| Finding {
            lint,
            path,
            problem,
        })
        .collect()
}

/// Groups Kubernetes served before 1.25 and serves no more.
const REMOVED_GROUPS: [&str; 1] = ["extensions"];

/// Kinds Kubernetes served before 1.25 that no group serves any more.
const REMOVED_KINDS: [&str; 1] = ["PodSecurityPolicy"];

struct NoDefinitions;

impl Definitions for NoDefinitions {
    fn definition(&self, _: &str) -> Option<&schema::Schema> {
        None
    }
}

/// The steps ([`schema::Schema::validate`]) one check of an object may take: enough for any
/// schema's fixed costs (a long `required` list is one step a field), and as many again for
/// each value the object holds. A schema whose anyOf, oneOf and allOf choices nest the same
/// large choices again (cheap to write with YAML aliases) multiplies the work per value; past
/// the budget the object is not checked — an error: fedrender does not call valid what it
/// could not check.
pub const BUDGET_BASE: u64 = 250_000;
pub const BUDGET_PER_VALUE: u64 = 100;

/// The schema steps a whole run may take, over every object it checks (pattern compilation
/// included): about 20 seconds of checking on one core at the slowest, and a thousand times
/// what the benchmark fleet's 10,000 objects take. Past it every object still to be checked is
/// refused, not passed.
pub const RUN_STEPS: u64 = 2_000_000_000;

/// The CEL cost a whole run may take, over every object: ten objects at the API server's
/// budget for one (`cel::OBJECT_BUDGET`). Each object keeps the API server's own budget
/// within what the run has left; past the run's, the rest is refused, not passed.
pub const RUN_CEL: u64 = 100_000_000;

/// How many findings of one lint a check of one object reports before it counts the rest.
pub const FINDINGS_PER_LINT: usize = 20;

/// The minor of the minimum compatibility version an API server of `version` has: one minor
/// older (k8s.io/component-base compatibility), which decides the formats a CRD checks.
fn compatibility_minor(version: KubernetesVersion) -> u32 {
    version.minor.saturating_sub(1)
}

/// What is left of a run's budget for checks, shared by the threads that check objects.
#[derive(Debug)]
struct RunBudget {
    steps: AtomicU64,
    cel: AtomicU64,
    /// The budget the run began with, for the message once it is spent.
    total: (u64, u64),
}

impl RunBudget {
    fn new(steps: u64, cel: u64) -> RunBudget {
        RunBudget {
            steps: AtomicU64::new(steps),
            cel: AtomicU64::new(cel),
            total: (steps, cel),
        }
    }

    fn left(&self) -> (u64, u64) {
        (
            self.steps.load(Ordering::Relaxed),
            self.cel.load(Ordering::Relaxed),
        )
    }

    /// Takes what a check spent (never below zero).
    fn charge(&self, steps: u64, cel: u64) {
        let take = |counter: &AtomicU64, amount: u64| {
            let _ = counter.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| {
                Some(left.saturating_sub(amount))
            });
        };
        take(&self.steps, steps);
        take(&self.cel, cel);
    }

    /// The finding of an object left unchecked because the run's budget is spent. Which
    /// objects those are depends on the order they were checked in, which threads decide;
    /// that the run fails does not.
    fn spent(&self) -> Finding {
        Finding {
            lint: Lint::SchemaInvalid,
            path: String::new(),
            problem: format!(
                "not checked: the run's budget for schema and CEL checks is spent ({} schema \
                 steps and {} CEL cost in all, fedrender's limit for one run, so that no fleet \
                 keeps it busy for minutes); fedrender does not call valid what it did not check",
                thousands(self.total.0),
                thousands(self.total.1)
            ),
        }
    }
}

impl Checker {
    /// `object` against `schema` within the budget for its size and what is left of the run's
    /// (as the new object of `update`, when it is one); `judge` names the schema (`the CRD widgets.example.io (fleet/crds.yaml:1)`) for the
    /// finding that it was too costly; `found` holds decoding's findings, and the minor of the
    /// API server's compatibility version decides the formats checked. With the findings, what
    /// the check spent when it was done within the base budget.
    fn validate(
        &self,
        schema: &schema::Schema,
        (object, update): (&Value, Option<&ratchet::Update<'_>>),
        definitions: &dyn Definitions,
        judge: impl FnOnce() -> String,
        (found, compatibility_minor): (Found, u32),
    ) -> (Vec<Finding>, Option<Spent>) {
        let (run_steps, run_cel) = self.run.left();
        if run_steps == 0 || run_cel == 0 {
            return (vec![self.run.spent()], None);
        }
        let limits = |steps: u64| Limits {
            steps: steps.min(run_steps),
            cel: run_cel,
            compatibility_minor,
        };
        // Nearly every object is checked within the base budget alone; only one that is not is
        // counted (a walk of its every value) for its whole budget, and checked again from the
        // start.
        let first = limits(BUDGET_BASE);
        let validate = |limits, found| {
            schema.validate_update_with(
                object,
                update,
                definitions,
                limits,
                FINDINGS_PER_LINT,
                found,
            )
        };
        match validate(first, found.clone()) {
            Ok((found, spent)) => {
                self.charge(spent);
                return (findings_of(found), Some(spent));
            }
            Err(OverBudget) => self.run.charge(first.steps, 0),
        }
        let values = count_values(object);
        let budget = BUDGET_BASE.saturating_add(BUDGET_PER_VALUE.saturating_mul(values));
        let second = limits(budget);
        let findings = match validate(second, found) {
            Ok((found, spent)) => {
                self.charge(spent);
                findings_of(found)
            }
            Err(OverBudget) => {
                self.run.charge(second.steps, 0);
                if second.steps < budget {
                    return (vec![self.run.spent()], None);
                }
                vec![Finding {
                    lint: Lint::SchemaInvalid,
                    path: String::new(),
                    problem: format!(
                        "not checked: checking it against {} takes more than {} steps, the \
                         budget for an object of {} values (the schema's anyOf, oneOf and allOf \
                         choices multiply the work); fedrender does not call valid what it could \
                         not check",
                        judge(),
                        thousands(budget),
                        thousands(values)
                    ),
                }]
            }
        };
        (findings, None)
    }

    fn charge(&self, spent: Spent) {
        self.run
            .charge(spent.steps.saturating_add(spent.compiled), spent.cel);
    }
}

/// What checks of one built-in object found at the minors checked so far, each with what it
/// read: a later minor that reads the same takes its findings ([`Checker::validate_builtin`]).
#[derive(Default)]
struct Memo {
    earlier: Vec<Earlier>,
}

/// One check done within the base budget.
struct Earlier {
    version: KubernetesVersion,
    /// The kind's definition, and every definition a reference resolved to.
    root: usize,
    seen: Seen,
    findings: Vec<Finding>,
    spent: Spent,
}

impl Checker {
    /// The built-in definitions some name resolves to in one of the inventory's versions and
    /// not in another: the values checked against them are noted.
    fn movable(&self) -> &[u64] {
        self.movable.get_or_init(|| {
            let minors: Vec<KubernetesVersion> = self
                .versions
                .iter()
                .map(|version| version.version)
                .collect();
            self.builtin.movable_among(&minors)
        })
    }

    /// What the schema of `version` (`schemas`), whose definition `root` is the kind's, says of
    /// the built-in `object` — the findings of an earlier minor of `memo` where they are
    /// provably the same. A built-in kind's schema has no rules, no CRD formats and no
    /// patterns (`Schema::from_kubernetes`), so its walk reads nothing of the version but its
    /// definitions: with the same root and every reference the earlier walk took resolving
    /// to the same definition, each step is the same, and with it the findings and the steps
    /// spent. Within the base budget either way: the earlier walk took no more steps than
    /// this check would have been allowed (the run's budget falls as checks run).
    fn validate_builtin(
        &self,
        memo: &mut Memo,
        (schemas, root): (&VersionSchemas, usize),
        schema: &schema::Schema,
        (object, definitions): (&Value, Recording<'_>),
        judge: impl FnOnce() -> String,
    ) -> Vec<Finding> {
        let builtin = self.builtin;
        let (run_steps, run_cel) = self.run.left();
        let reusable = memo.earlier.iter().find(|earlier| {
            earlier.root == root
                && run_steps > 0
                && run_cel > 0
                && earlier.spent.steps <= run_steps.min(BUDGET_BASE)
                && builtin
                    .at(earlier.version)
                    .is_some_and(|from| builtin.resolves_alike(from, schemas, &earlier.seen))
        });
        if let Some(earlier) = reusable {
            self.charge(earlier.spent);
            return earlier.findings.clone();
        }
        let minor = compatibility_minor(schemas.version);
        let (findings, within_base) = self.validate(
            schema,
            (object, None),
            &definitions,
            judge,
            (Found::default(), minor),
        );
        if let (Some(spent), Some(seen)) = (within_base, definitions.seen()) {
            memo.earlier.push(Earlier {
                version: schemas.version,
                root,
                seen,
                findings: findings.clone(),
                spent,
            });
        }
        findings
    }
}

/// How many values `object` holds: itself, and every item and field value within, at any depth.
fn count_values(object: &Value) -> u64 {
    let mut count = 0;
    let mut stack = vec![object];
    while let Some(value) = stack.pop() {
        count += 1;
        match value {
            Value::Array(items) => stack.extend(items),
            Value::Object(fields) => stack.extend(fields.values()),
            _ => {}
        }
    }
    count
}

/// `findings` with no value of a Secret among `objects` in them (`crate::redact`): the checker
/// quotes the value it judges, and a Secret's is not to be shown.
fn without_secret_values(mut findings: Vec<Finding>, objects: &[&Value]) -> Vec<Finding> {
    let hidden: Vec<Value> = objects
        .iter()
        .flat_map(|object| redact::values(object))
        .collect();
    if hidden.is_empty() {
        return findings;
    }
    for finding in &mut findings {
        finding.problem = redact::scrub(&finding.problem, &hidden, formats::describe);
    }
    findings
}

/// The schema's findings as the lints that report them, with a count of what each left out.
fn findings_of(found: schema::Found) -> Vec<Finding> {
    let lint = |kind: &FindingKind| match kind {
        FindingKind::Invalid => Lint::SchemaInvalid,
        FindingKind::UnknownField => Lint::UnknownField,
        FindingKind::PrunedField => Lint::PrunedField,
    };
    let more = FindingKind::ALL.map(|kind| (found.more(&kind), kind));
    let mut findings: Vec<Finding> = found
        .findings
        .into_iter()
        .map(|finding| Finding {
            lint: lint(&finding.kind),
            path: finding.path,
            problem: finding.problem,
        })
        .collect();
    // Every lint found is still reported, so its level still decides the run.
    for (more, kind) in more {
        if more > 0 {
            findings.push(Finding {
                lint: lint(&kind),
                path: String::new(),
                problem: format!(
                    "… and {} more findings in this object",
                    thousands(more as u64)
                ),
            });
        }
    }
    findings
}

/// `99,980`.
fn thousands(number: u64) -> String {
    let digits = number.to_string();
    let mut text = String::with_capacity(digits.len() + digits.len() / 3);
    for (position, digit) in digits.chars().enumerate() {
        if position > 0 && (digits.len() - position).is_multiple_of(3) {
            text.push(',');
        }
        text.push(digit);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn v(minor: u32) -> KubernetesVersion {
        KubernetesVersion { minor }
    }

    fn choice(text: &str) -> VersionChoice {
        VersionChoice::parse(text).unwrap()
    }

    /// A named flag beats the flag for every cluster, which beats the inventory, which beats
    /// the Config, which beats the newest known.
    #[test]
    fn each_cluster_gets_the_version_said_most_specifically() {
        let origin = Origin::new("fleet/config.yaml", 0, 4);
        let clusters = [
            ("stated", Some("v1.29.3-eks-1")),
            ("unstated", None),
            ("named", Some("v1.30.0")),
        ];
        let source_and_version = |flags: &[VersionChoice], config| {
            let (versions, warnings) = choose_versions(&clusters, flags, config).unwrap();
            assert!(warnings.is_empty(), "{warnings:?}");
            versions
                .iter()
                .map(|chosen| (chosen.source, chosen.version.minor))
                .collect::<Vec<_>>()
        };
        let newest = builtin().newest().minor;
        assert_eq!(
            source_and_version(&[], None),
            [
                (VersionSource::Inventory, 29),
                (VersionSource::Newest, newest),
                (VersionSource::Inventory, 30)
            ]
        );
        assert_eq!(
            source_and_version(&[], Some((v(33), &origin))),
            [
                (VersionSource::Inventory, 29),
                (VersionSource::Config, 33),
                (VersionSource::Inventory, 30)
            ]
        );
        assert_eq!(
            source_and_version(
                &[choice("named=1.27"), choice("1.36")],
                Some((v(33), &origin))
            ),
            [
                (VersionSource::CommandLine, 36),
                (VersionSource::CommandLine, 36),
                (VersionSource::CommandLine, 27)
            ]
        );
    }

    #[test]
    fn a_version_without_schemas_is_checked_against_the_nearest_with_a_warning() {
        let clusters = [("old", Some("v1.14.0")), ("also-old", Some("1.15"))];
        let (versions, warnings) = choose_versions(&clusters, &[], None).unwrap();
        assert_eq!(versions[0].version, builtin().oldest());
        assert_eq!(versions[1].version, builtin().oldest());
        let messages: Vec<&str> = warnings.iter().map(|w| w.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "cluster old runs Kubernetes 1.14: checked against 1.16, the oldest version whose schemas fedrender has",
                "cluster also-old runs Kubernetes 1.15: checked against 1.16, the oldest version whose schemas fedrender has",
            ]
        );
        let unreadable = choose_versions(&[("x", Some("next"))], &[], None).unwrap_err();
        assert!(unreadable[0].message.contains("status.kubernetesVersion"));
    }

    fn findings_at(object: Value, minor: u32) -> Vec<(Lint, String)> {
        Checker::new(Vec::new(), [])
            .check_at(&object, v(minor))
            .into_iter()
            .map(|finding| (finding.lint, finding.problem))
            .collect()
    }

    /// The Kubernetes deprecation guide: flowcontrol.apiserver.k8s.io/v1beta3 is served until
    /// 1.31 and removed in 1.32, in favour of v1 (GA in 1.29).
    #[test]
    fn removed_and_deprecated_apis_follow_the_cluster_version() {
        let flow = json!({"apiVersion": "flowcontrol.apiserver.k8s.io/v1beta3",
            "kind": "PriorityLevelConfiguration", "metadata": {"name": "p"},
            "spec": {"type": "Exempt"}});
        assert_eq!(
            findings_at(flow.clone(), 31),
            [(
                Lint::DeprecatedApi,
                "flowcontrol.apiserver.k8s.io/v1beta3 PriorityLevelConfiguration is deprecated; \
                 Kubernetes 1.32 no longer serves it; use flowcontrol.apiserver.k8s.io/v1"
                    .to_string()
            )]
        );
        assert_eq!(
            findings_at(flow, 32),
            [(
                Lint::RemovedApi,
                "flowcontrol.apiserver.k8s.io/v1beta3 PriorityLevelConfiguration was removed in \
                 Kubernetes 1.32; use flowcontrol.apiserver.k8s.io/v1"
                    .to_string()
            )]
        );
        let ingress = json!({"apiVersion": "extensions/v1beta1", "kind": "Ingress",
            "metadata": {"name": "i"}});
        assert_eq!(
            findings_at(ingress.clone(), 30),
            [(
                Lint::RemovedApi,
                "extensions/v1beta1 Ingress was removed in Kubernetes 1.22; use networking.k8s.io/v1"
                    .to_string()
            )]
        );
        // Issue 48: a 1.16 cluster still serves it (deprecated, as its schema says).
        assert!(
            findings_at(ingress, 16)
                .iter()
                .all(|(lint, _)| *lint == Lint::DeprecatedApi),
            "{:?}",
            findings_at(
                json!({"apiVersion": "extensions/v1beta1", "kind": "Ingress", "metadata": {"name": "i"}}),
                16
            )
        );
        let typo =
            json!({"apiVersion": "apps/v1", "kind": "Deploymnet", "metadata": {"name": "d"}});
        assert_eq!(
            findings_at(typo, 30),
            [(
                Lint::SchemaInvalid,
                "Kubernetes has no kind Deploymnet in apps/v1; did you mean Deployment?"
                    .to_string()
            )]
        );
    }

    /// A custom resource is checked against its CRD's served version; one the CRD does not
    /// serve is refused, as the API server has no such resource.
    #[test]
    fn custom_resources_are_checked_against_the_served_version_of_their_crd() {
        let crd = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.io"},
        "spec": {"group": "example.io", "names": {"kind": "Widget"}, "versions": [
            {"name": "v1", "served": true, "schema": {"openAPIV3Schema": {"type": "object",
                "properties": {"spec": {"type": "object", "properties": {"size": {"type": "integer"}}}}}}},
            {"name": "v2", "served": false, "schema": {"openAPIV3Schema": {"type": "object"}}},
        ]}});
        let checker = Checker::new(Vec::new(), [&crd]);
        let widget = |version: &str, size: Value| {
            json!({"apiVersion": format!("example.io/{version}"), "kind": "Widget",
                "metadata": {"name": "w"}, "spec": {"size": size}})
        };
        assert!(checker.check_at(&widget("v1", json!(3)), v(33)).is_empty());
        let wrong = checker.check_at(&widget("v1", json!("3")), v(33));
        assert_eq!(wrong[0].path, "spec.size");
        let unserved = checker.check_at(&widget("v2", json!(3)), v(33));
        assert_eq!(
            unserved[0].problem,
            "the CRD widgets.example.io does not serve example.io/v2 (it serves v1)"
        );
        let origin = Origin::new("w.yaml", 0, 1);
        let gadget =
            json!({"apiVersion": "example.io/v1", "kind": "Gadget", "metadata": {"name": "g"}});
        let warnings = checker.unchecked_kinds([(&gadget, &origin), (&gadget, &origin)]);
        assert_eq!(
            warnings[0].message,
            "example.io/v1 Gadget: 2 objects not checked: the fleet and --crds have no CRD for the kind"
        );
    }

    /// resource.k8s.io/v1beta1 is off by default (KEP-3136; Kubernetes 1.32 release notes):
    /// a cluster whose apiEnablements list it serves it, one whose list lacks it does not, and
    /// one with no list is warned of.
    #[test]
    fn api_enablements_decide_whether_an_api_off_by_default_is_served() {
        let stated = ClusterVersion {
            version: v(33),
            source: VersionSource::Inventory,
        };
        let enabled = vec![(
            "resource.k8s.io/v1beta1".to_string(),
            vec!["DeviceClass".to_string()],
        )];
        let checker = Checker::new(vec![stated; 3], []).with_api_enablements(vec![
            Some(enabled),
            Some(Vec::new()),
            None,
        ]);
        let class = json!({"apiVersion": "resource.k8s.io/v1beta1", "kind": "DeviceClass",
            "metadata": {"name": "gpu"}, "spec": {}});
        let found: Vec<(Lint, Vec<usize>)> = checker
            .check(&class, &[0, 1, 2])
            .into_iter()
            .filter(|(finding, _)| finding.lint != Lint::DeprecatedApi)
            .map(|(finding, clusters)| (finding.lint, clusters))
            .collect();
        assert_eq!(
            found,
            [(Lint::SchemaInvalid, vec![1]), (Lint::DisabledApi, vec![2])]
        );
        let deployment = json!({"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "d"}, "spec": {"selector": {}, "template": {}}});
        assert!(
            checker
                .check(&deployment, &[0, 1, 2])
                .iter()
                .all(|(finding, _)| finding.lint != Lint::DisabledApi)
        );
    }

    /// A CRD for example.io Widget whose `spec` has the schema given.
    fn widget_crd(spec: Value) -> Value {
        json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.io"},
        "spec": {"group": "example.io", "names": {"kind": "Widget"}, "versions": [
            {"name": "v1", "served": true, "schema": {"openAPIV3Schema": {"type": "object",
                "properties": {"spec": spec}}}},
        ]}})
    }

    fn widget(spec: Value) -> Value {
        json!({"apiVersion": "example.io/v1", "kind": "Widget",
            "metadata": {"name": "w"}, "spec": spec})
    }

    /// An anyOf of anyOfs (what YAML aliases make cheap to write) costs its every node for each
    /// value it checks; past the budget for the object's size, the object is reported as not
    /// checked — an error, even against the trusted --crds: fedrender fails closed — instead
    /// of checked for minutes.
    #[test]
    fn an_object_past_its_budget_is_not_checked_and_says_so() {
        let mut fan_out = json!({"type": "string"});
        for _ in 0..4 {
            fan_out = json!({"anyOf": vec![fan_out; 8]});
        }
        let crd = widget_crd(json!({"type": "array", "items": fan_out}));
        let checker = Checker::new(Vec::new(), [&crd]);
        // 4,681 steps an item, 468,100 in all; the budget is 250,000 and 100 a value, of 106.
        let items = json!((0..100).collect::<Vec<_>>());
        let findings = checker.check_at(&widget(items), v(33));
        assert_eq!(
            findings,
            [Finding {
                lint: Lint::SchemaInvalid,
                path: String::new(),
                problem: "not checked: checking it against the CRD widgets.example.io takes \
                    more than 260,600 steps, the budget for an object of 106 values (the \
                    schema's anyOf, oneOf and allOf choices multiply the work); fedrender does \
                    not call valid what it could not check"
                    .to_string()
            }]
        );
        // Strings fit the first leaf: a few steps an item, well within the budget.
        let strings = json!(vec!["a"; 100]);
        assert_eq!(checker.check_at(&widget(strings), v(33)), []);
    }

    /// The run's budget is shared by every check: once it is spent, each object still to be
    /// checked is an error, not a pass — even against the trusted --crds (issue 47: 100 small
    /// objects ran for 43 s). CEL has a budget of its own for the run, within which each object
    /// keeps the API server's.
    #[test]
    fn a_run_past_its_budget_fails_closed() {
        let crd = widget_crd(json!({"type": "object", "properties": {
            "size": {"type": "integer", "x-kubernetes-validations": [{"rule": "self < 100"}]}}}));
        let checker = Checker::new(Vec::new(), [&crd]).with_run_budget(40, RUN_CEL);
        let object = widget(json!({"size": 3}));
        assert_eq!(checker.check_at(&object, v(33)), []);
        let spent = loop {
            let findings = checker.check_at(&object, v(33));
            if !findings.is_empty() {
                break findings;
            }
        };
        assert_eq!(spent.len(), 1);
        assert_eq!(spent[0].lint, Lint::SchemaInvalid);
        assert!(
            spent[0].problem.starts_with(
                "not checked: the run's budget for schema and CEL checks is spent (40 schema steps"
            ),
            "{spent:?}"
        );
        // Every later object too, whatever it is.
        let deployment = json!({"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "d"}, "spec": {"selector": {}, "template": {}}});
        assert_eq!(checker.check_at(&deployment, v(33)), spent);

        let checker = Checker::new(Vec::new(), [&crd]).with_run_budget(RUN_STEPS, 1);
        let findings = checker.check_at(&object, v(33));
        assert_eq!(findings.len(), 1, "{findings:?}");
        assert!(
            findings[0]
                .problem
                .contains("the run's budget for CEL rules is spent"),
            "{findings:?}"
        );
    }

    /// An object is first checked within the base budget alone, and counted for its whole budget
    /// only when that runs out: one that needs more than the base but fits its own budget is
    /// still checked in full.
    #[test]
    fn an_object_past_the_base_budget_but_within_its_own_is_checked() {
        let mut fan_out = json!({"type": "string"});
        for _ in 0..2 {
            fan_out = json!({"anyOf": vec![fan_out; 8]});
        }
        let crd = widget_crd(json!({"type": "array", "items": fan_out}));
        let checker = Checker::new(Vec::new(), [&crd]);
        // 73 steps an integer, 730,000 in all: past the base of 250,000, within the 1,250,600
        // of an object of 10,006 values.
        let findings = checker.check_at(&widget(json!(vec![7; 10_000])), v(33));
        assert_eq!(findings.len(), 21, "{findings:?}");
        assert_eq!(findings[0].lint, Lint::SchemaInvalid);
        assert_eq!(findings[0].path, "spec[0]");
        assert!(
            findings
                .iter()
                .all(|finding| finding.lint == Lint::SchemaInvalid),
            "{findings:?}"
        );
    }

    /// 100,000 missing required fields are 20 findings and one that counts the rest; each lint
    /// keeps its own, so a denied one still fails the run.
    #[test]
    fn findings_are_capped_per_lint_and_the_rest_counted() {
        let required: Vec<String> = (0..100_000).map(|n| format!("field{n}")).collect();
        let crd = widget_crd(json!({"type": "object", "required": required,
            "properties": {"size": {"type": "integer"}}}));
        let checker = Checker::new(Vec::new(), [&crd]);
        let unknown: serde_json::Map<String, Value> =
            (0..25).map(|n| (format!("extra{n}"), json!(n))).collect();
        let findings = checker.check_at(&widget(Value::Object(unknown)), v(33));
        let lines: Vec<String> = findings
            .iter()
            .map(|finding| format!("{} {}: {}", finding.lint, finding.path, finding.problem))
            .collect();
        assert_eq!(lines.len(), 42, "{lines:#?}");
        assert_eq!(lines[0], "schema-invalid spec.field0: is required");
        assert_eq!(lines[19], "schema-invalid spec.field19: is required");
        assert_eq!(
            lines[20],
            "pruned-field spec.extra0: is not in the CRD's schema: the API server drops it"
        );
        assert_eq!(
            lines[40..],
            [
                "schema-invalid : … and 99,980 more findings in this object",
                "pruned-field : … and 5 more findings in this object",
            ]
        );
    }

    #[test]
    fn numbers_are_written_with_thousands_separated() {
        let written: Vec<String> = [0, 999, 1000, 99_980, 1_234_567]
            .into_iter()
            .map(thousands)
            .collect();
        assert_eq!(written, ["0", "999", "1,000", "99,980", "1,234,567"]);
    }
}
