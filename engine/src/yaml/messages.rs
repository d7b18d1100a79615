//! The messages of a document that does not read: each parser error said in the user's terms,
//! at the line and column that caused it — the quote a YAML 1.1 scalar needs, the tab that
//! opens a block, the quote left open, the budget a document broke — and the nearest field
//! name for an unknown one. Reading is `super`'s; this only words what went wrong.

use crate::diagnostics::{Diagnostic, Origin};

use super::load::MAX_NESTING_DEPTH;
use super::stream::DocumentText;
use super::{read, resolve};

/// The parser's own error, at its line and column in the file.
pub(super) fn scan_error_diagnostic(
    error: &serde_saphyr::granit_parser::ScanError,
    offset: u64,
    file: &str,
) -> Diagnostic {
    let line = offset + error.marker().line() as u64;
    let message = error.info();
    let message = if message.is_empty() {
        "this document is not valid YAML".to_string()
    } else {
        message
    };
    Diagnostic::error(Some(Origin::new(file, 0, line)), message)
        .at_column(error.marker().col() as u64 + 1)
}

/// What the Kubernetes API server reads an unquoted scalar as, in words ("the boolean true"),
/// when that is not a string: fedrender's reader resolves scalars as go-yaml v2 does.
fn read_by_kubernetes_as(scalar: &str) -> Option<String> {
    match resolve::plain(scalar) {
        resolve::Resolved::Bool(flag) => Some(format!("the boolean {flag}")),
        resolve::Resolved::Int(number) => Some(format!("the number {number}")),
        resolve::Resolved::Uint(number) => Some(format!("the number {number}")),
        resolve::Resolved::Float(number) => {
            Some(format!("the number {}", resolve::go_json_float(number)))
        }
        resolve::Resolved::Null => Some("null".to_string()),
        resolve::Resolved::Str => None,
    }
}

/// The message for a string field given an unquoted scalar that YAML 1.1 reads as something
/// else (`None`: a null, whose spelling is taken from the line), naming the key from the
/// source line (`team: y`), or the key itself or the list item when the scalar is one.
fn quote_it_message(scalar: Option<&str>, location: serde_saphyr::Location, text: &str) -> String {
    let secret = masked_line(text, location.line()).is_some();
    let line = text
        .lines()
        .nth(
            usize::try_from(location.line())
                .unwrap_or(1)
                .saturating_sub(1),
        )
        .unwrap_or("");
    let column = usize::try_from(location.column())
        .unwrap_or(1)
        .saturating_sub(1);
    let mut before: String = line.chars().take(column).collect();
    let mut after: String = line.chars().skip(column).collect();
    // An empty value is located at the colon before it.
    if scalar.is_none() && after.starts_with(':') {
        before.push(':');
        after = after[1..].trim_start().to_string();
    }
    let before = before.trim_end();
    let scalar = scalar.map(str::to_string).unwrap_or_else(|| {
        after
            .split([' ', '\t', ',', '}', ']', '#'])
            .next()
            .unwrap_or("")
            .to_string()
    });
    let is_key = after
        .get(scalar.len()..)
        .is_some_and(|rest| rest.trim_start().starts_with(':'));
    let what = read_by_kubernetes_as(if scalar.is_empty() { "~" } else { &scalar })
        .unwrap_or_else(|| "not a string".to_string());
    // A Secret's value is not shown, nor what it reads as, which would all but say it.
    let (scalar, what) = if secret && !is_key {
        (
            crate::redact::REDACTED.to_string(),
            "not a string".to_string(),
        )
    } else {
        (scalar, what)
    };
    if is_key {
        // sigs.k8s.io/yaml writes a non-string key as its Go spelling ("false", "1"): no error,
        // but another key than the one written.
        return format!(
            "the key `{scalar}`: unquoted, `{scalar}` is {what} to the Kubernetes API server \
             (YAML 1.1), which turns it into another key; quote it: \"{scalar}\":"
        );
    }
    let (field, quoted) = if let Some(key) = before.strip_suffix(':') {
        let key = key
            .rsplit(['{', ',', ' ', '\t'])
            .next()
            .unwrap_or(key)
            .trim_start_matches("- ");
        (
            format!("`{}`", format!("{key}: {scalar}").trim_end()),
            format!("{key}: \"{scalar}\""),
        )
    } else if before.ends_with('-') || before.ends_with('[') || before.ends_with(',') {
        (format!("the list item `{scalar}`"), format!("\"{scalar}\""))
    } else {
        (format!("`{scalar}`"), format!("\"{scalar}\""))
    };
    let spelled = if scalar.is_empty() {
        "an empty value".to_string()
    } else {
        format!("`{scalar}`")
    };
    if what == "null" {
        // apiextensions-apiserver defaulting/prunenulls.go `PruneNonNullableNullsWithoutDefaults`
        // deletes a null the schema does not allow from a map (a field, or a label in a
        // labelsOverrider value), so the API server would not reject it but drop it unseen.
        return format!(
            "{field}: {spelled} is null to the Kubernetes API server (YAML 1.1), but this field \
             is a string; the API server would drop it as if it were not written, or reject a \
             null list item. Give it a value, or quote it: {quoted}"
        );
    }
    format!(
        "{field}: unquoted, {spelled} is {what} to the Kubernetes API server (YAML 1.1), but \
         this field is a string, so the API server would reject the object; quote it: {quoted}"
    )
}

