use super::*;
use crate::documents::{Format, SourceFile};
use crate::run::{Inputs, Options, assemble};

const GATE_ON: &str = "\
apiVersion: fedrender.io/v1alpha1
kind: Config
spec:
  karmada:
    featureGates: {FederatedQuotaEnforcement: true}
";

fn deployment(name: &str, replicas: i64, cpu: &str, memory: &str) -> String {
    format!(
        "apiVersion: apps/v1
kind: Deployment
metadata: {{name: {name}, namespace: shop}}
spec:
  replicas: {replicas}
  selector: {{matchLabels: {{app: {name}}}}}
  template:
    metadata: {{labels: {{app: {name}}}}}
    spec:
      containers:
      - name: main
        image: nginx
        resources: {{requests: {{cpu: {cpu}, memory: {memory}}}}}
"
    )
}

fn policy(strategy: &str, clusters: &[&str]) -> String {
    format!(
        "apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {{name: all, namespace: shop}}
spec:
  resourceSelectors: [{{apiVersion: apps/v1, kind: Deployment}}]
  placement:
    clusterAffinity: {{clusterNames: [{}]}}
    replicaScheduling: {strategy}
",
        clusters.join(", ")
    )
}

fn cluster(name: &str, free: Option<(&str, &str, &str)>) -> String {
    let status = match free {
        Some((cpu, memory, pods)) => format!(
            "status:
  resourceSummary:
    allocatable: {{cpu: \"{cpu}\", memory: {memory}, pods: \"{pods}\"}}
    allocated: {{cpu: \"0\", memory: \"0\", pods: \"0\"}}
"
        ),
        None => String::new(),
    };
    format!(
        "apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {{name: {name}}}
spec: {{}}
{status}"
    )
}

fn quota(name: &str, overall: &str) -> String {
    format!(
        "apiVersion: policy.karmada.io/v1alpha1
kind: FederatedResourceQuota
metadata: {{name: {name}, namespace: shop}}
spec:
  overall: {overall}
"
    )
}

/// The capacity and warnings of a fleet written as documents.
fn assessed(documents: &[String]) -> (Capacity, Vec<Diagnostic>) {
    let text = documents.join("---\n");
    let file = SourceFile::new("fleet/all.yaml".into(), text, Format::Yaml);
    let fleet = assemble(Inputs::new("fleet", vec![file]), &Options::default())
        .result
        .expect("the fleet assembles");
    let placed = crate::render::place(&fleet).expect("the fleet places");
    let capacity = placed.capacity();
    let warnings = placed
        .warnings
        .iter()
        .filter(|warning| {
            matches!(
                warning.lint,
                Some(Lint::OverCapacity) | Some(Lint::QuotaExceeded) | Some(Lint::IgnoredField)
            )
        })
        .cloned()
        .collect();
    (capacity, warnings)
}

const DUPLICATED: &str = "{replicaSchedulingType: Duplicated}";

/// general.go `GetAllowedPodNumber` and `getMaximumReplicasBasedOnClusterSummary` read free
/// capacity as allocatable − allocated − allocating; assignment.go `assignByDuplicatedStrategy`
/// gives every cluster all the replicas without asking it: 10 × 2 CPU on a cluster with 1 CPU
/// free is 19 CPU short.
#[test]
fn a_duplicated_workload_past_a_clusters_free_cpu_is_over_capacity() {
    let (capacity, warnings) = assessed(&[
        deployment("web", 10, "\"2\"", "1Gi"),
        policy(DUPLICATED, &["tight", "roomy"]),
        cluster("tight", Some(("1", "64Gi", "110"))),
        cluster("roomy", Some(("64", "64Gi", "110"))),
    ]);
    let tight = capacity
        .clusters
        .iter()
        .find(|cluster| cluster.cluster == "tight")
        .unwrap();
    assert_eq!(tight.requested_of("cpu"), Quantity::from_units(20));
    assert_eq!(tight.requested_of("memory"), Quantity::from_units(10 << 30));
    assert_eq!(tight.requested_of("pods"), Quantity::from_units(10));
    assert_eq!(tight.free_of("cpu"), Some(Quantity::from_units(1)));
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    let message = &warnings[0].message;
    assert!(
        message.starts_with("cluster tight: its workloads request 20 cpu of 1 free (19 short)"),
        "{message}"
    );
    assert!(
        message.contains("Deployment.apps shop/web (10 replicas × 2 cpu)"),
        "{message}"
    );
}

/// A cluster of a big fleet receives thousands of workloads: the warning names the ten that take
/// the most of the first resource short (CPU here), largest first, and counts the rest.
#[test]
fn an_over_capacity_warning_names_the_largest_ten_workloads_and_counts_the_rest() {
    let mut documents: Vec<String> = (1..=12)
        .map(|n| deployment(&format!("w{n:02}"), n, "\"1\"", "1Mi"))
        .collect();
    documents.push(policy(DUPLICATED, &["tight"]));
    documents.push(cluster("tight", Some(("1", "64Gi", "1000"))));
    let (_, warnings) = assessed(&documents);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    let message = &warnings[0].message;
    let named: Vec<&str> = message
        .split(", ")
        .filter_map(|part| part.split("Deployment.apps shop/").nth(1))
        .map(|part| part.split(' ').next().unwrap())
        .collect();
    assert_eq!(
        named,
        [
            "w12", "w11", "w10", "w09", "w08", "w07", "w06", "w05", "w04", "w03"
        ],
        "{message}"
    );
    assert!(message.contains(", and 2 more workloads;"), "{message}");
}

/// Without `status.resourceSummary` the estimator knows nothing of the cluster (general.go:
/// no summary, no estimate): what it receives is counted, its free capacity is unknown, and
/// nothing is warned.
#[test]
fn a_cluster_without_a_summary_is_counted_but_never_over_capacity() {
    let (capacity, warnings) = assessed(&[
        deployment("web", 4, "500m", "256Mi"),
        policy(DUPLICATED, &["bare"]),
        cluster("bare", None),
    ]);
    assert_eq!(capacity.clusters.len(), 1);
    assert_eq!(capacity.clusters[0].free, None);
    assert_eq!(
        capacity.clusters[0].requested_of("cpu"),
        Quantity::from_units(2)
    );
    assert_eq!(
        shown("memory", capacity.clusters[0].requested_of("memory")),
        "1Gi"
    );
    assert!(warnings.is_empty(), "{warnings:?}");
}

/// validating.go `isAllowed` with the gate on: a 2-CPU Deployment under `overall: {cpu: "1"}`
/// is denied in every order, with the webhook's own words quoted.
#[test]
fn a_workload_past_overall_alone_is_always_denied() {
    let (capacity, warnings) = assessed(&[
        GATE_ON.to_string(),
        deployment("web", 2, "\"1\"", "1Gi"),
        policy(DUPLICATED, &["member1"]),
        cluster("member1", None),
        quota("q", "{cpu: \"1\"}"),
    ]);
    assert_eq!(
        capacity.quotas,
        vec![QuotaUsage {
            quota: "FederatedResourceQuota shop/q".to_string(),
            resource: "cpu".to_string(),
            overall: Quantity::from_units(1),
            requested: Quantity::from_units(2),
        }]
    );
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    let message = &warnings[0].message;
    for part in [
        "FederatedResourceQuota shop/q: spec.overall[cpu]: the namespace's workloads request 2 cpu",
        "more than the overall 1: Deployment.apps shop/web 2 replicas × 1 = 2",
        "\"FederatedResourceQuota(shop/q) exceeded for resource cpu\"",
        "it denies Deployment.apps shop/web whatever the order",
    ] {
        assert!(message.contains(part), "{part:?} not in {message}");
    }
    assert_eq!(warnings[0].lint, Some(Lint::QuotaExceeded));
}

/// Two bindings that fit alone but not together: the webhook denies whichever the scheduler
/// places second (`processSingleFRQ` adds each admitted binding to `overallUsed`), so both are
/// named as candidates and neither is picked.
#[test]
fn two_that_fit_alone_but_not_together_are_both_candidates() {
    let (_, warnings) = assessed(&[
        GATE_ON.to_string(),
        deployment("a", 3, "500m", "1Gi"),
        deployment("b", 1, "\"1\"", "1Gi"),
        policy(DUPLICATED, &["member1"]),
        cluster("member1", None),
        quota("q", "{cpu: \"2\", memory: 10Gi}"),
    ]);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    let message = &warnings[0].message;
    assert!(message.contains("request 2500m cpu"), "{message}");
    assert!(
        message.contains(
            "whether it denies Deployment.apps shop/a or Deployment.apps shop/b depends on the order"
        ),
        "{message}"
    );
}

/// The quota counts the replicas of every cluster (`CalculateResourceUsage` sums
/// `spec.clusters`): Duplicated over two clusters counts twice; and with the gate off nothing
/// is enforced (validating.go returns early), so no usage and no finding.
#[test]
fn every_clusters_replicas_count_and_the_gate_off_enforces_nothing() {
    let documents = [
        deployment("web", 1, "\"1\"", "1Gi"),
        policy(DUPLICATED, &["member1", "member2"]),
        cluster("member1", None),
        cluster("member2", None),
        quota("q", "{cpu: 1500m}"),
    ];
    let (off, warnings) = assessed(&documents);
    assert!(off.quotas.is_empty());
    assert!(warnings.is_empty(), "{warnings:?}");
    let mut with_gate = vec![GATE_ON.to_string()];
    with_gate.extend(documents);
    let (on, warnings) = assessed(&with_gate);
    assert_eq!(on.quotas[0].requested, Quantity::from_units(2));
    assert_eq!(warnings.len(), 1);
}

/// `filterResourceListByKeys`: a quota only weighs the resources its `overall` names.
#[test]
fn a_resource_the_overall_does_not_name_is_not_weighed() {
    let (capacity, warnings) = assessed(&[
        GATE_ON.to_string(),
        deployment("web", 8, "\"1\"", "1Gi"),
        policy(DUPLICATED, &["member1"]),
        cluster("member1", None),
        quota("q", "{memory: 100Gi}"),
    ]);
    assert_eq!(capacity.quotas.len(), 1);
    assert_eq!(capacity.quotas[0].resource, "memory");
    assert!(warnings.is_empty(), "{warnings:?}");
}

/// `filterResourceListByKeys` keeps the quota's keys that the binding's usage names, and the
/// usage names what `util.Resource.ResourceList` builds (`cpu`, not `requests.cpu`): such an
/// entry never denies, which is said at its line.
#[test]
fn an_overall_entry_no_usage_can_name_denies_nothing_and_says_so() {
    let (capacity, warnings) = assessed(&[
        GATE_ON.to_string(),
        deployment("web", 8, "\"1\"", "1Gi"),
        policy(DUPLICATED, &["member1"]),
        cluster("member1", None),
        quota("q", "{requests.cpu: \"1\", services: \"1\"}"),
    ]);
    assert!(capacity.quotas.iter().all(|used| !used.exceeded()));
    let messages: Vec<&str> = warnings.iter().map(|w| w.message.as_str()).collect();
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert!(
        messages
            .iter()
            .all(|m| m.contains("so this entry denies nothing")),
        "{messages:?}"
    );
    assert!(
        messages[0].contains("never \"requests.cpu\""),
        "{messages:?}"
    );
    assert!(messages[1].contains("never \"services\""), "{messages:?}");
}
