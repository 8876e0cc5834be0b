/*
 * A diff applied to a tree in memory: exactly, with fuzz, or merged.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/base/error.h"
#include "patchver/base/util.h"
#include "patchver/stable/apply.h"

const char *apply_how_name(enum apply_how how)
{
	static const char *const names[] = { "clean", "fuzz", "3way", "adapted", "conflict" };

	return names[how];
}

void apply_report_free(struct apply_report *r)
{
	for (size_t i = 0; i < r->nfiles; i++) {
		free(r->files[i].path);
		free(r->files[i].places);
		free(r->files[i].why);
	}
	free(r->files);
	memset(r, 0, sizeof(*r));
}

const char *apply_report_why(const struct apply_report *r)
{
	for (size_t i = 0; i < r->nfiles; i++)
		if (r->files[i].why)
			return r->files[i].why;
	return NULL;
}

void apply_tree_init(struct apply_tree *t, git_repository *repo, const git_oid *tree)
{
	memset(t, 0, sizeof(*t));
	t->repo = repo;
	git_oid_cpy(&t->tree, tree);
}

void apply_tree_only(struct apply_tree *t, char *const *paths, size_t n)
{
	for (size_t i = 0; i < t->nonly; i++)
		free(t->only[i]);
	free(t->only);
	t->only = xmalloc((n ? n : 1) * sizeof(*t->only));
	for (size_t i = 0; i < n; i++)
		t->only[i] = xstrdup(paths[i]);
	t->nonly = n;
}

void apply_tree_copy(struct apply_tree *dst, const struct apply_tree *src)
{
	apply_tree_init(dst, src->repo, &src->tree);
	if (src->only)
		apply_tree_only(dst, src->only, src->nonly);
	dst->files = xmalloc((src->nr ? src->nr : 1) * sizeof(*dst->files));
	dst->alloc = src->nr;
	for (size_t i = 0; i < src->nr; i++) {
		dst->files[i] = src->files[i];
		dst->files[i].path = xstrdup(src->files[i].path);
		text_lines_copy(&dst->files[i].text, &src->files[i].text);
	}
	dst->nr = src->nr;
}

void apply_tree_free(struct apply_tree *t)
{
	for (size_t i = 0; i < t->nr; i++) {
		free(t->files[i].path);
		text_lines_free(&t->files[i].text);
	}
	free(t->files);
	for (size_t i = 0; i < t->nonly; i++)
		free(t->only[i]);
	free(t->only);
	memset(t, 0, sizeof(*t));
}

static bool followed(const struct apply_tree *t, const char *path)
{
	if (!t->only)
		return true;
	for (size_t i = 0; i < t->nonly; i++)
		if (!strcmp(t->only[i], path))
			return true;
	return false;
}

/* The blob at path in tree id into text; *exists false if none.  0 or PV_ECORRUPT. */
static int read_path(git_repository *repo, const git_oid *tree_id, const char *path,
		     struct text_lines *text, bool *exists, unsigned *mode)
{
	git_tree *tree = NULL;
	git_tree_entry *e = NULL;
	git_blob *blob = NULL;
	int ret = 0;

	*exists = false;
	if (git_tree_lookup(&tree, repo, tree_id) < 0) {
		ret = pv_error_set(PV_ECORRUPT, "cannot read tree %s: %s", git_oid_tostr_s(tree_id),
				   git_error_last() ? git_error_last()->message : "unknown error");
		goto out;
	}
	if (git_tree_entry_bypath(&e, tree, path) < 0)
		goto out;               /* absent */
	if (git_tree_entry_type(e) != GIT_OBJECT_BLOB)
		goto out;               /* a directory or a submodule: no file there */
	if (git_blob_lookup(&blob, repo, git_tree_entry_id(e)) < 0) {
		ret = pv_error_set(PV_ECORRUPT, "cannot read %s of tree %s", path,
				   git_oid_tostr_s(tree_id));
		goto out;
	}
	*exists = true;
	*mode = git_tree_entry_filemode(e);
	text_lines_split(text, git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob));
