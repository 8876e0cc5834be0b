#!/usr/bin/env bash
# The release index under faults: every case must give git's answer, never
# crash, and say at most one line on stderr.
#   stats and freshness, extension after new tags, rebuild after a moved tag,
#   truncated / flipped / foreign-version / other-repository files,
#   an unwritable or full cache, writers killed mid-write, concurrent runs,
#   --no-index and single queries that build nothing, triage and --patch
#   from a fresh and an extended index (its root trees and top masks).
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

# runs that read every commit take the DAG (root trees, top masks) from a
# fresh index: the same triage and --patch answers as without it
same_as_no_index() {   # LABEL COMMIT...
	local label=$1 c
	shift
	for c in "$@"; do
		expect_eq "$("$PATCHVER" -C "$repo" --triage "$c" 2>&1)" \
			"$("$PATCHVER" -C "$repo" --no-index --triage "$c" 2>&1)" "$label: triage $c"
		git -C "$repo" format-patch -1 --stdout "$c" > "$tmp/fix.patch"
		expect_eq "$("$PATCHVER" -C "$repo" --patch "$tmp/fix.patch" 2>&1)" \
			"$("$PATCHVER" -C "$repo" --no-index --patch "$tmp/fix.patch" 2>&1)" "$label: --patch of $c"
	done
}
same_as_no_index "fresh index" $(git -C "$repo" rev-list --no-merges --tags | awk 'NR % 97 == 2' | head -2)
expect_eq "$(stat_of "$repo" state)" fresh "triage leaves the index fresh"

# the quick path (no libgit2): every answer it gives equals the normal path's,
# and it declines only where it must: below clock skew without a commit-graph
# (git's date cutoff), or where git has no name (the full report and
# --tags-containing read the subject and message from the object files)
git -C "$repo" rev-list --tags | awk 'NR % 9 == 1' > "$tmp/sample"
quick_modes="--describe --name-rev --first-release --tags-containing --full"
total=$(( $(wc -l < "$tmp/sample") * 5 ))
quick_pass() {
	quick=0
	while read -r c; do
		for m in $quick_modes; do
			[ "$m" = --full ] && m=
			want=$(PATCHVER_QUICK=off "$PATCHVER" -C "$repo" --no-index $m "$c" 2>/dev/null)
			got=$(PATCHVER_QUICK=require "$PATCHVER" -C "$repo" $m "$c" 2>"$tmp/err") &&
				quick=$((quick + 1))
			if [ -s "$tmp/err" ]; then
				grep -qE "declined: ($1)$" "$tmp/err" || fail "quick path, $m $c: $(cat "$tmp/err")"
			else
				expect_eq "$got" "$want" "quick path, $m $c"
			fi
		done
	done < "$tmp/sample"
}
quick_pass "a commit with clock skew below it|a commit without a name"
[ $((quick * 2)) -ge "$total" ] && pass || fail "quick path answered only $quick of $total"
# a commit no tag contains (work after the last tag): the index holds every
# commit a tag reaches, so the quick path answers from its absence, as the
# normal path does (stderr and exit code too: --describe fails as git's)
git -C "$repo" rev-list --all --not --tags > "$tmp/untagged"
[ -s "$tmp/untagged" ] || fail "fixture: no commit after the last tag"
while read -r c; do
	for id in "$c" "$(git -C "$repo" rev-parse --short=12 "$c")"; do
		for m in $quick_modes; do
			[ "$m" = --full ] && m=
			want=$(PATCHVER_QUICK=off "$PATCHVER" -C "$repo" --no-index $m "$id" 2>&1; echo "exit $?")
			got=$(PATCHVER_QUICK=require "$PATCHVER" -C "$repo" $m "$id" 2>&1; echo "exit $?")
			expect_eq "$got" "$want" "quick path, no tag contains it: $m $id"
		done
	done
done < "$tmp/untagged"
expect_contains "$(PATCHVER_QUICK=require "$PATCHVER" -C "$repo" --describe "$(head -1 "$tmp/untagged")" 2>&1)" \
	"cannot describe" "quick path, no tag contains it: --describe fails"
