# shellcheck shell=bash
# Helpers for integration scripts: TAP lines, queries as the server's user or another role,
# sessions that stay open (psql coprocesses answering one line per query) and queries repeated
# until an asynchronous change (a reload, a commit) shows.

# check NAME GOT EXPECTED: one TAP line, ok when GOT is EXPECTED. A script that runs in several
# modes sets check_prefix (for example "server: ") to name its mode in every line.
check() {
  if [ "$2" = "$3" ]; then
    echo "ok - ${check_prefix:-}$1"
  else
    echo "not ok - ${check_prefix:-}$1 (expected '$3', got '$2')"
  fi
}

# q SQL: runs SQL as the connecting (server's) user, stopping at its first error; prints rows
# unaligned, fields split by |.
q() { psql -XAtq -v ON_ERROR_STOP=1 -c "$1"; }

# as_role ROLE SQL...: runs each SQL in one session as ROLE (a login role); prints rows, and an
# error as its SQLSTATE alone.
as_role() {
  local role=$1 sql args=()
  shift
  for sql in "$@"; do args+=(-c "$sql"); done
  psql -XAtq -U "$role" -v VERBOSITY=sqlstate "${args[@]}" 2>&1 |
    sed -E 's/^ERROR:  ([0-9A-Z]{5})$/\1/'
}

# ask_open IN OUT QUERY: sends QUERY to the open psql whose stdin is fd IN and stdout fd OUT;
# prints its one-line answer, or "(no answer)" after 10 s. A statement that prints nothing under
# -q (BEGIN, COMMIT) needs a query after it, e.g. "BEGIN; SELECT 1", or the read waits 10 s.
ask_open() {
  local reply
  echo "$3;" >&"$1"
  IFS= read -r -t 10 reply <&"$2" || reply="(no answer)"
  echo "$reply"
}

# end_open IN PID: closes the open psql whose stdin is fd IN and waits for it to exit (bash runs one
# coprocess at a time).
end_open() {
  eval "exec $1>&-"
  wait "$2" 2>/dev/null
}

# until_prints EXPECTED COMMAND...: runs COMMAND until it prints EXPECTED, at most 10 s; prints
# what it printed last.
until_prints() {
  local want=$1 got
  shift
  for _ in $(seq 1 100); do
    got=$("$@")
    [ "$got" = "$want" ] && break
    sleep 0.1
  done
  echo "$got"
}
