/*
 * Kconfig's "depends on" and defaults, read as text (kdeps.h).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/base/util.h"
#include "patchver/lab/kdeps.h"

#define MAX_DEPTH 12        /* sourced files within sourced files */
#define MAX_KCONFIG 4000    /* Kconfig files read at most */

struct reader {
	kobj_read_fn read;
	void *ctx;
};

/* CONFIG_X's value in config: 2 (y), 1 (m), 0 (n, unset). */
int kdeps_value(const char *config, const char *option)
{
	size_t n = strlen(option);

	for (const char *p = config; p && (p = strstr(p, option)); p += n)
		if ((p == config || p[-1] == '\n') && p[n] == '=')
			return p[n + 1] == 'y' ? 2 : p[n + 1] == 'm' ? 1 : 0;
	return 0;
}

/*
 * Kconfig, as far as "which options does X need" goes: the entries'
 * "depends on", their menus' and their "if" blocks', across the files the
 * top one sources.
 */
struct kparse {
	const struct reader *r;
	const char *want;           /* the option, without CONFIG_ */
	const char *arch;           /* $SRCARCH, $ARCH */
	char **ifs;                 /* the open "if" blocks' expressions */
	size_t nifs;
	char **menus;               /* the open menus' "depends on" ("" for none) */
	size_t nmenus;
	char **deps;                /* found: every expression want depends on */
	size_t ndeps;
	bool found, in_want, menu_head;
	bool prompt, default_y;     /* want's entry asks the user; defaults to y */
	size_t files;
};

static void push(char ***v, size_t *n, const char *s)
{
	*v = xrealloc(*v, (*n + 2) * sizeof(**v));
	(*v)[(*n)++] = xstrdup(s);
	(*v)[*n] = NULL;
}

static void pop(char ***v, size_t *n)
{
	if (*n) {
		free((*v)[--*n]);
		(*v)[*n] = NULL;
	}
}

/* The word after a keyword at the start of line, into buf; false if line is not that keyword. */
static bool keyword(const char *line, const char *kw, const char **rest)
{
	size_t n = strlen(kw);

	if (strncmp(line, kw, n) || (line[n] && !isspace((unsigned char)line[n])))
		return false;
	*rest = line + n;
	while (isspace((unsigned char)**rest))
		(*rest)++;
	return true;
}

static void kparse_file(struct kparse *k, const char *path, int depth);

/* "source "arch/$SRCARCH/Kconfig"": the file, $SRCARCH and $ARCH as the lab's arch. */
static void kparse_source(struct kparse *k, const char *rest, int depth)
{
	struct sbuf path = SBUF_INIT;

	for (const char *p = rest; *p && *p != '\n'; p++) {
		if (*p == '"')
			continue;
		if (!strncmp(p, "$SRCARCH", 8) || !strncmp(p, "$(SRCARCH)", 10)) {
			sbuf_adds(&path, k->arch);
			p += p[1] == '(' ? 9 : 7;
		} else if (!strncmp(p, "$ARCH", 5) || !strncmp(p, "$(ARCH)", 7)) {
			sbuf_adds(&path, k->arch);
			p += p[1] == '(' ? 6 : 4;
		} else if (isspace((unsigned char)*p)) {
			break;
		} else {
			sbuf_add(&path, p, 1);
		}
	}
	if (path.len && depth < MAX_DEPTH)
		kparse_file(k, sbuf_str(&path), depth + 1);
	sbuf_free(&path);
}

