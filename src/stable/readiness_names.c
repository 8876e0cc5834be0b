/*
 * Names the fix uses that the release does not define (readiness_names.h).
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/base/error.h"
#include "patchver/base/util.h"
#include "patchver/stable/definer.h"
#include "patchver/stable/readiness_names.h"

static bool ident_start(char c)
{
	return isalpha((unsigned char)c) || c == '_';
}

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static bool keyword(const char *w, size_t n)
{
	static const char *const words[] = {
		"if", "for", "while", "switch", "return", "sizeof", "typeof", "defined",
		"__typeof__", "do", "else", "case", "goto", "break", "continue", "NULL",
		"EXPORT_SYMBOL", "EXPORT_SYMBOL_GPL", "__init", "__exit", NULL,
	};

	for (size_t i = 0; words[i]; i++)
		if (strlen(words[i]) == n && !memcmp(words[i], w, n))
			return true;
	return false;
}

/* A macro's or constant's name: capitals, digits and '_', three or more. */
static bool all_caps(const char *w, size_t n)
{
	size_t letters = 0;

	for (size_t i = 0; i < n; i++) {
		if (islower((unsigned char)w[i]))
			return false;
		letters += isupper((unsigned char)w[i]) != 0;
	}
	return n >= 3 && letters;
}

/* w as a whole word in text (call: followed by '(', as a function is used) */
static bool used_in(const char *text, size_t len, const char *w, size_t n, bool call)
{
	const char *end = text + len;

	for (const char *p = text; (p = memmem(p, (size_t)(end - p), w, n)); p++) {
		const char *a = p + n;
		if ((p > text && ident_char(p[-1])) || (a < end && ident_char(*a)))
			continue;
		while (call && a < end && (*a == ' ' || *a == '\t'))
			a++;
		if (!call || (a < end && *a == '('))
			return true;
	}
	return false;
}

static bool word_in(const struct text_lines *l, const char *w, size_t n)
{
	for (size_t i = 0; i < l->nr; i++)
		if (used_in(l->v[i], l->len[i], w, n, false))
			return true;
	return false;
}

#define READY_NAMES_FILES 400        /* files read to find where a name is defined */

struct wanted {
	char *name;
	enum definer_kind kind;
};

/* The kind of the word at w in line l: a call, a member ("->w", ".w"), a tag ("struct w"), a macro. */
static bool kind_of(const char *l, const char *w, size_t wn, const char *end,
		    enum definer_kind *kind)
{
	const char *before = w;

	while (before > l && (before[-1] == ' ' || before[-1] == '\t'))
		before--;
	if (w > l && (w[-1] == '.' || (w[-1] == '>' && w - 1 > l && w[-2] == '-'))) {
		*kind = DEFINER_MEMBER;
	} else if ((before - l >= 6 && !memcmp(before - 6, "struct", 6)) ||
		   (before - l >= 5 && !memcmp(before - 5, "union", 5))) {
		*kind = DEFINER_TYPE;
	} else if (w + wn < end && w[wn] == '(') {
		*kind = DEFINER_FUNCTION;
	} else if (all_caps(w, wn)) {
		*kind = DEFINER_IDENTIFIER;
	} else {
		return false;           /* a variable, a type used bare: not looked up */
	}
	return true;
}

/* The names of a line (code only: strings and comments aside) into v. */
static void names_of_line(const char *l, size_t len, const struct text_lines *pre,
			  struct wanted **v, size_t *n)
{
	const char *end = l + len;

	for (const char *p = l; p < end; p++) {
		const char *w = p;
		enum definer_kind kind;
		size_t wn;
		bool dup = false;
		if (*p == '"' || (*p == '/' && p + 1 < end && (p[1] == '/' || p[1] == '*')))
			return;         /* a string or a comment: the rest is no code we read */
		if (!ident_start(*p) || (p > l && ident_char(p[-1])))
			continue;
		while (p < end && ident_char(*p))
			p++;
		wn = (size_t)(p - w);
		p--;
		if (keyword(w, wn) || !kind_of(l, w, wn, end, &kind) || word_in(pre, w, wn))
			continue;       /* a keyword, a variable, or in the hunk's old lines */
		for (size_t i = 0; i < *n && !dup; i++)
			dup = strlen((*v)[i].name) == wn && !memcmp((*v)[i].name, w, wn);
		if (dup || *n >= READY_NAMES_MAX)
			continue;
		*v = xrealloc(*v, (*n + 1) * sizeof(**v));
		(*v)[*n].name = xstrndup(w, wn);
		(*v)[(*n)++].kind = kind;
	}
}

