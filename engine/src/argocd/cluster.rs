//! Argo CD's clusters: the cluster Secrets of its namespace (label
//! `argocd.argoproj.io/secret-type: cluster`) and the local cluster, `in-cluster`, which exists
//! without a Secret (pkg/apis/application/v1alpha1 `KubernetesInternalAPIServerAddr`).

use std::collections::BTreeMap;

use serde_json::Value;

use crate::api::cluster::Cluster;
use crate::diagnostics::{Diagnostic, FieldLines, Located, Origin};

/// The label that makes a Secret an Argo CD cluster (common `LabelKeySecretType`).
pub const SECRET_TYPE_LABEL: &str = "argocd.argoproj.io/secret-type";
/// The name of the local cluster (`KubernetesInClusterName`).
pub const IN_CLUSTER_NAME: &str = "in-cluster";
/// The local cluster's API server address (`KubernetesInternalAPIServerAddr`).
pub const IN_CLUSTER_SERVER: &str = "https://kubernetes.default.svc";

/// The keys of a cluster Secret's data that Argo CD reads (db/cluster.go `SecretToCluster`).
/// `config` holds credentials and `shard` the controller's sharding: neither changes what a
/// cluster is sent, so both are accepted and not read.
const KNOWN_KEYS: [&str; 7] = [
    "name",
    "server",
    "project",
    "namespaces",
    "clusterResources",
    "config",
    "shard",
];

/// One Argo CD cluster.
#[derive(Debug, Clone, PartialEq)]
pub struct ArgoCluster {
    /// `name`: the cluster's tree is `OUT/<name>/`.
    pub name: String,
    /// `server`: the API server's URL, which a destination may name instead.
    pub server: String,
    /// `project`: the AppProject the cluster is scoped to, if any.
    pub project: Option<String>,
    /// `namespaces`: the namespaces Argo CD may manage there (empty: all).
    pub namespaces: Vec<String>,
    /// `clusterResources`: whether cluster-scoped objects may be managed when `namespaces` is set.
    pub cluster_resources: bool,
    /// The Secret's labels (the secret-type label among them), as a clusters generator's
    /// selector and its `metadata.labels` parameters see them.
    pub labels: BTreeMap<String, String>,
    /// The Secret's annotations, as the `metadata.annotations` parameters see them.
    pub annotations: BTreeMap<String, String>,
    /// Where the Secret was written; `None` for the local cluster no Secret defines.
    pub origin: Option<Origin>,
}

impl ArgoCluster {
    /// The local cluster as Argo CD defines it when no Secret names its server.
    pub fn in_cluster() -> Self {
        ArgoCluster {
            name: IN_CLUSTER_NAME.to_string(),
            server: IN_CLUSTER_SERVER.to_string(),
            project: None,
            namespaces: Vec::new(),
            cluster_resources: false,
            labels: BTreeMap::new(),
            annotations: BTreeMap::new(),
            origin: None,
        }
    }
}

/// The cluster as the rest of fedrender knows clusters, a Karmada `Cluster` of the same name
/// and labels: its tree is `OUT/<name>/`, review groups and `--cluster-selector` select it by
/// the Secret's labels. It states no Kubernetes version (objects are checked against the
/// Config's `spec.kubernetesVersion`, or the newest fedrender knows).
pub fn as_karmada_cluster(cluster: &ArgoCluster) -> Located<Cluster> {
    let object = serde_json::json!({
        "apiVersion": "cluster.karmada.io/v1alpha1",
        "kind": "Cluster",
        "metadata": {"name": cluster.name, "labels": cluster.labels},
    });
    let item: Cluster =
        serde_json::from_value(object).expect("a Cluster of a name and labels is always one");
    Located {
        origin: cluster
            .origin
            .clone()
            .unwrap_or_else(|| Origin::new("(Argo CD's local cluster)", 0, 1)),
        item,
        fields: FieldLines::default(),
    }
}

/// Whether `object` is an Argo CD cluster Secret.
pub fn is_cluster_secret(object: &Value) -> bool {
    object["apiVersion"] == "v1"
        && object["kind"] == "Secret"
        && object["metadata"]["labels"][SECRET_TYPE_LABEL] == "cluster"
}

