//! The engine run over a fleet read from disk, as every command starts: read the fleet (and run
//! its tools), place every template, lay out the output tree, judge the warnings by their lint
//! levels; then hand the placement to the command ([`with_placed`]). A fleet rendered into
//! memory ([`render_fleet`]) and a fleet summarised ([`summarise_fleet`]) are the two ways every
//! command shares.

use fedrender_engine::diagnostics::{Diagnostic, Rejected};
use fedrender_engine::lint::LintLevels;
use fedrender_engine::output::{OutputTree, TreeLayout};
use fedrender_engine::render::{self, plan::PlanEntry};
use fedrender_engine::{check, cluster_taints, fleet, interpret, progress};

use crate::source::files::locate_fields;
use crate::source::fleet::{FleetSource, read_fleet};

/// A run's outcome with the warnings it produced, whether it succeeded or not.
#[derive(Debug)]
pub struct Outcome<T> {
    pub result: Result<T, Rejected>,
    pub warnings: Vec<Diagnostic>,
}

/// How many templates render before their files are written. Memory holds one chunk's
/// objects; a chunk's files are written in path order, and a larger chunk gives longer runs
/// of files in one directory.
pub const CHUNK: usize = 1024;

/// Reads the fleet and places every template, then hands the placement and the output
/// layout to `then`. Every warning is known by then, so when a lint level denies one (it is an
/// error) nothing is rendered or written.
pub fn with_placed<T>(
    source: &FleetSource,
    lints: &LintLevels,
    explain: bool,
    then: impl FnOnce(render::Placed<'_>, TreeLayout) -> Result<T, Rejected>,
) -> Outcome<T> {
    let mut warnings = Vec::new();
    let result = (|| {
        progress::begin(progress::Stage::Reading, 0);
        let (fleet, read_warnings) = read_fleet(source)?;
        warnings.extend(read_warnings);
        progress::begin(progress::Stage::Placing, 0);
        let mut placed = render::place(&fleet, explain)?;
        warnings.append(&mut placed.warnings);
        let mut names: Vec<&str> = fleet.clusters.iter().map(|c| c.name()).collect();
        let filter = &source.cluster_filter;
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
        let levels = lints.over(&fleet.lint_levels);
        let (kept, denied) = levels.apply(std::mem::take(&mut warnings));
        warnings = kept;
        if !denied.is_empty() {
            return Err(Rejected::from(denied));
        }
        placed.check_schemas(levels);
        let late = placed.late_warnings();
        let mut result = then(placed, layout);
        let mut late = std::mem::take(&mut *late.lock().unwrap_or_else(|p| p.into_inner()));
        locate_fields(&mut late);
        if let Err(rejected) = &mut result {
            locate_fields(&mut rejected.errors);
        }
        // Objects render in parallel: their warnings are put in a stable order.
        late.sort_by(|a, b| (&a.origin, &a.message).cmp(&(&b.origin, &b.message)));
        warnings.extend(late);
        result
    })();
    Outcome { result, warnings }
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

/// Reads and renders a fleet into memory (for `--stdout` and tests): every check
/// `build` makes, nothing written. A warning whose lint is denied is an error.
pub fn render_fleet(
    source: &FleetSource,
    lints: &LintLevels,
    explain: bool,
) -> Outcome<RenderedFleet> {
    with_placed(source, lints, explain, |placed, layout| {
        let tree = OutputTree::collect(&layout, &placed)?;
        Ok(RenderedFleet {
            tree,
            plan: placed.plan,
        })
    })
}

/// A fleet rendered and checked, its objects counted and dropped.
#[derive(Debug, Clone, Default)]
pub struct FleetSummary {
    pub clusters: usize,
    /// The member clusters, sorted.
    pub cluster_names: Vec<String>,
    pub objects: usize,
    /// Why every template went where it went.
    pub plan: Vec<PlanEntry>,
    /// The sources a tool rendered, with what each ran.
    pub sources: Vec<fleet::SourceRun>,
    /// Operations of the fleet's interpreter customizations that only a live control plane
    /// runs.
    pub ignored_operations: Vec<interpret::customization::IgnoredOperations>,
    /// The taints ClusterTaintPolicies put on or took off clusters.
    pub taint_changes: Vec<cluster_taints::TaintChange>,
    /// The Kubernetes version each cluster's objects were checked against, by cluster name;
    /// empty when nothing was checked.
    pub kubernetes_versions: std::collections::BTreeMap<String, check::ClusterVersion>,
}

/// `fedrender validate` and `plan`: every check `build` makes, holding no rendered object
/// longer than it takes to build it; with `explain`, the plan too (every template's story on
/// every cluster, the largest thing a run can hold: `validate`, which prints a count, does not
/// ask for it).
pub fn summarise_fleet(
    source: &FleetSource,
    lints: &LintLevels,
    explain: bool,
) -> Outcome<FleetSummary> {
    with_placed(source, lints, explain, |placed, layout| {
        placed.render_chunks(CHUNK, |_| Ok(()))?;
        Ok(FleetSummary {
            clusters: layout.clusters().len(),
            cluster_names: layout.clusters().to_vec(),
            objects: layout.object_count(),
            sources: placed.fleet().sources.clone(),
            ignored_operations: placed.fleet().interpreter.customizations().ignored.clone(),
            taint_changes: placed.fleet().taint_changes.clone(),
            kubernetes_versions: match placed.checker() {
                Some(checker) => (placed.fleet().clusters.iter().enumerate())
                    .filter(|(_, cluster)| layout.clusters().iter().any(|c| c == cluster.name()))
                    .map(|(position, cluster)| {
                        (cluster.name().to_string(), checker.version_of(position))
                    })
                    .collect(),
                None => Default::default(),
            },
            plan: placed.plan,
        })
    })
}
