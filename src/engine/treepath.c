/*
 * Path lookups in raw tree objects, cached by tree id.
 */
#include <stdlib.h>
#include <string.h>

#include "patchver/engine/treepath.h"
#include "patchver/base/util.h"

void treepath_init(struct treepath_cache *c, git_odb *odb, const char *path)
{
	memset(c, 0, sizeof(*c));
	c->odb = odb;
	c->path = path;
	c->nslots = 4096;
	c->slots = xcalloc(c->nslots, sizeof(*c->slots));
}

void treepath_free(struct treepath_cache *c)
{
	free(c->slots);
	memset(c, 0, sizeof(*c));
}

static size_t slot_index(const struct treepath_cache *c, const git_oid *tree,
			 uint32_t depth)
{
	uint64_t h;

	memcpy(&h, tree->id, sizeof(h));
	return (size_t)(h + depth * 0x9e3779b97f4a7c15ULL) & (c->nslots - 1);
}

static struct tp_slot *find_slot(struct treepath_cache *c, const git_oid *tree,
				 uint32_t depth)
{
	size_t s = slot_index(c, tree, depth);

	while (c->slots[s].used) {
		if (c->slots[s].depth == depth && git_oid_equal(&c->slots[s].tree, tree))
			return &c->slots[s];
		s = (s + 1) & (c->nslots - 1);
	}
	return &c->slots[s];
}

static void remember(struct treepath_cache *c, const git_oid *tree, uint32_t depth,
		     const git_oid *result)
{
	struct tp_slot *s;

	if ((c->nr + 1) * 2 > c->nslots) {
		struct tp_slot *old = c->slots;
		size_t n = c->nslots;
		c->nslots *= 2;
		c->slots = xcalloc(c->nslots, sizeof(*c->slots));
		c->nr = 0;
		for (size_t i = 0; i < n; i++)
			if (old[i].used)
				remember(c, &old[i].tree, old[i].depth, &old[i].result);
		free(old);
	}
	s = find_slot(c, tree, depth);
	s->used = true;
	s->tree = *tree;
	s->depth = depth;
	s->result = *result;
	c->nr++;
}

/* The entry called name (len bytes) in a raw tree; false if absent. */
static bool tree_entry(git_odb *odb, const git_oid *tree, const char *name,
		       size_t len, git_oid *out)
{
	git_odb_object *obj;
	const char *p, *end;
	bool found = false;

	if (git_odb_read(&obj, odb, tree) < 0) {
		git_error_clear();
		return false;
	}
	p = git_odb_object_data(obj);
	end = p + git_odb_object_size(obj);
	while (p < end) {
		const char *sp = memchr(p, ' ', (size_t)(end - p)), *nul;
		if (!sp)
			break;
		nul = memchr(sp, '\0', (size_t)(end - sp));
		if (!nul || nul + 1 + GIT_OID_RAWSZ > end)
			break;
		if ((size_t)(nul - sp - 1) == len && !memcmp(sp + 1, name, len)) {
			git_oid_fromraw(out, (const unsigned char *)nul + 1);
			found = true;
			break;
		}
		p = nul + 1 + GIT_OID_RAWSZ;
	}
	git_odb_object_free(obj);
	return found;
}

bool treepath_lookup(struct treepath_cache *c, const git_oid *tree, git_oid *out)
{
	const char *comp = c->path;
	git_oid cur = *tree;
	uint32_t depth = 0;
	static const git_oid zero;

	while (*comp) {
		const char *slash = strchr(comp, '/');
		size_t len = slash ? (size_t)(slash - comp) : strlen(comp);
		struct tp_slot *s = find_slot(c, &cur, depth);
		git_oid next;

		if (s->used) {
			next = s->result;
		} else {
			if (!tree_entry(c->odb, &cur, comp, len, &next))
				next = zero;
			remember(c, &cur, depth, &next);
		}
		if (git_oid_is_zero(&next))
			return false;
		cur = next;
		comp += len + (slash ? 1 : 0);
		depth++;
	}
	*out = cur;
	return true;
}

bool treepath_touches(struct treepath_cache *c, const struct dag *dag, uint32_t i)
{
	unsigned np;
	const uint32_t *par = dag_parents(dag, i, &np);
	git_oid mine, theirs;
	bool have_mine = treepath_lookup(c, &dag->trees[i], &mine);
	bool have_theirs = np && treepath_lookup(c, &dag->trees[par[0]], &theirs);

	if (have_mine != have_theirs)
		return true;
	return have_mine && !git_oid_equal(&mine, &theirs);
}
