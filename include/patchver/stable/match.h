#ifndef PATCHVER_STABLE_MATCH_H
#define PATCHVER_STABLE_MATCH_H

#include <stddef.h>
#include <stdint.h>

#include "patchver/engine/backmap.h"
#include "patchver/engine/contain.h"
#include "patchver/engine/history.h"
#include "patchver/stable/patch.h"

/*
 * Finding a patch in history: the commits with its patch-id among those
 * that touch its files (as b4 and stable-tools do), else the commits with
 * its subject, a weaker match.  (A fix's stable backports are the backport
 * map's, backmap.h: named or by patch-id.)
 */
enum match_kind { MATCH_NONE, MATCH_PATCHID, MATCH_SUBJECT };

struct match {
	enum match_kind kind;
	uint32_t *commits;      /* every matching commit */
	size_t nr;
	uint32_t upstream;      /* the mainline one (earliest release), or PV_NONE */
	char upstream_ref[41];  /* the upstream the mail's own line names ("": none) */
};

/* in_range: per commit, may it match? (NULL: every commit) */
void match_patch(struct history *h, struct contain *c, const struct patch *p,
		 const bool *in_range, struct match *out);

/*
 * The commits of A..B (reachable from B, not from A) as a mask over the
 * DAG.  Returns 0, or PV_EINVALID (not A..B) or resolve's code (message recorded).
 */
int match_range(struct history *h, const char *range, bool **mask);
void match_free(struct match *m);

const char *match_kind_name(enum match_kind k);

/*
 * Mainline's twins of commit: commits a mainline release carries, not
 * below commit, that change its files with its subject and patch-id (the
 * same change merged twice through two trees: a release with either has
 * the fix).
 * In commit order; 0 when none.
 */
size_t match_twins(struct history *h, struct contain *c, uint32_t commit, const struct patch *p,
		   uint32_t **out);

#endif
