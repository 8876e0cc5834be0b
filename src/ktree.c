/*
 * Kernel trees in the cache: extract, patch, configure, build.
 */
#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "patchver/error.h"
#include "patchver/ktree.h"
#include "patchver/proc.h"
#include "patchver/util.h"

static char *path_join(const char *a, const char *b)
{
	struct sbuf sb = SBUF_INIT;
	sbuf_addf(&sb, "%s/%s", a, b);
	return sb.buf;
}

static bool exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

static int mkdirs(const char *path)
{
	char *p = xstrdup(path);

	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	mkdir(p, 0755);
	free(p);
	return exists(path) ? 0 : -1;
}

char *ktree_cache_dir(void)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	struct sbuf sb = SBUF_INIT;

	if (xdg && *xdg)
		sbuf_addf(&sb, "%s/patchver", xdg);
	else
		sbuf_addf(&sb, "%s/.cache/patchver", home && *home ? home : "/tmp");
	return sb.buf;
}

static int run(char *const argv[], const char *cwd, const char *log, int code,
	       const char *what)
{
	struct proc_result r;

	if (proc_run(argv, cwd, log, 0, &r) < 0)
		return error(code, "cannot run %s: %s", argv[0], strerror(errno));
	if (r.interrupted)
		return error(EXIT_INTERRUPTED, "interrupted while %s", what);
	if (r.exit_code != 0)
		return error(code, "%s failed (exit %d); see %s", what, r.exit_code,
			     log ? log : "its output");
	return 0;
}

/* Debian's newest /usr/src/linux-source-X.Y.tar.xz */
static char *find_tarball(void)
{
	glob_t g;
	char *best = NULL;

	if (glob("/usr/src/linux-source-*.tar.xz", 0, NULL, &g) == 0 && g.gl_pathc)
		best = xstrdup(g.gl_pathv[g.gl_pathc - 1]);
	globfree(&g);
	return best;
}

static void read_version(struct ktree *k)
{
	char *mk = path_join(k->pristine, "Makefile"), line[256];
	int v = -1, p = -1, s = -1;
	FILE *f = fopen(mk, "r");

	while (f && fgets(line, sizeof(line), f) && (v < 0 || p < 0 || s < 0)) {
		sscanf(line, "VERSION = %d", &v);
		sscanf(line, "PATCHLEVEL = %d", &p);
		sscanf(line, "SUBLEVEL = %d", &s);
	}
	if (f)
		fclose(f);
	free(mk);
	snprintf(k->version, sizeof(k->version), "%d.%d.%d", v, p, s);
}

/* Extract Debian's tarball once into src/<id>, atomically (tmp dir, rename). */
static int extract(struct ktree *k, const char *tarball, const char *log)
{
	char *tmp = path_join(k->cache, "src/.extracting");
	char *argv[] = { "tar", "-xJf", (char *)tarball, "-C", tmp, "--strip-components=1", NULL };
	char *rm[] = { "rm", "-rf", tmp, NULL };
	int ret;

	run(rm, NULL, NULL, EXIT_BUILD, "cleaning up");
	mkdirs(tmp);
	fprintf(stderr, "patchver: extracting %s into %s (once)\n", tarball, k->pristine);
	ret = run(argv, NULL, log, EXIT_BUILD, "extracting the kernel tarball");
	if (!ret && rename(tmp, k->pristine) < 0)
		ret = error(EXIT_BUILD, "cannot move %s into place: %s", tmp, strerror(errno));
	free(tmp);
	return ret;
}

/* The hard-linked work copy, made once; marked complete by a stamp. */
static int make_work(struct ktree *k, const char *log)
{
	char *stamp = path_join(k->work, ".patchver-work");
	char *rm[] = { "rm", "-rf", k->work, NULL };
	char *cp[] = { "cp", "-al", k->pristine, k->work, NULL };
	int ret = 0;

	if (!exists(stamp)) {
		run(rm, NULL, NULL, EXIT_BUILD, "cleaning up");
		ret = run(cp, NULL, log, EXIT_BUILD, "linking the work tree");
		if (!ret) {
			FILE *f = fopen(stamp, "w");
			if (f)
				fclose(f);
		}
	}
	free(stamp);
	return ret;
}

