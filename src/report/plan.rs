//! `fedrender plan`: for every template, which policy won and why the others lost, which
//! clusters were filtered out and why, the replicas per cluster and the override rules applied
//! there — the answer to Karmada's most asked question, "my policy did nothing" (karmada#4650,
//! #5031).

use std::fmt::Write;
use std::io;

use std::collections::BTreeMap;

use serde_json::json;

use crate::report::markdown;
use crate::source::tools::shell_words;
use fedrender_engine::diagnostics::printable;
use fedrender_engine::interpret::Operation;
use fedrender_engine::object::ObjectKey;
use fedrender_engine::quantity::Quantity;
use fedrender_engine::render::capacity::shown;
use fedrender_engine::render::plan::{Envelope, PlanEntry};
use fedrender_engine::run::FleetSummary;
use fedrender_engine::schedule::divide::{Division, DivisionBasis};

/// Which entries to show.
#[derive(Debug, Clone, Default)]
pub struct PlanFilter {
    /// The clusters `--cluster` and `--cluster-selector` keep; `None` for all.
    pub clusters: Option<Vec<String>>,
    pub kind: Option<String>,
    pub name: Option<String>,
}

impl PlanFilter {
    /// A filter value that cannot match, with the nearest that would: a typo must not print an
    /// empty plan that reads as "nothing goes there".
    pub fn unknown_values(&self, keys: &[&ObjectKey]) -> Vec<String> {
        let mut problems = Vec::new();
        let mut check = |flag: &str, value: &Option<String>, known: Vec<&str>, what: &str| {
            let Some(value) = value else {
                return;
            };
            if known
                .iter()
                .any(|candidate| candidate.eq_ignore_ascii_case(value))
            {
                return;
            }
            let hint = fedrender_engine::edit_distance::did_you_mean(
                fedrender_engine::edit_distance::nearest(value, known.iter().copied()),
            );
            problems.push(printable(&format!("--{flag} {value}: {what}{hint}")).into_owned());
        };
        check(
            "kind",
            &self.kind,
            keys.iter().map(|key| key.kind.as_str()).collect(),
            "no template is of this kind",
        );
        // Names are case-sensitive in Kubernetes; a near miss in case is still a miss.
        if let Some(name) = &self.name
            && !keys.iter().any(|key| &key.name == name)
        {
            let hint = fedrender_engine::edit_distance::did_you_mean(
                fedrender_engine::edit_distance::nearest(
                    name,
                    keys.iter().map(|key| key.name.as_str()),
                ),
            );
            problems.push(
                printable(&format!("--name {name}: no template has this name{hint}")).into_owned(),
            );
        }
        problems
    }

    fn shows(&self, cluster: &str) -> bool {
        self.clusters
            .as_ref()
            .is_none_or(|kept| kept.iter().any(|name| name == cluster))
    }

    /// Whether the plan explains the object at all: `--kind` and `--name`, known before it is.
    pub fn chooses(&self, key: &ObjectKey) -> bool {
        self.kind
            .as_ref()
            .is_none_or(|kind| key.kind.eq_ignore_ascii_case(kind))
            && self.name.as_ref().is_none_or(|name| &key.name == name)
    }

    fn keeps(&self, entry: &PlanEntry) -> bool {
        self.chooses(&entry.key)
            && self.clusters.as_ref().is_none_or(|kept| {
                entry.clusters.iter().any(|c| kept.contains(&c.name))
                    || entry.filtered.iter().any(|(c, _)| kept.contains(c))
            })
    }
}

/// One pass over the plan's entries in object order, as the run explains them
/// ([`fedrender_engine::run::Run::explain_each`]), each handed to the function given and
/// dropped: a report holds one entry at a time, never the fleet's whole story (at 10,000
/// templates on 200 clusters, that took a gigabyte). A report may take more than one pass.
pub type Entries<'a> = &'a dyn Fn(&mut dyn FnMut(PlanEntry) -> io::Result<()>) -> io::Result<()>;

/// Appends one line to `out`: the text [`printable`], so that no name, path or reason from the
/// fleet can break it into lines of its own or drive the terminal.
macro_rules! put_line {
    ($out:expr, $($arg:tt)*) => {{
        let line = format!($($arg)*);
        $out.push_str(&printable(&line));
        $out.push('\n');
    }};
}

