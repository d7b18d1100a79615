//! Writing the output tree: the only code that writes files. A build streams: each object is
//! compared with its file on disk as soon as it is rendered, so memory never holds the whole
//! rendered fleet. A build writes only files whose bytes changed, removes the files fedrender
//! wrote before that are no longer rendered, never touches a file it did not write (recognised
//! by [`HEADER`]), and leaves the output directory as it was when anything fails
//! before the commit starts replacing files.
//!
//! The tree is often committed by whoever opens a pull request, so nothing in it is trusted:
//! every file is reached from the output directory's handle without following a symbolic link
//! ([`Directory`]); every file is written under a staging name and renamed into place, so a
//! killed build leaves complete files and staging files the next build removes; a lock keeps
//! two builds out of one tree.

use std::collections::HashSet;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;
use rustix::fs::FileType;

use crate::beneath::{Directory, Existing, Times};
use crate::interrupt;
use fedrender_engine::diagnostics::{Diagnostic, Rejected};
use fedrender_engine::manifest::HEADER;
use fedrender_engine::output::{TreeFile, TreeLayout};
use fedrender_engine::progress::{Progress, Stage};
use fedrender_engine::work::RenderedTemplate;

/// What a build changed (or, checking, would change), file by file.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct TreeChanges {
    /// Files created or rewritten, in no particular order.
    pub write: Vec<TreeFile>,
    /// How many files already held the right bytes.
    pub unchanged: usize,
    /// Files fedrender wrote earlier that are no longer rendered, relative to the output
    /// directory, sorted.
    pub remove: Vec<String>,
}

impl TreeChanges {
    pub fn is_empty(&self) -> bool {
        self.write.is_empty() && self.remove.is_empty()
    }

    /// The files written, relative to the output directory, sorted.
    pub fn write_paths(&self, layout: &TreeLayout) -> Vec<String> {
        let mut paths: Vec<String> = self.write.iter().map(|&file| layout.path(file)).collect();
        paths.sort_unstable();
        paths
    }
}

/// Whether the build writes or only finds what it would change (`build --check`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Check,
    Write,
}

/// An output tree being brought up to date, object by object. A new file is written under its
/// staging name and renamed into place at once; a changed one waits under its staging name and
/// is renamed over its target only by [`commit`](TreeWriter::commit), so that until then every
/// file that was there is intact and [`roll_back`](TreeWriter::roll_back) can remove what the
/// build added.
#[derive(Debug)]
pub struct TreeWriter<'a> {
    out: &'a Path,
    /// The output directory, locked; `None` only when checking one that does not exist.
    root: Option<Directory>,
    layout: &'a TreeLayout,
    mode: Mode,
    /// Directories this build created, relative to `out`. Nothing in them can be stale or
    /// need comparing, so a cold build only creates files.
    created_directories: HashSet<String>,
    /// `out` and those of its ancestors this build created, deepest first.
    created_out: Vec<PathBuf>,
    /// Every directory the layout puts files in, relative to `out` (writing only).
    layout_directories: HashSet<String>,
    /// The times of the directories that were there, relative to `out`, to put back after a
    /// roll back (creating and removing entries changes a directory's modification time).
    directory_times: Vec<(String, Times)>,
    log: Mutex<WriteLog>,
    unchanged: AtomicUsize,
    /// Where the files written and the writing stage are counted, for the progress line.
    progress: Progress,
}

/// Compact, because a cold build of a large fleet creates millions of files.
#[derive(Debug, Default)]
struct WriteLog {
    /// Files created where none was.
    created: Vec<TreeFile>,
    /// Replacements waiting under their staging names for the commit.
    staged: Vec<TreeFile>,
    /// Checking, every file a build would write; writing, that is `created` and `staged`.
    to_write: Vec<TreeFile>,
}

/// How many files of one directory one worker takes at a time: it opens the directory once
/// for them, and long runs are still shared among the cores.
const FILES_PER_TASK: usize = 64;

impl<'a> TreeWriter<'a> {
    /// Opens and locks `out` for the layout: writing, creates the directories it lacks (and
    /// records them, to remove them again on failure).
    pub fn open(out: &'a Path, layout: &'a TreeLayout, mode: Mode) -> Result<Self, Rejected> {
        let mut created_out = Vec::new();
        let root = match Directory::open(out).map_err(|error| io_error(out, error))? {
            Some(root) => Some(root),
            None if mode == Mode::Check => None,
            None => {
                created_out = create_out(out)?;
                let opened = Directory::open(out).map_err(|error| io_error(out, error))?;
                Some(opened.ok_or_else(|| io_error(out, io::ErrorKind::NotFound.into()))?)
            }
        };
        if let Some(root) = &root {
            lock(root, mode)?;
        }
        let mut writer = TreeWriter {
            out,
            root,
            layout,
            mode,
            created_directories: HashSet::new(),
            created_out,
            layout_directories: HashSet::new(),
            directory_times: Vec::new(),
            log: Mutex::default(),
            unchanged: AtomicUsize::new(0),
            progress: Progress::default(),
        };
        if mode == Mode::Write
            && let Err(error) = writer.create_directories()
        {
            writer.roll_back();
            return Err(error);
        }
        Ok(writer)
    }

