#ifndef PATCHVER_LAB_BISECT_BOOT_H
#define PATCHVER_LAB_BISECT_BOOT_H

#include <stdbool.h>

#include "patchver/engine/history.h"
#include "patchver/lab/bisect.h"
#include "patchver/lab/lab.h"

/*
 * --bisect-boot: find the first bad release (and commit) by booting
 * kernels in the lab, and with --fix the first release (and commit) where
 * the test passes again; the window between them is the set of affected
 * releases, proven by boots and set against the triage's.
 */
struct bisect_step;

/*
 * Where a bisection keeps its answers, so that an interrupted run can
 * resume: the caller's store, in the caller's format.
 */
struct bisect_journal {
	/* the journal of this question (its inputs hashed) is at path: read it (resume) or start it */
	void (*open)(void *data, const char *path, bool resume);
	/* the answer kept for a step's key, or -2: none */
	int (*recall)(void *data, const char *key);
	void (*keep)(void *data, const struct bisect_step *s);
	void *data;
};

struct bisect_opts {
	struct lab_opts lab;        /* the machine; kernel_tree NULL: -C's repository */
	const char *good, *bad;     /* known good (old) and bad (new) revs */
	const char *fix;            /* a rev known fixed, after bad; NULL: no fix search */
	const char *tests;          /* checks that decide, comma-separated; NULL: the bug decides */
	const char *series;         /* "X.Y": bisect that stable series' tags */
	bool commits;               /* stage 2: the commits between two releases */
	int repeat;                 /* boots per step (the final answer: at least 3) */
	bool resume;                /* reuse the answers of an interrupted run's journal */
	bool dry_run;               /* the plan only: nothing built or booted */
	const struct bisect_journal *journal;   /* NULL: nothing kept */
};

/* One state built and booted `boots` times (or its answer read from the log). */
struct bisect_step {
	char *label, *kind;         /* "v2.6.34-rc1", "release" / "commit" / "end" / "confirm" */
	char key[80];               /* commit, patches, boots: the log's key */
	enum bisect_answer answer;
	bool fix_phase;             /* searched for the fix: "new" means passing */
	int boots, bad_boots;
	bool built, build_failed, cached, from_log;
	double build_seconds, boot_seconds;
	char *why;
};

/*
 * What one search will do at most, before its first build: the releases
 * between its ends (a binary search: ceil(log2 n) steps), then with
 * --commits the commits between the two releases it lands on (the
 * largest first-parent gap of the range bounds them), then the answer
 * confirmed.
 */
struct bisect_plan_phase {
	bool present;               /* the fix's search only with --fix */
	const char *old, *new;      /* its ends, as given (the fix's old: NULL, the
				       regression's first bad state, found later) */
	size_t nreleases;           /* after old up to new (0: the ends are not both tags) */
	int release_steps;
	size_t max_commits;         /* the largest first-parent gap between two of its states */
	int commit_steps;           /* 0 without --commits */
	size_t nstates, ncached;    /* its ends and releases; of them, images already built */
};

/* The plan of a bisection: printed before the first build; all of --dry-run. */
struct bisect_plan {
	struct bisect_plan_phase reg, fix;
	int repeat, confirm_boots;
	int max_builds, max_boots;  /* at most, cached images left out */
	double build_median, boot_median;   /* what earlier runs recorded (0: nothing) */
	int nbuild_records, nboot_records;
	double estimate;            /* seconds at most; 0: nothing recorded to estimate from */
	size_t journal_answers;     /* --resume: the steps the journal already answers */
};

/* One search's answer: a range of releases or commits. */
struct bisect_finding {
	bool done, ambiguous, confirmed;
	uint32_t last_old_tag, first_new_tag;         /* PV_NONE: none */
	uint32_t last_old, first_new;                 /* commits (DAG) */
	uint32_t commit;                              /* the commit found, PV_NONE if none */
	uint32_t *candidates;                         /* ambiguous: any of these */
	size_t ncandidates;
	int confirm_new, confirm_old, confirm_n;      /* boots that agreed, of confirm_n */
	bool flaky;                 /* a state answered both ways: an end booted again, or a
				       confirmation's boots */
	char *confirm_why;
};

struct bisect_boot_result {
	struct bisect_plan plan;    /* planned: set before the first build */
	bool planned;
	struct bisect_step *steps;
	size_t nsteps;
	struct bisect_finding reg, fix;
	bool reported;              /* the regression search ended: the findings are worth a report */
	bool have_window;           /* both searches found releases: the window below */
	uint32_t *window;           /* mainline releases from the first bad to the last unfixed */
	size_t nwindow;
	bool have_triage;           /* the triage of the fix commit, beside the boots */
	uint32_t *triage_affected;  /* its mainline releases with the bug */
	size_t ntriage_affected;
	bool agree;                 /* window and triage_affected are the same releases */
	bool names_culprit;         /* the triage's evidence names the boot-bisected commit */
	bool confirmed;             /* every search found one answer, confirmed by boots */
	int builds, boots;
	long seconds;
	char *log_path;             /* where the journal is kept */
	char *reproducer;           /* the program the guest ran; NULL: a boot test only */
	char *bug;                  /* how the bug shows (--bug's text) */
};

/* What a bisection tells as it goes (each may be NULL). */
struct bisect_events {
	/* reproducer NULL: each step is a boot test only */
	void (*started)(void *data, const char *kernel_tree, const char *reproducer, int repeat,
			int confirm_boots);
	/* stage 1: n releases after `old` up to `new` */
	void (*releases)(void *data, size_t n, const char *old, const char *new, bool fix_phase);
	/* stage 2: n commits (merged: by the merge the search blamed) */
	void (*commits)(void *data, size_t n, bool merged);
	void (*step)(void *data, const struct bisect_step *s, size_t number);
	/* the plan, before the first build (with --dry-run, all there is) */
	void (*planned)(void *data, const struct bisect_plan *p);
	void *data;
};

/*
 * Bisect into *r (freed with bisect_boot_result_free, also after a
 * failure; r->reported says whether it holds findings; r->plan what it
 * planned, r->planned whether it got that far: with o->dry_run, nothing
 * more is done).  0 when every
 * search ended (r->confirmed says whether the boots confirm it), else a
 * PV_E* code: PV_EUNCONFIRMED when an end does not behave as given.
 */
int bisect_boot(struct history *h, const struct bisect_opts *o, const struct bisect_events *ev,
		struct bisect_boot_result *r);
void bisect_boot_result_free(struct bisect_boot_result *r);

/*
 * One boundary, on a lab the caller holds open (--verify-boot --measure):
 * between two releases the caller booted, old_tag answering "old" and
 * new_tag "new" (in the fix phase: the bug shows at old_tag and no longer
 * at new_tag).  Each end is booted again (3 times: a flaky end is said in
 * r->reg.confirm_why and not bisected on), then the releases between
 * them, the commits, and the answer confirmed as bisect_boot confirms it.
 * The finding is r->reg.  0 or a PV_E* code.
 */
struct bisect_boundary {
	uint32_t old_tag, new_tag;
	bool fix_phase;             /* where the bug stops showing */
};
int bisect_boot_boundary(struct history *h, struct lab *l, const struct bisect_boundary *q,
			 const struct bisect_events *ev, struct bisect_boot_result *r);

/* A state's name: its release tag's, or its commit's short id (hex) when tag is PV_NONE. */
const char *bisect_state_name(const struct history *h, uint32_t tag, uint32_t commit,
			      char hex[13]);


#endif
