#!/usr/bin/env bash
# patchver never writes to the repository it queries: every file under the
# git directory keeps its content, and none is created or touched.
. "${TESTS:=$(cd "$(dirname "$0")" && pwd)}/lib.sh"
tmp=$(scratch)
trap 'rm -rf "$tmp"' EXIT

snapshot() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 sha256sum); }

for fixture in demo demo-graph; do
	repo=$tmp/$fixture.git
	cp -a "$FIXTURES/$fixture.git" "$repo"
	# a non-bare clone too: the work tree and index must stay as they are
	git clone -q "$repo" "$tmp/$fixture-work"
	for r in "$repo" "$tmp/$fixture-work"; do
		snapshot "$r" > "$tmp/before"
		touch "$tmp/marker"
		sleep 1
		fix=$(git -C "$r" log --all --format=%H --grep='O_NOFOLLOW behavior' -1)
		"$PATCHVER" -C "$r" "$fix" HEAD >/dev/null
		"$PATCHVER" -C "$r" --json --tags-containing "$fix" >/dev/null
		"$PATCHVER" -C "$r" --describe "$fix" >/dev/null
		git -C "$r" rev-list --all | "$PATCHVER" -C "$r" --name-rev --stdin >/dev/null
		# triage applies the fix to every affected release in memory:
		# libgit2 would store each postimage blob in the repository
		"$PATCHVER" -C "$r" --triage "$fix" >/dev/null
		"$PATCHVER" -C "$r" --patch "$TESTS/seeds/001-vfs-fix-o-nofollow.patch" >/dev/null
		"$PATCHVER" -C "$r" --audit v2.6.33..v2.6.34 --series 2.6.33 >/dev/null
		"$PATCHVER" -C "$r" --first-release --stdin < <(git -C "$r" rev-list --all) >/dev/null
		"$PATCHVER" -C "$r" no-such-rev 2>/dev/null
		"$PATCHVER" -C "$r" --describe HEAD 2>/dev/null
		snapshot "$r" > "$tmp/after"
		expect_files_same "$tmp/before" "$tmp/after" "$fixture ($(basename "$r")) contents"
		expect_eq "$(find "$r" -newer "$tmp/marker" | head -5)" "" "$fixture: nothing touched"
	done
done
finish
