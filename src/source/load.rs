//! Loading: the only stage that reads files. Walks the input directory in sorted order
//! (following the links that stay inside it) and reads `.yaml`, `.yml` and `.json` files except
//! fedrender's own output, finding the directories a tool renders on the way; reads the
//! committed output tree. Parsing the files into documents is [`fedrender_engine::documents`]'s.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::beneath::{Directory, Existing};
use crate::source::kustomization;
use crate::source::tools::{self, FoundSource};
use fedrender_engine::diagnostics::{Diagnostic, Rejected};
use fedrender_engine::documents::{Format, format_of};
use fedrender_engine::lint::Lint;

/// Which files of the input directory are read, by glob on the path relative to it.
#[derive(Debug, Clone, Default)]
pub struct FileFilter {
    pub include: Vec<glob::Pattern>,
    pub exclude: Vec<glob::Pattern>,
    /// The inventory file (`--clusters`), never read as input, also when it sits inside the
    /// input directory.
    pub inventory: Option<PathBuf>,
    /// Directories never read as input, by their canonical paths: an Argo CD fleet's
    /// checkouts, which only its Applications and generators read.
    pub skip_dirs: Vec<PathBuf>,
}

/// The input files found under the input directory, and a warning for each entry there that
/// looks like input but is not read.
#[derive(Debug, Default)]
pub struct InputListing {
    pub paths: Vec<PathBuf>,
    /// Directories a tool renders (kustomize, Helm, a declared command), sorted by path.
    pub sources: Vec<FoundSource>,
    pub warnings: Vec<Diagnostic>,
}

/// `; did you mean examples/fleet?` for a fleet directory named with a typo: the nearest
/// directory beside where it would be.
fn nearest_directory(dir: &Path) -> String {
    let (Some(name), parent) = (dir.file_name().and_then(|name| name.to_str()), dir.parent())
    else {
        return String::new();
    };
    let parent = parent.filter(|parent| !parent.as_os_str().is_empty());
    let Ok(entries) = std::fs::read_dir(parent.unwrap_or(Path::new("."))) else {
        return String::new();
    };
    let siblings: Vec<String> = entries
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_ok_and(|kind| kind.is_dir()))
        .filter_map(|entry| entry.file_name().into_string().ok())
        .filter(|sibling| !sibling.starts_with('.'))
        .collect();
    let near = fedrender_engine::edit_distance::nearest(name, siblings.iter().map(String::as_str));
    fedrender_engine::edit_distance::did_you_mean(
        near.map(|near| match parent {
            Some(parent) => parent.join(near).display().to_string(),
            None => near.to_string(),
        })
        .as_deref(),
    )
}

