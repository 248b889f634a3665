# shellcheck shell=bash
# Memory checking: the regression suite against a PostgreSQL server that runs under Valgrind's
# memcheck, on the memory-checking build of PostgreSQL (pg_majors.sh's valgrind variant: assertions
# on, and USE_VALGRIND, so that memory a memory context frees or resets counts as freed, as
# pgvector's CI does). A use-after-free, a read of uninitialised or out-of-bounds memory, an
# invalid free, anywhere in a backend that runs idgen, is an error here even when it happens not
# to crash. Source test/lib/clusters.sh and test/lib/regress.sh first.

IDGEN_VALGRIND_MAJOR=${IDGEN_VALGRIND_MAJOR:-15}

# valgrind_counts LOG: prints "<passed> <failed>" for a run_valgrind_regress log: pg_regress's
# tests, and one check more, that Valgrind found no error.
valgrind_counts() {
  local ok bad
  read -r ok bad < <(regress_counts "$1")
  if grep -q '^valgrind: no error' "$1"; then
    ok=$((ok + 1))
  else
    bad=$((bad + 1))
  fi
  echo "$ok $bad"
}

# run_valgrind_regress PREFIX MODE LOG [TEST...]: the regression tests of PREFIX's installation
# (with idgen installed there; given TESTs only, setup first, for a quicker look) against a
# throwaway server started under Valgrind, with idgen loaded per backend (MODE backend) or
# preloaded (MODE preloaded). Writes pg_regress's output, then the line
# "valgrind: no error in N process logs" or every error Valgrind reported, to LOG (diffs of a
# failed test to LOG.diffs). Returns non-zero when a test failed or Valgrind reported an error.
run_valgrind_regress() {
  local prefix=$1 mode=$2 log=$3 work tests status=0 errors port pid
  local archive=$IDGEN_PG_SOURCES/postgresql-$IDGEN_VALGRIND_MAJOR.tar.xz
  shift 3
  if (($# > 0)); then
    tests="setup $*"
  else
    tests=$(make -s --no-print-directory PG_CONFIG="$prefix/bin/pg_config" print-regress) ||
      { echo "make print-regress failed for $prefix" >"$log"; return 1; }
  fi
  work=$(mktemp -d /tmp/idgen-valgrind.XXXXXX)
  copy_for_server "$work"
  # PostgreSQL's own suppressions, for what its code does on purpose (its source archive has them).
  if ! tar -xJf "$archive" -C "$work" --strip-components=3 \
    "postgresql-$IDGEN_VALGRIND_MAJOR/src/tools/valgrind.supp" 2>"$log"; then
    echo "could not take valgrind.supp from $archive" >>"$log"
    rm -rf "$work"
    return 1
  fi
  mkdir "$work/valgrind"
  chown postgres: "$work/valgrind" "$work/valgrind.supp" 2>/dev/null
  if ! as_server "$prefix/bin/initdb" -D "$work/data" -A trust --no-sync >"$work/initdb.log" 2>&1; then
    { echo "initdb failed:"; cat "$work/initdb.log"; } >"$log"
    rm -rf "$work"
    return 1
  fi
  # The two modes run at the same time: each takes its ports from a range of its own.
  if [ "$mode" = preloaded ]; then
    port=$(free_ports_in 46500 46999 | head -n 1)
  else
    port=$(free_ports_in 46000 46499 | head -n 1)
  fi
  {
    echo "port = $port"
    echo "listen_addresses = ''"
    echo "unix_socket_directories = '$work'"
    echo "fsync = off"
    echo "max_connections = 20"
    [ "$mode" = preloaded ] && echo "shared_preload_libraries = 'idgen'"
  } >>"$work/data/postgresql.conf"
  # Each process logs to its own file; an error is marked so that it can be counted.
  # (--track-origins=yes says where an uninitialised value came from, at twice the run time: add it
  # to find the cause of such an error.)
  as_server valgrind --quiet --leak-check=no --num-callers=30 \
    --suppressions="$work/valgrind.supp" --error-markers=VALGRINDERROR-BEGIN,VALGRINDERROR-END \
    --log-file="$work/valgrind/%p.log" \
    "$prefix/bin/postgres" -D "$work/data" >"$work/server.log" 2>&1 &
  pid=$!
  # Valgrind starts the server slowly.
  for _ in $(seq 1 120); do
    as_server "$prefix/bin/pg_isready" -q -h "$work" -p "$port" && break
    sleep 1
  done
  # shellcheck disable=SC2086  # the test names are words
  (cd "$work" && as_server "$("$prefix/bin/pg_config" --pkglibdir)/pgxs/src/test/regress/pg_regress" \
    --bindir="$prefix/bin" --inputdir=. --host="$work" --port="$port" \
    --dbname=contrib_regression $tests) >"$log" 2>&1 || status=1
  [ -f "$work/regression.diffs" ] && cp "$work/regression.diffs" "$log.diffs"
  as_server "$prefix/bin/pg_ctl" -D "$work/data" -m fast -w -t 300 stop >/dev/null 2>&1
  wait "$pid"
  errors=$(cat "$work"/valgrind/*.log 2>/dev/null | grep -c '^==[0-9]*== VALGRINDERROR-BEGIN')
  if ((errors == 0)); then
    echo "valgrind: no error in $(find "$work/valgrind" -name '*.log' | wc -l) process logs" >>"$log"
  else
    status=1
    {
      echo "valgrind: $errors errors"
      grep -l VALGRINDERROR-BEGIN "$work"/valgrind/*.log | while read -r f; do
        echo "-- $f"
        cat "$f"
      done
      echo "-- server log"
      tail -n 50 "$work/server.log"
    } >>"$log"
  fi
  rm -rf "$work"
  return $status
}
