//! Warnings about secrets on their way to the clusters ([`crate::secrets`]): in the clear,
//! encrypted to no key of a cluster it reaches, sealed for one certificate and sent to clusters
//! of several; and what `plan` says of each cluster's key.

use std::collections::BTreeMap;

use crate::diagnostics::Diagnostic;
use crate::fleet::Fleet;
use crate::lint::Lint;
use crate::object::Template;
use crate::secrets::cluster_keys::Fingerprint;
use crate::secrets::{
    Protection, Recipient, clear_beside_sops, is_recipient, protection, sops_metadata,
    sops_recipients,
};

use super::placement::Placement;
use super::warnings::some_names;

/// A Secret with `data` or `stringData` in the clear that is written to the tree: one warning
/// per Secret, naming how many clusters receive it. The values are never shown. Secrets that
/// KubeFed's `FederatedSecret`s (or Federation v1 annotations) send are judged alike, each at
/// the federated object's file.
pub(super) fn plaintext_secret_warnings(
    fleet: &Fleet,
    placements: &[Placement],
    federated: &[Vec<(String, Option<i64>)>],
) -> Vec<Diagnostic> {
    let karmada = fleet
        .templates
        .iter()
        .zip(placements)
        .map(|(template, placement)| {
            let names: Vec<&str> = (placement.targets.iter())
                .map(|target| fleet.clusters[target.cluster].name())
                .collect();
            (template, &template.origin, names)
        });
    let kubefed = fleet
        .federated
        .iter()
        .zip(federated)
        .map(|(binding, targets)| {
            let names: Vec<&str> = targets.iter().map(|(name, _)| name.as_str()).collect();
            (&binding.template, &binding.source, names)
        });
    karmada
        .chain(kubefed)
        .filter(|(template, _, names)| {
            !names.is_empty()
                && protection(template.group(), template.kind(), &template.object)
                    == Some(Protection::Plaintext)
        })
        .map(|(template, origin, names)| {
            let count = names.len();
            // Beside SOPS metadata, say which values SOPS did not encrypt.
            let (held, encrypt) = if sops_metadata(&template.object).is_some() {
                let clear = clear_beside_sops(&template.object);
                (
                    format!(
                        "holds {} in the clear beside its sops metadata (not ENC[…]), so it is \
                         not SOPS-encrypted,",
                        some_names(clear.iter().map(String::as_str))
                    ),
                    "encrypt every value with SOPS (sops --encrypt with \
                     encrypted_regex: ^(data|stringData)$)",
                )
            } else {
                (
                    "holds its values in the clear".to_string(),
                    "encrypt it with SOPS",
                )
            };
            Diagnostic::warning(
                Lint::PlaintextSecret,
                Some(origin.clone()),
                format!(
                    "{} {held} and is written to {count} cluster{} ({}): they sit unencrypted \
                     in the rendered tree and its Git history; {encrypt}, replace it with a \
                     SealedSecret, or reference an external store (an ExternalSecret)",
                    template.key,
                    if count == 1 { "" } else { "s" },
                    some_names(names.into_iter()),
                ),
            )
            .about_object(&template.key)
        })
        .collect()
}

/// A SOPS document that reaches a cluster none of whose stated keys is among its recipients:
/// that cluster's Flux fails to decrypt it (sops' "no identity matched any of the
/// recipients"). One finding per document, naming each such cluster with its keys. A cluster
/// whose keys nothing states is not judged.
pub(super) fn sops_no_recipient_warnings(
    fleet: &Fleet,
    placements: &[Placement],
) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    for (template, placement) in fleet.templates.iter().zip(placements) {
        let Some(sops) = sops_metadata(&template.object) else {
            continue;
        };
        let recipients = sops_recipients(sops);
        let locked_out: Vec<(&str, &[String])> = placement
            .targets
            .iter()
            .filter_map(|target| {
                let keys = &fleet.cluster_keys.of(target.cluster)?.sops_recipients;
                let opens = keys.iter().any(|key| {
                    recipients
                        .iter()
                        .any(|recipient| is_recipient(key, recipient))
                });
                (!keys.is_empty() && !opens)
                    .then(|| (fleet.clusters[target.cluster].name(), keys.as_slice()))
            })
            .collect();
        if locked_out.is_empty() {
            continue;
        }
        let file = &template.origin.file;
        let recipients = describe_recipients(&recipients);
        let said = match locked_out.as_slice() {
            [(cluster, [key])] => format!(
                "reaches {cluster}, whose key {key} is not a recipient of {file} (encrypted to \
                 {recipients})"
            ),
            several => {
                let names: Vec<&str> = several.iter().map(|(cluster, _)| *cluster).collect();
                let keys: Vec<String> = several
                    .iter()
                    .map(|(cluster, keys)| format!("{cluster}: {}", keys.join(", ")))
                    .collect();
                format!(
                    "reaches {}, none of whose keys is a recipient of {file} ({}; the file is \
                     encrypted to {recipients})",
                    some_names(names.into_iter()),
                    keys.join("; ")
                )
            }
        };
        found.push(
            Diagnostic::warning(
                Lint::SopsNoRecipient,
                Some(template.origin.clone()),
                format!(
                    "{} {said}: Flux fails to decrypt it there, and with it the rest of that \
                     Kustomization; add the cluster's key to .sops.yaml and run sops updatekeys, \
                     or keep the document off the cluster",
                    template.key,
                ),
            )
            .about_object(&template.key),
        );
    }
    found
}

