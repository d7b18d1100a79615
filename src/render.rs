//! The pipeline from typed inputs to per-cluster objects: bind → schedule → override → work.
//! Pure: no file is read or written here, so the same inputs always give the same result and
//! templates render in parallel.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

use rayon::prelude::*;
use serde_json::Value;

use crate::api::cluster::Cluster;
use crate::api::selector::{ImplicitPriority, ObjectIdentity};
use crate::bind::{self, PolicyIndex};
use crate::diagnostics::{Diagnostic, Rejected};
use crate::federated_quota::FederatedQuota;
use crate::federation::{self, FederatedBinding};
use crate::interpret::{Dependency, Interpreter, Operation};
use crate::lint::{Level, Lint};
use crate::namespace_sync;
use crate::object::{ObjectKey, Template};
use crate::overrides::{self, OverrideIndex, RuleRef};
use crate::policy::{Override, Propagation};
use crate::schedule::{self, Filtered, TargetCluster, Workload};
use crate::work;

/// Everything the pipeline needs, after loading, classifying and admission.
#[derive(Debug, Default)]
pub struct Fleet {
    pub templates: Vec<Template>,
    pub propagations: Vec<Propagation>,
    pub overrides: Vec<Override>,
    /// The inventory, sorted by name.
    pub clusters: Vec<Cluster>,
    pub interpreter: Interpreter,
    /// KubeFed and Federation v1 objects, translated: placed by their own rules, not by
    /// Karmada policies.
    pub federated: Vec<FederatedBinding>,
    /// Karmada FederatedResourceQuotas: a ResourceQuota in each cluster they assign.
    pub federated_quotas: Vec<FederatedQuota>,
    /// Lint levels the fleet's fedrender Config sets.
    pub lint_levels: BTreeMap<Lint, Level>,
    /// The sources a tool rendered (kustomize, Helm, commands), with what each ran.
    pub sources: Vec<crate::source::tools::SourceRun>,
    /// Configs that set fields standing in for flags, with those fields.
    pub flag_configs: Vec<(crate::diagnostics::Origin, Vec<&'static str>)>,
}

/// One template's output: each distinct object with the clusters that receive it, so that an
/// object identical in many clusters is built and serialised once.
#[derive(Debug, Clone)]
pub struct RenderedTemplate {
    pub key: ObjectKey,
    pub variants: Vec<Variant>,
}

#[derive(Debug, Clone)]
pub struct Variant {
    /// The manifest as written to each of these clusters. Serialised as soon as the object is
    /// built, so the object tree is dropped at once and memory holds only text.
    pub manifest: Arc<str>,
    /// Indices into the fleet's clusters, ascending.
    pub clusters: Vec<usize>,
}

/// Where every template goes, decided before any object is built: small next to the objects
/// themselves, which [`Placed::render_chunks`] then builds a chunk of templates at a time.
#[derive(Debug)]
pub struct Placed<'f> {
    fleet: &'f Fleet,
    cluster_index: BTreeMap<&'f str, usize>,
    overrides: OverrideIndex<'f>,
    /// One per template of the fleet, in order.
    placements: Vec<Placement>,
    /// One per KubeFed or Federation v1 binding of the fleet, in order.
    federated: Vec<Vec<(String, Option<i64>)>>,
    pub warnings: Vec<Diagnostic>,
    /// Why every template went where it went; filled when asked (`fedrender plan`).
    pub plan: Vec<PlanEntry>,
    /// When only some clusters are emitted (`--cluster`), each inventory position's position
    /// among them, or `None` for a cluster left out.
    emitted: Option<Vec<Option<usize>>>,
}

/// The story of one template, for `fedrender plan`: which policies matched and why one won,
/// which clusters the filters removed and why, where it went with how many replicas, and the
/// override rules applied in each cluster.
#[derive(Debug, Clone)]
pub struct PlanEntry {
    pub key: ObjectKey,
    pub origin: crate::diagnostics::Origin,
    /// Matching propagation policies, the winner first, each with why it won or lost.
    pub policies: Vec<PolicyChoice>,
    /// What placed the template: a policy, the namespace controller, a dependant.
    pub placed_by: Vec<String>,
    pub filtered: Vec<(String, String)>,
    pub clusters: Vec<PlannedCluster>,
    /// Why it goes nowhere, when it does.
    pub nowhere: Option<String>,
    /// Which interpreter answered each operation for it (none: not a workload, no revision,
    /// no dependencies).
    pub interpreted_by: Vec<(Operation, String)>,
    /// Operations of its kind's customizations that only a live control plane runs.
    pub ignored_operations: Vec<String>,
}

#[derive(Debug, Clone)]
pub struct PolicyChoice {
    pub policy: String,
    pub priority: i32,
    pub matched_by: &'static str,
    pub outcome: String,
}

#[derive(Debug, Clone)]
pub struct PlannedCluster {
    pub name: String,
    pub replicas: Option<i64>,
    pub completions: Option<i64>,
    /// `<policy>: <rule>` of every override rule applied, in order.
    pub overrides: Vec<String>,
}

/// One object to render: its key, where it was written, and the clusters (positions in the
/// inventory, ascending) that receive it.
#[derive(Debug, Clone)]
pub struct Destination<'a> {
    pub key: &'a ObjectKey,
    pub origin: &'a crate::diagnostics::Origin,
    pub clusters: Vec<usize>,
}

/// What happened to one template, before its objects are built.
#[derive(Debug)]
struct Placement {
    targets: Vec<TargetCluster>,
    override_policies: Vec<usize>,
    /// Whether the winning policy sends the template's dependencies along.
    propagate_deps: bool,
    /// Why the template goes nowhere, warned about unless a dependant takes it along.
    nowhere: Option<String>,
    /// Matching propagation policies with their implicit priority, and the winner.
    candidates: Vec<(usize, ImplicitPriority)>,
    winner: Option<usize>,
    placed_by: Vec<String>,
    filtered: Vec<(String, Filtered)>,
}

/// Binds and schedules every template; with `explain`, also the plan report's story of every
/// template. Every warning a render can give is known here, before any object is built.
pub fn place(fleet: &Fleet, explain: bool) -> Result<Placed<'_>, Rejected> {
    check_dependent_overrides(fleet)?;
    let index = PolicyIndex::new(&fleet.propagations);
    let override_index = OverrideIndex::new(&fleet.overrides, &fleet.clusters);
    let cluster_index: BTreeMap<&str, usize> = fleet
        .clusters
        .iter()
        .enumerate()
        .map(|(position, cluster)| (cluster.name(), position))
        .collect();
    let placed: Vec<Result<Placement, Rejected>> = fleet
        .templates
        .par_iter()
        .map(|template| place_template(fleet, &index, &override_index, template))
        .collect();
    let mut placements = Vec::with_capacity(placed.len());
    let mut errors = Vec::new();
    for result in placed {
        match result {
            Ok(placement) => placements.push(placement),
            Err(rejected) => errors.extend(rejected.errors),
        }
    }
    let mut federated = Vec::with_capacity(fleet.federated.len());
    let mut warnings = Vec::new();
    let mut federated_plan = Vec::new();
    for binding in &fleet.federated {
        match federation::targets(binding, &fleet.clusters) {
            Ok(targets) => {
                warnings.extend(federation::target_warnings(
                    binding,
                    &fleet.clusters,
                    &targets,
                ));
                if explain {
                    federated_plan.push(federated_plan_entry(binding, &targets));
                }
                federated.push(targets);
            }
            Err(message) => errors.push(Diagnostic::error(
                Some(binding.source.clone()),
                format!("{}: {message}", binding.source_name),
            )),
        }
    }
    if !errors.is_empty() {
        return Err(errors.into());
    }
    for quota in &fleet.federated_quotas {
        warnings.extend(quota.inventory_warnings(&fleet.clusters));
        if explain {
            federated_plan.push(quota_plan_entry(quota, &cluster_index));
        }
    }
    follow_dependencies(fleet, &mut placements, &cluster_index, &mut warnings)?;
    let mut propagations_used = BTreeSet::new();
    let mut overrides_used = BTreeSet::new();
    for (template, placement) in fleet.templates.iter().zip(&placements) {
        if placement.targets.is_empty()
            && let Some(reason) = &placement.nowhere
        {
            warnings.push(
                Diagnostic::warning(
                    Lint::UnplacedTemplate,
                    Some(template.origin.clone()),
                    reason.clone(),
                )
                .about_object(&template.key),
            );
        }
        propagations_used.extend(placement.candidates.iter().map(|(policy, _)| *policy));
        overrides_used.extend(placement.override_policies.iter().copied());
    }
    extend_with_overrides_after_cluster_overrides(
        fleet,
        &override_index,
        &cluster_index,
        &placements,
        &mut overrides_used,
    );
    warnings.extend(overlap_warnings(fleet, &index, &placements));
    warnings.extend(overriders_that_change_nothing(fleet, &placements));
    warnings.extend(propagation_warnings(fleet, &propagations_used));
    warnings.extend(override_warnings(fleet, &overrides_used, &placements));
    let mut plan = Vec::new();
    if explain {
        plan = fleet
            .templates
            .iter()
            .zip(&placements)
            .map(|(template, placement)| {
                plan_entry(
                    fleet,
                    &index,
                    &override_index,
                    &cluster_index,
                    template,
                    placement,
                )
            })
            .collect();
        plan.extend(federated_plan);
        // By object, so the report does not depend on file order.
        plan.sort_by(|a, b| a.key.cmp(&b.key));
    }
    Ok(Placed {
        emitted: None,
        fleet,
        cluster_index,
        overrides: override_index,
        placements,
        federated,
        warnings,
        plan,
    })
}

