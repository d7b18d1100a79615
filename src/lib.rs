//! fedrender renders a multi-cluster Kubernetes fleet offline: resource templates plus
//! Karmada propagation and override policies, against an inventory of member clusters, become
//! one manifest tree per cluster. The pipeline is Karmada's own:
//! load → classify → bind → schedule → override → work → emit.

pub mod api;
pub mod bind;
pub mod dependencies;
pub mod diagnostics;
pub mod diff;
pub mod emit;
pub mod exit_code;
pub mod federation;
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
use emit::tree::TreeChanges;
use fleet::FleetSource;
use render::PlanEntry;

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

/// A fleet rendered in memory.
#[derive(Debug, Clone, Default)]
pub struct RenderedFleet {
    pub tree: OutputTree,
    /// Filled when the render was asked to explain itself.
    pub plan: Vec<PlanEntry>,
}

impl RenderedFleet {
    pub fn object_count(&self) -> usize {
        self.tree.object_count
    }
}

/// Reads and renders a fleet into memory: every check `build` makes, nothing written. Under
/// `strict` every warning is an error.
pub fn render_fleet(source: &FleetSource, strict: bool, explain: bool) -> Outcome<RenderedFleet> {
    let mut warnings = Vec::new();
    let result = (|| {
        let (fleet, read_warnings) = fleet::read_fleet(source)?;
        warnings.extend(read_warnings);
        let rendered = render::render(&fleet, explain)?;
        warnings.extend(rendered.warnings.iter().cloned());
        if explain {
            warnings.extend(tie_warnings(&rendered.plan));
        }
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
        Ok(RenderedFleet {
            tree,
            plan: rendered.plan,
        })
    })();
    Outcome { result, warnings }
}

/// Policies that tie on explicit and implicit priority for one template: Karmada then picks
/// by name, which is rarely what the author meant.
fn tie_warnings(plan: &[PlanEntry]) -> Vec<Diagnostic> {
    plan.iter()
        .filter_map(|entry| {
            let runner_up = entry.policies.get(1)?;
            runner_up
                .outcome
                .starts_with("lost: same priority and specificity")
                .then(|| {
                    Diagnostic::warning(
                        Some(entry.origin.clone()),
                        format!(
                            "{} and {} tie on priority for {}; {} wins by name",
                            entry.policies[0].policy,
                            runner_up.policy,
                            entry.key,
                            entry.policies[0].policy
                        ),
                    )
                })
        })
        .collect()
}

/// `fedrender build`: renders the fleet and writes the trees. On any error nothing is written.
pub fn build(options: &BuildOptions) -> Outcome<BuildReport> {
    let started = Instant::now();
    let Outcome { result, warnings } = render_fleet(&options.source, options.strict, false);
    let result = result.and_then(|rendered| {
        let changes = emit::tree::compare_with_disk(&options.out, &rendered.tree)?;
        emit::tree::apply(&options.out, &rendered.tree, &changes)?;
        Ok(BuildReport {
            clusters: rendered.tree.clusters.len(),
            objects: rendered.object_count(),
            written: changes.write.len(),
            unchanged: changes.unchanged.len(),
            removed: changes.remove.len(),
            seconds: started.elapsed().as_secs_f64(),
        })
    });
    Outcome { result, warnings }
}

/// `fedrender build --check`: what a build would change in `out`, changing nothing.
pub fn check(options: &BuildOptions) -> Outcome<TreeChanges> {
    let Outcome { result, warnings } = render_fleet(&options.source, options.strict, false);
    let result =
        result.and_then(|rendered| emit::tree::compare_with_disk(&options.out, &rendered.tree));
    Outcome { result, warnings }
}

/// What `fedrender diff` compares the fleet with.
#[derive(Debug, Clone)]
pub enum DiffBase {
    /// A committed output tree.
    Rendered(PathBuf),
    /// Another input (e.g. the target branch), rendered too.
    Input(FleetSource),
}

/// `fedrender diff`: the change from the base to the fleet, object by object.
pub fn diff(
    head: &FleetSource,
    base: &DiffBase,
    strict: bool,
    show_secrets: bool,
) -> Outcome<diff::FleetDiff> {
    let Outcome {
        result,
        mut warnings,
    } = render_fleet(head, strict, false);
    let result = result.and_then(|rendered| {
        let after = diff::FleetObjects::from_tree(&rendered.tree);
        let before = match base {
            DiffBase::Rendered(dir) => {
                let files = source::load::read_rendered_tree(dir)?;
                diff::FleetObjects::from_files(&files)?
            }
            DiffBase::Input(source) => {
                let base = render_fleet(source, false, false);
                warnings.extend(base.warnings.into_iter().map(|mut warning| {
                    warning.message = format!("(base) {}", warning.message);
                    warning
                }));
                diff::FleetObjects::from_tree(&base.result?.tree)
            }
        };
        Ok(diff::diff(&before, &after, show_secrets))
    });
    Outcome { result, warnings }
}
