//! Loading: the only stage that reads files. Walks the input directory in sorted order
//! (following the links that stay inside it), reads `.yaml`, `.yml` and `.json` files except
//! fedrender's own output, splits YAML streams into documents and flattens `List` kinds.
//! Every document remembers its file, its index in the file and its line.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::beneath::{Directory, Existing};
use crate::diagnostics::{Diagnostic, Origin, Rejected};
use crate::lint::Lint;
use crate::source::tools::{self, FoundSource};
use crate::yaml::{self, DocumentText};

/// Which files of the input directory are read, by glob on the path relative to it.
#[derive(Debug, Clone, Default)]
pub struct FileFilter {
    pub include: Vec<glob::Pattern>,
    pub exclude: Vec<glob::Pattern>,
    /// The inventory file (`--clusters`), never read as input, also when it sits inside the
    /// input directory.
    pub inventory: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Yaml,
    Json,
}

#[derive(Debug)]
pub struct SourceFile {
    /// The path as the user will recognise it (input directory joined with the relative path).
    pub path: Arc<str>,
    pub text: String,
    pub format: Format,
}

impl SourceFile {
    /// A file as read. YAML text has its line breaks made `\n`: YAML reads a lone CR and a
    /// CRLF each as one line break, and the document splitter and every line number count
    /// `\n`, so a file saved with CR or mixed line endings reads, and reports lines, as its
    /// LF twin does. Nothing else moves: each break stays one break, so every line and column
    /// stays where it was. JSON is kept as it is (CR is white space there, not a break).
    pub fn new(path: Arc<str>, mut text: String, format: Format) -> SourceFile {
        // A byte-order mark says the file is UTF-8, which it must be anyway; kubectl skips it.
        if text.starts_with('\u{feff}') {
            text.drain(..'\u{feff}'.len_utf8());
        }
        let text = match format {
            Format::Yaml => yaml::normalize_line_breaks(text),
            Format::Json => text,
        };
        SourceFile { path, text, format }
    }
}

/// One object read from a file, as JSON, with enough to parse its text again into a typed
/// struct (policies and clusters), so that an unknown field is reported at its own line.
#[derive(Debug, Clone)]
pub struct RawDocument {
    pub origin: Origin,
    pub value: Value,
    text: Option<DocumentSpan>,
}