pub(super) fn to_diagnostic(
    error: &serde_saphyr::Error,
    document: &DocumentText<'_>,
    file: &str,
) -> Diagnostic {
    let line_offset = document.first_line - 1;
    let line = error
        .location()
        .map(|location| location.line() + line_offset)
        .unwrap_or(document.content_line);
    let plain = error.render_with_options(serde_saphyr::render_options! {
        snippets: serde_saphyr::SnippetMode::Off,
        line_offset: line_offset,
    });
    let message = strip_location_suffix(&plain)
        .trim_end_matches(", set DuplicateKeyPolicy in Options if acceptable");
    let message = match error.without_snippet() {
        serde_saphyr::Error::QuotingRequired { value, location } => {
            quote_it_message(Some(value), *location, document.text)
        }
        serde_saphyr::Error::NullIntoString { location } => {
            quote_it_message(None, *location, document.text)
        }
        _ => explain_budget_breach(message).unwrap_or_else(|| message.to_string()),
    };
    // A repeated key: say where it first was.
    let message = match (
        message.strip_prefix("duplicate mapping key: "),
        error.location(),
    ) {
        (Some(key), Some(location)) => {
            match first_occurrence(document.text, location.line(), location.column(), key) {
                Some(first) => format!("{message} (first at line {})", first + line_offset),
                None => message,
            }
        }
        _ => message,
    };
    // serde-saphyr reports a tab that starts a line at the end of the line before it; Go's
    // reader, and the reader of the message, look for it on its own line.
    let misplaced_tab = error
        .location()
        .filter(|_| message.contains("found a tab"))
        .and_then(|at| tab_opening_the_next_line(document.text, at.line(), at.column()));
    let (line, error_column, message) = match misplaced_tab {
        Some((tab_line, tab_column)) => (
            tab_line + line_offset,
            Some(tab_column),
            "found a tab where an indentation space is expected: YAML indents with spaces only"
                .to_string(),
        ),
        None => (
            line,
            error.location().map(|location| location.column()),
            message,
        ),
    };
    // The parser's column belongs to the parser's line, not to a cause found on another line.
    let disallowed = disallowed_character(document.text, line_offset, &message);
    let (line, column, message) =
        match syntax_error_cause(document.text, line_offset, line, &message) {
            Some((cause_line, cause)) => (cause_line, None, cause),
            None => match disallowed {
                Some((line, column)) => (
                    line,
                    Some(column),
                    format!(
                        "{message}: YAML allows no such character anywhere in a file (Go's \
                         reader refuses it too); write it as an escape in a double-quoted string"
                    ),
                ),
                None => (line, error_column, message),
            },
        };
    let snippet = error.render_with_options(serde_saphyr::render_options! {
        line_offset: line_offset,
        source_name: Some(file),
    });
    let snippet: String = snippet.lines().skip(1).collect::<Vec<_>>().join("\n");
    // The snippet would repeat a budget breach in serde-saphyr's words (`Depth { depth: 257 }`)
    // under the message that says it in fedrender's.
    let snippet = if plain.starts_with("budget breached: ")
        || disallowed.is_some()
        || misplaced_tab.is_some()
    {
        String::new()
    } else {
        snippet
    };
    let (message, snippet) = without_secret_values(with_field_hint(message), &snippet, document);
    let mut diagnostic = Diagnostic::error(Some(Origin::new(file, 0, line)), message);
    if let Some(column) = column.filter(|&column| column > 0) {
        diagnostic = diagnostic.at_column(column);
    }
    if snippet.trim().is_empty() {
        diagnostic
    } else {
        diagnostic.with_detail(snippet)
    }
}

