#!/usr/bin/env bash
# --verify-boot end to end on Debian's 6.1 tree (label "boot"): the seed
# story's candidates built and booted in QEMU, the regressed one failing
# with ELOOP, the fixed ones passing; the candidates following the triage
# when the fix moves; and each failure as its own status, with no make or
# QEMU left behind.
. "${TESTS:=$(cd "$(dirname "$0")" && pwd)}/lib.sh"
tmp=$(scratch)
trap 'rm -rf "$tmp"' EXIT
guest=$TESTS/../guest
fix_of() { git -C "$1" log --format=%H --grep='O_NOFOLLOW behavior' master; }
no_strays() { ! pgrep -f 'qemu-system-x86_64 -kernel' >/dev/null && ! pgrep -x make >/dev/null; }

# --- the seed story on the demo history
repo=$FIXTURES/demo.git
j=$("$PATCHVER" -C "$repo" --verify-boot --keep --json --reproducer nofollow "$(fix_of "$repo")" 2>"$tmp/err")
rc=$?
expect_eq "$rc" 0 "demo: exit (stderr: $(tail -3 "$tmp/err"))"
c='.verify_boot.candidates'
expect_eq "$(jq -r "[$c[] | .name + \":\" + .models + \"=\" + .state] | join(\" \")" <<<"$j")" \
	"control:v2.6.33=6.1.192 bug:v2.6.34-rc1=6.1.192+model bug+fix:v2.6.34-rc1=6.1.192+model+fix fixed:v2.6.34=6.1.192+model+fix" \
	"demo: candidates from the triage, labelled as models"
expect_eq "$(jq -r "$c[1].boot.checks[] | select(.name == \"nofollow_slash_symlink_dir\") | \"\(.pass) \(.errno)\"" <<<"$j")" \
	"false ELOOP" "demo: the regressed kernel fails with ELOOP"
expect_eq "$(jq -r "[$c[0,2,3].boot.checks[] | select(.pass | not)] | length" <<<"$j")" 0 \
	"demo: control and fixed kernels pass every check"
expect_eq "$(jq -r "[$c[].as_expected] | all" <<<"$j")" true "demo: every expectation holds"
expect_contains "$(jq -r ".verify_boot.verdict" <<<"$j")" \
	"fix confirmed: the bug shows in bug and is gone with $(fix_of "$repo" | cut -c1-12) (modelled by 0002-vfs-" \
	"demo: verdict, naming the patch that was applied for the fix"
expect_eq "$(jq -r ".verify_boot | \"\(.reproducer) \(.bug) \(.boot_test_only)\"" <<<"$j")" \
	"$(cd "$guest" && pwd)/reproducers/nofollow.c nofollow_slash_symlink_dir:ELOOP false" \
	"demo: --reproducer nofollow is the shipped one, with its own --bug"
expect_eq "$(jq -r ".verify_boot.scenario" <<<"$j")" "model" "demo: a model of the story on Debian's tree"
expect_eq "$(jq -r "$c[3].build.cached" <<<"$j")" true "demo: an identical state is built once"
log=$(jq -r "$c[1].boot.log" <<<"$j")
expect_contains "$(cat "$log")" "PATCHVER-SUMMARY pass=9 fail=3" "demo: the serial log is kept"
expect_contains "$(jq -r .command "$(jq -r "$c[1].boot.record" <<<"$j")")" "-no-reboot" "demo: the boot record has the command"
# the guest reaches nothing outside: no network device, no shared host directory
{ jq -r .command "$(jq -r "$c[1].boot.record" <<<"$j")"; jq -r "$c[].boot.command" <<<"$j"; } >"$tmp/cmds"
expect_eq "$(grep -c -- ' -nic none' "$tmp/cmds")" "$(wc -l <"$tmp/cmds")" "demo: every qemu runs with -nic none"
expect_eq "$(grep -cE -- ' -(netdev|net|device|virtfs|fsdev|drive|hd[a-d]|usb)( |$)' "$tmp/cmds")" 0 \
	"demo: no network device, shared directory or disk given to the guest"
no_strays
expect_eq "$?" 0 "demo: no make or qemu left running"

# --- move the fix past v2.6.34: the candidates follow the triage
late=$FIXTURES/demo-late.git
j=$("$PATCHVER" -C "$late" --verify-boot --keep --json --reproducer nofollow "$(fix_of "$late")" 2>"$tmp/err")
expect_eq "$?" 0 "late fix: exit"
expect_eq "$(jq -r "[$c[] | .models] | join(\" \")" <<<"$j")" \
	"v2.6.33 v2.6.34-rc1 v2.6.34-rc1 v2.6.35-rc1" "late fix: candidates move"
expect_eq "$(jq -r "[$c[].build.cached] | all" <<<"$j")" true "late fix: same states, no rebuild"

# --- failures are statuses: a patch that does not apply
mkdir -p "$tmp/badseries"
sed 's/nd->flags |= LOOKUP_FOLLOW | LOOKUP_DIRECTORY;/nd->flags |= LOOKUP_NO_SUCH_LINE;/' \
	"$guest"/kernel/0001-*.patch > "$tmp/badseries/0001-model.patch"