int ktree_open(struct ktree *k, const char *cache, const char *tree)
{
	char *tarball = NULL, *log;
	int ret = 0;

	memset(k, 0, sizeof(*k));
	k->cache = xstrdup(cache);
	if (tree) {
		char *real = realpath(tree, NULL), *mk;
		if (!real)
			return error(EXIT_NO_TOOL, "kernel tree '%s': %s", tree, strerror(errno));
		mk = path_join(real, "Makefile");
		if (!exists(mk)) {
			free(mk);
			free(real);
			return error(EXIT_NO_TOOL, "'%s' is not a kernel source tree (no Makefile)", tree);
		}
		free(mk);
		k->pristine = real;
		k->id = xstrdup(real);
		for (char *p = k->id; *p; p++)
			if (*p == '/')
				*p = '_';
	} else {
		const char *base;
		if (!(tarball = find_tarball()))
			return error(EXIT_NO_TOOL, "no kernel source: install linux-source-6.1 "
				     "or give --kernel-tree DIR");
		base = strrchr(tarball, '/') + 1;
		k->id = xstrndup(base, strlen(base) - strlen(".tar.xz"));
		k->pristine = path_join(cache, "src");
		mkdirs(k->pristine);
		free(k->pristine);
		{
			struct sbuf sb = SBUF_INIT;
			sbuf_addf(&sb, "%s/src/%s", cache, k->id);
			k->pristine = sb.buf;
		}
	}
	{
		struct sbuf w = SBUF_INIT, o = SBUF_INIT;
		sbuf_addf(&w, "%s/work/%s", cache, k->id);
		sbuf_addf(&o, "%s/obj/%s", cache, k->id);
		k->work = w.buf;
		k->obj = o.buf;
	}
	mkdirs(k->obj);
	log = path_join(k->obj, "prepare.log");
	if (tarball && !exists(k->pristine))
		ret = extract(k, tarball, log);
	if (!ret) {
		char *parent = xstrdup(k->work);
		*strrchr(parent, '/') = '\0';
		mkdirs(parent);
		free(parent);
		ret = make_work(k, log);
	}
	if (!ret)
		read_version(k);
	free(log);
	free(tarball);
	return ret;
}

void ktree_free(struct ktree *k)
{
	for (size_t i = 0; i < k->ntouched; i++)
		free(k->touched[i]);
	free(k->touched);
	free(k->cache);
	free(k->id);
	free(k->pristine);
	free(k->work);
	free(k->obj);
	free(k->state);
	memset(k, 0, sizeof(*k));
}

/* Files a patch writes: its "+++ b/..." lines (and "--- a/..." for deletions). */
static void collect_touched(struct ktree *k, const char *patch)
{
	FILE *f = fopen(patch, "r");
	char line[4096];

	while (f && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "+++ b/", 6) && strncmp(line, "--- a/", 6))
			continue;
		line[strcspn(line, "\t\n")] = '\0';
		k->touched = xrealloc(k->touched, (k->ntouched + 1) * sizeof(char *));
		k->touched[k->ntouched++] = xstrdup(line + 6);
	}
	if (f)
		fclose(f);
}

/*
 * Put the pristine version of every touched file back, as a fresh copy:
 * a new mtime, so that make rebuilds what depends on it.
 */
static int restore_touched(struct ktree *k)
{
	for (size_t i = 0; i < k->ntouched; i++) {
		char *src = path_join(k->pristine, k->touched[i]);
		char *dst = path_join(k->work, k->touched[i]);
		char *cp[] = { "cp", "--remove-destination", src, dst, NULL };
		struct proc_result r;

		if (exists(src))
			proc_run(cp, NULL, NULL, 0, &r);
		else
			unlink(dst);
		free(src);
		free(dst);
		free(k->touched[i]);
	}
	k->ntouched = 0;
	return 0;
}

