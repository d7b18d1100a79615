//! `fedrender diff --format json`: the whole comparison as data for tools — each cluster's
//! changes, the changes grouped once with their clusters and diffs, replica moves, the
//! Review's findings and what the ignore rules hid.

use serde_json::json;

use super::diff::totals;
use fedrender_engine::diff::FleetDiff;

/// The comparison as one JSON document, its names made inert for a GitHub log.
pub fn json(diff: &FleetDiff, title: Option<&str>) -> String {
    let grouped = diff.grouped();
    let clusters: Vec<serde_json::Value> = diff
        .clusters
        .iter()
        .map(|(cluster, changes)| {
            let (added, changed, removed) = FleetDiff::counts(changes);
            let objects: Vec<serde_json::Value> = changes
                .iter()
                .map(|change| {
                    json!({
                        "group": change.key.group,
                        "kind": change.key.kind,
                        "namespace": change.key.namespace,
                        "name": change.key.name,
                        "change": change.kind.word(),
                    })
                })
                .collect();
            json!({"cluster": cluster, "added": added, "changed": changed, "removed": removed, "objects": objects})
        })
        .collect();
    let groups: Vec<serde_json::Value> = grouped
        .groups
        .iter()
        .map(|group| {
            let key = &group.change.key;
            json!({
                "group": key.group,
                "kind": key.kind,
                "namespace": key.namespace,
                "name": key.name,
                "change": group.change.kind.word(),
                "clusters": group.clusters,
                "diff": group.hunks,
                "replicas": group.replicas.iter().map(|(cluster, before, after)| json!({
                    "cluster": cluster, "before": before, "after": after,
                })).collect::<Vec<_>>(),
                "source": diff.provenance.get(key).map(|provenance| json!({
                    "template": provenance.origin,
                    "placedBy": provenance.placed_by,
                    "overriddenBy": provenance.overridden_on(&group.clusters),
                    "mayDivideOtherwiseLive": provenance.may_divide_otherwise_live,
                })),
            })
        })
        .collect();
    let moves: Vec<serde_json::Value> = grouped
        .replica_moves
        .iter()
        .map(|moved| {
            json!({
                "group": moved.key.group,
                "kind": moved.key.kind,
                "namespace": moved.key.namespace,
                "name": moved.key.name,
                "clusters": moved.clusters.iter().map(|(cluster, before, after)| json!({
                    "cluster": cluster, "before": before, "after": after,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let (added, changed, removed) = totals(diff);
    let report = json!({
        "title": title,
        "changed": !diff.is_empty(),
        "touched": touched_json(&diff.touched),
        "summary": {"added": added, "changed": changed, "removed": removed},
        "clustersAdded": diff.clusters_added,
        "clustersRemoved": diff.clusters_removed,
        "replicaMoves": moves,
        "findings": findings_json(diff),
        "hidden": diff.hidden.iter().map(|hidden| json!({
            "rule": hidden.rule, "changes": hidden.changes, "fieldsLeftOut": hidden.fields,
        })).collect::<Vec<_>>(),
        "groups": groups,
        "clusters": clusters,
        "envelopes": diff.envelopes.as_ref().map(envelopes_json),
        "baseEnvelopes": diff.base_envelopes.as_ref().map(envelopes_json),
        "capacity": diff.capacity.as_ref().map(crate::report::capacity::json),
        "baseCapacity": diff.base_capacity.as_ref().map(crate::report::capacity::json),
    });
    let mut text = serde_json::to_string_pretty(&report).expect("a JSON value serialises");
    text.push('\n');
    crate::report::github::inert_json(text)
}

/// Who the change touches: `clusters` (every cluster with a change), `groups` (each review
/// group it touches: `name`, `clusters` in it, `clustersTouched`, `objectsChanged`, `owners`,
/// `requests` of CPU and memory over its clusters, `base` and `head`), `owners` (of those
/// groups alone, sorted), where the groups are from (`groupsFrom`: `base`, `change` or `null`
/// without any; `groupsAt`), and `reviewChanged` (the change's Config says otherwise).
fn touched_json(touched: &fedrender_engine::diff::Touched) -> serde_json::Value {
    use fedrender_engine::diff::GroupsFrom;
    use fedrender_engine::render::capacity::shown;
    let (from, at) = match &touched.groups_from {
        None => (None, None),
        Some(GroupsFrom::Base { at }) => (Some("base"), Some(at)),
        Some(GroupsFrom::Change { at }) => (Some("change"), Some(at)),
    };
    let groups: Vec<serde_json::Value> = (touched.groups.iter())
        .map(|group| {
            let requests: serde_json::Map<String, serde_json::Value> = (group.requests.iter())
                .map(|(resource, base, head)| {
                    let side = json!({
                        "base": base.map(|base| shown(resource, base)),
                        "head": shown(resource, *head),
                    });
                    (resource.to_string(), side)
                })
                .collect();
            json!({
                "name": group.name,
                "clusters": group.clusters,
                "clustersTouched": group.clusters_touched,
                "objectsChanged": group.objects_changed,
                "owners": group.owners,
                "requests": (!requests.is_empty()).then_some(requests),
            })
        })
        .collect();
    json!({
        "clusters": touched.clusters,
        "groups": groups,
        "owners": touched.owners,
        "groupsFrom": from,
        "groupsAt": at,
        "reviewChanged": touched.review_changed,
    })
}

/// Each autoscaled workload's replica envelopes: at each moment of its FederatedHPAs and
/// CronFederatedHPAs, the replicas and the scheduler's division of them.
fn envelopes_json(
    envelopes: &std::collections::BTreeMap<
        fedrender_engine::object::ObjectKey,
        Vec<fedrender_engine::render::plan::Envelope>,
    >,
) -> Vec<serde_json::Value> {
    envelopes
        .iter()
        .map(|(key, moments)| {
            json!({
                "group": key.group,
                "kind": key.kind,
                "namespace": key.namespace,
                "name": key.name,
                "moments": moments.iter().map(|envelope| json!({
                    "by": envelope.by,
                    "moment": envelope.moment,
                    "replicas": envelope.replicas,
                    "clusters": envelope.clusters.iter()
                        .map(|(cluster, replicas)| json!({"cluster": cluster, "replicas": replicas}))
                        .collect::<Vec<_>>(),
                    "neverComes": envelope.never,
                })).collect::<Vec<_>>(),
            })
        })
        .collect()
}

/// The danger findings for tools: each rule broken by each object, with its clusters.
fn findings_json(diff: &FleetDiff) -> Vec<serde_json::Value> {
    diff.findings
        .iter()
        .map(|finding| {
            json!({
                "lint": finding.lint.name(),
                "level": finding.level.word(),
                "group": finding.key.group,
                "kind": finding.key.kind,
                "namespace": finding.key.namespace,
                "name": finding.key.name,
                "clusters": finding.clusters,
                "message": finding.message,
                "argoCD": finding.argo_cd,
                "flux": finding.flux,
                "fix": finding.fix,
                "loweredBy": finding.escaped_by,
            })
        })
        .collect()
}
