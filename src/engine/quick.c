/*
 * The quick path: answers from a fresh release index without libgit2.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/base/error.h"
#include "patchver/engine/cgraph.h"
#include "patchver/engine/dag.h"
#include "patchver/engine/namewalk.h"
#include "patchver/engine/objstore.h"
#include "patchver/engine/oid.h"
#include "patchver/engine/quick.h"
#include "patchver/engine/reffiles.h"
#include "patchver/engine/relindex.h"
#include "patchver/engine/revsyntax.h"
#include "patchver/engine/tags.h"

/* What makes git look for the repository or its objects elsewhere. */
static const char *const repo_vars[] = {
	"GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY",
	"GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_CEILING_DIRECTORIES",
	"GIT_DISCOVERY_ACROSS_FILESYSTEM", "GIT_NAMESPACE",
	/* and what could say core.commitGraph=false where the quick path does not look */
	"GIT_CONFIG", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_COUNT",
};

struct quick {
	char *gitdir;
	struct reffiles refs;        /* the tags, from the files */
	struct relindex ix;
	struct tag_table table;     /* only the tags an answer names get a short name;
				       names borrowed from the index */
	struct cgraph graph;        /* git's commit-graph: with it, git's cut is no cut */
	struct objstore *store;     /* the object files, for a commit's message */
	unsigned char outside[GIT_OID_RAWSZ];  /* QUICK_OUTSIDE's id, the last looked up */
	long tag_object;            /* the annotated tag the last rev named alone, or -1 */
	bool classified;            /* table has every short name and the releases */
};

/* Not sure: the normal path answers (PV_EDECLINED, the message says why). */
static int decline(const char *why)
{
	return pv_error_set(PV_EDECLINED, "%s", why);
}

/* Is dir/name a directory (want_dir) or a regular file? */
static bool has(const char *dir, const char *name, bool want_dir)
{
	char *path = xstrfmt("%s/%s", dir, name);
	bool yes = want_dir ? path_is_dir(path) : path_is_file(path);

	free(path);
	return yes;
}

/* The git directory as git finds it at dir, when the layout is a plain one. */
static int find_gitdir(struct quick *q, const char *dir)
{
	char *dotgit = xstrfmt("%s/.git", dir);
	const char *gd = path_is_dir(dotgit) ? dotgit : dir;
	int ret = 0;

	for (size_t i = 0; i < sizeof(repo_vars) / sizeof(*repo_vars) && !ret; i++)
		if (getenv(repo_vars[i]))
			ret = decline("a GIT_* variable that moves the repository");
	if (!ret && (!has(gd, "objects", true) || !has(gd, "HEAD", false)))
		ret = decline("not a plain repository directory");
	if (!ret && has(gd, "commondir", false))
		ret = decline("a worktree");
	if (!ret && has(gd, "shallow", false))
		ret = decline("a shallow clone");
	if (!ret && !(q->gitdir = realpath(gd, NULL)))
		ret = decline("no real path");
	free(dotgit);
	return ret;
}

/* The tags packed-refs and refs/tags hold: the index's? */
static bool same_tags(const struct quick *q)
{
	const struct relindex *ix = &q->ix;

	if (q->refs.tags.nr != ix->ntags)
		return false;
	for (uint32_t t = 0; t < ix->ntags; t++)
		if (strcmp(q->refs.tags.v[t].name, relindex_refname(ix, t)) ||
		    memcmp(q->refs.tags.v[t].oid, ix->tags[t].target, GIT_OID_RAWSZ))
			return false;
	return true;
}

/*
 * packed-refs' tag lines are the index's (reffiles_tags_known): are the
 * loose tags too?  The same names and ids make the same tag list.
 */
static bool same_loose_tags(const struct quick *q)
{
	const struct relindex *ix = &q->ix;
	size_t nloose = 0;

	for (uint32_t t = 0; t < ix->ntags; t++)
		nloose += ix->tags[t].loose;
	if (nloose != q->refs.tags.nr)
		return false;
	for (size_t i = 0; i < q->refs.tags.nr; i++) {
		long t = relindex_find_tag(ix, q->refs.tags.v[i].name);
		if (t < 0 || !ix->tags[t].loose ||
		    memcmp(q->refs.tags.v[i].oid, ix->tags[t].target, GIT_OID_RAWSZ))
			return false;
	}
	return true;
}

