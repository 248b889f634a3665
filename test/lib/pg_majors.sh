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

# pg_major_prefix MAJOR: prints the installation prefix of PostgreSQL MAJOR built from its archive,
# building it first (about 3 to 5 minutes on 2 cores) unless the cache holds a complete build of
# that very archive with this recipe: the directory is named after the SHA-256 of both, and a
# build counts only once its marker file exists, so an interrupted build is redone (and a build
# of the same major under another key is removed). Returns
# non-zero when the archive is missing or the build fails (the build log's tail goes to stderr).
pg_major_prefix() {
  local major=$1 archive sha prefix work log
  archive=$IDGEN_PG_SOURCES/postgresql-$major.tar.xz
  [ -f "$archive" ] || { echo "no PostgreSQL $major source archive at $archive" >&2; return 1; }
  sha=$({ sha256sum "$archive" | cut -d' ' -f1; echo "${IDGEN_PG_CONFIGURE[*]}; ${IDGEN_PG_CONTRIB[*]}"; } |
    sha256sum | cut -c1-12)
  prefix=$IDGEN_PG_CACHE/$major-$sha
  if [ ! -f "$prefix/.idgen-build-complete" ]; then
    rm -rf "$IDGEN_PG_CACHE/$major"-*  # builds of this major by another archive or recipe
    mkdir -p "$IDGEN_PG_CACHE" || return 1
    work=$(mktemp -d /tmp/idgen-pg-build.XXXXXX)
    log=$work/build.log
    if ! (tar -xJf "$archive" -C "$work" && cd "$work/postgresql-$major" &&
      ./configure --prefix="$prefix" "${IDGEN_PG_CONFIGURE[@]}" && make -j"$(nproc)" &&
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
