#!/usr/bin/env bash
# Installs a fedrender release for this runner: the archive for its OS and architecture,
# verified against the release's SHA-256 checksum file, or, where no archive fits (no build
# for this OS and architecture, or the checksum file lists none for it), `cargo install
# --locked` from the same tag. A checksum file that cannot be downloaded, an archive it lists
# that cannot be, or a checksum that does not match is an error, never a reason to fall back.
#
# The install directory is cached between jobs (actions/cache), and an earlier job may have
# poisoned it: nothing in it is trusted. The checksum file always comes from the release; the
# verified archive is kept beside the binary, and on every run it is checked against that
# checksum and the binary unpacked from it again, so a cached binary that was replaced is
# replaced back (a cached archive that does not match is downloaded again).
#
# Environment: VERSION (a release tag, e.g. v0.2.0), REPOSITORY (owner/name, default: the
# Action's own), INSTALL_DIR (where the binary goes), DOWNLOAD_URL (default: the release's
# download address on GitHub; tests point it elsewhere). Prints the directory to add to PATH.
set -euo pipefail
# Byte semantics for the patterns below, whatever the runner's locale.
export LC_ALL=C

version=${VERSION:?a release tag, e.g. v0.2.0}
# The tag becomes part of paths and addresses: v, a digit, then letters, digits and . _ + -
# only, never "..". The message does not repeat it.
if [[ ! $version =~ ^v[0-9][A-Za-z0-9._+-]*$ ]] || [[ $version == *..* ]]; then
  echo "::error::version must be a release tag like v0.2.0 (letters, digits and . _ + - after the v)" >&2
  exit 2
fi
repository=${REPOSITORY:-${GITHUB_ACTION_REPOSITORY:-}}
base_url=${DOWNLOAD_URL:-https://github.com/$repository/releases/download/$version}
install_dir=${INSTALL_DIR:-${RUNNER_TEMP:-/tmp}/fedrender-$version}
mkdir -p "$install_dir/bin"
binary=$install_dir/bin/fedrender

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

# from_source WHY: builds the tag with cargo, where the release has no archive for this runner.
from_source() {
  echo "$1: building $version with cargo" >&2
  cargo install --locked --profile dist --root "$install_dir" --git "https://github.com/$repository" \
    --tag "$version" --force fedrender >&2
  echo "$install_dir/bin"
  exit 0
}

[ -n "$target" ] || from_source "no release archive for $(uname -s) $(uname -m)"
archive=fedrender-$version-$target.tar.gz
sums=fedrender-$version-SHA256SUMS
download=$(mktemp -d)
trap 'rm -rf "$download"' EXIT
# curl -f fails on an HTTP error. The checksum file says which archives the release has: one
# it lists must be installed from the release, never rebuilt because a download failed.
if ! curl -fsSL --retry 3 -o "$download/SHA256SUMS" "$base_url/$sums"; then
  echo "::error::cannot download $sums from the release; not installed" >&2
  exit 1
fi
expected=$(awk -v name="$archive" '$2 == name || $2 == "*" name { print $1 }' "$download/SHA256SUMS")
[ -n "$expected" ] || from_source "$sums lists no archive for $target"
if [[ ! $expected =~ ^[0-9a-f]{64}$ ]]; then
  echo "::error::$sums does not give one SHA-256 for $archive; not installed" >&2
  exit 1
fi
# The cached archive, copied out first so that what is checked is what is unpacked.
cached=$install_dir/$archive
if [ -f "$cached" ] && [ ! -L "$cached" ] && cp "$cached" "$download/$archive" \
  && [ "$(sha256 "$download/$archive")" = "$expected" ]; then
  :
else
  if [ -e "$cached" ] || [ -L "$cached" ]; then
    echo "::warning::the cached $archive does not match $sums: downloading it again" >&2
  fi
  rm -f "$cached" "$download/$archive"
  if ! curl -fsSL --retry 3 -o "$download/$archive" "$base_url/$archive"; then
    echo "::error::cannot download $archive, which $sums lists; not installed" >&2
    exit 1
  fi
  actual=$(sha256 "$download/$archive")
  if [ "$expected" != "$actual" ]; then
    echo "::error::checksum mismatch for $archive: expected $expected, got $actual; not installed" >&2
    exit 1
  fi
fi
mkdir -p "$download/unpacked"
tar -xzf "$download/$archive" -C "$download/unpacked"
found=$(find "$download/unpacked" -type f -name fedrender | head -n 1)
[ -n "$found" ] || { echo "::error::$archive holds no fedrender binary" >&2; exit 1; }
# Never through a link the cache may hold: the binary and the archive are written afresh.
rm -f "$binary"
cp "$found" "$binary"
chmod 755 "$binary"
cp "$download/$archive" "$cached"
echo "$install_dir/bin"
