# Helpers for integration scripts: sessions that stay open (psql coprocesses answering one line
# per query) and queries repeated until an asynchronous change (a reload, a commit) shows.

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
  local want=$1 got i
  shift
  for i in $(seq 1 100); do
    got=$("$@")
    [ "$got" = "$want" ] && break
    sleep 0.1
  done
  echo "$got"
}
