/*
 * Where the cache lives, and making directories in it.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "patchver/base/cachedir.h"
#include "patchver/base/util.h"

char *cachedir_root(void)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

	if (xdg && *xdg)
		return xstrfmt("%s/patchver", xdg);
	return xstrfmt("%s/.cache/patchver", home && *home ? home : "/tmp");
}

int cachedir_mkdirs(const char *path)
{
	char *p = xstrdup(path);
	struct stat st;

	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	mkdir(p, 0755);
	free(p);
	if (stat(path, &st) < 0)
		return -1;
	if (!S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		return -1;
	}
	return 0;
}
