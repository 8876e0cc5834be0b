/*
 * Were the lines a fix changes in a tree already?  The audit's test of a
 * release (and the triage's with --evidence text): blame bounded at one
 * tree, with no history walked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/base/util.h"
#include "patchver/stable/preimage.h"

void preimage_texts_init(struct preimage_texts *s, git_repository *repo, const git_oid *tree)
{
	memset(s, 0, sizeof(*s));
	s->repo = repo;
	s->tree = *tree;
}

void preimage_texts_free(struct preimage_texts *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->keys[i]);
		free(s->texts[i]);
	}
	free(s->keys);
	free(s->texts);
	memset(s, 0, sizeof(*s));
}

/* The text cached under key (a path, or a directory's key), or false. */
static bool text_cached(const struct preimage_texts *s, const char *key, const char **text)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->keys[i], key)) {
			*text = s->texts[i];
			return true;
		}
	return false;
}

static const char *text_remember(struct preimage_texts *s, const char *key, char *text)
{
	s->keys = xgrow(s->keys, &s->alloc, s->n + 1, sizeof(*s->keys));
	s->texts = xrealloc(s->texts, s->alloc * sizeof(*s->texts));
	s->keys[s->n] = xstrdup(key);
	s->texts[s->n++] = text;
	return text;
}

/* The text of path in the tree (cached), or NULL when the tree has no such file. */
static const char *base_text(struct preimage_texts *s, const char *path)
{
	git_tree *tree = NULL;
	git_tree_entry *e = NULL;
	git_blob *blob = NULL;
	const char *known;
	char *text = NULL;

	if (text_cached(s, path, &known))
		return known;
	if (git_tree_lookup(&tree, s->repo, &s->tree) == 0 &&
	    git_tree_entry_bypath(&e, tree, path) == 0 &&
	    git_blob_lookup(&blob, s->repo, git_tree_entry_id(e)) == 0)
		text = xstrndup(git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob));
	git_error_clear();
	git_blob_free(blob);
	git_tree_entry_free(e);
	git_tree_free(tree);
	return text_remember(s, path, text);
}

/* A directory's files are read up to this much for code that moved. */
#define SIBLINGS_MAX (4u << 20)

/*
 * The files of path's directory in the tree, one after the other (cached),
 * for a file vX.Y does not have: code is often split out of a file of the
 * same directory before it is fixed (iwlwifi's iwl-agn-tx.c came from
 * iwl-tx.c in 2.6.35), and git blame -C would follow it there.  A line
 * of \001 separates the files, so no block is found across two of them.
 */
static const char *base_siblings(struct preimage_texts *s, const char *path)
{
	const char *slash = strrchr(path, '/'), *known;
	char *dir = xstrndup(path, slash ? (size_t)(slash - path) : 0);
	char *key = xstrfmt("\001%s", dir);
	git_tree *tree = NULL, *sub = NULL;
	git_tree_entry *e = NULL;
	struct sbuf all = SBUF_INIT;

	if (text_cached(s, key, &known))
		goto out;
	if (git_tree_lookup(&tree, s->repo, &s->tree) < 0)
		goto done;
	if (!*dir)
		sub = tree, tree = NULL;
	else if (git_tree_entry_bypath(&e, tree, dir) < 0 ||
		 git_tree_lookup(&sub, s->repo, git_tree_entry_id(e)) < 0)
		goto done;
	for (size_t i = 0; i < git_tree_entrycount(sub) && all.len < SIBLINGS_MAX; i++) {
		const git_tree_entry *f = git_tree_entry_byindex(sub, i);
		git_blob *blob;
		if (git_tree_entry_type(f) != GIT_OBJECT_BLOB ||
		    git_blob_lookup(&blob, s->repo, git_tree_entry_id(f)) < 0)
			continue;
		sbuf_add(&all, git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob));
		sbuf_adds(&all, "\n\001\n");
		git_blob_free(blob);
	}
