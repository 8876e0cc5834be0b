#ifndef PATCHVER_RENDER_H
#define PATCHVER_RENDER_H

#include <stdbool.h>
#include <stdint.h>

#include "patchver/base/json.h"
#include "patchver/base/util.h"
#include "patchver/engine/backmap.h"
#include "patchver/engine/revs.h"
#include "patchver/engine/tags.h"

/*
 * One rev's answer and its printing, text or JSON, whichever path computed
 * it: report.c from the history, quick_report.c from the release index.
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

/* A stable commit carrying the answer's commit (backmap.h). */
struct answer_backport {
	git_oid commit;
	uint32_t tag;               /* its first stable tag */
	bool reverted;
	git_oid revert;
	uint32_t revert_tag;        /* PV_NONE: on a branch, in no tag yet */
};

struct answer {
	struct rev rev;
	int err;                    /* EXIT_* from resolving, 0 if resolved */
	char *subject;
	bool has_describe, has_name;
	struct sbuf describe, name;
	uint32_t *releases;         /* containing releases, version order */
	size_t nreleases;
	uint32_t first_release, first_final;
	bool backport;              /* message names an upstream commit */
	char upstream_hex[41];
	uint32_t upstream;          /* that commit, if it is in the repository */
	git_oid upstream_oid;       /* its id, when it is */
	uint32_t upstream_first;
	struct answer_backport *backports;  /* the stable lines' backports of it */
	size_t nbackports;
};

/* What the printing needs: the tags the answers index, the mode, the exit code. */
struct reporter {
	const struct tag_table *tags;
	const struct report_opts *opts;
	int ret;                    /* the first EXIT_* code met */
};

/* Does the mode list containing releases (the full report, --tags-containing)? */
bool report_wants_contain(enum report_mode m);

/* The releases among tags (containing tags; freed here), first and first final. */
void answer_set_releases(const struct tag_table *t, uint32_t *tags, size_t ntags,
			 struct answer *a);
void answer_free(struct answer *a);

/* a's commit's backports: the n from b (oids: the ids of their dense ids). */
void answer_set_backports(struct answer *a, const struct backport *b, size_t n,
			  const git_oid *oids);

/*
 * Print one answer (j: the JSON document, with --json).  Returns false when
 * output must stop, as git describe --contains dies at the first commit it
 * cannot describe.
 */
bool answer_emit(struct reporter *r, struct json *j, const struct answer *a);

#endif
