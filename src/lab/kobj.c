/*
 * Which options compile a source file of a kernel tree (kobj.h): kbuild's
 * Makefiles and Kconfig's "depends on", read as text.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/base/util.h"
#include "patchver/lab/kdeps.h"
#include "patchver/lab/kmake.h"
#include "patchver/lab/kobj.h"

#define MAX_DEPTH 12        /* composite objects and directories followed */

struct reader {
	kobj_read_fn read;
	void *ctx;
};

/* dir's Makefile and Kbuild, as logical lines (NULL: neither). */
static struct mkline *dir_makefile(const struct reader *r, const char *dir, const char *name)
{
	char *path = *dir ? xstrfmt("%s/%s", dir, name) : xstrdup(name);
	char *text = r->read(r->ctx, path);
	struct mkline *lines = text ? kmake_lines(text) : NULL;

	free(path);
	free(text);
	return lines;
}

/*
 * An assignment's left side: *prefix ("obj", "lib", "core", or a composite
 * object's name) and *option ("CONFIG_X", or "" for -y/-objs).  false: not
 * one that builds into the image (obj-m, other variables).
 */
static bool read_lhs(const char *line, char *prefix, size_t plen, char *option, size_t olen,
		     const char **rhs, bool *sets)
{
	const char *p = line, *eq, *cfg;
	size_t n;

	while (isspace((unsigned char)*p))
		p++;
	eq = strstr(p, "=");
	if (!eq || eq == p)
		return false;
	*rhs = eq + 1;
	*sets = eq[-1] == ':';      /* ":=" replaces what an earlier line gave */
	n = (size_t)(eq - p);
	while (n && (p[n - 1] == '+' || p[n - 1] == ':' || isspace((unsigned char)p[n - 1])))
		n--;
	*option = '\0';
	if ((cfg = strstr(p, "$(CONFIG_")) && cfg < p + n && cfg > p && cfg[-1] == '-') {
		size_t k = strcspn(cfg + 2, ")");
		snprintf(option, olen, "%.*s", (int)k, cfg + 2);
		snprintf(prefix, plen, "%.*s", (int)(cfg - 1 - p), p);
		return true;
	}
	if (n > 2 && !strncmp(p + n - 2, "-y", 2)) {
		snprintf(prefix, plen, "%.*s", (int)(n - 2), p);
		return true;
	}
	if (n > 5 && !strncmp(p + n - 5, "-objs", 5)) {
		snprintf(prefix, plen, "%.*s", (int)(n - 5), p);
		return true;
	}
	/* the boot code's "targets :=" list (in_boot()) */
	if (n == 7 && !strncmp(p, "targets", 7)) {
		snprintf(prefix, plen, "targets");
		return true;
	}
	return false;
}

/* Is word one of the whitespace-separated words of rhs? */
static bool has_word(const char *rhs, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = rhs; (p = strstr(p, word)); p++)
		if ((p == rhs || isspace((unsigned char)p[-1]) ||
		     (p - rhs >= 7 && !strncmp(p - 7, "$(obj)/", 7))) &&    /* "$(obj)/misc.o" */
		    (!p[n] || isspace((unsigned char)p[n])))
			return true;
	return false;
}

/*
 * arch/x86/boot and below: the setup code and the decompressor, made for
 * the image by the arch Makefile ("setup-y", "targets"), not by obj-y.
 */
static bool in_boot(const char *dir)
{
	static const char *const boots[] = { "arch/x86/boot", "arch/i386/boot", "arch/x86_64/boot",
					     NULL };

	for (size_t i = 0; boots[i]; i++) {
		size_t n = strlen(boots[i]);
		if (!strncmp(dir, boots[i], n) && (!dir[n] || dir[n] == '/'))
			return true;
	}
	return false;
}

/*
 * "process_64.o" named as "process_$(BITS).o" (arch/x86 from 2.6.24):
 * the option that makes BITS 64 ("CONFIG_64BIT") or 32 ("!CONFIG_64BIT"),
 * NULL when rhs names word in neither form.
 */
