//! The objects that deploy the trees (`build --gitops argocd|flux`): an Argo CD ApplicationSet
//! with one Application per cluster directory, or a Flux GitRepository with one Kustomization
//! per cluster. Written under [`DIRECTORY`] with a kustomization of their own, so
//! `kubectl apply -k <out>/_gitops` installs them; header-stamped and pruned like the trees.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Value, json};

use crate::api::cluster::Cluster;
use crate::manifest::HEADER;
use crate::object::{ObjectKey, Template, api_group};
use crate::yaml;

/// Argo CD's per-object sync options; `Prune=false` among them keeps the object when it leaves
/// Git (argo-cd docs/user-guide/sync-options.md, "No Prune Resources").
pub(crate) const ARGO_SYNC_OPTIONS: &str = "argocd.argoproj.io/sync-options";
/// Flux's per-object prune switch; `disabled` keeps the object when it leaves Git (fluxcd.io
/// flux/components/kustomize/kustomizations, "Prune").
pub(crate) const FLUX_PRUNE: &str = "kustomize.toolkit.fluxcd.io/prune";

/// Where the wiring goes in the output directory. `_` is not allowed in a cluster name, so no
/// cluster's directory can be this one.
pub const DIRECTORY: &str = "_gitops";

pub use crate::api::config::GitopsTool;

/// Where the rendered trees live in Git, for the objects that pull them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GitopsSettings {
    /// Argo CD or Flux.
    pub tool: GitopsTool,
    /// The repository's URL, as Argo CD or Flux clone it.
    pub repo_url: String,
    /// A branch (Flux), or any revision Argo CD takes (`HEAD`, a branch, a tag).
    pub revision: String,
    /// The output directory's path within the repository (`rendered`).
    pub path: String,
    /// Keep each FederatedHPA on the members as a HorizontalPodAutoscaler each
    /// (`--gitops-member-hpas`, `spec.gitops.memberHPAs`).
    pub member_hpas: bool,
}

/// The Flux convention for reaching a member cluster: a Secret in `flux-system` named
/// `<cluster>-kubeconfig` whose `value` key holds a kubeconfig for it.
pub(crate) fn kubeconfig_secret(cluster: &str) -> String {
    format!("{cluster}-kubeconfig")
}

/// The workloads a HorizontalPodAutoscaler among `templates` scales (its `scaleTargetRef`, in
/// its namespace), each with the autoscaler's name.
pub(crate) fn hpa_targets(templates: &[Template]) -> BTreeMap<ObjectKey, String> {
    templates
        .iter()
        .filter(|template| {
            template.key.group == "autoscaling" && template.key.kind == "HorizontalPodAutoscaler"
        })
        .filter_map(|hpa| {
            let target = crate::json_pointer::pointer(&hpa.object, "/spec/scaleTargetRef")?;
            let text = |field: &str| target.get(field).and_then(Value::as_str);
            let key = ObjectKey {
                group: api_group(text("apiVersion")?).to_string(),
                kind: text("kind")?.to_string(),
                namespace: hpa.key.namespace.clone(),
                name: text("name")?.to_string(),
            };
            Some((key, hpa.key.name.clone()))
        })
        .collect()
}

/// An object Karmada keeps on the members when its template is deleted
/// (`preserveResourcesOnDeletion`), which the wiring must therefore never prune.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Preserved {
    /// The object kept.
    pub key: ObjectKey,
    /// The template's own `argocd.argoproj.io/sync-options`, which the exemption extends
    /// rather than replaces.
    pub(crate) argo_sync_options: Option<String>,
    /// The clusters whose copies are kept, where only some are (a Namespace's policy's own
    /// clusters, not those Karmada's namespace controller adds); `None`: every copy.
    pub(crate) only_on: Option<Vec<String>>,
}

impl Preserved {
    fn on(&self, cluster: &str) -> bool {
        self.only_on
            .as_ref()
            .is_none_or(|clusters| clusters.iter().any(|name| name == cluster))
    }
}

/// The preserved templates among `templates`, in key order; `only_on` names, for those whose
/// copies are preserved on some clusters alone, those clusters.
pub fn preserved(
    templates: &[Template],
    keys: &BTreeMap<ObjectKey, String>,
    only_on: &BTreeMap<ObjectKey, Vec<String>>,
) -> Vec<Preserved> {
    let mut preserved: Vec<Preserved> = templates
        .iter()
        .filter(|template| keys.contains_key(&template.key))
        .map(|template| Preserved {
            key: template.key.clone(),
            argo_sync_options: template
                .object
                .pointer("/metadata/annotations")
                .and_then(|annotations| annotations.get(ARGO_SYNC_OPTIONS))
                .and_then(Value::as_str)
                .map(str::to_string),
            only_on: only_on.get(&template.key).cloned(),
        })
        .collect();
    preserved.sort_by(|a, b| a.key.cmp(&b.key));
    preserved
}