#[derive(Debug, Clone)]
struct DocumentSpan {
    file: usize,
    bytes: Range<usize>,
    first_line: u64,
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
                "input directory {} does not exist or is not a directory",
                dir.display()
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
            !is_hidden(entry.path(), entry.depth()) && !is_inventory
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
            let hint = crate::edit_distance::did_you_mean(crate::edit_distance::nearest(
                pattern.as_str(),
                input_paths.iter().map(String::as_str),
            ));
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
            .any(|marker| tools::KUSTOMIZATION_FILES.contains(marker))
            && let Some(kustomization) = tools::read_kustomization(&source.dir)
        {
            referenced.extend(tools::kustomization_references(&source.dir, &kustomization));
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

pub fn format_of(path: &Path) -> Option<Format> {
    match path.extension()?.to_str()? {
        "yaml" | "yml" => Some(Format::Yaml),
        "json" => Some(Format::Json),
        _ => None,
    }
}

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

/// Whether the file opens with fedrender's header line. YAML line breaks are `\n` by now, so
/// a rendered file checked out with CRLF line endings is recognised too.
fn is_rendered_output(file: &SourceFile) -> bool {
    file.text.starts_with(crate::manifest::HEADER)
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

/// The manifests of a rendered tree on disk (`<dir>/<cluster>/…`), for `diff --against`:
/// relative path → text, except the files `skip` names. Hidden entries are skipped.
pub fn read_rendered_tree(
    dir: &Path,
    skip: impl Fn(&str) -> bool,
) -> Result<std::collections::BTreeMap<String, String>, Rejected> {
    if !dir.is_dir() {
        return Err(
            Diagnostic::error(None, format!("{} is not a directory", dir.display())).into(),
        );
    }
    let mut files = std::collections::BTreeMap::new();
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

/// A source that is not a file on disk (standard input), read as YAML.
pub fn source_from_text(name: &str, text: String) -> SourceFile {
    SourceFile::new(name.into(), text, Format::Yaml)
}

/// Parses every file into documents, in file order. Documents that parse are returned with the
/// errors of those that do not, so that later stages can report their own errors too.
pub fn parse_files(files: &[SourceFile]) -> (Vec<RawDocument>, Vec<Diagnostic>) {
    parse_files_at(files, 0)
}

/// [`parse_files`] for files that will sit at `first_index` and after in the list every stage
/// receives (a document remembers its file by its index there).
pub fn parse_files_at(
    files: &[SourceFile],
    first_index: usize,
) -> (Vec<RawDocument>, Vec<Diagnostic>) {
    let per_file: Vec<(Vec<RawDocument>, Vec<Diagnostic>)> = files
        .par_iter()
        .enumerate()
        .map(|(index, file)| parse_file(first_index + index, file))
        .collect();
    let mut documents = Vec::new();
    let mut errors = Vec::new();
    for (mut file_documents, mut file_errors) in per_file {
        documents.append(&mut file_documents);
        errors.append(&mut file_errors);
    }
    (documents, errors)
}

fn parse_file(index: usize, file: &SourceFile) -> (Vec<RawDocument>, Vec<Diagnostic>) {
    let mut documents = Vec::new();
    let mut errors = Vec::new();
    let mut push = |value: Value, origin: Origin, text: Option<DocumentSpan>| {
        flatten_lists(value, origin, text, &mut documents);
    };
    match file.format {
        Format::Json => match strict_json(&file.text) {
            Ok(StrictJson(value)) => push(
                value,
                Origin::new(file.path.clone(), 0, 1),
                Some(DocumentSpan {
                    file: index,
                    bytes: 0..file.text.len(),
                    first_line: 1,
                }),
            ),
            Err(error) => errors.push(json_error(&error, &file.path)),
        },
        Format::Yaml => {
            for (position, document) in yaml::split_documents(&file.text).iter().enumerate() {
                match yaml::parse_document(document, &file.path) {
                    Ok(Value::Null) => {}
                    Ok(value) => {
                        let start = document.text.as_ptr() as usize - file.text.as_ptr() as usize;
                        push(
                            value,
                            Origin::new(file.path.clone(), position, document.content_line),
                            Some(DocumentSpan {
                                file: index,
                                bytes: start..start + document.text.len(),
                                first_line: document.first_line,
                            }),
                        );
                    }
                    Err(error) => errors.push(error),
                }
            }
        }
    }
    // Document indices count objects, List items included, in file order.
    for (position, document) in documents.iter_mut().enumerate() {
        document.origin.document = position;
    }
    (documents, errors)
}

/// Parses a JSON file; nesting is capped by [`StrictJson`] itself, so serde_json's own
/// recursion limit (128), which is below fedrender's, is lifted.
fn strict_json(text: &str) -> Result<StrictJson, serde_json::Error> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    deserializer.disable_recursion_limit();
    let value = serde::Deserialize::deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok(value)
}

/// A JSON value whose objects have unique keys: serde_json keeps the last of duplicate keys,
/// YAML input rejects them, and JSON input must not differ. Nesting is capped as in YAML
/// ([`yaml::MAX_NESTING_DEPTH`]).
struct StrictJson(Value);

impl<'de> serde::Deserialize<'de> for StrictJson {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::DeserializeSeed;
        StrictJsonVisitor {
            levels_left: yaml::MAX_NESTING_DEPTH,
        }
        .deserialize(deserializer)
        .map(StrictJson)
    }
}

/// Reads one value that may open `levels_left` more lists or maps.
#[derive(Clone, Copy)]
struct StrictJsonVisitor {
    levels_left: usize,
}

impl StrictJsonVisitor {
    /// The visitor for the values inside a list or map being opened here.
    fn inside<E: serde::de::Error>(self) -> Result<Self, E> {
        match self.levels_left.checked_sub(1) {
            Some(levels_left) => Ok(StrictJsonVisitor { levels_left }),
            None => Err(E::custom(format!(
                "lists and maps nest deeper than {} levels",
                yaml::MAX_NESTING_DEPTH
            ))),
        }
    }
}

impl<'de> serde::de::DeserializeSeed<'de> for StrictJsonVisitor {
    type Value = Value;

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for StrictJsonVisitor {
    type Value = Value;

    fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("a JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Value, E> {
        Ok(Value::Bool(value))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Value, E> {
        Ok(Value::from(value))
    }

    fn visit_u64<E>(self, value: u64) -> Result<Value, E> {
        Ok(Value::from(value))
    }

    fn visit_f64<E>(self, value: f64) -> Result<Value, E> {
        Ok(Value::from(value))
    }

    fn visit_str<E>(self, value: &str) -> Result<Value, E> {
        Ok(Value::from(value))
    }

    fn visit_string<E>(self, value: String) -> Result<Value, E> {
        Ok(Value::String(value))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut sequence: A) -> Result<Value, A::Error> {
        let inside = self.inside()?;
        let mut items = Vec::new();
        while let Some(item) = sequence.next_element_seed(inside)? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let inside = self.inside()?;
        let mut object = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                return Err(serde::de::Error::custom(format!("duplicate key {key:?}")));
            }
            let value = map.next_value_seed(inside)?;
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

/// `kind: List` (and any `…List` with `items`, as kubectl reads them) becomes its items.
fn flatten_lists(
    value: Value,
    origin: Origin,
    text: Option<DocumentSpan>,
    out: &mut Vec<RawDocument>,
) {
    let is_list = value
        .get("kind")
        .and_then(Value::as_str)
        .is_some_and(|kind| kind.ends_with("List"))
        && value.get("items").is_some_and(Value::is_array);
    if !is_list {
        out.push(RawDocument {
            origin,
            value,
            text,
        });
        return;
    }
    let Value::Object(mut list) = value else {
        unreachable!("a List with items is an object")
    };
    if let Some(Value::Array(items)) = list.remove("items") {
        for item in items {
            flatten_lists(item, origin.clone(), None, out);
        }
    }
}

impl RawDocument {
    /// Parses the document again into a typed struct. From the text when there is one, so
    /// errors point at the offending line; List items fall back to the parsed value.
    pub fn decode<T: DeserializeOwned>(&self, files: &[SourceFile]) -> Result<T, Diagnostic> {
        self.decode_with(files, yaml::parse_typed)
    }

    /// [`decode`](Self::decode) for a Kubernetes API object (a Karmada policy or Cluster), read as
    /// strictly as the API server reads YAML: a string field given an unquoted scalar that
    /// YAML 1.1 reads as a boolean, a number or null is an error ([`yaml::parse_api_object`]).
    /// JSON input and List items already keep their types, so a string field given a boolean
    /// or a number fails there too.
    /// The line of each field, for messages about one; empty for JSON, whose objects are
    /// reported at their first line.
    pub fn field_lines(&self, files: &[SourceFile]) -> crate::diagnostics::FieldLines {
        let Some(span) = &self.text else {
            return crate::diagnostics::FieldLines::default();
        };
        let file = &files[span.file];
        if file.format != Format::Yaml {
            return crate::diagnostics::FieldLines::default();
        }
        let document = DocumentText {
            text: &file.text[span.bytes.clone()],
            first_line: span.first_line,
            content_line: self.origin.line,
        };
        crate::diagnostics::FieldLines::new(yaml::field_lines(&document))
    }

    pub fn decode_api_object<T: DeserializeOwned>(
        &self,
        files: &[SourceFile],
    ) -> Result<T, Diagnostic> {
        self.decode_with(files, yaml::parse_api_object)
    }

    fn decode_with<T: DeserializeOwned>(
        &self,
        files: &[SourceFile],
        parse_yaml: fn(&DocumentText<'_>, &str) -> Result<T, Diagnostic>,
    ) -> Result<T, Diagnostic> {
        let Some(span) = &self.text else {
            return serde_json::from_value(self.value.clone()).map_err(|error| {
                Diagnostic::error(
                    Some(self.origin.clone()),
                    yaml::with_field_hint(error.to_string()),
                )
            });
        };
        let file = &files[span.file];
        let text = &file.text[span.bytes.clone()];
        match file.format {
            Format::Json => {
                serde_json::from_str(text).map_err(|error| json_error(&error, &file.path))
            }
            Format::Yaml => {
                let content_line = self.origin.line;
                let document = DocumentText {
                    text,
                    first_line: span.first_line,
                    content_line,
                };
                parse_yaml(&document, &file.path).map_err(|mut error| {
                    if let Some(origin) = &mut error.origin {
                        origin.document = self.origin.document;
                    }
                    error
                })
            }
        }
    }
}

fn json_error(error: &serde_json::Error, file: &Arc<str>) -> Diagnostic {
    let message = error.to_string();
    let message = match message.rfind(" at line ") {
        Some(at) => message[..at].to_string(),
        None => message,
    };
    Diagnostic::error(
        Some(Origin::new(file.clone(), 0, error.line() as u64)),
        yaml::with_field_hint(message),
    )
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn load(name: &str, text: &str) -> Result<Vec<RawDocument>, Rejected> {
        let format = format_of(Path::new(name)).unwrap();
        let (documents, errors) =
            parse_files(&[SourceFile::new(name.into(), text.to_string(), format)]);
        if errors.is_empty() {
            Ok(documents)
        } else {
            Err(errors.into())
        }
    }

    #[test]
    fn lists_are_flattened_and_documents_numbered() {
        let documents = load(
            "a.yaml",
            "apiVersion: v1\nkind: List\nitems:\n- {kind: A}\n- {kind: B}\n---\nkind: C\n",
        )
        .unwrap();
        let kinds: Vec<_> = documents.iter().map(|d| d.value["kind"].clone()).collect();
        assert_eq!(kinds, vec![json!("A"), json!("B"), json!("C")]);
        let positions: Vec<_> = documents
            .iter()
            .map(|d| (d.origin.document, d.origin.line))
            .collect();
        assert_eq!(positions, vec![(0, 1), (1, 1), (2, 7)]);
    }

    #[test]
    fn json_files_are_one_document_with_json_errors_located() {
        let documents = load("a.json", "{\"kind\": \"A\"}").unwrap();
        assert_eq!(documents[0].value, json!({"kind": "A"}));
        let error = load("b.json", "{\n\"kind\": \n}").unwrap_err();
        assert_eq!(error.errors[0].origin.as_ref().unwrap().line, 3);
    }

    #[test]
    fn json_rejects_duplicate_keys_as_yaml_does() {
        let error = load("d.json", "{\"data\": {\"k\": \"one\", \"k\": \"two\"}}").unwrap_err();
        assert!(
            error.errors[0].message.contains("duplicate key \"k\""),
            "{error}"
        );
        let error = load("d.yaml", "data:\n  k: one\n  k: two\n").unwrap_err();
        assert!(
            error.errors[0]
                .message
                .starts_with("duplicate mapping key: k"),
            "{error}"
        );
        assert!(
            !error.errors[0].message.contains("DuplicateKeyPolicy"),
            "{error}"
        );
    }

    /// Both formats accept the same nesting, up to serde-saphyr's depth budget; JSON needs its
    /// own count because serde_json's recursion limit is 128.
    #[test]
    fn yaml_and_json_nest_equally_deep() {
        let depth = yaml::MAX_NESTING_DEPTH;
        let nested = |levels: usize| format!("{}1{}", "[".repeat(levels), "]".repeat(levels));
        for name in ["n.yaml", "n.json"] {
            let documents = load(name, &format!("{{\"kind\": {}}}", nested(depth - 1)))
                .unwrap_or_else(|error| panic!("{name}: {error}"));
            assert_eq!(crate::object::nesting_depth(&documents[0].value), depth);
            let error = load(name, &format!("{{\"kind\": {}}}", nested(depth))).unwrap_err();
            assert!(
                error.errors[0]
                    .message
                    .contains(&format!("deeper than {depth} levels")),
                "{name}: {error}"
            );
        }
    }

    #[test]
    fn cr_and_mixed_line_endings_read_and_count_lines_as_lf_does() {
        let lf = "# licence\n---\nkind: A\n---\n\nkind: B\ndata:\n  s: |\n    x\n    y\n";
        let expected = load("lf.yaml", lf).unwrap();
        for (name, text) in [
            ("cr.yaml", lf.replace('\n', "\r")),
            ("crlf.yaml", lf.replace('\n', "\r\n")),
            (
                "mixed.yaml",
                lf.replacen('\n', "\r", 3).replacen('\n', "\r\n", 2),
            ),
        ] {
            let documents = load(name, &text).unwrap();
            let read = |documents: &[RawDocument]| {
                documents
                    .iter()
                    .map(|d| (d.value.clone(), d.origin.line))
                    .collect::<Vec<_>>()
            };
            assert_eq!(read(&documents), read(&expected), "{name}");
        }
        let error = load("bad.yaml", "kind: A\r---\r\nkind: B\rdata: [1\r\nx: 2\r").unwrap_err();
        assert_eq!(error.errors[0].origin.as_ref().unwrap().line, 5, "{error}");
    }

    #[test]
    fn json_keeps_its_carriage_returns() {
        let file = SourceFile::new("a.json".into(), "{\"a\":\r1}".to_string(), Format::Json);
        assert_eq!(file.text, "{\"a\":\r1}");
    }

    #[test]
    fn rendered_output_is_recognised_by_its_first_line_whatever_the_line_ending() {
        let header = crate::manifest::HEADER.trim_end();
        let yaml = |text: String| SourceFile::new("r.yaml".into(), text, Format::Yaml);
        assert!(is_rendered_output(&yaml(format!("{header}\nkind: A\n"))));
        assert!(is_rendered_output(&yaml(format!(
            "{header}\r\nkind: A\r\n"
        ))));
        assert!(!is_rendered_output(&yaml(format!("kind: A\n{header}\n"))));
        assert!(!is_rendered_output(&yaml(format!("{header} (edited)\n"))));
    }

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

    #[test]
    fn every_malformed_document_is_reported() {
        let error = load("bad.yaml", "a: [1\n---\nb: 2\n---\nc: {\n").unwrap_err();
        assert_eq!(error.errors.len(), 2, "{error}");
    }

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Strict {
        kind: String,
        spec: Option<Value>,
    }

    #[test]
    fn typed_decoding_points_at_the_unknown_field_line() {
        let files = [SourceFile {
            path: "p.yaml".into(),
            text: "kind: A\n---\nkind: B\nspec: {}\nspek: 1\n".to_string(),
            format: Format::Yaml,
        }];
        let (documents, _) = parse_files(&files);
        let error = documents[1].decode::<Strict>(&files).unwrap_err();
        assert_eq!(error.origin.unwrap().line, 5);
        assert!(
            error.message.contains("did you mean `spec`?"),
            "{}",
            error.message
        );
    }
}
