/*
 * Does a state's configuration compile a patch's files (unbuilt.h)?
 */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "patchver/base/util.h"
#include "patchver/lab/kdeps.h"
#include "patchver/lab/kobj.h"
#include "patchver/lab/unbuilt.h"

char *unbuilt_read(void *ctx, const char *path)
{
	struct unbuilt_tree *r = ctx;
	git_tree_entry *e = NULL;
	git_blob *b = NULL;
	char *text = NULL;

	if (git_tree_entry_bypath(&e, r->tree, path) == 0 &&
	    git_tree_entry_type(e) == GIT_OBJECT_BLOB &&
	    git_blob_lookup(&b, r->repo, git_tree_entry_id(e)) == 0)
		text = xstrndup(git_blob_rawcontent(b), (size_t)git_blob_rawsize(b));
	git_blob_free(b);
	git_tree_entry_free(e);
	git_error_clear();
	return text;
}

static bool is_source(const char *path)
{
	size_t n = strlen(path);
	return n > 2 && path[n - 2] == '.' && (path[n - 1] == 'c' || path[n - 1] == 'S');
}

static bool is_header(const char *path)
{
	size_t n = strlen(path);
	return n > 2 && path[n - 2] == '.' && path[n - 1] == 'h';
}

char **unbuilt_sources(const struct kpatch *p)
{
	char **v = NULL;
	size_t n = 0;

	for (size_t i = 0; p && p->diff && i < git_diff_num_deltas(p->diff); i++) {
		const git_diff_delta *d = git_diff_get_delta(p->diff, i);
		const char *path = d->new_file.path ? d->new_file.path : d->old_file.path;
		/* a file the patch deletes or adds is no question for the state without it */
		if (!path || !(is_source(path) || is_header(path)) || d->status == GIT_DELTA_DELETED)
			continue;
		v = xrealloc(v, (n + 2) * sizeof(*v));
		v[n++] = xstrdup(path);
		v[n] = NULL;
	}
	return v;
}

/* "dir/file.o" of "dir/file.c" in obj: was it made? */
static bool has_object(const char *obj, const char *path)
{
	char *o = xstrfmt("%s/%.*so", obj, (int)(strlen(path) - 1), path);
	struct stat st;
	bool yes = stat(o, &st) == 0;

	free(o);
	return yes;
}

static void add_line(struct candidate *c, char *line)
{
	size_t n = 0;

	while (c->run.unbuilt && c->run.unbuilt[n])
		n++;
	c->run.unbuilt = xrealloc(c->run.unbuilt, (n + 2) * sizeof(*c->run.unbuilt));
	c->run.unbuilt[n] = line;
	c->run.unbuilt[n + 1] = NULL;
}

/* config's text without its "option=y" line. */
static char *without(char *config, const char *option)
{
	char *on = xstrfmt("%s=y", option), *p = config;
	size_t n = strlen(on);

	for (; (p = strstr(p, on)); p += n)
		if ((p == config || p[-1] == '\n') && (!p[n] || p[n] == '\n')) {
			memmove(p, p + n + (p[n] == '\n'), strlen(p + n + (p[n] == '\n')) + 1);
			break;
		}
	free(on);
	return config;
}

/* The sources' options config sets whose Kconfig dependencies it does not meet, dropped. */
static char *dropped_unmet(struct unbuilt_tree *r, char *const *sources, char *config)
{
	for (char *const *s = sources; *s; s++) {
		struct kobj_need need;
		kobj_needs(unbuilt_read, r, *s, &need);
		for (size_t w = 0; w < need.nways; w++)
			for (char **o = need.ways[w].options; o && *o; o++) {
				bool found;
				char **unmet = **o == '!' || kdeps_value(config, *o) != 2 ? NULL :
					       kdeps_unmet(unbuilt_read, r, *o, config, &found);
				if (unmet)
					config = without(config, *o);
				strv_free(unmet);
			}
		kobj_need_free(&need);
	}
	return config;
}

/*
 * A fragment is what allnoconfig starts from, not a .config: the options
 * that need no asking (no prompt, default y) are on all the same, and one
 * it sets whose dependencies are not met does not stick.  Both, for the
 * options the sources' ways need, made so in its text.
 */
