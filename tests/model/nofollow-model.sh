#!/bin/sh
# The seed bug from a shell (busybox sh in the guest): the opener comes
# with --guest-file (a static build of tests/model/open-nofollow.c).
mkdir d && ln -s d a || exit 125
[ -x /tmp/open-nofollow ] || { echo "no /tmp/open-nofollow"; exit 125; }
if /tmp/open-nofollow a/; then
	echo "a/ opens with O_NOFOLLOW"
	exit 0
fi
grep -q . /proc/version && echo "on $(cut -d' ' -f3 /proc/version)"
exit 1
