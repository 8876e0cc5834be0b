/*
 * Where a missing name is defined, and which commit brought it.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/base/error.h"
#include "patchver/base/util.h"
#include "patchver/engine/dag.h"
#include "patchver/engine/treepath.h"
#include "patchver/stable/definer.h"

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* name as a whole word in [s, end), from s; NULL if not there. */
static const char *find_word(const char *s, const char *end, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = s; p + n <= end; p++) {
		p = memchr(p, name[0], (size_t)(end - p));
		if (!p || p + n > end)
			return NULL;
		if (!memcmp(p, name, n) && (p == s || !ident_char(p[-1])) &&
		    (p + n == end || !ident_char(p[n])))
			return p;
	}
	return NULL;
}

/* Does the line [l, e) define q's name (outside a member's container)? */
static bool defines(const char *l, const char *e, const struct definer_query *q)
{
	const char *w = find_word(l, e, q->name), *t = e;
	const char *after = w ? w + strlen(q->name) : NULL;

	if (!w)
		return false;
	while (t > l && isspace((unsigned char)t[-1]))
		t--;
	if (*l == '#') {
		/* "#define NAME", "# define NAME(x)": a macro of any kind */
		const char *p = l + 1;
		while (p < e && (*p == ' ' || *p == '\t'))
			p++;
		if (e - p < 6 || strncmp(p, "define", 6))
			return false;
		for (p += 6; p < e && (*p == ' ' || *p == '\t'); p++)
			;
		return p == w;
	}
	switch (q->kind) {
	case DEFINER_FUNCTION:
		/* "static inline int helper(void)" at column 0, no ';' at its end */
		return !isspace((unsigned char)*l) && after < e && *after == '(' && t > l &&
		       t[-1] != ';' && strncmp(l, "extern", 6);
	case DEFINER_IDENTIFIER:
		/* an enum value: "\tNAME," or "\tNAME = 3," */
		while (l < w && isspace((unsigned char)*l))
			l++;
		return l == w && (after == t || *after == ',' || *after == ' ' || *after == '=');
	case DEFINER_TYPE:
		return t > l && t[-1] == ';' && after + 1 == t &&
		       (find_word(l, e, "typedef") || !strncmp(l, "}", 1));
	default:
		return false;
	}
}

/* A member: inside "container {" ... "};", a line that declares it. */
static bool has_member(const char *text, size_t len, const struct definer_query *q)
{
	const char *end = text + len, *p = text;
	size_t cl = strlen(q->container);

	while ((p = find_word(p, end, q->container))) {
		const char *open = p + cl, *close;

		p += cl;
		while (open < end && (*open == ' ' || *open == '\t'))
			open++;
		if (open >= end || *open != '{')
			continue;
		close = open;
		for (int depth = 0; close < end; close++) {
			depth += *close == '{';
			if (*close == '}' && --depth == 0)
				break;
		}
		for (const char *w = open; (w = find_word(w, close, q->name)); w++) {
			const char *a = w + strlen(q->name);
			while (a < close && (*a == ' ' || *a == '\t'))
				a++;
			if (a < close && (*a == ';' || *a == '[' || *a == ':' || *a == ','))
				return true;
		}
	}
	return false;
}

static bool file_defines(const char *text, size_t len, const struct definer_query *q)
{
	const char *end = text + len;

	if (q->kind == DEFINER_MEMBER)
		return q->container && has_member(text, len, q);
	for (const char *l = text; l < end;) {
		const char *e = memchr(l, '\n', (size_t)(end - l));
		if (!e)
			e = end;
		if (defines(l, e, q))
			return true;
		l = e + 1;
	}
	return false;
}

bool definer_text_defines(const char *text, size_t len, const struct definer_query *q)
{
	return memmem(text, len, q->name, strlen(q->name)) && file_defines(text, len, q);
}

struct scan {
	git_repository *repo;
	const struct definer_query *q;
	const char *prefix;         /* the walked subtree's path, "" or ending in '/' */
	const char *suffix;         /* ".h" or ".c" */
	bool skip_includes;         /* include/ and arch/x86/include/ were scanned first */
	char *found;
};

static bool file_of_blob_defines(git_repository *repo, const git_oid *id,
				 const struct definer_query *q)
{
	git_blob *blob = NULL;
	bool yes = false;

	if (git_blob_lookup(&blob, repo, id) == 0) {
		const char *text = git_blob_rawcontent(blob);
		size_t len = (size_t)git_blob_rawsize(blob);
		yes = memmem(text, len, q->name, strlen(q->name)) && file_defines(text, len, q);
	}
	git_blob_free(blob);
	return yes;
}

