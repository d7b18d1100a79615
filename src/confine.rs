//! Paths that the repository names: a Config's `clusters` and `output`, a Helm declaration's
//! value files, what a kustomization builds on. Whoever opens a pull request writes them, so
//! each must lead to a place inside the directory the command line trusts (the fleet, or the
//! repository around it), or fedrender refuses it before anything reads or writes there.
//!
//! A path is judged where it actually leads: `..` is followed after the link it climbs out
//! of, as the kernel follows it, and a symbolic link is followed to its target, so neither
//! `../../etc` nor a committed link `values.yaml -> /proc/self/environ` gets out. The check
//! only looks at names (stat, readlink); it never opens what it judges.

use std::path::{Component, Path, PathBuf};

/// How many symbolic links one path may pass through: Linux's own limit (`ELOOP`).
const MAX_LINKS: usize = 40;

/// A directory that paths must stay inside.
#[derive(Debug, Clone)]
pub struct Confinement {
    /// As the user named it, for messages.
    shown: PathBuf,
    /// Its real location, without links.
    real: PathBuf,
}

impl Confinement {
    /// The directory `root` confines paths to; an error when it cannot be resolved.
    pub fn new(root: &Path) -> Result<Confinement, String> {
        let real = root
            .canonicalize()
            .map_err(|error| format!("cannot resolve {}: {error}", root.display()))?;
        Ok(Confinement {
            shown: root.to_path_buf(),
            real,
        })
    }

    /// The repository around `fleet`: the nearest directory at or above it holding `.git`,
    /// else `fleet` itself. A pull request can only narrow this (by adding a `.git` below the
    /// real one), never widen it.
    pub fn repository_of(fleet: &Path) -> Result<Confinement, String> {
        let fleet = Confinement::new(fleet)?;
        let Some(top) = fleet
            .real
            .ancestors()
            .find(|dir| std::fs::symlink_metadata(dir.join(".git")).is_ok())
        else {
            return Ok(fleet);
        };
        let climbs = fleet
            .real
            .strip_prefix(top)
            .map_or(0, |rest| rest.components().count());
        let mut shown = fleet.shown.clone();
        for _ in 0..climbs {
            shown.push("..");
        }
        // `fleet/..` is the working directory, which a message names as `.`, not as nothing.
        let shown = match lexically_normal(&shown) {
            normal if normal.as_os_str().is_empty() => PathBuf::from("."),
            normal => normal,
        };
        Ok(Confinement {
            shown,
            real: top.to_path_buf(),
        })
    }

    /// The repository fedrender was started in: the nearest directory at or above the working
    /// directory holding `.git`, else the working directory. The paths the command line
    /// names inside it are the job's choice, but the links along them are the pull request's.
    pub fn working_repository() -> Result<Confinement, String> {
        let cwd = std::env::current_dir()
            .map_err(|error| format!("cannot read the working directory: {error}"))?;
        let top = cwd
            .ancestors()
            .find(|dir| std::fs::symlink_metadata(dir.join(".git")).is_ok())
            .unwrap_or(&cwd);
        Confinement::new(top)
    }

    /// Checks a path the command line names: one that lies inside this directory as written
    /// must not be led out of it by a symbolic link along the way (a pull request can commit
    /// `fleet -> /` or `clusters.yaml -> /proc/self/environ`). One outside is taken as given.
    pub fn check_named(&self, path: &Path) -> Result<(), String> {
        let Ok(cwd) = std::env::current_dir() else {
            return Ok(());
        };
        let written = lexically_normal(&cwd.join(path));
        let Ok(inside) = written.strip_prefix(&self.shown) else {
            return Ok(());
        };
        match self.follow(&self.real, inside) {
            Some(real) if real.starts_with(&self.real) => Ok(()),
            Some(real) => Err(format!(
                "leads outside the repository {} through a symbolic link it holds (to {}); \
                 a link in the repository never takes fedrender outside it",
                self.shown.display(),
                real.display()
            )),
            None => Err(format!(
                "passes through more than {MAX_LINKS} symbolic links (a loop?)"
            )),
        }
    }

    /// The directory, as the user named it.
    pub fn shown(&self) -> &Path {
        &self.shown
    }

