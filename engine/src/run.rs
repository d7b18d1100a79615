//! The front door: every command, test and fuzz target enters the engine here. The shell reads
//! the fleet into [`Inputs`] (its files and their documents, what its tools printed, the
//! inventory, the CRD files), [`assemble`] parses, classifies and admits them into a [`Fleet`],
//! and [`Run::new`] places every template, keeps the clusters asked for, lays out the output
//! tree and judges every warning by its lint level; then the run renders ([`Run::render`],
//! [`Run::stream`], [`Run::tree`], [`Run::summary`]) and [`Run::finish`] hands back what it
//! found on the way. Warnings travel one way, in an [`Outcome`] beside the result.
//!
//! The shape is kustomize's `krusty.Kustomizer` (one type, one `Run`, everything else
//! internal) over a pipeline driven in chunks through a callback, as nextest's runner hands
//! each test's result to its reporter.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::check::{self, ClusterVersion, VersionChoice};
use crate::cluster_filter::ClusterFilter;
use crate::controllers::cluster_taints::TaintChange;
use crate::diagnostics::{Diagnostic, Origin, Rejected};
use crate::documents::{self, Format, RawDocument, Reread, SourceFile};
use crate::fleet::{self, Fleet, SourceRun};
use crate::interpret::customization::IgnoredOperations;
use crate::karmada_release;
use crate::lint::{Level, Lint, LintLevels};
use crate::output::gitops::{self, GitopsSettings};
use crate::output::{self, OutputTree, TreeLayout};
use crate::progress::{Progress, Stage};
use crate::render::{self, Placed, plan::PlanEntry};
use crate::work::RenderedTemplate;

pub use crate::controllers::federated_hpa::{EnvelopeEnd, Moment, parse_time};
pub use jiff::Timestamp;

/// How many templates render before their objects are handed on. Memory holds one chunk's
/// objects; a chunk's files are written in path order, and a larger chunk gives longer runs
/// of files in one directory.
pub const CHUNK: usize = 1024;

/// A run's outcome with the warnings it produced, whether it succeeded or not.
#[derive(Debug)]
pub struct Outcome<T> {
    /// What the run made, or why it could not.
    pub result: Result<T, Rejected>,
    /// The warnings, in the order they were found, whatever the result.
    pub warnings: Vec<Diagnostic>,
}

impl<T> Outcome<T> {
    /// A run that ended before it produced a warning.
    pub fn rejected(rejected: Rejected) -> Outcome<T> {
        Outcome {
            result: Err(rejected),
            warnings: Vec::new(),
        }
    }

    /// The next step on a success, its warnings after these.
    pub fn and_then<U>(self, then: impl FnOnce(T) -> Outcome<U>) -> Outcome<U> {
        let mut warnings = self.warnings;
        match self.result {
            Ok(value) => {
                let mut next = then(value);
                warnings.append(&mut next.warnings);
                Outcome {
                    result: next.result,
                    warnings,
                }
            }
            Err(rejected) => Outcome {
                result: Err(rejected),
                warnings,
            },
        }
    }
}

/// What the shell read, handed in whole: the fleet's files (its directory's, one file's, or
/// standard input) with their documents, then what its tools printed; the inventory, the CRD
/// files the command line names, and how to read a file again.
#[derive(Debug, Default)]
pub struct Inputs {
    files: Vec<SourceFile>,
    documents: Vec<RawDocument>,
    parse_errors: Vec<Diagnostic>,
    /// Where the fleet was read from (`FLEET_DIR`): a Config that stands in for flags must sit
    /// directly in it.
    pub(crate) fleet_dir: PathBuf,
    /// The sources a tool rendered, with what each ran.
    pub sources: Vec<SourceRun>,
    /// The inventory file (`--clusters`), when the inventory is not only in the fleet.
    pub inventory: Option<SourceFile>,
    /// The files `--crds` names; only their CustomResourceDefinitions are read.
    pub crd_files: Vec<SourceFile>,
    /// What reading found worth a warning (files left out, Helm hooks).
    pub warnings: Vec<Diagnostic>,
    /// How to read a file again, to point a late message at its field's own line.
    pub reread: Reread,
    /// An Argo CD fleet's checkouts (the Config's `spec.argocd`): the fleet's Applications
    /// are then deployed from them, to the clusters of the inventory's cluster Secrets.
    pub argocd: Option<crate::argocd::repositories::ArgoCdInputs>,
    /// The Argo CD fleet read ([`Inputs::argocd_tool_sources`]), with what tools rendered.
    argocd_read: Option<crate::argocd::fleet::ArgoCdFleet>,
}

