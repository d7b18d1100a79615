//! End-to-end: the GitHub Action's scripts (.github/action), run as a workflow runs them —
//! GitHub's environment, a pull-request event, a git checkout with the pull request's base —
//! with the real binary and a stand-in `gh` that keeps comments in a directory. Skipped, and
//! reported so, where bash, git or jq is missing (GitHub's runners and CI have all three).
#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common;
use common::{copy_tree, empty_scratch, fedrender_in};

/// The build the Action's fixture repositories commit: `fleet` with `clusters.yaml` into
/// `rendered`.
const BUILD_RENDERED: [&str; 6] = [
    "build",
    "fleet",
    "--clusters",
    "clusters.yaml",
    "--out",
    "rendered",
];

/// Whether bash, git and jq run here; a test without them is reported skipped (a failure
/// under CI).
fn tools_present() -> bool {
    common::tools::require(&["bash", "git", "jq"])
}

/// This machine's release archive and bash and tar to install it; a test without them is
/// reported skipped (a failure under CI, for the tools).
fn install_target() -> Option<&'static str> {
    let Some(target) = target() else {
        common::tools::skip_because("fedrender publishes no release archive for this machine");
        return None;
    };
    common::tools::require(&["bash", "tar"]).then_some(target)
}

/// Records every call and keeps comments as files named by id (their authors beside them, in
/// `authors/`), answering the calls the script makes as `gh api` would: the comments of a pull
/// request, `pulls.json` filtered by `head=owner:branch` as GitHub filters the open pull
/// requests, a new comment by `GH_LOGIN` (github-actions[bot] unless set), an edit; and
/// `--jq` applied to the answer.
const STAND_IN_GH: &str = r#"#!/usr/bin/env bash
set -euo pipefail
echo "gh $*" >> "$GH_STATE/calls"
mkdir -p "$GH_STATE/comments" "$GH_STATE/authors"
method=GET; body=; path=; head=; query=.
while [ $# -gt 0 ]; do
  case "$1" in
    api|--paginate) ;;
    --method) method=$2; shift ;;
    -F) body=${2#body=@}; shift ;;
    -f) case "$2" in head=*) head=${2#head=} ;; esac; shift ;;
    --jq) query=$2; shift ;;
    *) path=$1 ;;
  esac
  shift
done
answer() { jq -r "$query"; }
case "$method $path" in
  "GET repos/"*"/pulls")
    jq --arg head "$head" '[.[] | select(.head.repo.owner.login + ":" + .head.ref == $head)]' \
      "$GH_STATE/pulls.json" | answer ;;
  "GET repos/"*"/comments")
    for file in "$GH_STATE"/comments/*; do
      [ -e "$file" ] || continue
      id=${file##*/}
      author=$(cat "$GH_STATE/authors/$id" 2>/dev/null || echo 'github-actions[bot]')
      jq -n --argjson id "$id" --arg login "$author" --rawfile body "$file" \
        '{id: $id, user: {login: $login}, body: $body}'
    done | jq -s . | answer ;;
  "POST repos/"*"/comments")
    id=$((1000 + $(ls "$GH_STATE/comments" | wc -l)))
    cp "$body" "$GH_STATE/comments/$id"
    printf '%s' "${GH_LOGIN:-github-actions[bot]}" > "$GH_STATE/authors/$id"
    echo "{\"id\": $id}" ;;
  "PATCH repos/"*"/issues/comments/"*)
    cp "$body" "$GH_STATE/comments/${path##*/}"; echo '{}' ;;
  *) echo "unexpected gh call: $method $path" >&2; exit 1 ;;
esac
"#;

struct Repo {
    dir: PathBuf,
    bin: PathBuf,
    gh_state: PathBuf,
    base: String,
}

impl Drop for Repo {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(self.dir.parent().unwrap());
    }
}

fn git(dir: &Path, args: &[&str]) -> String {
    let output = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(output.status.success(), "git {args:?}: {output:?}");
    String::from_utf8(output.stdout).unwrap().trim().to_string()
}

/// A fleet repository: the example fleet committed with its rendered tree (the base), then a
/// commit that changes one replica count and renders again (the pull request's head).
fn repository(name: &str) -> Repo {
    repository_of(
        name,
        "examples/fleet",
        "examples/clusters.yaml",
        change_replicas,
    )
}

/// A repository of the fleet `fleet` with the inventory `clusters`, committed with its
/// rendered tree (the base), then a commit that makes `change` and renders again (the head).
fn repository_of(name: &str, fleet: &str, clusters: &str, change: fn(&Path)) -> Repo {
    let root = empty_scratch(&format!("action-{name}"));
    let dir = root.join("repo");
    copy_tree(Path::new(fleet), &dir.join("fleet"));
    std::fs::copy(clusters, dir.join("clusters.yaml")).unwrap();
    let build = BUILD_RENDERED;
    assert!(fedrender_in(&dir, &build).status.success());
    git(&dir, &["init", "-q"]);
    git(&dir, &["add", "-A"]);
    git(&dir, &["commit", "-q", "-m", "base"]);
    let base = git(&dir, &["rev-parse", "HEAD"]);
    change(&dir);
    assert!(fedrender_in(&dir, &build).status.success());
    git(&dir, &["commit", "-q", "-am", "head"]);
    let bin = root.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_fedrender"), bin.join("fedrender")).unwrap();
    std::fs::write(bin.join("gh"), STAND_IN_GH).unwrap();
    make_executable(&bin.join("gh"));
    let gh_state = root.join("gh");
    std::fs::create_dir_all(&gh_state).unwrap();
    Repo {
        dir,
        bin,
        gh_state,
        base,
    }
}

fn make_executable(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// Changes the first `replicas: N` of the fleet to N + 1.
fn change_replicas(dir: &Path) {
    for entry in walkdir::WalkDir::new(dir.join("fleet")).sort_by_file_name() {
        let entry = entry.unwrap();
        if !entry.file_type().is_file() {
            continue;
        }
        let text = std::fs::read_to_string(entry.path()).unwrap();
        if let Some(at) = text.find("replicas: ") {
            let rest = &text[at + "replicas: ".len()..];
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            if let Ok(count) = digits.parse::<u32>() {
                let changed = format!(
                    "{}replicas: {}{}",
                    &text[..at],
                    count + 1,
                    &rest[digits.len()..]
                );
                std::fs::write(entry.path(), changed).unwrap();
                return;
            }
        }
    }
    panic!("the example fleet has a replica count");
}

/// Moves the Argo CD example's guestbook to a new image tag, in the checkout its
/// ApplicationSet's Applications deploy.
fn change_guestbook_image(dir: &Path) {
    let path = dir.join("fleet/repo/guestbook/deployment.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("ks-guestbook-demo:0.2"), "{text}");
    std::fs::write(
        &path,
        text.replace("ks-guestbook-demo:0.2", "ks-guestbook-demo:0.3"),
    )
    .unwrap();
}

struct Run {
    output: Output,
    outputs: String,
    summary: String,
}

impl Run {
    fn code(&self) -> Option<i32> {
        self.output.status.code()
    }

    fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.output.stderr).into_owned()
    }
}

/// Runs `run.sh` in the repository as the Action's step does, on a pull request from
/// `head_repo` into `acme/fleet` whose base is `base`.
fn run_action(repo: &Repo, base: &str, head_repo: &str, extra_env: &[(&str, &str)]) -> Run {
    run_on_event(repo, &pull_request_event("7", base, head_repo), extra_env)
}

/// The `pull_request` event GitHub writes for pull request `number` (JSON: a number, or
/// anything else as the test needs), from `head_repo` into `acme/fleet`.
fn pull_request_event(number: &str, base: &str, head_repo: &str) -> String {
    format!(
        r#"{{"pull_request": {{"number": {number}, "base": {{"sha": {base:?}, "repo": {{"full_name": "acme/fleet"}}}}, "head": {{"repo": {{"full_name": "{head_repo}"}}}}}}}}"#
    )
}

