#!/usr/bin/env bash
# The fedrender GitHub Action's logic (action.yml only passes its inputs here), kept in a
# script so that tests run it end to end with a stand-in `gh`.
#
#   run.sh render        validate, check the committed tree, diff a pull request against its
#                        base, write the job summary, and comment (same-repository pull
#                        requests) or leave the comment for a workflow_run job (forks)
#   run.sh comment DIR   post or update the comment left in DIR (number, body.md): the job
#                        that holds a token able to write, and never runs the pull request's code
#
# Inputs come as environment variables: FLEET, CLUSTERS, OUT, CHECK, DIFF, COMMENT, ARGS,
# BUILD_ARGS, MESSAGE_FORMAT, MAX_COMMENT_BYTES, COMMENT_AUTHOR, GH_TOKEN; and GitHub's own
# (GITHUB_EVENT_NAME, GITHUB_EVENT_PATH, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_REPOSITORY,
# GITHUB_SERVER_URL, GITHUB_RUN_ID, RUNNER_TEMP). Outputs: changed (true/false), exit-code,
# truncated, comment-dir. Exit status: 0 clean, 1 a stale tree, 2 an error.
#
# What the pull request controls never reaches the log raw: every message this script prints
# is its own words (escaped as workflow commands need), and fedrender prints its diagnostics in
# the chosen --message-format.
set -euo pipefail
# Byte semantics for patterns, ranges and lengths, whatever the runner's locale.
export LC_ALL=C

# The hidden first line that finds the Action's own comment again on every push.
readonly MARKER='<!-- fedrender diff -->'

output() {
  printf '%s=%s\n' "$1" "$2" >>"${GITHUB_OUTPUT:-/dev/null}"
}

# escape TEXT: TEXT as the data of a workflow command, so that no line break in it starts a
# command of its own.
escape() {
  local text=${1//%/%25}
  text=${text//$'\r'/%0D}
  printf '%s' "${text//$'\n'/%0A}"
}

fail() {
  printf '::error::%s\n' "$(escape "$1")" >&2
  output exit-code 2
  exit 2
}

is_number() {
  [[ $1 =~ ^[1-9][0-9]{0,9}$ ]]
}

# A commit id as git writes it: SHA-1 or SHA-256, in hex.
is_commit() {
  [[ $1 =~ ^([0-9a-f]{40}|[0-9a-f]{64})$ ]]
}

# owner/name as GitHub allows them.
is_repository() {
  [[ $1 =~ ^[A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9._-]+$ ]]
}

# check_repository: GITHUB_REPOSITORY is owner/name, as API paths and links need it.
check_repository() {
  is_repository "${GITHUB_REPOSITORY:-}" || fail "GITHUB_REPOSITORY is not owner/name"
}

# check_max_comment: MAX_COMMENT_BYTES is a number of bytes, at least 1000.
check_max_comment() {
  [[ ${MAX_COMMENT_BYTES:=60000} =~ ^[1-9][0-9]{3,8}$ ]] \
    || fail "max-comment-bytes must be a number of bytes, at least 1000"
}

# post_comment NUMBER BODY_FILE: edits the comment that starts with the marker and was written
# by the identity that posts (COMMENT_AUTHOR), or creates one. A marker comment anyone else
# wrote is left alone. Returns non-zero when gh fails.
post_comment() {
  local number=$1 body=$2 author=${COMMENT_AUTHOR:-github-actions[bot]} existing
  check_repository
  is_number "$number" || fail "not a pull request number"
  existing=$(gh api --paginate "repos/$GITHUB_REPOSITORY/issues/$number/comments" \
    | jq -rn --arg marker "$MARKER" --arg author "$author" \
      'first(inputs[] | select(.user.login == $author and ((.body // "") | startswith($marker))) | .id) // empty') \
    || return 1
  case "$existing" in
    '') gh api --method POST "repos/$GITHUB_REPOSITORY/issues/$number/comments" -F "body=@$body" >/dev/null || return 1 ;;
    *[!0-9]*) fail "unexpected comment id from gh" ;;
    *) gh api --method PATCH "repos/$GITHUB_REPOSITORY/issues/comments/$existing" -F "body=@$body" >/dev/null || return 1 ;;
  esac
}

if [ "${1:-render}" = comment ]; then
  dir=${2:?the directory the render job left}
  number=$(head -c 20 "$dir/number")
  post_comment "$number" "$dir/body.md" || fail "gh could not post the comment"
  exit 0
fi

fleet=${FLEET:-fleet}
clusters=${CLUSTERS:-clusters.yaml}
out=${OUT:-rendered}
format=${MESSAGE_FORMAT:-github}
check_max_comment
max_comment=$MAX_COMMENT_BYTES
work=${RUNNER_TEMP:-${TMPDIR:-/tmp}}/fedrender-action
rm -rf "$work"
mkdir -p "$work"
# Extra flags come from the workflow, never from the pull request: for every command
# (--strict, --deny LINT), and for build --check and diff alone (--cluster-selector, --cluster).
read -r -a extra <<<"${ARGS:-}"
read -r -a shard <<<"${BUILD_ARGS:-}"

status=0
changed=false
output truncated false

fedrender validate "$fleet" --clusters "$clusters" --message-format "$format" ${extra[@]+"${extra[@]}"} \
  || fail "fedrender validate failed"

