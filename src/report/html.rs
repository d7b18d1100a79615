//! `fedrender diff --format html`: the whole review as one self-contained page, for a change too
//! big for a pull request comment. The same review as the comment, the objects × clusters
//! matrix, and every hunk, collapsible per object and per group of clusters it reads the same
//! on. The page loads nothing and runs nothing: no external asset, no script, a Content
//! Security Policy that forbids both, and every value from the fleet escaped.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use fedrender_engine::diff::{ChangeGroup, ChangeKind, FleetDiff};
use fedrender_engine::object::ObjectKey;

/// The style, inline: a page opened from an artifact has nothing else to load.
const STYLE: &str = "\
body{font:14px/1.45 system-ui,sans-serif;margin:2em;color:#1f2328;background:#fff}\
h1{font-size:1.6em}h2{font-size:1.25em;margin-top:1.6em;border-bottom:1px solid #d0d7de}\
table{border-collapse:collapse;margin:.6em 0}td,th{border:1px solid #d0d7de;padding:2px 8px}\
th{background:#f6f8fa}td.cell{text-align:center;font-family:monospace}\
td.added{background:#dafbe1}td.changed{background:#fff8c5}td.removed{background:#ffebe9}\
details{margin:.3em 0}details details{margin-left:1.5em}summary{cursor:pointer}\
pre{background:#f6f8fa;padding:.6em;overflow:auto;font:12px/1.4 monospace}\
pre .add{background:#aceebb;display:block}pre .del{background:#ffcecb;display:block}\
pre .hunk{color:#6e7781;display:block}\
.error{color:#cf222e;font-weight:bold}.warning{color:#9a6700;font-weight:bold}.note{color:#57606a}";

/// The page: `title` (the pull request's, say) as its heading.
pub fn html(diff: &FleetDiff, title: Option<&str>) -> String {
    let title = title.unwrap_or("fedrender diff");
    let mut page = String::new();
    writeln!(
        page,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
         style-src 'unsafe-inline'\">\n<title>{}</title>\n<style>{STYLE}</style>\n</head>\n\
         <body>\n<h1>{}</h1>",
        escape(title),
        escape(title)
    )
    .unwrap();
    if diff.is_empty() {
        page.push_str("<p>No changes to the rendered fleet.</p>\n");
    } else {
        let grouped = diff.grouped();
        summary(&mut page, diff);
        review(&mut page, diff);
        matrix(&mut page, diff);
        clusters_and_replicas(&mut page, &grouped);
        changes(&mut page, &grouped.groups);
    }
    page.push_str("</body>\n</html>\n");
    page
}

/// Text from the fleet as HTML text or an attribute's value: nothing in it is markup.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

fn summary(page: &mut String, diff: &FleetDiff) {
    let (mut added, mut changed, mut removed) = (0, 0, 0);
    for change in diff.clusters.values().flatten() {
        match change.kind {
            ChangeKind::Added => added += 1,
            ChangeKind::Changed => changed += 1,
            ChangeKind::Removed => removed += 1,
        }
    }
    let touched = diff
        .clusters
        .values()
        .filter(|changes| !changes.is_empty())
        .count();
    writeln!(
        page,
        "<p>{added} added, {changed} changed, {removed} removed, on {touched} of {} clusters.</p>",
        diff.clusters.len()
    )
    .unwrap();
    // Who it touches, as `stat` says it: a page notifies no one, whoever wrote the groups.
    for line in crate::report::diff::touched_lines(diff) {
        writeln!(page, "<p>{}</p>", escape(&line)).unwrap();
    }
    for hidden in &diff.hidden {
        writeln!(
            page,
            "<p class=\"note\">{} hid {} changes and left its field out of {} more.</p>",
            escape(&hidden.rule),
            hidden.changes,
            hidden.fields
        )
        .unwrap();
    }
}

/// The findings, errors first, each with its object, clusters, what Argo CD and Flux do and the
/// fix: the comment's Review section.
fn review(page: &mut String, diff: &FleetDiff) {
    if diff.findings.is_empty() {
        return;
    }
    page.push_str("<h2>Review</h2>\n<ul>\n");
    let mut findings: Vec<_> = diff.findings.iter().collect();
    findings.sort_by_key(|finding| std::cmp::Reverse(finding.level));
    for finding in findings {
        let level = finding.level.word();
        writeln!(
            page,
            "<li><span class=\"{level}\">{level}</span> <code>{}</code> <code>{}</code> on {}: \
             {}.<br>Argo CD: {}.<br>Flux: {}.<br>Fix: {}.</li>",
            finding.lint,
            escape(&finding.key.to_string()),
            escape(&finding.clusters.join(", ")),
            escape(&finding.message),
            escape(&finding.argo_cd),
            escape(&finding.flux),
            escape(&finding.fix)
        )
        .unwrap();
    }
    page.push_str("</ul>\n");
}