# a tag's name: name-rev names an annotated tag's object by its ref, not
# its commit (v1^0); describe names the commit
for t in $(git -C "$repo" for-each-ref refs/tags --format='%(refname:short)' | awk 'NR % 7 == 1'); do
	git -C "$repo" rev-parse -q --verify "$t^{commit}" > /dev/null || continue
	for m in --name-rev --describe --full; do
		[ "$m" = --full ] && m=
		got=$(PATCHVER_QUICK=require "$PATCHVER" -C "$repo" $m "$t" 2>&1; echo "exit $?")
		case $got in *"quick path declined"*) continue ;; esac
		expect_eq "$got" "$(PATCHVER_QUICK=off "$PATCHVER" -C "$repo" --no-index $m "$t" 2>&1; echo "exit $?")" \
			"quick path, tag name: $m $t"
	done
	expect_eq "$(PATCHVER_QUICK=require "$PATCHVER" -C "$repo" --name-rev "$t" 2>&1)" \
		"$(git -C "$repo" name-rev --tags --name-only "$t")" "quick path, tag name, as git: $t"
done
# its parents are not the index's to walk
expect_contains "$(PATCHVER_QUICK=require "$PATCHVER" -C "$repo" "$(head -1 "$tmp/untagged")~1" 2>&1)" \
	"quick path declined: a rev the index does not hold" "quick path: steps from outside the index"
git -C "$repo" commit-graph write --reachable 2>/dev/null
quick_pass "a commit without a name"
expect_eq "$quick" "$total" "quick path with a commit-graph: every answer"

# no index: with a commit-graph holding every tag, containment walks the graph;
# a tag the graph lacks makes the run load the history instead; both as the index says
for state in all-in-graph new-tag-outside; do
	if [ $state = new-tag-outside ]; then
		late=$(GIT_AUTHOR_DATE='1893456000 +0000' GIT_COMMITTER_DATE='1893456000 +0000' git -C "$repo" commit-tree -p "$old_commit" -m late "$(git -C "$repo" rev-parse "$old_commit^{tree}")")
		git -C "$repo" tag v9.9 "$late"
	fi
	"$PATCHVER" -C "$repo" --index > /dev/null 2>&1
	for c in $(head -12 "$tmp/sample") "$old_commit"; do
		for m in --first-release --tags-containing --describe; do
			expect_eq "$(PATCHVER_QUICK=off "$PATCHVER" -C "$repo" --no-index $m "$c" 2>&1)" \
				"$(PATCHVER_QUICK=off "$PATCHVER" -C "$repo" $m "$c" 2>&1)" "no index, $state: $m $c"
		done
	done
done
git -C "$repo" tag -d v9.9 > /dev/null
"$PATCHVER" -C "$repo" --index > /dev/null 2>&1
rm -f "$repo/objects/info/commit-graph"
# a short name that must become tags/X (refs/X exists), and a loose tag
t=$(git -C "$repo" name-rev --tags --name-only "$(head -1 "$tmp/sample")" | sed 's/[~^].*//')
tagc="$t $(git -C "$repo" rev-parse "refs/tags/$t")"
git -C "$repo" update-ref "refs/${tagc% *}" "${tagc#* }"
git -C "$repo" update-ref "refs/tags/zz-loose" "$old_commit"
"$PATCHVER" -C "$repo" --index > /dev/null 2>&1
for c in $(head -40 "$tmp/sample"); do
	printf '%s ' "$(PATCHVER_QUICK=require "$PATCHVER" -C "$repo" --name-rev "$c" 2>/dev/null ||
		"$PATCHVER" -C "$repo" --no-index --name-rev "$c")"
done > "$tmp/pv-q"
for c in $(head -40 "$tmp/sample"); do printf '%s ' "$(git -C "$repo" name-rev --tags --name-only "$c")"; done > "$tmp/git-q"
expect_files_same "$tmp/git-q" "$tmp/pv-q" "quick path with refs/X and a loose tag"
expect_contains "$(cat "$tmp/pv-q")" "tags/" "quick path: tags/X names"
for c in $(head -3 "$tmp/sample"); do
	expect_eq "$(PATCHVER_QUICK=require "$PATCHVER" -C "$repo" --tags-containing "$c" 2>&1)" \
		"$(PATCHVER_QUICK=off "$PATCHVER" -C "$repo" --no-index --tags-containing "$c" 2>&1)" \
		"quick path with refs/X: --tags-containing $c"
