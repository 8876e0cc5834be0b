/*
 * Commit DAG with dense indices, loaded straight from the object database.
 *
 * Commits are read from the object files (objstore.h, libgit2's
 * git_odb_read where it cannot) and only their header is parsed:
 * parents and the committer date are all a reachability or naming walk
 * needs, and skipping git_commit's full parse (and libgit2's object cache)
 * is what makes loading a kernel-size history affordable.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "patchver/base/error.h"
#include "patchver/base/util.h"
#include "patchver/engine/cgraph.h"
#include "patchver/engine/dag.h"
#include "patchver/engine/gitstart.h"
#include "patchver/engine/objstore.h"

static void rehash(struct dag *dag, size_t nslots)
{
	uint32_t *slots = xcalloc(nslots, sizeof(*slots));

	for (uint32_t i = 0; i < dag->nr; i++) {
		size_t s = dag_slot_of(dag->oids[i].id, nslots);
		while (slots[s])
			s = (s + 1) & (nslots - 1);
		slots[s] = i + 1;
	}
	free(dag->slots);
	dag->slots = slots;
	dag->nslots = nslots;
}

static void read_shallow(struct dag *dag, git_repository *repo)
{
	char path[4096], line[128];
	FILE *f;

	snprintf(path, sizeof(path), "%sshallow", git_repository_commondir(repo));
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		git_oid oid;
		if (git_oid_fromstrn(&oid, line, GIT_OID_HEXSZ) < 0)
			continue;
		dag->shallow = xrealloc(dag->shallow,
					(dag->shallow_nr + 1) * sizeof(git_oid));
		dag->shallow[dag->shallow_nr++] = oid;
	}
	fclose(f);
}

int dag_init(struct dag *dag, git_repository *repo)
{
	int ret;

	memset(dag, 0, sizeof(*dag));
	if (git_repository_odb(&dag->odb, repo) < 0)
		return pv_error_set(PV_ENOREPO, "%s", git_errmsg());
	rehash(dag, 1024);
	read_shallow(dag, repo);
	if ((ret = replace_map_load(&dag->replaced, repo)))
		return ret;
	/* where git keeps the objects, unless the environment says elsewhere */
	if (!getenv("GIT_OBJECT_DIRECTORY") && !getenv("GIT_ALTERNATE_OBJECT_DIRECTORIES"))
		dag->objdir = xstrfmt("%sobjects", git_repository_commondir(repo));
	return 0;
}

void dag_borrow(struct dag *dag, const struct dag_arrays *a)
{
	free(dag->slots);
	dag->borrowed = true;
	dag->nr = dag->alloc = a->nr;
	dag->oids = (git_oid *)a->oids;
	dag->dates = (int64_t *)a->dates;
	dag->trees = (git_oid *)a->trees;
	dag->topmask = a->topmask;
	dag->topmask_nr = a->topmask ? a->nr : 0;
	dag->par_off = (uint32_t *)a->par_off;
	dag->par_nr = (uint16_t *)a->par_nr;
	dag->parents = (uint32_t *)a->parents;
	dag->parents_nr = dag->parents_alloc = a->nparents;
	dag->slots = (uint32_t *)a->slots;
	dag->nslots = a->nslots;
	dag->loaded = xmalloc((size_t)a->nr + 1);
	memset(dag->loaded, 1, a->nr);
}

void dag_arrays(const struct dag *dag, struct dag_arrays *a)
{
	a->nr = dag->nr;
	a->oids = dag->oids;
	a->dates = dag->dates;
	a->trees = dag->trees;
	a->topmask = dag->topmask_nr == dag->nr ? dag->topmask : NULL;
	a->par_off = dag->par_off;
	a->par_nr = dag->par_nr;
	a->parents = dag->parents;
	a->nparents = dag->parents_nr;
	a->slots = dag->slots;
	a->nslots = dag->nslots;
}

static void *copy_of(const void *p, size_t n, size_t alloc, size_t elem)
{
	void *q = xmalloc(alloc * elem + 1);

	prefault(q, n * elem);
	memcpy(q, p, n * elem);
	return q;
}

