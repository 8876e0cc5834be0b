/*
 * git apply, in memory: hunks found where git would find them.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/base/util.h"
#include "patchver/stable/apply.h"

struct lines {
	char **v;                   /* each with its '\n' (the last may lack it) */
	size_t *len;
	size_t nr, alloc;
};

static void lines_add(struct lines *l, const char *s, size_t n)
{
	l->v = xgrow(l->v, &l->alloc, l->nr + 1, sizeof(*l->v));
	l->len = xrealloc(l->len, l->alloc * sizeof(*l->len));
	l->v[l->nr] = xstrndup(s, n);
	l->len[l->nr++] = n;
}

static void lines_split(struct lines *l, const char *s, size_t n)
{
	const char *end = s + n;

	while (s < end) {
		const char *eol = memchr(s, '\n', (size_t)(end - s));
		size_t len = eol ? (size_t)(eol - s) + 1 : (size_t)(end - s);
		lines_add(l, s, len);
		s += len;
	}
}

static void lines_free(struct lines *l)
{
	for (size_t i = 0; i < l->nr; i++)
		free(l->v[i]);
	free(l->v);
	free(l->len);
	memset(l, 0, sizeof(*l));
}

/* One file of the diff: its path before and after, and its hunks' lines. */
struct file_patch {
	char *old_path, *new_path;  /* NULL for /dev/null */
	unsigned new_mode;
	bool mode_change;
	struct lines body;          /* "@@ ...", " ...", "-...", "+...", "\\ No newline" */
};

static bool matches_at(const struct lines *img, const struct lines *pre, size_t at)
{
	if (at + pre->nr > img->nr)
		return false;
	for (size_t i = 0; i < pre->nr; i++)
		if (pre->len[i] != img->len[at + i] || memcmp(pre->v[i], img->v[at + i], pre->len[i]))
			return false;
	return true;
}

/* The position nearest want where pre matches img, searching both ways. */
static bool find_hunk(const struct lines *img, const struct lines *pre, size_t want, size_t *at)
{
	for (size_t d = 0; d <= img->nr; d++) {
		if (want >= d && matches_at(img, pre, want - d)) {
			*at = want - d;
			return true;
		}
		if (d && want + d <= img->nr && matches_at(img, pre, want + d)) {
			*at = want + d;
			return true;
		}
	}
	return false;
}

/* Apply the hunks of f to img, in place.  0, or the failing hunk's number (1-based). */
static int apply_hunks(struct lines *img, const struct file_patch *f)
{
	size_t i = 0, hunk = 0;
	long shift = 0;

	while (i < f->body.nr) {
		struct lines pre = { 0 }, post = { 0 };
		long old_start = 0;
		size_t at, want;

		if (sscanf(f->body.v[i], "@@ -%ld", &old_start) != 1)
			return (int)hunk + 1;
		hunk++;
		for (i++; i < f->body.nr && strncmp(f->body.v[i], "@@", 2); i++) {
			const char *l = f->body.v[i];
			size_t n = f->body.len[i];
			if (*l == '\\') {   /* "\ No newline at end of file": for the line before */
				char kind = f->body.v[i - 1][0];
				if ((kind == ' ' || kind == '-') && pre.nr)
					pre.len[pre.nr - 1]--;
				if ((kind == ' ' || kind == '+') && post.nr)
					post.len[post.nr - 1]--;
				continue;
			}
			if (*l == ' ' || *l == '-')
				lines_add(&pre, l + 1, n - 1);
			if (*l == ' ' || *l == '+')
				lines_add(&post, l + 1, n - 1);
		}
		want = old_start > 0 ? (size_t)(old_start - 1 + shift) : 0;
		if (!find_hunk(img, &pre, want, &at)) {
			lines_free(&pre);
			lines_free(&post);
			return (int)hunk;
		}
		for (size_t k = 0; k < pre.nr; k++)
			free(img->v[at + k]);
		if (post.nr != pre.nr) {
			size_t nr = img->nr - pre.nr + post.nr;
			if (nr > img->alloc) {
				img->alloc = nr;
				img->v = xrealloc(img->v, nr * sizeof(*img->v));
				img->len = xrealloc(img->len, nr * sizeof(*img->len));
			}
			memmove(img->v + at + post.nr, img->v + at + pre.nr,
				(img->nr - at - pre.nr) * sizeof(*img->v));
			memmove(img->len + at + post.nr, img->len + at + pre.nr,
				(img->nr - at - pre.nr) * sizeof(*img->len));
			img->nr = nr;
		}
		for (size_t k = 0; k < post.nr; k++) {
			img->v[at + k] = post.v[k];
			img->len[at + k] = post.len[k];
			post.v[k] = NULL;
		}
		shift += (long)post.nr - (long)pre.nr + ((long)at - (long)want);
		lines_free(&pre);
		free(post.v);
		free(post.len);
	}
	return 0;
}

