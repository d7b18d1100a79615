//! Writing the output tree: the only code that writes files. A rebuild writes only files whose
//! bytes changed, removes the files fedrender wrote before that are no longer rendered, and
//! never touches a file it did not write (recognised by [`HEADER`](super::HEADER)).

use std::collections::BTreeMap;
use std::fs;
use std::io;

use rayon::prelude::*;
use std::path::Path;

#[cfg(test)]
use super::OutputFile;
use super::{HEADER, OutputTree};
use crate::diagnostics::{Diagnostic, Rejected};

/// What a rebuild would change, file by file, relative to the output directory.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct TreeChanges {
    /// Files to create or rewrite.
    pub write: Vec<String>,
    /// Files that already hold the right bytes.
    pub unchanged: Vec<String>,
    /// Files fedrender wrote earlier that are no longer rendered.
    pub remove: Vec<String>,
}

impl TreeChanges {
    pub fn is_empty(&self) -> bool {
        self.write.is_empty() && self.remove.is_empty()
    }
}

/// Compares the planned tree with what is on disk, changing nothing. Fails, naming every such
/// file, when a planned file exists but was not written by fedrender. Each existing file is read
/// once, in parallel.
pub fn compare_with_disk(out: &Path, tree: &OutputTree) -> Result<TreeChanges, Rejected> {
    let existing = existing_files(out)?;
    let states: Vec<Result<(String, Existing), Rejected>> = existing
        .par_iter()
        .map(|path| {
            let full = out.join(path);
            let bytes = fs::read(&full).map_err(|error| io_error(&full, error))?;
            let state = if !bytes.starts_with(HEADER.as_bytes()) {
                Existing::Foreign
            } else if tree
                .files
                .get(path)
                .is_some_and(|planned| planned.text.as_bytes() == bytes)
            {
                Existing::Same
            } else {
                Existing::Different
            };
            Ok((path.clone(), state))
        })
        .collect();
    let mut on_disk = BTreeMap::new();
    let mut errors = Vec::new();
    for state in states {
        match state {
            Ok((path, state)) => {
                on_disk.insert(path, state);
            }
            Err(rejected) => errors.extend(rejected.errors),
        }
    }
    let mut changes = TreeChanges::default();
    for path in tree.files.keys() {
        match on_disk.get(path) {
            None | Some(Existing::Different) => changes.write.push(path.clone()),
            Some(Existing::Same) => changes.unchanged.push(path.clone()),
            Some(Existing::Foreign) => errors.push(Diagnostic::error(
                None,
                format!(
                    "refusing to overwrite {}: it was not written by fedrender",
                    out.join(path).display()
                ),
            )),
        }
    }
    for (path, state) in &on_disk {
        if *state != Existing::Foreign && !tree.files.contains_key(path) {
            changes.remove.push(path.clone());
        }
    }
    if errors.is_empty() {
        Ok(changes)
    } else {
        Err(errors.into())
    }
}

/// Applies the changes, in parallel: a new file is written in place; a changed one is replaced
/// atomically (a temporary file renamed over it), so an interrupted rebuild never leaves a
/// half-written version of a file that was good. Then stale files are removed with the
/// directories they leave empty.
pub fn apply(out: &Path, tree: &OutputTree, changes: &TreeChanges) -> Result<(), Rejected> {
    let mut directories: Vec<&Path> = changes
        .write
        .iter()
        .filter_map(|path| Path::new(path).parent())
        .collect();
    directories.dedup();
    for directory in directories {
        let full = out.join(directory);
        fs::create_dir_all(&full).map_err(|error| io_error(&full, error))?;
    }
    changes.write.par_iter().try_for_each(|path| {
        let target = out.join(path);
        let contents = tree.files[path].text.as_bytes();
        match fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&target)
        {
            Ok(mut file) => {
                return io::Write::write_all(&mut file, contents)
                    .map_err(|error| io_error(&target, error));
            }
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {}
            Err(error) => return Err(io_error(&target, error)),
        }
        let parent = target.parent().unwrap_or(out);
        let file_name = target.file_name().unwrap_or_default().to_string_lossy();
        let temporary = parent.join(format!(".{file_name}.fedrender-tmp"));
        fs::write(&temporary, contents).map_err(|error| io_error(&temporary, error))?;
        fs::rename(&temporary, &target).map_err(|error| io_error(&target, error))
    })?;
    for path in &changes.remove {
        let target = out.join(path);
        fs::remove_file(&target).map_err(|error| io_error(&target, error))?;
        let mut directory = target.parent();
        while let Some(dir) = directory {
            if dir == out || fs::remove_dir(dir).is_err() {
                break;
            }
            directory = dir.parent();
        }
    }
    Ok(())
}

