#ifndef PATCHVER_CLI_CVE_REPORT_H
#define PATCHVER_CLI_CVE_REPORT_H

#include "patchver/base/json.h"
#include "patchver/engine/contain.h"
#include "patchver/engine/history.h"
#include "patchver/stable/triage.h"

struct cve_opts {
	const char *repo;           /* every entry's "repo"; NULL: origin's URL, else
				       the stable tree's (the CNA's) */
	uint32_t measured;          /* the first bad commit booting found, or PV_NONE */
	const char *cve_id;         /* --cve-id, or NULL: a placeholder (cve_report_record) */
	const char *org_id;         /* --cna-org-id, or NULL: the kernel CNA's */
};

/*
 * The "affected" part of a CVE JSON 5 record for a triaged fix, in the
 * shape the kernel CNA publishes, read off the triage's series rows:
 *   - git ranges (defaultStatus "unaffected"): each stable series fixed by
 *     a backport, from the commit that brought the bug to that branch (the
 *     introducer, or its backport there) to the fix's backport; then
 *     mainline, the introducer to the fix, last.  A range whose start is
 *     not an ancestor of its end is left out, with a note;
 *   - release ranges: against defaultStatus "affected", the first affected
 *     release, "0" up to it unaffected, each stable backport's release up
 *     to the end of its series unaffected, and the fix's mainline release
 *     on ("original_commit_for_fix"); where a stable branch took the
 *     culprit as a backport, against "unaffected", the affected runs of
 *     each series; no released kernel affected: no entries at all;
 *   - programFiles: the fix's files; repo: cve_opts.
 * Only certain or likely introducers bound a range; otherwise, as the CNA
 * does, the ranges start at the history's root commit (placed as the
 * triage places an introducer), and "notes" says so, as it says which
 * series have no stable tags here.  Writes {"affected": [...], "notes": [...]}.
 */
void cve_report_write(struct json *j, struct history *h, struct contain *c,
		      const struct triage *t, const struct cve_opts *o);

/*
 * --cve-record: a whole CVE JSON 5 record for the fix, as the kernel CNA's
 * bippy writes one, one line: cveMetadata (the id given, else
 * CVE-0000-0000; assignerOrgId; state), and containers.cna with
 * providerMetadata, the title (the subject), the description (the CNA's
 * opening sentence, the subject and the message body without its trailer
 * block), "affected" as above, a reference per fixing commit
 * (cve_rows_fixed: each stable backport, then mainline) as a
 * git.kernel.org stable link, and the notes as "x_patchver_notes".
 */
void cve_report_record(struct json *j, struct history *h, struct contain *c,
		       const struct triage *t, const struct cve_opts *o);

#endif
