#ifndef PATCHVER_LAB_PLAN_H
#define PATCHVER_LAB_PLAN_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Which affected releases --verify-boot boots: not all of them (a fix to
 * old code has hundreds), but the ones that tell — the first affected
 * release, the newest affected tag of each affected series (its final
 * release, or the newest stable tag), and the newest affected release —
 * each booted with and without the fix.  When more are wanted than fit,
 * both ends stay and the rest are spread evenly over the series.
 */
struct plan_release {
	int series;                 /* releases of one series share it; ascending */
};

enum plan_reason {
	PLAN_LEFT_OUT,              /* not booted */
	PLAN_FIRST,                 /* the first affected release */
	PLAN_SERIES_END,            /* the newest affected tag of its series */
	PLAN_NEWEST,                /* the newest affected release */
};

/*
 * rel: the affected releases in version order (n >= 1).  Marks each in
 * why[] and returns how many are kept: at most max_pairs (>= 1), first
 * and newest always among them when max_pairs allows.
 */
size_t plan_pick(const struct plan_release *rel, size_t n, size_t max_pairs,
		 enum plan_reason *why);

/*
 * The budget of --max-states: states besides the pairs (a control, the
 * first release with the fix) are dropped, the latter first, when fewer
 * than one pair would fit.  Returns the pairs; *control and *fixed say
 * whether each stays.
 */
size_t plan_budget(int max_states, bool *control, bool *fixed);

#endif
