//! Namespace auto-propagation (karmada pkg/controllers/namespace/namespace_sync_controller.go):
//! every Namespace in the control plane goes to every member cluster, with no policy and no
//! scheduling, unless Karmada skips it.

use crate::bind::{is_reserved_namespace, is_skipped_namespace};
use crate::object::Template;

pub(crate) const SKIP_AUTO_PROPAGATION_LABEL: &str = "namespace.karmada.io/skip-auto-propagation";

/// Whether the namespace controller sends this template to every cluster.
pub(crate) fn is_auto_propagated(template: &Template) -> bool {
    if !(template.api_version == "v1" && template.kind() == "Namespace") {
        return false;
    }
    let name = template.name();
    let skip_label = template
        .labels
        .get(SKIP_AUTO_PROPAGATION_LABEL)
        .is_some_and(|value| value.eq_ignore_ascii_case("true"));
    !(is_reserved_namespace(name) || name == "default" || is_skipped_namespace(name) || skip_label)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn namespace(name: &str, labels: &[(&str, &str)]) -> Template {
        Template::for_test("v1", "Namespace", "", name, json!({})).with_labels(labels)
    }

    // karmada namespace_sync_controller.go namespaceShouldBeSynced.
    #[test]
    fn namespaces_go_everywhere_except_the_ones_karmada_skips() {
        assert!(is_auto_propagated(&namespace("apps", &[])));
        for skipped in [
            "default",
            "kube-system",
            "kube-public",
            "karmada-system",
            "karmada-cluster",
            "karmada-es-m1",
        ] {
            assert!(!is_auto_propagated(&namespace(skipped, &[])), "{skipped}");
        }
        assert!(!is_auto_propagated(&namespace(
            "apps",
            &[(SKIP_AUTO_PROPAGATION_LABEL, "True")]
        )));
        assert!(is_auto_propagated(&namespace(
            "apps",
            &[(SKIP_AUTO_PROPAGATION_LABEL, "no")]
        )));
    }
}
