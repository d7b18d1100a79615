//! The keys each member cluster opens secrets with: the SOPS recipients its Flux decrypts with
//! and the certificate its sealed-secrets controller seals with, from the `Cluster`'s
//! annotations and the fedrender Config's `spec.secrets` (api/secret_keys.rs).
//!
//! A cluster's SOPS keys are all those its annotation and every Config entry whose selector
//! matches it state: Flux's decryption Secret may hold several (an age key and a PGP key, an
//! old key and its successor). A cluster has one sealing certificate: its annotation, else the
//! Config entry whose selector matches it; two entries that match one cluster with different
//! certificates are an error, since either answer would be a guess.

use crate::api::cluster::Cluster;
use crate::api::secret_keys::{
    SEALING_CERTIFICATE_ANNOTATION, SOPS_RECIPIENTS_ANNOTATION, SecretsConfig,
};
use crate::diagnostics::{Diagnostic, ErrorSink, Located, Origin};

/// The keys of every cluster of the inventory, by position.
#[derive(Debug, Clone, Default)]
pub struct ClusterKeys {
    clusters: Vec<KeysOf>,
}

/// The keys of one cluster.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KeysOf {
    /// Every key its Flux decrypts SOPS files with, as written; empty when nothing says.
    pub(crate) sops_recipients: Vec<String>,
    /// The fingerprint of its sealing certificate, when stated.
    pub(crate) sealing_certificate: Option<Fingerprint>,
}

/// A certificate fingerprint: lowercase hex digits, the colons and any `SHA256 Fingerprint=`
/// prefix of openssl's output taken away, so that two spellings of one certificate are equal.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Fingerprint(String);

impl Fingerprint {
    /// A SHA-256 (64 hex digits) or SHA-1 (40) fingerprint, or why `text` is neither.
    pub fn parse(text: &str) -> Result<Fingerprint, String> {
        let trimmed = text.trim();
        let digits = match trimmed.split_once('=') {
            Some((label, digits)) if label.to_ascii_lowercase().contains("fingerprint") => digits,
            _ => trimmed
                .strip_prefix("sha256:")
                .or_else(|| trimmed.strip_prefix("SHA256:"))
                .unwrap_or(trimmed),
        };
        let hex: String = digits
            .chars()
            .filter(|c| *c != ':' && !c.is_whitespace())
            .collect::<String>()
            .to_ascii_lowercase();
        if (hex.len() == 64 || hex.len() == 40) && hex.chars().all(|c| c.is_ascii_hexdigit()) {
            Ok(Fingerprint(hex))
        } else {
            Err(format!(
                "{text:?} is not a certificate fingerprint: write the SHA-256 fingerprint of the \
                 controller's certificate (kubeseal --fetch-cert | openssl x509 -noout \
                 -fingerprint -sha256), 64 hex digits, colons allowed"
            ))
        }
    }

    /// As messages show it: the first 16 hex digits, enough to tell certificates apart.
    pub fn short(&self) -> &str {
        &self.0[..16]
    }
}

impl std::fmt::Display for Fingerprint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl ClusterKeys {
    /// The keys of the cluster at `position` in the inventory.
    pub fn of(&self, position: usize) -> Option<&KeysOf> {
        self.clusters.get(position)
    }

    /// Whether any cluster states a sealing certificate.
    pub(crate) fn any_certificate(&self) -> bool {
        self.clusters
            .iter()
            .any(|keys| keys.sealing_certificate.is_some())
    }
}

/// The keys of every cluster (`clusters` in inventory order), from their annotations and the
/// Configs' `spec.secrets`; a malformed value is an error at its line.
pub fn resolve(
    clusters: &[Located<Cluster>],
    configs: &[Located<SecretsConfig>],
    errors: &mut ErrorSink,
) -> ClusterKeys {
    check_configs(configs, errors);
    let clusters = clusters
        .iter()
        .map(|cluster| keys_of(cluster, configs, errors))
        .collect();
    ClusterKeys { clusters }
}

