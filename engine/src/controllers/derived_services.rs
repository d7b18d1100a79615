//! The `derived-<name>` Service that Karmada's ServiceImport controller creates on the control
//! plane for each ServiceImport of type ClusterSetIP (karmada
//! pkg/controllers/mcs/service_import_controller.go, `Reconcile` and
//! `deriveServiceFromServiceImport`: type ClusterIP, the ServiceImport's ports with their name,
//! protocol, port and appProtocol; the name from pkg/util/names `GenerateDerivedServiceName`).
//! The ServiceImport's policy has propagateDeps on (Karmada's webhook forces it), and Karmada's
//! interpreter names the derived Service as a dependency, so the dependencies distributor
//! carries it to every cluster that receives the ServiceImport. fedrender adds it as a
//! template, and placement takes it there the same way.

use serde_json::{Map, Value, json};

use crate::diagnostics::Diagnostic;
use crate::object::{ObjectKey, Template};

const SERVICE_IMPORT_GROUP: &str = "multicluster.x-k8s.io";

/// The Services Karmada derives from the ServiceImports among `templates`, leaving out any
/// the fleet already holds (the controller would update that one in place, keeping it), and an
/// error for each ServiceImport whose derived Service's name the API server refuses.
pub(crate) fn derived_services(templates: &[Template]) -> (Vec<Template>, Vec<Diagnostic>) {
    let mut refused = Vec::new();
    let derived = templates
        .iter()
        .filter(|template| {
            template.group() == SERVICE_IMPORT_GROUP
                && template.kind() == "ServiceImport"
                && template
                    .object
                    .pointer("/spec/type")
                    .and_then(Value::as_str)
                    == Some("ClusterSetIP")
        })
        .filter(|service_import| match name_refused(service_import) {
            Some(error) => {
                refused.push(error);
                false
            }
            None => true,
        })
        .map(derive)
        .filter(|derived| !templates.iter().any(|template| template.key == derived.key))
        .collect();
    (derived, refused)
}

/// A Service's name is a DNS-1035 label (k8s.io/kubernetes pkg/apis/core/validation
/// `ValidateServiceName`): at most 63 characters, no dot. A ServiceImport's name is a DNS
/// subdomain, which may be longer or hold dots; the controller's `Create` of
/// `derived-<name>` then fails at every reconcile (a SyncDerivedServiceFailed event on the
/// ServiceImport), and no cluster gets the Service the import's consumers resolve.
fn name_refused(service_import: &Template) -> Option<Diagnostic> {
    let name = format!("derived-{}", service_import.name());
    let problem = crate::names::dns_label_problem(&name)?;
    let too_long = name.len() > 63;
    Some(
        Diagnostic::error(
            Some(service_import.origin.clone()),
            format!(
                "{}: Karmada's ServiceImport controller derives the Service {}/{name} from it, \
                 which the API server refuses: a Service's name is a DNS-1035 label ({problem}{}), \
                 so the controller fails to create it (a SyncDerivedServiceFailed event) and no \
                 cluster gets it; name the ServiceImport {}",
                service_import.key,
                service_import.namespace(),
                if too_long {
                    format!("; it has {} characters", name.len())
                } else {
                    String::new()
                },
                if too_long {
                    format!("with at most {} characters", 63 - "derived-".len())
                } else {
                    "without dots".to_string()
                },
            ),
        )
        .about_object(&service_import.key),
    )
}

