//! Templates a tool renders: kustomize directories, Helm charts and declared commands.
//!
//! Loading finds these sources while it walks the fleet ([`markers_in`]); here they are read
//! (declarations, kustomizations) and run, in parallel, each in its own directory with a clean
//! environment. A source's standard output becomes one input file named after the source,
//! `apps/web/ (kustomize)`, so every message about one of its objects says where the object
//! came from, with the line within the tool's output.
//!
//! The fleet is a pull request's to write, so before any tool runs, everything each one will
//! read is checked here: every path a declaration or kustomization names, and every link
//! beneath a source's directory, must lead inside the fleet ([`Confinement`]); a kustomization
//! may fetch nothing (remote bases, URLs) without `--allow-network` (what it names is read in
//! [`super::kustomization`]); a command runs only with
//! `--allow-exec`; a Helm release name cannot pose as a flag. One refusal stops every tool.
//! How a tool runs (found on `PATH`, timed, capped, killed) is [`super::run`]'s.

use std::collections::HashMap;
use std::ffi::OsStr;
use std::hash::{Hash, Hasher};
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};

use rayon::prelude::*;
use serde_json::Value;

use crate::confine::Confinement;
use crate::source::files;
use crate::source::helm::{
    CHART_FILE, default_release_name_problem, helm_template_argv, release_name_problem,
};
use crate::source::run::{self, Limits, RunError};
use fedrender_engine::api::config::CONFIG_API_VERSION;
use fedrender_engine::api::source::{
    DECLARATION_FILE, HelmSetKind, HelmSource, REMOTE_CHART_FIELDS, SourceDeclaration,
};
use fedrender_engine::diagnostics::{Diagnostic, ErrorSink, Origin, Rejected};
use fedrender_engine::documents::{self, Format, SourceFile};
use fedrender_engine::fleet::SourceRun;

use crate::source::kustomization::{is_remote, kustomize_reads};
use crate::source::kustomize_origin;
use fedrender_engine::classify::{KUSTOMIZATION_FILES, is_kustomize_object};

/// A directory of the fleet whose templates a tool renders, as loading found it.
#[derive(Debug, Clone)]
pub struct FoundSource {
    /// The directory as the user names it (`FLEET_DIR` joined with its relative path).
    pub dir: PathBuf,
    /// The files that make it a source: a declaration, a chart, a kustomization.
    pub markers: Vec<&'static str>,
}

impl FoundSource {
    /// `apps/web/`, as messages name the source.
    pub fn name(&self) -> String {
        let mut name = self.dir.display().to_string();
        if !name.ends_with('/') {
            name.push('/');
        }
        name
    }

    fn kustomization(&self) -> Option<&'static str> {
        self.markers
            .iter()
            .copied()
            .find(|marker| KUSTOMIZATION_FILES.contains(marker))
    }
}

/// The marker files `dir` holds, in the order they decide what the directory is. A file named
/// like a kustomization is one only when it is kustomize's: the kustomization fedrender writes
/// into each cluster's directory does not count (a rendered tree inside the input is never
/// input), nor does another kind saved under that name, such as a Flux `Kustomization`
/// (Flux's guides save theirs as `kustomization.yaml`; `kubectl apply -f` reads it as an
/// object).
pub fn markers_in(dir: &Path) -> Vec<&'static str> {
    std::iter::once(DECLARATION_FILE)
        .chain(std::iter::once(CHART_FILE))
        .chain(KUSTOMIZATION_FILES)
        .filter(|marker| {
            let path = dir.join(marker);
            path.is_file()
                && !(KUSTOMIZATION_FILES.contains(marker)
                    && (written_by_fedrender(&path) || !is_kustomize_file(&path)))
        })
        .collect()
}

/// Whether a file named like a kustomization is kustomize's: no `apiVersion` and `kind`, or
/// kustomize's own (`kustomize.config.k8s.io`, `Kustomization` or `Component`). One that does
/// not parse is kustomize's, for kustomize to report.
fn is_kustomize_file(path: &Path) -> bool {
    let Ok(files) = files::read_files(&[path.to_path_buf()]) else {
        return true;
    };
    let (parsed, _) = documents::parse_files(&files);
    parsed
        .first()
        .is_none_or(|document| is_kustomize_object(&document.value))
}

