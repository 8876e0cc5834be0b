#ifndef PATCHVER_LAB_VERIFY_H
#define PATCHVER_LAB_VERIFY_H

#include <stdbool.h>
#include <stddef.h>

#include "patchver/engine/history.h"
#include "patchver/lab/lab.h"

/*
 * --verify-boot: build each candidate kernel state and boot it in QEMU
 * with the reproducer, then check that the bug shows in the candidates
 * that have it (as --bug says it shows) and not in the fixed ones.  Candidates come from the
 * triage of the fix:
 *  - on a kernel git repository: the last release before the bug
 *    (control), every affected release as released and with the fix (and
 *    the prerequisites the triage found), and the first release with it;
 *  - on a kernel tree without that history (Debian's linux-source): the
 *    same story modelled by a patch series (regression model, fix).
 * --candidate replaces them with the user's own.
 */
struct verify_result;
struct measure;

struct verify_opts {
	/* the machine; kernel_tree NULL: -C's repository if it holds a kernel, else Debian's */
	struct lab_opts lab;
	const char *series_dir;     /* model scenario: regression model, then fix */
	char **candidates;          /* NAME=ITEM[,ITEM...] */
	char **expects;             /* NAME=pass|bug|<how the bug shows> */
	int max_states;             /* the plan's states at most (0: VERIFY_MAX_STATES) */
	bool all_releases;          /* every affected release, no plan */
	bool dry_run;               /* the plan only: nothing built or booted */
	bool measure;               /* bisect where the boots put the bug's boundary elsewhere */
	const char *measure_ask;    /* how the user asks for measure, said where it would help */
	char *const *introducers;   /* --introducer: the triage's given introducers, or NULL */
	/* the plan, before the first build (r holds the candidates and what was left out) */
	void (*planned)(void *data, const struct verify_result *r);
	void *planned_data;
};

#define VERIFY_MAX_STATES 24
/* build prerequisites a +fix state may take before it is said not to build */
#define VERIFY_PREREQ_ROUNDS 3

struct verify;

/* Where the candidates come from (see above). */
enum verify_scenario {
	VERIFY_RELEASES,            /* the history's releases, from the fix's triage */
	VERIFY_MODEL,               /* a patch series models the story on a tree without it */
	VERIFY_USER,                /* --candidate */
};

/* "releases", "model", "user": as reports name them */
const char *verify_scenario_name(enum verify_scenario s);

/* What the boots showed: everything a report of the run says. */
struct verify_result {
	enum verify_scenario scenario;
	char fix[GIT_OID_HEXSZ + 1];/* the fix's id; "" without one */
	char *fix_subject;
	const char *kernel_tree;    /* what the lab built from */
	const char *accel;          /* QEMU's accelerator */
	const char *reproducer;     /* the program the guest ran; NULL: a boot test only */
	const char *bug;            /* how the bug shows (--bug's text) */
	char *logs;                 /* the boot logs' pattern: "<cache>/boots/<stamp>-*" */
	const struct candidate *c;  /* in the order they ran */
	size_t n;
	/* the plan */
	bool dry_run;               /* only planned: nothing built or booted */
	int max_states;             /* 0: every affected release (no plan) */
	char **left_out;            /* affected releases the plan did not boot */
	size_t nleft_out;
	char *plan_note;            /* what the plan could not have: "no control: ..." */
	size_t nbuild;              /* states without a cached image */
	double build_median, boot_median;   /* seconds, from the cache's records; 0: none */
	int nbuild_records;
	double estimate;            /* seconds the run should take; 0: unknown */
	/* where the bug shows, by boot, beside the text (releases scenario; NULL: not read) */
	const struct measure *measure;
	bool measure_requested;     /* --measure: boundaries bisected */
	int measure_builds;         /* the plan: release-level builds a boundary may take */
	size_t measure_gap;         /* ... for this many releases in the widest gap */
	uint32_t culprit;           /* the text's introducer (commit), or PV_NONE */
	const struct triage *triage;/* the fix's triage the plan came from, or NULL */
	struct history *h;          /* the history the tags and commits above are of */
	git_oid fix_oid;
	bool confirmed;             /* every candidate behaved as expected (states outside
				       the measured range aside) */
	char *verdict;              /* one sentence */
	bool untested;              /* no state with the fix compiled its files (unbuilt.h) */
	int failure;                /* not confirmed: the first candidate's PV_EPATCH, PV_EBUILD
				       or PV_EBOOT; 0 when each ran and one misbehaved */
	struct verify *run;         /* the lab and patches the candidates borrow from */
};

/*
 * Build and boot the candidates into *r (freed with verify_result_free,
 * also after a failure).  fix_rev may be NULL with candidates.  0 when
 * every candidate ran (r->confirmed says how they behaved), else a PV_E*
 * code: PV_EUNCONFIRMED when the triage finds no release to verify.
 */
int verify_boot(struct history *h, const char *fix_rev, const struct verify_opts *o,
		struct verify_result *r);
void verify_result_free(struct verify_result *r);

struct cache_usage {
	char *cache;                /* the cache directory; caller frees */
	long long before_kib, after_kib;
};

/* --cache-clean: remove built images and boot logs, keep sources and object directories. */
int verify_cache_clean(struct cache_usage *u);

#endif