/// Which secrets reach which clusters, and how each is protected on its way: the first thing a
/// reviewer of a GitOps change looks for.
fn secrets_section(out: &mut String, entries: Entries<'_>, filter: &PlanFilter) -> io::Result<()> {
    let mut lines = Vec::new();
    entries(&mut |entry| {
        let Some(protection) = entry.secret.filter(|_| filter.keeps(&entry)) else {
            return Ok(());
        };
        let clusters: Vec<&str> = entry
            .clusters
            .iter()
            .map(|cluster| cluster.name.as_str())
            .filter(|cluster| filter.shows(cluster))
            .collect();
        if !clusters.is_empty() {
            lines.push(format!(
                "  {}: {} -> {}",
                entry.key,
                protection.describe(),
                with_keys(&clusters, &entry.secret_keys)
            ));
        }
        Ok(())
    })?;
    if !lines.is_empty() {
        put_line!(out, "secrets (how each is protected, and where it goes):");
        for line in lines {
            put_line!(out, "{line}");
        }
        out.push('\n');
    }
    Ok(())
}

/// The clusters a secret reaches, each run of clusters with the same key note followed by it:
/// `prod-eu-1, prod-eu-2 (certificate 3f2a…); staging (certificate 9b1c…)`.
fn with_keys(clusters: &[&str], notes: &[(String, String)]) -> String {
    if notes.is_empty() {
        return clusters.join(", ");
    }
    let note_of = |cluster: &str| {
        notes
            .iter()
            .find(|(name, _)| name == cluster)
            .map_or("", |(_, note)| note.as_str())
    };
    let mut runs: Vec<(Vec<&str>, &str)> = Vec::new();
    for &cluster in clusters {
        let note = note_of(cluster);
        match runs.last_mut() {
            Some((names, last)) if *last == note => names.push(cluster),
            _ => runs.push((vec![cluster], note)),
        }
    }
    runs.iter()
        .map(|(names, note)| format!("{} ({note})", names.join(", ")))
        .collect::<Vec<_>>()
        .join("; ")
}

