#!/usr/bin/env bash
# --backport FIX --onto REV (issue 45): does the fix go in, and what must go
# first.  A history built here: mainline v2.6.30 .. v2.6.31-rc1, stable
# v2.6.30.1.  Each case its own file of 30 lines, so that hunks carry git's
# three lines of context:
#   1 a.c: F1 changes line 11 next to P1's line 10: P1 first (D1, far away, not)
#   2 b.c: F2 needs P2b, which needs P2a: a chain of two
#   3 c.c: F3 needs P3, which goes in only with fuzz (stable changed its context)
#   4 d.c: F4's hunk spans a line stable changed: only a three-way merge takes it
#   5 e.c: F5 changes the line stable changed itself: conflict, no commit helps
#   6 k.c: F6 is in v2.6.30.1 already, as a backport naming it
#   7 f.c: F7 calls new_helper(), which H7 added to h.h: a missing name
#   8 g.c: F8 applies with fuzz 1
#   9 f.c: F9 uses a member and a struct H9 added to h.h: missing names too
# Every answer a maintainer acts on is checked against git itself, in a
# clone; the repository is byte-identical afterwards.
. "${TESTS:=$(cd "$(dirname "$0")" && pwd)}/lib.sh"
new_history
change() { line "$1" "$2" "$3"; commit "$4"; git rev-parse HEAD; }
for f in a b c d e g k; do
	for i in $(seq 1 30); do echo "$f line $i"; done > $f.c
done
{ echo '#include "h.h"'; for i in $(seq 2 30); do echo "f line $i"; done; } > f.c
printf '#ifndef H_H\n#define H_H\nstruct thing {\n\tint a;\n};\nstatic inline int old_helper(int x)\n{\n\treturn x;\n}\n#endif\n' > h.h
git add . && commit "base" && tag v2.6.30
P1=$(change a.c 10 "a line 10 prep" "a: prepare")
D1=$(change a.c 25 "a line 25 other" "a: unrelated")
F1=$(change a.c 11 "a line 11 fixed" "a: fix")
P2a=$(change b.c 10 "b line 10 one" "b: one")
P2b=$(change b.c 11 "b line 11 two" "b: two")
F2=$(change b.c 12 "b line 12 fixed" "b: fix")
P3=$(change c.c 10 "c line 10 prep" "c: prepare")
F3=$(change c.c 11 "c line 11 fixed" "c: fix")
line d.c 12 "d line 12 fixed"; F4=$(change d.c 16 "d line 16 fixed" "d: fix")
M5=$(change e.c 9 "e line 9 mainline" "e: rework")
F5=$(change e.c 10 "e line 10 fixed" "e: fix")
F6=$(change k.c 5 "k line 5 fixed" "k: fix")
sed -i 's/^#endif$/static inline int new_helper(int x)\n{\n\treturn x + 1;\n}\n#endif/' h.h
git add h.h && commit "h: add new_helper" && H7=$(git rev-parse HEAD)
F7=$(change f.c 20 "\tret = new_helper(ret);" "f: use the new helper")
F8=$(change g.c 12 "g line 12 fixed" "g: fix")
sed -i -e 's/^\tint a;$/\tint a;\n\tint extra;/' -e 's/^#endif$/struct gadget {\n\tint g;\n};\n#endif/' h.h
git add h.h && commit "h: a member and a struct" && H9=$(git rev-parse HEAD)
F9=$(change f.c 25 "\tt->extra = 1; struct gadget *gd = 0;" "f: use the member and the struct")
git checkout -q -b side v2.6.30
echo side > z.c && git add z.c && commit "z: add"
git checkout -q master
GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000" git merge -q --no-ff -m "Merge side" side
MERGE=$(git rev-parse HEAD)
tag v2.6.31-rc1
git checkout -q -b linux-2.6.30.y v2.6.30
S3=$(change c.c 7 "c line 7 stable" "c: stable's own change")
S4=$(change d.c 14 "d line 14 stable" "d: stable's own change")
S5=$(change e.c 10 "e line 10 stable" "e: stable's own fix")
git cherry-pick -n "$F6" >/dev/null && commit "k: fix

