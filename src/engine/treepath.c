/*
 * Path lookups in raw tree objects, cached by tree id.
 */
#include <stdlib.h>
#include <string.h>

#include "patchver/base/error.h"
#include "patchver/base/util.h"
#include "patchver/engine/objstore.h"
#include "patchver/engine/treepath.h"

void treepath_init(struct treepath_cache *c, struct dag *dag, const char *path)
{
	git_odb *odb = dag->odb;

	memset(c, 0, sizeof(*c));
	c->odb = odb;
	/*
	 * Only a store already open (a history loaded from the repository):
	 * one taken from a fresh index reads trees through libgit2, whose
	 * windows are mapped anyway, not through a second mapping of the pack.
	 */
	c->store = dag->store;
	c->path = path;
	c->top_bit = treepath_top_bit(path, strcspn(path, "/"));
	c->nslots = 4096;
	c->slots = xcalloc(c->nslots, sizeof(*c->slots));
}

void treepath_free(struct treepath_cache *c)
{
	cgraph_path_key_free(&c->key);
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

/* One entry of a raw tree. */
struct tentry {
	const char *name;
	size_t len;
	const char *mode;           /* octal text, as the tree holds it */
	size_t mode_len;
	const unsigned char *id;    /* raw, GIT_OID_RAWSZ bytes */
};

/* The next entry at *p (end: e); false at the end or on garbage. */
static bool next_entry(const char **p, const char *e, struct tentry *t)
{
	const char *sp = memchr(*p, ' ', (size_t)(e - *p)), *nul;

	if (!sp)
		return false;
	nul = memchr(sp, '\0', (size_t)(e - sp));
	if (!nul || nul + 1 + GIT_OID_RAWSZ > e)
		return false;
	t->mode = *p;
	t->mode_len = (size_t)(sp - *p);
	t->name = sp + 1;
	t->len = (size_t)(nul - sp - 1);
	t->id = (const unsigned char *)nul + 1;
	*p = nul + 1 + GIT_OID_RAWSZ;
	return true;
}

/* git writes a subtree's mode as "40000" */
static bool is_tree(const struct tentry *t)
{
	return t->mode_len == 5 && !memcmp(t->mode, "40000", 5);
}

/*
 * A raw tree's bytes: from the object files (objstore.h) when there is a
 * store, else from libgit2, whose read costs four times as much (a zlib
 * stream set up, the object allocated, no delta base kept).
 */
struct raw_tree {
	git_odb_object *obj;
	struct sbuf buf;
	const char *data;
	size_t len;
};

static int raw_read(git_odb *odb, struct objstore *store, const git_oid *id, struct raw_tree *t)
{
	memset(t, 0, sizeof(*t));
	if (store && objstore_read(store, id->id, 0, &t->buf) == OBJSTORE_TREE) {
		t->data = t->buf.buf;
		t->len = t->buf.len;
		return 0;
	}
	sbuf_free(&t->buf);
	if (git_odb_read(&t->obj, odb, id) < 0) {
		git_error_clear();
		return -1;
	}
	t->data = git_odb_object_data(t->obj);
	t->len = git_odb_object_size(t->obj);
	return 0;
}

static void raw_free(struct raw_tree *t)
{
	git_odb_object_free(t->obj);
	sbuf_free(&t->buf);
}

/* The entry called name (len bytes) in a raw tree; false if absent. */
static bool tree_entry(git_odb *odb, struct objstore *store, const git_oid *tree,
		       const char *name, size_t len, git_oid *out)
{
	struct raw_tree raw;
	const char *p, *end;
	struct tentry t;
	bool found = false;

	if (raw_read(odb, store, tree, &raw) < 0)
		return false;
	p = raw.data;
	end = p + raw.len;
	while (!found && next_entry(&p, end, &t))
		found = t.len == len && !memcmp(t.name, name, len);
	if (found)
		git_oid_fromraw(out, t.id);
	raw_free(&raw);
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
			if (!tree_entry(c->odb, c->store, &cur, comp, len, &next))
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
	bool have_mine, have_theirs;

	if (i < dag->topmask_nr && !(dag->topmask[i] & c->top_bit))
		return false;
	if (dag->graph && cgraph_present(dag->graph)) {
		if (!c->key.n)
			cgraph_path_key_init(&c->key, c->path);
		if (cgraph_maybe_changed(dag->graph, &dag->oids[i], &c->key) == 0)
			return false;
	}
	have_mine = treepath_lookup(c, &dag->trees[i], &mine);
	have_theirs = np && treepath_lookup(c, &dag->trees[par[0]], &theirs);

	if (have_mine != have_theirs)
		return true;
	return have_mine && !git_oid_equal(&mine, &theirs);
}

/*
 * git's canon_mode: early trees hold modes like 100664, which git reads
 * as 100644, so an entry whose mode only changes that way is unchanged.
 */
static unsigned canon_mode(unsigned mode)
{
	switch (mode & 0170000) {
	case 0100000:
		return 0100644 | (mode & 0100 ? 0111 : 0);
	case 0120000:
	case 0040000:
	case 0160000:
		return mode & 0170000;
	}
	return mode;
}

static bool same_mode(const struct tentry *x, const struct tentry *y)
{
	if (x->mode_len == y->mode_len && !memcmp(x->mode, y->mode, x->mode_len))
		return true;
	return canon_mode((unsigned)strtoul(x->mode, NULL, 8)) ==
	       canon_mode((unsigned)strtoul(y->mode, NULL, 8));
}

/* git's tree order: a directory sorts as if its name ended in '/'. */
static int entry_cmp(const struct tentry *a, const struct tentry *b)
{
	size_t n = a->len < b->len ? a->len : b->len;
	int c = memcmp(a->name, b->name, n);
	unsigned char ca, cb;

	if (c)
		return c;
	ca = a->len > n ? (unsigned char)a->name[n] : is_tree(a) ? '/' : 0;
	cb = b->len > n ? (unsigned char)b->name[n] : is_tree(b) ? '/' : 0;
	return ca < cb ? -1 : ca > cb;
}

struct changes {
	git_odb *odb;
	size_t max, nr;
	struct tree_change *v;
	bool want;
};

/* One more change (path taken over), kept when wanted and under the bound. */
static void add_change(struct changes *ch, char **path, const struct tentry *x,
		       const struct tentry *y)
{
	struct tree_change *c;

	if (ch->nr++ >= ch->max + 1 || !ch->want)
		return;
	ch->v = xrealloc(ch->v, ch->nr * sizeof(*ch->v));
	c = &ch->v[ch->nr - 1];
	memset(c, 0, sizeof(*c));
	c->path = *path;
	*path = NULL;
	if (x)
		git_oid_fromraw(&c->old, x->id);
	if (y)
		git_oid_fromraw(&c->new, y->id);
}

/*
 * The entries of raw trees a and b (NULL: an empty tree) paired by name
 * in git's order: fn(x, y, data) for each, x or y NULL where that side
 * lacks the name.  Stops at fn's first non-zero return and returns it.
 */
typedef int (*pair_fn)(const struct tentry *x, const struct tentry *y, void *data);

static int merge_entries(const struct raw_tree *a, const struct raw_tree *b, pair_fn fn,
			 void *data)
{
	const char *pa = "", *ea = pa, *pb = "", *eb = pb;
	struct tentry x, y;
	bool hx, hy;
	int ret = 0;

	if (a) {
		pa = a->data;
		ea = pa + a->len;
	}
	if (b) {
		pb = b->data;
		eb = pb + b->len;
	}
	hx = next_entry(&pa, ea, &x);
	hy = next_entry(&pb, eb, &y);
	while ((hx || hy) && !ret) {
		int c = !hx ? 1 : !hy ? -1 : entry_cmp(&x, &y);
		ret = fn(c <= 0 ? &x : NULL, c >= 0 ? &y : NULL, data);
		if (c <= 0)
			hx = next_entry(&pa, ea, &x);
		if (c >= 0)
			hy = next_entry(&pb, eb, &y);
	}
	return ret;
}

static int walk_changed(struct changes *ch, const git_oid *a, const git_oid *b,
			const char *prefix);

static int changed_entry(struct changes *ch, const struct tentry *x, const struct tentry *y,
			 const char *prefix)
{
	const struct tentry *t = x ? x : y;
	char *path = xstrfmt("%s%.*s", prefix, (int)t->len, t->name);
	bool xdir = x && is_tree(x), ydir = y && is_tree(y);
	int ret = 0;

	if (xdir || ydir) {
		char *sub = xstrfmt("%s/", path);
		git_oid xid, yid;
		if (xdir)
			git_oid_fromraw(&xid, x->id);
		if (ydir)
			git_oid_fromraw(&yid, y->id);
		/* a directory against a file: both sides are changes */
		ret = walk_changed(ch, xdir ? &xid : NULL, ydir ? &yid : NULL, sub);
		free(sub);
		if (!ret && ((x && !xdir) || (y && !ydir)))
			add_change(ch, &path, xdir ? NULL : x, ydir ? NULL : y);
	} else {
		add_change(ch, &path, x, y);
	}
	free(path);
	return ret;
}

struct walk {
	struct changes *ch;
	const char *prefix;
};

/* One pair of walk_changed: 1 once past the bound, -1 on an unreadable tree. */
static int walk_pair(const struct tentry *x, const struct tentry *y, void *data)
{
	struct walk *w = data;
	int ret;

	if (x && y && !memcmp(x->id, y->id, GIT_OID_RAWSZ) && same_mode(x, y))
		return 0;
	if ((ret = changed_entry(w->ch, x, y, w->prefix)) < 0)
		return ret;
	return w->ch->nr > w->ch->max;
}

static int walk_changed(struct changes *ch, const git_oid *a, const git_oid *b,
			const char *prefix)
{
	struct raw_tree ra = { 0 }, rb = { 0 };
	struct walk w = { ch, prefix };
	int ret = -1;

	if ((!a || raw_read(ch->odb, NULL, a, &ra) == 0) && (!b || raw_read(ch->odb, NULL, b, &rb) == 0))
		ret = merge_entries(a ? &ra : NULL, b ? &rb : NULL, walk_pair, &w) < 0 ? -1 : 0;
	raw_free(&ra);
	raw_free(&rb);
	return ret;
}

/* Inside, -1 is a tree libgit2 could not read: outside, PV_ECORRUPT with the trees' ids. */
static int unreadable(const git_oid *a, const git_oid *b)
{
	char hex[GIT_OID_HEXSZ + 1];

	return pv_error_set(PV_ECORRUPT, "cannot read the trees %s and %s",
			    a ? git_oid_tostr(hex, sizeof(hex), a) : "(empty)", git_oid_tostr_s(b));
}

int treepath_changed(git_odb *odb, const git_oid *a, const git_oid *b, size_t max,
		     struct tree_change **out)
{
	struct changes ch = { odb, max, 0, NULL, out != NULL };
	int ret = walk_changed(&ch, a, b, "");
	int n = (int)(ch.nr > max + 1 ? max + 1 : ch.nr);

	if (ret < 0) {
		treepath_changes_free(ch.v, ch.v ? n : 0);
		ch.v = NULL;
		n = unreadable(a, b);
	}
	if (out)
		*out = ch.v;
	return n;
}

void treepath_changes_free(struct tree_change *v, int n)
{
	for (int i = 0; i < n; i++)
		free(v[i].path);
	free(v);
}

/*
 * A tree from the memo (libgit2's objects; the store keeps its own cache)
 * into t, a reference of the caller's own: reading the next one may push
 * this one out of the memo.
 */
static int memo_read(struct tree_memo *m, const git_oid *id, struct raw_tree *t)
{
	git_odb_object *o = NULL;

	if (m->store)
		return raw_read(m->odb, m->store, id, t);
	memset(t, 0, sizeof(*t));
	for (unsigned k = 0; k < 4 && !o; k++)
		if (m->obj[k] && git_oid_equal(git_odb_object_id(m->obj[k]), id))
			o = m->obj[k];
	if (!o) {
		if (git_odb_read(&o, m->odb, id) < 0) {
			git_error_clear();
			return -1;
		}
		git_odb_object_free(m->obj[m->next]);
		m->obj[m->next] = o;
		m->next = (m->next + 1) % 4;
	}
	if (git_odb_object_dup(&t->obj, o) < 0)
		return -1;
	t->data = git_odb_object_data(t->obj);
	t->len = git_odb_object_size(t->obj);
	return 0;
}

void tree_memo_free(struct tree_memo *m)
{
	for (unsigned k = 0; k < 4; k++)
		git_odb_object_free(m->obj[k]);
	memset(m->obj, 0, sizeof(m->obj));
}

static int mask_pair(const struct tentry *x, const struct tentry *y, void *data)
{
	const struct tentry *t = x ? x : y;

	if (!x || !y || memcmp(x->id, y->id, GIT_OID_RAWSZ))
		*(uint64_t *)data |= treepath_top_bit(t->name, t->len);
	return 0;
}

int treepath_top_mask(struct tree_memo *m, const git_oid *parent, const git_oid *tree,
		      uint64_t *mask)
{
	struct raw_tree ra = { 0 }, rb = { 0 };
	int ret = -1;

	*mask = 0;
	if ((!parent || memo_read(m, parent, &ra) == 0) && memo_read(m, tree, &rb) == 0)
		ret = merge_entries(parent ? &ra : NULL, &rb, mask_pair, mask);
	raw_free(&ra);
	raw_free(&rb);
	return ret < 0 ? unreadable(parent, tree) : ret;
}
