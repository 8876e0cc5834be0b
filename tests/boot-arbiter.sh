#!/usr/bin/env bash
# The lab as arbiter (label "boot"), on the arbiter model history
# (make-model-kernel.sh ... arbiter): the fix's Fixes: names the commit
# that wrote a flawed path nothing reached; a later commit made it
# reachable.  The triage says "from the first" (v6.2-rc2); the boots put
# the start at v6.2-rc3, and --measure names the commit that exposed it.
# The fix calls a helper that came in after v6.2-rc3: on the older
# releases it does not build until the verify finds the helper's commit
# and applies it first, with fuzz (a commit before it moved its context).  A reproducer that never shows the bug, and a
# --bug that shows on the control too, measure nothing.
. "${TESTS:=$(cd "$(dirname "$0")" && pwd)}/lib.sh"
tmp=$(scratch)
trap 'rm -rf "$tmp"' EXIT
model=$tmp/arbiter.git
"$TESTS/make-model-kernel.sh" "$PATCHVER" "$model" arbiter || { fail "cannot make the arbiter model"; finish; exit 1; }
sha() { git -C "$model" log --format=%H --grep="^$1" -1; }
culprit=$(sha 'prctl: the model request$') exposer=$(sha 'prctl: wire up') helper=$(sha 'prctl: a helper')
fix=$(sha "prctl: reject") nowhere=$(sha "prctl: a call nothing defines") steps=$(sha "prctl: four steps")
title="WARNING: at kernel/sys.c __x64_sys_prctl"
m='.verify_boot.measure'
c='.verify_boot.candidates'
pv() { "$PATCHVER" -C "$model" --keep --verify-boot "$fix" --bug oops "$@"; }
row() { jq -r "$c[] | select(.name == \"$1\") | $2" <<<"$j"; }

# the plan says what --measure may add
pv --reproducer "$TESTS/model/prctl-arbiter.c" --measure --dry-run >"$tmp/plan" 2>/dev/null
expect_contains "$(cat "$tmp/plan")" "measure:  where the boots put the bug's boundary elsewhere than the text, at most 3 more build(s) at release level (2 release(s)" \
	"--dry-run --measure: the plan says what measuring may add"

# measured: one run, with the CVE record from the measured range
j=$(pv --reproducer "$TESTS/model/prctl-arbiter.c" --measure --cve-json --affected-from boot 2>"$tmp/err")
expect_eq "$?" 0 "measure: exit (stderr: $(tail -3 "$tmp/err"))"
expect_eq "$(jq -r "$m | \"\(.shape) \(.label) \(.text.first) \(.text.culprit)\"" <<<"$j")" \
	"bounded measured by boot v6.2-rc2 $culprit" "the text's range: from the culprit Fixes: names"
expect_eq "$(jq -r "$m.boot | \"\(.first) \(.first_commit) \(.start_confirmed)\"" <<<"$j")" \
	"v6.2-rc3 $exposer true" "the boots' range: from the commit that made the flaw reachable, confirmed"
expect_contains "$(jq -r "$m.line" <<<"$j")" \
	"the bug shows from v6.2-rc3 (first bad commit ${exposer:0:12}: prctl: wire up the model request)" \
	"the measured line names the first bad commit"
expect_contains "$(jq -r "$m.line" <<<"$j")" "the message names ${culprit:0:12} (v6.2-rc2): v6.2-rc2 carries its code but did not show this reproducer's bug" \
	"... beside what the message names"