/* The list of touched files survives in the work tree across runs. */
static void load_touched(struct ktree *k)
{
	char *p = path_join(k->work, ".patchver-touched"), line[4096];
	FILE *f = fopen(p, "r");

	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		k->touched = xrealloc(k->touched, (k->ntouched + 1) * sizeof(char *));
		k->touched[k->ntouched++] = xstrdup(line);
	}
	if (f)
		fclose(f);
	free(p);
}

static void save_touched(struct ktree *k)
{
	char *p = path_join(k->work, ".patchver-touched");
	FILE *f = fopen(p, "w");

	for (size_t i = 0; f && i < k->ntouched; i++)
		fprintf(f, "%s\n", k->touched[i]);
	if (f)
		fclose(f);
	free(p);
}

int ktree_set_patches(struct ktree *k, char *const *patches, size_t n, const char *log)
{
	if (!k->ntouched)
		load_touched(k);
	restore_touched(k);
	for (size_t i = 0; i < n; i++) {
		char *argv[] = { "patch", "-p1", "--batch", "--forward", "-s", "-i",
				 patches[i], NULL };
		struct proc_result r;

		collect_touched(k, patches[i]);
		save_touched(k);   /* before applying: an interrupted run can undo it */
		if (proc_run(argv, k->work, log, 0, &r) < 0 || r.exit_code != 0) {
			restore_touched(k);
			save_touched(k);
			return r.interrupted ? EXIT_INTERRUPTED : EXIT_PATCH;
		}
	}
	return 0;
}

int ktree_configure(struct ktree *k, const char *fragment, const char *log)
{
	char *config = path_join(k->obj, ".config");
	char *mine = path_join(k->obj, ".patchver-fragment");
	char *obj_arg = NULL, *merge = path_join(k->work, "scripts/kconfig/merge_config.sh");
	struct sbuf o = SBUF_INIT;
	int ret = 0;
	char *cmp[] = { "cmp", "-s", (char *)fragment, mine, NULL };
	struct proc_result r;

	sbuf_addf(&o, "O=%s", k->obj);
	obj_arg = o.buf;
	if (exists(config) && proc_run(cmp, NULL, NULL, 0, &r) == 0 && r.exit_code == 0)
		goto out;
	{
		char *tiny[] = { "make", "-C", k->work, obj_arg, "tinyconfig", NULL };
		char *mrg[] = { merge, "-m", "-O", k->obj, config, (char *)fragment, NULL };
		char *old[] = { "make", "-C", k->work, obj_arg, "olddefconfig", NULL };
		char *cp[] = { "cp", (char *)fragment, mine, NULL };

		fprintf(stderr, "patchver: configuring %s (tinyconfig + %s)\n", k->id, fragment);
		if ((ret = run(tiny, NULL, log, EXIT_BUILD, "make tinyconfig")) ||
		    (ret = run(mrg, k->obj, log, EXIT_BUILD, "merging the config fragment")) ||
		    (ret = run(old, NULL, log, EXIT_BUILD, "make olddefconfig")) ||
		    (ret = run(cp, NULL, NULL, EXIT_BUILD, "saving the fragment")))
			goto out;
	}
out:
	free(config);
	free(mine);
	free(merge);
	free(obj_arg);
	return ret;
}

int ktree_build(struct ktree *k, const char *log, double *seconds, char **image)
{
	struct sbuf o = SBUF_INIT, j = SBUF_INIT;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct proc_result r;
	int ret = 0;

	sbuf_addf(&o, "O=%s", k->obj);
	sbuf_addf(&j, "-j%ld", cpus > 0 ? cpus : 1);
	{
		char *argv[] = { "make", "-C", k->work, o.buf, j.buf, "bzImage", NULL };
		if (proc_run(argv, NULL, log, 0, &r) < 0)
			ret = error(EXIT_NO_TOOL, "cannot run make: %s", strerror(errno));
		else if (r.interrupted)
			ret = EXIT_INTERRUPTED;
		else if (r.exit_code != 0)
			ret = EXIT_BUILD;
	}
	*seconds = r.seconds;
	*image = ret ? NULL : path_join(k->obj, "arch/x86/boot/bzImage");
	sbuf_free(&o);
	sbuf_free(&j);
	return ret;
}