/// `plan`: the fleet's settings and sources, the secrets and where they go, then each
/// template's story, written to `out` an entry at a time.
pub fn write_text(
    summary: &FleetSummary,
    filter: &PlanFilter,
    entries: Entries<'_>,
    out: &mut dyn io::Write,
) -> io::Result<()> {
    let sources = &summary.sources;
    let to = out;
    let mut out = String::new();
    let mut by_version: std::collections::BTreeMap<String, Vec<&str>> = Default::default();
    for (cluster, version) in &summary.kubernetes_versions {
        if filter.shows(cluster) {
            by_version
                .entry(version.to_string())
                .or_default()
                .push(cluster);
        }
    }
    if !by_version.is_empty() {
        put_line!(out, "schemas checked against:");
        for (version, clusters) in &by_version {
            put_line!(out, "  {version}: {}", clusters.join(", "));
        }
        out.push('\n');
    }
    if !summary.taint_changes.is_empty() {
        put_line!(
            out,
            "cluster taints from ClusterTaintPolicies (by the clusters' conditions):"
        );
        for change in &summary.taint_changes {
            put_line!(
                out,
                "  {}: {} {} by ClusterTaintPolicy {}",
                change.cluster,
                if change.added { "tainted" } else { "untainted" },
                change.taint,
                change.policy
            );
        }
        out.push('\n');
    }
    for (heading, lines) in
        crate::report::capacity::plan_lines(&summary.capacity, |cluster| filter.shows(cluster))
    {
        put_line!(out, "{heading}");
        for line in lines {
            put_line!(out, "  {line}");
        }
        out.push('\n');
    }
    if !summary.ignored_operations.is_empty() {
        put_line!(
            out,
            "interpreter operations ignored (only a live control plane runs them):"
        );
        for ignored in &summary.ignored_operations {
            put_line!(
                out,
                "  ResourceInterpreterCustomization {} ({}) for {}: {}",
                ignored.customization,
                ignored.origin,
                ignored.target,
                ignored.fields.join(", ")
            );
        }
        out.push('\n');
    }
    if !sources.is_empty() {
        put_line!(out, "sources rendered by a tool:");
        for run in sources {
            put_line!(
                out,
                "  {} ({}): ran {}{}",
                run.source,
                run.tool,
                shell_words(&run.argv),
                if run.reused { " (output reused)" } else { "" }
            );
            for hook in &run.hooks {
                put_line!(out, "    Helm hook, rendered as an ordinary object: {hook}");
            }
            for test in &run.left_out_tests {
                put_line!(
                    out,
                    "    Helm test hook, left out (skipTests: false keeps it): {test}"
                );
            }
        }
        out.push('\n');
    }
    secrets_section(&mut out, entries, filter)?;
    to.write_all(out.as_bytes())?;
    entries(&mut |entry| {
        if !filter.keeps(&entry) {
            return Ok(());
        }
        let entry = &entry;
        let mut out = String::new();
        put_line!(out, "{} ({})", entry.key, entry.origin);
        if entry.policies.is_empty() {
            put_line!(out, "  policies: none matches");
        }
        for choice in &entry.policies {
            put_line!(
                out,
                "  policy {} (priority {}, matched by {}): {}",
                choice.policy,
                choice.priority,
                choice.matched_by,
                choice.outcome
            );
        }
        for source in &entry.placed_by {
            put_line!(out, "  placed by {source}");
        }
        if let Some(protection) = entry.secret {
            put_line!(out, "  secret: {}", protection.describe());
        }
        for note in &entry.notes {
            put_line!(out, "  note: {note}");
        }
        if let Some(copy) = &entry.host_copy {
            put_line!(
                out,
                "  host's copy at {copy}: the plain {} beside it, which KubeFed does not read",
                entry.key.kind
            );
        }
        for (operations, supplier) in by_supplier(&entry.interpreted_by) {
            put_line!(out, "  {operations} from {supplier}");
        }
        for ignored in &entry.ignored_operations {
            put_line!(
                out,
                "  ignored {ignored} (only a live control plane runs it)"
            );
        }
        for (cluster, reason) in &entry.filtered {
            if filter.shows(cluster) {
                put_line!(out, "  - {cluster}: filtered out, {reason}");
            }
        }
        if let Some(division) = &entry.division {
            // A division is one computation over all its clusters: shown whole, or, where
            // --cluster hides some of them, only counted, so nothing of the others is printed.
            let hidden = division
                .shares
                .iter()
                .filter(|share| !filter.shows(&share.cluster))
                .count();
            if hidden == 0 {
                put_line!(out, "  division: {}", division.explain());
            } else {
                put_line!(
                    out,
                    "  division: {} replicas over {} clusters, {hidden} of them not shown by --cluster",
                    division.replicas,
                    division.shares.len()
                );
            }
        }
        for cluster in &entry.clusters {
            if !filter.shows(&cluster.name) {
                continue;
            }
            let mut line = format!("  + {}", cluster.name);
            if let Some(replicas) = cluster.replicas {
                write!(
                    line,
                    ": {replicas} replica{}",
                    if replicas == 1 { "" } else { "s" }
                )
                .unwrap();
            }
            if let Some(completions) = cluster.completions {
                write!(line, ", {completions} completions").unwrap();
            }
            put_line!(out, "{line}");
            for rule in &cluster.overrides {
                put_line!(out, "      override {rule}");
            }
        }
        for envelope in &entry.autoscaling {
            let clusters: Vec<String> = envelope
                .clusters
                .iter()
                .filter(|(cluster, _)| filter.shows(cluster))
                .map(|(cluster, replicas)| format!("{cluster} {replicas}"))
                .collect();
            let mut line = format!(
                "  ~ {} at {}, {} replica{}: {}",
                envelope.by,
                envelope.moment,
                envelope.replicas,
                if envelope.replicas == 1 { "" } else { "s" },
                if envelope.clusters.is_empty() {
                    "nowhere".to_string()
                } else {
                    clusters.join(", ")
                }
            );
            if let Some(never) = &envelope.never {
                write!(line, " (never comes: {never})").unwrap();
            }
            put_line!(out, "{line}");
        }
        if let Some(reason) = &entry.nowhere {
            put_line!(out, "  nowhere: {reason}");
        }
        out.push('\n');
        to.write_all(out.as_bytes())
    })?;
    to.flush()
}

/// A cell of the placement at a glance: the replicas a workload gets on a cluster, `✓` for an
/// object that is not a workload, `·` where the template does not go.
#[derive(Debug, Clone, Copy)]
enum Cell {
    Nowhere,
    Object,
    Replicas(i64),
}

impl Cell {
    fn text(self) -> String {
        match self {
            Cell::Nowhere => "·".to_string(),
            Cell::Object => "✓".to_string(),
            Cell::Replicas(replicas) => replicas.to_string(),
        }
    }
}

