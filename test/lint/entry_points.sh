#!/usr/bin/env bash
# Code-reading tools find every SQL entry point by its C name. sql/idgen.sql names the C symbol of
# each function ('MODULE_PATHNAME', 'idgen_comb_valid'); the code defines them through the
# IDGEN_SQL_FUNCTION macro, which ctags alone would list as ten functions called
# IDGEN_SQL_FUNCTION. .ctags.d/idgen.ctags expands the macro: with it, Universal Ctags must tag
# every symbol the SQL names as a function at its definition, and without it must not (so the
# check cannot pass vacuously). Run from the repository's root (make entry-points-check); CTAGS
# names the Universal Ctags to run (default ctags).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

symbols=$(grep -oE "'MODULE_PATHNAME', *'[A-Za-z0-9_]+'" sql/idgen.sql | sed -E "s/.*'([A-Za-z0-9_]+)'$/\1/" | sort -u)
[ -n "$symbols" ] || { echo "no C symbols found in sql/idgen.sql"; exit 1; }

# tagged_definitions [ctags options]: "name file:line" of each function tag at an
# IDGEN_SQL_FUNCTION(name) line.
tagged_definitions() {
  "${CTAGS:-ctags}" "$@" -x --languages=C++ -R src/pg |
    awk '$2 == "function" && index($0, "IDGEN_SQL_FUNCTION(" $1 ")") { print $1 }' | sort -u
}

with=$(tagged_definitions)
missing=$(comm -23 <(echo "$symbols") <(echo "$with"))
if [ -n "$missing" ]; then
  echo "ctags (with .ctags.d/idgen.ctags) does not find these SQL entry points by their C name:"
  # shellcheck disable=SC2001  # indents every line of the list
  echo "$missing" | sed 's/^/  /'
  exit 1
fi
without=$(tagged_definitions --options=NONE 2>/dev/null)
if [ -n "$(comm -12 <(echo "$symbols") <(echo "$without"))" ]; then
  echo "ctags finds entry points without .ctags.d/idgen.ctags: this check proves nothing"
  exit 1
fi
echo "ctags finds all $(echo "$symbols" | wc -l) SQL entry points by their C name"
