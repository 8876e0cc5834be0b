#!/usr/bin/env bash
# A bug that shows on the console, not as an errno (label "boot"): the
# crash model history (make-model-kernel.sh ... crash) adds a prctl
# option whose magic argument hits WARN_ON() from the "prctl: the model
# crash" commit on (the base fragment has CONFIG_BUG and KALLSYMS; one
# state is also built with the reproducer profile: SMP, so QEMU runs two
# CPUs).  --bug oops sees the warning after the
# start marker and names its crash title; --bisect-boot finds the commit
# and its revert confirms it; a reproducer that exits 125 makes a state
# a skip; one that sleeps past --repro-timeout is a timeout, and no QEMU
# outlives patchver.  Without a reproducer, a boot test: the model crash
# warns at boot too, so its state fails it and its revert passes.
. "${TESTS:=$(cd "$(dirname "$0")" && pwd)}/lib.sh"
tmp=$(scratch)
trap 'rm -rf "$tmp"' EXIT
model=$tmp/crash.git
"$TESTS/make-model-kernel.sh" "$PATCHVER" "$model" crash || { fail "cannot make the crash model"; finish; exit 1; }
culprit=$(git -C "$model" log --format=%H --grep='^prctl: the model crash' -1)
title="WARNING: at kernel/sys.c __x64_sys_prctl"
b='.bisect_boot'
c='.verify_boot.candidates'
pv() { "$PATCHVER" -C "$model" --keep "$@"; }
# the reproducer profile, and an option no kernel knows (one configuration
# for both checks, so one object directory of its own)
profile=(--config repro --config CONFIG_NO_SUCH_OPTION=y)

j=$(pv --bisect-boot --good v6.1 --bad v6.2 --commits --json --bug oops \
	--reproducer "$TESTS/model/prctl-crash.c" 2>"$tmp/err")
expect_eq "$?" 0 "bisect on the console: exit (stderr: $(tail -3 "$tmp/err"))"
expect_eq "$(jq -r "$b.regression | \"\(.last_old) \(.first_new)\"" <<<"$j")" "v6.2-rc2 v6.2-rc3" "the first release with the warning"
expect_eq "$(jq -r "$b.regression.commit" <<<"$j")" "$culprit" "the commit that brought it"
expect_eq "$(jq -r "$b.regression | \"\(.confirmed) \(.confirm_new)/\(.confirm_boots) \(.confirm_old)/\(.confirm_boots)\"" <<<"$j")" \
	"true 3/3 3/3" "confirmed: the culprit warns in 3 boots, the release with it reverted in none"
