#ifndef PATCHVER_CLI_OPTIONS_H
#define PATCHVER_CLI_OPTIONS_H

#include <popt.h>
#include <stdbool.h>
#include <stddef.h>

#include "patchver/stable/evidence_mode.h"
#include "patchver/cli/query_report.h"

/*
 * The command line: parsed and checked here, in the front (main.c), and
 * handed whole to the full program (dispatch.h) when the quick path does
 * not answer.
 */
#define DEFAULT_RELEASE_GLOB "v[0-9]*"

struct options {
	char *dir;
	char *match;
	char *patch;
	char *range;
	enum evidence_mode evidence;        /* --evidence */
	int describe, name_rev, tags_containing, first_release;
	int triage, patch_id;
	int verify_boot, keep, cache_clean, boot_timeout, prepare_tree;
	char *kernel_tree, *accel, *series, *bug;
	char **candidates, **expects;
	int max_states;                     /* --max-states N; 0: the default */
	bool all_releases;                  /* --releases all */
	int dry_run;
	int measure;
	bool affected_from_boot;            /* --affected-from boot (with --cve-json) */
	int bisect_boot, commits, repeat, resume;
	char *audit, *only;
	char *good, *bad, *fix, *tests;
	int json, use_stdin, version;
	char *patch_series;
	int cve_json;
	int dyad;                           /* --dyad (with --triage): dyad's lines */
	int cve_record;                     /* --cve-record (with --triage): whole records */
	char *cve_id, *cna_org_id;          /* --cve-id, --cna-org-id (with --cve-record) */
	char *cve_repo;                     /* --cve-repo URL (with --cve-json) */
	char **introducers;                 /* --introducer SHA|none (with --triage, one fix) */
	int jobs;
	char *reproducer;
	char **guest_files, **configs;
	int repro_timeout, strict_config;
	int index, no_index;
	int backport;                       /* --backport FIX (or --patch FILE) */
	char *onto;                         /* --onto REV */
};

/* The CLI's options: the only global state (the popt tables point into it). */
extern struct options opt;

/* The job a run does, decided once from the options (options_parse). */
enum job {
	JOB_VERSION,                /* --version */
	JOB_CACHE_CLEAN,            /* --cache-clean */
	JOB_PREPARE_TREE,           /* --prepare-tree */
	JOB_INDEX,                  /* --index: write the release index */
	JOB_NAMES,                  /* the revisions given, named (mode says which report) */
	JOB_NAMES_STDIN,            /* ... the revisions read from stdin */
	JOB_TRIAGE,                 /* --triage, --patch-id, --patch */
	JOB_AUDIT,                  /* --audit */
	JOB_VERIFY_BOOT,            /* --verify-boot */
	JOB_BISECT_BOOT,            /* --bisect-boot */
	JOB_BACKPORT,               /* --backport --onto REV: does the fix go in there */
};

struct command_line {
	poptContext ctx;
	const char **revs;          /* the arguments left, NULL-terminated */
	size_t nrevs;
	enum job job;
	enum report_mode mode;      /* JOB_NAMES*: --describe, --name-rev, ... */
};

/*
 * Parse argv into opt and cl, check that the options go together, set
 * what follows from them (the lab's timeouts) and decide the job: 0, or
 * EXIT_USAGE after a one-line error.  --version, --cache-clean and
 * --prepare-tree take the rest as it is.
 */
int options_parse(struct command_line *cl, int argc, const char **argv);

/* Free opt's strings and the popt context. */
void options_free(struct command_line *cl);

/*
 * The jobs that walk every commit (their paths, trees and releases):
 * never lazy, and they build the index if it is missing.
 */
static inline bool job_reads_everything(enum job job)
{
	return job == JOB_TRIAGE || job == JOB_AUDIT || job == JOB_VERIFY_BOOT ||
	       job == JOB_BISECT_BOOT || job == JOB_BACKPORT;
}

#endif
