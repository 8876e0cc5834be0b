/*
 * Reading the tag table from a repository: every ref under refs/tags,
 * from its files or else through libgit2, peeled as git name-rev peels
 * them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "patchver/base/error.h"
#include "patchver/base/util.h"
#include "patchver/engine/cgraph.h"
#include "patchver/engine/gitstart.h"
#include "patchver/engine/objstore.h"
#include "patchver/engine/reffiles.h"
#include "patchver/engine/tagload.h"

/*
 * The tagger date as git's parse_tag_buffer() reads it: the number after
 * the last '>' on the tagger line, 0 when there is no tagger line.
 */
static int64_t tagger_date(const char *p, const char *end)
{
	while (p < end && *p != '\n') {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		if (eol - p > 7 && !memcmp(p, "tagger ", 7)) {
			const char *gt = NULL;
			for (const char *q = p; q < eol; q++)
				if (*q == '>')
					gt = q;
			return gt ? strtoll(gt + 1, NULL, 10) : 0;
		}
		p = eol + 1;
	}
	return 0;
}

/* The "object" a tag object points at. */
static int tag_object(const char *p, const char *end, git_oid *out)
{
	if (end - p < 7 + GIT_OID_HEXSZ || memcmp(p, "object ", 7))
		return -1;
	return git_oid_fromstrn(out, p + 7, GIT_OID_HEXSZ);
}

/* The headers of tags and commits fit in this but for long names and octopus merges. */
#define HEADER_PREFIX 512

/*
 * One object's type and, for a tag or commit, its header: through
 * objstore, which reads an object's first bytes in microseconds, else
 * libgit2 (which verifies and inflates the whole object: 216 tags took
 * 60 ms).  A tag may name a large blob, and the messages are never
 * needed.  Returns the type, or GIT_OBJECT_INVALID when the object is
 * missing.
 */
static git_object_t read_object(git_odb *odb, struct dag *dag, const git_oid *oid,
				struct sbuf *data)
{
	struct objstore *store = dag_store(dag);
	git_odb_object *obj;
	git_object_t type;
	int t;

	sbuf_reset(data);
	/* what git reads for oid: its replacement, if a replace ref names one */
	if (!(oid = replace_object(&dag->replaced, oid)))
		return GIT_OBJECT_INVALID;
	if (store && (t = objstore_read(store, oid->id, HEADER_PREFIX, data)) > 0) {
		if (data->len < HEADER_PREFIX || memmem(data->buf, data->len, "\n\n", 2) ||
		    (t != OBJSTORE_TAG && t != OBJSTORE_COMMIT) ||
		    objstore_read(store, oid->id, 0, data) == t)
			return (git_object_t)t;
		sbuf_reset(data);
	}
	if (git_odb_read(&obj, odb, oid) < 0)
		return GIT_OBJECT_INVALID;
	type = git_odb_object_type(obj);
	if (type == GIT_OBJECT_TAG || type == GIT_OBJECT_COMMIT)
		sbuf_add(data, git_odb_object_data(obj), git_odb_object_size(obj));
	git_odb_object_free(obj);
	return type;
}

/*
 * Peel tag->target through tag objects to a commit.  Missing objects and
 * non-commits leave tag->commit at PV_NONE, as git leaves them unnamed.
 * What git's commit-graph holds is a commit, unread: git's parse_object()
 * reads no object the graph has either.
 */
static void peel(struct tag *tag, git_odb *odb, struct dag *dag, struct sbuf *data)
{
	git_oid oid = tag->target;
	int depth = 0;

	tag->commit = PV_NONE;
	tag->taggerdate = INT64_MAX;
	for (;;) {
		uint32_t pos = dag->graph && cgraph_present(dag->graph) ?
			cgraph_pos(dag->graph, &oid) : PV_NONE;
		git_object_t type;

		if (pos != PV_NONE) {
			sbuf_reset(data);
			type = GIT_OBJECT_COMMIT;
		} else {
			type = read_object(odb, dag, &oid, data);
		}

		if (type == GIT_OBJECT_TAG && depth++ < 10000) {
			const char *p = data->buf ? data->buf : "", *end = p + data->len;
			tag->taggerdate = tagger_date(p, end);
			tag->deref = true;
			if (tag_object(p, end, &oid) < 0)
				return;
			continue;
		}
		if (type == GIT_OBJECT_COMMIT) {
			tag->commit = dag_intern(dag, &oid);
			if (pos != PV_NONE)
				dag_note_graph_pos(dag, tag->commit, pos);
			if (data->len)   /* read, not found in git's commit-graph */
				dag_parse_data(dag, tag->commit, data->buf, data->len);
		}
		return;
	}
}

/*
 * The name git name-rev --tags --name-only prints for a tag ref:
 * shorten_unambiguous_ref() drops "refs/tags/" unless "refs/<name>" or a
 * top-level ref "<name>" exists, then it keeps "tags/".
 */