impl Inputs {
    /// The fleet's files, read from `fleet_dir`, parsed into documents (Kubernetes' built-in
    /// schemas inflate meanwhile: every run checks its objects).
    pub fn new(fleet_dir: impl Into<PathBuf>, files: Vec<SourceFile>) -> Inputs {
        let ((documents, parse_errors), _) =
            rayon::join(|| documents::parse_files(&files), check::builtin::builtin);
        Inputs {
            files,
            documents,
            parse_errors,
            fleet_dir: fleet_dir.into(),
            ..Inputs::default()
        }
    }

    /// The fleet's files so far.
    pub fn files(&self) -> &[SourceFile] {
        &self.files
    }

    /// The documents of the fleet's files so far (those that parsed).
    pub fn documents(&self) -> &[RawDocument] {
        &self.documents
    }

    /// An Argo CD fleet's Applications, read now (once the inventory is set): the kustomize
    /// and Helm sources among theirs, for the shell to render as it renders the fleet's own and
    /// hand back with [`Inputs::add_argocd_rendered`]. None for any other fleet.
    pub fn argocd_tool_sources(
        &mut self,
    ) -> Result<Vec<crate::argocd::deploy::ToolDeployment>, Rejected> {
        let Some(argocd) = &self.argocd else {
            return Ok(Vec::new());
        };
        let (inventory, _) = documents::parse_files(self.inventory.as_slice());
        let mut read =
            crate::argocd::fleet::read(&self.documents, &self.files, &inventory, argocd)?;
        let tools = std::mem::take(&mut read.deployed.tools);
        self.argocd_read = Some(read);
        Ok(tools)
    }

    /// What the tools printed for the Applications' kustomize and Helm sources, each output
    /// with the run that printed it and the Application it deploys.
    pub fn add_argocd_rendered(
        &mut self,
        rendered: Vec<(
            SourceFile,
            SourceRun,
            crate::argocd::deploy::ApplicationTarget,
        )>,
    ) {
        let Some(read) = &mut self.argocd_read else {
            return;
        };
        for (file, run, target) in rendered {
            read.deployed
                .files
                .push(crate::argocd::deploy::DeployedFile { file, target });
            self.sources.push(run);
        }
    }

    /// Adds what the fleet's tools printed, each output with the run that printed it, after
    /// the files. A chart's test hooks are left out and its other hooks named in a warning
    /// (`crate::helm_hooks`).
    pub fn add_rendered(&mut self, rendered: Vec<(SourceFile, SourceRun)>) {
        let (outputs, mut runs): (Vec<SourceFile>, Vec<SourceRun>) = rendered.into_iter().unzip();
        let (mut documents, errors) = documents::parse_files_at(&outputs, self.files.len());
        crate::helm_hooks::sort_out_helm_hooks(&mut runs, &mut documents, &mut self.warnings);
        self.sources.extend(runs);
        self.documents.extend(documents);
        self.parse_errors.extend(errors);
        self.files.extend(outputs);
    }
}

/// What the command line says about a run: lint levels, the clusters emitted, the versions
/// objects and policies are judged by, whether every template's story is told; and where the
/// run records how far it has got.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The command line's lint levels (the fleet's Config fills in the lints they leave out).
    pub lints: LintLevels,
    /// Which clusters' trees are emitted (all are scheduled).
    pub clusters: ClusterFilter,
    /// `--kubernetes-version [CLUSTER=]VERSION`.
    pub kubernetes_versions: Vec<VersionChoice>,
    /// `--karmada-version`: beats the Config's `spec.karmada.version`.
    pub karmada_version: Option<String>,
    /// Where the run records how far it has got.
    pub progress: Progress,
    /// The Config lint levels the run is judged by, when not its fleet's own: `diff --base`
    /// judges the head by the base's Config, so that a pull request cannot lower its own gate.
    pub config_lints: Option<BTreeMap<Lint, Level>>,
    /// The moment the FederatedHPAs and CronFederatedHPAs are rendered at (`--at-replicas`,
    /// `--at`); by default the templates' replicas as written.
    pub moment: crate::controllers::federated_hpa::Moment,
}