/// Runs `run.sh render` in the repository on the pull-request `event` given as JSON.
fn run_on_event(repo: &Repo, event_json: &str, extra_env: &[(&str, &str)]) -> Run {
    let runner = repo.dir.parent().unwrap().join("runner");
    let _ = std::fs::remove_dir_all(&runner);
    std::fs::create_dir_all(&runner).unwrap();
    let event = runner.join("event.json");
    std::fs::write(&event, event_json).unwrap();
    let outputs = runner.join("output");
    let summary = runner.join("summary");
    let path = format!(
        "{}:{}",
        repo.bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let script = std::fs::canonicalize(".github/action/run.sh").unwrap();
    let mut command = Command::new("bash");
    command
        .arg(script)
        .arg("render")
        .current_dir(&repo.dir)
        .env("PATH", path)
        .env("GH_STATE", &repo.gh_state)
        .env("GH_TOKEN", "token-that-comments")
        .env("GITHUB_EVENT_NAME", "pull_request")
        .env("GITHUB_EVENT_PATH", &event)
        .env("GITHUB_OUTPUT", &outputs)
        .env("GITHUB_STEP_SUMMARY", &summary)
        .env("GITHUB_REPOSITORY", "acme/fleet")
        .env("GITHUB_SERVER_URL", "https://github.com")
        .env("GITHUB_RUN_ID", "42")
        .env("RUNNER_TEMP", &runner);
    for (name, value) in extra_env {
        command.env(name, value);
    }
    let output = command.output().unwrap();
    Run {
        output,
        outputs: std::fs::read_to_string(&outputs).unwrap_or_default(),
        summary: std::fs::read_to_string(&summary).unwrap_or_default(),
    }
}

/// The directory a render run left for the workflow_run job.
fn comment_dir(run: &Run) -> PathBuf {
    PathBuf::from(
        run.outputs
            .lines()
            .find_map(|line| line.strip_prefix("comment-dir="))
            .expect("the comment's directory"),
    )
}

/// The base repository's open pull requests, as (number, head repository, branch, commit).
fn open_pulls(repo: &Repo, pulls: &[(u32, &str, &str, &str)]) {
    let pulls: Vec<String> = pulls
        .iter()
        .map(|(number, head_repo, branch, sha)| {
            let owner = head_repo.split('/').next().unwrap();
            format!(
                r#"{{"number": {number}, "head": {{"ref": {branch:?}, "sha": {sha:?}, "repo": {{"full_name": {head_repo:?}, "owner": {{"login": {owner:?}}}}}}}, "base": {{"repo": {{"full_name": "acme/fleet"}}}}}}"#
            )
        })
        .collect();
    std::fs::write(
        repo.gh_state.join("pulls.json"),
        format!("[{}]", pulls.join(",")),
    )
    .unwrap();
}

/// Runs `run.sh comment DIR` as the workflow_run job does: no checkout of the pull request and
/// no fedrender, GitHub's `workflow_run` event naming the run's head (`head_repo`, branch
/// `feature`, commit `head_sha`), and the artifact in `dir`.
fn post_artifact(
    repo: &Repo,
    dir: &Path,
    head_repo: &str,
    head_sha: &str,
    extra_env: &[(&str, &str)],
) -> Output {
    post_artifact_of_run(repo, dir, head_repo, head_sha, "success", extra_env)
}

/// As [`post_artifact`], after a run that ended with `conclusion` (`success`, `failure`, …).
fn post_artifact_of_run(
    repo: &Repo,
    dir: &Path,
    head_repo: &str,
    head_sha: &str,
    conclusion: &str,
    extra_env: &[(&str, &str)],
) -> Output {
    let runner = repo.dir.parent().unwrap().join("comment-runner");
    let _ = std::fs::remove_dir_all(&runner);
    std::fs::create_dir_all(&runner).unwrap();
    let event = runner.join("event.json");
    std::fs::write(
        &event,
        format!(
            r#"{{"workflow_run": {{"id": 43, "event": "pull_request", "conclusion": "{conclusion}", "head_branch": "feature", "head_sha": "{head_sha}", "head_repository": {{"full_name": "{head_repo}"}}, "pull_requests": []}}}}"#
        ),
    )
    .unwrap();
    let mut command = Command::new("bash");
    command
        .arg(std::fs::canonicalize(".github/action/run.sh").unwrap())
        .arg("comment")
        .arg(dir)
        .current_dir(&runner)
        .env(
            "PATH",
            format!("{}:{}", repo.bin.display(), std::env::var("PATH").unwrap()),
        )
        .env("GH_STATE", &repo.gh_state)
        .env("GH_TOKEN", "token-that-comments")
        .env("GITHUB_EVENT_NAME", "workflow_run")
        .env("GITHUB_EVENT_PATH", &event)
        .env("GITHUB_REPOSITORY", "acme/fleet")
        .env("RUNNER_TEMP", &runner);
    for (name, value) in extra_env {
        command.env(name, value);
    }
    command.output().unwrap()
}

/// Everything a run printed, standard output then standard error.
fn log(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

fn comments(repo: &Repo) -> Vec<(String, String)> {
    let mut comments: Vec<(String, String)> = std::fs::read_dir(repo.gh_state.join("comments"))
        .map(|entries| {
            entries
                .map(|entry| {
                    let entry = entry.unwrap();
                    let id = entry.file_name().to_string_lossy().into_owned();
                    (id, std::fs::read_to_string(entry.path()).unwrap())
                })
                .collect()
        })
        .unwrap_or_default();
    comments.sort();
    comments
}

/// The value a run gave its output `name`, if any.
fn output(run: &Run, name: &str) -> Option<String> {
    let prefix = format!("{name}=");
    run.outputs
        .lines()
        .find_map(|line| line.strip_prefix(&prefix))
        .map(str::to_string)
}

/// The HTML report a render run left for the artifact fedrender-report.
fn html_report(run: &Run) -> PathBuf {
    let dir = output(run, "html-report").expect("the HTML report's directory");
    PathBuf::from(dir).join("fedrender-report.html")
}

fn calls(repo: &Repo) -> String {
    std::fs::read_to_string(repo.gh_state.join("calls")).unwrap_or_default()
}

#[test]
fn a_pull_request_gets_one_comment_edited_on_every_push() {
    if !tools_present() {
        return;
    }
    let repo = repository("comment");
    let first = run_action(&repo, &repo.base, "acme/fleet", &[]);
    assert_eq!(first.code(), Some(0), "{}", first.stderr());
    assert!(first.outputs.contains("changed=true"), "{}", first.outputs);
    assert!(first.outputs.contains("exit-code=0"), "{}", first.outputs);
    assert!(
        first.outputs.contains("truncated=false"),
        "{}",
        first.outputs
    );
    let posted = comments(&repo);
    assert_eq!(posted.len(), 1, "{posted:?}");
    assert!(posted[0].1.starts_with("<!-- fedrender diff -->\n"));
    assert!(posted[0].1.contains("Replicas moved"), "{}", posted[0].1);
    assert!(
        first.summary.contains("Replicas moved"),
        "{}",
        first.summary
    );
    assert!(calls(&repo).contains("--method POST"));
    // The same review as one HTML page, for the artifact fedrender-report, which the comment
    // and the summary link to this run for.
    let page = std::fs::read_to_string(html_report(&first)).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"), "{page}");
    assert!(
        page.contains("fedrender: what this pull request changes in each cluster"),
        "{page}"
    );
    assert!(page.contains("Deployment.apps"), "{page}");
    let link = "Full report: the artifact `fedrender-report` of [this run](https://github.com/acme/fleet/actions/runs/42)";
    assert!(posted[0].1.contains(link), "{}", posted[0].1);
    assert!(first.summary.contains(link), "{}", first.summary);
    let action = std::fs::read_to_string("action.yml").unwrap();
    assert!(
        action.contains(
            "name: fedrender-report\n        path: ${{ steps.render.outputs.html-report }}"
        ),
        "action.yml uploads the HTML report"
    );

    let second = run_action(&repo, &repo.base, "acme/fleet", &[]);
    assert_eq!(second.code(), Some(0), "{}", second.stderr());
    let edited = comments(&repo);
    assert_eq!(edited.len(), 1, "still one comment: {edited:?}");
    assert_eq!(edited[0].0, posted[0].0);
    assert!(calls(&repo).contains(&format!(
        "--method PATCH repos/acme/fleet/issues/comments/{}",
        posted[0].0
    )));
}

// An ApplicationSet fleet gets the same review as a Karmada fleet: the Action runs the same
// commands, and the comment names each cluster the image change reaches.
#[test]
fn an_application_set_fleets_pull_request_gets_the_same_review() {
    if !tools_present() {
        return;
    }
    let repo = repository_of(
        "argocd",
        "examples/argocd/fleet",
        "examples/argocd/clusters.yaml",
        change_guestbook_image,
    );
    let run = run_action(&repo, &repo.base, "acme/fleet", &[]);
    assert_eq!(run.code(), Some(0), "{}", run.stderr());
    assert!(run.outputs.contains("changed=true"), "{}", run.outputs);
    let posted = comments(&repo);
    assert_eq!(posted.len(), 1, "{posted:?}");
    let comment = &posted[0].1;
    assert!(comment.contains("ks-guestbook-demo:0.3"), "{comment}");
    // The guestbook ApplicationSet selects the env=prod clusters only, and the comment says
    // which Application placed the object.
    assert!(
        comment.contains("**Touches** prod-eu, prod-us (2 clusters)."),
        "{comment}"
    );
    assert!(
        comment.contains("placed by Application argocd/guestbook-prod-"),
        "{comment}"
    );
}

#[test]
fn an_unchanged_fleet_says_so() {
    if !tools_present() {
        return;
    }
    let repo = repository("unchanged");
    let head = git(&repo.dir, &["rev-parse", "HEAD"]);
    let run = run_action(&repo, &head, "acme/fleet", &[]);
    assert_eq!(run.code(), Some(0), "{}", run.stderr());
    assert!(run.outputs.contains("changed=false"), "{}", run.outputs);
    let posted = comments(&repo);
    assert_eq!(posted.len(), 1);
    assert!(posted[0].1.contains("No changes"), "{}", posted[0].1);
}

#[test]
fn a_stale_tree_fails_the_check_and_an_error_exits_two() {
    if !tools_present() {
        return;
    }
    let repo = repository("stale");
    change_replicas(&repo.dir);
    let stale = run_action(&repo, &repo.base, "acme/fleet", &[]);
    assert_eq!(stale.code(), Some(1), "{}", stale.stderr());
    assert!(stale.outputs.contains("exit-code=1"), "{}", stale.outputs);
    let out = String::from_utf8_lossy(&stale.output.stdout);
    assert!(out.contains("rendered is out of date"), "{out}");
    // The comment says so first, before the diff, with the command that brings it up to date.
    let stale_line = "> **The committed `rendered/` is stale:** run `fedrender build fleet --clusters clusters.yaml --out rendered` and commit the result.";
    let posted = comments(&repo);
    assert_eq!(posted.len(), 1, "{posted:?}");
    let mut lines = posted[0].1.lines();
    assert_eq!(lines.next(), Some("<!-- fedrender diff -->"));
    assert!(
        lines.next().unwrap().starts_with(stale_line),
        "{}",
        posted[0].1
    );
    assert!(posted[0].1.contains("Replicas moved"), "{}", posted[0].1);
    assert!(stale.summary.starts_with(stale_line), "{}", stale.summary);
    // Brought up to date, the next push's comment says nothing of it.
    let build = BUILD_RENDERED;
    assert!(fedrender_in(&repo.dir, &build).status.success());
    let fresh = run_action(&repo, &repo.base, "acme/fleet", &[]);
    assert_eq!(fresh.code(), Some(0), "{}", fresh.stderr());
    assert!(
        !comments(&repo)[0].1.contains("is stale"),
        "{:?}",
        comments(&repo)
    );
    change_replicas(&repo.dir);

    std::fs::write(repo.dir.join("fleet/broken.yaml"), "kind: [unclosed\n").unwrap();
    let broken = run_action(&repo, &repo.base, "acme/fleet", &[]);
    assert_eq!(broken.code(), Some(2), "{}", broken.stderr());
    assert!(broken.outputs.contains("exit-code=2"), "{}", broken.outputs);
    assert!(broken.stderr().contains("::error::"), "{}", broken.stderr());
}

/// A danger finding denied by a lint level (`args: --deny pruned`) fails the step (exit 2, as
/// fedrender's own exit), but only after the comment with its Review section is posted: the
/// reviewer needs it most then. An error that prints no report still posts nothing.
#[test]
fn a_denied_danger_finding_posts_the_review_then_fails_the_step() {
    if !tools_present() {
        return;
    }
    let repo = repository("denied");
    // Prometheus down to 0 replicas: Karmada places it nowhere, so it leaves every cluster
    // while its template stays (`pruned`).
    let file = repo.dir.join("fleet/monitoring/prometheus.yaml");
    let text = std::fs::read_to_string(&file).unwrap();
    let at = text
        .find("replicas: ")
        .expect("prometheus has a replica count");
    let digits = text[at + "replicas: ".len()..]
        .chars()
        .take_while(char::is_ascii_digit)
        .count();
    let zero = format!(
        "{}replicas: 0{}",
        &text[..at],
        &text[at + "replicas: ".len() + digits..]
    );
    std::fs::write(&file, zero).unwrap();
    let build = BUILD_RENDERED;
    assert!(fedrender_in(&repo.dir, &build).status.success());
    git(&repo.dir, &["commit", "-q", "-am", "prometheus to zero"]);

    let run = run_action(
        &repo,
        &repo.base,
        "acme/fleet",
        &[("ARGS", "--deny pruned")],
    );
    assert_eq!(run.code(), Some(2), "{}", run.stderr());
    assert!(run.outputs.contains("exit-code=2"), "{}", run.outputs);
    assert!(run.outputs.contains("changed=true"), "{}", run.outputs);
    let posted = comments(&repo);
    assert_eq!(posted.len(), 1, "the review is posted: {posted:?}");
    let body = &posted[0].1;
    assert!(body.contains("#### Review"), "{body}");
    assert!(
        body.contains("`pruned` `Deployment.apps monitoring/prometheus`"),
        "{body}"
    );
    assert!(run.summary.contains("#### Review"), "{}", run.summary);
    let printed = log(&run.output);
    assert!(
        printed.contains("::error::fedrender diff: a danger finding is denied"),
        "{printed}"
    );

    // Cut to fit a small comment: still posted, still failing.
    let cut = run_action(
        &repo,
        &repo.base,
        "acme/fleet",
        &[("ARGS", "--deny pruned"), ("MAX_COMMENT_BYTES", "1500")],
    );
    assert_eq!(cut.code(), Some(2), "{}", cut.stderr());
    assert!(cut.outputs.contains("truncated=true"), "{}", cut.outputs);
    assert!(
        comments(&repo)[0].1.contains("`pruned`"),
        "{:?}",
        comments(&repo)
    );
}

#[test]
fn a_diff_too_long_for_a_comment_is_cut_with_a_link_to_the_whole_report() {
    if !tools_present() {
        return;
    }
    let repo = repository("long");
    // Every image changed: a change per workload, each with its diff.
    for entry in walkdir::WalkDir::new(repo.dir.join("fleet")) {
        let entry = entry.unwrap();
        if entry.file_type().is_file() {
            let text = std::fs::read_to_string(entry.path()).unwrap();
            let changed: Vec<String> = text
                .lines()
                .map(|line| match line.trim_start().strip_prefix("image: ") {
                    Some(_) => format!("{line}-next"),
                    None => line.to_string(),
                })
                .collect();
            std::fs::write(entry.path(), changed.join("\n") + "\n").unwrap();
        }
    }
    let build = BUILD_RENDERED;
    let built = fedrender_in(&repo.dir, &build);
    assert!(built.status.success(), "{built:?}");
    let run = run_action(
        &repo,
        &repo.base,
        "acme/fleet",
        &[("MAX_COMMENT_BYTES", "2500")],
    );
    assert_eq!(run.code(), Some(0), "{}", run.stderr());
    assert!(run.outputs.contains("truncated=true"), "{}", run.outputs);
    let posted = comments(&repo);
    let body = &posted[0].1;
    assert!(body.len() <= 2500, "{} bytes: {body}", body.len());
    assert!(body.contains("what this pull request changes"), "{body}");
    assert!(
        body.contains("and the whole Markdown the artifact `fedrender-diff`."),
        "{body}"
    );
    let full = run
        .outputs
        .lines()
        .find_map(|line| line.strip_prefix("full-report="))
        .expect("the whole report's directory");
    // The full review is the HTML report, and the cut comment says so.
    assert!(
        body.contains(
            "the full review is the artifact `fedrender-report` of [this run](https://github.com/acme/fleet/actions/runs/42)"
        ),
        "{body}"
    );
    let page = std::fs::read_to_string(html_report(&run)).unwrap();
    assert!(page.len() > body.len(), "the page holds every hunk");
    let whole = std::fs::read_to_string(Path::new(full).join("diff.md")).unwrap();
    assert!(
        whole.len() > body.len(),
        "the artifact holds more than the comment"
    );
}

#[test]
fn a_fork_never_comments_and_leaves_the_comment_for_a_workflow_run_job() {
    if !tools_present() {
        return;
    }
    let repo = repository("fork");
    let run = run_action(&repo, &repo.base, "someone/fleet", &[]);
    assert_eq!(run.code(), Some(0), "{}", run.stderr());
    assert!(calls(&repo).is_empty(), "{}", calls(&repo));
    let left = comment_dir(&run);
    assert_eq!(std::fs::read_to_string(left.join("number")).unwrap(), "7\n");
    // The workflow_run job posts it: no fedrender, no checkout, only the artifact and the
    // event, which names the head that pull request 7 has.
    let head = git(&repo.dir, &["rev-parse", "HEAD"]);
    open_pulls(&repo, &[(7, "someone/fleet", "feature", &head)]);
    let posted = post_artifact(&repo, &left, "someone/fleet", &head, &[]);
    assert!(posted.status.success(), "{posted:?}");
    let posted = comments(&repo);
    assert_eq!(posted.len(), 1);
    assert!(posted[0].1.contains("Replicas moved"), "{}", posted[0].1);
    assert!(
        calls(&repo).contains("-f head=someone:feature"),
        "{}",
        calls(&repo)
    );
    // The next push's run edits the same comment.
    let again = post_artifact(&repo, &left, "someone/fleet", &head, &[]);
    assert!(again.status.success(), "{again:?}");
    assert_eq!(comments(&repo).len(), 1);
    // A number that is not one is refused before any call.
    std::fs::write(left.join("number"), "7; rm -rf /").unwrap();
    let calls_before = calls(&repo);
    let refused = post_artifact(&repo, &left, "someone/fleet", &head, &[]);
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    assert_eq!(calls(&repo), calls_before, "no gh call for a bad number");
    assert!(!log(&refused).contains("rm -rf"), "{}", log(&refused));
}

/// The fork's own run controls its artifact: a number naming another pull request (here a
/// maintainer's), with text meant for the privileged job's log.
#[test]
fn a_fork_artifact_naming_another_pull_request_is_refused() {
    if !tools_present() {
        return;
    }
    let repo = repository("forged-number");
    let run = run_action(&repo, &repo.base, "someone/fleet", &[]);
    assert_eq!(run.code(), Some(0), "{}", run.stderr());
    let left = comment_dir(&run);
    let head = git(&repo.dir, &["rev-parse", "HEAD"]);
    open_pulls(
        &repo,
        &[
            (7, "someone/fleet", "feature", &head),
            (4242, "acme/fleet", "feature", &repo.base),
        ],
    );
    std::fs::write(left.join("number"), "4242\n").unwrap();
    std::fs::write(
        left.join("body.md"),
        "<!-- fedrender diff -->\n::error::forged-by-the-artifact\nLooks good, merging.\n",
    )
    .unwrap();
    let refused = post_artifact(&repo, &left, "someone/fleet", &head, &[]);
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    assert!(comments(&repo).is_empty(), "{:?}", comments(&repo));
    assert!(!calls(&repo).contains("--method POST"), "{}", calls(&repo));
    assert!(!calls(&repo).contains("--method PATCH"), "{}", calls(&repo));
    let printed = log(&refused);
    assert!(printed.contains("::error::"), "{printed}");
    assert!(
        !printed.contains("4242"),
        "the artifact's number: {printed}"
    );
    assert!(!printed.contains("forged-by-the-artifact"), "{printed}");
}

/// No open pull request at the head the event names (closed, another repository of the same
/// owner, or none at all): nothing is posted. A pull request that has moved on since is left
/// to its newer run.
#[test]
fn a_fork_artifact_with_no_open_pull_request_at_its_head_is_refused() {
    if !tools_present() {
        return;
    }
    let repo = repository("no-pull");
    let run = run_action(&repo, &repo.base, "someone/fleet", &[]);
    assert_eq!(run.code(), Some(0), "{}", run.stderr());
    let left = comment_dir(&run);
    let head = git(&repo.dir, &["rev-parse", "HEAD"]);

    open_pulls(&repo, &[]);
    let none = post_artifact(&repo, &left, "someone/fleet", &head, &[]);
    assert_eq!(none.status.code(), Some(2), "{none:?}");

    open_pulls(&repo, &[(7, "someone/other-fleet", "feature", &head)]);
    let elsewhere = post_artifact(&repo, &left, "someone/fleet", &head, &[]);
    assert_eq!(elsewhere.status.code(), Some(2), "{elsewhere:?}");

    open_pulls(&repo, &[(7, "someone/fleet", "feature", &repo.base)]);
    let moved = post_artifact(&repo, &left, "someone/fleet", &head, &[]);
    assert_eq!(moved.status.code(), Some(0), "{moved:?}");
    assert!(log(&moved).contains("::notice::"), "{}", log(&moved));

    assert!(comments(&repo).is_empty(), "{:?}", comments(&repo));
    assert!(!calls(&repo).contains("--method POST"), "{}", calls(&repo));
}

/// An artifact's body.md that is a link to a file of the privileged runner (its event, a
/// credential) is not posted: gh would read what the link leads to.
#[test]
fn a_fork_artifact_linking_to_the_runner_s_files_is_refused() {
    if !tools_present() {
        return;
    }
    let repo = repository("linked-body");
    let run = run_action(&repo, &repo.base, "someone/fleet", &[]);
    assert_eq!(run.code(), Some(0), "{}", run.stderr());
    let left = comment_dir(&run);
    let head = git(&repo.dir, &["rev-parse", "HEAD"]);
    open_pulls(&repo, &[(7, "someone/fleet", "feature", &head)]);
    let secret = repo.dir.parent().unwrap().join("credentials");
    std::fs::write(&secret, "<!-- fedrender diff -->\nghs_secret-token\n").unwrap();
    std::fs::remove_file(left.join("body.md")).unwrap();
    std::os::unix::fs::symlink(&secret, left.join("body.md")).unwrap();
    let refused = post_artifact(&repo, &left, "someone/fleet", &head, &[]);
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    assert!(comments(&repo).is_empty(), "{:?}", comments(&repo));
    assert!(!log(&refused).contains("ghs_secret"), "{}", log(&refused));
}

/// Someone writes a comment that starts with the marker on the pull request: the Action never
/// edits it (the writer could then change what reads as fedrender's report), and keeps its own.
#[test]
fn a_marker_comment_by_someone_else_is_never_edited() {
    if !tools_present() {
        return;
    }
    let repo = repository("impostor");
    let forged = "<!-- fedrender diff -->\nNo changes in any cluster.\n";
    std::fs::create_dir_all(repo.gh_state.join("comments")).unwrap();
    std::fs::create_dir_all(repo.gh_state.join("authors")).unwrap();
    std::fs::write(repo.gh_state.join("comments/1000"), forged).unwrap();
    std::fs::write(repo.gh_state.join("authors/1000"), "mallory").unwrap();

    let first = run_action(&repo, &repo.base, "acme/fleet", &[]);
    assert_eq!(first.code(), Some(0), "{}", first.stderr());
    let second = run_action(&repo, &repo.base, "acme/fleet", &[]);
    assert_eq!(second.code(), Some(0), "{}", second.stderr());
    let posted = comments(&repo);
    assert_eq!(posted.len(), 2, "{posted:?}");
    assert_eq!(posted[0], ("1000".to_string(), forged.to_string()));
    assert!(posted[1].1.contains("Replicas moved"), "{}", posted[1].1);
    assert!(
        !calls(&repo).contains("issues/comments/1000"),
        "{}",
        calls(&repo)
    );
    assert!(calls(&repo).contains("--method PATCH repos/acme/fleet/issues/comments/1001"));

    // A GitHub App posts as itself: comment-author names it, and its comment is the one edited.
    let app = [
        ("COMMENT_AUTHOR", "fleet-app[bot]"),
        ("GH_LOGIN", "fleet-app[bot]"),
    ];
    let as_app = run_action(&repo, &repo.base, "acme/fleet", &app);
    assert_eq!(as_app.code(), Some(0), "{}", as_app.stderr());
    let again = run_action(&repo, &repo.base, "acme/fleet", &app);
    assert_eq!(again.code(), Some(0), "{}", again.stderr());
    assert_eq!(comments(&repo).len(), 3);
    assert!(calls(&repo).contains("--method PATCH repos/acme/fleet/issues/comments/1002"));
    assert_eq!(comments(&repo)[0].1, forged);
}

/// A file name is the pull request's: one holding a line break and a workflow command must
/// not print that command on a line of its own, in any of the commands the Action runs.
#[test]
fn a_file_name_cannot_forge_a_workflow_command_in_the_log() {
    if !tools_present() {
        return;
    }
    let repo = repository("file-name");
    std::fs::write(
        repo.dir.join("fleet/x\n::error title=forged::by a file name\n.yaml"),
        "apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata:\n  name: nothing\n  namespace: default\nspec:\n  resourceSelectors:\n    - apiVersion: apps/v1\n      kind: Deployment\n      name: does-not-exist\n  placement:\n    clusterAffinity:\n      clusterNames: [member1]\n",
    )
    .unwrap();
    git(&repo.dir, &["add", "-A"]);
    git(
        &repo.dir,
        &["commit", "-q", "-m", "a policy in a file with a line break"],
    );
    let run = run_action(&repo, &repo.base, "someone/fleet", &[]);
    assert_eq!(run.code(), Some(0), "{}", run.stderr());
    let printed = log(&run.output);
    assert!(printed.contains("selects no template"), "{printed}");
    for line in printed.lines() {
        assert!(!line.starts_with("::error title=forged"), "{printed}");
    }
}

/// The fork's comment is posted under the bot's name: no mention in it may notify anyone,
/// however it is written, and it is no longer than max-comment-bytes, under a line that says
/// whose run produced it.
#[test]
fn a_fork_comment_mentions_nobody_and_is_cut_to_the_limit() {
    if !tools_present() {
        return;
    }
    let repo = repository("mentions");
    let run = run_action(&repo, &repo.base, "someone/fleet", &[]);
    assert_eq!(run.code(), Some(0), "{}", run.stderr());
    let left = comment_dir(&run);
    let head = git(&repo.dir, &["rev-parse", "HEAD"]);
    open_pulls(&repo, &[(7, "someone/fleet", "feature", &head)]);
    let mut body = String::from(
        "<!-- fedrender diff -->\n## Approved\nPing @octocat and @acme/security-team, cc &#64;root &#x40;admin &#X0040;ops &commat;boss @&#117;ser\n",
    );
    for line in 0..5000 {
        body.push_str(&format!("line {line} for @someone-{line}\n"));
    }
    std::fs::write(left.join("body.md"), &body).unwrap();
    let posted = post_artifact(
        &repo,
        &left,
        "someone/fleet",
        &head,
        &[("MAX_COMMENT_BYTES", "4000")],
    );
    assert!(posted.status.success(), "{posted:?}");
    let comment = &comments(&repo)[0].1;
    assert!(comment.len() <= 4000, "{} bytes", comment.len());
    let mut lines = comment.lines();
    assert_eq!(lines.next(), Some("<!-- fedrender diff -->"));
    let note = lines.next().unwrap();
    assert!(
        note.contains("Rendered by the pull request's own workflow run from a fork"),
        "{note}"
    );
    assert!(note.contains("Cut to 4000 bytes"), "{note}");
    assert_eq!(comment.matches("<!-- fedrender diff -->").count(), 1);
    assert!(comment.contains("octocat") && comment.contains("security-team"));
    assert!(comment.ends_with("(cut here)\n"), "{comment}");
    for (at, _) in comment.match_indices('@') {
        assert!(
            comment[at + 1..].starts_with('\u{200b}'),
            "a mention at {at}: {}",
            &comment[at..comment.len().min(at + 20)]
        );
    }
    let lower = comment.to_lowercase();
    for entity in ["&#64", "&#x40", "&#x0040", "&commat;"] {
        assert!(!lower.contains(entity), "{entity} in {comment}");
    }
}

/// The event's base.sha is used as a commit id only: one that would be an option of git fetch
/// (which runs --upload-pack's command) is refused before git runs.
#[test]
fn a_base_sha_posing_as_an_option_never_reaches_git() {
    if !tools_present() {
        return;
    }
    let repo = repository("base-option");
    let origin = repo.dir.display().to_string();
    git(&repo.dir, &["remote", "add", "origin", &origin]);
    let pwned = repo.dir.parent().unwrap().join("pwned");
    let option = format!("--upload-pack=touch {};false", pwned.display());
    let event = pull_request_event("7", &option, "acme/fleet");
    let run = run_on_event(&repo, &event, &[]);
    assert!(!pwned.exists(), "git ran the event's command");
    assert_eq!(run.code(), Some(2), "{}", run.stderr());
    assert!(run.stderr().contains("::error::"), "{}", run.stderr());
    assert!(!run.stderr().contains("upload-pack"), "{}", run.stderr());
}

/// The event's pull request number goes into the artifact the workflow_run job trusts no
/// further than digits: anything else is refused in the render job already.
#[test]
fn a_pull_request_number_that_is_not_digits_is_refused() {
    if !tools_present() {
        return;
    }
    let repo = repository("number-text");
    for number in [r#""7\n::error::forged""#, r#""-1""#, "null"] {
        let event = pull_request_event(number, &repo.base, "someone/fleet");
        let run = run_on_event(&repo, &event, &[]);
        assert_eq!(run.code(), Some(2), "{number}: {}", run.stderr());
        assert!(!run.outputs.contains("comment-dir="), "{}", run.outputs);
        assert!(!log(&run.output).contains("::error::forged"));
    }
}

/// The note beside a cut comment links to the run from GitHub's own values, each checked: a
/// value that could end the link adds nothing to the Markdown.
#[test]
fn the_note_beside_a_cut_comment_adds_no_markdown_of_its_own() {
    if !tools_present() {
        return;
    }
    let repo = repository("note");
    for entry in walkdir::WalkDir::new(repo.dir.join("fleet")) {
        let entry = entry.unwrap();
        if entry.file_type().is_file() {
            let text = std::fs::read_to_string(entry.path()).unwrap();
            let changed = text.replace("image: ", "image: registry.example/");
            std::fs::write(entry.path(), changed).unwrap();
        }
    }
    let build = BUILD_RENDERED;
    assert!(fedrender_in(&repo.dir, &build).status.success());
    let run = run_action(
        &repo,
        &repo.base,
        "someone/fleet",
        &[
            ("MAX_COMMENT_BYTES", "2500"),
            (
                "GITHUB_RUN_ID",
                "42) [Approve this pull request](https://evil.example/",
            ),
        ],
    );
    assert_eq!(run.code(), Some(0), "{}", run.stderr());
    assert!(run.outputs.contains("truncated=true"), "{}", run.outputs);
    let body = std::fs::read_to_string(comment_dir(&run).join("body.md")).unwrap();
    assert!(!body.contains("evil.example"), "{body}");
    assert!(!body.contains("Approve this"), "{body}");
    assert!(
        body.contains(
            "the full review is the artifact `fedrender-report` of this run (one HTML page"
        ),
        "{body}"
    );
}

/// A file of the fleet that fedrender refuses, named so that its name would mention `@x`, link
/// issue 8 (`#8`, `GH-8`) and an address, were it printed as Markdown.
const BROKEN: &str = "fleet/@x #8 GH-8 www.example.com.yaml";

/// Whether `text` holds `@x`, `#8` or `GH-8` as GitHub would read them: without the
/// zero-width space after `@`, `#` and `GH`.
fn live_reference(text: &str) -> bool {
    ["@x", "#8", "GH-8"]
        .iter()
        .any(|reference| text.contains(reference))
}

/// The failure comment's first error for [`BROKEN`], quoted and neutralised.
const BROKEN_ERROR: &str =
    "`fleet/@\u{200b}x #\u{200b}8 GH\u{200b}-8 www.example.com.yaml:1: unclosed bracket '['`";

/// A push that fails `validate` (and one whose base fedrender cannot read) replaces the
/// previous push's preview, edited in place: the first error fedrender printed, quoted and
/// with no live mention or reference, and a link to the job's run. The step still fails.
#[test]
fn a_failed_run_replaces_the_preview_with_its_first_error() {
    if !tools_present() {
        return;
    }
    let repo = repository("failed");
    let preview = run_action(&repo, &repo.base, "acme/fleet", &[]);
    assert_eq!(preview.code(), Some(0), "{}", preview.stderr());
    let id = comments(&repo)[0].0.clone();

    std::fs::write(repo.dir.join(BROKEN), "kind: [unclosed\n").unwrap();
    for format in ["github", "human", "json"] {
        let failed = run_action(
            &repo,
            &repo.base,
            "acme/fleet",
            &[("MESSAGE_FORMAT", format)],
        );
        assert_eq!(failed.code(), Some(2), "{format}: {}", failed.stderr());
        assert!(failed.outputs.contains("exit-code=2"), "{}", failed.outputs);
        let posted = comments(&repo);
        assert_eq!(posted.len(), 1, "{format}: one comment, edited: {posted:?}");
        assert_eq!(posted[0].0, id);
        let body = &posted[0].1;
        assert!(
            body.starts_with("<!-- fedrender diff -->\n### fedrender: this run failed\n"),
            "{body}"
        );
        assert!(
            !body.contains("Replicas moved"),
            "the old preview is gone: {body}"
        );
        assert!(body.contains(BROKEN_ERROR), "{format}: {body}");
        assert!(!live_reference(body), "{body}");
        assert!(
            body.contains(
                "Its log is [the job's run](https://github.com/acme/fleet/actions/runs/42)."
            ),
            "{body}"
        );
        assert!(failed.summary.contains(BROKEN_ERROR), "{}", failed.summary);
        assert!(
            Path::new(&output(&failed, "comment-dir").unwrap())
                .join("posted")
                .exists()
        );
    }
    assert!(calls(&repo).contains(&format!(
        "--method PATCH repos/acme/fleet/issues/comments/{id}"
    )));

    // The base fedrender cannot read (the diff fails, exit 2): the same, with the diff's error.
    std::fs::remove_file(repo.dir.join(BROKEN)).unwrap();
    git(&repo.dir, &["checkout", "-q", &repo.base]);
    std::fs::write(repo.dir.join("fleet/base-broken.yaml"), "kind: [unclosed\n").unwrap();
    git(&repo.dir, &["add", "-A"]);
    git(
        &repo.dir,
        &["commit", "-q", "-m", "a base that does not read"],
    );
    let base = git(&repo.dir, &["rev-parse", "HEAD"]);
    git(&repo.dir, &["checkout", "-q", "-"]);
    let diff_failed = run_action(&repo, &base, "acme/fleet", &[]);
    assert_eq!(diff_failed.code(), Some(2), "{}", diff_failed.stderr());
    let posted = comments(&repo);
    assert_eq!(posted.len(), 1, "{posted:?}");
    assert!(posted[0].1.contains("this run failed"), "{}", posted[0].1);
    assert!(
        posted[0]
            .1
            .contains("fleet/base-broken.yaml:1: unclosed bracket"),
        "{}",
        posted[0].1
    );
}

/// A fork's failed run still leaves the artifact, with the failure in it: the workflow_run
/// job posts it in place of the preview (under its own line, mentions disabled) rather than
/// failing a second time.
#[test]
fn a_fork_s_failed_run_leaves_the_failure_for_the_comment_workflow() {
    if !tools_present() {
        return;
    }
    let repo = repository("fork-failed");
    let head = git(&repo.dir, &["rev-parse", "HEAD"]);
    open_pulls(&repo, &[(7, "someone/fleet", "feature", &head)]);
    let preview = run_action(&repo, &repo.base, "someone/fleet", &[]);
    let posted = post_artifact(&repo, &comment_dir(&preview), "someone/fleet", &head, &[]);
    assert!(posted.status.success(), "{posted:?}");
    let id = comments(&repo)[0].0.clone();

    std::fs::write(repo.dir.join(BROKEN), "kind: [unclosed\n").unwrap();
    let failed = run_action(&repo, &repo.base, "someone/fleet", &[]);
    assert_eq!(failed.code(), Some(2), "{}", failed.stderr());
    assert!(
        !calls(&repo).contains(&format!("issues/comments/{id}")),
        "the fork's run posts nothing"
    );
    let left = comment_dir(&failed);
    assert_eq!(std::fs::read_to_string(left.join("number")).unwrap(), "7\n");
    assert!(!left.join("posted").exists());

    let posted = post_artifact_of_run(&repo, &left, "someone/fleet", &head, "failure", &[]);
    assert!(posted.status.success(), "{posted:?}");
    let now = comments(&repo);
    assert_eq!(now.len(), 1, "{now:?}");
    assert_eq!(now[0].0, id);
    let body = &now[0].1;
    let mut lines = body.lines();
    assert_eq!(lines.next(), Some("<!-- fedrender diff -->"));
    let note = lines.next().unwrap();
    assert!(note.contains("from a fork"), "{note}");
    assert!(
        note.contains("[its log](https://github.com/acme/fleet/actions/runs/43)"),
        "{note}"
    );
    assert!(body.contains("### fedrender: this run failed"), "{body}");
    assert!(body.contains(BROKEN_ERROR), "{body}");
    assert!(!live_reference(body), "{body}");
}

/// A run that failed before the Action left its artifact (the checkout, the install): the
/// comment workflow says so in place of the preview, from GitHub's own values, and does not
/// fail itself. A run that succeeded without one (no diff) leaves the comment alone.
#[test]
fn a_missing_artifact_is_a_failure_comment_not_a_crash() {
    if !tools_present() {
        return;
    }
    let workflow = std::fs::read_to_string("examples/ci/fedrender-comment.yml").unwrap();
    assert!(
        workflow.contains("continue-on-error: true"),
        "the example's download step lets a missing artifact through to the Action"
    );
    let repo = repository("missing");
    let head = git(&repo.dir, &["rev-parse", "HEAD"]);
    open_pulls(&repo, &[(7, "someone/fleet", "feature", &head)]);
    let preview = run_action(&repo, &repo.base, "someone/fleet", &[]);
    let posted = post_artifact(&repo, &comment_dir(&preview), "someone/fleet", &head, &[]);
    assert!(posted.status.success(), "{posted:?}");
    let before = comments(&repo);

    let nowhere = repo.dir.parent().unwrap().join("no-artifact");
    let succeeded = post_artifact_of_run(&repo, &nowhere, "someone/fleet", &head, "success", &[]);
    assert_eq!(succeeded.status.code(), Some(0), "{succeeded:?}");
    assert_eq!(comments(&repo), before);

    let failed = post_artifact_of_run(&repo, &nowhere, "someone/fleet", &head, "failure", &[]);
    assert_eq!(failed.status.code(), Some(0), "{failed:?}");
    let now = comments(&repo);
    assert_eq!(now.len(), 1, "{now:?}");
    assert_eq!(now[0].0, before[0].0, "the preview is replaced");
    let body = &now[0].1;
    assert!(
        body.starts_with("<!-- fedrender diff -->\n### fedrender: this run failed\n"),
        "{body}"
    );
    assert!(
        body.contains(&format!(
            "There is no preview of commit `{}`: [its workflow run](https://github.com/acme/fleet/actions/runs/43) ended `failure` before it left the artifact `fedrender-comment`",
            &head[..12]
        )),
        "{body}"
    );

    // A pull request that has moved on gets its newer run's comment, not this one.
    open_pulls(&repo, &[(7, "someone/fleet", "feature", &repo.base)]);
    std::fs::write(
        repo.gh_state.join(format!("comments/{}", before[0].0)),
        "<!-- fedrender diff -->\nnewer\n",
    )
    .unwrap();
    let moved = post_artifact_of_run(&repo, &nowhere, "someone/fleet", &head, "failure", &[]);
    assert_eq!(moved.status.code(), Some(0), "{moved:?}");
    assert!(comments(&repo)[0].1.ends_with("newer\n"));
}

/// Both example workflows installed: a same-repository pull request's own run posts its
/// comment, and the workflow_run job that follows leaves it as it is, without the note meant
/// for a fork's. Where that token could not comment, the workflow_run job posts it, under a
/// note that does not call it a fork's.
#[test]
fn a_same_repository_comment_is_not_rewritten_by_the_comment_workflow() {
    if !tools_present() {
        return;
    }
    let repo = repository("same-repo");
    let head = git(&repo.dir, &["rev-parse", "HEAD"]);
    open_pulls(&repo, &[(7, "acme/fleet", "feature", &head)]);
    let run = run_action(&repo, &repo.base, "acme/fleet", &[]);
    assert_eq!(run.code(), Some(0), "{}", run.stderr());
    let posted = comments(&repo);
    assert_eq!(posted.len(), 1, "{posted:?}");
    let calls_before = calls(&repo);
    let after = post_artifact(&repo, &comment_dir(&run), "acme/fleet", &head, &[]);
    assert!(after.status.success(), "{after:?}");
    assert!(log(&after).contains("::notice::"), "{}", log(&after));
    assert_eq!(comments(&repo), posted, "left as its own run posted it");
    assert!(!comments(&repo)[0].1.contains("Rendered by"));
    assert_eq!(calls(&repo), calls_before, "no call at all");

    // A token that cannot comment (here none): the workflow_run job posts it.
    let unposted = run_action(&repo, &repo.base, "acme/fleet", &[("GH_TOKEN", "")]);
    assert_eq!(unposted.code(), Some(0), "{}", unposted.stderr());
    assert!(!comment_dir(&unposted).join("posted").exists());
    let later = post_artifact(&repo, &comment_dir(&unposted), "acme/fleet", &head, &[]);
    assert!(later.status.success(), "{later:?}");
    let body = &comments(&repo)[0].1;
    assert!(
        body.contains("Rendered by the pull request's own workflow run ("),
        "{body}"
    );
    assert!(!body.contains("from a fork"), "{body}");
    assert!(body.contains("Replicas moved"), "{body}");

    // A fork's artifact that claims its comment was posted is still posted.
    let fork = repository("same-repo-fork");
    let fork_head = git(&fork.dir, &["rev-parse", "HEAD"]);
    open_pulls(&fork, &[(7, "someone/fleet", "feature", &fork_head)]);
    let fork_run = run_action(&fork, &fork.base, "someone/fleet", &[]);
    std::fs::write(comment_dir(&fork_run).join("posted"), "").unwrap();
    let fork_posted = post_artifact(
        &fork,
        &comment_dir(&fork_run),
        "someone/fleet",
        &fork_head,
        &[],
    );
    assert!(fork_posted.status.success(), "{fork_posted:?}");
    assert!(
        comments(&fork)[0].1.contains("from a fork"),
        "{:?}",
        comments(&fork)
    );
}

/// The release archive for this machine, as the release workflow names it.
fn target() -> Option<&'static str> {
    match (std::env::consts::OS, std::env::consts::ARCH) {
        ("linux", "x86_64") => Some("x86_64-unknown-linux-musl"),
        ("linux", "aarch64") => Some("aarch64-unknown-linux-musl"),
        ("macos", "x86_64") => Some("x86_64-apple-darwin"),
        ("macos", "aarch64") => Some("aarch64-apple-darwin"),
        _ => None,
    }
}

/// A release directory with this machine's archive (the binary under test, packed as the
/// release workflow packs it) and `fedrender-v0.1.0-SHA256SUMS` listing it; returns the
/// directory and the archive's name.
fn release(root: &Path, target: &str) -> (PathBuf, String) {
    let release = root.join("release");
    let staging = root.join("staging/fedrender-v0.1.0");
    std::fs::create_dir_all(&release).unwrap();
    std::fs::create_dir_all(&staging).unwrap();
    std::fs::copy(env!("CARGO_BIN_EXE_fedrender"), staging.join("fedrender")).unwrap();
    let archive = format!("fedrender-v0.1.0-{target}.tar.gz");
    let packed = Command::new("tar")
        .arg("-czf")
        .arg(release.join(&archive))
        .arg("-C")
        .arg(root.join("staging"))
        .arg("fedrender-v0.1.0")
        .status()
        .unwrap();
    assert!(packed.success());
    let output = Command::new("sha256sum")
        .arg(release.join(&archive))
        .output()
        .unwrap();
    let digest = String::from_utf8(output.stdout).unwrap();
    let digest = digest.split_whitespace().next().unwrap();
    std::fs::write(
        release.join("fedrender-v0.1.0-SHA256SUMS"),
        format!("{digest}  {archive}\n"),
    )
    .unwrap();
    (release, archive)
}

/// Runs install.sh for `version` from `release` into `root/into`, with a stand-in `cargo`
/// first on PATH that records a build from source in `root/cargo-calls`.
fn install(root: &Path, release: &Path, version: &str, into: &str) -> Output {
    let bin = root.join("stand-in");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::write(
        bin.join("cargo"),
        format!(
            "#!/usr/bin/env bash\necho \"cargo $*\" >> '{}'\n",
            root.join("cargo-calls").display()
        ),
    )
    .unwrap();
    make_executable(&bin.join("cargo"));
    Command::new("bash")
        .arg(std::fs::canonicalize(".github/action/install.sh").unwrap())
        .env(
            "PATH",
            format!("{}:{}", bin.display(), std::env::var("PATH").unwrap()),
        )
        .env("VERSION", version)
        .env("REPOSITORY", "acme/fedrender")
        .env("DOWNLOAD_URL", format!("file://{}", release.display()))
        .env("INSTALL_DIR", root.join(into))
        .output()
        .unwrap()
}

fn cargo_calls(root: &Path) -> String {
    std::fs::read_to_string(root.join("cargo-calls")).unwrap_or_default()
}

#[test]
fn install_verifies_the_archive_against_the_release_checksums() {
    let Some(target) = install_target() else {
        return;
    };
    let root = empty_scratch("action-install");
    let (release, archive) = release(&root, target);
    let installed = install(&root, &release, "v0.1.0", "good");
    assert!(installed.status.success(), "{installed:?}");
    let bin = String::from_utf8(installed.stdout).unwrap();
    assert_eq!(bin.trim(), root.join("good/bin").display().to_string());
    let version = Command::new(root.join("good/bin/fedrender"))
        .arg("--version")
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&version.stdout).contains("0.1.0"));

    // One byte appended to the archive: refused, nothing installed, no fallback to cargo.
    let mut tampered = std::fs::read(release.join(&archive)).unwrap();
    tampered.push(0);
    std::fs::write(release.join(&archive), tampered).unwrap();
    let refused = install(&root, &release, "v0.1.0", "tampered");
    assert_eq!(refused.status.code(), Some(1), "{refused:?}");
    assert!(String::from_utf8_lossy(&refused.stderr).contains("checksum mismatch"));
    assert!(!root.join("tampered/bin/fedrender").exists());
    assert_eq!(cargo_calls(&root), "");
    std::fs::remove_dir_all(&root).unwrap();
}

