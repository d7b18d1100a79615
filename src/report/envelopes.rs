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

/// One moment of an autoscaled workload's envelope, base → head, in the words every form of
/// the diff writes: `3 → 5` where the sides differ, `·` for a side without it.
struct ChangeRow<'a> {
    key: &'a ObjectKey,
    /// `FederatedHPA shop/web at maxReplicas`.
    at: String,
    replicas: String,
    /// Each cluster with its replicas, head's clusters first, then those only the base has.
    per_cluster: Vec<(&'a str, String)>,
}

impl<'a> ChangeRow<'a> {
    fn of(
        key: &'a ObjectKey,
        before: Option<&'a Envelope>,
        after: Option<&'a Envelope>,
        has_base: bool,
    ) -> ChangeRow<'a> {
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
        ChangeRow {
            key,
            at: format!("{} at {}", either.by, moment(either)),
            replicas: change(
                before.map(|e| e.replicas),
                after.map(|e| e.replicas),
                has_base,
            ),
            per_cluster: (clusters.into_iter())
                .map(|cluster| {
                    let replicas = change(on(before, cluster), on(after, cluster), has_base);
                    (cluster, replicas)
                })
                .collect(),
        }
    }

    /// `member1 3 → 10, member2 7 → ·`, each cluster's name written by `name`.
    fn clusters(&self, name: impl Fn(&str) -> String) -> String {
        if self.per_cluster.is_empty() {
            return "nowhere".to_string();
        }
        (self.per_cluster.iter())
            .map(|(cluster, replicas)| format!("{} {replicas}", name(cluster)))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Every autoscaled workload whose envelope the change moves (its autoscaler's bounds, its
/// placement, the clusters) or whose objects it touches, each moment base → head; in the head
/// alone against a committed tree, which does not say what scaled it.
fn change_rows(diff: &FleetDiff) -> Vec<ChangeRow<'_>> {
    let Some(head) = &diff.envelopes else {
        return Vec::new();
    };
    let base = diff.base_envelopes.as_ref();
    let touched: BTreeSet<&ObjectKey> = (diff.clusters.values().flatten())
        .map(|change| &change.key)
        .chain(diff.replica_totals.keys())
        .collect();
    let mut workloads: BTreeSet<&ObjectKey> = head.keys().collect();
    workloads.extend(base.into_iter().flat_map(BTreeMap::keys));
    let mut rows = Vec::new();
    for key in workloads {
        let after = head.get(key).map_or(&[][..], Vec::as_slice);
        let before = base.map(|base| base.get(key).map_or(&[][..], Vec::as_slice));
        let moved = before.is_some_and(|before| before != after);
        if !(moved || touched.contains(key)) {
            continue;
        }
        let same = |a: &Envelope, b: &Envelope| a.by == b.by && a.moment == b.moment;
        for envelope in after {
            let was = before.and_then(|before| before.iter().find(|b| same(b, envelope)));
            rows.push(ChangeRow::of(key, was, Some(envelope), base.is_some()));
        }
        for envelope in before.unwrap_or(&[]) {
            if !after.iter().any(|a| same(a, envelope)) {
                rows.push(ChangeRow::of(key, Some(envelope), None, true));
            }
        }
    }
    rows
}

/// The comment's "Replica envelopes" section, a table of [`change_rows`]; empty when none.
pub fn diff_markdown(diff: &FleetDiff) -> String {
    let rows = change_rows(diff);
    if rows.is_empty() {
        return String::new();
    }
    let mut table =
        String::from("| workload | at | replicas | per cluster |\n|---|---|---:|---|\n");
    for row in &rows {
        writeln!(
            table,
            "| {} | {} | {} | {} |",
            markdown::cell(&row.key.to_string()),
            markdown::cell(&row.at),
            row.replicas,
            row.clusters(markdown::cell)
        )
        .unwrap();
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
    writeln!(
        out,
        "Each cluster's replicas when a FederatedHPA or CronFederatedHPA sets the workload's, as \
         the scheduler divides them, {}. Karmada rescales these workloads on its control \
         plane: the rendered trees hold none of these numbers.\n",
        sides(diff)
    )
    .unwrap();
    out
}

fn sides(diff: &FleetDiff) -> &'static str {
    if diff.base_envelopes.is_some() {
        "base → head"
    } else {
        "in the head (a committed tree does not say what scaled it: `diff --base` does)"
    }
}

/// The same rows for the terminal (`diff`'s unified and `--stat` forms), unescaped: `envelope
/// of Deployment.apps shop/web, FederatedHPA shop/web at maxReplicas: 10 → 12 replicas
/// (member1 5 → 6, member2 5 → 6)`; the caller marks each line and makes it printable.
pub fn diff_lines(diff: &FleetDiff) -> Vec<String> {
    change_rows(diff)
        .iter()
        .map(|row| {
            format!(
                "envelope of {}, {}: {} replicas ({})",
                row.key,
                row.at,
                row.replicas,
                row.clusters(str::to_string)
            )
        })
        .collect()
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