    /// Creates every directory the layout needs, each from its parent's handle, refusing a
    /// link (or anything else) where a directory should be.
    fn create_directories(&mut self) -> Result<(), Rejected> {
        let root = self
            .root
            .as_ref()
            .expect("writing opens the output directory");
        if self.created_out.is_empty() {
            let times = root.times().map_err(|error| io_error(self.out, error))?;
            self.directory_times.push((String::new(), times));
        }
        let mut directories: Vec<String> = Vec::new();
        for (file, _) in self.layout.wiring_files() {
            let path = self.layout.path(file);
            directories.extend(ancestors_and_self(split_parent(&path).0).map(str::to_string));
        }
        for cluster in 0..self.layout.clusters().len() {
            // Files are in path order, so a directory's files are adjacent.
            let mut last_parent = String::new();
            for file in self.layout.cluster_files(cluster) {
                let path = self.layout.path(file);
                let (parent, _) = split_parent(&path);
                if parent != last_parent {
                    last_parent = parent.to_string();
                    directories.extend(ancestors_and_self(parent).map(str::to_string));
                }
            }
        }
        // A parent sorts before its children.
        directories.sort_unstable();
        directories.dedup();
        self.layout_directories = directories.iter().cloned().collect();
        for directory in directories {
            let (parent, name) = split_parent(&directory);
            let opened_parent = self.open_existing(parent)?;
            let created = opened_parent
                .create_subdirectory(name)
                .map_err(|error| io_error(&self.out.join(&directory), error))?;
            if created {
                self.created_directories.insert(directory);
                continue;
            }
            let existing = opened_parent
                .subdirectory(name)
                .and_then(|found| found.ok_or_else(|| io::ErrorKind::NotFound.into()))
                .and_then(|found| found.times())
                .map_err(|error| io_error(&self.out.join(&directory), error))?;
            self.directory_times.push((directory, existing));
        }
        Ok(())
    }

    /// A directory of the tree that must exist by now (`""` is the output directory).
    fn open_existing(&self, relative: &str) -> Result<Directory, Rejected> {
        let root = self
            .root
            .as_ref()
            .expect("writing opens the output directory");
        let path = self.out.join(relative);
        root.descend(relative)
            .and_then(|found| found.ok_or_else(|| io::ErrorKind::NotFound.into()))
            .map_err(|error| io_error(&path, error))
    }

    /// Counts the files it writes, and its writing stage, in `progress`.
    pub fn recording_in(mut self, progress: Progress) -> Self {
        self.progress = progress;
        self
    }

    /// Brings the files of a chunk of rendered templates up to date (or notes what would
    /// change), each template with its object's position in the layout. The files go in path
    /// order, on every core: creating files directory by directory costs the file system far
    /// less than visiting a different cluster's directory for each file.
    pub fn put(&self, rendered: &[(usize, RenderedTemplate)]) -> Result<(), Rejected> {
        let mut files: Vec<(TreeFile, &str)> = rendered
            .iter()
            .flat_map(|(object, template)| {
                template.variants.iter().flat_map(move |variant| {
                    variant.clusters.iter().map(move |&cluster| {
                        (TreeFile::object(cluster, *object), &*variant.manifest)
                    })
                })
            })
            .collect();
        files.sort_unstable_by_key(|(file, _)| self.layout.path_order(*file));
        self.put_files(&files)
    }

    fn put_files(&self, files: &[(TreeFile, &str)]) -> Result<(), Rejected> {
        let files: Vec<(TreeFile, String, &str)> = files
            .iter()
            .map(|&(file, text)| (file, self.layout.path(file), text))
            .collect();
        let tasks: Vec<&[(TreeFile, String, &str)]> = files
            .chunk_by(|a, b| split_parent(&a.1).0 == split_parent(&b.1).0)
            .flat_map(|run| run.chunks(FILES_PER_TASK))
            .collect();
        tasks.par_iter().try_for_each(|task| {
            let (parent, _) = split_parent(&task[0].1);
            let fresh = self.created_directories.contains(parent);
            let directory = match &self.root {
                Some(root) => root
                    .descend(parent)
                    .map_err(|error| io_error(&self.out.join(parent), error))?,
                None => None,
            };
            task.iter().try_for_each(|(file, path, text)| {
                self.put_file(directory.as_ref(), fresh, *file, path, text)?;
                self.progress.file_written();
                Ok(())
            })
        })
    }

    fn put_file(
        &self,
        directory: Option<&Directory>,
        fresh: bool,
        file: TreeFile,
        path: &str,
        text: &str,
    ) -> Result<(), Rejected> {
        if let Some(signal) = interrupt::requested() {
            return Err(interrupt::interrupted(signal));
        }
        let (_, name) = split_parent(path);
        let target = self.out.join(path);
        let existing = match directory {
            Some(directory) if !fresh => directory
                .read(name)
                .map_err(|error| io_error(&target, error))?,
            _ => None,
        };
        let replacing = match existing {
            None => false,
            Some(Existing::File(bytes)) if bytes == text.as_bytes() => {
                self.unchanged.fetch_add(1, Ordering::Relaxed);
                return Ok(());
            }
            Some(Existing::File(bytes)) if bytes.starts_with(HEADER.as_bytes()) => true,
            Some(Existing::File(_)) => {
                return Err(not_ours(&target, "it was not written by fedrender"));
            }
            Some(Existing::Other(what)) => {
                return Err(not_ours(&target, &format!("it is {what}")));
            }
        };
        if self.mode == Mode::Check {
            self.lock_log().to_write.push(file);
            return Ok(());
        }
        let directory = directory.expect("writing creates every directory first");
        let staging = staging_name(name);
        write_staged(directory, &staging, text).map_err(|error| io_error(&target, error))?;
        if replacing {
            let mut log = self.lock_log();
            log.staged.push(file);
            return Ok(());
        }
        if let Err(error) = directory.rename(&staging, name) {
            let _ = directory.remove_file(&staging);
            return Err(io_error(&target, error));
        }
        let mut log = self.lock_log();
        log.created.push(file);
        Ok(())
    }