impl<'f> Placed<'f> {
    /// The fleet placed.
    pub fn fleet(&self) -> &'f Fleet {
        self.fleet
    }

    /// Every object to render with where it comes from and the clusters that receive it: the
    /// templates in order, then the KubeFed and Federation v1 objects, then the ResourceQuotas
    /// of FederatedResourceQuotas.
    /// [`render_chunks`](Self::render_chunks) numbers objects by position in this list.
    pub fn destinations(&self) -> Vec<Destination<'_>> {
        let fleet = self.fleet;
        let templates =
            fleet
                .templates
                .iter()
                .zip(&self.placements)
                .map(|(template, placement)| Destination {
                    key: &template.key,
                    origin: &template.origin,
                    clusters: self.emitted_positions(
                        self.positions(placement.targets.iter().map(|t| t.name.as_str())),
                    ),
                });
        let federated = fleet
            .federated
            .iter()
            .zip(&self.federated)
            .map(|(binding, targets)| Destination {
                key: &binding.template.key,
                origin: &binding.source,
                clusters: self.emitted_positions(
                    self.positions(targets.iter().map(|(name, _)| name.as_str())),
                ),
            });
        let quotas = fleet.federated_quotas.iter().map(|quota| {
            let mut clusters: Vec<usize> = quota
                .assigned(&self.cluster_index)
                .map(|(_, position)| position)
                .collect();
            clusters.sort_unstable();
            Destination {
                key: &quota.key,
                origin: &quota.origin,
                clusters: self.emitted_positions(clusters),
            }
        });
        templates.chain(federated).chain(quotas).collect()
    }

    /// Every object's position in [`destinations`](Self::destinations), by its key.
    pub fn positions_by_key(&self) -> HashMap<&ObjectKey, usize> {
        (0..self.object_count())
            .map(|position| (self.key(position), position))
            .collect()
    }

    /// How many objects [`destinations`](Self::destinations) lists.
    fn object_count(&self) -> usize {
        let fleet = self.fleet;
        fleet.templates.len() + fleet.federated.len() + fleet.federated_quotas.len()
    }

    /// The object at a position in [`destinations`](Self::destinations).
    pub fn key(&self, position: usize) -> &ObjectKey {
        let fleet = self.fleet;
        let federated_start = fleet.templates.len();
        let quotas_start = federated_start + fleet.federated.len();
        if position < federated_start {
            &fleet.templates[position].key
        } else if position < quotas_start {
            &fleet.federated[position - federated_start].template.key
        } else {
            &fleet.federated_quotas[position - quotas_start].key
        }
    }

    fn positions<'a>(&self, names: impl Iterator<Item = &'a str>) -> Vec<usize> {
        let mut positions: Vec<usize> = names.map(|name| self.cluster_index[name]).collect();
        positions.sort_unstable();
        positions
    }

    /// Emits the kept clusters only (`kept` is one flag per cluster of the inventory):
    /// [`destinations`](Self::destinations) and rendered objects then number clusters among
    /// the kept. Placement is the whole fleet's, so each kept cluster gets what it gets in
    /// the whole fleet.
    pub fn emit_only(&mut self, kept: &[bool]) {
        self.emitted = Some(crate::cluster_filter::positions(kept));
    }

    /// Positions in the inventory, as emitted: renumbered among the kept clusters, the others
    /// left out. Ascending order is kept.
    fn emitted_positions(&self, positions: Vec<usize>) -> Vec<usize> {
        match &self.emitted {
            None => positions,
            Some(emitted) => positions
                .into_iter()
                .filter_map(|position| emitted[position])
                .collect(),
        }
    }

    /// Builds every object, `chunk` templates at a time: a chunk renders in parallel, then
    /// goes to `consume` whole, each rendered template with its position in
    /// [`destinations`](Self::destinations). Memory holds one chunk, and the consumer can
    /// order a chunk's writes. Every failure is reported, in template order; after the first,
    /// the remaining chunks are still rendered for their own errors but no longer consumed.
    pub fn render_chunks<F>(&self, chunk: usize, consume: F) -> Result<(), Rejected>
    where
        F: FnMut(Vec<(usize, RenderedTemplate)>) -> Result<(), Rejected>,
    {
        crate::progress::begin(crate::progress::Stage::Rendering, self.object_count());
        self.render_only(0..self.object_count(), chunk, consume)
    }

    /// [`render_chunks`](Self::render_chunks) for the objects at some positions only.
    pub fn render_only<F>(
        &self,
        positions: impl IntoIterator<Item = usize>,
        chunk: usize,
        mut consume: F,
    ) -> Result<(), Rejected>
    where
        F: FnMut(Vec<(usize, RenderedTemplate)>) -> Result<(), Rejected>,
    {
        let mut positions = positions.into_iter();
        let mut errors = Vec::new();
        loop {
            let batch: Vec<usize> = positions.by_ref().take(chunk.max(1)).collect();
            if batch.is_empty() {
                break;
            }
            let results: Vec<Result<Option<RenderedTemplate>, Rejected>> = batch
                .par_iter()
                .map(|&position| self.render_one(position))
                .collect();
            crate::progress::advance(batch.len());
            let mut rendered = Vec::with_capacity(results.len());
            for (position, result) in batch.into_iter().zip(results) {
                match result.map(|template| template.and_then(|t| self.emitted_template(t))) {
                    Ok(Some(template)) => rendered.push((position, template)),
                    Ok(None) => {}
                    Err(rejected) => errors.extend(rejected.errors),
                }
            }
            // Templates keep rendering after a template's error, to report every error at
            // once; a consumer's error (the disk, an interrupt) ends the render as it is.
            if errors.is_empty() {
                consume(rendered)?;
            }
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors.into())
        }
    }

    /// A rendered template as emitted: its variants for kept clusters only, renumbered;
    /// `None` when it goes to none of them.
    fn emitted_template(&self, mut template: RenderedTemplate) -> Option<RenderedTemplate> {
        if self.emitted.is_none() {
            return Some(template);
        }
        for variant in &mut template.variants {
            variant.clusters = self.emitted_positions(std::mem::take(&mut variant.clusters));
        }
        template
            .variants
            .retain(|variant| !variant.clusters.is_empty());
        (!template.variants.is_empty()).then_some(template)
    }

    /// The objects of the template (or KubeFed or Federation v1 object, or
    /// FederatedResourceQuota) at `position` in [`destinations`](Self::destinations); `None`
    /// when it goes nowhere.
    fn render_one(&self, position: usize) -> Result<Option<RenderedTemplate>, Rejected> {
        let fleet = self.fleet;
        let federated_start = fleet.templates.len();
        let quotas_start = federated_start + fleet.federated.len();
        if position < federated_start {
            build_variants(
                fleet,
                &self.overrides,
                &fleet.templates[position],
                &self.placements[position],
                &self.cluster_index,
            )
        } else if position < quotas_start {
            let federated = position - federated_start;
            render_federated(
                &fleet.federated[federated],
                &self.federated[federated],
                &self.cluster_index,
            )
        } else {
            Ok(render_quota(
                &fleet.federated_quotas[position - quotas_start],
                &self.cluster_index,
            ))
        }
    }
}