static const char *bits_form(const char *rhs, const char *word)
{
	const char *at = strstr(word, "64") ? strstr(word, "64") : strstr(word, "32");
	char *form;
	bool named;

	if (!at)
		return NULL;
	form = xstrfmt("%.*s$(BITS)%s", (int)(at - word), word, at + 2);
	named = has_word(rhs, form);
	free(form);
	return !named ? NULL : at[0] == '6' ? "CONFIG_64BIT" : "!CONFIG_64BIT";
}

static bool is_direct(const char *prefix)
{
	static const char *const direct[] = { "obj", "lib", "core", "drivers", "net", "libs", "init",
					      "head", "subdir", "extra", NULL };
	for (size_t i = 0; direct[i]; i++)
		if (!strcmp(prefix, direct[i]))
			return true;
	return false;
}

/* Every way of sub, each with the space-separated options of opts added, appended to *out. */
static void add_ways(struct kobj_need *out, const struct kobj_need *sub, const char *opts)
{
	for (size_t i = 0; i < sub->nways; i++) {
		struct kobj_way *w;
		size_t k = 0;
		out->ways = xrealloc(out->ways, (out->nways + 1) * sizeof(*out->ways));
		w = &out->ways[out->nways++];
		w->options = strv_dup(sub->ways[i].options);
		while (w->options && w->options[k])
			k++;
		for (const char *p = opts; *p;) {
			size_t n = strcspn(p, " ");
			if (n) {
				w->options = xrealloc(w->options, (k + 2) * sizeof(*w->options));
				w->options[k++] = xstrndup(p, n);
				w->options[k] = NULL;
			}
			p += n + (p[n] == ' ');
		}
	}
}

/*
 * "mmu-y := nommu.o" then "mmu-$(CONFIG_MMU) := mmap.o ...": the later
 * ":=" replaces the list when its option is on.  The options of the lines
 * after lines[at] that set prefix's list again, negated ("!CONFIG_MMU").
 */
static void overridden_by(const struct mkline *lines, size_t at, const char *prefix,
			  struct sbuf *conds)
{
	char p2[128], option[128];
	const char *rhs;
	bool sets;

	for (size_t i = at + 1; lines[i].text; i++)
		if (read_lhs(lines[i].text, p2, sizeof(p2), option, sizeof(option), &rhs, &sets) &&
		    sets && *option && !strcmp(p2, prefix))
			sbuf_addf(conds, " !%s", option);
}

static void dir_ways(const struct reader *r, const char *dir, int depth, struct kobj_need *out);

/* The ways the lines of a Makefile in dir that name word build it. */
static void word_ways(const struct reader *r, const struct mkline *lines, const char *dir,
		      const char *word, bool top, int depth, struct kobj_need *out)
{
	char prefix[128], option[128];
	const char *rhs;
	bool sets;

	if (depth > MAX_DEPTH)
		return;
	for (size_t i = 0; lines && lines[i].text; i++) {
		struct kobj_need sub = { 0 };
		struct sbuf conds = SBUF_INIT;
		const char *bits = NULL;
		if (!read_lhs(lines[i].text, prefix, sizeof(prefix), option, sizeof(option), &rhs,
			      &sets) || !(has_word(rhs, word) || (bits = bits_form(rhs, word))))
			continue;
		/* the line's own option, the blocks' around it, the ":=" after it */
		sbuf_addf(&conds, "%s %s", option, lines[i].conds);
		if (!has_word(rhs, word))
			sbuf_addf(&conds, " %s", bits);
		if (sets && !*option)
			overridden_by(lines, i, prefix, &conds);
		if (top && is_direct(prefix)) {
			static char *none[] = { NULL };
			struct kobj_way always = { none };
			struct kobj_need one = { NULL, &always, 1 };
			add_ways(out, &one, sbuf_str(&conds));
			sbuf_free(&conds);
			continue;
		}
		if (is_direct(prefix) || (in_boot(dir) && (!strcmp(prefix, "setup") ||
							     !strcmp(prefix, "targets")))) {
			dir_ways(r, dir, depth + 1, &sub);
		} else {
			/* a composite object's part, or a list's: what builds the
			 * composite, or names the list ("obj-y += $(mmu-y)") */
			char *comp = xstrfmt("%s.o", prefix), *var = xstrfmt("$(%s-y)", prefix);
			char *objs = xstrfmt("$(%s-objs)", prefix);
			word_ways(r, lines, dir, comp, false, depth + 1, &sub);
			word_ways(r, lines, dir, var, false, depth + 1, &sub);
			word_ways(r, lines, dir, objs, false, depth + 1, &sub);
			free(comp);
			free(var);
			free(objs);
		}
		add_ways(out, &sub, sbuf_str(&conds));
		sbuf_free(&conds);
		kobj_need_free(&sub);
	}
}

