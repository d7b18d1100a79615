//! For the reader's tests: every YAML file of the repository's example and test fleets
//! (`examples/`, `testdata/` beside the engine), with its text. The engine reads no file; its
//! tests read the repository's own test data.

use std::path::{Path, PathBuf};

/// Each `.yaml` and `.yml` file under the repository's `examples/` and `testdata/` (links not
/// followed into directories), with its text; a file that cannot be read as text is left out.
#[allow(clippy::disallowed_methods)] // The repository's test data, read by tests only.
pub(crate) fn yaml_files() -> Vec<(PathBuf, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    let mut pending: Vec<PathBuf> = ["examples", "testdata"]
        .iter()
        .map(|directory| root.join(directory))
        .collect();
    while let Some(directory) = pending.pop() {
        for entry in std::fs::read_dir(&directory).unwrap() {
            let entry = entry.unwrap();
            let path = entry.path();
            if entry.file_type().unwrap().is_dir() {
                pending.push(path);
                continue;
            }
            if !matches!(
                path.extension().and_then(|e| e.to_str()),
                Some("yaml" | "yml")
            ) {
                continue;
            }
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            files.push((path, text));
        }
    }
    files.sort();
    files
}
