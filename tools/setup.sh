#!/bin/sh
# patchver's one entry point for a fresh Debian 12 machine (run as root):
#
#   tools/setup.sh demo   install, build, and tell the seed story on the demo history:
#                         first releases, the triage of the fix, and --verify-boot
#                         (the kernel tarball imported and built once, ~5 minutes on 2 cores)
#   tools/setup.sh test   install, build, and run the whole test suite
#                         (under AddressSanitizer + UBSan; the parsers under libFuzzer
#                         for 40 s each; kernel boots on the normal build)
#   tools/setup.sh quick  a contributor's check: build, then the unit tests and the
#                         small fixtures' cross-checks and CLI tests (ctest -L quick,
#                         a few minutes on 2 cores; no kernel, no sanitizer)
#
# Packages are installed only when missing, so a warm machine skips apt.
set -eu
cd "$(dirname "$0")/.."
what=${1:-}

PACKAGES="build-essential cmake pkg-config git libgit2-dev libpopt-dev libssl-dev zlib1g-dev jq"
# the fuzz targets (clang's libFuzzer), peak-memory checks (GNU time), strace
# and the CVE JSON 5 schema that --cve-json records are validated against
TEST_PACKAGES="clang time python3-cvelib strace"
# the Debian package (tests/deb.sh)
TEST_PACKAGES="$TEST_PACKAGES debhelper lintian fakeroot dpkg-dev"
# --verify-boot: QEMU, Debian's kernel tree and what building it needs
BOOT_PACKAGES="qemu-system-x86 linux-source-6.1 bc flex bison libelf-dev cpio procps distcc busybox-static
	musl-tools"

install_packages() {
	missing=""
	for p in $PACKAGES; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
			missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	echo "setup: installing$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q
	# shellcheck disable=SC2086
	apt-get install -y -q --no-install-recommends $missing
}

build() {   # build DIR [cmake options...]
	dir=$1
	shift
	cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPATCHVER_WERROR=ON "$@" >/dev/null
	cmake --build "$dir" -j "$(nproc)"
}

case "$what" in
demo)
	PACKAGES="$PACKAGES $BOOT_PACKAGES"
	install_packages
	build build
	tools/demo.sh build boot
	;;
test)
	PACKAGES="$PACKAGES $BOOT_PACKAGES $TEST_PACKAGES"
	install_packages
	# the kernel tests' own cache, kept between runs and never the user's
	# patchver cache (tests/CMakeLists.txt)
	test_cache=${PATCHVER_TEST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/patchver-tests}
	build build -DPATCHVER_TEST_CACHE="$test_cache"
	# Every test runs on the sanitizer build (leaks reported too), except
	# the kernel boots, which run once, on the normal build.
	build build-asan -DPATCHVER_SANITIZE=ON -DPATCHVER_TEST_CACHE="$test_cache"
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
		ctest --test-dir build-asan --output-on-failure -j "$(nproc)" -LE 'boot|package'
	# the .deb, from the normal build's sources and configuration
	ctest --test-dir build --output-on-failure -L package
	# the version, mail/patch and serial-log parsers under libFuzzer, 40 s each
	tests/fuzz/run.sh 40 build-fuzz
	ctest --test-dir build --output-on-failure -L boot
	;;
quick)
	PACKAGES="$PACKAGES $TEST_PACKAGES"
	install_packages
	build build
	ctest --test-dir build --output-on-failure -j "$(nproc)" -L quick
	;;
*)
	echo "usage: tools/setup.sh demo|test|quick" >&2
	exit 2
	;;
esac
