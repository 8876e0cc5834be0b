/*
 * patchver: parses and checks the command line, answers from the release
 * index when it can (query_report.h), and otherwise loads the full program
 * (dispatch.h).  This binary does not link libgit2: a query the index
 * answers costs a few milliseconds, and loading libgit2 would be most of them.
 */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "patchver/base/error.h"
#include "patchver/base/util.h"
#include "patchver/cli/diag.h"
#include "patchver/cli/dispatch.h"
#include "patchver/cli/options.h"
#include "patchver/cli/query_report.h"

#ifndef PATCHVER_VERSION
#define PATCHVER_VERSION "0.1"
#endif

/*
 * The per-rev reports of ids and tags (quick_lookup) answer from a fresh
 * release index before libgit2 starts, when the quick path is sure (quick.h).
 * PATCHVER_QUICK=off skips it; =require makes a decline an error (tests).
 */
static bool try_quick(const struct command_line *cl, int *ret)
{
	struct report_opts ropts = { cl->mode, false, NULL };
	const char *env = getenv("PATCHVER_QUICK"), *why = NULL;
	bool require = env && !strcmp(env, "require");
	struct quick *q;
	int code = -1;

	/* names of the default release tags, as text: what the index answers */
	if ((env && !strcmp(env, "off")) || cl->job != JOB_NAMES || opt.json || opt.no_index ||
	    opt.match)
		return false;
	if ((q = quick_open(opt.dir, DEFAULT_RELEASE_GLOB, &why))) {
		code = report_quick(q, &ropts, cl->revs, cl->nrevs);
		why = quick_why();
	}
	quick_close(q);
	if (code >= 0) {
		*ret = code;
		return true;
	}
	if (!require)
		return false;
	*ret = error(EXIT_INTERNAL, "quick path declined: %s", why ? why : "?");
	return true;
}

/*
 * patchver-full.so: beside this binary in a build tree, in
 * <prefix>/lib/patchver once installed (as the guest data is found).
 */
static dispatch_fn *load_full(void)
{
	static const char *const places[] = { "%s/patchver-full.so",
					      "%s/../lib/patchver/patchver-full.so" };
	char exe[PATH_MAX], *path = NULL;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	dispatch_fn *full = NULL;
	void *lib;

	if (n <= 0 || !memchr(exe, '/', (size_t)n)) {
		error(EXIT_INTERNAL, "cannot find this program's own path in /proc/self/exe");
		return NULL;
	}
	exe[n] = '\0';
	*strrchr(exe, '/') = '\0';
	/* the first that exists is the one: a broken copy is an error, not skipped */
	for (size_t i = 0; i < sizeof(places) / sizeof(places[0]); i++) {
		path = xstrfmt(places[i], exe);
		if (access(path, F_OK) == 0)
			break;
		free(path);
		path = NULL;
	}
	if (!path)
		error(EXIT_INTERNAL, "patchver-full.so is neither in %s nor in %s/../lib/patchver",
		      exe, exe);
	/*
	 * Lazy: binding every symbol of libgit2's dependencies up front (krb5,
	 * pcre2, ...) costs a one-query run 0.4 ms for functions it never
	 * calls; patchver-full.so is linked --no-undefined, so nothing of
	 * ours can be missing at a call.
	 */
	else if (!(lib = dlopen(path, RTLD_LAZY | RTLD_LOCAL)))
		error(EXIT_INTERNAL, "cannot load %s: %s", path, dlerror());
	else if (!(full = (dispatch_fn *)dlsym(lib, DISPATCH_SYMBOL)))
		error(EXIT_INTERNAL, "%s is not patchver's: %s", path, dlerror());
	free(path);
	return full;
}

int main(int argc, const char **argv)
{
	struct command_line cl;
	dispatch_fn *full;
	int ret;

	diag_install();
	if ((ret = options_parse(&cl, argc, argv)))
		goto out;
	if (cl.job == JOB_VERSION) {
		printf("patchver %s (libgit2 %s)\n", PATCHVER_VERSION, PATCHVER_LIBGIT2_VERSION);
		goto out;
	}
	if (try_quick(&cl, &ret))
		goto out;
	if ((full = load_full()))
		ret = full(&opt, &cl);
	else
		ret = EXIT_INTERNAL;
out:
	options_free(&cl);
	if (fflush(stdout) != 0 && !ret)
		ret = error(EXIT_INTERNAL, "cannot write output");
	return ret;
}
