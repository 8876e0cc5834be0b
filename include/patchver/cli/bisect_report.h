#ifndef PATCHVER_BISECT_REPORT_H
#define PATCHVER_BISECT_REPORT_H

#include <stdbool.h>

#include "patchver/engine/history.h"
#include "patchver/lab/bisect_boot.h"

/*
 * --bisect-boot: run lab/bisect_boot.c, its steps on stdout as they end
 * (text only), then its findings.  0 when found and confirmed,
 * EXIT_NOT_CONFIRMED when not confirmed, or a PV_E* code for diag_exit().
 */
int bisect_report(struct history *h, const struct bisect_opts *o, bool json);

#endif
