#ifndef PATCHVER_ENGINE_QUICK_H
#define PATCHVER_ENGINE_QUICK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "patchver/base/util.h"
#include "patchver/engine/backmap.h"
#include "patchver/engine/tags.h"

/*
 * Answers straight from a fresh release index, before libgit2 is started
 * (starting it costs more than the whole answer): names, first releases,
 * containing tags and messages of full commit ids.  The repository's refs
 * are read from its files, the index is checked block by block as it is
 * read, a message comes from the object files (objstore.h), and nothing
 * else is opened.
 *
 * Whatever it is not sure of makes it decline, and the normal path then
 * answers: another rev syntax (or a name another ref could take), a rev the index lacks, tags that differ
 * from the index's, a damaged block, a name git's date cutoff could
 * change, a repository layout or environment it does not handle
 * (GIT_* variables, worktrees, .git files, shallow clones).
 * A call that declines returns PV_EDECLINED (or NULL), its reason the
 * thread's error (error.h), as quick_why() gives it.
 */
struct quick;

/* The fresh index of the repository at dir (NULL: "."), or NULL and *why. */
struct quick *quick_open(const char *dir, const char *release_glob, const char **why);
void quick_close(struct quick *q);
/* Why the last call declined (the recorded PV_EDECLINED message), or NULL. */
const char *quick_why(void);

/*
 * A commit no tag reaches, as quick_lookup() gives it: no name, no
 * release, no tag containing it, no backport in the index's map.  Its id
 * and message are the object files'.  One at a time: the next lookup
 * outside the index replaces it.
 */
#define QUICK_OUTSIDE (PV_NONE - 2)

/*
 * The index's commit for rev: a full or abbreviated id (the one object
 * with that prefix) or a tag name, then "~N" and "^N" steps; each as git
 * resolves it when no other ref takes the name.  With outside_ok, an id
 * (no steps) of a commit the index does not hold is QUICK_OUTSIDE: the
 * index holds every commit a tag reaches, so its absence is the answer.
 * 0, or PV_EDECLINED.
 */
int quick_lookup(struct quick *q, const char *rev, bool outside_ok, uint32_t *commit);
const unsigned char *quick_oid(const struct quick *q, uint32_t commit);

/*
 * The index's tags: the short names of those an answer names, and after
 * quick_containing() every short name and the releases, as tags_load
 * has them.  Commits are index ids.
 */
const struct tag_table *quick_tags(struct quick *q);

/*
 * When the last quick_lookup() read an annotated tag's name alone, git
 * name-rev names the tag object, not its commit: append that name (the
 * tag's) and return 1; 0 when the rev named no tag object; PV_EDECLINED.
 */
int quick_tag_object_name(struct quick *q, struct sbuf *out);

/* git's name of commit (describe --contains, name-rev): 1, 0 none, PV_EDECLINED. */
int quick_name(struct quick *q, uint32_t commit, struct sbuf *out);

/* The earliest release containing commit (PV_NONE none): 0 or PV_EDECLINED. */
int quick_first_release(struct quick *q, uint32_t commit, uint32_t *tag);

/*
 * The stable backports of commit c from the index's map (backmap.h): *n
 * of them from the returned one, valid until quick_close().  NULL and
 * declined when a record read is damaged.
 */
const struct backport *quick_backports(struct quick *q, uint32_t c, size_t *n);

/*
 * Does stable commit c carry upstream commit u by patch-id (the map's
 * note, backmap.h)?  0, or PV_EDECLINED when a note read is damaged.
 */
int quick_backport_by_patchid(struct quick *q, uint32_t c, uint32_t u, bool *yes);

/*
 * Every tag containing commit, refname order (caller frees); NULL and
 * declined when the tag intervals are damaged (checked at the first call).
 */
uint32_t *quick_containing(struct quick *q, uint32_t commit, size_t *n);

/* The commit's message as git_commit_message gives it (caller frees), or NULL. */
char *quick_message(struct quick *q, uint32_t commit);

#endif
