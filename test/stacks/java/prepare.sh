#!/usr/bin/env bash
# Installs and builds what the Java recipe needs (test/t/034_java_jdbc.pl, docs/java-jdbc.md):
# Java 17 (default-jdk-headless) and pgjdbc (libpostgresql-jdbc-java, which installs
# /usr/share/java/postgresql.jar) from Debian, as root (otherwise deps.sh prints the apt-get
# command and stops); then compiles test/stacks/java/IdgenJdbc.java once into
# /var/cache/idgen-stacks/java-<the first 16 hex digits of the source's sha256>, readable by
# everyone, where the test runs it from. With that directory there it only checks the packages.
# (Compiled, the recipe starts in about 1 s; `java IdgenJdbc.java` compiles it on every run, 3 s.)
set -euo pipefail
cd "$(dirname "$0")/../../.."
source test/lib/deps.sh
ensure_packages default-jdk-headless libpostgresql-jdbc-java

source=test/stacks/java/IdgenJdbc.java
jar=/usr/share/java/postgresql.jar
caches=/var/cache/idgen-stacks
hash=$(sha256sum "$source" | cut -c1-16)
classes=$caches/java-$hash
[ -f "$classes/IdgenJdbc.class" ] && exit 0

if ! mkdir -p "$caches" 2>/dev/null || [ ! -w "$caches" ]; then
  echo "cannot write $caches: run test/stacks/java/prepare.sh as root"
  exit 1
fi
chmod 755 "$caches"
build=$(mktemp -d "$classes.build.XXXXXX")
trap 'rm -rf "$build"' EXIT
javac -encoding UTF-8 -Xlint:all -Werror -cp "$jar" -d "$build" "$source"
chmod -R a+rX "$build"
# Another run may have finished first: keep its copy, which is the same.
mv -T "$build" "$classes" 2>/dev/null || true
# Builds of earlier versions of the recipe.
for old in "$caches"/java-????????????????; do
  [ "$old" = "$classes" ] || rm -rf "$old"
done
echo "compiled $source into $classes"
