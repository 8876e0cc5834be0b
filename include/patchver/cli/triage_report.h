#ifndef PATCHVER_CLI_TRIAGE_REPORT_H
#define PATCHVER_CLI_TRIAGE_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>

#include "patchver/base/json.h"
#include "patchver/engine/history.h"
#include "patchver/stable/fixclass.h"
#include "patchver/stable/triage.h"

/*
 * The patch and triage front ends: mails matched to commits, triages
 * printed as text a stable maintainer can paste, or as JSON.
 */
struct triage_opts {
	bool json;
	bool triage;        /* full triage, not only the match */
	bool patch_id;      /* only print patch-ids, as git patch-id --stable */
	const char *range;  /* --range A..B: where --patch looks */
	enum evidence_mode evidence;    /* --evidence: which evidence may decide */
	bool cve_json;      /* --cve-json: CVE JSON 5 "affected" entries (implies json) */
	const char *cve_repo;   /* --cve-repo, or NULL */
	bool dyad;          /* --dyad: the CNA's dyad lines */
	bool cve_record;    /* --cve-record: whole CVE records, one a line */
	const char *cve_id, *org_id;    /* --cve-id, --cna-org-id, or NULL */
	char *const *introducers;   /* --introducer ids ("none": the root), NULL-terminated, or NULL */
};

/* --triage REV...  (or --patch-id REV...) */
int triage_revs(struct history *h, const struct triage_opts *o,
		const char **revs, size_t nrevs);

/*
 * --triage --stdin: a fix a line, as a revision, and after it the fix's own
 * introducers if a person knows them (as --introducer: ids, or "none");
 * blank lines and lines starting with '#' are skipped.  One process for
 * the batch: the history and its index are read once.
 */
int triage_stdin(struct history *h, const struct triage_opts *o, FILE *in);

/* --patch FILE: each message matched, then reported or triaged */
int triage_patch_file(struct history *h, const struct triage_opts *o,
		      const char *path);

/*
 * A fix verdict's keys in an open JSON object: class, class_reason,
 * fix_word, signals, shape, score (null for a fix by its word) and
 * features.  The triage's and the audit's JSON share them.
 */
void triage_report_fix_json(struct json *j, const struct fix_kind *v);

#endif
