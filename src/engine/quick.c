/*
 * The quick path: answers from a fresh release index without libgit2.
 */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "patchver/engine/cgraph.h"
#include "patchver/engine/dag.h"
#include "patchver/engine/namerev.h"
#include "patchver/engine/history.h"
#include "patchver/engine/objstore.h"
#include "patchver/engine/naming.h"
#include "patchver/engine/quick.h"
#include "patchver/engine/relindex.h"
#include "patchver/engine/tags.h"

/* What makes git look for the repository or its objects elsewhere. */
static const char *const repo_vars[] = {
	"GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY",
	"GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_CEILING_DIRECTORIES",
	"GIT_DISCOVERY_ACROSS_FILESYSTEM", "GIT_NAMESPACE",
	/* and what could say core.commitGraph=false where the quick path does not look */
	"GIT_CONFIG", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_COUNT",
};

struct ref {
	char *name;
	unsigned char oid[GIT_OID_RAWSZ];
};

struct refs {
	struct ref *v;
	size_t nr, alloc;
};

struct quick {
	char *gitdir;
	struct refs packed;         /* every ref of packed-refs, name order */
	struct refs tags;           /* under refs/tags, loose over packed, name order */
	struct relindex ix;
	struct tag_table table;     /* only the tags an answer names get a short name */
	struct cgraph graph;        /* git's commit-graph: with it, git's cut is no cut */
	struct objstore *store;     /* the object files, for a commit's message */
	bool classified;            /* table has every short name and the releases */
	struct refs top_files, top_refs;   /* what the git directory and refs/ hold */
	bool listed;
	const char *why;
};

static bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int decline(struct quick *q, const char *why)
{
	if (!q->why)
		q->why = why;
	return -1;
}

/* Is dir/name a directory (want_dir) or a regular file? */
static bool has(const char *dir, const char *name, bool want_dir)
{
	char *path = xstrfmt("%s/%s", dir, name);
	bool yes = want_dir ? is_dir(path) : is_file(path);

	free(path);
	return yes;
}

/* The git directory as git finds it at dir, when the layout is a plain one. */
static int find_gitdir(struct quick *q, const char *dir)
{
	char *dotgit = xstrfmt("%s/.git", dir);
	const char *gd = is_dir(dotgit) ? dotgit : dir;
	int ret = 0;

	for (size_t i = 0; i < sizeof(repo_vars) / sizeof(*repo_vars) && !ret; i++)
		if (getenv(repo_vars[i]))
			ret = decline(q, "a GIT_* variable that moves the repository");
	if (!ret && (!has(gd, "objects", true) || !has(gd, "HEAD", false)))
		ret = decline(q, "not a plain repository directory");
	if (!ret && has(gd, "commondir", false))
		ret = decline(q, "a worktree");
	if (!ret && has(gd, "shallow", false))
		ret = decline(q, "a shallow clone");
	if (!ret && !(q->gitdir = realpath(gd, NULL)))
		ret = decline(q, "no real path");
	free(dotgit);
	return ret;
}

static int hex_to_oid(const char *hex, size_t len, unsigned char *oid)
{
	if (len != GIT_OID_HEXSZ)
		return -1;
	for (size_t i = 0; i < GIT_OID_RAWSZ; i++) {
		int v = 0;
		for (int k = 0; k < 2; k++) {
			char c = hex[2 * i + (size_t)k];
			int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
				c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
			if (d < 0)
				return -1;
			v = v * 16 + d;
		}
		oid[i] = (unsigned char)v;
	}
	return 0;
}

static void add_ref(struct refs *r, const char *name, size_t len, const unsigned char *oid)
{
	r->v = xgrow(r->v, &r->alloc, r->nr + 1, sizeof(*r->v));
	r->v[r->nr].name = xstrndup(name, len);
	memcpy(r->v[r->nr].oid, oid, GIT_OID_RAWSZ);
	r->nr++;
}

static void free_refs(struct refs *r)
{
	for (size_t i = 0; i < r->nr; i++)
		free(r->v[i].name);
	free(r->v);
}

static int cmp_ref(const void *a, const void *b)
{
	return strcmp(((const struct ref *)a)->name, ((const struct ref *)b)->name);
}

