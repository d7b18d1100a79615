//! Secrets in a GitOps repository: how each object that carries one is protected, and what
//! fedrender must not do to it.
//!
//! A SOPS document (a top-level `sops` map with `mac` and `lastmodified`) is decrypted on the
//! member cluster by Flux's kustomize-controller, which checks SOPS's message authentication
//! code first. SOPS computes that MAC over the plaintext of every value of the document, in
//! document order, encrypted or not — or, when the metadata says `mac_only_encrypted: true`,
//! over the encrypted values alone. A label added, a value changed, even two keys swapped
//! (the order is hashed) makes decryption fail on that cluster. So fedrender passes a SOPS
//! document through as it was written: no pruning, nothing of its own added, and an override
//! rule that would change a value the MAC covers is refused (`sops-modified`).
//!
//! This room holds what fedrender knows of secrets: how each object is protected (here) and
//! the keys each cluster opens them with ([`cluster_keys`]). The warnings about secrets on
//! their way to clusters are `render`'s (`render/secret_warnings.rs`): they read where each
//! template goes, and `render` already uses this room.

use serde_json::{Map, Value};

use crate::check::{Checker, Finding};
use crate::fields::Fields;

// The SOPS recipients and sealing certificate of each cluster.
pub(crate) mod cluster_keys;

/// How an object that holds secret material reaches a cluster.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Protection {
    /// Encrypted with SOPS; `mac_only_encrypted` when only encrypted values are authenticated.
    Sops { mac_only_encrypted: bool },
    /// A Bitnami SealedSecret, which only the sealing controller can open, under the name and
    /// namespace its scope binds it to.
    Sealed(SealingScope),
    /// A reference to an external store (ExternalSecret, SecretProviderClass and friends): no
    /// secret material in the repository.
    External,
    /// A Secret whose `data` or `stringData` is written to the tree in the clear.
    Plaintext,
}

impl Protection {
    /// As `plan` shows it.
    pub fn describe(self) -> &'static str {
        match self {
            Protection::Sops {
                mac_only_encrypted: false,
            } => "SOPS-encrypted",
            Protection::Sops {
                mac_only_encrypted: true,
            } => "SOPS-encrypted (MAC over encrypted values only)",
            Protection::Sealed(SealingScope::Strict) => "SealedSecret, strict scope",
            Protection::Sealed(SealingScope::NamespaceWide) => "SealedSecret, namespace-wide scope",
            Protection::Sealed(SealingScope::ClusterWide) => "SealedSecret, cluster-wide scope",
            Protection::External => "external secret store reference",
            Protection::Plaintext => "in the clear (plaintext-secret)",
        }
    }
}

/// Kinds that point at a secret kept outside the repository (External Secrets Operator, the
/// Secrets Store CSI driver): by group and kind.
const EXTERNAL_KINDS: &[(&str, &str)] = &[
    ("external-secrets.io", "ExternalSecret"),
    ("external-secrets.io", "ClusterExternalSecret"),
    ("external-secrets.io", "PushSecret"),
    ("secrets-store.csi.x-k8s.io", "SecretProviderClass"),
];

/// How `object` (group and kind given) protects a secret; `None` for an object that holds
/// none (a Secret without `data` or `stringData` holds none either: a service-account token
/// or one filled in on the cluster).
pub fn protection(group: &str, kind: &str, object: &Value) -> Option<Protection> {
    if let Some(sops) = sops_metadata(object) {
        // A Secret whose values SOPS left in the clear (written beside the metadata after
        // encrypting, or outside `encrypted_regex`) sits in the tree as readable as any other.
        if group.is_empty() && kind == "Secret" && !clear_beside_sops(object).is_empty() {
            return Some(Protection::Plaintext);
        }
        return Some(Protection::Sops {
            mac_only_encrypted: mac_only_encrypted(sops),
        });
    }
    if group == "bitnami.com" && kind == "SealedSecret" {
        return Some(Protection::Sealed(sealing_scope(object)));
    }
    if EXTERNAL_KINDS.contains(&(group, kind)) {
        return Some(Protection::External);
    }
    let holds_data = ["data", "stringData"].iter().any(|field| {
        object
            .get(field)
            .and_then(Value::as_object)
            .is_some_and(|values| !values.is_empty())
    });
    (group.is_empty() && kind == "Secret" && holds_data).then_some(Protection::Plaintext)
}

