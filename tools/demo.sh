#!/bin/sh
# The LWN story (June 2010) on the generated demo history: which release
# first shipped each fs/namei.c commit of the do_last() rewrite and of Jan
# Kara's O_NOFOLLOW fix, and why `git log --tags --source` is not that.
set -eu
build=${1:-build}
boot=${2:-}
cache=${XDG_CACHE_HOME:-$HOME/.cache}/patchver
repo=$cache/demo.git
mkdir -p "$cache"
rm -rf "$repo"
"$build/tests/gen-history" demo "$repo" 2>/dev/null
pv="$build/patchver -C $repo"

echo "Demo history: $repo"
echo
echo "\$ git log --tags --source --author=viro --oneline -- fs/namei.c"
git -C "$repo" log --tags --source --author=viro --oneline -- fs/namei.c
echo
echo "git --source names the tag its walk came from first, not the first release."
echo "patchver answers from every containing tag, in kernel version order:"
echo
for c in $(git -C "$repo" log --tags --author=viro --author=jack --no-merges --format=%h -- fs/namei.c); do
	echo "\$ patchver $c"
	$pv "$c"
	echo
done

echo "\$ patchver --triage --patch shared seed 001 (Jan Kara's mail)"
$pv --triage --patch "$(dirname "$0")/../tests/seeds/001-vfs-fix-o-nofollow.patch" || true
if [ "$boot" = boot ]; then
	echo
	fix=$(git -C "$repo" log --format=%h --grep='O_NOFOLLOW behavior' master)
	echo "\$ patchver --verify-boot --reproducer nofollow $fix"
	$pv --verify-boot --reproducer nofollow "$fix"
fi
