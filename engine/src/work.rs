//! Work: the final object for one member cluster, Karmada's `ensureWork` + `CreateOrUpdateWork`
//! (karmada pkg/controllers/binding/common.go, pkg/controllers/ctrlutil/work.go): replicas
//! revised, overrides applied, then runtime-only fields pruned. Karmada's bookkeeping labels and
//! annotations are deliberately not added (spec README, deviation 4).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde_json::Value;

use crate::api::selector::ObjectIdentity;
use crate::check::{Checker, Finding, KubernetesVersion};
use crate::diagnostics::{Diagnostic, Rejected};
use crate::fields::Fields;
use crate::fleet::Fleet;
use crate::interpret::{self, Interpreter};
use crate::object::{ObjectKey, Template};
use crate::overrides::{self, OverrideIndex, RuleRef};
use crate::redact;
use crate::schedule::{Target, Targets};
use crate::secrets;

/// The object one cluster receives is built in three steps: [`revise`], the overrides, then
/// [`prune`] — overrides after revision so that an override of the replica field wins, before
/// pruning so that an override cannot bring back what pruning removes.
///
/// The first step: the template with the cluster's replicas and completions, ready for the
/// overrides.
pub(crate) fn revise(
    interpreter: &Interpreter,
    template: &Template,
    replicas: Option<i64>,
    completions: Option<i64>,
) -> Result<Value, String> {
    let mut object = match replicas {
        Some(replicas) => interpreter.revise(template, replicas)?,
        None => template.object.clone(),
    };
    // A Divided Job's completions are split with its replicas (karmada binding/common.go
    // `divideReplicasByJobCompletions`).
    if let Some(completions) = completions
        && let Some(spec) = object.field_mut("spec").and_then(Value::as_object_mut)
    {
        spec.insert("completions".to_string(), Value::from(completions));
    } else if sets_neither_parallelism_nor_completions(template) {
        default_job_completions(&mut object);
    }
    Ok(object)
}

/// A Job whose template sets neither `parallelism` nor `completions`: the Karmada API server
/// defaults both to 1 before Karmada reads it (k8s.io/kubernetes pkg/apis/batch/v1 defaults.go
/// `SetDefaults_Job`), so the Work carries `completions: 1`. A member API server given only
/// `parallelism` would leave `completions` unset, which makes a work-queue Job, and
/// `completions` cannot be changed afterwards.
fn sets_neither_parallelism_nor_completions(template: &Template) -> bool {
    template.group() == "batch"
        && template.kind() == "Job"
        && template
            .object
            .field("spec")
            .and_then(Value::as_object)
            .is_some_and(|spec| {
                !spec.contains_key("parallelism") && !spec.contains_key("completions")
            })
}

/// Puts `completions: 1` where Go's JobSpec writes it: after `parallelism`, which the revision
/// wrote first, or first of all.
fn default_job_completions(object: &mut Value) {
    let Some(spec) = object.field_mut("spec").and_then(Value::as_object_mut) else {
        return;
    };
    if spec.contains_key("completions") {
        return;
    }
    let fields = std::mem::take(spec);
    let leads = fields.contains_key("parallelism");
    let mut placed = false;
    if !leads {
        spec.insert("completions".to_string(), Value::from(1));
        placed = true;
    }
    for (key, value) in fields {
        let after = key == "parallelism";
        spec.insert(key, value);
        if after && !placed {
            spec.insert("completions".to_string(), Value::from(1));
            placed = true;
        }
    }
}

/// A template's revised objects by replicas and completions: the clusters with the same share
/// receive the same revision, worked out once when a Lua script works it out. A native or
/// declared revision is a copy of the template with one field set, as cheap as a copy of a
/// remembered one, so it is not remembered.
pub(crate) struct Revisions<'a> {
    interpreter: &'a Interpreter,
    template: &'a Template,
    /// `None` when revisions are not remembered.
    revised: Option<BTreeMap<Share, Value>>,
}

/// A cluster's replicas and completions.
type Share = (Option<i64>, Option<i64>);

impl<'a> Revisions<'a> {
    pub fn new(interpreter: &'a Interpreter, template: &'a Template) -> Self {
        let by_script = matches!(
            interpreter.supplier(template, interpret::Operation::ReplicaRevision),
            Some(interpret::Supplier::BuiltIn | interpret::Supplier::Customization { .. })
        );
        Revisions {
            interpreter,
            template,
            revised: by_script.then(BTreeMap::new),
        }
    }