out:
	git_error_clear();
	git_blob_free(blob);
	git_tree_entry_free(e);
	git_tree_free(tree);
	return ret;
}

/* t's file at path, read from its tree the first time.  NULL: PV_ECORRUPT recorded. */
static struct tree_text *file_of(struct apply_tree *t, const char *path)
{
	struct tree_text *f;

	for (size_t i = 0; i < t->nr; i++)
		if (!strcmp(t->files[i].path, path))
			return &t->files[i];
	t->files = xgrow(t->files, &t->alloc, t->nr + 1, sizeof(*t->files));
	f = &t->files[t->nr];
	memset(f, 0, sizeof(*f));
	if (read_path(t->repo, &t->tree, path, &f->text, &f->exists, &f->mode) < 0) {
		text_lines_free(&f->text);
		return NULL;
	}
	f->path = xstrdup(path);
	t->nr++;
	return f;
}

const struct text_lines *apply_tree_file(struct apply_tree *t, const char *path)
{
	struct tree_text *f = file_of(t, path);

	return f && f->exists ? &f->text : NULL;
}

/* The diff's preimage of f: from o->preimage's tree, else the "index" line's blob. */
static bool preimage_of(git_repository *repo, const struct file_diff *f,
			const struct apply_opts *o, struct text_lines *base)
{
	git_object *obj = NULL;
	bool exists = false;
	unsigned mode;
	git_oid id;
	size_t n = strlen(f->old_blob);

	if (o->preimage) {
		if (read_path(repo, o->preimage, f->old_path, base, &exists, &mode) < 0)
			return false;
		return exists;
	}
	if (n < 7 || git_oid_fromstrn(&id, f->old_blob, n) < 0 ||
	    git_object_lookup_prefix(&obj, repo, &id, n, GIT_OBJECT_BLOB) < 0) {
		git_error_clear();
		return false;
	}
	text_lines_split(base, git_blob_rawcontent((git_blob *)obj),
			 (size_t)git_blob_rawsize((git_blob *)obj));
	git_object_free(obj);
	return true;
}

/* The hashes of text's lines that say something (braces and blank lines aside), sorted. */
static uint64_t *line_hashes(const char *text, size_t len, size_t *n)
{
	uint64_t *v = NULL;
	size_t alloc = 0;
	const char *end = text + len;

	*n = 0;
	for (const char *l = text; l < end;) {
		const char *e = memchr(l, '\n', (size_t)(end - l));
		size_t said = 0;
		if (!e)
			e = end;
		for (const char *p = l; p < e; p++)
			said += *p != ' ' && *p != '\t' && *p != '{' && *p != '}' && *p != ';';
		if (said >= 3) {
			v = xgrow(v, &alloc, *n + 1, sizeof(*v));
			v[(*n)++] = fnv1a(l, (size_t)(e - l));
		}
		l = e + 1;
	}
	qsort(v, *n, sizeof(*v), cmp_u64);
	return v;
}

static size_t count_of(const uint64_t *v, size_t n, uint64_t h)
{
	size_t lo = 0, hi = n, c = 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid] < h)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo + c < n && v[lo + c] == h)
		c++;
	return c;
}

/*
 * Does merged keep what the release's own line did to the file since own
 * (its text where the lines parted): every line it added still there as
 * often, none it removed come back?  A conflict resolved to the
 * prerequisite's side must not undo the release's own fixes.
 */
