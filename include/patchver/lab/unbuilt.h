#ifndef PATCHVER_LAB_UNBUILT_H
#define PATCHVER_LAB_UNBUILT_H

#include <stdbool.h>

#include "patchver/lab/candidate.h"
#include "patchver/lab/ktree.h"

/*
 * Does a state's configuration compile the files a patch changes (its .c
 * and .S files)?  kobj.h reads the state's own tree (its Makefiles and
 * Kconfig files, compat patches and all) against a configuration: before
 * the build the cached .config of the state, else the fragment it will be
 * configured from; after the build its .config, and each file said built
 * must have left its object in the object directory.  c->run.unbuilt gets
 * one line per file that is not compiled ("kernel/acct.c is not built
 * here: it needs CONFIG_BSD_PROCESS_ACCT; --config ... may turn it on").
 */

/* A tree of a kernel repository, read as kobj.h reads a tree. */
struct unbuilt_tree {
	git_repository *repo;
	git_tree *tree;
};

/* A file of the tree (kobj_read_fn; ctx: a struct unbuilt_tree); NULL: none. */
char *unbuilt_read(void *ctx, const char *path);

/* The patch's files the check reads (NULL-terminated, caller frees); NULL: none. */
char **unbuilt_sources(const struct kpatch *p);

/*
 * Check c's state (c->run.tree in k's repository) against config_path's
 * text; obj: the object directory the state was just built in (NULL:
 * not built now, no object to look for).
 */
void unbuilt_check(struct candidate *c, const struct ktree *k, char *const *sources,
		   const char *config_path, bool from_fragment, const char *obj);

/*
 * After with's build: is its image byte for byte without's (a state that
 * differs only by the patch)?  Then the patch changed nothing the
 * configuration builds, said in with->run.unbuilt.
 */
void unbuilt_same_image(struct candidate *with, const struct candidate *without);

/*
 * Does a kbuild .cmd file's text (an object's command and dependencies)
 * name path, whole or under a source tree ("include/linux/acct.h",
 * "/cache/work/include/linux/acct.h")?
 */
bool unbuilt_cmd_names(const char *text, const char *path);

/* Does c's state build none of sources (every one unbuilt, or the image unchanged)? */
bool unbuilt_all(const struct candidate *c, char *const *sources);

#endif
