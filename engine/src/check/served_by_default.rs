//! Which built-in APIs a cluster serves without being asked to. Alpha API versions are never
//! served by default; since Kubernetes 1.24 new beta API versions are not either (KEP-3136,
//! "Beta APIs off by default"), except new versions of APIs that were beta and on before it.
//! Upstream keeps the lists in k8s.io/kubernetes pkg/controlplane (instance.go up to 1.30,
//! apiserver/options after): `alphaAPIGroupVersionsDisabledByDefault`,
//! `betaAPIGroupVersionsDisabledByDefault` and `legacyBetaEnabledByDefaultResources`. A
//! cluster serves one of these only when its API server is started with
//! `--runtime-config=<group>/<version>=true` and, for most, the feature's gate.

use super::builtin::{GroupVersionKind, KubernetesVersion, api_stability};

/// A beta API version that no cluster serves unless it is enabled: its apiVersion, the kinds it
/// holds back (none: all of the version's kinds), the feature gate its feature needs beside
/// `--runtime-config` where there is one, and where upstream says so.
type OffByDefault = (
    &'static str,
    &'static [&'static str],
    Option<&'static str>,
    &'static str,
);

/// The beta API versions of the embedded schemas (1.25 on) that are off by default.
const BETA_OFF_BY_DEFAULT: [OffByDefault; 10] = [
    (
        "authentication.k8s.io/v1beta1",
        &[],
        Some("APISelfSubjectReview"),
        "kubernetes pkg/controlplane/instance.go betaAPIGroupVersionsDisabledByDefault \
         (1.27–1.30); KEP-3325",
    ),
    (
        "admissionregistration.k8s.io/v1beta1",
        &[],
        Some("ValidatingAdmissionPolicy (MutatingAdmissionPolicy for mutating ones)"),
        "kubernetes pkg/controlplane/instance.go betaAPIGroupVersionsDisabledByDefault \
         (1.28 on); KEP-3488, KEP-3962",
    ),
    (
        "storage.k8s.io/v1beta1",
        // CSIStorageCapacity (beta since 1.21) stayed on until its removal in 1.27.
        &["VolumeAttributesClass"],
        Some("VolumeAttributesClass"),
        "kubernetes pkg/controlplane/instance.go betaAPIGroupVersionsDisabledByDefault \
         with csistoragecapacities in legacyBetaEnabledByDefaultResources; KEP-3751",
    ),
    (
        "networking.k8s.io/v1beta1",
        &[],
        Some("MultiCIDRServiceAllocator"),
        "Kubernetes 1.31 release notes (ServiceCIDR and IPAddress beta, off by default); \
         KEP-1880",
    ),
    (
        "resource.k8s.io/v1beta1",
        &[],
        Some("DynamicResourceAllocation"),
        "Kubernetes 1.32 release notes (DRA structured parameters beta, API off by \
         default); kubernetes/api resource/v1beta1/types.go introduced=1.32; KEP-4381",
    ),
    (
        "resource.k8s.io/v1beta2",
        &[],
        Some("DynamicResourceAllocation"),
        "Kubernetes 1.33 release notes (resource.k8s.io/v1beta2, off by default); \
         KEP-4381",
    ),
    (
        "coordination.k8s.io/v1beta1",
        &[],
        Some("CoordinatedLeaderElection"),
        "Kubernetes 1.33 release notes (LeaseCandidate beta, off by default); KEP-4355",
    ),
    (
        "certificates.k8s.io/v1beta1",
        &[],
        Some("ClusterTrustBundle (PodCertificateRequest for those)"),
        "Kubernetes 1.33 release notes (ClusterTrustBundle beta, off by default); \
         KEP-3257, KEP-4317",
    ),
    (
        "storagemigration.k8s.io/v1beta1",
        &[],
        Some("StorageVersionMigrator"),
        "KEP-4192 (storage version migration beta, off by default); KEP-3136",
    ),
    (
        "scheduling.k8s.io/v1beta1",
        &[],
        None,
        "KEP-3136: a beta API version new after 1.24 is off by default",
    ),
];

/// The beta API versions of the embedded schemas that are on by default: beta before 1.24, or
/// a new version of an API that was (`legacyBetaEnabledByDefaultResources`).
const BETA_ON_BY_DEFAULT: [(&str, &[&str], &str); 5] = [
    (
        "autoscaling/v2beta2",
        &[],
        "beta and on since 1.12, before KEP-3136; removed in 1.26",
    ),
    (
        "flowcontrol.apiserver.k8s.io/v1beta1",
        &[],
        "kubernetes pkg/controlplane/instance.go legacyBetaEnabledByDefaultResources (remove in 1.26)",
    ),
    (
        "flowcontrol.apiserver.k8s.io/v1beta2",
        &[],
        "kubernetes pkg/controlplane/instance.go legacyBetaEnabledByDefaultResources (remove in 1.29)",
    ),
    (
        "flowcontrol.apiserver.k8s.io/v1beta3",
        &[],
        "kubernetes pkg/controlplane/instance.go legacyBetaEnabledByDefaultResources \
         (deprecate in 1.29, remove in 1.32)",
    ),
    (
        "storage.k8s.io/v1beta1",
        &["CSIStorageCapacity"],
        "kubernetes pkg/controlplane/instance.go legacyBetaEnabledByDefaultResources \
         (csistoragecapacities, beta since 1.21)",
    ),
];