/// One template's row of the placement at a glance: a cell per cluster shown and, for a
/// workload, its replicas over them (`total`).
struct MatrixRow {
    cells: Vec<Cell>,
    total: Option<i64>,
}

impl MatrixRow {
    /// Another template's row for the same object: in an Argo CD fleet each Application
    /// deploys its own copy of an object to its own cluster, and the object is still one row.
    /// Two copies on one cluster (a conflict the lints refuse unless allowed) add up.
    fn absorb(&mut self, other: MatrixRow) {
        for (cell, theirs) in self.cells.iter_mut().zip(other.cells) {
            *cell = match (*cell, theirs) {
                (Cell::Nowhere, theirs) => theirs,
                (Cell::Replicas(mine), Cell::Replicas(theirs)) => {
                    Cell::Replicas(mine.saturating_add(theirs))
                }
                (mine, _) => mine,
            };
        }
        self.total = match (self.total, other.total) {
            (Some(mine), Some(theirs)) => Some(mine.saturating_add(theirs)),
            (mine, theirs) => mine.or(theirs),
        };
    }

    fn texts(&self) -> Vec<String> {
        let mut texts: Vec<String> = self.cells.iter().map(|cell| cell.text()).collect();
        texts.push(self.total.map_or(String::new(), |total| total.to_string()));
        texts
    }
}

/// What a pass over the placement gathers beside its rows: what the rows shown request on each
/// cluster (a filtered table sums its own rows) and the envelopes of the workloads among them.
#[derive(Default)]
struct Gathered {
    requested: BTreeMap<String, BTreeMap<String, Quantity>>,
    envelopes: Vec<(ObjectKey, Vec<Envelope>)>,
}

/// The clusters the filter shows, in inventory order.
fn shown_clusters<'a>(summary: &'a FleetSummary, filter: &PlanFilter) -> Vec<&'a String> {
    (summary.cluster_names.iter())
        .filter(|cluster| filter.shows(cluster))
        .collect()
}

/// The placement at a glance, one pass: a [`MatrixRow`] per object the templates the filter
/// keeps place (the rows of templates of one object, one after another in object order, made
/// one), one cell per cluster of `shown`, handed to `row` in object order; then what it
/// gathered.
fn matrix_pass(
    filter: &PlanFilter,
    entries: Entries<'_>,
    shown: &[&String],
    row: &mut dyn FnMut(&ObjectKey, MatrixRow) -> io::Result<()>,
) -> io::Result<Gathered> {
    let mut gathered = Gathered::default();
    let mut pending: Option<(ObjectKey, MatrixRow)> = None;
    entries(&mut |entry| {
        if !filter.keeps(&entry) {
            return Ok(());
        }
        let planned: Vec<_> = (shown.iter())
            .map(|cluster| entry.clusters.iter().find(|at| &&at.name == cluster))
            .collect();
        let cells = (planned.iter())
            .map(|at| match at {
                Some(at) => at.replicas.map_or(Cell::Object, Cell::Replicas),
                None => Cell::Nowhere,
            })
            .collect();
        let replicas: Vec<i64> = (planned.iter().flatten())
            .filter_map(|at| at.replicas)
            .collect();
        let total = (!replicas.is_empty()).then(|| replicas.iter().sum());
        for at in &entry.clusters {
            let replicas = i128::from(at.replicas.unwrap_or(0).max(0));
            let cluster = gathered.requested.entry(at.name.clone()).or_default();
            for (resource, each) in &entry.request {
                let asked = Quantity::from_nanos(each.nanos().saturating_mul(replicas));
                let slot = cluster.entry(resource.clone()).or_default();
                *slot = slot.saturating_add(asked);
            }
        }
        let this = MatrixRow { cells, total };
        match &mut pending {
            Some((key, so_far)) if *key == entry.key => so_far.absorb(this),
            _ => {
                if let Some((key, done)) = pending.replace((entry.key.clone(), this)) {
                    row(&key, done)?;
                }
            }
        }
        if !entry.autoscaling.is_empty() {
            gathered.envelopes.push((entry.key, entry.autoscaling));
        }
        Ok(())
    })?;
    if let Some((key, done)) = pending {
        row(&key, done)?;
    }
    Ok(gathered)
}

/// The header of the placement at a glance: the clusters shown, then `total`.
fn matrix_columns(shown: &[&String]) -> Vec<String> {
    let mut columns: Vec<String> = shown.iter().map(|cluster| cluster.to_string()).collect();
    columns.push("total".to_string());
    columns
}

