//! propagateDeps, natively: the ConfigMaps, Secrets, ServiceAccounts and PersistentVolumeClaims a
//! workload references follow it to its clusters (karmada pkg/resourceinterpreter/default/native/
//! dependencies.go, pkg/util/helper/pod.go, pkg/util/lifted/visitpod.go). One level only: a
//! followed ConfigMap has no dependencies of its own.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use crate::api::meta::LabelSelector;
use crate::object::{ObjectKey, Template};

/// An object a template depends on (Karmada's `DependentObjectReference`).
#[derive(Debug, Clone, PartialEq)]
pub enum Dependency {
    /// One object, by key.
    Named(ObjectKey),
    /// Every object of the kind in the namespace whose labels match.
    Labelled {
        /// The kind's API group.
        group: String,
        /// The kind.
        kind: String,
        /// The namespace the objects are in.
        namespace: String,
        /// What their labels must match.
        selector: LabelSelector,
    },
}

/// The objects a template depends on, all in its namespace; `None` for a kind without Karmada's
/// default dependency interpreter.
pub fn dependencies(template: &Template) -> Option<Vec<Dependency>> {
    let object = &template.object;
    let mut found = Found::new(template.namespace());
    match (template.api_version.as_str(), template.kind()) {
        ("apps/v1", "Deployment" | "ReplicaSet" | "DaemonSet") | ("batch/v1", "Job") => {
            if let Some(pod) = crate::json_pointer::pointer(object, "/spec/template/spec") {
                found.pod_spec(pod, &BTreeSet::new());
            }
        }
        ("apps/v1", "StatefulSet") => {
            // Claims named after a volumeClaimTemplate are created per replica by the
            // StatefulSet controller; they are not followed.
            let claim_templates: BTreeSet<String> =
                crate::json_pointer::pointer(object, "/spec/volumeClaimTemplates")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(|claim| {
                        crate::json_pointer::pointer(claim, "/metadata/name")
                            .and_then(Value::as_str)
                    })
                    .map(str::to_string)
                    .collect();
            if let Some(pod) = crate::json_pointer::pointer(object, "/spec/template/spec") {
                found.pod_spec(pod, &claim_templates);
            }
        }
        ("batch/v1", "CronJob") => {
            if let Some(pod) =
                crate::json_pointer::pointer(object, "/spec/jobTemplate/spec/template/spec")
            {
                found.pod_spec(pod, &BTreeSet::new());
            }
        }
        ("v1", "Pod") => {
            if let Some(pod) = object.get("spec") {
                found.pod_spec(pod, &BTreeSet::new());
            }
        }
        ("networking.k8s.io/v1", "Ingress") => {
            for tls in crate::json_pointer::pointer(object, "/spec/tls")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                found.add("", "Secret", tls.get("secretName"));
            }
        }
        ("multicluster.x-k8s.io/v1alpha1", "ServiceImport") => {
            let derived = format!("derived-{}", template.name());
            found.add("", "Service", Some(&Value::from(derived.clone())));
            // Its EndpointSlices are found by label, not by name.
            let mut dependencies: Vec<Dependency> =
                found.keys.into_iter().map(Dependency::Named).collect();
            dependencies.push(Dependency::Labelled {
                group: "discovery.k8s.io".to_string(),
                kind: "EndpointSlice".to_string(),
                namespace: template.namespace().to_string(),
                selector: LabelSelector {
                    match_labels: BTreeMap::from([(
                        "kubernetes.io/service-name".to_string(),
                        derived,
                    )]),
                    ..LabelSelector::default()
                },
            });
            return Some(dependencies);
        }
        _ => return None,
    }
    Some(found.keys.into_iter().map(Dependency::Named).collect())
}

/// What a pod spec references, in `namespace` (Karmada's `GetDependenciesFromPodTemplate`, the
/// `kube.getPodDependencies` of interpreter scripts).
pub(crate) fn pod_dependencies(pod_spec: &Value, namespace: &str) -> BTreeSet<ObjectKey> {
    let mut found = Found::new(namespace);
    found.pod_spec(pod_spec, &BTreeSet::new());
    found.keys
}