/* The borrowed arrays become the DAG's own, with room to grow. */
static void own(struct dag *dag)
{
	size_t n = dag->nr, alloc = n < 4096 ? 4096 : n * 2;

	dag->oids = copy_of(dag->oids, n, alloc, sizeof(*dag->oids));
	dag->dates = copy_of(dag->dates, n, alloc, sizeof(*dag->dates));
	dag->par_off = copy_of(dag->par_off, n, alloc, sizeof(*dag->par_off));
	dag->par_nr = copy_of(dag->par_nr, n, alloc, sizeof(*dag->par_nr));
	dag->loaded = xrealloc(dag->loaded, alloc);
	dag->trees = copy_of(dag->trees, n, alloc, sizeof(*dag->trees));
	dag->parents_alloc = dag->parents_nr * 2 + 8192;
	dag->parents = copy_of(dag->parents, dag->parents_nr, dag->parents_alloc,
			       sizeof(*dag->parents));
	dag->slots = copy_of(dag->slots, dag->nslots, dag->nslots, sizeof(*dag->slots));
	dag->alloc = (uint32_t)alloc;
	dag->borrowed = false;
}

void dag_free(struct dag *dag)
{
	git_odb_free(dag->odb);
	objstore_close(dag->store);
	free(dag->objdir);
	sbuf_free(&dag->buf);
	if (dag->borrowed) {
		dag->oids = NULL;
		dag->dates = NULL;
		dag->trees = NULL;
		dag->par_off = NULL;
		dag->par_nr = NULL;
		dag->parents = NULL;
		dag->slots = NULL;
	}
	free(dag->oids);
	free(dag->dates);
	free(dag->trees);
	free(dag->par_off);
	free(dag->par_nr);
	free(dag->loaded);
	free(dag->parents);
	free(dag->slots);
	free(dag->by_oid);
	free(dag->child_off);
	free(dag->children);
	free(dag->shallow);
	replace_map_free(&dag->replaced);
	free(dag->graph_pos);
	memset(dag, 0, sizeof(*dag));
}

uint32_t dag_find(const struct dag *dag, const git_oid *oid)
{
	size_t s = dag_slot_of(oid->id, dag->nslots);

	while (dag->slots[s]) {
		uint32_t i = dag->slots[s] - 1;
		if (!memcmp(dag->oids[i].id, oid->id, GIT_OID_RAWSZ))
			return i;
		s = (s + 1) & (dag->nslots - 1);
	}
	return PV_NONE;
}

/* Room for n commits in every per-commit array. */
static void grow_to(struct dag *dag, uint32_t n)
{
	dag->oids = xrealloc(dag->oids, n * sizeof(*dag->oids));
	dag->dates = xrealloc(dag->dates, n * sizeof(*dag->dates));
	dag->trees = xrealloc(dag->trees, n * sizeof(*dag->trees));
	dag->par_off = xrealloc(dag->par_off, n * sizeof(*dag->par_off));
	dag->par_nr = xrealloc(dag->par_nr, n * sizeof(*dag->par_nr));
	dag->loaded = xrealloc(dag->loaded, n * sizeof(*dag->loaded));
	dag->alloc = n;
}

static void grow(struct dag *dag)
{
	grow_to(dag, dag->alloc ? dag->alloc * 2 : 4096);
}

void dag_reserve(struct dag *dag, uint32_t n)
{
	size_t nslots = dag->nslots;

	if (dag->borrowed || n <= dag->alloc)
		return;
	while (nslots < (size_t)n * 2 + 2)
		nslots *= 2;
	if (nslots != dag->nslots)
		rehash(dag, nslots);
	grow_to(dag, n);
}

uint32_t dag_intern(struct dag *dag, const git_oid *oid)
{
	uint32_t i = dag_find(dag, oid);
	size_t s;

	if (i != PV_NONE)
		return i;
	if (dag->borrowed)
		own(dag);
	if (dag->nr == dag->alloc)
		grow(dag);
	if ((size_t)(dag->nr + 1) * 2 > dag->nslots)
		rehash(dag, dag->nslots * 2);
	i = dag->nr++;
	git_oid_cpy(&dag->oids[i], oid);
	dag->dates[i] = 0;
	dag->par_off[i] = 0;
	dag->par_nr[i] = 0;
	dag->loaded[i] = false;
	s = dag_slot_of(oid->id, dag->nslots);
	while (dag->slots[s])
		s = (s + 1) & (dag->nslots - 1);
	dag->slots[s] = i + 1;
	return i;
}

