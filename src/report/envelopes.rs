//! The replica envelopes of the workloads a FederatedHPA or a CronFederatedHPA scales, in
//! Markdown: a table in `plan --format markdown`, and in a pull-request comment each touched
//! or changed workload's envelope before and after. Karmada rescales these templates on its
//! control plane, so no rendered tree holds these numbers: a change to a FederatedHPA's bounds
//! changes no file, and the comment is where a reviewer sees it.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use crate::report::markdown;
use fedrender_engine::diff::FleetDiff;
use fedrender_engine::object::ObjectKey;
use fedrender_engine::render::plan::Envelope;

/// Rows past which the comment's table is collapsed under a `<details>`.
const OPEN_ROWS: usize = 6;

/// `rule night (0 22 * * *, UTC)`, with `(never comes)` where it never does.
fn moment(envelope: &Envelope) -> String {
    match &envelope.never {
        Some(never) => format!("{} (never comes: {never})", envelope.moment),
        None => envelope.moment.clone(),
    }
}

/// The plan's section: one row per moment of each workload's envelope, one column per cluster
/// `clusters` shows (`·` where the template does not go then); empty without envelopes.
pub fn plan_markdown<'a>(
    workloads: impl IntoIterator<Item = (&'a ObjectKey, &'a [Envelope])>,
    clusters: &[&String],
) -> String {
    let mut rows = String::new();
    for (key, envelopes) in workloads {
        for envelope in envelopes {
            write!(
                rows,
                "| {} | {} | {} | {} |",
                markdown::cell(&key.to_string()),
                markdown::cell(&envelope.by),
                markdown::cell(&moment(envelope)),
                envelope.replicas
            )
            .unwrap();
            for cluster in clusters {
                let replicas = (envelope.clusters.iter())
                    .find(|(name, _)| name == *cluster)
                    .map_or("·".to_string(), |(_, replicas)| replicas.to_string());
                write!(rows, " {replicas} |").unwrap();
            }
            rows.push('\n');
        }
    }
    if rows.is_empty() {
        return rows;
    }
    let mut out = String::from(
        "\nReplica envelopes: each cluster's replicas when a FederatedHPA or CronFederatedHPA \
         sets the workload's, as the scheduler divides them.\n\n\
         | workload | autoscaler | at | replicas |",
    );
    for cluster in clusters {
        write!(out, " {} |", markdown::cell(cluster)).unwrap();
    }
    out.push_str("\n|---|---|---|---:|");
    out.push_str(&"---:|".repeat(clusters.len()));
    out.push('\n');
    out.push_str(&rows);
    out
}

/// `3 → 5` where the two differ, `3` where they do not; `·` for a side without it.
fn change(before: Option<i64>, after: Option<i64>, has_base: bool) -> String {
    let shown = |side: Option<i64>| side.map_or("·".to_string(), |n| n.to_string());
    if has_base && before != after {
        format!("{} → {}", shown(before), shown(after))
    } else {
        shown(after)
    }
}

/// One row of the comment: the moment of the envelope, its replicas and each cluster's, base
/// → head.
fn change_row(
    key: &ObjectKey,
    before: Option<&Envelope>,
    after: Option<&Envelope>,
    has_base: bool,
) -> String {
    let either = after.or(before).expect("a row has a side");
    let mut clusters: Vec<&str> = after
        .map(|envelope| envelope.clusters.iter().map(|(c, _)| c.as_str()).collect())
        .unwrap_or_default();
    for (cluster, _) in before.map_or(&[][..], |envelope| &envelope.clusters) {
        if !clusters.contains(&cluster.as_str()) {
            clusters.push(cluster);
        }
    }
    let on = |side: Option<&Envelope>, cluster: &str| {
        side.and_then(|envelope| envelope.clusters.iter().find(|(c, _)| c == cluster))
            .map(|(_, replicas)| *replicas)
    };
    let per_cluster: Vec<String> = clusters
        .iter()
        .map(|cluster| {
            format!(
                "{} {}",
                markdown::cell(cluster),
                change(on(before, cluster), on(after, cluster), has_base)
            )
        })
        .collect();
    let per_cluster = if per_cluster.is_empty() {
        "nowhere".to_string()
    } else {
        per_cluster.join(", ")
    };
    format!(
        "| {} | {} | {} | {} |\n",
        markdown::cell(&key.to_string()),
        markdown::cell(&format!("{} at {}", either.by, moment(either))),
        change(
            before.map(|e| e.replicas),
            after.map(|e| e.replicas),
            has_base
        ),
        per_cluster
    )
}