/// Everything after reading: the files parsed, classified and admitted into the fleet, judged
/// against the Karmada release its policies are for, with the schema checker for its objects.
/// An input that does not assemble is reported by its errors alone.
pub fn assemble(inputs: Inputs, options: &Options) -> Outcome<Fleet> {
    let Inputs {
        mut files,
        documents,
        parse_errors,
        fleet_dir,
        sources,
        inventory,
        crd_files,
        warnings: read_warnings,
        reread,
        argocd,
        argocd_read,
    } = inputs;
    // Errors of assembling (a CRD the API server refuses, at its rule) point at their fields.
    let reread_errors = reread.clone();
    let assembled = (|| -> Result<(Fleet, Vec<Diagnostic>), Rejected> {
        let argocd = match &argocd {
            Some(inputs) => Some(read_argocd_fleet(
                &mut files,
                &documents,
                inventory.as_ref(),
                inputs,
                argocd_read,
            )?),
            None => None,
        };
        let input_file_count = files.len();
        files.extend(inventory);
        let crds = crds_in(&crd_files)?;
        let trusted: Vec<serde_json::Value> = crds.iter().map(|(crd, _)| crd.clone()).collect();
        let (mut fleet, warnings) = fleet::assemble_parsed(
            &files,
            input_file_count,
            documents,
            parse_errors,
            &trusted,
            argocd,
        )?;
        fleet.sources = sources;
        fleet.reread = reread;
        fleet::check_flag_configs_are_on_top(&fleet, &fleet_dir)?;
        let scaling_warnings = fleet.scale_to(&options.moment)?;
        let release =
            karmada_release::choose(options.karmada_version.as_deref(), fleet.karmada.as_ref())?;
        let release_warnings = karmada_release::judge(&fleet, &release)?;
        let (checker, schema_warnings, kind_warnings) =
            fleet::schema_checker(&fleet, &options.kubernetes_versions, &crds)?;
        fleet.checker = Some(checker);
        fleet.kind_warnings = kind_warnings;
        let warnings: Vec<Diagnostic> = read_warnings
            .into_iter()
            .chain(warnings)
            .chain(release_warnings)
            .chain(schema_warnings)
            .chain(scaling_warnings)
            .collect();
        Ok((fleet, warnings))
    })();
    match assembled {
        Ok((fleet, warnings)) => Outcome {
            result: Ok(fleet),
            warnings,
        },
        Err(mut rejected) => {
            locate_fields(&reread_errors, &mut rejected.errors);
            Outcome::rejected(rejected)
        }
    }
}

/// An Argo CD fleet's Applications deployed: the manifest files each deploys are read after
/// the fleet's files (so that a message about one points at its line), each document with the
/// Application that deploys it.
fn read_argocd_fleet(
    files: &mut Vec<SourceFile>,
    documents: &[RawDocument],
    inventory: Option<&SourceFile>,
    inputs: &crate::argocd::repositories::ArgoCdInputs,
    already_read: Option<crate::argocd::fleet::ArgoCdFleet>,
) -> Result<fleet::ArgoCdDocuments, Rejected> {
    let read = match already_read {
        Some(read) => read,
        None => {
            let (inventory_documents, _) =
                documents::parse_files(inventory.map(std::slice::from_ref).unwrap_or(&[]));
            crate::argocd::fleet::read(documents, files, &inventory_documents, inputs)?
        }
    };
    if let Some(tool) = read.deployed.tools.first() {
        return Err(Diagnostic::error(
            Some(tool.target.origin.clone()),
            format!(
                "{}: its source {} is rendered by a tool, which only the command line runs",
                tool.target.application, tool.dir
            ),
        )
        .into());
    }
    // A checkout's file is the same text for every Application that deploys it (a service's
    // manifests go to each of its clusters): it is parsed once, and its documents copied for
    // each Application, rather than parsed once per Application.
    let mut unique: Vec<SourceFile> = Vec::new();
    let mut slot_of_path: std::collections::HashMap<Arc<str>, usize> = Default::default();
    let mut slots = Vec::with_capacity(read.deployed.files.len());
    let mut targets = Vec::with_capacity(read.deployed.files.len());
    for deployed in read.deployed.files {
        let slot = match slot_of_path.get(&deployed.file.path) {
            Some(&slot) if unique[slot].text == deployed.file.text => slot,
            _ => {
                slot_of_path.insert(deployed.file.path.clone(), unique.len());
                unique.push(deployed.file);
                unique.len() - 1
            }
        };
        slots.push(slot);
        targets.push(deployed.target);
    }
    let parsed = documents::parse_each_file_at(&unique, files.len());
    let errors: Vec<Diagnostic> = parsed
        .iter()
        .flat_map(|(_, file_errors)| file_errors.iter().cloned())
        .collect();
    if !errors.is_empty() {
        return Err(errors.into());
    }
    let mut deployed_documents = Vec::new();
    for (slot, target) in slots.into_iter().zip(targets) {
        deployed_documents.extend(
            parsed[slot]
                .0
                .iter()
                .map(|document| (document.clone(), target.clone())),
        );
    }
    files.extend(unique);
    Ok(fleet::ArgoCdDocuments {
        documents: deployed_documents,
        clusters: read.clusters,
    })
}