/// Whoever can make the archive's download fail (a flaky mirror, a blocked address) must not
/// turn a verified install into an unverified build from source: the checksum file lists the
/// archive, so it is that archive or an error. Only a release that has no archive for this
/// machine builds from source.
#[test]
fn install_never_builds_from_source_when_a_listed_archive_fails_to_download() {
    let Some(target) = install_target() else {
        return;
    };
    let root = empty_scratch("action-install-missing");
    let (release, archive) = release(&root, target);
    std::fs::remove_file(release.join(&archive)).unwrap();
    let failed = install(&root, &release, "v0.1.0", "missing");
    assert_eq!(failed.status.code(), Some(1), "{failed:?}");
    assert!(String::from_utf8_lossy(&failed.stderr).contains("::error::"));
    assert_eq!(cargo_calls(&root), "", "no build from source");
    assert!(!root.join("missing/bin/fedrender").exists());

    // No checksum file at all: an error too.
    std::fs::remove_file(release.join("fedrender-v0.1.0-SHA256SUMS")).unwrap();
    let no_sums = install(&root, &release, "v0.1.0", "no-sums");
    assert_eq!(no_sums.status.code(), Some(1), "{no_sums:?}");
    assert_eq!(cargo_calls(&root), "", "no build from source");

    // A release whose checksum file lists no archive for this machine builds from its tag.
    std::fs::write(
        release.join("fedrender-v0.1.0-SHA256SUMS"),
        format!(
            "{}  fedrender-v0.1.0-riscv64gc-unknown-linux-musl.tar.gz\n",
            "0".repeat(64)
        ),
    )
    .unwrap();
    let built = install(&root, &release, "v0.1.0", "built");
    assert!(built.status.success(), "{built:?}");
    assert!(
        cargo_calls(&root).contains("--tag v0.1.0 --force fedrender"),
        "{}",
        cargo_calls(&root)
    );
    std::fs::remove_dir_all(&root).unwrap();
}