fn written_by_fedrender(path: &Path) -> bool {
    use std::io::Read;
    let header = fedrender_engine::manifest::HEADER.trim_end().as_bytes();
    let mut start = vec![0; header.len()];
    std::fs::File::open(path)
        .and_then(|mut file| file.read_exact(&mut start))
        .is_ok_and(|()| start == header)
}

/// What runs a source.
#[derive(Debug, Clone, PartialEq)]
pub enum Tool {
    Kustomize,
    Helm(Box<HelmSource>),
    /// argv, from a declaration.
    Command(Vec<String>),
}

impl Tool {
    pub fn name(&self) -> &'static str {
        match self {
            Tool::Kustomize => "kustomize",
            Tool::Helm(_) => "helm",
            Tool::Command(_) => "command",
        }
    }
}

/// A source with its tool decided.
#[derive(Debug, Clone)]
pub struct ToolSource {
    pub found: FoundSource,
    pub tool: Tool,
    /// Where the tool was chosen: the declaration, else the chart or kustomization.
    pub origin: Origin,
}

/// What the command line and the fleet's Config say about running tools.
#[derive(Debug, Clone)]
pub struct ToolSettings {
    /// The fleet directory: everything a tool reads must lie inside it.
    pub fleet: Confinement,
    /// `--allow-exec`.
    pub allow_exec_flag: bool,
    /// `--allow-network`: kustomizations may name remote bases and URLs.
    pub allow_network: bool,
    /// `--tool-timeout` and `--max-tool-output`.
    pub limits: Limits,
    /// `--kustomize COMMAND`, split on spaces.
    pub kustomize_flag: Option<Vec<String>>,
    /// The Config's `spec.sources.kustomize`: a command the fleet names, so it runs only
    /// where commands may.
    pub kustomize_config: Option<(Vec<String>, Origin)>,
}

impl ToolSettings {
    /// Only the command line lets commands run: everything in the fleet is the pull
    /// request's to write.
    fn allows_exec(&self) -> bool {
        self.allow_exec_flag
    }
}

/// Outputs of sources already run, by a hash of the command and every byte it reads, so that
/// `diff --base` renders a source both revisions hold unchanged once.
#[derive(Debug, Default)]
pub struct ToolCache {
    outputs: Mutex<HashMap<u64, Result<String, RunError>>>,
}