/// The CustomResourceDefinitions in the files `--crds` names; other documents there are not
/// read.
fn crds_in(files: &[SourceFile]) -> Result<Vec<(serde_json::Value, Origin)>, Rejected> {
    let (parsed, errors) = documents::parse_files(files);
    if !errors.is_empty() {
        return Err(errors.into());
    }
    Ok(parsed
        .into_iter()
        .filter(|document| fleet::is_crd(&document.value))
        .map(|document| (document.value, document.origin))
        .collect())
}

/// A fleet placed and laid out, every warning known and judged: ready to render.
#[derive(Debug)]
pub struct Run<'f> {
    placed: Placed<'f>,
    layout: TreeLayout,
    /// The command line's lint levels over the fleet's Config's.
    levels: LintLevels,
    progress: Progress,
    late_warnings: Arc<Mutex<Vec<Diagnostic>>>,
}

impl<'f> Run<'f> {
    /// Places every template of `fleet` (the warnings it was assembled with are `warnings`),
    /// keeps the clusters the options ask for and lays out their trees; then judges every
    /// warning by its lint level, so that a denied one fails the run before anything is
    /// rendered; and sets the schema checks by the same levels.
    pub fn new(
        fleet: &'f Fleet,
        mut warnings: Vec<Diagnostic>,
        options: &Options,
    ) -> Outcome<Run<'f>> {
        let result = (|| {
            options.progress.begin(Stage::Placing, 0);
            let mut placed = render::place(fleet)?;
            placed.record_progress_in(options.progress.clone());
            // The schema checker's word on kinds, for the kinds of objects sent somewhere, as
            // the last of the fleet's own warnings.
            warnings.extend(placed.sent_kind_warnings());
            warnings.append(&mut placed.warnings);
            let mut names: Vec<&str> = fleet.clusters.iter().map(|c| c.name()).collect();
            let filter = &options.clusters;
            let kept = if filter.is_everything() {
                None
            } else {
                let kept = filter.select(&fleet.clusters).map_err(|problems| {
                    Rejected::from(
                        problems
                            .into_iter()
                            .map(|problem| Diagnostic::error(None, problem))
                            .collect::<Vec<_>>(),
                    )
                })?;
                placed.emit_only(&kept);
                names = names
                    .into_iter()
                    .zip(&kept)
                    .filter_map(|(name, &keep)| keep.then_some(name))
                    .collect();
                Some(kept)
            };
            let mut layout = TreeLayout::new(&names, placed.destinations())?;
            if kept.is_some() {
                layout = layout.partial();
            }
            let levels = options
                .lints
                .over(options.config_lints.as_ref().unwrap_or(&fleet.lint_levels));
            let (kept, denied) = levels.apply(std::mem::take(&mut warnings));
            warnings = kept;
            if !denied.is_empty() {
                return Err(Rejected::from(denied));
            }
            placed.check_schemas(levels.clone());
            let late_warnings = placed.late_warnings();
            Ok(Run {
                placed,
                layout,
                levels,
                progress: options.progress.clone(),
                late_warnings,
            })
        })();
        Outcome { result, warnings }
    }

    /// The fleet run.
    pub fn fleet(&self) -> &'f Fleet {
        self.placed.fleet()
    }

    /// Where every template went, for the stages that ask more of it than the run does.
    pub fn placed(&self) -> &Placed<'f> {
        &self.placed
    }

    /// The output tree's layout: every cluster emitted, every file's path.
    pub fn layout(&self) -> &TreeLayout {
        &self.layout
    }

    /// The lint levels the run judges by: the command line's over the fleet's Config's.
    pub fn levels(&self) -> &LintLevels {
        &self.levels
    }

    /// Adds the objects that deploy the trees with Argo CD or Flux to the layout; with
    /// `member_hpas`, the HorizontalPodAutoscalers that keep each FederatedHPA on the members,
    /// or an error for each that they cannot keep.
    pub fn with_gitops(&mut self, settings: &GitopsSettings) -> Result<(), Rejected> {
        let fleet = self.placed.fleet();
        let mut autoscaled = gitops::hpa_targets(&fleet.templates);
        let mut member_hpas = Vec::new();
        if settings.member_hpas {
            let (hpas, warnings) = self.placed.member_hpas()?;
            let (kept, denied) = self.levels.apply(warnings);
            if !denied.is_empty() {
                return Err(Rejected::from(denied));
            }
            self.late_warnings
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .extend(kept);
            for hpa in &hpas {
                let name = hpa.object["metadata"]["name"].as_str().unwrap_or_default();
                autoscaled.insert(hpa.target.clone(), name.to_string());
            }
            member_hpas = hpas;
        }
        let left = gitops::LeftToMembers {
            autoscaled,
            retained_replicas: self.placed.replicas_retained(),
            preserved: gitops::preserved(
                &fleet.templates,
                &self.placed.preserved_on_deletion(),
                &self.placed.preserved_only_on(),
            ),
            member_hpas,
        };
        let wiring = gitops::files(settings, &fleet.clusters, &left);
        self.layout = std::mem::take(&mut self.layout).with_wiring(wiring);
        Ok(())
    }

    /// Builds every object, `chunk` templates at a time, each chunk handed to `consume` whole
    /// ([`Placed::render_chunks`]).
    pub fn render<F>(&self, chunk: usize, consume: F) -> Result<(), Rejected>
    where
        F: FnMut(Vec<(usize, RenderedTemplate)>) -> Result<(), Rejected>,
    {
        self.placed.render_chunks(chunk, consume)
    }

    /// Writes every object to `out` as one YAML stream, each chunk as soon as it is rendered
    /// (`output::write_stream` says in which order), so that memory holds one chunk. Writing
    /// stops at the first write error, which is returned; rendering goes on for its own errors.
    pub fn stream(
        &self,
        chunk: usize,
        out: &mut impl std::io::Write,
    ) -> Result<Option<std::io::Error>, Rejected> {
        let order = self.layout.stream_order();
        self.progress.begin(Stage::Rendering, order.len());
        let mut write_error = None;
        self.placed.render_only(order, chunk, |rendered| {
            if write_error.is_none()
                && let Err(error) = output::write_stream(&self.layout, &rendered, out)
            {
                write_error = Some(error);
            }
            Ok(())
        })?;
        if write_error.is_none()
            && let Err(error) = out.flush()
        {
            write_error = Some(error);
        }
        Ok(write_error)
    }

    /// The whole fleet rendered into memory (for `--stdout` and tests), with the plan when the
    /// run was asked to explain itself.
    pub fn tree(&mut self) -> Result<RenderedFleet, Rejected> {
        let tree = OutputTree::collect(&self.layout, &self.placed)?;
        Ok(RenderedFleet { tree })
    }

    /// Every object rendered and checked, counted and dropped (`validate`, `plan`): no object
    /// is held longer than it takes to build it.
    pub fn summary(&mut self) -> Result<FleetSummary, Rejected> {
        self.placed.render_chunks(CHUNK, |_| Ok(()))?;
        let fleet = self.placed.fleet();
        let layout = &self.layout;
        Ok(FleetSummary {
            clusters: layout.clusters().len(),
            cluster_names: layout.clusters().to_vec(),
            objects: layout.object_count(),
            sources: fleet.sources.clone(),
            ignored_operations: fleet.interpreter.customizations().ignored.clone(),
            taint_changes: fleet.taint_changes.clone(),
            kubernetes_versions: match self.placed.checker() {
                Some(checker) => (fleet.clusters.iter().enumerate())
                    .filter(|(_, cluster)| layout.clusters().iter().any(|c| c == cluster.name()))
                    .map(|(position, cluster)| {
                        (cluster.name().to_string(), checker.version_of(position))
                    })
                    .collect(),
                None => Default::default(),
            },
            capacity: self.placed.capacity(),
        })
    }

    /// Every object the fleet holds (templates, KubeFed's federated objects, quotas), by key,
    /// in the order of the run's lanes.
    pub fn object_keys(&self) -> impl Iterator<Item = &crate::object::ObjectKey> {
        (0..self.placed.object_count()).map(|position| self.placed.key(position))
    }

    /// Why each object the fleet holds went where it went, in object order, handed to `each`
    /// [`CHUNK`] objects explained at a time, so that a plan of any fleet holds one chunk; only
    /// the objects whose key `keeps` chooses.
    pub fn explain_each<E>(
        &self,
        keeps: impl Fn(&crate::object::ObjectKey) -> bool,
        each: impl FnMut(PlanEntry) -> Result<(), E>,
    ) -> Result<(), E> {
        self.placed.explain_each(CHUNK, keeps, each)
    }

    /// Ends the run with `result`: the warnings found while building objects, in a stable
    /// order, and those and the result's errors pointed at their fields' own lines.
    pub fn finish<T>(self, mut result: Result<T, Rejected>) -> Outcome<T> {
        let reread = &self.placed.fleet().reread;
        let mut late = std::mem::take(
            &mut *self
                .late_warnings
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner()),
        );
        locate_fields(reread, &mut late);
        if let Err(rejected) = &mut result {
            locate_fields(reread, &mut rejected.errors);
        }
        // Objects render in parallel: their warnings are put in a stable order.
        late.sort_by(|a, b| (&a.origin, &a.message).cmp(&(&b.origin, &b.message)));
        Outcome {
            result,
            warnings: late,
        }
    }
}