static char *path_after(const char *line, const char *prefix)
{
	size_t n = strcspn(line, "\t\n");

	if (!strncmp(line, "/dev/null", 9))
		return NULL;
	if (!strncmp(line, prefix, 2))
		line += 2, n -= 2;
	return xstrndup(line, n);
}

/*
 * The paths of "diff --git a/P b/P", for diffs without "---"/"+++" lines
 * (libgit2 prints a parsed diff that way).  Both sides equal: the line is
 * "a/" P " b/" P, so P is half of what remains.
 */
static void git_line_paths(struct file_patch *f, const char *rest)
{
	size_t len = strcspn(rest, "\n");

	if (len < 6 || len % 2 == 0 || strncmp(rest, "a/", 2) ||
	    strncmp(rest + len / 2 + 1, "b/", 2) || rest[len / 2] != ' ' ||
	    strncmp(rest + 2, rest + len / 2 + 3, len / 2 - 2))
		return;
	f->old_path = xstrndup(rest + 2, len / 2 - 2);
	f->new_path = xstrdup(f->old_path);
}

/* Split the diff text into files. */
static size_t parse(const char *diff, struct file_patch **out)
{
	struct lines all = { 0 };
	struct file_patch *f = NULL;
	size_t n = 0, alloc = 0;
	bool in_hunks = false;

	lines_split(&all, diff, strlen(diff));
	for (size_t i = 0; i < all.nr; i++) {
		const char *l = all.v[i];
		if (!strncmp(l, "diff --git ", 11)) {
			f = xgrow(f, &alloc, n + 1, sizeof(*f));
			memset(&f[n++], 0, sizeof(*f));
			f[n - 1].new_mode = 0100644;
			git_line_paths(&f[n - 1], l + 11);
			in_hunks = false;
		} else if (n && !in_hunks && !strncmp(l, "new file mode ", 14)) {
			free(f[n - 1].old_path);
			f[n - 1].old_path = NULL;
			f[n - 1].new_mode = (unsigned)strtoul(l + 14, NULL, 8);
		} else if (n && !in_hunks && !strncmp(l, "deleted file mode ", 18)) {
			free(f[n - 1].new_path);
			f[n - 1].new_path = NULL;
		} else if (!n) {
			continue;
		} else if (!in_hunks && !strncmp(l, "--- ", 4)) {
			free(f[n - 1].old_path);
			f[n - 1].old_path = path_after(l + 4, "a/");
		} else if (!in_hunks && !strncmp(l, "+++ ", 4)) {
			free(f[n - 1].new_path);
			f[n - 1].new_path = path_after(l + 4, "b/");
		} else if (!in_hunks && !strncmp(l, "new mode ", 9)) {
			f[n - 1].new_mode = (unsigned)strtoul(l + 9, NULL, 8);
			f[n - 1].mode_change = true;
		} else if (!strncmp(l, "@@", 2) || (in_hunks && strchr(" -+\\", *l))) {
			in_hunks = true;
			lines_add(&f[n - 1].body, l, all.len[i]);
		}
	}
	lines_free(&all);
	*out = f;
	return n;
}