/// The cluster a cluster Secret defines, its `stringData` over its `data` as the API server
/// merges them. A key fedrender does not know, a value that is not a string (or not base64
/// in `data`), and a missing `name` or `server` are errors at `origin`.
pub fn cluster_from_secret(object: &Value, origin: &Origin) -> Result<ArgoCluster, Diagnostic> {
    let secret = || {
        format!(
            "Argo CD cluster Secret {}",
            object["metadata"]["name"].as_str().unwrap_or("(unnamed)")
        )
    };
    let error = |message: String| Diagnostic::error(Some(origin.clone()), message);
    let mut data = BTreeMap::new();
    if let Some(encoded) = object.get("data").and_then(Value::as_object) {
        for (key, value) in encoded {
            let text = value.as_str().ok_or_else(|| {
                error(format!("{}: data.{key} must be a base64 string", secret()))
            })?;
            let bytes = crate::yaml::decode_base64(text)
                .ok_or_else(|| error(format!("{}: data.{key} is not base64", secret())))?;
            let text = String::from_utf8(bytes)
                .map_err(|_| error(format!("{}: data.{key} is not UTF-8 text", secret())))?;
            data.insert(key.clone(), text);
        }
    }
    if let Some(plain) = object.get("stringData").and_then(Value::as_object) {
        for (key, value) in plain {
            let text = value
                .as_str()
                .ok_or_else(|| error(format!("{}: stringData.{key} must be a string", secret())))?;
            data.insert(key.clone(), text.to_string());
        }
    }
    if let Some(unknown) = data.keys().find(|key| !KNOWN_KEYS.contains(&key.as_str())) {
        return Err(error(format!(
            "{}: fedrender does not know the cluster key {unknown:?} (it reads {})",
            secret(),
            KNOWN_KEYS.join(", ")
        )));
    }
    let required = |key: &str| match data.get(key) {
        Some(value) if !value.is_empty() => Ok(value.clone()),
        _ => Err(error(format!(
            "{}: needs `{key}` in stringData or data (fedrender names each cluster's tree after its name)",
            secret()
        ))),
    };
    let strings = |field: &str| -> BTreeMap<String, String> {
        object["metadata"][field]
            .as_object()
            .map(|map| {
                map.iter()
                    .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
                    .collect()
            })
            .unwrap_or_default()
    };
    let cluster_resources = match data.get("clusterResources").map(String::as_str) {
        None | Some("" | "false") => false,
        Some("true") => true,
        Some(other) => {
            return Err(error(format!(
                "{}: clusterResources is {other:?}, not \"true\" or \"false\"",
                secret()
            )));
        }
    };
    Ok(ArgoCluster {
        name: required("name")?,
        server: required("server")?,
        project: data.get("project").filter(|p| !p.is_empty()).cloned(),
        // db/cluster.go splits on commas and trims each namespace; empty pieces are dropped.
        namespaces: data
            .get("namespaces")
            .map(|list| {
                list.split(',')
                    .map(str::trim)
                    .filter(|ns| !ns.is_empty())
                    .map(String::from)
                    .collect()
            })
            .unwrap_or_default(),
        cluster_resources,
        labels: strings("labels"),
        annotations: strings("annotations"),
        origin: Some(origin.clone()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn origin() -> Origin {
        Origin::new("clusters.yaml", 0, 1)
    }

    #[test]
    fn a_cluster_secret_reads_string_data_over_data() {
        let secret = json!({
            "apiVersion": "v1", "kind": "Secret",
            "metadata": {"name": "prod-eu", "labels": {SECRET_TYPE_LABEL: "cluster", "env": "prod"},
                         "annotations": {"team": "a"}},
            // "cHJvZC1ldQ==" is base64 of prod-eu; stringData's server wins over data's.
            "data": {"name": "cHJvZC1ldQ==", "server": "aHR0cHM6Ly9vbGQ="},
            "stringData": {"server": "https://prod-eu.example.com", "namespaces": " a, b ,,",
                           "clusterResources": "true", "config": "{}"}
        });
        assert!(is_cluster_secret(&secret));
        let cluster = cluster_from_secret(&secret, &origin()).unwrap();
        assert_eq!(cluster.name, "prod-eu");
        assert_eq!(cluster.server, "https://prod-eu.example.com");
        assert_eq!(cluster.namespaces, ["a", "b"]);
        assert!(cluster.cluster_resources);
        assert_eq!(cluster.labels["env"], "prod");
        assert_eq!(cluster.annotations["team"], "a");
    }

    #[test]
    fn a_cluster_secret_without_a_name_or_with_an_unknown_key_is_refused() {
        let base = |data: Value| {
            json!({"apiVersion": "v1", "kind": "Secret",
                   "metadata": {"name": "s", "labels": {SECRET_TYPE_LABEL: "cluster"}},
                   "stringData": data})
        };
        let message = |data| {
            cluster_from_secret(&base(data), &origin())
                .unwrap_err()
                .message
        };
        assert!(message(json!({"server": "https://x"})).contains("needs `name`"));
        assert!(
            message(json!({"name": "a", "server": "https://x", "sever": "y"}))
                .contains("does not know the cluster key \"sever\"")
        );
        assert!(
            message(json!({"name": "a", "server": "https://x", "clusterResources": "yes"}))
                .contains("clusterResources is \"yes\"")
        );
    }
}
