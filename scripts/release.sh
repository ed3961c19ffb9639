#!/usr/bin/env bash
# release.sh builds versioned, reproducible binaries of the commands into
# dist/ and writes dist/SHA256SUMS.
#
#   scripts/release.sh                         # VERSION from git describe, all targets
#   VERSION=v0.2.0 scripts/release.sh
#   VERSION=v0.2.0 TARGETS=linux/amd64 DIST=/tmp/d scripts/release.sh
#
# Environment:
#   VERSION  release name stamped in as main.version (default: git describe --tags --always --dirty)
#   COMMIT   commit stamped in as main.commit (default: git rev-parse HEAD, or "unknown")
#   TARGETS  space-separated GOOS/GOARCH pairs (default: linux/amd64 linux/arm64 darwin/arm64 darwin/amd64)
#   DIST     output directory (default: dist)
#   GO       go command (default: go)
#
# The same source, VERSION, COMMIT and Go toolchain give byte-identical
# binaries on any machine: no cgo, no file system paths (-trimpath), no VCS
# stamp (-buildvcs=false: the commit is stamped explicitly), no symbol
# table (-s -w), and the default instruction-set levels. Each binary is
# named COMMAND-VERSION-GOOS-GOARCH (the pipelines sentences and reuse, and
# explore, the browser over a finished run) and answers --version.
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
DIST=${DIST:-dist}
TARGETS=${TARGETS:-linux/amd64 linux/arm64 darwin/arm64 darwin/amd64}
VERSION=${VERSION:-$(git describe --tags --always --dirty 2>/dev/null || echo dev)}
COMMIT=${COMMIT:-$(git rev-parse HEAD 2>/dev/null || echo unknown)}

case $VERSION in
  '' | *[!A-Za-z0-9._+-]*) echo "release.sh: VERSION '$VERSION' may use only letters, digits and . _ + -" >&2; exit 2 ;;
esac
case $COMMIT in
  '' | *[!A-Za-z0-9._+-]*) echo "release.sh: COMMIT '$COMMIT' may use only letters, digits and . _ + -" >&2; exit 2 ;;
esac

if command -v sha256sum >/dev/null; then
  sha256() { sha256sum "$@"; }
else
  sha256() { shasum -a 256 "$@"; } # macOS
fi

mkdir -p "$DIST"
names=()
for target in $TARGETS; do
  goos=${target%/*}
  goarch=${target#*/}
  if [[ -z $goos || -z $goarch || $target != */* ]]; then
    echo "release.sh: target '$target' is not GOOS/GOARCH" >&2
    exit 2
  fi
  for command in pipelines/sentences pipelines/reuse explore; do
    name=${command##*/}-$VERSION-$goos-$goarch
    echo "building $DIST/$name"
    env CGO_ENABLED=0 GOOS="$goos" GOARCH="$goarch" GOAMD64=v1 GOARM64=v8.0 GOFLAGS=-mod=readonly \
      "$GO" build -trimpath -buildvcs=false \
      -ldflags "-s -w -X main.version=$VERSION -X main.commit=$COMMIT" \
      -o "$DIST/$name" "./$command"
    names+=("$name")
  done
done

(cd "$DIST" && sha256 "${names[@]}" >SHA256SUMS)
echo "built with $("$GO" version):"
cat "$DIST/SHA256SUMS"
