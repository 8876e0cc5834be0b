#!/usr/bin/env bash
# The release index under faults: every case must give git's answer, never
# crash, and say at most one line on stderr.
#   stats and freshness, extension after new tags, rebuild after a moved tag,
#   truncated / flipped / foreign-version / other-repository files,
#   an unwritable or full cache, writers killed mid-write, concurrent runs,
#   --no-index and single queries that build nothing.
. "${TESTS:=$(cd "$(dirname "$0")" && pwd)}/lib.sh"
tmp=$(scratch)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME=$tmp/cache

git clone -q --bare --shared "$FIXTURES/small.git" "$tmp/small.git"
repo=$tmp/small.git
git -C "$repo" rev-list --all > "$tmp/all"
git -C "$repo" name-rev --tags --name-only --annotate-stdin < "$tmp/all" > "$tmp/git-ann"
old_commit=$(tail -1 "$tmp/all")
git_first_name=$(git -C "$repo" name-rev --tags --name-only "$old_commit")

# field KEY: from patchver --index --json on stdin
field() { sed -n "s/.*\"$1\":\([^,}]*\).*/\1/p" | tr -d '"'; }
stat_of() { "$PATCHVER" -C "$1" --index --json 2>>"$tmp/stat-err" | field "$2"; }

# check LABEL [ENV...]: --stdin over every commit equals git, exit 0, at most one stderr line
check() {
	local label=$1
	shift
	env "$@" "$PATCHVER" -C "$repo" --name-rev --stdin < "$tmp/all" > "$tmp/out" 2> "$tmp/err"
	expect_eq "$?" 0 "$label: exit"
	expect_files_same "$tmp/git-ann" "$tmp/out" "$label: answers"
	[ "$(wc -l < "$tmp/err")" -le 1 ] && pass || fail "$label: stderr: $(cat "$tmp/err")"
}

# --no-index and a single query without an index build nothing
"$PATCHVER" -C "$repo" --no-index --name-rev --stdin < "$tmp/all" > "$tmp/out"
expect_files_same "$tmp/git-ann" "$tmp/out" "--no-index answers"
expect_eq "$("$PATCHVER" -C "$repo" --name-rev "$old_commit")" "$git_first_name" "single query"
expect_eq "$(ls "$XDG_CACHE_HOME/patchver/index" 2>/dev/null)" "" "no index built by --no-index or one query"

