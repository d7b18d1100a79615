//! Tests of checking a built-in object once for the Kubernetes minors whose definitions its
//! walk reads alike ([`super::Memo`]): a finding that depends on the minor is still said for
//! that minor's clusters only, and the run's budget falls as if every check were taken.

use serde_json::{Value, json};

use super::{Checker, ClusterVersion, Finding, KubernetesVersion, Memo, VersionSource};
use crate::lint::Lint;

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
    const RUN: u64 = super::RUN_STEPS;
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
    let steps = super::RUN_STEPS - once.run.left().0;
    let short = at(&[31, 32, 33]).with_run_budget(steps + steps / 2, super::RUN_CEL);
    let found = short.check(&object, &[0, 1, 2]);
    let refused: Vec<&[usize]> = found
        .iter()
        .filter(|(finding, _)| finding.problem.contains("the run's budget"))
        .map(|(_, clusters)| clusters.as_slice())
        .collect();
    assert_eq!(refused, [&[1, 2][..]]);
}
