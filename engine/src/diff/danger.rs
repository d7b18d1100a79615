//! Danger lints: the changes of a fleet diff that break a deploy or lose something, found per
//! cluster and reported once per rule and object with the clusters they happen on.
//!
//! Each rule reads the two manifests of one object on one cluster (parsed with the engine's
//! YAML reader, numbers compared by value so `3` and `3.0` are the same), except the ones that
//! need the whole change: replicas moving between clusters, a template deleted while its policy
//! preserves what it placed. What Kubernetes refuses on update is taken from its validation
//! code (k8s.io/kubernetes pkg/apis/{apps,batch,core,rbac,storage}/validation, the
//! `Validate*Update` functions).

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use serde_json::Value;

use super::change::{ChangeKind, FleetDiff, ObjectChange, parse_object};
pub use super::change::{Finding, FindingLevel};
use super::immutable::immutable_changes;
use crate::check::{self, Checker, GroupVersionKind, KubernetesVersion};
use crate::diagnostics::{Diagnostic, Origin, Severity};
use crate::lint::{Level, Lint, LintLevels};
use crate::object::ObjectKey;
use crate::output::gitops::{ARGO_SYNC_OPTIONS, FLUX_PRUNE};
use crate::quantity::quantity_from_json;

/// The lints `diff` raises.
pub const LINTS: [Lint; 7] = [
    Lint::ImmutableField,
    Lint::PvcShrink,
    Lint::ReplicasZero,
    Lint::ReplicaShift,
    Lint::Pruned,
    Lint::HpaOwnsReplicas,
    Lint::PreservedOnDeletion,
];

/// What the rules need beyond the diff: the head's templates, the HPAs that scale them, and
/// the base's policies that preserve what they placed.
#[derive(Debug, Default, Clone)]
pub struct ReviewContext {
    /// Every template of the head, with what placed it (its policies, by name).
    pub(crate) head_templates: HashMap<ObjectKey, Vec<String>>,
    /// Workloads an HPA of the head scales, with the HPA's name.
    pub(crate) hpa_targets: BTreeMap<ObjectKey, String>,
    /// The head's templates that write `spec.replicas`, which every cluster's copy then holds.
    pub(crate) replicas_written: HashSet<ObjectKey>,
    /// The base's templates placed by a policy with `preserveResourcesOnDeletion: true`;
    /// `None` when the base's policies are not known (a rendered tree).
    pub(crate) preserving: Option<BTreeMap<ObjectKey, Preserving>>,
}

/// What keeps a base template's objects on the members when it is deleted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Preserving {
    /// The policy that sets `preserveResourcesOnDeletion`, as messages name it.
    pub(crate) policy: String,
    /// Where only some copies are kept, the clusters whose copies are: a Namespace's policy
    /// keeps the copies on its own clusters, and Karmada deletes those its namespace
    /// controller made on the others (`None`: every copy is kept).
    pub(crate) only_on: Option<BTreeSet<String>>,
}

impl Finding {
    /// The finding as a message, for `--message-format` and the log: a warning, or an error
    /// when its lint is denied; pointed at the template when its origin is known.
    pub fn diagnostic(&self, origin: Option<Origin>) -> Diagnostic {
        let message = format!("{} {}", self.key, self.message);
        let mut diagnostic = Diagnostic::warning(self.lint, origin, message)
            .about_object(&self.key)
            .about_clusters(self.clusters.clone())
            .with_detail(format!(
                "on {}\nArgo CD: {}\nFlux: {}\nfix: {}",
                self.clusters.join(", "),
                self.argo_cd,
                self.flux,
                self.fix
            ));
        if self.level == FindingLevel::Denied {
            diagnostic.severity = Severity::Error;
        }
        diagnostic
    }
}

/// Applies lint levels: an allowed lint's findings go, a denied lint's warnings become
/// [`FindingLevel::Denied`] (its notes stay notes: an escape hatch was written on purpose).
pub(crate) fn apply_levels(findings: &mut Vec<Finding>, levels: &LintLevels) {
    findings.retain_mut(|finding| match levels.level(finding.lint) {
        Level::Allow => false,
        Level::Warn => true,
        Level::Deny => {
            if finding.level == FindingLevel::Warning {
                finding.level = FindingLevel::Denied;
            }
            true
        }
    });
}

const FLUX_FORCE: &str = "kustomize.toolkit.fluxcd.io/force";

/// A finding on one cluster before grouping: everything but the clusters.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Raw {
    lint: Lint,
    message: String,
    escaped_by: Option<String>,
}

/// Each changed custom resource judged as the API server judges an update of the base's
/// object to the head's, at each cluster's Kubernetes version ([`Checker::check_change_at`]):
/// the rules that read `oldSelf` (which a build, having no old object, skips), `optionalOldSelf`
/// bound to the old value, and from 1.30 ratcheting. The head's own check judged the object as
/// a create; what the update refuses besides is a finding (a warning, denied with its lint),
/// and what the create refuses but the update ratchets — a value the update leaves as the
/// base has it — a note. One per field and message, with the clusters it holds on.
pub(crate) fn update_findings(
    checker: &Checker,
    versions: &HashMap<&str, KubernetesVersion>,
    diff: &FleetDiff,
) -> Vec<Finding> {
    let mut found: BTreeMap<(ObjectKey, Lint, FindingLevel, String), Vec<String>> = BTreeMap::new();
    // The same change at the same version is judged once, however many clusters it is on.
    let mut judged: HashMap<(&str, &str, KubernetesVersion), Vec<UpdateFinding>> = HashMap::new();
    for (cluster, changes) in &diff.clusters {
        let Some(&version) = versions.get(cluster.as_str()) else {
            continue;
        };
        for change in changes {
            if change.kind != ChangeKind::Changed {
                continue;
            }
            let said = judged
                .entry((&change.before, &change.after, version))
                .or_insert_with(|| judge_update(checker, (&change.before, &change.after), version));
            for (level, finding) in said.iter() {
                let message = match level {
                    FindingLevel::Note => format!(
                        "{}: {} — ratcheted: judged as an update of the base's object, whose value is \
                         the same, the API server (from Kubernetes 1.30) does not judge it \
                         again, though it would refuse a new object so written",
                        finding.path, finding.problem
                    ),
                    _ => format!(
                        "{}: {} (judged as an update of the base's object)",
                        finding.path, finding.problem
                    ),
                };
                found
                    .entry((change.key.clone(), finding.lint, *level, message))
                    .or_default()
                    .push(cluster.clone());
            }
        }
    }
    found
        .into_iter()
        .map(|((key, lint, level, message), clusters)| {
            let ratcheted = level == FindingLevel::Note;
            Finding {
                lint,
                key,
                clusters,
                message,
                argo_cd: if ratcheted {
                    "the sync succeeds: the update leaves the value as it was"
                } else {
                    "the sync fails: the API server refuses the update"
                }
                .to_string(),
                flux: if ratcheted {
                    "the Kustomization applies: the update leaves the value as it was"
                } else {
                    "the Kustomization fails to apply and stops there"
                }
                .to_string(),
                fix: if ratcheted {
                    "nothing for this update; fix the value before the object is ever created \
                     anew (a new cluster, a recreated object)"
                } else {
                    "keep what the CRD's rules protect as it is, or recreate the object if the \
                     change is meant"
                }
                .to_string(),
                escaped_by: None,
                level,
            }
        })
        .collect()
}

