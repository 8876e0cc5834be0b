#ifndef PATCHVER_CLI_AUDIT_REPORT_H
#define PATCHVER_CLI_AUDIT_REPORT_H

#include <stdbool.h>

#include "patchver/engine/history.h"

/* --audit A..B --series X.Y[,...] [--only WHAT] [--json]: computed by stable/audit.c */
struct audit_report_opts {
	bool json;
	const char *range;          /* A..B */
	const char *series;         /* "2.6.34" or "2.6.34,2.6.33" */
	const char *only;           /* NULL, "missing", "possible", "present", "unneeded" */
	bool needed_all;            /* judge "needed" for non-fixes too (PATCHVER_AUDIT_ALL) */
};

/* 0, or an exit code (the failure said). */
int audit_report(struct history *h, const struct audit_report_opts *o);

#endif
