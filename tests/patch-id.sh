#!/usr/bin/env bash
# patch-ids equal `git patch-id --stable`: for every non-merge commit of a
# fixture, and for the same changes as mails in many shapes: format-patch
# mboxes, [PATCH v2 n/m] subjects, CRLF, plain `diff -up` diffs.
. "${TESTS:=$(cd "$(dirname "$0")" && pwd)}/lib.sh"
tmp=$(scratch)
trap 'rm -rf "$tmp"' EXIT

for fixture in demo small; do
	repo=$FIXTURES/$fixture.git
	git -C "$repo" rev-list --no-merges --all > "$tmp/revs"
	git -C "$repo" log --no-merges --all -p --format='commit %H' | git patch-id --stable |
		awk '{ print $2, $1 }' | sort > "$tmp/git"
	"$PATCHVER" -C "$repo" --patch-id $(cat "$tmp/revs") | awk '{ print $2, $1 }' | sort > "$tmp/pv"
	expect_files_same "$tmp/git" "$tmp/pv" "$fixture: patch-id of every commit"
	expect_eq "$(wc -l < "$tmp/pv")" "$(git -C "$repo" log --no-merges --all --format=%H --shortstat | grep -c 'changed')" \
		"$fixture: a patch-id for each commit that changes something"

	# the same changes as mail: an mbox of format-patch output
	git -C "$repo" format-patch -q --stdout -v2 --numbered -40 master > "$tmp/mbox"
	git patch-id --stable < "$tmp/mbox" | awk '{ print $1 }' > "$tmp/git-mail"
	"$PATCHVER" -C "$repo" --patch-id --patch "$tmp/mbox" | awk '{ print $1 }' > "$tmp/pv-mail"
	expect_files_same "$tmp/git-mail" "$tmp/pv-mail" "$fixture: format-patch mbox"
	expect_eq "$(grep -c '^Subject: \[PATCH v2 ' "$tmp/mbox")" "$(wc -l < "$tmp/pv-mail")" \
		"$fixture: one patch-id per message"

	# CRLF line ends
	sed 's/$/\r/' "$tmp/mbox" > "$tmp/mbox-crlf"
	"$PATCHVER" -C "$repo" --patch-id --patch "$tmp/mbox-crlf" | awk '{ print $1 }' > "$tmp/pv-crlf"
	expect_files_same "$tmp/git-mail" "$tmp/pv-crlf" "$fixture: CRLF mbox"

	# plain diffs as `diff -up` writes them: no git headers, other prefixes
	sed -E -e 's|^diff --git a/([^ ]*) b/.*|diff -up linux.orig/\1 linux/\1|' \
	       -e 's|^--- a/(.*)|--- linux.orig/\1\t2010-05-13 12:52:57.000000000 +0200|' \
	       -e 's|^\+\+\+ b/(.*)|+++ linux/\1\t2010-05-13 12:52:57.000000000 +0200|' \
	       -e '/^index [0-9a-f]/d' "$tmp/mbox" > "$tmp/mbox-plain"
	"$PATCHVER" -C "$repo" --patch-id --patch "$tmp/mbox-plain" | awk '{ print $1 }' > "$tmp/pv-plain"
	expect_files_same "$tmp/git-mail" "$tmp/pv-plain" "$fixture: plain diff -up mbox"
done

# the seed mail (no-break spaces in headers, -AT- addresses, a signature)
# has the patch-id of the commit it became
seed=$TESTS/seeds/001-vfs-fix-o-nofollow.patch
expect_eq "$("$PATCHVER" -C "$FIXTURES/demo.git" --patch-id --patch "$seed" | cut -d' ' -f1)" \
	"$(git patch-id --stable < "$seed" | cut -d' ' -f1)" "seed 001 patch-id"
finish
