#!/bin/sh
# capture.sh: remake the gcc12-*.log and ld-*.log beside it from the *.c
# here, with the host's gcc and ld (Debian 12: gcc 12.2, binutils 2.40).
# Compiled and linked only, never run.  The kernel-*.log are excerpts of
# real build logs of the lab (bench/eras on the real history), the cache
# path stripped.
set -u
cd "$(dirname "$0")"
for f in implicit undeclared member header typename; do
	LANG=C.UTF-8 gcc -c -Werror=implicit-function-declaration -o /dev/null "$f.c" > "gcc12-$f.log" 2>&1
done
gcc -c undefref.c -o /tmp/undefref.$$.o &&
	LANG=C.UTF-8 ld -o /dev/null /tmp/undefref.$$.o > ld-undefref.log 2>&1
rm -f /tmp/undefref.$$.o