static bool index_has_tag(const void *ix, const char *refname)
{
	return relindex_find_tag(ix, refname) >= 0;
}

/*
 * dag_find on the index, each slot and id checked before it is trusted:
 * 1 found (*out), 0 absent, PV_EDECLINED (damaged).
 */
static int find(struct quick *q, const unsigned char *oid, uint32_t *out)
{
	struct relindex *ix = &q->ix;
	size_t s = dag_slot_of(oid, ix->dag.nslots);

	for (size_t probes = 0; probes < ix->dag.nslots; probes++) {
		const uint32_t *slot = &ix->dag.slots[s];
		uint32_t i;

		if (!relindex_check(ix, slot, sizeof(*slot)) || *slot > ix->dag.nr)
			return decline("a damaged index block");
		if (!*slot)
			return 0;
		i = *slot - 1;
		if (!relindex_check(ix, &ix->dag.oids[i], sizeof(git_oid)))
			return decline("a damaged index block");
		if (!memcmp(ix->dag.oids[i].id, oid, GIT_OID_RAWSZ)) {
			*out = i;
			return 1;
		}
		s = (s + 1) & (ix->dag.nslots - 1);
	}
	return 0;
}

static struct objstore *store_of(struct quick *q);

/*
 * The commit with id oid: the index's, or with outside_ok QUICK_OUTSIDE
 * when the index lacks it and the object files have it -- the index holds
 * every commit a tag reaches, so no tag reaches this one (quick_open made
 * sure the tags are the index's, and that the history is not replaced,
 * grafted or shallow).  0, or -1 declined.
 */
static int lookup(struct quick *q, const unsigned char *oid, bool outside_ok, uint32_t *out)
{
	struct sbuf head = SBUF_INIT;
	int found = find(q, oid, out), type;

	if (found)
		return found > 0 ? 0 : found;
	if (!outside_ok)
		return decline("a rev the index does not hold");
	if (!store_of(q))
		return PV_EDECLINED;
	type = objstore_read(q->store, oid, 64, &head);
	sbuf_free(&head);
	/* not a commit, or no object: the normal path words the error */
	if (type != OBJSTORE_COMMIT)
		return decline("a rev that names no commit");
	memcpy(q->outside, oid, GIT_OID_RAWSZ);
	*out = QUICK_OUTSIDE;
	return 0;
}

/* The tag's short name (reffiles.h), worked out once. */
static const char *short_name(struct quick *q, uint32_t t)
{
	struct tag *tag = &q->table.v[t];

	/* a suffix of the refname, in the index's string pool */
	if (!tag->shortname)
		tag->shortname = (char *)reffiles_short_of(&q->refs, relindex_refname(&q->ix, t));
	return tag->shortname;
}

int quick_name(struct quick *q, uint32_t c, struct sbuf *out)
{
	struct relindex *ix = &q->ix;
	const struct relindex_name *name;
	uint32_t s;

	if (c == QUICK_OUTSIDE)
		return 0;       /* no tag reaches it: git has no name for it */
	name = &ix->names[c];
	if (!relindex_check(ix, name, sizeof(*name)) || name->seg >= ix->nsegs ||
	    !relindex_check(ix, &ix->min_desc[c], sizeof(int64_t)) ||
	    !relindex_check(ix, &ix->dag.dates[c], sizeof(int64_t)))
		return decline("a damaged index block");
	/* clock skew below c and no graph: git's date cutoff may name it otherwise */
	if (!namewalk_uncut_is_gits(cgraph_present(&q->graph) &&
				  cgraph_contains(&q->graph, &ix->dag.oids[c]),
				  ix->dag.dates[c], ix->min_desc[c]))
		return decline("a commit with clock skew below it");
	if (!name->seg)
		return 0;
	for (s = name->seg;; s = ix->segs[s].prev) {
		if (!relindex_check(ix, &ix->segs[s], sizeof(ix->segs[s])) ||
		    ix->segs[s].prev >= s || ix->segs[s].tip >= ix->ntags)
			return decline("a damaged index block");
		if (!ix->segs[s].prev)
			break;
	}
	q->table.v[ix->segs[s].tip].deref = ix->tags[ix->segs[s].tip].deref;
	short_name(q, ix->segs[s].tip);
	namechain_render(ix->segs, &q->table, name->seg, name->generation, out);
	return 1;
}

