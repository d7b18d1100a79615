//! Classifying: each loaded document becomes a Karmada policy, a member cluster or a resource
//! template. Policies and clusters are parsed into typed structs (an unknown field is an error
//! at its line); templates pass through untouched apart from their namespace.

use std::collections::BTreeMap;
use std::collections::btree_map::Entry;

use serde_json::Value;

use crate::api::cluster::{CLUSTER_API_VERSION, Cluster};
use crate::api::config::{CONFIG_API_VERSION, Config};
use crate::api::karmada::{
    FederatedResourceQuota, OverridePolicy, POLICY_API_VERSION, PropagationPolicy,
};
use crate::check::KubernetesVersion;
use crate::diagnostics::{Diagnostic, ErrorSink, Located, Origin, Rejected};
use crate::documents::{RawDocument, SourceFile};
use crate::fields::Fields;
use crate::interpret::customization::Customizations;
use crate::interpret::{self, CustomWorkload, Interpreter};
use crate::lint::{Level, Lint};
use crate::names;
use crate::object::{ObjectKey, Template, api_group};

/// The label the API server gives every Namespace, its name (`v1.LabelMetadataName`).
pub(crate) const NAMESPACE_NAME_LABEL: &str = "kubernetes.io/metadata.name";

/// The input's documents sorted by what they are: templates, policies, clusters, Configs and KubeFed objects, each decoded where its kind is known.
#[derive(Debug, Default)]
pub struct Classified {
    /// Resource templates, in input order.
    pub templates: Vec<Template>,
    /// PropagationPolicies and ClusterPropagationPolicies, decoded.
    pub propagation_policies: Vec<Located<PropagationPolicy>>,
    pub(crate) override_policies: Vec<Located<OverridePolicy>>,
    pub(crate) federated_quotas: Vec<Located<FederatedResourceQuota>>,
    pub(crate) taint_policies: Vec<Located<crate::api::karmada::ClusterTaintPolicy>>,
    /// The `Cluster` objects found among the input's documents.
    pub clusters: Vec<Located<Cluster>>,
    /// Per-kind knowledge, with what the input declares (CRD scopes, fedrender Config).
    pub interpreter: Interpreter,
    /// Lint levels the fedrender Config sets.
    pub lint_levels: BTreeMap<Lint, Level>,
    /// Configs that set fields standing in for flags (`clusters`, `output`, `gitops`), with
    /// those fields: they count only directly in `FLEET_DIR`, which loading checks.
    pub(crate) flag_configs: Vec<(Origin, Vec<&'static str>)>,
    /// The Config's `spec.kubernetesVersion`, where it is written.
    pub kubernetes_version: Option<(KubernetesVersion, Origin)>,
    /// Each Config's `spec.secrets`: the keys clusters open secrets with.
    pub secret_keys: Vec<Located<crate::api::secret_keys::SecretsConfig>>,
    /// The Config's `spec.karmada`, where it is written.
    pub karmada: Option<Located<crate::api::config::KarmadaConfig>>,
    /// The Config's `spec.review`, where it is written.
    pub review: Option<Located<crate::api::config::ReviewConfig>>,
    /// What classifying found worth a warning.
    pub warnings: Vec<Diagnostic>,
    /// KubeFed's documents, for the federation front door to translate.
    pub(crate) kubefed_documents: Vec<RawDocument>,
}

/// Classifies every document; errors go to `errors` and classification goes on, so that one
/// run reports the errors of every document.
///
/// `trusted_crds` are the CustomResourceDefinitions `--crds` names: they are not the fleet's
/// objects, but they say the scope of their kinds as the fleet's own CRDs do (which win, being
/// what Karmada's API server holds).
pub fn classify(
    documents: Vec<RawDocument>,
    files: &[SourceFile],
    trusted_crds: &[Value],
    errors: &mut ErrorSink,
) -> Classified {
    let mut classified = Classified {
        // Most documents are templates; a fleet holds thousands.
        templates: Vec::with_capacity(documents.len()),
        ..Classified::default()
    };
    let mut interpreter = Interpreter::default();
    for crd in trusted_crds {
        declare_crd_scope(&mut interpreter, crd);
    }
    interpreter_from(&documents, files, &mut interpreter, &mut classified, errors);
    // Kinds whose scope nothing states, with their objects that name no namespace.
    let mut unstated_scopes: BTreeMap<(String, String), Vec<(String, Origin)>> = BTreeMap::new();
    let mut seen: BTreeMap<ObjectKey, Origin> = BTreeMap::new();
    let mut customizations = Vec::new();
    let mut kustomization_files = std::collections::BTreeSet::new();
    // A fleet whose Config has `spec.argocd` is Argo CD's: its Applications, ApplicationSets and
    // AppProjects are read by the Argo CD front door, not sent anywhere.
    let argocd_fleet = documents.iter().any(|document| {
        document.value["apiVersion"] == crate::api::config::CONFIG_API_VERSION
            && document.value["kind"] == "Config"
            && document.value["spec"].field("argocd").is_some()
    });
    for document in documents {
        if argocd_fleet && crate::argocd::fleet::is_argocd_object(&document.value) {
            continue;
        }
        // A kustomization beside the manifests (common in GitOps repositories) is not an
        // object: it is skipped, once per file, with a word that it was.
        if is_kustomization(&document) {
            if kustomization_files.insert(document.origin.file.clone()) {
                classified.warnings.push(Diagnostic::warning(
                    Lint::SkippedInput,
                    Some(document.origin.clone()),
                    "a kustomization is not a Kubernetes object, and kustomize reads one only \
                     named kustomization.yaml, kustomization.yml or Kustomization: rename it to \
                     build its directory with kustomize, or --exclude this file",
                ));
            }
            continue;
        }
        let Some((api_version, kind)) = errors.take(type_of(&document)) else {
            continue;
        };
        match (api_group(&api_version), kind.as_str()) {
            ("policy.karmada.io", "PropagationPolicy" | "ClusterPropagationPolicy") => {
                if let Some(item) = errors.take(decode_policy(&document, files, &api_version)) {
                    classified.propagation_policies.push(Located {
                        origin: document.origin.clone(),
                        item,
                        fields: document.field_lines(files),
                    });
                }
            }
            ("policy.karmada.io", "OverridePolicy" | "ClusterOverridePolicy") => {
                if let Some(item) = errors.take(decode_policy(&document, files, &api_version)) {
                    classified.override_policies.push(Located {
                        origin: document.origin.clone(),
                        item,
                        fields: document.field_lines(files),
                    });
                }
            }
            ("policy.karmada.io", "FederatedResourceQuota") => {
                if let Some(item) = errors.take(decode_policy(&document, files, &api_version)) {
                    classified.federated_quotas.push(Located {
                        origin: document.origin.clone(),
                        item,
                        fields: document.field_lines(files),
                    });
                }
            }
            ("policy.karmada.io", "ClusterTaintPolicy") => {
                if let Some(item) = errors.take(decode_policy(&document, files, &api_version)) {
                    classified.taint_policies.push(Located {
                        origin: document.origin.clone(),
                        item,
                        fields: document.field_lines(files),
                    });
                }
            }
            ("policy.karmada.io", other) => errors.push(Diagnostic::error(
                Some(document.origin.clone()),
                format!(
                    "fedrender does not implement the Karmada kind {other}; it understands \
                     PropagationPolicy, ClusterPropagationPolicy, OverridePolicy, \
                     ClusterOverridePolicy, FederatedResourceQuota and ClusterTaintPolicy"
                ),
            )),
            ("fedrender.io", _) => {}
            ("config.karmada.io", "ResourceInterpreterCustomization") => {
                if let Some(item) = errors.take(document.decode_api_object(files)) {
                    customizations.push(Located {
                        origin: document.origin.clone(),
                        fields: document.field_lines(files),
                        item,
                    });
                }
            }
            ("config.karmada.io", other) => errors.push(Diagnostic::error(
                Some(document.origin.clone()),
                format!(
                    "fedrender does not implement the Karmada kind {other}: of Karmada's \
                     interpreter configuration it reads ResourceInterpreterCustomization (an \
                     interpreter webhook needs a live control plane)"
                ),
            )),
            // KubeFed's objects are translated by the federation front door.
            (group, _) if crate::api::kubefed::is_kubefed_group(group) => {
                classified.kubefed_documents.push(document);
            }
            ("cluster.karmada.io", "Cluster") => {
                if let Some(cluster) = errors.take(decode_cluster(&document, files)) {
                    classified.clusters.push(cluster);
                }
            }
            _ => {
                let names_no_namespace = document
                    .value
                    .pointer("/metadata/namespace")
                    .and_then(Value::as_str)
                    .is_none_or(str::is_empty);
                if let Some(template) = errors.take(to_template(
                    document,
                    files,
                    &api_version,
                    &kind,
                    &interpreter,
                    &mut classified.warnings,
                )) {
                    match seen.entry(template.key.clone()) {
                        Entry::Occupied(first) => errors.push(Diagnostic::error(
                            Some(template.origin.clone()),
                            format!(
                                "duplicate object {}: already defined at {}",
                                template.key,
                                first.get()
                            ),
                        )),
                        Entry::Vacant(slot) => {
                            slot.insert(template.origin.clone());
                            if names_no_namespace
                                && !scope_is_stated(&interpreter, template.group(), template.kind())
                            {
                                unstated_scopes
                                    .entry((
                                        template.group().to_string(),
                                        template.kind().to_string(),
                                    ))
                                    .or_default()
                                    .push((template.key.name.clone(), template.origin.clone()));
                            }
                            classified.templates.push(template);
                        }
                    }
                }
            }
        }
    }
    let (admitted, problems) = Customizations::admit(&customizations);
    for problem in problems {
        errors.push(problem);
    }
    for located in &customizations {
        let target = &located.item.spec.target;
        let rules = &located.item.spec.customizations;
        let replica_rules = rules.replica_resource.is_some() || rules.replica_revision.is_some();
        if replica_rules
            && let Some(workload) = interpreter.declared_workload(&target.api_version, &target.kind)
        {
            errors.push(Diagnostic::error(
                Some(located.origin.clone()),
                format!(
                    "ResourceInterpreterCustomization {} interprets the replicas of {} {}, which \
                     the fedrender Config at {} declares as a workload too: keep one (the \
                     customization is what Karmada reads; see \"Moving from a Config workload \
                     to a customization\" in docs/interpretation.md)",
                    located.item.metadata.name, target.api_version, target.kind, workload.origin
                ),
            ));
        }
    }
    interpreter.set_customizations(admitted);
    classified.interpreter = interpreter;
    classified.warnings.extend(
        unstated_scopes
            .iter()
            .map(|(kind, templates)| unstated_scope_warning(kind, templates)),
    );
    classified
}

/// Whether fedrender knows if a kind is namespaced: a CRD (the fleet's or `--crds`') or the
/// Config states it, or it is Kubernetes' own or an add-on's in the built-in table. Karmada
/// asks its API server, which holds every template's CRD; fedrender may be handed a custom
/// resource without one.
fn scope_is_stated(interpreter: &Interpreter, group: &str, kind: &str) -> bool {
    interpreter.states_scope(group, kind)
        || interpret::native::knows_scope(group)
        || crate::check::builtin::builtin().is_builtin_group(group)
}

/// One warning per kind of unstated scope whose objects name no namespace: fedrender takes the
/// kind as namespaced and puts them in `default`, so a namespaced PropagationPolicy there may
/// place them — which Karmada never does if the kind is cluster-scoped (only a
/// ClusterPropagationPolicy selects a cluster-scoped object: karmada
/// pkg/util/helper/policy.go, a namespaced policy matches objects of its own namespace).
fn unstated_scope_warning(
    (group, kind): &(String, String),
    objects: &[(String, Origin)],
) -> Diagnostic {
    let names: Vec<&str> = objects.iter().map(|(name, _)| name.as_str()).collect();
    let shown = match names.as_slice() {
        [only] => (*only).to_string(),
        few if few.len() <= 3 => few.join(", "),
        many => format!("{} and {} more", many[..3].join(", "), many.len() - 3),
    };
    let kind_name = if group.is_empty() {
        kind.clone()
    } else {
        format!("{kind}.{group}")
    };
    Diagnostic::warning(
        Lint::UnknownScope,
        Some(objects[0].1.clone()),
        format!(
            "{kind_name} {shown}: no CustomResourceDefinition in the fleet or --crds says whether \
             {kind} is namespaced, and {} no metadata.namespace, so fedrender takes {} as \
             namespaced in `default`, where a namespaced PropagationPolicy may place {}; if {kind} \
             is cluster-scoped, Karmada places it only by a ClusterPropagationPolicy. Give its CRD \
             (in the fleet or --crds), or list it in the Config's spec.clusterScoped",
            if names.len() == 1 {
                "it has"
            } else {
                "they have"
            },
            if names.len() == 1 { "it" } else { "them" },
            if names.len() == 1 { "it" } else { "them" },
        ),
    )
}

/// A CRD's `spec.scope` for its kind.
fn declare_crd_scope(interpreter: &mut Interpreter, crd: &Value) {
    let spec = &crd["spec"];
    if let (Some(group), Some(kind), Some(scope)) = (
        spec["group"].as_str(),
        crate::json_pointer::pointer(spec, "/names/kind").and_then(Value::as_str),
        spec["scope"].as_str(),
    ) {
        interpreter.declare_scope(group, kind, scope == "Namespaced");
    }
}

/// The names kustomize reads a directory's kustomization from.
pub const KUSTOMIZATION_FILES: [&str; 3] =
    ["kustomization.yaml", "kustomization.yml", "Kustomization"];

/// Whether a document is kustomize's: without `apiVersion` and `kind`, or with kustomize's own.
pub fn is_kustomize_object(value: &Value) -> bool {
    let api_version = value["apiVersion"].as_str();
    let kind = value["kind"].as_str();
    api_version.is_none_or(|version| version.starts_with("kustomize.config.k8s.io/"))
        && kind.is_none_or(|kind| kind == "Kustomization" || kind == "Component")
}

/// A kustomize file: by its name (kustomize allows one without apiVersion and kind) or by its
/// API group.
fn is_kustomization(document: &RawDocument) -> bool {
    let file_name = document
        .origin
        .file
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or("");
    let kustomize_group = document
        .value
        .field("apiVersion")
        .and_then(Value::as_str)
        .is_some_and(|api_version| api_group(api_version) == "kustomize.config.k8s.io");
    // A Flux `Kustomization` saved under the name is an object like any other.
    (kustomize_group || KUSTOMIZATION_FILES.contains(&file_name))
        && is_kustomize_object(&document.value)
}

/// An object's API group and kind as written (empty when not strings).
pub(crate) fn group_and_kind(object: &Value) -> (String, String) {
    let api_version = object["apiVersion"].as_str().unwrap_or_default();
    (
        api_group(api_version).to_string(),
        object["kind"].as_str().unwrap_or_default().to_string(),
    )
}

/// A document that some other front door places (an Argo CD Application's manifest) as a
/// template, read as the fleet's templates are.
pub(crate) fn template_of(
    document: RawDocument,
    files: &[SourceFile],
    interpreter: &Interpreter,
    warnings: &mut Vec<Diagnostic>,
) -> Result<Template, Diagnostic> {
    let (api_version, kind) = type_of(&document)?;
    to_template(document, files, &api_version, &kind, interpreter, warnings)
}

fn type_of(document: &RawDocument) -> Result<(String, String), Diagnostic> {
    let origin = Some(document.origin.clone());
    let Some(object) = document.value.as_object() else {
        return Err(Diagnostic::error(
            origin,
            "a Kubernetes object must be a mapping with apiVersion, kind and metadata",
        ));
    };
    let field = |name: &str| match object.get(name) {
        Some(Value::String(value)) if !value.is_empty() => Ok(value.clone()),
        Some(Value::String(_)) | None => Err(Diagnostic::error(
            origin.clone(),
            format!("the object has no `{name}`"),
        )),
        Some(_) => Err(Diagnostic::error(
            origin.clone(),
            format!("`{name}` must be a string"),
        )),
    };
    let kind = field("kind")?;
    let api_version = field("apiVersion")?;
    Ok((api_version, kind))
}

fn decode_policy<T: serde::de::DeserializeOwned>(
    document: &RawDocument,
    files: &[SourceFile],
    api_version: &str,
) -> Result<T, Rejected> {
    if api_version != POLICY_API_VERSION {
        return Err(Rejected::from(Diagnostic::error(
            Some(document.origin.clone()),
            format!(
                "unsupported apiVersion {api_version}; Karmada policies are {POLICY_API_VERSION}"
            ),
        )));
    }
    document.decode_api_object(files).map_err(|mut error| {
        // Name the policy, so the message makes sense without opening the file.
        let text = |pointer: &str| {
            crate::json_pointer::pointer(&document.value, pointer).and_then(Value::as_str)
        };
        let kind = text("/kind").unwrap_or("policy");
        let name = text("/metadata/name").unwrap_or("");
        let id = match text("/metadata/namespace") {
            Some(namespace) if !kind.starts_with("Cluster") => format!("{kind} {namespace}/{name}"),
            _ => format!("{kind} {name}"),
        };
        error.message = format!("{id}: {}", error.message);
        document.with_every_unknown_field::<T>(files, error, &format!("{id}: "))
    })
}

/// A `Cluster` object, from the input directory or from the inventory file.
pub(crate) fn decode_cluster(
    document: &RawDocument,
    files: &[SourceFile],
) -> Result<Located<Cluster>, Rejected> {
    let origin = document.origin.clone();
    let field = |name: &str| {
        document
            .value
            .get(name)
            .and_then(Value::as_str)
            .unwrap_or("")
    };
    if field("apiVersion") != CLUSTER_API_VERSION || field("kind") != "Cluster" {
        let name = document
            .value
            .pointer("/metadata/name")
            .and_then(Value::as_str)
            .unwrap_or("");
        let found = format!("{} {} {name}", field("apiVersion"), field("kind"));
        return Err(Diagnostic::error(
            Some(origin),
            format!(
                "the inventory holds only Karmada Cluster objects ({CLUSTER_API_VERSION}); found {}",
                found.trim()
            ),
        )
        .into());
    }
    let cluster: Cluster = document
        .decode_api_object(files)
        .map_err(|error| document.with_every_unknown_field::<Cluster>(files, error, ""))?;
    if let Some(problem) = names::dns_label_problem(cluster.name()) {
        return Err(Diagnostic::error(
            Some(origin),
            format!("cluster name {:?} {problem}", cluster.name()),
        )
        .into());
    }
    Ok(Located {
        origin,
        item: cluster,
        // For a message about one annotation (cluster_keys.rs); an inventory is small.
        fields: document.field_lines(files),
    })
}

/// Per-kind knowledge from the input: the scope of every kind a `CustomResourceDefinition`
/// defines, and the workloads and scopes a fedrender `Config` declares; also the rest of the
/// Config, into `classified`.
fn interpreter_from(
    documents: &[RawDocument],
    files: &[SourceFile],
    interpreter: &mut Interpreter,
    classified: &mut Classified,
    errors: &mut ErrorSink,
) {
    let lint_levels = &mut classified.lint_levels;
    let flag_configs = &mut classified.flag_configs;
    let mut declared: BTreeMap<(String, String), Origin> = BTreeMap::new();
    let mut levels_set_at: BTreeMap<Lint, Origin> = BTreeMap::new();
    for document in documents {
        let value = &document.value;
        let kind = value.field("kind").and_then(Value::as_str);
        let api_version = value.field("apiVersion").and_then(Value::as_str);
        if kind == Some("CustomResourceDefinition") {
            declare_crd_scope(interpreter, value);
        }
        if api_version.map(api_group) != Some("fedrender.io") {
            continue;
        }
        if api_version != Some(CONFIG_API_VERSION) || kind != Some("Config") {
            errors.push(Diagnostic::error(
                Some(document.origin.clone()),
                format!("fedrender's configuration is {CONFIG_API_VERSION} Config"),
            ));
            continue;
        }
        let config = document
            .decode::<Config>(files)
            .map_err(|error| document.with_every_unknown_field::<Config>(files, error, ""));
        let Some(config) = errors.take(config) else {
            continue;
        };
        let origin = &document.origin;
        let flag_fields = config.spec.flag_fields();
        if !flag_fields.is_empty() {
            flag_configs.push((origin.clone(), flag_fields));
        }
        for workload in &config.spec.workloads {
            let pointers = std::iter::once(("replicas", Some(&workload.replicas))).chain(
                std::iter::once(("podTemplate", workload.pod_template.as_ref())),
            );
            let mut valid = true;
            for (field, pointer) in pointers {
                if let Some(pointer) = pointer
                    && !pointer.starts_with('/')
                {
                    valid = false;
                    errors.push(Diagnostic::error(
                        Some(origin.clone()),
                        format!("Config: spec.workloads {} {}: {field} {pointer:?} must be a JSON pointer starting with '/'", workload.api_version, workload.kind),
                    ));
                }
            }
            let key = (workload.api_version.clone(), workload.kind.clone());
            if let Some(first) = declared.get(&key) {
                errors.push(Diagnostic::error(
                    Some(origin.clone()),
                    format!(
                        "Config: workload {} {} is declared twice; first at {first}",
                        workload.api_version, workload.kind
                    ),
                ));
                valid = false;
            }
            if valid {
                declared.insert(key, origin.clone());
                interpreter.declare_workload(
                    &workload.api_version,
                    &workload.kind,
                    CustomWorkload {
                        replicas: workload.replicas.clone(),
                        pod_template: workload.pod_template.clone(),
                        origin: origin.clone(),
                    },
                );
            }
        }
        for kind in &config.spec.cluster_scoped {
            interpreter.declare_scope(api_group(&kind.api_version), &kind.kind, false);
        }
        let fields = document.field_lines(files);
        if let Some(secrets) = &config.spec.secrets {
            classified.secret_keys.push(Located {
                origin: origin.clone(),
                item: secrets.clone(),
                fields: fields.clone(),
            });
        }
        if config.spec.sources.allow_exec {
            errors.push(Diagnostic::error(
                Some(fields.origin(origin, "spec.sources.allowExec")),
                "Config: spec.sources.allowExec: a Config is part of the repository, so a pull \
                 request could set it; only the command line lets commands run (--allow-exec, \
                 in a job that trusts the repository's code)",
            ));
        }
        if let Some(text) = &config.spec.kubernetes_version {
            let at = fields.origin(origin, "spec.kubernetesVersion");
            match KubernetesVersion::parse(text) {
                Err(problem) => errors.push(Diagnostic::error(
                    Some(at),
                    format!("Config: spec.kubernetesVersion: {problem}"),
                )),
                Ok(version) => match &classified.kubernetes_version {
                    Some((first, first_at)) if *first != version => {
                        errors.push(Diagnostic::error(
                            Some(at),
                            format!(
                                "Config: spec.kubernetesVersion is {version} here and {first} at {first_at}"
                            ),
                        ))
                    }
                    Some(_) => {}
                    None => classified.kubernetes_version = Some((version, at)),
                },
            }
        }
        if let Some(karmada) = &config.spec.karmada {
            for (setting, message) in karmada.scheduler.refusals() {
                errors.push(Diagnostic::error(
                    Some(fields.origin(origin, &format!("spec.karmada.scheduler.{setting}"))),
                    format!("Config: spec.karmada.scheduler.{setting}: {message}"),
                ));
            }
            let at = fields.origin(origin, "spec.karmada");
            match &classified.karmada {
                // Two Configs would make the release depend on file order.
                Some(first) if first.item != *karmada => errors.push(Diagnostic::error(
                    Some(at),
                    format!(
                        "Config: spec.karmada differs here from the one at {}",
                        first.origin
                    ),
                )),
                Some(_) => {}
                None => {
                    classified.karmada = Some(Located {
                        origin: origin.clone(),
                        item: karmada.clone(),
                        fields: fields.clone(),
                    })
                }
            }
        }
        if let Some(review) = &config.spec.review {
            match &classified.review {
                // A flag field: two Configs directly in FLEET_DIR are refused when the
                // defaults are read; elsewhere the fleet's read refuses it.
                Some(first) => errors.push(Diagnostic::error(
                    Some(fields.origin(origin, "spec.review")),
                    format!(
                        "Config: spec.review is also set at {}; set it once",
                        first.origin
                    ),
                )),
                None => {
                    classified.review = Some(Located {
                        origin: origin.clone(),
                        item: review.clone(),
                        fields: fields.clone(),
                    })
                }
            }
        }
        for (name, level) in &config.spec.lints {
            let at = fields.origin(origin, &format!("spec.lints.{name}"));
            let lint = match Lint::parse(name) {
                Ok(lint) => lint,
                Err(problem) => {
                    errors.push(Diagnostic::error(
                        Some(at),
                        format!("Config: spec.lints: {problem}"),
                    ));
                    continue;
                }
            };
            // Two Configs that disagree would make the outcome depend on file order.
            match (lint_levels.get(&lint), levels_set_at.get(&lint)) {
                (Some(first), Some(first_origin)) if first != level => {
                    errors.push(Diagnostic::error(
                        Some(at.clone()),
                        format!(
                            "Config: spec.lints: {lint} is {level} here and {first} at {first_origin}",
                        ),
                    ));
                }
                _ => {
                    lint_levels.insert(lint, *level);
                    levels_set_at.insert(lint, at);
                }
            }
        }
    }
}

/// A SOPS document that names no namespace. Placing it means writing one into it
/// (`default`, as Karmada's API server would), and SOPS's MAC covers that value: `sops -d` and
/// Flux's kustomize-controller then refuse the copy. Leaving the document as it is for a
/// kustomization's `namespace:` to set is no way out either: kustomize sets it before Flux
/// decrypts the built resource, which fails the same way, and Argo CD's tools (KSOPS, the
/// sops plugins) read the file as written, so the Secret would land wherever each tool's
/// default namespace is. The namespace must be in the file before it is encrypted.
fn sops_without_namespace(kind: &str, name: &str, at: &Origin) -> Diagnostic {
    Diagnostic::error(
        Some(at.clone()),
        format!(
            "{kind} {name} is SOPS-encrypted and names no metadata.namespace: placing it would \
             write metadata.namespace: default into it, which SOPS's MAC covers, so sops -d and \
             Flux would fail to decrypt every copy (and a kustomization's namespace: fails the \
             same way, set before Flux decrypts); fedrender never changes an encrypted \
             document. Write metadata.namespace into the file before encrypting it (sops -d, \
             add it, sops -e again)"
        ),
    )
    .about_object(format!("{kind} {name}"))
}

/// Takes the document's object: templates are the bulk of the input, held once.
fn to_template(
    document: RawDocument,
    files: &[SourceFile],
    api_version: &str,
    kind: &str,
    interpreter: &Interpreter,
    warnings: &mut Vec<Diagnostic>,
) -> Result<Template, Diagnostic> {
    let origin = document.origin.clone();
    let error = |message: String| Diagnostic::error(Some(origin.clone()), message);
    let group = api_group(api_version);
    let metadata = document.value.field("metadata");
    let name = match metadata.and_then(|m| m.field("name")) {
        Some(Value::String(name)) if !name.is_empty() => name.clone(),
        _ => {
            return Err(error(format!(
                "{kind} has no metadata.name (generateName needs an API server; fedrender needs a fixed name)"
            )));
        }
    };
    if let Some(problem) = interpret::name_problem(group, kind, &name) {
        return Err(error(format!(
            "{kind} name {name:?} is not a valid Kubernetes name: {problem}"
        )));
    }
    let written_namespace = match metadata.and_then(|m| m.field("namespace")) {
        None | Some(Value::Null) => None,
        Some(Value::String(namespace)) => Some(namespace.clone()),
        Some(_) => {
            return Err(error(format!(
                "{kind} {name}: metadata.namespace must be a string"
            )));
        }
    };
    let mut labels = string_map(metadata.and_then(|m| m.field("labels")))
        .map_err(|problem| error(format!("{kind} {name}: metadata.labels {problem}")))?;
    if group.is_empty() && kind == "Namespace" && !name.is_empty() {
        // The Karmada API server labels every named Namespace with its name before Karmada
        // reads it (k8s.io/kubernetes pkg/apis/core/v1/defaults.go `SetDefaults_Namespace`,
        // overwriting any other value), so policies select Namespaces by that label. Karmada's
        // Work holds the label so set; a template without it is left so, as every member's API
        // server sets the same label.
        labels.insert(NAMESPACE_NAME_LABEL.to_string(), name.clone());
    }
    if let Some((field, value)) = replica_field_not_an_integer(group, kind, &document.value) {
        let at = document.field_lines(files).origin(&origin, field);
        return Err(Diagnostic::error(
            Some(at),
            format!(
                "{kind} {name}: {field} is {value}, not an integer: Karmada's API server refuses the \
             {kind} (it reads {field} into a 32-bit integer, as every member's does)"
            ),
        ));
    }
    if written_namespace.as_deref().is_none_or(str::is_empty)
        && interpreter.is_namespaced(group, kind)
        && crate::secrets::sops_metadata(&document.value).is_some()
    {
        let at = document.field_lines(files).origin(&origin, "metadata");
        return Err(sops_without_namespace(kind, &name, &at));
    }
    let mut object = document.value;
    if group.is_empty() && kind == "Namespace" {
        let written = object.pointer_mut("/metadata/labels/kubernetes.io~1metadata.name");
        if let Some(label) = written.filter(|label| label.as_str() != Some(&name)) {
            *label = Value::String(name.clone());
        }
    }
    let namespace = if interpreter.is_namespaced(group, kind) {
        let written_namespace = written_namespace.filter(|namespace| !namespace.is_empty());
        let namespace = written_namespace.unwrap_or_else(|| "default".to_string());
        if let Some(problem) = names::dns_label_problem(&namespace) {
            return Err(error(format!(
                "namespace {namespace:?} of {kind} {name} {problem}"
            )));
        }
        set_namespace(&mut object, &namespace);
        namespace
    } else {
        if written_namespace.is_some_and(|namespace| !namespace.is_empty()) {
            warnings.push(Diagnostic::warning(
                Lint::IgnoredField,
                Some(origin.clone()),
                format!("{kind} {name} is cluster-scoped; its metadata.namespace is ignored"),
            ));
            if let Some(metadata) = object.field_mut("metadata").and_then(Value::as_object_mut) {
                metadata.shift_remove("namespace");
            }
        }
        String::new()
    };
    Ok(Template {
        origin,
        api_version: api_version.to_string(),
        key: ObjectKey {
            group: group.to_string(),
            kind: kind.to_string(),
            namespace,
            name,
        },
        labels,
        object,
    })
}

/// A replica count of a built-in workload that is not an int32 (`replicas: "two"`): the API
/// server decodes the object into its Go type (apps/v1 `DeploymentSpec.Replicas *int32`, batch/v1
/// `JobSpec.Parallelism`, `Completions`) and refuses it, where fedrender's division would read no
/// count and write its own.
fn replica_field_not_an_integer(
    group: &str,
    kind: &str,
    object: &Value,
) -> Option<(&'static str, String)> {
    let fields: &[(&str, &'static str)] = match (group, kind) {
        ("apps", "Deployment" | "ReplicaSet" | "StatefulSet") => {
            &[("/spec/replicas", "spec.replicas")]
        }
        ("batch", "Job") => &[
            ("/spec/parallelism", "spec.parallelism"),
            ("/spec/completions", "spec.completions"),
        ],
        _ => return None,
    };
    fields.iter().find_map(|&(pointer, field)| {
        let value = crate::json_pointer::pointer(object, pointer)?;
        let int32 = value
            .as_i64()
            .is_some_and(|count| i32::try_from(count).is_ok());
        (!value.is_null() && !int32).then(|| (field, value.to_string()))
    })
}

fn string_map(value: Option<&Value>) -> Result<BTreeMap<String, String>, String> {
    match value {
        None | Some(Value::Null) => Ok(BTreeMap::new()),
        Some(Value::Object(map)) => map
            .iter()
            .map(|(key, value)| match value {
                Value::String(text) => Ok((key.clone(), text.clone())),
                other => Err(format!("{key}: value {other} must be a string (quote it)")),
            })
            .collect(),
        Some(_) => Err("must be a mapping of strings".to_string()),
    }
}

/// Puts `metadata.namespace` right after `metadata.name`, where kubectl prints it.
fn set_namespace(object: &mut Value, namespace: &str) {
    let Some(metadata) = object.field_mut("metadata").and_then(Value::as_object_mut) else {
        return;
    };
    if metadata.field("namespace").and_then(Value::as_str) == Some(namespace) {
        return;
    }
    let entries = std::mem::take(metadata);
    for (key, value) in entries {
        if key == "namespace" {
            continue;
        }
        let is_name = key == "name";
        metadata.insert(key, value);
        if is_name {
            metadata.insert("namespace".to_string(), Value::from(namespace));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostics::Rejected;
    use crate::documents::{Format, parse_files};
    use serde_json::json;

    fn classify_text(text: &str) -> Result<Classified, Rejected> {
        let files = vec![SourceFile {
            path: "in.yaml".into(),
            text: text.to_string(),
            format: Format::Yaml,
            written_at: Vec::new(),
        }];
        let (documents, mut errors) = parse_files(&files);
        let mut sink = ErrorSink::default();
        for error in errors.drain(..) {
            sink.push(error);
        }
        let classified = classify(documents, &files, &[], &mut sink);
        sink.finish().map(|()| classified)
    }

    #[test]
    fn namespaced_templates_without_a_namespace_are_in_default() {
        let classified = classify_text(
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  labels: {a: b}\ndata: {}\n",
        )
        .unwrap();
        let template = &classified.templates[0];
        assert_eq!(template.namespace(), "default");
        assert_eq!(
            crate::yaml::to_yaml(&template.object),
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: default\n  labels:\n    a: b\ndata: {}\n"
        );
    }

    #[test]
    fn cluster_scoped_kinds_have_no_namespace() {
        let classified =
            classify_text("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: apps\n").unwrap();
        assert_eq!(classified.templates[0].namespace(), "");
    }

    /// A kind no CRD states the scope of, with an object that names no namespace: taken as
    /// namespaced, once per kind with a word (issue 48: a Kyverno ClusterPolicy placed by a
    /// namespaced PropagationPolicy, which Karmada never does; karmada
    /// pkg/util/helper/policy.go matches a namespaced policy to its own namespace's objects).
    #[test]
    fn a_kind_of_unstated_scope_without_a_namespace_is_said_once() {
        let policy = |name: &str| {
            format!("apiVersion: kyverno.io/v1\nkind: ClusterPolicy\nmetadata: {{name: {name}}}\n")
        };
        let text = format!(
            "{}---\n{}---\napiVersion: example.com/v1\nkind: Widget\nmetadata: {{name: w, namespace: shop}}\n",
            policy("a"),
            policy("b")
        );
        let classified = classify_text(&text).unwrap();
        let said: Vec<&Diagnostic> = (classified.warnings.iter())
            .filter(|warning| warning.lint == Some(Lint::UnknownScope))
            .collect();
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(
            said[0]
                .message
                .starts_with("ClusterPolicy.kyverno.io a, b: no CustomResourceDefinition"),
            "{}",
            said[0].message
        );
        // A CRD handed in by --crds says the scope as one in the fleet does.
        let crd = json!({"spec": {"group": "kyverno.io", "scope": "Cluster", "names": {"kind": "ClusterPolicy"}}});
        let files = vec![SourceFile {
            path: "in.yaml".into(),
            text: text.clone(),
            format: Format::Yaml,
            written_at: Vec::new(),
        }];
        let (documents, _) = parse_files(&files);
        let mut sink = ErrorSink::default();
        let classified = classify(documents, &files, &[crd], &mut sink);
        assert!(
            !classified
                .warnings
                .iter()
                .any(|warning| warning.lint == Some(Lint::UnknownScope)),
            "{:?}",
            classified.warnings
        );
        assert_eq!(classified.templates[0].namespace(), "");
        // Kubernetes' own kinds and the table's add-ons need no CRD.
        let known = classify_text(
            "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: r}\n---\n\
             apiVersion: cert-manager.io/v1\nkind: Certificate\nmetadata: {name: c}\n---\n\
             apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: i}\n",
        )
        .unwrap();
        let unknown: Vec<&str> = (known.warnings.iter())
            .filter(|warning| warning.lint == Some(Lint::UnknownScope))
            .map(|warning| warning.message.as_str())
            .collect();
        assert_eq!(unknown.len(), 1, "{unknown:?}");
        assert!(
            unknown[0].starts_with("HTTPRoute.gateway.networking.k8s.io r:"),
            "{unknown:?}"
        );
    }

    #[test]
    fn crds_in_the_input_declare_the_scope_of_their_kind() {
        let classified = classify_text(
            "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.example.com\n\
             spec:\n  group: example.com\n  scope: Cluster\n  names: {kind: Widget}\n---\n\
             apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n",
        )
        .unwrap();
        assert_eq!(classified.templates[1].namespace(), "");
    }

    #[test]
    fn bad_templates_are_all_reported_with_their_lines() {
        let rejected = classify_text(
            "apiVersion: v1\nmetadata: {name: a}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: Bad_Name}\n\
             ---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: ok}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: ok}\n",
        )
        .unwrap_err();
        let lines: Vec<u64> = rejected
            .errors
            .iter()
            .map(|e| e.origin.as_ref().unwrap().line)
            .collect();
        assert_eq!(lines, vec![1, 4, 12], "{rejected}");
        assert!(rejected.errors[0].message.contains("no `kind`"));
        assert!(
            rejected.errors[1]
                .message
                .contains("not a valid Kubernetes name")
        );
        assert!(
            rejected.errors[2]
                .message
                .contains("duplicate object ConfigMap default/ok: already defined at in.yaml:8")
        );
    }

    #[test]
    fn an_unknown_policy_field_names_the_field_line_and_nearest_name() {
        let rejected = classify_text(
            "apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: {name: p}\nspec:\n  \
             resourceSelectors: [{apiVersion: v1, kind: ConfigMap}]\n  placement:\n    clusterAfinity: {}\n",
        )
        .unwrap_err();
        let error = &rejected.errors[0];
        assert_eq!(error.origin.as_ref().unwrap().line, 7);
        assert!(
            error.message.contains("unknown field `clusterAfinity`"),
            "{}",
            error.message
        );
        assert!(
            error.message.contains("did you mean `clusterAffinity`?"),
            "{}",
            error.message
        );
    }

    // The Cluster API (karmada pkg/apis/cluster/v1alpha1 types.go) is typed too: the API
    // server reads `environment: on` as a boolean where a label value must be a string.
    #[test]
    fn policies_and_clusters_are_read_as_strictly_as_the_api_server_reads_them() {
        let rejected = classify_text(
            "apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: m1\n  labels:\n    environment: on\n\
             ---\napiVersion: policy.karmada.io/v1alpha1\nkind: ClusterOverridePolicy\nmetadata: {name: p}\nspec:\n  \
             overrideRules:\n  - targetCluster: {clusterNames: [m1]}\n    overriders:\n      labelsOverrider:\n      \
             - {operator: add, value: {team: y}}\n",
        )
        .unwrap_err();
        let found: Vec<(u64, bool)> = rejected
            .errors
            .iter()
            .map(|e| {
                (
                    e.origin.as_ref().unwrap().line,
                    e.message.contains("quote it"),
                )
            })
            .collect();
        assert_eq!(found, vec![(6, true), (16, true)], "{rejected}");
        // Templates keep YAML 1.1's types: they are not decoded into string fields.
        let classified = classify_text(
            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: \"y\"}\n",
        )
        .unwrap();
        assert_eq!(classified.templates.len(), 1);
    }

    /// Neither Karmada's webhooks nor its CRD schema refuse an unknown operator in a resource
    /// selector (karmada pkg/util/validation/validation.go `validateResourceSelectors`; the
    /// oracle at Karmada f8fdd02 admits the policy): the policy is read, keeping the spelling,
    /// and admission warns that the selector matches nothing (policy.rs tests).
    #[test]
    fn an_unknown_operator_in_a_resource_selector_is_read_as_written() {
        let classified = classify_text(
            "apiVersion: policy.karmada.io/v1alpha1\nkind: ClusterPropagationPolicy\nmetadata: {name: p}\nspec:\n  \
             resourceSelectors:\n  - apiVersion: v1\n    kind: ConfigMap\n    labelSelector:\n      matchExpressions:\n      \
             - {key: a, operator: Inn, values: [b]}\n",
        )
        .unwrap();
        let policy = &classified.propagation_policies[0].item;
        let selector = policy.spec.resource_selectors[0]
            .label_selector
            .as_ref()
            .unwrap();
        assert_eq!(
            selector.match_expressions[0].operator,
            crate::api::meta::SelectorOperator::Unknown("Inn".to_string())
        );
    }

    /// k8s.io/kubernetes pkg/apis/core/v1/defaults.go `SetDefaults_Namespace`: the Karmada API
    /// server labels a Namespace `kubernetes.io/metadata.name: <name>` (over any value written)
    /// before Karmada's selectors read it, and its Work holds the label so set; a Namespace
    /// written without the label is left without (each member's API server adds it).
    #[test]
    fn a_namespace_is_selected_by_the_name_label_its_api_server_sets() {
        let classified = classify_text(
            "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n  labels: {kubernetes.io/metadata.name: other, team: a}\n---\n\
             apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: shop}\n---\n\
             apiVersion: v1\nkind: Namespace\nmetadata: {name: bare}\n",
        )
        .unwrap();
        let namespace = &classified.templates[0];
        assert_eq!(
            namespace.labels,
            BTreeMap::from([
                (NAMESPACE_NAME_LABEL.to_string(), "shop".to_string()),
                ("team".to_string(), "a".to_string())
            ])
        );
        assert_eq!(
            namespace.object["metadata"]["labels"],
            json!({NAMESPACE_NAME_LABEL: "shop", "team": "a"})
        );
        assert!(classified.templates[1].labels.is_empty());
        assert_eq!(
            classified.templates[2].object["metadata"],
            json!({"name": "bare"})
        );
    }

    #[test]
    fn a_kustomization_read_as_a_plain_file_is_skipped_with_a_warning() {
        let files = vec![SourceFile {
            path: "fleet/kustomization.yaml".into(),
            text: "resources:\n- web.yaml\n".to_string(),
            format: Format::Yaml,
            written_at: Vec::new(),
        }];
        let (documents, _) = parse_files(&files);
        let mut sink = ErrorSink::default();
        let classified = classify(documents, &files, &[], &mut sink);
        assert!(sink.finish().is_ok());
        assert!(classified.templates.is_empty());
        assert!(
            classified.warnings[0]
                .message
                .starts_with("a kustomization is not a Kubernetes object")
        );
    }

    #[test]
    fn non_string_label_values_are_rejected() {
        let rejected = classify_text(
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  labels: {enabled: yes}\n",
        )
        .unwrap_err();
        assert!(
            rejected.errors[0]
                .message
                .contains("enabled: value true must be a string")
        );
    }
}