/// The values of a Secret's `data` and `stringData` that are not SOPS's encrypted form
/// (`ENC[AES256_GCM,data:…,type:…]`), as `field.key`: in the clear although the document carries
/// `sops` metadata. An empty value holds nothing to hide.
pub(crate) fn clear_beside_sops(object: &Value) -> Vec<String> {
    let mut clear = Vec::new();
    for field in ["data", "stringData"] {
        let Some(values) = object.get(field).and_then(Value::as_object) else {
            continue;
        };
        for (key, value) in values {
            let encrypted = match value {
                Value::String(text) => {
                    text.is_empty() || (text.starts_with("ENC[") && text.ends_with(']'))
                }
                Value::Null => true,
                _ => false,
            };
            if !encrypted {
                clear.push(format!("{field}.{key}"));
            }
        }
    }
    clear
}

/// The SOPS metadata of a SOPS document: a top-level `sops` map holding `mac` and
/// `lastmodified`, which SOPS writes into every file it encrypts.
pub(crate) fn sops_metadata(object: &Value) -> Option<&Map<String, Value>> {
    object
        .field("sops")
        .and_then(Value::as_object)
        .filter(|sops| sops.contains_key("mac") && sops.contains_key("lastmodified"))
}

fn mac_only_encrypted(sops: &Map<String, Value>) -> bool {
    sops.field("mac_only_encrypted") == Some(&Value::Bool(true))
}

/// One key a SOPS file's data key is encrypted to: its kind (`age`, `pgp`, `kms`, `gcp_kms`,
/// `azure_kv`, `hc_vault`, as SOPS names its metadata lists) and the identifier a user writes
/// for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Recipient {
    pub kind: &'static str,
    pub id: String,
}

/// Every key a SOPS document's data key is encrypted to, from its metadata's lists and those of
/// its `key_groups`: an age recipient, a PGP fingerprint, an AWS KMS ARN, a GCP KMS resource
/// ID, an Azure Key Vault key as `{vault_url}/keys/{name}/{version}` and a HashiCorp Vault
/// transit key as `{vault_address}/v1/{engine_path}/keys/{key_name}`, the URLs SOPS's own
/// command line takes for them.
pub(crate) fn sops_recipients(sops: &Map<String, Value>) -> Vec<Recipient> {
    let mut found = Vec::new();
    let groups = sops
        .field("key_groups")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object);
    for group in std::iter::once(sops).chain(groups) {
        for (kind, entries) in group {
            let Some(kind) = ["age", "pgp", "kms", "gcp_kms", "azure_kv", "hc_vault"]
                .into_iter()
                .find(|known| known == kind)
            else {
                continue;
            };
            for entry in entries.as_array().into_iter().flatten() {
                let text = |field: &str| entry.get(field).and_then(Value::as_str).unwrap_or("");
                let id = match kind {
                    "age" => text("recipient").to_string(),
                    "pgp" => text("fp").to_string(),
                    "kms" => text("arn").to_string(),
                    "gcp_kms" => text("resource_id").to_string(),
                    "azure_kv" => format!(
                        "{}/keys/{}/{}",
                        text("vault_url").trim_end_matches('/'),
                        text("name"),
                        text("version")
                    ),
                    _ => format!(
                        "{}/v1/{}/keys/{}",
                        text("vault_address").trim_end_matches('/'),
                        text("engine_path").trim_matches('/'),
                        text("key_name")
                    ),
                };
                if !id.is_empty() {
                    found.push(Recipient { kind, id });
                }
            }
        }
    }
    found
}