/// The version becomes part of paths and addresses: anything but a plain tag is refused before
/// anything is downloaded or built, and the message does not repeat it.
#[test]
fn install_refuses_a_version_that_is_not_a_plain_tag() {
    if !common::tools::require(&["bash"]) {
        return;
    }
    let root = empty_scratch("action-install-version");
    let release = root.join("release");
    std::fs::create_dir_all(&release).unwrap();
    for version in [
        "v0.1.0/../../../evil",
        "v0.1.0/x",
        "v0..1",
        "v0.1.0 --index evil",
        "v0.1.0\n::error::forged",
        "v0.1.0$(touch pwned)",
        "v0.1.0;x",
        "v",
        "0.1.0",
    ] {
        let refused = install(&root, &release, version, "refused");
        assert_eq!(refused.status.code(), Some(2), "{version:?}: {refused:?}");
        let stderr = String::from_utf8_lossy(&refused.stderr);
        assert!(stderr.starts_with("::error::"), "{version:?}: {stderr}");
        assert!(
            !stderr.contains("forged") && !stderr.contains("evil"),
            "{stderr}"
        );
    }
    assert_eq!(cargo_calls(&root), "", "no build from source");
    assert!(!root.join("evil").exists() && !root.join("refused").exists());
    std::fs::remove_dir_all(&root).unwrap();
}