/* One line of a Kconfig file, leading blanks skipped. */
static void kparse_line(struct kparse *k, const char *line, int depth)
{
	const char *rest;

	if (keyword(line, "depends", &rest) && keyword(rest, "on", &rest)) {
		if (k->in_want) {
			push(&k->deps, &k->ndeps, rest);
		} else if (k->menu_head && k->nmenus) {
			char **m = &k->menus[k->nmenus - 1];
			char *both = **m ? xstrfmt("(%s) && (%s)", *m, rest) : xstrdup(rest);
			free(*m);
			*m = both;
		}
		return;
	}
	if (k->in_want && (((keyword(line, "bool", &rest) || keyword(line, "tristate", &rest) ||
			     keyword(line, "prompt", &rest)) && *rest == '"'))) {
		k->prompt = true;
		return;
	}
	if (k->in_want && ((keyword(line, "def_bool", &rest) || keyword(line, "default", &rest)) &&
			   *rest == 'y' && (!rest[1] || isspace((unsigned char)rest[1])))) {
		k->default_y = true;
		return;
	}
	if (keyword(line, "config", &rest) || keyword(line, "menuconfig", &rest)) {
		k->menu_head = false;
		k->in_want = !k->found && !strncmp(rest, k->want, strlen(k->want)) &&
			     !rest[strlen(k->want)];
		if (k->in_want) {
			k->found = true;
			for (size_t i = 0; i < k->nifs; i++)
				push(&k->deps, &k->ndeps, k->ifs[i]);
			for (size_t i = 0; i < k->nmenus; i++)
				if (*k->menus[i])
					push(&k->deps, &k->ndeps, k->menus[i]);
		}
		return;
	}
	if (keyword(line, "menu", &rest)) {
		k->in_want = false;
		k->menu_head = true;
		push(&k->menus, &k->nmenus, "");
	} else if (keyword(line, "endmenu", &rest)) {
		k->in_want = k->menu_head = false;
		pop(&k->menus, &k->nmenus);
	} else if (keyword(line, "if", &rest)) {
		k->in_want = k->menu_head = false;
		push(&k->ifs, &k->nifs, rest);
	} else if (keyword(line, "endif", &rest)) {
		k->in_want = k->menu_head = false;
		pop(&k->ifs, &k->nifs);
	} else if (keyword(line, "source", &rest)) {
		k->in_want = k->menu_head = false;
		kparse_source(k, rest, depth);
	} else if (keyword(line, "choice", &rest) || keyword(line, "endchoice", &rest) ||
		   keyword(line, "comment", &rest) || keyword(line, "mainmenu", &rest)) {
		k->in_want = k->menu_head = false;
	}
}

/* A line's indentation, tabs to the next multiple of 8. */
static int indent_of(const char *line)
{
	int n = 0;

	for (; *line == ' ' || *line == '\t'; line++)
		n = *line == '\t' ? (n / 8 + 1) * 8 : n + 1;
	return *line ? n : -1;
}

/*
 * Help text is prose, a keyword there a word: it is the lines after
 * "help" more indented than the keyword, up to the first line less
 * indented than its own first line.  *help: -2 outside it, -1 just after
 * the keyword (*kw its indentation), else the text's indentation.  Is
 * this line (indentation ind, -1 blank) help text?
 */
static bool in_help(int *help, int kw, int ind)
{
	if (*help == -2 || ind < 0)
		return *help != -2;
	if (*help == -1 && ind > kw)
		*help = ind;
	if (*help >= 0 && ind >= *help)
		return true;
	*help = -2;
	return false;
}

static void kparse_file(struct kparse *k, const char *path, int depth)
{
	char *text;
	int help = -2, kw = 0;

	if (k->files++ > MAX_KCONFIG || !(text = k->r->read(k->r->ctx, path)))
		return;
	for (char *line = text, *eol; line && *line; line = eol ? eol + 1 : NULL) {
		int ind;
		/* a line ending in a backslash goes on on the next: one line */
		for (eol = strchr(line, '\n'); eol && eol > line && eol[-1] == '\\';
		     eol = strchr(eol, '\n'))
			eol[-1] = eol[0] = ' ';
		if (eol)
			*eol = '\0';
		ind = indent_of(line);
		if (in_help(&help, kw, ind))
			continue;
		while (isspace((unsigned char)*line))
			line++;
		if (!strcmp(line, "help") || !strncmp(line, "---help---", 10) ||
		    !strncmp(line, "help ", 5) || !strncmp(line, "help\t", 5)) {
			help = -1;
			kw = ind;
		} else {
			kparse_line(k, line, depth);
		}
		if (!eol)
			break;
	}
	free(text);
}

/*
 * A Kconfig expression's value under config (2 y, 1 m, 0 n), and the
 * symbols that are n in a part that fails (into *unmet): "A && !B",
 * "(A || B) && C", "A=y", "A!=n".
 */
struct expr {
	const char *p;
	const char *config;
	char ***unmet;
	size_t *nunmet;
};

static void expr_space(struct expr *e)
{
	while (isspace((unsigned char)*e->p))
		e->p++;
}

static int expr_or(struct expr *e);

