/*
 * Commit-graph file reading (format: git's gitformat-commit-graph).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "patchver/base/error.h"
#include "patchver/base/util.h"
#include "patchver/engine/cgraph.h"
#include "patchver/engine/oid.h"

#define CDAT_WIDTH (GIT_OID_RAWSZ + 16)
#define NO_PARENT 0x70000000u
#define EXTRA_EDGES 0x80000000u

/* Map and validate one graph file; false if git would reject it too. */
static bool open_file(struct cgraph_file *f, const char *path)
{
	struct stat st;
	unsigned nchunks;
	int fd = open(path, O_RDONLY);

	memset(f, 0, sizeof(*f));
	if (fd < 0)
		return false;
	if (fstat(fd, &st) < 0 || st.st_size < 8 + 12 + 20) {
		close(fd);
		return false;
	}
	f->size = (size_t)st.st_size;
	f->map = mmap(NULL, f->size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (f->map == MAP_FAILED) {
		f->map = NULL;
		return false;
	}
	if (memcmp(f->map, "CGPH", 4) || f->map[4] != 1 || f->map[5] != 1)
		goto bad;
	nchunks = f->map[6];
	if (8 + (size_t)(nchunks + 1) * 12 > f->size)
		goto bad;
	for (unsigned i = 0; i < nchunks; i++) {
		const unsigned char *e = f->map + 8 + i * 12;
		uint64_t off = get_be64(e + 4);
		if (off >= f->size)
			goto bad;
		if (!memcmp(e, "OIDF", 4) && off + 1024 <= f->size)
			f->fanout = f->map + off;
		else if (!memcmp(e, "OIDL", 4))
			f->oids = f->map + off;
		else if (!memcmp(e, "CDAT", 4))
			f->cdat = f->map + off;
		else if (!memcmp(e, "BIDX", 4))
			f->bidx = f->map + off;
		else if (!memcmp(e, "BDAT", 4) && off + 12 <= f->size) {
			f->bdat = f->map + off;
			f->bdat_size = (size_t)(get_be64(e + 12 + 4) - off);
		} else if (!memcmp(e, "EDGE", 4)) {
			f->edges = f->map + off;
			f->nedges = (size_t)(get_be64(e + 12 + 4) - off) / 4;   /* up to the next chunk */
		}
	}
	if (!f->fanout || !f->oids)
		goto bad;
	f->nr = get_be32(f->fanout + 255 * 4);
	if ((size_t)(f->oids - f->map) + (size_t)f->nr * GIT_OID_RAWSZ > f->size)
		goto bad;
	if (f->cdat && (size_t)(f->cdat - f->map) + (size_t)f->nr * CDAT_WIDTH > f->size)
		f->cdat = NULL;   /* membership still counts; headers come from objects */
	if (f->edges && (size_t)(f->edges - f->map) + f->nedges * 4 > f->size)
		f->edges = NULL, f->nedges = 0;
	/* Bloom filters: git 2.39 writes version 1 (its murmur3 of signed chars) */
	if (f->bidx && (size_t)(f->bidx - f->map) + (size_t)f->nr * 4 > f->size)
		f->bidx = NULL;
	if (f->bdat && ((size_t)(f->bdat - f->map) + f->bdat_size > f->size ||
			f->bdat_size < 12 || get_be32(f->bdat) != 1 || !get_be32(f->bdat + 4)))
		f->bdat = NULL;
	if (f->bdat) {
		f->num_hashes = get_be32(f->bdat + 4);
		f->bdat += 12;
		f->bdat_size -= 12;
	}
	if (!f->bdat)
		f->bidx = NULL;
	return true;
bad:
	munmap((void *)f->map, f->size);
	memset(f, 0, sizeof(*f));
	return false;
}

static void add_file(struct cgraph *g, const char *path)
{
	struct cgraph_file f;

	if (!open_file(&f, path))
		return;
	f.base = g->nfiles ? g->files[g->nfiles - 1].base + g->files[g->nfiles - 1].nr : 0;
	g->files = xrealloc(g->files, (g->nfiles + 1) * sizeof(f));
	g->files[g->nfiles++] = f;
}

static void open_chain(struct cgraph *g, const char *objdir)
{
	char line[128], *path;
	FILE *chain;

	path = xstrfmt("%s/info/commit-graphs/commit-graph-chain", objdir);
	chain = fopen(path, "r");
	free(path);
	if (!chain)
		return;
	while (fgets(line, sizeof(line), chain)) {
		line[strcspn(line, "\n")] = '\0';
		if (!*line)
			continue;
		path = xstrfmt("%s/info/commit-graphs/graph-%s.graph", objdir, line);
		add_file(g, path);
		free(path);
	}
	fclose(chain);
}

/*
 * The graph of objdir, else of its alternates in order, as git's
 * prepare_commit_graph() takes the first object directory that has one.
 */
static void open_objdir_at(struct cgraph *g, const char *objdir, int depth)
{
	char line[2048], *path;
	FILE *f;

	/* paths on the heap: an alternate's path may be as long as a line */
	path = xstrfmt("%s/info/commit-graph", objdir);
	add_file(g, path);
	free(path);
	if (!g->nfiles)
		open_chain(g, objdir);
	path = xstrfmt("%s/info/alternates", objdir);
	f = g->nfiles || depth >= 5 ? NULL : fopen(path, "r");
	free(path);
	if (!f)
		return;
	while (!g->nfiles && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!*line || *line == '#')
			continue;
		path = *line == '/' ? xstrdup(line) : xstrfmt("%s/%s", objdir, line);
		open_objdir_at(g, path, depth + 1);
		free(path);
	}
	fclose(f);
}

