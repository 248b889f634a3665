#!/usr/bin/env bash
# Builds the Go recipe of docs/go-pgx.md (test/stacks/go/main.go), which test/t/033_go_pgx.pl runs,
# with Debian's Go 1.19 and pgx v4 only: golang-go and golang-github-jackc-pgx-v4-dev (installed
# as root; otherwise deps.sh prints the apt-get command and stops), built in GOPATH mode from
# /usr/share/gocode, so nothing is downloaded, and without cgo (no C compiler needed). The binary
# goes outside the checkout, readable by everyone (the test runs as the server's user), to
# /var/cache/idgen-stacks/go-<the first 16 hex digits of main.go's SHA-256>/idgen-go-recipe, with
# Go's build cache beside it (go-build-cache); when that binary exists, there is nothing to do.
set -euo pipefail
cd "$(dirname "$0")/../../.."
source test/lib/deps.sh
ensure_packages golang-go golang-github-jackc-pgx-v4-dev

cache=/var/cache/idgen-stacks
hash=$(sha256sum test/stacks/go/main.go | cut -c1-16)
target=$cache/go-$hash
[ -x "$target/idgen-go-recipe" ] && exit 0

if ! mkdir -p "$cache" 2>/dev/null || [ ! -w "$cache" ]; then
  echo "cannot write $cache: run test/stacks/go/prepare.sh as root"
  exit 1
fi
chmod 755 "$cache" 2>/dev/null || true   # readable by the server's user
work=$(mktemp -d "$cache/go-build.XXXXXX")
trap 'rm -rf "$work"' EXIT
CGO_ENABLED=0 GO111MODULE=off GOPATH=/usr/share/gocode GOCACHE="$cache/go-build-cache" GOFLAGS='' \
  go build -trimpath -o "$work/idgen-go-recipe" test/stacks/go/main.go
chmod 755 "$work" "$work/idgen-go-recipe"
rm -rf "$target"
mv -T "$work" "$target"   # complete or absent: a half-written binary is never at $target
echo "built $target/idgen-go-recipe"
# Binaries of earlier versions of main.go are not needed any more.
for old in "$cache"/go-*; do
  [[ $old =~ /go-[0-9a-f]{16}$ && $old != "$target" ]] && rm -rf "$old"
done
exit 0