static bool is_shallow(const struct dag *dag, const git_oid *oid)
{
	for (size_t i = 0; i < dag->shallow_nr; i++)
		if (git_oid_equal(&dag->shallow[i], oid))
			return true;
	return false;
}

static void push_parent(struct dag *dag, uint32_t p)
{
	if (dag->parents_nr == dag->parents_alloc) {
		dag->parents_alloc = dag->parents_alloc ? dag->parents_alloc * 2 : 8192;
		dag->parents = xrealloc(dag->parents,
					dag->parents_alloc * sizeof(*dag->parents));
	}
	dag->parents[dag->parents_nr++] = p;
}

/*
 * The committer timestamp as git's parse_commit_date() reads it: the
 * number after the last '>' of the committer line; 0 when unreadable.
 */
static int64_t committer_date(const char *line, const char *end)
{
	const char *gt = NULL;

	for (const char *p = line; p < end; p++)
		if (*p == '>')
			gt = p;
	if (!gt)
		return 0;
	gt++;
	while (gt < end && *gt == ' ')
		gt++;
	return strtoll(gt, NULL, 10);
}

/* What graph_pos[] holds for a commit git's commit-graph lacks. */
#define NOT_IN_GRAPH PV_NONE

void dag_note_graph_pos(struct dag *dag, uint32_t idx, uint32_t pos)
{
	if (idx >= dag->graph_pos_nr) {
		uint32_t n = dag->alloc > idx ? dag->alloc : idx + 1;

		dag->graph_pos = xrealloc(dag->graph_pos, (size_t)n * sizeof(*dag->graph_pos));
		memset(dag->graph_pos + dag->graph_pos_nr, 0,
		       (size_t)(n - dag->graph_pos_nr) * sizeof(*dag->graph_pos));
		dag->graph_pos_nr = n;
	}
	dag->graph_pos[idx] = pos == PV_NONE ? NOT_IN_GRAPH : pos + 1;
}

uint32_t dag_graph_pos(struct dag *dag, uint32_t idx)
{
	uint32_t pos;

	if (!dag->graph || !cgraph_present(dag->graph))
		return PV_NONE;
	if (idx < dag->graph_pos_nr && dag->graph_pos[idx])
		return dag->graph_pos[idx] == NOT_IN_GRAPH ? PV_NONE : dag->graph_pos[idx] - 1;
	pos = cgraph_pos(dag->graph, &dag->oids[idx]);
	dag_note_graph_pos(dag, idx, pos);
	return pos;
}

/*
 * Commit idx's header from the commit-graph, as git takes it from there
 * (git ignores the graph in shallow repositories and with replace refs or
 * grafts, and so does this).
 */
static bool from_graph(struct dag *dag, uint32_t idx)
{
	git_oid tree, parents[64];
	uint32_t pos, ppos[64];
	size_t np;
	int64_t date;

	if (!dag->graph || dag->shallow_nr || replace_map_active(&dag->replaced) ||
	    (pos = dag_graph_pos(dag, idx)) == PV_NONE ||
	    !cgraph_commit_at(dag->graph, pos, &tree, ppos, 64, &np, &date) || np > 64)
		return false;
	for (size_t k = 0; k < np; k++)
		if (!cgraph_oid_at(dag->graph, ppos[k], &parents[k]))
			return false;
	dag->par_off[idx] = (uint32_t)dag->parents_nr;
	for (size_t k = 0; k < np; k++) {
		uint32_t pi = dag_intern(dag, &parents[k]);   /* may move the arrays */
		push_parent(dag, pi);
		dag->par_nr[idx]++;
		dag_note_graph_pos(dag, pi, ppos[k]);
	}
	dag->trees[idx] = tree;
	dag->dates[idx] = date;
	dag->loaded[idx] = true;
	return true;
}

/* A commit's header is this long but for merges and long names. */
#define HEADER_PREFIX 300
/*
 * Reads before the object files are read directly.  A history loaded from
 * the repository opens them with its first tag (tagload.c), so this counts
 * only for a history taken from a fresh release index: the few commits it
 * reads beyond the index go through libgit2's pack windows, which cost less
 * memory than a second mapping of the pack and its index (its faults map
 * 64 KiB each).
 */