/// Whether `key`, as a cluster's keys list it, is `recipient`. PGP keys compare as hex digits
/// (spaces and a `0x` aside, any case), a fingerprint matching the key ID that is its last 16
/// digits or more, since users write either; every other key compares as written, case and a
/// trailing slash aside.
pub(crate) fn is_recipient(key: &str, recipient: &Recipient) -> bool {
    if recipient.kind == "pgp" {
        let hex = |text: &str| -> Option<String> {
            let digits: String = text.chars().filter(|c| !c.is_whitespace()).collect();
            let digits = digits
                .strip_prefix("0x")
                .or_else(|| digits.strip_prefix("0X"))
                .unwrap_or(&digits)
                .to_ascii_uppercase();
            (digits.len() >= 16 && digits.chars().all(|c| c.is_ascii_hexdigit())).then_some(digits)
        };
        return match (hex(key), hex(&recipient.id)) {
            (Some(key), Some(recipient)) => key.ends_with(&recipient) || recipient.ends_with(&key),
            _ => false,
        };
    }
    key.trim_end_matches('/')
        .eq_ignore_ascii_case(recipient.id.trim_end_matches('/'))
}

/// The encryption label of a SealedSecret as the sealed-secrets controller computes it when
/// unsealing (`labelFor` in bitnami-labs/sealed-secrets
/// pkg/apis/sealedsecrets/v1alpha1/sealedsecret_expansion.go): from the object's own
/// `metadata.annotations`, `sealedsecrets.bitnami.com/cluster-wide: "true"` gives the empty
/// label, else `sealedsecrets.bitnami.com/namespace-wide: "true"` the namespace, else (strict)
/// `namespace/name`. RSA-OAEP only decrypts with the label the value was sealed with, so a copy
/// whose label differs from the template's cannot be unsealed.
pub(crate) fn sealing_label(object: &Value) -> String {
    let text =
        |pointer: &str| crate::json_pointer::pointer(object, pointer).and_then(Value::as_str);
    let namespace = text("/metadata/namespace").unwrap_or("");
    match sealing_scope(object) {
        SealingScope::ClusterWide => String::new(),
        SealingScope::NamespaceWide => namespace.to_string(),
        SealingScope::Strict => format!("{namespace}/{}", text("/metadata/name").unwrap_or("")),
    }
}

/// How far a SealedSecret may move: the scope it was sealed with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum SealingScope {
    /// Bound to its namespace and name (the default).
    Strict,
    /// Bound to its namespace; may be renamed.
    NamespaceWide,
    /// Unsealed under any name in any namespace.
    ClusterWide,
}

impl SealingScope {
    pub fn describe(self) -> &'static str {
        match self {
            SealingScope::Strict => "strict scope",
            SealingScope::NamespaceWide => "namespace-wide scope",
            SealingScope::ClusterWide => "cluster-wide scope",
        }
    }
}

/// The scope the controller unseals a SealedSecret with, from the annotations of its own
/// metadata (`SecretScope` in sealedsecret_expansion.go: cluster-wide first).
pub(crate) fn sealing_scope(object: &Value) -> SealingScope {
    let annotated = |name: &str| {
        crate::json_pointer::pointer(object, "/metadata/annotations")
            .and_then(|annotations| annotations.get(name))
            .and_then(Value::as_str)
            == Some("true")
    };
    if annotated("sealedsecrets.bitnami.com/cluster-wide") {
        SealingScope::ClusterWide
    } else if annotated("sealedsecrets.bitnami.com/namespace-wide") {
        SealingScope::NamespaceWide
    } else {
        SealingScope::Strict
    }
}

/// A value SOPS encrypted: `ENC[AES256_GCM,data:…,iv:…,tag:…,type:…]`.
pub(crate) fn is_encrypted(value: &Value) -> bool {
    value
        .as_str()
        .is_some_and(|text| text.starts_with("ENC[") && text.ends_with(']'))
}

