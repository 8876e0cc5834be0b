#!/usr/bin/env bash
# Cross-check patchver against git on a fixture, without and with a
# commit-graph:
#   --name-rev        == git name-rev --tags --name-only <rev>   (per rev)
#   --describe        == git describe --contains <rev>           (per rev)
#   --name-rev --stdin == git name-rev --tags --name-only --annotate-stdin
#   first release     == min in version order of release tags containing it
#                        (computed from git rev-list of every release tag),
#                        per rev and with --first-release --stdin
#   --tags-containing == git tag --contains, release tags (sample of 40)
# Each with the release index in a state: cold (no index before any run),
# warm (built by --index first) and extended (built while the newest tags
# were missing, which then come back, so the first query extends it).
# Over a history git sees otherwise than the objects spell (an index and,
# in the -graph copy, git's commit-graph were written before the change,
# and neither may answer): replace (a replace ref swaps a merge's parents),
# graft (info/grafts leaves a merge only its second parent), noreplace (the replace ref with
# GIT_NO_REPLACE_OBJECTS set, for git and patchver: the index answers).
# With a GLOB, --match GLOB against git's --match / --refs=refs/tags/GLOB.
# usage: crosscheck.sh FIXTURE all|N [MODE,...] [GLOB]
#   (N: a deterministic sample of N commits; the default state: warm)
. "${TESTS:=$(cd "$(dirname "$0")" && pwd)}/lib.sh"
name=$1
want=$2
modes=${3:-warm}
match=${4:-}
tmp=$(scratch)
trap 'rm -rf "$tmp"' EXIT
mode=warm

# pv: patchver with the release index in the state under test
pv() {
	[ "$mode" = cold ] && rm -rf "$tmp/cache"
	XDG_CACHE_HOME=$tmp/cache "$PATCHVER" ${match:+--match "$match"} "$@" 2>>"$tmp/pv-stderr"
}
# git's naming limited as --match limits patchver's
git_nr() { git -C "$1" name-rev --tags --name-only ${match:+--refs="refs/tags/$match"} "${@:2}"; }
git_desc() { git -C "$1" describe --contains ${match:+--match "$match"} "${@:2}"; }
# in_glob TAG: does TAG count as a release under --match?
in_glob() { [ -z "$match" ] || [[ $1 == $match ]]; }
export match
export -f git_nr git_desc

