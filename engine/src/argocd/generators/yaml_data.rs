//! YAML (and JSON) data as sigs.k8s.io/yaml `Unmarshal` reads it for a generator: numbers as
//! float64, keys as strings.

use serde_json::Value;

/// The one document of `text` as JSON (`null` when there is none). Argo CD reads only the first
/// document of a stream and drops the others without a word; fedrender refuses a second one
/// rather than render what its author did not see.
pub fn parse(text: &str) -> Result<Value, String> {
    let documents = crate::yaml::split_documents(text);
    match documents.as_slice() {
        [] => Ok(Value::Null),
        [document] => {
            crate::yaml::parse_document_as_yaml_to_json(document, "").map_err(|d| d.message)
        }
        [_, second, ..] => Err(format!(
            "holds {} YAML documents; Argo CD reads only the first and ignores the rest (the second starts on line {}), so put each in its own file or one list",
            documents.len(),
            line_of(text, second.text)
        )),
    }
}

fn line_of(stream: &str, part: &str) -> usize {
    let offset = part.as_ptr() as usize - stream.as_ptr() as usize;
    stream[..offset].matches('\n').count() + 1
}
