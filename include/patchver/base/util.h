#ifndef PATCHVER_BASE_UTIL_H
#define PATCHVER_BASE_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * "None" for an index into one of patchver's tables -- a commit of the DAG,
 * a tag, a release, a graph position: no table reaches 2^32 - 1 entries.
 * The one sentinel: a "none" compares equal whichever table it came from.
 */
#define PV_NONE UINT32_MAX

/*
 * Allocation that cannot fail (out of memory exits with EXIT_INTERNAL),
 * and a growable string.
 */
/* Out of memory for n bytes: say so and exit (there is nothing to recover). */
void die_out_of_memory(size_t n) __attribute__((noreturn));

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* A formatted string (caller frees). */
char *xstrfmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Fault in the pages of a large buffer about to be written, in one call:
 * on virtual machines a page fault each 4 KiB costs more than the copy.
 */
void prefault(void *p, size_t n);

/*
 * n zeroed bytes in a mapping of their own, on transparent huge pages
 * where the system gives them: one fault per 2 MiB, where a virtual
 * machine's first touch of each 4 KiB page costs microseconds.  Undo with
 * huge_free(p, n).
 */
void *huge_calloc(size_t n);
void huge_free(void *p, size_t n);

/* Ask for transparent huge pages over the 2 MiB-aligned part of [p, p + n). */
void hint_huge(void *p, size_t n);

/* Grow *p (of *alloc elements) to hold at least need elements. */
void *xgrow(void *p, size_t *alloc, size_t need, size_t elem);

struct sbuf {
	char *buf;
	size_t len, alloc;
};

#define SBUF_INIT { NULL, 0, 0 }

void sbuf_add(struct sbuf *sb, const char *s, size_t n);
void sbuf_adds(struct sbuf *sb, const char *s);
void sbuf_addf(struct sbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sbuf_reset(struct sbuf *sb);
void sbuf_free(struct sbuf *sb);
/* The string, never NULL. */
const char *sbuf_str(struct sbuf *sb);

/* qsort and bsearch order of uint32_t, uint64_t values. */
int cmp_u32(const void *a, const void *b);
int cmp_u64(const void *a, const void *b);

/* FNV-1a of n bytes: a quick name for a string, not a secret. */
static inline uint64_t fnv1a(const void *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ ((const unsigned char *)p)[i]) * 0x100000001b3ull;
	return h;
}

/* Is path a directory, a regular file (following links, as git's stat does)? */
bool path_is_dir(const char *path);
bool path_is_file(const char *path);
/* ... or anything at all (a link's target)? */
bool path_exists(const char *path);
/* "dir/name" (caller frees) */
char *path_join(const char *dir, const char *name);

/* A NULL-terminated array of strings: a copy of v (NULL: an empty one), and its free. */
char **strv_dup(char *const *v);
void strv_free(char **v);

/*
 * The whole file at path, NUL-terminated (*len, when not NULL: its length);
 * NULL when it cannot be opened.  An empty file gives "".  Caller frees.
 */
char *file_read(const char *path, size_t *len);

/*
 * Replace the file at path with len bytes of data, written beside it and
 * renamed into place, so that a reader never sees half of it.  0, or -1
 * with errno set.
 */
int file_write(const char *path, const void *data, size_t len);

/* Big-endian numbers, as git's binary formats store them. */
static inline uint32_t get_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t get_be64(const unsigned char *p)
{
	return (uint64_t)get_be32(p) << 32 | get_be32(p + 4);
}


#endif