/// The comment's "Replica envelopes" section: every autoscaled workload whose envelope the
/// change moves (its autoscaler's bounds, its placement, the clusters) or whose objects it
/// touches, each moment base → head; in the head alone against a committed tree, which does
/// not say what scaled it. Empty when no such workload.
pub fn diff_markdown(diff: &FleetDiff) -> String {
    let Some(head) = &diff.envelopes else {
        return String::new();
    };
    let base = diff.base_envelopes.as_ref();
    let touched: BTreeSet<&ObjectKey> = (diff.clusters.values().flatten())
        .map(|change| &change.key)
        .chain(diff.replica_totals.keys())
        .collect();
    let none: Vec<Envelope> = Vec::new();
    let mut workloads: BTreeSet<&ObjectKey> = head.keys().collect();
    workloads.extend(base.into_iter().flat_map(BTreeMap::keys));
    let mut rows = Vec::new();
    for key in workloads {
        let after = head.get(key).unwrap_or(&none);
        let before = base.map(|base| base.get(key).unwrap_or(&none));
        let moved = before.is_some_and(|before| before != after);
        if !(moved || touched.contains(key)) {
            continue;
        }
        let same = |a: &Envelope, b: &Envelope| a.by == b.by && a.moment == b.moment;
        for envelope in after {
            let was = before.and_then(|before| before.iter().find(|b| same(b, envelope)));
            rows.push(change_row(key, was, Some(envelope), base.is_some()));
        }
        for envelope in before.unwrap_or(&none) {
            if !after.iter().any(|a| same(a, envelope)) {
                rows.push(change_row(key, Some(envelope), None, true));
            }
        }
    }
    if rows.is_empty() {
        return String::new();
    }
    let mut table =
        String::from("| workload | at | replicas | per cluster |\n|---|---|---:|---|\n");
    for row in &rows {
        table.push_str(row);
    }
    let mut out = String::from("#### Replica envelopes\n\n");
    if rows.len() > OPEN_ROWS {
        write!(
            out,
            "<details><summary>{} moments of autoscaled workloads</summary>\n\n{table}\n</details>\n\n",
            rows.len()
        )
        .unwrap();
    } else {
        out.push_str(&table);
        out.push('\n');
    }
    let sides = if base.is_some() {
        "base → head"
    } else {
        "in the head (a committed tree does not say what scaled it: `diff --base` does)"
    };
    writeln!(
        out,
        "Each cluster's replicas when a FederatedHPA or CronFederatedHPA sets the workload's, as \
         the scheduler divides them, {sides}. Karmada rescales these workloads on its control \
         plane: the rendered trees hold none of these numbers.\n"
    )
    .unwrap();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(name: &str) -> ObjectKey {
        ObjectKey {
            group: "apps".to_string(),
            kind: "Deployment".to_string(),
            namespace: "shop".to_string(),
            name: name.to_string(),
        }
    }

    fn envelope(moment: &str, clusters: &[(&str, i64)]) -> Envelope {
        Envelope {
            by: "FederatedHPA shop/web".to_string(),
            moment: moment.to_string(),
            replicas: clusters.iter().map(|(_, n)| n).sum(),
            clusters: (clusters.iter())
                .map(|(cluster, n)| (cluster.to_string(), *n))
                .collect(),
            never: None,
        }
    }

    /// A FederatedHPA the change deletes (federatedhpa_controller.go no longer rescales its
    /// target) and a cluster the envelope leaves: the rows show the side that is gone as `·`.
    #[test]
    fn a_removed_autoscaler_and_a_cluster_left_show_as_gone() {
        let before = vec![
            envelope("minReplicas", &[("member1", 1), ("member2", 1)]),
            envelope("maxReplicas", &[("member1", 3), ("member2", 7)]),
        ];
        let mut diff = FleetDiff::default();
        diff.base_envelopes = Some(BTreeMap::from([
            (key("web"), before.clone()),
            (key("api"), before),
        ]));
        diff.envelopes = Some(BTreeMap::from([(
            key("web"),
            vec![
                envelope("minReplicas", &[("member1", 1), ("member2", 1)]),
                envelope("maxReplicas", &[("member1", 10)]),
            ],
        )]));
        let text = diff_markdown(&diff);
        for row in [
            "| Deployment.apps shop/web | FederatedHPA shop/web at minReplicas | 2 | member1 1, member2 1 |\n",
            "| Deployment.apps shop/web | FederatedHPA shop/web at maxReplicas | 10 | member1 3 → 10, member2 7 → · |\n",
            "| Deployment.apps shop/api | FederatedHPA shop/web at maxReplicas | 10 → · | member1 3 → ·, member2 7 → · |\n",
        ] {
            assert!(text.contains(row), "{row}\n{text}");
        }
        // Unchanged and untouched: nothing to say.
        let mut same = FleetDiff::default();
        same.base_envelopes = diff.envelopes.clone();
        same.envelopes = diff.envelopes.clone();
        assert_eq!(diff_markdown(&same), "");
    }
}