done
# tags the files reader leaves to libgit2 (a symbolic tag, a lock file): still git's names
git -C "$repo" symbolic-ref refs/tags/zz-sym "refs/tags/$t"
git -C "$repo" rev-parse "refs/tags/$t" > "$repo/refs/tags/zz-held.lock"
head -60 "$tmp/sample" > "$tmp/revs-s"
git -C "$repo" name-rev --tags --name-only --annotate-stdin < "$tmp/revs-s" > "$tmp/git-s"
"$PATCHVER" -C "$repo" --no-index --name-rev --stdin < "$tmp/revs-s" > "$tmp/pv-s" 2>&1
expect_files_same "$tmp/git-s" "$tmp/pv-s" "a symbolic tag and a lock file: --stdin as git"
for c in $(head -8 "$tmp/revs-s"); do   # one query each: the lazy walk
	printf '%s\n' "$("$PATCHVER" -C "$repo" --no-index --name-rev "$c" 2>&1)"
done > "$tmp/pv-s1"
head -8 "$tmp/git-s" > "$tmp/git-s1"
expect_files_same "$tmp/git-s1" "$tmp/pv-s1" "a symbolic tag and a lock file: single queries as git"
# headers longer than what peeling reads first (512 bytes): an octopus of
# 12 parents under an annotated tag whose tagger line alone is 600 bytes
parents=$(head -12 "$tmp/sample" | sed 's/^/-p /' | tr '\n' ' ')
octo=$(GIT_AUTHOR_DATE='2030-01-01T00:00:00' GIT_COMMITTER_DATE='2030-01-01T00:00:00' git -C "$repo" commit-tree \
	"$(git -C "$repo" rev-parse "$(head -1 "$tmp/sample")^{tree}")" $parents -m octopus)
long=$(printf 'object %s\ntype commit\ntag zz-long\ntagger %s <l@o.ng> 1893456000 +0000\n\nlong\n' \
	"$octo" "$(printf 'x%.0s' $(seq 600))" | git -C "$repo" hash-object -t tag -w --stdin)
git -C "$repo" update-ref refs/tags/zz-long "$long"
for c in "$octo" $(head -12 "$tmp/sample"); do
	for m in --name-rev --describe; do
		expect_eq "$("$PATCHVER" -C "$repo" --no-index $m "$c" 2>&1)" \
			"$(git -C "$repo" ${m#--} $([ $m = --name-rev ] && echo --tags --name-only || echo --contains) "$c" 2>&1 | sed 's/^fatal: cannot describe/patchver: cannot describe/')" \
			"long headers: $m $c"
	done
done
expect_eq "$(git -C "$repo" cat-file -p "$octo" | head -13 | wc -c | awk '$1 > 512 { print "long" }')" long \
	"the octopus header outgrows 512 bytes"
git -C "$repo" update-ref -d refs/tags/zz-long
git -C "$repo" symbolic-ref --delete refs/tags/zz-sym
rm -f "$repo/refs/tags/zz-held.lock"
git -C "$repo" update-ref -d "refs/${tagc% *}"
git -C "$repo" update-ref -d "refs/tags/zz-loose"
expect_contains "$(PATCHVER_QUICK=require "$PATCHVER" -C "$repo" --name-rev "$old_commit" 2>&1)" \
	"declined: tags changed" "quick path: tags changed since the index"
"$PATCHVER" -C "$repo" --index > /dev/null 2>&1
expect_eq "$(PATCHVER_QUICK=require "$PATCHVER" -C "$repo" --name-rev "$old_commit" 2>&1)" "$git_first_name" \
	"quick path: the old commit"
# packed-refs known to the index: after git pack-refs, the next full run
# writes the digest of packed-refs' tag lines (and which tags are loose) into
# the index, and quick queries check that digest instead of parsing the tag
# lines.  What changes the tags must still make them decline.
# (with a commit-graph: without one, clock skew makes some names decline)
git -C "$repo" commit-graph write --reachable 2>/dev/null
git -C "$repo" pack-refs --all
expect_eq "$(stat_of "$repo" refs_known) $(stat_of "$repo" state)" "true fresh" \
	"a full run restamps a fresh index with the packed tags"
