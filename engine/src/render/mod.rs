//! The hub of the pipeline, from typed inputs to per-cluster objects: bind → schedule →
//! override → work. [`place`] decides where every template goes (`placement`), with the
//! story of each for `fedrender plan` ([`plan`]) and every warning a render can give
//! (`warnings`); [`Placed`] then builds the objects a chunk of templates at a time, through
//! [`crate::work`]. Pure: no file is read or written here, so the same inputs always give the
//! same result and templates render in parallel.

pub mod capacity;
mod envelopes;
mod findings;
mod placement;
pub mod plan;
mod secret_warnings;
mod selects_nothing;
mod services;
mod warnings;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::{Arc, Mutex};

use rayon::prelude::*;
use serde_json::Value;

use crate::bind::PolicyIndex;
use crate::controllers::federated_quota::FederatedQuota;
use crate::diagnostics::{Diagnostic, Rejected};
use crate::federation::{self, FederatedBinding};
use crate::fields::Fields;
use crate::fleet::Fleet;
use crate::lint::{Level, Lint, LintLevels};
use crate::object::ObjectKey;
use crate::overrides::OverrideIndex;
use crate::work::{CheckedFinding, RenderedTemplate, Variant, build_variants};
pub use envelopes::MemberHpa;
use placement::{Placement, follow_dependencies, place_template};
use plan::{PlanEntry, federated_plan_entry, plan_entry, quota_plan_entry};
use warnings::{
    check_dependent_overrides, extend_with_overrides_after_cluster_overrides, overlap_warnings,
    override_warnings, overriders_that_change_nothing, propagation_warnings,
    undefined_namespace_warnings,
};

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
    /// Every warning placement gave.
    pub(crate) warnings: Vec<Diagnostic>,
    /// What the placed workloads ask of each cluster and each enforced quota.
    capacity: capacity::Capacity,
    /// When only some clusters are emitted (`--cluster`), each inventory position's position
    /// among them, or `None` for a cluster left out.
    emitted: Option<Vec<Option<usize>>>,
    /// The levels schema findings are judged by, when objects are checked.
    schema_levels: Option<LintLevels>,
    /// Warnings found while building objects (schema findings), in no particular order.
    late_warnings: Arc<Mutex<Vec<Diagnostic>>>,
    /// Where rendering records how far it has got.
    progress: crate::progress::Progress,
}

/// One object to render: its key, where it was written, and the clusters (positions in the
/// inventory, ascending) that receive it.
#[derive(Debug, Clone)]
pub struct Destination<'a> {
    /// The object.
    pub key: &'a ObjectKey,
    /// Where its template is written.
    pub origin: &'a crate::diagnostics::Origin,
    /// The clusters that receive it, by position among those emitted, ascending.
    pub clusters: Vec<usize>,
}

/// The three inputs a fleet renders, each numbered in its own list: Karmada templates, KubeFed
/// and Federation v1 objects, and the ResourceQuotas of FederatedResourceQuotas.
enum Lane {
    Template(usize),
    Federated(usize),
    Quota(usize),
}

/// Binds and schedules every template. Every warning a render can give is known here, before any object is built.
pub fn place(fleet: &Fleet) -> Result<Placed<'_>, Rejected> {
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
        .map(|template| {
            place_template(
                fleet,
                (&index, &override_index),
                &cluster_index,
                template,
                false,
            )
        })
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
    for binding in &fleet.federated {
        match federation::targets(binding, &fleet.clusters) {
            Ok(targets) => {
                warnings.extend(federation::target_warnings(
                    binding,
                    &fleet.clusters,
                    &targets,
                ));
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
    }
    follow_dependencies(fleet, &mut placements, &mut warnings)?;
    services::apply_multi_cluster_services(fleet, &cluster_index, &mut placements, &mut warnings)?;
    let (capacity, capacity_warnings) = capacity::assess(fleet, &placements);
    warnings.extend(capacity_warnings);
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
        &placements,
        &mut overrides_used,
    );
    warnings.extend(overlap_warnings(fleet, &index, &placements));
    warnings.extend(overriders_that_change_nothing(fleet, &placements));
    warnings.extend(propagation_warnings(fleet, &propagations_used, &placements));
    warnings.extend(override_warnings(fleet, &overrides_used, &placements));
    warnings.extend(undefined_namespace_warnings(fleet, &placements));
    warnings.extend(secret_warnings::plaintext_secret_warnings(
        fleet,
        &placements,
        &federated,
    ));
    warnings.extend(secret_warnings::sops_no_recipient_warnings(
        fleet,
        &placements,
    ));
    warnings.extend(secret_warnings::sealed_secret_shared_warnings(
        fleet,
        &placements,
    ));
    Ok(Placed {
        emitted: None,
        schema_levels: None,
        late_warnings: Arc::default(),
        progress: Default::default(),
        fleet,
        cluster_index,
        overrides: override_index,
        placements,
        federated,
        warnings,
        capacity,
    })
}