commit $F6 upstream."
B6=$(git rev-parse HEAD)
S8=$(change g.c 9 "g line 9 stable" "g: stable's own change")
tag v2.6.30.1
git checkout -q master
snapshot() { (cd "$r/.git" && find . -type f | sort | xargs sha256sum) > "$1"; }
snapshot "$tmp/before"

bp() { "$PATCHVER" -C "$r" --backport "$1" --onto "${2:-v2.6.30.1}" "${@:3}"; }
jbp() { bp "$1" "${2:-v2.6.30.1}" --json | jq -r "$3"; }

# 1: one prerequisite, the unrelated commit left out
expect_eq "$(jbp "$F1" v2.6.30.1 '[.applies, .answer, (.prerequisites | map(.commit) | join(","))] | join(" ")')" \
	"conflict after-prerequisites $P1" "one prerequisite"
expect_eq "$(jbp "$F1" v2.6.30.1 '.candidates')" 2 "the candidates: P1 and D1, commits to a.c since the base"
out=$(bp "$F1")
expect_contains "$out" "prerequisites:    1, in order (of 2 candidates" "text: the list and its candidates"
expect_contains "$out" "  ${P1:0:12}  v2.6.31-rc1   clean    a: prepare" "text: the prerequisite"
expect_contains "$out" "  git cherry-pick -x $P1
  git cherry-pick -x $F1" "text: the cherry-picks, in order"
# as git sees it: the fix alone does not apply, after P1 it does
git clone -q "$r" "$tmp/w"
git -C "$tmp/w" checkout -q v2.6.30.1
git -C "$r" diff-tree -p "$F1^" "$F1" > "$tmp/f1.diff"
if git -C "$tmp/w" apply --check "$tmp/f1.diff" 2>/dev/null; then
	fail "git: F1 applies to v2.6.30.1 alone"
else pass; fi
if git -C "$tmp/w" cherry-pick "$P1" "$F1" >/dev/null 2>&1; then pass; else
	fail "git: P1 then F1 do not cherry-pick onto v2.6.30.1"; fi

# 2: a chain of two, in order
expect_eq "$(jbp "$F2" v2.6.30.1 '.prerequisites | map(.commit) | join(",")')" "$P2a,$P2b" \
	"a chain of two"
git -C "$tmp/w" checkout -q -f v2.6.30.1
if git -C "$tmp/w" cherry-pick "$P2a" "$P2b" "$F2" >/dev/null 2>&1; then pass; else
	fail "git: the chain does not cherry-pick"; fi

# 3: a prerequisite that goes in with fuzz, said so
expect_eq "$(jbp "$F3" v2.6.30.1 '.prerequisites | map(.commit + " " + .applies) | join(",")')" \
	"$P3 fuzz" "a prerequisite with fuzz"
expect_contains "$(bp "$F3")" "  ${P3:0:12}  v2.6.31-rc1   fuzz     c: prepare" "text: its fuzz"

# 4: only a three-way merge, and no commit would make it exact
expect_eq "$(jbp "$F4" v2.6.30.1 '[.applies, .answer, (.prerequisites | length)] | join(" ")')" \
	"3way applies 0" "three-way"
expect_contains "$(bp "$F4")" "d.c: merged three-way from the fix's preimage" "text: three-way"
git -C "$tmp/w" checkout -q -f v2.6.30.1
if git -C "$tmp/w" cherry-pick "$F4" >/dev/null 2>&1; then pass; else
	fail "git: F4 does not cherry-pick (a three-way merge)"; fi

# 5: a conflict: the hunk, the release's lines, who changed them on each side
expect_eq "$(jbp "$F5" v2.6.30.1 '[.answer, (.conflicts | length), .conflicts[0].path, .conflicts[0].hunk] | join(" ")')" \
	"conflict 1 e.c 1" "a conflict"
expect_eq "$(jbp "$F5" v2.6.30.1 '.conflicts[0] | [(.changed_since_base | join(",")), (.changed_on_release_line | join(","))] | join(" ")')" \
	"$M5 $S5" "the conflict's commits: mainline's since the base, the release line's own"
expect_eq "$(jbp "$F5" v2.6.30.1 '.conflicts[0].has | map(select(test("stable"))) | join(",")')" \
	"e line 10 stable" "the release's lines"
