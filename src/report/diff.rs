//! The four forms of `fedrender diff`: a unified diff (coloured on a terminal), a pull-request
//! comment in Markdown (capped, fences kept closed), JSON for tools, and a stat summary.
//!
//! Kinds, names, file paths and the manifests' text come from the fleet, which a pull request
//! controls: the forms for people show them [`printable`]; the Markdown escapes each for the
//! place it is printed (see [`crate::report::markdown`]).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use crate::report::markdown;
use fedrender_engine::diagnostics::printable;
use fedrender_engine::diff::danger::{Finding, FindingLevel};
use fedrender_engine::diff::describe::{self, Described, FieldChange};
use fedrender_engine::diff::{
    ChangeGroup, ChangeKind, FleetDiff, GroupedDiff, GroupsFrom, ReplicaMove, ReplicasOn,
};
use fedrender_engine::object::ObjectKey;

/// How a name is written in one form of the report.
type Shown = fn(&str) -> String;

/// A name as a terminal or log shows it.
fn plain(text: &str) -> String {
    printable(text).into_owned()
}

/// The unified diff, coloured as `git diff` colours one; the stream that prints it drops the
/// colours where they are not wanted (`--color`, `NO_COLOR`, a file or a pipe).
pub fn unified(diff: &FleetDiff) -> String {
    use anstyle::{AnsiColor, Style};
    let grouped = diff.grouped();
    let mut out = String::new();
    let mut line = |text: &str| {
        let style = if text.starts_with("---") || text.starts_with("+++") || text.starts_with('#') {
            Style::new().bold()
        } else if text.starts_with('-') {
            AnsiColor::Red.on_default()
        } else if text.starts_with('+') {
            AnsiColor::Green.on_default()
        } else if text.starts_with("@@") {
            AnsiColor::Cyan.on_default()
        } else {
            Style::new()
        };
        // Every line whole, so that nothing from the fleet ends it early or holds an escape.
        writeln!(out, "{style}{}{style:#}", printable(text)).unwrap();
    };
    for touched in touched_lines(diff) {
        line(&format!("# {touched}"));
    }
    if let Some(hidden) = hidden_line(diff, plain) {
        line(&format!("# {hidden}"));
    }
    for (cluster, objects) in &grouped.new_clusters {
        line(&format!(
            "# new cluster {}: {} added",
            printable(cluster),
            objects_word(*objects)
        ));
    }
    for (cluster, objects) in &grouped.removed_clusters {
        line(&format!(
            "# removed cluster {}: {} removed",
            printable(cluster),
            objects_word(*objects)
        ));
    }
    for moved in &grouped.replica_moves {
        line(&format!(
            "# replicas of {}: {}",
            printable(&moved.key.to_string()),
            replica_moves(diff, moved, plain)
        ));
    }
    for envelope in crate::report::envelopes::diff_lines(diff) {
        line(&format!("# {envelope}"));
    }
    if let Some(capacity) = &diff.capacity {
        for text in crate::report::capacity::stat_lines(diff.base_capacity.as_ref(), capacity) {
            // `~ capacity …` and `! quota …` as the stat marks them, a comment here.
            let text = text.get(2..).unwrap_or(&text);
            line(&format!("# {text}"));
        }
    }
    for group in &grouped.groups {
        let label = format!(
            "{} on {}",
            printable(&group.change.key.to_string()),
            cluster_list_shown(&group.clusters, plain)
        );
        if !group.replicas.is_empty() {
            line(&format!(
                "# replicas per cluster: {}",
                replicas_per_cluster(group, plain)
            ));
        }
        line(&format!("--- a/{label}"));
        line(&format!("+++ b/{label}"));
        for text in group.hunks.lines() {
            line(text);
        }
    }
    out
}

pub fn stat(diff: &FleetDiff) -> String {
    let grouped = diff.grouped();
    let mut out = String::new();
    for touched in touched_lines(diff) {
        writeln!(out, "# {}", printable(&touched)).unwrap();
    }
    for (cluster, objects) in &grouped.new_clusters {
        writeln!(
            out,
            "+ cluster {} (new): {} added",
            printable(cluster),
            objects_word(*objects)
        )
        .unwrap();
    }
    for (cluster, objects) in &grouped.removed_clusters {
        writeln!(
            out,
            "- cluster {} (removed): {} removed",
            printable(cluster),
            objects_word(*objects)
        )
        .unwrap();
    }
    for moved in &grouped.replica_moves {
        writeln!(
            out,
            "~ {} replicas: {}",
            printable(&moved.key.to_string()),
            replica_moves(diff, moved, plain)
        )
        .unwrap();
    }
    for group in &grouped.groups {
        writeln!(
            out,
            "{} {} on {}",
            sign(group.change.kind),
            printable(&group.change.key.to_string()),
            cluster_list_shown(&group.clusters, plain)
        )
        .unwrap();
    }
    if let Some(capacity) = &diff.capacity {
        for line in crate::report::capacity::stat_lines(diff.base_capacity.as_ref(), capacity) {
            writeln!(out, "{}", printable(&line)).unwrap();
        }
    }
    for envelope in crate::report::envelopes::diff_lines(diff) {
        writeln!(out, "~ {}", printable(&envelope)).unwrap();
    }
    let (added, changed, removed) = totals(diff);
    writeln!(
        out,
        "{} clusters changed: {added} added, {changed} changed, {removed} removed",
        diff.clusters.len()
    )
    .unwrap();
    if let Some(hidden) = hidden_line(diff, plain) {
        writeln!(out, "{hidden}").unwrap();
    }
    out
}

/// The most groups and owners the first lines of a report name; `--format json` has all.
const FIRST_SCREEN_GROUPS: usize = 10;
const FIRST_SCREEN_OWNERS: usize = 30;