int quick_first_release(struct quick *q, uint32_t c, uint32_t *tag)
{
	struct relindex *ix = &q->ix;

	if (c == QUICK_OUTSIDE) {
		*tag = PV_NONE;
		return 0;
	}
	if (!relindex_check(ix, &ix->first[c], sizeof(uint32_t)) ||
	    (ix->first[c] >= ix->ntags && ix->first[c] != PV_NONE))
		return decline("a damaged index block");
	*tag = ix->first[c];
	if (*tag != PV_NONE)
		short_name(q, *tag);
	return 0;
}

/* Every tag with its short name, and which are releases, as tagload.h and tags_classify have them. */
static void classify(struct quick *q)
{
	const char **names;

	if (q->classified)
		return;
	names = xmalloc(((size_t)q->ix.ntags + 1) * sizeof(*names));
	for (uint32_t t = 0; t < q->ix.ntags; t++)
		names[t] = relindex_refname(&q->ix, t);
	reffiles_short_names(&q->refs, names, q->ix.ntags);
	for (uint32_t t = 0; t < q->ix.ntags; t++) {
		struct tag *tag = &q->table.v[t];
		tag->refname = (char *)relindex_refname(&q->ix, t);
		tag->shortname = (char *)names[t];
		tag->commit = q->ix.tags[t].commit;
		tag->taggerdate = q->ix.tags[t].taggerdate;
		tag->deref = q->ix.tags[t].deref;
	}
	free(names);
	tags_classify(&q->table, q->ix.glob);
	q->classified = true;
}

const struct tag_table *quick_tags(struct quick *q)
{
	return &q->table;
}

uint32_t *quick_containing(struct quick *q, uint32_t c, size_t *n)
{
	if (!relindex_ivs_ok(&q->ix))
		return decline("a damaged index block"), NULL;
	classify(q);
	if (c == QUICK_OUTSIDE) {
		*n = 0;
		return xmalloc(sizeof(uint32_t));
	}
	return relindex_tags_containing(&q->ix, c, n);
}

static bool record_intact(const void *b, void *ix)
{
	return relindex_backport_ok(ix, b);
}

const struct backport *quick_backports(struct quick *q, uint32_t c, size_t *n)
{
	struct backport_map m;
	const struct backport *b;
	bool damaged;

	if (c == QUICK_OUTSIDE) {
		/* the map is by the index's commits: none names one outside it */
		static const struct backport none[1];
		*n = 0;
		return none;
	}
	/* the records the lookup reads, each checked: not the whole section */
	relindex_backports(&q->ix, &m);
	b = backport_map_of_checked(&m, c, n, record_intact, &q->ix, &damaged);
	if (damaged)
		return decline("a damaged index"), NULL;
	/* none: an empty run, not a failure */
	return b ? b : m.v;
}

int quick_backport_by_patchid(struct quick *q, uint32_t c, uint32_t u, bool *yes)
{
	struct backport_map m;
	const struct backport_note *bn;
	size_t n;

	*yes = false;
	relindex_backports(&q->ix, &m);
	bn = backport_map_notes(&m, c, &n);
	/* the notes this lookup read, each checked, before the answer trusts one */
	for (size_t k = 0; k < n; k++)
		if (!relindex_check(&q->ix, &bn[k], sizeof(bn[k])) ||
		    !memchr(bn[k].hex, '\0', sizeof(bn[k].hex)))
			return decline("a damaged index"), PV_EDECLINED;
	*yes = backport_map_by_patchid(&m, c, (const git_oid *)quick_oid(q, u));
	return 0;
}

const unsigned char *quick_oid(const struct quick *q, uint32_t c)
{
	return c == QUICK_OUTSIDE ? q->outside : q->ix.dag.oids[c].id;
}

/* The object files, opened on first use, or NULL (declined). */
static struct objstore *store_of(struct quick *q)
{
	if (!q->store) {
		char *objdir = xstrfmt("%s/objects", q->gitdir);
		q->store = objstore_open(objdir);
		free(objdir);
		if (!q->store)
			decline("no objects directory");
	}
	return q->store;
}

