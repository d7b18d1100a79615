//! The Git repositories an ApplicationSet fleet's Applications and generators read, each a
//! local checkout the Config maps a URL to (`spec.argocd.repositories`). fedrender never
//! fetches: the checkout is the revision, whatever `targetRevision` says.

use std::collections::{BTreeMap, BTreeSet};

use crate::diagnostics::Origin;

/// One mapped repository: its URL as the Config writes it and the files of its checkout, by
/// path from the repository's root (`/`-separated, no leading `/`).
#[derive(Debug, Clone)]
pub struct Repository {
    /// The URL as the Config writes it.
    pub url: String,
    /// The directory it maps to, as the Config writes it (relative to the fleet directory).
    pub path: String,
    /// Where the Config maps it.
    pub origin: Origin,
    files: BTreeMap<String, Vec<u8>>,
}

impl Repository {
    /// A checkout of `url` read from `path`, which the Config maps at `origin`.
    pub fn new(
        url: String,
        path: String,
        origin: Origin,
        files: BTreeMap<String, Vec<u8>>,
    ) -> Self {
        Repository {
            url,
            path,
            origin,
            files,
        }
    }

    /// A checkout of `url` at `path` holding `files` (path and text), mapped by a Config
    /// `fedrender.yaml`: for tests.
    #[cfg(test)]
    pub(crate) fn of_texts(url: &str, path: &str, files: &[(&str, &str)]) -> Self {
        Repository::new(
            url.into(),
            path.into(),
            Origin::new("fedrender.yaml", 0, 1),
            files
                .iter()
                .map(|(path, text)| (path.to_string(), text.as_bytes().to_vec()))
                .collect(),
        )
    }

    /// Every file of the checkout with its bytes, in path order.
    pub fn files(&self) -> impl Iterator<Item = (&str, &[u8])> {
        self.files
            .iter()
            .map(|(path, bytes)| (path.as_str(), bytes.as_slice()))
    }

    /// Every file below `directory` (a clean relative path, not the root) with its bytes, in
    /// path order: found by a range of the sorted paths, not by a walk of every file, since
    /// each Application reads its own directory of one shared checkout.
    pub fn files_under<'a>(
        &'a self,
        directory: &str,
    ) -> impl Iterator<Item = (&'a str, &'a [u8])> + 'a {
        let prefix = format!("{directory}/");
        self.files
            .range(prefix.clone()..)
            .take_while(move |(path, _)| path.starts_with(prefix.as_str()))
            .map(|(path, bytes)| (path.as_str(), bytes.as_slice()))
    }

    /// The file at `path`, if the checkout has it.
    pub fn file(&self, path: &str) -> Option<&[u8]> {
        self.files.get(path).map(Vec::as_slice)
    }

    /// Whether `directory` (a clean relative path, not the root) holds a file, however deep:
    /// git keeps no empty directory.
    pub fn has_directory(&self, directory: &str) -> bool {
        self.files_under(directory).next().is_some()
    }

    /// Every directory that holds a file, however deep, in path order; the root is not one.
    /// Git keeps no empty directory, so neither does a checkout as Argo CD's repo server sees it.
    pub fn directories(&self) -> BTreeSet<&str> {
        let mut directories = BTreeSet::new();
        for path in self.files.keys() {
            let mut end = path.len();
            while let Some(slash) = path[..end].rfind('/') {
                if !directories.insert(&path[..slash]) {
                    break;
                }
                end = slash;
            }
        }
        directories
    }
}

/// The mapped repositories, found by URL as Argo CD compares Git URLs.
#[derive(Debug, Clone, Default)]
pub struct Repositories {
    repositories: Vec<Repository>,
}

impl Repositories {
    /// The repositories the Config maps, in its order.
    pub fn new(repositories: Vec<Repository>) -> Self {
        Repositories { repositories }
    }

    /// The repository `repo_url` names, matched as util/git `SameURL` matches two URLs.
    pub fn find(&self, repo_url: &str) -> Option<&Repository> {
        self.repositories
            .iter()
            .find(|repository| same_url(&repository.url, repo_url))
    }

    /// Every mapped repository, in the Config's order.
    pub fn iter(&self) -> impl Iterator<Item = &Repository> {
        self.repositories.iter()
    }
}

/// What the shell reads for an Argo CD fleet: the checkouts, and how git generators glob.
#[derive(Debug, Clone, Default)]
pub struct ArgoCdInputs {
    /// The mapped repositories, read whole.
    pub repositories: Repositories,
    /// The Config's `spec.argocd.newGitFileGlobbing`.
    pub new_git_file_globbing: bool,
}

