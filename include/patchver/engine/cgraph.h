#ifndef PATCHVER_ENGINE_CGRAPH_H
#define PATCHVER_ENGINE_CGRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <git2/oid.h>
#include <git2/types.h>  /* types only: the front never calls libgit2 */

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
	const unsigned char *cdat;     /* CDAT: tree, two parents, generation and date */
	const unsigned char *edges;    /* EDGE: the further parents of octopus merges */
	size_t nedges;
	const unsigned char *bidx;     /* BIDX: end of each commit's filter in BDAT */
	const unsigned char *bdat;     /* BDAT: changed-path Bloom filters, after the header */
	size_t bdat_size;
	uint32_t num_hashes;
	uint32_t nr;
	uint32_t base;                 /* positions of the files before it in the chain */
};

struct cgraph {
	struct cgraph_file *files;
	size_t nfiles;
};

void cgraph_close(struct cgraph *g);

/* The graph of an object directory or its alternates, config unread. */
void cgraph_open_objdir(struct cgraph *g, const char *objdir);

static inline bool cgraph_present(const struct cgraph *g) { return g->nfiles > 0; }

/* How many commits the graph holds. */
size_t cgraph_commits(const struct cgraph *g);

/* Does the graph hold this commit? */
bool cgraph_contains(const struct cgraph *g, const git_oid *oid);

/*
 * The header of the commit at position pos, without reading the object:
 * tree, parents' positions (up to max; *nparents may exceed it), committer
 * date.  False when pos is out of the graph or its entry is damaged.
 * Walks keep the positions they are given: looking a commit up by id is a
 * binary search over every id of the graph.
 */
bool cgraph_commit_at(const struct cgraph *g, uint32_t pos, git_oid *tree,
		      uint32_t *parents, size_t max, size_t *nparents, int64_t *date);

/* The id of the commit at position pos; false when pos is out of the graph. */
bool cgraph_oid_at(const struct cgraph *g, uint32_t pos, git_oid *out);

/* cgraph_level() of the commit at position pos (PV_NONE: none there). */
uint32_t cgraph_level_at(const struct cgraph *g, uint32_t pos);

/*
 * The commit's topological level in the graph (CDAT's generation number v1:
 * one more than its highest parent's), PV_NONE when the graph lacks it.
 * A commit's ancestors all have lower levels.
 */
uint32_t cgraph_level(const struct cgraph *g, const git_oid *oid);

/* The commit's chain-wide position in the graph, PV_NONE when it lacks it. */
uint32_t cgraph_pos(const struct cgraph *g, const git_oid *oid);

/* A commit the walk has opened: its parents are parents[first .. first + np). */
struct cgraph_frame {
	uint32_t commit, first;
	uint8_t np, next;       /* parents, and the next one to ask */
};

/*
 * "Does this commit contain the target?" over graph positions alone, as
 * git's tag --contains walks: parents and levels from CDAT, no object and
 * no hash table, cut at the target's level, every answer remembered, so
 * asking it of every tag costs one walk of what lies above the target.
 */
struct cgraph_reach {
	const struct cgraph *g;
	uint32_t target, level, total;
	unsigned char *state;       /* per position: unseen, open, no, yes */
	struct cgraph_frame *frames;
	size_t nframes, frames_alloc;
	uint32_t *parents;          /* the open commits' parents */
	size_t nparents, parents_alloc;
	bool broken;                /* the graph lies: callers must not trust it */
};

void cgraph_reach_init(struct cgraph_reach *r, const struct cgraph *g, uint32_t target);
/* 1: from contains the target; 0: it does not; PV_ECORRUPT: the graph is damaged. */
int cgraph_reaches(struct cgraph_reach *r, uint32_t from);
void cgraph_reach_free(struct cgraph_reach *r);

/*
 * git's changed-path Bloom filters (`git commit-graph write --changed-paths`):
 * which paths a commit's first-parent diff changed, as a filter that may
 * answer "maybe" for a path it did not change, never "no" for one it did.
 * A key holds git's two murmur3 hashes of the path and of each leading
 * directory, all of which must be in a filter for "maybe".
 */
struct cgraph_path_key {
	uint32_t (*h)[2];
	size_t n;
};

void cgraph_path_key_init(struct cgraph_path_key *k, const char *path);
void cgraph_path_key_free(struct cgraph_path_key *k);

/* 0: commit surely did not change the path; 1: maybe; -1: no filter for it. */
int cgraph_maybe_changed(const struct cgraph *g, const git_oid *commit,
			 const struct cgraph_path_key *k);

#endif