expect_eq "$(jq -r "[$m.start_steps[] | select(.kind == \"commit\") | .verdict] | length > 0" <<<"$j")" true \
	"the steps down to the commits are in the JSON"
expect_eq "$(jq -r "[$m.start_steps[] | select(.kind == \"confirm\") | .boots] | join(\" \")" <<<"$j")" "3 3" \
	"confirmed as --bisect-boot confirms: 3 boots with it, 3 with it reverted"
expect_eq "$(row v6.2-rc2 '"\(.bug_seen) \(.outside_measured_range)"')" "false true" \
	"the text's first release: no bug, outside the measured range"
expect_eq "$(row v6.2-rc3 '"\(.role) \(.bug_seen)"')" "measured first affected release: the bug must show true" \
	"the measured first release is booted with and without the fix"
# the fix needs the helper on the older releases
for r in v6.2-rc2 v6.2-rc3; do
	expect_eq "$(row "$r+fix" '.build.prerequisites | join(";")')" \
		"${helper:0:12} prctl: a helper for the model request (defines prctl_model_arg_valid)" \
		"$r+fix builds with the helper's commit"
	expect_eq "$(row "$r+fix" '.patches | join(" ")')" "${helper:0:12} ${fix:0:12}" "$r+fix: the helper, then the fix"
	expect_contains "$(row "$r+fix" '.state')" "+${helper:0:12}(fuzz)+" \
		"$r+fix: the helper went in with fuzz (its context moved after $r), as the state says"
	expect_eq "$(row "$r+fix" '.as_expected')" true "$r+fix passes"
done
expect_eq "$(row v6.2+fix '.build.prerequisites | length')" 0 "v6.2 has the helper: nothing needed"
# the names check finds the same commit before any build
expect_eq "$("$PATCHVER" -C "$model" --backport "$fix" --onto v6.2-rc3 --json |
	jq -r '.missing_names | map(.name + " " + .file + " " + .commit) | join(",")')" \
	"prctl_model_arg_valid kernel/sys.c $helper" \
	"--backport: the helper the build needed, found statically in v6.2-rc3"
expect_eq "$(jq -r '.build_prerequisites | length' "$(row v6.2-rc3+fix '.boot.record')")" 1 \
	"the state's boot record names its build prerequisite"
expect_contains "$(row v6.2-rc3+fix '.build.object_log')" "object.log" "the failing object made again alone"
expect_eq "$(jq -r '.verify_boot | "\(.confirmed)"' <<<"$j")" true "confirmed on the measured range"
expect_contains "$(jq -r '.verify_boot.verdict' <<<"$j")" \
	"fix confirmed on the measured range: the bug shows in v6.2, v6.2-rc3 and is gone with ${fix:0:12} applied in every one; the text's v6.2-rc2 did not show this reproducer's bug" \
	"the verdict: confirmed where the bug shows, the text's extra release listed"
expect_eq "$(jq -r '.cve | "\(.affected_from) \(.affected[0].versions[-1].version)"' <<<"$j")" "boot $exposer" \
	"--affected-from boot: the CVE mainline git range starts at the measured commit"

# the same without --measure: the text's range in the CVE record, the start only bounded
j=$(pv --reproducer "$TESTS/model/prctl-arbiter.c" --cve-json 2>"$tmp/err")
expect_eq "$?" 0 "no --measure: exit (stderr: $(tail -3 "$tmp/err"))"
expect_eq "$(jq -r '.cve | "\(.affected_from) \(.affected[0].versions[-1].version)"' <<<"$j")" "text $culprit" \
	"CVE without --affected-from boot: the text's range"
expect_contains "$(jq -r "$m.line" <<<"$j")" "the bug shows from v6.2 at the latest (v6.2-rc2 did not show it; --measure finds where it starts)" \
	"without --measure: where the plan's boots put it, and how to narrow it"
expect_eq "$(jq -r "$m.requested" <<<"$j")" false "... not requested"

# the text output: the chain, the row outside the range, the measured line
pv --reproducer "$TESTS/model/prctl-arbiter.c" >"$tmp/out" 2>/dev/null
expect_contains "$(cat "$tmp/out")" "builds with: ${helper:0:12} prctl: a helper for the model request (defines prctl_model_arg_valid)" \
	"text: the build prerequisite chain"
expect_contains "$(grep '^v6.2-rc2 ' "$tmp/out")" "outside the measured range: expected the bug" \
	"text: the text's release without the bug"
expect_contains "$(cat "$tmp/out")" "measured: [measured by boot] the bug shows from v6.2 at the latest" \
	"text: the measured line"

# a reproducer that never shows the bug: nothing measured, not confirmed, kept in the JSON
printf '#include <sys/prctl.h>\nint main(void) { return prctl(0x70760002, 7, 0, 0, 0) == 3 ? 0 : 0; }\n' > "$tmp/quiet.c"
j=$(pv --reproducer "$tmp/quiet.c" --measure --max-states 3 --json 2>"$tmp/err")
expect_eq "$?" 12 "never shows: not confirmed"
expect_eq "$(jq -r "$m | \"\(.shape) \(.note)\"" <<<"$j")" "never the bug never showed: nothing measured" \
	"never shows: nothing measured"
expect_contains "$(jq -r '.verify_boot.verdict' <<<"$j")" "not confirmed: the bug never showed: nothing measured" \
	"never shows: the verdict says so"
# a --bug that the control shows too: reported, no range claimed
j=$(pv --reproducer "$TESTS/model/prctl-arbiter.c" --bug 'regex:model request' --measure --max-states 3 \
	--json 2>"$tmp/err")
expect_eq "$?" 12 "control shows it: not confirmed"
expect_eq "$(jq -r "$m | \"\(.shape) \(.boot.first)\"" <<<"$j")" "control null" "control shows it: no range claimed"
expect_contains "$(jq -r "$m.note" <<<"$j")" "the bug shows on the control v6.1 too" "control shows it: said"

# build prerequisites that cannot be completed: said on the row, the chain kept
few=(--reproducer "$TESTS/model/prctl-arbiter.c" --max-states 3 --json)
j=$("$PATCHVER" -C "$model" --keep --verify-boot "$nowhere" --bug oops "${few[@]}" 2>"$tmp/err")
expect_eq "$(row v6.2-rc2+fix '.status')" 13 "a call nothing defines: the state does not build"
expect_contains "$(row v6.2-rc2+fix '.why')" "build prerequisites: prctl_model_nowhere (implicit declaration) is defined nowhere in ${nowhere:0:12}'s parent" \
	"a call nothing defines: said"
j=$("$PATCHVER" -C "$model" --keep --verify-boot "$steps" --bug oops "${few[@]}" 2>"$tmp/err")
expect_eq "$(row v6.2-rc2+fix '.build.prerequisites | length')" 3 "one helper too many: 3 prerequisites found"
expect_contains "$(row v6.2-rc2+fix '.why')" "still does not build with 3 build prerequisites; next missing: prctl_model_step4 (implicit declaration)" \
	"one helper too many: the fourth is named"
expect_eq "$(row v6.2-rc2+fix '.patches | length')" 4 "... the three found stay applied before the fix"

"$PATCHVER" --cache-clean >/dev/null
finish
