#ifndef PATCHVER_ENGINE_OBJSTORE_H
#define PATCHVER_ENGINE_OBJSTORE_H

#include <stddef.h>
#include <stdint.h>

#include "patchver/base/util.h"

/*
 * The object files of one objects directory read without libgit2: loose
 * objects, and packs with a version 2 index (deltas resolved).  Two reads
 * need it: the quick path's one commit, where starting libgit2 costs more
 * than the whole answer, and every commit header of a history, where
 * git_odb_read inflates each whole commit through libgit2's cache while a
 * header is its first few hundred bytes.
 *
 * What it does not handle (another index version, a damaged object) it
 * reports as not found: callers then ask libgit2, which reads those and
 * reports damage properly.
 */
enum objstore_type {
	OBJSTORE_COMMIT = 1,
	OBJSTORE_TREE = 2,
	OBJSTORE_BLOB = 3,
	OBJSTORE_TAG = 4,
};

struct objstore;

/* The store of objdir ("<gitdir>/objects") and its alternates, or NULL. */
struct objstore *objstore_open(const char *objdir);
void objstore_close(struct objstore *s);

/*
 * Object oid (20 raw bytes) into out, replacing what out held: its whole
 * data, or with max > 0 at least its first max bytes (all of it if
 * shorter), enough for a header.  Returns its type (OBJSTORE_*), or
 * PV_EDECLINED when the files do not hold it in a form this reader takes
 * (absent, damaged, an unknown encoding): libgit2 then reads it.
 */
int objstore_read(struct objstore *s, const unsigned char *oid, size_t max,
		  struct sbuf *out);

/*
 * The message of a commit object's data (len bytes), as git_commit_message()
 * gives it: after the header, leading newlines dropped.  NULL when there is
 * no header end.  Caller frees.
 */
char *objstore_commit_message(const char *data, size_t len);

/*
 * The objects whose hex id starts with the len lower-case digits of hex,
 * in every pack and loose: how many (counting up to max + 1, each object
 * once), the first max of them into found.
 */
size_t objstore_prefix(struct objstore *s, const char *hex, size_t len,
		       unsigned char (*found)[20], size_t max);

/*
 * How many lookups in each pack read its .idx with pread before the
 * mapping takes over (the default grows with the .idx's size: a few
 * lookups fault fewer pages that way; many are cheaper mapped).  Packs
 * past the first 32 are always read through the mapping.  For tests:
 * 0 maps at once.
 */
void objstore_set_reads(struct objstore *s, uint32_t lookups);

/* git's subject of a commit message: its first paragraph on one line (caller frees). */
char *objstore_subject(const char *message);
/* ... and where its body starts (git's %b): past that paragraph and the blank lines after it. */
const char *objstore_body(const char *message);

#endif