/* The lines each hunk adds (its postimage less its preimage's lines). */
static void wanted_names(const struct diff_files *d, struct wanted **v, size_t *n)
{
	for (size_t i = 0; i < d->nr; i++)
		for (size_t k = 0; k < d->v[i].nhunks; k++) {
			const struct file_hunk *h = &d->v[i].hunks[k];
			for (size_t j = 0; j < h->post.nr; j++)
				names_of_line(h->post.v[j], h->post.len[j], &h->pre, v, n);
		}
}

/* Files' texts of one tree, joined once: the fix's files and their headers. */
struct texts {
	struct apply_tree *tree;    /* borrowed */
	char **paths, **texts;      /* texts[i] NULL: no such file */
	size_t *lens;
	size_t n;
};

static const char *text_of(struct texts *t, const char *path, size_t *len)
{
	const struct text_lines *l;

	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->paths[i], path)) {
			*len = t->lens[i];
			return t->texts[i];
		}
	t->paths = xrealloc(t->paths, (t->n + 1) * sizeof(*t->paths));
	t->texts = xrealloc(t->texts, (t->n + 1) * sizeof(*t->texts));
	t->lens = xrealloc(t->lens, (t->n + 1) * sizeof(*t->lens));
	t->paths[t->n] = xstrdup(path);
	l = apply_tree_file(t->tree, path);
	t->lens[t->n] = 0;
	t->texts[t->n] = l ? text_lines_join(l, &t->lens[t->n]) : NULL;
	*len = t->lens[t->n];
	return t->texts[t->n++];
}

static void texts_free(struct texts *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->paths[i]);
		free(t->texts[i]);
	}
	free(t->paths);
	free(t->texts);
	free(t->lens);
}

static void add_path(char ***v, size_t *n, char *path)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*v)[i], path)) {
			free(path);
			return;
		}
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = path;
}

/* The headers text (of path) includes: "linux/x.h" in include/ and arch/x86/include/, "x.h" beside it. */
static void includes_of(const char *path, const char *text, size_t len, char ***v, size_t *n)
{
	const char *dir_end = strrchr(path, '/'), *end = text + len;

	for (const char *l = text; text && l < end;) {
		const char *e = memchr(l, '\n', (size_t)(end - l)), *q;
		size_t k;
		if (!e)
			e = end;
		if (!strncmp(l, "#include ", 9) && (q = l + 9 + strspn(l + 9, " \t")) < e &&
		    (*q == '<' || *q == '"') && (k = strcspn(q + 1, ">\"\n")) && q + 1 + k < e) {
			if (*q == '<') {
				add_path(v, n, xstrfmt("include/%.*s", (int)k, q + 1));
				add_path(v, n, xstrfmt("arch/x86/include/%.*s", (int)k, q + 1));
			} else {
				add_path(v, n, xstrfmt("%.*s%.*s", dir_end ? (int)(dir_end - path + 1) : 0,
						       path, (int)k, q + 1));
			}
		}
		l = e + 1;
	}
}

/*
 * Where to look: the fix's files, the headers they include, and the
 * headers those include (rlimit() comes to fs/exec.c through mm.h's
 * sched.h): at most READY_NAMES_FILES files.
 */
static void places(struct texts *then, const struct diff_files *d, char ***v, size_t *n)
{
	size_t from = 0;

	for (size_t i = 0; i < d->nr; i++)
		add_path(v, n, xstrdup(file_diff_path(&d->v[i])));
	for (int level = 0; level < 2; level++) {
		size_t upto = *n;
		for (size_t i = from; i < upto && *n < READY_NAMES_FILES; i++) {
			size_t len;
			char *path = xstrdup((*v)[i]);
			const char *text = text_of(then, path, &len);
			if (text)
				includes_of(path, text, len, v, n);
			free(path);
		}
		from = upto;
	}
}


/* Is the line [l, e) "struct w {" or "union w {" (the brace may be on the next line)? */
static bool tag_line(const char *l, const char *e, const char *w, size_t wn)
{
	for (const char *k = l; k < e && (*k == ' ' || *k == '\t'); k++)
		l = k + 1;
	if (e - l >= 7 && !memcmp(l, "struct ", 7))
		l += 7;
	else if (e - l >= 6 && !memcmp(l, "union ", 6))
		l += 6;
	else
		return false;
	if ((size_t)(e - l) < wn || memcmp(l, w, wn) || (l + wn < e && ident_char(l[wn])))
		return false;
	for (l += wn; l < e && (*l == ' ' || *l == '\t'); l++)
		;
	return l == e || *l == '{';
}