    /// [`revise`], remembered when a script revises.
    pub(crate) fn revise(
        &mut self,
        replicas: Option<i64>,
        completions: Option<i64>,
    ) -> Result<Value, String> {
        let Some(revised) = &mut self.revised else {
            return revise(self.interpreter, self.template, replicas, completions);
        };
        if let Some(object) = revised.get(&(replicas, completions)) {
            return Ok(object.clone());
        }
        let object = revise(self.interpreter, self.template, replicas, completions)?;
        revised.insert((replicas, completions), object.clone());
        Ok(object)
    }
}

/// The last step, once the overrides are applied: runtime-only fields go.
pub fn prune(template: &Template, object: &mut Value) {
    interpret::prune(template.group(), template.kind(), object);
}

/// One template's output: each distinct object with the clusters that receive it, so that an
/// object identical in many clusters is built and serialised once.
#[derive(Debug, Clone)]
pub struct RenderedTemplate {
    /// The object.
    pub key: ObjectKey,
    /// Each distinct manifest with its clusters.
    pub variants: Vec<Variant>,
}

/// One distinct manifest of a template, with the clusters that receive it.
#[derive(Debug, Clone)]
pub struct Variant {
    /// The manifest as written to each of these clusters. Serialised as soon as the object is
    /// built, so the object tree is dropped at once and memory holds only text.
    pub manifest: Arc<str>,
    /// Indices into the fleet's clusters, ascending.
    pub clusters: Vec<usize>,
}

/// What a cluster's API server would say of a template's object on some of its clusters, and
/// the override rule that wrote the offending value, when one did.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct CheckedFinding {
    pub finding: Finding,
    pub(crate) written_by: Option<RuleRef>,
    /// Positions in the inventory, ascending.
    pub clusters: Vec<usize>,
}

/// Builds the object for every target cluster, in Karmada's two override passes
/// (overridemanager.go `ApplyOverridePolicies`): the ClusterOverridePolicy rules, chosen on the
/// template, then the OverridePolicy rules, chosen on the object as the first pass left it.
/// Clusters with the same replica count and ClusterOverridePolicy rules share that object,
/// built once; among them, clusters with the same OverridePolicy rules receive the same
/// object, built once. With a `checker`, each distinct object is checked for its clusters as
/// soon as it is built, the findings added to `findings`.
pub(crate) fn build_variants(
    fleet: &Fleet,
    override_index: &OverrideIndex<'_>,
    template: &Template,
    targets: &Targets,
    checker: Option<&Checker>,
    findings: &mut Vec<CheckedFinding>,
) -> Result<Option<RenderedTemplate>, Rejected> {
    if targets.is_empty() {
        return Ok(None);
    }
    let passes = OverridePasses::new(override_index, template);
    let mut revisions = Revisions::new(&fleet.interpreter, template);
    // A SOPS document goes out as it came in: pruning would break its MAC as surely as an
    // override would (crate::secrets).
    let sops = secrets::sops_metadata(&template.object).is_some();
    // A SealedSecret unseals only under the name and namespace its scope binds it to.
    let sealed = template.group() == "bitnami.com" && template.kind() == "SealedSecret";
    type FirstPass = (Option<i64>, Option<i64>, Vec<RuleRef>);
    let mut groups: BTreeMap<FirstPass, Vec<usize>> = BTreeMap::new();
    for target in targets.iter() {
        groups
            .entry((
                target.replicas,
                target.completions,
                passes.cluster_rules(target.cluster),
            ))
            .or_default()
            .push(target.cluster);
    }
    let mut variants = Vec::new();
    let mut found: BTreeMap<(Finding, Option<RuleRef>), Vec<usize>> = BTreeMap::new();
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
            let all_rules: Vec<RuleRef> = cluster_rules.iter().chain(&rules).copied().collect();
            let mut replay = Replay {
                fleet,
                template,
                revisions: &mut revisions,
                share: (replicas, completions),
                rules: &all_rules,
            };
            if sops {
                refuse_sops_change(&mut replay, &clusters, &object)?;
            } else {
                prune(template, &mut object);
            }
            if sealed {
                refuse_sealed_scope_change(&mut replay, &clusters, &object)?;
            }
            if let Some(checker) = checker {
                for (finding, on) in secrets::check(checker, &object, &clusters) {
                    let version = checker.version_of(on[0]).version;
                    let written_by = rule_that_wrote(&mut replay, (checker, version), &finding);
                    found.entry((finding, written_by)).or_default().extend(on);
                }
            }
            variants.push(Variant {
                manifest: crate::manifest::manifest(&object),
                clusters,
            });
        }
    }
    findings.extend(
        found
            .into_iter()
            .map(|((finding, written_by), mut clusters)| {
                clusters.sort_unstable();
                CheckedFinding {
                    finding,
                    written_by,
                    clusters,
                }
            }),
    );
    variants.sort_by_key(|variant| variant.clusters[0]);
    Ok(Some(RenderedTemplate {
        key: template.key.clone(),
        variants,
    }))
}