static int scan_entry(const char *root, const git_tree_entry *entry, void *data)
{
	struct scan *s = data;
	const char *name = git_tree_entry_name(entry);
	size_t n = strlen(name);
	char *path;

	if (git_tree_entry_type(entry) == GIT_OBJECT_TREE)
		/* a header directory scanned already: do not descend (1) */
		return s->skip_includes && ((!*s->prefix && !*root && !strcmp(name, "include")) ||
			(!*s->prefix && !strcmp(root, "arch/x86/") && !strcmp(name, "include")));
	if (n < 2 || strcmp(name + n - 2, s->suffix) ||
	    !file_of_blob_defines(s->repo, git_tree_entry_id(entry), s->q))
		return 0;
	path = xstrfmt("%s%s%s", s->prefix, root, name);
	s->found = path;
	return -1;
}

/* Scan the files of dir ("": the whole tree) that end in suffix. */
static void scan_under(struct scan *s, git_tree *tree, const char *dir, const char *suffix)
{
	git_tree_entry *e = NULL;
	git_tree *sub = NULL;
	char *prefix = *dir ? xstrfmt("%s/", dir) : xstrdup("");

	if (s->found)
		goto out;
	if (*dir && (git_tree_entry_bypath(&e, tree, dir) < 0 ||
		     git_tree_lookup(&sub, s->repo, git_tree_entry_id(e)) < 0))
		goto out;
	s->prefix = prefix;
	s->suffix = suffix;
	git_tree_walk(sub ? sub : tree, GIT_TREEWALK_PRE, scan_entry, s);
out:
	git_error_clear();
	git_tree_free(sub);
	git_tree_entry_free(e);
	free(prefix);
}

static char *header_file(git_tree *tree, const char *name)
{
	static const char *const includes[] = { "include/", "arch/x86/include/", "" };

	for (size_t i = 0; i < sizeof(includes) / sizeof(includes[0]); i++) {
		git_tree_entry *e = NULL;
		char *path = xstrfmt("%s%s", includes[i], name);
		bool there = git_tree_entry_bypath(&e, tree, path) == 0;

		git_tree_entry_free(e);
		if (there)
			return path;
		free(path);
	}
	return NULL;
}

/*
 * Where a definition is looked for, most likely first: the file that
 * failed (a static helper of its own), the kernel's headers, any header,
 * the failing file's directory, any source file.
 */
char *definer_file(git_repository *repo, const git_oid *tree_id, const struct definer_query *q)
{
	struct scan s = { repo, q, "", ".h", false, NULL };
	git_tree *tree = NULL;
	git_tree_entry *e = NULL;

	if (git_tree_lookup(&tree, repo, tree_id) < 0) {
		git_error_clear();
		return NULL;
	}
	if (q->kind == DEFINER_HEADER) {
		s.found = header_file(tree, q->name);
		goto out;
	}
	if (q->near && git_tree_entry_bypath(&e, tree, q->near) == 0 &&
	    file_of_blob_defines(repo, git_tree_entry_id(e), q))
		s.found = xstrdup(q->near);
	scan_under(&s, tree, "include", ".h");
	scan_under(&s, tree, "arch/x86/include", ".h");
	s.skip_includes = true;
	scan_under(&s, tree, "", ".h");
	s.skip_includes = false;
	if (q->near && strchr(q->near, '/')) {
		char *dir = xstrndup(q->near, (size_t)(strrchr(q->near, '/') - q->near));
		scan_under(&s, tree, dir, ".c");
		free(dir);
	}
	scan_under(&s, tree, "", ".c");
out:
	git_tree_entry_free(e);
	git_tree_free(tree);
	git_error_clear();
	return s.found;
}

/* How often name is in a blob (a word, as -S counts it). */
static size_t count_in(git_odb *odb, const git_oid *id, const char *name)
{
	git_odb_object *obj = NULL;
	size_t n = 0;

	if (git_odb_read(&obj, odb, id) == 0) {
		const char *text = git_odb_object_data(obj), *end = text + git_odb_object_size(obj);
		for (const char *p = text; (p = find_word(p, end, name)); p++)
			n++;
	}
	git_odb_object_free(obj);
	git_error_clear();
	return n;
}

static bool blob_defines(git_odb *odb, const git_oid *id, const struct definer_query *q)
{
	git_odb_object *obj = NULL;
	bool yes = false;

	if (git_odb_read(&obj, odb, id) == 0)
		yes = file_defines(git_odb_object_data(obj), git_odb_object_size(obj), q);
	git_odb_object_free(obj);
	git_error_clear();
	return yes;
}

