/*
 * Opening a repository and loading what every query needs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <git2/sys/mempack.h>
#include <git2/sys/odb_backend.h>

#include "patchver/base/error.h"
#include "patchver/base/notice.h"
#include "patchver/base/util.h"
#include "patchver/engine/gitstart.h"
#include "patchver/engine/history.h"
#include "patchver/engine/indexer.h"
#include "patchver/engine/objstore.h"
#include "patchver/engine/tagload.h"

static void tune_libgit2(const struct history_opts *opts)
{
	/*
	 * Objects are read once each: libgit2's object cache only costs
	 * memory here, and re-hashing every object on read (strict
	 * verification) doubles the cost of loading a kernel history.
	 */
	git_libgit2_opts(GIT_OPT_ENABLE_CACHING, 0);
	git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
	/*
	 * An audit of v2.6.34..v2.6.35-rc1 on the 363 MB kernel pack: peak
	 * RSS 365 MB with one window, 170 MB with these, for 8 s -> 11 s.
	 * Set before the repository opens: a window once mapped stays so.
	 */
	if (opts->scan_pack) {
		git_libgit2_opts(GIT_OPT_SET_MWINDOW_SIZE, (size_t)64 << 20);
		git_libgit2_opts(GIT_OPT_SET_MWINDOW_MAPPED_LIMIT, (size_t)256 << 20);
	}
}

/* The mempack holds only what libgit2 wrote: nothing to list. */
static int mempack_foreach(git_odb_backend *b, git_odb_foreach_cb cb, void *payload)
{
	(void)b;
	(void)cb;
	(void)payload;
	return 0;
}

/*
 * patchver never writes to the repository it reads.  libgit2 does write
 * on its own: git_apply_to_tree() stores each postimage blob, writing an
 * index's tree stores trees, and writing an object that exists already
 * "freshens" it (a new mtime on its pack or loose file).  So:
 *  - a mempack backend above every other one takes the writes, in memory;
 *  - the repository's own backends lose their freshen hook (libgit2 then
 *    asks exists(), which changes nothing);
 *  - the mempack gets the foreach it lacks (1.5.1 calls it unchecked).
 */
static int shield_odb(git_repository *repo)
{
	git_odb *odb = NULL;
	git_odb_backend *mem = NULL, *b;
	int ret = -1;

	if (git_repository_odb(&odb, repo) < 0)
		goto out;
	for (size_t i = 0; i < git_odb_num_backends(odb); i++)
		if (git_odb_get_backend(&b, odb, i) == 0)
			b->freshen = NULL;
	if (git_mempack_new(&mem) < 0)
		goto out;
	mem->foreach = mempack_foreach;
	if (git_odb_add_backend(odb, mem, 1000) < 0) {
		mem->free(mem);
		goto out;
	}
	ret = 0;
out:
	git_odb_free(odb);
	return ret;
}

/*
 * path NULL: the repository git would use here, honouring GIT_DIR,
 * GIT_WORK_TREE, GIT_OBJECT_DIRECTORY, GIT_ALTERNATE_OBJECT_DIRECTORIES and
 * GIT_CEILING_DIRECTORIES as every git tool does; a path (-C) wins over them.
 */
int history_open_repo(git_repository **repo, const char *path)
{
	const char *name = path ? path : getenv("GIT_DIR") ? getenv("GIT_DIR") : ".";

	*repo = NULL;
	if (git_repository_open_ext(repo, path, path ? 0 : GIT_REPOSITORY_OPEN_FROM_ENV, NULL) < 0)
		return pv_error_set(PV_ENOREPO, "not a git repository: '%s'", name);
	if (shield_odb(*repo) < 0)
		return pv_error_set(PV_EINTERNAL, "cannot open '%s' read-only: %s", name, git_errmsg());
	return 0;
}

/* Does git's commit-graph hold the commit of every tag? */
static bool graph_holds_tags(struct history *h)
{
	if (!cgraph_present(&h->graph))
		return false;
	for (size_t i = 0; i < h->tags.nr; i++)
		if (h->tags.v[i].commit != PV_NONE &&
		    dag_graph_pos(&h->dag, h->tags.v[i].commit) == PV_NONE)
			return false;
	return true;
}

/* Peel the tags read and load the history below them (or not: lazy). */
static int load_objects(struct history *h, const struct history_opts *opts, bool lazy)
{
	int ret;

	h->dag.lazy = h->lazy = lazy;
	if (!lazy && cgraph_present(&h->graph))
		dag_reserve(&h->dag, (uint32_t)cgraph_commits(&h->graph));
	if ((ret = tagload_peel(&h->tags, &h->dag)))
		return ret;
	h->graph_has_tags = lazy && graph_holds_tags(h);
	tags_classify(&h->tags, opts->release_glob);
	h->tag_commits = h->lazy ? 0 : h->dag.nr;
	return 0;
}

enum tag_change { TAGS_SAME, TAGS_GROWN, TAGS_CHANGED };

