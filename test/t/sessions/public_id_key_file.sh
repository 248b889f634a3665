#!/usr/bin/env bash
# idgen.public_id_key_file (docs/public-id.md): the configured key reaches every backend after a
# reload, long-lived ones included, and never anything a user can see.
#
# With idgen loaded per backend and preloaded, it checks: a key set with ALTER SYSTEM and a
# reload is used by new sessions; replacing the file's contents, or pointing the setting at
# another file, and reloading switches a session that stayed open across the change on its very
# next call; a bad file (missing, wrong owner, group-readable, not base64, not canonical, wrong
# length, empty) is refused with its own error; an ordinary role can use the key, and nothing it
# can run (SHOW, current_setting, pg_settings, pg_file_settings, pg_read_file, error messages)
# shows the key; the server log (log_statement = all) holds no piece of any key used. Expected
# public ids come from the upstream test vectors, so no key ever appears in SQL text. Prints TAP lines.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source test/lib/sessions.sh

# The upstream vector keys (public, for tests) and what they must give.
readme_key='k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc='
readme_check="SELECT idgen.public_id(1088824355131185736905670087)::text"
readme_expect='30322474-a954-ffa9-941c-6f038afe4ff1'
zero_key='AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA='
zero_check="SELECT idgen.public_id(1)::text"
zero_expect='e3ef1648-b3de-5680-6eba-0c17bf582090'