fn plan_entry(
    fleet: &Fleet,
    index: &PolicyIndex<'_>,
    override_index: &OverrideIndex<'_>,
    cluster_index: &BTreeMap<&str, usize>,
    template: &Template,
    placement: &Placement,
) -> PlanEntry {
    let mut candidates = placement.candidates.clone();
    // Best first: the PropagationPolicies of the namespace, then ClusterPropagationPolicies.
    candidates.sort_by(|a, b| {
        let cluster_wide =
            |c: &(usize, ImplicitPriority)| fleet.propagations[c.0].is_cluster_wide();
        cluster_wide(a)
            .cmp(&cluster_wide(b))
            .then(index.compare(*a, *b))
    });
    let winner = placement.winner.map(|policy| &fleet.propagations[policy]);
    let policies = candidates
        .iter()
        .map(|&(policy_index, implicit)| {
            let policy = &fleet.propagations[policy_index];
            let outcome = match winner {
                Some(_) if Some(policy_index) == placement.winner => "won".to_string(),
                Some(winner) if policy.is_cluster_wide() && !winner.is_cluster_wide() => {
                    format!(
                        "lost: {} in the namespace wins over every ClusterPropagationPolicy",
                        winner.id
                    )
                }
                Some(winner) if winner.priority != policy.priority => {
                    format!(
                        "lost: priority {} is below {}'s {}",
                        policy.priority, winner.id, winner.priority
                    )
                }
                Some(winner) => {
                    let winner_implicit = placement
                        .candidates
                        .iter()
                        .find(|(index, _)| Some(*index) == placement.winner)
                        .map(|(_, implicit)| *implicit)
                        .unwrap_or(implicit);
                    if winner_implicit != implicit {
                        format!(
                            "lost: selects by {}, {} by {}",
                            implicit.describe(),
                            winner.id,
                            winner_implicit.describe()
                        )
                    } else {
                        format!(
                            "lost: same priority and specificity, {} sorts first by name",
                            winner.id
                        )
                    }
                }
                None => "not used".to_string(),
            };
            PolicyChoice {
                policy: policy.id.to_string(),
                priority: policy.priority,
                matched_by: implicit.describe(),
                outcome,
            }
        })
        .collect();
    let passes = OverridePasses::new(override_index, template);
    let mut namespaced_after = BTreeMap::new();
    let mut revisions = work::Revisions::new(&fleet.interpreter, template);
    let clusters = placement
        .targets
        .iter()
        .map(|target| {
            let overrides = rules_in_cluster(
                fleet,
                &passes,
                template,
                target,
                cluster_index[target.name.as_str()],
                &mut namespaced_after,
                &mut revisions,
            )
            .iter()
            .map(|rule| {
                let policy = &fleet.overrides[rule.policy];
                format!("{}: {}", policy.id, policy.rules[rule.rule].field)
            })
            .collect();
            PlannedCluster {
                name: target.name.clone(),
                replicas: target.replicas,
                completions: target.completions,
                overrides,
            }
        })
        .collect();
    let interpreted_by = Operation::ALL
        .into_iter()
        .filter_map(|operation| {
            let supplier = fleet.interpreter.supplier(template, operation)?;
            Some((operation, supplier.to_string()))
        })
        .collect();
    let target = format!("{} {}", template.api_version, template.kind());
    let ignored_operations = fleet
        .interpreter
        .customizations()
        .ignored
        .iter()
        .filter(|ignored| ignored.target == target)
        .flat_map(|ignored| {
            ignored.fields.iter().map(|field| {
                format!(
                    "{field} of ResourceInterpreterCustomization {} ({})",
                    ignored.customization, ignored.origin
                )
            })
        })
        .collect();
    PlanEntry {
        key: template.key.clone(),
        origin: template.origin.clone(),
        interpreted_by,
        ignored_operations,
        policies,
        placed_by: placement.placed_by.clone(),
        filtered: placement
            .filtered
            .iter()
            .map(|(cluster, reason)| (cluster.clone(), reason.describe()))
            .collect(),
        clusters,
        nowhere: placement
            .targets
            .is_empty()
            .then(|| placement.nowhere.clone())
            .flatten(),
    }
}

/// The other front doors share everything after binding: targets from KubeFed's placement or
/// Federation v1's selector (and their replica planner), the object per cluster with KubeFed's
/// overrides, and the same emission. Karmada's overrides and pruning do not apply: those
/// systems never run them.
fn render_federated(
    binding: &FederatedBinding,
    targets: &[(String, Option<i64>)],
    cluster_index: &BTreeMap<&str, usize>,
) -> Result<Option<RenderedTemplate>, Rejected> {
    let mut objects = Vec::with_capacity(targets.len());
    for (cluster, replicas) in targets {
        let object =
            federation::object_for_cluster(binding, cluster, *replicas).map_err(|message| {
                Diagnostic::error(
                    Some(binding.source.clone()),
                    format!("{}: cluster {cluster}: {message}", binding.source_name),
                )
                .about_object(&binding.template.key)
                .on_cluster(cluster.as_str())
            })?;
        objects.push((cluster_index[cluster.as_str()], object));
    }
    Ok(rendered_per_cluster(&binding.template.key, objects))
}

/// Objects built cluster by cluster, grouped into variants by their manifest; `None` for no
/// cluster.
fn rendered_per_cluster(
    key: &ObjectKey,
    objects: impl IntoIterator<Item = (usize, Value)>,
) -> Option<RenderedTemplate> {
    let mut variants: Vec<Variant> = Vec::new();
    for (position, object) in objects {
        let manifest = crate::manifest::manifest(&object);
        match variants
            .iter_mut()
            .find(|variant| variant.manifest == manifest)
        {
            Some(variant) => variant.clusters.push(position),
            None => variants.push(Variant {
                manifest,
                clusters: vec![position],
            }),
        }
    }
    for variant in &mut variants {
        variant.clusters.sort_unstable();
    }
    (!variants.is_empty()).then(|| RenderedTemplate {
        key: key.clone(),
        variants,
    })
}

/// A FederatedResourceQuota's ResourceQuotas, one per assigned cluster of the inventory, built
/// as Karmada's sync controller builds them: no policy, no override.
fn render_quota(
    quota: &FederatedQuota,
    cluster_index: &BTreeMap<&str, usize>,
) -> Option<RenderedTemplate> {
    rendered_per_cluster(
        &quota.key,
        quota
            .assigned(cluster_index)
            .map(|(assignment, position)| (position, quota.resource_quota(assignment))),
    )
}

fn quota_plan_entry(quota: &FederatedQuota, cluster_index: &BTreeMap<&str, usize>) -> PlanEntry {
    let mut clusters: Vec<PlannedCluster> = quota
        .assigned(cluster_index)
        .map(|(assignment, _)| PlannedCluster {
            name: assignment.cluster.clone(),
            replicas: None,
            completions: None,
            overrides: Vec::new(),
        })
        .collect();
    clusters.sort_by(|a, b| a.name.cmp(&b.name));
    PlanEntry {
        key: quota.key.clone(),
        origin: quota.origin.clone(),
        policies: Vec::new(),
        placed_by: vec![quota.id.clone()],
        filtered: Vec::new(),
        interpreted_by: Vec::new(),
        ignored_operations: Vec::new(),
        nowhere: clusters
            .is_empty()
            .then(|| format!("{} assigns no cluster of the inventory", quota.id)),
        clusters,
    }
}

