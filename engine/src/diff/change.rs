//! What a fleet diff is made of: each object's change with both texts, where it comes from,
//! and what the review found; below the modules that compute and read them.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use crate::lint::Lint;
use crate::manifest::HEADER;
use crate::object::ObjectKey;
use crate::redact;
use crate::yaml;

/// What happened to an object on one cluster.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ChangeKind {
    /// The head has it; the base had not.
    Added,
    /// Both have it, with different text.
    Changed,
    /// The base had it; the head has not.
    Removed,
}

impl ChangeKind {
    /// The word reports use for it (`added`, `changed`, `removed`).
    pub fn word(self) -> &'static str {
        match self {
            ChangeKind::Added => "added",
            ChangeKind::Changed => "changed",
            ChangeKind::Removed => "removed",
        }
    }
}

/// One object that differs, with both texts (secret values already redacted).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectChange {
    /// The object.
    pub key: ObjectKey,
    /// Added, changed or removed.
    pub kind: ChangeKind,
    /// The base's manifest (empty when added), Secret values redacted unless shown.
    pub before: String,
    /// The head's manifest (empty when removed), Secret values redacted unless shown.
    pub after: String,
}

impl ObjectChange {
    /// The diff's hunks alone, the same for the same change on any cluster.
    pub fn hunks(&self) -> String {
        similar::TextDiff::from_lines(&self.before, &self.after)
            .unified_diff()
            .context_radius(3)
            .iter_hunks()
            .map(|hunk| hunk.to_string())
            .collect()
    }

    /// [`hunks`](Self::hunks) with the value of `spec.replicas` written `…` on both sides.
    pub(crate) fn hunks_without_replicas(&self) -> String {
        let (before, after) = (hide_replicas(&self.before), hide_replicas(&self.after));
        similar::TextDiff::from_lines(&before, &after)
            .unified_diff()
            .context_radius(3)
            .iter_hunks()
            .map(|hunk| hunk.to_string())
            .collect()
    }

    /// `spec.replicas` before and after (`None` on the side where the object is absent or has
    /// none).
    pub fn replicas(&self) -> (Option<i64>, Option<i64>) {
        (spec_replicas(&self.before), spec_replicas(&self.after))
    }

    /// A unified diff of the two manifests with three lines of context.
    pub fn unified(&self, cluster: &str) -> String {
        let label = format!("{cluster}: {}", self.key);
        similar::TextDiff::from_lines(&self.before, &self.after)
            .unified_diff()
            .context_radius(3)
            .header(&format!("a/{label}"), &format!("b/{label}"))
            .to_string()
    }
}

/// Every difference, by cluster (sorted), objects sorted by key.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct FleetDiff {
    /// Each cluster's changes, by cluster name.
    pub clusters: BTreeMap<String, Vec<ObjectChange>>,
    /// Clusters the head has and the base has not, and the reverse: their objects are all
    /// added (removed), and reports call the cluster out instead of listing each object.
    pub clusters_added: BTreeSet<String>,
    /// Clusters the base has and the head has not.
    pub clusters_removed: BTreeSet<String>,
    /// Where the head's changed objects come from, when known.
    pub provenance: BTreeMap<ObjectKey, Provenance>,
    /// For each object whose replicas changed somewhere, its replicas summed over every
    /// cluster it is on (changed or not, added or removed), before and after.
    pub replica_totals: BTreeMap<ObjectKey, (i64, i64)>,
    /// For the same objects, how many clusters they are on with a `spec.replicas`, before and
    /// after: `replicas 6 → 17 over 6 → 12 clusters`.
    pub(crate) replica_clusters: BTreeMap<ObjectKey, (usize, usize)>,
    /// What the change breaks or loses (see [`super::danger`]), with lint levels applied.
    pub findings: Vec<Finding>,
    /// What `--ignore-field` and `--ignore-resource` hid, per rule as written, in the order
    /// the rules were given (only rules that hid something).
    pub hidden: Vec<Hidden>,
    /// What the head's workloads ask of each cluster and enforced quota; `None` when the diff
    /// was not made from a run (tests of the reports).
    pub capacity: Option<crate::render::capacity::Capacity>,
    /// The same of the base, for `diff --base`; `None` against a rendered tree, which does not
    /// say what its workloads request.
    pub base_capacity: Option<crate::render::capacity::Capacity>,
    /// The replica envelopes of the head's autoscaled workloads (see
    /// [`crate::render::Placed::envelopes`]), by workload; `None` when the diff was not made
    /// from a run.
    pub envelopes: Option<BTreeMap<ObjectKey, Vec<crate::render::plan::Envelope>>>,
    /// The same of the base, for `diff --base`; `None` against a rendered tree, which does not
    /// say what scaled it.
    pub base_envelopes: Option<BTreeMap<ObjectKey, Vec<crate::render::plan::Envelope>>>,
    /// Who the change touches: its clusters, the review groups they are in and those groups'
    /// owners (computed by the diff's `touched` module).
    pub touched: Touched,
}

