//! The four forms of `fedrender diff`: a unified diff (coloured on a terminal), a pull-request
//! comment in Markdown (capped, fences kept closed), JSON for tools, and a stat summary.

use std::fmt::Write;

use serde_json::json;

use crate::diff::{ChangeKind, FleetDiff, ObjectChange};

const RED: &str = "\x1b[31m";
const GREEN: &str = "\x1b[32m";
const CYAN: &str = "\x1b[36m";
const BOLD: &str = "\x1b[1m";
const RESET: &str = "\x1b[0m";

pub fn unified(diff: &FleetDiff, color: bool) -> String {
    let mut out = String::new();
    for (cluster, changes) in &diff.clusters {
        for change in changes {
            for line in change.unified(cluster).lines() {
                let paint = if !color {
                    ""
                } else if line.starts_with("---") || line.starts_with("+++") {
                    BOLD
                } else if line.starts_with('-') {
                    RED
                } else if line.starts_with('+') {
                    GREEN
                } else if line.starts_with("@@") {
                    CYAN
                } else {
                    ""
                };
                let reset = if paint.is_empty() { "" } else { RESET };
                writeln!(out, "{paint}{line}{reset}").unwrap();
            }
        }
    }
    out
}

pub fn stat(diff: &FleetDiff) -> String {
    let mut out = String::new();
    let (mut added, mut changed, mut removed) = (0, 0, 0);
    for (cluster, changes) in &diff.clusters {
        let (a, c, r) = FleetDiff::counts(changes);
        writeln!(out, "{cluster}: {a} added, {c} changed, {r} removed").unwrap();
        for change in changes {
            let sign = match change.kind {
                ChangeKind::Added => '+',
                ChangeKind::Changed => '~',
                ChangeKind::Removed => '-',
            };
            writeln!(out, "  {sign} {}", change.key).unwrap();
        }
        (added, changed, removed) = (added + a, changed + c, removed + r);
    }
    writeln!(
        out,
        "{} clusters changed: {added} added, {changed} changed, {removed} removed",
        diff.clusters.len()
    )
    .unwrap();
    out
}

pub fn json(diff: &FleetDiff) -> String {
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
                        "diff": change.unified(cluster),
                    })
                })
                .collect();
            json!({"cluster": cluster, "added": added, "changed": changed, "removed": removed, "objects": objects})
        })
        .collect();
    let total = |kind: ChangeKind| -> usize {
        diff.clusters
            .values()
            .flatten()
            .filter(|change| change.kind == kind)
            .count()
    };
    let report = json!({
        "changed": !diff.is_empty(),
        "summary": {"added": total(ChangeKind::Added), "changed": total(ChangeKind::Changed), "removed": total(ChangeKind::Removed)},
        "clusters": clusters,
    });
    let mut text = serde_json::to_string_pretty(&report).expect("a JSON value serialises");
    text.push('\n');
    text
}

/// A pull-request comment: heading, summary table, then one collapsed section per cluster
/// with a `diff` block per object. At most `max_bytes`: what does not fit is left out, every
/// fence and section stays closed, and a note says what was cut.
pub fn markdown(diff: &FleetDiff, max_bytes: usize) -> String {
    let mut head = String::from("### fedrender diff\n\n");
    if diff.is_empty() {
        head.push_str("No changes to the rendered fleet.\n");
        return head;
    }
    let objects: usize = diff.clusters.values().map(Vec::len).sum();
    writeln!(
        head,
        "{objects} object{} change{} in {} cluster{}.\n",
        if objects == 1 { "" } else { "s" },
        if objects == 1 { "s" } else { "" },
        diff.clusters.len(),
        if diff.clusters.len() == 1 { "" } else { "s" },
    )
    .unwrap();
    head.push_str("| cluster | added | changed | removed |\n|---|---:|---:|---:|\n");
    for (cluster, changes) in &diff.clusters {
        let (a, c, r) = FleetDiff::counts(changes);
        writeln!(head, "| `{cluster}` | {a} | {c} | {r} |").unwrap();
    }
    head.push('\n');

    // Room for the closing lines and the note about what was cut.
    const RESERVE: usize = 400;
    let budget = max_bytes.saturating_sub(RESERVE);
    let mut out = head;
    let mut omitted = 0usize;
    for (cluster, changes) in &diff.clusters {
        let (a, c, r) = FleetDiff::counts(changes);
        let open = format!(
            "<details>\n<summary><code>{cluster}</code>: {a} added, {c} changed, {r} removed</summary>\n\n"
        );
        let close = "</details>\n\n";
        if out.len() + open.len() + close.len() > budget {
            omitted += changes.len();
            continue;
        }
        out.push_str(&open);
        for change in changes {
            let block = object_block(cluster, change);
            if out.len() + block.len() + close.len() > budget {
                omitted += 1;
                continue;
            }
            out.push_str(&block);
        }
        out.push_str(close);
    }
    if omitted > 0 {
        writeln!(
            out,
            "> **Output cut at {max_bytes} bytes:** {omitted} more changed object{} not shown. Run `fedrender diff` locally for the whole diff.",
            if omitted == 1 { " is" } else { "s are" }
        )
        .unwrap();
    }
    out
}