expect_eq "$(ls "$repo"/refs/tags | wc -l)" 0 "every tag packed"
for c in $(head -6 "$tmp/sample"); do
	for m in --name-rev --tags-containing ""; do
		expect_eq "$(PATCHVER_QUICK=require "$PATCHVER" -C "$repo" $m "$c" 2>&1)" \
			"$(PATCHVER_QUICK=off "$PATCHVER" -C "$repo" --no-index $m "$c" 2>&1)" \
			"packed tags known: quick ${m:-report} $c"
	done
done
# a packed ref outside refs/tags: sorted after them (refs/v...), the tag lines
# are no last block and quick queries parse them; sorted before (refs/aa),
# they still are; either way the tag's short name becomes tags/X, as git says
aa=$(GIT_AUTHOR_DATE='1893456000 +0000' GIT_COMMITTER_DATE='1893456000 +0000' git -C "$repo" commit-tree \
	-p "$old_commit" -m aa "$(git -C "$repo" rev-parse "$old_commit^{tree}")")
git -C "$repo" tag aa "$aa"
git -C "$repo" update-ref refs/aa "$aa"
git -C "$repo" update-ref "refs/${tagc% *}" "${tagc#* }"
git -C "$repo" pack-refs --all
for x in aa "${tagc% *}"; do
	grep -q " refs/$x\$" "$repo/packed-refs" && pass || fail "refs/$x is packed"
done
for step in "refs/X and refs/aa" "refs/aa alone"; do
	expect_eq "$(stat_of "$repo" refs_known)" "$([ "$step" = "refs/aa alone" ] && echo true || echo false)" \
		"packed $step: tag lines known"
	for c in "$aa" $(head -20 "$tmp/sample"); do
		printf '%s ' "$(PATCHVER_QUICK=require "$PATCHVER" -C "$repo" --name-rev "$c" 2>&1)"
	done > "$tmp/pv-k"
	for c in "$aa" $(head -20 "$tmp/sample"); do
		printf '%s ' "$(git -C "$repo" name-rev --tags --name-only "$c")"
	done > "$tmp/git-k"
	expect_files_same "$tmp/git-k" "$tmp/pv-k" "packed $step: quick names as git"
	expect_contains "$(cat "$tmp/pv-k")" "tags/aa" "packed $step: a tags/aa name"
	[ "$step" = "refs/aa alone" ] || git -C "$repo" update-ref -d "refs/${tagc% *}"
done
# a file of the git directory named as a tag makes it tags/X too
git -C "$repo" rev-parse "refs/tags/${tagc% *}" > "$repo/${tagc% *}"
for c in $(head -20 "$tmp/sample"); do
	printf '%s ' "$(PATCHVER_QUICK=require "$PATCHVER" -C "$repo" --name-rev "$c" 2>&1)"
done > "$tmp/pv-k"
for c in $(head -20 "$tmp/sample"); do printf '%s ' "$(git -C "$repo" name-rev --tags --name-only "$c")"; done > "$tmp/git-k"
expect_files_same "$tmp/git-k" "$tmp/pv-k" "a top-level file named as a tag: quick names as git"
expect_contains "$(cat "$tmp/pv-k")" "tags/${tagc% *}" "a top-level file named as a tag: tags/X"
rm -f "$repo/${tagc% *}"
git -C "$repo" update-ref -d refs/aa
git -C "$repo" tag -d aa > /dev/null
expect_eq "$(stat_of "$repo" state) $(stat_of "$repo" refs_known)" "rebuilt true" "tag aa gone: rebuilt, known"
# a new loose tag, the same tag moved as a loose ref, then packed: declined
git -C "$repo" tag zz-new "$old_commit"
expect_contains "$(PATCHVER_QUICK=require "$PATCHVER" -C "$repo" --name-rev "$old_commit" 2>&1)" \
	"declined: tags changed" "packed tags known: a new loose tag"