impl<'f> Placed<'f> {
    /// The fleet placed.
    pub fn fleet(&self) -> &'f Fleet {
        self.fleet
    }

    /// The replica envelopes of every workload a FederatedHPA or a CronFederatedHPA scales,
    /// by the workload, as `plan` shows them: what a diff compares on each side.
    pub fn envelopes(&self) -> BTreeMap<ObjectKey, Vec<plan::Envelope>> {
        let index = PolicyIndex::new(&self.fleet.propagations);
        envelopes::envelopes_by_workload(&envelopes::Placing {
            fleet: self.fleet,
            index: &index,
            overrides: &self.overrides,
            cluster_index: &self.cluster_index,
        })
    }

    /// What the placed workloads ask of each emitted cluster and of each enforced quota.
    pub fn capacity(&self) -> capacity::Capacity {
        let mut capacity = self.capacity.clone();
        capacity
            .clusters
            .retain(|cluster| self.is_emitted(cluster.position));
        capacity
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
                    clusters: self.emitted_positions({
                        let mut positions: Vec<usize> = placement.targets.clusters().collect();
                        positions.sort_unstable();
                        positions
                    }),
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

    /// The objects sent to some member cluster (whether or not its tree is emitted), as
    /// written: the templates placed somewhere, then the KubeFed and Federation v1 objects with
    /// a cluster.
    fn sent_objects(&self) -> impl Iterator<Item = (&'f Value, &'f crate::diagnostics::Origin)> {
        let templates = (self.fleet.templates.iter())
            .zip(&self.placements)
            .filter(|(_, placement)| !placement.targets.is_empty())
            .map(|(template, _)| (&template.object, &template.origin));
        let federated = (self.fleet.federated.iter())
            .zip(&self.federated)
            .filter(|(_, targets)| !targets.is_empty())
            .map(|(binding, _)| (&binding.template.object, &binding.source));
        templates.chain(federated)
    }

    /// The schema checker's warnings about kinds, for the kinds of objects sent to some member:
    /// custom kinds no CRD defines (`unchecked-kind`, one a kind), and the CRDs whose
    /// transition rules a build cannot judge. A kind nothing is sent of reaches no member's API
    /// server, so nothing about it goes unchecked (a fleet that carries six projects' CRDs
    /// beside its Deployments gets no word about them).
    pub(crate) fn sent_kind_warnings(&self) -> Vec<Diagnostic> {
        let Some(checker) = self.fleet.checker.as_ref() else {
            return Vec::new();
        };
        let sent: BTreeSet<(&str, &str)> = self
            .sent_objects()
            .filter_map(|(object, _)| {
                let api_version = object.field("apiVersion")?.as_str()?;
                Some((
                    crate::object::api_group(api_version),
                    object.field("kind")?.as_str()?,
                ))
            })
            .collect();
        let mut warnings: Vec<Diagnostic> = (self.fleet.kind_warnings.iter())
            .filter(|pending| sent.contains(&(pending.group.as_str(), pending.kind.as_str())))
            .map(|pending| pending.warning.clone())
            .collect();
        warnings.extend(checker.unchecked_kinds(self.sent_objects()));
        warnings
    }

    /// The templates Karmada would keep on the members when they are deleted
    /// (`preserveResourcesOnDeletion`), each with what makes it so; only those placed somewhere.
    pub(crate) fn preserved_on_deletion(&self) -> BTreeMap<ObjectKey, String> {
        self.fleet
            .templates
            .iter()
            .zip(&self.placements)
            .filter(|(_, placement)| !placement.targets.is_empty())
            .filter_map(|(template, placement)| {
                Some((template.key.clone(), placement.preserved_by.clone()?))
            })
            .collect()
    }

    /// The HorizontalPodAutoscaler each member gets in place of a FederatedHPA, for `build
    /// --gitops --gitops-member-hpas`; an error for each FederatedHPA that cannot be kept so.
    pub(crate) fn member_hpas(&self) -> Result<(Vec<MemberHpa>, Vec<Diagnostic>), Rejected> {
        let index = PolicyIndex::new(&self.fleet.propagations);
        envelopes::member_hpas(
            &envelopes::Placing {
                fleet: self.fleet,
                index: &index,
                overrides: &self.overrides,
                cluster_index: &self.cluster_index,
            },
            &self.placements,
        )
    }

    /// The Deployments whose copy on some cluster Karmada leaves its member's `spec.replicas`
    /// (labelled `resourcetemplate.karmada.io/retain-replicas: "true"` as rendered there: the
    /// label Karmada's retention reads is the Work's, overrides applied), each with the names of
    /// the clusters whose copy does not carry it. A Deployment some override policy applies to
    /// is built here to read its label per cluster; one that does not build is reported by the
    /// render itself, and read here by its template's label.
    pub(crate) fn replicas_retained(&self) -> BTreeMap<ObjectKey, Vec<String>> {
        use crate::interpret::native::{RETAIN_REPLICAS_LABEL, retains_replicas};
        let mut retained = BTreeMap::new();
        for (template, placement) in self.fleet.templates.iter().zip(&self.placements) {
            if !(template.api_version == "apps/v1" && template.kind() == "Deployment")
                || placement.targets.is_empty()
            {
                continue;
            }
            let mut on = Vec::new();
            let mut off = Vec::new();
            let built = (!placement.override_policies.is_empty())
                .then(|| {
                    build_variants(
                        self.fleet,
                        &self.overrides,
                        template,
                        &placement.targets,
                        None,
                        &mut Vec::new(),
                    )
                    .ok()
                    .flatten()
                })
                .flatten();
            match built {
                Some(rendered) => {
                    for variant in &rendered.variants {
                        let labelled = crate::yaml::split_documents(&variant.manifest)
                            .first()
                            .and_then(|document| {
                                crate::yaml::parse_document(document, "manifest").ok()
                            })
                            .and_then(|object| {
                                let pointer = format!(
                                    "/metadata/labels/{}",
                                    RETAIN_REPLICAS_LABEL.replace('/', "~1")
                                );
                                crate::json_pointer::pointer(&object, &pointer).cloned()
                            })
                            .is_some_and(|value| value == "true");
                        let names = variant
                            .clusters
                            .iter()
                            .map(|&cluster| self.fleet.clusters[cluster].name().to_string());
                        if labelled {
                            on.extend(names);
                        } else {
                            off.extend(names);
                        }
                    }
                }
                // No override applies (or the object does not build): the template's label
                // holds on every cluster.
                None => {
                    if retains_replicas(template) {
                        retained.insert(template.key.clone(), Vec::new());
                    }
                    continue;
                }
            }
            if !on.is_empty() {
                off.sort();
                retained.insert(template.key.clone(), off);
            }
        }
        retained
    }

    /// The templates whose copies are preserved on some of their clusters alone (a Namespace's
    /// policy's clusters, not the others Karmada's namespace controller sends it to), each with
    /// the names of those clusters.
    pub(crate) fn preserved_only_on(&self) -> BTreeMap<ObjectKey, Vec<String>> {
        (self.fleet.templates.iter())
            .zip(&self.placements)
            .filter(|(_, placement)| placement.preserved_by.is_some())
            .filter_map(|(template, placement)| {
                let own = placement.preserved_only_on.as_ref()?;
                let names = own
                    .iter()
                    .map(|&cluster| self.fleet.clusters[cluster].name().to_string())
                    .collect();
                Some((template.key.clone(), names))
            })
            .collect()
    }

    /// Every object's plan entry in object order, its envelopes added, explained `chunk` at a
    /// time (in parallel) and handed to `each`: `fedrender plan` holds one chunk of the fleet's
    /// story, never the whole of it. `keeps` chooses the objects by key.
    pub(crate) fn explain_each<E>(
        &self,
        chunk: usize,
        keeps: impl Fn(&ObjectKey) -> bool,
        mut each: impl FnMut(PlanEntry) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut order: Vec<(&ObjectKey, usize)> = (0..self.object_count())
            .map(|position| (self.key(position), position))
            .filter(|(key, _)| keeps(key))
            .collect();
        // By object, so the report does not depend on file order; a key twice (a KubeFed
        // Federated<Kind> and its template) keeps the order of the lanes.
        order.sort();
        let mut envelopes = self.envelopes();
        let index = PolicyIndex::new(&self.fleet.propagations);
        for positions in order.chunks(chunk.max(1)) {
            let entries: Vec<PlanEntry> = positions
                .par_iter()
                .map(|&(_, position)| self.explain_one(&index, position))
                .collect();
            for mut entry in entries {
                if let Some(moments) = envelopes.remove(&entry.key) {
                    entry.autoscaling = moments;
                }
                each(entry)?;
            }
        }
        Ok(())
    }

    fn explain_one(&self, index: &PolicyIndex<'_>, position: usize) -> PlanEntry {
        let fleet = self.fleet;
        match self.lane(position) {
            Lane::Template(at) => {
                let (template, placement) = (&fleet.templates[at], &self.placements[at]);
                // Why clusters were filtered out and how the replicas were divided are not kept
                // by the run (at 10,000 templates on 200 clusters they were most of a plan's
                // memory): the template is scheduled again, as the first time, for its story. A
                // Service a MultiClusterService claims keeps the claim's own.
                let again = (placement.claimed_by.is_none() && placement.winner.is_some())
                    .then(|| {
                        let indexes = (index, &self.overrides);
                        place_template(fleet, indexes, &self.cluster_index, template, true).ok()
                    })
                    .flatten();
                let story = match &again {
                    Some(again) => plan::Story {
                        filtered: &again.filtered,
                        division: again.division.as_ref(),
                    },
                    None => plan::Story {
                        filtered: &placement.filtered,
                        division: placement.division.as_ref(),
                    },
                };
                plan_entry(fleet, index, &self.overrides, template, placement, story)
            }
            Lane::Federated(at) => federated_plan_entry(&fleet.federated[at], &self.federated[at]),
            Lane::Quota(at) => quota_plan_entry(&fleet.federated_quotas[at], &self.cluster_index),
        }
    }

    /// The plan's entries of the objects at `positions` (in [`destinations`](Self::destinations))
    /// alone, sorted by object, as [`Placed::explain_each`] writes them: for a report that
    /// explains a few objects (a diff's changed ones) without holding the whole fleet's story.
    pub(crate) fn explain_only(
        &self,
        positions: impl IntoIterator<Item = usize>,
    ) -> Vec<PlanEntry> {
        let index = PolicyIndex::new(&self.fleet.propagations);
        let mut plan: Vec<PlanEntry> = positions
            .into_iter()
            .map(|position| self.explain_one(&index, position))
            .collect();
        plan.sort_by(|a, b| a.key.cmp(&b.key));
        plan
    }

    /// What placed the object at `position`, as the plan says it (`placed_by`), without
    /// explaining the rest.
    pub fn placed_by(&self, position: usize) -> Vec<String> {
        let fleet = self.fleet;
        match self.lane(position) {
            Lane::Template(at) => self.placements[at].placed_by.clone(),
            Lane::Federated(at) => vec![fleet.federated[at].source_name.clone()],
            Lane::Quota(at) => vec![fleet.federated_quotas[at].id.clone()],
        }
    }

    /// Every object's position in [`destinations`](Self::destinations), by its key.
    pub(crate) fn positions_by_key(&self) -> HashMap<&ObjectKey, usize> {
        (0..self.object_count())
            .map(|position| (self.key(position), position))
            .collect()
    }

    /// How many objects [`destinations`](Self::destinations) lists.
    pub(crate) fn object_count(&self) -> usize {
        let fleet = self.fleet;
        fleet.templates.len() + fleet.federated.len() + fleet.federated_quotas.len()
    }

    /// The object at a position in [`destinations`](Self::destinations).
    pub fn key(&self, position: usize) -> &ObjectKey {
        let fleet = self.fleet;
        match self.lane(position) {
            Lane::Template(index) => &fleet.templates[index].key,
            Lane::Federated(index) => &fleet.federated[index].template.key,
            Lane::Quota(index) => &fleet.federated_quotas[index].key,
        }
    }

    /// Which input a position in [`destinations`](Self::destinations) stands for.
    fn lane(&self, position: usize) -> Lane {
        let fleet = self.fleet;
        let federated_start = fleet.templates.len();
        let quotas_start = federated_start + fleet.federated.len();
        if position < federated_start {
            Lane::Template(position)
        } else if position < quotas_start {
            Lane::Federated(position - federated_start)
        } else {
            Lane::Quota(position - quotas_start)
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
    pub(crate) fn emit_only(&mut self, kept: &[bool]) {
        self.emitted = Some(crate::cluster_filter::positions(kept));
    }

    /// Checks every object as it is built against the schemas of its clusters' Kubernetes
    /// versions, its findings judged by `levels`: a denied one fails the render, the others
    /// are [`late_warnings`](Self::late_warnings). Nothing is checked when every schema lint
    /// is allowed.
    pub(crate) fn check_schemas(&mut self, levels: LintLevels) {
        let any = crate::check::LINTS
            .iter()
            .any(|&lint| levels.level(lint) != Level::Allow);
        self.schema_levels = (any && self.fleet.checker.is_some()).then_some(levels);
    }

    /// Records how far rendering has got in `progress`.
    pub(crate) fn record_progress_in(&mut self, progress: crate::progress::Progress) {
        self.progress = progress;
    }

    /// Where the warnings found while building objects go, to be read once rendering ends.
    pub(crate) fn late_warnings(&self) -> Arc<Mutex<Vec<Diagnostic>>> {
        self.late_warnings.clone()
    }

    /// The schema checker, when objects are checked.
    pub fn checker(&self) -> Option<&'f crate::check::Checker> {
        self.schema_levels.as_ref()?;
        self.fleet.checker.as_ref()
    }

    /// Whether a cluster (a position in the inventory) is emitted.
    fn is_emitted(&self, cluster: usize) -> bool {
        self.emitted
            .as_ref()
            .is_none_or(|emitted| emitted[cluster].is_some())
    }

    /// Turns an object's findings into messages: denied ones are the render's errors, the
    /// others late warnings.
    fn judge(
        &self,
        object: (&ObjectKey, &crate::diagnostics::Origin),
        findings: Vec<CheckedFinding>,
    ) -> Result<(), Rejected> {
        let (Some(levels), Some(checker)) = (&self.schema_levels, &self.fleet.checker) else {
            return Ok(());
        };
        if findings.is_empty() {
            return Ok(());
        }
        let (errors, warnings) =
            findings::judge(self.fleet, checker, levels, object, findings, |cluster| {
                self.is_emitted(cluster)
            });
        if !warnings.is_empty() {
            self.late_warnings
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .extend(warnings);
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors.into())
        }
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
        self.progress
            .begin(crate::progress::Stage::Rendering, self.object_count());
        self.render_only(0..self.object_count(), chunk, consume)
    }

    /// [`render_chunks`](Self::render_chunks) for the objects at some positions only.
    pub(crate) fn render_only<F>(
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
                .map(|&position| {
                    let rendered = self.render_one(position);
                    // One template at a time, not a chunk: a chunk of a big fleet takes long
                    // enough that a counter moving by chunks looks stuck.
                    self.progress.advance(1);
                    rendered
                })
                .collect();
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
        let mut findings = Vec::new();
        let checker = self.checker();
        let (rendered, object) = match self.lane(position) {
            Lane::Template(index) => {
                let template = &fleet.templates[index];
                let rendered = build_variants(
                    fleet,
                    &self.overrides,
                    template,
                    &self.placements[index].targets,
                    checker,
                    &mut findings,
                );
                (rendered, (&template.key, &template.origin))
            }
            Lane::Federated(index) => {
                let binding = &fleet.federated[index];
                let rendered = render_federated(
                    binding,
                    &self.federated[index],
                    &self.cluster_index,
                    (checker, &mut findings),
                );
                // The template's origin, which knows where its fields sit in the federated
                // object, so that a finding points at the field.
                (rendered, (&binding.template.key, &binding.template.origin))
            }
            Lane::Quota(index) => {
                let quota = &fleet.federated_quotas[index];
                let rendered = Ok(render_quota(
                    quota,
                    &self.cluster_index,
                    (checker, &mut findings),
                ));
                (rendered, (&quota.key, &quota.origin))
            }
        };
        let rendered = rendered?;
        self.judge(object, findings)?;
        Ok(rendered)
    }
}