fn check_configs(configs: &[Located<SecretsConfig>], errors: &mut ErrorSink) {
    for config in configs {
        let at = |field: &str| config.fields.origin(&config.origin, field);
        let selectors = config
            .item
            .sops
            .iter()
            .enumerate()
            .map(|(index, entry)| {
                (
                    format!("spec.secrets.sops[{index}]"),
                    &entry.cluster_selector,
                )
            })
            .chain(
                config
                    .item
                    .sealed_secrets
                    .iter()
                    .enumerate()
                    .map(|(index, entry)| {
                        (
                            format!("spec.secrets.sealedSecrets[{index}]"),
                            &entry.cluster_selector,
                        )
                    }),
            );
        for (field, selector) in selectors {
            for (path, problem) in selector.conversion_problems() {
                let field = format!("{field}.clusterSelector.{path}");
                errors.push(Diagnostic::error(
                    Some(at(&field)),
                    format!("Config: {field}: {problem}"),
                ));
            }
        }
        for (index, entry) in config.item.sops.iter().enumerate() {
            if entry.recipients.iter().any(|key| key.trim().is_empty()) {
                let field = format!("spec.secrets.sops[{index}].recipients");
                errors.push(Diagnostic::error(
                    Some(at(&field)),
                    format!("Config: {field}: an empty recipient"),
                ));
            }
        }
        for (index, entry) in config.item.sealed_secrets.iter().enumerate() {
            if let Err(problem) = Fingerprint::parse(&entry.certificate) {
                let field = format!("spec.secrets.sealedSecrets[{index}].certificate");
                errors.push(Diagnostic::error(
                    Some(at(&field)),
                    format!("Config: {field}: {problem}"),
                ));
            }
        }
    }
}

