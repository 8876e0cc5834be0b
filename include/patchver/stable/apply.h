#ifndef PATCHVER_STABLE_APPLY_H
#define PATCHVER_STABLE_APPLY_H

#include <stdbool.h>
#include <stddef.h>
#include <git2.h>

#include "patchver/stable/hunks.h"

/*
 * Applying a git-format diff to a tree, in memory, as the stable team
 * does: `git apply` first (every context line must match, though a hunk
 * may have moved: it is looked for nearest its line number, up and down;
 * libgit2 1.5.1's git_apply_to_tree() only looks forward, so a hunk whose
 * file gained or lost lines above it "does not apply" there although git
 * applies it), then with reduced context as GNU patch and quilt do, then
 * a three-way merge of the file from the diff's own preimage.  New blobs
 * and trees are written through repo's object database: open it shielded
 * (history_open_repo).  Modifications, new and deleted files; no renames,
 * no binary patches.
 */

/* How a diff (or one file of it) went in: each is worse than the one before. */
enum apply_how {
	APPLY_CLEAN,                /* as git apply: exact context, maybe offset */
	APPLY_FUZZ,                 /* some hunk with context lines dropped */
	APPLY_3WAY,                 /* merged cleanly from the diff's preimage */
	APPLY_ADAPTED,              /* its conflicts resolved for it (asked for: see adapt) */
	APPLY_CONFLICT,             /* in no form */
};
const char *apply_how_name(enum apply_how how);

struct apply_opts {
	unsigned max_fuzz;          /* 0: git apply's exactness; 2: GNU patch's default */
	bool three_way;
	/*
	 * A conflict goes in adapted (APPLY_ADAPTED): resolved to the diff's
	 * side where that keeps every change the target made since own_since
	 * (the tree where its line and the diff's parted), else the hunks that
	 * go in do and the others are left out.
	 */
	bool adapt;
	const git_oid *own_since;
	const git_oid *preimage;    /* the tree the diff was made on (NULL: its "index" lines) */
};

struct apply_file_report {
	char *path;
	enum apply_how how;
	size_t nhunks;
	struct hunk_place *places;  /* clean and fuzz: where each hunk went */
	int failed_hunk;            /* the first hunk that applies in no context (1-based), 0 */
	char *why;                  /* conflict: why, one line */
};

struct apply_report {
	enum apply_how how;         /* the worst of its files */
	struct apply_file_report *files;
	size_t nfiles;
};
void apply_report_free(struct apply_report *r);
/* The first failure's words ("f.c: hunk 2 does not apply"), NULL if none. */
const char *apply_report_why(const struct apply_report *r);

/* A tree's files as the diffs applied so far left them, in memory. */
struct apply_tree {
	git_repository *repo;
	git_oid tree;
	struct tree_text {
		char *path;
		bool exists;
		unsigned mode;
		struct text_lines text;
	} *files;
	size_t nr, alloc;
	char **only;                /* when set, the only paths followed: others are left alone */
	size_t nonly;
};

void apply_tree_init(struct apply_tree *t, git_repository *repo, const git_oid *tree);
/* Follow only these paths from now on (a search that cares about a few files). */
void apply_tree_only(struct apply_tree *t, char *const *paths, size_t n);
void apply_tree_copy(struct apply_tree *dst, const struct apply_tree *src);
void apply_tree_free(struct apply_tree *t);

/* t's file at path as it stands now; NULL if t has none there (or it is unreadable). */
const struct text_lines *apply_tree_file(struct apply_tree *t, const char *path);

/*
 * Apply d to t, each file as strictly as it goes in under o; t changes
 * only if every file does (how < APPLY_CONFLICT).  Returns how it went,
 * or a negative PV_E* code (an object that cannot be read).  rep (may be
 * NULL) gets each file's account.
 */
int apply_tree_diff(struct apply_tree *t, const struct diff_files *d, const struct apply_opts *o,
		    struct apply_report *rep);
/* The tree t now stands for, written to the object database. 0 or PV_E*. */
int apply_tree_write(struct apply_tree *t, git_oid *out);

/*
 * As git apply: *out: tree with the diff applied (out NULL: only check that
 * it applies, without writing anything).  0, or -1 with *why (caller frees)
 * saying which file and hunk did not apply.
 */
int apply_to_tree(git_repository *repo, const git_oid *tree, const char *diff,
		  git_oid *out, char **why);

/* The text of a git_diff, as apply_to_tree() takes it (caller frees). */
char *apply_diff_text(git_diff *diff);

#endif