/// A finding of an update: its own refusal (a warning), or the create's it ratchets (a note).
type UpdateFinding = (FindingLevel, check::Finding);

/// What the update from `before` to `after` (two manifests of a custom resource) says beyond
/// the create the head's check judged: its own refusals (as warnings) and the create's
/// refusals it ratchets (as notes).
fn judge_update(
    checker: &Checker,
    (before, after): (&str, &str),
    version: KubernetesVersion,
) -> Vec<UpdateFinding> {
    let (Some(old), Some(new)) = (parse_object(before), parse_object(after)) else {
        return Vec::new();
    };
    if !is_custom(&new) {
        return Vec::new();
    }
    let created = checker.check_at(&new, version);
    let updated = checker.check_change_at(&old, &new, version);
    let ratcheted = created
        .iter()
        .filter(|finding| {
            // A finding at a field: one about the whole object (a budget, a count of more
            // findings) says nothing the update could ratchet.
            finding.lint == Lint::SchemaInvalid
                && !finding.path.is_empty()
                && !updated.contains(finding)
        })
        .map(|finding| (FindingLevel::Note, finding.clone()));
    let refused = updated
        .iter()
        .filter(|finding| !created.contains(finding))
        .map(|finding| (FindingLevel::Warning, finding.clone()));
    refused.chain(ratcheted).collect()
}

/// Whether an object is of a group Kubernetes does not serve itself: a custom resource,
/// whose update its CRD judges.
fn is_custom(object: &Value) -> bool {
    object
        .get("apiVersion")
        .and_then(Value::as_str)
        .is_some_and(|api_version| {
            let group = GroupVersionKind::of(api_version, "").group;
            !check::builtin::builtin().is_builtin_group(&group)
        })
}

/// Every finding of a diff, one per rule, object and message, each with its clusters; sorted by
/// rule, then object. Levels are [`FindingLevel::Warning`] (or `Note`) until the caller applies
/// lint levels.
pub fn review(diff: &FleetDiff, context: &ReviewContext) -> Vec<Finding> {
    let mut grouped: BTreeMap<(Lint, ObjectKey, Raw), BTreeSet<String>> = BTreeMap::new();
    // The same two texts give the same findings on every cluster: a change spread over a fleet
    // is read once.
    let mut seen: HashMap<(&str, &str, ChangeKind), ObjectReading> = HashMap::new();
    let mut moves: BTreeMap<&ObjectKey, Vec<(&str, f64, f64)>> = BTreeMap::new();
    for (cluster, changes) in &diff.clusters {
        // A whole cluster coming or going is reported as such; only its replicas count here.
        let whole_cluster =
            diff.clusters_added.contains(cluster) || diff.clusters_removed.contains(cluster);
        for change in changes {
            let reading = seen
                .entry((&change.before, &change.after, change.kind))
                .or_insert_with(|| object_findings(change, context));
            if let Some((before, after)) = reading.replicas
                && before != after
            {
                moves
                    .entry(&change.key)
                    .or_default()
                    .push((cluster, before, after));
            }
            if whole_cluster {
                continue;
            }
            for raw in &reading.raws {
                grouped
                    .entry((raw.lint, change.key.clone(), raw.clone()))
                    .or_default()
                    .insert(cluster.clone());
            }
        }
    }
    hpas_added(diff, context, &mut grouped);
    namespace_counts(diff, &mut grouped);
    let mut findings: Vec<Finding> = grouped
        .into_iter()
        .map(|((lint, key, raw), clusters)| finding(lint, key, raw, clusters, context))
        .collect();
    findings.extend(replica_shifts(diff, moves));
    findings.extend(deleted_templates(diff, context));
    findings.sort_by(|a, b| (a.lint, &a.key, &a.clusters).cmp(&(b.lint, &b.key, &b.clusters)));
    findings
}

/// What one object's two manifests on one cluster say: the findings of the rules that read
/// them alone, and its replicas before and after (0 on a side where it is absent), when it has
/// some on either side.
struct ObjectReading {
    raws: Vec<Raw>,
    replicas: Option<(f64, f64)>,
}

fn object_findings(change: &ObjectChange, context: &ReviewContext) -> ObjectReading {
    let (before, after) = (parse_object(&change.before), parse_object(&change.after));
    let replicas_of = |object: &Option<Value>| object.as_ref().and_then(replicas);
    let replicas = match (replicas_of(&before), replicas_of(&after)) {
        (None, None) => None,
        (old, new) => Some((old.unwrap_or(0.0), new.unwrap_or(0.0))),
    };
    ObjectReading {
        raws: object_rules(change, before, after, context),
        replicas,
    }
}

