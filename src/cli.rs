//! The command line (clap). Raw flags become validated library options here; the library never
//! sees clap.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use fedrender::fleet::{FleetSource, Inventory};

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
    Build(BuildArgs),
}

#[derive(Debug, Args)]
pub struct InputArgs {
    /// Directory of resource templates and policies (read recursively; hidden entries skipped).
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
    /// Treat warnings (templates nothing places, policies that select nothing, unknown
    /// cluster names) as errors.
    #[arg(long)]
    pub strict: bool,
    /// Worker threads (default: one per core). The output does not depend on it.
    #[arg(long, short = 'j', value_name = "N")]
    pub jobs: Option<usize>,
    /// Print nothing but errors.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

#[derive(Debug, Args)]
pub struct BuildArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Output directory: one subdirectory per member cluster.
    #[arg(long, short = 'o', value_name = "DIR")]
    pub out: PathBuf,
}

impl InputArgs {
    /// The validated fleet source; `skip` lists directories inside the input that are not input.
    pub fn fleet_source(&self, skip: Vec<PathBuf>) -> Result<FleetSource, String> {
        let patterns = |globs: &[String], flag: &str| {
            globs
                .iter()
                .map(|glob| {
                    glob::Pattern::new(glob).map_err(|error| format!("--{flag} {glob:?}: {error}"))
                })
                .collect::<Result<Vec<_>, _>>()
        };
        let inventory = match &self.clusters {
            None => Inventory::InputOnly,
            Some(path) if path.as_os_str() == "-" => Inventory::Stdin,
            Some(path) => Inventory::File(path.clone()),
        };
        Ok(FleetSource {
            input: self.input.clone(),
            inventory,
            include: patterns(&self.include, "include")?,
            exclude: patterns(&self.exclude, "exclude")?,
            skip,
        })
    }
}