static void free_files(struct file_patch *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(f[i].old_path);
		free(f[i].new_path);
		lines_free(&f[i].body);
	}
	free(f);
}

static char *joined(const struct lines *l, size_t *size)
{
	struct sbuf sb = SBUF_INIT;

	for (size_t i = 0; i < l->nr; i++)
		sbuf_add(&sb, l->v[i], l->len[i]);
	*size = sb.len;
	return sb.buf ? sb.buf : xstrdup("");
}

/* One file: its new content in img; *mode its mode.  NULL or why not. */
static char *apply_file(git_repository *repo, git_tree *tree, const struct file_patch *f,
			struct lines *img, unsigned *mode)
{
	git_tree_entry *e = NULL;
	git_blob *blob = NULL;
	struct sbuf why = SBUF_INIT;
	int hunk;

	*mode = f->new_mode;
	if (f->old_path && f->new_path && strcmp(f->old_path, f->new_path))
		sbuf_addf(&why, "%s: renames are not applied", f->old_path);
	else if (!f->body.nr && !f->mode_change && f->old_path && f->new_path)
		sbuf_addf(&why, "%s: a binary patch is not applied", f->new_path);
	else if (f->old_path && git_tree_entry_bypath(&e, tree, f->old_path) < 0)
		sbuf_addf(&why, "%s: no such file", f->old_path);
	else if (!f->old_path && git_tree_entry_bypath(&e, tree, f->new_path) == 0)
		sbuf_addf(&why, "%s: already exists", f->new_path);
	else if (f->old_path && git_blob_lookup(&blob, repo, git_tree_entry_id(e)) < 0)
		sbuf_addf(&why, "%s: cannot read it", f->old_path);
	git_error_clear();
	if (!why.len) {
		if (blob)
			lines_split(img, git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob));
		if (f->old_path && !f->mode_change)
			*mode = git_tree_entry_filemode(e);
		if ((hunk = apply_hunks(img, f)))
			sbuf_addf(&why, "%s: hunk %d does not apply", f->new_path ? f->new_path :
				  f->old_path, hunk);
	}
	git_blob_free(blob);
	git_tree_entry_free(e);
	return why.buf;
}

int apply_to_tree(git_repository *repo, const git_oid *tree_id, const char *diff,
		  git_oid *out, char **why)
{
	struct file_patch *f = NULL;
	size_t n = parse(diff, &f);
	git_tree *tree = NULL;
	git_index *idx = NULL;
	int ret = -1;

	*why = NULL;
	if (!n) {
		*why = xstrdup("the patch changes no file");
		goto out;
	}
	if (git_tree_lookup(&tree, repo, tree_id) < 0 ||
	    (out && (git_index_new(&idx) < 0 || git_index_read_tree(idx, tree) < 0))) {
		*why = xstrdup(git_error_last() ? git_error_last()->message : "cannot read the tree");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		struct lines img = { 0 };
		unsigned mode;
		git_index_entry e;

		*why = apply_file(repo, tree, &f[i], &img, &mode);
		if (!*why && out && f[i].new_path) {
			size_t size;
			char *text = joined(&img, &size);
			memset(&e, 0, sizeof(e));
			e.path = f[i].new_path;
			e.mode = mode;
			if (git_blob_create_from_buffer(&e.id, repo, text, size) < 0 ||
			    git_index_add(idx, &e) < 0)
				*why = xstrdup("cannot store the result in memory");
			free(text);
		} else if (!*why && out) {
			git_index_remove_bypath(idx, f[i].old_path);
		}
		lines_free(&img);
		if (*why)
			goto out;
	}
	if (out && git_index_write_tree_to(out, idx, repo) < 0) {
		*why = xstrdup("cannot write the tree in memory");
		goto out;
	}
	ret = 0;
out:
	git_error_clear();
	git_index_free(idx);
	git_tree_free(tree);
	free_files(f, n);
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