fn object_rules(
    change: &ObjectChange,
    before: Option<Value>,
    after: Option<Value>,
    context: &ReviewContext,
) -> Vec<Raw> {
    let mut raws = Vec::new();
    let key = &change.key;
    match change.kind {
        ChangeKind::Changed => {
            let (Some(before), Some(after)) = (before, after) else {
                return raws;
            };
            let fields = immutable_changes(key, &before, &after);
            if !fields.is_empty() {
                raws.push(Raw {
                    lint: Lint::ImmutableField,
                    message: format!("{} cannot change on update", fields.join(", ")),
                    escaped_by: force_annotation(&after),
                });
            }
            if key.group.is_empty()
                && key.kind == "PersistentVolumeClaim"
                && let (Some(old), Some(new)) = (storage_request(&before), storage_request(&after))
                && new.1 < old.1
            {
                raws.push(Raw {
                    lint: Lint::PvcShrink,
                    message: format!("storage request {} → {}", old.0, new.0),
                    escaped_by: None,
                });
            }
            let (old, new) = (replicas(&before), replicas(&after));
            if let (Some(old), Some(new)) = (old, new)
                && old > 0.0
                && new == 0.0
            {
                raws.push(Raw {
                    lint: Lint::ReplicasZero,
                    message: format!("replicas {} → 0", number(old)),
                    escaped_by: None,
                });
            }
            if let Some(hpa) = context.hpa_targets.get(key)
                && let Some(new) = new
                && old != Some(new)
            {
                raws.push(hpa_raw(hpa, new));
            }
        }
        ChangeKind::Added => {
            if let Some(hpa) = context.hpa_targets.get(key)
                && let Some(new) = after.as_ref().and_then(replicas)
            {
                raws.push(hpa_raw(hpa, new));
            }
        }
        ChangeKind::Removed => {
            if context.head_templates.contains_key(key) {
                let escaped_by = before.as_ref().and_then(keep_annotation);
                raws.push(Raw {
                    lint: Lint::Pruned,
                    message: pruned_message(key),
                    escaped_by,
                });
            }
        }
    }
    raws
}

/// A HorizontalPodAutoscaler added on a cluster over a workload whose copy there writes
/// `spec.replicas` and stays as it was: from then on the GitOps tool's reconciliation puts the
/// written replicas back as the autoscaler moves them. A workload itself added or changed in
/// its replicas is found by its own change.
fn hpas_added(
    diff: &FleetDiff,
    context: &ReviewContext,
    grouped: &mut BTreeMap<(Lint, ObjectKey, Raw), BTreeSet<String>>,
) {
    for (cluster, changes) in &diff.clusters {
        if diff.clusters_added.contains(cluster) {
            continue;
        }
        for change in changes {
            let is_hpa =
                change.key.group == "autoscaling" && change.key.kind == "HorizontalPodAutoscaler";
            if !is_hpa || change.kind != ChangeKind::Added {
                continue;
            }
            let Some(hpa) = parse_object(&change.after) else {
                continue;
            };
            let target = |field: &str| {
                crate::json_pointer::pointer(&hpa, &format!("/spec/scaleTargetRef/{field}"))
                    .and_then(Value::as_str)
                    .unwrap_or("")
            };
            let target = ObjectKey {
                group: crate::object::api_group(target("apiVersion")).into(),
                kind: target("kind").into(),
                namespace: change.key.namespace.clone(),
                name: target("name").into(),
            };
            if !context.replicas_written.contains(&target) {
                continue;
            }
            let found_by_its_own_change = changes.iter().any(|other| {
                other.key == target
                    && (other.kind != ChangeKind::Changed
                        || parse_object(&other.before).as_ref().and_then(replicas)
                            != parse_object(&other.after).as_ref().and_then(replicas))
            });
            if found_by_its_own_change {
                continue;
            }
            grouped
                .entry((
                    Lint::HpaOwnsReplicas,
                    target,
                    Raw {
                        lint: Lint::HpaOwnsReplicas,
                        message: format!(
                            "spec.replicas is written while HorizontalPodAutoscaler {} is added to scale it",
                            change.key.name
                        ),
                        escaped_by: None,
                    },
                ))
                .or_default()
                .insert(cluster.clone());
        }
    }
}

fn hpa_raw(hpa: &str, replicas: f64) -> Raw {
    Raw {
        lint: Lint::HpaOwnsReplicas,
        message: format!(
            "spec.replicas is written ({}) while HorizontalPodAutoscaler {hpa} scales it",
            number(replicas)
        ),
        escaped_by: None,
    }
}

fn pruned_message(key: &ObjectKey) -> String {
    match (key.group.as_str(), key.kind.as_str()) {
        ("apps", "StatefulSet") => {
            "leaves the cluster while its template stays: its pods go, and its volumes with them where persistentVolumeClaimRetentionPolicy.whenDeleted is Delete".to_string()
        }
        ("", "PersistentVolumeClaim") => {
            "leaves the cluster while its template stays: the volume and its data go with it where the reclaim policy is Delete (the default for a provisioned volume)".to_string()
        }
        ("apiextensions.k8s.io", "CustomResourceDefinition") => {
            "leaves the cluster while its template stays: every custom resource of the definition on the cluster is deleted with it".to_string()
        }
        _ => "leaves the cluster while its template stays".to_string(),
    }
}

/// A Namespace's pruned finding says what of the diff's objects goes with it on each cluster,
/// by kind (`1 Deployment and 7 ConfigMaps`), and that what fedrender does not render goes too.
fn namespace_counts(
    diff: &FleetDiff,
    grouped: &mut BTreeMap<(Lint, ObjectKey, Raw), BTreeSet<String>>,
) {
    let namespaces: Vec<(Lint, ObjectKey, Raw)> = grouped
        .keys()
        .filter(|(lint, key, _)| {
            *lint == Lint::Pruned && key.group.is_empty() && key.kind == "Namespace"
        })
        .cloned()
        .collect();
    for entry in namespaces {
        let clusters = grouped.remove(&entry).unwrap_or_default();
        let (lint, key, raw) = entry;
        let mut by_contents: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for cluster in clusters {
            let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
            for change in diff.clusters.get(&cluster).into_iter().flatten() {
                if change.kind == ChangeKind::Removed && change.key.namespace == key.name {
                    *kinds.entry(change.key.kind.as_str()).or_default() += 1;
                }
            }
            by_contents
                .entry(contents(&kinds))
                .or_default()
                .insert(cluster);
        }
        for (contents, clusters) in by_contents {
            let message = format!(
                "leaves the cluster while its template stays: everything in it is deleted with it, {contents} fedrender renders there and whatever else runs in it"
            );
            grouped.insert(
                (
                    lint,
                    key.clone(),
                    Raw {
                        message,
                        ..raw.clone()
                    },
                ),
                clusters,
            );
        }
    }
}

/// `the 1 Deployment and 7 ConfigMaps`, `the 0 objects`: what a Namespace holds, by kind.
fn contents(kinds: &BTreeMap<&str, usize>) -> String {
    let mut parts: Vec<String> = kinds
        .iter()
        .map(|(kind, count)| match count {
            1 => format!("1 {kind}"),
            _ => format!("{count} {}", plural_kind(kind)),
        })
        .collect();
    let listed = match parts.len() {
        0 => "0 objects".to_string(),
        1 => parts.remove(0),
        _ => {
            let last = parts.pop().expect("two or more");
            format!("{} and {last}", parts.join(", "))
        }
    };
    format!("the {listed}")
}

