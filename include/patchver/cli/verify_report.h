#ifndef PATCHVER_CLI_VERIFY_REPORT_H
#define PATCHVER_CLI_VERIFY_REPORT_H

#include <stdbool.h>

#include "patchver/engine/history.h"
#include "patchver/lab/verify.h"

/*
 * --verify-boot: run lab/verify.c and show its result (a table, or JSON).
 * 0 when confirmed; a documented exit code (EXIT_NOT_CONFIRMED, or the
 * first failed candidate's EXIT_PATCH/EXIT_BUILD/EXIT_BOOT); or a PV_E*
 * code for diag_exit().
 */
int verify_report(struct history *h, const char *fix_rev, const struct verify_opts *o, bool json);

/*
 * --verify-boot --cve-json: the run as JSON with the fix's CVE "affected"
 * entries beside it, their range the text's or (from_boot) the one the
 * boots measured, and "affected_from" saying which.
 */
int verify_report_cve(struct history *h, const char *fix_rev, const struct verify_opts *o,
		      bool from_boot, const char *cve_repo);

/* --cache-clean: free the built images and boot logs, say what is left. */
int verify_report_cache_clean(void);

/* --prepare-tree: extract and import the kernel tree, say where it is. */
int verify_report_prepare_tree(const struct lab_opts *o);

#endif
