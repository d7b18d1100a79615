//! Text for a GitHub Actions log, where the runner reads every line a step prints as a possible
//! workflow command: a line starting with `::` (after spaces), and `##[` anywhere in a line. A
//! pull request controls the fleet's names, so whatever fedrender prints from it in the
//! `github` message format is either the escaped data of fedrender's own command, or sits
//! between `::stop-commands::TOKEN` and `::TOKEN::`, where the runner runs no command and the
//! token, random on every run, cannot be guessed to end the pause early.

use std::io::Read;
use std::sync::OnceLock;

use fedrender_engine::diagnostics::{printable, printable_lines};

/// A command's data (the text after `::`): `%`, CR and LF escaped, as actions/toolkit's
/// `escapeData` does and the runner undoes.
pub fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A command's property value: also `:` and `,`, which would end the value or the properties
/// (actions/toolkit's `escapeProperty`).
pub fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// `::error title=fedrender::…` (or `warning`) for a message with extra lines: the message on
/// one line and the detail line by line, every character [printable], then escaped as data,
/// so that the whole command is one line of the log and its annotation shows no control
/// character. `properties` are `name=value` pairs, the values still to be escaped.
pub fn command(
    name: &str,
    properties: &[(&str, &str)],
    message: &str,
    detail: Option<&str>,
) -> String {
    let properties: Vec<String> = properties
        .iter()
        .map(|(key, value)| format!("{key}={}", escape_property(&printable(value))))
        .collect();
    let mut data = printable(message).into_owned();
    if let Some(detail) = detail {
        data.push('\n');
        data.push_str(&printable_lines(detail));
    }
    let separator = if properties.is_empty() { "" } else { " " };
    format!(
        "::{name}{separator}{}::{}",
        properties.join(","),
        escape_data(&data)
    )
}

/// `text` (whole lines) between `::stop-commands::TOKEN` and `::TOKEN::`, so that no line of
/// it is run as a command; empty text stays empty.
pub fn inert(text: &str) -> String {
    if text.is_empty() {
        return String::new();
    }
    let token = stop_token();
    let newline = if text.ends_with('\n') { "" } else { "\n" };
    format!("::stop-commands::{token}\n{text}{newline}::{token}::\n")
}

/// A writer whose text reaches the log as [`inert`] writes it, for text written in pieces: the
/// opening marker before the first byte, the closing one at [`InertWriter::finish`]; nothing
/// at all when nothing was written.
pub struct InertWriter<W: std::io::Write> {
    inner: W,
    opened: bool,
}

impl<W: std::io::Write> InertWriter<W> {
    pub fn new(inner: W) -> Self {
        InertWriter {
            inner,
            opened: false,
        }
    }

    /// Closes the marker where one was opened, and flushes.
    pub fn finish(mut self) -> std::io::Result<()> {
        if self.opened {
            writeln!(self.inner, "::{}::", stop_token())?;
        }
        self.inner.flush()
    }
}

impl<W: std::io::Write> std::io::Write for InertWriter<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if !self.opened && !buf.is_empty() {
            writeln!(self.inner, "::stop-commands::{}", stop_token())?;
            self.opened = true;
        }
        self.inner.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// JSON text that the runner cannot read a command from: `##[` can only stand inside a JSON
/// string (`#` is nothing else in JSON), where `\u005b` is the same `[`, so the value is the
/// same for every JSON reader. Lines of JSON never start with `::`: a string's line breaks
/// are escaped.
pub fn inert_json(json: String) -> String {
    if json.contains("##[") {
        json.replace("##[", "##\\u005b")
    } else {
        json
    }
}

/// This run's token: 128 random bits in hexadecimal, read once from the system's random
/// source; nothing in the input can predict it.
pub fn stop_token() -> &'static str {
    static TOKEN: OnceLock<String> = OnceLock::new();
    TOKEN.get_or_init(|| {
        let bytes = random_bytes();
        bytes.iter().map(|byte| format!("{byte:02x}")).collect()
    })
}

fn random_bytes() -> [u8; 16] {
    let mut bytes = [0u8; 16];
    let read = std::fs::File::open("/dev/urandom").and_then(|mut file| file.read_exact(&mut bytes));
    if read.is_err() {
        // std seeds each RandomState's keys from the operating system's random source.
        use std::hash::{BuildHasher, Hasher};
        let state = std::collections::hash_map::RandomState::new();
        for (index, half) in bytes.chunks_mut(8).enumerate() {
            let mut hasher = state.build_hasher();
            hasher.write_usize(index);
            half.copy_from_slice(&hasher.finish().to_le_bytes());
        }
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    // The runner's parsing (actions/runner ActionCommand.TryParseV2): the command name and
    // properties end at the first `::` after the leading one; properties split at `,`.
    #[test]
    fn a_command_is_one_line_whose_properties_and_data_cannot_be_forged() {
        let line = command(
            "warning",
            &[("file", "a,b:c\n::error::x.yaml"), ("title", "fedrender")],
            "kind \"W\n::error::forged\r##[error]x\u{1b}[31m\" 100%",
            Some("first\nsecond\u{7}"),
        );
        assert_eq!(
            line,
            "::warning file=a%2Cb%3Ac\\n%3A%3Aerror%3A%3Ax.yaml,title=fedrender::kind \"W\\n::error::forged\\r##[error]x\\u{1b}[31m\" 100%25%0Afirst%0Asecond\\u{7}"
        );
        assert!(!line.contains(['\n', '\r', '\u{1b}']));
        let info = &line[2..line[2..].find("::").unwrap() + 2];
        assert_eq!(
            info,
            "warning file=a%2Cb%3Ac\\n%3A%3Aerror%3A%3Ax.yaml,title=fedrender"
        );
        assert_eq!(
            command("error", &[], "bad", None),
            "::error::bad",
            "no properties, no space"
        );
    }

    #[test]
    fn inert_text_is_wrapped_in_a_random_token_that_the_text_cannot_hold() {
        let token = stop_token();
        assert_eq!(token.len(), 32);
        assert!(token.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_eq!(token, stop_token(), "one token a run");
        assert_ne!(random_bytes(), random_bytes());
        assert_eq!(
            inert("::error::x\n##[error]y"),
            format!("::stop-commands::{token}\n::error::x\n##[error]y\n::{token}::\n")
        );
        assert_eq!(inert(""), "");
    }

    #[test]
    fn json_keeps_its_value_and_loses_the_command_prefix() {
        let value = serde_json::json!({"name": "##[error]x \\##[y"});
        let text = inert_json(value.to_string());
        assert!(!text.contains("##["), "{text}");
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&text).unwrap(),
            value
        );
    }
}