/*
 * Does commit c bring q into the cache's path?  By its definition when
 * by_shape: the file defines it now and did not in the first parent (a
 * header: the file appears); else by the word, as git log -S counts it:
 * there now, none of it before.  As git log -S, a merge is not diffed (the
 * commit it merged brought the name), and a commit that leaves the file
 * alone is passed over without a blob read (the Bloom filters and tree
 * cache of treepath.h answer that).
 */
static bool brings(struct dag *dag, struct treepath_cache *tp, uint32_t c,
		   const struct definer_query *q, bool by_shape)
{
	unsigned np;
	const uint32_t *par = dag_parents(dag, c, &np);
	git_oid here, there;
	bool had;

	if (np > 1 || !treepath_touches(tp, dag, c) || !treepath_lookup(tp, &dag->trees[c], &here))
		return false;
	had = np && treepath_lookup(tp, &dag->trees[par[0]], &there);
	if (q->kind == DEFINER_HEADER)
		return !had;
	if (by_shape)
		return blob_defines(dag->odb, &here, q) && (!had || !blob_defines(dag->odb, &there, q));
	return count_in(dag->odb, &here, q->name) > 0 &&
	       (!had || count_in(dag->odb, &there, q->name) == 0);
}

/* Mark old and its ancestors: the range's hidden side. */
static void hide_ancestors(const struct dag *dag, uint32_t old, bool *hidden, uint32_t *stack)
{
	size_t n = 0;

	hidden[old] = true;
	stack[n++] = old;
	while (n) {
		unsigned np;
		const uint32_t *par = dag_parents(dag, stack[--n], &np);
		for (unsigned i = 0; i < np; i++)
			if (!hidden[par[i]]) {
				hidden[par[i]] = true;
				stack[n++] = par[i];
			}
	}
}

/* The newest commit of old..new that brings q into tp's path, or PV_NONE. */
static uint32_t newest_bringer(struct dag *dag, uint32_t n, const bool *hidden, uint32_t *stack,
			       struct treepath_cache *tp, const struct definer_query *q,
			       bool by_shape)
{
	bool *seen = xcalloc(dag->nr, 1);
	uint32_t found = PV_NONE;
	size_t top = 0;

	if (!hidden[n]) {
		seen[n] = true;
		stack[top++] = n;
	}
	while (top) {
		uint32_t c = stack[--top];
		unsigned np;
		const uint32_t *par = dag_parents(dag, c, &np);

		if ((found == PV_NONE || dag->dates[c] > dag->dates[found]) &&
		    brings(dag, tp, c, q, by_shape))
			found = c;
		for (unsigned i = 0; i < np; i++)
			if (!hidden[par[i]] && !seen[par[i]]) {
				seen[par[i]] = true;
				stack[top++] = par[i];
			}
	}
	free(seen);
	return found;
}

int definer_commit(struct dag *dag, const git_oid *old, const git_oid *new, const char *path,
		   const struct definer_query *q, git_oid *out)
{
	uint32_t o = dag_intern(dag, old), n = dag_intern(dag, new), found, *stack;
	struct treepath_cache tp;
	bool *hidden;

	if (dag_load(dag, o) < 0 || dag_load(dag, n) < 0) {
		char from[GIT_OID_HEXSZ + 1];
		int ret = pv_error_wrap(PV_ECORRUPT, "cannot read the commits of %.12s..%.12s: ",
					git_oid_tostr(from, sizeof(from), old), git_oid_tostr_s(new));
		git_error_clear();
		return ret;
	}
	hidden = xcalloc(dag->nr, 1);
	stack = xmalloc(((size_t)dag->nr + 1) * sizeof(*stack));
	hide_ancestors(dag, o, hidden, stack);
	treepath_init(&tp, dag, path);
	/*
	 * The commit that added the definition; a word that was there before
	 * as something else ("struct rlimit" before rlimit()) does not hide
	 * it.  Else, as git log -S, the one that brought the word.
	 */
	found = newest_bringer(dag, n, hidden, stack, &tp, q, true);
	if (found == PV_NONE)
		found = newest_bringer(dag, n, hidden, stack, &tp, q, false);
	treepath_free(&tp);
	free(stack);
	free(hidden);
	if (found == PV_NONE)
		return pv_error_set(PV_ENOTFOUND, "no commit of %.12s..%.12s brings %s into %s",
				    git_oid_tostr_s(old), git_oid_tostr_s(new), q->name, path);
	*out = dag->oids[found];
	return 0;
}