/// A variant's override rules, replayed one at a time on its revised template to name the rule
/// to blame for what only the whole set showed. Used only when something is wrong, so the
/// replay costs nothing on a valid fleet.
struct Replay<'r, 'a> {
    fleet: &'a Fleet,
    template: &'a Template,
    revisions: &'r mut Revisions<'a>,
    share: Share,
    rules: &'r [RuleRef],
}

impl Replay<'_, '_> {
    /// The first rule after which `finds` finds something, with what it found; `None` when no
    /// rule does (a rule that fails to apply ends the replay).
    fn first_rule_that<T>(
        &mut self,
        mut finds: impl FnMut(&Value) -> Option<T>,
    ) -> Option<(RuleRef, T)> {
        let (replicas, completions) = self.share;
        let mut replayed = self
            .revisions
            .revise(replicas, completions)
            .unwrap_or_else(|_| self.template.object.clone());
        for &rule in self.rules {
            apply_rules(self.fleet, self.template, &[rule], &[], &mut replayed).ok()?;
            if let Some(found) = finds(&replayed) {
                return Some((rule, found));
            }
        }
        None
    }
}

/// The override rule after which `finding` first holds; `None` when the revised template itself
/// has it.
fn rule_that_wrote(
    replay: &mut Replay<'_, '_>,
    (checker, version): (&Checker, KubernetesVersion),
    finding: &Finding,
) -> Option<RuleRef> {
    if replay.rules.is_empty() {
        return None;
    }
    let template = replay.template;
    let holds = |object: &Value, overridden: bool| {
        let mut object = object.clone();
        if overridden {
            // As the render does after the rules; a failure here is the render's to report.
            let _ = overrides::labels_annotations::as_string_maps(&mut object);
        }
        prune(template, &mut object);
        secrets::check_at(checker, &object, version).contains(finding)
    };
    let (replicas, completions) = replay.share;
    if holds(&replay.revisions.revise(replicas, completions).ok()?, false) {
        return None;
    }
    replay
        .first_rule_that(|replayed| holds(replayed, true).then_some(()))
        .map(|(rule, ())| rule)
}

/// Refuses an object built from a SOPS document whose MAC the override rules broke
/// (`sops-modified`): that cluster's Flux would fail to decrypt it. The rules are replayed one
/// at a time on the revised template to name the first that changes a value the MAC covers.
fn refuse_sops_change(
    replay: &mut Replay<'_, '_>,
    clusters: &[usize],
    object: &Value,
) -> Result<(), Rejected> {
    let (fleet, template) = (replay.fleet, replay.template);
    let Some(path) = secrets::breaks_mac(&template.object, object) else {
        return Ok(());
    };
    let culprit =
        replay.first_rule_that(|replayed| secrets::breaks_mac(&template.object, replayed));
    let (rule, path) = match culprit {
        Some(found) => found,
        // Only the rules' string conversion of labels and annotations is left to blame: the
        // last rule asked for it.
        None => match replay.rules.last() {
            Some(&rule) => (rule, path),
            None => return Ok(()),
        },
    };
    let policy = &fleet.overrides[rule.policy];
    let field = &policy.rules[rule.rule].field;
    let at = policy.fields.origin(&policy.origin, field);
    let only_encrypted = secrets::sops_metadata(&template.object)
        .and_then(|sops| sops.field("mac_only_encrypted"))
        == Some(&Value::Bool(true));
    let covered = if only_encrypted {
        "its MAC covers every encrypted value and the sops block"
    } else {
        "its MAC covers every value, in order (mac_only_encrypted is not set)"
    };
    Err(Diagnostic::error(
        Some(at),
        format!(
            "sops-modified: {} {field} would change {path} of {}, a SOPS-encrypted document from {}: {covered}, so sops -d and Flux fail to decrypt it on {}; leave the document out of the rule's resourceSelectors, or change the source and re-encrypt it",
            policy.id,
            template.key,
            template.origin,
            cluster_list(fleet, clusters)
        ),
    )
    .about_object(&template.key)
    .about_field(path)
    .into())
}

