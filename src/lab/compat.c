/*
 * Compat by sub-era: which guest/compat/ directory a tree needs, and
 * what is in it.
 */
#include <dirent.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/base/error.h"
#include "patchver/base/util.h"
#include "patchver/engine/kver.h"
#include "patchver/lab/compat.h"
#include "patchver/lab/ktree.h"

/* "2.6.34-rc3" as a kernel version; an EXTRAVERSION that is no rc counts as the release */
static bool version_of(const char *s, struct kver *v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "v%s", s);
	if (kver_parse(buf, v))
		return true;
	buf[1 + strcspn(s, "-")] = '\0';
	return kver_parse(buf, v);
}

void compat_pick(const char *version, char *const *eras, size_t n, char *era, size_t len)
{
	struct kver want, have, best;
	bool found = false;

	*era = '\0';
	if (!version_of(version, &want))
		return;
	for (size_t i = 0; i < n; i++) {
		/* a sub-era of 2.6 serves 2.6 only: X.Y must match */
		if (!version_of(eras[i], &have))
			continue;
		/* "2.6.24" starts with the merge window: its rc1 */
		if (!kver_is_rc(&have) && !kver_is_stable(&have))
			have.rc = 1;
		if (have.nbase != want.nbase ||
		    have.base[0] != want.base[0] || have.base[1] != want.base[1] ||
		    kver_cmp(&have, &want) > 0 || (found && kver_cmp(&have, &best) <= 0))
			continue;
		best = have;
		found = true;
		snprintf(era, len, "%s", eras[i]);
	}
}

/* The directories of guest/compat/ (caller frees each and the array). */
static size_t list_eras(const char *guest, char ***out)
{
	char *path = xstrfmt("%s/compat", guest);
	DIR *d = opendir(path);
	struct dirent *e;
	size_t n = 0;

	*out = NULL;
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.') {
			*out = xrealloc(*out, (n + 1) * sizeof(**out));
			(*out)[n++] = xstrdup(e->d_name);
		}
	if (d)
		closedir(d);
	free(path);
	return n;
}

/*
 * The lines of a sub-era's file NAME that say something (no '#' comment,
 * not blank), NULL-terminated (caller frees); NULL without the file.
 */
static char **read_lines(const struct compat *c, const char *name, size_t *n)
{
	char *path = xstrfmt("%s/%s", c->dir, name), line[1024], **lines = NULL;
	FILE *f = fopen(path, "r");

	*n = 0;
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (!*line || *line == '#')
			continue;
		lines = xrealloc(lines, (*n + 2) * sizeof(*lines));
		lines[(*n)++] = xstrdup(line);
		lines[*n] = NULL;
	}
	if (f)
		fclose(f);
	free(path);
	return lines;
}

/* make-flags: "VAR=value" lines, kept as text too (a state's key). */
static int read_make_flags(struct compat *c)
{
	struct sbuf text = SBUF_INIT;

	c->make_vars = read_lines(c, "make-flags", &c->nmake_vars);
	for (size_t i = 0; i < c->nmake_vars; i++) {
		const char *eq = strchr(c->make_vars[i], '=');
		if (!eq || eq == c->make_vars[i]) {
			sbuf_free(&text);
			c->make_text = xstrdup("");
			return pv_error_set(PV_EINVALID, "%s/make-flags: '%s' is not VAR=value",
					    c->dir, c->make_vars[i]);
		}
		sbuf_addf(&text, "%s\n", c->make_vars[i]);
	}
	c->make_text = text.buf ? text.buf : xstrdup("");
	return 0;
}

static int read_patches(struct compat *c)
{
	char *pattern = xstrfmt("%s/*.patch", c->dir);
	glob_t g;
	int ret = 0;

	if (glob(pattern, 0, NULL, &g) == 0) {
		c->patches = xcalloc(g.gl_pathc, sizeof(*c->patches));
		for (size_t i = 0; i < g.gl_pathc && !ret; i++) {
			const char *slash = strrchr(g.gl_pathv[i], '/');
			c->patches[i].name = xstrdup(slash ? slash + 1 : g.gl_pathv[i]);
			c->npatches++;
			ret = ktree_diff_file(&c->patches[i].diff, g.gl_pathv[i]);
		}
		globfree(&g);
	}
	free(pattern);
	return ret;
}

/* guest-cc: the compiler its first line names. */
static void read_guest_cc(struct compat *c)
{
	size_t n;
	char **lines = read_lines(c, "guest-cc", &n);

	if (n) {
		lines[0][strcspn(lines[0], " \t")] = '\0';
		c->guest_cc = xstrdup(lines[0]);
	}
	strv_free(lines);
}

int compat_load(struct compat *c, const char *guest, const char *version)
{
	char **eras, era[16];
	size_t n = list_eras(guest, &eras);
	int ret = 0;

	compat_pick(version, eras, n, era, sizeof(era));
	for (size_t i = 0; i < n; i++)
		free(eras[i]);
	free(eras);
	if (c->make_text && !strcmp(era, c->era))
		return 0;
	compat_free(c);
	snprintf(c->era, sizeof(c->era), "%s", era);
	if (*era) {
		c->dir = xstrfmt("%s/compat/%s", guest, era);
		read_guest_cc(c);
		c->qemu_args = read_lines(c, "qemu-args", &c->nqemu_args);
		if (!(ret = read_make_flags(c)))
			ret = read_patches(c);
	} else {
		c->make_text = xstrdup("");
	}
	return ret;
}

void compat_free(struct compat *c)
{
	for (size_t i = 0; i < c->npatches; i++) {
		free(c->patches[i].name);
		git_diff_free(c->patches[i].diff);
	}
	free(c->patches);
	strv_free(c->make_vars);
	free(c->make_text);
	free(c->guest_cc);
	strv_free(c->qemu_args);
	free(c->dir);
	memset(c, 0, sizeof(*c));
}
