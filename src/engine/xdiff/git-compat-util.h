/*
 * The few things of git's git-compat-util.h that xdiff (git v2.39.5's,
 * unchanged beside this file) uses: the C library, BUG(), UNUSED,
 * regexec_buf() and allocation that cannot fail (patchver's own).
 */
#ifndef PATCHVER_XDIFF_COMPAT_H
#define PATCHVER_XDIFF_COMPAT_H

#include <ctype.h>
#include <limits.h>
#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "patchver/base/util.h"

#define UNUSED __attribute__((unused))
#define BUG(...) do { fprintf(stderr, "xdiff: BUG: " __VA_ARGS__); abort(); } while (0)

static inline int regexec_buf(const regex_t *preg, const char *buf, size_t size,
			      size_t nmatch, regmatch_t pmatch[], int eflags)
{
	regmatch_t whole;

	if (!nmatch) {
		nmatch = 1;
		pmatch = &whole;
	}
	pmatch[0].rm_so = 0;
	pmatch[0].rm_eo = (regoff_t)size;
	return regexec(preg, buf, nmatch, pmatch, eflags | REG_STARTEND);
}

#endif
