# shellcheck shell=bash
# pg_tle (Trusted Language Extensions, which managed services offer to install extensions written
# in SQL without files on the server), built with PGXS from the archive in ../shared/pg_tle into
# the PostgreSQL installation that a pg_config names, unless it is there already. The tests of the
# SQL edition's pg_tle installer need it (test/t/062_sql_edition_install.pl).

IDGEN_PG_TLE_SOURCES=${IDGEN_PG_TLE_SOURCES:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)/shared/pg_tle}

# ensure_pg_tle PG_CONFIG: returns non-zero (with the build log's tail on stderr) when the archive
# is missing or the build fails.
ensure_pg_tle() {
  local pg_config=$1 archive work log
  [ -f "$("$pg_config" --sharedir)/extension/pg_tle.control" ] && return 0
  archive=$(find "$IDGEN_PG_TLE_SOURCES" -maxdepth 1 -name "pg_tle-*.tar.gz" 2>/dev/null | sort | head -n 1)
  [ -n "$archive" ] || { echo "no pg_tle archive in $IDGEN_PG_TLE_SOURCES" >&2; return 1; }
  work=$(mktemp -d /tmp/idgen-pg_tle.XXXXXX)
  log=$work/build.log
  if ! (tar -xzf "$archive" -C "$work" && cd "$work"/pg_tle &&
    make -j"$(nproc)" PG_CONFIG="$pg_config" && make PG_CONFIG="$pg_config" install) >"$log" 2>&1; then
    echo "building pg_tle for $("$pg_config" --version) failed:" >&2
    tail -n 30 "$log" >&2
    rm -rf "$work"
    return 1
  fi
  rm -rf "$work"
}
