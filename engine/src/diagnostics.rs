//! What fedrender tells the user: errors (bad input, exit 2) and warnings (legal but probably a
//! mistake, errors under `--strict`), each pointing at the file and line it is about.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use crate::lint::{Level, Lint, LintLevels};

/// Where a document came from: the file as the user named it, the document's index inside the
/// file (0-based, counting `---` separated documents and `List` items) and its first line.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Origin {
    /// The file as the user named it (`apps/web/deploy.yaml`, `<stdin>`, `apps/web/ (kustomize)`).
    pub file: Arc<str>,
    /// The document's index in the file, from 0.
    pub document: usize,
    /// The line, from 1.
    pub line: u64,
    /// Where in the document the object's own fields are written, when it is not at the top:
    /// `spec.template` for the object a KubeFed `Federated<Kind>` holds, so that a message
    /// about the object's `spec.replicas` points at the document's `spec.template.spec.replicas`.
    pub fields_under: Option<&'static str>,
}

impl Origin {
    /// Where document `document` of `file` begins, at `line`.
    pub fn new(file: impl Into<Arc<str>>, document: usize, line: u64) -> Self {
        Origin {
            file: file.into(),
            document,
            line,
            fields_under: None,
        }
    }

    /// The same place, for an object whose own fields are written under `path` of the
    /// document.
    pub fn with_fields_under(&self, path: &'static str) -> Self {
        Origin {
            fields_under: Some(path),
            ..self.clone()
        }
    }

    /// Where the object's `field` is in its document: `field` itself, or under
    /// [`Origin::fields_under`].
    pub fn field_in_document<'a>(&self, field: &'a str) -> Cow<'a, str> {
        match self.fields_under {
            Some(path) => Cow::Owned(format!("{path}.{field}")),
            None => Cow::Borrowed(field),
        }
    }

    /// The same file and document, pointing at another line.
    pub fn at_line(&self, line: u64) -> Self {
        Origin {
            line,
            ..self.clone()
        }
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.file, self.line)
    }
}

/// A typed input object and where it was written, field by field.
#[derive(Debug, Clone)]
pub struct Located<T> {
    /// Where the object was written.
    pub origin: Origin,
    /// The object, typed.
    pub item: T,
    /// Each field's own line, to point a message at it.
    pub fields: FieldLines,
}

/// The line of each field of one document (see [`crate::yaml::field_lines`]), so that a message
/// about a field points at the field.
#[derive(Clone, Debug, Default)]
pub struct FieldLines(Arc<BTreeMap<String, u64>>);

impl FieldLines {
    /// The lines of a document's fields, by dotted path (`spec.placement.clusterAffinity`).
    pub fn new(lines: BTreeMap<String, u64>) -> Self {
        FieldLines(Arc::new(lines))
    }

    /// The lines of the fields under `prefix` (`spec.template`), named from there: what an
    /// object made from that part of the document (an ApplicationSet's Application) points at.
    pub fn under(&self, prefix: &str) -> FieldLines {
        let start = format!("{prefix}.");
        FieldLines::new(
            self.0
                .range(start.clone()..)
                .take_while(|(path, _)| path.starts_with(&start))
                .map(|(path, line)| (path[start.len()..].to_string(), *line))
                .collect(),
        )
    }

    /// Where `field` (`spec.resourceSelectors[0].kind`) is written: its line, else the line of
    /// the nearest enclosing field that is written, else the document's.
    pub fn origin(&self, document: &Origin, field: &str) -> Origin {
        let mut path = field;
        loop {
            if let Some(&line) = self.0.get(path) {
                return document.at_line(line);
            }
            // A map key written as Kubernetes writes it in field paths: `spec.overall[cpu]`.
            if let Some(open) = path.strip_suffix(']').and_then(|inner| inner.rfind('['))
                && let key = &path[open + 1..path.len() - 1]
                && !key.bytes().all(|byte| byte.is_ascii_digit())
                && let Some(&line) = self.0.get(&format!("{}.{key}", &path[..open]))
            {
                return document.at_line(line);
            }
            match path.rfind(['.', '[']) {
                Some(end) => path = &path[..end],
                None => return document.clone(),
            }
        }
    }
}

/// Whether a message stops the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// The input is refused: exit 2, nothing written.
    Error,
    /// The input is legal but probably wrong; an error when its lint is denied.
    Warning,
}