/* What builds directory dir: its parent's line naming it, or the top and arch Makefiles'. */
static void dir_ways(const struct reader *r, const char *dir, int depth, struct kobj_need *out)
{
	/* the lists of top directories: the top Makefile's (core-y, drivers-y, ...), the
	 * top Kbuild's (obj-y += fs/, from 5.x), the arch's (core-y += arch/x86/kernel/) */
	static const char *const tops[] = { "Makefile", "Kbuild", "arch/x86/Makefile",
					    "arch/i386/Makefile", "arch/x86_64/Makefile", NULL };
	const char *slash = strrchr(dir, '/');
	char *full = xstrfmt("%s/", dir);

	if (!*dir || in_boot(dir) || depth > MAX_DEPTH) {
		static char *none[] = { NULL };
		struct kobj_way always = { none };
		struct kobj_need one = { NULL, &always, 1 };
		if (depth <= MAX_DEPTH)
			add_ways(out, &one, "");
		goto out;
	}
	/* the parent's line, else an ancestor's naming the rest of the path ("input/serio/") */
	for (const char *cut = slash; cut && !out->nways; ) {
		char *above = xstrndup(dir, (size_t)(cut - dir)), *rest = xstrfmt("%s/", cut + 1);
		struct mkline *lines = dir_makefile(r, above, "Kbuild");
		if (!lines)
			lines = dir_makefile(r, above, "Makefile");
		word_ways(r, lines, above, rest, false, depth, out);
		kmake_lines_free(lines);
		free(above);
		free(rest);
		while (--cut > dir && *cut != '/')
			;
		if (cut <= dir)
			break;
	}
	/* the top Makefile's and the arch's lists name directories by their whole path */
	for (size_t i = 0; tops[i] && !out->nways; i++) {
		char *text = r->read(r->ctx, tops[i]);
		struct mkline *lines = text ? kmake_lines(text) : NULL;
		word_ways(r, lines, "", full, true, depth, out);
		if (!strncmp(full, "arch/x86/", 9)) {  /* the top Kbuild's "arch/$(SRCARCH)/" */
			char *as = xstrfmt("arch/$(SRCARCH)/%s", full + 9);
			word_ways(r, lines, "", as, true, depth, out);
			free(as);
		}
		kmake_lines_free(lines);
		free(text);
	}
out:
	free(full);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool same_way(const struct kobj_way *a, const struct kobj_way *b)
{
	size_t i = 0;

	for (; a->options && b->options && a->options[i] && b->options[i]; i++)
		if (strcmp(a->options[i], b->options[i]))
			return false;
	return (!a->options || !a->options[i]) && (!b->options || !b->options[i]);
}

/* Each way's options in name order, each way once. */
static void tidy(struct kobj_need *n)
{
	size_t k = 0;

	for (size_t i = 0; i < n->nways; i++) {
		size_t c = 0;
		while (n->ways[i].options && n->ways[i].options[c])
			c++;
		if (c > 1)
			qsort(n->ways[i].options, c, sizeof(char *), cmp_str);
		/* an option the directory and the file both need, once */
		for (size_t a = 1, b = 1; a <= c; a++) {
			if (a < c && !strcmp(n->ways[i].options[a], n->ways[i].options[b - 1]))
				free(n->ways[i].options[a]);
			else if (a < c)
				n->ways[i].options[b++] = n->ways[i].options[a];
			else
				n->ways[i].options[b] = NULL;
		}
	}
	for (size_t i = 0; i < n->nways; i++) {
		bool seen = false;
		for (size_t j = 0; j < k && !seen; j++)
			seen = same_way(&n->ways[j], &n->ways[i]);
		if (seen)
			strv_free(n->ways[i].options);
		else
			n->ways[k++] = n->ways[i];
	}
	n->nways = k;
}

void kobj_needs(kobj_read_fn read, void *ctx, const char *path, struct kobj_need *out)
{
	struct reader r = { read, ctx };
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	const char *dot = strrchr(base, '.');
	char *dir = slash ? xstrndup(path, (size_t)(slash - path)) : xstrdup("");
	char *obj = xstrfmt("%.*s.o", (int)(dot ? (size_t)(dot - base) : strlen(base)), base);
	/* kbuild reads a directory's Kbuild before its Makefile */
	struct mkline *lines = dir_makefile(&r, dir, "Kbuild");

	memset(out, 0, sizeof(*out));
	out->path = xstrdup(path);
	if (!lines)
		lines = dir_makefile(&r, dir, "Makefile");
	word_ways(&r, lines, dir, obj, false, 0, out);
	tidy(out);
	kmake_lines_free(lines);
	free(dir);
	free(obj);
}

void kobj_need_free(struct kobj_need *n)
{
	for (size_t i = 0; i < n->nways; i++)
		strv_free(n->ways[i].options);
	free(n->ways);
	free(n->path);
	memset(n, 0, sizeof(*n));
}

bool kobj_built(const struct kobj_need *n, const char *config, char ***missing)
{
	size_t best = (size_t)-1;

	*missing = NULL;
	for (size_t i = 0; i < n->nways; i++) {
		char **lack = NULL;
		size_t k = 0;
		for (char **o = n->ways[i].options; o && *o; o++)
			/* "!CONFIG_X": built while X is off (mm/nommu.c, init/noinitramfs.c) */
			if (**o == '!' ? kdeps_value(config, *o + 1) == 2 : kdeps_value(config, *o) != 2) {
				lack = xrealloc(lack, (k + 2) * sizeof(*lack));
				lack[k++] = xstrdup(*o);
				lack[k] = NULL;
			}
		if (!k) {
			strv_free(*missing);
			*missing = NULL;
			return true;
		}
		if (k < best) {
			strv_free(*missing);
			*missing = lack;
			best = k;
		} else {
			strv_free(lack);
		}
	}
	return false;
}

char *kobj_unbuilt_line(kobj_read_fn read, void *ctx, const char *path, const char *config)
{
	struct kobj_need need;
	struct sbuf out = SBUF_INIT, turn = SBUF_INIT;
	char **missing = NULL, *line;

	kobj_needs(read, ctx, path, &need);
	if (!need.nways) {
		kobj_need_free(&need);
		return xstrfmt("%s is not built here: no Makefile line of its directory names it", path);
	}
	if (kobj_built(&need, config, &missing)) {
		kobj_need_free(&need);
		return NULL;
	}
	sbuf_addf(&out, "%s is not built here: it needs", path);
	for (char **m = missing; *m; m++) {
		bool found;
		char **unmet;
		if (**m == '!') {   /* built only while an option is off */
			sbuf_addf(&out, "%s %s off", m == missing ? "" : ",", *m + 1);
			sbuf_addf(&turn, " --config %s=n", *m + 1);
			continue;
		}
		unmet = kdeps_unmet(read, ctx, *m, config, &found);
		sbuf_addf(&out, "%s %s", m == missing ? "" : ",", *m);
		if (!found)
			sbuf_adds(&out, " (no Kconfig entry defines it here)");
		for (char **u = unmet; u && *u; u++) {
			sbuf_addf(&out, "%s%s", u == unmet ? " (which depends on " : ", ", *u);
			sbuf_addf(&turn, " --config %s=y", *u);
		}
		if (unmet)
			sbuf_adds(&out, ", unset here)");
		sbuf_addf(&turn, " --config %s=y", *m);
		strv_free(unmet);
	}
	sbuf_addf(&out, ";%s may turn it on", sbuf_str(&turn));
	line = xstrdup(sbuf_str(&out));
	strv_free(missing);
	sbuf_free(&turn);
	sbuf_free(&out);
	kobj_need_free(&need);
	return line;
}
