//! The story of every template for `fedrender plan`: the policies that matched and why one
//! won, the clusters filtered out and why, replicas per cluster and the override rules applied.

use std::collections::BTreeMap;

use crate::api::selector::ImplicitPriority;
use crate::bind::PolicyIndex;
use crate::controllers::federated_quota::FederatedQuota;
use crate::federation::FederatedBinding;
use crate::fleet::Fleet;
use crate::interpret::Operation;
use crate::object::{ObjectKey, Template};
use crate::overrides::OverrideIndex;
use crate::work;

use super::placement::Placement;

/// The story of one template, for `fedrender plan`: which policies matched and why one won,
/// which clusters the filters removed and why, where it went with how many replicas, and the
/// override rules applied in each cluster.
#[derive(Debug, Clone)]
pub struct PlanEntry {
    /// The object.
    pub key: ObjectKey,
    /// Where its template is written.
    pub origin: crate::diagnostics::Origin,
    /// Matching propagation policies, the winner first, each with why it won or lost.
    pub policies: Vec<PolicyChoice>,
    /// What placed the template: a policy, the namespace controller, a dependant.
    pub placed_by: Vec<String>,
    /// Each cluster the filters removed, with why.
    pub filtered: Vec<(String, String)>,
    /// Each cluster it goes to, with its replicas and override rules.
    pub clusters: Vec<PlannedCluster>,
    /// What one replica requests, as its binding holds it (empty: none, or not a workload).
    pub request: std::collections::BTreeMap<String, crate::quantity::Quantity>,
    /// How the scheduler divided a Divided workload's replicas.
    pub division: Option<crate::schedule::divide::Division>,
    /// Whether a live Karmada may divide them otherwise (known without explaining).
    pub may_divide_otherwise_live: bool,
    /// Why it goes nowhere, when it does.
    pub nowhere: Option<String>,
    /// Which interpreter answered each operation for it (none: not a workload, no revision,
    /// no dependencies).
    pub interpreted_by: Vec<(Operation, String)>,
    /// Operations of its kind's customizations that only a live control plane runs.
    pub ignored_operations: Vec<String>,
    /// The plain object beside a KubeFed `Federated<Kind>`: the host cluster's copy, not read.
    pub host_copy: Option<crate::diagnostics::Origin>,
    /// How the secret material it holds is protected on its way; `None` when it holds none.
    pub secret: Option<crate::secrets::Protection>,
    /// What each cluster it reaches opens it with, by cluster name (a SealedSecret's
    /// certificate group, the SOPS key that decrypts it); empty when no cluster states a key.
    pub secret_keys: Vec<(String, String)>,
    /// What a reviewer should know of its life on the members that the rendered tree does not
    /// show: kept when deleted, applied lazily.
    pub notes: Vec<String>,
    /// The replicas each cluster gets at the ends of the FederatedHPAs that scale it and at
    /// the rules of the CronFederatedHPAs.
    pub autoscaling: Vec<Envelope>,
}

/// One moment of a workload's autoscaling: the replicas its template has then, and the
/// scheduler's division of them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Envelope {
    /// The autoscaler (`FederatedHPA shop/web`).
    pub by: String,
    /// The moment (`minReplicas`, `rule rush (0 9 * * 1-5, Europe/Berlin): maxReplicas`).
    pub moment: String,
    /// The template's replicas then.
    pub replicas: i64,
    /// Each cluster's replicas, in inventory order; empty when it goes nowhere.
    pub clusters: Vec<(String, i64)>,
    /// Why the moment never comes (a suspended rule, a schedule the controller refuses).
    pub never: Option<String>,
}

/// A propagation policy that matched a template, with why it won or lost.
#[derive(Debug, Clone)]
pub struct PolicyChoice {
    /// The policy (`PropagationPolicy shop/web`).
    pub policy: String,
    /// Its priority.
    pub priority: i32,
    /// How it selected the template (`name`, `label selector`, …).
    pub matched_by: &'static str,
    /// Why it won or lost.
    pub outcome: String,
}

/// A cluster a template goes to, for `plan`.
#[derive(Debug, Clone)]
pub struct PlannedCluster {
    /// The cluster.
    pub name: String,
    /// Its replicas, for a workload.
    pub replicas: Option<i64>,
    /// Its completions, for a Divided Job.
    pub completions: Option<i64>,
    /// `<policy>: <rule>` of every override rule applied, in order.
    pub overrides: Vec<String>,
}

/// What the scheduler decided for a template that only its plan entry tells: the clusters it
/// filtered out, with why, and how it divided the replicas.
pub(super) struct Story<'a> {
    pub filtered: &'a [(String, crate::schedule::filter::Filtered)],
    pub division: Option<&'a crate::schedule::divide::Division>,
}

