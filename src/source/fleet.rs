//! Reading a whole fleet from disk: the input directory (or one file, or standard input), what
//! its tools render, the inventory and the CRD files `--crds` names, handed to the engine as
//! its [`Inputs`].

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::confine::Confinement;
use crate::source::files;
use crate::source::load::{self, FileFilter};
use crate::source::tools::{self, ToolCache, ToolSettings};
use fedrender_engine::api::config::{CONFIG_API_VERSION, SourcesConfig};
use fedrender_engine::argocd::deploy::{ApplicationTarget, ToolDeployment};
use fedrender_engine::argocd::directory::SourceKind;
use fedrender_engine::diagnostics::{Diagnostic, Rejected};
use fedrender_engine::documents::{self, Reread, SourceFile};
use fedrender_engine::fleet::SourceRun;
use fedrender_engine::progress::Stage;
use fedrender_engine::run::{self, Inputs, Options, Outcome, Run};

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
            crds: Vec::new(),
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

/// Reads the fleet and runs it through the engine's door ([`fedrender_engine::run::run`]): the
/// fleet assembled, placed and laid out, every warning judged; then `then` with the run.
pub fn run_fleet<T>(
    source: &FleetSource,
    options: &Options,
    then: impl FnOnce(&mut Run<'_>) -> Result<T, Rejected>,
) -> Outcome<T> {
    options.progress.begin(Stage::Reading, 0);
    match read_fleet(source) {
        Ok(inputs) => run::run(inputs, options, then),
        Err(rejected) => Outcome::rejected(rejected),
    }
}

/// The fleet read from disk, its tools run: everything the engine needs to assemble it.
pub fn read_fleet(source: &FleetSource) -> Result<Inputs, Rejected> {
    let filter = FileFilter {
        include: source.include.clone(),
        exclude: source.exclude.clone(),
        inventory: match &source.inventory {
            Inventory::File(path) => Some(path.clone()),
            Inventory::Stdin | Inventory::InputOnly => None,
        },
        skip_dirs: Vec::new(),
    };
    let kind = input_kind(source)?;
    // An Argo CD fleet's checkouts are read as Argo CD's repo server reads them, never as the
    // fleet's own files.
    let argocd = match kind {
        InputKind::Directory => {
            crate::source::command_defaults::command_defaults(&source.input)?.argocd_settings()
        }
        InputKind::File | InputKind::Stdin => None,
    };
    let mut filter = filter;
    if let Some((checkouts, _)) = &argocd {
        filter.skip_dirs = checkouts
            .repositories
            .iter()
            .filter_map(|checkout| checkout.dir.canonicalize().ok())
            .collect();
    }
    let argocd = match argocd {
        Some((checkouts, new_git_file_globbing)) => {
            Some(fedrender_engine::argocd::repositories::ArgoCdInputs {
                repositories: crate::source::argocd::read_checkouts(&checkouts)?,
                new_git_file_globbing,
            })
        }
        None => None,
    };
    let (files, found_sources, listing_warnings) = match kind {
        InputKind::Directory => {
            let listing = load::list_input_files(&source.input, &filter)?;
            (
                files::read_input_files(&listing.paths)?,
                listing.sources,
                listing.warnings,
            )
        }
        InputKind::File => (
            files::read_input_files(std::slice::from_ref(&source.input))?,
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
    let mut inputs = Inputs::new(&source.input, files);
    inputs.warnings = listing_warnings;
    inputs.argocd = argocd;
    if !found_sources.is_empty() {
        let settings = tool_settings(&source.tools, &source.input, &inputs)?;
        let tool_sources = tools::resolve(&found_sources, &settings)?;
        inputs.add_rendered(tools::render(
            &tool_sources,
            &settings,
            &source.tools.cache,
        )?);
    }
    inputs.inventory = match &source.inventory {
        Inventory::File(path) => Some(read_inventory(path)?),
        Inventory::Stdin => Some(documents::source_from_text(
            "<stdin>",
            read_stdin("the inventory")?,
        )),
        Inventory::InputOnly => None,
    };
    inputs.crd_files = read_crd_files(&source.crds)?;
    inputs.reread = Reread::with(files::read_again);
    render_argocd_tool_sources(source, &mut inputs)?;
    Ok(inputs)
}

/// An Argo CD fleet's kustomize and Helm sources, rendered as the fleet's own are (confined,
/// timed, without the network): Helm's release is the Application's name and its namespace
/// the destination's, as Argo CD's repo server runs `helm template`. A kustomization the
/// Application's kustomize options edit is built in a staged copy of its checkout, confined to
/// the copy.
fn render_argocd_tool_sources(source: &FleetSource, inputs: &mut Inputs) -> Result<(), Rejected> {
    let deployments = inputs.argocd_tool_sources()?;
    if deployments.is_empty() {
        return Ok(());
    }
    let settings = tool_settings(&source.tools, &source.input, inputs)?;
    // Rendered in two groups, put back in the Applications' order.
    let (edited, plain): (Vec<_>, Vec<_>) = deployments
        .into_iter()
        .enumerate()
        .partition(|(_, deployment)| deployment.kustomization.is_some());
    let tool_source = |deployment: &ToolDeployment, dir: PathBuf| {
        let tool = match deployment.kind {
            SourceKind::Kustomize => tools::Tool::Kustomize,
            SourceKind::Helm | SourceKind::Directory => {
                tools::Tool::Helm(Box::new(deployment.helm.clone()))
            }
        };
        tools::ToolSource {
            found: tools::FoundSource {
                markers: tools::markers_in(&dir),
                dir,
            },
            tool,
            origin: deployment.target.origin.clone(),
        }
    };
    let plain_sources: Vec<tools::ToolSource> = plain
        .iter()
        .map(|(_, deployment)| tool_source(deployment, PathBuf::from(&deployment.dir)))
        .collect();
    let mut rendered: Vec<(usize, (SourceFile, SourceRun, ApplicationTarget))> =
        tools::render(&plain_sources, &settings, &source.tools.cache)
            .map_err(once_each)?
            .into_iter()
            .zip(plain)
            .map(|((file, run), (at, deployment))| (at, (file, run, deployment.target)))
            .collect();
    if !edited.is_empty() {
        let mut staged = crate::source::argocd::StagedCheckouts::new()?;
        let mut edited_sources = Vec::new();
        for (_, deployment) in &edited {
            let edit = deployment
                .kustomization
                .as_ref()
                .expect("partitioned on an edited kustomization");
            let copy = staged.stage(&deployment.checkout, edit)?;
            let within = Path::new(&deployment.dir)
                .strip_prefix(&deployment.checkout)
                .unwrap_or(Path::new(""));
            edited_sources.push(tool_source(deployment, copy.join(within)));
        }
        let staged_settings = tools::ToolSettings {
            fleet: Confinement::new(staged.root())
                .map_err(|message| Rejected::from(Diagnostic::error(None, message)))?,
            ..settings.clone()
        };
        let outputs = tools::render(&edited_sources, &staged_settings, &source.tools.cache)
            .map_err(|mut rejected| {
                for error in &mut rejected.errors {
                    error.message = staged.unstaged(&error.message);
                    error.detail = error
                        .detail
                        .as_deref()
                        .map(|detail| staged.unstaged(detail));
                }
                once_each(rejected)
            })?;
        for ((mut file, mut run), (at, deployment)) in outputs.into_iter().zip(edited) {
            // The output is the fleet's checkout's, as the unedited build's is; where kustomize
            // said each object was written is in the copy, so objects keep their output lines.
            run.source = staged.unstaged(&run.source);
            file.path = run.output_name().into();
            file.written_at = Vec::new();
            rendered.push((at, (file, run, deployment.target)));
        }
    }
    rendered.sort_by_key(|(at, _)| *at);
    inputs.add_argocd_rendered(rendered.into_iter().map(|(_, output)| output).collect());
    Ok(())
}

/// Each error once: Applications that share a source (an ApplicationSet's, one per cluster)
/// run it alike and fail alike, at the same line.
fn once_each(mut rejected: Rejected) -> Rejected {
    let mut seen = std::collections::HashSet::new();
    rejected.errors.retain(|error| {
        seen.insert((
            error.origin.as_ref().map(ToString::to_string),
            error.message.clone(),
        ))
    });
    rejected
}

/// The inventory file; one that is not there gets the inventories near where it was looked for,
/// since a mistyped `--clusters` path is the commonest first error.
fn read_inventory(path: &Path) -> Result<SourceFile, Rejected> {
    match files::read_files(&[path.to_path_buf()]) {
        Ok(mut read) => Ok(read.remove(0)),
        Err(mut rejected) if !path.exists() => {
            let nearby = inventories_near(path);
            if let (Some(error), false) = (rejected.errors.first_mut(), nearby.is_empty()) {
                error.message.push_str(&format!(
                    "; inventories nearby: {}",
                    nearby
                        .iter()
                        .map(|found| found.display().to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            Err(rejected)
        }
        Err(rejected) => Err(rejected),
    }
}

/// Up to three files that look like inventories (a YAML file with `cluster` or `inventory` in
/// its name, or holding `kind: Cluster`), within three levels of the nearest directory of
/// `missing` that exists, nearest in spelling to `missing` first. The search reads at most
/// 2,000 entries and the first 4 KiB of a file, however large the tree.
fn inventories_near(missing: &Path) -> Vec<PathBuf> {
    const ENTRIES_LOOKED_AT: usize = 2_000;
    const SHOWN: usize = 3;
    let start = missing
        .ancestors()
        .skip(1)
        .find(|dir| dir.as_os_str().is_empty() || dir.is_dir())
        .map(|dir| {
            if dir.as_os_str().is_empty() {
                Path::new(".")
            } else {
                dir
            }
        })
        .unwrap_or(Path::new("."));
    let looks_like_an_inventory = |path: &Path| {
        let name = path
            .file_name()
            .map(|name| name.to_string_lossy().to_lowercase())
            .unwrap_or_default();
        if !(name.ends_with(".yaml") || name.ends_with(".yml")) {
            return false;
        }
        if name.contains("cluster") || name.contains("inventory") {
            return true;
        }
        let mut head = [0u8; 4096];
        std::fs::File::open(path)
            .and_then(|mut file| file.read(&mut head))
            .is_ok_and(|read| String::from_utf8_lossy(&head[..read]).contains("kind: Cluster\n"))
    };
    let mut found: Vec<PathBuf> = walkdir::WalkDir::new(start)
        .max_depth(3)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|entry| {
            entry.depth() == 0
                || !(entry.file_name().to_string_lossy().starts_with('.')
                    || entry.file_name() == "target"
                    || entry.file_name() == "node_modules")
        })
        .take(ENTRIES_LOOKED_AT)
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_file() && looks_like_an_inventory(entry.path()))
        .map(|entry| entry.into_path())
        .collect();
    let wanted = missing.to_string_lossy();
    found.sort_by_cached_key(|path| {
        let path = path.strip_prefix("./").unwrap_or(path);
        (
            fedrender_engine::edit_distance::distance(&wanted, &path.to_string_lossy()),
            path.to_path_buf(),
        )
    });
    found.truncate(SHOWN);
    found
        .into_iter()
        .map(|path| {
            path.strip_prefix("./")
                .map(Path::to_path_buf)
                .unwrap_or(path)
        })
        .collect()
}

/// The files and directories `--crds` names (a directory is read as a fleet directory is,
/// `kubectl get crds -o yaml` Lists included).
fn read_crd_files(paths: &[PathBuf]) -> Result<Vec<SourceFile>, Rejected> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let listing = load::list_input_files(path, &FileFilter::default())?;
            files.extend(files::read_input_files(&listing.paths)?);
        } else {
            files.extend(files::read_files(std::slice::from_ref(path))?);
        }
    }
    Ok(files)
}

/// The settings for running tools: the command line's, and the `spec.sources` of a fedrender
/// Config among the plain files (a tool's output cannot change how tools run). A Config that
/// does not decode is reported, with its line, where every Config is checked.
fn tool_settings(
    options: &ToolOptions,
    fleet: &std::path::Path,
    inputs: &Inputs,
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
    for document in inputs.documents() {
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
                .field_lines(inputs.files())
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

/// Standard input, read once: `diff --base` reads a fleet more than once (one fleet placed at a
/// time), and standard input can feed only one of its inputs.
fn read_stdin(what: &str) -> Result<String, Rejected> {
    static STDIN: std::sync::OnceLock<Result<String, String>> = std::sync::OnceLock::new();
    let read = STDIN.get_or_init(|| {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map(|_| text)
            .map_err(|error| error.to_string())
    });
    read.clone().map_err(|error| {
        Rejected::from(Diagnostic::error(
            None,
            format!("cannot read {what} from standard input: {error}"),
        ))
    })
}
