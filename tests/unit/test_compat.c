/*
 * Unit tests: the sub-era of a tree, from its Makefile's version header,
 * and the sub-era directory's make-flags (lab/compat.c, ktree's reader).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <git2.h>

#include "check.h"
#include "patchver/base/error.h"
#include "patchver/lab/compat.h"
#include "patchver/lab/ktree.h"

/* the top of real Makefiles, each era's spelling */
static const struct { const char *header, *version, *era; } eras[] = {
	{ "VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 12\nEXTRAVERSION =\nNAME=Woozy Numbat\n",
	  "2.6.12", "" },
	{ "VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 16\nEXTRAVERSION =\nNAME=Sliding Snow Leopard\n",
	  "2.6.16", "2.6.16" },
	{ "VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 23\nEXTRAVERSION = -rc9\nNAME = Arr Matey!\n",
	  "2.6.23-rc9", "2.6.16" },
	{ "VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 24\nEXTRAVERSION = -rc3\n"
	  "NAME = Arr Matey! A Hairy Bilge Rat!\n", "2.6.24-rc3", "2.6.24" },
	{ "VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 34\nEXTRAVERSION =\nNAME = Sheep on Meth\n",
	  "2.6.34", "2.6.29" },
	{ "VERSION = 3\nPATCHLEVEL = 0\nSUBLEVEL = 0\nEXTRAVERSION =\nNAME = Sneaky Weasel\n",
	  "3.0.0", "" },
	{ "# SPDX-License-Identifier: GPL-2.0\nVERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 192\n"
	  "EXTRAVERSION =\nNAME = Curry Ramen\n", "6.1.192", "" },
	/* no version: not a kernel Makefile */
	{ "# a Makefile\nall:\n\techo hi\n", "", "" },
	/* a version after NAME is not read (the header ends there) */
	{ "NAME = x\nVERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 30\n", "", "" },
};

static void versions_and_eras(void)
{
	char *const dirs[] = { "2.6.29", "2.6.16", "README", "2.6.24", "2.6", "x.y.z" };
	char version[48], era[16];

	for (size_t i = 0; i < sizeof(eras) / sizeof(eras[0]); i++) {
		ktree_makefile_version(eras[i].header, strlen(eras[i].header), version,
				       sizeof(version));
		CHECK_STR(version, eras[i].version);
		compat_pick(version, dirs, sizeof(dirs) / sizeof(dirs[0]), era, sizeof(era));
		CHECK_STR(era, eras[i].era);
	}
	/* the boundary: 2.6.29-rc1 is 2.6.29's, 2.6.28 the sub-era before */
	compat_pick("2.6.29-rc1", dirs, 6, era, sizeof(era));
	CHECK_STR(era, "2.6.29");
	compat_pick("2.6.28", dirs, 6, era, sizeof(era));
	CHECK_STR(era, "2.6.24");
	/* a sub-era can start at an rc: rc2 before it, rc3 and the release in it */
	{
		char *const rc[] = { "2.6.20", "2.6.22-rc3", "2.6.23" };
		compat_pick("2.6.22-rc2", rc, 3, era, sizeof(era));
		CHECK_STR(era, "2.6.20");
		compat_pick("2.6.22-rc3", rc, 3, era, sizeof(era));
		CHECK_STR(era, "2.6.22-rc3");
		compat_pick("2.6.22", rc, 3, era, sizeof(era));
		CHECK_STR(era, "2.6.22-rc3");
		/* a sub-era named for a release starts with its merge window */
		compat_pick("2.6.23-rc1", rc, 3, era, sizeof(era));
		CHECK_STR(era, "2.6.23");
		compat_pick("2.6.22.19", rc, 3, era, sizeof(era));
		CHECK_STR(era, "2.6.22-rc3");
		/* a stable release belongs to its series' sub-era */
		compat_pick("2.6.23.1", rc, 3, era, sizeof(era));
		CHECK_STR(era, "2.6.23");
	}
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
}

