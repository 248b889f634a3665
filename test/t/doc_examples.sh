#!/usr/bin/env bash
# Every SQL example of the docs runs (the docs cannot rot). For README.md and each
# docs/*.md except docs/scaling-out.md (tested by its own TAP test), this extracts
# the fenced ```sql blocks and runs them, printing one TAP line per block:
#   ok - docs/comb.md: block 3 (line 120)          the block ran as its fence says
#   not ok - docs/comb.md: block 3 (line 120) ...  it did not; the errors follow as "# " lines
#
# How the blocks run:
# - Each file runs in a fresh database named app (the name the docs give the application's
#   database), made with CREATE EXTENSION idgen unless the first block run there creates it. Its
#   blocks run in order in one psql session (psql -X, VERBOSITY verbose, started in the
#   repository's root), as a reader pasting them would: tables, SET, PREPARE and psql variables
#   (\set, \gset) carry over to later blocks. The session goes on after an error.
# - The fence's info string says how (GitHub still highlights all of these as SQL):
#     ```sql               runs, and must raise no error (any ERROR, FATAL or psql error fails it)
#     ```sql error         runs, and must raise at least one error
#     ```sql error=22023   the same, and every error it raises has that SQLSTATE
#     ```sql fragment      not runnable on purpose (a clause alone, "..." placeholders, a definition
#                          shown for reference): skipped, but listed as "ok ... # SKIP fragment"
#     ```sql setup         a server's set-up (ALTER SYSTEM, then a restart): skipped like a fragment,
#                          since it would change the shared server; a test of its own runs it
#                          (docs/snowflake.md's: test/t/052_snowflake_setup.pl)
#     ```sql migration=NAME  a step of one path of docs/migrating.md, which needs that path's
#                          server (a peer's extension, idgen preloaded) and tables: skipped like a
#                          fragment here; the path's own test runs its blocks as printed
#                          (test/perl/IdgenTest/Migrating.pm, test/t/085 to 089)
#     ```sql fresh         (combines with the others) starts a new database app and session before
#                          the block, for an example that stands alone or runs on another server;
#                          the blocks after it continue there
#     ```sql needs=NAME    (combines with the others) runs only where the server has the extension
#                          NAME (pg_available_extensions; a package such as postgresql-15-partman);
#                          elsewhere skipped like a fragment, listed as "# SKIP needs NAME". A test
#                          of its own runs it where the package is installed (docs/partitioning.md's
#                          pg_partman blocks: test/t/090_partitioning_docs.pl)
# - An error block may hold several failing statements. If it shows its errors as comment lines
#   "-- ERROR:  message" (optionally with the SQLSTATE: "-- ERROR:  22023: message"),
#   "-- DETAIL:  ..." and "-- HINT:  ...", it must raise exactly as many errors, and those lines
#   must match them, in order. Other results shown in comments ("-- t", result tables) are not
#   compared: the regression suite checks values.
# - Non-SQL blocks (```sh, ```text, ```cs, plain ```) are not run.
#
# The only environment the docs assume: a superuser session, and the public id key files they
# name. The script writes the public example key of docs/public-id.md (k7fB...AFc=) to
# public_id.key, another key to public_id.2.key, and the two as the key rings of the rotation to
# public_id.staged.key and public_id.rotated.key, in a temporary directory, owned by the server's
# user with mode 0600; it configures public_id.key (ALTER SYSTEM, reload) before each file, and
# runs every block with the path /etc/postgresql/idgen/ replaced by that directory, so the docs'
# key set-up and key change run as printed. Roles a file creates are dropped after it, and the key
# setting is reset at the end.
#
# Usage: bash test/t/doc_examples.sh [file.md...]      (test/t/050_doc_examples.pl runs it)
#            against the server of PGHOST/PGPORT/PGUSER/PGDATABASE, which must be a throwaway
#            one: it creates and drops the database app and roles, and uses ALTER SYSTEM.
#            DOC_EXAMPLES_KEEP=1 keeps the extracted blocks and psql's output.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

