# shellcheck shell=bash
# Peer extensions (../shared/peers, see its README.md) built from their archives for one
# PostgreSQL installation and kept in a cache outside the checkout, for the tests that start from a
# peer's own extension and move a table to idgen (test/t/087_migrate_pgedge_snowflake.pl,
# docs/migrating.md). The same layout as test/lib/releases.sh's entries.
#
# IDGEN_PEERS_DIR names the archives' directory (default: ../shared/peers beside the repository;
# run_tap copies the checkout's beside the tests' copy, which the server's user can read, and
# passes that). IDGEN_RELEASES_CACHE the cache (default /var/cache/idgen-builds), which whoever
# builds must be able to write.
#
# As a command:
#   bash test/lib/peers.sh build ARCHIVE PG_CONFIG   prints the cache entry (see peer_build)
# A missing archive or a build that fails is an error (status 1, the reason on stderr): the tests
# that need the peer fail, they are not skipped.

IDGEN_PEERS_DIR=${IDGEN_PEERS_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)/shared/peers}
IDGEN_RELEASES_CACHE=${IDGEN_RELEASES_CACHE:-/var/cache/idgen-builds}

# peer_build ARCHIVE PG_CONFIG: prints the cache entry that holds the peer of ARCHIVE (a file name
# in IDGEN_PEERS_DIR, such as pgedge-snowflake-2.6.0-ebbdae8.tar.xz) built with PGXS against the
# PostgreSQL that PG_CONFIG names, building it first unless the cache holds a complete one. The
# entry is named after the archive (its name and contents) and that PostgreSQL (its version and
# configure options, which decide the module's ABI) and holds:
#   lib/         what the peer's `make install` puts into the installation's pkglibdir
#   extension/   what it puts into sharedir/extension: the control file and its scripts
#   build.log    the build's output
# A build counts once its marker exists, so an interrupted one is redone; builds of the same
# entry wait for each other (flock).
peer_build() {
  local archive=$1 pg_config=$2 file archive_key pg_key entry work status
  file=$IDGEN_PEERS_DIR/$archive
  [ -f "$file" ] || { echo "no peer archive $file" >&2; return 1; }
  archive_key=$(sha256sum "$file" | cut -c1-12)
  pg_key=$({ "$pg_config" --version && "$pg_config" --configure; } | sha256sum | cut -c1-12)
  entry=$IDGEN_RELEASES_CACHE/peer-${archive%.tar.*}-$archive_key-pg$("$pg_config" --version |
    sed -E 's/^PostgreSQL ([0-9]+).*/\1/')-$pg_key
  if ! { mkdir -p "$IDGEN_RELEASES_CACHE" 2>/dev/null && [ -w "$IDGEN_RELEASES_CACHE" ]; }; then
    echo "cannot write the build cache $IDGEN_RELEASES_CACHE (as root: install -d -o $(id -un)" \
      "$IDGEN_RELEASES_CACHE)" >&2
    return 1
  fi
  (
    flock 9
    [ -f "$entry/.complete" ] && exit 0
    rm -rf "$entry"
    work=$(mktemp -d "$IDGEN_RELEASES_CACHE/.build.XXXXXX") || exit 1
    mkdir -p "$work/source" "$work/root"
    tar -xf "$file" -C "$work/source" || { echo "cannot unpack $file" >&2; rm -rf "$work"; exit 1; }
    src=$(find "$work/source" -name Makefile -printf '%h\n' | sort | head -1)
    # USE_PGXS for the Makefiles that also build inside PostgreSQL's tree (pgEdge's);
    # CFLAGS for pg-ulid's, which replaces them (../shared/peers/README.md).
    if ! { make -C "$src" -s USE_PGXS=1 CFLAGS="$("$pg_config" --cflags)" PG_CONFIG="$pg_config" &&
      make -C "$src" -s install USE_PGXS=1 PG_CONFIG="$pg_config" DESTDIR="$work/root"; } \
      >"$work/build.log" 2>&1; then
      echo "building $archive for $("$pg_config" --version) failed:" >&2
      tail -n 30 "$work/build.log" >&2
      rm -rf "$work"
      exit 1
    fi
    mv "$work/root$("$pg_config" --pkglibdir)" "$work/lib" &&
      mv "$work/root$("$pg_config" --sharedir)/extension" "$work/extension" || exit 1
    rm -rf "$work/root" "$work/source"
    chmod 755 "$work"
    mv "$work" "$entry" && touch "$entry/.complete"
  ) 9>"$entry.lock"
  status=$?
  ((status == 0)) || return $status
  echo "$entry"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  case "${1:-}/$#" in
    build/3) peer_build "$2" "$3" ;;
    *)
      echo "usage: $0 build ARCHIVE PG_CONFIG" >&2
      exit 2
      ;;
  esac
fi
