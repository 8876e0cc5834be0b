#ifndef PATCHVER_STABLE_HUNKS_H
#define PATCHVER_STABLE_HUNKS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * A git-format diff as files and hunks, and a file's lines with hunks
 * applied to them the way git apply (exact context, any offset) and GNU
 * patch (context reduced by up to "fuzz" lines at each end) do.
 */

struct text_lines {
	char **v;                   /* each with its '\n' (the last may lack it) */
	size_t *len;
	size_t nr, alloc;
};

void text_lines_split(struct text_lines *l, const char *s, size_t n);
void text_lines_add(struct text_lines *l, const char *s, size_t n);
void text_lines_copy(struct text_lines *dst, const struct text_lines *src);
void text_lines_free(struct text_lines *l);
/* The lines joined (caller frees); *size their length. */
char *text_lines_join(const struct text_lines *l, size_t *size);

struct file_hunk {
	long old_start;             /* 1-based, as "@@ -old_start" says */
	struct text_lines pre;      /* context and removed lines: what it looks for */
	struct text_lines post;     /* context and added lines: what it leaves */
	size_t lead, trail;         /* context lines before its first change, after its last */
	char *section;              /* the text after the second "@@" ("" if none) */
};

struct file_diff {
	char *old_path, *new_path;  /* NULL for /dev/null */
	char old_blob[41], new_blob[41];  /* the "index" line's ids, as written ("" if none) */
	unsigned new_mode;
	bool mode_change;
	bool binary;                /* "Binary files ... differ" or a "GIT binary patch" */
	struct file_hunk *hunks;
	size_t nhunks;
};

struct diff_files {
	struct file_diff *v;
	size_t nr;
};

/* Split a diff's text into files and hunks; how many files. */
size_t diff_files_parse(struct diff_files *d, const char *text);
void diff_files_free(struct diff_files *d);
/* The file's path after the diff, or before it if it deletes the file. */
const char *file_diff_path(const struct file_diff *f);

/* Where a hunk went: how far from its line number, with how much context dropped. */
struct hunk_place {
	long offset;
	unsigned fuzz;
};

/*
 * Where hunk h's lines are in img, nearest line want (0-based), with up to
 * max_fuzz context lines dropped at each end: true with *at (where its
 * kept lines start) and *fuzz.
 */
bool hunk_find(const struct text_lines *img, const struct file_hunk *h, unsigned max_fuzz,
	       size_t want, size_t *at, unsigned *fuzz);

/*
 * Apply f's hunks to img in place, each at the nearest place its lines
 * match exactly, else (up to max_fuzz) with that many context lines
 * dropped at each end.  places (f->nhunks, may be NULL) says where each
 * went.  0, or the 1-based number of the first hunk that does not apply
 * (img is then partly changed: work on a copy).
 */
int hunks_apply(struct text_lines *img, const struct file_diff *f, unsigned max_fuzz,
		struct hunk_place *places);

/*
 * The same, leaving out the hunks that do not apply (an adapted backport
 * takes what goes in and leaves the rest to its author): how many were left out.
 */
size_t hunks_apply_some(struct text_lines *img, const struct file_diff *f, unsigned max_fuzz,
			struct hunk_place *places);

#endif
