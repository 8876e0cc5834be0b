#!/usr/bin/env bash
# The build-compatibility series of guest/compat/ on an old-style tree.
# CI cannot fetch a real 2.6 kernel, so the tree is synthetic: each file
# the series touches holds exactly the lines its hunks expect, at their
# line numbers, under a Makefile that says 2.6.34-rc3.  patchver must pick
# the 2.6.29 sub-era by that version, apply every patch in memory, pass its
# make flags, write the result into its cache work tree (never the
# repository), count none of it as the candidate's behaviour, and report
# the build failure that a synthetic tree ends in as a build failure with
# its first error.  A patch of the sub-era that does not apply is the
# state's failure, never dropped.
. "${TESTS:=$(cd "$(dirname "$0")" && pwd)}/lib.sh"
tmp=$(scratch)
trap 'rm -rf "$tmp"' EXIT
series=$TESTS/../guest/compat/2.6.29
tree=$tmp/tree
mkdir -p "$tree"

# preimage PATCH: for each file of the patch, the lines its hunks need
for p in "$series"/*.patch; do
	awk -v root="$tree" '
	/^--- a\// { file = root "/" substr($2, 3); system("mkdir -p \"$(dirname \"" file "\")\""); next }
	/^\+\+\+ / { next }
	/^@@ / {
		split($2, a, ","); start = -a[1]; old = (2 in a) ? a[2] : 1
		split($3, b, ","); new = (2 in b) ? b[2] : 1
		while (n[file] < start - 1) { print "# filler" > file; n[file]++ }
		next
	}
	old + new > 0 && /^ / { print substr($0, 2) > file; n[file]++; old--; new--; next }
	old + new > 0 && /^-/ { print substr($0, 2) > file; n[file]++; old--; next }
	old + new > 0 && /^\+/ { new--; next }
	' "$p"
done
# a top Makefile that says the version, and fails as the synthetic tree must
printf 'VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 34\nEXTRAVERSION = -rc3\nNAME = synthetic\n' > "$tree/Makefile"
printf '%%config:\n\t@echo configured $@\nbzImage:\n\t@echo "synthetic.c:1:1: error: no kernel here"; exit 1\n' >> "$tree/Makefile"
mkdir -p "$tree/arch/x86" && echo 'config X86' > "$tree/arch/x86/Kconfig"
git -C "$tree" init -q
git -C "$tree" add -A
GIT_AUTHOR_DATE='1262304000 +0000' GIT_COMMITTER_DATE='1262304000 +0000' \
	git -C "$tree" -c user.name=t -c user.email=t@t commit -qm "2.6.34-rc3 layout"
git -C "$tree" tag v2.6.34-rc3
before=$(cd "$tree" && git status --porcelain && find .git -type f -newer .git/HEAD | sort)

for p in "$series"/*.patch; do
	git -C "$tree" apply --check "$p" 2>/dev/null
	expect_eq "$?" 0 "synthetic tree takes $(basename "$p")"
done

j=$("$PATCHVER" -C "$tree" --verify-boot --json --candidate old=v2.6.34-rc3 2>"$tmp/err")
expect_eq "$?" 13 "a synthetic tree does not build: exit (stderr: $(tail -2 "$tmp/err"))"
c='.verify_boot.candidates[0]'
expect_eq "$(jq -r "$c.compat_patches | length" <<<"$j")" "$(ls "$series"/*.patch | wc -l)" \
	"every compat patch of the 2.6 series applied"
expect_eq "$(jq -r "$c.state" <<<"$j")" "2.6.34-rc3" "the state names no compat patch"
expect_eq "$(jq -r "$c.patches | length" <<<"$j")" 0 "compat patches are not the candidate's"
expect_contains "$(jq -r "$c.why" <<<"$j")" "build failed: synthetic.c:1:1: error: no kernel here" \
	"the build failure is the row's result, with its first error"
expect_eq "$(jq -r "$c.compat_era" <<<"$j")" 2.6.29 "the sub-era picked by the tree's version"
expect_eq "$(jq -r "$c.make_flags[0]" <<<"$j")" "$(grep '^CC=' "$series/make-flags")" \
	"its make flags are the state's"
work=$("$PATCHVER" --prepare-tree --kernel-tree "$tree" 2>/dev/null | sed -n 's/^work tree: *//p')
expect_contains "$(cat "$work/scripts/Kbuild.include")" 'pound   := \#' "the work tree holds the patched files"
expect_contains "$(cat "$tmp/err")" "configuring" "configured as an old tree"
expect_contains "$(cat "$tmp/err")" "allnoconfig" "old trees use allnoconfig"

# a sub-era's patch that does not apply to a tree of it: the state's
# failure (nothing built), named; the rest of the run goes on
cp -rL "$TESTS/../guest" "$tmp/guest"
sed 's/^-VDSO_LDFLAGS_vdso.lds = -m elf_x86_64 /-VDSO_LDFLAGS_vdso.lds = -m elf_no_such /' \
	"$series"/0004-*.patch > "$tmp/guest/compat/2.6.29/0009-a-patch-for-another-tree.patch"
j=$(PATCHVER_GUEST_DIR=$tmp/guest "$PATCHVER" -C "$tree" --verify-boot --json --candidate old=v2.6.34-rc3 \
	2>"$tmp/err")
expect_eq "$?" 15 "a compat patch that does not apply: exit"
expect_eq "$(jq -r "$c.why" <<<"$j")" \
	"cannot build with this toolchain: compat/2.6.29/0009-a-patch-for-another-tree.patch does not apply to 2.6.34-rc3" \
	"a compat patch that does not apply: named, with the tree's version"
expect_eq "$(jq -r "$c.build.log" <<<"$j")" null "a compat patch that does not apply: nothing built"
expect_eq "$(cd "$tree" && git status --porcelain && find .git -type f -newer .git/HEAD | sort)" "$before" \
	"the repository is untouched"
finish
