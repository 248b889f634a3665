#!/usr/bin/env bash
# Installs what the Drizzle recipe (test/t/036_drizzle.pl, docs/drizzle.md) needs: Node.js and npm
# (Debian's packages, unless the machine already has both), then the npm packages pinned in
# test/stacks/drizzle/package.json and package-lock.json (Drizzle ORM, drizzle-kit, node-postgres,
# tsx, Zod; TypeScript and the type packages for the type check) into its node_modules with npm ci,
# skipped when every pinned version is there (it works offline then). Nothing is compiled ahead:
# tsx compiles the TypeScript as it loads it, and drizzle-kit loads the config and schema itself.
# test/run-all.sh runs it as root before the TAP suite.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source test/lib/deps.sh
ensure_node
npm_ci_pinned test/stacks/drizzle
