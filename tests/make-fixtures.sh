#!/usr/bin/env bash
# Build the fixture repositories the shell tests use, each also as a copy
# with a commit-graph (git 2.39's default format), which changes git
# name-rev's cutoff from dates to generation numbers, and holds the
# changed-path Bloom filters that path limiting reads.
set -eu
gen=$1
out=$2
rm -rf "$out"
mkdir -p "$out"
"$gen" demo "$out/demo.git"
"$gen" demo "$out/demo-late.git" late
"$gen" kernel "$out/small.git" 4 3 4
"$gen" kernel "$out/small2.git" 6 4 6 7
"$gen" kernel "$out/large.git" 24 12 60
for r in demo small small2 large; do
	cp -a "$out/$r.git" "$out/$r-graph.git"
	git -C "$out/$r-graph.git" commit-graph write --reachable --changed-paths 2>/dev/null
	test -f "$out/$r-graph.git/objects/info/commit-graph"
done
# the stand-in user every test runs as (HOME), with a cache of theirs
"$(dirname "$0")/user-cache.sh" make "$out/home"
echo "fixtures in $out"
