#!/usr/bin/env bash
# "Is it a fix?" on a history built here: a release v2.6.30, then a merge
# window with one commit per class and per piece of evidence, each checked
# in the triage's text and JSON and in the audit's flags and counts.
#   m  MAINTAINERS only                      not a fix
#   n  a new driver (new files only)         not a fix
#   d  a new device id in an old table       possible (device id)
#   c  Cc: stable fix of released code       stable candidate
#   k  Cc: stable, Documentation/ only       stable candidate (the word wins)
#   x  Fixes: naming released code           stable candidate
#   w  fix words, no tags                    possible stable candidate
#   rv a revert of released code            stable candidate
#   u  Fixes: naming n (never released)      a fix, not for stable
#   e  an empty commit, s: only trailers, b: an empty message, h: 100,000 lines
#   tt a Tested-by:, no fix words            possible
#   bz a bug tracker's entry                 possible
#   ff "add a fixup table": a feature        not a fix (the score is low)
#   sp splits fs/e.c out of fs/b.c; fe fixes fs/e.c: needed (the lines were in b.c)
#   uf "use after free": a fix's phrase      possible ("use" is no feature word there)
#   nw no sign at all, in the merge window   not a fix
#   lt the same, merged after -rc1           possible (merged after -rc1)
. "${TESTS:=$(cd "$(dirname "$0")" && pwd)}/lib.sh"
new_history
export GIT_AUTHOR_NAME=Dev GIT_AUTHOR_EMAIL=dev@example.org GIT_COMMITTER_NAME=Dev GIT_COMMITTER_EMAIL=dev@example.org
commit() { t=$((t + 3600)); GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000" git commit -q "$@"; git rev-parse HEAD; }
mkdir -p drivers/usb Documentation fs
printf 'KEYS\nM:\tSomeone <someone@example.org>\nF:\tsecurity/keys/\n\n' > MAINTAINERS
for i in $(seq 1 12); do echo "Documentation line $i of the release"; done > Documentation/keys.txt
{
	echo "static const struct usb_device_id foo_table[] = {"
	echo "	{ USB_DEVICE(0x1234, 0x0001) },"
	echo "	{ USB_DEVICE(0x1234, 0x0002) },"
	echo "	{ }"
	echo "};"
	for i in $(seq 1 10); do echo "int foo_line_$i(void) { return $i; }"; done
} > drivers/usb/foo.c
for f in a b c d; do
	for i in $(seq 1 12); do echo "fs $f original line number $i of the release"; done > fs/$f.c
done
git add . && base=$(commit -m "base") && tag v2.6.30
line fs/a.c 3 "fs a line 3 reworked"
culprit=$(commit -am "fs: rework a")
line fs/b.c 10 "fs b line 10 reworked"
reverted=$(commit -am "fs: rework b")
# both ship in v2.6.31: what Fixes: and the revert name is released code
tag v2.6.31

m=$(printf 'KEYS\nM:\tSomeone Else <else@example.org>\nF:\tsecurity/keys/\n\n' > MAINTAINERS
	commit -am "MAINTAINERS: changed KEYS maintainership responsibilities")
mkdir -p drivers/net && for i in $(seq 1 30); do echo "new driver line $i"; done > drivers/net/bar.c
git add drivers/net/bar.c
n=$(commit -m "net: add the bar driver")
d=$(sed -i '3a\	{ USB_DEVICE(0x1234, 0x0003) },' drivers/usb/foo.c; commit -am "USB: foo: add the 0003 device")
c=$(line fs/b.c 5 "fs b line 5 fixed"; commit -am "fs: b: make the lookup work on long names

Cc: stable@kernel.org")
k=$(line Documentation/keys.txt 4 "Documentation line 4, corrected"; commit -am "Documentation: keys: the flag is spelled out

Cc: stable@kernel.org")
x=$(line fs/a.c 3 "fs a line 3 reworked, checked"; commit -am "fs: a: check the rework's bound

Fixes: ${culprit:0:12} (\"fs: rework a\")")
w=$(line fs/c.c 7 "fs c line 7 fixed"; commit -am "fs: c: fix a crash on unmount

Reported-by: Someone <someone@example.org>")
rv=$(t=$((t + 3600)); GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000" \
	git revert --no-edit "$reverted" >/dev/null && git rev-parse HEAD)
t=$((t + 3600))
u=$(echo "new driver line 31" >> drivers/net/bar.c; commit -am "net: bar: correct the last line

Fixes: ${n:0:12} (\"net: add the bar driver\")")
e=$(commit --allow-empty -m "fs: nothing at all")
s=$(line fs/d.c 2 "fs d line 2 changed"; commit -a --allow-empty-message -m "Acked-by: Someone <someone@example.org>
Signed-off-by: Dev <dev@example.org>")
b=$(line fs/d.c 4 "fs d line 4 changed"; commit -a --allow-empty-message -m "")
seq 1 100000 | sed 's/^/a very long message, line /' > "$tmp/long"
h=$(line fs/d.c 6 "fs d line 6 changed"; { echo "fs: d: a long story"; echo; cat "$tmp/long"; } | commit -a -F -)
tt=$(line fs/c.c 2 "fs c line 2 changed"; commit -am "fs: c: take the count from the inode

Tested-by: Someone <someone@example.org>")
bz=$(line fs/c.c 9 "fs c line 9 changed"; commit -am "fs: c: take the mode from the inode

See https://bugzilla.kernel.org/show_bug.cgi?id=15422 for the report.")
ff=$(for i in $(seq 1 6); do sed -i "3a\\fs a fixup entry $i" fs/a.c; done
	commit -am "fs: a: add a fixup table")
sp=$(sed -n 1,4p fs/b.c > fs/e.c && sed -i 1,4d fs/b.c && git add fs/e.c && commit -am "fs: split e out of b")
fe=$(line fs/e.c 2 "fs b line 2 fixed"; commit -am "fs: e: fix the lookup of long names")
uf=$(line fs/c.c 11 "fs c line 11 changed"; commit -am "fs: c: use after free on unmount")
nw=$(line fs/d.c 8 "fs d line 8 changed"; commit -am "fs: d: take the size from the inode")
tag v2.6.32-rc1
lt=$(line fs/d.c 10 "fs d line 10 changed"; commit -am "fs: d: take the size from the superblock")
tag v2.6.32-rc2
nf=$(line fs/c.c 10 "fs c line 10 changed"; commit -am "fs: c: take the flags from the inode

Since ${culprit:0:7} the flags are always set. No functional change.")
aa=$(line fs/d.c 3 "fs d line 3 changed"; commit -am "fs: d: drop the second size check

After commit ${culprit:0:10} the caller checks the size: we can drop ours.")
ab=$(line fs/d.c 5 "fs d line 5 changed"; commit -am "fs: d: check the size again

After commit ${culprit:0:10} a large file makes the mount crash.")
cd - >/dev/null || exit 1

# --- the triage: class, reason, verdict
j=$("$PATCHVER" -C "$r" --triage --json "$m" "$n" "$d" "$c" "$k" "$x" "$w" "$rv" "$u" "$e" "$s" "$b" "$h" \
	"$tt" "$bz" "$ff" "$fe" "$uf" "$nw" "$lt" "$nf" "$aa" "$ab")
expect_eq "$?" 0 "triage of every class: exit"
cls() { jq -r --arg c "$1" '.results[] | select(.fix.commit == $c) |
	"\(.class) \(.fix_class.class) \(.fix_class.fix_word // "-")"' <<<"$j"; }
# field COMMIT JQ-PATH: that field of the commit's result
field() { jq -r --arg c "$1" ".results[] | select(.fix.commit == \$c) | $2" <<<"$j"; }
reason() { field "$1" .fix_class.class_reason; }
expect_eq "$(cls "$m")" "not-a-fix not-a-fix -" "MAINTAINERS only: class"
expect_eq "$(reason "$m")" "changes only MAINTAINERS" "MAINTAINERS only: reason"
expect_eq "$(cls "$n")" "not-a-fix not-a-fix -" "a new driver: class"
expect_eq "$(reason "$n")" "adds new files only (a new driver or feature)" "a new driver: reason"
expect_eq "$(cls "$d")" "possible-stable-candidate possible-fix -" "a new device id: class"
expect_eq "$(reason "$d")" "adds a device id or quirk" "a new device id: reason"
expect_eq "$(field "$d" '.fix_class.signals | join(",")')" \
	"device-id" "a new device id: the signal"
expect_eq "$(cls "$c")" "stable-candidate fix cc-stable" "Cc: stable: class"
expect_eq "$(cls "$k")" "stable-candidate fix cc-stable" "Cc: stable on Documentation/: the word wins"
expect_eq "$(field "$k" .fix_class.shape)" \
	"documentation" "Cc: stable on Documentation/: its shape is kept"
expect_eq "$(cls "$x")" "stable-candidate fix fixes" "Fixes: released code: class"
expect_eq "$(reason "$x")" "Fixes: ${culprit:0:12}, which released kernels carry" "Fixes: reason"
expect_eq "$(cls "$w")" "possible-stable-candidate possible-fix -" "fix words: class"
expect_eq "$(reason "$w")" "\"fix\" in the subject, a Reported-by:" "fix words: reason"
expect_eq "$(field "$w" .cc_stable.note)" \
	"no Cc: stable tag, yet released kernels have the bug" "the possible candidate's note"
expect_eq "$(field "$c" .cc_stable.note)" \
	"Cc: stable is right" "the candidate's note"
expect_eq "$(cls "$rv")" "stable-candidate fix revert" "a revert of released code"
expect_eq "$(cls "$u")" "not-for-stable fix fixes" "Fixes: unreleased code: a fix, not for stable"
expect_eq "$(cls "$nf")" "not-a-fix not-a-fix -" "'No functional change' in the body: a cleanup"
expect_eq "$(reason "$nf")" "a cleanup (\"no functional change\" in the message)" "no functional change: reason"
expect_eq "$(field "$aa" '[.evidence[] | select(.kind == "named")] | length')" 0 \
	"'after X' beside a cleanup names no culprit"
expect_eq "$(field "$ab" '[.evidence[] | select(.kind == "named") | .target.commit] | join(",")')" \
	"$culprit" "'after X' in a bug's sentence names its culprit"
expect_eq "$(reason "$u")" "Fixes: ${n:0:12} (in no release before the fix)" "Fixes: unreleased code: reason"
expect_eq "$(cls "$e")" "not-a-fix not-a-fix -" "an empty commit"
expect_eq "$(reason "$e")" "changes no file" "an empty commit: reason"
expect_eq "$(cls "$s")" "not-a-fix not-a-fix -" "a message of only trailers"
expect_eq "$(cls "$b")" "not-a-fix not-a-fix -" "an empty message"
expect_contains "$(reason "$b")" "no sign of a fix" "an empty message: reason"
expect_eq "$(cls "$h")" "not-a-fix not-a-fix -" "a 100,000-line message"
signals() { field "$1" '.fix_class.signals | join(",")'; }
expect_eq "$(cls "$tt")" "possible-stable-candidate possible-fix -" "a Tested-by:: class"
expect_eq "$(reason "$tt")" "a Tested-by:" "a Tested-by:: reason"
expect_eq "$(signals "$tt")" "tested-by" "a Tested-by:: the signal"
expect_eq "$(cls "$bz")" "possible-stable-candidate possible-fix -" "a bug tracker: class"
expect_eq "$(reason "$bz")" "a bug tracker's entry" "a bug tracker: reason"
expect_eq "$(cls "$ff")" "not-a-fix not-a-fix -" "a feature with a fix word: class"
expect_contains "$(reason "$ff")" \
	"a feature or rework (\"add\" in the subject); its signs (\"fixup\" in the subject) score -" \
	"a feature with a fix word: the reason gives the score"
expect_eq "$(field "$ff" '.fix_class.features | join(",")')" "subject-fix,feature-words,lines-11-to-30,one-file" \
	"a feature with a fix word: what the score weighed"
expect_eq "$(field "$ff" '.fix_class.score | type')" \
	"number" "a feature with a fix word: the score in JSON"
expect_eq "$(field "$c" .fix_class.score)" \
	"null" "a fix by its word has no score"
# (the triage's blame, like git blame without -C, stops at the split)
expect_eq "$(cls "$fe" | cut -d' ' -f2)" "possible-fix" "a fix of split-out code: class"
expect_eq "$(cls "$uf")" "possible-stable-candidate possible-fix -" "use after free: class"
expect_eq "$(field "$uf" '.fix_class.features | join(",")')" "subject-fix-word,lines-up-to-10,one-file" \
	"use after free: no feature word in a fix's phrase"
expect_eq "$(cls "$nw")" "not-a-fix not-a-fix -" "no sign, merge window: class"
expect_contains "$(reason "$nw")" "no sign of a fix" "no sign, merge window: reason"
expect_eq "$(cls "$lt")" "possible-stable-candidate possible-fix -" "merged after -rc1: class"
expect_eq "$(reason "$lt")" "merged after -rc1" "merged after -rc1: reason"
expect_eq "$(signals "$lt")" "merged-after-rc1" "merged after -rc1: the signal"
# every class keeps its releases: blame still reports what the non-fix changes
expect_eq "$(field "$m" '.affected[0]')" \
	"v2.6.30" "not a fix: the releases are reported all the same"

text=$("$PATCHVER" -C "$r" --triage "$m")
expect_contains "$text" "is it a fix:      no: changes only MAINTAINERS" "text: is it a fix"
expect_contains "$text" "verdict:          not a fix: changes only MAINTAINERS" "text: the verdict"
text=$("$PATCHVER" -C "$r" --triage "$w")
expect_contains "$text" "verdict:          possible stable candidate: affects 2.6.30" "text: possible"
expect_contains "$text" "no Cc: stable tag, yet released kernels have the bug" "text: possible's note"
text=$("$PATCHVER" -C "$r" --triage "$x")
expect_contains "$text" "verdict:          stable candidate: affects 2.6.31" "text: candidate"
case "$text" in
*"no Cc: stable tag, yet"*) fail "a fix by its own word is no 'yet released kernels' guess" ;;
*) pass ;;
esac

# --- the audit: flags and counts, the same classes
j=$("$PATCHVER" -C "$r" --audit v2.6.31..v2.6.32-rc1 --series 2.6.30 --json)
expect_eq "$?" 0 "audit: exit"
row() { jq -r --arg c "$1" '.audit.commits[] | select(.commit == $c) |
	"\(.marked // "-") \(.class) \(.series["2.6.30"].needed)"' <<<"$j"; }
expect_eq "$(row "$m")" "- not-a-fix not-a-fix" "audit: MAINTAINERS"
expect_eq "$(row "$d")" "possible possible-fix yes" "audit: device id, needed"
expect_eq "$(row "$c")" "cc-stable fix yes" "audit: Cc: stable"
expect_eq "$(row "$w")" "possible possible-fix yes" "audit: fix words"
expect_eq "$(row "$u")" "fixes fix no" "audit: a fix of unreleased code"
expect_eq "$(row "$fe")" "possible possible-fix yes" "audit: fs/e.c's lines were in v2.6.30's fs/b.c"
expect_contains "$(jq -r --arg c "$fe" '.audit.commits[] | select(.commit == $c) | .series["2.6.30"].needed_evidence' <<<"$j")" \
	"the lines it changes are in v2.6.30" "audit: split-out code, the evidence"
expect_eq "$(jq -r '.audit.summary["2.6.30"] | "\(.commits) \(.fixes) \(.possible_fixes) \(.not_a_fix) \(.possible_candidates)"' <<<"$j")" \
	"20 5 6 9 6" "audit: counts by class"
expect_eq "$("$PATCHVER" -C "$r" --audit v2.6.31..v2.6.32-rc1 --series 2.6.30 --only possible --json |
	jq -r '[.audit.commits[].commit[0:12]] | sort | join(" ")')" \
	"$(printf '%s\n' "${d:0:12}" "${w:0:12}" "${tt:0:12}" "${bz:0:12}" "${fe:0:12}" "${uf:0:12}" | sort | tr '\n' ' ' | sed 's/ $//')" "--only possible"
text=$("$PATCHVER" -C "$r" --audit v2.6.31..v2.6.32-rc1 --series 2.6.30 --only all)
expect_contains "$text" "[p N-+] ${w:0:12} fs: c: fix a crash on unmount" "audit text: the possible flag"
expect_contains "$text" "[- x- ] ${m:0:12} MAINTAINERS" "audit text: not a fix"
expect_contains "$text" "possible candidates (looks like a fix, needed): 6; missing: 6" "audit text: summary"
finish
