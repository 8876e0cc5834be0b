#ifndef PATCHVER_STABLE_ORIGIN_H
#define PATCHVER_STABLE_ORIGIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "patchver/engine/history.h"
#include "patchver/stable/evidence.h"
#include "patchver/stable/evidence_mode.h"
#include "patchver/stable/fixblame.h"
#include "patchver/stable/readiness.h"

/*
 * Where the code a fix changes came from: its hunks grouped by origin,
 * each group with its introducers and how sure they are (triage.h says
 * what each confidence means).  The triage then gives each group its
 * releases, series and verdict.
 */
/* CONF_GIVEN: a person named the introducers (--introducer); nothing is surer */
enum confidence { CONF_NONE, CONF_UNCERTAIN, CONF_LIKELY, CONF_CERTAIN, CONF_GIVEN };

struct release_fit {
	uint32_t tag;               /* an affected release */
	bool applies;
	uint32_t *prereqs;          /* commits the fix's lines need, absent there */
	size_t nprereqs;
};

struct series {
	char name[32];              /* "2.6.33" */
	uint32_t base;              /* the vX.Y tag */
	uint32_t *tags;             /* vX.Y, vX.Y.1, ... in version order */
	size_t ntags;
	bool affected;              /* some tag affected: first_affected is set */
	bool maintained;            /* has stable tags (or branches) */
	uint32_t first_affected, last_affected;
	uint32_t fixed_in;          /* first tag with the fix or a backport */
	bool fixed_by_backport;
	uint32_t backport;          /* the backport that fixed it, or PV_NONE */
	uint32_t twin;              /* mainline's copy of the fix that fixed it, or PV_NONE */
	/*
	 * The bug's way into the series: its first tag carrying an introducer,
	 * and the stable backport of it that brought it (PV_NONE: the series'
	 * base release already had it); the culprit's upstream commit.
	 */
	uint32_t intro_tag;
	uint32_t intro_backport, intro_upstream;
	bool intro_by_patchid;      /* that backport names no upstream: same patch-id */
	bool together;              /* culprit and fix arrived in one stable tag */
	bool fix_before;            /* a backport of the fix came before the culprit's */
	bool fix_alone;             /* the fix's backport came, the culprit never did */
	/*
	 * A stable tag the answer turns on (where the bug or the fix came) that
	 * is a commit mainline also reaches, and the mainline release with it:
	 * its series' answer then follows mainline's history.  PV_NONE: none.
	 */
	uint32_t on_mainline, mainline_by;
	/* lacking the fix: does it go into the newest tag (triage_readiness) */
	struct ready_summary ready;
};

struct triage_group {
	unsigned *hunks;            /* indices of the fix's hunks */
	size_t nhunks;
	enum evidence_kind used;    /* what decided */
	enum confidence conf;
	size_t *intro;              /* introducers: indices into the evidence */
	size_t nintro;
	uint32_t oldest, newest;    /* first releases the group's blame spans */
	unsigned weight;            /* removed + beside lines of its hunks */
	double likelihood;          /* of its likeliest introducer (blame groups) */
	bool by_lines;              /* no introducer: its releases are those with the
				       lines the fix changes (--evidence text) */
	bool cc_led;                /* the message's Cc: stable changed which
				       blame owner decides, or made it headline */
	uint32_t *affected;         /* release tags, version order */
	size_t naffected;
	struct release_fit *fits;   /* one per affected release (headline only) */
	struct series *series;
	size_t nseries;
	char *verdict;
};

/* What the grouping reads: the fix, its evidence and the blame of its lines. */
struct origin_input {
	uint32_t fix;
	uint32_t fix_first;                 /* the fix's first release */
	const struct evidence_list *ev;     /* message and blame evidence, first releases set */
	const struct fixblame *blame;   /* per line of the fix's hunks */
};

/*
 * Group the fix's hunks by origin into *groups (*ngroups of them, the
 * headline first; at least one, with CONF_NONE when nothing introduced
 * the code).  The caller frees the groups with the triage.
 */
void origin_group(const struct origin_input *in, const struct history *h,
		  enum evidence_mode mode, struct triage_group **groups, size_t *ngroups);

/*
 * The commits the message names that the triage takes as its culprits
 * (culprit[i] for evidence i; in->blame unused): Fixes: and named
 * culprits; else bare mentions, with Cc: stable only those released
 * before the fix.  Returns the kind that decides, EV_BLAME for none.
 * The audit reads a fix's message through this, so that it and the
 * triage agree on what the message blames.
 */
enum evidence_kind origin_message_culprits(const struct origin_input *in, const struct history *h,
					   bool *culprit);

#endif
