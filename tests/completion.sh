#!/usr/bin/env bash
# Bash completion (tools/completion.bash): options, fixed values, --series
# from the repository's release tags, revs of -C's repository.
. "${TESTS:=$(cd "$(dirname "$0")" && pwd)}/lib.sh"
. "$TESTS/../tools/completion.bash"
repo=$FIXTURES/demo.git
complete_line() {   # WORDS...: COMPREPLY for the last word, sorted, one line
	COMP_WORDS=("$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	_patchver
	printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ' | sed 's/ $//'
}
expect_eq "$(complete_line patchver --tri)" "--triage" "an option"
expect_eq "$(complete_line patchver --evidence b)" "blame" "--evidence values"
expect_eq "$(complete_line patchver --evidence "")" "all blame message text" "--evidence: every value"
expect_eq "$(complete_line patchver --only "")" "all missing possible present unneeded" "--only values"
expect_eq "$(complete_line patchver --bug "")" "boot exit hang oops regex:" "--bug kinds"
expect_eq "$(complete_line patchver --releases "")" "all" "--releases values"
expect_contains " $(complete_line patchver --repro) " " --reproducer " "--reproducer completes"
expect_contains " $(complete_line patchver --repro) " " --repro-timeout " "--repro-timeout completes"
# every long option of --help completes
for o in $("$PATCHVER" --help | grep -oE -- '^ +(-[a-zA-Z?], )?--[a-z][a-z-]*' | grep -o -- '--[a-z-]*'); do
	[ "$o" = --help ] || [ "$o" = --usage ] && continue
	expect_contains " $(complete_line patchver "$o") " " $o " "--help's $o completes"
done
want=$(git -C "$repo" tag -l 'v*' | sed -n 's/^v\(2\.6\.[0-9]*\)\(\.[0-9]*\)\{0,1\}$/\1/p' | sort -u | tr '\n' ' ' | sed 's/ $//')
expect_eq "$(complete_line patchver -C "$repo" --audit v2.6.33..v2.6.34 --series "")" "$want" "--series from the tags"
expect_eq "$(complete_line patchver -C "$repo" --series 2.6.3)" "$want" "--series prefix"
expect_eq "$(complete_line patchver -C "$repo" v2.6.34-rc)" \
	"$(git -C "$repo" tag -l 'v2.6.34-rc*' | sort | tr '\n' ' ' | sed 's/ $//')" "revs: tags of -C's repository"
expect_eq "$(complete_line patchver -C "$repo" mas)" "master" "revs: branches"
finish