    fn lock_log(&self) -> std::sync::MutexGuard<'_, WriteLog> {
        self.log.lock().expect("no panic while the log is held")
    }

    /// Finishes a successful render: writes the kustomizations, puts every replacement in
    /// place and removes fedrender's files that are no longer rendered, with the directories
    /// they leave empty. Checking, only finds what that would change. How far it has got is
    /// recorded as the writing stage: the files put in place and removed, of all.
    pub fn commit(self) -> Result<TreeChanges, Rejected> {
        let layout = self.layout;
        let progress = self.progress.clone();
        progress.begin(Stage::Writing, 0);
        // A kustomization lists every file of its cluster: a few at a time, so that memory
        // never holds every cluster's list at once.
        let clusters: Vec<usize> = (0..layout.clusters().len()).collect();
        let kustomizations = clusters
            .chunks(rayon::current_num_threads() * 2)
            .try_for_each(|clusters| {
                let texts: Vec<(TreeFile, String)> = clusters
                    .par_iter()
                    .map(|&cluster| {
                        let file = TreeFile::kustomization(cluster);
                        (file, layout.kustomization(cluster))
                    })
                    .collect();
                let files: Vec<(TreeFile, &str)> = texts
                    .iter()
                    .map(|(file, text)| (*file, text.as_str()))
                    .collect();
                self.put_files(&files)
            })
            .and_then(|()| self.put_files(&layout.wiring_files().collect::<Vec<_>>()));
        // Everything that can be checked is checked before the first file is replaced.
        let stale = kustomizations.and_then(|()| {
            let staged: HashSet<String> = self
                .lock_log()
                .staged
                .iter()
                .map(|&file| staging_path(&layout.path(file)))
                .collect();
            self.find_stale(&staged)
        });
        let stale = stale.and_then(|stale| match interrupt::requested() {
            Some(signal) => Err(interrupt::interrupted(signal)),
            None => Ok(stale),
        });
        let (mut remove, empty_directories) = match stale {
            Ok(Stale { files, directories }) => (files, directories),
            Err(error) => {
                self.roll_back();
                return Err(error);
            }
        };
        let mut log = std::mem::take(&mut *self.lock_log());
        log.staged
            .sort_unstable_by_key(|&file| layout.path_order(file));
        progress.begin(Stage::Writing, log.staged.len() + remove.len());
        let replaced = || -> Result<(), Rejected> {
            let mut directories = DirectoryCache::default();
            for &file in &log.staged {
                let path = layout.path(file);
                let (parent, name) = split_parent(&path);
                directories
                    .get(&self, parent)?
                    .rename(&staging_name(name), name)
                    .map_err(|error| io_error(&self.out.join(&path), error))?;
                progress.advance(1);
            }
            if self.mode == Mode::Write {
                for path in &remove {
                    let (parent, name) = split_parent(path);
                    self.open_existing(parent)?
                        .remove_file(name)
                        .map_err(|error| io_error(&self.out.join(path), error))?;
                    self.remove_empty_directories(parent)?;
                    progress.advance(1);
                }
                for directory in &empty_directories {
                    self.remove_empty_directories(directory)?;
                }
            }
            Ok(())
        };
        // Renaming a file fedrender wrote over one it wrote, or removing one, fails only when
        // something else changes the directory meanwhile; the tree is then partly updated.
        if let Err(mut error) = replaced() {
            error.output_partly_updated = true;
            return Err(error);
        }
        remove.sort_unstable();
        let write = match self.mode {
            Mode::Check => log.to_write,
            Mode::Write => {
                let mut written = log.created;
                written.append(&mut log.staged);
                written
            }
        };
        Ok(TreeChanges {
            write,
            unchanged: self.unchanged.into_inner(),
            remove,
        })
    }

    /// fedrender's files in the tree that the layout no longer has, relative to `out`:
    /// files starting with the header, and whatever is at a staging name other than this
    /// build's (an interrupted or killed build's leftovers); and the empty directories the
    /// layout does not need (what a killed build created before the fleet changed).
    /// Directories this build created hold none; links and special files elsewhere are never
    /// fedrender's and are not followed.
    fn find_stale(&self, staged: &HashSet<String>) -> Result<Stale, Rejected> {
        let mut stale = Stale::default();
        if let Some(root) = &self.root {
            self.find_stale_in(root, "", staged, &mut stale)?;
        }
        Ok(stale)
    }

    /// [`find_stale`](Self::find_stale) in one directory; whether it is empty.
    fn find_stale_in(
        &self,
        directory: &Directory,
        relative: &str,
        staged: &HashSet<String>,
        stale: &mut Stale,
    ) -> Result<bool, Rejected> {
        let entries = directory
            .entries()
            .map_err(|error| io_error(directory.path(), error))?;
        let empty = entries.is_empty();
        for (name, kind) in entries {
            if relative.is_empty() && !self.layout.owns_top_level(&name) {
                continue;
            }
            let path = if relative.is_empty() {
                name.clone()
            } else {
                format!("{relative}/{name}")
            };
            if kind == FileType::Directory {
                if self.created_directories.contains(&path) {
                    continue;
                }
                let subdirectory = directory
                    .subdirectory(&name)
                    .map_err(|error| io_error(&self.out.join(&path), error))?;
                if let Some(subdirectory) = subdirectory
                    && self.find_stale_in(&subdirectory, &path, staged, stale)?
                    && self.mode == Mode::Write
                    && !self.layout_directories.contains(&path)
                {
                    stale.directories.push(path);
                }
            } else if is_staging_name(&name) {
                // Whatever sits at a staging name is fedrender's to remove (a link itself,
                // never its target).
                if !staged.contains(&path) {
                    stale.files.push(path);
                }
            } else if kind == FileType::RegularFile && !self.layout.holds(&path) {
                let start = directory
                    .read_at_most(&name, HEADER.len())
                    .map_err(|error| io_error(&self.out.join(&path), error))?;
                if start == Some(Existing::File(HEADER.as_bytes().to_vec())) {
                    stale.files.push(path);
                }
            }
        }
        Ok(empty)
    }

    /// Removes `directory` (relative to `out`) if it is empty, then each parent it leaves
    /// empty, up to the output directory.
    fn remove_empty_directories(&self, directory: &str) -> Result<(), Rejected> {
        let mut directory = directory;
        while !directory.is_empty() {
            let (above, name) = split_parent(directory);
            let removed = self
                .open_existing(above)?
                .remove_empty_subdirectory(name)
                .map_err(|error| io_error(&self.out.join(directory), error))?;
            if !removed {
                break;
            }
            directory = above;
        }
        Ok(())
    }

    /// Undoes a failed build: removes every file and directory it created and every
    /// replacement it staged, then puts back the times of the directories that were there.
    /// Files that were there are untouched until the commit.
    pub fn roll_back(self) {
        let log = std::mem::take(&mut *self.lock_log());
        let mut directories = DirectoryCache::default();
        let mut undo = |file: TreeFile, staged: bool| {
            let path = self.layout.path(file);
            let (parent, name) = split_parent(&path);
            if let Ok(directory) = directories.get(&self, parent) {
                let name = if staged {
                    staging_name(name)
                } else {
                    name.to_string()
                };
                let _ = directory.remove_file(&name);
            }
        };
        let mut created = log.created;
        created.sort_unstable_by_key(|&file| self.layout.path_order(file));
        for file in created {
            undo(file, false);
        }
        let mut staged = log.staged;
        staged.sort_unstable_by_key(|&file| self.layout.path_order(file));
        for file in staged {
            undo(file, true);
        }
        drop(directories);
        // Deepest first: a directory's path is longer than its parent's.
        let mut created_directories: Vec<&String> = self.created_directories.iter().collect();
        created_directories.sort_unstable_by_key(|directory| std::cmp::Reverse(directory.len()));
        for directory in created_directories {
            let (parent, name) = split_parent(directory);
            if let Ok(parent) = self.open_existing(parent) {
                let _ = parent.remove_empty_subdirectory(name);
            }
        }
        for (directory, times) in &self.directory_times {
            if let Ok(directory) = self.open_existing(directory) {
                let _ = directory.set_times(times);
            }
        }
        for directory in &self.created_out {
            let _ = fs::remove_dir(directory);
        }
    }
}