#define STORE_AFTER 4096

/*
 * Commit idx's object, or as much of it as holds its header: from the
 * object files directly when they can say, else from libgit2 (*obj).
 */
static int read_commit(struct dag *dag, uint32_t idx, git_odb_object **obj,
		       const char **data, size_t *len)
{
	const git_oid *oid = replace_object(&dag->replaced, &dag->oids[idx]);

	if (!oid)
		return pv_error_set(PV_ECORRUPT, "replace depth too high for %s",
				    git_oid_tostr_s(&dag->oids[idx]));
	if (!dag->store_tried && ++dag->reads > STORE_AFTER)
		dag_store(dag);
	if (dag->store &&
	    objstore_read(dag->store, oid->id, HEADER_PREFIX, &dag->buf) ==
	    OBJSTORE_COMMIT &&
	    (memmem(dag->buf.buf, dag->buf.len, "\n\n", 2) || dag->buf.len < HEADER_PREFIX ||
	     objstore_read(dag->store, oid->id, 0, &dag->buf) == OBJSTORE_COMMIT)) {
		*data = dag->buf.buf;
		*len = dag->buf.len;
		return 0;
	}
	if (git_odb_read(obj, dag->odb, oid) < 0) {
		if (oid != &dag->oids[idx]) {
			char hex[GIT_OID_HEXSZ + 1], orig[GIT_OID_HEXSZ + 1];
			char *msg = xstrfmt("replacement %s not found for %s",
					    git_oid_tostr(hex, sizeof(hex), oid),
					    git_oid_tostr(orig, sizeof(orig), &dag->oids[idx]));
			git_error_set_str(GIT_ERROR_ODB, msg);
			free(msg);
		}
		return pv_error_set(PV_ECORRUPT, "%s", git_errmsg());
	}
	if (git_odb_object_type(*obj) != GIT_OBJECT_COMMIT) {
		git_error_set_str(GIT_ERROR_OBJECT, "object is not a commit");
		git_odb_object_free(*obj);
		return pv_error_set(PV_ECORRUPT, "object is not a commit");
	}
	*data = git_odb_object_data(*obj);
	*len = git_odb_object_size(*obj);
	return 0;
}

struct objstore *dag_store(struct dag *dag)
{
	if (!dag->store_tried) {
		dag->store_tried = true;
		if (dag->objdir)
			dag->store = objstore_open(dag->objdir);
	}
	return dag->store;
}

/*
 * Commit idx's header from its object's data; parents are interned, not
 * loaded.  A graft's parents stand for the header's, as git's
 * parse_commit_buffer() takes them; a shallow commit has none.
 */
static void parse_header(struct dag *dag, uint32_t idx, const char *p, const char *end)
{
	bool shallow = dag->shallow_nr && is_shallow(dag, &dag->oids[idx]);
	const struct graft *graft = replace_graft(&dag->replaced, &dag->oids[idx]);

	if (shallow)
		dag->hit_shallow = true;
	dag->par_off[idx] = (uint32_t)dag->parents_nr;
	while (p < end && *p != '\n') {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		if (!shallow && !graft && eol - p >= 7 + GIT_OID_HEXSZ &&
		    !memcmp(p, "parent ", 7)) {
			git_oid poid;
			if (git_oid_fromstrn(&poid, p + 7, GIT_OID_HEXSZ) == 0) {
				/* intern may move arrays; store the index only */
				uint32_t pi = dag_intern(dag, &poid);
				push_parent(dag, pi);
				dag->par_nr[idx]++;
			}
		} else if (eol - p >= 5 + GIT_OID_HEXSZ && !memcmp(p, "tree ", 5)) {
			git_oid_fromstrn(&dag->trees[idx], p + 5, GIT_OID_HEXSZ);
		} else if (eol - p > 10 && !memcmp(p, "committer ", 10)) {
			dag->dates[idx] = committer_date(p, eol);
		}
		p = eol + 1;
	}
	for (size_t k = 0; graft && !shallow && k < graft->nr; k++) {
		/* the graft lives in dag->replaced, which interning does not move */
		push_parent(dag, dag_intern(dag, &dag->replaced.parents[graft->first + k]));
		dag->par_nr[idx]++;
	}
	dag->loaded[idx] = true;
}

