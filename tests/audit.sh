#!/usr/bin/env bash
# --audit on a small history built here: a release, a merge window with
# each class of commit, and a stable branch carrying some of them.
#   c1 fix, Cc: stable, backported with "commit <sha> upstream."
#   c2 fix, Cc: stable, backported with "(cherry picked from commit <sha>)"
#   c3 fix, Cc: stable, backported with the same diff and no reference
#   c4 new file; c5 Fixes: c4 (a bug born after the release)
#   c6 cleanup of code the release has (not a fix: never "needed")
#   c8 rework of f4, then c9 a Cc: stable fix whose context is c8's work
#      (needed, missing, does not apply without c8)
#   c10 names the commit that broke it ("introduced by"): a fix, needed
. "${TESTS:=$(cd "$(dirname "$0")" && pwd)}/lib.sh"
new_history
export GIT_AUTHOR_NAME=Dev GIT_AUTHOR_EMAIL=dev@example.org GIT_COMMITTER_NAME=Dev GIT_COMMITTER_EMAIL=dev@example.org
commit() { t=$((t + 3600)); GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000" git commit -qam "$1"; git rev-parse HEAD; }
for f in f1 f2 f3 f4; do
	for i in $(seq 1 10); do echo "$f original line number $i of the release"; done > $f.c
done
git add . && commit "base" >/dev/null && tag v2.6.30

c1=$(line f1.c 3 "f1 line 3 fixed"; commit "f1: fix a bug

Cc: stable@kernel.org")
c2=$(line f2.c 5 "f2 line 5 fixed"; commit "f2: fix another bug

Cc: <stable@kernel.org> # 2.6.29+")
c3=$(line f3.c 7 "f3 line 7 fixed"; commit "f3: fix a third bug

Cc: stable@kernel.org")
echo "new code" > f5.c && git add f5.c
c4=$(commit "f5: a new driver")
c5=$(echo "new code, fixed" > f5.c; commit "f5: fix the new driver

Fixes: ${c4:0:12} (\"f5: a new driver\")")
c6=$(line f1.c 8 "f1 line 8 cleaned up"; commit "f1: clean up")
c8=$(line f4.c 4 "f4 line 4 reworked"; commit "f4: rework")
c9=$(line f4.c 5 "f4 line 5 fixed"; commit "f4: fix a bug in old code

Cc: stable@kernel.org")
c10=$(line f2.c 9 "f2 line 9 fixed"; commit "f2: fix line 9

This bug was introduced by $(git rev-parse --short=12 v2.6.30^{commit}) (\"base\").")
tag v2.6.31-rc1

git checkout -q -b linux-2.6.30.y v2.6.30
pick() { git cherry-pick -n "$1" >/dev/null; commit "$2" >/dev/null; }
pick "$c1" "f1: fix a bug

commit $c1 upstream."
pick "$c2" "f2: fix another bug

(cherry picked from commit $c2)"
tag v2.6.30.1
pick "$c3" "f3: fix a third bug (backport)"
tag v2.6.30.2
git checkout -q master
cd - >/dev/null || exit 1

j=$("$PATCHVER" -C "$r" --audit v2.6.30..v2.6.31-rc1 --series 2.6.30 --json)
expect_eq "$?" 0 "audit: exit"
row() { jq -r --arg c "$1" '.audit.commits[] | select(.commit == $c) |
	[.marked // "-", .series["2.6.30"].needed, .series["2.6.30"].present_by // "-",
	 .series["2.6.30"].present_since // "-", (.series["2.6.30"].applies | tostring),
	 (.series["2.6.30"].readiness.prerequisites // [] | map(.[0:12]) | join(","))] | join(" ")' <<<"$j"; }
expect_eq "$(row "$c1")" "cc-stable yes upstream line v2.6.30.1 null " "c1: present by its upstream line"
expect_eq "$(row "$c2")" "cc-stable yes upstream line v2.6.30.1 null " "c2: present by its cherry-pick line"
expect_eq "$(row "$c3")" "cc-stable yes patch-id v2.6.30.2 null " "c3: present by patch-id only"
expect_eq "$(row "$c4")" "- not-a-fix - - null " "c4: a new file, not a fix"
expect_eq "$(row "$c5")" "fixes no - - null " "c5: Fixes: a commit born after the release"
expect_eq "$(row "$c6")" "- not-a-fix - - null " "c6: a cleanup is not a fix"
expect_eq "$(row "$c10")" "named-culprit yes - - true " "c10: names its culprit: a fix, needed"
expect_eq "$(row "$c9")" "cc-stable yes - - false ${c8:0:12}" "c9: needs c8 first"
expect_eq "$(jq -r '.audit.commits[] | select(.commit == "'"$c2"'") | .stable_hint' <<<"$j")" "2.6.29+" "the Cc: stable hint"
expect_eq "$(jq -r '.audit.summary["2.6.30"] | "\(.commits) \(.fixes) \(.marked_cc_stable) \(.present) \(.needed_missing) \(.not_a_fix)"' <<<"$j")" \
	"9 6 4 3 2 3" "summary counts"
# the git way: upstream lines in the stable branch, counted by git log --grep
expect_eq "$(jq -r '.audit.summary["2.6.30"].present_by_upstream_line' <<<"$j")" \
	"$(git -C "$r" log --oneline -E -i --grep='commit [0-9a-f]+ upstream|cherry picked from commit' v2.6.30..linux-2.6.30.y | wc -l)" \
	"present by upstream line, as git log --grep counts them"
expect_eq "$("$PATCHVER" -C "$r" --audit v2.6.30..v2.6.31-rc1 --series 2.6.30 --only missing --json | jq -r '[.audit.commits[].commit[0:12]] | sort | join(" ")')" \
	"$(printf '%s\n' "${c9:0:12}" "${c10:0:12}" | sort | tr '\n' ' ' | sed 's/ $//')" "--only missing"
text=$("$PATCHVER" -C "$r" --audit v2.6.30..v2.6.31-rc1 --series 2.6.30)
expect_eq "$(grep -c "^\[" <<<"$text")" 0 "text: a summary, no rows without --only"
expect_contains "$text" "    [C] ${c9:0:12} f4: fix a bug in old code [after 1 prerequisite: ${c8:0:12}]" \
	"text: the summary lists the missing, with the ids of what must go first"
expect_contains "$text" "  the missing fixes on v2.6.30.2: 1 apply cleanly, 0 with fuzz or a merge, 1 after prerequisites, 0 conflict" \
	"text: the missing fixes by readiness"
expect_contains "$text" "evidence: the culprits the message names, else whether the release has the lines" "text: the evidence it reads"
text=$("$PATCHVER" -C "$r" --audit v2.6.30..v2.6.31-rc1 --series 2.6.30 --only all)
expect_eq "$(grep -c "^\[" <<<"$text")" "$(git -C "$r" log --no-merges --oneline v2.6.30..v2.6.31-rc1 | wc -l)" "--only all: a row per commit"
expect_contains "$text" "[C N-x] ${c9:0:12} f4: fix a bug in old code" "text: flags"
expect_contains "$text" "applies to v2.6.30.2: after 1 prerequisite
                  needs ${c8:0:12} first (not a fix itself) f4: rework" "text: the prerequisite"
"$PATCHVER" -C "$r" --audit v2.6.30..v2.6.31-rc1 --series 9.9 >/dev/null 2>"$tmp/err"
expect_eq "$?" 2 "unknown series: exit"
expect_contains "$(cat "$tmp/err")" "no release tag v9.9" "unknown series: message"
# series as maintainers write them; what is not a series
expect_eq "$("$PATCHVER" -C "$r" --audit v2.6.30..v2.6.31-rc1 --series 2.6.30.y --json | jq -c .audit)" \
	"$("$PATCHVER" -C "$r" --audit v2.6.30..v2.6.31-rc1 --series 2.6.30 --json | jq -c .audit)" \
	"--series 2.6.30.y is 2.6.30"
for bad in 2.6.30.y.z 2.6 "" x.y; do
	"$PATCHVER" -C "$r" --audit v2.6.30..v2.6.31-rc1 --series "$bad" >/dev/null 2>"$tmp/err"
	expect_eq "$?" 2 "--series '$bad': exit"
	expect_contains "$(cat "$tmp/err")" "'$bad'" "--series '$bad': the message names it"
done
# a series with no stable tag here (a copy with v2.6.29): said, and marked
git clone -q --bare "$r" "$tmp/untagged.git"
GIT_COMMITTER_DATE="1243814400 +0000" git -C "$tmp/untagged.git" tag -a -m v2.6.29 v2.6.29 v2.6.30^{commit}
j=$("$PATCHVER" -C "$tmp/untagged.git" --audit v2.6.30..v2.6.31-rc1 --series 2.6.29,2.6.30 --json 2>"$tmp/err")
expect_eq "$?" 0 "a series without stable tags: exit"
expect_contains "$(cat "$tmp/err")" \
	"warning: --series 2.6.29: no stable tag or branch in this repository; only v2.6.29 is judged" \
	"a series without stable tags: the warning"
expect_eq "$(jq -r '[.audit.series[] | "\(.series)=\(.stable_tags)"] | join(" ")' <<<"$j")" \
	"2.6.29=false 2.6.30=true" "a series without stable tags: JSON"
# mainline reverts in the range (a copy, so the counts above stay): c10
# reverted is not missing; c9 reverted, then the revert reverted, is again
git clone -q "$r" "$tmp/reverts"
(cd "$tmp/reverts" && export GIT_AUTHOR_DATE="$((t + 7200)) +0000" GIT_COMMITTER_DATE="$((t + 7200)) +0000" &&
	git revert --no-edit "$c10" >/dev/null && git revert --no-edit "$c9" >/dev/null &&
	git revert --no-edit HEAD >/dev/null)
expect_eq "$?" 0 "the reverts made"
rv=$(git -C "$tmp/reverts" rev-parse HEAD~2)
j=$("$PATCHVER" -C "$tmp/reverts" --audit v2.6.30..HEAD --series 2.6.30 --json)
expect_eq "$(jq -r --arg c "$c10" '.audit.commits[] | select(.commit == $c) | .reverted_by' <<<"$j")" "$rv" \
	"a fix reverted in the range: reverted_by"
expect_eq "$(jq -r --arg c "$c9" '.audit.commits[] | select(.commit == $c) | .reverted_by' <<<"$j")" null \
	"a fix whose revert was reverted: not reverted"
expect_eq "$(jq -r '.audit.summary["2.6.30"].needed_reverted' <<<"$j")" 1 "reverted and needed: counted"
expect_eq "$("$PATCHVER" -C "$tmp/reverts" --audit v2.6.30..HEAD --series 2.6.30 --only missing --json |
	jq -r '[.audit.commits[].commit[0:12]] | join(" ")')" "${c9:0:12}" "--only missing: the reverted fix out"
expect_contains "$("$PATCHVER" -C "$tmp/reverts" --audit v2.6.30..HEAD --series 2.6.30 --only all)" \
	"reverted in mainline by ${rv:0:12} (not yet released): not to be backported" "text: the revert said"
# reverts after the range's end, in a later mainline release: read as well,
# and the triage says the same (reverts.c, one reading for both)
GIT_COMMITTER_DATE="$((t + 7300)) +0000" git -C "$tmp/reverts" tag -a -m v2.6.31-rc2 v2.6.31-rc2 HEAD
j=$("$PATCHVER" -C "$tmp/reverts" --audit v2.6.30..v2.6.31-rc1 --series 2.6.30 --json)
expect_eq "$(jq -r --arg c "$c10" '.audit.commits[] | select(.commit == $c) | "\(.reverted_by) \(.reverted_in)"' <<<"$j")" \
	"$rv v2.6.31-rc2" "a revert after the range: reverted_by, reverted_in"
expect_eq "$(jq -r --arg c "$c9" '.audit.commits[] | select(.commit == $c) | .reverted_by' <<<"$j")" null \
	"after the range: a revert reverted again restores"
j=$("$PATCHVER" -C "$tmp/reverts" --triage "$c10" "$c9" --json)
expect_eq "$(jq -r '[.results[] | "\(.class) \(.mainline_revert.commit)"] | join(",")' <<<"$j")" \
	"not-for-stable $rv,stable-candidate null" "triage: the mainline revert, and the revert reverted"
expect_contains "$("$PATCHVER" -C "$tmp/reverts" --triage "$c10")" \
	"not for stable: mainline reverted it in ${rv:0:12} (v2.6.31-rc2); before the revert:" "triage text: the revert"
# the reverts file beside the index: one another reading wrote, or a damaged
# one, is read anew, and the answer is the same
cache=$tmp/rcache
XDG_CACHE_HOME=$cache "$PATCHVER" -C "$tmp/reverts" --triage "$c10" >/dev/null
f=$(ls "$cache"/patchver/index/*.reverts)
expect_eq "$(wc -l < "$f")" 7 "the reverts file: a header and three reverts"
sed -i '1s/^patchver-reverts [0-9]*/patchver-reverts 0/' "$f"
expect_eq "$(XDG_CACHE_HOME=$cache "$PATCHVER" -C "$tmp/reverts" --triage "$c10" --json |
	jq -r '.results[0].mainline_revert.commit')" "$rv" "a reverts file of another reading: read anew"
expect_eq "$(head -c 17 "$f")" "patchver-reverts " "a reverts file of another reading: written again"
expect_eq "$(wc -l < "$f")" 7 "a reverts file of another reading: written again whole"
head -c 60 "$f" > "$f.cut" && mv "$f.cut" "$f"
expect_eq "$(XDG_CACHE_HOME=$cache "$PATCHVER" -C "$tmp/reverts" --triage "$c10" --json |
	jq -r '.results[0].mainline_revert.commit')" "$rv" "a damaged reverts file: read anew"
expect_eq "$(wc -l < "$f")" 7 "a damaged reverts file: written again whole"
# "Revert commit <7 digits>" in prose, as developers wrote it before git revert's words
git clone -q "$r" "$tmp/prose"
(cd "$tmp/prose" && export GIT_AUTHOR_DATE="$((t + 7200)) +0000" GIT_COMMITTER_DATE="$((t + 7200)) +0000" &&
	git revert --no-edit "$c10" >/dev/null &&
	git commit -q --amend -m "f2: Revert commit ${c10:0:7}" -m "It broke the other path.")
prose=$(git -C "$tmp/prose" rev-parse HEAD)
expect_eq "$("$PATCHVER" -C "$tmp/prose" --audit v2.6.30..HEAD --series 2.6.30 --json |
	jq -r --arg c "$c10" '.audit.commits[] | select(.commit == $c) | .reverted_by')" "$prose" \
	"a revert in prose with a 7-digit id"
# one computation: the triage, given the audit's evidence (--evidence text),
# answers every commit and series of the window as the audit does
out=$(/usr/bin/python3 "$TESTS/tools/agree.py" "$PATCHVER" "$r" v2.6.30..master 2.6.30 2>&1)
expect_eq "$?" 0 "triage and audit agree on every commit of the window: $out"
expect_contains "$out" "needed_disagree: 0" "agreement: counted"
out=$(/usr/bin/python3 "$TESTS/tools/agree.py" "$PATCHVER" "$tmp/reverts" v2.6.30..HEAD 2.6.30 2>&1)
expect_eq "$?" 0 "triage and audit agree on mainline's reverts: $out"
expect_contains "$out" "reverted: 2
  reverted_disagree: 0" "agreement on reverts: counted"
"$PATCHVER" -C "$r" --audit v2.6.30 --series 2.6.30 >/dev/null 2>&1
expect_eq "$?" 2 "a range without ..: exit"
"$PATCHVER" -C "$r" --audit v2.6.30..v2.6.31-rc1 >/dev/null 2>&1
expect_eq "$?" 2 "--audit without --series: exit"
finish
