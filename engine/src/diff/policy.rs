//! A pull request may not lower its own gate. With `--base`, the lint levels and diff ignore
//! rules a review runs by are the base's Config's, already reviewed and merged; every level the
//! pull request's Config lowers and every ignore rule it adds is a finding of its own,
//! `policy-relaxed`, at the top of the review (an error under `--strict`). A base without a
//! Config (the pull request that adopts fedrender) is held to the defaults in the same way.
//! The command line is the CI workflow's, not the pull request's, and wins over any Config.

use std::collections::BTreeMap;

use super::change::{Finding, FindingLevel};
use crate::lint::{Level, Lint};
use crate::object::ObjectKey;

/// What a fleet's Config says of the review: its levels and ignore rules.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReviewPolicy {
    /// Where the Config is (`fleet/fedrender.yaml:1`) and its name; `None` without one.
    pub config: Option<(String, String)>,
    /// `spec.lints`.
    pub levels: BTreeMap<Lint, Level>,
    /// `spec.diff`'s rules, as written (`apps/Deployment=/spec/replicas`), each with the field
    /// that holds it (`ignoreFields`, `ignoreResources`) and where.
    pub ignores: Vec<(String, &'static str, String)>,
}

/// How strict a level is: a lower rank lets more through.
fn rank(level: Level) -> u8 {
    match level {
        Level::Allow => 0,
        Level::Warn => 1,
        Level::Deny => 2,
    }
}

/// The level a lint has under a Config's `levels`, with `--strict` (`strict`) for a lint the
/// Config does not name.
fn level_of(levels: &BTreeMap<Lint, Level>, lint: Lint, strict: bool) -> Level {
    match levels.get(&lint) {
        Some(level) => *level,
        None if strict => Level::Deny,
        None => Level::Warn,
    }
}

/// What the head's Config relaxes against the base's (`None`: the base has no Config): each
/// lint it lowers and each ignore rule the base lacks, one finding each, before any level is
/// applied. `strict` is `--strict`, which gives an unnamed lint its level.
pub fn relaxations(head: &ReviewPolicy, base: Option<&ReviewPolicy>, strict: bool) -> Vec<Finding> {
    let Some((written_at, name)) = &head.config else {
        return Vec::new();
    };
    let empty = ReviewPolicy::default();
    let base = base.unwrap_or(&empty);
    let (against, has) = match &base.config {
        Some((at, _)) => (format!("the base's Config ({at})"), "has"),
        None => ("the defaults (the base has no Config)".to_string(), "have"),
    };
    let key = ObjectKey {
        group: "fedrender.io".into(),
        kind: "Config".into(),
        namespace: String::new(),
        name: name.clone(),
    };
    let finding = |message: String| {
        Finding {
        lint: Lint::PolicyRelaxed,
        key: key.clone(),
        clusters: Vec::new(),
        message,
        argo_cd: "nothing: the review runs by the base's levels and rules, so the relaxation takes effect only once merged".to_string(),
        flux: "nothing: the review runs by the base's levels and rules, so the relaxation takes effect only once merged".to_string(),
        fix: "review the change to the Config on its own; the command line's --allow, --warn and --deny win over any Config".to_string(),
        escaped_by: None,
        level: FindingLevel::Warning,
    }
    };
    let mut findings = Vec::new();
    for (&lint, &level) in &head.levels {
        let before = level_of(&base.levels, lint, strict);
        if rank(level) < rank(before) {
            findings.push(finding(format!(
                "({written_at}) sets spec.lints.{lint}: {level} where {against} {has} it at {before}; this review keeps {before}"
            )));
        }
    }
    // A set, not a scan of the base's list per rule: a Config may hold thousands of rules.
    let known: std::collections::HashSet<(&str, &str)> = base
        .ignores
        .iter()
        .map(|(written, field, _)| (written.as_str(), *field))
        .collect();
    for (rule, field, at) in &head.ignores {
        if !known.contains(&(rule.as_str(), *field)) {
            findings.push(finding(format!(
                "({at}) adds spec.diff.{field} {rule}, which {against} {has} not; this review does not hide by it"
            )));
        }
    }
    findings
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(levels: &[(Lint, Level)], ignores: &[&str]) -> ReviewPolicy {
        ReviewPolicy {
            config: Some(("fleet/fedrender.yaml:1".into(), "fleet".into())),
            levels: levels.iter().copied().collect(),
            ignores: ignores
                .iter()
                .map(|rule| {
                    (
                        rule.to_string(),
                        "ignoreResources",
                        "fleet/fedrender.yaml:9".into(),
                    )
                })
                .collect(),
        }
    }

    fn messages(findings: &[Finding]) -> Vec<&str> {
        findings
            .iter()
            .map(|finding| finding.message.as_str())
            .collect()
    }

    #[test]
    fn a_lowered_level_and_an_added_rule_are_relaxations() {
        let base = policy(
            &[(Lint::SchemaInvalid, Level::Deny)],
            &["apps:Deployment:*/*"],
        );
        let head = policy(
            &[
                (Lint::SchemaInvalid, Level::Allow),
                (Lint::Pruned, Level::Deny),
            ],
            &["apps:Deployment:*/*", "*:*:*/*"],
        );
        let found = relaxations(&head, Some(&base), false);
        assert_eq!(
            messages(&found),
            [
                "(fleet/fedrender.yaml:1) sets spec.lints.schema-invalid: allow where the base's Config (fleet/fedrender.yaml:1) has it at deny; this review keeps deny",
                "(fleet/fedrender.yaml:9) adds spec.diff.ignoreResources *:*:*/*, which the base's Config (fleet/fedrender.yaml:1) has not; this review does not hide by it",
            ]
        );
        assert!(
            found
                .iter()
                .all(|finding| finding.lint == Lint::PolicyRelaxed)
        );
        // Raising a level, or keeping the base's rules, relaxes nothing.
        assert!(relaxations(&base, Some(&base), false).is_empty());
    }

    /// Under --strict a lint no Config names is denied: a Config that allows it relaxes the
    /// gate; without --strict, allowing a warning still does.
    #[test]
    fn an_adopting_pull_request_is_held_to_the_defaults() {
        let head = policy(&[(Lint::SchemaInvalid, Level::Warn)], &[]);
        assert_eq!(relaxations(&head, None, false), []);
        let found = relaxations(&head, None, true);
        assert_eq!(
            messages(&found),
            [
                "(fleet/fedrender.yaml:1) sets spec.lints.schema-invalid: warn where the defaults (the base has no Config) have it at deny; this review keeps deny"
            ]
        );
        let allowing = policy(&[(Lint::Pruned, Level::Allow)], &[]);
        assert_eq!(relaxations(&allowing, None, false).len(), 1);
    }
}
