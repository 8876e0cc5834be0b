#ifndef PATCHVER_LAB_KBUILD_H
#define PATCHVER_LAB_KBUILD_H

#include "patchver/lab/ktree.h"

/*
 * make on a kernel tree of the cache (ktree.h): work/ (the state
 * ktree_checkout wrote) built in the object directory of its
 * configuration, with the compat sub-era's make variables (k->make_vars)
 * on every command line, so that kbuild's recorded commands match.
 */

/*
 * Configure with the fragment: tinyconfig + merge_config.sh where the
 * tree has them, else allnoconfig with KCONFIG_ALLCONFIG (old kernels).
 * Redone when the fragment changes.  0 or PV_EBUILD.
 */
int kbuild_configure(struct ktree *k, const char *fragment, const char *log);

/* make bzImage; *image: the built image (caller frees).  0 or PV_EBUILD. */
int kbuild_image(struct ktree *k, const char *log, double *seconds, char **image);

/*
 * make one target (an object, "vmlinux") with one job, its output in log:
 * a failed build's first error, not interleaved.  0 whatever make's exit
 * (the log says), PV_ENOTOOL or PV_EINTERRUPTED.
 */
int kbuild_make_target(struct ktree *k, const char *target, const char *log);

/* $DISTCC_HOSTS when builds go through distcc (masquerade), else NULL. */
const char *kbuild_distcc(void);

#endif