/// The line of `text` (1-based) as it may be shown, when it holds a Secret's value
/// (`crate::redact::masked_lines`).
fn masked_line(text: &str, line: u64) -> Option<String> {
    let index = usize::try_from(line.checked_sub(1)?).ok()?;
    crate::redact::masked_lines(text)
        .into_iter()
        .find(|(masked, _)| *masked == index)
        .map(|(_, shown)| shown)
}

/// The message and the source snippet under it with no value of a Secret in them: each
/// snippet line (`  7 |   password: …`) that holds one shows it masked, and what those lines
/// held is scrubbed from the message and the snippet's pointer lines.
fn without_secret_values(
    message: String,
    snippet: &str,
    document: &DocumentText<'_>,
) -> (String, String) {
    let masked = crate::redact::masked_lines(document.text);
    if masked.is_empty() {
        return (message, snippet.to_string());
    }
    let lines: Vec<&str> = document.text.lines().collect();
    // What each masked line held: the text its shown form leaves out, quotes and all.
    let hidden: Vec<serde_json::Value> = masked
        .iter()
        .filter_map(|(index, shown)| {
            let original = lines.get(*index)?;
            let kept = shown.strip_suffix(crate::redact::REDACTED)?;
            let value = original.get(kept.len()..).unwrap_or(original).trim();
            let unquoted = value.trim_matches(['"', '\'']);
            Some([value, unquoted].map(|text| serde_json::Value::from(text.to_string())))
        })
        .flatten()
        .collect();
    let by_file_line: std::collections::BTreeMap<u64, &str> = masked
        .iter()
        .map(|(index, shown)| (*index as u64 + document.first_line, shown.as_str()))
        .collect();
    let scrub = |text: &str| crate::redact::scrub(text, &hidden, |value| value.to_string());
    let snippet = snippet
        .lines()
        .map(|line| {
            // serde-saphyr's source lines: `  7 | text`; its pointer lines have no number.
            let numbered = line.split_once(" | ").and_then(|(number, _)| {
                let shown = by_file_line.get(&number.trim().parse::<u64>().ok()?)?;
                Some(format!("{number} | {shown}"))
            });
            numbered.unwrap_or_else(|| scrub(line))
        })
        .collect::<Vec<_>>()
        .join("\n");
    (scrub(&message), snippet)
}

