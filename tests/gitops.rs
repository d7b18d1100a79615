//! `build --gitops argocd|flux`: the objects that deploy every tree, snapshotted for the
//! regions example; written, checked and pruned like the trees; and every directory, the
//! wiring's included, accepted by `kubectl kustomize` where kubectl is installed.

use std::path::Path;
use std::process::Command;

use crate::common;
use common::{copy_tree, empty_scratch, fedrender, stderr};

const FLEET: &str = "examples/regions";
const CLUSTERS: &str = "examples/regions/clusters.yaml";

fn build(out: &Path, extra: &[&str]) -> std::process::Output {
    let out = out.to_str().unwrap();
    let mut args = vec!["build", FLEET, "--clusters", CLUSTERS, "--out", out, "-q"];
    args.extend_from_slice(extra);
    fedrender(&args)
}

fn wiring(out: &Path) -> String {
    let mut text = String::new();
    let mut entries: Vec<_> = std::fs::read_dir(out.join("_gitops"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        text.push_str(&format!(
            "--- {name}\n{}\n",
            std::fs::read_to_string(&path).unwrap()
        ));
    }
    text
}

fn snapshot(name: &str, text: &str) {
    common::snapshot_settings("testdata/gitops").bind(|| insta::assert_snapshot!(name, text));
}

#[test]
fn argo_cd_and_flux_wiring_is_written_checked_and_pruned_like_the_trees() {
    let root = empty_scratch("gitops");
    let out = root.join("rendered");
    let repo = [
        "--gitops-repo",
        "https://git.example.com/platform/fleet.git",
    ];
    let argocd = build(
        &out,
        &[
            &["--gitops", "argocd", "--gitops-path", "rendered"],
            &repo[..],
        ]
        .concat(),
    );
    assert_eq!(argocd.status.code(), Some(0), "{}", stderr(&argocd));
    snapshot("argocd", &wiring(&out));

    // Up to date, and a hand edit of the wiring is caught by --check like any tree file.
    let args = [
        &["--gitops", "argocd", "--gitops-path", "rendered"],
        &repo[..],
    ]
    .concat();
    let check = build(&out, &[&args[..], &["--check"]].concat());
    assert_eq!(check.status.code(), Some(0), "{}", stderr(&check));
    let set = out.join("_gitops/applicationset.yaml");
    let edited = std::fs::read_to_string(&set)
        .unwrap()
        .replace("prune: true", "prune: false");
    std::fs::write(&set, edited).unwrap();
    let check = build(&out, &[&args[..], &["--check"]].concat());
    assert_eq!(check.status.code(), Some(1), "{}", stderr(&check));
    assert!(String::from_utf8_lossy(&check.stdout).contains("_gitops/applicationset.yaml"));

    // Flux replaces Argo CD's objects; a build without --gitops removes the wiring.
    let flux = build(
        &out,
        &[
            &["--gitops", "flux", "--gitops-path", "rendered"],
            &repo[..],
        ]
        .concat(),
    );
    assert_eq!(flux.status.code(), Some(0), "{}", stderr(&flux));
    assert!(!set.exists());
    snapshot("flux", &wiring(&out));
    if common::tools::require_for("kubectl", "kubectl kustomize of the wiring") {
        for entry in std::fs::read_dir(&out).unwrap() {
            let dir = entry.unwrap().path();
            let built = Command::new("kubectl")
                .arg("kustomize")
                .arg(&dir)
                .output()
                .unwrap();
            assert!(
                built.status.success(),
                "{}: {}",
                dir.display(),
                String::from_utf8_lossy(&built.stderr)
            );
        }
    }
    // A diff against the tree is about the clusters' objects, not the wiring.
    let diff = fedrender(&[
        "diff",
        FLEET,
        "--clusters",
        CLUSTERS,
        "--against",
        out.to_str().unwrap(),
    ]);
    assert_eq!(
        diff.status.code(),
        Some(0),
        "{}{}",
        String::from_utf8_lossy(&diff.stdout),
        stderr(&diff)
    );
    let plain = build(&out, &[]);
    assert_eq!(plain.status.code(), Some(0), "{}", stderr(&plain));
    assert!(!out.join("_gitops").exists());

    // The wiring lists every cluster, so a shard cannot write it; an absolute --out needs
    // its path in the repository.
    let shard = build(&out, &[&args[..], &["--cluster", "eu-1"]].concat());
    assert_eq!(shard.status.code(), Some(2));
    assert!(
        stderr(&shard).contains("--gitops lists every cluster"),
        "{}",
        stderr(&shard)
    );
    let absolute = build(&out, &["--gitops", "flux", repo[0], repo[1]]);
    assert_eq!(absolute.status.code(), Some(2));
    assert!(
        stderr(&absolute).contains("--gitops-path"),
        "{}",
        stderr(&absolute)
    );
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn the_fleets_config_gives_the_flags_a_team_always_passes_and_flags_win() {
    let root = empty_scratch("config-flags");
    // The repository: a Config's paths may lead anywhere inside it, and nowhere else.
    std::fs::create_dir_all(root.join(".git")).unwrap();
    let fleet = root.join("fleet");
    copy_tree(Path::new(FLEET), &fleet);
    std::fs::write(
        fleet.join("fedrender.yaml"),
        "apiVersion: fedrender.io/v1alpha1\nkind: Config\nspec:\n  clusters: clusters.yaml\n  \
         output: ../rendered\n  gitops:\n    tool: argocd\n    repoURL: https://git.example.com/fleet.git\n    \
         path: rendered\n",
    )
    .unwrap();
    let fleet_arg = fleet.to_str().unwrap();
    // No --clusters, no --out, no --gitops: all from the Config.
    let built = fedrender(&["build", fleet_arg, "-q"]);
    assert_eq!(built.status.code(), Some(0), "{}", stderr(&built));
    let rendered = root.join("rendered");
    assert!(rendered.join("eu-1/kustomization.yaml").exists());
    let set = std::fs::read_to_string(rendered.join("_gitops/applicationset.yaml")).unwrap();
    assert!(set.contains("path: rendered/eu-1\n"), "{set}");
    // Flags win: another output, and a shard, which never writes the wiring.
    let elsewhere = root.join("elsewhere");
    let shard = fedrender(&[
        "build",
        fleet_arg,
        "-q",
        "--out",
        elsewhere.to_str().unwrap(),
        "--cluster",
        "eu-1",
    ]);
    assert_eq!(shard.status.code(), Some(0), "{}", stderr(&shard));
    assert!(elsewhere.join("eu-1").exists() && !elsewhere.join("_gitops").exists());
    let check = fedrender(&["build", fleet_arg, "--check"]);
    assert_eq!(check.status.code(), Some(0), "{}", stderr(&check));
    // A diff of two revisions takes each revision's inventory from its own Config.
    // The base keeps its inventory outside the fleet, so only its Config can name it.
    let base = root.join("base");
    copy_tree(&fleet, &base);
    std::fs::rename(base.join("clusters.yaml"), root.join("base-clusters.yaml")).unwrap();
    let config = std::fs::read_to_string(base.join("fedrender.yaml")).unwrap();
    std::fs::write(
        base.join("fedrender.yaml"),
        config.replace("clusters: clusters.yaml", "clusters: ../base-clusters.yaml"),
    )
    .unwrap();
    let diff = fedrender(&["diff", fleet_arg, "--base", base.to_str().unwrap()]);
    assert_eq!(diff.status.code(), Some(0), "{}", stderr(&diff));

    // A path outside the repository is refused at its line.
    let config = std::fs::read_to_string(fleet.join("fedrender.yaml")).unwrap();
    std::fs::write(
        fleet.join("fedrender.yaml"),
        config.replace("path: rendered", "path: /srv/rendered"),
    )
    .unwrap();
    let outside = fedrender(&["build", fleet_arg]);
    assert_eq!(outside.status.code(), Some(2));
    assert!(
        stderr(&outside).contains(&format!(
            "{fleet_arg}/fedrender.yaml:9: Config: spec.gitops.path \"/srv/rendered\" is absolute; give the path within the repository"
        )),
        "{}",
        stderr(&outside)
    );
    std::fs::write(fleet.join("fedrender.yaml"), config).unwrap();

    // Two Configs on top may not both set one of these fields.
    std::fs::write(
        fleet.join("more.yaml"),
        "apiVersion: fedrender.io/v1alpha1\nkind: Config\nspec:\n  output: elsewhere\n",
    )
    .unwrap();
    let twice = fedrender(&["build", fleet_arg]);
    assert_eq!(twice.status.code(), Some(2));
    assert!(
        stderr(&twice).contains(&format!(
            "{fleet_arg}/more.yaml:1: Config: spec.output is also set at {fleet_arg}/fedrender.yaml:1; set it once"
        )),
        "{}",
        stderr(&twice)
    );
    std::fs::remove_file(fleet.join("more.yaml")).unwrap();

    // These fields are flags: set in a Config deeper in the fleet they would be ignored.
    std::fs::create_dir_all(fleet.join("team")).unwrap();
    std::fs::write(
        fleet.join("team/config.yaml"),
        "apiVersion: fedrender.io/v1alpha1\nkind: Config\nspec:\n  output: somewhere\n",
    )
    .unwrap();
    let nested = fedrender(&["validate", fleet_arg]);
    assert_eq!(nested.status.code(), Some(2));
    assert!(
        stderr(&nested).contains(&format!(
            "{}/team/config.yaml:1: Config: spec.output is read only from a Config in a file directly in {fleet_arg}",
            fleet_arg
        )),
        "{}",
        stderr(&nested)
    );
    std::fs::remove_dir_all(&root).unwrap();
}

/// `preserveResourcesOnDeletion: true` (testdata/lifecycle-fields): Karmada keeps web and the
/// ConfigMap it takes along on the members when their templates are deleted, so the wiring
/// patches each tool's documented "never prune" annotation onto them, and onto nothing else:
/// Argo CD `argocd.argoproj.io/sync-options: Prune=false` (argo-cd
/// docs/user-guide/sync-options.md, "No Prune Resources"), Flux
/// `kustomize.toolkit.fluxcd.io/prune: disabled` (fluxcd.io/flux/components/kustomize/
/// kustomizations, "Prune"). Where kubectl is installed, the patches are applied to a
/// cluster's tree as the tools apply them (an overlay with the same `patches`) and the
/// annotations checked on the objects that come out.
#[test]
fn preserved_objects_are_exempted_from_the_wirings_prune() {
    let root = empty_scratch("gitops-preserved");
    let out = root.join("rendered");
    let fleet = "testdata/lifecycle-fields/input";
    let clusters = "testdata/lifecycle-fields/clusters.yaml";
    let build = |tool: &str| {
        let built = fedrender(&[
            "build",
            fleet,
            "--clusters",
            clusters,
            "--out",
            out.to_str().unwrap(),
            "-q",
            "--gitops",
            tool,
            "--gitops-repo",
            "https://git.example.com/platform/fleet.git",
            "--gitops-path",
            "rendered",
        ]);
        assert_eq!(built.status.code(), Some(0), "{}", stderr(&built));
    };
    build("argocd");
    let set = std::fs::read_to_string(out.join("_gitops/applicationset.yaml")).unwrap();
    // web keeps its own sync option beside the exemption; batch's policy does not preserve.
    assert!(
        set.contains("argocd.argoproj.io/sync-options: ServerSideApply=true,Prune=false"),
        "{set}"
    );
    assert_eq!(set.matches("- target:").count(), 2, "{set}");
    assert!(set.contains("name: web-config\n"), "{set}");
    assert!(!set.contains("name: batch\n"), "{set}");
    build("flux");
    let kustomization =
        std::fs::read_to_string(out.join("_gitops/kustomization_member1.yaml")).unwrap();
    assert_eq!(
        kustomization
            .matches("kustomize.toolkit.fluxcd.io/prune: disabled")
            .count(),
        2,
        "{kustomization}"
    );
    if common::tools::require_for("kubectl", "kubectl kustomize of the prune exemptions") {
        // The Flux Kustomization's patches, applied over member1's tree as kustomize does.
        let parsed = yaml_document(&kustomization);
        let overlay = root.join("overlay");
        std::fs::create_dir_all(&overlay).unwrap();
        let overlay_kustomization = serde_json::json!({
            "resources": ["../rendered/member1"],
            "patches": parsed["spec"]["patches"],
        });
        std::fs::write(
            overlay.join("kustomization.yaml"),
            serde_json::to_string(&overlay_kustomization).unwrap(),
        )
        .unwrap();
        let built = Command::new("kubectl")
            .arg("kustomize")
            .arg(&overlay)
            .output()
            .unwrap();
        assert!(built.status.success(), "{}", stderr(&built));
        let objects = String::from_utf8_lossy(&built.stdout);
        for document in objects.split("\n---\n") {
            let exempt = document.contains("kustomize.toolkit.fluxcd.io/prune: disabled");
            let preserved =
                document.contains("name: web\n") || document.contains("name: web-config\n");
            assert_eq!(exempt, preserved, "{document}");
        }
    }
    std::fs::remove_dir_all(&root).unwrap();
}

/// A YAML file's one document as JSON, read as fedrender reads YAML.
fn yaml_document(text: &str) -> serde_json::Value {
    let documents = fedrender_engine::yaml::split_documents(text);
    fedrender_engine::yaml::parse_document(&documents[0], "wiring").unwrap()
}

/// Builds scenario `dir` of testdata with `--gitops tool` through the binary and returns the
/// wiring's text, every file of `_gitops`.
fn scenario_wiring(root: &Path, dir: &str, tool: &str) -> String {
    let out = root.join(tool);
    let built = fedrender(&[
        "build",
        &format!("testdata/{dir}/input"),
        "--clusters",
        &format!("testdata/{dir}/clusters.yaml"),
        "--out",
        out.to_str().unwrap(),
        "-q",
        "--gitops",
        tool,
        "--gitops-repo",
        "https://git.example.com/platform/fleet.git",
        "--gitops-path",
        "rendered",
    ]);
    assert_eq!(built.status.code(), Some(0), "{}", stderr(&built));
    wiring(&out)
}

/// Applies the `patches` of a Flux Kustomization (or of one Argo CD list element) over a
/// cluster's tree as kustomize does, where kubectl is installed; the objects that come out.
fn kustomized(root: &Path, tree: &Path, patches: &serde_json::Value) -> Option<String> {
    if !common::tools::require_for("kubectl", "kubectl kustomize of the wiring's patches") {
        return None;
    }
    let overlay = root.join("overlay");
    std::fs::create_dir_all(&overlay).unwrap();
    let kustomization = serde_json::json!({
        // kustomize takes a resource relative to the kustomization alone.
        "resources": [Path::new("..").join(tree.strip_prefix(root).unwrap())],
        "patches": patches,
    });
    std::fs::write(
        overlay.join("kustomization.yaml"),
        serde_json::to_string(&kustomization).unwrap(),
    )
    .unwrap();
    let built = Command::new("kubectl")
        .arg("kustomize")
        .arg(&overlay)
        .output()
        .unwrap();
    assert!(built.status.success(), "{}", stderr(&built));
    std::fs::remove_dir_all(&overlay).unwrap();
    Some(String::from_utf8_lossy(&built.stdout).into_owned())
}

/// testdata/namespace-preserved-on-its-clusters: the policy preserves Namespace shop on member1;
/// Karmada's namespace controller sends it to member2 as well, in a Work with no preserve
/// setting (karmada pkg/controllers/namespace namespace_sync_controller.go `buildWorks`), so
/// only member1's copy is exempted from pruning: Flux's member1 Kustomization alone patches it,
/// and Argo CD's list element of member1 alone carries the patch, which the set's
/// `templatePatch` puts in that Application.
#[test]
fn a_namespace_is_exempted_from_pruning_on_its_policys_clusters_alone() {
    let root = empty_scratch("gitops-namespace-preserved");
    let dir = "namespace-preserved-on-its-clusters";
    let argocd = scenario_wiring(&root, dir, "argocd");
    let flux = scenario_wiring(&root, dir, "flux");
    common::snapshot_settings(&format!("testdata/{dir}")).bind(|| {
        insta::assert_snapshot!("argocd", argocd);
        insta::assert_snapshot!("flux", flux);
    });
    let plan = fedrender(&[
        "plan",
        &format!("testdata/{dir}/input"),
        "--clusters",
        &format!("testdata/{dir}/clusters.yaml"),
    ]);
    assert!(
        String::from_utf8_lossy(&plan.stdout).contains(
            "note: kept on member1 when its template is deleted (preserveResourcesOnDeletion of \
             ClusterPropagationPolicy keep-shop); the copies Karmada's namespace controller \
             makes on the other clusters are not kept"
        ),
        "{}",
        String::from_utf8_lossy(&plan.stdout)
    );
    let set = yaml_document(
        &std::fs::read_to_string(root.join("argocd/_gitops/applicationset.yaml")).unwrap(),
    );
    let elements = &set["spec"]["generators"][0]["list"]["elements"];
    assert_eq!(elements[0]["cluster"], "member1");
    assert_eq!(elements[0]["patches"].as_array().unwrap().len(), 1);
    assert_eq!(elements[1]["patches"], serde_json::json!([]));
    let member1 = yaml_document(
        &std::fs::read_to_string(root.join("flux/_gitops/kustomization_member1.yaml")).unwrap(),
    );
    let member2 =
        std::fs::read_to_string(root.join("flux/_gitops/kustomization_member2.yaml")).unwrap();
    assert!(!member2.contains("patches"), "{member2}");
    if let Some(objects) = kustomized(
        &root,
        &root.join("flux/member1"),
        &member1["spec"]["patches"],
    ) {
        assert!(
            objects.contains("kustomize.toolkit.fluxcd.io/prune: disabled"),
            "{objects}"
        );
    }
    std::fs::remove_dir_all(&root).unwrap();
}

/// testdata/retain-replicas: Karmada keeps the member's spec.replicas of an apps/v1 Deployment
/// whose Work is labelled `resourcetemplate.karmada.io/retain-replicas: "true"` (karmada
/// pkg/resourceinterpreter/default/native/retain.go `retainWorkloadReplicas`, reading the
/// desired object, overrides applied), with no HPA in the fleet. web is labelled but an
/// override takes the label off on member2; batch is not, but an override labels it on member1.
/// Argo CD: member1's element ignores /spec/replicas of both, member2's of neither, and the
/// set's templatePatch puts each list in its Application, respected when syncing. Flux:
/// member1's Kustomization takes spec.replicas out of both, member2's out of none. Never api
/// ("false") nor the StatefulSet db.
#[test]
fn a_retain_replicas_deployment_keeps_its_members_replicas_under_both_tools() {
    let root = empty_scratch("gitops-retain-replicas");
    let dir = "retain-replicas";
    let argocd = scenario_wiring(&root, dir, "argocd");
    let flux = scenario_wiring(&root, dir, "flux");
    common::snapshot_settings(&format!("testdata/{dir}")).bind(|| {
        insta::assert_snapshot!("argocd", argocd);
        insta::assert_snapshot!("flux", flux);
    });
    let set = yaml_document(
        &std::fs::read_to_string(root.join("argocd/_gitops/applicationset.yaml")).unwrap(),
    );
    let elements = &set["spec"]["generators"][0]["list"]["elements"];
    let ignored = |element: &serde_json::Value| -> Vec<String> {
        let entries = element["ignoreDifferences"].as_array().unwrap();
        for entry in entries {
            assert_eq!(entry["jsonPointers"], serde_json::json!(["/spec/replicas"]));
        }
        entries
            .iter()
            .map(|entry| entry["name"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(ignored(&elements[0]), ["batch", "web"]);
    assert!(ignored(&elements[1]).is_empty());
    assert!(
        set["spec"]["templatePatch"]
            .as_str()
            .unwrap()
            .contains("ignoreDifferences: {{ toJson .ignoreDifferences }}")
    );
    assert_eq!(
        set["spec"]["template"]["spec"]["syncPolicy"]["syncOptions"],
        serde_json::json!(["RespectIgnoreDifferences=true"])
    );
    let member1 = yaml_document(
        &std::fs::read_to_string(root.join("flux/_gitops/kustomization_member1.yaml")).unwrap(),
    );
    assert_eq!(member1["spec"]["patches"].as_array().unwrap().len(), 2);
    let member2 =
        std::fs::read_to_string(root.join("flux/_gitops/kustomization_member2.yaml")).unwrap();
    assert!(!member2.contains("patches"), "{member2}");
    if let Some(objects) = kustomized(
        &root,
        &root.join("flux/member1"),
        &member1["spec"]["patches"],
    ) {
        for document in objects.split("\n---\n") {
            let has_replicas = document.contains("\n  replicas: ");
            let left = document.contains("kind: Deployment")
                && (document.contains("name: web\n") || document.contains("name: batch\n"));
            let has_none = document.contains("kind: Namespace");
            assert_eq!(has_replicas, !left && !has_none, "{document}");
        }
    }
    std::fs::remove_dir_all(&root).unwrap();
}

/// Every file under `out/_gitops`, subdirectories included, as one text.
fn wiring_tree(out: &Path) -> String {
    let mut text = String::new();
    let wiring = out.join("_gitops");
    for (path, bytes) in common::files_under(&wiring) {
        text.push_str(&format!(
            "--- {}\n{}\n",
            path.strip_prefix(&wiring).unwrap_or(&path).display(),
            String::from_utf8(bytes).unwrap()
        ));
    }
    text
}

fn member_hpa_build(out: &Path, fleet: &str, clusters: &str, tool: &str) -> std::process::Output {
    fedrender(&[
        "build",
        fleet,
        "--clusters",
        clusters,
        "--out",
        out.to_str().unwrap(),
        "--gitops",
        tool,
        "--gitops-repo",
        "https://git.example.com/platform/fleet.git",
        "--gitops-path",
        "rendered",
        "--gitops-member-hpas",
        "--allow",
        "unplaced-template",
    ])
}

/// testdata/federated-hpa-member-hpas: `--gitops-member-hpas` keeps a FederatedHPA under GitOps
/// as Federation v1 kept a federated HPA, one HorizontalPodAutoscaler a member with its share of
/// the bounds: the scheduler's division of minReplicas 2 (1, 1, 0, raised to 1) and of
/// maxReplicas 12 (4 each), the FederatedHPA's metrics and behavior. The workload's
/// spec.replicas is left to it as for a member HPA of the fleet (Argo CD ignores it, Flux does
/// not apply it). The HPAs live under `_gitops/autoscaling/<cluster>`, deployed by a second
/// ApplicationSet, or a Kustomization a cluster after the cluster's tree, so that the trees
/// stay as Karmada renders them; where kubectl is installed, each directory builds.
#[test]
fn a_federated_hpa_becomes_member_hpas_under_both_tools() {
    let root = empty_scratch("gitops-member-hpas");
    let dir = "testdata/federated-hpa-member-hpas";
    let (fleet, clusters) = (format!("{dir}/input"), format!("{dir}/clusters.yaml"));
    let mut wirings = Vec::new();
    for tool in ["argocd", "flux"] {
        let built = member_hpa_build(&root.join(tool), &fleet, &clusters, tool);
        assert_eq!(built.status.code(), Some(0), "{}", stderr(&built));
        assert!(
            stderr(&built).contains(
                "its members' HorizontalPodAutoscalers add up to 3..12 replicas, not 2..12"
            ),
            "{}",
            stderr(&built)
        );
        wirings.push(wiring_tree(&root.join(tool)));
    }
    common::snapshot_settings(dir).bind(|| {
        insta::assert_snapshot!("argocd", wirings[0]);
        insta::assert_snapshot!("flux", wirings[1]);
    });
    for cluster in ["member1", "member2", "member3"] {
        let hpa = yaml_document(
            &std::fs::read_to_string(root.join(format!(
                "flux/_gitops/autoscaling/{cluster}/shop/horizontalpodautoscaler.autoscaling_web.yaml"
            )))
            .unwrap(),
        );
        assert_eq!(hpa["apiVersion"], "autoscaling/v2");
        assert_eq!(
            (
                hpa["spec"]["minReplicas"].as_i64(),
                hpa["spec"]["maxReplicas"].as_i64()
            ),
            (Some(1), Some(4)),
            "{cluster}"
        );
        assert_eq!(
            hpa["spec"]["metrics"][0]["pods"]["target"]["averageValue"],
            "50"
        );
        assert_eq!(
            hpa["spec"]["behavior"]["scaleDown"]["stabilizationWindowSeconds"],
            300
        );
    }
    let set = yaml_document(
        &std::fs::read_to_string(root.join("argocd/_gitops/applicationset.yaml")).unwrap(),
    );
    assert_eq!(
        set["spec"]["template"]["spec"]["ignoreDifferences"][0]["name"],
        "web"
    );
    let flux_member1 = yaml_document(
        &std::fs::read_to_string(root.join("flux/_gitops/kustomization_member1.yaml")).unwrap(),
    );
    if common::tools::require_for("kubectl", "kubectl kustomize of the member HPAs") {
        for cluster in ["member1", "member2", "member3"] {
            let built = Command::new("kubectl")
                .arg("kustomize")
                .arg(root.join(format!("flux/_gitops/autoscaling/{cluster}")))
                .output()
                .unwrap();
            assert!(built.status.success(), "{}", stderr(&built));
            let text = String::from_utf8_lossy(&built.stdout);
            assert!(text.contains("kind: HorizontalPodAutoscaler"), "{text}");
            assert!(text.contains("maxReplicas: 4"), "{text}");
        }
    }
    if let Some(objects) = kustomized(
        &root,
        &root.join("flux/member1"),
        &flux_member1["spec"]["patches"],
    ) {
        let web = objects
            .split("\n---\n")
            .find(|document| document.contains("kind: Deployment"))
            .unwrap();
        assert!(!web.contains("\n  replicas: "), "{web}");
    }
    std::fs::remove_dir_all(&root).unwrap();
}

/// Where member HPAs would not do what the FederatedHPA does, the build refuses and says why:
/// an Object metric, which karmada-metrics-adapter sums over every member
/// (pkg/metricsadapter/provider/custommetrics.go `GetMetricByName`); a Duplicated target,
/// whose members the FederatedHPA moves together. And the option needs the wiring.
#[test]
fn member_hpas_are_refused_where_they_cannot_keep_the_federated_hpa() {
    let root = empty_scratch("gitops-member-hpas-refused");
    let dir = "testdata/federated-hpa-member-hpas";
    let fleet = root.join("fleet");
    copy_tree(Path::new(&format!("{dir}/input")), &fleet);
    let original = std::fs::read_to_string(fleet.join("fleet.yaml")).unwrap();
    let object_metric = original.replace(
        "  - type: Pods\n    pods:\n      metric: {name: http_requests_per_second}\n      target: {type: AverageValue, averageValue: \"50\"}\n",
        "  - type: Object\n    object:\n      describedObject: {apiVersion: networking.k8s.io/v1, kind: Ingress, name: web}\n      metric: {name: requests_per_second}\n      target: {type: Value, value: \"1k\"}\n",
    );
    assert_ne!(object_metric, original);
    std::fs::write(fleet.join("fleet.yaml"), &object_metric).unwrap();
    let clusters = format!("{dir}/clusters.yaml");
    let out = root.join("out");
    let refused = member_hpa_build(&out, fleet.to_str().unwrap(), &clusters, "flux");
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        stderr(&refused).contains("fleet.yaml:56: FederatedHPA.autoscaling.karmada.io shop/web: --gitops-member-hpas cannot keep it on the members: spec.metrics[0] is an Object metric, which karmada-metrics-adapter sums over every member cluster"),
        "{}",
        stderr(&refused)
    );
    assert!(!out.exists());
    let duplicated = original.replace(
        "replicaSchedulingType: Divided",
        "replicaSchedulingType: Duplicated",
    );
    std::fs::write(fleet.join("fleet.yaml"), duplicated).unwrap();
    let refused = member_hpa_build(&out, fleet.to_str().unwrap(), &clusters, "argocd");
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        stderr(&refused).contains("its target is Duplicated"),
        "{}",
        stderr(&refused)
    );
    let unwired = fedrender(&[
        "build",
        fleet.to_str().unwrap(),
        "--clusters",
        &clusters,
        "--out",
        out.to_str().unwrap(),
        "--gitops-member-hpas",
    ]);
    assert_eq!(unwired.status.code(), Some(2));
    assert!(
        stderr(&unwired)
            .contains("--gitops-member-hpas keeps the FederatedHPAs in the GitOps wiring"),
        "{}",
        stderr(&unwired)
    );
    std::fs::remove_dir_all(&root).unwrap();
}

/// The Config's `spec.gitops.memberHPAs: true` stands in for `--gitops-member-hpas`, as its
/// other gitops fields stand in for theirs.
#[test]
fn the_configs_member_hpas_keep_the_federated_hpas_as_the_flag_does() {
    let root = empty_scratch("config-member-hpas");
    std::fs::create_dir_all(root.join(".git")).unwrap();
    let fleet = root.join("fleet");
    copy_tree(
        Path::new("testdata/federated-hpa-member-hpas/input"),
        &fleet,
    );
    std::fs::copy(
        "testdata/federated-hpa-member-hpas/clusters.yaml",
        fleet.join("clusters.yaml"),
    )
    .unwrap();
    std::fs::write(
        fleet.join("fedrender.yaml"),
        "apiVersion: fedrender.io/v1alpha1\nkind: Config\nspec:\n  clusters: clusters.yaml\n  \
         output: ../rendered\n  lints: {unplaced-template: allow, not-modelled: allow}\n  \
         gitops:\n    tool: flux\n    repoURL: https://git.example.com/fleet.git\n    \
         path: rendered\n    memberHPAs: true\n",
    )
    .unwrap();
    let built = fedrender(&["build", fleet.to_str().unwrap(), "-q"]);
    assert_eq!(built.status.code(), Some(0), "{}", stderr(&built));
    let autoscaling = root.join("rendered/_gitops/autoscaling");
    for cluster in ["member1", "member2", "member3"] {
        assert!(
            autoscaling
                .join(cluster)
                .join("kustomization.yaml")
                .exists(),
            "{cluster}"
        );
    }
    let member1 =
        std::fs::read_to_string(root.join("rendered/_gitops/kustomization_member1.yaml")).unwrap();
    assert!(member1.contains("replicas: null"), "{member1}");
    std::fs::remove_dir_all(&root).unwrap();
}
