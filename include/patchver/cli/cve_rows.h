#ifndef PATCHVER_CLI_CVE_ROWS_H
#define PATCHVER_CLI_CVE_ROWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "patchver/engine/contain.h"
#include "patchver/engine/history.h"
#include "patchver/stable/triage.h"

/*
 * What the kernel CNA's formats (the CVE record's "affected" blocks,
 * dyad's lines) are written from: one set of series rows, the triage's
 * own when a certain, likely or given introducer bounds them; else placed
 * the triage's way from a measured first bad commit, or from the root
 * commit as the CNA does when the introducer is unknown.  Every format
 * reads these rows; none recomputes a series' status.
 */
struct cve_rows {
	const struct triage_group *g;   /* the series rows */
	struct triage_group placed;     /* ... when placed here, not the triage's */
	bool own;
	uint32_t intro;                 /* the mainline range's start */
	bool unknown;                   /* no introducer: the root commit */
	const char *repo;
	char **notes;                   /* the record's "notes", in order */
	size_t nnotes, alloc;
};

/* measured: the first bad commit booting found, or PV_NONE */
void cve_rows_init(struct cve_rows *r, struct history *h, struct contain *c,
		   const struct triage *t, uint32_t measured);
void cve_rows_free(struct cve_rows *r);
void cve_rows_note(struct cve_rows *r, char *text);   /* takes text */

/* Is release tag one of g's affected releases?  Has any series one? */
bool cve_is_affected(const struct triage_group *g, uint32_t tag);
bool cve_any_affected(const struct triage_group *g);

/* Is a tag after s's fixed_in affected again (a revert of the fix's backport)? */
bool cve_affected_again(const struct triage_group *g, const struct series *s);

/* A commit that fixes a release first: the fix, a stable backport, mainline's other copy. */
struct cve_fixed {
	uint32_t tag;       /* the first release it fixes */
	uint32_t commit;
};

/*
 * The fixing commits, in version order of their releases: each stable line
 * the bug reached whose backport of the fix stayed (no revert took it out
 * again), a mainline release with mainline's other copy of the fix (a
 * twin, match.h), and the fix in its own first release.  *n of them;
 * free() the array.
 */
struct cve_fixed *cve_rows_fixed(const struct cve_rows *r, const struct history *h,
				 const struct triage *t, size_t *n);

/* "2.6.34" for v2.6.34-rc1, v2.6.34 and v2.6.34.3 alike */
void cve_release_of(const struct history *h, uint32_t tag, char *buf, size_t len);
/* "2.6.34.3" for v2.6.34.3: a tag's name as the CNA writes versions */
const char *cve_version_of(const struct history *h, uint32_t tag);

#endif