/// What a cluster's API server would say of `object` (checked for `clusters`), a SOPS
/// document seen as the API server sees it once Flux has decrypted it: without its `sops`
/// block, and with nothing said of an encrypted value, whose plaintext fedrender cannot see.
/// Everything else (kind, metadata, unencrypted values) is checked as usual.
pub fn check(checker: &Checker, object: &Value, clusters: &[usize]) -> Vec<(Finding, Vec<usize>)> {
    match checkable(object) {
        None => checker.check(object, clusters),
        Some((object, encrypted)) => checker
            .check(&object, clusters)
            .into_iter()
            .filter(|(finding, _)| !within(&finding.path, &encrypted))
            .collect(),
    }
}

/// [`check`] for one Kubernetes version.
pub fn check_at(
    checker: &Checker,
    object: &Value,
    version: crate::check::KubernetesVersion,
) -> Vec<Finding> {
    match checkable(object) {
        None => checker.check_at(object, version),
        Some((object, encrypted)) => checker
            .check_at(&object, version)
            .into_iter()
            .filter(|finding| !within(&finding.path, &encrypted))
            .collect(),
    }
}

/// A SOPS document without its `sops` block, and the paths of its encrypted values as the
/// checker writes field paths; `None` for any other object.
fn checkable(object: &Value) -> Option<(Value, Vec<String>)> {
    sops_metadata(object)?;
    let mut object = object.clone();
    if let Some(root) = object.as_object_mut() {
        root.shift_remove("sops");
    }
    let mut encrypted = Vec::new();
    encrypted_paths(&object, &mut String::new(), &mut encrypted);
    Some((object, encrypted))
}

/// Whether a finding's path is an encrypted value or lies within one.
fn within(path: &str, encrypted: &[String]) -> bool {
    encrypted.iter().any(|prefix| {
        path.strip_prefix(prefix.as_str())
            .is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '[']))
    })
}

/// Collects the field paths of encrypted values, written as the checker writes them:
/// `data.password`, `data["tls.crt"]`, `spec.items[0]`.
fn encrypted_paths(value: &Value, path: &mut String, found: &mut Vec<String>) {
    if is_encrypted(value) {
        found.push(path.clone());
        return;
    }
    let length = path.len();
    match value {
        Value::Object(fields) => {
            for (field, value) in fields {
                push_field(path, field);
                encrypted_paths(value, path, found);
                path.truncate(length);
            }
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                path.push_str(&format!("[{index}]"));
                encrypted_paths(item, path, found);
                path.truncate(length);
            }
        }
        _ => {}
    }
}

/// A field path step as the checker writes one (check/schema.rs): plain names joined by dots,
/// any other name quoted in brackets.
fn push_field(path: &mut String, field: &str) {
    let plain = !field.is_empty()
        && field
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '$');
    if plain {
        if !path.is_empty() {
            path.push('.');
        }
        path.push_str(field);
    } else {
        path.push_str(&format!("[{field:?}]"));
    }
}

/// Where `changed` differs from the SOPS document `original` in a way that breaks its MAC or
/// its decryption: the first such path (`metadata.labels.team`), or `None` when it still
/// decrypts. Without `mac_only_encrypted` every value counts, in order.
///
/// With `mac_only_encrypted`, SOPS hashes the values its encryption rules select
/// (`encrypted_regex` and friends, matched against the keys of a value's path), and fails on a
/// value they select that is not encrypted. fedrender does not evaluate those rules: it counts
/// every value of a map or list that holds an encrypted value directly (under Flux's
/// `encrypted_regex: ^(data|stringData)$`, all of `data`), which covers what the rules select
/// and refuses, say, a plaintext key added to `data`; a label elsewhere is allowed.
pub(crate) fn breaks_mac(original: &Value, changed: &Value) -> Option<String> {
    let sops = sops_metadata(original)?;
    if changed.field("sops") != original.field("sops") {
        return Some("sops".to_string());
    }
    if mac_only_encrypted(sops) {
        let mut before = Vec::new();
        let mut after = Vec::new();
        covered_values(original, &mut String::new(), &mut before);
        covered_values(changed, &mut String::new(), &mut after);
        let first = before
            .iter()
            .zip(&after)
            .find(|(before, after)| before != after)
            .map(|(before, _)| before.0.clone());
        return first.or_else(|| match before.len().cmp(&after.len()) {
            std::cmp::Ordering::Equal => None,
            std::cmp::Ordering::Less => Some(after[before.len()].0.clone()),
            std::cmp::Ordering::Greater => Some(before[after.len()].0.clone()),
        });
    }
    first_difference(original, changed, &mut String::new())
}

