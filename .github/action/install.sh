#!/usr/bin/env bash
# Installs a fedrender release for this runner: the archive for its OS and architecture,
# verified against the release's SHA-256 checksum file, or, where no archive fits (or the
# release has none), `cargo install --locked` from the same tag. A checksum that does not
# match is an error, never a reason to fall back.
#
# Environment: VERSION (a release tag, e.g. v0.2.0), REPOSITORY (owner/name, default: the
# Action's own), INSTALL_DIR (where the binary goes), DOWNLOAD_URL (default: the release's
# download address on GitHub; tests point it elsewhere). Prints the directory to add to PATH.
set -euo pipefail

version=${VERSION:?a release tag, e.g. v0.2.0}
case "$version" in
  v[0-9]*) ;;
  *) echo "::error::version must be a release tag like v0.2.0, not '$version'" >&2; exit 2 ;;
esac
repository=${REPOSITORY:-${GITHUB_ACTION_REPOSITORY:-}}
base_url=${DOWNLOAD_URL:-https://github.com/$repository/releases/download/$version}
install_dir=${INSTALL_DIR:-${RUNNER_TEMP:-/tmp}/fedrender-$version}
mkdir -p "$install_dir/bin"
binary=$install_dir/bin/fedrender

if [ -x "$binary" ] && "$binary" --version 2>/dev/null | grep -qF "${version#v}"; then
  echo "$install_dir/bin"
  exit 0
fi

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) target=x86_64-unknown-linux-musl ;;
  Linux-aarch64 | Linux-arm64) target=aarch64-unknown-linux-musl ;;
  Darwin-x86_64) target=x86_64-apple-darwin ;;
  Darwin-arm64) target=aarch64-apple-darwin ;;
  MINGW* | MSYS* | CYGWIN*)
    # The output tree is written through Unix directory handles, which Windows lacks.
    echo "::error::fedrender runs on Linux and macOS: on Windows, use WSL or the container image" >&2
    exit 2
    ;;
  *) target= ;;
esac

sha256() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d ' ' -f 1
  else
    shasum -a 256 "$1" | cut -d ' ' -f 1
  fi
}

from_source() {
  echo "no release archive for $(uname -s) $(uname -m): building $version with cargo" >&2
  cargo install --locked --root "$install_dir" --git "https://github.com/$repository" \
    --tag "$version" fedrender >&2
  echo "$install_dir/bin"
  exit 0
}

[ -n "$target" ] || from_source
archive=fedrender-$version-$target.tar.gz
download=$(mktemp -d)
trap 'rm -rf "$download"' EXIT
# curl -f fails on an HTTP error: a release without this archive builds from source.
curl -fsSL --retry 3 -o "$download/SHA256SUMS" "$base_url/fedrender-$version-SHA256SUMS" \
  && curl -fsSL --retry 3 -o "$download/$archive" "$base_url/$archive" \
  || from_source
expected=$(awk -v name="$archive" '$2 == name || $2 == "*" name { print $1 }' "$download/SHA256SUMS")
actual=$(sha256 "$download/$archive")
if [ -z "$expected" ]; then
  echo "::error::$archive is not listed in fedrender-$version-SHA256SUMS" >&2
  exit 1
fi
if [ "$expected" != "$actual" ]; then
  echo "::error::checksum mismatch for $archive: expected $expected, got $actual; not installed" >&2
  exit 1
fi
mkdir -p "$download/unpacked"
tar -xzf "$download/$archive" -C "$download/unpacked"
found=$(find "$download/unpacked" -type f -name fedrender | head -n 1)
[ -n "$found" ] || { echo "::error::$archive holds no fedrender binary" >&2; exit 1; }
cp "$found" "$binary"
chmod 755 "$binary"
echo "$install_dir/bin"