/// A kind's plural as kubectl's discovery writes resources (`ConfigMaps`, `NetworkPolicies`,
/// `Ingresses`).
fn plural_kind(kind: &str) -> String {
    if let Some(stem) = kind.strip_suffix('y')
        && !stem.ends_with(['a', 'e', 'o', 'u'])
    {
        format!("{stem}ies")
    } else if kind.ends_with('s')
        || kind.ends_with('x')
        || kind.ends_with("ch")
        || kind.ends_with("sh")
    {
        format!("{kind}es")
    } else {
        format!("{kind}s")
    }
}

fn finding(
    lint: Lint,
    key: ObjectKey,
    raw: Raw,
    clusters: BTreeSet<String>,
    context: &ReviewContext,
) -> Finding {
    let (argo_cd, flux, fix) = match lint {
        Lint::ImmutableField => (
            "the sync fails with \"field is immutable\" and the Application stops there, out of sync".to_string(),
            "the Kustomization fails to apply and stops there, not ready".to_string(),
            format!(
                "recreate the object: annotate it {ARGO_SYNC_OPTIONS}: Replace=true (or Force=true) for Argo CD, {FLUX_FORCE}: enabled for Flux; or delete it first, or give it a new name"
            ),
        ),
        Lint::PvcShrink => (
            "the sync fails: a claim's storage request cannot be made smaller".to_string(),
            "the Kustomization fails to apply and stops there".to_string(),
            "keep the request at least as large as it is; to shrink, move the data to a new, smaller claim".to_string(),
        ),
        Lint::ReplicasZero => (
            "the sync scales the workload to 0 on these clusters".to_string(),
            "the apply scales the workload to 0 on these clusters".to_string(),
            "if the workload should keep running there, check the placement or the override that sets replicas".to_string(),
        ),
        Lint::HpaOwnsReplicas => (
            "with selfHeal, every sync sets replicas back to the rendered value, fighting the autoscaler".to_string(),
            "every reconciliation sets replicas back to the rendered value, fighting the autoscaler".to_string(),
            format!(
                "Argo CD: an ignoreDifferences entry (group {group}, kind {kind}, namespace {namespace}, name {name}, jsonPointers /spec/replicas) with the sync option RespectIgnoreDifferences=true, which fedrender build --gitops argocd writes; Flux: spec.replicas left out of what the Kustomization applies, which the patch fedrender build --gitops flux writes does (or leave it out of the template)",
                group = if key.group.is_empty() { "\"\"" } else { &key.group },
                kind = key.kind,
                name = key.name,
                namespace = key.namespace,
            ),
        ),
        _ => {
            let placed_by = context
                .head_templates
                .get(&key)
                .filter(|policies| !policies.is_empty())
                .map(|policies| format!("the head places it by {}, no longer on these clusters", policies.join(", ")))
                .unwrap_or_else(|| "the head's policies no longer place it on these clusters".to_string());
            (
                format!("an automated sync with prune (as fedrender's wiring sets it) deletes it; {placed_by}"),
                "the Kustomization's prune (as fedrender's wiring sets it) deletes it".to_string(),
                format!(
                    "if it should stay, fix the placement; to keep it whatever the tree says, annotate it {ARGO_SYNC_OPTIONS}: Prune=false or {FLUX_PRUNE}: disabled"
                ),
            )
        }
    };
    Finding {
        lint,
        key,
        clusters: clusters.into_iter().collect(),
        message: raw.message,
        argo_cd,
        flux,
        fix,
        level: if raw.escaped_by.is_some() {
            FindingLevel::Note
        } else {
            FindingLevel::Warning
        },
        escaped_by: raw.escaped_by,
    }
}

/// Replicas that move between clusters: some cluster loses some and another gains some (an
/// object added or removed counts, with 0 on the other side).
fn replica_shifts(
    diff: &FleetDiff,
    per_object: BTreeMap<&ObjectKey, Vec<(&str, f64, f64)>>,
) -> Vec<Finding> {
    per_object
        .into_iter()
        .filter(|(_, moves)| {
            moves.iter().any(|(_, before, after)| after < before)
                && moves.iter().any(|(_, before, after)| after > before)
        })
        .map(|(key, moves)| {
            let mut parts: Vec<String> = moves
                .iter()
                .map(|(cluster, before, after)| {
                    format!("{cluster} {} → {}", number(*before), number(*after))
                })
                .collect();
            match diff.replica_totals.get(key) {
                Some((before, after)) => parts.push(format!("total {before} → {after}")),
                None => {
                    let sum = |pick: fn(&(&str, f64, f64)) -> f64| moves.iter().map(pick).sum();
                    parts.push(format!(
                        "on these clusters {} → {}",
                        number(sum(|m| m.1)),
                        number(sum(|m| m.2))
                    ));
                }
            }
            Finding {
                lint: Lint::ReplicaShift,
                key: key.clone(),
                clusters: moves.iter().map(|(cluster, _, _)| cluster.to_string()).collect(),
                message: format!("replicas move between clusters: {}", parts.join(", ")),
                argo_cd: "each cluster's Application syncs on its own: a cluster may scale down before another scales up".to_string(),
                flux: "each cluster's Kustomization applies on its own: a cluster may scale down before another scales up".to_string(),
                fix: "make sure the clusters that gain replicas have the capacity, and sync them first if the others must not lose capacity meanwhile".to_string(),
                escaped_by: None,
                level: FindingLevel::Warning,
            }
        })
        .collect()
}