void cgraph_open_objdir(struct cgraph *g, const char *objdir)
{
	memset(g, 0, sizeof(*g));
	open_objdir_at(g, objdir, 0);
}

size_t cgraph_commits(const struct cgraph *g)
{
	size_t n = 0;

	for (size_t i = 0; i < g->nfiles; i++)
		n += g->files[i].nr;
	return n;
}

void cgraph_close(struct cgraph *g)
{
	for (size_t i = 0; i < g->nfiles; i++)
		munmap((void *)g->files[i].map, g->files[i].size);
	free(g->files);
	memset(g, 0, sizeof(*g));
}

/* Position of oid in f, or PV_NONE. */
static uint32_t file_find(const struct cgraph_file *f, const git_oid *oid)
{
	return oid_table_find(f->fanout, f->oids, f->nr, oid->id);
}

bool cgraph_contains(const struct cgraph *g, const git_oid *oid)
{
	for (size_t i = 0; i < g->nfiles; i++)
		if (file_find(&g->files[i], oid) != PV_NONE)
			return true;
	return false;
}

uint32_t cgraph_pos(const struct cgraph *g, const git_oid *oid)
{
	for (size_t i = 0; i < g->nfiles; i++) {
		uint32_t at = g->files[i].cdat ? file_find(&g->files[i], oid) : PV_NONE;
		if (at != PV_NONE)
			return g->files[i].base + at;
	}
	return PV_NONE;
}

/* CDAT of a chain-wide position, and the file it is in; NULL if none. */
static const unsigned char *entry_at(const struct cgraph *g, uint32_t pos,
				     const struct cgraph_file **file)
{
	for (size_t i = 0; i < g->nfiles; i++) {
		const struct cgraph_file *f = &g->files[i];
		if (f->cdat && pos >= f->base && pos < f->base + f->nr) {
			*file = f;
			return f->cdat + (size_t)(pos - f->base) * CDAT_WIDTH;
		}
	}
	return NULL;
}

/*
 * The parents of pos (chain-wide positions), at most max stored; returns
 * how many it has (maybe more than max), -1 when the graph is damaged.
 */
static int parents_at(const struct cgraph *g, uint32_t pos, uint32_t *out, size_t max,
		      uint32_t *level)
{
	const struct cgraph_file *f;
	const unsigned char *e = entry_at(g, pos, &f);
	uint32_t p1, p2;
	size_t n = 0;

	if (!e)
		return -1;
	p1 = get_be32(e + GIT_OID_RAWSZ);
	p2 = get_be32(e + GIT_OID_RAWSZ + 4);
	*level = get_be32(e + GIT_OID_RAWSZ + 8) >> 2;
	if (p1 != NO_PARENT && n++ < max)
		out[n - 1] = p1;
	if (p2 == NO_PARENT)
		return (int)n;
	if (!(p2 & EXTRA_EDGES)) {
		if (n++ < max)
			out[n - 1] = p2;
		return (int)n;
	}
	/* an octopus: its other parents are listed in EDGE, the last one flagged */
	for (size_t k = p2 & ~EXTRA_EDGES; f->edges && k < f->nedges; k++) {
		uint32_t edge = get_be32(f->edges + k * 4);
		if (n++ < max)
			out[n - 1] = edge & ~EXTRA_EDGES;
		if (edge & EXTRA_EDGES)
			return (int)n;
	}
	return -1;
}