/// One message for the user. `detail` holds extra lines (a source snippet, a hint).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// An error, or a warning (which its lint's level may turn into an error).
    pub severity: Severity,
    /// Every warning's lint, which sets its level; also kept when a level denies it.
    pub lint: Option<Lint>,
    /// The document the message is about, when it is about one.
    pub origin: Option<Origin>,
    /// What else tools may want to know; boxed, since most messages have none of it and every
    /// stage passes diagnostics around by value.
    pub about: Option<Box<About>>,
    /// What is wrong, and what would be right.
    pub message: String,
    /// Lines printed under the message.
    pub detail: Option<String>,
}

/// The exact place and subject of a message, for `--message-format json` and `github`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct About {
    /// The column on the origin's line, where the message is about one character (a YAML
    /// syntax error); 1-based.
    pub column: Option<u64>,
    /// The object the message is about, as `Kind namespace/name` (`Kind name` when cluster
    /// scoped), for tools that group messages by object.
    pub object: Option<String>,
    /// The member cluster the message is about, when it is about one.
    pub cluster: Option<String>,
    /// The member clusters the message is about, when it is about several (or one).
    pub clusters: Vec<String>,
    /// The field of the object the message is about (`spec.replicas`).
    pub field: Option<String>,
}

impl Diagnostic {
    /// An error at `origin`.
    pub fn error(origin: Option<Origin>, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            lint: None,
            origin,
            about: None,
            message: message.into(),
            detail: None,
        }
    }

    /// A warning of `lint` at `origin`.
    pub fn warning(lint: Lint, origin: Option<Origin>, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            lint: Some(lint),
            origin,
            about: None,
            message: message.into(),
            detail: None,
        }
    }

    /// The message with lines printed under it.
    pub fn with_detail(mut self, detail: impl Into<String>) -> Self {
        self.detail = Some(detail.into());
        self
    }

    /// The message about one character of its line, at `column` (1-based).
    pub fn at_column(mut self, column: u64) -> Self {
        self.about.get_or_insert_default().column = Some(column);
        self
    }

    /// The message about `object` (`Kind namespace/name`).
    pub fn about_object(mut self, object: impl fmt::Display) -> Self {
        self.about.get_or_insert_default().object = Some(object.to_string());
        self
    }

    /// The message about one member cluster.
    pub fn on_cluster(mut self, cluster: impl Into<String>) -> Self {
        self.about.get_or_insert_default().cluster = Some(cluster.into());
        self
    }

    /// About these clusters (and about the cluster, when only one).
    pub(crate) fn about_clusters(mut self, clusters: Vec<String>) -> Self {
        let about = self.about.get_or_insert_default();
        if let [one] = clusters.as_slice() {
            about.cluster = Some(one.clone());
        }
        about.clusters = clusters;
        self
    }

    pub(crate) fn about_field(mut self, field: impl Into<String>) -> Self {
        self.about.get_or_insert_default().field = Some(field.into());
        self
    }

    /// What [`About`] says, each part `None` when unknown.
    pub fn about(&self) -> About {
        self.about.as_deref().cloned().unwrap_or_default()
    }

    #[cfg(test)]
    pub(crate) fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// A message as a person reads it on a terminal or in a log: the file, the message and each
/// line of the detail with [`printable`] characters only, so that a name from the fleet can
/// neither start a line of its own nor move the cursor, recolour or ring the terminal.
impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let label = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let message = printable(&self.message);
        match &self.origin {
            Some(origin) => write!(
                f,
                "{label}: {}:{}: {message}",
                printable(&origin.file),
                origin.line
            )?,
            None => write!(f, "{label}: {message}")?,
        }
        if let Some(lint) = self.lint {
            write!(f, " [{lint}]")?;
        }
        if let Some(detail) = &self.detail {
            for line in detail.lines() {
                write!(f, "\n  {}", printable(line))?;
            }
        }
        Ok(())
    }
}

/// Whether `c` is shown escaped by [`printable`]: control characters (C0, DEL, C1) but the
/// tab, the characters that reorder text (bidirectional marks, embeddings, overrides and
/// isolates), and the Unicode line and paragraph separators.
pub(crate) fn is_unprintable(c: char) -> bool {
    (c.is_control() && c != '\t')
        || matches!(
            c,
            '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{2028}' | '\u{2029}'
        )
}