if (($# > 0)); then
  files=("$@")
else
  files=(README.md)
  for f in docs/*.md; do
    [ "$f" = docs/scaling-out.md ] || files+=("$f")
  done
fi

work=$(mktemp -d /tmp/idgen-doc-examples.XXXXXX)
chmod 755 "$work"
# DOC_EXAMPLES_KEEP=1: keep the blocks (<n>.sql) and what psql printed (segment-<k>.out/.err).
if [ -n "${DOC_EXAMPLES_KEEP:-}" ]; then
  echo "# keeping $work"
else
  trap 'rm -rf "$work"' EXIT
fi
sql() { psql -XAtq -v ON_ERROR_STOP=1 -d "${PGDATABASE:-postgres}" "$@"; }

if [ -n "$(sql -c "SELECT 1 FROM pg_database WHERE datname = 'app'")" ]; then
  echo "not ok - a database app exists already: run this in a throwaway cluster"
  exit 0
fi

# ---- the public id key files -----------------------------------------------------------------
keys=$work/keys
mkdir "$keys"
chmod 755 "$keys"
server_user=$(stat -c %U "$(sql -c 'SHOW data_directory')")
write_key() {  # write_key <file> <base64>: a key file the server accepts (its owner, mode 0600)
  printf '%s\n' "$2" >"$1" && chown "$server_user" "$1" && chmod 600 "$1"
}
write_key "$keys/public_id.key" 'k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc='
write_key "$keys/public_id.2.key" 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA='
# The key rings of docs/public-id.md's rotation: the example key, then the other key; and reversed.
write_key "$keys/public_id.staged.key" \
  $'k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA='
write_key "$keys/public_id.rotated.key" \
  $'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\nk7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc='
configure_key() {  # the example key for new sessions (a reload reaches them asynchronously)
  sql -c "LOAD 'idgen'" -c "ALTER SYSTEM SET idgen.public_id_key_file = '$keys/public_id.key'" \
    -c 'SELECT pg_reload_conf()' >/dev/null || return 1
  local _
  for _ in $(seq 1 100); do
    [ "$(sql -c "SELECT current_setting('idgen.public_id_key_file', true)")" = "$keys/public_id.key" ] &&
      return 0
    sleep 0.1
  done
  return 1
}

# extract <file> <dir>: writes each ```sql block of <file> to <dir>/<n>.sql (without the
# fence's indentation) and prints "<n> <line of the fence> <info words after sql>" per block.
extract() {
  awk -v dir="$2" '
    !fence && /^ *```/ {
      match($0, /^ *```/)
      indent = RLENGTH - 3
      info = substr($0, RLENGTH + 1)
      gsub(/^[ \t]+|[ \t]+$/, "", info)
      fence = 1
      split(info, words, /[ \t]+/)
      is_sql = (words[1] == "sql")
      if (is_sql) {
        n++
        out = dir "/" n ".sql"
        printf "" >out
        sub(/^sql[ \t]*/, "", info)
        print n, NR, info
      }
      next
    }
    fence && /^ *```[ \t]*$/ { fence = 0; if (is_sql) close(out); next }
    fence && is_sql {
      line = $0
      for (i = 0; i < indent && substr(line, 1, 1) == " "; i++) line = substr(line, 2)
      print line >out
    }
  ' "$1"
}

# errors_of <stderr file>: the errors of one block's run, one per line as
# "ERROR\t<sqlstate>\t<message>", each followed by its "DETAIL\t\t<text>" and "HINT\t\t<text>";
# psql's own errors and lost connections as "CLIENT\t\t<line>".
errors_of() {
  awk '
    /^psql:[^ ]*:[0-9]+: ERROR:  [0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z]: / {
      sub(/^psql:[^ ]*:[0-9]+: ERROR:  /, "")
      printf "ERROR\t%s\t%s\n", substr($0, 1, 5), substr($0, 8)
      in_error = 1
      next
    }
    /^psql:[^ ]*:[0-9]+: (error|FATAL|PANIC|ERROR):/ || /connection to server|server closed the connection/ {
      printf "CLIENT\t\t%s\n", $0
      in_error = 0
      next
    }
    in_error && /^(DETAIL|HINT):  / {
      kind = substr($0, 1, index($0, ":") - 1)
      printf "%s\t\t%s\n", kind, substr($0, length(kind) + 4)
      next
    }
    /^psql:[^ ]*:[0-9]+: [A-Z]+:  / { in_error = 0 }
  ' "$1"
}

# expected_errors <block file>: its "-- ERROR:", "-- DETAIL:" and "-- HINT:" comment lines, in
# the format of errors_of (an ERROR without a SQLSTATE has an empty second field).
expected_errors() {
  sed -nE 's/^[[:space:]]*--[[:space:]]*(ERROR|DETAIL|HINT):[[:space:]]+(.*[^[:space:]])[[:space:]]*$/\1\t\2/p' "$1" |
    awk -F'\t' '
      $1 == "ERROR" && $2 ~ /^[0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z]: / {
        printf "ERROR\t%s\t%s\n", substr($2, 1, 5), substr($2, 8)
        next
      }
      { printf "%s\t\t%s\n", $1, $2 }'
}

# matches_in_order <expected> <actual>: every expected line occurs in the actual ones, in order
# (an expected ERROR without a SQLSTATE matches any SQLSTATE).
matches_in_order() {
  awk -F'\t' '
    NR == FNR { actual[++na] = $0; kind[na] = $1; state[na] = $2; text[na] = $3; next }
    {
      while (++i <= na)
        if (kind[i] == $1 && text[i] == $3 && ($2 == "" || state[i] == $2)) break
      if (i > na) { print "not shown: " $0; exit 1 }
    }' "$2" "$1"
}

# The extensions this server can install, for the needs=NAME marker.
available_extensions=" $(sql -c 'SELECT name FROM pg_available_extensions' | tr '\n' ' ') "

# kind_of <info words>: run, fragment, missing:<name> for a needs=<name> this server lacks, or
# bad:<word> for a word that is no marker.
kind_of() {
  local word kind=run
  for word in $1; do
    case $word in
      error | error=????? | fresh) ;;
      fragment | setup | migration=?*) kind=fragment ;;
      needs=?*)
        [ "$kind" = run ] && [[ $available_extensions != *" ${word#needs=} "* ]] &&
          kind=missing:${word#needs=} ;;
      *) echo "bad:$word"; return ;;
    esac
  done
  echo "$kind"
}

# ---- run ---------------------------------------------------------------------------------------
total_run=0 total_errors=0 total_fragments=0
for file in "${files[@]}"; do
  dir=$work/$(echo "$file" | tr '/.' '__')
  mkdir -p "$dir"
  mapfile -t blocks < <(extract "$file" "$dir")
  roles_before=$(sql -c 'SELECT rolname FROM pg_roles' | sort)
  configure_key || echo "not ok - $file: could not configure the public id key file"
  run=0 expected_errors_count=0 fragments=0
  segment=()  # blocks waiting to run in the current database
  seg=0       # databases made for this file so far

  # run_segment: runs the blocks of ${segment[@]} in a fresh database app, in one psql session,
  # and prints their TAP lines in order (fragments and unknown markers included).
  run_segment() {
    ((${#segment[@]} == 0)) && return
    local entry n line info kind script first runnable=()
    for entry in "${segment[@]}"; do
      read -r n line info <<<"$entry"
      [ "$(kind_of "$info")" = run ] && runnable+=("$entry")
    done
    if ((${#runnable[@]} > 0)); then
      sql -c 'SET client_min_messages = warning' -c 'DROP DATABASE IF EXISTS app' \
        -c 'CREATE DATABASE app' >/dev/null
      seg=$((seg + 1))
      script=$dir/segment-$seg.sql
      # The first line of the first block that is not blank or a comment.
      first=$(grep -vE '^[[:space:]]*(--.*)?$' "$dir/${runnable[0]%% *}.sql" | head -n 1)
      {
        printf '%s\n' '\set VERBOSITY verbose'
        # The extension, unless the first block's first statement creates it.
        grep -qiE '^[[:space:]]*CREATE EXTENSION (IF NOT EXISTS )?idgen' <<<"$first" ||
          echo 'CREATE EXTENSION idgen;'
        for entry in "${runnable[@]}"; do
          read -r n line info <<<"$entry"
          sed -i "s#/etc/postgresql/idgen/#$keys/#g" "$dir/$n.sql"
          printf '\\warn @@begin %s\n\\echo @@begin %s\n\\i %s\n\\warn @@end %s\n' \
            "$n" "$n" "$dir/$n.sql" "$n"
        done
      } >"$script"
      timeout 120 psql -X -d app -f "$script" >"$dir/segment-$seg.out" 2>"$dir/segment-$seg.err"
    fi
    for entry in "${segment[@]}"; do
      read -r n line info <<<"$entry"
      local name="$file: block $n (line $line)" want_error=0 want_state="" word problems=""
      kind=$(kind_of "$info")
      case $kind in
        fragment)
          echo "ok - $name # SKIP fragment"
          fragments=$((fragments + 1))
          continue ;;
        missing:*)
          echo "ok - $name # SKIP needs ${kind#missing:}, which this server lacks"
          fragments=$((fragments + 1))
          continue ;;
        bad:*)
          echo "not ok - $name: unknown fence marker '${kind#bad:}' (sql, error, error=XXXXX, fragment, setup, migration=NAME, fresh, needs=NAME)"
          continue ;;
      esac
      for word in $info; do
        case $word in
          error) want_error=1 ;;
          error=?????) want_error=1 want_state=${word#error=} ;;
        esac
      done
      awk -v n="$n" '$0 == "@@begin " n { on = 1; next } $0 == "@@end " n { exit } on' \
        "$dir/segment-$seg.err" >"$dir/$n.stderr"
      errors_of "$dir/$n.stderr" >"$dir/$n.errors"
      if ! grep -qx "@@end $n" "$dir/segment-$seg.err"; then
        problems="the session ended before the block did (psql died or timed out)"
      elif grep -q '^CLIENT' "$dir/$n.errors"; then
        problems="psql error or lost connection"
      elif ((want_error == 0)) && grep -q '^ERROR' "$dir/$n.errors"; then
        problems="raised an error"
      elif ((want_error == 1)) && ! grep -q '^ERROR' "$dir/$n.errors"; then
        problems="raised no error, but its fence says it fails"
      elif [ -n "$want_state" ] && grep '^ERROR' "$dir/$n.errors" | cut -f2 | grep -qvx "$want_state"; then
        problems="raised an error other than $want_state"
      elif ((want_error == 1)); then
        expected_errors "$dir/$n.sql" >"$dir/$n.expected"
        shown=$(grep -c '^ERROR' "$dir/$n.expected")
        raised=$(grep -c '^ERROR' "$dir/$n.errors")
        if ((shown > 0 && shown != raised)); then
          problems="raised $raised errors, but shows $shown"
        else
          problems=$(matches_in_order "$dir/$n.expected" "$dir/$n.errors" | tr '\t' ' ' | tr -s ' ')
        fi
      fi
      run=$((run + 1))
      ((want_error)) && expected_errors_count=$((expected_errors_count + 1))
      if [ -z "$problems" ]; then
        if ((want_error)); then
          echo "ok - $name: fails as documented ($(grep '^ERROR' "$dir/$n.errors" | cut -f2 | sort -u | paste -sd,))"
        else
          echo "ok - $name"
        fi
      else
        echo "not ok - $name: $problems"
        # psql's "psql:<block file>:<k>:" becomes the line in the markdown file.
        awk -v f="psql:$dir/$n.sql:" -v line="$line" '
          index($0, f) == 1 { rest = substr($0, length(f) + 1); k = rest + 0
                              sub(/^[0-9]+:/, "", rest); $0 = "line " (line + k) ":" rest }
          { print "#   " $0 }' "$dir/$n.stderr" | head -n 40
      fi
    done
    segment=()
  }

  for entry in "${blocks[@]}"; do
    read -r n line info <<<"$entry"
    [[ " $info " == *" fresh "* ]] && run_segment
    segment+=("$entry")
  done
  run_segment

  sql -c 'SET client_min_messages = warning' -c 'DROP DATABASE IF EXISTS app' >/dev/null
  for role in $(comm -13 <(echo "$roles_before") <(sql -c 'SELECT rolname FROM pg_roles' | sort)); do
    sql -c "DROP ROLE \"$role\"" >/dev/null || echo "# could not drop role $role"
  done
  echo "# $file: ${#blocks[@]} sql blocks: $run run ($expected_errors_count of them expected to fail), $fragments fragments"
  total_run=$((total_run + run))
  total_errors=$((total_errors + expected_errors_count))
  total_fragments=$((total_fragments + fragments))
done
sql -c "LOAD 'idgen'" -c "ALTER SYSTEM RESET idgen.public_id_key_file" -c 'SELECT pg_reload_conf()' >/dev/null
echo "# all files: $total_run blocks run ($total_errors expected to fail), $total_fragments fragments"
exit 0
