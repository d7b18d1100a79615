//! Templates a tool renders: kustomize directories, Helm charts and declared commands.
//!
//! Loading finds these sources while it walks the fleet ([`markers_in`]); here they are read
//! (declarations, kustomizations) and run, in parallel, each in its own directory with a clean
//! environment. A source's standard output becomes one input file named after the source,
//! `apps/web/ (kustomize)`, so every message about one of its objects says where the object
//! came from, with the line within the tool's output.

use std::collections::{BTreeSet, HashMap};
use std::hash::{Hash, Hasher};
use std::io::Write;
use std::path::{Component, Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};

use rayon::prelude::*;
use serde_json::Value;

use crate::api::config::CONFIG_API_VERSION;
use crate::api::source::{DECLARATION_FILE, HelmSource, REMOTE_CHART_FIELDS, SourceDeclaration};
use crate::diagnostics::{Diagnostic, ErrorSink, Origin, Rejected};
use crate::source::load::{self, Format, SourceFile};

pub const KUSTOMIZATION_FILES: [&str; 3] =
    ["kustomization.yaml", "kustomization.yml", "Kustomization"];
pub const CHART_FILE: &str = "Chart.yaml";

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

/// The marker files `dir` holds, in the order they decide what the directory is. The
/// kustomization fedrender writes into each cluster's directory does not count: a rendered
/// tree inside the input is never input.
pub fn markers_in(dir: &Path) -> Vec<&'static str> {
    std::iter::once(DECLARATION_FILE)
        .chain(std::iter::once(CHART_FILE))
        .chain(KUSTOMIZATION_FILES)
        .filter(|marker| {
            let path = dir.join(marker);
            path.is_file() && !(KUSTOMIZATION_FILES.contains(marker) && written_by_fedrender(&path))
        })
        .collect()
}

fn written_by_fedrender(path: &Path) -> bool {
    use std::io::Read;
    let header = crate::emit::HEADER.trim_end().as_bytes();
    let mut start = vec![0; header.len()];
    std::fs::File::open(path)
        .and_then(|mut file| file.read_exact(&mut start))
        .is_ok_and(|()| start == header)
}