/// Who a change touches, for the first screen of its review.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Touched {
    /// Every cluster with a change shown, sorted.
    pub clusters: Vec<String>,
    /// Whose Config the groups are from; `None` when neither side names any.
    pub groups_from: Option<GroupsFrom>,
    /// The groups the change touches, in the order the Config writes them.
    pub groups: Vec<TouchedGroup>,
    /// The owners of those groups, deduplicated and sorted.
    pub owners: Vec<String>,
    /// With the base's groups in force: the change's own Config says otherwise of
    /// `spec.review` (it takes effect once merged).
    pub review_changed: bool,
}

/// Whose Config a review's groups are from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GroupsFrom {
    /// The base's, already reviewed and merged (`diff --base`): its owners may be asked.
    Base {
        /// Where `spec.review` is written.
        at: String,
    },
    /// The change's own (the base names none, or the base is a rendered tree): its owners are
    /// named but not mentioned, since the change could name anyone.
    Change {
        /// Where `spec.review` is written.
        at: String,
    },
}

/// One group the change touches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TouchedGroup {
    /// The group's name.
    pub name: String,
    /// How many clusters are in the group (of the head's inventory and the base's).
    pub clusters: usize,
    /// The group's clusters the change touches, sorted.
    pub clusters_touched: Vec<String>,
    /// The objects added, changed or removed on them, each counted once.
    pub objects_changed: usize,
    /// The group's owners, sorted.
    pub owners: Vec<String>,
    /// CPU and memory requested × replicas over the group's clusters: the resource, the base's
    /// (`None` against a rendered tree) and the head's; empty when the diff was not made from
    /// a run.
    pub requests: Vec<(
        &'static str,
        Option<crate::quantity::Quantity>,
        crate::quantity::Quantity,
    )>,
}

/// What one ignore rule hid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hidden {
    /// The rule as written (`--ignore-field apps/Deployment=/spec/replicas`).
    pub rule: String,
    /// Changes it hid whole: a resource it names, or an object whose only differences are at
    /// the fields rules leave out (counted under the first of them that left one out).
    pub changes: usize,
    /// Changes still shown, other fields differing, whose difference at its field it left out.
    pub fields: usize,
}

/// Where an object comes from: its template's file and line, what placed it and the
/// override policies applied to it, each with the clusters it applies on.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Provenance {
    /// The template's file and line (`apps/web/deploy.yaml:12`).
    pub origin: String,
    /// What placed it, as the plan says (`PropagationPolicy shop/web`).
    pub placed_by: Vec<String>,
    pub(crate) overridden_by: Vec<(String, BTreeSet<String>)>,
    /// Whether its replicas are divided by a tie the names decided, for a template without a
    /// UID: a live Karmada may divide them otherwise
    /// ([`Division::may_divide_otherwise_live`](crate::schedule::divide::Division::may_divide_otherwise_live)).
    pub may_divide_otherwise_live: bool,
}

impl Provenance {
    /// The override policies applied on at least one of `clusters`.
    pub fn overridden_on(&self, clusters: &[&str]) -> Vec<&str> {
        self.overridden_by
            .iter()
            .filter(|(_, on)| clusters.iter().any(|cluster| on.contains(*cluster)))
            .map(|(policy, _)| policy.as_str())
            .collect()
    }
}

/// How a finding is reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum FindingLevel {
    /// Lowered by an escape hatch the object carries, or something the run cannot know.
    Note,
    /// Reported as a warning (an error under `--message-format` when denied).
    Warning,
    /// Denied by a lint level: `diff` exits 2 after printing its report.
    Denied,
}

impl FindingLevel {
    /// The word reports use for it (`note`, `warning`, `error`).
    pub fn word(self) -> &'static str {
        match self {
            FindingLevel::Note => "note",
            FindingLevel::Warning => "warning",
            FindingLevel::Denied => "error",
        }
    }
}

/// One rule broken by one object, on the clusters listed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The danger lint broken.
    pub lint: Lint,
    /// The object that breaks it.
    pub key: ObjectKey,
    /// Sorted.
    pub clusters: Vec<String>,
    /// What the change does (`spec.selector changes`).
    pub message: String,
    /// What Argo CD and Flux do with it.
    pub argo_cd: String,
    /// What Flux does with it.
    pub flux: String,
    /// How to avoid it.
    pub fix: String,
    /// The annotation that lowers it to a note, when the object carries one.
    pub escaped_by: Option<String>,
    /// How it is reported, once lint levels are applied.
    pub level: FindingLevel,
}

/// The line of `spec.replicas` in a manifest as fedrender writes it (`spec:` at the top level,
/// its fields indented by two): its byte range and value.
fn replicas_line(text: &str) -> Option<(std::ops::Range<usize>, &str)> {
    let spec = if text.starts_with("spec:\n") {
        0
    } else {
        text.find("\nspec:\n")? + 1
    };
    let mut at = spec + "spec:\n".len();
    while at < text.len() {
        let end = text[at..]
            .find('\n')
            .map_or(text.len(), |offset| at + offset);
        let line = &text[at..end];
        if !line.starts_with(' ') {
            return None;
        }
        if let Some(value) = line.strip_prefix("  replicas: ") {
            return Some((at..end, value));
        }
        at = end + 1;
    }
    None
}

