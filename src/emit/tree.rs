//! Writing the output tree: the only code that writes files. A build streams: each object is
//! compared with its file on disk as soon as it is rendered, so memory never holds the whole
//! rendered fleet. A build writes only files whose bytes changed, removes the files fedrender
//! wrote before that are no longer rendered, never touches a file it did not write (recognised
//! by [`HEADER`](super::HEADER)), and leaves the output directory as it was when anything fails
//! before the commit starts replacing files.

use std::collections::HashSet;
use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;

use super::{HEADER, TreeFile, TreeLayout};
use crate::diagnostics::{Diagnostic, Rejected};
use crate::render::RenderedTemplate;

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

/// An output tree being brought up to date, object by object. A new file is created in place;
/// a changed one is written beside its target and renamed over it only by
/// [`commit`](TreeWriter::commit), so that until then every file that was there is intact and
/// [`roll_back`](TreeWriter::roll_back) can remove what the build added.
#[derive(Debug)]
pub struct TreeWriter<'a> {
    out: &'a Path,
    layout: &'a TreeLayout,
    mode: Mode,
    /// Directories this build created. Nothing in them can be stale or need comparing, so a
    /// cold build only creates files.
    created_directories: HashSet<PathBuf>,
    log: Mutex<WriteLog>,
    unchanged: AtomicUsize,
}

/// Compact, because a cold build of a large fleet creates millions of files.
#[derive(Debug, Default)]
struct WriteLog {
    /// Files created where none was.
    created: Vec<TreeFile>,
    /// Replacements written beside their targets, waiting for the commit.
    staged: Vec<TreeFile>,
    /// Every file written or to write.
    write: Vec<TreeFile>,
}

impl<'a> TreeWriter<'a> {
    /// Prepares `out` for the layout: writing, creates the directories it lacks (and records
    /// them, to remove them again on failure).
    pub fn open(out: &'a Path, layout: &'a TreeLayout, mode: Mode) -> Result<Self, Rejected> {
        if out.exists() && !out.is_dir() {
            return Err(Diagnostic::error(
                None,
                format!("{} exists and is not a directory", out.display()),
            )
            .into());
        }
        let mut writer = TreeWriter {
            out,
            layout,
            mode,
            created_directories: HashSet::new(),
            log: Mutex::default(),
            unchanged: AtomicUsize::new(0),
        };
        if mode == Mode::Write
            && let Err(error) = writer.create_directories()
        {
            writer.roll_back();
            return Err(error);
        }
        Ok(writer)
    }

    fn create_directories(&mut self) -> Result<(), Rejected> {
        // A relative `out` ends in the empty path, which is the working directory.
        let missing: Vec<&Path> = self
            .out
            .ancestors()
            .take_while(|dir| !dir.as_os_str().is_empty() && !dir.exists())
            .collect();
        for directory in missing.into_iter().rev() {
            self.create_directory(directory.to_path_buf())?;
        }
        for cluster in 0..self.layout.clusters().len() {
            let mut directories: Vec<PathBuf> = self
                .layout
                .cluster_files(cluster)
                .filter_map(|file| Some(self.target(file).parent()?.to_path_buf()))
                .collect();
            // Files are in path order, so a directory's files are adjacent.
            directories.dedup();
            for directory in directories {
                self.create_directory(directory)?;
            }
        }
        Ok(())
    }

    fn create_directory(&mut self, directory: PathBuf) -> Result<(), Rejected> {
        match fs::create_dir(&directory) {
            Ok(()) => {
                self.created_directories.insert(directory);
                Ok(())
            }
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => Ok(()),
            Err(error) => Err(io_error(&directory, error)),
        }
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
        files
            .par_iter()
            .try_for_each(|(file, text)| self.put_file(*file, text))
    }

    fn target(&self, file: TreeFile) -> PathBuf {
        self.out.join(self.layout.path(file))
    }

    fn put_file(&self, file: TreeFile, text: &str) -> Result<(), Rejected> {
        let target = self.target(file);
        let fresh = target
            .parent()
            .is_some_and(|directory| self.created_directories.contains(directory));
        let existing = if fresh {
            None
        } else {
            match fs::read(&target) {
                Ok(bytes) => Some(bytes),
                Err(error) if error.kind() == io::ErrorKind::NotFound => None,
                Err(error) => return Err(io_error(&target, error)),
            }
        };
        match existing {
            Some(bytes) if bytes == text.as_bytes() => {
                self.unchanged.fetch_add(1, Ordering::Relaxed);
                return Ok(());
            }
            Some(bytes) if !bytes.starts_with(HEADER.as_bytes()) => {
                return Err(not_ours(&target));
            }
            _ => {}
        }
        if self.mode == Mode::Check {
            self.lock().write.push(file);
            return Ok(());
        }
        if existing.is_none() {
            match fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&target)
            {
                Ok(mut created) => {
                    let mut log = self.lock();
                    log.created.push(file);
                    log.write.push(file);
                    drop(log);
                    return io::Write::write_all(&mut created, text.as_bytes())
                        .map_err(|error| io_error(&target, error));
                }
                // Something appeared since it was read (or is a link to nothing): not ours.
                Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {
                    return Err(not_ours(&target));
                }
                Err(error) => return Err(io_error(&target, error)),
            }
        }
        let temporary = temporary_for(&target);
        let mut log = self.lock();
        log.staged.push(file);
        log.write.push(file);
        drop(log);
        fs::write(&temporary, text).map_err(|error| io_error(&temporary, error))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, WriteLog> {
        self.log.lock().expect("no panic while the log is held")
    }

