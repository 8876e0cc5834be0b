#ifndef PATCHVER_STABLE_REVERTS_H
#define PATCHVER_STABLE_REVERTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "patchver/engine/history.h"

/*
 * Mainline's reverts: which commits of a part of the history take which
 * back out, read from their messages as `git revert` writes them ("This
 * reverts commit <sha>.", 'Revert "<subject>"') and as developers did
 * ("Revert commit bba7ebb", "reverts changes done in commit <sha>").
 * A revert of a revert brings its target back.  The triage (is the fix
 * still in mainline?) and the audit (is a missing fix still wanted?)
 * both ask here, so they cannot disagree.
 */
struct revert_record {
	uint32_t commit;            /* the revert */
	uint32_t target;            /* the commit it names by id; PV_NONE: by subject only */
	char *target_subject;       /* the subject it quotes, or NULL */
	char *subject;              /* its own subject */
};

struct reverts {
	const struct history *h;
	struct revert_record *v;
	size_t nr;
	uint32_t tip;               /* the newest mainline release read up to, PV_NONE: none */
	size_t read;                /* commits whose messages were looked at */
};

/*
 * The reverts among the mainline commits that are not ancestors of any
 * of below[0..n): up to the newest mainline release tag, and up to each
 * of also[0..nalso) (an audit range's end past the last tag).  0 or a
 * PV_E* code (message recorded).
 */
int reverts_scan(struct reverts *r, struct history *h, const uint32_t *below, size_t n,
		 const uint32_t *also, size_t nalso);

/*
 * The revert of commit (whose subject is subject) that still stands: not
 * itself reverted.  PV_NONE: none, or every revert was reverted again.
 */
uint32_t reverts_standing(const struct reverts *r, uint32_t commit, const char *subject);

void reverts_free(struct reverts *r);

#endif