fn federated_plan_entry(
    binding: &FederatedBinding,
    targets: &[(String, Option<i64>)],
) -> PlanEntry {
    PlanEntry {
        key: binding.template.key.clone(),
        origin: binding.source.clone(),
        policies: Vec::new(),
        placed_by: vec![binding.source_name.clone()],
        filtered: Vec::new(),
        interpreted_by: Vec::new(),
        ignored_operations: Vec::new(),
        clusters: targets
            .iter()
            .map(|(name, replicas)| PlannedCluster {
                name: name.clone(),
                replicas: *replicas,
                completions: None,
                overrides: binding
                    .overrides
                    .get(name)
                    .map(|list| {
                        list.iter()
                            .map(|o| format!("{} {}", o.op.verb(), o.path))
                            .collect()
                    })
                    .unwrap_or_default(),
            })
            .collect(),
        nowhere: targets
            .is_empty()
            .then(|| format!("{} reaches no cluster", binding.source_name)),
    }
}

/// An OverridePolicy may select only what a ClusterOverridePolicy made of a template, so one
/// that selects no template as written may still be used. The objects are built to find out
/// only while such a policy is left, only for templates that go through a ClusterOverridePolicy
/// rule that may change what selectors see, and once per replica count and rule list.
fn extend_with_overrides_after_cluster_overrides(
    fleet: &Fleet,
    override_index: &OverrideIndex<'_>,
    cluster_index: &BTreeMap<&str, usize>,
    placements: &[Placement],
    overrides_used: &mut BTreeSet<usize>,
) {
    let unused_namespaced = |used: &BTreeSet<usize>| {
        (0..fleet.overrides.len())
            .any(|policy| !used.contains(&policy) && !override_index.is_cluster_wide(policy))
    };
    for (template, placement) in fleet.templates.iter().zip(placements) {
        if !unused_namespaced(overrides_used) {
            return;
        }
        let may_change_selection = placement.override_policies.iter().any(|&policy| {
            override_index.is_cluster_wide(policy)
                && (0..fleet.overrides[policy].rules.len()).any(|rule| {
                    override_index.may_change_what_selectors_see(RuleRef { policy, rule })
                })
        });
        if !may_change_selection {
            continue;
        }
        let passes = OverridePasses::new(override_index, template);
        let mut revisions = work::Revisions::new(&fleet.interpreter, template);
        let mut seen = BTreeSet::new();
        for target in &placement.targets {
            let cluster = cluster_index[target.name.as_str()];
            let first_pass = (
                target.replicas,
                target.completions,
                passes.cluster_rules(cluster),
            );
            if !passes.may_change_selection(&first_pass.2) || seen.contains(&first_pass) {
                continue;
            }
            overrides_used.extend(namespaced_policies_in(
                fleet,
                &passes,
                template,
                target,
                &first_pass.2,
                &mut revisions,
            ));
            seen.insert(first_pass);
        }
    }
}

/// Binds and schedules one template; the namespace controller adds every cluster for the
/// namespaces it propagates.
fn place_template(
    fleet: &Fleet,
    index: &PolicyIndex<'_>,
    override_index: &OverrideIndex<'_>,
    template: &Template,
) -> Result<Placement, Rejected> {
    let candidates = index.matching(template);
    let mut placement = Placement {
        targets: Vec::new(),
        override_policies: override_index.policies_for(template),
        propagate_deps: false,
        nowhere: None,
        candidates,
        winner: None,
        placed_by: Vec::new(),
        filtered: Vec::new(),
    };
    if let Some(reason) = bind::never_propagated(template) {
        placement.nowhere = Some(format!("{} is rendered nowhere: {reason}", template.key));
        return Ok(placement);
    }
    let bad_input = |message: String| {
        Rejected::from(Diagnostic::error(
            Some(template.origin.clone()),
            format!("{}: {message}", template.key),
        ))
    };
    match index.bind(&placement.candidates) {
        Some(binding) => {
            let policy = &fleet.propagations[binding.policy];
            let workload = Workload::of(&fleet.interpreter, template).map_err(bad_input)?;
            let schedule = schedule::schedule(template, &workload, policy, &fleet.clusters);
            placement.propagate_deps = policy.propagate_deps;
            placement.nowhere = Some(match (&schedule.failure, policy.suspension.dispatching) {
                (_, Some(true)) => format!(
                    "{} is rendered nowhere: {} suspends dispatching",
                    template.key, policy.id
                ),
                (Some(failure), _) => format!(
                    "{} is rendered nowhere: {} selects it but Karmada would not schedule it: {failure}",
                    template.key, policy.id
                ),
                (None, _) => format!(
                    "{} is rendered nowhere: {} suspends dispatching to every cluster it schedules",
                    template.key, policy.id
                ),
            });
            placement.targets = suspend(policy, schedule.targets);
            placement.winner = Some(binding.policy);
            placement.filtered = schedule.filtered;
            if !placement.targets.is_empty() {
                placement.placed_by.push(policy.id.to_string());
            }
        }
        None => {
            placement.nowhere = Some(format!(
                "{} is rendered nowhere: no PropagationPolicy or ClusterPropagationPolicy selects it",
                template.key
            ));
        }
    }
    if namespace_sync::is_auto_propagated(template) {
        placement.placed_by.push(
            "Karmada's namespace controller (every Namespace goes to every cluster)".to_string(),
        );
        placement.targets = fleet
            .clusters
            .iter()
            .map(|cluster| TargetCluster {
                name: cluster.name().to_string(),
                replicas: None,
                completions: None,
            })
            .collect();
    }
    Ok(placement)
}

/// propagateDeps: each dependency goes to the union of its own clusters and those of every
/// template that depends on it (karmada binding/common.go `mergeTargetClusters`).
fn follow_dependencies(
    fleet: &Fleet,
    placements: &mut [Placement],
    cluster_index: &BTreeMap<&str, usize>,
    warnings: &mut Vec<Diagnostic>,
) -> Result<(), Rejected> {
    let by_key: BTreeMap<&ObjectKey, usize> = fleet
        .templates
        .iter()
        .enumerate()
        .map(|(position, template)| (&template.key, position))
        .collect();
    let mut extra: BTreeMap<usize, BTreeSet<usize>> = BTreeMap::new();
    let mut notes: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    let mut errors = Vec::new();
    for (position, template) in fleet.templates.iter().enumerate() {
        let placement = &placements[position];
        if !placement.propagate_deps || placement.targets.is_empty() {
            continue;
        }
        let clusters: Vec<usize> = placement
            .targets
            .iter()
            .map(|target| cluster_index[target.name.as_str()])
            .collect();
        let dependencies = match fleet.interpreter.dependencies(template) {
            Ok(found) => {
                if let Some(failure) = found.failure {
                    warnings.push(Diagnostic::warning(
                        Lint::DependenciesNotFollowed,
                        Some(template.origin.clone()),
                        format!(
                            "{}: {failure}; Karmada propagates it without its dependencies",
                            template.key
                        ),
                    ));
                }
                found.dependencies
            }
            Err(problem) => {
                errors.push(Diagnostic::error(
                    Some(template.origin.clone()),
                    format!("{}: {problem}", template.key),
                ));
                continue;
            }
        };
        let mut dependents: Vec<usize> = Vec::new();
        for dependency in &dependencies {
            match dependency {
                Dependency::Named(key) => dependents.extend(by_key.get(key).copied()),
                Dependency::Labelled {
                    group,
                    kind,
                    namespace,
                    selector,
                } => dependents.extend(fleet.templates.iter().enumerate().filter_map(
                    |(other, candidate)| {
                        (candidate.kind() == kind
                            && candidate.group() == group
                            && candidate.namespace() == namespace
                            && selector.matches(&candidate.labels))
                        .then_some(other)
                    },
                )),
            }
        }
        dependents.sort_unstable();
        dependents.dedup();
        for dependent in dependents {
            extra
                .entry(dependent)
                .or_default()
                .extend(clusters.iter().copied());
            notes
                .entry(dependent)
                .or_default()
                .push(format!("propagateDeps of {}", template.key));
        }
    }
    for (dependent, notes) in notes {
        placements[dependent].placed_by.extend(notes);
    }
    for (dependent, clusters) in extra {
        let placement = &mut placements[dependent];
        let mut targets: BTreeMap<usize, TargetCluster> = placement
            .targets
            .drain(..)
            .map(|target| (cluster_index[target.name.as_str()], target))
            .collect();
        for cluster in clusters {
            targets.entry(cluster).or_insert_with(|| TargetCluster {
                name: fleet.clusters[cluster].name().to_string(),
                replicas: None,
                completions: None,
            });
        }
        placement.targets = targets.into_values().collect();
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.into())
    }
}

