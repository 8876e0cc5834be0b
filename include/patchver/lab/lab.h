#ifndef PATCHVER_LAB_H
#define PATCHVER_LAB_H

#include <stdbool.h>
#include <stddef.h>
#include <git2.h>

#include "patchver/lab/boot.h"
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

/* A change applied on top of a candidate's commit. */
struct kpatch {
	char *name;                 /* "model", "fix", "002baeecf536", a file name */
	git_diff *diff;
};

/* What the guest must show: the bug (as `how` says it shows), or not. */
struct expectation {
	bool bug;
	const struct bug_spec *how;     /* borrowed: the run's --bug, or the candidate's own */
};

struct candidate {
	char *name;                 /* the row: "v2.6.34-rc1+fix" */
	char *role;                 /* why it is here */
	char *models;               /* the release a model state stands for, or NULL */
	git_oid commit;             /* in the kernel tree */
	struct kpatch **patches;    /* borrowed */
	size_t npatches;
	struct expectation expect;
	bool judge;                 /* false: record the result, expect nothing */
	struct bug_spec *own_bug;   /* --expect NAME=CHECK:ERRNO and the like */

	/* results */
	bool planned;               /* state and key computed, cached known (lab_plan) */
	char *state;                /* what was built: "6.1.192+model+fix" */
	char **compat;              /* the compat patches applied (names) */
	size_t ncompat;
	char compat_era[16];        /* their sub-era: guest/compat/<it>; "" none */
	char **make_vars;           /* its make command line's variables, NULL-terminated */
	char *make_flags;           /* the same as text, for the state's key */
	char *guest_cc;             /* its guest's compiler ("musl-gcc"); NULL: the usual guest */
	char **qemu_args;           /* QEMU's arguments for its sub-era (a machine type) */
	git_oid tree;
	char key[65];               /* tree, .config, compiler */
	int status;                 /* 0, PV_EPATCH, PV_EBUILD, PV_EBOOT */
	char *failed_patch;         /* PV_EPATCH: which one */
	bool cached;
	double build_seconds;
	char *image, *build_log;
	char *object_log;           /* a failed build's failing object, made again alone (kept
				       when the state is run again with prerequisites) */
	char **prereqs;             /* build prerequisites found: "<sha> <subject> (defines
				       <name>)", NULL-terminated; NULL: none needed */
	double prereq_seconds;      /* finding them: errors read, definitions, commits */
	struct boot_result boot;
	char *log, *record;
	char **unstuck;             /* requested config options that did not stick */
	bool smp;
	enum boot_answer answer;
	bool ok;                    /* behaved as expected */
	bool bug_seen;              /* the bug showed, as expect.how says */
	bool outside;               /* the text calls it affected, the boots put it outside
				       the range where the bug shows: listed, not held against */
	char *why;
};

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
	/* after each boot, its log written: keep a record of it at c->record (NULL: none) */
	void (*booted)(void *data, const struct lab *l, const struct candidate *c);
	void *booted_data;
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
 * The median of what the cache recorded for "build" or "boot" (seconds,
 * every earlier run's); returns how many were recorded (0: *median 0).
 */
int lab_recorded_seconds(const struct lab *l, const char *what, double *median);

/*
 * Parse "pass" (the bug must not show), "bug" (it must, as the run's
 * --bug says) or a --bug of its own ("CHECK:ERRNO", "oops", ...: into
 * *own, which the caller frees with oracle_free).  0 or PV_EINVALID.
 */
int lab_parse_expectation(struct expectation *e, const char *text, const struct bug_spec *dflt,
			  struct bug_spec **own);

/* A patch file as a kpatch.  0 or PV_EINPUT. */
int kpatch_from_file(struct kpatch *p, const char *path);
void kpatch_free(struct kpatch *p);

/*
 * A failed build's first error (after lab_run of c, before another
 * candidate's): the failing object made again with one job, so that the
 * message is its own, else the build log's.  e->kind BUILDERR_NONE when
 * neither says.  0, PV_ENOTOOL or PV_EINTERRUPTED.
 */
struct builderr;
int lab_build_error(struct lab *l, struct candidate *c, struct builderr *e);

/* Forget a run's results (state, build, boot, verdict), keeping what c is, to run it again. */
void candidate_reset(struct candidate *c);
void candidate_free(struct candidate *c);

#endif
