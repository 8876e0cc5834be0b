#!/bin/sh
# The stand-in user of the test suite: every test runs with HOME=DIR.
#   user-cache.sh make DIR    a patchver cache in DIR/.cache/patchver holding
#                             a marker file and a kept kernel image, as a
#                             maintainer's cache holds what --keep kept
#   user-cache.sh check DIR   both still there, unchanged: no test cleaned,
#                             wrote or built in the user's cache
set -u
what=$1
home=$2
cache=$home/.cache/patchver
image=$cache/images/0123456789abcdef/bzImage
case $what in
make)
	mkdir -p "$(dirname "$image")" || exit 1
	echo "a maintainer's notes: never removed by a test" >"$cache/MARKER"
	printf 'kept kernel image\n' >"$image"
	;;
check)
	passed=0 failed=0
	check() {   # check CONDITION-RESULT MESSAGE
		if [ "$1" = 0 ]; then passed=$((passed + 1)); else
			echo "FAIL: $2" >&2; failed=$((failed + 1)); fi
	}
	[ "$(cat "$cache/MARKER" 2>/dev/null)" = "a maintainer's notes: never removed by a test" ]
	check $? "the user's cache lost its marker file ($cache/MARKER)"
	[ "$(cat "$image" 2>/dev/null)" = "kept kernel image" ]
	check $? "the user's kept image is gone ($image)"
	extra=$(find "$cache" -mindepth 1 ! -path "$cache/MARKER" ! -path "$cache/images" \
		! -path "$(dirname "$image")" ! -path "$image" 2>/dev/null | head -3)
	[ -z "$extra" ]
	check $? "a test wrote into the user's cache: $extra"
	echo "$passed passed, $failed failed"
	[ "$failed" = 0 ]
	;;
*)
	echo "usage: user-cache.sh make|check DIR" >&2
	exit 2
	;;
esac