enum { UNSEEN, OPEN, NO, YES };

void cgraph_reach_init(struct cgraph_reach *r, const struct cgraph *g, uint32_t target)
{
	uint32_t parents[64];

	memset(r, 0, sizeof(*r));
	r->g = g;
	r->target = target;
	r->total = (uint32_t)cgraph_commits(g);
	r->state = xcalloc((size_t)r->total + 1, 1);
	if (target >= r->total || parents_at(g, target, parents, 64, &r->level) < 0)
		r->broken = true;
}

void cgraph_reach_free(struct cgraph_reach *r)
{
	free(r->state);
	free(r->frames);
	free(r->parents);
	memset(r, 0, sizeof(*r));
}

/*
 * Open v: push a frame with its parents, unless its fate is known without
 * them (the target; at or below the target's level, where no descendant
 * of it can be).  Returns v's state.
 */
static int open_commit(struct cgraph_reach *r, uint32_t v)
{
	uint32_t parents[64], level;
	int np;

	if (v == r->target)
		return YES;
	np = parents_at(r->g, v, parents, 64, &level);
	if (np < 0 || np > 64)
		return r->broken = true, NO;
	if (level <= r->level)
		return NO;
	for (int k = 0; k < np; k++)
		if (parents[k] >= r->total)
			return r->broken = true, NO;
	r->frames = xgrow(r->frames, &r->frames_alloc, r->nframes + 1, sizeof(*r->frames));
	r->frames[r->nframes++] = (struct cgraph_frame){ v, (uint32_t)r->nparents, (uint8_t)np, 0 };
	r->parents = xgrow(r->parents, &r->parents_alloc, r->nparents + np, sizeof(*r->parents));
	memcpy(r->parents + r->nparents, parents, np * sizeof(*parents));
	r->nparents += np;
	return OPEN;
}

static void close_commit(struct cgraph_reach *r, int fate)
{
	struct cgraph_frame *f = &r->frames[--r->nframes];

	r->state[f->commit] = (uint8_t)fate;
	r->nparents = f->first;
}

/*
 * git's contains_tag_algo (commit-reach.c): depth first, one parent at a
 * time, and a commit contains the target as soon as one parent does, so
 * its other parents (a merged branch's whole side history) are never
 * walked.  Fates are kept over all calls.
 */
static int damaged(void)
{
	return pv_error_set(PV_ECORRUPT, "the commit-graph is damaged (a cycle, or a parent "
			    "out of range)");
}

int cgraph_reaches(struct cgraph_reach *r, uint32_t from)
{
	if (r->broken || from >= r->total)
		return damaged();
	if (r->state[from] == UNSEEN)
		r->state[from] = (uint8_t)open_commit(r, from);
	while (r->nframes && !r->broken) {
		struct cgraph_frame *f = &r->frames[r->nframes - 1];
		uint32_t p;

		if (f->next == f->np) {
			close_commit(r, NO);
			continue;
		}
		p = r->parents[f->first + f->next];
		switch (r->state[p]) {
		case YES:
			close_commit(r, YES);
			break;
		case NO:
			f->next++;
			break;
		case OPEN:   /* a parent on the walk's own path: a cycle */
			r->broken = true;
			break;
		default:
			r->state[p] = (uint8_t)open_commit(r, p);
			break;
		}
	}
	if (r->broken)
		return damaged();
	return r->state[from] == YES;
}

bool cgraph_oid_at(const struct cgraph *g, uint32_t pos, git_oid *out)
{
	for (size_t i = 0; i < g->nfiles; i++) {
		const struct cgraph_file *f = &g->files[i];
		if (pos >= f->base && pos < f->base + f->nr) {
			/* a plain copy: git_oid_fromraw() costs a call per parent */
			memcpy(out->id, f->oids + (size_t)(pos - f->base) * GIT_OID_RAWSZ, GIT_OID_RAWSZ);
			return true;
		}
	}
	return false;
}

