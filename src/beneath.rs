//! Files beneath one directory, reached from its handle one name at a time without ever
//! following a symbolic link. The committed output tree is written by whoever opens a pull
//! request; a link they place at a cluster, namespace or file name must not steer a write, a
//! removal or a read (shown in a diff comment) outside the directory the user named.
//!
//! Every name given here is a single path component: the callers split their relative paths.

use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};

use rustix::fs::{self as sys, AtFlags, FileType, FlockOperation, Mode, OFlags, Timestamps};
use rustix::io::Errno;

#[cfg(not(unix))]
compile_error!("fedrender reaches its output tree through Unix directory handles (openat)");

/// An open directory. Its path is kept only to name things in messages.
#[derive(Debug)]
pub struct Directory {
    handle: OwnedFd,
    path: PathBuf,
}

/// What is at a name where fedrender expects one of its files.
#[derive(Debug, PartialEq, Eq)]
pub enum Existing {
    File(Vec<u8>),
    /// Anything else (a link, a directory, a FIFO, …), named for messages. Never opened for
    /// reading: opening a FIFO would wait forever for a writer.
    Other(&'static str),
}

/// The access and modification times of a directory, to put back after undoing a build.
#[derive(Debug, Clone)]
pub struct Times(Timestamps);

const DIRECTORY: OFlags = OFlags::RDONLY
    .union(OFlags::DIRECTORY)
    .union(OFlags::NOFOLLOW)
    .union(OFlags::CLOEXEC);

impl Directory {
    /// Opens the directory at `path`, which must not itself be a symbolic link (its ancestors
    /// may be: they are the user's choice, not the tree's). `None` when nothing is there.
    pub fn open(path: &Path) -> io::Result<Option<Directory>> {
        // `link/` would resolve the link whatever the flags say: a trailing slash asks for
        // the directory it names. Rebuilt from its components, the path has none.
        let path: PathBuf = path.components().collect();
        let path = path.as_path();
        match sys::openat(sys::CWD, path, DIRECTORY, Mode::empty()) {
            Ok(handle) => Ok(Some(Directory {
                handle,
                path: path.to_path_buf(),
            })),
            Err(Errno::NOENT) => Ok(None),
            Err(Errno::LOOP | Errno::NOTDIR) => {
                let what = describe(&sys::lstat(path)?);
                Err(not_a_directory(what))
            }
            Err(error) => Err(error.into()),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The subdirectory `name`; `None` when nothing is there, an error naming what is there
    /// when it is not a directory (a link to one included).
    pub fn subdirectory(&self, name: &str) -> io::Result<Option<Directory>> {
        match sys::openat(&self.handle, name, DIRECTORY, Mode::empty()) {
            Ok(handle) => Ok(Some(Directory {
                handle,
                path: self.path.join(name),
            })),
            Err(Errno::NOENT) => Ok(None),
            Err(Errno::LOOP | Errno::NOTDIR) => {
                let what = describe(&sys::statat(&self.handle, name, AtFlags::SYMLINK_NOFOLLOW)?);
                Err(not_a_directory(what))
            }
            Err(error) => Err(error.into()),
        }
    }

    /// The directory at a relative `/`-separated path, each component opened from the last.
    pub fn descend(&self, relative: &str) -> io::Result<Option<Directory>> {
        let mut components = relative.split('/').filter(|name| !name.is_empty());
        let Some(first) = components.next() else {
            return self.reopen().map(Some);
        };
        let mut directory = match self.subdirectory(first)? {
            Some(directory) => directory,
            None => return Ok(None),
        };
        for name in components {
            directory = match directory.subdirectory(name)? {
                Some(directory) => directory,
                None => return Ok(None),
            };
        }
        Ok(Some(directory))
    }

    fn reopen(&self) -> io::Result<Directory> {
        Ok(Directory {
            handle: sys::openat(&self.handle, ".", DIRECTORY, Mode::empty())?,
            path: self.path.clone(),
        })
    }

    /// Creates the subdirectory `name`: `false` when something is already there.
    pub fn create_subdirectory(&self, name: &str) -> io::Result<bool> {
        match sys::mkdirat(&self.handle, name, Mode::from_raw_mode(0o777)) {
            Ok(()) => Ok(true),
            Err(Errno::EXIST) => Ok(false),
            Err(error) => Err(error.into()),
        }
    }

    /// What is at `name`, if anything. A regular file is read whole.
    pub fn read(&self, name: &str) -> io::Result<Option<Existing>> {
        self.read_at_most(name, usize::MAX)
    }

    /// Like [`read`](Self::read), keeping at most `limit` bytes of a file.
    pub fn read_at_most(&self, name: &str, limit: usize) -> io::Result<Option<Existing>> {
        // NONBLOCK: a FIFO opens at once instead of waiting for a writer; it is then refused.
        let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC;
        let handle = match sys::openat(&self.handle, name, flags, Mode::empty()) {
            Ok(handle) => handle,
            Err(Errno::NOENT) => return Ok(None),
            Err(Errno::LOOP) => return Ok(Some(Existing::Other("a symbolic link"))),
            Err(error) => return Err(error.into()),
        };
        let stat = sys::fstat(&handle)?;
        let kind = FileType::from_raw_mode(stat.st_mode);
        if kind != FileType::RegularFile {
            return Ok(Some(Existing::Other(kind_name(kind))));
        }
        // Sized up front, the file is read in one call (and one more to see its end).
        let size = usize::try_from(stat.st_size).unwrap_or(0).min(limit);
        let mut bytes = Vec::with_capacity(size);
        File::from(handle)
            .take(limit as u64)
            .read_to_end(&mut bytes)?;
        Ok(Some(Existing::File(bytes)))
    }

    /// Writes a new file at `name`, which must not exist (a link there is not followed: the
    /// creation fails).
    pub fn create_file(&self, name: &str, bytes: &[u8]) -> io::Result<()> {
        let flags =
            OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let handle = sys::openat(&self.handle, name, flags, Mode::from_raw_mode(0o666))?;
        File::from(handle).write_all(bytes)
    }

    /// Renames `from` to `to` within this directory, replacing whatever `to` names (a link
    /// there is replaced, not followed).
    pub fn rename(&self, from: &str, to: &str) -> io::Result<()> {
        Ok(sys::renameat(&self.handle, from, &self.handle, to)?)
    }

    /// Removes the file (or link) `name`; `false` when there was none.
    pub fn remove_file(&self, name: &str) -> io::Result<bool> {
        match sys::unlinkat(&self.handle, name, AtFlags::empty()) {
            Ok(()) => Ok(true),
            Err(Errno::NOENT) => Ok(false),
            Err(error) => Err(error.into()),
        }
    }

    /// Removes the subdirectory `name` if it is empty; `false` when it is not (or is gone).
    pub fn remove_empty_subdirectory(&self, name: &str) -> io::Result<bool> {
        match sys::unlinkat(&self.handle, name, AtFlags::REMOVEDIR) {
            Ok(()) => Ok(true),
            Err(Errno::NOTEMPTY | Errno::EXIST | Errno::NOENT) => Ok(false),
            Err(error) => Err(error.into()),
        }
    }

    /// The entries of the directory, by name, with what each is (links are not followed).
    /// Names that are not UTF-8 cannot be fedrender's and are left out.
    pub fn entries(&self) -> io::Result<Vec<(String, FileType)>> {
        let mut entries = Vec::new();
        for entry in sys::Dir::read_from(&self.handle)? {
            let entry = entry?;
            let Ok(name) = entry.file_name().to_str() else {
                continue;
            };
            if name == "." || name == ".." {
                continue;
            }
            let kind = match entry.file_type() {
                FileType::Unknown => FileType::from_raw_mode(
                    sys::statat(&self.handle, name, AtFlags::SYMLINK_NOFOLLOW)?.st_mode,
                ),
                kind => kind,
            };
            entries.push((name.to_string(), kind));
        }
        Ok(entries)
    }

    pub fn times(&self) -> io::Result<Times> {
        let stat = sys::fstat(&self.handle)?;
        Ok(Times(Timestamps {
            last_access: sys::Timespec {
                tv_sec: stat.st_atime as _,
                tv_nsec: stat.st_atime_nsec as _,
            },
            last_modification: sys::Timespec {
                tv_sec: stat.st_mtime as _,
                tv_nsec: stat.st_mtime_nsec as _,
            },
        }))
    }

    pub fn set_times(&self, times: &Times) -> io::Result<()> {
        Ok(sys::futimens(&self.handle, &times.0)?)
    }

    /// Takes an advisory lock on the directory for as long as this handle is open: exclusive
    /// to write, shared to read. `false` when another process holds a conflicting one.
    pub fn try_lock(&self, exclusive: bool) -> io::Result<bool> {
        let operation = if exclusive {
            FlockOperation::NonBlockingLockExclusive
        } else {
            FlockOperation::NonBlockingLockShared
        };
        match sys::flock(&self.handle, operation) {
            Ok(()) => Ok(true),
            Err(Errno::WOULDBLOCK) => Ok(false),
            // A file system without locks (some network mounts) still gets its build.
            Err(Errno::NOLCK | Errno::OPNOTSUPP) => Ok(true),
            Err(error) => Err(error.into()),
        }
    }

    /// Whether `path` still names this directory (not another one put in its place).
    pub fn is_at(&self, path: &Path) -> io::Result<bool> {
        let here = sys::fstat(&self.handle)?;
        Ok(match sys::lstat(path) {
            Ok(there) => here.st_dev == there.st_dev && here.st_ino == there.st_ino,
            Err(Errno::NOENT) => false,
            Err(error) => return Err(error.into()),
        })
    }
}

fn describe(stat: &sys::Stat) -> &'static str {
    kind_name(FileType::from_raw_mode(stat.st_mode))
}

fn kind_name(kind: FileType) -> &'static str {
    match kind {
        FileType::RegularFile => "a file",
        FileType::Directory => "a directory",
        FileType::Symlink => "a symbolic link",
        FileType::Fifo => "a FIFO",
        FileType::Socket => "a socket",
        FileType::CharacterDevice | FileType::BlockDevice => "a device",
        FileType::Unknown => "of an unknown type",
    }
}

fn not_a_directory(what: &str) -> io::Error {
    let why = if what == "a symbolic link" {
        "; fedrender never follows a link in the tree it writes"
    } else {
        ""
    };
    io::Error::other(format!("is {what}, not a directory{why}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("fedrender-beneath-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_link_is_refused_as_the_directory_even_with_a_trailing_slash() {
        let dir = scratch("trailing");
        std::fs::create_dir(dir.join("real")).unwrap();
        std::os::unix::fs::symlink(dir.join("real"), dir.join("link")).unwrap();
        for spelling in ["link", "link/", "link//", "./link/"] {
            let path = dir.join(spelling);
            let error = Directory::open(&path).unwrap_err();
            assert!(
                error.to_string().contains("is a symbolic link"),
                "{spelling}: {error}"
            );
        }
        assert!(Directory::open(&dir.join("real/")).unwrap().is_some());
        assert!(Directory::open(&dir.join("missing")).unwrap().is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn descending_refuses_a_link_at_any_component_and_reads_never_follow_one() {
        let dir = scratch("descend");
        std::fs::create_dir_all(dir.join("out/a/b")).unwrap();
        std::fs::create_dir_all(dir.join("elsewhere/b")).unwrap();
        std::fs::write(dir.join("elsewhere/secret"), "secret").unwrap();
        std::os::unix::fs::symlink(dir.join("elsewhere"), dir.join("out/c")).unwrap();
        std::os::unix::fs::symlink(dir.join("elsewhere/secret"), dir.join("out/a/file")).unwrap();
        let out = Directory::open(&dir.join("out")).unwrap().unwrap();
        assert!(out.descend("a/b").unwrap().is_some());
        assert!(out.descend("a/missing").unwrap().is_none());
        let error = out.descend("c/b").unwrap_err();
        assert!(error.to_string().contains("is a symbolic link"), "{error}");
        let a = out.descend("a").unwrap().unwrap();
        assert_eq!(
            a.read("file").unwrap(),
            Some(Existing::Other("a symbolic link"))
        );
        assert_eq!(a.read("b").unwrap(), Some(Existing::Other("a directory")));
        assert_eq!(a.read("none").unwrap(), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
