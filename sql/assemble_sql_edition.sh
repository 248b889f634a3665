#!/usr/bin/env bash
# Prints the SQL edition's source (sql/idgen_sql/*.sql, in name order) for the Makefile's three
# outputs. A function that needs no C and is the same in both editions is written once, in
# sql/idgen.sql: a source line "-- @from sql/idgen.sql: NAME" stands for that file's definition of
# idgen.NAME (the comment lines right above its CREATE FUNCTION, down to its COMMENT's text line).
# A NAME that sql/idgen.sql does not define is an error, so the edition never lacks it silently.
set -euo pipefail
cd "$(dirname "$0")/.."

# definition NAME: sql/idgen.sql's comment, CREATE FUNCTION and COMMENT of idgen.NAME.
definition() {
  awk -v name="$1" '
    { line[NR] = $0 }
    END {
      for (i = 1; i <= NR; i++) if (index(line[i], "CREATE FUNCTION idgen." name "(") == 1) break
      if (i > NR) exit 1
      start = i
      while (start > 1 && line[start - 1] ~ /^-- / ) start--
      for (j = i; j <= NR; j++) if (index(line[j], "COMMENT ON FUNCTION idgen." name "(") == 1) break
      if (j >= NR) exit 1
      for (k = start; k <= j + 1; k++) print line[k]
    }' sql/idgen.sql
}

for source in $(printf '%s\n' sql/idgen_sql/*.sql | sort); do
  while IFS= read -r line || [ -n "$line" ]; do
    if [[ $line =~ ^--\ @from\ sql/idgen\.sql:\ ([a-z0-9_]+)$ ]]; then
      definition "${BASH_REMATCH[1]}" ||
        { echo "$source: sql/idgen.sql defines no function idgen.${BASH_REMATCH[1]}" >&2; exit 1; }
    else
      printf '%s\n' "$line"
    fi
  done <"$source"
done
