//! fedrender renders a multi-cluster Kubernetes fleet offline: resource templates plus
//! Karmada propagation and override policies, against an inventory of member clusters, become
//! one manifest tree per cluster. The pipeline is Karmada's own:
//! load → classify → bind → schedule → override → work → emit.

pub mod api;
pub mod bind;
pub mod dependencies;
pub mod diagnostics;
pub mod emit;
pub mod exit_code;
pub mod fleet;
pub mod interpret;
pub mod names;
pub mod namespace_sync;
pub mod object;
pub mod overrides;
pub mod policy;
pub mod quantity;
pub mod render;
pub mod schedule;
pub mod source;
pub mod work;
pub mod yaml;

use std::path::PathBuf;
use std::time::Instant;

use diagnostics::{Diagnostic, Rejected};
use emit::OutputTree;
use fleet::FleetSource;

#[derive(Debug, Clone)]
pub struct BuildOptions {
    pub source: FleetSource,
    pub out: PathBuf,
    pub strict: bool,
}

#[derive(Debug, Clone, Default)]
pub struct BuildReport {
    pub clusters: usize,
    pub objects: usize,
    pub written: usize,
    pub unchanged: usize,
    pub removed: usize,
    pub seconds: f64,
}

/// A run's outcome with the warnings it produced, whether it succeeded or not.
#[derive(Debug)]
pub struct Outcome<T> {
    pub result: Result<T, Rejected>,
    pub warnings: Vec<Diagnostic>,
}

/// Reads and renders a fleet into memory: every check `build` makes, nothing written.
pub fn render_fleet(source: &FleetSource, strict: bool) -> Outcome<(OutputTree, usize, usize)> {
    let mut warnings = Vec::new();
    let result = (|| {
        let (fleet, read_warnings) = fleet::read_fleet(source)?;
        warnings.extend(read_warnings);
        let rendered = render::render(&fleet)?;
        warnings.extend(rendered.warnings.iter().cloned());
        let names: Vec<&str> = fleet.clusters.iter().map(|c| c.name()).collect();
        let tree = emit::plan_tree(&rendered, &names)?;
        if strict && !warnings.is_empty() {
            let errors = warnings
                .drain(..)
                .map(|mut warning| {
                    warning.severity = diagnostics::Severity::Error;
                    warning
                        .message
                        .push_str(" (a warning; --strict makes it an error)");
                    warning
                })
                .collect::<Vec<_>>();
            return Err(Rejected::from(errors));
        }
        let objects = tree.files.len() - names.len();
        Ok((tree, names.len(), objects))
    })();
    Outcome { result, warnings }
}

/// `fedrender build`: renders the fleet and writes the trees. On any error nothing is written.
pub fn build(options: &BuildOptions) -> Outcome<BuildReport> {
    let started = Instant::now();
    let Outcome { result, warnings } = render_fleet(&options.source, options.strict);
    let result = result.and_then(|(tree, clusters, objects)| {
        let changes = emit::tree::compare_with_disk(&options.out, &tree)?;
        emit::tree::apply(&options.out, &tree, &changes)?;
        Ok(BuildReport {
            clusters,
            objects,
            written: changes.write.len(),
            unchanged: changes.unchanged.len(),
            removed: changes.remove.len(),
            seconds: started.elapsed().as_secs_f64(),
        })
    });
    Outcome { result, warnings }
}