# check_repo REPO LABEL KEY: git's answers are computed once per KEY
check_repo() {
	local repo=$1 tag=$2 G=$tmp/git-$3${match:+-match}
	git -C "$repo" rev-list --all > "$tmp/all"
	if [ "$want" = all ]; then
		cp "$tmp/all" "$tmp/revs"
	else
		local n; n=$(wc -l < "$tmp/all")
		awk -v step=$(( n / want )) 'NR % step == 1' "$tmp/all" | head -n "$want" > "$tmp/revs"
	fi
	echo "$tag: $(wc -l < "$tmp/revs") of $(wc -l < "$tmp/all") commits"

	# name-rev, one git process per rev (git's cutoff depends on the rev)
	[ -s "$G-nr" ] || xargs -P2 -n1 bash -c 'printf "%s %s\n" "$1" "$(git_nr "$0" "$1")"' \
		"$repo" < "$tmp/revs" | sort > "$G-nr"
	pv -C "$repo" --name-rev $(cat "$tmp/revs") > "$tmp/pv-nr.raw"
	expect_eq "$?" 0 "$tag: patchver --name-rev exit"
	paste -d' ' "$tmp/revs" "$tmp/pv-nr.raw" | sort > "$tmp/pv-nr"
	expect_files_same "$G-nr" "$tmp/pv-nr" "$tag: name-rev per rev"

	# describe --contains: git 2.39 runs it as name-rev --peel-tag --name-only
	# --no-undefined --tags (--match: --refs=refs/tags/GLOB), so on commits
	# its answers are name-rev's above, "undefined" a failure (128).  That
	# saves a git process per rev; git describe itself checks it on a sample.
	if [ ! -s "$G-desc" ]; then
		awk '{ if ($2 == "undefined") print $1, 128, ""; else print $1, 0, $2 }' \
			"$G-nr" > "$G-desc"
		{ awk 'NR % 13 == 5' "$tmp/revs" | head -40; awk '$2 == "undefined" { print $1 }' "$G-nr" |
			head -10; } | sort -u > "$tmp/desc-sample"
		xargs -P2 -n1 bash -c 'out=$(git_desc "$0" "$1" 2>/dev/null); printf "%s %s %s\n" "$1" "$?" "$out"' \
			"$repo" < "$tmp/desc-sample" | sort > "$tmp/git-desc-sample"
		expect_files_same "$tmp/git-desc-sample" <(join "$tmp/desc-sample" "$G-desc" |
			awk '{ print $1, $2, $3 }') "$tag: git describe --contains is git name-rev's answer"
	fi
	awk '$2 == 0 { print $1 }' "$G-desc" > "$tmp/ok-revs"
	if [ -s "$tmp/ok-revs" ]; then
		pv -C "$repo" --describe $(cat "$tmp/ok-revs") > "$tmp/pv-desc.raw"
		expect_eq "$?" 0 "$tag: patchver --describe exit"
	else
		: > "$tmp/pv-desc.raw"
	fi
	paste -d' ' "$tmp/ok-revs" "$tmp/pv-desc.raw" | awk '{ print $1, 0, $2 }' | sort > "$tmp/pv-desc"
	awk '$2 == 0' "$G-desc" > "$tmp/git-desc-ok"
	expect_files_same "$tmp/git-desc-ok" "$tmp/pv-desc" "$tag: describe --contains per rev"
	awk '$2 != 0 { print $1 }' "$G-desc" | head -20 | while read -r r; do
		out=$(XDG_CACHE_HOME=$tmp/cache "$PATCHVER" -C "$repo" ${match:+--match "$match"} --describe "$r" 2>"$tmp/err")
		rc=$?
		[ "$rc" = 7 ] && [ -z "$out" ] && grep -q "cannot describe '$r'" "$tmp/err" ||
			echo "$r rc=$rc out=$out"
	done > "$tmp/bad-undescribable"
	expect_eq "$(cat "$tmp/bad-undescribable")" "" "$tag: undescribable revs fail as git does"

	# one rev per call, as scripts ask: from the index (warm), else git's own
	# cut walk reading only what it reaches (cold: few revs make it lazy).
	# Extended: the first call extends the index, the rest read it as warm
	# does, so fewer of them (the sanitizer build's time).
	local one_n=24 tc_n=40
	[ "$mode" = extended ] && one_n=6 tc_n=10
	# a changed history answers without the index: each call loads it (the
	# sanitizer build's time), so fewer; so with a glob, the same walks again
	case $mode in replace | graft | noreplace) one_n=8 tc_n=10 ;; esac
	[ -n "$match" ] && one_n=10 tc_n=15
	awk 'NR % 7 == 2' "$tmp/revs" | head -$one_n > "$tmp/one-revs"
	while read -r r; do
		printf '%s %s\n' "$r" "$(pv -C "$repo" --name-rev "$r")"
		out=$(pv -C "$repo" --describe "$r" 2>/dev/null) && printf '%s 0 %s\n' "$r" "$out" >&3
	done < "$tmp/one-revs" > "$tmp/pv-one-nr" 3> "$tmp/pv-one-desc"
	grep -F -f "$tmp/one-revs" "$G-nr" > "$tmp/git-one-nr"
	grep -F -f "$tmp/one-revs" "$G-desc" | awk '$2 == 0' > "$tmp/git-one-desc"
	expect_files_same "$tmp/git-one-nr" <(sort "$tmp/pv-one-nr") "$tag: name-rev, one rev per call"
	expect_files_same "$tmp/git-one-desc" <(sort "$tmp/pv-one-desc") "$tag: describe, one rev per call"
	# first release: the minimum key over release tags whose history has the commit
	[ -s "$G-releases" ] || release_tags "$repo" | while read -r key t; do
		in_glob "$t" && echo "$key $t"; done > "$G-releases"
	[ -s "$G-first-all" ] || first_releases "$repo" "$G-releases" > "$G-first-all"
	while read -r r; do printf '%s %s\n' "$r" "$(pv -C "$repo" --first-release "$r")"; done \
		< "$tmp/one-revs" | awk '$2 != "none"' | sort > "$tmp/pv-one-first"
	sort "$tmp/one-revs" | join - "$G-first-all" > "$tmp/git-one-first"
	expect_files_same "$tmp/git-one-first" "$tmp/pv-one-first" "$tag: first release, one rev per call"

	# annotate-stdin over every commit, and over text with shas inside
	{ cat "$tmp/all"; git -C "$repo" log --all --format='* %H (%P) %s' | head -3000;
	  printf 'no newline at end %s' "$(head -1 "$tmp/all")"; } > "$tmp/text"
	[ -s "$G-ann" ] || git_nr "$repo" --annotate-stdin < "$tmp/text" > "$G-ann"
	pv -C "$repo" --name-rev --stdin < "$tmp/text" > "$tmp/pv-ann"
	expect_files_same "$G-ann" "$tmp/pv-ann" "$tag: --name-rev --stdin vs --annotate-stdin"

	# first release (git's answers computed above, with the one-rev checks)
	pv -C "$repo" $(cat "$tmp/revs") |
		awk '/^[0-9a-f]+ / && !/^  / { n++ } /^  first release:/ { print $3 }' > "$tmp/pv-first.raw"
	paste -d' ' "$tmp/revs" "$tmp/pv-first.raw" | awk '$2 != "none"' | sort > "$tmp/pv-first"
	sort "$tmp/revs" > "$tmp/revs.sorted"
	join "$tmp/revs.sorted" "$G-first-all" > "$tmp/git-first"
	expect_files_same "$tmp/git-first" "$tmp/pv-first" "$tag: first release"
	expect_eq "$(wc -l < "$tmp/pv-first.raw")" "$(wc -l < "$tmp/revs")" "$tag: one first release per rev"
	# --first-release --stdin: the same answers from the one bulk walk
	pv -C "$repo" --first-release --stdin < "$tmp/revs" |
		paste -d' ' "$tmp/revs" - | awk '$2 != "none"' | sort > "$tmp/pv-first-bulk"
	expect_files_same "$tmp/git-first" "$tmp/pv-first-bulk" "$tag: --first-release --stdin"

	# every containing release tag, for a sample
	[ -s "$G-tc" ] || awk 'NR % 7 == 1' "$tmp/revs" | head -40 | while read -r r; do
		git -C "$repo" tag --contains "$r" | grep -E "$RELEASE_RE" | while read -r t; do
			in_glob "$t" && echo "$t"; done |
			awk "$KVER_AWK"' { print kkey($1), $1 }' | sort | awk '{ print $2 }' |
			grep -xF -f <(awk '{ print $2 }' "$G-releases") | tr '\n' ' '
		echo
	done > "$G-tc"
	awk 'NR % 7 == 1' "$tmp/revs" | head -$tc_n | while read -r r; do
		pv -C "$repo" --tags-containing "$r" | awk 'NR > 1 && $1 !~ /^\(/ { for (i = 2; i <= NF; i++) print $i }' |
			awk "$KVER_AWK"' { print kkey($1), $1 }' | sort | awk '{ printf "%s ", $2 }'
		echo
	done > "$tmp/pv-tc"
	expect_files_same <(head -$tc_n "$G-tc") "$tmp/pv-tc" "$tag: --tags-containing"
}