# built, then fresh; the path is in the cache, never in the repository
expect_eq "$(stat_of "$repo" state)" built "--index builds"
expect_eq "$(stat_of "$repo" state)" fresh "--index again: fresh"
ix=$("$PATCHVER" -C "$repo" --index --json | field path)
case $ix in "$XDG_CACHE_HOME"/patchver/index/*.idx) pass ;; *) fail "index path: $ix" ;; esac
expect_eq "$(stat_of "$repo" commits)" "$(git -C "$repo" rev-list --tags | wc -l)" "commits counted"
expect_eq "$(stat_of "$repo" tags)" "$(git -C "$repo" tag | wc -l)" "tags counted"
expect_contains "$("$PATCHVER" -C "$repo" --index)" "state:     fresh" "text stats"
check "warm index"
expect_eq "$(cat "$tmp/err")" "" "warm index: silent"

# damaged files: each noticed, rebuilt, answered right
cp "$ix" "$tmp/good.idx"
size=$(stat -c %s "$ix")
damage() {
	cp "$tmp/good.idx" "$ix"
	case $1 in
	truncated) truncate -s $((size / 2)) "$ix" ;;
	empty) : > "$ix" ;;
	flipped) printf '\x5a' | dd of="$ix" bs=1 seek=$((size * 2 / 3)) conv=notrunc status=none ;;
	version) printf '\x63' | dd of="$ix" bs=1 seek=8 conv=notrunc status=none ;;
	garbage) head -c "$size" /dev/urandom > "$ix" ;;
	esac
}
for kind in truncated empty flipped version garbage; do
	damage $kind
	check "$kind index"
	expect_contains "$(cat "$tmp/err")" "rebuilding" "$kind index: one line says so"
	expect_eq "$(stat_of "$repo" state)" fresh "$kind index: rebuilt"
done
damage truncated
"$PATCHVER" -C "$repo" --describe "$old_commit" > "$tmp/out" 2> "$tmp/err"
expect_eq "$(cat "$tmp/out")" "$(git -C "$repo" describe --contains "$old_commit")" "single query on a truncated index"
expect_contains "$(cat "$tmp/err")" "truncated; rebuilding" "single query: names the damage"

# an index written for another repository
git clone -q --bare --shared "$FIXTURES/small2.git" "$tmp/other.git"
other=$("$PATCHVER" -C "$tmp/other.git" --index --json | field path)
cp "$other" "$ix"
check "another repository's index"
expect_contains "$(cat "$tmp/err")" "written for another repository" "another repository: said"

# new tags: extended, not rebuilt; a moved tag: rebuilt
git -C "$repo" for-each-ref --sort=-creatordate --count=2 --format='%(refname) %(objectname)' refs/tags > "$tmp/newest"
while read -r ref _; do git -C "$repo" update-ref -d "$ref"; done < "$tmp/newest"
expect_eq "$(stat_of "$repo" state)" rebuilt "tags deleted: rebuilt"
while read -r ref oid; do git -C "$repo" update-ref "$ref" "$oid"; done < "$tmp/newest"
expect_eq "$(stat_of "$repo" state)" extended "tags added: extended"
check "extended index"
moved=$(head -1 "$tmp/newest" | cut -d' ' -f1)
git -C "$repo" update-ref "$moved" "$old_commit"
git -C "$repo" name-rev --tags --name-only --annotate-stdin < "$tmp/all" > "$tmp/git-ann"
check "moved tag"
expect_contains "$(cat "$tmp/err")" "tags moved or deleted" "moved tag: said"
expect_eq "$(stat_of "$repo" state)" fresh "moved tag: rebuilt"

# a cache that cannot be written: answers without the index, warns once
: > "$tmp/not-a-dir"
check "unwritable cache" XDG_CACHE_HOME="$tmp/not-a-dir"
expect_contains "$(cat "$tmp/err")" "cannot save the release index" "unwritable cache: warned"
check "read-only file system" XDG_CACHE_HOME=/proc/self
# a full disk (the file size limit stands in): the old index stays whole
cp "$ix" "$tmp/before.idx"
"$PATCHVER" -C "$repo" --index > /dev/null   # fresh again
rm -f "$ix"
(trap '' XFSZ; ulimit -f 16; "$PATCHVER" -C "$repo" --name-rev --stdin < "$tmp/all" > "$tmp/out" 2> "$tmp/err")
expect_files_same "$tmp/git-ann" "$tmp/out" "full disk: answers"
expect_contains "$(cat "$tmp/err")" "cannot save the release index" "full disk: warned"
expect_eq "$(ls "$(dirname "$ix")" | grep -c '\.tmp$')" 0 "full disk: no partial file left"
expect_eq "$(stat_of "$repo" state)" built "full disk: no index was kept"

# writers killed at random points: the index is whole or absent, never partial
big=$tmp/large.git
git clone -q --bare --shared "$FIXTURES/large.git" "$big"
bigix=$(XDG_CACHE_HOME=$tmp/kill "$PATCHVER" -C "$big" --index --json | field path)
for i in $(seq 12); do
	rm -f "$bigix"
	XDG_CACHE_HOME=$tmp/kill "$PATCHVER" -C "$big" --index > /dev/null 2>&1 &
	pid=$!
	sleep "0.0$((RANDOM % 10))$((RANDOM % 10))"
	kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	state=$(XDG_CACHE_HOME=$tmp/kill "$PATCHVER" -C "$big" --index --json 2>"$tmp/err" | field state)
	case $state in fresh|built) pass ;; *) fail "killed writer $i: state '$state': $(cat "$tmp/err")" ;; esac
done

# a killed writer's partial temporary file: ignored by readers, replaced by writers
head -c 1000 "$bigix" > "$bigix.tmp"
state=$(XDG_CACHE_HOME=$tmp/kill "$PATCHVER" -C "$big" --index --json 2>"$tmp/err" | field state)
expect_eq "$state$(cat "$tmp/err")" fresh "leftover temporary file: the index is still fresh"
rm -f "$bigix"
state=$(XDG_CACHE_HOME=$tmp/kill "$PATCHVER" -C "$big" --index --json 2>"$tmp/err" | field state)
expect_eq "$state$(cat "$tmp/err")" built "leftover temporary file: replaced by the next writer"
expect_eq "$(ls "$(dirname "$bigix")" | grep -c '\.tmp$')" 0 "leftover temporary file: gone"

# concurrent runs on a stale index: all right, the index whole afterwards
while read -r ref _; do git -C "$repo" update-ref -d "$ref"; done < "$tmp/newest"
"$PATCHVER" -C "$repo" --index > /dev/null 2>&1
while read -r ref oid; do git -C "$repo" update-ref "$ref" "$oid"; done < "$tmp/newest"
git -C "$repo" name-rev --tags --name-only --annotate-stdin < "$tmp/all" > "$tmp/git-ann"
for i in 1 2 3 4; do
	"$PATCHVER" -C "$repo" --name-rev --stdin < "$tmp/all" > "$tmp/out$i" 2> "$tmp/err$i" &
done
wait
for i in 1 2 3 4; do
	expect_files_same "$tmp/git-ann" "$tmp/out$i" "concurrent run $i"
	expect_eq "$(cat "$tmp/err$i")" "" "concurrent run $i: silent"
done
expect_eq "$(stat_of "$repo" state)" fresh "after concurrent runs: fresh"
expect_eq "$(cat "$tmp/stat-err" | grep -v rebuilding)" "" "stats runs: nothing else on stderr"
finish
