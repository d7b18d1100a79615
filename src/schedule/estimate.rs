//! Capacity: what one replica of a workload requests, and how many such replicas a member
//! cluster can still take according to Karmada's general estimator (spec §3.2 and §6).
//!
//! - [`resource_request`] is `GenerateReplicaRequirements` → `util.Resource.AddPodTemplateRequest`
//!   → `ResourceList` (karmada pkg/util/helper/binding.go, pkg/util/resource.go).
//! - [`max_available_replicas`] is `GeneralEstimator.maxAvailableReplicas` with its resource-model
//!   simulation (karmada pkg/estimator/client/general.go,
//!   pkg/estimator/scheduling_simulator_components.go). Offline there are no assumed in-flight
//!   workloads (the `SchedulingOvercommitProtection` gate is alpha and off).
//!
//! Karmada does all of this in `util.Resource`, which keeps CPU in millicores and every other
//! resource in whole units, rounding each quantity up as it is read, and which only knows CPU,
//! memory, ephemeral storage, pods and "scalar" resources (extended resources such as
//! `nvidia.com/gpu`, `hugepages-*`, `attachable-volumes-*`, `*kubernetes.io/*`). This module
//! rounds at the same points and ignores the same names, so that the numbers match.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::api::cluster::{Cluster, ResourceSummary};
use crate::quantity::{Quantity, quantity_from_json};

const CPU: &str = "cpu";
const MEMORY: &str = "memory";
const EPHEMERAL_STORAGE: &str = "ephemeral-storage";
const PODS: &str = "pods";

/// The pod capacity Karmada gives every virtual node of a resource model
/// (general.go `maxPodsCountPerNode`, the Kubernetes default).
const MAX_PODS_PER_MODEL_NODE: i128 = 110;

/// Estimates are `int32` in Karmada; a larger one would wrap there, it is capped here.
const MAX_REPLICAS: i128 = i32::MAX as i128;

/// Tracked resources of one resource list, each in its unit.
type Amounts = Vec<(String, Unit, i128)>;

/// How `util.Resource` reads a resource, or `None` for names it drops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unit {
    /// CPU, in millicores (`MilliValue`).
    Milli,
    /// Everything else it tracks, in whole units (`Value`).
    Whole,
}

fn unit_of(name: &str) -> Option<Unit> {
    match name {
        CPU => Some(Unit::Milli),
        MEMORY | EPHEMERAL_STORAGE | PODS => Some(Unit::Whole),
        _ if is_scalar_resource_name(name) => Some(Unit::Whole),
        _ => None,
    }
}

fn amount_in(unit: Unit, quantity: &Quantity) -> i128 {
    match unit {
        Unit::Milli => quantity.milli_value_ceil(),
        Unit::Whole => quantity.value_ceil(),
    }
}

fn quantity_of(unit: Unit, amount: i128) -> Quantity {
    let nanos_per = match unit {
        Unit::Milli => 1_000_000,
        Unit::Whole => 1_000_000_000,
    };
    Quantity::from_nanos(amount.saturating_mul(nanos_per))
}

/// `IsScalarResourceName` (karmada pkg/util/lifted/resourcename.go, from kube-scheduler).
fn is_scalar_resource_name(name: &str) -> bool {
    is_extended_resource_name(name)
        || name.starts_with("hugepages-")
        || name.contains("kubernetes.io/")
        || name.starts_with("attachable-volumes-")
}

/// `IsExtendedResourceName` (karmada pkg/util/lifted/corev1helpers.go): outside the
/// `kubernetes.io/` namespace (so it has a `/`), not `requests.`-prefixed, and `requests.<name>`
/// is a qualified name.
fn is_extended_resource_name(name: &str) -> bool {
    let native = !name.contains('/') || name.contains("kubernetes.io/");
    !native && !name.starts_with("requests.") && is_qualified_name(&format!("requests.{name}"))
}

/// apimachinery `validation.IsQualifiedName`: `[prefix/]name`, the prefix a DNS-1123 subdomain,
/// the name at most 63 characters of `[A-Za-z0-9_.-]`, starting and ending alphanumeric.
fn is_qualified_name(value: &str) -> bool {
    let parts: Vec<&str> = value.split('/').collect();
    let name = match parts.as_slice() {
        [name] => name,
        [prefix, name] => {
            if !is_dns1123_subdomain(prefix) {
                return false;
            }
            name
        }
        _ => return false,
    };
    let bytes = name.as_bytes();
    match (bytes.first(), bytes.last()) {
        (Some(first), Some(last)) => {
            bytes.len() <= 63
                && first.is_ascii_alphanumeric()
                && last.is_ascii_alphanumeric()
                && bytes
                    .iter()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        }
        _ => false,
    }
}

