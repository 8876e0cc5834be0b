#ifndef PATCHVER_CGRAPH_H
#define PATCHVER_CGRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <git2.h>

/*
 * git's commit-graph files (objects/info/commit-graph, or a split chain
 * under objects/info/commit-graphs/), read the way git 2.39 reads them.
 * Their presence changes git name-rev's cutoff from commit dates to
 * generation numbers, so patchver must know which commits they cover.
 */
struct cgraph_file {
	const unsigned char *map;
	size_t size;
	const unsigned char *fanout;   /* OIDF: 256 big-endian counts */
	const unsigned char *oids;     /* OIDL */
	uint32_t nr;
};

struct cgraph {
	struct cgraph_file *files;
	size_t nfiles;
};

/* Open the graph git would use (none if core.commitGraph is false). */
int cgraph_open(struct cgraph *g, git_repository *repo);
void cgraph_close(struct cgraph *g);

static inline bool cgraph_present(const struct cgraph *g) { return g->nfiles > 0; }

/* Does the graph hold this commit? */
bool cgraph_contains(const struct cgraph *g, const git_oid *oid);

#endif