/// What the wiring leaves to the members rather than to Git, as Karmada does.
#[derive(Debug, Clone, Default)]
pub struct LeftToMembers {
    /// The workloads an HPA of the fleet scales, each with the HPA's name: their
    /// `spec.replicas` is the autoscaler's.
    pub autoscaled: BTreeMap<ObjectKey, String>,
    /// The Deployments labelled `resourcetemplate.karmada.io/retain-replicas: "true"` on some
    /// cluster: created with the rendered replicas, then left the member's (karmada native
    /// retain.go); each with the clusters whose copy is not labelled so (an override's doing).
    pub retained_replicas: BTreeMap<ObjectKey, Vec<String>>,
    /// What Karmada keeps when its template is deleted: never pruned.
    pub preserved: Vec<Preserved>,
    /// The HorizontalPodAutoscalers that keep the FederatedHPAs on the members, written under
    /// [`AUTOSCALING_DIRECTORY`] a cluster each and deployed beside the cluster's tree.
    pub member_hpas: Vec<crate::render::MemberHpa>,
}

/// Where the members' HorizontalPodAutoscalers go: `_gitops/autoscaling/<cluster>/`, a
/// kustomization each, so that the trees stay as Karmada renders them.
pub const AUTOSCALING_DIRECTORY: &str = "autoscaling";

/// The clusters that get member HPAs, sorted, each with its files (path under its directory,
/// text) and its kustomization.
fn member_hpa_files(left: &LeftToMembers) -> BTreeMap<&str, Vec<(String, String)>> {
    let mut by_cluster: BTreeMap<&str, Vec<(String, String)>> = BTreeMap::new();
    for hpa in &left.member_hpas {
        let key = ObjectKey {
            group: "autoscaling".to_string(),
            kind: "HorizontalPodAutoscaler".to_string(),
            namespace: hpa.target.namespace.clone(),
            name: hpa.object["metadata"]["name"]
                .as_str()
                .unwrap_or_default()
                .to_string(),
        };
        by_cluster.entry(hpa.cluster.as_str()).or_default().push((
            super::layout::object_path(&key),
            format!("{HEADER}{}", yaml::to_yaml(&hpa.object)),
        ));
    }
    for files in by_cluster.values_mut() {
        files.sort();
        let kustomization = json!({
            "apiVersion": "kustomize.config.k8s.io/v1beta1",
            "kind": "Kustomization",
            "resources": files.iter().map(|(path, _)| path.as_str()).collect::<Vec<_>>(),
        });
        files.push((
            super::layout::KUSTOMIZATION_FILE.to_string(),
            format!("{HEADER}{}", yaml::to_yaml(&kustomization)),
        ));
    }
    by_cluster
}

impl LeftToMembers {
    /// Every object whose `spec.replicas` is not Git's on `cluster` once it exists, in key
    /// order. One the cluster does not receive is harmless to name, so a retained Deployment is
    /// named everywhere but where its copy goes without the label: the clusters then share
    /// one list wherever they can.
    fn replicas_not_from_git(&self, cluster: &str) -> BTreeSet<&ObjectKey> {
        let retained = self
            .retained_replicas
            .iter()
            .filter(|(_, unlabelled)| !unlabelled.iter().any(|name| name == cluster))
            .map(|(key, _)| key);
        self.autoscaled.keys().chain(retained).collect()
    }
}

/// A kustomize patch entry: a strategic-merge `patch` for whatever `key` names.
fn targeted(key: &ObjectKey, patch: &Value) -> Value {
    let mut target = serde_json::Map::new();
    if !key.group.is_empty() {
        target.insert("group".to_string(), json!(key.group));
    }
    target.insert("kind".to_string(), json!(key.kind));
    if !key.namespace.is_empty() {
        target.insert("namespace".to_string(), json!(key.namespace));
    }
    target.insert("name".to_string(), json!(key.name));
    json!({"target": target, "patch": yaml::to_yaml(patch)})
}