/// `plan --format table`: the placement at a glance in aligned columns, names left, cells
/// right; below the objects, where workloads request resources, each cluster's requested CPU
/// and memory and, where the inventory states it, what it has free (`?` where it does not;
/// [`crate::report::capacity::matrix_rows`]); then, where FederatedHPAs or CronFederatedHPAs
/// scale workloads, their replica envelopes in the same columns (`envelope_rows`).
pub fn write_table(
    summary: &FleetSummary,
    filter: &PlanFilter,
    entries: Entries<'_>,
    out: &mut dyn io::Write,
) -> io::Result<()> {
    let shown = shown_clusters(summary, filter);
    let columns = matrix_columns(&shown);
    // Two passes, the widths first: holding every row until the widths are known was most of
    // a big table's memory.
    let mut widths = Widths::of("object", &columns);
    let gathered = matrix_pass(filter, entries, &shown, &mut |key, row| {
        widths.fit(&key.to_string(), &row.texts());
        Ok(())
    })?;
    let tail = crate::report::capacity::matrix_rows(&summary.capacity, &shown, &gathered.requested);
    for (label, cells) in &tail {
        widths.fit(label, cells);
    }
    out.write_all(widths.line("object", &columns).as_bytes())?;
    matrix_pass(filter, entries, &shown, &mut |key, row| {
        out.write_all(widths.line(&key.to_string(), &row.texts()).as_bytes())
    })?;
    let mut text = String::new();
    for (label, cells) in &tail {
        text.push_str(&widths.line(label, cells));
    }
    let envelopes = envelope_rows(&gathered.envelopes, &shown);
    if !envelopes.is_empty() {
        text.push('\n');
        put_line!(
            text,
            "replica envelopes: each cluster's replicas when a FederatedHPA or CronFederatedHPA \
             sets the workload's"
        );
        let mut widths = Widths::of("workload, autoscaler at", &columns);
        for (label, cells) in &envelopes {
            widths.fit(label, cells);
        }
        text.push_str(&widths.line("workload, autoscaler at", &columns));
        for (label, cells) in &envelopes {
            text.push_str(&widths.line(label, cells));
        }
    }
    out.write_all(text.as_bytes())?;
    out.flush()
}

/// One row per moment of each autoscaled workload, a cell per cluster of `shown` (`·` where
/// the template does not go then) and the replicas over them.
fn envelope_rows(
    workloads: &[(ObjectKey, Vec<Envelope>)],
    shown: &[&String],
) -> Vec<(String, Vec<String>)> {
    let mut rows = Vec::new();
    for (key, envelopes) in workloads {
        for envelope in envelopes {
            let mut label = format!("{key}, {} at {}", envelope.by, envelope.moment);
            if let Some(never) = &envelope.never {
                write!(label, " (never comes: {never})").unwrap();
            }
            let on = |cluster: &str| {
                (envelope.clusters.iter())
                    .find(|(name, _)| name == cluster)
                    .map(|(_, replicas)| *replicas)
            };
            let mut cells: Vec<String> = (shown.iter())
                .map(|cluster| on(cluster).map_or("·".to_string(), |n| n.to_string()))
                .collect();
            let total: i64 = shown.iter().filter_map(|cluster| on(cluster)).sum();
            cells.push(total.to_string());
            rows.push((label, cells));
        }
    }
    rows
}

/// The widths of aligned columns: labels left, cells right, every name printable.
struct Widths {
    label: usize,
    cells: Vec<usize>,
}

impl Widths {
    fn width(text: &str) -> usize {
        printable(text).chars().count()
    }

    /// The widths of the header row alone.
    fn of(header: &str, columns: &[String]) -> Widths {
        Widths {
            label: Widths::width(header),
            cells: columns.iter().map(|column| Widths::width(column)).collect(),
        }
    }

    /// Widened to hold a row.
    fn fit(&mut self, label: &str, cells: &[String]) {
        self.label = self.label.max(Widths::width(label));
        for (width, cell) in self.cells.iter_mut().zip(cells) {
            *width = (*width).max(Widths::width(cell));
        }
    }

