#!/usr/bin/env bash
# --verify-boot on a kernel git repository (label "boot"): the model
# kernel history (make-model-kernel.sh) is both the repository queried and
# the tree built.  Each affected release is checked out by patchver into
# its cache and booted as released (the bug must show) and with the fix
# applied in memory (it must not); the repository stays byte-identical.
. "${TESTS:=$(cd "$(dirname "$0")" && pwd)}/lib.sh"
tmp=$(scratch)
trap 'rm -rf "$tmp"' EXIT
model=$tmp/model.git
"$TESTS/make-model-kernel.sh" "$PATCHVER" "$model" || { fail "cannot make the model repository"; finish; exit 1; }
snapshot() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 sha256sum); }
snapshot "$model" > "$tmp/before"
c='.verify_boot.candidates'
fix=$(git -C "$model" rev-parse "v6.3-rc2^{commit}")

# --- the plan, before anything is built: the first affected release, each
# series' newest (v6.2; v6.3-rc1, newest of all) with and without the fix,
# the control and the first release with the fix; v6.2-rc4 is left out.
# With --max-states 4 only the first pair, the control and the fix release
# stay.  --dry-run builds and boots nothing.
cache=$XDG_CACHE_HOME/patchver
ls "$cache/images" "$cache/boots" > "$tmp/cache-before" 2>/dev/null
j=$("$PATCHVER" -C "$model" --verify-boot --dry-run --json --reproducer nofollow "$fix" 2>"$tmp/err")
expect_eq "$?" 0 "plan: exit (stderr: $(tail -3 "$tmp/err"))"
expect_eq "$(jq -r "[$c[].name] | join(\" \")" <<<"$j")" \
	"v6.1 v6.2-rc3 v6.2-rc3+fix v6.2 v6.2+fix v6.3-rc1 v6.3-rc1+fix v6.3-rc2" "plan: its states"
expect_eq "$(jq -r ".verify_boot.plan | \"\(.dry_run) \(.max_states) \(.left_out | join(\" \"))\"" <<<"$j")" \
	"true 24 v6.2-rc4" "plan: the default bound, and what it left out"
expect_eq "$(jq -r "[$c[] | .role] | .[1] + \" / \" + .[3]" <<<"$j")" \
	"first affected release: the bug must show / final release of its series, affected: the bug must show" \
	"plan: why each state is there"
expect_eq "$(jq -r ".verify_boot.verdict" <<<"$j")" null "plan: no verdict without boots"
j=$("$PATCHVER" -C "$model" --verify-boot --dry-run --json --max-states 4 --reproducer nofollow "$fix" 2>/dev/null)
expect_eq "$(jq -r "[$c[].name] | join(\" \")" <<<"$j")" "v6.1 v6.2-rc3 v6.2-rc3+fix v6.3-rc2" \
	"plan of 4: the control, the first pair, the first release with the fix"
expect_eq "$(jq -r ".verify_boot.plan.left_out | join(\" \")" <<<"$j")" "v6.2-rc4 v6.2 v6.3-rc1" \
	"plan of 4: the three left out"
"$PATCHVER" -C "$model" --verify-boot --dry-run --max-states 4 --reproducer nofollow "$fix" >"$tmp/out" 2>"$tmp/err"
expect_eq "$?" 0 "plan of 4, text: exit"
expect_contains "$(cat "$tmp/out")" "plan:     4 state(s) (at most 4: --max-states)" "plan of 4: said with its bound"
expect_contains "$(cat "$tmp/out")" "left out: 3 affected release(s) not booted" "plan of 4: names what it left out"
expect_eq "$(ls "$cache/images" "$cache/boots" 2>/dev/null)" "$(cat "$tmp/cache-before")" \
	"--dry-run: no image built, no boot logged"
# --introducer: a person's introducer places the releases booted (v6.2 on)
j=$("$PATCHVER" -C "$model" --verify-boot --dry-run --json --reproducer nofollow --introducer v6.2 "$fix" 2>/dev/null)
expect_eq "$(jq -r "[$c[].name] | join(\" \")" <<<"$j")" "v6.1 v6.2 v6.2+fix v6.3-rc1 v6.3-rc1+fix v6.3-rc2" \
	"--introducer v6.2: the plan starts at v6.2"
"$PATCHVER" -C "$model" --verify-boot --dry-run --reproducer nofollow --introducer v6.3 "$fix" >/dev/null 2>"$tmp/err"
expect_eq "$?" 2 "--introducer after the fix: exit 2"
expect_contains "$(cat "$tmp/err")" "--introducer v6.3: not below the fix" "--introducer after the fix: said"

j=$("$PATCHVER" -C "$model" --verify-boot --keep --json --reproducer nofollow --releases all "$fix" 2>"$tmp/err")
expect_eq "$?" 0 "model repository: exit (stderr: $(tail -3 "$tmp/err"))"
expect_eq "$(jq -r .verify_boot.scenario <<<"$j")" releases "the releases themselves are built"
expect_eq "$(jq -r "[$c[].name] | join(\" \")" <<<"$j")" \
	"v6.1 v6.2-rc3 v6.2-rc3+fix v6.2-rc4 v6.2-rc4+fix v6.2 v6.2+fix v6.3-rc1 v6.3-rc1+fix v6.3-rc2" \
	"candidates: control, each affected release with and without the fix, the fix release"
