/*
 * Unit tests: mails, mboxes and diffs into patches (patch.h) -- the
 * subject without its [PATCH] prefixes, the author, the files, and one
 * patch-id whatever the wrapping (CRLF, a plain diff -up); unreadable
 * input as PV_EINPUT with a message naming the file.
 *
 *   test_patch SCRATCH_DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "patchver/base/error.h"
#include "patchver/engine/gitstart.h"
#include "patchver/stable/patch.h"

static const char mail[] =
	"From 002baeecf53677d2034113e34197ec221f42e037 Mon Sep 17 00:00:00 2001\n"
	"From: Jan Kara <jack-AT-suse.cz>\n"
	"Date: Thu, 27 May 2010 16:41:31 +0200\n"
	"Subject: [PATCH v2 3/7] vfs: Fix O_NOFOLLOW behavior for paths with\n"
	" trailing slashes\n"
	"\n"
	"According to specification, open(\"a/\", O_NOFOLLOW) must follow a link.\n"
	"\n"
	"Signed-off-by: Jan Kara <jack@suse.cz>\n"
	"---\n"
	" fs/namei.c | 2 +-\n"
	" 1 file changed, 1 insertion(+), 1 deletion(-)\n"
	"\n"
	"diff --git a/fs/namei.c b/fs/namei.c\n"
	"index 1111111..2222222 100644\n"
	"--- a/fs/namei.c\n"
	"+++ b/fs/namei.c\n"
	"@@ -1,3 +1,3 @@\n"
	" static int do_last(void)\n"
	"-\tif (follow)\n"
	"+\tif (follow || trailing_slash)\n"
	" \t\treturn 0;\n"
	"-- \n"
	"1.7.1\n";

/* The same change as `diff -up`, with other file names' prefixes and no mail. */
static const char plain_diff[] =
	"--- linux.orig/fs/namei.c\t2010-05-27 16:00:00.000000000 +0200\n"
	"+++ linux/fs/namei.c\t2010-05-27 16:41:31.000000000 +0200\n"
	"@@ -1,3 +1,3 @@\n"
	" static int do_last(void)\n"
	"-\tif (follow)\n"
	"+\tif (follow || trailing_slash)\n"
	" \t\treturn 0;\n";

static char *crlf(const char *text)
{
	char *out = malloc(strlen(text) * 2 + 1), *o = out;

	for (const char *p = text; *p; p++) {
		if (*p == '\n')
			*o++ = '\r';
		*o++ = *p;
	}
	*o = '\0';
	return out;
}

static void check_one(struct patch_set *set, const char *text, const char *what)
{
	int ret = patch_parse(set, text, strlen(text));

	CHECK(ret == 0 && set->nr == 1);
	if (ret || set->nr != 1)
		fprintf(stderr, "  %s: %d, %zu patches\n", what, ret, set->nr);
}

static void check_file_fails(const char *dir, const char *name, const char *data, size_t len,
			     const char *want)
{
	struct patch_set set = { 0 };
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (data && (f = fopen(path, "wb"))) {
		fwrite(data, 1, len, f);
		fclose(f);
	}
	CHECK(patch_read_file(&set, path) == PV_EINPUT);
	CHECK(pv_error_last()->code == PV_EINPUT && strstr(pv_error_last()->message, path));
	CHECK(strstr(pv_error_last()->message, want) != NULL);
	if (!strstr(pv_error_last()->message, want))
		fprintf(stderr, "  %s: \"%s\"\n", name, pv_error_last()->message);
	patch_set_free(&set);
	remove(path);
}

int main(int argc, char **argv)
{
	struct patch_set a = { 0 }, b = { 0 }, c = { 0 }, box = { 0 };
	char *both, *windows;

	if (argc != 2) {
		fprintf(stderr, "usage: test_patch SCRATCH_DIR\n");
		return 2;
	}
	gitstart_init();
	check_one(&a, mail, "mail");
	if (a.nr == 1) {
		CHECK_STR(a.v[0].subject,
			  "vfs: Fix O_NOFOLLOW behavior for paths with trailing slashes");
		CHECK_STR(a.v[0].author, "Jan Kara <jack@suse.cz>");
		CHECK(a.v[0].npaths == 1);
		CHECK_STR(a.v[0].npaths ? a.v[0].paths[0] : NULL, "fs/namei.c");
		CHECK(a.v[0].has_patchid);
		CHECK(strstr(a.v[0].message, "must follow a link") != NULL);
	}
	/* CRLF: the same patch */
	windows = crlf(mail);
	check_one(&b, windows, "CRLF mail");
	if (a.nr == 1 && b.nr == 1) {
		CHECK_STR(b.v[0].subject, a.v[0].subject);
		CHECK(b.v[0].has_patchid && git_oid_equal(&a.v[0].patchid, &b.v[0].patchid));
	}
	/* a plain diff: no subject, the same files and patch-id */
	check_one(&c, plain_diff, "plain diff");
	if (a.nr == 1 && c.nr == 1) {
		CHECK(c.v[0].subject == NULL);
		CHECK_STR(c.v[0].npaths ? c.v[0].paths[0] : NULL, "fs/namei.c");
		CHECK(c.v[0].has_patchid && git_oid_equal(&a.v[0].patchid, &c.v[0].patchid));
	}
	/* an mbox of two mails: two patches, in order */
	both = malloc(2 * sizeof(mail));
	sprintf(both, "%s\n%s", mail, mail);
	CHECK(patch_parse(&box, both, strlen(both)) == 0 && box.nr == 2);
	if (box.nr == 2)
		CHECK(git_oid_equal(&box.v[0].patchid, &box.v[1].patchid));

	/* unreadable input: PV_EINPUT, the file named, nothing printed */
	check_file_fails(argv[1], "missing.patch", NULL, 0, "cannot read patch");
	check_file_fails(argv[1], "empty.patch", "", 0, "is empty");
	check_file_fails(argv[1], "binary.patch", "\x7f" "ELF\0\0\0", 7, "is binary");
	check_file_fails(argv[1], "words.patch", "no mail here\n", 13, "holds no mail and no diff");

	patch_set_free(&a);
	patch_set_free(&b);
	patch_set_free(&c);
	patch_set_free(&box);
	free(both);
	free(windows);
	gitstart_shutdown();
	return check_done();
}