/// The unified diff's and the stat's lines on who the change touches: `touches groups:
/// production (3 of 5 clusters), staging (1 of 2)` and `owners: @org/qa, @org/sre`; none
/// when no Config names a review group, or nothing changed.
pub fn touched_lines(diff: &FleetDiff) -> Vec<String> {
    let touched = &diff.touched;
    let Some(from) = &touched.groups_from else {
        return Vec::new();
    };
    if touched.clusters.is_empty() {
        return Vec::new();
    }
    let mut groups: Vec<String> = (touched.groups.iter().enumerate())
        .take(FIRST_SCREEN_GROUPS)
        .map(|(index, group)| {
            let clusters = if index == 0 { " clusters" } else { "" };
            format!(
                "{} ({} of {}{clusters})",
                group.name,
                group.clusters_touched.len(),
                group.clusters
            )
        })
        .collect();
    if touched.groups.len() > FIRST_SCREEN_GROUPS {
        groups.push(format!(
            "and {} more",
            touched.groups.len() - FIRST_SCREEN_GROUPS
        ));
    }
    let mut lines = vec![if groups.is_empty() {
        "touches no review group".to_string()
    } else {
        format!("touches groups: {}", groups.join(", "))
    }];
    if !touched.owners.is_empty() {
        let whose = match from {
            GroupsFrom::Base { .. } => "",
            GroupsFrom::Change { .. } => " (from the change's own Config, not a reviewed base's)",
        };
        let mut owners: Vec<&str> = (touched.owners.iter())
            .take(FIRST_SCREEN_OWNERS)
            .map(String::as_str)
            .collect();
        let more = touched.owners.len().saturating_sub(FIRST_SCREEN_OWNERS);
        let more = format!("and {more} more");
        if touched.owners.len() > FIRST_SCREEN_OWNERS {
            owners.push(&more);
        }
        lines.push(format!("owners: {}{whose}", owners.join(", ")));
    }
    if touched.review_changed {
        lines.push(
            "the change's Config changes spec.review: the base's groups and owners apply until it is merged"
                .to_string(),
        );
    }
    lines
}

/// The comment's first lines: the clusters the change touches, each review group it touches
/// (its clusters touched of all, its objects changed, its CPU and memory requests where they
/// change) and the owners of those groups alone. The base's owners are mentions, so GitHub asks
/// them; the change's own (the base names no group) are code, which asks nobody: a pull request
/// may not ping whom it likes in the bot's name. Empty when nothing changed.
fn touched_markdown(diff: &FleetDiff) -> String {
    const GROUPS: usize = FIRST_SCREEN_GROUPS;
    const OWNERS: usize = FIRST_SCREEN_OWNERS;
    /// The longest list of cluster names it shows; past it, the count alone.
    const NAMES: usize = 300;
    let touched = &diff.touched;
    if touched.clusters.is_empty() {
        return String::new();
    }
    let names: Vec<&str> = touched.clusters.iter().map(String::as_str).collect();
    let listed = cluster_list_shown(&names, markdown::text);
    let listed = if listed.len() <= NAMES {
        listed
    } else {
        format!("{} clusters", names.len())
    };
    let mut out = format!("**Touches** {listed}");
    let Some(from) = &touched.groups_from else {
        out.push_str(
            ".

",
        );
        return out;
    };
    if touched.groups.is_empty() {
        out.push_str(
            ", in no review group.

",
        );
    } else {
        out.push_str(
            ":
",
        );
    }
    for group in touched.groups.iter().take(GROUPS) {
        let objects = group.objects_changed;
        write!(
            out,
            "- **{}**: {} of {} cluster{}, {objects} object{} changed",
            markdown::text(&group.name),
            group.clusters_touched.len(),
            group.clusters,
            if group.clusters == 1 { "" } else { "s" },
            if objects == 1 { "" } else { "s" },
        )
        .unwrap();
        let requests: Vec<String> = (group.requests.iter())
            .filter_map(|(resource, base, head)| {
                let base = (*base)?;
                (base != *head).then(|| {
                    format!(
                        "{} {}",
                        if *resource == "cpu" { "CPU" } else { resource },
                        crate::report::capacity::change(resource, Some(base), *head)
                    )
                })
            })
            .collect();
        if !requests.is_empty() {
            write!(out, "; requests {}", requests.join(", ")).unwrap();
        }
        out.push('\n');
    }
    if touched.groups.len() > GROUPS {
        writeln!(
            out,
            "- and {} more groups (`--format json` lists each)",
            touched.groups.len() - GROUPS
        )
        .unwrap();
    }
    if !touched.groups.is_empty() {
        out.push('\n');
    }
    let shown_owners = touched.owners.iter().take(OWNERS);
    let (mut owners, whose) = match from {
        GroupsFrom::Base { .. } => (
            // Mentions, each checked to be `@user` or `@org/team` when the Config was read.
            shown_owners.cloned().collect::<Vec<_>>().join(", "),
            String::new(),
        ),
        GroupsFrom::Change { at } => (
            shown_owners
                .map(|owner| markdown::code(owner))
                .collect::<Vec<_>>()
                .join(", "),
            format!(
                "Groups and owners from the change's own Config ({}), not a reviewed base's: \
                 no one is mentioned.\n\n",
                markdown::code(at)
            ),
        ),
    };
    if touched.owners.len() > OWNERS {
        write!(
            owners,
            " and {} more (`--format json` lists each)",
            touched.owners.len() - OWNERS
        )
        .unwrap();
    }
    if !touched.owners.is_empty() {
        writeln!(out, "**Owners:** {owners}\n").unwrap();
    }
    out.push_str(&whose);
    if touched.review_changed {
        out.push_str(
            "The change's Config changes `spec.review`: the base's groups and owners apply \
             until it is merged.\n\n",
        );
    }
    out
}

/// `5 changes hidden: 3 by --ignore-field apps/Deployment=/spec/replicas, 2 by …`, then the
/// changes still shown whose ignored fields were left out (`ignored fields left out of 4
/// changes shown: 4 by …`), each rule written by `shown`; `None` when nothing was hidden.
fn hidden_line(diff: &FleetDiff, shown: Shown) -> Option<String> {
    if diff.hidden.is_empty() {
        return None;
    }
    let part = |count: fn(&fedrender_engine::diff::Hidden) -> usize| {
        let total: usize = diff.hidden.iter().map(count).sum();
        let rules: Vec<String> = (diff.hidden.iter())
            .filter(|hidden| count(hidden) > 0)
            .map(|hidden| format!("{} by {}", count(hidden), shown(&hidden.rule)))
            .collect();
        (total, rules.join(", "))
    };
    let mut parts = Vec::new();
    let (whole, by) = part(|hidden| hidden.changes);
    if whole > 0 {
        parts.push(format!("{} hidden: {by}", changes(whole)));
    }
    let (narrowed, by) = part(|hidden| hidden.fields);
    if narrowed > 0 {
        parts.push(format!(
            "ignored fields left out of {} shown: {by}",
            changes(narrowed)
        ));
    }
    Some(parts.join("; "))
}

fn changes(count: usize) -> String {
    if count == 1 {
        "1 change".to_string()
    } else {
        format!("{count} changes")
    }
}