/* packed-refs: "<hex> <refname>" lines; "^<hex>" peel lines and "#" headers skipped. */
static int read_packed(struct quick *q)
{
	char *path = xstrfmt("%s/packed-refs", q->gitdir), *line = NULL;
	size_t cap = 0;
	ssize_t len;
	FILE *f = fopen(path, "r");
	int ret = 0;

	free(path);
	if (!f)
		return 0;
	while (!ret && (len = getline(&line, &cap, f)) >= 0) {
		unsigned char oid[GIT_OID_RAWSZ];

		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if (line[0] == '#' || line[0] == '^')
			continue;
		if (len < GIT_OID_HEXSZ + 2 || line[GIT_OID_HEXSZ] != ' ' ||
		    hex_to_oid(line, GIT_OID_HEXSZ, oid) < 0) {
			ret = decline(q, "an unusual packed-refs line");
			break;
		}
		add_ref(&q->packed, line + GIT_OID_HEXSZ + 1, (size_t)len - GIT_OID_HEXSZ - 1, oid);
		if (!strncmp(line + GIT_OID_HEXSZ + 1, "refs/tags/", 10))
			add_ref(&q->tags, line + GIT_OID_HEXSZ + 1, (size_t)len - GIT_OID_HEXSZ - 1, oid);
	}
	free(line);
	fclose(f);
	if (q->packed.nr)
		qsort(q->packed.v, q->packed.nr, sizeof(struct ref), cmp_ref);
	return ret;
}

/* A loose ref file: its id, or decline (symbolic, unreadable, odd). */
static int read_loose(struct quick *q, const char *path, unsigned char *oid)
{
	char buf[GIT_OID_HEXSZ + 2];
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, sizeof(buf), f) : 0;

	if (f)
		fclose(f);
	if (n < GIT_OID_HEXSZ || (n > GIT_OID_HEXSZ && buf[GIT_OID_HEXSZ] != '\n') ||
	    hex_to_oid(buf, GIT_OID_HEXSZ, oid) < 0)
		return decline(q, "a symbolic or unusual loose ref");
	return 0;
}

/* Every loose ref below refs/tags (dir is relative to the git directory). */
static int read_loose_tags(struct quick *q, const char *dir)
{
	char *path = xstrfmt("%s/%s", q->gitdir, dir);
	DIR *d = opendir(path);
	struct dirent *e;
	int ret = 0;

	free(path);
	if (!d)
		return 0;
	while (!ret && (e = readdir(d))) {
		char *sub;
		unsigned char oid[GIT_OID_RAWSZ];
		size_t len = strlen(e->d_name);

		if (e->d_name[0] == '.') {
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
				ret = decline(q, "a hidden file among the tags");
			continue;
		}
		if (len > 5 && !strcmp(e->d_name + len - 5, ".lock")) {
			ret = decline(q, "a locked ref");
			continue;
		}
		sub = xstrfmt("%s/%s", dir, e->d_name);
		path = xstrfmt("%s/%s", q->gitdir, sub);
		if (is_dir(path))
			ret = read_loose_tags(q, sub);
		else if ((ret = read_loose(q, path, oid)) == 0)
			add_ref(&q->tags, sub, strlen(sub), oid);
		free(path);
		free(sub);
	}
	closedir(d);
	return ret;
}

/* The tags in name order: the loose ones, and the packed ones no loose ref hides. */
static void settle_tags(struct quick *q, struct refs *loose)
{
	if (loose->nr)
		qsort(loose->v, loose->nr, sizeof(struct ref), cmp_ref);
	for (size_t i = 0; i < q->tags.nr; i++) {
		struct ref *p = &q->tags.v[i];
		if (loose->nr && bsearch(p, loose->v, loose->nr, sizeof(struct ref), cmp_ref)) {
			free(p->name);
			continue;
		}
		add_ref(loose, p->name, strlen(p->name), p->oid);
		free(p->name);
	}
	free(q->tags.v);
	q->tags = *loose;
	if (q->tags.nr)
		qsort(q->tags.v, q->tags.nr, sizeof(struct ref), cmp_ref);
}

static bool same_tags(const struct quick *q)
{
	const struct relindex *ix = &q->ix;

	if (q->tags.nr != ix->ntags)
		return false;
	for (uint32_t t = 0; t < ix->ntags; t++)
		if (strcmp(q->tags.v[t].name, relindex_refname(ix, t)) ||
		    memcmp(q->tags.v[t].oid, ix->tags[t].target, GIT_OID_RAWSZ))
			return false;
	return true;
}

