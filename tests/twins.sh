#!/usr/bin/env bash
# A fix mainline merged twice (the same change through two trees, two ids):
# a release with either copy has the fix.  The history: culprit C in
# v2.6.30; its fix T on master, in v2.6.31; the same fix F on a side branch
# merged for v2.6.32-rc1; stable 2.6.30.y and 2.6.31.y with one unrelated
# commit each.  The triage of F says 2.6.31 has it (as T), and the audit
# of v2.6.31..v2.6.32-rc1 agrees on every cell.
. "${TESTS:=$(cd "$(dirname "$0")" && pwd)}/lib.sh"
new_history
for i in $(seq 1 10); do echo "a original line $i"; done > a.c
for i in $(seq 1 10); do echo "b original line $i"; done > b.c
git add . && commit "base"
line a.c 2 "a line 2 reworked"; commit "a: rework"; C=$(git rev-parse HEAD)
tag v2.6.30
git checkout -q -b side
line a.c 8 "a line 8 fixed"; commit "a: fix the rework

Fixes: ${C:0:12} (\"a: rework\")"; F=$(git rev-parse HEAD)
git checkout -q master
line b.c 3 "b line 3 changed"; commit "b: change"
line a.c 8 "a line 8 fixed"; commit "a: fix the rework

Fixes: ${C:0:12} (\"a: rework\")"; T=$(git rev-parse HEAD)
tag v2.6.31
t=$((t + 3600)); GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000" \
	git merge -q --no-edit side >/dev/null
tag v2.6.32-rc1
git checkout -q -b linux-2.6.30.y v2.6.30
line b.c 5 "b line 5 stable"; commit "b: stable change"; tag v2.6.30.1
git checkout -q -b linux-2.6.31.y v2.6.31
line b.c 6 "b line 6 stable"; commit "b: stable change"; tag v2.6.31.1
git checkout -q master
expect_eq "$(git patch-id --stable < <(git show "$F") | cut -d' ' -f1)" \
	"$(git patch-id --stable < <(git show "$T") | cut -d' ' -f1)" "the twins share a patch-id"
expect_eq "$(git merge-base --is-ancestor "$T" "$F"; echo $?)" 1 "T is not below F"

j=$("$PATCHVER" -C "$r" --triage "$F" --json)
expect_eq "$?" 0 "triage of F: exit"
row() { jq -r --arg s "$1" ".results[0].series[] | select(.series == \$s) | $2" <<<"$j"; }
expect_eq "$(row 2.6.31 '"\(.affected) \(.fixed_in) \(.fixed_by_twin) \(.fixed_by_backport)"')" \
	"false v2.6.31 $T false" "2.6.31: fixed in its base release by the twin"
expect_eq "$(row 2.6.30 '"\(.affected) \(.last_affected) \(.fixed_in)"')" "true v2.6.30.1 null" \
	"2.6.30: affected, no fix yet"
expect_contains "$("$PATCHVER" -C "$r" --triage "$F")" \
	"  2.6.31     not affected: v2.6.31 has the fix as mainline's ${T:0:12} (same patch-id)" \
	"text: the twin said"
j=$("$PATCHVER" -C "$r" --audit v2.6.31..v2.6.32-rc1 --series 2.6.30,2.6.31 --json)
expect_eq "$(jq -r --arg c "$F" '.audit.commits[] | select(.commit == $c) | .series["2.6.31"] | "\(.needed) \(.present)"' <<<"$j")" \
	"yes $T" "audit: 2.6.31 needed it and has it, as the twin"
out=$(/usr/bin/python3 "$TESTS/tools/agree.py" "$PATCHVER" "$r" v2.6.31..v2.6.32-rc1 2.6.30,2.6.31 2>&1)
expect_eq "$?" 0 "triage and audit agree with a twin: $out"
expect_contains "$out" "present_disagree: 0" "agreement: counted"

# 2.6.30.y takes the fix as T's backport, naming T: F's patch-id under
# another upstream's name.  F is fixed there all the same, for the triage
# and the audit alike (2.6.34.1's 812dd8968c68 names 89a7644be2c5, the
# twin of d89d63a97398).
cd "$r" || exit 1
git checkout -q linux-2.6.30.y
git cherry-pick -n "$T" >/dev/null && commit "a: fix the rework

commit $T upstream."
BT=$(git rev-parse HEAD)
tag v2.6.30.2
git checkout -q master
cd - >/dev/null || exit 1
j=$("$PATCHVER" -C "$r" --triage "$F" --json)
expect_eq "$(row 2.6.30 '"\(.affected) \(.last_affected) \(.fixed_in) \(.fixed_by_backport)"')" \
	"true v2.6.30.1 v2.6.30.2 true" "2.6.30: fixed by the twin's backport, found by the fix's patch-id"
expect_contains "$(jq -r '.results[0].backports[] | .commit' <<<"$j")" "$BT" "triage: the twin's backport listed"
j=$("$PATCHVER" -C "$r" --audit v2.6.31..v2.6.32-rc1 --series 2.6.30,2.6.31 --json)
expect_eq "$(jq -r --arg c "$F" '.audit.commits[] | select(.commit == $c) | .series["2.6.30"] | "\(.present) \(.present_by)"' <<<"$j")" \
	"$BT patch-id" "audit: 2.6.30 has it, as the twin's backport"
out=$(/usr/bin/python3 "$TESTS/tools/agree.py" "$PATCHVER" "$r" v2.6.31..v2.6.32-rc1 2.6.30,2.6.31 2>&1)
expect_eq "$?" 0 "triage and audit agree on the twin's backport: $out"
finish
