#!/usr/bin/env bash
# --triage --cve-json: the "affected" part of CVE JSON 5 records in the
# kernel CNA's shape, each wrapped into a full record and validated against
# the schema of Debian's python3-cvelib:
#   - the seed fix (introduced and fixed in the 2.6.34 cycle: no release);
#   - an FS_REVAL_DOT-style fix (the demo's mm fix: affected from 2.6.32,
#     backported to 2.6.33.2, fixed in mainline 2.6.34);
#   - a fix with no introducer found: ranges from the root commit, a note.
. "${TESTS:=$(cd "$(dirname "$0")" && pwd)}/lib.sh"
repo=$FIXTURES/demo.git
tmp=$(scratch)
trap 'rm -rf "$tmp"' EXIT
sha() { git -C "$repo" log --format=%H --no-merges --grep="$1" master | tail -1; }
seedfix=$(sha "vfs: Fix O_NOFOLLOW behavior")
mmfix=$(sha "^mm: fix")
mmbug=$(git -C "$repo" log --format=%B -1 "$mmfix" | sed -n 's/^Fixes: \([0-9a-f]*\).*/\1/p')
mmbug=$(git -C "$repo" rev-parse "$mmbug")
backport=$(git -C "$repo" log --all --format=%H --grep="commit $mmfix upstream" | head -1)

j=$("$PATCHVER" -C "$repo" --triage --cve-json "$mmfix" "$seedfix")
expect_eq "$?" 0 "--cve-json: exit"
r='.results[0]'
expect_eq "$(jq -r "$r.affected[0].defaultStatus" <<<"$j")" unaffected "git entry: default unaffected"
expect_eq "$(jq -r "[$r.affected[0].versions[] | \"\(.version[0:12])..\(.lessThan[0:12]) \(.versionType)\"] | join(\" \")" <<<"$j")" \
	"${mmbug:0:12}..${backport:0:12} git ${mmbug:0:12}..${mmfix:0:12} git" \
	"git ranges: to the stable backport first, to the fix last"
expect_eq "$(jq -r "$r.affected[1].defaultStatus" <<<"$j")" affected "release entry: default affected"
expect_eq "$(jq -c "$r.affected[1].versions" <<<"$j")" \
	'[{"version":"2.6.32","status":"affected"},{"version":"0","lessThan":"2.6.32","status":"unaffected","versionType":"semver"},{"version":"2.6.33.2","lessThanOrEqual":"2.6.33.*","status":"unaffected","versionType":"semver"},{"version":"2.6.34","lessThanOrEqual":"*","status":"unaffected","versionType":"original_commit_for_fix"}]' \
	"release ranges, as the kernel CNA writes them"
expect_eq "$(jq -r "$r.affected[1].programFiles | join(\" \")" <<<"$j")" \
	"$(git -C "$repo" diff --name-only "$mmfix^" "$mmfix" | tr '\n' ' ' | sed 's/ $//')" "programFiles"
expect_eq "$(jq -r '.results[1].affected[1] | "\(.defaultStatus) \(.versions)"' <<<"$j")" "unaffected null" \
	"seed: no release affected: an unaffected default, no entry under it"
# the demo has no origin remote: the stable tree's URL, as the CNA's records have
expect_eq "$(jq -r '[.results[].affected[].repo] | unique | join(" ")' <<<"$j")" \
	"https://git.kernel.org/pub/scm/linux/kernel/git/stable/linux.git" "repo: the stable tree's without an origin"
printf '%s' "$j" > "$tmp/cve.json"
expect_eq "$(cve_shape "$repo" "$tmp/cve.json")" "" "every record in the CNA's shape, checked with git"
expect_eq "$("$PATCHVER" -C "$repo" --triage --cve-json --cve-repo https://example.org/linux.git "$mmfix" |
	jq -r '[.results[].affected[].repo] | unique | join(" ")')" "https://example.org/linux.git" "--cve-repo"
"$PATCHVER" -C "$repo" --triage --cve-repo https://example.org/linux.git "$mmfix" >/dev/null 2>"$tmp/err"
expect_eq "$?" 2 "--cve-repo without --cve-json: usage error"
expect_contains "$(cat "$tmp/err")" "--cve-repo names --cve-json's repository" "--cve-repo without --cve-json: message"
expect_contains "$(jq -r '.results[1].notes[]' <<<"$j")" "no released kernel had the bug" "seed: the note"
out=$(/usr/bin/python3 "$TESTS/tools/cve-validate.py" <<<"$j" 2>&1)
expect_eq "$?" 0 "valid CVE JSON 5 records: $out"

