//! What Karmada's own API server refuses of the Karmada objects a fleet carries, beyond what the
//! policy webhooks check (`policy`): the schemas of the CRDs Karmada installs and the
//! MultiClusterService validating webhook. Karmada never stores such an object, so it places
//! nothing from it: the build fails at the object, worded as the API server words a refusal
//! (k8s.io/apimachinery pkg/util/validation/field errors.go: `<field>: <Type>: <value>: <detail>`,
//! the value as JSON).
//!
//! - MultiClusterService (`networking.karmada.io`): karmada
//!   pkg/webhook/multiclusterservice/validating.go `validateMCS`: the name a DNS-1035 label; each
//!   exposure type CrossCluster or LoadBalancer, and at most one distinct type; each port's name a DNS-1123 label, unique, and its number
//!   1 to 65535; each provider and consumer cluster name a valid cluster name.
//! - ServiceImport (`multicluster.x-k8s.io`): the CRD Karmada installs
//!   (charts/karmada/_crds/bases/multicluster/multicluster.x-k8s.io_serviceimports.yaml): `spec`
//!   is optional, but a spec needs `type` (ClusterSetIP or Headless) and `ports`, each port its
//!   `port`; `ips` holds at most one address.
//! - `spec.schedulePriority` of a (Cluster)PropagationPolicy: the policy CRDs
//!   (charts/karmada/_crds/bases/policy/, from pkg/apis/policy/v1alpha1/propagation_types.go
//!   `SchedulePriority`): `priorityClassSource` and `priorityClassName` are required, and the
//!   source's enum is `KubePriorityClass` alone in every release since the field came in (1.13).

use std::collections::BTreeSet;

use serde_json::Value;

use crate::api::karmada::SchedulePriority;
use crate::api::networking::{MULTI_CLUSTER_SERVICE, NETWORKING_GROUP};
use crate::diagnostics::Diagnostic;
use crate::names;
use crate::object::Template;

const SERVICE_IMPORT_GROUP: &str = "multicluster.x-k8s.io";

/// The one value the policy CRDs' `priorityClassSource` enum holds.
pub(crate) const KUBE_PRIORITY_CLASS: &str = "KubePriorityClass";

/// A field error as the API server prints it, without the field.
fn invalid(value: &Value, detail: &str) -> String {
    format!("Invalid value: {value}: {detail}")
}

fn required() -> String {
    "Required value".to_string()
}

fn unsupported(value: &Value, supported: &[&str]) -> String {
    let quoted: Vec<String> = supported.iter().map(|value| format!("{value:?}")).collect();
    format!(
        "Unsupported value: {value}: supported values: {}",
        quoted.join(", ")
    )
}

/// What the policy CRDs refuse in `spec.schedulePriority`, as (field, refusal).
pub(crate) fn schedule_priority_refusals(
    priority: &SchedulePriority,
) -> Vec<(&'static str, String)> {
    let mut refusals = Vec::new();
    match priority.priority_class_source.as_deref() {
        None => refusals.push(("spec.schedulePriority.priorityClassSource", required())),
        Some(KUBE_PRIORITY_CLASS) => {}
        Some(other) => refusals.push((
            "spec.schedulePriority.priorityClassSource",
            unsupported(&Value::from(other), &[KUBE_PRIORITY_CLASS]),
        )),
    }
    if priority.priority_class_name.is_none() {
        refusals.push(("spec.schedulePriority.priorityClassName", required()));
    }
    refusals
}

/// Every refusal of the fleet's MultiClusterServices and ServiceImports, each at its field.
pub(crate) fn refused_templates(templates: &[Template]) -> Vec<Diagnostic> {
    let mut errors = Vec::new();
    for template in templates {
        let refusals = match (template.group(), template.kind()) {
            (NETWORKING_GROUP, MULTI_CLUSTER_SERVICE) => multi_cluster_service(template),
            (SERVICE_IMPORT_GROUP, "ServiceImport") => service_import(&template.object),
            _ => continue,
        };
        for (field, refusal, by) in refusals {
            errors.push(
                Diagnostic::error(
                    Some(template.origin.clone()),
                    format!(
                        "{}: {field}: {refusal} (Karmada's API server refuses it: {by})",
                        template.key
                    ),
                )
                .about_field(field.clone())
                .about_object(&template.key),
            );
        }
    }
    errors
}

