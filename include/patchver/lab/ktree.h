#ifndef PATCHVER_LAB_KTREE_H
#define PATCHVER_LAB_KTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <git2.h>

#include "patchver/stable/apply.h"

/*
 * A kernel tree to build candidates from.  Every tree is a git
 * repository: a kernel repository the user names (opened read-only, its
 * writes caught in memory), or a cache repository patchver imports a
 * source directory or Debian's tarball into, once.  A candidate is a
 * commit plus diffs applied in memory; its tree is written into the
 * cache work directory, and built there:
 *
 *   src/<name>/, src/<name>.git   Debian's tarball extracted, and imported
 *   work/<id>/                    the sources of the state being built
 *   obj/<id>/                     make O=: one object directory per tree
 *
 * <id> is the root commit of the tree's history, so every repository of
 * one history (a model repository built on the imported tarball, two
 * clones of linux.git) shares one work and object directory, and a new
 * candidate costs an incremental build.
 */
struct ktree {
	char *cache;
	char *what;                 /* for reports: "Debian linux-source-6.1", a path */
	char *id;
	char *work, *obj;
	char *pristine;             /* our extracted tarball, or NULL */
	git_repository *repo;
	git_oid base;               /* the commit built when a candidate names none */
	char version[48];           /* of the state in work/: "6.1.192", "2.6.34-rc3" */
	int jobs;                   /* make -jN; 0: one per CPU */
	char *const *make_vars;     /* borrowed: the compat sub-era's "VAR=value"s, or NULL */
};

/* $XDG_CACHE_HOME/patchver or ~/.cache/patchver (caller frees). */
char *ktree_cache_dir(void);

/*
 * tree: NULL for Debian's /usr/src/linux-source-*.tar.xz, a kernel git
 * repository, or a kernel source directory.  0 or a PV_E* code.
 */
int ktree_open(struct ktree *k, const char *cache, const char *tree);
void ktree_free(struct ktree *k);

/* Does this commit of repo hold a kernel source tree? */
bool ktree_is_kernel(git_repository *repo, const git_oid *commit);

/* The same from the Makefile's text: its VERSION, PATCHLEVEL, SUBLEVEL and EXTRAVERSION. */
void ktree_makefile_version(const char *text, size_t len, char *buf, size_t n);
/* "2.6.34-rc3": the version a tree's Makefile gives; "" if none. */
void ktree_tree_version(git_repository *repo, const git_oid *tree, char *buf, size_t n);

/* A patch file (mail or diff) as a diff.  0 or PV_EINPUT. */
int ktree_diff_file(git_diff **out, const char *path);

/* A commit's change against its first parent.  0 or PV_ECORRUPT. */
int ktree_diff_commit(git_diff **out, git_repository *repo, const git_oid *commit);

/* The tree of a commit of the kernel tree.  0 or PV_ENOTFOUND. */
int ktree_commit_tree(struct ktree *k, const git_oid *commit, git_oid *tree);

/*
 * tree with diff applied, computed in memory (the kernel tree's writes are
 * caught in memory).  how NULL: exactly, as git apply; else as the stable
 * team applies (stable/apply.h: fuzz, then three-way), and *how says
 * which it took.  0, or PV_EPATCH when it does not apply.
 */
int ktree_apply(struct ktree *k, const git_oid *tree, git_diff *diff, git_oid *out,
		enum apply_how *how);

/*
 * Build in obj/<id>-<variant>/ (variant "" or NULL: obj/<id>/): one object
 * directory per configuration, so that alternating between two does not
 * rebuild everything each time.
 */
void ktree_use_variant(struct ktree *k, const char *variant);

/* Put tree into work/ (only the files that differ).  0 or PV_EBUILD. */
int ktree_checkout(struct ktree *k, const git_oid *tree);

#endif
