//! Reading the checkouts that stand for the Git repositories an Argo CD fleet names
//! (`spec.argocd.repositories`), whole, into memory: the engine's generators and sources read
//! them as Argo CD's repo server reads a clone.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::source::command_defaults::ArgoCdCheckouts;
use fedrender_engine::argocd::kustomize_options::EditedKustomization;
use fedrender_engine::argocd::repositories::{Repositories, Repository};
use fedrender_engine::diagnostics::{Diagnostic, Rejected};

/// A file larger than this is left out of a checkout: no generator's file, values file or
/// manifest is near it, and the repository may hold images and archives nobody renders.
const MAX_FILE_BYTES: u64 = 4 << 20;

/// Every checkout read: each regular file beneath its directory but `.git`'s (dotfiles such as
/// `.argocd-source.yaml` included), by its path from the checkout's root. A symbolic link is
/// not followed (a link could lead out of the repository); a file too large is left out.
pub fn read_checkouts(checkouts: &ArgoCdCheckouts) -> Result<Repositories, Rejected> {
    let mut repositories = Vec::new();
    for checkout in &checkouts.repositories {
        let files = read_checkout(&checkout.dir)?;
        repositories.push(Repository::new(
            checkout.url.clone(),
            checkout.dir.display().to_string(),
            checkout.origin.clone(),
            files,
        ));
    }
    Ok(Repositories::new(repositories))
}

fn read_checkout(dir: &Path) -> Result<BTreeMap<String, Vec<u8>>, Rejected> {
    let cannot_read = |what: &Path, error: &dyn std::fmt::Display| {
        Rejected::from(Diagnostic::error(
            None,
            format!("cannot read {}: {error}", what.display()),
        ))
    };
    let mut files = BTreeMap::new();
    let walker = walkdir::WalkDir::new(dir)
        .follow_links(false)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|entry| entry.depth() == 0 || entry.file_name() != ".git");
    for entry in walker {
        let entry = entry.map_err(|error| cannot_read(dir, &error))?;
        if !entry.file_type().is_file() {
            continue;
        }
        let metadata = entry
            .metadata()
            .map_err(|error| cannot_read(entry.path(), &error))?;
        if metadata.len() > MAX_FILE_BYTES {
            continue;
        }
        let relative = entry.path().strip_prefix(dir).unwrap_or(entry.path());
        let path = relative
            .components()
            .map(|component| component.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/");
        let bytes =
            std::fs::read(entry.path()).map_err(|error| cannot_read(entry.path(), &error))?;
        files.insert(path, bytes);
    }
    Ok(files)
}

/// Copies of checkouts, in a temporary directory removed when this is dropped, in which an
/// Application's kustomize options are built: Argo CD edits the kustomization in its clone
/// (`kustomize edit`), and fedrender never writes the fleet's files, so each distinct edited
/// kustomization gets a copy of its checkout with the edit written in.
pub struct StagedCheckouts {
    root: PathBuf,
    staged: Vec<(String, String, String)>,
}

impl StagedCheckouts {
    /// An empty staging directory of this process's own.
    pub fn new() -> Result<Self, Rejected> {
        static STAGINGS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let root = std::env::temp_dir().join(format!(
            "fedrender-argocd-{}-{}",
            std::process::id(),
            STAGINGS.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).map_err(|error| {
            Rejected::from(Diagnostic::error(
                None,
                format!("cannot create {}: {error}", root.display()),
            ))
        })?;
        Ok(StagedCheckouts {
            root,
            staged: Vec::new(),
        })
    }

    /// The staging directory, which every staged build is confined to.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The copy of `checkout` holding `edited`, made on first asking: the directory that
    /// stands for `checkout` in it.
    pub fn stage(
        &mut self,
        checkout: &str,
        edited: &EditedKustomization,
    ) -> Result<PathBuf, Rejected> {
        let key = (
            checkout.to_string(),
            edited.file.clone(),
            edited.text.clone(),
        );
        if let Some(index) = self.staged.iter().position(|staged| *staged == key) {
            return Ok(self.root.join(index.to_string()));
        }
        let copy = self.root.join(self.staged.len().to_string());
        let cannot = |what: &Path, error: &dyn std::fmt::Display| {
            Rejected::from(Diagnostic::error(
                None,
                format!("cannot stage {}: {error}", what.display()),
            ))
        };
        let files = read_checkout(Path::new(checkout))?;
        for (path, bytes) in files {
            let target = copy.join(&path);
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent).map_err(|error| cannot(parent, &error))?;
            }
            std::fs::write(&target, bytes).map_err(|error| cannot(&target, &error))?;
        }
        let file = copy.join(&edited.file);
        std::fs::write(&file, &edited.text).map_err(|error| cannot(&file, &error))?;
        self.staged.push(key);
        Ok(copy)
    }

    /// `text` with every staged copy's path written as the checkout it copies, so that a
    /// message names the fleet's files.
    pub fn unstaged(&self, text: &str) -> String {
        let mut text = text.to_string();
        for (index, (checkout, _, _)) in self.staged.iter().enumerate().rev() {
            let copy = self.root.join(index.to_string());
            text = text.replace(&copy.display().to_string(), checkout);
        }
        text
    }
}

impl Drop for StagedCheckouts {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}