/// `spec.replicas` of a manifest, when it has one.
pub(super) fn spec_replicas(text: &str) -> Option<i64> {
    replicas_line(text).and_then(|(_, value)| {
        let value = value.trim();
        value.parse().ok().or_else(|| {
            value
                .parse::<f64>()
                .ok()
                .and_then(|number| whole_number(&Value::from(number)))
        })
    })
}

/// The manifest with the value of `spec.replicas` written `…`.
pub(super) fn hide_replicas(text: &str) -> std::borrow::Cow<'_, str> {
    match replicas_line(text) {
        Some((range, _)) => {
            let mut hidden = String::with_capacity(text.len());
            hidden.push_str(&text[..range.start]);
            hidden.push_str("  replicas: …");
            hidden.push_str(&text[range.end..]);
            std::borrow::Cow::Owned(hidden)
        }
        None => std::borrow::Cow::Borrowed(text),
    }
}

/// A count written as an integer or as a whole float (`3.0`), as the API server decodes it.
pub(super) fn whole_number(value: &Value) -> Option<i64> {
    value.as_i64().or_else(|| {
        value
            .as_f64()
            .filter(|number| number.fract() == 0.0 && number.abs() < 9.0e15)
            .map(|number| number as i64)
    })
}

/// The objects whose `spec.replicas` changed on some cluster.
pub(super) fn scaled_objects(diff: &FleetDiff) -> BTreeSet<&ObjectKey> {
    diff.clusters
        .values()
        .flatten()
        .filter(|change| {
            change.kind == ChangeKind::Changed
                && spec_replicas(&change.before) != spec_replicas(&change.after)
        })
        .map(|change| &change.key)
        .collect()
}

/// How one object differs between two manifests (`None`: absent), if it does. Manifests
/// written differently but equal as objects do not differ.
pub(super) fn object_change(
    key: &ObjectKey,
    before: Option<&str>,
    after: Option<&str>,
    show_secrets: bool,
) -> Option<ObjectChange> {
    let (kind, before_text, after_text) = match (before, after) {
        (Some(a), Some(b)) if a == b || same_object(a, b) => return None,
        (Some(a), Some(b)) => (ChangeKind::Changed, body(a), body(b)),
        (None, Some(b)) => (ChangeKind::Added, String::new(), body(b)),
        (Some(a), None) => (ChangeKind::Removed, body(a), String::new()),
        (None, None) => return None,
    };
    let (before_text, after_text) = if key.group.is_empty() && key.kind == "Secret" && !show_secrets
    {
        redact_secrets(&before_text, &after_text)
    } else {
        (before_text, after_text)
    };
    Some(ObjectChange {
        key: key.clone(),
        kind,
        before: before_text,
        after: after_text,
    })
}

/// A manifest as the diff keeps it (one document), read back as an object; `None` for an absent
/// side (the empty text) or one that does not parse.
pub(crate) fn parse_object(text: &str) -> Option<Value> {
    if text.is_empty() {
        return None;
    }
    yaml::split_documents(text)
        .first()
        .and_then(|document| yaml::parse_document(document, "").ok())
}

fn body(text: &str) -> String {
    text.strip_prefix(HEADER).unwrap_or(text).to_string()
}

/// Equal as objects although written differently (key order, quoting, comments).
fn same_object(a: &str, b: &str) -> bool {
    match (parse_object(a), parse_object(b)) {
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

/// Replaces every value of a Secret (`crate::redact`: `data`, `stringData` and their copy in
/// the last-applied annotation) by a marker that says whether it changed, so a pull-request
/// comment never shows a secret.
fn redact_secrets(before: &str, after: &str) -> (String, String) {
    let (mut old, mut new) = (parse_object(before), parse_object(after));
    let mut old_values: BTreeMap<(String, String), Value> = BTreeMap::new();
    if let Some(old) = old.as_mut() {
        redact::redact_object(old, &mut |field, key, value| {
            old_values.insert((field.to_string(), key.to_string()), value.clone());
            Value::from(redact::REDACTED)
        });
    }
    let compared = old.is_some();
    if let Some(new) = new.as_mut() {
        redact::redact_object(new, &mut |field, key, value| {
            let previous = old_values.get(&(field.to_string(), key.to_string()));
            Value::from(if compared && previous != Some(value) {
                "<redacted, changed>"
            } else {
                redact::REDACTED
            })
        });
    }
    let text = |value: Option<Value>, original: &str| match value {
        Some(value) if !original.is_empty() => yaml::to_yaml(&value),
        _ => original.to_string(),
    };
    (text(old, before), text(new, after))
}
