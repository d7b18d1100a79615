//! The fleet: everything read, typed. The shell hands in the files it read (and what its tools
//! printed); they are parsed, classified and admitted here into the [`Fleet`] the pipeline
//! renders.

use std::collections::BTreeMap;
use std::path::Path;

use crate::api::cluster::Cluster;
use crate::check::{Checker, KubernetesVersion, VersionChoice};
use crate::classify;
use crate::controllers::federated_quota::{self, FederatedQuota};
use crate::diagnostics::Located;
use crate::diagnostics::{Diagnostic, ErrorSink, Origin, Rejected};
use crate::documents::{self, RawDocument, SourceFile};
use crate::federation::FederatedBinding;
use crate::interpret::Interpreter;
use crate::lint::{Level, Lint};
use crate::object::Template;
use crate::policy;
use crate::policy::{Override, Propagation};

/// Everything the pipeline needs, after loading, classifying and admission.
#[derive(Debug, Default)]
pub struct Fleet {
    /// Resource templates Karmada policies place, in input order (derived Services included).
    pub templates: Vec<Template>,
    pub(crate) propagations: Vec<Propagation>,
    /// OverridePolicies and ClusterOverridePolicies, admitted.
    pub overrides: Vec<Override>,
    /// The inventory, sorted by name.
    pub clusters: Vec<Cluster>,
    /// Where each cluster of the inventory states its free capacity
    /// (`status.resourceSummary`, else the cluster's own line), by position; empty for a fleet
    /// assembled without reading (tests).
    pub(crate) summary_origins: Vec<Origin>,
    /// What fedrender knows of each kind: replicas, requests, dependencies, customizations.
    pub interpreter: Interpreter,
    /// KubeFed and Federation v1 objects, translated: placed by their own rules, not by
    /// Karmada policies.
    pub federated: Vec<FederatedBinding>,
    /// Karmada FederatedResourceQuotas: a ResourceQuota in each cluster they assign.
    pub(crate) federated_quotas: Vec<FederatedQuota>,
    /// Lint levels the fleet's fedrender Config sets.
    pub lint_levels: BTreeMap<Lint, Level>,
    /// The sources a tool rendered (kustomize, Helm, commands), with what each ran.
    pub sources: Vec<SourceRun>,
    /// The taints ClusterTaintPolicies put on or took off the inventory's clusters, for `plan`.
    pub taint_changes: Vec<crate::controllers::cluster_taints::TaintChange>,
    /// Configs that set fields standing in for flags, with those fields.
    pub(crate) flag_configs: Vec<(crate::diagnostics::Origin, Vec<&'static str>)>,
    /// The Config's `spec.kubernetesVersion`, where it is written.
    pub kubernetes_version: Option<(KubernetesVersion, Origin)>,
    /// The Config's `spec.karmada`: the release and gates policies are judged by.
    pub karmada: Option<crate::diagnostics::Located<crate::api::config::KarmadaConfig>>,
    /// The Config's `spec.review`, admitted: the groups of clusters a change's review names.
    pub review: Option<crate::review_groups::ReviewGroups>,
    /// What checks each rendered object against its cluster's schemas; `None` for a fleet
    /// assembled without reading (tests).
    pub checker: Option<Checker>,
    /// The FederatedHPAs and CronFederatedHPAs, admitted: Karmada keeps them on the control
    /// plane, where they scale their targets' templates.
    pub autoscalers: crate::controllers::federated_hpa::Autoscalers,
    /// The keys each cluster opens secrets with (SOPS recipients, sealing certificate).
    pub(crate) cluster_keys: crate::secrets::cluster_keys::ClusterKeys,
    /// How the fleet's files are read again, for a late message's field line.
    pub reread: crate::documents::Reread,
    /// The schema checker's warnings about kinds, given only for kinds that are sent.
    pub(crate) kind_warnings: Vec<SentKindWarning>,
}

impl Fleet {
    /// How the Config says karmada-scheduler runs (`spec.karmada.scheduler`).
    pub(crate) fn schedule_options(&self) -> crate::schedule::ScheduleOptions {
        let scheduler = self.karmada.as_ref().map(|config| &config.item.scheduler);
        crate::schedule::ScheduleOptions {
            empty_workload_propagation: scheduler
                .is_some_and(|scheduler| scheduler.enable_empty_workload_propagation),
        }
    }

