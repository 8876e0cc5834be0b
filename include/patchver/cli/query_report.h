#ifndef PATCHVER_CLI_QUERY_REPORT_H
#define PATCHVER_CLI_QUERY_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "patchver/base/json.h"
#include "patchver/base/util.h"
#include "patchver/engine/query.h"
#include "patchver/engine/quick.h"
#include "patchver/engine/tags.h"

/*
 * The query's report: one rev's answer (engine/query.h) printed, text or
 * JSON, whichever source answered it -- the release index here, in the
 * front, or the history (query_history.h).
 * Nothing here needs libgit2, so the quick path's front links it.
 */
/* What a query asks: "where is this commit?", in the output a mode asks for. */
enum report_mode {
	REPORT_FULL,            /* first release, describe, name-rev, stable */
	REPORT_DESCRIBE,        /* git describe --contains */
	REPORT_NAME_REV,        /* git name-rev --tags --name-only */
	REPORT_TAGS,            /* every containing release tag */
	REPORT_FIRST,           /* only the first release (all revs at once: one walk) */
};

struct report_opts {
	enum report_mode mode;
	bool json;
	const char *match;      /* --match: also limits describe's tags, as git */
};

/* What the printing needs: the tags the answers index, the mode, the exit code. */
struct reporter {
	const struct tag_table *tags;
	const struct report_opts *opts;
	int ret;                    /* the first EXIT_* code met */
};

/* What a mode asks the query to compute (engine/query.h's QUERY_*). */
unsigned report_wants(enum report_mode m);

/*
 * Print one answer (j: the JSON document, with --json).  Returns false when
 * output must stop, as git describe --contains dies at the first commit it
 * cannot describe.
 */
bool answer_emit(struct reporter *r, struct json *j, const struct answer *a);

/*
 * The revs answered from a fresh release index alone (quick.h), text
 * output: the exit code, or PV_EDECLINED when the index declines a rev (then
 * nothing is printed; quick_why() says why).
 */
int report_quick(struct quick *q, const struct report_opts *opts,
		 const char **revs, size_t nrevs);

#endif