/* dag_find on the index, each slot and id checked before it is trusted. */
static int lookup(struct quick *q, const unsigned char *oid, uint32_t *out)
{
	struct relindex *ix = &q->ix;
	size_t s = dag_slot_of(oid, ix->dag.nslots);

	for (size_t probes = 0; probes < ix->dag.nslots; probes++) {
		const uint32_t *slot = &ix->dag.slots[s];
		uint32_t i;

		if (!relindex_check(ix, slot, sizeof(*slot)) || *slot > ix->dag.nr)
			return decline(q, "a damaged index block");
		if (!*slot)
			return decline(q, "a rev the index does not hold");
		i = *slot - 1;
		if (!relindex_check(ix, &ix->dag.oids[i], sizeof(git_oid)))
			return decline(q, "a damaged index block");
		if (!memcmp(ix->dag.oids[i].id, oid, GIT_OID_RAWSZ)) {
			*out = i;
			return 0;
		}
		s = (s + 1) & (ix->dag.nslots - 1);
	}
	return decline(q, "a rev the index does not hold");
}

static bool is_packed(struct quick *q, const char *refname)
{
	struct ref key = { (char *)refname, { 0 } };

	return q->packed.nr &&
	       bsearch(&key, q->packed.v, q->packed.nr, sizeof(struct ref), cmp_ref);
}

/* The names in dir, sorted, into r (ids unused). */
static void list_dir(const char *dir, struct refs *r)
{
	static const unsigned char none[GIT_OID_RAWSZ];
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d)))
		add_ref(r, e->d_name, strlen(e->d_name), none);
	if (d)
		closedir(d);
	if (r->nr)
		qsort(r->v, r->nr, sizeof(struct ref), cmp_ref);
}

/* Could a file dir/name exist?  Its first component must be in dir's listing. */
static bool may_exist(const struct refs *listing, const char *name)
{
	char *first = xstrndup(name, strcspn(name, "/"));
	struct ref key = { first, { 0 } };
	bool found = listing->nr &&
		bsearch(&key, listing->v, listing->nr, sizeof(struct ref), cmp_ref);

	free(first);
	return found;
}

/*
 * tags.c's short_name(), from the files: "tags/X" when refs/X or a file X
 * exists.  Two directory listings rule out the files for most tags: a
 * stat for each would cost more than the rest of an answer.
 */
static const char *short_name(struct quick *q, uint32_t t)
{
	struct tag *tag = &q->table.v[t];
	const char *name = relindex_refname(&q->ix, t) + strlen("refs/tags/");
	char *ref, *loose, *top;
	bool ambiguous;

	if (tag->shortname)
		return tag->shortname;
	if (!q->listed) {
		char *refs = xstrfmt("%s/refs", q->gitdir);
		list_dir(q->gitdir, &q->top_files);
		list_dir(refs, &q->top_refs);
		free(refs);
		q->listed = true;
	}
	ref = xstrfmt("refs/%s", name);
	loose = xstrfmt("%s/refs/%s", q->gitdir, name);
	top = xstrfmt("%s/%s", q->gitdir, name);
	ambiguous = is_packed(q, ref) || (may_exist(&q->top_refs, name) && is_file(loose)) ||
		    (may_exist(&q->top_files, name) && is_file(top));
	free(ref);
	free(loose);
	free(top);
	tag->shortname = xstrdup(ambiguous ? relindex_refname(&q->ix, t) + strlen("refs/") : name);
	return tag->shortname;
}

int quick_name(struct quick *q, uint32_t c, struct sbuf *out)
{
	struct relindex *ix = &q->ix;
	const struct relindex_name *name = &ix->names[c];
	uint32_t s;

	if (!relindex_check(ix, name, sizeof(*name)) || name->seg >= ix->nsegs ||
	    !relindex_check(ix, &ix->min_desc[c], sizeof(int64_t)) ||
	    !relindex_check(ix, &ix->dag.dates[c], sizeof(int64_t)))
		return decline(q, "a damaged index block");
	/* clock skew below c and no graph: git's date cutoff may name it otherwise */
	if (!naming_uncut_is_gits(cgraph_present(&q->graph) &&
				  cgraph_contains(&q->graph, &ix->dag.oids[c]),
				  ix->dag.dates[c], ix->min_desc[c]))
		return decline(q, "a commit with clock skew below it");
	if (!name->seg)
		return 0;
	for (s = name->seg;; s = ix->segs[s].prev) {
		if (!relindex_check(ix, &ix->segs[s], sizeof(ix->segs[s])) ||
		    ix->segs[s].prev >= s || ix->segs[s].tip >= ix->ntags)
			return decline(q, "a damaged index block");
		if (!ix->segs[s].prev)
			break;
	}
	q->table.v[ix->segs[s].tip].deref = ix->tags[ix->segs[s].tip].deref;
	short_name(q, ix->segs[s].tip);
	segname_render(ix->segs, &q->table, name->seg, name->generation, out);
	return 1;
}

