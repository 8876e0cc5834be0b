#ifndef PATCHVER_ENGINE_RELINDEX_H
#define PATCHVER_ENGINE_RELINDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <git2/oid.h>
#include <git2/types.h>  /* types only: the front never calls libgit2 */

#include "patchver/engine/backmap.h"
#include "patchver/engine/namewalk.h"

/*
 * The release index: one file per repository, in the cache, holding what
 * the queries need about every commit reachable from a tag.  The answers
 * for a commit do not change until the tags do, so they are computed once
 * per tag set and read back with mmap.
 *
 * Layout: a header (format version, the repository it describes, section
 * offsets, a checksum of the whole file) and sections of fixed-size
 * records in dense-id order, each 8-byte aligned.  Readers validate it
 * all before use: a file that fails any check is not used.
 */
#define RELINDEX_VERSION 7   /* 7: backports found by patch-id */

struct relindex_name {          /* a commit's uncut name-rev name */
	uint32_t seg;           /* 0: none */
	int32_t generation;     /* the trailing "~N" */
};

struct relindex_iv {            /* dense ids [lo, hi) */
	uint32_t lo, hi;
};

struct relindex_tag {           /* every ref under refs/tags, refname order */
	uint32_t name_off;      /* refname in the string pool */
	uint32_t commit;        /* peeled commit, PV_NONE if none */
	int64_t taggerdate;
	unsigned char target[GIT_OID_RAWSZ];
	uint8_t deref;
	uint8_t loose;          /* was a file under refs/tags, not in packed-refs */
	uint8_t pad[2];
	uint32_t iv_off;        /* its ancestors: ivs[iv_off .. next tag's iv_off) */
};

/*
 * A validated index (mapped file or an image in memory).  Arrays hold
 * dag.nr entries unless said otherwise.
 */
struct relindex {
	void *map;
	size_t size;
	uint32_t nblocks;
	unsigned char *verified;        /* lazy: blocks checked so far; NULL: all */
	const char *ident;              /* the repository it describes */
	const char *glob;               /* the release glob of first[] */
	struct dag_arrays dag;          /* the commits: dag.nr of them */
	uint32_t ntags, nsegs, nivs;
	const int64_t *min_desc;        /* oldest date on the commit or a descendant */
	const uint32_t *first;          /* first release (tag index), PV_NONE if none */
	const struct relindex_name *names;
	const struct name_seg *segs;    /* nsegs */
	const struct relindex_tag *tags;/* ntags + 1 (the last closes iv_off) */
	const struct relindex_iv *ivs;  /* nivs */
	bool ivs_checked;               /* lazy: relindex_ivs_ok() said yes */
	const char *pool;
	/* the backport map of the commits stable tags reach (backmap.h) */
	const struct backport *backports;
	const struct backport_note *bpnotes;
	const struct backport_revert *bpreverts;
	uint32_t nbackports, nbpnotes, nbpreverts;
	int64_t build_msec;             /* how long computing it took */
	uint64_t tag_digest;            /* packed-refs' tag lines the tags came from; 0: unknown */
};

/* What an index holds, for writing one: the same arrays, owned elsewhere. */
struct relindex_data {
	const char *ident, *glob;
	struct dag_arrays dag;
	uint32_t nsegs, ntags, nivs;
	const int64_t *min_desc;
	const uint32_t *first;
	const struct relindex_name *names;
	const struct name_seg *segs;
	const struct relindex_tag *tags;  /* ntags + 1; name_off into pool */
	const struct relindex_iv *ivs;
	const char *pool;
	uint32_t pool_size;
	const struct backport *backports;
	const struct backport_note *bpnotes;
	const struct backport_revert *bpreverts;
	uint32_t nbackports, nbpnotes, nbpreverts;
	int64_t build_msec;
	uint64_t tag_digest;
};

/*
 * Map and validate the index at path, written for the repository ident:
 * 0, PV_ENOTFOUND (no file) or PV_ECORRUPT (unusable; the message says
 * why: truncated, checksum, version, other repository).  lazy: check the
 * header and the small sections only; a reader then calls
 * relindex_check() on each record before it trusts it (a query reads a
 * few blocks of a file it would otherwise read whole).
 */
int relindex_open(struct relindex *ix, const char *path, const char *ident, bool lazy);

/* Where the index of the repository ident lives in the cache (caller frees). */
char *relindex_path(const char *ident);

/* Are the bytes [p, p + len) of a lazily opened index intact?  (Else: true.) */
bool relindex_check(struct relindex *ix, const void *p, size_t len);

/* The image of d in memory, validated as a file would be (ix owns it). */
void relindex_from_data(struct relindex *ix, const struct relindex_data *d);

void relindex_close(struct relindex *ix);

/*
 * Write ix's image to path (its directory made first): under path.lock
 * (writers take turns), into path.tmp, renamed into place, so a reader
 * sees the old file or the new one, never part of one.  0, or PV_EWRITE
 * ("cannot save the release index PATH: ...").
 */
int relindex_write(const struct relindex *ix, const char *path);

/*
 * Write ix again at path with other facts of where its tags came from:
 * which were loose files (loose[t]) and the digest of packed-refs' tag
 * lines (reffiles.h).  The tags are the same; the quick path checks those
 * facts rather than parse packed-refs.  0, or PV_EWRITE.
 */
int relindex_restamp_tags(const struct relindex *ix, const bool *loose, uint64_t tag_digest,
			  const char *path);

/*
 * Are the tag intervals intact and in range?  A lazy open leaves them to
 * the first containment question: call this before relindex_tag_contains.
 */
bool relindex_ivs_ok(struct relindex *ix);

/* Does tag t (index in the tag records) contain commit c? */
bool relindex_tag_contains(const struct relindex *ix, uint32_t t, uint32_t c);

/* The tag record of refname ("refs/tags/..."), or -1. */
long relindex_find_tag(const struct relindex *ix, const char *refname);

/* Every tag containing commit c, refname order (caller frees). */
uint32_t *relindex_tags_containing(const struct relindex *ix, uint32_t c, size_t *n);

/* Is backport record b (of ix's map) intact and in range?  For lazy readers. */
bool relindex_backport_ok(struct relindex *ix, const struct backport *b);

/* The index's backport map, borrowed: valid while ix is open (a full open: checked). */
static inline void relindex_backports(const struct relindex *ix, struct backport_map *m)
{
	backmap_borrow(m, ix->backports, ix->nbackports, ix->bpnotes, ix->nbpnotes,
		       ix->bpreverts, ix->nbpreverts);
}

static inline const char *relindex_refname(const struct relindex *ix, uint32_t t)
{
	return ix->pool + ix->tags[t].name_off;
}

#endif
