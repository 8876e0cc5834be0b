#!/usr/bin/env bash
# --verify-boot on a fix whose file the lab's configuration does not compile
# (label "boot"): the model history's flaw and fix are in kernel/acct.c,
# built only with CONFIG_BSD_PROCESS_ACCT (make-model-kernel.sh unbuilt).
# The plan says so before anything is built, each build proves it (no
# kernel/acct.o), and the verdict is "not tested", never "fix confirmed";
# with the --config options that build it, the fix is confirmed.
. "${TESTS:=$(cd "$(dirname "$0")" && pwd)}/lib.sh"
tmp=$(scratch)
trap 'rm -rf "$tmp"' EXIT
model=$tmp/model.git
"$TESTS/make-model-kernel.sh" "$PATCHVER" "$model" unbuilt || { fail "cannot make the model repository"; finish; exit 1; }
fix=$(git -C "$model" log --format=%H -1 --grep "undo the model flaw")
c='.verify_boot.candidates'
line="kernel/acct.c is not built here: it needs CONFIG_BSD_PROCESS_ACCT (which depends on CONFIG_MULTIUSER, unset here); --config CONFIG_MULTIUSER=y --config CONFIG_BSD_PROCESS_ACCT=y may turn it on"

# the plan: every state, before it is configured, read against its fragment
j=$("$PATCHVER" -C "$model" --verify-boot --dry-run --json "$fix" 2>"$tmp/err")
expect_eq "$?" 0 "plan: exit (stderr: $(tail -3 "$tmp/err"))"
expect_eq "$(jq -r "[$c[].name] | join(\" \")" <<<"$j")" "v6.1 v6.2-rc2 v6.2-rc2+fix v6.2-rc3" "plan: its states"
expect_eq "$(jq -r "$c[] | select(.name == \"v6.2-rc2+fix\") | \"\(.unbuilt_from) \(.unbuilt[0])\"" <<<"$j")" \
	"fragment $line" "plan: the fix's file, the option that builds it, its dependency"
"$PATCHVER" -C "$model" --verify-boot --dry-run "$fix" >"$tmp/out" 2>&1
expect_contains "$(cat "$tmp/out")" "$line (read against the config fragment: not configured yet)" "plan: said in the text"
# the options asked for: nothing left unbuilt, and a dependency the base config lacks is named
j=$("$PATCHVER" -C "$model" --verify-boot --dry-run --json --config CONFIG_MULTIUSER=y \
	--config CONFIG_BSD_PROCESS_ACCT=y "$fix" 2>/dev/null)
expect_eq "$(jq -r "[$c[] | .unbuilt | length] | add" <<<"$j")" 0 "plan with --config: every state builds the file"
j=$("$PATCHVER" -C "$model" --verify-boot --dry-run --json --config CONFIG_BSD_PROCESS_ACCT=y "$fix" 2>/dev/null)
expect_contains "$(jq -r "$c[0].unbuilt[0]" <<<"$j")" "(which depends on CONFIG_MULTIUSER, unset here)" \
	"plan with the option alone: the dependency it lacks"

# built and booted: the .config and the object directory prove it; no verdict but "not tested"
j=$("$PATCHVER" -C "$model" --verify-boot --json --max-states 2 "$fix" 2>"$tmp/err")
expect_eq "$?" 17 "run: not tested, exit 17 (stderr: $(tail -3 "$tmp/err"))"
expect_eq "$(jq -r ".verify_boot.verdict" <<<"$j")" "not tested: $line" "run: the verdict"
expect_eq "$(jq -r '"\(.verify_boot.confirmed) \(.verify_boot.not_tested)"' <<<"$j")" "false true" \
	"run: not confirmed either: not tested"
expect_eq "$(jq -r "$c[] | select(.name == \"v6.2-rc2+fix\") | \"\(.unbuilt_from) \(.unbuilt[0])\"" <<<"$j")" \
	"config $line" "run: the built state's .config says it"

# with the options that build it, the fix is tested: the flaw shows, and is gone with the fix
j=$("$PATCHVER" -C "$model" --verify-boot --json --max-states 2 --config CONFIG_MULTIUSER=y \
	--config CONFIG_BSD_PROCESS_ACCT=y --reproducer "$TESTS/model/acct-off.c" "$fix" 2>"$tmp/err")
expect_eq "$?" 0 "run with --config: fix confirmed, exit 0 (stderr: $(tail -3 "$tmp/err"))"
expect_eq "$(jq -r '"\(.verify_boot.confirmed) \(.verify_boot.not_tested)"' <<<"$j")" "true false" \
	"run with --config: confirmed, and tested"
expect_eq "$(jq -r "[$c[] | .unbuilt | length] | add" <<<"$j")" 0 "run with --config: nothing unbuilt"
expect_eq "$(jq -r "[$c[] | \"\(.name)=\(.as_expected)\"] | join(\" \")" <<<"$j")" \
	"v6.2-rc2=true v6.2-rc2+fix=true" "run with --config: the flaw shows without the fix, not with it"
finish