/* The repository's tags against the index's: both in refname order. */
static enum tag_change compare_tags(const struct tag_table *t, const struct relindex *ix)
{
	size_t i = 0;

	for (uint32_t k = 0; k < ix->ntags; k++, i++) {
		const char *name = relindex_refname(ix, k);

		while (i < t->nr && strcmp(t->v[i].refname, name) < 0)
			i++;
		if (i == t->nr || strcmp(t->v[i].refname, name) ||
		    memcmp(t->v[i].target.id, ix->tags[k].target, GIT_OID_RAWSZ))
			return TAGS_CHANGED;   /* deleted or moved */
	}
	return t->nr == ix->ntags ? TAGS_SAME : TAGS_GROWN;
}

/*
 * Same tags, but read from other files (packed since, say): the index
 * takes the new facts, or every quick query would parse packed-refs.
 */
static void restamp(struct history *h)
{
	const struct tag_table *t = &h->tags;
	bool *loose, differ = t->tag_digest != h->ix.tag_digest;

	if (!t->tag_digest)
		return;         /* read through libgit2: nothing to say */
	loose = xmalloc(t->nr + 1);
	for (size_t i = 0; i < t->nr; i++) {
		loose[i] = t->v[i].loose;
		differ |= loose[i] != h->ix.tags[i].loose;
	}
	h->ix_refs_known = !differ;
	if (differ && relindex_restamp_tags(&h->ix, loose, t->tag_digest, h->ix_path) == 0)
		h->ix_refs_known = true;
	else if (differ)
		pv_notice(PV_NOTICE_WARNING, "%s", pv_error_last()->message);
	free(loose);
}

/* Answer from a fresh index: the tags peeled and the DAG, as it wrote them. */
static void attach(struct history *h, const char *glob)
{
	for (size_t i = 0; i < h->tags.nr; i++) {
		h->tags.v[i].commit = h->ix.tags[i].commit;
		h->tags.v[i].taggerdate = h->ix.tags[i].taggerdate;
		h->tags.v[i].deref = h->ix.tags[i].deref;
	}
	tags_classify(&h->tags, glob);
	dag_borrow(&h->dag, &h->ix.dag);
	h->tag_commits = h->ix.dag.nr;
	h->have_ix = true;
	h->ix_state = INDEX_FRESH;
}

/* The repository's identity in the index: its common git directory. */
static char *index_ident(git_repository *repo)
{
	char *real = realpath(git_repository_commondir(repo), NULL);
	char *ident = xstrdup(real ? real : git_repository_commondir(repo));

	free(real);
	return ident;
}

/* Compute the index from the loaded DAG, keep it for the answers, save it. */
static void build_index(struct history *h, const char *ident, const char *glob,
			enum history_index_state state)
{
	indexer_build(&h->ix, &h->dag, &h->tags, ident, glob, h->patch_id, h);
	/* this run's path walks skip commits by the top masks just computed */
	h->dag.topmask = h->ix.dag.topmask;
	h->dag.topmask_nr = h->ix.dag.nr;
	h->have_ix = true;
	h->ix_state = state;
	if (relindex_write(&h->ix, h->ix_path) < 0)
		pv_notice(PV_NOTICE_WARNING, "%s (the next run computes it again)",
			  pv_error_last()->message);
	else
		h->ix_saved = true;
	h->ix_refs_known = h->ix_saved && h->ix.tag_digest;
}

static int open_indexed(struct history *h, const struct history_opts *opts)
{
	const char *glob = opts->release_glob;
	char *ident = index_ident(h->repo);
	enum history_index_state state = INDEX_BUILT;
	int ret;

	h->ix_path = relindex_path(ident);
	ret = relindex_open(&h->ix, h->ix_path, ident, false);
	if (!ret) {
		enum tag_change change = compare_tags(&h->tags, &h->ix);
		if (change == TAGS_SAME) {
			restamp(h);
			attach(h, glob);
			ret = 0;
			goto out;
		}
		if (change == TAGS_GROWN) {
			/* walk only what is new: the DAG starts as the index's */
			h->old_ix = h->ix;
			memset(&h->ix, 0, sizeof(h->ix));
			dag_borrow(&h->dag, &h->old_ix.dag);
			state = INDEX_EXTENDED;
		} else {
			pv_notice(PV_NOTICE_NOTE, "release index: tags moved or deleted "
				  "since it was written; rebuilding");
			relindex_close(&h->ix);
			state = INDEX_REBUILT;
		}
	} else if (ret == PV_ECORRUPT) {
		pv_notice(PV_NOTICE_NOTE, "%s; rebuilding", pv_error_last()->message);
		state = INDEX_REBUILT;
	} else if (opts->index == HISTORY_INDEX_USE) {
		state = INDEX_UNUSED;
	}
	if ((ret = load_objects(h, opts, state == INDEX_UNUSED && opts->lazy_ok &&
				     opts->index == HISTORY_INDEX_USE)))
		goto out;
	if (state != INDEX_UNUSED)
		build_index(h, ident, glob, state);
out:
	free(ident);
	return ret;
}

