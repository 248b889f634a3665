#!/usr/bin/env bash
# Proves that each of the glue's boundary checks fires, and the SQL layout check: in a copy of the
# checkout, each case below breaks one rule in one file and expects the check that owns the rule
# (the lint of test/lint/glue_rules.py, the compiler building that one object, or
# test/lint/sql_style.py) to fail with its own message.
# A case that passes, or fails for another reason, is a check that stopped working. Prints TAP
# lines; exits 1 when any case is not ok.
# The cases' edits are perl substitutions in single quotes ($1 is perl's):
# shellcheck disable=SC2016
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
python=${PYTHON:-/usr/bin/python3}

work=$(mktemp -d /tmp/idgen-glue-selftest.XXXXXX)
trap 'rm -rf "$work"' EXIT
git ls-files -z --cached --others --exclude-standard src sql Makefile idgen.control test/lint | xargs -0 cp --parents -t "$work"

failed=0
ok() { echo "ok - $1"; }
not_ok() {
  echo "not ok - $1"
  # shellcheck disable=SC2001  # prefixes every line
  sed 's/^/# /' <<<"$2" | head -20
  failed=1
}

lint() { "$python" test/lint/glue_rules.py "$1" 2>&1; }
# Builds one glue object in the copy, with the flags of the real build.
compile() { make -s -C "$1" PG_CONFIG="$PG_CONFIG" "$2" 2>&1; }

# case NAME FILE EDIT CHECK EXPECTED: applies the perl substitution EDIT to FILE in a fresh copy,
# runs CHECK (lint, sql, or compile of FILE's object) and expects a failure whose output matches the
# extended regular expression EXPECTED.
case_() {
  local name=$1 file=$2 edit=$3 check=$4 expected=$5 copy out status
  copy=$(mktemp -d "$work/case.XXXXXX")
  (cd "$work" && tar cf - --exclude='./case.*' .) | tar xf - -C "$copy"
  perl -0pi -e "$edit" "$copy/$file"
  if cmp -s "$copy/$file" "$file"; then
    not_ok "$name (the edit did not change $file)" ""
    return
  fi
  if [ "$check" = lint ]; then
    out=$(lint "$copy")
  elif [ "$check" = sql ]; then
    out=$("$python" test/lint/sql_style.py "$copy/$file" 2>&1)
  else
    out=$(compile "$copy" "${file%.cpp}.o")
  fi
  status=$?
  if [ $status -ne 0 ] && grep -qE "$expected" <<<"$out"; then
    ok "$name"
  else
    not_ok "$name (exit $status, expected output matching /$expected/)" "$out"
  fi
  rm -rf "$copy"
}

# The unbroken copy passes both checks, so every failure below comes from its edit.
if out=$(lint "$work"); then
  ok "the lint passes on the checkout"
else
  not_ok "the lint passes on the checkout" "$out"
fi
if out=$("$python" test/lint/sql_style.py "$work/sql/idgen.sql"); then
  ok "the SQL layout check passes on the checkout"
else
  not_ok "the SQL layout check passes on the checkout" "$out"
fi
if out=$(compile "$work" src/pg/public_id_key.o); then
  ok "public_id_key.o builds from the checkout"
else
  not_ok "public_id_key.o builds from the checkout" "$out"
fi

case_ "a std::string on a glue stack is refused by the lint" src/pg/ulid_functions.cpp \
  's/(Uuid next_ulid\(\) \{\n)/#include <string>\n$1  std::string scratch("x");\n/' \
  lint 'ulid_functions.cpp:[0-9]+: std: std::string'
case_ "a std::unique_ptr in glue is refused by the lint" src/pg/ulid_functions.cpp \
  's/(Uuid next_ulid\(\) \{\n)/$1  std::unique_ptr<int> owned;\n/' \
  lint 'ulid_functions.cpp:[0-9]+: std: std::unique_ptr'
case_ "a struct without IDGEN_STACK_SAFE is refused by the lint" src/pg/ulid_functions.cpp \
  's/(namespace \{\n)/$1struct Unchecked {\n  int x;\n};\n/' \
  lint 'ulid_functions.cpp:[0-9]+: stack-safe: Unchecked'
