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
# BUILD_ARGS, MESSAGE_FORMAT, MAX_COMMENT_BYTES, GH_TOKEN; and GitHub's own (GITHUB_EVENT_NAME,
# GITHUB_EVENT_PATH, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_REPOSITORY, GITHUB_SERVER_URL,
# GITHUB_RUN_ID, RUNNER_TEMP). Outputs: changed (true/false), exit-code, truncated,
# comment-dir. Exit status: 0 clean, 1 a stale tree, 2 an error.
set -euo pipefail

# The hidden first line that finds the Action's own comment again on every push.
readonly MARKER='<!-- fedrender diff -->'

output() {
  printf '%s=%s\n' "$1" "$2" >>"${GITHUB_OUTPUT:-/dev/null}"
}

fail() {
  printf '::error::%s\n' "$1" >&2
  output exit-code 2
  exit 2
}

# post_comment NUMBER BODY_FILE: edits the comment that starts with the marker, or creates it.
post_comment() {
  local number=$1 body=$2 repository=${GITHUB_REPOSITORY:?}
  case "$number" in
    '' | *[!0-9]*) fail "not a pull request number: $number" ;;
  esac
  local existing
  existing=$(gh api --paginate "repos/$repository/issues/$number/comments" \
    --jq ".[] | select(.body | startswith(\"$MARKER\")) | .id" | head -n 1)
  case "$existing" in
    '') gh api --method POST "repos/$repository/issues/$number/comments" -F "body=@$body" >/dev/null ;;
    *[!0-9]*) fail "unexpected comment id from gh: $existing" ;;
    *) gh api --method PATCH "repos/$repository/issues/comments/$existing" -F "body=@$body" >/dev/null ;;
  esac
}

if [ "${1:-render}" = comment ]; then
  dir=${2:?the directory the render job left}
  number=$(head -c 20 "$dir/number")
  post_comment "$number" "$dir/body.md"
  exit 0
fi

fleet=${FLEET:-fleet}
clusters=${CLUSTERS:-clusters.yaml}
out=${OUT:-rendered}
format=${MESSAGE_FORMAT:-github}
max_comment=${MAX_COMMENT_BYTES:-60000}
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
      echo "::error::$out is out of date: run fedrender build $fleet --clusters $clusters --out $out and commit the result"
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
  if ! git cat-file -e "$base_sha^{commit}" 2>/dev/null; then
    git fetch --no-tags --depth=1 origin "$base_sha"
  fi
  git worktree add --detach "$work/base" "$base_sha" >/dev/null 2>&1 \
    || fail "cannot check out the pull request's base $base_sha"
  base_clusters=$work/base/$clusters
  [ -f "$base_clusters" ] || base_clusters=$clusters
  diff_args=(diff "$fleet" --clusters "$clusters" --base "$work/base/$fleet"
    --base-clusters "$base_clusters" --format markdown
    --title "fedrender: what this pull request changes in each cluster"
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
    run_url="${GITHUB_SERVER_URL:-https://github.com}/${GITHUB_REPOSITORY:-}/actions/runs/${GITHUB_RUN_ID:-}"
    printf '%s\n' "$MARKER" >"$body"
    set +e
    fedrender "${diff_args[@]}" --max-bytes "$((max_comment - 200))" >>"$body"
    cut=$?
    set -e
    [ "$cut" -le 1 ] || fail "fedrender diff failed"
    printf '\nThe whole report is the artifact `fedrender-diff` of [this run](%s).\n' "$run_url" >>"$body"
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
      post_comment "$number" "$body"
    else
      echo "::notice::a pull request from a fork: its token cannot comment; the comment is left as the artifact fedrender-comment for a workflow_run job"
    fi
  fi
fi

output changed "$changed"
output exit-code "$status"
exit "$status"
