#ifndef PATCHVER_STABLE_TRIAGE_H
#define PATCHVER_STABLE_TRIAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "patchver/engine/contain.h"
#include "patchver/engine/history.h"
#include "patchver/stable/backports.h"
#include "patchver/stable/carriers.h"
#include "patchver/stable/evidence.h"
#include "patchver/stable/evidence_mode.h"
#include "patchver/stable/fixblame.h"
#include "patchver/stable/fixclass.h"
#include "patchver/stable/origin.h"
#include "patchver/stable/patch.h"

/*
 * "Is this fix for stable?": who introduced the bug, which releases and
 * stable series carry it without the fix, which already have a backport,
 * whether the fix applies where it is missing, and a verdict.
 *
 * A fix may repair code of several origins (d83c49f3e36c fixes a
 * 2.6.34-rc1 regression and, in other hunks, 2.6.12 code): its hunks are
 * grouped by what introduced the code they change, and each group gets
 * its own verdict, from the best evidence it has:
 *
 *   certain    a commit the message names (Fixes:, "introduced by <sha>",
 *              a quoted subject) owns lines of these hunks, or of none
 *   likely     blame: the commits owning the removed lines agree on one
 *              release cycle (a commit mention only: also likely)
 *   uncertain  blame whose commits span several release cycles: the
 *              verdict names the range instead of declaring every series
 *              from the oldest one affected
 *
 * The first group (the headline) is the certain one, else the one whose
 * likeliest introducer is likeliest: it owns most of the lines the fix
 * removes or extends for its age (origin.c's likelihood()).
 */
/*
 * The answer, from "is it a fix?" (fixclass.h) and the headline part's
 * releases: a fix by its own word with released kernels affected is a
 * stable candidate, one that only looks like a fix a possible candidate;
 * a fix no released kernel needs is not for stable.
 */
enum triage_class {
	TRIAGE_CANDIDATE,
	TRIAGE_POSSIBLE,
	TRIAGE_NOT_FOR_STABLE,
	TRIAGE_NOT_A_FIX,
	TRIAGE_UNKNOWN,             /* a fix, but no introducing commit found */
};

struct triage {
	uint32_t fix;
	struct patch fixp;
	uint32_t fix_first;                 /* first release of the fix */
	struct evidence_list ev;
	struct fix_kind fix_kind;           /* is it a fix? (fixclass.h) */
	struct fixblame blame;          /* per line, for the groups */
	uint32_t *backports;
	size_t nbackports;
	/* what the stable lines carry, for the files in question (carriers.h) */
	struct carriers carriers;
	/*
	 * The introducers' backports the tags' map does not hold: queued on a
	 * stable branch no tag has reached (tag PV_NONE), or with the
	 * introducer's patch-id under another upstream's name (also in intro_same).
	 */
	struct backport *intro_extra;
	size_t nintro_extra;
	uint32_t *intro_same;
	size_t nintro_same;
	uint32_t backport_first;            /* earliest stable tag with a backport */
	uint32_t *twins;                    /* mainline's copies of the fix (match_twins) */
	size_t ntwins;
	struct triage_group *groups;        /* [0]: the headline */
	size_t ngroups;
	uint32_t mainline_revert;           /* the revert standing against the fix, PV_NONE */
	uint32_t mainline_revert_first;     /* its first release, PV_NONE */
	enum triage_class cls;
	char *cc_note;                      /* the Cc: stable tag against the verdict */
	unsigned blame_lines;
};

/*
 * Triage fix (a commit); mail: the mail it came from, whose Cc: tags count
 * too (NULL if none).  It loads the branches (stable queues) itself; c is
 * the history's containment, fresh or used.  Returns 0 or a PV_E* code
 * (message recorded).
 */
int triage_run(struct triage *t, struct history *h, struct contain *c,
	       uint32_t fix, const struct patch *mail, enum evidence_mode mode);

/*
 * The introducers a person gives (--introducer): they replace what the
 * message and blame say (both still read and listed), as one group of all
 * the fix's hunks with confidence "given".  Each must be an ancestor of
 * the fix (the caller checks); the root commit says "as old as the
 * history" (triage_root).
 */
struct triage_given {
	const uint32_t *commits;
	size_t n;
};
int triage_run_given(struct triage *t, struct history *h, struct contain *c, uint32_t fix,
		     const struct patch *mail, enum evidence_mode mode,
		     const struct triage_given *given);

/*
 * A person's introducer ids (--introducer: revisions, or "none" for the
 * root commit) as commits below fix, *n of them in *out (free it).  0, or
 * an error naming the id: not a commit, not in the repository, or not
 * below the fix (it cannot have introduced the bug).
 */
int triage_given_resolve(struct history *h, uint32_t fix, char *const *ids, uint32_t **out,
			 size_t *n);

/* The root commit below commit by first parents: where the CNA starts an unknown bug. */
uint32_t triage_root(const struct history *h, uint32_t commit);
void triage_free(struct triage *t);

/*
 * Backport readiness (readiness.h) of the fix on the newest tag of each
 * headline series row that is affected, lacks the fix and has a stable
 * line here (a series without stable tags is nobody's backport target):
 * each row's ready.  0 or a PV_E* code.
 */
int triage_readiness(struct triage *t, struct history *h);

/*
 * The releases and series rows of t's fix (placed as the triage placed it:
 * itself and its unreverted backports) for the introducers intro[0..n)
 * instead of a group's evidence: a first bad commit the boots measured,
 * or the root commit where no introducer is known.  Only g's affected and
 * series are set; free it with triage_group_free.
 */
void triage_place(struct triage_group *g, const struct triage *t, struct history *h,
		  struct contain *c, const uint32_t *intro, size_t n);
void triage_group_free(struct triage_group *g);

/*
 * The headline group's earliest introducer (by its first release; one
 * without a release only when none has one), and that release in
 * *release (may be NULL): PV_NONE when it names none.
 */
uint32_t triage_introducer(const struct triage *t, const struct history *h, uint32_t *release);

/*
 * Only the first step, for audits of many commits: the commit's diff and
 * what its message says (Fixes:, commit mentions, Cc: stable).
 */
int triage_read(struct triage *t, struct history *h, uint32_t fix);

#endif
