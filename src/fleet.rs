//! Reading a whole fleet: the input directory and the inventory, through loading,
//! classifying and admission, into the [`Fleet`] the pipeline renders. The only module that
//! calls the file-reading parts of loading.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::PathBuf;
use std::sync::Arc;

use crate::api::cluster::Cluster;
use crate::api::config::{CONFIG_API_VERSION, SourcesConfig};
use crate::check::{Checker, KubernetesVersion, VersionChoice};
use crate::cluster_filter::ClusterFilter;
use crate::confine::Confinement;
use crate::diagnostics::Located;
use crate::diagnostics::{Diagnostic, ErrorSink, Origin, Rejected};
use crate::federated_quota::{self, FederatedQuota};
use crate::federation::FederatedBinding;
use crate::interpret::Interpreter;
use crate::lint::{Level, Lint};
use crate::object::Template;
use crate::policy;
use crate::policy::{Override, Propagation};
use crate::source::classify;
use crate::source::documents::{self, RawDocument, SourceFile};
use crate::source::load::{self, FileFilter};
use crate::source::tools::{self, SourceRun, ToolCache, ToolSettings};

/// Everything the pipeline needs, after loading, classifying and admission.
#[derive(Debug, Default)]
pub struct Fleet {
    pub templates: Vec<Template>,
    pub propagations: Vec<Propagation>,
    pub overrides: Vec<Override>,
    /// The inventory, sorted by name.
    pub clusters: Vec<Cluster>,
    pub interpreter: Interpreter,
    /// KubeFed and Federation v1 objects, translated: placed by their own rules, not by
    /// Karmada policies.
    pub federated: Vec<FederatedBinding>,
    /// Karmada FederatedResourceQuotas: a ResourceQuota in each cluster they assign.
    pub federated_quotas: Vec<FederatedQuota>,
    /// Lint levels the fleet's fedrender Config sets.
    pub lint_levels: BTreeMap<Lint, Level>,
    /// The sources a tool rendered (kustomize, Helm, commands), with what each ran.
    pub sources: Vec<crate::source::tools::SourceRun>,
    /// The taints ClusterTaintPolicies put on or took off the inventory's clusters, for `plan`.
    pub taint_changes: Vec<crate::cluster_taints::TaintChange>,
    /// Configs that set fields standing in for flags, with those fields.
    pub flag_configs: Vec<(crate::diagnostics::Origin, Vec<&'static str>)>,
    /// The Config's `spec.kubernetesVersion`, where it is written.
    pub kubernetes_version: Option<(KubernetesVersion, Origin)>,
    /// What checks each rendered object against its cluster's schemas; `None` for a fleet
    /// assembled without reading (tests).
    pub checker: Option<Checker>,
}

/// Where the inventory comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Inventory {
    File(PathBuf),
    Stdin,
    /// Only the `Cluster` objects inside the input directory.
    InputOnly,
}

#[derive(Debug, Clone)]
pub struct FleetSource {
    pub input: PathBuf,
    pub inventory: Inventory,
    pub include: Vec<glob::Pattern>,
    pub exclude: Vec<glob::Pattern>,
    pub tools: ToolOptions,
    /// Which clusters' trees are emitted (all are scheduled).
    pub cluster_filter: ClusterFilter,
    pub schemas: SchemaOptions,
}

/// The command line's say on schema checks.
#[derive(Debug, Clone, Default)]
pub struct SchemaOptions {
    /// `--kubernetes-version [CLUSTER=]VERSION`.
    pub kubernetes_versions: Vec<VersionChoice>,
    /// `--crds PATH`: files or directories of CustomResourceDefinitions.
    pub crds: Vec<PathBuf>,
}

impl FleetSource {
    /// Every file of `input` with `inventory`, every cluster emitted, no command allowed: what
    /// a run without flags reads.
    pub fn new(input: impl Into<PathBuf>, inventory: Inventory) -> FleetSource {
        FleetSource {
            input: input.into(),
            inventory,
            include: Vec::new(),
            exclude: Vec::new(),
            tools: ToolOptions::default(),
            cluster_filter: ClusterFilter::default(),
            schemas: SchemaOptions::default(),
        }
    }
}

