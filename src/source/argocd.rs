//! Reading the checkouts that stand for the Git repositories an Argo CD fleet names
//! (`spec.argocd.repositories`), whole, into memory: the engine's generators and sources read
//! them as Argo CD's repo server reads a clone.

use std::collections::BTreeMap;
use std::path::Path;

use crate::source::command_defaults::ArgoCdCheckouts;
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