int quick_first_release(struct quick *q, uint32_t c, uint32_t *tag)
{
	struct relindex *ix = &q->ix;

	if (!relindex_check(ix, &ix->first[c], sizeof(uint32_t)) ||
	    (ix->first[c] >= ix->ntags && ix->first[c] != UINT32_MAX))
		return decline(q, "a damaged index block");
	*tag = ix->first[c];
	if (*tag != UINT32_MAX)
		short_name(q, *tag);
	return 0;
}

/* Every tag with its short name, and which are releases, as tagread.h and tags_classify have them. */
static void classify(struct quick *q)
{
	if (!q->classified) {
		for (uint32_t t = 0; t < q->ix.ntags; t++) {
			struct tag *tag = &q->table.v[t];
			tag->refname = xstrdup(relindex_refname(&q->ix, t));
			tag->commit = q->ix.tags[t].commit;
			tag->taggerdate = q->ix.tags[t].taggerdate;
			tag->deref = q->ix.tags[t].deref;
			short_name(q, t);
		}
		tags_classify(&q->table, q->ix.glob);
		q->classified = true;
	}
}

const struct tag_table *quick_tags(struct quick *q)
{
	return &q->table;
}

uint32_t *quick_containing(struct quick *q, uint32_t c, size_t *n)
{
	classify(q);
	return relindex_tags_containing(&q->ix, c, n);
}

const unsigned char *quick_oid(const struct quick *q, uint32_t c)
{
	return q->ix.dag.oids[c].id;
}

char *quick_message(struct quick *q, uint32_t c)
{
	struct sbuf raw = SBUF_INIT;
	const char *p = NULL;
	char *msg = NULL;

	if (!q->store) {
		char *objdir = xstrfmt("%s/objects", q->gitdir);
		q->store = objstore_open(objdir);
		free(objdir);
		if (!q->store) {
			decline(q, "no objects directory");
			return NULL;
		}
	}
	if (objstore_read(q->store, q->ix.dag.oids[c].id, 0, &raw) != OBJSTORE_COMMIT ||
	    !(p = strstr(raw.buf, "\n\n")))
		decline(q, "a commit it cannot read alone");
	if (p) {
		for (p += 2; *p == '\n'; p++)
			;
		msg = xstrdup(p);
	}
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
		return decline(q, "a config that may turn the commit-graph off");
	objdir = xstrfmt("%s/objects", q->gitdir);
	cgraph_open_objdir(&q->graph, objdir);
	free(objdir);
	return 0;
}

static int open_index(struct quick *q, const char *release_glob)
{
	struct refs loose = { 0 };
	char *path, why[128];
	int ret;

	if ((ret = read_packed(q)) || (ret = read_loose_tags(q, "refs/tags")))
		goto out;
	settle_tags(q, &loose);     /* loose now belongs to q->tags */
	memset(&loose, 0, sizeof(loose));
	path = relindex_path(q->gitdir);
	if (relindex_open(&q->ix, path, q->gitdir, true, why, sizeof(why)) != RELINDEX_OK)
		ret = decline(q, "no usable index");
	free(path);
	if (ret)
		return ret;
	if (!same_tags(q))
		return decline(q, "tags changed since the index was written");
	if (strcmp(q->ix.glob, release_glob))
		return decline(q, "another release glob");
	q->table.nr = q->ix.ntags;
	q->table.v = xcalloc(q->ix.ntags + 1, sizeof(struct tag));
out:
	free_refs(&loose);
	return ret;
}

struct quick *quick_open(const char *dir, const char *release_glob, const char **why)
{
	struct quick *q = xcalloc(1, sizeof(*q));

	if (find_gitdir(q, dir ? dir : ".") || open_index(q, release_glob) || open_graph(q)) {
		*why = q->why;
		quick_close(q);
		return NULL;
	}
	return q;
}

const char *quick_why(const struct quick *q)
{
	return q->why;
}

int quick_lookup(struct quick *q, const char *rev, uint32_t *commit)
{
	unsigned char oid[GIT_OID_RAWSZ];

	if (hex_to_oid(rev, strlen(rev), oid) < 0)
		return decline(q, "a rev that is not a full commit id");
	return lookup(q, oid, commit);
}

void quick_close(struct quick *q)
{
	if (!q)
		return;
	tags_free(&q->table);
	relindex_close(&q->ix);
	cgraph_close(&q->graph);
	objstore_close(q->store);
	free_refs(&q->packed);
	free_refs(&q->tags);
	free_refs(&q->top_files);
	free_refs(&q->top_refs);
	free(q->gitdir);
	free(q);
}
