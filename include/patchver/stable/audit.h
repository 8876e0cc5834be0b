#ifndef PATCHVER_STABLE_AUDIT_H
#define PATCHVER_STABLE_AUDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "patchver/engine/history.h"
#include "patchver/stable/fixclass.h"
#include "patchver/stable/readiness.h"

/*
 * --audit A..B --series X.Y[,X.Y...]: for every non-merge commit of a
 * merge window and each stable series, is it marked for stable, needed
 * there (was the code it fixes in vX.Y?), already present (by upstream
 * line or patch-id, and since which stable tag), and, where needed and
 * missing, does it apply to the series' tip?  audit_run() computes the
 * table; cli/audit_report.c shows it.
 */
struct audit_opts {
	const char *range;          /* A..B */
	const char *series;         /* "2.6.34" or "2.6.34,2.6.33" */
	bool needed_all;            /* judge "needed" for non-fixes too (measurement) */
};

/* Does a series need a commit? */
enum audit_need {
	AUDIT_UNJUDGED,             /* not yet: where a cell starts */
	AUDIT_NEEDED,               /* its culprit, or the lines it changes, are in the series */
	AUDIT_NOT_NEEDED,           /* they came after the series' release */
	AUDIT_NEED_UNKNOWN,         /* it only adds files: nothing tells */
	AUDIT_NOT_A_FIX,
};

/* How a commit marks itself a fix (its own word), or looks like one. */
enum audit_mark {
	AUDIT_MARK_NONE,            /* not a fix */
	AUDIT_MARK_CC_STABLE,       /* Cc: stable (or a stable tag line) */
	AUDIT_MARK_FIXES,           /* Fixes: */
	AUDIT_MARK_NAMED,           /* names (or reverts) released code */
	AUDIT_MARK_POSSIBLE,        /* a possible fix (fixclass.h) */
};

/* What one commit is for one series. */
struct audit_cell {
	enum audit_need needed;
	char *needed_why;
	uint32_t present;           /* the series' commit carrying it, PV_NONE */
	const char *present_how;    /* "upstream line", "patch-id" */
	const char *present_since;  /* the series tag first with it, or its branch */
	bool via_backport;          /* needed: the series carries the culprit as a backport */
	int applies;                /* exactly, as git apply: 1, 0, -1: not checked */
	/* a missing fix: does it go into the series' tip, after what (readiness.h) */
	struct ready_summary ready;
};

struct audit_row {
	uint32_t commit;
	enum audit_mark mark;
	struct fix_kind fix;
	char hint[32];              /* the Cc: stable line's "# 2.6.33.x" and the like */
	char *subject;
	uint32_t reverted_by;       /* mainline's standing revert of it, in the window or after
				       it (PV_NONE: none, or reverted again) */
	uint32_t reverted_release;  /* the revert's first release, PV_NONE */
	struct audit_cell *cells;   /* one per series */
	/* the change, read once for the judges */
	char *diff;
	char **paths;
	size_t npaths;
	git_oid pid;
	bool has_pid;
};

struct audit_series {
	char name[32];              /* "2.6.34" */
	const char *base;           /* its release tag, v2.6.34 */
	char *tip;                  /* its newest tag, or its branch */
	bool stable_tags;           /* false: no stable tag of it here, its stable line unknown */
};

struct audit_result {
	struct audit_series *series;
	size_t nseries;
	struct audit_row *rows;     /* newest first */
	size_t nrows;
};

/* A series' column of the audit, counted by class (fixclass.h). */
struct audit_counts {
	size_t marked;              /* Cc: stable */
	size_t by_word, possible, not_fix;  /* the classes */
	size_t candidates, missing, missing_backported_culprit;  /* by word, needed */
	size_t possible_needed, possible_missing;
	size_t unneeded_fix, unneeded_possible, unknown;
	size_t present, by_line, present_not_fix;
	size_t reverted;            /* needed, not present, but mainline reverted it */
	/* the missing fixes by readiness on the tip */
	size_t ready_clean, ready_merged, ready_after, ready_conflict;
};

/* Needed by the series, not in it, and not reverted in mainline: missing. */
bool audit_missing(const struct audit_row *r, const struct audit_cell *c);

/* The audit of o->range against o->series: 0, or a negative PV_E* code. */
int audit_run(struct audit_result *out, struct history *h, const struct audit_opts *o);

/*
 * Is the row one --only lists: "missing" (a fix needed and missing),
 * "possible" (a possible fix needed and missing), "present", "unneeded"?
 * NULL lists every row.
 */
bool audit_listed(const struct audit_result *res, const struct audit_row *r, const char *only);

void audit_count(const struct audit_result *res, size_t series, struct audit_counts *n);

void audit_result_free(struct audit_result *res);

#endif