/// The patches of one cluster's tree: the prune exemptions of the copies preserved there and,
/// for Flux (which has no way to ignore a field it applies), `spec.replicas` taken out of
/// what it applies wherever the member owns the count: a field Flux never applies is one its
/// server-side apply never owns, so the autoscaler's (or Karmada's member's) count stands. A
/// strategic-merge `replicas: null` takes it out where it is and does nothing where it is not.
/// Unlike Karmada, which creates the object with the rendered count, Flux then creates it
/// without one (the API server's default, 1) until whoever scales it does.
fn cluster_patches(tool: GitopsTool, cluster: &str, left: &LeftToMembers) -> Vec<Value> {
    let preserved: Vec<&Preserved> = left.preserved.iter().filter(|p| p.on(cluster)).collect();
    let mut patches = prune_exemptions(tool, &preserved);
    if tool == GitopsTool::Flux {
        let patch = json!({
            "apiVersion": "fedrender.io/v1alpha1",
            "kind": "ReplicasFromTheMember",
            "metadata": {"name": "replicas-from-the-member"},
            "spec": {"replicas": null},
        });
        patches.extend(
            left.replicas_not_from_git(cluster)
                .into_iter()
                .map(|key| targeted(key, &patch)),
        );
    }
    patches
}

/// The kustomize patches that put the prune exemption of `tool` on each preserved object, as
/// both Argo CD (`spec.source.kustomize.patches`, Argo CD 2.9 and later) and Flux
/// (`spec.patches`) take them. A strategic-merge patch with a target applies to whatever the
/// target selects, whatever the patch's own kind and name, and a target that selects nothing in
/// a cluster's tree is no error: one list serves every cluster. Leaving the tree itself as
/// Karmada would render it keeps `build` without `--gitops` byte for byte the same.
fn prune_exemptions(tool: GitopsTool, preserved: &[&Preserved]) -> Vec<Value> {
    preserved
        .iter()
        .map(|object| {
            let (annotation, value) = match tool {
                GitopsTool::ArgoCd => {
                    let value = match object.argo_sync_options.as_deref() {
                        Some(options) if options.split(',').any(|o| o.trim() == "Prune=false") => {
                            options.to_string()
                        }
                        Some(options) if !options.trim().is_empty() => {
                            format!("{options},Prune=false")
                        }
                        _ => "Prune=false".to_string(),
                    };
                    (ARGO_SYNC_OPTIONS, value)
                }
                GitopsTool::Flux => (FLUX_PRUNE, "disabled".to_string()),
            };
            let patch = json!({
                "apiVersion": "fedrender.io/v1alpha1",
                "kind": "PreservedOnDeletion",
                "metadata": {"name": "preserved", "annotations": {annotation: value}},
            });
            targeted(&object.key, &patch)
        })
        .collect()
}

/// The wiring files, by path relative to the output directory, sorted, each with its text:
/// the objects, then their kustomization. What `left` names is left to the members: the
/// `spec.replicas` of autoscaled and retain-replicas workloads (Argo CD ignores it, Flux does
/// not apply it), and the preserved copies (exempted from pruning).
pub fn files(
    settings: &GitopsSettings,
    clusters: &[Cluster],
    left: &LeftToMembers,
) -> Vec<(String, String)> {
    let patches: Vec<Vec<Value>> = clusters
        .iter()
        .map(|cluster| cluster_patches(settings.tool, cluster.name(), left))
        .collect();
    let autoscaling = member_hpa_files(left);
    let objects: Vec<(String, Value)> = match settings.tool {
        GitopsTool::ArgoCd => {
            let mut objects = vec![(
                "applicationset.yaml".to_string(),
                application_set(settings, clusters, left, &patches),
            )];
            if !autoscaling.is_empty() {
                objects.push((
                    "applicationset_autoscaling.yaml".to_string(),
                    autoscaling_application_set(settings, clusters, &autoscaling),
                ));
            }
            objects
        }
        GitopsTool::Flux => {
            let mut objects = vec![("gitrepository.yaml".to_string(), git_repository(settings))];
            objects.extend(clusters.iter().zip(&patches).map(|(cluster, patches)| {
                (
                    format!("kustomization_{}.yaml", cluster.name()),
                    flux_kustomization(settings, cluster.name(), patches),
                )
            }));
            objects.extend(autoscaling.keys().map(|cluster| {
                (
                    format!("kustomization_{cluster}_autoscaling.yaml"),
                    flux_autoscaling_kustomization(settings, cluster),
                )
            }));
            objects
        }
    };
    let mut files: Vec<(String, String)> = objects
        .iter()
        .map(|(name, object)| {
            (
                format!("{DIRECTORY}/{name}"),
                format!("{HEADER}{}", yaml::to_yaml(object)),
            )
        })
        .collect();
    let kustomization = json!({
        "apiVersion": "kustomize.config.k8s.io/v1beta1",
        "kind": "Kustomization",
        "resources": objects.iter().map(|(name, _)| name.as_str()).collect::<Vec<_>>(),
    });
    files.push((
        format!("{DIRECTORY}/{}", super::layout::KUSTOMIZATION_FILE),
        format!("{HEADER}{}", yaml::to_yaml(&kustomization)),
    ));
    for (cluster, cluster_files) in autoscaling {
        for (path, text) in cluster_files {
            files.push((
                format!("{DIRECTORY}/{AUTOSCALING_DIRECTORY}/{cluster}/{path}"),
                text,
            ));
        }
    }
    files.sort();
    files
}

