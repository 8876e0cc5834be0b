/*
 * Unit tests: the first error of a build log (lab/builderr.c), on real
 * gcc 12 and ld 2.40 messages (tests/unit/builderr/: captured from the
 * *.c there, and excerpts of the lab's own kernel builds).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "patchver/lab/builderr.h"

static const char *dir;

static void first_of(const char *name, struct builderr *e)
{
	char path[512], *text = NULL;
	size_t len = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "rb");
	CHECK(f != NULL);
	if (f) {
		text = malloc(1 << 20);
		len = fread(text, 1, 1 << 20, f);
		fclose(f);
	}
	builderr_first(text ? text : "", len, e);
	free(text);
}

#define EXPECT(log, k, nm, fl, ln) do { \
	struct builderr e_; \
	first_of(log, &e_); \
	CHECK(e_.kind == (k)); \
	CHECK_STR(e_.name, nm); \
	CHECK_STR(e_.file, fl); \
	CHECK(e_.line == (ln)); \
} while (0)

static void gcc12(void)
{
	struct builderr e;

	EXPECT("gcc12-implicit.log", BUILDERR_IMPLICIT_FUNCTION, "helper_added_later", "implicit.c", 3);
	EXPECT("gcc12-undeclared.log", BUILDERR_UNDECLARED, "MACRO_ADDED_LATER", "undeclared.c", 3);
	EXPECT("gcc12-member.log", BUILDERR_NO_MEMBER, "i_acl_later", "member.c", 4);
	first_of("gcc12-member.log", &e);
	CHECK_STR(e.container, "struct inode");
	EXPECT("gcc12-typename.log", BUILDERR_UNKNOWN_TYPE, "type_added_later_t", "typename.c", 3);
	EXPECT("gcc12-header.log", BUILDERR_NO_HEADER, "linux/header_added_later.h", "header.c", 1);
	EXPECT("ld-undefref.log", BUILDERR_UNDEFINED_REFERENCE, "symbol_added_later", "undefref.c", 0);
	first_of("gcc12-implicit.log", &e);
	CHECK(strstr(e.text, "error: implicit declaration of function") != NULL);
	CHECK_STR(builderr_kind_name(e.kind), "implicit declaration");
}

/* what the lab's kernel builds printed: the first error among make's noise */
static void kernel_builds(void)
{
	struct builderr e;

	EXPECT("kernel-2.6.16-undeclared.log", BUILDERR_UNDECLARED, "pci_bus_type",
	       "arch/x86_64/kernel/pci-dma.c", 51);
	EXPECT("kernel-2.6.20-host-undeclared.log", BUILDERR_UNDECLARED, "PATH_MAX",
	       "scripts/mod/sumversion.c", 384);
	/* ld names no file for a section of an archive member */
	EXPECT("kernel-2.6.28-undefined-reference.log", BUILDERR_UNDEFINED_REFERENCE,
	       "__mutex_lock_slowpath", "", 0);
	EXPECT("kernel-2.6.21-rc3-undefined-reference.log", BUILDERR_UNDEFINED_REFERENCE,
	       "sysctl_head_next", "proc_sysctl.c", 0);
	first_of("kernel-2.6.20-assembler.log", &e);
	CHECK(e.kind == BUILDERR_OTHER);
	CHECK(strstr(e.text, "Error: .size expression for copy_user_generic_c") != NULL);
}

/* gcc in the C locale quotes with ASCII; a log without an error has none */
static void texts(void)
{
	const char *ascii = "member.c: In function 'caller':\n"
			    "member.c:4:21: error: 'struct inode' has no member named 'i_acl_later'\n";
	const char *clean = "  CC      init/main.o\ncc1: some warnings being treated as errors\n"
			    "make[2]: *** [scripts/Makefile.build:249: x.o] Error 1\n";
	struct builderr e;

	builderr_first(ascii, strlen(ascii), &e);
	CHECK(e.kind == BUILDERR_NO_MEMBER);
	CHECK_STR(e.name, "i_acl_later");
	CHECK_STR(e.container, "struct inode");
	builderr_first(clean, strlen(clean), &e);
	CHECK(e.kind == BUILDERR_NONE);
	builderr_first("", 0, &e);
	CHECK(e.kind == BUILDERR_NONE);
}

int main(int argc, char **argv)
{
	dir = argc > 1 ? argv[1] : "tests/unit/builderr";
	gcc12();
	kernel_builds();
	texts();
	return check_done();
}
