//! A committed output tree, as `diff --against DIR` reads it: the engine's
//! [`RenderedTree`] over a directory handle, so that no link the pull request committed leads
//! a read elsewhere on the machine.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use fedrender_engine::diagnostics::{Diagnostic, Rejected};
use fedrender_engine::diff::RenderedTree;

use crate::beneath::Directory;
use crate::source::load::{read_rendered_file, read_rendered_tree};

/// The tree under `dir`, opened once.
pub struct RenderedDirectory {
    dir: PathBuf,
    handle: Directory,
}

impl RenderedDirectory {
    /// Opens the tree; one that is not a directory is an error.
    pub fn open(dir: &Path) -> Result<RenderedDirectory, Rejected> {
        let handle = Directory::open(dir)
            .map_err(|error| Diagnostic::error(None, format!("{}: {error}", dir.display())))?
            .ok_or_else(|| {
                Diagnostic::error(None, format!("{} is not a directory", dir.display()))
            })?;
        Ok(RenderedDirectory {
            dir: dir.to_path_buf(),
            handle,
        })
    }
}

impl RenderedTree for RenderedDirectory {
    fn file(&self, path: &str) -> Result<Option<Vec<u8>>, Rejected> {
        read_rendered_file(&self.handle, path)
    }

    fn files(&self, skip: &dyn Fn(&str) -> bool) -> Result<BTreeMap<String, Arc<str>>, Rejected> {
        read_rendered_tree(&self.dir, skip)
    }

    fn directories(&self) -> Result<Vec<String>, Rejected> {
        let cannot_read = |error: std::io::Error| {
            Diagnostic::error(None, format!("{}: {error}", self.dir.display()))
        };
        Ok(std::fs::read_dir(&self.dir)
            .map_err(cannot_read)?
            .filter_map(Result::ok)
            .filter(|entry| entry.file_type().is_ok_and(|kind| kind.is_dir()))
            .filter_map(|entry| entry.file_name().into_string().ok())
            .collect())
    }
}
