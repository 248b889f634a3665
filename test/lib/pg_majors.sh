# shellcheck shell=bash
# PostgreSQL majors other than Debian's 15, built from the source archives in ../shared/postgres
# (postgresql-<major>.tar.xz) into a cache outside the checkout, so later runs reuse them.
# IDGEN_PG_CACHE overrides the cache directory (default /var/cache/idgen-postgres).

IDGEN_PG_SOURCES=${IDGEN_PG_SOURCES:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)/shared/postgres}
IDGEN_PG_CACHE=${IDGEN_PG_CACHE:-/var/cache/idgen-postgres}

# How each major is built: configure's options, and the contrib modules installed with the server
# (postgres_fdw, which the multi-server TAP tests use, as Debian's postgresql-15 ships it). Both
# are part of the cache key, so changing them rebuilds.
IDGEN_PG_CONFIGURE=(--without-icu --without-readline --with-openssl --enable-tap-tests)
IDGEN_PG_CONTRIB=(postgres_fdw)
# The memory-checking variant (test/lib/valgrind.sh): assertions on, and PostgreSQL's own
# Valgrind requests compiled in (USE_VALGRIND), so that Valgrind sees memory that a memory context
# freed or reset as freed, not only what went back to malloc. -O1 keeps its stack traces readable.
IDGEN_PG_VALGRIND_CONFIGURE=(--enable-cassert --enable-debug
                             "CFLAGS=-O1 -g -fno-omit-frame-pointer" CPPFLAGS=-DUSE_VALGRIND)

# pg_major_prefix MAJOR [valgrind]: prints the installation prefix of PostgreSQL MAJOR built from
# its archive (with "valgrind", the memory-checking variant, in a directory of its own),
# building it first (about 3 to 5 minutes on 2 cores) unless the cache holds a complete build of
# that very archive with this recipe: the directory is named after the SHA-256 of both, and a
# build counts only once its marker file exists, so an interrupted build is redone (and a build
# of the same major under another key is removed). Returns
# non-zero when the archive is missing or the build fails (the build log's tail goes to stderr).
pg_major_prefix() {
  local major=$1 variant=${2:-} archive sha prefix work log name configure=("${IDGEN_PG_CONFIGURE[@]}")
  archive=$IDGEN_PG_SOURCES/postgresql-$major.tar.xz
  [ -f "$archive" ] || { echo "no PostgreSQL $major source archive at $archive" >&2; return 1; }
  name=$major
  if [ "$variant" = valgrind ]; then
    name=$major-valgrind
    configure+=("${IDGEN_PG_VALGRIND_CONFIGURE[@]}")
  fi
  sha=$({ sha256sum "$archive" | cut -d' ' -f1; echo "${configure[*]}; ${IDGEN_PG_CONTRIB[*]}"; } |
    sha256sum | cut -c1-12)
  prefix=$IDGEN_PG_CACHE/$name-$sha
  if [ ! -f "$prefix/.idgen-build-complete" ]; then
    # builds of this major and variant by another archive or recipe
    find "$IDGEN_PG_CACHE" -maxdepth 1 -regextype posix-extended \
      -regex ".*/$name-[0-9a-f]{12}" -exec rm -rf {} + 2>/dev/null
    mkdir -p "$IDGEN_PG_CACHE" || return 1
    work=$(mktemp -d /tmp/idgen-pg-build.XXXXXX)
    log=$work/build.log
    if ! (tar -xJf "$archive" -C "$work" && cd "$work/postgresql-$major" &&
      ./configure --prefix="$prefix" "${configure[@]}" && make -j"$(nproc)" &&
      make install && for module in "${IDGEN_PG_CONTRIB[@]}"; do
        make -C "contrib/$module" install || exit 1
      done) >"$log" 2>&1; then
      echo "building PostgreSQL $major failed:" >&2
      tail -n 30 "$log" >&2
      rm -rf "$work"
      return 1
    fi
    rm -rf "$work"
    touch "$prefix/.idgen-build-complete"
  fi
  echo "$prefix"
}

# ensure_contrib PG_CONFIG MODULE: installs the contrib MODULE (pgcrypto, which the SQL edition
# needs) into that installation unless it is there, built with PGXS from the installation's
# source archive in ../shared/postgres. Installations built above have it once this ran (the
# cache keeps it); Debian's packages ship it.
ensure_contrib() {
  local pg_config=$1 module=$2 major archive work log
  [ -f "$("$pg_config" --sharedir)/extension/$module.control" ] && return 0
  major=$("$pg_config" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
  archive=$IDGEN_PG_SOURCES/postgresql-$major.tar.xz
  [ -f "$archive" ] || { echo "no PostgreSQL $major source archive at $archive" >&2; return 1; }
  work=$(mktemp -d /tmp/idgen-contrib.XXXXXX)
  log=$work/build.log
  if ! (tar -xJf "$archive" -C "$work" "postgresql-$major/contrib/$module" &&
    make -C "$work/postgresql-$major/contrib/$module" USE_PGXS=1 PG_CONFIG="$pg_config" install) \
    >"$log" 2>&1; then
    echo "building $module for PostgreSQL $major failed:" >&2
    tail -n 30 "$log" >&2
    rm -rf "$work"
    return 1
  fi
  rm -rf "$work"
}
