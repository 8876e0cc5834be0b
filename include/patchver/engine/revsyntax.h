#ifndef PATCHVER_ENGINE_REVSYNTAX_H
#define PATCHVER_ENGINE_REVSYNTAX_H

#include <stddef.h>

/*
 * The rev syntax patchver walks on its own DAG, without libgit2 (revs.c,
 * and the quick path): a base followed by "~N" and "^N" steps.
 */

/*
 * Where a rev's trailing "~N" and "^N" steps start ("v2.6.34~3^2": 7) when
 * it is a base without other rev syntax followed by such steps; else 0.
 */
size_t rev_steps_at(const char *spec);

/*
 * A..B with both ends (not A...B): where B starts in range, else NULL.
 * A is the range's first (B - range - 2) characters.
 */
const char *rev_range_to(const char *range);

/* The step at *p: '~' or '^', its count in *n (1 when none); *p moves past it. */
char rev_step(const char **p, unsigned long *n);

#endif
