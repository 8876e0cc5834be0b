#ifndef PATCHVER_INITRAMFS_H
#define PATCHVER_INITRAMFS_H

/*
 * The guest's initramfs, written by patchver itself: a gzip'd cpio
 * ("newc") archive with /dev/console, /t and the test program as /init.
 * No root, no loop mounts, no cpio(1).
 */
int initramfs_write(const char *out, const char *init_binary);

#endif