/// `suspension.dispatching` keeps Works from being applied: fedrender renders nothing there.
fn suspend(policy: &Propagation, targets: Vec<TargetCluster>) -> Vec<TargetCluster> {
    if policy.suspension.dispatching == Some(true) {
        return Vec::new();
    }
    match &policy.suspension.dispatching_on_clusters {
        Some(suspended) => targets
            .into_iter()
            .filter(|target| !suspended.cluster_names.contains(&target.name))
            .collect(),
        None => targets,
    }
}

/// Builds the object for every target cluster, in Karmada's two override passes
/// (overridemanager.go `ApplyOverridePolicies`): the ClusterOverridePolicy rules, chosen on the
/// template, then the OverridePolicy rules, chosen on the object as the first pass left it.
/// Clusters with the same replica count and ClusterOverridePolicy rules share that object,
/// built once; among them, clusters with the same OverridePolicy rules receive the same
/// object, built once.
fn build_variants(
    fleet: &Fleet,
    override_index: &OverrideIndex<'_>,
    template: &Template,
    placement: &Placement,
    cluster_index: &BTreeMap<&str, usize>,
) -> Result<Option<RenderedTemplate>, Rejected> {
    if placement.targets.is_empty() {
        return Ok(None);
    }
    let passes = OverridePasses::new(override_index, template);
    let mut revisions = work::Revisions::new(&fleet.interpreter, template);
    type FirstPass = (Option<i64>, Option<i64>, Vec<RuleRef>);
    let mut groups: BTreeMap<FirstPass, Vec<usize>> = BTreeMap::new();
    for target in &placement.targets {
        let cluster = cluster_index[target.name.as_str()];
        groups
            .entry((
                target.replicas,
                target.completions,
                passes.cluster_rules(cluster),
            ))
            .or_default()
            .push(cluster);
    }
    let mut variants = Vec::new();
    for ((replicas, completions, cluster_rules), mut clusters) in groups {
        clusters.sort_unstable();
        let mut object = revisions.revise(replicas, completions).map_err(|problem| {
            Rejected::from(Diagnostic::error(
                Some(template.origin.clone()),
                format!("{}: {problem}", template.key),
            ))
        })?;
        apply_rules(fleet, template, &cluster_rules, &clusters, &mut object)?;
        let namespaced = passes.namespaced_policies(&cluster_rules, &object);
        let mut second: BTreeMap<Vec<RuleRef>, Vec<usize>> = BTreeMap::new();
        for &cluster in &clusters {
            second
                .entry(override_index.rules_for_cluster(&namespaced, cluster))
                .or_default()
                .push(cluster);
        }
        let last = second.len() - 1;
        for (position, (rules, clusters)) in second.into_iter().enumerate() {
            // The last group takes the object itself rather than a copy.
            let mut object = if position == last {
                std::mem::take(&mut object)
            } else {
                object.clone()
            };
            apply_rules(fleet, template, &rules, &clusters, &mut object)?;
            if !cluster_rules.is_empty() || !rules.is_empty() {
                as_string_maps(fleet, template, &clusters, &mut object)?;
            }
            work::prune(template, &mut object);
            variants.push(Variant {
                manifest: crate::manifest::manifest(&object),
                clusters,
            });
        }
    }
    variants.sort_by_key(|variant| variant.clusters[0]);
    Ok(Some(RenderedTemplate {
        key: template.key.clone(),
        variants,
    }))
}

/// The override policies of one template, for its two passes.
struct OverridePasses<'i, 'f> {
    index: &'i OverrideIndex<'f>,
    cluster_wide: Vec<usize>,
    /// The OverridePolicies that select the template itself.
    namespaced: Vec<usize>,
    selected: ObjectIdentity,
}

impl<'i, 'f> OverridePasses<'i, 'f> {
    fn new(index: &'i OverrideIndex<'f>, template: &Template) -> Self {
        OverridePasses {
            index,
            cluster_wide: index.cluster_policies_for(template.selected()),
            namespaced: index.namespaced_policies_for(template.selected()),
            selected: ObjectIdentity::of(&template.object),
        }
    }

    /// The ClusterOverridePolicy rules for one cluster (a position in the inventory).
    fn cluster_rules(&self, cluster: usize) -> Vec<RuleRef> {
        self.index.rules_for_cluster(&self.cluster_wide, cluster)
    }

    /// Whether the object after these ClusterOverridePolicy rules must be looked at to choose
    /// the OverridePolicies.
    fn may_change_selection(&self, cluster_rules: &[RuleRef]) -> bool {
        cluster_rules
            .iter()
            .any(|&rule| self.index.may_change_what_selectors_see(rule))
    }

    /// The OverridePolicies for the object the ClusterOverridePolicy rules left.
    fn namespaced_policies(&self, cluster_rules: &[RuleRef], object: &Value) -> Vec<usize> {
        if !self.may_change_selection(cluster_rules) {
            return self.namespaced.clone();
        }
        let identity = ObjectIdentity::of(object);
        if identity == self.selected {
            self.namespaced.clone()
        } else {
            self.index.namespaced_policies_for(identity.selected())
        }
    }
}

/// The OverridePolicies chosen after each first pass (replicas, completions and
/// ClusterOverridePolicy rules), so that clusters alike build the object once.
type NamespacedAfter = BTreeMap<(Option<i64>, Option<i64>, Vec<RuleRef>), Vec<usize>>;

/// The override rules a template goes through in one target cluster, both passes in order.
fn rules_in_cluster(
    fleet: &Fleet,
    passes: &OverridePasses<'_, '_>,
    template: &Template,
    target: &TargetCluster,
    cluster: usize,
    namespaced_after: &mut NamespacedAfter,
    revisions: &mut work::Revisions<'_>,
) -> Vec<RuleRef> {
    let mut rules = passes.cluster_rules(cluster);
    let namespaced = namespaced_after
        .entry((target.replicas, target.completions, rules.clone()))
        .or_insert_with(|| {
            namespaced_policies_in(fleet, passes, template, target, &rules, revisions)
        })
        .clone();
    rules.extend(passes.index.rules_for_cluster(&namespaced, cluster));
    rules
}

/// The OverridePolicies that select a template's object in one target cluster after its
/// ClusterOverridePolicy rules, without building the object unless one of those rules may
/// change what selectors see. Where building fails, the render reports it; here the
/// OverridePolicies are then those of the template.
fn namespaced_policies_in(
    fleet: &Fleet,
    passes: &OverridePasses<'_, '_>,
    template: &Template,
    target: &TargetCluster,
    cluster_rules: &[RuleRef],
    revisions: &mut work::Revisions<'_>,
) -> Vec<usize> {
    if !passes.may_change_selection(cluster_rules) {
        return passes.namespaced.clone();
    }
    let Ok(mut object) = revisions.revise(target.replicas, target.completions) else {
        return passes.namespaced.clone();
    };
    match apply_rules(fleet, template, cluster_rules, &[], &mut object) {
        Ok(()) => passes.namespaced_policies(cluster_rules, &object),
        Err(_) => passes.namespaced.clone(),
    }
}

/// Applies the override rules in order. A failure names the policy and its file, the rule and
/// overrider, the object and its file, and the clusters (fedrender fails where Karmada would
/// skip the cluster: spec README, deviation 5).
fn apply_rules(
    fleet: &Fleet,
    template: &Template,
    rules: &[RuleRef],
    clusters: &[usize],
    object: &mut Value,
) -> Result<(), Rejected> {
    for rule_ref in rules {
        let policy = &fleet.overrides[rule_ref.policy];
        let rule = &policy.rules[rule_ref.rule];
        if let Err(error) = overrides::apply_overriders(object, template.kind(), &rule.overriders) {
            let cluster_list = cluster_list(fleet, clusters);
            let rule_field = if rule.field == "spec" {
                format!("spec.overriders.{}", error.overrider)
            } else {
                format!("{}.overriders.{}", rule.field, error.overrider)
            };
            return Err(Diagnostic::error(
                Some(policy.origin.clone()),
                format!(
                    "{}: {rule_field}: {} (overriding {} from {} for {cluster_list})",
                    policy.id, error.message, template.key, template.origin
                ),
            )
            .into());
        }
    }
    Ok(())
}

