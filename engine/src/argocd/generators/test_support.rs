//! What the generators' tests share: a context over clusters and a repository of files, and
//! one entry run through `generate`.

use serde_json::Value;

use super::context::GeneratorContext;
use super::transform::generate;
use crate::argocd::cluster::{ArgoCluster, SECRET_TYPE_LABEL};
use crate::argocd::params::Params;
use crate::argocd::repositories::{Repositories, Repository};
use crate::diagnostics::{FieldLines, Origin};

/// The repository URL the tests map.
pub const REPO: &str = "https://github.com/argoproj/argocd-example-apps";

/// A mapped repository holding `files`.
pub fn repositories(files: &[(&str, &str)]) -> Repositories {
    Repositories::new(vec![Repository::of_texts(REPO, "repo", files)])
}

/// A cluster Secret's cluster.
pub fn secret(
    name: &str,
    server: &str,
    project: Option<&str>,
    labels: &[(&str, &str)],
    annotations: &[(&str, &str)],
) -> ArgoCluster {
    let mut cluster = ArgoCluster::in_cluster();
    cluster.name = name.into();
    cluster.server = server.into();
    cluster.project = project.map(String::from);
    cluster.labels = labels
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    cluster
        .labels
        .insert(SECRET_TYPE_LABEL.into(), "cluster".into());
    cluster.annotations = annotations
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    cluster.origin = Some(Origin::new("clusters.yaml", 0, 1));
    cluster
}

/// What to run one generator entry over.
pub struct Fixture {
    /// The clusters.
    pub clusters: Vec<ArgoCluster>,
    /// The repositories.
    pub repositories: Repositories,
    /// `goTemplate`.
    pub go_template: bool,
    /// `goTemplateOptions`.
    pub options: Vec<String>,
    /// The new git file globbing.
    pub new_globbing: bool,
}

impl Fixture {
    /// Nothing but the template mode.
    pub fn new(go_template: bool) -> Self {
        Fixture {
            clusters: Vec::new(),
            repositories: Repositories::default(),
            go_template,
            options: Vec::new(),
            new_globbing: false,
        }
    }

    /// The parameter sets of `entry`, or its error's message.
    pub fn run(&self, entry: Value) -> Result<Vec<Params>, String> {
        let context = GeneratorContext {
            clusters: &self.clusters,
            repositories: &self.repositories,
            go_template: self.go_template,
            go_template_options: &self.options,
            new_globbing: self.new_globbing,
            made: &std::cell::Cell::new(0),
        };
        let origin = Origin::new("set.yaml", 0, 1);
        generate(&[entry], &context, &origin, &FieldLines::default())
            .map(|mut results| results.remove(0).params)
            .map_err(|d| d.message)
    }
}

/// Parameter sets compared as sets, as testify's `ElementsMatch` compares them (maps equal
/// whatever their keys' order).
pub fn same_elements(got: &[Params], expected: &Value) -> bool {
    let expected = expected.as_array().expect("a list");
    let mut left: Vec<Value> = got.iter().cloned().map(Value::Object).collect();
    if left.len() != expected.len() {
        return false;
    }
    for item in expected {
        match left.iter().position(|g| g == item) {
            Some(found) => {
                left.remove(found);
            }
            None => return false,
        }
    }
    true
}