/* Parse commit idx's header; parents are interned, not loaded. */
static int parse_one(struct dag *dag, uint32_t idx)
{
	git_odb_object *obj = NULL;
	const char *p = NULL;
	size_t len = 0;
	int ret;

	if (from_graph(dag, idx))
		return 0;
	if ((ret = read_commit(dag, idx, &obj, &p, &len)))
		return ret;
	parse_header(dag, idx, p, p + len);
	git_odb_object_free(obj);
	return 0;
}

void dag_parse_data(struct dag *dag, uint32_t idx, const char *data, size_t len)
{
	/* data is idx's own object: with replace refs, not what git reads */
	if (dag->lazy && !dag->loaded[idx] && !replace_map_active(&dag->replaced) &&
	    memmem(data, len, "\n\n", 2))
		parse_header(dag, idx, data, data + len);
}

int dag_parse(struct dag *dag, uint32_t idx)
{
	return dag->loaded[idx] ? 0 : parse_one(dag, idx);
}

int dag_load(struct dag *dag, uint32_t idx)
{
	uint32_t *stack = NULL;
	size_t nr = 0, alloc = 0;
	int ret = 0;

	if (dag->loaded[idx])
		return 0;
	stack = xgrow(stack, &alloc, nr + 1, sizeof(*stack));
	stack[nr++] = idx;
	while (nr) {
		uint32_t i = stack[--nr];
		unsigned np;
		const uint32_t *par;

		if (dag->loaded[i])
			continue;
		if ((ret = parse_one(dag, i)))
			goto out;
		par = dag_parents(dag, i, &np);
		for (unsigned k = 0; k < np; k++) {
			uint32_t pi = par[k];
			if (dag->loaded[pi])
				continue;
			stack = xgrow(stack, &alloc, nr + 1, sizeof(*stack));
			par = dag_parents(dag, i, &np);
			stack[nr++] = pi;
		}
	}
out:
	free(stack);
	return ret;
}

static int cmp_by_oid(const void *a, const void *b, void *dag)
{
	const git_oid *oids = ((const struct dag *)dag)->oids;

	return git_oid_cmp(&oids[*(const uint32_t *)a], &oids[*(const uint32_t *)b]);
}

