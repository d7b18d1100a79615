//! Capacity: how many replicas a member cluster can still take according to Karmada's general
//! estimator (spec §3.2 and §6); what one replica requests is the interpreter's
//! ([`crate::interpret::requests`]).
//!
//! - [`max_available_replicas`] is `GeneralEstimator.maxAvailableReplicas` with its resource-model
//!   simulation (karmada pkg/estimator/client/general.go,
//!   pkg/estimator/scheduling_simulator_components.go). Offline there are no assumed in-flight
//!   workloads (the `SchedulingOvercommitProtection` gate is alpha and off).
//!
//! Karmada does this in `util.Resource`, which keeps CPU in millicores and every other
//! resource in whole units; this module reads requests and capacity in the same units.

use std::collections::BTreeMap;

use crate::api::cluster::{Cluster, ResourceSummary};
use crate::interpret::requests::{CPU, PODS, amount_in, unit_of};
use crate::quantity::Quantity;

/// The pod capacity Karmada gives every virtual node of a resource model
/// (general.go `maxPodsCountPerNode`, the Kubernetes default).
const MAX_PODS_PER_MODEL_NODE: i128 = 110;

/// Estimates are `int32` in Karmada; a larger one would wrap there, it is capped here.
const MAX_REPLICAS: i128 = i32::MAX as i128;

/// How many more replicas, each with `requirements` (a request from
/// [`crate::interpret::requests::resource_request`], `None` when the binding has no replica
/// requirements), the general estimator says `cluster` can take —
/// `GeneralEstimator.maxAvailableReplicas` (general.go):
///
/// 1. no `status.resourceSummary` ⇒ 0;
/// 2. allowed pods = allocatable − allocated − allocating `pods` (missing = 0); ≤ 0 ⇒ 0;
/// 3. no requirements ⇒ the allowed pods. A node claim without requests is a requirement
///    (`GenerateReplicaRequirements` returns it with a nil request), so it goes on: an empty
///    request bounds nothing in the summary, but a model node still takes at most 110 pods;
/// 4. with `status.resourceSummary.allocatableModelings` and `spec.resourceModels`, the
///    resource-model simulation (`CustomizedClusterResourceModeling`, Beta, on by default) bounds
///    the allowed pods and the summary is not consulted;
/// 5. otherwise each requested resource bounds it by ⌊available / request⌋ from the summary,
///    CPU in millicores and the rest in whole units; a requested resource the cluster does not
///    list, or has none left of, ⇒ 0.
///
/// The caller handles what surrounds this in karmada pkg/scheduler/core/util.go
/// `calAvailableReplicas`: no estimate at all for `replicas == 0`, and `i32::MAX` (returned here
/// as the cap) turned into the binding's replicas. The inventory's quantities were parsed when
/// it was read.
pub(crate) fn max_available_replicas(
    cluster: &Cluster,
    requirements: Option<&BTreeMap<String, Quantity>>,
) -> i64 {
    let Some(summary) = cluster
        .status
        .as_ref()
        .and_then(|status| status.resource_summary.as_ref())
    else {
        return 0;
    };
    let allowed = allowed_pods(summary);
    if allowed <= 0 {
        return 0;
    }
    let Some(request) = requirements else {
        return allowed.clamp(0, MAX_REPLICAS) as i64;
    };
    let estimate = if let Some(by_models) = replicas_by_resource_models(cluster, summary, request) {
        allowed.min(by_models)
    } else {
        allowed.min(replicas_by_summary(summary, request))
    };
    estimate.clamp(0, MAX_REPLICAS) as i64
}

/// `getAllowedPodNumber`: each `pods` value rounded up to whole pods, then subtracted.
fn allowed_pods(summary: &ResourceSummary) -> i128 {
    let pods = |entries: &BTreeMap<String, Quantity>| {
        entries
            .get(PODS)
            .map_or(0, |quantity| quantity.value_ceil())
    };
    let allowed = pods(&summary.allocatable) - pods(&summary.allocated) - pods(&summary.allocating);
    allowed.max(0)
}

