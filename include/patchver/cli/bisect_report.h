#ifndef PATCHVER_CLI_BISECT_REPORT_H
#define PATCHVER_CLI_BISECT_REPORT_H

#include <stdbool.h>

#include "patchver/base/json.h"
#include "patchver/engine/history.h"
#include "patchver/lab/bisect_boot.h"

/*
 * --bisect-boot: run lab/bisect_boot.c, its steps on stdout as they end
 * (text only), then its findings.  0 when found and confirmed,
 * EXIT_NOT_CONFIRMED when not confirmed, or a PV_E* code for diag_exit().
 */
int bisect_report(struct history *h, const struct bisect_opts *o, bool json);

/* One step as the JSON of --bisect-boot has it (--verify-boot --measure's steps too). */
void bisect_report_json_step(struct json *j, const struct bisect_step *s);

#endif