/*
 * The commit-graph git would use: none if core.commitGraph is false, the
 * repository is shallow, or replace refs or grafts change its history (the
 * graph holds the parents the objects spell).  Here, not in cgraph.c, so
 * that the graph reader needs no libgit2 (the quick path reads it before
 * libgit2 starts).
 */
static void open_graph(struct cgraph *g, git_repository *repo, const struct dag *dag)
{
	git_config *cfg = NULL;
	char objdir[2048];
	int enabled = 1;

	if (git_repository_config_snapshot(&cfg, repo) == 0) {
		if (git_config_get_bool(&enabled, cfg, "core.commitGraph") < 0)
			enabled = 1;
		git_config_free(cfg);
	}
	git_error_clear();
	/* git ignores the graph in shallow repositories, and over replaced history */
	if (!enabled || git_repository_is_shallow(repo) == 1 ||
	    replace_map_active(&dag->replaced))
		return;
	snprintf(objdir, sizeof(objdir), "%sobjects", git_repository_commondir(repo));
	cgraph_open_objdir(g, objdir);
}

int history_open(struct history *h, const struct history_opts *opts)
{
	const char *path = opts->path ? opts->path : getenv("GIT_DIR") ? getenv("GIT_DIR") : ".";
	bool shallow, replaced;
	int ret;

	memset(h, 0, sizeof(*h));
	tune_libgit2(opts);
	if ((ret = history_open_repo(&h->repo, opts->path)))
		return ret;
	if (dag_init(&h->dag, h->repo) < 0)
		return pv_error_wrap(PV_ENOREPO, "cannot read objects of '%s': ", path);
	open_graph(&h->graph, h->repo, &h->dag);
	h->dag.graph = &h->graph;
	h->release_glob = xstrdup(opts->release_glob);
	h->patch_id = opts->patch_id;
	shallow = git_repository_is_shallow(h->repo) == 1;
	replaced = replace_map_active(&h->dag.replaced);
	for (size_t i = 0; i < h->dag.replaced.nwarnings; i++)
		pv_notice(PV_NOTICE_WARNING, "%s", h->dag.replaced.warnings[i]);
	if ((ret = tagload_refs(&h->tags, h->repo)))
		return ret;
	/*
	 * A shallow clone's history can deepen under the same tags, and replace
	 * refs or grafts change it under the same tags: no index for either.
	 */
	if (opts->index != HISTORY_INDEX_OFF && !shallow && !replaced && h->tags.nr)
		ret = open_indexed(h, opts);
	else
		ret = load_objects(h, opts, opts->lazy_ok && !shallow);
	if (ret)
		return ret;
	if (shallow)
		pv_notice(PV_NOTICE_WARNING, "'%s' is a shallow clone: history below its cut "
			  "is missing, so releases may be missing from the answers", path);
	return 0;
}

void history_close(struct history *h)
{
	tags_free(&h->tags);
	cgraph_close(&h->graph);
	if (h->dag.odb)
		dag_free(&h->dag);
	relindex_close(&h->ix);
	relindex_close(&h->old_ix);
	free(h->ix_path);
	free(h->release_glob);
	git_repository_free(h->repo);
	memset(h, 0, sizeof(*h));
}

char *history_message(const struct history *h, uint32_t commit)
{
	const git_oid *oid = replace_object(&h->dag.replaced, &h->dag.oids[commit]);
	git_commit *c = NULL;
	char *msg = NULL;

	/* a replaced commit's message is its replacement's, as git shows it */
	if (oid && git_commit_lookup(&c, h->repo, oid) == 0) {
		const char *m = git_commit_message(c);
		msg = xstrdup(m ? m : "");
		git_commit_free(c);
	}
	git_error_clear();
	return msg;
}

char *history_subject(const struct history *h, uint32_t commit)
{
	char *msg = history_message(h, commit), *subject;

	if (!msg)
		return xstrdup("");
	subject = objstore_subject(msg);
	free(msg);
	return subject;
}

int history_load_branches(struct history *h)
{
	git_reference_iterator *it = NULL;
	git_reference *ref;
	int err = 0;

	if (h->branches_loaded)
		return 0;
	h->branches_loaded = true;
	if (git_reference_iterator_new(&it, h->repo) < 0)
		return pv_error_set(PV_ENOREPO, "cannot list the branches: %s", git_errmsg());
	while (git_reference_next(&ref, it) == 0) {
		const char *name = git_reference_name(ref);
		git_object *obj = NULL;

		if ((!strncmp(name, "refs/heads/", 11) || !strncmp(name, "refs/remotes/", 13)) &&
		    git_reference_peel(&obj, ref, GIT_OBJECT_COMMIT) == 0) {
			uint32_t i = dag_intern(&h->dag, git_object_id(obj));
			if (dag_load(&h->dag, i) < 0 && !err)
				err = pv_error_wrap(PV_ECORRUPT, "branch %s is broken: ", name);
		}
		git_object_free(obj);
		git_reference_free(ref);
	}
	git_reference_iterator_free(it);
	git_error_clear();
	return err;
}
