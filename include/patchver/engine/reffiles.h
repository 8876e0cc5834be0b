#ifndef PATCHVER_ENGINE_REFFILES_H
#define PATCHVER_ENGINE_REFFILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The tag refs of a repository read from its files (packed-refs and the
 * loose refs under refs/tags), without libgit2: the quick path cannot
 * start it, and a one-query walk spent milliseconds on libgit2's ref
 * lookups.  Whatever git might read differently (a symbolic, locked or
 * oddly named ref, an unusual packed-refs line, GIT_NAMESPACE) makes
 * it decline: then ask libgit2.
 */
struct reffiles_ref {
	char *name;                 /* in the reffiles's text or strings: not freed alone */
	unsigned char oid[20];
	bool loose;                 /* a file under refs/tags, not a packed-refs line */
};

struct reffiles_list {
	struct reffiles_ref *v;
	size_t nr, alloc;
};

struct reffiles {
	char *gitdir;
	struct reffiles_list packed;      /* every ref of packed-refs, name order */
	struct reffiles_list tags;        /* under refs/tags, loose over packed, name order */
	struct reffiles_list top_files, top_refs;   /* what gitdir and gitdir/refs hold */
	bool listed;
	char *text;                      /* packed-refs, whose lines the names point into */
	char **strings;                  /* the other names */
	size_t nstrings, astrings;
	/*
	 * The digest of packed-refs' tag lines, which git's sorted file keeps
	 * in one block at its end (their peel lines among them); 0 when they
	 * are no such block (a ref sorting after refs/tags, say).
	 */
	uint64_t tag_digest;
	/*
	 * packed-refs' tag lines are those a caller already knows
	 * (reffiles_tags_known): they were not parsed, packed holds the other
	 * refs only, tags the loose tags only, and has_tag answers for a
	 * packed or loose "refs/tags/..." name.
	 */
	bool tags_known;
	bool (*has_tag)(const void *ctx, const char *refname);
	const void *has_tag_ctx;
};

/*
 * The tags of the repository whose (common) git directory is gitdir: 0,
 * or PV_EDECLINED (error.h: the message says what it does not handle).
 */
int reffiles_tags(struct reffiles *r, const char *gitdir);

/*
 * The same, but when packed-refs' tag lines still have the digest a
 * caller kept (a non-zero r->tag_digest of an earlier read), they are not parsed
 * again: 6,700 tags cost most of a quick answer.  has_tag(ctx, refname)
 * must then say whether that earlier read had the tag (packed or loose).
 * r->tags_known says which way it went.
 */
int reffiles_tags_known(struct reffiles *r, const char *gitdir, uint64_t digest,
		       bool (*has_tag)(const void *ctx, const char *refname), const void *ctx);
void reffiles_free(struct reffiles *r);

/* The ref of list l (sorted by name) named name, or NULL. */
const struct reffiles_ref *reffiles_find(const struct reffiles_list *l, const char *name);

/* Is refname ("refs/heads/x", or "HEAD" and its kind) packed or a loose file? */
bool reffiles_exists(struct reffiles *r, const char *refname);

/*
 * The name git name-rev --tags --name-only prints for the tag refname:
 * shorten_unambiguous_ref() drops "refs/tags/" unless "refs/<name>" or a
 * top-level file "<name>" exists, then it keeps "tags/".  Borrowed: a
 * suffix of refname.
 */
const char *reffiles_short_of(struct reffiles *r, const char *refname);

/*
 * The same for every tag at once: names[0..n) are refnames under
 * refs/tags/ in name order, each moved to its short name's start.  The
 * names that can make one ambiguous (what gitdir and gitdir/refs hold,
 * packed refs outside refs/tags) are few: each looks its tag up, rather
 * than each of 6,700 tags look them up.
 */
void reffiles_short_names(struct reffiles *r, const char **names, size_t n);

/*
 * Would git read another history than the objects spell: replace refs
 * (refs/replace, unless GIT_NO_REPLACE_OBJECTS) or grafts (info/grafts,
 * GIT_GRAFT_FILE)?  Then the release index, written over the plain
 * history, answers nothing.  After reffiles_tags (which read packed-refs).
 */
bool reffiles_history_replaced(struct reffiles *r);

/*
 * Could the replace namespace hold a ref: loose refs under refs/replace, a
 * packed-refs line there, or GIT_REPLACE_REF_BASE set at all?  From the
 * files: asking libgit2 parses all of packed-refs (100,000 tags: most of a
 * query's time), and nearly no repository has a replace ref.
 */
bool reffiles_replace_refs_exist(const char *gitdir);

#endif
