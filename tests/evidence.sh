#!/usr/bin/env bash
# Message evidence and verdicts per group of hunks, on a small history made
# here (fixed dates, so the same every run):
#   - "introduced by <sha> ("subject")" names a culprit: certain, and the
#     fix's hunk that rewrites older code gets its own, weaker verdict;
#   - a culprit named by its quoted subject ('the regression created by
#     "..." commit') is found among the ancestors touching the same file;
#   - shas that name a tree, a blob, nothing, two objects, or a commit newer
#     than the fix are reported, never used;
#   - --evidence blame ignores the message; --evidence message ignores blame;
#   - a binary file and a 10,000-line hunk in the fix, and a fix whose file
#     was renamed since: no crash, an answer.
. "${TESTS:=$(cd "$(dirname "$0")" && pwd)}/lib.sh"
tmp=$(scratch)
trap 'rm -rf "$tmp"' EXIT
repo=$tmp/repo
git init -q -b master "$repo"
n=0
commit() {   # MESSAGE: commit everything with the next fixed date
	n=$((n + 1))
	git -C "$repo" add -A
	GIT_AUTHOR_DATE="$((1262304000 + n * 86400)) +0000" GIT_COMMITTER_DATE="$((1262304000 + n * 86400)) +0000" \
		git -C "$repo" -c user.name=T -c user.email=t@example.org commit -q -m "$1"
	git -C "$repo" rev-parse HEAD
}
tag() { GIT_COMMITTER_DATE="$((1262304000 + n * 86400 + 3600)) +0000" \
	git -C "$repo" -c user.name=T -c user.email=t@example.org tag -a -m "$1" "$1"; }
lines() { seq "$1" "$2" | sed 's/^/int line_/; s/$/;/'; }

