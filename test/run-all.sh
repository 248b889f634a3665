#!/usr/bin/env bash
# Runs every test of idgen on a Debian 12 machine and ends with one line "N passed, N failed".
#
# Suites: lint (formatting, the core/PostgreSQL header wall, the glue's boundary rules and the
# proof that each of their checks fires, the layout of sql/idgen.sql, cppcheck, the PGXN
# archive, the spinlock form of the generator states, ctags finding every SQL entry point), unit (GoogleTest on src/core, plain and under ASan/UBSan), fuzz (each libFuzzer target in test/fuzz
# for a bounded number of runs), regress (pg_regress in a temporary instance, once with idgen
# loaded per backend and once preloaded), tap (test/t/*.pl on PostgreSQL's TAP framework: every
# multi-server and multi-session test) and integration (test/integration/*.sh: the README's demo
# and the PGXN install, which use Debian's own tools); all make their own throwaway clusters. Then
# the regression suite under Valgrind on a memory-checking build of PostgreSQL 15, and the same
# build, regress and the server's TAP tests on each other supported major, pg_upgrade
# between majors, and a Citus cluster (coordinator and two workers) on PostgreSQL 18. As root it installs missing Debian packages first; otherwise it
# prints the apt-get command and stops. Exit status is 0 only when nothing failed.
set -uo pipefail
cd "$(dirname "$0")/.."
source test/lib/deps.sh
ensure_packages "${IDGEN_TEST_PACKAGES[@]}"

passed=0
failed=0
log_dir=$(mktemp -d /tmp/idgen-test.XXXXXX)

suite_start=$SECONDS
failed_suites=()
count() {  # count <suite> <passed> <failed>: also says how long since the previous count
  echo "== $1: $2 passed, $3 failed ($((SECONDS - suite_start)) s)"
  (($3 > 0)) && failed_suites+=("$1")
  suite_start=$SECONDS
  passed=$((passed + $2))
  failed=$((failed + $3))
}

# Build first, from clean and with warnings as errors: nothing else is meaningful without a module.
echo "== build"
make -s clean >/dev/null
if ! build_and_install WERROR=1; then
  count build 0 1
  echo "$passed passed, $failed failed"
  exit 1
fi

# ---- lint: each check is one test -----------------------------------------------------------
lint_ok=0 lint_bad=0
for target in format-check header-check glue-check glue-check-selftest sql-style cppcheck dist-check \
              spinlock-check entry-points-check; do
  if make -s "$target" >"$log_dir/lint-$target.log" 2>&1; then
    lint_ok=$((lint_ok + 1))
  else
    lint_bad=$((lint_bad + 1))
    echo "-- make $target failed:"
    echo "make $target failed:" >>"$log_dir/lint.log"  # for the list of failures at the end
    cat "$log_dir/lint-$target.log"
  fi
done
count lint "$lint_ok" "$lint_bad"

# ---- unit: GoogleTest counts, plain and under ASan/UBSan ----------------------------------------
unit_ok=0 unit_bad=0
# The two binaries compile side by side (each is one compiler run); a failed build shows below.
make -s -j"$(nproc)" unit-binaries >"$log_dir/unit-binaries.log" 2>&1
for target in unit unit-sanitized; do
  make -s "$target" >"$log_dir/$target.log" 2>&1
  status=$?
  ok=$(grep -c '^\[       OK \]' "$log_dir/$target.log")
  bad=$(grep -cE '^\[  FAILED  \] [^ ]+ \(' "$log_dir/$target.log")
  # A binary that did not build, or crashed mid-run (a sanitizer finding), is one more failure.
  if ((status != 0 && bad == 0)); then bad=1; fi
  ((bad > 0)) && cat "$log_dir/$target.log"
  unit_ok=$((unit_ok + ok))
  unit_bad=$((unit_bad + bad))
done
count unit "$unit_ok" "$unit_bad"

# ---- fuzz: every decoder's libFuzzer target, bounded (make fuzz; a target is one test) --------
make -s -j"$(nproc)" fuzz >"$log_dir/fuzz.log" 2>&1
fuzz_status=$?
fuzz_ok=$(grep -cE '^Done [0-9]+ runs' "$log_dir/fuzz.log")
fuzz_bad=0
if ((fuzz_status != 0)); then
  fuzz_bad=1
  cat "$log_dir/fuzz.log"
fi
count fuzz "$fuzz_ok" "$fuzz_bad"