struct Found<'a> {
    namespace: &'a str,
    keys: BTreeSet<ObjectKey>,
}

impl<'a> Found<'a> {
    fn new(namespace: &'a str) -> Self {
        Found {
            namespace,
            keys: BTreeSet::new(),
        }
    }

    fn add(&mut self, group: &str, kind: &str, name: Option<&Value>) {
        if let Some(name) = name.and_then(Value::as_str).filter(|name| !name.is_empty()) {
            self.keys.insert(ObjectKey {
                group: group.to_string(),
                kind: kind.to_string(),
                namespace: self.namespace.to_string(),
                name: name.to_string(),
            });
        }
    }

    fn pod_spec(&mut self, pod: &Value, claim_templates: &BTreeSet<String>) {
        let list =
            |value: Option<&'_ Value>| value.and_then(Value::as_array).cloned().unwrap_or_default();
        for secret in list(pod.get("imagePullSecrets")) {
            self.add("", "Secret", secret.get("name"));
        }
        match pod.get("serviceAccountName").and_then(Value::as_str) {
            None | Some("" | "default") => {}
            Some(name) => self.add("", "ServiceAccount", Some(&Value::from(name))),
        }
        for field in ["initContainers", "containers", "ephemeralContainers"] {
            for container in list(pod.get(field)) {
                for source in list(container.get("envFrom")) {
                    self.add(
                        "",
                        "ConfigMap",
                        crate::json_pointer::pointer(&source, "/configMapRef/name"),
                    );
                    self.add(
                        "",
                        "Secret",
                        crate::json_pointer::pointer(&source, "/secretRef/name"),
                    );
                }
                for variable in list(container.get("env")) {
                    self.add(
                        "",
                        "ConfigMap",
                        crate::json_pointer::pointer(&variable, "/valueFrom/configMapKeyRef/name"),
                    );
                    self.add(
                        "",
                        "Secret",
                        crate::json_pointer::pointer(&variable, "/valueFrom/secretKeyRef/name"),
                    );
                }
            }
        }
        for volume in list(pod.get("volumes")) {
            self.add(
                "",
                "ConfigMap",
                crate::json_pointer::pointer(&volume, "/configMap/name"),
            );
            self.add(
                "",
                "Secret",
                crate::json_pointer::pointer(&volume, "/secret/secretName"),
            );
            for source in list(crate::json_pointer::pointer(&volume, "/projected/sources")) {
                self.add(
                    "",
                    "ConfigMap",
                    crate::json_pointer::pointer(&source, "/configMap/name"),
                );
                self.add(
                    "",
                    "Secret",
                    crate::json_pointer::pointer(&source, "/secret/name"),
                );
            }
            self.add(
                "",
                "Secret",
                crate::json_pointer::pointer(&volume, "/azureFile/secretName"),
            );
            for plugin in [
                "cephfs",
                "cinder",
                "flexVolume",
                "rbd",
                "scaleIO",
                "iscsi",
                "storageos",
            ] {
                self.add(
                    "",
                    "Secret",
                    crate::json_pointer::pointer(&volume, &format!("/{plugin}/secretRef/name")),
                );
            }
            self.add(
                "",
                "Secret",
                crate::json_pointer::pointer(&volume, "/csi/nodePublishSecretRef/name"),
            );
            if let Some(claim) =
                crate::json_pointer::pointer(&volume, "/persistentVolumeClaim/claimName")
                    .and_then(Value::as_str)
                && !claim_templates.contains(claim)
            {
                self.add("", "PersistentVolumeClaim", Some(&Value::from(claim)));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use serde_json::json;

    fn template(api_version: &str, kind: &str, object: Value) -> Template {
        Template::for_test(api_version, kind, "shop", "web", object)
    }

    fn names(dependencies: &[Dependency]) -> Vec<String> {
        dependencies
            .iter()
            .map(|dependency| match dependency {
                Dependency::Named(key) => format!("{}/{}", key.kind, key.name),
                Dependency::Labelled { kind, selector, .. } => {
                    format!("{kind}/{:?}", selector.match_labels)
                }
            })
            .collect()
    }

    // karmada pkg/util/helper/pod_test.go getSecretNames / getConfigMapNames / getPVCNames.
    #[test]
    fn a_pod_template_references_config_maps_secrets_accounts_and_claims() {
        let deployment = template(
            "apps/v1",
            "Deployment",
            json!({"spec": {"template": {"spec": {
            "serviceAccountName": "web-sa",
            "imagePullSecrets": [{"name": "registry"}],
            "initContainers": [{"envFrom": [{"configMapRef": {"name": "init-env"}}]}],
            "containers": [{"env": [
                {"name": "A", "valueFrom": {"configMapKeyRef": {"name": "cfg", "key": "a"}}},
                {"name": "B", "valueFrom": {"secretKeyRef": {"name": "creds", "key": "b"}}},
                {"name": "C", "value": "plain"}]}],
            "volumes": [
                {"name": "v1", "configMap": {"name": "files"}},
                {"name": "v2", "secret": {"secretName": "tls"}},
                {"name": "v3", "projected": {"sources": [{"configMap": {"name": "p-cfg"}}, {"secret": {"name": "p-sec"}}]}},
                {"name": "v4", "persistentVolumeClaim": {"claimName": "data"}},
                {"name": "v5", "csi": {"driver": "x", "nodePublishSecretRef": {"name": "csi-sec"}}}]}}}}),
        );
        assert_eq!(
            names(&dependencies(&deployment).unwrap()),
            vec![
                "ConfigMap/cfg",
                "ConfigMap/files",
                "ConfigMap/init-env",
                "ConfigMap/p-cfg",
                "PersistentVolumeClaim/data",
                "Secret/creds",
                "Secret/csi-sec",
                "Secret/p-sec",
                "Secret/registry",
                "Secret/tls",
                "ServiceAccount/web-sa"
            ]
        );
    }

    #[test]
    fn the_default_service_account_and_claim_templates_are_not_followed() {
        let statefulset = template(
            "apps/v1",
            "StatefulSet",
            json!({"spec": {
            "volumeClaimTemplates": [{"metadata": {"name": "data"}}],
            "template": {"spec": {"serviceAccountName": "default", "volumes": [
                {"name": "data", "persistentVolumeClaim": {"claimName": "data"}},
                {"name": "shared", "persistentVolumeClaim": {"claimName": "shared"}}]}}}}),
        );
        assert_eq!(
            names(&dependencies(&statefulset).unwrap()),
            vec!["PersistentVolumeClaim/shared"]
        );
    }

    #[test]
    fn cron_jobs_ingresses_and_unknown_kinds() {
        let cron = template(
            "batch/v1",
            "CronJob",
            json!({"spec": {"jobTemplate": {"spec": {"template": {"spec": {
            "containers": [{"envFrom": [{"secretRef": {"name": "job-env"}}]}]}}}}}}),
        );
        assert_eq!(names(&dependencies(&cron).unwrap()), vec!["Secret/job-env"]);
        let ingress = template(
            "networking.k8s.io/v1",
            "Ingress",
            json!({"spec": {"tls": [{"secretName": "cert"}, {}]}}),
        );
        assert_eq!(names(&dependencies(&ingress).unwrap()), vec!["Secret/cert"]);
        let rollout = template(
            "argoproj.io/v1alpha1",
            "Rollout",
            json!({"spec": {"template": {"spec": {
            "volumes": [{"configMap": {"name": "x"}}]}}}}),
        );
        assert_eq!(dependencies(&rollout), None);
        let old = template(
            "apps/v1beta1",
            "Deployment",
            json!({"spec": {"template": {"spec": {
            "volumes": [{"configMap": {"name": "x"}}]}}}}),
        );
        assert_eq!(dependencies(&old), None);
    }
}