/// apimachinery `validation.IsDNS1123Subdomain`.
fn is_dns1123_subdomain(value: &str) -> bool {
    !value.is_empty()
        && value.len() <= 253
        && value.split('.').all(|label| {
            let bytes = label.as_bytes();
            match (bytes.first(), bytes.last()) {
                (Some(first), Some(last)) => {
                    (first.is_ascii_lowercase() || first.is_ascii_digit())
                        && (last.is_ascii_lowercase() || last.is_ascii_digit())
                        && bytes
                            .iter()
                            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'-')
                }
                _ => false,
            }
        })
}

/// The per-replica resource request of a pod template (`spec.template.spec` of a Deployment,
/// StatefulSet, ReplicaSet or Job; `spec` of a Pod), as Karmada puts it into
/// `binding.spec.replicaRequirements.resourceRequest`.
///
/// Per container, its requests, plus any resource that has a limit but no request at the limit
/// (the Kubernetes defaulting Karmada repeats); summed over `containers`; raised per resource to
/// the largest `initContainers` request when that is higher; plus `overhead`. CPU is counted in
/// millicores and the rest in whole units, each container's value rounded up; names Karmada
/// does not track are dropped, and so are resources that end up 0. An empty map is Karmada's
/// nil `resourceRequest` (the workload is then estimated by pod count alone).
///
/// Errors name the offending field, relative to the pod spec (`containers[0].resources...`).
pub fn resource_request(pod_spec: &Value) -> Result<BTreeMap<String, Quantity>, String> {
    let mut total: BTreeMap<String, (Unit, i128)> = BTreeMap::new();
    for (index, container) in containers(pod_spec, "containers")?.iter().enumerate() {
        for (name, unit, amount) in container_requests(container, &format!("containers[{index}]"))?
        {
            let slot = &mut total.entry(name).or_insert((unit, 0)).1;
            *slot = slot.saturating_add(amount);
        }
    }
    for (index, container) in containers(pod_spec, "initContainers")?.iter().enumerate() {
        let path = format!("initContainers[{index}]");
        for (name, unit, amount) in container_requests(container, &path)? {
            let slot = &mut total.entry(name).or_insert((unit, 0)).1;
            if amount > *slot {
                *slot = amount;
            }
        }
    }
    if let Some(overhead) = resource_list(pod_spec.get("overhead"), "overhead")? {
        for (name, unit, amount) in overhead {
            let slot = &mut total.entry(name).or_insert((unit, 0)).1;
            *slot = slot.saturating_add(amount);
        }
    }
    Ok(total
        .into_iter()
        .filter(|(_, (_, amount))| *amount > 0)
        .map(|(name, (unit, amount))| (name, quantity_of(unit, amount)))
        .collect())
}

fn containers<'a>(pod_spec: &'a Value, field: &str) -> Result<&'a [Value], String> {
    match pod_spec.get(field) {
        None | Some(Value::Null) => Ok(&[]),
        Some(Value::Array(list)) => Ok(list),
        Some(_) => Err(format!("{field}: expected a list of containers")),
    }
}

/// A container's effective requests: requests, then limits for the resources with no request.
fn container_requests(container: &Value, path: &str) -> Result<Amounts, String> {
    if !container.is_object() {
        return Err(format!("{path}: expected a container object"));
    }
    let resources = match container.get("resources") {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(resources @ Value::Object(_)) => resources,
        Some(_) => return Err(format!("{path}.resources: expected an object")),
    };
    let requests = resource_list(
        resources.get("requests"),
        &format!("{path}.resources.requests"),
    )?
    .unwrap_or_default();
    let limits = resource_list(resources.get("limits"), &format!("{path}.resources.limits"))?
        .unwrap_or_default();
    let requested: Vec<String> = match resources.get("requests") {
        Some(Value::Object(map)) => map.keys().cloned().collect(),
        _ => Vec::new(),
    };
    let mut effective = requests;
    effective.extend(
        limits
            .into_iter()
            .filter(|(name, _, _)| !requested.contains(name)),
    );
    Ok(effective)
}

