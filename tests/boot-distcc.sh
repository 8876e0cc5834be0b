#!/usr/bin/env bash
# Kernel builds through distcc (label "boot"): a distccd on 127.0.0.1 only
# (stopped by its pid), $DISTCC_HOSTS naming it, and one --verify-boot state
# that needs compiling (a unique comment in fs/namei.c on the model
# history).  distccd's log must show the compile jobs it ran, and the
# verdict must be the one a local build gives.  One 2-core machine proves
# the plumbing, not a speed-up.
. "${TESTS:=$(cd "$(dirname "$0")" && pwd)}/lib.sh"
tmp=$(scratch)
pidfile=$tmp/d/distccd.pid
cleanup() {
	[ -f "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null
	pkill -f "distccd .*--port $port" 2>/dev/null   # its workers too
	for _ in $(seq 1 50); do pgrep -f "distccd .*--port $port" >/dev/null || break; sleep 0.1; done
	rm -rf "$tmp"
}
trap cleanup EXIT
command -v distccd >/dev/null || { fail "distccd missing: tools/setup.sh test installs distcc"; finish; exit 1; }
model=$tmp/model.git
"$TESTS/make-model-kernel.sh" "$PATCHVER" "$model" || { fail "cannot make the model repository"; finish; exit 1; }
regress=$(git -C "$model" log --format=%H --grep='^namei: model' -1)
port=$((20000 + RANDOM % 20000))
# distccd drops to user nobody: its log lives where nobody may write
mkdir -p "$tmp/d" && chmod 755 "$tmp" && chmod 777 "$tmp/d"
touch "$tmp/d/distccd.log" && chmod 666 "$tmp/d/distccd.log"
distccd --daemon --listen 127.0.0.1 --allow 127.0.0.1 --port "$port" --user nobody \
	--pid-file "$pidfile" --log-file "$tmp/d/distccd.log" --log-level info
for _ in $(seq 1 50); do [ -s "$pidfile" ] && break; sleep 0.1; done
expect_eq "$(test -s "$pidfile" && echo up)" up "distccd started"
# a state no earlier run built: the comment changes fs/namei.c's object
stamp=$(date +%s%N)
{
	echo "diff --git a/fs/namei.c b/fs/namei.c"
	echo "--- a/fs/namei.c"
	echo "+++ b/fs/namei.c"
	echo "@@ -1 +1,2 @@"
	echo "+/* patchver distcc test $stamp */"
	git -C "$model" show "v6.2-rc2:fs/namei.c" | sed -n '1s/^/ /p'
} > "$tmp/comment.patch"
j=$(DISTCC_HOSTS="127.0.0.1:$port" DISTCC_LOG=$tmp/client.log "$PATCHVER" -C "$model" --verify-boot --json --reproducer nofollow \
	--jobs 2 --candidate "distcc=v6.2-rc2,$regress,$tmp/comment.patch" \
	--expect "distcc=nofollow_slash_symlink_dir:ELOOP" 2>"$tmp/err")
expect_eq "$?" 0 "through distcc: exit (stderr: $(tail -3 "$tmp/err"))"
log=$(jq -r '.verify_boot.candidates[0].build.log // empty' <<<"$j")
[ -n "$log" ] && [ "$(jq -r '.verify_boot.candidates[0].build.status' <<<"$j")" != built ] &&
	tail -15 "$log" | sed 's/^/build log: /'
expect_eq "$(jq -r '.verify_boot.candidates[0] | "\(.build.cached) \(.bug_seen) \(.as_expected)"' <<<"$j")" \
	"false true true" "built (not cached), the bug shows as a local build shows it"
jobs=$(grep -c 'COMPILE_OK' "$tmp/d/distccd.log")
expect_eq "$((jobs > 0))" 1 "distccd ran compile jobs ($jobs; log: $(tail -2 "$tmp/d/distccd.log" | tr '\n' ' '))"
expect_contains "$(grep COMPILE_OK "$tmp/d/distccd.log")" "fs/namei.c" "fs/namei.c was compiled by distccd"
# switching distcc on did not rebuild everything: kbuild saw the same "gcc"
expect_eq "$((jobs < 40))" 1 "only what changed was compiled ($jobs jobs)"
"$PATCHVER" --cache-clean >/dev/null
finish