/// Templates the head deleted (gone from every cluster, no template left) whose base policy
/// preserves what it placed: Karmada would leave the objects on the members; a prune deletes
/// them unless the live objects already carry the exemption `build --gitops` patches on.
fn deleted_templates(diff: &FleetDiff, context: &ReviewContext) -> Vec<Finding> {
    let mut deleted: BTreeMap<&ObjectKey, BTreeSet<&str>> = BTreeMap::new();
    for (cluster, changes) in &diff.clusters {
        for change in changes {
            if change.kind == ChangeKind::Removed
                && !context.head_templates.contains_key(&change.key)
            {
                deleted.entry(&change.key).or_default().insert(cluster);
            }
        }
    }
    let prune_fix = format!(
        "to keep them as Karmada would, annotate the objects {ARGO_SYNC_OPTIONS}: Prune=false or {FLUX_PRUNE}: disabled before deleting the template"
    );
    match &context.preserving {
        Some(preserving) => deleted
            .into_iter()
            .filter_map(|(key, clusters)| {
                let Preserving { policy, only_on } = preserving.get(key)?;
                let (kept, deleted): (Vec<&str>, Vec<&str>) = clusters
                    .into_iter()
                    .partition(|cluster| only_on.as_ref().is_none_or(|only| only.contains(*cluster)));
                if kept.is_empty() {
                    return None;
                }
                let also = if deleted.is_empty() {
                    String::new()
                } else {
                    format!(
                        " on its policy's clusters; Karmada deletes the copies its namespace controller made on {}",
                        deleted.join(", ")
                    )
                };
                Some(Finding {
                    lint: Lint::PreservedOnDeletion,
                    key: key.clone(),
                    clusters: kept.into_iter().map(str::to_string).collect(),
                    message: format!(
                        "its template is deleted while {policy} sets preserveResourcesOnDeletion: true: Karmada would keep the objects on the members{also}"
                    ),
                    argo_cd: format!("an automated sync with prune deletes them unless the live objects carry {ARGO_SYNC_OPTIONS}: Prune=false, which build --gitops argocd patches onto them while the template lives"),
                    flux: format!("the Kustomization's prune deletes them unless the live objects carry {FLUX_PRUNE}: disabled, which build --gitops flux patches onto them while the template lives"),
                    fix: prune_fix.clone(),
                    escaped_by: None,
                    level: FindingLevel::Warning,
                })
            })
            .collect(),
        None if !deleted.is_empty() => {
            let count = deleted.len();
            let clusters: BTreeSet<&str> = deleted.values().flatten().copied().collect();
            let (key, _) = deleted.into_iter().next().expect("not empty");
            vec![Finding {
                lint: Lint::PreservedOnDeletion,
                key: key.clone(),
                clusters: clusters.into_iter().map(str::to_string).collect(),
                message: format!(
                    "{} deleted; whether a base policy sets preserveResourcesOnDeletion cannot be known from a rendered tree (diff with --base to check)",
                    if count == 1 { "1 template is".to_string() } else { format!("{count} templates are (this one first)") }
                ),
                argo_cd: "an automated sync with prune deletes the objects".to_string(),
                flux: "the Kustomization's prune deletes the objects".to_string(),
                fix: prune_fix,
                escaped_by: Some("a rendered tree as the base".to_string()),
                level: FindingLevel::Note,
            }]
        }
        None => Vec::new(),
    }
}

/// `spec.replicas` as a number (`3` and `3.0` alike).
fn replicas(object: &Value) -> Option<f64> {
    crate::json_pointer::pointer(object, "/spec/replicas").and_then(Value::as_f64)
}

fn number(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{}", value as i64)
    } else {
        value.to_string()
    }
}

/// A claim's `spec.resources.requests.storage`, as written and as a quantity.
fn storage_request(object: &Value) -> Option<(String, crate::quantity::Quantity)> {
    let value = crate::json_pointer::pointer(object, "/spec/resources/requests/storage")?;
    let quantity = quantity_from_json(value).ok()?;
    let written = match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    };
    Some((written, quantity))
}

fn annotation<'v>(object: &'v Value, name: &str) -> Option<&'v str> {
    object
        .get("metadata")?
        .get("annotations")?
        .get(name)?
        .as_str()
}

/// Whether Argo CD's sync options hold `option` (a comma-separated list).
fn has_sync_option(object: &Value, option: &str) -> bool {
    annotation(object, ARGO_SYNC_OPTIONS).is_some_and(|options| {
        options
            .split(',')
            .any(|item| item.trim().eq_ignore_ascii_case(option))
    })
}

/// The annotation that has Argo CD or Flux replace the object rather than patch it.
fn force_annotation(object: &Value) -> Option<String> {
    for option in ["Replace=true", "Force=true"] {
        if has_sync_option(object, option) {
            return Some(format!("{ARGO_SYNC_OPTIONS}: {option}"));
        }
    }
    (annotation(object, FLUX_FORCE) == Some("enabled")).then(|| format!("{FLUX_FORCE}: enabled"))
}