/// What runs a source.
#[derive(Debug, Clone, PartialEq)]
pub enum Tool {
    Kustomize,
    Helm(HelmSource),
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
#[derive(Debug, Clone, Default)]
pub struct ToolSettings {
    /// `--allow-exec`.
    pub allow_exec_flag: bool,
    /// `--kustomize COMMAND`, split on spaces.
    pub kustomize_flag: Option<Vec<String>>,
    /// The Config's `spec.sources.allowExec`.
    pub allow_exec_config: bool,
    /// The Config's `spec.sources.kustomize`: a command the fleet names, so it runs only
    /// where commands may.
    pub kustomize_config: Option<(Vec<String>, Origin)>,
}

impl ToolSettings {
    fn allows_exec(&self) -> bool {
        self.allow_exec_flag || self.allow_exec_config
    }
}

/// One source, run.
#[derive(Debug, Clone)]
pub struct SourceRun {
    /// `apps/web/`.
    pub source: String,
    pub tool: &'static str,
    /// The command that ran, as it ran (in the source's directory).
    pub argv: Vec<String>,
    /// Whether an identical source had already been run by this process (`diff --base`).
    pub reused: bool,
}

impl SourceRun {
    /// The name of the input file its output became, which every origin inside it carries.
    pub fn output_name(&self) -> String {
        format!("{} ({})", self.source, self.tool)
    }
}

/// Outputs of sources already run, by a hash of the command and every byte it reads, so that
/// `diff --base` renders a source both revisions hold unchanged once.
#[derive(Debug, Default)]
pub struct ToolCache {
    outputs: Mutex<HashMap<u64, Result<String, RunError>>>,
}

/// Decides each source's tool from its marker files and declaration. Errors name the file and
/// line of what is wrong.
pub fn resolve(found: &[FoundSource]) -> Result<Vec<ToolSource>, Rejected> {
    let declaration_paths: Vec<PathBuf> = found
        .iter()
        .filter(|source| source.markers.contains(&DECLARATION_FILE))
        .map(|source| source.dir.join(DECLARATION_FILE))
        .collect();
    let declaration_files = load::read_files(&declaration_paths)?;
    let (documents, parse_errors) = load::parse_files(&declaration_files);
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
                (Some(helm), _) => ToolSource {
                    found: source.clone(),
                    tool: Tool::Helm(helm),
                    origin,
                },
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
            ToolSource {
                found: source.clone(),
                tool: Tool::Helm(HelmSource::default()),
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
/// path), each as an input file named after its source, with what ran.
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
    let results: Vec<Result<(SourceFile, SourceRun), Diagnostic>> = sources
        .par_iter()
        .map(|source| run_source(source, kustomize.as_deref(), cache))
        .collect();
    let mut runs = Vec::with_capacity(results.len());
    for result in results {
        if let Some(run) = errors.take(result) {
            runs.push(run);
        }
    }
    errors.finish()?;
    Ok(runs)
}

/// The command that builds a kustomize directory (the directory is appended): the one named,
/// else `kustomize build`, else `kubectl kustomize`; `None` when neither is installed.
fn kustomize_command(settings: &ToolSettings, path: &std::ffi::OsStr) -> Option<Vec<String>> {
    if let Some(argv) = &settings.kustomize_flag {
        return Some(argv.clone());
    }
    if let Some((argv, _)) = &settings.kustomize_config {
        return Some(argv.clone());
    }
    if find_on_path("kustomize", path) {
        return Some(vec!["kustomize".into(), "build".into()]);
    }
    if find_on_path("kubectl", path) {
        return Some(vec!["kubectl".into(), "kustomize".into()]);
    }
    None
}

fn find_on_path(program: &str, path: &std::ffi::OsStr) -> bool {
    std::env::split_paths(path).any(|dir| dir.join(program).is_file())
}

fn run_source(
    source: &ToolSource,
    kustomize: Option<&[String]>,
    cache: &ToolCache,
) -> Result<(SourceFile, SourceRun), Diagnostic> {
    let name = source.found.name();
    let fail = |message: String| Diagnostic::error(Some(source.origin.clone()), message);
    let (argv, stdin, reads) = match &source.tool {
        Tool::Kustomize => {
            let Some(kustomize) = kustomize else {
                return Err(fail(format!(
                    "{name} is a kustomize directory, and building it needs kustomize or \
                     kubectl on PATH (or --kustomize COMMAND)"
                )));
            };
            let mut argv = kustomize.to_vec();
            argv.push(".".into());
            let reads = kustomize_closure(&source.found.dir);
            (argv, None, Some(reads))
        }
        Tool::Helm(helm) => {
            let (argv, stdin) = helm_template_argv(helm, &source.found.dir);
            let mut reads = vec![source.found.dir.clone()];
            reads.extend(
                helm.value_files
                    .iter()
                    .map(|file| source.found.dir.join(file)),
            );
            (argv, stdin, Some(reads))
        }
        // A command may read anything, so its output is never reused.
        Tool::Command(argv) => (argv.clone(), None, None),
    };
    let key = reads.map(|reads| content_hash(&argv, stdin.as_deref(), &reads));
    let cached = key.and_then(|key| {
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
            let output = run(&argv, &source.found.dir, stdin.as_deref());
            if let Some(key) = key {
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
    let text = output.map_err(|error| match error {
        RunError::NotInstalled if matches!(source.tool, Tool::Helm(_)) => fail(format!(
            "{name} is a Helm chart, and rendering it needs helm (Helm 3), which is not on PATH"
        )),
        RunError::NotInstalled => fail(format!(
            "{name}: cannot run {}: {} is not installed or not on PATH",
            shell_words(&argv),
            argv[0]
        )),
        RunError::Failed { how, stderr } => {
            let what = match &source.tool {
                Tool::Kustomize => "building kustomize directory",
                Tool::Helm(_) => "rendering Helm chart",
                Tool::Command(_) => "running the command of",
            };
            let mut detail = tool_messages(&stderr);
            detail.push_str(&format!(
                "\n(ran {} in {})",
                shell_words(&argv),
                source.found.dir.display()
            ));
            fail(format!("{what} {name} failed: {how}")).with_detail(detail.trim_start())
        }
    })?;
    let run = SourceRun {
        source: name,
        tool,
        argv,
        reused,
    };
    let file = SourceFile::new(Arc::from(run.output_name()), text, Format::Yaml);
    Ok((file, run))
}

/// `helm template` for a declaration, with the inline values to pass on standard input. The
/// order is Argo CD's: value files in order, then the inline values, which win.
pub fn helm_template_argv(helm: &HelmSource, dir: &Path) -> (Vec<String>, Option<String>) {
    let release = helm.release_name.clone().unwrap_or_else(|| {
        dir.canonicalize()
            .ok()
            .and_then(|dir| {
                dir.file_name()
                    .map(|name| name.to_string_lossy().into_owned())
            })
            .unwrap_or_else(|| "release".to_string())
    });
    let mut argv: Vec<String> = vec!["helm".into(), "template".into(), release, ".".into()];
    if let Some(namespace) = &helm.namespace {
        argv.extend(["--namespace".into(), namespace.clone()]);
    }
    for file in &helm.value_files {
        argv.extend(["--values".into(), file.clone()]);
    }
    let stdin = helm.values_object.as_ref().map(|values| {
        argv.extend(["--values".into(), "-".into()]);
        values.to_string()
    });
    if let Some(version) = &helm.kube_version {
        argv.extend(["--kube-version".into(), version.clone()]);
    }
    for api_version in &helm.api_versions {
        argv.extend(["--api-versions".into(), api_version.clone()]);
    }
    if !helm.skip_crds {
        argv.push("--include-crds".into());
    }
    if helm.skip_tests {
        argv.push("--skip-tests".into());
    }
    (argv, stdin)
}

#[derive(Debug, Clone)]
enum RunError {
    NotInstalled,
    /// How it failed (`exit status: 1`), and what it said.
    Failed {
        how: String,
        stderr: String,
    },
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

/// Runs `argv` in `dir` with only `PATH` and `HOME` from this process's environment, so a
/// source renders the same on every machine and sees none of CI's secrets.
fn run(argv: &[String], dir: &Path, stdin: Option<&str>) -> Result<String, RunError> {
    let mut command = Command::new(&argv[0]);
    command
        .args(&argv[1..])
        .current_dir(dir)
        .env_clear()
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for variable in ["PATH", "HOME"] {
        if let Some(value) = std::env::var_os(variable) {
            command.env(variable, value);
        }
    }
    let mut child = command.spawn().map_err(|error| match error.kind() {
        std::io::ErrorKind::NotFound => RunError::NotInstalled,
        _ => RunError::Failed {
            how: format!("could not start: {error}"),
            stderr: String::new(),
        },
    })?;
    let writer = match (stdin, child.stdin.take()) {
        (Some(text), Some(mut pipe)) => {
            let text = text.to_string();
            // A separate thread, so a tool that writes before it has read everything cannot
            // block on a full pipe while fedrender blocks writing to it.
            Some(std::thread::spawn(move || pipe.write_all(text.as_bytes())))
        }
        _ => None,
    };
    let output = child.wait_with_output().map_err(|error| RunError::Failed {
        how: format!("could not be waited for: {error}"),
        stderr: String::new(),
    })?;
    if let Some(writer) = writer {
        // A tool that exits without reading its input fails below, or did not need it.
        let _ = writer.join();
    }
    if !output.status.success() {
        return Err(RunError::Failed {
            how: output.status.to_string(),
            stderr: String::from_utf8_lossy(&output.stderr)
                .trim_end()
                .to_string(),
        });
    }
    String::from_utf8(output.stdout).map_err(|_| RunError::Failed {
        how: "its output is not UTF-8".to_string(),
        stderr: String::new(),
    })
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

/// The local paths a kustomization names (resources, bases, components, patches, generator
/// files …), resolved against its directory; those that do not exist are left to kustomize to
/// report. Remote references (URLs) are not paths.
pub fn kustomization_references(dir: &Path, kustomization: &Value) -> Vec<PathBuf> {
    let mut named: Vec<&str> = Vec::new();
    fn strings(value: &Value) -> Vec<&str> {
        value
            .as_array()
            .map(|items| items.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default()
    }
    for field in [
        "resources",
        "bases",
        "components",
        "crds",
        "generators",
        "transformers",
        "validators",
        "patchesStrategicMerge",
        "configurations",
    ] {
        named.extend(strings(&kustomization[field]));
    }
    for field in ["patches", "patchesJson6902", "replacements"] {
        if let Some(items) = kustomization[field].as_array() {
            named.extend(items.iter().filter_map(|item| item["path"].as_str()));
        }
    }
    for field in ["configMapGenerator", "secretGenerator"] {
        for generator in kustomization[field].as_array().into_iter().flatten() {
            for file in strings(&generator["files"]) {
                // `key=path` names the key the file's content gets.
                named.push(file.split_once('=').map_or(file, |(_, path)| path));
            }
            named.extend(strings(&generator["envs"]));
            named.extend(generator["env"].as_str());
        }
    }
    named.extend(kustomization["openapi"]["path"].as_str());
    named
        .into_iter()
        .filter(|reference| !reference.contains("://") && !reference.contains('\n'))
        .map(|reference| normalize(&dir.join(reference)))
        .filter(|path| path.exists())
        .collect()
}

/// Reads the kustomization in `dir`, if it parses; kustomize reports one that does not.
pub fn read_kustomization(dir: &Path) -> Option<Value> {
    let path = KUSTOMIZATION_FILES
        .iter()
        .map(|name| dir.join(name))
        .find(|path| path.is_file())?;
    let files = load::read_files(&[path]).ok()?;
    let (mut documents, errors) = load::parse_files(&files);
    if !errors.is_empty() || documents.len() != 1 {
        return None;
    }
    Some(documents.remove(0).value)
}

/// Every path a kustomize build of `dir` reads, as far as its kustomizations say: the
/// directory and, transitively, what it references.
fn kustomize_closure(dir: &Path) -> Vec<PathBuf> {
    let mut seen = BTreeSet::new();
    let mut pending = vec![normalize(dir)];
    while let Some(path) = pending.pop() {
        if !seen.insert(path.clone()) || !path.is_dir() {
            continue;
        }
        if let Some(kustomization) = read_kustomization(&path) {
            pending.extend(kustomization_references(&path, &kustomization));
        }
    }
    seen.into_iter().collect()
}

/// `a/b/../c` → `a/c`, without touching the file system (a path through a link is then what
/// kustomize, which also cleans paths, reads).
pub fn normalize(path: &Path) -> PathBuf {
    let mut normal = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir if normal.file_name().is_some() => {
                normal.pop();
            }
            other => normal.push(other),
        }
    }
    normal
}

/// A hash of the command, its input and every file under `reads`, by path relative to the
/// current directory's view of them, so two checkouts of one fleet at different places agree
/// only where their bytes do.
fn content_hash(argv: &[String], stdin: Option<&str>, reads: &[PathBuf]) -> u64 {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    argv.hash(&mut hasher);
    stdin.hash(&mut hasher);
    let root = reads.first().cloned().unwrap_or_default();
    for read in reads {
        let walker = walkdir::WalkDir::new(read).sort_by_file_name();
        for entry in walker.into_iter().filter_map(Result::ok) {
            if !entry.file_type().is_file() {
                continue;
            }
            // Relative to the source's directory, so the same fleet checked out twice agrees.
            relative_to(entry.path(), &root).hash(&mut hasher);
            match std::fs::read(entry.path()) {
                Ok(bytes) => bytes.hash(&mut hasher),
                Err(error) => error.to_string().hash(&mut hasher),
            }
        }
    }
    hasher.finish()
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
    fn helm_template_gets_value_files_then_inline_values_in_argo_cds_order() {
        let helm = HelmSource {
            release_name: Some("web".into()),
            namespace: Some("shop".into()),
            value_files: vec!["values-prod.yaml".into(), "extra.yaml".into()],
            values_object: Some(serde_json::json!({"replicaCount": 3})),
            kube_version: Some("1.31.0".into()),
            api_versions: vec!["monitoring.coreos.com/v1".into()],
            skip_crds: false,
            skip_tests: true,
        };
        let (argv, stdin) = helm_template_argv(&helm, Path::new("charts/web"));
        assert_eq!(
            argv.join(" "),
            "helm template web . --namespace shop --values values-prod.yaml --values extra.yaml \
             --values - --kube-version 1.31.0 --api-versions monitoring.coreos.com/v1 \
             --include-crds --skip-tests"
        );
        assert_eq!(stdin.as_deref(), Some(r#"{"replicaCount":3}"#));
    }

    #[test]
    fn a_chart_without_a_declaration_is_named_after_its_directory() {
        let dir = std::env::temp_dir().join(format!("fedrender-tools-{}", std::process::id()));
        let chart = dir.join("my-chart");
        std::fs::create_dir_all(&chart).unwrap();
        let (argv, stdin) = helm_template_argv(&HelmSource::default(), &chart);
        assert_eq!(argv.join(" "), "helm template my-chart . --include-crds");
        assert_eq!(stdin, None);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_kustomization_names_local_paths_in_every_field_that_takes_one() {
        let dir = std::env::temp_dir().join(format!("fedrender-refs-{}", std::process::id()));
        for path in [
            "app/overlay",
            "app/base",
            "app/patch.yaml",
            "app/overlay/cm.env",
        ] {
            let path = dir.join(path);
            if path.extension().is_some() {
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(&path, "").unwrap();
            } else {
                std::fs::create_dir_all(&path).unwrap();
            }
        }
        let kustomization = serde_json::json!({
            "resources": ["../base", "https://github.com/x/y//z", "missing.yaml"],
            "patches": [{"path": "../patch.yaml"}, {"patch": "inline"}],
            "configMapGenerator": [{"name": "c", "envs": ["cm.env"]}],
        });
        let overlay = dir.join("app/overlay");
        let references = kustomization_references(&overlay, &kustomization);
        assert_eq!(
            references,
            vec![
                dir.join("app/base"),
                dir.join("app/patch.yaml"),
                overlay.join("cm.env")
            ]
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

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