/// A checker, when objects are checked, and where its findings go.
type Checking<'a, 'c> = (
    Option<&'c crate::check::Checker>,
    &'a mut Vec<CheckedFinding>,
);

/// The other front doors share everything after binding: targets from KubeFed's placement or
/// Federation v1's selector (and their replica planner), the object per cluster with KubeFed's
/// overrides, and the same emission. Karmada's overrides and pruning do not apply: those
/// systems never run them.
fn render_federated(
    binding: &FederatedBinding,
    targets: &[(String, Option<i64>)],
    cluster_index: &BTreeMap<&str, usize>,
    checking: Checking<'_, '_>,
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
    Ok(rendered_per_cluster(
        &binding.template.key,
        objects,
        checking,
    ))
}

/// Objects built cluster by cluster, grouped into variants by their manifest, each distinct
/// one checked once; `None` for no cluster.
fn rendered_per_cluster(
    key: &ObjectKey,
    objects: impl IntoIterator<Item = (usize, Value)>,
    (checker, findings): Checking<'_, '_>,
) -> Option<RenderedTemplate> {
    let mut variants: Vec<(Variant, Value)> = Vec::new();
    for (position, object) in objects {
        let manifest = crate::manifest::manifest(&object);
        match variants
            .iter_mut()
            .find(|(variant, _)| variant.manifest == manifest)
        {
            Some((variant, _)) => variant.clusters.push(position),
            None => variants.push((
                Variant {
                    manifest,
                    clusters: vec![position],
                },
                object,
            )),
        }
    }
    let mut found: BTreeMap<crate::check::Finding, Vec<usize>> = BTreeMap::new();
    let variants: Vec<Variant> = variants
        .into_iter()
        .map(|(mut variant, object)| {
            variant.clusters.sort_unstable();
            if let Some(checker) = checker {
                for (finding, clusters) in
                    crate::secrets::check(checker, &object, &variant.clusters)
                {
                    found.entry(finding).or_default().extend(clusters);
                }
            }
            variant
        })
        .collect();
    findings.extend(found.into_iter().map(|(finding, mut clusters)| {
        clusters.sort_unstable();
        CheckedFinding {
            finding,
            written_by: None,
            clusters,
        }
    }));
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
    checking: Checking<'_, '_>,
) -> Option<RenderedTemplate> {
    rendered_per_cluster(
        &quota.key,
        quota
            .assigned(cluster_index)
            .map(|(assignment, position)| (position, quota.resource_quota(assignment))),
        checking,
    )
}
