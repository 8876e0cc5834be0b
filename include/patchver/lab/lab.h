#ifndef PATCHVER_LAB_LAB_H
#define PATCHVER_LAB_LAB_H

#include <stdbool.h>
#include <stddef.h>
#include <git2.h>

#include "patchver/lab/boot.h"
#include "patchver/lab/candidate.h"
#include "patchver/lab/compat.h"
#include "patchver/lab/kconfig.h"
#include "patchver/lab/ktree.h"
#include "patchver/lab/oracle.h"
#include "patchver/lab/repro.h"

/*
 * The lab: where candidate kernels are built and booted.  A candidate is
 * a commit of the kernel tree plus patches; the lab computes its tree in
 * memory, writes it into the cache work tree, builds it in the one object
 * directory for its configuration, boots it in QEMU with the reproducer
 * (guest/init.c runs it between two markers) and judges what the guest
 * printed (oracle.h) against the candidate's expectation.  --verify-boot
 * and --bisect-boot both run their candidates here.
 */

struct lab;

struct lab_opts {
	const char *kernel_tree;    /* NULL: Debian's linux-source */
	const char *guest_dir;      /* NULL: found by datadir_guest() */
	const char *accel;          /* NULL: pick */
	int timeout;                /* seconds per boot */
	bool keep;                  /* keep built images */
	bool quiet;                 /* no progress on stderr (--json) */
	int jobs;                   /* --jobs: make -jN (0: one per CPU) */
	struct repro_opts repro;
	/*
	 * The files whose compilation each state's plan and build check
	 * (unbuilt.h): the fix's .c and .S files.  NULL: none.
	 */
	char **watch;
	/*
	 * What the lab keeps of a run is the front's to write (cli/boot_record):
	 * after each boot, its log written, a record of it at c->record; after
	 * each build and boot, its time ("build" or "boot", seconds, the state);
	 * and the median of the times kept for one of them, for estimates
	 * (returns how many; *median 0 when none).  NULL: nothing kept.
	 */
	void (*booted)(void *data, const struct lab *l, const struct candidate *c);
	void (*timed)(void *data, const struct lab *l, const char *what, double seconds,
		      const char *state);
	int (*recorded)(void *data, const struct lab *l, const char *what, double *median);
	void *hook_data;
};

struct lab {
	const struct lab_opts *o;
	char *cache, *guest, *initrd, *gcc, *qemu, *stamp;
	const char *accel;
	struct ktree tree;
	int lock_fd;
	struct compat compat;       /* the last sub-era loaded (compat.h) */
	char **built;               /* images built by this run */
	size_t nbuilt;
	struct repro repro, init;   /* the reproducer, and guest/init.c */
	/* the guest of kernels that need another compiler's programs (compat's guest-cc) */
	char *alt_cc, *alt_initrd;
	struct repro alt_repro, alt_init;
	struct bug_spec bug;        /* how the bug shows (--bug, or the default) */
	struct kconfig_request kreq;
};

/* Tools, cache lock, guest initramfs, kernel tree.  0 or a PV_E* code. */
int lab_open(struct lab *l, const struct lab_opts *o);
void lab_close(struct lab *l);

void lab_progress(const struct lab *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Build and boot candidate i of n (for progress), and judge it.  Returns
 * 0 when it ran (c->status says how), PV_EINTERRUPTED or PV_ENOTOOL
 * when the run must stop.
 */
int lab_run(struct lab *l, struct candidate *c, size_t i, size_t n);

/*
 * Before any build: the candidate's state (its tree, compat and patches)
 * and key, and whether its image is cached.  A patch that does not apply
 * is the candidate's status (PV_EPATCH), as in lab_run.  0 or a PV_E* code.
 */
int lab_plan(struct lab *l, struct candidate *c);

/*
 * The median of what earlier runs recorded for "build" or "boot" (seconds,
 * through the recorded hook); returns how many were recorded (0: *median 0).
 */
int lab_recorded_seconds(const struct lab *l, const char *what, double *median);

#endif