/// Decides each source's tool from its marker files and declaration. Errors name the file and
/// line of what is wrong, among them a value file outside the fleet or on the network, and a
/// release name that is not one.
pub fn resolve(
    found: &[FoundSource],
    settings: &ToolSettings,
) -> Result<Vec<ToolSource>, Rejected> {
    let declaration_paths: Vec<PathBuf> = found
        .iter()
        .filter(|source| source.markers.contains(&DECLARATION_FILE))
        .map(|source| source.dir.join(DECLARATION_FILE))
        .collect();
    let declaration_files = files::read_files(&declaration_paths)?;
    let (documents, parse_errors) = documents::parse_files(&declaration_files);
    let mut errors = ErrorSink::default();
    for error in parse_errors {
        errors.push(error);
    }
    let mut declarations: HashMap<&str, (SourceDeclaration, Origin, Value)> = HashMap::new();
    for document in &documents {
        let file = &*document.origin.file;
        if declarations.contains_key(file) {
            errors.push(Diagnostic::error(
                Some(document.origin.clone()),
                "a source declaration holds one document",
            ));
            continue;
        }
        let field_lines = document.field_lines(&declaration_files);
        let at = |field: &str| field_lines.origin(&document.origin, field);
        let value = &document.value;
        let mut remote = false;
        for (prefix, fields) in [
            ("spec", &value["spec"]),
            ("spec.helm", &value["spec"]["helm"]),
        ] {
            for field in REMOTE_CHART_FIELDS {
                if fields.get(field).is_some() {
                    remote = true;
                    errors.push(Diagnostic::error(
                        Some(at(&format!("{prefix}.{field}"))),
                        format!(
                            "{prefix}.{field}: charts from a repository or OCI registry are out \
                             of scope, because fedrender renders offline; vendor the chart into \
                             this directory (helm pull CHART --untar) and declare its values here"
                        ),
                    ));
                }
            }
        }
        if remote {
            continue;
        }
        let Some(declaration) =
            errors.take(document.decode::<SourceDeclaration>(&declaration_files))
        else {
            continue;
        };
        if declaration.api_version != CONFIG_API_VERSION || declaration.kind != "Source" {
            errors.push(Diagnostic::error(
                Some(document.origin.clone()),
                format!("a source declaration is {CONFIG_API_VERSION} Source"),
            ));
            continue;
        }
        if let Some(helm) = &declaration.spec.helm {
            let dir = Path::new(file).parent().unwrap_or(Path::new("."));
            let mut confined = true;
            for (index, value_file) in helm.value_files.iter().enumerate() {
                let field = format!("spec.helm.valueFiles[{index}]");
                let problem = if is_remote(value_file) {
                    (!settings.allow_network).then(|| {
                        "is fetched from the network by helm, and fedrender renders offline: \
                         vendor it into the chart's directory (--allow-network allows it)"
                            .to_string()
                    })
                } else {
                    settings.fleet.resolve(dir, value_file).err()
                };
                if let Some(problem) = problem {
                    confined = false;
                    errors.push(Diagnostic::error(
                        Some(at(&field)),
                        format!("{field} {value_file:?} {problem}"),
                    ));
                }
            }
            if let Some(name) = &helm.release_name
                && let Some(problem) = release_name_problem(name)
            {
                confined = false;
                errors.push(Diagnostic::error(
                    Some(at("spec.helm.releaseName")),
                    format!("spec.helm.releaseName {name:?} {problem}"),
                ));
            }
            if !confined {
                continue;
            }
        }
        let origin = match (&declaration.spec.helm, &declaration.spec.command) {
            (Some(_), Some(_)) => {
                errors.push(Diagnostic::error(
                    Some(at("spec.command")),
                    "spec: a source is a Helm chart or a command, not both",
                ));
                continue;
            }
            (None, None) => {
                errors.push(Diagnostic::error(
                    Some(at("spec")),
                    "spec: declare helm (for the chart in this directory) or command",
                ));
                continue;
            }
            (_, Some(argv)) if argv.first().is_none_or(String::is_empty) => {
                errors.push(Diagnostic::error(
                    Some(at("spec.command")),
                    "spec.command: give the program and its arguments as a list, e.g. \
                     [jsonnet, --yaml-stream, main.jsonnet]",
                ));
                continue;
            }
            (Some(_), None) => at("spec.helm"),
            (None, Some(_)) => at("spec.command"),
        };
        declarations.insert(file, (declaration, origin, value.clone()));
    }
    let mut sources = Vec::new();
    for source in found {
        let marker_origin =
            |marker: &str| Origin::new(source.dir.join(marker).display().to_string(), 0, 1);
        let has_chart = source.markers.contains(&CHART_FILE);
        let tool = if source.markers.contains(&DECLARATION_FILE) {
            let path = source.dir.join(DECLARATION_FILE).display().to_string();
            let Some((declaration, origin, _)) = declarations.remove(path.as_str()) else {
                // Its error is reported.
                continue;
            };
            match (declaration.spec.helm, declaration.spec.command) {
                (Some(_), _) if !has_chart => {
                    errors.push(Diagnostic::error(
                        Some(origin),
                        format!(
                            "spec.helm: {} has no {CHART_FILE}; fedrender renders charts that \
                             are in the repository (charts from a repository or OCI registry \
                             are out of scope)",
                            source.name()
                        ),
                    ));
                    continue;
                }
                (Some(helm), _) => {
                    if helm.release_name.is_none()
                        && let Some(problem) = default_release_name_problem(&source.dir)
                    {
                        errors.push(Diagnostic::error(Some(origin), problem));
                        continue;
                    }
                    ToolSource {
                        found: source.clone(),
                        tool: Tool::Helm(Box::new(helm)),
                        origin,
                    }
                }
                (None, Some(argv)) => ToolSource {
                    found: source.clone(),
                    tool: Tool::Command(argv),
                    origin,
                },
                (None, None) => unreachable!("declarations without a tool are rejected"),
            }
        } else if has_chart {
            if let Some(kustomization) = source.kustomization() {
                errors.push(Diagnostic::error(
                    Some(marker_origin(kustomization)),
                    format!(
                        "{} holds both a {CHART_FILE} and a {kustomization}; say which renders \
                         it in a {DECLARATION_FILE} (spec.helm), or move one",
                        source.name()
                    ),
                ));
                continue;
            }
            if let Some(problem) = default_release_name_problem(&source.dir) {
                errors.push(Diagnostic::error(Some(marker_origin(CHART_FILE)), problem));
                continue;
            }
            ToolSource {
                found: source.clone(),
                tool: Tool::Helm(Box::default()),
                origin: marker_origin(CHART_FILE),
            }
        } else {
            let kustomization = source
                .kustomization()
                .expect("a found source holds a marker file");
            ToolSource {
                found: source.clone(),
                tool: Tool::Kustomize,
                origin: marker_origin(kustomization),
            }
        };
        sources.push(tool);
    }
    errors.finish()?;
    Ok(sources)
}

