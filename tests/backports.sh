#!/usr/bin/env bash
# What stable already carries: a culprit's backport makes its stable series
# affected.  A history built here: mainline v2.6.30 .. v2.6.32-rc2, stable
# 2.6.30.y (v2.6.30.1 .. .4) and 2.6.31.y (v2.6.31.1).  Culprits Cn come in
# the 2.6.31 (C6: 2.6.32) merge window, each fix Fn says "Fixes: Cn":
#   1 Cn backported ("commit <sha> upstream."), Fn not: 2.6.30.y affected
#   2 both backported in v2.6.30.2: not affected, "backported together"
#   3 C3's backport ("[ Upstream commit ]") reverted in .2 by a revert that
#     names only the subject: affected in v2.6.30.1 alone
#   4 F4's backport ("cherry picked") reverted in .3 ("This reverts commit"):
#     affected again from v2.6.30.3
#   5 F5 backported first ("modified from commit" with the id on the next
#     line), C5 after: not affected, said so
#   6 C6 backported to 2.6.31.y, and to 2.6.30.y by a commit that names the
#     2.6.31.y one: both series affected, through each backport
#   7 C7 backported in .4 by a commit naming no upstream: found by patch-id
#   8 C8 backported on linux-2.6.30.y after the last tag: queued, no release
#   9 F9 backported in .4 by a commit naming an id that is no commit (found
#     by patch-id all the same, and said)
#  10 C10 and F10 backported in .4 by one commit naming both
. "${TESTS:=$(cd "$(dirname "$0")" && pwd)}/lib.sh"
new_history
# culprits change line 2 of sN.c, fixes line 8: far enough apart that each
# applies without the other
for n in 1 2 3 4 5 6 7 8 9 10; do
	for i in $(seq 1 10); do echo "s$n original line $i"; done > s$n.c
done
git add . && commit "base" && tag v2.6.30
declare -A C F
for n in 1 2 3 4 5 7 8 9 10; do
	line s$n.c 2 "s$n line 2 changed"; commit "s$n: rework"; C[$n]=$(git rev-parse HEAD)
done
tag v2.6.31-rc1
for n in 1 2 3 4 5 7 8 9 10; do
	line s$n.c 8 "s$n line 8 fixed"; commit "s$n: fix the rework

