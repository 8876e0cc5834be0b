/*
 * Finding the lab's data files: set by the user, installed beside the
 * executable, or in the source tree of a build.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "patchver/base/error.h"
#include "patchver/base/util.h"
#include "patchver/lab/datadir.h"

/* The files every run needs: a directory without them is not a data directory. */
static bool holds_data(const char *dir)
{
	static const char *const needed[] = { "init.c", "kernel.config", "reproducers/nofollow.c" };

	for (size_t i = 0; i < sizeof(needed) / sizeof(needed[0]); i++) {
		char *path = xstrfmt("%s/%s", dir, needed[i]);
		bool ok = access(path, R_OK) == 0;
		free(path);
		if (!ok)
			return false;
	}
	return true;
}

/* <dir of /proc/self/exe>/../share/patchver/guest, or NULL */
static char *beside_exe(void)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	if (!(slash = strrchr(exe, '/')))
		return NULL;
	*slash = '\0';
	return xstrfmt("%s/../share/patchver/guest", exe);
}

char *datadir_guest(const char *explicit)
{
	const char *data = getenv("PATCHVER_DATA_DIR");
	char *tries[5];
	size_t n = 0;
	char *found = NULL;
	struct sbuf looked = SBUF_INIT;

	if (explicit)
		tries[n++] = xstrdup(explicit);
	else if (getenv("PATCHVER_GUEST_DIR"))
		tries[n++] = xstrdup(getenv("PATCHVER_GUEST_DIR"));
	if (!explicit && data)
		tries[n++] = xstrfmt("%s/guest", data);
	if (!explicit && (tries[n] = beside_exe()))
		n++;
	if (!explicit)
		tries[n++] = xstrdup(PATCHVER_GUEST_DIR);
	for (size_t i = 0; i < n; i++) {
		if (!found && holds_data(tries[i]))
			found = xstrdup(tries[i]);
		sbuf_addf(&looked, "%s%s", i ? ", " : "", tries[i]);
		free(tries[i]);
	}
	if (!found)
		pv_error_set(PV_ENOTOOL, "patchver's guest data (init.c, kernel.config, "
			     "reproducers/nofollow.c) not found; looked in %s: reinstall patchver, or set "
			     "PATCHVER_DATA_DIR", sbuf_str(&looked));
	sbuf_free(&looked);
	return found;
}
