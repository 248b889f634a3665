# shellcheck shell=bash
# Runs idgen's TAP tests (test/t/*.pl, on PostgreSQL::Test::Cluster and prove) against the
# PostgreSQL installation that a pg_config names. Each test makes its own throwaway clusters in a
# temporary directory, as the server's user (PostgreSQL refuses to run as root).
# Source test/lib/clusters.sh first (as_server).

# tap_counts LOG: prints "<passed> <failed>" for a verbose prove log (skips are neither); a script
# that failed with no failed check (it died, or its plan did not match: prove's summary lists it
# with "Failed: 0") is one more failure.
tap_counts() {
  local ok bad broken
  ok=$(grep -E '^ *ok [0-9]+' "$1" | grep -vci '# skip')  # a skipped check is not a pass
  bad=$(grep -cE '^ *not ok [0-9]+' "$1")
  broken=$(grep -cE '\(Wstat: [0-9]+.* Failed: 0\)$' "$1")
  echo "$ok $((bad + broken))"
}

# tap_tests [KEY=VALUE...]: the test/t scripts, in name order, whose header line
#   # idgen-test: majors=all|15|15,18 tier=quick|full
# holds every KEY=VALUE given (all of them with none). majors=all: the test concerns the server
# and runs on every supported major; majors=15: on Debian's PostgreSQL 15 only (its subject is
# not the server: bulk concurrency, client programs; or it needs 15's own packages); a list of
# majors: on those (a costly test whose subject changes little between majors). majors=N selects
# the scripts that run on major N (majors=all or a list naming N). tier=quick: it also runs in
# the quick tier. test/lint/tap_headers.sh checks that every script has one.
tap_tests() {
  local file header want selected majors
  for file in test/t/*.pl; do
    header=$(grep -m 1 '^# idgen-test: ' "$file") || continue
    selected=1
    for want in "$@"; do
      if [[ $want =~ ^majors=([0-9]+)$ ]]; then
        majors=$(sed -E 's/.* majors=([^ ]+).*/\1/' <<<" ${header#*: }")
        [[ $majors == all || ",$majors," == *",${BASH_REMATCH[1]},"* ]] || selected=0
        continue
      fi
      [[ " ${header#*: } " == *" $want "* ]] || selected=0
    done
    ((selected)) && echo "$file"
  done
}

# run_tap PG_CONFIG LOG [TEST...]: runs the given test/t scripts (all by default) with prove -v,
# writing its output to LOG. Returns prove's status. IDGEN_PROVE_JOBS=N runs N scripts at a time
# (prove -jN; each script's output stays together in the log, and the framework gives each node a
# port of its own).
run_tap() {
  local pg_config=$1 log=$2 work bindir perl_dir status source=$PWD
  shift 2
  local tests=("$@")
  ((${#tests[@]} > 0)) || tests=(test/t/*.pl)
  bindir=$("$pg_config" --bindir)
  perl_dir=$("$pg_config" --pkglibdir)/pgxs/src/test/perl
  work=$(mktemp -d /tmp/idgen-tap.XXXXXX)
  copy_for_server "$work"  # the tests read the repository's files (sql/, docs/, test/)
  # The peers' archives (test/lib/peers.sh: ../shared/peers beside the checkout, a few hundred kB)
  # go with the tests too: the server's user may not read a directory beside a root's checkout.
  local peers=$work/peers
  # Without them, only the tests that need a peer fail (they name the missing archive).
  cp -r "${IDGEN_PEERS_DIR:-$(cd "$source/.." && pwd)/shared/peers}" "$peers" 2>/dev/null ||
    mkdir -p "$peers"
  [ "$(id -u)" = 0 ] && chown -R postgres: "$peers"
  # The update tests build earlier releases from this repository's git history, as the server's
  # user, into a cache outside the checkout (test/lib/releases.sh). That user may not read the
  # checkout (a root's clone in a directory only root enters): a bare copy of the history goes
  # with the tests (half a second, 6 MB).
  if [ "$(id -u)" = 0 ]; then
    install -d -o postgres "${IDGEN_RELEASES_CACHE:-/var/cache/idgen-builds}"
    if git -C "$source" rev-parse --git-dir >/dev/null 2>&1 &&
      git clone -q --bare --no-hardlinks "$source" "$work/history.git"; then
      chown -R postgres: "$work/history.git"
      source=$work/history.git
    fi
  fi
  (
    cd "$work" &&
      as_server env TESTDIR="$work" PATH="$bindir:$PATH" PG_CONFIG="$pg_config" \
        IDGEN_OLD_INSTALL="${IDGEN_OLD_INSTALL:-}" IDGEN_SOURCE_DIR="$source" IDGEN_PEERS_DIR="$peers" \
        PG_REGRESS="$("$pg_config" --pkglibdir)/pgxs/src/test/regress/pg_regress" \
        prove -v ${IDGEN_PROVE_JOBS:+-j$IDGEN_PROVE_JOBS} -I "$perl_dir" -I "$work/test/perl" "${tests[@]}"
  ) >"$log" 2>&1
  status=$?
  # Keep the test and server logs of a failed run next to the prove log (tmp_check/log up to 15,
  # log from 16 on).
  if ((status != 0)); then
    mkdir -p "$log.servers"
    for dir in "$work/tmp_check/log" "$work/log"; do
      [ -d "$dir" ] && cp -r "$dir/." "$log.servers/"
    done
  fi
  rm -rf "$work"
  return $status
}
