#ifndef PATCHVER_STABLE_READINESS_H
#define PATCHVER_STABLE_READINESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "patchver/engine/history.h"
#include "patchver/stable/apply.h"
#include "patchver/stable/definer.h"
#include "patchver/stable/patch.h"

/*
 * Backport readiness: does a fix go into a stable release as it is, and
 * if not, which mainline commits must go in first.  The stable team's
 * answer, rebuilt: a fix that does not apply to vK-1 went in after
 * specific earlier commits of the same batch (bench/prereqs.txt).  Here
 * the candidates are the commits of base..FIX^ (base: where the release's
 * line left mainline) that change the fix's files and that the release
 * neither contains nor carries as a backport; every one that goes in is
 * applied in order, in memory, and the fix must then apply exactly as
 * git apply takes it; the list is then made minimal by leaving each out
 * in turn, newest first, as the stable team's own batches are read.  A
 * prerequisite that goes in only adapted (its conflicts resolved its own
 * way) gets the same search for its own prerequisites, to depth 3.
 */

#define READINESS_MAX_CANDIDATES 200
#define READINESS_MAX_DEPTH 3

enum ready_answer {
	READY_ALREADY,              /* the release contains the fix or a backport of it */
	READY_APPLIES,              /* as it is (as_is.how: clean, fuzz or 3way) */
	READY_AFTER,                /* exactly, after the prerequisites */
	READY_CONFLICT,             /* in no form, and no list of commits makes it apply */
};
const char *ready_answer_name(enum ready_answer a);

/* One prerequisite, in the order they go in. */
struct ready_step {
	uint32_t commit;
	enum apply_how how;         /* how it goes in at its place (whole diff) */
	unsigned depth;             /* 1: the fix needs it; 2: the step after it does ... */
	uint32_t needed_by;         /* the commit it comes before (the fix, or a step) */
	char *why;                  /* what it is for, one line */
	char *conflict;             /* APPLY_ADAPTED/CONFLICT: what does not go in as it is */
};

/* A hunk of the fix that does not apply, and what the release has there. */
struct ready_conflict {
	char *path;
	int hunk;                   /* 1-based */
	char *section;              /* the hunk header's function, "" if none */
	long line;                  /* where the release's lines are shown from (1-based) */
	struct text_lines wants;    /* the lines the hunk looks for */
	struct text_lines has;      /* the release's lines there */
	uint32_t *changed_by;       /* mainline commits since the base that changed them, not in the release */
	size_t nchanged;
	uint32_t *changed_here;     /* the release's own commits that changed its lines */
	size_t nhere;
};

/* A name the fixed code uses that the release does not define. */
struct ready_name {
	char *name;
	enum definer_kind kind;
	char *file;                 /* where the fix's tree defines it */
	uint32_t commit;            /* the commit that brought it there (PV_NONE: unknown) */
	bool in_steps;              /* a prerequisite brings it */
};

struct readiness {
	uint32_t fix;               /* PV_NONE: a patch that matches no commit here */
	uint32_t onto;
	uint32_t base;              /* where onto's line left the fix's: their merge base */
	enum ready_answer answer;
	uint32_t already_by;        /* READY_ALREADY: the fix itself, or its backport */
	const char *already_how;    /* "contains it", "upstream line", "patch-id" */
	struct apply_report as_is;  /* the fix on the release as it is */
	struct ready_step *steps;
	size_t nsteps;
	struct apply_report after;  /* the fix after the steps (READY_AFTER) */
	size_t ncandidates;         /* commits the search looked at, all depths */
	bool too_many;              /* more than READINESS_MAX_CANDIDATES: not searched */
	struct ready_conflict *conflicts;
	size_t nconflicts;
	struct ready_name *names;
	size_t nnames;
};

/* The answer in short, as a triage's series row or an audit's cell says it. */
struct ready_summary {
	bool checked;
	uint32_t onto;              /* the commit (a tag's) it was checked on */
	enum ready_answer answer;
	enum apply_how how;         /* as it is */
	uint32_t *prereqs;          /* READY_AFTER: in order */
	size_t nprereqs;
	bool adapted;               /* one of them goes in only adapted */
	size_t nconflicts;          /* READY_CONFLICT: hunks */
	uint32_t already_by;        /* READY_ALREADY: the commit that has it */
	const char *already_how;
};
void readiness_summarize(const struct readiness *r, struct ready_summary *s);
void ready_summary_free(struct ready_summary *s);
/* "clean", "with fuzz", "after 2 prerequisites", "conflicts" ... (caller frees) */
char *ready_summary_words(const struct ready_summary *s);

/*
 * The readiness of fix (a commit of h, or PV_NONE with its patch p; p may
 * be NULL for a commit) onto commit onto.  0, or a PV_E* code: fix a
 * merge (PV_EINVALID), an unreadable object (PV_ECORRUPT).
 */
int readiness_check(struct readiness *r, struct history *h, uint32_t fix, const struct patch *p,
		    uint32_t onto);
void readiness_free(struct readiness *r);

#endif
