#!/usr/bin/env bash
# The README's demo (docs/demo.sh) runs to the end in a throwaway cluster and shows what it
# promises, read from its output: the three keys' insert figures with random v4 writing far more
# full-page images than COMB and UUIDv7, the URL id round trip and the try_ decoder's NULL, the
# example key labelled as such, the ledger verified and then caught altered, and every ERROR
# announced as intentional just before it. Then, as an ordinary user with this same idgen already
# installed, the demo runs instead of stopping at `make install`; with a different idgen
# installed it stops and names the command to run as root. A cluster named regress left in the
# system locations does not stop it. Prints TAP lines.
# Each check's condition is code in single quotes, which check evaluates:
# shellcheck disable=SC2016
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
ok() { echo "ok - $1"; }
not_ok() {
  echo "not ok - $1"
  # shellcheck disable=SC2001  # prefixes every line
  [ -n "${2:-}" ] && sed 's/^/# /' <<<"$2"
}
check() { if eval "$2"; then ok "$1"; else not_ok "$1" "${3:-}"; fi; }

# A cluster named regress left in the system locations (by a pg_virtualenv that was killed, or
# one running beside us) must not stop the demo: it keeps its throwaway cluster elsewhere.
stale=
if [ "$(id -u)" = 0 ] && [ ! -e /etc/postgresql/15/regress ]; then
  pg_createcluster --quiet 15 regress >/dev/null 2>&1 && stale=1
fi
start=$(date +%s)
out=$(bash docs/demo.sh 2>&1)
status=$?
[ -n "$stale" ] && pg_dropcluster 15 regress
seconds=$(($(date +%s) - start))
check "the demo runs to the end (exit $status, ${seconds} s)" \
  '[ $status -eq 0 ] && grep -q "^The demo ran to the end.$" <<<"$out"' "$out"

# "key | seconds | WAL MB | full-page images | index MB" rows of part 1.
row() { grep -E "^ *$1 +\|" <<<"$out" | head -1; }
fpi() { row "$1" | awk -F'|' '{gsub(/ /, "", $4); print $4}'; }
v4=$(fpi 'random v4') comb=$(fpi 'COMB') v7=$(fpi 'UUIDv7')
check "part 1 prints seconds, WAL, full-page images and index size for the three keys" \
  '[[ "$v4" =~ ^[0-9]+$ && "$comb" =~ ^[0-9]+$ && "$v7" =~ ^[0-9]+$ ]]' "$out"
check "random v4 writes over 10 times the full-page images of COMB and of UUIDv7 ($v4 vs $comb and $v7)" \
  '[[ "$v4" =~ ^[0-9]+$ ]] && ((v4 > 10 * comb && v4 > 10 * v7))'

check "part 2: the URL ids decode back" '[ "$(grep -cE "^ *[0-9]{28} \| [0-9A-Za-z]{16} \| t$" <<<"$out")" -eq 2 ]'
check "part 2: text that is not an id decodes to NULL and finds no row" \
  'grep -qE "^ *not-an-id +\| +\| +0$" <<<"$out"'
check "part 3: the example key is labelled as one, not to be reused" \
  'grep -q "EXAMPLE KEY, FOR THIS DEMO ONLY" <<<"$out" && grep -q "never reuse a key from a demo" <<<"$out"'
check "part 3: public ids decode back, and a tampered one decodes to NULL" \
  'grep -qE "^ +1 \| ada +\| [0-9A-Za-z]{22} \| +1$" <<<"$out" && grep -A2 "tampered_decodes_to" <<<"$out" | tail -1 | grep -qE "^ *$"'
check "part 4: the ledger verifies, and the altered event is reported" \
  'grep -qE "^ t +\| +3 \| *$" <<<"$out" && grep -qE "^ f +\| +3 \| checksum mismatch" <<<"$out"'
# Every ERROR line follows an "Intentional error" announcement, with no other output between
# them than the statement's own diagnostics.
unannounced=$(awk '/^--- Intentional error/ { announced = 1; next }
                   /ERROR:/ { if (!announced) print; announced = 0; next }
                   /^(DETAIL|HINT|LINE|CONTEXT):|^ *\^/ { next }
                   NF { announced = 0 }' <<<"$out")
check "every error in the demo is announced as intentional just before it" \
  '[ -z "$unannounced" ] && grep -q "ERROR:" <<<"$out"' "$unannounced"

# As an ordinary user, in a copy of the checkout that user owns.
user=idgen_demo_user
if ! id "$user" >/dev/null 2>&1; then
  useradd --system --create-home --home-dir "/var/tmp/$user" --shell /bin/bash "$user"
fi
copy=$(mktemp -d /var/tmp/idgen-demo-copy.XXXXXX)
git ls-files -z | xargs -0 cp --parents -t "$copy"
chown -R "$user" "$copy"
chmod 755 "$copy"
as_user() { runuser -u "$user" -- bash -c "cd '$copy' && $1" 2>&1; }
user_out=$(as_user 'bash docs/demo.sh')
user_status=$?
check "as an ordinary user with this idgen installed, the demo uses it and runs to the end" \
  '[ $user_status -eq 0 ] && grep -q "using the idgen installed" <<<"$user_out" && grep -q "^The demo ran to the end.$" <<<"$user_out"' \
  "$user_out"
# A checkout whose install script differs is not the installed idgen: the demo stops and says
# what to run as root.
as_user "echo '-- changed' >>sql/idgen.sql" >/dev/null
user_out=$(as_user 'bash docs/demo.sh')
# shellcheck disable=SC2034  # read by the condition that check evaluates
user_status=$?
check "with a different idgen installed, the ordinary user's demo stops and names 'sudo make install'" \
  '[ $user_status -ne 0 ] && grep -q "sudo make install" <<<"$user_out" && ! grep -q "The demo ran" <<<"$user_out"' \
  "$user_out"
rm -rf "$copy"
