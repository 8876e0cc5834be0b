/*
 * Unit tests: the plan of --verify-boot on synthetic affected ranges —
 * which releases it boots, that it stays within its budget, keeps both
 * ends and spreads the rest over the series.
 */
#include <stdlib.h>

#include "check.h"
#include "patchver/lab/plan.h"

/* nseries series of per releases each (7 rcs and a final, say), in order */
static struct plan_release *range(size_t nseries, size_t per, size_t *n)
{
	struct plan_release *r = calloc(nseries * per, sizeof(*r));

	*n = nseries * per;
	for (size_t i = 0; i < *n; i++)
		r[i].series = (int)(i / per);
	return r;
}

static size_t count(const enum plan_reason *why, size_t n, enum plan_reason of)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += why[i] == of;
	return k;
}

/* a long range (25 series of 8, the d9e80b7de91 case): 11 pairs from 200 */
static void long_range(void)
{
	size_t n, kept, last = 0, biggest_gap = 0;
	struct plan_release *r = range(25, 8, &n);
	enum plan_reason *why = calloc(n, sizeof(*why));

	kept = plan_pick(r, n, 11, why);
	CHECK(kept == 11);
	CHECK(n - count(why, n, PLAN_LEFT_OUT) == 11);
	CHECK(why[0] == PLAN_FIRST);
	CHECK(why[n - 1] == PLAN_NEWEST);
	for (size_t i = 1; i < n - 1; i++) {
		if (why[i] == PLAN_LEFT_OUT)
			continue;
		/* the others end their series (a final, or the newest stable tag) */
		CHECK(r[i].series != r[i + 1].series);
		if ((size_t)r[i].series - last > biggest_gap)
			biggest_gap = (size_t)r[i].series - last;
		last = (size_t)r[i].series;
	}
	if (24 - last > biggest_gap)
		biggest_gap = 24 - last;
	/* 25 series, 11 kept: spread evenly, no gap of more than 3 series */
	CHECK(biggest_gap <= 3);
	/* two pairs: the ends only */
	CHECK(plan_pick(r, n, 2, why) == 2);
	CHECK(why[0] == PLAN_FIRST && why[n - 1] == PLAN_NEWEST);
	CHECK(count(why, n, PLAN_LEFT_OUT) == n - 2);
	/* one pair: the first affected release */
	CHECK(plan_pick(r, n, 1, why) == 1);
	CHECK(why[0] == PLAN_FIRST && why[n - 1] == PLAN_LEFT_OUT);
	free(why);
	free(r);
}

/* room for everything the plan wants: each series' end and the first */
static void short_range(void)
{
	size_t n;
	struct plan_release *r = range(3, 4, &n);
	enum plan_reason *why = calloc(n, sizeof(*why));

	CHECK(plan_pick(r, n, 24, why) == 4);
	CHECK(why[0] == PLAN_FIRST);
	CHECK(why[3] == PLAN_SERIES_END && why[7] == PLAN_SERIES_END);
	CHECK(why[11] == PLAN_NEWEST);
	CHECK(count(why, n, PLAN_LEFT_OUT) == 8);
	free(why);
	free(r);
	/* one release: first and newest at once, kept as first */
	r = range(1, 1, &n);
	why = calloc(n, sizeof(*why));
	CHECK(plan_pick(r, n, 5, why) == 1);
	CHECK(why[0] == PLAN_FIRST);
	free(why);
	free(r);
}

static void budget(void)
{
	bool control = true, fixed = true;

	CHECK(plan_budget(24, &control, &fixed) == 11 && control && fixed);
	CHECK(plan_budget(4, &control, &fixed) == 1 && control && fixed);
	/* three states: the control stays, the first release with the fix goes */
	CHECK(plan_budget(3, &control, &fixed) == 1 && control && !fixed);
	control = fixed = true;
	CHECK(plan_budget(2, &control, &fixed) == 1 && !control && !fixed);
	control = false, fixed = true;
	CHECK(plan_budget(24, &control, &fixed) == 11 && !control && fixed);
}

int main(void)
{
	long_range();
	short_range();
	budget();
	return check_done();
}