fn keys_of(
    cluster: &Located<Cluster>,
    configs: &[Located<SecretsConfig>],
    errors: &mut ErrorSink,
) -> KeysOf {
    let labels = &cluster.item.metadata.labels;
    let annotations = &cluster.item.metadata.annotations;
    let annotation_at = |name: &str| {
        cluster
            .fields
            .origin(&cluster.origin, &format!("metadata.annotations[{name}]"))
    };
    let mut keys = KeysOf::default();
    if let Some(list) = annotations.get(SOPS_RECIPIENTS_ANNOTATION) {
        keys.sops_recipients.extend(
            list.split(',')
                .map(str::trim)
                .filter(|key| !key.is_empty())
                .map(str::to_string),
        );
    }
    let mut certificate: Option<(Fingerprint, Origin)> = None;
    if let Some(text) = annotations.get(SEALING_CERTIFICATE_ANNOTATION) {
        match Fingerprint::parse(text) {
            Ok(fingerprint) => {
                certificate = Some((fingerprint, annotation_at(SEALING_CERTIFICATE_ANNOTATION)))
            }
            Err(problem) => errors.push(Diagnostic::error(
                Some(annotation_at(SEALING_CERTIFICATE_ANNOTATION)),
                format!(
                    "Cluster {}: annotation {SEALING_CERTIFICATE_ANNOTATION}: {problem}",
                    cluster.item.name()
                ),
            )),
        }
    }
    let from_annotation = certificate.is_some();
    for config in configs {
        for entry in &config.item.sops {
            if entry.cluster_selector.matches(labels) {
                for key in &entry.recipients {
                    if !keys.sops_recipients.contains(key) {
                        keys.sops_recipients.push(key.clone());
                    }
                }
            }
        }
        if from_annotation {
            continue;
        }
        for (index, entry) in config.item.sealed_secrets.iter().enumerate() {
            let Ok(fingerprint) = Fingerprint::parse(&entry.certificate) else {
                continue;
            };
            if !entry.cluster_selector.matches(labels) {
                continue;
            }
            let at = config.fields.origin(
                &config.origin,
                &format!("spec.secrets.sealedSecrets[{index}]"),
            );
            match &certificate {
                Some((first, first_at)) if *first != fingerprint => {
                    errors.push(Diagnostic::error(
                        Some(at),
                        format!(
                            "Config: spec.secrets.sealedSecrets[{index}] gives cluster {} the \
                             certificate {}, and {first_at} gives it {}: a cluster's controller \
                             seals with one; narrow the selectors, or annotate the cluster \
                             ({SEALING_CERTIFICATE_ANNOTATION}), which beats the Config",
                            cluster.item.name(),
                            fingerprint.short(),
                            first.short(),
                        ),
                    ));
                }
                Some(_) => {}
                None => certificate = Some((fingerprint, at)),
            }
        }
    }
    keys.sealing_certificate = certificate.map(|(fingerprint, _)| fingerprint);
    keys
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostics::FieldLines;

    fn cluster(
        name: &str,
        labels: &[(&str, &str)],
        annotations: &[(&str, &str)],
    ) -> Located<Cluster> {
        let map = |pairs: &[(&str, &str)]| -> serde_json::Map<String, serde_json::Value> {
            pairs
                .iter()
                .map(|(key, value)| (key.to_string(), serde_json::json!(value)))
                .collect()
        };
        let value = serde_json::json!({
            "apiVersion": "cluster.karmada.io/v1alpha1",
            "kind": "Cluster",
            "metadata": {"name": name, "labels": map(labels), "annotations": map(annotations)}
        });
        Located {
            origin: Origin::new("clusters.yaml", 0, 1),
            item: serde_json::from_value(value).unwrap(),
            fields: FieldLines::default(),
        }
    }

    fn config(value: serde_json::Value) -> Located<SecretsConfig> {
        Located {
            origin: Origin::new("config.yaml", 0, 1),
            item: serde_json::from_value(value).unwrap(),
            fields: FieldLines::default(),
        }
    }

    const CERT_A: &str = "AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89";
    const CERT_B: &str = "1111111111111111111111111111111111111111111111111111111111111111";

    #[test]
    fn fingerprints_as_openssl_prints_them_or_bare() {
        let bare = Fingerprint::parse(&CERT_A.replace(':', "").to_lowercase()).unwrap();
        assert_eq!(Fingerprint::parse(CERT_A).unwrap(), bare);
        assert_eq!(
            Fingerprint::parse(&format!("sha256 Fingerprint={CERT_A}")).unwrap(),
            bare
        );
        assert_eq!(bare.short(), "abcdef0123456789");
        assert!(
            Fingerprint::parse("abc")
                .unwrap_err()
                .contains("not a certificate fingerprint")
        );
    }

    #[test]
    fn recipients_add_up_and_the_annotation_beats_the_config_for_the_certificate() {
        let clusters = [
            cluster(
                "prod-eu-1",
                &[("env", "prod")],
                &[
                    (SOPS_RECIPIENTS_ANNOTATION, "age1one, FPR1"),
                    (SEALING_CERTIFICATE_ANNOTATION, CERT_B),
                ],
            ),
            cluster("prod-eu-2", &[("env", "prod")], &[]),
            cluster("staging", &[("env", "staging")], &[]),
        ];
        let configs = [config(serde_json::json!({
            "sops": [{"clusterSelector": {"matchLabels": {"env": "prod"}}, "recipients": ["age1prod", "FPR1"]}],
            "sealedSecrets": [{"clusterSelector": {"matchLabels": {"env": "prod"}}, "certificate": CERT_A}]
        }))];
        let mut errors = ErrorSink::default();
        let keys = resolve(&clusters, &configs, &mut errors);
        assert!(errors.finish().is_ok());
        let one = keys.of(0).unwrap();
        assert_eq!(one.sops_recipients, ["age1one", "FPR1", "age1prod"]);
        assert_eq!(one.sealing_certificate, Fingerprint::parse(CERT_B).ok());
        let two = keys.of(1).unwrap();
        assert_eq!(two.sops_recipients, ["age1prod", "FPR1"]);
        assert_eq!(two.sealing_certificate, Fingerprint::parse(CERT_A).ok());
        assert_eq!(keys.of(2), Some(&KeysOf::default()));
    }

    #[test]
    fn two_certificates_for_one_cluster_are_an_error() {
        let clusters = [cluster(
            "prod-eu-1",
            &[("env", "prod"), ("region", "eu")],
            &[],
        )];
        let configs = [config(serde_json::json!({
            "sealedSecrets": [
                {"clusterSelector": {"matchLabels": {"env": "prod"}}, "certificate": CERT_A},
                {"clusterSelector": {"matchLabels": {"region": "eu"}}, "certificate": CERT_B}
            ]
        }))];
        let mut errors = ErrorSink::default();
        resolve(&clusters, &configs, &mut errors);
        let rejected = errors.finish().unwrap_err();
        assert!(
            rejected.errors[0]
                .to_string()
                .contains("gives cluster prod-eu-1 the certificate 1111111111111111"),
            "{}",
            rejected.errors[0]
        );
    }
}
