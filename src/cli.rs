//! The command line (clap): the commands and their flags, as `--help` and the shell completions
//! show them. Raw flags only: [`crate::commands::options`] validates them into options; the
//! engine never sees clap.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use fedrender_engine::check::VersionChoice;
use fedrender_engine::lint::Lint;

#[derive(Debug, Parser)]
#[command(
    name = "fedrender",
    version,
    about = "Render a multi-cluster Kubernetes fleet offline: templates + Karmada policies + member clusters → one manifest tree per cluster"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Render the fleet into one directory per member cluster.
    #[command(after_long_help = lint_list())]
    Build(BuildArgs),
    /// Show what a change does to the rendered fleet, per cluster and object.
    #[command(after_long_help = lint_list())]
    Diff(DiffArgs),
    /// Explain every placement: policies matched and why one won, clusters filtered and why,
    /// replicas and overrides per cluster.
    #[command(after_long_help = lint_list())]
    Plan(PlanArgs),
    /// Check everything `build` checks, without rendering output.
    #[command(after_long_help = lint_list())]
    Validate(ValidateArgs),
    /// Print the settings a run takes from the fleet's Config and the flags, as JSON (for CI
    /// scripts: never read a Config with text tools).
    Config(ConfigArgs),
    /// Print a shell completion script.
    Completions(CompletionsArgs),
    /// Print the manual page (roff) of fedrender, or of one of its commands.
    Man(ManArgs),
}

#[derive(Debug, Args)]
pub struct InputArgs {
    /// Directory of resource templates and policies (read recursively; hidden entries
    /// skipped), one file, or `-` for a YAML stream on standard input.
    #[arg(value_name = "FLEET_DIR")]
    pub input: PathBuf,
    /// Inventory of Karmada Cluster objects (`-` for standard input). Cluster objects inside
    /// the input directory count too.
    #[arg(long, short = 'c', value_name = "FILE")]
    pub clusters: Option<PathBuf>,
    /// Only read files whose path relative to INPUT matches this glob (repeatable).
    #[arg(long, value_name = "GLOB")]
    pub include: Vec<String>,
    /// Skip files whose path relative to INPUT matches this glob (repeatable).
    #[arg(long, value_name = "GLOB")]
    pub exclude: Vec<String>,
    /// Let sources declared with a command (fedrender-source.yaml `spec.command`) run, and a
    /// kustomize command the fleet's Config names. Off by default: a pull request could
    /// otherwise run code in CI.
    #[arg(long)]
    pub allow_exec: bool,
    /// Let kustomizations name remote bases and URLs, and Helm declarations value files on
    /// the network. Off by default: fedrender renders offline.
    #[arg(long)]
    pub allow_network: bool,
    /// How long one tool (kustomize, helm, a command) may run before it and everything it
    /// started are killed: seconds, or with a unit (`90s`, `10m`).
    #[arg(long, value_name = "DURATION", default_value = "5m", value_parser = parse_duration)]
    pub tool_timeout: std::time::Duration,
    /// How much one tool may print before it is killed: bytes, or with a unit (`512Mi`, `1Gi`).
    #[arg(long, value_name = "SIZE", default_value = "256Mi", value_parser = parse_size)]
    pub max_tool_output: u64,
    /// The command that builds kustomize directories, split on spaces; the directory is
    /// appended (default: `kustomize build`, else `kubectl kustomize`).
    #[arg(long, value_name = "COMMAND")]
    pub kustomize: Option<String>,
    /// Check objects against this Kubernetes version: `1.36` for every cluster (an upgrade's
    /// "what if"), `NAME=1.36` for one (repeatable). Otherwise each cluster's
    /// status.kubernetesVersion, else the Config's spec.kubernetesVersion, else the newest
    /// version fedrender knows.
    #[arg(long, value_name = "[CLUSTER=]VERSION", value_parser = VersionChoice::parse)]
    pub kubernetes_version: Vec<VersionChoice>,
    /// Judge policies by this Karmada release (`1.19`): fields and values its CRDs refuse are
    /// errors, features behind its gates that are off are warnings. Otherwise the Config's
    /// spec.karmada.version, else the newest release fedrender knows.
    #[arg(long, value_name = "VERSION")]
    pub karmada_version: Option<String>,
    /// A file or directory of CustomResourceDefinitions (e.g. the output of `kubectl get
    /// crds -o yaml`) to check custom resources against, besides the CRDs in the fleet
    /// (repeatable).
    #[arg(long, value_name = "PATH")]
    pub crds: Vec<PathBuf>,
    /// Treat every warning as an error, except lints given another level by name.
    #[arg(long)]
    pub strict: bool,
    /// Make a lint's warnings errors (repeatable; `--help` lists the lints).
    #[arg(long, value_name = "LINT", value_parser = lint_names(), hide_possible_values = true)]
    pub deny: Vec<String>,
    /// Report a lint's warnings as warnings, even under --strict or a Config that denies or
    /// allows it (repeatable).
    #[arg(long, value_name = "LINT", value_parser = lint_names(), hide_possible_values = true)]
    pub warn: Vec<String>,
    /// Silence a lint (repeatable).
    #[arg(long, value_name = "LINT", value_parser = lint_names(), hide_possible_values = true)]
    pub allow: Vec<String>,
    #[command(flatten)]
    pub run: RunArgs,
}