/// The line (1-based, within `text`) where the key repeated at `line`:`column` first appeared
/// in the same block mapping: the nearest line above at the same column with the same key,
/// with no line in between indented less (which would end the mapping).
pub(super) fn first_occurrence(text: &str, line: u64, column: u64, key: &str) -> Option<u64> {
    let lines: Vec<&str> = text.lines().collect();
    let column = usize::try_from(column).ok()?.checked_sub(1)?;
    let at = usize::try_from(line).ok()?.checked_sub(1)?;
    for index in (0..at.min(lines.len())).rev() {
        let candidate = lines[index];
        let indent = candidate.len() - candidate.trim_start_matches(' ').len();
        let content = candidate.trim_start();
        if content.is_empty() || content.starts_with('#') {
            continue;
        }
        if indent < column {
            return None;
        }
        if indent == column {
            let written = content.split(':').next().unwrap_or("").trim();
            if written.trim_matches(['"', '\'']) == key {
                return Some(index as u64 + 1);
            }
        }
    }
    None
}

/// Where a syntax error was made, when the parser noticed it later, with what to do: a quote
/// left open is found on the line that opened it (the parser reports the line where the
/// quoted text ran into something it cannot be), and a Helm or Go template fed as YAML is named
/// as such. Lines are the file's; the document's text starts after `line_offset` of them.
/// Where the tab is, as (line, column) of `text`, when the parser reports a tab at line `line`
/// (1-based), which holds none from `column` on, and the next line starts with one after any
/// spaces: the scalar the parser was reading ends on that line.
fn tab_opening_the_next_line(text: &str, line: u64, column: u64) -> Option<(u64, u64)> {
    let mut lines = text
        .lines()
        .skip(usize::try_from(line.checked_sub(1)?).ok()?);
    let stopped_on = lines.next()?;
    let from = usize::try_from(column.saturating_sub(1)).ok()?;
    if stopped_on.get(from..).unwrap_or("").contains('\t') {
        return None;
    }
    let next = lines.next()?;
    let spaces = next.len() - next.trim_start_matches(' ').len();
    next[spaces..]
        .starts_with('\t')
        .then_some((line + 1, spaces as u64 + 1))
}

pub(super) fn syntax_error_cause(
    text: &str,
    line_offset: u64,
    line: u64,
    message: &str,
) -> Option<(u64, String)> {
    let in_document = usize::try_from(line.checked_sub(line_offset)?).ok()?;
    if message.contains("quoted scalar") {
        let lines: Vec<&str> = text.lines().collect();
        for index in (0..in_document.min(lines.len())).rev() {
            if let Some(quote) = unclosed_quote(lines[index]) {
                return Some((
                    index as u64 + 1 + line_offset,
                    format!(
                        "the {quote} quote opened on this line is not closed, so YAML reads the \
                         following lines as part of the string ({message} at line {line})"
                    ),
                ));
            }
        }
    }
    let error_line = text.lines().nth(in_document.checked_sub(1)?)?;
    if error_line.contains("{{") {
        return Some((
            line,
            format!(
                "{message}: `{{{{ … }}}}` is a Helm or Go template expression, so this file is a \
                 template rather than YAML; render it first (helm template), or --exclude it"
            ),
        ));
    }
    None
}

/// Where the character YAML does not allow that the parser's message names stands (line and
/// column): the parser places one in a block scalar where the scalar starts. It is the first
/// such character of the document, since reading stops there.
fn disallowed_character(text: &str, line_offset: u64, message: &str) -> Option<(u64, u64)> {
    if !message.starts_with("unexpected character") {
        return None;
    }
    for (index, line) in (1u64..).zip(text.lines()) {
        if let Some((column, c)) = (1u64..)
            .zip(line.chars())
            .find(|&(_, c)| !read::is_yaml_printable(c))
        {
            return message
                .contains(&c.escape_debug().to_string())
                .then_some((index + line_offset, column));
        }
    }
    None
}