/// The command line's say on sources a tool renders.
#[derive(Debug, Clone, Default)]
pub struct ToolOptions {
    /// `--allow-exec`: declared commands may run.
    pub allow_exec: bool,
    /// `--allow-network`: kustomizations and Helm value files may name what is fetched.
    pub allow_network: bool,
    /// `--tool-timeout` and `--max-tool-output`.
    pub limits: crate::source::run::Limits,
    /// `--kustomize COMMAND`, split on spaces.
    pub kustomize: Option<Vec<String>>,
    /// Outputs already rendered, shared by the two revisions `diff --base` reads.
    pub cache: Arc<ToolCache>,
}

/// The fleet and the warnings found while reading it.
pub fn read_fleet(source: &FleetSource) -> Result<(Fleet, Vec<Diagnostic>), Rejected> {
    let filter = FileFilter {
        include: source.include.clone(),
        exclude: source.exclude.clone(),
        inventory: match &source.inventory {
            Inventory::File(path) => Some(path.clone()),
            Inventory::Stdin | Inventory::InputOnly => None,
        },
    };
    let (mut files, found_sources, listing_warnings) = match input_kind(source)? {
        InputKind::Directory => {
            let listing = load::list_input_files(&source.input, &filter)?;
            (
                documents::read_input_files(&listing.paths)?,
                listing.sources,
                listing.warnings,
            )
        }
        InputKind::File => (
            documents::read_input_files(std::slice::from_ref(&source.input))?,
            Vec::new(),
            Vec::new(),
        ),
        InputKind::Stdin => (
            vec![documents::source_from_text(
                "<stdin>",
                read_stdin("the fleet")?,
            )],
            Vec::new(),
            Vec::new(),
        ),
    };
    // Kubernetes' schemas are inflated while the fleet parses: every run checks its objects.
    let ((mut documents, mut parse_errors), _) = rayon::join(
        || documents::parse_files(&files),
        crate::check::builtin::builtin,
    );
    let mut runs = Vec::new();
    let mut hook_warnings = Vec::new();
    if !found_sources.is_empty() {
        let settings = tool_settings(&source.tools, &source.input, &documents, &files)?;
        let tool_sources = tools::resolve(&found_sources, &settings)?;
        let outputs = tools::render(&tool_sources, &settings, &source.tools.cache)?;
        let (outputs, source_runs): (Vec<SourceFile>, Vec<SourceRun>) = outputs.into_iter().unzip();
        let (mut more_documents, more_errors) = documents::parse_files_at(&outputs, files.len());
        runs = source_runs;
        tools::sort_out_helm_hooks(&mut runs, &mut more_documents, &mut hook_warnings);
        documents.extend(more_documents);
        parse_errors.extend(more_errors);
        files.extend(outputs);
    }
    let inventory_file = match &source.inventory {
        Inventory::File(path) => Some(documents::read_files(std::slice::from_ref(path))?.remove(0)),
        Inventory::Stdin => Some(documents::source_from_text(
            "<stdin>",
            read_stdin("the inventory")?,
        )),
        Inventory::InputOnly => None,
    };
    let input_file_count = files.len();
    files.extend(inventory_file);
    let (mut fleet, warnings) = assemble_parsed(&files, input_file_count, documents, parse_errors)?;
    fleet.sources = runs;
    check_flag_configs_are_on_top(&fleet, source)?;
    let crds = read_crds(&source.schemas.crds)?;
    let (checker, schema_warnings) = schema_checker(&fleet, &source.schemas, &crds)?;
    fleet.checker = Some(checker);
    Ok((
        fleet,
        listing_warnings
            .into_iter()
            .chain(hook_warnings)
            .chain(warnings)
            .chain(schema_warnings)
            .collect(),
    ))
}