    /// `named`, written in a file of directory `base` (a directory inside this one, as the
    /// user sees it), as a path to use: `base` joined with `named`, without `.` and `..`. An
    /// error, in words, when it is absolute or leads outside, lexically or through a link.
    pub fn resolve(&self, base: &Path, named: &str) -> Result<PathBuf, String> {
        if named.is_empty() {
            return Err("is empty".to_string());
        }
        let named_path = Path::new(named);
        if named_path.has_root()
            || named_path
                .components()
                .any(|c| matches!(c, Component::Prefix(_)))
        {
            return Err(format!(
                "is absolute; name a path inside {} relative to {}",
                self.shown.display(),
                base.display()
            ));
        }
        let real_base = base
            .canonicalize()
            .map_err(|error| format!("cannot resolve {}: {error}", base.display()))?;
        match self.follow(&real_base, named_path) {
            Some(real) if real.starts_with(&self.real) => Ok(lexically_normal(&base.join(named))),
            Some(_) if leaves_lexically(&real_base, named_path, &self.real) => Err(format!(
                "leads outside {}; fedrender reads and writes only inside it",
                self.shown.display()
            )),
            Some(_) => Err(format!(
                "leads outside {} through a symbolic link; fedrender reads and writes only \
                 inside it",
                self.shown.display()
            )),
            None => Err(format!(
                "passes through more than {MAX_LINKS} symbolic links (a loop?)"
            )),
        }
    }

    /// Whether `path` (a path as the user sees it, existing or not) really lies inside.
    pub fn contains(&self, path: &Path) -> bool {
        let (start, rest) = match path.canonicalize() {
            Ok(real) => return real.starts_with(&self.real),
            Err(_) => match std::env::current_dir() {
                Ok(cwd) => (cwd, path),
                Err(_) => return false,
            },
        };
        self.follow(&start, rest)
            .is_some_and(|real| real.starts_with(&self.real))
    }

    /// Where `path` leads from the real directory `from`, each link followed as the kernel
    /// would; `None` past [`MAX_LINKS`] links. Names that do not exist are taken as written.
    fn follow(&self, from: &Path, path: &Path) -> Option<PathBuf> {
        let mut at = if path.has_root() {
            PathBuf::from("/")
        } else {
            from.to_path_buf()
        };
        let mut pending: Vec<PathBuf> = path
            .components()
            .rev()
            .map(|component| PathBuf::from(component.as_os_str()))
            .collect();
        let mut links = 0;
        while let Some(component) = pending.pop() {
            match component.components().next() {
                None | Some(Component::CurDir) => {}
                Some(Component::RootDir | Component::Prefix(_)) => at = PathBuf::from("/"),
                Some(Component::ParentDir) => {
                    at.pop();
                }
                Some(Component::Normal(name)) => {
                    let next = at.join(name);
                    match std::fs::read_link(&next) {
                        Ok(target) => {
                            links += 1;
                            if links > MAX_LINKS {
                                return None;
                            }
                            if target.has_root() {
                                at = PathBuf::from("/");
                            }
                            pending.extend(
                                target
                                    .components()
                                    .rev()
                                    .map(|component| PathBuf::from(component.as_os_str())),
                            );
                        }
                        Err(_) => at = next,
                    }
                }
            }
        }
        Some(at)
    }
}

/// Whether `named`, read from `base` without following links, climbs out of `root`.
fn leaves_lexically(base: &Path, named: &Path, root: &Path) -> bool {
    !lexically_normal(&base.join(named)).starts_with(root)
}

/// `a/b/../c/./d` → `a/c/d`, without touching the file system; a `..` that would climb above
/// the start of a relative path is kept.
pub fn lexically_normal(path: &Path) -> PathBuf {
    let mut normal = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir
                if normal
                    .components()
                    .next_back()
                    .is_some_and(|last| matches!(last, Component::Normal(_))) =>
            {
                normal.pop();
            }
            Component::ParentDir if normal.has_root() => {}
            other => normal.push(other),
        }
    }
    normal
}

