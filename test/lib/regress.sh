# shellcheck shell=bash
# Runs the pg_regress suite (the Makefile's REGRESS list for that installation) against any
# PostgreSQL installation, in a temporary instance that pg_regress makes and drops itself, as the
# server's user. Source test/lib/clusters.sh first (as_server).

# regress_counts LOG: prints "<passed> <failed>" for a pg_regress log, in 15's format
# ("test name ... ok") and in 16's and later ("ok 1 - name", "not ok 1 - name").
regress_counts() {
  local ok bad
  ok=$(grep -cE '^(test| ) +[a-z_0-9]+ +\.\.\. ok|^ok [0-9]+ +[-+] ' "$1")
  bad=$(grep -cE '^(test| ) +[a-z_0-9]+ +\.\.\. (FAILED|failed)|^not ok [0-9]+ +[-+] ' "$1")
  echo "$ok $bad"
}

# run_regress PG_CONFIG MODE LOG: MODE is backend (idgen loaded by each backend) or preloaded
# (shared_preload_libraries). Writes pg_regress's output to LOG and, on failure, its diffs to
# LOG.diffs. Returns pg_regress's status.
run_regress() {
  local pg_config=$1 mode=$2 log=$3 work tests status options=()
  tests=$(make -s --no-print-directory PG_CONFIG="$pg_config" print-regress) || return 1
  work=$(mktemp -d /tmp/idgen-regress.XXXXXX)
  copy_for_server "$work"
  # The expected output must hold on any server a user runs `make installcheck` against, so each
  # mode's server is configured as a user's may be: a node number set (idgen.snowflake() then
  # works when preloaded), another search_path, TimeZone, DateStyle and IntervalStyle (pg_regress
  # pins the last three for its sessions; the settings still reach anything the server itself
  # runs).
  if [ "$mode" = preloaded ]; then
    cat >"$work/server.conf" <<'CONF'
shared_preload_libraries = 'idgen'
idgen.node_id = 5
TimeZone = 'Pacific/Chatham'
DateStyle = 'SQL, DMY'
IntervalStyle = 'iso_8601'
extra_float_digits = 0
CONF
  else
    cat >"$work/server.conf" <<'CONF'
idgen.node_id = 5
search_path = 'app, "$user", public'
CONF
  fi
  options=(--temp-config="$work/server.conf")
  # shellcheck disable=SC2086  # the test names are words
  (cd "$work" && as_server "$("$pg_config" --pkglibdir)/pgxs/src/test/regress/pg_regress" \
    --temp-instance="$work/instance" --bindir="$("$pg_config" --bindir)" --inputdir=. \
    --dbname=contrib_regression "${options[@]}" $tests) >"$log" 2>&1
  status=$?
  [ -f "$work/regression.diffs" ] && cp "$work/regression.diffs" "$log.diffs"
  # IDGEN_REGRESS_RESULTS=DIR keeps what the tests printed (to make expected files from).
  [ -n "${IDGEN_REGRESS_RESULTS:-}" ] && cp -r "$work/results/." "$IDGEN_REGRESS_RESULTS/"
  rm -rf "$work"
  return $status
}