/// What a build removes at its commit, relative to the output directory.
#[derive(Debug, Default)]
struct Stale {
    files: Vec<String>,
    directories: Vec<String>,
}

/// The last directory opened, so that files in path order open each directory once.
#[derive(Default)]
struct DirectoryCache {
    last: Option<(String, Directory)>,
}

impl DirectoryCache {
    fn get(&mut self, writer: &TreeWriter<'_>, relative: &str) -> Result<&Directory, Rejected> {
        if self.last.as_ref().is_none_or(|(path, _)| path != relative) {
            self.last = Some((relative.to_string(), writer.open_existing(relative)?));
        }
        Ok(&self.last.as_ref().expect("just opened").1)
    }
}

/// Creates `out` and its missing ancestors; returns them deepest first. The ancestors are the
/// user's own path, so they are created as named; everything below `out` goes through handles.
fn create_out(out: &Path) -> Result<Vec<PathBuf>, Rejected> {
    // A relative `out` ends in the empty path, which is the working directory.
    let missing: Vec<&Path> = out
        .ancestors()
        .take_while(|dir| !dir.as_os_str().is_empty() && fs::symlink_metadata(dir).is_err())
        .collect();
    let mut created = Vec::new();
    for directory in missing.into_iter().rev() {
        match fs::create_dir(directory) {
            Ok(()) => created.push(directory.to_path_buf()),
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {}
            Err(error) => {
                for made in created.iter().rev() {
                    let _ = fs::remove_dir(made);
                }
                return Err(io_error(directory, error));
            }
        }
    }
    created.reverse();
    Ok(created)
}

/// Keeps two builds (or a build and a check) out of one tree at once. The lock is the output
/// directory's own (no lock file to leave behind), and is released when the process ends,
/// however it ends.
fn lock(root: &Directory, mode: Mode) -> Result<(), Rejected> {
    let out = root.path();
    let locked = root
        .try_lock(mode == Mode::Write)
        .map_err(|error| io_error(out, error))?;
    if !locked {
        return Err(Diagnostic::error(
            None,
            format!(
                "{} is in use by another fedrender build; run this one when it has finished",
                out.display()
            ),
        )
        .into());
    }
    // A build that created the directory and failed removes it; one that waited on it must
    // not write into a directory no longer there.
    if !root.is_at(out).map_err(|error| io_error(out, error))? {
        return Err(Diagnostic::error(
            None,
            format!("{} was replaced while it was being opened", out.display()),
        )
        .into());
    }
    Ok(())
}

/// Writes `text` to a new file at the staging name, first removing what an interrupted
/// build left there. A file that fails midway is removed.
fn write_staged(directory: &Directory, staging: &str, text: &str) -> io::Result<()> {
    let created = match directory.create_file(staging, text.as_bytes()) {
        Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {
            directory.remove_file(staging)?;
            directory.create_file(staging, text.as_bytes())
        }
        result => result,
    };
    if created.is_err() {
        let _ = directory.remove_file(staging);
    }
    created
}

