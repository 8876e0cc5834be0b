#ifndef PATCHVER_QUICK_REPORT_H
#define PATCHVER_QUICK_REPORT_H

#include <stddef.h>

#include "patchver/cli/render.h"
#include "patchver/engine/quick.h"

/*
 * report_revs from a fresh release index alone (quick.h), text output:
 * the exit code, or -1 when the quick path declines a rev (then nothing
 * is printed; quick_why() says why).
 */
int report_quick(struct quick *q, const struct report_opts *opts,
		 const char **revs, size_t nrevs);

#endif