/// `300`, `90s`, `10m`, `1h`: a positive duration.
fn parse_duration(text: &str) -> Result<std::time::Duration, String> {
    let (number, scale) = match text.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        None => (text, 1),
        Some((at, _)) => match &text[at..] {
            "s" => (&text[..at], 1),
            "m" => (&text[..at], 60),
            "h" => (&text[..at], 3600),
            unit => return Err(format!("unknown unit {unit:?}: use s, m or h")),
        },
    };
    match number.parse::<u64>() {
        Ok(count) if count > 0 => Ok(std::time::Duration::from_secs(count.saturating_mul(scale))),
        _ => Err("give a positive whole number of seconds, minutes (m) or hours (h)".to_string()),
    }
}

/// `1048576`, `512Mi`, `1Gi`, `100M`: a positive size in bytes.
fn parse_size(text: &str) -> Result<u64, String> {
    let at = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let scale: u64 = match text[at..].trim_end_matches('B') {
        "" => 1,
        "K" | "k" => 1_000,
        "M" => 1_000_000,
        "G" => 1_000_000_000,
        "Ki" => 1 << 10,
        "Mi" => 1 << 20,
        "Gi" => 1 << 30,
        unit => {
            return Err(format!(
                "unknown unit {unit:?}: use Ki, Mi, Gi (or K, M, G)"
            ));
        }
    };
    match text[..at].parse::<u64>() {
        Ok(count) if count > 0 => Ok(count.saturating_mul(scale)),
        _ => Err(
            "give a positive whole number of bytes, with a unit if you like (512Mi)".to_string(),
        ),
    }
}

/// The lints --deny, --warn and --allow take, once, under the options of `--help` (listed with
/// each of the three flags, they tripled the help).
fn lint_list() -> String {
    let width = Lint::ALL
        .iter()
        .map(|lint| lint.name().len())
        .max()
        .unwrap_or(0);
    let mut list =
        String::from("Lints (for --deny, --warn and --allow, and the Config's spec.lints):\n");
    for lint in Lint::ALL {
        list.push_str(&format!("  {:width$}  {}\n", lint.name(), lint.summary()));
    }
    list
}

fn lint_names() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(
        Lint::ALL.map(|lint| clap::builder::PossibleValue::new(lint.name()).help(lint.summary())),
    )
}

#[derive(Debug, Args)]
pub struct RunArgs {
    /// Worker threads (default: one per core). The output does not depend on it.
    #[arg(long, short = 'j', value_name = "N", global = true)]
    pub jobs: Option<usize>,
    /// Print nothing but errors.
    #[arg(long, short = 'q', global = true, conflicts_with = "verbose")]
    pub quiet: bool,
    /// Say what each stage is doing, and show every warning instead of the first few of each
    /// lint.
    #[arg(long, short = 'v', global = true)]
    pub verbose: bool,
    /// How errors and warnings are printed on standard error.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = MessageFormat::Human, global = true)]
    pub message_format: MessageFormat,
}

/// The one message format the printing knows, named by the flag.
pub use crate::report::messages::MessageFormat;