    /// One row, aligned, ending in a newline.
    fn line(&self, label: &str, cells: &[String]) -> String {
        let label_width = self.label;
        let mut line = format!("{:<label_width$}", printable(label));
        for (cell, &cell_width) in cells.iter().zip(&self.cells) {
            write!(line, "  {:>cell_width$}", printable(cell)).unwrap();
        }
        let mut out = String::new();
        put_line!(out, "{}", line.trim_end());
        out
    }
}

/// `plan --format markdown`: the placement at a glance as a GitHub table, for a pull request or
/// a wiki, each row written as its entry is explained; the capacity rows and the envelopes
/// after it.
pub fn write_markdown(
    summary: &FleetSummary,
    filter: &PlanFilter,
    entries: Entries<'_>,
    out: &mut dyn io::Write,
) -> io::Result<()> {
    let shown = shown_clusters(summary, filter);
    let columns = matrix_columns(&shown);
    let mut head = String::from("| object |");
    for column in &columns {
        write!(head, " {} |", markdown::cell(column)).unwrap();
    }
    head.push_str("\n|---|");
    head.push_str(&"---:|".repeat(columns.len()));
    head.push('\n');
    out.write_all(head.as_bytes())?;
    let markdown_row = |label: &str, cells: &[String]| {
        let mut line = format!("| {} |", markdown::cell(label));
        for cell in cells {
            write!(line, " {cell} |").unwrap();
        }
        line.push('\n');
        line
    };
    let gathered = matrix_pass(filter, entries, &shown, &mut |key, row| {
        out.write_all(markdown_row(&key.to_string(), &row.texts()).as_bytes())
    })?;
    let mut tail = String::new();
    for (label, cells) in
        crate::report::capacity::matrix_rows(&summary.capacity, &shown, &gathered.requested)
    {
        tail.push_str(&markdown_row(&label, &cells));
    }
    tail.push_str(&crate::report::envelopes::plan_markdown(
        (gathered.envelopes.iter()).map(|(key, envelopes)| (key, envelopes.as_slice())),
        &shown,
    ));
    out.write_all(tail.as_bytes())?;
    out.flush()
}