/// Lists the input files under `dir`, sorted by path, skipping hidden entries.
///
/// A symbolic link that resolves inside `dir` is read like what it points to, under its own
/// path (the one users see; `kubectl apply -f DIR` reads it too), and a directory link is
/// walked. Everything else that is not a plain file or directory is never opened (opening a
/// FIFO blocks for ever): links leading out of `dir`, dangling links, link loops, FIFOs,
/// sockets and devices. Each is named in a warning saying what it is, when it looks like
/// input (see [`looks_like_input`]).
pub fn list_input_files(dir: &Path, filter: &FileFilter) -> Result<InputListing, Rejected> {
    let cannot_read = |error: &dyn std::fmt::Display| {
        Rejected::from(Diagnostic::error(
            None,
            format!("cannot read {}: {error}", dir.display()),
        ))
    };
    if !dir.is_dir() {
        return Err(Diagnostic::error(
            None,
            format!(
                "input directory {} does not exist or is not a directory{}",
                dir.display(),
                nearest_directory(dir)
            ),
        )
        .into());
    }
    let root = dir.canonicalize().map_err(|error| cannot_read(&error))?;
    let inventory = filter
        .inventory
        .as_ref()
        .and_then(|path| path.canonicalize().ok());
    let mut listing = InputListing::default();
    // Which globs matched an input file, and the input files' paths for a hint if one did not.
    let mut include_used = vec![false; filter.include.len()];
    let mut exclude_used = vec![false; filter.exclude.len()];
    let mut input_paths: Vec<String> = Vec::new();
    let mut walker = walkdir::WalkDir::new(dir)
        .follow_links(true)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|entry| {
            let is_inventory = inventory.as_ref().is_some_and(|inventory| {
                entry
                    .path()
                    .canonicalize()
                    .is_ok_and(|path| path == *inventory)
            });
            let is_skipped = !filter.skip_dirs.is_empty()
                && entry.file_type().is_dir()
                && entry
                    .path()
                    .canonicalize()
                    .is_ok_and(|path| filter.skip_dirs.contains(&path));
            !is_hidden(entry.path(), entry.depth()) && !is_inventory && !is_skipped
        });
    while let Some(entry) = walker.next() {
        let not_read = match entry {
            Ok(entry) => match not_readable(&entry, dir, &root) {
                None => {
                    let path = entry.path();
                    if entry.file_type().is_dir() {
                        let markers = tools::markers_in(path);
                        if let Some(marker) = markers.first() {
                            // The tool reads everything beneath; so nothing here is read again.
                            walker.skip_current_dir();
                            let marker_path = path.join(marker);
                            let relative = marker_path.strip_prefix(dir).unwrap_or(&marker_path);
                            mark_matching(relative, filter, &mut include_used, &mut exclude_used);
                            if is_selected(dir, &marker_path, filter) {
                                listing.sources.push(FoundSource {
                                    dir: entry.into_path(),
                                    markers,
                                });
                            }
                        }
                        continue;
                    }
                    if !(entry.file_type().is_file() && format_of(path).is_some()) {
                        continue;
                    }
                    let relative = path.strip_prefix(dir).unwrap_or(path);
                    mark_matching(relative, filter, &mut include_used, &mut exclude_used);
                    if !(filter.include.is_empty() && filter.exclude.is_empty()) {
                        input_paths.push(relative.to_string_lossy().into_owned());
                    }
                    if is_selected(dir, path, filter) {
                        listing.paths.push(entry.into_path());
                    }
                    continue;
                }
                Some(not_read) => {
                    if not_read.kind == EntryKind::Directory {
                        // A directory link leading out: walkdir followed it, it is not walked.
                        walker.skip_current_dir();
                    }
                    not_read
                }
            },
            // walkdir could not follow a link (dangling, a loop: a warning about the link) or
            // read a directory (an error, as ever).
            Err(error) => unfollowable_link(&error).ok_or_else(|| cannot_read(&error))?,
        };
        // A glob may name an entry that is not read, to silence its warning.
        let relative = not_read.path.strip_prefix(dir).unwrap_or(&not_read.path);
        mark_matching(relative, filter, &mut include_used, &mut exclude_used);
        // Errors bypass filter_entry, so hidden entries are left out here too.
        if !is_hidden(&not_read.path, not_read.depth) && looks_like_input(dir, &not_read, filter) {
            listing.warnings.push(not_read.warning());
        }
    }
    // A glob that matches nothing is a typo more often than not, and a typo in --include
    // silently renders nothing.
    let mut unmatched = Vec::new();
    for (flag, used, patterns) in [
        ("include", &include_used, &filter.include),
        ("exclude", &exclude_used, &filter.exclude),
    ] {
        for (_, pattern) in used.iter().zip(patterns).filter(|(used, _)| !**used) {
            let hint = fedrender_engine::edit_distance::did_you_mean(
                fedrender_engine::edit_distance::nearest(
                    pattern.as_str(),
                    input_paths.iter().map(String::as_str),
                ),
            );
            unmatched.push(Diagnostic::error(
                None,
                format!(
                    "--{flag} {}: matches no input file under {}{hint}",
                    pattern.as_str(),
                    dir.display()
                ),
            ));
        }
    }
    if !unmatched.is_empty() {
        return Err(unmatched.into());
    }
    leave_out_what_kustomizations_read(&mut listing);
    Ok(listing)
}

/// A kustomize directory that another one builds on (a base of overlays), and a plain file a
/// kustomization names, are read through that kustomization only: read again on their own,
/// their objects would be defined twice.
fn leave_out_what_kustomizations_read(listing: &mut InputListing) {
    let mut referenced: std::collections::HashSet<PathBuf> = std::collections::HashSet::new();
    for source in &listing.sources {
        if source
            .markers
            .iter()
            .any(|marker| fedrender_engine::classify::KUSTOMIZATION_FILES.contains(marker))
            && let Some(kustomization) = kustomization::read_kustomization(&source.dir)
        {
            referenced.extend(kustomization::kustomization_references(
                &source.dir,
                &kustomization,
            ));
        }
    }
    if referenced.is_empty() {
        return;
    }
    listing
        .sources
        .retain(|source| !referenced.contains(&tools::normalize(&source.dir)));
    listing
        .paths
        .retain(|path| !referenced.contains(&tools::normalize(path)));
}

