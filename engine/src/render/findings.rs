//! Schema findings as messages: one per distinct finding of an object, naming the field, the
//! clusters it holds on with their Kubernetes versions, and the override rule that wrote the
//! value when one did.

use std::collections::BTreeMap;

use crate::check::{Checker, KubernetesVersion, VersionSource};
use crate::diagnostics::{Diagnostic, Origin, Severity};
use crate::fleet::Fleet;
use crate::lint::{Level, Lint, LintLevels};
use crate::object::ObjectKey;
use crate::work::CheckedFinding;

/// The messages for one object's findings, for the clusters `emitted` keeps, judged by
/// `levels`: the errors (denied lints) and the warnings.
pub(super) fn judge(
    fleet: &Fleet,
    checker: &Checker,
    levels: &LintLevels,
    (key, origin): (&ObjectKey, &Origin),
    findings: Vec<CheckedFinding>,
    emitted: impl Fn(usize) -> bool,
) -> (Vec<Diagnostic>, Vec<Diagnostic>) {
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    for found in findings {
        let clusters: Vec<usize> = found
            .clusters
            .iter()
            .copied()
            .filter(|&cluster| emitted(cluster))
            .collect();
        // An API removed in the version fedrender assumed for clusters that state none is no
        // verdict on those clusters: a warning that names the assumption and how to state the
        // version; it stays removed-api where the version was stated.
        let (assumed, stated): (Vec<usize>, Vec<usize>) = if found.finding.lint == Lint::RemovedApi
        {
            clusters
                .iter()
                .partition(|&&cluster| checker.version_of(cluster).source == VersionSource::Newest)
        } else {
            (Vec::new(), clusters)
        };
        for (lint, clusters) in [
            (found.finding.lint, stated),
            (Lint::AssumedKubernetesVersion, assumed),
        ] {
            if clusters.is_empty() || levels.level(lint) == Level::Allow {
                continue;
            }
            let (kept, denied) = judge_one(
                fleet,
                checker,
                (key, origin),
                &found,
                lint,
                &clusters,
                levels,
            );
            warnings.extend(kept);
            errors.extend(denied);
        }
    }
    (errors, warnings)
}

/// One finding on `clusters` as a message under `lint`, kept as a warning or denied as an error
/// by `levels`.
fn judge_one(
    fleet: &Fleet,
    checker: &Checker,
    (key, origin): (&ObjectKey, &Origin),
    found: &CheckedFinding,
    lint: Lint,
    clusters: &[usize],
    levels: &LintLevels,
) -> (Vec<Diagnostic>, Vec<Diagnostic>) {
    let names: Vec<String> = clusters
        .iter()
        .map(|&cluster| fleet.clusters[cluster].name().to_string())
        .collect();
    let mut message = format!("{key}: ");
    if !found.finding.path.is_empty() {
        message.push_str(&format!("{}: ", found.finding.path));
    }
    message.push_str(&found.finding.problem);
    message.push_str(&format!(
        " (on {})",
        clusters_with_versions(fleet, checker, clusters)
    ));
    if lint == Lint::AssumedKubernetesVersion {
        message.push_str(
            "; fedrender assumed its newest version there: state the version in the inventory \
             (status.kubernetesVersion), the Config (spec.kubernetesVersion) or \
             --kubernetes-version to have it judged as removed-api",
        );
    }
    if let Some(rule) = found.written_by {
        let policy = &fleet.overrides[rule.policy];
        let field = &policy.rules[rule.rule].field;
        let at = policy.fields.origin(&policy.origin, field);
        message.push_str(&format!("; written by {} {field} at {at}", policy.id));
    }
    let mut diagnostic = Diagnostic::warning(lint, Some(origin.clone()), message)
        .about_object(key)
        .about_clusters(names);
    if !found.finding.path.is_empty() {
        diagnostic = diagnostic.about_field(&found.finding.path);
    }
    let (kept, denied) = levels.apply(vec![diagnostic]);
    let denied = denied
        .into_iter()
        .map(|mut error| {
            error.severity = Severity::Error;
            error
        })
        .collect();
    (kept, denied)
}

/// `cluster a (Kubernetes 1.29)`, `clusters a, b (Kubernetes 1.29), c (Kubernetes 1.30) and
/// d (Kubernetes 1.37, assumed: it states no version)`.
fn clusters_with_versions(fleet: &Fleet, checker: &Checker, clusters: &[usize]) -> String {
    let mut by_version: BTreeMap<(KubernetesVersion, bool), Vec<&str>> = BTreeMap::new();
    for &cluster in clusters {
        let version = checker.version_of(cluster);
        by_version
            .entry((version.version, version.source == VersionSource::Newest))
            .or_default()
            .push(fleet.clusters[cluster].name());
    }
    let groups: Vec<String> = by_version
        .iter()
        .map(|((version, assumed), names)| {
            let assumed = match (assumed, names.len()) {
                (false, _) => "",
                (true, 1) => ", assumed: it states no version",
                (true, _) => ", assumed: they state no version",
            };
            format!("{} (Kubernetes {version}{assumed})", names.join(", "))
        })
        .collect();
    let word = if clusters.len() == 1 {
        "cluster"
    } else {
        "clusters"
    };
    let listed = match groups.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    };
    format!("{word} {listed}")
}