expect_contains "$(jq -r "[$b.steps[] | select(.verdict == \"new\") | .why] | first" <<<"$j")" "$title" \
	"a bad step names the crash title"

# --verify-boot: the row shows the crash title; SMP kernel, two CPUs
j=$(pv --verify-boot --json --bug oops --reproducer "$TESTS/model/prctl-crash.c" \
	--candidate before=v6.2-rc2 --expect before=pass --candidate after=v6.2-rc3 --expect after=bug \
	--candidate fixed=v6.2 --expect fixed=pass 2>"$tmp/err")
expect_eq "$?" 12 "a \"fixed\" state that still warns: not confirmed"
expect_eq "$(jq -r "[$c[] | .name + \"=\" + (.as_expected | tostring)] | join(\" \")" <<<"$j")" \
	"before=true after=true fixed=false" "the warning decides each row"
expect_eq "$(jq -r "$c[1].boot.crash" <<<"$j")" "$title" "the crash title, without line numbers, PIDs or offsets"
expect_eq "$(jq -r "$c[2].why" <<<"$j")" "the bug still shows: $title" "the still-broken state names it"
expect_eq "$(jq -r "$c[1].boot.smp" <<<"$j")" false "the base fragment's kernel is not SMP"
pv --verify-boot --bug oops --reproducer "$TESTS/model/prctl-crash.c" \
	--candidate fixed=v6.2 --expect fixed=pass >"$tmp/out" 2>/dev/null
expect_contains "$(cat "$tmp/out")" "last lines after the start marker" "a row not as expected shows the last lines"
expect_contains "$(cat "$tmp/out")" "prctl(model, 42) = 2" "... the reproducer's own output among them"

# a reproducer that exits 125 where it cannot test: bisect skips that release
j=$(pv --bisect-boot --good v6.1 --bad v6.2 --json --bug oops \
	--reproducer "$TESTS/model/prctl-skip.c" 2>"$tmp/err")
expect_eq "$(jq -r "[$b.steps[] | select(.label == \"v6.2-rc2\") | .verdict] | join(\" \")" <<<"$j")" \
	skip "exit 125: the release is skipped, never good or bad"
expect_eq "$(jq -r "$b.regression | \"\(.ambiguous) \(.first_new)\"" <<<"$j")" "true v6.2-rc3" \
	"the skipped release leaves the answer a range"

# with the profile: SMP and two CPUs; the option that does not stick is a
# warning on the row (and on stderr), an error with --strict-config
j=$(pv --verify-boot --json --bug oops --reproducer "$TESTS/model/prctl-crash.c" "${profile[@]}" \
	--candidate after=v6.2-rc3 --expect after=bug 2>"$tmp/err")
expect_eq "$?" 0 "the profile: exit (stderr: $(tail -3 "$tmp/err"))"
expect_eq "$(jq -r "$c[0].boot.smp" <<<"$j")" true "the profile's kernel is SMP"
expect_contains "$(jq -r "$c[0].boot.command" <<<"$j")" "-smp 2" "QEMU gets two CPUs"
expect_eq "$(jq -r "$c[0].boot.crash" <<<"$j")" "$title" "the same crash title on two CPUs"
expect_eq "$(jq -r "$c[0].config_not_set | join(\" \")" <<<"$j")" "CONFIG_NO_SUCH_OPTION=y" \
	"an option the kernel does not know is named"
expect_contains "$(cat "$tmp/err")" "CONFIG_NO_SUCH_OPTION=y did not stick" "... and said on stderr"
pv --verify-boot --reproducer "$TESTS/model/prctl-crash.c" "${profile[@]}" \
	--strict-config --candidate after=v6.2-rc3 >/dev/null 2>"$tmp/err"
expect_eq "$?" 2 "--strict-config: exit"
expect_contains "$(cat "$tmp/err")" "--strict-config: CONFIG_NO_SUCH_OPTION=y did not stick" "--strict-config: message"

# a reproducer that never ends: the guest kills it at --repro-timeout
printf '#!/bin/sh\necho sleeping\nsleep 1000\n' > "$tmp/sleep.sh"
j=$(pv --verify-boot --json --reproducer "$tmp/sleep.sh" --repro-timeout 3 --bug hang \
	--candidate slow=v6.2-rc2 --expect slow=bug 2>"$tmp/err")
expect_eq "$?" 0 "timeout: exit (stderr: $(tail -3 "$tmp/err"))"
expect_eq "$(jq -r "$c[0].boot.reproducer" <<<"$j")" "timeout (3 s)" "timeout: reported as such"
expect_eq "$(pgrep -f "qemu-system-x86_64.*$(jq -r "$c[0].boot.command" <<<"$j" | awk '{print $3}')" | wc -l)" 0 \
	"no QEMU outlives patchver"
# no reproducer: each state is a boot test.  The model crash also warns at
# boot (before the start marker), so its state fails one; the same release
# with the culprit reverted passes.
git -C "$model" diff "$culprit" "$culprit^" > "$tmp/revert.patch"
boot_test=(--candidate bad=v6.2-rc3 --expect bad=bug --candidate "reverted=v6.2-rc3,$tmp/revert.patch"
	--expect reverted=pass)
j=$(pv --verify-boot --json "${boot_test[@]}" 2>"$tmp/err")
expect_eq "$?" 0 "boot test: exit (stderr: $(tail -3 "$tmp/err"))"
expect_eq "$(jq -r '.verify_boot | "\(.boot_test_only) \(.bug) \(.reproducer)"' <<<"$j")" "true boot null" \
	"boot test: said in the JSON, no program"
expect_eq "$(jq -r "$c[0].why" <<<"$j")" "the bug shows: boot test: WARNING: at kernel/sys.c prctl_model_boot" \
	"boot test: the bad state's warning at boot fails it"
expect_eq "$(jq -r "$c[0].boot.crash_before_start" <<<"$j")" "WARNING: at kernel/sys.c prctl_model_boot" \
	"boot test: the warning came before the start marker"
expect_eq "$(jq -r "$c[1].why" <<<"$j")" "no bug: boot test: reached the start marker, no crash report" \
	"boot test: the revert passes"
pv --verify-boot "${boot_test[@]}" >"$tmp/out" 2>/dev/null
expect_eq "$(head -1 "$tmp/out")" "boot test only: the fix's own bug is not tested; give --reproducer" \
	"boot test: the report's first line says so"
pv --verify-boot --bug exit "${boot_test[@]}" >/dev/null 2>"$tmp/err"
expect_eq "$?" 2 "--bug exit without a program: exit"
expect_contains "$(cat "$tmp/err")" "--bug 'exit': the reproducer's status or checks, and there is no reproducer" \
	"--bug exit without a program: message"

"$PATCHVER" --cache-clean >/dev/null
finish
