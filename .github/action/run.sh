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
# truncated, comment-dir, full-report (the whole Markdown, where the comment is cut),
# html-report (the HTML page). Exit status: 0 clean, 1 a stale tree, 2 an error or a danger
# finding denied by a lint level (the comment and the summary are written first). On a pull
# request, an error replaces the preview comment with one that says the run failed.
#
# What the pull request controls never reaches the log raw: every message this script prints
# is its own words (escaped as workflow commands need), and fedrender prints its diagnostics in
# the chosen --message-format.
set -euo pipefail
# Byte semantics for patterns, ranges and lengths, whatever the runner's locale.
export LC_ALL=C

# The hidden first line that finds the Action's own comment again on every push.
readonly MARKER='<!-- fedrender diff -->'
# U+200B ZERO WIDTH SPACE, as UTF-8 bytes: after an @ it keeps GitHub from reading a mention.
readonly ZWSP=$'\xe2\x80\x8b'

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

# fail MESSAGE: the step fails (exit 2) with MESSAGE as its error. Once a render run knows its
# pull request (failure_pending), the preview comment is first replaced by one that says the
# run failed (failure_comment): the previous push's preview must not stand as if current.
fail() {
  printf '::error::%s\n' "$(escape "$1")" >&2
  output exit-code 2
  if [ "${failure_pending:-false}" = true ]; then
    # Once: a failure while commenting fails the step without another comment.
    failure_pending=false
    failure_comment "${first_error:-$1}"
  fi
  exit 2
}

