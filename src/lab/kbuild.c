/*
 * Building a kernel tree's work/ in its object directory (kbuild.h):
 * configure, make bzImage, make one target; distcc when asked.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "patchver/base/error.h"
#include "patchver/base/notice.h"
#include "patchver/base/proc.h"
#include "patchver/base/util.h"
#include "patchver/lab/kbuild.h"

#define DISTCC_MASQUERADE "/usr/lib/distcc"   /* Debian's distcc: gcc, cc, ... */

/*
 * make [env] -C work O=obj [var] [the compat sub-era's variables] target
 * (caller frees the array, not its strings): the sub-era's CC and the
 * like on every make of a tree, so that kbuild's recorded commands match.
 */
static char **make_argv(const struct ktree *k, const char *env, const char *obj, const char *var,
			const char *target)
{
	size_t n = 0, nvars = 0;
	char **argv;

	while (k->make_vars && k->make_vars[nvars])
		nvars++;
	argv = xcalloc(nvars + 10, sizeof(*argv));
	if (env) {
		argv[n++] = "env";
		argv[n++] = (char *)env;
		argv[n++] = "DISTCC_NO_REWRITE_CROSS=1";
	}
	argv[n++] = "make";
	argv[n++] = "-C";
	argv[n++] = k->work;
	argv[n++] = (char *)obj;
	if (var)
		argv[n++] = (char *)var;
	for (size_t i = 0; i < nvars; i++)
		argv[n++] = k->make_vars[i];
	argv[n++] = (char *)target;
	return argv;
}

/* Does the tree in work/ know `make tinyconfig`?  (Linux 3.17 and later.) */
static bool has_tinyconfig(const struct ktree *k)
{
	char *a = path_join(k->work, "kernel/configs/tiny.config");
	char *b = path_join(k->work, "scripts/kconfig/merge_config.sh");
	bool yes = path_exists(a) && path_exists(b);

	free(a);
	free(b);
	return yes;
}

/* tinyconfig, the fragment merged by merge_config.sh, olddefconfig: 3.17 and later. */
static int configure_tiny(struct ktree *k, const char *o, const char *fragment, const char *log)
{
	char *config = path_join(k->obj, ".config");
	char *merge = path_join(k->work, "scripts/kconfig/merge_config.sh");
	char **tiny = make_argv(k, NULL, o, NULL, "tinyconfig");
	char *mrg[] = { merge, "-m", "-O", k->obj, config, (char *)fragment, NULL };
	char **old = make_argv(k, NULL, o, NULL, "olddefconfig");
	int ret;

	pv_notice(PV_NOTICE_NOTE, "configuring %s (tinyconfig + %s)", k->id, fragment);
	if (!(ret = proc_run_ok(tiny, NULL, log, PV_EBUILD, "make tinyconfig")) &&
	    !(ret = proc_run_ok(mrg, k->obj, log, PV_EBUILD, "merging the config fragment")))
		ret = proc_run_ok(old, NULL, log, PV_EBUILD, "make olddefconfig");
	free(tiny);
	free(old);
	free(config);
	free(merge);
	return ret;
}

/* allnoconfig with KCONFIG_ALLCONFIG=fragment: the trees before tinyconfig. */
static int configure_allno(struct ktree *k, const char *o, const char *fragment, bool same,
			   const char *log)
{
	char *all = xstrfmt("KCONFIG_ALLCONFIG=%s", fragment);
	char **none = make_argv(k, NULL, o, all, "allnoconfig");
	char *asm_link = path_join(k->obj, "include/asm");
	struct stat st;
	int ret;

	/*
	 * Before 2.6.28 the object directory's include/asm is a link to
	 * the source's asm-<arch>, and kbuild stops when it names
	 * another arch (asm-x86_64 before 2.6.24, asm-x86 after): made
	 * again by this build, so dropped when one era follows another.
	 */
	if (lstat(asm_link, &st) == 0 && S_ISLNK(st.st_mode))
		unlink(asm_link);
	if (!same)
		pv_notice(PV_NOTICE_NOTE, "configuring %s (allnoconfig + %s, for each state)",
			  k->id, fragment);
	ret = proc_run_ok(none, NULL, log, PV_EBUILD, "make allnoconfig");
	free(none);
	free(asm_link);
	free(all);
	return ret;
}

