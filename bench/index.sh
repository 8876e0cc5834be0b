#!/usr/bin/env bash
# The release index against git with its commit-graph, side by side.
#
#   bench/index.sh REPO [RUNS]
#
# REPO: a repository with tags (the real kernel history, or bench/gen-dag's).
# A bare --shared clone of it gets a commit-graph; patchver's index lives in a
# scratch cache.  Prints, per task, the median wall time of RUNS runs (default
# 9) of patchver and git, alternately, their ratio and peak RSS; and the build,
# size and extension numbers.  The cold page cache row needs vmtouch
# (Debian's vmtouch), which evicts the files of the repository and cache.  Never run by the tests: machines are noisy.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
pv=${PATCHVER_BUILD:-$here/../build}/patchver
src=$1
runs=${2:-9}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME=$tmp/cache
repo=$tmp/repo.git
git clone -q --bare --shared "$src" "$repo"
rm -f "$repo/objects/info/commit-graph"

# one CMD: "seconds KiB" of one run
one() { /usr/bin/time -f '%e %M' -o "$tmp/t" bash -c "$1" > /dev/null 2>&1 || true; cat "$tmp/t"; }
median() { sort -n | awk '{ v[NR] = $0 } END { print v[int((NR + 1) / 2)] }'; }
# pair TASK PVCMD GITCMD: medians of RUNS alternate runs
pair() {
	: > "$tmp/p"; : > "$tmp/g"
	for _ in $(seq "$runs"); do one "$2" >> "$tmp/p"; one "$3" >> "$tmp/g"; done
	paste -d' ' <(median < "$tmp/p") <(median < "$tmp/g") | awk -v t="$1" \
		'{ printf "%-46s %7.3f s %7.3f s  %6.2f   %5d / %5d MiB\n", t, $1, $3, ($3 > 0 ? $1 / $3 : 0), $2 / 1024, $4 / 1024 }'
}

n=$(git -C "$repo" rev-list --tags | wc -l)
echo "repository: $src ($n commits below $(git -C "$repo" tag | wc -l) tags)"
t0=$(date +%s.%N)
git -C "$repo" commit-graph write --reachable 2>/dev/null
t1=$(date +%s.%N)
"$pv" -C "$repo" --no-index --version > /dev/null
rm -rf "$XDG_CACHE_HOME"
t2=$(date +%s.%N)
"$pv" -C "$repo" --index > "$tmp/stats"
t3=$(date +%s.%N)
gsize=$(stat -c %s "$repo/objects/info/commit-graph")
isize=$(stat -c %s "$XDG_CACHE_HOME"/patchver/index/*.idx)
awk -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" -v g="$gsize" -v i="$isize" 'BEGIN {
	printf "build: patchver --index %.2f s, git commit-graph write --reachable %.2f s (ratio %.2f)\n", d - c, b - a, (d - c) / (b - a)
	printf "size:  index %.1f MB, commit-graph %.1f MB (ratio %.2f)\n", i / 1e6, g / 1e6, i / g }'

new=$(git -C "$repo" for-each-ref --sort=-creatordate --count=1 --format='%(refname:short)' refs/tags)
old=$(git -C "$repo" describe --tags --abbrev=0 "$new^" 2>/dev/null || echo "")
recent=$(git -C "$repo" rev-list -1 --skip=20 "$new")
oldc=$(git -C "$repo" rev-list --tags | tail -n "$((n / 3))" | head -1)
printf '%-46s %9s %9s  %6s   %s\n' task patchver git ratio "RSS patchver / git"
for c in "$recent" "$oldc"; do
	age=$([ "$c" = "$recent" ] && echo recent || echo old)
	pair "describe --contains ($age commit)" "$pv -C $repo --describe $c" "git -C $repo describe --contains $c"
	pair "name-rev ($age)" "$pv -C $repo --name-rev $c" "git -C $repo name-rev --tags --name-only $c"
	pair "first release vs tag --contains ($age)" "$pv -C $repo --first-release $c" \
		"git -C $repo tag --contains $c"
	pair "tags-containing vs tag --contains ($age)" "$pv -C $repo --tags-containing $c" \
		"git -C $repo tag --contains $c"
	pair "patchver REV vs describe --contains ($age)" "$pv -C $repo $c" "git -C $repo describe --contains $c"
done
git -C "$repo" rev-list --tags > "$tmp/all"
pair "--name-rev --stdin, every commit" "$pv -C $repo --name-rev --stdin < $tmp/all" \
	"git -C $repo name-rev --tags --name-only --annotate-stdin < $tmp/all"
"$pv" -C "$repo" --name-rev --stdin < "$tmp/all" > "$tmp/pv.out"
git -C "$repo" name-rev --tags --name-only --annotate-stdin < "$tmp/all" > "$tmp/git.out"
cmp -s "$tmp/pv.out" "$tmp/git.out" && echo "  (outputs identical)" || echo "  (OUTPUTS DIFFER)"
pair "no index: describe (recent)" "$pv -C $repo --no-index --describe $recent" \
	"git -C $repo describe --contains $recent"
pair "no index: describe (old)" "$pv -C $repo --no-index --describe $oldc" \
	"git -C $repo describe --contains $oldc"

# extension: the newest tag deleted, indexed, given back
oid=$(git -C "$repo" rev-parse "refs/tags/$new")
git -C "$repo" update-ref -d "refs/tags/$new"
before=$("$pv" -C "$repo" --index 2>/dev/null | awk '/commits:/ { print $2 }')
git -C "$repo" update-ref "refs/tags/$new" "$oid"
one "$pv -C $repo --index" | awk -v t="$new" '{ printf "extend after tag %s comes back: %.2f s, %d MiB\n", t, $1, $2 / 1024 }'
"$pv" -C "$repo" --index | awk -v b="$before" '/commits:/ { print "  new commits read: " $2 - b }' 

if command -v vmtouch > /dev/null; then
	cold() { vmtouch -eq "$XDG_CACHE_HOME" "$repo" "$src" > /dev/null; }
	cold; p=$(one "$pv -C $repo --describe $oldc"); cold; g=$(one "git -C $repo describe --contains $oldc")
	echo "cold page cache, describe (old): patchver ${p% *} s, git ${g% *} s"
fi