/// A pull-request comment: a heading, a one-line summary, a table per kind, the clusters that
/// come and go, replica moves, then each change once with the clusters it happens on, largest
/// blast radius first, its template and policies, and its diff. At most `max_bytes`: the
/// diffs are dropped before the changes are, every fence and section stays closed, and a note
/// says what was left out.
pub fn markdown(diff: &FleetDiff, max_bytes: usize, title: Option<&str>) -> String {
    // A workflow may well pass the pull request's title: it is escaped like a name.
    let mut head = format!(
        "### {}\n\n",
        markdown::text(title.unwrap_or("fedrender diff"))
    );
    let capacity = diff.capacity.as_ref().map_or(String::new(), |capacity| {
        crate::report::capacity::diff_markdown(diff.base_capacity.as_ref(), capacity)
    }) + &crate::report::envelopes::diff_markdown(diff);
    if diff.is_empty() {
        head.push_str("No changes to the rendered fleet.\n");
        if let Some(hidden) = hidden_line(diff, markdown::code) {
            writeln!(head, "\n{hidden}").unwrap();
        }
        if !capacity.is_empty() {
            head.push('\n');
            head.push_str(&capacity);
        }
        return head;
    }
    let grouped = diff.grouped();
    let entries = entries(diff, &grouped);
    head.push_str(&touched_markdown(diff));
    writeln!(
        head,
        "{}\n",
        one_line_summary(diff, &grouped, entries.len())
    )
    .unwrap();
    if let Some(hidden) = hidden_line(diff, markdown::code) {
        writeln!(head, "{hidden}\n").unwrap();
    }
    head.push_str(&review(diff));
    head.push_str(&capacity);
    head.push_str("| kind | added | changed | removed |\n|---|---:|---:|---:|\n");
    let mut per_kind: BTreeMap<String, (usize, usize, usize)> = BTreeMap::new();
    for change in diff.clusters.values().flatten() {
        let kind = if change.key.group.is_empty() {
            change.key.kind.clone()
        } else {
            format!("{}.{}", change.key.kind, change.key.group)
        };
        let counts = per_kind.entry(kind).or_default();
        match change.kind {
            ChangeKind::Added => counts.0 += 1,
            ChangeKind::Changed => counts.1 += 1,
            ChangeKind::Removed => counts.2 += 1,
        }
    }
    for (kind, (a, c, r)) in &per_kind {
        writeln!(head, "| {} | {a} | {c} | {r} |", markdown::cell(kind)).unwrap();
    }
    head.push('\n');
    head.push_str(&changed_placement(diff));
    for (cluster, objects) in &grouped.new_clusters {
        writeln!(
            head,
            "- **New cluster** {}: {} added",
            markdown::code(cluster),
            objects_word(*objects)
        )
        .unwrap();
    }
    for (cluster, objects) in &grouped.removed_clusters {
        writeln!(
            head,
            "- **Removed cluster** {}: {} removed",
            markdown::code(cluster),
            objects_word(*objects)
        )
        .unwrap();
    }
    for moved in &grouped.replica_moves {
        writeln!(
            head,
            "- **Replicas moved** {}: {}",
            markdown::code(&moved.key.to_string()),
            replica_moves(diff, moved, markdown::text)
        )
        .unwrap();
    }
    if !(grouped.new_clusters.is_empty()
        && grouped.removed_clusters.is_empty()
        && grouped.replica_moves.is_empty())
    {
        head.push('\n');
    }

    // Room for the note about what was left out.
    const RESERVE: usize = 300;
    let budget = max_bytes.saturating_sub(RESERVE);
    let mut out = head;
    let (mut without_diff, mut left_out) = (0usize, 0usize);
    // Every change gets its line before any gets its diff: what is left after all the lines
    // goes to diffs, largest blast radius first.
    let lines: Vec<&String> = entries.iter().map(|entry| &entry.line).collect();
    let all_lines: usize = lines.iter().map(|line| line.len()).sum();
    let mut room_for_diffs = budget.saturating_sub(out.len() + all_lines);
    let lines_fit = out.len() + all_lines <= budget;
    for (entry, line) in entries.iter().zip(lines) {
        if lines_fit {
            let block = entry.block.clone();
            // A blank line ends a run of list items before the block.
            let block = if out.ends_with("</details>\n\n") || out.ends_with("\n\n") {
                block
            } else {
                format!("\n{block}")
            };
            let extra = block.len().saturating_sub(line.len());
            if extra <= room_for_diffs {
                room_for_diffs -= extra;
                out.push_str(&block);
                continue;
            }
        }
        if out.len() + line.len() <= budget {
            out.push_str(line);
            without_diff += 1;
        } else {
            left_out += 1;
        }
    }
    if without_diff + left_out > 0 {
        let mut parts = Vec::new();
        if without_diff > 0 {
            parts.push(format!(
                "the diff of {without_diff} change{} (listed above without it)",
                if without_diff == 1 { "" } else { "s" }
            ));
        }
        if left_out > 0 {
            parts.push(format!(
                "{left_out} more change{} entirely",
                if left_out == 1 { "" } else { "s" }
            ));
        }
        writeln!(
            out,
            "\n> **Left out to stay within {max_bytes} bytes:** {}. Run `fedrender diff` locally for the whole diff.",
            parts.join(" and ")
        )
        .unwrap();
    }
    out
}

/// The "Review" section: what the change breaks or loses, errors (denied lints) first, then
/// warnings, then notes, each with its object, clusters, what Argo CD and Flux do, and the fix.
/// Empty without findings.
fn review(diff: &FleetDiff) -> String {
    if diff.findings.is_empty() {
        return String::new();
    }
    let mut findings: Vec<&Finding> = diff.findings.iter().collect();
    findings.sort_by_key(|finding| std::cmp::Reverse(finding.level));
    let mut out = String::from("#### Review\n\n");
    for finding in findings {
        let clusters: Vec<&str> = finding.clusters.iter().map(String::as_str).collect();
        let level = match finding.level {
            FindingLevel::Denied => "**error**".to_string(),
            FindingLevel::Warning => "**warning**".to_string(),
            FindingLevel::Note => match &finding.escaped_by {
                Some(by) => format!("note (lowered by {})", markdown::code(by)),
                None => "note".to_string(),
            },
        };
        writeln!(
            out,
            "- {level} `{}` {} on {}: {}.  \n  Argo CD: {}.  \n  Flux: {}.  \n  Fix: {}.",
            finding.lint,
            markdown::code(&finding.key.to_string()),
            cluster_list_shown(&clusters, markdown::text),
            prose(&finding.message),
            prose(&finding.argo_cd),
            prose(&finding.flux),
            prose(&finding.fix),
        )
        .unwrap();
    }
    out.push('\n');
    out
}

/// A finding's prose in running Markdown text: as it is when nothing in it is markup (the
/// finding's own words and Kubernetes names), else as HTML text, entities for anything Markdown
/// would read as markup, since it holds names from the fleet.
fn prose(text: &str) -> String {
    let lower = text.to_ascii_lowercase();
    let plain = text.chars().all(|c| {
        c.is_alphanumeric()
            || matches!(
                c,
                ' ' | '.'
                    | '-'
                    | '/'
                    | ':'
                    | ','
                    | '('
                    | ')'
                    | '='
                    | '\''
                    | '"'
                    | ';'
                    | '→'
                    | '…'
                    | '{'
                    | '}'
                    | '+'
            )
    }) && !lower.contains("www.")
        && !lower.contains("://");
    if plain {
        text.to_string()
    } else {
        markdown::html(text)
    }
}