static bool keeps_own(const char *own, size_t own_len, const char *ours, size_t ours_len,
		      const char *merged, size_t merged_len)
{
	size_t nm, no, nr;
	uint64_t *m = line_hashes(own, own_len, &nm), *o = line_hashes(ours, ours_len, &no);
	uint64_t *r = line_hashes(merged, merged_len, &nr);
	bool keeps = true;

	for (size_t i = 0; i < no && keeps; i++) {
		size_t c_o = count_of(o, no, o[i]);
		keeps = c_o <= count_of(m, nm, o[i]) || count_of(r, nr, o[i]) >= c_o;
	}
	for (size_t i = 0; i < nm && keeps; i++) {
		size_t c_o = count_of(o, no, m[i]);
		keeps = count_of(m, nm, m[i]) <= c_o || count_of(r, nr, m[i]) <= c_o;
	}
	free(m);
	free(o);
	free(r);
	return keeps;
}

/*
 * A conflict resolved to the prerequisite's side (git merge-file
 * --theirs), where that keeps the release's own changes (o->own_since):
 * into ours, 1; else 0.
 */
static int adapt_theirs(git_repository *repo, const struct file_diff *f, const struct apply_opts *o,
			const git_merge_file_input *in, struct text_lines *ours)
{
	git_merge_file_options mo;
	git_merge_file_result res = { 0 };
	struct text_lines own = { 0 };
	bool exists = false;
	unsigned mode;
	char *own_text = NULL;
	size_t own_len = 0;
	int ok = 0;

	if (!o->own_since || read_path(repo, o->own_since, f->old_path, &own, &exists, &mode) < 0)
		goto out;
	own_text = text_lines_join(&own, &own_len);
	git_merge_file_options_init(&mo, GIT_MERGE_FILE_OPTIONS_VERSION);
	mo.favor = GIT_MERGE_FILE_FAVOR_THEIRS;
	if (git_merge_file(&res, &in[0], &in[1], &in[2], &mo) < 0 || !res.automergeable ||
	    !keeps_own(own_text, own_len, in[1].ptr, in[1].size, res.ptr, res.len))
		goto out;
	text_lines_free(ours);
	text_lines_split(ours, res.ptr, res.len);
	ok = 1;
out:
	git_error_clear();
	git_merge_file_result_free(&res);
	text_lines_free(&own);
	free(own_text);
	return ok;
}

/*
 * Merge f into ours from the diff's preimage: 1 merged (*how APPLY_3WAY,
 * or APPLY_ADAPTED when o->adapt took the prerequisite's side of a
 * conflict), 0 not.
 */
static int merge_file(git_repository *repo, const struct file_diff *f, const struct apply_opts *o,
		      struct text_lines *ours, enum apply_how *how)
{
	struct text_lines base = { 0 }, theirs = { 0 };
	git_merge_file_input in[3];
	git_merge_file_options mo;
	git_merge_file_result res = { 0 };
	char *text[3] = { NULL, NULL, NULL };
	size_t size[3];
	int merged = 0;

	if (!f->old_path || !preimage_of(repo, f, o, &base))
		goto out;
	text_lines_copy(&theirs, &base);
	if (hunks_apply(&theirs, f, 0, NULL))
		goto out;               /* the diff is not of that preimage */
	text[0] = text_lines_join(&base, &size[0]);
	text[1] = text_lines_join(ours, &size[1]);
	text[2] = text_lines_join(&theirs, &size[2]);
	for (int i = 0; i < 3; i++) {
		git_merge_file_input_init(&in[i], GIT_MERGE_FILE_INPUT_VERSION);
		in[i].ptr = text[i];
		in[i].size = size[i];
		in[i].path = f->old_path;
	}
	git_merge_file_options_init(&mo, GIT_MERGE_FILE_OPTIONS_VERSION);
	if (git_merge_file(&res, &in[0], &in[1], &in[2], &mo) < 0)
		goto out;
	*how = APPLY_3WAY;
	if (res.automergeable) {
		text_lines_free(ours);
		text_lines_split(ours, res.ptr, res.len);
		merged = 1;
	} else if (o->adapt && adapt_theirs(repo, f, o, in, ours)) {
		*how = APPLY_ADAPTED;
		merged = 1;
	}
out:
	git_error_clear();
	git_merge_file_result_free(&res);
	for (int i = 0; i < 3; i++)
		free(text[i]);
	text_lines_free(&base);
	text_lines_free(&theirs);
	return merged;
}

