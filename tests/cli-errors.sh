#!/usr/bin/env bash
# Bad input: each case exits with its documented code and says so in one
# line on stderr that names the input; nothing on stdout.
. "${TESTS:=$(cd "$(dirname "$0")" && pwd)}/lib.sh"
repo=$FIXTURES/small.git
tmp=$(scratch)
trap 'rm -rf "$tmp"' EXIT

# expect_error CODE NEEDLE ARGS...
expect_error() {
	local code=$1 needle=$2 out err rc
	shift 2
	out=$("$PATCHVER" "$@" 2>"$tmp/err")
	rc=$?
	err=$(cat "$tmp/err")
	expect_eq "$rc" "$code" "exit code of: patchver $*"
	expect_contains "$err" "$needle" "message of: patchver $*"
	expect_eq "$(grep -c . "$tmp/err")" 1 "one line on stderr for: patchver $* (stderr: $err)"
	expect_eq "$out" "" "no stdout for: patchver $*"
}

mkdir "$tmp/plain"
expect_error 3 "not a git repository: '$tmp/plain'" -C "$tmp/plain" HEAD
expect_error 3 "not a git repository: '$tmp/missing'" -C "$tmp/missing" HEAD
expect_error 4 "unknown revision 'no-such-rev'" -C "$repo" no-such-rev
expect_error 4 "unknown revision 'HEAD~999999'" -C "$repo" HEAD~999999
expect_error 6 "'master^{tree}' names a tree, not a commit" -C "$repo" 'master^{tree}'
expect_error 6 "'master:Makefile' names a blob, not a commit" -C "$repo" master:Makefile
expect_error 6 "'v2.6.11' names a tag" -C "$repo" v2.6.11
expect_error 6 "'blob-tag' names a blob" -C "$repo" blob-tag
expect_error 7 "cannot describe '$(git -C "$repo" rev-parse master)'" -C "$repo" --describe master
expect_error 2 "--bogus" -C "$repo" --bogus
expect_error 2 "no revision given" -C "$repo"
expect_error 2 "mutually exclusive" -C "$repo" --describe --name-rev HEAD
expect_error 2 "not several" -C "$repo" --stdin HEAD
expect_error 2 "not several" -C "$repo" --patch x HEAD
expect_error 2 "no other mode" -C "$repo" --triage --describe HEAD

# a repository without tags
git init -q --bare "$tmp/notags.git"
c=$(GIT_AUTHOR_DATE='1262304000 +0000' GIT_COMMITTER_DATE='1262304000 +0000' \
	git -C "$tmp/notags.git" commit-tree -m x "$(git -C "$tmp/notags.git" mktree </dev/null)")
git -C "$tmp/notags.git" update-ref refs/heads/master "$c"
expect_error 8 "repository '$tmp/notags.git' has no tags" -C "$tmp/notags.git" master