/// `<b>changed</b> <code>Deployment.apps shop/web</code> on prod-eu-1 … prod-eu-9 (9 clusters)`:
/// HTML, both in `<summary>` and as a list item's text. An image bump is named in it, `: image
/// <code>web:1.0</code> → <code>web:1.1</code>`, since the summary is what shows of a collapsed
/// change and the image is what a reviewer of one looks for first.
fn group_summary(group: &ChangeGroup<'_>) -> String {
    let images = image_changes(&group.hunks);
    let bump = match images.as_slice() {
        [] => String::new(),
        [(old, new), rest @ ..] => format!(
            ": image <code>{}</code> → <code>{}</code>{}",
            markdown::html(old),
            markdown::html(new),
            match rest.len() {
                0 => String::new(),
                more => format!(" and {more} more"),
            }
        ),
    };
    format!(
        "<b>{}</b> <code>{}</code> on {}{bump}",
        group.change.kind.word(),
        markdown::html(&group.change.key.to_string()),
        cluster_list_shown(&group.clusters, markdown::html)
    )
}

/// The images a change's hunks replace, old and new, paired in order: the `image:` lines it
/// removes and adds, when as many are added as removed (a container added or removed is no
/// bump).
fn image_changes(hunks: &str) -> Vec<(&str, &str)> {
    fn image(line: &str, sign: char) -> Option<&str> {
        let rest = line.strip_prefix(sign)?.trim_start();
        rest.strip_prefix("image: ")
            .or_else(|| rest.strip_prefix("- image: "))
    }
    let old: Vec<&str> = hunks.lines().filter_map(|line| image(line, '-')).collect();
    let new: Vec<&str> = hunks.lines().filter_map(|line| image(line, '+')).collect();
    if old.len() != new.len() {
        return Vec::new();
    }
    old.into_iter()
        .zip(new)
        .filter(|(old, new)| old != new)
        .collect()
}

/// One change of the comment: its line (always shown) and its block with the diff (shown while
/// there is room), with how many clusters it reaches, to put the widest first.
struct Entry {
    line: String,
    block: String,
    clusters: usize,
}

/// The comment's changes: an object whose change reads the same on its clusters (but for the
/// replicas) as one group, and one whose change differs from cluster to cluster described once
/// by what changed (see [`describe`]) with one cluster's diff.
fn entries(diff: &FleetDiff, grouped: &GroupedDiff<'_>) -> Vec<Entry> {
    // Per object, its groups and whether one is a change (not only added or removed: an
    // object that moves reads best as its two bodies).
    let mut groups_of: BTreeMap<&ObjectKey, (usize, bool)> = BTreeMap::new();
    for group in &grouped.groups {
        let (groups, changed) = groups_of.entry(&group.change.key).or_default();
        *groups += 1;
        *changed |= group.change.kind == ChangeKind::Changed;
    }
    let several: BTreeSet<&ObjectKey> = groups_of
        .into_iter()
        .filter_map(|(key, (groups, changed))| (groups > 1 && changed).then_some(key))
        .collect();
    let mut entries: Vec<Entry> = describe::describe(diff, &several)
        .iter()
        .map(|described| described_entry(diff, described))
        .collect();
    for group in &grouped.groups {
        if several.contains(&group.change.key) {
            continue;
        }
        let replicas = if group.replicas.is_empty() {
            String::new()
        } else {
            format!(
                "Replicas per cluster: {}.\n\n",
                replicas_per_cluster(group, markdown::text)
            )
        };
        entries.push(Entry {
            line: format!("- {}\n", group_summary(group)),
            block: format!(
                "<details>\n<summary>{}</summary>\n\n{}{replicas}{}\n</details>\n\n",
                group_summary(group),
                source_line(diff, &group.change.key, &group.clusters),
                markdown::fenced(&group.hunks, "diff")
            ),
            clusters: group.clusters.len(),
        });
    }
    // Largest blast radius first; a stable sort keeps object order among equals.
    entries.sort_by_key(|entry| std::cmp::Reverse(entry.clusters));
    entries
}

/// A value from the fleet in a line of the comment, cut to a readable length.
fn value_shown(value: Option<&str>) -> String {
    const LONGEST: usize = 60;
    match value {
        None => "(absent)".to_string(),
        Some(value) if value.chars().count() > LONGEST => {
            let cut: String = value.chars().take(LONGEST).collect();
            format!("<code>{}…</code>", markdown::html(&cut))
        }
        Some(value) => format!("<code>{}</code>", markdown::html(value)),
    }
}

/// `prod-eu-1 … prod-eu-3 (3 clusters)` in a line of HTML.
fn clusters_html(clusters: &[&str]) -> String {
    cluster_list_shown(clusters, markdown::html)
}