cp "$guest"/kernel/0002-*.patch "$tmp/badseries/0002-fix.patch"
j=$("$PATCHVER" -C "$repo" --verify-boot --json --reproducer nofollow --patch-series "$tmp/badseries" "$(fix_of "$repo")" 2>/dev/null)
expect_eq "$?" 15 "bad series: exit"
expect_eq "$(jq -r "$c[1].why" <<<"$j")" "model does not apply" "bad series: why"
expect_eq "$(jq -r "$c[1].failed_patch" <<<"$j")" "model" "bad series: which patch"

# a fix the series does not model, on a tree without its history: refused
# before anything is built, unless a series of one's own models it
other=$(git -C "$repo" log --format=%H --grep='Restore LOOKUP_DIRECTORY' -1 master)
"$PATCHVER" -C "$repo" --verify-boot --reproducer nofollow "$other" >/dev/null 2>"$tmp/err"
expect_eq "$?" 2 "another fix on Debian's tree: exit"
expect_eq "$(grep -v '^patchver: kernel tree: ' "$tmp/err")" "patchver: $(jq -r .verify_boot.kernel_tree <<<"$j") has no git history with ${other:0:12}'s parent: give --kernel-tree with that history, or --patch-series that models the bug" \
	"another fix on Debian's tree: one line naming the tree and the fix (after the tree's note)"
# --measure bisects history: a model has none
"$PATCHVER" -C "$repo" --verify-boot --measure --reproducer nofollow "$(fix_of "$repo")" >/dev/null 2>"$tmp/err"
expect_eq "$?" 2 "--measure on Debian's tree: exit"
expect_contains "$(grep -v '^patchver: kernel tree: ' "$tmp/err")" "--measure: $(jq -r .verify_boot.kernel_tree <<<"$j") has no history of" \
	"--measure on Debian's tree: one line naming the tree"
j=$("$PATCHVER" -C "$repo" --verify-boot --json --reproducer nofollow --patch-series "$tmp/badseries" "$other" 2>/dev/null)
expect_eq "$(jq -r "$c[1].why" <<<"$j")" "model does not apply" "another fix with --patch-series: it runs"

# a build error: the model breaks the build
mkdir -p "$tmp/brokenseries"
sed 's/^+			nd->flags |= LOOKUP_DIRECTORY;/+			nd->flags |= LOOKUP_DIRECTORY this does not compile;/' \
	"$guest"/kernel/0001-*.patch > "$tmp/brokenseries/0001-model.patch"
cp "$guest"/kernel/0002-*.patch "$tmp/brokenseries/0002-fix.patch"
"$PATCHVER" -C "$repo" --verify-boot --reproducer nofollow --patch-series "$tmp/brokenseries" "$(fix_of "$repo")" >"$tmp/out" 2>"$tmp/err"
expect_eq "$?" 13 "broken build: exit"
expect_contains "$(cat "$tmp/err")" "  | " "broken build: the log's last lines are shown"
expect_contains "$(cat "$tmp/out")" "build failed" "broken build: why"

# a guest that never finishes: the timeout kills QEMU
cp -rL "$guest" "$tmp/hang"
printf '#include <unistd.h>\nint main(void) { for (;;) pause(); }\n' > "$tmp/hang/init.c"
j=$(PATCHVER_GUEST_DIR=$tmp/hang "$PATCHVER" -C "$repo" --verify-boot --json --reproducer nofollow --repro-timeout 1 \
	--boot-timeout 11 "$(fix_of "$repo")" 2>/dev/null)
expect_eq "$?" 14 "hanging guest: exit"
expect_eq "$(jq -r "$c[0].why" <<<"$j")" "boot timed out" "hanging guest: why"
no_strays
expect_eq "$?" 0 "hanging guest: no qemu left running"

# SIGINT while QEMU runs: both stop, exit 130, the next run still works
PATCHVER_GUEST_DIR=$tmp/hang "$PATCHVER" -C "$repo" --verify-boot --reproducer nofollow --repro-timeout 5 --boot-timeout 60 "$(fix_of "$repo")" \
	>/dev/null 2>"$tmp/int-err" &
pid=$!
for _ in $(seq 1 300); do grep -qs 'booting' "$tmp/int-err" && break; sleep 0.2; done
sleep 1
kill -INT "$pid"
wait "$pid"
expect_eq "$?" 130 "SIGINT: exit"
sleep 0.5
no_strays
expect_eq "$?" 0 "SIGINT: no make or qemu left running"

# missing QEMU: a clear error before anything is built
mkdir -p "$tmp/bin"
for t in make cc patch tar cp git; do ln -sf "$(command -v $t)" "$tmp/bin/$t"; done
PATH=$tmp/bin "$PATCHVER" -C "$repo" --verify-boot "$(fix_of "$repo")" >/dev/null 2>"$tmp/err"
expect_eq "$?" 16 "no qemu: exit"
expect_contains "$(cat "$tmp/err")" "qemu-system-x86_64 not found" "no qemu: message"

"$PATCHVER" --cache-clean | grep -q 'freed'
expect_eq "$?" 0 "--cache-clean reports what it freed"
finish