/// Marks the `--include` and `--exclude` globs that match `relative`.
fn mark_matching(
    relative: &Path,
    filter: &FileFilter,
    include_used: &mut [bool],
    exclude_used: &mut [bool],
) {
    for (used, patterns) in [
        (include_used, &filter.include),
        (exclude_used, &filter.exclude),
    ] {
        for (used, pattern) in used.iter_mut().zip(patterns) {
            *used |= pattern.matches_path(relative);
        }
    }
}

/// An entry of the input directory that is never opened, and what it is.
struct NotRead {
    path: PathBuf,
    depth: usize,
    kind: EntryKind,
    /// What it is, after its path: "is a …".
    description: String,
}

/// What an entry that is not read would have been, as far as can be told.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum EntryKind {
    File,
    Directory,
    /// A link whose target cannot be reached.
    Unknown,
}

impl NotRead {
    fn warning(&self) -> Diagnostic {
        let consequence = match self.kind {
            EntryKind::Directory => "it is not walked",
            EntryKind::File | EntryKind::Unknown => "it is not read",
        };
        Diagnostic::warning(
            Lint::SkippedInput,
            None,
            format!(
                "{} {}; {consequence}",
                self.path.display(),
                self.description
            ),
        )
    }
}

/// Why a walked entry is not read: a link leading out of the input directory, or neither a
/// regular file nor a directory. `None` for files and directories, links inside included.
fn not_readable(entry: &walkdir::DirEntry, dir: &Path, root: &Path) -> Option<NotRead> {
    let file_type = entry.file_type();
    let not_read = |kind, description| {
        Some(NotRead {
            path: entry.path().to_path_buf(),
            depth: entry.depth(),
            kind,
            description,
        })
    };
    let kind = if file_type.is_dir() {
        EntryKind::Directory
    } else {
        EntryKind::File
    };
    if entry.path_is_symlink() {
        match entry.path().canonicalize() {
            Ok(target) if target.starts_with(root) => {}
            Ok(target) => {
                let directory = if file_type.is_dir() {
                    "the directory "
                } else {
                    ""
                };
                return not_read(
                    kind,
                    format!(
                        "is a symbolic link to {directory}{}, outside the input directory {}",
                        target.display(),
                        dir.display()
                    ),
                );
            }
            // Changed since walkdir followed it.
            Err(error) => {
                return not_read(
                    kind,
                    format!("is a symbolic link that cannot be followed ({error})"),
                );
            }
        }
    }
    if file_type.is_dir() || file_type.is_file() {
        return None;
    }
    let link = if entry.path_is_symlink() {
        "a symbolic link to "
    } else {
        ""
    };
    not_read(
        kind,
        format!(
            "is {link}{}, not a regular file",
            special_file_kind(file_type)
        ),
    )
}

/// The link walkdir failed to follow, with why; `None` when the error is not about a link.
fn unfollowable_link(error: &walkdir::Error) -> Option<NotRead> {
    let path = error.path().filter(|path| path.is_symlink())?;
    let (kind, description) = match error.loop_ancestor() {
        Some(ancestor) => (
            EntryKind::Directory,
            format!(
                "is a symbolic link to {}, a directory that contains it (a loop)",
                ancestor.display()
            ),
        ),
        None => (EntryKind::Unknown, unresolvable_link(path)?),
    };
    Some(NotRead {
        path: path.to_path_buf(),
        depth: error.depth(),
        kind,
        description,
    })
}

fn is_hidden(path: &Path, depth: usize) -> bool {
    depth > 0
        && path
            .file_name()
            .is_some_and(|name| name.to_string_lossy().starts_with('.'))
}

/// Whether `--include` and `--exclude` select the file, by its path relative to `dir`.
fn is_selected(dir: &Path, path: &Path, filter: &FileFilter) -> bool {
    let relative = path.strip_prefix(dir).unwrap_or(path);
    let included = filter.include.is_empty()
        || filter
            .include
            .iter()
            .any(|pattern| pattern.matches_path(relative));
    included && !is_excluded(dir, path, filter)
}

fn is_excluded(dir: &Path, path: &Path, filter: &FileFilter) -> bool {
    let relative = path.strip_prefix(dir).unwrap_or(path);
    filter
        .exclude
        .iter()
        .any(|pattern| pattern.matches_path(relative))
}