/* Why f cannot be applied to cur at all, or NULL. */
static char *refused(const struct file_diff *f, const struct tree_text *cur)
{
	if (f->old_path && f->new_path && strcmp(f->old_path, f->new_path))
		return xstrfmt("%s: renames are not applied", f->old_path);
	if (f->binary || (!f->nhunks && !f->mode_change && f->old_path && f->new_path))
		return xstrfmt("%s: a binary patch is not applied", file_diff_path(f));
	if (f->old_path && !cur->exists)
		return xstrfmt("%s: no such file", f->old_path);
	if (!f->old_path && cur->exists)
		return xstrfmt("%s: already exists", f->new_path);
	return NULL;
}

/* One file: its new lines in *img, the account in *fr. */
static void apply_file(struct apply_tree *t, const struct file_diff *f, const struct tree_text *cur,
		       const struct apply_opts *o, struct text_lines *img,
		       struct apply_file_report *fr)
{
	fr->path = xstrdup(file_diff_path(f));
	fr->nhunks = f->nhunks;
	fr->places = xcalloc(f->nhunks + 1, sizeof(*fr->places));
	fr->how = APPLY_CONFLICT;
	if ((fr->why = refused(f, cur)))
		return;
	text_lines_copy(img, &cur->text);
	if (!(fr->failed_hunk = hunks_apply(img, f, 0, fr->places))) {
		fr->how = APPLY_CLEAN;
		return;
	}
	if (o->max_fuzz) {
		/* each hunk as exactly as it goes: its place says how much fuzz it took */
		text_lines_free(img);
		text_lines_copy(img, &cur->text);
		if (!(fr->failed_hunk = hunks_apply(img, f, o->max_fuzz, fr->places))) {
			fr->how = APPLY_FUZZ;
			return;
		}
	}
	text_lines_free(img);
	text_lines_copy(img, &cur->text);
	if (o->three_way && merge_file(t->repo, f, o, img, &fr->how))
		return;
	fr->why = xstrfmt("%s: hunk %d does not apply", fr->path, fr->failed_hunk);
	fr->how = APPLY_CONFLICT;
	if (!o->adapt)
		return;
	/* adapted: what goes in does, the release's own lines stay where the rest would go */
	text_lines_free(img);
	text_lines_copy(img, &cur->text);
	hunks_apply_some(img, f, o->max_fuzz, fr->places);
	fr->how = APPLY_ADAPTED;
}

int apply_tree_diff(struct apply_tree *t, const struct diff_files *d, const struct apply_opts *o,
		    struct apply_report *rep)
{
	struct apply_report mine = { 0 };
	struct text_lines *imgs = xcalloc(d->nr + 1, sizeof(*imgs));
	size_t *at = xcalloc(d->nr + 1, sizeof(*at));   /* 1 + the file's place in t->files; 0 none */
	int ret = APPLY_CLEAN;