fn describe_recipients(recipients: &[Recipient]) -> String {
    if recipients.is_empty() {
        return "no key fedrender knows".to_string();
    }
    recipients
        .iter()
        .map(|recipient| format!("{} {}", recipient.kind, recipient.id))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The clusters a SealedSecret reaches, grouped by the certificate each cluster's controller
/// seals with (clusters that state none left out), in certificate order.
fn certificate_groups<'f>(
    fleet: &'f Fleet,
    placement: &Placement,
) -> BTreeMap<&'f Fingerprint, Vec<&'f str>> {
    let mut groups: BTreeMap<&Fingerprint, Vec<&str>> = BTreeMap::new();
    for target in placement.targets.iter() {
        if let Some(certificate) = fleet
            .cluster_keys
            .of(target.cluster)
            .and_then(|keys| keys.sealing_certificate.as_ref())
        {
            groups
                .entry(certificate)
                .or_default()
                .push(fleet.clusters[target.cluster].name());
        }
    }
    groups
}

fn is_sealed_secret(template: &Template) -> bool {
    template.group() == "bitnami.com" && template.kind() == "SealedSecret"
}

/// A SealedSecret that reaches clusters whose controllers seal with different certificates:
/// its values were sealed to one public key, so only one group's controller can unseal them.
pub(super) fn sealed_secret_shared_warnings(
    fleet: &Fleet,
    placements: &[Placement],
) -> Vec<Diagnostic> {
    if !fleet.cluster_keys.any_certificate() {
        return Vec::new();
    }
    let mut found = Vec::new();
    for (template, placement) in fleet.templates.iter().zip(placements) {
        if !is_sealed_secret(template) {
            continue;
        }
        let groups = certificate_groups(fleet, placement);
        if groups.len() < 2 {
            continue;
        }
        let listed: Vec<String> = groups
            .iter()
            .map(|(certificate, clusters)| {
                format!("{}… ({})", certificate.short(), clusters.join(", "))
            })
            .collect();
        found.push(
            Diagnostic::warning(
                Lint::SealedSecretShared,
                Some(template.origin.clone()),
                format!(
                    "{} reaches clusters of {} sealing certificates: {}; it was sealed with one \
                     controller's certificate, so it unseals on that group at most; seal it once \
                     per certificate (kubeseal --cert) and place each copy on its group",
                    template.key,
                    groups.len(),
                    some_names(listed.iter().map(String::as_str)),
                ),
            )
            .about_object(&template.key),
        );
    }
    found
}

/// What `plan` says of each cluster's key for a secret it receives, by cluster name: for a
/// SealedSecret the certificate group the cluster is in, for a SOPS document the key it
/// decrypts with, or that none of its keys is a recipient. Empty when no cluster the secret
/// reaches states a key.
pub(super) fn key_notes(
    fleet: &Fleet,
    template: &Template,
    placement: &Placement,
) -> Vec<(String, String)> {
    let keys_of = |cluster: usize| fleet.cluster_keys.of(cluster);
    let mut notes = Vec::new();
    let mut stated = false;
    if is_sealed_secret(template) {
        for target in placement.targets.iter() {
            let note = match keys_of(target.cluster).and_then(|k| k.sealing_certificate.as_ref()) {
                Some(certificate) => {
                    stated = true;
                    format!("certificate {}…", certificate.short())
                }
                None => "no certificate stated".to_string(),
            };
            notes.push((fleet.clusters[target.cluster].name().to_string(), note));
        }
    } else if let Some(sops) = sops_metadata(&template.object) {
        let recipients = sops_recipients(sops);
        for target in placement.targets.iter() {
            let keys = keys_of(target.cluster)
                .map(|keys| keys.sops_recipients.as_slice())
                .unwrap_or_default();
            let opening = keys.iter().find(|key| {
                recipients
                    .iter()
                    .any(|recipient| is_recipient(key, recipient))
            });
            stated |= !keys.is_empty();
            let note = match (keys.is_empty(), opening) {
                (true, _) => "no SOPS key stated".to_string(),
                (false, Some(key)) => format!("decrypts with {key}"),
                (false, None) => "none of its keys is a recipient: sops-no-recipient".to_string(),
            };
            notes.push((fleet.clusters[target.cluster].name().to_string(), note));
        }
    }
    if stated { notes } else { Vec::new() }
}