case_ "a core type without IDGEN_STACK_SAFE is refused by the lint" src/core/ulid.hpp \
  's/IDGEN_STACK_SAFE\(State\);\n//' \
  lint 'ulid.hpp:[0-9]+: stack-safe: State'
case_ "a type that is not stack-safe, held on a glue stack, is refused by the lint" \
  src/pg/public_id_functions.cpp \
  's/(const AesBlockCipher& cipher_of_call\(FunctionCallInfo fcinfo\) \{\n)/$1  AesBlockCipher local;\n/' \
  lint 'public_id_functions.cpp:[0-9]+: not-on-stack: AesBlockCipher'
case_ "a GUC hook handed over without noexcept_callback is refused by the lint" \
  src/pg/public_id_key.cpp 's/noexcept_callback\(assign_key_file\)/assign_key_file/' \
  lint 'public_id_key.cpp:[0-9]+: callbacks: DefineCustomStringVariable'
case_ "a PostgreSQL hook set without noexcept_callback is refused by the lint" \
  src/pg/generators/runtime.cpp 's/noexcept_callback\(attach_shared_memory\)/attach_shared_memory/' \
  lint 'generators/runtime.cpp:[0-9]+: callbacks: shmem_startup_hook'
case_ "a sort-support comparator set without noexcept_callback is refused by the lint" \
  src/pg/uuid_like_type.cpp 's/noexcept_callback\(compare_abbreviated\)/compare_abbreviated/' \
  lint 'uuid_like_type.cpp:[0-9]+: callbacks: ->comparator'
case_ "a second relcache callback is refused by the lint" src/pg/ledger/table.cpp \
  's/(void forget_ledger_shapes\(Oid relid\) noexcept \{\n)/$1  CacheRegisterRelcacheCallback(nullptr, 0);\n/' \
  lint 'ledger/table.cpp:[0-9]+: one-callback: a second CacheRegisterRelcacheCallback'
case_ "a server header outside the C-linkage brackets is refused by the lint" \
  src/pg/generators/wait.cpp 's/(#include "pg\/generators\/wait.hpp"\n)/$1#include "utils\/memutils.h"\n/' \
  lint 'wait.cpp:[0-9]+: server-headers: #include "utils/memutils.h"'
case_ "a CREATE FUNCTION on one line is refused by the SQL layout check" sql/idgen.sql \
  's/(CREATE FUNCTION idgen.comb\(\))\nRETURNS uuid\n(AS [^\n]*)\n(LANGUAGE [^\n]*)/$1 RETURNS uuid $2 $3/' \
  sql 'idgen.sql:[0-9]+: CREATE FUNCTION line holds more than the name and parameters'
case_ "a COMMENT with its text on the same line is refused by the SQL layout check" sql/idgen.sql \
  's/(COMMENT ON FUNCTION idgen.comb\(\) IS)\n/$1 /' \
  sql 'idgen.sql:[0-9]+: COMMENT ON ... IS does not end its line'
case_ "IDGEN_STACK_SAFE on a type with a destructor fails to compile" src/pg/public_id_key.cpp \
  's/(namespace \{\n)/$1struct Owner {\n  ~Owner() {}\n};\nIDGEN_STACK_SAFE(Owner);\n/' \
  compile 'Owner must be trivially destructible'
case_ "a throw in glue code fails to compile" src/pg/public_id_key.cpp \
  's/(namespace \{\n)/$1[[maybe_unused]] void thrower() { throw 1; }\n/' \
  compile 'exception handling disabled'
case_ "a throw in the ledger's folder fails to compile (src/pg/ledger is glue too)" \
  src/pg/ledger/append.cpp 's/(namespace \{\n)/$1[[maybe_unused]] void thrower() { throw 1; }\n/' \
  compile 'exception handling disabled'
case_ "a try in glue code fails to compile" src/pg/public_id_key.cpp \
  's/(namespace \{\n)/$1[[maybe_unused]] int catcher() {\n  try {\n    return 1;\n  } catch (...) {\n    return 0;\n  }\n}\n/' \
  compile 'exception handling disabled'
case_ "a callback without noexcept fails to compile" src/pg/public_id_key.cpp \
  's/void assign_key_file\(const char\*, void\*\) noexcept/void assign_key_file(const char*, void*)/' \
  compile 'noexcept_callback'

exit $failed