/// Which quote a value on this line opens without closing: `"` or `'` right after `key: ` or
/// `- `, and no matching close later on the line (`\"` escapes a double quote, `''` a single).
pub(super) fn unclosed_quote(line: &str) -> Option<&'static str> {
    let trimmed = line.trim_start();
    if trimmed.starts_with('#') {
        return None;
    }
    let value = match trimmed.strip_prefix("- ") {
        Some(item) => item.trim_start(),
        None => {
            let colon = line.find(": ")?;
            line[colon + 2..].trim_start()
        }
    };
    let (quote, rest) = if let Some(rest) = value.strip_prefix('"') {
        ("double", rest)
    } else if let Some(rest) = value.strip_prefix('\'') {
        ("single", rest)
    } else {
        return None;
    };
    let mut chars = rest.chars().peekable();
    while let Some(c) = chars.next() {
        match (quote, c) {
            ("double", '\\') => {
                chars.next();
            }
            ("double", '"') => return None,
            ("single", '\'') if chars.peek() == Some(&'\'') => {
                chars.next();
            }
            ("single", '\'') => return None,
            _ => {}
        }
    }
    Some(quote)
}

/// The location is reported on its own; an alias error follows it with where the anchor was
/// defined and used, which the snippet shows better.
fn strip_location_suffix(message: &str) -> &str {
    match message.find(" at line ") {
        Some(at) => &message[..at],
        None => message,
    }
}

/// serde-saphyr names a breached budget by its Rust variant (`budget breached: Depth { depth:
/// 128 }`); say what the document did, keeping the figures.
fn explain_budget_breach(message: &str) -> Option<String> {
    let breach = message.strip_prefix("budget breached: ")?;
    let name = breach.split([' ', '{']).next().unwrap_or(breach);
    let plain = match name {
        "Depth" => {
            return Some(format!(
                "lists and maps nest deeper than {MAX_NESTING_DEPTH} levels"
            ));
        }
        "Aliases"
        | "Anchors"
        | "AliasAnchorRatio"
        | "RecordedAnchorEvents"
        | "RecordedAnchorBytes" => {
            "aliases expand the document beyond what fedrender reads (a \"billion laughs\" \
             document?)"
                .to_string()
        }
        "ScalarBytes" => "the document's strings add up to more than 64 MiB".to_string(),
        _ => return None,
    };
    Some(format!("{plain} ({breach})"))
}

/// serde reports "unknown field `x`, expected one of a, b"; add the nearest valid name.
pub(crate) fn with_field_hint(message: String) -> String {
    let Some(rest) = message.strip_prefix("unknown field `") else {
        return message;
    };
    let Some((field, expected)) = rest.split_once('`') else {
        return message;
    };
    let candidates = expected
        .trim_start_matches(", expected one of ")
        .trim_start_matches(", expected ")
        // serde names two fields `a` or `b`, more as `a`, `b`, `c`.
        .split(", ")
        .flat_map(|names| names.split(" or "))
        .map(|name| name.trim_matches('`'));
    let hint = crate::edit_distance::hint(
        crate::edit_distance::nearest(field, candidates),
        crate::edit_distance::Hint::AfterAsCode,
    );
    format!("{message}{hint}")
}

#[cfg(test)]
mod tests {
    use super::with_field_hint;

    /// serde's unknown-field message lists one, two (`a` or `b`) or more (`a`, `b`, `c`)
    /// expected names; the hint reads each form.
    #[test]
    fn the_hint_reads_every_form_of_the_expected_names() {
        for (message, hint) in [
            ("unknown field `nmae`, expected `name`", "name"),
            (
                "unknown field `versoin`, expected version or featureGates",
                "version",
            ),
            (
                "unknown field `clusterOverides`, expected `clusterName` or `clusterOverrides`",
                "clusterOverrides",
            ),
            (
                "unknown field `outptu`, expected one of clusters, output, gitops",
                "output",
            ),
        ] {
            let hinted = with_field_hint(message.to_string());
            assert!(
                hinted.ends_with(&format!("; did you mean `{hint}`?")),
                "{hinted}"
            );
        }
    }
}
