#!/usr/bin/env bash
# bench/repro-overhead.sh [BUILD] [N]: what the reproducer path adds to a boot.
# On the model kernel history (tests/make-model-kernel.sh), one kernel image
# (kept, so nothing is rebuilt), N boots each of:
#   bare      a guest whose /init prints the markers and reboots at once
#             (the kernel's own boot: the baseline)
#   elf       the real guest/init.c running a static C reproducer that exits 0
#   script    the real guest/init.c running `#!/bin/sh` `exit 0` (busybox)
# and the reproducer's compile, first and second (cached) run.
# Prints medians of QEMU's wall time from --json (boot.milliseconds).
set -euo pipefail
build=${1:-build}
n=${2:-5}
pv=$(cd "$build" && pwd)/patchver
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$top/tests/make-model-kernel.sh" "$pv" "$tmp/model.git"
cands=()
for i in $(seq 1 "$n"); do cands+=(--candidate "b$i=v6.1"); done

cp -rL "$top/guest" "$tmp/bare"
cat > "$tmp/bare/init.c" <<'C'
#include <stdio.h>
#include <sys/reboot.h>
#include <unistd.h>
int main(void)
{
	printf("PATCHVER-BEGIN kernel=x\nPATCHVER-REPRO-START\nPATCHVER-REPRO-END exit=0\n");
	reboot(RB_AUTOBOOT);
	return 0;
}
C
printf 'int main(void) { return 0; }\n' > "$tmp/true.c"
printf '#!/bin/sh\nexit 0\n' > "$tmp/true.sh"

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
boots() {   # label, patchver args...
	local label=$1
	shift
	"$@" -C "$tmp/model.git" --verify-boot --keep --json "${cands[@]}" 2>/dev/null |
		jq -r '.verify_boot.candidates[].boot.milliseconds' | median |
		awk -v l="$label" '{ printf "%-8s %6d ms\n", l, $1 }'
}
"$pv" -C "$tmp/model.git" --verify-boot --keep --candidate warm=v6.1 >/dev/null 2>&1 || true
boots bare env PATCHVER_GUEST_DIR="$tmp/bare" "$pv" --reproducer "$tmp/true.c"
boots elf "$pv" --reproducer "$tmp/true.c"
boots script "$pv" --reproducer "$tmp/true.sh"
export XDG_CACHE_HOME=$tmp/cc
for run in first second; do
	/usr/bin/time -f "compile  %e s ($run run; patchver stops at the bad --bug)" \
		"$pv" -C "$tmp/model.git" --verify-boot --reproducer "$top/guest/reproducers/nofollow.c" \
		--bug not-a-kind v6.2 2>&1 >/dev/null | tail -1 || true
done