/// `text` with every unprintable character written as Rust writes it in a
/// string: `\n`, `\r`, `\u{1b}`. Names, kinds and paths come from the fleet, which a pull
/// request controls; printed raw, an ESC would drive the terminal and a line break would let a
/// name forge a line of fedrender's own. The text is borrowed when nothing needs escaping.
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unprintable) {
        return Cow::Borrowed(text);
    }
    let mut shown = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => shown.push_str("\\n"),
            '\r' => shown.push_str("\\r"),
            c if is_unprintable(c) => shown.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => shown.push(c),
        }
    }
    Cow::Owned(shown)
}

/// [`printable`] line by line: the line feeds that separate the lines of `text` are kept.
pub fn printable_lines(text: &str) -> Cow<'_, str> {
    if !text.chars().any(|c| c != '\n' && is_unprintable(c)) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.split('\n')
            .map(printable)
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

/// Every error found in one run, reported together. Returned by any stage that rejects input.
#[derive(Debug, Default)]
pub struct Rejected {
    /// Every error, in the order found.
    pub errors: Vec<Diagnostic>,
    /// Set when the errors came after a build had begun replacing files, so that the output
    /// directory is partly updated (everything else leaves it as it was).
    pub output_partly_updated: bool,
    /// The signal (SIGINT, SIGTERM, SIGHUP) that stopped a build, which then rolled back.
    pub interrupted_by: Option<i32>,
}

impl From<Diagnostic> for Rejected {
    fn from(diagnostic: Diagnostic) -> Self {
        Rejected::from(vec![diagnostic])
    }
}

impl From<Vec<Diagnostic>> for Rejected {
    fn from(errors: Vec<Diagnostic>) -> Self {
        Rejected {
            errors,
            output_partly_updated: false,
            interrupted_by: None,
        }
    }
}

impl fmt::Display for Rejected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, error) in self.errors.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{error}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Rejected {}

/// Collects errors across a stage so that all of them are reported, then fails once.
#[derive(Debug, Default)]
pub struct ErrorSink {
    errors: Vec<Diagnostic>,
}

impl ErrorSink {
    /// Records an error.
    pub fn push(&mut self, diagnostic: Diagnostic) {
        self.errors.push(diagnostic);
    }

    /// Records every error of `rejected`.
    pub fn extend(&mut self, rejected: Rejected) {
        self.errors.extend(rejected.errors);
    }

    /// Records the error of `result`, if any, and passes the value on.
    pub fn take<T>(&mut self, result: Result<T, impl Into<Rejected>>) -> Option<T> {
        match result {
            Ok(value) => Some(value),
            Err(rejected) => {
                self.extend(rejected.into());
                None
            }
        }
    }

    /// Whether no error was recorded.
    pub fn is_empty(&self) -> bool {
        self.errors.is_empty()
    }

    /// Fails with every error recorded, if there is one.
    pub fn finish(self) -> Result<(), Rejected> {
        if self.errors.is_empty() {
            Ok(())
        } else {
            Err(Rejected::from(self.errors))
        }
    }
}

