#!/usr/bin/env bash
# Stable triage on the demo history: the seed story (not for stable, the
# Cc: stable flagged) and the mm bug that did ship (affected series, the
# backport, the missing series); blame cross-checked with git blame; bad
# patch input.
. "${TESTS:=$(cd "$(dirname "$0")" && pwd)}/lib.sh"
repo=$FIXTURES/demo.git
seed=$TESTS/seeds/001-vfs-fix-o-nofollow.patch
tmp=$(scratch)
trap 'rm -rf "$tmp"' EXIT
sha() { git -C "$repo" log --format=%H --no-merges --grep="$1" "${2:-master}" | tail -1; }

fix=$(sha 'O_NOFOLLOW behavior for paths')
switch=$(sha 'Switch !O_CREAT case')
restore=$(sha 'Restore LOOKUP_DIRECTORY')
mmfix=$(sha 'mm: fix anon_vma locking')
mmbug=$(sha 'mm: introduce vma_adjust_anon')
backport=$(sha 'mm: fix anon_vma locking' linux-2.6.33.y)

# --- the seed: the mail maps to the fix by patch-id, and the verdict is Linus's
j=$("$PATCHVER" -C "$repo" --json --triage --patch "$seed")
expect_eq "$?" 0 "seed triage exit"
r='.results[0]'
expect_eq "$(jq -r "$r.match" <<<"$j")" patch-id "seed match kind"
expect_eq "$(jq -r "$r.upstream.commit" <<<"$j")" "$fix" "seed maps to the fix"
expect_eq "$(jq -r "$r.evidence_used" <<<"$j")" blame "seed: evidence used"
expect_eq "$(jq -r "[$r.evidence[] | select(.kind == \"blame\" and .removed_lines + .neighbour_lines > 0) | .target.commit] | join(\" \")" <<<"$j")" \
	"$restore $switch" "seed: blame candidates, ranked"
expect_eq "$(jq -r "[$r.evidence[] | select(.kind == \"blame\" and .removed_lines > 0) | .target.first_release] | join(\" \")" <<<"$j")" \
	"v2.6.34-rc3 v2.6.34-rc1" "seed: candidates' first releases"
expect_eq "$(jq -r "$r.affected | join(\" \")" <<<"$j")" \
	"v2.6.34-rc1 v2.6.34-rc2 v2.6.34-rc3 v2.6.34-rc4 v2.6.34-rc5 v2.6.34-rc6 v2.6.34-rc7" "seed: affected"
expect_eq "$(jq -r "$r.verdict" <<<"$j")" \
	"not for stable: introduced in the v2.6.34 merge window (v2.6.34-rc1), fixed before v2.6.34; no released kernel affected" \
	"seed: verdict"
expect_eq "$(jq -r "$r.cc_stable.present" <<<"$j")" true "seed: Cc: stable seen in the mail"
expect_eq "$(jq -r "$r.cc_stable.note" <<<"$j")" \
	"Cc: stable was likely not needed: by the likeliest introducers, no released kernel had the bug" \
	"seed: Cc: stable flagged"
expect_eq "$(jq -r "[$r.series[] | select(.readiness != null)] | length" <<<"$j")" 0 \
	"seed: no released kernel lacks it: no readiness asked"

# --- the mm bug shipped: 2.6.32 and 2.6.33 affected, backported to 2.6.33.y only
j=$("$PATCHVER" -C "$repo" --json --triage "$mmfix")
r='.results[0]'
expect_eq "$(jq -r "$r.evidence_used" <<<"$j")" fixes "mm: evidence used"
expect_eq "$(jq -r "[$r.evidence[] | select(.kind == \"fixes\") | .target.commit] | join(\" \")" <<<"$j")" "$mmbug" "mm: Fixes: resolved"
expect_eq "$(jq -r "[$r.backports[].commit.commit] | join(\" \")" <<<"$j")" "$backport" "mm: the backport"
expect_eq "$(jq -r "[$r.series[] | select(.affected) | .series + \":\" + (.fixed_in // \"-\")] | join(\" \")" <<<"$j")" \
	"2.6.32:- 2.6.33:v2.6.33.2" "mm: series"
# 2.6.34 shipped with the fix in its first release: not affected, not "fixed before release"
expect_eq "$(jq -r "$r.series[] | select(.series == \"2.6.34\") | .affected" <<<"$j")" false \
	"mm: a series released with the fix is not affected"
expect_eq "$(jq -r "$r.confidence" <<<"$j")" certain "mm: a Fixes: trailer is certain"
expect_eq "$(jq -r "$r.verdict" <<<"$j")" \
	"stable candidate: affects 2.6.32 (v2.6.32–v2.6.32.11), 2.6.33 (v2.6.33–v2.6.33.1); already in v2.6.33.2; missing from 2.6.32.y" \
	"mm: verdict"
expect_eq "$(jq -r "$r.cc_stable.hint" <<<"$j")" "2.6.32+" "mm: Cc: stable hint"
# the series that lacks it: does the fix go into its newest tag (--backport's answer)
expect_eq "$(jq -r "[$r.series[] | select(.readiness != null) | .series + \" \" + .readiness.onto + \" \" + .readiness.answer + \" \" + .readiness.applies] | join(\",\")" <<<"$j")" \
	"2.6.32 v2.6.32.11 applies clean" "mm: 2.6.32.y lacks it, and it applies to v2.6.32.11"
git clone -q "$repo" "$tmp/w" && git -C "$tmp/w" checkout -q v2.6.32.11
if git -C "$repo" diff "$mmfix^" "$mmfix" | git -C "$tmp/w" apply --check; then pass; else
	fail "git: the mm fix does not apply to v2.6.32.11"; fi
out=$("$PATCHVER" -C "$repo" --triage "$mmfix")
expect_contains "$out" "  2.6.32     affected v2.6.32..v2.6.32.11, no fix yet
             applies to v2.6.32.11: clean" "mm: text: the row says where it applies"
expect_contains "$out" "verdict:          stable candidate: affects 2.6.32" "mm: text verdict"
expect_contains "$out" "[certain, from Fixes: evidence]" "mm: text confidence"
expect_eq "$(grep -c 'before release' <<<"$out")" 0 "mm: no series 'fixed before release'"
# --evidence text (the audit's): the message's culprit when it names one ...
jt=$("$PATCHVER" -C "$repo" --json --triage --evidence text "$mmfix")
expect_eq "$(jq -r "$r | \"\(.evidence_used) \([.series[] | select(.affected) | .series] | join(\",\"))\"" <<<"$jt")" \
	"fixes 2.6.32,2.6.33" "--evidence text: the Fixes: culprit decides, as with message"
expect_eq "$(jq -r "[$r.evidence[] | select(.kind == \"blame\")] | length" <<<"$jt")" 0 "--evidence text: no blame read"
# ... else the lines it changes, release by release
jt=$("$PATCHVER" -C "$repo" --json --triage --evidence text "$fix")
expect_eq "$(jq -r "$r | \"\(.evidence_used) \(.confidence)\"" <<<"$jt")" "lines uncertain" \
	"--evidence text without a named culprit: by the lines"
expect_contains "$(jq -r "$r.verdict" <<<"$jt")" "(by the lines it changes: the message names no culprit)" \
	"--evidence text: the verdict says how it knows"
expect_contains "$("$PATCHVER" -C "$repo" --triage --evidence text "$fix")" \
	"last changed by:  (not read: --evidence text is blame-free)" "--evidence text: text says blame was not read"
# 2.6.31 has no stable tags here: its release is known, its stable line is not
expect_contains "$out" "  2.6.31     not affected; its stable line unknown here (no tags)" \
	"mm: a series without stable tags, unknown here"
expect_eq "$(jq -r "$r.series[] | select(.series == \"2.6.31\") | .maintained" <<<"$j")" false \
	"mm: 2.6.31 has no stable tags (JSON)"
expect_contains "$out" "  2.6.32     affected v2.6.32..v2.6.32.11, no fix yet" "mm: 2.6.32.y has tags: no fix yet"

# a Fixes: trailer with the wrong subject is flagged, and counted once
git -C "$repo" format-patch -q --stdout -1 "$mmfix" |
	sed 's/^Fixes: \([0-9a-f]*\) .*/Fixes: \1 ("mm: some other subject")/' > "$tmp/wrongfixes"
j=$("$PATCHVER" -C "$repo" --json --triage --patch "$tmp/wrongfixes")
expect_eq "$(jq -r '[.results[0].evidence[] | select(.kind == "fixes")] | length' <<<"$j")" 1 "Fixes: counted once"
expect_eq "$(jq -r '.results[0].evidence[] | select(.kind == "fixes") | "\(.subject_mismatch) \(.claimed_subject)"' <<<"$j")" \
	"true mm: some other subject" "Fixes: wrong subject flagged"
out=$("$PATCHVER" -C "$repo" --triage --patch "$tmp/wrongfixes")
expect_contains "$out" 'the trailer says ("mm: some other subject")' "Fixes: mismatch in text"

# the backport names its upstream commit; its own triage finds the same
out=$("$PATCHVER" -C "$repo" "$backport")
expect_contains "$out" "backport of:    ${mmfix:0:12} (first release v2.6.34-rc2)" "backport of"

# --- --range limits where the mail is looked for
"$PATCHVER" -C "$repo" --patch "$seed" --range v2.6.34..master > "$tmp/out" 2>&1
expect_eq "$?" 11 "--range without the fix: no match"
out=$("$PATCHVER" -C "$repo" --patch "$seed" --range v2.6.33..v2.6.34)
expect_eq "$?" 0 "--range with the fix"
expect_contains "$out" "  first release:  v2.6.34" "--patch then reports the commit"
"$PATCHVER" -C "$repo" --patch "$seed" --range v2.6.34 > "$tmp/out" 2>&1
expect_eq "$?" 2 "--range without .."

# --- subject fallback: the same change rewritten
git -C "$repo" format-patch -q --stdout -1 "$mmfix" | sed 's/^+\tif (vma->anon_vma \&\& adjust > 0)/+\tif (vma->anon_vma \&\& adjust >= 1)/' > "$tmp/reworded"
out=$("$PATCHVER" -C "$repo" --patch "$tmp/reworded")
expect_eq "$?" 0 "subject match exit"
expect_contains "$out" "match:            subject" "subject match"

# --- blame agrees with git blame --porcelain on the lines each fix touches
for c in "$fix" "$mmfix" "$restore" $(git -C "$repo" rev-list --no-merges -12 master); do
	git -C "$repo" show --format= "$c" | awk '
		/^--- a\// { file = substr($0, 7) } /^--- \/dev\/null/ { file = "" }
		/^@@ -/ { split($2, a, ","); start = substr(a[1], 2) + 0; n = (a[2] == "" ? 1 : a[2] + 0);
			  if (file != "" && n > 0) print file, start, start + n - 1 }' > "$tmp/ranges"
	: > "$tmp/git-blame"
	while read -r file a b; do
		git -C "$repo" blame --porcelain -L "$a,$b" "$c^" -- "$file" | awk '/^[0-9a-f]+ [0-9]+ [0-9]+/ { print $1 }'
	done < "$tmp/ranges" | sort | uniq -c | awk '{ print $2, $1 }' | sort > "$tmp/git-blame"
	"$PATCHVER" -C "$repo" --json --triage "$c" |
		jq -r '.results[0].evidence[] | select(.kind == "blame") | "\(.ref) \(.removed_lines + .neighbour_lines + .context_lines)"' |
		sort > "$tmp/pv-blame"
	expect_files_same "$tmp/git-blame" "$tmp/pv-blame" "blame of ${c:0:12}"
done

# --- bad patch input: one line, its own exit code
expect_input_error() {   # CODE NEEDLE FILE
	"$PATCHVER" -C "$repo" --patch "$3" > "$tmp/out" 2> "$tmp/err"
	expect_eq "$?" "$1" "exit code for $3"
	expect_contains "$(cat "$tmp/err")" "$2" "message for $3"
	expect_eq "$(grep -c . "$tmp/err")" 1 "one line for $3"
}
: > "$tmp/empty"
head -c 4096 /dev/urandom > "$tmp/binary"
printf 'just some words\n' > "$tmp/words"
head -c $((100 << 20)) /dev/zero | tr '\0' 'a' > "$tmp/huge"
expect_input_error 10 "patch '$tmp/empty' is empty" "$tmp/empty"
expect_input_error 10 "is binary" "$tmp/binary"
expect_input_error 10 "larger than 64 MiB" "$tmp/huge"
expect_input_error 10 "cannot read patch '$tmp/missing'" "$tmp/missing"
expect_input_error 10 "'$tmp/words' holds no mail and no diff" "$tmp/words"
sed 's|fs/namei.c|fs/nonexistent.c|g; s/^Subject: .*/Subject: [PATCH] something else entirely/' "$seed" > "$tmp/nofile"
"$PATCHVER" -C "$repo" --patch "$tmp/nofile" > "$tmp/out" 2>&1
expect_eq "$?" 11 "files not in the repository: no match"
expect_contains "$(cat "$tmp/out")" "match:            none" "no match is reported"
# --- --introducer: a person's word on who introduced the bug replaces the
# message's and blame's (both still listed, blame marked not used)
base=$(git -C "$repo" rev-parse v2.6.31^{commit})
j=$("$PATCHVER" -C "$repo" --json --triage "$fix" --introducer "$base")
expect_eq "$?" 0 "--introducer: exit"
expect_eq "$(jq -r "$r.class, $r.confidence, $r.evidence_used" <<<"$j" | tr '\n' ' ')" \
	"possible-stable-candidate given given " "--introducer: class, confidence, evidence used"
expect_eq "$(jq -r "[$r.evidence[] | select(.used) | \"\(.kind) \(.target.commit)\"] | join(\",\")" <<<"$j")" \
	"given $base" "--introducer: the given commit is the one used"
expect_eq "$(jq -r "[$r.evidence[] | select(.kind == \"blame\" and .used)] | length" <<<"$j")" 0 \
	"--introducer: blame listed, not used"
expect_eq "$(jq -r "[$r.series[] | select(.affected) | .series] | join(\" \")" <<<"$j")" \
	"2.6.31 2.6.32 2.6.33" "--introducer: the series its code reached, affected"
expect_eq "$(jq -r "$r.fix_class.class" <<<"$j")" possible-fix "--introducer: is it a fix? still the message's answer"
# and back: the real introducer (the do_last() rewrite) leaves no series affected
j=$("$PATCHVER" -C "$repo" --json --triage "$fix" --introducer "$switch")
expect_eq "$(jq -r "[$r.series[] | select(.affected)] | length" <<<"$j")" 0 "--introducer: not affected again"
expect_eq "$("$PATCHVER" -C "$repo" --triage "$fix" --introducer none --json | jq -r "[$r.evidence[] | select(.kind == \"given\") | .target.commit] | join(\" \")")" \
	"$(git -C "$repo" rev-list --max-parents=0 --first-parent "$fix")" "--introducer none: the root commit"
expect_eq "$("$PATCHVER" -C "$repo" --triage "$fix" --introducer "$base" --cve-json | jq -c '.results[0].affected[1].versions[0]')" \
	'{"version":"2.6.31","status":"affected"}' "--introducer with --cve-json: the record follows"
expect_contains "$("$PATCHVER" -C "$repo" --triage "$fix" --introducer "$base")" \
	"  given           ${base:0:12}  v2.6.31" "--introducer text: the given line"
# --dyad follows the given introducer: from v2.6.32's release to the fix's;
# the real one (same cycle as the fix) pairs 2.6.34 with 2.6.34; none: 0:0
v32=$(git -C "$repo" rev-parse v2.6.32^{commit})
expect_eq "$("$PATCHVER" -C "$repo" --triage "$fix" --introducer "$v32" --dyad | tail -n +2)" \
	"2.6.32:$v32:2.6.34:$fix" "--introducer with --dyad: the pair starts at the given commit"
expect_eq "$("$PATCHVER" -C "$repo" --triage "$fix" --introducer "$switch" --dyad | tail -n +2)" \
	"2.6.34:$switch:2.6.34:$fix" "--introducer with --dyad: and back"
expect_eq "$("$PATCHVER" -C "$repo" --triage "$fix" --introducer none --dyad | tail -n +2)" \
	"0:0:2.6.34:$fix" "--introducer none with --dyad: 0:0, as dyad writes an unknown start"
# bad --introducer: each one line naming it, nothing written
for bad in "v2.6.34^{tree}:6:names a tree" "0123456789abcdef0123456789abcdef01234567:4:unknown revision" \
	   "v2.6.35-rc1:2:not below the fix" "$fix:2:not below the fix" ":2:an empty id"; do
	id=${bad%%:*}; rest=${bad#*:}; code=${rest%%:*}; words=${rest#*:}
	"$PATCHVER" -C "$repo" --triage "$fix" --introducer "$id" >/dev/null 2>"$tmp/err"
	expect_eq "$?" "$code" "--introducer '$id': exit"
	expect_contains "$(cat "$tmp/err")" "$words" "--introducer '$id': the message"
	expect_eq "$(wc -l < "$tmp/err")" 1 "--introducer '$id': one line"
done
"$PATCHVER" -C "$repo" --triage "$fix" "$mmfix" --introducer "$base" >/dev/null 2>"$tmp/err"
expect_eq "$?" 2 "--introducer with two fixes: exit"
"$PATCHVER" -C "$repo" --triage "$fix" --introducer none --introducer "$base" >/dev/null 2>"$tmp/err"
expect_eq "$?" 2 "--introducer none with another: exit"
for bad in "--dyad" "--triage --dyad --json" "--triage --dyad --cve-json"; do
	# shellcheck disable=SC2086
	"$PATCHVER" -C "$repo" $bad "$fix" >/dev/null 2>"$tmp/err"
	expect_eq "$?" 2 "$bad: usage error"
	expect_contains "$(cat "$tmp/err")" "--dyad writes dyad's lines for --triage" "$bad: the message"
done
"$PATCHVER" -C "$repo" "$fix" --introducer "$base" >/dev/null 2>"$tmp/err"
expect_eq "$?" 2 "--introducer without --triage: exit"
expect_contains "$(cat "$tmp/err")" "--introducer goes with --triage" "--introducer without --triage: message"
finish