# ---- regress: pg_regress in a temporary instance, with idgen loaded per backend and preloaded --
# (the same expected output must hold in both generator scopes)
source test/lib/clusters.sh
source test/lib/regress.sh
source test/lib/tap.sh
source test/lib/pg_majors.sh
source test/lib/citus.sh
source test/lib/valgrind.sh
# regress_suite SUITE PG_CONFIG: both scopes against that installation, counted as SUITE.
regress_suite() {
  local suite=$1 pg_config=$2 mode statuses=()
  for mode in backend preloaded; do
    run_regress "$pg_config" "$mode" "$log_dir/$suite-$mode.log"
    statuses+=($?)
  done
  count_modes "$suite" regress_counts "${statuses[@]}"
}
# count_modes SUITE COUNTER STATUS_BACKEND STATUS_PRELOADED: counts the logs
# $log_dir/SUITE-<mode>.log of both loading modes with COUNTER (it prints "<passed> <failed>"),
# a failed run that counted no failure as one, and shows each failed mode's log and diffs.
count_modes() {
  local suite=$1 counter=$2 mode status ok bad all_ok=0 all_bad=0 log
  shift 2
  for mode in backend preloaded; do
    status=$1
    shift
    log=$log_dir/$suite-$mode.log
    read -r ok bad < <("$counter" "$log")
    if ((status != 0 && bad == 0)); then bad=1; fi
    if ((bad > 0)); then
      echo "-- $suite ($mode) failed:"
      cat "$log"
      [ -f "$log.diffs" ] && cat "$log.diffs"
    fi
    all_ok=$((all_ok + ok))
    all_bad=$((all_bad + bad))
  done
  count "$suite" "$all_ok" "$all_bad"
}
# tap_suite SUITE PG_CONFIG [TEST...]: TAP tests against that installation, counted as SUITE.
tap_suite() {
  local suite=$1 pg_config=$2 status ok bad log=$log_dir/$1.log
  shift 2
  run_tap "$pg_config" "$log" "$@"
  status=$?
  read -r ok bad < <(tap_counts "$log")
  if ((status != 0 && bad == 0)); then bad=1; fi  # prove failed before any test ran
  grep -E '^ *(not )?ok [0-9]+|^test/' "$log" | sed 's/^/   /'
  if ((bad > 0)); then
    cat "$log"
    for f in "$log".servers/*; do [ -f "$f" ] && { echo "-- $f"; tail -n 50 "$f"; }; done
  fi
  count "$suite" "$ok" "$bad"
}
regress_suite regress pg_config

# ---- tap: test/t/*.pl on PostgreSQL::Test::Cluster, run by prove (each makes its own clusters) --
# Two scripts at a time, here and on the other majors: most of a script's time is spent waiting
# (servers starting, clocks shifting, pg_sleep), so two share the 2 cores well (the PostgreSQL 15
# TAP suite: 263 s instead of 456 s).
export IDGEN_PROVE_JOBS=${IDGEN_PROVE_JOBS:-2}
bash test/drivers/prepare.sh >"$log_dir/drivers-prepare.log" 2>&1 || cat "$log_dir/drivers-prepare.log"
tap_suite tap pg_config

# ---- integration: scripts print TAP lines ("ok N - ...", "not ok N - ...") ------------------
int_ok=0 int_bad=0
for script in test/integration/*.sh; do
  name=$(basename "$script" .sh)
  log=$log_dir/integration-$name.log
  bash "$script" >"$log" 2>&1
  status=$?
  ok=$(grep -c '^ok ' "$log")
  bad=$(grep -c '^not ok ' "$log")
  if ((status != 0 && bad == 0)); then bad=1; fi  # crashed before reporting
  grep -E '^(not )?ok ' "$log" | sed "s/^/   [$name] /"
  ((bad > 0)) && cat "$log"
  int_ok=$((int_ok + ok))
  int_bad=$((int_bad + bad))
done
count integration "$int_ok" "$int_bad"

# ---- other majors: PostgreSQL 16 to 19 built from ../shared/postgres into a cache (reused on
# later runs). On each: idgen built with warnings as errors and installed there, the regression
# suite in both scopes, and the TAP tests that concern the server (crash restart, a lost or
# unwritable generator mark file, a crash loop, dump and restore, extension update, a streaming
# standby, several servers, sessions, hostile input, the docs' examples). Then pg_upgrade from 15
# (built from its archive: Debian's 15.20 is newer than the 18 here and stores catalogue options
# it does not know) to 18, and from 18 to 19.
IDGEN_OTHER_MAJORS=${IDGEN_OTHER_MAJORS-16 17 18 19}
# Every TAP test but those whose subject is not the server: the bulk concurrency run (030: 19
# million ids, minutes, the same generator code on every major), the client drivers (031) and
# the ORM recipes (032).
IDGEN_MAJOR_TAP_TESTS=(test/t/001_server_restart.pl test/t/003_lost_generator_mark.pl
                       test/t/004_crash_loop.pl test/t/005_unwritable_generator_mark.pl
                       test/t/010_dump_restore.pl test/t/011_extension_update.pl
                       test/t/012_replication.pl test/t/013_generator_failover.pl
                       test/t/014_restore_generators.pl test/t/015_adopted_mark.pl
                       test/t/020_scaling_out.pl test/t/021_group_uuid_clusters.pl
                       test/t/040_session_scripts.pl test/t/050_doc_examples.pl
                       test/t/051_hostile_input_log.pl)
declare -A major_prefix=()
# build_for_major MAJOR [valgrind]: builds PostgreSQL MAJOR (cached; with "valgrind", the
# memory-checking variant) and idgen into it; counted as pgMAJOR-build (pgMAJOR-valgrind-build).
# The prefix goes to major_prefix[MAJOR] (major_prefix[MAJOR-valgrind]).
build_for_major() {
  local major=$1 variant=${2:-} name=pg$1 key=$1 prefix work
  [ -n "$variant" ] && name=pg$major-$variant key=$major-$variant
  if ! prefix=$(pg_major_prefix "$major" $variant); then
    count "$name-build" 0 1
    return 1
  fi
  work=$(mktemp -d /tmp/idgen-build.XXXXXX)
  copy_for_server "$work"
  if ! (cd "$work" && make -s -j"$(nproc)" WERROR=1 PG_CONFIG="$prefix/bin/pg_config" &&
    remove_installed_scripts "$prefix/bin/pg_config" &&
    make -s install PG_CONFIG="$prefix/bin/pg_config") >"$log_dir/$name-build.log" 2>&1; then
    echo "-- building idgen for PostgreSQL $major${variant:+ ($variant)} failed:"
    cat "$log_dir/$name-build.log"
    rm -rf "$work"
    count "$name-build" 0 1
    return 1
  fi
  rm -rf "$work"
  major_prefix[$key]=$prefix
  count "$name-build" 1 0
}
# ---- valgrind: the regression suite (both scopes, which include the security tests) against a
# server running under Valgrind, on PostgreSQL built with assertions and USE_VALGRIND
# (test/lib/valgrind.sh); the two scopes run at once, on a core each. A test is one result, and
# so is "Valgrind found no error" per scope.
valgrind_suite() {
  local mode pid pids=() statuses=()
  echo "== Valgrind (PostgreSQL $IDGEN_VALGRIND_MAJOR)"
  build_for_major "$IDGEN_VALGRIND_MAJOR" valgrind || return
  for mode in backend preloaded; do
    run_valgrind_regress "${major_prefix[$IDGEN_VALGRIND_MAJOR-valgrind]}" "$mode" \
      "$log_dir/valgrind-$mode.log" &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do
    wait "$pid"
    statuses+=($?)
  done
  count_modes valgrind valgrind_counts "${statuses[@]}"
}
valgrind_suite

for major in $IDGEN_OTHER_MAJORS; do
  echo "== PostgreSQL $major"
  build_for_major "$major" || continue
  regress_suite "pg$major-regress" "${major_prefix[$major]}/bin/pg_config"
  tap_suite "pg$major-tap" "${major_prefix[$major]}/bin/pg_config" "${IDGEN_MAJOR_TAP_TESTS[@]}"
done
# upgrade_suite FROM TO: pg_upgrade from major FROM to major TO (both built above or here).
upgrade_suite() {
  local from=$1 to=$2 major
  for major in "$from" "$to"; do
    [ -n "${major_prefix[$major]:-}" ] || build_for_major "$major" || {
      count "pg_upgrade-$from-$to" 0 1
      return
    }
  done
  IDGEN_OLD_INSTALL=${major_prefix[$from]} \
    tap_suite "pg_upgrade-$from-$to" "${major_prefix[$to]}/bin/pg_config" test/upgrade/pg_upgrade.pl
}
# citus_suite: the multi-node test on PostgreSQL 18 (built above or here) with Citus built from
# ../shared/citus into it (test/lib/citus.sh).
citus_suite() {
  [ -n "${major_prefix[18]:-}" ] || build_for_major 18 || { count citus 0 1; return; }
  if ! install_citus "${major_prefix[18]}" 2>"$log_dir/citus-build.log"; then
    cat "$log_dir/citus-build.log"
    count citus 0 1
    return
  fi
  tap_suite citus "${major_prefix[18]}/bin/pg_config" test/citus/citus_cluster.pl
}
if [ -n "$IDGEN_OTHER_MAJORS" ]; then
  upgrade_suite 15 18
  upgrade_suite 18 19
  echo "== Citus"
  citus_suite
fi

# A long log may reach its reader cut to its last lines: name what failed there once more, with
# the failed checks the suite's logs hold (lint-*, unit*, integration-*, tap, pgNN-*, ...).
if ((${#failed_suites[@]} > 0)); then
  echo "== failed:"
  for suite in "${failed_suites[@]}"; do
    echo "   $suite"
    grep -h -E '^ *not ok [0-9]+|Dubious|^\[  FAILED  \] [^ ]+ \(|\.\.\. (FAILED|failed)|failed:$|==[0-9]+==ERROR' \
      "$log_dir/$suite"*.log 2>/dev/null | head -n 20 | sed 's/^ */     /'
  done
fi
rm -rf "$log_dir"
echo "(all suites: $SECONDS s)"
echo "$passed passed, $failed failed"
((failed == 0))