fn object_block(cluster: &str, change: &ObjectChange) -> String {
    let body: String = change
        .unified(cluster)
        .lines()
        .skip(2)
        .map(|line| format!("{line}\n"))
        .collect();
    // A fence longer than any backtick run inside keeps the block closed whatever it holds.
    let longest = body.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat((longest + 1).max(3));
    format!(
        "**{}** `{}`\n\n{fence}diff\n{body}{fence}\n\n",
        change.kind.word(),
        change.key
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::ObjectChange;
    use crate::object::ObjectKey;

    fn change(name: &str, kind: ChangeKind, before: &str, after: &str) -> ObjectChange {
        ObjectChange {
            key: ObjectKey {
                group: "apps".to_string(),
                kind: "Deployment".to_string(),
                namespace: "shop".to_string(),
                name: name.to_string(),
            },
            kind,
            before: before.to_string(),
            after: after.to_string(),
        }
    }

    fn sample(objects: usize) -> FleetDiff {
        let mut diff = FleetDiff::default();
        let changes = (0..objects)
            .map(|i| {
                change(
                    &format!("web-{i}"),
                    ChangeKind::Changed,
                    "image: a\nreplicas: 1\n",
                    "image: b\nreplicas: 1\n",
                )
            })
            .collect();
        diff.clusters.insert("member1".to_string(), changes);
        diff
    }

    #[test]
    fn markdown_has_a_summary_table_and_a_section_per_cluster() {
        let text = markdown(&sample(2), 65536);
        assert!(text.contains("| `member1` | 0 | 2 | 0 |"), "{text}");
        assert!(
            text.contains(
                "<details>\n<summary><code>member1</code>: 0 added, 2 changed, 0 removed</summary>"
            ),
            "{text}"
        );
        assert!(
            text.contains("```diff\n@@ -1,2 +1,2 @@\n-image: a\n+image: b\n replicas: 1\n```"),
            "{text}"
        );
        assert!(!text.contains("Output cut"));
    }

    #[test]
    fn markdown_is_capped_with_fences_and_sections_closed() {
        let text = markdown(&sample(200), 4000);
        assert!(text.len() <= 4000, "{} bytes", text.len());
        assert_eq!(
            text.matches("```diff").count() * 2,
            text.matches("```").count()
        );
        assert_eq!(
            text.matches("<details>").count(),
            text.matches("</details>").count()
        );
        assert!(text.contains("Output cut at 4000 bytes"), "{text}");
    }

    #[test]
    fn a_backtick_run_inside_a_diff_cannot_close_its_fence() {
        let mut diff = FleetDiff::default();
        diff.clusters.insert(
            "m".to_string(),
            vec![change("w", ChangeKind::Changed, "a: ```\n", "a: ````\n")],
        );
        let text = markdown(&diff, 65536);
        assert!(text.contains("`````diff\n"), "{text}");
    }

    #[test]
    fn stat_and_json_count_every_change() {
        let mut diff = sample(1);
        diff.clusters.insert(
            "member2".to_string(),
            vec![change("api", ChangeKind::Added, "", "x: 1\n")],
        );
        let text = stat(&diff);
        assert!(
            text.contains(
                "member1: 0 added, 1 changed, 0 removed\n  ~ Deployment.apps shop/web-0\n"
            ),
            "{text}"
        );
        assert!(
            text.ends_with("2 clusters changed: 1 added, 1 changed, 0 removed\n"),
            "{text}"
        );
        let value: serde_json::Value = serde_json::from_str(&json(&diff)).unwrap();
        assert_eq!(
            value["summary"],
            json!({"added": 1, "changed": 1, "removed": 0})
        );
        assert_eq!(value["clusters"][1]["objects"][0]["change"], "added");
    }

    #[test]
    fn unified_colours_only_when_asked() {
        let plain = unified(&sample(1), false);
        assert!(!plain.contains('\x1b'));
        assert!(unified(&sample(1), true).contains("\x1b[31m-image: a"));
    }
}
