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

struct scan {
	git_repository *repo;
	const struct definer_query *q;
	const char *suffix;         /* ".h", then ".c" */
	char *found;
};

static int scan_entry(const char *root, const git_tree_entry *entry, void *data)
{
	struct scan *s = data;
	const char *name = git_tree_entry_name(entry);
	size_t n = strlen(name);
	git_blob *blob = NULL;

	if (git_tree_entry_type(entry) != GIT_OBJECT_BLOB || n < 2 || strcmp(name + n - 2, s->suffix))
		return 0;
	if (git_blob_lookup(&blob, s->repo, git_tree_entry_id(entry)) < 0)
		return 0;
	{
		const char *text = git_blob_rawcontent(blob);
		size_t len = (size_t)git_blob_rawsize(blob);
		if (memmem(text, len, s->q->name, strlen(s->q->name)) && file_defines(text, len, s->q))
			s->found = xstrfmt("%s%s", root, name);
	}
	git_blob_free(blob);
	return s->found ? -1 : 0;
}

char *definer_file(git_repository *repo, const git_oid *tree_id, const struct definer_query *q)
{
	static const char *const suffixes[] = { ".h", ".c" };
	static const char *const includes[] = { "include/", "arch/x86/include/", "" };
	struct scan s = { repo, q, NULL, NULL };
	git_tree *tree = NULL;

	if (git_tree_lookup(&tree, repo, tree_id) < 0) {
		git_error_clear();
		return NULL;
	}
	if (q->kind == DEFINER_HEADER) {
		for (size_t i = 0; i < sizeof(includes) / sizeof(includes[0]) && !s.found; i++) {
			git_tree_entry *e = NULL;
			char *path = xstrfmt("%s%s", includes[i], q->name);
			if (git_tree_entry_bypath(&e, tree, path) == 0)
				s.found = path;
			else
				free(path);
			git_tree_entry_free(e);
		}
	}
	for (size_t i = 0; q->kind != DEFINER_HEADER && i < 2 && !s.found; i++) {
		s.suffix = suffixes[i];
		git_tree_walk(tree, GIT_TREEWALK_PRE, scan_entry, &s);
	}
	git_tree_free(tree);
	git_error_clear();
	return s.found;
}

/* The blob of path in commit c (false without the file). */
static bool blob_of(const git_commit *c, const char *path, git_oid *id)
{
	git_tree *tree = NULL;
	git_tree_entry *e = NULL;
	bool found = git_commit_tree(&tree, c) == 0 && git_tree_entry_bypath(&e, tree, path) == 0;

	if (found)
		*id = *git_tree_entry_id(e);
	git_tree_entry_free(e);
	git_tree_free(tree);
	git_error_clear();
	return found;
}

/* How often name is in a blob (a word, as -S counts it). */
static size_t count_in(git_repository *repo, const git_oid *id, const char *name)
{
	git_blob *blob = NULL;
	size_t n = 0;

	if (git_blob_lookup(&blob, repo, id) == 0) {
		const char *text = git_blob_rawcontent(blob), *end = text + git_blob_rawsize(blob);
		for (const char *p = text; (p = find_word(p, end, name)); p++)
			n++;
	}
	git_blob_free(blob);
	git_error_clear();
	return n;
}

/* Does commit c bring name into path: there now, and not in its first parent? */
static bool brings(git_repository *repo, const git_commit *c, const char *path, const char *name)
{
	git_commit *parent = NULL;
	git_oid here, there;
	bool had, yes;

	/* as git log -S: a merge is not diffed; the commit it merged brought it */
	if (git_commit_parentcount(c) > 1 || !blob_of(c, path, &here))
		return false;
	had = git_commit_parent(&parent, c, 0) == 0 && blob_of(parent, path, &there);
	git_commit_free(parent);
	git_error_clear();
	/* the file unchanged: nothing brought (most commits, and no blob read) */
	if (had && git_oid_equal(&here, &there))
		return false;
	yes = count_in(repo, &here, name) > 0 && (!had || count_in(repo, &there, name) == 0);
	return yes;
}

int definer_commit(git_repository *repo, const git_oid *old, const git_oid *new, const char *path,
		   const char *name, git_oid *out)
{
	git_revwalk *walk = NULL;
	git_oid id;
	int ret = PV_ENOTFOUND;

	if (git_revwalk_new(&walk, repo) < 0 || git_revwalk_push(walk, new) < 0 ||
	    git_revwalk_hide(walk, old) < 0) {
		ret = pv_error_set(PV_ECORRUPT, "cannot walk %.12s..%.12s: %s", git_oid_tostr_s(old),
				   git_oid_tostr_s(new), git_error_last()->message);
		goto out;
	}
	git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL | GIT_SORT_TIME);
	while (ret == PV_ENOTFOUND && git_revwalk_next(&id, walk) == 0) {
		git_commit *c = NULL;

		if (git_commit_lookup(&c, repo, &id) == 0 && brings(repo, c, path, name)) {
			*out = id;
			ret = 0;
		}
		git_commit_free(c);
	}
	if (ret == PV_ENOTFOUND)
		pv_error_set(ret, "no commit of %.12s..%.12s brings %s into %s", git_oid_tostr_s(old),
			     git_oid_tostr_s(new), name, path);
out:
	git_revwalk_free(walk);
	git_error_clear();
	return ret;
}