static void make_flags(void)
{
	char dir[] = "/tmp/test_compat.XXXXXX", path[256];
	struct compat c = { 0 };

	if (!mkdtemp(dir)) {
		CHECK(!"mkdtemp");
		return;
	}
	snprintf(path, sizeof(path), "%s/compat", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/compat/2.6.29", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/compat/2.6.29/make-flags", dir);
	write_file(path, "# why\n\nCC=gcc -fno-pie -std=gnu89\nHOSTCFLAGS=-O2\n");
	snprintf(path, sizeof(path), "%s/compat/2.6.29/qemu-args", dir);
	write_file(path, "# an older machine\n-M\npc-i440fx-2.0\n");
	snprintf(path, sizeof(path), "%s/compat/2.6.29/guest-cc", dir);
	write_file(path, "# glibc needs AT_RANDOM\nmusl-gcc\n");
	snprintf(path, sizeof(path), "%s/compat/2.6.29/make-flags", dir);
	CHECK(compat_load(&c, dir, "2.6.34-rc3") == 0);
	CHECK(c.nqemu_args == 2 && c.qemu_args[2] == NULL);
	CHECK_STR(c.qemu_args[0], "-M");
	CHECK_STR(c.qemu_args[1], "pc-i440fx-2.0");
	CHECK_STR(c.guest_cc, "musl-gcc");
	CHECK_STR(c.era, "2.6.29");
	CHECK(c.nmake_vars == 2 && c.make_vars[2] == NULL);
	CHECK_STR(c.make_vars[0], "CC=gcc -fno-pie -std=gnu89");
	CHECK_STR(c.make_text, "CC=gcc -fno-pie -std=gnu89\nHOSTCFLAGS=-O2\n");
	CHECK(c.npatches == 0);
	/* a modern tree: no sub-era, nothing on make's line */
	CHECK(compat_load(&c, dir, "6.1.192") == 0);
	CHECK_STR(c.era, "");
	CHECK(c.nmake_vars == 0 && c.dir == NULL);
	/* a line that is no VAR=value is an error naming the file */
	write_file(path, "CC gcc\n");
	CHECK(compat_load(&c, dir, "2.6.30") == PV_EINVALID);
	CHECK(strstr(pv_error_last()->message, "make-flags: 'CC gcc' is not VAR=value") != NULL);
	compat_free(&c);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	CHECK(system(path) == 0);
}

/* Is a patch whose name holds what is in compat.patches? */
static bool has_patch(const struct compat *c, const char *what)
{
	for (size_t i = 0; i < c->npatches; i++)
		if (strstr(c->patches[i].name, what))
			return true;
	return false;
}

/*
 * The project's own guest/compat/ at the boundaries where a sub-era ends
 * because upstream fixed what its patch answers: the patch is in up to
 * the release before the fix, and not after it (where it would not apply).
 */
static void real_eras(const char *guest)
{
	static const struct { const char *version, *era, *patch; bool has; } at[] = {
		{ "2.6.12-rc2", "2.6.12", "segment-register-with-mov", true },
		{ "2.6.12-rc2", "2.6.12", "KCONFIG_ALLCONFIG", true },
		{ "2.6.12-rc3", "2.6.12", "vsyscall-register-the-sysctl", true },
		{ "2.6.12-rc4", "2.6.12-rc4", "segment-register-with-mov", false },
		{ "2.6.12-rc4", "2.6.12-rc4", "vsyscall-register-the-sysctl", true },
		{ "2.6.12-rc4", "2.6.12-rc4", "b2c2", true },
		{ "2.6.12-rc5", "2.6.12-rc5", "vsyscall-register-the-sysctl", false },
		{ "2.6.12-rc5", "2.6.12-rc5", "ia32_unistd", true },
		{ "2.6.12-rc6", "2.6.12-rc6", "ia32_unistd", false },
		{ "2.6.13", "2.6.12-rc6", "bitops-the-word", true },
		{ "2.6.14-rc2", "2.6.14", "if_ether", true },
		{ "2.6.14-rc3", "2.6.14-rc3", "if_ether", false },
		{ "2.6.14", "2.6.14-rc3", "KCONFIG_ALLCONFIG", true },
		{ "2.6.15-rc1", "2.6.15", "KCONFIG_ALLCONFIG", false },
		{ "2.6.15", "2.6.15", "bitops-the-word", true },
		{ "2.6.16-rc1", "2.6.16", "bitops-the-word", false },
		{ "2.6.23-rc1", "2.6.23", "e820-probe", true },
		{ "2.6.23-rc8", "2.6.23-rc8", "e820-probe", true },
		{ "2.6.23-rc9", "2.6.23-rc9", "e820-probe", false },
		{ "2.6.23", "2.6.23-rc9", "e820-probe", false },
	};
	struct compat c = { 0 };

	git_libgit2_init();
	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		if (compat_load(&c, guest, at[i].version) != 0) {
			CHECK(!"compat_load of the project's guest/");
			continue;
		}
		CHECK_STR(c.era, at[i].era);
		if (has_patch(&c, at[i].patch) != at[i].has)
			fprintf(stderr, "%s: %s %s\n", at[i].version, at[i].patch,
				at[i].has ? "missing" : "present");
		CHECK(has_patch(&c, at[i].patch) == at[i].has);
	}
	compat_free(&c);
	git_libgit2_shutdown();
}

int main(int argc, char **argv)
{
	versions_and_eras();
	make_flags();
	if (argc > 1)
		real_eras(argv[1]);
	return check_done();
}
