# shellcheck shell=bash
# The SQL edition's regression tests (test/sql_edition/sql, expected output in
# test/sql_edition/expected): each script runs against both editions with the same expected file,
# which proves that they print the same; scripts named sql_only_* concern what only idgen_sql has
# (its settings) and run against it alone. Source test/lib/clusters.sh and test/lib/regress.sh
# first. Both editions must be installed in the installation that PG_CONFIG names, with pgcrypto.

# sql_edition_tests EDITION: the scripts that run against EDITION (idgen or idgen_sql).
sql_edition_tests() {
  local file name
  for file in test/sql_edition/sql/*.sql; do
    [ -e "$file" ] || continue
    name=$(basename "$file" .sql)
    [ "$1" = idgen ] && [[ $name == sql_only_* ]] && continue
    echo "$name"
  done
}

# run_sql_edition_regress PG_CONFIG EDITION LOG: pg_regress in a temporary instance, the database
# holding pgcrypto and EDITION (idgen is loaded per backend). Writes pg_regress's output to LOG and
# its diffs to LOG.diffs. Returns pg_regress's status.
run_sql_edition_regress() {
  local pg_config=$1 edition=$2 log=$3 work tests status
  tests=$(sql_edition_tests "$edition" | tr '\n' ' ')
  work=$(mktemp -d /tmp/idgen-sql-edition.XXXXXX)
  (cd test/sql_edition && copy_for_server "$work")
  # idgen's Snowflake ids need a node number; the same server setting as the main suite's.
  echo "idgen.node_id = 5" >"$work/server.conf"
  [ "$(id -u)" = 0 ] && chown postgres: "$work/server.conf"
  # shellcheck disable=SC2086  # the test names are words
  (cd "$work" && as_server "$("$pg_config" --pkglibdir)/pgxs/src/test/regress/pg_regress" \
    --temp-instance="$work/instance" --bindir="$("$pg_config" --bindir)" --inputdir=. \
    --temp-config="$work/server.conf" --dbname=contrib_regression \
    --load-extension=pgcrypto --load-extension="$edition" $tests) >"$log" 2>&1
  status=$?
  [ -f "$work/regression.diffs" ] && cp "$work/regression.diffs" "$log.diffs"
  [ -n "${IDGEN_REGRESS_RESULTS:-}" ] && cp -r "$work/results/." "$IDGEN_REGRESS_RESULTS/"
  rm -rf "$work"
  return $status
}