/// Labels and annotations as Karmada writes them into the Work, once every override rule is
/// applied ([`overrides::labels_annotations::as_string_maps`]).
fn as_string_maps(
    fleet: &Fleet,
    template: &Template,
    clusters: &[usize],
    object: &mut Value,
) -> Result<(), Rejected> {
    overrides::labels_annotations::as_string_maps(object).map_err(|message| {
        Diagnostic::error(
            Some(template.origin.clone()),
            format!(
                "{}: {message} (after the overrides for {})",
                template.key,
                cluster_list(fleet, clusters)
            ),
        )
        .into()
    })
}

fn cluster_list(fleet: &Fleet, clusters: &[usize]) -> String {
    let names: Vec<&str> = clusters.iter().map(|&c| fleet.clusters[c].name()).collect();
    if names.len() == 1 {
        format!("cluster {}", names[0])
    } else {
        format!("clusters {}", names.join(", "))
    }
}

/// A PropagationPolicy waits forever for missing `dependentOverrides` in Karmada; offline that
/// is an error (karmada-overrides spec §3.2).
fn check_dependent_overrides(fleet: &Fleet) -> Result<(), Rejected> {
    let mut errors = Vec::new();
    for policy in &fleet.propagations {
        for name in &policy.dependent_overrides {
            let exists = fleet.overrides.iter().any(|o| {
                &o.id.name == name
                    && o.id.scope == policy.id.scope
                    && o.id.kind.starts_with("Cluster") == policy.is_cluster_wide()
            });
            if !exists {
                errors.push(Diagnostic::error(
                    Some(policy.origin.clone()),
                    format!(
                        "{}: spec.dependentOverrides names {name:?}, which does not exist; Karmada would never propagate what this policy selects",
                        policy.id
                    ),
                ));
            }
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.into())
    }
}

/// Propagation policies that select nothing, and cluster names that are not in the inventory.
fn propagation_warnings(fleet: &Fleet, used: &BTreeSet<usize>) -> Vec<Diagnostic> {
    let known: BTreeSet<&str> = fleet.clusters.iter().map(Cluster::name).collect();
    let mut warnings = Vec::new();
    for (index, policy) in fleet.propagations.iter().enumerate() {
        if !used.contains(&index) {
            let (why, field) =
                why_nothing_is_selected(fleet, &policy.id, &policy.resource_selectors);
            warnings.push(Diagnostic::warning(
                Lint::SelectsNothing,
                Some(policy.fields.origin(&policy.origin, &field)),
                format!("{} selects no template{why}", policy.id),
            ));
        }
        let selected = clusters_the_affinity_selects(fleet, policy);
        for (field, name) in named_clusters(policy) {
            if known.contains(name.as_str()) {
                continue;
            }
            let near = crate::edit_distance::nearest_name(&name, known.iter().copied());
            let hint = near
                .map(|near| format!(" (did you mean {near:?}?)"))
                .unwrap_or_default();
            // What the typo does to the cluster it was likely meant to name.
            let is_selected = |near: &str| selected.iter().any(|c| c.name() == near);
            let consequence = match near {
                Some(near) if field.starts_with("spec.suspension") => {
                    format!("; dispatching to {near} is not suspended")
                }
                Some(near) if field.contains("staticWeightList") => {
                    format!("; {near} gets no weight from this entry")
                }
                Some(near) if field.contains(".exclude[") && is_selected(near) => {
                    format!("; {near} is not excluded")
                }
                Some(near) if field.contains(".clusterNames[") && !is_selected(near) => {
                    format!("; {near} gets nothing this policy places")
                }
                _ => String::new(),
            };
            warnings.push(
                Diagnostic::warning(
                    Lint::UnknownCluster,
                    Some(policy.fields.origin(&policy.origin, &field)),
                    format!(
                        "{}: {field}: cluster {name:?} is not in the inventory{hint}{consequence}",
                        policy.id
                    ),
                )
                .on_cluster(name.as_str()),
            );
        }
        warnings.extend(weights_for_unselected_clusters(fleet, policy));
    }
    warnings
}

/// ` (did you mean "prod-eu-2"?)` for a cluster name with a near one in the inventory.
fn nearest_cluster_hint(name: &str, known: &BTreeSet<&str>) -> String {
    crate::edit_distance::nearest_name(name, known.iter().copied())
        .map(|near| format!(" (did you mean {near:?}?)"))
        .unwrap_or_default()
}

/// The clusters of the inventory a policy's cluster affinity (or any of its affinity terms)
/// selects, before taints, capacity and spreading narrow them.
fn clusters_the_affinity_selects<'f>(fleet: &'f Fleet, policy: &Propagation) -> Vec<&'f Cluster> {
    let placement = &policy.placement;
    fleet
        .clusters
        .iter()
        .filter(
            |cluster| match (&placement.cluster_affinity, &placement.cluster_affinities) {
                (Some(affinity), _) => affinity.matches(cluster),
                (None, Some(terms)) => terms.iter().any(|term| term.affinity().matches(cluster)),
                (None, None) => true,
            },
        )
        .collect()
}

/// Static weight entries that match no cluster the placement's affinity selects: Karmada
/// weighs only the candidate clusters, so such an entry gives replicas to no one.
fn weights_for_unselected_clusters(fleet: &Fleet, policy: &Propagation) -> Vec<Diagnostic> {
    let placement = &policy.placement;
    let Some(weights) = placement
        .replica_scheduling
        .as_ref()
        .and_then(|scheduling| scheduling.weight_preference.as_ref())
    else {
        return Vec::new();
    };
    let selected = clusters_the_affinity_selects(fleet, policy);
    let unmatched: Vec<usize> = weights
        .static_weight_list
        .iter()
        .enumerate()
        .filter(|(_, entry)| {
            // Names missing from the inventory are warned about already.
            entry
                .target_cluster
                .named_clusters()
                .all(|name| fleet.clusters.iter().any(|cluster| cluster.name() == name))
                && !selected
                    .iter()
                    .any(|cluster| entry.target_cluster.matches(cluster))
        })
        .map(|(index, _)| index)
        .collect();
    // With no entry matching a candidate, Karmada weighs every candidate 1 (spec §8.4).
    let consequence = if unmatched.len() == weights.static_weight_list.len() {
        "and as no entry does, Karmada weighs every selected cluster 1"
    } else {
        "so its weight gives replicas to no cluster"
    };
    unmatched
        .into_iter()
        .map(|index| {
            let field =
                format!("spec.placement.replicaScheduling.weightPreference.staticWeightList[{index}]");
            Diagnostic::warning(
                Lint::TargetsNoCluster,
                Some(policy.fields.origin(&policy.origin, &field)),
                format!(
                    "{}: spec.placement.replicaScheduling.weightPreference.staticWeightList[{index}] \
                     matches no cluster the placement's cluster affinity selects, {consequence}",
                    policy.id
                ),
            )
        })
        .collect()
}