# a truncated packfile: an error naming the object, never a wrong answer
cp -a "$FIXTURES/demo.git" "$tmp/corrupt.git"
pack=$(ls "$tmp/corrupt.git"/objects/pack/*.pack)
chmod u+w "$pack"
truncate -s 20000 "$pack"
out=$("$PATCHVER" -C "$tmp/corrupt.git" v2.6.34 2>"$tmp/err")
expect_eq "$?" 9 "truncated pack: exit"
expect_eq "$out" "" "truncated pack: no answer"
expect_eq "$(grep -c . "$tmp/err")" 1 "truncated pack: one line"

# a shallow clone: answered, with a warning that history is cut
git clone -q --bare --depth 5 "file://$FIXTURES/small.git" "$tmp/shallow.git" 2>/dev/null
"$PATCHVER" -C "$tmp/shallow.git" master >/dev/null 2>"$tmp/err"
expect_contains "$(cat "$tmp/err")" "is a shallow clone" "shallow clone warning"

# two commits sharing a short prefix: ambiguous; a commit and a tree or
# blob sharing one: the commit, as `git log` picks it
git -C "$repo" cat-file --batch-all-objects --batch-check='%(objectname) %(objecttype)' |
	awk '{ p = substr($1, 1, 4); n[p]++; t[p] = t[p] " " $2; o[p] = $1 }
	     END { for (p in n) if (n[p] == 2) print p, t[p] }' > "$tmp/pairs"
two=$(awk '$2 == "commit" && $3 == "commit" { print $1; exit }' "$tmp/pairs")
mixed=$(awk '($2 == "commit") != ($3 == "commit") { print $1; exit }' "$tmp/pairs")
if [ -n "$two" ]; then
	expect_error 5 "short sha '$two' is ambiguous: commits" -C "$repo" "$two"
else
	fail "fixture has no two commits sharing a 4-hex prefix"
fi
if [ -n "$mixed" ]; then
	want=$(git -C "$repo" log -1 --format=%H "$mixed" 2>/dev/null)
	got=$("$PATCHVER" -C "$repo" --name-rev "$mixed" 2>/dev/null)
	expect_eq "$?" 0 "commit/non-commit prefix resolves"
	expect_eq "$got" "$(git -C "$repo" name-rev --tags --name-only "$want")" "prefix picks git log's commit"
	"$PATCHVER" -C "$repo" --name-rev "$mixed~1" >/dev/null 2>&1
	expect_eq "$?" 0 "prefix with a suffix resolves"
else
	fail "fixture has no commit sharing a 4-hex prefix with another object"
fi

# one bad rev among good ones: the others are still answered
out=$("$PATCHVER" -C "$repo" --name-rev master~1 nope master~2 2>/dev/null)
expect_eq "$?" 4 "mixed revs exit with the error"
expect_eq "$(echo "$out" | wc -l)" 2 "mixed revs: good ones answered"

# --stdin skips blank lines and comments; a bad line does not stop it


# git's environment, as every git tool honours it; -C wins over it
want=$("$PATCHVER" -C "$repo" --first-release master~3)
expect_eq "$(cd / && GIT_DIR=$repo "$PATCHVER" --first-release master~3)" "$want" "GIT_DIR names the repository"
expect_eq "$(GIT_DIR=/nonexistent "$PATCHVER" -C "$repo" --first-release master~3)" "$want" "-C wins over GIT_DIR"
(cd / && GIT_DIR=/nonexistent "$PATCHVER" master 2>"$tmp/err" >/dev/null)
expect_eq "$?" 3 "GIT_DIR to nothing: exit"
expect_contains "$(cat "$tmp/err")" "not a git repository: '/nonexistent'" "GIT_DIR to nothing: message"
# objects only through GIT_ALTERNATE_OBJECT_DIRECTORIES: refs here, objects there
git init -q --bare "$tmp/refs-only.git"
git -C "$repo" for-each-ref --format='%(objectname) %(refname)' >"$tmp/refs"
while read -r id ref; do git -C "$tmp/refs-only.git" update-ref --no-deref "$ref" "$id" 2>/dev/null ||
	mkdir -p "$tmp/refs-only.git/$(dirname "$ref")" && echo "$id" >"$tmp/refs-only.git/$ref"; done <"$tmp/refs"
expect_eq "$(GIT_DIR=$tmp/refs-only.git GIT_ALTERNATE_OBJECT_DIRECTORIES=$repo/objects \
	"$PATCHVER" --first-release "$(git -C "$repo" rev-parse master~3)")" "$want" "objects from GIT_ALTERNATE_OBJECT_DIRECTORIES"

# --version and --help succeed
"$PATCHVER" --version | grep -q '^patchver '
expect_eq "$?" 0 "--version"
"$PATCHVER" --help | grep -q -- '--describe'
expect_eq "$?" 0 "--help"
# grouped by mode, each option once, on one screen and a half
help=$(COLUMNS=80 "$PATCHVER" --help)
for heading in "Query" "Triage:" "Boot (--verify-boot FIX):" "Bisect (--bisect-boot):" "Audit:" "Kernels and cache"; do
	expect_contains "$help" "$heading" "--help heading $heading"
done
expect_eq "$(grep -c -- '--series=' <<<"$help")" 1 "--series described once"
expect_eq "$(($(wc -l <<<"$help") <= 92))" 1 "--help fits in 92 lines"
# the old spelling of --patch-series still works, with a note
"$PATCHVER" -C "$repo" --verify-boot --series "$tmp" --describe HEAD >/dev/null 2>"$tmp/err"
expect_eq "$?" 2 "--verify-boot --series DIR: still parsed (then the usage error)"
expect_contains "$(cat "$tmp/err")" "--series DIR with --verify-boot is deprecated: use --patch-series DIR" \
	"--series DIR: deprecation note"
finish
