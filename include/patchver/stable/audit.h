#ifndef PATCHVER_AUDIT_H
#define PATCHVER_AUDIT_H

#include <stdbool.h>

#include "patchver/engine/history.h"

/*
 * --audit A..B --series X.Y[,X.Y...]: for every non-merge commit of a
 * merge window and each stable series, is it marked for stable, needed
 * there (was the code it fixes in vX.Y?), already present (by upstream
 * line or patch-id, and since which stable tag), and, where needed and
 * missing, does it apply to the series' tip?
 */
struct audit_opts {
	bool json;
	const char *range;          /* A..B */
	const char *series;         /* "2.6.34" or "2.6.34,2.6.33" */
	const char *only;           /* NULL, "missing", "possible", "present", "unneeded" */
	bool needed_all;            /* judge "needed" for non-fixes too (measurement) */
};

/* 0, or an EXIT_* code. */
int audit_run(struct history *h, const struct audit_opts *o);

#endif