/// An object described by what changed: a line per field, the replica totals, and the clusters
/// it newly reaches as one it was on but for what differs; then one cluster's diff.
fn described_entry(diff: &FleetDiff, described: &Described<'_>) -> Entry {
    let mut line = format!(
        "- <code>{}</code>:",
        markdown::html(&described.key.to_string())
    );
    let mut parts = Vec::new();
    for (kind, clusters) in [
        (ChangeKind::Changed, &described.changed_on),
        (ChangeKind::Added, &described.added_on),
        (ChangeKind::Removed, &described.removed_on),
    ] {
        if !clusters.is_empty() {
            parts.push(format!("<b>{}</b> on {}", kind.word(), clusters.len()));
        }
    }
    let all = described.changed_on.len() + described.added_on.len() + described.removed_on.len();
    writeln!(line, " {} of {all} clusters", parts.join(", ")).unwrap();
    for field in &described.fields {
        match field {
            FieldChange::Image {
                before,
                after,
                clusters,
                registries,
                ..
            } => {
                let (old_repository, old_tag) = before.rsplit_once(':').unwrap_or((before, ""));
                let (new_repository, new_tag) = after.rsplit_once(':').unwrap_or((after, ""));
                let change = if old_repository == new_repository {
                    let name = new_repository.rsplit('/').next().unwrap_or(new_repository);
                    format!(
                        "image <code>{}</code> {} → {}",
                        markdown::html(name),
                        markdown::html(old_tag),
                        markdown::html(new_tag)
                    )
                } else {
                    format!(
                        "image {} → {}",
                        value_shown(Some(before)),
                        value_shown(Some(after))
                    )
                };
                write!(line, "  - {change} on {clusters} clusters").unwrap();
                if !registries.is_empty() {
                    let each: Vec<String> = registries
                        .iter()
                        .map(|(registry, on)| {
                            format!("{} on {}", value_shown(Some(registry)), clusters_html(on))
                        })
                        .collect();
                    write!(line, " (registry by cluster: {})", each.join("; ")).unwrap();
                }
                line.push('\n');
            }
            FieldChange::Values { path, changes } => {
                for (before, after, on) in changes {
                    writeln!(
                        line,
                        "  - <code>{}</code> {} → {} on {}",
                        markdown::html(path),
                        value_shown(before.as_deref()),
                        value_shown(after.as_deref()),
                        clusters_html(on)
                    )
                    .unwrap();
                }
            }
        }
    }
    if let Some(replicas) = &described.replicas {
        let (before, after) = replicas.total;
        let (old, new) = replicas.clusters;
        let each: Vec<String> = replicas
            .after
            .iter()
            .map(|(count, on)| format!("{count} on {}", clusters_html(on)))
            .collect();
        writeln!(
            line,
            "  - replicas {before} → {after} over {old} → {new} clusters (now {})",
            each.join("; ")
        )
        .unwrap();
    }
    if let Some(like) = &described.added_like {
        let except: Vec<String> = like
            .except
            .iter()
            .map(|(path, values)| match &values[..] {
                [(value, _)] if value.is_empty() => format!("the {path}"),
                _ => {
                    let each: Vec<String> = values
                        .iter()
                        .map(|(value, on)| {
                            format!("{} on {}", value_shown(Some(value)), clusters_html(on))
                        })
                        .collect();
                    format!(
                        "<code>{}</code> ({})",
                        markdown::html(path),
                        each.join("; ")
                    )
                }
            })
            .collect();
        write!(
            line,
            "  - <b>added</b> on {}, as on {}",
            clusters_html(&described.added_on),
            markdown::html(like.like)
        )
        .unwrap();
        if !except.is_empty() {
            write!(line, " except {}", except.join(", ")).unwrap();
        }
        line.push('\n');
    }
    if !described.removed_on.is_empty() {
        writeln!(
            line,
            "  - <b>removed</b> from {}",
            clusters_html(&described.removed_on)
        )
        .unwrap();
    }
    let clusters: Vec<&str> = described
        .changed_on
        .iter()
        .chain(&described.added_on)
        .chain(&described.removed_on)
        .copied()
        .collect();
    let block = format!(
        "{line}\n<details>\n<summary>The diff on {}, one of {all} clusters (each cluster's: <code>fedrender diff --format unified</code> or <code>--format json</code>)</summary>\n\n{}{}\n</details>\n\n",
        markdown::html(described.sample_cluster),
        source_line(diff, &described.sample.key, &clusters),
        markdown::fenced(&described.sample.hunks(), "diff")
    );
    Entry {
        line,
        block,
        clusters: all,
    }
}

