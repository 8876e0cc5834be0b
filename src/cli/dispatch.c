/*
 * Everything the quick path does not answer (dispatch.h): the history
 * opened through libgit2, and the mode the options ask for run on it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/base/error.h"
#include "patchver/cli/audit_report.h"
#include "patchver/cli/bisect_report.h"
#include "patchver/cli/boot_record.h"
#include "patchver/cli/diag.h"
#include "patchver/cli/dispatch.h"
#include "patchver/cli/index_report.h"
#include "patchver/cli/query_history.h"
#include "patchver/cli/triage_report.h"
#include "patchver/cli/verify_report.h"
#include "patchver/engine/gitstart.h"
#include "patchver/engine/history.h"
#include "patchver/lab/lab.h"

#define LAZY_REVS 16    /* more revs than this: one load of the history serves them all */

static enum history_index index_mode(const struct options *o)
{
	if (o->no_index)
		return HISTORY_INDEX_OFF;
	/* one query answers without one: building costs more than the query */
	if (o->index || o->use_stdin || options_read_everything(o))
		return HISTORY_INDEX_BUILD;
	return HISTORY_INDEX_USE;
}

static int run_triage(const struct options *o, struct history *h, const char **revs,
		      size_t nrevs)
{
	struct triage_opts t = { o->json || o->cve_json, o->triage, o->patch_id, o->range,
				 o->evidence_mode, o->cve_json, o->cve_repo };

	if (o->patch)
		return triage_patch_file(h, &t, o->patch);
	return triage_revs(h, &t, revs, nrevs);
}

/* The lab machine as the options describe it: tree, accelerator, boots, reproducer. */
static struct lab_opts lab_of_options(const struct options *o)
{
	struct repro_opts r = { o->reproducer, o->guest_files, o->repro_timeout, o->bug,
				o->configs, o->strict_config };
	struct lab_opts l = { 0 };

	l.kernel_tree = o->kernel_tree;
	l.accel = o->accel;
	l.timeout = o->boot_timeout;
	l.keep = o->keep;
	l.jobs = o->jobs;
	l.quiet = o->json || o->cve_json;   /* JSON: stderr keeps errors and warnings */
	l.repro = r;
	l.booted = boot_record_write;
	return l;
}

static int run_verify(const struct options *o, struct history *h, const char *fix)
{
	struct verify_opts v = {
		.lab = lab_of_options(o),
		.series_dir = o->patch_series,
		.candidates = o->candidates, .expects = o->expects,
		.max_states = o->max_states, .all_releases = o->releases != NULL,
		.dry_run = o->dry_run, .measure = o->measure,
	};

	if (o->cve_json)
		return verify_report_cve(h, fix, &v, o->affected_from &&
					 !strcmp(o->affected_from, "boot"), o->cve_repo);
	return verify_report(h, fix, &v, o->json);
}

static int run_bisect(const struct options *o, struct history *h)
{
	struct bisect_opts b = {
		.lab = lab_of_options(o),
		.good = o->good, .bad = o->bad, .fix = o->fix,
		.tests = o->tests, .series = o->series, .commits = o->commits,
		.repeat = o->repeat ? o->repeat : 1,
		.resume = o->resume,
	};

	return bisect_report(h, &b, o->json);
}

/*
 * PATCHVER_AUDIT_ALL=1 judges "needed" for the commits that are no fix
 * too, so that bench/picks.py can fit the classes on every commit.
 */
static int run_audit(const struct options *o, struct history *h)
{
	const char *all = getenv("PATCHVER_AUDIT_ALL");
	struct audit_report_opts a = { o->json, o->audit, o->series, o->only,
				       all && !strcmp(all, "1") };
	return audit_report(h, &a);
}

static int prepare_tree(const struct options *o)
{
	struct lab_opts lo = { 0 };
	int ret;

	lo.kernel_tree = o->kernel_tree;
	gitstart_init();
	ret = verify_report_prepare_tree(&lo);
	gitstart_shutdown();
	return ret;
}

int patchver_dispatch(const struct options *o, const struct command_line *cl)
{
	struct history_opts hopts = { 0 };
	struct report_opts ropts = { 0 };
	struct history h;
	int ret;

	diag_install();
	if (o->cache_clean)
		return diag_exit(verify_report_cache_clean());
	if (o->prepare_tree)
		return diag_exit(prepare_tree(o));
	ropts.mode = cl->mode;
	ropts.json = o->json;
	ropts.match = o->match;
	hopts.path = o->dir;
	hopts.release_glob = o->match ? o->match : DEFAULT_RELEASE_GLOB;
	hopts.index = index_mode(o);
	/*
	 * a few names: git's cut walk reads less than the whole history; the
	 * full report's stable backports need every stable line's commits
	 */
	hopts.lazy_ok = !o->use_stdin && !o->index && !options_read_everything(o) &&
			cl->nrevs <= LAZY_REVS && cl->mode != REPORT_FULL;
	hopts.scan_pack = o->audit;
	gitstart_init();
	if ((ret = history_open(&h, &hopts)) == 0) {
		if (!h.tags.nr)
			ret = error(EXIT_NO_TAGS, "repository '%s' has no tags",
				    o->dir ? o->dir : ".");
		else if (o->index)
			ret = report_index(&h, o->json);
		else if (o->verify_boot)
			ret = run_verify(o, &h, cl->nrevs ? cl->revs[0] : NULL);
		else if (o->bisect_boot)
			ret = run_bisect(o, &h);
		else if (o->audit)
			ret = run_audit(o, &h);
		else if (o->patch || o->triage || o->patch_id)
			ret = run_triage(o, &h, cl->revs, cl->nrevs);
		else if (o->use_stdin)
			ret = report_stdin(&h, &ropts, stdin);
		else
			ret = report_revs(&h, &ropts, cl->revs, cl->nrevs);
	}
	history_close(&h);
	gitstart_shutdown();
	return diag_exit(ret);
}
