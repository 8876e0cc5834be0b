/*
 * cpio newc + gzip.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "patchver/lab/initramfs.h"
#include "patchver/base/util.h"

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

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t alloc = 0, n;

	*len = 0;
	if (!f)
		return NULL;
	do {
		buf = xgrow(buf, &alloc, *len + 65536, 1);
		n = fread(buf + *len, 1, 65536, f);
		*len += n;
	} while (n > 0);
	fclose(f);
	return buf;
}

int initramfs_write(const char *out, const char *init_binary)
{
	size_t len;
	char *init = slurp(init_binary, &len);
	gzFile gz;
	unsigned ino = 1;
	int ret = -1;

	if (!init)
		return -1;
	gz = gzopen(out, "wb9");
	if (!gz)
		goto out;
	if (entry(gz, &ino, "dev", 040755, 0, 0, NULL, 0) == 0 &&
	    entry(gz, &ino, "dev/console", 020600, 5, 1, NULL, 0) == 0 &&
	    entry(gz, &ino, "t", 040755, 0, 0, NULL, 0) == 0 &&
	    entry(gz, &ino, "proc", 040755, 0, 0, NULL, 0) == 0 &&
	    entry(gz, &ino, "init", 0100755, 0, 0, init, len) == 0 &&
	    entry(gz, &ino, "TRAILER!!!", 0, 0, 0, NULL, 0) == 0)
		ret = 0;
	if (gzclose(gz) != Z_OK)
		ret = -1;
out:
	free(init);
	return ret;
}
