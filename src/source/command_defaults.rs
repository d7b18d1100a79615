//! What the Configs directly in `FLEET_DIR` say in place of flags, read before the fleet (they
//! say how to read it and where to write it), each path they name confined to the repository.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::confine::Confinement;
use crate::source::files;
use fedrender_engine::api::config::CONFIG_API_VERSION;
use fedrender_engine::diagnostics::{Diagnostic, ErrorSink, Origin, Rejected};
use fedrender_engine::diff::ignore::IgnoreRule;
use fedrender_engine::diff::policy::ReviewPolicy;
use fedrender_engine::documents::{self, RawDocument, SourceFile};
use fedrender_engine::lint::Lint;

/// What the Configs directly in `FLEET_DIR` say in place of flags: the inventory, the output
/// directory and the GitOps settings, paths resolved against `FLEET_DIR`. Read before the
/// fleet, since they say how to read it and where to write it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CommandDefaults {
    pub clusters: Option<PathBuf>,
    pub output: Option<PathBuf>,
    pub gitops: Option<fedrender_engine::api::config::GitopsConfig>,
    /// `spec.diff`'s ignore rules, each with the Config's file and line.
    pub diff_ignores: Vec<IgnoreRule>,
    /// What the Config says of a review: its lint levels and ignore rules, where it is.
    pub review: ReviewPolicy,
    /// `spec.argocd`: the checkouts that stand for the repositories Argo CD would fetch.
    pub argocd: ArgoCdCheckouts,
    /// Whether a Config sets `spec.argocd` (the fleet is Argo CD's, with or without checkouts).
    pub argocd_set: bool,
}

impl CommandDefaults {
    /// `spec.argocd`'s checkouts and globbing, when a Config directly in `FLEET_DIR` makes the
    /// fleet Argo CD's.
    pub fn argocd_settings(self) -> Option<(ArgoCdCheckouts, bool)> {
        self.argocd_set.then(|| {
            let globbing = self.argocd.new_git_file_globbing;
            (self.argocd, globbing)
        })
    }
}

/// `spec.argocd` with each repository's directory resolved against `FLEET_DIR` and confined to
/// the repository.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ArgoCdCheckouts {
    pub repositories: Vec<RepositoryCheckout>,
    /// `newGitFileGlobbing`.
    pub new_git_file_globbing: bool,
}

/// One of `spec.argocd.repositories`.
#[derive(Debug, Clone, PartialEq)]
pub struct RepositoryCheckout {
    /// The URL, as written.
    pub url: String,
    /// The directory, as written.
    pub written: String,
    /// The directory to read.
    pub dir: PathBuf,
    /// Where the Config maps it (its `url`'s line).
    pub origin: Origin,
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
    let files = files::read_input_files(&paths)?;
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
        use fedrender_engine::api::config::Config;
        let config = document
            .decode::<Config>(&files)
            .map_err(|error| document.with_every_unknown_field::<Config>(&files, error, ""));
        let Some(config) = errors.take(config) else {
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
        let rules = diff_ignores(&config.spec, document, &files, &mut errors);
        review_policy(&mut defaults.review, &config, document, &rules);
        defaults.diff_ignores.extend(rules);
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
        if let Some(argocd) = spec.argocd {
            defaults.argocd_set = true;
            defaults.argocd =
                argocd_checkouts(argocd, document, &files, &repository, input, &mut errors);
        }
    }
    errors.finish()?;
    Ok(defaults)
}

/// Adds what `config` (written as `document`) says of a review to `review`. A lint name that
/// does not parse is left for the read of the whole fleet to report at its line.
fn review_policy(
    review: &mut ReviewPolicy,
    config: &fedrender_engine::api::config::Config,
    document: &RawDocument,
    rules: &[IgnoreRule],
) {
    if review.config.is_none() {
        let name = config.metadata.name.clone();
        review.config = Some((document.origin.to_string(), name));
    }
    for (name, level) in &config.spec.lints {
        if let Ok(lint) = Lint::parse(name) {
            review.levels.insert(lint, *level);
        }
    }
    review.ignores.extend(rules.iter().map(|rule| {
        (
            rule.written().to_string(),
            rule.config_field(),
            rule.where_written(),
        )
    }));
}