/// Command and args overriders that change nothing on a template their policy selects: a
/// container name a workload does not have (karmada commandargsoverride.go passes over it
/// without a word), or, for an overrider that changes no template at all, kinds whose
/// containers Karmada does not override. One warning per overrider and reason, counting the
/// templates.
fn overriders_that_change_nothing(fleet: &Fleet, placements: &[Placement]) -> Vec<Diagnostic> {
    // Per (policy, overrider field, whether the kind is one Karmada overrides): how many
    // templates it misses, the first, and why.
    let mut missed: BTreeMap<(usize, String, bool), (usize, usize, String)> = BTreeMap::new();
    let mut changed_one: BTreeSet<(usize, String)> = BTreeSet::new();
    for (position, (template, placement)) in fleet.templates.iter().zip(placements).enumerate() {
        if placement.targets.is_empty() {
            continue;
        }
        for &policy_index in &placement.override_policies {
            // Each overrider either changed this template or missed it, and why.
            let mut record =
                |field: String, missed_because: Option<(bool, String)>| match missed_because {
                    None => {
                        changed_one.insert((policy_index, field));
                    }
                    Some((workload, why)) => {
                        missed
                            .entry((policy_index, field, workload))
                            .or_insert((0, position, why))
                            .0 += 1;
                    }
                };
            for rule in &fleet.overrides[policy_index].rules {
                for (list, overriders) in [
                    ("commandOverrider", &rule.overriders.command_overrider),
                    ("argsOverrider", &rule.overriders.args_overrider),
                ] {
                    for (index, overrider) in overriders.iter().enumerate() {
                        record(
                            format!("{}.overriders.{list}[{index}]", rule.field),
                            why_no_container_changes(template, &overrider.container_name),
                        );
                    }
                }
                for (index, overrider) in rule.overriders.image_overrider.iter().enumerate() {
                    // With a predicate, a path that is not there is an error when it runs.
                    if overrider.predicate.is_none() {
                        record(
                            format!("{}.overriders.imageOverrider[{index}]", rule.field),
                            overrides::image::why_no_image_changes(
                                &template.object,
                                template.kind(),
                            ),
                        );
                    }
                }
            }
        }
    }
    missed
        .into_iter()
        .filter(|((policy_index, field, workload), _)| {
            // Other kinds matter only when the overrider reaches no workload it could change.
            *workload || !changed_one.contains(&(*policy_index, field.clone()))
        })
        .map(|((policy_index, field, _), (count, position, why))| {
            let policy = &fleet.overrides[policy_index];
            let key = &fleet.templates[position].key;
            let which = if count == 1 {
                key.to_string()
            } else {
                format!("{count} templates it selects, such as {key}")
            };
            let warning = Diagnostic::warning(
                Lint::OverridesNothing,
                Some(policy.fields.origin(&policy.origin, &field)),
                format!("{}: {field} changes nothing on {which}: {why}", policy.id),
            );
            if count == 1 {
                warning.about_object(key)
            } else {
                warning
            }
        })
        .collect()
}

/// Why a command or args overrider for `container` leaves the template as it is, if it does,
/// and whether the template is of a kind Karmada overrides containers in.
fn why_no_container_changes(template: &Template, container: &str) -> Option<(bool, String)> {
    let Some(pointer) = overrides::command_args::containers_pointer(template.kind()) else {
        return Some((
            false,
            format!(
                "Karmada overrides commands and args in Pods, Deployments, ReplicaSets, \
                 DaemonSets, StatefulSets and Jobs only, not in a {}",
                template.kind()
            ),
        ));
    };
    let names: Vec<&str> = template
        .object
        .pointer(pointer)
        .and_then(Value::as_array)
        .map(|containers| {
            containers
                .iter()
                .filter_map(|c| c.get("name").and_then(Value::as_str))
                .collect()
        })
        .unwrap_or_default();
    (!names.contains(&container)).then(|| {
        (
            true,
            format!(
                "it has no container {container:?} (its containers: {})",
                names.join(", ")
            ),
        )
    })
}

/// Overlapping propagation policies: a template whose best two policies tie but for their
/// names, and a policy that matches templates but loses every one of them.
fn overlap_warnings(
    fleet: &Fleet,
    index: &PolicyIndex<'_>,
    placements: &[Placement],
) -> Vec<Diagnostic> {
    let mut warnings = Vec::new();
    // Per losing policy: how many templates it matched, and one it lost with the winner.
    let mut lost: BTreeMap<usize, (usize, usize, usize)> = BTreeMap::new();
    let mut won = BTreeSet::new();
    // Per pair of tied policies (winner, runner-up): how many templates, and the first.
    let mut ties: BTreeMap<(usize, usize), (usize, usize)> = BTreeMap::new();
    for (position, placement) in placements.iter().enumerate() {
        let Some(winner) = placement.winner else {
            continue;
        };
        won.insert(winner);
        let Some(&winner_entry) = placement.candidates.iter().find(|(p, _)| *p == winner) else {
            continue;
        };
        for &candidate in &placement.candidates {
            if candidate.0 == winner {
                continue;
            }
            lost.entry(candidate.0).or_insert((0, position, winner)).0 += 1;
            let (best, other) = (
                &fleet.propagations[winner],
                &fleet.propagations[candidate.0],
            );
            let tied = best.is_cluster_wide() == other.is_cluster_wide()
                && best.priority == other.priority
                && winner_entry.1 == candidate.1;
            let runner_up = placement
                .candidates
                .iter()
                .filter(|(p, _)| *p != winner)
                .filter(|(p, _)| fleet.propagations[*p].is_cluster_wide() == best.is_cluster_wide())
                .min_by(|a, b| index.compare(**a, **b));
            if tied && runner_up == Some(&candidate) {
                ties.entry((winner, candidate.0)).or_insert((0, position)).0 += 1;
            }
        }
    }
    // One warning per pair, at the first template, not one per template: a pair of policies
    // that overlap usually do so on a whole namespace.
    let mut tie_warnings: Vec<(usize, Diagnostic)> = ties
        .into_iter()
        .map(|((winner, runner_up), (count, position))| {
            let (best, other) = (&fleet.propagations[winner], &fleet.propagations[runner_up]);
            let template = &fleet.templates[position];
            let templates = if count == 1 {
                template.key.to_string()
            } else {
                format!("{count} templates, such as {}", template.key)
            };
            let message = format!(
                "{} and {} tie on priority for {templates}; {} wins by name",
                best.id, other.id, best.id
            );
            let origin = Some(template.origin.clone());
            (
                position,
                Diagnostic::warning(Lint::PriorityTie, origin, message),
            )
        })
        .collect();
    tie_warnings.sort_by_key(|(position, _)| *position);
    warnings.extend(tie_warnings.into_iter().map(|(_, warning)| warning));
    for (policy, (count, position, winner)) in lost {
        if won.contains(&policy) {
            continue;
        }
        let (loser, best) = (&fleet.propagations[policy], &fleet.propagations[winner]);
        let template = &fleet.templates[position];
        let implicit = |p: usize| {
            placements[position]
                .candidates
                .iter()
                .find(|(candidate, _)| *candidate == p)
                .map(|(_, implicit)| *implicit)
        };
        let why = if loser.is_cluster_wide() && !best.is_cluster_wide() {
            "a PropagationPolicy in the namespace wins over every ClusterPropagationPolicy"
                .to_string()
        } else if loser.priority != best.priority {
            format!("its priority {} is above {}", best.priority, loser.priority)
        } else if implicit(policy) != implicit(winner) {
            format!(
                "it selects by {}, this policy by {}",
                implicit(winner).map_or("?", |i| i.describe()),
                implicit(policy).map_or("?", |i| i.describe())
            )
        } else {
            "it sorts first by name".to_string()
        };
        let lost_to = if count == 1 {
            format!("matches {} but {} places it", template.key, best.id)
        } else {
            format!(
                "matches {count} templates but places none: another policy wins each, such as \
                 {} for {}",
                best.id, template.key
            )
        };
        warnings.push(Diagnostic::warning(
            Lint::ShadowedPolicy,
            Some(loser.origin.clone()),
            format!("{} {lost_to} ({why})", loser.id),
        ));
    }
    warnings
}