git -C "$repo" tag -d zz-new > /dev/null
git -C "$repo" tag -f "${tagc% *}" "$old_commit" > /dev/null 2>&1
expect_contains "$(PATCHVER_QUICK=require "$PATCHVER" -C "$repo" --name-rev "$old_commit" 2>&1)" \
	"declined: tags changed" "packed tags known: a packed tag moved by a loose ref"
git -C "$repo" pack-refs --all
expect_contains "$(PATCHVER_QUICK=require "$PATCHVER" -C "$repo" --name-rev "$old_commit" 2>&1)" \
	"declined: tags changed" "packed tags known: a packed tag line changed"
git -C "$repo" update-ref "refs/tags/${tagc% *}" "${tagc#* }"
git -C "$repo" pack-refs --all
expect_eq "$(stat_of "$repo" refs_known)" true "the tag back, packed: known again"
expect_eq "$(PATCHVER_QUICK=require "$PATCHVER" -C "$repo" --name-rev "$old_commit" 2>&1)" "$git_first_name" \
	"packed tags known: the old commit"
rm -f "$repo/objects/info/commit-graph"

# revs as users type them: abbreviated ids and tag~N^M, answered as the normal path answers
tag1=$(git -C "$repo" tag --contains "$old_commit" | head -1)
# (without a commit-graph here: below clock skew it declines, as for full ids)
for r in "${old_commit:0:12}" "${old_commit:0:7}^0" "$tag1~3" "$tag1^" "$tag1~2^1~1" "$tag1~0"; do
	for m in --describe --first-release --full; do
		[ "$m" = --full ] && m=
		got=$(PATCHVER_QUICK=require "$PATCHVER" -C "$repo" $m "$r" 2>&1)
		case $got in
		*"declined: a commit with clock skew below it") pass ;;
		*) expect_eq "$got" "$(PATCHVER_QUICK=off "$PATCHVER" -C "$repo" --no-index $m "$r" 2>&1)" \
			"quick path: $m $r" ;;
		esac
	done
done
# and where it must not answer: an ambiguous short id, a short id that is also a
# branch (git takes the branch), a parent that does not exist, a name that is not a tag
short=$(git -C "$repo" cat-file --batch-all-objects --batch-check='%(objectname)' | cut -c1-4 | sort | uniq -d | head -1)
expect_contains "$(PATCHVER_QUICK=require "$PATCHVER" -C "$repo" --describe "$short" 2>&1)" \
	"declined: a short id that is ambiguous or unknown" "quick path: ambiguous short id $short"
git -C "$repo" update-ref "refs/heads/${old_commit:0:8}" "$(git -C "$repo" rev-parse "$tag1^{commit}")"
expect_contains "$(PATCHVER_QUICK=require "$PATCHVER" -C "$repo" --describe "${old_commit:0:8}" 2>&1)" \
	"declined: a short id that is also a ref name" "quick path: a short id that is a branch"
expect_eq "$("$PATCHVER" -C "$repo" --describe "${old_commit:0:8}" 2>&1)" \
	"$(git -C "$repo" describe --contains "${old_commit:0:8}" 2>/dev/null)" "a short id that is a branch: git's answer"
git -C "$repo" update-ref -d "refs/heads/${old_commit:0:8}"
root=$(git -C "$repo" rev-list --max-parents=0 "$tag1" | head -1)
expect_contains "$(PATCHVER_QUICK=require "$PATCHVER" -C "$repo" --describe "$root^" 2>&1)" \
	"declined: a rev without that parent" "quick path: the root's parent"
expect_contains "$(PATCHVER_QUICK=require "$PATCHVER" -C "$repo" --describe "HEAD~1" 2>&1)" \
	"declined: a name git may read as another ref" "quick path: HEAD is not a tag"

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
	# one query: the quick path declines, the normal one says so and rebuilds
	out=$("$PATCHVER" -C "$repo" --name-rev "$old_commit" 2>"$tmp/err")
	expect_eq "$out" "$git_first_name" "$kind index: one query"
	expect_contains "$(cat "$tmp/err")" "rebuilding" "$kind index: one query says so"
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
same_as_no_index "extended index" $(git -C "$repo" rev-list --no-merges -2 "$(head -1 "$tmp/newest" | cut -d' ' -f2)") \
	"$(git -C "$repo" rev-list --no-merges --tags | awk 'NR == 500')"
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
