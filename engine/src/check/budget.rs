//! What one check of an object may spend, out of what the run has left — and one check of a
//! built-in object for every Kubernetes minor among its clusters when the check provably reads
//! the same schemas in each: the walk is then the same, step for step, and so are its findings
//! and what it spends, which is charged once per minor as if it had been taken again.

use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::Value;

use super::builtin::{Recording, Seen, VersionSchemas};
use super::ratchet;
use super::schema::{self, Definitions, Found, Limits, OverBudget, Spent};
use super::{
    BUDGET_BASE, BUDGET_PER_VALUE, Checker, FINDINGS_PER_LINT, Finding, KubernetesVersion,
    findings_of, thousands,
};
use crate::lint::Lint;

/// What is left of a run's budget for checks, shared by the threads that check objects.
#[derive(Debug)]
pub(super) struct RunBudget {
    steps: AtomicU64,
    cel: AtomicU64,
    /// The budget the run began with, for the message once it is spent.
    total: (u64, u64),
}

impl RunBudget {
    pub(super) fn new(steps: u64, cel: u64) -> RunBudget {
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
    pub(super) fn validate(
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
pub(super) struct Memo {
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
    pub(super) fn movable(&self) -> &[u64] {
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
    pub(super) fn validate_builtin(
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
        let minor = super::compatibility_minor(schemas.version);
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

#[cfg(test)]
mod tests {
    use super::super::{ClusterVersion, VersionSource};
    use super::*;
    use serde_json::json;

    fn at(minors: &[u32]) -> Checker {
        let versions = minors
            .iter()
            .map(|&minor| ClusterVersion {
                version: KubernetesVersion { minor },
                source: VersionSource::Inventory,
            })
            .collect();
        Checker::new(versions, [])
    }

    /// A Deployment whose pods ask for pod-level `resources`, a field of PodSpec from
    /// Kubernetes 1.32: the 1.31 cluster's API server refuses what the others accept.
    fn deployment_with_pod_resources() -> Value {
        json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
            "spec": {"selector": {"matchLabels": {"app": "web"}}, "template": {
                "metadata": {"labels": {"app": "web"}},
                "spec": {"resources": {"limits": {"cpu": "1"}},
                    "containers": [{"name": "web", "image": "web:1"}]}}}})
    }

    #[test]
    fn a_finding_of_one_minor_is_said_for_its_clusters_only() {
        let checker = at(&[31, 32, 33, 31]);
        let object = deployment_with_pod_resources();
        let found = checker.check(&object, &[0, 1, 2, 3]);
        let unknown: Vec<(&str, &[usize])> = found
            .iter()
            .filter(|(finding, _)| finding.lint == Lint::UnknownField)
            .map(|(finding, clusters)| (finding.path.as_str(), clusters.as_slice()))
            .collect();
        assert_eq!(unknown, [("spec.template.spec.resources", &[0, 3][..])]);
        // The same as each minor's own check.
        for (cluster, minor) in [(0, 31), (1, 32), (2, 33)] {
            let alone = checker.check_at(&object, KubernetesVersion { minor });
            let together: Vec<&Finding> = found
                .iter()
                .filter(|(_, clusters)| clusters.contains(&cluster))
                .map(|(finding, _)| finding)
                .collect();
            assert_eq!(together, alone.iter().collect::<Vec<_>>(), "1.{minor}");
        }
    }

    /// The check reuses an earlier minor's findings where the kind's definitions are the
    /// same, and only there.
    #[test]
    fn an_earlier_minors_findings_are_taken_only_where_the_schemas_read_are_the_same() {
        let checker = at(&[31, 32, 33]);
        let checks = |object: &Value| {
            let mut memo = Memo::default();
            for minor in [31, 32, 33] {
                checker.check_at_with(object, KubernetesVersion { minor }, &mut memo);
            }
            memo.earlier
                .iter()
                .map(|earlier| earlier.version.minor)
                .collect::<Vec<_>>()
        };
        let config_map = json!({"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "settings"}, "data": {"mode": "fast"}, "colour": "red"});
        assert_eq!(checks(&config_map), [31]);
        // PodSpec gained `resources` in 1.32, and no other field: a Deployment that does not
        // set it reads the same in all three.
        let mut deployment = deployment_with_pod_resources();
        let pod = &mut deployment["spec"]["template"]["spec"];
        pod.as_object_mut().unwrap().remove("resources");
        assert_eq!(checks(&deployment), [31]);
        // One that sets it is unknown to 1.31, whose check is not reused: 1.33 takes 1.32's.
        assert_eq!(checks(&deployment_with_pod_resources()), [32]);
    }

    /// Reused findings are charged as a check of their own would be: the run's budget
    /// falls as it would without the reuse.
    #[test]
    fn a_reused_check_is_charged_as_one_taken_again() {
        let object = json!({"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "settings"}, "data": {"mode": "fast"}});
        let once = at(&[31]);
        once.check(&object, &[0]);
        let thrice = at(&[31, 32, 33]);
        thrice.check(&object, &[0, 1, 2]);
        let spent = |checker: &Checker| RUN - checker.run.left().0;
        const RUN: u64 = super::super::RUN_STEPS;
        assert!(spent(&once) > 0);
        assert_eq!(spent(&thrice), 3 * spent(&once));
    }

    /// With too little of the run's budget left for a check taken again, an earlier minor's
    /// findings are not taken: the later minors are refused, as they would be checked.
    #[test]
    fn a_check_the_runs_budget_no_longer_covers_is_not_reused() {
        let object = json!({"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "settings"}, "data": {"mode": "fast"}});
        let once = at(&[31]);
        once.check(&object, &[0]);
        let steps = super::super::RUN_STEPS - once.run.left().0;
        let short = at(&[31, 32, 33]).with_run_budget(steps + steps / 2, super::super::RUN_CEL);
        let found = short.check(&object, &[0, 1, 2]);
        let refused: Vec<&[usize]> = found
            .iter()
            .filter(|(finding, _)| finding.problem.contains("the run's budget"))
            .map(|(_, clusters)| clusters.as_slice())
            .collect();
        assert_eq!(refused, [&[1, 2][..]]);
    }
}