#[derive(Debug, Args)]
pub struct BuildArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub clusters: ClusterArgs,
    /// Output directory: one subdirectory per member cluster (default: the fleet Config's
    /// spec.output).
    #[arg(long, short = 'o', value_name = "DIR", conflicts_with = "stdout")]
    pub out: Option<PathBuf>,
    /// Render and compare with --out, changing nothing: exit 1 and list stale, missing and
    /// extra files when the output is not up to date.
    #[arg(long, conflicts_with = "stdout")]
    pub check: bool,
    /// Write the whole render to standard output as one YAML stream instead of a tree.
    #[arg(long)]
    pub stdout: bool,
    /// Also write, under OUT/_gitops, the objects that deploy every tree: an Argo CD
    /// ApplicationSet, or a Flux GitRepository and a Kustomization per cluster.
    #[arg(
        long,
        value_enum,
        value_name = "TOOL",
        conflicts_with = "stdout",
        requires = "gitops_repo"
    )]
    pub gitops: Option<GitopsTool>,
    /// The Git repository that holds the output, as Argo CD or Flux clone it.
    #[arg(long, value_name = "URL", requires = "gitops")]
    pub gitops_repo: Option<String>,
    /// The branch (Flux) or revision (Argo CD) to deploy.
    #[arg(
        long,
        value_name = "REVISION",
        default_value = "main",
        requires = "gitops"
    )]
    pub gitops_revision: String,
    /// The output directory's path in the repository (default: --out as given, if relative).
    #[arg(long, value_name = "PATH", requires = "gitops")]
    pub gitops_path: Option<String>,
    /// Keep each FederatedHPA's autoscaling under GitOps: a HorizontalPodAutoscaler on each
    /// member its workload goes to, its bounds the scheduler's division of the FederatedHPA's,
    /// under OUT/_gitops/autoscaling/<cluster>, and the workload's spec.replicas left to it
    /// (also the Config's spec.gitops.memberHPAs).
    #[arg(long)]
    pub gitops_member_hpas: bool,
    #[command(flatten)]
    pub moment: MomentArgs,
}

/// The moment the FederatedHPAs and CronFederatedHPAs are rendered at (`build`, `plan`,
/// `diff`; both sides of a diff alike).
#[derive(Debug, Args)]
pub struct MomentArgs {
    /// Render (or plan, or diff) every workload a FederatedHPA scales at that end of its bounds (minReplicas or
    /// maxReplicas), divided by the scheduler as Karmada divides the rescaled template.
    #[arg(long, value_enum, value_name = "END")]
    pub at_replicas: Option<AtReplicas>,
    /// Render (or plan, or diff) the fleet as the CronFederatedHPAs leave it at this time (RFC 3339 with an
    /// offset): each rule's last firing at or before it, in the rule's time zone; each
    /// FederatedHPA then holds its target within its bounds of that time.
    #[arg(long, value_name = "TIME", value_parser = fedrender_engine::run::parse_time)]
    pub at: Option<fedrender_engine::run::Timestamp>,
}

/// An end of the FederatedHPAs' bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AtReplicas {
    /// Every FederatedHPA's minReplicas.
    Min,
    /// Every FederatedHPA's maxReplicas.
    Max,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GitopsTool {
    /// An ApplicationSet with one Application per cluster directory.
    Argocd,
    /// A GitRepository and one Kustomization per cluster, with kubeConfig secrets named
    /// `<cluster>-kubeconfig`.
    Flux,
}

#[derive(Debug, Args)]
pub struct DiffArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub clusters: ClusterArgs,
    /// Compare with a rendered tree (e.g. the committed output directory).
    #[arg(
        long,
        value_name = "RENDERED_DIR",
        conflicts_with = "base",
        required_unless_present = "base"
    )]
    pub against: Option<PathBuf>,
    /// Compare with another input directory, rendered too (e.g. a checkout of the target branch).
    #[arg(long, value_name = "BASE_INPUT")]
    pub base: Option<PathBuf>,
    /// Inventory of the base (default: the same as --clusters).
    #[arg(long, value_name = "FILE", requires = "base")]
    pub base_clusters: Option<PathBuf>,
    /// How the change is printed.
    #[arg(long, value_enum, default_value_t = DiffFormat::Unified)]
    pub format: DiffFormat,
    /// The heading of the Markdown comment (and `title` in JSON), e.g. the pull request's.
    #[arg(long, value_name = "TEXT")]
    pub title: Option<String>,
    /// Largest Markdown output, in bytes; what does not fit is left out with a note.
    #[arg(long, value_name = "BYTES", default_value_t = 65536)]
    pub max_bytes: usize,
    /// Show Secret data values instead of redacting them.
    #[arg(long)]
    pub show_secrets: bool,
    /// Hide a changed object whose only differences are at this field, for the objects named
    /// (GROUP, KIND, NAMESPACE, NAME are globs; a pointer segment `*` matches any key or index);
    /// the report counts what each rule hid (repeatable)
    #[arg(
        long,
        value_name = "[GROUP/KIND[/NAMESPACE/NAME]=]JSON_POINTER",
        value_parser = fedrender_engine::diff::ignore::IgnoreRule::field
    )]
    pub ignore_field: Vec<fedrender_engine::diff::ignore::IgnoreRule>,
    /// Hide every change to the objects named (globs; GROUP:KIND:NAME for a cluster-scoped
    /// one); the report counts what each rule hid (repeatable)
    #[arg(
        long,
        value_name = "GROUP:KIND:NAMESPACE/NAME",
        value_parser = fedrender_engine::diff::ignore::IgnoreRule::resource
    )]
    pub ignore_resource: Vec<fedrender_engine::diff::ignore::IgnoreRule>,
    /// Colour the unified diff (auto: on a terminal, unless NO_COLOR is set; CLICOLOR_FORCE
    /// colours a pipe too).
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    pub color: Color,
    #[command(flatten)]
    pub moment: MomentArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DiffFormat {
    /// A unified diff per object and cluster, for a terminal.
    Unified,
    /// The pull request comment: the review first, then the diff, collapsed per object.
    Markdown,
    /// Everything the review found and every change, for tools.
    Json,
    /// One line per cluster: objects added, changed and removed.
    Stat,
    /// One self-contained page (no script, nothing loaded): the review, the objects × clusters
    /// matrix and every hunk, for a change too big for a comment.
    Html,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Color {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Args)]