static int expr_symbol(struct expr *e, char *name, size_t len)
{
	size_t n = 0;
	char option[160];

	expr_space(e);
	if (*e->p == '"')
		e->p++;
	while (isalnum((unsigned char)*e->p) || *e->p == '_')
		if (n + 1 < len)
			name[n++] = *e->p++;
		else
			e->p++;
	if (*e->p == '"')
		e->p++;
	name[n] = '\0';
	if (!strcmp(name, "y") || !strcmp(name, "m") || !strcmp(name, "n"))
		return *name == 'y' ? 2 : *name == 'm' ? 1 : 0;
	snprintf(option, sizeof(option), "CONFIG_%s", name);
	return kdeps_value(e->config, option);
}

static void expr_unmet(struct expr *e, const char *name)
{
	char *option = xstrfmt("CONFIG_%s", name);

	for (size_t i = 0; i < *e->nunmet; i++)
		if (!strcmp((*e->unmet)[i], option)) {
			free(option);
			return;
		}
	*e->unmet = xrealloc(*e->unmet, (*e->nunmet + 2) * sizeof(**e->unmet));
	(*e->unmet)[(*e->nunmet)++] = option;
	(*e->unmet)[*e->nunmet] = NULL;
}

static int expr_atom(struct expr *e)
{
	char name[128], other[128];
	int v;

	expr_space(e);
	if (*e->p == '!') {
		e->p++;
		return 2 - expr_atom(e);
	}
	if (*e->p == '(') {
		e->p++;
		v = expr_or(e);
		expr_space(e);
		if (*e->p == ')')
			e->p++;
		return v;
	}
	v = expr_symbol(e, name, sizeof(name));
	expr_space(e);
	if (*e->p == '=' || (e->p[0] == '!' && e->p[1] == '=')) {
		bool ne = *e->p == '!';
		e->p += ne ? 2 : 1;
		v = (v == expr_symbol(e, other, sizeof(other))) != ne ? 2 : 0;
	} else if (!v && *name && strcmp(name, "n")) {
		expr_unmet(e, name);
	}
	return v;
}

static int expr_and(struct expr *e)
{
	int v = expr_atom(e);

	for (expr_space(e); e->p[0] == '&' && e->p[1] == '&'; expr_space(e)) {
		int w;
		e->p += 2;
		w = expr_atom(e);
		v = w < v ? w : v;
	}
	return v;
}

static int expr_or(struct expr *e)
{
	int v = expr_and(e);

	for (expr_space(e); e->p[0] == '|' && e->p[1] == '|'; expr_space(e)) {
		int w;
		e->p += 2;
		w = expr_and(e);
		v = w > v ? w : v;
	}
	return v;
}

/* Parse the tree's Kconfig files for option's entry into *k (kparse_free() after). */
static void kparse_for(struct kparse *k, const struct reader *r, const char *option)
{
	char *probe;

	memset(k, 0, sizeof(*k));
	k->r = r;
	k->want = option + (strncmp(option, "CONFIG_", 7) ? 0 : 7);
	/* the top Kconfig from 2.6.26; before, the arch's is the top */
	probe = r->read(r->ctx, "arch/x86/Kconfig");
	k->arch = probe ? "x86" : "i386";
	free(probe);
	if ((probe = r->read(r->ctx, "Kconfig"))) {
		free(probe);
		kparse_file(k, "Kconfig", 0);
	} else {
		char *top = xstrfmt("arch/%s/Kconfig", k->arch);
		kparse_file(k, top, 0);
		free(top);
	}
}

static void kparse_free(struct kparse *k)
{
	strv_free(k->deps);
	strv_free(k->ifs);
	strv_free(k->menus);
}

char **kdeps_unmet(kobj_read_fn read, void *ctx, const char *option, const char *config,
		   bool *found)
{
	struct reader r = { read, ctx };
	struct kparse k;
	char **unmet = NULL;
	size_t nunmet = 0;

	kparse_for(&k, &r, option);
	*found = k.found;
	for (size_t i = 0; i < k.ndeps; i++) {
		char **part = NULL;
		size_t npart = 0;
		struct expr e = { k.deps[i], config, &part, &npart };
		/* only a failing expression's n symbols are what it lacks */
		if (!expr_or(&e))
			for (size_t j = 0; j < npart; j++)
				push(&unmet, &nunmet, part[j]);
		strv_free(part);
	}
	kparse_free(&k);
	return unmet;
}

bool kdeps_default_on(kobj_read_fn read, void *ctx, const char *option)
{
	struct reader r = { read, ctx };
	struct kparse k;
	bool on;

	kparse_for(&k, &r, option);
	on = k.found && !k.prompt && k.default_y;
	kparse_free(&k);
	return on;
}
