//! The loader on one file of any text: splitting into documents, YAML or JSON parsing, List
//! flattening, writing each document back as YAML, and the index of field lines that messages
//! use. Nothing may panic, overflow the stack or take more than linear time, whatever the text,
//! and every field line lies within the file.
//!
//! The first byte chooses the format (even: YAML, odd: JSON); the rest is the file.

#![no_main]

use fedrender_engine::documents::{Format, SourceFile, parse_files};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, text)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(text) else {
        return;
    };
    let (path, format) = if selector % 2 == 0 {
        ("fuzz.yaml", Format::Yaml)
    } else {
        ("fuzz.json", Format::Json)
    };
    let file = SourceFile {
        path: path.into(),
        text: text.to_string(),
        format,
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
        let origin = fields.origin(&document.origin, "spec.placement.clusterAffinity.clusterNames[0]");
        assert!(
            (1..=lines_in_file).contains(&origin.line),
            "line {} of a {lines_in_file}-line file",
            origin.line
        );
    }
});
