/*
 * Where the cache lives, and making directories in it.
 */
#include <errno.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
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

/*
 * nftw's callback has no context argument: one cachedir_usage_kib() call's
 * running total lives here.  Files with more than one link (the kernel work
 * trees are `cp -al` copies of the pristine tree) are set aside and counted
 * once each after the walk, as du counts them.
 */
struct linked_inode {
	dev_t dev;
	ino_t ino;
	blkcnt_t blocks;
};

static struct usage_walk {
	long long blocks;                 /* 512-byte units, files with one link */
	struct linked_inode *linked;
	size_t nlinked, alloc;
} walk;

static int add_usage(const char *path, const struct stat *st, int type, struct FTW *f)
{
	if (type == FTW_NS)
		return 0;       /* vanished while walking: nothing to count */
	if (st->st_nlink > 1 && !S_ISDIR(st->st_mode)) {
		walk.linked = xgrow(walk.linked, &walk.alloc, walk.nlinked + 1,
				    sizeof(*walk.linked));
		walk.linked[walk.nlinked++] = (struct linked_inode){
			st->st_dev, st->st_ino, st->st_blocks };
		return 0;
	}
	walk.blocks += st->st_blocks;
	return 0;
}

static int cmp_inode(const void *a, const void *b)
{
	const struct linked_inode *x = a, *y = b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	return x->ino < y->ino ? -1 : x->ino > y->ino;
}

long long cachedir_usage_kib(const char *path)
{
	long long kib = -1;

	memset(&walk, 0, sizeof(walk));
	if (nftw(path, add_usage, 32, FTW_PHYS | FTW_MOUNT) < 0)
		goto out;
	qsort(walk.linked, walk.nlinked, sizeof(*walk.linked), cmp_inode);
	for (size_t i = 0; i < walk.nlinked; i++)
		if (!i || cmp_inode(&walk.linked[i - 1], &walk.linked[i]))
			walk.blocks += walk.linked[i].blocks;
	kib = walk.blocks / 2;
out:
	free(walk.linked);
	memset(&walk, 0, sizeof(walk));
	return kib;
}
