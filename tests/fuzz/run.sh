#!/bin/sh
# tests/fuzz/run.sh SECONDS [BUILD_DIR]: build the libFuzzer targets with clang
# (ASan + UBSan) and run each for SECONDS on a copy of its corpus.  A crash
# leaves its input in BUILD_DIR/fuzz/crash-*: make it a test, fix it.
set -eu
seconds=${1:-60}
top=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "${2:-$top/build-fuzz}/fuzz"
out=$(cd "${2:-$top/build-fuzz}/fuzz" && pwd)
cflags="-g -O1 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -I$top/include"
libs="$(pkg-config --libs libgit2 libcrypto zlib)"
common="$top/src/base/util.c $top/src/base/error.c $top/src/engine/oid.c"
build() {   # name sources...
	name=$1
	shift
	clang $cflags -o "$out/$name" "$top/tests/fuzz/$name.c" "$@" $common $libs
}
build fuzz_kver "$top/src/engine/kver.c"
build fuzz_patch "$top/src/stable/patch.c" "$top/src/stable/patchid.c" "$top/src/stable/hunks.c" \
	"$top/src/engine/treepath.c" "$top/src/engine/cgraph.c" "$top/src/engine/objstore.c"
build fuzz_serial "$top/src/lab/serial.c" "$top/src/lab/crash.c"
build fuzz_objstore "$top/src/engine/objstore.c"
status=0
for t in kver patch serial objstore; do
	rm -rf "$out/corpus-$t"
	cp -r "$top/tests/fuzz/corpus/$t" "$out/corpus-$t"
	echo "fuzz: $t for ${seconds}s"
	(cd "$out" && ASAN_OPTIONS=detect_leaks=1 "./fuzz_$t" -max_total_time="$seconds" \
		-max_len=65536 -print_final_stats=1 "corpus-$t" 2>"$out/$t.log") || status=1
	grep -E 'stat::number_of_executed_units|stat::peak_rss_mb' "$out/$t.log" | sed "s/^/fuzz: $t: /"
	[ $status = 0 ] || { tail -30 "$out/$t.log"; exit 1; }
done