pub(super) fn plan_entry(
    fleet: &Fleet,
    index: &PolicyIndex<'_>,
    override_index: &OverrideIndex<'_>,
    template: &Template,
    placement: &Placement,
    story: Story<'_>,
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
                None => match &placement.claimed_by {
                    Some(claimer) => format!("lost: {claimer} claims the Service"),
                    None => "not used".to_string(),
                },
            };
            PolicyChoice {
                policy: policy.id.to_string(),
                priority: policy.priority,
                matched_by: implicit.describe(),
                outcome,
            }
        })
        .collect();
    let clusters = work::rules_per_target(fleet, override_index, template, &placement.targets)
        .into_iter()
        .map(|(target, rules)| {
            let overrides = rules
                .iter()
                .map(|rule| {
                    let policy = &fleet.overrides[rule.policy];
                    format!("{}: {}", policy.id, policy.rules[rule.rule].field)
                })
                .collect();
            PlannedCluster {
                name: fleet.clusters[target.cluster].name().to_string(),
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
    let mut notes = placement.notes.clone();
    if let Some(preserved_by) = &placement.preserved_by {
        match &placement.preserved_only_on {
            Some(own) => {
                let names: Vec<&str> = own
                    .iter()
                    .map(|&cluster| fleet.clusters[cluster].name())
                    .collect();
                let names = if names.is_empty() {
                    "no cluster".to_string()
                } else {
                    names.join(", ")
                };
                notes.push(format!(
                    "kept on {names} when its template is deleted (preserveResourcesOnDeletion \
                     of {preserved_by}); the copies Karmada's namespace controller makes on the \
                     other clusters are not kept, and build --gitops exempts only the copies on \
                     {names} from pruning"
                ));
            }
            None => notes.push(format!(
                "kept on the members when its template is deleted (preserveResourcesOnDeletion \
                 of {preserved_by}); build --gitops exempts it from pruning"
            )),
        }
    }
    if crate::interpret::native::retains_replicas(template) {
        notes.push(
            "its template is labelled resourcetemplate.karmada.io/retain-replicas: true: \
             Karmada creates it with the replicas rendered here, then leaves spec.replicas to \
             the member (its HPA, or whoever scales it) wherever its copy keeps the label; \
             build --gitops leaves it to the member too"
                .to_string(),
        );
    }
    if let Some(policy) = winner.filter(|policy| policy.lazy_activation) {
        notes.push(format!(
            "{} is Lazy: Karmada applies a change of that policy to this template only when the template next changes",
            policy.id
        ));
    }
    PlanEntry {
        key: template.key.clone(),
        origin: template.origin.clone(),
        notes,
        autoscaling: Vec::new(),
        interpreted_by,
        ignored_operations,
        policies,
        placed_by: placement.placed_by.clone(),
        host_copy: None,
        secret: crate::secrets::protection(template.group(), template.kind(), &template.object),
        secret_keys: super::secret_warnings::key_notes(fleet, template, placement),
        filtered: story
            .filtered
            .iter()
            .map(|(cluster, reason)| (cluster.clone(), reason.describe()))
            .collect(),
        clusters,
        request: placement.request.clone(),
        division: story.division.cloned(),
        may_divide_otherwise_live: placement.may_divide_otherwise_live,
        nowhere: placement
            .targets
            .is_empty()
            .then(|| placement.nowhere.clone())
            .flatten(),
    }
}

pub(super) fn quota_plan_entry(
    quota: &FederatedQuota,
    cluster_index: &BTreeMap<&str, usize>,
) -> PlanEntry {
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
        host_copy: None,
        secret: None,
        secret_keys: Vec::new(),
        notes: Vec::new(),
        autoscaling: Vec::new(),
        filtered: Vec::new(),
        request: BTreeMap::new(),
        division: None,
        may_divide_otherwise_live: false,
        interpreted_by: Vec::new(),
        ignored_operations: Vec::new(),
        nowhere: clusters
            .is_empty()
            .then(|| format!("{} assigns no cluster of the inventory", quota.id)),
        clusters,
    }
}

pub(super) fn federated_plan_entry(
    binding: &FederatedBinding,
    targets: &[(String, Option<i64>)],
) -> PlanEntry {
    PlanEntry {
        key: binding.template.key.clone(),
        // An Application's object is written in its repository; the Application names itself.
        origin: match binding.placement {
            crate::federation::FederatedPlacement::ArgoCd { .. } => binding.template.origin.clone(),
            _ => binding.source.clone(),
        },
        policies: Vec::new(),
        placed_by: vec![binding.source_name.clone()],
        host_copy: binding.host_copy.clone(),
        notes: match &binding.placement {
            crate::federation::FederatedPlacement::ArgoCd { notes, .. } => notes.to_vec(),
            _ => Vec::new(),
        },
        autoscaling: Vec::new(),
        secret: crate::secrets::protection(
            binding.template.group(),
            binding.template.kind(),
            &binding.template.object,
        ),
        secret_keys: Vec::new(),
        filtered: Vec::new(),
        request: BTreeMap::new(),
        division: None,
        may_divide_otherwise_live: false,
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