char *quick_message(struct quick *q, uint32_t c)
{
	struct sbuf raw = SBUF_INIT;
	char *msg = NULL;

	if (!store_of(q))
		return NULL;
	if (objstore_read(q->store, quick_oid(q, c), 0, &raw) != OBJSTORE_COMMIT ||
	    !(msg = objstore_commit_message(raw.buf, raw.len)))
		decline("a commit it cannot read alone");
	sbuf_free(&raw);
	return msg;
}

/* Might any config git reads mention commitGraph (or include another file)? */
static bool config_may_disable_graph(const char *gitdir)
{
	const char *home = getenv("HOME"), *xdg = getenv("XDG_CONFIG_HOME");
	char *files[5] = {
		xstrfmt("%s/config", gitdir), xstrfmt("%s/.gitconfig", home ? home : "/"),
		xdg ? xstrfmt("%s/git/config", xdg) : xstrfmt("%s/.config/git/config", home ? home : "/"),
		xstrdup("/etc/gitconfig"), NULL,
	};
	char line[4096];
	bool found = false;

	for (char **f = files; *f; f++) {
		FILE *fp = fopen(*f, "r");
		while (fp && !found && fgets(line, sizeof(line), fp)) {
			for (char *p = line; *p; p++)
				*p = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
			found = strstr(line, "commitgraph") || strstr(line, "include");
		}
		if (fp)
			fclose(fp);
		free(*f);
	}
	return found;
}

static int open_graph(struct quick *q)
{
	char *objdir;

	if (config_may_disable_graph(q->gitdir))
		return decline("a config that may turn the commit-graph off");
	objdir = xstrfmt("%s/objects", q->gitdir);
	cgraph_open_objdir(&q->graph, objdir);
	free(objdir);
	return 0;
}

/*
 * The index first: when packed-refs' tag lines are those it was computed
 * from, they are not parsed again, and the loose tags alone are compared.
 */
static int open_index(struct quick *q, const char *release_glob)
{
	char *path;
	int ret = 0;

	path = relindex_path(q->gitdir);
	if (relindex_open(&q->ix, path, q->gitdir, true))
		ret = decline("no usable index");
	free(path);
	if (ret)
		return ret;
	if ((ret = reffiles_tags_known(&q->refs, q->gitdir, q->ix.tag_digest, index_has_tag,
				       &q->ix)))
		return ret;
	if (reffiles_history_replaced(&q->refs))
		return decline("replace refs or grafts");
	if (q->refs.tags_known ? !same_loose_tags(q) : !same_tags(q))
		return decline("tags changed since the index was written");
	if (strcmp(q->ix.glob, release_glob))
		return decline("another release glob");
	q->table.nr = q->ix.ntags;
	q->table.v = huge_calloc((q->ix.ntags + 1) * sizeof(struct tag));
	q->table.borrowed = true;
	return 0;
}

struct quick *quick_open(const char *dir, const char *release_glob, const char **why)
{
	struct quick *q = xcalloc(1, sizeof(*q));

	q->tag_object = -1;
	if (find_gitdir(q, dir ? dir : ".") || open_index(q, release_glob) || open_graph(q)) {
		*why = quick_why();
		quick_close(q);
		return NULL;
	}
	return q;
}

const char *quick_why(void)
{
	const struct pv_error *e = pv_error_last();

	return e->code == PV_EDECLINED ? e->message : NULL;
}

/*
 * Would git's ref rules (ref_rev_parse_rules, libgit2's dwim) find a ref
 * for name before refs/tags/<name>, or at all (all_rules)?
 */
static bool ref_named(struct quick *q, const char *name, bool all_rules)
{
	static const char *const rules[] = { "%s", "refs/%s", "refs/tags/%s", "refs/heads/%s",
					     "refs/remotes/%s", "refs/remotes/%s/HEAD" };
	bool found = false;

	for (size_t i = 0; i < (all_rules ? 6 : 2) && !found; i++) {
		char *ref = xstrfmt(rules[i], name);
		found = reffiles_exists(&q->refs, ref);
		free(ref);
	}
	return found;
}