# index_stat REPO KEY: a number from patchver --index --json
index_stat() {
	XDG_CACHE_HOME=$tmp/cache "$PATCHVER" -C "$1" --index --json |
		sed -n "s/.*\"$2\":\([^,}]*\).*/\1/p" | tr -d '"'
}

# extended_copy SRC DEST: DEST indexed without its 3 newest tags, then given them back
extended_copy() {
	git clone -q --bare --shared "$1" "$2"
	git -C "$1" for-each-ref --sort=-creatordate --count=3 --format='%(refname) %(objectname)' \
		refs/tags > "$tmp/newest"
	while read -r ref _; do git -C "$2" update-ref -d "$ref"; done < "$tmp/newest"
	expect_eq "$(index_stat "$2" state)" built "$name: index of the copy without the newest tags"
	old=$(index_stat "$2" commits)
	while read -r ref oid; do git -C "$2" update-ref "$ref" "$oid"; done < "$tmp/newest"
}

# replaced_copy SRC DEST: DEST indexed (and, from SRC, its commit-graph), then
# its history changed as the mode says; the index and the graph stay behind
replaced_copy() {
	local merges m p
	cp -a "$1" "$2"
	expect_eq "$(index_stat "$2" state)" built "$name: index of the copy before its history changes"
	merges=$(git -C "$2" rev-list --merges --all | sed -n '2p;9p')
	case $mode in
	replace | noreplace)
		m=$(echo "$merges" | head -1)
		p=($(git -C "$2" rev-parse "$m^1" "$m^2"))
		git -C "$2" replace --graft "$m" "${p[1]}" "${p[0]}"
		# packed, as git gc leaves it (bad-input.sh has loose ones)
		git -C "$2" pack-refs --all
		expect_eq "$(grep -c ' refs/replace/' "$2/packed-refs")" 1 "$name: the replace ref packed"
		expect_eq "$(git -C "$2" rev-parse "$m^1")" "${p[1]}" "$name: the replace ref swaps $m's parents"
		;;
	graft)
		m=$(echo "$merges" | tail -1)
		printf '# a comment, skipped\n\n%s %s\n' "$m" "$(git -C "$2" rev-parse "$m^2")" \
			>"$2/info/grafts"
		git -C "$2" config advice.graftFileDeprecated false
		expect_eq "$(git -C "$2" rev-list --parents -1 "$m" | wc -w)" 2 "$name: the graft leaves $m one parent"
		;;
	esac
}

