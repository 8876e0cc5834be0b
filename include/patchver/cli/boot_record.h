#ifndef PATCHVER_CLI_BOOT_RECORD_H
#define PATCHVER_CLI_BOOT_RECORD_H

#include "patchver/base/json.h"
#include "patchver/lab/lab.h"

/*
 * The lab's booted hook (lab_opts): write c->record, a JSON object with
 * the candidate's state, tree, patches, state key, work tree, object
 * directory, image, initramfs, compiler, QEMU and command line -- enough
 * to boot the same kernel again by hand.  A record that cannot be written
 * is skipped: it documents the boot, it decides nothing.
 */
void boot_record_write(void *data, const struct lab *l, const struct candidate *c);

/*
 * The lab's timed and recorded hooks: <cache>/times, "build|boot SECONDS
 * STATE" a line, appended after each build and boot; the median of one
 * kind's seconds, what --verify-boot's estimate reads.
 */
void boot_record_time(void *data, const struct lab *l, const char *what, double seconds,
		      const char *state);
int boot_record_median(void *data, const struct lab *l, const char *what, double *median);

/* A state's build compatibility: compat_era, compat_patches, make_flags (the lab's sub-era). */
void json_compat(struct json *j, const struct candidate *c);

#endif
