#ifndef PATCHVER_LAB_GUEST_H
#define PATCHVER_LAB_GUEST_H

struct lab;
struct candidate;

/*
 * The guest the lab boots every kernel with: guest/init.c as /init, the
 * reproducer (--reproducer: a path, or one of guest/reproducers/), the
 * --guest-file files and busybox, in an initramfs; how the bug shows
 * (--bug, else the reproducer's NAME.bug, else "exit"; "boot" without a
 * reproducer); the --config requests.  It lives in struct lab (lab.h):
 * repro, init, bug, kreq, and the alt_* guest.
 */

/*
 * The reproducer, the init, --bug and --config, all checked (and the C
 * ones compiled) before anything is built.  0 or a PV_E* code:
 * PV_EINVALID for the user's input, PV_EBUILD when the init does not build.
 */
int guest_prepare(struct lab *l);

/*
 * The initramfs at path: init as /init, the reproducer (NULL: none),
 * busybox with its applets (NULL: none), the --guest-file files; those
 * for /tmp wait in /.patchver/tmp, as /init mounts a tmpfs there.  0 or
 * PV_ENOTOOL.
 */
int guest_write_initramfs(const struct lab *l, const char *init, const char *repro,
			  const char *busybox, const char *path);

/*
 * The guest of a kernel whose sub-era names another compiler (c->guest_cc;
 * glibc's static start-up needs AT_RANDOM, 2.6.29): init and a C
 * reproducer built with it, no busybox; l->alt_initrd.  Made once a run.
 * 0, or PV_EBOOT with the state's reason: it cannot be tested.
 */
int guest_alt(struct lab *l, const struct candidate *c);

void guest_close(struct lab *l);

#endif
