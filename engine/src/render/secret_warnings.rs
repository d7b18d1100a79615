//! Warnings about secrets on their way to the clusters ([`crate::secrets`]).

use crate::diagnostics::Diagnostic;
use crate::fleet::Fleet;
use crate::lint::Lint;
use crate::secrets::{Protection, protection};

use super::placement::Placement;
use super::warnings::some_names;

/// A Secret with `data` or `stringData` in the clear that is written to the tree: one warning
/// per Secret, naming how many clusters receive it. The values are never shown.
pub(super) fn plaintext_secret_warnings(
    fleet: &Fleet,
    placements: &[Placement],
) -> Vec<Diagnostic> {
    fleet
        .templates
        .iter()
        .zip(placements)
        .filter(|(template, placement)| {
            !placement.targets.is_empty()
                && protection(template.group(), template.kind(), &template.object)
                    == Some(Protection::Plaintext)
        })
        .map(|(template, placement)| {
            let names: Vec<&str> = placement
                .targets
                .iter()
                .map(|target| fleet.clusters[target.cluster].name())
                .collect();
            let count = names.len();
            Diagnostic::warning(
                Lint::PlaintextSecret,
                Some(template.origin.clone()),
                format!(
                    "{} holds its values in the clear and is written to {count} cluster{} ({}): \
                     they sit unencrypted in the rendered tree and its Git history; encrypt it \
                     with SOPS, replace it with a SealedSecret, or reference an external store \
                     (an ExternalSecret)",
                    template.key,
                    if count == 1 { "" } else { "s" },
                    some_names(names.into_iter()),
                ),
            )
            .about_object(&template.key)
        })
        .collect()
}
