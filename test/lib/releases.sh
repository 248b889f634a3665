# shellcheck shell=bash
# Earlier releases of idgen, built from this repository's git history for one PostgreSQL
# installation and kept in a cache outside the checkout, so that the operations tests can start a
# server on a release's own library and scripts (test/perl/IdgenTest/Installations.pm) and
# bench/builds.sh can name a release by its version.
#
# IDGEN_RELEASES_CACHE overrides the cache directory (default /var/cache/idgen-builds). Whoever
# builds must be able to write it: run_tap (test/lib/tap.sh) makes it, as root, for the server's
# user, who runs the TAP tests.
#
# As a command (what the TAP tests run, from the repository whose history holds the releases):
#   bash test/lib/releases.sh build VERSION PG_CONFIG   prints the cache entry (see release_build)
#   bash test/lib/releases.sh commit REVISION           prints the commit (see release_commit)
# A repository without that history, or a build that fails, is an error (status 1, the reason on
# stderr): the tests that need a release fail, they are not skipped.

IDGEN_RELEASES_CACHE=${IDGEN_RELEASES_CACHE:-/var/cache/idgen-builds}

# _release_git ARGS...: git in the current directory's repository, whoever owns it (the tests run
# as the server's user on a root-owned checkout; git refuses another user's repository unless
# told it is safe).
_release_git() { git -c safe.directory='*' "$@"; }

# release_commit REVISION: a released version's last commit (the parent of the commit that moved
# idgen.control's default_version past it; HEAD while it is still the default), or the revision
# itself, in the current directory's repository.
release_commit() {
  local rev=$1 bump
  if [[ $rev =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
    bump=$(_release_git log --format=%H -S"default_version = '$rev'" -- idgen.control | head -1)
    [ -n "$bump" ] || { echo "no release $rev in idgen.control's history" >&2; return 1; }
    # The newest commit that changed the line is the one that moved the version past $rev,
    # unless $rev is still the default (in the committed tree: the history may be a bare copy).
    if _release_git show HEAD:idgen.control | grep -q "default_version = '$rev'"; then
      echo HEAD
    else
      _release_git rev-parse "$bump^"
    fi
  else
    _release_git rev-parse --verify "$rev^{commit}"
  fi
}

# release_build VERSION PG_CONFIG: prints the cache entry that holds release VERSION (or any
# revision) built against the PostgreSQL that PG_CONFIG names, building it first unless the cache
# holds a complete one. The entry is named after the commit and that PostgreSQL (its version and
# configure options, which decide the module's ABI) and holds:
#   source/      the release's tree (git archive), for its own fixtures
#   lib/         what its `make install` puts into the installation's pkglibdir: the library,
#                and its JIT bitcode where the server has JIT
#   extension/   what it puts into sharedir/extension: the control file and every script
#   commit       the full commit id
# A build counts once its marker exists, so an interrupted one is redone; builds of the same
# entry wait for each other (flock).
release_build() {
  local version=$1 pg_config=$2 commit pg_key entry work status
  _release_git rev-parse --git-dir >/dev/null 2>&1 || {
    echo "$(pwd) is not a git repository: its history is needed to build idgen $version" >&2
    return 1
  }
  commit=$(release_commit "$version") || return 1
  commit=$(_release_git rev-parse "$commit") || return 1
  pg_key=$({ "$pg_config" --version && "$pg_config" --configure; } | sha256sum | cut -c1-12)
  entry=$IDGEN_RELEASES_CACHE/$version-${commit:0:12}-pg$("$pg_config" --version |
    sed -E 's/^PostgreSQL ([0-9]+).*/\1/')-$pg_key
  if ! { mkdir -p "$IDGEN_RELEASES_CACHE" 2>/dev/null && [ -w "$IDGEN_RELEASES_CACHE" ]; }; then
    echo "cannot write the release cache $IDGEN_RELEASES_CACHE (as root: install -d -o $(id -un)" \
      "$IDGEN_RELEASES_CACHE)" >&2
    return 1
  fi
  (
    flock 9
    [ -f "$entry/.complete" ] && exit 0
    rm -rf "$entry"
    work=$(mktemp -d "$IDGEN_RELEASES_CACHE/.build.XXXXXX") || exit 1
    mkdir -p "$work/source" "$work/root"
    # Builds the committed tree, never the working tree's changes.
    if ! _release_git archive "$commit" | tar -x -C "$work/source"; then
      echo "git archive $commit failed" >&2
      rm -rf "$work"
      exit 1
    fi
    if ! { make -C "$work/source" -s -j2 PG_CONFIG="$pg_config" &&
      make -C "$work/source" -s install PG_CONFIG="$pg_config" DESTDIR="$work/root"; } \
      >"$work/build.log" 2>&1; then
      echo "building idgen $version ($commit) for $("$pg_config" --version) failed:" >&2
      tail -n 30 "$work/build.log" >&2
      rm -rf "$work"
      exit 1
    fi
    mv "$work/root$("$pg_config" --pkglibdir)" "$work/lib" &&
      mv "$work/root$("$pg_config" --sharedir)/extension" "$work/extension" || exit 1
    rm -rf "$work/root"
    # Object files are not kept; the tree is (fixtures), and the log.
    find "$work/source" -type f \( -name '*.o' -o -name '*.bc' -o -name '*.d' -o -name '*.so' \) -delete
    echo "$commit" >"$work/commit"
    chmod 755 "$work"
    mv "$work" "$entry" && touch "$entry/.complete"
  ) 9>"$entry.lock"
  status=$?
  ((status == 0)) || return $status
  echo "$entry"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  case "${1:-}/$#" in
    build/3) release_build "$2" "$3" ;;
    commit/2) release_commit "$2" ;;
    *)
      echo "usage: $0 build VERSION PG_CONFIG | commit REVISION" >&2
      exit 2
      ;;
  esac
fi
