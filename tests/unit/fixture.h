#ifndef PATCHVER_TESTS_FIXTURE_H
#define PATCHVER_TESTS_FIXTURE_H

/*
 * A fixture history opened for a unit test, without an index (nothing is
 * written to any cache): whole, or lazily as a few-rev query opens it.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/base/error.h"
#include "patchver/engine/gitstart.h"
#include "patchver/engine/history.h"

/* 0, or -1 with the reason on stderr. */
static inline int fixture_open(struct history *h, const char *path, bool lazy)
{
	struct history_opts opts = { 0 };

	opts.path = path;
	opts.release_glob = "v[0-9]*";
	opts.index = HISTORY_INDEX_OFF;
	opts.lazy_ok = lazy;
	if (history_open(h, &opts) == 0)
		return 0;
	fprintf(stderr, "cannot open %s: %s\n", path, pv_error_last()->message);
	return -1;
}

/*
 * main() of a test run over REPO [STEP]: run(repo, lazy, step) on the
 * whole history, then on a lazy one.  Returns main's exit code.
 */
static inline int fixture_main(int argc, char **argv, const char *usage,
			       int (*run)(const char *repo, bool lazy, uint32_t step))
{
	uint32_t step = argc > 2 ? (uint32_t)atoi(argv[2]) : 1;
	int ret;

	if (argc < 2 || !step) {
		fprintf(stderr, "usage: %s\n", usage);
		return 2;
	}
	gitstart_init();
	ret = run(argv[1], false, step) < 0 || run(argv[1], true, step) < 0 ? 2 : check_done();
	gitstart_shutdown();
	return ret;
}

/* The index of the tag called name: a fixture without it cannot run the test. */
static inline uint32_t fixture_tag(const struct history *h, const char *name)
{
	for (uint32_t i = 0; i < h->tags.nr; i++)
		if (!strcmp(h->tags.v[i].shortname, name))
			return i;
	fprintf(stderr, "no tag %s in the fixture\n", name);
	exit(2);
}

/*
 * main() of a test over one whole history (REPO): opened into *h, then
 * run(), then the checks' verdict.  Returns main's exit code.
 */
static inline int fixture_main_whole(int argc, char **argv, const char *usage,
				     struct history *h, void (*run)(void))
{
	int ret;

	if (argc < 2) {
		fprintf(stderr, "usage: %s\n", usage);
		return 2;
	}
	gitstart_init();
	if (fixture_open(h, argv[1], false) < 0)
		return 2;
	run();
	history_close(h);
	ret = check_done();
	gitstart_shutdown();
	return ret;
}

#endif
