#!/usr/bin/env bash
# The bad-input catalogue (README, "Bad input"): each row is a case here.
# Every case ends in a documented answer or one clear line and its own
# exit code; never a crash, a hang, or unbounded memory.
. "${TESTS:=$(cd "$(dirname "$0")" && pwd)}/lib.sh"
tmp=$(scratch)
trap 'rm -rf "$tmp"' EXIT
repo=$FIXTURES/demo.git
small=$FIXTURES/small.git
fix=$(git -C "$repo" log --all --format=%H --grep='O_NOFOLLOW behavior' -1)

# one_line CODE NEEDLE ARGS...: that exit code, one stderr line holding NEEDLE
one_line() {
	local code=$1 needle=$2
	shift 2
	"$PATCHVER" "$@" >"$tmp/out" 2>"$tmp/err"
	expect_eq "$?" "$code" "exit code of: patchver $*"
	expect_contains "$(cat "$tmp/err")" "$needle" "message of: patchver $*"
	expect_eq "$(grep -c . "$tmp/err")" 1 "one line on stderr: patchver $*"
}
# peak RSS in MB of a command
rss_mb() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1 | awk '{ printf "%d", $1 / 1024 }'; }

# --- repositories
git init -q --bare "$tmp/empty.git"
one_line 8 "has no tags" -C "$tmp/empty.git" HEAD
expect_eq "$("$PATCHVER" -C "$repo" --describe "$fix")" "$(git -C "$repo" describe --contains "$fix")" "a bare repository works"

