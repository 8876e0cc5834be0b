#ifndef PATCHVER_TRIAGE_H
#define PATCHVER_TRIAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "patchver/stable/blame.h"
#include "patchver/engine/contain.h"
#include "patchver/engine/history.h"
#include "patchver/stable/patch.h"

/*
 * "Is this fix for stable?": who introduced the bug, which releases and
 * stable series carry it without the fix, which already have a backport,
 * whether the fix applies where it is missing, and a verdict.
 */
enum evidence_kind {
	EV_FIXES,       /* Fixes: <sha> ("subject") */
	EV_MENTION,     /* "commit <sha>" in the message */
	EV_BLAME,       /* last changed the lines the fix touches */
};

struct evidence {
	enum evidence_kind kind;
	char ref[41];               /* the sha as written (blame: full) */
	uint32_t commit;            /* DAG_NONE: not in this repository */
	char *claimed_subject;      /* Fixes: ("...") */
	bool subject_mismatch;
	bool merge;                 /* a merge commit: says little about the bug */
	struct blamed lines;        /* EV_BLAME line counts */
	uint32_t first_release;     /* tag index or UINT32_MAX */
};

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
	bool affected;
	uint32_t first_affected, last_affected;
	uint32_t fixed_in;          /* first tag with the fix or a backport */
	bool fixed_by_backport;
	uint32_t backport;          /* the backport that fixed it, or DAG_NONE */
};

struct triage {
	uint32_t fix;
	struct patch fixp;
	uint32_t fix_first;                 /* first release of the fix */
	struct evidence *ev;
	size_t nev;
	enum evidence_kind used;            /* which evidence decided */
	bool have_introducers;
	uint32_t *backports;
	size_t nbackports;
	uint32_t *affected;                 /* release tags, version order */
	size_t naffected;
	struct release_fit *fits;           /* one per affected release */
	struct series *series;
	size_t nseries;
	bool cc_stable;
	char cc_hint[32];                   /* "2.6.32+" from "# 2.6.32+" */
	char *verdict;
	char *cc_note;                      /* the Cc: stable tag against the verdict */
	unsigned blame_lines;
};

/*
 * Triage fix (a commit); mail: the mail it came from, whose Cc: tags count
 * too (NULL if none).  Returns 0 or an EXIT_* code.
 */
int triage_run(struct triage *t, struct history *h, struct contain *c,
	       uint32_t fix, const struct patch *mail);
void triage_free(struct triage *t);

/*
 * Only the first step, for audits of many commits: the commit's diff and
 * what its message says (Fixes:, commit mentions, Cc: stable).
 */
int triage_read(struct triage *t, struct history *h, uint32_t fix);

/* The verdict and the note on the fix's Cc: stable tag (verdict.c). */
void triage_verdict(struct triage *t, const struct history *h);

#endif