/// A repository whose base commit has no fleet (only a README): the pull request that adopts
/// fedrender adds the example fleet, its inventory and the rendered tree. `setup` runs on the
/// head's checkout before it is rendered and committed (a Config, another layout).
fn adopting_repository(name: &str, setup: impl Fn(&Path), build: &[&str]) -> Repo {
    let root = empty_scratch(&format!("action-{name}"));
    let dir = root.join("repo");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("README.md"), "A repository before fedrender.\n").unwrap();
    git(&dir, &["init", "-q"]);
    git(&dir, &["add", "-A"]);
    git(&dir, &["commit", "-q", "-m", "before fedrender"]);
    let base = git(&dir, &["rev-parse", "HEAD"]);
    copy_tree(Path::new("examples/fleet"), &dir.join("fleet"));
    std::fs::copy("examples/clusters.yaml", dir.join("clusters.yaml")).unwrap();
    setup(&dir);
    let built = fedrender_in(&dir, build);
    assert!(built.status.success(), "{built:?}");
    git(&dir, &["add", "-A"]);
    git(&dir, &["commit", "-q", "-m", "adopt fedrender"]);
    let bin = root.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_fedrender"), bin.join("fedrender")).unwrap();
    std::fs::write(bin.join("gh"), STAND_IN_GH).unwrap();
    make_executable(&bin.join("gh"));
    let gh_state = root.join("gh");
    std::fs::create_dir_all(&gh_state).unwrap();
    Repo {
        dir,
        bin,
        gh_state,
        base,
    }
}