fn autoscaling_path(settings: &GitopsSettings, cluster: &str) -> String {
    let base = settings.path.trim_end_matches('/');
    let tail = format!("{DIRECTORY}/{AUTOSCALING_DIRECTORY}/{cluster}");
    if base.is_empty() || base == "." {
        tail
    } else {
        format!("{base}/{tail}")
    }
}

/// A second ApplicationSet, one Application a cluster that has member HPAs: its
/// `_gitops/autoscaling/<cluster>` directory, to the cluster's destination. Kept apart from
/// the trees' Applications so that the trees stay as Karmada renders them.
fn autoscaling_application_set(
    settings: &GitopsSettings,
    clusters: &[Cluster],
    autoscaling: &BTreeMap<&str, Vec<(String, String)>>,
) -> Value {
    let elements: Vec<Value> = clusters
        .iter()
        .filter(|cluster| autoscaling.contains_key(cluster.name()))
        .map(|cluster| {
            let server = cluster.spec.api_endpoint.clone().unwrap_or_default();
            json!({
                "cluster": cluster.name(),
                "path": autoscaling_path(settings, cluster.name()),
                "server": server,
                "name": if server.is_empty() { cluster.name() } else { "" },
            })
        })
        .collect();
    json!({
        "apiVersion": "argoproj.io/v1alpha1",
        "kind": "ApplicationSet",
        "metadata": {"name": "fedrender-autoscaling", "namespace": "argocd"},
        "spec": {
            "goTemplate": true,
            "goTemplateOptions": ["missingkey=error"],
            "generators": [{"list": {"elements": elements}}],
            "template": {
                "metadata": {"name": "fedrender-{{.cluster}}-autoscaling"},
                "spec": {
                    "project": "default",
                    "source": {
                        "repoURL": settings.repo_url,
                        "targetRevision": settings.revision,
                        "path": "{{.path}}",
                    },
                    "destination": {"server": "{{.server}}", "name": "{{.name}}"},
                    "syncPolicy": {"automated": {"prune": true, "selfHeal": true}},
                },
            },
        },
    })
}

/// A Flux Kustomization of a cluster's member HPAs, after the cluster's tree (`dependsOn`),
/// whose workloads they scale.
fn flux_autoscaling_kustomization(settings: &GitopsSettings, cluster: &str) -> Value {
    json!({
        "apiVersion": "kustomize.toolkit.fluxcd.io/v1",
        "kind": "Kustomization",
        "metadata": {"name": format!("fedrender-{cluster}-autoscaling"), "namespace": "flux-system"},
        "spec": {
            "interval": "10m",
            "sourceRef": {"kind": "GitRepository", "name": "fedrender"},
            "path": format!("./{}", autoscaling_path(settings, cluster)),
            "prune": true,
            "dependsOn": [{"name": format!("fedrender-{cluster}")}],
            "kubeConfig": {"secretRef": {"name": kubeconfig_secret(cluster)}},
        },
    })
}

fn tree_path(settings: &GitopsSettings, cluster: &str) -> String {
    let base = settings.path.trim_end_matches('/');
    if base.is_empty() || base == "." {
        cluster.to_string()
    } else {
        format!("{base}/{cluster}")
    }
}