	if (!rep)
		rep = &mine;
	memset(rep, 0, sizeof(*rep));
	rep->files = xcalloc(d->nr + 1, sizeof(*rep->files));
	for (size_t i = 0; i < d->nr; i++) {
		const struct file_diff *f = &d->v[i];
		const char *path = f->old_path ? f->old_path : f->new_path;
		struct tree_text *cur;
		if (!path || !followed(t, path))
			continue;
		/* an index, not a pointer: reading the next file may move t->files */
		if (!(cur = file_of(t, path))) {
			ret = PV_ECORRUPT;
			goto out;
		}
		at[i] = (size_t)(cur - t->files) + 1;
		apply_file(t, f, cur, o, &imgs[i], &rep->files[rep->nfiles]);
		if ((int)rep->files[rep->nfiles].how > ret)
			ret = (int)rep->files[rep->nfiles].how;
		rep->nfiles++;
	}
	rep->how = (enum apply_how)ret;
	if (ret == APPLY_CONFLICT)
		goto out;
	/* every file went in: t takes them all */
	for (size_t i = 0; i < d->nr; i++) {
		struct tree_text *cur = at[i] ? &t->files[at[i] - 1] : NULL;
		if (!cur)
			continue;
		text_lines_free(&cur->text);
		cur->text = imgs[i];
		memset(&imgs[i], 0, sizeof(imgs[i]));
		cur->exists = d->v[i].new_path != NULL;
		if (!d->v[i].old_path || d->v[i].mode_change)
			cur->mode = d->v[i].new_mode;
	}
out:
	for (size_t i = 0; i < d->nr; i++)
		text_lines_free(&imgs[i]);
	free(imgs);
	free(at);
	apply_report_free(&mine);
	return ret;
}

int apply_tree_write(struct apply_tree *t, git_oid *out)
{
	git_tree *tree = NULL;
	git_index *idx = NULL;
	int ret = PV_ECORRUPT;

	if (git_tree_lookup(&tree, t->repo, &t->tree) < 0 || git_index_new(&idx) < 0 ||
	    git_index_read_tree(idx, tree) < 0)
		goto fail;
	for (size_t i = 0; i < t->nr; i++) {
		struct tree_text *f = &t->files[i];
		git_index_entry e;
		size_t size;
		char *text;

		if (!f->exists) {
			git_index_remove_bypath(idx, f->path);
			continue;
		}
		memset(&e, 0, sizeof(e));
		e.path = f->path;
		e.mode = f->mode;
		text = text_lines_join(&f->text, &size);
		ret = git_blob_create_from_buffer(&e.id, t->repo, text, size) < 0 ||
		      git_index_add(idx, &e) < 0 ? PV_ECORRUPT : 0;
		free(text);
		if (ret)
			goto fail;
	}
	if (git_index_write_tree_to(out, idx, t->repo) < 0)
		goto fail;
	ret = 0;
	goto out;
fail:
	ret = pv_error_set(PV_ECORRUPT, "cannot write the patched tree in memory: %s",
			   git_error_last() ? git_error_last()->message : "unknown error");
out:
	git_error_clear();
	git_index_free(idx);
	git_tree_free(tree);
	return ret;
}

int apply_to_tree(git_repository *repo, const git_oid *tree, const char *diff,
		  git_oid *out, char **why)
{
	static const struct apply_opts exact = { 0 };
	struct diff_files d;
	struct apply_tree t;
	struct apply_report rep = { 0 };
	int ret = -1, how;

	*why = NULL;
	apply_tree_init(&t, repo, tree);
	if (!diff_files_parse(&d, diff)) {
		*why = xstrdup("the patch changes no file");
		goto out;
	}
	how = apply_tree_diff(&t, &d, &exact, &rep);
	if (how < 0 || how == APPLY_CONFLICT) {
		*why = xstrdup(how < 0 ? pv_error_last()->message : apply_report_why(&rep));
		goto out;
	}
	if (out && apply_tree_write(&t, out) < 0) {
		*why = xstrdup(pv_error_last()->message);
		goto out;
	}
	ret = 0;
out:
	apply_report_free(&rep);
	apply_tree_free(&t);
	diff_files_free(&d);
	return ret;
}

char *apply_diff_text(git_diff *diff)
{
	git_buf buf = { 0 };
	char *text;

	if (git_diff_to_buf(&buf, diff, GIT_DIFF_FORMAT_PATCH) < 0) {
		git_error_clear();
		return xstrdup("");
	}
	text = xstrndup(buf.ptr, buf.size);
	git_buf_dispose(&buf);
	return text;
}