/// The values a `mac_only_encrypted` MAC may cover, in document order with their paths: every
/// scalar of a map or list that holds an encrypted value directly, the `sops` block aside.
fn covered_values<'v>(value: &'v Value, path: &mut String, found: &mut Vec<(String, &'v Value)>) {
    let length = path.len();
    match value {
        Value::Object(fields) => {
            let covered = fields.values().any(is_encrypted);
            for (field, value) in fields {
                if path.is_empty() && field == "sops" {
                    continue;
                }
                push_field(path, field);
                if value.is_object() || value.is_array() {
                    covered_values(value, path, found);
                } else if covered {
                    found.push((path.clone(), value));
                }
                path.truncate(length);
            }
        }
        Value::Array(items) => {
            let covered = items.iter().any(is_encrypted);
            for (index, item) in items.iter().enumerate() {
                path.push_str(&format!("[{index}]"));
                if item.is_object() || item.is_array() {
                    covered_values(item, path, found);
                } else if covered {
                    found.push((path.clone(), item));
                }
                path.truncate(length);
            }
        }
        _ => {}
    }
}

/// The first path where two values differ, key order included (SOPS hashes values in order).
fn first_difference(a: &Value, b: &Value, path: &mut String) -> Option<String> {
    let length = path.len();
    let here = |path: &String| {
        Some(if path.is_empty() {
            "(the object)".to_string()
        } else {
            path.clone()
        })
    };
    match (a, b) {
        (Value::Object(a), Value::Object(b)) => {
            for (position, (field, value)) in a.iter().enumerate() {
                push_field(path, field);
                match b.iter().nth(position) {
                    Some((other, other_value)) if other == field => {
                        if let Some(found) = first_difference(value, other_value, path) {
                            return Some(found);
                        }
                    }
                    _ => return Some(path.clone()),
                }
                path.truncate(length);
            }
            b.keys().nth(a.len()).map(|field| {
                push_field(path, field);
                path.clone()
            })
        }
        (Value::Array(a), Value::Array(b)) => {
            for (index, value) in a.iter().enumerate() {
                path.push_str(&format!("[{index}]"));
                match b.get(index) {
                    Some(other) => {
                        if let Some(found) = first_difference(value, other, path) {
                            return Some(found);
                        }
                    }
                    None => return Some(path.clone()),
                }
                path.truncate(length);
            }
            (b.len() > a.len()).then(|| format!("{path}[{}]", a.len()))
        }
        _ if a == b => None,
        _ => here(path),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A SOPS document as `sops --encrypt --encrypted-regex '^(data|stringData)$'` writes a
    /// Secret (the shape of SOPS's YAML store; values shortened).
    fn sops_secret(mac_only_encrypted: bool) -> Value {
        let mut sops = json!({
            "age": [{"recipient": "age1example", "enc": "-----BEGIN AGE ENCRYPTED FILE-----"}],
            "lastmodified": "2026-11-27T21:00:00Z",
            "mac": "ENC[AES256_GCM,data:bWFj,iv:aXY=,tag:dGFn,type:str]",
            "encrypted_regex": "^(data|stringData)$",
            "version": "3.9.0"
        });
        if mac_only_encrypted {
            sops["mac_only_encrypted"] = json!(true);
        }
        json!({
            "apiVersion": "v1",
            "kind": "Secret",
            "metadata": {"name": "db", "namespace": "shop"},
            "data": {
                "password": "ENC[AES256_GCM,data:cGFzcw==,iv:aXY=,tag:dGFn,type:str]",
                "tls.crt": "ENC[AES256_GCM,data:Y2VydA==,iv:aXY=,tag:dGFn,type:str]"
            },
            "sops": sops
        })
    }

    #[test]
    fn a_sops_document_needs_mac_and_lastmodified() {
        assert!(sops_metadata(&sops_secret(false)).is_some());
        assert!(sops_metadata(&json!({"sops": {"mac": "x"}})).is_none());
        assert!(sops_metadata(&json!({"sops": "yes"})).is_none());
    }

    #[test]
    fn encrypted_paths_are_written_as_the_checker_writes_field_paths() {
        let (object, encrypted) = checkable(&sops_secret(false)).unwrap();
        assert!(object.field("sops").is_none());
        assert_eq!(encrypted, ["data.password", r#"data["tls.crt"]"#]);
        assert!(within("data.password", &encrypted));
        assert!(!within("data.passwords", &encrypted));
        assert!(!within("metadata.name", &encrypted));
    }

    #[test]
    fn any_change_breaks_the_mac_of_a_document_authenticating_every_value() {
        let original = sops_secret(false);
        assert_eq!(breaks_mac(&original, &original), None);
        let mut labelled = original.clone();
        labelled["metadata"]["labels"] = json!({"team": "a"});
        assert_eq!(
            breaks_mac(&original, &labelled).as_deref(),
            Some("metadata.labels")
        );
        // Same values, other order: SOPS hashes in document order.
        let mut reordered = original.clone();
        let data = reordered["data"].as_object_mut().unwrap();
        let password = data.shift_remove("password").unwrap();
        data.insert("password".into(), password);
        assert_eq!(
            breaks_mac(&original, &reordered).as_deref(),
            Some(r#"data.password"#)
        );
        let mut resealed = original.clone();
        resealed["sops"]["lastmodified"] = json!("2027-01-01T00:00:00Z");
        assert_eq!(breaks_mac(&original, &resealed).as_deref(), Some("sops"));
    }

    #[test]
    fn with_mac_only_encrypted_only_encrypted_values_count() {
        let original = sops_secret(true);
        let mut labelled = original.clone();
        labelled["metadata"]["labels"] = json!({"team": "a"});
        assert_eq!(breaks_mac(&original, &labelled), None);
        let mut replaced = original.clone();
        replaced["data"]["password"] = json!("cGxhaW4=");
        assert_eq!(
            breaks_mac(&original, &replaced).as_deref(),
            Some("data.password")
        );
        // A plaintext key added beside encrypted ones: SOPS's rules select it, and it is not
        // encrypted, so decryption fails.
        let mut added = original.clone();
        added["data"]["extra"] = json!("cGxhaW4=");
        assert_eq!(breaks_mac(&original, &added).as_deref(), Some("data.extra"));
    }

    #[test]
    fn recipients_come_from_every_key_list_and_key_group() {
        // Field names as SOPS writes its metadata (getsops/sops stores: `age[].recipient`,
        // `pgp[].fp`, `kms[].arn`, `gcp_kms[].resource_id`, `azure_kv[]` and `hc_vault[]`).
        let sops = json!({
            "age": [{"recipient": "age1abc", "enc": "…"}],
            "kms": [{"arn": "arn:aws:kms:eu-west-1:1:key/k"}],
            "gcp_kms": [{"resource_id": "projects/p/locations/l/keyRings/r/cryptoKeys/k"}],
            "azure_kv": [{"vault_url": "https://v.vault.azure.net/", "name": "k", "version": "1"}],
            "hc_vault": [{"vault_address": "https://vault:8200", "engine_path": "sops", "key_name": "k"}],
            "key_groups": [{"pgp": [{"fp": "4D8779A3D07BC9804DDCD3C97BF9A2A807508A41"}]}],
            "lastmodified": "x", "mac": "x"
        });
        let found: Vec<(&str, String)> = sops_recipients(sops.as_object().unwrap())
            .into_iter()
            .map(|recipient| (recipient.kind, recipient.id))
            .collect();
        assert_eq!(
            found,
            [
                ("age", "age1abc".to_string()),
                ("kms", "arn:aws:kms:eu-west-1:1:key/k".to_string()),
                (
                    "gcp_kms",
                    "projects/p/locations/l/keyRings/r/cryptoKeys/k".to_string()
                ),
                ("azure_kv", "https://v.vault.azure.net/keys/k/1".to_string()),
                ("hc_vault", "https://vault:8200/v1/sops/keys/k".to_string()),
                (
                    "pgp",
                    "4D8779A3D07BC9804DDCD3C97BF9A2A807508A41".to_string()
                ),
            ]
        );
    }

    #[test]
    fn pgp_keys_match_by_fingerprint_or_key_id_and_others_as_written() {
        let pgp = Recipient {
            kind: "pgp",
            id: "4D8779A3D07BC9804DDCD3C97BF9A2A807508A41".into(),
        };
        assert!(is_recipient(
            "4d87 79a3 d07b c980 4ddc  d3c9 7bf9 a2a8 0750 8a41",
            &pgp
        ));
        assert!(is_recipient("0x7BF9A2A807508A41", &pgp));
        assert!(
            !is_recipient("07508A41", &pgp),
            "a short key ID is ambiguous"
        );
        assert!(!is_recipient("8BF9A2A807508A41", &pgp));
        let age = Recipient {
            kind: "age",
            id: "age1abc".into(),
        };
        assert!(is_recipient("AGE1ABC", &age));
        assert!(!is_recipient("age1abd", &age));
        let vault = Recipient {
            kind: "hc_vault",
            id: "https://vault:8200/v1/sops/keys/k".into(),
        };
        assert!(is_recipient("https://vault:8200/v1/sops/keys/k/", &vault));
    }

    #[test]
    fn the_sealing_label_follows_the_scope_annotations_of_the_object_itself() {
        // labelFor and SecretScope in bitnami-labs/sealed-secrets
        // pkg/apis/sealedsecrets/v1alpha1/sealedsecret_expansion.go: cluster-wide beats
        // namespace-wide, and only the value "true" counts.
        let sealed = |annotations: Value| {
            json!({"metadata": {"name": "db", "namespace": "shop", "annotations": annotations},
                   "spec": {"template": {"metadata": {"annotations": {
                       "sealedsecrets.bitnami.com/cluster-wide": "true"}}}}})
        };
        assert_eq!(sealing_label(&sealed(json!({}))), "shop/db");
        assert_eq!(
            sealing_label(&sealed(
                json!({"sealedsecrets.bitnami.com/namespace-wide": "true"})
            )),
            "shop"
        );
        assert_eq!(
            sealing_label(&sealed(json!({
                "sealedsecrets.bitnami.com/namespace-wide": "true",
                "sealedsecrets.bitnami.com/cluster-wide": "true"
            }))),
            ""
        );
        assert_eq!(
            sealing_label(&sealed(
                json!({"sealedsecrets.bitnami.com/cluster-wide": "yes"})
            )),
            "shop/db"
        );
    }

    #[test]
    fn protection_of_each_kind() {
        assert_eq!(
            protection("", "Secret", &sops_secret(true)),
            Some(Protection::Sops {
                mac_only_encrypted: true
            })
        );
        let plain = json!({"kind": "Secret", "stringData": {"a": "b"}});
        assert_eq!(
            protection("", "Secret", &plain),
            Some(Protection::Plaintext)
        );
        // Half encrypted: stringData written in the clear beside the metadata.
        let mut half = sops_secret(false);
        half["stringData"] = json!({"token": "hunter2"});
        assert_eq!(protection("", "Secret", &half), Some(Protection::Plaintext));
        assert_eq!(clear_beside_sops(&half), ["stringData.token"]);
        assert!(clear_beside_sops(&sops_secret(false)).is_empty());
        let empty = json!({"kind": "Secret", "type": "kubernetes.io/service-account-token"});
        assert_eq!(protection("", "Secret", &empty), None);
        assert_eq!(
            protection("bitnami.com", "SealedSecret", &json!({})),
            Some(Protection::Sealed(SealingScope::Strict))
        );
        assert_eq!(
            protection("external-secrets.io", "ExternalSecret", &json!({})),
            Some(Protection::External)
        );
        assert_eq!(protection("", "ConfigMap", &plain), None);
    }
}
