# idgen: PGXS build of the extension, plus the project's own targets (unit tests, lint, format,
# demo, test). `make` builds the module, `make install` installs it into the PostgreSQL that
# pg_config names, `make installcheck` runs pg_regress against a running server.

EXTENSION   = idgen idgen_sql
MODULE_big  = idgen
# Install scripts: sql/idgen.sql is the current SQL surface, from which the current version's
# script is made (see below); released versions' scripts and upgrade scripts ship as they are.
CURRENT_SCRIPT = build/idgen--$(CONTROL_VERSION).sql
# Direct update scripts from the releases whose own scripts do not check the library (see below).
UNCHECKED_RELEASES = 0.1.0 0.2.0
UPDATE_SHORTCUTS = $(UNCHECKED_RELEASES:%=build/idgen--%--0.4.0.sql)
DATA_built  = $(CURRENT_SCRIPT) $(UPDATE_SHORTCUTS) $(SQL_EDITION_SCRIPT)
DATA        = $(wildcard sql/idgen--*.sql)
# pg_regress scripts: every sql/<name>.sql but the install and upgrade scripts, with expected
# output in expected/<name>.out; setup (which creates the extension) first, the rest in name order.
# core_* test functions that only later majors have in core and are added below by major.
REGRESS_SCRIPTS = $(filter-out idgen idgen--%,$(basename $(notdir $(wildcard sql/*.sql))))
REGRESS     = setup $(filter-out setup core_%,$(REGRESS_SCRIPTS))

CORE_SRCS   = $(wildcard src/core/*.cpp)
PG_SRCS     = $(wildcard src/pg/*.cpp src/pg/*/*.cpp)
OBJS        = $(CORE_SRCS:.cpp=.o) $(PG_SRCS:.cpp=.o)

# IDGEN_VERSION: the control file's version, which the module's magic block carries (18+).
CONTROL_VERSION = $(shell sed -n "s/^default_version *= *'\(.*\)'/\1/p" $(CURDIR)/idgen.control)
PG_CPPFLAGS = -I$(CURDIR)/src -DIDGEN_VERSION=\"$(CONTROL_VERSION)\"
PG_CXXFLAGS = -std=c++17 -Wno-register -Wextra
ifeq ($(WERROR),1)
PG_CXXFLAGS += -Werror
endif
# x86-64: cmpxchg16b for the lock-free 128-bit generator states (src/pg/generators/generator_state.hpp, steps.cpp).
ifeq ($(shell uname -m),x86_64)
PG_CXXFLAGS += -mcx16
endif
SHLIB_LINK  = -lcrypto -lstdc++
# Header dependencies of every object (gcc writes src/*/x.d beside x.o), so changing a header
# rebuilds what includes it instead of linking stale objects.
PG_CXXFLAGS += -MMD -MP

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# Glue code cannot throw or catch: every src/pg object but the error bridge, which holds the one
# try/catch around SQL functions (src/pg/error_bridge.hpp), is compiled without exceptions.
GLUE_OBJS_WITHOUT_EXCEPTIONS = $(filter-out src/pg/error_bridge.o,$(PG_SRCS:.cpp=.o))
$(GLUE_OBJS_WITHOUT_EXCEPTIONS): override CXXFLAGS += -fno-exceptions
$(GLUE_OBJS_WITHOUT_EXCEPTIONS:.o=.bc): override BITCODE_CXXFLAGS += -fno-exceptions

# Tests of how idgen relates to what later majors added to core (pg_input_is_valid in 16,
# uuid_extract_* in 17, uuidv7, crc32c and virtual generated columns in 18). A core_* script that
# is in none of the lists stops the build, so none is skipped silently.
CORE_TESTS_16 = core_input_errors
CORE_TESTS_17 = core_uuid_extract
CORE_TESTS_18 = core_uuidv7 core_crc32c_generated
UNPLACED_CORE_TESTS = $(filter-out $(CORE_TESTS_16) $(CORE_TESTS_17) $(CORE_TESTS_18),$(filter core_%,$(REGRESS_SCRIPTS)))
ifneq ($(UNPLACED_CORE_TESTS),)
$(error sql/$(firstword $(UNPLACED_CORE_TESTS)).sql: add it to CORE_TESTS_<major> in the Makefile)
endif
ifeq ($(shell test $(MAJORVERSION) -ge 16 && echo yes),yes)
REGRESS += $(CORE_TESTS_16)
endif
ifeq ($(shell test $(MAJORVERSION) -ge 17 && echo yes),yes)
REGRESS += $(CORE_TESTS_17)
endif
ifeq ($(shell test $(MAJORVERSION) -ge 18 && echo yes),yes)
REGRESS += $(CORE_TESTS_18)
endif

# The current version's install script: sql/idgen.sql under a first line that names the version
# and says where to edit. Released versions have no script of their own but the frozen base
# (sql/idgen--0.1.0.sql): PostgreSQL installs them by running the base and the update chain
# (CONTRIBUTING.md, "Adding a SQL function end to end", step 3). A control file whose version
# has a committed script is the base's or a mistake: the build stops.
$(CURRENT_SCRIPT): sql/idgen.sql idgen.control
	@if [ -e sql/idgen--$(CONTROL_VERSION).sql ]; then \
	  echo "sql/idgen--$(CONTROL_VERSION).sql exists: bump default_version in idgen.control"; exit 1; fi
	@mkdir -p $(dir $@)
	{ echo "-- idgen $(CONTROL_VERSION), made by make from sql/idgen.sql: edit that file."; \
	  cat sql/idgen.sql; } >$@

# Updates from the releases before 0.4.0 begin with their frozen scripts, which do not check the
# library the session runs (the first block of sql/idgen.sql and of every update script from
# 0.4.0 on): with the library that was loaded before 0.4.0 was installed (a server not restarted
# yet), they would stop at PostgreSQL's "could not find function" on a C function that library
# lacks. So each of them also gets a direct script to 0.4.0: that block, then the scripts of the
# chain, unchanged. PostgreSQL takes the shortest update path, so the check comes first.
build/idgen--0.1.0--0.4.0.sql: sql/idgen--0.1.0--0.2.0.sql
build/idgen--0.1.0--0.4.0.sql build/idgen--0.2.0--0.4.0.sql: sql/idgen--0.2.0--0.3.0.sql
$(UPDATE_SHORTCUTS): sql/idgen--0.3.0--0.4.0.sql
	@mkdir -p $(dir $@)
	{ echo "-- idgen $(subst --, -> ,$(patsubst build/idgen--%.sql,%,$@)) in one step, made by make: the check of the"; \
	  echo "-- library, then the scripts of the chain (the Makefile says why)."; \
	  printf '%s\n' '\echo Use "ALTER EXTENSION idgen UPDATE" to load this file. \quit'; \
	  sed -n "/^LOAD 'MODULE_PATHNAME';$$/,/^\$$library_check\$$;$$/p" sql/idgen--0.3.0--0.4.0.sql; \
	  cat $(sort $^); } >$@
	@grep -q '^\$$library_check\$$;$$' $@ || { echo "$@: no library check in sql/idgen--0.3.0--0.4.0.sql"; rm -f $@; exit 1; }

# ---- the SQL edition, idgen_sql --------------------------------------------------------------
# One source, sql/idgen_sql/*.sql in name order (version-less, like sql/idgen.sql), and three
# files made from it: the extension's script, a plain script for servers that allow no extension
# (psql -f, migration tools), and a pg_tle installer (pgtle.install_extension, then CREATE
# EXTENSION idgen_sql with no file on the server). Its version is idgen's. A function the two
# editions share as it is (PL/pgSQL that needs no C) is written once, in sql/idgen.sql:
# sql/assemble_sql_edition.sh puts it where a source names it.
SQL_EDITION_SOURCES = $(sort $(wildcard sql/idgen_sql/*.sql)) sql/idgen.sql sql/assemble_sql_edition.sh
SQL_EDITION_ASSEMBLE = bash sql/assemble_sql_edition.sh
# (the folder is a prerequisite too: removing a source changes its time, not the others')
SQL_EDITION_VERSION = $(shell sed -n "s/^default_version *= *'\(.*\)'/\1/p" $(CURDIR)/idgen_sql.control)
SQL_EDITION_SCRIPT  = build/idgen_sql--$(SQL_EDITION_VERSION).sql
SQL_EDITION_FILES   = $(SQL_EDITION_SCRIPT) build/idgen_sql.sql build/idgen_sql_pg_tle.sql
all: $(SQL_EDITION_FILES)

$(SQL_EDITION_SCRIPT): $(SQL_EDITION_SOURCES) sql/idgen_sql idgen_sql.control idgen.control
	@[ "$(SQL_EDITION_VERSION)" = "$(CONTROL_VERSION)" ] || \
	  { echo "idgen_sql.control says $(SQL_EDITION_VERSION), idgen.control $(CONTROL_VERSION): they ship together"; exit 1; }
	@mkdir -p $(dir $@)
	{ echo "-- idgen_sql $(SQL_EDITION_VERSION), made by make from sql/idgen_sql/*.sql: edit those files."; \
	  printf '%s\n' '\echo Use "CREATE EXTENSION idgen_sql" to load this file. \quit'; \
	  $(SQL_EDITION_ASSEMBLE); } >$@

# The plain script: the same objects in one transaction, without the extension mechanism. Names
# in function bodies are resolved when the script runs, so it pins the search_path (CREATE
# EXTENSION does the same for its script).
build/idgen_sql.sql: $(SQL_EDITION_SOURCES) sql/idgen_sql idgen_sql.control
	@mkdir -p $(dir $@)
	{ echo "-- idgen_sql $(SQL_EDITION_VERSION), the SQL edition of idgen as a plain script: psql -f idgen_sql.sql"; \
	  echo "-- (made by make from sql/idgen_sql/*.sql). Needs pgcrypto in the database; makes schemas"; \
	  echo "-- idgen and idgen_internal. docs/sql-edition.md says more."; \
	  echo "\\set ON_ERROR_STOP on"; \
	  echo "BEGIN;"; \
	  echo "SET LOCAL search_path = pg_catalog, pg_temp;"; \
	  echo "CREATE SCHEMA idgen;"; \
	  $(SQL_EDITION_ASSEMBLE) | sed 's/@extowner@/CURRENT_USER/g'; \
	  echo "COMMIT;"; } >$@

# The pg_tle installer: the extension's script as the argument of pgtle.install_extension. The
# dollar quote's tag must not occur in the sources.
build/idgen_sql_pg_tle.sql: $(SQL_EDITION_SOURCES) sql/idgen_sql idgen_sql.control
	@mkdir -p $(dir $@)
	@! $(SQL_EDITION_ASSEMBLE) | grep -q 'idgen_sql_script\$$' || { echo "a source holds the installer's dollar quote tag"; exit 1; }
	{ echo "-- idgen_sql $(SQL_EDITION_VERSION) for pg_tle: psql -f idgen_sql_pg_tle.sql, then CREATE EXTENSION idgen_sql"; \
	  echo "-- (made by make from sql/idgen_sql/*.sql). Needs pg_tle 1.5 or later and the pgtle_admin role."; \
	  echo "\\set ON_ERROR_STOP on"; \
	  echo "SELECT pgtle.install_extension('idgen_sql', '$(SQL_EDITION_VERSION)',"; \
	  echo "  $$(sed -n "s/^comment *= *\(.*\)/\1/p" idgen_sql.control),"; \
	  echo "\$$idgen_sql_script\$$"; \
	  $(SQL_EDITION_ASSEMBLE); \
	  echo "\$$idgen_sql_script\$$, ARRAY['pgcrypto'], 'idgen');"; } >$@

# The update scripts make writes (test/t/011_extension_update.pl).
print-update-shortcuts:
	@echo $(notdir $(UPDATE_SHORTCUTS))

# The regression tests of this installation, for scripts (test/lib/regress.sh).
print-regress:
	@echo $(REGRESS)

# Debian's server is built with LLVM JIT, so PGXS also compiles every .cpp to bitcode with clang,
# without PG_CXXFLAGS (hence as C++14). Must come after the include, or PGXS overwrites it.
override BITCODE_CXXFLAGS += -std=c++17 -Wno-register $(if $(filter x86_64,$(shell uname -m)),-mcx16)
-include $(OBJS:.o=.d)

# ---- project targets ---------------------------------------------------------------------------

# The tools of the project's targets, each overridable: `make lint CLANG_FORMAT=clang-format-16`.
# PYTHON is PGXS's (the interpreter the server was configured with), empty when the server had
# none; the lint's scripts then use Debian's.
ifeq ($(PYTHON),)
PYTHON = /usr/bin/python3
endif
CLANGXX      ?= clang++-14
CLANG_FORMAT ?= clang-format
CPPCHECK     ?= cppcheck
CTAGS        ?= ctags
SHELLCHECK   ?= shellcheck
PERLCRITIC   ?= perlcritic
FLAKE8       ?= flake8

BUILD_DIR      = build
UNIT_SRCS      = $(wildcard test/unit/*.cpp)
UNIT_CXXFLAGS  = -std=c++17 -O2 -g -Wall -Wextra -Werror -I$(CURDIR)/src \
                 -DIDGEN_VECTORS_DIR=\"$(CURDIR)/test/vectors\"
UNIT_LIBS      = -lgtest -lgtest_main -pthread -lcrypto

# The unit tests compile src/core without any PostgreSQL include path, which also proves that no
# PostgreSQL header leaks into the pure core.
$(BUILD_DIR)/unit_tests: $(CORE_SRCS) $(UNIT_SRCS) $(wildcard src/core/*.hpp test/unit/*.hpp)
	@mkdir -p $(BUILD_DIR)
	$(CXX) $(UNIT_CXXFLAGS) $(CORE_SRCS) $(UNIT_SRCS) $(UNIT_LIBS) -o $@

# libFuzzer targets for every decoder in src/core (clang, with ASan and UBSan). `make fuzz` runs
# each for FUZZ_RUNS executions from its committed corpus (test/fuzz/corpus/<name>); set
# FUZZ_SECONDS instead for a time bound. Crashes land in build/fuzz/.
# Inputs stop at FUZZ_MAX_LEN bytes: every text a decoder accepts is under 100 bytes (the longest
# is a TypeID's 90), so 512 still reaches every too-long path; libFuzzer's default of 4096 only
# made runs dearer (event_id, which also builds and hashes a genesis of its input, took 409 s).
# The slowest target is listed first so that `make -j2 fuzz` runs the others beside it.
FUZZ_SLOWEST = $(BUILD_DIR)/fuzz/event_id
FUZZ_TARGETS = $(FUZZ_SLOWEST) $(filter-out $(FUZZ_SLOWEST),\
  $(patsubst test/fuzz/fuzz_%.cpp,$(BUILD_DIR)/fuzz/%,$(wildcard test/fuzz/fuzz_*.cpp)))
FUZZ_RUNS    = 2000000
FUZZ_MAX_LEN = 512
FUZZ_LIMIT   = $(if $(FUZZ_SECONDS),-max_total_time=$(FUZZ_SECONDS),-runs=$(FUZZ_RUNS)) \
  -max_len=$(FUZZ_MAX_LEN)

$(BUILD_DIR)/fuzz/%: test/fuzz/fuzz_%.cpp $(CORE_SRCS) $(wildcard src/core/*.hpp)
	@mkdir -p $(BUILD_DIR)/fuzz
	$(CLANGXX) -std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	  -I$(CURDIR)/src $< $(CORE_SRCS) -lcrypto -o $@

# Google Benchmark of CRC-32C (bench/crc32c_benchmark.cpp), optimised as the extension is.
$(BUILD_DIR)/crc32c_benchmark: bench/crc32c_benchmark.cpp src/core/crc32c.cpp src/core/crc32c.hpp
	@mkdir -p $(BUILD_DIR)
	$(CXX) -std=c++17 -O2 -Wall -Wextra -Werror -I$(CURDIR)/src $< src/core/crc32c.cpp \
	  -lbenchmark -pthread -o $@

bench-crc32c: $(BUILD_DIR)/crc32c_benchmark
	$(BUILD_DIR)/crc32c_benchmark

# Google Benchmark of the base62 decoders (bench/base62_benchmark.cpp), optimised as the
# extension is.
$(BUILD_DIR)/base62_benchmark: bench/base62_benchmark.cpp src/core/base62.cpp src/core/base62.hpp
	@mkdir -p $(BUILD_DIR)
	$(CXX) -std=c++17 -O2 -Wall -Wextra -Werror -I$(CURDIR)/src $< src/core/base62.cpp \
	  -lbenchmark -pthread -o $@

bench-base62: $(BUILD_DIR)/base62_benchmark
	$(BUILD_DIR)/base62_benchmark

# Every target that names no file (PGXS declares its own).
.PHONY: help print-regress print-update-shortcuts unit unit-binaries unit-sanitized fuzz \
        bench-crc32c bench-base62 format format-check header-check cppcheck glue-check sql-style \
        glue-check-selftest spinlock-check prove_installcheck entry-points-check shell-lint \
        perl-lint python-lint tap-header-check released-scripts-check lint dist dist-check demo test test-quick clean-project
# One run per target (never a file, so every `make fuzz` runs them all): `make -j2 fuzz` builds and
# runs two targets at a time.
fuzz: $(FUZZ_TARGETS:%=%.run)
$(BUILD_DIR)/fuzz/%.run: $(BUILD_DIR)/fuzz/%
	@mkdir -p $(BUILD_DIR)/fuzz/corpus-$*
	@echo "fuzz $*"
	@$< $(FUZZ_LIMIT) -artifact_prefix=$(BUILD_DIR)/fuzz/$*- \
	  $(BUILD_DIR)/fuzz/corpus-$* test/fuzz/corpus/$* >$(BUILD_DIR)/fuzz/$*.log 2>&1 \
	  || { cat $(BUILD_DIR)/fuzz/$*.log; exit 1; }
	@tail -n 1 $(BUILD_DIR)/fuzz/$*.log

# Both unit test binaries (`make -j2 unit-binaries` compiles them side by side).
unit-binaries: $(BUILD_DIR)/unit_tests $(BUILD_DIR)/unit_tests_sanitized

unit: $(BUILD_DIR)/unit_tests
	$(BUILD_DIR)/unit_tests

# The same unit tests under AddressSanitizer and UndefinedBehaviorSanitizer: any finding aborts.
$(BUILD_DIR)/unit_tests_sanitized: $(CORE_SRCS) $(UNIT_SRCS) $(wildcard src/core/*.hpp test/unit/*.hpp)
	@mkdir -p $(BUILD_DIR)
	$(CXX) $(UNIT_CXXFLAGS) -O1 -fno-omit-frame-pointer -fsanitize=address,undefined \
	  -fno-sanitize-recover=all $(CORE_SRCS) $(UNIT_SRCS) $(UNIT_LIBS) -o $@

unit-sanitized: $(BUILD_DIR)/unit_tests_sanitized
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  $(BUILD_DIR)/unit_tests_sanitized

CPP_FILES = $(wildcard src/core/*.[ch]pp src/pg/*.[ch]pp src/pg/*/*.[ch]pp test/unit/*.[ch]pp test/fuzz/*.cpp bench/*.cpp)

format:
	$(CLANG_FORMAT) -i $(CPP_FILES)

format-check:
	$(CLANG_FORMAT) --dry-run --Werror $(CPP_FILES)

# src/core is the pure side of the wall: its quoted includes are core headers only, its angle
# includes system headers that no PostgreSQL header shares a name with. (The unit build, which
# has no PostgreSQL include path, is the second fence.)
PG_HEADER_NAMES = postgres|postgres_ext|c|pg_config|fmgr|funcapi|miscadmin|access|catalog|commands|common|datatype|executor|lib|libpq|mb|nodes|optimizer|parser|port|storage|tcop|utils
header-check:
	@! grep -nE '^ *# *include *"' src/core/*.[ch]pp | grep -vE '#include "core/[a-z0-9_]+\.hpp"' \
	  || { echo "src/core may include only core/ headers with quotes"; exit 1; }
	@! grep -nE '^ *# *include *<($(PG_HEADER_NAMES))(\.h>|/)' src/core/*.[ch]pp \
	  || { echo "src/core must not include PostgreSQL headers"; exit 1; }

cppcheck:
	$(CPPCHECK) --quiet --error-exitcode=1 --std=c++17 --language=c++ \
	  --enable=warning,performance,portability --library=googletest --library=openssl --library=posix \
	  --inline-suppr -I src src/core src/pg test/unit

# The glue's boundary rules the compiler cannot see (test/lint/glue_rules.py), and the proof that
# each boundary check (the compiler's and the lint's) and the SQL layout check fire on a
# deliberately broken copy.
glue-check:
	$(PYTHON) test/lint/glue_rules.py

# The one layout of sql/idgen.sql (test/lint/sql_style.py).
sql-style:
	$(PYTHON) test/lint/sql_style.py
	@for f in $(wildcard sql/idgen_sql/*.sql); do $(PYTHON) test/lint/sql_style.py $$f || exit 1; done

glue-check-selftest:
	PG_CONFIG=$(PG_CONFIG) PYTHON=$(PYTHON) bash test/lint/glue_rules_selftest.sh

# The shared generator states have a lock-free form (x86-64's cmpxchg16b) and a spinlock form
# (every other CPU, arm64 included); the build here compiles the first, this the second.
spinlock-check:
	$(CXX) $(CXXFLAGS) $(CPPFLAGS) -U__GCC_HAVE_SYNC_COMPARE_AND_SWAP_16 -fsyntax-only \
	  src/pg/generators/generator_state.cpp src/pg/generators/steps.cpp

# make prove_installcheck [PROVE_TESTS="test/t/052_snowflake_setup.pl ..."]: the TAP tests (all of
# test/t by default) on the PostgreSQL that PG_CONFIG names, which must hold this idgen (make
# install first). Each test makes its own throwaway clusters; as root they run as postgres.
prove_installcheck:
	@log=$$(mktemp /tmp/idgen-prove.XXXXXX); \
	  bash -c 'source test/lib/clusters.sh && source test/lib/tap.sh && \
	    run_tap "$$0" "$$1" $(PROVE_TESTS)' "$(PG_CONFIG)" "$$log"; status=$$?; \
	  cat "$$log"; rm -f "$$log"; exit $$status

# Universal Ctags finds every SQL entry point by its C name (.ctags.d/idgen.ctags).
entry-points-check:
	CTAGS=$(CTAGS) bash test/lint/entry_points.sh

# The scripts of the repository, by language: the tracked files with the language's extensions,
# and those whose #! line names its interpreter (.ci/run). Found when a lint target runs, in the
# checkout (git ls-files).
tracked_scripts = $(sort $(shell git ls-files $(1)) \
  $(shell git ls-files -z | xargs -0 awk 'FNR == 1 { if ($$0 ~ /^\#!.*[\/ ]($(2))([ \t]|$$)/) print FILENAME; nextfile }' 2>/dev/null))
SHELL_SCRIPTS = $(call tracked_scripts,'*.sh',(ba)?sh)
PERL_SCRIPTS  = $(call tracked_scripts,'*.pl' '*.pm',perl)
PYTHON_SCRIPTS = $(call tracked_scripts,'*.py',python3?)

# shellcheck on every shell script, at its default severity (settings in .shellcheckrc).
shell-lint:
	$(SHELLCHECK) $(SHELL_SCRIPTS)

# perlcritic on the Perl of the TAP tests (.perlcriticrc), then perl -c with the PostgreSQL TAP
# framework of the installation PG_CONFIG names (PostgreSQL::Test::Cluster) and test/perl; a
# compile-time warning fails it too.
perl-lint:
	$(PERLCRITIC) --quiet --profile .perlcriticrc $(PERL_SCRIPTS)
	@status=0; tap_perl=$$($(PG_CONFIG) --pkglibdir)/pgxs/src/test/perl; \
	  for f in $(PERL_SCRIPTS); do \
	    out=$$($(PERL) -c -I "$$tap_perl" -I test/perl "$$f" 2>&1) || status=1; \
	    [ "$$out" = "$$f syntax OK" ] || { echo "$$out"; status=1; }; \
	  done; exit $$status

# flake8 (pyflakes and pycodestyle) on every Python file (settings in .flake8).
python-lint:
	$(FLAKE8) $(PYTHON_SCRIPTS)

# Every TAP test says in its header where it runs (test/lint/tap_headers.sh).
tap-header-check:
	bash test/lint/tap_headers.sh

# Released versions stay as released: their scripts unchanged, their CHANGELOG sections dated
# (test/lint/released_scripts.sh; needs the git history).
released-scripts-check:
	bash test/lint/released_scripts.sh

lint: format-check header-check glue-check glue-check-selftest sql-style cppcheck dist-check \
      spinlock-check entry-points-check tap-header-check released-scripts-check shell-lint perl-lint \
      python-lint

# PGXN release archive of the committed tree (HEAD), named after the control file's version.
DIST_VERSION = $(CONTROL_VERSION)
DIST_FILE    = $(BUILD_DIR)/idgen-$(DIST_VERSION).zip
dist:
	@mkdir -p $(BUILD_DIR)
	git archive --format=zip --prefix=idgen-$(DIST_VERSION)/ -o $(DIST_FILE) HEAD
	@echo "$(DIST_FILE)"

# The archive is what PGXN expects: META.json valid against the PGXN meta spec's required keys,
# its versions equal to the control file's, the install script and sources inside, no build output.
dist-check: dist
	bash test/lint/dist_check.sh $(DIST_FILE) $(DIST_VERSION)

demo:
	bash docs/demo.sh

test:
	bash test/run-all.sh

# The inner loop: an incremental build with warnings as errors, the lint checks, the unit tests,
# the regression suite in both loading modes and the TAP tests marked tier=quick (about 5
# minutes once a full run has filled the caches). Run it before every commit.
test-quick:
	bash test/run-all.sh quick

clean: clean-project
clean-project:
	rm -rf $(BUILD_DIR) $(OBJS:.o=.d)

# The targets a contributor uses, one line each (CONTRIBUTING.md says more).
help:
	@echo 'make TARGET [PG_CONFIG=.../pg_config], for the PostgreSQL that pg_config names; the tools are'
	@echo 'variables: PYTHON CLANGXX CLANG_FORMAT CPPCHECK CTAGS SHELLCHECK PERLCRITIC FLAKE8'
	@echo '  (none)                build the extension'
	@echo '  install               install it into that PostgreSQL'
	@echo '  installcheck          pg_regress against a running server (REGRESS="setup <test>" for one)'
	@echo '  prove_installcheck    the TAP tests, each in its own clusters (PROVE_TESTS=test/t/<file>.pl)'
	@echo '  unit                  GoogleTest on src/core'
	@echo '  unit-sanitized        the same under AddressSanitizer and UndefinedBehaviorSanitizer'
	@echo '  fuzz                  every libFuzzer target (FUZZ_RUNS or FUZZ_SECONDS; make -j2 fuzz)'
	@echo '  format                clang-format the C++ in place'
	@echo '  lint                  every check below'
	@echo '  format-check          the C++ is clang-formatted'
	@echo '  header-check          src/core includes no PostgreSQL header'
	@echo '  glue-check            the glue keeps its boundary rules (test/lint/glue_rules.py)'
	@echo '  glue-check-selftest   each boundary check fires on a broken copy'
	@echo '  sql-style             sql/idgen.sql keeps its layout'
	@echo '  cppcheck              cppcheck on src and test/unit'
	@echo '  dist-check            the PGXN archive of HEAD is what PGXN expects'
	@echo '  spinlock-check        the generator states compile in their spinlock form'
	@echo '  entry-points-check    ctags finds every SQL entry point'
	@echo '  shell-lint            shellcheck on every shell script'
	@echo '  perl-lint             perlcritic and perl -c on every Perl file'
	@echo '  python-lint           flake8 on every Python file'
	@echo '  tap-header-check      every TAP test says where it runs (# idgen-test: header)'
	@echo '  released-scripts-check released versions keep their scripts and dated CHANGELOG sections'
	@echo '  test-quick            build, fast lint, unit, regression in both modes and a few TAP tests, in about 5 minutes'
	@echo '  test                  the whole test command, as CI runs it (test/run-all.sh)'
	@echo '  demo                  the README'"'"'s demo (docs/demo.sh)'
	@echo '  dist                  the PGXN archive of HEAD (build/idgen-<version>.zip)'
	@echo '  bench-crc32c          Google Benchmark of CRC-32C (also bench-base62)'
	@echo '  clean                 remove the build output'