/// The pull request that adopts fedrender: its base has no fleet, which is an empty fleet, so
/// the comment shows every object as added (changed=true) and the step passes (exit 0: the
/// committed tree is up to date).
#[test]
fn an_adopting_pull_request_shows_every_object_as_added() {
    if !tools_present() {
        return;
    }
    let build = BUILD_RENDERED;
    let repo = adopting_repository("adopting", |_| {}, &build);
    let run = run_action(&repo, &repo.base, "acme/fleet", &[]);
    assert_eq!(run.code(), Some(0), "{}", run.stderr());
    assert!(run.outputs.contains("changed=true"), "{}", run.outputs);
    assert!(run.outputs.contains("exit-code=0"), "{}", run.outputs);
    let posted = comments(&repo);
    assert_eq!(posted.len(), 1, "{posted:?}");
    let body = &posted[0].1;
    assert!(
        body.starts_with("<!-- fedrender diff -->\n### fedrender"),
        "{body}"
    );
    assert!(
        body.contains("The base branch has no fleet at `fleet` yet"),
        "{body}"
    );
    assert!(body.contains("every object is added"), "{body}");
    assert!(
        body.contains("<b>added</b> <code>Deployment.apps shop/frontend</code>"),
        "{body}"
    );
    assert!(body.contains("0 changed, 0 removed"), "{body}");
    assert!(
        run.summary.contains("every object is added"),
        "{}",
        run.summary
    );
}