/// A `ResourceList` read the way `util.Resource.Add` reads it: every quantity must parse; the
/// tracked ones come back converted to their unit.
fn resource_list(value: Option<&Value>, path: &str) -> Result<Option<Amounts>, String> {
    let map = match value {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::Object(map)) => map,
        Some(_) => return Err(format!("{path}: expected a map of resource quantities")),
    };
    let mut list = Vec::with_capacity(map.len());
    for (name, quantity) in map {
        let quantity =
            quantity_from_json(quantity).map_err(|error| format!("{path}.{name}: {error}"))?;
        if let Some(unit) = unit_of(name) {
            list.push((name.clone(), unit, amount_in(unit, &quantity)));
        }
    }
    Ok(Some(list))
}

/// How many more replicas, each requesting `request` (from [`resource_request`]), the general
/// estimator says `cluster` can take — `GeneralEstimator.maxAvailableReplicas` (general.go):
///
/// 1. no `status.resourceSummary` ⇒ 0;
/// 2. allowed pods = allocatable − allocated − allocating `pods` (missing = 0); ≤ 0 ⇒ 0;
/// 3. empty request ⇒ the allowed pods;
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
pub fn max_available_replicas(cluster: &Cluster, request: &BTreeMap<String, Quantity>) -> i64 {
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
    let estimate = if request.is_empty() {
        allowed
    } else if let Some(by_models) = replicas_by_resource_models(cluster, summary, request) {
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
    use crate::quantity::parse_quantity;
    use serde_json::json;

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
        max_available_replicas(cluster, &quantities(request))
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

    /// binding_test.go `TestGenerateReplicaRequirements`: an empty template has no request; a
    /// limit without a request becomes the request.
    #[test]
    fn upstream_generate_replica_requirements_rows() {
        assert!(request_of(json!({})).is_empty());
        assert!(
            request_of(json!({
                "nodeSelector": {"foo": "foo1"},
                "tolerations": [{"key": "foo", "operator": "Exists", "effect": "NoSchedule"}],
            }))
            .is_empty()
        );
        let limited =
            request_of(json!({"containers": [{"resources": {"limits": {"cpu": "200m"}}}]}));
        assert_eq!(limited, quantities(&[("cpu", "200m")]));
    }

    /// pkg/util/resource_test.go `TestResource_AddPodTemplateRequest`: containers (requests, and
    /// limits where a request is missing), the init-container maximum, then the overhead.
    #[test]
    fn upstream_add_pod_template_request_row() {
        let pod_spec = json!({
            "containers": [{"resources": {
                "requests": {"cpu": "10m", "memory": "10", "test.karmada.io/foo": "10", "test.karmada.io/bar": "10"},
                "limits": {"memory": "99999", "pods": "10", "test.karmada.io/bar": "99999", "test.karmada.io/baz": "10"},
            }}],
            "initContainers": [{"resources": {
                "requests": {"cpu": "5m", "memory": "10", "test.karmada.io/foo": "5", "test.karmada.io/bar": "10"},
                "limits": {"memory": "99999", "pods": "20", "test.karmada.io/bar": "99999", "test.karmada.io/baz": "20"},
            }}],
            "overhead": {
                "cpu": "5m", "memory": "5", "ephemeral-storage": "5", "pods": "5",
                "test.karmada.io/foo": "5", "test.karmada.io/bar": "5", "test.karmada.io/baz": "5",
            },
        });
        let expected = quantities(&[
            ("cpu", "15m"),
            ("memory", "15"),
            ("ephemeral-storage", "5"),
            ("pods", "25"),
            ("test.karmada.io/foo", "15"),
            ("test.karmada.io/bar", "15"),
            ("test.karmada.io/baz", "25"),
        ]);
        assert_eq!(request_of(pod_spec), expected);
    }

    #[test]
    fn request_sums_takes_init_maximum_and_rounds_per_container() {
        let pod_spec = json!({
            "containers": [
                {"name": "app", "resources": {"requests": {"cpu": "250m", "memory": "1.5"}}},
                {"name": "sidecar", "resources": {"requests": {"cpu": "0.1m", "memory": "1.5"}, "limits": {"cpu": "1"}}},
                {"name": "bare"},
            ],
            "initContainers": [
                {"resources": {"requests": {"cpu": "200m", "memory": "64Mi"}}},
                {"resources": {"limits": {"cpu": "2"}}},
            ],
            "overhead": {"cpu": "10m"},
        });
        // CPU: 250m + ⌈0.1m⌉ = 251m < init 2 ⇒ 2000m, + 10m overhead. Memory: ⌈1.5⌉ + ⌈1.5⌉ = 4
        // < 64Mi.
        assert_eq!(
            request_of(pod_spec),
            quantities(&[("cpu", "2010m"), ("memory", "64Mi")])
        );
    }

    #[test]
    fn request_drops_zeros_and_untracked_names() {
        let pod_spec = json!({"containers": [{"resources": {
            // A request of 0 is kept over the limit, and then dropped as 0.
            "requests": {"cpu": "0", "memory": "1Gi", "storage": "5Gi", "gpu": "1"},
            "limits": {"cpu": "2", "nvidia.com/gpu": 2, "hugepages-2Mi": "4Mi",
                       "example.com/UPPER-ok": "1", "Example.com/bad-prefix": "1",
                       "requests.example.com/x": "1", "attachable-volumes-aws-ebs": "3",
                       "kubernetes.io/batch": "2", "example.com/zero": "0"},
        }}]});
        assert_eq!(
            request_of(pod_spec),
            quantities(&[
                ("attachable-volumes-aws-ebs", "3"),
                ("example.com/UPPER-ok", "1"),
                ("hugepages-2Mi", "4Mi"),
                ("kubernetes.io/batch", "2"),
                ("memory", "1Gi"),
                ("nvidia.com/gpu", "2"),
            ])
        );
    }

    #[test]
    fn scalar_resource_names() {
        for name in [
            "nvidia.com/gpu",
            "example.com/a_b.c-d",
            "hugepages-1Gi",
            "attachable-volumes-csi-x",
            "kubernetes.io/anything",
            "sub.kubernetes.io/thing",
        ] {
            assert!(is_scalar_resource_name(name), "{name}");
        }
        for name in [
            "gpu",
            "storage",
            "requests.nvidia.com/gpu",
            "Nvidia.com/gpu",
            "nvidia.com/",
            "nvidia.com/-gpu",
            "a/b/c",
            "/gpu",
            "nvidia..com/gpu",
        ] {
            assert!(!is_scalar_resource_name(name), "{name}");
        }
        let long_name = format!("example.com/{}", "x".repeat(64));
        assert!(!is_scalar_resource_name(&long_name));
    }

    #[test]
    fn request_errors_name_the_field() {
        let cases = [
            (
                json!({"containers": [{}, {"resources": {"limits": {"memory": "1GB"}}}]}),
                "containers[1].resources.limits.memory",
            ),
            (
                json!({"initContainers": [{"resources": {"requests": {"cpu": [1]}}}]}),
                "initContainers[0].resources.requests.cpu",
            ),
            (json!({"overhead": {"cpu": "x"}}), "overhead.cpu"),
            (json!({"containers": {"name": "app"}}), "containers"),
            (json!({"containers": ["app"]}), "containers[0]"),
            (
                json!({"containers": [{"resources": []}]}),
                "containers[0].resources",
            ),
            (
                json!({"containers": [{"resources": {"requests": "1"}}]}),
                "containers[0].resources.requests",
            ),
            (json!({"overhead": 1}), "overhead"),
        ];
        for (pod_spec, path) in cases {
            let message = resource_request(&pod_spec).err().unwrap_or_default();
            assert!(
                message.starts_with(&format!("{path}:")),
                "{path}: {message}"
            );
        }
        // Untracked names must still be well-formed quantities.
        let untracked = json!({"containers": [{"resources": {"requests": {"storage": "lots"}}}]});
        assert!(resource_request(&untracked).is_err());
    }

    /// End to end: the request of a template against the spec's cluster.
    #[test]
    fn request_then_estimate() {
        let pod_spec = json!({"containers": [
            {"resources": {"requests": {"cpu": "250m", "memory": "512Mi"}}},
            {"resources": {"limits": {"cpu": "250m", "memory": "512Mi"}}},
        ]});
        let request = request_of(pod_spec);
        assert_eq!(max_available_replicas(&spec_example_cluster(), &request), 6);
        assert_eq!(
            max_available_replicas(&spec_example_cluster(), &BTreeMap::new()),
            80
        );
    }
}