expect_eq "$(jq -r "[$c[] | select(.name | test(\"^v6.(2|3-rc1)\")) | select(.name | test(\"fix\") | not) | .bug_seen] | all" <<<"$j")" \
	true "every affected release shows the bug"
expect_eq "$(jq -r "[$c[] | select(.name | test(\"fix\")) | .boot.checks[] | select(.pass | not)] | length" <<<"$j")" \
	0 "with the fix, every check passes"
expect_eq "$(jq -r "$c[0].boot.checks | map(select(.pass | not)) | length" <<<"$j")" 0 "the control passes"
expect_eq "$(jq -r "$c[2].patches | join(\" \")" <<<"$j")" "${fix:0:12}" "the fix commit is what is applied"
expect_eq "$(jq -r "$c[2].commit" <<<"$j")" "$(git -C "$model" rev-parse 'v6.2-rc3^{commit}')" \
	"the +fix row is built on the release's commit"
expect_eq "$(jq -r "$c[9].build.cached" <<<"$j")" true \
	"v6.3-rc2 is v6.3-rc1 with the fix: the same tree, built once"
expect_contains "$(jq -r .verify_boot.verdict <<<"$j")" \
	"the bug shows in v6.2-rc3, v6.2-rc4, v6.2, v6.3-rc1 and is gone with ${fix:0:12} applied in every one" \
	"verdict"
rec=$(jq -r "$c[1].boot.record" <<<"$j")
expect_eq "$(jq -r .commit "$rec")" "$(git -C "$model" rev-parse 'v6.2-rc3^{commit}')" "the boot record names the commit"
expect_files_same "$tmp/before" <(snapshot "$model") "the model repository after --verify-boot"

# --- the same story told by reproducers of one's own, a C source and a shell
# script with a helper (--guest-file); the images kept above: boots only
for kind in C shell; do
	model_reproducer "$kind" "$tmp"
	j=$("$PATCHVER" -C "$model" --verify-boot --keep --json --releases all "${repro_args[@]}" "$fix" 2>"$tmp/err")
	expect_eq "$?" 0 "$kind reproducer: exit (stderr: $(tail -3 "$tmp/err"))"
	expect_eq "$(jq -r "[$c[] | .name + \"=\" + (.bug_seen | tostring)] | join(\" \")" <<<"$j")" \
		"v6.1=false v6.2-rc3=true v6.2-rc3+fix=false v6.2-rc4=true v6.2-rc4+fix=false v6.2=true v6.2+fix=false v6.3-rc1=true v6.3-rc1+fix=false v6.3-rc2=false" \
		"$kind reproducer: the bug in every affected release, gone with the fix"
	expect_eq "$(jq -r "$c[1].expect + \" / \" + $c[1].boot.reproducer + \" / \" + $c[0].boot.reproducer" <<<"$j")" \
		"bug (exit) / exit 1 / exit 0" "$kind reproducer: judged by its exit status"
	expect_contains "$(jq -r .verify_boot.verdict <<<"$j")" \
		"the bug shows in v6.2-rc3, v6.2-rc4, v6.2, v6.3-rc1 and is gone with ${fix:0:12} applied in every one" \
		"$kind reproducer: the seed's verdict"
	expect_eq "$(jq -r "[$c[].build.cached] | all" <<<"$j")" true "$kind reproducer: no kernel built again"
done

# --- candidates of one's own: a rev, patch files and commits; expectations
regress=$(git -C "$model" log --format=%H --grep='^namei: model' -1)
j=$("$PATCHVER" -C "$model" --verify-boot --json --reproducer nofollow \
	--candidate "broken=v6.2-rc2,$regress" --expect "broken=nofollow_slash_symlink_dir:ELOOP" \
	--candidate "mended=v6.2-rc2,$regress,$TESTS/../guest/kernel/0002-vfs-Fix-O_NOFOLLOW-behavior-for-paths-with-trailing-slashes.patch" \
	--expect mended=pass --candidate "plain=v6.1" 2>"$tmp/err")
expect_eq "$?" 0 "--candidate: exit (stderr: $(tail -3 "$tmp/err"))"
expect_eq "$(jq -r "[$c[] | .name + \"=\" + .expect] | join(\" \")" <<<"$j")" \
	"broken=nofollow_slash_symlink_dir fails with ELOOP mended=all pass plain=none" "--candidate: names and expectations"
expect_eq "$(jq -r "$c[0].bug_seen" <<<"$j")" true "--candidate: the regression commit on v6.2-rc2 shows the bug"
expect_eq "$(jq -r "[$c[].as_expected] | all" <<<"$j")" true "--candidate: every expectation holds"
expect_eq "$(jq -r "$c[1].patches | length" <<<"$j")" 2 "--candidate: a commit and a patch file applied"

# a fix that does not apply is the row's result, not a crash
j=$("$PATCHVER" -C "$model" --verify-boot --json --reproducer nofollow --candidate "early=v6.1,$fix" --expect early=pass 2>/dev/null)
expect_eq "$?" 15 "a patch that does not apply: exit"
expect_eq "$(jq -r "$c[0].why" <<<"$j")" "${fix:0:12} does not apply" "a patch that does not apply: why"

# bad candidate specifications: usage errors, nothing built
"$PATCHVER" -C "$model" --verify-boot --candidate "x=no-such-rev" 2>"$tmp/err"
expect_eq "$?" 2 "unknown candidate item: exit"
expect_contains "$(cat "$tmp/err")" "'no-such-rev' is neither a patch file nor a commit" "unknown candidate item: message"
"$PATCHVER" -C "$model" --verify-boot --candidate "x=v6.1" --expect "y=pass" 2>"$tmp/err"
expect_eq "$?" 2 "--expect for no candidate: exit"
"$PATCHVER" -C "$model" --verify-boot --candidate "x=v6.1" --expect "x=ELOOP" 2>"$tmp/err"
expect_eq "$?" 2 "malformed expectation: exit"
expect_contains "$(cat "$tmp/err")" "CHECK:ERRNO" "malformed expectation: message"
expect_files_same "$tmp/before" <(snapshot "$model") "the model repository after every run"
"$PATCHVER" --cache-clean >/dev/null
finish
