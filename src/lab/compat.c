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

/* make-flags: "VAR=value" lines; '#' comments and blank lines skipped. */
static int read_make_flags(struct compat *c)
{
	char *path = xstrfmt("%s/make-flags", c->dir), line[1024];
	FILE *f = fopen(path, "r");
	struct sbuf text = SBUF_INIT;
	int ret = 0;

	while (f && !ret && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (!*line || *line == '#')
			continue;
		if (!strchr(line, '=') || strchr(line, '=') == line) {
			ret = pv_error_set(PV_EINVALID, "%s: '%s' is not VAR=value", path, line);
			break;
		}
		sbuf_addf(&text, "%s\n", line);
		c->make_vars = xrealloc(c->make_vars, (c->nmake_vars + 2) * sizeof(*c->make_vars));
		c->make_vars[c->nmake_vars++] = xstrdup(line);
		c->make_vars[c->nmake_vars] = NULL;
	}
	if (f)
		fclose(f);
	c->make_text = text.buf ? text.buf : xstrdup("");
	free(path);
	return ret;
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

/* guest-cc: its first line that is no comment. */
static void read_guest_cc(struct compat *c)
{
	char *path = xstrfmt("%s/guest-cc", c->dir), line[128];
	FILE *f = fopen(path, "r");

	while (f && !c->guest_cc && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n \t")] = '\0';
		if (*line && *line != '#')
			c->guest_cc = xstrdup(line);
	}
	if (f)
		fclose(f);
	free(path);
}

/* qemu-args: one argument a line, comments and blank lines skipped. */
static void read_qemu_args(struct compat *c)
{
	char *path = xstrfmt("%s/qemu-args", c->dir), line[256];
	FILE *f = fopen(path, "r");

	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (!*line || *line == '#')
			continue;
		c->qemu_args = xrealloc(c->qemu_args, (c->nqemu_args + 2) * sizeof(*c->qemu_args));
		c->qemu_args[c->nqemu_args++] = xstrdup(line);
		c->qemu_args[c->nqemu_args] = NULL;
	}
	if (f)
		fclose(f);
	free(path);
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
		read_qemu_args(c);
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
	for (size_t i = 0; i < c->nmake_vars; i++)
		free(c->make_vars[i]);
	free(c->make_vars);
	free(c->make_text);
	free(c->guest_cc);
	for (size_t i = 0; i < c->nqemu_args; i++)
		free(c->qemu_args[i]);
	free(c->qemu_args);
	free(c->dir);
	memset(c, 0, sizeof(*c));
}