/// Runs every source, in parallel; the outputs come back in the order of `sources` (sorted by
/// path), each as an input file named after its source, with what ran. Nothing runs until
/// every source has passed the checks of this module.
pub fn render(
    sources: &[ToolSource],
    settings: &ToolSettings,
    cache: &ToolCache,
) -> Result<Vec<(SourceFile, SourceRun)>, Rejected> {
    let mut errors = ErrorSink::default();
    if !settings.allows_exec() {
        for source in sources {
            if let Tool::Command(argv) = &source.tool {
                errors.push(Diagnostic::error(
                    Some(source.origin.clone()),
                    format!(
                        "{} asks to run {}; commands from the fleet run only with --allow-exec \
                         (a pull request could otherwise run code in CI)",
                        source.found.name(),
                        shell_words(argv)
                    ),
                ));
            }
        }
        if let (Some((argv, origin)), None, true) = (
            &settings.kustomize_config,
            &settings.kustomize_flag,
            sources.iter().any(|source| source.tool == Tool::Kustomize),
        ) {
            errors.push(Diagnostic::error(
                Some(origin.clone()),
                format!(
                    "spec.sources.kustomize asks to run {}; a kustomize command named by the \
                     fleet runs only with --allow-exec (a pull request could otherwise run code \
                     in CI)",
                    shell_words(argv)
                ),
            ));
        }
    }
    std::mem::take(&mut errors).finish()?;
    let path = std::env::var_os("PATH").unwrap_or_default();
    let kustomize = kustomize_command(settings, &path);
    let prepared: Vec<Prepared> = sources
        .iter()
        .filter_map(|source| errors.take(prepare(source, kustomize.as_ref(), settings, &path)))
        .collect();
    std::mem::take(&mut errors).finish()?;
    let results: Vec<Result<(SourceFile, SourceRun), Stopped>> = crate::interrupt::deferred(|| {
        prepared
            .par_iter()
            .map(|prepared| run_prepared(prepared, settings, cache))
            .collect()
    });
    let mut runs = Vec::with_capacity(results.len());
    let mut interrupted_by = None;
    for result in results {
        match result {
            Ok(run) => runs.push(run),
            Err(Stopped::Failed(error)) => errors.push(error),
            Err(Stopped::Interrupted(signal)) => interrupted_by = Some(signal),
        }
    }
    if let Some(signal) = interrupted_by {
        return Err(crate::interrupt::interrupted(signal));
    }
    errors.finish()?;
    Ok(runs)
}

