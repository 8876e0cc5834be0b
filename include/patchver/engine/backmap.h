#ifndef PATCHVER_ENGINE_BACKMAP_H
#define PATCHVER_ENGINE_BACKMAP_H

#include <stddef.h>
#include <stdint.h>

#include "patchver/engine/dag.h"
#include "patchver/engine/tags.h"

/*
 * The backport map: what the stable lines carry.  For every stable-line
 * commit, the upstream commits its message names (upstream.h: every form
 * stable has used, ids wrapped across lines, abbreviated ids), and the
 * stable commit of the same series that reverts it, if one does ("This
 * reverts commit <id>", or stable's 'Revert "<subject>"' with no id).  A
 * backport of a backport (a 2.6.35.y commit naming the 2.6.34.y one)
 * counts for the mainline commit the first one names.  So "where did X
 * land on each stable series, as which backport, from which tag, reverted
 * where" is one lookup.
 *
 * backscan.h computes it.  The release index holds the map of every
 * commit a stable tag reaches (indexer.c); the stable layer computes one for commits no tag reaches
 * yet (a stable branch's queue), or when there is no index.  Backports
 * that name no upstream commit of this history are here too, found by
 * patch-id (backscan.h), with a note saying so: whoever asks "which stable
 * commits carry X" (the query, the triage, the audit, the CVE record)
 * reads one answer.
 */
#define BACKMAP_ON_BRANCH (PV_NONE - 1)   /* a commit no stable tag has reached */

struct backport {
	uint32_t upstream;          /* the mainline commit carried */
	uint32_t commit;            /* the stable commit carrying it */
	uint32_t tag;               /* the first stable tag with commit, or BACKMAP_ON_BRANCH */
	uint32_t revert;            /* the stable commit reverting it, or PV_NONE */
	uint32_t revert_tag;        /* the first stable tag with revert, PV_NONE, or ON_BRANCH */
};

/* What a stable commit's message names that is not counted as it reads. */
enum backport_problem {
	BACKPORT_UNKNOWN_ID = 1,    /* no commit of this history has that id */
	BACKPORT_AMBIGUOUS_ID,      /* an abbreviated id several commits start with */
	BACKPORT_NAMES_ITSELF,      /* the commit's own id */
	BACKPORT_SEVERAL,           /* more than one upstream commit: each counted */
	BACKPORT_BY_PATCHID,        /* names none: carries hex's commit by patch-id */
};

struct backport_note {
	uint32_t commit;            /* the stable commit */
	uint32_t problem;           /* enum backport_problem */
	char hex[48];               /* the id it names, as written (lower case) */
};

/* A stable commit reverted on its own line, whether it names an upstream or not. */
struct backport_revert {
	uint32_t commit, revert;
};

struct backport_map {
	const struct backport *v;   /* by upstream, then by tag's version */
	size_t nr;
	const struct backport_note *notes;      /* by commit */
	size_t nnotes;
	const struct backport_revert *reverts;  /* by commit */
	size_t nreverts;
	struct backport *own;       /* the arrays when computed here (else borrowed) */
	struct backport_note *own_notes;
	struct backport_revert *own_reverts;
};

/* A map over arrays owned elsewhere (a release index). */
void backmap_borrow(struct backport_map *m, const struct backport *v, size_t nr,
		    const struct backport_note *notes, size_t nnotes,
		    const struct backport_revert *reverts, size_t nreverts);
void backport_map_free(struct backport_map *m);

/* The backports of upstream commit u: *n of them from the returned one (NULL: none). */
const struct backport *backport_map_of(const struct backport_map *m, uint32_t u, size_t *n);

/*
 * As backport_map_of(), over a map whose records may be damaged (a lazily
 * opened index): each record read is shown to intact(record, ctx) first;
 * one it rejects gives NULL, *n 0 and *damaged.
 */
const struct backport *backport_map_of_checked(const struct backport_map *m, uint32_t u,
					       size_t *n, bool (*intact)(const void *b, void *ctx),
					       void *ctx, bool *damaged);

/* The notes on commit's message: *n of them from the returned one (NULL: none). */
const struct backport_note *backport_map_notes(const struct backport_map *m, uint32_t commit,
					       size_t *n);

/* Was stable commit found carrying upstream by patch-id (names no upstream)? */
bool backport_map_by_patchid(const struct backport_map *m, uint32_t commit,
			     const git_oid *upstream);

/* The stable commit reverting commit on its line, or PV_NONE. */
uint32_t backport_map_revert_of(const struct backport_map *m, uint32_t commit);

/* A problem's words, for a note: "names no commit of this repository". */
const char *backport_problem_str(uint32_t problem);

#endif