/// `(directory, name)` of a path relative to the output directory; the directory of a
/// top-level entry is `""`.
fn split_parent(path: &str) -> (&str, &str) {
    path.rsplit_once('/').unwrap_or(("", path))
}

/// `a`, `a/b`, `a/b/c` for `a/b/c`.
fn ancestors_and_self(path: &str) -> impl Iterator<Item = &str> {
    path.match_indices('/')
        .map(move |(at, _)| &path[..at])
        .chain(std::iter::once(path))
}

const STAGING_SUFFIX: &str = ".fedrender-tmp";

/// Where a file is written before it is renamed into place: hidden, so that nothing that
/// reads the tree takes it for a manifest, and fedrender's by name alone, so that the next
/// build removes what a killed one left.
fn staging_name(name: &str) -> String {
    format!(".{name}{STAGING_SUFFIX}")
}

fn staging_path(path: &str) -> String {
    match split_parent(path) {
        ("", name) => staging_name(name),
        (parent, name) => format!("{parent}/{}", staging_name(name)),
    }
}

fn is_staging_name(name: &str) -> bool {
    name.starts_with('.') && name.ends_with(STAGING_SUFFIX)
}

fn not_ours(target: &Path, why: &str) -> Rejected {
    Diagnostic::error(
        None,
        format!("refusing to overwrite {}: {why}", target.display()),
    )
    .into()
}

fn io_error(path: &Path, error: io::Error) -> Rejected {
    let diagnostic = Diagnostic::error(None, format!("{}: {error}", path.display()));
    match (error.kind(), someone_elses_directory(path)) {
        (io::ErrorKind::PermissionDenied, Some((directory, owner))) => diagnostic
            .with_detail(format!(
                "fedrender runs as uid {} and {} belongs to uid {owner}; in a container, run it as \
                 the directory's owner: docker run --user \"$(id -u):$(id -g)\" …",
                rustix::process::geteuid().as_raw(),
                std::path::absolute(&directory)
                    .unwrap_or(directory)
                    .display(),
            ))
            .into(),
        _ => diagnostic.into(),
    }
}

/// The nearest existing directory above `path` (the one a new entry is created in), when it
/// belongs to another user. That is what a container image running as its own user (ours runs
/// as 65532) meets in a checkout mounted from the host, and the bare "Permission denied" does
/// not say it.
fn someone_elses_directory(path: &Path) -> Option<(PathBuf, u32)> {
    use std::os::unix::fs::MetadataExt;
    let directory = path
        .ancestors()
        .skip(1)
        .map(|dir| {
            if dir.as_os_str().is_empty() {
                Path::new(".")
            } else {
                dir
            }
        })
        .find(|dir| dir.is_dir())?;
    let owner = fs::metadata(directory).ok()?.uid();
    (owner != rustix::process::geteuid().as_raw()).then(|| (directory.to_path_buf(), owner))
}

#[cfg(test)]
mod tests {
    use super::*;
    use fedrender_engine::diagnostics::Origin;
    use fedrender_engine::object::ObjectKey;
    use fedrender_engine::render::Destination;
    use fedrender_engine::work::Variant;