pub struct PlanArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// text: why each template went where it went; table and markdown: the objects × clusters
    /// matrix; json: everything, for tools.
    #[arg(long, value_enum, default_value_t = PlanFormat::Text)]
    pub format: PlanFormat,
    #[command(flatten)]
    pub clusters: ClusterArgs,
    /// Only templates of this kind (case-insensitive).
    #[arg(long)]
    pub kind: Option<String>,
    /// Only templates with this name.
    #[arg(long)]
    pub name: Option<String>,
    #[command(flatten)]
    pub moment: MomentArgs,
}

/// Which clusters a command writes or shows; every cluster is still scheduled, so a
/// cluster's output is the same whatever the selection.
#[derive(Debug, Args)]
pub struct ClusterArgs {
    /// Only this cluster, or the clusters this glob matches (repeatable; a cluster matching
    /// any is kept). A build touches only these clusters' directories.
    #[arg(long = "cluster", value_name = "NAME|GLOB")]
    pub names: Vec<String>,
    /// Only clusters whose labels match this Kubernetes label selector
    /// (`region=eu,tier in (prod,staging),!legacy`); with --cluster, both must hold.
    #[arg(long, value_name = "SELECTOR")]
    pub cluster_selector: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PlanFormat {
    /// Why every template went where it went.
    Text,
    /// The objects × clusters matrix: replicas, ✓ for other objects, · where absent.
    Table,
    /// The matrix as a Markdown table.
    Markdown,
    Json,
}

#[derive(Debug, Args)]
pub struct ValidateArgs {
    #[command(flatten)]
    pub input: InputArgs,
}

#[derive(Debug, Args)]
pub struct ConfigArgs {
    /// Directory whose Configs are read (those in files directly in it, as every command reads
    /// them).
    #[arg(value_name = "FLEET_DIR")]
    pub input: PathBuf,
    /// Inventory of Karmada Cluster objects, in place of the Config's `spec.clusters`.
    #[arg(long, short = 'c', value_name = "FILE")]
    pub clusters: Option<PathBuf>,
    /// build's output directory, in place of the Config's `spec.output`.
    #[arg(long, short = 'o', value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Treat every warning as an error, except lints given another level by name.
    #[arg(long)]
    pub strict: bool,
    /// Make a lint's warnings errors (repeatable).
    #[arg(long, value_name = "LINT", value_parser = lint_names())]
    pub deny: Vec<String>,
    /// Report a lint's warnings as warnings (repeatable).
    #[arg(long, value_name = "LINT", value_parser = lint_names())]
    pub warn: Vec<String>,
    /// Silence a lint (repeatable).
    #[arg(long, value_name = "LINT", value_parser = lint_names())]
    pub allow: Vec<String>,
    /// diff's --ignore-field, added to the Config's rules (repeatable).
    #[arg(
        long,
        value_name = "[GROUP/KIND[/NAMESPACE/NAME]=]JSON_POINTER",
        value_parser = fedrender_engine::diff::ignore::IgnoreRule::field
    )]
    pub ignore_field: Vec<fedrender_engine::diff::ignore::IgnoreRule>,
    /// diff's --ignore-resource, added to the Config's rules (repeatable).
    #[arg(
        long,
        value_name = "GROUP:KIND:NAMESPACE/NAME",
        value_parser = fedrender_engine::diff::ignore::IgnoreRule::resource
    )]
    pub ignore_resource: Vec<fedrender_engine::diff::ignore::IgnoreRule>,
    #[command(flatten)]
    pub run: RunArgs,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    pub shell: clap_complete::Shell,
}

#[derive(Debug, Args)]
pub struct ManArgs {
    /// The command whose page to print (fedrender-build(1), …); fedrender(1) without it.
    #[arg(value_parser = ["build", "diff", "plan", "validate", "config", "completions", "man"])]
    pub command: Option<String>,
}
