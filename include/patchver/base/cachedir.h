#ifndef PATCHVER_BASE_CACHEDIR_H
#define PATCHVER_BASE_CACHEDIR_H

/*
 * patchver's cache: $XDG_CACHE_HOME/patchver, else ~/.cache/patchver.
 * Everything patchver keeps between runs lives there, never in the
 * repository it reads.
 */

/* The cache's root directory (caller frees); not created. */
char *cachedir_root(void);

/* mkdir -p: 0 when path is a directory afterwards, -1 with errno set. */
int cachedir_mkdirs(const char *path);

/*
 * Disk use of everything below path, in KiB, as du -sk counts it (allocated
 * blocks, each inode once, symbolic links not followed); -1 with errno set
 * when path cannot be walked.  Measured in C: a path is never handed to a
 * shell, whatever characters XDG_CACHE_HOME holds.
 */
long long cachedir_usage_kib(const char *path);

#endif