/// One Application per cluster from a list generator: each element names the cluster's
/// directory and its destination, the inventory's `spec.apiEndpoint` as the server when it
/// has one, else the cluster's name as Argo CD knows it.
///
/// The `spec.replicas` of an autoscaled or retain-replicas workload is the member's: the
/// Applications ignore it when comparing and, with `RespectIgnoreDifferences`, when syncing,
/// so that self-heal does not set it back to the rendered value; a new object is still created
/// with the rendered count, as Karmada creates it.
///
/// The kustomize patches (`patches`, one list a cluster) go in the template when every cluster
/// has the same; otherwise each cluster's element carries its own and the set's
/// `templatePatch` (Argo CD 2.10 and later, with `goTemplate`) puts them in its Application
/// (argo-cd docs/operator-manual/applicationset/Template.md, "Template Patch"; the list
/// replaces the template's, Application's `patches` having no merge key).
fn application_set(
    settings: &GitopsSettings,
    clusters: &[Cluster],
    left: &LeftToMembers,
    patches: &[Vec<Value>],
) -> Value {
    let ignored: Vec<Vec<Value>> = clusters
        .iter()
        .map(|cluster| {
            left.replicas_not_from_git(cluster.name())
                .into_iter()
                .map(|key| {
                    let mut entry = json!({
                        "group": key.group,
                        "kind": key.kind,
                        "name": key.name,
                        "jsonPointers": ["/spec/replicas"],
                    });
                    if !key.namespace.is_empty() {
                        entry["namespace"] = json!(key.namespace);
                    }
                    entry
                })
                .collect()
        })
        .collect();
    let same = |lists: &[Vec<Value>]| lists.windows(2).all(|pair| pair[0] == pair[1]);
    let (shared, shared_ignored) = (same(patches), same(&ignored));
    let elements: Vec<Value> = clusters
        .iter()
        .zip(patches.iter().zip(&ignored))
        .map(|(cluster, (patches, ignored))| {
            let server = cluster.spec.api_endpoint.clone().unwrap_or_default();
            let mut element = json!({
                "cluster": cluster.name(),
                "path": tree_path(settings, cluster.name()),
                // Argo CD takes a destination by server or by name, never both.
                "server": server,
                "name": if server.is_empty() { cluster.name() } else { "" },
            });
            if !shared {
                element["patches"] = Value::Array(patches.clone());
            }
            if !shared_ignored {
                element["ignoreDifferences"] = Value::Array(ignored.clone());
            }
            element
        })
        .collect();
    let mut sync_policy = json!({"automated": {"prune": true, "selfHeal": true}});
    if ignored.iter().any(|list| !list.is_empty()) {
        sync_policy["syncOptions"] = json!(["RespectIgnoreDifferences=true"]);
    }
    let mut set = json!({
        "apiVersion": "argoproj.io/v1alpha1",
        "kind": "ApplicationSet",
        "metadata": {"name": "fedrender", "namespace": "argocd"},
        "spec": {
            "goTemplate": true,
            "goTemplateOptions": ["missingkey=error"],
            "generators": [{"list": {"elements": elements}}],
            "template": {
                "metadata": {"name": "fedrender-{{.cluster}}"},
                "spec": {
                    "project": "default",
                    "source": {
                        "repoURL": settings.repo_url,
                        "targetRevision": settings.revision,
                        "path": "{{.path}}",
                    },
                    "destination": {"server": "{{.server}}", "name": "{{.name}}"},
                    "syncPolicy": sync_policy,
                },
            },
        },
    });
    match ignored.first() {
        Some(first) if shared_ignored && !first.is_empty() => {
            set["spec"]["template"]["spec"]["ignoreDifferences"] = Value::Array(first.clone());
        }
        _ => {}
    }
    if let Some(first) = patches.first()
        && shared
        && !first.is_empty()
    {
        set["spec"]["template"]["spec"]["source"]["kustomize"] = json!({"patches": first});
    }
    // toJson writes each cluster's list as one line of JSON, which YAML reads as is.
    let mut template_patch = String::new();
    if !shared_ignored {
        template_patch.push_str("  ignoreDifferences: {{ toJson .ignoreDifferences }}\n");
    }
    if !shared {
        template_patch
            .push_str("  source:\n    kustomize:\n      patches: {{ toJson .patches }}\n");
    }
    if !template_patch.is_empty() {
        set["spec"]["templatePatch"] = json!(format!("spec:\n{template_patch}"));
    }
    set
}

fn git_repository(settings: &GitopsSettings) -> Value {
    json!({
        "apiVersion": "source.toolkit.fluxcd.io/v1",
        "kind": "GitRepository",
        "metadata": {"name": "fedrender", "namespace": "flux-system"},
        "spec": {
            "interval": "1m",
            "url": settings.repo_url,
            "ref": {"branch": settings.revision},
        },
    })
}