/// The CustomResourceDefinitions in the files and directories `--crds` names (a directory is
/// read as a fleet directory is, `kubectl get crds -o yaml` Lists included). Other documents
/// there are not read.
fn read_crds(paths: &[PathBuf]) -> Result<Vec<(serde_json::Value, Origin)>, Rejected> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let listing = load::list_input_files(path, &FileFilter::default())?;
            files.extend(documents::read_input_files(&listing.paths)?);
        } else {
            files.extend(documents::read_files(std::slice::from_ref(path))?);
        }
    }
    let (parsed, errors) = documents::parse_files(&files);
    if !errors.is_empty() {
        return Err(errors.into());
    }
    Ok(parsed
        .into_iter()
        .filter(|document| is_crd(&document.value))
        .map(|document| (document.value, document.origin))
        .collect())
}

fn is_crd(object: &serde_json::Value) -> bool {
    object.get("apiVersion").and_then(serde_json::Value::as_str) == Some("apiextensions.k8s.io/v1")
        && object.get("kind").and_then(serde_json::Value::as_str)
            == Some("CustomResourceDefinition")
}

/// The schema checker for the fleet: each cluster's Kubernetes version, the fleet's CRDs and
/// those `--crds` names; with the warnings of versions assumed and kinds left unchecked.
fn schema_checker(
    fleet: &Fleet,
    options: &SchemaOptions,
    crds: &[(serde_json::Value, Origin)],
) -> Result<(Checker, Vec<Diagnostic>), Rejected> {
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
        crate::check::choose_versions(&clusters, &options.kubernetes_versions, config)
            .map_err(Rejected::from)?;
    let fleet_crds = fleet
        .templates
        .iter()
        .filter(|template| is_crd(&template.object))
        .map(|template| (&template.object, &template.origin));
    // The command line's CRD of a kind wins over the fleet's, which a pull request controls.
    let command_line_crds = crds.iter().map(|(crd, origin)| (crd, origin));
    let (checker, conflicts) =
        Checker::with_crds(versions, fleet_crds, command_line_crds).map_err(Rejected::from)?;
    warnings.extend(conflicts);
    let objects = fleet
        .templates
        .iter()
        .map(|template| (&template.object, &template.origin))
        .chain(
            fleet
                .federated
                .iter()
                .map(|binding| (&binding.template.object, &binding.source)),
        );
    warnings.extend(checker.unchecked_kinds(objects));
    Ok((checker, warnings))
}

/// The fields of a Config that stand in for flags are read before the fleet is (see
/// [`command_defaults`]), from the files directly in `FLEET_DIR`; set anywhere else they would
/// be ignored, so they are an error there.
fn check_flag_configs_are_on_top(fleet: &Fleet, source: &FleetSource) -> Result<(), Rejected> {
    let top = source.input.as_path();
    let errors: Vec<Diagnostic> = fleet
        .flag_configs
        .iter()
        .filter(|(origin, _)| std::path::Path::new(&*origin.file).parent() != Some(top))
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

/// What the Configs directly in `FLEET_DIR` say in place of flags: the inventory, the output
/// directory and the GitOps settings, paths resolved against `FLEET_DIR`. Read before the
/// fleet, since they say how to read it and where to write it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CommandDefaults {
    pub clusters: Option<PathBuf>,
    pub output: Option<PathBuf>,
    pub gitops: Option<crate::api::config::GitopsConfig>,
}