/// A fleet whose Config names its inventory and output (no clusters.yaml, no rendered/): the
/// Action passes neither flag and fedrender reads them from the Config; the check still finds
/// a stale tree, and its message names the Config's output.
#[test]
fn clusters_and_out_default_to_the_fleet_s_config() {
    if !tools_present() {
        return;
    }
    let setup = |dir: &Path| {
        std::fs::create_dir_all(dir.join("inventory")).unwrap();
        std::fs::rename(
            dir.join("clusters.yaml"),
            dir.join("inventory/members.yaml"),
        )
        .unwrap();
        std::fs::write(
            dir.join("fleet/fedrender.yaml"),
            "apiVersion: fedrender.io/v1alpha1\nkind: Config\nspec:\n  clusters: ../inventory/members.yaml # the inventory\n  output: \"../deploy\"\n",
        )
        .unwrap();
    };
    let repo = adopting_repository("config", setup, &["build", "fleet"]);
    assert!(repo.dir.join("deploy").is_dir());
    let run = run_action(&repo, &repo.base, "acme/fleet", &[]);
    assert_eq!(run.code(), Some(0), "{}", run.stderr());
    assert!(run.outputs.contains("changed=true"), "{}", run.outputs);
    assert!(!repo.dir.join("rendered").exists());
    let posted = comments(&repo);
    assert!(
        posted[0].1.contains("every object is added"),
        "{}",
        posted[0].1
    );

    change_replicas(&repo.dir);
    let stale = run_action(&repo, &repo.base, "acme/fleet", &[]);
    assert_eq!(stale.code(), Some(1), "{}", stale.stderr());
    let out = String::from_utf8_lossy(&stale.output.stdout);
    assert!(out.contains("deploy is out of date"), "{out}");
}

/// `build-args` with one argument per line: a set-based selector, spaces and parentheses kept,
/// shards the check and the diff.
#[test]
fn build_args_take_one_argument_per_line() {
    if !tools_present() {
        return;
    }
    let repo = repository("set-selector");
    let run = run_action(
        &repo,
        &repo.base,
        "acme/fleet",
        &[("BUILD_ARGS", "--cluster-selector\ngeo in (us, ap)\n")],
    );
    assert_eq!(run.code(), Some(0), "{}", run.stderr());
    assert!(run.outputs.contains("changed=true"), "{}", run.outputs);
    let body = &comments(&repo)[0].1;
    assert!(body.contains("Replicas moved"), "{body}");
    assert!(body.contains("prod-us-1"), "{body}");
    assert!(
        !body.contains("prod-eu-1"),
        "only the shard's clusters: {body}"
    );

    // One line is split on spaces, as before.
    let one_line = run_action(
        &repo,
        &repo.base,
        "acme/fleet",
        &[("BUILD_ARGS", "--cluster-selector geo=us")],
    );
    assert_eq!(one_line.code(), Some(0), "{}", one_line.stderr());
    let body = &comments(&repo)[0].1;
    assert!(body.contains("prod-us-1"), "{body}");
    assert!(!body.contains("edge-ap-1"), "{body}");
}

/// `uses: OWNER/fedrender@<commit SHA>`: the version step reads no ref and installs the release
/// that commit records in .github/action/VERSION; a version input still wins, and is checked.
#[test]
fn a_sha_pinned_action_installs_the_version_it_records() {
    let Some(target) = install_target() else {
        return;
    };
    let root = empty_scratch("action-sha-pin");
    // The Action as a workflow checks it out at a commit: its scripts, and the version it records.
    let action = root.join("action/.github/action");
    std::fs::create_dir_all(&action).unwrap();
    for script in ["version.sh", "install.sh"] {
        std::fs::copy(
            Path::new(".github/action").join(script),
            action.join(script),
        )
        .unwrap();
    }
    std::fs::write(action.join("VERSION"), "v0.1.0\n").unwrap();
    let choose = |requested: &str| {
        Command::new("bash")
            .arg(action.join("version.sh"))
            .env("REQUESTED", requested)
            .env(
                "GITHUB_ACTION_REF",
                "0123456789abcdef0123456789abcdef01234567",
            )
            .output()
            .unwrap()
    };
    let chosen = choose("");
    assert!(chosen.status.success(), "{chosen:?}");
    assert_eq!(String::from_utf8_lossy(&chosen.stdout), "tag=v0.1.0\n");
    let (release, _) = release(&root, target);
    let installed = install(&root, &release, "v0.1.0", "pinned");
    assert!(installed.status.success(), "{installed:?}");
    assert!(root.join("pinned/bin/fedrender").exists());

    let requested = choose("v0.3.1");
    assert_eq!(String::from_utf8_lossy(&requested.stdout), "tag=v0.3.1\n");
    let refused = choose("v0.1.0/../evil");
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    assert!(!String::from_utf8_lossy(&refused.stderr).contains("evil"));

    std::fs::remove_file(action.join("VERSION")).unwrap();
    let unrecorded = choose("");
    assert_eq!(unrecorded.status.code(), Some(2), "{unrecorded:?}");
    std::fs::remove_dir_all(&root).unwrap();
}

