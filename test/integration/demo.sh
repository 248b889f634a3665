#!/usr/bin/env bash
# The README's demo (docs/demo.sql) runs to the end in a throwaway cluster and shows what it
# promises: ids, their prefixes and the validation verdicts. Prints TAP lines.
set -uo pipefail
cd "$(dirname "$0")/../.."
out=$(pg_virtualenv psql -X -q -f docs/demo.sql 2>&1)
status=$?
if [ $status -eq 0 ] && grep -q 'accepted_with_its_instant' <<<"$out"; then
  echo "ok - the demo runs to the end"
else
  echo "not ok - the demo failed (exit $status)"
  echo "$out"
fi
if grep -q '6dc0' <<<"$out" && grep -q 'COMB check failed: prefix outside the tolerance' <<<"$out"; then
  echo "ok - the demo shows the 6dc0 prefix and a rejected id"
else
  echo "not ok - the demo output lacks the prefix example or the rejection"
fi