# --dyad, the same rows as dyad's lines: the stable backport's pair first;
# the seed's earliest introducer (both came in 2.6.34's rcs) to its fix
expect_eq "$("$PATCHVER" -C "$repo" --triage --dyad "$mmfix" "$seedfix")" \
"# $mmfix
2.6.32:$mmbug:2.6.33.2:$backport
2.6.32:$mmbug:2.6.34:$mmfix
# $seedfix
2.6.34:$("$PATCHVER" -C "$repo" --triage --json "$seedfix" |
	jq -r '[.results[0].introducers[].commit] | sort_by(.first_release) | .[0].commit'):2.6.34:$seedfix" \
	"--dyad: a culprit in the base, backported fix; introduced and fixed in one cycle"

# --cve-record: the whole record, as bippy writes one, a line a fix
rec=$("$PATCHVER" -C "$repo" --triage --cve-record --cve-id CVE-2010-4242 "$mmfix")
expect_eq "$?" 0 "--cve-record: exit"
expect_eq "$(wc -l <<<"$rec")" 1 "--cve-record: one line"
expect_eq "$(jq -r '.cveMetadata | "\(.cveId) \(.assignerOrgId) \(.state)"' <<<"$rec")" \
	"CVE-2010-4242 f4215fc3-5b6b-47ff-a258-f7189bd81038 PUBLISHED" "--cve-record: the id given, the kernel CNA's org"
expect_eq "$(jq -r '.containers.cna.title' <<<"$rec")" "$(git -C "$repo" log -1 --format=%s "$mmfix")" \
	"--cve-record: the title is the subject"
desc=$(jq -r '.containers.cna.descriptions[0].value' <<<"$rec")
expect_eq "$(head -1 <<<"$desc")" "In the Linux kernel, the following vulnerability has been resolved:" \
	"--cve-record: the CNA's opening sentence"
expect_eq "$(grep -c "Signed-off-by\|^Fixes:" <<<"$desc")" 0 "--cve-record: the trailers dropped"
expect_contains "$desc" "$(git -C "$repo" log -1 --format=%b "$mmfix" | sed -n 1p)" "--cve-record: the body"
expect_eq "$(jq -r '[.containers.cna.references[].url] | join(" ")' <<<"$rec")" \
	"https://git.kernel.org/stable/c/$backport https://git.kernel.org/stable/c/$mmfix" \
	"--cve-record: a reference per fixing commit, the stable backport first"
expect_eq "$(jq -c '.containers.cna.affected' <<<"$rec")" "$(jq -c '.results[0].affected' <<<"$j")" \
	"--cve-record: the same affected blocks as --cve-json"
out=$(/usr/bin/python3 "$TESTS/tools/cve-validate.py" --records <<<"$rec" 2>&1)
expect_eq "$?" 0 "--cve-record: a valid CVE JSON 5 record: $out"
# a batch on standard input: a fix a line, its introducers after it
recs=$(printf '%s\n# a comment\n\n%s none\n' "$seedfix" "$mmfix" |
	"$PATCHVER" -C "$repo" --triage --stdin --cve-record --cna-org-id 12345678-9abc-4ef0-9234-56789abcdef0)
expect_eq "$(wc -l <<<"$recs")" 2 "--stdin --cve-record: a record a fix"
expect_eq "$(jq -r '.cveMetadata | "\(.cveId) \(.assignerOrgId)"' <<<"$recs" | sort -u)" \
	"CVE-0000-0000 12345678-9abc-4ef0-9234-56789abcdef0" "--stdin --cve-record: the placeholder id, the org given"
expect_eq "$(sed -n 2p <<<"$recs" | jq -r '.containers.cna.affected[0].versions[-1].version')" \
	"$(git -C "$repo" rev-list --max-parents=0 --first-parent "$mmfix")" "--stdin: a line's introducer (none: the root)"
out=$(/usr/bin/python3 "$TESTS/tools/cve-validate.py" --records <<<"$recs" 2>&1)
expect_eq "$?" 0 "--stdin --cve-record: valid records: $out"
expect_eq "$(printf '%s\n%s\n' "$mmfix" "$seedfix" | "$PATCHVER" -C "$repo" --triage --stdin --dyad)" \
	"$("$PATCHVER" -C "$repo" --triage --dyad "$mmfix" "$seedfix")" "--stdin --dyad: as the fixes on the command line"
