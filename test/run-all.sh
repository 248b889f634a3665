#!/usr/bin/env bash
# Runs idgen's tests on a Debian 12 machine and ends with one line "N passed, N failed".
#
#   bash test/run-all.sh              every suite, building from clean (what CI runs: .ci/run)
#   bash test/run-all.sh quick        the inner loop (make test-quick): an incremental build with
#                                     warnings as errors, the lint checks but the lint's self-test,
#                                     the unit tests, the regression suite in both loading modes
#                                     and the TAP tests marked "tier=quick"; about 5 minutes
#   bash test/run-all.sh SUITE...     the named suites after an incremental build, each counted
#
# Suites: lint (formatting, the core/PostgreSQL header wall, the glue's boundary rules and the
# proof that each of their checks fires, the layout of sql/idgen.sql, cppcheck, the PGXN archive,
# the spinlock form of the generator states, ctags finding every SQL entry point, the TAP tests'
# headers, the released versions' frozen scripts), unit (GoogleTest on src/core, plain and under
# ASan/UBSan), fuzz (each libFuzzer target
# in test/fuzz for a bounded number of runs), regress (pg_regress in a temporary instance, once
# with idgen loaded per backend and once preloaded), tap (test/t/*.pl on PostgreSQL's TAP
# framework: every multi-server and multi-session test), integration (test/integration/*.sh: the
# README's demo and the PGXN install, which use Debian's own tools), valgrind (the regression
# suite under Valgrind on a memory-checking build of PostgreSQL 15), pg16 to pg19 (on each other
# supported major built from ../shared/postgres: the build with warnings as errors, the regression
# suite and the TAP tests marked "majors=all"), pg_upgrade (15 to 18 and 18 to 19), citus (a
# coordinator and two workers on PostgreSQL 18) and pg_tle (the SQL edition installed through
# pg_tle on PostgreSQL 15 and 18). The regress suite and each pgNN suite also run the SQL
# edition's regression tests against both editions. Every suite makes its own throwaway clusters.
# test/README.md says which folder each suite runs. As root it installs missing Debian packages
# first; otherwise it prints the apt-get command and stops. Exit status is 0 only when nothing
# failed; an unknown suite name is an error (status 2) that runs nothing.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

ALL_SUITES=(lint unit fuzz regress tap integration valgrind pg16 pg17 pg18 pg19 pg_upgrade citus pg_tle)