/// The command that builds a kustomize directory (the directory is appended): the one named,
/// else `kustomize build`, else `kubectl kustomize`; `None` when neither is installed. A
/// program named with a slash is where `base` says: the command line's from fedrender's own
/// directory, the fleet's from the source's.
struct KustomizeCommand {
    argv: Vec<String>,
    /// Where a relative program is found: `None` for the source's directory.
    base: Option<PathBuf>,
}

fn kustomize_command(settings: &ToolSettings, path: &OsStr) -> Option<KustomizeCommand> {
    if let Some(argv) = &settings.kustomize_flag {
        return Some(KustomizeCommand {
            argv: argv.clone(),
            base: Some(PathBuf::from(".")),
        });
    }
    if let Some((argv, _)) = &settings.kustomize_config {
        return Some(KustomizeCommand {
            argv: argv.clone(),
            base: None,
        });
    }
    for (program, subcommand) in [("kustomize", "build"), ("kubectl", "kustomize")] {
        if run::find_program(program, path, Path::new(".")).is_some() {
            return Some(KustomizeCommand {
                argv: vec![program.into(), subcommand.into()],
                base: Some(PathBuf::from(".")),
            });
        }
    }
    None
}

/// A source ready to run: every check passed.
struct Prepared<'a> {
    source: &'a ToolSource,
    /// The program, found.
    program: PathBuf,
    /// As messages show it: the program as named, then its arguments.
    argv: Vec<String>,
    stdin: Option<String>,
    /// What identifies the output, when it can be reused (not for commands, nor for what
    /// reads the network).
    key: Option<u64>,
}

/// How a run ended without output.
enum Stopped {
    Failed(Diagnostic),
    Interrupted(i32),
}

/// Decides what `source` runs and reads, checking every path it reads.
fn prepare<'a>(
    source: &'a ToolSource,
    kustomize: Option<&KustomizeCommand>,
    settings: &ToolSettings,
    path: &OsStr,
) -> Result<Prepared<'a>, Rejected> {
    let name = source.found.name();
    let fail = |message: String| Diagnostic::error(Some(source.origin.clone()), message);
    let dir = &source.found.dir;
    let (argv, base, stdin, reads) = match &source.tool {
        Tool::Kustomize => {
            let Some(kustomize) = kustomize else {
                return Err(fail(format!(
                    "{name} is a kustomize directory, and building it needs kustomize or \
                     kubectl on PATH (or --kustomize COMMAND)"
                ))
                .into());
            };
            let mut argv = kustomize.argv.clone();
            argv.push(".".into());
            let reads = kustomize_reads(dir, &settings.fleet, settings.allow_network)?;
            (argv, kustomize.base.clone(), None, reads)
        }
        Tool::Helm(helm) => {
            let (argv, stdin) = helm_template_argv(helm, dir);
            let mut reads = vec![dir.clone()];
            // Each was checked against the fleet where the declaration was read.
            reads.extend(
                helm.value_files
                    .iter()
                    .filter(|file| !is_remote(file))
                    .map(|file| dir.join(file)),
            );
            // An Application's files, checked in its checkout by the engine.
            reads.extend(
                helm.argo_cd
                    .set
                    .iter()
                    .filter(|set| set.kind == HelmSetKind::File)
                    .map(|set| dir.join(&set.value)),
            );
            let remote = helm.value_files.iter().any(|file| is_remote(file));
            (
                argv,
                Some(PathBuf::from(".")),
                stdin,
                (!remote).then_some(reads),
            )
        }
        // A command may read anything (the command line allowed it), so its output is never
        // reused.
        Tool::Command(argv) => (argv.clone(), None, None, None),
    };
    let program =
        run::find_program(&argv[0], path, base.as_deref().unwrap_or(dir)).ok_or_else(|| {
            match &source.tool {
                Tool::Helm(_) => fail(format!(
                    "{name} is a Helm chart, and rendering it needs helm (Helm 3), which is not on \
                 PATH (only its absolute entries are searched)"
                )),
                _ => fail(format!(
                    "{name}: cannot run {}: {} is not installed or not on PATH (only its absolute \
                 entries are searched)",
                    shell_words(&argv),
                    argv[0]
                )),
            }
        })?;
    let key = match &reads {
        Some(reads) => Some(
            content_hash(&argv, stdin.as_deref(), reads, &settings.fleet).map_err(|link| {
                fail(format!(
                    "{name}: {} is a symbolic link leading outside {}; {} would read it, and \
                     fedrender lets tools read only inside the fleet",
                    link.display(),
                    settings.fleet.shown().display(),
                    source.tool.name()
                ))
            })?,
        ),
        None => None,
    };
    Ok(Prepared {
        source,
        program,
        argv,
        stdin,
        key,
    })
}

