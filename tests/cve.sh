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
