#!/usr/bin/env bash
# Chooses the fedrender release the Action installs and prints it as `tag=TAG` for
# $GITHUB_OUTPUT: the version input (REQUESTED) when given, else the release this copy of the
# Action was released as, recorded in VERSION beside this script. A release's tag equals that
# file (the release workflow refuses to publish otherwise), so `uses: OWNER/fedrender@SHA`, a
# branch or a moving major tag installs the release the commit belongs to: the ref the workflow
# names is never read as a version.
set -euo pipefail
# Byte semantics for the pattern below, whatever the runner's locale.
export LC_ALL=C

tag=${REQUESTED:-}
if [ -z "$tag" ]; then
  recorded=$(dirname "$0")/VERSION
  if [ ! -f "$recorded" ] || ! IFS= read -r tag <"$recorded"; then
    echo "::error::this copy of the Action records no release version (.github/action/VERSION): give the version input" >&2
    exit 2
  fi
fi
# The tag names the cache's directory and goes to $GITHUB_OUTPUT: a release tag only
# (install.sh checks it the same way). The message does not repeat it.
if [[ ! $tag =~ ^v[0-9][A-Za-z0-9._+-]*$ ]] || [[ $tag == *..* ]]; then
  echo "::error::version must be a release tag like v0.2.0 (letters, digits and . _ + - after the v)" >&2
  exit 2
fi
echo "tag=$tag"
