#!/usr/bin/env bash
# Runs every test of idgen on a Debian 12 machine and ends with one line "N passed, N failed".
#
# Suites: lint (formatting, the core/PostgreSQL header wall, cppcheck, the PGXN archive), unit
# (GoogleTest on src/core, plain and under ASan/UBSan), fuzz (each libFuzzer target in test/fuzz
# for a bounded number of runs), regress (pg_regress in throwaway clusters made by pg_virtualenv,
# once with idgen loaded per backend and once preloaded), tap (test/t/*.pl on PostgreSQL's TAP
# framework) and integration (test/integration/*.sh); both of the latter make their own throwaway
# clusters. As root it installs missing Debian packages first; otherwise it prints the apt-get
# command and stops. Exit status is 0 only when nothing failed.
set -uo pipefail
cd "$(dirname "$0")/.."
source test/lib/deps.sh
ensure_packages "${IDGEN_TEST_PACKAGES[@]}"

passed=0
failed=0
log_dir=$(mktemp -d /tmp/idgen-test.XXXXXX)

count() {  # count <suite> <passed> <failed>
  echo "== $1: $2 passed, $3 failed"
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
for target in format-check header-check cppcheck dist-check; do
  if make -s "$target" >"$log_dir/$target.log" 2>&1; then
    lint_ok=$((lint_ok + 1))
  else
    lint_bad=$((lint_bad + 1))
    echo "-- make $target failed:"
    cat "$log_dir/$target.log"
  fi
done
count lint "$lint_ok" "$lint_bad"

# ---- unit: GoogleTest counts, plain and under ASan/UBSan ----------------------------------------
unit_ok=0 unit_bad=0
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
make -s fuzz >"$log_dir/fuzz.log" 2>&1
fuzz_status=$?
fuzz_ok=$(grep -cE '^Done [0-9]+ runs' "$log_dir/fuzz.log")
fuzz_bad=0
if ((fuzz_status != 0)); then
  fuzz_bad=1
  cat "$log_dir/fuzz.log"
fi
count fuzz "$fuzz_ok" "$fuzz_bad"

# ---- regress: pg_regress in a throwaway cluster, with idgen loaded per backend and preloaded ---
# (the same expected output must hold in both generator scopes)
reg_ok=0 reg_bad=0
for mode in backend preloaded; do
  options=()
  [ "$mode" = preloaded ] && options=(-o shared_preload_libraries=idgen)
  pg_virtualenv "${options[@]}" make installcheck >"$log_dir/regress-$mode.log" 2>&1
  status=$?
  ok=$(grep -cE '^(test| ) +[a-z_0-9]+ +\.\.\. ok' "$log_dir/regress-$mode.log")
  bad=$(grep -cE '^(test| ) +[a-z_0-9]+ +\.\.\. (FAILED|failed)' "$log_dir/regress-$mode.log")
  if ((status != 0 && bad == 0)); then bad=1; fi
  if ((bad > 0)); then
    echo "-- regress ($mode) failed:"
    cat "$log_dir/regress-$mode.log"
    [ -f regression.diffs ] && cat regression.diffs
  fi
  reg_ok=$((reg_ok + ok))
  reg_bad=$((reg_bad + bad))
done
count regress "$reg_ok" "$reg_bad"

# ---- tap: test/t/*.pl on PostgreSQL::Test::Cluster, run by prove (each makes its own clusters) --
source test/lib/clusters.sh
source test/lib/tap.sh
run_tap pg_config "$log_dir/tap.log"
tap_status=$?
read -r tap_ok tap_bad < <(tap_counts "$log_dir/tap.log")
if ((tap_status != 0 && tap_bad == 0)); then tap_bad=1; fi  # prove failed before any test ran
grep -E '^ *(not )?ok [0-9]+|^test/t/' "$log_dir/tap.log" | sed 's/^/   /'
if ((tap_bad > 0)); then
  cat "$log_dir/tap.log"
  for f in "$log_dir"/tap.log.servers/*; do [ -f "$f" ] && { echo "-- $f"; tail -n 50 "$f"; }; done
fi
count tap "$tap_ok" "$tap_bad"

# ---- integration: scripts print TAP lines ("ok N - ...", "not ok N - ...") ------------------
int_ok=0 int_bad=0
for script in test/integration/*.sh; do
  name=$(basename "$script" .sh)
  bash "$script" >"$log_dir/$name.log" 2>&1
  status=$?
  ok=$(grep -c '^ok ' "$log_dir/$name.log")
  bad=$(grep -c '^not ok ' "$log_dir/$name.log")
  if ((status != 0 && bad == 0)); then bad=1; fi  # crashed before reporting
  grep -E '^(not )?ok ' "$log_dir/$name.log" | sed "s/^/   [$name] /"
  ((bad > 0)) && cat "$log_dir/$name.log"
  int_ok=$((int_ok + ok))
  int_bad=$((int_bad + bad))
done
count integration "$int_ok" "$int_bad"

rm -rf "$log_dir"
echo "$passed passed, $failed failed"
((failed == 0))