fn flux_kustomization(settings: &GitopsSettings, cluster: &str, patches: &[Value]) -> Value {
    let mut kustomization = json!({
        "apiVersion": "kustomize.toolkit.fluxcd.io/v1",
        "kind": "Kustomization",
        "metadata": {"name": format!("fedrender-{cluster}"), "namespace": "flux-system"},
        "spec": {
            "interval": "10m",
            "sourceRef": {"kind": "GitRepository", "name": "fedrender"},
            "path": format!("./{}", tree_path(settings, cluster)),
            "prune": true,
            "kubeConfig": {"secretRef": {"name": kubeconfig_secret(cluster)}},
        },
    });
    if !patches.is_empty() {
        kustomization["spec"]["patches"] = Value::Array(patches.to_vec());
    }
    kustomization
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cluster(name: &str, endpoint: Option<&str>) -> Cluster {
        serde_json::from_value(json!({
            "apiVersion": "cluster.karmada.io/v1alpha1",
            "kind": "Cluster",
            "metadata": {"name": name},
            "spec": {"apiEndpoint": endpoint},
        }))
        .unwrap()
    }

    fn settings(tool: GitopsTool) -> GitopsSettings {
        GitopsSettings {
            tool,
            repo_url: "https://git.example.com/platform/fleet.git".to_string(),
            revision: "main".to_string(),
            path: "rendered/".to_string(),
            member_hpas: false,
        }
    }

    #[test]
    fn argo_cd_gets_one_application_set_listing_every_cluster() {
        let clusters = [
            cluster("eu-1", Some("https://eu-1.example.com")),
            cluster("us-1", None),
        ];
        let files = files(
            &settings(GitopsTool::ArgoCd),
            &clusters,
            &LeftToMembers::default(),
        );
        let paths: Vec<&str> = files.iter().map(|(path, _)| path.as_str()).collect();
        assert_eq!(
            paths,
            ["_gitops/applicationset.yaml", "_gitops/kustomization.yaml"]
        );
        let set = &files[0].1;
        assert!(set.starts_with(HEADER), "{set}");
        assert!(
            set.contains("- cluster: eu-1\n        path: rendered/eu-1\n        server: https://eu-1.example.com\n        name: \"\"\n"),
            "{set}"
        );
        assert!(
            set.contains("- cluster: us-1\n        path: rendered/us-1\n        server: \"\"\n        name: us-1\n"),
            "{set}"
        );
        assert!(
            set.contains("repoURL: https://git.example.com/platform/fleet.git\n"),
            "{set}"
        );
        assert!(!set.contains("ignoreDifferences"), "{set}");
    }

    #[test]
    fn argo_cd_leaves_the_replicas_of_an_autoscaled_workload_to_its_autoscaler() {
        let hpa: Template = Template {
            origin: crate::diagnostics::Origin::new("hpa.yaml", 0, 1),
            api_version: "autoscaling/v2".to_string(),
            key: ObjectKey {
                group: "autoscaling".to_string(),
                kind: "HorizontalPodAutoscaler".to_string(),
                namespace: "shop".to_string(),
                name: "web".to_string(),
            },
            labels: Default::default(),
            object: json!({"spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"}}}),
        };
        let autoscaled = hpa_targets(&[hpa]);
        let files = files(
            &settings(GitopsTool::ArgoCd),
            &[cluster("eu-1", None)],
            &LeftToMembers {
                autoscaled,
                ..LeftToMembers::default()
            },
        );
        let set = &files[0].1;
        assert!(
            set.contains("ignoreDifferences:\n      - group: apps\n        kind: Deployment\n        name: web\n        jsonPointers:\n        - /spec/replicas\n        namespace: shop\n"),
            "{set}"
        );
        assert!(
            set.contains("syncOptions:\n        - RespectIgnoreDifferences=true\n"),
            "{set}"
        );
    }

    #[test]
    fn flux_gets_a_git_repository_and_a_kustomization_per_cluster() {
        let files = files(
            &settings(GitopsTool::Flux),
            &[cluster("eu-1", None)],
            &LeftToMembers::default(),
        );
        let paths: Vec<&str> = files.iter().map(|(path, _)| path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "_gitops/gitrepository.yaml",
                "_gitops/kustomization.yaml",
                "_gitops/kustomization_eu-1.yaml"
            ]
        );
        let kustomization = &files[2].1;
        assert!(
            kustomization.contains("path: ./rendered/eu-1\n"),
            "{kustomization}"
        );
        assert!(
            kustomization.contains("kubeConfig:\n    secretRef:\n      name: eu-1-kubeconfig\n"),
            "{kustomization}"
        );
        assert!(
            files[1]
                .1
                .contains("- gitrepository.yaml\n- kustomization_eu-1.yaml\n")
        );
    }

    fn preserved_deployment(sync_options: Option<&str>) -> Vec<Preserved> {
        vec![Preserved {
            key: ObjectKey {
                group: "apps".to_string(),
                kind: "Deployment".to_string(),
                namespace: "shop".to_string(),
                name: "web".to_string(),
            },
            argo_sync_options: sync_options.map(str::to_string),
            only_on: None,
        }]
    }

    /// The annotations are the ones each tool documents for "never prune this object":
    /// Argo CD `argocd.argoproj.io/sync-options: Prune=false` (argo-cd
    /// docs/user-guide/sync-options.md, "No Prune Resources"), Flux
    /// `kustomize.toolkit.fluxcd.io/prune: disabled` (fluxcd.io/flux/components/kustomize/
    /// kustomizations, "Prune"); the patches are where each takes kustomize patches (Argo CD
    /// docs/user-guide/kustomize.md "Patches", `spec.source.kustomize.patches`; Flux's
    /// Kustomization `spec.patches`).
    #[test]
    fn a_preserved_object_is_exempted_from_each_tools_prune() {
        let clusters = [cluster("eu-1", None)];
        let argo = files(
            &settings(GitopsTool::ArgoCd),
            &clusters,
            &LeftToMembers {
                preserved: preserved_deployment(None),
                ..LeftToMembers::default()
            },
        );
        let set = &argo[0].1;
        assert!(
            set.contains("      kustomize:\n          patches:\n          - target:\n              group: apps\n              kind: Deployment\n              namespace: shop\n              name: web\n"),
            "{set}"
        );
        assert!(
            set.contains("argocd.argoproj.io/sync-options: Prune=false\n"),
            "{set}"
        );
        let flux = files(
            &settings(GitopsTool::Flux),
            &clusters,
            &LeftToMembers {
                preserved: preserved_deployment(None),
                ..LeftToMembers::default()
            },
        );
        let kustomization = &flux[2].1;
        assert!(
            kustomization
                .contains("  patches:\n  - target:\n      group: apps\n      kind: Deployment\n"),
            "{kustomization}"
        );
        assert!(
            kustomization.contains("kustomize.toolkit.fluxcd.io/prune: disabled\n"),
            "{kustomization}"
        );
        // Nothing preserved: no patches at all.
        let plain = files(
            &settings(GitopsTool::Flux),
            &clusters,
            &LeftToMembers::default(),
        );
        assert!(!plain[2].1.contains("patches"), "{}", plain[2].1);
    }

    /// Argo CD reads one comma-separated annotation: a template's own options are kept.
    #[test]
    fn the_argo_cd_exemption_extends_the_templates_own_sync_options() {
        let exemptions = prune_exemptions(
            GitopsTool::ArgoCd,
            &preserved_deployment(Some("ServerSideApply=true"))
                .iter()
                .collect::<Vec<_>>(),
        );
        let patch = exemptions[0]["patch"].as_str().unwrap();
        assert!(
            patch.contains("argocd.argoproj.io/sync-options: ServerSideApply=true,Prune=false\n"),
            "{patch}"
        );
        let already = prune_exemptions(
            GitopsTool::ArgoCd,
            &preserved_deployment(Some("Prune=false, Validate=false"))
                .iter()
                .collect::<Vec<_>>(),
        );
        let patch = already[0]["patch"].as_str().unwrap();
        assert!(
            patch.contains("sync-options: Prune=false, Validate=false\n"),
            "{patch}"
        );
    }

    /// A Namespace preserved on its policy's cluster alone (karmada namespace_sync_controller.go
    /// makes the other copies' Works with no preserve setting): Argo CD's elements carry each
    /// cluster's patches and the set's templatePatch puts them in its Application; Flux's
    /// Kustomizations each get their own.
    #[test]
    fn a_copy_preserved_on_some_clusters_alone_is_exempted_there_alone() {
        let clusters = [cluster("eu-1", None), cluster("us-1", None)];
        let left = LeftToMembers {
            preserved: vec![Preserved {
                key: ObjectKey {
                    group: String::new(),
                    kind: "Namespace".to_string(),
                    namespace: String::new(),
                    name: "shop".to_string(),
                },
                argo_sync_options: None,
                only_on: Some(vec!["eu-1".to_string()]),
            }],
            ..LeftToMembers::default()
        };
        let argo = files(&settings(GitopsTool::ArgoCd), &clusters, &left);
        let set = &argo[0].1;
        assert!(
            set.contains("templatePatch: |\n    spec:\n      source:\n        kustomize:\n          patches: {{ toJson .patches }}\n"),
            "{set}"
        );
        assert!(set.contains("name: us-1\n        patches: []\n"), "{set}");
        assert!(!set.contains("    kustomize:\n        patches:"), "{set}");
        let flux = files(&settings(GitopsTool::Flux), &clusters, &left);
        assert!(
            flux[2]
                .1
                .contains("kustomize.toolkit.fluxcd.io/prune: disabled")
        );
        assert!(!flux[3].1.contains("patches"), "{}", flux[3].1);
    }

    /// karmada native retain.go: the member keeps a retain-replicas Deployment's count. Argo CD
    /// ignores /spec/replicas (as for an autoscaled workload); Flux, which cannot ignore a
    /// field, does not apply it, for the autoscaled workloads too.
    #[test]
    fn replicas_the_member_owns_are_ignored_by_argo_cd_and_not_applied_by_flux() {
        let key = |name: &str| ObjectKey {
            group: "apps".to_string(),
            kind: "Deployment".to_string(),
            namespace: "shop".to_string(),
            name: name.to_string(),
        };
        let left = LeftToMembers {
            autoscaled: [(key("api"), "api".to_string())].into_iter().collect(),
            retained_replicas: [(key("web"), Vec::new())].into_iter().collect(),
            ..LeftToMembers::default()
        };
        let clusters = [cluster("eu-1", None)];
        let argo = files(&settings(GitopsTool::ArgoCd), &clusters, &left);
        assert_eq!(
            argo[0].1.matches("- /spec/replicas").count(),
            2,
            "{}",
            argo[0].1
        );
        let flux = files(&settings(GitopsTool::Flux), &clusters, &left);
        let kustomization = &flux[2].1;
        assert_eq!(
            kustomization.matches("replicas: null").count(),
            2,
            "{kustomization}"
        );
        assert!(kustomization.contains("name: api\n"), "{kustomization}");
        assert!(kustomization.contains("name: web\n"), "{kustomization}");
    }

    /// Federation v1's federated HPA controller kept one HorizontalPodAutoscaler a member; the
    /// members' copies go under `_gitops/autoscaling/<cluster>`, deployed after the cluster's
    /// tree (Flux `dependsOn`, an Argo CD ApplicationSet of their own), and the workload's
    /// replicas are the member HPA's (as for an HPA of the fleet).
    #[test]
    fn member_hpas_are_wired_beside_each_clusters_tree() {
        let key = ObjectKey {
            group: "apps".to_string(),
            kind: "Deployment".to_string(),
            namespace: "shop".to_string(),
            name: "web".to_string(),
        };
        let hpa = crate::render::MemberHpa {
            cluster: "eu-1".to_string(),
            target: key.clone(),
            object: json!({"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler",
                "metadata": {"name": "web", "namespace": "shop"},
                "spec": {"minReplicas": 1, "maxReplicas": 4}}),
        };
        let left = LeftToMembers {
            autoscaled: [(key, "web".to_string())].into_iter().collect(),
            member_hpas: vec![hpa],
            ..LeftToMembers::default()
        };
        let clusters = [cluster("eu-1", None), cluster("us-1", None)];
        let flux = files(&settings(GitopsTool::Flux), &clusters, &left);
        let paths: Vec<&str> = flux.iter().map(|(path, _)| path.as_str()).collect();
        assert!(
            paths.contains(
                &"_gitops/autoscaling/eu-1/shop/horizontalpodautoscaler.autoscaling_web.yaml"
            ),
            "{paths:?}"
        );
        assert!(
            paths.contains(&"_gitops/autoscaling/eu-1/kustomization.yaml"),
            "{paths:?}"
        );
        assert!(
            !paths.iter().any(|path| path.contains("autoscaling/us-1")),
            "{paths:?}"
        );
        let (_, autoscaling) = flux
            .iter()
            .find(|(path, _)| path == "_gitops/kustomization_eu-1_autoscaling.yaml")
            .unwrap();
        assert!(
            autoscaling.contains("path: ./rendered/_gitops/autoscaling/eu-1\n"),
            "{autoscaling}"
        );
        assert!(
            autoscaling.contains("dependsOn:\n  - name: fedrender-eu-1\n"),
            "{autoscaling}"
        );
        let argo = files(&settings(GitopsTool::ArgoCd), &clusters, &left);
        let (_, set) = argo
            .iter()
            .find(|(path, _)| path == "_gitops/applicationset_autoscaling.yaml")
            .unwrap();
        assert!(
            set.contains("path: rendered/_gitops/autoscaling/eu-1\n"),
            "{set}"
        );
        assert!(!set.contains("us-1"), "{set}");
    }
}