/// Every changed object × every cluster: `+`, `~` or `−` where it changes.
fn matrix(page: &mut String, diff: &FleetDiff) {
    let clusters: Vec<&String> = diff
        .clusters
        .iter()
        .filter(|(_, changes)| !changes.is_empty())
        .map(|(cluster, _)| cluster)
        .collect();
    let mut rows: BTreeMap<&ObjectKey, BTreeMap<&str, ChangeKind>> = BTreeMap::new();
    for (cluster, changes) in &diff.clusters {
        for change in changes {
            rows.entry(&change.key)
                .or_default()
                .insert(cluster.as_str(), change.kind);
        }
    }
    page.push_str("<h2>Objects × clusters</h2>\n<table>\n<tr><th>object</th>");
    for cluster in &clusters {
        let mark = if diff.clusters_added.contains(*cluster) {
            " (new)"
        } else if diff.clusters_removed.contains(*cluster) {
            " (removed)"
        } else {
            ""
        };
        write!(page, "<th>{}{mark}</th>", escape(cluster)).unwrap();
    }
    page.push_str("</tr>\n");
    for (key, on) in &rows {
        write!(
            page,
            "<tr><td><code>{}</code></td>",
            escape(&key.to_string())
        )
        .unwrap();
        for cluster in &clusters {
            match on.get(cluster.as_str()) {
                Some(kind) => {
                    let sign = match kind {
                        ChangeKind::Added => '+',
                        ChangeKind::Changed => '~',
                        ChangeKind::Removed => '−',
                    };
                    write!(page, "<td class=\"cell {}\">{sign}</td>", kind.word()).unwrap();
                }
                None => page.push_str("<td class=\"cell\"></td>"),
            }
        }
        page.push_str("</tr>\n");
    }
    page.push_str("</table>\n");
}

fn clusters_and_replicas(page: &mut String, grouped: &fedrender_engine::diff::GroupedDiff<'_>) {
    let mut items = Vec::new();
    for (cluster, objects) in &grouped.new_clusters {
        items.push(format!(
            "New cluster <code>{}</code>: {} added",
            escape(cluster),
            objects_word(*objects)
        ));
    }
    for (cluster, objects) in &grouped.removed_clusters {
        items.push(format!(
            "Removed cluster <code>{}</code>: {} removed",
            escape(cluster),
            objects_word(*objects)
        ));
    }
    for moved in &grouped.replica_moves {
        let per_cluster: Vec<String> = moved
            .clusters
            .iter()
            .map(|(cluster, before, after)| {
                let shown = |replicas: &Option<i64>| {
                    replicas.map_or("none".to_string(), |replicas| replicas.to_string())
                };
                format!("{} {} → {}", escape(cluster), shown(before), shown(after))
            })
            .collect();
        items.push(format!(
            "Replicas of <code>{}</code>: {} (in all {} → {})",
            escape(&moved.key.to_string()),
            per_cluster.join(", "),
            moved.total.0,
            moved.total.1
        ));
    }
    if items.is_empty() {
        return;
    }
    page.push_str("<h2>Clusters and replicas</h2>\n<ul>\n");
    for item in items {
        writeln!(page, "<li>{item}</li>").unwrap();
    }
    page.push_str("</ul>\n");
}

/// How many changed objects the page shows open.
const OPEN_UP_TO: usize = 10;

/// Every change: one collapsible section per object, in it one per group of clusters the
/// change reads the same on, with its hunks.
fn changes(page: &mut String, groups: &[ChangeGroup<'_>]) {
    let mut by_object: BTreeMap<&ObjectKey, Vec<&ChangeGroup<'_>>> = BTreeMap::new();
    for group in groups {
        by_object.entry(&group.change.key).or_default().push(group);
    }
    page.push_str("<h2>Changes</h2>\n");
    // A few objects read best open; many, as a list to open one by one.
    let open = if by_object.len() <= OPEN_UP_TO {
        " open"
    } else {
        ""
    };
    for (key, groups) in by_object {
        let clusters: BTreeSet<&str> = groups
            .iter()
            .flat_map(|group| group.clusters.clone())
            .collect();
        writeln!(
            page,
            "<details{open}>\n<summary><code>{}</code> on {} cluster{}</summary>",
            escape(&key.to_string()),
            clusters.len(),
            if clusters.len() == 1 { "" } else { "s" }
        )
        .unwrap();
        for group in groups {
            writeln!(
                page,
                "<details open>\n<summary><b>{}</b> on {}</summary>\n<pre>{}</pre>\n</details>",
                group.change.kind.word(),
                escape(&group.clusters.join(", ")),
                hunks(&group.hunks)
            )
            .unwrap();
        }
        page.push_str("</details>\n");
    }
}

fn objects_word(count: usize) -> String {
    if count == 1 {
        "1 object".to_string()
    } else {
        format!("{count} objects")
    }
}

/// A unified diff's lines, each escaped, additions and removals marked for their colour.
fn hunks(diff: &str) -> String {
    let mut out = String::with_capacity(diff.len() * 2);
    for line in diff.lines() {
        let class = if line.starts_with("@@") {
            Some("hunk")
        } else if line.starts_with('+') {
            Some("add")
        } else if line.starts_with('-') {
            Some("del")
        } else {
            None
        };
        match class {
            // A block of its own: its line ends with it.
            Some(class) => write!(out, "<span class=\"{class}\">{}</span>", escape(line)),
            None => writeln!(out, "{}", escape(line)),
        }
        .unwrap();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn everything_from_the_fleet_is_escaped() {
        assert_eq!(
            escape("<script>alert('x')</script> & \"y\""),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;y&quot;"
        );
        let marked = hunks("@@ -1 +1 @@\n-a: <b>\n+a: </pre><script>\n b\n");
        assert_eq!(
            marked,
            "<span class=\"hunk\">@@ -1 +1 @@</span><span class=\"del\">-a: &lt;b&gt;</span>\
             <span class=\"add\">+a: &lt;/pre&gt;&lt;script&gt;</span> b\n"
        );
    }
}