/// The annotation that keeps the object when it leaves the tree.
fn keep_annotation(object: &Value) -> Option<String> {
    if has_sync_option(object, "Prune=false") {
        return Some(format!("{ARGO_SYNC_OPTIONS}: Prune=false"));
    }
    (annotation(object, FLUX_PRUNE) == Some("disabled")).then(|| format!("{FLUX_PRUNE}: disabled"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::diff;

    use crate::diff::fleet_of as fleet;

    /// The findings of going from `before` to `after`, on every cluster listed, with the
    /// templates still in the head.
    fn findings_on(
        clusters: &[&str],
        before: &str,
        after: &str,
        context: &ReviewContext,
    ) -> Vec<Finding> {
        let side = |text: &str| {
            fleet(
                &clusters
                    .iter()
                    .map(|cluster| (*cluster, text))
                    .collect::<Vec<_>>(),
            )
        };
        review(&diff(&side(before), &side(after), false), context)
    }

    fn summary(findings: &[Finding]) -> Vec<(Lint, Vec<String>, FindingLevel)> {
        findings
            .iter()
            .map(|finding| (finding.lint, finding.clusters.clone(), finding.level))
            .collect()
    }

    fn deployment(selector: &str, replicas: &str, image: &str, annotations: &str) -> String {
        format!(
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: shop\n  annotations: {{{annotations}}}\nspec:\n  replicas: {replicas}\n  selector: {{matchLabels: {{app: {selector}}}}}\n  template:\n    metadata: {{labels: {{app: {selector}}}}}\n    spec: {{containers: [{{name: web, image: {image}}}]}}\n"
        )
    }

    const CLUSTERS: [&str; 3] = ["eu-1", "eu-2", "eu-3"];

    #[test]
    fn a_deployment_selector_change_is_immutable_once_with_its_clusters() {
        let findings = findings_on(
            &CLUSTERS,
            &deployment("web", "2", "web:1", ""),
            &deployment("web-v2", "2", "web:1", ""),
            &ReviewContext::default(),
        );
        assert_eq!(
            summary(&findings),
            [(
                Lint::ImmutableField,
                vec!["eu-1".into(), "eu-2".into(), "eu-3".into()],
                FindingLevel::Warning
            )]
        );
        assert_eq!(findings[0].message, "spec.selector cannot change on update");
    }

    #[test]
    fn an_image_bump_or_replicas_written_differently_raise_nothing() {
        let context = ReviewContext::default();
        for (before, after) in [
            (
                deployment("web", "2", "web:1", ""),
                deployment("web", "2", "web:2", ""),
            ),
            // `3` and `3.0` are the same number to the API server.
            (
                deployment("web", "3", "web:1", ""),
                deployment("web", "3.0", "web:1", ""),
            ),
        ] {
            let findings = findings_on(&CLUSTERS, &before, &after, &context);
            assert!(findings.is_empty(), "{after}: {findings:?}");
        }
    }

    #[test]
    fn replace_force_and_flux_force_lower_an_immutable_change_to_a_note() {
        for annotation in [
            "argocd.argoproj.io/sync-options: 'Validate=false,Replace=true'",
            "argocd.argoproj.io/sync-options: Force=true",
            "kustomize.toolkit.fluxcd.io/force: enabled",
        ] {
            let findings = findings_on(
                &["eu-1"],
                &deployment("web", "2", "web:1", annotation),
                &deployment("web-v2", "2", "web:1", annotation),
                &ReviewContext::default(),
            );
            assert_eq!(
                summary(&findings),
                [(
                    Lint::ImmutableField,
                    vec!["eu-1".into()],
                    FindingLevel::Note
                )],
                "{annotation}"
            );
            assert!(findings[0].escaped_by.is_some());
        }
    }

    fn stateful_set(claim_size: &str, image: &str, service: &str) -> String {
        format!(
            "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {{name: db, namespace: shop}}\nspec:\n  serviceName: {service}\n  replicas: 1\n  selector: {{matchLabels: {{app: db}}}}\n  template:\n    metadata: {{labels: {{app: db}}}}\n    spec: {{containers: [{{name: db, image: {image}}}]}}\n  volumeClaimTemplates:\n  - metadata: {{name: data}}\n    spec: {{resources: {{requests: {{storage: {claim_size}}}}}}}\n"
        )
    }

    /// Source: ValidateStatefulSetUpdate (k8s.io/kubernetes pkg/apis/apps/validation), which
    /// lets replicas, ordinals, template, updateStrategy, persistentVolumeClaimRetentionPolicy,
    /// minReadySeconds and revisionHistoryLimit change, and nothing else of the spec.
    #[test]
    fn a_stateful_set_may_change_its_template_but_not_its_claim_templates_or_service() {
        let context = ReviewContext::default();
        let base = stateful_set("1Gi", "db:1", "db");
        assert!(
            findings_on(
                &CLUSTERS,
                &base,
                &stateful_set("1Gi", "db:2", "db"),
                &context
            )
            .is_empty()
        );
        let findings = findings_on(
            &["eu-2"],
            &base,
            &stateful_set("2Gi", "db:1", "db-headless"),
            &context,
        );
        assert_eq!(
            summary(&findings),
            [(
                Lint::ImmutableField,
                vec!["eu-2".into()],
                FindingLevel::Warning
            )]
        );
        assert_eq!(
            findings[0].message,
            "spec.serviceName, spec.volumeClaimTemplates cannot change on update"
        );
    }

    fn claim(size: &str, class: &str) -> String {
        format!(
            "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {{name: data, namespace: shop}}\nspec:\n  storageClassName: {class}\n  accessModes: [ReadWriteOnce]\n  resources: {{requests: {{storage: {size}}}}}\n"
        )
    }

    #[test]
    fn a_claim_may_grow_but_not_shrink_or_change_class() {
        let context = ReviewContext::default();
        // Grown, and the same size written in other units: silent.
        assert!(
            findings_on(
                &CLUSTERS,
                &claim("10Gi", "ssd"),
                &claim("20Gi", "ssd"),
                &context
            )
            .is_empty()
        );
        assert!(
            findings_on(
                &CLUSTERS,
                &claim("1Gi", "ssd"),
                &claim("1024Mi", "ssd"),
                &context
            )
            .is_empty()
        );
        let shrunk = findings_on(
            &["eu-1", "eu-3"],
            &claim("10Gi", "ssd"),
            &claim("5000Mi", "ssd"),
            &context,
        );
        assert_eq!(
            summary(&shrunk),
            [(
                Lint::PvcShrink,
                vec!["eu-1".into(), "eu-3".into()],
                FindingLevel::Warning
            )]
        );
        assert_eq!(shrunk[0].message, "storage request 10Gi → 5000Mi");
        let reclassed = findings_on(
            &["eu-1"],
            &claim("10Gi", "ssd"),
            &claim("10Gi", "hdd"),
            &context,
        );
        assert_eq!(reclassed.len(), 1);
        assert_eq!(
            reclassed[0].message,
            "spec.storageClassName cannot change on update"
        );
    }

    fn job(image: &str, suspend: bool, node: &str) -> String {
        format!(
            "apiVersion: batch/v1\nkind: Job\nmetadata: {{name: migrate, namespace: shop}}\nspec:\n  suspend: {suspend}\n  template:\n    spec:\n      nodeSelector: {{pool: {node}}}\n      restartPolicy: Never\n      containers: [{{name: m, image: {image}}}]\n"
        )
    }

    /// Source: ValidateJobSpecUpdate (k8s.io/kubernetes pkg/apis/batch/validation): the pod
    /// template is immutable, but a suspended Job's scheduling directives may change.
    #[test]
    fn a_job_template_is_immutable_unless_suspended_and_only_scheduling_changes() {
        let context = ReviewContext::default();
        let changed = findings_on(
            &["eu-1"],
            &job("m:1", false, "a"),
            &job("m:2", false, "a"),
            &context,
        );
        assert_eq!(changed.len(), 1);
        assert_eq!(changed[0].message, "spec.template cannot change on update");
        assert!(
            findings_on(
                &["eu-1"],
                &job("m:1", true, "a"),
                &job("m:1", true, "b"),
                &context
            )
            .is_empty()
        );
        assert_eq!(
            findings_on(
                &["eu-1"],
                &job("m:1", true, "a"),
                &job("m:2", true, "a"),
                &context
            )
            .len(),
            1
        );
    }

    #[test]
    fn services_bindings_immutable_config_maps_and_storage_classes() {
        let context = ReviewContext::default();
        let service = |ip: &str| {
            format!(
                "apiVersion: v1\nkind: Service\nmetadata: {{name: web, namespace: shop}}\nspec: {{clusterIP: \"{ip}\", ports: [{{port: 80}}]}}\n"
            )
        };
        assert_eq!(
            findings_on(
                &["eu-1"],
                &service("10.0.0.1"),
                &service("10.0.0.2"),
                &context
            )
            .len(),
            1
        );
        // Where the tree had none, the member allocated one (karmada native prune.go takes an
        // allocated IP out of the Work): `None` or an address then changes it, which the API
        // server refuses; `None` to none asks for an address it never allocates on update.
        for (before, after, field) in [
            (
                "",
                "None",
                "spec.clusterIP (the tree had none, so the member allocated one; now None)",
            ),
            (
                "",
                "10.0.0.2",
                "spec.clusterIP (the tree had none, so the member allocated one; now 10.0.0.2)",
            ),
            (
                "None",
                "",
                "spec.clusterIP (None; the tree now asks for an allocated address",
            ),
        ] {
            let found = findings_on(&["eu-1"], &service(before), &service(after), &context);
            assert_eq!(found.len(), 1, "{before} → {after}");
            assert_eq!(found[0].lint, Lint::ImmutableField);
            assert!(found[0].message.starts_with(field), "{}", found[0].message);
        }
        let ips = |ips: &str| {
            format!(
                "apiVersion: v1\nkind: Service\nmetadata: {{name: web, namespace: shop}}\nspec: {{clusterIPs: [{ips}], ports: [{{port: 80}}]}}\n"
            )
        };
        let found = findings_on(&["eu-1"], &ips(""), &ips("None"), &context);
        assert!(
            found[0]
                .message
                .starts_with("spec.clusterIPs (the tree had none"),
            "{found:?}"
        );
        // An ExternalName Service has no cluster IP to keep, and changing to or from it is allowed.
        let external = "apiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: shop}\nspec: {type: ExternalName, externalName: db.example.com}\n";
        assert!(findings_on(&["eu-1"], external, &service("None"), &context).is_empty());
        assert!(findings_on(&["eu-1"], &service("None"), &service("None"), &context).is_empty());
        let binding = |role: &str| {
            format!(
                "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {{name: b, namespace: shop}}\nroleRef: {{apiGroup: rbac.authorization.k8s.io, kind: Role, name: {role}}}\nsubjects: []\n"
            )
        };
        assert_eq!(
            findings_on(&["eu-1"], &binding("a"), &binding("b"), &context)[0].message,
            "roleRef cannot change on update"
        );
        let map = |immutable: bool, value: &str| {
            format!(
                "apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: m, namespace: shop}}\nimmutable: {immutable}\ndata: {{k: {value}}}\n"
            )
        };
        assert!(findings_on(&["eu-1"], &map(false, "a"), &map(false, "b"), &context).is_empty());
        assert_eq!(
            findings_on(&["eu-1"], &map(true, "a"), &map(true, "b"), &context)[0].message,
            "data cannot change on update"
        );
        let class = |provisioner: &str| {
            format!(
                "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {{name: fast}}\nprovisioner: {provisioner}\nallowVolumeExpansion: true\n"
            )
        };
        assert_eq!(
            findings_on(&["eu-1"], &class("a"), &class("b"), &context).len(),
            1
        );
    }

    #[test]
    fn replicas_to_zero_and_replicas_moving_between_clusters() {
        let context = ReviewContext::default();
        let to_zero = findings_on(
            &["eu-1"],
            &deployment("web", "2", "web:1", ""),
            &deployment("web", "0", "web:1", ""),
            &context,
        );
        assert_eq!(
            summary(&to_zero),
            [(
                Lint::ReplicasZero,
                vec!["eu-1".into()],
                FindingLevel::Warning
            )]
        );
        // From 0 to 0 (written 0.0) is not a change of replicas.
        assert!(
            findings_on(
                &["eu-1"],
                &deployment("web", "0", "web:1", ""),
                &deployment("web", "0.0", "web:1", ""),
                &context
            )
            .is_empty()
        );
        let before = fleet(&[
            ("eu-west", &deployment("web", "2", "web:1", "")),
            ("us-east", &deployment("web", "2", "web:1", "")),
            ("ap-1", &deployment("web", "1", "web:1", "")),
        ]);
        let after = fleet(&[
            ("eu-west", &deployment("web", "0", "web:2", "")),
            ("us-east", &deployment("web", "4", "web:2", "")),
            ("ap-1", &deployment("web", "1", "web:2", "")),
        ]);
        let mut changes = diff(&before, &after, false);
        let key = changes.clusters["eu-west"][0].key.clone();
        changes.replica_totals.insert(key, (5, 5));
        let findings = review(&changes, &context);
        assert_eq!(
            summary(&findings),
            [
                (
                    Lint::ReplicasZero,
                    vec!["eu-west".into()],
                    FindingLevel::Warning
                ),
                (
                    Lint::ReplicaShift,
                    vec!["eu-west".into(), "us-east".into()],
                    FindingLevel::Warning
                ),
            ]
        );
        assert_eq!(
            findings[1].message,
            "replicas move between clusters: eu-west 2 → 0, us-east 2 → 4, total 5 → 5"
        );
    }

    fn config_map(name: &str, namespace: &str, annotations: &str) -> String {
        format!(
            "apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: {name}, namespace: {namespace}, annotations: {{{annotations}}}}}\ndata: {{k: v}}\n"
        )
    }

    fn key(group: &str, kind: &str, namespace: &str, name: &str) -> ObjectKey {
        ObjectKey {
            group: group.into(),
            kind: kind.into(),
            namespace: namespace.into(),
            name: name.into(),
        }
    }

    #[test]
    fn an_object_leaving_a_cluster_while_its_template_stays_is_pruned() {
        let map = config_map("settings", "shop", "");
        let before = fleet(&[("eu-1", &map), ("eu-2", &map), ("eu-3", &map)]);
        let other = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: other, namespace: shop}\n";
        // eu-1 and eu-3 keep a cluster directory: a cluster that goes whole is reported as such.
        let after = fleet(&[("eu-1", other), ("eu-2", &map), ("eu-3", other)]);
        let mut context = ReviewContext::default();
        // The template is gone from the head: a deletion, not a pruning.
        assert!(
            review(&diff(&before, &after, false), &context)
                .iter()
                .all(|finding| finding.lint != Lint::Pruned)
        );
        context.head_templates.insert(
            key("", "ConfigMap", "shop", "settings"),
            vec!["PropagationPolicy shop/settings".into()],
        );
        let findings = review(&diff(&before, &after, false), &context);
        assert_eq!(
            summary(&findings),
            [(
                Lint::Pruned,
                vec!["eu-1".into(), "eu-3".into()],
                FindingLevel::Warning
            )]
        );
        assert!(
            findings[0]
                .argo_cd
                .contains("PropagationPolicy shop/settings"),
            "{}",
            findings[0].argo_cd
        );
        for annotation in [
            "argocd.argoproj.io/sync-options: Prune=false",
            "kustomize.toolkit.fluxcd.io/prune: disabled",
        ] {
            let kept = config_map("settings", "shop", annotation);
            let findings = review(
                &diff(
                    &fleet(&[("eu-1", &kept)]),
                    &fleet(&[("eu-1", other)]),
                    false,
                ),
                &context,
            );
            assert_eq!(
                summary(&findings),
                [(Lint::Pruned, vec!["eu-1".into()], FindingLevel::Note)],
                "{annotation}"
            );
        }
    }

    #[test]
    fn a_pruned_namespace_counts_what_goes_with_it() {
        let namespace = "apiVersion: v1\nkind: Namespace\nmetadata: {name: shop}\n";
        let keep = config_map("keep", "other", "");
        let before = fleet(&[
            ("eu-1", namespace),
            ("eu-1", &config_map("a", "shop", "")),
            ("eu-1", &config_map("b", "shop", "")),
            ("eu-1", &deployment("web", "1", "web:1", "")),
            ("eu-1", &keep),
        ]);
        let after = fleet(&[("eu-1", &keep)]);
        let mut context = ReviewContext {
            preserving: Some(BTreeMap::new()),
            ..ReviewContext::default()
        };
        context
            .head_templates
            .insert(key("", "Namespace", "", "shop"), Vec::new());
        let findings = review(&diff(&before, &after, false), &context);
        assert_eq!(
            summary(&findings),
            [(Lint::Pruned, vec!["eu-1".into()], FindingLevel::Warning)]
        );
        assert!(
            findings[0].message.contains(
                "deleted with it, the 2 ConfigMaps and 1 Deployment fedrender renders there"
            ),
            "{}",
            findings[0].message
        );
    }

    #[test]
    fn kinds_are_counted_in_their_plural() {
        let kinds = BTreeMap::from([
            ("NetworkPolicy", 2),
            ("Ingress", 3),
            ("Gateway", 2),
            ("Secret", 1),
        ]);
        assert_eq!(
            contents(&kinds),
            "the 2 Gateways, 3 Ingresses, 2 NetworkPolicies and 1 Secret"
        );
        assert_eq!(contents(&BTreeMap::new()), "the 0 objects");
    }

    #[test]
    fn an_autoscaled_workload_whose_replicas_are_written() {
        let mut context = ReviewContext::default();
        context
            .hpa_targets
            .insert(key("apps", "Deployment", "shop", "web"), "web".into());
        let findings = findings_on(
            &["eu-1"],
            &deployment("web", "2", "web:1", ""),
            &deployment("web", "3", "web:1", ""),
            &context,
        );
        assert_eq!(
            summary(&findings),
            [(
                Lint::HpaOwnsReplicas,
                vec!["eu-1".into()],
                FindingLevel::Warning
            )]
        );
        assert!(findings[0].fix.contains("ignoreDifferences entry (group apps, kind Deployment, namespace shop, name web, jsonPointers /spec/replicas)"), "{}", findings[0].fix);
        // An image bump leaves the replicas alone: nothing new to fight over.
        assert!(
            findings_on(
                &["eu-1"],
                &deployment("web", "2", "web:1", ""),
                &deployment("web", "2", "web:2", ""),
                &context
            )
            .is_empty()
        );
    }

    /// karmada namespace_sync_controller.go: the copies the namespace controller makes carry
    /// no preserve setting of the Namespace's policy, so only the policy's clusters keep it.
    #[test]
    fn a_deleted_namespace_is_kept_only_on_its_policy_clusters() {
        let namespace = serde_json::json!({
            "apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "shop"}
        })
        .to_string();
        let before = fleet(&[
            ("eu-1", &namespace),
            ("eu-2", &namespace),
            ("us-1", &namespace),
        ]);
        let changes = diff(&before, &fleet(&[]), false);
        let preserving = |only_on: &[&str]| {
            Some(BTreeMap::from([(
                key("", "Namespace", "", "shop"),
                Preserving {
                    policy: "ClusterPropagationPolicy keep".to_string(),
                    only_on: Some(only_on.iter().map(|name| name.to_string()).collect()),
                },
            )]))
        };
        let mut context = ReviewContext {
            preserving: preserving(&["eu-2"]),
            ..ReviewContext::default()
        };
        let findings = review(&changes, &context);
        assert_eq!(
            summary(&findings),
            [(
                Lint::PreservedOnDeletion,
                vec!["eu-2".into()],
                FindingLevel::Warning
            )]
        );
        assert!(
            findings[0]
                .message
                .ends_with("namespace controller made on eu-1, us-1"),
            "{}",
            findings[0].message
        );
        // A policy whose clusters the Namespace left anyway: nothing Karmada keeps is pruned.
        context.preserving = preserving(&["ap-1"]);
        assert!(review(&changes, &context).is_empty());
    }

    #[test]
    fn a_deleted_template_its_policy_preserves() {
        let map = config_map("settings", "shop", "");
        let before = fleet(&[("eu-1", &map), ("eu-2", &map)]);
        let after = fleet(&[]);
        let changes = diff(&before, &after, false);
        let mut context = ReviewContext {
            preserving: Some(BTreeMap::from([(
                key("", "ConfigMap", "shop", "settings"),
                Preserving {
                    policy: "PropagationPolicy shop/keep".to_string(),
                    only_on: None,
                },
            )])),
            ..ReviewContext::default()
        };
        let findings = review(&changes, &context);
        assert_eq!(
            summary(&findings),
            [(
                Lint::PreservedOnDeletion,
                vec!["eu-1".into(), "eu-2".into()],
                FindingLevel::Warning
            )]
        );
        assert!(findings[0].message.contains("PropagationPolicy shop/keep"));
        context.preserving = Some(BTreeMap::new());
        assert!(review(&changes, &context).is_empty());
        // A rendered tree as the base: what its policies said is not known, and the report says so.
        context.preserving = None;
        let findings = review(&changes, &context);
        assert_eq!(
            summary(&findings),
            [(
                Lint::PreservedOnDeletion,
                vec!["eu-1".into(), "eu-2".into()],
                FindingLevel::Note
            )]
        );
        assert!(
            findings[0].message.contains("cannot be known"),
            "{}",
            findings[0].message
        );
    }
}
