//! `build --gitops argocd|flux`: the objects that deploy every tree, snapshotted for the
//! regions example; written, checked and pruned like the trees; and every directory, the
//! wiring's included, accepted by `kubectl kustomize` where kubectl is installed.

use std::path::Path;
use std::process::Command;

mod common;
use common::{empty_scratch, fedrender, stderr};

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
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(std::fs::canonicalize("testdata/gitops").unwrap());
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.bind(|| insta::assert_snapshot!(name, text));
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
    if kubectl_available() {
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

fn kubectl_available() -> bool {
    let found = Command::new("kubectl")
        .args(["version", "--client"])
        .output()
        .is_ok_and(|output| output.status.success());
    if !found {
        eprintln!("skipped the kubectl kustomize check: kubectl is not installed");
    }
    found
}
