#ifndef PATCHVER_TESTS_CHECK_H
#define PATCHVER_TESTS_CHECK_H

/* A minimal unit-test harness: CHECK counts, check_done() reports. */
#include <stdio.h>
#include <string.h>

static int check_passed, check_failed;

#define CHECK(cond) do { \
	if (cond) { check_passed++; } else { check_failed++; \
		fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); } \
} while (0)

#define CHECK_STR(a, b) do { \
	const char *a_ = (a), *b_ = (b); \
	if (a_ && b_ && !strcmp(a_, b_)) { check_passed++; } else { check_failed++; \
		fprintf(stderr, "%s:%d: \"%s\" != \"%s\"\n", __FILE__, __LINE__, \
			a_ ? a_ : "(null)", b_ ? b_ : "(null)"); } \
} while (0)

static inline int check_done(void)
{
	printf("%d passed, %d failed\n", check_passed, check_failed);
	return check_failed ? 1 : 0;
}

#endif