size_t dag_find_prefix(struct dag *dag, const char *prefix, uint32_t *out,
		       size_t max)
{
	size_t len = strlen(prefix), lo = 0, hi, found = 0;
	char hex[GIT_OID_HEXSZ + 1];

	if (dag->by_oid_nr != dag->nr) {
		free(dag->by_oid);
		dag->by_oid = xmalloc(dag->nr * sizeof(uint32_t) + 1);
		for (uint32_t i = 0; i < dag->nr; i++)
			dag->by_oid[i] = i;
		qsort_r(dag->by_oid, dag->nr, sizeof(uint32_t), cmp_by_oid, dag);
		dag->by_oid_nr = dag->nr;
	}
	hi = dag->nr;
	while (lo < hi) {   /* first oid >= prefix */
		size_t mid = lo + (hi - lo) / 2;
		git_oid_tostr(hex, sizeof(hex), &dag->oids[dag->by_oid[mid]]);
		if (strncmp(hex, prefix, len) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < dag->nr; lo++) {
		uint32_t i = dag->by_oid[lo];
		git_oid_tostr(hex, sizeof(hex), &dag->oids[i]);
		if (strncmp(hex, prefix, len))
			break;
		if (!dag->loaded[i])
			continue;   /* interned as a parent of a shallow cut */
		if (found < max)
			out[found] = i;
		found++;
	}
	return found;
}

int dag_build_children(struct dag *dag)
{
	uint32_t n = dag->nr, *fill;

	if (dag->children_nr == n && dag->child_off)
		return 0;
	free(dag->child_off);
	free(dag->children);
	dag->child_off = xcalloc((size_t)n + 1, sizeof(uint32_t));
	for (uint32_t i = 0; i < n; i++) {
		unsigned np;
		const uint32_t *par = dag_parents(dag, i, &np);
		for (unsigned k = 0; k < np; k++)
			dag->child_off[par[k] + 1]++;
	}
	for (uint32_t i = 0; i < n; i++)
		dag->child_off[i + 1] += dag->child_off[i];
	dag->children = xmalloc((size_t)dag->child_off[n] * sizeof(uint32_t) + 1);
	fill = xmalloc((size_t)n * sizeof(uint32_t) + 1);
	memcpy(fill, dag->child_off, (size_t)n * sizeof(uint32_t));
	for (uint32_t i = 0; i < n; i++) {
		unsigned np;
		const uint32_t *par = dag_parents(dag, i, &np);
		for (unsigned k = 0; k < np; k++)
			dag->children[fill[par[k]]++] = i;
	}
	free(fill);
	dag->children_nr = n;
	return 0;
}

uint32_t *dag_topo_order(const struct dag *dag)
{
	uint32_t n = dag->nr, head = 0, tail = 0;
	uint32_t *indeg = xcalloc((size_t)n + 1, sizeof(uint32_t));
	uint32_t *order = xmalloc((size_t)n * sizeof(uint32_t) + 1);

	/* Kahn's algorithm over child->parent edges: childless commits first */
	for (uint32_t i = 0; i < n; i++) {
		unsigned np;
		const uint32_t *par = dag_parents(dag, i, &np);
		for (unsigned k = 0; k < np; k++)
			indeg[par[k]]++;
	}
	for (uint32_t i = 0; i < n; i++)
		if (!indeg[i])
			order[tail++] = i;
	while (head < tail) {
		unsigned np;
		const uint32_t *par = dag_parents(dag, order[head++], &np);
		for (unsigned k = 0; k < np; k++)
			if (--indeg[par[k]] == 0)
				order[tail++] = par[k];
	}
	free(indeg);
	return order;
}

int64_t *dag_min_desc_dates(const struct dag *dag)
{
	uint32_t *order = dag_topo_order(dag);
	int64_t *min = xmalloc((size_t)dag->nr * sizeof(int64_t) + 1);

	memcpy(min, dag->dates, (size_t)dag->nr * sizeof(int64_t));
	/* children come before parents in order: push minima down */
	for (uint32_t k = 0; k < dag->nr; k++) {
		uint32_t c = order[k];
		unsigned np;
		const uint32_t *par = dag_parents(dag, c, &np);
		for (unsigned i = 0; i < np; i++)
			if (min[par[i]] > min[c])
				min[par[i]] = min[c];
	}
	free(order);
	return min;
}

bool *dag_ancestors(struct dag *dag, const uint32_t *starts, size_t n)
{
	bool *seen;
	uint32_t *stack;
	size_t sp = 0;

	for (size_t i = 0; i < n; i++)   /* loading may grow the DAG: before sizing */
		if (starts[i] < dag->nr)
			dag_load(dag, starts[i]);
	seen = xcalloc((size_t)dag->nr + 1, 1);
	stack = xmalloc(((size_t)dag->nr + 1) * sizeof(*stack));
	for (size_t i = 0; i < n; i++)
		if (starts[i] < dag->nr && !seen[starts[i]]) {
			seen[starts[i]] = true;
			stack[sp++] = starts[i];
		}
	while (sp) {
		uint32_t c = stack[--sp], np;
		const uint32_t *p = dag_parents(dag, c, &np);

		for (uint32_t k = 0; k < np; k++)
			if (!seen[p[k]]) {
				seen[p[k]] = true;
				stack[sp++] = p[k];
			}
	}
	free(stack);
	return seen;
}

char *dag_message(struct dag *dag, uint32_t idx)
{
	const git_oid *oid = replace_object(&dag->replaced, &dag->oids[idx]);
	struct objstore *store = dag_store(dag);
	git_odb_object *obj = NULL;
	const char *data = NULL;
	size_t len = 0;
	char *msg = NULL;

	if (!oid)
		return NULL;
	if (store && objstore_read(store, oid->id, 0, &dag->buf) == OBJSTORE_COMMIT) {
		data = dag->buf.buf;
		len = dag->buf.len;
	} else if (git_odb_read(&obj, dag->odb, oid) == 0 &&
		   git_odb_object_type(obj) == GIT_OBJECT_COMMIT) {
		data = git_odb_object_data(obj);
		len = git_odb_object_size(obj);
	}
	if (data)
		msg = objstore_commit_message(data, len);
	git_odb_object_free(obj);
	git_error_clear();
	return msg;
}