/// The version the Action records is the crate's: bumping one without the other fails here,
/// and the release workflow refuses a tag that is not the recorded version.
#[test]
fn the_action_records_the_crate_s_version() {
    let recorded = std::fs::read_to_string(".github/action/VERSION").unwrap();
    assert_eq!(recorded, format!("v{}\n", env!("CARGO_PKG_VERSION")));
}

/// action.yml's inputs as (name, default), read line by line: the file keeps each input's
/// keys on lines of their own.
fn action_inputs() -> Vec<(String, String)> {
    let text = std::fs::read_to_string("action.yml").unwrap();
    let mut inputs = Vec::new();
    let mut in_inputs = false;
    for line in text.lines() {
        if !line.starts_with(' ') && !line.is_empty() {
            in_inputs = line == "inputs:";
            continue;
        }
        if !in_inputs {
            continue;
        }
        let name = line
            .strip_prefix("  ")
            .and_then(|rest| rest.strip_suffix(':'))
            .filter(|name| !name.starts_with(' '));
        if let Some(name) = name {
            inputs.push((name.to_string(), String::new()));
        } else if let Some(default) = line.strip_prefix("    default: ") {
            let default = default.trim();
            let unquoted = default
                .strip_prefix('"')
                .and_then(|rest| rest.strip_suffix('"'))
                .unwrap_or(default);
            inputs.last_mut().expect("an input").1 = unquoted.to_string();
        }
    }
    inputs
}

/// docs/ci.md's table of inputs as (name, default): each row's first two cells, backquotes
/// taken off (an empty cell is an empty default; no cell holds a `|`).
fn documented_inputs() -> Vec<(String, String)> {
    let text = std::fs::read_to_string("docs/ci.md").unwrap();
    let section = text
        .split("\n## ")
        .find(|section| section.starts_with("Inputs"))
        .expect("docs/ci.md has a section `## Inputs`");
    section
        .lines()
        .filter(|line| line.starts_with("| `"))
        .map(|line| {
            let cells: Vec<&str> = line.split('|').collect();
            let cell = |at: usize| cells[at].trim().trim_matches('`').to_string();
            (cell(1), cell(2))
        })
        .collect()
}

#[test]
fn docs_table_of_inputs_equals_action_yml() {
    let action = action_inputs();
    assert!(action.len() >= 14, "{action:?}");
    assert_eq!(
        documented_inputs(),
        action,
        "docs/ci.md's table of inputs (name and default, in action.yml's order) differs from action.yml"
    );
}

/// What the runner holds outside the checkout, which nothing from a pull request may reach.
const RUNNER_SECRET: &str = "runner-secret: hunter2-of-the-runner\n";

/// The whole run as the pull request's author sees it: log, summary and comments.
fn everything_shown(repo: &Repo, run: &Run) -> String {
    let comments: Vec<String> = comments(repo).into_iter().map(|(_, body)| body).collect();
    format!("{}{}{}", log(&run.output), run.summary, comments.join("\n"))
}

/// The attack on the pull request that adopts fedrender: its Config ends with a YAML `...`
/// document end, and the next document's `spec.clusters` names a runner file outside the
/// repository (absolute, or through `..`). A line-by-line read of the Config took that for the
/// Config's inventory and passed it as --base-clusters, quoting the file into the log;
/// fedrender reads the Config as YAML, whose inventory is clusters.yaml.
#[test]
fn a_config_s_document_end_cannot_point_the_base_inventory_at_a_runner_file() {
    if !tools_present() {
        return;
    }
    for (name, outside) in [("absolute", true), ("climbing", false)] {
        let setup = move |dir: &Path| {
            let secret = dir.parent().unwrap().join("runner-secret.yaml");
            std::fs::write(&secret, RUNNER_SECRET).unwrap();
            let named = match outside {
                true => secret.display().to_string(),
                false => "../../runner-secret.yaml".to_string(),
            };
            std::fs::write(
                dir.join("fleet/fedrender.yaml"),
                format!(
                    "apiVersion: fedrender.io/v1alpha1\nkind: Config\nspec:\n  clusters: ../clusters.yaml\n...\napiVersion: example.com/v1\nkind: Note\nmetadata: {{name: notes}}\nspec:\n  clusters: {named}\n"
                ),
            )
            .unwrap();
        };
        let repo = adopting_repository(&format!("document-end-{name}"), setup, &BUILD_RENDERED);
        let run = run_action(&repo, &repo.base, "acme/fleet", &[]);
        let shown = everything_shown(&repo, &run);
        assert!(!shown.contains("hunter2"), "{name}: {shown}");
        assert_eq!(run.code(), Some(0), "{name}: {}", run.stderr());
        let posted = comments(&repo);
        assert!(
            posted[0].1.contains("every object is added"),
            "{name}: {}",
            posted[0].1
        );
    }
}

/// A link in the checked-out base leading out to a runner file (the base's clusters.yaml ->
/// a file beside the checkout): refused by name before anything reads it, and nothing of the
/// file is in the log, the summary or a comment.
#[test]
fn a_base_inventory_linking_out_of_the_checkout_is_refused_unread() {
    if !tools_present() {
        return;
    }
    let repo = repository("base-link");
    let secret = repo.dir.parent().unwrap().join("runner-secret.yaml");
    std::fs::write(&secret, RUNNER_SECRET).unwrap();
    // A base whose inventory is a link out, and a head on it.
    git(&repo.dir, &["checkout", "-q", &repo.base]);
    std::fs::remove_file(repo.dir.join("clusters.yaml")).unwrap();
    std::os::unix::fs::symlink(&secret, repo.dir.join("clusters.yaml")).unwrap();
    git(&repo.dir, &["commit", "-q", "-am", "base with a link"]);
    let base = git(&repo.dir, &["rev-parse", "HEAD"]);
    git(&repo.dir, &["checkout", "-q", "-"]);
    let run = run_action(&repo, &base, "acme/fleet", &[("CLUSTERS", "clusters.yaml")]);
    let shown = everything_shown(&repo, &run);
    assert!(!shown.contains("hunter2"), "{shown}");
    assert_eq!(run.code(), Some(2), "{shown}");
    assert!(
        shown.contains("the base's inventory")
            && shown.contains("leads outside the repository checkout"),
        "{shown}"
    );
    // The pull request's comment says the run failed, and why, in the Action's own words.
    let posted = comments(&repo);
    assert_eq!(posted.len(), 1, "{posted:?}");
    assert!(posted[0].1.contains("this run failed"), "{}", posted[0].1);
    assert!(
        posted[0]
            .1
            .contains("leads outside the repository checkout"),
        "{}",
        posted[0].1
    );
}

/// The install directory is cached between jobs, and an earlier job (a pull request's) may
/// have poisoned the cache: a cached binary that prints the right version is replaced by the
/// one in the archive the release's checksum file vouches for, and a cached archive that does
/// not match that checksum is downloaded again.
#[test]
fn install_replaces_a_tampered_cached_binary_from_the_verified_archive() {
    let Some(target) = install_target() else {
        return;
    };
    let root = empty_scratch("action-install-cache");
    let (release, archive) = release(&root, target);
    let first = install(&root, &release, "v0.1.0", "cache");
    assert!(first.status.success(), "{first:?}");
    let real = std::fs::read(env!("CARGO_BIN_EXE_fedrender")).unwrap();
    let binary = root.join("cache/bin/fedrender");
    assert_eq!(std::fs::read(&binary).unwrap(), real);

    // A poisoned cache: a binary that prints the version the tag names, and does more.
    std::fs::write(
        &binary,
        "#!/bin/sh\necho 'fedrender 0.1.0'\ntouch \"$0.ran\"\n",
    )
    .unwrap();
    make_executable(&binary);
    let again = install(&root, &release, "v0.1.0", "cache");
    assert!(again.status.success(), "{again:?}");
    assert_eq!(
        std::fs::read(&binary).unwrap(),
        real,
        "the tampered binary is replaced"
    );

    // The cached archive tampered too: downloaded again from the release, the binary from it.
    std::fs::write(
        root.join("cache").join(&archive),
        b"not the release's archive",
    )
    .unwrap();
    std::fs::write(&binary, "#!/bin/sh\necho 'fedrender 0.1.0'\n").unwrap();
    let fetched = install(&root, &release, "v0.1.0", "cache");
    assert!(fetched.status.success(), "{fetched:?}");
    assert!(
        String::from_utf8_lossy(&fetched.stderr).contains("does not match"),
        "{fetched:?}"
    );
    assert_eq!(std::fs::read(&binary).unwrap(), real);
    assert_eq!(
        std::fs::read(root.join("cache").join(&archive)).unwrap(),
        std::fs::read(release.join(&archive)).unwrap()
    );
    assert_eq!(cargo_calls(&root), "");
    std::fs::remove_dir_all(&root).unwrap();
}