# bad input: one line each, exit 2 (usage) or the revision's own
for bad in "--cve-record --cve-id CVE-10-1" "--cve-record --cve-id CVE-2010-123" \
	   "--cve-record --cna-org-id not-a-uuid" \
	   "--cve-record --cna-org-id 12345678-9abc-def0-1234-56789abcdef0" "--cve-id CVE-2010-4242" "--cve-record --json" \
	   "--cve-record --dyad"; do
	# shellcheck disable=SC2086
	"$PATCHVER" -C "$repo" --triage $bad "$mmfix" >/dev/null 2>"$tmp/err"
	expect_eq "$?" 2 "$bad: usage error"
	expect_eq "$(wc -l < "$tmp/err")" 1 "$bad: one line"
done
"$PATCHVER" -C "$repo" --triage --cve-record --cve-id CVE-2010-4242 "$mmfix" "$seedfix" >/dev/null 2>"$tmp/err"
expect_eq "$?" 2 "--cve-id with two fixes: usage error"
expect_contains "$(cat "$tmp/err")" "--cve-id names one record" "--cve-id with two fixes: said"
"$PATCHVER" -C "$repo" --cve-record "$mmfix" >/dev/null 2>"$tmp/err"
expect_eq "$?" 2 "--cve-record without --triage: usage error"
echo "$mmfix" | "$PATCHVER" -C "$repo" --triage --stdin --introducer none >/dev/null 2>"$tmp/err"
expect_contains "$(cat "$tmp/err")" "give each fix's introducers on its line" "--introducer with --stdin: said"
printf '%s none %s\nnosuchrev\n' "$mmfix" "$mmbug" | "$PATCHVER" -C "$repo" --triage --stdin --dyad >/dev/null 2>"$tmp/err"
expect_eq "$?" 2 "--stdin: a bad line's exit (the first error's)"
expect_eq "$(cat "$tmp/err")" "patchver: standard input, line 1: 'none' says the bug is as old as the history: no other introducer goes with it
patchver: unknown revision 'nosuchrev'" "--stdin: each bad line said, the others triaged"

# no introducer: the CNA's habit (the root commit), said in a note
# (a commit with a parent that only adds files: nothing to blame, no message culprit)
for nointro in $(git -C "$repo" log --format=%H --no-merges --diff-filter=A master); do
	git -C "$repo" rev-parse -q --verify "$nointro^" >/dev/null &&
		[ -z "$(git -C "$repo" diff --name-status "$nointro^" "$nointro" | grep -v '^A')" ] && break
done
j=$("$PATCHVER" -C "$repo" --triage --cve-json "$nointro")
expect_eq "$(jq -r '.results[0].affected[0].versions[0].version' <<<"$j")" \
	"$(git -C "$repo" rev-list --max-parents=0 --first-parent "$nointro")" "unknown introducer: from the root commit"
expect_contains "$(jq -r '.results[0].notes[]' <<<"$j")" "root commit, as the kernel CNA does" "unknown introducer: the note"
out=$("$PATCHVER" -C "$repo" --triage --cve-record "$nointro" | /usr/bin/python3 "$TESTS/tools/cve-validate.py" --records 2>&1)
expect_eq "$?" 0 "--cve-record, unknown introducer: a valid record: $out"
expect_eq "$("$PATCHVER" -C "$repo" --triage --dyad "$nointro" | tail -n +2 | cut -d: -f1-3)" \
	"0:0:$(jq -r '.results[0].affected[1].versions[-1].version' <<<"$j")" "--dyad, unknown introducer: 0:0 to the fix's release"
# the same rows as the git block: every release from the root's on, the fix's on unaffected
expect_eq "$(jq -r '.results[0].affected[1] | "\(.defaultStatus) \(.versions[0].version) \(.versions[-1].version) \(.versions[-1].versionType)"' <<<"$j")" \
	"affected 2.6.31 2.6.$(git -C "$repo" describe --contains "$nointro" | sed 's/^v2\.6\.\([0-9]*\).*/\1/') original_commit_for_fix" \
	"unknown introducer: the version block agrees (affected from the root's release)"
/usr/bin/python3 "$TESTS/tools/cve-validate.py" <<<"$j" >/dev/null 2>&1
expect_eq "$?" 0 "unknown introducer: still a valid record"

"$PATCHVER" -C "$repo" --cve-json "$mmfix" >/dev/null 2>"$tmp/cve-err"
expect_eq "$?" 2 "--cve-json without --triage: usage error"
expect_contains "$(cat "$tmp/cve-err")" "--cve-json goes with --triage" "--cve-json without --triage: message"
finish
