#!/usr/bin/env bash
# The seed story on the demo history: first releases of the fs/namei.c
# commits, the fix's patch-id against seed 001, backports, and the
# difference from `git log --tags --source`.
. "${TESTS:=$(cd "$(dirname "$0")" && pwd)}/lib.sh"
repo=$FIXTURES/demo.git
seeds=$TESTS/../tests/seeds
sha() { git -C "$repo" log --all --format=%H --no-merges --grep="$1" | tail -1; }
field() { "$PATCHVER" -C "$repo" "$1" | awk -v f="$2" 'index($0, "  " f ":") == 1 { sub(/^[^:]*: */, ""); print }'; }

switch=$(sha 'Switch !O_CREAT case')
typo=$(sha 'Fix a dumb typo')
restore=$(sha 'Restore LOOKUP_DIRECTORY')
fix=$(sha 'O_NOFOLLOW behavior for paths')
mmfix=$(sha 'mm: fix anon_vma locking')
mmbug=$(sha 'mm: introduce vma_adjust_anon')
backport=$(git -C "$repo" log --format=%H --grep='mm: fix anon_vma' linux-2.6.33.y -1)

expect_eq "$(field "$switch" 'first release')" v2.6.34-rc1 "do_last() switch"
expect_eq "$(field "$typo" 'first release')" v2.6.34-rc1 "typo fix"
expect_eq "$(field "$restore" 'first release')" v2.6.34-rc3 "LOOKUP_DIRECTORY restore"
expect_eq "$(field "$fix" 'first release')" v2.6.34 "O_NOFOLLOW fix"
expect_eq "$(field "$fix" 'first final')" v2.6.34 "O_NOFOLLOW fix, final"
expect_eq "$(field "$fix" 'in stable')" "2.6.34.y" "O_NOFOLLOW fix, stable series"
expect_eq "$(field "$fix" 'describe')" "$(git -C "$repo" describe --contains "$fix")" "fix describe"
expect_eq "$(field "$restore" 'name-rev')" "$(git -C "$repo" name-rev --tags --name-only "$restore")" "restore name-rev"
expect_eq "$(field "$mmbug" 'first release')" v2.6.32-rc1 "mm bug"
expect_eq "$(field "$mmbug" 'in stable')" "2.6.32.y, 2.6.33.y, 2.6.34.y" "mm bug, stable series"

# git log --source names the tip that reached a commit first, not its first release
src=$(git -C "$repo" log --tags --source --format='%h %S' -- fs/namei.c | awk -v c="${switch:0:7}" '$1 == c { print $2 }')
expect_eq "$src" v2.6.34-rc2 "git log --source label of the switch commit"

# the backport in 2.6.33.y names its upstream commit
expect_eq "$(field "$backport" 'first release')" v2.6.33.2 "backport first release"
expect_eq "$(field "$backport" 'backport of')" "${mmfix:0:12} (first release v2.6.34-rc2)" "backport of"

# seed 001 is the fix, by patch-id (git's own computation)
expect_eq "$(git -C "$repo" show "$fix" | git patch-id --stable | cut -d' ' -f1)" \
	"$(git patch-id --stable < "$seeds/001-vfs-fix-o-nofollow.patch" | cut -d' ' -f1)" "seed 001 patch-id"

# work after the last tag is an answer, not an error
out=$("$PATCHVER" -C "$repo" master)
expect_eq "$?" 0 "unreleased commit exit"
expect_contains "$out" "first release:  none (not yet released)" "unreleased commit"

# JSON carries the same answers
if command -v jq >/dev/null; then
	j=$("$PATCHVER" -C "$repo" --json "$fix" "$backport")
	expect_eq "$(jq -r '.schema_version' <<<"$j")" 3 "json schema version"
	expect_eq "$(jq -r '.results[0].first_release' <<<"$j")" v2.6.34 "json first release"
	expect_eq "$(jq -r '.results[0].releases.mainline[0]' <<<"$j")" v2.6.34 "json releases"
	expect_eq "$(jq -r '.results[1].backport_of.commit' <<<"$j")" "$mmfix" "json backport"
	expect_eq "$(jq -r '.results[0].stable[0].series + " " + .results[0].stable[0].first' <<<"$j")" \
		"2.6.34 v2.6.34.1" "json stable"
	expect_eq "$("$PATCHVER" -C "$repo" --json --stdin <<<"$fix" | jq -r .first_release)" v2.6.34 "json lines on --stdin"
else
	fail "jq is not installed"
fi
finish
