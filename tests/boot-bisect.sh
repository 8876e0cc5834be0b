#!/usr/bin/env bash
# --bisect-boot on the model kernel history (label "boot"): the regression
# lands between v6.2-rc2 and v6.2-rc3, right before a commit that breaks
# the build; the fix lands in v6.3-rc2.  The bisection must name the
# exact releases and commits, skip the broken build (never call it bad),
# confirm each answer with repeated boots and a revert, agree with the
# triage, and resume from its log without booting again.  --dry-run prints
# the plan and builds, boots and journals nothing.
. "${TESTS:=$(cd "$(dirname "$0")" && pwd)}/lib.sh"
tmp=$(scratch)
trap 'rm -rf "$tmp"' EXIT
model=$tmp/model.git
"$TESTS/make-model-kernel.sh" "$PATCHVER" "$model" || { fail "cannot make the model repository"; finish; exit 1; }
regress=$(git -C "$model" log --format=%H --grep='^namei: model' -1)
broken=$(git -C "$model" log --format=%H --grep='^init: a commit that breaks' -1)
fix=$(git -C "$model" rev-parse 'v6.3-rc2^{commit}')
b='.bisect_boot'
snapshot() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 sha256sum); }
snapshot "$model" > "$tmp/before"

# --dry-run: the plan before anything is built (5 releases after v6.1 up to
# v6.2: 3 steps; the largest first-parent gap between two of them, 3
# commits: 2 steps), and nothing built, booted or journaled
cache=$XDG_CACHE_HOME/patchver
ls "$cache/images" "$cache/boots" > "$tmp/cache-before" 2>/dev/null
plan=$("$PATCHVER" -C "$model" --bisect-boot --good v6.1 --bad v6.2 --fix v6.3 --commits --dry-run --json \
	--reproducer nofollow 2>"$tmp/err")
expect_eq "$?" 0 "--dry-run: exit (stderr: $(tail -3 "$tmp/err"))"
expect_eq "$(jq -r "$b.plan.regression | \"\(.releases) \(.release_steps) \(.largest_commit_gap) \(.commit_steps) \(.states)\"" <<<"$plan")" \
	"5 3 3 2 6" "--dry-run: the regression's releases, steps and commit gap"
expect_eq "$(jq -r "$b.plan.fix | \"\(.old) \(.new) \(.releases)\"" <<<"$plan")" "null v6.3 8" \
	"--dry-run: the fix's search, from the first bad state (at most 8 releases)"
# (the kernel tests share a warm cache: what is cached and recorded varies)
expect_eq "$(jq -r "$b.plan | \"\(.max_boots) \(.max_builds <= 16)\"" <<<"$plan")" "26 true" \
	"--dry-run: boots and builds at most"
expect_eq "$(ls "$cache/images" "$cache/boots" 2>/dev/null)" "$(cat "$tmp/cache-before")" \
	"--dry-run: no image built, no boot logged"
expect_eq "$(ls "$(jq -r "$b.log" <<<"$plan")" 2>/dev/null)" "" "--dry-run: no journal written"
out=$("$PATCHVER" -C "$model" --bisect-boot --good v6.1 --bad v6.2 --dry-run --reproducer nofollow 2>&1)
expect_contains "$out" "plan:     regression v6.1..v6.2: 5 release(s), at most 3 release step(s);" "--dry-run, text: the plan"
expect_contains "$out" "dry run: nothing built or booted" "--dry-run, text: said"

j=$("$PATCHVER" -C "$model" --bisect-boot --good v6.1 --bad v6.2 --fix v6.3 --commits --json --keep \
	--reproducer nofollow 2>"$tmp/err")