    /// A ConfigMap `name` in namespace `ns` with its text and the clusters receiving it.
    type Planned<'a> = (&'a str, &'a str, &'a [usize]);

    fn config_map(name: &str) -> ObjectKey {
        ObjectKey {
            group: String::new(),
            kind: "ConfigMap".to_string(),
            namespace: "ns".to_string(),
            name: name.to_string(),
        }
    }

    /// The changes, with the files written as paths.
    #[derive(Debug)]
    struct Changes {
        write: Vec<String>,
        unchanged: usize,
        remove: Vec<String>,
    }

    /// Streams the objects into `out` as a build does; the object named `fail`, if any, fails
    /// to render after everything else was put.
    fn build(
        out: &Path,
        mode: Mode,
        clusters: &[&str],
        objects: &[Planned<'_>],
        fail: Option<&str>,
    ) -> Result<Changes, Rejected> {
        let keys: Vec<ObjectKey> = objects.iter().map(|(name, ..)| config_map(name)).collect();
        let origin = Origin::new("in.yaml", 0, 1);
        let destinations = keys
            .iter()
            .zip(objects)
            .map(|(key, (_, _, receivers))| Destination {
                key,
                origin: &origin,
                clusters: receivers.to_vec(),
            });
        let layout = TreeLayout::new(clusters, destinations)?;
        let writer = TreeWriter::open(out, &layout, mode)?;
        for (position, (key, (_, text, receivers))) in keys.iter().zip(objects).enumerate() {
            let rendered = RenderedTemplate {
                key: key.clone(),
                variants: vec![Variant {
                    manifest: format!("{HEADER}{text}\n").into(),
                    clusters: receivers.to_vec(),
                }],
            };
            if let Err(error) = writer.put(&[(position, rendered)]) {
                writer.roll_back();
                return Err(error);
            }
        }
        if let Some(name) = fail {
            writer.roll_back();
            return Err(Diagnostic::error(None, format!("{name} failed")).into());
        }
        let changes = writer.commit()?;
        Ok(Changes {
            write: changes.write_paths(&layout),
            unchanged: changes.unchanged,
            remove: changes.remove,
        })
    }

    /// The layout of one ConfigMap `x` sent to cluster `a`, with the ConfigMap's key.
    fn layout_of_x() -> (TreeLayout, ObjectKey) {
        let key = config_map("x");
        let origin = Origin::new("in.yaml", 0, 1);
        let destination = Destination {
            key: &key,
            origin: &origin,
            clusters: vec![0],
        };
        let layout = TreeLayout::new(&["a"], [destination]).unwrap();
        (layout, key)
    }

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("fedrender-tree-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    /// Every file under `dir` with its contents, to compare whole trees.
    fn snapshot(dir: &Path) -> Vec<(String, String)> {
        let mut files: Vec<(String, String)> = walkdir::WalkDir::new(dir)
            .min_depth(1)
            .into_iter()
            .map(|entry| entry.unwrap())
            .map(|entry| {
                let path = entry
                    .path()
                    .strip_prefix(dir)
                    .unwrap()
                    .display()
                    .to_string();
                let text = fs::read_to_string(entry.path()).unwrap_or_else(|_| "<dir>".into());
                (path, text)
            })
            .collect();
        files.sort();
        files
    }

    #[test]
    fn a_rebuild_writes_only_changes_and_removes_only_its_own_stale_files() {
        let out = scratch("rebuild");
        let first = [("x", "x", &[0][..]), ("y", "y", &[0][..])];
        let changes = build(&out, Mode::Write, &["a"], &first, None).unwrap();
        assert_eq!(
            changes.write,
            vec![
                "a/kustomization.yaml",
                "a/ns/configmap_x.yaml",
                "a/ns/configmap_y.yaml"
            ]
        );
        fs::write(out.join("a/notes.txt"), "mine").unwrap();

        let second = [("x", "x2", &[0][..])];
        let changes = build(&out, Mode::Write, &["a"], &second, None).unwrap();
        assert_eq!(
            changes.write,
            vec!["a/kustomization.yaml", "a/ns/configmap_x.yaml"]
        );
        assert_eq!(changes.unchanged, 0);
        assert_eq!(changes.remove, vec!["a/ns/configmap_y.yaml"]);
        assert!(!out.join("a/ns/configmap_y.yaml").exists());
        assert_eq!(
            fs::read_to_string(out.join("a/ns/configmap_x.yaml")).unwrap(),
            format!("{HEADER}x2\n")
        );
        assert_eq!(fs::read_to_string(out.join("a/notes.txt")).unwrap(), "mine");
        let again = build(&out, Mode::Write, &["a"], &second, None).unwrap();
        assert!(
            again.write.is_empty() && again.remove.is_empty(),
            "{again:?}"
        );
        assert_eq!(again.unchanged, 2);

        let changes = build(&out, Mode::Write, &["b"], &[], None).unwrap();
        assert_eq!(
            changes.remove,
            vec!["a/kustomization.yaml", "a/ns/configmap_x.yaml"]
        );
        assert!(
            !out.join("a/ns").exists(),
            "emptied directories are removed"
        );
        assert!(out.join("a/notes.txt").exists());
        fs::remove_dir_all(&out).unwrap();
    }

    #[test]
    fn checking_finds_the_changes_and_writes_nothing() {
        let out = scratch("check");
        build(&out, Mode::Write, &["a"], &[("x", "x", &[0])], None).unwrap();
        let before = snapshot(&out);
        let objects = [("x", "x2", &[0][..]), ("y", "y", &[0][..])];
        let changes = build(&out, Mode::Check, &["a", "b"], &objects, None).unwrap();
        assert_eq!(
            changes.write,
            vec![
                "a/kustomization.yaml",
                "a/ns/configmap_x.yaml",
                "a/ns/configmap_y.yaml",
                "b/kustomization.yaml"
            ]
        );
        assert_eq!(snapshot(&out), before);
        fs::remove_dir_all(&out).unwrap();
    }

    #[test]
    fn a_failed_build_leaves_the_output_directory_as_it_was() {
        let out = scratch("roll-back");
        build(&out, Mode::Write, &["a"], &[("x", "x", &[0])], None).unwrap();
        let before = snapshot(&out);
        // A changed file, a new file in a new cluster directory, then a failure.
        let objects = [("x", "x2", &[0][..]), ("y", "y", &[0, 1][..])];
        let error = build(&out, Mode::Write, &["a", "b"], &objects, Some("z")).unwrap_err();
        assert!(error.to_string().contains("z failed"), "{error}");
        assert_eq!(snapshot(&out), before);

        let fresh = scratch("roll-back-fresh");
        build(&fresh, Mode::Write, &["a", "b"], &objects, Some("z")).unwrap_err();
        assert!(!fresh.exists(), "an output directory it created is removed");
        fs::remove_dir_all(&out).unwrap();
    }

    #[test]
    fn a_file_not_written_by_fedrender_is_never_overwritten() {
        let out = scratch("foreign");
        fs::create_dir_all(out.join("a/ns")).unwrap();
        fs::write(out.join("a/ns/configmap_x.yaml"), "hand written\n").unwrap();
        let objects = [("w", "w", &[0][..]), ("x", "x", &[0][..])];
        let error = build(&out, Mode::Write, &["a"], &objects, None).unwrap_err();
        assert!(
            error.to_string().contains("refusing to overwrite"),
            "{error}"
        );
        assert_eq!(
            snapshot(&out),
            vec![
                ("a".to_string(), "<dir>".to_string()),
                ("a/ns".to_string(), "<dir>".to_string()),
                (
                    "a/ns/configmap_x.yaml".to_string(),
                    "hand written\n".to_string()
                ),
            ]
        );
        fs::remove_dir_all(&out).unwrap();
    }

    #[test]
    fn a_failure_once_files_are_being_replaced_says_the_tree_is_partly_updated() {
        let out = scratch("partly");
        build(&out, Mode::Write, &["a"], &[("x", "x", &[0])], None).unwrap();
        let (layout, key) = layout_of_x();
        let writer = TreeWriter::open(&out, &layout, Mode::Write).unwrap();
        let rendered = RenderedTemplate {
            key: key.clone(),
            variants: vec![Variant {
                manifest: format!("{HEADER}x2\n").into(),
                clusters: vec![0],
            }],
        };
        writer.put(&[(0, rendered)]).unwrap();
        // Another writer takes the staged replacement away before the commit renames it.
        fs::remove_file(out.join("a/ns/.configmap_x.yaml.fedrender-tmp")).unwrap();
        let error = writer.commit().unwrap_err();
        assert!(error.output_partly_updated, "{error}");
        fs::remove_dir_all(&out).unwrap();
    }

    #[test]
    fn an_interrupted_builds_temporary_file_is_removed_as_stale() {
        let out = scratch("leftover");
        build(&out, Mode::Write, &["a"], &[("x", "x", &[0])], None).unwrap();
        let leftover = out.join("a/ns/.configmap_x.yaml.fedrender-tmp");
        fs::write(&leftover, format!("{HEADER}half\n")).unwrap();
        let changes = build(&out, Mode::Write, &["a"], &[("x", "x", &[0])], None).unwrap();
        assert_eq!(changes.remove, vec!["a/ns/.configmap_x.yaml.fedrender-tmp"]);
        assert_eq!(
            fs::read_to_string(out.join("a/ns/configmap_x.yaml")).unwrap(),
            format!("{HEADER}x\n")
        );
        assert!(!leftover.exists());
        fs::remove_dir_all(&out).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_link_at_an_objects_path_is_never_replaced() {
        let out = scratch("link");
        fs::create_dir_all(out.join("a/ns")).unwrap();
        let link = out.join("a/ns/configmap_x.yaml");
        std::os::unix::fs::symlink("/nonexistent/mine.yaml", &link).unwrap();
        let error = build(&out, Mode::Write, &["a"], &[("x", "x", &[0])], None).unwrap_err();
        assert!(
            error.to_string().contains("refusing to overwrite"),
            "{error}"
        );
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        fs::remove_dir_all(&out).unwrap();
    }

    /// A directory outside the output tree with one file, and its bytes, to prove nothing
    /// there changes.
    #[cfg(unix)]
    fn outside(name: &str) -> (PathBuf, Vec<(String, String)>) {
        let dir = scratch(&format!("{name}-outside"));
        fs::create_dir_all(dir.join("ns")).unwrap();
        fs::write(dir.join("ns/configmap_x.yaml"), format!("{HEADER}theirs\n")).unwrap();
        let before = snapshot(&dir);
        (dir, before)
    }

    #[cfg(unix)]
    #[test]
    fn a_link_at_a_cluster_or_namespace_directory_is_refused_and_nothing_outside_changes() {
        use std::os::unix::fs::symlink;
        for (level, link_at, link_to) in [("cluster", "a", ""), ("namespace", "a/ns", "ns")] {
            let out = scratch(&format!("link-{level}"));
            let (target, before) = outside(&format!("link-{level}"));
            let link = out.join(link_at);
            fs::create_dir_all(link.parent().unwrap()).unwrap();
            symlink(target.join(link_to), &link).unwrap();
            let error = build(
                &out,
                Mode::Write,
                &["a"],
                &[("x", "x", &[0]), ("y", "y", &[0])],
                None,
            )
            .unwrap_err();
            assert!(error.to_string().contains("is a symbolic link"), "{error}");
            assert!(
                error.to_string().contains(&link.display().to_string()),
                "{error}"
            );
            assert_eq!(
                snapshot(&target),
                before,
                "{level}: nothing outside changes"
            );
            assert!(
                fs::symlink_metadata(&link)
                    .unwrap()
                    .file_type()
                    .is_symlink()
            );
            // Checking refuses it too, without reading through it.
            let error = build(&out, Mode::Check, &["a"], &[("x", "x", &[0])], None).unwrap_err();
            assert!(error.to_string().contains("is a symbolic link"), "{error}");
            fs::remove_dir_all(&out).unwrap();
            fs::remove_dir_all(&target).unwrap();
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_link_as_the_output_directory_itself_is_refused() {
        let (target, before) = outside("link-out");
        let out = scratch("link-out");
        std::os::unix::fs::symlink(&target, &out).unwrap();
        let error = build(&out, Mode::Write, &["a"], &[("x", "x", &[0])], None).unwrap_err();
        assert!(error.to_string().contains("is a symbolic link"), "{error}");
        assert_eq!(snapshot(&target), before);
        fs::remove_file(&out).unwrap();
        fs::remove_dir_all(&target).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_link_at_a_staging_name_is_replaced_not_written_through() {
        let out = scratch("link-staging");
        build(&out, Mode::Write, &["a"], &[("x", "x", &[0])], None).unwrap();
        let (target, before) = outside("link-staging");
        // One link where a replacement is staged, one where a new file is staged.
        for name in ["configmap_x.yaml", "configmap_y.yaml"] {
            let staging = out.join(format!("a/ns/.{name}.fedrender-tmp"));
            std::os::unix::fs::symlink(target.join("ns/configmap_x.yaml"), &staging).unwrap();
        }
        let objects = [("x", "x2", &[0][..]), ("y", "y", &[0][..])];
        build(&out, Mode::Write, &["a"], &objects, None).unwrap();
        assert_eq!(snapshot(&target), before, "nothing outside changes");
        for (name, text) in [("configmap_x.yaml", "x2"), ("configmap_y.yaml", "y")] {
            let path = out.join("a/ns").join(name);
            assert!(
                fs::symlink_metadata(&path).unwrap().is_file(),
                "{name} is a file"
            );
            assert_eq!(
                fs::read_to_string(&path).unwrap(),
                format!("{HEADER}{text}\n")
            );
        }
        let names: Vec<String> = fs::read_dir(out.join("a/ns"))
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(
            names.iter().all(|name| !name.ends_with(".fedrender-tmp")),
            "{names:?}"
        );
        fs::remove_dir_all(&out).unwrap();
        fs::remove_dir_all(&target).unwrap();
    }

    #[test]
    fn what_a_killed_build_leaves_is_cleaned_by_the_next_even_without_a_header() {
        let out = scratch("killed");
        build(&out, Mode::Write, &["a"], &[("x", "x", &[0])], None).unwrap();
        // Killed right after creating staging files: one for a new object, one for a
        // replacement, one for an object the next build no longer has; all empty. Before, it
        // had created the directories of a cluster and a namespace the fleet no longer has.
        for name in [
            "configmap_x.yaml",
            "configmap_new.yaml",
            "configmap_gone.yaml",
        ] {
            fs::write(out.join(format!("a/ns/.{name}.fedrender-tmp")), "").unwrap();
        }
        fs::create_dir_all(out.join("gone/ns")).unwrap();
        fs::create_dir_all(out.join("a/gone")).unwrap();
        // A directory of the user's with something in it stays.
        fs::create_dir_all(out.join("a/notes")).unwrap();
        fs::write(out.join("a/notes/todo.txt"), "mine").unwrap();
        let objects = [("new", "new", &[0][..]), ("x", "x2", &[0][..])];
        let changes = build(&out, Mode::Write, &["a"], &objects, None).unwrap();
        assert_eq!(
            changes.remove,
            vec!["a/ns/.configmap_gone.yaml.fedrender-tmp"]
        );
        let fresh = scratch("killed-fresh");
        build(&fresh, Mode::Write, &["a"], &objects, None).unwrap();
        fs::create_dir_all(fresh.join("a/notes")).unwrap();
        fs::write(fresh.join("a/notes/todo.txt"), "mine").unwrap();
        assert_eq!(
            snapshot(&out),
            snapshot(&fresh),
            "the same tree as a clean build"
        );
        fs::remove_dir_all(&out).unwrap();
        fs::remove_dir_all(&fresh).unwrap();
    }

    /// Modification times of every directory under `dir`, `dir` included.
    fn directory_times(dir: &Path) -> Vec<(PathBuf, std::time::SystemTime)> {
        walkdir::WalkDir::new(dir)
            .into_iter()
            .map(|entry| entry.unwrap())
            .filter(|entry| entry.file_type().is_dir())
            .map(|entry| {
                (
                    entry.path().to_path_buf(),
                    entry.metadata().unwrap().modified().unwrap(),
                )
            })
            .collect()
    }

    #[test]
    fn a_failed_build_puts_back_the_times_of_the_directories_it_wrote_in() {
        let out = scratch("times");
        build(&out, Mode::Write, &["a"], &[("x", "x", &[0])], None).unwrap();
        // Old times, so that any change shows whatever the file system's time resolution.
        let old = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000_000);
        for (directory, _) in directory_times(&out) {
            fs::File::open(&directory)
                .unwrap()
                .set_modified(old)
                .unwrap();
        }
        let before = directory_times(&out);
        // A replacement and a new file in the existing directory, a new namespace directory
        // and a new cluster directory, then a failure.
        let objects = [("x", "x2", &[0][..]), ("y", "y", &[0, 1][..])];
        build(&out, Mode::Write, &["a", "b"], &objects, Some("z")).unwrap_err();
        assert_eq!(directory_times(&out), before);
        fs::remove_dir_all(&out).unwrap();
    }

    #[test]
    fn a_second_build_into_a_tree_being_written_is_refused() {
        let out = scratch("lock");
        build(&out, Mode::Write, &["a"], &[("x", "x", &[0])], None).unwrap();
        let (layout, _) = layout_of_x();
        let first = TreeWriter::open(&out, &layout, Mode::Write).unwrap();
        for mode in [Mode::Write, Mode::Check] {
            let error = TreeWriter::open(&out, &layout, mode).unwrap_err();
            assert!(
                error
                    .to_string()
                    .contains("in use by another fedrender build"),
                "{error}"
            );
        }
        first.roll_back();
        TreeWriter::open(&out, &layout, Mode::Check).unwrap();
        fs::remove_dir_all(&out).unwrap();
    }

    #[test]
    fn long_names_are_written_split_and_removed_with_their_directories() {
        let out = scratch("long");
        let long = "n".repeat(253);
        let objects = [(long.as_str(), "long", &[0][..])];
        let changes = build(&out, Mode::Write, &["a"], &objects, None).unwrap();
        let path = changes
            .write
            .iter()
            .find(|path| path.contains("~/~"))
            .unwrap()
            .clone();
        assert_eq!(
            fs::read_to_string(out.join(&path)).unwrap(),
            format!("{HEADER}long\n")
        );
        let again = build(&out, Mode::Write, &["a"], &objects, None).unwrap();
        assert!(
            again.write.is_empty() && again.remove.is_empty(),
            "{again:?}"
        );
        let changes = build(&out, Mode::Write, &["a"], &[("x", "x", &[0])], None).unwrap();
        assert_eq!(changes.remove, vec![path]);
        let left: Vec<String> = fs::read_dir(out.join("a/ns"))
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            left,
            vec!["configmap_x.yaml"],
            "the split name's directories are gone"
        );
        fs::remove_dir_all(&out).unwrap();
    }
}
