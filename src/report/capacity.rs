//! What the workloads ask of the clusters and the quotas, for `plan` and `diff`: each
//! cluster's requests beside what its inventory entry has free, each enforced quota beside its
//! `overall`, and in a diff both sides of each.

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::report::markdown;
use fedrender_engine::quantity::Quantity;
use fedrender_engine::render::capacity::{Capacity, ClusterCapacity, QuotaUsage, shown};

/// The resources a pull-request comment and the plan's table show.
const SHOWN: [(&str, &str); 2] = [("cpu", "CPU"), ("memory", "memory")];

/// Whether there is anything to say: some cluster receives a request other than its pods, or
/// states what it has free.
pub fn worth_showing(capacity: &Capacity) -> bool {
    capacity.clusters.iter().any(|cluster| {
        let requests = !cluster.requested.is_empty();
        requests && (cluster.free.is_some() || cluster.requested.keys().any(|r| r != "pods"))
    })
}

/// `2 cpu of 1 free (1 short)`, `1Gi memory of 64Gi free`, or without a summary `2 cpu`.
fn resource_phrase(cluster: &ClusterCapacity, resource: &str) -> String {
    let requested = cluster.requested_of(resource);
    match cluster.free_of(resource) {
        None => format!("{} {resource}", shown(resource, requested)),
        Some(free) if requested > free => format!(
            "{} {resource} of {} free ({} short)",
            shown(resource, requested),
            shown(resource, free),
            shown(resource, requested.saturating_sub(free))
        ),
        Some(free) => format!(
            "{} {resource} of {} free",
            shown(resource, requested),
            shown(resource, free)
        ),
    }
}

/// The clusters shown that have no summary, said once: `member2 and member3 have no
/// status.resourceSummary in the inventory: what they have free is unknown`.
fn without_summary(clusters: &[&ClusterCapacity]) -> Option<String> {
    let names: Vec<&str> = clusters
        .iter()
        .filter(|cluster| cluster.free.is_none())
        .map(|cluster| cluster.cluster.as_str())
        .collect();
    let (verb, pronoun) = if names.len() == 1 {
        ("has", "it has")
    } else {
        ("have", "they have")
    };
    let listed = match names.as_slice() {
        [] => return None,
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    };
    Some(format!(
        "{listed} {verb} no status.resourceSummary in the inventory: what {pronoun} free is unknown"
    ))
}

/// The plan's lines on capacity and quotas, each to be printed indented under its heading;
/// empty when there is nothing to say. `shows` keeps the clusters the plan shows.
pub fn plan_lines(capacity: &Capacity, shows: impl Fn(&str) -> bool) -> Vec<(String, Vec<String>)> {
    let mut sections = Vec::new();
    let clusters: Vec<&ClusterCapacity> = capacity
        .clusters
        .iter()
        .filter(|cluster| shows(&cluster.cluster) && !cluster.requested.is_empty())
        .collect();
    if worth_showing(capacity) && !clusters.is_empty() {
        let mut lines: Vec<String> = clusters
            .iter()
            .map(|cluster| {
                let phrases: Vec<String> = cluster
                    .requested
                    .keys()
                    .map(|resource| resource_phrase(cluster, resource))
                    .collect();
                format!("{}: {}", cluster.cluster, phrases.join(", "))
            })
            .collect();
        lines.extend(without_summary(&clusters));
        sections.push((
            "capacity (requests × replicas each cluster receives, against what its \
             status.resourceSummary has free: allocatable − allocated − allocating):"
                .to_string(),
            lines,
        ));
    }
    if !capacity.quotas.is_empty() {
        let mut by_quota: BTreeMap<&str, Vec<&QuotaUsage>> = BTreeMap::new();
        for used in &capacity.quotas {
            by_quota.entry(&used.quota).or_default().push(used);
        }
        let lines = by_quota
            .into_iter()
            .map(|(quota, usages)| {
                let phrases: Vec<String> = usages.iter().map(|used| quota_phrase(used)).collect();
                format!("{quota}: {}", phrases.join(", "))
            })
            .collect();
        sections.push((
            "quotas (FederatedQuotaEnforcement on: Karmada's binding webhook holds each \
             namespace's bindings to spec.overall):"
                .to_string(),
            lines,
        ));
    }
    sections
}

/// `2 cpu of 1 (exceeded)`, `1Gi memory of 10Gi`.
fn quota_phrase(used: &QuotaUsage) -> String {
    let resource = used.resource.as_str();
    format!(
        "{} {resource} of {}{}",
        shown(resource, used.requested),
        shown(resource, used.overall),
        if used.exceeded() { " (exceeded)" } else { "" }
    )
}