expect_eq "$?" 0 "bisect: exit (stderr: $(tail -3 "$tmp/err"))"
expect_eq "$(jq -r "$b.plan.regression.releases" <<<"$j")" 5 "the run's JSON has its plan"
expect_eq "$(jq -r "$b.regression | \"\(.last_old) \(.first_new)\"" <<<"$j")" "v6.2-rc2 v6.2-rc3" "the first bad release"
expect_eq "$(jq -r "$b.regression.commit" <<<"$j")" "$regress" "the commit that introduced it"
expect_eq "$(jq -r "$b.fix | \"\(.last_old) \(.first_new)\"" <<<"$j")" "v6.3-rc1 v6.3-rc2" "the first fixed release"
expect_eq "$(jq -r "$b.fix.commit" <<<"$j")" "$fix" "the commit that fixed it"
expect_eq "$(jq -r "[$b.steps[] | select(.label | startswith(\"${broken:0:12}\")) | .verdict] | join(\" \")" <<<"$j")" \
	"skip" "the commit that does not build is skipped, not bad"
expect_eq "$(jq -r "$b.regression.confirmed and $b.fix.confirmed" <<<"$j")" true "both answers confirmed"
expect_eq "$(jq -r "$b.regression | \"\(.confirm_new)/\(.confirm_boots) \(.confirm_old)/\(.confirm_boots)\"" <<<"$j")" \
	"3/3 3/3" "the culprit fails 3 boots, the release with it reverted passes 3"
expect_eq "$(jq -r "$b.affected_by_boots | join(\" \")" <<<"$j")" "v6.2-rc3 v6.2-rc4 v6.2 v6.3-rc1" "affected releases, by boots"
expect_eq "$(jq -r "$b.agree" <<<"$j")" true "the boots agree with the triage"
expect_eq "$(jq -r "$b.triage_names_culprit" <<<"$j")" true "the triage's blame names the boot-bisected commit"
steps=$(jq -r "$b.steps | length" <<<"$j")
expect_eq "$([ "$steps" -le 16 ] && echo ok)" ok "a bisection, not a walk ($steps steps)"

# a C reproducer finds the same commits, a shell reproducer the same releases
# (images kept: boots only; the shell one by releases, to keep CI short)
for kind in C shell; do
	model_reproducer "$kind" "$tmp"
	commits=--commits
	[ "$kind" = shell ] && commits=
	j=$("$PATCHVER" -C "$model" --bisect-boot --good v6.1 --bad v6.2 --fix v6.3 $commits --json --keep \
		"${repro_args[@]}" 2>"$tmp/err")
	expect_eq "$?" 0 "$kind reproducer: bisect exit (stderr: $(tail -3 "$tmp/err"))"
	expect_eq "$(jq -r "$b.regression | \"\(.last_old) \(.first_new)\"" <<<"$j")" "v6.2-rc2 v6.2-rc3" \
		"$kind reproducer: the first bad release"
	expect_eq "$(jq -r "$b.affected_by_boots | join(\" \")" <<<"$j")" "v6.2-rc3 v6.2-rc4 v6.2 v6.3-rc1" \
		"$kind reproducer: affected releases, by boots"
	[ "$kind" = C ] || continue
	expect_eq "$(jq -r "$b.regression.commit + \" \" + $b.fix.commit" <<<"$j")" "$regress $fix" \
		"$kind reproducer: the culprit and the fix"
	expect_eq "$(jq -r "[$b.steps[] | select(.label | startswith(\"${broken:0:12}\")) | .verdict] | join(\" \")" <<<"$j")" \
		"skip" "$kind reproducer: the broken build is still skipped"
done

# the run resumes from its log: same answers, nothing built or booted
j=$("$PATCHVER" -C "$model" --bisect-boot --good v6.1 --bad v6.2 --fix v6.3 --commits --json --resume \
	--reproducer nofollow 2>/dev/null)
expect_eq "$?" 0 "resume: exit"
expect_eq "$(jq -r "\"\($b.builds) \($b.boots)\"" <<<"$j")" "0 0" "resume: every verdict from the log"
expect_eq "$(jq -r "$b.regression.commit, $b.fix.commit" <<<"$j" | tr '\n' ' ')" "$regress $fix " "resume: same answers"
# the plan of what is left: the images cached, the journal's answers, an estimate
log=$(jq -r "$b.log" <<<"$j")
sum=$(sha256sum < "$log")
plan=$("$PATCHVER" -C "$model" --bisect-boot --good v6.1 --bad v6.2 --fix v6.3 --commits --json --resume \
	--dry-run --reproducer nofollow 2>/dev/null)
expect_eq "$(jq -r "[$b.plan.regression.cached > 0, $b.plan.journal_answers > 0, $b.plan.build_records > 0, $b.plan.estimate_seconds > 0] | all" <<<"$plan")" \
	true "--dry-run --resume: images cached, the journal's answers, an estimate from the records"
expect_eq "$(sha256sum < "$log")" "$sum" "--dry-run --resume: the journal untouched"

# ends that do not answer as claimed: a clear error, not a made-up culprit
"$PATCHVER" -C "$model" --bisect-boot --good v6.1 --bad v6.2 --reproducer nofollow --test plain_dir_slash >/dev/null 2>"$tmp/err"
expect_eq "$?" 12 "a --bad that passes: exit"
expect_contains "$(cat "$tmp/err")" "--bad v6.2: the test does not fail there" "a --bad that passes: message"
"$PATCHVER" -C "$model" --bisect-boot --good v6.1 >/dev/null 2>&1
expect_eq "$?" 2 "--bisect-boot without --bad: usage"
"$PATCHVER" -C "$model" --bisect-boot --good v6.1 --bad no-such-tag >/dev/null 2>&1
expect_eq "$?" 4 "--bad that does not resolve: exit"
expect_files_same "$tmp/before" <(snapshot "$model") "the model repository after every bisection"
"$PATCHVER" --cache-clean >/dev/null
finish
