#!/usr/bin/env bash
# Checks a PGXN release archive (make dist): META.json parses and has the keys the PGXN meta spec
# 1.0.0 requires, with the control file's version everywhere (idgen and its SQL edition idgen_sql);
# the archive holds the install scripts' sources under one idgen-<version>/ prefix, and no build
# output.
# Usage: bash test/lint/dist_check.sh build/idgen-<version>.zip <version>
set -uo pipefail
archive=$1 version=$2
fail() { echo "dist-check: $*"; exit 1; }
[ -f "$archive" ] || fail "no archive $archive"
listing=$(unzip -Z1 "$archive") || fail "not a zip archive"
prefix="idgen-$version/"
meta=$(unzip -p "$archive" "${prefix}META.json") || fail "no META.json at ${prefix}META.json"
echo "$meta" | jq -e . >/dev/null || fail "META.json is not valid JSON"
for key in name abstract version maintainer license provides meta-spec; do
  echo "$meta" | jq -e --arg k "$key" 'has($k)' >/dev/null || fail "META.json lacks \"$key\""
done
[ "$(echo "$meta" | jq -r .name)" = idgen ] || fail "META.json name is not idgen"
[ "$(echo "$meta" | jq -r .version)" = "$version" ] || fail "META.json version is not $version"
[ "$(echo "$meta" | jq -r '.provides.idgen.version')" = "$version" ] ||
  fail "META.json provides.idgen.version is not $version"
[ "$(echo "$meta" | jq -r '.provides.idgen_sql.version')" = "$version" ] ||
  fail "META.json provides.idgen_sql.version is not $version"
[ "$(echo "$meta" | jq -r '."meta-spec".version')" = 1.0.0 ] || fail "meta-spec version is not 1.0.0"
echo "$meta" | jq -e '.release_status | IN("stable", "testing", "unstable")' >/dev/null ||
  fail "release_status must be stable, testing or unstable"
echo "$meta" | jq -e '.license | IN("postgresql", "bsd", "mit", "apache_2_0", "gpl_3", "lgpl_3_0")' \
  >/dev/null || fail "license is not a PGXN license name"
for f in "$(echo "$meta" | jq -r '.provides.idgen.file')" "$(echo "$meta" | jq -r '.provides.idgen.docfile')" \
         "$(echo "$meta" | jq -r '.provides.idgen_sql.file')" "$(echo "$meta" | jq -r '.provides.idgen_sql.docfile')" \
         idgen.control idgen_sql.control Makefile README.md sql/idgen.sql src/core/uuid.hpp src/pg/module.cpp; do
  grep -qx "$prefix$f" <<<"$listing" || fail "the archive lacks $f"
done
grep -v "^$prefix" <<<"$listing" | grep -q . && fail "entries outside $prefix"
grep -E '\.(o|bc|so|d)$|/build/|/results/' <<<"$listing" && fail "build output in the archive"
echo "dist-check: $archive is a valid PGXN archive of idgen $version ($(wc -l <<<"$listing") entries)"