/// The deprecated API versions Kubernetes 1.16 stopped serving by default, which 1.16 and 1.17
/// still serve when re-enabled (their code went in 1.18), so that their schemas are in those
/// releases' OpenAPI documents (kubernetes CHANGELOG-1.16 "Deprecations and Removals"; the
/// Kubernetes deprecation guide, v1.16): an apiVersion and its kinds, none for all.
const STOPPED_IN_1_16: [(&str, &[&str]); 3] = [
    (
        "extensions/v1beta1",
        &[
            "DaemonSet",
            "Deployment",
            "ReplicaSet",
            "NetworkPolicy",
            "PodSecurityPolicy",
        ],
    ),
    ("apps/v1beta1", &[]),
    ("apps/v1beta2", &[]),
];

/// Why a cluster of `version` does not serve `gvk` by default, as a sentence naming what
/// enables it; `None` for an API served by default.
pub fn off_by_default(gvk: &GroupVersionKind, version: KubernetesVersion) -> Option<String> {
    let api_version = gvk.api_version();
    let covers = |listed: &str, kinds: &[&str]| covers(listed, kinds, &api_version, &gvk.kind);
    let runtime_config = format!("--runtime-config={api_version}=true");
    if version.minor < 18
        && STOPPED_IN_1_16
            .iter()
            .any(|(listed, kinds)| covers(listed, kinds))
    {
        return Some(format!(
            "{gvk} is no longer served by default since Kubernetes 1.16: Kubernetes {version} \
             serves it only where the API server runs with {runtime_config}"
        ));
    }
    match api_stability(&gvk.version) {
        2 => Some(format!(
            "{gvk} is an alpha API: Kubernetes {version} serves it only where the API server \
             runs with {runtime_config} and its feature's gate on (alpha APIs are always off \
             by default)"
        )),
        // Through 1.24 every beta API was on by default: KEP-3136 turned off betas new from
        // 1.24 on, and 1.24 brought none (its betas all predate it).
        1 if version.minor < 25 => None,
        1 => {
            if BETA_ON_BY_DEFAULT
                .iter()
                .any(|(listed, kinds, _)| covers(listed, kinds))
            {
                return None;
            }
            // A beta not in the table (a release newer than the table) is off by KEP-3136's
            // rule, its gate unnamed.
            let gate = BETA_OFF_BY_DEFAULT
                .iter()
                .find(|(listed, kinds, _, _)| covers(listed, kinds))
                .and_then(|(_, _, gate, _)| *gate)
                .map(|gate| format!(" and the feature gate {gate}"))
                .unwrap_or_default();
            Some(format!(
                "{gvk} is a beta API that Kubernetes {version} serves only where the API server \
         runs with {runtime_config}{gate} (beta APIs new since 1.24 are off by default, \
         KEP-3136)"
            ))
        }
        _ => None,
    }
}

/// Whether a table's entry (an apiVersion and its kinds, none for all) covers a kind, or the
/// list of a kind (`VolumeAttributesClassList`).
fn covers(listed: &str, kinds: &[&str], api_version: &str, kind: &str) -> bool {
    let kind = kind.strip_suffix("List").unwrap_or(kind);
    listed == api_version && (kinds.is_empty() || kinds.contains(&kind))
}

