#ifndef PATCHVER_LAB_KOBJ_H
#define PATCHVER_LAB_KOBJ_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Does a configuration compile a source file of a kernel tree, and which
 * option would?  Read from the tree as kbuild and Kconfig read it:
 * "obj-$(CONFIG_X) += file.o" (and obj-y, lib-y, a composite object's
 * "name-objs"/"name-y"/"name-$(CONFIG_Y)" parts) in the file's directory,
 * the same for the directory in its parent ("obj-$(CONFIG_X) += dir/") up
 * to the top Makefile's core-y/drivers-y/net-y/libs-y and the arch's; then
 * each option's "depends on" (its own, its menu's, its "if" block's) in the
 * Kconfig files the top one sources.  A file several lines build is built
 * when any of them is.  Modules (obj-m) do not count: the lab builds one
 * image.
 */

/* A file of the tree (caller frees); NULL: none.  path is relative to the top. */
typedef char *(*kobj_read_fn)(void *ctx, const char *path);

struct kobj_way {
	char **options;             /* "CONFIG_X", all needed (NULL-terminated; none: always) */
};

struct kobj_need {
	char *path;                 /* the source file */
	struct kobj_way *ways;      /* any of them builds it */
	size_t nways;               /* 0: no Makefile line builds it (unknown here) */
};

/* What builds path (a .c or .S file).  Never fails: an unreadable tree gives no ways. */
void kobj_needs(kobj_read_fn read, void *ctx, const char *path, struct kobj_need *out);
void kobj_need_free(struct kobj_need *n);

/*
 * Is it built by config (a .config's text, or a fragment's: CONFIG_X=y
 * lines)?  If not, *missing gets the options of the way that lacks the
 * fewest (NULL-terminated, caller frees with strv_free).
 */
bool kobj_built(const struct kobj_need *n, const char *config, char ***missing);

/*
 * "kernel/acct.c is not built here: it needs CONFIG_BSD_PROCESS_ACCT
 * (--config CONFIG_BSD_PROCESS_ACCT=y turns it on)", or with the
 * dependencies the configuration lacks; NULL when config builds path.
 * Caller frees.
 */
char *kobj_unbuilt_line(kobj_read_fn read, void *ctx, const char *path, const char *config);

#endif