pub fn command_defaults(input: &std::path::Path) -> Result<CommandDefaults, Rejected> {
    let mut defaults = CommandDefaults::default();
    if !input.is_dir() {
        return Ok(defaults);
    }
    let mut paths: Vec<PathBuf> = std::fs::read_dir(input)
        .map_err(|error| {
            Diagnostic::error(None, format!("cannot read {}: {error}", input.display()))
        })?
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_ok_and(|kind| kind.is_file()))
        .map(|entry| entry.path())
        .filter(|path| {
            documents::format_of(path).is_some()
                && !path
                    .file_name()
                    .is_some_and(|name| name.to_string_lossy().starts_with('.'))
        })
        .collect();
    paths.sort();
    let files = documents::read_input_files(&paths)?;
    let repository = Confinement::repository_of(input)
        .map_err(|message| Rejected::from(Diagnostic::error(None, message)))?;
    // Only documents that are a Config are decoded here; the rest, and any error in them, are
    // for the read of the whole fleet to report.
    let (documents, _) = documents::parse_files(&files);
    let mut errors = ErrorSink::default();
    let mut set_at: BTreeMap<&'static str, Origin> = BTreeMap::new();
    for document in &documents {
        let value = &document.value;
        if value["apiVersion"] != CONFIG_API_VERSION || value["kind"] != "Config" {
            continue;
        }
        let Some(config) = errors.take(document.decode::<crate::api::config::Config>(&files))
        else {
            continue;
        };
        for field in config.spec.flag_fields() {
            match set_at.get(field) {
                Some(first) => errors.push(Diagnostic::error(
                    Some(document.origin.clone()),
                    format!("Config: spec.{field} is also set at {first}; set it once"),
                )),
                None => {
                    set_at.insert(field, document.origin.clone());
                }
            }
        }
        let spec = confine_config_paths(
            config.spec,
            document,
            &files,
            &repository,
            input,
            &mut errors,
        );
        defaults.clusters = defaults.clusters.or(spec.clusters.map(PathBuf::from));
        defaults.output = defaults.output.or(spec.output.map(PathBuf::from));
        defaults.gitops = defaults.gitops.or(spec.gitops);
    }
    errors.finish()?;
    Ok(defaults)
}

/// A Config's `spec` with the paths it names checked, those that stand for files made usable
/// from here (`clusters` and `output` joined to `FLEET_DIR`, `gitops.path` normalised). The
/// Config is part of the repository, so each must lead inside it, or it is an error at the
/// field's line and the path is left out: nothing is read from or written to it.
fn confine_config_paths(
    mut spec: crate::api::config::ConfigSpec,
    document: &RawDocument,
    files: &[SourceFile],
    repository: &Confinement,
    input: &std::path::Path,
    errors: &mut ErrorSink,
) -> crate::api::config::ConfigSpec {
    let field_lines = document.field_lines(files);
    let mut refuse = |field: &str, written: &str, problem: String| {
        errors.push(Diagnostic::error(
            Some(field_lines.origin(&document.origin, field)),
            format!("Config: {field} {written:?} {problem}"),
        ));
    };
    for (field, path) in [
        ("spec.clusters", &mut spec.clusters),
        ("spec.output", &mut spec.output),
    ] {
        if let Some(written) = path.take() {
            match repository.resolve(input, &written) {
                Ok(resolved) => *path = Some(resolved.to_string_lossy().into_owned()),
                Err(problem) => refuse(field, &written, problem),
            }
        }
    }
    if let Some(gitops) = &mut spec.gitops {
        match crate::confine::repository_path(&gitops.path) {
            Ok(path) => gitops.path = path,
            Err(problem) => {
                refuse("spec.gitops.path", &gitops.path, problem);
                spec.gitops = None;
            }
        }
    }
    spec
}

/// The settings for running tools: the command line's, and the `spec.sources` of a fedrender
/// Config among the plain files (a tool's output cannot change how tools run). A Config that
/// does not decode is reported, with its line, where every Config is checked.
fn tool_settings(
    options: &ToolOptions,
    fleet: &std::path::Path,
    documents: &[RawDocument],
    files: &[SourceFile],
) -> Result<ToolSettings, Rejected> {
    let mut settings = ToolSettings {
        fleet: Confinement::new(fleet)
            .map_err(|message| Rejected::from(Diagnostic::error(None, message)))?,
        allow_exec_flag: options.allow_exec,
        allow_network: options.allow_network,
        limits: options.limits,
        kustomize_flag: options.kustomize.clone(),
        kustomize_config: None,
    };
    for document in documents {
        let value = &document.value;
        if value["apiVersion"] != CONFIG_API_VERSION || value["kind"] != "Config" {
            continue;
        }
        let Ok(sources) = serde_json::from_value::<SourcesConfig>(value["spec"]["sources"].clone())
        else {
            continue;
        };
        if let Some(argv) = sources.kustomize {
            let origin = document
                .field_lines(files)
                .origin(&document.origin, "spec.sources.kustomize");
            settings.kustomize_config = Some((argv, origin));
        }
    }
    Ok(settings)
}