/// Whether an entry that is not read deserves a warning: one that would have been input.
/// A file with an input extension that the globs select; a directory, whose files cannot be
/// known, unless `--exclude` names it; a link that leads nowhere, when its name has an input
/// extension or none at all (it may have been a directory). Any other name is ignored, as
/// every non-input file is.
fn looks_like_input(dir: &Path, not_read: &NotRead, filter: &FileFilter) -> bool {
    let path = not_read.path.as_path();
    match not_read.kind {
        EntryKind::Directory => !is_excluded(dir, path, filter),
        EntryKind::Unknown if path.extension().is_none() => !is_excluded(dir, path, filter),
        EntryKind::File | EntryKind::Unknown => {
            format_of(path).is_some() && is_selected(dir, path, filter)
        }
    }
}

/// What is wrong with a link that cannot be followed: `None` when it can be (then whatever
/// failed was not the link).
fn unresolvable_link(link: &Path) -> Option<String> {
    let error = link.canonicalize().err()?;
    let description = if error.kind() == std::io::ErrorKind::NotFound {
        let target = std::fs::read_link(link).unwrap_or_default();
        format!(
            "is a dangling symbolic link: its target {} does not exist",
            target.display()
        )
    } else if link_chain_loops(link) {
        "is a symbolic link loop: following it leads back to a link already followed".to_string()
    } else {
        format!("is a symbolic link that cannot be followed ({error})")
    };
    Some(description)
}

/// Whether following `link` one hop at a time finds no end within the 40 hops Linux allows
/// (the kernel's ELOOP has no stable `io::ErrorKind` yet).
fn link_chain_loops(link: &Path) -> bool {
    let mut current = link.to_path_buf();
    for _ in 0..=40 {
        let Ok(target) = std::fs::read_link(&current) else {
            return false;
        };
        current = match current.parent() {
            Some(parent) => parent.join(target),
            None => target,
        };
    }
    true
}

#[cfg(unix)]
fn special_file_kind(file_type: std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if file_type.is_fifo() {
        "a named pipe (FIFO)"
    } else if file_type.is_socket() {
        "a socket"
    } else if file_type.is_block_device() {
        "a block device"
    } else if file_type.is_char_device() {
        "a character device"
    } else {
        "a special file"
    }
}

#[cfg(not(unix))]
fn special_file_kind(_: std::fs::FileType) -> &'static str {
    "a special file"
}

/// Refuses an output directory that is the input directory or one of its ancestors, for
/// `build` and `build --check`. A build writes a directory per member cluster into `out`:
/// there it would mix rendered trees into the templates (or around them, where a cluster is
/// named like the input directory), so the output needs a directory of its own, which may lie
/// inside the input (rendered files are never read back as input). Decided on resolved paths,
/// so that `.`, `..` and links do not hide the overlap; `out` need not exist yet.
pub fn check_output_outside_input(input: &Path, out: &Path) -> Result<(), Rejected> {
    // An input that does not resolve cannot hold anything; loading reports it, as it does
    // for every command.
    let Ok(input_resolved) = input.canonicalize() else {
        return Ok(());
    };
    let out_resolved = resolve_allowing_missing(out).map_err(|error| {
        Diagnostic::error(
            None,
            format!("cannot resolve --out {}: {error}", out.display()),
        )
    })?;
    let relation = if out_resolved == input_resolved {
        "is"
    } else if input_resolved.starts_with(&out_resolved) {
        "contains"
    } else {
        return Ok(());
    };
    Err(Diagnostic::error(
        None,
        format!(
            "--out {} {relation} the input directory {}: the rendered trees need a directory \
             of their own, such as a subdirectory: --out {}",
            out.display(),
            input.display(),
            input.join("rendered").display()
        ),
    )
    .into())
}

/// `path` absolute and with every link resolved, although its last components may not exist
/// yet: its nearest existing ancestor is resolved and the rest appended, `..` taken as going
/// up, which is what it will mean once the build has created those plain directories.
fn resolve_allowing_missing(path: &Path) -> std::io::Result<PathBuf> {
    use std::path::Component;
    let absolute = std::path::absolute(path)?;
    let components: Vec<Component<'_>> = absolute.components().collect();
    for existing in (1..=components.len()).rev() {
        let ancestor: PathBuf = components[..existing].iter().collect();
        let mut resolved = match ancestor.canonicalize() {
            Ok(resolved) => resolved,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => continue,
            Err(error) => return Err(error),
        };
        for component in &components[existing..] {
            match component {
                Component::ParentDir => {
                    resolved.pop();
                }
                Component::Normal(name) => resolved.push(name),
                Component::CurDir | Component::RootDir | Component::Prefix(_) => {}
            }
        }
        return Ok(resolved);
    }
    // Not even the root exists: nothing to resolve against.
    Ok(absolute)
}