if [ "${CHECK:-true}" = true ]; then
  set +e
  fedrender build "$fleet" --clusters "$clusters" --out "$out" --check \
    --message-format "$format" ${extra[@]+"${extra[@]}"} ${shard[@]+"${shard[@]}"}
  checked=$?
  set -e
  case $checked in
    0) ;;
    1)
      status=1
      changed=true
      printf '::error::%s\n' "$(escape "$out is out of date: run fedrender build $fleet --clusters $clusters --out $out and commit the result")"
      ;;
    *) fail "fedrender build --check failed" ;;
  esac
fi

event=${GITHUB_EVENT_PATH:-}
if [ "${DIFF:-true}" = true ] && [ "${GITHUB_EVENT_NAME:-}" = pull_request ] && [ -f "$event" ]; then
  number=$(jq -r '.pull_request.number' "$event")
  base_sha=$(jq -r '.pull_request.base.sha' "$event")
  head_repo=$(jq -r '.pull_request.head.repo.full_name' "$event")
  base_repo=$(jq -r '.pull_request.base.repo.full_name' "$event")
  is_number "$number" || fail "the pull_request event's number is not a pull request number"
  # Nothing but a commit id reaches git, and after --end-of-options: never an option.
  is_commit "$base_sha" || fail "the pull_request event's base.sha is not a commit id"
  if ! git cat-file -e "$base_sha^{commit}" 2>/dev/null; then
    git fetch --no-tags --depth=1 --end-of-options origin "$base_sha" \
      || fail "cannot fetch the pull request's base $base_sha"
  fi
  git worktree add --detach --end-of-options "$work/base" "$base_sha" >/dev/null 2>&1 \
    || fail "cannot check out the pull request's base $base_sha"
  base_clusters=$work/base/$clusters
  [ -f "$base_clusters" ] || base_clusters=$clusters
  diff_args=(diff "$fleet" --clusters "$clusters" --base "$work/base/$fleet"
    --base-clusters "$base_clusters" --format markdown
    --title "fedrender: what this pull request changes in each cluster"
    --message-format "$format"
    ${extra[@]+"${extra[@]}"} ${shard[@]+"${shard[@]}"})
  set +e
  fedrender "${diff_args[@]}" --max-bytes 100000000 >"$work/diff.md"
  diffed=$?
  set -e
  case $diffed in
    0) ;;
    1) changed=true ;;
    *) fail "fedrender diff failed" ;;
  esac
  mkdir -p "$work/comment"
  printf '%s\n' "$number" >"$work/comment/number"
  body=$work/comment/body.md
  { printf '%s\n' "$MARKER"; cat "$work/diff.md"; } >"$body"
  if [ "$(wc -c <"$body")" -gt "$max_comment" ]; then
    # Too long for one comment: cut by fedrender, with the whole report as an artifact.
    mkdir -p "$work/full"
    cp "$work/diff.md" "$work/full/diff.md"
    # The link is built from GitHub's own values, each checked, so that nothing in it can end
    # the link or add Markdown; without them the note names the run in words.
    server=${GITHUB_SERVER_URL:-https://github.com}
    run="this run"
    if [[ $server =~ ^https?://[A-Za-z0-9.-]+(:[0-9]+)?$ ]] \
      && is_repository "${GITHUB_REPOSITORY:-}" && [[ ${GITHUB_RUN_ID:-} =~ ^[0-9]+$ ]]; then
      run="[this run]($server/$GITHUB_REPOSITORY/actions/runs/$GITHUB_RUN_ID)"
    fi
    printf '%s\n' "$MARKER" >"$body"
    set +e
    fedrender "${diff_args[@]}" --max-bytes "$((max_comment - 200))" >>"$body"
    cut=$?
    set -e
    [ "$cut" -le 1 ] || fail "fedrender diff failed"
    # shellcheck disable=SC2016 # the backquotes are Markdown's
    printf '\nThe whole report is the artifact `fedrender-diff` of %s.\n' "$run" >>"$body"
    output truncated true
    output full-report "$work/full"
  fi
  # The job summary takes up to 1 MiB: the same cut as the comment beyond that.
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    if [ "$(wc -c <"$work/diff.md")" -le 1000000 ]; then
      cat "$work/diff.md" >>"$GITHUB_STEP_SUMMARY"
    else
      tail -n +2 "$body" >>"$GITHUB_STEP_SUMMARY"
    fi
  fi
  git worktree remove --force "$work/base" >/dev/null 2>&1 || true
  output comment-dir "$work/comment"
  if [ "${COMMENT:-true}" = true ]; then
    if [ "$head_repo" = "$base_repo" ] && [ -n "${GH_TOKEN:-}" ]; then
      # A token that cannot write (Dependabot's, a repository's read-only default) leaves the
      # comment to the workflow_run job, as for a fork.
      post_comment "$number" "$body" \
        || echo "::warning::this token could not comment: the comment is left as the artifact fedrender-comment for a workflow_run job"
    else
      echo "::notice::a pull request from a fork: its token cannot comment; the comment is left as the artifact fedrender-comment for a workflow_run job"
    fi
  fi
fi

output changed "$changed"
output exit-code "$status"
exit "$status"
