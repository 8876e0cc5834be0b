#ifndef PATCHVER_LAB_MEASURE_H
#define PATCHVER_LAB_MEASURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "patchver/engine/history.h"
#include "patchver/lab/bisect_boot.h"
#include "patchver/lab/lab.h"

/*
 * Where the bug shows, measured by booting (--verify-boot --measure),
 * beside where the text (Fixes:, a named culprit, blame) puts it.  The
 * planned releases the text calls affected were booted once each; their
 * answers have a shape:
 *   - the bug shows in all of them: boot and text agree;
 *   - it shows from a later one on (the culprit's code was there, the
 *     bug not yet), or stops before the fix (something masked it): a
 *     boundary, found with --bisect-boot's machinery when asked;
 *   - it shows, stops and shows again: non-monotonic, not narrowed;
 *   - it never shows, or shows on the control too: nothing measured.
 */
enum measure_kind {
	MEASURE_NOTHING_BOOTED,     /* no affected state ran */
	MEASURE_NEVER,              /* the bug never showed */
	MEASURE_CONTROL,            /* it showed on the control, before the text's culprit */
	MEASURE_NON_MONOTONIC,      /* shows, stops, shows again */
	MEASURE_AGREE,              /* from the text's first affected release to its last */
	MEASURE_BOUNDED,            /* starts later or stops earlier than the text says */
};

/* The answers of the planned affected releases, version order: 1 bug, 0 none, -1 not run. */
struct measure_shape {
	enum measure_kind kind;
	size_t first_bug, last_bug; /* indices of the first and last state showing it */
	bool starts_later;          /* states before first_bug ran and did not show it */
	bool stops_earlier;         /* states after last_bug ran and did not show it */
};

void measure_shape(const int *seen, size_t n, int control_seen, struct measure_shape *s);

/* One planned affected release, as booted. */
struct measure_state {
	uint32_t tag;
	int seen;                   /* 1 the bug showed, 0 not, -1 did not run */
};

struct measure_input {
	const struct measure_state *states;
	size_t n;
	int control_seen;           /* -1: no control */
	uint32_t control_tag;       /* PV_NONE: none */
	uint32_t culprit;           /* the text's introducer (commit), or PV_NONE */
	uint32_t culprit_release;   /* its first release, or PV_NONE */
	bool narrow;                /* --measure: bisect each boundary */
	/*
	 * How the user asks for narrow (the front's word, "--measure"): said
	 * where a boundary was left unmeasured.  NULL: not said.
	 */
	const char *narrow_ask;
};

struct measure {
	struct measure_shape shape;
	bool narrowed;              /* a boundary was bisected */
	uint32_t text_first, text_last;     /* the text's affected releases (planned ends) */
	uint32_t first, last;       /* where the bug shows, measured (tags) */
	uint32_t first_commit;      /* the first bad commit, or PV_NONE */
	uint32_t stop_commit;       /* the commit after which it no longer shows, or PV_NONE */
	uint32_t stop_tag;          /* the first release where it no longer shows, or PV_NONE */
	bool have_start, have_stop; /* the boundaries bisected */
	struct bisect_boot_result start, stop;
	char *label;                /* "measured by boot", "confirmed by boot", NULL */
	char *line;                 /* the sentence a report shows */
	char *note;                 /* what could not be measured, and why; NULL */
	int builds, boots;
};

/*
 * Read the shape and, with in->narrow, bisect its boundaries on the lab
 * (l, held open by --verify-boot).  0 or a PV_E* code that stops the run
 * (PV_EINTERRUPTED, PV_ENOTOOL); what could not be measured is m->note.
 */
int measure_run(struct history *h, struct lab *l, const struct measure_input *in,
		struct measure *m);

/* Is a release inside the measured range?  (Everything is, when nothing was measured.) */
bool measure_covers(const struct history *h, const struct measure *m, uint32_t tag);

void measure_free(struct measure *m);

#endif
