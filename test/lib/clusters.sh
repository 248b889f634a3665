# shellcheck shell=bash
# Helpers for integration scripts that make their own throwaway clusters with initdb on loopback
# (never pg_virtualenv, whose fixed cluster name other tests use at the same time).

# Every cluster the tests make and every client they run works in one locale, whatever the
# caller's: initdb takes the database encoding from it (without one, SQL_ASCII, where pgx's raw
# uuid bytes pass as text and Rails cannot create its UTF8 database), and Ruby and Java take their
# default text encoding from it. C.UTF-8 is part of every Debian system (libc-bin).
# PostgreSQL's TAP modules set LC_MESSAGES=C themselves; anything else set would override LANG.
export LANG=C.UTF-8
unset LC_ALL LC_CTYPE LC_COLLATE LC_MONETARY LC_NUMERIC LC_TIME LC_MESSAGES LANGUAGE

# as_server COMMAND...: runs COMMAND as the server's user (postgres when run as root).
if [ "$(id -u)" = 0 ]; then
  as_server() { runuser -u postgres -- "$@"; }
else
  as_server() { "$@"; }
fi

# free_ports_in FROM TO: the ports of FROM..TO that nothing listens on and that the caller's array
# `ports` does not hold yet, in random order (scripts run at the same time: a port taken
# meanwhile makes pg_ctl fail, and the caller tries the next one).
free_ports_in() {
  local used
  used=$(ss -Htln 2>/dev/null | awk '{ n = split($4, a, ":"); print a[n] }')
  seq "$1" "$2" | grep -vxF -f <({ echo "$used"; printf '%s\n' "${ports[@]:-}"; } | grep -v '^$') | shuf
}

# copy_for_server DIR: copies the repository's files (without build output and git's files) into
# DIR, readable and writable by the server's user, for tests that run as that user.
copy_for_server() {
  tar --exclude=./.git --exclude=./build --exclude='*.o' --exclude='*.bc' --exclude='*.so' \
    --exclude=./results --exclude=./tmp_check -cf - . | tar -xf - -C "$1"
  chmod 755 "$1"
  [ "$(id -u)" = 0 ] && chown -R postgres: "$1"
  return 0
}
