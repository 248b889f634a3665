#!/usr/bin/env bash
# A released version is frozen: databases installed or updated with it ran its scripts, and the
# update test rebuilds it from this repository's history (test/lib/releases.sh). For every version
# that idgen.control's default_version has moved past, this check proves that
#   - every install and update script that existed at the release's last commit is unchanged in
#     the committed tree (a fix goes into the next version's update script instead), and
#   - CHANGELOG.md has the version's section with its release date ("## X.Y.Z (YYYY-MM-DD)"),
# and that the current version's section exists, dated or "(unreleased)". Run from the
# repository's root (make released-scripts-check); it needs the git history.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source test/lib/releases.sh

git rev-parse --verify -q HEAD >/dev/null || { echo "no git history: cannot check released versions"; exit 1; }

current=$(git show HEAD:idgen.control | sed -nE "s/^default_version = '([0-9]+\.[0-9]+\.[0-9]+)'$/\1/p")
[[ -n $current ]] || { echo "idgen.control: no default_version"; exit 1; }

# Every version idgen.control's history ever named, oldest first, but the current one.
mapfile -t released < <(git log --reverse --format=%H -- idgen.control |
  while read -r commit; do
    git show "$commit:idgen.control" | sed -nE "s/^default_version = '([0-9]+\.[0-9]+\.[0-9]+)'$/\1/p"
  done | awk -v current="$current" '$0 != current && !seen[$0]++')

# Read once: grep -q on a pipe would stop git early, and pipefail would count that as a failure.
changelog=$(git show HEAD:CHANGELOG.md)

bad=0 scripts=0
for version in "${released[@]}"; do
  commit=$(release_commit "$version") || { bad=$((bad + 1)); continue; }
  while read -r script; do
    scripts=$((scripts + 1))
    if ! git cat-file -e "HEAD:$script" 2>/dev/null; then
      echo "$script: released with $version (commit ${commit:0:12}) and removed since"
      bad=$((bad + 1))
    elif [[ $(git rev-parse "$commit:$script") != "$(git rev-parse "HEAD:$script")" ]]; then
      echo "$script: released with $version (commit ${commit:0:12}) and changed since; released scripts are frozen: put the change into the next version's update script"
      bad=$((bad + 1))
    fi
  done < <(git ls-tree --name-only "$commit" sql/ | grep -E '^sql/idgen--[0-9.]+(--[0-9.]+)?\.sql$')
  if ! grep -qE "^## ${version//./\\.} \([0-9]{4}-[0-9]{2}-[0-9]{2}\)$" <<<"$changelog"; then
    echo "CHANGELOG.md: no dated section '## $version (YYYY-MM-DD)' for released version $version"
    bad=$((bad + 1))
  fi
done
if ! grep -qE "^## ${current//./\\.} \(([0-9]{4}-[0-9]{2}-[0-9]{2}|unreleased)\)$" <<<"$changelog"; then
  echo "CHANGELOG.md: no section '## $current (unreleased)' (or dated) for the current version"
  bad=$((bad + 1))
fi
((${#released[@]} > 0 && scripts > 0)) || { echo "no released version found in idgen.control's history"; exit 1; }
((bad == 0)) || exit 1
echo "${#released[@]} released versions (${released[*]}): $scripts scripts unchanged, each dated in CHANGELOG.md"
