#!/usr/bin/env bash
# A commit's subject as git's %s computes it (pretty.c:format_subject), on
# messages fast-import keeps byte for byte: blank lines before it skipped,
# lines of only spaces and tabs blank (they end the paragraph, as in 359
# commits of the 2.6.34 history), trailing whitespace dropped, leading kept,
# a multi-line first paragraph joined by spaces, no subject at all; and the
# CVE record's description, git's %s and %b.
. "${TESTS:=$(cd "$(dirname "$0")" && pwd)}/lib.sh"
tmp=$(scratch)
trap 'rm -rf "$tmp"' EXIT
repo=$tmp/repo.git
git init -q --bare -b master "$repo"

messages=(
	$'net: fix a leak\n\nbody\n'
	$'net: fix a leak\n   \nbody after a line of spaces\n'
	$'net: fix a leak  \t\n\t\nbody after a tab line\n'
	$'\n  \n\nnet: after blank lines\nsecond line of the subject\n\nbody\n'
	$'  indented subject\nand its second line   \n'
	$'subject without newline'
	$'\n\n'
	$'first\r\nsecond\r\n\r\nbody\r\n'
)
{
	i=0
	for m in "${messages[@]}"; do
		i=$((i + 1))
		printf 'commit refs/heads/master\nmark :%d\n' "$i"
		printf 'committer T <t@patchver.invalid> %d +0000\n' $((1262304000 + i * 60))
		printf 'data %d\n%s\n' "$(printf '%s' "$m" | wc -c)" "$m"
		if [ "$i" = 1 ]; then printf 'M 644 inline a.c\ndata 7\nint a;\n\n'; else printf 'from :%d\n\n' $((i - 1)); fi
	done
	printf 'tag v1.0\nfrom :%d\ntagger T <t@patchver.invalid> 1262400000 +0000\ndata 5\nv1.0\n' "$i"
} | git -C "$repo" fast-import --quiet

git -C "$repo" rev-list --reverse master > "$tmp/commits"
expect_eq "$(wc -l < "$tmp/commits")" "${#messages[@]}" "one commit per message"
while read -r c; do
	want=$(git -C "$repo" log -1 --format='%H %s' "$c" | cut -c1-12,41-)
	got=$("$PATCHVER" -C "$repo" --no-index --tags-containing "$c" | head -1)
	expect_eq "$got" "$want" "the subject of $c"
	# the CVE record's description: git's %s, then its %b (the paragraph after
	# the subject's, not the subject's second line)
	want=$(git -C "$repo" log -1 --format=%s "$c")
	body=$(git -C "$repo" log -1 --format=%b "$c")
	want=$(printf 'In the Linux kernel, the following vulnerability has been resolved:\n\n%s%s' "$want" \
		"${body:+$(printf '\n\n%s' "$body")}")
	got=$("$PATCHVER" -C "$repo" --triage --cve-record "$c" | jq -r '.containers.cna.descriptions[0].value')
	expect_eq "$got" "$want" "the CVE description of $c: git's %s and %b"
done < "$tmp/commits"
finish
