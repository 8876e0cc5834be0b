#ifndef PATCHVER_LAB_CANDIDATE_H
#define PATCHVER_LAB_CANDIDATE_H

#include <stdbool.h>
#include <stddef.h>
#include <git2.h>

#include "patchver/lab/boot.h"
#include "patchver/lab/oracle.h"

/*
 * A candidate: one row of --verify-boot or one step of --bisect-boot, a
 * commit of the kernel tree plus patches with what its guest must show;
 * then what the lab found when it built and booted it (lab.h), and the
 * judgement of that against the expectation.
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

/*
 * What a run of a candidate found (lab_run, and verify's measure for
 * `outside`): forgotten as a whole when the candidate is run again.
 */
struct candidate_run {
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
	struct boot_result boot;
	char *log, *record;
	char **unstuck;             /* requested config options that did not stick */
	char **unbuilt;             /* the watched files it does not compile, a line each (unbuilt.h) */
	bool unbuilt_from_fragment; /* ... read against the fragment: no .config yet */
	bool same_image;            /* its image is its unpatched twin's: the patch built nothing */
	bool smp;
	enum boot_answer answer;
	bool ok;                    /* behaved as expected */
	bool bug_seen;              /* the bug showed, as expect.how says */
	bool outside;               /* the text calls it affected, the boots put it outside
				       the range where the bug shows: listed, not held against */
	char *why;
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

	/* what the search for build prerequisites found (prereq.h): kept across runs */
	char *object_log;           /* a failed build's failing object, made again alone (kept
				       when the state is run again with prerequisites) */
	char **prereqs;             /* build prerequisites found: "<sha> <subject> (defines
				       <name>)", NULL-terminated; NULL: none needed */
	double prereq_seconds;      /* finding them: errors read, definitions, commits */
	struct candidate_run run;
};

/* A patch file as a kpatch.  0 or PV_EINPUT. */
int kpatch_from_file(struct kpatch *p, const char *path);
void kpatch_free(struct kpatch *p);

/*
 * Parse "pass" (the bug must not show), "bug" (it must, as the run's
 * --bug says) or a --bug of its own ("CHECK:ERRNO", "oops", ...: into
 * *own, which the caller frees with oracle_free).  0 or PV_EINVALID.
 */
int expectation_parse(struct expectation *e, const char *text, const struct bug_spec *dflt,
		      struct bug_spec **own);

/*
 * Judge a booted candidate: c->answer from what its guest printed (as
 * c->expect.how reads it), c->ok whether that is what it had to show,
 * c->why in one line; a boot that tells nothing is PV_EBOOT in c->status.
 */
void candidate_judge(struct candidate *c);

/* Forget a run's results (state, build, boot, verdict), keeping what c is, to run it again. */
void candidate_reset(struct candidate *c);
void candidate_free(struct candidate *c);

#endif