if [ "${1:-}" = "--inside" ]; then
  mode=$2
  pass() { echo "ok - $mode: $1"; }
  fail() { echo "not ok - $mode: $1"; }
  check() { if [ "$2" = "$3" ]; then pass "$1"; else fail "$1 (expected '$3', got '$2')"; fi; }

  psql -XAtq -c 'CREATE EXTENSION idgen' \
    -c "CREATE ROLE app LOGIN PASSWORD 'app'" \
    -c "CREATE ROLE settings_reader LOGIN PASSWORD 'reader' IN ROLE pg_read_all_settings" \
    -c "ALTER SYSTEM SET log_statement = 'all'" \
    -c 'SELECT pg_reload_conf()' >/dev/null
  datadir=$(psql -XAtq -c 'SHOW data_directory')
  server_user=$(stat -c %U "$datadir")
  log_file=${IDGEN_SERVER_LOG:?names the log file of the server under test}
  log_start=$(stat -c %s "$log_file" 2>/dev/null || echo 0)

  dir=$(mktemp -d)
  chmod 755 "$dir"
  key_file=$dir/public_id.key
  # Writes a key file owned by the server's user with mode 600 (or $3).
  write_key() { printf '%s\n' "$2" >"$1" && chown "$server_user" "$1" && chmod "${3:-600}" "$1"; }
  reload() { psql -XAtq -c 'SELECT pg_reload_conf()' >/dev/null; }
  # PostgreSQL 15 knows the setting in a session only once idgen is loaded there.
  alter_key_file() {
    psql -XAtq -c "LOAD 'idgen'" -c "ALTER SYSTEM SET idgen.public_id_key_file = '$1'" >/dev/null
  }
  # Runs a query in a new session; an error comes back as "SQLSTATE: message" (its first line).
  ask_new() {
    psql -XAtq -c "\\set VERBOSITY verbose" -c "$1" 2>&1 | head -n 1 | sed 's/^ERROR:  //'
  }
  # Runs a query in a new session until it prints $2 (a reload reaches backends asynchronously).
  until_new() { until_prints "$2" ask_new "$1"; }

  # The check value of a base64 key, computed by OpenSSL outside the server (the key itself must
  # never reach a statement, which the log check below would catch).
  key_check_of() {
    head -c 16 /dev/zero |
      openssl enc -aes-256-ecb -nopad -K "$(base64 -d <<<"$1" | od -v -An -tx1 | tr -d ' \n')" |
      od -An -tx1 -N3 | tr -d ' \n'
  }

  # A session that stays open across reloads.
  coproc LONG { psql -XAtq -v VERBOSITY=terse 2>&1; }
  ask_long() { ask_open "${LONG[1]}" "${LONG[0]}" "$1"; }
  until_long() { until_prints "$2" ask_long "$1"; }
  check "the long-lived session starts without a key" \
    "$(ask_long "SELECT coalesce(current_setting('idgen.public_id_key_file', true), '')")" ""

  # ---- a good key, set with ALTER SYSTEM -----------------------------------------------------
  write_key "$key_file" "$readme_key"
  alter_key_file "$key_file"
  reload
  check "ALTER SYSTEM and a reload give new sessions the key" \
    "$(until_new "$readme_check" "$readme_expect")" "$readme_expect"
  check "the open session uses the key from its next call" \
    "$(until_long "$readme_check" "$readme_expect")" "$readme_expect"
  check "decoding with the configured key" \
    "$(ask_new "SELECT idgen.public_id_to_numeric('$readme_expect')")" \
    1088824355131185736905670087
  check "the 22-character form" \
    "$(ask_new "SELECT idgen.to_alphanumeric(idgen.public_id(1088824355131185736905670087))")" \
    48XoooHHCe1CiOHrghM7Dl
  check "the configured key's check value is AES of a zero block under the file's key (first 3 bytes)" \
    "$(ask_new "SELECT idgen.public_id_key_check()")" "$(key_check_of "$readme_key")"

  # ---- rotation: new contents in the same file, then a new file --------------------------------
  write_key "$key_file" "$zero_key"
  check "before the reload, the open session keeps its cached key" \
    "$(ask_long "$readme_check")" "$readme_expect"
  reload
  check "new file contents reach the open session after a reload" \
    "$(until_long "$zero_check" "$zero_expect")" "$zero_expect"
  check "after the rotation the check value is the new key's" \
    "$(ask_long "SELECT idgen.public_id_key_check()")" "$(key_check_of "$zero_key")"
  check "ids made with the old key no longer decode" \
    "$(ask_long "SELECT coalesce(idgen.public_id_to_numeric('$readme_expect')::text, 'null')")" null
  write_key "$dir/other.key" "$readme_key"
  alter_key_file "$dir/other.key"
  reload
  check "a new path reaches the open session after a reload" \
    "$(until_long "$readme_check" "$readme_expect")" "$readme_expect"
  alter_key_file "$key_file"

  # ---- bad key files: each refused with its own error, on the next call after a reload ----------
  secret_key=$(openssl rand -base64 32)                    # 44 characters, 32 bytes
  long_key=$(openssl rand -base64 33)                      # 44 characters, 33 bytes
  short_key=$(openssl rand -base64 20)                     # 28 characters, 20 bytes
  bad_char_key="${secret_key:0:20}*${secret_key:21}"       # a '*' at character 21
  non_canonical_key="$(openssl rand -base64 16 | cut -c1-20)AB=="  # 'B' leaves bits set
  bad_keys=("$secret_key" "$long_key" "$short_key" "$bad_char_key" "$non_canonical_key")
  errors=""
  try_file() {  # description, expected error prefix; the file is already in place
    local got
    reload
    got=$(until_new "SELECT idgen.public_id(1)" "$2")
    errors+="$got"$'\n'
    check "$1" "$got" "$2"
    got=$(until_long "SELECT idgen.public_id_to_bigint(gen_random_uuid())" "ERROR:  ${2#*: }")
    check "$1 (open session)" "$got" "ERROR:  ${2#*: }"
  }
  write_key "$key_file" "$long_key"
  try_file "a key of 33 bytes" "F0000: public id key has the wrong length"
  write_key "$key_file" "$short_key"
  try_file "a key of 20 bytes" "F0000: public id key has the wrong length"
  write_key "$key_file" "$bad_char_key"
  try_file "a character outside base64" "F0000: public id key file does not hold valid base64"
  write_key "$key_file" "$non_canonical_key"
  try_file "non-canonical base64" "F0000: public id key file does not hold valid base64"
  write_key "$key_file" ""
  try_file "an empty file" "F0000: public id key file is empty"
  write_key "$key_file" "$secret_key" 640
  try_file "a group-readable file" "F0000: public id key file has group or world access"
  rm -f "$key_file"
  try_file "a missing file" \
    "58P01: could not read the public id key file: No such file or directory"
  ln -s /etc/hostname "$key_file"  # owned by root, not by the server's user (this script's)
  try_file "a file owned by another user" \
    "F0000: public id key file is not owned by the database server's operating-system user"
  rm -f "$key_file"

  # The details of each error: what is wrong, never the key.
  write_key "$key_file" "$long_key"
  reload
  until_new "SELECT idgen.public_id(1)" "F0000: public id key has the wrong length" >/dev/null
  check "the wrong-length detail gives the length" \
    "$(psql -XAtq -c 'SELECT idgen.public_id(1)' 2>&1 | grep DETAIL)" \
    "DETAIL:  It decodes to 33 bytes; an AES key has 16, 24 or 32 bytes."
  errors+=$(psql -Xq -c '\set VERBOSITY verbose' -c 'SELECT idgen.public_id(1)' 2>&1)
  write_key "$key_file" "$bad_char_key"
  reload
  until_new "SELECT idgen.public_id(1)" "F0000: public id key file does not hold valid base64" \
    >/dev/null
  check "the base64 detail gives the position" \
    "$(psql -XAtq -c 'SELECT idgen.public_id(1)' 2>&1 | grep -o 'DETAIL:  Character [0-9]* is not')" \
    "DETAIL:  Character 21 is not"
  errors+=$(psql -Xq -c '\set VERBOSITY verbose' -c 'SELECT idgen.public_id(1)' 2>&1)

  # ---- an ordinary role: uses the key, sees nothing of it ---------------------------------------
  write_key "$key_file" "$secret_key"
  reload
  until_new "SELECT idgen.public_id_to_bigint(idgen.public_id(7))" 7 >/dev/null
  as_app() { PGPASSWORD=app psql -XAtq -U app -c "\\set VERBOSITY verbose" -c "$1" 2>&1; }
  check "an ordinary role encodes and decodes with the configured key" \
    "$(as_app 'SELECT idgen.public_id_to_bigint(idgen.public_id(42))')" 42
  check "an ordinary role decodes DistributedIds and uuids" \
    "$(as_app "SELECT idgen.public_id_to_numeric(idgen.public_id(9999999999999999999999999999))
               || ' ' || idgen.public_id_to_uuid(idgen.public_id('00000000-0000-0000-0000-00000000002a'::uuid))")" \
    "9999999999999999999999999999 00000000-0000-0000-0000-00000000002a"
  seen=""
  for q in 'SHOW idgen.public_id_key_file' \
    "SELECT current_setting('idgen.public_id_key_file')" \
    "SELECT string_agg(name || '=' || setting, ',') FROM pg_settings WHERE name LIKE 'idgen.%'" \
    'SELECT * FROM pg_file_settings' \
    "SELECT pg_read_file('$key_file')" \
    "SELECT pg_read_binary_file('$key_file')" \
    "SELECT rolconfig FROM pg_roles" \
    "SELECT setconfig FROM pg_db_role_setting" \
    "SELECT query FROM pg_stat_activity"; do
    seen+=$(as_app "$q")$'\n'
  done
  if grep -q 'permission denied for view pg_file_settings' <<<"$seen" &&
    grep -q 'permission denied for function pg_read_file' <<<"$seen" &&
    grep -q 'permission denied for function pg_read_binary_file' <<<"$seen"; then
    pass "an ordinary role is refused pg_file_settings and the key file"
  else
    fail "what an ordinary role saw: $seen"
  fi
  # The setting is GUC_SUPERUSER_ONLY. Before idgen is loaded in a session, PostgreSQL holds it as
  # a placeholder without that flag, so without preloading the path (never the key) is visible.
  # The server's refusal is worded "must be superuser or have privileges of pg_read_all_settings
  # to examine" up to 15 and "permission denied to examine" from 16 on.
  if [ "$mode" = preloaded ]; then
    if grep -qE '42501: .*to examine "idgen\.public_id_key_file"' <<<"$seen" &&
      ! grep -qF "$key_file" <<<"$seen"; then
      pass "with idgen preloaded, an ordinary role cannot see the setting"
    else
      fail "setting shown to an ordinary role: $seen"
    fi
  else
    if [ "$(as_app 'SHOW idgen.public_id_key_file')" = "$key_file" ]; then
      pass "without preloading, an ordinary role sees the placeholder's path, not the key"
    else
      fail "placeholder: $(as_app 'SHOW idgen.public_id_key_file')"
    fi
  fi
  reader=$(PGPASSWORD=reader psql -XAtq -U settings_reader -c 'SHOW idgen.public_id_key_file' \
    -c "SELECT pg_read_file('$key_file')" 2>&1)
  seen+="$reader"$'\n'
  if grep -qx "$key_file" <<<"$reader" && grep -q 'permission denied' <<<"$reader"; then
    pass "pg_read_all_settings sees the path, not the file"
  else
    fail "what a pg_read_all_settings member saw: $reader"
  fi
  errors+=$(as_app "SELECT idgen.public_id(1, '\\x00'::bytea)")$'\n'

  # ---- no piece of any key anywhere ---------------------------------------------------------
  eval "exec ${LONG[1]}>&-"
  wait "$LONG_PID" 2>/dev/null
  psql -XAtq -c "ALTER SYSTEM RESET log_statement" -c 'SELECT pg_reload_conf()' >/dev/null
  log_text=$(tail -c +"$((log_start + 1))" "$log_file")
  # Every 6 consecutive characters of each key's text, and every 8 hex digits of its bytes.
  leaked=""
  for key in "${bad_keys[@]}" "$readme_key"; do
    hex=$(printf '%s' "$key" | openssl base64 -d -A 2>/dev/null | od -An -tx1 | tr -d ' \n')
    for text in "$errors" "$seen" "$log_text"; do
      for ((i = 0; i + 6 <= ${#key}; i++)); do
        piece=${key:i:6}
        grep -qF -- "$piece" <<<"$text" && leaked+=" '$piece'"
      done
      for ((i = 0; i + 8 <= ${#hex}; i += 2)); do
        grep -qiF -- "${hex:i:8}" <<<"$text" && leaked+=" ${hex:i:8}"
      done
    done
  done
  if [ -z "$leaked" ] && [ -n "$log_text" ]; then
    pass "no 6-character piece of a key, nor 4 of its bytes in hex, in errors, user output or the server log"
  else
    fail "key pieces found:$leaked"
  fi
  # The log scanned is the right one, and statements were logged (log_statement = all).
  if grep -q "statement: ALTER SYSTEM SET idgen.public_id_key_file = '$key_file'" <<<"$log_text"
  then
    pass "the scanned server log holds this run's statements"
  else
    fail "the server log $log_file does not hold this run's statements"
  fi
  rm -rf "$dir"
  exit 0
fi

echo "usage: bash $0 --inside plain|preloaded   (test/t/040_session_scripts.pl runs it against a node)" >&2
exit 2