/// The rows the plan's table and Markdown gain when the rows shown request CPU or memory: one
/// per resource requested, summed over those rows (`requested`, by cluster and resource), and,
/// where some shown cluster states it, one with what it has free (`?` for a cluster without a
/// summary); a cell per cluster of `clusters`, then the requests over them.
pub fn matrix_rows(
    capacity: &Capacity,
    clusters: &[&String],
    requested: &BTreeMap<String, BTreeMap<String, Quantity>>,
) -> Vec<(String, Vec<String>)> {
    let requests_any = requested.values().any(|resources| {
        SHOWN
            .iter()
            .any(|(resource, _)| resources.get(*resource).is_some_and(|q| !q.is_zero()))
    });
    if !requests_any {
        return Vec::new();
    }
    let free_of = |name: &str, resource: &str| -> Option<Quantity> {
        let cluster = capacity.clusters.iter().find(|c| c.cluster == name)?;
        cluster.free_of(resource)
    };
    let any_free = clusters.iter().any(|name| free_of(name, "pods").is_some());
    let mut rows = Vec::new();
    for (resource, label) in SHOWN {
        let mut total = Quantity::default();
        let mut cells: Vec<String> = clusters
            .iter()
            .map(|name| {
                let asked = requested
                    .get(name.as_str())
                    .and_then(|resources| resources.get(resource))
                    .copied()
                    .unwrap_or_default();
                total = total.saturating_add(asked);
                shown(resource, asked)
            })
            .collect();
        cells.push(shown(resource, total));
        rows.push((format!("{label} requested"), cells));
        if any_free {
            let mut cells: Vec<String> = clusters
                .iter()
                .map(|name| {
                    free_of(name, resource).map_or("?".to_string(), |free| shown(resource, free))
                })
                .collect();
            cells.push(String::new());
            rows.push((format!("{label} free"), cells));
        }
    }
    rows
}

/// `1 → 20` where it changed, `20` where it did not, for one resource of one cluster; the
/// base `None` when the diff has no base to say (a committed tree).
pub(crate) fn change(resource: &str, base: Option<Quantity>, head: Quantity) -> String {
    match base {
        Some(base) if base != head => {
            format!("{} → {}", shown(resource, base), shown(resource, head))
        }
        _ => shown(resource, head),
    }
}

/// The pull-request comment's "Capacity" and "Quotas" sections: each cluster whose requests
/// changed or that receives more than it has free, with its CPU and memory before and after
/// and free; each enforced quota whose requests changed or that is exceeded. Empty when
/// nothing of either changed and nothing is short.
pub fn diff_markdown(base: Option<&Capacity>, head: &Capacity) -> String {
    let mut out = String::new();
    let base_cluster =
        |name: &str| base.and_then(|base| base.clusters.iter().find(|c| c.cluster == name));
    let short = |cluster: &ClusterCapacity| {
        cluster.requested.iter().any(|(resource, &requested)| {
            cluster
                .free_of(resource)
                .is_some_and(|free| requested > free)
        })
    };
    let mut names: Vec<&str> = head.clusters.iter().map(|c| c.cluster.as_str()).collect();
    if let Some(base) = base {
        for cluster in &base.clusters {
            if !names.contains(&cluster.cluster.as_str()) {
                names.push(&cluster.cluster);
            }
        }
    }
    names.sort_unstable();
    let mut rows = Vec::new();
    let mut unknown = Vec::new();
    for name in names {
        let after = head.clusters.iter().find(|c| c.cluster == name);
        let before = base_cluster(name);
        let requested = |side: Option<&ClusterCapacity>, resource: &str| {
            side.map_or(Quantity::default(), |cluster| {
                cluster.requested_of(resource)
            })
        };
        let changed = base.is_some()
            && SHOWN
                .iter()
                .any(|(resource, _)| requested(before, resource) != requested(after, resource));
        let over = after.is_some_and(short);
        if !(changed || over) {
            continue;
        }
        if after.is_some_and(|cluster| cluster.free.is_none()) {
            unknown.push(after.expect("checked"));
        }
        let requested_cells: Vec<String> = SHOWN
            .iter()
            .map(|(resource, _)| {
                let was = base.map(|_| requested(before, resource));
                change(resource, was, requested(after, resource))
            })
            .collect();
        let free_cells: Vec<String> = SHOWN
            .iter()
            .map(|(resource, _)| {
                let free = after.and_then(|cluster| cluster.free_of(resource));
                free.map_or("?".to_string(), |free| shown(resource, free))
            })
            .collect();
        let summary = after.is_some_and(|cluster| cluster.free.is_some());
        rows.push((name, requested_cells, free_cells, summary, over));
    }
    if !rows.is_empty() {
        // Where no cluster listed states a summary, nothing is known free: no columns for it.
        let with_free = rows.iter().any(|(_, _, _, summary, _)| *summary);
        out.push_str("#### Capacity\n\n| cluster | CPU requested | memory requested |");
        out.push_str(if with_free {
            " CPU free | memory free | |\n|---|---:|---:|---:|---:|---|\n"
        } else {
            "\n|---|---:|---:|\n"
        });
        for (name, requested_cells, free_cells, _, over) in rows {
            write!(out, "| {} |", markdown::cell(name)).unwrap();
            for cell in &requested_cells {
                write!(out, " {cell} |").unwrap();
            }
            if with_free {
                for cell in &free_cells {
                    write!(out, " {cell} |").unwrap();
                }
                write!(out, " {} |", if over { "**over capacity**" } else { "" }).unwrap();
            }
            out.push('\n');
        }
        out.push('\n');
        let sides = if base.is_some() {
            "base → head"
        } else {
            "in the head (a committed tree does not say what was requested before: `diff --base` \
             does)"
        };
        let against = if with_free {
            ", against what its `status.resourceSummary` has free in the head"
        } else {
            ""
        };
        writeln!(
            out,
            "Requests × replicas each cluster receives, {sides}{against}.\n"
        )
        .unwrap();
        if let Some(line) = without_summary(&unknown) {
            writeln!(out, "{}.\n", markdown::text(&line)).unwrap();
        }
    }
    let base_quota = |used: &QuotaUsage| {
        base.and_then(|base| {
            base.quotas
                .iter()
                .find(|b| b.quota == used.quota && b.resource == used.resource)
        })
    };
    let quota_lines: Vec<String> = head
        .quotas
        .iter()
        .filter(|used| {
            used.exceeded()
                || base
                    .is_some_and(|_| base_quota(used).map(|b| b.requested) != Some(used.requested))
        })
        .map(|used| {
            let resource = used.resource.as_str();
            let before =
                base.map(|_| base_quota(used).map_or(Quantity::default(), |b| b.requested));
            format!(
                "- {}{} {}: {} of {}",
                if used.exceeded() { "**exceeded** " } else { "" },
                markdown::code(&used.quota),
                markdown::text(resource),
                change(resource, before, used.requested),
                shown(resource, used.overall)
            )
        })
        .collect();
    if !quota_lines.is_empty() {
        out.push_str("#### Quotas\n\n");
        for line in quota_lines {
            out.push_str(&line);
            out.push('\n');
        }
        out.push_str(
            "\nWhat each namespace's workloads request over their clusters against the \
             FederatedResourceQuota's `overall`, which Karmada's binding webhook enforces \
             (FederatedQuotaEnforcement on).\n\n",
        );
    }
    out
}

