#!/usr/bin/env bash
# The Debian package, built the Debian way (debian/, dpkg-buildpackage) from
# a copy of the source, so nothing lands beside the checkout: it must
# install (apt-get install -s), run from an unpacked root with nothing
# installed (dpkg-deb -x), and pass lintian without errors.
. "${TESTS:=$(cd "$(dirname "$0")" && pwd)}/lib.sh"
tmp=$(scratch)
trap 'rm -rf "$tmp"' EXIT
copy_source "$tmp/patchver"
(cd "$tmp/patchver" && dpkg-buildpackage -b -us -uc -j"$(nproc)" >"$tmp/build.log" 2>&1)
expect_eq "$?" 0 "dpkg-buildpackage (log: $(tail -3 "$tmp/build.log" | tr '\n' ' '))"
deb=$(ls "$tmp"/patchver_*.deb 2>/dev/null | grep -v dbgsym | head -1)
expect_eq "$(test -f "$deb" && echo yes)" yes "the .deb"
deps=$(dpkg-deb -f "$deb" Depends)
for lib in libgit2 libpopt libssl zlib1g; do
	expect_contains "$deps" "$lib" "Depends from shlibs: $lib"
done
expect_contains "$(dpkg-deb -f "$deb" Recommends)" "qemu-system-x86" "Recommends qemu-system-x86"
apt-get install -s "$deb" >"$tmp/apt.log" 2>&1
expect_eq "$?" 0 "apt-get install -s (log: $(tail -2 "$tmp/apt.log" | tr '\n' ' '))"
dpkg-deb -x "$deb" "$tmp/root"
expect_eq "$("$tmp/root/usr/bin/patchver" -C "$FIXTURES/demo.git" --first-release master~2)" \
	"$("$PATCHVER" -C "$FIXTURES/demo.git" --first-release master~2)" "the unpacked patchver answers"
for f in usr/lib/patchver/patchver-full.so usr/share/man/man1/patchver.1.gz \
	usr/share/patchver/guest/kernel.config \
	usr/share/bash-completion/completions/patchver usr/share/doc/patchver/copyright; do
	expect_eq "$(test -f "$tmp/root/$f" && echo yes)" yes "packaged: $f"
done
lintian --tag-display-limit 0 "$deb" >"$tmp/lintian.log" 2>&1
expect_eq "$?" 0 "lintian exits 0 ($(grep -v 'root privileges' "$tmp/lintian.log" | head -3 | tr '\n' ' '))"
expect_eq "$(grep -c '^E:' "$tmp/lintian.log")" 0 "lintian: no errors"
grep '^[WI]:' "$tmp/lintian.log" | sed 's/^/lintian: /' | head -20
finish