# failed MESSAGE: fail after a fedrender command that exited with an error: the comment shows
# the first error it printed (MESSAGE where it printed none).
failed() {
  first_error=$(first_error "$work/stderr")
  fail "$1"
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

# A regular file, not a link (an artifact's link could lead to the runner's own files).
is_plain_file() {
  [ -f "$1" ] && [ ! -L "$1" ]
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

# neutralise: standard input with every @ followed by a zero-width space, and the character
# references that HTML turns into an @ (&#64; &#x40; &commat;, with or without the semicolon)
# written so too: no mention of a user or team reaches GitHub's notifications. Text neutralised
# already (a failure comment's error) keeps one zero-width space. NUL bytes, which GitHub
# refuses, go.
neutralise() {
  tr -d '\000' | sed -e "s/@/@$ZWSP/g" \
    -e "s/&#0*64;\{0,1\}/@$ZWSP/g" \
    -e "s/&#[xX]0*40;\{0,1\}/@$ZWSP/g" \
    -e "s/&commat;/@$ZWSP/g" \
    -e "s/@$ZWSP$ZWSP/@$ZWSP/g"
}

# first_error FILE: the first error fedrender printed to FILE (its standard error, in the
# run's --message-format), as `file:line: message [lint]` on one line of at most 300
# characters; nothing where it printed none. Lines between `::stop-commands::TOKEN` and
# `::TOKEN::` are text fedrender quoted (a pull request's names), never its messages.
first_error() {
  [ -s "$1" ] || return 0
  jq -Rrn --arg format "$format" '
    def unescape: gsub("%0[Dd]"; "\r") | gsub("%0[Aa]"; "\n") | gsub("%3[Aa]"; ":")
      | gsub("%2[Cc]"; ",") | gsub("%25"; "%");
    def at(file; line): if (file // "") == "" then "" else "\(file)\(if line then ":\(line)" else "" end): " end;
    def lint(name): if (name // "") == "" then "" else " [\(name)]" end;
    def github: capture("^::error( (?<properties>[^:]*))?::(?<data>.*)$")
      | ([.properties // "" | split(",")[] | capture("^(?<key>[^=]+)=(?<value>.*)$")
          | {(.key): (.value | unescape)}] | add // {}) as $p
      | at($p.file; $p.line) + (.data | unescape | split("\n")[0])
        + lint($p.title // "" | ltrimstr("fedrender") | ltrimstr(" "));
    def json: fromjson? | objects | select(.level == "error")
      | at(.file; .line) + (.message // "" | tostring | split("\n")[0]) + lint(.name);
    def human: gsub("\u001b\\[[0-9;]*m"; "") | select(startswith("error: ")) | ltrimstr("error: ");
    first(
      foreach inputs as $line ({token: null, line: null};
        if .token != null then
          (if $line == "::\(.token)::" then {token: null, line: null} else .line = null end)
        elif ($line | startswith("::stop-commands::")) then {token: $line[17:], line: null}
        else {token: null, line: $line} end;
        .line // empty)
      | if $format == "json" then json elif $format == "github" then github else human end
      | select(. != "")
    ) | if length > 300 then .[:300] + "…" else . end' "$1" 2>/dev/null || true
}

# logged COMMAND...: runs COMMAND with its standard error both in the log and in
# $work/stderr (for first_error); returns its exit status.
logged() {
  { {
    local code=0
    "$@" || code=$?
    printf '%s' "$code" >"$work/code"
  } 2>&1 >&3 3>&- | tee "$work/stderr" >&2; } 3>&1
  return "$(cat "$work/code")"
}

# quoted TEXT: one line from the pull request as Markdown that is text only, as the Markdown
# report writes the pull request's names (src/report/markdown.rs): inside a code span fenced
# longer than any run of backticks in it, where nothing is a link, a mention or an issue
# reference; control characters shown as `?`; and as the report's HTML does, a zero-width space
# after every @ and # and between GH and -, which the comment workflow's neutralise would add
# to the @ anyway (with the character references that stand for one).
quoted() {
  local text=${1//[[:cntrl:]]/?} fence='`' pad=''
  # The GH rule needs the character before it: a space put first, taken off after; twice, for
  # the GH- that follows another.
  text=$(printf ' %s' "$text" | neutralise | sed -E -e "s/#/#$ZWSP/g" \
    -e "s/([^A-Za-z0-9])([Gg][Hh])-/\1\2$ZWSP-/g" -e "s/([^A-Za-z0-9])([Gg][Hh])-/\1\2$ZWSP-/g")
  text=${text# }
  [ -n "$text" ] || text=' '
  while [[ $text == *"$fence"* ]]; do
    fence+='`'
  done
  if [[ $text =~ [^\ ] ]] && [[ $text == [\`\ ]* || $text == *[\`\ ] ]]; then
    pad=' '
  fi
  printf '%s%s%s%s%s' "$fence" "$pad" "$text" "$pad" "$fence"
}

# run_link RUN_ID WORDS: WORDS as a link to that workflow run of GITHUB_REPOSITORY, built from
# GitHub's own values, each checked so that nothing in the link can end it or add Markdown;
# without them, WORDS alone.
run_link() {
  local server=${GITHUB_SERVER_URL:-https://github.com}
  if [[ $server =~ ^https?://[A-Za-z0-9.-]+(:[0-9]+)?$ ]] \
    && is_repository "${GITHUB_REPOSITORY:-}" && [[ $1 =~ ^[0-9]{1,20}$ ]]; then
    printf '[%s](%s/%s/actions/runs/%s)' "$2" "$server" "$GITHUB_REPOSITORY" "$1"
  else
    printf '%s' "$2"
  fi
}

lowercase() {
  printf '%s' "$1" | tr '[:upper:]' '[:lower:]'
}

# comment DIR: the workflow_run job. The pull request is the one the event names (GitHub
# writes the event; the artifact is the pull request's own), the artifact's number must agree
# with it, and the body is posted as the pull request's account, mentions disabled, cut to
# max-comment-bytes. Nothing from the artifact is printed.
comment() {
  local dir=$1 max
  check_repository
  check_max_comment
  max=$MAX_COMMENT_BYTES
  [ "${GITHUB_EVENT_NAME:-}" = workflow_run ] \
    || fail "comment mode runs in a job started by workflow_run"
  local event=${GITHUB_EVENT_PATH:-}
  [ -f "$event" ] || fail "comment mode needs the workflow_run event (GITHUB_EVENT_PATH)"

  local run_event head_repo head_branch head_sha run_id conclusion
  run_event=$(jq -r '.workflow_run.event // empty' "$event")
  head_repo=$(jq -r '.workflow_run.head_repository.full_name // empty' "$event")
  head_branch=$(jq -r '.workflow_run.head_branch // empty' "$event")
  head_sha=$(jq -r '.workflow_run.head_sha // empty' "$event")
  run_id=$(jq -r '.workflow_run.id // empty' "$event")
  conclusion=$(jq -r '.workflow_run.conclusion // empty' "$event")
  [ "$run_event" = pull_request ] || fail "the workflow run was not started by a pull request"
  if ! { is_repository "$head_repo" && is_commit "$head_sha" && [ -n "$head_branch" ]; }; then
    fail "the workflow_run event names no pull request head"
  fi
  [[ $conclusion =~ ^[a-z_]{1,20}$ ]] || conclusion=unknown
  local run same=false
  run=$(run_link "$run_id" "its workflow run")
  [ "$(lowercase "$head_repo")" != "$(lowercase "$GITHUB_REPOSITORY")" ] || same=true

  # No artifact at all (not even a part of one): the run failed before the Action left it.
  local missing=false
  if [ ! -e "$dir/number" ] && [ ! -L "$dir/number" ] && [ ! -e "$dir/body.md" ] && [ ! -L "$dir/body.md" ]; then
    missing=true
    if [ "$conclusion" = success ]; then
      echo "::notice::the workflow run succeeded and left no artifact fedrender-comment (no pull request diff): nothing posted"
      exit 0
    fi
  elif ! { is_plain_file "$dir/number" && is_plain_file "$dir/body.md"; }; then
    fail "the artifact is not the comment a render job leaves (number and body.md, plain files)"
  fi
  # A same-repository pull request's own run posted its comment already (its token can): left
  # as it is, never rewritten under the note meant for a run the base repository cannot trust.
  # Only a same-repository branch (someone who can push) can say so, and saying so falsely
  # only keeps that pull request's own comment from being posted.
  if [ "$missing" = false ] && [ "$same" = true ] && { [ -e "$dir/posted" ] || [ -L "$dir/posted" ]; }; then
    echo "::notice::a same-repository pull request: its own run posted the comment; nothing to do"
    exit 0
  fi
  local claimed=''
  if [ "$missing" = false ]; then
    [ "$(wc -c <"$dir/number")" -le 11 ] || fail "the artifact's number is not a pull request number"
    claimed=$(cat "$dir/number")
    is_number "$claimed" || fail "the artifact's number is not a pull request number"
  fi

  # workflow_run.pull_requests is empty for a fork: ask for the base repository's open pull
  # requests from that head (owner:branch), each as "number sha".
  local found
  found=$(gh api --paginate --method GET "repos/$GITHUB_REPOSITORY/pulls" \
    -f state=open -f "head=${head_repo%%/*}:$head_branch" -f per_page=100 \
    | jq -rn --arg repo "$(lowercase "$head_repo")" --arg branch "$head_branch" \
      --arg base "$(lowercase "$GITHUB_REPOSITORY")" \
      'inputs[] | select((.head.repo.full_name // "" | ascii_downcase) == $repo
        and .head.ref == $branch and (.base.repo.full_name // "" | ascii_downcase) == $base)
        | "\(.number) \(.head.sha)"') \
    || fail "cannot list the open pull requests of the base repository"

  if [ "$missing" = true ]; then
    # The failure comment, from GitHub's values alone: every open pull request at the commit
    # the run was for gets it in place of its preview.
    local pull sha posted=0 body
    body=$(mktemp "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/fedrender-failed.XXXXXX")
    {
      printf '%s\n### fedrender: this run failed\n\n' "$MARKER"
      # shellcheck disable=SC2016 # the backquotes are Markdown's
      printf 'There is no preview of commit `%s`: %s ended `%s` before it left the artifact `fedrender-comment`, so the comment that stood here showed an earlier commit. Its log says why.\n' \
        "${head_sha:0:12}" "$run" "$conclusion"
    } >"$body"
    while read -r pull sha; do
      [ -n "$pull" ] && [ "$sha" = "$head_sha" ] || continue
      is_number "$pull" || continue
      post_comment "$pull" "$body" || fail "gh could not post the comment"
      posted=$((posted + 1))
    done <<<"$found"
    rm -f "$body"
    if [ "$posted" -eq 0 ]; then
      echo "::notice::the workflow run left no artifact fedrender-comment, and no open pull request is at the commit it ran for: nothing posted"
    fi
    exit 0
  fi

  # The artifact's number must be one of them, at the very commit the run rendered. Where it
  # is one of them at a later commit, a push came since: the newer run comments instead.
  local number='' moved=false pull sha
  while read -r pull sha; do
    [ "$pull" = "$claimed" ] || continue
    if [ "$sha" = "$head_sha" ]; then
      number=$pull
    else
      moved=true
    fi
  done <<<"$found"
  if [ -z "$number" ]; then
    if [ "$moved" = true ]; then
      echo "::notice::the pull request has moved past the commit this run rendered: nothing posted"
      exit 0
    fi
    fail "the artifact's number is not an open pull request whose head is the commit this workflow run rendered: nothing posted"
  fi

  local work
  work=$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/fedrender-post.XXXXXX")
  # At most max bytes are read: the comment posted is no longer. The render job's own marker
  # line goes; ours comes first.
  head -c "$max" "$dir/body.md" >"$work/raw"
  if [ "$(head -n 1 "$work/raw")" = "$MARKER" ]; then
    tail -n +2 "$work/raw" | neutralise >"$work/text"
  else
    neutralise <"$work/raw" >"$work/text"
  fi

  # Above the pull request's text, where nothing in it can hide or restyle it: who wrote it.
  local from="the pull request's own workflow run"
  if [ "$(lowercase "$head_repo")" != "$(lowercase "$GITHUB_REPOSITORY")" ]; then
    from="the pull request's own workflow run from a fork"
  fi
  local note
  # shellcheck disable=SC2016 # the backquotes are Markdown's
  note=$(printf '> Rendered by %s (commit `%s` of `%s`; %s), which the pull request controls: read it as the pull request'\''s own account. Mentions are disabled.' \
    "$from" "${head_sha:0:12}" "$head_repo" "$(run_link "$run_id" "its log")")
  printf '%s\n%s\n\n' "$MARKER" "$note" >"$work/head"
  if [ "$(wc -c <"$work/text")" -gt "$((max - $(wc -c <"$work/head")))" ]; then
    printf '%s\n%s Cut to %s bytes: the end is left out.\n\n' "$MARKER" "$note" "$max" >"$work/head"
    local end=$'\n\n> (cut here)\n' room
    room=$((max - $(wc -c <"$work/head") - ${#end}))
    head -c "$((room > 0 ? room : 0))" "$work/text" >"$work/cut"
    # Whole lines only: no character split, no half a line.
    if [ -n "$(tail -c 1 "$work/cut")" ]; then
      sed '$d' "$work/cut" >"$work/text"
    else
      mv "$work/cut" "$work/text"
    fi
    printf '%s' "$end" >>"$work/text"
  fi
  cat "$work/head" "$work/text" >"$work/body.md"
  post_comment "$claimed" "$work/body.md" || fail "gh could not post the comment"
  rm -rf "$work"
}

if [ "${1:-render}" = comment ]; then
  comment "${2:?the directory the render job left}"
  exit 0
fi

# flags VALUE: the arguments an input holds, into the array `flags`. A value with a line
# break holds one argument per line, spaces and quotes kept as written (blank lines skipped);
# a value on one line is split on spaces, as the Action always did.
flags() {
  flags=()
  local line
  if [[ $1 == *$'\n'* ]]; then
    while IFS= read -r line || [ -n "$line" ]; do
      line=${line%$'\r'}
      [ -n "$line" ] && flags+=("$line")
    done <<<"$1"
  else
    read -r -a flags <<<"$1"
  fi
  return 0
}

# fleet_settings DIR FILE: what a run takes from the Configs directly in DIR, as fedrender
# itself reads them (`fedrender config`, JSON of a fixed shape, docs/reference.md), into FILE.
# Never a text tool: a YAML `...` document end, a flow mapping or an anchor reads otherwise
# there. A Config fedrender refuses (a path in it leading out of the repository among them)
# fails the step at its line, in the chosen --message-format.
fleet_settings() {
  logged fedrender config "$1" --message-format "$format" >"$2" \
    || failed "fedrender refused the Config of the fleet at $1 (see its message above)"
}

# setting FILE FILTER: the string at FILTER in fedrender config's JSON (jq, which the event's
# reading needs anyway), nothing for null. A path with a control character is refused: none
# reaches a flag, a message or an annotation.
setting() {
  local value
  value=$(jq -r "$2 // empty | strings" "$1") || fail "cannot read what fedrender config printed"
  [[ $value != *[[:cntrl:]]* ]] || fail "a path in the fleet's Config holds a control character"
  printf '%s' "$value"
}

# confined ROOT PATH WHAT: fails unless PATH leads inside the checkout ROOT, every link along it
# followed (realpath), before anything reads it: an absolute path, a `..` or a committed link
# out to the runner's files is refused, and nothing of the file reaches the log. A path that
# does not exist (nor its directory) has nothing to read; it is judged as written.
confined() {
  local root=$1 path=$2 what=$3 top real
  top=$(realpath -- "$root") || fail "cannot resolve the checkout $root"
  if [ -e "$path" ] || [ -L "$path" ]; then
    real=$(realpath -- "$path" 2>/dev/null) \
      || fail "$what $path is a link that leads nowhere: refused, nothing read from it"
  elif real=$(realpath -- "$(dirname -- "$path")" 2>/dev/null); then
    real=$real/$(basename -- "$path")
  else
    case /$path/ in
      //* | */../*) real=/ ;;
      *) real=$top ;;
    esac
  fi
  case $real in
    "$top" | "$top"/*) ;;
    *) fail "$what $path leads outside the repository checkout: refused, nothing read from it" ;;
  esac
}

# inventory_of ROOT NAMED: the inventory file of the fleet checked out at ROOT (. for the pull
# request's): the clusters input, else NAMED (what the fleet's Config names, as fedrender
# config gives it), else clusters.yaml where it exists; nothing where the fleet's own Cluster
# objects are the inventory.
inventory_of() {
  local root=$1 named=$2
  if [ -n "${CLUSTERS:-}" ]; then
    printf '%s' "$root/$CLUSTERS"
  elif [ -n "$named" ]; then
    printf '%s' "$named"
  elif [ -f "$root/clusters.yaml" ]; then
    printf '%s' "$root/clusters.yaml"
  fi
}

# failure_comment ERROR: the comment a failed run leaves instead of its preview: the first
# error (quoted: it may hold the pull request's names) and a link to the job's log. Posted
# where the preview would be (a same-repository pull request), else left as the artifact
# fedrender-comment for the workflow_run job, which posts it as it posts a preview. Never
# fails: the step fails already.
failure_comment() {
  local body=$work/comment/body.md
  rm -rf "$work/comment"
  mkdir -p "$work/comment" || return 0
  printf '%s\n' "$pull" >"$work/comment/number"
  {
    printf '%s\n### fedrender: this run failed\n\n' "$MARKER"
    printf 'There is no preview of this push: the comment that stood here showed an earlier one. The first error:\n\n'
    printf '%s\n\n' "$(quoted "$1")"
    printf 'Its log is %s.\n' "$(run_link "${GITHUB_RUN_ID:-}" "the job's run")"
  } >"$body"
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    tail -n +2 "$body" >>"$GITHUB_STEP_SUMMARY" || true
  fi
  output comment-dir "$work/comment"
  publish "$body"
}

# publish BODY: posts the comment for a same-repository pull request (and records so in the
# artifact, so that the workflow_run job leaves it), or leaves it for the workflow_run job.
publish() {
  [ "${COMMENT:-true}" = true ] || return 0
  if [ "$head_repo" = "$base_repo" ] && [ -n "${GH_TOKEN:-}" ]; then
    # A token that cannot write (Dependabot's, a repository's read-only default) leaves the
    # comment to the workflow_run job, as for a fork.
    if post_comment "$pull" "$1"; then
      : >"$work/comment/posted"
    else
      echo "::warning::this token could not comment: the comment is left as the artifact fedrender-comment for a workflow_run job"
    fi
  else
    echo "::notice::a pull request from a fork: its token cannot comment; the comment is left as the artifact fedrender-comment for a workflow_run job"
  fi
}

fleet=${FLEET:-fleet}
format=${MESSAGE_FORMAT:-github}
checkout=$(pwd -P)
work=${RUNNER_TEMP:-${TMPDIR:-/tmp}}/fedrender-action
rm -rf "$work"
mkdir -p "$work"

# A pull request whose diff this run comments: from here on, a failure replaces the preview
# comment with one that says so (fail). The event's values are checked again where used.
event=${GITHUB_EVENT_PATH:-}
pull='' head_repo='' base_repo=''
if [ "${DIFF:-true}" = true ] && [ "${GITHUB_EVENT_NAME:-}" = pull_request ] && [ -f "$event" ]; then
  pull=$(jq -r '.pull_request.number' "$event")
  head_repo=$(jq -r '.pull_request.head.repo.full_name' "$event")
  base_repo=$(jq -r '.pull_request.base.repo.full_name' "$event")
  if is_number "$pull"; then
    failure_pending=true
  fi
fi
fleet_settings "$fleet" "$work/settings.json"
config_clusters=$(setting "$work/settings.json" .clusters.path)
config_output=$(setting "$work/settings.json" .output.path)
# clusters and out: the input where given; else what the fleet's Config says (fedrender reads
# it, so no flag); else clusters.yaml (where it exists) and rendered, the Action's defaults.
clusters_flag=()
inventory=$(inventory_of . "$config_clusters")
inventory=${inventory#./}
[ -z "$inventory" ] || confined "$checkout" "$inventory" "the inventory"
if [ -n "${CLUSTERS:-}" ] || { [ -n "$inventory" ] && [ -z "$config_clusters" ]; }; then
  clusters_flag=(--clusters "$inventory")
fi
out=${OUT:-}
if [ -z "$out" ]; then
  out=$config_output
  out_flag=()
  if [ -n "$out" ]; then
    confined "$checkout" "$out" "the output directory the fleet's Config names"
  else
    out=rendered
    out_flag=(--out rendered)
  fi
else
  out_flag=(--out "$out")
fi
check_max_comment
# Room for the line the workflow_run job puts above a fork's comment, within the same limit.
max_comment=$((MAX_COMMENT_BYTES - 500))
# Extra flags come from the workflow, never from the pull request: for every command
# (--strict, --deny LINT), and for build --check and diff alone (--cluster-selector, --cluster).
flags "${ARGS:-}"
extra=(${flags[@]+"${flags[@]}"})
flags "${BUILD_ARGS:-}"
shard=(${flags[@]+"${flags[@]}"})

status=0
changed=false
output truncated false

logged fedrender validate "$fleet" ${clusters_flag[@]+"${clusters_flag[@]}"} --message-format "$format" ${extra[@]+"${extra[@]}"} \
  || failed "fedrender validate failed"

stale=false
if [ "${CHECK:-true}" = true ]; then
  checked=0
  logged fedrender build "$fleet" ${clusters_flag[@]+"${clusters_flag[@]}"} ${out_flag[@]+"${out_flag[@]}"} --check \
    --message-format "$format" ${extra[@]+"${extra[@]}"} ${shard[@]+"${shard[@]}"} || checked=$?
  case $checked in
    0) ;;
    1)
      status=1
      changed=true
      stale=true
      rebuild=(fedrender build "$fleet" ${clusters_flag[@]+"${clusters_flag[@]}"} ${out_flag[@]+"${out_flag[@]}"})
      printf '::error::%s\n' "$(escape "$out is out of date: run ${rebuild[*]} and commit the result")"
      ;;
    *) failed "fedrender build --check failed" ;;
  esac
fi

if [ "${DIFF:-true}" = true ] && [ "${GITHUB_EVENT_NAME:-}" = pull_request ] && [ -f "$event" ]; then
  number=$(jq -r '.pull_request.number' "$event")
  base_sha=$(jq -r '.pull_request.base.sha' "$event")
  is_number "$number" || fail "the pull_request event's number is not a pull request number"
  # Nothing but a commit id reaches git, and after --end-of-options: never an option.
  is_commit "$base_sha" || fail "the pull_request event's base.sha is not a commit id"
  if ! git cat-file -e "$base_sha^{commit}" 2>/dev/null; then
    git fetch --no-tags --depth=1 --end-of-options origin "$base_sha" \
      || fail "cannot fetch the pull request's base $base_sha"
  fi
  # A worktree an earlier run left registered (its directory gone with $work) is forgotten.
  git worktree prune >/dev/null 2>&1 || true
  git worktree add --detach --end-of-options "$work/base" "$base_sha" >/dev/null 2>&1 \
    || fail "cannot check out the pull request's base $base_sha"
  # The base as fedrender sees it: its fleet with its own inventory. A base without the fleet
  # or without that inventory (the pull request that adopts fedrender) is an empty fleet, so
  # that everything shows as added: an empty directory with this pull request's inventory, or
  # where the fleet's own Cluster objects are the inventory, an empty rendered tree.
  base=(--base "$work/base/$fleet")
  adopting=false
  if [ -d "$work/base/$fleet" ]; then
    fleet_settings "$work/base/$fleet" "$work/base-settings.json"
    base_named=$(setting "$work/base-settings.json" .clusters.path)
    base_inventory=$(inventory_of "$work/base" "$base_named")
    if [ -n "$base_inventory" ]; then
      if [ -f "$base_inventory" ]; then
        confined "$work/base" "$base_inventory" "the base's inventory"
        base+=(--base-clusters "$base_inventory")
      else
        adopting=true
      fi
    elif ! grep -rqsE --include='*.yaml' --include='*.yml' --include='*.json' \
      '^kind:[[:space:]]*"?Cluster"?[[:space:]]*$|"kind":[[:space:]]*"Cluster"' "$work/base/$fleet"; then
      adopting=true
    fi
  else
    adopting=true
  fi
  if [ "$adopting" = true ]; then
    mkdir -p "$work/empty"
    if [ -n "$inventory" ]; then
      base=(--base "$work/empty" --base-clusters "$inventory")
    else
      base=(--against "$work/empty")
    fi
  fi
  diff_args=(diff "$fleet" ${clusters_flag[@]+"${clusters_flag[@]}"} "${base[@]}"
    --title "fedrender: what this pull request changes in each cluster"
    --message-format "$format"
    ${extra[@]+"${extra[@]}"} ${shard[@]+"${shard[@]}"})
  # diff_report MAX_BYTES [again]: the Markdown report, with a line under its heading where the
  # base has no fleet yet. Its exit status is fedrender's, except 3 for a danger finding denied
  # by a lint level: fedrender then exits 2 as for an error, but only after printing the whole
  # report (an error prints none), and the reviewer needs that report most. Run `again`, its
  # messages (the first run's once more) stay out of the log.
  diff_report() {
    local code=0
    if [ "${2:-}" = again ]; then
      fedrender "${diff_args[@]}" --format markdown --max-bytes "$1" >"$work/report.md" 2>"$work/stderr" || code=$?
    else
      logged fedrender "${diff_args[@]}" --format markdown --max-bytes "$1" >"$work/report.md" || code=$?
    fi
    if [ "$code" -eq 2 ] && [ -s "$work/report.md" ]; then
      code=3
    fi
    if [ "$adopting" = true ] && { [ "$code" -le 1 ] || [ "$code" -eq 3 ]; }; then
      head -n 1 "$work/report.md"
      # shellcheck disable=SC2016 # the backquotes are Markdown's
      printf '\nThe base branch has no fleet at `%s` yet (or no inventory for it): this pull request adopts fedrender, so every object is added.\n' "${fleet//\`/}"
      tail -n +2 "$work/report.md"
    else
      cat "$work/report.md"
    fi
    return "$code"
  }
  diffed=0
  diff_report 100000000 >"$work/diff.md" || diffed=$?
  denied=false
  case $diffed in
    0) ;;
    1) changed=true ;;
    3)
      changed=true
      denied=true
      ;;
    *) failed "fedrender diff failed" ;;
  esac
  # The same review as one HTML page, for the artifact fedrender-report: every hunk, however
  # long the diff. Its messages are the Markdown run's, already in the log.
  mkdir -p "$work/report"
  html=0
  fedrender "${diff_args[@]}" --format html >"$work/report/fedrender-report.html" 2>"$work/stderr" || html=$?
  run=$(run_link "${GITHUB_RUN_ID:-}" "this run")
  reported=false
  if [ "$html" -le 2 ] && [ -s "$work/report/fedrender-report.html" ]; then
    reported=true
    output html-report "$work/report"
  else
    echo "::warning::fedrender diff --format html failed: the run has no HTML report"
  fi

  # The comment: the marker, a warning where the committed tree is stale, the report, and where
  # the whole review is.
  printf '%s\n' "$MARKER" >"$work/head.md"
  if [ "$stale" = true ]; then
    printf '> **The committed %s is stale:** run %s and commit the result. The files there are not what the fleet renders; the diff below is the fleet'\''s.\n\n' \
      "$(quoted "${out%/}/")" "$(quoted "${rebuild[*]}")" >>"$work/head.md"
  fi
  : >"$work/foot.md"
  if [ "$reported" = true ]; then
    # shellcheck disable=SC2016 # the backquotes are Markdown's
    printf '\nFull report: the artifact `fedrender-report` of %s, one HTML page with the review, the matrix and every hunk.\n' "$run" >"$work/foot.md"
  fi
  mkdir -p "$work/comment"
  printf '%s\n' "$number" >"$work/comment/number"
  body=$work/comment/body.md
  cat "$work/head.md" "$work/diff.md" "$work/foot.md" >"$body"
  if [ "$(wc -c <"$body")" -gt "$max_comment" ]; then
    # Too long for one comment: cut by fedrender, with the whole review as artifacts.
    mkdir -p "$work/full"
    cp "$work/diff.md" "$work/full/diff.md"
    if [ "$reported" = true ]; then
      # shellcheck disable=SC2016 # the backquotes are Markdown's
      printf '\nThis comment is cut to fit: the full review is the artifact `fedrender-report` of %s (one HTML page: the review, the matrix and every hunk), and the whole Markdown the artifact `fedrender-diff`.\n' "$run" >"$work/foot.md"
    else
      # shellcheck disable=SC2016 # the backquotes are Markdown's
      printf '\nThe whole report is the artifact `fedrender-diff` of %s.\n' "$run" >"$work/foot.md"
    fi
    room=$((max_comment - $(wc -c <"$work/head.md") - $(wc -c <"$work/foot.md")))
    cut=0
    diff_report "$((room > 1 ? room : 1))" again >"$work/cut.md" || cut=$?
    [ "$cut" -le 1 ] || [ "$cut" -eq 3 ] || failed "fedrender diff failed"
    cat "$work/head.md" "$work/cut.md" "$work/foot.md" >"$body"
    output truncated true
    output full-report "$work/full"
  fi
  # The comment is complete: what fails from here fails the step, and the comment stays.
  failure_pending=false
  # The job summary takes up to 1 MiB: the same cut as the comment beyond that.
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    if [ "$(wc -c <"$work/diff.md")" -le 1000000 ]; then
      tail -n +2 "$work/head.md" | cat - "$work/diff.md" "$work/foot.md" >>"$GITHUB_STEP_SUMMARY"
    else
      tail -n +2 "$body" >>"$GITHUB_STEP_SUMMARY"
    fi
  fi
  git worktree remove --force "$work/base" >/dev/null 2>&1 || true
  output comment-dir "$work/comment"
  publish "$body"
  # The review is posted first; then the step fails, as the lint level asks.
  if [ "$denied" = true ]; then
    echo "::error::fedrender diff: a danger finding is denied by a lint level (see the Review section of the comment)"
    status=2
  fi
fi

output changed "$changed"
output exit-code "$status"
exit "$status"