out=$(bp "$F5")
expect_contains "$out" "prerequisites:    none found: no list of the 1 commit since the base that changes its files makes it apply cleanly" "text: none found"
expect_contains "$out" "    changed on the release's own line by:
      ${S5:0:12}  v2.6.30.1     e: stable's own fix" "text: blame on the release"

# 6: already there
expect_eq "$(jbp "$F6" v2.6.30.1 '[.applies, .already_in, .already_how] | join(" ")')" \
	"already $B6 upstream line" "a backport in the release"
expect_eq "$(jbp "$F6" v2.6.31-rc1 '[.applies, .already_how] | join(" ")')" "already contains it" \
	"a release that contains it"

# 7: a name the release does not define, and who brought it
expect_eq "$(jbp "$F7" v2.6.30.1 '[.applies, (.missing_names | map(.name + " " + .kind + " " + .file + " " + .commit) | join(","))] | join(" ")')" \
	"clean new_helper function h.h $H7" "a missing name"
expect_contains "$(bp "$F7")" "  git cherry-pick -x $H7   # likely needed to build: new_helper()" \
	"text: the name's commit in the sequence"
expect_eq "$(jbp "$F1" v2.6.30.1 '.missing_names | length')" 0 "no missing name"
expect_eq "$(jbp "$F9" v2.6.30.1 '.missing_names | map(.name + " " + .kind + " " + .file + " " + .commit) | join(",")')" \
	"extra member h.h $H9,gadget struct h.h $H9" "a missing member and struct"
expect_contains "$(bp "$F9")" "  ->extra, defined in h.h since" "text: the member"

# 8: fuzz, per hunk
expect_eq "$(jbp "$F8" v2.6.30.1 '[.applies, .answer, .hunks[0].fuzz] | join(" ")')" "fuzz applies 1" "fuzz"

# a mail: the same answer
git -C "$r" format-patch -1 --stdout "$F1" > "$tmp/f1.patch"
expect_eq "$("$PATCHVER" -C "$r" --patch "$tmp/f1.patch" --backport --onto v2.6.30.1 --json |
	jq -r '[.fix, (.prerequisites | map(.commit) | join(","))] | join(" ")')" "$F1 $P1" "a mail"

# bad input: one line, its own code
err=$(bp "$MERGE" 2>&1 >/dev/null); rc=$?
expect_eq "$rc" 2 "a merge: exit code"
expect_eq "$err" "patchver: $MERGE is a merge: give the commit of the fix itself" "a merge: the line"
bp "$F1" "v2.6.30^{tree}" >/dev/null 2>&1; expect_eq $? 6 "--onto a tree"
bp nosuchrev >/dev/null 2>&1; expect_eq $? 4 "an unknown fix"
"$PATCHVER" -C "$r" --backport "$F1" >/dev/null 2>&1; expect_eq $? 2 "--backport without --onto"
"$PATCHVER" -C "$r" --onto v2.6.30.1 "$F1" >/dev/null 2>&1; expect_eq $? 2 "--onto without --backport"
"$PATCHVER" -C "$r" --backport --triage "$F1" --onto v2.6.30.1 >/dev/null 2>&1
expect_eq $? 2 "--backport with another mode"

# beyond the search's bound: 201 commits to the file since the base, said so
git checkout -q -b busy v2.6.30
for i in $(seq 1 201); do echo "busy line $i" >> k.c; git add k.c; t=$((t + 60)); GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000" git commit -qm "k: line $i"; done
line k.c 3 "k line 3 fixed"; commit "k: fix line 3"; FB=$(git rev-parse HEAD)
git checkout -q master
expect_eq "$(jbp "$FB" v2.6.30.1 '[.applies, .searched, .candidates, (.prerequisites | length)] | join(" ")')" \
	"fuzz false 201 0" "over 200 candidates: not searched"
expect_contains "$(bp "$FB")" "prerequisites:    not searched: 201 commits since the base change its files (the bound is 200)" \
	"over 200 candidates: the line"
snapshot "$tmp/before"      # the test's own commits: the rest compares from here

snapshot "$tmp/after"
expect_files_same "$tmp/before" "$tmp/after" "the repository"
finish