/// The likely mistake behind a policy that selects nothing, as `: <reason>` with the field it is
/// about, or nothing: a
/// selector kind that is no template's kind but differs from one only in case or plural (or by
/// a typo), or templates of the kind that all sit outside a namespaced policy's namespace.
fn why_nothing_is_selected(
    fleet: &Fleet,
    id: &crate::policy::PolicyId,
    selectors: &[crate::api::karmada::ResourceSelector],
) -> (String, String) {
    let kinds: BTreeSet<&str> = fleet.templates.iter().map(Template::kind).collect();
    for (index, selector) in selectors.iter().enumerate() {
        let field = format!("spec.resourceSelectors[{index}]");
        if !kinds.contains(selector.kind.as_str()) {
            let written = selector.kind.to_ascii_lowercase();
            let near = kinds
                .iter()
                .copied()
                .find(|kind| {
                    let kind = kind.to_ascii_lowercase();
                    written == kind
                        || written == format!("{kind}s")
                        || written == format!("{kind}es")
                })
                .or_else(|| crate::edit_distance::nearest(&selector.kind, kinds.iter().copied()));
            if let Some(near) = near {
                let why = format!(
                    ": {field}.kind {:?} is no template's kind (kinds are singular and \
                     case-sensitive); did you mean {near}?",
                    selector.kind
                );
                return (why, format!("{field}.kind"));
            }
            continue;
        }
        if let crate::policy::PolicyScope::Namespace(namespace) = &id.scope {
            let of_kind = || {
                fleet
                    .templates
                    .iter()
                    .filter(|template| template.kind() == selector.kind)
            };
            let elsewhere: BTreeSet<&str> = of_kind()
                .map(|template| template.key.namespace.as_str())
                .filter(|other| other != namespace)
                .collect();
            if !elsewhere.is_empty() && !of_kind().any(|t| &t.key.namespace == namespace) {
                let listed: Vec<String> = elsewhere.iter().map(|n| format!("{n:?}")).collect();
                let article = if id.kind.starts_with(['A', 'E', 'I', 'O', 'U']) {
                    "an"
                } else {
                    "a"
                };
                let why = format!(
                    ": {field}: the {} templates are in namespace {}, and {article} {} selects \
                     only templates in its own namespace {namespace:?}",
                    selector.kind,
                    listed.join(", "),
                    id.kind
                );
                return (why, field);
            }
        }
    }
    (String::new(), String::new())
}

/// Every cluster a propagation policy names, with the field that names it.
fn named_clusters(policy: &Propagation) -> Vec<(String, String)> {
    let placement = &policy.placement;
    let mut named = Vec::new();
    let mut add = |field: String, affinity: &crate::api::karmada::ClusterAffinity| {
        for (list, names) in [
            ("clusterNames", &affinity.cluster_names),
            ("exclude", &affinity.exclude),
        ] {
            for (index, name) in names.iter().enumerate() {
                named.push((format!("{field}.{list}[{index}]"), name.clone()));
            }
        }
    };
    if let Some(affinity) = &placement.cluster_affinity {
        add("spec.placement.clusterAffinity".to_string(), affinity);
    }
    for (index, term) in placement.cluster_affinities.iter().flatten().enumerate() {
        let field = format!("spec.placement.clusterAffinities[{index}]");
        add(field.clone(), &term.affinity());
        for (position, overflow) in term.overflow_affinities.iter().enumerate() {
            add(
                format!("{field}.overflowAffinities[{position}]"),
                &overflow.affinity(),
            );
        }
    }
    let weights = placement
        .replica_scheduling
        .as_ref()
        .and_then(|scheduling| scheduling.weight_preference.as_ref());
    for (index, rule) in weights
        .iter()
        .flat_map(|w| w.static_weight_list.iter())
        .enumerate()
    {
        add(
            format!(
                "spec.placement.replicaScheduling.weightPreference.staticWeightList[{index}].targetCluster"
            ),
            &rule.target_cluster,
        );
    }
    for (index, name) in policy
        .suspension
        .dispatching_on_clusters
        .iter()
        .flat_map(|on| on.cluster_names.iter())
        .enumerate()
    {
        named.push((
            format!("spec.suspension.dispatchingOnClusters.clusterNames[{index}]"),
            name.clone(),
        ));
    }
    named
}

/// Override policies that select no template, and override rules whose target matches no
/// cluster of the inventory, names clusters it does not have, or matches only clusters that
/// receive none of the templates the policy overrides.
fn override_warnings(
    fleet: &Fleet,
    used: &BTreeSet<usize>,
    placements: &[Placement],
) -> Vec<Diagnostic> {
    let known: BTreeSet<&str> = fleet.clusters.iter().map(Cluster::name).collect();
    let mut receiving: Vec<BTreeSet<&str>> = vec![BTreeSet::new(); fleet.overrides.len()];
    for placement in placements {
        for &policy in &placement.override_policies {
            receiving[policy].extend(placement.targets.iter().map(|target| target.name.as_str()));
        }
    }
    let mut warnings = Vec::new();
    for (index, policy) in fleet.overrides.iter().enumerate() {
        let warn = |lint: Lint, field: &str, message: String| {
            let origin = policy.fields.origin(&policy.origin, field);
            Diagnostic::warning(lint, Some(origin), message)
        };
        if !used.contains(&index) {
            let (why, field) =
                why_nothing_is_selected(fleet, &policy.id, &policy.resource_selectors);
            warnings.push(warn(
                Lint::SelectsNothing,
                &field,
                format!("{} selects no template{why}", policy.id),
            ));
        }
        for rule in &policy.rules {
            let Some(target) = &rule.target_cluster else {
                continue;
            };
            let field = if rule.field == "spec" {
                "spec.targetCluster".to_string()
            } else {
                format!("{}.targetCluster", rule.field)
            };
            let mut misspelt_name = false;
            for (list, names) in [
                ("clusterNames", &target.cluster_names),
                ("exclude", &target.exclude),
            ] {
                for (position, name) in names.iter().enumerate() {
                    if known.contains(name.as_str()) {
                        continue;
                    }
                    misspelt_name |= list == "clusterNames";
                    let field = format!("{field}.{list}[{position}]");
                    let near = crate::edit_distance::nearest_name(name, known.iter().copied());
                    let targets = |near: &str| {
                        fleet
                            .clusters
                            .iter()
                            .any(|cluster| cluster.name() == near && target.matches(cluster))
                    };
                    let consequence = match near {
                        Some(near) if list == "exclude" && targets(near) => {
                            format!("; {near} is not excluded from this rule")
                        }
                        Some(near) if list == "clusterNames" && !targets(near) => {
                            format!("; this rule's overriders do not apply to {near}")
                        }
                        _ => String::new(),
                    };
                    warnings.push(
                        warn(
                            Lint::UnknownCluster,
                            &field,
                            format!(
                                "{}: {field}: cluster {name:?} is not in the inventory{}{consequence}",
                                policy.id,
                                nearest_cluster_hint(name, &known)
                            ),
                        )
                        .on_cluster(name.as_str()),
                    );
                }
            }
            let targeted: Vec<&str> = fleet
                .clusters
                .iter()
                .filter(|cluster| target.matches(cluster))
                .map(Cluster::name)
                .collect();
            // A misspelt name already says why its rule matches nothing.
            if targeted.is_empty() && !misspelt_name {
                warnings.push(warn(
                    Lint::TargetsNoCluster,
                    &field,
                    format!("{}: {field} matches no cluster of the inventory", policy.id),
                ));
            } else if !targeted.is_empty()
                && !receiving[index].is_empty()
                && !targeted.iter().any(|name| receiving[index].contains(name))
            {
                warnings.push(warn(
                    Lint::TargetsNoCluster,
                    &field,
                    format!(
                        "{}: {field} matches {}, which {} none of the templates this policy \
                         selects (they go to {}), so this rule changes nothing",
                        policy.id,
                        some_names(targeted.iter().copied()),
                        if targeted.len() == 1 {
                            "receives"
                        } else {
                            "receive"
                        },
                        some_names(receiving[index].iter().copied())
                    ),
                ));
            }
        }
    }
    warnings
}

/// A few names for a message: `a, b and c`, or `a, b, c and 4 more`.
fn some_names<'a>(names: impl ExactSizeIterator<Item = &'a str>) -> String {
    const SHOWN: usize = 3;
    let total = names.len();
    let shown: Vec<&str> = names.take(SHOWN).collect();
    match shown.as_slice() {
        [] => "no cluster".to_string(),
        [only] => (*only).to_string(),
        [init @ .., last] if total <= SHOWN => format!("{} and {last}", init.join(", ")),
        _ => format!("{} and {} more", shown.join(", "), total - SHOWN),
    }
}