    /// Writes the replicas Karmada's FederatedHPA and CronFederatedHPA controllers give their
    /// targets at `moment` into the templates, as they write the templates' scale
    /// (`crate::controllers::federated_hpa`); with the warnings of what they cannot scale.
    pub(crate) fn scale_to(
        &mut self,
        moment: &crate::controllers::federated_hpa::Moment,
    ) -> Result<Vec<Diagnostic>, Rejected> {
        let mut warnings = self.autoscalers.check(&self.templates, &self.interpreter);
        let applied = self
            .autoscalers
            .apply(moment, &self.templates, &self.interpreter);
        warnings.extend(applied.warnings);
        for (index, replicas) in applied.replicas {
            let template = &self.templates[index];
            let revised = self
                .interpreter
                .revise(template, replicas)
                .map_err(|problem| {
                    Rejected::from(Diagnostic::error(
                        Some(template.origin.clone()),
                        format!("{}: {problem}", template.key),
                    ))
                })?;
            self.templates[index].object = revised;
        }
        Ok(warnings)
    }

    /// Whether the Config turns a Karmada feature gate on. For gates off by default in every
    /// release fedrender knows (MultiClusterService: karmada_release's table), this is whether
    /// the gate is on, whatever the release.
    pub(crate) fn feature_gate_turned_on(&self, gate: &str) -> bool {
        self.karmada
            .as_ref()
            .and_then(|config| config.item.feature_gates.get(gate))
            .copied()
            .unwrap_or(false)
    }
}

/// One source, run.
#[derive(Debug, Clone)]
pub struct SourceRun {
    /// `apps/web/`.
    pub source: String,
    /// The tool that rendered it: `kustomize`, `helm` or `command`.
    pub tool: &'static str,
    /// The command that ran, as it ran (in the source's directory).
    pub argv: Vec<String>,
    /// Whether an identical source had already been run by this process (`diff --base`).
    pub reused: bool,
    /// Whether a chart's test hooks are kept (its declaration says `skipTests: false`).
    pub keeps_test_hooks: bool,
    /// The chart's hooks that are rendered, as `Job shop/migrate (pre-install, pre-upgrade)`.
    pub hooks: Vec<String>,
    /// The chart's test hooks left out.
    pub left_out_tests: Vec<String>,
}

impl SourceRun {
    /// The name of the input file its output became, which every origin inside it carries.
    pub fn output_name(&self) -> String {
        format!("{} ({})", self.source, self.tool)
    }
}

/// Everything after reading: parse, classify, admit. `files[input_file_count..]` is the
/// inventory file, if any.
pub fn assemble(
    files: &[SourceFile],
    input_file_count: usize,
) -> Result<(Fleet, Vec<Diagnostic>), Rejected> {
    let (input_documents, parse_errors) = documents::parse_files(&files[..input_file_count]);
    assemble_parsed(
        files,
        input_file_count,
        input_documents,
        parse_errors,
        &[],
        None,
    )
}

/// What an Argo CD fleet's Applications deploy, read: each document with the Application that
/// deploys it, and Argo CD's clusters.
#[derive(Debug)]
pub(crate) struct ArgoCdDocuments {
    pub documents: Vec<(RawDocument, crate::argocd::deploy::ApplicationTarget)>,
    pub clusters: Vec<crate::argocd::cluster::ArgoCluster>,
}

/// [`assemble`] with the input files already parsed, and the CRDs `--crds` names (which say
/// their kinds' scopes).
pub(crate) fn assemble_parsed(
    files: &[SourceFile],
    input_file_count: usize,
    input_documents: Vec<RawDocument>,
    parse_errors: Vec<Diagnostic>,
    trusted_crds: &[serde_json::Value],
    argocd: Option<ArgoCdDocuments>,
) -> Result<(Fleet, Vec<Diagnostic>), Rejected> {
    let mut errors = ErrorSink::default();
    let (_, inventory_files) = files.split_at(input_file_count);
    let (inventory_documents, inventory_errors) = documents::parse_files(inventory_files);
    for error in parse_errors.into_iter().chain(inventory_errors) {
        errors.push(error);
    }
    let mut warnings = Vec::new();
    let classified = classify::classify(input_documents, files, trusted_crds, &mut errors);
    let mut clusters: Vec<Located<Cluster>> = Vec::new();
    for document in &inventory_documents {
        if argocd.is_some() && crate::argocd::cluster::is_cluster_secret(&document.value) {
            continue;
        }
        // Inventory documents carry file indices relative to the inventory files.
        if let Some(cluster) = errors.take(classify::decode_cluster(document, inventory_files)) {
            clusters.push(cluster);
        }
    }
    let mut argocd_bindings = Vec::new();
    // Argo CD's local cluster always exists, so an Argo CD fleet that deploys nothing (an
    // ApplicationSet generating no Application) renders an empty tree, as the controller
    // creates no Application; only a Karmada or KubeFed fleet needs clusters given.
    let argocd_fleet_given = argocd.is_some();
    if let Some(argocd) = argocd {
        let (bindings, argocd_clusters) = argocd_fleet(
            argocd,
            files,
            &classified.interpreter,
            &mut errors,
            &mut warnings,
        );
        argocd_bindings = bindings;
        clusters.extend(argocd_clusters);
    }
    let mut fleet = Fleet::default();
    warnings.extend(classified.warnings);
    clusters.extend(classified.clusters);
    for policy in &classified.propagation_policies {
        if let Some(admitted) = errors.take(policy::admit_propagation(policy, &mut warnings)) {
            fleet.propagations.push(admitted);
        }
    }
    for policy in &classified.override_policies {
        if let Some(admitted) = errors.take(policy::admit_override(policy, &mut warnings)) {
            fleet.overrides.push(admitted);
        }
    }
    for quota in &classified.federated_quotas {
        if let Some(admitted) = errors.take(federated_quota::admit(quota, &mut warnings)) {
            fleet.federated_quotas.push(admitted);
        }
    }
    let policy_index = crate::bind::PolicyIndex::new(&fleet.propagations);
    let (mut federated, claimed) = crate::federation::translate(
        &classified.kubefed_documents,
        files,
        &classified.templates,
        &classified.interpreter,
        |template| !policy_index.matching(template).is_empty(),
        &mut errors,
        &mut warnings,
    );
    fleet.templates = classified
        .templates
        .into_iter()
        .enumerate()
        .filter(|(index, _)| !claimed.contains(index))
        .map(|(_, template)| template)
        .collect();
    for refusal in crate::admission::refused_templates(&fleet.templates) {
        errors.push(refusal);
    }
    let (autoscalers, refusals) = crate::controllers::federated_hpa::read(&fleet.templates);
    for refusal in refusals {
        errors.push(refusal);
    }
    fleet.autoscalers = autoscalers;
    let (derived, refused) =
        crate::controllers::derived_services::derived_services(&fleet.templates);
    fleet.templates.extend(derived);
    for refusal in refused {
        errors.push(refusal);
    }
    federated.extend(argocd_bindings);
    check_single_claim(
        &fleet.templates,
        &federated,
        &fleet.federated_quotas,
        &mut errors,
    );
    check_not_also_karmada(&fleet.propagations, &federated, &mut errors);
    fleet.federated = federated;
    fleet.interpreter = classified.interpreter;
    fleet.lint_levels = classified.lint_levels;
    fleet.flag_configs = classified.flag_configs;
    fleet.kubernetes_version = classified.kubernetes_version;
    fleet.karmada = classified.karmada;
    check_unique_policies(&fleet, &mut errors);
    let clusters = unique_clusters(clusters, &mut errors);
    fleet.cluster_keys =
        crate::secrets::cluster_keys::resolve(&clusters, &classified.secret_keys, &mut errors);
    fleet.summary_origins = clusters
        .iter()
        .map(|located| {
            located
                .fields
                .origin(&located.origin, "status.resourceSummary")
        })
        .collect();
    fleet.clusters = clusters.into_iter().map(|located| located.item).collect();
    fleet.review = classified
        .review
        .as_ref()
        .and_then(|review| crate::review_groups::admit(review, &mut errors));
    if let Some(review) = &fleet.review {
        warnings.extend(crate::review_groups::empty_groups(review, &fleet.clusters));
    }
    let taint_policies: Vec<crate::controllers::cluster_taints::TaintPolicy> = classified
        .taint_policies
        .iter()
        .filter_map(|policy| {
            errors.take(crate::controllers::cluster_taints::admit(
                policy,
                &mut warnings,
            ))
        })
        .collect();
    fleet.taint_changes =
        crate::controllers::cluster_taints::apply(&taint_policies, &mut fleet.clusters);
    if fleet.clusters.is_empty() && errors.is_empty() && !argocd_fleet_given {
        errors.push(Diagnostic::error(
            None,
            "no member clusters: pass --clusters FILE with Karmada Cluster objects, or put them in the input directory",
        ));
    }
    errors.finish()?;
    Ok((fleet, warnings))
}

/// An Argo CD fleet's objects as bindings, each to its Application's cluster (a namespaced
/// object that names no namespace takes the destination's), and the Karmada form of the
/// clusters they go to: every cluster Secret's, and `in-cluster` when an Application deploys
/// to it without a Secret. Namespaced objects without a namespace and a destination without
/// one go to `default`, as `kubectl apply` sends them.
fn argocd_fleet(
    argocd: ArgoCdDocuments,
    files: &[SourceFile],
    interpreter: &crate::interpret::Interpreter,
    errors: &mut ErrorSink,
    warnings: &mut Vec<Diagnostic>,
) -> (
    Vec<crate::federation::FederatedBinding>,
    Vec<Located<Cluster>>,
) {
    let mut bindings = Vec::new();
    let targeted: std::collections::BTreeSet<String> = argocd
        .documents
        .iter()
        .map(|(_, target)| target.cluster.clone())
        .collect();
    // Looked up once an object and never walked in order: a hash map.
    let mut claimed: std::collections::HashMap<
        (crate::object::ObjectKey, String),
        (String, Origin),
    > = std::collections::HashMap::new();
    // The namespaces Argo CD creates come after every source's objects: a Namespace a source
    // holds is the one deployed.
    let mut documents = argocd.documents;
    documents.sort_by_key(|(_, target)| target.created_namespace);
    for (mut document, target) in documents {
        let (group, kind) = classify::group_and_kind(&document.value);
        if let Some(namespace) = &target.namespace
            && interpreter.is_namespaced(&group, &kind)
            && document
                .value
                .pointer("/metadata/namespace")
                .and_then(serde_json::Value::as_str)
                .is_none_or(str::is_empty)
            && let Some(metadata) = document
                .value
                .get_mut("metadata")
                .and_then(serde_json::Value::as_object_mut)
        {
            metadata.insert("namespace".into(), namespace.clone().into());
        }
        let Some(template) = errors.take(classify::template_of(
            document,
            files,
            interpreter,
            warnings,
        )) else {
            continue;
        };
        let annotation = |name: &str| {
            template.object["metadata"]["annotations"][name]
                .as_str()
                .map(str::to_string)
        };
        let mut notes: Vec<String> = Vec::new();
        if let Some(hook) = annotation("argocd.argoproj.io/hook") {
            if hook.split(',').any(|event| event.trim() == "Skip") {
                warnings.push(Diagnostic::warning(
                    Lint::SkippedInput,
                    Some(template.origin.clone()),
                    format!(
                        "{} of {} is an Argo CD hook marked Skip: Argo CD never applies it, so no \
                         tree holds it",
                        template.key, target.application
                    ),
                ));
                continue;
            }
            notes.push(format!(
                "Argo CD {hook} hook: kept in the tree, where Argo CD runs it as a hook when it \
                 syncs (not as an ordinary object)"
            ));
        }
        if let Some(wave) = annotation("argocd.argoproj.io/sync-wave") {
            notes.push(format!("Argo CD sync wave {wave}"));
        }
        // The Application's notes are shared by its objects; a hook or wave adds its own.
        let notes: std::sync::Arc<[String]> = match notes.is_empty() {
            true => target.notes.clone(),
            false => [&target.notes[..], &notes[..]].concat().into(),
        };
        let claim = (template.key.clone(), target.cluster.clone());
        if target.created_namespace && claimed.contains_key(&claim) {
            continue;
        }
        if let Some((first, origin)) = claimed.get(&claim) {
            warnings.push(Diagnostic::warning(
                Lint::SharedResource,
                Some(target.origin.clone()),
                format!(
                    "{} deploys {} to cluster {}, which {first} (at {origin}) already deploys there; \
                     Argo CD would let the two overwrite each other on every sync (the tree keeps {first}'s)",
                    target.application, template.key, target.cluster
                ),
            ).on_cluster(target.cluster.as_str()));
            continue;
        }
        claimed.insert(claim, (target.application.clone(), target.origin.clone()));
        bindings.push(crate::federation::FederatedBinding {
            template,
            source: target.origin,
            source_name: target.application,
            placement: crate::federation::FederatedPlacement::ArgoCd {
                cluster: target.cluster,
                notes,
            },
            overrides: BTreeMap::new(),
            host_copy: None,
        });
    }
    // One object from several Applications, to several clusters: in cluster order, as every
    // object's clusters are, whatever the order of the Applications.
    bindings.sort_by(|a, b| {
        let cluster = |binding: &crate::federation::FederatedBinding| match &binding.placement {
            crate::federation::FederatedPlacement::ArgoCd { cluster, .. } => cluster.clone(),
            _ => String::new(),
        };
        (&a.template.key, cluster(a)).cmp(&(&b.template.key, cluster(b)))
    });
    let clusters = argocd
        .clusters
        .iter()
        .filter(|cluster| cluster.origin.is_some() || targeted.contains(&cluster.name))
        .map(crate::argocd::cluster::as_karmada_cluster)
        .collect();
    (bindings, clusters)
}

/// One object, one source: a KubeFed object may not target what a plain template (placed by
/// Karmada) or another federated object already defines, nor a FederatedResourceQuota create
/// a ResourceQuota that any of them defines.
fn check_single_claim(
    templates: &[crate::object::Template],
    federated: &[crate::federation::FederatedBinding],
    quotas: &[FederatedQuota],
    errors: &mut ErrorSink,
) {
    let mut claimed: BTreeMap<&crate::object::ObjectKey, (String, &Origin)> = templates
        .iter()
        .map(|template| {
            (
                &template.key,
                (format!("{}", template.key), &template.origin),
            )
        })
        .collect();
    for binding in federated {
        // An Argo CD Application's object goes to one cluster: the same object may go to
        // others from other Applications (two to one cluster is `shared-resource`).
        if matches!(
            binding.placement,
            crate::federation::FederatedPlacement::ArgoCd { .. }
        ) {
            continue;
        }
        let key = &binding.template.key;
        match claimed.get(key) {
            Some((first, origin)) => errors.push(Diagnostic::error(
                Some(binding.source.clone()),
                format!(
                    "{} targets {key}, which {first} at {origin} already defines; one object can have one source",
                    binding.source_name
                ),
            )),
            None => {
                claimed.insert(key, (binding.source_name.clone(), &binding.source));
            }
        }
    }
    for quota in quotas {
        match claimed.get(&quota.key) {
            Some((first, origin)) => errors.push(Diagnostic::error(
                Some(quota.origin.clone()),
                format!(
                    "{} creates {}, which {first} at {origin} already defines; one object can have one source",
                    quota.id, quota.key
                ),
            )),
            None => {
                claimed.insert(&quota.key, (quota.id.clone(), &quota.origin));
            }
        }
    }
}

/// An object that Federation v1 annotations place cannot also be placed by a Karmada policy.
fn check_not_also_karmada(
    propagations: &[crate::policy::Propagation],
    federated: &[crate::federation::FederatedBinding],
    errors: &mut ErrorSink,
) {
    let index = crate::bind::PolicyIndex::new(propagations);
    for binding in federated {
        if !matches!(
            binding.placement,
            crate::federation::FederatedPlacement::FederationV1 { .. }
        ) {
            continue;
        }
        if let Some(&(policy, _)) = index.matching(&binding.template).first() {
            errors.push(Diagnostic::error(
                Some(binding.source.clone()),
                format!(
                    "{}: {} (at {}) also selects it; an object placed by Federation v1 annotations cannot also be placed by Karmada",
                    binding.source_name, propagations[policy].id, propagations[policy].origin
                ),
            ));
        }
    }
}

fn unique_clusters(
    clusters: Vec<Located<Cluster>>,
    errors: &mut ErrorSink,
) -> Vec<Located<Cluster>> {
    let mut by_name: BTreeMap<String, Located<Cluster>> = BTreeMap::new();
    for cluster in clusters {
        match by_name.get(cluster.item.name()) {
            Some(first) => errors.push(Diagnostic::error(
                Some(cluster.origin.clone()),
                format!(
                    "duplicate cluster {}: already defined at {}",
                    cluster.item.name(),
                    first.origin
                ),
            )),
            None => {
                by_name.insert(cluster.item.name().to_string(), cluster);
            }
        }
    }
    by_name.into_values().collect()
}

fn check_unique_policies(fleet: &Fleet, errors: &mut ErrorSink) {
    let mut seen: BTreeMap<String, &Origin> = BTreeMap::new();
    let ids = fleet
        .propagations
        .iter()
        .map(|p| (p.id.to_string(), &p.origin))
        .chain(
            fleet
                .overrides
                .iter()
                .map(|o| (o.id.to_string(), &o.origin)),
        );
    for (id, origin) in ids {
        if let Some(first) = seen.get(&id) {
            errors.push(Diagnostic::error(
                Some(origin.clone()),
                format!("duplicate object {id}: already defined at {first}"),
            ));
        } else {
            seen.insert(id, origin);
        }
    }
}

pub(crate) fn is_crd(object: &serde_json::Value) -> bool {
    object.get("apiVersion").and_then(serde_json::Value::as_str) == Some("apiextensions.k8s.io/v1")
        && object.get("kind").and_then(serde_json::Value::as_str)
            == Some("CustomResourceDefinition")
}

/// The schema checker for the fleet: each cluster's Kubernetes version (the command line's
/// `kubernetes_versions` first), the fleet's CRDs and those `--crds` names (`crds`); with the
/// warnings of versions assumed, and those about kinds that wait to know whether an object of
/// the kind is sent anywhere (the kinds left unchecked are found after placement, among the
/// objects sent: `Placed::sent_kind_warnings`).
pub(crate) fn schema_checker(
    fleet: &Fleet,
    kubernetes_versions: &[VersionChoice],
    crds: &[(serde_json::Value, Origin)],
) -> Result<(Checker, Vec<Diagnostic>, Vec<SentKindWarning>), Rejected> {
    let clusters: Vec<(&str, Option<&str>)> = fleet
        .clusters
        .iter()
        .map(|cluster| {
            let stated = cluster
                .status
                .as_ref()
                .and_then(|status| status.kubernetes_version.as_deref());
            (cluster.name(), stated)
        })
        .collect();
    let config = fleet
        .kubernetes_version
        .as_ref()
        .map(|(version, origin)| (*version, origin));
    let (versions, mut warnings) =
        crate::check::choose_versions(&clusters, kubernetes_versions, config)
            .map_err(Rejected::from)?;
    let fleet_crds = fleet
        .templates
        .iter()
        .filter(|template| is_crd(&template.object))
        .map(|template| (&template.object, &template.origin));
    // The command line's CRD of a kind wins over the fleet's, which a pull request controls.
    let command_line_crds = crds.iter().map(|(crd, origin)| (crd, origin));
    let (checker, conflicts) =
        Checker::with_crds(versions, fleet_crds.clone(), command_line_crds.clone())
            .map_err(Rejected::from)?;
    let enablements = fleet
        .clusters
        .iter()
        .map(|cluster| {
            let listed = cluster
                .status
                .as_ref()
                .and_then(|status| status.api_enablements.as_ref())?;
            Some(
                listed
                    .iter()
                    .map(|enablement| {
                        let kinds = enablement
                            .resources
                            .iter()
                            .map(|resource| resource.kind.clone())
                            .collect();
                        (enablement.group_version.clone(), kinds)
                    })
                    .collect(),
            )
        })
        .collect();
    let checker = checker.with_api_enablements(enablements);
    // A CRD's word that its transition rules go unjudged (the checker's one unchecked-kind
    // warning, at the CRD's origin) matters only where an object of its kind is sent to a
    // cluster: it waits for placement (`SentKindWarning`).
    let kind_of_crd_at: BTreeMap<&Origin, (String, String)> = fleet_crds
        .chain(command_line_crds)
        .filter_map(|(crd, origin)| {
            let text = |pointer: &str| {
                crate::json_pointer::pointer(crd, pointer).and_then(serde_json::Value::as_str)
            };
            Some((
                origin,
                (
                    text("/spec/group")?.to_string(),
                    text("/spec/names/kind")?.to_string(),
                ),
            ))
        })
        .collect();
    let mut kind_warnings = Vec::new();
    for warning in conflicts {
        let kind = (warning.lint == Some(Lint::UncheckedKind))
            .then(|| {
                warning
                    .origin
                    .as_ref()
                    .and_then(|origin| kind_of_crd_at.get(origin))
            })
            .flatten();
        match kind {
            Some((group, kind)) => kind_warnings.push(SentKindWarning {
                group: group.clone(),
                kind: kind.clone(),
                warning,
            }),
            None => warnings.push(warning),
        }
    }
    Ok((checker, warnings, kind_warnings))
}

/// A warning about a kind that holds only when an object of the kind is sent to some member
/// cluster (a CRD's transition rules that a build cannot judge): given after placement, and
/// not at all for a kind nothing is sent of.
#[derive(Debug, Clone)]
pub struct SentKindWarning {
    /// The kind's API group and kind.
    pub(crate) group: String,
    pub(crate) kind: String,
    pub(crate) warning: Diagnostic,
}

/// The fields of a Config that stand in for flags are read before the fleet is, from the files
/// directly in `FLEET_DIR` (`top`); set anywhere else they would be ignored, so they are an
/// error there.
pub(crate) fn check_flag_configs_are_on_top(fleet: &Fleet, top: &Path) -> Result<(), Rejected> {
    let errors: Vec<Diagnostic> = fleet
        .flag_configs
        .iter()
        .filter(|(origin, _)| Path::new(&*origin.file).parent() != Some(top))
        .map(|(origin, fields)| {
            Diagnostic::error(
                Some(origin.clone()),
                format!(
                    "Config: spec.{} {} read only from a Config in a file directly in {}, \
                     as {} for command-line flags; move {} there",
                    fields.join(", spec."),
                    if fields.len() == 1 { "is" } else { "are" },
                    top.display(),
                    if fields.len() == 1 {
                        "it stands"
                    } else {
                        "they stand"
                    },
                    if fields.len() == 1 { "it" } else { "them" },
                ),
            )
        })
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.into())
    }
}