# a corrupted loose object: the commit a tag points to is garbage
cp -a "$repo" "$tmp/loose.git"
c=$(git -C "$tmp/loose.git" rev-parse 'v2.6.34-rc2^{commit}')
git -C "$tmp/loose.git" cat-file commit "$c" > "$tmp/commit"
obj=$tmp/loose.git/objects/${c:0:2}/${c:2}
mkdir -p "$(dirname "$obj")"
printf 'this is not zlib data' > "$obj"
rm -f "$tmp/loose.git"/objects/pack/*.idx "$tmp/loose.git"/objects/pack/*.pack
"$PATCHVER" -C "$tmp/loose.git" v2.6.34-rc2 >/dev/null 2>"$tmp/err"
rc=$?
expect_eq "$([ "$rc" = 9 ] || [ "$rc" = 3 ] && echo ok)" ok "a corrupted loose object: exit 9 or 3 (got $rc: $(head -1 "$tmp/err"))"
expect_eq "$(grep -c . "$tmp/err")" 1 "a corrupted loose object: one line"

# a commit missing below a tag, met by a lazy walk (one query, no index: git's
# cut walk for names, git's tag --contains walk for releases): one line and
# exit 9, as a full load says it
cp -a "$repo" "$tmp/missing.git"
mv "$tmp/missing.git"/objects/pack/*.pack "$tmp/p.pack"
rm -f "$tmp/missing.git"/objects/pack/*.idx
git -C "$tmp/missing.git" unpack-objects -q < "$tmp/p.pack"
root=$(git -C "$repo" rev-list --max-parents=0 "$fix" | head -1)
child=$(git -C "$repo" rev-list --reverse --ancestry-path "$root..$fix" | head -1)
rm -f "$tmp/missing.git/objects/${root:0:2}/${root:2}"
for mode in --describe --name-rev --first-release --tags-containing --full; do
	[ "$mode" = --full ] && mode=
	XDG_CACHE_HOME=$tmp/nocache "$PATCHVER" -C "$tmp/missing.git" $mode "$child" >/dev/null 2>"$tmp/err"
	expect_eq "$?" 9 "a missing commit, $mode alone: exit"
	expect_eq "$(grep -c . "$tmp/err")" 1 "a missing commit, $mode alone: one line ($(head -1 "$tmp/err"))"
done

# deeply nested tags: a tag of a tag of ... (64 levels), peeled as git peels it
prev=$(git -C "$small" rev-parse 'v2.6.13^{commit}')
cp -a "$small" "$tmp/nested.git"
for i in $(seq 1 64); do
	prev=$(printf 'object %s\ntype %s\ntag nest%d\ntagger T <t@t> %d +0000\n\nnested\n' "$prev" \
		"$([ "$i" = 1 ] && echo commit || echo tag)" "$i" "$((1500000000 + i))" |
		git -C "$tmp/nested.git" mktag)
done
git -C "$tmp/nested.git" update-ref refs/tags/nest64 "$prev"
w=$(git -C "$small" rev-parse 'v2.6.13^{commit}~3')
expect_eq "$("$PATCHVER" -C "$tmp/nested.git" --name-rev "$w")" \
	"$(git -C "$tmp/nested.git" name-rev --tags --name-only "$w")" "64 nested tags: the name git gives"

# tag names with quotes, backslashes and non-ASCII: valid JSON, git's names
cp -a "$small" "$tmp/names.git"
git -C "$tmp/names.git" tag 'naïve"quote\back' 'v2.6.13^{commit}~5'
git -C "$tmp/names.git" tag 'ünïcødé-tag' 'v2.6.13^{commit}~7'
for r in 'v2.6.13^{commit}~6' 'v2.6.13^{commit}~8'; do
	h=$(git -C "$tmp/names.git" rev-parse "$r")
	j=$("$PATCHVER" -C "$tmp/names.git" --json --name-rev "$h")
	expect_eq "$(jq -r '.results[0].name_rev' <<<"$j")" \
		"$(git -C "$tmp/names.git" name-rev --tags --name-only "$h")" "--json name with quotes/non-ASCII ($r)"
done

# 100,000 tags: the answers git gives, in bounded memory
cp -a "$small" "$tmp/many.git"
git -C "$tmp/many.git" rev-list --all > "$tmp/all"
n=$(wc -l < "$tmp/all")
awk -v n="$n" 'NR == FNR { c[NR] = $1; next } END { for (i = 1; i <= 100000; i++) printf "%s refs/tags/t%06d\n", c[(i * 7919) % n + 1], i }' \
	"$tmp/all" /dev/null >> "$tmp/many.git/packed-refs"
expect_eq "$(git -C "$tmp/many.git" tag | wc -l)" "$(( $(git -C "$small" tag | wc -l) + 100000 ))" "100,000 tags written"
sample=$(sed -n '1p;50p;200p' "$tmp/all")
expect_files_same <(git -C "$tmp/many.git" name-rev --tags --name-only $sample) \
	<("$PATCHVER" -C "$tmp/many.git" --name-rev $sample) "100,000 tags: name-rev as git"
mb=$(rss_mb "$PATCHVER" -C "$tmp/many.git" --name-rev $sample)
# (the bounds leave room for AddressSanitizer's shadow memory: ~150 MB without it)
expect_eq "$([ "$mb" -lt 1000 ] && echo bounded)" bounded "100,000 tags: peak memory ${mb} MB"

# --stdin: a million revs (blank lines and comments among them), streamed
head -1000 "$tmp/all" > "$tmp/k"
{ for i in $(seq 1 1000); do cat "$tmp/k"; echo; echo "# comment"; done; } > "$tmp/million"
expect_eq "$(grep -c '^[0-9a-f]' "$tmp/million")" "$(( $(wc -l < "$tmp/k") * 1000 ))" "a million-line input"
lines=$(/usr/bin/time -f %M -o "$tmp/rss" "$PATCHVER" -C "$small" --name-rev --stdin < "$tmp/million" | wc -l)
mb=$(( $(tail -1 "$tmp/rss") / 1024 ))
expect_eq "$lines" "$(wc -l < "$tmp/million")" "--stdin --name-rev: every line annotated, as git --annotate-stdin"
expect_eq "$([ "$mb" -lt 1000 ] && echo bounded)" bounded "--stdin a million revs: peak memory ${mb} MB"

# --- replace refs and grafts gone wrong: as git answers, or one line where git dies
rb=$tmp/replace-bad.git
cp -a "$small" "$rb"
git -C "$small" rev-list --all >"$tmp/small-revs"
m=$(sed -n 100p "$tmp/small-revs") n=$(sed -n 101p "$tmp/small-revs") x=$(sed -n 300p "$tmp/small-revs")
before=$(find "$rb" -type f | sort | xargs md5sum | md5sum)
mkdir -p "$rb/refs/replace"
echo 1111111111111111111111111111111111111111 >"$rb/refs/replace/$m"
git -C "$rb" describe --contains "$x" >/dev/null 2>"$tmp/git-err"
expect_eq "$?" 128 "git dies on a replacement that does not exist"
one_line 9 "replacement 1111111111111111111111111111111111111111 not found for $m" -C "$rb" --describe "$x"
one_line 9 "replacement 1111111111111111111111111111111111111111 not found for $m" -C "$rb" "$x"
echo "$n" >"$rb/refs/replace/$m"
echo "$m" >"$rb/refs/replace/$n"
one_line 9 "replace depth too high for object" -C "$rb" --describe "$x"
rm -f "$rb/refs/replace/$m" "$rb/refs/replace/$n"
echo "$m" >"$rb/refs/replace/not-an-id"
out=$("$PATCHVER" -C "$rb" --describe "$x" 2>"$tmp/err")
expect_eq "$out" "$(git -C "$rb" describe --contains "$x" 2>/dev/null)" "a badly named replace ref: ignored, as git ignores it"
expect_eq "$(cat "$tmp/err")" "patchver: warning: bad replace ref name: not-an-id (ignored)" "... with git's warning"
rm -f "$rb/refs/replace/not-an-id"
# a graft file with a comment, a blank line, a malformed line and a duplicate
printf '# grafts\n\n%s %s\n%s %s xyz\n%s\n' "$x" "$m" "$n" "$m" "$x" >"$rb/info/grafts"
git -C "$rb" -c advice.graftFileDeprecated=false name-rev --tags --name-only --annotate-stdin \
	<"$tmp/small-revs" >"$tmp/git-graft" 2>"$tmp/git-err"
expect_contains "$(cat "$tmp/git-err")" "bad graft data: $n $m xyz" "git: a malformed graft line is ignored"
"$PATCHVER" -C "$rb" --name-rev --stdin <"$tmp/small-revs" >"$tmp/pv-graft" 2>"$tmp/err"
expect_files_same "$tmp/git-graft" "$tmp/pv-graft" "a graft file with bad lines: named as git names"
expect_contains "$(cat "$tmp/err")" "warning: bad graft data: $n $m xyz (ignored)" "... the bad line named"
expect_contains "$(cat "$tmp/err")" "warning: duplicate graft data: $x (the first one counts)" "... the duplicate named"
rm -f "$rb/info/grafts"
rmdir "$rb/refs/replace"
expect_eq "$(find "$rb" -type f | sort | xargs md5sum | md5sum)" "$before" "the repository unchanged"

# --- patch files
# (empty, binary, 100 MB and unreadable files: tests/triage.sh)
printf 'hello\nthis is not a patch\n' > "$tmp/garbage.patch"
one_line 10 "holds no mail and no diff" -C "$repo" --patch "$tmp/garbage.patch"
printf 'Subject: [PATCH] caf\xe9: latin-1 subject\n\ndiff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n' > "$tmp/latin1.patch"
j=$("$PATCHVER" -C "$repo" --patch "$tmp/latin1.patch" --json)
expect_eq "$?" 11 "non-UTF-8 mail: parsed, no match"
expect_eq "$(jq -r '.results[0].subject' <<<"$j")" "caf�: latin-1 subject" "non-UTF-8 subject: valid JSON"
# an mbox of 1,000 messages: one answer each
for i in $(seq 1 1000); do
	printf 'From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\nFrom: A <a@b>\nSubject: [PATCH %d/1000] change %d\n\n---\ndiff --git a/f%d b/f%d\n--- a/f%d\n+++ b/f%d\n@@ -1 +1 @@\n-a\n+b%d\n\n' \
		"$i" "$i" "$i" "$i" "$i" "$i" "$i"
done > "$tmp/big.mbox"
expect_eq "$("$PATCHVER" -C "$repo" --patch-id --patch "$tmp/big.mbox" | wc -l)" 1000 "an mbox of 1,000 messages: 1,000 patch-ids"
expect_files_same <("$PATCHVER" -C "$repo" --patch-id --patch "$tmp/big.mbox" | cut -d' ' -f1) \
	<(git patch-id --stable < "$tmp/big.mbox" | cut -d' ' -f1) "1,000 patch-ids as git patch-id --stable"

# --- two runs on one cache: the second waits for the first
cache=$tmp/cache
mkdir -p "$cache/patchver" "$tmp/kt"
mkdir -p "$tmp/kt/arch/x86" && echo 'config X86' > "$tmp/kt/arch/x86/Kconfig"
printf 'VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 0\nEXTRAVERSION =\n' > "$tmp/kt/Makefile"
git -C "$tmp/kt" init -q && git -C "$tmp/kt" add -A &&
	GIT_AUTHOR_DATE='1262304000 +0000' GIT_COMMITTER_DATE='1262304000 +0000' \
	git -C "$tmp/kt" -c user.name=t -c user.email=t@t commit -qm kt
# (qemu and flock are what tools/setup.sh installs: a missing one fails here)
flock "$cache/patchver/lock" sleep 3 &
# until the other holds the lock (a loaded machine may start it late)
for _ in $(seq 200); do flock -n "$cache/patchver/lock" true || break; sleep 0.05; done
start=$(date +%s)
XDG_CACHE_HOME=$cache "$PATCHVER" --prepare-tree --kernel-tree "$tmp/kt" >/dev/null 2>"$tmp/err"
expect_eq "$?" 0 "a second run on a locked cache: completes ($(tail -1 "$tmp/err"))"
expect_contains "$(cat "$tmp/err")" "waiting for another patchver run" "a second run says it waits"
expect_eq "$([ $(( $(date +%s) - start )) -ge 2 ] && echo waited)" waited "it waited for the lock"
wait

# --- the cache measured without a shell: a path with a quote and $(...) in it
# runs nothing; hard links (the work trees are cp -al copies) count once, as du
odd="$tmp/it's \$(touch MARK)"
mkdir -p "$odd/patchver/images/k" "$odd/patchver/boots" "$odd/patchver/trees"
head -c 5242880 /dev/zero >"$odd/patchver/trees/pristine"
ln "$odd/patchver/trees/pristine" "$odd/patchver/trees/work"
head -c 3145728 /dev/zero >"$odd/patchver/images/k/bzImage"
out=$(cd "$tmp" && XDG_CACHE_HOME=$odd "$PATCHVER" --cache-clean 2>&1)
expect_eq "$?" 0 "--cache-clean on a cache path with a quote"
expect_eq "$(ls "$tmp/MARK" "$odd/MARK" "$odd/patchver/MARK" 2>/dev/null)" "" "nothing in the path ran"
expect_contains "$out" "cache $odd/patchver: 5 MiB, freed 3 MiB" "sizes as du -sk counts them"
expect_eq "$(ls "$odd/patchver/trees")" "$(printf 'pristine\nwork')" "the kernel trees stay"

# --- reproducers: each refused before any kernel is built (exit 2), in a cache of its own
rcache=$tmp/rcache
rv() { XDG_CACHE_HOME=$rcache "$PATCHVER" -C "$repo" --verify-boot "$fix" "$@"; }
rv_line() {
	local code=$1 needle=$2
	shift 2
	rv "$@" >"$tmp/out" 2>"$tmp/err"
	expect_eq "$?" "$code" "exit code of: --verify-boot $*"
	expect_contains "$(cat "$tmp/err")" "$needle" "message of: --verify-boot $*"
	expect_eq "$(grep -c . "$tmp/err")" 1 "one line on stderr: --verify-boot $*"
}
printf 'int main(void) { return undeclared_thing; }\n' > "$tmp/broken.c"
rv --reproducer "$tmp/broken.c" >"$tmp/out" 2>"$tmp/err"
expect_eq "$?" 2 "a reproducer that does not compile: exit 2"
expect_contains "$(head -1 "$tmp/err")" "reproducer $tmp/broken.c does not compile" "... named"
expect_contains "$(cat "$tmp/err")" "undeclared_thing" "... with the compiler's message"
rv_line 2 "reproducer $tmp/nothing.c: No such file" --reproducer "$tmp/nothing.c"
printf 'int main(void) { return 0; }\n' > "$tmp/dyn.c"
cc -o "$tmp/dyn" "$tmp/dyn.c"
rv_line 2 "dynamically linked (it has a PT_INTERP header)" --reproducer "$tmp/dyn"
printf 'echo no shebang\n' > "$tmp/noshebang"
rv_line 2 "neither a C source" --reproducer "$tmp/noshebang"
printf '#!/bin/bash\necho hi\n' > "$tmp/bash.sh"
rv_line 2 "a '#!/bin/bash' script; the guest runs scripts with busybox sh" --reproducer "$tmp/bash.sh"
rv_line 2 "--guest-file $tmp/none: No such file" --guest-file "$tmp/none"
rv_line 2 "the guest path must be an absolute file path" --guest-file "$tmp/dyn.c:relative"
rv_line 2 "--bug 'regex:(': the regex does not compile" --bug 'regex:('
rv_line 2 "--bug 'panic': not a kind of bug" --bug panic
rv_line 2 "--config NO_SUCH_PROFILE: not CONFIG_X=VALUE" --config NO_SUCH_PROFILE
one_line 2 "--boot-timeout 20 must exceed --repro-timeout (60)" -C "$repo" --verify-boot "$fix" --boot-timeout 20
one_line 2 "--reproducer, --guest-file" -C "$repo" --reproducer "$tmp/dyn.c" HEAD
# the plan's options: each a usage error before anything is opened
one_line 2 "--max-states: '0' is not a number of states" -C "$repo" --verify-boot "$fix" --max-states 0
one_line 2 "--max-states: 'many' is not a number of states" -C "$repo" --verify-boot "$fix" --max-states many
one_line 2 "--max-states: '5x' is not a number of states" -C "$repo" --verify-boot "$fix" --max-states 5x
one_line 2 "--releases: 'some' is not a choice: give all" -C "$repo" --verify-boot "$fix" --releases some
one_line 2 "--dry-run goes with --verify-boot or --bisect-boot" -C "$repo" --dry-run "$fix"
one_line 2 "--max-states and --releases go with --verify-boot" -C "$repo" --max-states 3 "$fix"
one_line 2 "--max-states bounds the plan; --releases all has none" -C "$repo" --verify-boot "$fix" \
	--releases all --max-states 4
one_line 2 "--candidate names its own" -C "$repo" --verify-boot --candidate x=HEAD --max-states 4
# measuring: only with --verify-boot, the CVE range's source only text or boot, only with --cve-json
one_line 2 "--measure goes with --verify-boot (it measures by booting)" -C "$repo" --triage --measure "$fix"
one_line 2 "--affected-from goes with --verify-boot" -C "$repo" --triage --cve-json --affected-from boot "$fix"
one_line 2 "--affected-from: 'both' is not a choice: give text" -C "$repo" --verify-boot "$fix" --cve-json \
	--affected-from both
one_line 2 "--affected-from chooses --cve-json's affected range: give --cve-json" -C "$repo" \
	--verify-boot "$fix" --affected-from boot
one_line 2 "--measure bisects the triage's states; --candidate names its own" -C "$repo" --verify-boot \
	--candidate x=HEAD --measure
one_line 2 "--cve-json goes with --triage or --verify-boot" -C "$repo" --cve-json "$fix"
rv_line 2 "--bug 'exit': the reproducer's status or checks, and there is no reproducer" --bug exit
rv_line 2 "reproducer no-such-shipped-one: No such file" --reproducer no-such-shipped-one
# a kernel tree whose Makefile has no version: one line, nothing built
mkdir -p "$tmp/nover/arch/x86"
printf '# no version here\nall:\n\t@echo hi\n' > "$tmp/nover/Makefile"
printf 'mainmenu "x"\n' > "$tmp/nover/Kconfig"
printf 'config X86\n' > "$tmp/nover/arch/x86/Kconfig"
XDG_CACHE_HOME=$rcache "$PATCHVER" -C "$repo" --json --verify-boot --kernel-tree "$tmp/nover" --candidate x=HEAD \
	>"$tmp/out" 2>"$tmp/err"
expect_eq "$?" 2 "a Makefile without a version: exit"
expect_contains "$(cat "$tmp/err")" "x: the Makefile of $tmp/nover at " "a Makefile without a version: named"
expect_contains "$(cat "$tmp/err")" "gives no kernel version (VERSION, PATCHLEVEL, SUBLEVEL)" \
	"a Makefile without a version: why"
expect_eq "$(grep -vc 'importing .* (once)$' "$tmp/err")" 1 \
	"a Makefile without a version: one line (after the import's note)"
expect_eq "$(find "$rcache" -name bzImage | wc -l)" 0 "a Makefile without a version: nothing built"
expect_eq "$(find "$rcache" -name bzImage 2>/dev/null | wc -l)" 0 "no kernel built for any of them"
finish