/// Whether a cluster's `status.apiEnablements`, as Karmada lists them (group version and the
/// kinds of its resources), serve `gvk`.
pub fn enabled(enablements: &[(String, Vec<String>)], gvk: &GroupVersionKind) -> bool {
    let api_version = gvk.api_version();
    enablements
        .iter()
        .any(|(group_version, kinds)| *group_version == api_version && kinds.contains(&gvk.kind))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::builtin::builtin;

    fn v(minor: u32) -> KubernetesVersion {
        KubernetesVersion { minor }
    }

    fn gvk(api_version: &str, kind: &str) -> GroupVersionKind {
        GroupVersionKind::of(api_version, kind)
    }

    /// Kubernetes 1.16 stopped serving extensions/v1beta1 Deployments and apps/v1beta2 by
    /// default (CHANGELOG-1.16); their Ingress stayed on until its removal in 1.22.
    #[test]
    fn what_1_16_stopped_serving_is_off_there_and_in_1_17() {
        for minor in [16, 17] {
            assert!(off_by_default(&gvk("extensions/v1beta1", "Deployment"), v(minor)).is_some());
            assert!(off_by_default(&gvk("apps/v1beta2", "StatefulSet"), v(minor)).is_some());
            assert_eq!(
                off_by_default(&gvk("extensions/v1beta1", "Ingress"), v(minor)),
                None
            );
        }
        assert_eq!(
            off_by_default(&gvk("batch/v1beta1", "CronJob"), v(20)),
            None
        );
    }

    #[test]
    fn alpha_apis_are_always_off() {
        let problem = off_by_default(
            &gvk("storage.k8s.io/v1alpha1", "VolumeAttributesClass"),
            v(30),
        );
        assert_eq!(
            problem.as_deref(),
            Some(
                "storage.k8s.io/v1alpha1 VolumeAttributesClass is an alpha API: Kubernetes 1.30 \
         serves it only where the API server runs with \
         --runtime-config=storage.k8s.io/v1alpha1=true and its feature's gate on (alpha \
         APIs are always off by default)"
            )
        );
    }

    /// resource.k8s.io/v1beta1 came in 1.32 off by default (KEP-4381, KEP-3136).
    #[test]
    fn new_beta_apis_are_off_and_name_their_gate() {
        let problem = off_by_default(&gvk("resource.k8s.io/v1beta1", "ResourceClaim"), v(33));
        assert_eq!(
            problem.as_deref(),
            Some(
                "resource.k8s.io/v1beta1 ResourceClaim is a beta API that Kubernetes 1.33 \
         serves only where the API server runs with \
         --runtime-config=resource.k8s.io/v1beta1=true and the feature gate \
         DynamicResourceAllocation (beta APIs new since 1.24 are off by default, \
         KEP-3136)"
            )
        );
    }

    /// Betas that were on before KEP-3136 stay on, and so do new versions of them
    /// (legacyBetaEnabledByDefaultResources); in a group version that is off, a kind that was
    /// on before stays on; GA is always on.
    #[test]
    fn legacy_betas_and_ga_apis_are_on() {
        for (api_version, kind) in [
            ("autoscaling/v2beta2", "HorizontalPodAutoscaler"),
            ("flowcontrol.apiserver.k8s.io/v1beta3", "FlowSchema"),
            ("storage.k8s.io/v1beta1", "CSIStorageCapacity"),
            ("resource.k8s.io/v1", "ResourceClaim"),
            ("apps/v1", "Deployment"),
        ] {
            assert_eq!(
                off_by_default(&gvk(api_version, kind), v(26)),
                None,
                "{api_version}"
            );
        }
        assert!(
            off_by_default(
                &gvk("storage.k8s.io/v1beta1", "VolumeAttributesClass"),
                v(31)
            )
            .is_some()
        );
    }

    /// Every beta kind the embedded schemas serve is in one table or the other, so a new one
    /// (schemas regenerated for a new release) cannot be missed.
    #[test]
    fn every_embedded_beta_api_is_in_a_table() {
        let builtin = builtin();
        let mut unlisted = Vec::new();
        // Through 1.24 every beta was on (`off_by_default`); the tables cover 1.25 on.
        for minor in 25..=builtin.newest().minor {
            let schemas = builtin.at(v(minor)).unwrap();
            for served in builtin.served_kinds(schemas) {
                if api_stability(&served.version) != 1 {
                    continue;
                }
                let api_version = served.api_version();
                let listed = |listed: &str, kinds: &[&str]| {
                    covers(listed, kinds, &api_version, &served.kind)
                };
                let off = BETA_OFF_BY_DEFAULT
                    .iter()
                    .any(|(api_version, kinds, _, _)| listed(api_version, kinds));
                let on = BETA_ON_BY_DEFAULT
                    .iter()
                    .any(|(api_version, kinds, _)| listed(api_version, kinds));
                if off == on {
                    unlisted.push(format!("1.{minor} {served}"));
                }
            }
        }
        unlisted.sort();
        unlisted.dedup();
        assert!(unlisted.is_empty(), "{unlisted:#?}");
    }

    /// Each entry says where upstream says so: a file of Kubernetes, a KEP or release notes.
    #[test]
    fn every_entry_names_its_source() {
        let sources = BETA_OFF_BY_DEFAULT
            .iter()
            .map(|(_, _, _, source)| *source)
            .chain(BETA_ON_BY_DEFAULT.iter().map(|(_, _, source)| *source));
        for source in sources {
            assert!(
                source.contains(".go")
                    || source.contains("KEP-")
                    || source.contains("release notes")
                    || source.contains("before KEP-3136"),
                "{source}"
            );
        }
    }

    /// Karmada's apienablement plugin matches the group version and the kind.
    #[test]
    fn enablements_list_group_versions_and_kinds() {
        let listed = vec![(
            "resource.k8s.io/v1beta1".to_string(),
            vec!["ResourceClaim".to_string()],
        )];
        assert!(enabled(
            &listed,
            &gvk("resource.k8s.io/v1beta1", "ResourceClaim")
        ));
        assert!(!enabled(
            &listed,
            &gvk("resource.k8s.io/v1beta1", "DeviceClass")
        ));
        assert!(!enabled(
            &listed,
            &gvk("resource.k8s.io/v1beta2", "ResourceClaim")
        ));
    }
}
