#ifndef PATCHVER_CVE_REPORT_H
#define PATCHVER_CVE_REPORT_H

#include "patchver/base/json.h"
#include "patchver/engine/contain.h"
#include "patchver/engine/history.h"
#include "patchver/stable/triage.h"

/*
 * The "affected" part of a CVE JSON 5 record for a triaged fix, in the
 * shape the kernel CNA publishes:
 *   - git ranges (defaultStatus "unaffected"): from the introducer to the
 *     fix, and to each stable backport;
 *   - release ranges (defaultStatus "affected"): the first affected
 *     release, "0" up to it unaffected, each stable backport's release up
 *     to the end of its series unaffected, and the fix's mainline release
 *     on unaffected ("original_commit_for_fix");
 *   - programFiles: the fix's files.
 * Only certain or likely introducers bound a range; otherwise, as the CNA
 * does, the ranges start at the history's root commit, and "notes" says
 * so.  Writes {"affected": [...], "notes": [...]}.
 */
void cve_report_write(struct json *j, struct history *h, struct contain *c, const struct triage *t);

/* The same, the range starting at measured (the first bad commit booting found) when not PV_NONE. */
void cve_report_write_from(struct json *j, struct history *h, struct contain *c,
			   const struct triage *t, uint32_t measured);

#endif