/// util/git `SameURL`: two URLs name one repository when their normal forms are equal and
/// neither is empty.
pub fn same_url(left: &str, right: &str) -> bool {
    let (left, right) = (normalize_git_url(left), normalize_git_url(right));
    !left.is_empty() && left == right
}

/// util/git `NormalizeGitURL`: lower case, an scp-style SSH URL (`git@host:org/repo`) written as
/// a URL, a trailing `.git` dropped, and the `ssh://` scheme left off. Go then round-trips the
/// text through `net/url`, which rewrites only what no Git host's URL holds (bad escapes,
/// control characters): such a URL is left as written, as `NormalizeGitURLAllowInvalid` leaves it.
pub fn normalize_git_url(repo: &str) -> String {
    let mut repo = repo.trim().to_lowercase();
    if is_ssh_url(&repo) && !repo.starts_with("ssh://") {
        repo = format!("ssh://{}", repo.replacen(':', "/", 1));
    }
    let repo = repo.strip_suffix(".git").unwrap_or(&repo);
    repo.strip_prefix("ssh://").unwrap_or(repo).to_string()
}

/// util/git `IsSSHURL`: `^(ssh://)?([^/:]*?)@[^@]+$`, a user before the one `@`.
fn is_ssh_url(url: &str) -> bool {
    let rest = url.strip_prefix("ssh://").unwrap_or(url);
    match rest.split_once('@') {
        Some((user, host)) => !user.contains(['/', ':']) && !host.is_empty() && !host.contains('@'),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // A directory's files are the paths below it and only those: not a sibling whose name it
    // begins (`web2`, `web-x`, which sort on either side of `web/`), nor the directory's name
    // as a file.
    #[test]
    fn the_files_under_a_directory_are_those_below_it_in_path_order() {
        let checkout = Repository::of_texts(
            "https://example.com/r.git",
            "r",
            &[
                ("web", ""),
                ("web-x/a.yaml", ""),
                ("web/b.yaml", ""),
                ("web/deep/c.yaml", ""),
                ("web2/d.yaml", ""),
            ],
        );
        let under: Vec<&str> = checkout.files_under("web").map(|(path, _)| path).collect();
        assert_eq!(under, ["web/b.yaml", "web/deep/c.yaml"]);
        assert!(checkout.has_directory("web") && checkout.has_directory("web/deep"));
        assert!(!checkout.has_directory("we") && !checkout.has_directory("web/b.yaml"));
    }

    // argo-cd util/git git_test.go TestSameURL and TestNormalizeUrl: case, a trailing .git and
    // the SSH forms name one repository.
    #[test]
    fn urls_match_as_argo_cd_normalises_them() {
        assert!(same_url(
            "https://github.com/argoproj/argo-cd.git",
            "https://GITHUB.com/argoproj/argo-cd"
        ));
        assert!(same_url(
            "git@GITHUB.com:argoproj/test",
            "git@github.com:argoproj/test.git"
        ));
        assert!(same_url("git@github.com:test", "ssh://git@github.com/test"));
        assert!(!same_url(
            "https://github.com/argoproj/argo-cd",
            "https://github.com/argoproj/argo-events"
        ));
        assert!(!same_url("", ""));
        assert_eq!(
            normalize_git_url("git@github.com:argoproj/argo-cd.git"),
            "git@github.com/argoproj/argo-cd"
        );
        assert_eq!(
            normalize_git_url(" https://github.com/Org/Repo.git "),
            "https://github.com/org/repo"
        );
    }

    #[test]
    fn a_checkout_lists_every_directory_that_holds_a_file() {
        let files = [
            "apps/web/deploy.yaml",
            "apps/web/svc.yaml",
            "apps/db/x/y.yaml",
            "README.md",
        ]
        .into_iter()
        .map(|path| (path.to_string(), Vec::new()))
        .collect();
        let origin = Origin {
            file: "fedrender.yaml".into(),
            document: 0,
            line: 1,
            fields_under: None,
        };
        let repository = Repository::new("https://x/y".into(), "repo".into(), origin, files);
        assert_eq!(
            repository.directories().into_iter().collect::<Vec<_>>(),
            ["apps", "apps/db", "apps/db/x", "apps/web"]
        );
        assert_eq!(repository.file("README.md"), Some(&b""[..]));
        assert_eq!(repository.file("apps"), None);
        assert!(repository.has_directory("apps/db/x") && repository.has_directory("apps"));
        assert!(
            !repository.has_directory("app") && !repository.has_directory("apps/web/deploy.yaml")
        );
    }
}