/// Refuses a copy of a SealedSecret whose name, namespace or scope annotations the override
/// rules changed so that the controller's encryption label for it differs from the one it was
/// sealed with (`sealed-scope-broken`): the controller cannot unseal that copy. The rules are
/// replayed one at a time to name the first that changes it.
fn refuse_sealed_scope_change(
    replay: &mut Replay<'_, '_>,
    clusters: &[usize],
    object: &Value,
) -> Result<(), Rejected> {
    let (fleet, template) = (replay.fleet, replay.template);
    let sealed_for = secrets::sealing_label(&template.object);
    let unsealed_as = secrets::sealing_label(object);
    if sealed_for == unsealed_as {
        return Ok(());
    }
    let culprit = replay
        .first_rule_that(|replayed| (secrets::sealing_label(replayed) != sealed_for).then_some(()))
        .map(|(rule, ())| rule)
        // Only the rules' string conversion of labels and annotations is left to blame.
        .or(replay.rules.last().copied());
    let Some(rule) = culprit else {
        return Ok(());
    };
    let policy = &fleet.overrides[rule.policy];
    let field = &policy.rules[rule.rule].field;
    let at = policy.fields.origin(&policy.origin, field);
    let bound = |object: &Value, label: &str| match secrets::sealing_scope(object) {
        secrets::SealingScope::Strict => format!("the name {label} (strict scope)"),
        secrets::SealingScope::NamespaceWide => {
            format!("the namespace {label} (namespace-wide scope)")
        }
        secrets::SealingScope::ClusterWide => "any name (cluster-wide scope)".to_string(),
    };
    let wider = match secrets::sealing_scope(&template.object) {
        secrets::SealingScope::Strict => "namespace-wide or cluster-wide",
        _ => "cluster-wide",
    };
    Err(Diagnostic::error(
        Some(at),
        format!(
            "sealed-scope-broken: {} {field} would unseal {} from {} under {} on {}, but it was sealed for {}: the sealed-secrets controller decrypts only with the label it was sealed with, so it refuses this copy; leave the SealedSecret out of the rule's resourceSelectors, or seal a copy for that name and namespace (kubeseal), or seal it with a wider scope (kubeseal --scope {wider})",
            policy.id,
            template.key,
            template.origin,
            bound(object, &unsealed_as),
            cluster_list(fleet, clusters),
            bound(&template.object, &sealed_for),
        ),
    )
    .about_object(&template.key)
    .into())
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

/// The override rules the template goes through in each of its target clusters, both passes in
/// order (for `fedrender plan`). An object is built only where a ClusterOverridePolicy rule may
/// change which OverridePolicies select it, once per replica count and rule list.
pub(crate) fn rules_per_target(
    fleet: &Fleet,
    override_index: &OverrideIndex<'_>,
    template: &Template,
    targets: &Targets,
) -> Vec<(Target, Vec<RuleRef>)> {
    let passes = OverridePasses::new(override_index, template);
    let mut namespaced_after = BTreeMap::new();
    let mut revisions = Revisions::new(&fleet.interpreter, template);
    targets
        .iter()
        .map(|target| {
            let rules = rules_in_cluster(
                fleet,
                &passes,
                template,
                target,
                &mut namespaced_after,
                &mut revisions,
            );
            (target, rules)
        })
        .collect()
}

/// The OverridePolicies that select the template's objects in its target clusters once the
/// ClusterOverridePolicy rules are applied: an OverridePolicy may select only what a
/// ClusterOverridePolicy made of a template. Objects are built only for clusters whose
/// ClusterOverridePolicy rules may change what selectors see, once per replica count and rule
/// list.
pub(crate) fn namespaced_policies_after_cluster_overrides(
    fleet: &Fleet,
    override_index: &OverrideIndex<'_>,
    template: &Template,
    targets: &Targets,
) -> BTreeSet<usize> {
    let passes = OverridePasses::new(override_index, template);
    let mut revisions = Revisions::new(&fleet.interpreter, template);
    let mut seen = BTreeSet::new();
    let mut used = BTreeSet::new();
    for target in targets.iter() {
        let first_pass = (
            target.replicas,
            target.completions,
            passes.cluster_rules(target.cluster),
        );
        if !passes.may_change_selection(&first_pass.2) || seen.contains(&first_pass) {
            continue;
        }
        used.extend(namespaced_policies_in(
            fleet,
            &passes,
            template,
            target,
            &first_pass.2,
            &mut revisions,
        ));
        seen.insert(first_pass);
    }
    used
}

/// The OverridePolicies chosen after each first pass (replicas, completions and
/// ClusterOverridePolicy rules), so that clusters alike build the object once.
type NamespacedAfter = BTreeMap<(Option<i64>, Option<i64>, Vec<RuleRef>), Vec<usize>>;

/// The override rules a template goes through in one target cluster, both passes in order.
fn rules_in_cluster(
    fleet: &Fleet,
    passes: &OverridePasses<'_, '_>,
    template: &Template,
    target: Target,
    namespaced_after: &mut NamespacedAfter,
    revisions: &mut Revisions<'_>,
) -> Vec<RuleRef> {
    let mut rules = passes.cluster_rules(target.cluster);
    let namespaced = namespaced_after
        .entry((target.replicas, target.completions, rules.clone()))
        .or_insert_with(|| {
            namespaced_policies_in(fleet, passes, template, target, &rules, revisions)
        })
        .clone();
    rules.extend(passes.index.rules_for_cluster(&namespaced, target.cluster));
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
    target: Target,
    cluster_rules: &[RuleRef],
    revisions: &mut Revisions<'_>,
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
pub(crate) fn apply_rules(
    fleet: &Fleet,
    template: &Template,
    rules: &[RuleRef],
    clusters: &[usize],
    object: &mut Value,
) -> Result<(), Rejected> {
    if rules.is_empty() {
        return Ok(());
    }
    let plaintext_paths = rules.iter().flat_map(|rule_ref| {
        let rule = &fleet.overrides[rule_ref.policy].rules[rule_ref.rule];
        rule.overriders
            .plaintext
            .iter()
            .map(|entry| entry.path.as_str())
    });
    let made = metadata_maps_as_claimed(object, plaintext_paths);
    let pull_policies =
        overrides::pull_policy::before_overrides(object, template.group(), template.kind());
    // What an overrider's error may quote of a Secret is not to be shown (`crate::redact`).
    let secret_values = redact::values(object);
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
            let mut hidden = secret_values;
            hidden.extend(redact::values(object));
            let problem = redact::scrub(&error.message, &hidden, Value::to_string);
            return Err(Diagnostic::error(
                Some(policy.origin.clone()),
                format!(
                    "{}: {rule_field}: {problem} (overriding {} from {} for {cluster_list})",
                    policy.id, template.key, template.origin
                ),
            )
            .into());
        }
    }
    drop_unused_metadata_maps(object, made);
    overrides::pull_policy::keep_after_overrides(
        object,
        template.group(),
        template.kind(),
        pull_policies,
    );
    Ok(())
}

