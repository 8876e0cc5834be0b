/*
 * Unit tests: the shape of the planned affected releases' answers
 * (lab/measure.c) — where boots and text agree, where the bug starts later
 * or stops earlier, and what is not measured (never, on the control,
 * non-monotonic, nothing booted).  States that did not run (-1) say nothing.
 */
#include "check.h"
#include "patchver/lab/measure.h"

static struct measure_shape shape(const int *seen, size_t n, int control)
{
	struct measure_shape s;

	measure_shape(seen, n, control, &s);
	return s;
}

int main(void)
{
	struct measure_shape s;

	s = shape((int[]){ 1, 1, 1 }, 3, 0);
	CHECK(s.kind == MEASURE_AGREE && s.first_bug == 0 && s.last_bug == 2);
	s = shape((int[]){ 0, 1, 1 }, 3, 0);
	CHECK(s.kind == MEASURE_BOUNDED && s.starts_later && !s.stops_earlier && s.first_bug == 1);
	s = shape((int[]){ 1, 1, 0 }, 3, -1);
	CHECK(s.kind == MEASURE_BOUNDED && !s.starts_later && s.stops_earlier && s.last_bug == 1);
	s = shape((int[]){ 0, 1, 0 }, 3, 0);
	CHECK(s.kind == MEASURE_BOUNDED && s.starts_later && s.stops_earlier);
	/* shows, stops, shows again */
	s = shape((int[]){ 1, 0, 1 }, 3, 0);
	CHECK(s.kind == MEASURE_NON_MONOTONIC);
	s = shape((int[]){ 0, 1, 0, 1 }, 4, 0);
	CHECK(s.kind == MEASURE_NON_MONOTONIC);
	s = shape((int[]){ 0, 0 }, 2, 0);
	CHECK(s.kind == MEASURE_NEVER);
	/* the control shows it too: before anything else */
	s = shape((int[]){ 1, 1 }, 2, 1);
	CHECK(s.kind == MEASURE_CONTROL);
	s = shape((int[]){ -1, -1 }, 2, 0);
	CHECK(s.kind == MEASURE_NOTHING_BOOTED);
	s = shape(NULL, 0, 0);
	CHECK(s.kind == MEASURE_NOTHING_BOOTED);
	/* a state that did not build is no answer: neither a start nor a gap */
	s = shape((int[]){ -1, 1, 1 }, 3, 0);
	CHECK(s.kind == MEASURE_AGREE && s.first_bug == 1);
	s = shape((int[]){ 0, -1, 1 }, 3, 0);
	CHECK(s.kind == MEASURE_BOUNDED && s.starts_later && s.first_bug == 2);
	s = shape((int[]){ 1, -1, 1 }, 3, 0);
	CHECK(s.kind == MEASURE_AGREE);
	return check_done();
}