lines 1 40 >"$repo/a.c"
commit "a: the first version" >/dev/null
tag v3.0
sed -i 's/^int line_5;/int line_5 = 5;/' "$repo/a.c"
old=$(commit "a: give line 5 a value")
tag v3.1
tag v3.2-rc1
sed -i 's/^int line_30;/int line_30 = 30;/; s/^int line_31;/int line_31 = 31;/' "$repo/a.c"
culprit=$(commit "a: new values for 30 and 31")
tag v3.2-rc2
tag v3.2
tag v3.2.1
sed -i 's/^int line_30 = 30;/int line_30 = 300;/; s/^int line_5 = 5;/int line_5 = 50;/' "$repo/a.c"
fix=$(commit "a: fix the values

This is a regression introduced by ${culprit:0:12} (\"a: new values for 30 and 31\").")
sed -i 's/^int line_31 = 31;/int line_31 = 310;/' "$repo/a.c"
quoted=$(commit 'Fix the regression created by "a: new values for..." commit')
tree=$(git -C "$repo" rev-parse HEAD^{tree})
blob=$(git -C "$repo" rev-parse HEAD:a.c)
sed -i 's/^int line_40;/int line_40 = 40;/' "$repo/a.c"
bogus=$(commit "a: line 40

Caused by commit ${tree:0:12}, since ${blob:0:12}, broken by deadbeefcafe1234.")
# a binary file and a 10,000-line hunk
printf '\0\1\2binary' >"$repo/b.bin"
lines 1 10000 >"$repo/big.c"
commit "add big files" >/dev/null
printf '\0\1\3binary' >"$repo/b.bin"
seq 1 10000 | sed 's/^/long v_/; s/$/;/' >"$repo/big.c"
sed -i 's/^int line_39;/int line_39 = 39;/' "$repo/a.c"
large=$(commit "rewrite big.c, change b.bin and line 39")
tag v3.3-rc1
# a culprit newer than the fix: named from a side branch off an older commit
git -C "$repo" checkout -q -b side "$old"
sed -i 's/^int line_10;/int line_10 = 10;/' "$repo/a.c"
newer_fix=$(commit "a: line 10

Introduced by ${large:0:12}.")
git -C "$repo" checkout -q master
git -C "$repo" mv a.c renamed.c
commit "rename a.c" >/dev/null
tag v3.3
# Cc: stable with blame: the fix only adds a line in code released in
# v3.4; the context holds a line changed days before, in the fix's own
# cycle, which blame alone finds likelier
lines 1 20 >"$repo/c.c"
c_old=$(commit "c: the first version")
tag v3.4-rc1
tag v3.4
n=$((n + 30))
sed -i 's/^int line_12;/int line_12 = 12;/; s/^int line_13;/int line_13 = 13;/' "$repo/c.c"
c_new=$(commit "c: give lines 12 and 13 values")
tag v3.5-rc1
sed -i 's/^int line_9;/int line_9;\nint line_9b;/' "$repo/c.c"
ccfix=$(commit "c: declare line 9b

Cc: stable@vger.kernel.org")
# two parts: hunk 1 rewrites a line released in v3.4, hunk 2 adds one
# between two lines changed in the fix's own cycle (stronger evidence)
sed -i 's/^int line_3;/int line_3 = 3;/; s/^int line_12 = 12;/int line_12 = 12;\nint line_12b;/' "$repo/c.c"
ccparts=$(commit "c: line 3 and 12b

Cc: stable@vger.kernel.org")
# a tie: one line beside it from the fix's cycle, one released in v3.4
sed -i 's/^int line_13 = 13;/int line_13 = 13;\nint line_13b;/' "$repo/c.c"
cctie=$(commit "c: declare line 13b

Cc: stable@vger.kernel.org")
tag v3.5-rc2
# a fix of a bug its own cycle brought (named: not for stable), which the
# stable team backported all the same
sed -i 's/^int line_15;/int line_15 = 15;/' "$repo/c.c"
ownfix=$(commit "c: line 15

Introduced by ${c_new:0:12}.")
tag v3.5-rc3
git -C "$repo" checkout -q -b stable-3.4 v3.4
sed -i 's/^int line_15;/int line_15 = 15;/' "$repo/c.c"
commit "c: line 15

commit $ownfix upstream." >/dev/null
tag v3.4.1
git -C "$repo" checkout -q master
# a sha that names two objects: blobs whose ids share 8 hex digits (the
# first pair among the contents "ambiguous N", N = 0, 1, ...)
printf 'ambiguous 46438\n' | git -C "$repo" hash-object -w --stdin >/dev/null
printf 'ambiguous 146689\n' | git -C "$repo" hash-object -w --stdin >/dev/null
sed -i 's/^int line_18;/int line_18 = 18;/' "$repo/c.c"
ambig=$(commit "c: line 18

Caused by commit 59830d35.")
# the culprit quoted as git show prints it, the verb after its subject
sed -i 's/^int line_19;/int line_19 = 19;/' "$repo/c.c"
showfix=$(commit "c: line 19

commit $c_new
Author: T <t@example.org>
Date:   Sun Feb 14 00:00:00 2010 +0000

    c: give lines 12 and 13 values

introduced a bug in line 19, which this fixes.")
# a fix whose other hunk only adds an #include between lines a newer
# commit wrote: the include decides nothing, the rewritten old line does
{ echo '#include <x.h>'; lines 1 20; } >"$repo/d.c"
d_old=$(commit "d: the first version")
tag v3.5
sed -i 's/^#include <x.h>/#include <x.h>\n#include <y.h>\n#include <w.h>/' "$repo/d.c"
d_inc=$(commit "d: include y.h and w.h")
tag v3.6-rc1
sed -i 's/^#include <y.h>/#include <y.h>\n#include <z.h>/; s/^int line_15;/int line_15 = 15;/' "$repo/d.c"
incfix=$(commit "d: fix a crash in line 15")
# "since X" as a date (a cleanup) and as a cause (a bug beside it)
sed -i 's/^int line_17;/int line_17 = 17;/' "$repo/d.c"
since_date=$(commit "d: drop the obsolete check of line 17

Since ${d_inc:0:12} line 17 is always set. We can remove the check.")
sed -i 's/^int line_18;/int line_18 = 18;/' "$repo/d.c"
since_bug=$(commit "d: line 18

Since ${d_inc:0:12} line 18 is read before it is set, which crashes.")

pv() { "$PATCHVER" -C "$repo" "$@"; }
r='.results[0]'

# a named culprit decides: certain; the older rewritten line is its own group
j=$(pv --json --triage "$fix")
expect_eq "$?" 0 "named culprit: exit"
expect_eq "$(jq -r "$r.evidence[] | select(.kind == \"named\") | \"\(.phrase) \(.target.commit) \(.subject_mismatch)\"" <<<"$j")" \
	"regression introduced by $culprit false" "named culprit: resolved, subject checked"
expect_eq "$(jq -r "$r.confidence" <<<"$j")" certain "named culprit: certain"
expect_eq "$(jq -r "$r.affected | join(\" \")" <<<"$j")" "v3.2-rc2 v3.2 v3.2.1" "named culprit: affected releases"
expect_eq "$(jq -r "$r.groups | length" <<<"$j")" 2 "named culprit: two groups"
expect_eq "$(jq -r "$r.groups[1] | \"\(.confidence) \(.introducers[0].commit.commit) \(.affected[0])\"" <<<"$j")" \
	"likely $old v3.1" "the older hunk: its own, weaker verdict"
out=$(pv --triage "$fix")
expect_contains "$out" "[certain, from named evidence]" "text: confidence"
expect_contains "$out" "other parts of the fix, traced by blame (weaker evidence):" "text: other parts"

# the message ignored: blame alone, still per hunk
j=$(pv --json --triage --evidence blame "$fix")
expect_eq "$(jq -r "[$r.groups[] | .confidence] | join(\" \")" <<<"$j")" "likely likely" "--evidence blame: two blame groups"
expect_eq "$(jq -r "[$r.evidence[] | select(.kind == \"named\")] | length" <<<"$j")" 1 \
	"--evidence blame: the message is still shown"
# only the message: no blame verdict without it
j=$(pv --json --triage --evidence message "$bogus")
expect_eq "$(jq -r "$r.confidence + \" \" + $r.verdict" <<<"$j")" \
	"none unknown: no introducing commit found" "--evidence message without a culprit: unknown"
# a 10,000-line rewrite with no word of a fix: not a fix, whatever the evidence
j=$(pv --json --triage --evidence message "$large")
expect_eq "$(jq -r "$r.class + \": \" + $r.verdict" <<<"$j")" \
	"not-a-fix: not a fix: no word of a fix, and 20006 lines with context: over the stable rules' 100" \
	"a large rewrite without a word of a fix: not a fix"
out=$(pv --triage "$large")
expect_contains "$out" "affected:         none: not a fix" \
	"not a fix: no affected range claimed"
expect_contains "$out" "stable series:    not judged: not a fix" "not a fix: no series rows"
expect_eq "$(grep -c '^applies to:' <<<"$out")" 0 "not a fix: no applies-to"

# a culprit named by its quoted subject, a prefix ending in "..."
j=$(pv --json --triage "$quoted")
expect_eq "$(jq -r "$r.evidence[] | select(.kind == \"named\") | .target.commit" <<<"$j")" "$culprit" \
	"quoted subject resolved"
expect_eq "$(jq -r "$r.confidence" <<<"$j")" certain "quoted subject: certain"

# shas that are not commits of the history, each reported with why
j=$(pv --json --triage "$bogus")
expect_eq "$?" 0 "unresolved shas: exit"
expect_eq "$(jq -r "[$r.evidence[] | select(.unresolved) | .unresolved] | join(\", \")" <<<"$j")" \
	"a tree, a blob, unknown" "unresolved shas: tree, blob, unknown"
out=$(pv --triage "$bogus")
expect_contains "$out" "${tree:0:12} (not resolved: a tree)" "text: a tree reported"
expect_contains "$out" "deadbeefcafe1234 (not resolved: unknown)" "text: unknown sha reported"

# a culprit newer than the fix is flagged and not used
j=$(pv --json --triage "$newer_fix")
expect_eq "$(jq -r "$r.evidence[] | select(.kind == \"named\") | .not_ancestor" <<<"$j")" true \
	"newer culprit flagged"
expect_eq "$(jq -r "$r.evidence_used" <<<"$j")" blame "newer culprit: not used"
expect_contains "$(pv --triage "$newer_fix")" "not below the fix" "text: newer culprit"

# Cc: stable: the developer holds that released kernels have the bug, so
# blame's likeliest owner is taken among code older than the fix's cycle
j=$(pv --json --triage "$ccfix")
expect_eq "$(jq -r "$r | \"\(.confidence) \(.introducers[0].commit.commit) \(.affected[0]) \(.groups[0].cc_stable_led)\"" <<<"$j")" \
	"likely $c_old v3.4-rc1 true" "Cc: stable: released code preferred"
expect_eq "$(jq -r "$r.cc_stable.note" <<<"$j")" "Cc: stable is right" "Cc: stable: agreed"
expect_contains "$(pv --triage "$ccfix")" "[likely, from blame evidence read with the message's Cc: stable]" \
	"text: Cc: stable led"
j=$(pv --json --triage --evidence blame "$ccfix")
expect_eq "$(jq -r "$r | \"\(.introducers[0].commit.commit) \(.groups[0].cc_stable_led)\"" <<<"$j")" \
	"$c_new false" "--evidence blame: the recent context line wins"
expect_contains "$(jq -r "$r.verdict" <<<"$j")" "not for stable" "--evidence blame: not for stable"
expect_eq "$(jq -r "$r.confidence + \": \" + $r.cc_stable.note" <<<"$j")" \
	"uncertain: Cc: stable may be right: blame is uncertain, older code (from v3.4-rc1) is among what the fix changes" \
	"--evidence blame: uncertain, so Cc: stable is not called unneeded"

# ... and the part of the fix in released code makes the headline
j=$(pv --json --triage "$ccparts")
expect_eq "$(jq -r "[$r.groups[] | \"\(.hunks[0]):\(.introducers[0].commit.commit):\(.cc_stable_led)\"] | join(\" \")" <<<"$j")" \
	"1:$c_old:true 2:$c_new:false" "Cc: stable: the released part first"
expect_contains "$(jq -r "$r.verdict" <<<"$j")" "stable candidate: affects 3.4" "Cc: stable: released part's verdict"
j=$(pv --json --triage --evidence blame "$ccparts")
expect_eq "$(jq -r "[$r.groups[] | \"\(.hunks[0]):\(.introducers[0].commit.commit)\"] | join(\" \")" <<<"$j")" \
	"2:$c_new 1:$c_old" "--evidence blame: the likelier recent part first"

# ... and on a tie, the developer's Cc: stable decides for released code
j=$(pv --json --triage "$cctie")
expect_eq "$(jq -r "$r | \"\(.confidence) \(.introducers[0].commit.commit) \(.groups[0].cc_stable_led)\"" <<<"$j")" \
	"uncertain $c_old true" "Cc: stable: a tie goes to released code"
j=$(pv --json --triage --evidence blame "$cctie")
expect_eq "$(jq -r "$r.introducers[0].commit.commit" <<<"$j")" "$c_new" "--evidence blame: a tie goes to the recent"

# a sha that is ambiguous: reported as such, not used
expect_contains "$(git -C "$repo" cat-file -t 59830d35 2>&1)" "ambiguous" "fixture: 59830d35 is ambiguous to git"
j=$(pv --json --triage "$ambig")
expect_eq "$?" 0 "ambiguous sha: exit"
expect_eq "$(jq -r "[$r.evidence[] | select(.unresolved) | \"\(.ref) \(.unresolved)\"] | join(\", \")" <<<"$j")" \
	"59830d35 ambiguous" "ambiguous sha reported"
expect_eq "$(jq -r "$r.evidence_used" <<<"$j")" blame "ambiguous sha: not used"

# the stable team's backport against a not-for-stable verdict is flagged
j=$(pv --json --triage "$ownfix")
expect_eq "$(jq -r "$r.confidence + \": \" + $r.verdict" <<<"$j")" \
	"certain: not for stable: introduced in the v3.5 merge window (v3.5-rc1), fixed before v3.5; no released kernel affected" \
	"own-cycle fix: not for stable"
expect_eq "$(jq -r "$r.cc_stable.note" <<<"$j")" "backported to stable all the same (v3.4.1): check" \
	"own-cycle fix: the backport flagged"

# a binary file and a 10,000-line hunk; the file renamed since
j=$(pv --json --triage "$large")
expect_eq "$?" 0 "binary file and 10,000-line hunk: exit"
expect_eq "$(jq -r "[$r.evidence[] | select(.kind == \"blame\")] | length > 0" <<<"$j")" true \
	"10,000-line hunk blamed"
pv --triage "$fix" >/dev/null
expect_eq "$?" 0 "fix whose file was renamed since"

j=$(pv --json --triage --evidence blame "$incfix")
expect_eq "$(jq -r "$r | \"\(.groups | length) \(.introducers[0].commit.commit) \(.affected[0])\"" <<<"$j")" \
	"1 $d_old v3.5" "an added #include between newer lines decides nothing: the rewritten line does"
expect_eq "$(jq -r "[$r.evidence[] | select(.kind == \"blame\") | .target.commit] | index(\"$d_inc\") != null" <<<"$j")" \
	true "the include's neighbours are still blamed and shown"
expect_eq "$(pv --json --triage "$since_date" | jq -r "[$r.evidence[] | select(.kind != \"blame\") | .kind] | join(\" \")")" \
	"" "\"since X\" without a bug in its sentence: a date, not a culprit"
expect_eq "$(pv --json --triage "$since_bug" | jq -r "[$r.evidence[] | select(.kind != \"blame\") | \"\(.kind) \(.phrase)\"] | join(\" \")")" \
	"named since" "\"since X\" beside a bug: names the culprit"
j=$(pv --json --triage "$showfix")
expect_eq "$(jq -r "[$r.evidence[] | select(.kind != \"blame\") | \"\(.kind) \(.phrase) \(.target.commit)\"] | join(\";\")" <<<"$j")" \
	"named introduced $c_new" "a culprit quoted as git show prints it: named"
finish
