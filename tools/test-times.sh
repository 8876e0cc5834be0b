#!/bin/sh
# Each test's time against its timeout, from ctest's output:
#
#   tools/test-times.sh BUILD_DIR LOG [LOG...]
#
# BUILD_DIR is a configured build (its tests' TIMEOUT properties, ctest's
# default 1500 s for the rest); each LOG holds ctest's "Test #N: name ...
# Passed X sec" lines (the output of tools/setup.sh test, say).  Prints
# name, seconds, timeout and the share, slowest first, and exits 1 when a
# test took more than a third of its timeout: what passes on an idle
# machine must leave room for a busy one.
set -eu
build=$1
shift
timeouts=$(mktemp)
table=$(mktemp)
trap 'rm -f "$timeouts" "$table"' EXIT
ctest --test-dir "$build" --show-only=json-v1 |
	jq -r '.tests[] | [.name, ([.properties[]? | select(.name == "TIMEOUT") | .value][0] // 1500)] |
		@tsv' > "$timeouts"
grep -hE '^ *[0-9]+/[0-9]+ Test +#[0-9]+: ' "$@" |
	awk -v tfile="$timeouts" '
	BEGIN { while ((getline line < tfile) > 0) { split(line, f, "\t"); to[f[1]] = f[2] } }
	{
		name = $4; sec = $(NF - 1)
		if (!(name in to)) next
		if (!(name in t) || sec > t[name]) t[name] = sec
	}
	END {
		bad = 0
		for (n in t) {
			share = t[n] / to[n]
			over = share > 1 / 3
			printf "%-28s %8.1f s %6d s %5.1f%%%s\n", n, t[n], to[n], 100 * share,
				(over ? "  over a third" : "")
			bad += over
		}
		exit bad > 0
	}' > "$table" && status=0 || status=1
sort -k2 -n -r "$table"
exit $status
