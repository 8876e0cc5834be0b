#ifndef PATCHVER_KTREE_H
#define PATCHVER_KTREE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * A kernel source tree to build candidates from, kept in patchver's cache
 * (never in the user's repository or tree):
 *
 *   src/<id>/    the pristine sources (Debian's tarball extracted once)
 *   work/<id>/   a hard-linked copy that patches are applied to (patch(1)
 *                writes new files, so the pristine side never changes)
 *   obj/<id>/    make O=: one object directory, so each candidate is an
 *                incremental build
 */
struct ktree {
	char *cache;
	char *id;
	char *pristine, *work, *obj;
	char version[32];           /* "6.1.192", from the Makefile */
	char **touched;             /* files the applied patches changed */
	size_t ntouched;
	char *state;                /* the patches applied now, by hash */
};

/* The cache directory: $XDG_CACHE_HOME/patchver or ~/.cache/patchver. */
char *ktree_cache_dir(void);

/*
 * Prepare a tree: tree is a source directory, or NULL for Debian's
 * /usr/src/linux-source-*.tar.xz.  Returns 0 or an EXIT_* code.
 */
int ktree_open(struct ktree *k, const char *cache, const char *tree);
void ktree_free(struct ktree *k);

/* Make the work tree pristine + these patches.  0 or EXIT_PATCH. */
int ktree_set_patches(struct ktree *k, char *const *patches, size_t n,
		      const char *log);

/* tinyconfig + fragment (redone when the fragment changes).  0 or EXIT_BUILD. */
int ktree_configure(struct ktree *k, const char *fragment, const char *log);

/* make bzImage; *image: the built image (caller frees).  0 or EXIT_BUILD. */
int ktree_build(struct ktree *k, const char *log, double *seconds, char **image);

#endif