    /// Finishes a successful render: writes the kustomizations, puts every replacement in
    /// place and removes fedrender's files that are no longer rendered, with the directories
    /// they leave empty. Checking, only finds what that would change.
    pub fn commit(self) -> Result<TreeChanges, Rejected> {
        let layout = self.layout;
        let kustomizations: Result<(), Rejected> = (0..layout.clusters().len())
            .into_par_iter()
            .try_for_each(|cluster| {
                self.put_file(
                    TreeFile::kustomization(cluster),
                    &layout.kustomization(cluster),
                )
            });
        // Everything that can be checked is checked before the first file is replaced.
        let staged: HashSet<PathBuf> = self
            .lock()
            .staged
            .iter()
            .map(|&file| temporary_for(&self.target(file)))
            .collect();
        let stale = kustomizations
            .and_then(|()| stale_files(self.out, layout, &self.created_directories, &staged));
        let mut remove = match stale {
            Ok(remove) => remove,
            Err(error) => {
                self.roll_back();
                return Err(error);
            }
        };
        let log = std::mem::take(&mut *self.lock());
        let replaced = || -> Result<(), Rejected> {
            for &file in &log.staged {
                let target = self.target(file);
                fs::rename(temporary_for(&target), &target)
                    .map_err(|error| io_error(&target, error))?;
            }
            if self.mode == Mode::Write {
                for file in &remove {
                    remove_with_empty_parents(self.out, &self.out.join(file))?;
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
        Ok(TreeChanges {
            write: log.write,
            unchanged: self.unchanged.into_inner(),
            remove,
        })
    }

    /// Undoes a failed build: removes every file and directory it created and every
    /// replacement it staged. Files that were there are untouched until the commit.
    pub fn roll_back(self) {
        let log = std::mem::take(&mut *self.lock());
        for &file in &log.created {
            let _ = fs::remove_file(self.target(file));
        }
        for &file in &log.staged {
            let _ = fs::remove_file(temporary_for(&self.target(file)));
        }
        // Deepest first: a directory's path is longer than its parent's.
        let mut directories: Vec<&PathBuf> = self.created_directories.iter().collect();
        directories
            .sort_unstable_by_key(|directory| std::cmp::Reverse(directory.as_os_str().len()));
        for directory in directories {
            let _ = fs::remove_dir(directory);
        }
    }
}

/// fedrender's files under `out` that the layout no longer has, relative to `out`; directories
/// this build created hold none, and this build's staged replacements are not stale (those of
/// an interrupted earlier build are).
fn stale_files(
    out: &Path,
    layout: &TreeLayout,
    created_directories: &HashSet<PathBuf>,
    staged: &HashSet<PathBuf>,
) -> Result<Vec<String>, Rejected> {
    let mut stale = Vec::new();
    if !out.exists() {
        return Ok(stale);
    }
    let walk = walkdir::WalkDir::new(out)
        .into_iter()
        .filter_entry(|entry| !created_directories.contains(entry.path()));
    for entry in walk {
        let entry = entry.map_err(|error| {
            Diagnostic::error(None, format!("cannot read {}: {error}", out.display()))
        })?;
        if !entry.file_type().is_file() || staged.contains(entry.path()) {
            continue;
        }
        let relative = entry.path().strip_prefix(out).unwrap_or(entry.path());
        let Some(relative) = relative.to_str().map(|path| path.replace('\\', "/")) else {
            continue;
        };
        if !layout.holds(&relative) && written_by_fedrender(entry.path())? {
            stale.push(relative);
        }
    }
    Ok(stale)
}

/// Where a replacement waits beside its target until the commit.
fn temporary_for(target: &Path) -> PathBuf {
    let file_name = target.file_name().unwrap_or_default().to_string_lossy();
    target.with_file_name(format!(".{file_name}.fedrender-tmp"))
}

fn written_by_fedrender(path: &Path) -> Result<bool, Rejected> {
    let mut start = [0u8; HEADER.len()];
    let mut file = fs::File::open(path).map_err(|error| io_error(path, error))?;
    match file.read_exact(&mut start) {
        Ok(()) => Ok(start == *HEADER.as_bytes()),
        Err(error) if error.kind() == io::ErrorKind::UnexpectedEof => Ok(false),
        Err(error) => Err(io_error(path, error)),
    }
}

fn remove_with_empty_parents(out: &Path, file: &Path) -> Result<(), Rejected> {
    fs::remove_file(file).map_err(|error| io_error(file, error))?;
    let mut directory = file.parent();
    while let Some(dir) = directory {
        if dir == out || fs::remove_dir(dir).is_err() {
            break;
        }
        directory = dir.parent();
    }
    Ok(())
}

fn not_ours(target: &Path) -> Rejected {
    Diagnostic::error(
        None,
        format!(
            "refusing to overwrite {}: it was not written by fedrender",
            target.display()
        ),
    )
    .into()
}

fn io_error(path: &Path, error: io::Error) -> Rejected {
    Diagnostic::error(None, format!("{}: {error}", path.display())).into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostics::Origin;
    use crate::object::ObjectKey;
    use crate::render::{Destination, Variant};

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
        let key = config_map("x");
        let origin = Origin::new("in.yaml", 0, 1);
        let destination = Destination {
            key: &key,
            origin: &origin,
            clusters: vec![0],
        };
        let layout = TreeLayout::new(&["a"], [destination]).unwrap();
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
}
