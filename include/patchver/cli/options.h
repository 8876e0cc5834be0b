#ifndef PATCHVER_OPTIONS_H
#define PATCHVER_OPTIONS_H

#include <popt.h>
#include <stdbool.h>
#include <stddef.h>

#include "patchver/cli/query_report.h"
#include "patchver/stable/evidence_mode.h"

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
	char *evidence;
	enum evidence_mode evidence_mode;   /* --evidence, parsed */
	int describe, name_rev, tags_containing, first_release;
	int triage, patch_id;
	int verify_boot, keep, cache_clean, boot_timeout, prepare_tree;
	char *kernel_tree, *accel, *series, *bug;
	char **candidates, **expects;
	char *max_states_arg, *releases;    /* --max-states N, --releases all */
	int max_states, dry_run;
	int measure;
	char *affected_from;                /* --affected-from text|boot (with --cve-json) */
	int bisect_boot, commits, repeat, resume;
	char *audit, *only;
	char *good, *bad, *fix, *tests;
	int json, use_stdin, version;
	char *patch_series;
	int cve_json;
	char *cve_repo;                     /* --cve-repo URL (with --cve-json) */
	int jobs;
	char *reproducer;
	char **guest_files, **configs;
	int repro_timeout, strict_config;
	int index, no_index;
};

/* The CLI's options: the only global state (the popt tables point into it). */
extern struct options opt;

struct command_line {
	poptContext ctx;
	const char **revs;          /* the arguments left, NULL-terminated */
	size_t nrevs;
	enum report_mode mode;      /* from --describe, --name-rev, ... */
};

/* Parse argv into opt and cl: 0, or EXIT_USAGE after a one-line error. */
int options_parse(struct command_line *cl, int argc, const char **argv);

/*
 * Check that the options go together and set what follows from them (the
 * report mode, --evidence, the lab's timeouts): 0 or EXIT_USAGE after a
 * one-line error.  Not needed for --version, --cache-clean, --prepare-tree.
 */
int options_check(struct command_line *cl);

/* Free opt's strings and the popt context. */
void options_free(struct command_line *cl);

/*
 * The modes that walk every commit (their paths, trees and releases):
 * never lazy, and they build the index if it is missing.
 */
static inline bool options_read_everything(const struct options *o)
{
	return o->triage || o->patch || o->patch_id || o->audit || o->verify_boot ||
	       o->bisect_boot;
}

#endif