static char *with_defaults(struct unbuilt_tree *r, char *const *sources, char *config)
{
	struct sbuf out = SBUF_INIT;
	char *text;

	sbuf_adds(&out, config);
	sbuf_adds(&out, "\n");
	for (char *const *s = sources; *s; s++) {
		struct kobj_need need;
		kobj_needs(unbuilt_read, r, *s, &need);
		for (size_t w = 0; w < need.nways; w++)
			for (char **o = need.ways[w].options; o && *o; o++) {
				char *on = xstrfmt("\n%s=y\n", *o);
				if (!strstr(sbuf_str(&out), on) && kdeps_default_on(unbuilt_read, r, *o))
					sbuf_adds(&out, on + 1);
				free(on);
			}
		kobj_need_free(&need);
	}
	text = xstrdup(sbuf_str(&out));
	sbuf_free(&out);
	free(config);
	return dropped_unmet(r, sources, text);
}

/*
 * Which headers of sources some object of obj includes: kbuild's .cmd
 * files list each object's dependencies ("deps_..." lines, the sources'
 * paths whole or under the source tree).  included[i] for sources[i].
 */
static const char *const *walk_headers;     /* nftw() passes no context: the walk's */
static bool *walk_included;

bool unbuilt_cmd_names(const char *text, const char *path)
{
	size_t n = strlen(path);

	for (const char *p = text; (p = strstr(p, path)); p += n)
		if ((p == text || p[-1] == '/' || p[-1] == ' ' || p[-1] == '\t') &&
		    (!p[n] || p[n] == ' ' || p[n] == '\n' || p[n] == '\t' || p[n] == ')'))
			return true;
	return false;
}

static int read_cmd(const char *path, const struct stat *st, int type, struct FTW *f)
{
	const char *base = path + f->base;
	size_t n = strlen(base);
	char *text;

	(void)st;
	if (type != FTW_F || base[0] != '.' || n < 6 || strcmp(base + n - 6, ".o.cmd"))
		return 0;
	if (!(text = file_read(path, NULL)))
		return 0;
	for (size_t i = 0; walk_headers[i]; i++)
		walk_included[i] |= is_header(walk_headers[i]) && unbuilt_cmd_names(text, walk_headers[i]);
	free(text);
	return 0;
}

static bool *headers_included(const char *obj, char *const *sources)
{
	size_t n = 0;

	while (sources[n])
		n++;
	walk_headers = (const char *const *)sources;
	walk_included = xcalloc(n + 1, sizeof(bool));
	nftw(obj, read_cmd, 16, FTW_PHYS);
	return walk_included;
}

void unbuilt_check(struct candidate *c, const struct ktree *k, char *const *sources,
		   const char *config_path, bool from_fragment, const char *obj)
{
	struct unbuilt_tree r = { k->repo, NULL };
	bool *included;
	char *config;

	strv_free(c->run.unbuilt);
	c->run.unbuilt = NULL;
	c->run.unbuilt_from_fragment = from_fragment;
	if (!sources || !*sources || !(config = file_read(config_path, NULL)))
		return;
	if (git_tree_lookup(&r.tree, k->repo, &c->run.tree) < 0) {
		git_error_clear();
		free(config);
		return;
	}
	if (from_fragment)
		config = with_defaults(&r, sources, config);
	included = obj ? headers_included(obj, sources) : NULL;
	for (char *const *s = sources; *s; s++) {
		char *line = NULL;
		/* a header is built when a built object includes it: known after the build */
		if (is_header(*s) && included && !included[s - sources])
			line = xstrfmt("%s is not built here: no object of this build includes it", *s);
		else if (!is_header(*s))
			line = kobj_unbuilt_line(unbuilt_read, &r, *s, config);
		/* the build proves it: a file compiled leaves its object */
		if (!line && !is_header(*s) && obj && !has_object(obj, *s))
			line = xstrfmt("%s is not built here: the build made no %.*so", *s,
				       (int)(strlen(*s) - 1), *s);
		if (line)
			add_line(c, line);
	}
	free(included);
	git_tree_free(r.tree);
	free(config);
}

/* Are two files the same, byte for byte? */
static bool same_file(const char *a, const char *b)
{
	size_t na, nb;
	char *x = file_read(a, &na), *y = x ? file_read(b, &nb) : NULL;
	bool same = x && y && na == nb && !memcmp(x, y, na);

	free(x);
	free(y);
	return same;
}

void unbuilt_same_image(struct candidate *with, const struct candidate *without)
{
	if (with->run.status || without->run.status || !with->run.image || !without->run.image ||
	    !same_file(with->run.image, without->run.image))
		return;
	with->run.same_image = true;
	add_line(with, xstrfmt("its image is %s's, byte for byte: the patch changes nothing "
			       "this configuration builds", without->name));
}

bool unbuilt_all(const struct candidate *c, char *const *sources)
{
	size_t n = 0, m = 0;

	if (c->run.same_image)
		return true;
	while (sources && sources[n])
		n++;
	while (c->run.unbuilt && c->run.unbuilt[m])
		m++;
	return n && m >= n;
}