/// The whole door in one call: [`assemble`], [`Run::new`], `then` with the run, and
/// [`Run::finish`].
pub fn run<T>(
    inputs: Inputs,
    options: &Options,
    then: impl FnOnce(&mut Run<'_>) -> Result<T, Rejected>,
) -> Outcome<T> {
    let Outcome { result, warnings } = assemble(inputs, options);
    let fleet = match result {
        Ok(fleet) => fleet,
        Err(rejected) => {
            return Outcome {
                result: Err(rejected),
                warnings,
            };
        }
    };
    Run::new(&fleet, warnings, options).and_then(|mut run| {
        let result = then(&mut run);
        run.finish(result)
    })
}

/// Points each message about a field of an object at the field's own line, where the object
/// was read from a YAML file of its own document and `reread` can read it again (objects from
/// a List, a tool or standard input keep their document's line).
fn locate_fields(reread: &Reread, diagnostics: &mut [Diagnostic]) {
    let mut by_file: BTreeMap<Arc<str>, Vec<&mut Diagnostic>> = BTreeMap::new();
    for diagnostic in diagnostics {
        if let (Some(origin), Some(_)) = (&diagnostic.origin, diagnostic.about().field) {
            by_file
                .entry(origin.file.clone())
                .or_default()
                .push(diagnostic);
        }
    }
    for (file, diagnostics) in by_file {
        if documents::format_of(Path::new(&*file)) != Some(Format::Yaml) {
            continue;
        }
        let Some(text) = reread.read(&file) else {
            continue;
        };
        let source = SourceFile::new(file.clone(), text, Format::Yaml);
        documents::locate_fields_in(&source, diagnostics);
    }
}

/// A fleet rendered in memory.
#[derive(Debug, Clone, Default)]
pub struct RenderedFleet {
    /// Every cluster's files.
    pub tree: OutputTree,
}

impl RenderedFleet {
    /// How many objects the trees hold (an object on three clusters counts once).
    pub fn object_count(&self) -> usize {
        self.tree.object_count
    }
}

/// A fleet rendered and checked, its objects counted and dropped.
#[derive(Debug, Clone, Default)]
pub struct FleetSummary {
    /// How many clusters were emitted.
    pub clusters: usize,
    /// The member clusters, sorted.
    pub cluster_names: Vec<String>,
    /// How many objects were rendered (an object on three clusters counts once).
    pub objects: usize,
    /// The sources a tool rendered, with what each ran.
    pub sources: Vec<SourceRun>,
    /// Operations of the fleet's interpreter customizations that only a live control plane
    /// runs.
    pub ignored_operations: Vec<IgnoredOperations>,
    /// The taints ClusterTaintPolicies put on or took off clusters.
    pub taint_changes: Vec<TaintChange>,
    /// The Kubernetes version each cluster's objects were checked against, by cluster name;
    /// empty when nothing was checked.
    pub kubernetes_versions: BTreeMap<String, ClusterVersion>,
    /// What the workloads ask of each emitted cluster and of each enforced quota.
    pub capacity: crate::render::capacity::Capacity,
}
