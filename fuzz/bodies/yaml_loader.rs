//! What `fuzz_targets/yaml_loader.rs` does with an input, which `engine/tests/fuzz_seeds.rs`
//! replays on every seed: the loader on one file of any text (splitting into documents, YAML or
//! JSON parsing, List flattening), each document written back as YAML, and the index of field
//! lines that messages use. Nothing may panic, and every field line lies within the file.
//!
//! The first byte chooses the format (even: YAML, odd: JSON); the rest is the file.

use fedrender_engine::documents::{Format, SourceFile, parse_files};

/// Whether `data` reached the loader; panics where a check fails.
pub fn run(data: &[u8]) -> bool {
    let Some((&selector, text)) = data.split_first() else {
        return false;
    };
    let Ok(text) = std::str::from_utf8(text) else {
        return false;
    };
    let (path, format) = if selector % 2 == 0 {
        ("fuzz.yaml", Format::Yaml)
    } else {
        ("fuzz.json", Format::Json)
    };
    // As the text is, a byte-order mark and all: the parser takes what it is given.
    let file = SourceFile {
        path: path.into(),
        text: text.to_string(),
        format,
        written_at: Vec::new(),
    };
    let (documents, _errors) = parse_files(std::slice::from_ref(&file));
    // Lines as YAML counts them: a lone carriage return, NEL, LS and PS end a line too.
    let lines_in_file = text
        .replace("\r\n", "\n")
        .chars()
        .filter(|c| matches!(c, '\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}'))
        .count() as u64
        + 1;
    for document in &documents {
        let written = fedrender_engine::yaml::to_yaml(&document.value);
        assert!(written.ends_with('\n'));
        let fields = document.field_lines(std::slice::from_ref(&file));
        let origin = fields.origin(
            &document.origin,
            "spec.placement.clusterAffinity.clusterNames[0]",
        );
        assert!(
            (1..=lines_in_file).contains(&origin.line),
            "line {} of a {lines_in_file}-line file",
            origin.line
        );
    }
    true
}