/// `diff --format stat`'s lines: each cluster whose CPU or memory requests changed or that is
/// short, and each exceeded quota.
pub fn stat_lines(base: Option<&Capacity>, head: &Capacity) -> Vec<String> {
    let mut lines = Vec::new();
    for cluster in &head.clusters {
        let before = base.map(|base| base.clusters.iter().find(|c| c.cluster == cluster.cluster));
        let mut phrases = Vec::new();
        let mut changed = false;
        for (resource, _) in SHOWN {
            let after = cluster.requested_of(resource);
            let was = before.map(|b| b.map_or(Quantity::default(), |b| b.requested_of(resource)));
            changed |= was.is_some_and(|was| was != after);
            if after != Quantity::default() || was.is_some_and(|was| was != after) {
                phrases.push(format!("{} {resource}", change(resource, was, after)));
            }
        }
        let short: Vec<String> = cluster
            .requested
            .iter()
            .filter(|(resource, requested)| {
                cluster
                    .free_of(resource)
                    .is_some_and(|free| **requested > free)
            })
            .map(|(resource, _)| resource_phrase(cluster, resource))
            .collect();
        if changed || !short.is_empty() {
            let mut line = format!(
                "~ capacity {}: {} requested",
                cluster.cluster,
                phrases.join(", ")
            );
            if !short.is_empty() {
                write!(line, "; over capacity: {}", short.join(", ")).unwrap();
            }
            lines.push(line);
        }
    }
    for used in head.quotas.iter().filter(|used| used.exceeded()) {
        lines.push(format!("! quota {}: {}", used.quota, quota_phrase(used)));
    }
    lines
}

/// A capacity as data: each cluster that receives a workload or states a summary, with its
/// requests and what it has free (`null` without a summary), and each enforced quota's
/// requests beside its `overall`; `null` when there is nothing to say (no requests beyond pods,
/// no summary, no enforced quota).
pub fn json(capacity: &Capacity) -> serde_json::Value {
    let quantities =
        |list: &BTreeMap<String, Quantity>| -> serde_json::Map<String, serde_json::Value> {
            list.iter()
                .map(|(resource, quantity)| (resource.clone(), shown(resource, *quantity).into()))
                .collect()
        };
    if !worth_showing(capacity) && capacity.quotas.is_empty() {
        return serde_json::Value::Null;
    }
    serde_json::json!({
        "clusters": capacity.clusters.iter().filter(|cluster| !cluster.requested.is_empty() || cluster.free.is_some()).map(|cluster| serde_json::json!({
            "cluster": cluster.cluster,
            "requested": quantities(&cluster.requested),
            "free": cluster.free.as_ref().map(quantities),
        })).collect::<Vec<_>>(),
        "quotas": capacity.quotas.iter().map(|used| serde_json::json!({
            "quota": used.quota,
            "resource": used.resource,
            "overall": shown(&used.resource, used.overall),
            "requested": shown(&used.resource, used.requested),
            "exceeded": used.exceeded(),
        })).collect::<Vec<_>>(),
    })
}