done:
	git_error_clear();
	git_tree_entry_free(e);
	git_tree_free(sub);
	git_tree_free(tree);
	known = text_remember(s, key, all.buf);
out:
	free(key);
	free(dir);
	return known;
}

/* A run of removed lines, or a whole hunk's preimage, found in the tree's file? */
static bool found_in(const char *text, struct sbuf *block, size_t min)
{
	bool yes = text && block->len >= min && strstr(text, sbuf_str(block));

	sbuf_reset(block);
	return yes;
}

enum preimage_answer preimage_in(struct preimage_texts *s, const char *diff)
{
	const char *text = NULL;
	struct sbuf pre = SBUF_INIT, run = SBUF_INIT, ctx = SBUF_INIT, anchors = SBUF_INIT;
	struct sbuf where = SBUF_INIT;     /* the hunk header's function or table */
	enum preimage_answer answer = PREIMAGE_ADDS_ONLY;
	bool in_hunk = false, hit = false, removes = false;
	size_t ctx_lines = 0;

	for (const char *p = diff; p;) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		bool ends_hunk = !*p || !strncmp(p, "@@", 2) || !strncmp(p, "diff ", 5);

		if (*p != '-' || !in_hunk)
			hit = found_in(text, &run, 9) || hit;
		/* a context block ends: kept (NUL-separated) if it may anchor */
		if (*p != ' ' || !in_hunk) {
			if (ctx_lines >= 2 && ctx.len >= 30)
				sbuf_add(&anchors, ctx.buf, ctx.len + 1);
			sbuf_reset(&ctx);
			ctx_lines = 0;
		}
		if (ends_hunk && in_hunk) {
			for (size_t k = 0; !removes && k < anchors.len && !hit;
			     k += strlen(anchors.buf + k) + 1)
				hit = text && strstr(text, anchors.buf + k);
			if (!removes && where.len >= 12)
				hit = (text && strstr(text, where.buf)) || hit;
			sbuf_reset(&anchors);
			sbuf_reset(&where);
			hit = found_in(text, &pre, 1) || hit;
			in_hunk = removes = false;
		}
		if (!strncmp(p, "--- a/", 6)) {
			char *path = xstrndup(p + 6, len - 6);
			text = base_text(s, path);
			if (!text)
				text = base_siblings(s, path);
			if (answer == PREIMAGE_ADDS_ONLY)
				answer = PREIMAGE_CAME_LATER;
			free(path);
		} else if (!strncmp(p, "diff ", 5)) {
			text = NULL;
		} else if (!strncmp(p, "@@", 2)) {
			const char *h = memchr(p + 2, '@', len - 2);
			in_hunk = true;
			/* "@@ -a,b +c,d @@ static int f(void)": "static int f(" */
			if (h && h + 3 < p + len && h[1] == '@' && h[2] == ' ') {
				const char *paren = memchr(h + 3, '(', (size_t)(p + len - h - 3));
				const char *brace = memchr(h + 3, '{', (size_t)(p + len - h - 3));
				const char *end = paren ? paren + 1 : brace ? brace : p + len;
				sbuf_add(&where, h + 3, (size_t)(end - h - 3));
			}
		} else if (in_hunk && (*p == ' ' || *p == '-')) {
			sbuf_add(&pre, p + 1, len - 1);
			sbuf_adds(&pre, "\n");
			if (*p == '-') {
				sbuf_add(&run, p + 1, len - 1);
				sbuf_adds(&run, "\n");
				removes = true;
			} else {
				sbuf_add(&ctx, p + 1, len - 1);
				sbuf_adds(&ctx, "\n");
				ctx_lines++;
			}
		}
		if (!*p)
			break;
		p = eol ? eol + 1 : p + len;
	}
	sbuf_free(&pre);
	sbuf_free(&run);
	sbuf_free(&ctx);
	sbuf_free(&anchors);
	sbuf_free(&where);
	return hit ? PREIMAGE_HAS_LINES : answer;
}