fn run_prepared(
    prepared: &Prepared,
    settings: &ToolSettings,
    cache: &ToolCache,
) -> Result<(SourceFile, SourceRun), Stopped> {
    let limits = settings.limits;
    let source = prepared.source;
    let argv = &prepared.argv;
    let name = source.found.name();
    let fail = |message: String| Diagnostic::error(Some(source.origin.clone()), message);
    let cached = prepared.key.and_then(|key| {
        cache
            .outputs
            .lock()
            .expect("no panic while the cache is held")
            .get(&key)
            .cloned()
    });
    let reused = cached.is_some();
    let output = match cached {
        Some(output) => output,
        None => {
            let output = run::run(
                &prepared.program,
                &argv[1..],
                &source.found.dir,
                prepared.stdin.as_deref(),
                limits,
            );
            if let Some(key) = prepared.key
                && !matches!(output, Err(RunError::Interrupted(_)))
            {
                cache
                    .outputs
                    .lock()
                    .expect("no panic while the cache is held")
                    .insert(key, output.clone());
            }
            output
        }
    };
    let tool = source.tool.name();
    let what = match &source.tool {
        Tool::Kustomize => "building kustomize directory",
        Tool::Helm(_) => "rendering Helm chart",
        Tool::Command(_) => "running the command of",
    };
    let text = output.map_err(|error| {
        Stopped::Failed(match error {
            RunError::Interrupted(signal) => return Stopped::Interrupted(signal),
            RunError::NotInstalled => fail(format!(
                "{name}: cannot run {}: {} is not installed or not on PATH",
                shell_words(argv),
                argv[0]
            )),
            RunError::TimedOut(limit) => fail(format!(
                "{what} {name} did not finish within {} s; it and everything it started were \
                 stopped (--tool-timeout sets the limit)",
                limit.as_secs_f64()
            )),
            RunError::TooMuchOutput(limit) => fail(format!(
                "{what} {name}: {} printed more than {}; it was stopped \
                 (--max-tool-output sets the limit)",
                shell_words(argv),
                fedrender_engine::bounds::bytes(limit)
            )),
            RunError::Failed { how, stderr } => {
                let mut detail = tool_messages(&stderr);
                detail.push_str(&format!(
                    "\n(ran {} in {})",
                    shell_words(argv),
                    source.found.dir.display()
                ));
                fail(format!("{what} {name} failed: {how}")).with_detail(detail.trim_start())
            }
        })
    })?;
    let run = SourceRun {
        source: name,
        tool,
        argv: argv.clone(),
        reused,
        keeps_test_hooks: matches!(&source.tool, Tool::Helm(helm) if helm.skip_tests == Some(false)),
        hooks: Vec::new(),
        left_out_tests: Vec::new(),
    };
    let mut file = SourceFile::new(Arc::from(run.output_name()), text, Format::Yaml);
    if source.tool == Tool::Kustomize {
        file.written_at = kustomize_origin::written_at(&file, &source.found.dir, &settings.fleet);
    }
    Ok((file, run))
}