for mode in ${modes//,/ }; do
	: > "$tmp/pv-stderr"
	for fx in "$name" "$name-graph"; do
		repo=$FIXTURES/$fx.git
		key=$fx
		rm -rf "$tmp/cache"
		unset GIT_NO_REPLACE_OBJECTS
		case $mode in
		warm) expect_eq "$(index_stat "$repo" state)" built "$fx: index built" ;;
		extended) rm -rf "$tmp/ext-$fx.git"; extended_copy "$repo" "$tmp/ext-$fx.git"
			  repo=$tmp/ext-$fx.git ;;
		replace | graft | noreplace)
			rm -rf "$tmp/$mode-$fx.git"; replaced_copy "$repo" "$tmp/$mode-$fx.git"
			repo=$tmp/$mode-$fx.git key=$fx-$mode
			[ $mode = noreplace ] && export GIT_NO_REPLACE_OBJECTS=1 key=$fx ;;
		esac
		check_repo "$repo" "$fx ($mode index${match:+, --match $match})" "$key"
		case $mode in
		replace | graft)
			# neither the index nor the quick path answers over this history
			PATCHVER_QUICK=require XDG_CACHE_HOME=$tmp/cache "$PATCHVER" -C "$repo" \
				"$(git -C "$repo" rev-list -1 --tags)" >/dev/null 2>"$tmp/err"
			expect_contains "$(cat "$tmp/err")" "quick path declined: replace refs or grafts" \
				"$fx ($mode): the quick path declines"
			XDG_CACHE_HOME=$tmp/cache "$PATCHVER" -C "$repo" --index >/dev/null 2>"$tmp/err"
			expect_contains "$(cat "$tmp/err")" "nor a history changed by replace refs or grafts" \
				"$fx ($mode): no index"
			;;
		noreplace)
			expect_eq "$(PATCHVER_QUICK=require XDG_CACHE_HOME=$tmp/cache "$PATCHVER" -C "$repo" \
				"$(git -C "$repo" rev-list -1 --tags)" >/dev/null 2>&1; echo $?)" 0 \
				"$fx ($mode): the index answers" ;;
		cold) ;;
		*)
			expect_eq "$(index_stat "$repo" state)" fresh "$fx: index fresh after the checks"
			expect_eq "$(index_stat "$repo" commits)" "$(git -C "$repo" rev-list --tags | wc -l)" \
				"$fx: index holds every commit a tag reaches" ;;
		esac
		if [ "$mode" = extended ]; then
			new=$(index_stat "$repo" commits)
			[ "$new" -gt "$old" ] && pass || fail "$fx: the index did not grow ($old -> $new)"
		fi
	done
	# the index never speaks unless something was wrong with it
	expect_eq "$(grep -v "^patchver: cannot describe" "$tmp/pv-stderr" | sort -u)" "" \
		"$name ($mode index): stderr"
done
finish
