//! The keys each member cluster opens secrets with, as a fleet states them: on the inventory's
//! `Cluster` (an annotation) or in the fedrender Config (by cluster selector).
//!
//! ```yaml
//! # On a Cluster: every key its Flux decrypts SOPS files with, comma-separated, and the
//! # SHA-256 fingerprint of its sealed-secrets controller's certificate.
//! metadata:
//!   annotations:
//!     fedrender.io/sops-recipients: "age1ql3z…,4D8779A3D07BC980…"
//!     fedrender.io/sealed-secrets-certificate: "AB:CD:…"
//! ---
//! # In a Config: the same, for every cluster a label selector matches.
//! spec:
//!   secrets:
//!     sops:
//!     - clusterSelector: {matchLabels: {env: prod}}
//!       recipients: [age1ql3z…]
//!     sealedSecrets:
//!     - clusterSelector: {matchLabels: {region: eu}}
//!       certificate: "AB:CD:…"
//! ```

use serde::Deserialize;

use super::meta::LabelSelector;

/// Every key a cluster's Flux (kustomize-controller) decrypts SOPS files with: age recipients,
/// PGP fingerprints (or their last 16 hex digits), AWS KMS ARNs, GCP KMS resource IDs, Azure
/// Key Vault key URLs, HashiCorp Vault transit key URLs; comma-separated.
pub const SOPS_RECIPIENTS_ANNOTATION: &str = "fedrender.io/sops-recipients";

/// The SHA-256 (or SHA-1) fingerprint of the certificate a cluster's sealed-secrets controller
/// seals with, as `openssl x509 -noout -fingerprint -sha256` prints it (colons and case aside).
pub const SEALING_CERTIFICATE_ANNOTATION: &str = "fedrender.io/sealed-secrets-certificate";

/// `spec.secrets` of a fedrender Config.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SecretsConfig {
    #[serde(default)]
    pub sops: Vec<SopsRecipients>,
    #[serde(default)]
    pub sealed_secrets: Vec<SealingCertificate>,
}

/// The SOPS keys of the clusters a selector matches (added to what their annotation states).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SopsRecipients {
    pub cluster_selector: LabelSelector,
    pub recipients: Vec<String>,
}

/// The sealing certificate of the clusters a selector matches (a cluster's annotation beats it).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SealingCertificate {
    pub cluster_selector: LabelSelector,
    pub certificate: String,
}
