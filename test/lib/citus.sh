# shellcheck shell=bash
# Citus, built from ../shared/citus (citus-<version>.tar.xz) into the installation of a PostgreSQL
# major from the cache (test/lib/pg_majors.sh), for the multi-node test (test/citus/).
# Source test/lib/pg_majors.sh first.

IDGEN_CITUS_SOURCES=${IDGEN_CITUS_SOURCES:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)/shared/citus}
IDGEN_CITUS_VERSION=14.0.1
# (The Debian packages its configure asks for are in IDGEN_TEST_PACKAGES, test/lib/deps.sh.)

# install_citus PREFIX: builds Citus into the PostgreSQL installed at PREFIX unless it is there
# already (a marker file named after the archive's SHA-256; an interrupted build is redone).
# Returns non-zero when the archive is missing or the build fails (the log's tail to stderr).
install_citus() {
  local prefix=$1 archive sha marker work log
  archive=$IDGEN_CITUS_SOURCES/citus-$IDGEN_CITUS_VERSION.tar.xz
  [ -f "$archive" ] || { echo "no Citus source archive at $archive" >&2; return 1; }
  sha=$(sha256sum "$archive" | cut -c1-12)
  marker=$prefix/.idgen-citus-$sha
  [ -f "$marker" ] && return 0
  work=$(mktemp -d /tmp/idgen-citus-build.XXXXXX)
  log=$work/build.log
  if ! (tar -xJf "$archive" -C "$work" && cd "$work/citus-$IDGEN_CITUS_VERSION" &&
    ./configure PG_CONFIG="$prefix/bin/pg_config" && make -j"$(nproc)" && make install) \
    >"$log" 2>&1; then
    echo "building Citus $IDGEN_CITUS_VERSION failed:" >&2
    tail -n 30 "$log" >&2
    rm -rf "$work"
    return 1
  fi
  rm -rf "$work"
  touch "$marker"
}
