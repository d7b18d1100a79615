//! What one replica of a workload requests: `GenerateReplicaRequirements` →
//! `util.Resource.AddPodTemplateRequest` → `ResourceList` (karmada pkg/util/helper/binding.go,
//! pkg/util/resource.go). Interpreter knowledge: the native interpreter asks it of pod
//! templates, Lua scripts through `kube.accuratePodRequirements`, and the scheduler's estimator
//! reads the result.
//!
//! Karmada does this in `util.Resource`, which keeps CPU in millicores and every other
//! resource in whole units, rounding each quantity up as it is read, and which only knows CPU,
//! memory, ephemeral storage, pods and "scalar" resources (extended resources such as
//! `nvidia.com/gpu`, `hugepages-*`, `attachable-volumes-*`, `*kubernetes.io/*`). This module
//! rounds at the same points and ignores the same names, so that the numbers match.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::fields::Fields;
use crate::quantity::{Quantity, quantity_from_json};

/// The resource name of CPU in a request or capacity.
pub const CPU: &str = "cpu";
pub(crate) const MEMORY: &str = "memory";
pub(crate) const EPHEMERAL_STORAGE: &str = "ephemeral-storage";
pub(crate) const PODS: &str = "pods";

/// Tracked resources of one resource list, each in its unit.
type Amounts = Vec<(String, Unit, i128)>;

/// How `util.Resource` reads a resource, or `None` for names it drops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unit {
    /// CPU, in millicores (`MilliValue`).
    Milli,
    /// Everything else it tracks, in whole units (`Value`).
    Whole,
}

pub(crate) fn unit_of(name: &str) -> Option<Unit> {
    match name {
        CPU => Some(Unit::Milli),
        MEMORY | EPHEMERAL_STORAGE | PODS => Some(Unit::Whole),
        _ if is_scalar_resource_name(name) => Some(Unit::Whole),
        _ => None,
    }
}

pub(crate) fn amount_in(unit: Unit, quantity: &Quantity) -> i128 {
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
pub(crate) fn is_scalar_resource_name(name: &str) -> bool {
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
    !native
        && !name.starts_with("requests.")
        && crate::names::qualified_name_problem(&format!("requests.{name}")).is_none()
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
pub(crate) fn resource_request(pod_spec: &Value) -> Result<BTreeMap<String, Quantity>, String> {
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
    if let Some(overhead) = resource_list(pod_spec.field("overhead"), "overhead")? {
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
    let resources = match container.field("resources") {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(resources @ Value::Object(_)) => resources,
        Some(_) => return Err(format!("{path}.resources: expected an object")),
    };
    let requests = resource_list(
        resources.field("requests"),
        &format!("{path}.resources.requests"),
    )?
    .unwrap_or_default();
    let limits = resource_list(
        resources.field("limits"),
        &format!("{path}.resources.limits"),
    )?
    .unwrap_or_default();
    let requested: Vec<String> = match resources.field("requests") {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quantity::parse_quantity;
    use serde_json::json;

    fn quantities(pairs: &[(&str, &str)]) -> BTreeMap<String, Quantity> {
        pairs
            .iter()
            .map(|&(name, text)| match parse_quantity(text) {
                Ok(quantity) => (name.to_string(), quantity),
                Err(error) => panic!("{error}"),
            })
            .collect()
    }

    fn request_of(pod_spec: Value) -> BTreeMap<String, Quantity> {
        match resource_request(&pod_spec) {
            Ok(request) => request,
            Err(error) => panic!("{error}"),
        }
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
}