/// "replicas, revision and dependencies" per interpreter, in the order operations run.
fn by_supplier(interpreted_by: &[(Operation, String)]) -> Vec<(String, &str)> {
    let mut groups: Vec<(Vec<&str>, &str)> = Vec::new();
    for (operation, supplier) in interpreted_by {
        let word = match operation {
            Operation::ReplicaResource => "replicas",
            Operation::ReplicaRevision => "revision",
            Operation::DependencyInterpretation => "dependencies",
        };
        match groups
            .iter_mut()
            .find(|(_, known)| *known == supplier.as_str())
        {
            Some((words, _)) => words.push(word),
            None => groups.push((vec![word], supplier)),
        }
    }
    groups
        .into_iter()
        .map(|(words, supplier)| {
            let listed = match words.as_slice() {
                [only] => only.to_string(),
                [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
                [] => String::new(),
            };
            (listed, supplier)
        })
        .collect()
}

/// Writes the plan as a JSON array to `out`, one entry at a time: at 10,000 templates on 200
/// clusters the whole array held as one value (and then as one string) took gigabytes. The
/// bytes are `serde_json::to_string_pretty`'s of the whole array.
pub fn write_json(
    summary: &FleetSummary,
    filter: &PlanFilter,
    entries: Entries<'_>,
    out: &mut dyn io::Write,
) -> std::io::Result<()> {
    let mut first = true;
    out.write_all(b"[")?;
    entries(&mut |entry| {
        if !filter.keeps(&entry) {
            return Ok(());
        }
        let value = entry_json(summary, filter, &entry);
        let text = serde_json::to_string_pretty(&value).expect("a JSON value serialises");
        // A nested value is indented one level deeper; a JSON string holds no line break.
        let mut indented = String::with_capacity(text.len() + text.len() / 8);
        for line in text.lines() {
            indented.push_str("\n  ");
            indented.push_str(line);
        }
        out.write_all(if first { b"" } else { b"," })?;
        out.write_all(crate::report::github::inert_json(indented).as_bytes())?;
        first = false;
        Ok(())
    })?;
    out.write_all(if first { b"]\n" } else { b"\n]\n" })?;
    out.flush()
}

/// One entry of the plan as JSON.
fn entry_json(summary: &FleetSummary, filter: &PlanFilter, entry: &PlanEntry) -> serde_json::Value {
    let generated_by = |entry: &PlanEntry| {
        summary
            .sources
            .iter()
            .find(|run| *entry.origin.file == *run.output_name())
            .map(|run| json!({"source": run.source, "tool": run.tool, "command": run.argv}))
    };
    json!({
        "group": entry.key.group,
        "kind": entry.key.kind,
        "namespace": entry.key.namespace,
        "name": entry.key.name,
        "source": entry.origin.to_string(),
        "generatedBy": generated_by(entry),
        "policies": entry.policies.iter().map(|choice| json!({
            "policy": choice.policy,
            "priority": choice.priority,
            "matchedBy": choice.matched_by,
            "outcome": choice.outcome,
        })).collect::<Vec<_>>(),
        "placedBy": entry.placed_by,
        "hostCopy": entry.host_copy.as_ref().map(ToString::to_string),
        "secret": entry.secret.map(|protection| protection.describe()),
        "secretKeys": entry.secret_keys.iter()
            .filter(|(cluster, _)| filter.shows(cluster))
            .map(|(cluster, note)| (cluster.clone(), json!(note)))
            .collect::<serde_json::Map<_, _>>(),
        "notes": entry.notes,
        "interpretedBy": entry.interpreted_by.iter().map(|(operation, supplier)| json!({
            "operation": operation.field(),
            "interpreter": supplier,
        })).collect::<Vec<_>>(),
        "ignoredOperations": entry.ignored_operations,
        "filtered": entry.filtered.iter().map(|(cluster, reason)| json!({"cluster": cluster, "reason": reason})).collect::<Vec<_>>(),
        "request": quantities(&entry.request, 1),
        "clusters": entry.clusters.iter().map(|cluster| json!({
            "cluster": cluster.name,
            "replicas": cluster.replicas,
            "requested": quantities(&entry.request, cluster.replicas.unwrap_or(0)),
            "completions": cluster.completions,
            "overrides": cluster.overrides,
            "kubernetesVersion": summary
                .kubernetes_versions
                .get(&cluster.name)
                .map(|version| version.version.to_string()),
        })).collect::<Vec<_>>(),
        "division": entry.division.as_ref().map(division_json),
        "autoscaling": entry.autoscaling.iter().map(|envelope| json!({
            "by": envelope.by,
            "moment": envelope.moment,
            "replicas": envelope.replicas,
            "clusters": envelope.clusters.iter()
                .filter(|(cluster, _)| filter.shows(cluster))
                .map(|(cluster, replicas)| json!({"cluster": cluster, "replicas": replicas}))
                .collect::<Vec<_>>(),
            "neverComes": envelope.never,
        })).collect::<Vec<_>>(),
        "nowhere": entry.nowhere,
    })
}

/// A per-replica request times `replicas`, each quantity as Kubernetes writes it.
fn quantities(
    request: &BTreeMap<String, Quantity>,
    replicas: i64,
) -> serde_json::Map<String, serde_json::Value> {
    request
        .iter()
        .map(|(resource, each)| {
            let total =
                Quantity::from_nanos(each.nanos().saturating_mul(i128::from(replicas.max(0))));
            (resource.clone(), json!(shown(resource, total)))
        })
        .collect()
}

/// The scheduler's division as data: the strategy, each cluster's number and what it got, and
/// the one-line explanation the text report prints.
fn division_json(division: &Division) -> serde_json::Value {
    let (strategy, number) = match division.basis {
        DivisionBasis::StaticWeight { .. } => ("staticWeight", "weight"),
        DivisionBasis::AvailableReplicas => ("availableReplicas", "available"),
        DivisionBasis::Aggregated => ("aggregated", "available"),
    };
    let clusters: Vec<serde_json::Value> = division
        .shares
        .iter()
        .map(|share| {
            let mut cluster = json!({
                "cluster": share.cluster,
                "overflow": share.overflow,
                "divided": share.divided,
                "replicas": share.replicas,
                "remainder": share.remainder,
                "tied": share.tied,
            });
            cluster[number] = json!(share.weight);
            cluster
        })
        .collect();
    let mut value = json!({
        "strategy": strategy,
        "replicas": division.replicas,
        "clusters": clusters,
        "ties": if division.larger_names_first { "largerNameFirst" } else { "smallerNameFirst" },
        "mayDivideOtherwiseLive": division.may_divide_otherwise_live(),
        "explanation": division.explain(),
    });
    if let DivisionBasis::StaticWeight { listed } = division.basis {
        value["weightsListed"] = json!(listed);
    }
    value
}