/// `spec.diff.ignoreFields` and `spec.diff.ignoreResources`, read as the flags are; one that
/// does not parse is an error at its line, as the flag's would be.
fn diff_ignores(
    spec: &fedrender_engine::api::config::ConfigSpec,
    document: &RawDocument,
    files: &[SourceFile],
    errors: &mut ErrorSink,
) -> Vec<IgnoreRule> {
    let Some(diff) = &spec.diff else {
        return Vec::new();
    };
    let field_lines = document.field_lines(files);
    let fields = diff.ignore_fields.iter().map(|text| {
        let parsed: fn(&str) -> Result<IgnoreRule, String> = IgnoreRule::field;
        ("ignoreFields", text, parsed)
    });
    let resources = diff.ignore_resources.iter().map(|text| {
        let parsed: fn(&str) -> Result<IgnoreRule, String> = IgnoreRule::resource;
        ("ignoreResources", text, parsed)
    });
    let mut index: BTreeMap<&str, usize> = BTreeMap::new();
    let mut rules = Vec::new();
    for (field, text, parse) in fields.chain(resources) {
        let at = index.entry(field).or_default();
        let origin = field_lines.origin(&document.origin, &format!("spec.diff.{field}[{at}]"));
        *at += 1;
        match parse(text) {
            Ok(rule) => rules.push(rule.in_config(&origin)),
            Err(problem) => errors.push(Diagnostic::error(
                Some(origin),
                format!("Config: spec.diff.{field}: {problem}"),
            )),
        }
    }
    rules
}

/// `spec.argocd`'s repositories, each directory resolved against `FLEET_DIR`: one leading out
/// of the repository, or that is no directory, is an error at its line; a URL mapped twice too
/// (which checkout would it be?).
fn argocd_checkouts(
    argocd: fedrender_engine::api::config::ArgoCdConfig,
    document: &RawDocument,
    files: &[SourceFile],
    repository: &Confinement,
    input: &std::path::Path,
    errors: &mut ErrorSink,
) -> ArgoCdCheckouts {
    let field_lines = document.field_lines(files);
    let mut checkouts = ArgoCdCheckouts {
        repositories: Vec::new(),
        new_git_file_globbing: argocd.new_git_file_globbing,
    };
    for (index, mapping) in argocd.repositories.into_iter().enumerate() {
        let field = format!("spec.argocd.repositories[{index}]");
        let origin = field_lines.origin(&document.origin, &format!("{field}.url"));
        let path_origin = field_lines.origin(&document.origin, &format!("{field}.path"));
        if let Some(first) = checkouts
            .repositories
            .iter()
            .find(|checkout: &&RepositoryCheckout| {
                fedrender_engine::argocd::repositories::same_url(&checkout.url, &mapping.url)
            })
        {
            errors.push(Diagnostic::error(
                Some(origin),
                format!(
                    "Config: {field}.url {:?} names the repository {:?} at {} already maps; map it once",
                    mapping.url, first.url, first.origin
                ),
            ));
            continue;
        }
        match repository.resolve(input, &mapping.path) {
            Ok(dir) if dir.is_dir() => checkouts.repositories.push(RepositoryCheckout {
                url: mapping.url,
                written: mapping.path,
                dir,
                origin,
            }),
            Ok(dir) => errors.push(Diagnostic::error(
                Some(path_origin),
                format!(
                    "Config: {field}.path {:?} is not a directory ({} does not exist or is a file)",
                    mapping.path,
                    dir.display()
                ),
            )),
            Err(problem) => errors.push(Diagnostic::error(
                Some(path_origin),
                format!("Config: {field}.path {:?} {problem}", mapping.path),
            )),
        }
    }
    checkouts
}

/// A Config's `spec` with the paths it names checked, those that stand for files made usable
/// from here (`clusters` and `output` joined to `FLEET_DIR`, `gitops.path` normalised). The
/// Config is part of the repository, so each must lead inside it, or it is an error at the
/// field's line and the path is left out: nothing is read from or written to it.
fn confine_config_paths(
    mut spec: fedrender_engine::api::config::ConfigSpec,
    document: &RawDocument,
    files: &[SourceFile],
    repository: &Confinement,
    input: &std::path::Path,
    errors: &mut ErrorSink,
) -> fedrender_engine::api::config::ConfigSpec {
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