/* An abbreviated id: the one object with that prefix, a commit of the index. */
static int abbreviated(struct quick *q, const char *hex, size_t len, bool outside_ok,
		       uint32_t *c)
{
	unsigned char found[1][GIT_OID_RAWSZ];

	if (ref_named(q, hex, true))
		return decline("a short id that is also a ref name");
	if (!store_of(q))
		return PV_EDECLINED;
	if (objstore_prefix(q->store, hex, len, found, 1) != 1)
		return decline("a short id that is ambiguous or unknown");
	return lookup(q, found[0], outside_ok, c);
}

/* A tag name, as git's ref rules find it: its commit. */
static int tag_commit(struct quick *q, const char *name, uint32_t *c)
{
	char *refname;
	long t;

	if (ref_named(q, name, false))
		return decline("a name git may read as another ref");
	/* the index's tags are the repository's (open_index) */
	refname = xstrfmt("refs/tags/%s", name);
	t = relindex_find_tag(&q->ix, refname);
	free(refname);
	if (t < 0)
		return decline("a rev that is neither an id nor a tag");
	*c = q->ix.tags[t].commit;
	if (*c != PV_NONE && memcmp(q->ix.tags[t].target, q->ix.dag.oids[*c].id, GIT_OID_RAWSZ))
		q->tag_object = t;
	return *c == PV_NONE ? decline("a tag of no commit") : 0;
}

static bool lower_hex(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

/* Parent k (from 1) of commit *c in the index, each record checked. */
static int parent(struct quick *q, unsigned long k, uint32_t *c)
{
	const struct dag_arrays *d = &q->ix.dag;
	uint32_t off;

	if (!relindex_check(&q->ix, &d->par_nr[*c], sizeof(*d->par_nr)) ||
	    !relindex_check(&q->ix, &d->par_off[*c], sizeof(*d->par_off)))
		return decline("a damaged index block");
	if (k > d->par_nr[*c])
		return decline("a rev without that parent");
	off = d->par_off[*c] + (uint32_t)k - 1;
	if (off >= d->nparents || !relindex_check(&q->ix, &d->parents[off], sizeof(*d->parents)) ||
	    d->parents[off] >= d->nr)
		return decline("a damaged index block");
	*c = d->parents[off];
	return 0;
}

int quick_lookup(struct quick *q, const char *rev, bool outside_ok, uint32_t *commit)
{
	size_t at = rev_steps_at(rev), len = at ? at : strlen(rev);
	unsigned char oid[GIT_OID_RAWSZ];
	const char *p = rev + len;
	char *base = xstrndup(rev, len);
	uint32_t c;
	int ret;

	q->tag_object = -1;
	/* steps walk the index's parents: a commit outside it has none there */
	outside_ok = outside_ok && !at;
	if (oid_from_hex(base, len, oid) == 0)
		ret = lookup(q, oid, outside_ok, &c);
	else if (len >= 4 && len < GIT_OID_HEXSZ && lower_hex(base, len))
		ret = abbreviated(q, base, len, outside_ok, &c);
	else
		ret = tag_commit(q, base, &c);
	free(base);
	while (!ret && *p) {
		unsigned long n;
		char kind = rev_step(&p, &n);

		for (unsigned long i = 0; !ret && n && i < (kind == '^' ? 1 : n); i++)
			ret = parent(q, kind == '^' ? n : 1, &c);
	}
	if (!ret)
		*commit = c;
	if (at)
		q->tag_object = -1;     /* steps lead to a commit */
	return ret;
}

int quick_tag_object_name(struct quick *q, struct sbuf *out)
{
	const struct relindex *ix = &q->ix;
	long t = q->tag_object;

	if (t < 0)
		return 0;
	/* git names the tag object by the first tag holding it: the same one, unless shared */
	for (uint32_t i = 0; i < ix->ntags; i++)
		if ((long)i != t && !memcmp(ix->tags[i].target, ix->tags[t].target, GIT_OID_RAWSZ))
			return decline("a tag object two tags hold");
	sbuf_adds(out, short_name(q, (uint32_t)t));
	return 1;
}

void quick_close(struct quick *q)
{
	if (!q)
		return;
	huge_free(q->table.v, (q->table.nr + 1) * sizeof(struct tag));
	q->table.v = NULL;          /* not tags_free's to free */
	tags_free(&q->table);
	relindex_close(&q->ix);
	cgraph_close(&q->graph);
	objstore_close(q->store);
	reffiles_free(&q->refs);
	free(q->gitdir);
	free(q);
}
