//! What fedrender tells the user: errors (bad input, exit 2) and warnings (legal but probably a
//! mistake, errors under `--strict`), each pointing at the file and line it is about.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use crate::lint::{Level, Lint, LintLevels};

/// Where a document came from: the file as the user named it, the document's index inside the
/// file (0-based, counting `---` separated documents and `List` items) and its first line.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Origin {
    pub file: Arc<str>,
    pub document: usize,
    pub line: u64,
}

impl Origin {
    pub fn new(file: impl Into<Arc<str>>, document: usize, line: u64) -> Self {
        Origin {
            file: file.into(),
            document,
            line,
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
    pub origin: Origin,
    pub item: T,
    pub fields: FieldLines,
}

/// The line of each field of one document (see [`crate::yaml::field_lines`]), so that a message
/// about a field points at the field.
#[derive(Clone, Debug, Default)]
pub struct FieldLines(Arc<BTreeMap<String, u64>>);

impl FieldLines {
    pub fn new(lines: BTreeMap<String, u64>) -> Self {
        FieldLines(Arc::new(lines))
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

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Error,
    Warning,
}

/// One message for the user. `detail` holds extra lines (a source snippet, a hint).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// Every warning's lint, which sets its level; also kept when a level denies it.
    pub lint: Option<Lint>,
    pub origin: Option<Origin>,
    /// What else tools may want to know; boxed, since most messages have none of it and every
    /// stage passes diagnostics around by value.
    pub about: Option<Box<About>>,
    pub message: String,
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

    pub fn with_detail(mut self, detail: impl Into<String>) -> Self {
        self.detail = Some(detail.into());
        self
    }

    pub fn at_column(mut self, column: u64) -> Self {
        self.about.get_or_insert_default().column = Some(column);
        self
    }

    pub fn about_object(mut self, object: impl fmt::Display) -> Self {
        self.about.get_or_insert_default().object = Some(object.to_string());
        self
    }

    pub fn on_cluster(mut self, cluster: impl Into<String>) -> Self {
        self.about.get_or_insert_default().cluster = Some(cluster.into());
        self
    }

    /// About these clusters (and about the cluster, when only one).
    pub fn about_clusters(mut self, clusters: Vec<String>) -> Self {
        let about = self.about.get_or_insert_default();
        if let [one] = clusters.as_slice() {
            about.cluster = Some(one.clone());
        }
        about.clusters = clusters;
        self
    }

    pub fn about_field(mut self, field: impl Into<String>) -> Self {
        self.about.get_or_insert_default().field = Some(field.into());
        self
    }

    /// What [`About`] says, each part `None` when unknown.
    pub fn about(&self) -> About {
        self.about.as_deref().cloned().unwrap_or_default()
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let label = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        match &self.origin {
            Some(origin) => write!(f, "{label}: {origin}: {}", self.message)?,
            None => write!(f, "{label}: {}", self.message)?,
        }
        if let Some(lint) = self.lint {
            write!(f, " [{lint}]")?;
        }
        if let Some(detail) = &self.detail {
            for line in detail.lines() {
                write!(f, "\n  {line}")?;
            }
        }
        Ok(())
    }
}

/// Every error found in one run, reported together. Returned by any stage that rejects input.
#[derive(Debug, Default)]
pub struct Rejected {
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
    pub fn push(&mut self, diagnostic: Diagnostic) {
        self.errors.push(diagnostic);
    }

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

    pub fn is_empty(&self) -> bool {
        self.errors.is_empty()
    }

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

    #[test]
    fn a_diagnostic_names_file_and_line_then_its_detail() {
        let d = Diagnostic::error(Some(Origin::new("fleet/a.yaml", 0, 7)), "bad thing")
            .with_detail("hint one\nhint two");
        assert_eq!(
            d.to_string(),
            "error: fleet/a.yaml:7: bad thing\n  hint one\n  hint two"
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
