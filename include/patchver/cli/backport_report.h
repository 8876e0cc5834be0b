#ifndef PATCHVER_CLI_BACKPORT_REPORT_H
#define PATCHVER_CLI_BACKPORT_REPORT_H

#include <stdbool.h>

#include "patchver/engine/history.h"

/* --backport FIX --onto REV, or --patch FILE --backport --onto REV: stable/readiness.c's answer */
struct backport_report_opts {
	bool json;
	const char *fix;            /* a revision, or NULL with patch */
	const char *patch;          /* a mail or diff file ("-": stdin) */
	const char *onto;
};

/* 0, or an exit code (the failure said). */
int backport_report(struct history *h, const struct backport_report_opts *o);

#endif
