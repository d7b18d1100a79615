//! Where in an object a check is: the fields and list positions that lead there, written out
//! for a message as Kubernetes writes a field path.

/// Where in an object the validator is, as the fields and list positions that lead there;
/// written out only for a finding, as Kubernetes writes it:
/// `spec.template.spec.containers[0].ports[0].containerPort`, `metadata.labels["app/x"]`.
#[derive(Debug, Clone, Default)]
pub struct FieldPath<'v> {
    pub(super) steps: Vec<Step<'v>>,
}

#[derive(Debug, Clone, Copy)]
pub(super) enum Step<'v> {
    Field(&'v str),
    Index(usize),
}

impl FieldPath<'_> {
    pub(super) fn shown(&self) -> String {
        if self.steps.is_empty() {
            return "(the object)".to_string();
        }
        self.written(None)
    }

    /// The path of a rule's `fieldPath` (`.spec.ports[0]`, `['a.b']`) below this one.
    pub(super) fn shown_with(&self, relative: &str) -> String {
        let base = self.written(None);
        let relative = relative.trim_start_matches('.');
        if relative.is_empty() {
            return base;
        }
        match (base.is_empty(), relative.starts_with('[')) {
            (true, _) => relative.to_string(),
            (false, true) => format!("{base}{relative}"),
            (false, false) => format!("{base}.{relative}"),
        }
    }

    /// The path of a field the object lacks.
    pub(super) fn shown_at(&self, missing: &str) -> String {
        self.written(Some(Step::Field(missing)))
    }

    pub(super) fn written(&self, last: Option<Step<'_>>) -> String {
        let mut text = String::new();
        for step in self.steps.iter().copied().chain(last) {
            match step {
                Step::Field(field) if is_plain_field(field) => {
                    if !text.is_empty() {
                        text.push('.');
                    }
                    text.push_str(field);
                }
                Step::Field(field) => text.push_str(&format!("[{field:?}]")),
                Step::Index(index) => text.push_str(&format!("[{index}]")),
            }
        }
        text
    }
}

fn is_plain_field(field: &str) -> bool {
    !field.is_empty()
        && field
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '$')
}
