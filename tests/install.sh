#!/usr/bin/env bash
# An installed patchver needs neither its source nor its build tree: a
# copy of the source is built, installed into a temporary prefix, and both
# copies are removed; the installed binary answers a naming query and
# finds its guest data (--prepare-tree).  Without the data it says where it looked.
. "${TESTS:=$(cd "$(dirname "$0")" && pwd)}/lib.sh"
tmp=$(scratch)
trap 'rm -rf "$tmp"' EXIT
copy_source "$tmp/src"
cmake -S "$tmp/src" -B "$tmp/build" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null &&
	cmake --build "$tmp/build" -j "$(nproc)" --target patchver >/dev/null &&
	cmake --install "$tmp/build" --prefix "$tmp/prefix" >/dev/null
expect_eq "$?" 0 "build and install a copy"
rm -rf "$tmp/src" "$tmp/build"
pv=$tmp/prefix/bin/patchver
expect_eq "$(test -f "$tmp/prefix/share/man/man1/patchver.1" && echo yes)" yes "man page installed"
expect_eq "$(test -f "$tmp/prefix/share/patchver/guest/kernel.config" && echo yes)" yes "guest data installed"
expect_eq "$(test -f "$tmp/prefix/share/bash-completion/completions/patchver" && echo yes)" yes \
	"bash completion installed"
expect_eq "$(env -u PATCHVER_GUEST_DIR "$pv" -C "$FIXTURES/demo.git" --first-release master~2)" \
	"$("$PATCHVER" -C "$FIXTURES/demo.git" --first-release master~2)" "installed copy: naming"
# libgit2 starts without parsing the system's CA certificates (gitstart.c):
# Debian 12's libgit2 (mbedTLS) stats the bundle at its start, and
# patchver's loaders keep it from being opened.  A libgit2 that does not
# look for it is not the one patchver is built for: the check fails.
command -v strace >/dev/null || fail "strace is missing (tools/setup.sh test installs it)"
strace -f -e trace=openat,newfstatat,stat -o "$tmp/trace" "$pv" -C "$FIXTURES/demo.git" \
	--no-index --name-rev master~2 >/dev/null
expect_eq "$(grep -c 'ca-certificates.crt", {st_mode=S_IFREG' "$tmp/trace")" 1 \
	"libgit2 started: the CA bundle looked for (Debian 12's mbedTLS libgit2)"
expect_eq "$(grep -c 'openat(.*ca-certificates' "$tmp/trace")" 0 \
	"libgit2 started: the CA bundle not opened"
# the front answers from the index without libgit2 (the quick path), and
# loads lib/patchver/patchver-full.so for the rest
needed=$(readelf -d "$pv" | grep NEEDED)
expect_eq "$(grep -c 'libgit2\|libcrypto' <<<"$needed")" 0 "the front links neither libgit2 nor libcrypto"
expect_eq "$(test -f "$tmp/prefix/lib/patchver/patchver-full.so" && echo yes)" yes \
	"patchver-full.so installed"
head=$(git -C "$FIXTURES/demo.git" rev-parse v2.6.34-rc2~1)
XDG_CACHE_HOME=$tmp/cache "$pv" -C "$FIXTURES/demo.git" --index >/dev/null
expect_eq "$(XDG_CACHE_HOME=$tmp/cache PATCHVER_QUICK=require "$pv" -C "$FIXTURES/demo.git" \
	--first-release "$head")" "$("$PATCHVER" -C "$FIXTURES/demo.git" --first-release "$head")" \
	"installed copy: a quick answer"
mv "$tmp/prefix/lib/patchver" "$tmp/lib-moved"
XDG_CACHE_HOME=$tmp/cache "$pv" -C "$FIXTURES/demo.git" --first-release "$head" >/dev/null 2>"$tmp/err"
expect_eq "$?" 0 "no patchver-full.so: the quick path still answers"
"$pv" -C "$FIXTURES/demo.git" --no-index --first-release "$head" >/dev/null 2>"$tmp/err"
expect_eq "$?" 70 "no patchver-full.so: exit"
expect_contains "$(cat "$tmp/err")" "patchver-full.so is neither in $tmp/prefix/bin nor in" \
	"no patchver-full.so: where it looked"
expect_eq "$(grep -c . "$tmp/err")" 1 "no patchver-full.so: one line"
echo 'not an ELF file' >"$tmp/prefix/bin/patchver-full.so"
"$pv" -C "$FIXTURES/demo.git" --no-index --first-release "$head" >/dev/null 2>"$tmp/err"
expect_eq "$?" 70 "a broken patchver-full.so: exit"
expect_contains "$(cat "$tmp/err")" "cannot load $tmp/prefix/bin/patchver-full.so" \
	"a broken patchver-full.so: named"
cp "$(ldconfig -p | awk '/libz\.so\.1 .*x86-64/ { print $NF; exit }')" "$tmp/prefix/bin/patchver-full.so"
"$pv" -C "$FIXTURES/demo.git" --no-index --first-release "$head" >/dev/null 2>"$tmp/err"
expect_eq "$?" 70 "another library as patchver-full.so: exit"
expect_contains "$(cat "$tmp/err")" "patchver-full.so is not patchver's" \
	"another library as patchver-full.so: named"
rm "$tmp/prefix/bin/patchver-full.so"
mv "$tmp/lib-moved" "$tmp/prefix/lib/patchver"
# (on a cold machine this imports the kernel tree once: the boot tests need it anyway)
out=$(env -u PATCHVER_GUEST_DIR "$pv" --prepare-tree 2>"$tmp/prep-err")
expect_eq "$?" 0 "installed copy: --prepare-tree ($(tail -2 "$tmp/prep-err" | tr '\n' ' '))"
expect_contains "$out" "guest data:       $tmp/prefix/bin/../share/patchver/guest" \
	"installed copy: its own guest data"
# the data gone: one line naming every place looked in
mv "$tmp/prefix/share/patchver" "$tmp/moved"
env -u PATCHVER_GUEST_DIR "$pv" --prepare-tree >/dev/null 2>"$tmp/err"
expect_eq "$?" 16 "no guest data: exit"
expect_contains "$(cat "$tmp/err")" "looked in $tmp/prefix/bin/../share/patchver/guest" "no guest data: where it looked"
expect_eq "$(grep -c . "$tmp/err")" 1 "no guest data: one line"
# PATCHVER_DATA_DIR points at a moved data directory
out=$(env -u PATCHVER_GUEST_DIR PATCHVER_DATA_DIR="$tmp/moved" "$pv" --prepare-tree 2>/dev/null)
expect_contains "$out" "guest data:       $tmp/moved/guest" "PATCHVER_DATA_DIR"
finish