/// The manifests of a rendered tree on disk (`<dir>/<cluster>/…`), for `diff --against`:
/// relative path → text, except the files `skip` names. Hidden entries are skipped.
pub fn read_rendered_tree(
    dir: &Path,
    skip: impl Fn(&str) -> bool,
) -> Result<std::collections::BTreeMap<String, Arc<str>>, Rejected> {
    if !dir.is_dir() {
        return Err(
            Diagnostic::error(None, format!("{} is not a directory", dir.display())).into(),
        );
    }
    let mut files = std::collections::BTreeMap::new();
    // The clusters of one variant hold the same file: its text is held once.
    let mut distinct: std::collections::HashSet<Arc<str>> = std::collections::HashSet::new();
    let walker = walkdir::WalkDir::new(dir)
        .min_depth(2)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|entry| !entry.file_name().to_string_lossy().starts_with('.'));
    for entry in walker {
        let entry = entry.map_err(|error| {
            Diagnostic::error(None, format!("cannot read {}: {error}", dir.display()))
        })?;
        if !entry.file_type().is_file() || format_of(entry.path()) != Some(Format::Yaml) {
            continue;
        }
        let relative = entry.path().strip_prefix(dir).unwrap_or(entry.path());
        let Some(relative) = relative.to_str().map(|path| path.replace('\\', "/")) else {
            continue;
        };
        if skip(&relative) {
            continue;
        }
        let text = std::fs::read_to_string(entry.path()).map_err(|error| {
            Diagnostic::error(
                None,
                format!("cannot read {}: {error}", entry.path().display()),
            )
        })?;
        let text = match distinct.get(text.as_str()) {
            Some(seen) => Arc::clone(seen),
            None => {
                let text: Arc<str> = text.into();
                distinct.insert(Arc::clone(&text));
                text
            }
        };
        files.insert(relative, text);
    }
    Ok(files)
}

/// One file of a rendered tree on disk, by its path relative to the tree; `None` when there
/// is no such file. The tree is reached from its handle without following a symbolic link:
/// a committed tree is the pull request's to choose, and what is read here is shown in a
/// diff, so a link must not bring a file from elsewhere on the machine into a review comment.
pub fn read_rendered_file(tree: &Directory, relative: &str) -> Result<Option<Vec<u8>>, Rejected> {
    let path = tree.path().join(relative);
    let cannot_read = |error: &dyn std::fmt::Display| {
        Rejected::from(Diagnostic::error(
            None,
            format!("cannot read {}: {error}", path.display()),
        ))
    };
    let (parent, name) = relative.rsplit_once('/').unwrap_or(("", relative));
    let Some(directory) = tree.descend(parent).map_err(|error| cannot_read(&error))? else {
        return Ok(None);
    };
    match directory.read(name).map_err(|error| cannot_read(&error))? {
        None => Ok(None),
        Some(Existing::File(bytes)) => Ok(Some(bytes)),
        Some(Existing::Other(what)) => Err(cannot_read(&format!(
            "it is {what}, not a file fedrender wrote"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_output_may_not_be_the_input_or_contain_it_however_spelled() {
        let root = std::env::temp_dir().join(format!("fedrender-outside-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let input = root.join("fleet");
        std::fs::create_dir_all(input.join("apps")).unwrap();
        let refused = |out: PathBuf| check_output_outside_input(&input, &out).is_err();
        assert!(refused(input.clone()));
        assert!(refused(input.join("apps/..")));
        assert!(refused(input.join("new/..")), "a directory not created yet");
        assert!(refused(input.join("new/../..")));
        assert!(refused(root.clone()));
        assert!(refused(PathBuf::from("/")));
        assert!(!refused(input.join("rendered")));
        assert!(!refused(input.join("apps/rendered/deeper")));
        assert!(!refused(root.join("rendered")));
        assert!(
            !refused(root.join("fleet-rendered")),
            "a sibling with the same prefix"
        );
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(&input, root.join("link")).unwrap();
            assert!(refused(root.join("link")));
            assert!(!refused(root.join("link/rendered")));
        }
        let message = check_output_outside_input(&input, &root)
            .unwrap_err()
            .to_string();
        assert_eq!(
            message,
            format!(
                "error: --out {} contains the input directory {}: the rendered trees need a \
                 directory of their own, such as a subdirectory: --out {}",
                root.display(),
                input.display(),
                input.join("rendered").display()
            )
        );
        std::fs::remove_dir_all(&root).unwrap();
    }
}