/* Is the line [l, e) a member's declaration of w: "\ttype w;", "\tint *w[4];", "\tvoid (*w)(void);"? */
static bool declares_member(const char *l, const char *e, const char *w, size_t wn)
{
	if (l == e || (*l != ' ' && *l != '\t'))
		return false;   /* members are indented */
	for (const char *p = l; (p = memmem(p, (size_t)(e - p), w, wn)); p++) {
		const char *a = p + wn;
		if (p == l || (p[-1] != ' ' && p[-1] != '\t' && p[-1] != '*') ||
		    (a < e && ident_char(*a)))
			continue;
		while (a < e && (*a == ' ' || *a == '\t'))
			a++;
		if (a < e && strchr(";[:,)", *a))
			return true;
	}
	return false;
}

/* Does the text define w as wk says: a member, a struct or union ("struct w {"), or as definer.h reads? */
static bool defines(const char *text, size_t len, const struct wanted *wk)
{
	struct definer_query q = { wk->kind, wk->name, NULL, NULL };
	const char *end = text + len;
	size_t wn = strlen(wk->name);

	if (wk->kind != DEFINER_MEMBER && wk->kind != DEFINER_TYPE)
		return definer_text_defines(text, len, &q);
	if (!memmem(text, len, wk->name, wn))
		return false;
	for (const char *l = text; l < end;) {
		const char *e = memchr(l, '\n', (size_t)(end - l));
		if (!e)
			e = end;
		if (wk->kind == DEFINER_MEMBER ? declares_member(l, e, wk->name, wn) :
		    tag_line(l, e, wk->name, wn))
			return true;
		l = e + 1;
	}
	return false;
}

/* Does the fix define it itself (a line of its own, of the definition's shape)? */
static bool own_name(const struct diff_files *d, const struct wanted *w)
{
	for (size_t i = 0; i < d->nr; i++)
		for (size_t k = 0; k < d->v[i].nhunks; k++) {
			const struct text_lines *l = &d->v[i].hunks[k].post;
			for (size_t j = 0; j < l->nr; j++)
				if (defines(l->v[j], l->len[j], w))
					return true;
		}
	return false;
}

/* One name: where the fix's parent defines it, and whether the release does. */
static void look_up(struct readiness *r, struct ready_search *x, const struct diff_files *d,
		    struct texts *then, struct texts *now, char **where, size_t nwhere,
		    const struct wanted *w)
{
	struct dag *dag = &x->h->dag;
	struct definer_query q = { w->kind, w->name, NULL, NULL };
	struct ready_name *nm;
	const char *file = NULL;
	uint32_t np;
	const uint32_t *par = dag_parents(dag, r->fix, &np);
	git_oid by;

	for (size_t i = 0; i < d->nr; i++) {
		size_t len;
		const char *text = text_of(now, file_diff_path(&d->v[i]), &len);
		if (text && used_in(text, len, w->name, strlen(w->name), w->kind == DEFINER_FUNCTION))
			return;         /* the release's copy uses it so: it knows it */
	}
	if (own_name(d, w))
		return;
	for (size_t i = 0; i < nwhere && !file; i++) {
		size_t len;
		const char *text = text_of(then, where[i], &len);
		if (text && defines(text, len, w))
			file = where[i];
	}
	if (!file)
		return;         /* defined deeper, or nowhere we look */
	{
		size_t len;
		const char *text = text_of(now, file, &len);
		if (text && defines(text, len, w))
			return;
	}
	r->names = xrealloc(r->names, (r->nnames + 1) * sizeof(*r->names));
	nm = &r->names[r->nnames++];
	memset(nm, 0, sizeof(*nm));
	nm->name = xstrdup(w->name);
	nm->kind = w->kind;
	nm->file = xstrdup(file);
	nm->commit = definer_commit(dag, &dag->oids[r->onto], &dag->oids[par[0]], file, &q, &by) == 0 ?
		     dag_find(dag, &by) : PV_NONE;
}

int ready_names_check(struct readiness *r, struct ready_search *x, const struct diff_files *d,
		      struct apply_tree *release)
{
	struct dag *dag = &x->h->dag;
	struct apply_tree parent;
	struct texts then = { .tree = &parent }, now = { .tree = release };
	struct wanted *v = NULL;
	char **where = NULL;
	size_t n = 0, nwhere = 0;
	uint32_t np;
	const uint32_t *par = dag_parents(dag, r->fix, &np);

	wanted_names(d, &v, &n);
	if (!n)
		return 0;
	apply_tree_init(&parent, x->h->repo, &dag->trees[par[0]]);
	places(&then, d, &where, &nwhere);
	for (size_t i = 0; i < n; i++)
		look_up(r, x, d, &then, &now, where, nwhere, &v[i]);
	for (size_t i = 0; i < n; i++)
		free(v[i].name);
	free(v);
	for (size_t i = 0; i < nwhere; i++)
		free(where[i]);
	free(where);
	texts_free(&then);
	texts_free(&now);
	apply_tree_free(&parent);
	return 0;
}