Fixes: ${C[$n]:0:12} (\"s$n: rework\")"; F[$n]=$(git rev-parse HEAD)
done
tag v2.6.31-rc2
echo "2.6.31" > VERSION && git add VERSION && commit "Linux 2.6.31"
tag v2.6.31
line s6.c 2 "s6 line 2 changed"; commit "s6: rework"; C[6]=$(git rev-parse HEAD)
tag v2.6.32-rc1
line s6.c 8 "s6 line 8 fixed"; commit "s6: fix the rework

Fixes: ${C[6]:0:12} (\"s6: rework\")"; F[6]=$(git rev-parse HEAD)
tag v2.6.32-rc2

pick() { git cherry-pick -n "$1" >/dev/null && commit "$2" && git rev-parse HEAD; }
git checkout -q -b linux-2.6.31.y v2.6.31
B6=$(pick "${C[6]}" "s6: rework

commit ${C[6]} upstream.")
tag v2.6.31.1

git checkout -q -b linux-2.6.30.y v2.6.30
B1=$(pick "${C[1]}" "s1: rework

commit ${C[1]} upstream.")
B3=$(pick "${C[3]}" "s3: rework

[ Upstream commit ${C[3]:0:12} ]")
B4=$(pick "${C[4]}" "s4: rework

commit ${C[4]} upstream.")
BF5=$(pick "${F[5]}" "s5: fix the rework, for 2.6.30

This patch is modified from commit
${F[5]} so that it applies to
stable 2.6.30.y.")
tag v2.6.30.1
B2=$(pick "${C[2]}" "s2: rework

(cherry picked from commit ${C[2]})")
BF2=$(pick "${F[2]}" "s2: fix the rework

commit ${F[2]} upstream.")
git revert -n "$B3" >/dev/null && commit "Revert \"s3: rework\"

Turns out this isn't the way to go."
R3=$(git rev-parse HEAD)
BF4=$(pick "${F[4]}" "s4: fix the rework

(cherry picked from commit ${F[4]})")
B5=$(pick "${C[5]}" "s5: rework

commit ${C[5]} upstream.")
tag v2.6.30.2
git revert -n "$BF4" >/dev/null && commit "Revert \"s4: fix the rework\"

This reverts commit $BF4."
tag v2.6.30.3
BB6=$(pick "$B6" "s6: rework

commit $B6 upstream.")
B7=$(pick "${C[7]}" "s7: rework")
BF9=$(pick "${F[9]}" "s9: fix the rework

commit 0123456789abcdef0123456789abcdef01234567 upstream.")
git cherry-pick -n "${C[10]}" >/dev/null && git cherry-pick -n "${F[10]}" >/dev/null
B10=$(commit "s10: rework, and its fix

commit ${C[10]} upstream.
commit ${F[10]} upstream." && git rev-parse HEAD)
tag v2.6.30.4
B8=$(pick "${C[8]}" "s8: rework

commit ${C[8]} upstream.")
cd - >/dev/null || exit 1

tri() { "$PATCHVER" -C "$r" --triage "$@"; }
series() {  # FIX SERIES: the series' row of the text triage
	tri "$1" | sed -n "s/^  $2 *//p"
}
js() { tri "$1" --json | jq -r "$2"; }
s30='.results[0].series[] | select(.series == "2.6.30")'
s31='.results[0].series[] | select(.series == "2.6.31")'

# 1: the culprit's backport brought the bug; the fix is missing
expect_contains "$(tri "${F[1]}" | grep '^verdict')" \
	"stable candidate: affects 2.6.30 (v2.6.30.1–v2.6.30.4); the bug came to 2.6.30.y with ${B1:0:12} (backport of ${C[1]:0:12}) in v2.6.30.1; missing from 2.6.30.y" \
	"1: a culprit's backport: stable candidate, naming the backport"
expect_eq "$(series "${F[1]}" 2.6.30)" \
	"affected v2.6.30.1..v2.6.30.4 (culprit ${C[1]:0:12} as ${B1:0:12} since v2.6.30.1), no fix yet" "1: the series row"
expect_eq "$(js "${F[1]}" "$s30 | \"\(.affected) \(.first_affected) \(.culprit_in) \(.culprit_backport) \(.culprit)\"")" \
	"true v2.6.30.1 v2.6.30.1 $B1 ${C[1]}" "1: JSON"
expect_eq "$(series "${F[1]}" 2.6.31)" "not affected" "1: 2.6.31 has the fix"

# 2: culprit and fix in one stable release
expect_contains "$(tri "${F[2]}" | grep '^verdict')" "not for stable" "2: not for stable"
expect_contains "$(tri "${F[2]}")" "culprit and fix backported together in v2.6.30.2" "2: said so"
expect_eq "$(series "${F[2]}" 2.6.30)" \
	"not affected: culprit ${C[2]:0:12} and fix backported together in v2.6.30.2" "2: the series row"
expect_eq "$(js "${F[2]}" "$s30 | \"\(.affected) \(.together)\"")" "false true" "2: JSON"
expect_eq "$(tri "${F[2]}" | grep -c 'backported to stable all the same')" 0 "2: no 'check' note"

# 3: the culprit's backport reverted by subject
# (the releases listed include v2.6.31-rc1: mainline had the culprit before its fix)
expect_eq "$(js "${F[3]}" '.results[0].affected | join(" ")')" "v2.6.30.1 v2.6.31-rc1" "3: affected until the revert"
expect_eq "$(series "${F[3]}" 2.6.30)" \
	"affected v2.6.30.1 (culprit ${C[3]:0:12} as ${B3:0:12} since v2.6.30.1), no fix yet" "3: the series row"

# 4: the fix's backport reverted: affected again
expect_eq "$(js "${F[4]}" '.results[0].affected | join(" ")')" "v2.6.30.1 v2.6.30.3 v2.6.30.4 v2.6.31-rc1" \
	"4: a reverted fix backport opens the range again"
expect_contains "$(tri "${F[4]}")" "reverted in v2.6.30.3 by" "4: the revert listed under the backports"

# 5: the fix came before the culprit (a wrapped "modified from commit" id)
expect_eq "$(js "${F[5]}" '.results[0].affected | join(" ")')" "v2.6.31-rc1" "5: no stable release affected"
expect_eq "$(js "${F[5]}" "$s30 | \"\(.affected) \(.fix_before_culprit)\"")" "false true" "5: JSON"
expect_contains "$(series "${F[5]}" 2.6.30)" "backport of the fix had come before it" "5: said so"
expect_contains "$(tri "${F[5]}" | sed -n '/^backports/,$p')" "${BF5:0:12}" "5: the wrapped id found"

# 6: a backport of a backport
expect_eq "$(js "${F[6]}" "$s31 | \"\(.first_affected) \(.culprit_backport)\"")" "v2.6.31.1 $B6" \
	"6: 2.6.31.y through its backport"
expect_eq "$(js "${F[6]}" "$s30 | \"\(.first_affected) \(.culprit_backport) \(.culprit)\"")" \
	"v2.6.30.4 $BB6 ${C[6]}" "6: 2.6.30.y through the backport of the backport"

# the triage given the audit's evidence answers as the audit, culprits'
# backports, reverts and all
out=$(/usr/bin/python3 "$TESTS/tools/agree.py" "$PATCHVER" "$r" v2.6.30..v2.6.32-rc2 2.6.30,2.6.31 2>&1)
expect_eq "$?" 0 "triage and audit agree on every commit of the window: $out"
# the audit of the 2.6.31 window against 2.6.30.y
"$PATCHVER" -C "$r" --audit v2.6.30..v2.6.31 --series 2.6.30 --only all >"$tmp/audit"
row() { grep -A1 "^\[.*\] ${1:0:12} " "$tmp/audit" | tail -1; }
expect_contains "$(row "${F[1]}")" \
	"needed: yes (culprit ${C[1]:0:12} is in 2.6.30.y as ${B1:0:12} since v2.6.30.1); applies to refs/heads/linux-2.6.30.y: clean" \
	"audit 1: needed, its culprit being a backport"
expect_contains "$(row "${F[3]}")" "needed: no" "audit 3: the culprit's backport was reverted"
expect_contains "$(row "${F[4]}")" "needed: yes (culprit ${C[4]:0:12} is in 2.6.30.y" "audit 4: needed"
expect_eq "$(grep -c "^\[F N-+\] ${F[4]:0:12}" "$tmp/audit")" 1 "audit 4: the reverted fix backport is missing"
expect_contains "$(row "${F[2]}")" "present since v2.6.30.2 as ${BF2:0:12}" "audit 2: present"
# 7: by patch-id; 8: queued on the branch; 9: present by patch-id, its bad id said; 10: both
expect_contains "$(row "${F[7]}")" \
	"needed: yes (culprit ${C[7]:0:12} is in 2.6.30.y as ${B7:0:12} (same patch-id) since v2.6.30.4)" \
	"audit 7: the culprit's unnamed backport, by patch-id"
expect_contains "$(row "${F[8]}")" \
	"needed: yes (culprit ${C[8]:0:12} is in 2.6.30.y as ${B8:0:12} since refs/heads/linux-2.6.30.y)" \
	"audit 8: the culprit queued on the branch makes the fix needed"
expect_contains "$(row "${F[9]}")" "present since v2.6.30.4 as ${BF9:0:12} (patch-id)" "audit 9: present by patch-id"
expect_contains "$(row "${F[10]}")" "present since v2.6.30.4 as ${B10:0:12} (upstream line)" \
	"audit 10: one commit carrying culprit and fix"
# F1, F4, F7, F8: each fixes a culprit 2.6.30.y carries as a backport
expect_contains "$(cat "$tmp/audit")" "stable candidates (a fix by its own word, needed): 7; missing: 4 (4 fix a culprit 2.6.30.y took as a backport)" \
	"audit: the summary counts them"
expect_eq "$("$PATCHVER" -C "$r" --audit v2.6.30..v2.6.31 --series 2.6.30 --json |
	jq -r '.audit.summary["2.6.30"] | "\(.needed_missing) \(.needed_missing_backported_culprit)"')" "4 4" \
	"audit: the JSON summary"

expect_contains "$(tri "${F[7]}" | grep '^verdict')" \
	"the bug came to 2.6.30.y with ${B7:0:12} (backport of ${C[7]:0:12}, same patch-id) in v2.6.30.4" \
	"7: the culprit's backport found by patch-id"
expect_eq "$(js "${F[7]}" "$s30 | \"\(.first_affected) \(.culprit_backport) \(.culprit_backport_by)\"")" \
	"v2.6.30.4 $B7 patch-id" "7: JSON"
expect_contains "$(tri "${F[8]}" | grep '^verdict')" "not for stable" "8: no release has the culprit"
expect_contains "$(tri "${F[8]}" | grep '^note')" \
	"culprit ${C[8]:0:12} is queued for stable as ${B8:0:12}, on a stable branch no tag has reached" \
	"8: the queued culprit said"
expect_eq "$(js "${F[8]}" '.results[0].queued_culprits[] | "\(.culprit) \(.backport)"')" "${C[8]} $B8" \
	"8: JSON queued_culprits"
expect_eq "$(series "${F[9]}" 2.6.30)" "not affected (the fix was backported; its culprit never was)" \
	"9: the fix without its culprit"
expect_contains "$(tri "${F[9]}" | sed -n '/^backports/,$p')" "${BF9:0:12}" "9: found by patch-id"
expect_contains "$(tri "${F[9]}" | grep '^note')" \
	"${BF9:0:12} names an upstream id that is no commit of this history (0123456789abcdef0123456789abcdef01234567)" \
	"9: the bad id said"
expect_contains "$(tri "${F[9]}" | grep '^note')" \
	"${BF9:0:12} names no upstream commit: by patch-id, a backport of (${F[9]})" "9: how it was found, said"
expect_eq "$(js "${F[9]}" '.results[0].stable_notes[] | "\(.commit) \(.id)"')" \
	"$BF9 0123456789abcdef0123456789abcdef01234567
$BF9 ${F[9]}" "9: JSON stable_notes"
expect_eq "$(series "${F[10]}" 2.6.30)" \
	"not affected: culprit ${C[10]:0:12} and fix backported together in v2.6.30.4" "10: one commit, both"
expect_contains "$(tri "${F[10]}" | grep '^note')" "${B10:0:12} names several upstream commits" "10: said"


# the CVE record: a branch is affected from the version that took the culprit
cve() {   # FIX: the release ranges of its record, one per line
	"$PATCHVER" -C "$r" --triage --cve-json "$1" |
		jq -r '.results[0].affected[1] | [.defaultStatus] + [.versions[] |
			"\(.status) \(.version) \(.lessThan // .lessThanOrEqual)"] | .[]'
}
expect_eq "$(cve "${F[1]}" | tr '\n' ';')" "unaffected;affected 2.6.30.1 2.6.30.*;" \
	"cve 1: 2.6.30.y affected from the culprit's backport (nothing unaffected listed)"
expect_eq "$(cve "${F[4]}" | tr '\n' ';')" \
	"unaffected;affected 2.6.30.1 2.6.30.2;affected 2.6.30.3 2.6.30.*;" \
	"cve 4: a reverted fix backport opens a second range"
expect_eq "$(cve "${F[6]}" | tr '\n' ';')" \
	"unaffected;affected 2.6.30.4 2.6.30.*;affected 2.6.31.1 2.6.31.*;" \
	"cve 6: both branches, each from its backport"
expect_eq "$(cve "${F[7]}" | tr '\n' ';')" "unaffected;affected 2.6.30.4 2.6.30.*;" \
	"cve 7: from the culprit's patch-id backport"
expect_eq "$("$PATCHVER" -C "$r" --triage --cve-json "${F[8]}" | jq -r '.results[0].affected[1] | "\(.defaultStatus) \(.versions)"')" \
	"unaffected null" "cve 8: a queued culprit is in no released version: no version entries"
"$PATCHVER" -C "$r" --triage --cve-json "${F[@]}" >"$tmp/cve.json"
out=$(/usr/bin/python3 "$TESTS/tools/cve-validate.py" <"$tmp/cve.json" 2>&1)
expect_eq "$?" 0 "cve: valid CVE JSON 5 records ($out)"
expect_eq "$(cve_shape "$r" "$tmp/cve.json")" "" "cve: every record in the CNA's shape, checked with git"
# the git ranges of a branch the culprit reached as a backport start at that backport
"$PATCHVER" -C "$r" --triage --cve-json "${F[2]}" "${F[4]}" "${F[1]}" >"$tmp/cve.json"
expect_eq "$(jq -r '.results[1].affected[0].versions | map("\(.version[0:12])..\(.lessThan[0:12])") | join(" ")' "$tmp/cve.json")" \
	"${B4:0:12}..${BF4:0:12} ${C[4]:0:12}..${F[4]:0:12}" \
	"cve 4: the 2.6.30.y range from the culprit's backport to the fix's, then mainline"
expect_eq "$(jq -r '.results[0].affected[0].versions | map("\(.version[0:12])..\(.lessThan[0:12])") | join(" ")' "$tmp/cve.json")" \
	"${C[2]:0:12}..${F[2]:0:12}" "cve 2: backported together: mainline's range alone"
expect_contains "$(jq -r '.results[2].notes[]' "$tmp/cve.json")" \
	"2.6.30.y: the bug came with ${B1:0:12}, the backport of ${C[1]:0:12}, in 2.6.30.1" "cve 1: the note"

# patchver <sha>: per series, the commit as a backport; the same answer
# computed without an index, with --no-index, and from the index alone
bp() {   # MODE REV: the text report's backports line, or the JSON field
	case $1 in
	none) PATCHVER_QUICK=off "$PATCHVER" -C "$r" "$2" ;;
	noindex) PATCHVER_QUICK=off "$PATCHVER" -C "$r" --no-index "$2" ;;
	quick) PATCHVER_QUICK=require "$PATCHVER" -C "$r" "$2" ;;
	json) PATCHVER_QUICK=require "$PATCHVER" -C "$r" --json "$2" ;;
	esac | if [ "$1" = json ]; then
		jq -r '.results[0].backports[] | "\(.series) \(.commit) \(.release) \(.reverted_by) \(.reverted_in)"'
	else
		sed -n 's/^  backports: *//p'
	fi
}
want1="2.6.30.y: backport ${B1:0:12} in v2.6.30.1"
want3="2.6.30.y: backport ${B3:0:12} in v2.6.30.1 (reverted in v2.6.30.2 by ${R3:0:12})"
want6="2.6.30.y: backport ${BB6:0:12} in v2.6.30.4; 2.6.31.y: backport ${B6:0:12} in v2.6.31.1"
for mode in none noindex; do
	expect_eq "$(bp $mode "${C[1]}")" "$want1" "sha 1 ($mode): the culprit's backport"
	expect_eq "$(bp $mode "${C[3]}")" "$want3" "sha 3 ($mode): a reverted backport"
	expect_eq "$(bp $mode "${C[6]}")" "$want6" "sha 6 ($mode): both series, the second by a backport of a backport"
	expect_eq "$(bp $mode "${F[1]}")" "none" "sha 1 ($mode): the fix has none"
done
expect_eq "$(bp none "${C[8]}")" "none" "sha 8: a queued backport is in no release"
expect_eq "$(bp none "${C[10]}")" "2.6.30.y: backport ${B10:0:12} in v2.6.30.4" "sha 10: the commit naming two"
expect_eq "$(bp none "${F[10]}")" "2.6.30.y: backport ${B10:0:12} in v2.6.30.4" "sha 10: ... for each"
"$PATCHVER" -C "$r" --index >/dev/null 2>&1 || fail "--index"
expect_eq "$(bp quick "${C[10]}")" "2.6.30.y: backport ${B10:0:12} in v2.6.30.4" "sha 10 (index alone)"
want7="2.6.30.y: backport ${B7:0:12} in v2.6.30.4 (same patch-id, names no upstream)"
expect_eq "$(bp quick "${C[7]}")" "$want7" "sha 7 (index alone): no upstream line, the index found it by patch-id"
expect_eq "$(bp none "${C[7]}")" "$want7" "sha 7: ... as the history does"
expect_eq "$(bp noindex "${C[7]}")" "$want7" "sha 7: ... and --no-index"
expect_eq "$(bp quick "${F[9]}")" "2.6.30.y: backport ${BF9:0:12} in v2.6.30.4 (same patch-id, names no upstream)" \
	"sha F9 (index alone): names an id that is no commit, found by patch-id"
expect_eq "$(PATCHVER_QUICK=require "$PATCHVER" -C "$r" --json "${C[7]}" | jq -r '.results[0].backports[] | "\(.commit) \(.found_by)"')" \
	"$B7 patch-id" "sha 7: JSON found_by"
expect_eq "$(PATCHVER_QUICK=off "$PATCHVER" -C "$r" --json "${C[1]}" | jq -r '.results[0].backports[] | "\(.commit) \(.found_by)"')" \
	"$B1 upstream line" "sha 1: JSON found_by"
expect_eq "$(bp quick "${C[1]}")" "$want1" "sha 1 (index alone)"
expect_eq "$(bp quick "${C[3]}")" "$want3" "sha 3 (index alone)"
expect_eq "$(bp quick "${C[6]}")" "$want6" "sha 6 (index alone)"
expect_eq "$(bp quick "${F[5]}")" "2.6.30.y: backport ${BF5:0:12} in v2.6.30.1" "sha F5 (index alone): the wrapped id"
expect_eq "$(bp json "${C[3]}")" "2.6.30 $B3 v2.6.30.1 $R3 v2.6.30.2" "sha 3: JSON backports"
expect_eq "$(PATCHVER_QUICK=require "$PATCHVER" -C "$r" --json "${F[1]}" | jq -c '.results[0].backports')" "[]" \
	"sha: JSON backports empty"
expect_eq "$(PATCHVER_QUICK=require "$PATCHVER" -C "$r" "${C[1]}" | sed -n 's/^  in stable: *//p')" "2.6.31.y" \
	"sha 1: 'in stable' keeps its meaning (containment)"
# the index's map: counted; a damaged record of it is noticed (the quick
# path reads a few of them, the middle one first, and checks those; here
# the section shares its block with those checked at open)
ixj=$("$PATCHVER" -C "$r" --index --json)
expect_eq "$(jq -r '"\(.backports) \(.backport_notes) \(.stable_reverts)"' <<<"$ixj")" "14 4 2" \
	"index: the map's counts (2 backports by patch-id, each with its note)"
ix=$(jq -r .path <<<"$ixj")
cp "$ix" "$tmp/good.idx"
a8() { echo $(( ($1 + 7) / 8 * 8 )); }
off=$(( $(stat -c %s "$ix") - $(a8 $((8 * 2))) - $(a8 $((56 * 4))) - $(a8 $((20 * 14))) ))
printf '\x5a' | dd of="$ix" bs=1 seek=$((off + 7 * 20 + 4)) conv=notrunc status=none
expect_contains "$(PATCHVER_QUICK=require "$PATCHVER" -C "$r" "${C[1]}" 2>&1)" "quick path declined:" \
	"index: a damaged backport record, the quick path declines"
expect_eq "$(bp none "${C[1]}" 2>"$tmp/err")" "$want1" "index: ... and the normal path answers"
expect_contains "$(cat "$tmp/err")" "checksum mismatch (damaged); rebuilding" "index: ... says so, rebuilds"
expect_eq "$(bp quick "${C[1]}")" "$want1" "index: ... and the rebuilt one answers"

# the triage and the audit over the index answer as without it
for n in 1 2 3 4 5 6 7 8 9 10; do
	expect_eq "$(tri "${F[$n]}" --json | jq -c '.results[0] | [.series, .stable_notes, .queued_culprits]')" \
		"$(tri "${F[$n]}" --json --no-index | jq -c '.results[0] | [.series, .stable_notes, .queued_culprits]')" \
		"triage $n: the index's map, the same series and notes"
done
expect_eq "$("$PATCHVER" -C "$r" --audit v2.6.30..v2.6.31 --series 2.6.30 --only all)" "$(cat "$tmp/audit")" \
	"audit: the same with the index"

# a stable tag on a commit mainline also reaches: answered, and said
m=$tmp/mainline-tag
git clone -q --mirror "$r" "$m"
GIT_COMMITTER_DATE="$t +0000" git -C "$m" tag -a -m v2.6.31.2 v2.6.31.2 "${C[6]}"
out=$("$PATCHVER" -C "$m" --triage "${F[6]}" 2>&1)
expect_eq "$?" 0 "mainline tag: the triage answers"
expect_contains "$(echo "$out" | grep '^  2.6.31 ')" "affected v2.6.31.1..v2.6.31.2" "mainline tag: the range follows the tags"
expect_contains "$(echo "$out" | grep '^note')" \
	"v2.6.31.2 is a commit mainline also reaches (v2.6.32-rc1 contains it)" "mainline tag: said"
expect_eq "$("$PATCHVER" -C "$m" --triage --json "${F[6]}" | jq -r "$s31 | .stable_tag_on_mainline")" "v2.6.31.2" \
	"mainline tag: JSON"

# the repository is only read
expect_eq "$(git -C "$r" status --porcelain | wc -l)" 0 "the work tree untouched"

# a new stable tag: the index is extended, and its map with it
"$PATCHVER" -C "$r" --index >/dev/null 2>&1
cd "$r" || exit 1
git checkout -q linux-2.6.31.y
BF6=$(pick "${F[6]}" "s6: fix the rework

commit ${F[6]} upstream.")
tag v2.6.31.2
git checkout -q linux-2.6.30.y
cd - >/dev/null || exit 1
expect_eq "$("$PATCHVER" -C "$r" --index --json | jq -r '"\(.state) \(.backports)"')" "extended 15" \
	"a new stable tag: the index extended, one backport more"
expect_eq "$(bp quick "${F[6]}")" "2.6.31.y: backport ${BF6:0:12} in v2.6.31.2" "the extended map answers"
expect_eq "$(series "${F[6]}" 2.6.31)" \
	"affected v2.6.31.1 (culprit ${C[6]:0:12} as ${B6:0:12} since v2.6.31.1), fixed in v2.6.31.2 by backport ${BF6:0:12}" \
	"the triage over the extended index"
# a stable mail names its upstream: B10 carries C10 and F10 in one diff, so
# its patch-id matches only itself; BF9 names an id not in this repository
git -C "$r" format-patch -1 --stdout "$B10" > "$tmp/b10.patch"
expect_eq "$("$PATCHVER" -C "$r" --patch "$tmp/b10.patch" --json |
	jq -r '.results[0] | [.upstream.commit, .upstream_ref, (.matches | length)] | join(" ")')" \
	"${C[10]} ${C[10]} 1" "a stable mail: the upstream it names, not the stable commit"
git -C "$r" format-patch -1 --stdout "$BF9" > "$tmp/bf9.patch"
expect_contains "$("$PATCHVER" -C "$r" --patch "$tmp/bf9.patch")" \
	"names upstream:   0123456789abcdef0123456789abcdef01234567 (not in this repository)" \
	"a stable mail naming an upstream not here"

# --dyad: dyad's pairs, from the rows above
dyad() { tri "$1" --dyad | tail -n +2 | tr '\n' ' '; }
expect_eq "$(dyad "${F[1]}")" "2.6.31:${C[1]}:2.6.31:${F[1]} 2.6.30.1:$B1:0:0 " \
	"1 --dyad: mainline with mainline; the culprit's backport, unfixed, VERSION:SHA:0:0"
expect_eq "$(dyad "${F[2]}")" "2.6.30.2:$B2:2.6.30.2:$BF2 2.6.31:${C[2]}:2.6.31:${F[2]} " \
	"2 --dyad: culprit and fix in one stable version pair there"
expect_eq "$(dyad "${F[4]}")" "2.6.31:${C[4]}:2.6.31:${F[4]} 2.6.30.1:$B4:0:0 " \
	"4 --dyad: the fix's reverted backport fixes nothing"
expect_eq "$(dyad "${F[6]}")" "2.6.31.1:$B6:2.6.31.2:$BF6 2.6.32:${C[6]}:2.6.32:${F[6]} 2.6.30.4:$BB6:0:0 " \
	"6 --dyad: each line's backport of the culprit, paired in its series or unfixed"
# the whole records of these shapes, a batch on standard input: schema-valid,
# a reference per fixing commit
recs=$(printf '%s\n' "${F[1]}" "${F[2]}" "${F[4]}" "${F[6]}" | "$PATCHVER" -C "$r" --triage --stdin --cve-record)
out=$(/usr/bin/python3 "$TESTS/tools/cve-validate.py" --records <<<"$recs" 2>&1)
expect_eq "$?" 0 "--cve-record of each shape: valid records: $out"
expect_eq "$(jq -r '[.containers.cna.references[].url | sub(".*/"; "")] | join(" ")' <<<"$recs" | tr '\n' '|')" \
	"${F[1]}|$BF2 ${F[2]}|${F[4]}|$BF6 ${F[6]}|" "--cve-record: the fixing commits (a reverted backport is none)"

# a stable commit as input is triaged as the upstream it carries, said first
jq_fix() { jq -c '.results[0] | del(.rev, .stable_input)'; }
expect_eq "$(tri "$B1" --json | jq_fix)" "$(tri "${C[1]}" --json | jq_fix)" \
	"stable input: the same triage as its upstream's"
expect_eq "$(tri "$B1" | head -1)" \
	"stable input:     2.6.30.y's ${B1:0:12} is a backport of ${C[1]:0:12}; triage of the upstream" \
	"stable input: said first"
expect_eq "$(tri "$B1" --json | jq -r '.results[0].stable_input | [.series, .release, .upstream_found] | join(" ")')" \
	"2.6.30.y v2.6.30.1 true" "stable input: JSON"
expect_eq "$(tri "${C[1]}" --json | jq -r '.results[0] | has("stable_input")')" false \
	"a mainline commit: no stable input"
expect_eq "$(tri "$BB6" --json | jq -r '.results[0].fix.commit')" "${C[6]}" \
	"a backport of another line's backport: mainline's commit"
expect_eq "$(tri "$B8" | head -1)" \
	"stable input:     a stable branch's ${B8:0:12} is a backport of ${C[8]:0:12}; triage of the upstream" \
	"a queued stable commit"
expect_eq "$(tri "$BF9" | head -2 | tr '\n' '|')" \
	"stable input:     2.6.30.y's ${BF9:0:12} names upstream 0123456789abcdef0123456789abcdef01234567, which is not in this repository; triaged as itself|fix:              ${BF9:0:12}  v2.6.30.4     s9: fix the rework|" \
	"a stable commit naming an upstream not here"
finish
