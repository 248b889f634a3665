#!/usr/bin/env bash
# Which TAP tests run where is written in each test, not in a list elsewhere: every test/t script
# has exactly one header line "# idgen-test: majors=all|15|15,18 tier=quick|full" (test/lib/tap.sh,
# tap_tests, reads it; test/README.md explains the values). A script without one, with two, or
# with another value would run nowhere or somewhere unintended: this check fails on it. Run from
# the repository's root (make tap-header-check).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

bad=0 checked=0
for file in test/t/*.pl; do
  checked=$((checked + 1))
  headers=$(grep -c '^# idgen-test:' "$file")
  if ((headers != 1)); then
    echo "$file: $headers '# idgen-test:' header lines (want one)"
    bad=$((bad + 1))
  elif ! grep -qxE '# idgen-test: majors=(all|[0-9]+(,[0-9]+)*) tier=(quick|full)' "$file"; then
    echo "$file: $(grep '^# idgen-test:' "$file"): want '# idgen-test: majors=all|15|15,18 tier=quick|full'"
    bad=$((bad + 1))
  fi
done
((checked > 0)) || { echo "no test/t/*.pl found"; exit 1; }
((bad == 0)) || exit 1
echo "$checked TAP tests, each with its header"