/// A refusal: the field, what the API server says, and what says it.
type Refusal = (String, String, &'static str);

const MCS_WEBHOOK: &str = "its MultiClusterService validating webhook";
const SERVICE_IMPORT_CRD: &str = "the ServiceImport CRD it installs";

/// karmada pkg/webhook/multiclusterservice/validating.go `validateMCS`. The rest of the spec's
/// shape (no unknown field, each field of its type) is the typed decoding's, which reports it
/// where the MultiClusterService is read.
fn multi_cluster_service(template: &Template) -> Vec<Refusal> {
    let mut refusals = Vec::new();
    let name = template.name();
    if let Some(problem) = dns_1035_label_problem(name) {
        refusals.push((
            "metadata.name".to_string(),
            invalid(&Value::from(name), &problem),
            MCS_WEBHOOK,
        ));
    }
    let spec = template.object.get("spec");
    let list = |field: &str| {
        spec.and_then(|spec| spec.get(field))
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let mut port_names = BTreeSet::new();
    for (index, port) in list("ports").iter().enumerate() {
        let name = port.get("name").and_then(Value::as_str).unwrap_or_default();
        if !name.is_empty() {
            if let Some(problem) = names::dns_label_problem(name) {
                refusals.push((
                    format!("spec.ports[{index}].name"),
                    invalid(&Value::from(name), &problem),
                    MCS_WEBHOOK,
                ));
            }
            if !port_names.insert(name.to_string()) {
                refusals.push((
                    format!("spec.ports[{index}].name"),
                    format!("Duplicate value: {}", Value::from(name)),
                    MCS_WEBHOOK,
                ));
            }
        }
        // The CRD makes `port` an int32 and requires it; the webhook then wants a port number.
        match port.get("port") {
            None => refusals.push((
                format!("spec.ports[{index}].port"),
                required(),
                "the MultiClusterService CRD it installs",
            )),
            Some(number) if !number.as_i64().is_some_and(|n| (1..=65535).contains(&n)) => refusals
                .push((
                    format!("spec.ports[{index}].port"),
                    invalid(number, "must be between 1 and 65535, inclusive"),
                    MCS_WEBHOOK,
                )),
            Some(_) => {}
        }
    }
    let types = list("types");
    // The CRD takes any string; the webhook knows two (`validateExposureType`).
    for (index, exposure) in types.iter().enumerate() {
        if !matches!(exposure.as_str(), Some("CrossCluster" | "LoadBalancer")) {
            refusals.push((
                format!("spec.types[{index}]"),
                invalid(exposure, "ExposureType Error"),
                MCS_WEBHOOK,
            ));
        }
    }
    let distinct: BTreeSet<String> = types.iter().map(Value::to_string).collect();
    if distinct.len() > 1 {
        refusals.push((
            "spec.types".to_string(),
            invalid(
                &Value::Array(types),
                "MultiClusterService types should not contain more than one type",
            ),
            MCS_WEBHOOK,
        ));
    }
    // Karmada names these paths spec.range.providerClusters and spec.range.consumerClusters,
    // though the fields are spec.providerClusters and spec.consumerClusters; fedrender points
    // at the field written.
    for field in ["providerClusters", "consumerClusters"] {
        for (index, cluster) in list(field).iter().enumerate() {
            let name = cluster
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default();
            if let Some(problem) = cluster_name_problem(name) {
                refusals.push((
                    format!("spec.{field}[{index}]"),
                    invalid(&Value::from(name), &problem),
                    MCS_WEBHOOK,
                ));
            }
        }
    }
    refusals
}

/// The ServiceImport CRD Karmada installs: `spec` is optional; a spec requires `ports` and
/// `type`, whose enum is ClusterSetIP and Headless; each port requires `port`; `ips` holds at
/// most one item.
fn service_import(object: &Value) -> Vec<Refusal> {
    let mut refusals = Vec::new();
    let Some(spec) = object.get("spec").filter(|spec| !spec.is_null()) else {
        return refusals;
    };
    match spec.get("type") {
        None | Some(Value::Null) => {
            refusals.push(("spec.type".to_string(), required(), SERVICE_IMPORT_CRD))
        }
        Some(Value::String(kind)) if kind == "ClusterSetIP" || kind == "Headless" => {}
        Some(other) => refusals.push((
            "spec.type".to_string(),
            unsupported(other, &["ClusterSetIP", "Headless"]),
            SERVICE_IMPORT_CRD,
        )),
    }
    match spec.get("ports") {
        None | Some(Value::Null) => {
            refusals.push(("spec.ports".to_string(), required(), SERVICE_IMPORT_CRD))
        }
        Some(Value::Array(ports)) => {
            for (index, port) in ports.iter().enumerate() {
                if port.get("port").is_none_or(Value::is_null) {
                    refusals.push((
                        format!("spec.ports[{index}].port"),
                        required(),
                        SERVICE_IMPORT_CRD,
                    ));
                }
            }
        }
        Some(_) => {}
    }
    if let Some(ips) = spec.get("ips").and_then(Value::as_array)
        && ips.len() > 1
    {
        refusals.push((
            "spec.ips".to_string(),
            format!("Too many: {}: must have at most 1 items", ips.len()),
            SERVICE_IMPORT_CRD,
        ));
    }
    refusals
}

/// k8s.io/apimachinery `IsDNS1035Label`: a DNS-1123 label that starts with a letter.
fn dns_1035_label_problem(name: &str) -> Option<String> {
    names::dns_label_problem(name).or_else(|| {
        (!name.starts_with(|c: char| c.is_ascii_lowercase()))
            .then(|| "must start with a lowercase letter (a DNS-1035 label)".to_string())
    })
}

/// karmada pkg/apis/cluster/validation `ValidateClusterName`: not empty, at most 48
/// characters, a DNS-1123 label.
fn cluster_name_problem(name: &str) -> Option<String> {
    if name.is_empty() {
        return Some("must be not empty".to_string());
    }
    if name.len() > 48 {
        return Some("must be no more than 48 characters".to_string());
    }
    names::dns_label_problem(name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn template(api_version: &str, kind: &str, name: &str, spec: Value) -> Template {
        Template::for_test(
            api_version,
            kind,
            "shop",
            name,
            json!({"apiVersion": api_version, "kind": kind,
                   "metadata": {"name": name, "namespace": "shop"}, "spec": spec}),
        )
    }

    fn refusals(template: Template) -> Vec<String> {
        refused_templates(&[template])
            .into_iter()
            .map(|error| error.message)
            .collect()
    }

    /// karmada pkg/webhook/multiclusterservice/validating.go: `typesSet` holds the distinct
    /// types, and more than one is refused (validating_test.go "types contain more than one
    /// type"); a type written twice is one type.
    #[test]
    fn a_multi_cluster_service_takes_one_exposure_type() {
        let two = refusals(template(
            "networking.karmada.io/v1alpha1",
            "MultiClusterService",
            "web",
            json!({"types": ["CrossCluster", "LoadBalancer"]}),
        ));
        assert_eq!(
            two,
            [
                "MultiClusterService.networking.karmada.io shop/web: spec.types: Invalid value: \
                 [\"CrossCluster\",\"LoadBalancer\"]: MultiClusterService types should not \
                 contain more than one type (Karmada's API server refuses it: its \
                 MultiClusterService validating webhook)"
            ]
        );
        let unknown = refusals(template(
            "networking.karmada.io/v1alpha1",
            "MultiClusterService",
            "web",
            json!({"types": ["NodePort"]}),
        ));
        assert_eq!(unknown.len(), 1, "{unknown:?}");
        assert!(
            unknown[0].contains("spec.types[0]: Invalid value: \"NodePort\": ExposureType Error"),
            "{unknown:?}"
        );
        let twice = refusals(template(
            "networking.karmada.io/v1alpha1",
            "MultiClusterService",
            "web",
            json!({"types": ["CrossCluster", "CrossCluster"]}),
        ));
        assert!(twice.is_empty(), "{twice:?}");
    }

    /// validating.go `validateMCS` (NameIsDNS1035Label), `validateExposurePort`
    /// (IsValidPortNum, DNS-1123 port names, duplicates) and the cluster names
    /// (`ValidateClusterName`).
    #[test]
    fn the_webhook_checks_the_name_ports_and_clusters() {
        let found = refusals(template(
            "networking.karmada.io/v1alpha1",
            "MultiClusterService",
            "1web",
            json!({"types": ["CrossCluster"],
                   "ports": [{"name": "http", "port": 80}, {"name": "http", "port": 0}],
                   "consumerClusters": [{"name": "Member_1"}]}),
        ));
        let fields: Vec<&str> = found
            .iter()
            .map(|message| message.split(": ").nth(1).unwrap())
            .collect();
        assert_eq!(
            fields,
            [
                "metadata.name",
                "spec.ports[1].name",
                "spec.ports[1].port",
                "spec.consumerClusters[0]"
            ],
            "{found:?}"
        );
        assert!(found[1].contains("Duplicate value: \"http\""), "{found:?}");
        assert!(found[2].contains("Invalid value: 0: must be between 1 and 65535"));
    }

    /// multicluster.x-k8s.io_serviceimports.yaml as Karmada installs it: `required: [ports,
    /// type]` under spec, `type` an enum, spec itself optional.
    #[test]
    fn a_service_import_needs_its_type() {
        let found = refusals(template(
            "multicluster.x-k8s.io/v1alpha1",
            "ServiceImport",
            "web",
            json!({"ports": [{"port": 80}]}),
        ));
        assert_eq!(
            found,
            [
                "ServiceImport.multicluster.x-k8s.io shop/web: spec.type: Required value \
                 (Karmada's API server refuses it: the ServiceImport CRD it installs)"
            ]
        );
        let wrong = refusals(template(
            "multicluster.x-k8s.io/v1alpha1",
            "ServiceImport",
            "web",
            json!({"type": "ClusterIP", "ports": [{}], "ips": ["10.0.0.1", "10.0.0.2"]}),
        ));
        assert_eq!(wrong.len(), 3, "{wrong:?}");
        assert!(wrong[0].contains(
            "spec.type: Unsupported value: \"ClusterIP\": supported values: \"ClusterSetIP\", \"Headless\""
        ));
        let no_spec = Template::for_test(
            "multicluster.x-k8s.io/v1alpha1",
            "ServiceImport",
            "shop",
            "web",
            json!({"apiVersion": "multicluster.x-k8s.io/v1alpha1", "kind": "ServiceImport",
                   "metadata": {"name": "web", "namespace": "shop"}}),
        );
        assert!(refusals(no_spec).is_empty());
    }

    /// karmada pkg/apis/policy/v1alpha1/propagation_types.go `SchedulePriority`:
    /// `+kubebuilder:validation:Enum=KubePriorityClass`, both fields `+required`.
    #[test]
    fn schedule_priority_takes_kube_priority_class_alone() {
        let priority = |source: Option<&str>, name: Option<&str>| SchedulePriority {
            priority_class_source: source.map(str::to_string),
            priority_class_name: name.map(str::to_string),
        };
        assert!(
            schedule_priority_refusals(&priority(Some("KubePriorityClass"), Some("high")))
                .is_empty()
        );
        assert_eq!(
            schedule_priority_refusals(&priority(Some("PodPriorityClass"), Some("high"))),
            [(
                "spec.schedulePriority.priorityClassSource",
                "Unsupported value: \"PodPriorityClass\": supported values: \"KubePriorityClass\""
                    .to_string()
            )]
        );
        let missing = schedule_priority_refusals(&priority(None, None));
        assert_eq!(missing.len(), 2);
        assert!(
            missing
                .iter()
                .all(|(_, refusal)| refusal == "Required value")
        );
    }
}
