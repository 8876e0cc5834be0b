/*
 * The plan of --verify-boot: which affected releases are booted.
 */
#include <stdlib.h>

#include "patchver/lab/plan.h"

size_t plan_budget(int max_states, bool *control, bool *fixed)
{
	size_t states = max_states > 0 ? (size_t)max_states : 0;

	if (states < 2u + *control + *fixed)
		*fixed = false;
	if (states < 2u + *control + *fixed)
		*control = false;
	return (states - *control - *fixed) / 2;
}

/* The last release of each series, the first release, in order: what the plan wants. */
static size_t wanted(const struct plan_release *rel, size_t n, size_t *idx)
{
	size_t k = 0;

	idx[k++] = 0;
	for (size_t i = 1; i < n; i++)
		if (i + 1 == n || rel[i + 1].series != rel[i].series)
			idx[k++] = i;
	return k;
}

size_t plan_pick(const struct plan_release *rel, size_t n, size_t max_pairs,
		 enum plan_reason *why)
{
	size_t *idx = malloc((n + 1) * sizeof(*idx)), k, kept = 0;

	for (size_t i = 0; i < n; i++)
		why[i] = PLAN_LEFT_OUT;
	if (!idx || !n || !max_pairs) {
		free(idx);
		return 0;
	}
	k = wanted(rel, n, idx);
	if (k <= max_pairs) {
		for (size_t j = 0; j < k; j++)
			why[idx[j]] = PLAN_SERIES_END;
		kept = k;
	} else {
		/* both ends, then max_pairs - 2 of the k - 2 between, evenly spaced */
		size_t inner = k - 2, take = max_pairs >= 2 ? max_pairs - 2 : 0;

		why[idx[0]] = PLAN_SERIES_END;
		kept = 1;
		if (max_pairs >= 2) {
			why[idx[k - 1]] = PLAN_SERIES_END;
			kept++;
		}
		for (size_t j = 0; j < take; j++) {
			why[idx[1 + (j * inner + inner / 2) / take]] = PLAN_SERIES_END;
			kept++;
		}
	}
	why[0] = PLAN_FIRST;
	if (why[n - 1] != PLAN_LEFT_OUT && n > 1)
		why[n - 1] = PLAN_NEWEST;
	free(idx);
	return kept;
}
