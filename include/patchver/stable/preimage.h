#ifndef PATCHVER_STABLE_PREIMAGE_H
#define PATCHVER_STABLE_PREIMAGE_H

#include <stddef.h>
#include <git2.h>

/*
 * One tree's files as read so far (path, or a directory's key, to text):
 * a release's, kept while many fixes are checked against it.
 */
struct preimage_texts {
	git_repository *repo;
	git_oid tree;
	char **keys;
	char **texts;               /* NULL: the tree has no such file */
	size_t n, alloc;
};

void preimage_texts_init(struct preimage_texts *s, git_repository *repo, const git_oid *tree);
void preimage_texts_free(struct preimage_texts *s);

/*
 * Were the lines a diff changes already in the tree?  Per hunk, its whole
 * preimage, or else a run of the lines it removes, looked for in the
 * tree's file (or, for a file the tree lacks, its directory's files: code
 * is often split out of a sibling before it is fixed); a hunk that only
 * adds lines (a device id, a quirk, a missing lock) changes no line, so
 * the lines it is added between are looked for: a block of its context of
 * two lines or more, else the function or table it adds to (the hunk
 * header's text).  This is blame bounded at the tree: lines that predate
 * it are attributed to it.
 */
enum preimage_answer {
	PREIMAGE_ADDS_ONLY,         /* the diff only adds files: nothing to look for */
	PREIMAGE_CAME_LATER,        /* no hunk's lines are there: the code came later */
	PREIMAGE_HAS_LINES,         /* some hunk's lines are there */
};
enum preimage_answer preimage_in(struct preimage_texts *s, const char *diff);

#endif