tier=full from_clean=0 selected=()
if (($# == 0)); then
  selected=("${ALL_SUITES[@]}")
  from_clean=1
elif (($# == 1)) && [ "$1" = quick ]; then
  tier=quick
  selected=(lint unit regress tap)
else
  for name in "$@"; do
    if [[ " ${ALL_SUITES[*]} " != *" $name "* ]]; then
      echo "unknown suite: $name (suites: ${ALL_SUITES[*]}; or quick alone)" >&2
      exit 2
    fi
    [[ " ${selected[*]} " == *" $name "* ]] || selected+=("$name")
  done
fi
selected_suite() { [[ " ${selected[*]} " == *" $1 "* ]]; }

source test/lib/deps.sh
ensure_packages "${IDGEN_TEST_PACKAGES[@]}"
source test/lib/clusters.sh
source test/lib/regress.sh
source test/lib/tap.sh
source test/lib/pg_majors.sh
source test/lib/citus.sh
source test/lib/valgrind.sh
source test/lib/sql_edition.sh
source test/lib/pg_tle.sh

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

# ---- build: nothing else is meaningful without a module. With warnings as errors, from clean for
# the whole run, incrementally otherwise (make rebuilds what a changed source or header touches).
echo "== build"
((from_clean)) && make -s clean >/dev/null
if ! build_and_install WERROR=1; then
  count build 0 1
  echo "$passed passed, $failed failed"
  exit 1
fi

# ---- lint: each check is one test. The quick tier leaves out the lint's self-test, which proves
# on deliberately broken copies that the checks fire (it changes only with the checks).
lint_suite() {
  local target targets=(format-check header-check glue-check glue-check-selftest sql-style cppcheck
    dist-check spinlock-check entry-points-check tap-header-check released-scripts-check shell-lint
    perl-lint python-lint)
  local ok=0 bad=0
  for target in "${targets[@]}"; do
    [ "$tier" = quick ] && [ "$target" = glue-check-selftest ] && continue
    if make -s "$target" >"$log_dir/lint-$target.log" 2>&1; then
      ok=$((ok + 1))
    else
      bad=$((bad + 1))
      echo "-- make $target failed:"
      echo "make $target failed:" >>"$log_dir/lint.log"  # for the list of failures at the end
      cat "$log_dir/lint-$target.log"
    fi
  done
  count lint "$ok" "$bad"
}

# ---- unit: GoogleTest counts, plain and under ASan/UBSan (the quick tier: plain) ---------------
unit_suite() {
  local target targets=(unit unit-sanitized) status ok bad all_ok=0 all_bad=0
  [ "$tier" = quick ] && targets=(unit)
  # The two binaries compile side by side (each is one compiler run); a failed build shows below.
  [ "$tier" = quick ] || make -s -j"$(nproc)" unit-binaries >"$log_dir/unit-binaries.log" 2>&1
  for target in "${targets[@]}"; do
    make -s "$target" >"$log_dir/$target.log" 2>&1
    status=$?
    ok=$(grep -c '^\[       OK \]' "$log_dir/$target.log")
    bad=$(grep -cE '^\[  FAILED  \] [^ ]+ \(' "$log_dir/$target.log")
    # A binary that did not build, or crashed mid-run (a sanitizer finding), is one more failure.
    if ((status != 0 && bad == 0)); then bad=1; fi
    ((bad > 0)) && cat "$log_dir/$target.log"
    all_ok=$((all_ok + ok))
    all_bad=$((all_bad + bad))
  done
  count unit "$all_ok" "$all_bad"
}

# ---- fuzz: every decoder's libFuzzer target, bounded (make fuzz; a target is one test) --------
fuzz_suite() {
  local status ok bad=0
  make -s -j"$(nproc)" fuzz >"$log_dir/fuzz.log" 2>&1
  status=$?
  ok=$(grep -cE '^Done [0-9]+ runs' "$log_dir/fuzz.log")
  if ((status != 0)); then
    bad=1
    cat "$log_dir/fuzz.log"
  fi
  count fuzz "$ok" "$bad"
}

# regress_suite SUITE PG_CONFIG: pg_regress in a temporary instance of that installation, with
# idgen loaded per backend and preloaded (the same expected output must hold in both generator
# scopes), counted as SUITE.
regress_suite() {
  local suite=$1 pg_config=$2 mode statuses=()
  for mode in backend preloaded; do
    run_regress "$pg_config" "$mode" "$log_dir/$suite-$mode.log"
    statuses+=($?)
  done
  count_modes "$suite" regress_counts "${statuses[@]}"
}
# sql_edition_suite SUITE PG_CONFIG: the SQL edition's regression tests against each edition
# (the same expected files), counted as SUITE.
sql_edition_suite() {
  local suite=$1 pg_config=$2 edition status ok bad all_ok=0 all_bad=0 log
  for edition in idgen idgen_sql; do
    log=$log_dir/$suite-$edition.log
    run_sql_edition_regress "$pg_config" "$edition" "$log"
    status=$?
    read -r ok bad < <(regress_counts "$log")
    if ((status != 0 && bad == 0)); then bad=1; fi
    if ((bad > 0)); then
      echo "-- $suite ($edition) failed:"
      cat "$log"
      [ -f "$log.diffs" ] && cat "$log.diffs"
    fi
    all_ok=$((all_ok + ok))
    all_bad=$((all_bad + bad))
  done
  count "$suite" "$all_ok" "$all_bad"
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

# tap_suite SUITE PG_CONFIG TEST...: TAP tests against that installation, counted as SUITE.
# Two scripts at a time: most of a script's time is spent waiting (servers starting, clocks
# shifting, pg_sleep), so two share the 2 cores well (the PostgreSQL 15 TAP suite: 263 s
# instead of 456 s).
export IDGEN_PROVE_JOBS=${IDGEN_PROVE_JOBS:-2}
tap_suite() {
  local suite=$1 pg_config=$2 status ok bad log=$log_dir/$1.log
  shift 2
  if (($# == 0)); then
    echo "-- $suite: no TAP test selected (test/t/*.pl without an idgen-test header?)"
    count "$suite" 0 1
    return
  fi
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

# ---- tap: the test/t scripts of the tier (all of them, or those marked tier=quick) that run on
# PostgreSQL 15 (majors=all, 15 or a list naming 15), on Debian's PostgreSQL 15. The client programs the full tier talks to prepare themselves first (Debian
# and npm packages; the stacks build what they run).
tap_main_suite() {
  local tests script
  if [ "$tier" = quick ]; then
    mapfile -t tests < <(tap_tests tier=quick majors=15)
  else
    mapfile -t tests < <(tap_tests majors=15)
    for script in test/drivers/prepare.sh test/orms/prepare.sh test/stacks/*/prepare.sh; do
      bash "$script" >>"$log_dir/clients-prepare.log" 2>&1 ||
        echo "$script failed: its test will report what is missing"
    done
  fi
  tap_suite tap pg_config "${tests[@]}"
}

# ---- integration: scripts print TAP lines ("ok N - ...", "not ok N - ...") ------------------
integration_suite() {
  local script name log status ok bad all_ok=0 all_bad=0
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
    all_ok=$((all_ok + ok))
    all_bad=$((all_bad + bad))
  done
  count integration "$all_ok" "$all_bad"
}

# ---- other majors: PostgreSQL 16 to 19 built from ../shared/postgres into a cache (reused on
# later runs), and 15 built from its archive (Debian's 15.20 is newer than the 18 here and stores
# catalogue options it does not know) for Valgrind and pg_upgrade.
declare -A major_prefix=()
# build_for_major MAJOR [valgrind]: builds PostgreSQL MAJOR (cached; with "valgrind", the
# memory-checking variant) and idgen into it; counted as pgMAJOR-build (pgMAJOR-valgrind-build).
# The prefix goes to major_prefix[MAJOR] (major_prefix[MAJOR-valgrind]).
build_for_major() {
  local major=$1 variant=${2:-} name=pg$1 key=$1 prefix work
  [ -n "$variant" ] && name=pg$major-$variant key=$major-$variant
  [ -n "${major_prefix[$key]:-}" ] && return 0
  if ! prefix=$(pg_major_prefix "$major" ${variant:+"$variant"}); then
    count "$name-build" 0 1
    return 1
  fi
  work=$(mktemp -d /tmp/idgen-build.XXXXXX)
  copy_for_server "$work"
  if ! (cd "$work" && make -s -j"$(nproc)" WERROR=1 PG_CONFIG="$prefix/bin/pg_config" &&
    remove_installed_scripts "$prefix/bin/pg_config" &&
    make -s install PG_CONFIG="$prefix/bin/pg_config" &&
    ensure_contrib "$prefix/bin/pg_config" pgcrypto) >"$log_dir/$name-build.log" 2>&1; then
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

# ---- pgNN: on another major, the build with warnings as errors, the regression suite in both
# scopes and the TAP tests that concern the server (each marked majors=all in its header).
major_suite() {
  local major=$1 tests
  echo "== PostgreSQL $major"
  build_for_major "$major" || return
  regress_suite "pg$major-regress" "${major_prefix[$major]}/bin/pg_config"
  sql_edition_suite "pg$major-sql-edition" "${major_prefix[$major]}/bin/pg_config"
  mapfile -t tests < <(tap_tests majors="$major")
  tap_suite "pg$major-tap" "${major_prefix[$major]}/bin/pg_config" "${tests[@]}"
}

# ---- pg_upgrade: from 15 to 18 and from 18 to 19 (both majors built here or above) ----------
# 15 is the memory-checking build of its archive, the one the valgrind suite runs: assertions and
# Valgrind's requests change nothing pg_upgrade reads or writes, and a cold run builds 15 once
# instead of twice (2 to 3 minutes on 2 cores).
upgrade_suite() {
  local from=$1 to=$2 major key keys=()
  for major in "$from" "$to"; do
    key=$major
    if [ "$major" = "$IDGEN_VALGRIND_MAJOR" ]; then
      build_for_major "$major" valgrind && key=$major-valgrind
    else
      build_for_major "$major"
    fi || {
      count "pg_upgrade-$from-$to" 0 1
      return
    }
    keys+=("$key")
  done
  IDGEN_OLD_INSTALL=${major_prefix[${keys[0]}]} \
    tap_suite "pg_upgrade-$from-$to" "${major_prefix[${keys[1]}]}/bin/pg_config" test/upgrade/pg_upgrade.pl
}

# ---- citus: the multi-node test on PostgreSQL 18 (built above or here) with Citus built from
# ../shared/citus into it (test/lib/citus.sh).
citus_suite() {
  echo "== Citus"
  build_for_major 18 || { count citus 0 1; return; }
  if ! install_citus "${major_prefix[18]}" 2>"$log_dir/citus-build.log"; then
    cat "$log_dir/citus-build.log"
    count citus 0 1
    return
  fi
  tap_suite citus "${major_prefix[18]}/bin/pg_config" test/citus/citus_cluster.pl
}

# ---- pg_tle: the SQL edition's pg_tle installer (test/sql_edition/pg_tle.pl) on a copy of an
# installation built above, with pg_tle and pgcrypto and without idgen_sql's files (pg_tle refuses
# an extension name that has a control file). 15 is the Valgrind suite's build (see upgrade_suite).
# pg_tle_suite MAJOR [valgrind]
pg_tle_suite() {
  local major=$1 variant=${2:-} key copy sharedir status ok bad log=$log_dir/pg_tle-$1.log
  key=$major${variant:+-$variant}
  build_for_major "$major" ${variant:+"$variant"} || return
  if ! ensure_pg_tle "${major_prefix[$key]}/bin/pg_config" >"$log" 2>&1; then
    cat "$log"
    count "pg_tle-$major" 0 1
    return
  fi
  copy=$(mktemp -d /tmp/idgen-pg_tle.XXXXXX)
  cp -a "${major_prefix[$key]}/." "$copy/"
  # The extension directory as pg_config names it: under a prefix without "postgres" or "pgsql"
  # in it (an IDGEN_PG_CACHE elsewhere), PostgreSQL puts it in share/postgresql.
  sharedir=$("${major_prefix[$key]}/bin/pg_config" --sharedir)
  rm -f "$copy${sharedir#"${major_prefix[$key]}"}"/extension/idgen_sql[.-]*
  chmod 755 "$copy"
  run_tap "$copy/bin/pg_config" "$log" test/sql_edition/pg_tle.pl
  status=$?
  read -r ok bad < <(tap_counts "$log")
  if ((status != 0 && bad == 0)); then bad=1; fi
  grep -E '^ *(not )?ok [0-9]+' "$log" | sed 's/^/   /'
  ((bad > 0)) && cat "$log"
  rm -rf "$copy"
  count "pg_tle-$major" "$ok" "$bad"
}

for suite in "${selected[@]}"; do
  case $suite in
    lint) lint_suite ;;
    unit) unit_suite ;;
    fuzz) fuzz_suite ;;
    regress)
      regress_suite regress pg_config
      sql_edition_suite sql-edition pg_config
      ;;
    tap) tap_main_suite ;;
    integration) integration_suite ;;
    valgrind) valgrind_suite ;;
    pg[0-9][0-9]) major_suite "${suite#pg}" ;;
    pg_upgrade)
      upgrade_suite 15 18
      upgrade_suite 18 19
      ;;
    citus) citus_suite ;;
    pg_tle)
      pg_tle_suite 15 valgrind
      pg_tle_suite 18
      ;;
  esac
done

# A long log may reach its reader cut to its last lines: name what failed there once more, with
# the failed checks the suite's logs hold (lint-*, unit*, integration-*, tap, pgNN-*, ...).
if ((${#failed_suites[@]} > 0)); then
  echo "== failed:"
  for suite in "${failed_suites[@]}"; do
    echo "   $suite"
    # TAP: prove's summary names the script (Wstat), Test::More where it stopped ("Looks like"),
    # and a script that died says where (" line N.").
    grep -h -E '^ *not ok [0-9]+|Dubious|Wstat: |Looks like your test|Parse errors|^error running|^[^#].* line [0-9]+\.$|^\[  FAILED  \] [^ ]+ \(|\.\.\. (FAILED|failed)|failed:$|==[0-9]+==ERROR' \
      "$log_dir/$suite"*.log 2>/dev/null | head -n 30 | sed 's/^ */     /'
  done
fi
rm -rf "$log_dir"
if ((from_clean)); then
  echo "(all suites: $SECONDS s)"
elif [ "$tier" = quick ]; then
  echo "(quick tier: $SECONDS s)"
else
  echo "(${selected[*]}: $SECONDS s)"
fi
echo "$passed passed, $failed failed"
((failed == 0))