fn derive(service_import: &Template) -> Template {
    let name = format!("derived-{}", service_import.name());
    let namespace = service_import.namespace().to_string();
    let ports: Vec<Value> = service_import
        .object
        .pointer("/spec/ports")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|port| {
            // corev1.ServicePort's omitempty fields stay out when empty, as Go writes them.
            let mut derived = Map::new();
            for field in ["name", "protocol"] {
                if let Some(value) = port.get(field).filter(|v| v.as_str() != Some("")) {
                    derived.insert(field.to_string(), value.clone());
                }
            }
            derived.insert(
                "port".to_string(),
                port.get("port").cloned().unwrap_or(json!(0)),
            );
            if let Some(value) = port.get("appProtocol").filter(|v| !v.is_null()) {
                derived.insert("appProtocol".to_string(), value.clone());
            }
            Value::Object(derived)
        })
        .collect();
    let mut spec = Map::new();
    if !ports.is_empty() {
        spec.insert("ports".to_string(), Value::Array(ports));
    }
    spec.insert("type".to_string(), json!("ClusterIP"));
    Template {
        origin: service_import.origin.clone(),
        api_version: "v1".to_string(),
        key: ObjectKey {
            group: String::new(),
            kind: "Service".to_string(),
            namespace: namespace.clone(),
            name: name.clone(),
        },
        labels: Default::default(),
        object: json!({
            "apiVersion": "v1",
            "kind": "Service",
            "metadata": {"name": name, "namespace": namespace},
            "spec": spec,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn service_import(spec: Value) -> Template {
        Template::for_test(
            "multicluster.x-k8s.io/v1alpha1",
            "ServiceImport",
            "shop",
            "web",
            json!({
                "apiVersion": "multicluster.x-k8s.io/v1alpha1",
                "kind": "ServiceImport",
                "metadata": {"name": "web", "namespace": "shop"},
                "spec": spec,
            }),
        )
    }

    /// The fields `deriveServiceFromServiceImport` and `servicePorts` set, and no others.
    #[test]
    fn a_cluster_set_ip_import_derives_a_cluster_ip_service_with_its_ports() {
        let imports = [service_import(json!({"type": "ClusterSetIP", "ports": [
            {"name": "http", "protocol": "TCP", "port": 80, "appProtocol": "http"},
            {"port": 9090},
        ]}))];
        let (derived, refused) = derived_services(&imports);
        assert!(refused.is_empty());
        assert_eq!(derived.len(), 1);
        assert_eq!(derived[0].key.name, "derived-web");
        assert_eq!(
            derived[0].object,
            json!({
                "apiVersion": "v1",
                "kind": "Service",
                "metadata": {"name": "derived-web", "namespace": "shop"},
                "spec": {
                    "ports": [
                        {"name": "http", "protocol": "TCP", "port": 80, "appProtocol": "http"},
                        {"port": 9090},
                    ],
                    "type": "ClusterIP",
                },
            })
        );
    }

    /// `Reconcile` returns early for any type but ClusterSetIP (a Headless import).
    #[test]
    fn a_headless_import_derives_nothing() {
        let imports = [service_import(json!({"type": "Headless"}))];
        assert!(derived_services(&imports).0.is_empty());
    }

    /// `GenerateDerivedServiceName` prefixes `derived-`; the API server's `ValidateServiceName`
    /// refuses a name past 63 characters or with a dot, so `deriveServiceFromServiceImport`'s
    /// `Create` fails.
    #[test]
    fn a_derived_name_past_63_characters_or_with_a_dot_is_refused_at_the_import() {
        let named = |name: &str| {
            let mut import = service_import(json!({"type": "ClusterSetIP"}));
            import.key.name = name.to_string();
            import.object["metadata"]["name"] = json!(name);
            import
        };
        let longest = "a".repeat(55);
        let (derived, refused) = derived_services(&[named(&longest)]);
        assert_eq!((derived.len(), refused.len()), (1, 0));
        let (derived, refused) = derived_services(&[named(&"a".repeat(56))]);
        assert!(derived.is_empty());
        assert!(
            refused[0].message.contains("it has 64 characters")
                && refused[0].message.contains("at most 55 characters"),
            "{}",
            refused[0].message
        );
        let (derived, refused) = derived_services(&[named("web.v2")]);
        assert!(derived.is_empty());
        assert!(
            refused[0].message.contains("derived-web.v2")
                && refused[0].message.contains("without dots"),
            "{}",
            refused[0].message
        );
    }
}
