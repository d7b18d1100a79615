//! Reading files into [`SourceFile`]s: the fleet's files, an inventory, a tool's declarations;
//! and reading a file again to point a message at a field's own line. Parsing the text
//! into documents is the engine's ([`fedrender_engine::documents`]).

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use fedrender_engine::diagnostics::{Diagnostic, Rejected};
use fedrender_engine::documents::{Format, SourceFile, format_of, is_rendered_output};

/// Reads the input files, leaving out fedrender's own output. A file that opens with the
/// header fedrender writes is a rendered manifest or kustomization, never a template: so a
/// rendered tree anywhere inside the input (`build . --out rendered`) is not read back, by
/// every command alike, wherever it sits and whatever `--out` says; a hand-written file
/// beside it is read, by every command alike.
pub fn read_input_files(paths: &[PathBuf]) -> Result<Vec<SourceFile>, Rejected> {
    let mut files = read_files(paths)?;
    files.retain(|file| !is_rendered_output(file));
    Ok(files)
}

/// Reads the files; every unreadable file is reported.
pub fn read_files(paths: &[PathBuf]) -> Result<Vec<SourceFile>, Rejected> {
    let results: Vec<Result<SourceFile, Diagnostic>> = paths
        .par_iter()
        .map(|path| {
            let display = path.display().to_string();
            let text = std::fs::read_to_string(path).map_err(|error| {
                Diagnostic::error(None, format!("cannot read {display}: {error}"))
            })?;
            let format = format_of(path).unwrap_or(Format::Yaml);
            Ok(SourceFile::new(display.into(), text, format))
        })
        .collect();
    collect_all(results)
}

/// A file read again, by the name it was read by, to point a late message at a field's own
/// line: only a regular file (not standard input, a tool's output or a file since gone).
pub fn read_again(file: &str) -> Option<String> {
    let path = Path::new(file);
    if !std::fs::metadata(path).is_ok_and(|metadata| metadata.is_file()) {
        return None;
    }
    std::fs::read_to_string(path).ok()
}

fn collect_all<T>(results: Vec<Result<T, Diagnostic>>) -> Result<Vec<T>, Rejected> {
    let mut values = Vec::new();
    let mut errors = Vec::new();
    for result in results {
        match result {
            Ok(value) => values.push(value),
            Err(error) => errors.push(error),
        }
    }
    if errors.is_empty() {
        Ok(values)
    } else {
        Err(errors.into())
    }
}
