#ifndef PATCHVER_LAB_INITRAMFS_H
#define PATCHVER_LAB_INITRAMFS_H

#include <stddef.h>

/*
 * The guest's initramfs, written by patchver itself: a gzip'd cpio
 * ("newc") archive.  No root, no loop mounts, no cpio(1).  Parent
 * directories are added before what they hold.
 */
struct initramfs_entry {
	const char *path;           /* in the guest, without the leading / */
	unsigned mode;              /* with the type bits: 0100755, 040755, 020600 */
	const char *src;            /* a regular file: copied from this host file */
	const char *data;           /* or these bytes (a symlink: its target) */
	size_t size;
	unsigned rmajor, rminor;    /* a device node */
};

/* 0, or -1 when a source cannot be read or out cannot be written. */
int initramfs_write(const char *out, const struct initramfs_entry *e, size_t n);

#endif
