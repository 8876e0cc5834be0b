/*
 * cpio newc + gzip.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "patchver/base/util.h"
#include "patchver/lab/initramfs.h"

static int pad4(gzFile gz, size_t len)
{
	static const char zeros[4];
	size_t pad = (4 - len % 4) % 4;
	return pad && gzwrite(gz, zeros, (unsigned)pad) != (int)pad ? -1 : 0;
}

static int entry(gzFile gz, unsigned *ino, const char *name, unsigned mode, unsigned rmajor,
		 unsigned rminor, const void *data, size_t size)
{
	char hdr[160];
	size_t namelen = strlen(name) + 1;

	snprintf(hdr, sizeof(hdr),
		 "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
		 (*ino)++, mode, 0u, 0u, 1u, 0u, (unsigned)size, 0u, 0u, rmajor, rminor,
		 (unsigned)namelen, 0u);
	if (gzwrite(gz, hdr, 110) != 110 || gzwrite(gz, name, (unsigned)namelen) != (int)namelen ||
	    pad4(gz, 110 + namelen) < 0)
		return -1;
	if (size && (gzwrite(gz, data, (unsigned)size) != (int)size || pad4(gz, size) < 0))
		return -1;
	return 0;
}

/* Note dir as written; false if it was already. */
static bool new_dir(char ***dirs, size_t *ndirs, const char *dir, size_t len)
{
	for (size_t i = 0; i < *ndirs; i++)
		if (strlen((*dirs)[i]) == len && !strncmp((*dirs)[i], dir, len))
			return false;
	*dirs = xrealloc(*dirs, (*ndirs + 1) * sizeof(**dirs));
	(*dirs)[(*ndirs)++] = xstrndup(dir, len);
	return true;
}

/* The parents of path that are not in the archive yet. */
static int parents(gzFile gz, unsigned *ino, const char *path, char ***dirs, size_t *ndirs)
{
	for (const char *p = strchr(path, '/'); p; p = strchr(p + 1, '/'))
		if (new_dir(dirs, ndirs, path, (size_t)(p - path)) &&
		    entry(gz, ino, (*dirs)[*ndirs - 1], 040755, 0, 0, NULL, 0) < 0)
			return -1;
	return 0;
}

static int write_entry(gzFile gz, unsigned *ino, const struct initramfs_entry *e,
		       char ***dirs, size_t *ndirs)
{
	size_t len = e->size;
	char *data = e->src ? file_read(e->src, &len) : NULL;
	int ret;

	if (e->src && !data)
		return -1;
	ret = parents(gz, ino, e->path, dirs, ndirs);
	/* a directory written already as a parent is not written again */
	if (!ret && ((e->mode & 0170000) != 040000 || new_dir(dirs, ndirs, e->path, strlen(e->path))))
		ret = entry(gz, ino, e->path, e->mode, e->rmajor, e->rminor, data ? data : e->data, len);
	free(data);
	return ret;
}

int initramfs_write(const char *out, const struct initramfs_entry *e, size_t n)
{
	gzFile gz = gzopen(out, "wb6");
	unsigned ino = 1;
	char **dirs = NULL;
	size_t ndirs = 0;
	int ret = gz ? 0 : -1;

	for (size_t i = 0; i < n && !ret; i++)
		ret = write_entry(gz, &ino, &e[i], &dirs, &ndirs);
	if (!ret)
		ret = entry(gz, &ino, "TRAILER!!!", 0, 0, 0, NULL, 0);
	if (gz && gzclose(gz) != Z_OK)
		ret = -1;
	for (size_t i = 0; i < ndirs; i++)
		free(dirs[i]);
	free(dirs);
	return ret;
}
