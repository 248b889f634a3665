# shellcheck shell=bash
# Shared set-up for the README's commands (docs/demo.sh, test/run-all.sh) and bench/: installs the
# Debian packages idgen needs when they are missing, then builds and installs the extension.
# Source it from the project root.

# What the demo needs: the server, its development files (PGXS, clang/LLVM for the bitcode),
# OpenSSL's headers and a C++ compiler.
IDGEN_DEMO_PACKAGES=(postgresql-15 postgresql-server-dev-15 libssl-dev make g++)
# What the tests add: GoogleTest for the unit tests, clang-format and cppcheck for the lint suite,
# clang's libFuzzer and sanitizer runtimes for the fuzz suite; git, jq and unzip to build and check
# the PGXN archive, and pgxnclient to install from it; python3 for the glue's lint; universal-ctags
# for the entry-point check of the lint suite; valgrind for
# the memory-checking run of the regression suite; IPC::Run for
# PostgreSQL's TAP framework (test/t); bison, flex and zlib to build the other PostgreSQL majors from source; the libraries
# Citus links to, to build it for the multi-node test.
# shellcheck disable=SC2034  # read by the scripts that source this file (test/run-all.sh)
IDGEN_TEST_PACKAGES=("${IDGEN_DEMO_PACKAGES[@]}" libgtest-dev clang-format cppcheck clang-14
                     libclang-rt-14-dev git jq unzip pgxnclient python3 universal-ctags valgrind libipc-run-perl bison flex
                     zlib1g-dev
                     # the linters of make lint beyond the C++ ones: shellcheck for the shell
                     # scripts, perlcritic for the TAP tests' Perl, flake8 for the Python
                     shellcheck libperl-critic-perl flake8
                     # libfaketime, preloaded into servers whose wall clock the TAP tests shift
                     # (test/perl/IdgenTest/ShiftedClock.pm)
                     faketime
                     # pg_partman 4.x for Debian's PostgreSQL 15: test/t/090 runs
                     # docs/partitioning.md's pg_partman recipe on it
                     postgresql-15-partman
                     # what Citus's configure asks for (test/lib/citus.sh builds it)
                     libcurl4-openssl-dev liblz4-dev libzstd-dev libkrb5-dev libselinux1-dev
                     libpam0g-dev libxslt1-dev)

# ensure_packages pkg...: installs the missing ones as root; otherwise prints the command and exits.
ensure_packages() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
      missing+=("$p")
  done
  ((${#missing[@]} == 0)) && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "idgen needs Debian packages that are not installed. Install them as root, then rerun:"
    echo "  apt-get install -y --no-install-recommends ${missing[*]}"
    exit 1
  fi
  echo "installing Debian packages: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" \
    >/dev/null
}

# build_and_install [make variables...]: builds the module and installs it into the PostgreSQL
# that pg_config names (system directories, so root is needed). As another user it goes on when
# that installation already holds this very idgen (same_as_installed), and otherwise prints the
# command to run as root. Returns non-zero on failure.
# (Callers run it under `if` or `||`, where bash ignores set -e, so every step checks itself.)
build_and_install() {
  make -s -j"$(nproc)" "$@" >/dev/null || return 1
  if [ "$(id -u)" -ne 0 ] && same_as_installed; then
    echo "using the idgen installed in $(pg_config --pkglibdir): it is this checkout's"
    return 0
  fi
  if ! remove_installed_scripts pg_config || ! make -s install "$@" >/dev/null 2>&1; then
    echo "could not install into $(pg_config --pkglibdir); run as root, or: sudo make install"
    return 1
  fi
}

# remove_installed_scripts PG_CONFIG: removes idgen's install and update scripts from that
# installation, so that the install that follows leaves exactly this checkout's (make install
# adds files but never removes one, such as the script of a version that is now made by the
# update chain).
remove_installed_scripts() {
  local dir
  dir=$("$1" --sharedir)/extension
  [ -d "$dir" ] || return 0
  rm -f "$dir"/idgen--*.sql
}

# same_as_installed: whether the built module, the control file and every install script equal
# those installed in the PostgreSQL that pg_config names. The module is compared without its
# debug sections and build id, which record the directory it was built in.
same_as_installed() {
  local libdir extdir f built installed status
  libdir=$(pg_config --pkglibdir)
  extdir=$(pg_config --sharedir)/extension
  [ -f idgen.so ] && [ -f "$libdir/idgen.so" ] || return 1
  for f in idgen.control sql/idgen--*.sql build/idgen--*.sql; do
    cmp -s "$f" "$extdir/${f##*/}" || return 1
  done
  built=$(mktemp) installed=$(mktemp)
  objcopy --strip-debug --remove-section=.note.gnu.build-id idgen.so "$built" &&
    objcopy --strip-debug --remove-section=.note.gnu.build-id "$libdir/idgen.so" "$installed" &&
    cmp -s "$built" "$installed"
  status=$?
  rm -f "$built" "$installed"
  return $status
}

# ensure_node: Node.js and npm, Debian's packages unless the machine already has both (NodeSource's
# nodejs package includes npm and conflicts with Debian's npm package, so asking for npm there
# would replace Node.js).
ensure_node() {
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    ensure_packages nodejs npm
  fi
}

# npm_ci_pinned DIR: installs the npm packages pinned in DIR/package.json and package-lock.json
# (dependencies and devDependencies) into DIR/node_modules with npm ci, readable by everyone (the
# tests run as the server's user); skipped when every pinned version is there, so it works
# offline then. Returns non-zero, saying so, when npm ci fails (the test then reports the package
# as not installed).
npm_ci_pinned() {
  local dir=$1
  if node -e "
    const pkg = require('./$dir/package.json');
    const pinned = { ...pkg.dependencies, ...pkg.devDependencies };
    for (const [name, version] of Object.entries(pinned)) {
      let installed;
      try { installed = require('./$dir/node_modules/' + name + '/package.json').version; } catch (e) {}
      if (installed !== version) process.exit(1);
    }" 2>/dev/null; then
    return 0
  fi
  # --include=dev: a type check needs TypeScript even where NODE_ENV=production is set.
  if ! (cd "$dir" && npm ci --include=dev --no-audit --no-fund --loglevel=error); then
    echo "npm ci could not install the packages pinned in $dir/package.json"
    return 1
  fi
  chmod -R a+rX "$dir/node_modules"
}