/// The metadata maps an object lacked and was given, empty, before its override rules.
const METADATA_MAPS: [&str; 2] = ["labels", "annotations"];

/// Gives the object the `labels` and `annotations` maps Karmada's copy has when its overrides
/// run: the resource detector claims the template first, writing its policy's
/// `propagationpolicy.karmada.io/permanent-id` label and name annotations into it
/// (`pkg/detector/claim.go`), so `add /metadata/annotations/KEY` finds its parent there even
/// when the template has none. Only a map a plaintext path reaches into is made (the labels and
/// annotations overriders make their own, as Karmada's do); which were, for
/// [`drop_unused_metadata_maps`].
fn metadata_maps_as_claimed<'p>(
    object: &mut Value,
    plaintext_paths: impl Iterator<Item = &'p str>,
) -> [bool; 2] {
    let mut reached = [false; 2];
    for path in plaintext_paths {
        for (index, map) in METADATA_MAPS.iter().enumerate() {
            let under = path
                .strip_prefix("/metadata/")
                .and_then(|rest| rest.strip_prefix(map));
            reached[index] |= under.is_some_and(|rest| rest.starts_with('/'));
        }
    }
    let Some(metadata) = object.field_mut("metadata").and_then(Value::as_object_mut) else {
        return [false; 2];
    };
    let mut made = [false; 2];
    for (index, map) in METADATA_MAPS.iter().enumerate() {
        if reached[index] && metadata.get(*map).is_none_or(Value::is_null) {
            metadata.insert(map.to_string(), Value::Object(serde_json::Map::new()));
            made[index] = true;
        }
    }
    made
}