/// A path within the repository as Git names it (`clusters/rendered`, no `.`, no `..`, no
/// trailing slash), from what a user wrote; an error, in words, when it leaves the repository.
pub fn repository_path(written: &str) -> Result<String, String> {
    let path = Path::new(written);
    if path.has_root() {
        return Err("is absolute; give the path within the repository".to_string());
    }
    let normal = lexically_normal(path);
    if normal
        .components()
        .next()
        .is_some_and(|first| first == Component::ParentDir)
    {
        return Err("climbs out of the repository; give the path within it".to_string());
    }
    let text = normal.to_string_lossy().into_owned();
    if text.is_empty() {
        return Err("names the repository itself; give the output directory's path".to_string());
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("fedrender-confine-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("repo/fleet/app")).unwrap();
        std::fs::create_dir_all(dir.join("outside")).unwrap();
        std::fs::write(dir.join("outside/secret"), "x").unwrap();
        dir
    }

    #[test]
    fn paths_inside_are_joined_and_normalised() {
        let dir = scratch("inside");
        let fleet = Confinement::new(&dir.join("repo/fleet")).unwrap();
        let app = dir.join("repo/fleet/app");
        assert_eq!(
            fleet.resolve(&app, "./values/../values.yaml").unwrap(),
            app.join("values.yaml")
        );
        assert_eq!(
            fleet.resolve(&app, "../other/x.yaml").unwrap(),
            dir.join("repo/fleet/other/x.yaml")
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn absolute_and_climbing_paths_are_refused() {
        let dir = scratch("climb");
        let fleet = Confinement::new(&dir.join("repo/fleet")).unwrap();
        let app = dir.join("repo/fleet/app");
        let absolute = fleet.resolve(&app, "/etc/passwd").unwrap_err();
        assert!(absolute.starts_with("is absolute"), "{absolute}");
        for climbing in [
            "../../outside/secret",
            "../..",
            "a/../../../x",
            "../app/../../y",
        ] {
            let error = fleet.resolve(&app, climbing).unwrap_err();
            assert!(error.starts_with("leads outside"), "{climbing}: {error}");
            assert!(!error.contains("symbolic link"), "{climbing}: {error}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn links_are_followed_to_where_they_lead() {
        use std::os::unix::fs::symlink;
        let dir = scratch("links");
        let app = dir.join("repo/fleet/app");
        symlink(dir.join("outside/secret"), app.join("values.yaml")).unwrap();
        symlink(dir.join("outside"), app.join("out")).unwrap();
        symlink("/proc/self/environ", app.join("environ")).unwrap();
        symlink("../app", app.join("same")).unwrap();
        symlink("loop", app.join("loop")).unwrap();
        let fleet = Confinement::new(&dir.join("repo/fleet")).unwrap();
        for escaping in [
            "values.yaml",
            "out/secret",
            "environ",
            "out/../repo/../outside",
        ] {
            let error = fleet.resolve(&app, escaping).unwrap_err();
            assert!(error.contains("symbolic link"), "{escaping}: {error}");
        }
        // `out/..` is `outside/..`, the scratch directory, not `app`.
        let error = fleet
            .resolve(&app, "out/../repo/fleet/../../outside")
            .unwrap_err();
        assert!(error.contains("leads outside"), "{error}");
        assert!(fleet.resolve(&app, "same/x.yaml").is_ok());
        assert!(
            fleet
                .resolve(&app, "loop")
                .unwrap_err()
                .contains("symbolic links")
        );
        assert!(!fleet.contains(&app.join("values.yaml")));
        assert!(fleet.contains(&app.join("same/missing.yaml")));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_repository_is_where_git_is() {
        let dir = scratch("git");
        std::fs::create_dir_all(dir.join("repo/.git")).unwrap();
        let repository = Confinement::repository_of(&dir.join("repo/fleet")).unwrap();
        assert_eq!(repository.shown(), dir.join("repo"));
        let fleet = dir.join("repo/fleet");
        assert_eq!(
            repository.resolve(&fleet, "../rendered").unwrap(),
            dir.join("repo/rendered")
        );
        assert!(repository.resolve(&fleet, "../../outside").is_err());
        std::fs::remove_dir_all(dir.join("repo/.git")).unwrap();
        let alone = Confinement::repository_of(&fleet).unwrap();
        assert_eq!(alone.shown(), fleet);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn repository_paths_are_normalised_and_kept_inside() {
        assert_eq!(repository_path("./rendered/").unwrap(), "rendered");
        assert_eq!(repository_path("a/b/../c").unwrap(), "a/c");
        for leaving in ["a/../../x", "rendered/../..", "..", "../x", "/abs"] {
            assert!(repository_path(leaving).is_err(), "{leaving}");
        }
        assert!(repository_path(".").is_err());
    }
}