static char *short_name(git_repository *repo, const char *refname)
{
	const char *name = refname + strlen("refs/tags/");
	char path[4096];
	struct sbuf sb = SBUF_INIT;
	git_oid oid;
	struct stat st;
	bool ambiguous;

	sbuf_addf(&sb, "refs/%s", name);
	ambiguous = git_reference_name_to_id(&oid, repo, sbuf_str(&sb)) == 0;
	snprintf(path, sizeof(path), "%s%s", git_repository_commondir(repo), name);
	if (!ambiguous && stat(path, &st) == 0 && S_ISREG(st.st_mode))
		ambiguous = true;
	sbuf_free(&sb);
	return xstrdup(ambiguous ? refname + strlen("refs/") : name);
}

static int cmp_refname(const void *a, const void *b)
{
	return strcmp(((const struct tag *)a)->refname,
		      ((const struct tag *)b)->refname);
}

static int read_refs(struct tag_table *t, git_repository *repo)
{
	git_reference_iterator *it = NULL;
	git_reference *ref;
	size_t alloc = 0;
	int err;

	if (git_reference_iterator_glob_new(&it, repo, "refs/tags/*") < 0)
		return -1;
	while ((err = git_reference_next(&ref, it)) == 0) {
		git_reference *resolved = NULL;
		struct tag *tag;

		if (git_reference_resolve(&resolved, ref) < 0) {
			git_reference_free(ref);
			continue;   /* dangling symbolic ref: git skips it too */
		}
		t->v = xgrow(t->v, &alloc, t->nr + 1, sizeof(*t->v));
		tag = &t->v[t->nr++];
		memset(tag, 0, sizeof(*tag));
		tag->refname = xstrdup(git_reference_name(ref));
		git_oid_cpy(&tag->target, git_reference_target(resolved));
		git_reference_free(resolved);
		git_reference_free(ref);
	}
	git_reference_iterator_free(it);
	return err == GIT_ITEROVER ? 0 : -1;
}

/*
 * The tags from the repository's files (reffiles.h): libgit2 looked each
 * "refs/<name>" up on its own, 4 ms of a one-query walk.
 */
static bool read_files(struct tag_table *t, git_repository *repo)
{
	struct reffiles r;
	const char **names;

	if (reffiles_tags(&r, git_repository_commondir(repo)) < 0) {
		reffiles_free(&r);
		return false;
	}
	names = xmalloc((r.tags.nr + 1) * sizeof(*names));
	for (size_t i = 0; i < r.tags.nr; i++)
		names[i] = r.tags.v[i].name;
	reffiles_short_names(&r, names, r.tags.nr);
	t->v = xcalloc(r.tags.nr + 1, sizeof(*t->v));
	for (size_t i = 0; i < r.tags.nr; i++) {
		struct tag *tag = &t->v[t->nr++];

		tag->refname = xstrdup(r.tags.v[i].name);
		memcpy(tag->target.id, r.tags.v[i].oid, GIT_OID_RAWSZ);
		tag->loose = r.tags.v[i].loose;
		tag->shortname = xstrdup(names[i]);
	}
	free(names);
	t->tag_digest = r.tag_digest;
	reffiles_free(&r);
	return true;
}

int tagload_refs(struct tag_table *t, git_repository *repo)
{
	memset(t, 0, sizeof(*t));
	if (read_files(t, repo))
		return 0;
	if (read_refs(t, repo) < 0)
		return pv_error_set(PV_ENOREPO, "cannot read tags: %s", git_errmsg());
	if (t->nr)
		qsort(t->v, t->nr, sizeof(*t->v), cmp_refname);
	for (size_t i = 0; i < t->nr; i++)
		t->v[i].shortname = short_name(repo, t->v[i].refname);
	return 0;
}

int tagload_peel(struct tag_table *t, struct dag *dag)
{
	struct sbuf data = SBUF_INIT;
	int ret = 0;

	for (size_t i = 0; i < t->nr && !ret; i++) {
		struct tag *tag = &t->v[i];

		peel(tag, dag->odb, dag, &data);
		if (tag->commit == PV_NONE)
			continue;
		if ((dag->lazy ? dag_parse(dag, tag->commit) : dag_load(dag, tag->commit)) < 0) {
			char hex[GIT_OID_HEXSZ + 1];
			git_oid_tostr(hex, sizeof(hex), &dag->oids[tag->commit]);
			ret = pv_error_wrap(PV_ECORRUPT, "history of tag %s is broken below %s: ",
					    tag->shortname, hex);
		} else if (tag->taggerdate == INT64_MAX) {
			tag->taggerdate = dag->dates[tag->commit];
		}
	}
	sbuf_free(&data);
	return ret;
}