/// `getMaximumReplicasBasedOnClusterSummary`.
fn replicas_by_summary(summary: &ResourceSummary, request: &BTreeMap<String, Quantity>) -> i128 {
    let mut maximum = i64::MAX as i128;
    for (name, requested) in request {
        if requested.value_ceil() <= 0 {
            continue;
        }
        let Some(&allocatable) = summary.allocatable.get(name) else {
            return 0;
        };
        let mut available = allocatable;
        for entries in [&summary.allocated, &summary.allocating] {
            if let Some(&used) = entries.get(name) {
                available = available.saturating_sub(used);
            }
        }
        if available.value_ceil() <= 0 {
            return 0;
        }
        let (have, need) = if name == CPU {
            (available.milli_value_ceil(), requested.milli_value_ceil())
        } else {
            (available.value_ceil(), requested.value_ceil())
        };
        maximum = maximum.min(have / need);
    }
    maximum
}

/// `getMaximumReplicasBasedOnResourceModels`, or `None` where Karmada's attempt errs and it falls
/// back to the summary: no `allocatableModelings` (the gate's precondition), no
/// `spec.resourceModels`, or a negative node count (`buildModelNodes`).
///
/// Karmada builds `count` identical virtual nodes per grade (capacity: each range's `min`, plus
/// 110 pods; a grade listed twice in the spec keeps its last entry), grades ascending, and
/// first-fits one replica at a time (`SchedulingSimulator`). A node's fit only shrinks by one as a
/// replica lands on it, so the simulation places exactly Σ count × per-node fit replicas, capped at
/// `MaxInt32`; that sum is computed directly here.
fn replicas_by_resource_models(
    cluster: &Cluster,
    summary: &ResourceSummary,
    request: &BTreeMap<String, Quantity>,
) -> Option<i128> {
    if summary.allocatable_modelings.is_empty() || cluster.spec.resource_models.is_empty() {
        return None;
    }
    let mut capacity_by_grade: BTreeMap<u64, BTreeMap<&str, i128>> = BTreeMap::new();
    for model in &cluster.spec.resource_models {
        let mut capacity = BTreeMap::new();
        for range in &model.ranges {
            if let Some(unit) = unit_of(&range.name) {
                capacity.insert(range.name.as_str(), amount_in(unit, &range.min));
            }
        }
        capacity.insert(PODS, MAX_PODS_PER_MODEL_NODE);
        capacity_by_grade.insert(model.grade, capacity);
    }
    let mut count_by_grade: BTreeMap<u64, i128> = BTreeMap::new();
    for modeling in &summary.allocatable_modelings {
        if modeling.count < 0 {
            return None;
        }
        *count_by_grade.entry(modeling.grade).or_default() += i128::from(modeling.count);
    }
    let mut total: i128 = 0;
    for (grade, capacity) in &capacity_by_grade {
        let count = count_by_grade.get(grade).copied().unwrap_or(0);
        if count == 0 {
            continue;
        }
        total = total.saturating_add(count.saturating_mul(replicas_per_node(capacity, request)));
    }
    Some(total.min(MAX_REPLICAS))
}