/// What `FLEET_DIR` names: a directory walked for files, one file, or `-` for a YAML stream on
/// standard input.
enum InputKind {
    Directory,
    File,
    Stdin,
}

fn input_kind(source: &FleetSource) -> Result<InputKind, Rejected> {
    let kind = if source.input.as_os_str() == "-" {
        if source.inventory == Inventory::Stdin {
            return Err(Diagnostic::error(
                None,
                "the fleet and --clusters cannot both come from standard input: give the inventory a file",
            )
            .into());
        }
        InputKind::Stdin
    } else if source.input.is_file() {
        InputKind::File
    } else {
        return Ok(InputKind::Directory);
    };
    if !(source.include.is_empty() && source.exclude.is_empty()) {
        return Err(Diagnostic::error(
            None,
            format!(
                "--include and --exclude choose files in a fleet directory; {} is {}",
                source.input.display(),
                if matches!(kind, InputKind::Stdin) {
                    "standard input"
                } else {
                    "one file"
                }
            ),
        )
        .into());
    }
    Ok(kind)
}

fn read_stdin(what: &str) -> Result<String, Rejected> {
    let mut text = String::new();
    std::io::stdin()
        .read_to_string(&mut text)
        .map_err(|error| {
            Rejected::from(Diagnostic::error(
                None,
                format!("cannot read {what} from standard input: {error}"),
            ))
        })?;
    Ok(text)
}

/// Everything after reading: parse, classify, admit. `files[input_file_count..]` is the
/// inventory file, if any.
pub fn assemble(
    files: &[SourceFile],
    input_file_count: usize,
) -> Result<(Fleet, Vec<Diagnostic>), Rejected> {
    let (input_documents, parse_errors) = documents::parse_files(&files[..input_file_count]);
    assemble_parsed(files, input_file_count, input_documents, parse_errors)
}

/// [`assemble`] with the input files already parsed.
fn assemble_parsed(
    files: &[SourceFile],
    input_file_count: usize,
    input_documents: Vec<RawDocument>,
    parse_errors: Vec<Diagnostic>,
) -> Result<(Fleet, Vec<Diagnostic>), Rejected> {
    let mut errors = ErrorSink::default();
    let (_, inventory_files) = files.split_at(input_file_count);
    let (inventory_documents, inventory_errors) = documents::parse_files(inventory_files);
    for error in parse_errors.into_iter().chain(inventory_errors) {
        errors.push(error);
    }
    let mut warnings = Vec::new();
    let classified = classify::classify(input_documents, files, &mut errors);
    let mut clusters: Vec<Located<Cluster>> = Vec::new();
    for document in &inventory_documents {
        // Inventory documents carry file indices relative to the inventory files.
        if let Some(cluster) = errors.take(classify::decode_cluster(document, inventory_files)) {
            clusters.push(cluster);
        }
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
    let (federated, claimed) = crate::federation::translate(
        &classified.kubefed_documents,
        files,
        &classified.templates,
        &classified.interpreter,
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
    check_unique_policies(&fleet, &mut errors);
    fleet.clusters = unique_clusters(clusters, &mut errors);
    let taint_policies: Vec<crate::cluster_taints::TaintPolicy> = classified
        .taint_policies
        .iter()
        .filter_map(|policy| errors.take(crate::cluster_taints::admit(policy, &mut warnings)))
        .collect();
    fleet.taint_changes = crate::cluster_taints::apply(&taint_policies, &mut fleet.clusters);
    if fleet.clusters.is_empty() && errors.is_empty() {
        errors.push(Diagnostic::error(
            None,
            "no member clusters: pass --clusters FILE with Karmada Cluster objects, or put them in the input directory",
        ));
    }
    errors.finish()?;
    Ok((fleet, warnings))
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

fn unique_clusters(clusters: Vec<Located<Cluster>>, errors: &mut ErrorSink) -> Vec<Cluster> {
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
    by_name.into_values().map(|located| located.item).collect()
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