/// Removes the maps [`metadata_maps_as_claimed`] made that no rule filled: fedrender writes no
/// bookkeeping, so an empty map would be all the member sees of them.
fn drop_unused_metadata_maps(object: &mut Value, made: [bool; 2]) {
    let Some(metadata) = object.field_mut("metadata").and_then(Value::as_object_mut) else {
        return;
    };
    for (map, made) in METADATA_MAPS.into_iter().zip(made) {
        if made
            && metadata
                .get(map)
                .and_then(Value::as_object)
                .is_some_and(|map| map.is_empty())
        {
            metadata.shift_remove(map);
        }
    }
}

/// Labels and annotations as Karmada writes them into the Work, once every override rule is
/// applied ([`overrides::labels_annotations::as_string_maps`]).
pub(crate) fn as_string_maps(
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

pub(crate) fn cluster_list(fleet: &Fleet, clusters: &[usize]) -> String {
    let names: Vec<&str> = clusters.iter().map(|&c| fleet.clusters[c].name()).collect();
    if names.len() == 1 {
        format!("cluster {}", names[0])
    } else {
        format!("clusters {}", names.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// k8s.io/kubernetes pkg/apis/batch/v1 defaults.go `SetDefaults_Job`: neither set, both 1;
    /// either set, the other is left as it is (a member's API server defaults parallelism alone).
    #[test]
    fn a_job_setting_neither_parallelism_nor_completions_gets_completions_one() {
        let mut object = serde_json::json!({"spec": {"parallelism": 1, "backoffLimit": 2}});
        default_job_completions(&mut object);
        assert_eq!(
            serde_json::to_string(&object).unwrap(),
            r#"{"spec":{"parallelism":1,"completions":1,"backoffLimit":2}}"#
        );
        let mut first = serde_json::json!({"spec": {"backoffLimit": 2}});
        default_job_completions(&mut first);
        assert_eq!(
            serde_json::to_string(&first).unwrap(),
            r#"{"spec":{"completions":1,"backoffLimit":2}}"#
        );
        let mut kept = serde_json::json!({"spec": {"parallelism": 3, "completions": 7}});
        default_job_completions(&mut kept);
        assert_eq!(
            kept,
            serde_json::json!({"spec": {"parallelism": 3, "completions": 7}})
        );
    }
    use serde_json::json;

    fn deployment() -> Template {
        Template::for_test(
            "apps/v1",
            "Deployment",
            "default",
            "web",
            json!({"apiVersion": "apps/v1", "kind": "Deployment",
                "metadata": {"name": "web", "namespace": "default", "uid": "u"},
                "spec": {"template": {}}, "status": {"readyReplicas": 1}}),
        )
    }

    // karmada issue #1347: an override of /spec/replicas must win over replica revision.
    #[test]
    fn overrides_run_after_revision_and_before_pruning() {
        let template = deployment();
        let mut work = revise(&Interpreter::default(), &template, Some(3), None).unwrap();
        assert_eq!(work["spec"]["replicas"], json!(3));
        work["spec"]["replicas"] = json!(7);
        work["status"] = json!({"injected": true});
        prune(&template, &mut work);
        assert_eq!(work["spec"]["replicas"], json!(7));
        assert!(work.field("status").is_none());
        assert!(work["metadata"].field("uid").is_none());
    }
}