int kbuild_configure(struct ktree *k, const char *fragment, const char *log)
{
	char *config = path_join(k->obj, ".config");
	char *mine = path_join(k->obj, ".patchver-fragment");
	char *o = xstrfmt("O=%s", k->obj);
	char *cmp[] = { "cmp", "-s", (char *)fragment, mine, NULL };
	char *cp[] = { "cp", (char *)fragment, mine, NULL };
	bool tiny = has_tinyconfig(k), same;
	struct proc_result r;
	int ret = 0;

	/*
	 * Modern kbuild takes Kconfig's defaults for new symbols by itself; an
	 * old one prompts for them, and fails without a terminal.  So old trees
	 * are configured afresh for each state (allnoconfig is deterministic,
	 * and kbuild touches only the config headers that change).
	 */
	same = path_exists(config) && proc_run(cmp, NULL, NULL, 0, &r) == 0 && r.exit_code == 0;
	if (same && tiny)
		goto out;
	unlink(mine);
	ret = tiny ? configure_tiny(k, o, fragment, log) : configure_allno(k, o, fragment, same, log);
	if (!ret)
		ret = proc_run_ok(cp, NULL, NULL, PV_EBUILD, "saving the fragment");
out:
	free(config);
	free(mine);
	free(o);
	return ret;
}

/*
 * distcc in masquerade mode when $DISTCC_HOSTS says where to compile:
 * /usr/lib/distcc first in make's PATH, so kbuild's command lines still
 * say "gcc" and switching distcc on or off rebuilds nothing.  (The state
 * key holds `cc --version` from the real PATH.)  NULL: build locally.
 */
const char *kbuild_distcc(void)
{
	const char *hosts = getenv("DISTCC_HOSTS");

	return hosts && *hosts && access(DISTCC_MASQUERADE "/gcc", X_OK) == 0 ? hosts : NULL;
}

static char *distcc_path(void)
{
	const char *path = getenv("PATH");

	if (!kbuild_distcc())
		return NULL;
	return xstrfmt("PATH=%s:%s", DISTCC_MASQUERADE, path ? path : "/usr/bin:/bin");
}

/* arch/x86/boot/bzImage, or arch/x86_64/boot/ before 2.6.24 unified the two. */
static char *built_image(const struct ktree *k)
{
	static const char *const where[] = { "arch/x86/boot/bzImage", "arch/x86_64/boot/bzImage" };

	for (size_t i = 0; i < sizeof(where) / sizeof(where[0]); i++) {
		char *path = path_join(k->obj, where[i]);
		if (path_exists(path))
			return path;
		free(path);
	}
	return NULL;
}

int kbuild_image(struct ktree *k, const char *log, double *seconds, char **image)
{
	char **argv;
	struct sbuf o = SBUF_INIT, j = SBUF_INIT;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct proc_result r = { 0 };
	char *distcc = distcc_path();
	int ret = 0;

	sbuf_addf(&o, "O=%s", k->obj);
	sbuf_addf(&j, "-j%ld", k->jobs > 0 ? (long)k->jobs : cpus > 0 ? cpus : 1);
	/* distcc would call "gcc" x86_64-linux-gnu-gcc: kbuild's
	 * CONFIG_CC_VERSION_TEXT would change and everything rebuild */
	argv = make_argv(k, distcc, o.buf, j.buf, "bzImage");
	if (proc_run(argv, NULL, log, 0, &r) < 0)
		ret = pv_error_set(PV_ENOTOOL, "cannot run make: %s", strerror(errno));
	else if (r.interrupted)
		ret = pv_error_set(PV_EINTERRUPTED, "interrupted while building");
	else if (r.exit_code != 0)
		ret = pv_error_set(PV_EBUILD, "make failed (exit %d); see %s", r.exit_code, log);
	*seconds = r.seconds;
	*image = NULL;
	if (!ret && !(*image = built_image(k)))
		ret = pv_error_set(PV_EBUILD, "make built no bzImage in %s/arch/x86/boot or "
				   "arch/x86_64/boot; see %s", k->obj, log);
	free(argv);
	free(distcc);
	sbuf_free(&o);
	sbuf_free(&j);
	return ret;
}

int kbuild_make_target(struct ktree *k, const char *target, const char *log)
{
	struct sbuf o = SBUF_INIT, what = SBUF_INIT;
	struct proc_result r;
	char **argv;
	int ret;

	sbuf_addf(&o, "O=%s", k->obj);
	sbuf_addf(&what, "building %s", target);
	/* one job: the log holds this target's messages alone, in order */
	argv = make_argv(k, NULL, o.buf, "-j1", target);
	ret = proc_run_to_end(argv, NULL, log, PV_ENOTOOL, what.buf, &r);
	free(argv);
	sbuf_free(&o);
	sbuf_free(&what);
	return ret;
}
