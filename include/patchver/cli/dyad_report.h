#ifndef PATCHVER_CLI_DYAD_REPORT_H
#define PATCHVER_CLI_DYAD_REPORT_H

#include <stdio.h>

#include "patchver/engine/contain.h"
#include "patchver/engine/history.h"
#include "patchver/stable/triage.h"

/*
 * --triage --dyad: the kernel CNA's dyad lines for a triaged fix, read
 * off the rows the CVE record is written from (cve_rows.h), paired by
 * dyad's rules:
 *   - vulnerable: the introducer's mainline release ("2.6.32") and each
 *     stable line's backport of it older than that release ("2.6.34.4");
 *     none when the introducer is unknown or given as "none";
 *   - fixed: the fix's mainline release, each stable line the bug reached
 *     whose backport of the fix no revert took out again, and a mainline
 *     release with mainline's other copy of the fix (a twin, match.h);
 *   - each fixed entry pairs with the vulnerable one of the same version,
 *     else mainline with mainline, else the same series, else the oldest
 *     mainline one; no vulnerable entry at all gives 0:0; a vulnerable
 *     entry nothing paired gives VERSION:SHA:0:0.
 * One "# <fix>" line, then VULN_VERSION:VULN_SHA:FIXED_VERSION:FIXED_SHA
 * lines, fixed versions in version order, full ids.
 */
void dyad_report_write(FILE *out, struct history *h, struct contain *c, const struct triage *t);

#endif