/// `util.Resource.MaxDivided` for one replica (which also takes one pod): the requested CPU,
/// memory, ephemeral storage and scalar resources each bound it, a resource the node lacks
/// counting as 0; other names (including `pods`) are ignored, and the pod capacity bounds it last.
fn replicas_per_node(
    capacity: &BTreeMap<&str, i128>,
    request: &BTreeMap<String, Quantity>,
) -> i128 {
    let mut fit = i128::MAX;
    for (name, quantity) in request {
        let Some(unit) = unit_of(name) else {
            continue;
        };
        if name == PODS {
            continue;
        }
        let need = amount_in(unit, quantity);
        if need > 0 {
            let have = capacity.get(name.as_str()).copied().unwrap_or(0);
            fit = fit.min(have / need);
        }
    }
    let pods = capacity.get(PODS).copied().unwrap_or(0);
    fit.min(pods).max(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interpret::requests::resource_request;
    use crate::quantity::parse_quantity;
    use serde_json::{Value, json};

    fn cluster(value: Value) -> Cluster {
        let mut object = json!({
            "apiVersion": "cluster.karmada.io/v1alpha1",
            "kind": "Cluster",
            "metadata": {"name": "member1"},
        });
        if let (Some(target), Value::Object(fields)) = (object.as_object_mut(), value) {
            target.extend(fields);
        }
        match serde_json::from_value(object) {
            Ok(cluster) => cluster,
            Err(error) => panic!("bad test cluster: {error}"),
        }
    }

    fn with_summary(summary: Value) -> Cluster {
        cluster(json!({"status": {"resourceSummary": summary}}))
    }

    fn quantities(pairs: &[(&str, &str)]) -> BTreeMap<String, Quantity> {
        pairs
            .iter()
            .map(|&(name, text)| match parse_quantity(text) {
                Ok(quantity) => (name.to_string(), quantity),
                Err(error) => panic!("{error}"),
            })
            .collect()
    }

    fn estimate(cluster: &Cluster, request: &[(&str, &str)]) -> i64 {
        max_available_replicas(cluster, Some(&quantities(request)))
    }

    fn request_of(pod_spec: Value) -> BTreeMap<String, Quantity> {
        match resource_request(&pod_spec) {
            Ok(request) => request,
            Err(error) => panic!("{error}"),
        }
    }

    /// The allocatable 4 CPU / 8Gi / 100 pods, allocated 1 / 2Gi / 20 cluster of
    /// general_test.go (and spec §6's example).
    fn spec_example_cluster() -> Cluster {
        with_summary(json!({
            "allocatable": {"cpu": "4", "memory": "8Gi", "pods": "100"},
            "allocated": {"cpu": "1", "memory": "2Gi", "pods": "20"},
        }))
    }

    /// Spec §6: min(80 pods, 3000m/500m = 6, 6Gi/1Gi = 6) = 6. Also general_test.go
    /// `TestMaxAvailableReplicas` "single cluster with resources" and
    /// `TestMaxAvailableReplicasGeneral` "basic resource estimation".
    #[test]
    fn spec_example() {
        let request = [("cpu", "500m"), ("memory", "1Gi")];
        assert_eq!(estimate(&spec_example_cluster(), &request), 6);
    }

    /// general_test.go `TestMaxAvailableReplicas` "cluster with no resources" and
    /// `TestMaxAvailableReplicasGeneral` "nil resource summary", "no allowed pods", "nil replica
    /// requirements". (Their "assumed workloads" rows need in-flight bindings, which offline
    /// rendering never has.)
    #[test]
    fn upstream_general_estimator_rows() {
        let bare = cluster(json!({"status": {}}));
        assert_eq!(estimate(&bare, &[("cpu", "1")]), 0);
        assert_eq!(estimate(&bare, &[]), 0);
        assert_eq!(estimate(&cluster(json!({})), &[]), 0);
        let full = with_summary(json!({
            "allocatable": {"pods": "10"},
            "allocated": {"pods": "10"},
        }));
        assert_eq!(estimate(&full, &[]), 0);
        assert_eq!(estimate(&full, &[("cpu", "1")]), 0);
        let pods_only = with_summary(json!({"allocatable": {"pods": "10"}}));
        assert_eq!(estimate(&pods_only, &[]), 10);
    }

    /// general_test.go `TestGetAllowedPodNumber`.
    #[test]
    fn upstream_allowed_pod_rows() {
        let rows = [
            (
                json!({"allocatable": {"pods": "100"}, "allocated": {"pods": "40"}, "allocating": {"pods": "10"}}),
                50,
            ),
            (json!({"allocated": {"pods": "10"}}), 0),
            (
                json!({"allocatable": {"pods": "100"}, "allocated": {"pods": "90"}, "allocating": {"pods": "20"}}),
                0,
            ),
        ];
        for (summary, expected) in rows {
            let cluster = with_summary(summary);
            let summary = cluster
                .status
                .as_ref()
                .and_then(|status| status.resource_summary.as_ref());
            let allowed = summary.map(allowed_pods);
            assert_eq!(allowed, Some(expected));
            assert_eq!(estimate(&cluster, &[]), expected as i64);
        }
    }

    /// general_test.go `TestGetMaximumReplicasBasedOnClusterSummary`.
    #[test]
    fn upstream_cluster_summary_rows() {
        let request = [("cpu", "500m"), ("memory", "1Gi")];
        let sufficient = with_summary(json!({
            "allocatable": {"cpu": "4", "memory": "8Gi", "pods": "1000"},
            "allocated": {"cpu": "1", "memory": "2Gi"},
        }));
        assert_eq!(estimate(&sufficient, &request), 6);
        let insufficient_memory = with_summary(json!({
            "allocatable": {"cpu": "4", "memory": "2Gi", "pods": "1000"},
            "allocated": {"cpu": "1", "memory": "1.5Gi"},
        }));
        assert_eq!(estimate(&insufficient_memory, &request), 0);
    }

    fn three_grades(ranges: &[&[(&str, &str, &str)]]) -> Value {
        let models: Vec<Value> = ranges
            .iter()
            .enumerate()
            .map(|(grade, ranges)| {
                let ranges: Vec<Value> = ranges
                    .iter()
                    .map(|&(name, min, max)| json!({"name": name, "min": min, "max": max}))
                    .collect();
                json!({"grade": grade, "ranges": ranges})
            })
            .collect();
        Value::Array(models)
    }

    fn models_only(ranges: &[&[(&str, &str, &str)]], request: &[(&str, &str)]) -> Option<i128> {
        let cluster = cluster(json!({
            "spec": {"resourceModels": three_grades(ranges)},
            "status": {"resourceSummary": {"allocatableModelings": [
                {"grade": 0, "count": 1}, {"grade": 1, "count": 1}, {"grade": 2, "count": 1},
            ]}},
        }));
        let summary = cluster
            .status
            .as_ref()
            .and_then(|status| status.resource_summary.as_ref())?;
        replicas_by_resource_models(&cluster, summary, &quantities(request))
    }

    /// general_test.go `TestGetMaximumReplicasBasedOnResourceModels`, every row.
    #[test]
    fn upstream_resource_model_rows() {
        // "No grade defined should result in an error" (Karmada then falls back to the summary).
        let empty = cluster(json!({"status": {"resourceSummary": {}}}));
        let summary = empty
            .status
            .as_ref()
            .and_then(|status| status.resource_summary.as_ref());
        let fallback = summary.map(|summary| {
            replicas_by_resource_models(&empty, summary, &quantities(&[("cpu", "1")]))
        });
        assert_eq!(fallback, Some(None));
        let cpu_grades: &[&[(&str, &str, &str)]] = &[
            &[("cpu", "0", "1")],
            &[("cpu", "1", "2")],
            &[("cpu", "2", "4")],
        ];
        // "Partially compliant grades": only the grade-2 node fits one 1.5-CPU replica.
        assert_eq!(models_only(cpu_grades, &[("cpu", "1.5")]), Some(1));
        // "No compliant grades".
        assert_eq!(models_only(cpu_grades, &[("cpu", "3")]), Some(0));
        let cpu_memory_grades: &[&[(&str, &str, &str)]] = &[
            &[("cpu", "0", "1"), ("memory", "0", "1Gi")],
            &[("cpu", "1", "2"), ("memory", "1Gi", "2Gi")],
            &[("cpu", "2", "4"), ("memory", "2Gi", "4Gi")],
        ];
        // "Multi resource request": CPU fits grade 1, memory only grade 2.
        let request = [("cpu", "1"), ("memory", "1.5Gi")];
        assert_eq!(models_only(cpu_memory_grades, &request), Some(1));
        // "request exceeds highest grade".
        let request = [("cpu", "1"), ("memory", "2.5Gi")];
        assert_eq!(models_only(cpu_memory_grades, &request), Some(0));
    }

    /// general_test.go `TestMaxAvailableReplicasGeneralWithResourceModels`, the baseline without
    /// assumed workloads: three grade-1 nodes (1 CPU each) fit 2 × 500m each.
    #[test]
    fn upstream_resource_models_baseline() {
        let cluster = cluster(json!({
            "spec": {"resourceModels": [
                {"grade": 0, "ranges": [{"name": "cpu", "min": "0", "max": "1"}]},
                {"grade": 1, "ranges": [{"name": "cpu", "min": "1", "max": "2"}]},
            ]},
            "status": {"resourceSummary": {
                "allocatable": {"pods": "100", "cpu": "3"},
                "allocatableModelings": [{"grade": 0, "count": 0}, {"grade": 1, "count": 3}],
            }},
        }));
        assert_eq!(estimate(&cluster, &[("cpu", "500m")]), 6);
    }

    /// The model result replaces the summary bound (it is not combined with it), and each way of
    /// failing the model path falls back to the summary.
    #[test]
    fn resource_models_take_precedence_or_fall_back() {
        let models = json!([
            {"grade": 0, "ranges": [{"name": "cpu", "min": "2", "max": "4"}, {"name": "memory", "min": "4Gi", "max": "8Gi"}]},
        ]);
        // The summary alone would allow 1 replica of 1 CPU; the 10 model nodes allow 20.
        let summary = json!({
            "allocatable": {"pods": "100", "cpu": "1", "memory": "1Ti"},
            "allocatableModelings": [{"grade": 0, "count": 10}],
        });
        let modelled = cluster(json!({
            "spec": {"resourceModels": models},
            "status": {"resourceSummary": summary},
        }));
        assert_eq!(estimate(&modelled, &[("cpu", "1")]), 20);
        // Still bounded by the allowed pods.
        let few_pods = cluster(json!({
            "spec": {"resourceModels": models},
            "status": {"resourceSummary": {
                "allocatable": {"pods": "7"},
                "allocatableModelings": [{"grade": 0, "count": 10}],
            }},
        }));
        assert_eq!(estimate(&few_pods, &[("cpu", "1")]), 7);
        // 110 pods per virtual node bound tiny requests.
        assert_eq!(estimate(&modelled, &[("cpu", "1m")]), 100);
        let many_pods = cluster(json!({
            "spec": {"resourceModels": models},
            "status": {"resourceSummary": {
                "allocatable": {"pods": "100000"},
                "allocatableModelings": [{"grade": 0, "count": 10}],
            }},
        }));
        assert_eq!(estimate(&many_pods, &[("cpu", "1m")]), 1_100);
        // A resource the models do not describe fits nowhere.
        assert_eq!(estimate(&many_pods, &[("nvidia.com/gpu", "1")]), 0);
        // Counts of a grade add up; grades the spec lacks are skipped; all counts 0 ⇒ 0.
        let counted = |modelings: Value| {
            cluster(json!({
                "spec": {"resourceModels": models},
                "status": {"resourceSummary": {
                    "allocatable": {"pods": "1000", "cpu": "1000"},
                    "allocatableModelings": modelings,
                }},
            }))
        };
        let doubled = counted(
            json!([{"grade": 0, "count": 2}, {"grade": 0, "count": 3}, {"grade": 9, "count": 50}]),
        );
        assert_eq!(estimate(&doubled, &[("cpu", "1")]), 10);
        let none = counted(json!([{"grade": 0, "count": 0}]));
        assert_eq!(estimate(&none, &[("cpu", "1")]), 0);
        // No spec.resourceModels, or a negative count: the summary decides.
        let unmodelled = with_summary(summary.clone());
        assert_eq!(estimate(&unmodelled, &[("cpu", "1")]), 1);
        let negative = counted(json!([{"grade": 0, "count": -1}]));
        assert_eq!(estimate(&negative, &[("cpu", "1")]), 1_000);
        // No allocatableModelings: the summary decides even with models in the spec.
        let unsummarised = cluster(json!({
            "spec": {"resourceModels": models},
            "status": {"resourceSummary": {"allocatable": {"pods": "100", "cpu": "1"}}},
        }));
        assert_eq!(estimate(&unsummarised, &[("cpu", "1")]), 1);
    }

    /// pkg/util/resource_test.go `TestResource_MaxDivided`: 100 of everything against
    /// 10m CPU (10), 5 memory (20), 20 pods (ignored: a replica takes one pod), 15 ephemeral
    /// storage (6), 18 test.karmada.io/foo (5) ⇒ 5.
    #[test]
    fn upstream_max_divided_row() {
        let capacity: BTreeMap<&str, i128> = [
            ("cpu", 100),
            ("memory", 100),
            ("ephemeral-storage", 100),
            ("pods", 100),
            ("test.karmada.io/foo", 100),
        ]
        .into_iter()
        .collect();
        let request = quantities(&[
            ("cpu", "10m"),
            ("memory", "5"),
            ("pods", "20"),
            ("ephemeral-storage", "15"),
            ("test.karmada.io/foo", "18"),
        ]);
        assert_eq!(replicas_per_node(&capacity, &request), 5);
    }

    #[test]
    fn summary_bound_details() {
        let cluster = with_summary(json!({
            "allocatable": {"pods": 1000, "cpu": "1", "memory": "10", "nvidia.com/gpu": 4},
            "allocating": {"cpu": "100m", "nvidia.com/gpu": 1},
        }));
        // CPU in millicores: 900m / 300m = 3 (whole cores would give 1/1).
        assert_eq!(estimate(&cluster, &[("cpu", "300m")]), 3);
        // Other resources in whole units, the request rounded up: 10 / ⌈1.5⌉ = 5.
        assert_eq!(estimate(&cluster, &[("memory", "1.5")]), 5);
        assert_eq!(estimate(&cluster, &[("nvidia.com/gpu", "1")]), 3);
        // A requested resource the cluster does not list ⇒ 0; a zero request is ignored.
        assert_eq!(
            estimate(&cluster, &[("cpu", "300m"), ("example.com/fpga", "1")]),
            0
        );
        assert_eq!(
            estimate(&cluster, &[("cpu", "300m"), ("example.com/fpga", "0")]),
            3
        );
        // Nothing left ⇒ 0.
        let exhausted = with_summary(json!({
            "allocatable": {"pods": 1000, "cpu": "1"},
            "allocated": {"cpu": "600m"},
            "allocating": {"cpu": "400m"},
        }));
        assert_eq!(estimate(&exhausted, &[("cpu", "1m")]), 0);
        // No pods listed ⇒ 0 whatever else there is.
        let podless = with_summary(json!({"allocatable": {"cpu": "64"}}));
        assert_eq!(estimate(&podless, &[("cpu", "1")]), 0);
        // Beyond int32 is capped.
        let huge = with_summary(json!({"allocatable": {"pods": "5e9"}}));
        assert_eq!(estimate(&huge, &[]), i32::MAX as i64);
    }

    #[test]
    fn malformed_inventory_quantities_are_rejected_when_the_inventory_is_read() {
        let parse = |value: Value| -> Result<Cluster, String> {
            let mut object = json!({"apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster",
                "metadata": {"name": "member1"}});
            object
                .as_object_mut()
                .unwrap()
                .extend(value.as_object().unwrap().clone());
            serde_json::from_value(object).map_err(|error| error.to_string())
        };
        let summary = parse(
            json!({"status": {"resourceSummary": {"allocatable": {"pods": "100", "cpu": "4 cores"}}}}),
        );
        assert!(summary.is_err_and(|message| message.contains("4 cores")));
        assert!(
            parse(json!({"status": {"resourceSummary": {"allocatable": {"pods": true}}}})).is_err()
        );
        let model = parse(json!({"spec": {"resourceModels": [
            {"grade": 0, "ranges": [{"name": "cpu", "min": "two", "max": "4"}]}]}}));
        assert!(model.is_err_and(|message| message.contains("two")));
    }

    /// End to end: the request of a template against the spec's cluster.
    #[test]
    fn request_then_estimate() {
        let pod_spec = json!({"containers": [
            {"resources": {"requests": {"cpu": "250m", "memory": "512Mi"}}},
            {"resources": {"limits": {"cpu": "250m", "memory": "512Mi"}}},
        ]});
        let request = request_of(pod_spec);
        assert_eq!(
            max_available_replicas(&spec_example_cluster(), Some(&request)),
            6
        );
        assert_eq!(max_available_replicas(&spec_example_cluster(), None), 80);
    }

    /// general.go `maxAvailableReplicas` returns the allowed pods only for nil requirements; a
    /// node claim alone (a nodeSelector, no requests) makes non-nil requirements with an empty
    /// request, which the resource models bound at 110 pods a model node.
    #[test]
    fn a_node_claim_without_requests_is_still_bounded_by_the_models() {
        let cluster = cluster(json!({
            "spec": {"resourceModels": [{"grade": 0, "ranges": [
                {"name": "cpu", "min": "0", "max": "4"}]}]},
            "status": {"resourceSummary": {
                "allocatable": {"pods": "1000"},
                "allocatableModelings": [{"grade": 0, "count": 1}],
            }},
        }));
        assert_eq!(max_available_replicas(&cluster, None), 1000);
        assert_eq!(
            max_available_replicas(&cluster, Some(&BTreeMap::new())),
            110
        );
        let no_models = with_summary(json!({"allocatable": {"pods": "1000"}}));
        assert_eq!(
            max_available_replicas(&no_models, Some(&BTreeMap::new())),
            1000
        );
    }
}