bool cgraph_commit_at(const struct cgraph *g, uint32_t pos, git_oid *tree,
		      uint32_t *parents, size_t max, size_t *nparents, int64_t *date)
{
	uint32_t level;
	const struct cgraph_file *f;
	const unsigned char *e = entry_at(g, pos, &f);
	int np = e ? parents_at(g, pos, parents, max, &level) : -1;

	if (np < 0)
		return false;
	memcpy(tree->id, e, GIT_OID_RAWSZ);
	*date = (int64_t)(get_be64(e + GIT_OID_RAWSZ + 8) & 0x3ffffffffULL);
	*nparents = (size_t)np;
	return true;
}

uint32_t cgraph_level_at(const struct cgraph *g, uint32_t pos)
{
	const struct cgraph_file *f;
	const unsigned char *e = pos == PV_NONE ? NULL : entry_at(g, pos, &f);

	return e ? get_be32(e + GIT_OID_RAWSZ + 8) >> 2 : PV_NONE;
}

uint32_t cgraph_level(const struct cgraph *g, const git_oid *oid)
{
	return cgraph_level_at(g, cgraph_pos(g, oid));
}

/* git's murmur3_seeded (bloom.c, version 1 filters: chars are signed). */
static uint32_t murmur3_seeded(uint32_t seed, const char *data, size_t len)
{
	const uint32_t c1 = 0xcc9e2d51, c2 = 0x1b873593, m = 5, n = 0xe6546b64;
	size_t len4 = len / 4;
	uint32_t k, k1 = 0;
	const char *tail = data + len4 * 4;

	for (size_t i = 0; i < len4; i++) {
		k = (uint32_t)data[4 * i] | ((uint32_t)data[4 * i + 1] << 8) |
		    ((uint32_t)data[4 * i + 2] << 16) | ((uint32_t)data[4 * i + 3] << 24);
		k *= c1;
		k = k << 15 | k >> 17;
		k *= c2;
		seed ^= k;
		seed = (seed << 13 | seed >> 19) * m + n;
	}
	switch (len & 3) {
	case 3:
		k1 ^= (uint32_t)tail[2] << 16;
		/* fallthrough */
	case 2:
		k1 ^= (uint32_t)tail[1] << 8;
		/* fallthrough */
	case 1:
		k1 ^= (uint32_t)tail[0];
		k1 *= c1;
		k1 = k1 << 15 | k1 >> 17;
		k1 *= c2;
		seed ^= k1;
	}
	seed ^= (uint32_t)len;
	seed ^= seed >> 16;
	seed *= 0x85ebca6b;
	seed ^= seed >> 13;
	seed *= 0xc2b2ae35;
	seed ^= seed >> 16;
	return seed;
}

void cgraph_path_key_init(struct cgraph_path_key *k, const char *path)
{
	size_t len = strlen(path);

	k->n = 0;
	k->h = xmalloc((len + 1) * sizeof(*k->h));
	/* the path, then each leading directory, as git's revision.c asks */
	for (size_t end = len; end; ) {
		k->h[k->n][0] = murmur3_seeded(0x293ae76f, path, end);
		k->h[k->n][1] = murmur3_seeded(0x7e646e2c, path, end);
		k->n++;
		while (end && path[end - 1] != '/')
			end--;
		if (end)
			end--;
	}
}

void cgraph_path_key_free(struct cgraph_path_key *k)
{
	free(k->h);
	k->h = NULL;
	k->n = 0;
}

int cgraph_maybe_changed(const struct cgraph *g, const git_oid *commit,
			 const struct cgraph_path_key *k)
{
	for (size_t i = 0; i < g->nfiles; i++) {
		const struct cgraph_file *f = &g->files[i];
		uint32_t pos = file_find(f, commit), start, end;
		const unsigned char *filter;
		uint64_t bits;

		if (pos == PV_NONE)
			continue;
		if (!f->bidx)
			return -1;
		start = pos ? get_be32(f->bidx + (size_t)(pos - 1) * 4) : 0;
		end = get_be32(f->bidx + (size_t)pos * 4);
		if (end < start || end > f->bdat_size)
			return -1;
		if (end == start)
			return -1;      /* no filter computed for it */
		filter = f->bdat + start;
		bits = (uint64_t)(end - start) * 8;
		for (size_t key = 0; key < k->n; key++)
			for (uint32_t j = 0; j < f->num_hashes; j++) {
				uint64_t bit = (uint32_t)(k->h[key][0] + j * k->h[key][1]) % bits;
				if (!(filter[bit / 8] & (1u << (bit & 7))))
					return 0;
			}
		return 1;
	}
	return -1;
}
