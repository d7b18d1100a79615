//! Writing the output tree: the only code that writes files. A rebuild writes only files whose
//! bytes changed, removes the files fedrender wrote before that are no longer rendered, and
//! never touches a file it did not write (recognised by [`HEADER`](super::HEADER)).

use std::collections::BTreeMap;
use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

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
/// file, when a planned file exists but was not written by fedrender.
pub fn compare_with_disk(out: &Path, tree: &OutputTree) -> Result<TreeChanges, Rejected> {
    let existing = existing_files(out)?;
    let mut changes = TreeChanges::default();
    let mut errors = Vec::new();
    for (path, contents) in &tree.files {
        match existing.get(path) {
            None => changes.write.push(path.clone()),
            Some(Existing::Foreign) => errors.push(Diagnostic::error(
                None,
                format!(
                    "refusing to overwrite {}: it was not written by fedrender",
                    out.join(path).display()
                ),
            )),
            Some(Existing::Ours) => {
                if fs::read(out.join(path)).map_err(|error| io_error(&out.join(path), error))?
                    == contents.as_bytes()
                {
                    changes.unchanged.push(path.clone());
                } else {
                    changes.write.push(path.clone());
                }
            }
        }
    }
    for (path, kind) in &existing {
        if *kind == Existing::Ours && !tree.files.contains_key(path) {
            changes.remove.push(path.clone());
        }
    }
    if errors.is_empty() {
        Ok(changes)
    } else {
        Err(errors.into())
    }
}

/// Applies the changes: writes each changed file atomically (a temporary file renamed into
/// place), removes stale files and the directories they leave empty.
pub fn apply(out: &Path, tree: &OutputTree, changes: &TreeChanges) -> Result<(), Rejected> {
    for path in &changes.write {
        let target = out.join(path);
        let parent = target.parent().unwrap_or(out);
        fs::create_dir_all(parent).map_err(|error| io_error(parent, error))?;
        let file_name = target.file_name().unwrap_or_default().to_string_lossy();
        let temporary = parent.join(format!(".{file_name}.fedrender-tmp"));
        fs::write(&temporary, tree.files[path].as_bytes())
            .map_err(|error| io_error(&temporary, error))?;
        fs::rename(&temporary, &target).map_err(|error| io_error(&target, error))?;
    }
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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Existing {
    Ours,
    Foreign,
}

/// Every regular file under `out`, and whether fedrender wrote it.
fn existing_files(out: &Path) -> Result<BTreeMap<String, Existing>, Rejected> {
    let mut files = BTreeMap::new();
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
        let relative: PathBuf = entry
            .path()
            .strip_prefix(out)
            .unwrap_or(entry.path())
            .to_path_buf();
        let Some(relative) = relative.to_str().map(|path| path.replace('\\', "/")) else {
            continue;
        };
        let kind =
            if starts_with_header(entry.path()).map_err(|error| io_error(entry.path(), error))? {
                Existing::Ours
            } else {
                Existing::Foreign
            };
        files.insert(relative, kind);
    }
    Ok(files)
}

fn starts_with_header(path: &Path) -> io::Result<bool> {
    let mut buffer = vec![0u8; HEADER.len()];
    let mut file = fs::File::open(path)?;
    let mut filled = 0;
    while filled < buffer.len() {
        let read = file.read(&mut buffer[filled..])?;
        if read == 0 {
            return Ok(false);
        }
        filled += read;
    }
    Ok(buffer == HEADER.as_bytes())
}

fn io_error(path: &Path, error: io::Error) -> Rejected {
    Diagnostic::error(None, format!("{}: {error}", path.display())).into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn tree(files: &[(&str, &str)]) -> OutputTree {
        OutputTree {
            files: files
                .iter()
                .map(|(path, text)| {
                    (
                        path.to_string(),
                        Arc::<str>::from(format!("{HEADER}{text}")),
                    )
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
