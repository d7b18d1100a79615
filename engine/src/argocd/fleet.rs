//! An Argo CD fleet read as Argo CD would read it: the clusters of the inventory (cluster
//! Secrets, and the local `in-cluster` unless a Secret takes its server), the Applications of
//! the fleet, and what each deploys.

use super::application::{ARGOCD_API_VERSION, Application};
use super::cluster::{self, ArgoCluster, IN_CLUSTER_SERVER};
use super::deploy::{self, Deployments, Written};
use super::repositories::ArgoCdInputs;
use crate::diagnostics::{ErrorSink, Rejected};
use crate::documents::{RawDocument, SourceFile};

/// What an Argo CD fleet deploys, before its manifests are read.
#[derive(Debug)]
pub struct ArgoCdFleet {
    /// Every Application's manifest files, and the sources a tool renders.
    pub deployed: Deployments,
    /// Argo CD's clusters: the inventory's Secrets, then `in-cluster` when no Secret has its
    /// server.
    pub clusters: Vec<ArgoCluster>,
}

/// Whether `value` is one of Argo CD's own objects, which an Argo CD fleet reads as Argo CD's
/// controllers do rather than deploying it.
pub fn is_argocd_object(value: &serde_json::Value) -> bool {
    value["apiVersion"] == ARGOCD_API_VERSION
        && matches!(
            value["kind"].as_str(),
            Some("Application" | "ApplicationSet" | "AppProject")
        )
}

/// The fleet's Applications and what each deploys, over the clusters of `inventory`.
pub fn read(
    documents: &[RawDocument],
    files: &[SourceFile],
    inventory: &[RawDocument],
    inputs: &ArgoCdInputs,
) -> Result<ArgoCdFleet, Rejected> {
    let mut errors = ErrorSink::default();
    let mut clusters = Vec::new();
    for document in inventory {
        if cluster::is_cluster_secret(&document.value)
            && let Some(found) = errors.take(cluster::cluster_from_secret(
                &document.value,
                &document.origin,
            ))
        {
            clusters.push(found);
        }
    }
    if !clusters.iter().any(|c| c.server == IN_CLUSTER_SERVER) {
        clusters.push(ArgoCluster::in_cluster());
    }
    let mut applications = Vec::new();
    for document in documents {
        let value = &document.value;
        if value["apiVersion"] != ARGOCD_API_VERSION {
            continue;
        }
        match value["kind"].as_str() {
            Some("Application") => {}
            Some(kind @ ("ApplicationSet" | "AppProject")) => {
                errors.push(crate::diagnostics::Diagnostic::error(
                    Some(document.origin.clone()),
                    format!(
                        "{kind} {}: fedrender does not read {kind}s yet; write the \
                         Applications it would make, or leave the fleet's Config without spec.argocd",
                        value["metadata"]["name"].as_str().unwrap_or("(unnamed)")
                    ),
                ));
                continue;
            }
            _ => continue,
        }
        let decoded = document
            .decode::<Application>(files)
            .map_err(|error| document.with_every_unknown_field::<Application>(files, error, ""));
        if let Some(application) = errors.take(decoded) {
            applications.push(Written {
                application,
                origin: document.origin.clone(),
                fields: document.field_lines(files),
            });
        }
    }
    errors.finish()?;
    let deployed = deploy::deploy(&applications, &clusters, &inputs.repositories)?;
    Ok(ArgoCdFleet { deployed, clusters })
}