/// What an existing file is to the planned tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Existing {
    /// Written by fedrender, with the planned bytes.
    Same,
    /// Written by fedrender, not (or no longer) as planned.
    Different,
    /// Not written by fedrender: never touched.
    Foreign,
}

/// Every regular file under `out`, relative to it.
fn existing_files(out: &Path) -> Result<Vec<String>, Rejected> {
    let mut files = Vec::new();
    if !out.exists() {
        return Ok(files);
    }
    if !out.is_dir() {
        return Err(Diagnostic::error(
            None,
            format!("{} exists and is not a directory", out.display()),
        )
        .into());
    }
    for entry in walkdir::WalkDir::new(out).sort_by_file_name() {
        let entry = entry.map_err(|error| {
            Diagnostic::error(None, format!("cannot read {}: {error}", out.display()))
        })?;
        if !entry.file_type().is_file() {
            continue;
        }
        let relative = entry.path().strip_prefix(out).unwrap_or(entry.path());
        if let Some(relative) = relative.to_str() {
            files.push(relative.replace('\\', "/"));
        }
    }
    Ok(files)
}

fn io_error(path: &Path, error: io::Error) -> Rejected {
    Diagnostic::error(None, format!("{}: {error}", path.display())).into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;
    use std::sync::Arc;

    fn tree(files: &[(&str, &str)]) -> OutputTree {
        OutputTree {
            files: files
                .iter()
                .map(|(path, text)| {
                    let file = OutputFile {
                        text: Arc::<str>::from(format!("{HEADER}{text}")),
                        object: None,
                    };
                    (path.to_string(), file)
                })
                .collect(),
            ..OutputTree::default()
        }
    }

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("fedrender-tree-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn a_rebuild_writes_only_changes_and_removes_only_its_own_stale_files() {
        let out = scratch("rebuild");
        let first = tree(&[
            ("a/kustomization.yaml", "k"),
            ("a/ns/x.yaml", "x"),
            ("a/ns/y.yaml", "y"),
        ]);
        let changes = compare_with_disk(&out, &first).unwrap();
        assert_eq!(changes.write.len(), 3);
        apply(&out, &first, &changes).unwrap();
        fs::write(out.join("a/notes.txt"), "mine").unwrap();

        let second = tree(&[("a/kustomization.yaml", "k"), ("a/ns/x.yaml", "x2")]);
        let changes = compare_with_disk(&out, &second).unwrap();
        assert_eq!(changes.write, vec!["a/ns/x.yaml"]);
        assert_eq!(changes.unchanged, vec!["a/kustomization.yaml"]);
        assert_eq!(changes.remove, vec!["a/ns/y.yaml"]);
        apply(&out, &second, &changes).unwrap();
        assert!(!out.join("a/ns/y.yaml").exists());
        assert_eq!(fs::read_to_string(out.join("a/notes.txt")).unwrap(), "mine");
        assert!(compare_with_disk(&out, &second).unwrap().is_empty());

        let gone = tree(&[("b/kustomization.yaml", "k")]);
        let changes = compare_with_disk(&out, &gone).unwrap();
        apply(&out, &gone, &changes).unwrap();
        assert!(
            !out.join("a/ns").exists(),
            "emptied directories are removed"
        );
        assert!(out.join("a/notes.txt").exists());
        fs::remove_dir_all(&out).unwrap();
    }

    #[test]
    fn a_file_not_written_by_fedrender_is_never_overwritten() {
        let out = scratch("foreign");
        fs::create_dir_all(out.join("a")).unwrap();
        fs::write(out.join("a/kustomization.yaml"), "hand written\n").unwrap();
        let error = compare_with_disk(&out, &tree(&[("a/kustomization.yaml", "k")])).unwrap_err();
        assert!(
            error.to_string().contains("refusing to overwrite"),
            "{error}"
        );
        assert_eq!(
            fs::read_to_string(out.join("a/kustomization.yaml")).unwrap(),
            "hand written\n"
        );
        fs::remove_dir_all(&out).unwrap();
    }
}
