#ifndef PATCHVER_ENGINE_QUERY_H
#define PATCHVER_ENGINE_QUERY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <git2/oid.h>
#include <git2/types.h>  /* types only: the front includes this */

#include "patchver/base/util.h"
#include "patchver/engine/backmap.h"
#include "patchver/engine/revs.h"
#include "patchver/engine/tags.h"

/*
 * "Where is this commit?": one rev's answer, computed one way whichever
 * source answers -- the release index alone (the front, without libgit2)
 * or the history parsed through libgit2.  A source is a set of lookups;
 * the order of the questions and what each answer holds live here only.
 */

/* What to compute (cli/ maps its report modes to these). */
enum query_want {
	QUERY_FIRST_ONLY = 1 << 0,  /* the first release, nothing else (one walk for all revs) */
	QUERY_DESCRIBE = 1 << 1,    /* git describe --contains */
	QUERY_NAME_REV = 1 << 2,    /* git name-rev --tags: a tag object by its ref */
	QUERY_RELEASES = 1 << 3,    /* the subject, and every containing release */
	QUERY_STABLE = 1 << 4,      /* the upstream commit it names; the stable lines' backports of it */
};

/* A stable commit carrying the answer's commit (backmap.h). */
struct answer_backport {
	git_oid commit;
	uint32_t tag;               /* its first stable tag */
	bool reverted;
	git_oid revert;
	uint32_t revert_tag;        /* PV_NONE: on a branch, in no tag yet */
	bool by_patchid;            /* it names no upstream commit: found by patch-id */
};

struct answer {
	struct rev rev;
	int err;                    /* the failure (a PV_E* code; cli/ keeps its exit code), 0 if none */
	char *subject;
	bool has_describe, has_name;
	struct sbuf describe, name;
	uint32_t *releases;         /* containing releases, version order */
	size_t nreleases;
	uint32_t first_release, first_final;
	bool backport;              /* message names an upstream commit */
	char upstream_hex[41];
	uint32_t upstream;          /* that commit, if the source has it */
	git_oid upstream_oid;       /* its id, when it has */
	uint32_t upstream_first;
	struct answer_backport *backports;  /* the stable lines' backports of it */
	size_t nbackports;
};

/*
 * The lookups of a source.  Each returns 0, or a negative code: a PV_E*
 * failure the answer keeps, or the index's "cannot tell" (its caller then
 * asks the history).  self is the source's own state.
 */
struct query_source {
	const struct tag_table *tags;
	void *self;
	/* spec to a commit (rev->type: what spec names, a tag object say) */
	int (*resolve)(void *self, const char *spec, struct rev *rev);
	int (*first_release)(void *self, uint32_t commit, uint32_t *tag);
	/* the commit's name, git describe --contains's: *named false when it has none */
	int (*name)(void *self, uint32_t commit, struct sbuf *out, bool *named);
	/* a tag object's name-rev: its ref */
	int (*tag_name)(void *self, const struct rev *rev, struct sbuf *out, bool *named);
	/* the commit's message (*msg NULL: none); caller frees */
	int (*message)(void *self, uint32_t commit, char **msg);
	/* the tags containing commit; caller frees *tags */
	int (*containing)(void *self, uint32_t commit, uint32_t **tags, size_t *n);
	/* the stable lines' backports of commit (*n 0: none), their ids in oids */
	int (*backports)(void *self, uint32_t commit, const struct backport **b, size_t *n,
			 const git_oid **oids);
	/* *yes: stable commit carries upstream by patch-id (backmap.h's note) */
	int (*by_patchid)(void *self, uint32_t stable, uint32_t upstream, bool *yes);
	/* the commit an upstream id names (PV_NONE: absent), its id and first release */
	int (*upstream)(void *self, const char *hex, uint32_t *commit, git_oid *oid,
			uint32_t *first);
};

/* Compute spec's answer into *a (freed with answer_free).  0 or a's err. */
int query_answer(const struct query_source *src, unsigned want, const char *spec,
		 struct answer *a);
void answer_free(struct answer *a);

#endif
