//! The fixtures the tests share: an inventory, a policy and a ConfigMap, and the repository a
//! pull request's files are written into.

use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use super::{command, empty_scratch, files_under, stderr};

/// An inventory of one member cluster, `member1`, for tests whose fleet is the point.
pub const ONE_CLUSTER_INVENTORY: &str = "\
apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: member1}
spec: {}
";

/// A ClusterPropagationPolicy that places every object of the kinds the tests' fleets hold on
/// `member1`: ConfigMaps, Deployments, ClusterRoles and example.io Widgets.
pub const PLACE_EVERYTHING: &str = "\
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: everything}
spec:
  resourceSelectors:
  - {apiVersion: v1, kind: ConfigMap}
  - {apiVersion: apps/v1, kind: Deployment}
  - {apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRole}
  - {apiVersion: example.io/v1, kind: Widget}
  placement:
    clusterAffinity: {clusterNames: [member1]}
";

/// A ConfigMap, `default/settings`.
pub const CONFIG_MAP: &str = "\
apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: default}
data: {mode: safe}
";

/// A repository (it holds `.git`) in a scratch directory of its own, which a pull request's
/// files are written into; removed when dropped.
pub struct Repository {
    pub root: PathBuf,
}

impl Repository {
    /// An empty repository.
    pub fn empty(name: &str) -> Repository {
        let root = empty_scratch(name);
        std::fs::create_dir_all(root.join(".git")).unwrap();
        Repository { root }
    }

    /// A repository with a fleet under `fleet/` (its inventory `fleet/clusters.yaml`,
    /// [`PLACE_EVERYTHING`] and [`CONFIG_MAP`]) already built into `rendered/`, so that a test
    /// can check that a command leaves the tree as it was.
    pub fn built(name: &str) -> Repository {
        let repository = Repository::empty(name);
        repository.write("fleet/clusters.yaml", ONE_CLUSTER_INVENTORY);
        repository.write("fleet/policy.yaml", PLACE_EVERYTHING);
        repository.write("fleet/settings.yaml", CONFIG_MAP);
        let built = repository.fedrender(&[
            "build",
            "fleet",
            "--clusters",
            "fleet/clusters.yaml",
            "--out",
            "rendered",
        ]);
        assert_eq!(built.status.code(), Some(0), "{}", stderr(&built));
        repository
    }

    pub fn path(&self, relative: &str) -> PathBuf {
        self.root.join(relative)
    }

    pub fn write(&self, relative: &str, text: &str) {
        let path = self.path(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    pub fn executable(&self, relative: &str, script: &str) {
        self.write(relative, script);
        std::fs::set_permissions(self.path(relative), std::fs::Permissions::from_mode(0o755))
            .unwrap();
    }

    /// The binary, not yet run, in the repository, with `bin/` (an absolute PATH entry, where
    /// stand-in tools go) first on PATH and a secret in the environment, no standard input
    /// and its output captured.
    pub fn command(&self, args: &[&str]) -> Command {
        let mut command = command();
        let path = std::env::var("PATH").unwrap_or_default();
        command
            .args(args)
            .current_dir(&self.root)
            .env("SECRET_TOKEN", "hunter2")
            .env("PATH", format!("{}:{path}", self.path("bin").display()))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        command
    }

    /// Runs the binary in the repository ([`Repository::command`]), waiting for it.
    pub fn fedrender(&self, args: &[&str]) -> Output {
        self.command(args).output().unwrap()
    }

    /// Every file of the rendered tree, with its bytes.
    pub fn tree(&self) -> BTreeMap<PathBuf, Vec<u8>> {
        files_under(&self.path("rendered"))
    }
}

impl Drop for Repository {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}