fn source_line(diff: &FleetDiff, key: &ObjectKey, clusters: &[&str]) -> String {
    let Some(provenance) = diff.provenance.get(key) else {
        return String::new();
    };
    let listed = |names: &[&str]| -> String {
        names
            .iter()
            .map(|name| markdown::text(name))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut line = format!("From {}", markdown::code(&provenance.origin));
    if !provenance.placed_by.is_empty() {
        let placed_by: Vec<&str> = provenance.placed_by.iter().map(String::as_str).collect();
        write!(line, ", placed by {}", listed(&placed_by)).unwrap();
    }
    // Only the policies that override the object on the clusters of this change.
    let overridden = provenance.overridden_on(clusters);
    if !overridden.is_empty() {
        write!(line, ", overridden by {}", listed(&overridden)).unwrap();
    }
    line.push('.');
    if provenance.may_divide_otherwise_live {
        line.push_str(
            " A tie divides its replicas, which fedrender breaks by cluster name as Karmada does \
             for a template without a UID; a live Karmada's template has one, which may break \
             it the other way.",
        );
    }
    line.push_str("\n\n");
    line
}

/// `1 change on 50 clusters` or `3 changes on 12 clusters, 1 new cluster`, in bold.
/// The most objects and clusters the placement matrix of a pull-request comment shows; a wider
/// change is read in its list of changes, and `fedrender plan --format markdown` draws it whole.
const MATRIX_ROWS: usize = 20;
const MATRIX_CLUSTERS: usize = 16;

/// The changed objects × the clusters they change on, for the pull-request comment: per cell
/// `+3` (added, with its replicas; `+0` at 0), `-2` (removed), `2→3` (replicas changed), `~` (changed
/// otherwise), blank where nothing changes; and the replica totals over every cluster. Whole
/// clusters that come or go are called out on their own and left out here.
fn changed_placement(diff: &FleetDiff) -> String {
    let mut rows: BTreeMap<&ObjectKey, BTreeMap<&str, String>> = BTreeMap::new();
    for (cluster, changes) in &diff.clusters {
        if diff.clusters_added.contains(cluster) || diff.clusters_removed.contains(cluster) {
            continue;
        }
        for change in changes {
            let replicas = change.replicas();
            let cell = match (change.kind, replicas) {
                // `+0`: a workload kept at 0 replicas (empty-workload propagation) is told
                // apart from an object without replicas.
                (ChangeKind::Added, (_, Some(after))) => format!("+{after}"),
                (ChangeKind::Added, _) => "+".to_string(),
                (ChangeKind::Removed, (Some(before), _)) if before > 0 => format!("-{before}"),
                (ChangeKind::Removed, _) => "-".to_string(),
                (ChangeKind::Changed, (Some(before), Some(after))) if before != after => {
                    format!("{before}→{after}")
                }
                (ChangeKind::Changed, _) => "~".to_string(),
            };
            rows.entry(&change.key).or_default().insert(cluster, cell);
        }
    }
    let clusters: BTreeSet<&str> = rows
        .values()
        .flat_map(|cells| cells.keys().copied())
        .collect();
    if rows.is_empty() || clusters.len() > MATRIX_CLUSTERS {
        return String::new();
    }
    let shown: Vec<_> = rows.iter().take(MATRIX_ROWS).collect();
    // The replicas over every cluster, before and after, for the objects whose replicas changed.
    let totals: Vec<Option<String>> = shown
        .iter()
        .map(|(key, _)| {
            diff.replica_totals
                .get(**key)
                .map(|(before, after)| format!("{before}→{after}"))
        })
        .collect();
    let with_totals = totals.iter().any(Option::is_some);
    let mut out = String::from("| object |");
    for cluster in &clusters {
        write!(out, " {} |", markdown::cell(cluster)).unwrap();
    }
    out.push_str(if with_totals {
        " replicas |\n|---|"
    } else {
        "\n|---|"
    });
    out.push_str(&"---:|".repeat(clusters.len() + usize::from(with_totals)));
    out.push('\n');
    for ((key, cells), total) in shown.iter().zip(&totals) {
        write!(out, "| {} |", markdown::cell(&key.to_string())).unwrap();
        for cluster in &clusters {
            write!(out, " {} |", cells.get(cluster).map_or("", String::as_str)).unwrap();
        }
        if with_totals {
            write!(out, " {} |", total.as_deref().unwrap_or("")).unwrap();
        }
        out.push('\n');
    }
    if rows.len() > MATRIX_ROWS {
        writeln!(
            out,
            "\n… and {} more objects, listed below.",
            rows.len() - MATRIX_ROWS
        )
        .unwrap();
    }
    out.push_str(
        "\n`+3` added with 3 replicas, `-2` removed, `2→3` replicas changed, `~` changed \
         otherwise; blank: unchanged there.\n\n",
    );
    out
}

/// `entries`: the changes listed, an object described by field counting once.
fn one_line_summary(diff: &FleetDiff, grouped: &GroupedDiff<'_>, entries: usize) -> String {
    let changes = entries + grouped.replica_moves.len();
    let mut clusters: BTreeSet<&str> = BTreeSet::new();
    for group in &grouped.groups {
        clusters.extend(group.clusters.iter().copied());
    }
    for moved in &grouped.replica_moves {
        clusters.extend(moved.clusters.iter().map(|(cluster, _, _)| *cluster));
    }
    let mut parts = Vec::new();
    if changes > 0 {
        parts.push(format!(
            "**{changes} change{}** on **{} cluster{}**",
            if changes == 1 { "" } else { "s" },
            clusters.len(),
            if clusters.len() == 1 { "" } else { "s" }
        ));
    }
    for (count, what) in [
        (diff.clusters_added.len(), "new cluster"),
        (diff.clusters_removed.len(), "removed cluster"),
    ] {
        if count > 0 {
            parts.push(format!(
                "**{count} {what}{}**",
                if count == 1 { "" } else { "s" }
            ));
        }
    }
    let (added, changed, removed) = totals(diff);
    let files = if added == 1 { "file" } else { "files" };
    format!(
        "{} ({added} object {files} added, {changed} changed, {removed} removed).",
        parts.join(", ")
    )
}

pub(super) fn totals(diff: &FleetDiff) -> (usize, usize, usize) {
    diff.clusters
        .values()
        .map(|changes| FleetDiff::counts(changes))
        .fold((0, 0, 0), |(a, c, r), (da, dc, dr)| {
            (a + da, c + dc, r + dr)
        })
}

fn sign(kind: ChangeKind) -> char {
    match kind {
        ChangeKind::Added => '+',
        ChangeKind::Changed => '~',
        ChangeKind::Removed => '-',
    }
}

fn objects_word(count: usize) -> String {
    format!("{count} object{}", if count == 1 { "" } else { "s" })
}

/// `eu-1 2 → 3, eu-2 4 → 5` for a change whose clusters differ in their replicas; a cluster
/// whose replicas did not change shows one number.
/// Ends with the sum over these clusters (`(61 on these 3 clusters)`): a Divided workload's
/// total is always shown, not only when its replicas change.
fn replicas_per_cluster(group: &ChangeGroup<'_>, shown: Shown) -> String {
    let show = |replicas: Option<i64>| replicas.map_or("unset".to_string(), |n| n.to_string());
    let each = group
        .replicas
        .iter()
        .map(|(cluster, before, after)| {
            let cluster = shown(cluster);
            if before == after {
                format!("{cluster} {}", show(*after))
            } else {
                format!("{cluster} {} → {}", show(*before), show(*after))
            }
        })
        .collect::<Vec<_>>()
        .join(", ");
    let sum = |pick: fn(&ReplicasOn<'_>) -> Option<i64>| -> i64 {
        group.replicas.iter().filter_map(pick).sum()
    };
    let (before, after) = (sum(|on| on.1), sum(|on| on.2));
    let total = if before == after {
        after.to_string()
    } else {
        format!("{before} → {after}")
    };
    format!(
        "{each} ({total} on these {} clusters)",
        group.replicas.len()
    )
}

/// `prod-eu-1 3 → 4, prod-us-1 3 → 2 (6 in all, before and after)`.
/// When the head's division came down to a tie that a live Karmada may break the other way,
/// it says so.
fn replica_moves(diff: &FleetDiff, moved: &ReplicaMove<'_>, shown: Shown) -> String {
    let show = |replicas: Option<i64>| replicas.map_or("unset".to_string(), |n| n.to_string());
    let mut each: Vec<String> = moved
        .clusters
        .iter()
        .map(|(cluster, before, after)| {
            format!("{} {} → {}", shown(cluster), show(*before), show(*after))
        })
        .collect();
    // A cluster that joins is one line of its own, not a replica move, but the total counts
    // the replicas it gets: name them, so that the numbers shown add up to the total.
    for cluster in &diff.clusters_added {
        let added = diff.clusters.get(cluster).and_then(|changes| {
            changes
                .iter()
                .find(|change| change.key == *moved.key && change.kind == ChangeKind::Added)
        });
        if let Some(replicas) = added.and_then(|change| spec_replicas(&change.after)) {
            each.push(format!("{} (new) → {replicas}", shown(cluster)));
        }
    }
    let (before, after) = moved.total;
    let total = if before == after {
        format!("{before} in all, before and after")
    } else {
        format!("{before} → {after} in all")
    };
    let tie = if diff
        .provenance
        .get(moved.key)
        .is_some_and(|provenance| provenance.may_divide_otherwise_live)
    {
        "; a tie decided the division, which a live Karmada may break the other way"
    } else {
        ""
    };
    format!("{} ({total}){tie}", each.join(", "))
}

/// A rendered manifest's `spec.replicas`, as the writer writes it (`spec:` at the top, then
/// `  replicas: N`).
fn spec_replicas(manifest: &str) -> Option<i64> {
    let mut in_spec = false;
    for line in manifest.lines() {
        if !line.starts_with(' ') {
            in_spec = line == "spec:";
        } else if in_spec && let Some(replicas) = line.strip_prefix("  replicas: ") {
            return replicas.trim().parse().ok();
        }
    }
    None
}

/// The clusters of a change, short: runs of three or more numbered clusters become
/// `prod-eu-1 … prod-eu-9`, and more than one cluster ends with the count.
pub fn cluster_list(clusters: &[&str]) -> String {
    cluster_list_shown(clusters, |name| name.to_string())
}

/// [`cluster_list`] with each name written by `shown`.
fn cluster_list_shown(clusters: &[&str], shown: Shown) -> String {
    let mut numbered: BTreeMap<&str, Vec<(u64, &str)>> = BTreeMap::new();
    let mut parts: Vec<(String, String)> = Vec::new();
    for &cluster in clusters {
        let stem = cluster.trim_end_matches(|c: char| c.is_ascii_digit());
        let digits = &cluster[stem.len()..];
        // `01` and `1` are different names; only plainly written numbers make runs.
        match digits.parse::<u64>() {
            Ok(number) if !digits.starts_with('0') || digits == "0" => {
                numbered.entry(stem).or_default().push((number, cluster));
            }
            _ => parts.push((cluster.to_string(), shown(cluster))),
        }
    }
    for members in numbered.values_mut() {
        members.sort_unstable();
        let mut start = 0;
        while start < members.len() {
            let mut end = start;
            while end + 1 < members.len() && members[end + 1].0 == members[end].0 + 1 {
                end += 1;
            }
            if end - start >= 2 {
                parts.push((
                    members[start].1.to_string(),
                    format!("{} … {}", shown(members[start].1), shown(members[end].1)),
                ));
            } else {
                for member in &members[start..=end] {
                    parts.push((member.1.to_string(), shown(member.1)));
                }
            }
            start = end + 1;
        }
    }
    parts.sort();
    let listed: Vec<String> = parts.into_iter().map(|(_, text)| text).collect();
    if clusters.len() == 1 {
        listed.join(", ")
    } else {
        format!("{} ({} clusters)", listed.join(", "), clusters.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_replicas_are_read_from_a_rendered_manifest() {
        let manifest = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  labels:\n    \
                        replicas: x\nspec:\n  selector: {}\n  replicas: 7\n  template:\n";
        assert_eq!(spec_replicas(manifest), Some(7));
        assert_eq!(
            spec_replicas("kind: ConfigMap\ndata:\n  replicas: 3\n"),
            None
        );
    }

    #[test]
    fn an_image_bump_is_read_from_the_hunks_and_a_container_added_is_none() {
        let bump = "@@ -3 +3 @@\n       - name: web\n-        image: web:1.0\n+        image: web:1.1\n\
                    -      - image: side:1\n+      - image: side:2\n";
        assert_eq!(
            image_changes(bump),
            [("web:1.0", "web:1.1"), ("side:1", "side:2")]
        );
        let added = "@@ -3 +3,3 @@\n+      - name: side\n+        image: side:1\n";
        assert!(image_changes(added).is_empty());
        let same = "-        image: web:1.0\n+        image: web:1.0\n";
        assert!(image_changes(same).is_empty());
    }
    /// A touched fleet of `groups` groups, each of one cluster and `owners` owners.
    fn touched(from: GroupsFrom, groups: usize, owners: usize) -> fedrender_engine::diff::Touched {
        let groups: Vec<fedrender_engine::diff::TouchedGroup> = (0..groups)
            .map(|index| fedrender_engine::diff::TouchedGroup {
                name: format!("g{index}"),
                clusters: 2,
                clusters_touched: vec![format!("c{index}")],
                objects_changed: 1,
                owners: (0..owners).map(|owner| format!("@org/t{owner}")).collect(),
                requests: Vec::new(),
            })
            .collect();
        fedrender_engine::diff::Touched {
            clusters: (0..groups.len()).map(|index| format!("c{index}")).collect(),
            owners: (0..owners).map(|owner| format!("@org/t{owner}")).collect(),
            groups,
            groups_from: Some(from),
            review_changed: false,
        }
    }

    /// The first screen stays short however many groups and owners a Config names; the
    /// change's own owners are code spans, which GitHub never reads as mentions.
    #[test]
    fn the_touched_lines_are_capped_and_the_change_s_owners_ping_no_one() {
        let mut base = FleetDiff::default();
        base.touched = touched(
            GroupsFrom::Base {
                at: "fleet/fedrender.yaml:5".into(),
            },
            40,
            100,
        );
        let screen = touched_markdown(&base);
        assert_eq!(screen.matches("\n- **g").count(), 10, "{screen}");
        assert!(
            screen.contains("- and 30 more groups (`--format json` lists each)"),
            "{screen}"
        );
        assert!(
            screen.contains("@org/t29 and 70 more (`--format json` lists each)"),
            "{screen}"
        );
        assert!(screen.len() < 2500, "{}", screen.len());
        let lines = touched_lines(&base);
        assert!(lines[0].ends_with("g9 (1 of 2), and 30 more"), "{lines:?}");
        assert!(lines[1].ends_with("@org/t29, and 70 more"), "{lines:?}");
        let mut own = FleetDiff::default();
        own.touched = touched(
            GroupsFrom::Change {
                at: "fleet/fedrender.yaml:5".into(),
            },
            1,
            2,
        );
        let screen = touched_markdown(&own);
        assert!(
            screen.contains("**Owners:** `@org/t0`, `@org/t1`\n"),
            "{screen}"
        );
        let outside_code: String = screen.split('`').step_by(2).collect();
        assert!(!outside_code.contains('@'), "{screen}");
        assert_eq!(
            touched_lines(&own),
            [
                "touches groups: g0 (1 of 2 clusters)",
                "owners: @org/t0, @org/t1 (from the change's own Config, not a reviewed base's)"
            ]
        );
    }

    use crate::report::diff_json::json as json_report;
    use fedrender_engine::diff::ObjectChange;
    use fedrender_engine::object::ObjectKey;
    use serde_json::json;

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

    /// `objects` Deployments whose image changes, on `clusters` clusters named prod-1, prod-2 …
    fn sample(objects: usize, clusters: usize) -> FleetDiff {
        let mut diff = FleetDiff::default();
        for cluster in 1..=clusters {
            let changes = (0..objects)
                .map(|i| {
                    change(
                        &format!("web-{i}"),
                        ChangeKind::Changed,
                        &format!("image: a{i}\nreplicas: 1\n"),
                        &format!("image: b{i}\nreplicas: 1\n"),
                    )
                })
                .collect();
            diff.clusters.insert(format!("prod-{cluster}"), changes);
        }
        diff
    }

    #[test]
    fn one_change_on_fifty_clusters_is_shown_once_in_a_few_kilobytes() {
        let text = markdown(&sample(1, 50), 65536, Some("Bump web"));
        assert!(text.starts_with("### Bump web\n\n**1 change** on **50 clusters** (0 object files added, 50 changed, 0 removed).\n"), "{text}");
        assert!(text.contains("| Deployment.apps | 0 | 50 | 0 |"), "{text}");
        assert!(
            text.contains("<summary><b>changed</b> <code>Deployment.apps shop/web-0</code> on prod-1 … prod-50 (50 clusters): image <code>a0</code> → <code>b0</code></summary>"),
            "{text}"
        );
        assert_eq!(text.matches("```diff\n").count(), 1, "{text}");
        assert!(
            text.contains("```diff\n@@ -1,2 +1,2 @@\n-image: a0\n+image: b0\n replicas: 1\n```"),
            "{text}"
        );
        assert!(text.len() < 2048, "{} bytes", text.len());
    }

    #[test]
    fn diffs_are_dropped_before_changes_and_the_note_says_what_was_left_out() {
        for (objects, max_bytes) in [(60, 9000), (200, 6000)] {
            let text = markdown(&sample(objects, 1), max_bytes, None);
            assert!(text.len() <= max_bytes, "{} bytes", text.len());
            assert_eq!(
                text.matches("```diff").count() * 2,
                text.matches("```").count()
            );
            assert_eq!(
                text.matches("<details>").count(),
                text.matches("</details>").count()
            );
            assert!(
                text.contains("\n- <b>changed</b> <code>Deployment.apps shop/web-"),
                "{text}"
            );
            let shown = text.matches("<b>changed</b>").count();
            if objects == 60 {
                // Every change is there; the first ones with their diff.
                assert_eq!(shown, 60, "{text}");
                assert!(text.contains("<details>"), "{text}");
                assert!(
                    text.contains(&format!(
                        "> **Left out to stay within {max_bytes} bytes:** the diff of {} changes (listed above without it). Run",
                        60 - text.matches("<details>").count()
                    )),
                    "{text}"
                );
            } else {
                // Not even every line fits: no diffs, and the rest are counted.
                assert!(!text.contains("<details>"), "{text}");
                assert!(
                    text.contains(&format!("and {} more changes entirely.", 200 - shown)),
                    "{text}"
                );
            }
        }
    }

    #[test]
    fn a_backtick_run_inside_a_diff_cannot_close_its_fence() {
        let mut diff = FleetDiff::default();
        diff.clusters.insert(
            "m".to_string(),
            vec![change("w", ChangeKind::Changed, "a: ```\n", "a: ````\n")],
        );
        let text = markdown(&diff, 65536, None);
        assert!(text.contains("`````diff\n"), "{text}");
    }

    #[test]
    fn new_and_removed_clusters_and_replica_moves_are_called_out() {
        let mut diff = FleetDiff::default();
        let replicas = |n: i64| format!("kind: Deployment\nspec:\n  replicas: {n}\n");
        diff.clusters.insert(
            "eu-1".to_string(),
            vec![change(
                "web",
                ChangeKind::Changed,
                &replicas(3),
                &replicas(4),
            )],
        );
        diff.clusters.insert(
            "eu-2".to_string(),
            vec![change(
                "web",
                ChangeKind::Changed,
                &replicas(3),
                &replicas(2),
            )],
        );
        diff.clusters.insert(
            "eu-3".to_string(),
            vec![
                change("web", ChangeKind::Added, "", &replicas(1)),
                change("api", ChangeKind::Added, "", &replicas(1)),
            ],
        );
        diff.clusters_added.insert("eu-3".to_string());
        diff.clusters.insert(
            "old-1".to_string(),
            vec![change("web", ChangeKind::Removed, &replicas(1), "")],
        );
        diff.clusters_removed.insert("old-1".to_string());
        // As a run counts it: every cluster web is on, eu-3's new replica included.
        let web = change("web", ChangeKind::Changed, "", "").key;
        diff.replica_totals.insert(web, (6, 7));
        let text = markdown(&diff, 65536, None);
        assert!(
            text.contains("- **New cluster** `eu-3`: 2 objects added\n"),
            "{text}"
        );
        assert!(
            text.contains("- **Removed cluster** `old-1`: 1 object removed\n"),
            "{text}"
        );
        assert!(
            text.contains("- **Replicas moved** `Deployment.apps shop/web`: eu-1 3 → 4, eu-2 3 → 2, eu-3 (new) → 1 (6 → 7 in all)\n"),
            "{text}"
        );
        // Everything is said above: no diff block.
        assert!(!text.contains("<details>"), "{text}");
        assert!(
            text.contains(
                "**1 change** on **2 clusters**, **1 new cluster**, **1 removed cluster**"
            ),
            "{text}"
        );
        let stat = stat(&diff);
        assert!(stat.starts_with("+ cluster eu-3 (new): 2 objects added\n- cluster old-1 (removed): 1 object removed\n~ Deployment.apps shop/web replicas: eu-1 3 → 4"), "{stat}");
        let value: serde_json::Value = serde_json::from_str(&json_report(&diff, None)).unwrap();
        assert_eq!(value["clustersAdded"], json!(["eu-3"]));
        assert_eq!(
            value["replicaMoves"][0]["clusters"][1],
            json!({"cluster": "eu-2", "before": 3, "after": 2})
        );
    }

    #[test]
    fn stat_and_json_group_and_count_every_change() {
        let mut diff = sample(1, 3);
        diff.clusters.insert(
            "prod-4".to_string(),
            vec![change("api", ChangeKind::Added, "", "x: 1\n")],
        );
        let text = stat(&diff);
        assert_eq!(
            text,
            "~ Deployment.apps shop/web-0 on prod-1 … prod-3 (3 clusters)\n+ Deployment.apps shop/api on prod-4\n4 clusters changed: 1 added, 3 changed, 0 removed\n"
        );
        let value: serde_json::Value =
            serde_json::from_str(&json_report(&diff, Some("t"))).unwrap();
        assert_eq!(value["title"], "t");
        assert_eq!(
            value["summary"],
            json!({"added": 1, "changed": 3, "removed": 0})
        );
        assert_eq!(
            value["groups"][0]["clusters"],
            json!(["prod-1", "prod-2", "prod-3"])
        );
        assert_eq!(value["clusters"][3]["objects"][0]["change"], "added");
    }

    #[test]
    fn unified_shows_each_change_once_coloured_as_git_colours_it() {
        let coloured = unified(&sample(1, 2));
        let plain = anstream::adapter::strip_str(&coloured).to_string();
        assert!(!plain.contains('\x1b'));
        assert!(
            plain.starts_with(
                "--- a/Deployment.apps shop/web-0 on prod-1, prod-2 (2 clusters)\n+++ b/"
            ),
            "{plain}"
        );
        assert_eq!(plain.matches("@@").count(), 2, "{plain}");
        assert!(coloured.starts_with("\x1b[1m--- a/"), "{coloured}");
        assert!(unified(&sample(1, 1)).contains("\x1b[31m-image: a0\x1b[0m\n"));
    }

    #[test]
    fn numbered_clusters_are_listed_as_runs() {
        assert_eq!(cluster_list(&["eu-1"]), "eu-1");
        assert_eq!(
            cluster_list(&[
                "eu-1", "eu-2", "eu-3", "eu-10", "us-1", "us-2", "edge", "eu-05"
            ]),
            "edge, eu-05, eu-1 … eu-3, eu-10, us-1, us-2 (8 clusters)"
        );
    }
}