/// A tool's standard error for a message: the log header kubectl puts before each line
/// (`E1124 13:35:09.529163   23491 run.go:72] `) is noise there.
fn tool_messages(stderr: &str) -> String {
    stderr
        .lines()
        .map(|line| {
            let bytes = line.as_bytes();
            let klog = bytes.len() > 5
                && b"IWEF".contains(&bytes[0])
                && bytes[1..5].iter().all(u8::is_ascii_digit)
                && line.contains("] ");
            match line.split_once("] ") {
                Some((_, message)) if klog => message,
                _ => line,
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A command for messages, quoted where a shell would need it.
pub fn shell_words(argv: &[String]) -> String {
    argv.iter()
        .map(|word| {
            let plain = !word.is_empty()
                && word
                    .bytes()
                    .all(|byte| byte.is_ascii_alphanumeric() || b"-_./=:,@+%".contains(&byte));
            if plain {
                word.clone()
            } else {
                format!("'{}'", word.replace('\'', r"'\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `a/b/../c` → `a/c`, without touching the file system (a path through a link is then what
/// kustomize, which also cleans paths, reads).
pub fn normalize(path: &Path) -> PathBuf {
    crate::confine::lexically_normal(path)
}

/// A hash of the command, its input and every file under `reads`, by path relative to the
/// first of them, so two checkouts of one fleet at different places agree only where their
/// bytes do. Links beneath are followed only where they stay inside the fleet: the first that
/// leads out is the error. Only plain files are opened, and read in pieces.
fn content_hash(
    argv: &[String],
    stdin: Option<&str>,
    reads: &[PathBuf],
    fleet: &Confinement,
) -> Result<u64, PathBuf> {
    use std::io::Read;
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    argv.hash(&mut hasher);
    stdin.hash(&mut hasher);
    let root = reads.first().cloned().unwrap_or_default();
    let mut buffer = vec![0u8; 64 << 10];
    for read in reads {
        let walker = walkdir::WalkDir::new(read)
            .follow_links(true)
            .sort_by_file_name();
        for entry in walker {
            let entry = match entry {
                Ok(entry) => entry,
                Err(error) => {
                    // A dangling link or a loop: the tool finds the same.
                    error.to_string().hash(&mut hasher);
                    continue;
                }
            };
            if entry.path_is_symlink() && !fleet.contains(entry.path()) {
                return Err(entry.into_path());
            }
            if !entry.file_type().is_file() {
                continue;
            }
            // Relative to the source's directory, so the same fleet checked out twice agrees.
            relative_to(entry.path(), &root).hash(&mut hasher);
            match std::fs::File::open(entry.path()) {
                Ok(mut file) => loop {
                    match file.read(&mut buffer) {
                        Ok(0) => break,
                        Ok(read) => hasher.write(&buffer[..read]),
                        Err(error) => {
                            error.to_string().hash(&mut hasher);
                            break;
                        }
                    }
                },
                Err(error) => error.to_string().hash(&mut hasher),
            }
        }
    }
    Ok(hasher.finish())
}

/// `path` relative to `base` (`../common/x.yaml`), both as written.
fn relative_to(path: &Path, base: &Path) -> PathBuf {
    let path: Vec<Component> = path.components().collect();
    let base: Vec<Component> = base.components().collect();
    let common = path.iter().zip(&base).take_while(|(a, b)| a == b).count();
    let mut relative: PathBuf = base[common..]
        .iter()
        .map(|_| Component::ParentDir)
        .collect();
    relative.extend(&path[common..]);
    relative
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_shown_as_a_shell_would_read_them() {
        let argv: Vec<String> = ["jsonnet", "-y", "main file.jsonnet", "it's"]
            .map(String::from)
            .to_vec();
        assert_eq!(
            shell_words(&argv),
            r"jsonnet -y 'main file.jsonnet' 'it'\''s'"
        );
    }

    #[test]
    fn relative_paths_climb_out_of_the_base() {
        assert_eq!(
            relative_to(Path::new("/f/app/base/d.yaml"), Path::new("/f/app/overlay")),
            PathBuf::from("../base/d.yaml")
        );
        assert_eq!(
            normalize(Path::new("f/app/overlay/../../base/./x")),
            PathBuf::from("f/base/x")
        );
    }
}