/// How lint levels act on diagnostics; the levels themselves are [`crate::lint`]'s, below.
impl LintLevels {
    /// Splits warnings by level: allowed ones are dropped, denied ones become errors saying
    /// which lint denied them; the rest stay warnings.
    pub fn apply(&self, warnings: Vec<Diagnostic>) -> (Vec<Diagnostic>, Vec<Diagnostic>) {
        let mut kept = Vec::new();
        let mut denied = Vec::new();
        for mut warning in warnings {
            let Some(lint) = warning.lint else {
                kept.push(warning);
                continue;
            };
            match self.level(lint) {
                Level::Allow => {}
                Level::Warn => kept.push(warning),
                Level::Deny => {
                    warning.severity = Severity::Error;
                    let why = if self.named.contains_key(&lint) {
                        format!("denied by the {lint} lint level")
                    } else if self.strict && lint.default_level() != Level::Deny {
                        "a warning; --strict makes it an error".to_string()
                    } else {
                        format!("--warn {lint} makes it a warning")
                    };
                    warning.message.push_str(&format!(" ({why})"));
                    denied.push(warning);
                }
            }
        }
        (kept, denied)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_is_found_or_its_nearest_enclosing_one() {
        let lines = FieldLines::new(BTreeMap::from([
            ("spec".to_string(), 3),
            ("spec.overall".to_string(), 4),
            ("spec.overall.cpu".to_string(), 5),
            ("spec.list".to_string(), 6),
            ("spec.list[0]".to_string(), 7),
        ]));
        let document = Origin::new("q.yaml", 0, 1);
        let line = |field: &str| lines.origin(&document, field).line;
        assert_eq!(line("spec.overall[cpu]"), 5);
        assert_eq!(line("spec.overall[memory]"), 4);
        assert_eq!(line("spec.list[0].name"), 7);
        assert_eq!(line("spec.list[3]"), 6);
        assert_eq!(line("metadata.name"), 1);
    }

    // An ApplicationSet's Application points at its template: `spec.source.path` is where
    // `spec.template.spec.source.path` is written; a field the template does not write, at
    // the document.
    #[test]
    fn the_fields_under_a_prefix_are_named_from_there() {
        let lines = FieldLines::new(BTreeMap::from([
            ("spec.template".to_string(), 10),
            ("spec.template.spec.source".to_string(), 12),
            ("spec.template.spec.source.path".to_string(), 14),
            ("spec.templatePatch".to_string(), 20),
            ("spec.generators[0]".to_string(), 4),
        ]));
        let template = lines.under("spec.template");
        let document = Origin::new("set.yaml", 0, 1);
        let line = |field: &str| template.origin(&document, field).line;
        assert_eq!(line("spec.source.path"), 14);
        assert_eq!(line("spec.source.repoURL"), 12);
        assert_eq!(line("spec.destination"), 1);
        assert_eq!(
            line("Patch"),
            1,
            "spec.templatePatch is not under spec.template"
        );
    }

    #[test]
    fn a_diagnostic_names_file_and_line_then_its_detail() {
        let d = Diagnostic::error(Some(Origin::new("fleet/a.yaml", 0, 7)), "bad thing")
            .with_detail("hint one\nhint two");
        assert_eq!(
            d.to_string(),
            "error: fleet/a.yaml:7: bad thing\n  hint one\n  hint two"
        );
    }

    #[test]
    fn control_characters_are_shown_escaped_and_plain_text_is_borrowed() {
        assert!(matches!(printable("web-1 café\tx"), Cow::Borrowed(_)));
        assert_eq!(
            printable("a\nb\rc\u{1b}[31md\u{7}e\u{7f}\u{85}\u{202e}f\u{2028}"),
            "a\\nb\\rc\\u{1b}[31md\\u{7}e\\u{7f}\\u{85}\\u{202e}f\\u{2028}"
        );
        assert_eq!(
            printable_lines("one\u{1b}\ntwo\r\n"),
            "one\\u{1b}\ntwo\\r\n"
        );
        assert!(matches!(printable_lines("one\ntwo\n"), Cow::Borrowed(_)));
    }

    #[test]
    fn a_message_from_the_fleet_cannot_start_a_line_or_drive_the_terminal() {
        let d = Diagnostic::error(
            Some(Origin::new("fleet/a\u{1b}[2J\n.yaml", 0, 7)),
            "kind \"X\nerror: forged\u{7}\"",
        )
        .with_detail("snippet\r\u{1b}[1Aline\nnext");
        assert_eq!(
            d.to_string(),
            "error: fleet/a\\u{1b}[2J\\n.yaml:7: kind \"X\\nerror: forged\\u{7}\"\n  snippet\\r\\u{1b}[1Aline\n  next"
        );
    }

    fn warning(lint: Lint) -> Diagnostic {
        Diagnostic::warning(lint, None, lint.name())
    }

    #[test]
    fn allowed_warnings_vanish_and_denied_ones_become_errors_saying_why() {
        let levels = LintLevels {
            strict: false,
            named: BTreeMap::from([
                (Lint::SelectsNothing, Level::Allow),
                (Lint::UnknownCluster, Level::Deny),
            ]),
        };
        let (kept, denied) = levels.apply(vec![
            warning(Lint::SelectsNothing),
            warning(Lint::UnknownCluster),
            warning(Lint::PriorityTie),
        ]);
        assert_eq!(kept, vec![warning(Lint::PriorityTie)]);
        assert_eq!(denied.len(), 1);
        assert!(denied[0].is_error());
        assert_eq!(
            denied[0].message,
            "unknown-cluster (denied by the unknown-cluster lint level)"
        );
        let (_, strict) = LintLevels::strict().apply(vec![warning(Lint::PriorityTie)]);
        assert!(
            strict[0]
                .message
                .ends_with("(a warning; --strict makes it an error)")
        );
    }
}
