# shellcheck shell=bash
# The peers that docs/migrating.md converts from, from their archives in ../shared/peers (its
# README.md), for the migration tests (test/t/080, 081): pg-ulid, a C extension, built against one
# PostgreSQL installation and kept in a cache outside the checkout, as test/lib/releases.sh keeps
# earlier releases; typeid-sql, plain SQL files, unpacked.
#
# As a command (what the TAP tests run, as the server's user):
#   bash test/lib/peer_extensions.sh pg-ulid PG_CONFIG   prints the cache entry: lib/ (ulid.so)
#                                                        and extension/ (control file, script)
#   bash test/lib/peer_extensions.sh typeid-sql DIR      unpacks typeid-sql into DIR and prints
#                                                        its sql/ directory (01_ to 04_*.sql)
# The archives are found in IDGEN_PEERS_DIR, else in ../shared/peers beside the repository that
# IDGEN_SOURCE_DIR names (run_tap's bare copy of the history remembers it as its origin), else
# beside the current directory. A missing archive or a failed build is an error (status 1, the
# reason on stderr): the tests fail, they are not skipped.

IDGEN_RELEASES_CACHE=${IDGEN_RELEASES_CACHE:-/var/cache/idgen-builds}

# peers_dir: prints the directory of the peers' archives.
peers_dir() {
  local source=${IDGEN_SOURCE_DIR:-$PWD} origin
  if [ -n "${IDGEN_PEERS_DIR:-}" ]; then
    echo "$IDGEN_PEERS_DIR"
    return
  fi
  origin=$(git -c safe.directory='*' -C "$source" config remote.origin.url 2>/dev/null) &&
    [ -d "$origin" ] && source=$origin
  echo "$source/../shared/peers"
}

# peer_archive NAME: the newest archive of a peer (pg-ulid-<commit>.tar.xz, typeid-sql-<commit>.tar.gz).
peer_archive() {
  local dir archive
  dir=$(peers_dir)
  archive=$(find "$dir" -maxdepth 1 -name "$1-*.tar.*" 2>/dev/null | sort | tail -1)
  [ -n "$archive" ] || { echo "no archive of $1 in $dir" >&2; return 1; }
  echo "$archive"
}

# pg_ulid_build PG_CONFIG: prints the cache entry of pg-ulid built against that installation,
# building it first unless the cache holds a complete one. The entry is named after the archive
# (its name and content) and the PostgreSQL (version and configure options, the module's ABI).
pg_ulid_build() {
  local pg_config=$1 archive pg_key entry work
  archive=$(peer_archive pg-ulid) || return 1
  pg_key=$({ "$pg_config" --version && "$pg_config" --configure; } | sha256sum | cut -c1-12)
  entry=$IDGEN_RELEASES_CACHE/peer-$(basename "$archive" .tar.xz)-$(sha256sum <"$archive" | cut -c1-12)
  entry+=-pg$("$pg_config" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')-$pg_key
  if ! { mkdir -p "$IDGEN_RELEASES_CACHE" 2>/dev/null && [ -w "$IDGEN_RELEASES_CACHE" ]; }; then
    echo "cannot write the cache $IDGEN_RELEASES_CACHE" >&2
    return 1
  fi
  (
    flock 9
    [ -f "$entry/.complete" ] && exit 0
    rm -rf "$entry"
    work=$(mktemp -d "$IDGEN_RELEASES_CACHE/.build.XXXXXX") || exit 1
    mkdir -p "$work/source" "$work/lib" "$work/extension"
    tar -xJf "$archive" -C "$work/source" || { rm -rf "$work"; exit 1; }
    src=$(find "$work/source" -mindepth 1 -maxdepth 1 -type d | head -1)
    # pg-ulid's Makefile sets CFLAGS to an include path (../shared/peers/README.md): the server's
    # own flags instead. Its library and script go into the entry, not into the installation.
    if ! make -C "$src" CFLAGS="$("$pg_config" --cflags)" PG_CONFIG="$pg_config" >"$work/build.log" 2>&1; then
      echo "building pg-ulid failed:" >&2
      tail -n 20 "$work/build.log" >&2
      rm -rf "$work"
      exit 1
    fi
    cp "$src/ulid.so" "$work/lib/" && cp "$src/ulid.control" "$src"/ulid--*.sql "$work/extension/" &&
      touch "$work/.complete" && mv "$work" "$entry"
  ) 9>"$entry.lock" || return 1
  echo "$entry"
}

# typeid_sql_unpack DIR: unpacks typeid-sql into DIR; prints its sql/ directory.
typeid_sql_unpack() {
  local dir=$1 archive
  archive=$(peer_archive typeid-sql) || return 1
  { mkdir -p "$dir" && tar -xzf "$archive" -C "$dir"; } || return 1
  [ -f "$dir/typeid-sql/sql/03_typeid.sql" ] || { echo "no sql/03_typeid.sql in $archive" >&2; return 1; }
  echo "$dir/typeid-sql/sql"
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
  case ${1:-} in
    pg-ulid) pg_ulid_build "$2" ;;
    typeid-sql) typeid_sql_unpack "$2" ;;
    *) echo "usage: $0 pg-ulid PG_CONFIG | typeid-sql DIR" >&2; exit 2 ;;
  esac
fi
